package jobs

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/internal/jsonl"
	"github.com/collide3d/collide/mesh/obj"
	"github.com/collide3d/collide/nc"
	"github.com/collide3d/collide/nc/gcode"
	"github.com/collide3d/collide/nc/ncgen"
)

// runNCJob plans j in shards of size, runs the shards (the last first, all
// on one cache) and returns their lines joined in shard order followed by
// Finish's, with the plan and the summary.
func runNCJob(t *testing.T, j Job, size int, c *Cache) ([]byte, *Plan, Summary) {
	t.Helper()
	p, err := PlanJob(context.Background(), j, size, c)
	if err != nil {
		t.Fatalf("job %s: plan: %v", j.ID, err)
	}
	outs := make([][]byte, len(p.Shards))
	var rs []Result
	for i := len(p.Shards) - 1; i >= 0; i-- {
		var b bytes.Buffer
		r, err := Run(context.Background(), &p.Shards[i], c, &b)
		if err != nil {
			t.Fatalf("job %s: shard %d: %v", j.ID, i, err)
		}
		if r.Err != "" {
			t.Fatalf("job %s: shard %d failed: %s", j.ID, i, r.Err)
		}
		if n := int64(bytes.Count(b.Bytes(), []byte("\n"))); n != r.Lines {
			t.Errorf("job %s: shard %d wrote %d lines, its result says %d", j.ID, i, n, r.Lines)
		}
		outs[i] = b.Bytes()
		rs = append(rs, r)
	}
	tail, s := Finish(p, rs)
	if !s.OK {
		t.Fatalf("job %s: finish: %s", j.ID, s.Error)
	}
	return append(bytes.Join(outs, nil), tail...), p, s
}

// ncTiming matches the timing fields of nc's summary line, the only ones
// that may differ from the CLI's.
var ncTiming = regexp.MustCompile(`"(seconds|moves_per_second|build_seconds)":[-+0-9.eE]+`)

func maskNC(b []byte) []byte { return ncTiming.ReplaceAll(b, []byte(`"$1":T`)) }

