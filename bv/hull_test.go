package bv

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/collide3d/collide/geom"
)

// hullCloud is a named test point set, with the expected number of hull
// vertices and dimension when they are known (-1: not checked).
type hullCloud struct {
	name  string
	pts   []geom.Vec3
	verts int
	dim   int
}

func hullSphere(rng *rand.Rand, n int, r float64, c geom.Vec3) []geom.Vec3 {
	pts := make([]geom.Vec3, n)
	for i := range pts {
		v := geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()).Unit()
		pts[i] = v.Scale(r).Add(c)
	}
	return pts
}

func hullBox(rng *rand.Rand, n int) []geom.Vec3 {
	pts := make([]geom.Vec3, n)
	for i := range pts {
		pts[i] = geom.V(2*rng.Float64()-1, 2*rng.Float64()-1, 2*rng.Float64()-1)
	}
	return pts
}

// hullLattice returns the n×n×n integer grid scaled by s and offset by o.
func hullLattice(n int, s float64, o geom.Vec3) []geom.Vec3 {
	var pts []geom.Vec3
	for i := range n {
		for j := range n {
			for k := range n {
				pts = append(pts, geom.V(float64(i), float64(j), float64(k)).Scale(s).Add(o))
			}
		}
	}
	return pts
}

func hullClouds() []hullCloud {
	rng := rand.New(rand.NewPCG(1, 1))
	var cs []hullCloud
	add := func(name string, pts []geom.Vec3, verts, dim int) {
		cs = append(cs, hullCloud{name, pts, verts, dim})
	}
	add("empty", nil, 0, -1)
	add("single", []geom.Vec3{geom.V(1, 2, 3)}, 1, 0)
	p := geom.V(-0.5, 7, 1e-3)
	add("repeated", []geom.Vec3{p, p, p, p, p}, 1, 0)
	var line []geom.Vec3
	for _, t := range rng.Perm(40) {
		line = append(line, geom.V(3, -1, 2).Add(geom.V(1, 2, -3).Scale(float64(t-10))))
	}
	line = append(line, line[5], line[7])
	add("collinear", line, 2, 1)
	add("two", []geom.Vec3{geom.V(0, 0, 0), geom.V(0, 0, 1e-300)}, 2, 1)
	// A tilted plane through integer combinations: exactly coplanar.
	var plane []geom.Vec3
	for range 300 {
		a, b := float64(rng.IntN(41)-20), float64(rng.IntN(41)-20)
		plane = append(plane, geom.V(5, -3, 2).Add(geom.V(1, 2, 3).Scale(a)).Add(geom.V(-2, 1, 1).Scale(b)))
	}
	add("coplanar", plane, -1, 2)
	var grid2 []geom.Vec3
	for i := range 10 {
		for j := range 10 {
			grid2 = append(grid2, geom.V(float64(i), 0.25, float64(j)), geom.V(float64(i), 0.25, float64(j)))
		}
	}
	add("grid2", grid2, 4, 2)
	add("triangle", []geom.Vec3{geom.V(0, 0, 0), geom.V(1, 0, 0), geom.V(0, 1, 0), geom.V(0.5, 0, 0), geom.V(0.25, 0.25, 0)}, 3, 2)
	var vert []geom.Vec3
	for range 100 {
		a, b := float64(rng.IntN(21)-10), float64(rng.IntN(21)-10)
		vert = append(vert, geom.V(a, 2*a, b))
	}
	add("vertical-plane", vert, -1, 2)
	add("skewed", []geom.Vec3{{}, geom.V(1e300, 0, 0), geom.V(0, 1e-300, 0), geom.V(0, 0, 1e-300), geom.V(1e299, 1e-301, 0)}, 4, 3)
	add("tetra", []geom.Vec3{geom.V(0, 0, 0), geom.V(1, 0, 0), geom.V(0, 1, 0), geom.V(0, 0, 1)}, 4, 3)
	add("octahedron", []geom.Vec3{geom.V(1, 0, 0), geom.V(-1, 0, 0), geom.V(0, 1, 0), geom.V(0, -1, 0), geom.V(0, 0, 1), geom.V(0, 0, -1), {}}, 6, 3)
	add("lattice", hullLattice(6, 1, geom.Vec3{}), 8, 3)
	add("lattice-far", hullLattice(5, 1, geom.V(1e6, -1e6, 1e6)), 8, 3)
	add("lattice-tiny", hullLattice(5, 1e-7, geom.Vec3{}), 8, 3)
	// Cube corners with points on its faces and edges and inside.
	cube := hullLattice(2, 2, geom.V(-1, -1, -1))
	for range 200 {
		q := hullBox(rng, 1)[0]
		switch rng.IntN(3) {
		case 0:
			q.X = float64(2*rng.IntN(2) - 1)
		case 1:
			q.Y, q.Z = float64(2*rng.IntN(2)-1), float64(2*rng.IntN(2)-1)
		}
		cube = append(cube, q)
	}
	add("cube-faces", cube, 8, 3)
	for _, n := range []int{4, 5, 10, 100, 2000} {
		add(fmt.Sprintf("sphere%d", n), hullSphere(rng, n, 1, geom.Vec3{}), -1, -1)
		add(fmt.Sprintf("box%d", n), hullBox(rng, n), -1, -1)
	}
	s := hullSphere(rng, 300, 1, geom.Vec3{})
	dup := append(append(append([]geom.Vec3{}, s...), s...), s[:100]...)
	rng.Shuffle(len(dup), func(i, j int) { dup[i], dup[j] = dup[j], dup[i] })
	add("duplicates", dup, -1, 3)
	var soup []geom.Vec3
	for range 500 {
		sc := math.Ldexp(1, rng.IntN(20)-10)
		soup = append(soup, hullBox(rng, 1)[0].Scale(sc).Add(geom.V(float64(rng.IntN(3)), 0, 0)))
	}
	add("soup", soup, -1, 3)
	add("far", hullSphere(rng, 500, 1, geom.V(1e6, 1e6, -1e6)), -1, 3)
	add("tiny", hullSphere(rng, 500, 1e-7, geom.V(1e-7, 0, 0)), -1, 3)
	add("huge", hullSphere(rng, 200, 1e300, geom.Vec3{}), -1, 3)
	add("minute", hullSphere(rng, 200, 1e-300, geom.Vec3{}), -1, 3)
	nf := hullSphere(rng, 50, 1, geom.Vec3{})
	nf = append(nf, geom.V(math.NaN(), 0, 0), geom.V(0, math.Inf(1), 0))
	add("nonfinite", nf, -1, 3)
	return cs
}

