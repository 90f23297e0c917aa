package bv

import (
	"fmt"
	"math"
	"slices"

	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/hull"
)

// OBB is an oriented box: the points C + Σ u_i·Axes[i] with |u_i| ≤ Half_i.
// The axes (rows of Axes) are orthonormal and right-handed.
//
// A box made by FitOBB has axes orthonormal to within a few ulps, and its
// containment guarantee is stated for the stored axis vectors: every fitted
// point x satisfies |(x - C)·Axes[k]| ≤ Half_k exactly (the slab form that
// OBBDisjoint uses for box A).
type OBB struct {
	C    geom.Vec3
	Axes geom.Mat3
	Half geom.Vec3
}

// OBBFit chooses how FitOBB orients a box.
type OBBFit uint8

// The orientation rules of Gottschalk et al. (OBBTree).
const (
	// FitHull uses the covariance of the surface of the convex hull of the
	// points (the paper's final method, Gottschalk et al. §4); it falls back
	// to FitSurface when the hull is flat, a segment or a point.
	FitHull OBBFit = iota
	// FitSurface uses the covariance of the triangles' own surface,
	// area-weighted (RAPID).
	FitSurface
	// FitVertices uses the covariance of the triangle corners (the paper's
	// first variant).
	FitVertices
)

// String returns "hull", "surface" or "vertices".
func (f OBBFit) String() string {
	switch f {
	case FitHull:
		return "hull"
	case FitSurface:
		return "surface"
	case FitVertices:
		return "vertices"
	}
	return fmt.Sprintf("OBBFit(%d)", uint8(f))
}

// FitOBB returns an oriented box around the corners of tris: its axes are the
// eigenvectors of a covariance matrix chosen by how (largest variance first,
// see SymEigen), its extents are those of the extreme corners along each
// axis, and its centre is the midpoint of each extent.
//
// The box contains every corner, exactly: |(x - C)·Axes[k]| ≤ Half_k for the
// stored float64 fields, whatever the rounding. The half-extents are padded
// by 2⁻⁴⁸·(M + μ) + 4δμ + 2⁻¹⁰⁰⁰, M the largest |coordinate| of a corner, μ
// the largest |midpoint| of the three projected extents (about |Axes[k]·C|)
// and δ a bound on the departure of the stored axes from orthonormality
// (about 2⁻⁴⁹); see the proof in the code.
//
// Covariance:
//   - FitVertices: the covariance of the 3·len(tris) corners (a corner shared
//     by several triangles counts once per triangle).
//   - FitSurface: the covariance of a point uniformly distributed on the
//     union of the triangles, in the closed form
//     C_jk = Σ A_i/(12A)·(9c_j c_k + p_j p_k + q_j q_k + r_j r_k) − μ_j μ_k
//     (A_i, c the area and centroid of triangle pqr, A = ΣA_i, μ = ΣA_i c/A);
//     degenerate triangles weigh nothing, and if every triangle is degenerate
//     the vertex covariance is used.
//   - FitHull: FitSurface applied to the triangles of the convex hull of the
//     corners, when the hull is solid; otherwise FitSurface on tris. From
//     768 corners on, the hull is built from the corners outside the hull
//     of a few extreme ones only (the same hull; the cost linear in the
//     corners but for those), so that the box may differ in its last bits
//     from the one the hull of every corner gives.
//
// The covariance is computed on the corners scaled by a power of two and
// taken relative to their mean, so coordinates of any finite magnitude work
// (up to about 10³⁰⁷ before the extents overflow). Degenerate, duplicated
// and coplanar triangles are accepted; a single triangle gives a flat box.
//
// With no triangles FitOBB returns the box of identity axes, centre 0 and
// half-extents 0. If a coordinate is NaN or infinite, or the extents
// overflow, it returns the box of identity axes, centre 0 and infinite
// half-extents, which contains every point. It panics if how is not one of
// the OBBFit constants.
func FitOBB(tris []geom.Triangle, how OBBFit) OBB {
	if how > FitVertices {
		panic("bv: FitOBB with unknown " + how.String())
	}
	b, _ := fitOBB(tris, how, false)
	return b
}

