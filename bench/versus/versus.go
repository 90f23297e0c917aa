package versus

import (
	"bufio"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/auto"
	"github.com/collide3d/collide/bench/internal/flights"
	"github.com/collide3d/collide/bench/internal/md"
	"github.com/collide3d/collide/bench/peers"
	"github.com/collide3d/collide/bench/scenes"
	"github.com/collide3d/collide/flight"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/internal/oracle"
	"github.com/collide3d/collide/mesh"
)

// Config configures Run.
type Config struct {
	// Size, Seed, Scenes and Steps select the scenes and flights as in
	// paper.Config (nil Scenes: every scene that can be made here).
	Size   scenes.Size
	Seed   uint64
	Scenes []string
	Steps  int
	// Driver is the path of the peers driver, collide-peers (built by
	// bench/peers/build.sh). Empty: collide alone.
	Driver string
	// BVs are collide's bounding volumes (nil: the kinds of the paper's Table 2,
	// paper.TableBVs).
	BVs []string
	// Rounds is how many times every system flies every scene, the systems
	// taking turns in an order rotated each round, so that drift of the
	// machine's speed falls on all of them alike; a step's time is the
	// fastest of its rounds (0: 3, or 2 for Quick).
	Rounds int
	// SlowRun: a system whose run (build and queries) takes longer than
	// SlowRun flies only once; drift of a few percent cannot change the
	// standing of a system that slow (0: 30 s; negative: no limit).
	SlowRun time.Duration
	// SlowSteps and SlowQuery cap the slow systems: a system whose mean
	// query time over the first SlowSteps steps of a flight of more steps
	// exceeds SlowQuery flies only those steps, once (0: 100 steps and
	// 10 ms; a negative SlowSteps: no cap). Its figures are then those of
	// the steps it flew, its ratios to collide's best tree are taken over
	// the same steps, and the report marks it. The reference
	// (ReferenceBV, all pairs) is never capped. On the full scenes this
	// caps FCL's RSS, k-DOP and AABB trees (which copy and refit a model at
	// every query) and collide's box-trees on Pipes, whose full flights
	// would otherwise take hours.
	SlowSteps int
	SlowQuery time.Duration
	// Timeout bounds one run of the driver (0: 15 minutes). A run that
	// exceeds it is reported as timed out; the others go on.
	Timeout time.Duration
	// Progress, when not nil, is called with a line describing each run as
	// it starts.
	Progress func(line string)
}

// SceneInfo describes a scene of the report (as in package bench/paper).
type SceneInfo = flights.SceneInfo

// A System is one collision system of the comparison in one mode: collide
// with one bounding volume, run in this process, or a system of the peers
// driver.
type System struct {
	// Name is "collide" followed by the bounding volume ("collide kdop18"),
	// or the driver's name of the system ("fcl-obb", "opcode-tc", "bullet").
	Name string
	// Peer is set for the driver's systems.
	Peer bool
	// BV is collide's bounding volume.
	BV string
	// All asks for every pair (every contact, for ODE and Bullet); otherwise
	// the query stops at the first contact.
	All bool
	// Complete is set when a step's pairs are all the pairs in contact, as
	// they are for collide, FCL and OPCODE's tree collider in all-pairs mode;
	// otherwise they are some of them (first contact, or the triangles of
	// the contact points of ODE and Bullet).
	Complete bool
}

// Mode returns "all" or "first".
func (s System) Mode() string {
	if s.All {
		return "all"
	}
	return "first"
}

// String returns the name and the mode.
func (s System) String() string { return s.Name + " " + s.Mode() }

// ReferenceBV is the bounding volume of the reference flight: collide's
// all-pairs answers with it are what every system is compared with.
const ReferenceBV = flights.ReferenceBV

// CollideSystems returns collide's systems for the bounding volumes bvs,
// each in first-contact and all-pairs mode.
func CollideSystems(bvs []string) []System {
	var out []System
	for _, bv := range bvs {
		for _, all := range []bool{false, true} {
			out = append(out, System{Name: "collide " + bv, BV: bv, All: all, Complete: all})
		}
	}
	return out
}

