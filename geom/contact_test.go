package geom_test

import (
	"fmt"
	"github.com/collide3d/collide/internal/longtest"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/internal/testgeom"
)

// unitTri is the unit right triangle in z = 0, counter-clockwise seen from +Z.
var unitTri = geom.Tri(geom.V(0, 0, 0), geom.V(1, 0, 0), geom.V(0, 1, 0))

func offset(t geom.Triangle, o geom.Vec3) geom.Triangle {
	return geom.Tri(t[0].Add(o), t[1].Add(o), t[2].Add(o))
}

func scaled(t geom.Triangle, s float64) geom.Triangle {
	return geom.Tri(t[0].Scale(s), t[1].Scale(s), t[2].Scale(s))
}

// contactCases are adversarial pairs with the kind and size of their
// shared set; the oracle checks everything else.
var contactCases = func() []struct {
	name string
	a, b geom.Triangle
	kind geom.ContactKind
	n    int
} {
	tiny := math.Nextafter(0, 1)
	cross := geom.Tri(geom.V(0.25, 0.25, -1), geom.V(0.25, 0.25, 1), geom.V(2, 0.25, 0))
	big := geom.Tri(geom.V(-1, -1, 0), geom.V(3, -1, 0), geom.V(-1, 3, 0))
	star := geom.Tri(geom.V(0, 0, 0), geom.V(6, 0, 0), geom.V(3, 6, 0))
	star2 := geom.Tri(geom.V(0, 4, 0), geom.V(6, 4, 0), geom.V(3, -2, 0))
	return []struct {
		name string
		a, b geom.Triangle
		kind geom.ContactKind
		n    int
	}{
		{"crossing", unitTri, cross, geom.Cross, 2},
		{"crossing, b first", cross, unitTri, geom.Cross, 2},
		{"vertex on vertex", unitTri, geom.Tri(geom.V(0, 0, 0), geom.V(-1, 0, 1), geom.V(0, -1, 1)), geom.Touch, 1},
		{"vertex on edge", unitTri, geom.Tri(geom.V(0.5, 0, 0), geom.V(0.5, -1, 1), geom.V(1, -1, 1)), geom.Touch, 1},
		{"vertex in face", unitTri, geom.Tri(geom.V(0.25, 0.25, 0), geom.V(0, 0, 1), geom.V(1, 0, 1)), geom.Touch, 1},
		{"vertex in face from below", unitTri, geom.Tri(geom.V(0.25, 0.25, 0), geom.V(0, 0, -1), geom.V(1, 0, -1)), geom.Touch, 1},
		{"along an edge", unitTri, geom.Tri(geom.V(0.5, 0, 0), geom.V(1.5, 0, 0), geom.V(1, 0, 1)), geom.Touch, 2},
		{"edge in face", unitTri, geom.Tri(geom.V(0.25, 0.25, 0), geom.V(0.5, 0.25, 0), geom.V(0.3, 0.3, 1)), geom.Touch, 2},
		{"edge crossing edge", unitTri, geom.Tri(geom.V(0.5, -0.5, -0.5), geom.V(0.5, 0.5, 0.5), geom.V(0.5, -1, 1)), geom.Touch, 1},
		{"shared edge, folded", unitTri, geom.Tri(geom.V(0, 0, 0), geom.V(1, 0, 0), geom.V(0, -1, 1)), geom.Touch, 2},
		{"shared edge, crossing plane", unitTri, geom.Tri(geom.V(0, 0, 0), geom.V(1, 0, 0), geom.V(0.5, 1, 1)), geom.Touch, 2},
		{"one ulp above", unitTri, geom.Tri(geom.V(0.25, 0.25, tiny), geom.V(0, 0, 1), geom.V(1, 0, 1)), geom.Apart, 0},
		{"one ulp below: crossing", unitTri, geom.Tri(geom.V(0.25, 0.25, -tiny), geom.V(0.25, 0.5, 1), geom.V(0.5, 0.25, 1)), geom.Cross, 2},
		{"coplanar, same triangle", unitTri, unitTri, geom.Touch, 3},
		{"coplanar, same triangle reversed", unitTri, geom.Tri(unitTri[0], unitTri[2], unitTri[1]), geom.Touch, 3},
		{"coplanar, a contains b", big, unitTri, geom.Touch, 3},
		{"coplanar, b contains a", unitTri, big, geom.Touch, 3},
		{"coplanar quadrilateral", geom.Tri(geom.V(0, 0, 0), geom.V(2, 0, 0), geom.V(0, 2, 0)), geom.Tri(geom.V(0.5, 0.5, 0), geom.V(1.5, 0.5, 0), geom.V(0.5, -1, 0)), geom.Touch, 4},
		{"coplanar pentagon", geom.Tri(geom.V(0, 0, 0), geom.V(4, 0, 0), geom.V(0, 4, 0)), geom.Tri(geom.V(-1, 1, 0), geom.V(3, -3, 0), geom.V(3, 3, 0)), geom.Touch, 5},
		{"coplanar hexagon", star, star2, geom.Touch, 6},
		{"coplanar along an edge", unitTri, geom.Tri(geom.V(0.5, 0, 0), geom.V(2, 0, 0), geom.V(1, -1, 0)), geom.Touch, 2},
		{"coplanar at a vertex", unitTri, geom.Tri(geom.V(1, 0, 0), geom.V(2, 0, 0), geom.V(2, -1, 0)), geom.Touch, 1},
		{"coplanar one ulp apart", unitTri, geom.Tri(geom.V(math.Nextafter(1, 2), 0, 0), geom.V(2, 0, 0), geom.V(2, -1, 0)), geom.Apart, 0},
		{"far crossing (1e9)", offset(unitTri, geom.V(1e9, -1e9, 1e9)), offset(cross, geom.V(1e9, -1e9, 1e9)), geom.Cross, 2},
		{"far touching (1e9)", offset(unitTri, geom.V(1e9, 1e9, 1e9)), offset(geom.Tri(geom.V(0.5, 0, 0), geom.V(0.5, -1, 1), geom.V(1, -1, 1)), geom.V(1e9, 1e9, 1e9)), geom.Touch, 1},
		{"tiny crossing (2^-1000)", scaled(unitTri, 0x1p-1000), scaled(cross, 0x1p-1000), geom.Cross, 2},
		{"tiny crossing (1e-300)", scaled(unitTri, 1e-300), scaled(cross, 1e-300), geom.Cross, 2},
		{"huge crossing (2^1000)", scaled(unitTri, 0x1p1000), scaled(cross, 0x1p1000), geom.Cross, 2},
		{"nearly parallel edge", unitTri, geom.Tri(geom.V(0.1, 0.1, -0x1p-50), geom.V(0.9, 0.05, 0x1p-50), geom.V(0.5, 0.5, 1)), geom.Cross, 2},
		{"segment through the face", unitTri, geom.Tri(geom.V(0.25, 0.25, -1), geom.V(0.25, 0.25, 1), geom.V(0.25, 0.25, 0.5)), geom.Cross, 1},
		{"face pierced by a segment", geom.Tri(geom.V(0.25, 0.25, -1), geom.V(0.25, 0.25, 1), geom.V(0.25, 0.25, 1)), unitTri, geom.Cross, 1},
		{"segment through a vertex", unitTri, geom.Tri(geom.V(0, 0, -1), geom.V(0, 0, 1), geom.V(0, 0, 1)), geom.Touch, 1},
		{"segment ending on the face", unitTri, geom.Tri(geom.V(0.25, 0.25, 0), geom.V(0.25, 0.25, 1), geom.V(0.25, 0.25, 1)), geom.Touch, 1},
		{"segment across the face, in its plane", unitTri, geom.Tri(geom.V(-1, 0.25, 0), geom.V(2, 0.25, 0), geom.V(0.5, 0.25, 0)), geom.Touch, 2},
		{"segment in the face", unitTri, geom.Tri(geom.V(0.1, 0.1, 0), geom.V(0.2, 0.1, 0), geom.V(0.2, 0.1, 0)), geom.Touch, 2},
		{"segment along an edge", unitTri, geom.Tri(geom.V(-1, 0, 0), geom.V(2, 0, 0), geom.V(2, 0, 0)), geom.Touch, 2},
		{"point in the face", unitTri, geom.Tri(geom.V(0.25, 0.25, 0), geom.V(0.25, 0.25, 0), geom.V(0.25, 0.25, 0)), geom.Touch, 1},
		{"point on an edge", geom.Tri(geom.V(0.5, 0, 0), geom.V(0.5, 0, 0), geom.V(0.5, 0, 0)), unitTri, geom.Touch, 1},
		{"segments crossing", geom.Tri(geom.V(0, 0, 0), geom.V(1, 1, 1), geom.V(2, 2, 2)), geom.Tri(geom.V(0, 2, 2), geom.V(2, 0, 0), geom.V(2, 0, 0)), geom.Touch, 1},
		{"segments overlapping", geom.Tri(geom.V(0, 0, 0), geom.V(1, 1, 1), geom.V(2, 2, 2)), geom.Tri(geom.V(3, 3, 3), geom.V(1, 1, 1), geom.V(3, 3, 3)), geom.Touch, 2},
		{"segments end to end", geom.Tri(geom.V(0, 0, 0), geom.V(1, 1, 1), geom.V(0, 0, 0)), geom.Tri(geom.V(1, 1, 1), geom.V(2, 2, 2), geom.V(2, 2, 2)), geom.Touch, 1},
		{"point on a segment", geom.Tri(geom.V(1, 1, 1), geom.V(1, 1, 1), geom.V(1, 1, 1)), geom.Tri(geom.V(0, 0, 0), geom.V(2, 2, 2), geom.V(2, 2, 2)), geom.Touch, 1},
		{"equal points", geom.Tri(geom.V(1, 2, 3), geom.V(1, 2, 3), geom.V(1, 2, 3)), geom.Tri(geom.V(1, 2, 3), geom.V(1, 2, 3), geom.V(1, 2, 3)), geom.Touch, 1},
		{"collinear segments at the ends of the range", geom.Tri(geom.V(-1e308, -1e308, 0), geom.V(1e308, 1e308, 0), geom.V(1e308, 1e308, 0)), geom.Tri(geom.V(0, 0, 0), geom.V(1.5e308, 1.5e308, 0), geom.V(0, 0, 0)), geom.Touch, 2},
		{"crossing at the ends of the range", scaled(unitTri, 0x1p1022), scaled(cross, 0x1p1022), geom.Cross, 2},
		{"crossing at the ends of the range, off centre", offset(scaled(unitTri, 0x1p1021), geom.V(-0x1p1023, 0, 0)), offset(scaled(cross, 0x1p1021), geom.V(-0x1p1023, 0, 0)), geom.Cross, 2},
		{"skew segments", geom.Tri(geom.V(0, 0, 0), geom.V(1, 0, 0), geom.V(1, 0, 0)), geom.Tri(geom.V(0.5, -1, 1e-300), geom.V(0.5, 1, 1e-300), geom.V(0.5, 1, 1e-300)), geom.Apart, 0},
	}
}()

