package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// genScenes are pairs of small generated models, for cross-checks over the
// hierarchy flags and for saved models.
var genScenes = []struct{ env, fly string }{
	{"gen:torus:tris=400", "gen:icosphere:radius=0.6,tris=320"},
	{"gen:box:n=3", "gen:tetrahedra:n=40,size=0.4,minx=-1.5,miny=-1.5,minz=-1.5,maxx=1.5,maxy=1.5,maxz=1.5"},
	{"gen:terrain:n=17,size=4,height=1", "gen:capsule:radius=0.5,height=1,tris=200"},
	{"gen:cylinder:tris=300", "gen:uvsphere:tris=200"},
}

// genPoses are poses that put the models of genScenes in and out of
// contact: the identity, shifts, and rotations about tilted axes.
const genPoses = identityPose + `
1 0 0 0 1 0 0 0 1 1.3 0.2 0.1
1 0 0 0 1 0 0 0 1 0.5 0.5 2.5
0.36 0.48 -0.8 -0.8 0.6 0 0.48 0.64 0.6 0.9 -0.4 0.3
0 -1 0 1 0 0 0 0 1 2 1 0.5
0.36 0.48 -0.8 -0.8 0.6 0 0.48 0.64 0.6 1.9 1.6 0.8
1 0 0 0 1 0 0 0 1 10 0 0
`

// checkJSON runs check --json with args and returns its lines.
func checkJSON(t *testing.T, args ...string) []checkLine {
	t.Helper()
	stdout, stderr, code := runCLI(t, append([]string{"check", "--json"}, args...)...)
	if code != exitOK {
		t.Fatalf("check --json %q: exit %d\n%s", args, code, stderr)
	}
	return parseCheckJSON(t, stdout)
}

// TestGenModelsOracle checks every hierarchy configuration against --bv
// brute on generated models at poses in and out of contact.
func TestGenModelsOracle(t *testing.T) {
	pf := writeFile(t, t.TempDir(), "poses.txt", []byte(genPoses))
	contacts := 0
	for _, sc := range genScenes {
		want := checkJSON(t, "--all", "--bv", "brute", "--poses", pf, sc.env, sc.fly)
		for _, l := range want {
			contacts += len(l.Pairs)
		}
		for _, cfg := range hierarchyConfigs[1:] {
			got := checkJSON(t, slices.Concat([]string{"--all", "--poses", pf}, cfg, []string{sc.env, sc.fly})...)
			for i := range want {
				assertPairs(t, fmt.Sprintf("%s %s %s: pose %d", strings.Join(cfg, " "), sc.env, sc.fly, i), got[i].Pairs, want[i].Pairs)
			}
		}
	}
	if contacts == 0 {
		t.Error("no pose puts any generated scene in contact")
	}
}

// sameResults reports the first difference between two runs of check
// --json, but for the times.
func sameResults(t *testing.T, what string, got, want []checkLine) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d lines, want %d", what, len(got), len(want))
	}
	for i := range want {
		g, w := got[i], want[i]
		g.Seconds, w.Seconds = 0, 0
		if g.Pose != w.Pose || g.Collide != w.Collide || !slices.Equal(g.Pairs, w.Pairs) || g.Stats != w.Stats {
			t.Errorf("%s: pose %d:\ngot  %+v\nwant %+v", what, i, g, w)
			return
		}
	}
}

// build runs collide build with args and fails the test on an error.
func build(t *testing.T, args ...string) string {
	t.Helper()
	stdout, stderr, code := runCLI(t, append([]string{"build"}, args...)...)
	if code != exitOK {
		t.Fatalf("build %q: exit %d\n%s", args, code, stderr)
	}
	return stdout
}

