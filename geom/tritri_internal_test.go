package geom

import (
	"math/rand/v2"
	"testing"
)

// edgeTriTri is TriTri by decomposition: two closed triangles meet iff an
// edge of one meets the other. It shares the segment-triangle predicate but
// not the Guigue–Devillers branch, which it cross-checks.
func edgeTriTri(a, b Triangle) bool {
	for i := range 3 {
		if segTri(a[i], a[(i+1)%3], b) || segTri(b[i], b[(i+1)%3], a) {
			return true
		}
	}
	return false
}

func TestTriTriMatchesEdgeDecomposition(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	coord := func(lattice bool) float64 {
		if lattice {
			return float64(rng.IntN(5) - 2)
		}
		return rng.Float64()*2 - 1
	}
	fails := 0
	for n := range 400000 {
		lattice := n%2 == 1
		var a, b Triangle
		for i := range 3 {
			a[i] = Vec3{coord(lattice), coord(lattice), coord(lattice)}
			b[i] = Vec3{coord(lattice), coord(lattice), coord(lattice)}
		}
		got, want := TriTri(a, b), edgeTriTri(a, b)
		if got != want {
			fails++
			if fails < 10 {
				t.Errorf("TriTri(%v, %v) = %v, edge decomposition says %v", a, b, got, want)
			}
		}
	}
	if fails > 0 {
		t.Errorf("%d disagreements", fails)
	}
}