func TestTriTriContactCases(t *testing.T) {
	for _, tc := range contactCases {
		t.Run(tc.name, func(t *testing.T) {
			c := geom.TriTriContact(tc.a, tc.b)
			if c.Kind != tc.kind || c.N != tc.n {
				t.Errorf("kind %v with %d points %v, want %v with %d", c.Kind, c.N, c.Points[:c.N], tc.kind, tc.n)
			}
			for _, ab := range [][2]geom.Triangle{{tc.a, tc.b}, {tc.b, tc.a}} {
				for p := range 6 {
					a := permute(ab[0], p)
					for q := range 6 {
						b := permute(ab[1], q)
						if msg := checkContact(a, b); msg != "" {
							t.Fatalf("%s\n\ta = %v\n\tb = %v", msg, a, b)
						}
					}
				}
			}
		})
	}
}

// permute returns t with its vertices in order p (0 to 5: the cyclic shifts,
// then the reversals).
func permute(t geom.Triangle, p int) geom.Triangle {
	i := p % 3
	t = geom.Tri(t[i], t[(i+1)%3], t[(i+2)%3])
	if p >= 3 {
		t[1], t[2] = t[2], t[1]
	}
	return t
}

// TestTriTriContactExamples pins the exact answer of a few pairs.
func TestTriTriContactExamples(t *testing.T) {
	c := geom.TriTriContact(unitTri, geom.Tri(geom.V(0.25, 0.25, -1), geom.V(0.25, 0.25, 1), geom.V(2, 0.25, 0)))
	want := [2]geom.ContactPoint{{P: geom.V(0.75, 0.25, 0), A: geom.Edge12, B: geom.Face}, {P: geom.V(0.25, 0.25, 0), A: geom.Face, B: geom.Edge01}}
	if c.Kind != geom.Cross || c.N != 2 || c.Points[0] != want[0] || c.Points[1] != want[1] || c.Normal != geom.V(0, 0, 1) {
		t.Errorf("crossing: %+v", c)
	}
	// Edge crossing edge, neither face plane separating: the plane through
	// both edges, y = z, with a on its positive side.
	c = geom.TriTriContact(unitTri, geom.Tri(geom.V(0.5, -0.5, -0.5), geom.V(0.5, 0.5, 0.5), geom.V(0.5, -1, 1)))
	if w := geom.V(0, -1, 1).Unit(); c.Kind != geom.Touch || c.N != 1 || c.Points[0] != (geom.ContactPoint{P: geom.V(0.5, 0, 0), A: geom.Edge01, B: geom.Edge01}) || !c.Normal.ApproxEqual(w, 1e-15) {
		t.Errorf("edge crossing edge: %+v", c)
	}
	// A face touched from below: the normal points down, to b.
	c = geom.TriTriContact(unitTri, geom.Tri(geom.V(0.25, 0.25, 0), geom.V(0, 0, -1), geom.V(1, 0, -1)))
	if c.Kind != geom.Touch || c.Normal != geom.V(0, 0, -1) || c.Points[0] != (geom.ContactPoint{P: geom.V(0.25, 0.25, 0), A: geom.Face, B: geom.Vertex0}) {
		t.Errorf("touch from below: %+v", c)
	}
}

