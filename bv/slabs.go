package bv

import (
	"math"
	"unsafe"
)

// Float is the element type of compact k-DOP storage.
type Float interface{ ~float32 | ~float64 }

// Slabs is the compact form of one k-DOP: an array of length k holding, for
// each slab i in the order of its K, the bounds lo at 2i and hi at 2i+1. The
// length fixes k at compile time, so loops over it are specialised per k.
type Slabs[F Float] interface {
	~[6]F | ~[8]F | ~[12]F | ~[14]F | ~[18]F | ~[20]F | ~[26]F
}

// Overlap reports whether the k/2 intervals of a and b all overlap, testing
// them in order and stopping at the first disjoint pair.
func Overlap[F Float, A Slabs[F]](a, b *A) bool {
	for i := 0; i < len(*a); i += 2 {
		if (*a)[i] > (*b)[i+1] || (*b)[i] > (*a)[i+1] {
			return false
		}
	}
	return true
}

// Union sets dst to the smallest k-DOP containing a and b.
func Union[F Float, A Slabs[F]](dst, a, b *A) {
	for i := 0; i < len(*a); i += 2 {
		(*dst)[i] = min((*a)[i], (*b)[i])
		(*dst)[i+1] = max((*a)[i+1], (*b)[i+1])
	}
}

// Pack stores into dst the slabs lo[i] − off[i] − pad[i] and
// hi[i] − off[i] + pad[i], rounded outward: the stored interval contains the
// exact one, whatever the rounding of the subtraction and of the conversion
// to F. off and pad may be nil (zero).
func Pack[F Float, A Slabs[F]](dst *A, lo, hi, off, pad *[MaxSlabs]float64) {
	n := len(*dst) / 2
	for i := range n {
		l, h := lo[i], hi[i]
		if off != nil {
			l, h = down(l-off[i]), up(h-off[i])
		}
		if pad != nil {
			l, h = down(l-pad[i]), up(h+pad[i])
		}
		(*dst)[2*i] = roundDown[F](l)
		(*dst)[2*i+1] = roundUp[F](h)
	}
}

// PackDOP stores d into dst as Pack does, relative to off (nil: 0).
func PackDOP[F Float, A Slabs[F]](dst *A, d *DOP, off *[MaxSlabs]float64) {
	Pack[F](dst, &d.Lo, &d.Hi, off, nil)
}

// Unpack returns the k-DOP stored in a, relative to off (nil: 0), widened by
// the rounding of the addition so that it contains the stored one.
func Unpack[F Float, A Slabs[F]](a *A, off *[MaxSlabs]float64) DOP {
	n := len(*a) / 2
	d := Empty(K(2 * n))
	for i := range n {
		l, h := float64((*a)[2*i]), float64((*a)[2*i+1])
		if off != nil {
			l, h = down(l+off[i]), up(h+off[i])
		}
		d.Lo[i], d.Hi[i] = l, h
	}
	return d
}

// down returns a number at most x − e for any rounding error e of the
// operation that produced x (|e| ≤ ulp(x)/2): the next float64 below x, or x
// itself for infinities and NaN.
func down(x float64) float64 {
	if x-x != 0 { // ±Inf, NaN
		return x
	}
	return math.Nextafter(x, math.Inf(-1))
}

// up is down upwards.
func up(x float64) float64 {
	if x-x != 0 {
		return x
	}
	return math.Nextafter(x, math.Inf(1))
}

// roundDown converts x to F, rounding toward −Inf.
func roundDown[F Float](x float64) F {
	f := F(x)
	if float64(f) > x {
		if _, ok := any(f).(float32); ok {
			return F(math.Nextafter32(float32(f), float32(math.Inf(-1))))
		}
		return F(math.Nextafter(float64(f), math.Inf(-1)))
	}
	return f
}

// roundUp converts x to F, rounding toward +Inf.
func roundUp[F Float](x float64) F {
	f := F(x)
	if float64(f) < x {
		if _, ok := any(f).(float32); ok {
			return F(math.Nextafter32(float32(f), float32(math.Inf(1))))
		}
		return F(math.Nextafter(float64(f), math.Inf(1)))
	}
	return f
}

// PackLoose stores into dst the slabs lo[i] − off[i] − pad[i] and
// hi[i] − off[i] + pad[i], rounded outward by arithmetic rather than by
// stepping to the adjacent float, which is several times faster and looser
// by at most 2 units in the last place of F. off and pad must not be nil.
//
// Like Pack, it stores a lower bound that is never +Inf and an upper bound
// that is never −Inf: a bound beyond F's range is stored as F's largest
// finite value (below it, so still a bound) or as the infinity on its own
// side, so that the difference of a lower and an upper bound never
// overstates a gap (the separation of two k-DOPs, dopQuery.sep in package
// bvh, which a front keeps a pair on: an infinite gap would keep it
// forever).
func PackLoose[F Float, A Slabs[F]](dst *A, lo, hi, off, pad *[MaxSlabs]float64) {
	n := len(*dst) / 2
	// Relative widening that covers the rounding of the conversion to F
	// (half an ulp of F: 2^-24 or 2^-53) twice over, and absolute widening
	// that covers it among F's denormals (half of F's smallest denormal:
	// 2^-150 or 2^-1075) twice over.
	rel, abs, mx := 0x1p-52, 0x1p-1074, math.MaxFloat64
	if unsafe.Sizeof(F(0)) == 4 {
		rel, abs, mx = 0x1p-23, 0x1p-149, math.MaxFloat32
	}
	top := F(mx)
	for i := range n {
		o, p := off[i], pad[i]
		ao := math.Abs(o) + p
		// The two subtractions (or additions) are rounded by at most
		// 2^-53·(|x| + |o| + p) each.
		l := lo[i] - o - p
		l -= 0x1p-51*(math.Abs(lo[i])+ao) + rel*math.Abs(l) + abs
		h := hi[i] - o + p
		h += 0x1p-51*(math.Abs(hi[i])+ao) + rel*math.Abs(h) + abs
		fl, fh := F(l), F(h)
		if fl > top { // l above F's range: F(l) is +Inf
			fl = top
		}
		if fh < -top {
			fh = -top
		}
		(*dst)[2*i] = fl
		(*dst)[2*i+1] = fh
	}
}
