package bvh

import (
	"math"

	"github.com/collide3d/collide/geom"
)

// DistanceOptions configures Distance.
type DistanceOptions struct {
	// Max > 0 is a cut-off: the query looks only for triangles closer than
	// Max, and reports Far if there are none, often much sooner than it
	// would find the distance. 0: no cut-off.
	Max float64
}

// DistanceResult is the answer of Distance.
type DistanceResult struct {
	// Distance is the smallest distance between a triangle of the
	// environment and one of the flying model at the pose (+Inf if Far),
	// as geom.TriTriDistance computes it for the witnesses: 0 exactly when
	// two triangles are in contact.
	Distance float64
	// Far says that no two triangles are closer than the cut-off
	// DistanceOptions.Max.
	Far bool
	// Env and Fly are the witness triangles (-1 if Far); PEnv and PFly
	// their closest points, both in the environment's frame (PFly is on
	// the flying triangle at the pose).
	Env, Fly   int32
	PEnv, PFly geom.Vec3
	Stats      Stats
}

// Distance returns the smallest distance between the triangles of env and
// those of fly at pose, with its witnesses, in scratch s (nil: a new one).
// It walks the two trees as Collide does, from the nearer pair of
// children, and drops every pair of nodes whose volumes prove it no nearer
// than the best distance so far (pairOps.sep); the distance of two
// triangles is geom.TriTriDistance's. The trees must be of the same kind;
// Collide's conditions on pose apply.
func Distance(env, fly *Tree, pose geom.Pose, o DistanceOptions, s *Scratch) DistanceResult {
	if s == nil {
		s = new(Scratch)
	}
	d := &s.dist
	// geom.TriTriDistanceBound is at most 2^-43·D + 2^-51·M + 2^-1069, D
	// the extent of a pair's box and M its largest coordinate, both at most
	// emag + 2·fmag + |t|∞ (a rotated coordinate is within √3·fmag).
	t := pose.T.Abs()
	m := env.motionInfo().mag + 2*fly.motionInfo().mag + max(t.X, t.Y, t.Z)
	*d = distState{best: math.Inf(1), slack: 0x1p-41*m + 0x1p-1060, e: -1, f: -1}
	if o.Max > 0 {
		d.best = o.Max
	}
	st := collide(env, fly, pose, request{mode: modeDistance, dist: d}, s, nil)
	r := DistanceResult{Distance: d.best, Env: d.e, Fly: d.f, PEnv: d.pe, PFly: d.pf, Stats: st}
	if d.e < 0 {
		r.Distance, r.Far = math.Inf(1), true
	}
	return r
}
