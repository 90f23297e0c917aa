package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBenchCh6 runs bench --ch6 on a short flight of one scene and checks
// the report, then the flags that do not go with it.
func TestBenchCh6(t *testing.T) {
	dir := t.TempDir()
	stdout, stderr, code := runCLI(t, "bench", "--ch6", "--quick", "--scenes", "swept", "--steps", "5", "--rounds", "1", "-o", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	report := filepath.Join(dir, "ch6.md")
	if !strings.Contains(stdout, "wrote "+report) {
		t.Errorf("stdout: %q", stdout)
	}
	b, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"# collide bench --ch6", "## Splitting along any of the k/2 directions", "| swept | original |", "## The flying leaf threshold"} {
		if !strings.Contains(string(b), s) {
			t.Errorf("ch6.md lacks %q", s)
		}
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--worlds"}, "--ch6"},
		{[]string{"--sizes", "10"}, "--sizes"},
		{[]string{"--scenes", "gears"}, "--scenes"},
		{[]string{"-o", ""}, "-o"},
	} {
		args := append([]string{"bench", "--ch6", "--force"}, c.args...)
		if _, stderr, code := runCLI(t, args...); code != exitUsage || !strings.Contains(stderr, c.want) {
			t.Errorf("%q: exit %d, %s", args, code, stderr)
		}
	}
}
