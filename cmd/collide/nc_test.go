package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh/gen"
	"github.com/collide3d/collide/nc/ncgen"
)

// runNCStdin runs collide with stdin and checks, as runCLI does, that
// nothing panicked.
func runNCStdin(t *testing.T, stdin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(args, strings.NewReader(stdin), &out, &errb)
	for _, bad := range []string{"goroutine", "panic", "internal error"} {
		if strings.Contains(errb.String(), bad) || strings.Contains(out.String(), bad) {
			t.Errorf("collide %q: output mentions %q:\n%s", args, bad, errb.String())
		}
	}
	return out.String(), errb.String(), code
}

// ncFiles writes a small mold part and a zig-zag program over it (two
// samples lowered, a rapid into the stock on row 2) to a temporary folder
// and returns their paths and the program.
func ncFiles(t *testing.T) (dir, part, prog, src string) {
	t.Helper()
	dir = t.TempDir()
	m, err := ncgen.Mold(25, 0)
	if err != nil {
		t.Fatal(err)
	}
	part = writeOBJ(t, dir, "part.obj", m)
	src = ncgen.ZigZag(m, 3, ncgen.ZigZagOptions{Stepover: 10, Step: 2.5, Distort: ncgen.Distortion{Count: 2, Depth: 0.5}, Seed: 3, Numbers: true, RapidDown: 2})
	prog = writeFile(t, dir, "part.nc", []byte(src))
	return dir, part, prog, src
}

const ncTool = "ball 6 20, shank 6 30, holder 20 25"

// TestNCDemo runs the built-in demo: it says so, and finds gouges, the
// shank touching the part and the rapid.
func TestNCDemo(t *testing.T) {
	stdout, stderr, code := runCLI(t, "nc")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stderr, "built-in demo") {
		t.Errorf("stderr does not mention the demo: %q", stderr)
	}
	for _, want := range []string{": gouge: cutter on part, s ", ": shank: shank on part", ": rapid: cutter on part", "violations ", "moves/s", "checked " + demoName} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q", want)
		}
	}
}

// TestNCMinDepth checks that --min-depth drops the shallow violations: the
// demo's chords cut its bottle by less than a micrometre in places, its
// lowered samples by 0.4 mm.
func TestNCMinDepth(t *testing.T) {
	count := func(args ...string) int {
		stdout, stderr, code := runCLI(t, append([]string{"nc", "--quiet"}, args...)...)
		if code != exitOK {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		var n int
		for _, l := range strings.Split(stdout, "\n") {
			if rest, ok := strings.CutPrefix(l, "violations"); ok {
				fmt.Sscan(strings.TrimSpace(rest), &n)
			}
		}
		return n
	}
	all, some, deep := count(), count("--min-depth", "0.001"), count("--min-depth", "0.3")
	if !(all > some && some > deep && deep > 0) {
		t.Errorf("violations: %d in all, %d deeper than 0.001 mm, %d deeper than 0.3 mm", all, some, deep)
	}
}

// TestNCJSON checks the JSON Lines: one object per violation with every
// key, the summary last, its counts those of the lines.
func TestNCJSON(t *testing.T) {
	_, part, prog, _ := ncFiles(t)
	stdout, stderr, code := runCLI(t, "nc", part, prog, "--tool", ncTool, "--stock", "0 0 0 120 80 25", "--json")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	if len(lines) < 3 {
		t.Fatalf("%d lines: %s", len(lines), stdout)
	}
	kinds := map[string]int{}
	for _, l := range lines[:len(lines)-1] {
		var v map[string]any
		if err := json.Unmarshal([]byte(l), &v); err != nil {
			t.Fatalf("%v: %s", err, l)
		}
		for _, k := range []string{"move", "line", "n", "kind", "role", "target", "s0", "s1", "depth", "clearance", "graze", "triangles"} {
			if _, ok := v[k]; !ok {
				t.Errorf("no %q in %s", k, l)
			}
		}
		if _, ok := v["fixture"]; ok {
			t.Errorf("a fixture key without fixtures: %s", l)
		}
		s0, s1 := v["s0"].(float64), v["s1"].(float64)
		if !(0 <= s0 && s0 <= s1 && s1 <= 1) {
			t.Errorf("parameters %v..%v: %s", s0, s1, l)
		}
		kinds[v["kind"].(string)]++
	}
	var sum struct {
		Summary struct {
			Moves, Checked, Violations int
			ByKind                     map[string]int `json:"by_kind"`
			MovesPerSecond             float64        `json:"moves_per_second"`
			Tool, BV                   string
		}
	}
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &sum); err != nil {
		t.Fatal(err)
	}
	s := sum.Summary
	if s.Violations != len(lines)-1 || s.Moves < 50 || s.Checked > s.Moves || s.Tool != ncTool || s.BV != "kdop18" {
		t.Errorf("summary %+v for %d lines", s, len(lines)-1)
	}
	for k, n := range kinds {
		if s.ByKind[k] != n {
			t.Errorf("%s: %d lines, summary %d", k, n, s.ByKind[k])
		}
	}
	if kinds["gouge"] == 0 || kinds["rapid"] == 0 {
		t.Errorf("kinds %v: want the gouges of the lowered samples and the rapid into the stock", kinds)
	}
}

