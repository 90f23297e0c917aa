package bvh

import (
	"fmt"
	"math"
	"math/big"
	"slices"
	"sync/atomic"

	"github.com/collide3d/collide/bv"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/internal/exact"
	"github.com/collide3d/collide/mesh"
)

// This file checks the trees of the kinds other than k-DOPs (OBB, sphere,
// AABB, RSS, box-tree) as Read loads them and Tree.Validate checks them: every
// invariant the queries rely on to find exactly the pairs of testing every
// pair, so that a tree that passes, whatever bytes it was read from, answers
// as one Build makes.
//
// # What the queries on vtrees (OBB, sphere, AABB, RSS) rely on
//
// The queries on OBB, sphere, AABB and RSS trees (vquery.go, kind_*.go)
// descend both trees together and cull a pair of internal nodes when their
// volumes, the flying one moved by the pose, are separated by more than
// padding(...) in one of the tests of bv.OBBDisjoint, the sphere test or
// bv.RSSDisjoint, and a leaf and an internal node when the leaf's
// triangles are all separated from the node's volume (or its box) by more
// than 4·padding(...) (bv.TriBoxDisjoint). Leaves have no volume (see
// vtree); those of a tree read in the first node layout are checked as
// the others, then dropped. The cull is sound when:
//
//  1. the tree has the shape the traversal walks: one binary tree laid out
//     depth first (as the file lists it; the queries' numbering is made
//     from it), at most maxDepth levels, each leaf's triangles in range,
//     every triangle in exactly one leaf, no leaf larger than Options.Leaf
//     (and the leaves list the triangle order in turn, as Build lays it
//     out);
//  2. each stored volume contains, in exact arithmetic, every vertex of
//     every triangle below it (hence the triangles: the volumes are convex);
//     for an OBB in the slab form |(x − C)·a_k| ≤ h_k of its stored axes a_k,
//     as bv.FitOBB guarantees; for a sphere |x − C| ≤ R with R ≥ 0; for an
//     AABB C − H ≤ x ≤ C + H with H ≥ 0;
//  3. the tests' rounding stays within the padding, which holds when the
//     volumes' numbers are of the size of the model's coordinates and an
//     OBB's axes are orthonormal to within a few ulps, as Build makes them.
//
// Read checks 1 by a walk of the nodes in layout order, 2 exactly (a
// float64 test with a proven error bound decides almost every vertex, the
// rest are decided in rational arithmetic; an AABB is compared with the
// exact bounds of its vertices), and 3 by these bounds, with m the largest
// |coordinate| of the mesh: every number finite, |C|∞ ≤ 2m; half-extents
// and radii in [0, 2m + 2⁻⁹⁹⁰]; an OBB's axes with |a_k·a_l − [k = l]| ≤ 12u
// (u = 2⁻⁵³) as computed, so at most δ = 16u exactly. The one exception is
// an OBB whose three half-extents are all +Inf (bv.FitOBB's box around
// every point, which Build makes when a model's extents overflow): every one
// of the 15 tests then has an infinite or NaN right side and never culls.
//
// Build's volumes are within these bounds, with room to spare: its OBB
// centres have |C|∞ ≤ 1.44m or so (the most a search found for the centre
// of a box of any orientation around points of the cube [−m, m]³), its
// half-extents are at most √3·m plus FitOBB's padding, its axes within
// about 5u of orthonormal (4.6u measured); its spheres' centres lie in the
// box of their points, up to rounding, and their radii are at most √3·m
// (half the box's diagonal) plus BoundingSphere's padding; its AABBs lie
// within the points' box rounded out by an ulp. The conformance tests
// check every tree Build makes with Tree.Validate, which makes these
// checks.
//
// Why 3 suffices. padding(...) adds 2⁻⁴²·M = 2048u·M (M = emag + 2·fmag +
// |t|∞, as there) to every test, and 32d·M for a rotation d off orthonormal.
// Bounding every rounding of an edge-axis test of bv.OBBDisjoint (the worst
// of the 15) for an environment box (C_A, axes a_i, half-extents h) and a
// flying one (C_B, b_j, g) with |C_A|∞ ≤ 2E, h ≤ 2E, |C_B|∞ ≤ 2F, g ≤ 2F (E,
// F the two meshes' magnitudes) at a pose (R, T) with |T|∞ ≤ τ: the moved
// flying axes are within 3.1u of R·b_j and the relative rotation's entries
// within 8.3u of a_i·R·b_j; the moved flying centre and the translation
// D = R·C_B + T − C_A within 17.5u·F + 2u·τ + 2u·E per coordinate, and its
// projections on the a_i within 41u·F + 9u·τ + 14u·E; with the products and
// sums of the test itself and the flying vertices moved by Pose.Apply
// (within 12u·F + 2u·τ), the computed test is within
// 153u·E + 209u·F + 55u·τ ≤ 153u·M of its exact value, the face-axis tests
// within less.
//
// Axes a_k that are off orthonormal by δ are within 0.9δ of the
// orthonormal rows â_k of the polar factor of the axis matrix, and the box
// of slab form in them lies in the box of axes â_k, same centre, and
// half-extents h_k + 0.91δ·|h|₂ (|x − C|₂ ≤ 1.01·|h|₂ inside the box).
// The test computed on the stored axes differs from the exact
// separating-axis test of these orthonormal boxes (which the identities of
// bv.OBBDisjoint hold for, whatever their handedness) by at most
// 5.4δ·|D|₂ + 3.7δ·(|h|₁ + |g|₁) ≤ 41δ·M = 656u·M. In all, 809u·M is
// below the 2048u·M of the padding, so a culled pair of nodes holds no pair
// of triangles in contact (within eps). A rotation R off orthonormal by d
// adds at most 22.4d·M with these bounds (32d·M is padded), the tolerance
// eps is padded as it is (the orthonormal boxes' axes are unit), and the
// sphere test is within 30u·M of exact. The RSS test (bv.RSSDisjoint) moves
// its flying rectangle as an OBB test moves its box, with the same bounds
// on the axes (|L|, R ≤ 2m like half-extents), so the errors of the moved
// axes and centre and of the axes' departure from orthonormal are those
// above; its own rounding is bounded in bv.RSSDisjoint's documentation and
// added to its padding in the query (kind_rss.go). Underflow is neglected as in
// padding, and so are models within a factor of 16 of the largest float64,
// where the tests' sums may overflow, for Build's trees as well.
//
// # What box-trees' queries rely on
//
// A box-tree's boxes are not stored: the traversal derives each from the
// root box by the cuts (coordinates copied, never computed), and descends
// from a node into each child whose box meets the other tree's. A pair in
// contact at a point x is found if, at every cut, a triangle below the node
// whose part in the node's box holds x stays below a child whose box holds
// x. Read checks:
//
//  1. the shape: one binary tree laid out depth first, at most boxDepth
//     cuts deep, axes 0 to 2, the leaves listing the triangle order in turn
//     (so that the order counts in how many leaves a triangle is, which
//     decides which pairs the query deduplicates), no triangle twice in a
//     leaf, every triangle in at least one leaf;
//  2. the root box contains every triangle, exactly, and lies in [−m, m]³;
//  3. at every cut on axis a with bounds hi (left) and lo (right): hi and lo
//     are finite, hi ≤ the node's box's upper bound and lo ≥ its lower bound
//     on a (so that every box lies in the root box and the tests' rounding
//     is as for Build's trees); every triangle of the left subtree that is
//     not in the right one lies at or below hi on a, every one of the right
//     subtree not in the left one at or above lo; and if a triangle is in
//     both, hi ≥ lo.
//
// With 3, a point x of a triangle in the node's box is in the left child's
// box if the triangle is only on the left (x_a ≤ hi), in the right one's if
// only on the right, and in one of the two if on both (hi ≥ lo); a box whose
// bounds cross (lower above upper) holds no point and so is never on the
// path to a pair.

