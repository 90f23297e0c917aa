package main

import (
	"bufio"
	"flag"
	"fmt"
	"math"
	"os"
	"strings"
	"sync/atomic"
	"time"

	"github.com/collide3d/collide/internal/jsonl"
	srcpkg "github.com/collide3d/collide/internal/source"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/flight"
	"github.com/collide3d/collide/geom"
)

type checkOptions struct {
	build     buildFlags
	all       bool
	pose      string
	poses     string
	eps       float64
	json      bool
	restart   bool
	exactRoot bool
	maxPairs  int64
	// ccd asks for the continuous query of each motion from a pose to the
	// next (--ccd).
	ccd bool
	// deadline bounds each motion's continuous query (--deadline; 0: none).
	deadline time.Duration
	// contacts asks for each pair's contact geometry and the patches
	// (--contacts); depth for the patches' depth intervals (--depth).
	contacts, depth bool
	// solid treats both models as solids (--solid).
	solid bool
	// method is the exact test (--method); methodSet says that --method
	// was given, which adds the convex test's counts to --json's stats.
	method    string
	methodSet bool
}

func checkCommand() *command {
	return &command{
		name:  "check",
		usage: "check [flags] ENV FLY",
		help: fmt.Sprintf(`
Builds (or loads, if saved) a collision model for each of ENV and FLY once,
with %s trees unless --bv says otherwise (the fastest kind measured: see
--bv below), then tests FLY, placed at each pose, against ENV at the
identity pose, and prints one result per pose.

ENV and FLY are mesh files (.obj, .stl, .ply, .off, .gltf, .glb; one mesh
of a glTF file as FILE#NAME), generated models
gen:KIND[:key=value,...] (run 'collide gen' for the kinds), e.g.
  collide check gen:torus gen:icosphere:radius=0.4
or models saved by 'collide build' (recognised by their first bytes,
whatever the extension; .collide is the suggested one), which load without
building.

A pose is 12 numbers "r00 r01 r02 r10 r11 r12 r20 r21 r22 tx ty tz": a rotation
matrix R, row-major, and a translation t; a vertex x of FLY goes to R·x + t.
Without --pose or --poses FLY is tested at the identity pose.

Poses are numbered from 0 in the order given. With --json each pose prints one
line (JSON Lines):
  {"pose":N,"collide":BOOL,"pairs":[[envTri,flyTri],...],
   "stats":{"bv_tests":N,"tri_tests":N,"updates":N},"seconds":S}
pairs are triangle indices, ascending; without --all it holds the first pair
found (or none); seconds is the time of the query alone. Each pose is
answered independently of the poses before it (the query forgets the last
first contact before each pose, as the batch calls do): a pose prints the
same pair wherever it comes in the file, so a file may be split and its
parts checked apart (the Beam pipeline, collide-beam, does so). Output streams: a
pose with more than %d pairs prints the first %d sorted, then the others
as they are found (seconds then includes writing them), so memory stays the
same however many pairs there are. --max-pairs N stops each pose's query
after N pairs; a pose stopped so, with more pairs than N, says so
("truncated":true in JSON, after the pairs).

--solid treats ENV and FLY as solids, the volumes their surfaces bound:
a pose where one is inside the other, their surfaces apart, is a contact
too, with no pair; it prints "collide: fly inside env" (or "env inside
fly"), and with --json "inside":"fly" (or "env") after the pairs (the key
only then). It is decided exactly, by one vertex of each connected
component of each surface, placed as the query places FLY, against the
other solid (an exact winding number). Both models must be closed,
manifold and consistently oriented meshes: another is an error naming
the file and what breaks (a boundary, non-manifold or misoriented edge;
'collide info' lists them). --solid with --ccd or --contacts is a usage
error.

--contacts adds the geometry of each pair (with or without --all): how
the two triangles meet (touch, or cross: one surface passes through the
other), the vertices of the point, segment or polygon they share, a unit
normal from ENV's triangle towards FLY's and a bound on the distance of
each computed point from the exact one; then the contact patches (pairs
joined through the edges and vertices their triangles share), each with
its contacts, a representative point and normal, its intersection curves,
a manifold of at most 4 points and, with --depth, a certified interval for
the penetration depth along its normal (package depth; closed meshes only,
unknown otherwise). --depth is not the default because it searches the
penetration of the two solids, which takes seconds to minutes (measured:
4.7 s for two crossing 5,000-triangle spheres, where the contacts took
8 ms; the bunny against itself, 5,897 pairs, had not finished in 5
minutes). With --json each line gains, after the pairs,
  "contacts":[{"pair":[envTri,flyTri],"kind":"touch"|"cross","points":[[x,y,z],...],
    "normal":[x,y,z],"bound":B},...],
  "patches":[{"contacts":[I,...],"pairs":[[envTri,flyTri],...],"point":[x,y,z],
    "normal":[x,y,z],"depth":[LO,HI] or null,"manifold":[[x,y,z],...],
    "curves":[[[x,y,z],...],...]},...]
contacts in the order of pairs, each patch's contacts indexing them; with
--eps > 0 a pair that does not touch has kind "apart" and its points are
its two closest points (ENV's, then FLY's). Numbers have the fewest digits
that read back as the same float64. In text each contact is a line (its
pair, kind, points, normal, bound), then each patch. A pose's pairs and
contacts are held in memory, not streamed; seconds includes computing the
contacts, patches and depths.

On a terminal, stderr keeps a status line (the poses, or with --ccd the
motions, done of the total, the time) once the queries have run a second.

A pose that is not finite, whose rotation is not orthonormal (to within
1e-6), or that moves a vertex of FLY beyond the float64 range is an error
naming the pose.

Bounding volumes (--bv): %s.
The default is %s: measured on the built-in scenes and on real meshes, it
was the fastest kind to the first contact, to all pairs and to the time of
impact nearly everywhere, and never more than 1.6x slower than the fastest
(where 18-DOPs, the library's default, were up to 4x slower). It builds
about 2.5x slower than 18-DOPs: for one pose of large models --bv kdop18
answers sooner (75,000 and 89,000 triangles: 0.5 s against 1.2 s), over
many poses AABB trees do (3,000 poses: 1.3 s against 2.4 s), and 'collide
build' saves the trees for many runs. brute tests every pair (the oracle).
--rule, --split, --env-leaf, --leaf and --compact (k-DOP bounds in 8
bits each: less than half the memory, queries 5 to 30%% slower) choose how
the hierarchies are built; --restart and --exact-root choose traversal
variants, for experiments.

--method chooses the exact test: tree walks the two trees; convex first
looks for a plane separating the two models' vertices (GJK, the plane
proved exactly for the computed coordinates) and leaves the pose to the
tree test when there is none; auto, the default, takes convex for two
models whose topology is convex (see 'collide info'), tree otherwise. The
answers are the same; in text, a pose a plane decided says "apart by a
plane" beside its counts (bv tests and tri tests are then 0); with --json
and --method given, each line's stats add "convex", "plane_hits" and
"plane_new" when the convex test ran (and with --solid, "solid_tests"
when point-in-solid tests ran). Each pose
starts without the plane of the pose before, as it forgets the first
contact.

--bv auto chooses the kind for the pair of models: it builds the candidate
trees (aabb, kdop14, kdop18, kdop26, obb) of both and times their queries
at (up to 40 of) the poses given, in the mode asked, before the first
query, keeping only the fastest kind's trees; it says on stderr what it
chose and how the candidates measured. A saved model checked with --bv
auto is one of its candidates.

A saved model keeps the options it was built with: a --bv, --rule, --split,
--env-leaf, --leaf or --compact given explicitly that differs from them is a usage
error, and a mesh checked against a saved model is built with the saved
model's options unless the flags say otherwise. ENV and FLY may both be
saved, with different bounding volumes: k-DOPs of different k fly together
as they are; for other volumes FLY's hierarchy of ENV's volume is built
first.

--ccd asks, instead, whether FLY touches ENV while it moves from each pose
of --poses to the next (continuous collision), and when first: N poses
make N-1 motions, numbered from 0, motion i going from pose i (t = 0) to
pose i+1 (t = 1). The translation moves linearly in t; the rotation turns
at a constant rate about a fixed axis (the shorter way). A motion that does
not turn (the two rotation matrices equal) is decided exactly, every
vertex moving on a straight line; a turning one by bisection of time, its
answer "maybe" where the models pass within rounding of each other with
no contact proved. Each motion prints one result; with --json a line
  {"motion":I,"hit":BOOL,"toi":[LO,HI],"pair":[envTri,flyTri],"maybe":BOOL,
   "stats":{"bv_tests":N,"tri_tests":N,"updates":N,"leaf_tests":N,"spans":N},"seconds":S}
where, on a hit, the earliest time of contact t lies in [LO, HI] (at most
2^-40 wide for a motion that does not turn, 2^-35 for one that turns,
except a stretch the poses' rounding leaves undecided right before a
contact proved at a sampled pose; [0,0] when the models touch at pose i)
and pair is two triangles that touch then; spans counts the spans of time
a turning motion's search visited (a pair of triangles answers maybe after
65,536 in one window of the motion), exact the pairs of triangles decided
by the exact primitives (tri_tests counts every pair the search reached,
most of them screened out by their distance); toi and pair are printed
only on a hit (toi also on a maybe: the span where the models come within
rounding, no contact proved before LO). seconds is the time of the query
alone. --deadline DURATION (e.g. 20ms) bounds each motion's query: one
that runs out stops, says so ("stopped":true; "stopped" in text) and
prints what it proved: no contact before LO of its toi (with a hit, the
earliest contact lies in [LO, HI], however wide; without one, HI is 1).
The
continuous query reports the earliest contact only, exactly: --ccd with
--all, --max-pairs, a non-zero --eps, --restart or --exact-root is a usage
error, as is --ccd without --poses or with a file of fewer than 2 poses,
and --deadline without --ccd.
--bv brute tests every pair of triangles (the oracle); --bv auto chooses
the kind by timing first-contact queries at the poses.`,
			defaultBV, sortLimit, sortLimit, bvNames(collide.BVs()), defaultBV),
		flags: func(fs *flag.FlagSet) any {
			o := &checkOptions{}
			o.build.define(fs, collide.BVs())
			fs.BoolVar(&o.all, "all", false, "report every intersecting triangle pair (default: stop at the first contact)")
			fs.StringVar(&o.pose, "pose", "", "one `POSE`: 12 numbers \"r00 r01 r02 r10 r11 r12 r20 r21 r22 tx ty tz\" (default identity)")
			fs.StringVar(&o.poses, "poses", "", "read poses from `FILE`: one pose a line, the same 12 numbers; blank lines and # comments skipped")
			floatFlag(fs, &o.eps, "eps", 0, "tolerance `X` >= 0: report pairs at distance <= X (0: exact contact)")
			fs.BoolVar(&o.json, "json", false, "print JSON Lines, one object per pose")
			intFlag(fs, &o.maxPairs, "max-pairs", 0, "with --all, stop each pose's query after `N` pairs and say so (0: no limit)")
			fs.BoolVar(&o.restart, "restart", false, "use the restart-at-the-root traversal variant (for experiments)")
			fs.BoolVar(&o.exactRoot, "exact-root", false, "bound the flying root by its exact k-DOP (hill climbing on its convex hull) instead of tumbling")
			fs.BoolVar(&o.ccd, "ccd", false, "continuous collision: when FLY first touches ENV moving from each pose of --poses to the next")
			fs.BoolVar(&o.contacts, "contacts", false, "print each pair's contact (kind, points, normal) and the contact patches")
			fs.BoolVar(&o.depth, "depth", false, "with --contacts, bound each patch's penetration depth along its normal (closed meshes)")
			fs.BoolVar(&o.solid, "solid", false, "treat ENV and FLY as solids: one inside the other is a contact (closed, oriented meshes only)")
			o.method = "auto"
			fs.Func("method", "the exact `TEST`: auto (convex for two convex models, else tree), tree or convex (default auto)", func(v string) error {
				o.method, o.methodSet = v, true
				return nil
			})
			fs.DurationVar(&o.deadline, "deadline", 0, "with --ccd, stop each motion's query after `DURATION` (e.g. 20ms) and say what it proved (0: no limit)")
			return o
		},
		run: runCheck,
	}
}

