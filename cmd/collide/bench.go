package main

import (
	"cmp"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/collide3d/collide/bench/broadpeers"
	"github.com/collide3d/collide/bench/coherence"
	"github.com/collide3d/collide/bench/continuous"
	"github.com/collide3d/collide/bench/grains"
	"github.com/collide3d/collide/bench/paper"
	"github.com/collide3d/collide/bench/queries"
	"github.com/collide3d/collide/bench/scenes"
	"github.com/collide3d/collide/bench/toolpaths"
	"github.com/collide3d/collide/bench/versus"
	"github.com/collide3d/collide/bench/worlds"
	"github.com/collide3d/collide/scene"
)

type benchOptions struct {
	quick  bool
	out    string
	seed   uint64
	scenes string
	steps  int
	force  bool
	peers  bool
	driver string
	rounds int
	// slowSteps caps the slow systems of --peers (0: bench's default).
	slowSteps int
	// worlds runs the worlds' experiments (package bench/worlds); sizes are
	// their many-body scenes' object counts.
	worlds bool
	sizes  string
	// front runs the front and budget experiments (package
	// bench/coherence).
	front bool
	// ccdPeers compares collide's TimeOfImpact with FCL's continuous
	// collision (package bench/continuous).
	ccdPeers bool
	// nc runs the NC verification experiments (package bench/toolpaths).
	nc bool
	// objects runs the object-level experiments (package bench/objects).
	objects bool
	// queries runs issue 30's rows with every kind (package
	// bench/queries), each query under cap (builds and the driver's runs
	// ten times it), a run past it waited for up to drain.
	queries    bool
	cap, drain time.Duration
	before     string
	// grains runs the medium-grain and concurrent-module experiments
	// (package bench/grains).
	grains bool
	// ch2 runs the dissertation's chapter 2 study (package bench/ch2).
	ch2 bool
	// dops compares the k of k-DOP trees (package bench/dops).
	dops bool
	// ch6 runs the dissertation's chapter 6 experiments (package bench/ch6).
	ch6 bool
}

// defaultBenchDir is where bench writes its report by default.
const defaultBenchDir = "bench-report"

// defaultDriver is where bench/peers/build.sh builds the peers driver,
// relative to the repository's root.
const defaultDriver = "bench/peers/build/collide-peers"

