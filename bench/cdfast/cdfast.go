package cdfast

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/collide3d/collide/bench/internal/boundsonly"
	"github.com/collide3d/collide/bench/internal/md"
	"github.com/collide3d/collide/broad/rgrid"
	"github.com/collide3d/collide/bv"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/scene"
	"github.com/collide3d/collide/world"
)

// Scenes are the bases of CDFast's scenes, in the paper's order
// (scenes 1, 2 and 3).
var Scenes = []string{"cdfast-room", "cdfast-spheres", "cdfast-mixed"}

// Movers are CDFast's moving objects: Table 1's torus, Table 2's
// elongated "complex object".
var Movers = []string{"torus", "elongated"}

// TreeLevel is the level of detail whose spheres come nearest the
// paper's sphere-trees: 9 spheres for the torus (level 3: 8 spheres of our
// binary trees, the paper's presumably 1 + 8), 5 for the elongated object
// (level 2: 4).
var TreeLevel = map[string]int{"torus": 3, "elongated": 2}

// paperCDFast holds Tables 1 (torus) and 2 (elongated): per scene, the
// times in ms of 10,000 steps of QuickCD, CDFast with one sphere and with a
// sphere-tree, then their "collision numbers", in that order; an AMD Duron
// 650 MHz. (Table 1's scene 3 tree count, 3250, equals its scene 2 tree
// time: perhaps a copying error in the paper.)
var paperCDFast = map[string][3][6]float64{
	"torus": {
		{11390, 3240, 3430, 198830, 140355, 12658},
		{7420, 3090, 3250, 606330, 146554, 26966},
		{11460, 3100, 3260, 166130, 67268, 3250},
	},
	"elongated": {
		{210540, 3920, 5680, 1177540, 802562, 169214},
		{76720, 3480, 4930, 3166900, 737921, 478169},
		{170700, 3179, 4300, 790410, 545721, 57952},
	},
}

// Config configures Run.
type Config struct {
	// Seed is the built-in scenes' seed.
	Seed uint64
	// Steps is the length of every path (0: the paper's 10,000). Times are
	// reported per 10,000 steps whatever it is.
	Steps int
	// Levels are the levels of detail of the broad-phase runs (nil: 0 to
	// 3); the mover's tight box is always run too.
	Levels []int
	// SphereCounts are the N_s of the independence runs (nil: 50, 500 and
	// 5000).
	SphereCounts []int
	// Rounds is how many times each broad-phase run is repeated, each
	// step's fastest time kept (0: 3). The exact runs play once.
	Rounds int
	// Progress, when not nil, is called with a line as each run starts.
	Progress func(line string)
}

// Broad is one run of CDFast's broad phase alone: rgrid over the
// static objects' boxes (in the unit cube), the mover bounded by its
// spheres at Level (or, Level -1, by its tight world box), every step
// moving it and asking for its pairs.
type Broad struct {
	Level   int // -1: the mover's box
	Spheres int // spheres of the level (0 for the box)
	Steps   int
	// Times of the steps, each step's the fastest of the rounds: placing
	// the spheres (or the box), moving the object and finding its pairs.
	Total, Median, P99 time.Duration
	// Build is the time to build the static grid (preprocessing, not in
	// the steps' times).
	Build time.Duration
	// The counters, summed over the steps: steps with an interference
	// (some static object reported), (mover, static object) pairs,
	// (sphere, static box) pairs that overlap, sphere-box tests, box
	// tests, leaf cells visited, static boxes found by Full cells.
	StepsHit, ObjectPairs, SphereBoxHits, SphereBoxTests, BoxTests, CellsVisited, FullHits int64
	// Grid is the static grid's shape (the query counters zero).
	Grid rgrid.Stats
}

// PerStep returns the mean time of a step.
func (b *Broad) PerStep() time.Duration {
	if b.Steps == 0 {
		return 0
	}
	return b.Total / time.Duration(b.Steps)
}

// Exact is one play of a CDFast scene on an exact world: rgrid over
// boxes, 18-DOP trees, one worker.
type Exact struct {
	All   bool
	Steps int
	// Total, Median and P99 are the world's step times (bound, broad,
	// narrow and update), the first step, which builds the grid, left
	// out; Broad is the total of bound and broad over the same steps.
	Total, Median, P99, Broad time.Duration
	// Summed over the steps: steps with a contact, pairs of objects in
	// contact, triangle pairs reported, exact tests (object pairs), and
	// the triangle-triangle tests.
	StepsHit, Contacts, TriPairs, Tested, TriTests int64
}

