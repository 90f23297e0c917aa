package bvh_test

import (
	"bytes"
	"runtime"
	"testing"

	"github.com/collide3d/collide/bvh"
	"github.com/collide3d/collide/mesh/gen"
)

// TestBuildSameOnAnyCPUs builds every kind of tree over a terrain large
// enough for the builders to fork (parallelMin triangles and more),
// with GOMAXPROCS 1 and 4 (the root's fit above obbHullMin triangles), and checks that the saved trees are the same
// bytes and valid.
func TestBuildSameOnAnyCPUs(t *testing.T) {
	m := gen.Must(gen.Terrain(130, 100, 10, 0.5, 3)) // 33,282 triangles
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, o := range []bvh.Options{
		{}, {Kind: bvh.OBB}, {Kind: bvh.RSS}, {Kind: bvh.AABB}, {Kind: bvh.Sphere}, {Kind: bvh.BoxTree},
		{Kind: bvh.OBB, Rule: bvh.RAPID}, {Kind: bvh.AABB, Rule: bvh.MinSum}, {Kind: bvh.Sphere, Leaf: 4},
	} {
		var saved [2][]byte
		for i, procs := range []int{1, 4} {
			runtime.GOMAXPROCS(procs)
			tr := must(bvh.Build(m, o))
			if err := tr.Validate(); err != nil {
				t.Fatalf("%v/%v, GOMAXPROCS %d: %v", o.Kind, o.Rule, procs, err)
			}
			var buf bytes.Buffer
			if _, err := tr.WriteTo(&buf); err != nil {
				t.Fatal(err)
			}
			saved[i] = buf.Bytes()
		}
		if !bytes.Equal(saved[0], saved[1]) {
			t.Errorf("%v/%v/leaf %d: the tree built with GOMAXPROCS 4 differs from GOMAXPROCS 1's", o.Kind, o.Rule, o.Leaf)
		}
	}
}
