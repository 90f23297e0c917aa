package scenes

import (
	"fmt"
	"math"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/internal/portable"
	"github.com/collide3d/collide/mesh"
)

// proximityStream is the PCG stream selector of proximityPoses.
const proximityStream = 0x70726f78696d6974 // "proximit"

// A realScene is a scene of two meshes of Debian's libcgal-demo package,
// the flying one brought into close proximity of the other.
type realScene struct {
	doc      string
	env, fly string  // the meshes' file names
	envSize  float64 // the environment's longest side, once scaled
	flySize  float64 // the flying model's
	// inside: the flying model starts at a free point among the
	// environment's parts and moves until it touches (through the loops
	// of a knot); otherwise it comes in from outside.
	inside bool
	// slide, when above 1 (coming in from outside only), makes the poses
	// slides of that many: the flying model keeps its line of approach and
	// is carried across it, a little further and turned a little more at
	// each pose, each pose pushed along the line to the touch (or backed
	// off, or pressed) again, so that it slides over the environment's
	// surface; otherwise every pose has a line of its own.
	slide int
}

// realScenes are the scenes of real meshes, by name (their order is
// realNames').
var realScenes = map[string]realScene{
	"dragon": {
		doc: "a CAD part (CGAL's fandisk.off, 0.6 long) coming from every side into close proximity of a scanned Chinese dragon " +
			"(ChineseDragon-10kv.off, 2 long), each pose touching (found by bisection), missing by 10⁻³ of the part's size " +
			"or by a bit, or pressing 1% into the dragon",
		env: "ChineseDragon-10kv.off", fly: "fandisk.off", envSize: 2, flySize: 0.6,
	},
	"knot": {
		doc: "a scanned bull (CGAL's bull.off, 0.35 long) wound through the loops of a trefoil knot (knot1.off, 2 across), " +
			"moving from a free point among the loops until it touches a strand (found by bisection), each pose touching, " +
			"missing by 10⁻³ of the bull's size or by a bit, or pressing 1% into the strand",
		env: "knot1.off", fly: "bull.off", envSize: 2, flySize: 0.35, inside: true,
	},
	"parts": {
		doc: "a CAD part (CGAL's spool.off, 1 long) sliding past another (anchor.off, 2 long): slides of 8 poses from every side, " +
			"the spool carried across its line of approach by a seventh of its bounding radius and turned about 3° at each pose, " +
			"each pose touching the anchor (found by bisection), missing by 10⁻³ of the spool's size or by a bit, or pressing 1% into it",
		env: "anchor.off", fly: "spool.off", envSize: 2, flySize: 1, slide: 8,
	},
	"blades": {
		doc: "a turbine blade (CGAL's blade.off, an open shell: 2 long, 0.16 wide, 0.01 thick) against a copy of itself, " +
			"turned, coming from every side, each pose touching (found by bisection), missing by 10⁻³ of the blade's length " +
			"or by a bit, or pressing 1% of it into the other",
		env: "blade.off", fly: "blade.off", envSize: 2, flySize: 2,
	},
	"handle": {
		doc: "a half cylinder (CGAL's cylinder.off, an open shell, 0.6 long) coming from every side into close proximity " +
			"of a handle (handle.off, 2 long), each pose touching (found by bisection), missing by 10⁻³ of the cylinder's size " +
			"or by a bit, or pressing 1% into the handle",
		env: "handle.off", fly: "cylinder.off", envSize: 2, flySize: 0.6,
	},
	"cylinders": {
		doc: "a half cylinder (CGAL's cylinder.off, an open shell, 1 long) against a larger copy of itself (2 long), " +
			"coming from every side, into its hollow or onto its back, each pose touching (found by bisection), " +
			"missing by 10⁻³ of the smaller one's size or by a bit, or pressing 1% into the other",
		env: "cylinder.off", fly: "cylinder.off", envSize: 2, flySize: 1,
	},
	"shell": {
		doc: "a femur (CGAL's femur.off, a bone, 0.6 long) coming from every side, in front and behind, into close proximity " +
			"of a thin curved shell, a mask (mask_cone.off, an open surface, 2 across), each pose touching (found by bisection), " +
			"missing by 10⁻³ of the femur's size or by a bit, or pressing 1% into the mask",
		env: "mask_cone.off", fly: "femur.off", envSize: 2, flySize: 0.6,
	},
	"camel": {
		doc: "a scanned camel (CGAL's camel.off, 0.35 long) wound through the loops of a knot (knot2.off, 2 across), " +
			"moving from a free point among the loops until it touches a strand (found by bisection), each pose touching, " +
			"missing by 10⁻³ of the camel's size or by a bit, or pressing 1% into the strand",
		env: "knot2.off", fly: "camel.off", envSize: 2, flySize: 0.35, inside: true,
	},
}

