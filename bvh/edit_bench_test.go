package bvh_test

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"

	"github.com/collide3d/collide/bv"
	"github.com/collide3d/collide/bvh"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh"
	"github.com/collide3d/collide/mesh/gen"
)

// scattered returns an edit of m deleting k random triangles and
// inserting k copies of random ones moved by a tenth of their size.
func scattered(rng *rand.Rand, m *mesh.TriMesh, k int) ([]geom.Triangle, []int32) {
	del := make([]int32, 0, k)
	for _, i := range rng.Perm(len(m.Tris))[:k] {
		del = append(del, int32(i))
	}
	ins := make([]geom.Triangle, k)
	for i := range ins {
		tr := m.Triangle(rng.IntN(len(m.Tris)))
		s := tr[1].Sub(tr[0]).Norm() * 0.1
		d := geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()).Scale(s)
		for j := range tr {
			tr[j] = tr[j].Add(d)
		}
		ins[i] = tr
	}
	return ins, del
}

// region returns an edit of m replacing a region of k triangles (those
// nearest a random one's first vertex) by as many new ones: each moved off
// the surface by a tenth of its size, along its normal, and jittered.
func region(rng *rand.Rand, m *mesh.TriMesh, k int) ([]geom.Triangle, []int32) {
	c := m.Triangle(rng.IntN(len(m.Tris)))[0]
	ds := make([]float64, len(m.Tris))
	for i := range m.Tris {
		ds[i] = m.Triangle(i)[0].Sub(c).Norm2()
	}
	sorted := slices.Clone(ds)
	slices.Sort(sorted)
	r := sorted[min(k, len(sorted))-1]
	var del []int32
	var ins []geom.Triangle
	for i, d := range ds {
		if d <= r && len(del) < k {
			del = append(del, int32(i))
			t := m.Triangle(i)
			s := t[1].Sub(t[0]).Norm() * 0.1
			lift := t.Normal().Scale(s / max(t.Normal().Norm(), 1e-300))
			for j := range t {
				t[j] = t[j].Add(lift).Add(geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()).Scale(0.2 * s))
			}
			ins = append(ins, t)
		}
	}
	return ins, del
}

// moved returns an edit of m moving a region of k triangles (region's)
// by a random offset of a third of m's size: deleted where they were,
// inserted where they go (across the hole of a torus, beside other parts).
func moved(rng *rand.Rand, m *mesh.TriMesh, k int) ([]geom.Triangle, []int32) {
	_, del := region(rng, m, k)
	d := geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()).Scale(0.4)
	ins := make([]geom.Triangle, len(del))
	for i, x := range del {
		t := m.Triangle(int(x))
		for j := range t {
			t[j] = t[j].Add(d)
		}
		ins[i] = t
	}
	return ins, del
}

// editKindsBench are the trees the edit benchmarks time.
var editKindsBench = []bvh.Options{
	{K: bv.K18}, {K: bv.K6}, {K: bv.K18, Compact: true}, {Kind: bvh.AABB}, {Kind: bvh.OBB}, {Kind: bvh.Sphere},
}

// BenchmarkEdit times edits of a torus of 10^5 and 10^6 triangles (k
// triangles deleted and k inserted, scattered; a region of k replaced by
// a finer one) against Build over the edited mesh, per kind, with their
// allocations. Each iteration edits the same tree (the edit copies it).
func BenchmarkEdit(b *testing.B) {
	for _, n := range []int{100000, 1000000} {
		m := gen.Must(gen.Torus(geom.Vec3{}, 1, 0.3, n))
		for _, o := range editKindsBench {
			if n > 100000 && (o.Kind == bvh.OBB || o.Kind == bvh.Sphere) && testing.Short() {
				continue
			}
			t := must(bvh.Build(m, o))
			rng := rand.New(rand.NewPCG(1, 2))
			for _, e := range []struct {
				name string
				make func(*rand.Rand, *mesh.TriMesh, int) ([]geom.Triangle, []int32)
				k    int
			}{{"scattered", scattered, 1}, {"scattered", scattered, 100}, {"scattered", scattered, 10000}, {"region", region, 1000}, {"region", region, 10000}} {
				ins, del := e.make(rng, m, e.k)
				b.Run(fmt.Sprintf("n=%d/%s/%s=%d/edit", n, refitName(o), e.name, e.k), func(b *testing.B) {
					b.ReportAllocs()
					var q float64
					for b.Loop() {
						nt, _, err := t.Edit(ins, del)
						if err != nil {
							b.Fatal(err)
						}
						q = nt.RefitQuality()
					}
					b.ReportMetric(q, "quality")
				})
			}
			b.Run(fmt.Sprintf("n=%d/%s/build", n, refitName(o)), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					runtime.KeepAlive(must(bvh.Build(m, o)))
				}
			})
		}
	}
}

