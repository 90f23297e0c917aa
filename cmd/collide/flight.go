package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/collide3d/collide/internal/jsonl"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/auto"
	"github.com/collide3d/collide/bench/plot"
	"github.com/collide3d/collide/bench/scenes"
	"github.com/collide3d/collide/flight"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh"
)

// maxFlightSteps is the most steps flight, bench and view fly: a flight
// keeps every step's query time (8 bytes a step, 16 with --ccd), so that
// 2^26 steps hold 512 MiB to 1 GiB.
const maxFlightSteps = 1 << 26

type flightOptions struct {
	build  buildFlags
	scene  string
	quick  bool
	envArg string
	flyArg string
	steps  int
	all    bool
	eps    float64
	seed   uint64
	json   bool
	plot   string
	record string
	poses  string
	force  bool
	// maxPairs stops a step's query after so many pairs (0: no limit).
	maxPairs int
	// front is the front-tracking policy (flight.FrontPolicy's names).
	front string
	// ccd asks for the continuous query of every step's motion (--ccd).
	ccd bool
}

// defaultScene is the scene of a bare 'collide flight'.
const defaultScene = "swept"

// ccdExact says why --ccd takes no tolerance.
const ccdExact = "the continuous query decides exact contact (at distance 0), so the contacts the steps missed are measured against exact steps"

func flightCommand() *command {
	return &command{
		name:  "flight",
		usage: "flight [flags]",
		help: fmt.Sprintf(`
Flies a model through an environment (%s trees unless --bv says otherwise,
the fastest kind measured, as in check), as in the experiments of Klosowski
et al., querying at every step, and prints a summary: the build times and
memory of both models, the steps and contacts, the query time per step (mean,
median, 99th and 99.9th percentiles and maximum; the query is prepared
before the first step, so that the first costs what the others do, and the
time that took is given apart), whether the steps used a front, and the
mean work of a step.

The work of a step is counted as in the cost model of Gottschalk et al.,
time = Nv×Cv + Np×Cp + Nu×Cu: each model's triangles sit in a tree of
bounding volumes (--bv), and a query walks both trees together. Nv counts
the pairs of volumes tested for overlap, Np the pairs of triangles tested
exactly, Nu the volumes of the flying model moved to its pose to be
tested (updates), and Nl the tests of a leaf's triangles straight against
a volume of the other tree (OBB, AABB, sphere and RSS trees make those).
A front (--front) is where the last step's walk ended: a step that starts
there skips the pairs of volumes proved apart by more than the model has
moved since, counted as "skipped" (the JSON's front_skipped). --front auto
keeps it while it is faster than starting from the roots, timed every 16
steps, and stops it for the rest of the flight when it is not.

The flight is a scene (--scene; --quick for the small version), or ENV and FLY
models given with --env and --fly (mesh files, gen:KIND[:key=value,...] or
saved models, as for check). The motion is the scene's path: a billiard path
(a random flight, reversed when it collides, turning at random), or for
swept a path fixed in advance; with --env and --fly, a billiard path through
ENV's bounding box at a speed of 1%% of FLY's size per step. --seed chooses
the random path (and the scene's random geometry). --poses replays a pose
file instead (one pose a line: the 12 numbers of check --poses), such as one
--record wrote: a recorded flight replays to the same contacts (and, with
--front on or off, to the same counters; auto decides by timing). A record
flies what its header names (its scene or models, seed and tolerance):
flags naming another flight are a usage error, --eps replaces the
recorded tolerance.

Scenes: %s. With no flags, flight flies the %s scene with %s.

Without --all each step stops at its first contact; with it, each step
finds every pair, as in the paper's timings; --max-pairs N stops a step
after N pairs (and says so), bounding its memory. --json prints one line per
step,
  {"step":N,"collide":BOOL,"pairs":[[envTri,flyTri],...],
   "stats":{"bv_tests":N,"tri_tests":N,"updates":N},"seconds":S}
then a last line {"summary":{...}} with the figures of the text summary.
--plot FILE.svg draws the query time of every step. --record FILE writes the
poses flown, after a header line "# flight: --scene NAME --seed S ..." (or
--env ENV --fly FLY) that names the flight, so that collide view FILE shows
it. Files given to --plot and --record are not overwritten unless --force is
given.

--ccd asks, at every step after the first, also the continuous query of the
motion from the previous step's pose to the step's (as check --ccd does:
translation linear in time, rotation at a constant rate about a fixed axis),
with the same models, and reports every step where the discrete queries
missed a contact that happened between the samples: the motion touched,
but neither the previous step's query nor the step's found a contact. Each
such step prints a line
  step N: missed a contact between steps N-1 and N: at t in [LO, HI], pair E F
(t from 0 at step N-1's pose to 1 at step N's; E and F the triangles that
touch then), and the summary counts them and gives the continuous queries'
time, apart from the steps' own. With --json no such line is printed; each
step's line but the first gains, after "seconds",
  "ccd":{"hit":BOOL,"toi":[LO,HI],"pair":[E,F],"maybe":true,"missed":true,"seconds":S}
(toi on a hit or a maybe, pair on a hit, maybe and missed only when true),
and the summary a "ccd" object. The motion still moves as the discrete
queries tell it. --ccd decides exact contact: with a non-zero --eps it is a
usage error. --plot draws the continuous queries' time too.

Bounding volumes (--bv): %s.`,
			defaultBV, strings.Join(scenes.Names(), ", "), defaultScene, defaultBV, bvNames(collide.BVs())),
		flags: func(fs *flag.FlagSet) any {
			o := &flightOptions{}
			o.build.define(fs, collide.BVs()) // and o.given
			fs.StringVar(&o.scene, "scene", "", "fly the scene `NAME`: "+strings.Join(scenes.Names(), ", ")+" (default "+defaultScene+")")
			fs.BoolVar(&o.quick, "quick", false, "fly the small version of the scene (a few thousand triangles, a few hundred steps)")
			fs.StringVar(&o.envArg, "env", "", "the environment `MODEL` (with --fly, instead of a scene)")
			fs.StringVar(&o.flyArg, "fly", "", "the flying `MODEL` (with --env)")
			intFlag(fs, &o.steps, "steps", 0, "fly `N` steps (default: the scene's; 1000 with --env and --fly; the whole file with --poses)")
			fs.BoolVar(&o.all, "all", false, "find every intersecting pair at each step (default: stop at the first contact)")
			intFlag(fs, &o.maxPairs, "max-pairs", 0, "with --all, stop each step's query after `N` pairs and say so (0: no limit)")
			floatFlag(fs, &o.eps, "eps", 0, "tolerance `X` >= 0: pairs at distance <= X are in contact")
			intFlag(fs, &o.seed, "seed", 1, "random `SEED` of the path and of the scene's geometry")
			fs.BoolVar(&o.json, "json", false, "print JSON Lines: one object per step, then the summary")
			fs.StringVar(&o.plot, "plot", "", "draw the query time per step to `FILE` (SVG)")
			fs.StringVar(&o.record, "record", "", "write the poses of the flight to `FILE` (a pose file)")
			fs.StringVar(&o.poses, "poses", "", "replay the poses of `FILE` instead of the path")
			fs.BoolVar(&o.force, "force", false, "overwrite the files of --plot and --record if they exist")
			fs.BoolVar(&o.ccd, "ccd", false, "also ask the continuous query of every step's motion, and report the contacts the steps missed between samples")
			fs.StringVar(&o.front, "front", "auto", "front tracking `auto|on|off`: start each step where the last one ended (the same answers); auto does so while it is faster")
			return o
		},
		run: runFlight,
	}
}