// hullRatDot returns g·x in rationals.
func hullRatDot(g, x geom.Vec3) *big.Rat {
	s := new(big.Rat)
	for j := range 3 {
		t := new(big.Rat).SetFloat64(g.Index(j))
		s.Add(s, t.Mul(t, new(big.Rat).SetFloat64(x.Index(j))))
	}
	return s
}

func TestHullDotSign(t *testing.T) {
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
		want := hullRatDot(g, w).Cmp(hullRatDot(g, v))
		if got, _ := hullDotSign(g, w, v); got != want {
			t.Fatalf("case %d: hullDotSign(%v, %v, %v) = %d, want %d", it%8, g, w, v, got, want)
		}
		if got := hullDotSignExact(g, w, v); got != want {
			t.Fatalf("case %d: hullDotSignExact(%v, %v, %v) = %d, want %d", it%8, g, w, v, got, want)
		}
	}
	nan := geom.V(math.NaN(), 0, 0)
	if s, _ := hullDotSign(nan, geom.V(1, 2, 3), geom.V(3, 2, 1)); s != 0 {
		t.Errorf("NaN g: sign %d, want 0", s)
	}
}

// hullCheck verifies h against pts: vertices are input points, the graph is
// symmetric, every point lies inside (triangles, when given, and random
// directions, exactly), and every vertex is extreme.
func hullCheck(t *testing.T, c hullCloud, h *Hull, tris [][3]int32, rng *rand.Rand) {
	t.Helper()
	pts := c.pts
	var fin []geom.Vec3
	for _, p := range pts {
		if p.IsFinite() {
			fin = append(fin, p)
		}
	}
	if c.verts >= 0 && h.Len() != c.verts {
		t.Fatalf("%d vertices, want %d", h.Len(), c.verts)
	}
	if c.dim >= 0 && h.Dim() != c.dim {
		t.Fatalf("dimension %d, want %d", h.Dim(), c.dim)
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
			if s, _ := hullDotSign(g, p, top); s > 0 {
				top = p
			}
		}
		v, _ := h.climb(g, int32(rng.IntN(h.Len())))
		if s, _ := hullDotSign(g, top, h.Vertex(int(v))); s != 0 {
			t.Fatalf("direction %v: climb ends at %v, input max at %v (sign %d)", g, h.Vertex(int(v)), top, s)
		}
	}
	switch h.Dim() {
	case 3:
		if tris == nil {
			t.Fatal("no triangles")
		}
		hullCheckSolid(t, pts, fin, h, tris)
	case 2:
		hullCheckPolygon(t, fin, h)
	case 1:
		a, b := h.Vertex(0), h.Vertex(1)
		if a == b {
			t.Fatal("segment with equal ends")
		}
		for _, p := range fin {
			if !hullCollinear(a, b, p) {
				t.Fatalf("%v not on the line", p)
			}
			// g is not perpendicular to the line, so g·x is monotone on it.
			g := b.Sub(a)
			if s1, _ := hullDotSign(g, p, a); s1 < 0 {
				t.Fatalf("%v outside the segment", p)
			}
			if s2, _ := hullDotSign(g, p, b); s2 > 0 {
				t.Fatalf("%v outside the segment", p)
			}
		}
	}
}

