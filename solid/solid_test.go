package solid_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/internal/testgeom"
	"github.com/collide3d/collide/mesh"
	"github.com/collide3d/collide/mesh/gen"
	"github.com/collide3d/collide/solid"
	"github.com/collide3d/collide/topo"
)

// scenes are the closed surfaces the tests classify points against:
// spheres, boxes (axis-aligned faces: rays along edges and through
// vertices) and tori, nested (winding 2 inside both, or a hollow shell with
// the inner one reversed), turned inward, rotated and far from the origin.
func scenes() []struct {
	name string
	m    *mesh.TriMesh
} {
	sphere := gen.Must(gen.Icosphere(geom.Vec3{X: 0.1, Y: -0.2, Z: 0.05}, 1, 80))
	box := gen.Must(gen.Box(geom.AABB{Min: geom.Vec3{X: -2, Y: -2, Z: -2}, Max: geom.Vec3{X: 2, Y: 2, Z: 2}}, 2))
	unit := gen.Must(gen.Box(geom.AABB{Min: geom.Vec3{X: -1, Y: -1, Z: -1}, Max: geom.Vec3{X: 1, Y: 1, Z: 1}}, 1))
	torus := gen.Must(gen.Torus(geom.Vec3{}, 1.2, 0.4, 120))
	rot := geom.FromAxisAngle(geom.Vec3{X: 1, Y: 2, Z: 3}, 0.7, geom.Vec3{X: 1e6, Y: -3e6, Z: 2.5e6})
	return []struct {
		name string
		m    *mesh.TriMesh
	}{
		{"sphere", sphere},
		{"box", box},
		{"torus", torus},
		{"inward sphere", testgeom.Join([]*mesh.TriMesh{sphere}, true)},
		{"box in box", testgeom.Join([]*mesh.TriMesh{box, unit})},
		{"hollow box", testgeom.Join([]*mesh.TriMesh{box, unit}, false, true)},
		{"sphere in box, far, rotated", testgeom.Join([]*mesh.TriMesh{box, sphere}).Transform(rot)},
		{"torus around sphere, far", testgeom.Join([]*mesh.TriMesh{torus, gen.Must(gen.Icosphere(geom.Vec3{}, 0.3, 20))}).Transform(geom.Translation(geom.Vec3{X: -7e5, Y: 1e5, Z: 3}))},
	}
}

// probes returns points to classify: random ones in and around m's box,
// every vertex, edge midpoints and face centroids (on or near the surface),
// points whose +x ray passes exactly through a vertex or along an edge,
// and points on the planes of axis-aligned faces.
func probes(rng *rand.Rand, m *mesh.TriMesh, n int) []geom.Vec3 {
	b := m.Bounds()
	ext := b.Max.Sub(b.Min)
	var ps []geom.Vec3
	for range n {
		ps = append(ps, geom.Vec3{
			X: b.Min.X + (rng.Float64()*1.2-0.1)*ext.X,
			Y: b.Min.Y + (rng.Float64()*1.2-0.1)*ext.Y,
			Z: b.Min.Z + (rng.Float64()*1.2-0.1)*ext.Z,
		})
	}
	for range n {
		t := m.Triangle(rng.IntN(len(m.Tris)))
		v := t[rng.IntN(3)]
		switch rng.IntN(6) {
		case 0:
			ps = append(ps, v)
		case 1:
			ps = append(ps, t[0].Add(t[1]).Scale(0.5))
		case 2:
			ps = append(ps, t[0].Add(t[1]).Add(t[2]).Scale(1.0/3))
		case 3: // the ray along +x passes through v
			ps = append(ps, geom.Vec3{X: v.X - rng.Float64()*ext.X, Y: v.Y, Z: v.Z})
		case 4: // the ray along +x passes through an edge's point
			c := t[1].Add(t[2]).Scale(0.5)
			ps = append(ps, geom.Vec3{X: c.X - rng.Float64()*ext.X, Y: c.Y, Z: c.Z})
		default: // in the plane y = v.Y (a face's, on the boxes)
			ps = append(ps, geom.Vec3{X: b.Min.X + rng.Float64()*ext.X, Y: v.Y, Z: b.Min.Z + rng.Float64()*ext.Z})
		}
	}
	return ps
}

