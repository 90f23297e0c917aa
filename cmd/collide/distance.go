package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/collide3d/collide/internal/jsonl"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/depth"
	"github.com/collide3d/collide/geom"
)

type distanceOptions struct {
	build    buildFlags
	pose     string
	poses    string
	max      float64
	deadline time.Duration
	json     bool
	signed   bool
	solid    bool
}

// distanceProgressMin is the number of poses from which distance shows its
// status line on stderr (a terminal) at once while stdout is not one
// (otherwise after statusAfter). A variable for the tests.
var distanceProgressMin = 1000

// distanceStatusAfter is when distance's status line of n poses shows.
func distanceStatusAfter(e *env, n int) time.Duration {
	if n >= distanceProgressMin && !isTerminal(e.stdout) {
		return 0
	}
	return statusAfter
}

func distanceCommand() *command {
	return &command{
		name:  "distance",
		usage: "distance [flags] ENV FLY",
		help: fmt.Sprintf(`
Builds (or loads, if saved) a collision model for each of ENV and FLY once,
with %s trees unless --bv says otherwise (the fastest kind measured for
distance: see --bv below), then computes, for FLY placed at each pose,
its distance to ENV at the identity pose: the smallest distance between a
triangle of ENV and one of FLY, with the two witness triangles and their
closest points. It prints one result per pose.

ENV and FLY are models as in check: mesh files (.obj, .stl, .ply, .off,
.gltf, .glb; FILE#NAME for one mesh of a glTF file),
generated models gen:KIND[:key=value,...] (run 'collide gen' for the kinds)
or models saved by 'collide build'. Poses are given as in check (--pose,
--poses; the identity without either) and numbered from 0 in the order
given.

The distance is 0 exactly when two triangles are in contact (as check
decides it, exactly: touching counts), and otherwise within bound of the
exact distance of the triangles as the pose places them. The witness
points are both in ENV's frame (FLY's point is on FLY's triangle at the
pose); on contact they are the same point, common to the two triangles.
Triangles are named by their index in their file.

The search takes the pairs of nodes of the two hierarchies best first, by
a certified lower bound on the distance of their triangles, so that the
best distance found prunes the rest early; the first pair of triangles in
contact ends it.

--max D is a cut-off: only triangles closer than D are looked for, and a
pose with none is reported far, often much sooner than its distance would
be found. 0, the default, is no cut-off.

--deadline DURATION (e.g. 2ms) stops each pose's search when it runs
out: the pose is then reported stopped, with the smallest distance found
so far (an upper bound, its witnesses valid) and a certified lower bound
(the least bound of the pairs left): an approximate answer, cheaply. The
search looks at the clock every 256 pairs of nodes.

With --json each pose prints one line (JSON Lines):
  {"pose":N,"distance":D,"bound":B,"env":I,"fly":J,"p_env":[X,Y,Z],"p_fly":[X,Y,Z],
   "stats":{"bv_tests":N,"tri_tests":N,"updates":N,"leaf_tests":N},"seconds":S}
or, for a pose with nothing closer than the cut-off,
  {"pose":N,"far":true,"max":D,"stats":{...},"seconds":S}
A pose stopped at the deadline adds "stopped":true,"lower":L to the
first form (without distance, bound, env, fly and the points if nothing
was found below the cut-off). Numbers are printed with as many digits as
read back the same float64; seconds is the time of the query alone.
Without --json each pose prints a line, and more than one pose a summary:
the number of poses, in contact, stopped and far, the least, median and
largest distance, and the time querying.

--solid treats ENV and FLY as solids, the volumes their surfaces bound:
the distance is 0 when a vertex of one is inside the other (one inside
the other, or their surfaces crossing), decided exactly before the search
by one vertex of each connected component of each surface; the pose then
prints "contact: fly inside env" (or "env inside fly") and the vertex,
with --json
  {"pose":N,"distance":0,"inside":"fly"|"env","p_env":[X,Y,Z],"p_fly":[X,Y,Z],
   "stats":{...},"seconds":S}
(the key "inside" only then; both points are the vertex). Both models must
be closed, manifold and consistently oriented meshes: another is an error
naming the file and what breaks. --solid with --signed is a usage error.

--signed prints the signed distance instead (depth.SignedDistance): the
distance when the models are apart, 0 when they touch, and, when both are
closed meshes whose solids interpenetrate, minus the length of a
translation of FLY certified to separate them, with a certified interval
[lower, upper] holding the translational penetration depth (exact for two
convex meshes). Each pose's line names its kind: apart, touching (the
surfaces meet and the solids are certified not to interpenetrate),
penetrating (the surfaces meet, or one solid holds a part of the other,
and the solids are not certified apart: lower > 0 proves the
interpenetration, lower = 0 leaves a touch that the certificates cannot
tell possible) or overlapping (the surfaces meet and a mesh is not
closed: no depth). A solid inside the other is penetrating, not apart.
Penetrating poses print the move (a translation of FLY that separates
the solids), the depth interval and, found by the non-convex search, a
witness point inside both. --deadline then bounds the depth search (the
pose is reported stopped, its interval certified, wider); --max applies
to the distance apart. The depth search suits meshes of up to a few
thousand triangles (see package depth); larger ones take seconds a pose.
With --json each pose prints
  {"pose":N,"kind":"apart","signed":D,"bound":B,"env":I,"fly":J,
   "p_env":[X,Y,Z],"p_fly":[X,Y,Z],"stats":{...},"seconds":S}
where kind is apart, touching, penetrating or overlapping; a penetrating
pose adds "depth":[LOWER,UPPER],"move":[X,Y,Z],"exact":BOOL (and
"witness":[X,Y,Z] when found, "stopped":true when the deadline stopped
it); an overlapping one "open":"env" or "fly", the mesh that is not
closed; a pose farther than --max "far":true,"max":D without signed;
"depth_stats":{"directions":N,"certificates":N,"points":N,"tests":N}
counts the depth search's work.

Bounding volumes (--bv): %s.
The default is %s (rectangle swept spheres), the fastest for distance
measured: on generated and real meshes (a torus and a sphere, bull and
homer of libcgal-demo, at random poses near and far) its median and 90th
percentile query were the least or within the noise of the least, OBB
and spheres next (2-3x at the 90th percentile), the k-DOPs and aabb up to
20x slower there, boxtree (whose cut boxes bound little) 10-100x. RSS
trees build about 7x slower than 18-DOPs (a 10^6-triangle terrain: 7 s
against 1 s): for one pose of large models --bv kdop26 may answer sooner;
'collide build --bv rss' saves the trees for many runs. When --bv is not
given, distance says on stderr which kind it uses, if stderr is a
terminal, stdout is not, and no progress line is kept there. brute tests
every pair (the oracle).
--bv auto chooses the kind as check does (timing first-contact queries,
not distances, at the poses given: it may choose a kind slow for
distance); it says on stderr what it chose. --rule, --split, --env-leaf
and --leaf choose how the hierarchies are built. Saved models keep their
options, as in check.

On a terminal, stderr keeps a status line (the poses done, the time) once
the queries have run for a second; with many poses (%d or more), while
stdout is not a terminal, from the start.`,
			defaultDistanceBV, bvNames(collide.BVs()), defaultDistanceBV, distanceProgressMin),
		flags: func(fs *flag.FlagSet) any {
			o := &distanceOptions{}
			o.build.defineWith(fs, collide.BVs(), defaultDistanceBV)
			fs.StringVar(&o.pose, "pose", "", "one `POSE`: 12 numbers \"r00 r01 r02 r10 r11 r12 r20 r21 r22 tx ty tz\" (default identity)")
			fs.StringVar(&o.poses, "poses", "", "read poses from `FILE`: one pose a line, the same 12 numbers; blank lines and # comments skipped")
			floatFlag(fs, &o.max, "max", 0, "cut-off `D` >= 0: look only for triangles closer than D, else report the pose far (0: none)")
			fs.DurationVar(&o.deadline, "deadline", 0, "stop each pose's search after `DURATION` (e.g. 5ms), printing the best distance found and a lower bound (0: none)")
			fs.BoolVar(&o.json, "json", false, "print JSON Lines, one object per pose")
			fs.BoolVar(&o.solid, "solid", false, "treat ENV and FLY as solids: the distance is 0 when one is inside the other (closed, oriented meshes only)")
			fs.BoolVar(&o.signed, "signed", false, "print the signed distance: negative, a certified penetration bound, when closed meshes interpenetrate")
			return o
		},
		run: runDistance,
	}
}

