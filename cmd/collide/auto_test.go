package main

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/internal/longtest"
	"github.com/collide3d/collide/internal/testgeom"
)

// TestCheckAuto checks check --bv auto against the brute-force oracle on
// some of the adversarial scenes, at random poses, in both modes, with
// other hierarchy flags and with a saved model as a candidate; and that it
// says what it chose.
func TestCheckAuto(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 5))
	for si, sc := range testgeom.AdversarialScenes(3) {
		if si%3 != 0 {
			continue
		}
		t.Run(fmt.Sprintf("%d-%s", si, sc.Name), func(t *testing.T) {
			dir := t.TempDir()
			e := writeOBJ(t, dir, "env.obj", sc.Env)
			f := writeOBJ(t, dir, "fly.obj", sc.Fly)
			fb := sc.Fly.Bounds()
			spread := 0.25 * max(fb.Size().Norm(), sc.Env.Bounds().Size().Norm())
			poses := []geom.Pose{geom.Identity()}
			var text strings.Builder
			text.WriteString(identityPose + "\n")
			for range 3 {
				p := randomPose(r, fb.Center(), spread)
				if p.Validate() != nil {
					continue
				}
				poses = append(poses, p)
				fmt.Fprintf(&text, "%s\n", formatPose(p))
			}
			pf := writeFile(t, dir, "poses.txt", []byte(text.String()))
			saved := filepath.Join(dir, "env.collide")
			if _, stderr, code := runCLI(t, "build", "--bv", "obb", e, "-o", saved); code != exitOK {
				t.Fatalf("build: exit %d: %s", code, stderr)
			}
			for _, cfg := range [][]string{
				{"--bv", "auto", e, f},
				{"--bv", "auto", "--rule", "rapid", "--env-leaf", "2", "--leaf", "3", e, f},
				{"--bv", "auto", saved, f},
			} {
				name := strings.Join(cfg, " ")
				stdout, stderr, code := runCLI(t, slices.Concat([]string{"check", "--all", "--json", "--poses", pf}, cfg)...)
				if code != exitOK {
					t.Fatalf("%s: exit %d\n%s", name, code, stderr)
				}
				if !strings.Contains(stderr, "--bv auto chose ") || !strings.Contains(stderr, "probes") {
					t.Errorf("%s: stderr %q does not say what auto chose", name, stderr)
				}
				lines := parseCheckJSON(t, stdout)
				if len(lines) != len(poses) {
					t.Fatalf("%s: %d lines, want %d", name, len(lines), len(poses))
				}
				for i, p := range poses {
					assertPairs(t, fmt.Sprintf("%s: pose %d", name, i), lines[i].Pairs, testgeom.Brute(sc.Env, sc.Fly, p, 0))
				}
				stdout, stderr, code = runCLI(t, slices.Concat([]string{"check", "--json"}, cfg)...)
				if code != exitOK {
					t.Fatalf("%s: first contact: exit %d\n%s", name, code, stderr)
				}
				want := testgeom.Brute(sc.Env, sc.Fly, geom.Identity(), 0)
				first := parseCheckJSON(t, stdout)[0]
				if first.Collide != (len(want) > 0) || len(first.Pairs) == 1 && !slices.Contains(want, first.Pairs[0]) {
					t.Errorf("%s: first contact %+v, oracle %d pairs", name, first, len(want))
				}
			}
		})
	}
}

// TestAutoUsage checks the command line's errors about --bv auto.
func TestAutoUsage(t *testing.T) {
	dir := t.TempDir()
	e := writeOBJ(t, dir, "env.obj", unitTri())
	_, stderr, code := runCLI(t, "build", "--bv", "auto", e, "-o", filepath.Join(dir, "x.collide"))
	if code != exitUsage || !strings.Contains(stderr, "--bv auto") || !strings.Contains(stderr, "kdop18") {
		t.Errorf("build --bv auto: exit %d, %s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "x.collide")); err == nil {
		t.Error("build --bv auto wrote a file")
	}
	stdout, _, code := runCLI(t, "help", "check")
	if code != exitOK || !strings.Contains(stdout, "--bv auto chooses") || !strings.Contains(stdout, "or auto (") {
		t.Errorf("help check: exit %d, no auto in %s", code, stdout)
	}
}

// TestFlightAuto flies a quick scene with --bv auto: the choice is made
// before the first step, said on stderr, and the flight finds the pairs
// the 18-DOP trees find.
func TestFlightAuto(t *testing.T) {
	args := []string{"flight", "--scene", "torus", "--quick", "--steps", "40", "--all", "--json"}
	want, stderr, code := runCLI(t, append(args, "--bv", "kdop18")...)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	got, stderr, code := runCLI(t, append(args, "--bv", "auto")...)
	if code != exitOK {
		t.Fatalf("--bv auto: exit %d: %s", code, stderr)
	}
	if !strings.Contains(stderr, "collide flight: --bv auto chose ") || !strings.Contains(stderr, "probes") {
		t.Errorf("stderr %q does not say what auto chose", stderr)
	}
	pairs := func(out string) []string {
		var p []string
		for _, l := range strings.Split(out, "\n") {
			if i := strings.Index(l, `"pairs":`); i >= 0 && strings.HasPrefix(l, `{"step":`) {
				j := strings.Index(l[i:], "]]")
				p = append(p, l[i:i+max(j, 0)])
			}
		}
		return p
	}
	if g, w := pairs(got), pairs(want); !slices.Equal(g, w) || len(w) != 40 {
		t.Errorf("--bv auto found other pairs than kdop18 (%d and %d steps)", len(g), len(w))
	}
}

// TestBenchAuto runs collide bench --quick on one scene and checks the
// report's section on auto. A long case (COLLIDE_LONG_TESTS=1): the run is
// TestBenchQuick's over again (the nested spheres take most of it), whose
// report has the section too.
func TestBenchAuto(t *testing.T) {
	longtest.Skip(t)
	dir := t.TempDir()
	if _, stderr, code := runCLI(t, "bench", "--quick", "--scenes", "swept", "--steps", "40", "-o", dir); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	report, err := os.ReadFile(filepath.Join(dir, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"## auto: the kind of tree chosen per pair of models", "| swept | all pairs | ", "| swept | first contact | ",
		"auto picked the fastest kind in "} {
		if !strings.Contains(string(report), want) {
			t.Errorf("the report lacks %q", want)
		}
	}
}