// TestWindingAgainstRational classifies points against the exact rational
// reference, by the indexed solid of New, by the lazy one of FromTriangles
// and by Scan.
func TestWindingAgainstRational(t *testing.T) {
	rng := rand.New(rand.NewPCG(35, 2))
	for _, sc := range scenes() {
		t.Run(sc.name, func(t *testing.T) {
			s, err := solid.New(sc.m, topo.Of(sc.m))
			if err != nil {
				t.Fatal(err)
			}
			tris := make([]geom.Triangle, len(sc.m.Tris))
			for i := range tris {
				tris[i] = sc.m.Triangle(i)
			}
			lazy := solid.FromTriangles(tris)
			ref := testgeom.NewRatSolid(tris)
			var in, on int
			for _, p := range probes(rng, sc.m, 60) {
				rw, ron := ref.Winding(p)
				for _, got := range []struct {
					how   string
					w     int
					onSur bool
				}{
					{"New", 0, false}, {"FromTriangles", 0, false}, {"Scan", 0, false}, {"ScanMesh", 0, false},
				} {
					switch got.how {
					case "New":
						got.w, got.onSur = s.Winding(p)
					case "FromTriangles":
						got.w, got.onSur = lazy.Winding(p)
					case "ScanMesh":
						got.w, got.onSur = solid.ScanMesh(sc.m.Verts, sc.m.Tris, p)
					default:
						got.w, got.onSur = solid.Scan(tris, nil, p)
					}
					if got.w != rw || got.onSur != ron {
						t.Fatalf("%s: Winding(%v) = %d, %v; the reference says %d, %v", got.how, p, got.w, got.onSur, rw, ron)
					}
				}
				if s.Contains(p) != (!ron && rw != 0) {
					t.Fatalf("Contains(%v) = %v, winding %d, on %v", p, s.Contains(p), rw, ron)
				}
				if ron {
					on++
				} else if rw != 0 {
					in++
				}
			}
			if in == 0 || on == 0 {
				t.Errorf("%d points inside, %d on the surface: the probes miss a case", in, on)
			}
		})
	}
}

// TestWindingIndexMatchesScan checks the index against the scan on bigger
// meshes, with many points on the grid's cell boundaries (the vertices'
// coordinates).
func TestWindingIndexMatchesScan(t *testing.T) {
	rng := rand.New(rand.NewPCG(35, 3))
	for _, m := range []*mesh.TriMesh{
		gen.Must(gen.UVSphere(geom.Vec3{X: 3}, 2, 6000)),
		gen.Must(gen.Torus(geom.Vec3{Z: 1e7}, 3, 0.01, 3000)),                                                      // thin: long triangles
		gen.Must(gen.Box(geom.AABB{Min: geom.Vec3{X: -1, Y: 0, Z: 0}, Max: geom.Vec3{X: 1, Y: 1e-300, Z: 1}}, 30)), // flat in y
	} {
		s, err := solid.New(m, topo.Of(m))
		if err != nil {
			t.Fatal(err)
		}
		tris := s.Triangles()
		for _, p := range probes(rng, m, 300) {
			w, on := s.Winding(p)
			sw, son := solid.Scan(tris, s.Boxes(), p)
			mw, mon := solid.ScanMesh(m.Verts, m.Tris, p)
			if w != sw || on != son || w != mw || on != mon {
				t.Fatalf("Winding(%v) = %d, %v; Scan says %d, %v, ScanMesh %d, %v", p, w, on, sw, son, mw, mon)
			}
		}
	}
}

