package bv

import (
	"math"

	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/hull"
)

// ClimbState holds, for one caller of HullDOP, the hull vertex found
// extremal on each side of each slab by the last call, where the next call
// starts climbing. The zero value starts every climb at vertex 0. A state can
// be carried across calls with different K or a different hull: the climb is
// then merely longer.
type ClimbState struct {
	v [2 * MaxSlabs]int32 // 2i: maximiser of slab i, 2i+1: minimiser
}

// HullDOP returns the k-DOP of the vertices of h moved by the pose
// x ↦ R·x + t, computed as geom.Pose{R: r, T: t}.Apply, and the number of
// vertex moves the hill climbing made (Klosowski et al., QuickCD): for each
// side of each slab, h.Extreme climbs from the vertex stored in st to the
// vertex extreme along the slab direction turned back by R, and stores it
// there for the next call; st may be nil (start from vertex 0). It does not
// allocate.
//
// The result is conservative: for every point p given to hull.New (not only
// the vertices), k.Project of Pose{R: r, T: t}.Apply(p) lies in every slab,
// whatever the rounding. Each slab is the projection of an exact maximiser
// (minimiser) of the linear function g·x over the input, g = Rᵀd_i rounded,
// widened by pad_i = |d_i|₁·2⁻⁴⁸·(3ρM + τ) + 2⁻¹⁰⁰⁰, ρ the largest |r_ij|,
// M = h.MaxAbs() the largest |coordinate| of the input and τ the largest
// |t_j|; see the comment in the code for the proof. The empty hull gives
// Empty(k). HullDOP panics if k is not a supported direction set.
func HullDOP(h *hull.Hull, k K, r geom.Mat3, t geom.Vec3, st *ClimbState) (d DOP, steps int) {
	set, base := hullDOPSetup(h, k, r, t)
	d = Empty(k)
	if h.Len() == 0 {
		return d, 0
	}
	var local ClimbState
	if st == nil {
		st = &local
	}
	pose := geom.Pose{R: r, T: t}
	var pr [MaxSlabs]float64
	for i, di := range set {
		g, m := hullDir(di, &r)
		// Extreme starts from vertex 0 if the stored one is not a vertex of h.
		hi, s := h.Extreme(g, int(st.v[2*i]))
		steps += s
		lo, s := h.Extreme(g.Neg(), int(st.v[2*i+1]))
		steps += s
		st.v[2*i], st.v[2*i+1] = int32(hi), int32(lo)
		pad := m*base + 0x1p-1000
		k.Project(pose.Apply(h.Vertex(hi)), &pr)
		d.Hi[i] = hullUp(pr[i], pad)
		k.Project(pose.Apply(h.Vertex(lo)), &pr)
		d.Lo[i] = hullDown(pr[i], pad)
	}
	return d, steps
}

// HullDOPBrute returns the k-DOP of the vertices of h moved by x ↦ R·x + t
// like HullDOP, with the same padding, by projecting every vertex. It is the
// reference for HullDOP and a fallback for hulls too small to climb on.
func HullDOPBrute(h *hull.Hull, k K, r geom.Mat3, t geom.Vec3) DOP {
	set, base := hullDOPSetup(h, k, r, t)
	d := Empty(k)
	if h.Len() == 0 {
		return d
	}
	pose := geom.Pose{R: r, T: t}
	var pr [MaxSlabs]float64
	for v := range h.Len() {
		k.Project(pose.Apply(h.Vertex(v)), &pr)
		for i := range set {
			d.Lo[i] = min(d.Lo[i], pr[i])
			d.Hi[i] = max(d.Hi[i], pr[i])
		}
	}
	for i, di := range set {
		_, m := hullDir(di, &r)
		pad := m*base + 0x1p-1000
		d.Hi[i] = hullUp(d.Hi[i], pad)
		d.Lo[i] = hullDown(d.Lo[i], pad)
	}
	return d
}