func benchCommand() *command {
	return &command{
		name:  "bench",
		usage: "bench [flags]",
		help: fmt.Sprintf(`
Reproduces the experiments of Klosowski et al. (1998), Tables 1 to 7 and
Fig. 3, on collide's scenes, and writes a markdown report, report.md, with
our figures beside the paper's and the ratios the paper draws, and SVG
charts, to the folder of -o (default %s).

The scenes are the paper's five, %s, and
those of the proximity suite, where every pose touches, nearly touches or
presses:

    %s

gears turns two spur gears in mesh, and the others bring real meshes of
Debian's libcgal-demo package together: a CAD part against a scanned dragon
(dragon), a scanned bull and a scanned camel through the loops of knots
(knot, camel), a CAD part sliding past another (parts), a turbine blade
against a copy of itself (blades), an open half cylinder against a handle
and against a larger copy of itself (handle, cylinders), and a bone against
a thin curved shell, a mask (shell). Install the package with

    %s

(as root), or set %s to a copy of its data.tar.gz; without it,
a run of every scene leaves those scenes out and says so.

Table 1 times the constants of the cost model; Table 2 flies every scene with
6-, 14-, 18- and 26-DOPs, OBBs (the paper's RAPID) and our other trees; Table
3 gives the build times of 18-DOP trees per splitting rule; Tables 4 and 5
fly them with mean and median split points; Tables 6 and 7 count the volume
tests between nested spheres. Every flight finds all pairs at every step.
The last section flies every scene with every kind of tree and with --bv
auto, in both modes, taking turns, and says per scene and mode which kind
auto picked, which was the fastest, and how far the pick was from it
(peers.md ends with the same section).

The full run uses the paper's sizes (about 140,000 triangles per model for
pipes) and takes a while; --quick uses small scenes: about 90 s of
processor time (8 minutes of wall time were measured on a 2-core machine
busy with other work, which gave it a fifth of a core). An existing report
in the folder is kept unless --force is given.

Progress goes to stderr: on a terminal one status line kept up to date;
otherwise (a log, a pipe) a line as each scene or table starts, and the
latest step at most every 10 s, each with the time elapsed.

With --peers, bench instead flies every scene through collide (each bounding
volume, first contact and all pairs) and through FCL, OPCODE, ODE and Bullet
(the program collide-peers, which bench/peers/build.sh installs and builds),
all on the same poses, taking turns for --rounds rounds, and writes
peers.md: per scene and system the build time, memory, mean, p99 and max
query time and the ratio to collide's best, and every step where a system's
answer differs from the brute-force oracle's (all of them in
peers-disagreements.csv). A system slower than 10 ms a query over the first
--slow-steps steps of a flight flies only those (on the full scenes: FCL's
RSS, k-DOP and AABB trees, which copy and refit a model at every query, and
collide's box-trees on Pipes). The driver is found at --driver, or
$COLLIDE_PEERS, or %s.

With --worlds, bench instead runs the experiments of worlds of many objects
and writes worlds.md. First CDFast's (Sanna and Milani): its three scenes
with the torus and with the elongated mover, 10,000 steps each, through its
recursive grid alone (the mover bounded by its spheres at levels of detail
0 to 3, or by its box), counting everything the paper's undefined
"collision number" may mean, and through the exact world (18-DOP trees,
first contact and all pairs), beside the paper's Tables 1 and 2, with its
time against the number of static spheres and the paper's conclusions
checked against our numbers. Then the many-body scenes %s at
10^3, 10^4 and 10^5 objects (--sizes; --scenes picks among them) on every
broad phase, one worker: per step the median and p99 of the broad phase
(bounding the moved objects and finding the pairs) and of the whole step,
the candidate pairs and contacts, and a step with nothing moved. Last, the
exact tests of two scenes on one worker and on every core, shared out in
chunks as the workers go (the default) or in fixed shares (Zachmann's two
schemes). The full run takes about half an hour; --quick (10^3 and 10^4
objects, %d steps, CDFast's paths %d steps) a minute or so. --steps caps
every play.

With --worlds --peers, the many-body scenes' box traces (every object's
world box at every step, as a world bounds it) are replayed through
collide's broad phases and through Bullet's and FCL's (the driver's --broad
mode), each step's pairs checked against a sort and sweep, and the
comparison is written to worlds-peers.md.

With --front, bench instead runs the front experiments of Klosowski's
dissertation (section 6.3.3): the paper's scenes (--scenes picks any) flown
with 6-, 14-, 18- and 26-DOPs, OBB, RSS, sphere, AABB and box-trees, in
both modes, from the roots and with a front (temporal coherence) on the
same poses, every step's answers checked against each other; then, in
first-contact mode, how often a 1 ms deadline and budgets of 1000 and
10000 tests answer a step, and how many resumes a maybe needs. It writes
front.md: per scene and tree the volume tests and the median and maximum
step times with and without the front, the dissertation's conclusions
checked against them, where the front loses, and the budgets. Every
flight is flown --rounds times (default 3), each step timed by the least
of its rounds. --quick takes about a minute.

With --ccd-peers, bench instead compares continuous collision: the motions
(pose i to pose i+1) of the scenes %s
(--scenes picks any; --steps caps their motions) through collide's
TimeOfImpact and through FCL's continuousCollide in the driver
(conservative advancement with screw, linear and translation motions, the
polynomial solver, the naive sampler), every motion's contacts found by
dense exact sampling, and writes ccd-peers.md: per scene and system the
motions where it agrees, misses a contact, invents one, or is late or
early by more than 1e-3 of the motion, and the median and p90 time per
motion (the least of --rounds rounds). The driver is found as with
--peers. The full run takes about half a minute, --quick seconds.

With --nc, bench instead runs the NC verification experiments of
Klosowski's dissertation (chapter 8): zig-zag finishing paths of a
ball-end tool over the terrains %s and the
mold parts %s (--scenes picks any; --steps caps
every program's moves), each checked with every kind of tree: the exact
ball at the moves' ends, the exact ball and its swept volume (package nc),
and polyhedral tools (a ball, a rounded flat end, a nearly conical tool)
at the moves' ends. It writes nc.md: per environment and test the
contacts, the time of each tree (the least of --rounds rounds, default 3)
and OBB ÷ 18-DOP, and the dissertation's conclusions checked against
them. The full run takes about four minutes, --quick about 20 seconds.
With --objects, bench instead runs the object-level experiments of
Zachmann's thesis (sections 3.4.1 and 3.4.2): two spheres, then two
cones, of 2×60, 2×120 and 2×250 triangles tumbling in a cage, each frame
tested with the tree test and with the convex test (--method convex:
the pair's separating plane, GJK for a new one, each proved exactly),
the answers checked to agree at every frame; two cones of 100 triangles
with the plane cache (its hits, new planes and fall-backs to the tree
test beside the thesis's error rates); and a world of 1,000 small convex
objects (--steps steps, default 100) played with each method. It writes
objects.md with the thesis's figures beside ours; times are the least of
--rounds rounds (default 3). The full run takes about a minute, --quick
a few seconds.

With --queries, bench instead times the queries of issue 30 with every
kind of tree: the distance of homer to bull (Debian's libcgal-demo meshes;
those rows are left out, saying so, when they are not installed) at the
diagonal pose and of a ball to a torus far away and in contact, the time
of impact of homer sliding into bull and of a pebble dropped onto a torus
along an axis and off it, and the build of a terrain of 10^6 triangles
(10^5 with --quick), the rows
%s
(--scenes picks any). Each kind runs a row in a process of its own (this
program run again), --rounds times (default 3). It writes queries.md: per row and kind the least and the
median time, the counts, the answer checked against brute force (SweepAll
for a motion) where that is affordable and else against the first kind
that answered, the target (20 ms a query; a build, twice the fastest
k-DOP build) met or not, and for the builds the heap allocated, its peak,
the model's size and the process's. No query can stall the run: a process
whose query passes --cap (default 10s, 500ms with --quick; a build, brute
force or a driver's run ten times that) is killed and the row shows
"> cap"; --drain waits up to that much more first, to give its time. With
--peers, FCL's distance queries answer the same poses and the driver's
systems build the same terrain (the driver found as with --peers). With
--before FILE, every kind runs every row in FILE too, right before this
program: a collide built from an earlier commit that has --queries, for
figures before and after a change in one run.
--quick takes well under a minute on an idle machine.

With --grains, bench instead measures Zachmann's other parallel modes
against the coarse grain: the medium grain (one pair of models on two
goroutines) on two tori of about 2×42, 2×132, 2×442 triangles and bigger
(--sizes: the triangles per torus), 18-DOP trees and box-trees, both
modes, sequential and medium, every pose's answers compared, beside the
thesis's speed-ups; the same flights as a world of two objects on one
worker, two (dynamic and static: the coarse grain) and two with the medium
grain; and the concurrent module (world.Concurrent) beside an
application's loop of 40 moving tori, its frame rate and the results' lag
in frames against World.Step called in the loop. It writes grains.md.
--steps sets the poses and frames (default 1000, 200 with --quick),
--rounds the rounds (default 3, 2 with --quick). --quick takes about ten
seconds.`+benchCh2Help+benchDopsHelp,
			defaultBenchDir, strings.Join(scenes.PaperNames(), ", "), strings.Join(scenes.ProximityNames(), ", "), scenes.CGALInstall, scenes.CGALDataEnv, defaultDriver,
			strings.Join(worlds.Scenes, ", "), worlds.QuickSteps, worlds.QuickCDFastSteps,
			strings.Join(continuous.SceneNames, ", "), strings.Join(toolpaths.Terrains, ", "), strings.Join(toolpaths.Molds, ", "),
			strings.Join(queries.SceneNames(), ", ")) + benchCh6Help,
		flags: func(fs *flag.FlagSet) any {
			o := &benchOptions{}
			fs.BoolVar(&o.quick, "quick", false, "small scenes and short flights (about 90 s of processor time)")
			fs.StringVar(&o.out, "o", defaultBenchDir, "write the report and charts to `DIR`")
			intFlag(fs, &o.seed, "seed", 1, "random `SEED` of the scenes and their paths")
			fs.StringVar(&o.scenes, "scenes", "", "fly only the scenes of the comma-separated `LIST` (default all)")
			intFlag(fs, &o.steps, "steps", 0, "cap every flight at `N` steps (default: the scenes' lengths)")
			fs.BoolVar(&o.force, "force", false, "overwrite an existing report in DIR")
			fs.BoolVar(&o.peers, "peers", false, "compare collide with FCL, OPCODE, ODE and Bullet (see below)")
			fs.StringVar(&o.driver, "driver", "", "with --peers: the peers driver `FILE` (default $COLLIDE_PEERS or "+defaultDriver+")")
			intFlag(fs, &o.rounds, "rounds", 0, "with --peers: fly every system `N` times, taking turns (default 3, or 2 with --quick); with --front: fly every flight N times, each step timed by its least (default 3); with --queries: run every row N times with each kind (default 3); with --ch6: replay every flight N times, each variant timed by its least (default 3, 2 with --quick)")
			intFlag(fs, &o.slowSteps, "slow-steps", 0, "with --peers: a system slower than 10 ms a query over a flight's first `N` steps flies only those (default 100; -1: no cap)")
			fs.BoolVar(&o.worlds, "worlds", false, "run the worlds' experiments instead: CDFast's, many bodies, cores (see below)")
			fs.BoolVar(&o.front, "front", false, "run the front-tracking and budget experiments instead (see below)")
			fs.BoolVar(&o.ccdPeers, "ccd-peers", false, "compare collide's continuous collision with FCL's instead (see below)")
			fs.BoolVar(&o.nc, "nc", false, "run the NC tool-path verification experiments instead (see below)")
			fs.BoolVar(&o.objects, "objects", false, "run the convex-object and separating-plane experiments instead (see below)")
			fs.BoolVar(&o.queries, "queries", false, "time issue 30's queries and builds with every kind instead (see below)")
			fs.DurationVar(&o.cap, "cap", 0, "with --queries: kill a query past `D` and report it as \"> cap\" (default 10s, 500ms with --quick)")
			fs.StringVar(&o.before, "before", "", "with --queries: run every row in the collide program `FILE` too (built from an earlier commit with bench --queries), before this one")
			fs.DurationVar(&o.drain, "drain", 0, "with --queries: wait up to `D` more for a query past its cap (default 0)")
			fs.StringVar(&o.sizes, "sizes", "", "with --worlds: the many-body scenes' object counts, a comma-separated `LIST` (default 1000,10000,100000; 1000,10000 with --quick); with --grains: the tori's triangles")
			fs.BoolVar(&o.grains, "grains", false, "measure the medium grain and the concurrent module instead (see below)")
			fs.BoolVar(&o.ch2, "ch2", false, "run the dissertation's chapter 2 study (grid, k-d tree, R-tree, mesh) instead (see below)")
			fs.BoolVar(&o.dops, "dops", false, "compare the k of k-DOP trees, the dissertation's 8, 12 and 20 among them, instead (see below)")
			fs.BoolVar(&o.ch6, "ch6", false, "run the dissertation's chapter 6 tree-design experiments instead (see below)")
			return o
		},
		run: runBench,
	}
}

