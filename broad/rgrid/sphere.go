package rgrid

import (
	"math"
	"math/big"

	"github.com/collide3d/collide/bv"
)

// gap returns the distance from c to the interval [lo, hi] along one axis,
// rounded once (a difference of two float64s). A NaN c gives NaN; an
// infinite end that c lies inside contributes nothing.
func gap(c, lo, hi float64) float64 {
	if !(c >= lo) {
		return lo - c
	}
	if c > hi {
		return c - hi
	}
	return 0
}

// dist2 returns the squared distance from c to the box b in float64: three
// differences, three squares and two sums, each rounded, no fused
// multiply-add.
func dist2(c *[3]float64, b *box3) float64 {
	x := gap(c[0], b.lo[0], b.hi[0])
	y := gap(c[1], b.lo[1], b.hi[1])
	z := gap(c[2], b.lo[2], b.hi[2])
	return float64(x*x) + float64(y*y) + float64(z*z)
}

// The filter's constants. With u = 2^-53, the exact squared distance e² and
// squared radius ρ² = r² satisfy
//
//	dd/(1+u)^5 − 2^-1073 ≤ e² ≤ dd/(1−u)^5 + 2^-1072,
//	(rr − 2^-1075)/(1+u) ≤ ρ² ≤ (rr + 2^-1075)/(1−u),
//
// for the computed dd = dist2 and rr = r·r: one rounding for each
// difference (exact when it underflows), one for each square (with an
// absolute error of at most 2^-1075 when it underflows) and one for each of
// the two sums of non-negative terms. This is the bound of bv.Sphere.Overlaps,
// whose radius also carries the rounding of a sum; here it is looser than
// needed. With g = 2^-48 = 32u and a = 2^-1000, while dd, rr ≤ 2^1020,
// float64(dd·(1+g)) + a ≤ float64(rr·(1−g)) − a implies e² ≤ ρ², and
// float64(dd·(1−g)) − a > float64(rr·(1+g)) + a implies e² > ρ²; between
// the two the float64 values cannot decide.
const (
	filterG = 0x1p-48
	filterA = 0x1p-1000
	filterM = 0x1p1020
)

// The three answers of the cell filter.
const (
	sphereOut = iota
	sphereIn
	sphereUnknown
)

// sphereBoxFilter classifies the closed ball s against the closed box b:
// sphereIn when they certainly share a point, sphereOut when they certainly
// do not, sphereUnknown otherwise (within rounding, or beyond the filter's
// range, or a NaN). Infinite box ends are allowed.
func sphereBoxFilter(c *[3]float64, r float64, b *box3) int {
	if !(r >= 0) {
		return sphereOut
	}
	dd := dist2(c, b)
	rr := float64(r * r)
	if !(dd <= filterM && rr <= filterM) {
		return sphereUnknown
	}
	if float64(dd*(1+filterG))+filterA <= float64(rr*(1-filterG))-filterA {
		return sphereIn
	}
	if float64(dd*(1-filterG))-filterA > float64(rr*(1+filterG))+filterA {
		return sphereOut
	}
	return sphereUnknown
}

// sphereBox reports exactly whether the closed ball s meets the closed box
// b: |C − b|² ≤ R², for the float64 values as given. An empty sphere (R < 0)
// or one with a NaN meets nothing. With infinite values beyond what the
// filter handles, the float64 evaluation is returned.
func (p *Phase) sphereBox(s *bv.Sphere, b *box3) bool {
	c := [3]float64{s.C.X, s.C.Y, s.C.Z}
	switch sphereBoxFilter(&c, s.R, b) {
	case sphereIn:
		return true
	case sphereOut:
		return false
	}
	if !(s.R >= 0) {
		return false
	}
	p.stats.ExactSphereTests++
	return sphereBoxExact(&c, s.R, b)
}

// sphereBoxExact decides |c − b|² ≤ r² in rational arithmetic when every
// value it uses is finite, and in float64 otherwise.
func sphereBoxExact(c *[3]float64, r float64, b *box3) bool {
	if math.IsNaN(c[0]) || math.IsNaN(c[1]) || math.IsNaN(c[2]) {
		return false
	}
	finite := !math.IsInf(r, 0)
	for a := range 3 {
		if math.IsInf(c[a], 0) || (c[a] < b.lo[a] && math.IsInf(b.lo[a], 0)) || (c[a] > b.hi[a] && math.IsInf(b.hi[a], 0)) {
			finite = false
		}
	}
	if !finite {
		return dist2(c, b) <= float64(r*r)
	}
	var sum, x, y big.Rat
	for a := range 3 {
		switch {
		case c[a] < b.lo[a]:
			x.SetFloat64(b.lo[a])
			y.SetFloat64(c[a])
		case c[a] > b.hi[a]:
			x.SetFloat64(c[a])
			y.SetFloat64(b.hi[a])
		default:
			continue
		}
		x.Sub(&x, &y)
		x.Mul(&x, &x)
		sum.Add(&sum, &x)
	}
	x.SetFloat64(r)
	x.Mul(&x, &x)
	return sum.Cmp(&x) <= 0
}

// sphereBounds returns a box that contains the closed ball (c, r), r ≥ 0:
// c ± r rounded outwards by one step, which covers the rounding of the sum.
func sphereBounds(c *[3]float64, r float64) box3 {
	var b box3
	for a := range 3 {
		b.lo[a] = math.Nextafter(c[a]-r, math.Inf(-1))
		b.hi[a] = math.Nextafter(c[a]+r, math.Inf(1))
	}
	return b
}