// flightSetup is what a flight flies.
type flightSetup struct {
	name       string // the scene's, or "ENV FLY"
	doc        string
	env, fly   *collide.Model
	envT, flyT time.Duration // build (or load) times; flyT < 0: counted in envT
	motion     flight.Motion
	steps      int
	ccd        bool // the flight asks continuous queries too (--ccd)
	// choice, with --bv auto, holds the models chosen per mode (env and
	// fly are those of one mode, see pick).
	choice *auto.Choice
}

// pick sets, with --bv auto, s's models to those chosen for the queries
// of mode all, and says on stderr what auto chose (cmd: the command).
func (s *flightSetup) pick(e *env, cmd string, all bool) error {
	if s.choice == nil {
		return nil
	}
	m := s.choice.For(all)
	s.env, s.fly = m.Env, m.Fly
	return sayChoice(e, cmd, s.choice, all)
}

// bvName is the name of the flight's bounding volume: its models', or
// auto.
func (s *flightSetup) bvName() string {
	if s.choice != nil {
		return autoName
	}
	return s.env.BV().String()
}

func runFlight(e *env, opts any, args []string) error {
	o := opts.(*flightOptions)
	if len(args) > 0 {
		return usagef("flight takes no arguments (got %q); use --scene, or --env and --fly", args[0])
	}
	bo, err := o.build.options()
	if err != nil {
		return err
	}
	if err := checkFlightName(o); err != nil {
		return usagef("%v", err)
	}
	switch {
	case o.steps < 0 || o.steps > maxFlightSteps:
		return usagef("--steps must be within [0, %d], not %d (a flight keeps every step's query time, for its percentiles and --plot)", maxFlightSteps, o.steps)
	case o.maxPairs < 0:
		return usagef("--max-pairs must be >= 0, not %d", o.maxPairs)
	case o.ccd && o.eps != 0:
		return usagef("--ccd with --eps %s: %s", formatFloat(o.eps), ccdExact)
	}
	if o.poses != "" {
		// A flight record replays the flight its header names.
		if err := applyRecord(o, false); err != nil {
			return err
		}
		if o.ccd && o.eps != 0 {
			return usagef("--ccd: %s was flown with --eps %s (its header); %s: give --eps 0 to replay it with exact steps", o.poses, formatFloat(o.eps), ccdExact)
		}
	}
	if o.scene == "" && o.envArg == "" {
		o.scene = defaultScene
	}
	for _, out := range []string{o.plot, o.record} {
		if out == "" {
			continue
		}
		if err := keep(out, o.force); err != nil {
			return err
		}
	}
	s, err := loadFlight(e, o, bo)
	if err != nil {
		return err
	}
	s.ccd = o.ccd

	w := bufio.NewWriter(e.stdout)
	var sum *flight.Summary
	q := collide.QueryOptions{All: o.all, Eps: o.eps, MaxPairs: o.maxPairs}
	if err := s.pick(e, "flight", q.All); err != nil {
		return err
	}
	policy, err := flight.ParseFrontPolicy(o.front)
	if err != nil {
		return usagef("--front: want auto, on or off, not %q", o.front)
	}
	sink := newStepSink(o.json, o.record != "", w, s.steps)
	sink.setCCD(o.ccd)
	// Collect the garbage of making the scene and building the models now,
	// rather than in a collection that runs beside the first steps: the
	// steps allocate nothing, so none starts during the flight.
	runtime.GC()
	withTicker(e, true, func(elapsed time.Duration) string {
		missed := ""
		if o.ccd {
			missed = fmt.Sprintf(", %d missed between steps", sink.missed.Load())
		}
		return fmt.Sprintf("flying %s: step %d of %d, %d in contact%s, %.1f s", s.name, sink.done.Load(), s.steps, sink.hits.Load(), missed, elapsed.Seconds())
	}, func() {
		sum, err = flight.Fly(s.env, s.fly, s.motion, flight.Options{Steps: s.steps, Query: q, Front: policy, CCD: o.ccd}, sink.step)
	})
	recorded := sink.recorded
	if err != nil {
		return err
	}
	if o.json {
		err = writeJSONSummary(w, s, sum, q)
	} else {
		err = writeFlightSummary(w, s, sum, q)
	}
	if err == nil {
		err = w.Flush()
	}
	if err != nil {
		return fmt.Errorf("writing output: %w", err)
	}
	if o.record != "" {
		header := fmt.Sprintf("collide flight: %s, %d steps, seed %d\n%s", s.name, len(recorded), o.seed, recordFlags(o))
		if err := writeFileAtomic(o.record, o.force, func(w io.Writer) error { return flight.WritePoses(w, header, recorded) }); err != nil {
			return err
		}
	}
	if o.plot != "" {
		if err := writeFileAtomic(o.plot, o.force, func(w io.Writer) error { return flightPlot(s, sum, q).WriteSVG(w) }); err != nil {
			return err
		}
	}
	return nil
}

