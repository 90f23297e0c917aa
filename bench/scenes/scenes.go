package scenes

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/flight"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh"
	"github.com/collide3d/collide/mesh/gen"
)

// Size selects the scale of a scene.
type Size int

const (
	// Full scenes have about the triangle counts and flight lengths of the
	// paper's Table 2.
	Full Size = iota
	// Quick scenes have a few thousand triangles and a few hundred steps,
	// for tests and `collide bench --quick`.
	Quick
)

// Paper is a row of the paper's Table 2: the sizes of its scene and its
// flight.
type Paper struct {
	EnvTris, FlyTris, Steps, Contacts int
}

// A Scene is an environment, a flying model and the motion of the flight.
type Scene struct {
	Name string // as New takes it
	// Doc says in a sentence how the scene is made.
	Doc      string
	Env, Fly *mesh.TriMesh
	// Steps is the flight's length: the paper's, or a few hundred for
	// Quick scenes.
	Steps int
	// Billiard is the flight's path, unless Poses is set.
	Billiard flight.BilliardConfig
	// Poses is a path fixed in advance (the Swept scene), or nil.
	Poses []geom.Pose
	// Paper is the paper's row for the scene.
	Paper Paper
}

// Motion returns a new motion along the scene's path.
func (s *Scene) Motion() (flight.Motion, error) {
	if s.Poses != nil {
		return &flight.Recorded{Poses: s.Poses}, nil
	}
	return flight.NewBilliard(s.Billiard)
}

// Names returns the scenes New makes: the paper's, in its order (pipes,
// torus, 747, swept, interior), then ours beyond the paper, the scenes of
// close proximity (ProximityNames).
func Names() []string {
	return append(PaperNames(), ProximityNames()...)
}

// PaperNames returns the scenes of the paper, in its order: pipes, torus,
// 747, swept, interior.
func PaperNames() []string { return []string{"pipes", "torus", "747", "swept", "interior"} }

// ProximityNames returns the scenes of close proximity, where every pose
// touches, nearly touches or presses: gears, two spur gears in mesh, then
// the scenes of real meshes, which need Debian's libcgal-demo package (see
// Available): dragon (a CAD part and a scanned dragon), knot (a scanned
// bull through a knot's loops), parts (a CAD part sliding past another),
// blades (a turbine blade against a copy of itself), handle (a half
// cylinder against a handle), cylinders (a half cylinder against a larger
// one), shell (a femur against a thin curved shell, a mask) and camel (a
// scanned camel through a knot's loops).
func ProximityNames() []string { return append([]string{"gears"}, realNames...) }

// NeedsData reports whether scene name is made of meshes that are not part
// of collide (those of Debian's libcgal-demo package).
func NeedsData(name string) bool {
	_, ok := realScenes[name]
	return ok
}

// Available returns nil when scene name can be made on this machine, or
// else why not: a *MissingDataError, saying how to install the meshes, for
// a scene of real meshes when they are not installed (see CGALDataEnv).
func Available(name string) error {
	rs, ok := realScenes[name]
	if !ok {
		if slices.Contains(Names(), name) {
			return nil
		}
		return fmt.Errorf("scenes: unknown scene %q (known: %s)", name, strings.Join(Names(), ", "))
	}
	_, err := cgalMeshes(name, rs.env, rs.fly)
	return err
}

