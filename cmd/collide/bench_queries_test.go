package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/collide3d/collide/bench/queries"
	"github.com/collide3d/collide/bench/scenes"
)

// TestMain makes the test binary a measurement of bench --queries when
// queries.ChildEnv says so, as main does: bench --queries runs its
// measurements in the program run again, here this binary.
func TestMain(m *testing.M) {
	if queries.Child() {
		os.Exit(queries.RunChild(os.Stdout))
	}
	os.Exit(m.Run())
}

// TestBenchQueries runs bench --queries on the contact row, one round,
// with the real meshes' row asked for but not installed: the report is
// written with both rows, the missing one left out saying how to install
// the meshes; a second run keeps the report unless --force. Nothing is
// timed.
func TestBenchQueries(t *testing.T) {
	dir := t.TempDir()
	t.Setenv(scenes.CGALDataEnv, filepath.Join(dir, "nowhere"))
	args := []string{"bench", "--queries", "--quick", "--rounds", "1", "--cap", "1m", "--scenes", "bull-homer,torus-touch", "-o", dir}
	stdout, stderr, code := runCLI(t, args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	report := filepath.Join(dir, "queries.md")
	if !strings.Contains(stdout, "wrote "+report+": 2 rows") {
		t.Errorf("stdout: %q", stdout)
	}
	if !strings.Contains(stderr, "left out: bull-homer") || !strings.Contains(stderr, scenes.CGALInstall) {
		t.Errorf("stderr does not say the real meshes' row was left out: %s", stderr)
	}
	b, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}
	md := string(b)
	for _, s := range []string{"## Summary", "| bull-homer | distance | 20 ms | skipped |", "### torus-touch:", "Reference: brute force, distance 0", "| rss |"} {
		if !strings.Contains(md, s) {
			t.Errorf("queries.md lacks %q", s)
		}
	}
	if _, stderr, code := runCLI(t, args...); code != exitError || !strings.Contains(stderr, "queries.md") {
		t.Errorf("second run: exit %d, %s", code, stderr)
	}
}

// TestBenchQueriesUsage checks the flags that do not go with --queries,
// and --cap and --drain without it.
func TestBenchQueriesUsage(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"bench", "--queries", "--worlds"}, "--queries"},
		{[]string{"bench", "--queries", "--front"}, "--queries"},
		{[]string{"bench", "--queries", "--steps", "3"}, "--steps"},
		{[]string{"bench", "--queries", "--driver", "x"}, "--driver"},
		{[]string{"bench", "--queries", "--scenes", "pipes"}, "--scenes"},
		{[]string{"bench", "--queries", "--cap", "-1s"}, "--cap"},
		{[]string{"bench", "--queries", "-o", ""}, "-o"},
		{[]string{"bench", "--cap", "1s"}, "--cap"},
		{[]string{"bench", "--front", "--drain", "1s"}, "--drain"},
		{[]string{"bench", "--before", "x"}, "--before"},
	} {
		if _, stderr, code := runCLI(t, c.args...); code != exitUsage || !strings.Contains(stderr, c.want) {
			t.Errorf("%q: exit %d, %s", c.args, code, stderr)
		}
	}
}
