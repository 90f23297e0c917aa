package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

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

// TestBenchMissingMeshes checks that a scene of real meshes (each of the
// proximity suite's), asked for when Debian's libcgal-demo is not
// installed, fails saying how to install it.
func TestBenchMissingMeshes(t *testing.T) {
	dir := t.TempDir()
	t.Setenv(scenes.CGALDataEnv, filepath.Join(dir, "nowhere"))
	for _, name := range scenes.ProximityNames() {
		if !scenes.NeedsData(name) {
			continue
		}
		_, stderr, code := runCLI(t, "bench", "--quick", "--scenes", name, "-o", dir)
		if code != exitError || !strings.Contains(stderr, scenes.CGALInstall) {
			t.Errorf("%s: exit %d, %s", name, code, stderr)
		}
		if _, err := os.Stat(filepath.Join(dir, "report.md")); err == nil {
			t.Errorf("%s: a report was written", name)
		}
	}
}

// TestBenchProgressRedirected checks bench's progress when stderr is not a
// terminal (a log): every line that begins a stage (a scene, a table) is
// printed, one line each with the time elapsed, and the lines within a
// stage at most every statusEvery (here none but the first, the interval
// being an hour).
func TestBenchProgressRedirected(t *testing.T) {
	defer func(d time.Duration) { statusEvery = d }(statusEvery)
	statusEvery = time.Hour
	var out, errb bytes.Buffer
	e := &env{stdout: &out, stderr: &errb}
	withStatus(e, "bench", func(progress func(string)) {
		for _, l := range []string{"flight 0 of 3: before any scene", "making scene torus", "flight 1 of 3: torus, kdop6", "flight 2 of 3: torus, kdop14",
			"table 1: costs of kdop6", "table 1: costs of kdop14", "making scene swept", "flight 3 of 3: swept, kdop6",
			"tables 6 and 7: nested spheres of 2000 triangles", "auto: making scene swept", "auto: run 1 of 9: swept, aabb, round 1"} {
			progress(l)
		}
	})
	var got []string
	for _, l := range strings.Split(strings.TrimSuffix(errb.String(), "\n"), "\n") {
		head, _, ok := strings.Cut(l, " (")
		if !ok || !strings.HasSuffix(l, " s)") {
			t.Errorf("line %q does not end with the time elapsed", l)
		}
		got = append(got, head)
	}
	want := []string{"collide bench: flight 0 of 3: before any scene", "collide bench: making scene torus", "collide bench: table 1: costs of kdop6",
		"collide bench: making scene swept", "collide bench: tables 6 and 7: nested spheres of 2000 triangles", "collide bench: auto: making scene swept"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("stderr:\n%s\nwant the lines\n%s", errb.String(), strings.Join(want, "\n"))
	}
	if out.Len() != 0 {
		t.Errorf("stdout: %q", out.String())
	}
}