// tetraPairs returns n crossing triangle pairs: faces of two random
// tetrahedra that overlap.
func tetraPairs(n int) [][2]geom.Triangle {
	rng := rand.New(rand.NewPCG(7, 32))
	var ps [][2]geom.Triangle
	faces := func(c geom.Vec3) [4]geom.Triangle {
		var v [4]geom.Vec3
		for i := range v {
			v[i] = c.Add(geom.V(rng.Float64()-0.5, rng.Float64()-0.5, rng.Float64()-0.5))
		}
		return [4]geom.Triangle{{v[0], v[1], v[2]}, {v[0], v[3], v[1]}, {v[1], v[3], v[2]}, {v[2], v[3], v[0]}}
	}
	for len(ps) < n {
		fa := faces(geom.V(0, 0, 0))
		fb := faces(geom.V(rng.Float64()*0.4, rng.Float64()*0.4, rng.Float64()*0.4))
		for _, a := range fa {
			for _, b := range fb {
				if geom.TriTriContact(a, b).Kind == geom.Cross && len(ps) < n {
					ps = append(ps, [2]geom.Triangle{a, b})
				}
			}
		}
	}
	return ps
}

func TestTriTriContactTetrahedra(t *testing.T) {
	for i, p := range tetraPairs(longtest.Pick(500, 2000)) {
		if msg := checkContact(p[0], p[1]); msg != "" {
			t.Fatalf("pair %d: %s\n\ta = %v\n\tb = %v", i, msg, p[0], p[1])
		}
	}
}

