package geom

import "math"

// TriTriDistance returns the Euclidean distance between the closed triangles
// a and b and a pair of closest points pa on a and pb on b. Degenerate
// triangles are the segments or points that they are.
//
// Contact is decided exactly: the distance is 0 if and only if TriTri(a, b)
// says contact, and then pa = pb is a common point (computed in floating
// point). Disjoint triangles always get a positive distance: when their
// computed closest points coincide (they are then within B of each other,
// B below), it is 2⁻¹⁰⁷⁴, the smallest positive float64, which the error
// bound allows.
//
// # Error bound
//
// For finite coordinates, with d the exact distance between the triangles
// as given, d̃ the returned distance and B = TriTriDistanceBound(a, b),
//
//	|d̃ − d| ≤ B,   dist(pa, a) ≤ B,   dist(pb, b) ≤ B,   ||pa − pb| − d̃| ≤ B,
//
// where B = 2⁻⁴³·D + 2⁻⁵¹·M + 2⁻¹⁰⁶⁹, D is the largest extent along an axis
// of the box around the six vertices and M their largest |coordinate|. The
// distance itself is within 2⁻⁴³·D + 2⁻¹⁰⁶⁹ (the 2⁻⁵¹·M term is the rounding
// of the witnesses to the coordinates' ulps). The proof is the comment
// "Error analysis of TriTriDistance" in distance.go; the bounds for
// disjoint triangles are proven there, those for the common point of
// touching triangles are checked by the tests, not proven. Non-finite
// coordinates give NaN (0 if TriTri says contact).
func TriTriDistance(a, b Triangle) (dist float64, pa, pb Vec3) {
	return triTriDistance(&a, &b, TriTri(a, b))
}

// TriTriDistanceBound returns B, the bound on the errors of TriTriDistance
// for the pair (a, b): 2⁻⁴³·D + 2⁻⁵¹·M + 2⁻¹⁰⁶⁹, with D the largest extent
// along an axis of the box around the six vertices and M the largest
// |coordinate| (see TriTriDistance). It is symmetric in a and b, costs a few
// dozen comparisons, and is +Inf or NaN for non-finite coordinates (or when
// D overflows).
func TriTriDistanceBound(a, b Triangle) float64 {
	lo, hi := a[0].Min(a[1]).Min(a[2]).Min(b[0]).Min(b[1]).Min(b[2]), a[0].Max(a[1]).Max(a[2]).Max(b[0]).Max(b[1]).Max(b[2])
	d := max(hi.X-lo.X, hi.Y-lo.Y, hi.Z-lo.Z)
	m := max(-lo.X, -lo.Y, -lo.Z, hi.X, hi.Y, hi.Z)
	return distBound(d, m)
}

// distBound returns B for the extent d and the magnitude m (computed values,
// each rounded down by at most a relative u = 2⁻⁵³; the constants have more
// than that to spare).
func distBound(d, m float64) float64 { return 0x1p-43*d + 0x1p-51*m + 0x1p-1069 }

