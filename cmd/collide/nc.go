package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/collide3d/collide/internal/jsonl"
	srcpkg "github.com/collide3d/collide/internal/source"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/bench/toolpaths"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/internal/textscan"
	"github.com/collide3d/collide/nc"
	"github.com/collide3d/collide/nc/gcode"
	"github.com/collide3d/collide/nc/ncgen"
)

// demoName names the built-in demo's program in messages.
const demoName = "builtin:demo"

// demoBlockDepth is how far below its lowest point the demo's part is
// closed into a block with --solid (mm).
const demoBlockDepth = 10

type ncOptions struct {
	fs       *flag.FlagSet
	fixtures stringList
	stock    string
	tool     string
	tools    string
	bv       string
	eps      float64
	minDepth float64
	start    string
	strict   bool
	solid    bool
	json     bool
	quiet    bool
	// deadline bounds the whole check, moveDeadline each move (0: none).
	deadline, moveDeadline time.Duration
}

// stringList is a flag that may be given many times.
type stringList []string

func (l *stringList) String() string { return strings.Join(*l, ", ") }

func (l *stringList) Set(s string) error {
	*l = append(*l, s)
	return nil
}

func ncCommand() *command {
	return &command{
		name:  "nc",
		usage: "nc [flags] [PART] [PROGRAM.nc|-]",
		help: fmt.Sprintf(`
Verifies a 3-axis milling program (G-code) against the part it makes, as
in the NC application of Klosowski's dissertation: every move's swept
volume is checked exactly (not only the tool's positions) for the cutter
cutting into the part (a gouge), the shank or holder touching the part, a
fixture or the stock, a rapid (G0) touching anything, and the cutter
meeting a fixture.

PART is a mesh file (.obj, .stl, .ply, .off, .gltf, .glb; FILE#NAME for
one mesh of a glTF file), a generated model
gen:KIND[:key=value,...] or a saved model; --fixture adds a model nothing
may touch (repeat it for several). PROGRAM is a G-code file (RS-274, the
LinuxCNC dialect: G0-G3 with arcs in three planes and helices, G90/G91,
G20/G21, F S T M6; see package nc/gcode), or - for the standard input.
A PROGRAM alone is checked against --stock and --fixture. With no PART and
no PROGRAM, nc checks its built-in demo (a bottle core of %d triangles
and a zig-zag finishing program with a few faults, tool %q) and says so
on stderr.

The tool is --tool SPEC, the items of a comma-separated list stacked from
the tip up (lengths in mm; D a diameter, L a length):
  ball D L | flat D L | bull D r L | taper d D L   the cutter
  shank D L                                       the shank above it
  holder D L | holder D1:D2 L                     holder cylinders and cones
e.g. "ball 6 20, shank 6 30, holder 20 25"; or --tools FILE, a tool table
of lines "T1 ball 6 20, shank 6 30" (blank lines and # comments skipped),
each move using the tool of its program's last T and M6. --stock "x0 y0 z0
x1 y1 z1" is the raw stock's box: rapids, the shank and the holder must not
meet it (the cutter may). --eps X reports anything closer than X mm.
--min-depth D drops the violations certainly shallower than D mm (the
tool part shrunk by D is proved to miss them; a finishing path touches its
surface by design: contact is closed, and a touch is a violation of depth
0).
--start "x y z" is the tool's position before the first move (default: the
first position the program gives each axis).

--solid treats the part and the fixtures as the solids they bound, not as
their surfaces: a tool part inside one without touching its surface is a
violation too (a cutter inside the part is a gouge), decided exactly
by the winding number of one point of it. Each must then be closed and
oriented (collide info says so), else --solid is an error naming the
file and what breaks; the demo's part, a surface, is closed into a block
%d mm deep below it. A move touching the surface is reported by its
triangles, as without --solid. An inside violation meets no triangle:
its depth is the tool part's radius (it stays inside however much it
shrinks, so --min-depth keeps it, as it keeps a tool inside the stock).

The text output prints runs of violations, deepest first: a run is one
kind (gouge, shank, holder, rapid, fixture), tool part and target on
consecutive moves, as a finishing pass dipping below its surface for a few
samples gives. Each run prints a line: its program lines and N numbers,
the kind, the tool part and what it meets, the number of moves and its
deepest violation's line, the range of that move's parameter s (0 at its
start, 1 at its end) where it happens, how deep the triangles reach into
the tool (depth: the most each part of the tool could shrink and still
meet them, 0 for a touch, as a certified interval "lo..hi": shrunk by lo
the part is proved to meet them, by hi to miss them; with --eps the least
clearance) and the triangles met. The deepest %d runs are listed (a line
counts the others). --json prints every violation as a JSON Line instead,
as it is found,
  {"move":I,"line":L,"n":N,"kind":"gouge","role":"cutter","target":"part",
   "s0":S,"s1":S,"depth":D,"depth_max":D,"clearance":C,"graze":false,"triangles":[...]}
(with "fixture":I, the --fixture's index from 0, when the target is a
fixture, and "inside":true, no triangles, for a tool part inside the stock
or, with --solid, inside the part or a fixture: "inside it (no triangle
met)" in text), then {"summary":{...}}. The summary counts the moves,
those checked (of non-zero length), the violations by kind (and the runs),
the time and the moves checked per second (with --solid, "solid":true and
"inside_tests", the tests of a point against the solids; "inside tests"
in text). --quiet prints the summary only.
The program is checked as it is read, in memory that does not grow with
its length (see package nc/gcode's Reader: an axis first given more than
%d moves into the program needs --start). G-code warnings go to stderr
with the file and line, after the check. On a terminal, once the check has
run for a second, stderr keeps a status line: the moves read, the line of
the current one, the violations found, the time.

--deadline DURATION (30s, 5m, ...) stops the check when it has run that
long, and --move-deadline DURATION cuts the check of any one move short
after that long (one pathological move cannot stall a long program; the
check goes on with the next). Nothing is invented: a violation is printed
only once every triangle it meets is known (if its range and depth were
not searched in time it says so, "stopped":true in JSON), and the moves
checked before are complete. The summary then says what was not checked:
a line "deadline" in text (the moves read before the stop, the lines of
the moves cut short), "stopped", "reached", "unfinished" and
"unfinished_lines" (the first 64) in JSON. An interrupt (Ctrl-C) stops
the check alike, within a few hundred exact tests: the violations found
and the summary are printed (a line "interrupted" in text, "stopped" and
"interrupted":true in JSON), and the exit status is 130.

Bounding volumes of the part's and the fixtures' trees (--bv): %s.`,
			ncgen.DemoGrid*ncgen.DemoGrid*2-4*ncgen.DemoGrid+2, ncgen.DemoTool, demoBlockDepth, nc.DefaultMaxGroups, gcode.DefaultLookahead, bvNames(hierarchies())),
		flags: func(fs *flag.FlagSet) any {
			o := &ncOptions{fs: fs}
			fs.Var(&o.fixtures, "fixture", "a fixture `MESH` nothing may touch (repeat for several)")
			fs.StringVar(&o.stock, "stock", "", "the stock's box `\"x0 y0 z0 x1 y1 z1\"` (mm): rapids, the shank and the holder must not meet it")
			fs.StringVar(&o.tool, "tool", "", "the tool `SPEC`, e.g. \"ball 6 20, shank 6 30, holder 20 25\"")
			fs.StringVar(&o.tools, "tools", "", "a tool table `FILE`: lines \"T1 ball 6 20, shank 6 30\"")
			fs.StringVar(&o.bv, "bv", collide.BVDefault.String(), "bounding volume `NAME` of the part's and fixtures' trees: "+bvNames(hierarchies()))
			floatFlag(fs, &o.eps, "eps", 0, "tolerance `X` >= 0 (mm): report tool parts closer than X (0: contact)")
			floatFlag(fs, &o.minDepth, "min-depth", 0, "drop the violations certainly shallower than `D` mm (0: every contact)")
			fs.StringVar(&o.start, "start", "", "the tool's position `\"x y z\"` before the first move (default: the program's first)")
			fs.BoolVar(&o.strict, "strict", false, "make unknown and unused G-code words errors, not warnings")
			fs.BoolVar(&o.solid, "solid", false, "treat the part and fixtures as solids: a tool inside one is a violation (each must be closed and oriented)")
			fs.BoolVar(&o.json, "json", false, "print JSON Lines: one object per violation, then the summary")
			fs.BoolVar(&o.quiet, "quiet", false, "print the summary only")
			fs.DurationVar(&o.deadline, "deadline", 0, "stop the check after `DURATION` (e.g. 30s, 5m; 0: none), saying which moves it checked")
			fs.DurationVar(&o.moveDeadline, "move-deadline", 0, "cut each move's check short after `DURATION` (0: none), naming the moves cut")
			return o
		},
		run: runNC,
	}
}