func runCheck(e *env, opts any, args []string) error {
	o := opts.(*checkOptions)
	if len(args) != 2 {
		return usagef("need 2 models, ENV and FLY; got %d", len(args))
	}
	bo, err := o.build.options()
	if err != nil {
		return err
	}
	if math.IsNaN(o.eps) || math.IsInf(o.eps, 0) || o.eps < 0 {
		return usagef("--eps must be a finite number >= 0, not %v", o.eps)
	}
	if o.pose != "" && o.poses != "" {
		return usagef("give --pose or --poses, not both")
	}
	for _, f := range []struct{ name, value string }{{"pose", o.pose}, {"poses", o.poses}} {
		if o.build.given(f.name) && strings.TrimSpace(f.value) == "" {
			return usagef("--%s is empty (omit it for the identity pose)", f.name)
		}
	}
	if o.maxPairs < 0 {
		return usagef("--max-pairs must be >= 0, not %d", o.maxPairs)
	}
	method, err := collide.ParseMethod(o.method)
	if err != nil {
		return usagef("--method: %s", strings.TrimPrefix(err.Error(), "collide: "))
	}
	if o.ccd {
		if err := checkCCDUsage(o); err != nil {
			return err
		}
	}
	switch {
	case o.deadline < 0:
		return usagef("--deadline must be >= 0, not %v", o.deadline)
	case o.deadline != 0 && !o.ccd:
		return usagef("--deadline bounds the continuous query: it needs --ccd")
	case o.contacts && o.ccd:
		return usagef("--contacts with --ccd: the continuous query reports a time and a pair, not contact geometry")
	case o.depth && !o.contacts:
		return usagef("--depth bounds the depth of the contact patches: it needs --contacts")
	case o.solid && o.ccd:
		return usagef("--solid with --ccd: the continuous query reports when the surfaces first touch, not containment")
	case o.solid && o.contacts:
		return usagef("--solid with --contacts: a model inside the other has no contact geometry to print")
	}

	poses, envModel, flyModel, err := posesAndModels(e, "check", args, o, &o.build, bo)
	if err != nil {
		return err
	}
	if o.solid {
		if err := checkSolids(args, envModel, flyModel); err != nil {
			return err
		}
	}
	if o.ccd {
		return checkMotions(e, o, poses, envModel, flyModel)
	}
	if o.contacts {
		return checkContacts(e, o, poses, envModel, flyModel)
	}

	var done atomic.Int64
	status := startStatus(e, true, statusAfter, func(el time.Duration) string { return progressLine("check", "pose", done.Load(), len(poses), el) })
	defer status.end()
	w := bufio.NewWriter(status.output(e.stdout))
	fl := newFlusher(w)
	q := collide.QueryOptions{All: o.all, Eps: o.eps, Solid: o.solid, Method: method, Experiment: collide.Experiment{Restart: o.restart, ExactRoot: o.exactRoot}}
	pp := &pairPrinter{w: w, json: o.json, all: o.all, max: o.maxPairs, convex: o.methodSet}
	var query collide.Query
	// Build what the first query would (the flying view, the scratch)
	// before the clock starts, so that each pose's time is its own.
	if err := query.Prepare(envModel, flyModel, q); err != nil {
		return err
	}
	var hits int
	var total time.Duration
	for i, p := range poses {
		pp.begin(i)
		start := time.Now()
		// Each pose is answered as if alone: the pair at first contact
		// does not depend on the poses before it.
		query.Forget()
		st, err := query.Each(envModel, flyModel, p, q, pp.add)
		d := time.Since(start)
		if err != nil {
			w.Flush()
			return poseError(o, i, err)
		}
		total += d
		in := query.Inside()
		if pp.n > 0 || in != collide.NotInside {
			hits++
		}
		pp.end(st, in, d)
		done.Store(int64(i + 1))
		if pp.err != nil {
			return fmt.Errorf("writing output: %w", pp.err)
		}
		if err := fl.tick(); err != nil {
			return fmt.Errorf("writing output: %w", err)
		}
	}
	if !o.json && len(poses) > 1 {
		fmt.Fprintf(w, "%d poses, %d in contact, %s querying\n", len(poses), hits, fmtDuration(total))
	}
	if err := w.Flush(); err != nil {
		return fmt.Errorf("writing output: %w", err)
	}
	return nil
}