// loadFlight reads o's pose file (--poses), if any, before anything is
// built, then sets the flight up (setupFlight) and checks that every pose
// places FLY: the flight then replays the poses, all of them unless
// --steps says how many.
func loadFlight(e *env, o *flightOptions, bo collide.BuildOptions) (*flightSetup, error) {
	var replay []geom.Pose
	if o.poses != "" {
		var err error
		if replay, err = readPoseFile(o.poses); err != nil {
			return nil, err
		}
	}
	s, err := setupFlight(e, o, bo)
	if err != nil {
		return nil, err
	}
	if replay != nil {
		for i, p := range replay {
			if err := s.fly.CheckPose(p); err != nil {
				return nil, fmt.Errorf("pose %d of %s: %s", i, o.poses, strings.TrimPrefix(err.Error(), "collide: "))
			}
		}
		s.motion = &flight.Recorded{Poses: replay}
		s.steps = len(replay)
	}
	if o.steps > 0 {
		s.steps = o.steps
	}
	return s, nil
}

// setupFlight makes the scene, or loads ENV and FLY, and builds the models.
func setupFlight(e *env, o *flightOptions, bo collide.BuildOptions) (*flightSetup, error) {
	if o.scene == "" && o.build.isAuto() {
		t0 := time.Now()
		envSrc, flySrc, bo, err := loadSources(e, o.envArg, o.flyArg, &o.build, bo)
		if err != nil {
			return nil, err
		}
		return chooseFlight(e, o, &flightSetup{name: o.envArg + " " + o.flyArg, flyT: -1, steps: 1000}, envSrc, flySrc, bo, t0)
	}
	if o.scene == "" {
		t0 := time.Now()
		envModel, flyModel, err := buildModels(e, o.envArg, o.flyArg, &o.build, bo)
		if err != nil {
			return nil, err
		}
		flyModel.PrepareFlying()
		both := time.Since(t0)
		b, err := flight.NewBilliard(defaultBilliard(envModel.Mesh(), flyModel.Mesh(), o.seed))
		if err != nil {
			return nil, err
		}
		return &flightSetup{name: o.envArg + " " + o.flyArg, env: envModel, fly: flyModel, envT: both, flyT: -1, motion: b, steps: 1000}, nil
	}
	size := scenes.Full
	if o.quick {
		size = scenes.Quick
	}
	var sc *scenes.Scene
	var err error
	withTicker(e, true, func(elapsed time.Duration) string {
		return fmt.Sprintf("making scene %s: %.1f s", o.scene, elapsed.Seconds())
	}, func() {
		sc, err = scenes.New(o.scene, size, o.seed)
	})
	if err != nil {
		return nil, err
	}
	s := &flightSetup{name: o.scene, doc: sc.Doc, steps: sc.Steps}
	if o.build.isAuto() {
		if s, err = chooseFlight(e, o, s, &source{Arg: o.scene + " environment", Mesh: sc.Env}, &source{Arg: o.scene + " flying model", Mesh: sc.Fly}, bo, time.Now()); err != nil {
			return nil, err
		}
		s.flyT = -1
		if s.motion, err = sc.Motion(); err != nil {
			return nil, err
		}
		return s, nil
	}
	build := func(label string, m *mesh.TriMesh, flies bool) (*collide.Model, time.Duration, error) {
		t0 := time.Now()
		model, err := buildWithProgress(e, &source{Arg: o.scene + " " + label, Mesh: m}, bo)
		if err == nil && flies {
			model.PrepareFlying() // part of the build
		}
		return model, time.Since(t0), err
	}
	if s.env, s.envT, err = build("environment", sc.Env, false); err != nil {
		return nil, err
	}
	if s.fly, s.flyT, err = build("flying model", sc.Fly, true); err != nil {
		return nil, err
	}
	if s.motion, err = sc.Motion(); err != nil {
		return nil, err
	}
	return s, nil
}

