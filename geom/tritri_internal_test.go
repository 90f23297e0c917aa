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
		if pa := Prepare(a); pa.Meets(&b) != got {
			t.Errorf("TriTri(%v, %v) = %v, Prepare(a).Meets(b) = %v", a, b, got, !got)
		}
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

// FuzzTriTri checks symmetry, relabelling invariance and agreement with the
// edge decomposition on arbitrary inputs, including non-finite ones (which
// must not panic).
//
//	go test -fuzz=FuzzTriTri ./geom
func FuzzTriTri(f *testing.F) {
	f.Add(0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.2, 0.2, -1.0, 0.2, 0.2, 1.0, 3.0, 3.0, 0.0)
	f.Add(0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 1.0, 0.0, 0.0, 2.0, 0.0, 0.0, 2.0, 1.0, 0.0)
	f.Add(0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 2.0, 2.0, 2.0, 0.5, 0.5, 0.5, 3.0, 3.0, 3.0, 0.5, 0.5, 0.5)
	f.Add(1e300, 0.0, 0.0, 0.0, 1e-300, 0.0, 0.0, 0.0, 5e-324, 1e6, 1e6, 1e6, 1e-7, 0.0, 0.0, 0.0, 0.0, 0.0)
	f.Fuzz(func(t *testing.T, a0, a1, a2, a3, a4, a5, a6, a7, a8, b0, b1, b2, b3, b4, b5, b6, b7, b8 float64) {
		a := Triangle{{a0, a1, a2}, {a3, a4, a5}, {a6, a7, a8}}
		b := Triangle{{b0, b1, b2}, {b3, b4, b5}, {b6, b7, b8}}
		got := TriTri(a, b)
		if !a.IsFinite() || !b.IsFinite() {
			return // outside the contract: only "no panic" is promised
		}
		if rev := TriTri(b, a); rev != got {
			t.Fatalf("TriTri(a, b) = %v but TriTri(b, a) = %v\na = %#v\nb = %#v", got, rev, a, b)
		}
		if rl := TriTri(Triangle{a[1], a[2], a[0]}, Triangle{b[0], b[2], b[1]}); rl != got {
			t.Fatalf("TriTri changed under relabelling\na = %#v\nb = %#v", a, b)
		}
		if want := edgeTriTri(a, b); want != got {
			t.Fatalf("TriTri = %v, edge decomposition = %v\na = %#v\nb = %#v", got, want, a, b)
		}
		if pa := Prepare(a); pa.Meets(&b) != got {
			t.Fatalf("TriTri = %v, Prepare(a).Meets(b) = %v\na = %#v\nb = %#v", got, !got, a, b)
		}
	})
}