// realNames are the names of realScenes, in the order Names lists them.
var realNames = []string{"dragon", "knot", "parts", "blades", "handle", "cylinders", "shell", "camel"}

// realMeshes makes the real-mesh scene name.
func realMeshes(name string, size Size, seed uint64) (*Scene, error) {
	rs := realScenes[name]
	ms, err := cgalMeshes(name, rs.env, rs.fly)
	if err != nil {
		return nil, err
	}
	env, fly := normalize(ms[0], rs.envSize), normalize(ms[1], rs.flySize)
	poses, err := proximityPoses(env, fly, pick(size, 160, 40), rs.inside, rs.slide, seed)
	if err != nil {
		return nil, err
	}
	return &Scene{Doc: rs.doc, Env: env, Fly: fly, Steps: len(poses), Poses: poses}, nil
}

// normalize returns m scaled to a longest side of size, centered at the
// origin.
func normalize(m *mesh.TriMesh, size float64) *mesh.TriMesh {
	b := m.Bounds()
	d := b.Size()
	s := size / math.Max(d.X, math.Max(d.Y, d.Z))
	return Scale(m, s, scl(-s, b.Center()))
}

// The kinds of the poses of proximityPoses, cycling.
const (
	proxTouch   = iota // the first contact found by bisection
	proxNear           // backed off by 10⁻³ of the flying model's size
	proxPress          // pressed in by 1% of it
	proxNearBit        // the last free pose of the bisection
	proxKinds
)