func hullCheckSolid(t *testing.T, all, fin []geom.Vec3, h *Hull, tris [][3]int32) {
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
			if s, _ := hullDotSign(g, p, v); p != v && s >= 0 {
				t.Fatalf("vertex %v not extreme: %v is as high along %v", v, p, g)
			}
		}
	}
}

func hullCheckPolygon(t *testing.T, fin []geom.Vec3, h *Hull) {
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

func TestHullShapes(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	for _, c := range hullClouds() {
		t.Run(c.name, func(t *testing.T) {
			h, tris := buildHull(c.pts, true)
			hullCheck(t, c, h, tris, rng)
		})
	}
}

// hullRot returns a random rotation by an angle of at most maxAngle.
func hullRot(rng *rand.Rand, maxAngle float64) geom.Mat3 {
	axis := geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64())
	return geom.AxisAngle(axis, maxAngle*(2*rng.Float64()-1)).Mat3()
}

// hullCheckDOP checks DOP against every input point and against DOPBrute,
// and that the stored vertices are exact extremes.
func hullCheckDOP(t *testing.T, h *Hull, pts []geom.Vec3, k K, r geom.Mat3, tr geom.Vec3, st *ClimbState) int {
	t.Helper()
	d, steps := h.DOP(k, r, tr, st)
	b := h.DOPBrute(k, r, tr)
	if h.Len() == 0 {
		if d != Empty(k) || b != Empty(k) {
			t.Fatalf("empty hull: %v, %v", d, b)
		}
		return 0
	}
	set, base := h.dopSetup(k, r, tr)
	pose := geom.Pose{R: r, T: tr}
	var pr [MaxSlabs]float64
	for _, p := range pts {
		if !p.IsFinite() {
			continue
		}
		k.Project(pose.Apply(p), &pr)
		for i := range k.Slabs() {
			if pr[i] < d.Lo[i] || pr[i] > d.Hi[i] {
				t.Fatalf("%v: slab %d: %v → %g outside [%g, %g]", k, i, p, pr[i], d.Lo[i], d.Hi[i])
			}
			if pr[i] < b.Lo[i] || pr[i] > b.Hi[i] {
				t.Fatalf("%v brute: slab %d: %v → %g outside [%g, %g]", k, i, p, pr[i], b.Lo[i], b.Hi[i])
			}
		}
	}
	for i, di := range set {
		g, m := hullDir(di, &r)
		pad := m*base + 0x1p-1000
		if !(math.Abs(d.Lo[i]-b.Lo[i]) <= 2*pad && math.Abs(d.Hi[i]-b.Hi[i]) <= 2*pad) {
			t.Fatalf("%v slab %d: climb [%g, %g], brute [%g, %g], pad %g", k, i, d.Lo[i], d.Hi[i], b.Lo[i], b.Hi[i], pad)
		}
		hi, lo := h.Vertex(int(st.v[2*i])), h.Vertex(int(st.v[2*i+1]))
		for _, p := range pts {
			if !p.IsFinite() {
				continue
			}
			if s, _ := hullDotSign(g, p, hi); s > 0 {
				t.Fatalf("%v slab %d: %v above the climbed maximum %v", k, i, p, hi)
			}
			if s, _ := hullDotSign(g, p, lo); s < 0 {
				t.Fatalf("%v slab %d: %v below the climbed minimum %v", k, i, p, lo)
			}
		}
	}
	return steps
}