func (o *ncOptions) given(name string) bool {
	found := false
	o.fs.Visit(func(f *flag.Flag) { found = found || f.Name == name })
	return found
}

// parseNumbers parses exactly n decimal numbers separated by spaces, tabs or
// commas, for flag name.
func parseNumbers(name, s string, n int, what string) ([]float64, error) {
	fields := strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' })
	if len(fields) != n {
		return nil, usagef("--%s: want %d numbers (%s), got %d", name, n, what, len(fields))
	}
	xs := make([]float64, n)
	for i, f := range fields {
		x, e := textscan.ParseFloat([]byte(f))
		if e != textscan.NumOK {
			return nil, usagef("--%s: number %d: %s", name, i+1, e.Describe([]byte(f)))
		}
		xs[i] = x
	}
	return xs, nil
}

// ncJob is what runNC checks.
type ncJob struct {
	partArg, progArg string
	demo             bool
	demoProg         string // the demo's program
	part             *collide.Model
	partTris         int
	fixtures         []*collide.Model
	stock            *geom.AABB
	start            *geom.Vec3
	tool             nc.Tool
	tools            map[int]nc.Tool
	toolDesc         string
	prog             *gcode.Reader // the program, read as it is checked
	progName         string
	closeProg        func() error
	build            time.Duration
}

