package bv

import (
	"math"

	"github.com/collide3d/collide/geom"
)

// RSS is a rectangle swept sphere, the volume of PQP (Larsen, Gottschalk,
// Lin and Manocha, "Fast proximity queries with swept sphere volumes",
// 1999): the points within distance R of the rectangle
//
//	{C + x·Axes[0] + y·Axes[1] : |x| ≤ L[0], |y| ≤ L[1]}.
//
// The rows of Axes are the rectangle's two edge directions, then its
// normal; FitRSS makes them orthonormal and right-handed to within a few
// ulps. The rectangle is stored by its centre and half side lengths (PQP
// stores a corner and full lengths): the centred form is symmetric, so
// RSSDisjoint has no case for which corner is the origin, and it matches the
// centre and half-extents of OBB.
//
// Containment is stated for the stored numbers, in the coordinates of the
// stored axes (the form RSSDisjoint uses for its first volume, like the slab
// form of OBB): a point x is in the volume if, with s_k = (x − C)·Axes[k]
// evaluated exactly,
//
//	max(|s_0| − L[0], 0)² + max(|s_1| − L[1], 0)² + s_2² ≤ R².
//
// For orthonormal axes the left side is the squared distance from x to the
// rectangle. A negative R is the empty set; the empty RSS made by this
// package has identity axes, C = 0, L = 0 and R = −1.
type RSS struct {
	C    geom.Vec3
	Axes geom.Mat3
	L    [2]float64
	R    float64
}

// IsEmpty reports whether v is the empty set (R < 0).
func (v *RSS) IsEmpty() bool { return v.R < 0 }

// Volume returns the volume of the swept sphere: the slab over the
// rectangle, half cylinders along its four edges and a quarter ball at each
// corner, 8·L0·L1·R + 2π·(L0 + L1)·R² + 4/3·π·R³ (the perimeter 4(L0 + L1)
// times the half disk πR²/2). The empty set has volume 0.
func (v *RSS) Volume() float64 {
	if v.R < 0 {
		return 0
	}
	l0, l1, r := v.L[0], v.L[1], v.R
	return 8*l0*l1*r + 2*math.Pi*(l0+l1)*r*r + 4.0/3*math.Pi*r*r*r
}

// Size returns max(L[0], L[1]) + R, the largest distance from C to a point
// of the volume along an edge direction: a measure of size to choose which
// of two trees to descend.
func (v *RSS) Size() float64 { return max(v.L[0], v.L[1]) + v.R }

// Contains reports whether p lies within R + tol of the rectangle, in the
// coordinates of the stored axes (see RSS), evaluated in float64. It is
// meant for tests and diagnostics; the rounding of the projections is not
// accounted for. The empty set contains nothing.
func (v *RSS) Contains(p geom.Vec3, tol float64) bool {
	if v.R < 0 {
		return false
	}
	d := p.Sub(v.C)
	e0 := max(math.Abs(v.Axes.Row(0).Dot(d))-v.L[0], 0)
	e1 := max(math.Abs(v.Axes.Row(1).Dot(d))-v.L[1], 0)
	return math.Hypot(math.Hypot(e0, e1), v.Axes.Row(2).Dot(d)) <= v.R+tol
}

// rssEverything is the volume that contains every point.
func rssEverything() RSS { return RSS{Axes: geom.Identity3(), R: math.Inf(1)} }

// FitRSS returns a rectangle swept sphere around the corners of tris.
//
// Its axes are those of FitOBB(tris, FitHull) (the principal axes of the
// surface of the convex hull of the corners), reordered so that the normal
// is the axis along which the box is thinnest and the larger of the other
// two extents comes first, and kept right-handed. The radius and the
// rectangle follow PQP's fit: R is half the spread of the corners along the
// normal and the rectangle's mid-plane is the middle of that spread; along
// each edge direction the rectangle reaches just far enough for the
// sphere's cross-section at each corner's height to cover the corner; then
// each corner of the rectangle that leaves a corner of the point set
// uncovered is moved out along its diagonal until it covers it.
//
// Containment is exact: every corner x of tris satisfies the inequality of
// RSS for the stored numbers, whatever the rounding, because R is not the
// fitted radius but the largest distance of a corner from the stored
// rectangle, computed in float64 and padded by a proven bound of its error
// (about 2⁻⁴⁹ relative to the coordinates; see rssRadius).
//
// Degenerate, duplicated, coplanar and collinear triangles are accepted
// (a flat set gives a radius of a few ulps, a segment a rectangle of width
// 0, a point a rectangle of size 0), as are coordinates of any finite
// magnitude up to about 10³⁰⁷; the work is done on the corners scaled by a
// power of two. With no triangles FitRSS returns the empty RSS (identity
// axes, C = 0, L = 0, R = −1). If a coordinate is NaN or infinite, or a
// result overflows, it returns the RSS of identity axes, C = 0, L = 0 and
// R = +Inf, which contains every point.
func FitRSS(tris []geom.Triangle) RSS { return FitRSSBy(tris, FitHull) }

