package nc

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"time"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh"
	"github.com/collide3d/collide/nc/gcode"
	"github.com/collide3d/collide/nc/shape"
	solidpkg "github.com/collide3d/collide/solid"
)

// Kind is the kind of a violation.
type Kind uint8

const (
	// Gouge: on a feed move (G1, G2, G3) the cutter meets the part.
	Gouge Kind = iota
	// ShankHit: on a feed move the shank meets the part, the stock or a
	// fixture.
	ShankHit
	// HolderHit: on a feed move the holder meets the part, the stock or a
	// fixture.
	HolderHit
	// RapidHit: on a rapid move (G0) any part of the tool meets the part,
	// the stock or a fixture.
	RapidHit
	// FixtureHit: on a feed move the cutter meets a fixture.
	FixtureHit
	numKinds
)

var kindNames = [...]string{"gouge", "shank", "holder", "rapid", "fixture"}

// String returns "gouge", "shank", "holder", "rapid" or "fixture".
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("kind(%d)", int(k))
}

// Target is what a violation's tool part meets.
type Target uint8

const (
	// OnPart is the part, the goal shape.
	OnPart Target = iota
	// OnStock is the stock box.
	OnStock
	// OnFixture is one of the fixtures (Violation.Fixture says which).
	OnFixture
)

// String returns "part", "stock" or "fixture".
func (t Target) String() string {
	switch t {
	case OnPart:
		return "part"
	case OnStock:
		return "stock"
	case OnFixture:
		return "fixture"
	}
	return fmt.Sprintf("target(%d)", int(t))
}

// Violation is one part of the tool meeting one target during one move.
type Violation struct {
	// Move is the index of the move in the program (counted from
	// PartReader.First for a part of one), Line its line, N its block's N
	// number (-1 if none).
	Move, Line, N int
	Kind          Kind
	// Role is the part of the tool, Target what it meets (Fixture: which
	// fixture, an index of Options.Fixtures).
	Role    Role
	Target  Target
	Fixture int
	// S0 and S1 bound where along the move it happens: the parameter of
	// the move (the fraction of its length, or of an arc's angle) at which
	// the tool first and last meets the triangles of Tris, to within
	// 2^-20 (0 and 1 with Options.NoDetail).
	S0, S1 float64
	// Depth and DepthMax bound how deep the triangles of Tris reach into
	// this part of the tool: the most its solids can each shrink (every
	// point of each moving in by that much) and still meet them over the
	// move is certainly in [Depth, DepthMax]. The tool shrunk by Depth is
	// proved to meet them (Depth is 0 for a touch, a graze or a contact
	// only within the tolerance), and shrunk by DepthMax proved to miss
	// them, unless DepthMax is the part's radius (by which no part can
	// shrink and remain). The interval is found by bisection with the
	// exact tests: 20 halvings of the part's radius, then up to 20 more
	// steps while it is wider than 2^-10 of DepthMax (a touch ends below
	// 2^-60 of the radius); it is [0, radius] with NoDetail. Solids shrink
	// each alone, so near the join of two (a ball end's ball and cylinder)
	// the depth may be less than the penetration of the whole tool.
	Depth, DepthMax float64
	// Clearance, with a tolerance, is the least distance between the
	// tool's part and Tris over the move, to within 2^-20 of the
	// tolerance: 0 when they touch, at most Options.Eps.
	Clearance float64
	// Tris are the target's triangles met, ascending (for the stock, those
	// of its box, as mesh/gen.Box(box, 1) numbers them; empty when the
	// tool is inside the stock without meeting its faces).
	Tris []int32
	// Graze says that contact was not decided (see the package
	// documentation): the tool's part comes within Within of every
	// triangle of Tris, and may or may not touch them.
	Graze  bool
	Within float64
	// Stopped says that a budget (Options.Budget, Options.MoveBudget) ran
	// out while the violation's range, depth and clearance were searched
	// (after MinDepth kept it): they are as NoDetail leaves them (S0 0,
	// S1 1, Depth 0, DepthMax the part's radius, Clearance 0). The contact
	// is proved all the same (or a graze, as Graze says), and Tris are all
	// the triangles met.
	Stopped bool
	// Inside says that the tool's part is inside the target without
	// meeting its surface: inside the stock's box, or, with Options.Solid,
	// inside the solid that the part or a fixture bounds. Tris is then
	// empty, Depth and DepthMax are the part's radius (shrunk by any
	// amount it remains inside), S0 and S1 are 0 and 1 (1 and 1 for a
	// solid with Options.Discrete), Clearance is 0.
	Inside bool
}

// Stats counts a check's work.
type Stats struct {
	// Queries is the number of searches of the targets' trees, BVTests the
	// volume tests they made, Candidates the triangles they handed over.
	Queries, BVTests, Candidates int64
	// Exact counts the exact tests of a solid against a triangle.
	Exact int64
	// Grazes counts violations decided at the limit of a bracket.
	Grazes int64
	// Inside counts the tests of a point against a target's solid
	// (Options.Solid): one for each tool part that meets no triangle of a
	// part or fixture on a move, unless the part below it met none either
	// and was tested (the tool is connected: it then has its answer).
	Inside int64
}

// Summary is the outcome of a check.
type Summary struct {
	// Moves is the number of moves (read, for CheckReader, when fn or the
	// budget stopped the check), Checked those of nonzero length checked
	// completely (those a budget cut short are Unfinished).
	Moves, Checked int
	// Violations counts the violations, ByKind by kind.
	Violations int
	ByKind     [numKinds]int
	// MovesHit counts the moves with at least one violation.
	MovesHit int
	// Reached is the number of moves the check read: Moves, unless fn,
	// Options.Budget or the context of CheckContext stopped it.
	Reached int
	// Stopped says that Options.Budget ran out, or that the context of
	// CheckContext (CheckReaderContext) was done (the error then says
	// so): the moves from Reached on were not checked (CheckReader read
	// one of them at most); those before were checked completely but for
	// the Unfinished ones, of which the last (Reached-1) may be the move
	// the check stopped in.
	Stopped bool
	// Unfinished counts the moves whose check a budget cut short
	// (Options.MoveBudget, or Options.Budget where it stopped): every
	// violation reported for them is proved, but they may have others.
	// UnfinishedLines holds the program lines of the first 64 of them.
	Unfinished      int
	UnfinishedLines []int
	Stats           Stats
	Seconds         float64
}