func runNC(e *env, opts any, args []string) error {
	o := opts.(*ncOptions)
	j := &ncJob{}
	switch len(args) {
	case 0:
		j.demo = true
	case 1:
		if srcpkg.IsModelArg(args[0]) {
			return usagef("give the PROGRAM after the PART %s (or - to read it from the standard input)", args[0])
		}
		j.progArg = args[0]
		if o.stock == "" && len(o.fixtures) == 0 {
			return usagef("a PROGRAM alone is checked against --stock and --fixture: give one, or a PART before %s", args[0])
		}
	case 2:
		if !srcpkg.IsModelArg(args[0]) && srcpkg.IsModelArg(args[1]) {
			return usagef("the PART comes first, then the PROGRAM (got %s %s)", args[0], args[1])
		}
		j.partArg, j.progArg = args[0], args[1]
	default:
		return usagef("at most a PART and a PROGRAM; got %d arguments", len(args))
	}
	if o.json && o.quiet {
		return usagef("give --json or --quiet, not both")
	}
	if o.tool != "" && o.tools != "" {
		return usagef("give --tool or --tools, not both")
	}
	if !(o.eps >= 0) { // the flag reads finite numbers only

		return usagef("--eps must be a finite number >= 0, not %v", o.eps)
	}
	if !(o.minDepth >= 0) {
		return usagef("--min-depth must be a finite number >= 0, not %v", o.minDepth)
	}
	if o.deadline < 0 || o.moveDeadline < 0 {
		return usagef("--deadline and --move-deadline must be >= 0")
	}
	bv, err := collide.ParseBV(o.bv)
	if err != nil || bv == collide.Brute {
		return usagef("--bv: want one of %s, not %q", bvNames(hierarchies()), o.bv)
	}
	for _, f := range []struct{ name, value string }{{"stock", o.stock}, {"start", o.start}, {"tool", o.tool}, {"tools", o.tools}} {
		if o.given(f.name) && strings.TrimSpace(f.value) == "" {
			return usagef("--%s is empty", f.name)
		}
	}
	if o.stock != "" {
		xs, err := parseNumbers("stock", o.stock, 6, "x0 y0 z0 x1 y1 z1")
		if err != nil {
			return err
		}
		b := geom.AABB{Min: geom.V(xs[0], xs[1], xs[2]), Max: geom.V(xs[3], xs[4], xs[5])}
		if b.Min.X > b.Max.X || b.Min.Y > b.Max.Y || b.Min.Z > b.Max.Z {
			return usagef("--stock: the first corner must be below the second in x, y and z (got %v and %v)", b.Min, b.Max)
		}
		j.stock = &b
	}
	if o.start != "" {
		xs, err := parseNumbers("start", o.start, 3, "x y z")
		if err != nil {
			return err
		}
		p := geom.V(xs[0], xs[1], xs[2])
		j.start = &p
	}
	if !j.demo && o.tool == "" && o.tools == "" {
		return usagef("give the tool: --tool SPEC or --tools FILE")
	}

	// The tool, the models, the program: errors from here on are the
	// inputs' (status 1).
	if err := j.loadTool(o); err != nil {
		return err
	}
	if err := j.loadModels(e, o, bv); err != nil {
		return err
	}
	if err := j.openProgram(e, o); err != nil {
		return err
	}
	return j.check(e, o)
}

