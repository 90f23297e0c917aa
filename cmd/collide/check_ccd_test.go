package main

import (
	"encoding/json"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/collide3d/collide/ccd"
	"github.com/collide3d/collide/geom"
)

// The tunnelling scene: a small box (0.2 a side) moving down through a thin
// plate (0.02 thick, 4 wide) in one motion (motion 0), from z = 1 to
// z = -1, then sideways beside the plate (motion 1): the discrete check at
// each pose finds no contact. With the box tilted by tunnelTilt (the same
// rotation at every pose: the motions translate), its lowest corner, at
// 0.1·(|r20|+|r21|+|r22|) below its centre, meets the plate's top, at
// z = 0.01, at tunnelTOI; upright, at t = 0.445.
const (
	plateModel = "gen:box:minx=-2,maxx=2,miny=-2,maxy=2,minz=-0.01,maxz=0.01"
	smallBox   = "gen:box:minx=-0.1,maxx=0.1,miny=-0.1,maxy=0.1,minz=-0.1,maxz=0.1"
)

// tunnelPoses returns the pose file of the tunnelling scene, the box
// turned by rot, and the time at which it meets the plate.
func tunnelPoses(rot geom.Mat3) (file string, toi float64) {
	var b strings.Builder
	b.WriteString("# through the plate, then beside it\n")
	for _, t := range []geom.Vec3{{X: 0.03, Y: 0.02, Z: 1}, {X: 0.03, Y: 0.02, Z: -1}, {X: 0.03, Y: 5, Z: -1}} {
		b.WriteString(formatPose(geom.Pose{R: rot, T: t}) + "\n")
	}
	low := 0.1 * (math.Abs(rot[2][0]) + math.Abs(rot[2][1]) + math.Abs(rot[2][2]))
	return b.String(), (1 - 0.01 - low) / 2
}

// tunnelTilt is the box's tilt in the tunnelling scene: no edge of the box
// parallel to one of the plate.
var tunnelTilt = geom.AxisAngle(geom.Vec3{X: 0.3, Y: 0.5, Z: 0.8}, 0.7).Mat3()

const tunnelMotions = 2 // motions of tunnelPoses

// motionLine is one parsed line of check --ccd --json.
type motionLine struct {
	Motion  int         `json:"motion"`
	Hit     bool        `json:"hit"`
	TOI     []float64   `json:"toi"`
	Pair    []int32     `json:"pair"`
	Maybe   bool        `json:"maybe"`
	Stopped bool        `json:"stopped"`
	Stats   motionStats `json:"stats"`
	Secs    float64     `json:"seconds"`
}

// motionStats is the stats of a line of check --ccd --json: the counts of
// check's, the spans of time a turning motion's search visited and the
// pairs of triangles decided exactly.
type motionStats struct {
	jsonStats
	Spans int64 `json:"spans"`
	Exact int64 `json:"exact"`
}

// parseMotions parses the output of check --ccd --json, checking each
// line's keys: toi on a hit, a maybe or a query stopped, pair on a hit,
// stopped only when true.
func parseMotions(t *testing.T, out string) []motionLine {
	t.Helper()
	var lines []motionLine
	for i, s := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		var raw map[string]json.RawMessage
		if err := json.Unmarshal([]byte(s), &raw); err != nil {
			t.Fatalf("line %d %q: %v", i+1, s, err)
		}
		var l motionLine
		dec := json.NewDecoder(strings.NewReader(s))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&l); err != nil {
			t.Fatalf("line %d %q: %v", i+1, s, err)
		}
		want := []string{"hit", "maybe", "motion", "seconds", "stats"}
		if l.Hit || l.Maybe || l.Stopped {
			want = append(want, "toi")
		}
		if l.Stopped {
			want = append(want, "stopped")
		}
		if l.Hit {
			want = append(want, "pair")
		}
		slices.Sort(want)
		if keys := sortedKeys(raw); !slices.Equal(keys, want) {
			t.Errorf("line %d %q: keys %v, want %v", i+1, s, keys, want)
		}
		if !strings.HasPrefix(s, `{"motion":`) || l.Motion != i {
			t.Errorf("line %d %q: want motion %d first", i+1, s, i)
		}
		if l.Hit && l.Maybe {
			t.Errorf("line %d %q: hit and maybe", i+1, s)
		}
		if l.TOI != nil && (len(l.TOI) != 2 || !(0 <= l.TOI[0] && l.TOI[0] <= l.TOI[1] && l.TOI[1] <= 1)) {
			t.Errorf("line %d %q: toi is not an interval in [0, 1]", i+1, s)
		}
		if l.Hit && !l.Stopped && l.TOI[1]-l.TOI[0] > ccd.MaxWidth {
			t.Errorf("line %d %q: toi wider than 2^-40", i+1, s)
		}
		if l.Pair != nil && len(l.Pair) != 2 {
			t.Errorf("line %d %q: pair is not 2 triangles", i+1, s)
		}
		lines = append(lines, l)
	}
	return lines
}