// FitOBBHull is FitOBB(tris, FitHull) when the convex hull of the corners
// of tris is solid, and false otherwise (where FitOBB would orient the box
// by the surface of tris themselves). Only the corners count here, so that
// tris may be any triangles over the points wanted: each distinct vertex of
// a mesh's triangles once, three to a triangle, gives the box of FitOBB on
// those triangles (the same hull, the same extents) up to the rounding of
// the covariance, at a fraction of the cost (a grid mesh has about six
// corners per vertex).
func FitOBBHull(tris []geom.Triangle) (OBB, bool) {
	return fitOBB(tris, FitHull, true)
}

// fitOBB is FitOBB; with hullOnly, it returns false instead of falling
// back from the hull's covariance to the triangles'.
func fitOBB(tris []geom.Triangle, how OBBFit, hullOnly bool) (OBB, bool) {
	if len(tris) == 0 {
		return OBB{Axes: geom.Identity3()}, !hullOnly
	}
	m := trisMag(tris)
	if !(m <= math.MaxFloat64) {
		return obbEverything(), true
	}
	var cov [3][3]float64
	if m > 0 {
		// Scaled corners lie in (-2, 2), and their largest |coordinate| is at
		// least 2⁻⁷⁴ (2¹⁰⁰⁰ is the largest scale used, for subnormal
		// inputs): no overflow or harmful underflow in the moments.
		s := math.Ldexp(1, min(-math.Ilogb(m), 1000))
		var sum geom.Vec3
		for i := range tris {
			for _, v := range tris[i] {
				sum = sum.Add(v.Scale(s))
			}
		}
		acc := obbMoments{s: s, ref: sum.Scale(1 / float64(3*len(tris)))}
		ok := false
		if how == FitHull {
			cov, ok = obbHullCovariance(tris, m, &acc)
			if !ok && hullOnly {
				return OBB{}, false
			}
		}
		if !ok && how != FitVertices {
			for i := range tris {
				acc.addTri(tris[i][0], tris[i][1], tris[i][2])
			}
			cov, ok = acc.covariance()
		}
		if !ok {
			cov = obbVertexCovariance(tris, s, acc.ref)
		}
	}
	if hullOnly && m == 0 {
		return OBB{}, false // a point: no solid hull
	}
	_, axes := SymEigen(cov)
	return obbExtents(tris, axes, m), true
}

// obbEverything is the box that contains every point.
func obbEverything() OBB {
	inf := math.Inf(1)
	return OBB{Axes: geom.Identity3(), Half: geom.Vec3{X: inf, Y: inf, Z: inf}}
}

// obbMoments accumulates the area-weighted moments of triangles whose
// corners x are taken as s·x - ref (s a power of two).
type obbMoments struct {
	s    float64
	ref  geom.Vec3
	area float64    // Σ A_i
	m    geom.Vec3  // Σ A_i·c_i
	sxx  [6]float64 // Σ A_i/12·(9ccᵀ + ppᵀ + qqᵀ + rrᵀ): xx, xy, xz, yy, yz, zz
}

// addTri adds triangle pqr (unscaled corners).
func (a *obbMoments) addTri(p, q, r geom.Vec3) {
	p = p.Scale(a.s).Sub(a.ref)
	q = q.Scale(a.s).Sub(a.ref)
	r = r.Scale(a.s).Sub(a.ref)
	n := q.Sub(p).Cross(r.Sub(p))
	ar := 0.5 * math.Sqrt(n.Dot(n)) // |coordinates| < 4: no overflow
	if ar == 0 {
		return
	}
	c := p.Add(q).Add(r).Scale(1.0 / 3)
	w := ar / 12
	a.area += ar
	a.m = a.m.Add(c.Scale(ar))
	a.sxx[0] += w * (9*c.X*c.X + p.X*p.X + q.X*q.X + r.X*r.X)
	a.sxx[1] += w * (9*c.X*c.Y + p.X*p.Y + q.X*q.Y + r.X*r.Y)
	a.sxx[2] += w * (9*c.X*c.Z + p.X*p.Z + q.X*q.Z + r.X*r.Z)
	a.sxx[3] += w * (9*c.Y*c.Y + p.Y*p.Y + q.Y*q.Y + r.Y*r.Y)
	a.sxx[4] += w * (9*c.Y*c.Z + p.Y*p.Z + q.Y*q.Z + r.Y*r.Z)
	a.sxx[5] += w * (9*c.Z*c.Z + p.Z*p.Z + q.Z*q.Z + r.Z*r.Z)
}

