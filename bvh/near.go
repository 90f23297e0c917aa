package bvh

import "github.com/collide3d/collide/geom"

// Near calls fn with every environment triangle that a query of fly at
// pose with tolerance eps reaches: every triangle whose leaf's volumes come
// within eps of a flying leaf's (padded for their rounding, as Collide's
// tolerance queries are), whether or not the triangles themselves do. It is
// the traversal's search for candidates, for callers with their own exact
// test of what flies: it reports every environment triangle within eps of
// a flying triangle (in the sense of geom.TriTriWithin), and more. A
// triangle may be reported more than once (once per flying leaf it meets,
// and box-trees' shared triangles once per leaf); fn returns false to stop
// the search. Stats.TriTests counts the leaves' triangles handed over.
//
// Near is the walk's near-search mode (modeNear, see mode.go). It trusts
// its input as Collide does, and panics as Collide does if the kinds
// differ; collide.Near is the checked entry point. s may be nil.
func Near(env, fly *Tree, pose geom.Pose, eps float64, s *Scratch, fn func(et int32) bool) Stats {
	o := request{QueryOptions: QueryOptions{All: true, Eps: eps}, mode: modeNear, near: fn}
	return collide(env, fly, pose, o, s, nil)
}