// TestNCInputs checks the ways of giving the inputs: the program on stdin,
// a program alone against a stock, a tool table, fixtures, warnings, --bv,
// --eps, --quiet.
func TestNCInputs(t *testing.T) {
	dir, part, prog, src := ncFiles(t)
	tools := writeFile(t, dir, "tools.txt", []byte("# the table\nT1 "+ncTool+"\n\nT2 flat 10 20\n"))
	box, _ := gen.Box(geom.AABB{Min: geom.V(55, 5, -5), Max: geom.V(65, 9, 40)}, 1)
	fixture := writeOBJ(t, dir, "clamp.obj", box)
	warned := writeFile(t, dir, "warned.nc", []byte(strings.Replace(src, "G21 G90 G17", "G21 G90 G17 E5", 1)))
	for _, c := range []struct {
		name  string
		stdin string
		args  []string
		out   []string // in stdout
		err   string   // in stderr
	}{
		{"stdin", src, []string{part, "-", "--tool", ncTool, "--quiet"}, []string{"checked stdin:", "violations "}, ""},
		{"program alone", "", []string{prog, "--stock", "0 0 -20 120 80 22", "--tool", ncTool}, []string{": rapid: cutter on stock", "the stock 0 0 -20 to 120 80 22"}, ""},
		{"tool table", "", []string{part, prog, "--tools", tools, "--quiet"}, []string{"the tools of " + tools}, ""},
		{"fixture", "", []string{part, prog, "--tool", ncTool, "--fixture", fixture}, []string{": fixture: cutter on fixture 0 (" + fixture + ")", "1 fixture"}, ""},
		{"fixture json", "", []string{part, prog, "--tool", ncTool, "--fixture", fixture, "--json"}, []string{`"target":"fixture","fixture":0`}, ""},
		{"warning", "", []string{part, warned, "--tool", ncTool, "--quiet"}, []string{"violations "}, "collide nc: " + warned + ": line 2: unknown word E5"},
		{"obb", "", []string{part, prog, "--tool", ncTool, "--bv", "obb", "--quiet"}, []string{", obb)"}, ""},
		{"eps", "", []string{part, prog, "--tool", ncTool, "--eps", "0.5"}, []string{", clearance "}, ""},
		{"start", "", []string{part, prog, "--tool", ncTool, "--start", "0 0 50", "--quiet"}, []string{"violations "}, ""},
	} {
		stdout, stderr, code := runNCStdin(t, c.stdin, append([]string{"nc"}, c.args...)...)
		if code != exitOK {
			t.Errorf("%s: exit %d: %s", c.name, code, stderr)
			continue
		}
		for _, w := range c.out {
			if !strings.Contains(stdout, w) {
				t.Errorf("%s: stdout lacks %q:\n%s", c.name, w, stdout)
			}
		}
		if !strings.Contains(stderr, c.err) {
			t.Errorf("%s: stderr lacks %q: %q", c.name, c.err, stderr)
		}
		if strings.Contains(strings.Join(c.args, " "), "--quiet") && strings.Count(stdout, "\n") != 4 {
			t.Errorf("%s: --quiet printed %d lines", c.name, strings.Count(stdout, "\n"))
		}
	}
}

