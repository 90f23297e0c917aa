package scenes

import (
	"fmt"
	"hash/fnv"
	"math"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh"
	"github.com/collide3d/collide/mesh/gen"
)

// shapeLong reports whether the full-size cases run (COLLIDE_LONG=1).
func shapeLong() bool { return os.Getenv("COLLIDE_LONG") != "" }

// shapeHash returns an FNV-64a hash of the bits of every coordinate and
// index of m.
func shapeHash(m *mesh.TriMesh) uint64 {
	h := fnv.New64a()
	var buf [8]byte
	put := func(x uint64) {
		for i := range buf {
			buf[i] = byte(x >> (8 * i))
		}
		h.Write(buf[:])
	}
	for _, v := range m.Verts {
		put(math.Float64bits(v.X))
		put(math.Float64bits(v.Y))
		put(math.Float64bits(v.Z))
	}
	for _, t := range m.Tris {
		put(uint64(t[0]) | uint64(t[1])<<21 | uint64(t[2])<<42)
	}
	return h.Sum64()
}

// checkMesh checks what every generator promises: a valid mesh, every
// vertex used, no degenerate or duplicate triangle. When closed, every
// directed edge occurs exactly once and its reverse exactly once (closed
// parts, consistently oriented) and the enclosed volume is positive
// (outward normals).
func checkMesh(t *testing.T, m *mesh.TriMesh, closed bool) {
	t.Helper()
	if err := m.Validate(); err != nil {
		t.Fatalf("Validate: %v", err)
	}
	st := m.Stats()
	if st.Degenerate != 0 || st.Duplicate != 0 {
		t.Errorf("%d degenerate and %d duplicate triangles", st.Degenerate, st.Duplicate)
	}
	used := make([]bool, len(m.Verts))
	for _, tri := range m.Tris {
		for _, i := range tri {
			used[i] = true
		}
	}
	if i := slices.Index(used, false); i >= 0 {
		t.Errorf("vertex %d is unused", i)
	}
	if !closed {
		return
	}
	edges := make(map[[2]int32]int, 3*len(m.Tris))
	for _, tri := range m.Tris {
		for e := range 3 {
			edges[[2]int32{tri[e], tri[(e+1)%3]}]++
		}
	}
	bad := 0
	for e, n := range edges {
		if n != 1 || edges[[2]int32{e[1], e[0]}] != 1 {
			bad++
			if bad <= 3 {
				t.Errorf("directed edge %v occurs %d times, its reverse %d times", e, n, edges[[2]int32{e[1], e[0]}])
			}
		}
	}
	var vol float64
	for i := range m.Tris {
		tr := m.Triangle(i)
		vol += tr[0].Dot(tr[1].Cross(tr[2]))
	}
	if !(vol > 0) {
		t.Errorf("enclosed volume %v is not positive: the normals point inward", vol/6)
	}
}

// box returns the AABB lo-hi.
func box(lx, ly, lz, hx, hy, hz float64) geom.AABB {
	return geom.AABB{Min: geom.V(lx, ly, lz), Max: geom.V(hx, hy, hz)}
}

// shapeCase is a generator call at one size.
type shapeCase struct {
	name string
	tris int // the request (the documented count for Axe)
	// make generates the mesh for a seed (ignored by deterministic ones).
	make   func(tris int, seed uint64) (*mesh.TriMesh, error)
	seeded bool
	// lo and hi bound the count as documented.
	lo, hi int
	bounds geom.AABB
	closed bool
}

