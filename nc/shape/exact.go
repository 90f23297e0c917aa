package shape

import (
	"math"
	"math/big"

	"github.com/collide3d/collide/geom"
)

// The exact path.
//
// Every input is multiplied by one power of two 2^K that makes all of them
// integers (exact; every length scales by 2^K, r too, so no answer
// changes). Both tests then reduce to one question, answered in integer
// arithmetic (math/big.Int, fraction free: no gcd, no rounding):
//
//   - Ball: is the distance from the origin to conv{t_j − p_i − (0,0,zc)}
//     (integer points in 3D) at most r? (ballExact, gjk3)
//   - Cylinder: is the distance from the origin to conv(S_xy), S of
//     cylinder.go, at most r? The points of S are rational: a crossing is
//     P/w with P an integer vector and w > 0 an integer. (cylExact, gjk2)
//
// Both run GJK in exact arithmetic. v is the closest point of conv(Y) for a
// simplex Y of input points; each step takes w minimising v·w over the
// points. If v·w ≥ v·v, the hull lies in {x : v·x ≥ |v|²}, so v is the
// closest point of the hull: the answer is |v| ≤ r. v·w > 0 with
// (v·w)² > r²|v|² proves a distance above r (it is at least v·w/|v|), and
// |v| ≤ r at any step proves a hit (v is in the hull). Otherwise
// v·(w − v) < 0, so points of [v, w] are strictly closer: the closest point
// of conv(Y ∪ {w}) is strictly shorter, and Y becomes its minimal support
// (affinely independent; at most d points when v ≠ 0, and v = 0 is a hit).
// |v| decreases strictly and v is determined by Y, so no simplex repeats and
// GJK stops after finitely many steps.

// scaler converts floats to integers: x ↦ x·2^K.
type scaler int

// newScaler returns the least K ≥ 0 with x·2^K an integer for every input
// (all finite).
func newScaler(q *[3]geom.Vec3, n int, t *geom.Triangle, a, b, c float64) scaler {
	k := 0
	f := func(x float64) {
		if x != 0 {
			_, e := math.Frexp(x) // x = m·2^e, m·2^53 an integer
			k = max(k, 53-e)
		}
	}
	for i := range n {
		f(q[i].X)
		f(q[i].Y)
		f(q[i].Z)
	}
	for i := range 3 {
		f(t[i].X)
		f(t[i].Y)
		f(t[i].Z)
	}
	f(a)
	f(b)
	f(c)
	return scaler(k)
}

// int returns x·2^K.
func (k scaler) int(x float64) *big.Int {
	m, e := math.Frexp(x)
	z := new(big.Int).SetInt64(int64(m * (1 << 53)))
	if s := e - 53 + int(k); s >= 0 {
		z.Lsh(z, uint(s))
	} else {
		z.Rsh(z, uint(-s)) // exact: the bits shifted out are zero
	}
	return z
}

// iv is an integer vector (3D; 2D uses the first two components).
type iv [3]*big.Int

func (k scaler) vec(v geom.Vec3) iv { return iv{k.int(v.X), k.int(v.Y), k.int(v.Z)} }

func bAdd(a, b *big.Int) *big.Int { return new(big.Int).Add(a, b) }
func bSub(a, b *big.Int) *big.Int { return new(big.Int).Sub(a, b) }
func bMul(a, b *big.Int) *big.Int { return new(big.Int).Mul(a, b) }

func (a iv) sub(b iv) iv { return iv{bSub(a[0], b[0]), bSub(a[1], b[1]), bSub(a[2], b[2])} }

func (a iv) scale(s *big.Int) iv { return iv{bMul(a[0], s), bMul(a[1], s), bMul(a[2], s)} }

func (a iv) add(b iv) iv { return iv{bAdd(a[0], b[0]), bAdd(a[1], b[1]), bAdd(a[2], b[2])} }

