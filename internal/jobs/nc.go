package jobs

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/internal/jsonl"
	"github.com/collide3d/collide/internal/source"
	"github.com/collide3d/collide/nc"
	"github.com/collide3d/collide/nc/gcode"
	"github.com/collide3d/collide/nc/ncgen"
)

// This file is the kind "nc": collide nc --json over a G-code program,
// split into shards of consecutive moves.
//
// A job's keys are part, program, tool, eps, bv and solid, the CLI's PART,
// PROGRAM, --tool, --eps, --bv and --solid (Job.Command); a job with no
// part and no program is the built-in demo (with the demo's tool, or the
// job's; with solid, its part closed into a block, as the CLI closes it). The plan loads the part (through the
// Cache: by the SHA-256 of its file and the bounding volume; a gen: part
// by its argument, the demo's by its name), reads the whole program as
// the CLI reads it (gcode.Reader, no --start, not strict) and refuses it
// as the CLI would: the first of a malformed line and a move the check
// refuses (nc.ValidMove) in program order. Each shard holds its moves,
// encoded (encodeMoves: every field, every float bit). Run checks them
// with a Checker of the worker (nc.New once per part, tool and tolerance,
// each goroutine taking its own), numbering their violations from the
// shard's first move (nc.PartReader); a move's violations depend on the
// move alone, so the lines are the CLI's. Finish adds the shards'
// nc.Summaries (nc.Summary.Add) and writes the CLI's summary line: its
// counts and work counters are the CLI's, its "seconds" the shards' check
// time summed, "moves_per_second" from it, "build_seconds" the plan's time
// to load the part (next to nothing when the cache held it).
//
// A job the CLI refuses fails with the CLI's error line (a Failure): the
// first line of its stderr, but for the G-code warnings that the CLI
// prints before the error of a program that has both. Where the CLI would
// print the violations of the moves before a malformed line and then
// fail, the job fails whole, before any shard runs. A job cannot read the
// standard input: a program "-" is refused. The digest that names a part
// is its file's: a .gltf file's .bin buffers are not in it.

func init() { kinds["nc"] = ncKind{} }

type ncKind struct{}

// ncDemoName names the built-in demo's part and program, as the CLI does.
const ncDemoName = "builtin:demo"

func (ncKind) unit() string { return "move" }

// ncPositional returns the CLI's positional arguments of j: PART, then
// PROGRAM, those given.
func ncPositional(j *Job) []string {
	var pos []string
	for _, a := range []string{j.Part, j.Program} {
		if a != "" {
			pos = append(pos, a)
		}
	}
	return pos
}

func (ncKind) command(j *Job) []string {
	args := []string{"nc", "--json"}
	if j.BV != "" {
		args = append(args, "--bv", j.BV)
	}
	if j.Eps != 0 {
		args = append(args, "--eps", strconv.FormatFloat(j.Eps, 'g', -1, 64))
	}
	if j.Solid {
		args = append(args, "--solid")
	}
	if j.Tool != "" {
		args = append(args, "--tool", j.Tool)
	}
	pos := ncPositional(j)
	for _, a := range pos {
		if len(a) > 1 && a[0] == '-' {
			args = append(args, "--") // not a flag
			break
		}
	}
	return append(args, pos...)
}

// ncInfo is Plan.Info of an nc job: what its summary line says of the
// inputs.
type ncInfo struct {
	Head jsonl.NCHead
}

// ncSetup is what a job's plan and its shards need, from the job's keys:
// the bounding volume, the tool, the program's name.
type ncSetup struct {
	demo  bool
	bv    collide.BV
	given bool // --bv given
	tool  nc.Tool
	prog  string // the program's name in messages
}

// ncFail returns the Failure of job j with the CLI's message, "collide nc: "
// and err's.
func ncFail(j *Job, err error) error {
	return &Failure{Job: j.ID, Message: "collide nc: " + err.Error()}
}

// ncFailf is ncFail of a formatted message.
func ncFailf(j *Job, format string, args ...any) error {
	return ncFail(j, fmt.Errorf(format, args...))
}

