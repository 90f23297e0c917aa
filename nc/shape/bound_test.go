package shape

// Tests of the fast path's error bounds themselves, against exact values:
// each bound is checked on random and adversarial data (near-horizontal
// crossings, far from the origin, tiny), whether or not a certificate
// would have been close to it. A bound that is too small fails here even
// when no query answer changes.

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/collide3d/collide/geom"
)

const bigPrec = 4000

func bf(x float64) *big.Float { return new(big.Float).SetPrec(bigPrec).SetFloat64(x) }

func bfAdd(a, b *big.Float) *big.Float { return new(big.Float).SetPrec(bigPrec).Add(a, b) }
func bfSub(a, b *big.Float) *big.Float { return new(big.Float).SetPrec(bigPrec).Sub(a, b) }
func bfMul(a, b *big.Float) *big.Float { return new(big.Float).SetPrec(bigPrec).Mul(a, b) }

// absDiffLE reports |x − y| ≤ e, for an exact x.
func absDiffLE(x *big.Float, y, e float64) bool {
	d := bfSub(x, bf(y))
	return d.Abs(d).Cmp(bf(e)) <= 0
}

// hptFloat returns the exact coordinates of P/(w·2^K) as big.Floats (exact
// up to the precision: the quotient is the one rounding, at 4000 bits).
func hptFloat(p hpt, k scaler) (x, y *big.Float) {
	den := new(big.Float).SetPrec(bigPrec).SetInt(p.w)
	den.SetMantExp(den, int(k))
	x = new(big.Float).SetPrec(bigPrec).SetInt(p.x)
	y = new(big.Float).SetPrec(bigPrec).SetInt(p.y)
	return x.Quo(x, den), y.Quo(y, den)
}

// slopedCyl returns a cylinder case whose triangle crosses a cap plane with
// nearly horizontal edges (ill-conditioned crossings).
func slopedCyl(rng *rand.Rand) cylCase {
	s := newScene(rng)
	c := cylCase{path: s.path(1 + rng.IntN(3)), r: 1}
	p := c.path.P[0]
	c.z0, c.z1 = s.scalar(), s.scalar()
	if c.z0 > c.z1 {
		c.z0, c.z1 = c.z1, c.z0
	}
	h := p.Z + c.z0
	if rng.IntN(2) == 0 {
		h = p.Z + c.z1
	}
	eps := math.Ldexp(1, -rng.IntN(50)) * s.scale
	for i := range c.t {
		c.t[i] = s.point()
		c.t[i].Z = h + eps*(2*rng.Float64()-1)
	}
	return c
}

func TestCrossingBound(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(21, 22))
	n := caseCount(t, 10000)
	var pts int
	for i := range n {
		var c cylCase
		if i%2 == 0 {
			c, _ = randCyl(rng, 1+rng.IntN(3))
		} else {
			c = slopedCyl(rng)
		}
		q, _ := c.path.verts()
		if !fastRange(&q, c.path.N, &c.t, c.r, c.z0, c.z1) {
			continue
		}
		var cc cylCtx
		S := cc.build(&q, c.path.N, c.z0, c.z1, &c.t, nil)
		k := newScaler(&q, c.path.N, &c.t, c.r, c.z0, c.z1)
		E := exactS(k, &q, c.path.N, c.z0, c.z1, &c.t)
		if len(S) != len(E) {
			t.Fatalf("%v: %d float points of S, %d exact", c, len(S), len(E))
		}
		for j := range S {
			ex, ey := cc.sErr(&S[j], c.z0, c.z1)
			x, y := hptFloat(E[j], k)
			if !absDiffLE(x, S[j].x, ex) || !absDiffLE(y, S[j].y, ey) {
				t.Fatalf("%v: S[%d] = (%v, %v) (%+v), exact (%v, %v), bounds %v %v", c, j, S[j].x, S[j].y, S[j],
					x.Text('g', 20), y.Text('g', 20), ex, ey)
			}
			pts++
		}
	}
	t.Logf("%d points checked", pts)
}

// ballPoint returns the exact vector of a pair: its point of t minus its
// centre (the point of the path lifted by zc).
func ballPoint(q *[3]geom.Vec3, tri *geom.Triangle, zc float64, p *pair) [3]*big.Float {
	var v [3]*big.Float
	comb := func(P *[3]geom.Vec3, a int, s, u float64, c int) *big.Float {
		get := func(i int) *big.Float { return bf(P[i].Index(c)) }
		b := get(a)
		x := bfAdd(b, bfMul(bf(s), bfSub(get((a+1)%3), b)))
		return bfAdd(x, bfMul(bf(u), bfSub(get((a+2)%3), b)))
	}
	for c := range 3 {
		v[c] = bfSub(comb((*[3]geom.Vec3)(tri), p.ta, p.ts, p.tt, c), comb(q, p.qa, p.qs, p.qt, c))
	}
	v[2] = bfSub(v[2], bf(zc))
	return v
}

func norm2LE(v [3]*big.Float, w geom.Vec3, e float64) bool {
	s := new(big.Float).SetPrec(bigPrec)
	for c := range 3 {
		d := bfSub(v[c], bf(w.Index(c)))
		s.Add(s, bfMul(d, d))
	}
	return s.Cmp(bfMul(bf(e), bf(e))) <= 0
}

