package shape

import (
	"math"
	"math/big"

	"github.com/collide3d/collide/geom"
)

// The exact path: every float64 is a dyadic rational, converted exactly
// (big.Rat.SetFloat64), and every quantity below is a rational computed
// exactly, so the answers are exact for every finite input.
//
// Both tests reduce to one question: is the distance from the origin to the
// convex hull of a finite set of rational points (3D for Ball, 2D for
// Cylinder) at most r? minNormLE answers it by GJK in exact arithmetic.

type rvec [3]*big.Rat

// scaler converts floats to rationals multiplied by one power of two 2^K
// that makes every input an integer: exact, it scales every length by 2^K
// (r too), so no answer changes, and the rational arithmetic then works on
// integers (no gcd) until a quotient is formed.
type scaler int

// newScaler returns the least K ≥ 0 with x·2^K an integer for every x of
// the inputs (all finite).
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

// rat returns x·2^K.
func (k scaler) rat(x float64) *big.Rat {
	m, e := math.Frexp(x)
	z := new(big.Int).SetInt64(int64(m * (1 << 53)))
	if s := e - 53 + int(k); s >= 0 {
		z.Lsh(z, uint(s))
	} else {
		z.Rsh(z, uint(-s)) // exact: the bits shifted out are zero
	}
	return new(big.Rat).SetInt(z)
}

func ratSub(a, b *big.Rat) *big.Rat { return new(big.Rat).Sub(a, b) }

func ratMul(a, b *big.Rat) *big.Rat { return new(big.Rat).Mul(a, b) }

func (v rvec) sub(w rvec) rvec {
	return rvec{ratSub(v[0], w[0]), ratSub(v[1], w[1]), ratSub(v[2], w[2])}
}

func (v rvec) dot(w rvec) *big.Rat {
	d := ratMul(v[0], w[0])
	d.Add(d, ratMul(v[1], w[1]))
	return d.Add(d, ratMul(v[2], w[2]))
}

// axpy returns v + s·w.
func (v rvec) axpy(s *big.Rat, w rvec) rvec {
	return rvec{
		new(big.Rat).Add(v[0], ratMul(s, w[0])),
		new(big.Rat).Add(v[1], ratMul(s, w[1])),
		new(big.Rat).Add(v[2], ratMul(s, w[2])),
	}
}

// mDiff returns (t_j − p_i)·2^K exactly.
func (k scaler) mDiff(tj, pi geom.Vec3) rvec {
	return rvec{ratSub(k.rat(tj.X), k.rat(pi.X)), ratSub(k.rat(tj.Y), k.rat(pi.Y)), ratSub(k.rat(tj.Z), k.rat(pi.Z))}
}

// ballExact decides Ball exactly: the distance from (0, 0, zc) to
// M = conv{t_j − p_i}, i.e. from the origin to conv{t_j − p_i − (0,0,zc)},
// is at most r.
func ballExact(q *[3]geom.Vec3, n int, zc, r float64, t *geom.Triangle) bool {
	k := newScaler(q, n, t, zc, r, 0)
	zr := k.rat(zc)
	pts := make([]rvec, 0, 9)
	for i := range n {
		for j := range 3 {
			m := k.mDiff(t[j], q[i])
			m[2].Sub(m[2], zr)
			pts = append(pts, m)
		}
	}
	rr := k.rat(r)
	return minNormLE(pts, rr.Mul(rr, rr))
}

// cylExact decides Cylinder exactly: S (see cylinder.go) built in rationals,
// then the distance from the origin to conv(S_xy) against r.
func cylExact(q *[3]geom.Vec3, n int, r, z0, z1 float64, t *geom.Triangle) bool {
	k := newScaler(q, n, t, r, z0, z1)
	var m [9]rvec
	var lo, hi [9]int
	zr := [2]*big.Rat{k.rat(z0), k.rat(z1)}
	var S []rvec
	zero := new(big.Rat)
	for i := range n {
		for j := range 3 {
			l := 3*i + j
			m[l] = k.mDiff(t[j], q[i])
			lo[l], hi[l] = m[l][2].Cmp(zr[0]), m[l][2].Cmp(zr[1])
			if lo[l] >= 0 && hi[l] <= 0 {
				S = append(S, rvec{m[l][0], m[l][1], zero})
			}
		}
	}
	for _, e := range minkEdges[n] {
		a, b := e[0], e[1]
		for pl, s := range [2][9]int{lo, hi} {
			if s[a]*s[b] >= 0 {
				continue
			}
			// τ = (zp − a_z)/(b_z − a_z) ∈ (0, 1); the point a + τ(b − a).
			d := m[b].sub(m[a])
			tau := ratSub(zr[pl], m[a][2])
			tau.Quo(tau, d[2])
			x := m[a].axpy(tau, d)
			S = append(S, rvec{x[0], x[1], zero})
		}
	}
	if len(S) == 0 {
		return false
	}
	rr := k.rat(r)
	return minNormLE(S, rr.Mul(rr, rr))
}