func runBench(e *env, opts any, args []string) error {
	o := opts.(*benchOptions)
	if len(args) > 0 {
		return usagef("bench takes no arguments (got %q)", args[0])
	}
	if o.steps < 0 || o.steps > maxFlightSteps {
		return usagef("--steps must be within [0, %d], not %d (a flight keeps every step's query time)", maxFlightSteps, o.steps)
	}
	if o.rounds < 0 {
		return usagef("--rounds must be >= 0, not %d", o.rounds)
	}
	if o.dops {
		return runBenchDops(e, o)
	}
	if o.queries {
		return runQueries(e, o)
	}
	if o.cap != 0 || o.drain != 0 || o.before != "" {
		return usagef("--cap, --drain and --before go with --queries")
	}
	if o.grains {
		return runGrains(e, o)
	}
	if o.ch2 {
		return runBenchCh2(e, o)
	}
	if o.ch6 {
		return runBenchCh6(e, o)
	}
	if o.ccdPeers {
		return runCCDPeers(e, o)
	}
	if o.nc {
		return runBenchNC(e, o)
	}
	if o.objects {
		return runBenchObjects(e, o)
	}
	if !o.peers && (o.driver != "" || (o.rounds != 0 && !o.front) || o.slowSteps != 0) {
		return usagef("--driver, --rounds and --slow-steps go with --peers (and --rounds with --front)")
	}
	if o.slowSteps < -1 {
		return usagef("--slow-steps must be a count of steps, or -1 for no cap, not %d", o.slowSteps)
	}
	if o.front && (o.worlds || o.peers) {
		return usagef("--front does not go with --worlds or --peers")
	}
	if o.worlds {
		return runWorlds(e, o)
	}
	if o.sizes != "" {
		return usagef("--sizes goes with --worlds")
	}
	c := paper.Config{Seed: o.seed, Steps: o.steps}
	if o.quick {
		c.Size = scenes.Quick
	}
	if o.scenes != "" {
		for _, s := range strings.Split(o.scenes, ",") {
			if !slices.Contains(scenes.Names(), s) {
				return usagef("--scenes: unknown scene %q (available: %s)", s, strings.Join(scenes.Names(), ", "))
			}
			c.Scenes = append(c.Scenes, s)
		}
	}
	if o.out == "" {
		return usagef("-o must name a folder")
	}
	if o.front {
		return runFront(e, o, c)
	}
	if o.peers {
		return runPeers(e, o, c)
	}
	report, err := reportFile(o, "report.md")
	if err != nil {
		return err
	}

	var r *paper.Report
	withStatus(e, "bench", func(progress func(string)) {
		c.Progress = progress
		r, err = paper.Run(context.Background(), c)
	})
	if err != nil {
		return err
	}
	for _, ch := range r.Charts() {
		path := filepath.Join(o.out, ch.Name)
		if err := writeFileAtomic(path, true, ch.SVG.WriteSVG); err != nil {
			return err
		}
	}
	if err := writeFileAtomic(report, o.force, func(w io.Writer) error { return r.WriteMarkdown(w) }); err != nil {
		return err
	}
	printSkipped(e, r.Skipped)
	_, err = fmt.Fprintf(e.stdout, "wrote %s and %d charts (%s)\n", report, len(r.Charts()), r.Elapsed.Round(time.Second))
	return err
}