// Options configures a Checker.
type Options struct {
	// Eps ≥ 0 is the tolerance: a tool part closer than Eps to what it
	// must not touch is a violation.
	Eps float64
	// Tool is the tool of every move whose tool number is not in Tools.
	Tool Tool
	// Tools are the tools by number (the T of the move).
	Tools map[int]Tool
	// Stock, if not nil, is the raw stock: rapids and the shank and holder
	// must not meet it (the cutter may).
	Stock *geom.AABB
	// Fixtures are models nothing may touch.
	Fixtures []*collide.Model
	// Solid treats the part and the fixtures as the solids they bound,
	// not as their surfaces: a tool part inside one without meeting its
	// surface is a violation too (Violation.Inside), of the kind it would
	// be on meeting the surface (a cutter inside the part is a gouge).
	// Each must then be closed, manifold and oriented (collide.Model.Solid):
	// New refuses one that is not with an error wrapping
	// collide.ErrNotSolid that names it and what breaks. A move whose tool
	// part meets the surface is reported by its triangles, as without
	// Solid. The stock, a box, is a solid always.
	Solid bool
	// Discrete tests the tool only at the end of each move (as the
	// dissertation's "discrete positions"), not the volume it sweeps.
	Discrete bool
	// NoDetail skips the search for each violation's range, depth and
	// clearance.
	NoDetail bool
	// MinDepth > 0 drops the violations certainly no deeper than MinDepth:
	// those whose tool part, shrunk by MinDepth, is proved to miss their
	// triangles over the move (so their depth is less than MinDepth); a
	// violation whose depth is not decided so (a graze, or a depth at
	// MinDepth within rounding) is kept. It is machining's allowance for a
	// finishing path that touches its surface, or cuts it by less than the
	// machine's resolution. The default, 0, reports every contact. A tool
	// inside the stock, or inside a solid (Solid), is always reported.
	MinDepth float64
	// Progress, if not nil, is called now and then with the moves checked
	// and the total (-1 when CheckReader does not know it).
	Progress func(done, total int)
	// Budget, if not zero, bounds the whole check (the time-critical
	// queries' type): Tests > 0 is the most tests it makes (Stats.Exact +
	// Stats.Queries, and Stats.Inside: exact tests of a solid against a
	// triangle, searches of the targets' trees and tests of a point
	// against a target's solid), Deadline when it stops. The budget
	// is looked at between two triangles' tests, two pieces of a move and
	// two moves, the clock every 256 tests; a check may so pass Tests by
	// one triangle's tests (at most a few hundred). When it runs out the
	// check stops: Summary.Stopped, with the moves it checked completely
	// and those it did not. A violation is never invented: one is
	// reported only once its triangles are all known (a stop during its
	// detail reports it as Violation.Stopped says).
	Budget collide.Budget
	// MoveBudget, if not zero, bounds each move alike (see MoveBudget):
	// a move that spends it is cut short (Summary.Unfinished) and the
	// check goes on with the next.
	MoveBudget MoveBudget
}

// Checker checks tool paths against a part, fixtures and stock. It keeps
// scratch state: one Checker must not run two checks at once.
type Checker struct {
	o       Options
	targets []*target
	tools   map[string]*toolState
	query   collide.Query // the targets' searches (collide.Query.Near)
	st      Stats
	// per-move buffers: the candidates found so far, of target tg; the
	// boxes of the role's solids over the move
	cand  []int32
	tg    *target
	visit func(e int32) bool
	boxes []geom.AABB
	near  []solid
	bud   budgetState
	// inside[i] is what the move's last tool part tested against target
	// i (a solid) says of the tool: inside, outside or unknown;
	// insideTop[i] the top of that part.
	inside    []insideAnswer
	insideTop []float64
}

// target is something the tool must not meet.
type target struct {
	kind  Target
	index int
	model *collide.Model  // nil for the stock
	solid *solidpkg.Solid // the model's solid, with Options.Solid
	tree  bool            // the model has a hierarchy (not collide.Brute)
	mesh  *mesh.TriMesh
	box   geom.AABB // the stock's box, or the mesh's bounds
	stamp []uint32
	cur   uint32
	mag   float64 // largest coordinate magnitude
}

// toolState is a tool's solids and searches, by role.
type toolState struct {
	tool  Tool
	roles []*roleState
}

type roleState struct {
	role   Role
	tool   Tool
	solids []solid
	// zlo..zhi and rmax bound the role's solids: every point of them is
	// within rmax of the axis between heights zlo and zhi. radius is the
	// largest radius of the role's parts (without the tolerance).
	zlo, zhi, rmax float64
	radius         float64
	// z0..z1 are the heights of the role's parts (without the
	// tolerance): the axis between them lies in its parts, stacked.
	z0, z1 float64
	// proxy[i] is the axis as a model of target i's volume (nil for a
	// target without a hierarchy).
	proxy []*collide.Model
}

// ErrNoTool is returned by Check when a move's tool is unknown.
var ErrNoTool = errors.New("nc: no tool for the move")

