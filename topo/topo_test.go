package topo

import (
	"math"
	"math/big"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/hull"
	"github.com/collide3d/collide/mesh"
	"github.com/collide3d/collide/mesh/gen"
	"github.com/collide3d/collide/mesh/off"
)

// brute is the oracle: the flags and numbers of a mesh, computed directly
// from their definitions, quadratic where that is simpler.
type brute struct {
	manifold, closed, oriented, outward, convex  bool
	vertices, edges, faces, components           int
	boundary, nonManifoldEdges, nonManifoldVerts int
	degenerate                                   int
}

func bruteOf(m *mesh.TriMesh) brute {
	var b brute
	id := map[[3]float64]int{}
	w := make([]int, len(m.Verts))
	for i, v := range m.Verts {
		k := [3]float64{v.X + 0, v.Y + 0, v.Z + 0}
		if _, ok := id[k]; !ok {
			id[k] = len(id)
		}
		w[i] = id[k]
	}
	var tris [][3]int
	var orig []int
	for i, t := range m.Tris {
		a, c, d := w[t[0]], w[t[1]], w[t[2]]
		if a == c || c == d || d == a {
			b.degenerate++
			continue
		}
		tris = append(tris, [3]int{a, c, d})
		orig = append(orig, i)
	}
	b.faces = len(tris)
	type key [2]int
	uses := map[key][]int{} // undirected edge → +1 / -1 per use
	usedBy := map[key][]int{}
	for f, t := range tris {
		for k := 0; k < 3; k++ {
			a, c := t[k], t[(k+1)%3]
			s := 1
			if a > c {
				a, c, s = c, a, -1
			}
			uses[key{a, c}] = append(uses[key{a, c}], s)
			usedBy[key{a, c}] = append(usedBy[key{a, c}], f)
		}
	}
	b.edges = len(uses)
	b.oriented = true
	for _, u := range uses {
		sum := 0
		for _, s := range u {
			sum += s
		}
		switch {
		case len(u) == 1:
			b.boundary++
		case len(u) > 2:
			b.nonManifoldEdges++
		}
		if len(u) > 1 && sum != 0 {
			b.oriented = false
		}
	}
	// Fans: triangles around v joined by an edge (v, x) of two uses.
	verts := map[int][]int{}
	for f, t := range tris {
		for _, v := range t {
			verts[v] = append(verts[v], f)
		}
	}
	b.vertices = len(verts)
	for v, fs := range verts {
		seen := map[int]bool{fs[0]: true}
		stack := []int{fs[0]}
		for len(stack) > 0 {
			f := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for _, x := range tris[f] {
				if x == v {
					continue
				}
				k := key{min(v, x), max(v, x)}
				if len(usedBy[k]) != 2 {
					continue
				}
				for _, g := range usedBy[k] {
					if !seen[g] {
						seen[g] = true
						stack = append(stack, g)
					}
				}
			}
		}
		if len(seen) != len(fs) {
			b.nonManifoldVerts++
		}
	}
	// Components through shared vertices of edges: faces sharing an edge.
	comp := make([]int, len(tris))
	for i := range comp {
		comp[i] = -1
	}
	for s := range tris {
		if comp[s] >= 0 {
			continue
		}
		comp[s] = b.components
		stack := []int{s}
		for len(stack) > 0 {
			f := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for k := 0; k < 3; k++ {
				a, c := tris[f][k], tris[f][(k+1)%3]
				for _, g := range usedBy[key{min(a, c), max(a, c)}] {
					if comp[g] < 0 {
						comp[g] = b.components
						stack = append(stack, g)
					}
				}
			}
		}
		b.components++
	}
	b.manifold = b.nonManifoldEdges == 0 && b.nonManifoldVerts == 0
	b.closed = b.manifold && b.boundary == 0
	if !b.closed || !b.oriented {
		return b
	}
	vol := new(big.Rat)
	r := func(x float64) *big.Rat { return new(big.Rat).SetFloat64(x) }
	for _, i := range orig {
		t := m.Triangle(i)
		a, c, d := t[0], t[1], t[2]
		det := new(big.Rat).Mul(r(a.X), new(big.Rat).Sub(new(big.Rat).Mul(r(c.Y), r(d.Z)), new(big.Rat).Mul(r(c.Z), r(d.Y))))
		det.Add(det, new(big.Rat).Mul(r(a.Y), new(big.Rat).Sub(new(big.Rat).Mul(r(c.Z), r(d.X)), new(big.Rat).Mul(r(c.X), r(d.Z)))))
		det.Add(det, new(big.Rat).Mul(r(a.Z), new(big.Rat).Sub(new(big.Rat).Mul(r(c.X), r(d.Y)), new(big.Rat).Mul(r(c.Y), r(d.X)))))
		vol.Add(vol, det)
	}
	b.outward = vol.Sign() > 0
	if !b.outward || b.components != 1 || len(orig) > 3000 {
		return b
	}
	// Convex: every vertex on or below every face's plane, no zero-area
	// face, and the surface covers the boundary of that intersection once
	// (its faces lie in supporting planes; the degree of the cover is the
	// number of faces over the centroid of face 0 that lie in its plane
	// with its orientation, when no edge passes through that centroid).
	b.convex = true
	for _, i := range orig {
		t := m.Triangle(i)
		if collinear(t[0], t[1], t[2]) {
			b.convex = false
			return b
		}
		for _, j := range orig { // degenerate triangles are not part of the surface
			for _, v := range m.Tris[j] {
				if geom.Orient3D(t[0], t[1], t[2], m.Verts[v]) > 0 {
					b.convex = false
					return b
				}
			}
		}
	}
	b.convex = coverDegree(m, orig) == 1
	return b
}

