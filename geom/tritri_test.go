package geom_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/collide3d/collide/geom"
)

func tri(a, b, c [3]float64) geom.Triangle {
	return geom.Triangle{geom.V(a[0], a[1], a[2]), geom.V(b[0], b[1], b[2]), geom.V(c[0], c[1], c[2])}
}

// unit is the triangle (0,0,0), (1,0,0), (0,1,0) in the plane z = 0.
var unit = tri([3]float64{0, 0, 0}, [3]float64{1, 0, 0}, [3]float64{0, 1, 0})

func TestTriTriTable(t *testing.T) {
	up := math.Nextafter(0, 1)
	half := 0.5
	tests := []struct {
		name string
		b    geom.Triangle
		want bool
	}{
		{"crossing", tri([3]float64{.2, .2, -1}, [3]float64{.2, .2, 1}, [3]float64{3, 3, 0}), true},
		{"far above", tri([3]float64{0, 0, 1}, [3]float64{1, 0, 1}, [3]float64{0, 1, 1}), false},
		{"vertex touches face", tri([3]float64{.2, .2, 0}, [3]float64{.2, .2, 1}, [3]float64{1, 1, 1}), true},
		{"vertex one ulp above face", tri([3]float64{.25, .25, up}, [3]float64{.25, .25, 1}, [3]float64{1, 1, 1}), false},
		{"vertex touches vertex", tri([3]float64{1, 0, 0}, [3]float64{2, 0, 1}, [3]float64{2, 1, 1}), true},
		{"vertex touches edge", tri([3]float64{half, half, 0}, [3]float64{1, 1, 1}, [3]float64{1, 1, -1}), true},
		{"vertex one ulp past edge", tri([3]float64{math.Nextafter(half, 1), half, 0}, [3]float64{1, 1, 1}, [3]float64{1, 1, -1}), false},
		{"edge crosses edge", tri([3]float64{half, -1, 0}, [3]float64{half, 1, 1}, [3]float64{half, 1, -1}), true},
		{"shared edge, folded", tri([3]float64{0, 0, 0}, [3]float64{1, 0, 0}, [3]float64{0, 0, 1}), true},
		{"coplanar overlap", tri([3]float64{.2, .2, 0}, [3]float64{2, .2, 0}, [3]float64{.2, 2, 0}), true},
		{"coplanar contained", tri([3]float64{.1, .1, 0}, [3]float64{.2, .1, 0}, [3]float64{.1, .2, 0}), true},
		{"coplanar containing", tri([3]float64{-1, -1, 0}, [3]float64{5, -1, 0}, [3]float64{-1, 5, 0}), true},
		{"coplanar touching at edge", tri([3]float64{1, 0, 0}, [3]float64{0, 1, 0}, [3]float64{1, 1, 0}), true},
		{"coplanar touching at vertex", tri([3]float64{1, 0, 0}, [3]float64{2, 0, 0}, [3]float64{2, 1, 0}), true},
		{"coplanar disjoint", tri([3]float64{1, 1, 0}, [3]float64{2, 1, 0}, [3]float64{1, 2, 0}), false},
		{"identical", unit, true},
		{"segment through face", tri([3]float64{.2, .2, -1}, [3]float64{.2, .2, 1}, [3]float64{.2, .2, 0}), true},
		{"segment above face", tri([3]float64{.2, .2, 1}, [3]float64{.2, .2, 2}, [3]float64{.2, .2, 3}), false},
		{"segment in plane crossing", tri([3]float64{-1, .2, 0}, [3]float64{2, .2, 0}, [3]float64{0, .2, 0}), true},
		{"segment in plane outside", tri([3]float64{-1, 2, 0}, [3]float64{2, 2, 0}, [3]float64{0, 2, 0}), false},
		{"point on face", tri([3]float64{.2, .2, 0}, [3]float64{.2, .2, 0}, [3]float64{.2, .2, 0}), true},
		{"point on edge", tri([3]float64{half, 0, 0}, [3]float64{half, 0, 0}, [3]float64{half, 0, 0}), true},
		{"point off face", tri([3]float64{.2, .2, up}, [3]float64{.2, .2, up}, [3]float64{.2, .2, up}), false},
		{"point outside in plane", tri([3]float64{1, 1, 0}, [3]float64{1, 1, 0}, [3]float64{1, 1, 0}), false},
	}
	for _, tc := range tests {
		a, b := unit, tc.b
		if got := geom.TriTri(a, b); got != tc.want {
			t.Errorf("%s: TriTri(%v, %v) = %v, want %v", tc.name, a, b, got, tc.want)
		}
		if got := geom.TriTri(b, a); got != tc.want {
			t.Errorf("%s: TriTri(b, a) = %v, want %v", tc.name, got, tc.want)
		}
		// Invariant under relabelling and rigid translation by a power of two
		// (which is exact here).
		ra := geom.Triangle{a[2], a[0], a[1]}
		rb := geom.Triangle{b[1], b[0], b[2]}
		if got := geom.TriTri(ra, rb); got != tc.want {
			t.Errorf("%s: TriTri after relabelling = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestDegenerateAgainstDegenerate(t *testing.T) {
	seg := func(a, b [3]float64) geom.Triangle { return tri(a, b, a) }
	tests := []struct {
		name string
		a, b geom.Triangle
		want bool
	}{
		{"skew segments", seg([3]float64{0, 0, 0}, [3]float64{1, 0, 0}), seg([3]float64{.5, -1, 1}, [3]float64{.5, 1, 1}), false},
		{"crossing segments", seg([3]float64{0, 0, 0}, [3]float64{1, 0, 0}), seg([3]float64{.5, -1, 0}, [3]float64{.5, 1, 0}), true},
		{"collinear overlapping", seg([3]float64{0, 0, 0}, [3]float64{2, 2, 2}), seg([3]float64{1, 1, 1}, [3]float64{3, 3, 3}), true},
		{"collinear gap", seg([3]float64{0, 0, 0}, [3]float64{1, 1, 1}), seg([3]float64{2, 2, 2}, [3]float64{3, 3, 3}), false},
		{"collinear end to end", seg([3]float64{0, 0, 0}, [3]float64{1, 1, 1}), seg([3]float64{1, 1, 1}, [3]float64{3, 3, 3}), true},
		{"same point", seg([3]float64{1, 2, 3}, [3]float64{1, 2, 3}), seg([3]float64{1, 2, 3}, [3]float64{1, 2, 3}), true},
		{"different points", seg([3]float64{1, 2, 3}, [3]float64{1, 2, 3}), seg([3]float64{1, 2, 4}, [3]float64{1, 2, 4}), false},
		{"point on segment", seg([3]float64{1, 1, 1}, [3]float64{1, 1, 1}), seg([3]float64{0, 0, 0}, [3]float64{4, 4, 4}), true},
		{"parallel segments in a vertical plane", seg([3]float64{0, 0, 0}, [3]float64{0, 0, 1}), seg([3]float64{0, 1, 0}, [3]float64{0, 1, 1}), false},
		{"collinear triple (middle vertex)", tri([3]float64{0, 0, 0}, [3]float64{3, 0, 0}, [3]float64{1, 0, 0}), seg([3]float64{2, -1, 0}, [3]float64{2, 1, 0}), true},
	}
	for _, tc := range tests {
		if got := geom.TriTri(tc.a, tc.b); got != tc.want {
			t.Errorf("%s: TriTri(%v, %v) = %v, want %v", tc.name, tc.a, tc.b, got, tc.want)
		}
		if got := geom.TriTri(tc.b, tc.a); got != tc.want {
			t.Errorf("%s: TriTri(b, a) = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestTriTriDistanceTable(t *testing.T) {
	tests := []struct {
		name string
		b    geom.Triangle
		want float64
	}{
		{"parallel above", tri([3]float64{0, 0, 2}, [3]float64{1, 0, 2}, [3]float64{0, 1, 2}), 2},
		{"vertex above face", tri([3]float64{.2, .2, .5}, [3]float64{.2, .2, 3}, [3]float64{1, 1, 3}), .5},
		{"edge to edge", tri([3]float64{2, -1, 1}, [3]float64{2, 1, 1}, [3]float64{3, 0, 5}), math.Sqrt2},
		{"touching", tri([3]float64{1, 0, 0}, [3]float64{2, 0, 1}, [3]float64{2, 1, 1}), 0},
		{"crossing", tri([3]float64{.2, .2, -1}, [3]float64{.2, .2, 1}, [3]float64{3, 3, 0}), 0},
		{"point beside", tri([3]float64{-3, 0, 4}, [3]float64{-3, 0, 4}, [3]float64{-3, 0, 4}), 5},
	}
	for _, tc := range tests {
		d, pa, pb := geom.TriTriDistance(unit, tc.b)
		if math.Abs(d-tc.want) > 1e-12 {
			t.Errorf("%s: TriTriDistance = %v, want %v", tc.name, d, tc.want)
		}
		if got := pa.Distance(pb); math.Abs(got-d) > 1e-12 {
			t.Errorf("%s: |pa - pb| = %v, want %v", tc.name, got, d)
		}
		if got := geom.TriTriWithin(unit, tc.b, tc.want+1e-9); !got {
			t.Errorf("%s: TriTriWithin(eps = d + 1e-9) = false", tc.name)
		}
		if tc.want > 0 && geom.TriTriWithin(unit, tc.b, tc.want*0.999) {
			t.Errorf("%s: TriTriWithin(eps < d) = true", tc.name)
		}
	}
}

func randomTri(rng *rand.Rand, size float64) geom.Triangle {
	c := geom.V(rng.Float64(), rng.Float64(), rng.Float64())
	var t geom.Triangle
	for i := range t {
		t[i] = c.Add(geom.V(rng.Float64()-.5, rng.Float64()-.5, rng.Float64()-.5).Scale(size))
	}
	return t
}

// BenchmarkTriTri measures the contact test on generic random pairs:
// triangles of size s with centres uniform in the unit cube, and (size=cube)
// triangles with all vertices uniform in the same cube, whose boxes nearly
// always overlap, as at the leaves of a bounding-volume tree.
func BenchmarkTriTri(b *testing.B) {
	for _, size := range []float64{0.1, 0.5, 1, 0} {
		rng := rand.New(rand.NewPCG(1, 1))
		const n = 1 << 12
		as, bs := make([]geom.Triangle, n), make([]geom.Triangle, n)
		hits := 0
		for i := range n {
			as[i], bs[i] = randomTri(rng, size), randomTri(rng, size)
			if size == 0 {
				as[i], bs[i] = cubeTri(rng), cubeTri(rng)
			}
			if geom.TriTri(as[i], bs[i]) {
				hits++
			}
		}
		name := fmt.Sprintf("size=%g", size)
		if size == 0 {
			name = "size=cube"
		}
		b.Run(fmt.Sprintf("%s/hits=%.0f%%", name, 100*float64(hits)/n), func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				// The next pair depends on the last answer, so no call
				// can be skipped.
				if geom.TriTri(as[i&(n-1)], bs[i&(n-1)]) {
					i += 2
				} else {
					i++
				}
			}
		})
	}
}

// cubeTri returns a triangle with vertices uniform in the unit cube.
func cubeTri(rng *rand.Rand) geom.Triangle {
	var t geom.Triangle
	for i := range t {
		t[i] = geom.V(rng.Float64(), rng.Float64(), rng.Float64())
	}
	return t
}

func BenchmarkTriTriDistance(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	const n = 1 << 12
	as, bs := make([]geom.Triangle, n), make([]geom.Triangle, n)
	for i := range n {
		as[i], bs[i] = randomTri(rng, 0.3), randomTri(rng, 0.3)
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		d, _, _ := geom.TriTriDistance(as[i&(n-1)], bs[i&(n-1)])
		i += 1 + int(d)
	}
}

func BenchmarkOrient3D(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	const n = 1 << 10
	pts := make([]geom.Vec3, n+4)
	for i := range pts {
		pts[i] = geom.V(rng.Float64(), rng.Float64(), rng.Float64())
	}
	b.Run("generic", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			j := i & (n - 1)
			i += 2 + geom.Orient3D(pts[j], pts[j+1], pts[j+2], pts[j+3])
		}
	})
	b.Run("coplanar-lattice", func(b *testing.B) {
		b.ReportAllocs()
		a, c, d := geom.V(0, 0, 0), geom.V(3, 1, 0), geom.V(1, 4, 0)
		i := 0
		for b.Loop() {
			i += 1 + geom.Orient3D(a, c, d, geom.V(float64(i&15), 2, 0))
		}
	})
	b.Run("near-degenerate-1e6", func(b *testing.B) {
		b.ReportAllocs()
		a, c, d := geom.V(1e6+0.1, 1e6, 1e6), geom.V(1e6+0.3, 1e6+0.7, 1e6), geom.V(1e6, 1e6+0.9, 1e6)
		i := 0
		for b.Loop() {
			e := geom.V(1e6+0.2, 1e6+0.3, math.Nextafter(1e6, float64(i&1)*3e6))
			i += 1 + geom.Orient3D(a, c, d, e)
		}
	})
}
