package bvh

import (
	"math"
	"math/big"

	"github.com/collide3d/collide/bv"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh"
)

// This file is the RSS kind (Larsen, Gottschalk, Lin and Manocha, PQP):
// rectangle swept spheres, the points within a radius of a rectangle
// (bv.FitRSSBy, oriented as OBB nodes are: see obbFit), moved with the
// pose like OBBs and tested by the distance of
// the two rectangles (bv.RSSDisjoint). Their strength is distance queries:
// the rectangles' distance less the radii bounds the distance of the
// triangles inside.
//
// Everything that is the kind's is here: its volume (fitted, bounded,
// saved as numbers), its query (the volume test next to its separation,
// the leaves' tests, ready) and its read checks (the volume's bounds and
// containment); what the moved-volume kinds share is in vtree*.go.

var rssKind = volKind[bv.RSS]{
	kind: RSS,
	fit: func(n *fitNode) bv.RSS {
		if obbFit(n) == bv.FitHull {
			if b, ok := bv.FitRSSHull(n.vertices()); ok {
				return b
			}
		}
		return bv.FitRSSBy(n.triangles(), obbFit(n))
	},
	frame: func(v *bv.RSS, _ *fitNode) ([3]geom.Vec3, [3]float64) {
		return [3]geom.Vec3{v.Axes.Row(0), v.Axes.Row(1), v.Axes.Row(2)}, [3]float64{v.L[0] + v.R, v.L[1] + v.R, v.R}
	},
	volume: func(v *bv.RSS) float64 { return v.Volume() },
	box: func(v *bv.RSS) geom.AABB {
		e := geom.V(v.R, v.R, v.R)
		for k := range 2 {
			e = e.Add(v.Axes.Row(k).Abs().Scale(v.L[k]))
		}
		return geom.AABB{Min: v.C.Sub(e), Max: v.C.Add(e)}
	},
	floats: func(v *bv.RSS, dst []*float64) []*float64 {
		a := &v.Axes
		return append(dst, &v.C.X, &v.C.Y, &v.C.Z, &a[0][0], &a[0][1], &a[0][2], &a[1][0], &a[1][1], &a[1][2],
			&a[2][0], &a[2][1], &a[2][2], &v.L[0], &v.L[1], &v.R)
	},
	probes: rssProbes,
	check: func(t *flat[bv.RSS], m *mesh.TriMesh, sh *shape) *fault {
		return checkHolds(t, RSS, m, sh, rssFault, func(v *bv.RSS, p geom.Vec3) bool {
			return math.IsInf(v.R, 1) || rssHolds(v, p)
		})
	},
}

// Field offsets within a saved RSS node's record (see Magic).
const (
	rssAxesAt = 3 * 8
	rssLAt    = 12 * 8
	rssRAt    = 14 * 8
)

// rssQuery is a query between two RSS trees.
//
// Its walk is the copy of the traversal that go generate makes from the
// first directive, and Collide runs it by the second (see traverse.go):
//
//specialize:copy RSS|noFrame|*rssQuery
//specialize:case *vtree[bv.RSS]|collideRSS(env, fly, pose, o, s, fn)
type rssQuery struct{ moveQuery[bv.RSS] }

// collideRSS runs the query of Collide on RSS trees.
func collideRSS(env, fly *Tree, pose geom.Pose, o request, s *Scratch, fn func(Pair) bool) Stats {
	var q rssQuery
	q.init(env, fly, &pose, &o, s, true)
	q.fn = fn
	return runRSS(&q)
}

// update moves flying node f's centre and axes by the pose.
func (q *rssQuery) update(f int32) {
	v := q.ft.vol(f)
	q.moveAxes(f, v.C, &v.Axes)
}