// covariance returns S/A − μμᵀ, μ = m/A, and false if the total area is 0.
func (a *obbMoments) covariance() ([3][3]float64, bool) {
	if !(a.area > 0) {
		return [3][3]float64{}, false
	}
	mu := a.m.Scale(1 / a.area)
	xx := a.sxx[0]/a.area - mu.X*mu.X
	xy := a.sxx[1]/a.area - mu.X*mu.Y
	xz := a.sxx[2]/a.area - mu.X*mu.Z
	yy := a.sxx[3]/a.area - mu.Y*mu.Y
	yz := a.sxx[4]/a.area - mu.Y*mu.Z
	zz := a.sxx[5]/a.area - mu.Z*mu.Z
	return [3][3]float64{{xx, xy, xz}, {xy, yy, yz}, {xz, yz, zz}}, true
}

// obbHullCovariance adds the triangles of the convex hull of the corners of
// tris to acc and returns the surface covariance, or false if the hull is
// not solid.
//
// Past hullFilterMin corners, only the corners that hullCandidates keeps
// are given to the hull, whose boundary is then the same: the same
// covariance up to rounding (the surface is triangulated and summed in
// another order), at a cost linear in the corners but for those kept.
func obbHullCovariance(tris []geom.Triangle, m float64, acc *obbMoments) ([3][3]float64, bool) {
	var pts []geom.Vec3
	if 3*len(tris) >= hullFilterMin {
		pts = hullCandidates(nil, tris, m)
	} else {
		pts = make([]geom.Vec3, 0, 3*len(tris))
		for i := range tris {
			pts = append(pts, tris[i][0], tris[i][1], tris[i][2])
		}
	}
	// Corners shared by several triangles repeat; each copy would cost the
	// hull exact (degenerate) orientation tests.
	// The coordinates are finite here, so plain comparisons order them.
	slices.SortFunc(pts, func(p, q geom.Vec3) int {
		switch {
		case p.X != q.X:
			return obbSign(p.X - q.X)
		case p.Y != q.Y:
			return obbSign(p.Y - q.Y)
		}
		return obbSign(p.Z - q.Z)
	})
	pts = slices.Compact(pts)
	h, ht := hull.NewTriangulated(pts)
	if h.Dim() != 3 {
		return [3][3]float64{}, false
	}
	for _, t := range ht {
		acc.addTri(pts[t[0]], pts[t[1]], pts[t[2]])
	}
	return acc.covariance()
}

// obbSign returns the sign of x, which is not NaN.
func obbSign(x float64) int {
	if x < 0 {
		return -1
	}
	if x > 0 {
		return 1
	}
	return 0
}

// obbVertexCovariance returns the covariance of the corners of tris, taken
// as s·x - ref.
func obbVertexCovariance(tris []geom.Triangle, s float64, ref geom.Vec3) [3][3]float64 {
	var sum geom.Vec3
	var sxx [6]float64
	for i := range tris {
		for _, v := range tris[i] {
			d := v.Scale(s).Sub(ref)
			sum = sum.Add(d)
			sxx[0] += d.X * d.X
			sxx[1] += d.X * d.Y
			sxx[2] += d.X * d.Z
			sxx[3] += d.Y * d.Y
			sxx[4] += d.Y * d.Z
			sxx[5] += d.Z * d.Z
		}
	}
	inv := 1 / float64(3*len(tris))
	mu := sum.Scale(inv)
	xx := sxx[0]*inv - mu.X*mu.X
	xy := sxx[1]*inv - mu.X*mu.Y
	xz := sxx[2]*inv - mu.X*mu.Z
	yy := sxx[3]*inv - mu.Y*mu.Y
	yz := sxx[4]*inv - mu.Y*mu.Z
	zz := sxx[5]*inv - mu.Z*mu.Z
	return [3][3]float64{{xx, xy, xz}, {xy, yy, yz}, {xz, yz, zz}}
}