// Error analysis of TriTriDistance.
//
// Notation: u = 2⁻⁵³; "the exact pair" means the exact closest points.
//
// Frame. If M > 2¹⁰⁰⁰, all coordinates are first multiplied by 2⁻⁶⁴ (exact
// but for coordinates below 2⁻¹⁰⁰⁹, moved by at most 2⁻¹⁰⁷⁵·2⁶⁴ in input
// units: covered by the absolute term), so that no difference overflows.
// The six vertices are then moved to a local frame, x' = fl(x − a0), and
// scaled by the power of two s that brings R' = max|x'| into [1, 2)
// (exact but for underflow, again covered by the absolute term). The
// local triangles A, B differ from the exact (x − a0)·s by at most
// u·|x − a0| ≤ √3·u·R' < 3.5u per vertex, so their distance is within 7u
// of d·s. Below, all errors are in local units, where every point and every
// difference of points has norm below 7 (coordinates ≤ R' < 2, differences
// ≤ 2R' < 4); a local unit is 1/s = R/R' ≤ R ≤ D input units, R = max|x − a0|.
// Products are rounded separately or fused; either way the standard
// model |fl(x∘y) − x∘y| ≤ u|fl(x∘y)| holds, and the gates below (every
// divisor ≥ 2⁻⁹⁶⁶) make underflow's absolute errors (≤ 2⁻¹⁰⁷⁴) negligible.
//
// Candidates. For disjoint closed triangles the exact pair is realised by
// a vertex against the other triangle (its foot in the face, or against an
// edge) or by two edges. We compute, for the edges [q, q+e] with e = fl(r−q)
// (a perturbation of the edge by ≤ u|e| ≤ 7u, the data the edge's
// candidates share):
//
//  1. Vertex–edge (18): t = fl(fl(w·e)/fl(e·e)), w = fl(p − q), clamped;
//     the point fl(q + t·e) (or the endpoint). Its parameter is off by
//     γ₃|w|/|e| + 4u|t| (|t| ≤ 2 matters), so the point is off the exact
//     closest point of the segment by ≤ 3u|w| + 8u|e| + 3u·7 ≤ 98u, and
//     off the segment by ≤ 21u. With the perturbations: the candidate is at
//     most 112u farther apart than the exact vertex–edge distance.
//  2. Edge–edge interior (9): n = d1 × d2 by Kahan's FMA algorithm
//     (componentwise relative error ≤ 2u: Jeannerod, Louvet and Muller,
//     2013; skipped when |n|² < 2⁻⁹⁶⁰), s = fl(((p2 − p1) × d2)·n / n·n),
//     x = p1 + s·d1, then y = the vertex–edge projection of x on the other
//     edge; kept only when s and t are in (0, 1). Let θ be the angle of the
//     edges, h the distance of their lines. The numerator is off by
//     ≤ 7.9u·|r||d2||n| and n·n by ≤ 7u relative, so x lies Δσ ≤
//     (8.9u|r| + 8u|d1|)/sin θ from the exact foot along its line, and the
//     distance of x to the other line is √(h² + Δσ² sin²θ) ≤ h + 119u.
//     If the feet are interior but a clamp intervenes (or the candidate is
//     skipped), a foot lies within Δσ of an endpoint, and then an endpoint
//     projects into the other segment within Δσ of the foot, so a
//     vertex–edge candidate of 1. is within 119u + 112u of h (for |n|² <
//     2⁻⁹⁶⁰, within √|n|/2 + 112u: an endpoint is within half a segment of
//     the foot). With the rounding of x (21u) and of y (112u): ≤ h + 252u.
//  3. Vertex–face (6): on the triangle T'' = (T0, T0 + v1, T0 + v2),
//     v1 = fl(T1 − T0), v2 = fl(T2 − T0) (within 7u of T), n = v1 × v2 by
//     Kahan's algorithm (skipped when |n|² < 2⁻⁹⁶⁰: then every point of T
//     is within its inradius ≤ √|n| < 2⁻²⁴⁰ of an edge), and w = fl(p − T0),
//     the three numerators N_i = (e_i × (w − V_i))·n are computed with an
//     error ≤ 10u·|e_i||w − V_i||n| ≤ 70u·|e_i||n| (rounding of the
//     differences, √2γ₂ for the cross, γ₃ for the dot, 2u for n), while
//     exactly N_i = |e_i||n|·σ_i with σ_i the signed distance of the foot F
//     from edge line i. The face is kept only if every N_i ≥
//     2⁻⁴⁶·|e_i|·|n| (computed), which proves σ_i ≥ 0, F ∈ T''; the point
//     f = p − n·fl(w·n / n·n) is then within 100u of F (2u angle of n,
//     γ₃ in the dot and in n·n, the final operations), so ≤ h + 107u
//     from p. If F ∈ T'' but the face is rejected, σ_i < 128u + 70u for
//     some i, so F is within 198u of the boundary of T (a point of a
//     triangle is at most its distance to any edge line from the boundary),
//     and a vertex–edge candidate of 1. is within 198u + 21u + 112u of h.
//
// Every candidate pair is thus within 107u + 7u of the local triangles, and
// the exact pair's feature yields a candidate at most 331u farther apart
// than d·s (+7u for the frame). The pair of smallest computed squared
// distance fl(|x−y|²) = |x−y|²(1+θ), |θ| ≤ γ₅, is then at most
// (d·s + 338u)(1 + 5.1u) apart, and d̃·s = fl(√fl(|x−y|²)) is within 3.6u
// relative (≤ 25u) of |x − y|: |d̃·s − d·s| ≤ 338u + 36u + 25u + 114u
// < 520u. In input units, with a local unit ≤ R ≤ D: |d̃ − d| ≤ 520u·D <
// 2⁻⁴³·D. The witnesses are mapped back as pa = fl(a0 + x/s) (per
// coordinate error ≤ u·|pa_k|, so ≤ √3·u·M per point, plus underflow
// ≤ 2⁻¹⁰⁷⁴·√3): dist(pa, a) ≤ 114u·D + √3u·M, and ||pa − pb| − d̃| ≤ 25u·D +
// 2√3·u·M, both below B. The coordinates' magnitude M enters only there:
// far from the origin the distance is much better than B, the witnesses
// are not. For touching triangles the common point is chosen among
// crossing points of edges with the other triangle (see commonPoint) by the
// computed distance to both triangles; it falls back to the midpoint of the
// closest candidate pair, which is within B of both only if a candidate
// pair realises contact (edges crossing, a vertex on the other triangle).

