package bv

import (
	"math"

	"github.com/collide3d/collide/geom"
)

// This file holds the separations of the volume tests: for a pair of
// volumes, not only whether a test finds them disjoint but by how much.
// Each function evaluates the right sides of its test with the very
// expressions the test uses, so that the sign of the result is the test's
// answer exactly (the difference of two floats is positive exactly when
// the first is larger); what a positive separation certifies is stated
// with each function. The maxima ignore NaN (a NaN separation never
// separates, as a NaN never makes a test say disjoint).

// OBBSeparation returns the largest separation of the boxes of
// OBBDisjoint over its 15 axes L: |t·L| − (ra + rb + pad), ra and rb the
// radii of the boxes' projections on L, each right side computed as
// OBBDisjoint computes it. It is positive exactly when OBBDisjoint(a, b,
// r, absR, t, pad) reports true, and −Inf when every axis gives NaN.
//
// On a face axis L is a unit vector (for orthonormal axes), so the
// separation is the gap between the projections less pad. On an edge axis
// A_i × B_j, L is not normalised: |L| = sin θ ≤ 1, and the separation is
// |L| times the gap along L/|L| less pad; dividing by |L| would only make
// it larger, so using it as it is stays a lower bound (a conservative one
// for nearly parallel edges). Like OBBDisjoint it does not allocate.
func OBBSeparation(a, b geom.Vec3, r, absR *geom.Mat3, t geom.Vec3, pad float64) float64 {
	g := OBBFacesSeparation(a, b, r, absR, t, pad)
	// The edge axes, as in OBBDisjoint.
	if s := math.Abs(t.Z*r[1][0]-t.Y*r[2][0]) - (a.Y*absR[2][0] + a.Z*absR[1][0] + b.Y*absR[0][2] + b.Z*absR[0][1] + pad); s > g {
		g = s
	}
	if s := math.Abs(t.Z*r[1][1]-t.Y*r[2][1]) - (a.Y*absR[2][1] + a.Z*absR[1][1] + b.Z*absR[0][0] + b.X*absR[0][2] + pad); s > g {
		g = s
	}
	if s := math.Abs(t.Z*r[1][2]-t.Y*r[2][2]) - (a.Y*absR[2][2] + a.Z*absR[1][2] + b.X*absR[0][1] + b.Y*absR[0][0] + pad); s > g {
		g = s
	}
	if s := math.Abs(t.X*r[2][0]-t.Z*r[0][0]) - (a.Z*absR[0][0] + a.X*absR[2][0] + b.Y*absR[1][2] + b.Z*absR[1][1] + pad); s > g {
		g = s
	}
	if s := math.Abs(t.X*r[2][1]-t.Z*r[0][1]) - (a.Z*absR[0][1] + a.X*absR[2][1] + b.Z*absR[1][0] + b.X*absR[1][2] + pad); s > g {
		g = s
	}
	if s := math.Abs(t.X*r[2][2]-t.Z*r[0][2]) - (a.Z*absR[0][2] + a.X*absR[2][2] + b.X*absR[1][1] + b.Y*absR[1][0] + pad); s > g {
		g = s
	}
	if s := math.Abs(t.Y*r[0][0]-t.X*r[1][0]) - (a.X*absR[1][0] + a.Y*absR[0][0] + b.Y*absR[2][2] + b.Z*absR[2][1] + pad); s > g {
		g = s
	}
	if s := math.Abs(t.Y*r[0][1]-t.X*r[1][1]) - (a.X*absR[1][1] + a.Y*absR[0][1] + b.Z*absR[2][0] + b.X*absR[2][2] + pad); s > g {
		g = s
	}
	if s := math.Abs(t.Y*r[0][2]-t.X*r[1][2]) - (a.X*absR[1][2] + a.Y*absR[0][2] + b.X*absR[2][1] + b.Y*absR[2][0] + pad); s > g {
		g = s
	}
	return g
}