// obbOrthoDefect returns δ ≥ max over k, m of |Axes[k]·Axes[m] − [k = m]|,
// a rigorous bound, or +Inf if an entry exceeds 1 + 2⁻⁴⁰ in magnitude (or is
// NaN). With |a_kj| ≤ 1 + 2⁻⁴⁰ the computed dot product g is within
// γ₃·Σ_j|a_kj·a_mj| ≤ 3.01u·3.01 < 2⁻⁴⁹ of the exact one (u = 2⁻⁵³), and
// g − 1 is exact (Sterbenz) when |g − 1| matters.
func obbOrthoDefect(ax *geom.Mat3) float64 {
	for k := range 3 {
		for j := range 3 {
			if !(math.Abs(ax[k][j]) <= 1+0x1p-40) {
				return math.Inf(1)
			}
		}
	}
	d := 0.0
	for k := range 3 {
		for m := k; m < 3; m++ {
			g := ax.Row(k).Dot(ax.Row(m))
			if k == m {
				g -= 1
			}
			d = max(d, math.Abs(g))
		}
	}
	return d + 0x1p-49
}

// obbExtents returns the box of axes ax around the corners of tris, whose
// largest |coordinate| is m.
//
// Containment proof. Let u = 2⁻⁵³, γₙ = nu/(1-nu), a_k the stored rows of
// ax, δ = obbOrthoDefect (checked ≤ 2⁻⁴⁰, else the identity is used with
// δ = 0), so |a_k|₂ ≤ 1 + 2⁻⁴⁰ and |a_k|₁ ≤ √3(1 + 2⁻⁴⁰).
// For a corner v (|v_j| ≤ M = m) and an axis k:
//
//  1. The projection p̂ = fl(a_k·v) (three rounded products, two rounded
//     sums) satisfies |p̂ − a_k·v| ≤ γ₃|a_k|₁M ≤ 5.22uM, and |p̂| ≤ 1.7322M.
//     lo_k, hi_k are the min and max of p̂ over the corners; mid_k is any
//     float in [lo_k, hi_k] (fl((lo+hi)/2) is one), |mid_k| ≤ μ.
//  2. C_j = fl(Σ_m mid_m·a_mj) is within γ₃Σ_m|mid_m||a_mj| of the exact sum,
//     and C·a_k = Σ_m mid_m(a_m·a_k) + Σ_j (C_j − Σ_m mid_m a_mj)a_kj, so
//     |C·a_k − mid_k| ≤ 3μδ + γ₃μΣ_mΣ_j|a_mj||a_kj| ≤ 3μδ + 3γ₃μ(1+δ)
//     ≤ 3μδ + 9.02uμ.
//  3. Hence (v − C)·a_k = v·a_k − C·a_k lies within E = 5.22uM + 3μδ + 9.02uμ
//     of p̂ − mid_k ∈ [lo_k − mid_k, hi_k − mid_k], and
//     |(v − C)·a_k| ≤ max(hi_k − mid_k, mid_k − lo_k) + E.
//  4. w = max(fl(hi_k − mid_k), fl(mid_k − lo_k)) ≥ 0 is at least the exact
//     maximum divided by 1 + 1.01u, and w ≤ 3.47M; Half_k = fl(w + pad) ≥
//     (w + pad)(1 − u). Half_k is enough if pad(1 − u) ≥ E + 2.01uw, i.e.
//     pad(1 − u) ≥ 12.2uM + μ(3δ + 9.02u).
//
// pad = 2⁻⁴⁸(M + μ) + 4δμ = 32u(M + μ) + 4δμ does, with a margin above 2.5
// on the u terms that also absorbs the few roundings of pad itself.
// Products that underflow add at most 2⁻¹⁰⁷⁵ each (sums that underflow are
// exact), about ten times 2⁻¹⁰⁷⁵ in all, which the constant 2⁻¹⁰⁰⁰ covers.
// If anything overflows, the result is the box of infinite extents.
func obbExtents(tris []geom.Triangle, ax geom.Mat3, m float64) OBB {
	delta := obbOrthoDefect(&ax)
	if !(delta <= 0x1p-40) {
		ax = geom.Identity3()
		delta = 0 // exactly orthonormal
	}
	a0, a1, a2 := ax.Row(0), ax.Row(1), ax.Row(2)
	inf := math.Inf(1)
	lo := [3]float64{inf, inf, inf}
	hi := [3]float64{-inf, -inf, -inf}
	for i := range tris {
		for _, v := range tris[i] {
			p0, p1, p2 := a0.Dot(v), a1.Dot(v), a2.Dot(v)
			lo[0], hi[0] = min(lo[0], p0), max(hi[0], p0)
			lo[1], hi[1] = min(lo[1], p1), max(hi[1], p1)
			lo[2], hi[2] = min(lo[2], p2), max(hi[2], p2)
		}
	}
	var mid [3]float64
	mu := 0.0
	for k := range 3 {
		mid[k] = 0.5*lo[k] + 0.5*hi[k]
		// Keep mid in [lo, hi] whatever the rounding of the halves.
		mid[k] = min(max(mid[k], lo[k]), hi[k])
		mu = max(mu, math.Abs(mid[k]))
	}
	midv := geom.Vec3{X: mid[0], Y: mid[1], Z: mid[2]}
	b := OBB{
		C:    geom.Vec3{X: midv.Dot(ax.Col(0)), Y: midv.Dot(ax.Col(1)), Z: midv.Dot(ax.Col(2))},
		Axes: ax,
	}
	pad := 0x1p-48*(m+mu) + 4*delta*mu + 0x1p-1000
	b.Half = geom.Vec3{
		X: max(hi[0]-mid[0], mid[0]-lo[0]) + pad,
		Y: max(hi[1]-mid[1], mid[1]-lo[1]) + pad,
		Z: max(hi[2]-mid[2], mid[2]-lo[2]) + pad,
	}
	if !b.C.IsFinite() || !b.Half.IsFinite() {
		return obbEverything()
	}
	return b
}