// coverDegree counts the faces that contain the centroid of face orig[0]
// and are coplanar with it, with the same orientation (in the projection
// where it is not flat).
func coverDegree(m *mesh.TriMesh, orig []int) int {
	t0 := m.Triangle(orig[0])
	// Scale by 3 to keep the centroid exact: compare 3·p with sums.
	ax := func(v geom.Vec3, k int) float64 { return [3]float64{v.X, v.Y, v.Z}[k] }
	p, q := 0, 1
	for k := 0; k < 3; k++ {
		p, q = k, (k+1)%3
		if geom.Orient2D(ax(t0[0], p), ax(t0[0], q), ax(t0[1], p), ax(t0[1], q), ax(t0[2], p), ax(t0[2], q)) != 0 {
			break
		}
	}
	s0 := geom.Orient2D(ax(t0[0], p), ax(t0[0], q), ax(t0[1], p), ax(t0[1], q), ax(t0[2], p), ax(t0[2], q))
	c := [2]*big.Rat{new(big.Rat), new(big.Rat)}
	for _, v := range t0 {
		c[0].Add(c[0], new(big.Rat).SetFloat64(ax(v, p)))
		c[1].Add(c[1], new(big.Rat).SetFloat64(ax(v, q)))
	}
	c[0].Quo(c[0], big.NewRat(3, 1))
	c[1].Quo(c[1], big.NewRat(3, 1))
	orient := func(a, b geom.Vec3) int {
		r := func(x float64) *big.Rat { return new(big.Rat).SetFloat64(x) }
		ux, uy := new(big.Rat).Sub(r(ax(b, p)), r(ax(a, p))), new(big.Rat).Sub(r(ax(b, q)), r(ax(a, q)))
		vx, vy := new(big.Rat).Sub(c[0], r(ax(a, p))), new(big.Rat).Sub(c[1], r(ax(a, q)))
		return new(big.Rat).Sub(new(big.Rat).Mul(ux, vy), new(big.Rat).Mul(uy, vx)).Sign()
	}
	n := 0
	for _, i := range orig {
		t := m.Triangle(i)
		if geom.Orient3D(t0[0], t0[1], t0[2], t[0]) != 0 || geom.Orient3D(t0[0], t0[1], t0[2], t[1]) != 0 || geom.Orient3D(t0[0], t0[1], t0[2], t[2]) != 0 {
			continue
		}
		if geom.Orient2D(ax(t[0], p), ax(t[0], q), ax(t[1], p), ax(t[1], q), ax(t[2], p), ax(t[2], q)) != s0 {
			continue
		}
		in := true
		for k := 0; k < 3; k++ {
			if orient(t[k], t[(k+1)%3]) != s0 {
				in = false // on an edge counts as out: conservative
			}
		}
		if in {
			n++
		}
	}
	return n
}