// DriverSystems runs `driver --list` and returns the systems it offers, in
// each of their modes.
func DriverSystems(driver string) ([]System, error) {
	list, err := peers.List(driver, "--list")
	if err != nil {
		return nil, err
	}
	var systems []System
	for _, d := range list {
		for _, m := range d.Modes {
			if m != "first" && m != "all" {
				return nil, fmt.Errorf("%s --list: system %s: unknown mode %q", driver, d.System, m)
			}
			all := m == "all"
			systems = append(systems, System{Name: d.System, Peer: true, All: all, Complete: all && d.Pairs == "all"})
		}
	}
	if len(systems) == 0 {
		return nil, fmt.Errorf("%s --list: no systems", driver)
	}
	return systems, nil
}

// PeerRun is one system's flight through one scene.
type PeerRun struct {
	Scene  string
	System System
	// Err is set when the run failed (or timed out); the figures are then
	// those of the rounds before, or zero.
	Err string
	// Build is the time to build both models (the fastest of the rounds).
	Build time.Duration
	// Bytes is the memory the two models hold once built: the heap they
	// keep, plus the mesh arrays they keep pointers to rather than copies.
	Bytes int64
	// Peak is the peak heap of the build over the heap before it, plus the
	// same mesh arrays. For collide (whose heap is garbage collected) it is
	// the bytes allocated during the build, an upper bound.
	Peak int64
	// Sum holds the step times (each the fastest of the rounds) and, from
	// the first round, the steps in contact and the pairs reported.
	Sum flight.Summary
	// Counters are the system's own counters, summed over the steps of the
	// first round.
	Counters map[string]int64
	// Rounds counts the rounds the system flew: runs slower than
	// Config.SlowRun fly one.
	Rounds int
	// Capped is set when the system flew only the first steps of the
	// flight (len(Sum.Times) of them), being slower than
	// Config.SlowQuery a query.
	Capped bool
	slow   bool
	// Disagree counts the steps where the system's answer differs from the
	// reference's; Wrong those where it differs from the brute-force
	// oracle's.
	Disagree, Wrong int
}

// A Disagreement is a step where a system's answer differs from the
// brute-force oracle's: it said the models collide when they do not, or
// the reverse, or (for a system reporting every pair) missed pairs or
// reported pairs that are not in contact.
type Disagreement struct {
	Scene  string
	System System
	Step   int
	// Said and Truth are the system's and the oracle's booleans.
	Said, Truth bool
	// Missing counts the pairs in contact that the system did not report
	// (counted only for systems reporting every pair, or when the system
	// found no contact); Extra the pairs it reported that are not in
	// contact. Examples hold a few of each, missing first.
	Missing, Extra int
	Examples       []PairNote
}

// PairNote is an example pair of a Disagreement.
type PairNote struct {
	Pair    collide.Pair
	Missing bool // in contact but not reported (else reported, not in contact)
}

// Report holds the figures of Run.
type Report struct {
	Config  Config
	Machine string
	Scenes  []*SceneInfo
	Systems []System
	// Runs are keyed by scene, then by System.String().
	Runs map[string]map[string]*PeerRun
	// Disagreements lists every step where a system was wrong, by scene,
	// system and step.
	Disagreements []Disagreement
	// Oracle counts the steps checked against the brute-force oracle, and
	// OracleTime is the time they took.
	Oracle     int
	OracleTime time.Duration
	// Skipped says why each scene left out of a run of every scene (nil
	// Config.Scenes) could not be made here.
	Skipped []string
	Elapsed time.Duration
}

// Run returns the run of system s on scene, or nil.
func (r *Report) Run(scene string, s System) *PeerRun { return r.Runs[scene][s.String()] }