// TestTriTriContactAllocs checks that the float path allocates nothing.
func TestTriTriContactAllocs(t *testing.T) {
	ps := tetraPairs(200)
	allocs := testing.AllocsPerRun(5, func() {
		for _, p := range ps {
			geom.TriTriContact(p[0], p[1])
		}
	})
	if allocs != 0 {
		t.Errorf("%v allocations per run of %d crossing pairs", allocs, len(ps))
	}
}

func BenchmarkTriTriContact(b *testing.B) {
	ps := tetraPairs(1024)
	b.Run("cross", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			p := &ps[i&1023]
			geom.TriTriContact(p[0], p[1])
		}
	})
	for _, kind := range []testgeom.PairKind{testgeom.KindVertexOnFace, testgeom.KindCoplanarOverlap} {
		// Touches and coplanar overlaps on small lattices, for the
		// other paths.
		var ks [][2]geom.Triangle
		rng := rand.New(rand.NewPCG(7, uint64(kind)))
		for len(ks) < 1024 {
			a, c := testgeom.Pair(kind, rng)
			if geom.TriTri(a, c) {
				ks = append(ks, [2]geom.Triangle{a, c})
			}
		}
		b.Run(kind.String(), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				p := &ks[i&1023]
				geom.TriTriContact(p[0], p[1])
			}
		})
	}
	b.Run("tritri", func(b *testing.B) {
		// The plain test on the same pairs, for comparison.
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			p := &ps[i&1023]
			geom.TriTri(p[0], p[1])
		}
	})
}

