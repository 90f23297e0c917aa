package shape

import (
	"math"

	"github.com/collide3d/collide/geom"
)

// Rounding model of the fast paths.
//
// u = 2⁻⁵³. For floats x, y and ∘ ∈ {+, −, ×, /}, round to nearest gives
// |fl(x∘y) − x∘y| ≤ u·|fl(x∘y)| when the result is normal; a sum or a
// difference that is subnormal is exact, and a product or a quotient that
// underflows is off by at most 2⁻¹⁰⁷⁵. sqrt has a relative error ≤ u.
// Rounding is monotone: x ≤ y implies fl(x) ≤ fl(y), so a single rounded
// operation compared with a float (fl(a − b) > c with c a float) decides the
// exact comparison (a − b > c) without error; the box filters use only such
// comparisons, and are exact for every finite input (overflow to ±Inf is
// monotone too).
//
// The fast paths run only when every non-zero input magnitude (coordinates,
// zc, r, z0, z1) lies in [2⁻²⁵⁰, 2²⁵⁰] (fastRange): then no quantity they
// form (at most a product of two differences, ≤ 2⁵⁰⁸) overflows, and every
// underflow is covered by the absolute term eta (below) of each bound, which
// exceeds 2¹⁵ underflows of 2⁻¹⁰⁷⁵. Every bound is a constant times a sum of
// computed magnitudes; each constant is at least twice what the analysis
// needs, which also covers the rounding of the bound's own evaluation (a few
// u, relative). Products are written float64(a*b) as in package geom, which
// forbids fused multiply-adds; a fused one would only be more accurate.
//
// Certificates. A fast path decides only with a certificate checked against
// these bounds:
//
//   - a hit by a witness: float parameters (exactly in range) of a point x
//     of the exact swept-solid-minus-triangle set whose computed vector is
//     within r after its error bound (provenLE);
//   - a miss by a separating direction n (any float vector): the exact
//     support gap, evaluated with its error bound, is positive (gapPos).
//
// The search that proposes the witness and the direction is plain floating
// point and needs no analysis: a poor proposal only fails its check and
// sends the query to the exact path. Correctness rests on the checks alone.
const (
	u   = 0x1p-53
	eta = 0x1p-1060 // absolute slack for underflow, per bound

	rangeLo, rangeHi = 0x1p-250, 0x1p250
)

func inRange(x float64) bool {
	a := math.Abs(x)
	return a == 0 || (a >= rangeLo && a <= rangeHi)
}

func vecInRange(v geom.Vec3) bool { return inRange(v.X) && inRange(v.Y) && inRange(v.Z) }

// fastRange reports whether the inputs allow the fast paths (see above).
func fastRange(q *[3]geom.Vec3, n int, t *geom.Triangle, a, b, c float64) bool {
	for i := range n {
		if !vecInRange(q[i]) {
			return false
		}
	}
	return vecInRange(t[0]) && vecInRange(t[1]) && vecInRange(t[2]) && inRange(a) && inRange(b) && inRange(c)
}

// provenLE reports whether |v| ≤ r is proven for an exact vector v, given
// nv = fl(√fl(ṽ·ṽ)) for a computed ṽ (relative error ≤ 3u against |ṽ|: the
// squares and sums of non-negative terms ≤ 3u, halved by the root, plus
// the root's u) and e ≥ |v − ṽ|.
//
// Proof: |v| ≤ |ṽ| + e ≤ nv(1 + 3u) + e. The left side L is computed with
// two roundings after the exact scaling by 2⁻⁵⁰ = 8u, so
// L ≥ (1−u)²(nv(1 + 8u) + e), and the right side R = fl(r(1 − 2⁻⁵¹)) ≤
// r(1 − 4u)(1 + u). L ≤ R then gives |v| ≤ R/(1−u)² ≤ r(1 − u) < r.
func provenLE(nv, e, r float64) bool {
	return nv+(0x1p-50*nv+e) <= r*(1-0x1p-51)
}