// FitRSSBy is FitRSS with the axes of FitOBB(tris, how): how chooses the
// covariance whose principal axes orient the rectangle (see OBBFit).
func FitRSSBy(tris []geom.Triangle, how OBBFit) RSS {
	if how > FitVertices {
		panic("bv: FitRSSBy with unknown " + how.String())
	}
	if len(tris) == 0 {
		return RSS{Axes: geom.Identity3(), R: -1}
	}
	m := trisMag(tris)
	if !(m <= math.MaxFloat64) {
		return rssEverything()
	}
	return rssAround(tris, FitOBB(tris, how), m)
}

// FitRSSHull is FitRSSBy(tris, FitHull) when the convex hull of the corners
// of tris is solid, and false otherwise: only the corners count, as in
// FitOBBHull.
func FitRSSHull(tris []geom.Triangle) (RSS, bool) {
	if len(tris) == 0 {
		return RSS{}, false
	}
	m := trisMag(tris)
	if !(m <= math.MaxFloat64) {
		return rssEverything(), true
	}
	box, ok := FitOBBHull(tris)
	if !ok {
		return RSS{}, false
	}
	return rssAround(tris, box, m), true
}

// rssAround returns the RSS around the corners of tris (finite, largest
// |coordinate| m) oriented by the axes of box.
func rssAround(tris []geom.Triangle, box OBB, m float64) RSS {
	if !box.Half.IsFinite() {
		return rssEverything()
	}
	ax := rssFrame(&box)
	if m == 0 {
		// Every corner is the origin: the point C = 0 contains them.
		return RSS{Axes: ax}
	}
	if !(obbOrthoDefect(&ax) <= 0x1p-40) {
		ax = geom.Identity3() // not reached: FitOBB checks the same
	}
	// Scaled corners lie in (-2, 2) (the scale is capped for subnormal
	// input, as in FitOBB): no overflow or harmful underflow in the squares.
	s := math.Ldexp(1, min(-math.Ilogb(m), 1000))
	c, l := rssFitScaled(tris, &ax, s)
	inv := 1 / s // a power of two: exact
	v := RSS{
		C:    ax.Row(0).Scale(c[0] * inv).Add(ax.Row(1).Scale(c[1] * inv)).Add(ax.Row(2).Scale(c[2] * inv)),
		Axes: ax,
		L:    [2]float64{l[0] * inv, l[1] * inv},
	}
	if !v.C.IsFinite() || !(v.L[0] <= math.MaxFloat64 && v.L[1] <= math.MaxFloat64) {
		return rssEverything()
	}
	v.R = rssRadius(tris, &v, m, s)
	if !(v.R <= math.MaxFloat64) {
		return rssEverything()
	}
	return v
}

// rssFrame returns the rows of b.Axes reordered for an RSS: the two axes of
// larger half-extent first (the larger before the smaller; on a tie, in
// their order in b), then the axis of least half-extent (on a tie, the last
// one, of least variance), negated if needed to keep the frame
// right-handed.
func rssFrame(b *OBB) geom.Mat3 {
	h := [3]float64{b.Half.X, b.Half.Y, b.Half.Z}
	k := 2
	for i := 1; i >= 0; i-- {
		if h[i] < h[k] {
			k = i
		}
	}
	i, j := (k+1)%3, (k+2)%3
	if i > j {
		i, j = j, i
	}
	if h[j] > h[i] {
		i, j = j, i
	}
	ax := geom.Rows(b.Axes.Row(i), b.Axes.Row(j), b.Axes.Row(k))
	if ax.Det() < 0 {
		ax[2] = [3]float64{-ax[2][0], -ax[2][1], -ax[2][2]}
	}
	return ax
}

// rssFitScaled fits the rectangle and radius of PQP to the corners of tris
// scaled by s, in the coordinates of the rows of ax: it returns the centre
// c (c[2] the mid-plane) and the half lengths l, in those scaled
// coordinates. The result only has to be good; containment is made exact
// afterwards by rssRadius, whatever the rounding here.
func rssFitScaled(tris []geom.Triangle, ax *geom.Mat3, s float64) (c [3]float64, l [2]float64) {
	a0, a1, a2 := ax.Row(0), ax.Row(1), ax.Row(2)
	proj := func(v geom.Vec3) (x, y, z float64) {
		w := v.Scale(s)
		return a0.Dot(w), a1.Dot(w), a2.Dot(w)
	}
	// The spread along the normal gives the mid-plane and the radius.
	lo, hi := math.Inf(1), math.Inf(-1)
	for i := range tris {
		for _, v := range tris[i] {
			_, _, z := proj(v)
			lo, hi = min(lo, z), max(hi, z)
		}
	}
	cz := min(max(0.5*lo+0.5*hi, lo), hi)
	rad := max(hi-cz, cz-lo)
	rad2 := rad * rad
	// Along x (and y), a corner at height z above the mid-plane is covered
	// by the sphere of any point of the rectangle within w = √(r² − z²) of
	// it: the rectangle must reach x − w and x + w. The corners at the
	// extreme heights have w = 0, so minx ≤ maxx up to rounding.
	minx, maxx := math.Inf(1), math.Inf(-1)
	miny, maxy := math.Inf(1), math.Inf(-1)
	for i := range tris {
		for _, v := range tris[i] {
			x, y, z := proj(v)
			dz := z - cz
			w := math.Sqrt(max(rad2-dz*dz, 0))
			minx, maxx = min(minx, x+w), max(maxx, x-w)
			miny, maxy = min(miny, y+w), max(maxy, y-w)
		}
	}
	if minx > maxx {
		minx = 0.5*minx + 0.5*maxx
		maxx = minx
	}
	if miny > maxy {
		miny = 0.5*miny + 0.5*maxy
		maxy = miny
	}
	// A corner beyond the rectangle in both x and y must be within r of
	// the rectangle's corner: move that corner along its diagonal by the
	// least g that covers it (PQP). At distance dx, dy, dz from the corner,
	// moving it by g in x and y leaves (dx − g, dy − g, dz), of squared
	// length ((dx − dy)²/2 + dz²) + 2((dx + dy)/2 − g)², which is r² for
	// g = (dx + dy)/2 − √((r² − t)/2), t = (dx − dy)²/2 + dz² ≤ r² (each of
	// dx, dy is at most w by the pass above).
	for i := range tris {
		for _, v := range tris[i] {
			x, y, z := proj(v)
			dx, inx := outside(x, minx, maxx)
			dy, iny := outside(y, miny, maxy)
			if !inx || !iny {
				continue
			}
			dz := z - cz
			t := 0.5*(dx-dy)*(dx-dy) + dz*dz
			g := 0.5*(dx+dy) - math.Sqrt(0.5*max(rad2-t, 0))
			if !(g > 0) {
				continue
			}
			if x > maxx {
				maxx += g
			} else {
				minx -= g
			}
			if y > maxy {
				maxy += g
			} else {
				miny -= g
			}
		}
	}
	cx := min(max(0.5*minx+0.5*maxx, minx), maxx)
	cy := min(max(0.5*miny+0.5*maxy, miny), maxy)
	return [3]float64{cx, cy, cz}, [2]float64{max(maxx-cx, cx-minx), max(maxy-cy, cy-miny)}
}

