package collide_test

import (
	"bytes"
	"testing"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh/gen"
)

// TestSavedConvexAuto checks that a saved model's topology counts as known:
// MethodAuto gives two convex models bigger than AutoConvexTris the convex
// test once they are read back, as it does once their Topology has run,
// and not before.
func TestSavedConvexAuto(t *testing.T) {
	m := gen.Must(gen.Icosphere(geom.Vec3{}, 1, 4*collide.AutoConvexTris))
	if len(m.Tris) <= collide.AutoConvexTris {
		t.Fatalf("%d triangles: not past AutoConvexTris", len(m.Tris))
	}
	built, err := collide.Build(m, collide.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := collide.MethodAuto.Resolve(built, built); got != collide.MethodTree {
		t.Fatalf("before its topology is known: %v, want tree", got)
	}
	var buf bytes.Buffer
	if err := built.Save(&buf); err != nil {
		t.Fatal(err)
	}
	read, err := collide.ReadModel(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if got := collide.MethodAuto.Resolve(read, read); got != collide.MethodConvex {
		t.Errorf("read back: %v, want convex", got)
	}
	if got := collide.MethodAuto.Resolve(built, built); got != collide.MethodConvex {
		t.Errorf("after Save computed its topology: %v, want convex", got)
	}
}