func shapeCases() []shapeCase {
	pipes := func(tris int) shapeCase {
		return shapeCase{"pipes", tris, Pipes, true, tris - 1, tris, box(0, 0, 0, 1, 1, 1), true}
	}
	torus := func(tris int) shapeCase {
		// gen.Torus's rule: b = round(√(0.15·tris)), a closest to tris/(2b).
		b := max(3, int(math.Round(math.Sqrt(0.15*float64(tris)))))
		a := max(3, (2*tris+2*b-1)/(4*b))
		got := 2 * a * b
		return shapeCase{"deformed torus", tris, DeformedTorus, true, got, got, box(-1.4, -1.4, -0.41, 1.4, 1.4, 0.41), true}
	}
	stal := func(tris int) shapeCase {
		return shapeCase{"stalagmites", tris, Stalagmites, true, tris - 32, tris + 32, box(0, 0, -0.05, 10, 10, 5.05), false}
	}
	ac := func(tris int) shapeCase {
		nf := max(8, int(math.Round(8*math.Sqrt(float64(tris)/406))))
		return shapeCase{"aircraft", tris, func(n int, _ uint64) (*mesh.TriMesh, error) { return Aircraft(n) },
			false, tris - nf, tris + nf, box(0, -0.45, -0.05, 1, 0.45, 0.2), true}
	}
	hand := func(tris int) shapeCase {
		d := int(0.3 * math.Sqrt(float64(tris)))
		if tris == 400 {
			d = 0
		}
		return shapeCase{"hand", tris, func(n int, _ uint64) (*mesh.TriMesh, error) { return Hand(n) },
			false, tris - d, tris + d, box(-0.05, -0.05, -0.05, 0.09, 0.13, 0.02), true}
	}
	interior := func(tris int) shapeCase {
		return shapeCase{"interior", tris, Interior, true, tris - 11, tris, box(0, -3, -3, 10, 3, 3), false}
	}
	return []shapeCase{
		pipes(PipesMinTris), pipes(4000), pipes(5001), pipes(143690),
		torus(DeformedTorusMinTris), torus(1000), torus(20000),
		stal(StalagmitesMinTris), stal(5000), stal(98114),
		ac(AircraftMinTris), ac(1500), ac(14646),
		hand(HandMinTris), hand(400), hand(3000),
		{"axe", 36, func(int, uint64) (*mesh.TriMesh, error) { return Axe(), nil }, false, 36, 36,
			box(0, -0.025, -0.06, 1.02, 0.025, 0.21), true},
		interior(InteriorMinTris), interior(8000), interior(25000), interior(169944),
	}
}

// TestShapes checks every generator at several sizes, the full ones of the
// paper's scenes included (they take well under a second): a valid mesh
// with no degenerate or duplicate triangle, closed and outward where
// documented, the documented count and bounds, the same mesh for the same
// arguments and a different one for another seed.
func TestShapes(t *testing.T) {
	for _, tc := range shapeCases() {
		t.Run(fmt.Sprint(tc.name, "/", tc.tris), func(t *testing.T) {
			m, err := tc.make(tc.tris, 1)
			if err != nil {
				t.Fatal(err)
			}
			checkMesh(t, m, tc.closed)
			if n := m.NumTriangles(); n < tc.lo || n > tc.hi {
				t.Errorf("%d triangles for a request of %d, want %d to %d", n, tc.tris, tc.lo, tc.hi)
			}
			const slack = 1e-12
			if b := m.Bounds(); !tc.bounds.Expanded(slack).ContainsBox(b) {
				t.Errorf("bounds %v-%v outside %v-%v", b.Min, b.Max, tc.bounds.Min, tc.bounds.Max)
			}
			again, err := tc.make(tc.tris, 1)
			if err != nil || shapeHash(again) != shapeHash(m) {
				t.Errorf("a second call differs (%v)", err)
			}
			if tc.seeded {
				other, err := tc.make(tc.tris, 2)
				if err != nil || shapeHash(other) == shapeHash(m) {
					t.Errorf("seed 2 gives the same mesh as seed 1 (%v)", err)
				}
			}
		})
	}
}

