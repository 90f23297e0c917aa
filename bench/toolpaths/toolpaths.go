package toolpaths

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/bench/internal/md"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/internal/portable"
	"github.com/collide3d/collide/mesh"
	"github.com/collide3d/collide/mesh/gen"
	"github.com/collide3d/collide/nc"
	"github.com/collide3d/collide/nc/gcode"
	"github.com/collide3d/collide/nc/ncgen"
)

// The NC verification experiments of Klosowski's dissertation (chapter 8):
// zig-zag finishing paths of a ball-end tool over terrains (after its USGS
// elevation models) and mold parts (after its industrial bottle molds),
// checked with every kind of tree: the exact ball at the moves' ends, the
// ball and the volume it sweeps along each move (package nc), and three
// polyhedral tools (a ball, a flat end with rounded corners, a nearly
// conical tool with a rounded tip) at the moves' ends, as collide.Check
// queries at translation poses. The dissertation's tables give, per
// environment, its size and steps, then per tool the contacts and the time
// of each k-DOP tree and of RAPID (OBB trees), and the ratio RAPID ÷
// 18-DOP.

// BVs are the trees of the NC experiments: the k-DOPs, OBB (the
// dissertation's RAPID) and the other kinds.
var BVs = []string{"kdop6", "kdop14", "kdop18", "kdop26", "obb", "sphere", "aabb", "rss", "boxtree"}

// Terrains are the terrain environments, Molds the mold parts (part1
// to part5: ncgen.Mold's five variants).
var (
	Terrains = ncgen.TerrainPresets()
	Molds    = []string{"part1", "part2", "part3", "part4", "part5"}
)

// QuickMolds are the mold parts of a quick run.
var QuickMolds = []string{"part1", "part2"}

// The tests of an NC experiment, in the tables' order.
const (
	Ball     = "ball"     // the exact ball at the moves' ends (nc, Discrete)
	Swept    = "swept"    // the exact ball and its swept volume (nc)
	Poly     = "polyball" // a polyhedral ball (an icosphere) at the moves' ends
	Flat     = "flat"     // a polyhedral flat end with rounded corners
	Cone     = "cone"     // a polyhedral, nearly conical tool with a rounded tip
	ncRounds = 3
)

// Tests lists the tests in the tables' order.
var Tests = []string{Ball, Swept, Poly, Flat, Cone}

// ncTestNames describe the tests for the report.
var ncTestNames = map[string]string{
	Ball:  "exact ball at the moves' ends",
	Swept: "exact ball and its swept volume",
	Poly:  "polyhedral ball at the moves' ends",
	Flat:  "polyhedral flat end with rounded corners at the moves' ends",
	Cone:  "polyhedral nearly conical tool at the moves' ends",
}

// Sizes of the NC experiments.
const (
	// NCTerrainGrid and NCMoldGrid are the full run's grids (79,202 and
	// 49,928 triangles); NCQuickTerrainGrid and NCQuickMoldGrid the quick
	// run's (8,192 and 12,800).
	NCTerrainGrid      = 200
	NCMoldGrid         = 159
	NCQuickTerrainGrid = 65
	NCQuickMoldGrid    = 81
	// NCTerrainRadius and NCMoldRadius are the ball's radius (mm).
	NCTerrainRadius = 2.0
	NCMoldRadius    = 3.0
)

// Config configures Run.
type Config struct {
	// Quick uses smaller environments (NCQuickTerrainGrid,
	// NCQuickMoldGrid, QuickMolds) and sparser mold paths.
	Quick bool
	// Seed selects the terrains, the parts and the distorted samples.
	Seed uint64
	// Envs lists the environments (terrain presets and part1..part5; nil:
	// the four terrains and the parts of the run's size).
	Envs []string
	// BVs lists the trees (nil: BVs).
	BVs []string
	// TerrainGrid and MoldGrid, when positive, set the grids.
	TerrainGrid, MoldGrid int
	// MaxMoves, when positive, caps the moves of every program.
	MaxMoves int
	// Rounds is how many times each cell is measured, its time the least
	// (0: 3).
	Rounds int
	// Progress, when not nil, is called with a line describing each
	// environment and tree as it starts.
	Progress func(line string)
}

// Env is one environment of the NC experiments.
type Env struct {
	Name string
	// Kind is "terrain" or "mold"; Part describes it.
	Kind, Part string
	Triangles  int
	// Moves is the program's moves, Radius the ball's radius (mm).
	Moves  int
	Radius float64
	// Flat is the share of the triangles that lie in the environment's
	// largest horizontal plane (buffalo's lake, a mold's parting plane).
	Flat float64
}