// overlap compares the distance of the two rectangles, the flying one in
// e's frame, with the sum of the radii. The padding adds, to the query's
// (which bounds the errors of the moved rectangle as it does for OBBs, see
// vtree_check.go), the bound of bv.RSSDisjoint's own rounding:
// 2⁻⁴⁸·(S + T) + 2⁻⁹⁶⁰ with S ≤ |t|₁ + the half-lengths and T the radii and
// the padding, doubled to cover the term it adds itself.
//
// It is the walk's yes/no test, a fast path kept next to sep, the kind's
// verdict and bound (sep > 0 exactly when overlap says false for two
// internal nodes), because bv.RSSSeparation measures the rectangles'
// distance where bv.RSSDisjoint stops at the first direction that
// separates: derived from sep (!(sep > 0)), the queries ran 57% slower,
// all pairs, and 88% to the first contact (BenchmarkQueryCPU, thread CPU time, least of three interleaved runs on the loaded 2-core machine). The relative frame is
// computed in both, as for OBBs.
func (q *rssQuery) overlap(e, f int32, _ *noFrame) bool {
	a, b := q.et.vol(e), q.ft.vol(f)
	wax := &q.sc.wax[f]
	var r geom.Mat3
	for i := range 3 {
		ai := a.Axes.Row(i)
		for j := range 2 {
			r[i][j] = ai.X*wax[j][0] + ai.Y*wax[j][1] + ai.Z*wax[j][2]
		}
	}
	t := a.Axes.MulVec(q.sc.wc[f].Sub(a.C))
	s := math.Abs(t.X) + math.Abs(t.Y) + math.Abs(t.Z) + a.L[0] + a.L[1] + b.L[0] + b.L[1] + a.R + b.R + q.pad
	return !bv.RSSDisjoint(a, b, &r, t, q.pad+0x1p-47*s+0x1p-959)
}

// sep of RSS trees. Two internal nodes: bv.RSSSeparation with overlap's
// arguments and padding, positive exactly when overlap says disjoint; it
// certifies rectangles apart by more than the radii and the padding less
// bv.RSSDisjoint's ε, and overlap's padding adds ε to the query's pad, so
// the triangles are farther apart than eps + g by the argument above (the
// query's pad covers the moved rectangle's errors as for OBBs). A leaf:
// the triangles against the volume's box in its frame (rssBox), as
// envLeaf and flyLeaf test them.
func (q *rssQuery) sep(e, f int32, _ *noFrame) float64 {
	ei, fi := uint32(e) < uint32(len(q.et.nodes)), uint32(f) < uint32(len(q.ft.nodes))
	switch {
	case ei && fi:
		a, b := q.et.vol(e), q.ft.vol(f)
		wax := &q.sc.wax[f]
		var r geom.Mat3
		for i := range 3 {
			ai := a.Axes.Row(i)
			for j := range 2 {
				r[i][j] = ai.X*wax[j][0] + ai.Y*wax[j][1] + ai.Z*wax[j][2]
			}
		}
		t := a.Axes.MulVec(q.sc.wc[f].Sub(a.C))
		s := math.Abs(t.X) + math.Abs(t.Y) + math.Abs(t.Z) + a.L[0] + a.L[1] + b.L[0] + b.L[1] + a.R + b.R + q.pad
		return bv.RSSSeparation(a, b, &r, t, q.pad+0x1p-47*s+0x1p-959) * sepScale
	case fi:
		v := q.ft.vol(f)
		return q.envFrameSep(e, v.C, &v.Axes, rssBox(v))
	case ei:
		v := q.et.vol(e)
		return q.flyFrameSep(f, v.C, &v.Axes, rssBox(v))
	}
	return q.leavesSep(e, f)
}

// lowerBound of RSS trees: two internal nodes, sep's bound (the distance
// of the volumes, Euclidean already); a leaf, its triangles' gaps along
// the axes of the volume's box combined (as sep measures them); two
// leaves, the distance of their boxes. See sep.go.
func (q *rssQuery) lowerBound(e, f int32, x *noFrame) float64 {
	ei, fi := uint32(e) < uint32(len(q.et.nodes)), uint32(f) < uint32(len(q.ft.nodes))
	switch {
	case ei && fi:
		return q.sep(e, f, x)
	case fi:
		v := q.ft.vol(f)
		return q.envFrameLower(e, v.C, &v.Axes, rssBox(v))
	case ei:
		v := q.et.vol(e)
		return q.flyFrameLower(f, v.C, &v.Axes, rssBox(v))
	}
	return q.leavesLower(e, f)
}

// flyLeaf tests environment volume e, by its bounding box in its frame
// (|s_k| ≤ L_k + R, |s_2| ≤ R), against the triangles of flying leaf f at
// the pose.
func (q *rssQuery) flyLeaf(e, f int32) bool {
	v := q.et.vol(e)
	h := rssBox(v)
	for _, t := range q.flyTris(f) {
		x := q.flyTriangle(t)
		if !triFrameDisjoint(&x, v.C, &v.Axes, h, q.tpad) {
			return true
		}
	}
	return false
}