func runDistance(e *env, opts any, args []string) error {
	o := opts.(*distanceOptions)
	if len(args) != 2 {
		return usagef("need 2 models, ENV and FLY; got %d", len(args))
	}
	bo, err := o.build.options()
	if err != nil {
		return err
	}
	if !(o.max >= 0 && o.max <= math.MaxFloat64) {
		return usagef("--max must be a finite number >= 0, not %v", o.max)
	}
	if o.deadline < 0 {
		return usagef("--deadline must be a duration >= 0, not %v", o.deadline)
	}
	if o.pose != "" && o.poses != "" {
		return usagef("give --pose or --poses, not both")
	}
	for _, f := range []struct{ name, value string }{{"pose", o.pose}, {"poses", o.poses}} {
		if o.build.given(f.name) && strings.TrimSpace(f.value) == "" {
			return usagef("--%s is empty (omit it for the identity pose)", f.name)
		}
	}
	if o.solid && o.signed {
		return usagef("--solid with --signed: the signed distance treats closed meshes as solids already (a solid inside the other is penetrating)")
	}
	// poseError names poses as check's do.
	where := &checkOptions{pose: o.pose, poses: o.poses}

	poses, envModel, flyModel, err := posesAndModels(e, "distance", args, where, &o.build, bo)
	if err != nil {
		return err
	}
	if o.solid {
		if err := checkSolids(args, envModel, flyModel); err != nil {
			return err
		}
	}

	// The default kind is said on stderr, a terminal, when stdout is not
	// (the note would mix with the results) and the status line is not
	// kept there from the start (the note would break it).
	if !o.build.given("bv") && envModel.BV() == defaultDistanceBV && isTerminal(e.stderr) && !isTerminal(e.stdout) &&
		distanceStatusAfter(e, len(poses)) > 0 {
		fmt.Fprintf(e.stderr, "collide distance: %s trees (the fastest for distance measured; --bv to choose)\n", defaultDistanceBV)
	}
	var query collide.Query
	// Build what the first query would before the clock starts, so that
	// each pose's time is its own.
	if err := query.Prepare(envModel, flyModel, collide.QueryOptions{}); err != nil {
		return err
	}
	if o.signed {
		return runSigned(e, o, where, poses, envModel, flyModel)
	}
	var done atomic.Int64
	status := startStatus(e, true, distanceStatusAfter(e, len(poses)), func(elapsed time.Duration) string {
		return fmt.Sprintf("distance: pose %d of %d, %.1f s", done.Load(), len(poses), elapsed.Seconds())
	})
	defer status.end()
	w := bufio.NewWriter(status.output(e.stdout))
	dp := &distancePrinter{w: w, json: o.json, max: o.max}
	dists := make([]float64, 0, len(poses)) // of the poses not far
	var contacts, stopped int
	var total time.Duration
	func() {
		fl := newFlusher(w)
		for i, p := range poses {
			start := time.Now()
			do := collide.DistanceOptions{Max: o.max, Solid: o.solid}
			if o.deadline > 0 {
				do.Budget.Deadline = start.Add(o.deadline)
			}
			r, qerr := query.Distance(envModel, flyModel, p, do)
			d := time.Since(start)
			if qerr != nil {
				w.Flush()
				err = poseError(where, i, qerr)
				return
			}
			total += d
			if r.Stopped {
				stopped++
			} else if !r.Far {
				dists = append(dists, r.Distance)
				if r.Distance == 0 {
					contacts++
				}
			}
			if werr := dp.print(i, &r, d); werr != nil {
				err = fmt.Errorf("writing output: %w", werr)
				return
			}
			done.Store(int64(i + 1))
			if werr := fl.tick(); werr != nil {
				err = fmt.Errorf("writing output: %w", werr)
				return
			}
		}
	}()
	if err != nil {
		return err
	}
	if !o.json && len(poses) > 1 {
		fmt.Fprintf(w, "%s\n", distanceSummary(len(poses), contacts, stopped, dists, o.max, total))
	}
	if err := w.Flush(); err != nil {
		return fmt.Errorf("writing output: %w", err)
	}
	return nil
}

