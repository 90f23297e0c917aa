package bvh

import (
	"fmt"
	"testing"
	"time"

	"github.com/collide3d/collide/bv"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh"
	"github.com/collide3d/collide/mesh/gen"
)

// The cost benchmarks measure the constants of the cost model
// T = Nv·Cv + Np·Cp + Nu·Cu on a 20,000-triangle torus, with the probes of
// MeasureCosts (see costs.go): Cv, one overlap test between nearby nodes;
// Cu, one flying node tumbled (k-DOPs) or moved (the other kinds); Cp, one
// exact triangle-triangle test between nearby triangles.

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
		}
	}
	for _, kind := range []Kind{OBB, Sphere, AABB, BoxTree} {
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

func BenchmarkCp(b *testing.B) {
	t, err := Build(costMesh(b), Options{})
	if err != nil {
		b.Fatal(err)
	}
	runProbe(b, triProbe(t))
}

func TestMeasureCosts(t *testing.T) {
	m := gen.Must(gen.Torus(geom.Vec3{}, 1, 0.3, 2000))
	for _, o := range []Options{{K: bv.K6}, {K: bv.K18, Float64: true}, {Kind: OBB}, {Kind: Sphere}, {Kind: AABB}, {Kind: BoxTree}} {
		tr, err := Build(m, o)
		if err != nil {
			t.Fatal(err)
		}
		c := MeasureCosts(tr, time.Millisecond)
		if !(c.Cv > 0 && c.Cp > 0) || (c.Cu > 0) == (o.Kind == BoxTree) {
			t.Errorf("%v: costs %+v: want Cv and Cp positive, and Cu positive but for box-trees", o, c)
		}
	}
	small, err := Build(gen.Must(gen.Torus(geom.Vec3{}, 1, 0.3, 18)), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if c := MeasureCosts(small, time.Millisecond); c != (Costs{}) {
		t.Errorf("an 18-triangle tree: costs %+v, want none", c)
	}
}