// chooseFlight completes s, a flight with --bv auto, with the models
// auto chooses for ENV and FLY (both modes, at probes of random flights:
// the flight's poses are not known ahead), the time since t0 counted in
// ENV's build; a flight of ENV and FLY gets its billiard path.
func chooseFlight(e *env, o *flightOptions, s *flightSetup, envSrc, flySrc *source, bo collide.BuildOptions, t0 time.Time) (*flightSetup, error) {
	c, err := chooseModels(e, envSrc, flySrc, bo, auto.Options{Eps: o.eps})
	if err != nil {
		return nil, err
	}
	s.choice, s.env, s.fly, s.envT = c, c.First.Env, c.First.Fly, time.Since(t0)
	if o.scene == "" {
		b, err := flight.NewBilliard(defaultBilliard(envSrc.Mesh, flySrc.Mesh, o.seed))
		if err != nil {
			return nil, err
		}
		s.motion = b
	}
	return s, nil
}

// defaultBilliard is the path of a flight of fly through env: a billiard
// path through env's bounding box, turning 0.02 radians a step, at 1% of
// fly's size a step.
func defaultBilliard(env, fly *mesh.TriMesh, seed uint64) flight.BilliardConfig {
	eb, fb := env.Bounds(), fly.Bounds()
	return flight.BilliardConfig{
		Center: fb.Center(), Start: eb.Center(), Bounds: eb,
		Speed: 0.01 * fb.Size().Norm(), Spin: 0.02, Turn: 0.3, Seed: seed,
	}
}

// modelBytes is the memory of a model: its mesh and its hierarchy (a
// brute-force model's triangle boxes).
func modelBytes(m *collide.Model) int64 {
	return int64(len(m.Mesh().Verts))*24 + int64(len(m.Mesh().Tris))*12 + m.Bytes()
}

func modeName(q collide.QueryOptions) string {
	s := "first contact"
	if q.All {
		s = "all pairs"
	}
	if q.Eps > 0 {
		s += fmt.Sprintf(", eps %g", q.Eps)
	}
	return s
}

