package bvh

import (
	"bytes"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/collide3d/collide/bv"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh"
	"github.com/collide3d/collide/mesh/gen"
)

// TestFindTwins checks findTwins against a quadratic oracle on soups with
// copies sharing vertices, copies with their own vertices, the same
// vertices in another order (not twins), and -0 beside +0 (not twins:
// twins are the same bits).
func TestFindTwins(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 200 {
		m := &mesh.TriMesh{}
		nt := 1 + rng.IntN(40)
		for range nt {
			switch {
			case len(m.Tris) > 0 && rng.IntN(3) == 0: // a copy, sharing the vertices
				m.Tris = append(m.Tris, m.Tris[rng.IntN(len(m.Tris))])
			case len(m.Tris) > 0 && rng.IntN(3) == 0: // a copy with its own vertices, maybe permuted or negated zero
				src := m.Tris[rng.IntN(len(m.Tris))]
				var tri [3]int32
				for k := range 3 {
					v := m.Verts[src[k]]
					if rng.IntN(8) == 0 && v.X == 0 {
						v.X = math.Copysign(0, -1) // -0: other bits
					}
					tri[k] = int32(len(m.Verts))
					m.Verts = append(m.Verts, v)
				}
				if rng.IntN(5) == 0 {
					tri[0], tri[1] = tri[1], tri[0]
				}
				m.Tris = append(m.Tris, tri)
			default:
				var tri [3]int32
				for k := range 3 {
					tri[k] = int32(len(m.Verts))
					m.Verts = append(m.Verts, geom.V(float64(rng.IntN(3)), float64(rng.IntN(2)), 0))
				}
				m.Tris = append(m.Tris, tri)
			}
		}
		tw, reps := findTwins(m)
		// The oracle: the first triangle identical to each.
		first := make([]int32, len(m.Tris))
		var wantReps []int32
		any := false
		for i := range m.Tris {
			first[i] = int32(i)
			for j := range i {
				if sameBits(m, i, j) {
					first[i] = first[j]
					any = true
					break
				}
			}
			if first[i] == int32(i) {
				wantReps = append(wantReps, int32(i))
			}
		}
		if !slices.Equal(reps, wantReps) {
			t.Fatalf("trial %d: representatives %v, want %v", trial, reps, wantReps)
		}
		if tw.has() != any {
			t.Fatalf("trial %d: has() = %v, want %v", trial, tw.has(), any)
		}
		if !any {
			continue
		}
		for _, r := range reps {
			var group []int32
			for x := r; x >= 0; x = tw.next[x] {
				group = append(group, x)
			}
			var want []int32
			for i := range m.Tris {
				if first[i] == r {
					want = append(want, int32(i))
				}
			}
			slices.Sort(group)
			if !slices.Equal(group, want) {
				t.Fatalf("trial %d: group of %d is %v, want %v", trial, r, group, want)
			}
		}
	}
}

// sameBits reports whether triangles i and j of m have the same vertex
// coordinates, bit for bit, in the same order.
func sameBits(m *mesh.TriMesh, i, j int) bool {
	for k := range 3 {
		a, b := m.Verts[m.Tris[i][k]], m.Verts[m.Tris[j][k]]
		for _, p := range [][2]float64{{a.X, b.X}, {a.Y, b.Y}, {a.Z, b.Z}} {
			if math.Float64bits(p[0]) != math.Float64bits(p[1]) {
				return false
			}
		}
	}
	return true
}

