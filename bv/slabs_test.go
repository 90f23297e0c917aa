package bv

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// rangeValue returns a random float64 of either sign whose magnitude is
// drawn from the edges of float32's and float64's ranges: float32's
// denormals and smallest normals, its largest values and just beyond,
// float64's denormals and largest values, and ordinary ones.
func rangeValue(rng *rand.Rand) float64 {
	e := [...]int{-160, -149, -140, -126, -1074, -1022, -10, 0, 20, 120, 126, 127, 128, 129, 200, 1000, 1020}[rng.IntN(17)]
	x := math.Ldexp(0.5+rng.Float64()/2, e+rng.IntN(3)-1)
	switch rng.IntN(8) {
	case 0:
		x = math.MaxFloat32 * (1 + (rng.Float64()-0.5)*0x1p-22)
	case 1:
		x = math.Ldexp(float64(rng.IntN(4)), -149) + float64(rng.IntN(3)-1)*0x1p-151
	case 2:
		x = 0
	}
	if rng.IntN(2) == 0 {
		x = -x
	}
	return x
}

// exact returns x - o + s·p in exact arithmetic.
func exact(x, o, p float64, s int) *big.Float {
	r := new(big.Float).SetPrec(2200).SetFloat64(x)
	r.Sub(r, new(big.Float).SetFloat64(o))
	q := new(big.Float).SetFloat64(p)
	if s < 0 {
		return r.Sub(r, q)
	}
	return r.Add(r, q)
}

// checkPacked checks that the stored slab [l, h] contains the exact
// interval [lo − off − pad, hi − off + pad], with a lower bound that is not
// +Inf and an upper bound that is not −Inf (a gap measured between stored
// bounds is then never infinite where the exact one is finite).
func checkPacked(t *testing.T, what string, l, h, lo, hi, off, pad float64) {
	t.Helper()
	el, eh := exact(lo, off, pad, -1), exact(hi, off, pad, 1)
	if math.IsInf(l, 1) || math.IsInf(h, -1) || new(big.Float).SetFloat64(l).Cmp(el) > 0 || new(big.Float).SetFloat64(h).Cmp(eh) < 0 {
		t.Fatalf("%s: slab [%g, %g] less %g, padded by %g, stored as [%g, %g] (%x, %x)", what, lo, hi, off, pad, l, h, l, h)
	}
}

// TestPackBounds checks Pack and PackLoose, into float32 and float64, on
// slabs at the edges of both ranges: the stored slab contains the exact
// one, and is finite on the side where it could not be.
func TestPackBounds(t *testing.T) {
	rng := rand.New(rand.NewPCG(28, 1))
	for range 10000 {
		var lo, hi, off, pad [MaxSlabs]float64
		for i := range 3 {
			a, b := rangeValue(rng), rangeValue(rng)
			if rng.IntN(4) == 0 {
				b = a
			}
			lo[i], hi[i] = min(a, b), max(a, b)
			if rng.IntN(2) == 0 {
				off[i] = rangeValue(rng)
			}
			if rng.IntN(2) == 0 {
				pad[i] = math.Abs(rangeValue(rng))
			}
			if math.IsInf(lo[i]-off[i]-pad[i], 0) || math.IsInf(hi[i]-off[i]+pad[i], 0) {
				lo[i], hi[i], off[i], pad[i] = 0, 0, 0, 0
			}
		}
		var s32 [6]float32
		var s64 [6]float64
		Pack[float32](&s32, &lo, &hi, &off, &pad)
		Pack[float64](&s64, &lo, &hi, &off, &pad)
		for i := range 3 {
			checkPacked(t, "Pack float32", float64(s32[2*i]), float64(s32[2*i+1]), lo[i], hi[i], off[i], pad[i])
			checkPacked(t, "Pack float64", s64[2*i], s64[2*i+1], lo[i], hi[i], off[i], pad[i])
		}
		PackLoose[float32](&s32, &lo, &hi, &off, &pad)
		PackLoose[float64](&s64, &lo, &hi, &off, &pad)
		for i := range 3 {
			checkPacked(t, "PackLoose float32", float64(s32[2*i]), float64(s32[2*i+1]), lo[i], hi[i], off[i], pad[i])
			checkPacked(t, "PackLoose float64", s64[2*i], s64[2*i+1], lo[i], hi[i], off[i], pad[i])
		}
	}
}