func (j *ncJob) loadTool(o *ncOptions) error {
	switch {
	case o.tools != "":
		f, err := os.Open(o.tools)
		if err != nil {
			return err
		}
		defer f.Close()
		if j.tools, err = nc.ReadTools(f, o.tools); err != nil {
			return err
		}
		j.toolDesc = fmt.Sprintf("the tools of %s", o.tools)
		return nil
	case o.tool != "":
		t, err := nc.ParseTool(o.tool)
		if err != nil {
			return fmt.Errorf("--tool %q: %w", o.tool, err)
		}
		j.tool = t
	default: // the demo's
		t, err := nc.ParseTool(ncgen.DemoTool)
		if err != nil {
			return fmt.Errorf("the demo's tool: %w", err)
		}
		j.tool = t
	}
	j.toolDesc = fmt.Sprintf("%q", j.tool.String())
	return nil
}

// buildModel builds (or takes, if saved) the model of the argument arg.
func buildModel(e *env, arg string, bv collide.BV, given bool) (*collide.Model, error) {
	s, err := loadSource(e, arg)
	if err != nil {
		return nil, err
	}
	if err := hasTriangles(s); err != nil {
		return nil, err
	}
	if s.Saved != nil {
		if given && s.Saved.BV() != bv {
			return nil, usagef("--bv %s: %s is a saved %s model (omit --bv, or rebuild it with 'collide build --bv %s')", bv, arg, s.Saved.BV(), bv)
		}
		return s.Saved, nil
	}
	return buildWithProgress(e, s, collide.BuildOptions{BV: bv})
}

func (j *ncJob) loadModels(e *env, o *ncOptions, bv collide.BV) error {
	start := time.Now()
	switch {
	case j.demo:
		part, prog, _ := ncgen.Demo()
		j.demoProg = prog
		if o.solid {
			blk, err := ncgen.Block(part, part.Bounds().Min.Z-demoBlockDepth)
			if err != nil {
				return fmt.Errorf("the demo's part: %w", err)
			}
			part = blk
		}
		m, err := collide.Build(part, collide.BuildOptions{BV: bv})
		if err != nil {
			return fmt.Errorf("the demo's part: %w", err)
		}
		j.part, j.partArg, j.partTris = m, demoName, len(part.Tris)
	case j.partArg != "":
		m, err := buildModel(e, j.partArg, bv, o.given("bv"))
		if err != nil {
			return err
		}
		j.part, j.partTris = m, len(m.Mesh().Tris)
	}
	for _, f := range o.fixtures {
		m, err := buildModel(e, f, bv, o.given("bv"))
		if err != nil {
			return err
		}
		j.fixtures = append(j.fixtures, m)
	}
	if o.solid {
		// Each model's solid, now, to name its file if it is none (the
		// checker would name it only as the part or a fixture's index),
		// as check's --solid names it.
		names := append([]string{j.partArg}, o.fixtures...)
		for i, m := range append([]*collide.Model{j.part}, j.fixtures...) {
			if m == nil {
				continue
			}
			if _, err := m.Solid(); err != nil {
				return fmt.Errorf("%s: --solid: %s", names[i], strings.TrimPrefix(err.Error(), "collide: "))
			}
		}
	}
	j.build = time.Since(start)
	return nil
}