// runPeers runs bench --peers.
func runPeers(e *env, o *benchOptions, bc paper.Config) error {
	driver, err := peersDriver(o)
	if err != nil {
		return err
	}
	report := filepath.Join(o.out, "peers.md")
	disagreements := filepath.Join(o.out, "peers-disagreements.csv")
	for _, f := range []string{report, disagreements} {
		if err := keep(f, o.force); err != nil {
			return err
		}
	}
	if err := os.MkdirAll(o.out, 0o755); err != nil {
		return err
	}
	c := versus.Config{Size: bc.Size, Seed: bc.Seed, Scenes: bc.Scenes, Steps: bc.Steps, Driver: driver, Rounds: o.rounds,
		SlowSteps: o.slowSteps, BVs: append(slices.Clone(paper.TableBVs), versus.AutoBV)}
	var r *versus.Report
	withStatus(e, "bench --peers", func(progress func(string)) {
		c.Progress = progress
		r, err = versus.Run(context.Background(), c)
	})
	if err != nil {
		return err
	}
	if err := writeFileAtomic(disagreements, o.force, r.WriteDisagreementsCSV); err != nil {
		return err
	}
	if err := writeFileAtomic(report, o.force, func(w io.Writer) error {
		if err := r.WriteMarkdown(w); err != nil {
			return err
		}
		return r.WriteAutoMarkdown(w, "##")
	}); err != nil {
		return err
	}
	printSkipped(e, r.Skipped)
	_, err = fmt.Fprintf(e.stdout, "wrote %s: %d systems, %d scenes, %d wrong answers (%s)\n",
		report, len(r.Systems), len(r.Scenes), len(r.Disagreements), r.Elapsed.Round(time.Second))
	return err
}