// TestNotSolid refuses open, non-manifold and flipped surfaces, saying why.
func TestNotSolid(t *testing.T) {
	box := gen.Must(gen.Box(geom.AABB{Max: geom.Vec3{X: 1, Y: 1, Z: 1}}, 1))
	for _, c := range append(testgeom.NotSolids(box), testgeom.NotSolid{Name: "empty", Mesh: &mesh.TriMesh{}, Why: "no triangle"}) {
		_, err := solid.New(c.Mesh, topo.Of(c.Mesh))
		var ns *solid.NotSolidError
		if !errors.As(err, &ns) || !strings.Contains(err.Error(), c.Why) {
			t.Errorf("%s: New: %v, want a *NotSolidError saying %q", c.Name, err, c.Why)
		}
	}
}

// TestComponents gives one vertex per component, with its box.
func TestComponents(t *testing.T) {
	box := gen.Must(gen.Box(geom.AABB{Min: geom.Vec3{X: -2, Y: -2, Z: -2}, Max: geom.Vec3{X: 2, Y: 2, Z: 2}}, 2))
	sphere := gen.Must(gen.Icosphere(geom.Vec3{}, 1, 80))
	far := gen.Must(gen.Icosphere(geom.Vec3{X: 10}, 1, 20))
	m := testgeom.Join([]*mesh.TriMesh{box, sphere, far})
	s, err := solid.New(m, topo.Of(m))
	if err != nil {
		t.Fatal(err)
	}
	verts, boxes := s.Components()
	want := []*mesh.TriMesh{box, sphere, far}
	if len(verts) != len(want) || len(boxes) != len(want) {
		t.Fatalf("%d components, %d boxes; want %d", len(verts), len(boxes), len(want))
	}
	off := 0
	for i, w := range want {
		if v := int(verts[i]); v < off || v >= off+len(w.Verts) {
			t.Errorf("component %d: vertex %d, not in [%d, %d)", i, v, off, off+len(w.Verts))
		}
		if boxes[i] != w.Bounds() {
			t.Errorf("component %d: box %v, want %v", i, boxes[i], w.Bounds())
		}
		off += len(w.Verts)
	}
	if v, _ := solid.FromTriangles(s.Triangles()).Components(); v != nil {
		t.Errorf("FromTriangles: components %v, want none", v)
	}
}

// TestWindingAllocates nothing.
func TestWindingAllocates(t *testing.T) {
	m := gen.Must(gen.Icosphere(geom.Vec3{}, 1, 2000))
	s, _ := solid.New(m, topo.Of(m))
	p := geom.Vec3{X: 0.1, Y: 0.2, Z: -0.3}
	if n := testing.AllocsPerRun(100, func() { s.Contains(p) }); n != 0 {
		t.Errorf("Contains allocates %v times", n)
	}
}

// BenchmarkWinding measures points a second on 10^5 triangles: by the index
// (New) and by a scan of every triangle (the code before the index).
func BenchmarkWinding(b *testing.B) {
	for _, n := range []int{1000, 100000} {
		m := gen.Must(gen.Icosphere(geom.Vec3{}, 1, n))
		s, err := solid.New(m, topo.Of(m))
		if err != nil {
			b.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(1, 2))
		ps := make([]geom.Vec3, 1024)
		for i := range ps {
			ps[i] = geom.Vec3{X: rng.Float64()*2.4 - 1.2, Y: rng.Float64()*2.4 - 1.2, Z: rng.Float64()*2.4 - 1.2}
		}
		b.Run(fmt.Sprintf("index/tris=%d", len(m.Tris)), func(b *testing.B) {
			i := 0
			for b.Loop() {
				s.Contains(ps[i&1023])
				i++
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "points/s")
		})
		b.Run(fmt.Sprintf("scan/tris=%d", len(m.Tris)), func(b *testing.B) {
			i := 0
			for b.Loop() {
				solid.Scan(s.Triangles(), s.Boxes(), ps[i&1023])
				i++
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "points/s")
		})
	}
}