// openProgram opens the program, to be read as it is checked: its moves
// are never all held (a program of any length runs in bounded memory).
func (j *ncJob) openProgram(e *env, o *ncOptions) error {
	var r io.Reader
	name := j.progArg
	j.closeProg = func() error { return nil }
	switch {
	case j.demo:
		r, name = strings.NewReader(j.demoProg), demoName
	case j.progArg == "-":
		r, name = e.stdin, "stdin"
	default:
		f, err := os.Open(j.progArg)
		if err != nil {
			return err
		}
		r, j.closeProg = f, f.Close
	}
	j.prog, j.progName = gcode.NewReader(r, name, gcode.Options{Start: j.start, Strict: o.strict}), name
	if j.demo {
		p, err := gcode.Read(strings.NewReader(j.demoProg), name, gcode.Options{})
		if err != nil {
			return fmt.Errorf("the demo's program: %w", err)
		}
		closed := ""
		if o.solid {
			closed = fmt.Sprintf(" (closed into a block %d mm deep: --solid)", demoBlockDepth)
		}
		fmt.Fprintf(e.stderr, "collide nc: no PART and no PROGRAM: checking the built-in demo, %s of %d triangles%s and a zig-zag finishing program of %d moves (some samples lowered, a retract forgotten), tool %s\n",
			ncgen.MoldName(ncgen.DemoSeed), j.partTris, closed, len(p.Moves), j.toolDesc)
	}
	return nil
}

func (j *ncJob) check(e *env, o *ncOptions) error {
	defer j.closeProg()
	var found atomic.Int64
	no := nc.Options{
		Eps: o.eps, MinDepth: o.minDepth, Tool: j.tool, Tools: j.tools, Stock: j.stock, Fixtures: j.fixtures, Solid: o.solid,
		MoveBudget: nc.MoveBudget{Time: o.moveDeadline},
	}
	if o.deadline > 0 {
		no.Budget.Deadline = time.Now().Add(o.deadline)
	}
	c, err := nc.New(j.part, no)
	if err != nil {
		return err
	}
	moves := &ncMoves{r: j.prog}
	status := startStatus(e, true, statusAfter, func(elapsed time.Duration) string {
		return fmt.Sprintf("checking %s: move %d (line %d), %d violations, %.1f s", j.progName, moves.n.Load(), moves.line.Load(), found.Load(), elapsed.Seconds())
	})
	defer status.end()
	w := bufio.NewWriter(status.output(e.stdout))
	pr := &ncPrinter{w: w, o: o, j: j, last: time.Now()}
	// An interrupt stops the check as --deadline does: what was checked
	// is printed, then the error (exit status 130).
	ctx, stop := interruptible(e)
	defer stop()
	sum, err := c.CheckReaderContext(ctx, moves, func(v nc.Violation) bool {
		found.Add(1)
		return pr.violation(v)
	})
	stop()
	status.end()
	var interrupted error
	if err != nil && isInterrupt(err) {
		interrupted, err, pr.interrupted = err, nil, true
	}
	// The G-code warnings, once the program is read (or has failed).
	for _, w := range j.prog.Warnings() {
		fmt.Fprintf(e.stderr, "collide nc: %s: %s\n", j.progName, w)
	}
	if pr.err != nil {
		return fmt.Errorf("writing output: %w", pr.err)
	}
	if err != nil {
		w.Flush()
		return err
	}
	if o.json {
		err = pr.jsonSummary(sum)
	} else {
		err = pr.groups()
		if err == nil {
			err = pr.summary(sum)
		}
	}
	if err == nil {
		err = w.Flush()
	}
	if err != nil {
		return fmt.Errorf("writing output: %w", err)
	}
	return interrupted
}

// ncMoves is the program's moves, read as they are checked, keeping the
// number read and the line of the last one for the status line.
type ncMoves struct {
	r       *gcode.Reader
	n, line atomic.Int64
}

func (m *ncMoves) Name() string { return m.r.Name() }

func (m *ncMoves) Next() (gcode.Move, error) {
	mv, err := m.r.Next()
	if err == nil {
		m.n.Add(1)
		m.line.Store(int64(mv.Line))
	}
	return mv, err
}

// ncPrinter prints the violations and the summary of collide nc.
type ncPrinter struct {
	w    *bufio.Writer
	o    *ncOptions
	j    *ncJob
	err  error
	last time.Time  // the last flush
	runs nc.Grouper // the text output's runs of violations
	// interrupted says that an interrupt stopped the check (the summary
	// says so rather than blame --deadline).
	interrupted bool
}