// triTriDistance computes TriTriDistance given whether a and b touch.
func triTriDistance(a, b *Triangle, touch bool) (float64, Vec3, Vec3) {
	var f distFrame
	var A, B [3]Vec3
	if !f.init(a, b, &A, &B) {
		if touch {
			return 0, a[0], a[0]
		}
		return math.NaN(), a[0], b[0]
	}
	d2, x, y := localDistance(&A, &B)
	if touch {
		p := touchPoint(a, b, f.global(x.Lerp(y, 0.5)))
		return 0, p, p
	}
	d := math.Sqrt(d2) * f.inv * f.unpre
	if d == 0 {
		d = 0x1p-1074
	}
	return d, f.global(x), f.global(y)
}

// distFrame maps the local frame of localDistance back to the input's.
type distFrame struct {
	o          Vec3    // a[0] (prescaled)
	inv, unpre float64 // local to prescaled units, prescaled to input units
}

// init writes the local, scaled copies of a and b to A and B, and reports
// false if a coordinate is not finite.
func (f *distFrame) init(a, b *Triangle, A, B *[3]Vec3) bool {
	m := 0.0
	for i := range 3 {
		m = max(m, math.Abs(a[i].X), math.Abs(a[i].Y), math.Abs(a[i].Z), math.Abs(b[i].X), math.Abs(b[i].Y), math.Abs(b[i].Z))
	}
	if !(m <= math.MaxFloat64) {
		return false
	}
	pre := 1.0
	f.unpre = 1
	if m > 0x1p1000 {
		pre, f.unpre = 0x1p-64, 0x1p64
	}
	o := a[0].Scale(pre)
	f.o = o
	r := 0.0
	for i := range 3 {
		A[i] = a[i].Scale(pre).Sub(o)
		B[i] = b[i].Scale(pre).Sub(o)
		r = max(r, math.Abs(A[i].X), math.Abs(A[i].Y), math.Abs(A[i].Z), math.Abs(B[i].X), math.Abs(B[i].Y), math.Abs(B[i].Z))
	}
	f.inv = 1
	if r == 0 {
		return true
	}
	e := math.Ilogb(r)
	f.inv = math.Ldexp(1, e) // representable: e ≥ -1074
	if e < -1000 {
		// 2^-e would overflow: scale in two exact steps.
		for i := range 3 {
			A[i], B[i] = A[i].Scale(0x1p500), B[i].Scale(0x1p500)
		}
		e += 500
	}
	s := math.Ldexp(1, -e)
	for i := range 3 {
		A[i], B[i] = A[i].Scale(s), B[i].Scale(s)
	}
	return true
}

// global maps a local point back to input coordinates.
func (f *distFrame) global(x Vec3) Vec3 { return f.o.Add(x.Scale(f.inv)).Scale(f.unpre) }

