package shape

import (
	"math"

	"github.com/collide3d/collide/geom"
)

// The cylinder test.
//
// Let M = t ⊕ (−path) = conv{m_k}, m_k = t_j − p_i (k = 3i + j): the swept
// cylinder meets t iff M holds a point m with z0 ≤ m.Z ≤ z1 and
// m.X² + m.Y² ≤ r² (m = x − p for the shared point x and the position p).
// With the slab L = {z0 ≤ z ≤ z1}, M ∩ L = conv(S), where S holds
//
//   - every m_k in L, and
//   - every crossing with the plane z = z0 (or z = z1) of a segment [m_k,
//     m_l] of the list minkEdges whose end points are strictly on opposite
//     sides of that plane.
//
// Proof. S ⊂ M ∩ L, so conv(S) ⊂ M ∩ L. Conversely every vertex x of the
// polytope M ∩ L is in S: x lies in the relative interior of a unique face
// F of M; if F is a vertex, it is an m_k in L. Otherwise x is a vertex of
// F ∩ L in the relative interior of F, so the slab's constraints cut F down
// to a point at x; one plane lowers the dimension by at most one (z0 = z1 is
// one plane), so F is an edge of M crossing that plane at x with its ends
// strictly on either side. An edge of a Minkowski sum A ⊕ B is the face of
// some direction, F_A ⊕ F_B: a vertex plus an edge, or two parallel edges
// [a0, a1] ⊕ [b0, b1] = [a0+b0, a1+b0] ∪ [a1+b0, a1+b1]. Every edge of t
// and of the path (degenerate hulls included) is one of the segments between
// two of its three points, so F is the union of at most two segments of
// minkEdges (an edge of t plus a point of the path, a point of t plus an
// edge of the path), and x is a strict crossing of one of them or their
// common end point, an m_k in L. ∎
//
// So the test is: S ≠ ∅ and dist((0,0), conv(S_xy)) ≤ r. The classification
// of each m_k against z0 and z1 is exact (zSign), hence so is the set S (as
// a set of exact points): S = ∅ is a proven miss.
//
// Fast path: S̃ (float) and a float 2D GJK propose the closest point of
// conv(S̃_xy) as a convex combination of up to three points of S. A hit is
// certified by that combination of the exact points of S (cylWitness,
// provenLE): it is a point of M ∩ L. A miss is certified by a separating
// direction n = (w, n_z) (gapPos), with w the 2D closest point and n_z from
// a one-dimensional LP (cylTilt): by LP duality, min{w·m_xy : m ∈ M ∩ L} =
// max over n_z of min_k (w, n_z)·m_k − max(n_z z0, n_z z1), so a vertical
// plane that separates the slab's part of M from the disk tilts into a
// plane separating all of M from the cylinder.

// minkEdges lists the segments [m_k, m_l] whose crossings make S, for a path
// of 1, 2 or 3 points: each edge of t at each path point, each point of t
// along each edge of the path.
var minkEdges = [4][][2]int8{
	1: {{0, 1}, {1, 2}, {2, 0}},
	2: {{0, 1}, {1, 2}, {2, 0}, {3, 4}, {4, 5}, {5, 3}, {0, 3}, {1, 4}, {2, 5}},
	3: {{0, 1}, {1, 2}, {2, 0}, {3, 4}, {4, 5}, {5, 3}, {6, 7}, {7, 8}, {8, 6},
		{0, 3}, {1, 4}, {2, 5}, {3, 6}, {4, 7}, {5, 8}, {6, 0}, {7, 1}, {8, 2}},
}

// spt is a point of S̃: a vertex m_k (l < 0) or the crossing of [m_k, m_l]
// with the plane z0 (pl = 0) or z1 (pl = 1).
type spt struct {
	x, y float64
	k, l int8
	pl   int8
}

// cylCtx is the fast path's state.
type cylCtx struct {
	m      [9]geom.Vec3 // m̃_k = fl(t_j − p_i)
	lo, hi [9]int8      // exact signs of m_k.Z − z0, m_k.Z − z1
	K      int
}

