package shape

// Independent exact oracles, in math/big rationals, written differently from
// the package's exact path (which runs GJK on a Minkowski difference):
//
//   - oBallDist2: the squared distance between the lifted path
//     Q = path + (0,0,zc) and t by feature decomposition: 0 if Q and t
//     intersect (an edge of one meets the other: the lemma of
//     testgeom.RatTriTri), else the least of every vertex against the other
//     triangle (face foot or edges) and every edge against every edge
//     (Ericson's clamped segment-segment closest points, exact in
//     rationals).
//   - oCylDist2: the squared horizontal distance from the axis to the slab
//     part of M = t ⊕ (−path): S is built from ALL pairs of points t_j − p_i
//     (not the Minkowski edges), then the least distance from the origin to
//     a segment between two points of S, or 0 if the origin lies in a
//     triangle of three points of S (Carathéodory: a point of the hull of
//     planar points lies in a triangle of three of them).

import (
	"cmp"
	"math"
	"math/big"
	"slices"

	"github.com/collide3d/collide/geom"
)

type ov [3]*big.Rat

func oR(x float64) *big.Rat { return new(big.Rat).SetFloat64(x) }

// The oracles first scale every input by one power of two 2^K that makes
// them all integers (exact, and it scales every squared distance by
// 2^(2K), undone at the end): most rational operations are then on
// integers, without gcds.

// oK returns the least K ≥ 0 with x·2^K an integer for every finite x.
func oK(xs ...float64) int {
	k := 0
	for _, x := range xs {
		if x != 0 && !math.IsInf(x, 0) && !math.IsNaN(x) {
			_, e := math.Frexp(x)
			k = max(k, 53-e)
		}
	}
	return k
}

// oRK returns x·2^K as a rational.
func oRK(x float64, k int) *big.Rat {
	m, e := math.Frexp(x)
	n := new(big.Int).SetInt64(int64(m * (1 << 53)))
	if s := e - 53 + k; s >= 0 {
		n.Lsh(n, uint(s))
	} else {
		n.Rsh(n, uint(-s)) // exact: the low bits are zero
	}
	return new(big.Rat).SetInt(n)
}

func oVK(p geom.Vec3, k int) ov { return ov{oRK(p.X, k), oRK(p.Y, k), oRK(p.Z, k)} }

// oUnscale2 returns d·2^(−2K).
func oUnscale2(d *big.Rat, k int) *big.Rat {
	den := new(big.Int).Lsh(big.NewInt(1), uint(2*k))
	return d.Quo(d, new(big.Rat).SetInt(den))
}

func pathFloats(path Path, t geom.Triangle, more ...float64) []float64 {
	xs := more
	for i := range path.N {
		xs = append(xs, path.P[i].X, path.P[i].Y, path.P[i].Z)
	}
	for _, p := range t {
		xs = append(xs, p.X, p.Y, p.Z)
	}
	return xs
}

func (a ov) minus(b ov) ov {
	var c ov
	for i := range 3 {
		c[i] = new(big.Rat).Sub(a[i], b[i])
	}
	return c
}

func (a ov) plus(b ov) ov {
	var c ov
	for i := range 3 {
		c[i] = new(big.Rat).Add(a[i], b[i])
	}
	return c
}

func (a ov) times(s *big.Rat) ov {
	var c ov
	for i := range 3 {
		c[i] = new(big.Rat).Mul(a[i], s)
	}
	return c
}

func (a ov) inner(b ov) *big.Rat {
	s := new(big.Rat)
	for i := range 3 {
		s.Add(s, new(big.Rat).Mul(a[i], b[i]))
	}
	return s
}

func (a ov) crossP(b ov) ov {
	f := func(p, q, r, s *big.Rat) *big.Rat {
		return new(big.Rat).Sub(new(big.Rat).Mul(p, q), new(big.Rat).Mul(r, s))
	}
	return ov{f(a[1], b[2], a[2], b[1]), f(a[2], b[0], a[0], b[2]), f(a[0], b[1], a[1], b[0])}
}

func (a ov) isZero() bool { return a[0].Sign() == 0 && a[1].Sign() == 0 && a[2].Sign() == 0 }

// Below, every input is an integer (see oK), and the constructions are
// fraction free: a parameter is a fraction n/d (d > 0) of integers, a
// constructed point an integer vector over a positive integer weight.

func rMul(a, b *big.Rat) *big.Rat { return new(big.Rat).Mul(a, b) }