// faultAt says where a fault lies in a saved tree.
type faultAt uint8

const (
	atTree  faultAt = iota // no field in particular (reported at the node array)
	atNode                 // node i, at byte off of its record
	atEntry                // triangle order entry i
	atRoot                 // a box-tree's root box, at byte off
	atByte                 // the bytes at pos
)

// fault is an invariant a tree breaks: where, and what.
type fault struct {
	at  faultAt
	i   int
	off int
	pos int64
	msg string
}

func faultf(at faultAt, i, off int, format string, args ...any) *fault {
	return &fault{at: at, i: i, off: off, msg: fmt.Sprintf(format, args...)}
}

// offset returns the offset in the file described by h of the bytes at
// fault.
func (f *fault) offset(h *header) int64 {
	switch f.at {
	case atNode:
		return h.nAt + int64(f.i)*h.nodeSize + int64(f.off)
	case atEntry:
		return h.oAt + 4*int64(f.i)
	case atRoot:
		return h.nAt - boxRootSize + int64(f.off)
	case atByte:
		return f.pos
	}
	return h.nAt
}

// Field offsets within a saved node's record (see Magic).
const (
	obbAxesAt  = 3 * 8
	obbHalfAt  = 12 * 8
	sphereRAt  = 3 * 8
	aabbHalfAt = 3 * 8
	cutLoAt    = 8
	cutRefAt   = 16
	cutAxisAt  = 20
)