// outside returns how far x lies beyond [lo, hi], and whether it does.
func outside(x, lo, hi float64) (float64, bool) {
	switch {
	case x > hi:
		return x - hi, true
	case x < lo:
		return lo - x, true
	}
	return 0, false
}

// rssRadius returns a radius R for which every corner x of tris satisfies
// the containment inequality of RSS for v's stored C, Axes and L, exactly:
// the largest distance of a corner from the rectangle, computed in float64
// on the corners scaled by s (a power of two, with s·m < 2, m the largest
// |coordinate| of a corner), padded by a bound of its rounding error.
//
// Proof. Let u = 2⁻⁵³, γₙ = nu/(1 − nu), a_k the stored axes (orthonormal
// to within 2⁻⁴⁰, so |a_k|₁ ≤ √3(1 + 2⁻⁴⁰)), and for a corner x let
// s_k = s·(x − C)·a_k exactly and f(σ) = |(max(|σ₀| − sL₀, 0),
// max(|σ₁| − sL₁, 0), σ₂)|, so that the claim is f(s_·) ≤ s·R. Scaling by s
// is exact except where it underflows, by at most 2⁻¹⁰⁷⁵ per number.
//
//  1. w_j = fl(s·x_j − s·C_j) is within u·D + 2⁻¹⁰⁷⁴ of s(x_j − C_j), D =
//     s·max_j|x_j − C_j| ≤ s(m + |C|∞); σ̂_k = fl(a_k·w) has three rounded
//     products (each also off by at most 2⁻¹⁰⁷⁵ if it underflows) and two
//     rounded sums, so |σ̂_k − s_k| ≤ |a_k|₁(γ₃(1 + u) + u)·D + 2⁻¹⁰⁷⁰
//     ≤ 6.95u·D + 2⁻¹⁰⁷⁰.
//  2. f is 1-Lipschitz in the Euclidean norm of σ (and in sL, rounded by at
//     most 2⁻¹⁰⁷⁵), so |f(σ̂) − f(s_·)| ≤ √3·(6.95u·D) + 2⁻¹⁰⁶⁸.
//  3. The computed q̂ = fl(ê₀² + ê₁² + σ̂₂²), ê_k = max(fl(|σ̂_k| − sL_k), 0)
//     (which is 0 exactly when |σ̂_k| ≤ sL_k), is at least f(σ̂)²(1 − u)⁵
//     minus 3·2⁻¹⁰⁷⁵ for squares that underflow; so with f̂ = fl(√q̂max),
//     f(σ̂) ≤ f̂(1 + 3.52u) + 2⁻⁵³⁶.
//  4. With D̂ = fl(s·m + |fl(s·C)|∞) ≥ D(1 − 1.01u) − 2⁻¹⁰⁷⁴, every corner
//     has f(s_·) ≤ f̂(1 + 3.52u) + 12.06u·D̂ + 2⁻⁵³⁵.
//  5. R̂ = fl(fl(f̂ + 2⁻⁴⁹·fl(f̂ + D̂)) + 2⁻⁵²⁰) is at least
//     f̂(1 + 13.9u) + 15.9u·D̂ + 2⁻⁵²¹ (three roundings down by at most
//     (1 − u) each), which exceeds the bound of 4.
//
// R = R̂/s, rounded up when the division is inexact (a subnormal result),
// so s·R ≥ R̂. If the coordinates were scaled up (s > 1, m < 1), 2⁻⁵²⁰/s is
// below 2⁻⁵²⁰·2m; otherwise the padding is at most about 2⁻⁴⁸ of the
// coordinates.
func rssRadius(tris []geom.Triangle, v *RSS, m, s float64) float64 {
	a0, a1, a2 := v.Axes.Row(0), v.Axes.Row(1), v.Axes.Row(2)
	cs := v.C.Scale(s)
	l0, l1 := v.L[0]*s, v.L[1]*s
	q := 0.0
	for i := range tris {
		for _, x := range tris[i] {
			w := x.Scale(s).Sub(cs)
			e0 := max(math.Abs(a0.Dot(w))-l0, 0)
			e1 := max(math.Abs(a1.Dot(w))-l1, 0)
			e2 := a2.Dot(w)
			q = max(q, e0*e0+e1*e1+e2*e2)
		}
	}
	f := math.Sqrt(q)
	d := s*m + max(math.Abs(cs.X), math.Abs(cs.Y), math.Abs(cs.Z))
	rs := f + 0x1p-49*(f+d) + 0x1p-520
	r := rs / s
	if r*s < rs {
		r = math.Nextafter(r, math.Inf(1))
	}
	return r
}