func FuzzTriTriContact(f *testing.F) {
	for _, tc := range contactCases {
		f.Add(tc.a[0].X, tc.a[0].Y, tc.a[0].Z, tc.a[1].X, tc.a[1].Y, tc.a[1].Z, tc.a[2].X, tc.a[2].Y, tc.a[2].Z,
			tc.b[0].X, tc.b[0].Y, tc.b[0].Z, tc.b[1].X, tc.b[1].Y, tc.b[1].Z, tc.b[2].X, tc.b[2].Y, tc.b[2].Z)
	}
	f.Fuzz(func(t *testing.T, a0, a1, a2, a3, a4, a5, a6, a7, a8, b0, b1, b2, b3, b4, b5, b6, b7, b8 float64) {
		a := geom.Tri(geom.V(a0, a1, a2), geom.V(a3, a4, a5), geom.V(a6, a7, a8))
		b := geom.Tri(geom.V(b0, b1, b2), geom.V(b3, b4, b5), geom.V(b6, b7, b8))
		c := geom.TriTriContact(a, b)
		if (c.Kind != geom.Apart) != geom.TriTri(a, b) {
			t.Fatalf("kind %v, TriTri %v", c.Kind, geom.TriTri(a, b))
		}
		if !a.IsFinite() || !b.IsFinite() {
			return
		}
		if c.N < 0 || c.N > 6 || (c.N == 0) != (c.Kind == geom.Apart) {
			t.Fatalf("kind %v with N = %d", c.Kind, c.N)
		}
		for _, p := range c.Points[:c.N] {
			if !p.P.IsFinite() {
				t.Fatalf("point %v not finite", p.P)
			}
		}
		if msg := checkContact(a, b); msg != "" {
			t.Fatal(msg)
		}
	})
}

func ExampleTriTriContact() {
	floor := geom.Tri(geom.V(0, 0, 0), geom.V(1, 0, 0), geom.V(0, 1, 0))
	// A triangle standing through the floor crosses it along a segment.
	wall := geom.Tri(geom.V(0.25, 0.25, -1), geom.V(0.25, 0.25, 1), geom.V(2, 0.25, 0))
	c := geom.TriTriContact(floor, wall)
	fmt.Println(c.Kind, c.N, c.Normal)
	for _, p := range c.Points[:c.N] {
		fmt.Println(p.P, p.A, p.B)
	}
	// Output:
	// cross 2 (0, 0, 1)
	// (0.75, 0.25, 0) edge12 face
	// (0.25, 0.25, 0) face edge01
}