func rSub(a, b *big.Rat) *big.Rat { return new(big.Rat).Sub(a, b) }

func rOne() *big.Rat { return big.NewRat(1, 1) }

// oClampFrac returns n/d clamped to [0, 1], as (n', d') with d' > 0, given
// d > 0.
func oClampFrac(n, d *big.Rat) (*big.Rat, *big.Rat) {
	switch {
	case n.Sign() <= 0:
		return new(big.Rat), rOne()
	case n.Cmp(d) >= 0:
		return rOne(), rOne()
	}
	return n, d
}

// oDiv returns the fraction n/d with a positive denominator.
func oDiv(n, d *big.Rat) (*big.Rat, *big.Rat) {
	if d.Sign() < 0 {
		return new(big.Rat).Neg(n), new(big.Rat).Neg(d)
	}
	return n, d
}

// oSegSeg2 is the exact squared distance of two closed segments: Ericson's
// clamped closest points (Real-Time Collision Detection, §5.1.9), exact in
// rational arithmetic, with s = sn/sd, t = tn/td kept as fractions.
func oSegSeg2(p1, q1, p2, q2 ov) *big.Rat {
	d1, d2, r := q1.minus(p1), q2.minus(p2), p1.minus(p2)
	a, e, f := d1.inner(d1), d2.inner(d2), d2.inner(r)
	sn, sd, tn, td := new(big.Rat), rOne(), new(big.Rat), rOne()
	neg := func(x *big.Rat) *big.Rat { return new(big.Rat).Neg(x) }
	switch {
	case a.Sign() == 0 && e.Sign() == 0:
	case a.Sign() == 0:
		tn, td = oClampFrac(f, e)
	default:
		c := d1.inner(r)
		if e.Sign() == 0 {
			sn, sd = oClampFrac(neg(c), a)
		} else {
			b := d1.inner(d2)
			den := rSub(rMul(a, e), rMul(b, b)) // ≥ 0 (Cauchy–Schwarz)
			if den.Sign() != 0 {
				sn, sd = oClampFrac(rSub(rMul(b, f), rMul(c, e)), den)
			}
			// t = (b·s + f)/e
			tn = new(big.Rat).Add(rMul(b, sn), rMul(f, sd))
			td = rMul(e, sd)
			if tn.Sign() < 0 {
				tn, td = new(big.Rat), rOne()
				sn, sd = oClampFrac(neg(c), a)
			} else if tn.Cmp(td) > 0 {
				tn, td = rOne(), rOne()
				sn, sd = oClampFrac(rSub(b, c), a)
			}
		}
	}
	// (p1 + s·d1 − p2 − t·d2)·sd·td
	v := r.times(rMul(sd, td)).plus(d1.times(rMul(sn, td))).minus(d2.times(rMul(tn, sd)))
	w := rMul(sd, td)
	return new(big.Rat).Quo(v.inner(v), rMul(w, w))
}

// oInTri reports whether X/w (w > 0), in the plane of the proper triangle
// T of normal n, lies in T.
func oInTri(X ov, w *big.Rat, T [3]ov, n ov) bool {
	for i := range 3 {
		if T[(i+1)%3].minus(T[i]).crossP(X.minus(T[i].times(w))).inner(n).Sign() < 0 {
			return false
		}
	}
	return true
}

// oSegMeetsTri reports whether the closed segment [u, v] meets T.
func oSegMeetsTri(u, v ov, T [3]ov) bool {
	n := T[1].minus(T[0]).crossP(T[2].minus(T[0]))
	edges := func() bool {
		for i := range 3 {
			if oSegSeg2(u, v, T[i], T[(i+1)%3]).Sign() == 0 {
				return true
			}
		}
		return false
	}
	if n.isZero() {
		return edges()
	}
	du, dv := n.inner(u.minus(T[0])), n.inner(v.minus(T[0]))
	if du.Sign()*dv.Sign() > 0 {
		return false
	}
	if du.Sign() == 0 && dv.Sign() == 0 {
		return oInTri(u, rOne(), T, n) || oInTri(v, rOne(), T, n) || edges()
	}
	// x = u + du/(du − dv)·(v − u) = X/w
	sn, sd := oDiv(du, rSub(du, dv))
	return oInTri(u.times(sd).plus(v.minus(u).times(sn)), sd, T, n)
}

