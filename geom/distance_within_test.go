package geom

import (
	"math/rand/v2"
	"testing"
)

// withinPairs returns n random pairs of unit-size triangles (vertices in
// the unit cube) and a tolerance eps: with near set, the second triangle is
// moved along a random direction until the pair is at a distance between
// eps and 10·eps (near misses, the hard case of a tolerance query); else
// the pairs are a mix: a quarter near misses, a quarter within eps, the
// rest 0.1 to 2 apart.
func withinPairs(n int, near bool) (as, bs []Triangle, eps float64) {
	rng := rand.New(rand.NewPCG(3, 7))
	eps = 1e-3
	tri := func() Triangle {
		c := V(rng.Float64(), rng.Float64(), rng.Float64())
		var t Triangle
		for i := range t {
			t[i] = c.Add(V(rng.Float64()-0.5, rng.Float64()-0.5, rng.Float64()-0.5).Scale(0.3))
		}
		return t
	}
	for len(as) < n {
		a, b := tri(), tri()
		var want float64
		switch k := rng.IntN(4); {
		case near || k == 0:
			want = eps * (1 + 9*rng.Float64())
		case k == 1:
			want = eps * rng.Float64()
		default:
			want = 0.1 + 1.9*rng.Float64()
		}
		// Move b away from a along the line of their closest points
		// (from a touching start) until their distance is about want.
		d, pa, pb := TriTriDistance(a, b)
		dir := pb.Sub(pa).Unit()
		if d == 0 || dir == (Vec3{}) {
			continue
		}
		shift := dir.Scale(want - d)
		b = Triangle{b[0].Add(shift), b[1].Add(shift), b[2].Add(shift)}
		as, bs = append(as, a), append(bs, b)
	}
	return as, bs, eps
}

// BenchmarkTriTriWithin compares TriTriWithin with the version before the
// lower bound (oldTriTriWithin, distance_old_test.go) on the same pairs.
func BenchmarkTriTriWithin(b *testing.B) {
	for _, c := range []struct {
		name string
		near bool
	}{{"near", true}, {"mix", false}} {
		as, bs, eps := withinPairs(1<<10, c.near)
		for _, f := range []struct {
			name string
			fn   func(a, b Triangle, eps float64) bool
		}{{"old", oldTriTriWithin}, {"new", TriTriWithin}} {
			b.Run("set="+c.name+"/impl="+f.name, func(b *testing.B) {
				b.ReportAllocs()
				i, hits := 0, 0
				for b.Loop() {
					j := i & (len(as) - 1)
					if f.fn(as[j], bs[j], eps) {
						hits++
					}
					i++
				}
				b.ReportMetric(float64(hits)/float64(i), "hit/op")
			})
		}
	}
}

// TestTriTriWithinOldAgrees checks the benchmark's pairs: the old and the
// new TriTriWithin may differ only where the distances differ (within the
// error bound of eps), and the new one is exactly TriTriDistance ≤ eps.
func TestTriTriWithinOldAgrees(t *testing.T) {
	for _, near := range []bool{true, false} {
		as, bs, eps := withinPairs(1<<10, near)
		for i := range as {
			d, _, _ := TriTriDistance(as[i], bs[i])
			if got := TriTriWithin(as[i], bs[i], eps); got != (d <= eps) {
				t.Fatalf("pair %d: TriTriWithin = %v, TriTriDistance = %v, eps %v", i, got, d, eps)
			}
			if old := oldTriTriWithin(as[i], bs[i], eps); old != (d <= eps) {
				if B := TriTriDistanceBound(as[i], bs[i]); d-eps > B || eps-d > B {
					t.Errorf("pair %d: old TriTriWithin = %v, TriTriDistance = %v, eps %v", i, old, d, eps)
				}
			}
		}
	}
}

// BenchmarkTriTriDistanceImpl compares TriTriDistance with the version
// before the error bound on the near-miss and mixed pairs.
func BenchmarkTriTriDistanceImpl(b *testing.B) {
	for _, near := range []bool{true, false} {
		as, bs, _ := withinPairs(1<<10, near)
		name := map[bool]string{true: "near", false: "mix"}[near]
		for _, f := range []struct {
			name string
			fn   func(a, b Triangle) (float64, Vec3, Vec3)
		}{{"old", oldTriTriDistance}, {"new", TriTriDistance}} {
			b.Run("set="+name+"/impl="+f.name, func(b *testing.B) {
				b.ReportAllocs()
				i := 0
				for b.Loop() {
					j := i & (len(as) - 1)
					f.fn(as[j], bs[j])
					i++
				}
			})
		}
	}
}