// ncBVNames lists the bounding volumes that have a hierarchy, as the CLI's
// messages list them.
func ncBVNames() string {
	var names []string
	for _, b := range collide.BVs() {
		if b != collide.Brute {
			names = append(names, b.String())
		}
	}
	return strings.Join(names, ", ")
}

// setup checks job j's keys and arguments as the CLI checks its command
// line (Job.Command), in the CLI's order, and parses the tool.
func (ncKind) setup(j *Job) (*ncSetup, error) {
	for _, k := range []struct {
		name string
		set  bool
	}{{"env", j.Env != ""}, {"fly", j.Fly != ""}, {"poses", j.Poses != ""}, {"all", j.All}, {"max", j.Max != 0}} {
		if k.set {
			return nil, ncFailf(j, `job key %q is not nc's (an nc job takes "part", "program", "tool", "eps", "bv" and "solid")`, k.name)
		}
	}
	st := &ncSetup{prog: j.Program}
	pos := ncPositional(j)
	switch len(pos) {
	case 0:
		st.demo, st.prog = true, ncDemoName
	case 1:
		if source.IsModelArg(pos[0]) {
			return nil, ncFailf(j, "give the PROGRAM after the PART %s (or - to read it from the standard input)", pos[0])
		}
		// A PROGRAM alone is checked against --stock and --fixture, which
		// a job has not.
		return nil, ncFailf(j, "a PROGRAM alone is checked against --stock and --fixture: give one, or a PART before %s", pos[0])
	case 2:
		if !source.IsModelArg(pos[0]) && source.IsModelArg(pos[1]) {
			return nil, ncFailf(j, "the PART comes first, then the PROGRAM (got %s %s)", pos[0], pos[1])
		}
	}
	if !(j.Eps >= 0) {
		return nil, ncFailf(j, "--eps must be a finite number >= 0, not %v", j.Eps)
	}
	bvName := j.BV
	if bvName == "" {
		bvName = collide.BVDefault.String()
	}
	bv, err := collide.ParseBV(bvName)
	if err != nil || bv == collide.Brute {
		return nil, ncFailf(j, "--bv: want one of %s, not %q", ncBVNames(), bvName)
	}
	st.bv, st.given = bv, j.BV != ""
	if j.Tool != "" && strings.TrimSpace(j.Tool) == "" {
		return nil, ncFailf(j, "--tool is empty")
	}
	if !st.demo && j.Tool == "" {
		return nil, ncFailf(j, "give the tool: --tool SPEC or --tools FILE")
	}
	switch {
	case j.Tool != "":
		if st.tool, err = nc.ParseTool(j.Tool); err != nil {
			return nil, ncFailf(j, "--tool %q: %w", j.Tool, err)
		}
	default:
		if st.tool, err = nc.ParseTool(ncgen.DemoTool); err != nil {
			return nil, ncFailf(j, "the demo's tool: %w", err)
		}
	}
	if st.prog == "-" {
		return nil, ncFailf(j, "a job's program cannot be the standard input (-): give a file")
	}
	return st, nil
}

// ncPart is a part in the Cache.
type ncPart struct {
	model *collide.Model
	tris  int
	demo  string // the demo's program
}

// partID returns what names the part of job j in Shard.Models and in the
// cache: the demo's name, a gen: argument, or the hex SHA-256 of the
// file's bytes. A file that cannot be read returns the error the CLI gives
// for it.
func (st *ncSetup) partID(j *Job) (id string, err error) {
	switch {
	case st.demo:
		id = ncDemoName
	case strings.HasPrefix(j.Part, source.GenPrefix):
		id = j.Part
	default:
		path, _ := source.SplitMesh(j.Part)
		data, err := os.ReadFile(path)
		if err != nil {
			if _, lerr := st.loadPart(j); lerr != nil {
				return "", lerr // the CLI's error for it
			}
			return "", ncFail(j, err)
		}
		id = digest(data)
	}
	return id, nil
}