// PerStep returns the mean time of a step (the first left out).
func (e *Exact) PerStep() time.Duration {
	if e.Steps <= 1 {
		return e.Total
	}
	return e.Total / time.Duration(e.Steps-1)
}

// SceneRun is one scene with one mover.
type SceneRun struct {
	Scene, Mover string // e.g. "cdfast-room", "torus"
	Statics      int
	Triangles    int // of the static objects
	MoverTris    int
	Broad        []*Broad // the box first, then by level
	First, All   *Exact
}

// Level returns the broad-phase run at level l (-1: the box), or nil.
func (r *SceneRun) Level(l int) *Broad {
	for _, b := range r.Broad {
		if b.Level == l {
			return b
		}
	}
	return nil
}

// Ns is a run of the N_s series: cdfast-spheres' path among n
// static spheres of radius Radius.
type Ns struct {
	Mover  string
	Series string // "fixed radius" or "fixed volume"
	N      int
	Radius float64
	Broad  []*Broad // level 0, then the tree's level
}

// Report holds the figures of Run.
type Report struct {
	Config  Config
	Runs    []*SceneRun // by mover, then scene
	Ns      []*Ns
	Elapsed time.Duration
}

// Run returns the run of scene (a base of Scenes) with mover, or nil.
func (r *Report) Run(sceneName, mover string) *SceneRun {
	for _, x := range r.Runs {
		if x.Scene == sceneName && x.Mover == mover {
			return x
		}
	}
	return nil
}

// Run runs CDFast's experiments (see Report). It stops between two runs
// when ctx ends, returning ctx's error.
func Run(ctx context.Context, c Config) (*Report, error) {
	start := time.Now()
	if c.Steps <= 0 {
		c.Steps = scene.CDFastSteps
	}
	if c.Levels == nil {
		c.Levels = []int{0, 1, 2, 3}
	}
	if c.SphereCounts == nil {
		c.SphereCounts = []int{50, 500, 5000}
	}
	if c.Rounds <= 0 {
		c.Rounds = 3
	}
	progress := c.Progress
	if progress == nil {
		progress = func(string) {}
	}
	r := &Report{Config: c}
	for _, mover := range Movers {
		levels := slices.Clone(c.Levels)
		if tl := TreeLevel[mover]; !slices.Contains(levels, tl) {
			levels = append(levels, tl)
			slices.Sort(levels)
		}
		for _, base := range Scenes {
			name := base + "-" + mover
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			progress(fmt.Sprintf("cdfast: %s, broad phase alone", name))
			s, err := scene.Builtin(name, 0, c.Seed)
			if err != nil {
				return nil, err
			}
			tr, err := recordCDFast(s, c.Steps)
			if err != nil {
				return nil, err
			}
			run := &SceneRun{Scene: base, Mover: mover, Statics: len(tr.statics), Triangles: tr.staticTris, MoverTris: tr.moverTris}
			run.Broad = append(run.Broad, runCDFastBroad(tr.statics, nil, tr.boxes, tr.poses, -1, c.Rounds))
			for _, l := range levels {
				run.Broad = append(run.Broad, runCDFastBroad(tr.statics, tr.spheres(l), nil, tr.poses, l, c.Rounds))
			}
			for _, all := range []bool{false, true} {
				mode := "first contact"
				if all {
					mode = "all pairs"
				}
				if err := ctx.Err(); err != nil {
					return nil, err
				}
				progress(fmt.Sprintf("cdfast: %s, exact, %s", name, mode))
				e, err := runCDFastExact(s, c.Steps, all)
				if err != nil {
					return nil, err
				}
				if all {
					run.All = e
				} else {
					run.First = e
				}
			}
			r.Runs = append(r.Runs, run)
		}

		// N_s: the path of cdfast-spheres (n = 50) among more spheres.
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		progress(fmt.Sprintf("cdfast: N_s series, %s", mover))
		s, err := scene.Builtin("cdfast-spheres-"+mover, 0, c.Seed)
		if err != nil {
			return nil, err
		}
		tr, err := recordCDFast(s, c.Steps)
		if err != nil {
			return nil, err
		}
		nsLevels := []int{0, TreeLevel[mover]}
		rng := rand.New(rand.NewPCG(c.Seed, 0x4e73)) // "Ns"
		for _, series := range []string{"fixed radius", "fixed volume"} {
			counts := c.SphereCounts
			if series == "fixed radius" {
				// More than maxCDFastSpheres would fill too much of the
				// cube to be placed apart: the series stops there.
				counts = nil
				for _, n := range c.SphereCounts {
					if n = min(n, maxCDFastSpheres); !slices.Contains(counts, n) {
						counts = append(counts, n)
					}
				}
			}
			for _, n := range counts {
				x := &Ns{Mover: mover, Series: series, N: n, Radius: scene.CDFastSphereR}
				var statics []geom.AABB
				if series == "fixed radius" {
					ss, err := scene.Builtin("cdfast-spheres-"+mover, n, c.Seed)
					if err != nil {
						return nil, err
					}
					t, err := recordCDFast(ss, 1)
					if err != nil {
						return nil, err
					}
					statics = t.statics
				} else {
					x.Radius = scene.CDFastSphereR * math.Cbrt(50/float64(n))
					if statics, err = placeSpheres(rng, n, x.Radius); err != nil {
						return nil, err
					}
				}
				for _, l := range nsLevels {
					x.Broad = append(x.Broad, runCDFastBroad(statics, tr.spheres(l), nil, tr.poses, l, c.Rounds))
				}
				r.Ns = append(r.Ns, x)
			}
		}
	}
	r.Elapsed = time.Since(start)
	return r, nil
}

