package ratccd

import (
	"math/big"
	"strings"
)

// poly is a polynomial in t with rational coefficients, lowest degree
// first, without trailing zero coefficients: nil is the zero polynomial.
// Coefficients are never modified once a poly is built.
type poly []*big.Rat

// trim drops trailing zero coefficients.
func trim(p poly) poly {
	for len(p) > 0 && p[len(p)-1].Sign() == 0 {
		p = p[:len(p)-1]
	}
	if len(p) == 0 {
		return nil
	}
	return p
}

// deg returns the degree of p, -1 for the zero polynomial.
func (p poly) deg() int { return len(p) - 1 }

// isZero reports whether p is the zero polynomial.
func (p poly) isZero() bool { return len(p) == 0 }

// lead returns the leading coefficient of a nonzero p.
func (p poly) lead() *big.Rat { return p[len(p)-1] }

// constPoly returns the constant polynomial r.
func constPoly(r *big.Rat) poly { return trim(poly{new(big.Rat).Set(r)}) }

// linear returns x0 + t·(x1 − x0).
func linear(x0, x1 *big.Rat) poly {
	return trim(poly{new(big.Rat).Set(x0), new(big.Rat).Sub(x1, x0)})
}

// add returns p + q.
func add(p, q poly) poly {
	if len(p) < len(q) {
		p, q = q, p
	}
	r := make(poly, len(p))
	for i := range p {
		r[i] = new(big.Rat).Set(p[i])
		if i < len(q) {
			r[i].Add(r[i], q[i])
		}
	}
	return trim(r)
}

// neg returns −p.
func neg(p poly) poly {
	r := make(poly, len(p))
	for i := range p {
		r[i] = new(big.Rat).Neg(p[i])
	}
	return trim(r)
}

// sub returns p − q.
func sub(p, q poly) poly { return add(p, neg(q)) }

// mul returns p·q.
func mul(p, q poly) poly {
	if p.isZero() || q.isZero() {
		return nil
	}
	r := make(poly, len(p)+len(q)-1)
	for i := range r {
		r[i] = new(big.Rat)
	}
	var m big.Rat
	for i := range p {
		for j := range q {
			m.Mul(p[i], q[j])
			r[i+j].Add(r[i+j], &m)
		}
	}
	return trim(r)
}

// scale returns c·p.
func scale(p poly, c *big.Rat) poly {
	r := make(poly, len(p))
	for i := range p {
		r[i] = new(big.Rat).Mul(p[i], c)
	}
	return trim(r)
}

// eval returns p(x).
func eval(p poly, x *big.Rat) *big.Rat {
	r := new(big.Rat)
	for i := len(p) - 1; i >= 0; i-- {
		r.Mul(r, x)
		r.Add(r, p[i])
	}
	return r
}

// signAt returns the sign of p(x).
func signAt(p poly, x *big.Rat) int { return eval(p, x).Sign() }

// deriv returns p′.
func deriv(p poly) poly {
	if len(p) <= 1 {
		return nil
	}
	r := make(poly, len(p)-1)
	for i := 1; i < len(p); i++ {
		r[i-1] = new(big.Rat).Mul(p[i], new(big.Rat).SetInt64(int64(i)))
	}
	return trim(r)
}

// divmod returns the quotient and remainder of p divided by a nonzero q.
func divmod(p, q poly) (quo, rem poly) {
	if q.isZero() {
		panic("ratccd: division by the zero polynomial")
	}
	rem = make(poly, len(p))
	for i := range p {
		rem[i] = new(big.Rat).Set(p[i])
	}
	if len(p) < len(q) {
		return nil, trim(rem)
	}
	quo = make(poly, len(p)-len(q)+1)
	for i := range quo {
		quo[i] = new(big.Rat)
	}
	inv := new(big.Rat).Inv(q.lead())
	var m big.Rat
	for k := len(p) - len(q); k >= 0; k-- {
		c := new(big.Rat).Mul(rem[k+len(q)-1], inv)
		quo[k] = c
		if c.Sign() == 0 {
			continue
		}
		for j := range q {
			m.Mul(c, q[j])
			rem[k+j].Sub(rem[k+j], &m)
		}
	}
	return trim(quo), trim(rem[:len(q)-1])
}

// monic returns p divided by its leading coefficient (p nonzero).
func monic(p poly) poly { return scale(p, new(big.Rat).Inv(p.lead())) }

// unitLead returns p divided by the absolute value of its leading
// coefficient: the same signs everywhere, smaller numbers.
func unitLead(p poly) poly {
	c := new(big.Rat).Abs(p.lead())
	return scale(p, c.Inv(c))
}