// sign3 returns the exact sign of a + b + c (no overflow assumed): the sum
// is grown into a nonoverlapping expansion with Knuth's TwoSum (Shewchuk's
// Grow-Expansion), whose sign is that of its largest non-zero component.
func sign3(a, b, c float64) int {
	s, e := twoSum(a, b) // a + b = s + e, |e| ≤ ulp(s)/2
	// Add c to the expansion (e, s).
	q, h0 := twoSum(c, e)
	q, h1 := twoSum(q, s)
	// a + b + c = h0 + h1 + q, nonoverlapping, increasing.
	switch {
	case q != 0:
		return sgn(q)
	case h1 != 0:
		return sgn(h1)
	}
	return sgn(h0)
}

func twoSum(a, b float64) (s, e float64) {
	s = a + b
	bv := s - a
	av := s - bv
	return s, (a - av) + (b - bv)
}

func sgn(x float64) int {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

// zSign returns the exact sign of (tz − pz) − h, given d = fl(tz − pz):
// a filter, then sign3.
//
// |fl(d − h) − ((tz − pz) − h)| ≤ u|d| + u|fl(d − h)| ≤ 2.01u(|d| + |h|) <
// 2⁻⁵¹(|d| + |h|); subtractions have no underflow error.
func zSign(tz, pz, d, h float64) int {
	e := d - h
	if math.Abs(e) > 0x1p-51*(math.Abs(d)+math.Abs(h)) {
		return sgn(e)
	}
	return sign3(tz, -pz, -h)
}

// box returns the bounds of the first n points of q (finite).
func box(q *[3]geom.Vec3, n int) (lo, hi geom.Vec3) {
	lo, hi = q[0], q[0]
	for i := 1; i < n; i++ {
		p := q[i]
		if p.X < lo.X {
			lo.X = p.X
		} else if p.X > hi.X {
			hi.X = p.X
		}
		if p.Y < lo.Y {
			lo.Y = p.Y
		} else if p.Y > hi.Y {
			hi.Y = p.Y
		}
		if p.Z < lo.Z {
			lo.Z = p.Z
		} else if p.Z > hi.Z {
			hi.Z = p.Z
		}
	}
	return lo, hi
}

// ballBoxMiss reports a miss proven by the bounding boxes: along x or y by
// a single rounded difference compared with r (exact by monotonicity), along
// z with the filter of zSign's kind (three roundings: |error| ≤
// u|a| + u(|a| + |zc|)(1+u) + u|g| ≤ 3.1u(|a| + |zc| + r)).
func ballBoxMiss(q *[3]geom.Vec3, n int, zc, r float64, t *geom.Triangle) bool {
	plo, phi := box(q, n)
	tlo, thi := box((*[3]geom.Vec3)(t), 3)
	if tlo.X-phi.X > r || plo.X-thi.X > r || tlo.Y-phi.Y > r || plo.Y-thi.Y > r {
		return true
	}
	a := tlo.Z - phi.Z
	if g := (a - zc) - r; g > 0x1p-50*(math.Abs(a)+math.Abs(zc)+r) {
		return true
	}
	a = plo.Z - thi.Z
	if g := (a + zc) - r; g > 0x1p-50*(math.Abs(a)+math.Abs(zc)+r) {
		return true
	}
	return false
}

// cylBoxMiss reports a miss proven by the bounding boxes, exactly (single
// rounded differences compared with floats).
func cylBoxMiss(q *[3]geom.Vec3, n int, r, z0, z1 float64, t *geom.Triangle) bool {
	plo, phi := box(q, n)
	tlo, thi := box((*[3]geom.Vec3)(t), 3)
	return tlo.X-phi.X > r || plo.X-thi.X > r || tlo.Y-phi.Y > r || plo.Y-thi.Y > r ||
		tlo.Z-phi.Z > z1 || thi.Z-plo.Z < z0
}
