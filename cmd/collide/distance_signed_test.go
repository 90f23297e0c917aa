package main

import (
	"bufio"
	"encoding/json"
	"math"
	"strings"
	"testing"
)

// signedLine is one parsed line of distance --signed --json.
type signedLine struct {
	Pose    int         `json:"pose"`
	Kind    string      `json:"kind"`
	Signed  *float64    `json:"signed"`
	Bound   float64     `json:"bound"`
	Far     bool        `json:"far"`
	Env     *int32      `json:"env"`
	Fly     int32       `json:"fly"`
	PEnv    [3]float64  `json:"p_env"`
	PFly    [3]float64  `json:"p_fly"`
	Depth   *[2]float64 `json:"depth"`
	Move    [3]float64  `json:"move"`
	Exact   bool        `json:"exact"`
	Witness *[3]float64 `json:"witness"`
	Open    string      `json:"open"`
	Stopped bool        `json:"stopped"`
}

// TestDistanceSigned runs distance --signed on two boxes (gen:box spans
// [-1, 1]³) apart, touching, penetrating and far, in JSON and text, an
// open mesh overlapping, and a non-convex pair.
func TestDistanceSigned(t *testing.T) {
	dir := t.TempDir()
	poses := writeFile(t, dir, "poses.txt", []byte(
		"1 0 0 0 1 0 0 0 1 2.5 0 0\n"+ // apart by 0.5
			"1 0 0 0 1 0 0 0 1 2 1 0\n"+ // touching face to face
			"1 0 0 0 1 0 0 0 1 1.75 0.5 0\n"+ // 0.25 in
			"1 0 0 0 1 0 0 0 1 50 0 0\n")) // far with --max 10
	stdout, stderr, code := runCLI(t, "distance", "--signed", "--json", "--max", "10", "--poses", poses, "gen:box", "gen:box")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var lines []signedLine
	sc := bufio.NewScanner(strings.NewReader(stdout))
	for sc.Scan() {
		var l signedLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatalf("%v: %q", err, sc.Text())
		}
		lines = append(lines, l)
	}
	if len(lines) != 4 {
		t.Fatalf("%d lines: %s", len(lines), stdout)
	}
	want := []struct {
		kind   string
		signed float64
	}{{"apart", 0.5}, {"touching", 0}, {"penetrating", -0.25}, {"apart", math.Inf(1)}}
	for i, l := range lines {
		w := want[i]
		if l.Pose != i || l.Kind != w.kind {
			t.Fatalf("pose %d: %+v, want %v", i, l, w.kind)
		}
		if math.IsInf(w.signed, 1) {
			if !l.Far || l.Signed != nil || l.Env != nil {
				t.Fatalf("pose %d: far: %+v", i, l)
			}
			continue
		}
		if l.Signed == nil || math.Abs(*l.Signed-w.signed) > 1e-12 || l.Env == nil {
			t.Fatalf("pose %d: %+v, want signed %v", i, l, w.signed)
		}
		if w.kind == "penetrating" {
			if l.Depth == nil || !l.Exact || l.Depth[0] > 0.25+1e-12 || l.Depth[1] < 0.25-1e-12 || math.Abs(l.Move[0]-0.25) > 1e-12 {
				t.Fatalf("pose %d: %+v", i, l)
			}
		} else if l.Depth != nil {
			t.Fatalf("pose %d: depth on a %s pose", i, l.Kind)
		}
		if w.kind == "touching" && l.PEnv != l.PFly {
			t.Fatalf("pose %d: contact points %v %v", i, l.PEnv, l.PFly)
		}
	}
	// Text, with its summary.
	stdout, stderr, code = runCLI(t, "distance", "--signed", "--poses", poses, "gen:box", "gen:box")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, s := range []string{"pose 0: apart, signed distance 0.5 ", "pose 1: touching, signed distance 0,", "pose 2: penetrating, signed distance -0.25, depth in [0.25, 0.25], exact, move (0.25 0 0)", "4 poses: 2 apart, 1 touching, 1 penetrating, 0 overlapping"} {
		if !strings.Contains(stdout, s) {
			t.Errorf("no %q in\n%s", s, stdout)
		}
	}
	// Non-convex: certified bounds and a witness.
	stdout, stderr, code = runCLI(t, "distance", "--signed", "--json", "--pose", "1 0 0 0 1 0 0 0 1 2.3 0.2 0.1", "gen:torus:tris=256", "gen:icosphere:tris=80")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var l signedLine
	if err := json.Unmarshal([]byte(stdout), &l); err != nil {
		t.Fatal(err)
	}
	if l.Kind != "penetrating" || l.Depth == nil || !(l.Depth[0] > 0) || l.Depth[0] > l.Depth[1] || *l.Signed != -l.Depth[1] || l.Witness == nil {
		t.Fatalf("torus: %+v", l)
	}
	// An open mesh: overlapping, no depth.
	open := writeFile(t, dir, "open.obj", []byte("v -3 -3 0\nv 3 -3 0\nv 0 3 0\nf 1 2 3\n"))
	stdout, stderr, code = runCLI(t, "distance", "--signed", "--json", "gen:box", open)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	l = signedLine{}
	if err := json.Unmarshal([]byte(stdout), &l); err != nil {
		t.Fatal(err)
	}
	if l.Kind != "overlapping" || l.Open != "fly" || *l.Signed != 0 || l.Depth != nil {
		t.Fatalf("open: %s", stdout)
	}
}