// shapeRules are the rules of a tree's shape that differ between kinds.
type shapeRules struct {
	levels  int  // most levels
	maxLeaf int  // most triangles in a leaf, 0 for no limit
	once    bool // every triangle in exactly one leaf (else at least one)
	refAt   int  // offset of the ref in a node's record
	// twins are the triangles the leaves do not hold: they are in none,
	// the others as once says.
	twins twinList
}

// shape is the layout of a tree's leaves: seq lists the triangles of the
// leaves in layout order, and node i's subtree holds seq[lo[i]:hi[i]].
type shape struct {
	seq    []int32
	lo, hi []int32
}

// walkShape checks the shape of a tree of n ≥ 1 nodes, whose node i has
// reference ref(i), over nt triangles listed leaf by leaf in order (nil
// for one triangle per leaf): the nodes form one binary tree laid out depth
// first, at most r.levels deep; each leaf's triangles are in range, its
// list starts where the previous leaf's ended and ends within the order; no
// leaf holds more than r.maxLeaf triangles, or one twice; every triangle
// but the twins r.twins leaves out is in one leaf (r.once) or in at least
// one, and no twin is; every order entry is in a leaf.
func walkShape(n, nt int, ref func(int) int32, order []int32, r shapeRules) (*shape, *fault) {
	type item struct{ i, depth int32 }
	stack := []item{{0, 1}}
	sh := &shape{seq: make([]int32, 0, max(len(order), nt)), lo: make([]int32, n), hi: make([]int32, n)}
	// mark[t] is 1 + the number of the last leaf that holds triangle t, 0
	// if none does.
	mark := make([]int32, nt)
	next, pos, leaves := 0, 0, int32(0)
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		i := int(it.i)
		if i != next {
			return nil, faultf(atNode, i, 0, "node %d reached where node %d was expected", i, next)
		}
		if int(it.depth) > r.levels {
			return nil, faultf(atNode, i, 0, "node %d: tree deeper than %d levels", i, r.levels)
		}
		next++
		x := ref(i)
		if x >= 0 {
			if x < 2 || i+int(x) >= n {
				return nil, faultf(atNode, i, r.refAt, "node %d: right child offset %d out of range [2, %d)", i, x, n-i)
			}
			stack = append(stack, item{it.i + x, it.depth + 1}, item{it.i + 1, it.depth + 1})
			continue
		}
		leaves++
		sh.lo[i] = int32(len(sh.seq))
		first := int(^x)
		if order == nil {
			if first >= nt {
				return nil, faultf(atNode, i, r.refAt, "leaf %d: triangle %d out of range [0, %d)", i, first, nt)
			}
			if mark[first] != 0 {
				return nil, faultf(atNode, i, r.refAt, "leaf %d: triangle %d is in two leaves", i, first)
			}
			if !r.twins.held(int32(first)) {
				return nil, faultf(atNode, i, r.refAt, "leaf %d: triangle %d is the twin of an earlier one (leaves hold the first of identical triangles)", i, first)
			}
			mark[first] = leaves
			sh.seq = append(sh.seq, int32(first))
			sh.hi[i] = int32(len(sh.seq))
			continue
		}
		if first != pos {
			return nil, faultf(atNode, i, r.refAt, "leaf %d: its triangles start at order entry %d where entry %d was expected (the leaves list the order in turn)", i, first, pos)
		}
		for j := first; ; j++ {
			if j >= len(order) {
				return nil, faultf(atNode, i, r.refAt, "leaf %d: its triangle list runs past the end of the order", i)
			}
			v := order[j]
			last := v < 0
			if last {
				v = ^v
			}
			switch {
			case int(v) >= nt:
				return nil, faultf(atEntry, j, 0, "order entry %d: triangle %d out of range [0, %d)", j, v, nt)
			case r.maxLeaf > 0 && j-first >= r.maxLeaf:
				return nil, faultf(atNode, i, 0, "leaf %d holds more than %d triangles", i, r.maxLeaf)
			case mark[v] == leaves:
				return nil, faultf(atEntry, j, 0, "order entry %d: triangle %d is twice in leaf %d", j, v, i)
			case r.once && mark[v] != 0:
				return nil, faultf(atEntry, j, 0, "order entry %d: triangle %d is in two leaves", j, v)
			case !r.twins.held(v):
				return nil, faultf(atEntry, j, 0, "order entry %d: triangle %d is the twin of an earlier one (leaves hold the first of identical triangles)", j, v)
			}
			mark[v] = leaves
			sh.seq = append(sh.seq, v)
			if last {
				pos = j + 1
				break
			}
		}
		sh.hi[i] = int32(len(sh.seq))
	}
	if next != n {
		return nil, faultf(atTree, 0, 0, "%d of %d nodes are not in the tree", n-next, n)
	}
	if order != nil && pos != len(order) {
		return nil, faultf(atEntry, pos, 0, "order entries %d to %d are in no leaf", pos, len(order)-1)
	}
	for t, mk := range mark {
		if mk == 0 && r.twins.held(int32(t)) {
			return nil, faultf(atTree, 0, 0, "triangle %d is in no leaf", t)
		}
	}
	// An internal node's subtree holds its left subtree's triangles then
	// its right one's, which follow them in seq.
	for i := n - 1; i >= 0; i-- {
		if x := ref(i); x >= 0 {
			sh.lo[i], sh.hi[i] = sh.lo[i+1], sh.hi[i+int(x)]
		}
	}
	return sh, nil
}