// TestBuildCheck checks that check gives the same results, pairs and
// counts, on saved models as on the meshes they were built from.
func TestBuildCheck(t *testing.T) {
	dir := t.TempDir()
	pf := writeFile(t, dir, "poses.txt", []byte(genPoses))
	sc := genScenes[0]
	for ci, flags := range [][]string{
		nil,
		{"--bv", "kdop14", "--rule", "minsum", "--split", "median", "--env-leaf", "2", "--leaf", "4"},
		{"--bv", "kdop26", "--rule", "longest", "--leaf", "1"},
		{"--bv", "obb", "--rule", "rapid"},
		{"--bv", "sphere", "--env-leaf", "2"},
		{"--bv", "boxtree", "--split", "median"},
		{"--bv", "kdop18", "--compact"},
	} {
		name := strings.Join(flags, " ")
		env := filepath.Join(dir, fmt.Sprintf("env%d.collide", ci))
		fly := filepath.Join(dir, fmt.Sprintf("fly%d.bin", ci)) // recognised by its content
		out := build(t, slices.Concat(flags, []string{sc.env, "-o", env})...)
		if !regexp.MustCompile(`^` + regexp.QuoteMeta(env) + `: [a-z]+\d*, \d+ triangles, \d+ nodes, height \d+, \d+ bytes, built in .+\n$`).MatchString(out) {
			t.Errorf("build %s: summary %q", name, out)
		}
		build(t, slices.Concat([]string{sc.fly, "-o", fly}, flags)...)
		for _, query := range [][]string{{"--all"}, {}, {"--all", "--restart"}, {"--exact-root"}} {
			base := slices.Concat(query, []string{"--poses", pf})
			want := checkJSON(t, slices.Concat(base, flags, []string{sc.env, sc.fly})...)
			what := fmt.Sprintf("[%s] %s", name, strings.Join(query, " "))
			// Saved models carry their options: no flags needed, and a
			// mesh checked against a saved model is built like it.
			sameResults(t, what+" saved ENV", checkJSON(t, slices.Concat(base, []string{env, sc.fly})...), want)
			sameResults(t, what+" saved FLY", checkJSON(t, slices.Concat(base, []string{sc.env, fly})...), want)
			sameResults(t, what+" both saved", checkJSON(t, slices.Concat(base, []string{env, fly})...), want)
			sameResults(t, what+" both saved, flags", checkJSON(t, slices.Concat(base, flags, []string{env, fly})...), want)
		}
	}

	// A saved model as both ENV and FLY.
	env := filepath.Join(dir, "env0.collide")
	sameResults(t, "self", checkJSON(t, "--all", env, env), checkJSON(t, "--all", sc.env, sc.env))

	// Text output too.
	stdout, stderr, code := runCLI(t, "check", "--all", env, sc.fly)
	if code != exitOK || !strings.HasPrefix(stdout, "pose 0: ") {
		t.Errorf("text output on a saved model: exit %d\n%s%s", code, stdout, stderr)
	}

	// Saved models with different bounding volumes: k-DOPs of different k
	// fly together (the flying tree tumbles in the environment's k-DOPs);
	// for other volumes check flies FLY's companion of ENV's volume.
	env14, fly26 := filepath.Join(dir, "env1.collide"), filepath.Join(dir, "fly2.bin")
	envOBB, flySphere := filepath.Join(dir, "env3.collide"), filepath.Join(dir, "fly4.bin")
	for _, c := range []struct{ env, fly, envMesh, flyMesh string }{
		{env14, fly26, sc.env, sc.fly},
		{fly26, env14, sc.fly, sc.env},
		{envOBB, fly26, sc.env, sc.fly},
		{fly26, envOBB, sc.fly, sc.env},
		{flySphere, env14, sc.fly, sc.env},
	} {
		want := checkJSON(t, "--all", "--bv", "brute", "--poses", pf, c.envMesh, c.flyMesh)
		got := checkJSON(t, "--all", "--poses", pf, c.env, c.fly)
		for i := range want {
			assertPairs(t, fmt.Sprintf("%s %s: pose %d", c.env, c.fly, i), got[i].Pairs, want[i].Pairs)
		}
	}
}