// violation prints v (JSON) or adds it to its run (text); it returns
// false (stopping the check) when writing fails.
func (p *ncPrinter) violation(v nc.Violation) bool {
	if p.o.quiet {
		return true
	}
	if !p.o.json {
		p.runs.Add(v)
		return true
	}
	p.err = jsonl.WriteNCViolation(p.w, v)
	if p.err == nil && time.Since(p.last) > 100*time.Millisecond {
		p.err = p.w.Flush()
		p.last = time.Now()
	}
	return p.err == nil
}

// groups prints the runs of violations, deepest first: a run is one
// kind, tool part and target on consecutive moves, printed with its lines
// and its deepest violation.
func (p *ncPrinter) groups() error {
	if p.o.quiet {
		return nil
	}
	gs := p.runs.Groups()
	for i := range gs {
		g := &gs[i]
		v := &g.Deepest
		var b strings.Builder
		if g.Violations == 1 {
			b.WriteString(lineN(v.Line, v.N))
		} else {
			fmt.Fprintf(&b, "lines %d-%d", g.FirstLine, g.LastLine)
			if g.FirstN >= 0 && g.LastN >= 0 {
				fmt.Fprintf(&b, " N%d-N%d", g.FirstN, g.LastN)
			}
		}
		fmt.Fprintf(&b, ": %s: %s on %s", v.Kind, v.Role, p.target(*v))
		if g.Violations > 1 {
			fmt.Fprintf(&b, ", %d moves; deepest at %s", g.Violations, lineN(v.Line, v.N))
		}
		fmt.Fprintf(&b, ", s %s..%s", fmtParam(v.S0), fmtParam(v.S1))
		if p.o.eps > 0 {
			fmt.Fprintf(&b, ", clearance %.4g mm", v.Clearance)
		}
		if v.DepthMax > 0 || p.o.eps == 0 {
			fmt.Fprintf(&b, ", depth %s mm", fmtDepth(v.Depth, v.DepthMax))
		}
		if v.Inside {
			fmt.Fprintf(&b, ", inside it (no triangle met)")
		} else {
			fmt.Fprintf(&b, ", %d %s", g.Triangles, plural(g.Triangles, "triangle", "triangles"))
		}
		if v.Graze {
			fmt.Fprintf(&b, " (graze: within %.3g mm, contact not proved)", v.Within)
		}
		if v.Stopped {
			b.WriteString(" (the deadline ran out: range and depth not searched)")
		}
		if g.Grazes > 0 && g.Grazes < g.Violations {
			fmt.Fprintf(&b, " (%d of the %d %s)", g.Grazes, g.Violations, plural(g.Grazes, "is a graze", "are grazes"))
		} else if g.Grazes > 1 {
			fmt.Fprintf(&b, " (all %d are grazes)", g.Grazes)
		}
		b.WriteByte('\n')
		if _, err := p.w.WriteString(b.String()); err != nil {
			return err
		}
	}
	if n, nv := p.runs.Dropped(); n > 0 {
		if _, err := fmt.Fprintf(p.w, "... and %d shallower %s of %d %s not listed (--json lists every violation)\n",
			n, plural(n, "run", "runs"), nv, plural(nv, "violation", "violations")); err != nil {
			return err
		}
	}
	return nil
}

// lineN returns "line L" and " NN" if the block has an N number.
func lineN(line, n int) string {
	if n >= 0 {
		return fmt.Sprintf("line %d N%d", line, n)
	}
	return fmt.Sprintf("line %d", line)
}

// target names what v meets.
func (p *ncPrinter) target(v nc.Violation) string {
	switch v.Target {
	case nc.OnFixture:
		if v.Fixture >= 0 && v.Fixture < len(p.o.fixtures) {
			return fmt.Sprintf("fixture %d (%s)", v.Fixture, p.o.fixtures[v.Fixture])
		}
		return fmt.Sprintf("fixture %d", v.Fixture)
	case nc.OnPart:
		return "part"
	}
	return v.Target.String()
}

