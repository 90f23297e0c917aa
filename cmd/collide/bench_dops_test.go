package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBenchDops runs bench --dops on short flights of one scene and checks
// the report, then the flags that do not go with it.
func TestBenchDops(t *testing.T) {
	dir := t.TempDir()
	stdout, stderr, code := runCLI(t, "bench", "--dops", "--quick", "--steps", "5", "--scenes", "torus", "-o", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	report := filepath.Join(dir, "dops.md")
	if !strings.Contains(stdout, "wrote "+report) {
		t.Errorf("stdout: %q", stdout)
	}
	b, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"## torus", "| 8-DOP |", "| 20-DOP |", "## Ranks", "## The dissertation's conclusions", "## Ours"} {
		if !strings.Contains(string(b), s) {
			t.Errorf("dops.md lacks %q", s)
		}
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--grains"}, "--dops"},
		{[]string{"--sizes", "10"}, "--sizes"},
		{[]string{"--scenes", "gears"}, "--scenes"},
		{[]string{"-o", ""}, "-o"},
	} {
		args := append([]string{"bench", "--dops", "--quick", "-o", t.TempDir()}, c.args...)
		_, stderr, code := runCLI(t, args...)
		if code != exitUsage || !strings.Contains(stderr, c.want) {
			t.Errorf("%q: exit %d, stderr %q", args, code, stderr)
		}
	}
}
