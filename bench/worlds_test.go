package bench

import (
	"bytes"
	"errors"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/collide3d/collide/scene"
	"github.com/collide3d/collide/world"
)

// TestWorldsShort runs the many-body and cores parts on small scenes and
// checks what holds whatever the machine: every broad phase finds the
// same candidates, tests and contacts, and so does every way of running
// the exact tests.
func TestWorldsShort(t *testing.T) {
	const n, steps = 300, 4
	r, err := RunWorlds(WorldsConfig{Seed: 1, Quick: true, Sizes: []int{n}, Steps: steps, NoCDFast: true})
	if err != nil {
		t.Fatal(err)
	}
	phases := world.BroadPhases()
	if len(r.Runs) != len(WorldsScenes)*len(phases) {
		t.Fatalf("%d runs, want %d", len(r.Runs), len(WorldsScenes)*len(phases))
	}
	for _, name := range WorldsScenes {
		ref := r.Run(name, n, phases[0])
		for _, p := range phases {
			x := r.Run(name, n, p)
			if x == nil {
				t.Fatalf("%s: no run of %s", name, p)
			}
			if x.Steps != steps || x.First <= 0 || x.Idle <= 0 || x.Broad.Median > x.Broad.P99 || x.Step.Median < x.Broad.Median {
				t.Errorf("%s %s: %d steps, first %v, idle %v, broad %+v, step %+v", name, p, x.Steps, x.First, x.Idle, x.Broad, x.Step)
			}
			if x.Candidates != ref.Candidates || x.Tested != ref.Tested || x.Contacts != ref.Contacts {
				t.Errorf("%s: %s found %g candidates, %g tests, %g contacts a step; %s %g, %g, %g",
					name, p, x.Candidates, x.Tested, x.Contacts, ref.Phase, ref.Candidates, ref.Tested, ref.Contacts)
			}
		}
		if ref.Contacts == 0 {
			t.Errorf("%s: no contacts", name)
		}
	}
	if len(r.Cores) != 2 {
		t.Fatalf("%d cores scenes", len(r.Cores))
	}
	for _, x := range r.Cores {
		if len(x.Runs) != 3 || x.Runs[0].Workers != 1 || !x.Runs[2].Static || x.Steps != steps {
			t.Fatalf("%s: runs %+v, %d steps", x.Scene, x.Runs, x.Steps)
		}
		for _, cr := range x.Runs {
			if cr.Tested != x.Runs[0].Tested || cr.Tested == 0 {
				t.Errorf("%s: %d workers (static %v) made %d tests, one worker %d", x.Scene, cr.Workers, cr.Static, cr.Tested, x.Runs[0].Tested)
			}
		}
	}
	if r.Capacity <= 0 {
		t.Errorf("capacity %g", r.Capacity)
	}
	var buf bytes.Buffer
	if err := r.WriteMarkdown(&buf); err != nil {
		t.Fatal(err)
	}
	md := buf.String()
	for _, s := range []string{"# collide bench --worlds", "### brownian", "### fall", "### gravity", "Fastest broad phase",
		"## Cores and balancing", "tori (100)"} {
		if !strings.Contains(md, s) {
			t.Errorf("the report lacks %q", s)
		}
	}
	if strings.Contains(md, "CDFast") {
		t.Error("the report has a CDFast section though NoCDFast")
	}
}

// TestWorldsSceneBoxes checks a scene's box trace against the world that
// plays it: step 0 adds every object with its box, each later step moves
// exactly the objects whose pose changed, with the boxes the world has;
// the trace keeps the rules of the format.
func TestWorldsSceneBoxes(t *testing.T) {
	for _, name := range []string{"brownian", "fall"} {
		s, err := scene.Builtin(name, 60, 3)
		if err != nil {
			t.Fatal(err)
		}
		const steps = 6
		src := SceneBoxes(s, steps)
		if o, st := src.Header(); o != 60 || st != steps {
			t.Fatalf("%s: header %d objects, %d steps", name, o, st)
		}
		p, err := scene.NewPlayer(s, world.Options{Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		w := p.World()
		prev := map[world.ID]any{}
		var bs BoxStep
		for step := range steps {
			if err := src.Next(&bs); err != nil {
				t.Fatalf("%s step %d: %v", name, step, err)
			}
			if _, err := p.Step(); err != nil {
				t.Fatal(err)
			}
			var moved []int32
			for i := range s.Objects {
				id := p.ID(i)
				if pose := w.Pose(id); prev[id] != pose {
					moved = append(moved, int32(id))
					prev[id] = pose
				}
			}
			if step == 0 {
				if len(bs.Add) != 60 || len(bs.Move) != 0 {
					t.Fatalf("%s step 0: %d adds, %d moves", name, len(bs.Add), len(bs.Move))
				}
				for _, a := range bs.Add {
					if a.Box != w.Bounds(world.ID(a.ID)) || a.Static != w.Static(world.ID(a.ID)) {
						t.Errorf("%s step 0: add %+v, world box %v", name, a, w.Bounds(world.ID(a.ID)))
					}
				}
				continue
			}
			var got []int32
			for _, m := range bs.Move {
				got = append(got, m.ID)
				if m.Box != w.Bounds(world.ID(m.ID)) {
					t.Errorf("%s step %d: move %+v, world box %v", name, step, m, w.Bounds(world.ID(m.ID)))
				}
			}
			if len(bs.Add) != 0 || len(bs.Remove) != 0 || !slices.Equal(got, moved) {
				t.Errorf("%s step %d: moves %v, want %v (%d adds, %d removes)", name, step, got, moved, len(bs.Add), len(bs.Remove))
			}
		}
		if err := src.Next(&bs); !errors.Is(err, io.EOF) {
			t.Errorf("%s: after the last step: %v", name, err)
		}
		var buf bytes.Buffer
		if err := WriteBoxTrace(&buf, SceneBoxes(s, steps)); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if _, err := ReadBoxTrace(&buf); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
}

// TestWorldsPeersGo replays small scenes' traces through collide's broad
// phases alone (no driver): none misses or invents a pair.
func TestWorldsPeersGo(t *testing.T) {
	r, err := RunWorldsPeers(WorldsPeersConfig{Seed: 1, Sizes: []int{150}, Steps: 5})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Scenes) != len(WorldsScenes) {
		t.Fatalf("%d scenes", len(r.Scenes))
	}
	for _, s := range r.Scenes {
		if s.Objects != 150 || s.Steps != 5 {
			t.Errorf("%s: %d objects, %d steps", s.Name, s.Objects, s.Steps)
		}
		for _, sys := range r.Systems {
			run := r.Run(s.Name, sys)
			if sys == "collide brute" {
				t.Errorf("brute ran")
			}
			if run == nil || run.Err != "" || len(run.Update) != 5 {
				t.Fatalf("%s %s: %+v", s.Name, sys, run)
			}
			if missed, extra, _ := run.Sums(); missed != 0 || extra != 0 || run.Invalid != 0 {
				t.Errorf("%s %s: %d missed, %d extra, %d invalid", s.Name, sys, missed, extra, run.Invalid)
			}
		}
	}
}