func check(t *testing.T, name string, m *mesh.TriMesh) *Topology {
	t.Helper()
	got := Of(m)
	want := bruteOf(m)
	have := brute{got.Manifold, got.Closed, got.Oriented, got.Outward, got.Convex,
		got.Vertices, got.Edges, got.Faces, got.Components,
		got.NumBoundary, got.NumNonManifoldEdges, got.NumNonManifoldVerts, got.NumDegenerate}
	if len(m.Tris) > 3000 || !want.outward || want.components != 1 {
		have.convex, want.convex = false, false // the oracle decides small ones only
		if got.Convex && (!want.outward || want.components != 1) {
			t.Errorf("%s: convex, but outward %v, %d components", name, want.outward, want.components)
		}
	}
	if have != want {
		t.Errorf("%s:\n got %+v\nwant %+v (not convex: %+v)", name, have, want, got.NotConvex)
	}
	if got.Euler != got.Vertices-got.Edges+got.Faces {
		t.Errorf("%s: Euler %d", name, got.Euler)
	}
	checkTwins(t, name, got)
	roundTrip(t, name, m, got)
	return got
}

// checkTwins checks the half-edge table: a twin is mutual, joins the same
// two vertices, and is set only on edges of two uses.
func checkTwins(t *testing.T, name string, tp *Topology) {
	t.Helper()
	for h, g := range tp.Twin {
		if g < 0 {
			continue
		}
		if tp.Twin[g] != int32(h) {
			t.Fatalf("%s: twin of %d is %d, whose twin is %d", name, h, g, tp.Twin[g])
		}
		a, b := tp.Tris[h/3][h%3], tp.Tris[h/3][(h%3+1)%3]
		c, d := tp.Tris[g/3][g%3], tp.Tris[g/3][(g%3+1)%3]
		if min(a, b) != min(c, d) || max(a, b) != max(c, d) {
			t.Fatalf("%s: half-edge %d (%d-%d) twinned with %d (%d-%d)", name, h, a, b, g, c, d)
		}
	}
}