// cylFast is the float fast path of Cylinder (inputs in fastRange, box
// filter passed).
func cylFast(q *[3]geom.Vec3, n int, r, z0, z1 float64, t *geom.Triangle, h *hint) verdict {
	var c cylCtx
	var buf [45]spt
	S := c.build(q, n, z0, z1, t, buf[:0])
	if len(S) == 0 {
		return miss // M ∩ L = ∅, exactly
	}
	g := closest2(S)
	if h != nil {
		for i := range g.n {
			h.add(g.idx[i])
		}
	}
	// Hit: the combination of exact points of S.
	x, y, e := c.witness(S, &g, z0, z1)
	nv := math.Sqrt(float64(x*x) + float64(y*y))
	if provenLE(nv, e, r) {
		return hit
	}
	vv := float64(g.vx*g.vx) + float64(g.vy*g.vy)
	if !(vv > float64(r*r)) {
		return unsure
	}
	// Miss: w = the 2D closest point, tilted by n_z.
	wn := math.Sqrt(vv)
	target := 0.5 * (float64(r*wn) + vv) // between r|w| and min w·S ≈ |w|²
	nz, ok := c.tilt(g.vx, g.vy, target, z0, z1)
	if !ok {
		return unsure
	}
	hz := float64(nz * z1)
	if nz < 0 {
		hz = float64(nz * z0)
	}
	if gapPos(q, n, t, geom.Vec3{X: g.vx, Y: g.vy, Z: nz}, hz, r*wn) {
		return miss
	}
	return unsure
}

// build fills c with m̃_k and the exact classifications, and appends S̃ to S.
func (c *cylCtx) build(q *[3]geom.Vec3, n int, z0, z1 float64, t *geom.Triangle, S []spt) []spt {
	c.K = 3 * n
	for i := range n {
		for j := range 3 {
			k := 3*i + j
			m := t[j].Sub(q[i])
			c.m[k] = m
			c.lo[k] = int8(zSign(t[j].Z, q[i].Z, m.Z, z0))
			c.hi[k] = int8(zSign(t[j].Z, q[i].Z, m.Z, z1))
		}
	}
	for k := range c.K {
		if c.lo[k] >= 0 && c.hi[k] <= 0 {
			S = append(S, spt{x: c.m[k].X, y: c.m[k].Y, k: int8(k), l: -1})
		}
	}
	for _, e := range minkEdges[n] {
		a, b := e[0], e[1]
		if c.lo[a]*c.lo[b] < 0 {
			x, y := c.cross(a, b, z0)
			S = append(S, spt{x: x, y: y, k: a, l: b, pl: 0})
		}
		if c.hi[a]*c.hi[b] < 0 {
			x, y := c.cross(a, b, z1)
			S = append(S, spt{x: x, y: y, k: a, l: b, pl: 1})
		}
	}
	return S
}

// cross returns the computed crossing of [m̃_a, m̃_b] with the plane z = zp.
func (c *cylCtx) cross(a, b int8, zp float64) (x, y float64) {
	ma, mb := c.m[a], c.m[b]
	tau := min(max((zp-ma.Z)/(mb.Z-ma.Z), 0), 1)
	return ma.X + float64(tau*(mb.X-ma.X)), ma.Y + float64(tau*(mb.Y-ma.Y))
}

// sErr returns per-coordinate bounds on |s̃ − s| for a point of S.
//
// A vertex: s̃ = fl(t_j − p_i), within u|s̃| ≤ 2⁻⁵²|s̃|.
//
// A crossing of [a, b] (exact m_a, m_b; computed ã, b̃, each within u|·|)
// with z = zp, exactly at τ = num/den ∈ (0, 1), num = zp − a_z,
// den = b_z − a_z. Computed: ñ = fl(zp − ã_z), within en = u|ã_z| + u|ñ|;
// d̃ = fl(b̃_z − ã_z), within ed = u(|ã_z| + |b̃_z|) + u|d̃|; then
// ñ/d̃ − num/den = (Δn − τΔd)/d̃, so with τ̃ = fl(ñ/d̃) clamped to [0, 1]
// (clamping only moves toward τ), |τ̃ − τ| ≤ eτ = u|τ̃| + (en + ed)/|d̃|.
// Per coordinate, with Δ̃ = fl(b̃_c − ã_c) (within eΔ = u(|ã_c| + |b̃_c|)
// + u|Δ̃|) and s̃_c = fl(ã_c + fl(τ̃Δ̃)):
// |s̃_c − s_c| ≤ u|ã_c| + eτ|Δ̃| + |τ|eΔ + u|τ̃Δ̃| + u|s̃_c|. The bound
// used doubles every constant: eτ' = 2⁻⁵¹(|τ̃| + (|ã_z| + |b̃_z| + |ñ| +
// |d̃|)/|d̃|), err_c = eτ'(|Δ̃|) + 2⁻⁵⁰(|ã_c| + |b̃_c| + |Δ̃| + |s̃_c|).
// A zero or tiny d̃ makes the bound infinite or NaN: the check then fails.
func (c *cylCtx) sErr(p *spt, z0, z1 float64) (ex, ey float64) {
	if p.l < 0 {
		return 0x1p-52 * math.Abs(p.x), 0x1p-52 * math.Abs(p.y)
	}
	zp := z0
	if p.pl == 1 {
		zp = z1
	}
	ma, mb := c.m[p.k], c.m[p.l]
	num, den := zp-ma.Z, mb.Z-ma.Z
	tau := min(max(num/den, 0), 1)
	et := 0x1p-51 * (tau + (math.Abs(ma.Z)+math.Abs(mb.Z)+math.Abs(num)+math.Abs(den))/math.Abs(den))
	dx, dy := mb.X-ma.X, mb.Y-ma.Y
	ex = et*math.Abs(dx) + 0x1p-50*(math.Abs(ma.X)+math.Abs(mb.X)+math.Abs(dx)+math.Abs(p.x)) + eta
	ey = et*math.Abs(dy) + 0x1p-50*(math.Abs(ma.Y)+math.Abs(mb.Y)+math.Abs(dy)+math.Abs(p.y)) + eta
	return ex, ey
}