func (a iv) dot(b iv) *big.Int {
	d := bMul(a[0], b[0])
	d.Add(d, bMul(a[1], b[1]))
	return d.Add(d, bMul(a[2], b[2]))
}

func (a iv) cross(b iv) iv {
	return iv{
		bSub(bMul(a[1], b[2]), bMul(a[2], b[1])),
		bSub(bMul(a[2], b[0]), bMul(a[0], b[2])),
		bSub(bMul(a[0], b[1]), bMul(a[1], b[0])),
	}
}

// fracLess reports a/b < c/d for b, d > 0.
func fracLess(a, b, c, d *big.Int) bool { return bMul(a, d).Cmp(bMul(c, b)) < 0 }

// ballExact decides Ball exactly.
func ballExact(q *[3]geom.Vec3, n int, zc, r float64, t *geom.Triangle, h *hint) bool {
	k := newScaler(q, n, t, zc, r, 0)
	zi := k.int(zc)
	pts := make([]iv, 0, 9)
	for i := range n {
		pi := k.vec(q[i])
		pi[2].Add(pi[2], zi)
		for j := range 3 {
			pts = append(pts, k.vec(t[j]).sub(pi))
		}
	}
	ri := k.int(r)
	return gjk3(pts, bMul(ri, ri), h)
}

// gjk3 reports whether the squared distance from the origin to conv(pts)
// is at most r2 (see the comment at the top). The current closest point is
// v = V/D, D > 0.
func gjk3(pts []iv, r2 *big.Int, h *hint) bool {
	var Y []iv
	var V iv
	var D, VV *big.Int
	if h != nil && h.n > 0 && h.n <= 4 {
		// Start from the hint's simplex.
		var ok bool
		for _, i := range h.idx[:h.n] {
			Y = append(Y, pts[i])
		}
		if Y, V, D, ok = closest3(Y); !ok {
			return true
		}
		VV = V.dot(V)
	} else {
		// Start from the point of least norm.
		Y, V, D = []iv{pts[0]}, pts[0], big.NewInt(1)
		VV = V.dot(V)
		for _, p := range pts[1:] {
			if d := p.dot(p); d.Cmp(VV) < 0 {
				Y, V, VV = []iv{p}, p, d
			}
		}
	}
	for {
		DD := bMul(D, D)
		if VV.Cmp(bMul(r2, DD)) <= 0 {
			return true // |v|² ≤ r²
		}
		var w iv
		var vw *big.Int // V·w; v·w = V·w/D
		for _, p := range pts {
			if d := V.dot(p); vw == nil || d.Cmp(vw) < 0 {
				w, vw = p, d
			}
		}
		// v·w ≥ v·v ⇔ V·w·D ≥ |V|².
		if bMul(vw, D).Cmp(VV) >= 0 {
			return false
		}
		// (v·w)² > r²|v|² ⇔ (V·w)² > r²|V|².
		if vw.Sign() > 0 && bMul(vw, vw).Cmp(bMul(r2, VV)) > 0 {
			return false
		}
		var ok bool
		Y, V, D, ok = closest3(append(Y, w))
		if !ok {
			return true // the origin is inside a tetrahedron of points
		}
		VV = V.dot(V)
	}
}

