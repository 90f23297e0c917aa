package hull

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/internal/testgeom"
)

// ratDot returns g·x in rationals.
func ratDot(g, x geom.Vec3) *big.Rat {
	s := new(big.Rat)
	for j := range 3 {
		t := new(big.Rat).SetFloat64(g.Index(j))
		s.Add(s, t.Mul(t, new(big.Rat).SetFloat64(x.Index(j))))
	}
	return s
}

func TestDotSign(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	for it := range 4000 {
		var g, w, v geom.Vec3
		r := func() float64 { return 2*rng.Float64() - 1 }
		g = geom.V(r(), r(), r())
		v = geom.V(r(), r(), r())
		switch it % 8 {
		case 0: // generic
			w = geom.V(r(), r(), r())
		case 1: // one-ulp perturbations of v
			w = geom.V(math.Nextafter(v.X, 2), v.Y, math.Nextafter(v.Z, -2))
		case 2: // exact ties on a lattice
			g = geom.V(float64(rng.IntN(5)-2), float64(rng.IntN(5)-2), float64(rng.IntN(5)-2))
			v = geom.V(float64(rng.IntN(9)), float64(rng.IntN(9)), float64(rng.IntN(9)))
			w = geom.V(float64(rng.IntN(9)), float64(rng.IntN(9)), float64(rng.IntN(9)))
		case 3: // w on the plane g·x = g·v, rounded
			a, b := g.Cross(geom.V(r(), r(), r())), rng.Float64()
			w = v.Add(a.Scale(b))
		case 4: // huge and tiny mixed: math/big
			g = geom.V(r()*1e-200, r(), r()*1e-300)
			v = geom.V(r()*1e300, r()*1e-300, r())
			w = geom.V(v.X, math.Nextafter(v.Y, 1), r()*1e-310)
		case 5: // far from the origin
			v = v.Add(geom.V(1e15, -1e15, 3e15))
			w = geom.V(math.Nextafter(v.X, 0), math.Nextafter(v.Y, 0), v.Z)
		case 6: // subnormal g
			g = g.Scale(0x1p-1070)
			w = geom.V(r(), r(), r())
		case 7: // scaled up: big values
			g = g.Scale(1e300)
			v, w = v.Scale(1e300), geom.V(r(), r(), r()).Scale(1e300)
		}
		want := ratDot(g, w).Cmp(ratDot(g, v))
		if got, _ := dotSign(g, w, v); got != want {
			t.Fatalf("case %d: dotSign(%v, %v, %v) = %d, want %d", it%8, g, w, v, got, want)
		}
		if got := dotSignExact(g, w, v); got != want {
			t.Fatalf("case %d: dotSignExact(%v, %v, %v) = %d, want %d", it%8, g, w, v, got, want)
		}
	}
	nan := geom.V(math.NaN(), 0, 0)
	if s, _ := dotSign(nan, geom.V(1, 2, 3), geom.V(3, 2, 1)); s != 0 {
		t.Errorf("NaN g: sign %d, want 0", s)
	}
}

