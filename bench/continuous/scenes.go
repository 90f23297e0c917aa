package continuous

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh"
	"github.com/collide3d/collide/mesh/gen"
)

// Scene is one scene of Run: a static environment, a flying
// model and its poses. Motion i goes from Poses[i] to Poses[i+1]: N poses
// give N−1 motions, flown one after the other.
type Scene struct {
	Name string
	// About says what the scene is, in a sentence.
	About    string
	Env, Fly *mesh.TriMesh
	Poses    []geom.Pose
}

// Motions returns the scene's number of motions.
func (s Scene) Motions() int { return max(len(s.Poses)-1, 0) }

// SceneNames are the scenes of Scenes, in order.
var SceneNames = []string{"boxes", "tunnel", "tumble", "graze"}

// Scenes returns the scenes of Run (small ones with quick),
// their random poses drawn from seed:
//
//   - boxes: two boxes of 12 triangles (FCL issue #555): the flying box
//     flies at the other from afar along a random direction, with a random
//     orientation it keeps, and stops beyond it, in it, or short of it;
//     between two such approaches it turns to the next orientation.
//   - tunnel: a small sphere crosses a plate 0.01 thick from one side to
//     the other in every motion (half of them spinning): the poses are
//     apart from the plate, so checking them alone sees nothing.
//   - tumble: a small torus tumbles (turning by 0.3 to 1.2 radians a
//     motion) between the hole of a large one, its outside, above it and
//     below it, the poses apart from it.
//   - graze: a unit box skims an edge of a box of side 2, its corner
//     passing the edge exactly (touching at one instant), or 1e-3, 1e-6,
//     1e-9 or 1e-12 above (no contact) or below (contact) it.
//
// The poses of tunnel and tumble, and the starts of boxes' approaches,
// are free of contact.
func Scenes(quick bool, seed uint64) ([]Scene, error) {
	var out []Scene
	for _, name := range SceneNames {
		s, err := SceneNamed(name, quick, seed)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

// SceneNamed returns the scene of Scenes called name.
func SceneNamed(name string, quick bool, seed uint64) (Scene, error) {
	r := rand.New(rand.NewPCG(seed, 0x636364)) // "ccd"
	switch name {
	case "boxes":
		return ccdBoxes(r, quick)
	case "tunnel":
		return ccdTunnel(r, quick)
	case "tumble":
		return ccdTumble(r, quick)
	case "graze":
		return ccdGraze(quick)
	}
	return Scene{}, fmt.Errorf("unknown ccd scene %q (the scenes are %v)", name, SceneNames)
}

// randomUnit returns a random unit vector (uniform on the sphere).
func randomUnit(r *rand.Rand) geom.Vec3 {
	for {
		v := geom.V(2*r.Float64()-1, 2*r.Float64()-1, 2*r.Float64()-1)
		if n := v.Norm(); n > 0.1 && n <= 1 {
			return v.Scale(1 / n)
		}
	}
}

// randomRotation returns a random rotation matrix.
func randomRotation(r *rand.Rand) geom.Mat3 {
	return geom.AxisAngle(randomUnit(r), math.Pi*r.Float64()).Mat3()
}

// freePoses keeps drawing poses with next (given the poses kept so far)
// until n of them leave fly apart from env (collide.Check, exact), and
// returns them.
func freePoses(env, fly *mesh.TriMesh, n int, next func(kept []geom.Pose) geom.Pose) ([]geom.Pose, error) {
	e, err := collide.Build(env, collide.BuildOptions{})
	if err != nil {
		return nil, err
	}
	f, err := collide.Build(fly, collide.BuildOptions{})
	if err != nil {
		return nil, err
	}
	var out []geom.Pose
	for tries := 0; len(out) < n; tries++ {
		if tries > 1000*n {
			return nil, fmt.Errorf("no free pose after %d tries", tries)
		}
		p := next(out)
		r, err := collide.Check(e, f, p, collide.QueryOptions{})
		if err != nil {
			return nil, err
		}
		if !r.Collide {
			out = append(out, p)
		}
	}
	return out, nil
}

func ccdBoxes(r *rand.Rand, quick bool) (Scene, error) {
	approaches := 40
	if quick {
		approaches = 10
	}
	env := gen.Must(gen.Box(geom.AABB{Min: geom.V(-1, -1, -1), Max: geom.V(1, 1, 1)}, 1))
	fly := gen.Must(gen.Box(geom.AABB{Min: geom.V(-0.5, -0.5, -0.5), Max: geom.V(0.5, 0.5, 0.5)}, 1))
	// Pose 2k is the start of approach k, 2k+1 its end, with the same
	// rotation. The start is 4 from the line through the environment's
	// center (so never in contact: the boxes' circumradii add up to 2.6),
	// the end beyond it (4 on), at the offset (in contact when the offset is
	// small), or short of it (1.6 before): the boxes meet mid-motion, or
	// nearly.
	var poses []geom.Pose
	for range approaches {
		dir := randomUnit(r)
		u := randomUnit(r)
		perp := u.Sub(dir.Scale(u.Dot(dir)))
		if perp.Norm() < 1e-3 {
			perp = geom.V(dir.Y, -dir.X, 0)
		}
		off := perp.Unit().Scale(2.2 * r.Float64())
		rot := randomRotation(r)
		s := [...]float64{-4, -4, 0, 1.6}[r.IntN(4)]
		poses = append(poses, geom.Pose{R: rot, T: off.Add(dir.Scale(4))}, geom.Pose{R: rot, T: off.Add(dir.Scale(s))})
	}
	return Scene{Name: "boxes", About: "a box flies at another (FCL issue #555) and stops beyond, in or short of it; turns between approaches",
		Env: env, Fly: fly, Poses: poses}, nil
}

func ccdTunnel(r *rand.Rand, quick bool) (Scene, error) {
	crossings := 40
	if quick {
		crossings = 12
	}
	env := gen.Must(gen.Box(geom.AABB{Min: geom.V(-2, -2, -0.005), Max: geom.V(2, 2, 0.005)}, 1))
	fly := gen.Must(gen.Icosphere(geom.V(0, 0, 0), 0.05, 80))
	poses, err := freePoses(env, fly, crossings+1, func(kept []geom.Pose) geom.Pose {
		i := len(kept)
		z := 0.5
		if i%2 == 1 {
			z = -0.5
		}
		// Motions 2 and 3 of every 4 spin; the others keep the rotation.
		rot := geom.Identity3()
		if i > 0 {
			rot = kept[i-1].R
			if (i-1)%4 >= 2 {
				rot = randomRotation(r)
			}
		}
		return geom.Pose{R: rot, T: geom.V(4.6*r.Float64()-2.3, 4.6*r.Float64()-2.3, z)}
	})
	if err != nil {
		return Scene{}, fmt.Errorf("ccd scene tunnel: %w", err)
	}
	return Scene{Name: "tunnel", About: "a sphere of radius 0.05 crosses a plate 0.01 thick in every motion, half of them spinning; no pose touches it",
		Env: env, Fly: fly, Poses: poses}, nil
}

func ccdTumble(r *rand.Rand, quick bool) (Scene, error) {
	n, envTris, flyTris := 60, 2000, 800
	if quick {
		n, envTris, flyTris = 16, 400, 200
	}
	env, err := gen.Torus(geom.V(0, 0, 0), 2, 0.5, envTris)
	if err != nil {
		return Scene{}, err
	}
	fly, err := gen.Torus(geom.V(0, 0, 0), 0.5, 0.15, flyTris)
	if err != nil {
		return Scene{}, err
	}
	// Each pose is in one of four places, drawn at random: in the hole
	// (the small torus reaches 0.65 from its center, the tube's inside is
	// at 1.5), outside the tube (beyond 3.2), above it or below it. A
	// motion between two places crosses the tube's region, turning by 0.3
	// to 1.2 radians.
	poses, err := freePoses(env, fly, n, func(kept []geom.Pose) geom.Pose {
		var r0, r1, z0, z1 float64
		switch r.IntN(4) {
		case 0: // the hole
			r0, r1, z0, z1 = 0, 0.6, -0.6, 0.6
		case 1: // outside
			r0, r1, z0, z1 = 3.2, 3.6, -0.8, 0.8
		case 2: // above
			r0, r1, z0, z1 = 1, 3, 1.2, 1.6
		default: // below
			r0, r1, z0, z1 = 1, 3, -1.6, -1.2
		}
		a := 2 * math.Pi * r.Float64()
		rad := r0 + (r1-r0)*r.Float64()
		t := geom.V(rad*math.Cos(a), rad*math.Sin(a), z0+(z1-z0)*r.Float64())
		if len(kept) == 0 {
			return geom.Pose{R: randomRotation(r), T: t}
		}
		turn := geom.AxisAngle(randomUnit(r), 0.3+0.9*r.Float64()).Mat3()
		return geom.Pose{R: turn.Mul(kept[len(kept)-1].R), T: t}
	})
	if err != nil {
		return Scene{}, fmt.Errorf("ccd scene tumble: %w", err)
	}
	return Scene{Name: "tumble", About: "a small torus tumbles (0.3 to 1.2 radians a motion) between the hole of a large one, its outside, above and below it; no pose touches it",
		Env: env, Fly: fly, Poses: poses}, nil
}

// grazeOffsets are the heights of the corners of graze's poses above the
// edge's line. A motion passes the edge at the mean of its two ends'
// offsets (see ccdGraze), which is never 0 but between two exact zeros: a
// mean of 0 between a positive and a negative offset would be decided by
// the rounding of the poses' coordinates.
var grazeOffsets = []float64{0, 0, 1e-12, 1e-12, 1e-9, 1e-9, 1e-6, 1e-6, 1e-3, 1e-3, 0, -1e-12, -1e-12, -1e-9, -1e-9, -1e-6, -1e-6, -1e-3, -1e-3}

func ccdGraze(quick bool) (Scene, error) {
	env := gen.Must(gen.Box(geom.AABB{Min: geom.V(-1, -1, -1), Max: geom.V(1, 1, 1)}, 2))
	// The fly's model has its corner (min x, min z) at the origin: the pose's
	// translation is where the corner goes.
	fly := gen.Must(gen.Box(geom.AABB{Min: geom.V(0, -0.5, 0), Max: geom.V(1, 0.5, 1)}, 1))
	// The corner goes from (-1+d, y, 3+d) to (3+d', y, -1+d'), and back:
	// on the way it passes the environment's edge x = z = 1. It crosses the
	// line x = z at t = 1/2, at (1+m, 1+m) with m = (d+d')/2: the boxes
	// touch exactly there for m = 0 (d = d' = 0: every coordinate is exact),
	// overlap for m < 0, and stay apart for m > 0. The y offsets put the
	// corner over the face, and at its end (|y| = 1.5: corner on corner,
	// the two poses of a pair having the same y).
	ys := []float64{0, 0.7, -1.5, 1.5}
	repeat := 2
	if quick {
		repeat = 1
	}
	var poses []geom.Pose
	for k := 0; k < repeat; k++ {
		for i, d := range grazeOffsets {
			y := ys[(i/2+k)%len(ys)]
			c := geom.V(-1+d, y, 3+d)
			if i%2 == 1 {
				c = geom.V(3+d, y, -1+d)
			}
			poses = append(poses, geom.Translation(c))
		}
	}
	return Scene{Name: "graze", About: "a unit box skims an edge of a box of side 2: touching exactly at one instant, or 1e-3 to 1e-12 above or below it",
		Env: env, Fly: fly, Poses: poses}, nil
}
