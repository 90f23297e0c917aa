// Package portable holds the arithmetic whose results must be the same bits
// on every platform, for the generators of package mesh/gen and
// bench/scenes: the standard library's math.Sin, math.Cos and math.Hypot
// are not (Go fuses their multiply-adds on arm64), so these use only
// correctly rounded operations with every product rounded on its own.
package portable

import (
	"math"

	"github.com/collide3d/collide/geom"
)

// Unit returns v/|v| using math.Sqrt (correctly rounded) rather than
// geom.Vec3.Norm, whose math.Hypot is not guaranteed to give the same bits on
// every platform. v must not be the zero vector.
func Unit(v geom.Vec3) geom.Vec3 {
	n := math.Sqrt(v.Dot(v))
	return geom.Vec3{X: v.X / n, Y: v.Y / n, Z: v.Z / n}
}

// neg returns -x, except that it returns +0 for ±0.
func neg(x float64) float64 { return 0 - x }

// Taylor coefficients of sin(x)/x and cos(x) in powers of x², enough for an
// error far below one ulp on [0, π/4] (the first omitted terms are below
// 1e-19).
var (
	sinCoef = [...]float64{1, -1.0 / 6, 1.0 / 120, -1.0 / 5040, 1.0 / 362880,
		-1.0 / 39916800, 1.0 / 6227020800, -1.0 / 1307674368000,
		1.0 / 355687428096000, -1.0 / 121645100408832000}
	cosCoef = [...]float64{1, -1.0 / 2, 1.0 / 24, -1.0 / 720, 1.0 / 40320,
		-1.0 / 3628800, 1.0 / 479001600, -1.0 / 87178291200,
		1.0 / 20922789888000, -1.0 / 6402373705728000}
)

// SinCosSmall returns sin(x) and cos(x) for 0 ≤ x ≤ π/4, with an error of a
// few ulps, computed by Horner's rule with every product rounded.
func SinCosSmall(x float64) (sin, cos float64) {
	z := float64(x * x)
	s := sinCoef[len(sinCoef)-1]
	for i := len(sinCoef) - 2; i >= 0; i-- {
		s = float64(s*z) + sinCoef[i]
	}
	c := cosCoef[len(cosCoef)-1]
	for i := len(cosCoef) - 2; i >= 0; i-- {
		c = float64(c*z) + cosCoef[i]
	}
	return float64(x * s), c
}

// SinCosTurn returns the sine and cosine of the angle 2π·k/n (n > 0, and
// |k|, n below 2⁶⁰), the same bits on every platform. The quadrant and the
// octant are found in integer arithmetic, so the results are exact at
// multiples of π/2 (0, ±1) and exactly symmetric: SinCosTurn(n-k, n) is
// SinCosTurn(k, n) with the sine negated.
func SinCosTurn(k, n int64) (sin, cos float64) {
	k %= n
	if k < 0 {
		k += n
	}
	quad := 4 * k / n
	r := 4*k - quad*n // the angle within the quadrant is (π/2)·r/n, 0 ≤ r < n
	var s, c float64
	if 2*r == n { // π/4: equal, so that the octant symmetries are exact
		s, c = math.Sqrt2/2, math.Sqrt2/2
	} else if 2*r < n {
		s, c = SinCosSmall(math.Pi / 2 * (float64(r) / float64(n)))
	} else {
		c, s = SinCosSmall(math.Pi / 2 * (float64(n-r) / float64(n)))
	}
	switch quad {
	case 0:
		return s, c
	case 1:
		return c, neg(s)
	case 2:
		return neg(s), neg(c)
	}
	return neg(c), s
}