func writeFlightSummary(w io.Writer, s *flightSetup, sum *flight.Summary, q collide.QueryOptions) error {
	em, fm := s.env.Mesh(), s.fly.Mesh()
	fmt.Fprintf(w, "flight %s: %s, %s\n", s.name, s.bvName(), modeName(q))
	if s.doc != "" {
		fmt.Fprintf(w, "  %s\n", s.doc)
	}
	fmt.Fprintf(w, "environment  %9d triangles  built in %-9s %s\n", len(em.Tris), fmtDuration(s.envT), fmtBytes(modelBytes(s.env)))
	if s.flyT < 0 {
		fmt.Fprintf(w, "flying model %9d triangles  (built with it)    %s\n", len(fm.Tris), fmtBytes(modelBytes(s.fly)))
	} else {
		fmt.Fprintf(w, "flying model %9d triangles  built in %-9s %s\n", len(fm.Tris), fmtDuration(s.flyT), fmtBytes(modelBytes(s.fly)))
	}
	fmt.Fprintf(w, "steps        %9d, %d in contact, %d %s\n", sum.Steps, sum.Colliding, sum.Pairs, plural(int(sum.Pairs), "contact pair", "contact pairs"))
	if sum.Truncated > 0 {
		fmt.Fprintf(w, "             %d %s stopped at --max-pairs (more pairs than that)\n", sum.Truncated, plural(sum.Truncated, "step", "steps"))
	}
	ts := sum.TimeStats()
	fmt.Fprintf(w, "query time   mean %s, median %s, p99 %s, p99.9 %s, max %s (prepared in %s)\n",
		fmtDuration(ts.Mean), fmtDuration(ts.Median), fmtDuration(ts.P99), fmtDuration(ts.P999), fmtDuration(ts.Max),
		fmtDuration(sum.Prepare))
	fmt.Fprintf(w, "front        %s\n", frontLine(sum))
	_, err := fmt.Fprintf(w, "per step     %s\n", workLine(sum))
	if err == nil && s.ccd {
		err = writeCCDSummary(w, sum)
	}
	return err
}

// writeCCDSummary writes the lines of flight --ccd's summary: the steps
// that tunnelled past contacts, the continuous queries' answers, time and
// counts.
func writeCCDSummary(w io.Writer, sum *flight.Summary) error {
	fmt.Fprintf(w, "ccd          %d %s tunnelled past contacts the samples missed; %d of %d %s in contact",
		sum.Missed, plural(sum.Missed, "step", "steps"), sum.CCDHits, sum.CCDSteps, plural(sum.CCDSteps, "motion", "motions"))
	if sum.CCDMaybe > 0 {
		fmt.Fprintf(w, ", %d maybe (within rounding, no contact proved)", sum.CCDMaybe)
	}
	ts := sum.CCDTimeStats()
	fmt.Fprintf(w, "\nccd time     continuous query time mean %s, median %s, p99 %s, max %s\n",
		fmtDuration(ts.Mean), fmtDuration(ts.Median), fmtDuration(ts.P99), fmtDuration(ts.Max))
	per := func(n int64) float64 {
		if sum.CCDSteps == 0 {
			return 0
		}
		return float64(n) / float64(sum.CCDSteps)
	}
	_, err := fmt.Fprintf(w, "ccd per step %.1f volume tests (Nv), %.1f triangle tests (Np), %.1f volume updates (Nu), %.1f leaf tests (Nl)\n", per(sum.CCDStats.BVTests), per(sum.CCDStats.TriTests), per(sum.CCDStats.Updates), per(sum.CCDStats.LeafTests))
	return err
}