// key returns the cache key of the part named id (Shard.Models) of job j.
func (st *ncSetup) key(j *Job, id string) string {
	return key("nc part", id, j.Part, st.bv.String(), strconv.FormatBool(st.given), strconv.FormatBool(j.Solid))
}

// part returns the part of job j named id (a digest, Shard.Models) from c,
// loading it if c has not got it; a file whose bytes are no longer those
// of id is an error.
func (st *ncSetup) part(j *Job, id string, c *Cache) (*ncPart, error) {
	v, err := c.get(st.key(j, id), func() (any, error) {
		if !st.demo && !strings.HasPrefix(j.Part, source.GenPrefix) {
			path, _ := source.SplitMesh(j.Part)
			data, err := os.ReadFile(path)
			if err != nil {
				return nil, ncFail(j, err)
			}
			if digest(data) != id {
				return nil, ncFailf(j, "%s: the file changed since the job was planned (its SHA-256 is no longer %s)", j.Part, id)
			}
		}
		return st.loadPart(j)
	})
	if err != nil {
		return nil, err
	}
	return v.(*ncPart), nil
}

// loadPart loads and builds the part of job j as the CLI does (its
// buildModel, or the demo's), and with solid makes its solid (the CLI's
// error if it bounds none).
func (st *ncSetup) loadPart(j *Job) (*ncPart, error) {
	p, err := st.loadSurface(j)
	if err != nil || !j.Solid {
		return p, err
	}
	name := j.Part
	if st.demo {
		name = ncDemoName
	}
	if _, err := p.model.Solid(); err != nil {
		return nil, ncFailf(j, "%s: --solid: %s", name, strings.TrimPrefix(err.Error(), "collide: "))
	}
	return p, nil
}

// ncDemoBlockDepth is how far below its lowest point the demo's part is
// closed into a block with solid, as the CLI closes it (mm).
const ncDemoBlockDepth = 10

// loadSurface is loadPart but for the solid.
func (st *ncSetup) loadSurface(j *Job) (*ncPart, error) {
	if st.demo {
		part, prog, _ := ncgen.Demo()
		if j.Solid {
			blk, err := ncgen.Block(part, part.Bounds().Min.Z-ncDemoBlockDepth)
			if err != nil {
				return nil, ncFailf(j, "the demo's part: %w", err)
			}
			part = blk
		}
		m, err := collide.Build(part, collide.BuildOptions{BV: st.bv})
		if err != nil {
			return nil, ncFailf(j, "the demo's part: %w", err)
		}
		return &ncPart{model: m, tris: len(part.Tris), demo: prog}, nil
	}
	s, err := source.Load(j.Part, source.Options{})
	if err != nil {
		return nil, ncFail(j, err)
	}
	if err := s.HasTriangles(); err != nil {
		return nil, ncFail(j, err)
	}
	if s.Saved != nil {
		if st.given {
			if err := s.AgreeBV(st.bv); err != nil {
				return nil, ncFail(j, err)
			}
		}
		return &ncPart{model: s.Saved, tris: len(s.Saved.Mesh().Tris)}, nil
	}
	m, err := collide.Build(s.Mesh, collide.BuildOptions{BV: st.bv})
	if err != nil {
		return nil, ncFailf(j, "%s: %w", s.Arg, err)
	}
	return &ncPart{model: m, tris: len(m.Mesh().Tris)}, nil
}

func (k ncKind) plan(ctx context.Context, j *Job, size int, c *Cache) (*Plan, error) {
	st, err := k.setup(j)
	if err != nil {
		return nil, err
	}
	start := time.Now()
	id, err := st.partID(j)
	if err != nil {
		return nil, err
	}
	part, err := st.part(j, id, c)
	if err != nil {
		return nil, err
	}
	build := time.Since(start)
	p := &Plan{Job: *j}
	shard := func(moves []gcode.Move) {
		p.Shards = append(p.Shards, Shard{Job: *j, Index: len(p.Shards), First: p.Units, N: len(moves),
			Moves: encodeMoves(moves), Models: []string{id}})
		p.Units += len(moves)
	}
	warnings, err := st.read(ctx, j, part, size, shard)
	if err != nil {
		return nil, err
	}
	head := jsonl.NCHead{Program: st.prog, Part: j.Part, Triangles: part.tris, BV: part.model.BV().String(),
		Tool: st.tool.String(), Warnings: warnings, BuildSeconds: build.Seconds(), Solid: j.Solid}
	if st.demo {
		head.Part = ncDemoName
	}
	if p.Info, err = json.Marshal(ncInfo{Head: head}); err != nil {
		return nil, err
	}
	return p, nil
}

