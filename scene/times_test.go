package scene

import (
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh/gen"
	"github.com/collide3d/collide/world"
)

// TestBuckets checks the histogram's buckets: each duration in the bucket
// whose range holds it, the ranges contiguous and at most 2⁻⁷ wide
// relatively.
func TestBuckets(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for range 100000 {
		v := r.Uint64() >> r.IntN(64)
		v = min(v, math.MaxInt64)
		i := bucket(v)
		if i < 0 || i >= timeBuckets {
			t.Fatalf("bucket(%d) = %d, not in [0, %d)", v, i, timeBuckets)
		}
		lo := uint64(0)
		if i > 0 {
			lo = bucketHigh(i-1) + 1
		}
		hi := bucketHigh(i)
		if v < lo || v > hi {
			t.Fatalf("bucket(%d) = %d holds [%d, %d]", v, i, lo, hi)
		}
		if float64(hi-lo) > float64(lo)/128 {
			t.Fatalf("bucket %d = [%d, %d] is wider than 2^-7 of its start", i, lo, hi)
		}
	}
	if bucket(math.MaxInt64) != timeBuckets-1 {
		t.Errorf("the largest duration is in bucket %d of %d", bucket(math.MaxInt64), timeBuckets)
	}
}

// TestTimeAcc checks the times of a play against the exact ones: equal
// up to ExactTimes steps, within the documented 0.8% above beyond, in a
// memory that does not grow with the steps.
func TestTimeAcc(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, n := range []int{1, 2, 99, 100, 101, ExactTimes, ExactTimes + 1, 5 * ExactTimes} {
		var a timeAcc
		ds := make([]time.Duration, n)
		var total time.Duration
		for i := range ds {
			ds[i] = time.Duration(math.Exp(3 + 12*r.Float64()*r.Float64()))
			total += ds[i]
			a.add(ds[i])
		}
		slices.Sort(ds)
		got := a.times()
		if got.Total != total || got.Max != ds[n-1] {
			t.Errorf("n %d: total %v max %v, want %v %v", n, got.Total, got.Max, total, ds[n-1])
		}
		for _, c := range []struct {
			q   float64
			got time.Duration
		}{{0.5, got.Median}, {0.99, got.P99}} {
			want := quantile(ds, c.q)
			if n <= ExactTimes && c.got != want {
				t.Errorf("n %d: quantile %v = %v, want %v exactly", n, c.q, c.got, want)
			}
			if c.got < want || float64(c.got) > float64(want)*(1+1.0/128) {
				t.Errorf("n %d: quantile %v = %v, want %v to within 2^-7 above", n, c.q, c.got, want)
			}
		}
		if n > ExactTimes && (a.exact != nil || len(a.hist) != timeBuckets) {
			t.Errorf("n %d: %d exact durations and %d buckets kept", n, len(a.exact), len(a.hist))
		}
	}
}

// TestPlayBoundedMemory plays many steps of a scene whose steps cost
// nothing and checks that the play's memory does not grow with the steps
// (it kept 48 bytes a step and more, preallocated for the whole play: a
// scene of 2^30 steps died out of memory).
func TestPlayBoundedMemory(t *testing.T) {
	s := &Scene{Name: "still", Steps: 1}
	s.addModel("m", gen.Must(gen.Icosphere(geom.Vec3{}, 1, 20)))
	s.add("a", "m", geom.Identity(), true, 0, nil)
	alloc := func(n int) uint64 {
		p, err := NewPlayer(s, world.Options{Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		var m0, m1 runtime.MemStats
		runtime.ReadMemStats(&m0)
		tot, err := p.Play(n, nil)
		runtime.ReadMemStats(&m1)
		if err != nil || tot.Steps != n {
			t.Fatalf("Play(%d): %v steps, %v", n, tot.Steps, err)
		}
		return m1.TotalAlloc - m0.TotalAlloc
	}
	small, large := alloc(2*ExactTimes), alloc(20*ExactTimes)
	if large > small+(1<<20) {
		t.Errorf("playing %d steps allocated %d bytes, %d steps %d: it grows with the steps", 2*ExactTimes, small, 20*ExactTimes, large)
	}
}