// RSSDisjoint reports whether the rectangle swept spheres a and b are
// separated by more than pad, b placed in a's frame: a's rectangle is
// A = [−a.L[0], a.L[0]] × [−a.L[1], a.L[1]] × {0}, and b's is
// B = {t + x·c₀ + y·c₁ : |x| ≤ b.L[0], |y| ≤ b.L[1]}, where c₀ and c₁, the
// columns 0 and 1 of r, are b's edge directions in a's frame (row i of r
// holds the components along a's axis i; column 2 is not read) and t is
// b's centre in a's frame. Only the L and R fields of a and b are read.
// (For volumes moved by a pose, with b's axes b_j moved to R·b_j and its
// centre to R·b.C + T: r[i][j] = a.Axes[i]·(R·b_j), t = a.Axes·(R·b.C + T
// − a.C).) It reports true when the distance between A and B exceeds
// a.R + b.R + pad (pad ≥ 0, a caller's margin for rounding and tolerance),
// so touching volumes are not disjoint; an empty volume (R < 0) is
// disjoint from everything.
//
// The test decides the exact distance between the rectangles, with every
// "disjoint" answer certified by a lower bound. The distance is that from t
// to the zonotope A − (B − t), generated by a₀x, a₁y, b₀c₀ and b₁c₁. The
// test projects both rectangles on directions m and reports true as soon as
// the gap between the projections, (|m·t| − a₀|m_x| − a₁|m_y| − b₀|m·c₀| −
// b₁|m·c₁|)/|m|, a lower bound on the distance, exceeds a.R + b.R + pad.
// The directions are, in order: a's normal z and edge directions x, y;
// b's normal c₀ × c₁ and the normals x × c₀, x × c₁, y × c₀, y × c₁ of
// pairs of edges (with z, the face normals of the zonotope); b's edge
// directions c₀, c₁ (for coplanar rectangles); and last, the direction of
// the closest pair of each vertex of one rectangle nearest to the other
// (vertex–face, vertex–edge and vertex–vertex closest pairs), computed from
// the vertex's coordinates in the other's frame. It reports false as soon
// as b's centre, a's centre or a vertex is within a.R + b.R + pad of the
// other rectangle, or when no direction separates the rectangles at all
// (they intersect). In exact arithmetic, with c₀ and c₁ orthonormal, the
// answer is exact: the gap along the direction of the closest pair is the
// distance, and that direction is among those tried.
//
// Rounding. Let S = |t| + a.L[0] + a.L[1] + b.L[0] + b.L[1] (|t| the
// Euclidean norm) and T = a.R + b.R + pad, exact sums of the stored
// numbers, and suppose |c₀|, |c₁| ≤ 1 + 2⁻⁴⁰. RSSDisjoint reports true only
// if the distance between A and B, in exact arithmetic on the given
// numbers (B the parallelogram of the given c₀, c₁, whether or not they are
// orthonormal), exceeds T − ε, ε = 2⁻⁴⁸·(S + T) + 2⁻⁹⁶⁰ (see rectApart for
// the proof: each gap is computed within 13u·(S + T), u = 2⁻⁵³, plus less
// than 2⁻⁹⁷⁰ for products that underflow). A caller whose volumes contain
// their points exactly in a's frame keeps the test conservative by adding ε
// to pad, on top of its own errors in r and t. The answer "not disjoint"
// is then never wrong; in floating point it may be given for volumes apart
// by a few ulps of S more than T, and in near-degenerate configurations
// (nearly parallel edges, closest points near the boundary between vertex
// and edge regions) by a little more.
//
// A NaN anywhere makes the comparisons false, so the volumes are then
// reported not disjoint. It does not allocate.
func RSSDisjoint(a, b *RSS, r *geom.Mat3, t geom.Vec3, pad float64) bool {
	if a.R < 0 || b.R < 0 {
		return true
	}
	// A's normal, then its edges: the cheapest directions, which separate
	// most pairs that are apart, then B's centre within thr of A.
	thr := a.R + b.R + pad
	a0, a1, b0, b1 := a.L[0], a.L[1], b.L[0], b.L[1]
	sz := math.Abs(t.Z) - (b0*math.Abs(r[2][0]) + b1*math.Abs(r[2][1]))
	if sz > thr {
		return true
	}
	sx := math.Abs(t.X) - (a0 + b0*math.Abs(r[0][0]) + b1*math.Abs(r[0][1]))
	if sx > thr {
		return true
	}
	sy := math.Abs(t.Y) - (a1 + b0*math.Abs(r[1][0]) + b1*math.Abs(r[1][1]))
	if sy > thr {
		return true
	}
	ex, ey := max(math.Abs(t.X)-a0, 0), max(math.Abs(t.Y)-a1, 0)
	if ex*ex+ey*ey+t.Z*t.Z <= thr*thr {
		return false
	}
	return rectApart(a0, a1, b0, b1, r, t, thr, sz > 0 || sx > 0 || sy > 0)
}

