package main

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/internal/longtest"
	"github.com/collide3d/collide/internal/testgeom"
	"github.com/collide3d/collide/mesh"
	"github.com/collide3d/collide/mesh/gen"
	"github.com/collide3d/collide/mesh/obj"
)

// runCLI runs the command line in-process and returns what it printed and
// its exit status.
func runCLI(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(args, strings.NewReader(""), &out, &errb)
	stdout, stderr = out.String(), errb.String()
	for _, bad := range []string{"goroutine", "panic", "internal error"} {
		if strings.Contains(stderr, bad) {
			t.Errorf("collide %q: stderr mentions %q:\n%s", args, bad, stderr)
		}
	}
	return stdout, stderr, code
}

// writeOBJ writes m as OBJ to dir/name and returns the path.
func writeOBJ(t *testing.T, dir, name string, m *mesh.TriMesh) string {
	t.Helper()
	var b bytes.Buffer
	if err := obj.Encode(&b, m); err != nil {
		t.Fatal(err)
	}
	return writeFile(t, dir, name, b.Bytes())
}

func writeFile(t *testing.T, dir, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// unitTri is one triangle in the plane z = 0.
func unitTri() *mesh.TriMesh {
	return &mesh.TriMesh{
		Verts: []geom.Vec3{{X: 0, Y: 0, Z: 0}, {X: 1, Y: 0, Z: 0}, {X: 0, Y: 1, Z: 0}},
		Tris:  [][3]int32{{0, 1, 2}},
	}
}

// firstKind returns a generator kind and a parameter of it, for tests that
// need some gen: model without depending on the names.
func firstKind(t *testing.T) gen.Kind {
	t.Helper()
	kinds := gen.Kinds()
	if len(kinds) == 0 {
		t.Fatal("gen.Kinds() is empty")
	}
	return kinds[0]
}

const identityPose = "1 0 0 0 1 0 0 0 1 0 0 0"

func TestUsageErrors(t *testing.T) {
	dir := t.TempDir()
	a := writeOBJ(t, dir, "a.obj", unitTri())
	poses := writeFile(t, dir, "poses.txt", []byte(identityPose+"\n"))
	kind := firstKind(t).Name
	tests := []struct {
		name string
		args []string
		want string // in stderr
	}{
		{"no args", nil, "usage:"},
		{"unknown command", []string{"frobnicate"}, `unknown command "frobnicate"`},
		{"help unknown", []string{"help", "frobnicate"}, "unknown command"},
		{"unknown bv", []string{"check", "--bv", "nosuch", a, a}, "brute"},
		{"no models", []string{"check"}, "need 2 models"},
		{"one model", []string{"check", a}, "need 2 models"},
		{"three models", []string{"check", a, a, a}, "need 2 models"},
		{"unknown flag", []string{"check", "--frob", a, a}, "frob"},
		{"pose count", []string{"check", "--pose", "1 0 0 0 1 0 0 0 1", a, a}, "12 numbers"},
		{"pose number", []string{"check", "--pose", "1 0 0 0 1 0 0 0 1 0 0 x", a, a}, `"x"`},
		{"pose not rigid", []string{"check", "--pose", "2 0 0 0 1 0 0 0 1 0 0 0", a, a}, "--pose"},
		{"pose and poses", []string{"check", "--pose", identityPose, "--poses", poses, a, a}, "not both"},
		{"negative eps", []string{"check", "--eps", "-1", a, a}, "--eps"},
		// A flight keeps every step's query time: steps beyond what it can
		// hold are refused before anything is built or flown.
		{"flight huge steps", []string{"flight", "--steps", "1073741824"}, "--steps must be within [0, 67108864]"},
		{"bench huge steps", []string{"bench", "--steps", "1073741824", "-o", filepath.Join(dir, "bench")}, "--steps must be within [0, 67108864]"},
		{"view huge steps", []string{"view", "--steps", "1073741824", "--snapshot", filepath.Join(dir, "v.png")}, "--steps must be within [0, 2097152]"},
		{"nan eps", []string{"check", "--eps", "NaN", a, a}, "--eps"},
		{"inf eps", []string{"check", "--eps", "+Inf", a, a}, "--eps"},
		{"bad rule", []string{"check", "--rule", "best", a, a}, "--rule: unknown splitting rule \"best\" (known: splatter, longest, minsum, minmax, rapid)"},
		{"bad split", []string{"check", "--split", "middle", a, a}, "--split: unknown split point \"middle\" (known: mean, median)"},
		{"rapid not obb", []string{"check", "--rule", "rapid", "--bv", "aabb", a, a}, "--rule rapid applies to --bv obb only"},
		{"leaf not kdop", []string{"check", "--leaf", "4", "--bv", "sphere", a, a}, "--leaf applies to the k-DOP hierarchies only"},
		{"negative leaf", []string{"check", "--leaf", "-1", a, a}, "--leaf"},
		{"huge leaf", []string{"check", "--leaf", "70000", a, a}, "--leaf"},
		{"leaf not a number", []string{"check", "--leaf", "four", a, a}, "leaf"},
		{"zero env-leaf", []string{"check", "--env-leaf", "0", a, a}, "--env-leaf"},
		{"env-leaf not a number", []string{"check", "--env-leaf", "1.5", a, a}, "env-leaf"},
		{"bad eps", []string{"check", "--eps", "x", a, a}, "eps"},
		{"unknown kind", []string{"check", "gen:nosuchkind", a}, kind},
		{"unknown param", []string{"check", "gen:" + kind + ":nosuchparam=1", a}, "nosuchparam"},
		{"bad param value", []string{"check", "gen:" + kind + ":" + firstKindParam(t) + "=abc", a}, "abc"},
		{"param not key=value", []string{"check", "gen:" + kind + ":abc", a}, "key=value"},
		{"gen bad ext", []string{"gen", kind, "-o", filepath.Join(dir, "x.ply")}, ".ply"},
		{"gen unknown kind", []string{"gen", "nosuchkind", "-o", filepath.Join(dir, "x.obj")}, kind},
		{"gen unknown param", []string{"gen", kind, "nosuchparam=2", "-o", filepath.Join(dir, "x.obj")}, "nosuchparam"},
		{"gen -o without kind", []string{"gen", "-o", filepath.Join(dir, "x.obj")}, "KIND"},
		{"info no files", []string{"info"}, "MODEL"},
		{"info unknown kind", []string{"info", "gen:nosuchkind"}, kind},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			stdout, stderr, code := runCLI(t, tc.args...)
			if code != exitUsage {
				t.Fatalf("collide %q: exit %d, want 2\nstderr: %s", tc.args, code, stderr)
			}
			if !strings.Contains(stderr, tc.want) {
				t.Errorf("collide %q: stderr does not contain %q:\n%s", tc.args, tc.want, stderr)
			}
			if !strings.Contains(stderr, "usage") {
				t.Errorf("collide %q: stderr has no usage line:\n%s", tc.args, stderr)
			}
			if stdout != "" {
				t.Errorf("collide %q: wrote to stdout on a usage error:\n%s", tc.args, stdout)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(dir, "x.obj")); err == nil {
		t.Error("a failed gen left x.obj behind")
	}
}

// firstKindParam returns the name of a parameter of firstKind, or "x".
func firstKindParam(t *testing.T) string {
	if k := firstKind(t); len(k.Params) > 0 {
		return k.Params[0].Name
	}
	return "x"
}

func TestHelp(t *testing.T) {
	tests := []struct {
		args []string
		want []string
	}{
		{[]string{"help"}, []string{"check", "build", "gen", "info", "gen:KIND", ".collide"}},
		{[]string{"--help"}, []string{"check", "build", "gen", "info"}},
		{[]string{"help", "check"}, []string{"--bv", "--all", "--pose", "--poses", "--eps", "--json", "brute", "numbered from 0",
			"--rule", "--split", "--leaf", "--env-leaf", "--restart", "--exact-root", `(default "aabb")`, "minmax", "median", "saved"}},
		{[]string{"help", "build"}, []string{"-o FILE", "--force", "--bv", "--rule", "--split", "--leaf", "--env-leaf", ".collide"}},
		{[]string{"build", "-h"}, []string{"-o FILE", "--force"}},
		{[]string{"check", "-h"}, []string{"--bv", "--poses"}},
		{[]string{"help", "gen"}, []string{"-o FILE", "--force"}},
		{[]string{"gen", "--help"}, []string{"-o FILE", "--force"}},
		{[]string{"help", "info"}, []string{"--json"}},
		{[]string{"info", "-h"}, []string{"--json"}},
	}
	for _, tc := range tests {
		stdout, stderr, code := runCLI(t, tc.args...)
		if code != exitOK {
			t.Errorf("collide %q: exit %d, want 0\n%s", tc.args, code, stderr)
		}
		for _, w := range tc.want {
			if !strings.Contains(stdout, w) {
				t.Errorf("collide %q: help does not mention %q:\n%s", tc.args, w, stdout)
			}
		}
	}
}

// binarySTL returns an 80-byte zero header, the facet count n and the
// facets given (12 float32 and 2 attribute bytes each).
func binarySTL(n uint32, facets int) []byte {
	b := make([]byte, 80, 84+50*facets)
	b = binary.LittleEndian.AppendUint32(b, n)
	for range facets {
		for k := range 12 {
			b = binary.LittleEndian.AppendUint32(b, math.Float32bits(float32(k%3)))
		}
		b = append(b, 0, 0)
	}
	return b
}

func TestMalformedFiles(t *testing.T) {
	dir := t.TempDir()
	good := writeOBJ(t, dir, "good.obj", unitTri())
	plyHeader := "ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\nproperty float z\n" +
		"element face 1\nproperty list uchar int vertex_indices\nend_header\n"
	plyBinHeader := "ply\nformat binary_little_endian 1.0\nelement vertex 3\nproperty float x\nproperty float y\nproperty float z\n" +
		"element face 1\nproperty list uchar int vertex_indices\nend_header\n"
	tests := []struct {
		file string
		data []byte
		want string // regexp the error must match, after the file name
	}{
		{"bad-number.obj", []byte("v 0 0 0\nv 1 0 zz\nv 0 1 0\nf 1 2 3\n"), `line 2\b`},
		{"bad-index.obj", []byte("v 0 0 0\nv 1 0 0\nv 0 1 0\n# comment\nf 1 2 9\n"), `line 5\b`},
		{"short-vertex.obj", []byte("v 0 0\n"), `line 1\b`},
		{"bad-ascii.stl", []byte("solid x\n facet normal 0 0 1\n  outer loop\n   vertex 0 0 0\n   vertex 1 0 bogus\n   vertex 0 1 0\n  endloop\n endfacet\nendsolid x\n"), `line 5\b`},
		{"truncated-ascii.stl", []byte("solid x\n facet normal 0 0 1\n  outer loop\n   vertex 0 0 0\n"), `line \d+`},
		{"truncated-binary.stl", binarySTL(5, 1), `offset \d+`},
		{"short-binary.stl", make([]byte, 40), `offset \d+`},
		{"bad-number.ply", []byte(plyHeader + "0 0 0\n1 0 zz\n0 1 0\n3 0 1 2\n"), `line 11\b`},
		{"bad-index.ply", []byte(plyHeader + "0 0 0\n1 0 0\n0 1 0\n3 0 1 7\n"), `line 13\b`},
		{"bad-header.ply", []byte("ply\nformat ascii 1.0\nelement vertex 3\nproperty frob x\nend_header\n"), `line 4\b`},
		{"truncated-binary.ply", append([]byte(plyBinHeader), make([]byte, 20)...), `offset \d+`},
		{"bad-number.off", []byte("OFF\n3 1 0\n0 0 0\n1 0 zz\n0 1 0\n3 0 1 2\n"), `line 4\b`},
		{"bad-index.off", []byte("OFF\n3 1 0\n0 0 0\n1 0 0\n0 1 0\n3 0 1 7\n"), `line 6\b`},
		{"bad-magic.off", []byte("NOFF\n"), `line 1\b`},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			p := writeFile(t, dir, tc.file, tc.data)
			re := regexp.MustCompile(regexp.QuoteMeta(p) + `: .*` + tc.want)
			for _, args := range [][]string{
				{"check", p, good},
				{"check", "--json", good, p},
				{"info", p},
				{"info", "--json", good, p},
			} {
				_, stderr, code := runCLI(t, args...)
				if code != exitError {
					t.Errorf("collide %q: exit %d, want 1\nstderr: %s", args, code, stderr)
				}
				if !re.MatchString(stderr) {
					t.Errorf("collide %q: stderr does not match %q:\n%s", args, re, stderr)
				}
			}
		})
	}

	// Files that are missing or of no known format.
	for _, name := range []string{"missing.obj", "mesh.xyz", "noext"} {
		p := filepath.Join(dir, name)
		if name != "missing.obj" {
			writeFile(t, dir, name, []byte("v 0 0 0\n"))
		}
		for _, args := range [][]string{{"check", p, good}, {"info", p}} {
			_, stderr, code := runCLI(t, args...)
			if code != exitError {
				t.Errorf("collide %q: exit %d, want 1\nstderr: %s", args, code, stderr)
			}
			if !strings.Contains(stderr, p) {
				t.Errorf("collide %q: stderr does not name %s:\n%s", args, p, stderr)
			}
		}
	}

	// A directory given as a model.
	sub := filepath.Join(dir, "dir.obj")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if _, stderr, code := runCLI(t, "info", sub); code != exitError || !strings.Contains(stderr, sub) {
		t.Errorf("info on a directory: exit %d, stderr %q", code, stderr)
	}
}

