package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh/gen"
)

// TestNCSolid checks --solid on a closed box: a plunge that stays inside
// it is a gouge "inside" in text and JSON (and nothing without --solid), a
// move touching its top is reported by its triangles either way, and the
// summary counts the inside tests.
func TestNCSolid(t *testing.T) {
	dir := t.TempDir()
	box := gen.Must(gen.Box(geom.AABB{Min: geom.V(0, 0, 0), Max: geom.V(40, 40, 60)}, 2))
	part := writeOBJ(t, dir, "box.obj", box)
	prog := writeFile(t, dir, "p.nc", []byte(strings.Join([]string{
		"G0 X10 Y10 Z70",  // move 0: above the box
		"G1 X30 Y10 Z70",  // move 1: above it
		"G1 X30 Y10 Z60",  // move 2: down onto its top: a touch
		"G0 X30 Y30 Z100", // move 3: up (a rapid from the touch)
		"G0 X20 Y20 Z10",  // move 4: a rapid down through the top
		"G1 X25 Y20 Z10",  // move 5: inside, touching nothing
		"G1 X25 Y25 Z12",  // move 6: inside
		"G0 X25 Y25 Z100", // move 7: a rapid out through the top
		"",
	}, "\n")))
	tool := "flat 4 5, shank 4 5, holder 10 20"
	// Text.
	stdout, stderr, code := runCLI(t, "nc", part, prog, "--tool", tool, "--solid")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"lines 6-7: gouge: cutter on part, 2 moves; deepest at line 6, s 0..1, depth 2 mm, inside it (no triangle met)",
		"lines 6-7: holder: holder on part, 2 moves; deepest at line 6, s 0..1, depth 5 mm, inside it (no triangle met)", "inside tests"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("--solid: stdout lacks %q:\n%s", want, stdout)
		}
	}
	plain, stderr, code := runCLI(t, "nc", part, prog, "--tool", tool)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if strings.Contains(plain, "inside") || !strings.Contains(plain, "line 3: gouge: cutter on part") {
		t.Errorf("without --solid:\n%s", plain)
	}
	// JSON: the same violations as without --solid, and the inside ones.
	kinds := func(args ...string) (inside, surface []string, sum map[string]any) {
		stdout, stderr, code := runCLI(t, append([]string{"nc", part, prog, "--tool", tool, "--json"}, args...)...)
		if code != exitOK {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		lines := strings.Split(strings.TrimSpace(stdout), "\n")
		for _, l := range lines[:len(lines)-1] {
			var v struct {
				Move       int
				Kind, Role string
				Depth      float64
				DepthMax   float64 `json:"depth_max"`
				Triangles  []int32
				Inside     bool
			}
			if err := json.Unmarshal([]byte(l), &v); err != nil {
				t.Fatal(err)
			}
			s := strings.Join([]string{strings.Repeat("I", v.Move), v.Kind, v.Role}, " ")
			if v.Inside {
				if len(v.Triangles) != 0 || v.Depth != v.DepthMax || v.Depth <= 0 || !strings.Contains(l, `"triangles":[],"inside":true`) {
					t.Errorf("inside violation %s", l)
				}
				inside = append(inside, s)
			} else {
				surface = append(surface, s)
			}
		}
		var s struct{ Summary map[string]any }
		if err := json.Unmarshal([]byte(lines[len(lines)-1]), &s); err != nil {
			t.Fatal(err)
		}
		return inside, surface, s.Summary
	}
	in, surf, sum := kinds("--solid")
	in0, surf0, sum0 := kinds()
	if strings.Join(surf, ",") != strings.Join(surf0, ",") || len(in0) != 0 {
		t.Errorf("surface violations %q with --solid, %q without (and %q inside)", surf, surf0, in0)
	}
	if want := "IIIII gouge cutter,IIIII shank shank,IIIII holder holder,IIIIII gouge cutter,IIIIII shank shank,IIIIII holder holder"; strings.Join(in, ",") != want {
		t.Errorf("inside violations %q, want %q", in, want)
	}
	if sum["solid"] != true || sum["inside_tests"].(float64) <= 0 {
		t.Errorf("summary %v: want solid and inside_tests", sum)
	}
	if _, ok := sum0["solid"]; ok {
		t.Errorf("summary without --solid %v: has \"solid\"", sum0)
	}
	if _, ok := sum0["inside_tests"]; ok {
		t.Errorf("summary without --solid %v: has \"inside_tests\"", sum0)
	}
}

// TestNCSolidNotClosed checks that --solid refuses an open part or
// fixture, naming its file and what breaks.
func TestNCSolidNotClosed(t *testing.T) {
	dir := t.TempDir()
	open := writeOBJ(t, dir, "open.obj", gen.Must(gen.Terrain(8, 10, 1, 0.5, 1)))
	closed := writeOBJ(t, dir, "closed.obj", gen.Must(gen.Box(geom.AABB{Max: geom.V(1, 1, 1)}, 1)))
	prog := writeFile(t, dir, "p.nc", []byte("G0 X0 Y0 Z10\nG1 X1 Y1 Z10\n"))
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{open, prog}, open + ": --solid: not a solid: "},
		{[]string{closed, "--fixture", open, prog}, open + ": --solid: not a solid: "},
	} {
		args := append([]string{"nc", "--tool", "ball 2 4", "--solid"}, c.args...)
		_, stderr, code := runCLI(t, args...)
		if code != exitError || !strings.Contains(stderr, c.want) || !strings.Contains(stderr, "not closed") {
			t.Errorf("collide %q: exit %d, %q: want exit %d naming %q, not closed", args, code, stderr, exitError, c.want)
		}
		if _, stderr, code := runCLI(t, append([]string{"nc", "--tool", "ball 2 4"}, c.args...)...); code != exitOK {
			t.Errorf("without --solid: exit %d: %s", code, stderr)
		}
	}
}

// TestNCSolidDemo runs the demo with --solid: its part closed into a
// block, the runs are those without --solid (its faults all cut the
// surface).
func TestNCSolidDemo(t *testing.T) {
	runs := func(args ...string) (string, string) {
		stdout, stderr, code := runCLI(t, append([]string{"nc"}, args...)...)
		if code != exitOK {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		head, _, ok := strings.Cut(stdout, "\nchecked ")
		if !ok {
			t.Fatalf("no summary: %s", stdout)
		}
		return head, stderr
	}
	solid, stderr := runs("--solid")
	plain, _ := runs()
	if !strings.Contains(stderr, "closed into a block") {
		t.Errorf("stderr does not say the demo's part is closed: %q", stderr)
	}
	if solid != plain || !strings.Contains(plain, ": gouge: cutter on part") {
		t.Errorf("the demo's runs differ with --solid:\n%s\nwithout:\n%s", solid, plain)
	}
}