// rectApart continues RSSDisjoint after the directions of A (sep tells
// whether one of them separates the rectangles), with the other face
// normals of the zonotope and b's edge directions written out as rectPair's
// methods compute them; the rest is rare and left to rectPair.closest.
//
// Rounding of a gap. Every test has the form s > thr·ℓ̂ with s = fl(P − Q),
// P = fl(|m·t|) and Q the rounded sum of the radii a₀|m_x|, a₁|m_y|,
// b₀|m·c₀|, b₁|m·c₁| (each dot product rounded, or exactly 0, or, for m =
// c₀ × c₁, taken as 0), for a direction m (any vector of floats: the
// exact gap along it is a lower bound whatever m is) and ℓ̂ ≥ |m|(1 − κu)
// a computed length: ℓ̂ = 1 for x, y, z (κ = 0); fl(√fl(m·m)) (κ = 2.51,
// fl(m·m) having 3 rounded products and 2 rounded sums); fl(fl(m·m)/2 +
// 1/2) ≥ |m| (κ = 4.01) for c₀, c₁ and c₀ × c₁, whose lengths are about 1.
// With u = 2⁻⁵³ and γₙ = nu/(1 − nu):
//
//  1. |P − |m·t|| ≤ γ₃|m||t|, and each rounded m·c_j is within γ₃|m||c_j|
//     of the exact one; the sum of the four radii loses at most a factor
//     (1 − 4.01u) to its product and sum roundings. For m = c₀ × c₁ as
//     computed, m·c₀ is (m − c₀ × c₁)·c₀, of size at most 2.85u|c₀|²|c₁|,
//     and |m| ≥ 1/2 (tested), which the gap omits: 5.8u(b₀ + b₁) at most.
//  2. s > thr·ℓ̂ gives P − Q > thr·|m|(1 − (κ + 2)u).
//  3. So the exact gap exceeds thr − (κ + 2)u·thr − 3.01u|t| − 4.01u(a₀ +
//     a₁) − 7.02u(b₀|c₀| + b₁|c₁|) − 5.8u(b₀ + b₁), and with thr computed
//     within 2.01u·T of T, more than T − 13u(S + T) (|c_j| ≤ 1 + 2⁻⁴⁰).
//  4. Some 20 operations that underflow add at most 2⁻¹⁰⁷⁰·⁷ to P − Q; the
//     directions have |m| ≥ 2⁻¹⁰⁰ (normals of pairs of edges shorter than
//     that are not used; vertex directions are scaled so that their largest
//     |component| is 1), so at most 2⁻⁹⁷⁰ to the gap.
//
// 13u(S + T) + 2⁻⁹⁷⁰ is below ε = 2⁻⁴⁸·(S + T) + 2⁻⁹⁶⁰. The bounds hold
// whether or not the compiler fuses a product and a sum.
func rectApart(a0, a1, b0, b1 float64, r *geom.Mat3, t geom.Vec3, thr float64, sep bool) bool {
	c0x, c0y, c0z := r[0][0], r[1][0], r[2][0]
	c1x, c1y, c1z := r[0][1], r[1][1], r[2][1]
	// B's normal n = c0 × c1 (sepN).
	nx := c0y*c1z - c0z*c1y
	ny := c0z*c1x - c0x*c1z
	nz := c0x*c1y - c0y*c1x
	nn := nx*nx + ny*ny + nz*nz
	if nn >= 0.25 {
		sn := math.Abs(nx*t.X+ny*t.Y+nz*t.Z) - (a0*math.Abs(nx) + a1*math.Abs(ny))
		if sn > thr*(0.5*nn+0.5) {
			return true
		}
		sep = sep || sn > 0
	}
	// The normals of pairs of edges (sepEdges).
	anx, any := math.Abs(nx), math.Abs(ny)
	for _, g := range [4][2]float64{
		{math.Abs(c0y*t.Z-c0z*t.Y) - (a1*math.Abs(c0z) + b1*anx), c0y*c0y + c0z*c0z},
		{math.Abs(c1y*t.Z-c1z*t.Y) - (a1*math.Abs(c1z) + b0*anx), c1y*c1y + c1z*c1z},
		{math.Abs(c0z*t.X-c0x*t.Z) - (a0*math.Abs(c0z) + b1*any), c0z*c0z + c0x*c0x},
		{math.Abs(c1z*t.X-c1x*t.Z) - (a0*math.Abs(c1z) + b0*any), c1z*c1z + c1x*c1x},
	} {
		if beyond, ok := gapBeyond(g[0], g[1], thr); beyond {
			return true
		} else if ok {
			sep = true
		}
	}
	if !sep {
		// B's edge directions (sepC0, sepC1), for coplanar rectangles
		// (where the normals of pairs of edges are all A's normal).
		c00 := c0x*c0x + c0y*c0y + c0z*c0z
		c11 := c1x*c1x + c1y*c1y + c1z*c1z
		c01 := math.Abs(c0x*c1x + c0y*c1y + c0z*c1z)
		if c00 >= 0.25 {
			s := math.Abs(c0x*t.X+c0y*t.Y+c0z*t.Z) - (a0*math.Abs(c0x) + a1*math.Abs(c0y) + b0*c00 + b1*c01)
			if s > thr*(0.5*c00+0.5) {
				return true
			}
			sep = s > 0
		}
		if c11 >= 0.25 {
			s := math.Abs(c1x*t.X+c1y*t.Y+c1z*t.Z) - (a0*math.Abs(c1x) + a1*math.Abs(c1y) + b0*c01 + b1*c11)
			if s > thr*(0.5*c11+0.5) {
				return true
			}
			sep = sep || s > 0
		}
		// No direction separates the rectangles at all: with both of full
		// dimension, these are all the face normals of Z, or for coplanar
		// rectangles all the edge normals in their plane, so they
		// intersect.
		if !sep && a0 > 0 && a1 > 0 && b0 > 0 && b1 > 0 {
			return false
		}
	}
	p := newRectPair(a0, a1, b0, b1, r, t)
	return p.closest(thr)
}

