package grains_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/collide3d/collide/bench/grains"
)

// TestRun runs a tiny experiment and checks the report's sections, and
// that the medium grain answered as the sequential query at every pose.
func TestRun(t *testing.T) {
	r, err := grains.Run(context.Background(), grains.Config{Quick: true, Sizes: []int{42, 442}, Frames: 30, Rounds: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range r.Medium {
		if x.Differ != 0 {
			t.Errorf("2×%d %v all=%v: %d poses differ", x.Tris[0], x.BV, x.All, x.Differ)
		}
		if x.Hits == 0 || x.Hits == x.Frames {
			t.Errorf("2×%d: %d of %d poses in contact: the flight tests nothing", x.Tris[0], x.Hits, x.Frames)
		}
	}
	if len(r.Medium) != 8 || len(r.World) != 2 || r.Concurrent == nil || r.Concurrent.Stepped == 0 {
		t.Fatalf("report: %d medium runs, %d worlds, concurrent %v", len(r.Medium), len(r.World), r.Concurrent)
	}
	var b bytes.Buffer
	if err := r.WriteMarkdown(&b); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"# collide bench --grains", "## Medium grain", "| 2×42 | kdop18 | first contact |", "1.15",
		"## A world of two objects", "## The concurrent module", "| concurrent module |"} {
		if !strings.Contains(b.String(), s) {
			t.Errorf("report lacks %q", s)
		}
	}
	if _, err := grains.Run(context.Background(), grains.Config{Sizes: []int{5}}); err == nil {
		t.Error("a torus of 5 triangles: no error")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := grains.Run(ctx, grains.Config{Quick: true}); err == nil {
		t.Error("a cancelled run: no error")
	}
}