// witness returns the computed point x̃ = s̃_a + σ(s̃_b − s̃_a) + ρ(s̃_c − s̃_a)
// of the GJK simplex (σ, ρ fixed exactly into the simplex, so the exact
// combination x of the exact points is in conv(S)) and e ≥ |x − x̃|.
//
// Per coordinate: |x̃ − x| ≤ e_a + σ(e_a + e_b) + ρ(e_a + e_c) plus the
// roundings of the two differences (uσ|d̃_b|, uρ|d̃_c|), of the two products
// and of the two sums (≤ 2.01u(|s̃_a| + σ|d̃_b| + ρ|d̃_c|)): we use
// 2⁻⁴⁹ = 16u times that sum.
func (c *cylCtx) witness(S []spt, g *gjk, z0, z1 float64) (x, y, e float64) {
	a := &S[g.idx[0]]
	b, cc := a, a
	if g.n > 1 {
		b = &S[g.idx[1]]
	}
	if g.n > 2 {
		cc = &S[g.idx[2]]
	}
	s, r := g.lam[1], g.lam[2]
	if g.n < 3 {
		r = 0
	}
	if g.n < 2 {
		s = 0
	}
	s, r = fixParams(s, r)
	dbx, dby := b.x-a.x, b.y-a.y
	dcx, dcy := cc.x-a.x, cc.y-a.y
	x = a.x + float64(s*dbx) + float64(r*dcx)
	y = a.y + float64(s*dby) + float64(r*dcy)
	eax, eay := c.sErr(a, z0, z1)
	ebx, eby := c.sErr(b, z0, z1)
	ecx, ecy := c.sErr(cc, z0, z1)
	ex := eax + s*(eax+ebx) + r*(eax+ecx) + 0x1p-49*(math.Abs(a.x)+s*math.Abs(dbx)+r*math.Abs(dcx))
	ey := eay + s*(eay+eby) + r*(eay+ecy) + 0x1p-49*(math.Abs(a.y)+s*math.Abs(dby)+r*math.Abs(dcy))
	return x, y, (ex + ey) * (1 + 0x1p-50)
}

// tilt returns n_z such that (w, n_z)·m_k − max(n_z z0, n_z z1) > target for
// every vertex m̃_k, if the float computation finds one: a one-dimensional
// LP whose feasible set, on each side of n_z = 0, is an interval. (Only a
// proposal: gapPos checks it.)
func (c *cylCtx) tilt(wx, wy, target, z0, z1 float64) (float64, bool) {
	var cs [9]float64
	all := true
	for k := range c.K {
		cs[k] = float64(wx*c.m[k].X) + float64(wy*c.m[k].Y) - target
		all = all && cs[k] > 0
	}
	if all {
		return 0, true
	}
	for _, side := range [2]float64{1, -1} {
		zp := z1
		if side < 0 {
			zp = z0
		}
		lo, hi, ok := 0.0, math.Inf(1), true
		for k := range c.K {
			// cs + side·κ·(m_z − zp) > 0 with n_z = side·κ, κ ≥ 0.
			b := side * (c.m[k].Z - zp)
			switch {
			case b > 0:
				if cs[k] <= 0 {
					lo = max(lo, -cs[k]/b)
				}
			case b < 0:
				if cs[k] <= 0 {
					ok = false
				} else {
					hi = min(hi, cs[k]/-b)
				}
			default:
				ok = ok && cs[k] > 0
			}
		}
		if !ok || !(lo < hi) {
			continue
		}
		kappa := 2 * lo
		if !math.IsInf(hi, 1) {
			kappa = 0.5 * (lo + hi)
		}
		return side * kappa, true
	}
	return 0, false
}