// Bounds on the volumes of OBB, sphere and AABB trees (see the top of the
// file): centres within volMag·m, extents within volMag·m + volTiny, and OBB
// axes' computed Gram matrix within orthoTol of the identity.
const (
	volMag   = 2
	volTiny  = 0x1p-990
	orthoTol = 0x1.8p-50 // 12u
)

// exactChecks counts the containment tests decided in rational arithmetic
// (for the tests).
var exactChecks atomic.Int64

// check checks every invariant of t over m (see the top of the file) and
// returns the first fault, or nil, in the depth-first layout. The volumes
// it checks are those stored: the internal nodes', and the leaves' of a
// tree read in the first node layout (see encode_kinds.go). A tree that
// Read has just read (t.pend) gets its nodes once it passes.
func (t *vtree[V]) check(m *mesh.TriMesh, o Options, tw twinList) *fault {
	f := t.pend
	if f == nil {
		f = t.flatten()
	}
	if bad := t.locate(f, t.checkFlat(f, m, o, tw)); bad != nil {
		return bad
	}
	if t.pend != nil {
		t.setNodes(t.pend)
		t.pend = nil
	}
	return nil
}

func (t *vtree[V]) checkFlat(f *flat[V], m *mesh.TriMesh, o Options, tw twinList) *fault {
	n, nt := len(f.refs), len(m.Tris)
	if nt == 0 || n == 0 {
		if n != nt {
			return faultf(atTree, 0, 0, "%d nodes over %d triangles", n, nt)
		}
		return nil
	}
	ref := func(i int) int32 { return f.refs[i] }
	sh, bad := walkShape(n, nt, ref, t.order, shapeRules{levels: maxDepth, maxLeaf: o.Leaf, once: true, refAt: t.refAt(), twins: tw})
	if bad != nil {
		return bad
	}
	return t.vk.check(f, m, sh)
}

// refAt returns the offset of the ref in a node's record of the first
// layout, the offsets faults are given in (see locate).
func (t *vtree[V]) refAt() int { return 8 * len(t.vk.floats(new(V), nil)) }

// locate returns bad with the offset of a node's field (in a record of the
// first layout: its volume's numbers, then its ref) moved to where the
// second layout stores it, for a tree Read found in that layout, whose
// nodes are f.
func (t *vtree[V]) locate(f *flat[V], bad *fault) *fault {
	s := t.saved
	if bad == nil || s == nil || bad.at != atNode {
		return bad
	}
	g := *bad
	g.at, g.pos = atByte, s.refsAt+4*int64(bad.i)
	if bad.off < t.refAt() && f.refs[bad.i] >= 0 {
		g.pos = s.volsAt + int64(f.id[bad.i])*s.size + int64(bad.off/8*s.w)
	}
	return &g
}