// Contains reports whether p lies in b, evaluated in float64:
// |(p − C)·Axes[k]| ≤ Half_k for k = 0, 1, 2. It is meant for tests and
// diagnostics; the rounding of the projections is not accounted for.
func (b OBB) Contains(p geom.Vec3) bool {
	d := p.Sub(b.C)
	return math.Abs(b.Axes.Row(0).Dot(d)) <= b.Half.X &&
		math.Abs(b.Axes.Row(1).Dot(d)) <= b.Half.Y &&
		math.Abs(b.Axes.Row(2).Dot(d)) <= b.Half.Z
}

// Volume returns 8·Half_0·Half_1·Half_2.
func (b OBB) Volume() float64 { return 8 * b.Half.X * b.Half.Y * b.Half.Z }

// OBBDisjoint reports whether the boxes with half-extents a and b are
// separated, box b placed in a's frame: b's centre at t, b's axis j = column j
// of r; absR[i][j] = |r[i][j]| (computed by the caller, shared across tests
// in AABB trees). Each right side is increased by pad ≥ 0 (a caller's safety
// margin for rounding and tolerance). It tests the 15 axes of Gottschalk et
// al. (the separating-axis theorem for boxes), the 6 face axes first, and
// reports true as soon as one separates (strict >: touching boxes are not
// disjoint).
//
// The right sides use the identities of an orthonormal right-handed r (for
// example b's axis 1 × b's axis 2 = b's axis 3); their rounding error is a
// few ulps of the terms, which pad must cover where that matters. A NaN
// anywhere makes the comparisons false, so the boxes are then reported not
// disjoint. It does not allocate; it tests the face axes with
// OBBFacesDisjoint.
func OBBDisjoint(a, b geom.Vec3, r, absR *geom.Mat3, t geom.Vec3, pad float64) bool {
	if OBBFacesDisjoint(a, b, r, absR, t, pad) {
		return true
	}
	// Edge axes L = A_i × B_j:
	// |t_i2·r_i1j − t_i1·r_i2j| > a_i1|r_i2j| + a_i2|r_i1j| + b_j1|r_ij2| + b_j2|r_ij1|,
	// (i1, i2) and (j1, j2) the cyclic successors of i and j.
	// A_1 × B_j.
	if math.Abs(t.Z*r[1][0]-t.Y*r[2][0]) > a.Y*absR[2][0]+a.Z*absR[1][0]+b.Y*absR[0][2]+b.Z*absR[0][1]+pad {
		return true
	}
	if math.Abs(t.Z*r[1][1]-t.Y*r[2][1]) > a.Y*absR[2][1]+a.Z*absR[1][1]+b.Z*absR[0][0]+b.X*absR[0][2]+pad {
		return true
	}
	if math.Abs(t.Z*r[1][2]-t.Y*r[2][2]) > a.Y*absR[2][2]+a.Z*absR[1][2]+b.X*absR[0][1]+b.Y*absR[0][0]+pad {
		return true
	}
	// A_2 × B_j.
	if math.Abs(t.X*r[2][0]-t.Z*r[0][0]) > a.Z*absR[0][0]+a.X*absR[2][0]+b.Y*absR[1][2]+b.Z*absR[1][1]+pad {
		return true
	}
	if math.Abs(t.X*r[2][1]-t.Z*r[0][1]) > a.Z*absR[0][1]+a.X*absR[2][1]+b.Z*absR[1][0]+b.X*absR[1][2]+pad {
		return true
	}
	if math.Abs(t.X*r[2][2]-t.Z*r[0][2]) > a.Z*absR[0][2]+a.X*absR[2][2]+b.X*absR[1][1]+b.Y*absR[1][0]+pad {
		return true
	}
	// A_3 × B_j.
	if math.Abs(t.Y*r[0][0]-t.X*r[1][0]) > a.X*absR[1][0]+a.Y*absR[0][0]+b.Y*absR[2][2]+b.Z*absR[2][1]+pad {
		return true
	}
	if math.Abs(t.Y*r[0][1]-t.X*r[1][1]) > a.X*absR[1][1]+a.Y*absR[0][1]+b.Z*absR[2][0]+b.X*absR[2][2]+pad {
		return true
	}
	return math.Abs(t.Y*r[0][2]-t.X*r[1][2]) > a.X*absR[1][2]+a.Y*absR[0][2]+b.X*absR[2][1]+b.Y*absR[2][0]+pad
}

