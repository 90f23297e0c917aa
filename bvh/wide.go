package bvh

import (
	"math"
	"math/bits"
	"sync/atomic"
	"unsafe"

	"github.com/collide3d/collide/bv"
	"github.com/collide3d/collide/geom"
)

// This file is the wide (4- or 8-ary) layout of an AABB environment tree
// and the walk of Collide's modeContact on it (first contact and all
// pairs, exact or within a tolerance). Every other mode (restart, fronts,
// budgets, distance, time of impact, near) walks the binary tree as before.
//
// The layout collapses the binary tree (vtree[box]) as Embree and tinybvh
// do: a wide node starts as an internal node of the binary tree with its
// two children, and the internal child of largest surface is replaced by
// its two children until the node has W of them or none is internal. Its
// children's boxes are stored structure-of-arrays (cx[W], cy[W], ... hz[W])
// with a ref each (a wide node, ≥ 0, or ^x for leaf x of the binary tree's
// numbering); a node's own box is its parent's child's (the root's, the
// binary root's), which the walk tests a flying node against when it
// descends the flying tree first. A leaf child has a box too, which the binary tree does
// not store: the box of its triangles as boxOf rounds it (containing them
// exactly), a cheap test ahead of the leaf's triangles against the flying
// box.
//
// The walk tests a flying node against all the children of an environment
// node at once (wideMask), without a branch over the children: for each
// child, the six face axes of the separating-axis test that aabbQuery's
// overlap runs (bv.OBBFacesDisjoint), each verdict the sign of one
// subtraction, the child's the OR of the six, the node's a bitmask. The
// flying box's radius on the environment's axes (|R|·H + pad) and its
// half-extents with the pad (H + pad) are computed once per flying node
// and shared by the children. It then pushes the children that overlap
// and descends the flying tree as the binary walk does (the larger box
// first, envFirst's rule: the wide node's box against the flying node's).
//
// Rounding. The boxes are the binary tree's, copied bit for bit, and the
// leaves' are made as boxOf makes every box, containing their triangles
// exactly; the pad is the query's (padding). The test computes the same
// terms as bv.OBBFacesDisjoint from the same numbers, summed in another
// order (a.X + (b·|R|₀ + pad) for a.X + b·|R|₀ + pad): padding bounds the
// rounding of sums of up to seven terms by 72u·M whatever their order, so
// its proof holds for this layout as it is. A verdict |t| > s is read as
// the sign of fl(s − |t|): for finite s > 0 (s ≥ h > 0, boxOf's extents
// being at least the least subnormal) fl(s − |t|) < 0 exactly when
// |t| > s, and is never −0. The tests of a leaf's triangles against a box
// (bv.TriAxes.BoxDisjoint with the query's tpad) are those of the binary
// walk.

// wideLanes and wideRefs are the arrays of a wide node's children: one
// number of each child's box, and the children's refs.
type wideLanes interface{ [4]float64 | [8]float64 }
type wideRefs interface{ [4]int32 | [8]int32 }

// wideNode is a node of the wide layout: its children's boxes (centres and
// half-extents, structure-of-arrays), their refs (a wide node, ≥ 0, or ^x
// for the binary tree's leaf x) and their number n.
type wideNode[A wideLanes, R wideRefs] struct {
	cx, cy, cz A
	hx, hy, hz A
	kid        R
	n          int32
}

// wideAABB is the wide layout of an AABB tree: its nodes, the root first.
type wideAABB[A wideLanes, R wideRefs] struct {
	nodes []wideNode[A, R]
}

// wideViews holds a tree's wide layouts, made on the first query that
// walks the tree as an environment at that width (wideOf), and kept.
type wideViews struct {
	w4 atomic.Pointer[wideAABB[[4]float64, [4]int32]]
	w8 atomic.Pointer[wideAABB[[8]float64, [8]int32]]
	// dop4 and dop8 hold a k-DOP tree's, a *wideDOP[F, L] (wide_dop.go).
	dop4, dop8 atomic.Value
}

// bytes returns the memory of the layouts made so far.
func (v *wideViews) bytes() int64 {
	var b int64
	if w := v.w4.Load(); w != nil {
		b += w.bytes()
	}
	if w := v.w8.Load(); w != nil {
		b += w.bytes()
	}
	for _, d := range []*atomic.Value{&v.dop4, &v.dop8} {
		if w, ok := d.Load().(interface{ bytes() int64 }); ok {
			b += w.bytes()
		}
	}
	return b
}

func (w *wideAABB[A, R]) bytes() int64 {
	var n wideNode[A, R]
	return int64(unsafe.Sizeof(n)) * int64(len(w.nodes))
}