// gapBeyond reports, for the gap s·|n| of the projections on a direction n
// with |n|² = m, whether it separates them (ok: s > 0 and n is not
// negligibly short, m ≥ 2⁻²⁰⁰) and whether it exceeds thr (beyond).
func gapBeyond(s, m, thr float64) (beyond, ok bool) {
	if !(s > 0) || !(m >= 0x1p-200) {
		return false, false
	}
	return s > thr*math.Sqrt(m), true
}

// RectDist returns the distance between the rectangle A = [−a[0], a[0]] ×
// [−a[1], a[1]] × {0} and B = {t + x·c₀ + y·c₁ : |x| ≤ b[0], |y| ≤ b[1]},
// c₀ and c₁ the columns 0 and 1 of r (b's edge directions in A's frame, as
// for RSSDisjoint), as the largest separation of the projections of A and
// B over the directions RSSDisjoint tries (all of them: the face normals,
// the edge directions, and the closest-point directions of all 8
// vertices), or 0 if none separates them.
//
// The result d̂ is a lower bound, up to rounding: with S as for RSSDisjoint
// and |c₀|, |c₁| ≤ 1 + 2⁻⁴⁰, d̂ ≤ d + 2⁻⁴⁸·(S + d̂) + 2⁻⁹⁶⁰, d the exact
// distance between A and the parallelogram B of the given numbers. In
// exact arithmetic, with c₀ and c₁ orthonormal, d̂ = d; in floating point
// d̂ is within a few ulps of S of d except in near-degenerate
// configurations (see RSSDisjoint). A NaN input gives NaN.
func RectDist(a, b [2]float64, r *geom.Mat3, t geom.Vec3) float64 {
	p := newRectPair(a[0], a[1], b[0], b[1], r, t)
	return p.dist()
}

// rectPair holds rectangles A and B in A's frame, as for RectDist, and the
// products that several directions share.
type rectPair struct {
	a0, a1, b0, b1 float64
	r              *geom.Mat3
	t              geom.Vec3
	c0, c1         geom.Vec3 // B's edge directions
	n              geom.Vec3 // c0 × c1, B's normal
	nn             float64   // n·n
	nt             float64   // n·t
	c00, c01, c11  float64   // c0·c0, c0·c1, c1·c1
	u0, u1         float64   // c0·t, c1·t
}

// newRectPair returns the pair of rectangles of lengths a0, a1 and b0, b1,
// B placed by r and t.
func newRectPair(a0, a1, b0, b1 float64, r *geom.Mat3, t geom.Vec3) rectPair {
	c0 := geom.Vec3{X: r[0][0], Y: r[1][0], Z: r[2][0]}
	c1 := geom.Vec3{X: r[0][1], Y: r[1][1], Z: r[2][1]}
	n := c0.Cross(c1)
	return rectPair{
		a0: a0, a1: a1, b0: b0, b1: b1, r: r, t: t,
		c0: c0, c1: c1, n: n, nn: n.Dot(n), nt: n.Dot(t),
		c00: c0.Dot(c0), c01: c0.Dot(c1), c11: c1.Dot(c1),
		u0: c0.Dot(t), u1: c1.Dot(t),
	}
}

// The separations. Each returns s, the numerator of the separation along a
// direction m (|m·t| minus the radii of the projections of A and B), and a
// length ℓ with ℓ ≥ |m| (equal to it unless noted), so that s > thr·ℓ
// proves a separation above thr, up to rounding. ok is false when the
// direction is not used: a normal of nearly parallel edges (|m|² < 2⁻²⁰⁰,
// where the vertex directions take over) or, for a matrix far from a
// rotation, a short c₀, c₁ or c₀ × c₁ (length below 1/2).

// sepZ is the separation along A's normal z (ℓ = 1).
func (p *rectPair) sepZ() float64 {
	return math.Abs(p.t.Z) - (p.b0*math.Abs(p.r[2][0]) + p.b1*math.Abs(p.r[2][1]))
}

