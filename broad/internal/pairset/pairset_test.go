package pairset

import (
	"math/rand/v2"
	"testing"
)

// TestPairSet checks the pair set against a map under random additions
// and removals.
func TestPairSet(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	var s Set
	ref := map[uint64]bool{}
	for i := range 200000 {
		k := Key(uint32(r.IntN(300)), uint32(300+r.IntN(300)))
		if ref[k] {
			s.Remove(k)
			delete(ref, k)
		} else {
			s.Add(k)
			ref[k] = true
		}
		if i%997 == 0 {
			if len(s.List) != len(ref) {
				t.Fatalf("%d pairs, want %d", len(s.List), len(ref))
			}
			for j, k := range s.List {
				h := s.Find(k)
				if !ref[k] || h < 0 || s.idx[h] != int32(j) {
					t.Fatalf("pair %x: in the map %v, slot %d", k, ref[k], h)
				}
			}
		}
		if i == 100000 {
			s.Filter(func(k uint64) bool { return k&1 == 0 })
			for k := range ref {
				if k&1 != 0 {
					delete(ref, k)
				}
			}
		}
	}
}