// TestShapeErrors checks that bad parameters give an error with the
// generator's prefix, and no mesh.
func TestShapeErrors(t *testing.T) {
	huge := gen.MaxTriangles + 1
	type call struct {
		kind, want string
		run        func() (*mesh.TriMesh, error)
	}
	var calls []call
	for _, g := range []struct {
		kind string
		min  int
		run  func(int) (*mesh.TriMesh, error)
	}{
		{"pipes", PipesMinTris, func(n int) (*mesh.TriMesh, error) { return Pipes(n, 1) }},
		{"deformed torus", DeformedTorusMinTris, func(n int) (*mesh.TriMesh, error) { return DeformedTorus(n, 1) }},
		{"stalagmites", StalagmitesMinTris, func(n int) (*mesh.TriMesh, error) { return Stalagmites(n, 1) }},
		{"aircraft", AircraftMinTris, Aircraft},
		{"hand", HandMinTris, Hand},
		{"interior", InteriorMinTris, func(n int) (*mesh.TriMesh, error) { return Interior(n, 1) }},
		{"nested spheres", 20, func(n int) (*mesh.TriMesh, error) { o, _, err := NestedSpheres(n, 0.1); return o, err }},
	} {
		for _, n := range []int{0, -1, math.MinInt, g.min - 1} {
			calls = append(calls, call{g.kind, fmt.Sprintf("tris must be at least %d, got %d", g.min, n), func() (*mesh.TriMesh, error) { return g.run(n) }})
		}
		for _, n := range []int{huge, math.MaxInt} {
			calls = append(calls, call{g.kind, "exceeds the limit", func() (*mesh.TriMesh, error) { return g.run(n) }})
		}
	}
	for _, z := range []int{GearMinTeeth - 1, 0, -3, GearMaxTeeth + 1} {
		calls = append(calls, call{"gear", "teeth must be in", func() (*mesh.TriMesh, error) { return Gear(z, 8, 1000) }})
	}
	for _, w := range []float64{0, -1, 1001, math.NaN(), math.Inf(1)} {
		calls = append(calls, call{"gear", "width must be in", func() (*mesh.TriMesh, error) { return Gear(20, w, 1000) }})
	}
	for _, n := range []int{0, -1, huge} {
		calls = append(calls, call{"gear", "tris", func() (*mesh.TriMesh, error) { return Gear(20, 8, n) }})
	}
	for _, a := range []float64{0, 1, -0.5, 1.5, math.NaN(), math.Inf(1), math.Inf(-1)} {
		calls = append(calls, call{"nested spheres", "alpha must be in (0, 1)", func() (*mesh.TriMesh, error) {
			o, i, err := NestedSpheres(100, a)
			if i != nil {
				return i, err
			}
			return o, err
		}})
	}
	calls = append(calls, call{"nested spheres", "too small", func() (*mesh.TriMesh, error) {
		o, _, err := NestedSpheres(100, 1e-17)
		return o, err
	}})
	for _, c := range calls {
		m, err := c.run()
		switch {
		case err == nil:
			t.Errorf("%s: no error, want %q", c.kind, c.want)
		case m != nil:
			t.Errorf("%s: a mesh with the error %v", c.kind, err)
		case !strings.HasPrefix(err.Error(), "scenes: "+c.kind+": ") || !strings.Contains(err.Error(), c.want):
			t.Errorf("%s: error %q, want the prefix and %q", c.kind, err, c.want)
		}
	}
}

// TestNestedSpheres checks that the spheres have the tessellation of
// gen.Icosphere, the inner one scaled, and, by brute force on a small
// tessellation, that no triangle of one touches a triangle of the other.
func TestNestedSpheres(t *testing.T) {
	const alpha = 0.01
	outer, inner, err := NestedSpheres(80, alpha)
	if err != nil {
		t.Fatal(err)
	}
	checkMesh(t, outer, true)
	checkMesh(t, inner, true)
	want := gen.Must(gen.Icosphere(geom.Vec3{}, 1, 80))
	if shapeHash(outer) != shapeHash(want) || outer.NumTriangles() != 80 {
		t.Errorf("the outer sphere is not gen.Icosphere(origin, 1, 80)")
	}
	if !slices.Equal(inner.Tris, outer.Tris) {
		t.Errorf("the spheres have different triangles")
	}
	for i, v := range inner.Verts {
		if d := v.Sub(outer.Verts[i].Scale(1 - alpha)).Norm(); d > 1e-15 {
			t.Fatalf("inner vertex %d is %v from the scaled outer one", i, d)
		}
	}
	for i := range outer.Tris {
		for j := range inner.Tris {
			if geom.TriTri(outer.Triangle(i), inner.Triangle(j)) {
				t.Fatalf("outer triangle %d touches inner triangle %d", i, j)
			}
		}
	}
	if o, _, err := NestedSpheres(20000, 0.5); err != nil || o.NumTriangles() != 20480 {
		t.Errorf("NestedSpheres(20000): %v", err)
	}
}