// wideWidth is the width of the environment layout that Collide's
// modeContact walks on AABB trees: 4 or 8, or 2 for the binary tree (no
// wide layout); wideDOPWidth likewise for k-DOP trees. Both are 2: measured
// against the binary walk in one run (BenchmarkWideCPU, wide_bench_test.go:
// least thread CPU time of 12 to 15 interleaved passes, on the loaded
// 2-core machine), neither width paid. AABB trees, 4-wide against binary,
// first contact and all pairs: gears 0.95 and 0.93 in one run, 1.04 and
// 1.08 in the next, 0.97 and 1.04 in a third (after the binary walk's
// nearer-child-first and last-contact hint, which this walk shares);
// dragon 0.89 and 0.95, 0.96 and 0.96, 0.94 and 0.98; knot 0.98 and 1.05,
// 1.15 and 1.10, 0.98 and 1.06; the torus of BenchmarkQueryCPU 0.90 and
// 1.06, 1.03 and 1.25, 0.98 and 1.12; 8-wide alike. k-DOP trees: 0.96 to
// 1.13, 0.98 to 1.03 in the third run. The
// walk's time goes to the leaves' and the triangles' tests, which the
// layout does not change (AABB: 3.5x fewer triangle tests on gears, for
// 1.6x more tests of a triangle against a box), while the binary walk's
// volume tests stop at the first axis that separates where the wide test
// makes all of them; and the layout takes 107 bytes a triangle more
// (AABB, 4-wide; 136 8-wide) beside the binary tree's 56. The 4-wide AABB
// test on AVX2 vectors (Go 1.26's GOEXPERIMENT=simd, package
// simd/archsimd; the same verdicts bit for bit) made the dragon's queries
// 1.3x to 6x slower than the portable code, and is left out (commits
// 08c1b40 and b6e0776 hold it, with its test). Tests and benchmarks set
// the widths (the environment variable COLLIDE_BVH_WIDE of the test
// binary, see wide_test.go); they must not change while queries run.
var wideWidth, wideDOPWidth = 2, 2

// wideOf returns the wide layout of the AABB tree t at the width of p,
// made once (concurrent first queries may each make one; one is kept).
func wideOf[A wideLanes, R wideRefs](t *vtree[box], p *atomic.Pointer[wideAABB[A, R]]) *wideAABB[A, R] {
	if w := p.Load(); w != nil {
		return w
	}
	w := collapse[A, R](t)
	p.CompareAndSwap(nil, w)
	return p.Load()
}

// collapse makes the wide layout of t, which has at least one internal
// node: depth first, each node's children in the binary tree's order (the
// left subtree's before the right's).
func collapse[A wideLanes, R wideRefs](t *vtree[box]) *wideAABB[A, R] {
	var a A
	width := len(a)
	ni := int32(len(t.nodes))
	w := &wideAABB[A, R]{nodes: make([]wideNode[A, R], 0, len(t.nodes)/(width-1)+1)}
	kids := make([]int32, 0, width)
	var make1 func(b int32) int32
	make1 = func(b int32) int32 {
		at := int32(len(w.nodes))
		w.nodes = append(w.nodes, wideNode[A, R]{})
		kids = append(kids[:0], t.nodes[b].kid[0], t.nodes[b].kid[1])
		for len(kids) < width {
			best, area := -1, -1.0
			for i, k := range kids {
				if k < ni {
					if s := boxArea(t.nodes[k].v.H); s > area {
						best, area = i, s
					}
				}
			}
			if best < 0 {
				break
			}
			k := t.nodes[kids[best]].kid
			kids = append(kids, 0)
			copy(kids[best+2:], kids[best+1:])
			kids[best], kids[best+1] = k[0], k[1]
		}
		mine := append([]int32(nil), kids...)
		n := wideNode[A, R]{n: int32(len(mine))}
		for i, k := range mine {
			var v box
			if k < ni {
				v = t.nodes[k].v
				n.kid[i] = make1(k)
			} else {
				b := geom.EmptyAABB()
				for _, tr := range leafList(t.order, t.leafRef(k), nil) {
					b = b.Union(t.m.Triangle(int(tr)).Bounds())
				}
				v = boxOf(b)
				n.kid[i] = ^k
			}
			n.cx[i], n.cy[i], n.cz[i] = v.C.X, v.C.Y, v.C.Z
			n.hx[i], n.hy[i], n.hz[i] = v.H.X, v.H.Y, v.H.Z
		}
		w.nodes[at] = n
		return at
	}
	make1(0)
	return w
}

// wideItem is a pair of the wide walk: environment child c (a wide node, or
// ^x for leaf x) and flying node f. A pair of a wide node and a flying node
// has had its volumes tested (or is the roots'); one of an environment
// leaf and an internal flying node has not had the leaf's triangles tested
// against the flying box yet. at locates c's box among its parent's
// children (node at/W, child at%W): for a wide node, −1 for the root (whose
// box is the binary root's); for a leaf, −1 when the flying leaves below f
// have been tested against its box already.
type wideItem struct{ c, f, at int32 }