// New returns a checker of tool paths against part (which may be nil if
// fixtures or stock are given). The models must stay unchanged while the
// checker is in use.
func New(part *collide.Model, o Options) (*Checker, error) {
	if math.IsNaN(o.Eps) || math.IsInf(o.Eps, 0) || o.Eps < 0 {
		return nil, fmt.Errorf("nc: tolerance %v: want a finite number ≥ 0", o.Eps)
	}
	if math.IsNaN(o.MinDepth) || math.IsInf(o.MinDepth, 0) || o.MinDepth < 0 {
		return nil, fmt.Errorf("nc: minimum depth %v: want a finite number ≥ 0", o.MinDepth)
	}
	if o.Budget.Tests < 0 || o.MoveBudget.Tests < 0 || o.MoveBudget.Time < 0 {
		return nil, fmt.Errorf("nc: budget %+v, move budget %+v: want tests and time ≥ 0", o.Budget, o.MoveBudget)
	}
	c := &Checker{o: o, tools: map[string]*toolState{}}
	c.visit = func(e int32) bool {
		if tg := c.tg; tg.stamp[e] != tg.cur {
			tg.stamp[e] = tg.cur
			c.cand = append(c.cand, e)
		}
		return true
	}
	add := func(m *collide.Model, kind Target, i int) error {
		if m == nil {
			return fmt.Errorf("nc: %v %d is nil", kind, i)
		}
		t := &target{kind: kind, index: i, model: m, tree: m.BV() != collide.Brute, mesh: m.Mesh()}
		if o.Solid {
			s, err := m.Solid()
			if err != nil {
				if kind == OnPart {
					return fmt.Errorf("nc: the part: %w", err)
				}
				return fmt.Errorf("nc: fixture %d: %w", i, err)
			}
			t.solid = s
		}
		t.box = t.mesh.Bounds()
		t.stamp = make([]uint32, len(t.mesh.Tris))
		t.mag = mag(t.box)
		c.targets = append(c.targets, t)
		return nil
	}
	if part != nil {
		if err := add(part, OnPart, 0); err != nil {
			return nil, err
		}
	}
	for i, f := range o.Fixtures {
		if err := add(f, OnFixture, i); err != nil {
			return nil, err
		}
	}
	if o.Stock != nil {
		b := *o.Stock
		if !finiteBox(b) || b.Min.X > b.Max.X || b.Min.Y > b.Max.Y || b.Min.Z > b.Max.Z {
			return nil, fmt.Errorf("nc: stock box %v: want finite corners, min ≤ max", b)
		}
		m := boxMesh(b)
		c.targets = append(c.targets, &target{kind: OnStock, mesh: m, box: b, stamp: make([]uint32, len(m.Tris)), mag: mag(b)})
	}
	if len(c.targets) == 0 {
		return nil, errors.New("nc: nothing to check against (no part, fixture or stock)")
	}
	return c, nil
}

func finiteBox(b geom.AABB) bool {
	for _, v := range []float64{b.Min.X, b.Min.Y, b.Min.Z, b.Max.X, b.Max.Y, b.Max.Z} {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return false
		}
	}
	return true
}

func mag(b geom.AABB) float64 {
	if b.IsEmpty() {
		return 0
	}
	return max(math.Abs(b.Min.X), math.Abs(b.Min.Y), math.Abs(b.Min.Z), math.Abs(b.Max.X), math.Abs(b.Max.Y), math.Abs(b.Max.Z))
}

// boxMesh returns the 12 triangles of box b's faces.
func boxMesh(b geom.AABB) *mesh.TriMesh {
	m := &mesh.TriMesh{}
	for i := range 8 {
		m.Verts = append(m.Verts, b.Corner(i))
	}
	m.Tris = [][3]int32{
		{0, 2, 1}, {1, 2, 3}, {4, 5, 6}, {5, 7, 6}, // z min, z max
		{0, 1, 4}, {1, 5, 4}, {2, 6, 3}, {3, 6, 7}, // y min, y max
		{0, 4, 2}, {2, 4, 6}, {1, 3, 5}, {3, 7, 5}, // x min, x max
	}
	return m
}

// state returns the checker's state for tool t.
func (c *Checker) state(t Tool) (*toolState, error) {
	if ts, ok := c.tools[t.spec]; ok {
		return ts, nil
	}
	if len(t.Parts) == 0 {
		return nil, ErrNoTool
	}
	ts := &toolState{tool: t}
	all := solids(t, c.o.Eps)
	for _, r := range []Role{Cutting, Shank, Holder} {
		rs := &roleState{role: r, tool: t, zlo: math.Inf(1), zhi: math.Inf(-1), z0: math.Inf(1), z1: math.Inf(-1)}
		for _, p := range t.Parts {
			if p.Role == r {
				rs.radius = max(rs.radius, p.R0, p.R1)
				rs.z0, rs.z1 = min(rs.z0, p.Z0), max(rs.z1, p.Z1)
			}
		}
		for _, s := range all {
			if s.role != r {
				continue
			}
			rs.solids = append(rs.solids, s)
			// The solid lies within rad of the axis between lo and hi (a
			// ball within its radius of its centre).
			lo, hi, rad := s.z0, s.z1, s.r
			switch s.kind {
			case exactBall:
				lo, hi = s.z0, s.z0
			case profile:
				rad = max(s.radius(s.z0, true), s.radius(s.z1, true))
			}
			rs.zlo, rs.zhi, rs.rmax = min(rs.zlo, lo), max(rs.zhi, hi), max(rs.rmax, rad)
		}
		if len(rs.solids) == 0 {
			continue
		}
		// The axis as a model to search with: a sliver of a triangle
		// holding it (a segment's degenerate triangle would do, but the
		// triangle tests of the kinds without leaf volumes can prove
		// nothing of one).
		axis := &mesh.TriMesh{Verts: []geom.Vec3{{Z: rs.zlo}, {Z: rs.zhi}, {X: max(rs.rmax, rs.zhi-rs.zlo) * 0x1p-10, Z: (rs.zlo + rs.zhi) / 2}}, Tris: [][3]int32{{0, 1, 2}}}
		rs.proxy = make([]*collide.Model, len(c.targets))
		for i, tg := range c.targets {
			if !tg.tree {
				continue
			}
			m, err := collide.Build(axis, collide.BuildOptions{BV: tg.model.BV(), Float64: tg.model.Options().Float64})
			if err != nil {
				return nil, fmt.Errorf("nc: the tool's axis as a %v model: %w", tg.model.BV(), err)
			}
			rs.proxy[i] = m
		}
		ts.roles = append(ts.roles, rs)
	}
	c.tools[t.spec] = ts
	return ts, nil
}

// toolFor returns the tool of a move with tool number n.
func (c *Checker) toolFor(n int) (Tool, error) {
	if t, ok := c.o.Tools[n]; ok {
		return t, nil
	}
	if len(c.o.Tool.Parts) > 0 {
		return c.o.Tool, nil
	}
	return Tool{}, fmt.Errorf("%w: T%d is not in the tool table", ErrNoTool, n)
}