// distanceSummary is the last line of distance in text: the poses, those
// in contact, far and stopped at the deadline, the least, median and
// largest distance of those neither far nor stopped (which it sorts) and
// the time querying.
func distanceSummary(n, contacts, stopped int, dists []float64, max float64, total time.Duration) string {
	s := fmt.Sprintf("%d poses, %d in contact", n, contacts)
	if stopped > 0 {
		s += fmt.Sprintf(", %d stopped at the deadline", stopped)
	}
	if far := n - len(dists) - stopped; max > 0 {
		s += fmt.Sprintf(", %d farther than %s", far, formatFloat(max))
	}
	if len(dists) > 0 {
		slices.Sort(dists)
		s += fmt.Sprintf("; distance least %s, median %s, largest %s",
			formatFloat(dists[0]), formatFloat(dists[len(dists)/2]), formatFloat(dists[len(dists)-1]))
	}
	return s + fmt.Sprintf("; %s querying", fmtDuration(total))
}

// distancePrinter prints the result of each pose of distance, in text or
// as JSON Lines.
type distancePrinter struct {
	w    *bufio.Writer
	json bool
	max  float64
	b    []byte
}

// print prints the result r of pose i, which took d.
func (p *distancePrinter) print(i int, r *collide.DistanceResult, d time.Duration) error {
	if p.json {
		p.b = jsonl.AppendDistance(p.b[:0], i, r, p.max, d)
		_, err := p.w.Write(p.b)
		return err
	}
	st := r.Stats
	stats := fmt.Sprintf("bv tests %d, tri tests %d, updates %d, leaf tests %d, %s%s", st.BVTests, st.TriTests, st.Updates, st.LeafTests, solidStats(st), fmtDuration(d))
	var err error
	switch {
	case r.Stopped && r.Env < 0:
		_, err = fmt.Fprintf(p.w, "pose %d: stopped at the deadline, distance at least %s (%s)\n", i, formatFloat(r.Lower), stats)
	case r.Stopped:
		_, err = fmt.Fprintf(p.w, "pose %d: stopped at the deadline, distance between %s and %s (error <= %s), triangles %d %d, closest points %s %s (%s)\n",
			i, formatFloat(r.Lower), formatFloat(r.Distance), formatFloat(r.Bound), r.Env, r.Fly, textVec(r.PEnv), textVec(r.PFly), stats)
	case r.Inside == collide.FlyInEnv:
		_, err = fmt.Fprintf(p.w, "pose %d: contact: fly inside env, its vertex at %s (%s)\n", i, textVec(r.PEnv), stats)
	case r.Inside == collide.EnvInFly:
		_, err = fmt.Fprintf(p.w, "pose %d: contact: env inside fly, its vertex at %s (%s)\n", i, textVec(r.PEnv), stats)
	case r.Far:
		_, err = fmt.Fprintf(p.w, "pose %d: farther than %s (%s)\n", i, formatFloat(p.max), stats)
	case r.Distance == 0:
		_, err = fmt.Fprintf(p.w, "pose %d: contact, triangles %d %d at %s (%s)\n", i, r.Env, r.Fly, textVec(r.PEnv), stats)
	default:
		_, err = fmt.Fprintf(p.w, "pose %d: distance %s (error <= %s), triangles %d %d, closest points %s %s (%s)\n",
			i, formatFloat(r.Distance), formatFloat(r.Bound), r.Env, r.Fly, textVec(r.PEnv), textVec(r.PFly), stats)
	}
	return err
}