// gcd returns the monic greatest common divisor of p and q, not both zero.
// It runs on integer polynomials (primitive pseudo-remainders, see zrem):
// Euclid's algorithm in big.Rat reduces every coefficient with a gcd of
// numbers of tens of thousands of bits when the coordinates mix float64
// extremes, which took seconds a query.
func gcd(p, q poly) poly {
	a, b := integral(p), integral(q)
	for len(b) > 0 {
		a, b = b, zrem(a, b)
	}
	return monic(ratPoly(a))
}

// squarefree returns p / gcd(p, p′): the product of p's distinct
// irreducible factors, up to a constant (p of degree at least 1).
func squarefree(p poly) poly {
	g := integral(gcd(p, deriv(p)))
	return unitLead(ratPoly(zquo(integral(p), g)))
}

// sturm returns the Sturm sequence of a squarefree p of degree at least
// 1: p, p′, and the negated remainders, each scaled by a positive number
// to integer coefficients.
func sturm(p poly) []zpoly { return tarski(integral(p), integral(deriv(p))) }

// tarski returns the signed remainder sequence of p and q: p, q, and the
// negated remainders, each scaled by a positive number.
func tarski(p, q zpoly) []zpoly {
	seq := []zpoly{zprim(p)}
	if len(q) == 0 {
		return seq
	}
	seq = append(seq, zprim(q))
	for {
		r := zrem(seq[len(seq)-2], seq[len(seq)-1])
		if len(r) == 0 {
			return seq
		}
		n := make(zpoly, len(r)) // r may share a's coefficients
		for i := range r {
			n[i] = new(big.Int).Neg(r[i])
		}
		seq = append(seq, n)
	}
}

// ratPoly returns z as a poly.
func ratPoly(z zpoly) poly {
	p := make(poly, len(z))
	for i, c := range z {
		p[i] = new(big.Rat).SetInt(c)
	}
	return trim(p)
}

// zrem returns the remainder of a divided by b (nonzero), times a positive
// number, primitive: |lc(b)|^k·a reduced by multiples of b, k steps.
func zrem(a, b zpoly) zpoly {
	r := ztrim(append(zpoly(nil), a...))
	lb := b[len(b)-1]
	f := new(big.Int).Abs(lb) // the positive factor of a step
	sg := lb.Sign()           // f = sg·lb
	for len(r) >= len(b) {
		lr := r[len(r)-1]
		k := len(r) - len(b)
		n := make(zpoly, len(r))
		for i := range r {
			n[i] = new(big.Int).Mul(r[i], f)
		}
		// f·r − sg·lr·x^k·b: its leading coefficient is f·lr − sg·lr·lb = 0.
		for j := range b {
			t := new(big.Int).Mul(lr, b[j])
			if sg < 0 {
				t.Neg(t)
			}
			n[k+j].Sub(n[k+j], t)
		}
		r = ztrim(n[:len(n)-1])
	}
	return zprim(r)
}

// zquo returns a/b times a positive number, b dividing a exactly.
func zquo(a, b zpoly) zpoly {
	r := ztrim(append(zpoly(nil), a...))
	if len(r) < len(b) {
		return nil
	}
	q := make(zpoly, len(r)-len(b)+1)
	for i := range q {
		q[i] = new(big.Int)
	}
	lb := b[len(b)-1]
	f := new(big.Int).Abs(lb)
	sg := lb.Sign()
	for len(r) >= len(b) {
		lr := r[len(r)-1]
		k := len(r) - len(b)
		for i := range q {
			q[i].Mul(q[i], f)
		}
		c := new(big.Int).Set(lr)
		if sg < 0 {
			c.Neg(c)
		}
		q[k].Add(q[k], c)
		n := make(zpoly, len(r))
		for i := range r {
			n[i] = new(big.Int).Mul(r[i], f)
		}
		for j := range b {
			n[k+j].Sub(n[k+j], new(big.Int).Mul(c, b[j]))
		}
		r = ztrim(n[:len(n)-1])
	}
	return zprim(ztrim(q))
}

// zmul returns p·q.
func zmul(p, q zpoly) zpoly {
	if len(p) == 0 || len(q) == 0 {
		return nil
	}
	r := make(zpoly, len(p)+len(q)-1)
	for i := range r {
		r[i] = new(big.Int)
	}
	var m big.Int
	for i := range p {
		for j := range q {
			r[i+j].Add(r[i+j], m.Mul(p[i], q[j]))
		}
	}
	return ztrim(r)
}