// oFace2 is the exact squared distance from x to the plane of T if T is
// proper and the foot of x lies in T, else nil.
func oFace2(x ov, T [3]ov) *big.Rat {
	n := T[1].minus(T[0]).crossP(T[2].minus(T[0]))
	if n.isZero() {
		return nil
	}
	h := x.minus(T[0]).inner(n)
	nn := n.inner(n)
	// foot = x − n·h/nn = (x·nn − n·h)/nn
	if !oInTri(x.times(nn).minus(n.times(h)), nn, T, n) {
		return nil
	}
	return new(big.Rat).Quo(rMul(h, h), nn)
}

// oPointTri2 is the exact squared distance from x to T.
func oPointTri2(x ov, T [3]ov) *big.Rat {
	best := oFace2(x, T)
	for i := range 3 {
		if d := oSegSeg2(x, x, T[i], T[(i+1)%3]); best == nil || d.Cmp(best) < 0 {
			best = d
		}
	}
	return best
}

// oBallDist2 returns the exact squared distance between path + (0,0,zc)
// and t.
func oBallDist2(path Path, zc float64, t geom.Triangle) *big.Rat {
	K := oK(pathFloats(path, t, zc)...)
	var Q, T [3]ov
	for i := range 3 {
		k := min(i, path.N-1)
		Q[i] = oVK(path.P[k], K)
		Q[i][2].Add(Q[i][2], oRK(zc, K))
		T[i] = oVK(t[i], K)
	}
	// A point or a segment is its own edge, so the lemma needs only that
	// edge against T; a triangle path needs all six edges.
	switch path.N {
	case 1, 2:
		if oSegMeetsTri(Q[0], Q[1], T) {
			return new(big.Rat)
		}
	default:
		for i := range 3 {
			if oSegMeetsTri(Q[i], Q[(i+1)%3], T) || oSegMeetsTri(T[i], T[(i+1)%3], Q) {
				return new(big.Rat)
			}
		}
	}
	var best *big.Rat
	keep := func(d *big.Rat) {
		if d != nil && (best == nil || d.Cmp(best) < 0) {
			best = d
		}
	}
	// A point path: the point against T. Otherwise the vertices against the
	// other's face, and all edge pairs (which include every vertex–edge
	// pair: a vertex is an end of an edge).
	if path.N == 1 {
		keep(oPointTri2(Q[0], T))
	}
	for i := range path.N {
		if path.N > 1 {
			keep(oFace2(Q[i], T))
		}
	}
	switch path.N {
	case 2:
		for j := range 3 {
			keep(oSegSeg2(Q[0], Q[1], T[j], T[(j+1)%3]))
		}
	case 3:
		for i := range 3 {
			keep(oFace2(T[i], Q))
			for j := range 3 {
				keep(oSegSeg2(Q[i], Q[(i+1)%3], T[j], T[(j+1)%3]))
			}
		}
	}
	return oUnscale2(best, K)
}

// oBall is the oracle's answer to Ball.
func oBall(path Path, zc, r float64, t geom.Triangle) bool {
	rr := oR(r)
	return oBallDist2(path, zc, t).Cmp(rr.Mul(rr, rr)) <= 0
}

type o2 struct{ x, y *big.Rat }

