package bvh

import (
	"math"

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
// at 0 (contact). A pair that geom.TriTriLowerBound or dirGap proves no
// nearer than the best distance (plus the slack) is skipped: the search
// reaches many pairs of leaves almost as close as the closest, where the
// distance of two triangles costs tens of times their bounds.
func (q *tester) closest(et, ft []int32, d *distState) {
	for _, e := range et {
		a := q.emesh.Triangle(int(e))
		for _, f := range ft {
			b := q.flyTriangle(f)
			if geom.TriTriLowerBound(a, b)-d.slack >= d.best || dirGap(&a, &b)-d.slack >= d.best {
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

// dirGap returns a certified lower bound on the distance of triangles a
// and b: the gap between their projections on m, the difference of their
// vertices' sums (three times that of their centroids), divided by |m|
// (for any m, the exact gap along m over |m| bounds the distance); for two
// small triangles far apart, within a few of their sizes squared over the
// distance of the distance itself, where the boxes' gaps and the planes
// of TriTriLowerBound are off by their sizes. 0 proves nothing.
//
// Rounding: each projection m·p is within 3.01u·|m|₁·M of the exact one
// (M the largest |coordinate| of the six vertices, u = 2⁻⁵³), the gap
// fl(pb − pa) within a relative u of their difference: e = 2⁻⁴⁹·|m|₁·M ≥
// 6.02u·|m|₁·M + u·gap covers both (gap ≤ 2|m|₁·M). fl(√fl(m·m)) is within
// 3u of |m|, and the quotient and the last product round once each: the
// factor 1 − 2⁻⁴⁸ covers them. Tiny vectors (|m| below 2⁻⁴⁰⁰, where m·m
// may underflow) and non-finite numbers give 0.
func dirGap(a, b *geom.Triangle) float64 {
	m := b[0].Add(b[1]).Add(b[2]).Sub(a[0].Add(a[1]).Add(a[2]))
	pa := max(m.Dot(a[0]), m.Dot(a[1]), m.Dot(a[2]))
	pb := min(m.Dot(b[0]), m.Dot(b[1]), m.Dot(b[2]))
	gap := pb - pa
	if !(gap > 0) {
		return 0
	}
	mm := 0.0
	for _, p := range [6]geom.Vec3{a[0], a[1], a[2], b[0], b[1], b[2]} {
		mm = max(mm, math.Abs(p.X), math.Abs(p.Y), math.Abs(p.Z))
	}
	m1 := math.Abs(m.X) + math.Abs(m.Y) + math.Abs(m.Z)
	n := math.Sqrt(m.Dot(m))
	g := (gap - 0x1p-49*m1*mm) / n * (1 - 0x1p-48)
	if !(n >= 0x1p-400 && g > 0 && g <= math.MaxFloat64) {
		return 0
	}
	return g
}
