package coherence

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/bench/internal/flights"
	"github.com/collide3d/collide/bench/scenes"
)

// TestFront flies two quick scenes with three kinds of tree, from the
// roots and with a front (Run checks every step's answers), runs the
// budgets, and checks the report's figures and sections.
func TestFront(t *testing.T) {
	if testing.Short() {
		t.Skip("flies scenes")
	}
	c := Config{Size: scenes.Quick, Seed: 1, Scenes: []string{"torus", "swept"}, BVs: []string{"kdop18", "obb", "boxtree"}, Steps: 60}
	r, err := Run(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := len(r.Flights), 2*3*2; got != want {
		t.Fatalf("%d flights, want %d", got, want)
	}
	if got, want := len(r.Budgets), 2*3; got != want {
		t.Fatalf("%d budget flights, want %d", got, want)
	}
	for _, f := range r.Flights {
		if f.Steps != 60 {
			t.Errorf("%s, %s: %d steps", f.name(), modeName(f.All), f.Steps)
		}
		if f.Roots.Nv() == 0 || f.Roots.Stats.Skipped != 0 || f.Roots.FrontMax != 0 {
			t.Errorf("%s, %s: from the roots: %+v", f.name(), modeName(f.All), f.Roots)
		}
		if f.Front.FrontMax == 0 || f.MeanFront() <= 0 {
			t.Errorf("%s, %s: no front: %+v", f.name(), modeName(f.All), f.Front)
		}
		if f.Roots.Times.Median <= 0 || f.Front.Times.Max < f.Front.Times.Median {
			t.Errorf("%s, %s: times %+v, %+v", f.name(), modeName(f.All), f.Roots.Times, f.Front.Times)
		}
		if f.Scene == "swept" && f.Colliding != 0 {
			t.Errorf("swept, %s: %d steps in contact", f.BV, f.Colliding)
		}
	}
	for _, fb := range r.Budgets {
		if len(fb.Runs) != 1+len(DefaultTestBudgets) || fb.Runs[0].Deadline != DefaultDeadline {
			t.Fatalf("%s/%s: runs %+v", fb.Scene, fb.BV, fb.Runs)
		}
		for _, b := range fb.Runs {
			if b.Resolved+b.Maybes != fb.Steps || (b.Maybes > 0) != (b.Resumes > 0) {
				t.Errorf("%s/%s, %s: %+v of %d steps", fb.Scene, fb.BV, b.Name(), b, fb.Steps)
			}
		}
	}
	var buf bytes.Buffer
	if err := r.WriteMarkdown(&buf); err != nil {
		t.Fatal(err)
	}
	md := buf.String()
	for _, s := range []string{"# collide bench --front", "## Front tracking, all pairs", "## Front tracking, first contact",
		"## The dissertation's conclusions", "## Where the front loses", "## Time-critical queries: budgets",
		"largest gain is on Swept", "| swept | boxtree |", "1 ms: resolved", "10000 tests: resolved"} {
		if !strings.Contains(md, s) {
			t.Errorf("the report lacks %q", s)
		}
	}
	if len(r.Conclusions()) != 6 {
		t.Errorf("%d conclusions", len(r.Conclusions()))
	}
}

// TestFrontTinyBudget checks that a budget of one test leaves maybes that
// resume to the unbudgeted answers (flyBudget checks them).
func TestFrontTinyBudget(t *testing.T) {
	sc, info, err := flights.MakeScene("torus", scenes.Quick, 1, 20)
	if err != nil {
		t.Fatal(err)
	}
	env, fly, err := flights.BuildScene(sc, collide.BuildOptions{BV: collide.KDOP18})
	if err != nil {
		t.Fatal(err)
	}
	fb, err := flyBudget(sc, env, fly, "kdop18", info.Steps, DefaultDeadline, []int64{1})
	if err != nil {
		t.Fatal(err)
	}
	b := fb.Runs[1]
	if b.Maybes == 0 || b.Resumes < int64(b.Maybes) || b.MaxResumes < 2 {
		t.Errorf("one test a part: %+v", b)
	}
}

// TestFrontSameAnswer checks that answers that differ are errors.
func TestFrontSameAnswer(t *testing.T) {
	sc, info, err := flights.MakeScene("torus", scenes.Quick, 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	env, fly, err := flights.BuildScene(sc, collide.BuildOptions{BV: collide.KDOP18})
	if err != nil {
		t.Fatal(err)
	}
	var q collide.Query
	m, err := sc.Motion()
	if err != nil {
		t.Fatal(err)
	}
	a := collide.Result{Collide: true, Pairs: []collide.Pair{{Env: 1, Fly: 2}}}
	b := collide.Result{Collide: true, Pairs: []collide.Pair{{Env: 1, Fly: 2}, {Env: 3, Fly: 4}}}
	pose, _ := m.Next(false)
	if err := sameAnswer(&q, env, fly, pose, true, a, b); err == nil || !strings.Contains(err.Error(), "1 pairs from the roots, 2 with the front") {
		t.Errorf("all pairs: %v", err)
	}
	if err := sameAnswer(&q, env, fly, pose, true, b, b); err != nil {
		t.Errorf("the same pairs: %v", err)
	}
	if err := sameAnswer(&q, env, fly, pose, false, a, collide.Result{}); err == nil {
		t.Error("first contact, yes and no: no error")
	}
	// First contact at a pose in contact: a pair in contact and one not.
	for range info.Steps {
		res, err := q.Check(env, fly, pose, collide.QueryOptions{All: true})
		if err != nil {
			t.Fatal(err)
		}
		if res.Collide {
			good := collide.Result{Collide: true, Pairs: []collide.Pair{res.Pairs[0]}}
			if err := sameAnswer(&q, env, fly, pose, false, good, good); err != nil {
				t.Errorf("first contact, a pair in contact: %v", err)
			}
			bad := collide.Result{Collide: true, Pairs: []collide.Pair{{Env: res.Pairs[0].Env, Fly: -1}}}
			if err := sameAnswer(&q, env, fly, pose, false, good, bad); err == nil || !strings.Contains(err.Error(), "not among") {
				t.Errorf("first contact, a pair not in contact: %v", err)
			}
			return
		}
		pose, _ = m.Next(false)
	}
	t.Fatal("no step in contact")
}
