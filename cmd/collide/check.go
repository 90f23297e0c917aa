package main

import (
	"bufio"
	"cmp"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strings"
	"time"

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
}

func checkCommand() *command {
	return &command{
		name:  "check",
		usage: "check [flags] ENV FLY",
		help: fmt.Sprintf(`
Builds (or loads, if saved) a collision model for each of ENV and FLY once,
then tests FLY, placed at each pose, against ENV at the identity pose, and
prints one result per pose.

ENV and FLY are mesh files (.obj, .stl, .ply, .off), generated models
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
found (or none); seconds is the time of the query alone.

Bounding volumes (--bv): %s.
The default is %s; brute tests every pair (the oracle). --rule, --split,
--env-leaf and --leaf choose how the hierarchies are built; --restart and
--exact-root choose traversal variants, for experiments.

A saved model keeps the options it was built with: a --bv, --rule, --split,
--env-leaf or --leaf given explicitly that differs from them is a usage
error, and a mesh checked against a saved model is built with the saved
model's options unless the flags say otherwise. ENV and FLY may both be
saved, with different bounding volumes.`,
			strings.Join(collide.BVNames(), ", "), collide.BVDefault),
		flags: func(fs *flag.FlagSet) any {
			o := &checkOptions{}
			o.build.define(fs, collide.BVNames())
			fs.BoolVar(&o.all, "all", false, "report every intersecting triangle pair (default: stop at the first contact)")
			fs.StringVar(&o.pose, "pose", "", "one `POSE`: 12 numbers \"r00 r01 r02 r10 r11 r12 r20 r21 r22 tx ty tz\" (default identity)")
			fs.StringVar(&o.poses, "poses", "", "read poses from `FILE`: one pose a line, the same 12 numbers; blank lines and # comments skipped")
			fs.Float64Var(&o.eps, "eps", 0, "tolerance `X` >= 0: report pairs at distance <= X (0: exact contact)")
			fs.BoolVar(&o.json, "json", false, "print JSON Lines, one object per pose")
			fs.BoolVar(&o.restart, "restart", false, "use the restart-at-the-root traversal variant (for experiments)")
			fs.BoolVar(&o.exactRoot, "exact-root", false, "bound the flying root by its exact k-DOP (hill climbing on its convex hull) instead of tumbling")
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

	// Read the poses first: a bad pose file fails before the models load.
	poses := []geom.Pose{geom.Identity()}
	switch {
	case o.pose != "":
		p, err := parsePose(o.pose)
		if err != nil {
			return usagef("--pose: %v", err)
		}
		poses[0] = p
	case o.poses != "":
		var err error
		if poses, err = readPoseFile(o.poses); err != nil {
			return err
		}
	}

	envModel, flyModel, err := buildModels(e, args[0], args[1], &o.build, bo)
	if err != nil {
		return err
	}

	w := bufio.NewWriter(e.stdout)
	lastFlush := time.Now()
	q := collide.QueryOptions{All: o.all, Eps: o.eps, Restart: o.restart, ExactRoot: o.exactRoot}
	var hits int
	var total time.Duration
	for i, p := range poses {
		start := time.Now()
		res := collide.Check(envModel, flyModel, p, q)
		d := time.Since(start)
		total += d
		if res.Collide {
			hits++
		}
		slices.SortFunc(res.Pairs, func(a, b collide.Pair) int {
			return cmp.Or(cmp.Compare(a.Env, b.Env), cmp.Compare(a.Fly, b.Fly))
		})
		if o.json {
			err = writeJSONResult(w, i, res, d)
		} else {
			err = writeTextResult(w, i, res, d, o.all)
		}
		if err != nil {
			return err
		}
		if time.Since(lastFlush) > 100*time.Millisecond {
			if err := w.Flush(); err != nil {
				return fmt.Errorf("writing output: %w", err)
			}
			lastFlush = time.Now()
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

// buildModels loads ENV and FLY (once, when they are the same argument) and
// builds those that are meshes. Saved models are used as they are: their
// options must agree with the flags given explicitly, and meshes are built
// with a saved model's options (ENV's first) where no flag is given.
func buildModels(e *env, envArg, flyArg string, f *buildFlags, bo collide.BuildOptions) (envModel, flyModel *collide.Model, err error) {
	envSrc, err := loadSource(e, envArg)
	if err != nil {
		return nil, nil, err
	}
	flySrc := envSrc
	if flyArg != envArg {
		if flySrc, err = loadSource(e, flyArg); err != nil {
			return nil, nil, err
		}
	}
	for _, s := range []*source{envSrc, flySrc} {
		if s.saved != nil {
			if err := f.agree(s, bo); err != nil {
				return nil, nil, err
			}
		}
	}
	for _, s := range []*source{flySrc, envSrc} { // ENV's options win
		if s.saved != nil {
			bo = f.inherit(bo, s.saved)
		}
	}
	build := func(s *source) (*collide.Model, error) {
		if s.saved != nil {
			return s.saved, nil
		}
		return buildWithProgress(e, s, bo)
	}
	if envModel, err = build(envSrc); err != nil {
		return nil, nil, err
	}
	if flySrc == envSrc {
		return envModel, envModel, nil
	}
	if flyModel, err = build(flySrc); err != nil {
		return nil, nil, err
	}
	return envModel, flyModel, nil
}

// jsonResult is one line of check --json. The field order is the documented
// one.
type jsonResult struct {
	Pose    int        `json:"pose"`
	Collide bool       `json:"collide"`
	Pairs   [][2]int32 `json:"pairs"`
	Stats   jsonStats  `json:"stats"`
	Seconds float64    `json:"seconds"`
}

type jsonStats struct {
	BVTests  int64 `json:"bv_tests"`
	TriTests int64 `json:"tri_tests"`
	Updates  int64 `json:"updates"`
}

func writeJSONResult(w io.Writer, i int, res collide.Result, d time.Duration) error {
	r := jsonResult{
		Pose:    i,
		Collide: res.Collide,
		Pairs:   jsonPairs(res.Pairs),
		Stats:   jsonStats{res.Stats.BVTests, res.Stats.TriTests, res.Stats.Updates},
		Seconds: d.Seconds(),
	}
	return writeJSONLine(w, r)
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

// writeJSONLine writes v as one line of JSON.
func writeJSONLine(w io.Writer, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

func writeTextResult(w io.Writer, i int, res collide.Result, d time.Duration, all bool) error {
	s := res.Stats
	stats := fmt.Sprintf("bv tests %d, tri tests %d, updates %d, %s", s.BVTests, s.TriTests, s.Updates, fmtDuration(d))
	var err error
	switch {
	case !res.Collide:
		_, err = fmt.Fprintf(w, "pose %d: no contact (%s)\n", i, stats)
	case all:
		_, err = fmt.Fprintf(w, "pose %d: collide, %d %s (%s)\n", i, len(res.Pairs), plural(len(res.Pairs), "pair", "pairs"), stats)
		for _, p := range res.Pairs {
			if err != nil {
				break
			}
			_, err = fmt.Fprintf(w, "    %d %d\n", p.Env, p.Fly)
		}
	default:
		first := ""
		if len(res.Pairs) > 0 {
			first = fmt.Sprintf(", first pair %d %d", res.Pairs[0].Env, res.Pairs[0].Fly)
		}
		_, err = fmt.Fprintf(w, "pose %d: collide%s (%s)\n", i, first, stats)
	}
	return err
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