// read reads the whole program of job j as the CLI reads it (the demo's
// from part), handing its moves to shard in runs of size (one run, empty,
// for a program without moves), and returns the number of its warnings.
// Only the shards' encoded moves are kept. Its error is the CLI's: the
// first, in program order, of a malformed line and a move that the check
// refuses.
func (st *ncSetup) read(ctx context.Context, j *Job, part *ncPart, size int, shard func([]gcode.Move)) (int, error) {
	var r io.Reader
	if st.demo {
		r = strings.NewReader(part.demo)
	} else {
		f, err := os.Open(j.Program)
		if err != nil {
			return 0, ncFail(j, err)
		}
		defer f.Close()
		r = f
	}
	g := gcode.NewReader(r, st.prog, gcode.Options{})
	moves := make([]gcode.Move, 0, min(size, 1<<16))
	shards := 0
	for {
		m, err := g.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return 0, ncFail(j, err)
		}
		if err := nc.ValidMove(st.prog, m); err != nil {
			return 0, ncFail(j, err)
		}
		if moves = append(moves, m); len(moves) == size {
			shard(moves)
			moves, shards = moves[:0], shards+1
			if err := ctx.Err(); err != nil {
				return 0, err
			}
		}
	}
	if len(moves) > 0 || shards == 0 {
		shard(moves)
	}
	return len(g.Warnings()), nil
}

// ncCheckers are the Checkers of one part, tool and tolerance in a
// process, each used by one goroutine at a time.
type ncCheckers struct {
	part *ncPart
	o    nc.Options
	mu   sync.Mutex
	free []*nc.Checker
}

func (p *ncCheckers) take() (*nc.Checker, error) {
	p.mu.Lock()
	if n := len(p.free); n > 0 {
		c := p.free[n-1]
		p.free = p.free[:n-1]
		p.mu.Unlock()
		return c, nil
	}
	p.mu.Unlock()
	return nc.New(p.part.model, p.o)
}

func (p *ncCheckers) give(c *nc.Checker) {
	p.mu.Lock()
	p.free = append(p.free, c)
	p.mu.Unlock()
}

// ncShardMoves is a shard's moves as an nc.PartReader.
type ncShardMoves struct {
	name  string
	first int
	moves []gcode.Move
	i     int
}

func (m *ncShardMoves) Name() string { return m.name }
func (m *ncShardMoves) First() int   { return m.first }

func (m *ncShardMoves) Next() (gcode.Move, error) {
	if m.i == len(m.moves) {
		return gcode.Move{}, io.EOF
	}
	m.i++
	return m.moves[m.i-1], nil
}