// envLeaf tests the triangles of environment leaf e against flying volume
// f's bounding box, in the flying model's coordinates.
func (q *rssQuery) envLeaf(e, f int32) bool {
	v := q.ft.vol(f)
	h := rssBox(v)
	for _, t := range q.envTris(e) {
		if !triFrameDisjoint(q.envInFly(t), v.C, &v.Axes, h, q.tpad) {
			return true
		}
	}
	return false
}

// rssBox returns the half-extents of the box around v in its frame; their
// rounding is within the padding.
func rssBox(v *bv.RSS) geom.Vec3 { return geom.Vec3{X: v.L[0] + v.R, Y: v.L[1] + v.R, Z: v.R} }

// envFirst descends the volume whose box (rssBox) has the larger surface,
// as for OBB trees.
func (q *rssQuery) envFirst(e, f int32, _ *noFrame) bool {
	return boxArea(rssBox(q.et.vol(e))) >= boxArea(rssBox(q.ft.vol(f)))
}

// rssProbes: as obbProbes.
func rssProbes(t *Tree) (cv, cu func(n int)) {
	q := rssQuery{newMoveQuery[bv.RSS](t, t, costPose, request{}, &Scratch{}, nil, true)}
	return probeRSS(&q, vtreeProbes[bv.RSS](t))
}

// rssFault returns the fault of volume v of node i outside the bounds, or
// nil: as for OBBs (centre, axes), with half-lengths and radius in
// [0, 2m], or a radius of +Inf (bv.FitRSS's volume around every point).
func rssFault(i int, v *bv.RSS, mag float64) *fault {
	if f := centreFault(i, RSS, v.C, mag); f != nil {
		return f
	}
	if f := axesFault(i, "RSS", &v.Axes); f != nil {
		return f
	}
	if math.IsInf(v.R, 1) {
		return nil
	}
	for k := range 2 {
		if f := extentFault(i, rssLAt+8*k, "half-length", v.L[k], mag); f != nil {
			return f
		}
	}
	return extentFault(i, rssRAt, "radius", v.R, mag)
}

// rssHolds reports whether p is in v exactly: with s_k = (p − C)·a_k,
// max(|s_0| − L_0, 0)² + max(|s_1| − L_1, 0)² + s_2² ≤ R² (see bv.RSS),
// for a volume whose numbers are finite and within the bounds.
//
// The float64 filter: as in obbHolds, u_k = projUpper(...) bounds
// |s_k| from above up to its own rounding (at most 1.01u·S_k of the 1.99u·S_k
// to spare), so e_k = max(u_k − L_k, 0), e_2 = u_2 bound the exact terms
// from above within a relative u; their squares' sum, computed, within
// (1 + u)⁵ of its exact value, and scaled by 1 + 2⁻⁴⁸ plus 2⁻¹⁰⁰⁰ for
// underflow, bounds the left side; fl(R·R)·(1 − 2⁻⁵⁰) bounds R² from below
// (if fl(R·R) overflows, R² exceeds the largest float64 and so the finite
// sum). A point the filter cannot confirm (the sum infinite, or close to
// R²) is decided in rational arithmetic.
func rssHolds(v *bv.RSS, p geom.Vec3) bool {
	dx, dy, dz := p.X-v.C.X, p.Y-v.C.Y, p.Z-v.C.Z
	var e [3]float64
	for k := range 3 {
		e[k] = projUpper(&v.Axes[k], dx, dy, dz)
		if k < 2 {
			e[k] = max(e[k]-v.L[k], 0) * (1 + 0x1p-52)
		}
	}
	q := e[0]*e[0] + e[1]*e[1] + e[2]*e[2]
	if q <= math.MaxFloat64 && q*(1+0x1p-48)+0x1p-1000 <= v.R*v.R*(1-0x1p-50) {
		return true
	}
	return rssHoldsExact(v, p)
}

// rssHoldsExact decides rssHolds in rational arithmetic.
func rssHoldsExact(v *bv.RSS, p geom.Vec3) bool {
	exactChecks.Add(1)
	s := exactProjections(&v.Axes, v.C, p)
	var l, sum big.Rat
	for k := range 3 {
		if k < 2 {
			l.SetFloat64(v.L[k])
			if s[k].Sub(&s[k], &l).Sign() < 0 {
				continue
			}
		}
		s[k].Mul(&s[k], &s[k])
		sum.Add(&sum, &s[k])
	}
	l.SetFloat64(v.R)
	l.Mul(&l, &l)
	return sum.Cmp(&l) <= 0
}

func (q *rssQuery) ready(f int32) {
	if q.internal(f) && q.stale(f) {
		q.update(f)
	}
}
