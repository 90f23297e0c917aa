package collide

import (
	"github.com/collide3d/collide/bvh"
	"github.com/collide3d/collide/geom"
)

// Near calls fn with the environment triangles near fly placed at pose:
// every triangle of env within eps of a triangle of fly (in the sense of
// geom.TriTriWithin), and maybe more. It is the search for candidates of a
// caller with its own exact test of what flies, a swept tool for instance
// (package nc flies a tool's axis with the tool's radius as eps). fn
// returns false to stop the search. It is safe to call from many
// goroutines on the same models; each call takes its scratch state from a
// pool.
//
// With hierarchies, Near reports the triangles of every environment leaf
// whose volume comes within eps of a flying leaf's, whether or not the
// triangles themselves do (see bvh.Near): a triangle may be reported more
// than once, and Stats.TriTests counts the triangles handed over. A model
// without one (Brute) is searched pair by pair: each triangle within eps
// is reported once, and Stats.TriTests counts the exact tests. Near
// returns the errors of Check (a nil or unbuilt model, volumes that do not
// fly against each other, a tolerance that is not a finite number ≥ 0, a
// pose that cannot place fly), before calling fn at all.
func Near(env, fly *Model, pose geom.Pose, eps float64, fn func(envTri int32) bool) (Stats, error) {
	q := queryPool.Get().(*Query)
	st, err := q.Near(env, fly, pose, eps, fn)
	queryPool.Put(q)
	return st, err
}

// Near is like the function Near, but uses q's scratch state: once it has
// grown to the models, a search with hierarchies allocates nothing.
func (q *Query) Near(env, fly *Model, pose geom.Pose, eps float64, fn func(envTri int32) bool) (Stats, error) {
	o := QueryOptions{All: true, Eps: eps}
	if err := checkQuery(env, fly, pose, o); err != nil {
		return Stats{}, err
	}
	if env.tree == nil || fly.tree == nil {
		last := int32(-1)
		return bruteForce(env, fly, pose, o, func(p Pair) bool {
			if p.Env == last { // pairs come by environment triangle
				return true
			}
			last = p.Env
			return fn(p.Env)
		}), nil
	}
	return statsOf(bvh.Near(env.tree, fly.tree, pose, eps, &q.s, fn)), nil
}