// runFront runs bench --front.
func runFront(e *env, o *benchOptions, bc paper.Config) error {
	report, err := reportFile(o, "front.md")
	if err != nil {
		return err
	}
	c := coherence.Config{Size: bc.Size, Seed: bc.Seed, Scenes: bc.Scenes, Steps: bc.Steps, Rounds: o.rounds}
	var r *coherence.Report
	withStatus(e, "bench --front", func(progress func(string)) {
		c.Progress = progress
		r, err = coherence.Run(context.Background(), c)
	})
	if err != nil {
		return err
	}
	if err := writeFileAtomic(report, o.force, r.WriteMarkdown); err != nil {
		return err
	}
	_, err = fmt.Fprintf(e.stdout, "wrote %s: %d flights, %d with budgets (%s)\n", report, len(r.Flights), len(r.Budgets), r.Elapsed.Round(time.Second))
	return err
}

// runCCDPeers runs bench --ccd-peers.
func runCCDPeers(e *env, o *benchOptions) error {
	switch {
	case o.peers || o.worlds || o.front:
		return usagef("--ccd-peers does not go with --peers, --worlds or --front")
	case o.slowSteps != 0 || o.sizes != "":
		return usagef("--slow-steps and --sizes do not go with --ccd-peers")
	case o.steps < 0 || o.rounds < 0:
		return usagef("--steps and --rounds must be >= 0")
	case o.out == "":
		return usagef("-o must name a folder")
	}
	names := continuous.SceneNames
	if o.scenes != "" {
		names = nil
		for _, s := range strings.Split(o.scenes, ",") {
			if !slices.Contains(continuous.SceneNames, s) {
				return usagef("--scenes: with --ccd-peers, the scenes are %s (not %q)", strings.Join(continuous.SceneNames, ", "), s)
			}
			names = append(names, s)
		}
	}
	driver, err := peersDriver(o)
	if err != nil {
		return err
	}
	report, err := reportFile(o, "ccd-peers.md")
	if err != nil {
		return err
	}
	c := continuous.Config{Quick: o.quick, Seed: o.seed, Driver: driver, Rounds: o.rounds}
	for _, name := range names {
		s, err := continuous.SceneNamed(name, o.quick, o.seed)
		if err != nil {
			return err
		}
		if o.steps > 0 && s.Motions() > o.steps {
			s.Poses = s.Poses[:o.steps+1]
		}
		c.Scenes = append(c.Scenes, s)
	}
	var r *continuous.Report
	withStatus(e, "bench --ccd-peers", func(progress func(string)) {
		c.Progress = progress
		r, err = continuous.Run(context.Background(), c)
	})
	if err != nil {
		return err
	}
	if err := writeFileAtomic(report, o.force, r.WriteMarkdown); err != nil {
		return err
	}
	motions, systems := 0, 0
	for _, s := range r.Scenes {
		motions += len(s.Motions)
		systems = max(systems, len(s.Rows))
	}
	_, err = fmt.Fprintf(e.stdout, "wrote %s: %d systems, %d scenes, %d motions (%s)\n", report, systems, len(r.Scenes), motions, r.Elapsed.Round(time.Second))
	return err
}

