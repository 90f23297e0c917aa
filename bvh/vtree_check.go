package bvh

import (
	"math"
	"math/big"
	"sync/atomic"

	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh"
)

// This file checks the trees of the moved-volume kinds (OBB, sphere,
// AABB, RSS: the vtrees) as Read loads them and Tree.Validate checks them:
// every invariant the queries rely on to find exactly the pairs of testing
// every pair, so that a tree that passes, whatever bytes it was read from,
// answers as one Build makes. It is the part the kinds share; each kind's
// file holds its own bounds and containment test (volKind.check).
//
// # What the queries on vtrees rely on
//
// The queries on OBB, sphere, AABB and RSS trees (vtree_query.go, kind_*.go)
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
// tree read in the first node layout (see vtree_save.go). A tree that
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