// BenchmarkFindTwins times the search for twins on a million distinct
// triangles, the cost every build pays.
func BenchmarkFindTwins(b *testing.B) {
	rng := rand.New(rand.NewPCG(3, 4))
	m := &mesh.TriMesh{}
	for i := range 1 << 20 {
		m.Verts = append(m.Verts, geom.V(rng.Float64(), rng.Float64(), rng.Float64()))
		if i >= 2 {
			m.Tris = append(m.Tris, [3]int32{int32(i - 2), int32(i - 1), int32(i)})
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		findTwins(m)
	}
}

// TestTwinsTestedOnce checks, for every kind, that copies of one triangle
// against copies of another are tested once, not once per pair: for a near
// miss (the input that made every query quadratic) and for a contact,
// whose pairs are all reported, in a tree built and in one saved and read
// back.
func TestTwinsTestedOnce(t *testing.T) {
	a := geom.Triangle{geom.V(0, 0, 0), geom.V(1, 0, 0), geom.V(0, 1, 0)}
	near := geom.Triangle{geom.V(-0.3, 1.2, -1), geom.V(-0.3, 1.2, 1), geom.V(1.1, 0.5, 0)} // x + 2y = 2.1
	touch := geom.Triangle{geom.V(0.5, 0.5, -1), geom.V(0.5, 0.5, 1), geom.V(2, 2, 0)}      // through (0.5, 0.5, 0)
	const n = 300
	copies := func(t geom.Triangle) *mesh.TriMesh {
		m := &mesh.TriMesh{}
		for i := range int32(n) {
			m.Verts = append(m.Verts, t[0], t[1], t[2])
			m.Tris = append(m.Tris, [3]int32{3 * i, 3*i + 1, 3*i + 2})
		}
		return m
	}
	for _, o := range []Options{{K: bv.K18}, {K: bv.K6, Leaf: 4}, {Kind: OBB}, {Kind: Sphere}, {Kind: AABB, Leaf: 4}, {Kind: RSS, Leaf: 2}, {Kind: BoxTree}} {
		env, err := Build(copies(a), o)
		if err != nil {
			t.Fatal(err)
		}
		if err := env.Validate(); err != nil {
			t.Fatalf("%+v: %v", o, err)
		}
		var buf bytes.Buffer
		if _, err := env.WriteTo(&buf); err != nil {
			t.Fatal(err)
		}
		read, err := Read(&buf)
		if err != nil {
			t.Fatalf("%+v: reading the saved tree: %v", o, err)
		}
		for _, e := range []*Tree{env, read} {
			for _, c := range []struct {
				fly   geom.Triangle
				pairs int
			}{{near, 0}, {touch, n * n}} {
				fly, err := Build(copies(c.fly), o)
				if err != nil {
					t.Fatal(err)
				}
				var s Scratch
				for _, all := range []bool{true, false} {
					got := map[Pair]bool{}
					st := Collide(e, fly, geom.Identity(), QueryOptions{All: all}, &s, func(p Pair) bool {
						if got[p] {
							t.Errorf("%+v: pair %v reported twice", o, p)
						}
						got[p] = true
						return true
					})
					want := c.pairs
					if !all {
						want = min(want, 1)
					}
					// One test, or none where the volumes cull the near miss.
					if len(got) != want || st.TriTests > 1 || c.pairs > 0 && st.TriTests != 1 {
						t.Errorf("%+v, all %v: %d pairs, %d triangle tests; want %d pairs, 1 test", o, all, len(got), st.TriTests, want)
					}
				}
			}
		}
	}
}

// TestFindTwinsLarge checks findTwins where it sorts in parallel, against
// a map of the triangles' coordinates.
func TestFindTwinsLarge(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	m := &mesh.TriMesh{}
	for i := range 3 * parallelMin {
		if i > 0 && rng.IntN(5) == 0 {
			m.Tris = append(m.Tris, m.Tris[rng.IntN(len(m.Tris))])
			continue
		}
		n := int32(len(m.Verts))
		for range 3 {
			m.Verts = append(m.Verts, geom.V(float64(rng.IntN(40)), float64(rng.IntN(40)), 0))
		}
		m.Tris = append(m.Tris, [3]int32{n, n + 1, n + 2})
	}
	tw, reps := findTwins(m)
	type key [9]float64
	first := map[key]int32{}
	var want []int32
	for i := range m.Tris {
		tr := m.Triangle(i)
		k := key{tr[0].X, tr[0].Y, tr[0].Z, tr[1].X, tr[1].Y, tr[1].Z, tr[2].X, tr[2].Y, tr[2].Z}
		f, ok := first[k]
		if !ok {
			first[k] = int32(i)
			want = append(want, int32(i))
			continue
		}
		in := false
		for x := f; x >= 0; x = tw.next[x] {
			in = in || x == int32(i)
		}
		if !in {
			t.Fatalf("triangle %d is not in the group of %d", i, f)
		}
	}
	if !slices.Equal(reps, want) {
		t.Fatalf("%d representatives, want %d", len(reps), len(want))
	}
}

// TestDistinctVerts checks distinctVerts against comparing every pair, on
// vertices drawn from a few values (so that many collide), with -0 and +0
// told apart as the twins tell them.
func TestDistinctVerts(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	vals := []float64{0, math.Copysign(0, -1), 1, 1e300, -3.5}
	for trial := range 500 {
		vs := make([]geom.Vec3, 1+rng.IntN(12))
		for i := range vs {
			vs[i] = geom.V(vals[rng.IntN(len(vals))], vals[rng.IntN(len(vals))], vals[rng.IntN(len(vals))])
		}
		want := true
		for i := range vs {
			for j := range i {
				a, b := vs[i], vs[j]
				if math.Float64bits(a.X) == math.Float64bits(b.X) && math.Float64bits(a.Y) == math.Float64bits(b.Y) &&
					math.Float64bits(a.Z) == math.Float64bits(b.Z) {
					want = false
				}
			}
		}
		if got := distinctVerts(vs); got != want {
			t.Fatalf("trial %d: distinctVerts(%v) = %v, want %v", trial, vs, got, want)
		}
	}
}

// BenchmarkTwinsCheck times what Refit checks of the twins on a torus of
// 10^6 triangles: finding them over the triangles (findTwins), and the
// check that makes that needless (the twins by index, the vertices
// distinct).
func BenchmarkTwinsCheck(b *testing.B) {
	m := gen.Must(gen.Torus(geom.Vec3{}, 1, 0.3, 1000000))
	tw, _ := findTwins(m)
	b.Run("find", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			findTwins(m)
		}
	})
	b.Run("distinct", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if !tw.byIndex(m) || !distinctVerts(m.Verts) {
				b.Fatal("torus: twins not by index, or equal vertices")
			}
		}
	})
}