func TestHullDOP(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	for _, c := range hullClouds() {
		h := NewHull(c.pts)
		pts := c.pts
		if len(pts) > 500 {
			pts = pts[:500] // every point is still checked by DOPBrute below
		}
		t.Run(c.name, func(t *testing.T) {
			for _, k := range Ks {
				var st ClimbState
				tr := geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()).Scale(math.Ldexp(1, rng.IntN(40)-20))
				// Identity and quarter turns: ties everywhere on lattices.
				hullCheckDOP(t, h, pts, k, geom.Identity3(), tr, &st)
				hullCheckDOP(t, h, pts, k, geom.Mat3{{0, -1, 0}, {1, 0, 0}, {0, 0, 1}}, tr, &st)
				hullCheckDOP(t, h, pts, k, geom.AxisAngle(geom.V(1, 2, 3), 1e-17).Mat3(), tr, &st)
				// Large jumps.
				for range 3 {
					hullCheckDOP(t, h, pts, k, hullRot(rng, math.Pi), tr, &st)
				}
				// A coherent sequence of small rotations.
				q := geom.AxisAngle(geom.V(rng.NormFloat64(), 1, 0), 1)
				for range 4 {
					q = geom.AxisAngle(geom.V(rng.NormFloat64(), rng.NormFloat64(), 1), 0.02).Mul(q)
					hullCheckDOP(t, h, pts, k, q.Mat3(), tr, &st)
				}
			}
		})
		if len(c.pts) > len(pts) {
			// All points against the climbed DOP, for one pose and k.
			r := hullRot(rng, math.Pi)
			d, _ := h.DOP(K26, r, geom.Vec3{}, nil)
			pose := geom.Pose{R: r}
			for _, p := range c.pts {
				if p.IsFinite() && !d.Contains(pose.Apply(p)) {
					t.Fatalf("%s: %v not in %v", c.name, p, d)
				}
			}
		}
	}
}

func TestHullTies(t *testing.T) {
	// Axis-aligned lattices under identity and quarter turns: every slab
	// side has whole faces of maximisers, and neighbours tie.
	quarter := geom.Mat3{{0, 0, 1}, {1, 0, 0}, {0, 1, 0}}
	for _, pts := range [][]geom.Vec3{hullLattice(7, 1, geom.Vec3{}), hullLattice(4, 0.5, geom.V(-1, -1, -1))} {
		h := NewHull(pts)
		for _, k := range Ks {
			var st ClimbState
			for _, r := range []geom.Mat3{geom.Identity3(), quarter, quarter.Mul(quarter), geom.Identity3()} {
				steps := hullCheckDOP(t, h, pts, k, r, geom.Vec3{}, &st)
				if steps > 2*k.Slabs()*h.Len() {
					t.Fatalf("%v: %d steps on a %d-vertex hull", k, steps, h.Len())
				}
			}
		}
	}
}

func TestHullCoherence(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	h := NewHull(hullSphere(rng, 2000, 1, geom.Vec3{}))
	var st ClimbState
	q := geom.Quat{W: 1}
	small, jumps := 0, 0
	const n = 200
	for range n {
		q = geom.AxisAngle(geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()), 0.01).Mul(q)
		_, s := h.DOP(K18, q.Mat3(), geom.Vec3{}, &st)
		small += s
	}
	for range n {
		_, s := h.DOP(K18, hullRot(rng, math.Pi), geom.Vec3{}, &st)
		jumps += s
	}
	t.Logf("%d hull vertices; K18 steps per query: %.2f coherent (0.01 rad), %.1f random", h.Len(), float64(small)/n, float64(jumps)/n)
	if small*5 > jumps {
		t.Errorf("coherent queries take %d steps, random ones %d", small, jumps)
	}
}