// TestSavedOptionConflicts checks that flags contradicting a saved model are
// usage errors naming the flag and the file, and that agreeing ones are not.
func TestSavedOptionConflicts(t *testing.T) {
	dir := t.TempDir()
	saved := filepath.Join(dir, "m.collide")
	build(t, "--bv", "kdop14", "--rule", "minsum", "--leaf", "4", "gen:icosphere:tris=80", "-o", saved)
	other := "gen:icosphere:tris=80,radius=0.5"
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--bv", "kdop18", saved, other}, "--bv kdop18"},
		{[]string{"--bv", "brute", other, saved}, "--bv brute"},
		{[]string{"--rule", "splatter", saved, other}, "--rule splatter"},
		{[]string{"--split", "median", other, saved}, "--split median"},
		{[]string{"--env-leaf", "2", saved, saved}, "--env-leaf 2"},
		{[]string{"--leaf", "0", saved, other}, "--leaf 0"},
		{[]string{"--bv", "kdop14", "--compact", saved, other}, "--compact true"},
	} {
		_, stderr, code := runCLI(t, append([]string{"check"}, tc.args...)...)
		if code != exitUsage || !strings.Contains(stderr, tc.want) || !strings.Contains(stderr, saved) {
			t.Errorf("check %q: exit %d, want 2 and an error naming %q and %s:\n%s", tc.args, code, tc.want, saved, stderr)
		}
	}
	for _, args := range [][]string{
		{"--bv", "kdop14", "--rule", "minsum", "--leaf", "4", "--env-leaf", "1", "--split", "mean", saved, other},
		{"--bv", "kdop14", saved, saved},
	} {
		if _, stderr, code := runCLI(t, append([]string{"check"}, args...)...); code != exitOK {
			t.Errorf("check %q: exit %d\n%s", args, code, stderr)
		}
	}
	// Without --bv a mesh checked against the saved model is built with its
	// options: the counts are those of kdop14, minsum, leaf 4.
	sameResults(t, "inherited options",
		checkJSON(t, "--all", saved, other),
		checkJSON(t, "--all", "--bv", "kdop14", "--rule", "minsum", "--leaf", "4", "gen:icosphere:tris=80", other))
}

func TestBuildOverwrite(t *testing.T) {
	dir := t.TempDir()
	p := writeFile(t, dir, "keep.collide", []byte("precious"))
	_, stderr, code := runCLI(t, "build", "gen:icosphere:tris=80", "-o", p)
	if code != exitError || !strings.Contains(stderr, "--force") || !strings.Contains(stderr, p) {
		t.Errorf("overwrite without --force: exit %d, stderr %q", code, stderr)
	}
	if b, _ := os.ReadFile(p); string(b) != "precious" {
		t.Errorf("file overwritten without --force")
	}
	build(t, "--force", "gen:icosphere:tris=80", "-o", p)
	if b, _ := os.ReadFile(p); string(b) == "precious" {
		t.Errorf("--force did not overwrite")
	}
	if _, stderr, code := runCLI(t, "check", p, p); code != exitOK {
		t.Errorf("check on the overwritten model: exit %d\n%s", code, stderr)
	}

	// Failures leave nothing behind.
	if _, stderr, code := runCLI(t, "build", "gen:icosphere", "-o", filepath.Join(dir, "no", "such", "dir.collide")); code != exitError {
		t.Errorf("build into a missing directory: exit %d\n%s", code, stderr)
	}
	bad := writeFile(t, dir, "bad.obj", []byte("v 0 0 0\nv 1 0 0\nf 1 2 3\n"))
	_, stderr, code = runCLI(t, "build", bad, "-o", filepath.Join(dir, "bad.collide"))
	if code != exitError || !strings.Contains(stderr, bad+": line 3") {
		t.Errorf("build of a bad mesh: exit %d, stderr %q", code, stderr)
	}
	entries, _ := os.ReadDir(dir)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if !slices.Equal(names, []string{"bad.obj", "keep.collide"}) {
		t.Errorf("directory holds %v, want only bad.obj and keep.collide", names)
	}
}