// TestCheckCCDTunnel checks the tunnelling scene: the discrete check at
// every pose finds nothing, check --ccd finds the box passing through the
// plate in motion 0, and nothing in motion 1, with every bounding volume
// and brute force. (The hit needs the continuous solvers.)
func TestCheckCCDTunnel(t *testing.T) {
	file, toi := tunnelPoses(tunnelTilt)
	poses := writeFile(t, t.TempDir(), "poses.txt", []byte(file))
	// The samples miss the contact.
	stdout, stderr, code := runCLI(t, "check", "--json", "--poses", poses, plateModel, smallBox)
	if code != exitOK {
		t.Fatalf("discrete: exit %d\n%s", code, stderr)
	}
	for _, l := range parseCheckJSON(t, stdout) {
		if l.Collide {
			t.Fatalf("discrete: pose %d collides; the scene should tunnel", l.Pose)
		}
	}
	for _, bv := range []string{"brute", "kdop18", "obb", "kdop6"} {
		stdout, stderr, code := runCLI(t, "check", "--ccd", "--json", "--bv", bv, "--poses", poses, plateModel, smallBox)
		if code != exitOK {
			t.Fatalf("--bv %s: exit %d\n%s", bv, code, stderr)
		}
		lines := parseMotions(t, stdout)
		if len(lines) != tunnelMotions {
			t.Fatalf("--bv %s: %d lines, want %d:\n%s", bv, len(lines), tunnelMotions, stdout)
		}
		if l := lines[0]; !l.Hit || !(l.TOI[0]-1e-12 <= toi && toi <= l.TOI[1]+1e-12) || l.Maybe {
			t.Errorf("--bv %s: motion 0 through the plate: %+v, want a hit at t = %v", bv, l, toi)
		}
		if l := lines[1]; l.Hit || l.Maybe {
			t.Errorf("--bv %s: motion 1 beside the plate: %+v, want no contact", bv, l)
		}
	}
}