// gjk is the result of closest2: the closest point (vx, vy) of the hull as
// the combination Σ lam[i]·S[idx[i]] of n ≤ 3 points.
type gjk struct {
	idx    [3]int
	lam    [3]float64
	n      int
	vx, vy float64
}

// closest2 returns a float approximation of the point of conv(S) closest to
// the origin (2D GJK with a brute-force simplex step).
func closest2(S []spt) gjk {
	var g gjk
	bd := math.Inf(1)
	for k := range S {
		if d := float64(S[k].x*S[k].x) + float64(S[k].y*S[k].y); d < bd {
			bd, g.idx[0] = d, k
		}
	}
	g.n, g.lam[0] = 1, 1
	g.vx, g.vy = S[g.idx[0]].x, S[g.idx[0]].y
	vv := bd
	for range 32 {
		if vv == 0 {
			break
		}
		w, vw := -1, math.Inf(1)
		for k := range S {
			if d := float64(g.vx*S[k].x) + float64(g.vy*S[k].y); d < vw {
				w, vw = k, d
			}
		}
		if vv-vw <= 0x1p-40*vv {
			break
		}
		dup := false
		for i := range g.n {
			dup = dup || g.idx[i] == w
		}
		if dup {
			break
		}
		ng := reduce(S, &g, w)
		nvv := float64(ng.vx*ng.vx) + float64(ng.vy*ng.vy)
		if !(nvv < vv) {
			break
		}
		g, vv = ng, nvv
	}
	return g
}

// reduce returns the closest point of conv(simplex ∪ {w}) and its minimal
// support (float, brute force over the sub-simplices).
func reduce(S []spt, g *gjk, w int) gjk {
	var pts [3]int
	copy(pts[:], g.idx[:g.n])
	pts[g.n] = w
	m := g.n + 1
	best := gjk{vx: math.Inf(1), vy: 0}
	bd := math.Inf(1)
	consider := func(c gjk) {
		if d := float64(c.vx*c.vx) + float64(c.vy*c.vy); d < bd {
			best, bd = c, d
		}
	}
	if m == 3 {
		a, b, c := &S[pts[0]], &S[pts[1]], &S[pts[2]]
		// Origin inside the triangle: barycentric coordinates.
		area := float64((b.x-a.x)*(c.y-a.y)) - float64((b.y-a.y)*(c.x-a.x))
		la := float64(b.x*c.y) - float64(b.y*c.x) // 2·area(0, b, c)
		lb := float64(c.x*a.y) - float64(c.y*a.x)
		lc := float64(a.x*b.y) - float64(a.y*b.x)
		if area != 0 && la/area >= 0 && lb/area >= 0 && lc/area >= 0 {
			return gjk{idx: pts, lam: [3]float64{la / area, lb / area, lc / area}, n: 3}
		}
	}
	for i := range m {
		for j := i + 1; j < m; j++ {
			consider(seg2(S, pts[i], pts[j]))
		}
	}
	return best
}

// seg2 returns the closest point to the origin of the segment [S[i], S[j]].
func seg2(S []spt, i, j int) gjk {
	a, b := &S[i], &S[j]
	dx, dy := b.x-a.x, b.y-a.y
	dd := float64(dx*dx) + float64(dy*dy)
	t := 0.0
	if dd > 0 {
		t = -(float64(a.x*dx) + float64(a.y*dy)) / dd
	}
	switch {
	case !(t > 0):
		return gjk{idx: [3]int{i}, lam: [3]float64{1}, n: 1, vx: a.x, vy: a.y}
	case t >= 1:
		return gjk{idx: [3]int{j}, lam: [3]float64{1}, n: 1, vx: b.x, vy: b.y}
	}
	return gjk{idx: [3]int{i, j}, lam: [3]float64{1 - t, t}, n: 2, vx: a.x + float64(t*dx), vy: a.y + float64(t*dy)}
}