// maxCDFastSpheres is the most spheres of the paper's radius that the
// fixed-radius series places (scene.Builtin's limit; 5,000 would fill 86%
// of the cube).
const maxCDFastSpheres = 1000

// cdfastTrace is a CDFast scene's static boxes and its mover's path.
type cdfastTrace struct {
	statics    []geom.AABB // the world boxes of the static objects
	staticTris int
	moverTris  int
	poses      []geom.Pose // the mover's pose at each step
	boxes      []geom.AABB // its world box at each step
	levels     func(l int) []bv.Sphere
}

// spheres returns the mover's spheres at level l, in its model's
// coordinates.
func (t *cdfastTrace) spheres(l int) []bv.Sphere { return t.levels(l) }

// recordCDFast plays s for steps steps on a world that bounds its objects
// but tests nothing, and records the static objects' boxes and the moving
// object's poses and boxes.
func recordCDFast(s *scene.Scene, steps int) (*cdfastTrace, error) {
	p, err := scene.NewPlayer(s, world.Options{Workers: 1, Broad: boundsonly.New})
	if err != nil {
		return nil, err
	}
	w := p.World()
	t := &cdfastTrace{}
	mover := world.ID(-1)
	for i := range s.Objects {
		id := p.ID(i)
		if s.Objects[i].Static {
			t.statics = append(t.statics, w.Bounds(id))
			t.staticTris += len(w.Model(id).Mesh().Tris)
		} else {
			mover = id
		}
	}
	if mover < 0 {
		return nil, fmt.Errorf("%s: no moving object", s.Name)
	}
	m := w.Model(mover)
	t.moverTris = len(m.Mesh().Tris)
	t.levels = m.Spheres
	for range steps {
		if _, err := p.Step(); err != nil {
			return nil, err
		}
		t.poses = append(t.poses, w.Pose(mover))
		t.boxes = append(t.boxes, w.Bounds(mover))
	}
	return t, nil
}

// unitCube is CDFast's environment.
var unitCube = geom.AABB{Max: geom.V(1, 1, 1)}