// sepX and sepY are the separations along A's edge directions (ℓ = 1).
func (p *rectPair) sepX() float64 {
	return math.Abs(p.t.X) - (p.a0 + p.b0*math.Abs(p.r[0][0]) + p.b1*math.Abs(p.r[0][1]))
}

func (p *rectPair) sepY() float64 {
	return math.Abs(p.t.Y) - (p.a1 + p.b0*math.Abs(p.r[1][0]) + p.b1*math.Abs(p.r[1][1]))
}

// sepN is the separation along B's normal n = c0 × c1, whose products with
// c0 and c1 (zero up to rounding) are taken as 0; ℓ = (n·n + 1)/2 ≥ |n|
// (equal for a unit n).
func (p *rectPair) sepN() (s, l float64, ok bool) {
	s = math.Abs(p.nt) - (p.a0*math.Abs(p.n.X) + p.a1*math.Abs(p.n.Y))
	return s, 0.5*p.nn + 0.5, p.nn >= 0.25
}

// sepC0 and sepC1 are the separations along B's edge directions, with
// ℓ = (c·c + 1)/2 ≥ |c|.
func (p *rectPair) sepC0() (s, l float64, ok bool) {
	s = math.Abs(p.u0) - (p.a0*math.Abs(p.c0.X) + p.a1*math.Abs(p.c0.Y) + p.b0*p.c00 + p.b1*math.Abs(p.c01))
	return s, 0.5*p.c00 + 0.5, p.c00 >= 0.25
}

func (p *rectPair) sepC1() (s, l float64, ok bool) {
	s = math.Abs(p.u1) - (p.a0*math.Abs(p.c1.X) + p.a1*math.Abs(p.c1.Y) + p.b0*math.Abs(p.c01) + p.b1*p.c11)
	return s, 0.5*p.c11 + 0.5, p.c11 >= 0.25
}

// sepEdges returns the separations along the normals of the four pairs of
// edge directions, x × c0 = (0, −c0z, c0y), x × c1, y × c0 = (c0z, 0, −c0x)
// and y × c1, exact in floating point, with their squared lengths m (ℓ =
// √m). Their products with the other edge direction of B are components of
// n (for example (x × c0)·c1 = n_x, as computed), and with their own edge
// direction exactly 0.
func (p *rectPair) sepEdges() (s, m [4]float64, ok [4]bool) {
	c0, c1, t := p.c0, p.c1, p.t
	nx, ny := math.Abs(p.n.X), math.Abs(p.n.Y)
	s[0] = math.Abs(c0.Y*t.Z-c0.Z*t.Y) - (p.a1*math.Abs(c0.Z) + p.b1*nx)
	s[1] = math.Abs(c1.Y*t.Z-c1.Z*t.Y) - (p.a1*math.Abs(c1.Z) + p.b0*nx)
	s[2] = math.Abs(c0.Z*t.X-c0.X*t.Z) - (p.a0*math.Abs(c0.Z) + p.b1*ny)
	s[3] = math.Abs(c1.Z*t.X-c1.X*t.Z) - (p.a0*math.Abs(c1.Z) + p.b0*ny)
	m = [4]float64{
		c0.Y*c0.Y + c0.Z*c0.Z,
		c1.Y*c1.Y + c1.Z*c1.Z,
		c0.Z*c0.Z + c0.X*c0.X,
		c1.Z*c1.Z + c1.X*c1.X,
	}
	for k := range 4 {
		ok[k] = m[k] >= 0x1p-200
	}
	return s, m, ok
}

// sepDir is the separation along any direction m ≠ 0, scaled first so that
// its largest |component| is 1 (so that no product underflows to a loss of
// accuracy; the scaled vector is another direction, as good).
func (p *rectPair) sepDir(m geom.Vec3) (s, l float64, ok bool) {
	mx := max(math.Abs(m.X), math.Abs(m.Y), math.Abs(m.Z))
	if !(mx > 0 && mx <= math.MaxFloat64) {
		return 0, 0, false
	}
	m = m.Scale(1 / mx)
	s = math.Abs(m.Dot(p.t)) - (p.a0*math.Abs(m.X) + p.a1*math.Abs(m.Y) +
		p.b0*math.Abs(m.Dot(p.c0)) + p.b1*math.Abs(m.Dot(p.c1)))
	return s, math.Sqrt(m.Dot(m)), true
}

// rectVertex is a vertex of one rectangle with its offset from the closest
// point of the other, in the other's frame: e.X and e.Y the parts of its
// coordinates beyond the half lengths (0 within them, exactly) and e.Z its
// height above the other's plane. The vertices of B come first, in A's
// frame, then those of A, in B's frame, taken as c0, c1, n/|n|
// (orthonormal up to rounding).
type rectVertex struct {
	e  geom.Vec3
	d2 float64 // |e|², the squared distance
}