// fmtDepth formats the depth interval [lo, hi] with 4 significant digits,
// lo rounded down and hi up so that the printed interval holds the
// certified one: "0.3999..0.4001", or one number when both print alike.
func fmtDepth(lo, hi float64) string {
	a, b := fmtRound(lo, false), fmtRound(hi, true)
	if a == b {
		return a
	}
	return a + ".." + b
}

// fmtRound formats x ≥ 0 with 4 significant digits, rounded up or down
// (not to nearest).
func fmtRound(x float64, up bool) string {
	if x == 0 || math.IsInf(x, 0) || math.IsNaN(x) {
		return strconv.FormatFloat(x, 'g', 4, 64)
	}
	// x = m·10^e with the mantissa's 4 digits as an integer.
	s := strconv.FormatFloat(x, 'e', 3, 64) // d.ddde±XX, rounded to nearest
	mant, _ := strconv.ParseInt(strings.Replace(s[:5], ".", "", 1), 10, 64)
	exp, _ := strconv.Atoi(s[6:])
	v, _ := strconv.ParseFloat(s, 64)
	switch {
	case up && v < x:
		mant++
	case !up && v > x:
		mant--
	}
	if mant == 10000 {
		mant, exp = 1000, exp+1
	} else if mant == 999 {
		mant, exp = 9999, exp-1
	}
	r, _ := strconv.ParseFloat(fmt.Sprintf("%d.%03de%d", mant/1000, mant%1000, exp), 64)
	return strconv.FormatFloat(r, 'g', 4, 64)
}

// fmtParam formats a move parameter in [0, 1] briefly.
func fmtParam(s float64) string {
	switch s {
	case 0:
		return "0"
	case 1:
		return "1"
	}
	return fmt.Sprintf("%.4f", s)
}

// byKind returns the counts of sum by kind name, in the kinds' order.
func byKind(sum nc.Summary) ([]string, []int) {
	var names []string
	var counts []int
	for k := range sum.ByKind {
		names = append(names, nc.Kind(k).String())
		counts = append(counts, sum.ByKind[k])
	}
	return names, counts
}

func movesPerSecond(sum nc.Summary) float64 { return jsonl.MovesPerSecond(sum) }

func (p *ncPrinter) against() string {
	var parts []string
	if p.j.part != nil {
		parts = append(parts, fmt.Sprintf("the part %s (%d triangles, %s)", p.j.partArg, p.j.partTris, p.j.part.BV()))
	}
	if n := len(p.j.fixtures); n > 0 {
		parts = append(parts, fmt.Sprintf("%d %s", n, plural(n, "fixture", "fixtures")))
	}
	if s := p.j.stock; s != nil {
		parts = append(parts, fmt.Sprintf("the stock %g %g %g to %g %g %g", s.Min.X, s.Min.Y, s.Min.Z, s.Max.X, s.Max.Y, s.Max.Z))
	}
	return strings.Join(parts, ", ")
}

// budgetLine says what the deadlines left unchecked: "--deadline stopped
// the check after 1200 moves: the rest of the program not checked; 3 moves
// cut short (lines 17, 250, 1201): their violations listed, there may be
// more".
func budgetLine(sum nc.Summary, interrupted bool) string {
	var parts []string
	if sum.Stopped {
		by := "--deadline"
		if interrupted {
			by = "an interrupt"
		}
		parts = append(parts, fmt.Sprintf("%s stopped the check after %d %s: the rest of the program not checked", by, sum.Reached, plural(sum.Reached, "move", "moves")))
	}
	if n := sum.Unfinished; n > 0 {
		lines := make([]string, len(sum.UnfinishedLines))
		for i, l := range sum.UnfinishedLines {
			lines[i] = strconv.Itoa(l)
		}
		more := ""
		if n > len(lines) {
			more = ", ..."
		}
		parts = append(parts, fmt.Sprintf("%d %s cut short (%s %s%s): %s listed, there may be more",
			n, plural(n, "move", "moves"), plural(len(lines), "line", "lines"), strings.Join(lines, ", "), more, plural(n, "its violations", "their violations")))
	}
	return strings.Join(parts, "; ")
}

