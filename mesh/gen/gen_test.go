package gen

import (
	"fmt"
	"hash/fnv"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh"
)

// checkSurface checks what every generated mesh promises: it is valid, every
// vertex is used, no triangle is degenerate or duplicated, and every
// directed edge occurs at most once. For a closed surface, the reverse of
// every directed edge occurs too (watertight and consistently oriented) and
// the signed volume is positive (outward normals); it returns that volume.
func checkSurface(t *testing.T, m *mesh.TriMesh, closed bool) float64 {
	t.Helper()
	if err := m.Validate(); err != nil {
		t.Fatalf("Validate: %v", err)
	}
	st := m.Stats()
	if st.Degenerate != 0 || st.Duplicate != 0 {
		t.Errorf("%d degenerate and %d duplicate triangles", st.Degenerate, st.Duplicate)
	}
	used := make([]bool, len(m.Verts))
	edges := make(map[[2]int32]int, 3*len(m.Tris))
	for i, tri := range m.Tris {
		for e := range 3 {
			a, b := tri[e], tri[(e+1)%3]
			used[a] = true
			if a == b {
				t.Fatalf("triangle %d repeats vertex %d", i, a)
			}
			edges[[2]int32{a, b}]++
		}
	}
	if i := slices.Index(used, false); i >= 0 {
		t.Errorf("vertex %d is unused", i)
	}
	bad := 0
	for e, n := range edges {
		if n != 1 {
			bad++
			if bad <= 3 {
				t.Errorf("directed edge %v occurs %d times", e, n)
			}
		}
		if closed && edges[[2]int32{e[1], e[0]}] != 1 {
			bad++
			if bad <= 3 {
				t.Errorf("directed edge %v has no reverse", e)
			}
		}
	}
	if bad > 0 {
		t.Fatalf("%d bad edges", bad)
	}
	if !closed {
		return 0
	}
	vol := signedVolume(m)
	if !(vol > 0) {
		t.Errorf("signed volume %v is not positive: the normals point inward", vol)
	}
	return vol
}

// signedVolume returns the volume enclosed by m, positive when its normals
// point outward.
func signedVolume(m *mesh.TriMesh) float64 {
	var sum float64
	for i := range m.Tris {
		tr := m.Triangle(i)
		sum += tr[0].Dot(tr[1].Cross(tr[2]))
	}
	return sum / 6
}

