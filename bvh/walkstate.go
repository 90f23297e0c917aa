package bvh

import (
	"github.com/collide3d/collide/bv"
	"github.com/collide3d/collide/geom"
)

// This file holds what the walks from fronts and distance queries keep
// besides the kinds' operations (each kind's ready, tris, ejoin and fjoin
// are in its file): the parents of the trees' nodes that fronts raise
// pairs with, and the state of a distance query.

// frontParents returns the parents of env's nodes, numbered as the queries
// number an environment's, and of fly's, numbered as they number a flying
// tree's against env (of k-DOPs of k).
func frontParents(env, fly *Tree, k int) (epar, fpar []int32) {
	epar = treeParents(env)
	if env.opts.Kind != KDOP {
		return epar, treeParents(fly)
	}
	fv := fly.view(bv.K(k))
	fpar = fly.parents(k, len(fv.kid), func(i int32) (l, r int32) {
		if c := fv.kid[i]; c >= 0 {
			return c, c + 1
		}
		return -1, -1
	})
	return epar, fpar
}

// treeParents returns the parents of t's nodes as the queries number them.
func treeParents(t *Tree) []int32 {
	if v, ok := t.impl.(interface {
		kids(i int32) (l, r int32)
		ids() int
	}); ok {
		return t.parents(0, v.ids(), v.kids)
	}
	im := t.impl
	return t.parents(0, im.len(), func(i int32) (l, r int32) {
		if x := im.ref(int(i)); x >= 0 {
			return i + 1, i + x
		}
		return -1, -1
	})
}

// distState is the state of a distance query: the smallest distance found
// so far (or the cut-off), with its witnesses.
type distState struct {
	best float64
	// slack bounds how far below a pair's exact distance its computed one
	// (geom.TriTriDistance) may be: pairs proved no nearer than best plus
	// slack cannot give a smaller computed distance, so the query finds
	// the smallest computed distance of all pairs, as testing every pair
	// would.
	slack  float64
	e, f   int32 // witness triangles, -1 while none is below the cut-off
	pe, pf geom.Vec3
	// bud is what the search may still spend (its pend unused); stopped
	// says it ran out, lower the least bound of the pairs left then.
	bud     budget
	stopped bool
	lower   float64
}

// closest computes the distances between environment triangles et and
// flying triangles ft at the pose, keeping the smallest in d. It stops
// at 0 (contact).
func (q *tester) closest(et, ft []int32, d *distState) {
	for _, e := range et {
		a := q.emesh.Triangle(int(e))
		for _, f := range ft {
			b := q.flyTriangle(f)
			if geom.TriTriLowerBound(a, b)-d.slack >= d.best {
				continue
			}
			q.st.TriTests++
			dist, pa, pb := geom.TriTriDistance(a, b)
			if dist < d.best {
				d.best, d.e, d.f, d.pe, d.pf = dist, e, f, pa, pb
				if dist == 0 {
					return
				}
			}
		}
	}
}