// closest3 returns the minimal support Z ⊂ Y (|Y| ≤ 4) of the point v of
// conv(Y) closest to the origin, and v = V/D (D > 0); ok is false if the
// origin lies in conv(Y) as the interior of a tetrahedron (v = 0, a hit).
//
// Brute force over the subsets X of Y of one to three points: for affinely
// independent X, the point of aff(X) closest to the origin, kept if its
// barycentric coordinates are all positive (it is then in conv(X)). The
// closest point of conv(Y) lies in the relative interior of conv(X*) for an
// affinely independent X* (Carathéodory), where it is also the closest
// point of aff(X*) (a convex function minimised over conv(X*) at a relative
// interior point); so the least kept norm is the answer. If every kept
// candidate is nonzero and X* has four points, v = 0 is interior: the test
// for that is the barycentric signs of the origin in the tetrahedron.
func closest3(Y []iv) (Z []iv, V iv, D *big.Int, ok bool) {
	if len(Y) == 4 && insideTetra(Y) {
		return nil, iv{}, nil, false
	}
	var bestVV, bestDD *big.Int
	try := func(X []iv, v iv, d *big.Int) {
		vv, dd := v.dot(v), bMul(d, d)
		if bestVV == nil || fracLess(vv, dd, bestVV, bestDD) ||
			(vv.Cmp(bestVV) == 0 && dd.Cmp(bestDD) == 0 && len(X) < len(Z)) {
			Z, V, D, bestVV, bestDD = X, v, d, vv, dd
		}
	}
	m := len(Y)
	for i := range m {
		try([]iv{Y[i]}, Y[i], big.NewInt(1))
		for j := i + 1; j < m; j++ {
			// x0 + α d, α = −d·x0/(d·d) ∈ (0, 1)
			x0, d := Y[i], Y[j].sub(Y[i])
			g := d.dot(d)
			a := new(big.Int).Neg(d.dot(x0))
			if g.Sign() > 0 && a.Sign() > 0 && a.Cmp(g) < 0 {
				try([]iv{Y[i], Y[j]}, x0.scale(g).add(d.scale(a)), g)
			}
			for l := j + 1; l < m; l++ {
				d2 := Y[l].sub(x0)
				g11, g12, g22 := g, d.dot(d2), d2.dot(d2)
				b1, b2 := new(big.Int).Neg(d.dot(x0)), new(big.Int).Neg(d2.dot(x0))
				det := bSub(bMul(g11, g22), bMul(g12, g12))
				if det.Sign() <= 0 {
					continue // collinear
				}
				n1 := bSub(bMul(b1, g22), bMul(b2, g12))
				n2 := bSub(bMul(g11, b2), bMul(g12, b1))
				if n1.Sign() <= 0 || n2.Sign() <= 0 || bAdd(n1, n2).Cmp(det) >= 0 {
					continue
				}
				try([]iv{Y[i], Y[j], Y[l]}, x0.scale(det).add(d.scale(n1)).add(d2.scale(n2)), det)
			}
		}
	}
	return Z, V, D, true
}

// insideTetra reports whether the origin is in the interior of the
// (non-degenerate) tetrahedron Y: the four orientations of the origin
// against the faces all agree with the tetrahedron's, none zero. (A point
// on its boundary is found on a face by closest3.)
func insideTetra(Y []iv) bool {
	o := iv{new(big.Int), new(big.Int), new(big.Int)}
	or := func(a, b, c, d iv) int { return b.sub(a).cross(c.sub(a)).dot(d.sub(a)).Sign() }
	s := or(Y[0], Y[1], Y[2], Y[3])
	if s == 0 {
		return false
	}
	return or(o, Y[1], Y[2], Y[3]) == s && or(Y[0], o, Y[2], Y[3]) == s &&
		or(Y[0], Y[1], o, Y[3]) == s && or(Y[0], Y[1], Y[2], o) == s
}

// hpt is a 2D point P/w with integer P and w > 0.
type hpt struct{ x, y, w *big.Int }

// cylExact decides Cylinder exactly: S (see cylinder.go) built in integers
// (crossings as P/w), then gjk2.
func cylExact(q *[3]geom.Vec3, n int, r, z0, z1 float64, t *geom.Triangle, h *hint) bool {
	k := newScaler(q, n, t, r, z0, z1)
	S := exactS(k, q, n, z0, z1, t)
	if len(S) == 0 {
		return false
	}
	ri := k.int(r)
	return gjk2(S, bMul(ri, ri), h)
}