// meshHash returns an FNV-64a hash of the bits of every coordinate and index.
func meshHash(m *mesh.TriMesh) uint64 {
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

func unitBox() geom.AABB { return geom.AABB{Min: geom.V(-1, -1, -1), Max: geom.V(1, 1, 1)} }

type genCase struct {
	name     string
	make     func() (*mesh.TriMesh, error)
	tris     int     // the documented count
	verts    int     // the documented vertex count
	closed   bool    // a closed surface (watertight, outward)
	volume   float64 // the volume of the ideal shape (0: unchecked)
	volTol   float64 // relative tolerance on the volume
	vertexOK func(v geom.Vec3) float64
}

// sphereDist returns a check that v is at distance r from c, as a relative
// error.
func sphereDist(c geom.Vec3, r float64) func(geom.Vec3) float64 {
	return func(v geom.Vec3) float64 { return math.Abs(v.Sub(c).Norm()-r) / r }
}

// segmentDist returns a check that v is at distance r from the segment
// (0,0,0)-(0,0,h), as a relative error.
func segmentDist(r, h float64) func(geom.Vec3) float64 {
	return func(v geom.Vec3) float64 {
		z := math.Max(0, math.Min(h, v.Z))
		return math.Abs(v.Sub(geom.V(0, 0, z)).Norm()-r) / r
	}
}

func genCases() []genCase {
	c := geom.V(1.5, -2, 0.25)
	sphereVol := func(r float64) float64 { return 4 * math.Pi / 3 * r * r * r }
	return []genCase{
		{name: "icosphere/20", make: func() (*mesh.TriMesh, error) { return Icosphere(c, 2, 20) },
			tris: 20, verts: 12, closed: true, vertexOK: sphereDist(c, 2)},
		{name: "icosphere/1280", make: func() (*mesh.TriMesh, error) { return Icosphere(c, 2, 1280) },
			tris: 1280, verts: 642, closed: true, volume: sphereVol(2), volTol: 0.02, vertexOK: sphereDist(c, 2)},
		{name: "icosphere/1000", make: func() (*mesh.TriMesh, error) { return Icosphere(geom.Vec3{}, 0.5, 1000) },
			tris: 980, verts: 492, closed: true, vertexOK: sphereDist(geom.Vec3{}, 0.5)},
		{name: "uvsphere/6", make: func() (*mesh.TriMesh, error) { return UVSphere(c, 3, 6) },
			tris: 6, verts: 5, closed: true, vertexOK: sphereDist(c, 3)},
		{name: "uvsphere/1000", make: func() (*mesh.TriMesh, error) { return UVSphere(c, 3, 1000) },
			tris: 990, verts: 497, closed: true, volume: sphereVol(3), volTol: 0.02, vertexOK: sphereDist(c, 3)},
		{name: "torus/18", make: func() (*mesh.TriMesh, error) { return Torus(c, 2, 0.5, 18) },
			tris: 18, verts: 9, closed: true},
		{name: "torus/2000", make: func() (*mesh.TriMesh, error) { return Torus(c, 2, 0.5, 2000) },
			tris: 1984, verts: 992, closed: true, volume: 2 * math.Pi * math.Pi * 2 * 0.25, volTol: 0.03,
			vertexOK: func(v geom.Vec3) float64 {
				d := v.Sub(c)
				return math.Abs(math.Hypot(math.Hypot(d.X, d.Y)-2, d.Z)-0.5) / 0.5
			}},
		{name: "box/1", make: func() (*mesh.TriMesh, error) { return Box(unitBox(), 1) },
			tris: 12, verts: 8, closed: true, volume: 8, volTol: 1e-15},
		{name: "box/5", make: func() (*mesh.TriMesh, error) {
			return Box(geom.AABB{Min: geom.V(-3, 0.5, 10), Max: geom.V(0.1, 0.7, 1e3)}, 5)
		}, tris: 300, verts: 152, closed: true, volume: 3.1 * 0.2 * 990, volTol: 1e-13},
		{name: "cylinder/12", make: func() (*mesh.TriMesh, error) { return Cylinder(1, 2, 12) },
			tris: 12, verts: 8, closed: true},
		{name: "cylinder/1000", make: func() (*mesh.TriMesh, error) { return Cylinder(1, 2, 1000) },
			tris: 988, verts: 496, closed: true, volume: 2 * math.Pi, volTol: 0.01},
		{name: "capsule/12", make: func() (*mesh.TriMesh, error) { return Capsule(1, 2, 12) },
			tris: 12, verts: 8, closed: true, vertexOK: segmentDist(1, 2)},
		{name: "capsule/1000", make: func() (*mesh.TriMesh, error) { return Capsule(0.5, 3, 1000) },
			tris: 988, verts: 496, closed: true, volume: math.Pi*0.25*3 + sphereVol(0.5), volTol: 0.03,
			vertexOK: segmentDist(0.5, 3)},
		{name: "capsule/sphere", make: func() (*mesh.TriMesh, error) { return Capsule(1, 0, 500) },
			tris: 506, verts: 255, closed: true, vertexOK: segmentDist(1, 0)},
		{name: "tetrahedra/100", make: func() (*mesh.TriMesh, error) {
			return Tetrahedra(100, geom.AABB{Min: geom.V(0, 0, 0), Max: geom.V(10, 10, 10)}, 1, 7)
		}, tris: 400, verts: 400, closed: true},
		{name: "terrain/2", make: func() (*mesh.TriMesh, error) { return Terrain(2, 1, 1, 0.5, 1) },
			tris: 2, verts: 4},
		{name: "terrain/33", make: func() (*mesh.TriMesh, error) { return Terrain(33, 100, 10, 0.5, 1) },
			tris: 2048, verts: 1089},
	}
}

func TestGenerators(t *testing.T) {
	for _, tc := range genCases() {
		t.Run(tc.name, func(t *testing.T) {
			m, err := tc.make()
			if err != nil {
				t.Fatal(err)
			}
			if len(m.Tris) != tc.tris || len(m.Verts) != tc.verts {
				t.Errorf("got %d triangles, %d vertices; want %d, %d", len(m.Tris), len(m.Verts), tc.tris, tc.verts)
			}
			vol := checkSurface(t, m, tc.closed)
			if tc.volume != 0 && math.Abs(vol-tc.volume) > tc.volTol*tc.volume {
				t.Errorf("volume %v, want %v within %v", vol, tc.volume, tc.volTol)
			}
			if tc.vertexOK != nil {
				for i, v := range m.Verts {
					if e := tc.vertexOK(v); e > 1e-12 {
						t.Fatalf("vertex %d %v is off the surface by %v (relative)", i, v, e)
					}
				}
			}
			m2, _ := tc.make()
			if meshHash(m) != meshHash(m2) {
				t.Errorf("a second call gave a different mesh")
			}
		})
	}
}

// TestGolden pins the exact bits of a few meshes, so that a change of
// platform, Go release or code that alters any coordinate is caught. (The
// hashes were computed on linux/amd64; every platform must reproduce them.)
func TestGolden(t *testing.T) {
	for _, tc := range []struct {
		name string
		m    *mesh.TriMesh
		want uint64
	}{
		{"icosphere", Must(Icosphere(geom.V(0.1, 0.2, 0.3), 1.7, 2000)), 0xbd9bee172f1ed46e},
		{"uvsphere", Must(UVSphere(geom.V(0.1, 0.2, 0.3), 1.7, 2000)), 0xe3b1fc124639a7d6},
		{"torus", Must(Torus(geom.V(0.1, 0.2, 0.3), 3, 1.1, 2000)), 0xb399f9ea9f079adb},
		{"box", Must(Box(geom.AABB{Min: geom.V(-0.3, -1, 2), Max: geom.V(0.7, 1.9, 3.3)}, 7)), 0xa5c22ca881af335b},
		{"cylinder", Must(Cylinder(0.7, 3.1, 2000)), 0xe833fd759a241c3c},
		{"capsule", Must(Capsule(0.7, 3.1, 2000)), 0x27b1e8f220a80e6b},
		{"tetrahedra", Must(Tetrahedra(500, geom.AABB{Min: geom.V(-10, -10, -10), Max: geom.V(10, 10, 10)}, 1.3, 42)), 0xfb5628c8ea3deb52},
		{"terrain", Must(Terrain(65, 10, 2, 0.6, 42)), 0xf4562d7ea6967ab7},
	} {
		if got := meshHash(tc.m); got != tc.want {
			t.Errorf("%s: hash %#x, want %#x", tc.name, got, tc.want)
		}
	}
}

// TestCounts checks the documented triangle-count rules over a range of
// requests.
func TestCounts(t *testing.T) {
	abs := func(x int64) int64 { return max(x, -x) }
	requests := []int{20, 21, 29, 30, 31, 50, 79, 80, 81, 99, 100, 101, 179, 180, 181, 333, 1000, 1279, 1280, 1281,
		4999, 5000, 5001, 12345, 99999, 100000, 250000}
	for _, T := range requests {
		T64 := int64(T)
		// Icosphere: 20n², the closest.
		m := Must(Icosphere(geom.Vec3{}, 1, T))
		got := int64(len(m.Tris))
		n := int64(math.Round(math.Sqrt(float64(got) / 20)))
		if 20*n*n != got {
			t.Errorf("icosphere(%d): %d triangles is not 20·n²", T, got)
		}
		for _, k := range []int64{n - 1, n + 1} {
			if k >= 1 && abs(20*k*k-T64) < abs(got-T64) {
				t.Errorf("icosphere(%d): %d triangles, but 20·%d² = %d is closer", T, got, k, 20*k*k)
			}
		}
		if int64(len(m.Verts)) != 10*n*n+2 {
			t.Errorf("icosphere(%d): %d vertices, want %d", T, len(m.Verts), 10*n*n+2)
		}

		// UVSphere: 2s(t-1) with the documented t and s.
		st := max(2, int64(math.Round((1+math.Sqrt(float64(1+T)))/2)))
		ss := max(3, closest(T64, 2*(st-1)))
		m = Must(UVSphere(geom.Vec3{}, 1, T))
		if got := int64(len(m.Tris)); got != 2*ss*(st-1) || int64(len(m.Verts)) != ss*(st-1)+2 {
			t.Errorf("uvsphere(%d): %d triangles, %d vertices; want %d, %d", T, got, len(m.Verts), 2*ss*(st-1), ss*(st-1)+2)
		} else if abs(got-T64) > st-1 && ss > 3 {
			t.Errorf("uvsphere(%d): %d triangles, more than t-1 = %d away", T, got, st-1)
		}

		// Torus: 2ab with the documented a and b.
		for _, rr := range [][2]float64{{2, 0.5}, {10, 0.1}, {1, 0.999}} {
			b := max(3, int64(math.Round(math.Sqrt(float64(T)*(rr[1]/rr[0])/2))))
			a := max(3, closest(T64, 2*b))
			m = Must(Torus(geom.Vec3{}, rr[0], rr[1], max(T, 18)))
			if T >= 18 && int64(len(m.Tris)) != 2*a*b {
				t.Errorf("torus(%v, %d): %d triangles, want %d", rr, T, len(m.Tris), 2*a*b)
			}
		}

		// Cylinder and capsule: the count is 2·s·R, within R of T unless s
		// is at its minimum 3, for several aspect ratios.
		for _, rh := range [][2]float64{{1, 2}, {1, 1e-6}, {1e-3, 1e3}, {5, 0.01}, {1, 1e6}, {1e-300, 1e300}, {1, 1e-300}} {
			m = Must(Cylinder(rh[0], rh[1], T))
			checkLathe(t, fmt.Sprintf("cylinder(%v, %d)", rh, T), m, T64)
			m = Must(Capsule(rh[0], rh[1], T))
			checkLathe(t, fmt.Sprintf("capsule(%v, %d)", rh, T), m, T64)
		}
		m = Must(Capsule(1, 0, T))
		checkLathe(t, fmt.Sprintf("capsule(1, 0, %d)", T), m, T64)
	}
}

// checkLathe checks that a lathe mesh (s·R+2 vertices, 2sR triangles) has a
// count within R of the request T, or has the minimum s = 3 slices.
func checkLathe(t *testing.T, name string, m *mesh.TriMesh, T int64) {
	t.Helper()
	tris, verts := int64(len(m.Tris)), int64(len(m.Verts))
	// 2sR triangles and sR+2 vertices: sR = verts-2.
	sR := verts - 2
	if tris != 2*sR {
		t.Errorf("%s: %d triangles and %d vertices do not fit 2sR and sR+2", name, tris, verts)
		return
	}
	// The fans hold s triangles each: triangle 0..s-1 share vertex 0.
	s := int64(0)
	for s < tris && m.Tris[s][0] == 0 {
		s++
	}
	R := sR / s
	if s*R != sR {
		t.Errorf("%s: %d slices do not divide %d", name, s, sR)
	}
	if d := max(tris-T, T-tris); d > R && s > 3 {
		t.Errorf("%s: %d triangles (s = %d, R = %d) is more than R from the request", name, tris, s, R)
	}
}

// TestRingAspect checks that the lathes keep their quads about square for
// ordinary proportions.
func TestRingAspect(t *testing.T) {
	m := Must(Cylinder(1, 2*math.Pi, 20000))
	// 2π around, 2π high: as many rows as slices.
	sR := int64(len(m.Verts) - 2)
	s := int64(0)
	for m.Tris[s][0] == 0 {
		s++
	}
	if rows := sR/s - 1; rows < s*9/10 || rows > s*11/10 {
		t.Errorf("cylinder of height 2π·radius: %d slices but %d rows", s, rows)
	}
}

func TestBoxFacesExact(t *testing.T) {
	b := geom.AABB{Min: geom.V(-0.1, 0.3, -7), Max: geom.V(0.2, 1.7, 1e-3)}
	m := Must(Box(b, 6))
	if got := m.Bounds(); got != b {
		t.Errorf("bounds %v, want %v", got, b)
	}
	for i := range m.Tris {
		tr := m.Triangle(i)
		// Every triangle lies in one face plane: one coordinate is the
		// same exact bound at all three vertices.
		onFace := false
		for a := range 3 {
			for _, x := range []float64{b.Min.Index(a), b.Max.Index(a)} {
				if tr[0].Index(a) == x && tr[1].Index(a) == x && tr[2].Index(a) == x {
					onFace = true
				}
			}
		}
		if !onFace {
			t.Fatalf("triangle %d %v is not exactly in a face plane", i, tr)
		}
	}
}

func TestTerrain(t *testing.T) {
	const n, size, height = 65, 50.0, 7.0
	m := Must(Terrain(n, size, height, 0.5, 3))
	b := m.Bounds()
	if b.Min.X != 0 || b.Min.Y != 0 || b.Max.X != size || b.Max.Y != size || b.Min.Z < 0 || b.Max.Z > height {
		t.Errorf("bounds %v, want [0,%v]² × [0,%v]", b, size, height)
	}
	if b.Size().Z < height/10 {
		t.Errorf("height range %v is too flat for height %v", b.Size().Z, height)
	}
	for i := range m.Tris {
		if nz := m.Triangle(i).Normal().Z; !(nz > 0) {
			t.Fatalf("triangle %d faces down (normal z %v)", i, nz)
		}
	}
	// Boundary edges: exactly 4(n-1) directed edges without a reverse.
	edges := make(map[[2]int32]bool)
	for _, tr := range m.Tris {
		for e := range 3 {
			edges[[2]int32{tr[e], tr[(e+1)%3]}] = true
		}
	}
	boundary := 0
	for e := range edges {
		if !edges[[2]int32{e[1], e[0]}] {
			boundary++
		}
	}
	if boundary != 4*(n-1) {
		t.Errorf("%d boundary edges, want %d", boundary, 4*(n-1))
	}
	if flat := Must(Terrain(9, 1, 0, 0.5, 3)); flat.Bounds().Size().Z != 0 {
		t.Errorf("height 0 gave a non-flat terrain")
	}
	// The same seed gives the same coarse landscape at any resolution:
	// vertex (2i, 2j) of the 2n-1 grid is vertex (i, j) of the n grid, up
	// to the weight of the finer octaves.
	smooth1 := Must(Terrain(17, 1, 1, 0, 5))
	smooth2 := Must(Terrain(33, 1, 1, 0, 5))
	for j := range 17 {
		for i := range 17 {
			if a, b := smooth1.Verts[j*17+i], smooth2.Verts[2*j*33+2*i]; math.Abs(a.Z-b.Z) > 1e-12 {
				t.Fatalf("roughness 0: vertex (%d, %d) at %v and %v", i, j, a, b)
			}
		}
	}
}

func TestSeeds(t *testing.T) {
	bounds := geom.AABB{Min: geom.V(0, 0, 0), Max: geom.V(20, 20, 20)}
	a := meshHash(Must(Tetrahedra(300, bounds, 1, 1)))
	b := meshHash(Must(Tetrahedra(300, bounds, 1, 2)))
	c := meshHash(Must(Tetrahedra(300, bounds, 1, 1)))
	if a == b || a != c {
		t.Errorf("tetrahedra hashes for seeds 1, 2, 1: %x %x %x", a, b, c)
	}
	a = meshHash(Must(Terrain(33, 1, 1, 0.5, 1)))
	b = meshHash(Must(Terrain(33, 1, 1, 0.5, 2)))
	c = meshHash(Must(Terrain(33, 1, 1, 0.5, 1)))
	if a == b || a != c {
		t.Errorf("terrain hashes for seeds 1, 2, 1: %x %x %x", a, b, c)
	}
}

// tetraSeparated reports whether the tetrahedra with vertices p and q are
// strictly separated by one of the separating-axis candidates for two
// convex polyhedra (face normals and edge-edge cross products), with a gap
// well above rounding.
func tetraSeparated(p, q []geom.Vec3) bool {
	faces := [4][3]int{{0, 1, 2}, {0, 1, 3}, {0, 2, 3}, {1, 2, 3}}
	edges := [6][2]int{{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}}
	var axes []geom.Vec3
	for _, s := range [][]geom.Vec3{p, q} {
		for _, f := range faces {
			axes = append(axes, s[f[1]].Sub(s[f[0]]).Cross(s[f[2]].Sub(s[f[0]])))
		}
	}
	for _, e := range edges {
		for _, g := range edges {
			axes = append(axes, p[e[1]].Sub(p[e[0]]).Cross(q[g[1]].Sub(q[g[0]])))
		}
	}
	for _, ax := range axes {
		if ax.Norm2() < 1e-20 {
			continue
		}
		ax = ax.Unit()
		pmin, pmax, qmin, qmax := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
		for i := range 4 {
			pmin, pmax = math.Min(pmin, p[i].Dot(ax)), math.Max(pmax, p[i].Dot(ax))
			qmin, qmax = math.Min(qmin, q[i].Dot(ax)), math.Max(qmax, q[i].Dot(ax))
		}
		if pmax < qmin-1e-9 || qmax < pmin-1e-9 {
			return true
		}
	}
	return false
}

func TestTetrahedraDisjoint(t *testing.T) {
	const size = 1.0
	for _, tc := range []struct {
		n      int
		bounds geom.AABB
		seed   uint64
	}{
		{1200, geom.AABB{Min: geom.V(0, 0, 0), Max: geom.V(20, 20, 20)}, 1},      // balls fill about 20%
		{100, geom.AABB{Min: geom.V(-200, 5, 3), Max: geom.V(200, 6.6, 4.6)}, 9}, // a thin rod
		{300, geom.AABB{Min: geom.V(1e6, 1e6, 1e6), Max: geom.V(1e6+12, 1e6+12, 1e6+12)}, 3},
	} {
		m, err := Tetrahedra(tc.n, tc.bounds, size, tc.seed)
		if err != nil {
			t.Fatal(err)
		}
		if len(m.Tris) != 4*tc.n || len(m.Verts) != 4*tc.n {
			t.Fatalf("%d triangles, %d vertices for %d tetrahedra", len(m.Tris), len(m.Verts), tc.n)
		}
		checkSurface(t, m, true)
		if !tc.bounds.ContainsBox(m.Bounds()) {
			t.Errorf("mesh bounds %v exceed %v", m.Bounds(), tc.bounds)
		}
		boxes := make([]geom.AABB, tc.n)
		for i := range tc.n {
			v := m.Verts[4*i : 4*i+4]
			boxes[i] = geom.Triangle{v[0], v[1], v[2]}.Bounds().AddPoint(v[3])
			for a := range 4 {
				for b := a + 1; b < 4; b++ {
					if d := v[a].Distance(v[b]); d < 0.7*size-1e-9 || d > 1.3*size+1e-9 {
						t.Fatalf("tetrahedron %d: edge %d-%d has length %v", i, a, b, d)
					}
				}
			}
			for j := 0; j < 4; j++ {
				if tri := m.Tris[4*i+j]; tri[0]/4 != int32(i) || tri[1]/4 != int32(i) || tri[2]/4 != int32(i) {
					t.Fatalf("triangle %d = %v is not on tetrahedron %d", 4*i+j, tri, i)
				}
			}
		}
		overlapping := 0
		for i := range tc.n {
			for j := i + 1; j < tc.n; j++ {
				if !boxes[i].Overlaps(boxes[j]) {
					continue
				}
				overlapping++
				if !tetraSeparated(m.Verts[4*i:4*i+4], m.Verts[4*j:4*j+4]) {
					t.Fatalf("tetrahedra %d and %d are not separated", i, j)
				}
			}
		}
		t.Logf("n = %d: %d pairs with overlapping boxes, all separated", tc.n, overlapping)
	}
}

// triTri calls geom.TriTri, reporting ok = false if it is not written yet
// (panics with "TODO").
func triTri(a, b geom.Triangle) (hit, ok bool) {
	defer func() {
		if r := recover(); r != nil {
			if s := fmt.Sprint(r); !strings.Contains(s, "TODO") {
				panic(r)
			}
			ok = false
		}
	}()
	return geom.TriTri(a, b), true
}

// TestTetrahedraTriTri checks disjointness exactly, with geom.TriTri on every
// pair of triangles from different tetrahedra, in a dense field.
func TestTetrahedraTriTri(t *testing.T) {
	if _, ok := triTri(geom.Triangle{}, geom.Triangle{}); !ok {
		t.Skip("geom.TriTri is not written yet")
	}
	// Fields near the jamming density, where many tetrahedra nearly touch.
	m := Must(Tetrahedra(50, geom.AABB{Min: geom.V(0, 0, 0), Max: geom.V(7, 7, 7)}, 1, 11))
	m2 := Must(Tetrahedra(150, geom.AABB{Min: geom.V(0, 0, 0), Max: geom.V(10, 10, 10)}, 0.9, 12))
	m.Tris = append(m.Tris, m2.Tris...)
	for i := len(m.Tris) - len(m2.Tris); i < len(m.Tris); i++ {
		for k := range 3 {
			m.Tris[i][k] += int32(len(m.Verts))
		}
	}
	m.Verts = append(m.Verts, m2.Verts...)
	close := 0
	for i := range m.Tris {
		for j := i + 1; j < len(m.Tris); j++ {
			if i/4 == j/4 || i < 200 && j >= 200 { // same tetrahedron, or different fields
				continue
			}
			a, b := m.Triangle(i), m.Triangle(j)
			if a.Bounds().Overlaps(b.Bounds()) {
				close++
			}
			if hit, _ := triTri(a, b); hit {
				t.Fatalf("triangles %d and %d (tetrahedra %d and %d) touch", i, j, i/4, j/4)
			}
		}
	}
	t.Logf("%d pairs of triangles with overlapping boxes, none touching", close)
	// Sanity: adjacent faces of one tetrahedron do touch.
	if hit, _ := triTri(m.Triangle(0), m.Triangle(1)); !hit {
		t.Errorf("two faces of one tetrahedron do not touch")
	}
}

func TestTetrahedraErrors(t *testing.T) {
	cube := func(s float64) geom.AABB { return geom.AABB{Min: geom.V(0, 0, 0), Max: geom.V(s, s, s)} }
	for _, tc := range []struct {
		name   string
		n      int
		bounds geom.AABB
		size   float64
		want   string
	}{
		{"cannot fit", 5000, cube(10), 1, "cannot fit"},
		{"too full", 700, cube(10), 1, "too full"},
		{"too full, large", 20000, cube(30), 1, "too full"},
		{"too small", 1, cube(1.5), 1, "too small"},
		{"flat", 1, geom.AABB{Min: geom.V(0, 0, 0), Max: geom.V(10, 10, 0)}, 1, "too small"},
		{"negative n", -1, cube(10), 1, "non-negative"},
		{"huge n", MaxTriangles, cube(10), 1, "more than"},
		{"zero size", 1, cube(10), 0, "size"},
		{"NaN size", 1, cube(10), math.NaN(), "size"},
		{"empty bounds", 1, geom.EmptyAABB(), 1, "finite"},
		{"infinite extent", 1, geom.AABB{Min: geom.V(-1e308, 0, 0), Max: geom.V(1e308, 10, 10)}, 1, "finite"},
		{"tiny size", 10, geom.AABB{Min: geom.V(1e10, 1e10, 1e10), Max: geom.V(1e10+1e-4, 1e10+1e-4, 1e10+1e-4)}, 1e-5, "too small"},
	} {
		_, err := Tetrahedra(tc.n, tc.bounds, tc.size, 1)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got error %v, want one containing %q", tc.name, err, tc.want)
		}
	}
	if m, err := Tetrahedra(0, cube(10), 1, 1); err != nil || len(m.Tris) != 0 {
		t.Errorf("n = 0: %v, %v", m, err)
	}
}