// ncFiles writes a small mold part (OBJ) and a program over it: a zig-zag
// with arcs linking the rows, two samples lowered, a rapid into the part,
// tool changes (T1 M6, T2 M6: a job's --tool is every move's tool, as
// for the CLI), a zero-length move and an unknown word (a warning).
func ncFiles(t *testing.T) (dir, part, prog string) {
	t.Helper()
	dir = t.TempDir()
	m, err := ncgen.Mold(25, 0)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := obj.Encode(&b, m); err != nil {
		t.Fatal(err)
	}
	part = filepath.Join(dir, "part.obj")
	if err := os.WriteFile(part, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	src := ncgen.ZigZag(m, 3, ncgen.ZigZagOptions{Stepover: 10, Step: 2.5, Distort: ncgen.Distortion{Count: 2, Depth: 0.5}, Seed: 3, Arcs: true, RapidDown: 2})
	lines := strings.Split(src, "\n")
	if len(lines) < 40 {
		t.Fatalf("the program has %d lines", len(lines))
	}
	mid := len(lines) / 2
	lines = slices.Insert(lines, mid, "T2 M6 E5", "G1 X0 Y0 Z40", "G1 X0 Y0 Z40")
	lines = slices.Insert(lines, 1, "T1 M6")
	src = strings.Join(lines, "\n")
	for _, w := range []string{"G0", "G1", "G2", "G3"} {
		if !strings.Contains(src, w) {
			t.Fatalf("the program has no %s", w)
		}
	}
	prog = filepath.Join(dir, "part.nc")
	if err := os.WriteFile(prog, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, part, prog
}

const ncTool = "ball 6 20, shank 6 30, holder 20 25"

// TestNCJobs runs nc jobs in shards of 1, 3 and all the moves, and checks
// that their lines are the CLI's for the same command, byte for byte but
// for the summary's timing fields: the built-in demo, and a program with
// tool changes, arcs, rapids, a zero-length move and a warning, with and
// without --eps and --bv, on a mesh file, a saved model and a gen: part,
// and the demo with a tool of the job's; with --solid, a box holding much
// of the program (tool parts inside it) and the demo (its part closed).
func TestNCJobs(t *testing.T) {
	dir, part, prog := ncFiles(t)
	rel := func(p string) string { r, _ := filepath.Rel(dir, p); return r }
	t.Chdir(dir) // paths are used as given: relative to the working directory
	saved := "part.collide"
	if _, stderr, code := runCLI(t, dir, []string{"build", "--bv", "obb", rel(part), "-o", saved}); code != 0 {
		t.Fatalf("collide build: exit %d: %s", code, stderr)
	}
	c := NewCache()
	for _, j := range []Job{
		{ID: "demo", Query: "nc"},
		{ID: "demo-tool", Query: "nc", Tool: "flat 6 12, shank 10 40", BV: "kdop14"},
		{ID: "prog", Query: "nc", Part: rel(part), Program: rel(prog), Tool: ncTool},
		{ID: "eps", Query: "nc", Part: rel(part), Program: rel(prog), Tool: "flat 4 10, shank 4 20", Eps: 0.25, BV: "obb"},
		{ID: "saved", Query: "nc", Part: saved, Program: rel(prog), Tool: ncTool},
		{ID: "gen", Query: "nc", Part: "gen:icosphere:radius=20", Program: rel(prog), Tool: ncTool},
		{ID: "solid-gen", Query: "nc", Part: "gen:box:minx=30,miny=20,minz=-50,maxx=90,maxy=60,maxz=300,n=2", Program: rel(prog), Tool: ncTool, Solid: true},
		{ID: "solid-demo", Query: "nc", Solid: true, BV: "obb"},
	} {
		want, stderr, code := runCLI(t, dir, j.Command())
		if code != 0 {
			t.Fatalf("job %s: collide %q: exit %d: %s", j.ID, j.Command(), code, stderr)
		}
		if bytes.Count(want, []byte("\n")) < 3 {
			t.Fatalf("job %s: the CLI printed %q: want violations", j.ID, want)
		}
		p, err := PlanJob(context.Background(), j, 0, c)
		if err != nil {
			t.Fatal(err)
		}
		for _, size := range []int{1, 3, p.Units} {
			got, p, s := runNCJob(t, j, size, c)
			if wantShards := (p.Units + size - 1) / size; len(p.Shards) != wantShards {
				t.Errorf("job %s, size %d: %d shards, want %d", j.ID, size, len(p.Shards), wantShards)
			}
			if !bytes.Equal(maskNC(got), maskNC(want)) {
				t.Errorf("job %s, shards of %d: lines differ from collide %q's:\n%s", j.ID, size, j.Command(), firstDiffLine(maskNC(got), maskNC(want)))
			}
			if s.Lines != int64(bytes.Count(want, []byte("\n"))) || s.Unit != "move" || s.Units != p.Units || s.Hits != s.Lines-1 {
				t.Errorf("job %s, shards of %d: summary %+v: want the CLI's %d lines", j.ID, size, s, bytes.Count(want, []byte("\n")))
			}
		}
	}
	if n := c.Len(); n != 8+8 {
		t.Errorf("the cache holds %d entries: want the 8 jobs' parts and checkers", n)
	}
}

// firstDiffLine describes the first line where a and b differ.
func firstDiffLine(a, b []byte) string {
	la, lb := strings.Split(string(a), "\n"), strings.Split(string(b), "\n")
	for i := range max(len(la), len(lb)) {
		var x, y string
		if i < len(la) {
			x = la[i]
		}
		if i < len(lb) {
			y = lb[i]
		}
		if x != y {
			return fmt.Sprintf("line %d:\n got  %s\n want %s", i+1, trunc(x), trunc(y))
		}
	}
	return "(none)"
}

func trunc(s string) string {
	if len(s) > 300 {
		return s[:300] + "..."
	}
	return s
}

// TestNCFailures checks that a job the CLI refuses fails its plan with the
// CLI's error line for the same command: the first line of its stderr, or
// the first after the G-code warnings that the CLI prints before it.
func TestNCFailures(t *testing.T) {
	dir, part, prog := ncFiles(t)
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	bad := write("bad.nc", "G21\nG1 X1 Y2 F100\nG2 X5 Y5\n")
	// A helix in the ZX plane: the check refuses it at its move, the CLI
	// having read it; here the plan refuses it, before a malformed line
	// after it, as the CLI does.
	helix := write("helix.nc", "G21 G90\nG0 X0 Y0 Z30\nG18 G2 X10 Y5 Z30 I5 K0\nG17\nG2 X5 Y5\n")
	// The CLI prints a program's warnings before its error line.
	warned := write("warned.nc", "G21 E5\nG0 X0 Y0 Z30\nG1 X1 F100\nG2 X5 Y5\n")
	saved := filepath.Join(dir, "part.collide")
	if _, stderr, code := runCLI(t, dir, []string{"build", "--bv", "obb", part, "-o", saved}); code != 0 {
		t.Fatalf("collide build: exit %d: %s", code, stderr)
	}
	badMesh := write("bad.obj", "v 0 0 0\nv 1 0 0\nv 0 1\nf 1 2 3\n")
	for _, c := range []struct {
		name string
		j    Job
	}{
		{"bad program", Job{Part: part, Program: bad, Tool: ncTool}},
		{"helix", Job{Part: part, Program: helix, Tool: ncTool}},
		{"missing part", Job{Part: filepath.Join(dir, "none.stl"), Program: prog, Tool: ncTool}},
		{"missing program", Job{Part: part, Program: filepath.Join(dir, "none.nc"), Tool: ncTool}},
		{"bad mesh", Job{Part: badMesh, Program: prog, Tool: ncTool}},
		{"bad tool", Job{Part: part, Program: prog, Tool: "ball 6"}},
		{"bad tool item", Job{Part: part, Program: prog, Tool: "ball 6 20, wheel 3 4"}},
		{"blank tool", Job{Part: part, Program: prog, Tool: "  "}},
		{"no tool", Job{Part: part, Program: prog}},
		{"bad bv", Job{Part: part, Program: prog, Tool: ncTool, BV: "brute"}},
		{"negative eps", Job{Part: part, Program: prog, Tool: ncTool, Eps: -1}},
		{"swapped", Job{Part: prog, Program: part, Tool: ncTool}},
		{"part alone", Job{Part: part, Tool: ncTool}},
		{"program alone", Job{Program: prog, Tool: ncTool}},
		{"bad gen", Job{Part: "gen:nothing", Program: prog, Tool: ncTool}},
		{"warned", Job{Part: part, Program: warned, Tool: ncTool}},
		{"saved of another volume", Job{Part: saved, Program: prog, Tool: ncTool, BV: "kdop18"}},
		{"empty gen", Job{Part: "gen:icosphere:radius=0", Program: prog, Tool: ncTool}},
		{"open part as a solid", Job{Part: part, Program: prog, Tool: ncTool, Solid: true}},
	} {
		j := c.j
		j.ID, j.Query = "bad", "nc"
		_, stderr, code := runCLI(t, dir, j.Command())
		if code == 0 {
			t.Errorf("%s: collide %q succeeded", c.name, j.Command())
			continue
		}
		// The error line: the first of stderr but for the warnings before
		// it.
		want := ""
		for _, l := range strings.Split(string(stderr), "\n") {
			if !strings.HasSuffix(l, " (ignored)") {
				want = l
				break
			}
		}
		if c.name == "warned" && (want == strings.Split(string(stderr), "\n")[0] || !strings.Contains(want, "line 4: gcode: ")) {
			t.Errorf("%s: the CLI's stderr %q: want a warning, then the error", c.name, stderr)
		}
		_, err := PlanJob(context.Background(), j, 0, NewCache())
		var f *Failure
		if !errors.As(err, &f) {
			t.Errorf("%s: plan: %v, want a Failure", c.name, err)
			continue
		}
		if f.Message != want || f.Job != "bad" {
			t.Errorf("%s: the plan's message\n  %q\nwant the CLI's\n  %q", c.name, f.Message, want)
		}
		if s := Failed(j, err); s.Error != want || s.OK {
			t.Errorf("%s: Failed = %+v", c.name, s)
		}
	}
	// A key of another query.
	for _, j := range []Job{
		{ID: "k", Query: "nc", Env: "a.obj"},
		{ID: "k", Query: "nc", Poses: "p.txt"},
		{ID: "k", Query: "nc", All: true},
		{ID: "k", Query: "nc", Max: 2},
	} {
		_, err := PlanJob(context.Background(), j, 0, NewCache())
		var f *Failure
		if !errors.As(err, &f) || !strings.HasPrefix(f.Message, `collide nc: job key "`) {
			t.Errorf("job %+v: plan: %v, want a Failure naming the key", j, err)
		}
	}
}

// TestNCCommand checks the CLI arguments of nc jobs.
func TestNCCommand(t *testing.T) {
	for _, c := range []struct {
		j    Job
		want []string
	}{
		{Job{Query: "nc"}, []string{"nc", "--json"}},
		{Job{Query: "nc", Tool: "ball 2 5"}, []string{"nc", "--json", "--tool", "ball 2 5"}},
		{Job{Query: "nc", Part: "p.stl", Program: "a.nc", Tool: "flat 4 8", Eps: 1e-5, BV: "obb"},
			[]string{"nc", "--json", "--bv", "obb", "--eps", "1e-05", "--tool", "flat 4 8", "p.stl", "a.nc"}},
		{Job{Query: "nc", Part: "-p.stl", Program: "a.nc", Tool: "flat 4 8"}, []string{"nc", "--json", "--tool", "flat 4 8", "--", "-p.stl", "a.nc"}},
		{Job{Query: "nc", Part: "p.stl", Program: "a.nc", Tool: "flat 4 8", Solid: true}, []string{"nc", "--json", "--solid", "--tool", "flat 4 8", "p.stl", "a.nc"}},
	} {
		if got := c.j.Command(); !slices.Equal(got, c.want) {
			t.Errorf("%+v: Command = %q, want %q", c.j, got, c.want)
		}
	}
}

// TestNCRunErrors checks a shard whose moves the check refuses (a shard
// not from a plan: the plan refuses them) and a part changed since the
// plan: each fails its shard with the CLI's message, naming the unit.
func TestNCRunErrors(t *testing.T) {
	_, part, prog := ncFiles(t)
	j := Job{ID: "run", Query: "nc", Part: part, Program: prog, Tool: ncTool}
	c := NewCache()
	p, err := PlanJob(context.Background(), j, 5, c)
	if err != nil {
		t.Fatal(err)
	}
	s := p.Shards[2]
	ms, err := decodeMoves(s.Moves)
	if err != nil {
		t.Fatal(err)
	}
	ms[3] = gcode.Move{Line: 99, Kind: gcode.ArcCW, Plane: gcode.ZX, From: geom.V(0, 0, 30), To: geom.V(10, 5, 30), Center: geom.V(5, 0, 30), Radius: 5}
	s.Moves = encodeMoves(ms)
	r, err := Run(context.Background(), &s, c, &bytes.Buffer{})
	want := "collide nc: " + prog + ": line 99: nc: a helix outside the XY plane (G17) is not supported"
	if err != nil || r.Err != want || r.ErrUnit != s.First+3 {
		t.Errorf("a helix: Run = %+v, %v; want Err %q at move %d", r, err, want, s.First+3)
	}
	// The part changed: a worker without it in its cache refuses it.
	data, err := os.ReadFile(part)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(part, append(data, "\n# changed\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err = Run(context.Background(), &p.Shards[0], NewCache(), &bytes.Buffer{})
	if err != nil || !strings.Contains(r.Err, "the file changed since the job was planned") || !strings.HasPrefix(r.Err, "collide nc: "+part+": ") {
		t.Errorf("a changed part: Run = %+v, %v", r, err)
	}
	// Finish reports the failed shard's message.
	rs := []Result{{Job: "run", Index: 0, Err: r.Err}}
	if _, sum := Finish(p, rs); sum.OK || sum.Error != r.Err {
		t.Errorf("Finish of a failed shard: %+v", sum)
	}
}

// TestNCEmptyProgram checks a program with no moves: one empty shard, and
// the CLI's summary line.
func TestNCEmptyProgram(t *testing.T) {
	dir, part, _ := ncFiles(t)
	prog := filepath.Join(dir, "empty.nc")
	if err := os.WriteFile(prog, []byte("G21 G90\nM30\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	j := Job{ID: "empty", Query: "nc", Part: part, Program: prog, Tool: ncTool}
	got, p, _ := runNCJob(t, j, 0, NewCache())
	if len(p.Shards) != 1 || p.Units != 0 {
		t.Errorf("%d shards of %d moves, want 1 of 0", len(p.Shards), p.Units)
	}
	want, stderr, code := runCLI(t, dir, j.Command())
	if code != 0 {
		t.Fatalf("collide %q: exit %d: %s", j.Command(), code, stderr)
	}
	if !bytes.Equal(maskNC(got), maskNC(want)) {
		t.Errorf("lines %s, want the CLI's %s", got, want)
	}
}

// TestMovesEncoding checks that moves round-trip bit for bit, every field
// (NaN payloads, -0, arcs, repeated starts and feeds), and that every
// truncation or corruption of the bytes is an error, never a panic.
func TestMovesEncoding(t *testing.T) {
	nan := math.Float64frombits(0x7ff8_0000_dead_beef)
	ms := []gcode.Move{
		{Line: 1, N: -1, Kind: gcode.Rapid, From: geom.V(0, 0, 50), To: geom.V(1e300, -0.0, 5e-324), Feed: 0, Spindle: 0, Tool: 0},
		{Line: 2, N: 10, Kind: gcode.Linear, From: geom.V(1e300, -0.0, 5e-324), To: geom.V(3, 4, math.Copysign(0, -1)), Feed: 1200, Spindle: 12000, Tool: 3},
		{Line: 3, N: 11, Kind: gcode.ArcCCW, From: geom.V(3, 4, 0), To: geom.V(5, 6, 7), Center: geom.V(4, 5, -0.0), Radius: math.Sqrt2, Plane: gcode.YZ, Turns: 2, Feed: 1200, Spindle: 12000, Tool: 3},
		{Line: 1 << 40, N: math.MinInt32, Kind: gcode.ArcCW, From: geom.V(nan, 1, 2), To: geom.V(math.Inf(1), math.Inf(-1), nan), Center: geom.V(0, 0, 0), Radius: -0.0, Feed: nan, Tool: -7},
		{Line: 5, N: -1, Kind: gcode.Linear, From: geom.V(math.Inf(1), math.Inf(-1), nan), To: geom.V(0, 0, 0), Feed: nan, Tool: -7},
	}
	b := encodeMoves(ms)
	got, err := decodeMoves(b)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(ms) {
		t.Fatalf("decoded %d moves, want %d", len(got), len(ms))
	}
	for i := range ms {
		if !sameMove(got[i], ms[i]) {
			t.Errorf("move %d: decoded %+v, want %+v", i, got[i], ms[i])
		}
	}
	if got, err := decodeMoves(encodeMoves(nil)); err != nil || len(got) != 0 {
		t.Errorf("no moves: %v, %v", got, err)
	}
	for n := range len(b) {
		if _, err := decodeMoves(b[:n]); err == nil && n != 1 && !endsMove(b, n) {
			t.Errorf("%d of %d bytes decoded without error", n, len(b))
		}
	}
	for i := range b {
		c := slices.Clone(b)
		c[i] ^= 0xff
		decodeMoves(c) // no panic
	}
}

// endsMove reports whether the first n bytes of b end a whole move (a
// prefix of whole moves decodes).
func endsMove(b []byte, n int) bool {
	ms, err := decodeMoves(b[:n])
	return err == nil && bytes.Equal(encodeMoves(ms), b[:n])
}

// sameMove reports whether a and b have the same bits in every field.
func sameMove(a, b gcode.Move) bool {
	f := func(x, y float64) bool { return math.Float64bits(x) == math.Float64bits(y) }
	return a.Line == b.Line && a.N == b.N && a.Kind == b.Kind && a.Plane == b.Plane && a.Turns == b.Turns && a.Tool == b.Tool &&
		sameVec(a.From, b.From) && sameVec(a.To, b.To) && sameVec(a.Center, b.Center) &&
		f(a.Radius, b.Radius) && f(a.Feed, b.Feed) && f(a.Spindle, b.Spindle) &&
		reflect.TypeOf(a).NumField() == 12 // a new field needs encoding
}

// TestNCConcurrent runs the demo's shards on 4 goroutines sharing a cache
// (each taking its own Checker): the lines are those of the shards run
// one after the other.
func TestNCConcurrent(t *testing.T) {
	c := NewCache()
	j := Job{ID: "demo", Query: "nc"}
	want, p, _ := runNCJob(t, j, 50, c)
	outs := make([]bytes.Buffer, len(p.Shards))
	rs := make([]Result, len(p.Shards))
	errs := make([]error, len(p.Shards))
	next := make(chan int)
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for i := range next {
				rs[i], errs[i] = Run(context.Background(), &p.Shards[i], c, &outs[i])
			}
		})
	}
	for i := range p.Shards {
		next <- i
	}
	close(next)
	wg.Wait()
	var got []byte
	for i := range outs {
		if errs[i] != nil || rs[i].Err != "" {
			t.Fatalf("shard %d: %v %s", i, errs[i], rs[i].Err)
		}
		got = append(got, outs[i].Bytes()...)
	}
	tail, s := Finish(p, rs)
	if !s.OK {
		t.Fatal(s.Error)
	}
	if got = append(got, tail...); !bytes.Equal(maskNC(got), maskNC(want)) {
		t.Errorf("concurrent shards differ:\n%s", firstDiffLine(maskNC(got), maskNC(want)))
	}
}

// BenchmarkNCDemo checks the built-in demo's moves (the part built and
// cached): whole, by one Checker as the CLI does, and as a job's shards of
// 64 and 4096 moves run one after the other (Run: decoding the moves,
// taking a Checker, writing the lines); plan is the job's plan with the
// part cached (reading and encoding the program).
func BenchmarkNCDemo(b *testing.B) {
	c := NewCache()
	j := Job{ID: "demo", Query: "nc"}
	p, err := PlanJob(context.Background(), j, 1<<30, c)
	if err != nil {
		b.Fatal(err)
	}
	ms, err := decodeMoves(p.Shards[0].Moves)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("whole", func(b *testing.B) {
		st, err := ncKind{}.setup(&j)
		if err != nil {
			b.Fatal(err)
		}
		part, err := st.part(&j, ncDemoName, c)
		if err != nil {
			b.Fatal(err)
		}
		ch, err := nc.New(part.model, nc.Options{Tool: st.tool})
		if err != nil {
			b.Fatal(err)
		}
		for b.Loop() {
			_, err := ch.CheckReader(&ncShardMoves{name: ncDemoName, moves: ms}, func(v nc.Violation) bool {
				return jsonl.WriteNCViolation(io.Discard, v) == nil
			})
			if err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(ms)), "ns/move")
	})
	b.Run("plan", func(b *testing.B) {
		for b.Loop() {
			if _, err := PlanJob(context.Background(), j, DefaultShard, c); err != nil {
				b.Fatal(err)
			}
		}
	})
	for _, size := range []int{64, DefaultShard} {
		p, err := PlanJob(context.Background(), j, size, c)
		if err != nil {
			b.Fatal(err)
		}
		bytes := 0
		for _, s := range p.Shards {
			bytes += len(s.Moves)
		}
		b.Run(fmt.Sprintf("shards=%d", size), func(b *testing.B) {
			for b.Loop() {
				for i := range p.Shards {
					if r, err := Run(context.Background(), &p.Shards[i], c, io.Discard); err != nil || r.Err != "" {
						b.Fatal(err, r.Err)
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(p.Units), "ns/move")
			b.ReportMetric(float64(bytes)/float64(p.Units), "bytes/move")
		})
	}
}