// TestBuildFromSaved rebuilds a saved model with other options.
func TestBuildFromSaved(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.collide"), filepath.Join(dir, "b.collide")
	build(t, "--bv", "kdop6", "gen:torus:tris=400", "-o", a)
	build(t, "--bv", "kdop26", "--split", "median", a, "-o", b)
	got := infoJSON(t, b)[0]
	if got.Tree == nil || got.Tree.BV != "kdop26" || got.Tree.Split != "median" || got.Triangles != infoJSON(t, "gen:torus:tris=400")[0].Triangles {
		t.Errorf("rebuilt model: %+v", got)
	}
}

// TestCorruptSaved checks that truncated or corrupted saved models are
// errors naming the file and a byte offset.
func TestCorruptSaved(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.collide")
	build(t, "gen:icosphere:tris=320", "-o", good)
	data, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	type corrupt struct {
		name string
		data []byte
	}
	var cases []corrupt
	for _, n := range []int{0, 3, 8, 12, 20, 40, len(data) / 3, len(data) / 2, len(data) - 1} {
		cases = append(cases, corrupt{fmt.Sprintf("cut%d.collide", n), data[:n]})
	}
	// Recognised by content whatever the name.
	cases = append(cases, corrupt{"cut.obj", data[:len(data)/2]}, corrupt{"cut", data[:len(data)/2]})
	// The magic, or a header field, broken.
	magic := slices.Clone(data)
	magic[1] ^= 0xff
	cases = append(cases, corrupt{"magic.collide", magic})
	for _, at := range []int{8, 12, 16, 24, 32} {
		if at+4 > len(data) {
			continue
		}
		b := slices.Clone(data)
		copy(b[at:], []byte{0xff, 0xff, 0xff, 0x7f})
		cases = append(cases, corrupt{fmt.Sprintf("big%d.collide", at), b})
	}
	// Trailing garbage.
	cases = append(cases, corrupt{"trailing.collide", append(slices.Clone(data), "junk"...)})
	// A bit flipped in the data, in the checksum.
	for _, at := range []int{len(data) / 2, len(data) - 2} {
		b := slices.Clone(data)
		b[at] ^= 0x10
		cases = append(cases, corrupt{fmt.Sprintf("flip%d.bin", at), b})
	}

	other := "gen:icosphere:tris=80"
	for _, tc := range cases {
		p := writeFile(t, dir, tc.name, tc.data)
		re := regexp.MustCompile(`(?m)^collide \w+: ` + regexp.QuoteMeta(p) + `: offset \d+: `)
		for _, args := range [][]string{
			{"check", p, other},
			{"check", "--json", other, p},
			{"info", p},
			{"info", "--json", p},
			{"build", p, "-o", filepath.Join(dir, "out.collide")},
		} {
			_, stderr, code := runCLI(t, args...)
			if code != exitError {
				t.Errorf("collide %q: exit %d, want 1\nstderr: %s", args, code, stderr)
			}
			if !re.MatchString(stderr) {
				t.Errorf("collide %q: stderr does not match %q:\n%s", args, re, stderr)
			}
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "out.collide")); err == nil {
		t.Error("build from a corrupt model wrote out.collide")
	}
}

// infoJSON runs info --json on args.
func infoJSON(t *testing.T, args ...string) []jsonInfoLine {
	t.Helper()
	stdout, stderr, code := runCLI(t, append([]string{"info", "--json"}, args...)...)
	if code != exitOK {
		t.Fatalf("info --json %q: exit %d\n%s", args, code, stderr)
	}
	return parseInfo(t, stdout)
}