// fmtBytes formats a size in bytes with a binary unit.
func fmtBytes(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.2f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

// stepSink is the callback of a flight's steps: it counts them for the
// progress line, keeps their poses for --record (in room made for all of
// them) and, with --json, writes each step's line, reusing one buffer, so
// that a step allocates nothing and a flight's steps trigger no garbage
// collection.
type stepSink struct {
	json, record bool
	ccd          bool // print the steps that missed a contact (text), or each step's continuous query (JSON)
	w            io.Writer
	buf          []byte
	recorded     []geom.Pose
	done, hits   atomic.Int64
	missed       atomic.Int64 // steps that missed a contact between samples (--ccd)
}

// newStepSink returns the callback of a flight of steps steps, writing
// JSON lines to w if json is set, recording the poses if record is: with
// room made for every pose and for the longest line it holds (stepLine),
// so that no step allocates.
func newStepSink(json, record bool, w io.Writer, steps int) *stepSink {
	k := &stepSink{json: json, record: record, w: w}
	if json {
		k.buf = make([]byte, 0, stepLine)
	}
	if record {
		k.recorded = make([]geom.Pose, 0, steps)
	}
	return k
}

// setCCD sets whether the flight asks continuous queries (--ccd): then a
// step that missed a contact prints a line (text), or each step's line
// holds its continuous query (JSON).
func (k *stepSink) setCCD(ccd bool) {
	k.ccd = ccd
	if ccd && k.buf == nil {
		k.buf = make([]byte, 0, stepLine)
	}
}

func (k *stepSink) step(st *flight.Step) error {
	k.done.Add(1)
	if st.Result.Collide {
		k.hits.Add(1)
	}
	if st.Missed {
		k.missed.Add(1)
		if k.ccd && !k.json {
			if err := k.writeMissed(st); err != nil {
				return fmt.Errorf("writing output: %w", err)
			}
		}
	}
	if k.record {
		k.recorded = append(k.recorded, st.Pose)
	}
	if k.json {
		if err := k.writeJSON(st); err != nil {
			return fmt.Errorf("writing output: %w", err)
		}
	}
	return nil
}

// stepFlush is the size past which writeJSON writes its buffer out before
// the line ends, so that a step of many pairs does not hold its whole line.
// stepLine is the most its buffer holds: stepFlush, a pair and the end of
// the line (numbers of up to 20 digits).
const (
	stepFlush = 64 << 10
	stepLine  = stepFlush + 512
)

// writeJSON writes st's line of flight --json,
//
//	{"step":N,"collide":BOOL,"pairs":[[envTri,flyTri],...],"truncated":true,
//	 "stats":{"bv_tests":N,"tri_tests":N,"updates":N},"seconds":S}
//
// ("truncated" only when true) on one line, byte for byte as
// encoding/json writes it, without allocating once its buffer has grown.
func (k *stepSink) writeJSON(st *flight.Step) error {
	r := &st.Result
	b := append(k.buf[:0], `{"step":`...)
	b = strconv.AppendInt(b, int64(st.Index), 10)
	b = append(b, `,"collide":`...)
	b = strconv.AppendBool(b, r.Collide)
	b = append(b, `,"pairs":[`...)
	for i, p := range r.Pairs {
		if len(b) > stepFlush {
			if _, err := k.w.Write(b); err != nil {
				k.buf = b[:0]
				return err
			}
			b = b[:0]
		}
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '[')
		b = strconv.AppendInt(b, int64(p.Env), 10)
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(p.Fly), 10)
		b = append(b, ']')
	}
	b = append(b, ']')
	if r.Truncated {
		b = append(b, `,"truncated":true`...)
	}
	b = append(b, `,"stats":{"bv_tests":`...)
	b = strconv.AppendInt(b, r.Stats.BVTests, 10)
	b = append(b, `,"tri_tests":`...)
	b = strconv.AppendInt(b, r.Stats.TriTests, 10)
	b = append(b, `,"updates":`...)
	b = strconv.AppendInt(b, r.Stats.Updates, 10)
	b = append(b, `,"leaf_tests":`...)
	b = strconv.AppendInt(b, r.Stats.LeafTests, 10)
	b = append(b, `},"seconds":`...)
	b = jsonl.AppendFloat(b, st.Time.Seconds())
	if k.ccd && st.HasCCD {
		b = appendStepCCD(append(b, `,"ccd":`...), st)
	}
	b = append(b, "}\n"...)
	k.buf = b[:0]
	_, err := k.w.Write(b)
	return err
}

// appendStepCCD appends the "ccd" object of st's line of flight --ccd
// --json,
//
//	{"hit":BOOL,"toi":[LO,HI],"pair":[E,F],"maybe":true,"missed":true,"seconds":S}
//
// with toi on a hit or a maybe, pair on a hit, maybe and missed only when
// true, as encoding/json writes it.
func appendStepCCD(b []byte, st *flight.Step) []byte {
	r := &st.CCD
	b = strconv.AppendBool(append(b, `{"hit":`...), r.Hit)
	if r.Hit || r.Maybe {
		b = jsonl.AppendNumber(append(b, `,"toi":[`...), r.TOI.Lo)
		b = jsonl.AppendNumber(append(b, ','), r.TOI.Hi)
		b = append(b, ']')
	}
	if r.Hit {
		b = strconv.AppendInt(append(b, `,"pair":[`...), int64(r.Pair.Env), 10)
		b = strconv.AppendInt(append(b, ','), int64(r.Pair.Fly), 10)
		b = append(b, ']')
	}
	if r.Maybe {
		b = append(b, `,"maybe":true`...)
	}
	if st.Missed {
		b = append(b, `,"missed":true`...)
	}
	b = jsonl.AppendFloat(append(b, `,"seconds":`...), st.CCDTime.Seconds())
	return append(b, '}')
}

