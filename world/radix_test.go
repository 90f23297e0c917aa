package world

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSortKeys checks the radix sort of pair keys against slices.Sort.
func TestSortKeys(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var tmp []uint64
	for _, c := range []struct{ n, maxID int }{{10, 5}, {600, 1}, {600, 3}, {5000, 100}, {40000, 100000}, {3000, 1 << 30}} {
		keys := make([]uint64, c.n)
		for i := range keys {
			a := r.IntN(c.maxID + 1)
			b := r.IntN(c.maxID + 1)
			keys[i] = pairKey(ID(a), ID(b))
		}
		want := slices.Clone(keys)
		slices.Sort(want)
		tmp = sortKeys(keys, tmp, ID(c.maxID))
		if !slices.Equal(keys, want) {
			t.Fatalf("n %d max ID %d: radix sort differs from slices.Sort", c.n, c.maxID)
		}
	}
}

// BenchmarkSortKeys compares the radix sort of 38,000 pair keys among 10^5
// objects with slices.Sort.
func BenchmarkSortKeys(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 1))
	src := make([]uint64, 38000)
	for i := range src {
		a := r.IntN(100000)
		src[i] = pairKey(ID(a), ID(a+1+r.IntN(100)))
	}
	buf := make([]uint64, len(src))
	var tmp []uint64
	b.Run("radix", func(b *testing.B) {
		for b.Loop() {
			copy(buf, src)
			tmp = sortKeys(buf, tmp, 100100)
		}
	})
	b.Run("pdqsort", func(b *testing.B) {
		for b.Loop() {
			copy(buf, src)
			slices.Sort(buf)
		}
	})
}