// oCylDist2 returns the exact squared distance from the vertical axis
// (x = y = 0) to the part of M = t ⊕ (−path) in the slab z0 ≤ z ≤ z1, or
// nil if that part is empty.
func oCylDist2(path Path, z0, z1 float64, t geom.Triangle) *big.Rat {
	K := oK(pathFloats(path, t, z0, z1)...)
	var M []ov
	for i := range path.N {
		for j := range 3 {
			M = append(M, oVK(t[j], K).minus(oVK(path.P[i], K)))
		}
	}
	Z := [2]*big.Rat{oRK(z0, K), oRK(z1, K)}
	var S []o2
	for _, m := range M {
		if m[2].Cmp(Z[0]) >= 0 && m[2].Cmp(Z[1]) <= 0 {
			S = append(S, o2{m[0], m[1]})
		}
	}
	for a := range M {
		for b := a + 1; b < len(M); b++ {
			for _, zp := range Z {
				da, db := new(big.Rat).Sub(M[a][2], zp), new(big.Rat).Sub(M[b][2], zp)
				if da.Sign()*db.Sign() >= 0 {
					continue
				}
				// da/(da − db) of the way from M[a] to M[b].
				s := new(big.Rat).Quo(da, new(big.Rat).Sub(da, db))
				p := M[a].plus(M[b].minus(M[a]).times(s))
				S = append(S, o2{p[0], p[1]})
			}
		}
	}
	if len(S) == 0 {
		return nil
	}
	// Float images of S order the exact work and prune it safely: each is
	// the rounding of an exact point (relative error ≤ 2⁻⁵³ per
	// coordinate), so a float distance is within margin of the exact one.
	n := len(S)
	fx, fy := make([]float64, n), make([]float64, n)
	mag := 0.0
	for i, p := range S {
		fx[i], _ = p.x.Float64()
		fy[i], _ = p.y.Float64()
		mag = max(mag, math.Abs(fx[i]), math.Abs(fy[i]))
	}
	margin := 1e-9*mag + 1e-300
	type cand struct {
		a, b int
		d    float64
	}
	var cs []cand
	for a := range n {
		for b := a; b < n; b++ {
			cs = append(cs, cand{a, b, fSeg(fx[a], fy[a], fx[b], fy[b])})
		}
	}
	slices.SortFunc(cs, func(p, q cand) int { return cmp.Compare(p.d, q.d) })
	var best *big.Rat
	bestF := math.Inf(1)
	for _, c := range cs {
		if c.d-margin > bestF+margin {
			break
		}
		if d := oPointSeg2(S[c.a], S[c.b]); best == nil || d.Cmp(best) < 0 {
			best = d
			bestF = sqrtF(d)
		}
	}
	if best.Sign() == 0 {
		return best
	}
	best = oUnscale2(best, K)
	// Is the origin in a triangle of S? The orientation signs of
	// (0, S[a], S[b]), by a float filter with an exact fallback.
	sg := make([]int, n*n)
	for a := range n {
		for b := a + 1; b < n; b++ {
			l, r := fx[a]*fy[b], fy[a]*fx[b]
			if d := l - r; math.Abs(d) > 1e-12*(math.Abs(l)+math.Abs(r)) {
				sg[a*n+b] = sgn(d)
			} else {
				sg[a*n+b] = new(big.Rat).Sub(new(big.Rat).Mul(S[a].x, S[b].y), new(big.Rat).Mul(S[a].y, S[b].x)).Sign()
			}
			sg[b*n+a] = -sg[a*n+b]
		}
	}
	for a := range n {
		for b := a + 1; b < n; b++ {
			for c := b + 1; c < n; c++ {
				x, y, z := sg[a*n+b], sg[b*n+c], sg[c*n+a]
				if (x >= 0 && y >= 0 && z >= 0 || x <= 0 && y <= 0 && z <= 0) && (x != 0 || y != 0 || z != 0) {
					return new(big.Rat)
				}
			}
		}
	}
	return best
}

// fSeg is the float distance from the origin to [a, b].
func fSeg(ax, ay, bx, by float64) float64 {
	dx, dy := bx-ax, by-ay
	t := 0.0
	if dd := dx*dx + dy*dy; dd > 0 {
		t = min(max(-(ax*dx+ay*dy)/dd, 0), 1)
	}
	return math.Hypot(ax+t*dx, ay+t*dy)
}

// oPointSeg2 is the exact squared distance from the origin to [a, b].
func oPointSeg2(a, b o2) *big.Rat {
	dx, dy := rSub(b.x, a.x), rSub(b.y, a.y)
	dd := new(big.Rat).Add(rMul(dx, dx), rMul(dy, dy))
	if dd.Sign() == 0 {
		return new(big.Rat).Add(rMul(a.x, a.x), rMul(a.y, a.y))
	}
	tn := new(big.Rat).Add(rMul(a.x, dx), rMul(a.y, dy))
	tn, td := oClampFrac(tn.Neg(tn), dd)
	// (a + t·d)·td
	x := new(big.Rat).Add(rMul(a.x, td), rMul(dx, tn))
	y := new(big.Rat).Add(rMul(a.y, td), rMul(dy, tn))
	n := new(big.Rat).Add(rMul(x, x), rMul(y, y))
	return n.Quo(n, rMul(td, td))
}

// oCyl is the oracle's answer to Cylinder.
func oCyl(path Path, r, z0, z1 float64, t geom.Triangle) bool {
	d := oCylDist2(path, z0, z1, t)
	if d == nil {
		return false
	}
	rr := oR(r)
	return d.Cmp(rr.Mul(rr, rr)) <= 0
}

// sqrtF returns a float64 near √d.
func sqrtF(d *big.Rat) float64 {
	f := new(big.Float).SetPrec(200).SetRat(d)
	f.Sqrt(f)
	x, _ := f.Float64()
	return x
}