// textVec formats v as "(x y z)", each coordinate with the fewest digits
// that read back as it.
func textVec(v geom.Vec3) string {
	return "(" + formatFloat(v.X) + " " + formatFloat(v.Y) + " " + formatFloat(v.Z) + ")"
}

// runSigned is distance --signed: depth.SignedDistance at each pose.
func runSigned(e *env, o *distanceOptions, where *checkOptions, poses []geom.Pose, envModel, flyModel *collide.Model) (err error) {
	ctx := e.ctx
	if ctx == nil {
		ctx = context.Background()
	}
	var done atomic.Int64
	status := startStatus(e, true, distanceStatusAfter(e, len(poses)), func(elapsed time.Duration) string {
		return fmt.Sprintf("distance --signed: pose %d of %d, %.1f s", done.Load(), len(poses), elapsed.Seconds())
	})
	defer status.end()
	w := bufio.NewWriter(status.output(e.stdout))
	sp := &signedPrinter{w: w, json: o.json, max: o.max}
	var kinds [4]int
	var stopped int
	var signed []float64
	var total time.Duration
	fl := newFlusher(w)
	for i, p := range poses {
		start := time.Now()
		so := depth.SignedOptions{Max: o.max}
		if o.deadline > 0 {
			so.Depth.Budget.Deadline = start.Add(o.deadline)
		}
		s, qerr := depth.SignedDistance(ctx, envModel, geom.Identity(), flyModel, p, so)
		d := time.Since(start)
		if qerr != nil {
			w.Flush()
			return poseError(where, i, qerr)
		}
		total += d
		if int(s.Kind) < len(kinds) {
			kinds[s.Kind]++
		}
		if s.Stopped {
			stopped++
		}
		if !s.Far {
			signed = append(signed, s.Distance)
		}
		if werr := sp.print(i, &s, d); werr != nil {
			return fmt.Errorf("writing output: %w", werr)
		}
		done.Store(int64(i + 1))
		if werr := fl.tick(); werr != nil {
			return fmt.Errorf("writing output: %w", werr)
		}
	}
	if !o.json && len(poses) > 1 {
		s := fmt.Sprintf("%d poses: %d apart, %d touching, %d penetrating, %d overlapping", len(poses),
			kinds[depth.Apart], kinds[depth.Touching], kinds[depth.Penetrating], kinds[depth.Overlapping])
		if stopped > 0 {
			s += fmt.Sprintf(", %d stopped at the deadline", stopped)
		}
		if len(signed) > 0 {
			slices.Sort(signed)
			s += fmt.Sprintf("; signed distance least %s, median %s, largest %s",
				formatFloat(signed[0]), formatFloat(signed[len(signed)/2]), formatFloat(signed[len(signed)-1]))
		}
		fmt.Fprintf(w, "%s; %s querying\n", s, fmtDuration(total))
	}
	if err := w.Flush(); err != nil {
		return fmt.Errorf("writing output: %w", err)
	}
	return nil
}