// Cell is one test of one environment with one kind of tree.
type Cell struct {
	Env, Test, BV string
	// Contacts counts the positions (ball, polyhedral tools) or moves
	// (swept) in contact.
	Contacts int
	// Time is the check's time over every move (the least of the
	// rounds), BVTests its volume tests.
	Time    time.Duration
	BVTests int64
}

// Report is the outcome of Run.
type Report struct {
	Config  Config
	Machine string
	Envs    []*Env
	Cells   []*Cell
	// ToolTris are the polyhedral tools' triangles, by test.
	ToolTris map[string]int
	Elapsed  time.Duration
}

// Cell returns the cell of env, test and bv, or nil.
func (r *Report) Cell(env, test, bv string) *Cell {
	for _, c := range r.Cells {
		if c.Env == env && c.Test == test && c.BV == bv {
			return c
		}
	}
	return nil
}

// ncEnv is an environment with its program.
type ncEnv struct {
	info *Env
	mesh *mesh.TriMesh
	prog *gcode.Program
	ends []geom.Vec3 // the moves' ends (the discrete positions)
}

// makeNCEnv makes environment name and its program.
func makeNCEnv(name string, c Config) (*ncEnv, error) {
	e := &ncEnv{info: &Env{Name: name}}
	var o ncgen.ZigZagOptions
	if i := slices.Index(Molds, name); i >= 0 {
		n := NCMoldGrid
		if c.Quick {
			n = NCQuickMoldGrid
		}
		if c.MoldGrid > 0 {
			n = c.MoldGrid
		}
		seed := uint64(i) + ncgen.MoldVariants*c.Seed
		m, err := ncgen.Mold(n, seed)
		if err != nil {
			return nil, err
		}
		e.mesh, e.info.Kind, e.info.Part, e.info.Radius = m, "mold", ncgen.MoldName(seed), NCMoldRadius
		// The dissertation's industrial paths, "distorted slightly".
		o = ncgen.ZigZagOptions{Stepover: 4, Step: 1, Distort: ncgen.Distortion{Count: 10, Depth: 0.2}, Seed: c.Seed, Arcs: true}
		if c.Quick {
			o.Stepover, o.Step = 8, 2
		}
	} else {
		n := NCTerrainGrid
		if c.Quick {
			n = NCQuickTerrainGrid
		}
		if c.TerrainGrid > 0 {
			n = c.TerrainGrid
		}
		m, err := ncgen.Terrain(name, n, c.Seed)
		if err != nil {
			return nil, err
		}
		// Every 10th row of the elevation grid, a sample at every column:
		// the dissertation's zig-zag paths.
		spacing := ncgen.TerrainSize / float64(n-1)
		e.mesh, e.info.Kind, e.info.Part, e.info.Radius = m, "terrain", "terrain "+name, NCTerrainRadius
		o = ncgen.ZigZagOptions{Stepover: 10 * spacing, Step: spacing}
	}
	e.info.Triangles = len(e.mesh.Tris)
	e.info.Flat = flatShare(e.mesh)
	src := ncgen.ZigZag(e.mesh, e.info.Radius, o)
	p, err := gcode.Read(strings.NewReader(src), name+".nc", gcode.Options{Strict: true})
	if err != nil {
		return nil, fmt.Errorf("the program of %s: %w", name, err)
	}
	if c.MaxMoves > 0 && len(p.Moves) > c.MaxMoves {
		p.Moves = p.Moves[:c.MaxMoves]
	}
	e.prog = p
	e.info.Moves = len(p.Moves)
	for _, m := range p.Moves {
		e.ends = append(e.ends, m.To)
	}
	return e, nil
}

// flatShare returns the share of m's triangles in its most populated
// horizontal plane.
func flatShare(m *mesh.TriMesh) float64 {
	count := map[float64]int{}
	for _, t := range m.Tris {
		z := m.Verts[t[0]].Z
		if m.Verts[t[1]].Z == z && m.Verts[t[2]].Z == z {
			count[z]++
		}
	}
	best := 0
	for _, n := range count {
		best = max(best, n)
	}
	return float64(best) / float64(max(len(m.Tris), 1))
}

// ncTool is a polyhedral tool: its mesh, tip at the origin.
type ncTool struct {
	test string
	mesh *mesh.TriMesh
}

// ncRing is a circle of a tool's profile: radius rho at height z.
type ncRing struct{ rho, z float64 }

