package ccd

import (
	"math"
	"math/big"
	"sync/atomic"
)

// evaluations counts the polynomial evaluations of the exact path (its
// unit of work, for the tests).
var evaluations atomic.Int64

// This file is the arithmetic of the exact path: polynomials in t with
// integer coefficients and dyadic times (an integer over a power of two).
// Nothing here divides or reduces a fraction: a big.Rat normalizes every
// result with a gcd of its numerator and denominator, which made queries
// whose coordinates mix float64 extremes (5e-324 beside 1e308: integers
// of 2,100 bits once scaled) take tens of seconds. The coordinates are
// scaled to integers by one power of two (family), a polynomial's sign at
// n/2^e is that of the integer Σ c_i·n^i·2^(e·(d−i)), and the Euclidean
// algorithms run on pseudo-remainders divided by their content, which
// change a polynomial only by a positive factor where signs matter.

// zpoly is a polynomial in t with integer coefficients, lowest degree
// first, without trailing zeros (the zero polynomial is empty). Its
// methods return new polynomials and never change their operands.
type zpoly []*big.Int

func (p zpoly) trim() zpoly {
	for len(p) > 0 && p[len(p)-1].Sign() == 0 {
		p = p[:len(p)-1]
	}
	return p
}

func (p zpoly) zero() bool  { return len(p) == 0 }
func (p zpoly) degree() int { return len(p) - 1 }
func (p zpoly) lead() *big.Int {
	return p[len(p)-1]
}

func (p zpoly) add(q zpoly) zpoly {
	r := make(zpoly, max(len(p), len(q)))
	for i := range r {
		r[i] = new(big.Int)
		if i < len(p) {
			r[i].Add(r[i], p[i])
		}
		if i < len(q) {
			r[i].Add(r[i], q[i])
		}
	}
	return r.trim()
}

func (p zpoly) neg() zpoly {
	r := make(zpoly, len(p))
	for i := range p {
		r[i] = new(big.Int).Neg(p[i])
	}
	return r
}

func (p zpoly) sub(q zpoly) zpoly { return p.add(q.neg()) }

func (p zpoly) mul(q zpoly) zpoly {
	if p.zero() || q.zero() {
		return nil
	}
	r := make(zpoly, len(p)+len(q)-1)
	for i := range r {
		r[i] = new(big.Int)
	}
	t := new(big.Int)
	for i := range p {
		for j := range q {
			r[i+j].Add(r[i+j], t.Mul(p[i], q[j]))
		}
	}
	return r.trim()
}

func (p zpoly) deriv() zpoly {
	if len(p) < 2 {
		return nil
	}
	r := make(zpoly, len(p)-1)
	for i := range r {
		r[i] = new(big.Int).Mul(p[i+1], big.NewInt(int64(i+1)))
	}
	return r.trim()
}

// primitive returns p divided by the gcd of its coefficients (a positive
// factor).
func (p zpoly) primitive() zpoly {
	if p.zero() {
		return p
	}
	g := new(big.Int)
	for _, c := range p {
		g.GCD(nil, nil, g, new(big.Int).Abs(c))
		if g.BitLen() == 1 {
			return p
		}
	}
	r := make(zpoly, len(p))
	for i, c := range p {
		r[i] = new(big.Int).Quo(c, g)
	}
	return r
}

// prem returns a positive multiple of the remainder of p by q (not zero):
// lc(q)^k·p − s·q for the number k of steps taken, negated when lc(q)^k is
// negative, made primitive.
func (p zpoly) prem(q zpoly) zpoly {
	r := append(zpoly(nil), p...)
	neg := false
	lq := q.lead()
	for !r.zero() && r.degree() >= q.degree() {
		r, _, _ = r.pstep(q)
		if lq.Sign() < 0 {
			neg = !neg
		}
	}
	if neg {
		r = r.neg()
	}
	return r.primitive()
}

// pquo returns a nonzero multiple of p/q, q dividing p exactly.
func (p zpoly) pquo(q zpoly) zpoly {
	r := append(zpoly(nil), p...)
	out := make(zpoly, p.degree()-q.degree()+1)
	for i := range out {
		out[i] = new(big.Int)
	}
	lq := q.lead()
	for !r.zero() && r.degree() >= q.degree() {
		var lr *big.Int
		var sh int
		r, lr, sh = r.pstep(q)
		for i := range out {
			out[i].Mul(out[i], lq)
		}
		out[sh].Add(out[sh], lr)
	}
	return out.trim().primitive()
}

// pstep is one step of pseudo-division of r by q, deg r ≥ deg q: it
// returns lc(q)·r − lr·x^sh·q, which cancels r's leading term, with
// lr = lc(r) and sh = deg r − deg q.
func (r zpoly) pstep(q zpoly) (next zpoly, lr *big.Int, sh int) {
	lq := q.lead()
	lr = new(big.Int).Set(r.lead())
	sh = r.degree() - q.degree()
	nr := make(zpoly, len(r))
	for i := range r {
		nr[i] = new(big.Int).Mul(r[i], lq)
	}
	var t big.Int
	for j := range q {
		nr[j+sh].Sub(nr[j+sh], t.Mul(lr, q[j]))
	}
	return nr.trim(), lr, sh
}

