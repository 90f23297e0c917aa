package bv

import (
	"cmp"
	"math"
	"math/big"
	"math/rand/v2"
	"slices"

	"github.com/collide3d/collide/geom"
)

// Hull is the convex hull of a point set, kept as the graph of its vertices
// and edges, for computing the k-DOP of the rotated point set by hill
// climbing (Klosowski et al., QuickCD).
//
// The vertices are the extreme points of the set only: a point on an edge or
// in a face of the hull is not a vertex, and the neighbours of a vertex are
// the ends of the hull edges at it (the edges of the polytope, not of a
// triangulation of its faces). On this graph every linear function that is
// not maximal at a vertex increases strictly along some edge from it, so
// climbing from any vertex ends at a maximiser.
//
// A flat point set has the convex polygon as its hull, each vertex adjacent
// to its two polygon neighbours; a collinear set has its two extreme points,
// adjacent to each other; a single point (possibly repeated) has one vertex
// and no edge; the empty set has no vertex. Every topological decision is
// taken with the exact predicates geom.Orient3D and geom.Orient2D.
type Hull struct {
	verts  []geom.Vec3
	index  []int32 // index of each vertex in the input
	off    []int32 // neighbours of vertex i: nbr[off[i]:off[i+1]]
	nbr    []int32
	dim    int
	maxAbs float64 // largest |coordinate| of the input (of the vertices)
}

// NewHull returns the convex hull of pts. Points with a NaN or infinite
// coordinate are ignored; duplicates are allowed. It runs in expected
// O(n log n) time: randomized incremental construction in a fixed
// pseudo-random order (so the result is deterministic), each pending point
// remembering one hull face it sees, with exact orientation tests throughout.
// It panics if pts has 2³¹ or more points.
func NewHull(pts []geom.Vec3) *Hull {
	h, _ := buildHull(pts, false)
	return h
}

// Len returns the number of hull vertices.
func (h *Hull) Len() int { return len(h.verts) }

// Vertex returns hull vertex i (0 ≤ i < Len()), a copy of an input point.
func (h *Hull) Vertex(i int) geom.Vec3 { return h.verts[i] }

// Index returns the position in the input of NewHull of hull vertex i.
func (h *Hull) Index(i int) int { return int(h.index[i]) }

// Neighbors returns the hull vertices joined to vertex i by a hull edge. The
// slice is shared with h and must not be modified.
func (h *Hull) Neighbors(i int) []int32 { return h.nbr[h.off[i]:h.off[i+1]] }

// Dim returns the affine dimension of the point set: 3 for a solid hull, 2
// when the points are coplanar, 1 when collinear, 0 for a single (possibly
// repeated) point and -1 when there is no point.
func (h *Hull) Dim() int { return h.dim }

// ClimbState holds, for one caller of Hull.DOP, the hull vertex found
// extremal on each side of each slab by the last call, where the next call
// starts climbing. The zero value starts every climb at vertex 0. A state can
// be carried across calls with different K or a different Hull: the climb is
// then merely longer.
type ClimbState struct {
	v [2 * MaxSlabs]int32 // 2i: maximiser of slab i, 2i+1: minimiser
}

// DOP returns the k-DOP of the hull vertices moved by the pose x ↦ R·x + t,
// computed as geom.Pose{R: r, T: t}.Apply, and the number of vertex moves the
// hill climbing made. It starts each climb from the vertices stored in st
// and stores the new extremal vertices there; st may be nil (start from
// vertex 0). It does not allocate.
//
// The result is conservative: for every point p given to NewHull (not only
// the vertices), k.Project of Pose{R: r, T: t}.Apply(p) lies in every slab,
// whatever the rounding. Each slab is the projection of an exact maximiser
// (minimiser) of the linear function g·x over the input, g = Rᵀd_i rounded,
// widened by pad_i = |d_i|₁·2⁻⁴⁸·(3ρM + τ) + 2⁻¹⁰⁰⁰, ρ the largest |r_ij|,
// M the largest |coordinate| of the input and τ the largest |t_j|; see the
// comment in the code for the proof. The empty hull gives Empty(k).
// DOP panics if k is not a supported direction set.
func (h *Hull) DOP(k K, r geom.Mat3, t geom.Vec3, st *ClimbState) (d DOP, steps int) {
	set, base := h.dopSetup(k, r, t)
	d = Empty(k)
	n := int32(len(h.verts))
	if n == 0 {
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
		hi, lo := st.v[2*i], st.v[2*i+1]
		if hi < 0 || hi >= n {
			hi = 0
		}
		if lo < 0 || lo >= n {
			lo = 0
		}
		var s int
		hi, s = h.climb(g, hi)
		steps += s
		lo, s = h.climb(g.Neg(), lo)
		steps += s
		st.v[2*i], st.v[2*i+1] = hi, lo
		pad := m*base + 0x1p-1000
		k.Project(pose.Apply(h.verts[hi]), &pr)
		d.Hi[i] = hullUp(pr[i], pad)
		k.Project(pose.Apply(h.verts[lo]), &pr)
		d.Lo[i] = hullDown(pr[i], pad)
	}
	return d, steps
}