// OBBFacesSeparation is OBBSeparation over the six face axes only: it is
// positive exactly when OBBFacesDisjoint reports true.
func OBBFacesSeparation(a, b geom.Vec3, r, absR *geom.Mat3, t geom.Vec3, pad float64) float64 {
	g := math.Inf(-1)
	if s := math.Abs(t.X) - (a.X + b.X*absR[0][0] + b.Y*absR[0][1] + b.Z*absR[0][2] + pad); s > g {
		g = s
	}
	if s := math.Abs(t.Y) - (a.Y + b.X*absR[1][0] + b.Y*absR[1][1] + b.Z*absR[1][2] + pad); s > g {
		g = s
	}
	if s := math.Abs(t.Z) - (a.Z + b.X*absR[2][0] + b.Y*absR[2][1] + b.Z*absR[2][2] + pad); s > g {
		g = s
	}
	if s := math.Abs(t.X*r[0][0]+t.Y*r[1][0]+t.Z*r[2][0]) - (a.X*absR[0][0] + a.Y*absR[1][0] + a.Z*absR[2][0] + b.X + pad); s > g {
		g = s
	}
	if s := math.Abs(t.X*r[0][1]+t.Y*r[1][1]+t.Z*r[2][1]) - (a.X*absR[0][1] + a.Y*absR[1][1] + a.Z*absR[2][1] + b.Y + pad); s > g {
		g = s
	}
	if s := math.Abs(t.X*r[0][2]+t.Y*r[1][2]+t.Z*r[2][2]) - (a.X*absR[0][2] + a.Y*absR[1][2] + a.Z*absR[2][2] + b.Z + pad); s > g {
		g = s
	}
	return g
}

// TriBoxFaceSeparation returns the largest separation of the triangle a,
// b, c and the box of half-extents h centred at the origin over the box's
// three face axes, as TriBoxDisjoint computes them: the gap between the
// triangle's extent and [−h_i, h_i] less pad. It is positive only when
// TriBoxDisjoint(a, b, c, h, pad) reports true (exactly when the box's
// faces separate, the first axes that test tries); it does not try the
// triangle's normal nor the edge axes, so it may be ≤ 0 where the test
// finds the two disjoint.
func TriBoxFaceSeparation(a, b, c, h geom.Vec3, pad float64) float64 {
	hx, hy, hz := h.X+pad, h.Y+pad, h.Z+pad
	g := math.Inf(-1)
	if s := min(a.X, b.X, c.X) - hx; s > g {
		g = s
	}
	if s := -hx - max(a.X, b.X, c.X); s > g {
		g = s
	}
	if s := min(a.Y, b.Y, c.Y) - hy; s > g {
		g = s
	}
	if s := -hy - max(a.Y, b.Y, c.Y); s > g {
		g = s
	}
	if s := min(a.Z, b.Z, c.Z) - hz; s > g {
		g = s
	}
	if s := -hz - max(a.Z, b.Z, c.Z); s > g {
		g = s
	}
	return g
}

// FaceSeparation is TriBoxFaceSeparation for the prepared triangle and the
// box of half-extents h centred at c: the largest separation over the
// box's three face axes as BoxDisjoint computes them (the triangle's
// extent padded by the preparation's padding, less c, against [−h_i,
// h_i]). It is positive only when BoxDisjoint(c, h) reports true (exactly
// when the box's faces separate).
func (t *TriAxes) FaceSeparation(c, h geom.Vec3) float64 {
	g := math.Inf(-1)
	if s := (t.lo.X - c.X) - h.X; s > g {
		g = s
	}
	if s := -(t.hi.X - c.X) - h.X; s > g {
		g = s
	}
	if s := (t.lo.Y - c.Y) - h.Y; s > g {
		g = s
	}
	if s := -(t.hi.Y - c.Y) - h.Y; s > g {
		g = s
	}
	if s := (t.lo.Z - c.Z) - h.Z; s > g {
		g = s
	}
	if s := -(t.hi.Z - c.Z) - h.Z; s > g {
		g = s
	}
	return g
}