// minNormLE reports whether the squared distance from the origin to the
// convex hull of pts (non-empty) is at most r2, by GJK in exact arithmetic.
//
// v is the closest point of conv(Y) for a simplex Y ⊂ pts. Each step takes
// w minimising v·w over pts. If v·w ≥ v·v, the hull lies in the half-space
// {x : v·x ≥ |v|²}, so v is the closest point and |v|² is the answer; and
// v·w > 0 with (v·w)² > r2·|v|² proves the distance (at least v·w/|v|) is
// greater than r. Otherwise v·(w − v) < 0, so points of [v, w] are strictly
// closer: the closest point of conv(Y ∪ {w}) is strictly shorter. Y is then
// replaced by the minimal support of that point (affinely independent, at
// most d+1 points). Since |v|² decreases strictly and v is determined by Y,
// no simplex repeats: GJK stops after finitely many steps. |v|² ≤ r2 at any
// step proves the distance is at most r (v is a point of the hull).
func minNormLE(pts []rvec, r2 *big.Rat) bool {
	best := 0
	vv := pts[0].dot(pts[0])
	for k := 1; k < len(pts); k++ {
		if d := pts[k].dot(pts[k]); d.Cmp(vv) < 0 {
			best, vv = k, d
		}
	}
	Y := []rvec{pts[best]}
	v := pts[best]
	for {
		if vv.Cmp(r2) <= 0 {
			return true
		}
		var w rvec
		var vw *big.Rat
		for _, p := range pts {
			if d := v.dot(p); vw == nil || d.Cmp(vw) < 0 {
				w, vw = p, d
			}
		}
		if vw.Cmp(vv) >= 0 {
			return false
		}
		if vw.Sign() > 0 && ratMul(vw, vw).Cmp(ratMul(r2, vv)) > 0 {
			return false
		}
		Y, v, vv = closestSimplex(append(Y, w))
	}
}

// closestSimplex returns the minimal support Z ⊂ Y (affinely independent,
// the closest point in its relative interior), the point v of conv(Y)
// closest to the origin, and |v|², by brute force over the subsets of Y
// (|Y| ≤ 4): for each affinely independent subset X, the closest point of
// the affine hull of X, kept if its barycentric coordinates are all
// positive (it is then in conv(X) ⊂ conv(Y)). The closest point of conv(Y)
// lies in the relative interior of conv(X*) for an affinely independent X*
// (Carathéodory), where it is also the closest point of aff(X*) (a convex
// function minimised over conv(X*) at a relative interior point is minimised
// over aff(X*)); so the least kept norm is the answer.
func closestSimplex(Y []rvec) ([]rvec, rvec, *big.Rat) {
	var bestZ []rvec
	var bestV rvec
	var bestN *big.Rat
	for mask := 1; mask < 1<<len(Y); mask++ {
		var X []rvec
		for i := range Y {
			if mask&(1<<i) != 0 {
				X = append(X, Y[i])
			}
		}
		v, ok := affClosest(X)
		if !ok {
			continue
		}
		nv := v.dot(v)
		if bestN == nil || nv.Cmp(bestN) < 0 || (nv.Cmp(bestN) == 0 && len(X) < len(bestZ)) {
			bestZ, bestV, bestN = X, v, nv
		}
	}
	return bestZ, bestV, bestN
}

// affClosest returns the point of the affine hull of X closest to the
// origin, if X is affinely independent and the point's barycentric
// coordinates are all positive: v = x0 + Σ α_i d_i, d_i = x_i − x0, with
// d_i·v = 0, i.e. the Gram system G α = −(d_i·x0).
func affClosest(X []rvec) (rvec, bool) {
	x0 := X[0]
	m := len(X) - 1
	if m == 0 {
		return x0, true
	}
	d := make([]rvec, m)
	for i := range m {
		d[i] = X[i+1].sub(x0)
	}
	// Augmented matrix [G | rhs].
	A := make([][]*big.Rat, m)
	for i := range m {
		A[i] = make([]*big.Rat, m+1)
		for j := range m {
			A[i][j] = d[i].dot(d[j])
		}
		A[i][m] = new(big.Rat).Neg(d[i].dot(x0))
	}
	alpha, ok := solve(A)
	if !ok {
		return rvec{}, false
	}
	sum := new(big.Rat)
	for _, a := range alpha {
		if a.Sign() <= 0 {
			return rvec{}, false
		}
		sum.Add(sum, a)
	}
	if sum.Cmp(big.NewRat(1, 1)) >= 0 {
		return rvec{}, false // λ0 = 1 − Σα ≤ 0
	}
	v := x0
	for i := range m {
		v = v.axpy(alpha[i], d[i])
	}
	return v, true
}

// solve solves the square system in the augmented matrix A by Gaussian
// elimination in rationals; ok is false if it is singular. The Gram matrix
// of the d_i is singular exactly when X is affinely dependent.
func solve(A [][]*big.Rat) ([]*big.Rat, bool) {
	m := len(A)
	for c := range m {
		p := -1
		for r := c; r < m; r++ {
			if A[r][c].Sign() != 0 {
				p = r
				break
			}
		}
		if p < 0 {
			return nil, false
		}
		A[c], A[p] = A[p], A[c]
		for r := range m {
			if r == c || A[r][c].Sign() == 0 {
				continue
			}
			f := new(big.Rat).Quo(A[r][c], A[c][c])
			for k := c; k <= m; k++ {
				A[r][k] = ratSub(A[r][k], ratMul(f, A[c][k]))
			}
		}
	}
	x := make([]*big.Rat, m)
	for i := range m {
		x[i] = new(big.Rat).Quo(A[i][m], A[i][i])
	}
	return x, true
}
