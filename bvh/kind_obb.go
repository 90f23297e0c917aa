package bvh

import (
	"math"
	"math/big"

	"github.com/collide3d/collide/bv"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh"
)

// This file is the OBB kind (Gottschalk, Lin and Manocha, RAPID): boxes
// oriented by the principal axes of the convex hull of their triangles
// (of the triangles themselves in nodes below obbHullMin triangles),
// tested with the 15-axis separating-axis test under the relative pose.
//
// Everything that is the kind's is here: its volume (fitted, bounded,
// saved as numbers), its query (the volume test next to its separation,
// the leaves' tests, ready) and its read checks (the volume's bounds and
// containment); what the moved-volume kinds share is in vtree*.go.

var obbKind = volKind[bv.OBB]{
	kind: OBB,
	fit: func(n *fitNode) bv.OBB {
		if obbFit(n) == bv.FitHull {
			if b, ok := bv.FitOBBHull(n.vertices()); ok {
				return b
			}
		}
		return bv.FitOBB(n.triangles(), obbFit(n))
	},
	frame: func(v *bv.OBB, _ *fitNode) ([3]geom.Vec3, [3]float64) {
		return [3]geom.Vec3{v.Axes.Row(0), v.Axes.Row(1), v.Axes.Row(2)}, [3]float64{v.Half.X, v.Half.Y, v.Half.Z}
	},
	volume: func(v *bv.OBB) float64 { return v.Volume() },
	box: func(b *bv.OBB) geom.AABB {
		var e geom.Vec3
		for k := range 3 {
			e = e.Add(b.Axes.Row(k).Abs().Scale(b.Half.Index(k)))
		}
		return geom.AABB{Min: b.C.Sub(e), Max: b.C.Add(e)}
	},
	floats: func(b *bv.OBB, dst []*float64) []*float64 {
		a := &b.Axes
		return append(dst, &b.C.X, &b.C.Y, &b.C.Z, &a[0][0], &a[0][1], &a[0][2], &a[1][0], &a[1][1], &a[1][2],
			&a[2][0], &a[2][1], &a[2][2], &b.Half.X, &b.Half.Y, &b.Half.Z)
	},
	probes: obbProbes,
	check: func(t *flat[bv.OBB], m *mesh.TriMesh, sh *shape) *fault {
		return checkHolds(t, OBB, m, sh, obbFault, func(b *bv.OBB, p geom.Vec3) bool {
			return math.IsInf(b.Half.X, 1) || obbHolds(b, p)
		})
	},
}

// obbHullMin is the number of triangles from which an OBB or RSS node is
// oriented by the surface of the convex hull of its triangles
// (bv.FitHull, Gottschalk et al.'s final method); a smaller node is
// oriented by the surface of its triangles (bv.FitSurface, RAPID's and
// PQP's fit at every node). The hull guards against uneven sampling, which
// matters in large nodes; in small ones, about a million of them in a
// tree of a million triangles, its cost per node dominated the build (a
// terrain of 10⁶ triangles: 30 s of CPU, of which 4 s for the nodes above
// this size). The hull is taken of the node's distinct vertices
// (fitNode.vertices, bv.FitOBBHull), not of its triangles' corners: the
// same hull, the same box up to the rounding of the covariance, from about
// a sixth of the points on a grid mesh.
const obbHullMin = 1024

// obbFit returns how node n's box (or rectangle) is oriented: see
// obbHullMin.
func obbFit(n *fitNode) bv.OBBFit {
	if len(n.ids) >= obbHullMin {
		return bv.FitHull
	}
	return bv.FitSurface
}

// Field offsets within a saved OBB node's record (see Magic).
const (
	obbAxesAt = 3 * 8
	obbHalfAt = 12 * 8
)

// obbQuery is a query between two OBB trees.
//
// Its walk is the copy of the traversal that go generate makes from the
// first directive, and Collide runs it by the second (see traverse.go):
//
//specialize:copy OBB|noFrame|*obbQuery
//specialize:case *vtree[bv.OBB]|collideOBB(env, fly, pose, o, s, fn)
type obbQuery struct{ moveQuery[bv.OBB] }

// collideOBB runs the query of Collide on OBB trees.
func collideOBB(env, fly *Tree, pose geom.Pose, o request, s *Scratch, fn func(Pair) bool) Stats {
	var q obbQuery
	q.init(env, fly, &pose, &o, s, true)
	q.fn = fn
	return runOBB(&q)
}

// update moves flying node f's centre and axes by the pose.
func (q *obbQuery) update(f int32) {
	v := q.ft.vol(f)
	q.moveAxes(f, v.C, &v.Axes)
}

// overlap runs the separating-axis test of environment box e and flying box
// f, in e's frame: the walk's yes/no test, a fast path kept next to sep,
// the kind's verdict and bound (sep > 0 exactly when overlap says false
// for two internal nodes), because bv.OBBDisjoint stops at the first axis
// that separates where bv.OBBSeparation tries all fifteen: derived from
// sep (!(sep > 0)), the queries ran 21% slower, all pairs (BenchmarkQueryCPU, thread CPU time, least of three interleaved runs on the loaded 2-core machine). The
// relative frame is computed here and in sep, not in a function they
// share: with the call, the queries ran 5% slower here (within this
// machine's noise; the call was measured at a third of the test before).
func (q *obbQuery) overlap(e, f int32, _ *noFrame) bool {
	a, b := q.et.vol(e), q.ft.vol(f)
	wax := &q.sc.wax[f]
	d := q.sc.wc[f].Sub(a.C)
	var r, absR geom.Mat3
	for i := range 3 {
		ai := a.Axes.Row(i)
		for j := range 3 {
			x := ai.X*wax[j][0] + ai.Y*wax[j][1] + ai.Z*wax[j][2]
			r[i][j], absR[i][j] = x, math.Abs(x)
		}
	}
	return !bv.OBBDisjoint(a.Half, b.Half, &r, &absR, a.Axes.MulVec(d), q.pad)
}

