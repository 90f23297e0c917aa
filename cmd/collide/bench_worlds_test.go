package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBenchWorlds runs bench --worlds on tiny scenes and checks the report
// and the messages; a second run keeps the report unless --force.
func TestBenchWorlds(t *testing.T) {
	dir := t.TempDir()
	args := []string{"bench", "--worlds", "--quick", "--steps", "3", "--sizes", "200", "--scenes", "brownian,fall", "-o", dir}
	stdout, stderr, code := runCLI(t, args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	report := filepath.Join(dir, "worlds.md")
	if !strings.Contains(stdout, "wrote "+report) {
		t.Errorf("stdout: %q", stdout)
	}
	b, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}
	md := string(b)
	for _, s := range []string{"# collide bench --worlds", "## CDFast's experiments", "### Table 1: the torus", "### brownian", "### fall",
		"## Cores and balancing", "| 200 | dbvt |"} {
		if !strings.Contains(md, s) {
			t.Errorf("worlds.md lacks %q", s)
		}
	}
	if strings.Contains(md, "### gravity") {
		t.Error("worlds.md has gravity, which --scenes left out")
	}
	if _, stderr, code := runCLI(t, args...); code != exitError || !strings.Contains(stderr, "worlds.md") {
		t.Errorf("second run: exit %d, %s", code, stderr)
	}
}

// TestBenchWorldsUsage checks the flags that go, or do not go, with
// --worlds.
func TestBenchWorldsUsage(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"bench", "--sizes", "100"}, "--sizes"},
		{[]string{"bench", "--worlds", "--sizes", "0"}, "--sizes"},
		{[]string{"bench", "--worlds", "--sizes", "1e3"}, "--sizes"},
		{[]string{"bench", "--worlds", "--scenes", "pipes"}, "--scenes"},
		{[]string{"bench", "--worlds", "--peers", "--slow-steps", "5"}, "--slow-steps"},
		{[]string{"bench", "--worlds", "-o", ""}, "-o"},
	} {
		c.args = append(c.args, "--force")
		if _, stderr, code := runCLI(t, c.args...); code != exitUsage || !strings.Contains(stderr, c.want) {
			t.Errorf("%q: exit %d, %s", c.args, code, stderr)
		}
	}
	_, stderr, code := runCLI(t, "bench", "--worlds", "--peers", "--driver", filepath.Join(dir, "nowhere"), "-o", dir)
	if code != exitError || !strings.Contains(stderr, "driver") {
		t.Errorf("--worlds --peers without a driver: exit %d, %s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "worlds-peers.md")); err == nil {
		t.Error("a report was written")
	}
}