func generate(t testing.TB, kind string, p map[string]float64) *mesh.TriMesh {
	k, ok := gen.Lookup(kind)
	if !ok {
		t.Fatalf("no kind %q", kind)
	}
	m, err := k.Generate(p)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestGenerated checks every generator's meshes against the oracle.
func TestGenerated(t *testing.T) {
	want := map[string]struct{ closed, convex bool }{
		// The capsule's and the uv-sphere's rings, rounded, have reflex
		// edges (the oracle agrees).
		"box": {true, true}, "capsule": {true, false}, "cylinder": {true, true},
		"icosphere": {true, true}, "terrain": {false, false}, "tetrahedra": {true, false},
		"torus": {true, false}, "uvsphere": {true, false},
	}
	for _, k := range gen.Kinds() {
		p := map[string]float64{}
		for _, q := range k.Params {
			if q.Name == "tris" {
				p["tris"] = 500
			}
		}
		switch k.Name {
		case "terrain":
			p["n"] = 17
		case "tetrahedra":
			p["n"] = 5
		}
		m := generate(t, k.Name, p)
		tp := check(t, k.Name, m)
		w, ok := want[k.Name]
		if !ok {
			t.Errorf("kind %s: no expectation", k.Name)
			continue
		}
		if tp.Closed != w.closed || tp.Convex != w.convex {
			t.Errorf("%s: closed %v convex %v (%+v), want %v %v", k.Name, tp.Closed, tp.Convex, tp.NotConvex, w.closed, w.convex)
		}
		if k.Name == "torus" && tp.Genus != 1 {
			t.Errorf("torus: genus %d", tp.Genus)
		}
		if k.Name == "icosphere" && (tp.Genus != 0 || !tp.Outward || tp.Welded != 0) {
			t.Errorf("icosphere: genus %d, outward %v, welded %d", tp.Genus, tp.Outward, tp.Welded)
		}
		if k.Name == "tetrahedra" && (tp.Components != 5 || tp.NotConvex.Reason != "components") {
			t.Errorf("tetrahedra: %d components, %+v", tp.Components, tp.NotConvex)
		}
	}
}

// TestRandomConvex checks hulls of random points (convex) and the same
// meshes with one vertex moved in or out (mostly not convex) against the
// oracle.
func TestRandomConvex(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	convex := 0
	for i := 0; i < 200; i++ {
		n := 4 + rng.IntN(40)
		pts := make([]geom.Vec3, n)
		for j := range pts {
			pts[j] = geom.Vec3{X: rng.Float64(), Y: rng.Float64(), Z: rng.Float64()}
			if i%3 == 0 { // on a coarse grid: coplanar faces, flat edges
				pts[j] = geom.Vec3{X: float64(rng.IntN(3)), Y: float64(rng.IntN(3)), Z: float64(rng.IntN(3))}
			}
		}
		h, tris := hull.NewTriangulated(pts)
		if h.Dim() != 3 {
			continue
		}
		m := &mesh.TriMesh{Verts: pts, Tris: tris}
		tp := check(t, "hull", m)
		if tp.Convex {
			convex++
		}
		// Move a used vertex toward or away from the centroid.
		v := tris[rng.IntN(len(tris))][0]
		q := append([]geom.Vec3(nil), pts...)
		f := 0.7 + 0.6*rng.Float64()
		q[v] = geom.Vec3{X: 0.5 + f*(q[v].X-0.5), Y: 0.5 + f*(q[v].Y-0.5), Z: 0.5 + f*(q[v].Z-0.5)}
		check(t, "hull moved", &mesh.TriMesh{Verts: q, Tris: tris})
	}
	if convex < 100 {
		t.Errorf("only %d of 200 hulls convex", convex)
	}
}

// TestBroken checks meshes broken in known ways: the flags, the oracle and
// the offenders.
func TestBroken(t *testing.T) {
	box := func() *mesh.TriMesh { return generate(t, "box", nil) }

	t.Run("hole", func(t *testing.T) {
		m := box()
		m.Tris = m.Tris[1:]
		tp := check(t, "hole", m)
		if tp.Closed || !tp.Manifold || tp.NumBoundary != 3 || len(tp.Boundary) != 3 {
			t.Errorf("%+v", tp)
		}
	})
	t.Run("flipped", func(t *testing.T) {
		m := box()
		m.Tris[5][0], m.Tris[5][1] = m.Tris[5][1], m.Tris[5][0]
		tp := check(t, "flipped", m)
		if tp.Oriented || !tp.Closed || tp.NumFlipped != 1 || tp.Flipped[0] != 5 || tp.NumMisoriented != 3 || tp.Outward || tp.Convex {
			t.Errorf("%+v", tp)
		}
	})
	t.Run("all flipped", func(t *testing.T) {
		m := box()
		for i := range m.Tris {
			m.Tris[i][0], m.Tris[i][1] = m.Tris[i][1], m.Tris[i][0]
		}
		tp := check(t, "inward", m)
		if !tp.Oriented || tp.Outward || tp.VolumeSign != -1 || tp.NumFlipped != 0 {
			t.Errorf("%+v", tp)
		}
	})
	t.Run("moebius", func(t *testing.T) {
		m := moebius(12)
		tp := check(t, "moebius", m)
		if tp.Oriented || tp.NonOrientable != 1 || tp.NumFlipped != 0 || tp.Closed || !tp.Manifold {
			t.Errorf("%+v", tp)
		}
	})
	t.Run("t-junction", func(t *testing.T) {
		// A square: one triangle above the diagonal, two below meeting
		// at its midpoint.
		m := &mesh.TriMesh{Verts: []geom.Vec3{{X: 0, Y: 0, Z: 0}, {X: 2, Y: 0, Z: 0}, {X: 2, Y: 2, Z: 0}, {X: 0, Y: 2, Z: 0}, {X: 1, Y: 1, Z: 0}},
			Tris: [][3]int32{{0, 2, 3}, {0, 1, 4}, {4, 1, 2}}}
		tp := check(t, "t-junction", m)
		if tp.Closed || tp.NumBoundary != 7 || tp.Components != 2 {
			t.Errorf("%+v", tp)
		}
	})
	t.Run("duplicate", func(t *testing.T) {
		m := box()
		m.Tris = append(m.Tris, m.Tris[0])
		tp := check(t, "duplicate", m)
		if tp.Manifold || tp.NumNonManifoldEdges != 3 || tp.Oriented {
			t.Errorf("%+v", tp)
		}
	})
	t.Run("three on an edge", func(t *testing.T) {
		m := &mesh.TriMesh{Verts: []geom.Vec3{{X: 0, Y: 0, Z: 0}, {X: 1, Y: 0, Z: 0}, {X: 0, Y: 1, Z: 0}, {X: 0, Y: -1, Z: 0}, {X: 0, Y: 0, Z: 1}},
			Tris: [][3]int32{{0, 1, 2}, {1, 0, 3}, {0, 1, 4}}}
		tp := check(t, "fin", m)
		if tp.Manifold || tp.NumNonManifoldEdges != 1 || tp.NonManifoldEdges[0].Tri != 0 {
			t.Errorf("%+v", tp)
		}
	})
	t.Run("cones at a vertex", func(t *testing.T) {
		a := tetra(geom.Vec3{}, 1)
		b := tetra(geom.Vec3{}, -1) // shares the vertex at the origin
		m := &mesh.TriMesh{Verts: append(a.Verts, b.Verts...)}
		m.Tris = append(m.Tris, a.Tris...)
		for _, tr := range b.Tris {
			m.Tris = append(m.Tris, [3]int32{tr[0] + 4, tr[1] + 4, tr[2] + 4})
		}
		// Components are joined through edges: the two cones are two.
		tp := check(t, "bowtie", m)
		if tp.Manifold || tp.NumNonManifoldVerts != 1 || tp.NumNonManifoldEdges != 0 || tp.Welded != 1 || tp.Components != 2 {
			t.Errorf("%+v", tp)
		}
	})
	t.Run("degenerate", func(t *testing.T) {
		m := box()
		m.Verts = append(m.Verts, m.Verts[0])
		m.Tris = append(m.Tris, [3]int32{0, 1, int32(len(m.Verts) - 1)}, [3]int32{2, 2, 3})
		tp := check(t, "degenerate", m)
		if !tp.Convex || tp.NumDegenerate != 2 || tp.Degenerate[0] != 12 || tp.Welded != 1 {
			t.Errorf("%+v", tp)
		}
	})
	t.Run("two boxes", func(t *testing.T) {
		m := box()
		n := int32(len(m.Verts))
		for _, v := range m.Verts[:n] {
			m.Verts = append(m.Verts, v.Add(geom.Vec3{X: 5}))
		}
		for _, tr := range m.Tris {
			m.Tris = append(m.Tris, [3]int32{tr[0] + n, tr[1] + n, tr[2] + n})
		}
		tp := check(t, "two boxes", m)
		if !tp.Closed || tp.Components != 2 || tp.Convex || tp.Euler != 4 || tp.Genus != 0 {
			t.Errorf("%+v", tp)
		}
	})
	t.Run("far", func(t *testing.T) {
		m := box()
		for i := range m.Verts {
			m.Verts[i] = m.Verts[i].Add(geom.Vec3{X: 0x1p52, Y: -0x1p52, Z: 1e15})
		}
		if tp := check(t, "far", m); !tp.Convex {
			t.Errorf("%+v", tp.NotConvex)
		}
	})
	t.Run("one ulp", func(t *testing.T) {
		for _, dz := range []float64{math.Nextafter(1, 2), math.Nextafter(1, 0)} {
			m := generate(t, "box", map[string]float64{"n": 2})
			moved := 0
			for i, v := range m.Verts {
				if v.Z == 1 && v.X == 0 && v.Y == 0 {
					m.Verts[i].Z = dz
					moved++
				}
			}
			if moved == 0 {
				t.Fatal("no top centre vertex")
			}
			tp := check(t, "one ulp", m)
			if tp.Convex || !tp.Outward || tp.NotConvex == nil {
				t.Errorf("z %v: %+v", dz, tp)
			}
		}
	})
	t.Run("wound twice", func(t *testing.T) {
		m := woundTwice()
		tp := check(t, "wound twice", m)
		// Every edge and the cone at the apex pass; only the winding test
		// sees it: edges alone do not decide convexity.
		if tp.Convex || !tp.Closed || tp.Euler != 2 || tp.NotConvex.Reason != "vertex wound more than once" || tp.NotConvex.Vertex != 0 {
			t.Errorf("%+v %+v", tp, tp.NotConvex)
		}
	})
	t.Run("flat vertex wound twice", func(t *testing.T) {
		// Vertex 0, flat, is circled twice by its link (angles 0, 120,
		// 240, then 30, 150, 270), no two link vertices on one ray nor
		// on one line; a vertex below closes the surface. Every edge is
		// convex.
		m := &mesh.TriMesh{Verts: []geom.Vec3{{}}}
		for i := 0; i < 6; i++ {
			a := math.Pi / 180 * float64((120*i+30*(i/3))%360)
			m.Verts = append(m.Verts, geom.Vec3{X: math.Cos(a), Y: math.Sin(a)})
		}
		m.Verts = append(m.Verts, geom.Vec3{Z: -1})
		for i := int32(0); i < 6; i++ {
			a, b := 1+i, 1+(i+1)%6
			m.Tris = append(m.Tris, [3]int32{0, a, b}, [3]int32{7, b, a})
		}
		tp := check(t, "flat wound twice", m)
		if tp.Convex || !tp.Outward || tp.Euler != 2 || tp.NotConvex.Reason != "vertex wound more than once" || tp.NotConvex.Vertex != 0 {
			t.Errorf("%+v %+v", tp, tp.NotConvex)
		}
	})
}

// tetra returns a tetrahedron with a vertex at c, the others at c + s·e_i,
// outward.
func tetra(c geom.Vec3, s float64) *mesh.TriMesh {
	m := &mesh.TriMesh{Verts: []geom.Vec3{c, c.Add(geom.Vec3{X: s}), c.Add(geom.Vec3{Y: s}), c.Add(geom.Vec3{Z: s})},
		Tris: [][3]int32{{0, 2, 1}, {0, 1, 3}, {0, 3, 2}, {1, 2, 3}}}
	if s < 0 {
		for i := range m.Tris {
			m.Tris[i][0], m.Tris[i][1] = m.Tris[i][1], m.Tris[i][0]
		}
	}
	return m
}

// moebius returns a Möbius strip of n quads (2n triangles).
func moebius(n int) *mesh.TriMesh {
	m := &mesh.TriMesh{}
	for i := 0; i < n; i++ {
		a := 2 * math.Pi * float64(i) / float64(n)
		for _, s := range []float64{-0.3, 0.3} {
			r := 1 + s*math.Cos(a/2)
			m.Verts = append(m.Verts, geom.Vec3{X: r * math.Cos(a), Y: r * math.Sin(a), Z: s * math.Sin(a/2)})
		}
	}
	for i := 0; i < n; i++ {
		a, b := int32(2*i), int32(2*i+1)
		c, d := int32(2*((i+1)%n)), int32(2*((i+1)%n)+1)
		if i == n-1 { // the half twist
			c, d = d, c
		}
		m.Tris = append(m.Tris, [3]int32{a, c, b}, [3]int32{b, c, d})
	}
	return m
}

// woundTwice returns a closed sphere whose faces around the apex (0, 0, 1)
// go twice around one square cone (the second time at twice the length),
// closed by a base vertex below: every edge is convex, the cone at the
// apex is convex, but the surface is wound twice around it.
func woundTwice() *mesh.TriMesh {
	n := geom.Vec3{Z: 1}
	m := &mesh.TriMesh{Verts: []geom.Vec3{n, {Z: -3}}}
	dirs := []geom.Vec3{{X: 1, Z: -1}, {Y: 1, Z: -1}, {X: -1, Z: -1}, {Y: -1, Z: -1}}
	for lap := 1; lap <= 2; lap++ {
		for _, d := range dirs {
			m.Verts = append(m.Verts, n.Add(d.Scale(float64(lap))))
		}
	}
	for i := 0; i < 8; i++ {
		a, b := int32(2+i), int32(2+(i+1)%8)
		m.Tris = append(m.Tris, [3]int32{0, a, b}, [3]int32{1, b, a})
	}
	return m
}

// TestMeshes checks real meshes, if COLLIDE_CGAL_DATA names a directory of
// OFF files, against the oracle (flags and numbers; convexity for the small
// ones).
func TestMeshes(t *testing.T) {
	dir := os.Getenv("COLLIDE_CGAL_DATA")
	if dir == "" {
		t.Skip("COLLIDE_CGAL_DATA not set")
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.off"))
	if len(files) == 0 {
		t.Skip("no OFF files in " + dir)
	}
	for _, f := range files {
		r, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		m, err := off.Decode(r)
		r.Close()
		if err != nil || m.Validate() != nil || len(m.Tris) > 20000 {
			continue
		}
		check(t, filepath.Base(f), m)
	}
}

func BenchmarkOf(b *testing.B) {
	m := generate(b, "icosphere", map[string]float64{"tris": 1000000})
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		Of(m)
	}
}

// TestSmall checks an empty mesh, unused vertices and a flat closed surface
// (two triangles back to back: closed and oriented, volume zero).
func TestSmall(t *testing.T) {
	if tp := check(t, "empty", &mesh.TriMesh{}); tp.Faces != 0 || !tp.Manifold || tp.Outward || tp.Components != 0 {
		t.Errorf("empty: %+v", tp)
	}
	flat := &mesh.TriMesh{Verts: []geom.Vec3{{X: 9}, {X: 0}, {X: 1}, {Y: 1}}, Tris: [][3]int32{{1, 2, 3}, {1, 3, 2}}}
	tp := check(t, "flat", flat)
	if !tp.Closed || !tp.Oriented || tp.VolumeSign != 0 || tp.Outward || tp.Vertices != 3 || tp.Weld[0] != -1 {
		t.Errorf("flat: %+v", tp)
	}
}

// FuzzOf checks Of against the oracle on small meshes made of the bytes:
// vertices on a 3×3×3 grid (welds, coplanar and collinear triangles are
// common), triangles of any three of them.
func FuzzOf(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5, 0, 1, 2, 0, 2, 3, 0, 3, 1, 1, 3, 2})
	f.Add([]byte{0, 9, 26, 13, 4, 5, 0, 1, 2, 2, 1, 0, 3, 4, 5})
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) < 6 || len(b) > 120 {
			return
		}
		nv := int(b[0])%12 + 3
		if len(b) < 1+nv {
			return
		}
		m := &mesh.TriMesh{}
		for _, c := range b[1 : 1+nv] {
			c %= 27
			m.Verts = append(m.Verts, geom.Vec3{X: float64(c % 3), Y: float64(c / 3 % 3), Z: float64(c / 9)})
		}
		rest := b[1+nv:]
		for i := 0; i+2 < len(rest); i += 3 {
			m.Tris = append(m.Tris, [3]int32{int32(int(rest[i]) % nv), int32(int(rest[i+1]) % nv), int32(int(rest[i+2]) % nv)})
		}
		check(t, "fuzz", m)
	})
}