// latheTool returns the closed surface of revolution about the z axis of
// the profile rings (bottom to top), closed by a point at height zBot below
// and one at zTop above, with s segments a ring.
func latheTool(zBot float64, rings []ncRing, zTop float64, s int) *mesh.TriMesh {
	m := &mesh.TriMesh{Verts: []geom.Vec3{{Z: zBot}}}
	for _, r := range rings {
		for j := range s {
			sin, cos := portable.SinCosTurn(int64(j), int64(s))
			m.Verts = append(m.Verts, geom.Vec3{X: r.rho * cos, Y: r.rho * sin, Z: r.z})
		}
	}
	m.Verts = append(m.Verts, geom.Vec3{Z: zTop})
	at := func(k, j int) int32 { return int32(1 + k*s + j%s) }
	for j := range s {
		m.Tris = append(m.Tris, [3]int32{0, at(0, j+1), at(0, j)})
	}
	for k := 0; k+1 < len(rings); k++ {
		for j := range s {
			a, b, c, d := at(k, j), at(k, j+1), at(k+1, j), at(k+1, j+1)
			m.Tris = append(m.Tris, [3]int32{a, b, d}, [3]int32{a, d, c})
		}
	}
	top := int32(len(m.Verts) - 1)
	for j := range s {
		m.Tris = append(m.Tris, [3]int32{top, at(len(rings)-1, j), at(len(rings)-1, j+1)})
	}
	return m
}

// ncTools returns the polyhedral tools for a ball of radius r, scaled to
// its size with their tips at the origin, as the dissertation's: a ball
// (an icosphere of 320 triangles), a flat end of radius r with corners of
// radius r/3, and a nearly conical tool (a cone of half-angle 20° on a
// rounded tip of radius r/4, widening to r), both 3r high.
func ncTools(r float64) ([]ncTool, error) {
	ball, err := gen.Icosphere(geom.V(0, 0, r), r, 320)
	if err != nil {
		return nil, err
	}
	const s = 24
	var flat []ncRing
	c := r / 3
	for k := 0; k <= 4; k++ { // the rounded corner, a quarter circle
		sin, cos := portable.SinCosTurn(int64(k), 16)
		flat = append(flat, ncRing{r - c + c*sin, c - c*cos})
	}
	flat = append(flat, ncRing{r, 3 * r})
	var cone []ncRing
	t := r / 4
	// The rounded tip: the lower half of a ball of radius t.
	for k := 1; k <= 4; k++ {
		sin, cos := portable.SinCosTurn(int64(k), 16) // 22.5° to 90°
		cone = append(cone, ncRing{t * sin, t - t*cos})
	}
	// From the tip ball's equator (radius t at height t) a cone of
	// half-angle 20° (1/18 of a turn) up to radius r, then a cylinder to 3r.
	sh, ch := portable.SinCosTurn(1, 18)
	rise := (r - t) * ch / sh
	cone = append(cone, ncRing{r, t + rise}, ncRing{r, 3 * r})
	return []ncTool{
		{Poly, ball},
		{Flat, latheTool(0, flat, 3*r, s)},
		{Cone, latheTool(0, cone, 3*r, s)},
	}, nil
}

// Run runs the NC experiments. A cell whose contacts differ from
// another tree's on the same test is an error (every tree must give the
// same answers), as is a move whose end touches with the discrete ball but
// whose swept volume does not.
func Run(ctx context.Context, c Config) (*Report, error) {
	start := time.Now()
	if c.Envs == nil {
		c.Envs = slices.Clone(Terrains)
		if c.Quick {
			c.Envs = append(c.Envs, QuickMolds...)
		} else {
			c.Envs = append(c.Envs, Molds...)
		}
	}
	if c.BVs == nil {
		c.BVs = slices.Clone(BVs)
	}
	if c.Rounds <= 0 {
		c.Rounds = ncRounds
	}
	progress := c.Progress
	if progress == nil {
		progress = func(string) {}
	}
	for _, name := range c.Envs {
		if !slices.Contains(Terrains, name) && !slices.Contains(Molds, name) {
			return nil, fmt.Errorf("bench: unknown NC environment %q (known: %s, %s)", name, strings.Join(Terrains, ", "), strings.Join(Molds, ", "))
		}
	}
	r := &Report{
		Config:   c,
		Machine:  md.Machine(),
		ToolTris: map[string]int{},
	}
	total, done := len(c.Envs)*len(c.BVs), 0
	for _, name := range c.Envs {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		progress(fmt.Sprintf("making %s and its program", name))
		e, err := makeNCEnv(name, c)
		if err != nil {
			return nil, err
		}
		r.Envs = append(r.Envs, e.info)
		ball, err := nc.ParseTool(fmt.Sprintf("ball %g %g", 2*e.info.Radius, e.info.Radius))
		if err != nil {
			return nil, err
		}
		tools, err := ncTools(e.info.Radius)
		if err != nil {
			return nil, err
		}
		// Every cell of the environment is set up first; then the rounds
		// take turns, each cell measured once a round, so that a burst of
		// load on the machine does not spoil every round of one cell.
		var cells []*ncRunner
		for _, bvName := range c.BVs {
			done++
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			progress(fmt.Sprintf("%d of %d: building %s (%d triangles, %d moves), %s", done, total, name, e.info.Triangles, e.info.Moves, bvName))
			cs, err := ncRunners(e, bvName, ball, tools)
			if err != nil {
				return nil, fmt.Errorf("%s, %s: %w", name, bvName, err)
			}
			cells = append(cells, cs...)
		}
		for _, t := range tools {
			r.ToolTris[t.test] = len(t.mesh.Tris)
		}
		for round := range c.Rounds {
			progress(fmt.Sprintf("%s (%d triangles, %d moves): round %d of %d", name, e.info.Triangles, e.info.Moves, round+1, c.Rounds))
			for _, cell := range cells {
				if err := cell.measure(round); err != nil {
					return nil, fmt.Errorf("%s, %s, %s: %w", name, cell.BV, ncTestNames[cell.Test], err)
				}
			}
		}
		for k, cell := range cells {
			if first := r.firstOf(name, cell.Test); first != nil && first.Contacts != cell.Contacts {
				return nil, fmt.Errorf("%s, %s: %d contacts with %s but %d with %s", name, ncTestNames[cell.Test], first.Contacts, first.BV, cell.Contacts, cell.BV)
			}
			if cell.Test == Ball {
				swept := cells[k+1] // ncRunners puts the swept ball after the discrete
				for m := range cell.hit {
					if cell.hit[m] && !swept.hit[m] {
						return nil, fmt.Errorf("%s, %s: move %d (line %d): the ball touches at its end but its swept volume does not", name, cell.BV, m, e.prog.Moves[m].Line)
					}
				}
			}
			r.Cells = append(r.Cells, &cell.Cell)
		}
	}
	r.Elapsed = time.Since(start)
	return r, nil
}

