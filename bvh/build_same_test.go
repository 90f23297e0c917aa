package bvh_test

import (
	"crypto/sha256"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/collide3d/collide/bv"
	"github.com/collide3d/collide/bvh"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/internal/testgeom"
	"github.com/collide3d/collide/mesh"
	"github.com/collide3d/collide/mesh/gen"
)

// sameTreeMeshes are the meshes of TestBuildUnchanged: a sphere, a field
// of tetrahedra, and adversarial soups (degenerate and duplicated
// triangles, far from the origin).
func sameTreeMeshes() []*mesh.TriMesh {
	ms := []*mesh.TriMesh{
		gen.Must(gen.Icosphere(geom.Vec3{}, 1, 800)),
		gen.Must(gen.Tetrahedra(200, geom.AABB{Max: geom.V(8, 8, 8)}, 0.5, 2)),
	}
	for _, sc := range testgeom.AdversarialScenes(6) {
		switch sc.Name {
		case "lattice-far", "degenerate", "random-far", "twins":
			ms = append(ms, sc.Env)
		}
	}
	return ms
}

// sameTreeOptions are the build options of TestBuildSame: every k with
// every rule and split point, and leaves of 4 triangles.
func sameTreeOptions() []bvh.Options {
	var os []bvh.Options
	for _, k := range []bv.K{bv.K6, bv.K14, bv.K18, bv.K26} {
		for r := bvh.Splatter; r <= bvh.MinMax; r++ {
			for s := bvh.Mean; s <= bvh.Median; s++ {
				os = append(os, bvh.Options{K: k, Rule: r, Split: s})
			}
		}
		os = append(os, bvh.Options{K: k, Leaf: 4})
	}
	return os
}

// largeTreeOptions are the options TestBuildUnchanged builds a terrain of
// 16,928 triangles with, above parallelMin (built on several goroutines).
var largeTreeOptions = []bvh.Options{
	{}, {K: bv.K14, Rule: bvh.LongestSide, Split: bvh.Median}, {K: bv.K6, Rule: bvh.MinMax}, {K: bv.K26, Leaf: 8},
}

// TestBuildUnchanged checks that the k-DOP builder builds, bit for bit, the
// trees it built before it was made faster: the digest of every tree's
// saved encoding, over the meshes and options above, is the one recorded
// from the builder as it was (testdata/build_same.txt, a line per mesh and
// options). Set COLLIDE_BUILD_SAME_WRITE=1 to record the digests again,
// which only a change meant to change the default trees may do.
func TestBuildUnchanged(t *testing.T) {
	var lines []string
	ms, opts := sameTreeMeshes(), sameTreeOptions()
	large := len(ms)
	ms = append(ms, gen.Must(gen.Terrain(92, 10, 1, 0.5, 3)))
	for mi, m := range ms {
		if mi == large {
			opts = largeTreeOptions
		}
		for _, o := range opts {
			tr, err := bvh.Build(m, o)
			if err != nil {
				t.Fatal(err)
			}
			h := sha256.New()
			if _, err := tr.WriteTo(h); err != nil {
				t.Fatal(err)
			}
			lines = append(lines, fmt.Sprintf("mesh%d k%d/%v/%v/leaf%d %x", mi, o.K, o.Rule, o.Split, max(o.Leaf, 1), h.Sum(nil)[:12]))
		}
	}
	const file = "testdata/build_same.txt"
	if os.Getenv("COLLIDE_BUILD_SAME_WRITE") == "1" {
		if err := os.WriteFile(file, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	if len(want) != len(lines) {
		t.Fatalf("%d trees, %d recorded", len(lines), len(want))
	}
	for i, l := range lines {
		if l != want[i] {
			t.Errorf("tree differs from the one recorded: %s, recorded %s", l, want[i])
		}
	}
}