// runQueries runs bench --queries.
func runQueries(e *env, o *benchOptions) error {
	switch {
	case o.worlds || o.front || o.ccdPeers || o.nc:
		return usagef("--queries does not go with --worlds, --front, --ccd-peers or --nc")
	case o.steps != 0 || o.slowSteps != 0 || o.sizes != "":
		return usagef("--steps, --slow-steps and --sizes do not go with --queries")
	case o.cap < 0 || o.drain < 0:
		return usagef("--cap and --drain must be durations >= 0")
	case o.driver != "" && !o.peers:
		return usagef("--driver goes with --peers")
	case o.out == "":
		return usagef("-o must name a folder")
	}
	if o.before != "" {
		if _, err := os.Stat(o.before); err != nil {
			return fmt.Errorf("--before: %w", err)
		}
	}
	c := queries.Config{Quick: o.quick, Rounds: o.rounds, Cap: o.cap, Drain: o.drain, Before: o.before}
	if o.scenes != "" {
		all := queries.Scenes(o.quick)
		c.Scenes = []queries.Scene{}
		for _, s := range strings.Split(o.scenes, ",") {
			i := slices.IndexFunc(all, func(sc queries.Scene) bool { return sc.Name == s })
			if i < 0 {
				return usagef("--scenes: with --queries, the rows are %s (not %q)", strings.Join(queries.SceneNames(), ", "), s)
			}
			c.Scenes = append(c.Scenes, all[i])
		}
	}
	if o.peers {
		driver, err := peersDriver(o)
		if err != nil {
			return err
		}
		c.Driver = driver
	}
	report, err := reportFile(o, "queries.md")
	if err != nil {
		return err
	}
	var r *queries.Report
	withStatus(e, "bench --queries", func(progress func(string)) {
		c.Progress = progress
		r, err = queries.Run(context.Background(), c)
	})
	if err != nil {
		return err
	}
	if err := writeFileAtomic(report, o.force, r.WriteMarkdown); err != nil {
		return err
	}
	printSkipped(e, r.Skipped)
	met, runs := 0, 0
	for _, row := range r.Rows {
		for _, res := range row.Results {
			if !res.Peer && !res.Before {
				runs++
				if res.Met(row.Target) {
					met++
				}
			}
		}
	}
	_, err = fmt.Fprintf(e.stdout, "wrote %s: %d rows, %d of %d runs within their target (%s)\n", report, len(r.Rows), met, runs, r.Elapsed.Round(time.Second))
	return err
}