// distCands keeps the candidate pair of smallest computed squared distance.
type distCands struct {
	d2   float64
	x, y Vec3
}

func (c *distCands) add(x, y Vec3) {
	if d := x.Sub(y).Norm2(); d < c.d2 {
		c.d2, c.x, c.y = d, x, y
	}
}

// localDistance returns the smallest computed squared distance over the
// candidates of the local triangles A and B (see the error analysis) and
// its pair.
func localDistance(A, B *[3]Vec3) (float64, Vec3, Vec3) {
	var ea, eb [3]Vec3
	var la, lb [3]float64
	for i := range 3 {
		j := (i + 1) % 3
		ea[i], eb[i] = A[j].Sub(A[i]), B[j].Sub(B[i])
		la[i], lb[i] = ea[i].Norm2(), eb[i].Norm2()
	}
	c := distCands{d2: math.Inf(1)}
	for j := range 3 {
		k := (j + 1) % 3
		for i := range 3 {
			c.add(A[i], segPoint(A[i], B[j], B[k], eb[j], lb[j]))
			c.add(segPoint(B[i], A[j], A[k], ea[j], la[j]), B[i])
		}
	}
	for i := range 3 {
		for j := range 3 {
			if x, y, ok := segInterior(A[i], ea[i], B[j], eb[j], lb[j]); ok {
				c.add(x, y)
			}
		}
	}
	c.face(A, &ea, B, false) // B's vertices against A's face
	c.face(B, &eb, A, true)
	return c.d2, c.x, c.y
}

// gateMin is the smallest squared length (of an edge, of a normal) that is
// divided by; below it the candidate is skipped (see the error analysis).
const gateMin = 0x1p-960

// segPoint returns the point of the segment [q, r], e = r − q (computed),
// ee = e·e (computed), closest to p, in floating point.
func segPoint(p, q, r, e Vec3, ee float64) Vec3 {
	if !(ee >= gateMin) {
		return q
	}
	t := p.Sub(q).Dot(e) / ee
	switch {
	case t <= 0:
		return q
	case t >= 1:
		return r
	}
	return q.Add(e.Scale(t))
}

// segInterior returns the closest points of the lines p1 + s·d1 and
// p2 + t·d2 when both lie inside the open segments (s, t ∈ (0, 1)),
// ee2 = d2·d2 (computed).
func segInterior(p1, d1, p2, d2 Vec3, ee2 float64) (x, y Vec3, ok bool) {
	n := crossAcc(d1, d2)
	nn := n.Norm2()
	if !(nn >= gateMin) {
		return x, y, false
	}
	s := p2.Sub(p1).Cross(d2).Dot(n) / nn
	if !(s > 0 && s < 1) {
		return x, y, false
	}
	x = p1.Add(d1.Scale(s))
	t := x.Sub(p2).Dot(d2) / ee2
	if !(t > 0 && t < 1) {
		return x, y, false
	}
	return x, p2.Add(d2.Scale(t)), true
}

// faceTol is the margin, relative to |e_i|·|n|, by which a vertex–face
// candidate must lie inside every edge (see the error analysis).
const faceTol = 0x1p-46

// face adds the vertex–face candidates of the vertices P against the
// triangle T, whose edges are e[i] = T[i+1] − T[i] (computed); pFirst puts
// P's points first in the pair.
func (c *distCands) face(T, e, P *[3]Vec3, pFirst bool) {
	v1, v2 := e[0], e[2].Neg() // T1 − T0, T2 − T0
	n := crossAcc(v1, v2)
	nn := n.Norm2()
	if !(nn >= gateMin) {
		return
	}
	v12 := v2.Sub(v1)
	nl := math.Sqrt(nn)
	t0 := faceTol * math.Sqrt(v1.Norm2()) * nl
	t1 := faceTol * math.Sqrt(v12.Norm2()) * nl
	t2 := faceTol * math.Sqrt(v2.Norm2()) * nl
	for _, p := range P {
		w := p.Sub(T[0])
		if !(v1.Cross(w).Dot(n) >= t0 && v12.Cross(w.Sub(v1)).Dot(n) >= t1 && w.Sub(v2).Cross(v2).Dot(n) >= t2) {
			continue
		}
		f := p.Sub(n.Scale(w.Dot(n) / nn))
		if pFirst {
			c.add(p, f)
		} else {
			c.add(f, p)
		}
	}
}