// SphereSeparation returns, for the difference d of two spheres' centres
// and the sum rr of their radii and a padding, a separation that is
// positive exactly when d·d > rr·rr as computed (the sphere test of the
// sphere trees: d·d ≤ rr·rr means "may overlap"; 0 then), and then a lower bound
// on |d| − rr in exact arithmetic on the given d and rr, or 2⁻¹⁰⁰⁰ when the
// rounding leaves no certified margin (the caller's padding must cover
// that much beyond the test's own rounding, as it covers the test's).
//
// The bound: fl(d·d) is within 2.01u·|d|² of |d|² (u = 2⁻⁵³), so q =
// fl(√fl(d·d)) ≤ |d|(1 + 2.1u); with p = fl(q − rr) ≤ (q − rr)(1 + u),
// |d| − rr ≥ q(1 − 2.1u) − rr ≥ p(1 − u) − 2.1u·q, and p − 2⁻⁵⁰(q + rr),
// rounded, and scaled by 1 − 2⁻⁵⁰ stays below that.
func SphereSeparation(d geom.Vec3, rr float64) float64 {
	dd := d.Dot(d)
	if dd <= rr*rr {
		return 0
	}
	q := math.Sqrt(dd)
	g := ((q - rr) - 0x1p-50*(q+rr)) * (1 - 0x1p-50)
	if g > 0x1p-1000 {
		return g
	}
	return 0x1p-1000
}

// RSSSeparation returns a separation of the rectangle swept spheres a and
// b placed as for RSSDisjoint: positive exactly when RSSDisjoint(a, b, r,
// t, pad) reports true, and then such that the distance between the
// rectangles exceeds T − ε + g, with T = a.R + b.R + pad and ε as for
// RSSDisjoint (which reports true only when the distance exceeds T − ε).
// A caller that pads for ε as for RSSDisjoint thus has volumes apart by
// more than its own padding plus g. It is 0 when RSSDisjoint reports
// false.
//
// It measures the rectangles with RectDist, whose d̂ satisfies d̂ ≤ d +
// 2⁻⁴⁸(S + d̂) + 2⁻⁹⁶⁰ (d the exact distance); with ε = 2⁻⁴⁸(S + T) +
// 2⁻⁹⁶⁰ that gives d − T + ε ≥ (d̂ − T)(1 − 2⁻⁴⁸). With T̂ = fl(a.R + b.R +
// pad) ≥ T − 2.01u·T (u = 2⁻⁵³), the computed g = fl(fl(d̂ − T̂) −
// 2⁻⁵⁰·T̂)·(1 − 2⁻⁴⁷) is below (d̂ − T̂ − 2.01u·T)(1 − 2⁻⁴⁸) for d̂ > T̂
// (the subtraction of 8u·T̂ covers T's rounding, the factor 1 − 64u the
// two roundings of g and the 32u of the bound). When that leaves g ≤ 0
// although RSSDisjoint reports true, g is 2⁻¹⁰⁰⁰, which RSSDisjoint's
// proof covers: it bounds its rounding by 13u(S + T) + 2⁻⁹⁷⁰, below ε by
// far more than 2⁻¹⁰⁰⁰. A separation is costlier than the test: the
// rectangles' distance tries every direction of the test.
func RSSSeparation(a, b *RSS, r *geom.Mat3, t geom.Vec3, pad float64) float64 {
	if !RSSDisjoint(a, b, r, t, pad) {
		return 0
	}
	if a.R < 0 || b.R < 0 {
		return math.Inf(1) // an empty volume
	}
	tt := a.R + b.R + pad
	p := newRectPair(a.L[0], a.L[1], b.L[0], b.L[1], r, t)
	g := ((p.dist() - tt) - 0x1p-50*tt) * (1 - 0x1p-47)
	if g > 0x1p-1000 {
		return g
	}
	return 0x1p-1000
}