// checkSolids returns the error of --solid for models that bound no
// solid: it names the file (args: ENV's, then FLY's) and what breaks.
func checkSolids(args []string, envModel, flyModel *collide.Model) error {
	for i, m := range []*collide.Model{envModel, flyModel} {
		if _, err := m.Solid(); err != nil {
			return fmt.Errorf("%s: --solid: %s", args[i], strings.TrimPrefix(err.Error(), "collide: "))
		}
	}
	return nil
}

// poseError is the error of the query of pose i, naming the pose and
// where it came from.
func poseError(o *checkOptions, i int, err error) error {
	src := ""
	switch {
	case o.poses != "":
		src = " of " + o.poses
	case o.pose != "":
		src = " (--pose)"
	}
	return fmt.Errorf("pose %d%s: %s", i, src, strings.TrimPrefix(err.Error(), "collide: "))
}

// buildModels loads ENV and FLY (once, when they are the same argument) and
// builds those that are meshes. Saved models are used as they are: their
// options must agree with the flags given explicitly, and meshes are built
// with a saved model's options (ENV's first) where no flag is given. When
// ENV and FLY are saved with bounding volumes that do not fly together,
// FLY's companion of ENV's volume is built (collide.Model.WithBV).
func buildModels(e *env, envArg, flyArg string, f *buildFlags, bo collide.BuildOptions) (envModel, flyModel *collide.Model, err error) {
	envSrc, flySrc, bo, err := loadSources(e, envArg, flyArg, f, bo)
	if err != nil {
		return nil, nil, err
	}
	return srcpkg.BuildPair(envSrc, flySrc, bo, f.pairOptions(e))
}