// TestNCErrors checks that bad inputs of every kind exit with status 1
// and a message naming the file and line.
func TestNCErrors(t *testing.T) {
	dir, part, prog, src := ncFiles(t)
	badProg := writeFile(t, dir, "bad.nc", []byte("G21\nG1 X1 Y2 F100\nG2 X5 Y5\n"))
	badMesh := writeFile(t, dir, "bad.obj", []byte("v 0 0 0\nv 1 0 0\nv 0 1\nf 1 2 3\n"))
	badTools := writeFile(t, dir, "tools.txt", []byte("T1 ball 6 20\nT2 ball x 3\n"))
	otherTools := writeFile(t, dir, "t2.txt", []byte("T2 ball 6 20\n"))
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"bad program", []string{part, badProg, "--tool", ncTool}, badProg + ": line 3: gcode: "},
		{"bad mesh", []string{badMesh, prog, "--tool", ncTool}, badMesh + ": line 3"},
		{"bad tool", []string{part, prog, "--tool", "ball 6"}, `--tool "ball 6": tool: `},
		{"bad tool item", []string{part, prog, "--tool", "ball 6 20, wheel 3 4"}, `unknown item "wheel"`},
		{"bad tool table", []string{part, prog, "--tools", badTools}, badTools + ": line 2: tool: "},
		{"tool not in the table", []string{part, prog, "--tools", otherTools}, prog + ": line "},
		{"missing program", []string{part, dir + "/none.nc", "--tool", ncTool}, "none.nc"},
		{"missing part", []string{dir + "/none.stl", prog, "--tool", ncTool}, "none.stl"},
		{"missing table", []string{part, prog, "--tools", dir + "/none.txt"}, "none.txt"},
		{"strict", []string{part, writeFile(t, dir, "w.nc", []byte("G21 E5\n"+src)), "--tool", ncTool, "--strict"}, "w.nc: line 1: gcode: "},
	} {
		stdout, stderr, code := runCLI(t, append([]string{"nc"}, c.args...)...)
		if code != exitError || !strings.Contains(stderr, c.want) || !strings.HasPrefix(stderr, "collide nc: ") {
			t.Errorf("%s: exit %d, stderr %q; want 1 and %q", c.name, code, stderr, c.want)
		}
		if strings.Contains(stdout, "violations") {
			t.Errorf("%s: printed a summary", c.name)
		}
	}
}

// TestNCUsage checks that bad command lines exit with status 2 and say
// what is wrong.
func TestNCUsage(t *testing.T) {
	_, part, prog, _ := ncFiles(t)
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"three arguments", []string{part, prog, prog, "--tool", ncTool}, "at most a PART and a PROGRAM"},
		{"part alone", []string{part, "--tool", ncTool}, "give the PROGRAM after the PART"},
		{"program alone", []string{prog, "--tool", ncTool}, "--stock and --fixture"},
		{"program first", []string{prog, part, "--tool", ncTool}, "the PART comes first"},
		{"no tool", []string{part, prog}, "give the tool"},
		{"tool and tools", []string{part, prog, "--tool", ncTool, "--tools", prog}, "not both"},
		{"json and quiet", []string{"--json", "--quiet"}, "not both"},
		{"negative eps", []string{"--eps", "-1"}, "--eps"},
		{"hex eps", []string{"--eps", "0x10"}, "--eps"},
		{"negative min depth", []string{"--min-depth", "-1"}, "--min-depth"},
		{"unknown bv", []string{"--bv", "octree"}, "--bv"},
		{"auto bv", []string{"--bv", "auto"}, "--bv"},
		{"brute bv", []string{"--bv", "brute"}, "--bv"},
		{"short stock", []string{"--stock", "0 0 0 1 1"}, "--stock: want 6 numbers"},
		{"bad stock", []string{"--stock", "0 0 0 1 1 x"}, "--stock: number 6"},
		{"inverted stock", []string{"--stock", "0 0 2 1 1 1"}, "--stock: the first corner"},
		{"empty tool", []string{"--tool", " "}, "--tool is empty"},
		{"bad start", []string{"--start", "1 2"}, "--start: want 3 numbers"},
		{"unknown flag", []string{"--speed", "3"}, "--speed"},
	} {
		_, stderr, code := runCLI(t, append([]string{"nc"}, c.args...)...)
		if code != exitUsage || !strings.Contains(stderr, c.want) || !strings.Contains(stderr, "usage: collide nc") {
			t.Errorf("%s: exit %d, stderr %q; want 2 and %q", c.name, code, stderr, c.want)
		}
	}
	stdout, _, code := runCLI(t, "help", "nc")
	if code != exitOK || !strings.Contains(stdout, "--fixture MESH") || !strings.Contains(stdout, "built-in demo") {
		t.Errorf("help nc: exit %d:\n%s", code, stdout)
	}
}