// writeMissed writes the line of flight --ccd (text) for st, a step that
// missed a contact between samples:
//
//	step N: missed a contact between steps N-1 and N: at t in [LO, HI], pair E F
func (k *stepSink) writeMissed(st *flight.Step) error {
	b := strconv.AppendInt(append(k.buf[:0], "step "...), int64(st.Index), 10)
	b = strconv.AppendInt(append(b, ": missed a contact between steps "...), int64(st.Index-1), 10)
	b = strconv.AppendInt(append(b, " and "...), int64(st.Index), 10)
	b = strconv.AppendFloat(append(b, ": at t in ["...), st.CCD.TOI.Lo, 'g', -1, 64)
	b = strconv.AppendFloat(append(b, ", "...), st.CCD.TOI.Hi, 'g', -1, 64)
	b = strconv.AppendInt(append(b, "], pair "...), int64(st.CCD.Pair.Env), 10)
	b = strconv.AppendInt(append(b, ' '), int64(st.CCD.Pair.Fly), 10)
	b = append(b, '\n')
	k.buf = b[:0]
	_, err := k.w.Write(b)
	return err
}

// jsonFlight is the last line of flight --json.
type jsonFlight struct {
	Scene     string  `json:"scene"`
	BV        string  `json:"bv"`
	All       bool    `json:"all"`
	Eps       float64 `json:"eps"`
	EnvTris   int     `json:"env_tris"`
	FlyTris   int     `json:"fly_tris"`
	EnvBuild  float64 `json:"env_build_seconds"`
	FlyBuild  float64 `json:"fly_build_seconds"`
	EnvBytes  int64   `json:"env_bytes"`
	FlyBytes  int64   `json:"fly_bytes"`
	Steps     int     `json:"steps"`
	Colliding int     `json:"colliding_steps"`
	Truncated int     `json:"truncated_steps,omitempty"`
	Pairs     int64   `json:"pairs"`
	// The step times, in seconds: the query's own, the flight's
	// preparation before its first step not included (Prepare). Named as
	// in the "ccd" object (they were Mean, Median, P99, P999, Max, Nv, Np,
	// Nu, Nl and Kept before; the README says why they are not kept).
	Mean    float64 `json:"mean"`
	Median  float64 `json:"median"`
	P99     float64 `json:"p99"`
	P999    float64 `json:"p999"`
	Max     float64 `json:"max"`
	Prepare float64 `json:"prepare_seconds"`
	// The counts of the cost model per step.
	Nv float64 `json:"nv"`
	Np float64 `json:"np"`
	Nu float64 `json:"nu"`
	Nl float64 `json:"nl"`
	// Skipped is the pairs of volumes a front skipped per step; Front
	// whether the flight kept a front to its end, FrontSteps the steps
	// that used one.
	Skipped    float64 `json:"front_skipped"`
	Front      bool    `json:"front"`
	FrontSteps int     `json:"front_steps"`
	// CCD holds the continuous queries' figures (--ccd).
	CCD *jsonFlightCCD `json:"ccd,omitempty"`
}

// jsonFlightCCD is the "ccd" object of flight --ccd --json's summary.
type jsonFlightCCD struct {
	Motions int `json:"motions"` // continuous queries: one per step after the first
	Hits    int `json:"hits"`    // motions in contact
	Maybe   int `json:"maybe"`   // motions within rounding of a contact, none proved
	Missed  int `json:"missed"`  // steps that tunnelled past a contact the samples missed
	// The continuous queries' times, in seconds.
	Mean   float64 `json:"mean"`
	Median float64 `json:"median"`
	P99    float64 `json:"p99"`
	Max    float64 `json:"max"`
	// Nv, Np, Nu and Nl per continuous query.
	Nv float64 `json:"nv"`
	Np float64 `json:"np"`
	Nu float64 `json:"nu"`
	Nl float64 `json:"nl"`
}

