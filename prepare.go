package collide

import (
	"math"
	"slices"

	"github.com/collide3d/collide/bvh"
	"github.com/collide3d/collide/geom"
)

// preparePairs is the room Prepare makes for the pairs of an all-pairs
// query (8 KiB): steps with more pairs grow the buffer as they come.
const preparePairs = 1024

// Prepare readies q for queries of fly against env with options o, so that
// the first of them costs what the later ones do: the first query of a
// Query otherwise builds what later ones reuse. For k-DOP trees that
// includes fly's flying view (its hierarchy cut at the flying leaf size,
// with the points it is tumbled by: 15 to 30 ms for 20,000 triangles, see
// Model.PrepareFlying); for every kind, q's buffers sized for the two
// models (the flying volumes at the pose, the transformed vertices, the
// traversal's stack, the pairs), which Prepare also writes once so that
// their memory is mapped; with o.Experiment.ExactRoot, the convex hull of
// fly; when o.Method resolves to MethodConvex, the two models' hulls of the
// convex test. flight.Fly calls it before its first step.
//
// Prepare runs a query with fly placed far from env, which finds nothing,
// and returns the error that query would return (ErrInvalidQuery: nil or
// unbuilt models, incompatible volumes, a bad tolerance). What it
// builds on the models is theirs (shared with every Query); q's buffers are
// q's, and serve any pair of models, growing when the models are larger.
// Brute-force models have nothing to prepare: their queries allocate per
// query.
func (q *Query) Prepare(env, fly *Model, o QueryOptions) error {
	if err := checkOptions(env, fly, &o); err != nil {
		return err
	}
	if o.Method.Resolve(env, fly) == MethodConvex {
		env.shape() // the convex test's hulls
		fly.shape()
	}
	if env.tree == nil || fly.tree == nil {
		return nil // brute force: nothing kept from one query to the next
	}
	if pose, ok := farPose(env, fly, o.Eps); ok {
		// Not ExactRoot, whose climb would start the next query's from
		// this pose: bvh's Prepare builds the hull.
		w := o
		w.MaxPairs, w.Experiment.ExactRoot = 0, false
		w.Front, w.Budget, w.Pending = nil, Budget{}, nil
		w.Method = MethodTree // a plane would prove the far pose without a walk
		if _, err := q.Collide(env, geom.Pose{}, fly, pose, w); err != nil {
			return err
		}
	}
	q.s.Prepare(env.tree, fly.tree, bvh.QueryOptions{Restart: o.Experiment.Restart, ExactRoot: o.Experiment.ExactRoot})
	if o.Front != nil {
		o.Front.f.Prepare(env.tree, fly.tree)
	}
	n := 1
	if o.All {
		n = preparePairs
		if o.MaxPairs > 0 {
			n = min(n, o.MaxPairs)
		}
	}
	q.pairs = slices.Grow(q.pairs[:0], n)
	return nil
}

// farPose returns a pose at which fly is farther than eps from env and
// every bounding volume of fly is apart from every one of env (a quarter
// turn about z and a translation along x by more than 4 times the sum of
// the models' reaches: the volumes of every kind lie within twice the
// √3-fold reach), or false if that translation is not finite.
func farPose(env, fly *Model, eps float64) (geom.Pose, bool) {
	e, f := env.reach, fly.reach
	x := 4*(max(e.X, e.Y, e.Z)+max(f.X, f.Y, f.Z)) + 2*eps + 1
	if x > math.MaxFloat64/4 {
		return geom.Pose{}, false
	}
	return geom.Pose{R: geom.Mat3{{0, -1, 0}, {1, 0, 0}, {0, 0, 1}}, T: geom.Vec3{X: x}}, true
}
