package main

import (
	"strings"
	"testing"
)

// TestCheckMethod runs check with each --method on two spheres apart and in
// contact: the same answers, the convex test saying when a plane decided.
func TestCheckMethod(t *testing.T) {
	poses := []string{"1 0 0 0 1 0 0 0 1 3 0 0", "1 0 0 0 1 0 0 0 1 1.5 0 0"}
	for _, c := range []struct {
		method, pose string
		want, not    []string
	}{
		{"tree", poses[0], []string{"pose 0: no contact"}, []string{"apart by a plane"}},
		{"convex", poses[0], []string{"pose 0: no contact (apart by a plane, bv tests 0, tri tests 0"}, nil},
		{"auto", poses[0], []string{"apart by a plane"}, nil},
		{"convex", poses[1], []string{"pose 0: collide"}, []string{"apart by a plane"}},
		{"tree", poses[1], []string{"pose 0: collide"}, nil},
	} {
		out, errs, code := runCLI(t, "check", "--method", c.method, "--pose", c.pose, "gen:icosphere", "gen:icosphere")
		if code != 0 {
			t.Fatalf("--method %s: exit %d: %s", c.method, code, errs)
		}
		for _, w := range c.want {
			if !strings.Contains(out, w) {
				t.Errorf("--method %s, pose %s: %q lacks %q", c.method, c.pose, out, w)
			}
		}
		for _, w := range c.not {
			if strings.Contains(out, w) {
				t.Errorf("--method %s, pose %s: %q has %q", c.method, c.pose, out, w)
			}
		}
	}
	for _, cmd := range [][]string{{"check", "--method", "gjk", "gen:icosphere", "gen:icosphere"}, {"world", "--method", "", "builtin:brownian"}} {
		_, errs, code := runCLI(t, cmd...)
		if code != 2 || !strings.Contains(errs, "--method") {
			t.Errorf("collide %q: exit %d, %q: want a usage error naming --method", cmd, code, errs)
		}
	}
}

// TestWorldMethod plays a world of small objects with each --method: the
// same contacts at every step, and the convex test's counts in the summary.
func TestWorldMethod(t *testing.T) {
	args := []string{"world", "builtin:brownian", "--n", "120", "--steps", "8", "--all", "--workers", "1", "--seed", "5"}
	var steps []string
	for _, m := range []string{"tree", "convex", "auto"} {
		out, errs, code := runCLI(t, append(args, "--method", m)...)
		if code != 0 {
			t.Fatalf("--method %s: exit %d: %s", m, code, errs)
		}
		body, summary, _ := strings.Cut(out, "\nworld ")
		steps = append(steps, body)
		if has := strings.Contains(summary, "\nconvex "); has != (m != "tree") {
			t.Errorf("--method %s: summary's convex line: %v\n%s", m, has, summary)
		}
	}
	if steps[0] != steps[1] || steps[0] != steps[2] {
		t.Errorf("the steps differ between the methods")
	}
	if !strings.Contains(steps[0], "  ") {
		t.Errorf("no contact in any step: the test tests nothing\n%s", steps[0])
	}
}

// TestBenchObjectsUsage checks bench --objects' refusals (the experiment
// itself is tested in package bench/objects).
func TestBenchObjectsUsage(t *testing.T) {
	for _, args := range [][]string{
		{"bench", "--objects", "--worlds"},
		{"bench", "--objects", "--scenes", "f16"},
		{"bench", "--objects", "-o", ""},
	} {
		_, errs, code := runCLI(t, args...)
		if code != 2 || !strings.Contains(errs, "--objects") && !strings.Contains(errs, "-o") {
			t.Errorf("collide %q: exit %d, %q: want a usage error", args, code, errs)
		}
	}
}

// TestCheckMethodJSON checks check --json's stats with each --method: the
// convex test's counts only when it ran, the tree's alone otherwise.
func TestCheckMethodJSON(t *testing.T) {
	poses := []string{"1 0 0 0 1 0 0 0 1 5 0 0", "1 0 0 0 1 0 0 0 1 0.5 0 0"}
	for _, c := range []struct {
		method, pose string
		want, not    []string
	}{
		{"convex", poses[0], []string{`"collide":false`, `"convex":1,"plane_hits":0,"plane_new":1}`}, nil},
		{"convex", poses[1], []string{`"collide":true`, `"convex":1,"plane_hits":0,"plane_new":0}`}, nil},
		{"tree", poses[0], []string{`"collide":false`, `"leaf_tests":0}`}, []string{`"convex"`}},
	} {
		out, errs, code := runCLI(t, "check", "--json", "--method", c.method, "--pose", c.pose, "gen:icosphere", "gen:icosphere")
		if code != 0 {
			t.Fatalf("--method %s: exit %d: %s", c.method, code, errs)
		}
		for _, w := range c.want {
			if !strings.Contains(out, w) {
				t.Errorf("--method %s, pose %s: %q lacks %q", c.method, c.pose, out, w)
			}
		}
		for _, w := range c.not {
			if strings.Contains(out, w) {
				t.Errorf("--method %s, pose %s: %q has %q", c.method, c.pose, out, w)
			}
		}
	}
}

// TestWorldMethodJSON checks the JSON summary of world --method: the convex
// test's counts with convex, none with tree.
func TestWorldMethodJSON(t *testing.T) {
	args := []string{"world", "builtin:brownian", "--n", "60", "--steps", "4", "--workers", "1", "--json"}
	for _, m := range []string{"tree", "convex"} {
		out, errs, code := runCLI(t, append(args, "--method", m)...)
		if code != 0 {
			t.Fatalf("--method %s: exit %d: %s", m, code, errs)
		}
		lines := strings.Split(strings.TrimSpace(out), "\n")
		sum := lines[len(lines)-1]
		if !strings.HasPrefix(sum, `{"summary":`) {
			t.Fatalf("--method %s: the last line is not the summary: %s", m, sum)
		}
		if has := strings.Contains(sum, `"convex":`) && strings.Contains(sum, `"plane_new":`); has != (m == "convex") {
			t.Errorf("--method %s: the summary's convex counts: %v\n%s", m, has, sum)
		}
	}
}