// New makes the scene called name at the given size. seed selects the
// random geometry (pipes, spikes, tetrahedra, clutter) and the flight's
// path: a scene is a function of its arguments alone (and, for the scenes
// of real meshes, of the meshes installed: the error is then a
// *MissingDataError when they are not).
func New(name string, size Size, seed uint64) (*Scene, error) {
	if size != Full && size != Quick {
		return nil, fmt.Errorf("scenes: unknown size %d", size)
	}
	var s *Scene
	var err error
	switch name {
	case "pipes":
		s, err = pipes(size, seed)
	case "torus":
		s, err = torusScene(size, seed)
	case "747":
		s, err = aircraft(size, seed)
	case "swept":
		s, err = swept(size, seed)
	case "interior":
		s, err = interior(size, seed)
	case "gears":
		s, err = gears(size, seed)
	default:
		if _, ok := realScenes[name]; ok {
			s, err = realMeshes(name, size, seed)
			break
		}
		return nil, fmt.Errorf("scenes: unknown scene %q (known: %s)", name, strings.Join(Names(), ", "))
	}
	var missing *MissingDataError
	if errors.As(err, &missing) {
		return nil, err
	}
	if err != nil {
		return nil, fmt.Errorf("scenes: %s: %w", name, err)
	}
	s.Name = name
	return s, nil
}

// freeStart moves c.Start to a random point of c.Bounds where fly, at
// c.Orient, does not touch env, trying up to 200 points; it keeps c.Start
// if none is free (the flight then moves on until it is free).
func freeStart(env, fly *mesh.TriMesh, c *flight.BilliardConfig) error {
	em, err := collide.Build(env, collide.BuildOptions{})
	if err != nil {
		return err
	}
	fm, err := collide.Build(fly, collide.BuildOptions{})
	if err != nil {
		return err
	}
	rng := rand.New(rand.NewPCG(c.Seed, 0x7374617274)) // "start"
	lo, hi := c.Bounds.Min, c.Bounds.Max
	p := c.Start
	for range 200 {
		b, err := flight.NewBilliard(flight.BilliardConfig{Center: c.Center, Start: p, Orient: c.Orient, Bounds: c.Bounds})
		if err != nil {
			return err
		}
		res, err := collide.Check(em, fm, b.Pose(), collide.QueryOptions{})
		if err != nil {
			return err
		}
		if !res.Collide {
			c.Start = p
			return nil
		}
		p = geom.Vec3{
			X: lo.X + (hi.X-lo.X)*rng.Float64(),
			Y: lo.Y + (hi.Y-lo.Y)*rng.Float64(),
			Z: lo.Z + (hi.Z-lo.Z)*rng.Float64(),
		}
	}
	return nil
}

// pick returns full or quick by size.
func pick[T any](size Size, full, quick T) T {
	if size == Quick {
		return quick
	}
	return full
}

// Scale returns a copy of m with every vertex v moved to s·v + offset.
func Scale(m *mesh.TriMesh, s float64, offset geom.Vec3) *mesh.TriMesh {
	out := &mesh.TriMesh{Verts: make([]geom.Vec3, len(m.Verts)), Tris: slices.Clone(m.Tris)}
	for i, v := range m.Verts {
		// Each product rounded on its own: no fused multiply-add, the
		// same bits on every platform.
		out.Verts[i] = geom.Vec3{X: float64(s*v.X) + offset.X, Y: float64(s*v.Y) + offset.Y, Z: float64(s*v.Z) + offset.Z}
	}
	return out
}

// shrink returns b moved in by d on every side.
func shrink(b geom.AABB, d geom.Vec3) geom.AABB {
	return geom.AABB{Min: b.Min.Add(d), Max: b.Max.Sub(d)}
}

func cube(s float64) geom.Vec3 { return geom.Vec3{X: s, Y: s, Z: s} }

// pipes: the paper's "interweaving pipeline flying in a larger copy of
// itself" (143,690 triangles each).
func pipes(size Size, seed uint64) (*Scene, error) {
	net, err := Pipes(pick(size, 143690, 4000), seed)
	if err != nil {
		return nil, err
	}
	const scale = 2.5
	env := Scale(net, scale, geom.Vec3{})
	b := net.Bounds()
	sc := &Scene{
		Doc: fmt.Sprintf("a pipe network (Pipes) flying through a copy of itself %g times larger", scale),
		Env: env, Fly: net,
		Steps: pick(size, 2000, 300),
		Billiard: flight.BilliardConfig{
			Center: b.Center(), Start: env.Bounds().Center(), Bounds: shrink(env.Bounds(), b.Size().Scale(0.25)),
			Speed: 0.006 * scale, Spin: 0.01, Turn: 0.3, Seed: seed,
		},
		Paper: Paper{143690, 143690, 2000, 2657},
	}
	return sc, freeStart(sc.Env, sc.Fly, &sc.Billiard)
}

