package worlds

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"time"

	"github.com/collide3d/collide/bench/cdfast"
	"github.com/collide3d/collide/bench/internal/md"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh/gen"
	"github.com/collide3d/collide/scene"
	"github.com/collide3d/collide/world"
)

// Scenes are the many-body built-in scenes Run plays.
var Scenes = []string{"brownian", "fall", "gravity"}

// BruteMaxObjects is the most objects the brute-force broad phase is run
// with (it tests every pair of boxes with a moved object: n² a step).
const BruteMaxObjects = 1000

// QuickSteps caps the many-body plays of a quick run.
const QuickSteps = 50

// QuickCDFastSteps is the path length of CDFast's scenes in a quick
// run.
const QuickCDFastSteps = 2000

// IdleSteps is how many steps with nothing moved are timed, in 20
// batches (the median batch's mean is reported).
const IdleSteps = 10000

// Config configures Run.
type Config struct {
	// Seed is the built-in scenes' seed.
	Seed uint64
	// Quick makes a short run: sizes 10³ and 10⁴, QuickSteps steps,
	// CDFast's paths QuickCDFastSteps long, the cores' scenes small.
	Quick bool
	// Sizes are the object counts of the many-body scenes (nil: 10³, 10⁴
	// and, unless Quick, 10⁵).
	Sizes []int
	// Scenes are the many-body scenes (nil: Scenes).
	Scenes []string
	// Phases are the broad phases (nil: world.BroadPhases(); brute only up
	// to BruteMaxObjects objects).
	Phases []string
	// Steps, when positive, caps the many-body plays and the cores' plays.
	Steps int
	// CDFast configures CDFast's experiments; its Seed and Progress are
	// this config's, and with Quick its Steps default to
	// QuickCDFastSteps.
	CDFast cdfast.Config
	// NoCDFast, NoManyBody and NoCores leave out a part.
	NoCDFast, NoManyBody, NoCores bool
	// Progress, when not nil, is called with a line as each run starts.
	Progress func(line string)
}

// Play is one play of a many-body scene with one broad phase on one
// worker.
type Play struct {
	Scene string
	N     int
	Phase string
	Steps int
	// First is the first step, which adds every object: the whole world
	// step and its bound and broad phases.
	First, FirstBroad time.Duration
	// Broad is bound plus broad (the Broadmark measure: updating the
	// boxes and finding the pairs), Step the world's whole step (bound,
	// broad, narrow, update), over the steps after the first.
	Broad, Step DurationStats
	// Per step, after the first: candidate pairs (the broad phase's),
	// exact tests, pairs of objects in contact.
	Candidates, Tested, Contacts float64
	// Idle is the time of a step with nothing moved (idleStep).
	Idle time.Duration
}

// DurationStats summarises the times of steps.
type DurationStats struct {
	Total, Median, P99, Max time.Duration
}

// Cores is the exact tests of one scene with one worker and with
// every core, dynamic and static.
type Cores struct {
	Scene, Doc         string
	Objects, Triangles int
	Steps              int
	All                bool
	// Tested is the exact tests per step.
	Tested float64
	Runs   []*CoresRun
}

// CoresRun is one way of running a scene's exact tests.
type CoresRun struct {
	Workers int
	Static  bool
	// Narrow summarises the narrow phase's time per step (of the round
	// with the smallest median), the first step left out.
	Narrow DurationStats
	// Tested is the exact tests of the steps after the first (the same
	// whatever the workers).
	Tested int64
}

// Report holds the figures of Run.
type Report struct {
	Config  Config
	Machine string
	CDFast  *cdfast.Report
	Runs    []*Play
	Cores   []*Cores
	// Capacity is how many times as fast a pure arithmetic loop ran on
	// every core as on one, just before the cores' runs (md.Capacity):
	// GOMAXPROCS on an idle machine.
	Capacity float64
	// LoadBefore and LoadAfter are the load averages (1, 5 and 15 minutes)
	// at the start and the end of the run, where the system tells them.
	LoadBefore, LoadAfter string
	Elapsed               time.Duration
}

// Run returns the run of scene with n objects and phase, or nil.
func (r *Report) Run(sceneName string, n int, phase string) *Play {
	for _, x := range r.Runs {
		if x.Scene == sceneName && x.N == n && x.Phase == phase {
			return x
		}
	}
	return nil
}