// gcd returns a greatest common divisor of p and q (zero if both are),
// primitive.
func gcd(p, q zpoly) zpoly {
	for !q.zero() {
		p, q = q, p.prem(q)
	}
	return p.primitive()
}

// squarefree returns p divided by gcd(p, p′): the same roots, each simple.
func (p zpoly) squarefree() zpoly {
	if p.degree() < 1 {
		return p
	}
	g := gcd(p, p.deriv())
	if g.degree() < 1 {
		return p.primitive()
	}
	return p.pquo(g)
}

// remSeq returns the signed remainder sequence of p and q, each member a
// positive multiple of its own: p, q, −rem(p, q), … up to the last nonzero
// one. With q = p′ (p squarefree) it is p's Sturm sequence; with q = p′·g,
// its variations count the roots of p where g > 0 less those where g < 0
// (Sturm–Tarski).
func remSeq(p, q zpoly) []zpoly {
	s := []zpoly{p.primitive()}
	if q.zero() {
		return s
	}
	s = append(s, q.primitive())
	for {
		r := s[len(s)-2].prem(s[len(s)-1])
		if r.zero() {
			return s
		}
		s = append(s, r.neg())
	}
}

// divLinear returns a multiple of p divided by (t − x), x being a root of
// p.
func (p zpoly) divLinear(x dyad) zpoly {
	// t − n/2^e, times 2^e: 2^e·t − n.
	return p.pquo(zpoly{new(big.Int).Neg(x.n), new(big.Int).Lsh(big.NewInt(1), x.e)})
}

// dyad is the number n/2^e.
type dyad struct {
	n *big.Int
	e uint
}

func dyadInt(k int64) dyad { return dyad{big.NewInt(k), 0} }

// mid returns (a + b)/2, in lowest terms.
func mid(a, b dyad) dyad {
	e := max(a.e, b.e)
	n := new(big.Int).Lsh(a.n, e-a.e)
	n.Add(n, new(big.Int).Lsh(b.n, e-b.e))
	e++
	if n.Sign() == 0 {
		return dyad{n, 0}
	}
	if z := min(n.TrailingZeroBits(), e); z > 0 {
		n.Rsh(n, z)
		e -= z
	}
	return dyad{n, e}
}

// cmp returns the sign of a − b.
func (a dyad) cmp(b dyad) int {
	e := max(a.e, b.e)
	return new(big.Int).Lsh(a.n, e-a.e).Cmp(new(big.Int).Lsh(b.n, e-b.e))
}

// sub returns a − b.
func (a dyad) sub(b dyad) dyad {
	e := max(a.e, b.e)
	n := new(big.Int).Lsh(a.n, e-a.e)
	return dyad{n.Sub(n, new(big.Int).Lsh(b.n, e-b.e)), e}
}

// float returns the float64 nearest a and whether it is below, equal to
// or above a (-1, 0, 1).
func (a dyad) float() (float64, int) {
	prec := uint(max(a.n.BitLen(), 1))
	f := new(big.Float).SetPrec(prec).SetInt(a.n)
	f.SetMantExp(f, -int(a.e))
	v, acc := f.Float64()
	return v, int(acc)
}

// floorFloat returns the largest float64 ≤ a, ceilFloat the smallest ≥ a.
func floorFloat(a dyad) float64 {
	f, acc := a.float()
	if acc > 0 {
		f = math.Nextafter(f, math.Inf(-1))
	}
	return f
}

func ceilFloat(a dyad) float64 {
	f, acc := a.float()
	if acc < 0 {
		f = math.Nextafter(f, math.Inf(1))
	}
	return f
}

// signAt returns the sign of p(x): that of the integer
// Σ p_i·n^i·2^(e·(d−i)) (Horner), 2^(e·d) times p(n/2^e).
func (p zpoly) signAt(x dyad) int {
	evaluations.Add(1)
	if p.zero() {
		return 0
	}
	if x.n.Sign() == 0 {
		return p[0].Sign()
	}
	r := new(big.Int).Set(p.lead())
	t := new(big.Int)
	for i := len(p) - 2; i >= 0; i-- {
		r.Mul(r, x.n)
		r.Add(r, t.Lsh(p[i], x.e*uint(len(p)-1-i)))
	}
	return r.Sign()
}

// variations returns the number of sign changes of the sequence s at x,
// zeros skipped.
func variations(s []zpoly, x dyad) int {
	n, last := 0, 0
	for _, p := range s {
		sg := p.signAt(x)
		if sg == 0 {
			continue
		}
		if last != 0 && sg != last {
			n++
		}
		last = sg
	}
	return n
}