func TestPoseFileErrors(t *testing.T) {
	dir := t.TempDir()
	a := writeOBJ(t, dir, "a.obj", unitTri())
	tests := []struct {
		name, data, want string
	}{
		{"short.txt", "# poses\n\n" + identityPose + "\n1 0 0 0 1 0 0 0 1 0 0\n", "line 4"},
		{"word.txt", identityPose + "\n" + identityPose + " # ok\n1 0 0 0 1 0 0 0 one 0 0 0\n", "line 3"},
		{"scaled.txt", "\n\n\n2 0 0 0 2 0 0 0 2 0 0 0\n", "line 4"},
		{"mirror.txt", "-1 0 0 0 1 0 0 0 1 0 0 0\n", "line 1"},
		{"nan.txt", "1 0 0 0 1 0 0 0 1 NaN 0 0\n", "line 1"},
		{"empty.txt", "# nothing\n\n", "no poses"},
	}
	for _, tc := range tests {
		p := writeFile(t, dir, tc.name, []byte(tc.data))
		_, stderr, code := runCLI(t, "check", "--poses", p, a, a)
		if code != exitError {
			t.Errorf("%s: exit %d, want 1\n%s", tc.name, code, stderr)
		}
		if !strings.Contains(stderr, p+": "+tc.want) {
			t.Errorf("%s: stderr does not contain %q:\n%s", tc.name, p+": "+tc.want, stderr)
		}
	}
	if _, stderr, code := runCLI(t, "check", "--poses", filepath.Join(dir, "none.txt"), a, a); code != exitError || !strings.Contains(stderr, "none.txt") {
		t.Errorf("missing pose file: exit %d, stderr %q", code, stderr)
	}
}