// TestCheckCCDText checks the text form of check --ccd: a line per motion,
// then a summary, on the tunnelling scene with the box upright (its edges
// parallel to the plate's: the solvers' exact path). (The contact needs
// the continuous solvers.)
func TestCheckCCDText(t *testing.T) {
	file, toi := tunnelPoses(geom.Identity().R)
	if toi != 0.445 {
		t.Fatalf("upright box: toi %v", toi)
	}
	poses := writeFile(t, t.TempDir(), "poses.txt", []byte(file))
	stdout, stderr, code := runCLI(t, "check", "--ccd", "--poses", poses, plateModel, smallBox)
	if code != exitOK {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
	if len(lines) != tunnelMotions+1 {
		t.Fatalf("%d lines, want %d:\n%s", len(lines), tunnelMotions+1, stdout)
	}
	for i, prefix := range []string{"motion 0: collide at t in [0.44", "motion 1: no contact (bv tests ", "2 motions, 1 in contact, "} {
		if !strings.HasPrefix(lines[i], prefix) {
			t.Errorf("line %d %q does not start with %q", i+1, lines[i], prefix)
		}
	}
	if !strings.Contains(lines[0], "], pair ") {
		t.Errorf("line 1 %q does not name the pair", lines[0])
	}
}

// TestCheckCCDFormat checks the output's form with a motion the stub
// answers too (no contact), the JSON lines' keys and the agreement of the
// text and JSON forms.
func TestCheckCCDFormat(t *testing.T) {
	poses := writeFile(t, t.TempDir(), "poses.txt", []byte("# far apart\n1 0 0 0 1 0 0 0 1 0 0 5\n1 0 0 0 1 0 0 0 1 1 0 5\n"))
	stdout, stderr, code := runCLI(t, "check", "--ccd", "--json", "--poses", poses, plateModel, smallBox)
	if code != exitOK {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	lines := parseMotions(t, stdout)
	if len(lines) != 1 || lines[0].Hit || lines[0].Maybe || lines[0].TOI != nil || lines[0].Pair != nil {
		t.Errorf("want one line of no contact:\n%s", stdout)
	}
	stdout, stderr, code = runCLI(t, "check", "--ccd", "--poses", poses, plateModel, smallBox)
	if code != exitOK || !strings.HasPrefix(stdout, "motion 0: no contact (bv tests ") || strings.Count(stdout, "\n") != 1 {
		t.Errorf("text: exit %d, output (want one line, no summary for one motion):\n%s%s", code, stdout, stderr)
	}
}

// TestCheckCCDSpans checks that check --ccd reports the spans of time a
// turning motion's search visits (the work beyond the tree's counts, which
// its budget bounds), and none for a motion that does not turn.
func TestCheckCCDSpans(t *testing.T) {
	dir := t.TempDir()
	turn := geom.AxisAngle(geom.Vec3{X: 0.2, Y: 1, Z: 0.1}, 1.2).Mat3()
	var b strings.Builder
	for _, p := range []geom.Pose{
		{R: tunnelTilt, T: geom.Vec3{X: 0.03, Y: 0.02, Z: 1}},
		{R: turn, T: geom.Vec3{X: 0.03, Y: 0.02, Z: -1}},
		{R: turn, T: geom.Vec3{X: 0.03, Y: 5, Z: -1}},
	} {
		b.WriteString(formatPose(p) + "\n")
	}
	poses := writeFile(t, dir, "poses.txt", []byte(b.String()))
	stdout, stderr, code := runCLI(t, "check", "--ccd", "--json", "--poses", poses, plateModel, smallBox)
	if code != exitOK {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	lines := parseMotions(t, stdout)
	if len(lines) != 2 {
		t.Fatalf("want 2 motions:\n%s", stdout)
	}
	if !lines[0].Hit || lines[0].Stats.Spans <= 0 {
		t.Errorf("motion 0 turns through the plate: want a hit and spans > 0:\n%s", stdout)
	}
	if lines[1].Hit || lines[1].Maybe || lines[1].Stats.Spans != 0 {
		t.Errorf("motion 1 does not turn and passes beside the plate: want no contact and 0 spans:\n%s", stdout)
	}
	stdout, stderr, code = runCLI(t, "check", "--ccd", "--poses", poses, plateModel, smallBox)
	if code != exitOK || !strings.Contains(strings.Split(stdout, "\n")[0], "spans of time ") || strings.Contains(strings.Split(stdout, "\n")[1], "spans") {
		t.Errorf("text: exit %d, want the spans on motion 0's line only:\n%s%s", code, stdout, stderr)
	}
}

// TestCheckCCDUsage checks the usage errors of check --ccd, which say why,
// and that a bad pose file is still an error naming its line.
func TestCheckCCDUsage(t *testing.T) {
	dir := t.TempDir()
	two := writeFile(t, dir, "two.txt", []byte(identityPose+"\n"+identityPose+"\n"))
	one := writeFile(t, dir, "one.txt", []byte("# one\n"+identityPose+"\n"))
	bad := writeFile(t, dir, "bad.txt", []byte(identityPose+"\n1 0 0\n"))
	m := "gen:icosphere:tris=20"
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--ccd"}, "--ccd needs --poses"},
		{[]string{"--ccd", "--pose", identityPose}, "--pose gives one pose, no motion"},
		{[]string{"--ccd", "--poses", one}, "--ccd needs at least 2 poses"},
		{[]string{"--ccd", "--poses", two, "--all"}, "--ccd with --all: a continuous query reports the earliest contact"},
		{[]string{"--ccd", "--poses", two, "--eps", "0.1"}, "--ccd with --eps 0.1: a continuous query reports the earliest contact"},
		{[]string{"--ccd", "--poses", two, "--max-pairs", "3"}, "--ccd with --max-pairs"},
		{[]string{"--ccd", "--poses", two, "--restart"}, "--ccd with --restart"},
		{[]string{"--ccd", "--poses", two, "--exact-root"}, "--ccd with --exact-root"},
		{[]string{"--ccd=x", "--poses", two}, "invalid boolean value"},
		{[]string{"--poses", two, "--deadline", "1s"}, "--deadline bounds the continuous query: it needs --ccd"},
		{[]string{"--ccd", "--poses", two, "--deadline", "-1s"}, "--deadline must be >= 0"},
		{[]string{"--ccd", "--poses", two, "--deadline", "soon"}, "invalid value"},
	}
	for _, tc := range tests {
		args := append(append([]string{"check"}, tc.args...), m, m)
		stdout, stderr, code := runCLI(t, args...)
		if code != exitUsage || !strings.Contains(stderr, tc.want) || !strings.Contains(stderr, "usage: collide check") || stdout != "" {
			t.Errorf("%q: exit %d, want 2 and %q\n%s%s", tc.args, code, tc.want, stdout, stderr)
		}
	}
	// --eps 0 is the default: allowed.
	if _, stderr, code := runCLI(t, "check", "--ccd", "--eps", "0", "--poses", two, m, m); code != exitOK {
		t.Errorf("--eps 0: exit %d\n%s", code, stderr)
	}
	if _, stderr, code := runCLI(t, "check", "--ccd", "--poses", bad, m, m); code != exitError || !strings.Contains(stderr, bad+": line 2") {
		t.Errorf("bad pose file: exit %d\n%s", code, stderr)
	}
	if stdout, _, code := runCLI(t, "help", "check"); code != exitOK || !strings.Contains(stdout, "--ccd") || !strings.Contains(stdout, `{"motion":I,"hit":BOOL`) {
		t.Errorf("help check: exit %d\n%s", code, stdout)
	}
}

// TestCheckCCDDeadline checks check --ccd --deadline: a deadline long
// enough changes no answer; one of a nanosecond stops the queries (how
// many depends on the clock, not checked), each stopped line saying so
// and what it proved: no contact before its toi's LO, which is no later
// than the contact, and a hit's interval holding the earliest contact.
func TestCheckCCDDeadline(t *testing.T) {
	file, _ := tunnelPoses(tunnelTilt)
	poses := writeFile(t, t.TempDir(), "poses.txt", []byte(file))
	run := func(args ...string) []motionLine {
		t.Helper()
		args = append(append([]string{"check", "--ccd", "--json", "--poses", poses}, args...), plateModel, smallBox)
		stdout, stderr, code := runCLI(t, args...)
		if code != exitOK {
			t.Fatalf("%q: exit %d\n%s", args, code, stderr)
		}
		return parseMotions(t, stdout)
	}
	full := run()
	long := run("--deadline", "1h")
	for i, l := range long {
		f := full[i]
		if l.Stopped || l.Hit != f.Hit || l.Maybe != f.Maybe || !slices.Equal(l.TOI, f.TOI) || !slices.Equal(l.Pair, f.Pair) {
			t.Errorf("motion %d: --deadline 1h %+v, without %+v", i, l, f)
		}
	}
	for i, l := range run("--deadline", "1ns") {
		f := full[i]
		if !l.Stopped {
			continue
		}
		if f.Hit && l.TOI[0] > f.TOI[1] || l.Hit && (!f.Hit || l.TOI[1] < f.TOI[0]) {
			t.Errorf("motion %d: stopped %+v, without a deadline %+v", i, l, f)
		}
	}
	text, _, _ := runCLI(t, "check", "--ccd", "--deadline", "1h", "--poses", poses, plateModel, smallBox)
	if strings.Contains(text, "stopped") {
		t.Errorf("--deadline 1h, text: %s", text)
	}
}