// signedPrinter prints the result of each pose of distance --signed, in
// text or as JSON Lines.
type signedPrinter struct {
	w    *bufio.Writer
	json bool
	max  float64
	b    []byte
}

// print prints the signed distance s of pose i, which took d.
func (p *signedPrinter) print(i int, s *depth.Signed, d time.Duration) error {
	st, ds := s.DistanceStats, s.DepthStats
	if p.json {
		b := strconv.AppendInt(append(p.b[:0], `{"pose":`...), int64(i), 10)
		b = strconv.AppendQuote(append(b, `,"kind":`...), s.Kind.String())
		if s.Far {
			b = jsonl.AppendNumber(append(b, `,"far":true,"max":`...), p.max)
		} else {
			b = jsonl.AppendNumber(append(b, `,"signed":`...), s.Distance)
			b = jsonl.AppendNumber(append(b, `,"bound":`...), s.Bound)
		}
		if s.Env >= 0 {
			b = strconv.AppendInt(append(b, `,"env":`...), int64(s.Env), 10)
			b = strconv.AppendInt(append(b, `,"fly":`...), int64(s.Fly), 10)
			b = jsonl.AppendVec(append(b, `,"p_env":`...), s.PEnv)
			b = jsonl.AppendVec(append(b, `,"p_fly":`...), s.PFly)
		}
		if s.Kind == depth.Penetrating {
			b = jsonl.AppendNumber(append(b, `,"depth":[`...), s.Lower)
			b = jsonl.AppendNumber(append(b, ','), s.Upper)
			b = jsonl.AppendVec(append(b, `],"move":`...), s.Move)
			b = strconv.AppendBool(append(b, `,"exact":`...), s.Exact)
			if s.Lower > 0 && !s.Exact {
				b = jsonl.AppendVec(append(b, `,"witness":`...), s.Witness)
			}
			if s.Stopped {
				b = append(b, `,"stopped":true`...)
			}
		}
		if s.OpenError != nil && s.Kind == depth.Overlapping {
			b = strconv.AppendQuote(append(b, `,"open":`...), s.OpenError.Model)
		}
		b = fmt.Appendf(b, `,"stats":{"bv_tests":%d,"tri_tests":%d,"updates":%d,"leaf_tests":%d}`,
			st.BVTests, st.TriTests, st.Updates, st.LeafTests)
		b = fmt.Appendf(b, `,"depth_stats":{"directions":%d,"certificates":%d,"points":%d,"tests":%d},"seconds":`,
			ds.Directions, ds.Certificates, ds.Points, ds.Tests)
		b = jsonl.AppendNumber(b, d.Seconds())
		p.b = append(b, "}\n"...)
		_, err := p.w.Write(p.b)
		return err
	}
	stats := fmt.Sprintf("bv tests %d, tri tests %d, depth tests %d, %s", st.BVTests, st.TriTests, ds.Tests, fmtDuration(d))
	var err error
	switch {
	case s.Far:
		_, err = fmt.Fprintf(p.w, "pose %d: apart, farther than %s (%s)\n", i, formatFloat(p.max), stats)
	case s.Kind == depth.Apart:
		_, err = fmt.Fprintf(p.w, "pose %d: apart, signed distance %s (error <= %s), triangles %d %d, closest points %s %s (%s)\n",
			i, formatFloat(s.Distance), formatFloat(s.Bound), s.Env, s.Fly, textVec(s.PEnv), textVec(s.PFly), stats)
	case s.Kind == depth.Touching:
		_, err = fmt.Fprintf(p.w, "pose %d: touching, signed distance 0, triangles %d %d at %s (%s)\n", i, s.Env, s.Fly, textVec(s.PEnv), stats)
	case s.Kind == depth.Overlapping:
		_, err = fmt.Fprintf(p.w, "pose %d: overlapping, signed distance 0 (%s is not closed: no depth), triangles %d %d at %s (%s)\n",
			i, s.OpenError.Model, s.Env, s.Fly, textVec(s.PEnv), stats)
	default:
		var more string
		if s.Exact {
			more += ", exact"
		}
		if s.Stopped {
			more += ", stopped at the deadline"
		}
		if s.Lower > 0 && !s.Exact {
			more += ", witness inside both " + textVec(s.Witness)
		}
		at := "one inside the other"
		if s.Env >= 0 && s.PEnv == s.PFly {
			at = fmt.Sprintf("triangles %d %d at %s", s.Env, s.Fly, textVec(s.PEnv))
		}
		_, err = fmt.Fprintf(p.w, "pose %d: penetrating, signed distance %s, depth in [%s, %s]%s, move %s, %s (%s)\n",
			i, formatFloat(s.Distance), formatFloat(s.Lower), formatFloat(s.Upper), more, textVec(s.Move), at, stats)
	}
	return err
}