// loadSources loads ENV and FLY (once, when they are the same argument),
// checks that saved models agree with the flags given explicitly, and
// returns the build options of the meshes: bo with a saved model's
// options (ENV's first) where no flag is given (srcpkg.LoadPair).
func loadSources(e *env, envArg, flyArg string, f *buildFlags, bo collide.BuildOptions) (envSrc, flySrc *source, _ collide.BuildOptions, err error) {
	envSrc, flySrc, bo, err = srcpkg.LoadPair(envArg, flyArg, bo, f.pairOptions(e))
	return envSrc, flySrc, bo, usageOf(err)
}

// pairOptions are the options of srcpkg.LoadPair and BuildPair for the
// flags f: the flags given explicitly, and progress on stderr.
func (f *buildFlags) pairOptions(e *env) srcpkg.PairOptions {
	return srcpkg.PairOptions{
		Given:      f.given,
		AgreeGiven: func(name string) bool { return f.given(name) && !(name == "bv" && f.isAuto()) },
		Load:       func(arg string) (*source, error) { return loadSource(e, arg) },
		Build:      func(s *source, bo collide.BuildOptions) (*collide.Model, error) { return buildWithProgress(e, s, bo) },
		WithBV: func(fly *collide.Model, bv collide.BV, envArg, flyArg string, n int) (m *collide.Model, err error) {
			withTicker(e, n > buildProgressMin, func(elapsed time.Duration) string {
				return fmt.Sprintf("building %s as %s, for %s: %d triangles, %.1f s", flyArg, bv, envArg, n, elapsed.Seconds())
			}, func() {
				m, err = fly.WithBV(bv)
			})
			return m, err
		},
	}
}

