package bvh_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/collide3d/collide/bv"
	"github.com/collide3d/collide/bvh"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh"
	"github.com/collide3d/collide/mesh/gen"
)

// orbit returns n poses of a model flying around the ring of a torus of
// major radius 1, turning as it goes, grazing the tube.
func orbit(n int) []geom.Pose {
	poses := make([]geom.Pose, n)
	for i := range poses {
		a := 2 * math.Pi * float64(i) / float64(n)
		poses[i] = geom.FromAxisAngle(geom.V(1, 2, 3), 7*a, geom.V(math.Cos(a), math.Sin(a), 0.25+0.1*math.Sin(5*a)))
	}
	return poses
}

// benchQueries runs all-pairs queries of fly against env along poses and
// reports the mean counts per query.
func benchQueries(b *testing.B, env, fly *bvh.Tree, poses []geom.Pose, q bvh.QueryOptions) {
	var s bvh.Scratch
	var st bvh.Stats
	pairs := 0
	fn := func(bvh.Pair) bool { pairs++; return true }
	for _, p := range poses { // warm up: the flying view and the scratch
		bvh.Collide(env, fly, p, q, &s, fn)
	}
	pairs = 0
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		st.Add(bvh.Collide(env, fly, poses[i%len(poses)], q, &s, fn))
		i++
	}
	n := float64(i)
	b.ReportMetric(float64(st.BVTests)/n, "Nv/op")
	b.ReportMetric(float64(st.TriTests)/n, "Np/op")
	b.ReportMetric(float64(st.Updates)/n, "Nu/op")
	b.ReportMetric(float64(st.LeafTests)/n, "Nl/op")
	b.ReportMetric(float64(pairs)/n, "pairs/op")
}

// BenchmarkQuery flies a 2,000-triangle sphere around a 20,000-triangle
// torus, grazing it and rotating as it goes, for each k and each other kind
// of tree, in all-pairs mode (and first-contact mode for some).
func BenchmarkQuery(b *testing.B) {
	envM := gen.Must(gen.Torus(geom.Vec3{}, 1, 0.3, 20000))
	flyM := gen.Must(gen.Icosphere(geom.Vec3{}, 0.1, 2000))
	poses := orbit(1000)
	for _, k := range bv.Ks {
		env := mustBuild(b, envM, bvh.Options{K: k})
		fly := mustBuild(b, flyM, bvh.Options{K: k})
		b.Run(fmt.Sprintf("k=%d", k), func(b *testing.B) {
			benchQueries(b, env, fly, poses, bvh.QueryOptions{All: true})
		})
	}
	for _, o := range []bvh.Options{
		{Kind: bvh.OBB}, {Kind: bvh.OBB, Rule: bvh.LongestSide}, {Kind: bvh.OBB, Rule: bvh.RAPID},
		{Kind: bvh.Sphere}, {Kind: bvh.AABB}, {Kind: bvh.RSS}, {Kind: bvh.BoxTree}, {Kind: bvh.BoxTree, Leaf: 4},
	} {
		env := mustBuild(b, envM, o)
		fly := mustBuild(b, flyM, o)
		name := fmt.Sprintf("%v/%v/leaf=%d", o.Kind, o.Rule, o.Leaf)
		b.Run(name, func(b *testing.B) {
			benchQueries(b, env, fly, poses, bvh.QueryOptions{All: true})
		})
		if o.Rule == bvh.Splatter && o.Leaf == 0 {
			b.Run(name+"/first", func(b *testing.B) {
				benchQueries(b, env, fly, poses, bvh.QueryOptions{})
			})
		}
	}
	env64 := mustBuild(b, envM, bvh.Options{Float64: true})
	fly64 := mustBuild(b, flyM, bvh.Options{Float64: true})
	b.Run("k=18/float64", func(b *testing.B) {
		benchQueries(b, env64, fly64, poses, bvh.QueryOptions{All: true})
	})
	env := mustBuild(b, envM, bvh.Options{})
	fly := mustBuild(b, flyM, bvh.Options{})
	for _, v := range []struct {
		name string
		q    bvh.QueryOptions
	}{
		{"k=18/first", bvh.QueryOptions{}},
		{"k=18/restart", bvh.QueryOptions{All: true, Restart: true}},
		{"k=18/exactroot", bvh.QueryOptions{All: true, ExactRoot: true, State: new(bvh.PairState)}},
		{"k=18/eps", bvh.QueryOptions{All: true, Eps: 0.01}},
	} {
		b.Run(v.name, func(b *testing.B) { benchQueries(b, env, fly, poses, v.q) })
	}
}

// BenchmarkFlyLeaf measures the query time against the leaf threshold τ of
// the flying hierarchy, for flying spheres of several sizes and each k: the
// measurements behind FlyLeafFor.
func BenchmarkFlyLeaf(b *testing.B) {
	envM := gen.Must(gen.Torus(geom.Vec3{}, 1, 0.3, 100000))
	poses := orbit(500)
	for _, size := range []int{200, 2000, 20000} {
		flyM := gen.Must(gen.Icosphere(geom.Vec3{}, 0.1, size))
		for _, k := range bv.Ks {
			env := mustBuild(b, envM, bvh.Options{K: k})
			for _, tau := range []int{1, 2, 4, 8, 16, 32, 64} {
				fly := mustBuild(b, flyM, bvh.Options{K: k, FlyLeaf: tau})
				b.Run(fmt.Sprintf("n=%d/k=%d/tau=%d", len(flyM.Tris), k, tau), func(b *testing.B) {
					benchQueries(b, env, fly, poses, bvh.QueryOptions{All: true})
				})
			}
		}
	}
}

func mustBuild(b *testing.B, m *mesh.TriMesh, o bvh.Options) *bvh.Tree {
	b.Helper()
	t, err := bvh.Build(m, o)
	if err != nil {
		b.Fatal(err)
	}
	return t
}