// check verifies h against pts: vertices are input points, the graph is
// symmetric, every point lies inside (triangles, when given, and random
// directions, exactly), and every vertex is extreme.
func check(t *testing.T, c testgeom.Cloud, h *Hull, tris [][3]int32, rng *rand.Rand) {
	t.Helper()
	pts := c.Pts
	var fin []geom.Vec3
	for _, p := range pts {
		if p.IsFinite() {
			fin = append(fin, p)
		}
	}
	if c.Verts >= 0 && h.Len() != c.Verts {
		t.Fatalf("%d vertices, want %d", h.Len(), c.Verts)
	}
	if c.Dim >= 0 && h.Dim() != c.Dim {
		t.Fatalf("dimension %d, want %d", h.Dim(), c.Dim)
	}
	for i := range h.Len() {
		if h.Vertex(i) != pts[h.Index(i)] {
			t.Fatalf("vertex %d = %v is not input point %d", i, h.Vertex(i), h.Index(i))
		}
		nb := h.Neighbors(i)
		switch {
		case h.Dim() == 2 && len(nb) != 2, h.Dim() == 3 && len(nb) < 3,
			h.Dim() == 1 && len(nb) != 1, h.Dim() == 0 && len(nb) != 0:
			t.Fatalf("dimension %d: vertex %d has %d neighbours", h.Dim(), i, len(nb))
		}
		for _, w := range nb {
			if int(w) == i || w < 0 || int(w) >= h.Len() {
				t.Fatalf("vertex %d: bad neighbour %d", i, w)
			}
			found := 0
			for _, x := range h.Neighbors(int(w)) {
				if int(x) == i {
					found++
				}
			}
			if found != 1 {
				t.Fatalf("edge %d-%d seen %d times from %d", i, w, found, w)
			}
		}
	}
	if h.Len() == 0 {
		if len(fin) != 0 {
			t.Fatalf("empty hull of %d points", len(fin))
		}
		return
	}
	// Containment along random directions, and the climb reaches the max.
	for range 24 {
		g := geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64())
		if rng.IntN(3) == 0 { // axis-aligned: ties
			g = geom.V(float64(rng.IntN(3)-1), float64(rng.IntN(3)-1), float64(rng.IntN(3)-1))
		}
		top := fin[0]
		for _, p := range fin {
			if s, _ := dotSign(g, p, top); s > 0 {
				top = p
			}
		}
		v, _ := h.Extreme(g, rng.IntN(h.Len()))
		if s, _ := dotSign(g, top, h.Vertex(v)); s != 0 {
			t.Fatalf("direction %v: climb ends at %v, input max at %v (sign %d)", g, h.Vertex(v), top, s)
		}
	}
	switch h.Dim() {
	case 3:
		if tris == nil {
			t.Fatal("no triangles")
		}
		checkSolid(t, pts, fin, h, tris)
	case 2:
		checkPolygon(t, fin, h)
	case 1:
		a, b := h.Vertex(0), h.Vertex(1)
		if a == b {
			t.Fatal("segment with equal ends")
		}
		for _, p := range fin {
			if !collinear(a, b, p) {
				t.Fatalf("%v not on the line", p)
			}
			// g is not perpendicular to the line, so g·x is monotone on it.
			g := b.Sub(a)
			if s1, _ := dotSign(g, p, a); s1 < 0 {
				t.Fatalf("%v outside the segment", p)
			}
			if s2, _ := dotSign(g, p, b); s2 > 0 {
				t.Fatalf("%v outside the segment", p)
			}
		}
	}
}

func checkSolid(t *testing.T, all, fin []geom.Vec3, h *Hull, tris [][3]int32) {
	t.Helper()
	// Every point is inside or on every face.
	// Per vertex, the sum of the unit normals of its faces, from edge vectors
	// scaled by powers of two (no overflow or underflow).
	norm := func(x geom.Vec3) geom.Vec3 {
		return x.Scale(math.Ldexp(1, -math.Ilogb(max(math.Abs(x.X), math.Abs(x.Y), math.Abs(x.Z)))))
	}
	normals := map[geom.Vec3]geom.Vec3{}
	for _, tr := range tris {
		a, b, c := all[tr[0]], all[tr[1]], all[tr[2]]
		n := norm(norm(b.Sub(a)).Cross(norm(c.Sub(a)))).Unit()
		normals[a], normals[b], normals[c] = normals[a].Add(n), normals[b].Add(n), normals[c].Add(n)
		for _, p := range fin {
			if geom.Orient3D(a, b, c, p) > 0 {
				t.Fatalf("%v outside face %v %v %v", p, a, b, c)
			}
		}
	}
	// Every vertex is extreme: that sum exposes it alone.
	for i := range h.Len() {
		v := h.Vertex(i)
		g, ok := normals[v]
		if !ok {
			t.Fatalf("vertex %v in no triangle", v)
		}
		if !g.IsFinite() || g == (geom.Vec3{}) {
			continue // needle-thin faces (the skewed case): no float normal
		}
		for _, p := range fin {
			if s, _ := dotSign(g, p, v); p != v && s >= 0 {
				t.Fatalf("vertex %v not extreme: %v is as high along %v", v, p, g)
			}
		}
	}
}