// hasTriangles returns an error naming s if its mesh has no triangle:
// there is nothing to test or build.
func hasTriangles(s *source) error { return s.HasTriangles() }

type jsonStats struct {
	BVTests  int64 `json:"bv_tests"`
	TriTests int64 `json:"tri_tests"`
	Updates  int64 `json:"updates"`
	Leaf     int64 `json:"leaf_tests"`
}

// jsonPairs returns the pairs as [env, fly] arrays ([] rather than null when
// there are none).
func jsonPairs(pairs []collide.Pair) [][2]int32 {
	out := make([][2]int32, len(pairs))
	for j, p := range pairs {
		out[j] = [2]int32{p.Env, p.Fly}
	}
	return out
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func fmtDuration(d time.Duration) string {
	ms := float64(d) / float64(time.Millisecond)
	switch {
	case ms < 10:
		return fmt.Sprintf("%.3g ms", ms)
	case ms < 10000:
		return fmt.Sprintf("%.0f ms", ms)
	default:
		return fmt.Sprintf("%.1f s", d.Seconds())
	}
}

// parsePose parses the 12 numbers of a pose (flight.ParsePose).
func parsePose(s string) (geom.Pose, error) { return flight.ParsePose(s) }

// readPoseFile reads a pose file (flight.ReadPoses). Errors name the file
// and the line.
func readPoseFile(path string) ([]geom.Pose, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	poses, err := flight.ReadPoses(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return poses, nil
}

// posesAndModels reads the poses of where's --pose or --poses (the
// identity if neither), then builds ENV and FLY (args), and checks that
// every pose places FLY, before anything is printed: a bad pose file fails
// before the models load. With --bv auto, the models are those chosen
// for where's mode and tolerance at the poses (chooseForPoses), and the
// command cmd says so on stderr.
func posesAndModels(e *env, cmd string, args []string, where *checkOptions, b *buildFlags, bo collide.BuildOptions) ([]geom.Pose, *collide.Model, *collide.Model, error) {
	poses := []geom.Pose{geom.Identity()}
	switch {
	case where.pose != "":
		p, err := parsePose(where.pose)
		if err != nil {
			return nil, nil, nil, usagef("--pose: %v", err)
		}
		poses[0] = p
	case where.poses != "":
		var err error
		if poses, err = readPoseFile(where.poses); err != nil {
			return nil, nil, nil, err
		}
		if err := recordOfModels(where.poses, args[0], args[1]); err != nil {
			return nil, nil, nil, err // a flight record of other models (record.go)
		}
	}
	if where.ccd && len(poses) < 2 {
		return nil, nil, nil, usagef("--ccd needs at least 2 poses, a motion from each to the next; %s has %d", where.poses, len(poses))
	}
	if b.isAuto() {
		envModel, flyModel, err := chooseForPoses(e, cmd, args, where, b, bo, poses)
		return poses, envModel, flyModel, err
	}
	envModel, flyModel, err := buildModels(e, args[0], args[1], b, bo)
	if err != nil {
		return nil, nil, nil, err
	}
	for i, p := range poses {
		if err := flyModel.CheckPose(p); err != nil {
			return nil, nil, nil, poseError(where, i, err)
		}
	}
	return poses, envModel, flyModel, nil
}

// checkCCDUsage returns the usage error of check --ccd's flags, if any:
// the continuous query needs motions (--poses) and reports the earliest
// contact of each, exactly, so the flags of the discrete queries do not
// apply.
func checkCCDUsage(o *checkOptions) error {
	const why = "a continuous query reports the earliest contact of each motion, exactly"
	switch {
	case o.poses == "" && o.pose != "":
		return usagef("--ccd needs --poses FILE, for a motion from each pose to the next (--pose gives one pose, no motion)")
	case o.poses == "":
		return usagef("--ccd needs --poses FILE, for a motion from each pose to the next")
	case o.all:
		return usagef("--ccd with --all: %s, not every pair", why)
	case o.maxPairs != 0:
		return usagef("--ccd with --max-pairs: %s, a single pair", why)
	case o.eps != 0:
		return usagef("--ccd with --eps %s: %s (at distance 0, with no tolerance)", formatFloat(o.eps), why)
	case o.restart:
		return usagef("--ccd with --restart: --restart is a variant of the discrete traversal, which --ccd does not run")
	case o.exactRoot:
		return usagef("--ccd with --exact-root: --exact-root is a variant of the discrete traversal, which --ccd does not run")
	}
	return nil
}

// checkMotions runs check --ccd: the continuous query of FLY against ENV
// moving from each pose to the next, printing each motion's result as it
// comes, then, in text, a summary.
func checkMotions(e *env, o *checkOptions, poses []geom.Pose, envModel, flyModel *collide.Model) error {
	var query collide.Query
	// Build what the first query would (the flying view, the scratch)
	// before the clock starts, so that each motion's time is its own.
	if err := query.Prepare(envModel, flyModel, collide.QueryOptions{}); err != nil {
		return err
	}
	var done atomic.Int64
	status := startStatus(e, true, statusAfter, func(el time.Duration) string {
		return progressLine("check --ccd", "motion", done.Load(), len(poses)-1, el)
	})
	defer status.end()
	w := bufio.NewWriter(status.output(e.stdout))
	fl := newFlusher(w)
	var hits, maybes, stopped int
	var total time.Duration
	var b []byte
	for i := range len(poses) - 1 {
		start := time.Now()
		var to collide.TOIOptions
		if o.deadline > 0 {
			to.Budget.Deadline = start.Add(o.deadline)
		}
		r, err := query.TimeOfImpactWith(envModel, flyModel, poses[i], poses[i+1], to)
		d := time.Since(start)
		if err != nil {
			w.Flush()
			return fmt.Errorf("motion %d (poses %d and %d of %s): %s", i, i, i+1, o.poses, strings.TrimPrefix(err.Error(), "collide: "))
		}
		total += d
		done.Store(int64(i + 1))
		switch {
		case r.Hit:
			hits++
		case r.Maybe:
			maybes++
		}
		if r.Stopped {
			stopped++
		}
		if o.json {
			b = jsonl.AppendMotion(b[:0], i, &r, d)
		} else {
			b = appendMotionText(b[:0], i, &r, d)
		}
		if _, err := w.Write(b); err != nil {
			return fmt.Errorf("writing output: %w", err)
		}
		if err := fl.tick(); err != nil {
			return fmt.Errorf("writing output: %w", err)
		}
	}
	if n := len(poses) - 1; !o.json && n > 1 {
		fmt.Fprintf(w, "%d motions, %d in contact", n, hits)
		if maybes > 0 {
			fmt.Fprintf(w, ", %d maybe", maybes)
		}
		if stopped > 0 {
			fmt.Fprintf(w, ", %d stopped at the deadline", stopped)
		}
		fmt.Fprintf(w, ", %s querying\n", fmtDuration(total))
	}
	if err := w.Flush(); err != nil {
		return fmt.Errorf("writing output: %w", err)
	}
	return nil
}

// appendMotionText appends the line of check --ccd for motion i, whose
// query answered r in d.
func appendMotionText(b []byte, i int, r *collide.TOIResult, d time.Duration) []byte {
	st := r.Stats
	stats := fmt.Sprintf("bv tests %d, tri tests %d, exact %d, updates %d, leaf tests %d, %s", st.BVTests, st.TriTests, r.Exact, st.Updates, st.LeafTests, fmtDuration(d))
	if r.Spans > 0 {
		stats = fmt.Sprintf("spans of time %d, %s", r.Spans, stats)
	}
	if r.Stopped {
		stats = "stopped at the deadline, " + stats
		if !r.Hit && !r.Maybe {
			return fmt.Appendf(b, "motion %d: no contact before t = %s (%s)\n", i, formatFloat(r.TOI.Lo), stats)
		}
	}
	switch {
	case r.Hit:
		return fmt.Appendf(b, "motion %d: collide at t in [%s, %s], pair %d %d (%s)\n",
			i, formatFloat(r.TOI.Lo), formatFloat(r.TOI.Hi), r.Pair.Env, r.Pair.Fly, stats)
	case r.Maybe:
		return fmt.Appendf(b, "motion %d: maybe: within rounding of contact at t in [%s, %s], no contact proved (%s)\n",
			i, formatFloat(r.TOI.Lo), formatFloat(r.TOI.Hi), stats)
	}
	return fmt.Appendf(b, "motion %d: no contact (%s)\n", i, stats)
}
