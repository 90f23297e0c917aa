package ccd

import (
	"math"

	"github.com/collide3d/collide/internal/exact"
)

// dd is a double-double number hi + lo, |lo| ≤ ulp(hi)/2: about 106 bits.
// The fast path falls back on it where a float sign is within its error
// bound, before the exact path.
//
// Error bounds (Joldes, Muller and Popescu, Tight and rigorous error bounds
// for basic building blocks of double-word arithmetic, 2017): add is their
// AccurateDWPlusDW, relative error at most 3u²; mul and mulf are
// DWTimesDW1 and DWTimesFP1, at most 7u² and 2u², u = 2^-53.
type dd struct{ hi, lo float64 }

func fastTwoSum(a, b float64) (s, e float64) {
	s = a + b
	return s, b - (s - a)
}

func (a dd) add(b dd) dd {
	s, e := exact.TwoSum(a.hi, b.hi)
	t, f := exact.TwoSum(a.lo, b.lo)
	e += t
	s, e = fastTwoSum(s, e)
	e += f
	s, e = fastTwoSum(s, e)
	return dd{s, e}
}

func (a dd) neg() dd { return dd{-a.hi, -a.lo} }

func (a dd) sub(b dd) dd { return a.add(b.neg()) }

func (a dd) mul(b dd) dd {
	p, e := exact.TwoProd(a.hi, b.hi)
	e += float64(a.hi*b.lo) + float64(a.lo*b.hi)
	p, e = fastTwoSum(p, e)
	return dd{p, e}
}

func (a dd) mulf(b float64) dd {
	p, e := exact.TwoProd(a.hi, b)
	e += float64(a.lo * b)
	p, e = fastTwoSum(p, e)
	return dd{p, e}
}

// ddDiff returns a − b exactly (when it does not overflow).
func ddDiff(a, b float64) dd {
	s, e := exact.TwoSum(a, -b)
	return dd{s, e}
}

// ldexp scales a by 2^k (exact unless it underflows).
func (a dd) ldexp(k int) dd { return dd{math.Ldexp(a.hi, k), math.Ldexp(a.lo, k)} }

func ddDet3(a, b, c [3]dd) dd {
	c0 := b[1].mul(c[2]).sub(b[2].mul(c[1]))
	c1 := b[2].mul(c[0]).sub(b[0].mul(c[2]))
	c2 := b[0].mul(c[1]).sub(b[1].mul(c[0]))
	return a[0].mul(c0).add(a[1].mul(c1)).add(a[2].mul(c2))
}