// TestAxe checks the axe's layout: 36 triangles, the 12 of the handle a
// gen.Box, and the head's faces planar: 11 pairs of adjacent head
// triangles are coplanar (the poll, the eight sides of the two bands, the
// two bevels), no other pair.
func TestAxe(t *testing.T) {
	m := Axe()
	if m.NumTriangles() != 36 || len(m.Verts) != 22 {
		t.Fatalf("%d triangles and %d vertices, want 36 and 22", m.NumTriangles(), len(m.Verts))
	}
	handle := gen.Must(gen.Box(box(0, -0.015, -0.02, 1, 0.015, 0.02), 1))
	if !slices.Equal(m.Verts[:8], handle.Verts) || !slices.Equal(m.Tris[:12], handle.Tris) {
		t.Errorf("the handle is not gen.Box")
	}
	coplanar := 0
	for i := 12; i < 36; i++ {
		for j := i + 1; j < 36; j++ {
			a, b := m.Tris[i], m.Tris[j]
			shared, other := 0, int32(-1)
			for _, v := range b {
				if slices.Contains(a[:], v) {
					shared++
				} else {
					other = v
				}
			}
			if shared == 2 && geom.Orient3D(m.Verts[a[0]], m.Verts[a[1]], m.Verts[a[2]], m.Verts[other]) == 0 {
				coplanar++
			}
		}
	}
	if coplanar != 11 {
		t.Errorf("%d coplanar pairs of adjacent head triangles, want 11", coplanar)
	}
}

// TestPipesSkinny checks that the straight runs make the network's
// triangles long and skinny: over a quarter have a longest edge more than
// ten times their height on it.
func TestPipesSkinny(t *testing.T) {
	m, err := Pipes(5000, 1)
	if err != nil {
		t.Fatal(err)
	}
	skinny := 0
	for i := range m.Tris {
		tr := m.Triangle(i)
		l := 0.0
		for e := range 3 {
			l = max(l, tr[e].Sub(tr[(e+1)%3]).Norm2())
		}
		if l/(2*tr.Area()) > 10 { // longest edge / height
			skinny++
		}
	}
	if 4*skinny < m.NumTriangles() {
		t.Errorf("%d of %d triangles are skinny, want a quarter", skinny, m.NumTriangles())
	}
}

// TestDeformedTorus checks that the torus is gen.Torus with its vertices
// moved by a few percent, and no longer symmetric.
func TestDeformedTorus(t *testing.T) {
	m, err := DeformedTorus(2000, 1)
	if err != nil {
		t.Fatal(err)
	}
	plain := gen.Must(gen.Torus(geom.Vec3{}, 1, 0.3, 2000))
	if !slices.Equal(m.Tris, plain.Tris) {
		t.Fatalf("the triangles are not gen.Torus's")
	}
	most := 0.0
	for i, v := range m.Verts {
		most = max(most, v.Distance(plain.Verts[i]))
		if rho := math.Hypot(v.X, v.Y); rho < 0.6 || rho > 1.4 {
			t.Errorf("vertex %d at %v from the axis", i, rho)
		}
	}
	if most < 0.02 || most > 0.15 {
		t.Errorf("vertices moved by up to %v, want a few percent", most)
	}
	if b := m.Bounds(); math.Abs(b.Min.Z+b.Max.Z) < 1e-3 && math.Abs(b.Min.X+b.Max.X) < 1e-3 {
		t.Errorf("bounds %v-%v are still symmetric", b.Min, b.Max)
	}
}

// TestInteriorClutter checks that the aisle and the seats are cluttered:
// at the quick and the full sizes a good share of the triangles lie in the
// cabin's lower half, between the floor and the seat tops.
func TestInteriorClutter(t *testing.T) {
	m, err := Interior(8000, 1)
	if err != nil {
		t.Fatal(err)
	}
	aisle, seats := 0, 0
	for i := range m.Tris {
		c := m.Triangle(i).Centroid()
		switch {
		case c.Z < cabinFloor || c.Z > 0:
		case math.Abs(c.Y) < 0.5:
			aisle++
		case math.Abs(c.Y) < 2.3:
			seats++
		}
	}
	if aisle < 200 || seats < 2000 {
		t.Errorf("%d triangles in the aisle and %d on the seats", aisle, seats)
	}
}