func TestKinds(t *testing.T) {
	ks := Kinds()
	var names []string
	for _, k := range ks {
		names = append(names, k.Name)
	}
	want := []string{"box", "capsule", "cylinder", "icosphere", "terrain", "tetrahedra", "torus", "uvsphere"}
	if !slices.Equal(names, want) {
		t.Fatalf("Kinds() = %v, want %v", names, want)
	}
	for _, k := range ks {
		if k.Doc == "" {
			t.Errorf("%s has no Doc", k.Name)
		}
		seen := map[string]bool{}
		for _, p := range k.Params {
			if p.Doc == "" || seen[p.Name] {
				t.Errorf("%s: parameter %q is undocumented or repeated", k.Name, p.Name)
			}
			seen[p.Name] = true
		}
		if got, ok := Lookup(k.Name); !ok || got.Name != k.Name {
			t.Errorf("Lookup(%q) = %v, %v", k.Name, got.Name, ok)
		}
		m, err := k.Generate(nil)
		if err != nil {
			t.Errorf("%s with defaults: %v", k.Name, err)
			continue
		}
		checkSurface(t, m, k.Name != "terrain")
		// Make fills in missing parameters itself.
		m2, err := k.Make(map[string]float64{})
		if err != nil || meshHash(m) != meshHash(m2) {
			t.Errorf("%s: Make(empty) differs from Generate(nil): %v", k.Name, err)
		}
	}
	if _, ok := Lookup("teapot"); ok {
		t.Errorf("Lookup(teapot) succeeded")
	}
}