// TestBenchNC runs bench --nc on two small environments and checks the
// report; a second run keeps it unless --force; bad flags are usage
// errors.
func TestBenchNC(t *testing.T) {
	dir := t.TempDir()
	args := []string{"bench", "--nc", "--quick", "--scenes", "buffalo,part2", "--steps", "40", "--rounds", "1", "-o", dir}
	stdout, stderr, code := runCLI(t, args...)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	report := filepath.Join(dir, "nc.md")
	if !strings.Contains(stdout, "wrote "+report+": 2 environments, 9 trees") {
		t.Errorf("stdout: %q", stdout)
	}
	b, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}
	md := string(b)
	for _, s := range []string{"# collide bench --nc", "| buffalo | terrain buffalo | 8192 | 40 |", "| part2 | bottle cavity | 12800 | 40 |",
		"| boxtree | obb ÷ kdop18 |", "## The dissertation's conclusions"} {
		if !strings.Contains(md, s) {
			t.Errorf("nc.md lacks %q", s)
		}
	}
	if _, stderr, code := runCLI(t, args...); code != exitError || !strings.Contains(stderr, "nc.md") {
		t.Errorf("second run: exit %d, %s", code, stderr)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--worlds"}, "--nc does not go"},
		{[]string{"--front"}, "--nc does not go"},
		{[]string{"--sizes", "100"}, "--sizes"},
		{[]string{"--scenes", "pipes"}, "--scenes: with --nc"},
		{[]string{"-o", ""}, "-o"},
	} {
		a := append([]string{"bench", "--nc", "--force"}, c.args...)
		if _, stderr, code := runCLI(t, a...); code != exitUsage || !strings.Contains(stderr, c.want) {
			t.Errorf("%q: exit %d, %s", a, code, stderr)
		}
	}
}

// TestNCMinDepthCertified checks --min-depth against a depth far below the
// tool's radius: a 200 mm face mill plunging 0.00004 mm into a floor is
// reported with a depth interval holding 0.00004, kept with --min-depth
// 0.00001 and dropped with 0.0001 (certainly shallower); JSON gives both
// ends.
func TestNCMinDepthCertified(t *testing.T) {
	dir := t.TempDir()
	floor, _ := gen.Box(geom.AABB{Min: geom.V(-300, -300, -10), Max: geom.V(300, 300, 0)}, 1)
	part := writeOBJ(t, dir, "floor.obj", floor)
	prog := writeFile(t, dir, "plunge.nc", []byte("G0 X0 Y0 Z5\nG1 Z-0.00004 F100\n"))
	args := []string{"nc", part, prog, "--tool", "flat 200 10"}
	count := func(extra ...string) (int, string) {
		stdout, stderr, code := runCLI(t, append(args, extra...)...)
		if code != exitOK {
			t.Fatalf("%q: exit %d: %s", extra, code, stderr)
		}
		return strings.Count(stdout, ": gouge: cutter on part"), stdout
	}
	if n, out := count(); n != 1 || !strings.Contains(out, "depth 3.99") || !strings.Contains(out, "..4.00") {
		t.Errorf("no filter: %d gouges, want 1 of depth about 4e-05:\n%s", n, out)
	}
	if n, out := count("--min-depth", "0.00001"); n != 1 {
		t.Errorf("--min-depth 0.00001: %d gouges, want the one 0.00004 deep:\n%s", n, out)
	}
	if n, out := count("--min-depth", "0.0001"); n != 0 {
		t.Errorf("--min-depth 0.0001: %d gouges, want none:\n%s", n, out)
	}
	stdout, _, _ := runCLI(t, append(args, "--json")...)
	var v struct {
		Depth    float64  `json:"depth"`
		DepthMax *float64 `json:"depth_max"`
	}
	if err := json.Unmarshal([]byte(strings.Split(stdout, "\n")[0]), &v); err != nil || v.DepthMax == nil || !(v.Depth <= 0.00004 && 0.00004 <= *v.DepthMax) {
		t.Errorf("JSON depth %v..%v (%v): want an interval holding 4e-05:\n%s", v.Depth, v.DepthMax, err, stdout)
	}
}

// ncLines is a standard input of n generated moves beside the stock box
// [0, 10]^3, every 1000th into it and the next one out, that samples the
// live heap every 50,000 lines, as collide nc reads them.
type ncLines struct {
	n, i int
	buf  []byte
	peak uint64
}

func (l *ncLines) Read(p []byte) (int, error) {
	for len(l.buf) == 0 {
		if l.i == l.n {
			return 0, io.EOF
		}
		if l.i%50_000 == 0 {
			runtime.GC()
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			l.peak = max(l.peak, ms.HeapAlloc)
		}
		x := 100 + l.i%5
		if l.i%1000 == 999 {
			x = 5
		}
		l.buf = fmt.Appendf(l.buf[:0], "G0 X%d Y5 Z5\n", x)
		l.i++
	}
	k := copy(p, l.buf)
	l.buf = l.buf[k:]
	return k, nil
}