// checkHolds returns the first fault of the stored volumes of t: out of
// the bounds (volumeFault), or not containing a vertex below it (holds).
func checkHolds[V any](t *flat[V], kind Kind, m *mesh.TriMesh, sh *shape, volumeFault func(i int, v *V, mag float64) *fault, holds func(v *V, p geom.Vec3) bool) *fault {
	mag := meshMag(m)
	nodeFault := func(i int) *fault {
		v := t.stored(i)
		if v == nil {
			return nil
		}
		if f := volumeFault(i, v, mag); f != nil {
			return f
		}
		for _, tr := range sh.seq[sh.lo[i]:sh.hi[i]] {
			for _, x := range m.Tris[tr] {
				if !holds(v, m.Verts[x]) {
					return faultf(atNode, i, 0, "node %d's %v does not contain vertex %d of triangle %d below it", i, kind, x, tr)
				}
			}
		}
		return nil
	}
	bad := firstFault(len(t.refs), func(i int) bool { return nodeFault(i) != nil })
	if bad < 0 {
		return nil
	}
	return nodeFault(bad)
}

// centreFault returns the fault of a centre c of node i beyond the bounds,
// or nil.
func centreFault(i int, kind Kind, c geom.Vec3, mag float64) *fault {
	for k := range 3 {
		if x := c.Index(k); !(math.Abs(x) <= volMag*mag) {
			return faultf(atNode, i, 8*k, "node %d: %v centre coordinate %v is not finite or beyond %d times the model's largest coordinate %v", i, kind, x, volMag, mag)
		}
	}
	return nil
}

// extentFault returns the fault of an extent x (a half-extent or radius,
// named what) of node i at byte off beyond the bounds, or nil.
func extentFault(i, off int, what string, x, mag float64) *fault {
	switch {
	case x < 0:
		return faultf(atNode, i, off, "node %d: %s %v is negative", i, what, x)
	case !(x <= volMag*mag+volTiny):
		return faultf(atNode, i, off, "node %d: %s %v is not finite or beyond %d times the model's largest coordinate %v", i, what, x, volMag, mag)
	}
	return nil
}

// sphereFault returns the fault of sphere s of node i outside the bounds,
// or nil.
func sphereFault(i int, s *bv.Sphere, mag float64) *fault {
	if f := centreFault(i, Sphere, s.C, mag); f != nil {
		return f
	}
	return extentFault(i, sphereRAt, "radius", s.R, mag)
}

// boxFault returns the fault of box b of node i outside the bounds, or
// nil.
func boxFault(i int, b *box, mag float64) *fault {
	if f := centreFault(i, AABB, b.C, mag); f != nil {
		return f
	}
	for k := range 3 {
		if f := extentFault(i, aabbHalfAt+8*k, "half-extent", b.H.Index(k), mag); f != nil {
			return f
		}
	}
	return nil
}

// obbFault returns the fault of box b of node i outside the bounds, or
// nil.
func obbFault(i int, b *bv.OBB, mag float64) *fault {
	if f := centreFault(i, OBB, b.C, mag); f != nil {
		return f
	}
	if f := axesFault(i, "OBB", &b.Axes); f != nil {
		return f
	}
	h := b.Half
	if inf := math.Inf(1); h.X == inf && h.Y == inf && h.Z == inf {
		return nil
	}
	for k := range 3 {
		if f := extentFault(i, obbHalfAt+8*k, "half-extent", h.Index(k), mag); f != nil {
			return f
		}
	}
	return nil
}

// axesFault returns the fault of the axes ax (rows) of node i, an OBB or
// RSS as name says, that are not
// orthonormal to within orthoTol as computed, or nil. The diagonal is
// checked first: then |a_k|₂·|a_l|₂ ≤ 1 + 13u, and each computed dot
// product is within γ₃·(1 + 13u) < 3.1u of the exact one (FMA or not), so
// the exact Gram matrix is within 12u + 3.1u < 16u of the identity.
func axesFault(i int, name string, ax *geom.Mat3) *fault {
	for _, kl := range [6][2]int{{0, 0}, {1, 1}, {2, 2}, {0, 1}, {0, 2}, {1, 2}} {
		k, l := kl[0], kl[1]
		g := ax.Row(k).Dot(ax.Row(l))
		if k == l {
			g-- // exact (Sterbenz) when it matters
		}
		if !(math.Abs(g) <= orthoTol) {
			return faultf(atNode, i, obbAxesAt+24*k, "node %d: %s axes %d and %d are not orthonormal (dot product off by %.3g, more than %.3g)", i, name, k, l, g, orthoTol)
		}
	}
	return nil
}