// Run flies every scene's flight through collide (with each bounding
// volume of c.BVs, in both modes) and through every system of the peers
// driver, all on the same poses: those of collide's flight, recorded once.
// Every system's answer at every step is compared with collide's all-pairs
// answer with ReferenceBV, and every step where they differ is checked
// with the brute-force oracle. It stops between two runs when ctx ends,
// returning ctx's error (a driver running then is killed).
func Run(ctx context.Context, c Config) (*Report, error) {
	start := time.Now()
	var skipped []string
	if c.Scenes == nil {
		c.Scenes, skipped = flights.AvailableScenes()
	}
	if c.BVs == nil {
		c.BVs = flights.TableBVs
	}
	if !slices.Contains(c.BVs, ReferenceBV) {
		c.BVs = append([]string{ReferenceBV}, c.BVs...)
	}
	if c.Rounds <= 0 {
		c.Rounds = 3
		if c.Size == scenes.Quick {
			c.Rounds = 2
		}
	}
	if c.SlowRun == 0 {
		c.SlowRun = 30 * time.Second
	}
	if c.Timeout <= 0 {
		c.Timeout = 15 * time.Minute
	}
	if c.SlowSteps == 0 {
		c.SlowSteps = 100
	}
	if c.SlowQuery <= 0 {
		c.SlowQuery = 10 * time.Millisecond
	}
	progress := c.Progress
	if progress == nil {
		progress = func(string) {}
	}
	systems := CollideSystems(c.BVs)
	if c.Driver != "" {
		driven, err := DriverSystems(c.Driver)
		if err != nil {
			return nil, err
		}
		systems = append(systems, driven...)
	}
	// The reference runs first, so that the others can be compared with it
	// as they finish.
	ref := System{Name: "collide " + ReferenceBV, BV: ReferenceBV, All: true, Complete: true}
	i := slices.Index(systems, ref)
	systems = append(append([]System{ref}, systems[:i]...), systems[i+1:]...)

	r := &Report{
		Config:  c,
		Machine: md.Machine(),
		Systems: systems,
		Runs:    map[string]map[string]*PeerRun{},
		Skipped: skipped,
	}
	dir, err := os.MkdirTemp("", "collide-peers-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)

	total := len(c.Scenes) * len(systems) * c.Rounds
	done := 0
	for _, name := range c.Scenes {
		progress(fmt.Sprintf("making scene %s", name))
		sc, info, err := flights.MakeScene(name, c.Size, c.Seed, c.Steps)
		if err != nil {
			return nil, err
		}
		progress(fmt.Sprintf("%s: recording the flight", name))
		poses, err := recordFlight(sc, info.Steps)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		info.Steps = len(poses)
		r.Scenes = append(r.Scenes, info)
		head := 0
		if c.SlowSteps > 0 && c.SlowSteps < len(poses) {
			head = c.SlowSteps
		}
		files, err := writeSceneFiles(dir, sc, poses, head)
		if err != nil {
			return nil, err
		}
		s := &sceneRun{report: r, scene: sc, poses: poses, oracle: map[int][]collide.Pair{}, listed: map[string]bool{}}
		runs := map[string]*PeerRun{}
		r.Runs[name] = runs
		// The two modes of a kind fly the same trees: built once a round
		// for both (the build figures are the least of the rounds', as
		// before; a kind's builds were most of the time of a quick run).
		trees := treeCache{}
		for round := range c.Rounds {
			trees.next(systems)
			for j := range systems {
				sys := systems[(j+round*len(systems)/c.Rounds)%len(systems)]
				done++
				if err := ctx.Err(); err != nil {
					return nil, err
				}
				progress(fmt.Sprintf("run %d of %d: %s, %s, round %d", done, total, name, sys, round+1))
				run := runs[sys.String()]
				if run == nil {
					run = &PeerRun{Scene: name, System: sys}
					runs[sys.String()] = run
				} else if run.Err != "" || run.slow {
					continue
				}
				// Only the first round caps, and never the reference.
				cut := capRule{}
				if round == 0 && sys != ref && c.SlowSteps > 0 {
					cut = capRule{steps: c.SlowSteps, mean: c.SlowQuery}
				}
				var res *flightResult
				if sys.Peer {
					res, err = runPeer(ctx, c.Driver, sys, files, c.Timeout, cut)
				} else {
					res, err = runCollide(sc, sys, poses, round == 0, cut, trees)
				}
				if err != nil {
					run.Err = err.Error()
					continue
				}
				if err := s.merge(run, res, round); err != nil {
					return nil, fmt.Errorf("%s, %s: %w", name, sys, err)
				}
				run.slow = c.SlowRun > 0 && res.total() > c.SlowRun || res.capped
				run.Capped = run.Capped || res.capped
				run.Rounds++
			}
		}
	}
	slices.SortStableFunc(r.Disagreements, func(a, b Disagreement) int {
		return cmp.Or(cmp.Compare(slices.Index(c.Scenes, a.Scene), slices.Index(c.Scenes, b.Scene)),
			cmp.Compare(slices.Index(systems, a.System), slices.Index(systems, b.System)),
			cmp.Compare(a.Step, b.Step))
	})
	r.Elapsed = time.Since(start)
	return r, nil
}

// recordFlight flies sc's path with collide's 18-DOP trees and returns the
// poses flown (a billiard path depends on the contacts found on the way).
func recordFlight(sc *scenes.Scene, steps int) ([]geom.Pose, error) {
	if sc.Poses != nil {
		return sc.Poses[:min(steps, len(sc.Poses))], nil
	}
	env, fly, err := flights.BuildScene(sc, collide.BuildOptions{})
	if err != nil {
		return nil, err
	}
	m, err := sc.Motion()
	if err != nil {
		return nil, err
	}
	poses := make([]geom.Pose, 0, steps)
	_, err = flight.Fly(env, fly, m, flight.Options{Steps: steps, Front: flight.FrontOff}, func(s *flight.Step) error {
		poses = append(poses, s.Pose)
		return nil
	})
	return poses, err
}

// sceneFiles are the files the driver reads for a scene, and their sizes;
// head, when not empty, holds the first headSteps poses only.
type sceneFiles struct {
	env, fly, poses, head   string
	steps, envTris, flyTris int
	headSteps               int
}

// writeSceneFiles writes the files of a scene and, when head > 0, of its
// first head poses.
func writeSceneFiles(dir string, sc *scenes.Scene, poses []geom.Pose, head int) (sceneFiles, error) {
	f := sceneFiles{
		env:   filepath.Join(dir, sc.Name+"-env.obj"),
		fly:   filepath.Join(dir, sc.Name+"-fly.obj"),
		poses: filepath.Join(dir, sc.Name+"-poses.txt"),
		steps: len(poses), envTris: sc.Env.NumTriangles(), flyTris: sc.Fly.NumTriangles(),
	}
	if head > 0 {
		f.head, f.headSteps = filepath.Join(dir, sc.Name+"-poses-head.txt"), head
	}
	err := peers.WriteInputs(f.env, f.fly, f.poses, sc.Env, sc.Fly, poses, fmt.Sprintf("scene %s: %d poses of the flying model", sc.Name, len(poses)))
	if err == nil && f.head != "" {
		err = peers.WritePoses(f.head, fmt.Sprintf("scene %s: the first %d poses of the flying model", sc.Name, head), poses[:head])
	}
	return f, err
}

// flightResult is what one run of a system gives: its build figures and
// its answer and time at every step (at every step flown, when capped).
type flightResult struct {
	build       time.Duration
	bytes, peak int64
	collide     []bool
	pairs       [][]collide.Pair
	times       []time.Duration
	counters    map[string]int64
	capped      bool
}

// capRule stops a run after its first steps when their mean query time
// exceeds mean (the zero rule never stops one).
type capRule struct {
	steps int
	mean  time.Duration
}

// stop reports whether a run of total steps, whose first len(times) steps
// took times, stops there.
func (c capRule) stop(times []time.Duration, total int) bool {
	if c.steps <= 0 || len(times) != c.steps || total <= c.steps {
		return false
	}
	var sum time.Duration
	for _, t := range times {
		sum += t
	}
	return sum > c.mean*time.Duration(c.steps)
}

// truncate keeps the first n steps of f, marking it capped.
func (f *flightResult) truncate(n int) {
	f.collide, f.pairs, f.times = f.collide[:n], f.pairs[:n], f.times[:n]
	f.capped = true
}

// total returns the time of the run: its build and its queries.
func (f *flightResult) total() time.Duration {
	t := f.build
	for _, d := range f.times {
		t += d
	}
	return t
}

// treeCache holds, during a round of a scene's runs, the trees built for
// each kind (by bounding volume's name) until every run of the round that
// flies them has flown: the kind's two modes fly the same trees, built
// once.
type treeCache map[string]*builtTrees

// builtTrees are a scene's two models of one kind, with the figures of
// their build and the runs left to fly them this round.
type builtTrees struct {
	env, fly *collide.Model
	// choice, for AutoBV, holds the models chosen per mode (env and fly
	// are its first-contact ones).
	choice      *auto.Choice
	build       time.Duration
	bytes, peak int64
	left        int
}

// next starts a round of systems: it forgets the last round's trees, and
// counts the runs of collide's systems of each kind in the round.
func (c treeCache) next(systems []System) {
	clear(c)
	for _, sys := range systems {
		if sys.Peer {
			continue
		}
		if t := c[sys.BV]; t != nil {
			t.left++
		} else {
			c[sys.BV] = &builtTrees{left: 1}
		}
	}
}

// runCollide builds sc's models for sys, or takes those trees built
// earlier in the round (trees), and queries every pose, keeping each
// pose's pairs if keep, stopping early as cut says.
func runCollide(sc *scenes.Scene, sys System, poses []geom.Pose, keep bool, cut capRule, trees treeCache) (*flightResult, error) {
	t := trees[sys.BV]
	if t == nil || t.env == nil {
		var err error
		if t, err = buildTrees(sc, sys); err != nil {
			return nil, err
		}
		if c := trees[sys.BV]; c != nil {
			t.left = c.left
		}
		trees[sys.BV] = t
	}
	if t.left--; t.left <= 0 {
		delete(trees, sys.BV)
	}
	env, fly := t.env, t.fly
	if t.choice != nil {
		env, fly = t.choice.For(sys.All).Env, t.choice.For(sys.All).Fly
	}
	res := &flightResult{
		build:    t.build,
		bytes:    t.bytes,
		peak:     t.peak,
		collide:  make([]bool, len(poses)),
		pairs:    make([][]collide.Pair, len(poses)),
		times:    make([]time.Duration, len(poses)),
		counters: map[string]int64{},
	}
	var q collide.Query
	var st collide.Stats
	qo := collide.QueryOptions{All: sys.All}
	for i, p := range poses {
		t := time.Now()
		out, err := q.Check(env, fly, p, qo)
		res.times[i] = time.Since(t)
		if err != nil {
			return nil, fmt.Errorf("%s, pose %d: %w", sc.Name, i, err)
		}
		res.collide[i] = out.Collide
		if keep {
			res.pairs[i] = slices.Clone(out.Pairs)
		}
		st.Add(out.Stats)
		if cut.stop(res.times[:i+1], len(poses)) {
			res.truncate(i + 1)
			break
		}
	}
	res.counters["bv_tests"] = st.BVTests
	res.counters["tri_tests"] = st.TriTests
	res.counters["updates"] = st.Updates
	res.counters["leaf_tests"] = st.LeafTests
	runtime.KeepAlive(env)
	runtime.KeepAlive(fly)
	return res, nil
}

// buildTrees builds sc's models for sys, measuring the time and memory.
func buildTrees(sc *scenes.Scene, sys System) (*builtTrees, error) {
	var b collide.BV
	if sys.BV != AutoBV {
		var err error
		if b, err = collide.ParseBV(sys.BV); err != nil {
			return nil, err
		}
	}
	var before, built, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	t0 := time.Now()
	var env, fly *collide.Model
	var choice *auto.Choice
	var err error
	if sys.BV == AutoBV {
		var c auto.Choice
		if c, err = chooseScene(sc); err == nil {
			choice, env, fly = &c, c.First.Env, c.First.Fly
		}
	} else {
		env, fly, err = flights.BuildScene(sc, collide.BuildOptions{BV: b})
	}
	if err != nil {
		return nil, err
	}
	build := time.Since(t0)
	runtime.ReadMemStats(&built)
	runtime.GC()
	runtime.ReadMemStats(&after)
	meshes := meshBytes(sc.Env) + meshBytes(sc.Fly) // kept by the models, not copied
	return &builtTrees{env: env, fly: fly, choice: choice, build: build,
		bytes: int64(after.HeapAlloc) - int64(before.HeapAlloc) + meshes,
		peak:  int64(built.TotalAlloc-before.TotalAlloc) + meshes}, nil
}

func meshBytes(m *mesh.TriMesh) int64 { return int64(len(m.Verts))*24 + int64(len(m.Tris))*12 }

// driverLine is a line of the driver's output: the build line, then one
// line per pose as `collide check --json` prints them.
type driverLine struct {
	Build *struct {
		Seconds   float64 `json:"seconds"`
		Bytes     int64   `json:"bytes"`
		PeakBytes int64   `json:"peak_bytes"`
	} `json:"build"`
	Pose    *int             `json:"pose"`
	Collide bool             `json:"collide"`
	Pairs   [][]int32        `json:"pairs"`
	Stats   map[string]int64 `json:"stats"`
	Seconds float64          `json:"seconds"`
}

// runPeer runs the driver's system sys on a scene's files, capped by cut:
// when cut applies, the driver first flies the first cut.steps poses only
// (the driver buffers its output, so a run of the whole flight cannot be
// stopped there in time), and that run is the result if cut stops it;
// otherwise the driver flies the whole flight.
func runPeer(ctx context.Context, driver string, sys System, f sceneFiles, timeout time.Duration, cut capRule) (*flightResult, error) {
	if cut.steps > 0 && f.head != "" && f.headSteps == cut.steps {
		hf := f
		hf.poses, hf.steps = f.head, f.headSteps
		probe, err := runDriver(ctx, driver, sys, hf, timeout, capRule{})
		if err != nil {
			return nil, err
		}
		if cut.stop(probe.times, f.steps) {
			probe.capped = true
			return probe, nil
		}
	}
	return runDriver(ctx, driver, sys, f, timeout, cut)
}

// runDriver runs the driver's system sys on a scene's files, stopping it
// after its first steps if cut says so.
func runDriver(ctx context.Context, driver string, sys System, f sceneFiles, timeout time.Duration, cut capRule) (*flightResult, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	args := []string{"--system", sys.Name}
	if sys.All {
		args = append(args, "--all")
	}
	p, err := peers.Start(ctx, driver, append(args, f.env, f.fly, f.poses)...)
	if err != nil {
		return nil, err
	}
	res, perr := parseDriver(bufio.NewReaderSize(p.Stdout(), 1<<20), f.steps, f.envTris, f.flyTris, cut)
	if perr == nil && res.capped {
		cancel() // the driver is not needed any more
		p.Wait()
		return res, nil
	}
	werr := p.Wait()
	switch {
	case ctx.Err() != nil:
		return nil, fmt.Errorf("timed out after %s", timeout)
	case werr != nil:
		return nil, werr
	case perr != nil:
		return nil, perr
	}
	return res, nil
}

// parseDriver reads the driver's output for a flight of steps poses of a
// flying model of flyTris triangles through an environment of envTris,
// stopping early (the result capped) where cut says.
func parseDriver(r io.Reader, steps, envTris, flyTris int, cut capRule) (*flightResult, error) {
	dec := json.NewDecoder(r)
	var first driverLine
	if err := dec.Decode(&first); err != nil {
		return nil, fmt.Errorf("driver output: %v", err)
	}
	if first.Build == nil {
		return nil, errors.New("driver output: the first line is not the build line")
	}
	res := &flightResult{
		build:    time.Duration(first.Build.Seconds * float64(time.Second)),
		bytes:    first.Build.Bytes,
		peak:     first.Build.PeakBytes,
		collide:  make([]bool, steps),
		pairs:    make([][]collide.Pair, steps),
		times:    make([]time.Duration, steps),
		counters: map[string]int64{},
	}
	for i := range steps {
		var l driverLine
		if err := dec.Decode(&l); err != nil {
			if err == io.EOF {
				return nil, fmt.Errorf("driver output: %d poses, want %d", i, steps)
			}
			return nil, fmt.Errorf("driver output, pose %d: %v", i, err)
		}
		if l.Pose == nil || *l.Pose != i {
			return nil, fmt.Errorf("driver output: line %d is not pose %d", i+2, i)
		}
		res.collide[i] = l.Collide
		res.times[i] = time.Duration(l.Seconds * float64(time.Second))
		ps := make([]collide.Pair, len(l.Pairs))
		for j, p := range l.Pairs {
			if len(p) != 2 || p[0] < 0 || int(p[0]) >= envTris || p[1] < 0 || int(p[1]) >= flyTris {
				return nil, fmt.Errorf("driver output, pose %d: pair %v is not [env triangle, fly triangle] (%d and %d triangles)", i, p, envTris, flyTris)
			}
			ps[j] = collide.Pair{Env: p[0], Fly: p[1]}
		}
		slices.SortFunc(ps, collide.ComparePairs)
		res.pairs[i] = slices.Compact(ps)
		for k, v := range l.Stats {
			res.counters[k] += v
		}
		if cut.stop(res.times[:i+1], steps) {
			res.truncate(i + 1)
			break
		}
	}
	return res, nil
}

// sceneRun gathers the runs of one scene.
type sceneRun struct {
	report *Report
	scene  *scenes.Scene
	poses  []geom.Pose
	// ref holds the reference's answers; oracle the oracle's, for the steps
	// checked.
	ref    *flightResult
	oracle map[int][]collide.Pair
	// listed holds the disagreements recorded, by system and step.
	listed map[string]bool
}

// merge adds a run's result to run: its times (keeping each step's
// fastest), and, on the first round, its answers, checked against the
// reference's.
func (s *sceneRun) merge(run *PeerRun, res *flightResult, round int) error {
	if round > 0 {
		run.Build = min(run.Build, res.build)
		for i, t := range res.times {
			run.Sum.Times[i] = min(run.Sum.Times[i], t)
		}
		return nil
	}
	run.Build, run.Bytes, run.Peak = res.build, res.bytes, res.peak
	run.Counters = res.counters
	run.Sum = flight.Summary{Steps: len(res.times), Times: res.times}
	for i, c := range res.collide {
		if c {
			run.Sum.Colliding++
		}
		run.Sum.Pairs += int64(len(res.pairs[i]))
	}
	if s.ref == nil {
		// The reference itself: it is checked where another system
		// disagrees with it.
		s.ref = res
		return nil
	}
	for i := range res.collide {
		if agrees(run.System, res.collide[i], res.pairs[i], s.ref.collide[i], s.ref.pairs[i]) {
			continue
		}
		run.Disagree++
		truth := s.truth(i)
		s.check(run.System, i, res.collide[i], res.pairs[i], truth, run)
		// The reference is checked too: a disagreement it loses is
		// collide's bug, and is listed as such.
		refRun := s.report.Runs[s.scene.Name][s.report.Systems[0].String()]
		s.check(refRun.System, i, s.ref.collide[i], s.ref.pairs[i], truth, refRun)
	}
	return nil
}

// agrees reports whether a system's answer (said, pairs) matches the
// reference's: the same boolean and, for a system reporting every pair,
// the same pairs, otherwise pairs among the reference's.
func agrees(sys System, said bool, pairs []collide.Pair, refSaid bool, refPairs []collide.Pair) bool {
	if said != refSaid {
		return false
	}
	if sys.Complete {
		return slices.Equal(pairs, refPairs)
	}
	return subset(pairs, refPairs)
}

// subset reports whether every pair of a (sorted) is in b (sorted).
func subset(a, b []collide.Pair) bool {
	j := 0
	for _, p := range a {
		for j < len(b) && collide.ComparePairs(b[j], p) < 0 {
			j++
		}
		if j == len(b) || b[j] != p {
			return false
		}
	}
	return true
}

// truth returns the brute-force oracle's pairs at step i.
func (s *sceneRun) truth(i int) []collide.Pair {
	if t, ok := s.oracle[i]; ok {
		return t
	}
	t0 := time.Now()
	raw := oracle.Sweep(s.scene.Env, s.scene.Fly, s.poses[i], 0)
	s.report.OracleTime += time.Since(t0)
	t := make([]collide.Pair, len(raw))
	for j, p := range raw {
		t[j] = collide.Pair{Env: p[0], Fly: p[1]}
	}
	slices.SortFunc(t, collide.ComparePairs)
	t = slices.Compact(t)
	s.oracle[i] = t
	s.report.Oracle++
	return t
}

// check compares a system's answer at step i with the oracle's and records
// a Disagreement (once per system and step) when they differ.
func (s *sceneRun) check(sys System, i int, said bool, pairs, truth []collide.Pair, run *PeerRun) {
	d := Disagreement{Scene: s.scene.Name, System: sys, Step: i, Said: said, Truth: len(truth) > 0}
	var missing, extra []collide.Pair
	for _, p := range pairs {
		if _, ok := slices.BinarySearchFunc(truth, p, collide.ComparePairs); !ok {
			extra = append(extra, p)
		}
	}
	if sys.Complete || !said {
		for _, p := range truth {
			if _, ok := slices.BinarySearchFunc(pairs, p, collide.ComparePairs); !ok {
				missing = append(missing, p)
			}
		}
	}
	if d.Said == d.Truth && len(missing) == 0 && len(extra) == 0 {
		return
	}
	key := sys.String() + " " + strconv.Itoa(i)
	if s.listed[key] {
		return
	}
	s.listed[key] = true
	d.Missing, d.Extra = len(missing), len(extra)
	for _, p := range missing[:min(len(missing), 3)] {
		d.Examples = append(d.Examples, PairNote{Pair: p, Missing: true})
	}
	for _, p := range extra[:min(len(extra), 3)] {
		d.Examples = append(d.Examples, PairNote{Pair: p})
	}
	run.Wrong++
	s.report.Disagreements = append(s.report.Disagreements, d)
}

// Kind says in words what a disagreement is.
func (d Disagreement) Kind() string {
	switch {
	case d.Truth && !d.Said:
		return "missed contact"
	case d.Said && !d.Truth:
		return "false contact"
	case d.Missing > 0 && d.Extra > 0:
		return "wrong pairs"
	case d.Missing > 0:
		return "missing pairs"
	default:
		return "pairs not in contact"
	}
}

// ExampleString writes d's example pairs as "-e/f" (missing) and "+e/f"
// (reported, not in contact).
func (d Disagreement) ExampleString() string {
	var b strings.Builder
	for i, p := range d.Examples {
		if i > 0 {
			b.WriteByte(' ')
		}
		if p.Missing {
			b.WriteByte('-')
		} else {
			b.WriteByte('+')
		}
		b.WriteString(strconv.Itoa(int(p.Pair.Env)) + "/" + strconv.Itoa(int(p.Pair.Fly)))
	}
	return b.String()
}
