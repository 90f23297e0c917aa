package depth

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh"
	"github.com/collide3d/collide/mesh/gen"
	"github.com/collide3d/collide/mesh/off"
)

func BenchmarkConvexIcospheres(b *testing.B) {
	env := build(b, gen.Must(gen.Icosphere(geom.Vec3{}, 1, 320)))
	fly := build(b, gen.Must(gen.Icosphere(geom.Vec3{}, 0.7, 320)))
	pose := geom.FromAxisAngle(geom.V(1, 2, 3), 0.5, geom.V(1.2, 0.3, 0.1))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Translation(env, fly, pose, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkTorusBox(b *testing.B) {
	env := build(b, gen.Must(gen.Torus(geom.Vec3{}, 2, 0.6, 512)))
	fly := build(b, boxMesh(geom.V(-0.4, -0.4, -0.4), geom.V(0.4, 0.4, 0.4)))
	pose := geom.FromAxisAngle(geom.V(1, 2, 3), 0.7, geom.V(1.5, 1.2, 0.3))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Translation(env, fly, pose, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkWinding(b *testing.B) {
	s, err := NewSolid(gen.Must(gen.Torus(geom.Vec3{}, 2, 0.6, 2000)))
	if err != nil {
		b.Fatal(err)
	}
	p := geom.V(2.1, 0.1, 0.05)
	b.ReportAllocs()
	for b.Loop() {
		s.Winding(p)
	}
}

// signedScene is a pair of models and three poses of fly: apart, touching
// (certified), penetrating.
type signedScene struct {
	name     string
	env, fly *collide.Model
	poses    [3]geom.Pose
}

// atMaxX returns m moved so that its vertex of greatest x is the origin
// (v − a, exact for that vertex; every other x is ≤ 0, by monotone
// rounding).
func atMaxX(m *mesh.TriMesh) *mesh.TriMesh {
	a := m.Verts[0]
	for _, v := range m.Verts {
		if v.X > a.X {
			a = v
		}
	}
	out := &mesh.TriMesh{Verts: make([]geom.Vec3, len(m.Verts)), Tris: m.Tris}
	for i, v := range m.Verts {
		out.Verts[i] = v.Sub(a)
	}
	return out
}

// touchingAlongX returns the pose of fly, at rotation r, that puts its
// vertex b of least x on env's vertex of greatest x, the origin (env from
// atMaxX): T = −R·b, so R·b + T is 0 exactly, and every other vertex's
// x is ≥ 0: a touch that a plane normal to x certifies.
func touchingAlongX(fly *collide.Model, r geom.Mat3) geom.Pose {
	var rb geom.Vec3
	minB := math.Inf(1)
	for _, v := range fly.Mesh().Verts {
		if w := r.MulVec(v); w.X < minB {
			minB, rb = w.X, w
		}
	}
	return geom.Pose{R: r, T: rb.Neg()}
}

// rss builds m with RSS trees, the fastest for distance (the CLI's
// default for distance).
func rss(tb testing.TB, m *mesh.TriMesh) *collide.Model {
	md, err := collide.Build(m, collide.BuildOptions{BV: collide.RSS})
	if err != nil {
		tb.Fatal(err)
	}
	return md
}

// scaled returns m scaled about its box's centre so that its box's
// diagonal is d.
func scaled(m *mesh.TriMesh, d float64) *mesh.TriMesh {
	b := m.Bounds()
	c, s := b.Min.Add(b.Max).Scale(0.5), d/b.Size().Norm()
	out := &mesh.TriMesh{Verts: make([]geom.Vec3, len(m.Verts)), Tris: m.Tris}
	for i, v := range m.Verts {
		out.Verts[i] = v.Sub(c).Scale(s)
	}
	return out
}

func signedScenes(b *testing.B) []signedScene {
	var out []signedScene
	torus := rss(b, atMaxX(gen.Must(gen.Torus(geom.Vec3{}, 2, 0.6, 2048))))
	ball := rss(b, gen.Must(gen.Icosphere(geom.Vec3{}, 0.5, 1280)))
	out = append(out, signedScene{"torus2k-ball1k", torus, ball, [3]geom.Pose{
		geom.Translation(geom.V(-2.6, 0, 1.5)), touchingAlongX(ball, geom.Identity3()),
		geom.Translation(geom.V(-0.3, 0.2, 0.1))}})
	for _, pair := range [][2]string{{"elk.off", "knot.off"}, {"bull.off", "homer.off"}, {"bunny00.off", "armadillo.off"}} {
		if testing.Short() && pair[0] == "bunny00.off" {
			continue
		}
		em, fm := loadOFF(b, pair[0]), loadOFF(b, pair[1])
		if em == nil || fm == nil {
			continue
		}
		// Both of diagonal 2, env's greatest x at the origin.
		env, fly := rss(b, atMaxX(scaled(em, 2))), rss(b, scaled(fm, 2))
		eb, fb := env.Mesh().Bounds(), fly.Mesh().Bounds()
		ec, fc := eb.Min.Add(eb.Max).Scale(0.5), fb.Min.Add(fb.Max).Scale(0.5)
		r := geom.FromAxisAngle(geom.V(1, 2, 3), 0.7, geom.Vec3{}).R
		sz := eb.Size().Norm() + fb.Size().Norm()
		at := func(c geom.Vec3) geom.Pose { return geom.Pose{R: r, T: c.Sub(r.MulVec(fc))} }
		out = append(out, signedScene{pair[0] + "-" + pair[1], env, fly, [3]geom.Pose{
			at(ec.Add(geom.V(0.6*sz, 0, 0))),
			touchingAlongX(fly, r),
			at(ec.Add(geom.V(0.2*eb.Size().X, 0, 0)))}})
	}
	return out
}

// loadOFF loads a mesh of libcgal-demo's data if present (nil if not).
func loadOFF(tb testing.TB, name string) *mesh.TriMesh {
	f, err := os.Open(filepath.Join("/tmp/cdef/cgal/data/meshes", name))
	if err != nil {
		return nil
	}
	defer f.Close()
	m, err := off.Decode(f)
	if err != nil {
		tb.Fatal(err)
	}
	return m
}

// BenchmarkSignedDistance times SignedDistance on generated meshes and, if
// libcgal-demo's are in /tmp/cdef/cgal/data/meshes, real ones (their
// sizes: elk 3,290 triangles, knot 4,160, bull 12,396, homer 9,856,
// bunny00 75,408, armadillo 52,000; -short leaves the last two out),
// apart, touching and penetrating, with RSS trees. The depth search of
// penetrating poses is the slow part on real meshes: seconds to minutes a
// pose at 10^4 triangles.
func BenchmarkSignedDistance(b *testing.B) {
	for _, sc := range signedScenes(b) {
		for k, kind := range []string{"apart", "touching", "penetrating"} {
			b.Run(sc.name+"/"+kind, func(b *testing.B) {
				var s Signed
				b.ReportAllocs()
				for b.Loop() {
					var err error
					if s, err = SignedDistance(context.Background(), sc.env, geom.Identity(), sc.fly, sc.poses[k], SignedOptions{}); err != nil {
						b.Fatal(err)
					}
				}
				if s.Kind.String() != kind {
					b.Logf("%s: %v, signed %v [%v, %v]", kind, s.Kind, s.Distance, s.Lower, s.Upper)
				}
				b.ReportMetric(s.Distance, "signed")
				if s.Kind == Penetrating {
					b.ReportMetric(s.Lower, "lower")
				}
			})
		}
		// Penetrating within a 100 ms budget: the interval it certifies.
		b.Run(sc.name+"/penetrating-100ms", func(b *testing.B) {
			var s Signed
			b.ReportAllocs()
			for b.Loop() {
				var err error
				o := SignedOptions{Depth: Options{Budget: collide.Budget{Deadline: time.Now().Add(100 * time.Millisecond)}}}
				if s, err = SignedDistance(context.Background(), sc.env, geom.Identity(), sc.fly, sc.poses[2], o); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(s.Lower, "lower")
			b.ReportMetric(s.Upper, "upper")
		})
		// The distance query alone at the apart pose: what SignedDistance
		// adds is the rest (closedness, one winding number a component).
		b.Run(sc.name+"/apart-distance-only", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := collide.Distance(sc.env, sc.fly, sc.poses[0], collide.DistanceOptions{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