// Run runs the worlds' experiments (see Report). It stops between two
// plays when ctx ends, returning ctx's error.
func Run(ctx context.Context, c Config) (*Report, error) {
	start := time.Now()
	if c.Sizes == nil {
		c.Sizes = []int{1000, 10000}
		if !c.Quick {
			c.Sizes = append(c.Sizes, 100000)
		}
	}
	if c.Scenes == nil {
		c.Scenes = Scenes
	}
	if c.Phases == nil {
		c.Phases = world.BroadPhases()
	}
	if c.Steps == 0 && c.Quick {
		c.Steps = QuickSteps
	}
	progress := c.Progress
	if progress == nil {
		progress = func(string) {}
	}
	for _, p := range c.Phases {
		if _, err := world.NewBroad(p); err != nil {
			return nil, err
		}
	}
	r := &Report{
		Config:     c,
		Machine:    md.Machine(),
		LoadBefore: md.LoadAverage(),
	}
	if !c.NoCDFast {
		cc := c.CDFast
		cc.Seed, cc.Progress = c.Seed, c.Progress
		if cc.Steps == 0 && c.Quick {
			cc.Steps = QuickCDFastSteps
		}
		cd, err := cdfast.Run(ctx, cc)
		if err != nil {
			return nil, err
		}
		r.CDFast = cd
	}
	if !c.NoManyBody {
		for _, name := range c.Scenes {
			for _, n := range c.Sizes {
				for _, phase := range c.Phases {
					if phase == "brute" && n > BruteMaxObjects {
						continue
					}
					if err := ctx.Err(); err != nil {
						return nil, err
					}
					progress(fmt.Sprintf("%s, n = %s, %s", name, md.Thousands(n), phase))
					run, err := runManyBody(name, n, phase, c.Seed, c.Steps)
					if err != nil {
						return nil, err
					}
					r.Runs = append(r.Runs, run)
				}
			}
		}
	}
	if !c.NoCores {
		progress("cores: measuring what they give")
		r.Capacity = md.Capacity(runtime.GOMAXPROCS(0))
		for _, sc := range coresScenes(c) {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			progress(fmt.Sprintf("cores: %s", sc.name))
			x, err := runCores(sc, c)
			if err != nil {
				return nil, err
			}
			r.Cores = append(r.Cores, x)
		}
	}
	r.LoadAfter = md.LoadAverage()
	r.Elapsed = time.Since(start)
	return r, nil
}

// runManyBody plays the built-in scene name with n objects on a world of
// the broad phase named phase, one worker, first contact.
func runManyBody(name string, n int, phase string, seed uint64, maxSteps int) (*Play, error) {
	s, err := scene.Builtin(name, n, seed)
	if err != nil {
		return nil, err
	}
	mk, err := world.NewBroad(phase)
	if err != nil {
		return nil, err
	}
	steps := s.Steps
	if maxSteps > 0 {
		steps = min(steps, maxSteps)
	}
	p, err := scene.NewPlayer(s, world.Options{Workers: 1, Broad: mk})
	if err != nil {
		return nil, err
	}
	run := &Play{Scene: name, N: n, Phase: phase, Steps: steps}
	bt := make([]time.Duration, 0, steps)
	st := make([]time.Duration, 0, steps)
	var cand, tested, contacts int64
	_, err = p.Play(steps, func(p *scene.Player, s world.StepStats) error {
		broadT := s.Bound + s.Broad
		stepT := broadT + s.Narrow + s.Update
		if p.Steps() == 1 {
			run.First, run.FirstBroad = stepT, broadT
			return nil
		}
		bt = append(bt, broadT)
		st = append(st, stepT)
		cand += int64(s.Candidates)
		tested += int64(s.Tested)
		contacts += int64(s.Contacts)
		return nil
	})
	if err != nil {
		return nil, err
	}
	run.Broad, run.Step = newDurations(bt).stats(), newDurations(st).stats()
	if k := float64(len(bt)); k > 0 {
		run.Candidates, run.Tested, run.Contacts = float64(cand)/k, float64(tested)/k, float64(contacts)/k
	}
	run.Idle = idleStep(p.World())
	return run, nil
}

// idleStep returns the time of a step of w with nothing moved: the median
// over batches of the mean of a batch (a batch's mean, not each step's
// time, so that the clock's cost does not swamp a step of a few ns; the
// median, so that a batch the scheduler or the collector interrupted does
// not count).
func idleStep(w *world.World) time.Duration {
	const batches = 20
	per := make([]time.Duration, batches)
	for i := range per {
		t0 := time.Now()
		for range IdleSteps / batches {
			w.Step()
		}
		per[i] = time.Since(t0) / (IdleSteps / batches)
	}
	return newDurations(per).q(0.5)
}

// coresScene is a scene of the cores' runs.
type coresScene struct {
	name, doc string
	make      func() (*scene.Scene, error)
	steps     int
	all       bool
}

