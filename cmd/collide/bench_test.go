package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/collide3d/collide/bench/scenes"
)

// TestBenchSlowStepsUsage checks --slow-steps: it goes with --peers, and
// takes a count of steps or -1.
func TestBenchSlowStepsUsage(t *testing.T) {
	for _, args := range [][]string{
		{"bench", "--slow-steps", "5"},
		{"bench", "--peers", "--slow-steps", "-2"},
	} {
		if _, stderr, code := runCLI(t, args...); code != exitUsage || !strings.Contains(stderr, "--slow-steps") {
			t.Errorf("%q: exit %d, %s", args, code, stderr)
		}
	}
}

// TestBenchMissingMeshes checks that a scene of real meshes, asked for
// when Debian's libcgal-demo is not installed, fails saying how to install
// it.
func TestBenchMissingMeshes(t *testing.T) {
	dir := t.TempDir()
	t.Setenv(scenes.CGALDataEnv, filepath.Join(dir, "nowhere"))
	_, stderr, code := runCLI(t, "bench", "--quick", "--scenes", "dragon", "-o", dir)
	if code != exitError || !strings.Contains(stderr, scenes.CGALInstall) {
		t.Errorf("exit %d, %s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "report.md")); err == nil {
		t.Error("a report was written")
	}
}
