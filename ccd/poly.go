package ccd

import "math/big"

// poly is a polynomial in t with rational coefficients, lowest degree
// first, without trailing zeros (the zero polynomial is empty). Its
// methods return new polynomials and never change their operands.
type poly []*big.Rat

func (p poly) trim() poly {
	for len(p) > 0 && p[len(p)-1].Sign() == 0 {
		p = p[:len(p)-1]
	}
	return p
}

func (p poly) zero() bool  { return len(p) == 0 }
func (p poly) degree() int { return len(p) - 1 }

func (p poly) add(q poly) poly {
	r := make(poly, max(len(p), len(q)))
	for i := range r {
		r[i] = new(big.Rat)
		if i < len(p) {
			r[i].Add(r[i], p[i])
		}
		if i < len(q) {
			r[i].Add(r[i], q[i])
		}
	}
	return r.trim()
}

func (p poly) sub(q poly) poly { return p.add(q.scale(big.NewRat(-1, 1))) }

func (p poly) scale(c *big.Rat) poly {
	r := make(poly, len(p))
	for i := range p {
		r[i] = new(big.Rat).Mul(p[i], c)
	}
	return r.trim()
}

func (p poly) mul(q poly) poly {
	if p.zero() || q.zero() {
		return nil
	}
	r := make(poly, len(p)+len(q)-1)
	for i := range r {
		r[i] = new(big.Rat)
	}
	t := new(big.Rat)
	for i := range p {
		for j := range q {
			r[i+j].Add(r[i+j], t.Mul(p[i], q[j]))
		}
	}
	return r.trim()
}

// eval returns p(x) (Horner).
func (p poly) eval(x *big.Rat) *big.Rat {
	r := new(big.Rat)
	for i := len(p) - 1; i >= 0; i-- {
		r.Mul(r, x)
		r.Add(r, p[i])
	}
	return r
}

func (p poly) deriv() poly {
	if len(p) < 2 {
		return nil
	}
	r := make(poly, len(p)-1)
	for i := range r {
		r[i] = new(big.Rat).Mul(p[i+1], big.NewRat(int64(i+1), 1))
	}
	return r.trim()
}

// divmod returns the quotient and remainder of p by q (not zero).
func (p poly) divmod(q poly) (quo, rem poly) {
	rem = append(poly(nil), p...)
	for i := range rem {
		rem[i] = new(big.Rat).Set(rem[i])
	}
	if len(p) < len(q) {
		return nil, rem
	}
	quo = make(poly, len(p)-len(q)+1)
	lead := q[len(q)-1]
	t := new(big.Rat)
	for i := len(quo) - 1; i >= 0; i-- {
		c := new(big.Rat).Quo(rem[i+len(q)-1], lead)
		quo[i] = c
		for j := range q {
			rem[i+j].Sub(rem[i+j], t.Mul(c, q[j]))
		}
	}
	return quo.trim(), rem[:len(q)-1].trim()
}

// monic returns p divided by its leading coefficient.
func (p poly) monic() poly {
	if p.zero() {
		return p
	}
	return p.scale(new(big.Rat).Inv(p[len(p)-1]))
}

// gcd returns the monic greatest common divisor of p and q (zero if both
// are).
func gcd(p, q poly) poly {
	for !q.zero() {
		_, r := p.divmod(q)
		p, q = q, r
	}
	return p.monic()
}

// squarefree returns p divided by gcd(p, p′): the same roots, each simple.
func (p poly) squarefree() poly {
	if p.degree() < 1 {
		return p
	}
	g := gcd(p, p.deriv())
	if g.degree() < 1 {
		return p
	}
	q, _ := p.divmod(g)
	return q
}

// divLinear returns p divided by (t − r), r being a root of p.
func (p poly) divLinear(r *big.Rat) poly {
	q, _ := p.divmod(poly{new(big.Rat).Neg(r), big.NewRat(1, 1)})
	return q
}

// sturm returns the Sturm sequence of the squarefree p.
func (p poly) sturm() []poly {
	s := []poly{p, p.deriv()}
	for !s[len(s)-1].zero() {
		_, r := s[len(s)-2].divmod(s[len(s)-1])
		s = append(s, r.scale(big.NewRat(-1, 1)))
	}
	return s[:len(s)-1]
}

// variations returns the number of sign changes of the sequence s at x,
// zeros skipped.
func variations(s []poly, x *big.Rat) int {
	n, last := 0, 0
	for _, p := range s {
		sg := p.eval(x).Sign()
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