// crossAcc returns v × w with every component within a relative 2u of the
// exact one (barring underflow), by Kahan's algorithm for a·b − c·d.
func crossAcc(v, w Vec3) Vec3 {
	return Vec3{diffProd(v.Y, w.Z, v.Z, w.Y), diffProd(v.Z, w.X, v.X, w.Z), diffProd(v.X, w.Y, v.Y, w.X)}
}

// diffProd returns a·b − c·d with a relative error of at most 2u (Kahan;
// Jeannerod, Louvet and Muller, Math. Comp. 82, 2013), barring underflow.
func diffProd(a, b, c, d float64) float64 {
	w := float64(c * d)
	e := math.FMA(-c, d, w) // w − c·d, exactly
	f := math.FMA(a, b, -w)
	return f + e
}

// touchPoint returns commonPoint(a, b, fallback), computed on copies
// scaled by a power of two (exact but for underflow) when the coordinates
// are far from 1 in magnitude, where its float formulas would underflow or
// overflow.
func touchPoint(a, b *Triangle, fallback Vec3) Vec3 {
	m := 0.0
	for i := range 3 {
		m = max(m, math.Abs(a[i].X), math.Abs(a[i].Y), math.Abs(a[i].Z), math.Abs(b[i].X), math.Abs(b[i].Y), math.Abs(b[i].Z))
	}
	if m != 0 && (m > 0x1p400 || m < 0x1p-400) {
		e := math.Ilogb(m)
		s := math.Ldexp(1, -e)
		if e < -1000 {
			s = 0x1p1000 // 2^-e would overflow; m·s ∈ [2^-74, 1) is safe too
		}
		return commonPoint(a.scaled(s), b.scaled(s), fallback.Scale(s)).Scale(1 / s)
	}
	return commonPoint(*a, *b, fallback)
}

func (t *Triangle) scaled(s float64) Triangle {
	return Triangle{t[0].Scale(s), t[1].Scale(s), t[2].Scale(s)}
}

// commonPoint returns a point of both touching triangles, computed in
// floating point: where an edge that meets the other triangle (decided
// exactly) crosses it, choosing, among all such edges, the point nearest to
// both triangles. fallback is returned if no candidate is better.
func commonPoint(a, b Triangle, fallback Vec3) Vec3 {
	best := fallback
	bestErr := offBoth(fallback, a, b)
	consider := func(c Vec3) {
		if e := offBoth(c, a, b); e < bestErr {
			best, bestErr = c, e
		}
	}
	try := func(t, o Triangle) {
		n := o.Normal()
		for i := range 3 {
			u, v := t[i], t[(i+1)%3]
			if !segTri(u, v, o) {
				continue
			}
			if du, dv := n.Dot(u.Sub(o[0])), n.Dot(v.Sub(o[0])); du != dv {
				consider(u.Lerp(v, clamp01(du/(du-dv))))
			}
			// In (or nearly in) the plane: an endpoint inside, or where
			// the segment crosses the other triangle's boundary.
			consider(u)
			consider(v)
			for j := range 3 {
				p, q := ClosestPointsSegments(u, v, o[j], o[(j+1)%3])
				consider(p.Lerp(q, 0.5))
			}
		}
	}
	try(a, b)
	try(b, a)
	return best
}

// offBoth returns the larger squared distance from p to a and to b.
func offBoth(p Vec3, a, b Triangle) float64 {
	return max(ClosestPointTriangle(p, a).Sub(p).Norm2(), ClosestPointTriangle(p, b).Sub(p).Norm2())
}