func TestBallWitnessBound(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(23, 24))
	n := caseCount(t, 10000)
	for i := range n {
		c, _ := randBall(rng, 1+i%3)
		q, _ := c.path.verts()
		if !fastRange(&q, c.path.N, &c.t, c.zc, c.r, 0) {
			continue
		}
		var p pair
		if i%2 == 0 {
			// The search's pair, as ballFast makes it.
			var Q, T [3]geom.Vec3
			for j := range 3 {
				T[j] = c.t[j].Sub(c.t[0])
				Q[j] = q[j].Sub(c.t[0])
				Q[j].Z += c.zc
			}
			p = ballSearch(&Q, &T, c.path.N)
		} else {
			// Arbitrary parameters.
			p = pair{qa: rng.IntN(3), ta: rng.IntN(3), qs: rng.Float64(), qt: rng.Float64(),
				ts: rng.Float64(), tt: math.Ldexp(rng.Float64(), -rng.IntN(60))}
		}
		p.qs, p.qt = fixParams(p.qs, p.qt)
		p.ts, p.tt = fixParams(p.ts, p.tt)
		if h, l := twoSum(p.qs, p.qt); h > 1 || (h == 1 && l > 0) || p.qs < 0 || p.qt < 0 {
			t.Fatalf("fixParams: %v %v", p.qs, p.qt)
		}
		v, e := ballWitness(&q, &c.t, c.zc, &p)
		if !norm2LE(ballPoint(&q, &c.t, c.zc, &p), v, e) {
			t.Fatalf("%v, pair %+v: witness error above its bound %v", c, p, e)
		}
	}
}

func TestCylWitnessBound(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(25, 26))
	n := caseCount(t, 10000)
	var checked int
	for i := range n {
		var c cylCase
		if i%2 == 0 {
			c, _ = randCyl(rng, 1+rng.IntN(3))
		} else {
			c = slopedCyl(rng)
		}
		q, _ := c.path.verts()
		if !fastRange(&q, c.path.N, &c.t, c.r, c.z0, c.z1) {
			continue
		}
		var cc cylCtx
		S := cc.build(&q, c.path.N, c.z0, c.z1, &c.t, nil)
		if len(S) == 0 {
			continue
		}
		g := closest2(S)
		if i%3 == 0 {
			// Arbitrary simplex and weights.
			g.n = 1 + rng.IntN(3)
			for j := range 3 {
				g.idx[j] = rng.IntN(len(S))
				g.lam[j] = rng.Float64()
			}
		}
		x, y, e := cc.witness(S, &g, c.z0, c.z1)
		k := newScaler(&q, c.path.N, &c.t, c.r, c.z0, c.z1)
		E := exactS(k, &q, c.path.N, c.z0, c.z1, &c.t)
		// The exact combination, with the weights witness used.
		s, r := g.lam[1], g.lam[2]
		if g.n < 3 {
			r = 0
		}
		if g.n < 2 {
			s = 0
		}
		s, r = fixParams(s, r)
		idx := [3]int{g.idx[0], g.idx[0], g.idx[0]}
		if g.n > 1 {
			idx[1] = g.idx[1]
		}
		if g.n > 2 {
			idx[2] = g.idx[2]
		}
		ax, ay := hptFloat(E[idx[0]], k)
		bx, by := hptFloat(E[idx[1]], k)
		cx, cy := hptFloat(E[idx[2]], k)
		ex := bfAdd(ax, bfAdd(bfMul(bf(s), bfSub(bx, ax)), bfMul(bf(r), bfSub(cx, ax))))
		ey := bfAdd(ay, bfAdd(bfMul(bf(s), bfSub(by, ay)), bfMul(bf(r), bfSub(cy, ay))))
		zero := new(big.Float)
		if !norm2LE([3]*big.Float{ex, ey, zero}, geom.V(x, y, 0), e) {
			t.Fatalf("%v, simplex %+v: witness error above its bound %v", c, g, e)
		}
		checked++
	}
	t.Logf("%d witnesses checked", checked)
}

func TestGapBound(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(27, 28))
	n := caseCount(t, 10000)
	for i := range n {
		c, _ := randBall(rng, 1+i%3)
		q, _ := c.path.verts()
		if !fastRange(&q, c.path.N, &c.t, c.zc, c.r, 0) {
			continue
		}
		s := math.Ldexp(1, rng.IntN(40)-20)
		dir := geom.V(s*(2*rng.Float64()-1), s*(2*rng.Float64()-1), s*(2*rng.Float64()-1))
		if i%4 == 0 {
			dir.Z = 0
		}
		nn := math.Sqrt(dir.Norm2())
		h := float64(dir.Z * c.zc)
		G, E := gap(&q, c.path.N, &c.t, dir, h, c.r*nn)
		// Exact: min over t_j − p_i of dir·m − dir.Z·zc − r|dir| (the root
		// at 4000 bits).
		var gmin *big.Float
		for a := range c.path.N {
			for j := range 3 {
				d := new(big.Float).SetPrec(bigPrec)
				for k := range 3 {
					d.Add(d, bfMul(bf(dir.Index(k)), bfSub(bf(c.t[j].Index(k)), bf(q[a].Index(k)))))
				}
				if gmin == nil || d.Cmp(gmin) < 0 {
					gmin = d
				}
			}
		}
		n2 := new(big.Float).SetPrec(bigPrec)
		for k := range 3 {
			n2.Add(n2, bfMul(bf(dir.Index(k)), bf(dir.Index(k))))
		}
		rho := bfMul(bf(c.r), n2.Sqrt(n2))
		exact := bfSub(bfSub(gmin, bfMul(bf(dir.Z), bf(c.zc))), rho)
		if !absDiffLE(exact, G, E) {
			t.Fatalf("%v, dir %v: G̃ = %v, exact %v, bound %v", c, dir, G, exact.Text('g', 20), E)
		}
	}
}

var _ = fmt.Sprint