// runCDFastBroad runs CDFast's broad phase on the static boxes with the
// mover at poses, bounded by local (its spheres in model coordinates) or,
// if local is nil, by boxes; rounds times, keeping the fastest.
func runCDFastBroad(statics []geom.AABB, local []bv.Sphere, boxes []geom.AABB, poses []geom.Pose, level, rounds int) *Broad {
	var res *Broad
	times := make([]time.Duration, len(poses))
	best := make([]time.Duration, len(poses))
	world := make([]bv.Sphere, len(local))
	for round := range rounds {
		p := rgrid.New(rgrid.Options{Bounds: &unitCube})
		for i, b := range statics {
			p.Add(int32(i), b, true)
		}
		t0 := time.Now()
		p.Pairs(func(a, b int32) bool { return true })
		build := time.Since(t0)
		if res == nil || build < res.Build {
			res = &Broad{Level: level, Spheres: len(local), Steps: len(poses), Build: build}
		}
		p.ResetStats()
		res.Grid = p.Stats()
		res.StepsHit = 0
		mover := int32(len(statics))
		hit := false
		fn := func(a, b int32) bool { hit = true; return true }
		for i, pose := range poses {
			t := time.Now()
			var box geom.AABB
			if local == nil {
				box = boxes[i]
			} else {
				box = geom.EmptyAABB()
				for j, s := range local {
					c := pose.Apply(s.C)
					world[j] = bv.Sphere{C: c, R: s.R}
					d := geom.V(s.R, s.R, s.R)
					box = box.Union(geom.AABB{Min: c.Sub(d), Max: c.Add(d)})
				}
			}
			if i == 0 {
				p.Add(mover, box, false)
			} else {
				p.Move(mover, box)
			}
			if local != nil {
				p.SetSpheres(mover, world)
			}
			hit = false
			p.Pairs(fn)
			times[i] = time.Since(t)
			if hit {
				res.StepsHit++
			}
		}
		st := p.Stats()
		res.ObjectPairs, res.SphereBoxHits, res.SphereBoxTests = st.StaticPairs, st.SphereBoxHits, st.SphereBoxTests
		res.BoxTests, res.CellsVisited, res.FullHits = st.BoxTests, st.CellsVisited, st.FullHits
		for i, t := range times {
			if round == 0 || t < best[i] {
				best[i] = t
			}
		}
	}
	res.Total, res.Median, res.P99 = md.Total(best), md.Quantile(best, 0.5), md.Quantile(best, 0.99)
	return res
}

// runCDFastExact plays s for steps steps on an exact world: rgrid over
// boxes, one worker, first contact or all pairs.
func runCDFastExact(s *scene.Scene, steps int, all bool) (*Exact, error) {
	mk, err := world.NewBroad("rgrid")
	if err != nil {
		return nil, err
	}
	e := &Exact{All: all}
	times := make([]time.Duration, 0, steps)
	_, err = scene.Play(s, scene.Options{World: world.Options{Workers: 1, All: all, Broad: mk}, Steps: steps},
		func(p *scene.Player, st world.StepStats) error {
			e.Steps++
			if st.Contacts > 0 {
				e.StepsHit++
			}
			e.Contacts += int64(st.Contacts)
			e.TriPairs += int64(st.Pairs)
			e.Tested += int64(st.Tested)
			e.TriTests += int64(st.Query.TriTests)
			if e.Steps > 1 {
				times = append(times, st.Bound+st.Broad+st.Narrow+st.Update)
				e.Broad += st.Bound + st.Broad
			}
			return nil
		})
	if err != nil {
		return nil, err
	}
	e.Total, e.Median, e.P99 = md.Total(times), md.Quantile(times, 0.5), md.Quantile(times, 0.99)
	return e, nil
}

// placeSpheres places n spheres of radius rad at random in the unit cube,
// inside it and apart from each other, and returns their boxes.
func placeSpheres(r *rand.Rand, n int, rad float64) ([]geom.AABB, error) {
	// A uniform grid of cells at least 2·rad wide finds the neighbours.
	k := max(1, int(1/(2*rad)))
	cells := map[[3]int][]geom.Vec3{}
	cellOf := func(p geom.Vec3) [3]int {
		return [3]int{min(int(p.X*float64(k)), k-1), min(int(p.Y*float64(k)), k-1), min(int(p.Z*float64(k)), k-1)}
	}
	out := make([]geom.AABB, 0, n)
	for len(out) < n {
		placed := false
		for range 10000 {
			p := geom.V(rad+(1-2*rad)*r.Float64(), rad+(1-2*rad)*r.Float64(), rad+(1-2*rad)*r.Float64())
			c := cellOf(p)
			ok := true
			for dx := -1; dx <= 1 && ok; dx++ {
				for dy := -1; dy <= 1 && ok; dy++ {
					for dz := -1; dz <= 1 && ok; dz++ {
						for _, q := range cells[[3]int{c[0] + dx, c[1] + dy, c[2] + dz}] {
							if p.Sub(q).Norm() <= 2*rad {
								ok = false
								break
							}
						}
					}
				}
			}
			if ok {
				cells[c] = append(cells[c], p)
				d := geom.V(rad, rad, rad)
				out = append(out, geom.AABB{Min: p.Sub(d), Max: p.Add(d)})
				placed = true
				break
			}
		}
		if !placed {
			return nil, fmt.Errorf("no room for sphere %d of %d (radius %g)", len(out)+1, n, rad)
		}
	}
	return out, nil
}