// runWorlds runs bench --worlds (and --worlds --peers).
func runWorlds(e *env, o *benchOptions) error {
	if o.slowSteps != 0 {
		return usagef("--slow-steps does not go with --worlds")
	}
	var names []string
	if o.scenes != "" {
		for _, s := range strings.Split(o.scenes, ",") {
			if !slices.Contains(worlds.Scenes, s) {
				return usagef("--scenes: with --worlds, the scenes are %s (not %q)", strings.Join(worlds.Scenes, ", "), s)
			}
			names = append(names, s)
		}
	}
	var sizes []int
	if o.sizes != "" {
		for _, f := range strings.Split(o.sizes, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(f))
			if err != nil || n < 1 || n > scene.MaxObjects {
				return usagef("--sizes: %q is not a count of objects in [1, %d]", f, scene.MaxObjects)
			}
			sizes = append(sizes, n)
		}
	}
	if o.out == "" {
		return usagef("-o must name a folder")
	}
	if o.peers {
		return runWorldsPeers(e, o, names, sizes)
	}
	report, err := reportFile(o, "worlds.md")
	if err != nil {
		return err
	}
	c := worlds.Config{Seed: o.seed, Quick: o.quick, Sizes: sizes, Scenes: names, Steps: o.steps}
	if o.steps > 0 {
		c.CDFast.Steps = min(o.steps, scene.CDFastSteps)
	}
	var r *worlds.Report
	withStatus(e, "bench --worlds", func(progress func(string)) {
		c.Progress = progress
		r, err = worlds.Run(context.Background(), c)
	})
	if err != nil {
		return err
	}
	if err := writeFileAtomic(report, o.force, r.WriteMarkdown); err != nil {
		return err
	}
	_, err = fmt.Fprintf(e.stdout, "wrote %s (%s)\n", report, r.Elapsed.Round(time.Second))
	return err
}

// runWorldsPeers runs bench --worlds --peers.
func runWorldsPeers(e *env, o *benchOptions, names []string, sizes []int) error {
	driver, err := peersDriver(o)
	if err != nil {
		return err
	}
	report, err := reportFile(o, "worlds-peers.md")
	if err != nil {
		return err
	}
	c := broadpeers.Config{Seed: o.seed, Quick: o.quick, Sizes: sizes, Scenes: names, Steps: o.steps, Driver: driver, Rounds: o.rounds}
	var r *broadpeers.Report
	withStatus(e, "bench --worlds --peers", func(progress func(string)) {
		c.Progress = progress
		r, err = broadpeers.Run(context.Background(), c)
	})
	if err != nil {
		return err
	}
	if err := writeFileAtomic(report, o.force, r.WriteMarkdown); err != nil {
		return err
	}
	_, err = fmt.Fprintf(e.stdout, "wrote %s: %d systems, %d scenes (%s)\n", report, len(r.Systems), len(r.Scenes), r.Elapsed.Round(time.Second))
	return err
}

// peersDriver returns the peers driver's path: --driver, else
// $COLLIDE_PEERS, else the one bench/peers/build.sh builds; an error if
// there is nothing there.
func peersDriver(o *benchOptions) (string, error) {
	driver := cmp.Or(o.driver, os.Getenv("COLLIDE_PEERS"), defaultDriver)
	if _, err := os.Stat(driver); err != nil {
		return "", fmt.Errorf("the peers driver %s: %w (build it with bench/peers/build.sh, or name it with --driver)", driver, err)
	}
	return driver, nil
}