// obbHolds reports whether |(p − C)·a_k| ≤ h_k exactly for the three axes
// a_k of b, whose numbers are finite and within the bounds (so |a_kj| < 1.01).
//
// The float64 filter: with d_j = fl(p_j − C_j) (relative error u) and
// x = fl(Σ_j a_kj·d_j), S = fl(Σ_j |fl(a_kj·d_j)|) (FMA or not), the exact
// projection is within γ₃·S' + u·S'/(1−u) ≤ 4.01u·S of x, S' = Σ|a_kj·d_j|
// ≤ S(1 + 3.01u), plus at most 6·2⁻¹⁰⁷⁵ from underflow. The test
// fl(|x| + fl(6u·S + 2⁻¹⁰⁶⁰)) ≤ h_k then implies the exact inequality (the
// last sum's rounding takes at most u·(|x| + 6u·S) ≤ 1.01u·S of the 1.99u·S
// to spare). A projection the filter cannot confirm (overflow, or within
// about 6u·S of h_k) is decided in rational arithmetic.
func obbHolds(b *bv.OBB, p geom.Vec3) bool {
	dx, dy, dz := p.X-b.C.X, p.Y-b.C.Y, p.Z-b.C.Z
	if dx == 0 && dy == 0 && dz == 0 {
		return true // p = C, and h_k ≥ 0
	}
	for k, h := range [3]float64{b.Half.X, b.Half.Y, b.Half.Z} {
		if !(projUpper(&b.Axes[k], dx, dy, dz) <= h) {
			return obbHoldsExact(b, p)
		}
	}
	return true
}

// projUpper returns fl(|x| + fl(6u·S + 2⁻¹⁰⁶⁰)) for the projection
// x = fl(Σ_j a_j·d_j) of d = (dx, dy, dz) on a, S = fl(Σ_j |fl(a_j·d_j)|):
// an upper bound on the exact |a·d| up to its own last rounding, whenever
// |a_j| < 1.01 and the d_j are the rounded differences of a point and a
// centre (see obbHolds).
func projUpper(a *[3]float64, dx, dy, dz float64) float64 {
	p0, p1, p2 := a[0]*dx, a[1]*dy, a[2]*dz
	x := p0 + p1 + p2
	s := math.Abs(p0) + math.Abs(p1) + math.Abs(p2)
	return math.Abs(x) + (0x1.8p-51*s + 0x1p-1060)
}

// obbHoldsExact decides obbHolds in rational arithmetic.
func obbHoldsExact(b *bv.OBB, p geom.Vec3) bool {
	exactChecks.Add(1)
	s := exactProjections(&b.Axes, b.C, p)
	var h big.Rat
	for k := range 3 {
		h.SetFloat64(b.Half.Index(k))
		if s[k].Cmp(&h) > 0 {
			return false
		}
	}
	return true
}

// exactProjections returns |(p − c)·a_k| for the rows a_k of axes, in
// rational arithmetic.
func exactProjections(axes *geom.Mat3, c, p geom.Vec3) [3]big.Rat {
	var d, s [3]big.Rat
	var x, y big.Rat
	for j := range 3 {
		d[j].SetFloat64(p.Index(j))
		y.SetFloat64(c.Index(j))
		d[j].Sub(&d[j], &y)
	}
	for k := range 3 {
		for j := range 3 {
			x.SetFloat64(axes[k][j])
			x.Mul(&x, &d[j])
			s[k].Add(&s[k], &x)
		}
		s[k].Abs(&s[k])
	}
	return s
}

// sphereHolds reports whether |p − C| ≤ R exactly, for a sphere whose
// numbers are finite and R ≥ 0.
//
// The float64 filter: with d_j = fl(p_j − C_j), the computed
// S = fl(Σ d_j²) ≥ |p − C|²(1−u)⁵ − 3·2⁻¹⁰⁷⁵ (FMA or not) and
// fl(R·R) ≤ R²(1+u) + 2⁻¹⁰⁷⁵, so fl(S·(1 + 8u)) + 2⁻¹⁰⁶⁰ ≤ fl(R·R) implies
// |p − C|² ≤ R² when S is finite (if fl(R·R) overflows, R² exceeds the
// largest float64 and so |p − C|², below it). A point the filter cannot
// confirm (S infinite, or within about 7u of R relative) is decided exactly
// by bv.Sphere.Overlaps.
func sphereHolds(s *bv.Sphere, p geom.Vec3) bool {
	d := p.Sub(s.C)
	dd := d.X*d.X + d.Y*d.Y + d.Z*d.Z
	if dd <= math.MaxFloat64 && dd*(1+0x1p-50)+0x1p-1060 <= s.R*s.R {
		return true
	}
	if d == (geom.Vec3{}) {
		return true // p = C: fl(p_j − C_j) = 0 only then
	}
	exactChecks.Add(1)
	return bv.Sphere{C: p}.Overlaps(*s)
}