// BenchmarkEditQuality edits a torus of 10^5 triangles again and again,
// by batches of 1% of its triangles (scattered, regions replaced, regions
// moved), and
// measures after a total of r times its triangles edited the queries on the
// edited tree against those on a tree built over the same mesh: an
// 80-triangle sphere of radius 0.02 placed near 64 of the mesh's vertices
// (within about 0.03: in contact or near), all pairs,
// per kind (OBB only to r = 0.25 with -short: its edits refit the changed
// nodes' OBBs, each a fit over the node's triangles); it reports the edited tree's quality (RefitQuality), its
// volume and triangle tests (Nv, Np) and time per query over the built
// tree's.
func BenchmarkEditQuality(b *testing.B) {
	torus := gen.Must(gen.Torus(geom.Vec3{}, 1, 0.3, 100000))
	fm := gen.Must(gen.Icosphere(geom.Vec3{}, 0.02, 80))
	for _, o := range []bvh.Options{{K: bv.K18}, {Kind: bvh.AABB}, {Kind: bvh.OBB}} {
		fly := must(bvh.Build(fm, o))
		for _, e := range []struct {
			name string
			make func(*rand.Rand, *mesh.TriMesh, int) ([]geom.Triangle, []int32)
		}{{"scattered", scattered}, {"region", region}, {"moved", moved}} {
			b.Run(fmt.Sprintf("%s/%s", e.name, refitName(o)), func(b *testing.B) {
				editQuality(b, torus, fly, o, e.make)
			})
		}
	}
}

// editQuality runs BenchmarkEditQuality's edits of one family on one kind.
func editQuality(b *testing.B, torus *mesh.TriMesh, fly *bvh.Tree, o bvh.Options, edit func(*rand.Rand, *mesh.TriMesh, int) ([]geom.Triangle, []int32)) {
	t := must(bvh.Build(torus, o))
	rng := rand.New(rand.NewPCG(5, 6))
	done := 0.0
	for _, r := range []float64{0.01, 0.05, 0.1, 0.25, 0.5, 1, 2} {
		if testing.Short() && o.Kind != bvh.KDOP && o.Kind != bvh.AABB && r > 0.25 {
			break
		}
		for done < r {
			m := t.Mesh()
			k := len(m.Tris) / 100
			ins, del := edit(rng, m, k)
			t = must3(t.Edit(ins, del))
			done += float64(len(del)) / float64(len(torus.Tris))
		}
		built := must(bvh.Build(t.Mesh(), o))
		vs := t.Mesh().Verts
		prng := rand.New(rand.NewPCG(3, 4))
		poses := make([]geom.Pose, 64)
		for i := range poses {
			v := vs[prng.IntN(len(vs))].Add(geom.V(prng.NormFloat64(), prng.NormFloat64(), prng.NormFloat64()).Scale(0.03))
			poses[i] = geom.FromAxisAngle(geom.V(prng.NormFloat64(), 1, prng.NormFloat64()), prng.Float64()*6, v)
		}
		var s bvh.Scratch
		run := func(t *bvh.Tree) bvh.Stats { return allPairsCounts(t, fly, poses, &s) }
		se, sb := run(t), run(built)
		for _, which := range []string{"edited", "built"} {
			tr := t
			if which == "built" {
				tr = built
			}
			b.Run(fmt.Sprintf("r=%g/tree=%s", r, which), func(b *testing.B) {
				for b.Loop() {
					run(tr)
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(poses)), "ns/query")
				if which == "edited" {
					b.ReportMetric(t.RefitQuality(), "quality")
					b.ReportMetric(float64(t.Height())/float64(built.Height()), "height/built")
					b.ReportMetric(float64(se.BVTests)/float64(max(sb.BVTests, 1)), "Nv/built")
					b.ReportMetric(float64(se.TriTests)/float64(max(sb.TriTests, 1)), "Np/built")
				}
			})
		}
	}
}

func must3[T, U any](v T, _ U, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