// TestAppendMesh checks appendMesh's renumbering and pose.
func TestAppendMesh(t *testing.T) {
	src := gen.Must(gen.Box(box(0, 0, 0, 1, 1, 1), 1))
	dst := gen.Must(gen.Box(box(0, 0, 0, 1, 1, 1), 1))
	appendMesh(dst, src, geom.Translation(geom.V(2, 0, 0)))
	if dst.NumTriangles() != 24 || len(dst.Verts) != 16 {
		t.Fatalf("%d triangles and %d vertices", dst.NumTriangles(), len(dst.Verts))
	}
	checkMesh(t, dst, true)
	if b := dst.Bounds(); b != box(0, 0, 0, 3, 1, 1) {
		t.Errorf("bounds %v", b)
	}
	for i := range 12 {
		if got, want := dst.Triangle(12+i), src.Triangle(i); got[0] != want[0].Add(geom.V(2, 0, 0)) {
			t.Errorf("triangle %d: %v, want %v moved", i, got, want)
		}
	}
}

// TestShapeCounts checks the documented count rules over a range of
// requests (every 25% from the minimum to 250,000 in the normal run, every
// 3% with COLLIDE_LONG), for two seeds.
func TestShapeCounts(t *testing.T) {
	step, seeds := 125, uint64(1)
	if shapeLong() {
		step, seeds = 103, 3
	}
	for T := HandMinTris; T < 250000; T = T*step/100 + 1 {
		for seed := range seeds + 1 {
			if T >= PipesMinTris {
				if m, err := Pipes(T, seed); err != nil || m.NumTriangles() < T-1 || m.NumTriangles() > T {
					t.Errorf("Pipes(%d, %d): %d triangles (%v)", T, seed, triCount(m), err)
				}
			}
			if T >= StalagmitesMinTris {
				if m, err := Stalagmites(T, seed); err != nil || m.NumTriangles() < T-32 || m.NumTriangles() > T+32 {
					t.Errorf("Stalagmites(%d, %d): %d triangles (%v)", T, seed, triCount(m), err)
				}
			}
			if T >= InteriorMinTris {
				if m, err := Interior(T, seed); err != nil || m.NumTriangles() < T-11 || m.NumTriangles() > T {
					t.Errorf("Interior(%d, %d): %d triangles (%v)", T, seed, triCount(m), err)
				}
			}
		}
		if T >= AircraftMinTris {
			nf := max(8, int(math.Round(8*math.Sqrt(float64(T)/406))))
			if m, err := Aircraft(T); err != nil || m.NumTriangles() < T-nf || m.NumTriangles() > T+nf {
				t.Errorf("Aircraft(%d): %d triangles (%v), want within %d", T, triCount(m), err, nf)
			}
		}
		d := int(0.3 * math.Sqrt(float64(T)))
		if m, err := Hand(T); err != nil || m.NumTriangles() < T-d || m.NumTriangles() > T+d {
			t.Errorf("Hand(%d): %d triangles (%v), want within %d", T, triCount(m), err, d)
		}
	}
}

// triCount returns the triangle count of m, or -1 for nil.
func triCount(m *mesh.TriMesh) int {
	if m == nil {
		return -1
	}
	return m.NumTriangles()
}

// TestInteriorEdge checks the structure's share of Interior's budget (at
// most 62% once the edge length is below the coarsest, and close to it) and
// that the cabin stays within the shell's radius of the axis.
func TestInteriorEdge(t *testing.T) {
	for _, T := range []int{InteriorMinTris, 8000, 19999, 20000, 169944} {
		detail := T >= interiorDetailTris
		h, ok := interiorEdge(T, detail)
		if !ok {
			t.Fatalf("%d: no edge length", T)
		}
		b := &builder{dry: true, h: h}
		cabin(b, detail)
		share := float64(b.n) / float64(T)
		if h < 10 && (share > 0.62 || share < 0.5) {
			t.Errorf("%d: h = %v, the structure takes %.2f of the budget", T, h, share)
		}
	}
	m, err := Interior(8000, 1)
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range m.Verts {
		if r := math.Hypot(v.Y, v.Z); r > cabinRadius+1e-12 {
			t.Fatalf("vertex %d at %v from the axis", i, r)
		}
	}
}