// MoveReader is a source of moves, in program order: *gcode.Reader is one.
type MoveReader interface {
	// Name names the program in errors.
	Name() string
	// Next returns the next move, or io.EOF after the last one; any other
	// error ends the check and is returned as it is.
	Next() (gcode.Move, error)
}

// A PartReader is a MoveReader of a part of a program: its moves from the
// program's move First() on (a shard of a long program split into parts
// checked apart, perhaps on other machines). A check of it numbers their
// violations from First (Violation.Move), as a check of the whole program
// numbers them; nothing else needs the moves before: a move's violations,
// and the work counted in Stats, depend on the move and the Checker's
// Options alone, never on the moves the Checker checked before it. The
// Summaries of the parts, added in order (Summary.Add), are the whole
// program's but for Seconds.
type PartReader interface {
	MoveReader
	// First returns the index in its program of the first move Next
	// returns.
	First() int
}

// Check checks every move of p, calling fn (if not nil) with each
// violation in program order; fn returns false to stop the check. The
// error is about the input (a move's tool unknown, an unsupported arc),
// naming the program's line. It is CheckContext with a context that is
// never done.
func (c *Checker) Check(p *gcode.Program, fn func(Violation) bool) (Summary, error) {
	return c.CheckContext(context.Background(), p, fn)
}

// CheckContext is Check, stopped when ctx is done (cancelled, or past its
// deadline). The context is looked at before each move and within a move
// where the budgets are (between two triangles' tests and two pieces of a
// move, every 256 tests; see Options.Budget), so that a check stops within
// a few hundred exact tests. It stops as Options.Budget stops a check: the
// Summary returned is that of the moves checked (Stopped, with Reached the
// moves read and the move it stopped in counted Unfinished), every
// violation reported before is proved and complete, and the error wraps
// ctx.Err() (errors.Is(err, context.Canceled) or
// context.DeadlineExceeded).
func (c *Checker) CheckContext(ctx context.Context, p *gcode.Program, fn func(Violation) bool) (Summary, error) {
	return c.check(ctx, &programMoves{p: p}, len(p.Moves), fn)
}

// CheckReader is Check of the moves that r returns, checked as they are
// read: the checker keeps none of them, so a program of any length is
// checked in memory that does not grow with its moves (a gcode.Reader
// holds back at most its Options.Lookahead). The moves r returned before
// an error are checked, and their violations reported, before CheckReader
// returns the error. It is CheckReaderContext with a context that is never
// done.
func (c *Checker) CheckReader(r MoveReader, fn func(Violation) bool) (Summary, error) {
	return c.CheckReaderContext(context.Background(), r, fn)
}

// CheckReaderContext is CheckReader, stopped when ctx is done, as
// CheckContext is.
func (c *Checker) CheckReaderContext(ctx context.Context, r MoveReader, fn func(Violation) bool) (Summary, error) {
	return c.check(ctx, r, -1, fn)
}

// programMoves returns the moves of a Program.
type programMoves struct {
	p *gcode.Program
	i int
}

func (m *programMoves) Name() string { return m.p.Name }

func (m *programMoves) Next() (gcode.Move, error) {
	if m.i == len(m.p.Moves) {
		return gcode.Move{}, io.EOF
	}
	m.i++
	return m.p.Moves[m.i-1], nil
}

func (c *Checker) check(ctx context.Context, r MoveReader, total int, fn func(Violation) bool) (Summary, error) {
	start := time.Now()
	c.st = Stats{}
	c.startBudget(ctx.Done())
	defer func() { c.bud.done = nil }()
	var sum Summary
	name := r.Name()
	first := 0
	if p, ok := r.(PartReader); ok {
		first = p.First()
	}
	stop := false
	for i := 0; ; i++ {
		if c.o.Progress != nil && i%1024 == 0 {
			c.o.Progress(i, total)
		}
		m, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return sum, err
		}
		if c.startMove() {
			sum.Stopped = true
			break
		}
		sum.Moves++
		t, err := c.toolFor(m.Tool)
		if err != nil {
			return sum, fmt.Errorf("%s: line %d: %w", name, m.Line, err)
		}
		ts, err := c.state(t)
		if err != nil {
			return sum, fmt.Errorf("%s: line %d: %w", name, m.Line, err)
		}
		if err := ValidMove(name, m); err != nil {
			return sum, err
		}
		if !isArc(m) && m.From == m.To {
			continue
		}
		hitMove := false
		c.move(first+i, m, ts, func(v Violation) bool {
			hitMove = true
			sum.Violations++
			sum.ByKind[v.Kind]++
			if v.Graze {
				c.st.Grazes++
			}
			if fn != nil && !fn(v) {
				stop = true
			}
			return !stop
		})
		if hitMove {
			sum.MovesHit++
		}
		if c.bud.cut {
			sum.Unfinished++
			if len(sum.UnfinishedLines) < maxUnfinishedLines {
				sum.UnfinishedLines = append(sum.UnfinishedLines, m.Line)
			}
			if c.bud.stopped {
				sum.Stopped = true
				break
			}
		} else {
			sum.Checked++
		}
		if stop {
			break
		}
	}
	sum.Reached = sum.Moves // the moves begun
	if total >= 0 {
		sum.Moves = total
	}
	if c.o.Progress != nil {
		c.o.Progress(sum.Moves, total)
	}
	sum.Stats = c.st
	sum.Seconds = time.Since(start).Seconds()
	if c.bud.ctxDone {
		return sum, fmt.Errorf("nc: %s: the check stopped after reading %d %s: %w", name, sum.Reached, plural(sum.Reached, "move", "moves"), ctx.Err())
	}
	return sum, nil
}

