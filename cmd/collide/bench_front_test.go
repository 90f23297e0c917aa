package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBenchFront runs bench --front on a short quick flight and checks the
// report's sections; a second run keeps the report unless --force.
func TestBenchFront(t *testing.T) {
	dir := t.TempDir()
	args := []string{"bench", "--front", "--quick", "--steps", "20", "--rounds", "2", "--scenes", "torus,swept", "-o", dir}
	stdout, stderr, code := runCLI(t, args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	// stderr is not a terminal here: a line per scene, as go test -v.
	for _, s := range []string{"collide bench --front: making scene torus (", "collide bench --front: making scene swept ("} {
		if !strings.Contains(stderr, s) {
			t.Errorf("stderr lacks %q:\n%s", s, stderr)
		}
	}
	report := filepath.Join(dir, "front.md")
	if !strings.Contains(stdout, "wrote "+report) {
		t.Errorf("stdout: %q", stdout)
	}
	b, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}
	md := string(b)
	for _, s := range []string{"# collide bench --front", "## Scenes", "## Front tracking, all pairs", "## Front tracking, first contact",
		"## The dissertation's conclusions", "## Where the front loses", "## Time-critical queries: budgets",
		"| torus | kdop18 |", "| swept | boxtree |", "1 ms: resolved"} {
		if !strings.Contains(md, s) {
			t.Errorf("front.md lacks %q", s)
		}
	}
	if strings.Contains(md, "| pipes |") {
		t.Error("front.md has pipes, which --scenes left out")
	}
	if _, stderr, code := runCLI(t, args...); code != exitError || !strings.Contains(stderr, "front.md") {
		t.Errorf("second run: exit %d, %s", code, stderr)
	}
}

// TestBenchFrontUsage checks the flags that do not go with --front.
func TestBenchFrontUsage(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"bench", "--front", "--worlds"}, "--front"},
		{[]string{"bench", "--front", "--peers"}, "--front"},
		{[]string{"bench", "--front", "--sizes", "100"}, "--sizes"},
		{[]string{"bench", "--front", "--scenes", "nowhere"}, "--scenes"},
		{[]string{"bench", "--front", "-o", ""}, "-o"},
	} {
		c.args = append(c.args, "--force")
		if _, stderr, code := runCLI(t, c.args...); code != exitUsage || !strings.Contains(stderr, c.want) {
			t.Errorf("%q: exit %d, %s", c.args, code, stderr)
		}
	}
}