// torusScene: "a deformed torus among stalagmites" (20,000 and 98,114).
func torusScene(size Size, seed uint64) (*Scene, error) {
	fly, err := DeformedTorus(pick(size, 20000, 1000), seed)
	if err != nil {
		return nil, err
	}
	env, err := Stalagmites(pick(size, 98114, 5000), seed)
	if err != nil {
		return nil, err
	}
	eb := env.Bounds()
	r := fly.Bounds().Size().Scale(0.5)
	sc := &Scene{
		Doc: "a deformed torus (DeformedTorus) flying among stalagmites (Stalagmites)",
		Env: env, Fly: fly,
		Steps: pick(size, 2000, 300),
		Billiard: flight.BilliardConfig{
			Center: fly.Bounds().Center(), Start: eb.Center(), Bounds: shrink(eb, r),
			Speed: 0.03, Spin: 0.02, Turn: 0.3, Seed: seed,
		},
		Paper: Paper{98114, 20000, 2000, 1472},
	}
	return sc, freeStart(sc.Env, sc.Fly, &sc.Billiard)
}

// aircraft: "a Boeing 747 among 25,000 random disjoint tetrahedra".
func aircraft(size Size, seed uint64) (*Scene, error) {
	plane, err := Aircraft(pick(size, 14646, 1500))
	if err != nil {
		return nil, err
	}
	const length = 3 // the aircraft's length, in the tetrahedra's units
	fly := Scale(plane, length/math.Max(plane.Bounds().Size().X, 1e-300), geom.Vec3{})
	n := pick(size, 25000, 1000)
	side := 30 * math.Cbrt(float64(n)/25000) // the same density at both sizes
	box := geom.AABB{Max: cube(side)}
	env, err := gen.Tetrahedra(n, box, 0.6, seed)
	if err != nil {
		return nil, err
	}
	sc := &Scene{
		Doc: fmt.Sprintf("an airliner (Aircraft, %g long) flying among %d random disjoint tetrahedra (gen.Tetrahedra)", float64(length), n),
		Env: env, Fly: fly,
		Steps: pick(size, 10000, 500),
		Billiard: flight.BilliardConfig{
			Center: fly.Bounds().Center(), Start: box.Center(), Bounds: shrink(box, cube(length/2)),
			Speed: 0.05, Spin: 0.02, Turn: 0.3, Seed: seed,
		},
		Paper: Paper{100000, 14646, 10000, 7906},
	}
	return sc, freeStart(sc.Env, sc.Fly, &sc.Billiard)
}

// interior: "a Boeing aircraft-interior section with a hand flown by a
// Boeing engineer with a data glove", the glove's path replaced by a fixed
// random path (a hand goes where it goes, through what it touches).
func interior(size Size, seed uint64) (*Scene, error) {
	env, err := Interior(pick(size, 169944, 8000), seed)
	if err != nil {
		return nil, err
	}
	h, err := Hand(400)
	if err != nil {
		return nil, err
	}
	hand := Scale(h, 2, geom.Vec3{}) // a hand about 0.4 long, in a cabin 6 wide
	eb := env.Bounds()
	return &Scene{
		Doc: "a hand (Hand) moving along a fixed random path through a cluttered cabin (Interior)",
		Env: env, Fly: hand,
		Steps: pick(size, 2528, 300),
		Billiard: flight.BilliardConfig{
			Center: hand.Bounds().Center(), Start: eb.Center(), Bounds: shrink(eb, eb.Size().Scale(0.1)),
			Speed: 0.02, Spin: 0.05, Turn: 0.3, Fixed: true, Seed: seed,
		},
		Paper: Paper{169944, 404, 2528, 84931},
	}, nil
}