func TestKindErrors(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	for _, tc := range []struct {
		kind string
		p    map[string]float64
		want string
	}{
		{"icosphere", map[string]float64{"radius": -1}, "radius must be positive"},
		{"icosphere", map[string]float64{"radius": nan}, "radius must be finite"},
		{"icosphere", map[string]float64{"radius": inf}, "radius must be finite"},
		{"icosphere", map[string]float64{"cx": nan}, "cx must be finite"},
		{"icosphere", map[string]float64{"tris": 19}, "at least 20"},
		{"icosphere", map[string]float64{"tris": 100.5}, "whole number"},
		{"icosphere", map[string]float64{"tris": 6e7}, "exceeds the limit"},
		{"icosphere", map[string]float64{"tris": 1e300}, "out of range"},
		{"icosphere", map[string]float64{"tris": -1e300}, "out of range"},
		{"icosphere", map[string]float64{"tris": 1e15}, "exceeds the limit"},
		{"icosphere", map[string]float64{"radius": 1e308, "cx": 1e308}, "overflow"},
		{"icosphere", map[string]float64{"radiuss": 1, "zz": 2}, `unknown parameter "radiuss" (valid: cx, cy, cz, radius, tris)`},
		{"uvsphere", map[string]float64{"tris": 5}, "at least 6"},
		{"uvsphere", map[string]float64{"radius": 0}, "radius must be positive"},
		{"torus", map[string]float64{"minor": 2}, "smaller than major"},
		{"torus", map[string]float64{"minor": 0}, "minor must be positive"},
		{"torus", map[string]float64{"tris": 17}, "at least 18"},
		{"box", map[string]float64{"n": 0}, "at least 1"},
		{"box", map[string]float64{"n": 2100}, "more than"},
		{"box", map[string]float64{"n": 1e15}, "more than"},
		{"box", map[string]float64{"minx": 1}, "Min < Max"},
		{"box", map[string]float64{"maxz": -1}, "Min < Max"},
		{"box", map[string]float64{"maxz": inf}, "maxz must be finite"},
		{"cylinder", map[string]float64{"height": 0}, "height must be positive"},
		{"cylinder", map[string]float64{"tris": 11}, "at least 12"},
		{"cylinder", map[string]float64{"tris": 6e7}, "exceeds the limit"},
		{"capsule", map[string]float64{"height": -1}, "height must be finite and non-negative"},
		{"capsule", map[string]float64{"tris": 11}, "at least 12"},
		{"capsule", map[string]float64{"height": 0, "tris": 5}, "at least 6"},
		{"capsule", map[string]float64{"tris": 6e7}, "exceeds the limit"},
		{"terrain", map[string]float64{"n": 1}, "at least 2"},
		{"terrain", map[string]float64{"n": 6000}, "more than"},
		{"terrain", map[string]float64{"roughness": 1.5}, "roughness"},
		{"terrain", map[string]float64{"roughness": nan}, "roughness must be finite"},
		{"terrain", map[string]float64{"height": -1}, "height"},
		{"terrain", map[string]float64{"size": 0}, "size must be positive"},
		{"terrain", map[string]float64{"seed": -1}, "seed must be a whole number"},
		{"terrain", map[string]float64{"seed": 0.5}, "seed must be a whole number"},
		{"terrain", map[string]float64{"seed": 1 << 60}, "seed must be a whole number"},
		{"terrain", map[string]float64{"seed": nan}, "seed must be a whole number"},
		{"tetrahedra", map[string]float64{"n": 1e6}, "cannot fit"},
		{"tetrahedra", map[string]float64{"n": 5e5, "minx": 0, "miny": 0, "minz": 0}, "cannot fit"},
		{"tetrahedra", map[string]float64{"n": 6e4, "minx": 0, "miny": 0, "minz": 0}, "too full"},
		{"tetrahedra", map[string]float64{"n": -3}, "non-negative"},
		{"tetrahedra", map[string]float64{"maxx": -50}, "too small"},
	} {
		k, ok := Lookup(tc.kind)
		if !ok {
			t.Fatalf("no kind %q", tc.kind)
		}
		m, err := k.Generate(tc.p)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s %v: got %v, want an error containing %q", tc.kind, tc.p, err, tc.want)
		} else if m != nil {
			t.Errorf("%s %v: a mesh with the error", tc.kind, tc.p)
		} else if !strings.HasPrefix(err.Error(), "gen: "+tc.kind+": ") {
			t.Errorf("%s %v: error %q lacks the prefix", tc.kind, tc.p, err)
		}
	}
}

func BenchmarkTetrahedra25000(b *testing.B) {
	bounds := geom.AABB{Min: geom.V(-50, -50, -50), Max: geom.V(50, 50, 50)}
	b.ReportAllocs()
	for b.Loop() {
		Must(Tetrahedra(25000, bounds, 1, 1))
	}
}

func BenchmarkIcosphere100k(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		Must(Icosphere(geom.Vec3{}, 1, 100000))
	}
}

func BenchmarkUVSphere100k(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		Must(UVSphere(geom.Vec3{}, 1, 100000))
	}
}

func BenchmarkTerrain512(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		Must(Terrain(512, 100, 10, 0.5, 1))
	}
}

func BenchmarkBox100(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		Must(Box(unitBox(), 100))
	}
}
