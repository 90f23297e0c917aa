package objects_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/collide3d/collide/bench/objects"
)

// TestQuick runs a short version of every experiment: the methods agree
// (Run checks it at every frame and step), the cache hits, and the report
// has its sections.
func TestQuick(t *testing.T) {
	r, err := objects.Run(context.Background(), objects.Config{Quick: true, Seed: 1, Frames: 200, Objects: 150, Steps: 4, Rounds: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Cages) != 6 || r.Planes == nil || r.World == nil {
		t.Fatalf("runs: %d cages, planes %v, world %v", len(r.Cages), r.Planes != nil, r.World != nil)
	}
	if r.Planes.Convex.Stats.PlaneHits == 0 || r.World.Convex.Stats.PlaneHits == 0 {
		t.Errorf("no plane hits: cones %v, world %v", r.Planes.Convex.Stats, r.World.Convex.Stats)
	}
	var b bytes.Buffer
	if err := r.WriteMarkdown(&b); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"## Convex vs arbitrary", "## Separating planes", "## A world of", "thesis fps", "≤ 1000"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("the report lacks %q", want)
		}
	}
	if testing.Verbose() {
		t.Log(b.String())
	}
}

func TestCone(t *testing.T) {
	m := objects.Cone(1, 2, 30)
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	if len(m.Tris) != 60 {
		t.Errorf("%d triangles, want 60", len(m.Tris))
	}
}
