package collide_test

import (
	"bytes"
	"sync"
	"testing"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/mesh/gen"
)

// TestModelTopology checks that a model's topology is computed once (the
// same value from concurrent callers), and equal after Save and ReadModel.
func TestModelTopology(t *testing.T) {
	k, _ := gen.Lookup("torus")
	m, err := k.Generate(map[string]float64{"tris": 400})
	if err != nil {
		t.Fatal(err)
	}
	md, err := collide.Build(m, collide.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	got := make([]any, 4)
	for i := range got {
		wg.Go(func() { got[i] = md.Topology() })
	}
	wg.Wait()
	tp := md.Topology()
	for _, g := range got {
		if g != any(tp) {
			t.Fatal("Topology returned different values")
		}
	}
	if !tp.Closed || !tp.Outward || tp.Convex || tp.Genus != 1 {
		t.Errorf("torus: %+v", tp)
	}
	var buf bytes.Buffer
	if err := md.Save(&buf); err != nil {
		t.Fatal(err)
	}
	r, err := collide.ReadModel(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if rt := r.Topology(); rt.Closed != tp.Closed || rt.Genus != tp.Genus || rt.Edges != tp.Edges || rt.Convex != tp.Convex {
		t.Errorf("read back: %+v", rt)
	}
}

// BenchmarkBuildTopology measures Build and Topology on 10^6 triangles,
// to compare their costs.
func BenchmarkBuildTopology(b *testing.B) {
	k, _ := gen.Lookup("icosphere")
	m, _ := k.Generate(map[string]float64{"tris": 1000000})
	b.Run("build", func(b *testing.B) {
		for b.Loop() {
			collide.Build(m, collide.BuildOptions{})
		}
	})
	b.Run("build+topology", func(b *testing.B) {
		for b.Loop() {
			md, _ := collide.Build(m, collide.BuildOptions{})
			md.Topology()
		}
	})
}