// wideAxes is a flying node's part of the test against the children of a
// wide node: its moved centre, its radius on the environment's axes with
// the pad (rb = |R|·H + pad) and its half-extents with the pad (bp).
type wideAxes struct {
	w      geom.Vec3
	rb, bp [3]float64
}

// wideMask returns the children of n whose boxes overlap the flying box x
// under the rotation r (absR = |r|), as bits: the six face axes of
// bv.OBBFacesDisjoint for each child, computed for all of them, each
// verdict the sign bit of fl(s − |t|) (see the file's comment).
func wideMask[A wideLanes, R wideRefs](n *wideNode[A, R], x *wideAxes, r, absR *geom.Mat3) uint32 {
	var out uint64
	for i := range len(n.cx) {
		tx, ty, tz := x.w.X-n.cx[i], x.w.Y-n.cy[i], x.w.Z-n.cz[i]
		ax, ay, az := n.hx[i], n.hy[i], n.hz[i]
		d0 := (ax + x.rb[0]) - math.Abs(tx)
		d1 := (ay + x.rb[1]) - math.Abs(ty)
		d2 := (az + x.rb[2]) - math.Abs(tz)
		d3 := (ax*absR[0][0] + ay*absR[1][0] + az*absR[2][0] + x.bp[0]) - math.Abs(tx*r[0][0]+ty*r[1][0]+tz*r[2][0])
		d4 := (ax*absR[0][1] + ay*absR[1][1] + az*absR[2][1] + x.bp[1]) - math.Abs(tx*r[0][1]+ty*r[1][1]+tz*r[2][1])
		d5 := (ax*absR[0][2] + ay*absR[1][2] + az*absR[2][2] + x.bp[2]) - math.Abs(tx*r[0][2]+ty*r[1][2]+tz*r[2][2])
		bits := math.Float64bits(d0) | math.Float64bits(d1) | math.Float64bits(d2) |
			math.Float64bits(d3) | math.Float64bits(d4) | math.Float64bits(d5)
		out |= (bits >> 63) << i
	}
	return uint32(^out) & (1<<uint(n.n) - 1)
}

// axesOf returns flying node f's part of the wide test (wideAxes), its
// centre moved for the query.
func (q *aabbQuery) axesOf(f int32) wideAxes {
	h := q.ft.vol(f).H
	a := &q.absR
	return wideAxes{
		w: q.sc.wc[f],
		rb: [3]float64{
			h.X*a[0][0] + h.Y*a[0][1] + h.Z*a[0][2] + q.pad,
			h.X*a[1][0] + h.Y*a[1][1] + h.Z*a[1][2] + q.pad,
			h.X*a[2][0] + h.Y*a[2][1] + h.Z*a[2][2] + q.pad,
		},
		bp: [3]float64{h.X + q.pad, h.Y + q.pad, h.Z + q.pad},
	}
}

// wideBox returns the box of the wide node at at (see wideItem).
func wideBox[A wideLanes, R wideRefs](q *aabbQuery, w *wideAABB[A, R], at int32) box {
	if at < 0 {
		return *q.et.vol(0)
	}
	var a A
	p, i := &w.nodes[at/int32(len(a))], at%int32(len(a))
	return box{C: geom.Vec3{X: p.cx[i], Y: p.cy[i], Z: p.cz[i]}, H: geom.Vec3{X: p.hx[i], Y: p.hy[i], Z: p.hz[i]}}
}

// flyLeafWide tests the triangles of flying leaf f against the box of
// child i of n, counting a leaf test.
func flyLeafWide[A wideLanes, R wideRefs](q *aabbQuery, n *wideNode[A, R], i int, f int32) bool {
	q.st.LeafTests++
	c, h := geom.Vec3{X: n.cx[i], Y: n.cy[i], Z: n.cz[i]}, geom.Vec3{X: n.hx[i], Y: n.hy[i], Z: n.hz[i]}
	for _, tr := range q.flyTris(f) {
		if !q.flyAxes(tr).BoxDisjoint(c, h) {
			return true
		}
	}
	return false
}

// collideWide runs q, a query of modeContact, on the wide layout of its
// environment at wideWidth, and reports whether it did (not when the
// width is 2 or the environment has no internal node).
func (q *aabbQuery) collideWide(env *Tree) (Stats, bool) {
	if wideWidth != 4 && wideWidth != 8 || len(q.et.nodes) == 0 {
		return Stats{}, false
	}
	// As run: the last contact's pair first (tester.tryHint).
	if len(q.sc.walk.stack) == 0 || q.tryHint() {
		return q.st, true
	}
	if wideWidth == 4 {
		walkWide(q, wideOf(q.et, &env.wide.w4))
	} else {
		walkWide(q, wideOf(q.et, &env.wide.w8))
	}
	return q.st, true
}