// checkLine is one parsed line of check --json.
type checkLine struct {
	Pose    int        `json:"pose"`
	Collide bool       `json:"collide"`
	Pairs   [][2]int32 `json:"pairs"`
	Stats   struct {
		BVTests  int64 `json:"bv_tests"`
		TriTests int64 `json:"tri_tests"`
		Updates  int64 `json:"updates"`
		Leaf     int64 `json:"leaf_tests"`
	} `json:"stats"`
	Seconds float64 `json:"seconds"`
}

// parseCheckJSON parses the JSON Lines of check --json, checking that every
// line has exactly the documented keys and that pairs is never null.
func parseCheckJSON(t *testing.T, out string) []checkLine {
	t.Helper()
	var lines []checkLine
	for i, s := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		var raw map[string]json.RawMessage
		if err := json.Unmarshal([]byte(s), &raw); err != nil {
			t.Fatalf("line %d %q: %v", i+1, s, err)
		}
		if !slices.Equal(sortedKeys(raw), []string{"collide", "pairs", "pose", "seconds", "stats"}) {
			t.Fatalf("line %d %q: keys %v", i+1, s, sortedKeys(raw))
		}
		var stats map[string]json.RawMessage
		if err := json.Unmarshal(raw["stats"], &stats); err != nil {
			t.Fatalf("line %d: stats: %v", i+1, err)
		}
		if !slices.Equal(sortedKeys(stats), []string{"bv_tests", "leaf_tests", "tri_tests", "updates"}) {
			t.Fatalf("line %d %q: stats keys %v", i+1, s, sortedKeys(stats))
		}
		if string(raw["pairs"]) == "null" {
			t.Fatalf("line %d %q: pairs is null", i+1, s)
		}
		if !strings.HasPrefix(s, `{"pose":`) {
			t.Errorf("line %d %q: does not start with the pose", i+1, s)
		}
		var l checkLine
		dec := json.NewDecoder(strings.NewReader(s))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&l); err != nil {
			t.Fatalf("line %d %q: %v", i+1, s, err)
		}
		if l.Pose != i {
			t.Errorf("line %d: pose %d, want %d", i+1, l.Pose, i)
		}
		if l.Collide != (len(l.Pairs) > 0) {
			t.Errorf("line %d %q: collide disagrees with pairs", i+1, s)
		}
		if !slices.IsSortedFunc(l.Pairs, comparePairs) {
			t.Errorf("line %d: pairs not ascending", i+1)
		}
		if l.Seconds < 0 || math.IsNaN(l.Seconds) {
			t.Errorf("line %d: seconds %v", i+1, l.Seconds)
		}
		lines = append(lines, l)
	}
	return lines
}