// trisMag returns the largest |coordinate| of the corners of tris (NaN or
// +Inf if one is).
func trisMag(tris []geom.Triangle) float64 {
	m := 0.0
	for i := range tris {
		for _, v := range tris[i] {
			m = max(m, math.Abs(v.X), math.Abs(v.Y), math.Abs(v.Z))
		}
	}
	return m
}

// OBBFacesDisjoint is OBBDisjoint on the six face axes only (the first it
// tests, with its face axes of a, then of b): a cheaper,
// weaker test (it may miss a separation along an edge-edge axis), for
// trees that test more finely below.
func OBBFacesDisjoint(a, b geom.Vec3, r, absR *geom.Mat3, t geom.Vec3, pad float64) bool {
	if math.Abs(t.X) > a.X+b.X*absR[0][0]+b.Y*absR[0][1]+b.Z*absR[0][2]+pad {
		return true
	}
	if math.Abs(t.Y) > a.Y+b.X*absR[1][0]+b.Y*absR[1][1]+b.Z*absR[1][2]+pad {
		return true
	}
	if math.Abs(t.Z) > a.Z+b.X*absR[2][0]+b.Y*absR[2][1]+b.Z*absR[2][2]+pad {
		return true
	}
	if math.Abs(t.X*r[0][0]+t.Y*r[1][0]+t.Z*r[2][0]) > a.X*absR[0][0]+a.Y*absR[1][0]+a.Z*absR[2][0]+b.X+pad {
		return true
	}
	if math.Abs(t.X*r[0][1]+t.Y*r[1][1]+t.Z*r[2][1]) > a.X*absR[0][1]+a.Y*absR[1][1]+a.Z*absR[2][1]+b.Y+pad {
		return true
	}
	return math.Abs(t.X*r[0][2]+t.Y*r[1][2]+t.Z*r[2][2]) > a.X*absR[0][2]+a.Y*absR[1][2]+a.Z*absR[2][2]+b.Z+pad
}