// rectCorners sets vs to the offsets of the points o ± h0 ± h1 from the
// rectangle [−l0, l0] × [−l1, l1] × {0}.
func rectCorners(vs *[4]rectVertex, o, h0, h1 geom.Vec3, l0, l1 float64) {
	beyond := func(x, h float64) float64 {
		switch {
		case x > h:
			return x - h
		case x < -h:
			return x + h
		}
		return 0
	}
	set := func(v *rectVertex, x, y, z float64) {
		x, y = beyond(x, l0), beyond(y, l1)
		v.e = geom.Vec3{X: x, Y: y, Z: z}
		v.d2 = x*x + y*y + z*z
	}
	px, py, pz := o.X+h0.X, o.Y+h0.Y, o.Z+h0.Z
	mx, my, mz := o.X-h0.X, o.Y-h0.Y, o.Z-h0.Z
	set(&vs[0], px+h1.X, py+h1.Y, pz+h1.Z)
	set(&vs[1], mx+h1.X, my+h1.Y, mz+h1.Z)
	set(&vs[2], px-h1.X, py-h1.Y, pz-h1.Z)
	set(&vs[3], mx-h1.X, my-h1.Y, mz-h1.Z)
}

// verticesB sets vs[0:4] to the vertices t ± b0·c0 ± b1·c1 of B.
func (p *rectPair) verticesB(vs *[8]rectVertex) {
	rectCorners((*[4]rectVertex)(vs[:4]), p.t, p.c0.Scale(p.b0), p.c1.Scale(p.b1), p.a0, p.a1)
}

// verticesA sets vs[4:8] to the vertices (±a0, ±a1, 0) of A, less t, in
// B's frame; B's normal must not be short (nn ≥ 1/4).
func (p *rectPair) verticesA(vs *[8]rectVertex) {
	inv := 1 / math.Sqrt(p.nn)
	h0 := geom.Vec3{X: p.a0 * p.c0.X, Y: p.a0 * p.c1.X, Z: p.a0 * p.n.X * inv}
	h1 := geom.Vec3{X: p.a1 * p.c0.Y, Y: p.a1 * p.c1.Y, Z: p.a1 * p.n.Y * inv}
	o := geom.Vec3{X: -p.u0, Y: -p.u1, Z: -p.nt * inv}
	rectCorners((*[4]rectVertex)(vs[4:]), o, h0, h1, p.b0, p.b1)
}

// dir returns the direction of the closest pair of vertex i in A's frame.
// A part of the offset that is 0 (a coordinate within the half length)
// stays exactly 0, so the direction is orthogonal to that edge, up to the
// rounding of B's frame for a vertex of A.
func (p *rectPair) dir(vs *[8]rectVertex, i int) geom.Vec3 {
	e := vs[i].e
	if i < 4 {
		return e
	}
	return p.c0.Scale(e.X).Add(p.c1.Scale(e.Y)).Add(p.n.Scale(e.Z / math.Sqrt(p.nn)))
}

// closest decides whether the distance between A and B exceeds thr, as
// RSSDisjoint, when no face normal of Z does: the closest pair has a
// vertex, or the rectangles intersect (when one of them is flat).
func (p *rectPair) closest(thr float64) bool {
	thr2 := thr * thr
	okn := p.nn >= 0.25
	// A's centre within thr of B: not disjoint.
	if okn {
		ex, ey := max(math.Abs(p.u0)-p.b0, 0), max(math.Abs(p.u1)-p.b1, 0)
		if (ex*ex+ey*ey-thr2)*p.nn+p.nt*p.nt <= 0 {
			return false
		}
	}
	// The closest pair has a vertex: the directions of the vertices nearest
	// to the other rectangle (those within rounding of the nearest). A
	// vertex within thr of the other rectangle: not disjoint.
	var vs [8]rectVertex
	p.verticesB(&vs)
	best := min(vs[0].d2, vs[1].d2, vs[2].d2, vs[3].d2)
	if best <= thr2 {
		return false
	}
	nv := 4
	if okn {
		p.verticesA(&vs)
		best = min(best, vs[4].d2, vs[5].d2, vs[6].d2, vs[7].d2)
		if best <= thr2 {
			return false
		}
		nv = 8
	}
	lim := math.Sqrt(best) + 0x1p-40*(math.Abs(p.t.X)+math.Abs(p.t.Y)+math.Abs(p.t.Z)+p.a0+p.a1+p.b0+p.b1)
	lim *= lim
	for i := range nv {
		if !(vs[i].d2 <= lim) {
			continue
		}
		if s, l, ok := p.sepDir(p.dir(&vs, i)); ok && s > thr*l {
			return true
		}
	}
	return false
}

// dist returns the largest separation over all the directions, as
// RectDist.
func (p *rectPair) dist() float64 {
	d := max(p.sepZ(), p.sepX(), p.sepY(), 0)
	if s, _, ok := p.sepN(); ok {
		d = max(d, s/math.Sqrt(p.nn))
	}
	if s, _, ok := p.sepC0(); ok {
		d = max(d, s/math.Sqrt(p.c00))
	}
	if s, _, ok := p.sepC1(); ok {
		d = max(d, s/math.Sqrt(p.c11))
	}
	se, me, oke := p.sepEdges()
	for k := range 4 {
		if oke[k] {
			d = max(d, se[k]/math.Sqrt(me[k]))
		}
	}
	var vs [8]rectVertex
	p.verticesB(&vs)
	nv := 4
	if p.nn >= 0.25 {
		p.verticesA(&vs)
		nv = 8
	}
	for i := range nv {
		if s, l, ok := p.sepDir(p.dir(&vs, i)); ok {
			d = max(d, s/l)
		}
	}
	return d
}
