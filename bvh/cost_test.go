package bvh

import (
	"fmt"
	"testing"

	"github.com/collide3d/collide/bv"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh"
	"github.com/collide3d/collide/mesh/gen"
)

// The cost benchmarks measure the constants Cv and Cu of the cost model
// T = Nv·Cv + Np·Cp + Nu·Cu on a 20,000-triangle torus, with the probes of
// Tree.CostProbes: Cv, one overlap test between nearby nodes; Cu, one
// flying node tumbled (k-DOPs) or moved (the other kinds). Package bench
// has Cp, one exact triangle-triangle test between nearby triangles.

func costMesh(b *testing.B) *mesh.TriMesh {
	b.Helper()
	return gen.Must(gen.Torus(geom.Vec3{}, 1, 0.3, 20000))
}

// costTrees returns the trees of the cost benchmarks, by name.
func costTrees(b *testing.B, kdopFloat64 bool) ([]string, []*Tree) {
	m := costMesh(b)
	var names []string
	var trees []*Tree
	add := func(name string, o Options) {
		t, err := Build(m, o)
		if err != nil {
			b.Fatal(err)
		}
		names, trees = append(names, name), append(trees, t)
	}
	for _, k := range bv.Ks {
		add(fmt.Sprintf("k=%d/float32", k), Options{K: k})
		if kdopFloat64 {
			add(fmt.Sprintf("k=%d/float64", k), Options{K: k, Float64: true})
			add(fmt.Sprintf("k=%d/compact", k), Options{K: k, Compact: true})
		}
	}
	for _, kind := range []Kind{OBB, Sphere, AABB, RSS, BoxTree} {
		add(kind.String(), Options{Kind: kind})
	}
	return names, trees
}

func runProbe(b *testing.B, p func(n int)) {
	b.ReportAllocs()
	p(1000)
	b.ResetTimer()
	p(b.N)
}

func BenchmarkCv(b *testing.B) {
	names, trees := costTrees(b, true)
	for i, t := range trees {
		cv, _ := t.CostProbes()
		b.Run(names[i], func(b *testing.B) { runProbe(b, cv) })
	}
}

func BenchmarkCu(b *testing.B) {
	names, trees := costTrees(b, false)
	for i, t := range trees {
		if _, cu := t.CostProbes(); cu != nil {
			b.Run(names[i], func(b *testing.B) { runProbe(b, cu) })
		}
	}
}