// Add adds t, the summary of a check of the moves that follow those of
// s (the next part of the same program: PartReader), to s: the counts,
// the work and the time are summed, UnfinishedLines keeps its first 64,
// and s is Stopped if either is.
func (s *Summary) Add(t Summary) {
	s.Moves += t.Moves
	s.Checked += t.Checked
	s.Violations += t.Violations
	for k := range s.ByKind {
		s.ByKind[k] += t.ByKind[k]
	}
	s.MovesHit += t.MovesHit
	s.Reached += t.Reached
	s.Stopped = s.Stopped || t.Stopped
	s.Unfinished += t.Unfinished
	for _, l := range t.UnfinishedLines {
		if len(s.UnfinishedLines) < maxUnfinishedLines {
			s.UnfinishedLines = append(s.UnfinishedLines, l)
		}
	}
	s.Stats.Queries += t.Stats.Queries
	s.Stats.BVTests += t.Stats.BVTests
	s.Stats.Candidates += t.Stats.Candidates
	s.Stats.Exact += t.Stats.Exact
	s.Stats.Grazes += t.Stats.Grazes
	s.Stats.Inside += t.Stats.Inside
	s.Seconds += t.Seconds
}

// ValidMove returns the error that a check gives move m of the program
// named name whatever its tool and targets, or nil: a coordinate or radius
// that is not a finite number, an arc whose circle or length reaches beyond
// the float64 range (gcode.ArcInRange), a helix outside the XY plane. A
// check stops at such a move with this error; a program read ahead of its
// check (split into parts, PartReader) can so be refused before any part
// is checked.
func ValidMove(name string, m gcode.Move) error {
	if !m.From.IsFinite() || !m.To.IsFinite() || isArc(m) && !(m.Center.IsFinite() && m.Radius >= 0 && !math.IsInf(m.Radius, 0)) {
		return fmt.Errorf("%s: line %d: nc: a move with a coordinate or radius not a finite number", name, m.Line)
	}
	if isArc(m) && !gcode.ArcInRange(m) {
		return fmt.Errorf("%s: line %d: nc: the arc's circle or length reaches beyond the float64 range (radius %g about %v)", name, m.Line, m.Radius, m.Center)
	}
	if isArc(m) && m.Plane != gcode.XY && normalOf(m, m.From) != normalOf(m, m.To) {
		return fmt.Errorf("%s: line %d: nc: a helix outside the XY plane (G17) is not supported", name, m.Line)
	}
	return nil
}

// plural returns one if n is 1, else many.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// move checks move m (index i in its program) with tool state ts.
func (c *Checker) move(i int, m gcode.Move, ts *toolState, fn func(Violation) bool) {
	rapid := m.Kind == gcode.Rapid
	pb := pathBounds(m, c.o.Discrete)
	c.startInside()
	for _, rs := range ts.roles {
		// Each solid's box over the move, for touch to skip the solids a
		// candidate's box misses before their exact tests.
		c.boxes = c.boxes[:0]
		for k := range rs.solids {
			c.boxes = append(c.boxes, rs.solids[k].sweptBounds(pb))
		}
		for ti, tg := range c.targets {
			if !rapid && rs.role == Cutting && tg.kind == OnStock {
				continue
			}
			if c.out() {
				return
			}
			v := Violation{Move: i, Line: m.Line, N: m.N, Role: rs.role, Target: tg.kind, Fixture: tg.index, S1: 1}
			switch {
			case rapid:
				v.Kind = RapidHit
			case rs.role == Shank:
				v.Kind = ShankHit
			case rs.role == Holder:
				v.Kind = HolderHit
			case tg.kind == OnFixture:
				v.Kind = FixtureHit
			default:
				v.Kind = Gouge
			}
			tris, graze, within := c.touch(m, rs, ti, tg)
			if c.bud.cut {
				return // the triangles met are not all known
			}
			if len(tris) == 0 {
				switch {
				case tg.solid != nil:
					if !c.insideSolid(m, rs, ti, tg) {
						continue
					}
					if c.o.Discrete {
						v.S0 = 1
					}
				case tg.kind != OnStock || !tg.box.Contains(m.From.Add(geom.V(0, 0, rs.zlo))):
					continue
				}
				// Inside the stock or the solid without meeting its
				// surface: the whole swept part is, however much it
				// shrinks.
				v.Depth, v.DepthMax, v.Inside = rs.radius, rs.radius, true
			} else {
				c.inside[ti] = insideUnknown
				v.Tris, v.Graze, v.Within = tris, graze, within
				v.DepthMax = rs.radius
				if c.o.MinDepth > 0 {
					h := c.depthHit(v.Tris, m, rs, tg, c.o.MinDepth)
					if c.bud.cut {
						// Not decided: the whole check might drop it.
						return
					}
					if !h.yes {
						// Shrunk by MinDepth, the part is proved to miss: the
						// violation is certainly shallower than MinDepth.
						continue
					}
				}
				if !c.o.NoDetail {
					c.detail(&v, m, rs, tg)
				}
			}
			if !fn(v) || c.bud.cut {
				return
			}
		}
	}
}

// touch returns the triangles of target tg that role rs meets over move
// m, ascending; and whether every contact found is a graze, and if so
// their largest bound.
func (c *Checker) touch(m gcode.Move, rs *roleState, ti int, tg *target) ([]int32, bool, float64) {
	tg.cur++
	if tg.cur == 0 {
		clear(tg.stamp)
		tg.cur = 1
	}
	c.cand = c.cand[:0]
	c.candidates(m, rs, ti, tg)
	if c.bud.cut {
		return nil, false, 0
	}
	var hits []int32
	var all hit
	for _, e := range c.cand {
		if c.out() {
			return nil, false, 0
		}
		t := tg.mesh.Triangle(int(e))
		tb := t.FiniteBounds()
		ss := c.near[:0]
		for i, b := range c.boxes {
			if b.Min.X <= tb.Max.X && tb.Min.X <= b.Max.X && b.Min.Y <= tb.Max.Y && tb.Min.Y <= b.Max.Y &&
				b.Min.Z <= tb.Max.Z && tb.Min.Z <= b.Max.Z {
				ss = append(ss, rs.solids[i])
			}
		}
		c.near = ss
		if len(ss) == 0 {
			continue
		}
		h := c.meetsMove(m, 0, 1, ss, t)
		if h.yes {
			hits = append(hits, e)
			all = all.or(h)
		}
	}
	if len(hits) == 0 {
		return nil, false, 0
	}
	slices.Sort(hits)
	if !all.graze {
		return hits, false, 0
	}
	return hits, true, all.within
}