// checkBoxes checks the stored volumes of an AABB tree: within the
// bounds, and containing exactly the box of the vertices below each node,
// which is computed children before parents in one pass: taking the nodes
// in reverse layout order, each subtree leaves its box on a stack, the
// right subtree's below the left one's.
func checkBoxes(t *flat[box], m *mesh.TriMesh, sh *shape) *fault {
	n := len(t.refs)
	mag := meshMag(m)
	volFault := func(i int) *fault {
		if v := t.stored(i); v != nil {
			return boxFault(i, v, mag)
		}
		return nil
	}
	if i := firstFault(n, func(i int) bool { return volFault(i) != nil }); i >= 0 {
		return volFault(i)
	}
	var stack []geom.AABB
	bad := -1
	for i := n - 1; i >= 0; i-- {
		var b geom.AABB
		if t.refs[i] >= 0 {
			l, r := stack[len(stack)-1], stack[len(stack)-2]
			stack = stack[:len(stack)-2]
			b = l.Union(r)
		} else {
			b = geom.EmptyAABB()
			for _, tr := range sh.seq[sh.lo[i]:sh.hi[i]] {
				b = b.Union(m.Triangle(int(tr)).Bounds())
			}
		}
		stack = append(stack, b)
		if v := t.stored(i); v != nil && !boxHolds(v, b) {
			bad = i
		}
	}
	if bad < 0 {
		return nil
	}
	return faultf(atNode, bad, 0, "node %d's aabb does not contain the triangles below it", bad)
}

// boxHolds reports whether C − H ≤ b.Min and b.Max ≤ C + H hold exactly
// for the box x of finite numbers: C ± H is computed as an unevaluated sum
// s + e by Knuth's TwoSum (exact when s is finite; s infinite means an
// overflow away from b).
func boxHolds(x *box, b geom.AABB) bool {
	for k := range 3 {
		c, h := x.C.Index(k), x.H.Index(k)
		lo, hi := b.Min.Index(k), b.Max.Index(k)
		if s, e := exact.TwoSum(c, h); !(hi < s || hi == s && e >= 0) {
			return false
		}
		if s, e := exact.TwoSum(c, -h); !(lo > s || lo == s && e <= 0) {
			return false
		}
	}
	return true
}

