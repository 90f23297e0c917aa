// Package exact holds the exact floating-point arithmetic behind the exact
// fallbacks of collide's predicates (geom.Orient2D and geom.Orient3D, and the
// hill climbing of package hull): the error-free transformations TwoSum and
// TwoProd, and Expansion, a sum of floats kept exactly as a nonoverlapping
// expansion (Shewchuk, Adaptive Precision Floating-Point Arithmetic and Fast
// Robust Geometric Predicates, 1997).
//
// The transformations are exact only when nothing overflows and, for
// TwoProd, when the rounding error of the product is not below the smallest
// normal float (the exponents of the factors add up to at least
// -1022 + 52). Callers scale their inputs by powers of two into such a range
// first, and fall back to math/big outside it.
//
// Every product whose rounding the arithmetic relies on is wrapped in an
// explicit float64 conversion, which the Go specification says must round,
// so that the compiler cannot fuse it with a following addition into a fused
// multiply-add (it does fuse on arm64 otherwise). The one fused operation is
// the explicit math.FMA of TwoProd, which computes the rounding error of the
// product exactly.
package exact

import "math"

// TwoSum returns s = fl(a + b) and e with a + b = s + e exactly (Knuth's
// TwoSum: six additions, no branch), when a + b does not overflow.
func TwoSum(a, b float64) (s, e float64) {
	s = a + b
	bv := s - a
	av := s - bv
	return s, (a - av) + (b - bv)
}

// TwoProd returns p = fl(a·b) and e with a·b = p + e exactly, e computed by a
// fused multiply-add, when a·b does not overflow and its rounding error is
// not below the smallest normal float.
func TwoProd(a, b float64) (p, e float64) {
	p = float64(a * b)
	return p, math.FMA(a, b, -p)
}

// MaxLen is the number of components an Expansion holds. Each Add adds at
// most one, so MaxLen calls to Add (MaxLen/2 of AddProd2, MaxLen/4 of
// AddProd3) from the zero Expansion always fit; one more may panic.
const MaxLen = 112

// Expansion is a sum of floats kept exactly, as a nonoverlapping expansion:
// components in increasing magnitude, none zero, whose sum is the value. The
// zero Expansion is 0. It lives on the stack of its user and allocates
// nothing.
type Expansion struct {
	n int
	c [MaxLen]float64
}

// Add adds b to e exactly (Shewchuk's Grow-Expansion, with zero elimination).
func (e *Expansion) Add(b float64) {
	if b == 0 {
		return
	}
	q := b
	k := 0
	for i := 0; i < e.n; i++ {
		var h float64
		q, h = TwoSum(q, e.c[i])
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

// AddProd2 adds s·a·b exactly, s = ±1 (multiplying by it is exact).
func (e *Expansion) AddProd2(s, a, b float64) {
	p, q := TwoProd(a, b)
	e.Add(s * q)
	e.Add(s * p)
}

// AddProd3 adds s·a·b·c exactly, s = ±1: a·b = p1 + p0 exactly, and each of
// p1·c and p0·c is split again.
func (e *Expansion) AddProd3(s, a, b, c float64) {
	p1, p0 := TwoProd(a, b)
	h1, h0 := TwoProd(p1, c)
	l1, l0 := TwoProd(p0, c)
	e.Add(s * l0)
	e.Add(s * l1)
	e.Add(s * h0)
	e.Add(s * h1)
}

// Approx returns the value of e rounded to a float64, v, and a bound err on
// |v − value|: v sums the components from the smallest, and each rounded
// partial sum s is off by at most u|s|/(1−u) (u = 2⁻⁵³), which err adds up
// (doubled, a margin for its own roundings). Its sign is the sign of e (the
// largest component outweighs the others). Where the components cancel
// heavily, err may be large against v.
func (e *Expansion) Approx() (v, err float64) {
	for i := 0; i < e.n; i++ {
		v += e.c[i]
		err += math.Abs(v)
	}
	return v, err * 0x1p-51
}

// Sign returns the sign (-1, 0 or +1) of e: that of its largest component.
func (e *Expansion) Sign() int {
	for i := e.n - 1; i >= 0; i-- {
		if c := e.c[i]; c != 0 {
			if c > 0 {
				return 1
			}
			if c < 0 {
				return -1
			}
			return 0
		}
	}
	return 0
}