// printSkipped says on stderr which scenes a run left out, and why.
func printSkipped(e *env, skipped []string) {
	for _, s := range skipped {
		fmt.Fprintf(e.stderr, "collide bench: left out: %s\n", s)
	}
}

// reportFile returns the path of the report name in o.out, which it makes;
// an existing report is an error unless o.force (see keep).
func reportFile(o *benchOptions, name string) (string, error) {
	report := filepath.Join(o.out, name)
	if err := keep(report, o.force); err != nil {
		return "", err
	}
	return report, os.MkdirAll(o.out, 0o755)
}

// statusEvery is how often, at most, withStatus prints a progress line that
// does not begin a stage when stderr is not a terminal (a variable for
// tests).
var statusEvery = 10 * time.Second

// withStatus runs work, showing on a terminal a progress line made of name,
// the last line work passed to its progress function, and the time elapsed.
// When stderr is not a terminal (a log, a pipe), it prints instead one line
// per stage, as go test -v does per test: each progress line that begins a
// stage (see stageLine: a scene, a table), and otherwise the latest line
// at most every statusEvery, so that a redirected run shows where it is.
func withStatus(e *env, name string, work func(progress func(string))) {
	if !isTerminal(e.stderr) {
		start := time.Now()
		var mu sync.Mutex
		var last time.Time
		work(func(line string) {
			mu.Lock()
			defer mu.Unlock()
			now := time.Now()
			if !stageLine(line) && now.Sub(last) < statusEvery {
				return
			}
			last = now
			fmt.Fprintf(e.stderr, "collide %s: %s (%.0f s)\n", name, line, now.Sub(start).Seconds())
		})
		return
	}
	var mu sync.Mutex
	status := "starting"
	progress := func(line string) {
		mu.Lock()
		status = line
		mu.Unlock()
	}
	withTicker(e, true, func(elapsed time.Duration) string {
		mu.Lock()
		defer mu.Unlock()
		return fmt.Sprintf("%s: %s (%.0f s)", name, status, elapsed.Seconds())
	}, func() { work(progress) })
}

// stageLine reports whether a progress line of package bench begins a stage
// of its run: a scene made ("making scene torus", "auto: making scene
// torus", "making fins and its program") or one of paper.Run's tables
// ("table 1: ...", "tables 6 and 7: ...").
func stageLine(line string) bool {
	line = strings.TrimPrefix(line, "auto: ")
	return strings.HasPrefix(line, "making ") || strings.HasPrefix(line, "tables 6 and 7:") ||
		strings.HasPrefix(line, "table 1: costs of "+paper.TableBVs[0])
}

// runGrains runs bench --grains.
func runGrains(e *env, o *benchOptions) error {
	switch {
	case o.peers || o.worlds || o.front || o.ccdPeers || o.nc:
		return usagef("--grains does not go with --peers, --worlds, --front, --ccd-peers or --nc")
	case o.scenes != "" || o.slowSteps != 0 || o.driver != "":
		return usagef("--scenes, --slow-steps and --driver do not go with --grains")
	case o.out == "":
		return usagef("-o must name a folder")
	}
	var sizes []int
	if o.sizes != "" {
		for _, f := range strings.Split(o.sizes, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(f))
			if err != nil || n < 18 || n > 1<<22 {
				return usagef("--sizes: with --grains, %q is not a count of triangles in [18, %d]", f, 1<<22)
			}
			sizes = append(sizes, n)
		}
	}
	report, err := reportFile(o, "grains.md")
	if err != nil {
		return err
	}
	c := grains.Config{Seed: o.seed, Quick: o.quick, Sizes: sizes, Frames: o.steps, Rounds: o.rounds}
	var r *grains.Report
	withStatus(e, "bench --grains", func(progress func(string)) {
		c.Progress = progress
		r, err = grains.Run(context.Background(), c)
	})
	if err != nil {
		return err
	}
	if err := writeFileAtomic(report, o.force, r.WriteMarkdown); err != nil {
		return err
	}
	_, err = fmt.Fprintf(e.stdout, "wrote %s (%s)\n", report, r.Elapsed.Round(time.Second))
	return err
}
