package bvh_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/collide3d/collide/bv"
	"github.com/collide3d/collide/bvh"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh"
	"github.com/collide3d/collide/mesh/gen"
)

// refitKinds are the trees the refit benchmarks time.
var refitKinds = []bvh.Options{
	{K: bv.K18}, {K: bv.K6}, {K: bv.K26}, {K: bv.K18, Float64: true}, {K: bv.K18, Compact: true},
	{Kind: bvh.OBB}, {Kind: bvh.Sphere}, {Kind: bvh.AABB}, {Kind: bvh.RSS}, {Kind: bvh.BoxTree},
}

func refitName(o bvh.Options) string {
	if o.Kind != bvh.KDOP {
		return o.Kind.String()
	}
	s := fmt.Sprintf("k%d", o.K)
	if o.Float64 {
		s += "f64"
	}
	if o.Compact {
		s += "c"
	}
	return s
}

// twistVerts returns vs twisted about the x axis by a radians per unit of
// x.
func twistVerts(vs []geom.Vec3, a float64) []geom.Vec3 {
	out := make([]geom.Vec3, len(vs))
	for i, v := range vs {
		c, s := math.Cos(a*v.X), math.Sin(a*v.X)
		out[i] = geom.V(v.X, c*v.Y-s*v.Z, s*v.Y+c*v.Z)
	}
	return out
}

// BenchmarkRefit times Refit against Build of the same tree over a torus
// of 10^5 and 10^6 triangles twisted, per kind (run with -cpu 1,2 for the
// cores), with their allocations.
func BenchmarkRefit(b *testing.B) {
	for _, n := range []int{100000, 1000000} {
		m := gen.Must(gen.Torus(geom.Vec3{}, 1, 0.3, n))
		w := &mesh.TriMesh{Verts: twistVerts(m.Verts, 0.3), Tris: m.Tris}
		for _, o := range refitKinds {
			if n > 100000 && (o.Kind == bvh.OBB || o.Kind == bvh.RSS) && testing.Short() {
				continue
			}
			t := must(bvh.Build(m, o))
			b.Run(fmt.Sprintf("n=%d/%s/build", n, refitName(o)), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					runtime.KeepAlive(must(bvh.Build(w, o)))
				}
			})
			b.Run(fmt.Sprintf("n=%d/%s/refit", n, refitName(o)), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					runtime.KeepAlive(must(t.Refit(w.Verts)))
				}
			})
		}
	}
}

// allPairsCounts returns the volume tests (BVTests, leaf tests included)
// and triangle tests of all-pairs queries of fly against env at poses.
func allPairsCounts(env, fly *bvh.Tree, poses []geom.Pose, s *bvh.Scratch) bvh.Stats {
	var st bvh.Stats
	for _, p := range poses {
		x := bvh.Collide(env, fly, p, bvh.QueryOptions{All: true}, s, func(bvh.Pair) bool { return true })
		st.BVTests += x.BVTests + x.LeafTests
		st.TriTests += x.TriTests
	}
	return st
}

// deformation is one family of deformations, of amplitude a.
type deformation struct {
	name string
	mesh *mesh.TriMesh
	move func(vs []geom.Vec3, a float64) []geom.Vec3
	amps []float64
}

func deformations() []deformation {
	torus := gen.Must(gen.Torus(geom.Vec3{}, 1, 0.3, 100000))
	sphere := gen.Must(gen.Icosphere(geom.Vec3{}, 1, 100000))
	return []deformation{
		{"twist", torus, twistVerts, []float64{0, 0.25, 0.5, 1, 2, 4}},
		{"squash", sphere, func(vs []geom.Vec3, a float64) []geom.Vec3 {
			out := make([]geom.Vec3, len(vs))
			for i, v := range vs {
				out[i] = geom.V(v.X*(1+a), v.Y*(1+a), v.Z/(1+4*a))
			}
			return out
		}, []float64{0, 0.1, 0.25, 0.5, 1, 2}},
		{"noise", torus, func(vs []geom.Vec3, a float64) []geom.Vec3 {
			rng := rand.New(rand.NewPCG(1, 2))
			out := make([]geom.Vec3, len(vs))
			for i, v := range vs {
				out[i] = v.Add(geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()).Scale(a))
			}
			return out
		}, []float64{0, 0.001, 0.003, 0.01, 0.03, 0.1}},
	}
}

// BenchmarkRefitQuality measures the queries on a tree refitted after a
// deformation against those on a tree built over the deformed mesh: a
// 2,000-triangle sphere placed at 64 vertices of the deformed surface, all
// pairs, per kind; it reports the refitted tree's RefitQuality, and its
// volume and triangle tests (Nv, Np) over the built tree's, and times the
// refitted tree's queries (the built one's under tree=built).
func BenchmarkRefitQuality(b *testing.B) {
	fm := gen.Must(gen.Icosphere(geom.Vec3{}, 0.05, 2000))
	for _, d := range deformations() {
		for _, o := range []bvh.Options{{K: bv.K18}, {Kind: bvh.OBB}, {Kind: bvh.AABB}, {Kind: bvh.Sphere}, {Kind: bvh.RSS}} {
			base := must(bvh.Build(d.mesh, o))
			fly := must(bvh.Build(fm, o))
			for _, a := range d.amps {
				vs := d.move(d.mesh.Verts, a)
				refit := must(base.Refit(vs))
				built := must(bvh.Build(refit.Mesh(), o))
				rng := rand.New(rand.NewPCG(3, 4))
				poses := make([]geom.Pose, 64)
				for i := range poses {
					v := vs[rng.IntN(len(vs))]
					poses[i] = geom.FromAxisAngle(geom.V(rng.NormFloat64(), 1, rng.NormFloat64()), rng.Float64()*6, v)
				}
				var s bvh.Scratch
				run := func(t *bvh.Tree) bvh.Stats { return allPairsCounts(t, fly, poses, &s) }
				sr, sb := run(refit), run(built)
				for _, which := range []string{"refit", "built"} {
					t := refit
					if which == "built" {
						t = built
					}
					b.Run(fmt.Sprintf("%s/%s/a=%g/tree=%s", d.name, refitName(o), a, which), func(b *testing.B) {
						for b.Loop() {
							run(t)
						}
						b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(poses)), "ns/query")
						if which == "refit" {
							b.ReportMetric(refit.RefitQuality(), "quality")
							b.ReportMetric(float64(sr.BVTests)/float64(max(sb.BVTests, 1)), "Nv/built")
							b.ReportMetric(float64(sr.TriTests)/float64(max(sb.TriTests, 1)), "Np/built")
						}
					})
				}
			}
		}
	}
}
