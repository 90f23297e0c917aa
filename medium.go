package collide

import (
	"slices"

	"github.com/collide3d/collide/bvh"
	"github.com/collide3d/collide/geom"
)

// medium is a Query's state for medium-grain queries (QueryOptions.Medium):
// the two walks' scratch and the pairs each found.
type medium struct {
	m   bvh.Medium
	got [2][]Pair
	fns [2]func(bvh.Pair) bool
	all []Pair // both walks' pairs, merged
}

// medium is the tree test of walk on two goroutines: both walks collect
// their pairs, and their union, ascending and without repeats (box-trees'
// walks may both find a pair), goes to q.hitFn.
func (q *Query) medium(env, fly *Model, rel *geom.Pose, bo bvh.QueryOptions) Stats {
	if q.md == nil {
		// (A variable of its own for the closures: md, assigned twice,
		// would move to the heap, an allocation per query.)
		nm := new(medium)
		for i := range nm.fns {
			nm.fns[i] = func(p bvh.Pair) bool {
				nm.got[i] = append(nm.got[i], Pair{Env: p.Env, Fly: p.Fly})
				return true
			}
		}
		q.md = nm
	}
	md := q.md
	md.got[0], md.got[1] = md.got[0][:0], md.got[1][:0]
	st := statsOf(bvh.CollideMedium(env.tree, fly.tree, *rel, bo, &md.m, md.fns))
	all := append(append(md.all[:0], md.got[0]...), md.got[1]...)
	slices.SortFunc(all, ComparePairs)
	all = slices.Compact(all)
	md.all = all
	for _, p := range all {
		if !q.hitFn(p) {
			break
		}
	}
	return st
}
