package broadpeers

import (
	"bytes"
	"context"
	"errors"
	"io"
	"slices"
	"testing"

	"github.com/collide3d/collide/bench/boxtrace"
	"github.com/collide3d/collide/bench/worlds"
	"github.com/collide3d/collide/scene"
	"github.com/collide3d/collide/world"
)

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
		var bs boxtrace.Step
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
		if err := boxtrace.Write(&buf, SceneBoxes(s, steps)); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if _, err := boxtrace.Read(&buf); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
}

// TestWorldsPeersGo replays small scenes' traces through collide's broad
// phases alone (no driver): none misses or invents a pair.
func TestWorldsPeersGo(t *testing.T) {
	r, err := Run(context.Background(), Config{Seed: 1, Sizes: []int{150}, Steps: 5})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Scenes) != len(worlds.Scenes) {
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