// TriTriWithin reports whether the closed triangles a and b are at distance
// at most eps: with eps ≤ 0 it is TriTri, exact; with eps > 0 it is
// exactly TriTriDistance(a, b) ≤ eps, with the distance's error bound
// (see TriTriDistance). Pairs that TriTriLowerBound proves farther than
// eps + TriTriDistanceBound are rejected without computing the distance.
func TriTriWithin(a, b Triangle, eps float64) bool {
	if !(eps > 0) {
		return TriTri(a, b)
	}
	// d̃ ≥ d − B ≥ L − B: fl(L − B) > eps proves d̃ > eps (rounding is
	// monotone). The box gap first: it is cheap and settles most far pairs.
	var lb lowerBound
	lb.box(&a, &b)
	bound := distBound(lb.d, lb.m)
	if lb.gap-bound > eps {
		return false
	}
	if lb.planes(&a, &b)-bound > eps {
		return false
	}
	if TriTri(a, b) {
		return true
	}
	d, _, _ := triTriDistance(&a, &b, false)
	return d <= eps
}

// ClosestPointTriangle returns the point of the closed triangle t closest to
// p (in floating point). Degenerate and sliver triangles are handled: every
// candidate is built as a convex combination of t's vertices, so the result
// lies on t up to rounding even when the barycentric solve is ill
// conditioned; the interior candidate competes with the closest points of the
// three edges.
func ClosestPointTriangle(p Vec3, t Triangle) Vec3 {
	best, bd := t[0], math.Inf(1)
	ab, ac, ap := t[1].Sub(t[0]), t[2].Sub(t[0]), p.Sub(t[0])
	d00, d01, d11 := ab.Dot(ab), ab.Dot(ac), ac.Dot(ac)
	d20, d21 := ap.Dot(ab), ap.Dot(ac)
	if den := float64(d00*d11) - float64(d01*d01); den > 0 {
		v := (float64(d11*d20) - float64(d01*d21)) / den
		w := (float64(d00*d21) - float64(d01*d20)) / den
		if v >= 0 && w >= 0 && v+w <= 1 {
			best = t[0].Add(ab.Scale(v)).Add(ac.Scale(w))
			bd = best.Sub(p).Norm2()
		}
	}
	for i := range 3 {
		c := ClosestPointSegment(p, t[i], t[(i+1)%3])
		if d := c.Sub(p).Norm2(); d < bd {
			best, bd = c, d
		}
	}
	return best
}

// ClosestPointSegment returns the point of the closed segment [a, b] closest
// to p.
func ClosestPointSegment(p, a, b Vec3) Vec3 {
	ab := b.Sub(a)
	den := ab.Norm2()
	if den == 0 {
		return a
	}
	t := p.Sub(a).Dot(ab) / den
	switch {
	case t <= 0:
		return a
	case t >= 1:
		return b
	}
	return a.Add(ab.Scale(t))
}

// ClosestPointsSegments returns a pair of closest points of the closed
// segments [p1, q1] and [p2, q2] (either may be a point), following Ericson,
// Real-Time Collision Detection, §5.1.9, with the parallel case clamped.
func ClosestPointsSegments(p1, q1, p2, q2 Vec3) (c1, c2 Vec3) {
	d1, d2 := q1.Sub(p1), q2.Sub(p2)
	r := p1.Sub(p2)
	a, e, f := d1.Norm2(), d2.Norm2(), d2.Dot(r)
	var s, t float64
	switch {
	case a == 0 && e == 0:
		return p1, p2
	case a == 0:
		t = clamp01(f / e)
	default:
		c := d1.Dot(r)
		if e == 0 {
			s = clamp01(-c / a)
		} else {
			b := d1.Dot(d2)
			den := a*e - b*b
			if den > 0 {
				s = clamp01((b*f - c*e) / den)
			}
			t = (b*s + f) / e
			if t < 0 {
				t, s = 0, clamp01(-c/a)
			} else if t > 1 {
				t, s = 1, clamp01((b-c)/a)
			}
		}
	}
	return p1.Add(d1.Scale(s)), p2.Add(d2.Scale(t))
}

func clamp01(x float64) float64 {
	switch {
	case x < 0:
		return 0
	case x > 1:
		return 1
	}
	return x
}

// maxComp returns the largest component of v.
func (v Vec3) maxComp() float64 { return max(v.X, v.Y, v.Z) }