// check checks every invariant of the box-tree t over m (see the top of the
// file) and returns the first fault, or nil.
func (t *boxTree) check(m *mesh.TriMesh, _ Options, tw twinList) *fault {
	n, nt := len(t.nodes), len(m.Tris)
	if nt == 0 || n == 0 {
		if n != 0 || nt != 0 {
			return faultf(atTree, 0, 0, "%d nodes over %d triangles", n, nt)
		}
		return nil
	}
	mag := meshMag(m)
	r := t.root
	for k, x := range [6]float64{r.Min.X, r.Min.Y, r.Min.Z, r.Max.X, r.Max.Y, r.Max.Z} {
		if !(math.Abs(x) <= mag) {
			return faultf(atRoot, 0, 8*k, "root box coordinate %v is not finite or beyond the model's largest coordinate %v", x, mag)
		}
	}
	if i := firstFault(nt, func(i int) bool { return !r.ContainsBox(m.Triangle(i).Bounds()) }); i >= 0 {
		return faultf(atRoot, 0, 0, "the root box does not contain triangle %d", i)
	}
	ref := func(i int) int32 { return t.nodes[i].ref }
	sh, f := walkShape(n, nt, ref, t.order, shapeRules{levels: boxDepth + 1, refAt: cutRefAt, twins: tw})
	if f != nil {
		return f
	}
	// The cuts' bounds, against each node's box, top down: the first node
	// at fault, in layout order, is bf.
	type item struct {
		i int
		b geom.AABB
	}
	var bf *fault
	stack := []item{{0, r}}
	for len(stack) > 0 && bf == nil {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		c := &t.nodes[it.i]
		if c.ref < 0 {
			continue
		}
		a := int(c.axis)
		switch {
		case a > 2:
			bf = faultf(atNode, it.i, cutAxisAt, "node %d: axis %d (want 0, 1 or 2)", it.i, c.axis)
		case math.IsInf(c.hi, 0) || math.IsNaN(c.hi):
			bf = faultf(atNode, it.i, 0, "node %d: the left child's upper bound %v is not finite", it.i, c.hi)
		case math.IsInf(c.lo, 0) || math.IsNaN(c.lo):
			bf = faultf(atNode, it.i, cutLoAt, "node %d: the right child's lower bound %v is not finite", it.i, c.lo)
		case c.hi > it.b.Max.Index(a):
			bf = faultf(atNode, it.i, 0, "node %d: the left child's upper bound %v is above the node's box (%v on axis %d)", it.i, c.hi, it.b.Max.Index(a), a)
		case c.lo < it.b.Min.Index(a):
			bf = faultf(atNode, it.i, cutLoAt, "node %d: the right child's lower bound %v is below the node's box (%v on axis %d)", it.i, c.lo, it.b.Min.Index(a), a)
		}
		l, rb := it.b, it.b
		l.Max = l.Max.SetIndex(a, c.hi)
		rb.Min = rb.Min.SetIndex(a, c.lo)
		stack = append(stack, item{it.i + int(c.ref), rb}, item{it.i + 1, l})
	}
	// Where each triangle is in seq, to tell the triangles on both sides
	// of a cut: at[off[t]:off[t+1]], increasing.
	off := make([]int32, nt+1)
	for _, tr := range sh.seq {
		off[tr+1]++
	}
	for i := range nt {
		off[i+1] += off[i]
	}
	at := make([]int32, len(sh.seq))
	fill := slices.Clone(off[:nt])
	for p, tr := range sh.seq {
		at[fill[tr]] = int32(p)
		fill[tr]++
	}
	// in reports whether triangle tr is in seq[lo:hi].
	in := func(tr, lo, hi int32) bool {
		ps := at[off[tr]:off[tr+1]]
		if len(ps) == 1 {
			return lo <= ps[0] && ps[0] < hi
		}
		j, _ := slices.BinarySearch(ps, lo)
		return j < len(ps) && ps[j] < hi
	}
	// The cuts' conditions, up to bf: the first node at fault in layout
	// order is reported. (A node's subtree's triangles do not depend on
	// the axes, so the cuts before bf are checked on sound ground.)
	upto := n
	if bf != nil {
		upto = bf.i
	}
	bad := firstFault(upto, func(i int) bool { return t.cutFault(i, m, sh, in) != nil })
	if bad < 0 {
		return bf
	}
	return t.cutFault(bad, m, sh, in)
}

// cutFault returns the fault of the cut of node i (nil for a leaf): a
// triangle of one side only that reaches beyond the cut, or a gap between
// the children's boxes where a triangle of both sides lies.
func (t *boxTree) cutFault(i int, m *mesh.TriMesh, sh *shape, in func(tr, lo, hi int32) bool) *fault {
	c := &t.nodes[i]
	if c.ref < 0 {
		return nil
	}
	a := int(c.axis)
	l, r := i+1, i+int(c.ref)
	extent := func(tr int32) (lo, hi float64) {
		ix := m.Tris[tr]
		x, y, z := m.Verts[ix[0]].Index(a), m.Verts[ix[1]].Index(a), m.Verts[ix[2]].Index(a)
		return min(x, y, z), max(x, y, z)
	}
	both := false
	for _, tr := range sh.seq[sh.lo[l]:sh.hi[l]] {
		if in(tr, sh.lo[r], sh.hi[r]) {
			both = true
		} else if _, hi := extent(tr); hi > c.hi {
			return faultf(atNode, i, 0, "node %d: triangle %d of the left subtree only reaches above its cut", i, tr)
		}
	}
	for _, tr := range sh.seq[sh.lo[r]:sh.hi[r]] {
		if lo, _ := extent(tr); lo < c.lo && !in(tr, sh.lo[l], sh.hi[l]) {
			return faultf(atNode, i, cutLoAt, "node %d: triangle %d of the right subtree only reaches below its cut", i, tr)
		}
	}
	if both && c.hi < c.lo {
		return faultf(atNode, i, 0, "node %d: the children's boxes leave a gap where shared triangles lie", i)
	}
	return nil
}
