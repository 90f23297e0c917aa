package shape

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/collide3d/collide/geom"
)

// Dense sampling, a second check independent of the oracles: for random
// segment paths, the static test (a Point path) at 1025 positions exactly on
// the segment (a grid makes a + (i/1024)(b − a) exact), against the
// segment test:
//
//   - a sample that hits implies the segment hits (equivalently: a missing
//     segment has no hitting sample);
//   - the segment test with the solid shrunk by h, half the spacing of the
//     samples (r − h; for the cylinder also z0 + h_z, z1 − h_z), hitting
//     implies some sample hits with the full solid: the nearest sample to
//     the position of contact is within h of it.

// gridPt returns a point with coordinates k·2⁻¹², |k·2⁻¹²| ≤ 4.
func gridPt(rng *rand.Rand) geom.Vec3 {
	c := func() float64 { return float64(rng.IntN(1<<15)-1<<14) * 0x1p-12 }
	return geom.V(c(), c(), c())
}

func samples(a, b geom.Vec3) []geom.Vec3 {
	d := b.Sub(a) // exact on the grid
	ps := make([]geom.Vec3, 1025)
	for i := range ps {
		f := float64(i) * 0x1p-10
		ps[i] = geom.V(a.X+f*d.X, a.Y+f*d.Y, a.Z+f*d.Z) // exact
	}
	return ps
}

func TestSampledBall(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(3, 5))
	n := caseCount(t, 1000)
	var hits, sure int
	for range n {
		a, b := gridPt(rng), gridPt(rng)
		if rng.IntN(4) == 0 { // vertical or horizontal moves
			b = geom.V(a.X, a.Y, b.Z)
		} else if rng.IntN(3) == 0 {
			b.Z = a.Z
		}
		tri := geom.Tri(gridPt(rng), gridPt(rng), gridPt(rng))
		zc := float64(rng.IntN(9)-4) * 0.25
		seg := Segment(a, b)
		d2 := oBallDist2(seg, zc, tri)
		r := nearRadius(rng, d2, 2)
		ps := samples(a, b)
		any := func(r float64) bool {
			for _, p := range ps {
				if Ball(Point(p), zc, r, tri) {
					return true
				}
			}
			return false
		}
		got := Ball(seg, zc, r, tri)
		if got {
			hits++
		}
		if any(r) && !got {
			t.Fatalf("a sample hits, the segment misses: %v", ballCase{seg, zc, r, tri})
		}
		h := b.Sub(a).Norm() * 0x1p-11 * (1 + 1e-9)
		if rs := r - h; rs >= 0 && Ball(seg, zc, rs*(1-1e-15), tri) {
			sure++
			if !any(r) {
				t.Fatalf("the shrunk segment hits, no sample does: %v", ballCase{seg, zc, r, tri})
			}
		}
	}
	t.Logf("%d segments, %d hits, %d checked both ways", n, hits, sure)
}

func TestSampledCylinder(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(4, 6))
	n := caseCount(t, 1000)
	var hits, sure int
	for range n {
		a, b := gridPt(rng), gridPt(rng)
		if rng.IntN(4) == 0 {
			b = geom.V(a.X, a.Y, b.Z)
		} else if rng.IntN(3) == 0 {
			b.Z = a.Z
		}
		tri := geom.Tri(gridPt(rng), gridPt(rng), gridPt(rng))
		z0 := float64(rng.IntN(9)-6) * 0.5
		z1 := z0 + float64(rng.IntN(8))*0.5
		seg := Segment(a, b)
		r := nearRadius(rng, oCylDist2(seg, z0, z1, tri), 2)
		ps := samples(a, b)
		any := func() bool {
			for _, p := range ps {
				if Cylinder(Point(p), r, z0, z1, tri) {
					return true
				}
			}
			return false
		}
		got := Cylinder(seg, r, z0, z1, tri)
		if got {
			hits++
		}
		if any() && !got {
			t.Fatalf("a sample hits, the segment misses: %v", cylCase{seg, r, z0, z1, tri})
		}
		d := b.Sub(a)
		hxy := math.Hypot(d.X, d.Y) * 0x1p-11 * (1 + 1e-9)
		hz := math.Abs(d.Z) * 0x1p-11 * (1 + 1e-9)
		rs, lo, hi := (r-hxy)*(1-1e-15), z0+hz*(1+1e-15), z1-hz*(1+1e-15)
		if rs >= 0 && lo <= hi && Cylinder(seg, rs, lo, hi, tri) {
			sure++
			if !any() {
				t.Fatalf("the shrunk segment hits, no sample does: %v", cylCase{seg, r, z0, z1, tri})
			}
		}
	}
	t.Logf("%d segments, %d hits, %d checked both ways", n, hits, sure)
}