// zderiv returns p′.
func zderiv(p zpoly) zpoly {
	if len(p) <= 1 {
		return nil
	}
	r := make(zpoly, len(p)-1)
	for i := range r {
		r[i] = new(big.Int).Mul(p[i+1], big.NewInt(int64(i+1)))
	}
	return ztrim(r)
}

// ztrim drops trailing zero coefficients.
func ztrim(p zpoly) zpoly {
	for len(p) > 0 && p[len(p)-1].Sign() == 0 {
		p = p[:len(p)-1]
	}
	return p
}

// zprim divides p by the gcd of its coefficients.
func zprim(p zpoly) zpoly {
	g := new(big.Int)
	for _, c := range p {
		g.GCD(nil, nil, g, new(big.Int).Abs(c))
	}
	if g.Sign() == 0 || g.Cmp(big.NewInt(1)) == 0 {
		return p
	}
	out := make(zpoly, len(p))
	for i, c := range p {
		out[i] = new(big.Int).Quo(c, g)
	}
	return out
}

// variations returns the number of sign changes in the sequence of values
// of seq at x, zeros ignored.
func variations(seq []zpoly, x *big.Rat) int {
	n, last := 0, 0
	for _, p := range seq {
		s := p.signAt(x)
		if s == 0 {
			continue
		}
		if last != 0 && s != last {
			n++
		}
		last = s
	}
	return n
}

// String formats p as a sum of terms in t, for failure messages.
func (p poly) String() string {
	if p.isZero() {
		return "0"
	}
	var b strings.Builder
	for i := len(p) - 1; i >= 0; i-- {
		if p[i].Sign() == 0 {
			continue
		}
		if b.Len() > 0 {
			b.WriteString(" + ")
		}
		b.WriteString("(" + p[i].RatString() + ")")
		switch i {
		case 0:
		case 1:
			b.WriteString("t")
		default:
			b.WriteString("t^" + itoa(i))
		}
	}
	return b.String()
}

func itoa(i int) string { return new(big.Int).SetInt64(int64(i)).String() }

// zpoly is a polynomial with integer coefficients, lowest degree first,
// for fast sign evaluation (no normalization of fractions).
type zpoly []*big.Int

// integral returns c·p with integer coefficients for some c > 0 (the
// least common multiple of the denominators).
func integral(p poly) zpoly {
	l := big.NewInt(1)
	var g big.Int
	for _, c := range p {
		d := c.Denom()
		g.GCD(nil, nil, l, d)
		l.Mul(l, new(big.Int).Quo(d, &g))
	}
	z := make(zpoly, len(p))
	for i, c := range p {
		z[i] = new(big.Int).Mul(c.Num(), new(big.Int).Quo(l, c.Denom()))
	}
	return z
}

// signAt returns the sign of p(x): of the sum of c_i·n^i·d^(deg−i) for
// x = n/d, d > 0.
func (p zpoly) signAt(x *big.Rat) int {
	if len(p) == 0 {
		return 0
	}
	v, _ := p.scaledAt(x)
	return v.Sign()
}

// scaledAt returns p(x)·D and D = d^deg, for x = n/d, d > 0: p(x)·D is the
// sum of c_i·n^i·d^(deg−i), in integers (a big.Rat value would be reduced
// by a gcd of numbers of thousands of bits). p is not empty.
func (p zpoly) scaledAt(x *big.Rat) (v, D *big.Int) {
	n, d := x.Num(), x.Denom()
	v = new(big.Int).Set(p[len(p)-1])
	D = big.NewInt(1)
	var t big.Int
	for i := len(p) - 2; i >= 0; i-- {
		v.Mul(v, n)
		D.Mul(D, d)
		v.Add(v, t.Mul(p[i], D))
	}
	return v, D
}

// pvec is a point or a vector whose coordinates are polynomials in t.
type pvec [3]poly

// motion returns the point moving linearly from (x0, y0, z0) at t = 0 to
// (x1, y1, z1) at t = 1.
func motion(a0, a1 rvec) pvec {
	return pvec{linear(a0[0], a1[0]), linear(a0[1], a1[1]), linear(a0[2], a1[2])}
}

// vsub returns u − v.
func vsub(u, v pvec) pvec { return pvec{sub(u[0], v[0]), sub(u[1], v[1]), sub(u[2], v[2])} }

// cross returns u × v.
func cross(u, v pvec) pvec {
	return pvec{
		sub(mul(u[1], v[2]), mul(u[2], v[1])),
		sub(mul(u[2], v[0]), mul(u[0], v[2])),
		sub(mul(u[0], v[1]), mul(u[1], v[0])),
	}
}

// dot returns u · v.
func dot(u, v pvec) poly { return add(add(mul(u[0], v[0]), mul(u[1], v[1])), mul(u[2], v[2])) }