// sep of OBB trees. Two internal nodes: the 15-axis separation of
// OBBDisjoint, computed as overlap computes its arguments (g > 0 exactly
// when overlap says disjoint). A leaf: see the leaf helpers below.
func (q *obbQuery) sep(e, f int32, _ *noFrame) float64 {
	ei, fi := uint32(e) < uint32(len(q.et.nodes)), uint32(f) < uint32(len(q.ft.nodes))
	switch {
	case ei && fi:
		a, b := q.et.vol(e), q.ft.vol(f)
		wax := &q.sc.wax[f]
		d := q.sc.wc[f].Sub(a.C)
		var r, absR geom.Mat3
		for i := range 3 {
			ai := a.Axes.Row(i)
			for j := range 3 {
				x := ai.X*wax[j][0] + ai.Y*wax[j][1] + ai.Z*wax[j][2]
				r[i][j], absR[i][j] = x, math.Abs(x)
			}
		}
		return bv.OBBSeparation(a.Half, b.Half, &r, &absR, a.Axes.MulVec(d), q.pad) * sepScale
	case fi:
		v := q.ft.vol(f)
		return q.envFrameSep(e, v.C, &v.Axes, v.Half)
	case ei:
		v := q.et.vol(e)
		return q.flyFrameSep(f, v.C, &v.Axes, v.Half)
	}
	return q.leavesSep(e, f)
}

// lowerBound of OBB trees. Two internal nodes: the largest of sep's bound,
// the gaps along each box's face axes combined (boxFaceLower) and the
// distance of the rectangle swept spheres around the boxes
// (boxRectLower); a leaf: its triangles' gaps along the box's axes
// combined (envFrameLower, flyFrameLower); two leaves: the distance of
// their boxes. See sep.go.
func (q *obbQuery) lowerBound(e, f int32, x *noFrame) float64 {
	ei, fi := uint32(e) < uint32(len(q.et.nodes)), uint32(f) < uint32(len(q.ft.nodes))
	switch {
	case ei && fi:
		a, b := q.et.vol(e), q.ft.vol(f)
		var r, absR geom.Mat3
		t := q.relFrame(a, f, &r, &absR)
		return max(bv.OBBSeparation(a.Half, b.Half, &r, &absR, t, q.pad)*sepScale, boxFaceLower(a.Half, b.Half, &r, &absR, t, q.pad),
			boxRectLower(a.Half, b.Half, &r, t, q.pad))
	case fi:
		v := q.ft.vol(f)
		return q.envFrameLower(e, v.C, &v.Axes, v.Half)
	case ei:
		v := q.et.vol(e)
		return q.flyFrameLower(f, v.C, &v.Axes, v.Half)
	}
	return q.leavesLower(e, f)
}

// relFrame sets r and absR to flying box f's axes (at the pose) in box
// a's frame, and their absolute values, and returns f's centre there: the
// relative frame overlap and sep compute inline (see overlap), shared by
// the distance bounds, which are not the walk's fast path.
func (q *obbQuery) relFrame(a *bv.OBB, f int32, r, absR *geom.Mat3) geom.Vec3 {
	wax := &q.sc.wax[f]
	for i := range 3 {
		ai := a.Axes.Row(i)
		for j := range 3 {
			x := ai.X*wax[j][0] + ai.Y*wax[j][1] + ai.Z*wax[j][2]
			r[i][j], absR[i][j] = x, math.Abs(x)
		}
	}
	return a.Axes.MulVec(q.sc.wc[f].Sub(a.C))
}

// flyLeaf tests environment box e against the triangles of flying leaf f
// at the pose.
func (q *obbQuery) flyLeaf(e, f int32) bool {
	v := q.et.vol(e)
	for _, t := range q.flyTris(f) {
		x := q.flyTriangle(t)
		if !triFrameDisjoint(&x, v.C, &v.Axes, v.Half, q.tpad) {
			return true
		}
	}
	return false
}

// envLeaf tests the triangles of environment leaf e against flying box f,
// in the flying model's coordinates.
func (q *obbQuery) envLeaf(e, f int32) bool {
	v := q.ft.vol(f)
	for _, t := range q.envTris(e) {
		if !triFrameDisjoint(q.envInFly(t), v.C, &v.Axes, v.Half, q.tpad) {
			return true
		}
	}
	return false
}

// envFirst descends the box with the larger surface (RAPID descends the
// one with the larger extent: on the peers' quick scenes, the surface
// leaves a fifth of the leaf tests on AABB trees, as many volume tests).
func (q *obbQuery) envFirst(e, f int32, _ *noFrame) bool {
	return boxArea(q.et.vol(e).Half) >= boxArea(q.ft.vol(f).Half)
}

// probes: Cv tests nearby nodes of t against those of t moved by costPose
// (moved beforehand: that is Cu); Cu moves nodes.
func obbProbes(t *Tree) (cv, cu func(n int)) {
	q := obbQuery{newMoveQuery[bv.OBB](t, t, costPose, request{}, &Scratch{}, nil, true)}
	return probeOBB(&q, vtreeProbes[bv.OBB](t))
}

// ready moves internal flying node f (leaves have no volume) if this
// query has not.
func (q *obbQuery) ready(f int32) {
	if q.internal(f) && q.stale(f) {
		q.update(f)
	}
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