func sortedKeys(m map[string]json.RawMessage) []string {
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func comparePairs(a, b [2]int32) int {
	if a[0] != b[0] {
		return int(a[0]) - int(b[0])
	}
	return int(a[1]) - int(b[1])
}

func TestCheckJSON(t *testing.T) {
	dir := t.TempDir()
	// Two triangles in z = 0 sharing the edge x = 1 with a third one.
	env := &mesh.TriMesh{
		Verts: []geom.Vec3{{X: 0, Y: 0}, {X: 1, Y: 0}, {X: 0, Y: 1}, {X: 5, Y: 5}, {X: 6, Y: 5}, {X: 5, Y: 6}},
		Tris:  [][3]int32{{0, 1, 2}, {3, 4, 5}},
	}
	e := writeOBJ(t, dir, "env.obj", env)
	f := writeOBJ(t, dir, "fly.obj", unitTri())
	poses := writeFile(t, dir, "poses.txt", []byte(
		"# identity: touches env triangle 0\n"+identityPose+"\n\n"+
			"1 0 0 0 1 0 0 0 1 5 5 0   # onto env triangle 1\n"+
			"1 0 0 0 1 0 0 0 1 100 0 0 # far away\n"+
			"1 0 0 0 1 0 0 0 1 1 0 0   # touching at the vertex (1,0,0)\n"))
	stdout, stderr, code := runCLI(t, "check", "--all", "--json", "--poses", poses, e, f)
	if code != exitOK {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	lines := parseCheckJSON(t, stdout)
	want := [][][2]int32{{{0, 0}}, {{1, 0}}, {}, {{0, 0}}}
	if len(lines) != len(want) {
		t.Fatalf("%d lines, want %d:\n%s", len(lines), len(want), stdout)
	}
	for i, l := range lines {
		if !slices.Equal(l.Pairs, want[i]) {
			t.Errorf("pose %d: pairs %v, want %v", i, l.Pairs, want[i])
		}
	}
	if !strings.Contains(stdout, `"pairs":[]`) {
		t.Errorf("no contact should print \"pairs\":[]:\n%s", stdout)
	}

	// Flags after the models, and first-contact mode.
	stdout, stderr, code = runCLI(t, "check", e, e, "--json", "--eps", "0.5")
	if code != exitOK {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	lines = parseCheckJSON(t, stdout)
	if len(lines) != 1 || len(lines[0].Pairs) != 1 {
		t.Errorf("first contact: want 1 line with 1 pair:\n%s", stdout)
	}
}

func TestCheckText(t *testing.T) {
	dir := t.TempDir()
	f := writeOBJ(t, dir, "fly.obj", unitTri())
	stdout, stderr, code := runCLI(t, "check", "--all", f, f)
	if code != exitOK {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	if !strings.HasPrefix(stdout, "pose 0: collide, 1 pair (") || !strings.Contains(stdout, "\n    0 0\n") {
		t.Errorf("unexpected output:\n%s", stdout)
	}
	stdout, _, code = runCLI(t, "check", "--pose", "1 0 0 0 1 0 0 0 1 0 0 3", f, f)
	if code != exitOK || !strings.HasPrefix(stdout, "pose 0: no contact (") {
		t.Errorf("exit %d, output:\n%s", code, stdout)
	}
	stdout, _, code = runCLI(t, "check", f, f)
	if code != exitOK || !strings.HasPrefix(stdout, "pose 0: collide, first pair 0 0 (") {
		t.Errorf("exit %d, output:\n%s", code, stdout)
	}
}

// randomPose returns a random rigid pose that rotates about c and then
// shifts by up to spread on each axis; small rotations are frequent, so
// models near each other stay in contact.
func randomPose(r *rand.Rand, c geom.Vec3, spread float64) geom.Pose {
	axis := geom.Vec3{X: r.NormFloat64(), Y: r.NormFloat64(), Z: r.NormFloat64()}
	angle := r.Float64() * 2 * math.Pi
	if r.IntN(2) == 0 {
		angle *= 0.02
	}
	rot := geom.AxisAngle(axis, angle).Mat3()
	d := geom.Vec3{X: r.Float64()*2 - 1, Y: r.Float64()*2 - 1, Z: r.Float64()*2 - 1}.Scale(spread)
	return geom.Pose{R: rot, T: c.Sub(rot.MulVec(c)).Add(d)}
}

func formatPose(p geom.Pose) string {
	var parts []string
	for _, x := range p.Array() {
		parts = append(parts, strconv.FormatFloat(x, 'g', -1, 64))
	}
	return strings.Join(parts, " ")
}

// hierarchyConfigs are the check flags the cross-checks run with: brute
// force, every bounding volume with the defaults, and combinations of the
// other hierarchy and traversal flags.
var hierarchyConfigs = [][]string{
	{"--bv", "brute"},
	{"--bv", "kdop6"},
	{"--bv", "kdop14"},
	{"--bv", "kdop18"},
	{"--bv", "kdop26"},
	{"--bv", "kdop8"},
	{"--bv", "kdop12"},
	{"--bv", "kdop20"},
	{"--bv", "kdop8", "--rule", "minsum", "--compact", "--exact-root"},
	{"--bv", "kdop20", "--env-leaf", "2", "--restart"},
	{"--bv", "kdop6", "--rule", "longest", "--split", "median", "--leaf", "2"},
	{"--bv", "kdop14", "--rule", "minsum", "--env-leaf", "3", "--restart"},
	{"--bv", "kdop18", "--rule", "minmax", "--leaf", "4", "--exact-root"},
	{"--bv", "kdop26", "--split", "median", "--env-leaf", "2", "--leaf", "1", "--restart", "--exact-root"},
	{"--bv", "kdop18", "--rule", "longest", "--env-leaf", "8", "--leaf", "16"},
	{"--bv", "kdop18", "--compact"},
	{"--bv", "kdop6", "--compact", "--env-leaf", "2", "--restart"},
	{"--bv", "obb"},
	{"--bv", "obb", "--rule", "rapid", "--env-leaf", "2"},
	{"--bv", "sphere", "--split", "median"},
	{"--bv", "aabb", "--rule", "longest"},
	{"--bv", "boxtree", "--env-leaf", "4"},
}

// TestOracle checks check, with each of hierarchyConfigs, against the
// brute-force oracle of testgeom on the adversarial scenes, at the identity
// and at random poses read from a pose file, with and without a tolerance,
// in --all and in first-contact mode. By default each scene takes a third of
// the configurations, in turn (every configuration on some scenes); all of
// them with COLLIDE_LONG_TESTS=1.
func TestOracle(t *testing.T) {
	const seed = 1
	scenes := testgeom.AdversarialScenes(seed)
	if len(scenes) == 0 {
		t.Fatal("no scenes")
	}
	r := rand.New(rand.NewPCG(seed, 2))
	posedPairs := 0 // pairs found at random poses, over all scenes
	for si, sc := range scenes {
		t.Run(fmt.Sprintf("%d-%s", si, sc.Name), func(t *testing.T) {
			dir := t.TempDir()
			e := writeOBJ(t, dir, "env.obj", sc.Env)
			f := writeOBJ(t, dir, "fly.obj", sc.Fly)

			// The identity, then random rigid poses, written to a pose file.
			fb := sc.Fly.Bounds()
			spread := 0.25 * max(fb.Size().Norm(), sc.Env.Bounds().Size().Norm())
			if fb.IsEmpty() || !(spread > 0) || math.IsInf(spread, 0) {
				spread = 0
			}
			c := geom.Vec3{}
			if !fb.IsEmpty() {
				c = fb.Center()
			}
			var text strings.Builder
			text.WriteString("# the identity, then random poses\n" + identityPose + "\n")
			poses := []geom.Pose{geom.Identity()}
			for range 4 {
				p := randomPose(r, c, spread)
				if p.Validate() != nil {
					continue
				}
				poses = append(poses, p)
				fmt.Fprintf(&text, "%s\n\n", formatPose(p))
			}
			pf := writeFile(t, dir, "poses.txt", []byte(text.String()))
			want := make([][][2]int32, len(poses))
			for i, p := range poses {
				want[i] = testgeom.Brute(sc.Env, sc.Fly, p, 0)
				if i > 0 {
					posedPairs += len(want[i])
				}
			}

			// A tolerance of about 1% of the scene's size.
			var epsArg string
			var epsWant [][2]int32
			if size := sc.Env.Bounds().Size().Norm(); size > 0 && !math.IsInf(size, 0) {
				eps := 0.01 * size
				epsArg = strconv.FormatFloat(eps, 'g', -1, 64)
				epsWant = testgeom.Brute(sc.Env, sc.Fly, geom.Identity(), eps)
			}

			for ci, cfg := range hierarchyConfigs {
				if !longtest.Enabled() && (ci+si)%3 != 0 {
					continue // by default a third of them, in turn
				}
				name := strings.Join(cfg, " ")
				stdout, stderr, code := runCLI(t, slices.Concat([]string{"check", "--all", "--json", "--poses", pf}, cfg, []string{e, f})...)
				if code != exitOK {
					t.Fatalf("%s: exit %d\n%s", name, code, stderr)
				}
				lines := parseCheckJSON(t, stdout)
				if len(lines) != len(poses) {
					t.Fatalf("%s: %d lines, want %d", name, len(lines), len(poses))
				}
				for i, p := range poses {
					assertPairs(t, fmt.Sprintf("%s: pose %d (%s)", name, i, formatPose(p)), lines[i].Pairs, want[i])
				}

				if epsArg != "" {
					stdout, stderr, code := runCLI(t, slices.Concat([]string{"check", "--all", "--json", "--eps", epsArg}, cfg, []string{e, f})...)
					if code != exitOK {
						t.Fatalf("%s: exit %d\n%s", name, code, stderr)
					}
					assertPairs(t, name+" --eps "+epsArg, parseCheckJSON(t, stdout)[0].Pairs, epsWant)
				}

				// First-contact mode finds one of the pairs.
				stdout, stderr, code = runCLI(t, slices.Concat([]string{"check", "--json"}, cfg, []string{e, f})...)
				if code != exitOK {
					t.Fatalf("%s: exit %d\n%s", name, code, stderr)
				}
				first := parseCheckJSON(t, stdout)[0]
				if first.Collide != (len(want[0]) > 0) || len(first.Pairs) > 1 ||
					(len(first.Pairs) == 1 && !slices.Contains(want[0], first.Pairs[0])) {
					t.Errorf("%s: first contact: %+v, oracle has %d pairs", name, first, len(want[0]))
				}
			}
		})
	}
	if posedPairs == 0 {
		t.Error("no random pose puts any scene in contact: the posed cross-check tests nothing")
	}
	t.Logf("%d pairs in contact at random poses", posedPairs)
}

func assertPairs(t *testing.T, what string, got, want [][2]int32) {
	t.Helper()
	want = slices.Clone(want)
	slices.SortFunc(want, comparePairs)
	if want == nil {
		want = [][2]int32{}
	}
	if !slices.Equal(got, want) {
		t.Errorf("%s: %d pairs, oracle %d\ngot  %v\nwant %v", what, len(got), len(want), trim(got), trim(want))
	}
}

func trim(p [][2]int32) [][2]int32 {
	if len(p) > 20 {
		return p[:20]
	}
	return p
}

// defaults returns the default parameters of k.
func defaults(k gen.Kind) map[string]float64 {
	m := map[string]float64{}
	for _, p := range k.Params {
		m[p.Name] = p.Default
	}
	return m
}

// jsonInfoLine is one line of info --json.
type jsonInfoLine struct {
	File      string `json:"file"`
	Format    string `json:"format"`
	Vertices  int    `json:"vertices"`
	Triangles int    `json:"triangles"`
	Bounds    *struct {
		Min [3]float64 `json:"min"`
		Max [3]float64 `json:"max"`
	} `json:"bounds"`
	Degenerate int `json:"degenerate"`
	Duplicate  int `json:"duplicate"`
	Tree       *struct {
		BV          string `json:"bv"`
		K           int    `json:"k"`
		Rule        string `json:"rule"`
		Split       string `json:"split"`
		Leaf        int    `json:"leaf"`
		FlyLeaf     int    `json:"fly_leaf"`
		FlyLeafAuto bool   `json:"fly_leaf_auto"`
		Float64     bool   `json:"float64"`
		Compact     bool   `json:"compact"`
		Nodes       int    `json:"nodes"`
		Height      int    `json:"height"`
		Bytes       int64  `json:"bytes"`
	} `json:"tree"` // saved models only
	Manifold bool          `json:"manifold"`
	Closed   bool          `json:"closed"`
	Oriented bool          `json:"oriented"`
	Outward  bool          `json:"outward"`
	Convex   bool          `json:"convex"`
	Topology *jsonTopology `json:"topology"`
}

func parseInfo(t *testing.T, out string) []jsonInfoLine {
	t.Helper()
	var res []jsonInfoLine
	for _, s := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		var raw map[string]json.RawMessage
		if err := json.Unmarshal([]byte(s), &raw); err != nil {
			t.Fatalf("%q: %v", s, err)
		}
		want := []string{"bounds", "closed", "convex", "degenerate", "duplicate", "file", "format", "manifold", "oriented", "outward", "topology", "triangles", "vertices"}
		if _, ok := raw["tree"]; ok && string(raw["format"]) == `"collide"` {
			want = []string{"bounds", "closed", "convex", "degenerate", "duplicate", "file", "format", "manifold", "oriented", "outward", "topology", "tree", "triangles", "vertices"}
		}
		if !slices.Equal(sortedKeys(raw), want) {
			t.Fatalf("%q: keys %v, want %v", s, sortedKeys(raw), want)
		}
		var l jsonInfoLine
		dec := json.NewDecoder(strings.NewReader(s))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&l); err != nil {
			t.Fatalf("%q: %v", s, err)
		}
		res = append(res, l)
	}
	return res
}

func TestInfo(t *testing.T) {
	dir := t.TempDir()
	m := &mesh.TriMesh{
		Verts: []geom.Vec3{{X: -1, Y: 0, Z: 0}, {X: 2, Y: 0, Z: 0}, {X: 0, Y: 3, Z: 0.5}, {X: 5, Y: 0, Z: 0}},
		Tris:  [][3]int32{{0, 1, 2}, {2, 1, 0}, {0, 1, 3}}, // a duplicate, a degenerate
	}
	p := writeOBJ(t, dir, "m.obj", m)
	empty := writeFile(t, dir, "empty.obj", []byte("# nothing\n"))
	stdout, stderr, code := runCLI(t, "info", "--json", p, empty)
	if code != exitOK {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	got := parseInfo(t, stdout)
	if len(got) != 2 {
		t.Fatalf("%d lines, want 2", len(got))
	}
	g := got[0]
	if g.File != p || g.Format != "obj" || g.Vertices != 4 || g.Triangles != 3 || g.Degenerate != 1 || g.Duplicate != 1 ||
		g.Bounds == nil || g.Bounds.Min != [3]float64{-1, 0, 0} || g.Bounds.Max != [3]float64{5, 3, 0.5} {
		t.Errorf("info: %+v", g)
	}
	if got[1].Triangles != 0 || got[1].Bounds != nil {
		t.Errorf("empty: %+v", got[1])
	}

	stdout, stderr, code = runCLI(t, "info", p)
	if code != exitOK {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	for _, w := range []string{p, "format      obj", "vertices    4", "triangles   3", "min (-1, 0, 0)  max (5, 3, 0.5)", "degenerate  1", "duplicate   1"} {
		if !strings.Contains(stdout, w) {
			t.Errorf("info output lacks %q:\n%s", w, stdout)
		}
	}

	// One bad file among good ones: the others are still described.
	bad := writeFile(t, dir, "bad.obj", []byte("v 1 2\n"))
	stdout, stderr, code = runCLI(t, "info", "--json", p, bad, p)
	if code != exitError || len(parseInfo(t, stdout)) != 2 || !strings.Contains(stderr, bad+": line 1") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}

func TestGenInfo(t *testing.T) {
	dir := t.TempDir()
	for _, k := range gen.Kinds() {
		m, err := k.Make(defaults(k))
		if err != nil {
			t.Errorf("%s: Make(defaults): %v", k.Name, err)
			continue
		}
		for _, ext := range []string{".obj", ".stl"} {
			p := filepath.Join(dir, k.Name+ext)
			if _, stderr, code := runCLI(t, "gen", k.Name, "-o", p); code != exitOK {
				t.Errorf("gen %s -o %s: exit %d\n%s", k.Name, p, code, stderr)
				continue
			}
			stdout, stderr, code := runCLI(t, "info", "--json", p)
			if code != exitOK {
				t.Errorf("info %s: exit %d\n%s", p, code, stderr)
				continue
			}
			info := parseInfo(t, stdout)[0]
			if info.Triangles != len(m.Tris) || info.Format != ext[1:] {
				t.Errorf("info %s: %d triangles, format %s; want %d, %s", p, info.Triangles, info.Format, len(m.Tris), ext[1:])
			}
			if ext == ".obj" && info.Vertices != len(m.Verts) {
				t.Errorf("info %s: %d vertices, want %d", p, info.Vertices, len(m.Verts))
			}
		}
		// The gen: model gives the same counts.
		stdout, _, code := runCLI(t, "info", "--json", "gen:"+k.Name)
		if code != exitOK {
			t.Errorf("info gen:%s: exit %d", k.Name, code)
		} else if info := parseInfo(t, stdout)[0]; info.Triangles != len(m.Tris) || info.Format != "gen" {
			t.Errorf("info gen:%s: %+v", k.Name, info)
		}
	}

	// Parameters change the mesh: a non-default value of each numeric
	// parameter is accepted.
	k := firstKind(t)
	if len(k.Params) > 0 {
		p := k.Params[0]
		out := filepath.Join(dir, "param.obj")
		arg := p.Name + "=" + strconv.FormatFloat(p.Default, 'g', -1, 64)
		if _, stderr, code := runCLI(t, "gen", k.Name, arg, "-o", out); code != exitOK {
			t.Errorf("gen %s %s: exit %d\n%s", k.Name, arg, code, stderr)
		}
	}

	// No overwriting without --force, and nothing half-written.
	p := filepath.Join(dir, "keep.obj")
	writeFile(t, dir, "keep.obj", []byte("precious"))
	_, stderr, code := runCLI(t, "gen", k.Name, "-o", p)
	if code != exitError || !strings.Contains(stderr, "--force") {
		t.Errorf("overwrite without --force: exit %d, stderr %q", code, stderr)
	}
	if b, _ := os.ReadFile(p); string(b) != "precious" {
		t.Errorf("file overwritten without --force")
	}
	if _, stderr, code := runCLI(t, "gen", "--force", k.Name, "-o", p); code != exitOK {
		t.Errorf("gen --force: exit %d\n%s", code, stderr)
	}
	if b, _ := os.ReadFile(p); string(b) == "precious" {
		t.Errorf("--force did not overwrite")
	}
	if _, stderr, code := runCLI(t, "gen", k.Name, "-o", filepath.Join(dir, "no", "such", "dir.obj")); code != exitError {
		t.Errorf("gen into a missing directory: exit %d\n%s", code, stderr)
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".tmp") {
			t.Errorf("temporary file left behind: %s", e.Name())
		}
	}

	// collide gen with no kind lists every kind with its parameters.
	stdout, stderr, code := runCLI(t, "gen")
	if code != exitOK {
		t.Fatalf("gen: exit %d\n%s", code, stderr)
	}
	for _, k := range gen.Kinds() {
		if !strings.Contains(stdout, k.Name) {
			t.Errorf("gen list lacks %s", k.Name)
		}
		for _, p := range k.Params {
			if !strings.Contains(stdout, p.Name) {
				t.Errorf("gen list lacks %s's parameter %s", k.Name, p.Name)
			}
		}
	}
}

func TestWriteFileAtomicFailure(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "out.obj")
	err := writeFileAtomic(p, false, func(w io.Writer) error {
		w.Write([]byte("partial"))
		return fmt.Errorf("boom")
	})
	if err == nil {
		t.Fatal("no error")
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("failed write left %v", entries)
	}
}

func TestCheckGen(t *testing.T) {
	var args [][]string
	if _, ok := gen.Lookup("torus"); ok {
		if _, ok := gen.Lookup("icosphere"); ok {
			args = append(args, []string{"check", "gen:torus", "gen:icosphere:radius=0.4"})
		}
	}
	for _, k := range gen.Kinds() {
		// First contact: --all on the larger default models takes seconds.
		args = append(args, []string{"check", "--json", "gen:" + k.Name, "gen:" + k.Name})
	}
	for _, a := range args {
		stdout, stderr, code := runCLI(t, a...)
		if code != exitOK {
			t.Errorf("collide %q: exit %d\n%s", a, code, stderr)
			continue
		}
		if slices.Contains(a, "--json") {
			l := parseCheckJSON(t, stdout)
			// A non-empty model touches itself.
			if len(l) != 1 || !l[0].Collide {
				t.Errorf("collide %q: %s", a, stdout)
			}
		} else if !strings.HasPrefix(stdout, "pose 0: ") {
			t.Errorf("collide %q: %s", a, stdout)
		}
	}
}

func TestProgress(t *testing.T) {
	dir := t.TempDir()
	p := writeOBJ(t, dir, "a.obj", unitTri())

	// Not a terminal: nothing on stderr.
	if _, stderr, code := runCLI(t, "info", p); code != exitOK || stderr != "" {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}

	defer func(min int64, term func(io.Writer) bool) { progressMin, isTerminal = min, term }(progressMin, isTerminal)
	progressMin = 0
	isTerminal = func(io.Writer) bool { return true }
	_, stderr, code := runCLI(t, "info", p)
	if code != exitOK {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	if !strings.HasPrefix(stderr, "\rloading "+p+": ") || !strings.HasSuffix(stderr, "\r") || strings.Contains(stderr, "\n") {
		t.Errorf("progress output %q", stderr)
	}
}

func TestParseInterspersed(t *testing.T) {
	c := checkCommand()
	fs := newFlagSet(c)
	o := c.flags(fs).(*checkOptions)
	pos, err := parseInterspersed(fs, []string{"a", "--all", "b", "--eps", "0.5", "--", "--json"})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(pos, []string{"a", "b", "--json"}) || !o.all || o.eps != 0.5 || o.json {
		t.Errorf("pos %q, options %+v", pos, o)
	}
}

func TestPanicIsInternalError(t *testing.T) {
	defer func(cs []*command) { commands = cs }(commands)
	commands = append(slices.Clip(commands), &command{
		name:  "boom",
		usage: "boom",
		flags: func(*flag.FlagSet) any { return nil },
		run:   func(*env, any, []string) error { panic("boom") },
	})
	var out, errb bytes.Buffer
	code := run([]string{"boom"}, strings.NewReader(""), &out, &errb)
	if code != exitError || errb.String() != "collide: internal error: boom\n" {
		t.Errorf("exit %d, stderr %q", code, errb.String())
	}
}

// TestHelpNamesDefaultBV checks that each command that builds trees names,
// in the first lines of its help, the kind of tree it builds by default,
// and that this is its --bv flag's default: check, flight, build and view build
// AABB trees, distance RSS trees (see defaultBV).
func TestHelpNamesDefaultBV(t *testing.T) {
	for _, c := range []struct{ cmd, bv string }{{"check", "aabb"}, {"flight", "aabb"}, {"build", "aabb"}, {"view", "aabb"}, {"distance", "rss"}} {
		stdout, stderr, code := runCLI(t, "help", c.cmd)
		if code != exitOK {
			t.Fatalf("help %s: exit %d\n%s", c.cmd, code, stderr)
		}
		lines := strings.SplitN(stdout, "\n", 7)
		if first := strings.Join(lines[:6], " "); !strings.Contains(first, c.bv+" trees unless --bv says otherwise") {
			t.Errorf("help %s: the first lines do not name %s:\n%s", c.cmd, c.bv, first)
		}
		_, flagLine, _ := strings.Cut(stdout, "\n  --bv NAME\n")
		flagLine, _, _ = strings.Cut(flagLine, "\n")
		if !strings.HasSuffix(flagLine, fmt.Sprintf("(default %q)", c.bv)) {
			t.Errorf("help %s: the --bv flag's default is not %q: %q", c.cmd, c.bv, flagLine)
		}
	}
}

// TestDefaultBVRuns checks that the default trees are the ones that run:
// check (both modes) and check --ccd do the work of --bv aabb, to the
// count, and distance that of --bv rss; none does that of --bv kdop18, the
// old default.
func TestDefaultBVRuns(t *testing.T) {
	dir := t.TempDir()
	poses := filepath.Join(dir, "poses.txt")
	if err := os.WriteFile(poses, []byte("1 0 0 0 1 0 0 0 1 0.9 0.3 0.2\n1 0 0 0 1 0 0 0 1 1.4 0.1 0.6\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	stats := func(args ...string) string {
		t.Helper()
		stdout, stderr, code := runCLI(t, append(args, "--json", "--poses", poses, "gen:torus:tris=400", "gen:icosphere:radius=0.4,tris=320")...)
		if code != exitOK {
			t.Fatalf("%q: exit %d\n%s", args, code, stderr)
		}
		return strings.Join(regexp.MustCompile(`"stats":\{[^}]*\}`).FindAllString(stdout, -1), " ")
	}
	for _, c := range []struct {
		args []string
		bv   string
	}{
		{[]string{"check"}, "aabb"}, {[]string{"check", "--all"}, "aabb"}, {[]string{"check", "--ccd"}, "aabb"}, {[]string{"distance"}, "rss"},
	} {
		def, want, old := stats(c.args...), stats(append(c.args, "--bv", c.bv)...), stats(append(c.args, "--bv", "kdop18")...)
		if def == "" || def != want || def == old {
			t.Errorf("%q: the default's counts %s\n--bv %s: %s\n--bv kdop18: %s", c.args, def, c.bv, want, old)
		}
	}
}
