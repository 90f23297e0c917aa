package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBenchGrains runs bench --grains on tiny flights and checks the
// report, then the flags that do not go with it.
func TestBenchGrains(t *testing.T) {
	dir := t.TempDir()
	stdout, stderr, code := runCLI(t, "bench", "--grains", "--quick", "--steps", "20", "--rounds", "1", "--sizes", "42", "-o", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	report := filepath.Join(dir, "grains.md")
	if !strings.Contains(stdout, "wrote "+report) {
		t.Errorf("stdout: %q", stdout)
	}
	b, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"# collide bench --grains", "| 2×42 | kdop18 | first contact |", "## The concurrent module"} {
		if !strings.Contains(string(b), s) {
			t.Errorf("grains.md lacks %q", s)
		}
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--worlds"}, "--grains"},
		{[]string{"--sizes", "10"}, "--sizes"},
		{[]string{"--sizes", "x"}, "--sizes"},
		{[]string{"--scenes", "pipes"}, "--scenes"},
		{[]string{"-o", ""}, "-o"},
	} {
		args := append([]string{"bench", "--grains", "--force"}, c.args...)
		if _, stderr, code := runCLI(t, args...); code != exitUsage || !strings.Contains(stderr, c.want) {
			t.Errorf("%q: exit %d, %s", args, code, stderr)
		}
	}
}
