package paper

import (
	"testing"
	"time"

	"github.com/collide3d/collide/bv"
	"github.com/collide3d/collide/bvh"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh/gen"
)

func TestMeasureCosts(t *testing.T) {
	m := gen.Must(gen.Torus(geom.Vec3{}, 1, 0.3, 2000))
	for _, o := range []bvh.Options{{K: bv.K6}, {K: bv.K18, Float64: true}, {Kind: bvh.OBB}, {Kind: bvh.Sphere}, {Kind: bvh.AABB}, {Kind: bvh.BoxTree}} {
		tr, err := bvh.Build(m, o)
		if err != nil {
			t.Fatal(err)
		}
		c := MeasureCosts(tr, time.Millisecond)
		if !(c.Cv > 0 && c.Cp > 0) || (c.Cu > 0) == (o.Kind == bvh.BoxTree) {
			t.Errorf("%v: costs %+v: want Cv and Cp positive, and Cu positive but for box-trees", o, c)
		}
	}
	small, err := bvh.Build(gen.Must(gen.Torus(geom.Vec3{}, 1, 0.3, 18)), bvh.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if c := MeasureCosts(small, time.Millisecond); c != (Costs{}) {
		t.Errorf("an 18-triangle tree: costs %+v, want none", c)
	}
}

// BenchmarkCp measures Cp, one exact triangle-triangle test between nearby
// triangles of a 20,000-triangle torus, with MeasureCosts's probe.
func BenchmarkCp(b *testing.B) {
	t, err := bvh.Build(gen.Must(gen.Torus(geom.Vec3{}, 1, 0.3, 20000)), bvh.Options{})
	if err != nil {
		b.Fatal(err)
	}
	p := triProbe(t)
	b.ReportAllocs()
	p(1000)
	b.ResetTimer()
	p(b.N)
}

// BenchmarkCpPrepared measures Cp as a k-DOP query's leaves pay it: one
// triangle prepared once (geom.TriPrep) and tested against a run of 16
// triangles of the next 16 indices (nearby, as a flying leaf's are),
// moved by bvh.CostPose as in BenchmarkCp's probe.
func BenchmarkCpPrepared(b *testing.B) {
	t, err := bvh.Build(gen.Must(gen.Torus(geom.Vec3{}, 1, 0.3, 20000)), bvh.Options{})
	if err != nil {
		b.Fatal(err)
	}
	m := t.Mesh()
	nt := m.NumTriangles()
	pose := bvh.CostPose()
	const n, run = 4096, 16
	a := make([]geom.Triangle, n)
	bs := make([][run]geom.Triangle, n)
	for i := range n {
		j := (i * 7919) % nt
		a[i] = m.Triangle(j)
		for k := range run {
			bs[i][k] = pose.ApplyTriangle(m.Triangle(min(nt-1, j+k)))
		}
	}
	var p geom.TriPrep
	hits := 0
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if i%run == 0 {
			p.Reset(&a[(i/run)%n])
		}
		if p.Meets(&bs[(i/run)%n][i%run]) {
			hits++
		}
		i++
	}
	b.ReportMetric(float64(hits)/float64(i), "hits/op")
}