// coresScenes are the scenes of the cores' runs: tori of 2,000 triangles
// in Brownian motion, close enough that a few touch each (heavy in exact
// tests), and the brownian scene (light ones, many), all pairs.
func coresScenes(c Config) []coresScene {
	tori, tris, steps := 200, 2000, 100
	n := 10000
	if c.Quick {
		tori, tris, steps, n = 100, 1000, 30, 1000
	}
	if c.Steps > 0 {
		steps = min(steps, c.Steps)
	}
	return []coresScene{
		{
			name:  fmt.Sprintf("tori (%d)", tori),
			doc:   fmt.Sprintf("%d tori of %s triangles in Brownian motion, about 0.08 per unit of volume (a torus is 2.6 across)", tori, md.Thousands(tris)),
			make:  func() (*scene.Scene, error) { return toriScene(tori, tris, steps, c.Seed) },
			steps: steps, all: true,
		},
		{
			name:  fmt.Sprintf("brownian (%s)", md.Thousands(n)),
			doc:   fmt.Sprintf("the built-in brownian scene, n = %s (objects of 4 to 80 triangles)", md.Thousands(n)),
			make:  func() (*scene.Scene, error) { return scene.Builtin("brownian", n, c.Seed) },
			steps: steps, all: true,
		},
	}
}

// toriScene makes n tori of tris triangles (major radius 1, tube 0.3) in
// Brownian motion in a cube of density 0.08 tori per unit of volume.
func toriScene(n, tris, steps int, seed uint64) (*scene.Scene, error) {
	m, err := gen.Torus(geom.Vec3{}, 1, 0.3, tris)
	if err != nil {
		return nil, err
	}
	side := math.Cbrt(float64(n)/0.08) + 2.6
	s := &scene.Scene{
		Name: "tori", Steps: steps, Seed: seed,
		Bounds: geom.AABB{Max: geom.V(side, side, side)},
		Models: []scene.Model{{Name: "torus", Mesh: m}},
	}
	r := rand.New(rand.NewPCG(seed, 0x746f7269)) // "tori"
	mo := scene.Brownian{Step: 0.02, Angle: 0.02, Margin: scene.AutoMargin}
	for i := range n {
		q := geom.Quat{W: r.NormFloat64(), X: r.NormFloat64(), Y: r.NormFloat64(), Z: r.NormFloat64()}.Unit()
		p := geom.V(1.3+(side-2.6)*r.Float64(), 1.3+(side-2.6)*r.Float64(), 1.3+(side-2.6)*r.Float64())
		s.Objects = append(s.Objects, scene.Object{Name: fmt.Sprintf("t%d", i+1), Model: "torus", Pose: geom.FromQuat(q, p), Motion: mo})
	}
	return s, s.Validate()
}

// runCores plays sc with one worker, then every core taking chunks
// (dynamic) and every core with fixed shares (static), taking turns for
// rounds, and keeps each one's round of smallest median.
func runCores(sc coresScene, c Config) (*Cores, error) {
	s, err := sc.make()
	if err != nil {
		return nil, err
	}
	x := &Cores{Scene: sc.name, Doc: sc.doc, Objects: len(s.Objects), Steps: sc.steps, All: sc.all}
	cores := runtime.GOMAXPROCS(0)
	x.Runs = []*CoresRun{{Workers: 1}, {Workers: cores}, {Workers: cores, Static: true}}
	rounds := 3
	if c.Quick {
		rounds = 1
	}
	for round := range rounds {
		for i := range x.Runs {
			cr := x.Runs[(i+round)%len(x.Runs)]
			var narrow []time.Duration
			var tested int64
			t, err := scene.Play(s, scene.Options{World: world.Options{Workers: cr.Workers, Static: cr.Static, All: sc.all}, Steps: sc.steps},
				func(p *scene.Player, st world.StepStats) error {
					if p.Steps() > 1 {
						narrow = append(narrow, st.Narrow)
						tested += int64(st.Tested)
					}
					return nil
				})
			if err != nil {
				return nil, err
			}
			x.Triangles = t.Triangles
			if len(narrow) > 0 {
				x.Tested = float64(tested) / float64(len(narrow))
			}
			cr.Tested = tested
			d := newDurations(narrow).stats()
			if round == 0 || d.Median < cr.Narrow.Median {
				cr.Narrow = d
			}
		}
	}
	return x, nil
}

// durations are step times, sorted.
type durations struct {
	sorted []time.Duration
	total  time.Duration
}

func newDurations(ds []time.Duration) durations {
	d := durations{sorted: slices.Clone(ds)}
	slices.Sort(d.sorted)
	for _, x := range ds {
		d.total += x
	}
	return d
}

// q returns the nearest-rank q-quantile (0 when there are none).
func (d durations) q(q float64) time.Duration {
	if len(d.sorted) == 0 {
		return 0
	}
	i := int(math.Ceil(q*float64(len(d.sorted)))) - 1
	return d.sorted[min(max(i, 0), len(d.sorted)-1)]
}

func (d durations) stats() DurationStats {
	s := DurationStats{Total: d.total, Median: d.q(0.5), P99: d.q(0.99)}
	if len(d.sorted) > 0 {
		s.Max = d.sorted[len(d.sorted)-1]
	}
	return s
}