// exactS returns S·2^K (see cylinder.go), in the order of cylCtx.build.
func exactS(k scaler, q *[3]geom.Vec3, n int, z0, z1 float64, t *geom.Triangle) []hpt {
	var m [9]iv
	var lo, hi [9]int
	zp := [2]*big.Int{k.int(z0), k.int(z1)}
	one := big.NewInt(1)
	var S []hpt
	for i := range n {
		pi := k.vec(q[i])
		for j := range 3 {
			l := 3*i + j
			m[l] = k.vec(t[j]).sub(pi)
			lo[l], hi[l] = m[l][2].Cmp(zp[0]), m[l][2].Cmp(zp[1])
			if lo[l] >= 0 && hi[l] <= 0 {
				S = append(S, hpt{m[l][0], m[l][1], one})
			}
		}
	}
	for _, e := range minkEdges[n] {
		a, b := e[0], e[1]
		for pl, s := range [2][9]int{lo, hi} {
			if s[a]*s[b] >= 0 {
				continue
			}
			// a + τ(b − a), τ = num/den: (a·den + num·(b − a))/den.
			num, den := bSub(zp[pl], m[a][2]), bSub(m[b][2], m[a][2])
			if den.Sign() < 0 {
				num.Neg(num)
				den.Neg(den)
			}
			x := bAdd(bMul(m[a][0], den), bMul(num, bSub(m[b][0], m[a][0])))
			y := bAdd(bMul(m[a][1], den), bMul(num, bSub(m[b][1], m[a][1])))
			S = append(S, hpt{x, y, den})
		}
	}
	return S
}

// gjk2 reports whether the squared distance from the origin to conv(S) is
// at most r2 (see the comment at the top). In 2D the minimal support of a
// non-zero closest point is a point A or an edge [A, B] with the closest
// point inside it; the search direction is then A itself, or the edge's
// normal n = ⊥(B − A) turned toward A. Comparisons of v·s between points
// are made on fractions with positive denominators.
func gjk2(S []hpt, r2 *big.Int, h *hint) bool {
	A, B := -1, -1 // the simplex: {A} or {A, B}
	if h != nil && h.n > 0 && h.n <= 3 && max(h.idx[0], h.idx[1], h.idx[2]) < len(S) {
		// Start from the hint's simplex.
		switch h.n {
		case 1:
			A = h.idx[0]
		case 2:
			A, B = closest2Exact(S, h.idx[0], h.idx[1], -1)
		case 3:
			if inTriangle(S[h.idx[0]], S[h.idx[1]], S[h.idx[2]]) {
				return true
			}
			A, B = closest2Exact(S, h.idx[0], h.idx[1], h.idx[2])
		}
	} else {
		// Start from the point of least norm.
		A = 0
		for i := 1; i < len(S); i++ {
			if fracLess(norm2(S[i]), bMul(S[i].w, S[i].w), norm2(S[A]), bMul(S[A].w, S[A].w)) {
				A = i
			}
		}
	}
	for {
		// Direction n (up to a positive factor), the closest point's n·v as
		// the fraction nv/nw, and its squared distance dn/dd.
		var nx, ny, nv, nw, dn, dd *big.Int
		pa := S[A]
		if B < 0 {
			nx, ny = pa.x, pa.y
			nv, nw = norm2(pa), pa.w // n = P_A: n·A = |P_A|²/w_A
			dn, dd = nv, bMul(pa.w, pa.w)
		} else {
			pb := S[B]
			// D ∝ B − A; n ⊥ D toward A.
			Dx := bSub(bMul(pb.x, pa.w), bMul(pa.x, pb.w))
			Dy := bSub(bMul(pb.y, pa.w), bMul(pa.y, pb.w))
			nx, ny = new(big.Int).Neg(Dy), Dx
			nv, nw = bAdd(bMul(nx, pa.x), bMul(ny, pa.y)), pa.w // n·A = (n·P_A)/w_A
			if nv.Sign() < 0 {
				nx.Neg(nx)
				ny.Neg(ny)
				nv.Neg(nv)
			}
			// dist² = (n·A)²/|n|² = (n·P_A)²/(w_A²|n|²)
			dn = bMul(nv, nv)
			dd = bMul(bMul(nw, nw), bAdd(bMul(nx, nx), bMul(ny, ny)))
		}
		if dn.Cmp(bMul(r2, dd)) <= 0 {
			return true
		}
		// Support: min over S of n·s = (n·P)/w.
		c := -1
		var cn, cw *big.Int
		for i := range S {
			d := bAdd(bMul(nx, S[i].x), bMul(ny, S[i].y))
			if c < 0 || fracLess(d, S[i].w, cn, cw) {
				c, cn, cw = i, d, S[i].w
			}
		}
		// n·c ≥ n·v: v is the closest point of the hull (a miss).
		if !fracLess(cn, cw, nv, nw) {
			return false
		}
		// n·c > 0 and (n·c)² > r²|n|²: a proven gap above r.
		if cn.Sign() > 0 && bMul(cn, cn).Cmp(bMul(r2, bMul(bMul(cw, cw), bAdd(bMul(nx, nx), bMul(ny, ny))))) > 0 {
			return false
		}
		// The closest point of conv(simplex ∪ {c}).
		if B < 0 {
			A, B = closest2Exact(S, A, c, -1)
		} else {
			if inTriangle(S[A], S[B], S[c]) {
				return true
			}
			A, B = closest2Exact(S, A, B, c)
		}
	}
}

