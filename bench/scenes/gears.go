package scenes

import (
	"fmt"
	"math"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/internal/portable"
	"github.com/collide3d/collide/mesh"
)

// The gears scene's poses cycle through these kinds, one per pose.
const (
	gearTouch     = iota // turned against the leading flank: the first contact found by bisection
	gearNear             // the same turned back by a gap of 10⁻³ along the pitch circle
	gearFree             // in the middle of the backlash
	gearTouchBack        // against the trailing flank
	gearNearBack         // the last free turn of that bisection: a gap of a bit or so
	gearPress            // turned 0.02 past the first contact of the leading flank
	gearKinds
)

// The face widths of the gears of the gears scene.
const gearEnvWidth, gearFlyWidth = 8, 7

// gears: two spur gears (Gear) in mesh at the standard center distance,
// the flying one turning with the environment one as gears do, and turned
// within its backlash at each pose so that the teeth touch, nearly touch
// or press into each other.
func gears(size Size, seed uint64) (*Scene, error) {
	z1, z2 := pick(size, 23, 17), pick(size, 41, 29)
	// The flying gear is the narrower, so that no face of one is in the
	// plane of a face of the other.
	fly, err := Gear(z1, gearFlyWidth, pick(size, 12000, 2500))
	if err != nil {
		return nil, err
	}
	env, err := Gear(z2, gearEnvWidth, pick(size, 20000, 4000))
	if err != nil {
		return nil, err
	}
	perTooth := pick(size, 8, 4)
	poses, err := gearPoses(env, fly, z1, z2, perTooth, seed)
	if err != nil {
		return nil, err
	}
	return &Scene{
		Doc: fmt.Sprintf("a spur gear of %d teeth (Gear) turning in mesh with one of %d, %d poses per tooth, "+
			"each turned within the backlash so that a pair of flanks touches (found by bisection), misses by 10⁻³ or by a bit, "+
			"or presses 0.02 into the other, or in the middle of the backlash", z1, z2, perTooth),
		Env: env, Fly: fly,
		Steps: len(poses), Poses: poses,
	}, nil
}

// gearPoses returns the poses of a gear of z1 teeth (fly) in mesh with one
// of z2 teeth (env, at the identity) over one turn of the flying gear, perTooth
// poses per tooth. Pose k turns the environment gear by k/(z2·perTooth) of a
// turn (carrying the flying one about it) and the flying one, about its own
// axis, by -k/(z1·perTooth) of a turn, plus the turn δ of its kind (see
// gearTouch...), the kinds cycling from seed.
func gearPoses(env, fly *mesh.TriMesh, z1, z2, perTooth int, seed uint64) ([]geom.Pose, error) {
	em, err := collide.Build(env, collide.BuildOptions{})
	if err != nil {
		return nil, err
	}
	fm, err := collide.Build(fly, collide.BuildOptions{})
	if err != nil {
		return nil, err
	}
	pitch, _, _, _, _ := gearRadii(z1)
	// The turn, in radians, of the flying gear that moves its pitch circle
	// by l.
	arc := func(l float64) float64 { return l / pitch }
	steps := z1 * perTooth
	poses := make([]geom.Pose, steps)
	for k := range steps {
		kind := int((uint64(k) + seed%gearKinds) % gearKinds)
		at := func(d float64) geom.Pose { return gearPose(z1, z2, perTooth, k, d) }
		if kind == gearFree {
			poses[k] = at(0)
			continue
		}
		side := 1.0
		if kind == gearTouchBack || kind == gearNearBack {
			side = -1
		}
		// Past the backlash (GearBacklash/2 either way) by 0.2.
		far := side * arc(GearBacklash/2+0.2)
		for _, d := range []float64{0, far} {
			res, err := collide.Check(em, fm, at(d), collide.QueryOptions{})
			if err != nil {
				return nil, err
			}
			if res.Collide != (d != 0) {
				return nil, fmt.Errorf("step %d: the gears touch at a turn of %g: %v", k, d, res.Collide)
			}
		}
		// Only the poses at the first contact and at the last free turn
		// need it to the bit.
		tol := 0.0
		if kind == gearNear || kind == gearPress {
			tol = arc(1e-9)
		}
		lo, hi, err := bisect(em, fm, at, 0, far, tol)
		if err != nil {
			return nil, err
		}
		switch kind {
		case gearTouch, gearTouchBack:
			poses[k] = at(hi)
		case gearNear:
			poses[k] = at(hi - side*arc(1e-3))
		case gearNearBack:
			poses[k] = at(lo)
		case gearPress:
			poses[k] = at(hi + side*arc(0.02))
		}
	}
	return poses, nil
}

// gearPose is the pose of the flying gear at step k of a mesh of gears of
// z1 (flying) and z2 teeth, turned further by delta radians about its axis
// (|delta| ≤ π/4).
func gearPose(z1, z2, perTooth, k int, delta float64) geom.Pose {
	p, n1, n2 := int64(perTooth), int64(z1), int64(z2)
	kk := int64(k)
	// The flying gear's angle, less the environment's, in turns:
	// 1/2 - 1/(2·z1) (a space of the flying gear faces the tooth of the
	// environment on +x) - k/(z1·p) - k/(z2·p).
	den := 2 * n1 * n2 * p
	num := n1*n2*p - n2*p - 2*kk*(n1+n2)
	s, c := portable.SinCosTurn(num, den)
	sd, cd := portable.SinCosSmall(max(delta, -delta))
	if delta < 0 {
		sd = -sd
	}
	cr := float64(c*cd) - float64(s*sd)
	sr := float64(s*cd) + float64(c*sd)
	// The flying gear's center, at the standard distance (z1+z2)/2 on +x,
	// carried by the environment's turn back, -k/(z2·p).
	s2, c2 := portable.SinCosTurn(kk, n2*p)
	a := float64(z1+z2) / 2
	return geom.Pose{
		R: geom.Mat3{{cr, -sr, 0}, {sr, cr, 0}, {0, 0, 1}},
		T: geom.Vec3{X: float64(a * c2), Y: -float64(a * s2)},
	}
}

// bisect returns parameters lo and hi between free (where fly at
// pose(free) does not touch env) and hit (where it does), with fly at
// pose(lo) not touching env and at pose(hi) touching: it halves the
// interval until it is no longer than tol, or, with tol = 0, until its
// midpoint rounds to one of its ends. (The last halvings, poses a few
// units in the last place from touching, are the slow ones: they decide
// their triangle pairs in exact arithmetic.)
func bisect(em, fm *collide.Model, pose func(float64) geom.Pose, free, hit, tol float64) (lo, hi float64, err error) {
	for range 2000 {
		mid := free + (hit-free)/2
		if mid == free || mid == hit || math.Abs(hit-free) <= tol {
			break
		}
		res, err := collide.Check(em, fm, pose(mid), collide.QueryOptions{})
		if err != nil {
			return 0, 0, err
		}
		if res.Collide {
			hit = mid
		} else {
			free = mid
		}
	}
	return free, hit, nil
}