func (k ncKind) run(ctx context.Context, s *Shard, c *Cache, w io.Writer) (Result, error) {
	r := Result{Job: s.Job.ID, Index: s.Index}
	fail := func(err error) (Result, error) {
		var f *Failure
		if !errors.As(err, &f) {
			err = ncFail(&s.Job, err)
			errors.As(err, &f)
		}
		r.Err, r.ErrUnit = f.Message, s.First
		return r, nil
	}
	j := &s.Job
	st, err := k.setup(j)
	if err != nil {
		return fail(err)
	}
	if len(s.Models) != 1 {
		return fail(fmt.Errorf("internal error: shard %d of job %s names %d models, want the part", s.Index, j.ID, len(s.Models)))
	}
	part, err := st.part(j, s.Models[0], c)
	if err != nil {
		return fail(err)
	}
	moves, err := decodeMoves(s.Moves)
	if err != nil || len(moves) != s.N {
		return fail(fmt.Errorf("internal error: shard %d of job %s: its moves: %d decoded of %d (%v)", s.Index, j.ID, len(moves), s.N, err))
	}
	v, err := c.get(key("nc checkers", st.key(j, s.Models[0]), st.tool.String(), strconv.FormatFloat(j.Eps, 'g', -1, 64)), func() (any, error) {
		return &ncCheckers{part: part, o: nc.Options{Eps: j.Eps, Tool: st.tool, Solid: j.Solid}}, nil
	})
	if err != nil {
		return fail(err)
	}
	pool := v.(*ncCheckers)
	ch, err := pool.take()
	if err != nil {
		return fail(err)
	}
	defer pool.give(ch)
	bw := bufio.NewWriter(w)
	var werr error
	sum, err := ch.CheckReaderContext(ctx, &ncShardMoves{name: st.prog, first: s.First, moves: moves}, func(v nc.Violation) bool {
		if werr = jsonl.WriteNCViolation(bw, v); werr != nil {
			return false
		}
		r.Lines++
		return true
	})
	if werr != nil {
		return r, werr
	}
	if cerr := ctx.Err(); cerr != nil {
		return r, cerr
	}
	if err != nil {
		// The check's error for the move it stopped at (the plan refuses
		// those it knows of: nc.ValidMove).
		r.Err, r.ErrUnit = "collide nc: "+err.Error(), s.First+max(sum.Moves-1, 0)
		return r, nil
	}
	if err := bw.Flush(); err != nil {
		return r, err
	}
	r.Hits, r.Query = int64(sum.Violations), sum.Seconds
	if r.Info, err = json.Marshal(sum); err != nil {
		return r, err
	}
	return r, nil
}

func (ncKind) finish(p *Plan, rs []Result) ([]byte, error) {
	var info ncInfo
	if err := json.Unmarshal(p.Info, &info); err != nil {
		return nil, fmt.Errorf("internal error: job %s: its plan's info: %v", p.Job.ID, err)
	}
	rs = slices.Clone(rs)
	slices.SortFunc(rs, func(a, b Result) int { return a.Index - b.Index })
	var sum nc.Summary
	for _, r := range rs {
		var s nc.Summary
		if err := json.Unmarshal(r.Info, &s); err != nil {
			return nil, fmt.Errorf("internal error: job %s: shard %d's summary: %v", p.Job.ID, r.Index, err)
		}
		sum.Add(s)
	}
	var b bytes.Buffer
	if err := jsonl.WriteNCSummary(&b, info.Head, sum); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// The encoding of a shard's moves (Shard.Moves): a version byte, then each
// move as a flags byte and its fields, whole numbers as varints and floats
// as their 8 bytes little-endian (every bit kept: -0, NaN payloads). The
// flags say which fields are given: From is omitted when it is the
// previous move's To (a program's moves follow each other), the arc's
// fields when they are all zero bits, Feed, Spindle and Tool when they are
// the previous move's.
const (
	movesVersion = 1

	moveFrom  = 1 << 0 // From given
	moveArc   = 1 << 1 // Center, Radius, Turns given
	moveFeed  = 1 << 2 // Feed, Spindle, Tool given
	moveFlags = moveFrom | moveArc | moveFeed
)

// encodeMoves encodes ms (see movesVersion).
func encodeMoves(ms []gcode.Move) []byte {
	b := make([]byte, 0, 1+len(ms)*48)
	b = append(b, movesVersion)
	var prev gcode.Move
	for i, m := range ms {
		var flags byte
		if i == 0 || !sameVec(m.From, prev.To) {
			flags |= moveFrom
		}
		if !zeroVec(m.Center) || math.Float64bits(m.Radius) != 0 || m.Turns != 0 {
			flags |= moveArc
		}
		if i == 0 || math.Float64bits(m.Feed) != math.Float64bits(prev.Feed) || math.Float64bits(m.Spindle) != math.Float64bits(prev.Spindle) || m.Tool != prev.Tool {
			flags |= moveFeed
		}
		b = append(b, flags, byte(m.Kind), byte(m.Plane))
		b = binary.AppendVarint(b, int64(m.Line))
		b = binary.AppendVarint(b, int64(m.N))
		if flags&moveFrom != 0 {
			b = appendVec(b, m.From)
		}
		b = appendVec(b, m.To)
		if flags&moveArc != 0 {
			b = appendVec(b, m.Center)
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(m.Radius))
			b = binary.AppendVarint(b, int64(m.Turns))
		}
		if flags&moveFeed != 0 {
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(m.Feed))
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(m.Spindle))
			b = binary.AppendVarint(b, int64(m.Tool))
		}
		prev = m
	}
	return b
}

