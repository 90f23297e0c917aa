package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBenchCh2 runs bench --ch2 on short flights and checks the report,
// then the flags that do not go with it.
func TestBenchCh2(t *testing.T) {
	dir := t.TempDir()
	stdout, stderr, code := runCLI(t, "bench", "--ch2", "--quick", "--steps", "20", "-o", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	report := filepath.Join(dir, "ch2.md")
	if !strings.Contains(stdout, "wrote "+report) {
		t.Errorf("stdout: %q", stdout)
	}
	b, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"# collide bench --ch2", "## The chapter's scoring", "| tetrahedra | tetra |"} {
		if !strings.Contains(string(b), s) {
			t.Errorf("ch2.md lacks %q", s)
		}
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--worlds"}, "--ch2"},
		{[]string{"--sizes", "10"}, "--sizes"},
		{[]string{"--scenes", "pipes"}, "--scenes"},
		{[]string{"-o", ""}, "-o"},
	} {
		args := append([]string{"bench", "--ch2", "--force"}, c.args...)
		if _, stderr, code := runCLI(t, args...); code != exitUsage || !strings.Contains(stderr, c.want) {
			t.Errorf("%q: exit %d, %s", args, code, stderr)
		}
	}
}