// proximityPoses returns n poses of fly close to env, each turned
// differently and moved along its own line: coming in from outside towards
// env's center or, when inside is set, going from a random free point in
// the middle of env's box, fly meets env; the first contact along the line
// is found by bisection, and the pose is that contact, or backed off, or
// pressed in, by kind (proxTouch ...). Lines along which fly meets nothing
// are skipped. With slide > 1 (from outside only), the poses come in
// slides of slide poses sharing a direction of approach, their lines
// spread across it over the length of fly's bounding radius, a pose's
// turn a little further than the last's: fly slides over env's surface.
func proximityPoses(env, fly *mesh.TriMesh, n int, inside bool, slide int, seed uint64) ([]geom.Pose, error) {
	if slide > 1 && inside {
		return nil, fmt.Errorf("slides come in from outside")
	}
	em, err := collide.Build(env, collide.BuildOptions{})
	if err != nil {
		return nil, err
	}
	fm, err := collide.Build(fly, collide.BuildOptions{})
	if err != nil {
		return nil, err
	}
	eb, fb := env.Bounds(), fly.Bounds()
	ec, fc := eb.Center(), fb.Center()
	er, fr := 0.5*math.Sqrt(dot(eb.Size(), eb.Size())), 0.5*math.Sqrt(dot(fb.Size(), fb.Size()))
	rnd := newRNG(seed, proximityStream)
	unit := func() geom.Vec3 {
		for {
			v := geom.Vec3{X: rnd.between(-1, 1), Y: rnd.between(-1, 1), Z: rnd.between(-1, 1)}
			if d := dot(v, v); d > 0.01 && d <= 1 {
				return portable.Unit(v)
			}
		}
	}
	a1, a2 := unit(), unit()
	turn := int64(rnd.intn(987))
	contact := func(p geom.Pose) (bool, error) {
		res, err := collide.Check(em, fm, p, collide.QueryOptions{})
		return res.Collide, err
	}
	var poses []geom.Pose
	const tries = 4
	for k := 0; len(poses) < n && k < tries*n; k++ {
		// A turn about a1 once over the flight, and about a2 three times
		// over seven flights.
		r := matMul(rotTurn(a1, int64(k), int64(n)), rotTurn(a2, int64(3*k), int64(7*n)))
		// The line's direction: line j, pose i of its slide (without
		// slides, line k).
		j, i := k, 0
		if slide > 1 {
			j, i = k/slide, k%slide
		}
		// Directions spread over the sphere (heights by the golden ratio,
		// longitudes by the golden angle, about 377/987 of a turn).
		u := 1 - 2*math.Mod(float64(float64(j)*0.618034)+float64(turn)/987, 1)
		s, c := portable.SinCosTurn(int64(j)*377+turn, 987)
		rho := math.Sqrt(math.Max(0, 1-float64(u*u)))
		d := geom.Vec3{X: float64(rho * c), Y: float64(rho * s), Z: u}
		// The line starts at env's center (coming in from outside along
		// -d), or, inside, at a random point of the middle of env's box
		// where fly does not touch env (going out along d).
		start := ec
		if slide > 1 {
			// Moved across d, along d × a2 (or d × a1 where d is
			// nearly along a2), from -fr/2 to fr/2 over the slide.
			across := cross(d, a2)
			if dot(across, across) < 0.01 {
				across = cross(d, a1)
			}
			start = madd(ec, fr*(float64(i)/float64(slide-1)-0.5), portable.Unit(across))
		}
		if inside {
			found := false
			for range 50 {
				start = geom.Vec3{
					X: lerp(eb.Min.X, eb.Max.X, rnd.between(0.2, 0.8)),
					Y: lerp(eb.Min.Y, eb.Max.Y, rnd.between(0.2, 0.8)),
					Z: lerp(eb.Min.Z, eb.Max.Z, rnd.between(0.2, 0.8)),
				}
				c, err := contact(geom.Pose{R: r, T: start.Sub(matVec(r, fc))})
				if err != nil {
					return nil, err
				}
				if !c {
					found = true
					break
				}
			}
			if !found {
				continue
			}
		}
		at := func(t float64) geom.Pose {
			return geom.Pose{R: r, T: madd(start, t, d).Sub(matVec(r, fc))}
		}
		step := fr / 4
		var free, hit float64
		found := false
		if inside {
			for t := step; t <= 2*er+fr; t += step {
				c, err := contact(at(t))
				if err != nil {
					return nil, err
				}
				if c {
					free, hit, found = t-step, t, true
					break
				}
			}
		} else {
			for t := er + fr; t >= 0; t -= step {
				c, err := contact(at(t))
				if err != nil {
					return nil, err
				}
				if c {
					free, hit, found = t+step, t, true
					break
				}
			}
		}
		if !found {
			continue
		}
		kind := int((uint64(len(poses)) + seed) % proxKinds)
		tol := 0.0
		if kind == proxNear || kind == proxPress {
			tol = 1e-9 * fr
		}
		lo, hi, err := bisect(em, fm, at, free, hit, tol)
		if err != nil {
			return nil, err
		}
		sign := 1.0 // along d, from free to contact
		if hi < lo {
			sign = -1
		}
		switch kind {
		case proxTouch:
			poses = append(poses, at(hi))
		case proxNear:
			poses = append(poses, at(hi-sign*1e-3*fr))
		case proxPress:
			poses = append(poses, at(hi+sign*0.01*fr))
		case proxNearBit:
			poses = append(poses, at(lo))
		}
	}
	if len(poses) < n {
		return nil, fmt.Errorf("only %d of %d directions meet the environment", len(poses), n)
	}
	return poses, nil
}

// dot returns a·b with every product rounded on its own.
func dot(a, b geom.Vec3) float64 {
	return float64(a.X*b.X) + float64(a.Y*b.Y) + float64(a.Z*b.Z)
}

// cross returns a×b with every product rounded on its own.
func cross(a, b geom.Vec3) geom.Vec3 {
	return geom.Vec3{
		X: float64(a.Y*b.Z) - float64(a.Z*b.Y),
		Y: float64(a.Z*b.X) - float64(a.X*b.Z),
		Z: float64(a.X*b.Y) - float64(a.Y*b.X),
	}
}

// matVec returns m·v with every product rounded on its own.
func matVec(m geom.Mat3, v geom.Vec3) geom.Vec3 {
	return geom.Vec3{X: dot(m.Row(0), v), Y: dot(m.Row(1), v), Z: dot(m.Row(2), v)}
}

// matMul returns a·b with every product rounded on its own.
func matMul(a, b geom.Mat3) geom.Mat3 {
	var out geom.Mat3
	for i := range 3 {
		for j := range 3 {
			out[i][j] = dot(a.Row(i), b.Col(j))
		}
	}
	return out
}