// decodeMoves decodes the moves encoded by encodeMoves; malformed bytes
// are an error, never a panic.
func decodeMoves(b []byte) ([]gcode.Move, error) {
	if len(b) == 0 || b[0] != movesVersion {
		return nil, errors.New("moves: not of version 1")
	}
	d := moveDecoder{b: b[1:]}
	var ms []gcode.Move
	var prev gcode.Move
	for len(d.b) > 0 && d.err == nil {
		var m gcode.Move
		flags := d.u8()
		if flags&^moveFlags != 0 {
			return nil, fmt.Errorf("moves: move %d: unknown flags %#x", len(ms), flags)
		}
		m.Kind, m.Plane = gcode.Kind(d.u8()), gcode.Plane(d.u8())
		m.Line, m.N = d.varint(), d.varint()
		m.From = prev.To
		if flags&moveFrom != 0 {
			m.From = d.vec()
		} else if len(ms) == 0 {
			return nil, errors.New("moves: the first move has no start")
		}
		m.To = d.vec()
		if flags&moveArc != 0 {
			m.Center, m.Radius, m.Turns = d.vec(), d.f64(), d.varint()
		}
		m.Feed, m.Spindle, m.Tool = prev.Feed, prev.Spindle, prev.Tool
		if flags&moveFeed != 0 {
			m.Feed, m.Spindle, m.Tool = d.f64(), d.f64(), d.varint()
		}
		if d.err != nil {
			break
		}
		ms = append(ms, m)
		prev = m
	}
	if d.err != nil {
		return nil, fmt.Errorf("moves: move %d: %w", len(ms), d.err)
	}
	return ms, nil
}

// moveDecoder reads the fields of encoded moves, its error sticky.
type moveDecoder struct {
	b   []byte
	err error
}

var errShort = errors.New("truncated")

func (d *moveDecoder) u8() byte {
	if d.err != nil || len(d.b) < 1 {
		d.err = errShort
		return 0
	}
	c := d.b[0]
	d.b = d.b[1:]
	return c
}

func (d *moveDecoder) varint() int {
	if d.err != nil {
		return 0
	}
	x, n := binary.Varint(d.b)
	if n <= 0 || int64(int(x)) != x {
		d.err = errors.New("bad whole number")
		return 0
	}
	d.b = d.b[n:]
	return int(x)
}

func (d *moveDecoder) f64() float64 {
	if d.err != nil || len(d.b) < 8 {
		d.err = errShort
		return 0
	}
	x := math.Float64frombits(binary.LittleEndian.Uint64(d.b))
	d.b = d.b[8:]
	return x
}

func (d *moveDecoder) vec() geom.Vec3 {
	return geom.Vec3{X: d.f64(), Y: d.f64(), Z: d.f64()}
}

func appendVec(b []byte, v geom.Vec3) []byte {
	for _, x := range []float64{v.X, v.Y, v.Z} {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(x))
	}
	return b
}

// sameVec reports whether a and b have the same bits.
func sameVec(a, b geom.Vec3) bool {
	return math.Float64bits(a.X) == math.Float64bits(b.X) && math.Float64bits(a.Y) == math.Float64bits(b.Y) && math.Float64bits(a.Z) == math.Float64bits(b.Z)
}

func zeroVec(v geom.Vec3) bool { return sameVec(v, geom.Vec3{}) }