func TestHullStateReuse(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	big := NewHull(hullSphere(rng, 300, 1, geom.Vec3{}))
	small := NewHull(hullLattice(3, 1, geom.Vec3{}))
	var st ClimbState
	big.DOP(K26, hullRot(rng, 3), geom.Vec3{}, &st)
	st.v[0] = -5
	// Indices past the small hull's vertices are reset, not used.
	hullCheckDOP(t, small, hullLattice(3, 1, geom.Vec3{}), K26, hullRot(rng, 3), geom.Vec3{}, &st)
	if d, s := NewHull(nil).DOP(K6, geom.Identity3(), geom.Vec3{}, nil); s != 0 || !d.IsEmpty() {
		t.Errorf("empty hull: %v, %d steps", d, s)
	}
	// Non-finite poses must not panic or loop; the result stays conservative.
	d, _ := big.DOP(K14, geom.Mat3{{math.NaN(), 0, 0}, {0, 1, 0}, {0, 0, 1}}, geom.Vec3{}, &st)
	for i := range K14.Slabs() {
		if math.IsNaN(d.Lo[i]) || math.IsNaN(d.Hi[i]) {
			t.Errorf("NaN pose: slab %d is [%g, %g]", i, d.Lo[i], d.Hi[i])
		}
	}
	h := NewHull(hullLattice(4, 1e307, geom.V(-1.5e307, -1.5e307, -1.5e307)))
	d, _ = h.DOP(K26, hullRot(rng, 3), geom.V(1e308, 0, 0), nil)
	for i := range K26.Slabs() {
		if math.IsNaN(d.Lo[i]) || math.IsNaN(d.Hi[i]) || d.Lo[i] > d.Hi[i] {
			t.Errorf("overflowing pose: slab %d is [%g, %g]", i, d.Lo[i], d.Hi[i])
		}
	}
}

func TestHullDOPNoAlloc(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	h := NewHull(hullSphere(rng, 500, 1, geom.Vec3{}))
	var st ClimbState
	r := hullRot(rng, 3)
	if a := testing.AllocsPerRun(20, func() { h.DOP(K26, r, geom.V(1, 2, 3), &st) }); a != 0 {
		t.Errorf("DOP allocates %v times", a)
	}
}

func BenchmarkHullNew(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		pts := hullSphere(rand.New(rand.NewPCG(1, 1)), n, 1, geom.Vec3{})
		b.Run(fmt.Sprintf("sphere%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				NewHull(pts)
			}
		})
	}
	pts := hullBox(rand.New(rand.NewPCG(1, 1)), 100_000)
	b.Run("box100000", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			NewHull(pts)
		}
	})
}

func BenchmarkHullDOP(b *testing.B) {
	for _, n := range []int{1000, 10_000} {
		rng := rand.New(rand.NewPCG(1, 1))
		h := NewHull(hullSphere(rng, n, 1, geom.Vec3{}))
		rots := make([]geom.Mat3, 64)
		for i := range rots {
			rots[i] = hullRot(rng, math.Pi)
		}
		step := geom.AxisAngle(geom.V(1, 2, 3), 0.01)
		b.Run(fmt.Sprintf("sphere%d/coherent", n), func(b *testing.B) {
			b.ReportAllocs()
			var st ClimbState
			q, steps := geom.Quat{W: 1}, 0
			for b.Loop() {
				q = step.Mul(q)
				_, s := h.DOP(K18, q.Mat3(), geom.V(1, 2, 3), &st)
				steps += s
			}
			b.ReportMetric(float64(steps)/float64(b.N), "steps/op")
		})
		b.Run(fmt.Sprintf("sphere%d/random", n), func(b *testing.B) {
			b.ReportAllocs()
			var st ClimbState
			i, steps := 0, 0
			for b.Loop() {
				_, s := h.DOP(K18, rots[i%len(rots)], geom.V(1, 2, 3), &st)
				steps += s
				i++
			}
			b.ReportMetric(float64(steps)/float64(b.N), "steps/op")
		})
		b.Run(fmt.Sprintf("sphere%d/brute", n), func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				h.DOPBrute(K18, rots[i%len(rots)], geom.V(1, 2, 3))
				i++
			}
		})
	}
}