func TestInfoSaved(t *testing.T) {
	dir := t.TempDir()
	mesh := filepath.Join(dir, "m.obj")
	if _, stderr, code := runCLI(t, "gen", "torus", "tris=400", "-o", mesh); code != exitOK {
		t.Fatalf("gen: exit %d\n%s", code, stderr)
	}
	a, b, c := filepath.Join(dir, "a.collide"), filepath.Join(dir, "b"), filepath.Join(dir, "c.collide")
	build(t, "--bv", "kdop18", mesh, "-o", a)
	build(t, "--bv", "kdop6", "--rule", "minmax", "--split", "median", "--env-leaf", "3", "--leaf", "5", mesh, "-o", b)
	build(t, mesh, "-o", c)
	got := infoJSON(t, mesh, a, b, c)
	m := got[0]
	if m.Tree != nil || m.Format != "obj" {
		t.Errorf("mesh: %+v", m)
	}
	for _, g := range got[1:3] {
		if g.Format != "collide" || g.Vertices != m.Vertices || g.Triangles != m.Triangles || g.Bounds == nil || *g.Bounds != *m.Bounds ||
			g.Degenerate != m.Degenerate || g.Duplicate != m.Duplicate || g.Tree == nil {
			t.Fatalf("saved %s: %+v, mesh %+v", g.File, g, m)
		}
		if tr := g.Tree; tr.Nodes < 1 || tr.Height < 1 || tr.Bytes <= 0 || tr.FlyLeaf < 1 || tr.Float64 {
			t.Errorf("saved %s: tree %+v", g.File, tr)
		}
	}
	if tr := got[1].Tree; tr.BV != "kdop18" || tr.K != 18 || tr.Rule != "splatter" || tr.Split != "mean" || tr.Leaf != 1 || !tr.FlyLeafAuto {
		t.Errorf("kdop18 build with the default options: tree %+v", tr)
	}
	// The default build: check's default bounding volume (AABB trees,
	// float64 boxes, no k), with the default options.
	if g := got[3]; g.Format != "collide" || g.Triangles != m.Triangles || g.Tree == nil {
		t.Fatalf("saved %s: %+v, mesh %+v", g.File, g, m)
	} else if tr := g.Tree; tr.BV != "aabb" || tr.K != 0 || tr.Rule != "splatter" || tr.Split != "mean" || tr.Leaf != 1 || !tr.FlyLeafAuto ||
		tr.Nodes < 1 || tr.Height < 1 || tr.Bytes <= 0 {
		t.Errorf("default build: tree %+v", tr)
	}
	if tr := got[2].Tree; tr.BV != "kdop6" || tr.K != 6 || tr.Rule != "minmax" || tr.Split != "median" || tr.Leaf != 3 || tr.FlyLeaf != 5 || tr.FlyLeafAuto {
		t.Errorf("kdop6 build: tree %+v", tr)
	}

	stdout, stderr, code := runCLI(t, "info", b)
	if code != exitOK {
		t.Fatalf("info: exit %d\n%s", code, stderr)
	}
	for _, w := range []string{"format      collide", fmt.Sprintf("triangles   %d", m.Triangles), "bv          kdop6 (k = 6, float32 bounds)", "rule        minmax",
		"split       median", "leaf        3", "fly leaf    5", "nodes       ", "height      ", "tree bytes  "} {
		if !strings.Contains(stdout, w) {
			t.Errorf("info output lacks %q:\n%s", w, stdout)
		}
	}
}

func TestBuildProgress(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "m.collide")
	// Not a terminal: nothing on stderr.
	if _, stderr, code := runCLI(t, "build", "gen:icosphere:tris=80", "-o", p); code != exitOK || stderr != "" {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}

	defer func(min int, term func(io.Writer) bool, after time.Duration) {
		buildProgressMin, isTerminal, statusAfter = min, term, after
	}(buildProgressMin, isTerminal, statusAfter)
	buildProgressMin, statusAfter = 0, 0 // the line at once, however short the build
	isTerminal = func(io.Writer) bool { return true }
	stdout, stderr, code := runCLI(t, "build", "--force", "gen:icosphere:tris=80", "-o", p)
	if code != exitOK {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	if !strings.HasPrefix(stderr, "\rbuilding gen:icosphere:tris=80: 80 triangles, 0.0 s") || !strings.HasSuffix(stderr, "\r") || strings.Contains(stderr, "\n") {
		t.Errorf("progress output %q", stderr)
	}
	if strings.Contains(stdout, "\r") {
		t.Errorf("progress on stdout: %q", stdout)
	}
}