// DOPBrute returns the k-DOP of the hull vertices moved by x ↦ R·x + t like
// DOP, with the same padding, by projecting every vertex. It is the
// reference for DOP and a fallback for hulls too small to climb on.
func (h *Hull) DOPBrute(k K, r geom.Mat3, t geom.Vec3) DOP {
	set, base := h.dopSetup(k, r, t)
	d := Empty(k)
	if len(h.verts) == 0 {
		return d
	}
	pose := geom.Pose{R: r, T: t}
	var pr [MaxSlabs]float64
	for _, x := range h.verts {
		k.Project(pose.Apply(x), &pr)
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

// Error bound of DOP and DOPBrute.
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
// m-1 ≤ 2 sums round, so |g_j - ĝ_j| ≤ γ₂·m·ρ. The climb returns p*, an
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
// minimum side is symmetric (climb on -g). DOPBrute takes max over the
// vertices of q(v) ≥ q(p*), so the same pad covers it, and the two results
// differ by at most pad. If anything overflows, hullUp and hullDown turn a
// NaN bound into ±Inf, which stays conservative.

// dopSetup returns the directions of k and the slab-independent factor
// 2⁻⁴⁸·(3ρM + τ) of the pad.
func (h *Hull) dopSetup(k K, r geom.Mat3, t geom.Vec3) ([]int, float64) {
	set, ok := sets[k]
	if !ok {
		panic("bv: Hull.DOP with unsupported " + k.String())
	}
	rho := 0.0
	for i := range 3 {
		for j := range 3 {
			rho = max(rho, math.Abs(r[i][j]))
		}
	}
	tau := max(math.Abs(t.X), math.Abs(t.Y), math.Abs(t.Z))
	return set, 0x1p-48 * (3*rho*h.maxAbs + tau)
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

func hullUp(q, pad float64) float64 {
	if s := q + pad; s == s {
		return s
	}
	return math.Inf(1)
}

func hullDown(q, pad float64) float64 {
	if s := q - pad; s == s {
		return s
	}
	return math.Inf(-1)
}

// climb moves from vertex v to a neighbour w with g·w > g·v (exactly) until
// there is none, and returns the last vertex and the number of moves. Among
// the improving neighbours it takes the one of largest float estimate of
// g·(w - v) (steepest ascent). Each move strictly increases g·v, so it ends;
// with ties it stops at the first vertex no neighbour improves on, which is a
// maximiser since the hull graph has no other local maximum.
//
// Filter: the computed f(x) = g.Dot(x) (three rounded products, two rounded
// sums) is within γ₃·Σ|g_j x_j| ≤ γ₃|g|₁M of g·x, γ₃ = 3u/(1-3u), plus at
// most 3·2⁻¹⁰⁷⁵ if products underflow. If the computed δ = f(w) - f(v) is
// finite (nothing overflowed) and δ > B = 8u|g|₁M + 2⁻¹⁰⁶⁰, then
// g·(w-v) ≥ δ/(1+u) - 2γ₃|g|₁M - 6·2⁻¹⁰⁷⁵ > 0 (8 > 6(1+u)/(1-3u) leaves room
// for the rounding of B itself); symmetrically δ < -B means g·(w-v) < 0.
// Otherwise hullDotSign decides.
func (h *Hull) climb(g geom.Vec3, v int32) (int32, int) {
	bound := 8*0x1p-53*(math.Abs(g.X)+math.Abs(g.Y)+math.Abs(g.Z))*h.maxAbs + 0x1p-1060
	steps := 0
	x := h.verts[v]
	fv := g.Dot(x)
	for {
		best, bestD := int32(-1), 0.0
		for _, w := range h.nbr[h.off[v]:h.off[v+1]] {
			y := h.verts[w]
			d := g.Dot(y) - fv
			switch {
			case d > bound && d <= math.MaxFloat64:
				if best < 0 || d > bestD {
					best, bestD = w, d
				}
			case d < -bound && d >= -math.MaxFloat64:
			case best < 0:
				if s, _ := hullDotSign(g, y, x); s > 0 {
					best, bestD = w, d
				}
			}
		}
		if best < 0 {
			return v, steps
		}
		v = best
		x = h.verts[v]
		fv = g.Dot(x)
		steps++
	}
}

// Exact sign of g·(w - v).
//
// Fast path: with d_j = fl(w_j - v_j) and t_j = fl(g_j·d_j), the computed
// s = fl(fl(t_0 + t_1) + t_2) carries every exact term g_j(w_j - v_j) with a
// relative perturbation of at most (1+u)⁴ - 1 (one difference, one product,
// at most two sums), so |s - S| ≤ 4.01u·Σ|g_j(w_j - v_j)|. The computed
// P = fl(|t_0| + |t_1| + |t_2|) is at least (1-u)²(1-2u-u²) ≥ 1-5u times that
// sum, so |s - S| < 5u·P, and |s| > 8u·P fixes the sign of S. Underflow adds
// at most a few 2⁻¹⁰⁷⁵, negligible against 8u·P when P ≥ 2⁻⁹⁰⁰ (else we
// take the exact path); overflow makes s or P infinite or NaN, which fails
// the test and takes the exact path too.
const (
	hullDotBound = 8 * 0x1p-53
	hullDotTiny  = 0x1p-900
)

// hullDotSign returns the sign of g·(w - v), exactly, and a float estimate of
// the value.
func hullDotSign(g, w, v geom.Vec3) (int, float64) {
	tx := float64(g.X * (w.X - v.X))
	ty := float64(g.Y * (w.Y - v.Y))
	tz := float64(g.Z * (w.Z - v.Z))
	s := tx + ty + tz
	p := math.Abs(tx) + math.Abs(ty) + math.Abs(tz)
	if p >= hullDotTiny && math.Abs(s) > hullDotBound*p {
		if s > 0 {
			return 1, s
		}
		return -1, s
	}
	return hullDotSignExact(g, w, v), s
}

// hullDotSignExact returns the sign of g·(w - v) = Σ g_j·w_j - Σ g_j·v_j,
// exactly, or 0 for non-finite inputs. g and the points are scaled by
// powers of two (which keeps the sign) so that their largest magnitudes lie
// in [1, 2); if then every non-zero input is at least 2⁻⁴⁸⁰, every product
// a·b is split exactly into fl(a·b) and its FMA error (the exponents add to
// at least -960 ≥ -1022 + 52, and nothing overflows) and the parts are summed
// into a nonoverlapping expansion (Shewchuk's Grow-Expansion), whose sign is
// that of its largest component; otherwise math/big decides.
func hullDotSignExact(g, w, v geom.Vec3) int {
	gs := [3]float64{g.X, g.Y, g.Z}
	xs := [6]float64{w.X, w.Y, w.Z, v.X, v.Y, v.Z}
	if !hullScale(gs[:]) || !hullScale(xs[:]) {
		return hullDotSignBig(g, w, v)
	}
	var e hullExpansion
	for j := range 3 {
		e.addProd(gs[j], xs[j])
		e.addProd(-gs[j], xs[3+j])
	}
	return e.sign()
}

// hullScale multiplies xs by the power of two that brings the largest |x|
// into [1, 2), and reports whether every non-zero result is then at least
// 2⁻⁴⁸⁰ (and so exact). It reports false for non-finite inputs.
func hullScale(xs []float64) bool {
	hi := 0.0
	for _, x := range xs {
		a := math.Abs(x)
		if !(a <= math.MaxFloat64) {
			return false
		}
		hi = max(hi, a)
	}
	if hi == 0 {
		return true
	}
	e := -math.Ilogb(hi)
	for i, x := range xs {
		if x != 0 {
			xs[i] = math.Ldexp(x, e)
			if math.Abs(xs[i]) < 0x1p-480 {
				return false
			}
		}
	}
	return true
}

// hullExpansion is a nonoverlapping sum of floats in increasing magnitude.
type hullExpansion struct {
	n int
	c [12]float64
}

func (e *hullExpansion) add(b float64) {
	if b == 0 {
		return
	}
	q, k := b, 0
	for i := 0; i < e.n; i++ {
		a := e.c[i]
		s := q + a
		bv := s - q
		av := s - bv
		h := (q - av) + (a - bv)
		q = s
		if h != 0 {
			e.c[k] = h
			k++
		}
	}
	if q != 0 {
		e.c[k] = q
		k++
	}
	e.n = k
}

// addProd adds a·b exactly.
func (e *hullExpansion) addProd(a, b float64) {
	p := float64(a * b)
	e.add(math.FMA(a, b, -p))
	e.add(p)
}

func (e *hullExpansion) sign() int {
	for i := e.n - 1; i >= 0; i-- {
		if e.c[i] > 0 {
			return 1
		}
		if e.c[i] < 0 {
			return -1
		}
	}
	return 0
}

func hullDotSignBig(g, w, v geom.Vec3) int {
	if !g.IsFinite() || !w.IsFinite() || !v.IsFinite() {
		return 0 // outside the contract
	}
	rat := func(x float64) *big.Rat { return new(big.Rat).SetFloat64(x) }
	s := new(big.Rat)
	t := new(big.Rat)
	for j, gj := range [3]float64{g.X, g.Y, g.Z} {
		t.Sub(rat(w.Index(j)), rat(v.Index(j)))
		t.Mul(t, rat(gj))
		s.Add(s, t)
	}
	return s.Sign()
}

// Construction.

// hullFace is a triangle of the incremental hull, oriented counterclockwise
// seen from outside: Orient3D(v0, v1, v2, p) > 0 iff p sees it. adj[i] is the
// face across the edge v[i] → v[i+1].
type hullFace struct {
	p    [3]geom.Vec3 // the corners, copied for locality
	v    [3]int32
	adj  [3]int32
	head int32 // first pending point that sees this face, -1 if none
	mark int32 // insertion round of the last visibility test
	vis  bool  // result of that test
	dead bool
}

// hullHorizon is an edge a → b of a visible face whose neighbour g (across
// it, through g's edge j) is not visible.
type hullHorizon struct {
	a, b, g int32
	j       int8
}

type hullBuilder struct {
	pts     []geom.Vec3 // the finite points, simplex first, then in insertion order
	orig    []int32     // their indices in the input
	faces   []hullFace
	free    []int32
	faceOf  []int32 // per point: face it sees, or hullInside / hullVertex
	next    []int32 // per point: next point in the same face's list
	startAt []int32 // per point: new face whose horizon edge starts there
	epoch   int32

	stack, visible, orphans, newFaces []int32
	horizon                           []hullHorizon
}

const (
	hullInside = -1 // inside or on the hull, or ignored
	hullVertex = -2 // inserted
)

// buildHull computes the hull of pts and, if withTris, the triangles of the
// incremental hull (for a solid hull), as indices into pts, oriented
// outward.
func buildHull(pts []geom.Vec3, withTris bool) (*Hull, [][3]int32) {
	if len(pts) >= math.MaxInt32 {
		panic("bv: NewHull with 2³¹ or more points")
	}
	ids := make([]int32, 0, len(pts))
	for i, p := range pts {
		if p.IsFinite() {
			ids = append(ids, int32(i))
		}
	}
	h := &Hull{dim: -1}
	if len(ids) == 0 {
		h.off = []int32{0}
		return h, nil
	}
	// The initial simplex: far-apart points make it well shaped, but only
	// the exact tests decide.
	p0 := ids[0]
	for _, i := range ids {
		if hullLess(pts[i], pts[p0]) {
			p0 = i
		}
	}
	a := pts[p0]
	p1, best := int32(-1), 0.0
	for _, i := range ids {
		x := pts[i]
		if d := math.Abs(x.X-a.X) + math.Abs(x.Y-a.Y) + math.Abs(x.Z-a.Z); d > best {
			p1, best = i, d
		}
	}
	if p1 < 0 {
		h.dim = 0
		h.setVertices(pts, []int32{p0}, []int32{0, 0}, nil)
		return h, nil
	}
	// Scaled copies for the float estimates, which must not overflow.
	m := 0.0
	for _, i := range ids {
		m = max(m, math.Abs(pts[i].X), math.Abs(pts[i].Y), math.Abs(pts[i].Z))
	}
	sc := math.Ldexp(1, -math.Ilogb(m))
	sa, sb := a.Scale(sc), pts[p1].Scale(sc)
	u := sb.Sub(sa)
	p2, best := int32(-1), 0.0
	for _, i := range ids {
		if c := u.Cross(pts[i].Scale(sc).Sub(sa)).Abs(); c.X+c.Y+c.Z > best {
			p2, best = i, c.X+c.Y+c.Z
		}
	}
	if p2 < 0 || hullCollinear(a, pts[p1], pts[p2]) {
		p2 = -1
		for _, i := range ids {
			if !hullCollinear(a, pts[p1], pts[i]) {
				p2 = i
				break
			}
		}
	}
	if p2 < 0 {
		// Collinear: the extremes are the lexicographic min and max.
		p1 = p0
		for _, i := range ids {
			if hullLess(pts[p1], pts[i]) {
				p1 = i
			}
		}
		h.dim = 1
		h.setVertices(pts, []int32{p0, p1}, []int32{0, 1, 2}, []int32{1, 0})
		return h, nil
	}
	n := u.Cross(pts[p2].Scale(sc).Sub(sa))
	p3, best := int32(-1), 0.0
	for _, i := range ids {
		if d := math.Abs(n.Dot(pts[i].Scale(sc).Sub(sa))); d > best {
			p3, best = i, d
		}
	}
	if p3 < 0 || geom.Orient3D(a, pts[p1], pts[p2], pts[p3]) == 0 {
		p3 = -1
		for _, i := range ids {
			if geom.Orient3D(a, pts[p1], pts[p2], pts[i]) != 0 {
				p3 = i
				break
			}
		}
	}
	if p3 < 0 {
		h.dim = 2
		hullPolygon(h, pts, ids, p0, p1, p2)
		return h, nil
	}
	h.dim = 3
	// Work on a compact copy: the simplex, then the other points in a
	// pseudo-random order, which is the insertion order.
	first := [4]int32{p0, p1, p2, p3}
	ids = slices.DeleteFunc(ids, func(i int32) bool { return i == p0 || i == p1 || i == p2 || i == p3 })
	hullBRIO(pts, ids, sc)
	ids = append(first[:], ids...)
	nl := int32(len(ids))
	b := &hullBuilder{
		pts:     make([]geom.Vec3, nl),
		orig:    ids,
		faceOf:  make([]int32, nl),
		next:    make([]int32, nl),
		startAt: make([]int32, nl),
		faces:   make([]hullFace, 0, 64+nl/4), // ≤ 2n-4 faces; fewer in practice
	}
	for i, id := range ids {
		b.pts[i] = pts[id]
	}
	b.simplex()
	for i := int32(4); i < nl; i++ {
		b.faceOf[i] = hullInside
		for f := range int32(4) {
			if b.sees(f, i) {
				b.assign(i, f)
				break
			}
		}
	}
	for i := int32(4); i < nl; i++ {
		if b.faceOf[i] >= 0 {
			b.insert(i)
		}
	}
	return h, b.finish(h, pts, withTris)
}

// hullBRIO puts ids in a biased randomized insertion order (Amenta, Choi and
// Rote, 2003): a pseudo-random permutation cut into rounds of doubling size,
// each round sorted along a Morton curve, so that consecutive insertions
// touch nearby faces (cache locality) while the expected O(n log n) bound of
// random order still holds. sc scales the coordinates below 2 in magnitude.
func hullBRIO(pts []geom.Vec3, ids []int32, sc float64) {
	rng := rand.New(rand.NewPCG(0x9e3779b97f4a7c15, uint64(len(ids))))
	rng.Shuffle(len(ids), func(i, j int) { ids[i], ids[j] = ids[j], ids[i] })
	lo := geom.Vec3{X: math.Inf(1), Y: math.Inf(1), Z: math.Inf(1)}
	hi := lo.Neg()
	for _, i := range ids {
		p := pts[i].Scale(sc)
		lo, hi = lo.Min(p), hi.Max(p)
	}
	type keyed struct {
		key uint64
		id  int32
	}
	buf := make([]keyed, 0, len(ids)-len(ids)/2)
	quant := func(x, lo, hi float64) uint64 {
		if !(hi > lo) {
			return 0
		}
		return uint64(min(max((x-lo)/(hi-lo)*(1<<21), 0), 1<<21-1))
	}
	for end := len(ids); end > 0; end /= 2 {
		start := end / 2
		if end <= 64 {
			start = 0
		}
		buf = buf[:0]
		for _, i := range ids[start:end] {
			p := pts[i].Scale(sc)
			k := hullSpread(quant(p.X, lo.X, hi.X)) |
				hullSpread(quant(p.Y, lo.Y, hi.Y))<<1 |
				hullSpread(quant(p.Z, lo.Z, hi.Z))<<2
			buf = append(buf, keyed{k, i})
		}
		slices.SortFunc(buf, func(a, b keyed) int { return cmp.Compare(a.key, b.key) })
		for j, kv := range buf {
			ids[start+j] = kv.id
		}
		if start == 0 {
			break
		}
	}
}

// hullSpread spreads the low 21 bits of x to every third bit.
func hullSpread(x uint64) uint64 {
	x &= 1<<21 - 1
	x = (x | x<<32) & 0x1f00000000ffff
	x = (x | x<<16) & 0x1f0000ff0000ff
	x = (x | x<<8) & 0x100f00f00f00f00f
	x = (x | x<<4) & 0x10c30c30c30c30c3
	x = (x | x<<2) & 0x1249249249249249
	return x
}

// hullLess orders points lexicographically by (X, Y, Z).
func hullLess(p, q geom.Vec3) bool {
	if p.X != q.X {
		return p.X < q.X
	}
	if p.Y != q.Y {
		return p.Y < q.Y
	}
	return p.Z < q.Z
}

// hullCollinear reports exactly whether a, b, c are collinear: the three
// components of (b-a)×(c-a) are the orientations of the projections onto
// the coordinate planes.
func hullCollinear(a, b, c geom.Vec3) bool {
	return geom.Orient2D(a.X, a.Y, b.X, b.Y, c.X, c.Y) == 0 &&
		geom.Orient2D(a.Y, a.Z, b.Y, b.Z, c.Y, c.Z) == 0 &&
		geom.Orient2D(a.Z, a.X, b.Z, b.X, c.Z, c.X) == 0
}

// setVertices sets the vertices of h to the points ids, vertex i having the
// neighbours nbr[off[i]:off[i+1]] (indices into ids).
func (h *Hull) setVertices(pts []geom.Vec3, ids, off, nbr []int32) {
	h.verts = make([]geom.Vec3, len(ids))
	h.index = slices.Clip(ids)
	h.off = slices.Clip(off)
	h.nbr = slices.Clip(nbr)
	for i, id := range ids {
		p := pts[id]
		h.verts[i] = p
		h.maxAbs = max(h.maxAbs, math.Abs(p.X), math.Abs(p.Y), math.Abs(p.Z))
	}
}

// hullPolygon sets h to the convex polygon of the coplanar points ids, of
// which a, b, c are not collinear: Andrew's monotone chain with exact
// Orient2D on the projection onto a coordinate plane in which a, b, c stay
// non-collinear (the projection is then one-to-one on their plane).
// Collinear boundary points and duplicates are dropped.
func hullPolygon(h *Hull, pts []geom.Vec3, ids []int32, a, b, c int32) {
	type uv struct {
		u, v float64
		id   int32
	}
	pa, pb, pc := pts[a], pts[b], pts[c]
	proj := func(p geom.Vec3) (float64, float64) { return p.X, p.Y }
	switch {
	case geom.Orient2D(pa.X, pa.Y, pb.X, pb.Y, pc.X, pc.Y) != 0:
	case geom.Orient2D(pa.Y, pa.Z, pb.Y, pb.Z, pc.Y, pc.Z) != 0:
		proj = func(p geom.Vec3) (float64, float64) { return p.Y, p.Z }
	default:
		proj = func(p geom.Vec3) (float64, float64) { return p.Z, p.X }
	}
	q := make([]uv, len(ids))
	for i, id := range ids {
		q[i].u, q[i].v = proj(pts[id])
		q[i].id = id
	}
	slices.SortFunc(q, func(x, y uv) int {
		switch {
		case x.u < y.u:
			return -1
		case x.u > y.u:
			return 1
		case x.v < y.v:
			return -1
		case x.v > y.v:
			return 1
		}
		return 0
	})
	q = slices.CompactFunc(q, func(x, y uv) bool { return x.u == y.u && x.v == y.v })
	turn := func(x, y, z uv) int { return geom.Orient2D(x.u, x.v, y.u, y.v, z.u, z.v) }
	var ch []uv
	for _, p := range q { // lower chain
		for len(ch) >= 2 && turn(ch[len(ch)-2], ch[len(ch)-1], p) <= 0 {
			ch = ch[:len(ch)-1]
		}
		ch = append(ch, p)
	}
	lower := len(ch)
	for i := len(q) - 2; i >= 0; i-- { // upper chain
		p := q[i]
		for len(ch) > lower && turn(ch[len(ch)-2], ch[len(ch)-1], p) <= 0 {
			ch = ch[:len(ch)-1]
		}
		ch = append(ch, p)
	}
	ch = ch[:len(ch)-1] // the first point again
	k := int32(len(ch))
	vs := make([]int32, k)
	off := make([]int32, k+1)
	nbr := make([]int32, 2*k)
	for i := range k {
		vs[i] = ch[i].id
		off[i+1] = 2 * (i + 1)
		nbr[2*i], nbr[2*i+1] = (i+k-1)%k, (i+1)%k
	}
	h.setVertices(pts, vs, off, nbr)
}

func (b *hullBuilder) sees(f, p int32) bool {
	c := &b.faces[f].p
	return geom.Orient3D(c[0], c[1], c[2], b.pts[p]) > 0
}

func (b *hullBuilder) assign(p, f int32) {
	b.faceOf[p] = f
	b.next[p] = b.faces[f].head
	b.faces[f].head = p
}

func (b *hullBuilder) newFace(v0, v1, v2 int32) int32 {
	fc := hullFace{
		p:    [3]geom.Vec3{b.pts[v0], b.pts[v1], b.pts[v2]},
		v:    [3]int32{v0, v1, v2},
		adj:  [3]int32{-1, -1, -1},
		head: -1,
	}
	if n := len(b.free); n > 0 {
		f := b.free[n-1]
		b.free = b.free[:n-1]
		b.faces[f] = fc
		return f
	}
	if len(b.faces) == cap(b.faces) { // double (append grows large slices by 1.25)
		b.faces = append(make([]hullFace, 0, 2*cap(b.faces)), b.faces...)
	}
	b.faces = append(b.faces, fc)
	return int32(len(b.faces) - 1)
}

// simplex makes the four faces of the tetrahedron of points 0-3 (not
// coplanar), each oriented away from the opposite vertex.
func (b *hullBuilder) simplex() {
	t := [4]int32{0, 1, 2, 3}
	for k := range 4 {
		x, y, z := t[(k+1)%4], t[(k+2)%4], t[(k+3)%4]
		if geom.Orient3D(b.pts[x], b.pts[y], b.pts[z], b.pts[t[k]]) > 0 {
			y, z = z, y
		}
		b.newFace(x, y, z)
	}
	for f := range 4 {
		for i := range 3 {
			p, q := b.faces[f].v[i], b.faces[f].v[(i+1)%3]
			for g := range 4 {
				for j := range 3 {
					if b.faces[g].v[j] == q && b.faces[g].v[(j+1)%3] == p {
						b.faces[f].adj[i] = int32(g)
					}
				}
			}
		}
	}
	for _, p := range t {
		b.faceOf[p] = hullVertex
	}
}

// insert adds point p, which sees face faceOf[p], to the hull. The faces p
// sees form a disc (connected, bounded by a simple cycle of horizon edges);
// they are replaced by a cone of new faces from p to the horizon. A pending
// point that saw a removed face either lies in the new hull or sees one of
// the new faces (it lies outside the cone from p spanned by the old hull),
// so only the new faces are tried for it.
func (b *hullBuilder) insert(p int32) {
	b.epoch++
	ep := b.epoch
	f0 := b.faceOf[p]
	b.faceOf[p] = hullVertex
	b.faces[f0].mark, b.faces[f0].vis = ep, true
	b.stack = append(b.stack[:0], f0)
	b.visible = b.visible[:0]
	b.horizon = b.horizon[:0]
	for len(b.stack) > 0 {
		f := b.stack[len(b.stack)-1]
		b.stack = b.stack[:len(b.stack)-1]
		b.visible = append(b.visible, f)
		for i := range 3 {
			g := b.faces[f].adj[i]
			gf := &b.faces[g]
			if gf.mark != ep {
				gf.mark, gf.vis = ep, b.sees(g, p)
				if gf.vis {
					b.stack = append(b.stack, g)
				}
			}
			if !gf.vis {
				j := int8(0)
				for gf.adj[j] != f {
					j++
				}
				fv := &b.faces[f].v
				b.horizon = append(b.horizon, hullHorizon{a: fv[i], b: fv[(i+1)%3], g: g, j: j})
			}
		}
	}
	b.orphans = b.orphans[:0]
	for _, f := range b.visible {
		for q := b.faces[f].head; q >= 0; q = b.next[q] {
			if q != p {
				b.orphans = append(b.orphans, q)
			}
		}
		b.faces[f].dead = true
		b.free = append(b.free, f)
	}
	b.newFaces = b.newFaces[:0]
	for _, e := range b.horizon {
		n := b.newFace(e.a, e.b, p)
		b.faces[n].adj[0] = e.g
		b.faces[e.g].adj[e.j] = n
		b.startAt[e.a] = n
		b.newFaces = append(b.newFaces, n)
	}
	for _, n := range b.newFaces {
		m := b.startAt[b.faces[n].v[1]]
		b.faces[n].adj[1] = m
		b.faces[m].adj[2] = n
	}
	// Consecutive orphans come from the same removed face and tend to see
	// the same new face: start from the last one found.
	last, nn := 0, len(b.newFaces)
	for _, q := range b.orphans {
		b.faceOf[q] = hullInside
		for j := range nn {
			k := last + j
			if k >= nn {
				k -= nn
			}
			if n := b.newFaces[k]; b.sees(n, q) {
				b.assign(q, n)
				last = k
				break
			}
		}
	}
}

// finish sets the vertex graph of h from the triangulated hull: an edge is
// flat when its two triangles are coplanar; a vertex is extreme when at
// least 3 non-flat edges meet there (a vertex in a face has none, one inside
// an edge of the polytope has 2, collinear); the hull edges are the chains
// of non-flat edges between extreme vertices. It returns the live
// triangles (as indices into pts) if withTris.
func (b *hullBuilder) finish(h *Hull, pts []geom.Vec3, withTris bool) [][3]int32 {
	local := b.startAt // reused: point → local vertex id
	for i := range local {
		local[i] = -1
	}
	var tris [][3]int32
	var tv []int32 // local id → point
	type edge struct{ a, b int32 }
	edges := make([]edge, 0, 3*len(b.faces)/2)
	for f := range b.faces {
		fc := &b.faces[f]
		if fc.dead {
			continue
		}
		if withTris {
			tris = append(tris, [3]int32{b.orig[fc.v[0]], b.orig[fc.v[1]], b.orig[fc.v[2]]})
		}
		for _, v := range fc.v {
			if local[v] < 0 {
				local[v] = int32(len(tv))
				tv = append(tv, v)
			}
		}
		for i := range 3 {
			g := fc.adj[i]
			if int32(f) > g {
				continue
			}
			x, y, z := fc.v[i], fc.v[(i+1)%3], fc.v[(i+2)%3]
			opp := int32(-1)
			for _, w := range b.faces[g].v {
				if w != x && w != y {
					opp = w
				}
			}
			if geom.Orient3D(b.pts[x], b.pts[y], b.pts[z], b.pts[opp]) != 0 {
				edges = append(edges, edge{local[x], local[y]})
			}
		}
	}
	nv := len(tv)
	off := make([]int32, nv+1)
	for _, e := range edges {
		off[e.a+1]++
		off[e.b+1]++
	}
	for i := range nv {
		off[i+1] += off[i]
	}
	nb := make([]int32, off[nv])
	fill := slices.Clone(off[:nv])
	for _, e := range edges {
		nb[fill[e.a]] = e.b
		fill[e.a]++
		nb[fill[e.b]] = e.a
		fill[e.b]++
	}
	extreme := func(v int32) bool { return off[v+1]-off[v] >= 3 }
	// Hull vertices in input order (tv is no longer needed as local → point).
	slices.SortFunc(tv, func(x, y int32) int { return cmp.Compare(b.orig[x], b.orig[y]) })
	hid := make([]int32, nv)
	var ids []int32
	for _, p := range tv {
		if l := local[p]; extreme(l) {
			hid[l] = int32(len(ids))
			ids = append(ids, p)
		}
	}
	hoff := make([]int32, len(ids)+1)
	hnbr := make([]int32, 0, len(edges)*2)
	for k, p := range ids {
		v := local[p]
		for _, w := range nb[off[v]:off[v+1]] {
			prev, cur := v, w
			for steps := 0; !extreme(cur) && steps < nv; steps++ {
				c := nb[off[cur]:off[cur+1]]
				if len(c) != 2 {
					break // impossible (see above); do not loop
				}
				nxt := c[0]
				if nxt == prev {
					nxt = c[1]
				}
				prev, cur = cur, nxt
			}
			if extreme(cur) && cur != v {
				hnbr = append(hnbr, hid[cur])
			}
		}
		hoff[k+1] = int32(len(hnbr))
	}
	for k, p := range ids {
		ids[k] = b.orig[p]
	}
	h.setVertices(pts, ids, hoff, hnbr)
	return tris
}