func norm2(p hpt) *big.Int { return bAdd(bMul(p.x, p.x), bMul(p.y, p.y)) }

// cross2 returns the sign of P_a × P_b, the orientation of (0, a, b).
func cross2(a, b hpt) int { return bSub(bMul(a.x, b.y), bMul(a.y, b.x)).Sign() }

// inTriangle reports whether the origin is in the closed triangle (a, b, c)
// when that is not degenerate (the orientations of the origin against the
// three edges agree, none opposite).
func inTriangle(a, b, c hpt) bool {
	s1, s2, s3 := cross2(a, b), cross2(b, c), cross2(c, a)
	return (s1 >= 0 && s2 >= 0 && s3 >= 0 || s1 <= 0 && s2 <= 0 && s3 <= 0) && (s1 != 0 || s2 != 0 || s3 != 0)
}

// closest2Exact returns the minimal support ({A} with B = −1, or the edge
// {A, B}) of the point of conv{S[i], S[j], S[l]} (l may be −1) closest to
// the origin, given that the origin is not inside that triangle.
func closest2Exact(S []hpt, i, j, l int) (int, int) {
	ids := []int{i, j}
	if l >= 0 {
		ids = append(ids, l)
	}
	bA, bB := -1, -1
	var bn, bd *big.Int
	try := func(a, b int, n, d *big.Int) {
		if bA < 0 || fracLess(n, d, bn, bd) {
			bA, bB, bn, bd = a, b, n, d
		}
	}
	for x, a := range ids {
		pa := S[a]
		try(a, -1, norm2(pa), bMul(pa.w, pa.w))
		for _, b := range ids[x+1:] {
			pb := S[b]
			Dx := bSub(bMul(pb.x, pa.w), bMul(pa.x, pb.w))
			Dy := bSub(bMul(pb.y, pa.w), bMul(pa.y, pb.w))
			// Interior foot: P_A·D < 0 < P_B·D.
			if bAdd(bMul(pa.x, Dx), bMul(pa.y, Dy)).Sign() >= 0 || bAdd(bMul(pb.x, Dx), bMul(pb.y, Dy)).Sign() <= 0 {
				continue
			}
			c := bSub(bMul(pa.x, pb.y), bMul(pa.y, pb.x))
			try(a, b, bMul(c, c), bAdd(bMul(Dx, Dx), bMul(Dy, Dy)))
		}
	}
	return bA, bB
}