// Error bound of HullDOP and HullDOPBrute.
//
// Let u = 2⁻⁵³, γₙ = nu/(1-nu), d a slab direction with m = |d|₁ ∈ {1,2,3}
// (entries in {-1, 0, 1}), |r_ij| ≤ ρ, |t_j| ≤ τ and |x_j| ≤ M for every input
// point x (the largest |x_j| over the input is reached at a hull vertex, as
// |x_j| is convex). Write q(x) for the computed slab value
// k.Project(Apply(x))[i] and ĝ = Rᵀd (exact), so that d·(Rx + t) = ĝ·x + d·t.
//
// Apply: y_j = fl(fl(fl(r_j0·x_0) + fl(r_j1·x_1)) + fl(r_j2·x_2)) + t_j),
// each product term rounded at most 4 times and t_j once, so
// |y_j - (r_j·x + t_j)| ≤ γ₄(3ρM + τ) and |y_j| ≤ (1+γ₄)(3ρM + τ).
// Project adds m of the ±y_j with m-1 ≤ 2 roundings:
// |q(x) - d·y| ≤ γ₂·m·(1+γ₄)(3ρM + τ). Together
//
//	E₁ = |q(x) - (ĝ·x + d·t)| ≤ m(3ρM + τ)(γ₄ + γ₂(1+γ₄)) ≤ 6.01u·m(3ρM + τ).
//
// hullDir computes g_j = fl(Σ_i d_i r_ij): the products are exact and at most
// m-1 ≤ 2 sums round, so |g_j - ĝ_j| ≤ γ₂·m·ρ. h.Extreme returns p*, an
// exact maximiser of g·x over the hull, hence over the input. For any input
// point x, as g·(x - p*) ≤ 0 and |x_j - p*_j| ≤ 2M,
//
//	q(x) - q(p*) ≤ g·(x-p*) + (ĝ-g)·(x-p*) + 2E₁
//	            ≤ 3·γ₂mρ·2M + 12.02u·m(3ρM + τ) ≤ u·m·(48.1ρM + 12.1τ).
//
// The bound is then fl(q(p*) + pad), which loses at most
// u·|q(p*) + pad| ≤ 1.01u·m(3ρM + τ) more, so pad must exceed
// u·m·(51.2ρM + 13.2τ). pad = m·2⁻⁴⁸·(3ρM + τ) = u·m·(96ρM + 32τ) does, with
// a margin of more than 1.8 that also absorbs the few roundings of pad
// itself. Underflow adds at most 2⁻¹⁰⁷⁵ per product (sums that underflow are
// exact), a few times 2⁻¹⁰⁷⁵ in all, which the constant 2⁻¹⁰⁰⁰ covers. The
// minimum side is symmetric (climb on -g). HullDOPBrute takes max over the
// vertices of q(v) ≥ q(p*), so the same pad covers it, and the two results
// differ by at most pad. If anything overflows, hullUp and hullDown turn a
// NaN bound into ±Inf, which stays conservative.

// hullDOPSetup returns the directions of k and the slab-independent factor
// 2⁻⁴⁸·(3ρM + τ) of the pad.
func hullDOPSetup(h *hull.Hull, k K, r geom.Mat3, t geom.Vec3) ([]int, float64) {
	set, ok := sets[k]
	if !ok {
		panic("bv: HullDOP with unsupported " + k.String())
	}
	rho := 0.0
	for i := range 3 {
		for j := range 3 {
			rho = max(rho, math.Abs(r[i][j]))
		}
	}
	tau := max(math.Abs(t.X), math.Abs(t.Y), math.Abs(t.Z))
	return set, 0x1p-48 * (3*rho*h.MaxAbs() + tau)
}

// hullDir returns g = Rᵀd for direction di of the table, rounded (see the
// error bound), and m = |d|₁.
func hullDir(di int, r *geom.Mat3) (geom.Vec3, float64) {
	d := dirs[di]
	dx, dy, dz := float64(d[0]), float64(d[1]), float64(d[2])
	g := geom.Vec3{
		X: dx*r[0][0] + dy*r[1][0] + dz*r[2][0],
		Y: dx*r[0][1] + dy*r[1][1] + dz*r[2][1],
		Z: dx*r[0][2] + dy*r[1][2] + dz*r[2][2],
	}
	return g, math.Abs(dx) + math.Abs(dy) + math.Abs(dz)
}

// hullUp returns q + pad, or +Inf if that is NaN.
func hullUp(q, pad float64) float64 {
	if s := q + pad; s == s {
		return s
	}
	return math.Inf(1)
}

// hullDown returns q - pad, or -Inf if that is NaN.
func hullDown(q, pad float64) float64 {
	if s := q - pad; s == s {
		return s
	}
	return math.Inf(-1)
}