// TestNCStreams checks that collide nc checks a program as it reads it:
// 150,000 moves on the standard input (22 MB as moves) leave the heap
// within a few megabytes, and every violation is reported, in JSON (each
// as it is found) and in text (a run for each move into the stock and the
// next one out).
func TestNCStreams(t *testing.T) {
	for _, format := range []string{"--json", "--text"} {
		args := []string{"nc", "--stock", "0 0 0 10 10 10", "--tool", "flat 2 3", "-"}
		if format == "--json" {
			args = append(args, "--json")
		}
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		in := &ncLines{n: 150_001}
		var out, errb bytes.Buffer
		if code := run(args, in, &out, &errb); code != exitOK {
			t.Fatalf("%s: exit %d: %s", format, code, errb.String())
		}
		if grew := int64(in.peak) - int64(ms.HeapAlloc); grew > 8<<20 {
			t.Errorf("%s: the heap grew by %d MB reading 150,000 moves", format, grew>>20)
		}
		want := 2 * (in.n / 1000)
		got := strings.Count(out.String(), `"kind":"rapid"`)
		if format != "--json" {
			got = 0
			for _, l := range strings.Split(out.String(), "\n") {
				if strings.Contains(l, ": rapid: cutter on stock, 2 moves; deepest at line ") {
					got += 2
				}
			}
		}
		if got != want || format != "--json" && !strings.Contains(out.String(), fmt.Sprintf("violations   %d on %d moves in %d runs", want, want, want/2)) {
			t.Errorf("%s: %d violations printed, want %d:\n%s", format, got, want, out.String()[max(0, out.Len()-500):])
		}
	}
}

// TestNCRuns checks the text output's runs against the JSON lines: one
// line per run of violations of one kind, tool part and target on
// consecutive moves (as many as grouping the JSON lines gives), deepest
// first, each naming its lines and its deepest violation's depth; the
// summary counts every violation.
func TestNCRuns(t *testing.T) {
	_, part, prog, _ := ncFiles(t)
	args := []string{"nc", part, prog, "--tool", ncTool, "--stock", "0 0 0 120 80 25"}
	js, stderr, code := runCLI(t, append(args, "--json")...)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	type key struct{ kind, role, target string }
	type jv struct {
		Move       int
		Kind, Role string
		Target     string
		Depth      float64
	}
	last := map[key]int{}
	runs, violations := 0, 0
	deepest := 0.0
	for _, l := range strings.Split(strings.TrimSpace(js), "\n") {
		var v jv
		if err := json.Unmarshal([]byte(l), &v); err != nil || v.Kind == "" {
			continue // the summary
		}
		violations++
		v.Depth = max(v.Depth, 0)
		deepest = max(deepest, v.Depth)
		k := key{v.Kind, v.Role, v.Target}
		if m, ok := last[k]; !ok || v.Move > m+1 {
			runs++
		}
		last[k] = v.Move
	}
	text, stderr, code := runCLI(t, args...)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	lines := strings.Split(strings.TrimSpace(text), "\n")
	body := lines[:len(lines)-4]
	if len(body) != runs || runs >= violations || !strings.Contains(text, fmt.Sprintf("violations   %d on ", violations)) || !strings.Contains(text, fmt.Sprintf(" in %d runs: ", runs)) {
		t.Fatalf("%d lines of runs for %d runs of %d violations:\n%s", len(body), runs, violations, text)
	}
	prev := math.Inf(1)
	multi := false
	for _, l := range body {
		_, after, ok := strings.Cut(l, ", depth ")
		if !ok {
			t.Fatalf("no depth: %s", l)
		}
		var d float64
		lo, _, _ := strings.Cut(strings.Fields(after)[0], "..")
		fmt.Sscanf(lo, "%g", &d)
		if d > prev {
			t.Errorf("not deepest first: %g after %g: %s", d, prev, l)
		}
		prev = d
		if strings.HasPrefix(l, "lines ") {
			multi = true
			if !strings.Contains(l, " moves; deepest at line ") {
				t.Errorf("a run without its deepest line: %s", l)
			}
		}
	}
	first, _, _ := strings.Cut(strings.Fields(strings.SplitN(body[0], ", depth ", 2)[1])[0], "..")
	if d, _ := strconv.ParseFloat(first, 64); !(d <= deepest && d >= deepest*(1-1e-3)) {
		t.Errorf("the first run's depth %v, the deepest violation's %v", d, deepest)
	}
	if !multi {
		t.Errorf("no run of more than one move: the test tests little")
	}
}