// firstOf returns the first cell of env and test, or nil.
func (r *Report) firstOf(env, test string) *Cell {
	for _, c := range r.Cells {
		if c.Env == env && c.Test == test {
			return c
		}
	}
	return nil
}

// ncRunner measures one cell.
type ncRunner struct {
	Cell
	// run checks every move once and returns the contacts and the volume
	// tests; hit[m] says that move m is in contact (the ball's tests).
	run func(hit []bool) (int, int64, error)
	hit []bool
}

// measure runs the cell's check once, keeping the least time.
func (c *ncRunner) measure(round int) error {
	runtime.GC()
	t0 := time.Now()
	n, bvTests, err := c.run(c.hit)
	d := time.Since(t0)
	if err != nil {
		return err
	}
	if round == 0 || d < c.Time {
		c.Time = d
	}
	c.Contacts, c.BVTests = n, bvTests
	return nil
}

// ncRunners builds e's part with tree bvName and returns the cells of
// every test with it: the exact ball at the moves' ends, swept, and the
// polyhedral tools.
func ncRunners(e *ncEnv, bvName string, ball nc.Tool, tools []ncTool) ([]*ncRunner, error) {
	bv, err := collide.ParseBV(bvName)
	if err != nil {
		return nil, err
	}
	part, err := collide.Build(e.mesh, collide.BuildOptions{BV: bv})
	if err != nil {
		return nil, err
	}
	var out []*ncRunner
	for _, discrete := range []bool{true, false} {
		ch, err := nc.New(part, nc.Options{Tool: ball, Discrete: discrete, NoDetail: true})
		if err != nil {
			return nil, err
		}
		test := Swept
		if discrete {
			test = Ball
		}
		out = append(out, &ncRunner{
			Cell: Cell{Env: e.info.Name, Test: test, BV: bvName},
			hit:  make([]bool, len(e.prog.Moves)),
			run: func(hit []bool) (int, int64, error) {
				clear(hit)
				sum, err := ch.Check(e.prog, func(v nc.Violation) bool {
					hit[v.Move] = true
					return true
				})
				return sum.MovesHit, sum.Stats.BVTests, err
			},
		})
	}
	for _, t := range tools {
		tool, err := collide.Build(t.mesh, collide.BuildOptions{BV: bv})
		if err != nil {
			return nil, err
		}
		q := new(collide.Query)
		var o collide.QueryOptions
		if err := q.Prepare(part, tool, o); err != nil {
			return nil, err
		}
		out = append(out, &ncRunner{
			Cell: Cell{Env: e.info.Name, Test: t.test, BV: bvName},
			run: func([]bool) (int, int64, error) {
				contacts := 0
				var st collide.Stats
				for _, p := range e.ends {
					res, err := q.Check(part, tool, geom.Translation(p), o)
					if err != nil {
						return 0, 0, err
					}
					if res.Collide {
						contacts++
					}
					st.Add(res.Stats)
				}
				return contacts, st.BVTests + st.LeafTests, nil
			},
		})
	}
	return out, nil
}
