package collide

import (
	"github.com/collide3d/collide/bvh"
	"github.com/collide3d/collide/geom"
)

// Near calls fn with the environment triangles near fly placed at pose,
// env at the identity: Query.NearTriangles, which says what is reported,
// with scratch state from a pool. It is safe to call from many goroutines
// on the same models.
//
// Deprecated: use q.NearTriangles(env, geom.Pose{}, fly, pose, eps, fn)
// with a Query of the caller's.
func Near(env, fly *Model, pose geom.Pose, eps float64, fn func(envTri int32) bool) (Stats, error) {
	q := queryPool.Get().(*Query)
	st, err := q.NearTriangles(env, geom.Pose{}, fly, pose, eps, fn)
	queryPool.Put(q)
	return st, err
}

// Near is like the function Near, but uses q's scratch state: once it has
// grown to the models, a search with hierarchies allocates nothing.
//
// Deprecated: use q.NearTriangles(env, geom.Pose{}, fly, pose, eps, fn).
func (q *Query) Near(env, fly *Model, pose geom.Pose, eps float64, fn func(envTri int32) bool) (Stats, error) {
	return q.NearTriangles(env, geom.Pose{}, fly, pose, eps, fn)
}

// near is Query.NearTriangles once the query is checked, fly at pose rel
// in env's frame (o: All, with the tolerance).
func (q *Query) near(env, fly *Model, rel geom.Pose, o QueryOptions, fn func(envTri int32) bool) Stats {
	if env.tree == nil || fly.tree == nil {
		last := int32(-1)
		return bruteForce(env, fly, rel, o, func(p Pair) bool {
			if p.Env == last { // pairs come by environment triangle
				return true
			}
			last = p.Env
			return fn(p.Env)
		})
	}
	return statsOf(bvh.Near(env.tree, fly.tree, rel, o.Eps, &q.s, fn))
}