func (p *ncPrinter) summary(sum nc.Summary) error {
	w := p.w
	checked := fmt.Sprintf("%d of non-zero length", sum.Checked)
	if sum.Unfinished > 0 {
		checked = fmt.Sprintf("%d of non-zero length checked, %d cut short", sum.Checked, sum.Unfinished)
	}
	fmt.Fprintf(w, "checked %s: %d moves (%s) against %s, tool %s\n",
		p.j.progName, sum.Moves, checked, p.against(), p.j.toolDesc)
	names, counts := byKind(sum)
	var kinds []string
	for i, n := range names {
		kinds = append(kinds, fmt.Sprintf("%s %d", n, counts[i]))
	}
	runs := ""
	if !p.o.quiet {
		runs = fmt.Sprintf(" in %d %s", p.runs.Runs(), plural(p.runs.Runs(), "run", "runs"))
	}
	fmt.Fprintf(w, "violations   %d on %d %s%s: %s\n", sum.Violations, sum.MovesHit, plural(sum.MovesHit, "move", "moves"), runs, strings.Join(kinds, ", "))
	if sum.Stopped || sum.Unfinished > 0 {
		label := "deadline"
		if p.interrupted {
			label = "interrupted"
		}
		fmt.Fprintf(w, "%-12s %s\n", label, budgetLine(sum, p.interrupted))
	}
	fmt.Fprintf(w, "time         %s checking, %.0f moves/s (models built in %s)\n",
		fmtDuration(time.Duration(sum.Seconds*float64(time.Second))), movesPerSecond(sum), fmtDuration(p.j.build))
	st := sum.Stats
	inside := ""
	if p.o.solid {
		inside = fmt.Sprintf(", %d inside tests", st.Inside)
	}
	_, err := fmt.Fprintf(w, "work         %d tree searches, %d volume tests, %d candidate triangles, %d exact tests, %d grazes%s\n",
		st.Queries, st.BVTests, st.Candidates, st.Exact, st.Grazes, inside)
	return err
}

func (p *ncPrinter) jsonSummary(sum nc.Summary) error {
	h := jsonl.NCHead{
		Program: p.j.progName, Part: p.j.partArg, Triangles: p.j.partTris, BV: p.o.bv, Fixtures: len(p.j.fixtures),
		Tool: p.j.toolDesc, Warnings: len(p.j.prog.Warnings()), BuildSeconds: p.j.build.Seconds(), Interrupted: p.interrupted,
		Solid: p.o.solid,
	}
	if p.j.part != nil {
		h.BV = p.j.part.BV().String()
	}
	if p.o.tool != "" || p.j.demo {
		h.Tool = p.j.tool.String()
	}
	return jsonl.WriteNCSummary(p.w, h, sum)
}

// runBenchNC runs bench --nc.
func runBenchNC(e *env, o *benchOptions) error {
	switch {
	case o.peers || o.worlds || o.front || o.ccdPeers:
		return usagef("--nc does not go with --peers, --worlds, --front or --ccd-peers")
	case o.slowSteps != 0 || o.sizes != "" || o.driver != "":
		return usagef("--slow-steps, --sizes and --driver do not go with --nc")
	case o.steps < 0 || o.rounds < 0:
		return usagef("--steps and --rounds must be >= 0")
	case o.out == "":
		return usagef("-o must name a folder")
	}
	c := toolpaths.Config{Quick: o.quick, Seed: o.seed, MaxMoves: o.steps, Rounds: o.rounds}
	if o.scenes != "" {
		known := append(slices.Clone(toolpaths.Terrains), toolpaths.Molds...)
		for _, s := range strings.Split(o.scenes, ",") {
			if !slices.Contains(known, s) {
				return usagef("--scenes: with --nc, the environments are %s (not %q)", strings.Join(known, ", "), s)
			}
			c.Envs = append(c.Envs, s)
		}
	}
	report, err := reportFile(o, "nc.md")
	if err != nil {
		return err
	}
	var r *toolpaths.Report
	withStatus(e, "bench --nc", func(progress func(string)) {
		c.Progress = progress
		r, err = toolpaths.Run(context.Background(), c)
	})
	if err != nil {
		return err
	}
	if err := writeFileAtomic(report, o.force, r.WriteMarkdown); err != nil {
		return err
	}
	_, err = fmt.Fprintf(e.stdout, "wrote %s: %d environments, %d trees (%s)\n", report, len(r.Envs), len(r.Config.BVs), r.Elapsed.Round(time.Second))
	return err
}