func checkPolygon(t *testing.T, fin []geom.Vec3, h *Hull) {
	t.Helper()
	n := h.Len()
	a, b, c := h.Vertex(0), h.Vertex(1), h.Vertex(2)
	o := func(p, q, r geom.Vec3) int { // orientation in a faithful projection
		switch {
		case geom.Orient2D(a.X, a.Y, b.X, b.Y, c.X, c.Y) != 0:
			return geom.Orient2D(p.X, p.Y, q.X, q.Y, r.X, r.Y)
		case geom.Orient2D(a.Y, a.Z, b.Y, b.Z, c.Y, c.Z) != 0:
			return geom.Orient2D(p.Y, p.Z, q.Y, q.Z, r.Y, r.Z)
		}
		return geom.Orient2D(p.Z, p.X, q.Z, q.X, r.Z, r.X)
	}
	sense := o(a, b, c)
	if sense == 0 {
		t.Fatal("first three polygon vertices collinear")
	}
	for i := range n {
		p, q := h.Vertex(i), h.Vertex((i+1)%n)
		if nb := h.Neighbors(i); !(nb[0] == int32((i+n-1)%n) && nb[1] == int32((i+1)%n)) {
			t.Fatalf("polygon vertex %d has neighbours %v", i, nb)
		}
		if o(h.Vertex((i+n-1)%n), p, q) != sense {
			t.Fatalf("polygon vertex %d is not a strict convex turn", i)
		}
		for _, x := range fin {
			if geom.Orient3D(a, b, c, x) != 0 {
				t.Fatalf("%v not coplanar", x)
			}
			if s := o(p, q, x); s != 0 && s != sense {
				t.Fatalf("%v outside polygon edge %d", x, i)
			}
		}
	}
}

func TestShapes(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	for _, c := range testgeom.HullClouds() {
		t.Run(c.Name, func(t *testing.T) {
			h, tris := build(c.Pts, true)
			check(t, c, h, tris, rng)
		})
	}
}

func BenchmarkNew(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		pts := testgeom.SpherePoints(rand.New(rand.NewPCG(1, 1)), n, 1, geom.Vec3{})
		b.Run(fmt.Sprintf("sphere%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				New(pts)
			}
		})
	}
	pts := testgeom.BoxPoints(rand.New(rand.NewPCG(1, 1)), 100_000)
	b.Run("box100000", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			New(pts)
		}
	})
}

// TestExtremeStart checks the start handling of Extreme: a start outside the
// hull is vertex 0, and the empty hull has no extreme vertex.
func TestExtremeStart(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	h := New(testgeom.SpherePoints(rng, 300, 1, geom.Vec3{}))
	for range 50 {
		g := geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64())
		w, wsteps := h.Extreme(g, 0)
		for _, bad := range []int{-1, h.Len(), 1 << 40} {
			if v, steps := h.Extreme(g, bad); v != w || steps != wsteps {
				t.Fatalf("Extreme(%v, %d) = %d, %d; from vertex 0: %d, %d", g, bad, v, steps, w, wsteps)
			}
		}
		if v, steps := h.Extreme(g, w); v != w || steps != 0 {
			t.Fatalf("Extreme(%v, %d) = %d, %d from the extreme vertex", g, w, v, steps)
		}
	}
	if v, steps := New(nil).Extreme(geom.V(1, 0, 0), 0); v != -1 || steps != 0 {
		t.Errorf("empty hull: Extreme = %d, %d", v, steps)
	}
	if h := New([]geom.Vec3{geom.V(1, 2, -3)}); h.MaxAbs() != 3 {
		t.Errorf("MaxAbs = %g, want 3", h.MaxAbs())
	}
}

// TestNewTriangulated checks that NewTriangulated gives the hull of New,
// with the triangles for solid hulls only (TestShapes checks the triangles).
func TestNewTriangulated(t *testing.T) {
	for _, c := range testgeom.HullClouds() {
		h, tris := NewTriangulated(c.Pts)
		g := New(c.Pts)
		if h.Len() != g.Len() || h.Dim() != g.Dim() {
			t.Fatalf("%s: %d vertices, dimension %d; New gives %d, %d", c.Name, h.Len(), h.Dim(), g.Len(), g.Dim())
		}
		for i := range h.Len() {
			if h.Index(i) != g.Index(i) {
				t.Fatalf("%s: vertex %d is input point %d, %d with New", c.Name, i, h.Index(i), g.Index(i))
			}
		}
		if (h.Dim() == 3) != (len(tris) > 0) {
			t.Fatalf("%s: dimension %d with %d triangles", c.Name, h.Dim(), len(tris))
		}
		for _, tr := range tris {
			for _, i := range tr {
				if i < 0 || int(i) >= len(c.Pts) || !c.Pts[i].IsFinite() {
					t.Fatalf("%s: triangle %v has a bad corner", c.Name, tr)
				}
			}
		}
	}
}