// BenchmarkShapes generates every shape at the size of the paper's scenes.
func BenchmarkShapes(b *testing.B) {
	for _, bc := range []struct {
		name string
		make func() (*mesh.TriMesh, error)
	}{
		{"Pipes143690", func() (*mesh.TriMesh, error) { return Pipes(143690, 1) }},
		{"DeformedTorus20000", func() (*mesh.TriMesh, error) { return DeformedTorus(20000, 1) }},
		{"Stalagmites98114", func() (*mesh.TriMesh, error) { return Stalagmites(98114, 1) }},
		{"Aircraft14646", func() (*mesh.TriMesh, error) { return Aircraft(14646) }},
		{"Hand400", func() (*mesh.TriMesh, error) { return Hand(400) }},
		{"Axe", func() (*mesh.TriMesh, error) { return Axe(), nil }},
		{"Interior169944", func() (*mesh.TriMesh, error) { return Interior(169944, 1) }},
		{"NestedSpheres20000", func() (*mesh.TriMesh, error) { o, _, err := NestedSpheres(20000, 0.01); return o, err }},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := bc.make(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestGear checks Gear: a closed surface, outward, with no degenerate
// triangle; its faces, triangulated without folds (every triangle of the
// top face faces up, of the bottom down); the documented count, near the
// request; within the tip circle and the faces' planes, and out to it; the
// outline's points at increasing angles.
func TestGear(t *testing.T) {
	for _, tc := range []struct {
		z     int
		width float64
		tris  int
	}{
		{GearMinTeeth, 8, 1}, {17, 7, 2500}, {29, 8, 4000}, {23, 7, 12000}, {41, 8, 20000}, {42, 3, 5000}, {60, 10, 50000},
	} {
		t.Run(fmt.Sprint(tc.z, "/", tc.tris), func(t *testing.T) {
			m, err := Gear(tc.z, tc.width, tc.tris)
			if err != nil {
				t.Fatal(err)
			}
			checkMesh(t, m, true)
			_, base, tip, root, _ := gearRadii(tc.z)
			n := m.NumTriangles()
			var lv gearLevel
			for k := 1; k <= 64; k++ {
				if l := gearLevelOf(k); gearTris(tc.z, l, root < base) == n {
					lv = l
				}
			}
			if lv.flank == 0 {
				t.Errorf("%d triangles: not 4·z·q·(L+2) for any level", n)
			}
			if tc.tris > 10*96*tc.z && (n < tc.tris*3/4 || n > tc.tris*5/4) {
				t.Errorf("%d triangles for a request of %d", n, tc.tris)
			}
			h := tc.width / 2
			var rmax float64
			for _, v := range m.Verts {
				r := math.Sqrt(v.X*v.X + v.Y*v.Y)
				rmax = max(rmax, r)
				if r > tip*(1+1e-12) || math.Abs(v.Z) > h {
					t.Fatalf("vertex %v outside the gear's cylinder (radius %g, half width %g)", v, tip, h)
				}
			}
			if rmax < tip*(1-1e-12) {
				t.Errorf("the teeth reach %g, not the tip circle %g", rmax, tip)
			}
			for i := range m.Tris {
				tr := m.Triangle(i)
				nz := tr[1].Sub(tr[0]).Cross(tr[2].Sub(tr[0])).Z
				switch {
				case tr[0].Z == h && tr[1].Z == h && tr[2].Z == h && !(nz > 0):
					t.Errorf("top face triangle %d faces down", i)
				case tr[0].Z == -h && tr[1].Z == -h && tr[2].Z == -h && !(nz < 0):
					t.Errorf("bottom face triangle %d faces up", i)
				}
			}
			out := gearOutline(tc.z, lv)
			for i := 1; i < len(out); i++ {
				a, b := out[i-1], out[i]
				if !(float64(a.X*b.Y)-float64(a.Y*b.X) > 0) {
					t.Fatalf("outline points %d and %d do not turn counterclockwise", i-1, i)
				}
			}
		})
	}
}