// candidates appends to c.cand every triangle of tg that role rs may meet
// over move m (each once), found through the target's tree.
func (c *Checker) candidates(m gcode.Move, rs *roleState, ti int, tg *target) {
	p := pieces{m: m, rs: rs, tg: tg, n: 1, discrete: c.o.Discrete}
	if !p.discrete {
		p.length = pathLength(m)
		nf := math.Ceil(p.length / (2 * max(rs.rmax, 1e-9*(1+tg.mag))))
		if isArc(m) {
			nf = max(nf, math.Ceil(sweep(m)/(math.Pi/4)))
		}
		p.n = int(min(max(nf, 1), 1<<20)) // converted in range (length may be +Inf)
	}
	c.tg = tg
	// A move too long for its pieces' pads (its length beyond the float64
	// range, or pads beyond any tree's volumes, float32 ones included) is
	// one query of the box of its whole path, against every triangle.
	p.huge = !(p.length/(2*float64(p.n)) < 0x1p100)
	if p.huge {
		p.n = 1
	}
	// A straight move much longer than the part is mostly far from it:
	// its pieces are taken in blocks, and a block whose box misses the
	// target's is skipped whole. The block's box holds its pieces' boxes
	// exactly: the centres of a straight move's pieces (gcode.Move.At,
	// a + s·d in floats) are monotone in k along each axis, so they lie in
	// the box of the block's first and last centres; the pad grows with
	// their magnitudes, so the larger of the two ends' pads bounds the
	// others'; and floating-point addition is monotone.
	const block = 256
	step := p.n
	if !p.huge && !p.discrete && !isArc(m) && p.n > block {
		step = block
	}
	for k0 := 0; k0 < p.n; k0 += step {
		k1 := min(k0+step, p.n)
		if step < p.n {
			a, pa := p.at(k0)
			b, pb := p.at(k1 - 1)
			if !p.box(a.Min(b), a.Max(b), max(pa, pb)).Overlaps(tg.box) {
				continue
			}
		}
		for k := k0; k < k1; k++ {
			if c.out() {
				return
			}
			c.piece(&p, k, ti)
		}
	}
}

// pieces is a move cut into n pieces of its parameter, for the searches of
// one tool part's triangles near one target (candidates).
type pieces struct {
	m        gcode.Move
	rs       *roleState
	tg       *target
	n        int
	length   float64
	huge     bool // one piece: the box of the whole path
	discrete bool // one piece: the move's end
}

// at returns the centre of piece k and a pad that holds, around it, every
// position of the tool part's axis in the piece.
func (p *pieces) at(k int) (at geom.Vec3, pad float64) {
	switch {
	case p.huge:
		pb := pathBounds(p.m, false)
		at = pb.Min.Scale(0.5).Add(pb.Max.Scale(0.5))
		half := pb.Max.Scale(0.5).Sub(pb.Min.Scale(0.5))
		pad = p.rs.rmax + max(half.X, half.Y, half.Z)
	case p.discrete:
		at = p.m.To
		pad = p.rs.rmax
	default:
		at = p.m.At((float64(k) + 0.5) / float64(p.n))
		// Every position of this piece is within length/(2n) of at
		// (the move's speed is constant in its parameter).
		pad = p.rs.rmax + p.length/(2*float64(p.n))
	}
	// The slack covers the rounding of at and of the pad.
	pad += pad*0x1p-30 + (p.tg.mag+math.Abs(at.X)+math.Abs(at.Y)+math.Abs(at.Z)+math.Abs(p.rs.zlo)+math.Abs(p.rs.zhi))*0x1p-40
	return at, pad
}

// box returns the box of every position of the tool part within pad of
// the axis's positions in the box [lo, hi].
func (p *pieces) box(lo, hi geom.Vec3, pad float64) geom.AABB {
	return geom.AABB{Min: lo.Add(geom.V(-pad, -pad, p.rs.zlo-pad)), Max: hi.Add(geom.V(pad, pad, p.rs.zhi+pad))}
}

// piece hands the triangles of p's target near piece k over to c.visit,
// with tool part ti's proxy.
func (c *Checker) piece(p *pieces, k, ti int) {
	at, pad := p.at(k)
	tg := p.tg
	// A piece whose box misses the target's costs no search.
	q := p.box(at, at, pad)
	if !q.Overlaps(tg.box) {
		return
	}
	if !p.huge && tg.tree {
		st, err := c.query.Near(tg.model, p.rs.proxy[ti], geom.Translation(at), pad, c.visit)
		if err == nil {
			c.st.Queries++
			c.st.BVTests += st.BVTests + st.LeafTests
			c.st.Candidates += st.TriTests
			return
		}
		// Near refuses only what cannot be here (at and pad are finite, a
		// translation places the axis); the search by boxes below finds
		// every triangle within pad of the axis all the same.
	}
	for e := range tg.mesh.Tris {
		if tg.mesh.Triangle(e).Bounds().Overlaps(q) {
			c.visit(int32(e))
		}
	}
	c.st.Candidates += int64(len(tg.mesh.Tris))
}

// pathBounds returns a box holding every position of move m (its end
// alone if discrete), a little larger than the exact box.
func pathBounds(m gcode.Move, discrete bool) geom.AABB {
	b := geom.EmptyAABB().AddPoint(m.To)
	if !discrete {
		b = b.AddPoint(m.From)
	}
	if isArc(m) && !discrete {
		// The arc's circle's box in its plane (its radius may grow to the
		// end's), and its normal range.
		r := max(m.Radius, endRadius(m))
		a, bb, _ := m.Plane.Axes()
		lo, hi := b.Min, b.Max
		lo = lo.SetIndex(a, min(lo.Index(a), m.Center.Index(a)-r)).SetIndex(bb, min(lo.Index(bb), m.Center.Index(bb)-r))
		hi = hi.SetIndex(a, max(hi.Index(a), m.Center.Index(a)+r)).SetIndex(bb, max(hi.Index(bb), m.Center.Index(bb)+r))
		b = geom.AABB{Min: lo, Max: hi}
	}
	return b
}

func isArc(m gcode.Move) bool { return m.Kind == gcode.ArcCW || m.Kind == gcode.ArcCCW }

// sweep returns an arc's angle (0 for a line).
func sweep(m gcode.Move) float64 {
	if !isArc(m) {
		return 0
	}
	return m.Sweep()
}