// walkWide runs the query q on the wide layout w of its environment: the
// binary walk's (traverse) with the environment's children taken W at a
// time. It counts a volume test for each child box tested (and for each
// wide node's own box tested against a flying node), and a leaf test for
// each leaf's triangles tested against a box, as the binary walk does.
func walkWide[A wideLanes, R wideRefs](q *aabbQuery, w *wideAABB[A, R]) {
	t := &q.tester
	sc := q.sc
	stack := sc.wide[:0]
	var lanes A
	width := len(lanes)
	first := !t.all
	// The roots: the environment's is internal.
	if fl, _ := q.ft.kids(0); fl < 0 {
		t.st.LeafTests++
		if !q.flyLeaf(0, 0) {
			return
		}
	} else {
		t.st.BVTests++
		if q.stale(0) {
			q.update(0)
		}
		if !q.overlap(0, 0, nil) {
			return
		}
	}
	stack = append(stack, wideItem{0, 0, -1})
	for len(stack) > 0 && !t.stop {
		top := len(stack) - 1
		c, f, at := stack[top].c, stack[top].f, stack[top].at
		stack = stack[:top]
		fl, fr := q.ft.kids(f)
		if c < 0 {
			// An environment leaf: as the binary walk, but that a flying
			// leaf's triangles are tested against the environment leaf's
			// box before their triangles are.
			e := ^c
			if fl < 0 {
				if at >= 0 && !flyLeafWide(q, &w.nodes[at/int32(width)], int(at%int32(width)), f) {
					continue
				}
				q.leaves(e, f)
				continue
			}
			t.st.LeafTests++
			if q.envLeaf(e, f) {
				stack = append(stack, wideItem{c, fr, at}, wideItem{c, fl, at})
			}
			continue
		}
		n := &w.nodes[c]
		switch {
		case fl < 0:
			// A flying leaf: its triangles against each child's box (a
			// leaf's too, which the binary walk does not have: its
			// triangles are then tested against the flying leaf's).
			for i := int(n.n) - 1; i >= 0; i-- {
				if flyLeafWide(q, n, i, f) {
					k, kat := n.kid[i], int32(-1)
					if k >= 0 {
						kat = c*int32(width) + int32(i)
					}
					stack = append(stack, wideItem{k, f, kat})
				}
			}
		case boxArea(wideBox(q, w, at).H) >= boxArea(q.ft.vol(f).H):
			// The environment's children, all at once.
			if q.stale(f) {
				q.update(f)
			}
			x := q.axesOf(f)
			t.st.BVTests += int64(n.n)
			m := wideMask(n, &x, &q.r, &q.absR)
			if first {
				// Nearest centre first, as the binary walk's deeper.
				var ix [8]int
				var d2 [8]float64
				k := 0
				for ; m != 0; m &= m - 1 {
					i := bits.TrailingZeros32(m)
					dx, dy, dz := x.w.X-n.cx[i], x.w.Y-n.cy[i], x.w.Z-n.cz[i]
					d := dx*dx + dy*dy + dz*dz
					j := k
					for ; j > 0 && d2[j-1] < d; j-- {
						ix[j], d2[j] = ix[j-1], d2[j-1]
					}
					ix[j], d2[j] = i, d
					k++
				}
				for _, i := range ix[:k] {
					stack = append(stack, wideItem{n.kid[i], f, c*int32(width) + int32(i)})
				}
				continue
			}
			for m != 0 {
				i := 31 - bits.LeadingZeros32(m)
				m &^= 1 << uint(i)
				stack = append(stack, wideItem{n.kid[i], f, c*int32(width) + int32(i)})
			}
		default:
			// The flying node's children, against the wide node's box.
			nb := wideBox(q, w, at)
			for _, g := range [2]int32{fr, fl} {
				if gl, _ := q.ft.kids(g); gl < 0 {
					t.st.LeafTests++
					for _, tr := range q.flyTris(g) {
						if !q.flyAxes(tr).BoxDisjoint(nb.C, nb.H) {
							stack = append(stack, wideItem{c, g, at})
							break
						}
					}
					continue
				}
				t.st.BVTests++
				if q.stale(g) {
					q.update(g)
				}
				if !bv.OBBFacesDisjoint(nb.H, q.ft.vol(g).H, &q.r, &q.absR, q.sc.wc[g].Sub(nb.C), q.pad) {
					stack = append(stack, wideItem{c, g, at})
				}
			}
		}
	}
	sc.wide = stack
}