// jsonCCDSummary returns the "ccd" object of the JSON summary of a flight
// with continuous queries, or nil.
func jsonCCDSummary(s *flightSetup, sum *flight.Summary) *jsonFlightCCD {
	if !s.ccd {
		return nil
	}
	per := func(n int64) float64 {
		if sum.CCDSteps == 0 {
			return 0
		}
		return float64(n) / float64(sum.CCDSteps)
	}
	ts := sum.CCDTimeStats()
	return &jsonFlightCCD{
		Motions: sum.CCDSteps, Hits: sum.CCDHits, Maybe: sum.CCDMaybe, Missed: sum.Missed,
		Mean: ts.Mean.Seconds(), Median: ts.Median.Seconds(), P99: ts.P99.Seconds(), Max: ts.Max.Seconds(),
		Nv: per(sum.CCDStats.BVTests), Np: per(sum.CCDStats.TriTests), Nu: per(sum.CCDStats.Updates), Nl: per(sum.CCDStats.LeafTests),
	}
}

func writeJSONSummary(w io.Writer, s *flightSetup, sum *flight.Summary, q collide.QueryOptions) error {
	ts := sum.TimeStats()
	return jsonl.WriteLine(w, struct {
		Summary jsonFlight `json:"summary"`
	}{jsonFlight{
		Scene: s.name, BV: s.bvName(), All: q.All, Eps: q.Eps,
		EnvTris: len(s.env.Mesh().Tris), FlyTris: len(s.fly.Mesh().Tris),
		EnvBuild: s.envT.Seconds(), FlyBuild: max(s.flyT, 0).Seconds(),
		EnvBytes: modelBytes(s.env), FlyBytes: modelBytes(s.fly),
		Steps: sum.Steps, Colliding: sum.Colliding, Truncated: sum.Truncated, Pairs: sum.Pairs,
		Mean: ts.Mean.Seconds(), Median: ts.Median.Seconds(),
		P99: ts.P99.Seconds(), P999: ts.P999.Seconds(), Max: ts.Max.Seconds(), Prepare: sum.Prepare.Seconds(),
		Nv: sum.Per(sum.Stats.BVTests), Np: sum.Per(sum.Stats.TriTests), Nu: sum.Per(sum.Stats.Updates), Nl: sum.Per(sum.Stats.LeafTests),
		Skipped: sum.Per(sum.Stats.Skipped), Front: sum.Front, FrontSteps: sum.FrontSteps,
		CCD: jsonCCDSummary(s, sum),
	}})
}

// flightPlot is the chart of --plot: the query time of every step.
func flightPlot(s *flightSetup, sum *flight.Summary, q collide.QueryOptions) *plot.LineChart {
	x, y := make([]float64, len(sum.Times)), make([]float64, len(sum.Times))
	for i, d := range sum.Times {
		x[i], y[i] = float64(i), float64(d.Nanoseconds())/1e3
	}
	series := []plot.Series{{Name: s.bvName(), X: x, Y: y}}
	if s.ccd && len(sum.CCDTimes) > 0 {
		// The continuous query of step i (from 1 on) is CCDTimes[i-1].
		cx, cy := make([]float64, len(sum.CCDTimes)), make([]float64, len(sum.CCDTimes))
		for i, d := range sum.CCDTimes {
			cx[i], cy[i] = float64(i+1), float64(d.Nanoseconds())/1e3
		}
		series = append(series, plot.Series{Name: "continuous (--ccd)", X: cx, Y: cy, Dashed: true})
	}
	return &plot.LineChart{
		Title:  fmt.Sprintf("%s: query time per step (%s, %s)", s.name, s.bvName(), modeName(q)),
		XLabel: "step", YLabel: "query time (µs)",
		Series: series,
	}
}

// frontLine says how the flight used front tracking, in words.
func frontLine(sum *flight.Summary) string {
	switch {
	case sum.FrontSteps == 0:
		return "off: every step searched both trees from the top"
	case sum.Front:
		return fmt.Sprintf("on: every step resumed where the last one ended, skipping %.1f pairs of volumes a step (proved still apart)", sum.Per(sum.Stats.Skipped))
	}
	return fmt.Sprintf("off from step %d: resuming each step where the last one ended was slower here than starting from the top, so --front auto stopped it", sum.FrontSteps)
}

// workLine is the summary's line of the mean work of a step: the counts of
// the cost model (help flight explains them) and, with a front, the pairs
// it skipped.
func workLine(sum *flight.Summary) string {
	line := fmt.Sprintf("%.1f volume tests (Nv), %.1f triangle tests (Np), %.1f volume updates (Nu), %.1f leaf tests (Nl)",
		sum.Per(sum.Stats.BVTests), sum.Per(sum.Stats.TriTests), sum.Per(sum.Stats.Updates), sum.Per(sum.Stats.LeafTests))
	if sum.FrontSteps > 0 {
		line += fmt.Sprintf(", %.1f skipped by the front", sum.Per(sum.Stats.Skipped))
	}
	return line
}