// pathLength returns the length of move m's path (+Inf beyond the float64
// range).
func pathLength(m gcode.Move) float64 { return m.Length() }

// normalOf returns p's coordinate along the normal of m's plane.
func normalOf(m gcode.Move, p geom.Vec3) float64 {
	switch m.Plane {
	case gcode.ZX:
		return p.Y
	case gcode.YZ:
		return p.X
	}
	return p.Z
}

// meetsMove reports whether solids swept over move m between parameters
// s0 and s1 meet t. Lines are decided exactly (up to the
// brackets of curved solids); arcs by bisection of the angle.
func (c *Checker) meetsMove(m gcode.Move, s0, s1 float64, ss []solid, t geom.Triangle) hit {
	if c.o.Discrete {
		return c.meetsAll(shape.Point(m.To), 0, 0, ss, t)
	}
	if !isArc(m) {
		a, b := m.From, m.To
		if s0 != 0 {
			a = m.At(s0)
		}
		if s1 != 1 {
			b = m.At(s1)
		}
		if a == b {
			return c.meetsAll(shape.Point(a), 0, 0, ss, t)
		}
		return c.meetsAll(shape.Segment(a, b), 0, 0, ss, t)
	}
	return c.meetsArc(m, s0, s1, ss, t)
}

// meetsAll reports whether any of solids ss, swept over path with lift and
// grown by grow, meets t.
func (c *Checker) meetsAll(path shape.Path, lift, grow float64, ss []solid, t geom.Triangle) hit {
	var h hit
	for i := range ss {
		g := ss[i].meets(path, lift, grow, t, &c.st)
		if g.yes && !g.graze {
			return g
		}
		h = h.or(g)
	}
	return h
}

// arcDepth is the most halvings of an arc's angle, arcBudget the most
// pieces of an arc tested against one triangle.
const (
	arcDepth  = 26
	arcBudget = 128
)

// meetsArc decides an arc (between parameters s0 and s1) by bisection of
// its angle, breadth first: a piece of at most a quarter turn lies in the
// triangle of its ends and the meeting point of its end tangents, raised
// over the piece's rise (a helix), so the solids swept over that triangle
// (grown by a bound on the rounding of its corners) missing t proves a
// miss; the solids at either end of the piece meeting t proves contact;
// else the piece is halved, at most arcDepth times and into at most
// arcBudget pieces, after which it is a graze within the bound that the
// outer test leaves.
func (c *Checker) meetsArc(m gcode.Move, s0, s1 float64, ss []solid, t geom.Triangle) hit {
	type piece struct {
		a, b  float64
		depth int
	}
	total := sweep(m)
	q := max(1, int(math.Ceil((s1-s0)*total/(math.Pi/2))))
	queue := make([]piece, 0, max(arcBudget, q))
	for k := range q {
		queue = append(queue, piece{s0 + (s1-s0)*float64(k)/float64(q), s0 + (s1-s0)*float64(k+1)/float64(q), 0})
	}
	scale := m.Radius + math.Abs(m.Center.X) + math.Abs(m.Center.Y) + math.Abs(m.Center.Z) +
		math.Abs(m.From.X) + math.Abs(m.From.Y) + math.Abs(m.From.Z) + math.Abs(m.To.X) + math.Abs(m.To.Y) + math.Abs(m.To.Z)
	var res hit
	for head := 0; head < len(queue); head++ {
		if c.out() {
			return hit{} // the caller drops it: the move is cut short
		}
		p := queue[head]
		pa, pb := m.At(p.a), m.At(p.b)
		ha := c.meetsAll(shape.Point(pa), 0, 0, ss, t)
		if ha.yes && !ha.graze {
			return ha
		}
		hb := c.meetsAll(shape.Point(pb), 0, 0, ss, t)
		if hb.yes && !hb.graze {
			return hb
		}
		res = res.or(ha).or(hb)
		phi := (p.b - p.a) * total
		pm := m.At((p.a + p.b) / 2)
		// The apex: the middle point pushed out from the centre by 1/cos(φ/2)
		// in the plane (cos computed within a few ulps; grow covers it).
		ctr := m.Center
		lo, rise := normalOf(m, pa), normalOf(m, pb)-normalOf(m, pa)
		if rise < 0 {
			lo, rise = normalOf(m, pb), -rise
		}
		k := 1 / math.Cos(phi/2)
		apex := geom.V(ctr.X+(pm.X-ctr.X)*k, ctr.Y+(pm.Y-ctr.Y)*k, ctr.Z+(pm.Z-ctr.Z)*k)
		a, b := pa, pb
		if m.Plane == gcode.XY {
			a.Z, b.Z, apex.Z = lo, lo, lo
		} else {
			apex = setNormal(m, apex, normalOf(m, pa))
		}
		// The radius goes linearly between the start's and the end's (a
		// spiral within Read's tolerance): grow covers the departure.
		grow := scale*0x1p-44 + m.Radius*phi*phi*0x1p-40 + math.Abs(endRadius(m)-m.Radius)*(p.b-p.a)*(1+0x1p-40)
		h := c.meetsAll(shape.Tri(a, apex, b), rise, grow, ss, t)
		if !h.yes {
			continue
		}
		if p.depth >= arcDepth || phi*m.Radius <= scale*0x1p-44 || len(queue)+2 > cap(queue) {
			// Every point of the triangle is within the apex's distance
			// from the circle (R·(sec(φ/2) − 1)), the grow and the rise
			// of the arc; h may itself be a graze of an outer test.
			w := (m.Radius*(k-1)+2*grow+rise)*(1+0x1p-40) + h.within
			res = res.or(hit{yes: true, graze: true, within: w})
			continue
		}
		mid := (p.a + p.b) / 2
		queue = append(queue, piece{p.a, mid, p.depth + 1}, piece{mid, p.b, p.depth + 1})
	}
	return res
}

// endRadius returns the distance of an arc's end from its centre, in its
// plane.
func endRadius(m gcode.Move) float64 {
	a, b, _ := m.Plane.Axes()
	return math.Hypot(m.To.Index(a)-m.Center.Index(a), m.To.Index(b)-m.Center.Index(b))
}