func TestBuildUsage(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "m.collide")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"build", "gen:icosphere", "-o", out, "--bv", "brute"}, "nothing to save"},
		{[]string{"build", "gen:icosphere", "-o", out, "--bv", "nosuch"}, "--bv"},
		{[]string{"build", "gen:icosphere"}, "-o"},
		{[]string{"build", "-o", out}, "need 1 model"},
		{[]string{"build", "gen:icosphere", "gen:torus", "-o", out}, "need 1 model"},
		{[]string{"build", "gen:icosphere", "-o", out, "--rule", "best"}, "splatter, longest, minsum, minmax"},
		{[]string{"build", "gen:icosphere", "-o", out, "--split", "middle"}, "mean, median"},
		{[]string{"build", "gen:icosphere", "-o", out, "--leaf", "-1"}, "--leaf"},
		{[]string{"build", "gen:icosphere", "-o", out, "--env-leaf", "0"}, "--env-leaf"},
		{[]string{"build", "gen:icosphere", "-o", out, "--compact"}, "--compact"},
		{[]string{"build", "gen:nosuch", "-o", out}, "nosuch"},
	} {
		stdout, stderr, code := runCLI(t, tc.args...)
		if code != exitUsage || !strings.Contains(stderr, tc.want) || !strings.Contains(stderr, "usage: collide build") || stdout != "" {
			t.Errorf("collide %q: exit %d, want 2 and %q in stderr:\n%s", tc.args, code, tc.want, stderr)
		}
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("a failed build wrote its output")
	}
}

// TestInfoJSONTreeKeys checks the keys of the "tree" object of info --json.
func TestInfoJSONTreeKeys(t *testing.T) {
	p := filepath.Join(t.TempDir(), "m.collide")
	build(t, "gen:box", "-o", p)
	stdout, _, _ := runCLI(t, "info", "--json", p)
	var raw struct{ Tree map[string]json.RawMessage }
	if err := json.Unmarshal([]byte(stdout), &raw); err != nil {
		t.Fatal(err)
	}
	want := []string{"bv", "bytes", "compact", "float64", "fly_leaf", "fly_leaf_auto", "height", "k", "leaf", "nodes", "rule", "split"}
	if got := sortedKeys(raw.Tree); !slices.Equal(got, want) {
		t.Errorf("tree keys %v, want %v", got, want)
	}
}

// TestInfoCompact checks what info says of a model built with --compact:
// compact in JSON, 8-bit bounds in text, and fewer tree bytes than the
// same model in float32.
func TestInfoCompact(t *testing.T) {
	dir := t.TempDir()
	plain, compact := filepath.Join(dir, "p.collide"), filepath.Join(dir, "c.collide")
	build(t, "--bv", "kdop18", "gen:torus:tris=400", "-o", plain)
	build(t, "--bv", "kdop18", "--compact", "gen:torus:tris=400", "-o", compact)
	got := infoJSON(t, plain, compact)
	p, c := got[0].Tree, got[1].Tree
	if p == nil || c == nil || p.Compact || !c.Compact || c.Float64 || 2*c.Bytes > p.Bytes || c.Nodes != p.Nodes {
		t.Errorf("info of a float32 tree %+v and of a compact one %+v", p, c)
	}
	stdout, stderr, code := runCLI(t, "info", compact)
	if code != exitOK || !strings.Contains(stdout, "bv          kdop18 (k = 18, 8-bit (compact) bounds)") {
		t.Errorf("info: exit %d\n%s%s", code, stdout, stderr)
	}
}