// setNormal returns p with its coordinate along m's plane's normal set to v.
func setNormal(m gcode.Move, p geom.Vec3, v float64) geom.Vec3 {
	switch m.Plane {
	case gcode.ZX:
		p.Y = v
	case gcode.YZ:
		p.X = v
	default:
		p.Z = v
	}
	return p
}

// detailSteps is the number of halvings of the searches for a violation's
// range, depth and clearance.
const detailSteps = 20

// detail fills in v's range, depth and clearance: by bisection, each step
// an exact test of the move (or part of it) against v's triangles.
func (c *Checker) detail(v *Violation, m gcode.Move, rs *roleState, tg *target) {
	defer func() {
		if c.bud.cut {
			// A budget ran out: the detail as NoDetail leaves it.
			v.S0, v.S1, v.Depth, v.DepthMax, v.Clearance, v.Stopped = 0, 1, 0, rs.radius, 0, true
		}
	}()
	tris := make([]geom.Triangle, len(v.Tris))
	for i, e := range v.Tris {
		tris[i] = tg.mesh.Triangle(int(e))
	}
	any := func(ss []solid, s0, s1 float64) bool {
		for _, t := range tris {
			if c.out() {
				return false // the caller drops it: the detail is cut short
			}
			if c.meetsMove(m, s0, s1, ss, t).yes {
				return true
			}
		}
		return false
	}
	if c.o.Eps > 0 {
		// The clearance: the least tolerance at which the move still meets.
		z := solids(rs.tool, 0)
		zs := roleSolids(z, rs.role)
		if !any(zs, 0, 1) {
			lo, hi := 0.0, c.o.Eps
			for range detailSteps {
				mid := lo + (hi-lo)/2
				if any(roleSolids(solids(rs.tool, mid), rs.role), 0, 1) {
					hi = mid
				} else {
					lo = mid
				}
			}
			v.Clearance = hi
		}
	}
	if c.o.Discrete {
		v.S0, v.S1 = 1, 1
	} else {
		// The range: the least s1 such that [0, s1] meets, and the largest
		// s0 such that [s0, 1] meets.
		if any(rs.solids, 0, 0) {
			v.S0 = 0
		} else {
			lo, hi := 0.0, 1.0
			for range detailSteps {
				mid := lo + (hi-lo)/2
				if any(rs.solids, 0, mid) {
					hi = mid
				} else {
					lo = mid
				}
			}
			v.S0 = hi
		}
		if any(rs.solids, 1, 1) {
			v.S1 = 1
		} else {
			lo, hi := v.S0, 1.0
			for range detailSteps {
				mid := lo + (hi-lo)/2
				if any(rs.solids, mid, 1) {
					lo = mid
				} else {
					hi = mid
				}
			}
			v.S1 = lo
		}
	}
	if v.Clearance > 0 {
		v.Depth, v.DepthMax = 0, 0 // no contact: within the tolerance only
		return
	}
	// The depth: the most the tool's parts can shrink and still meet the
	// triangles, in [lo, hi]: shrunk by lo they are proved to meet (0:
	// the violation itself, or nothing proved), shrunk by hi proved to
	// miss (or hi is the radius, which no part can shrink by more).
	// Shrinking is monotone (each shrunk part holds the parts shrunk
	// more), so every proof bounds the depth; a graze proves nothing and
	// ends the search.
	lo, hi := 0.0, rs.radius
	if h := c.depthHit(v.Tris, m, rs, tg, hi); h.yes && !h.graze {
		lo = hi
	}
	zeros := 0
	for step := 0; step < detailSteps+detailMore && lo < hi; step++ {
		var mid float64
		switch {
		case step < detailSteps:
			mid = lo + (hi-lo)/2
		case hi-lo <= hi*0x1p-10:
			step = detailSteps + detailMore // precise enough
			continue
		case lo == 0:
			// Nothing proved yet: a touch, or a depth far below the
			// radius; down by 2^10 at a time, at most 4 times.
			if zeros++; zeros > 4 {
				step = detailSteps + detailMore
				continue
			}
			mid = hi * 0x1p-10
		case hi > 2*lo:
			mid = math.Sqrt(lo) * math.Sqrt(hi) // halving the ratio's logarithm
		default:
			mid = lo + (hi-lo)/2
		}
		if mid <= lo || mid >= hi {
			break
		}
		h := c.depthHit(v.Tris, m, rs, tg, mid)
		if h.yes && h.graze {
			break
		}
		if h.yes {
			lo = mid
		} else {
			hi = mid
		}
	}
	v.Depth, v.DepthMax = lo, hi
}

// detailMore is the most steps of the depth's search after the first
// detailSteps halvings, while its interval is wider than 2^-10 of its
// upper end: down by 2^10 at a time while nothing is proved (at most 4
// times: a touch), then halving the ratio of its ends, then the interval:
// a depth far below the part's radius (a large face mill plunging by a
// micrometre) gets its leading digits.
const detailMore = 20

// depthHit tests role rs of the tool, each part shrunk by d > 0, swept
// over move m, against the triangles tris of tg: a proved miss of the
// parts shrunk and rounded outwards, else a proof of contact of the parts
// rounded inwards, else a graze (undecided).
func (c *Checker) depthHit(tris []int32, m gcode.Move, rs *roleState, tg *target, d float64) hit {
	test := func(ss []solid) hit {
		var h hit
		for _, e := range tris {
			if c.out() {
				return hit{} // the caller drops it: the move is cut short
			}
			g := c.meetsMove(m, 0, 1, ss, tg.mesh.Triangle(int(e)))
			if g.yes && !g.graze {
				return g
			}
			h = h.or(g)
		}
		return h
	}
	if h := test(roleSolids(eroded(rs.tool, d, true), rs.role)); !h.yes {
		return h
	}
	if h := test(roleSolids(eroded(rs.tool, d, false), rs.role)); h.yes && !h.graze {
		return h
	}
	return hit{yes: true, graze: true}
}

// roleSolids returns the solids of ss with role r.
func roleSolids(ss []solid, r Role) []solid {
	var out []solid
	for _, s := range ss {
		if s.role == r {
			out = append(out, s)
		}
	}
	return out
}
