package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/scene"
	"github.com/collide3d/collide/world"
)

// builtinPrefix starts a SCENE argument that names a built-in scene.
const builtinPrefix = "builtin:"

type worldOptions struct {
	fs      *flag.FlagSet
	broad   string
	steps   int
	all     bool
	json    bool
	quiet   bool
	workers int
	seed    uint64
	n       int
	solid   bool
	method  string
}

func worldCommand() *command {
	return &command{
		name:  "world",
		usage: "world [flags] SCENE",
		help: fmt.Sprintf(`
Plays a scene of many objects on a world (package world): at every step the
moving objects move along their paths, the broad phase finds the pairs whose
boxes overlap and the exact test the pairs of triangles in contact. SCENE
is a JSON scene file (see the README or package scene: models, objects with
their poses, groups and motions, the interest matrix, steps, seed, bounds)
or builtin:NAME, a built-in scene made from --seed (and --n objects where it
takes them):
%s
Each step prints the pairs of objects in contact (by name) and their pairs of
triangles (the first-named object's triangle first; the first pair found
unless --all), then a summary: the steps, contacts, candidate pairs and
exact tests, the mean counts of the cost model per step, and the time of
each phase per step (the motions, bounding the moved objects, the broad
phase, the exact tests, the update of the contacts: total, median and 99th
percentile; kept in a fixed memory, the median and the 99th percentile
are exact up to 16,384 steps and at most 0.8%% above beyond). --json prints
one line per step,
  {"step":N,"contacts":[{"a":"ball1","b":"floor","pairs":[[3,7],...]},...],
   "stats":{"moved":N,"candidates":N,"tested":N,"contacts":N,"began":N,
   "kept":N,"ended":N,"bv_tests":N,"tri_tests":N,"updates":N,"leaf_tests":N},
   "seconds":{"motion":S,"bound":S,"broad":S,"narrow":S,"update":S}}
then {"summary":{...}}. --quiet prints the summary only.

--solid treats every object as a solid, the volume its surface bounds: an
object inside another, their surfaces apart, is a contact too, with no
pair of triangles; its line says "ball1 bin: ball1 inside bin" (with
--json, the contact gets "inside":"ball1", the name of the object
inside, and no pairs; the key only then). It is decided exactly, as
'collide check --solid' decides it. Every model must be a closed,
manifold and consistently oriented mesh: another is an error naming the
object and what breaks. An interrupt
(Ctrl-C) stops the play after the step it is in: the steps played are
printed, the summary is not, and the exit status is 130.

--method chooses each pair's exact test: tree walks the two models' trees;
convex first looks for a plane separating the two models' vertices (the
pair's plane from the step before, kept while the pair's boxes overlap,
then a new one found by GJK), proved exactly, and leaves the pair to the
tree test when there is none; auto, the default, takes convex for two
models whose topology is convex (see 'collide info'), tree otherwise. The
answers are the same; the summary then counts the convex tests, those the
pair's plane proved (the cache's hits), those a new plane proved and those
left to the tree test, and --json's step lines and summary add "convex",
"plane_hits" and "plane_new" when not 0 (and the summary "solid_tests"
with --solid).

Broad phases (--broad): %s.`, builtinHelp(), strings.Join(world.BroadPhases(), ", ")),
		flags: func(fs *flag.FlagSet) any {
			o := &worldOptions{fs: fs}
			fs.StringVar(&o.broad, "broad", world.DefaultBroad(), "broad phase `NAME`: "+strings.Join(world.BroadPhases(), ", "))
			intFlag(fs, &o.steps, "steps", 0, "play `N` steps (default: the scene's)")
			fs.BoolVar(&o.all, "all", false, "find every pair of triangles in contact for each pair of objects (default: the first)")
			fs.BoolVar(&o.json, "json", false, "print JSON Lines: one object per step, then the summary")
			fs.BoolVar(&o.quiet, "quiet", false, "print the summary only")
			fs.StringVar(&o.method, "method", "auto", "each pair's exact `TEST`: auto (convex for two convex models, else tree), tree or convex")
			intFlag(fs, &o.workers, "workers", 0, "run the exact tests on `N` goroutines (0: one per core)")
			intFlag(fs, &o.seed, "seed", 1, "random `SEED` of the motions (and of a built-in scene; a scene file's own seed by default)")
			fs.BoolVar(&o.solid, "solid", false, "treat every object as a solid: one inside another is a contact (closed, oriented models only)")
			intFlag(fs, &o.n, "n", 0, "the number `N` of objects of a built-in scene that takes one (default: the scene's)")
			return o
		},
		run: runWorld,
	}
}

// builtinHelp lists the built-in scenes for the help.
func builtinHelp() string {
	var b strings.Builder
	for _, s := range scene.Builtins() {
		n := ""
		if s.N > 0 {
			n = fmt.Sprintf(", n = %d", s.N)
		}
		fmt.Fprintf(&b, "  %s (%d steps%s)\n      %s\n", s.Name, s.Steps, n, s.Doc)
	}
	return b.String()
}

func (o *worldOptions) given(name string) bool {
	found := false
	o.fs.Visit(func(f *flag.Flag) { found = found || f.Name == name })
	return found
}

func runWorld(e *env, opts any, args []string) error {
	o := opts.(*worldOptions)
	switch {
	case len(args) == 0:
		return usagef("give a SCENE: a scene file, or builtin:NAME (%s)", strings.Join(scene.BuiltinNames(), ", "))
	case len(args) > 1:
		return usagef("one SCENE only (got %q and %q)", args[0], args[1])
	case o.steps < 0:
		return usagef("--steps must be >= 0, not %d", o.steps)
	case o.workers < 0:
		return usagef("--workers must be >= 0, not %d", o.workers)
	case o.json && o.quiet:
		return usagef("give --json or --quiet, not both")
	}
	mk, err := world.NewBroad(o.broad)
	if err != nil {
		return usagef("--broad: unknown broad phase %q (known: %s)", o.broad, strings.Join(world.BroadPhases(), ", "))
	}
	var s *scene.Scene
	if name, ok := strings.CutPrefix(args[0], builtinPrefix); ok {
		// Its errors are an unknown name or a bad --n.
		if s, err = scene.Builtin(name, o.n, o.seed); err != nil {
			return usagef("%v", err)
		}
	} else {
		if o.given("n") {
			return usagef("--n applies to built-in scenes only")
		}
		if s, err = scene.Load(args[0]); err != nil {
			return err
		}
		if o.given("seed") {
			s.Seed = o.seed
		}
	}
	steps := s.Steps
	if o.steps > 0 {
		steps = o.steps
	}

	var p *scene.Player
	method, err := collide.ParseMethod(o.method)
	if err != nil {
		return usagef("--method: %s", strings.TrimPrefix(err.Error(), "collide: "))
	}
	wo := world.Options{Broad: mk, All: o.all, Workers: o.workers, Solid: o.solid, Method: method}
	withTicker(e, true, func(elapsed time.Duration) string {
		return fmt.Sprintf("building %s: %.1f s", s.Name, elapsed.Seconds())
	}, func() {
		p, err = scene.NewPlayer(s, wo)
	})
	if err != nil {
		return err
	}
	w := bufio.NewWriter(e.stdout)
	pr := &worldPrinter{w: w, json: o.json, quiet: o.quiet, all: o.all}
	var done, inContact atomic.Int64
	var tot *scene.Totals
	// An interrupt stops the play between two steps: the steps played are
	// printed, the summary is not.
	ctx, stop := interruptible(e)
	defer stop()
	withTicker(e, true, func(elapsed time.Duration) string {
		return fmt.Sprintf("playing %s: step %d of %d, %d pairs in contact, %.1f s", s.Name, done.Load(), steps, inContact.Load(), elapsed.Seconds())
	}, func() {
		tot, err = p.Play(steps, func(p *scene.Player, st world.StepStats) error {
			done.Add(1)
			inContact.Store(int64(st.Contacts))
			if err := pr.step(p, st); err != nil {
				return err
			}
			if err := ctx.Err(); err != nil && p.Steps() < steps {
				return fmt.Errorf("%s: the play stopped after step %d of %d (no summary): %w", s.Name, p.Steps(), steps, err)
			}
			return nil
		})
	})
	stop()
	if err != nil {
		if isInterrupt(err) {
			if ferr := w.Flush(); ferr != nil {
				return fmt.Errorf("writing output: %w", ferr)
			}
		}
		return err
	}
	if o.json {
		err = writeWorldJSONSummary(w, p, o, tot)
	} else {
		err = writeWorldSummary(w, p, o, tot)
	}
	if err == nil {
		err = w.Flush()
	}
	if err != nil {
		return fmt.Errorf("writing output: %w", err)
	}
	return nil
}

// worldPrinter prints the steps of collide world.
type worldPrinter struct {
	w           *bufio.Writer
	json, quiet bool
	all         bool
}

type jsonContact struct {
	A      string     `json:"a"`
	B      string     `json:"b"`
	Pairs  [][2]int32 `json:"pairs"`
	Inside string     `json:"inside,omitempty"` // --solid: the name of the object inside the other
}

type jsonWorldStats struct {
	Moved      int   `json:"moved"`
	Candidates int   `json:"candidates"`
	Tested     int   `json:"tested"`
	Contacts   int   `json:"contacts"`
	Began      int   `json:"began"`
	Kept       int   `json:"kept"`
	Ended      int   `json:"ended"`
	BVTests    int64 `json:"bv_tests"`
	TriTests   int64 `json:"tri_tests"`
	Updates    int64 `json:"updates"`
	LeafTests  int64 `json:"leaf_tests"`
	Convex     int64 `json:"convex,omitempty"`
	PlaneHits  int64 `json:"plane_hits,omitempty"`
	PlaneNew   int64 `json:"plane_new,omitempty"`
}

type jsonPhaseSeconds struct {
	Motion float64 `json:"motion"`
	Bound  float64 `json:"bound"`
	Broad  float64 `json:"broad"`
	Narrow float64 `json:"narrow"`
	Update float64 `json:"update"`
}

type jsonWorldStep struct {
	Step     int              `json:"step"`
	Contacts []jsonContact    `json:"contacts"`
	Stats    jsonWorldStats   `json:"stats"`
	Seconds  jsonPhaseSeconds `json:"seconds"`
}

func (pr *worldPrinter) step(p *scene.Player, st world.StepStats) error {
	if pr.quiet {
		return nil
	}
	w := p.World()
	if pr.json {
		line := jsonWorldStep{
			Step:     p.Steps(),
			Contacts: []jsonContact{},
			Stats: jsonWorldStats{
				Moved: st.Moved, Candidates: st.Candidates, Tested: st.Tested, Contacts: st.Contacts,
				Began: st.Began, Kept: st.Kept, Ended: st.Ended,
				BVTests: st.Query.BVTests, TriTests: st.Query.TriTests, Updates: st.Query.Updates, LeafTests: st.Query.LeafTests,
				Convex: st.Query.Convex, PlaneHits: st.Query.PlaneHits, PlaneNew: st.Query.PlaneNew,
			},
			Seconds: jsonPhaseSeconds{
				Motion: p.MotionTime().Seconds(), Bound: st.Bound.Seconds(), Broad: st.Broad.Seconds(),
				Narrow: st.Narrow.Seconds(), Update: st.Update.Seconds(),
			},
		}
		for c := range w.AllContacts() {
			jc := jsonContact{A: p.Name(c.A), B: p.Name(c.B), Pairs: make([][2]int32, 0, c.Len()), Inside: insideName(p, c)}
			for tp := range c.All() {
				jc.Pairs = append(jc.Pairs, [2]int32{tp.A, tp.B})
			}
			line.Contacts = append(line.Contacts, jc)
		}
		return writeWorldLine(pr.w, line)
	}
	fmt.Fprintf(pr.w, "step %d: %d %s in contact (moved %d, candidates %d, tested %d, began %d, ended %d)\n",
		p.Steps(), st.Contacts, plural(st.Contacts, "pair", "pairs"), st.Moved, st.Candidates, st.Tested, st.Began, st.Ended)
	for c := range w.AllContacts() {
		if in := insideName(p, c); in != "" {
			out := p.Name(c.A)
			if out == in {
				out = p.Name(c.B)
			}
			if _, err := fmt.Fprintf(pr.w, "  %s %s: %s inside %s\n", p.Name(c.A), p.Name(c.B), in, out); err != nil {
				return fmt.Errorf("writing output: %w", err)
			}
			continue
		}
		if !pr.all {
			q := c.At(0)
			if _, err := fmt.Fprintf(pr.w, "  %s %s: first pair %d %d\n", p.Name(c.A), p.Name(c.B), q.A, q.B); err != nil {
				return fmt.Errorf("writing output: %w", err)
			}
			continue
		}
		fmt.Fprintf(pr.w, "  %s %s: %d %s\n", p.Name(c.A), p.Name(c.B), c.Len(), plural(c.Len(), "pair", "pairs"))
		for q := range c.All() {
			if _, err := fmt.Fprintf(pr.w, "    %d %d\n", q.A, q.B); err != nil {
				return fmt.Errorf("writing output: %w", err)
			}
		}
	}
	return nil
}

// insideName returns the name of the object of c inside the other (a
// world of solids), or "" for a contact of the surfaces.
func insideName(p *scene.Player, c *world.Contact) string {
	switch c.Inside {
	case world.AInB:
		return p.Name(c.A)
	case world.BInA:
		return p.Name(c.B)
	}
	return ""
}

func writeWorldLine(w io.Writer, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	if _, err := w.Write(append(b, '\n')); err != nil {
		return fmt.Errorf("writing output: %w", err)
	}
	return nil
}

// sceneBVs names the bounding volumes of the models of s.
func sceneBVs(s *scene.Scene) string {
	var names []string
	for _, m := range s.Models {
		if n := m.BV.String(); !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	return strings.Join(names, ", ")
}

func worldMode(all bool) string {
	if all {
		return "all pairs"
	}
	return "first contact"
}

func writeWorldSummary(w io.Writer, p *scene.Player, o *worldOptions, t *scene.Totals) error {
	s := p.Scene()
	fmt.Fprintf(w, "world %s: %d objects (%d moving), %d models, %d triangles; %s, broad phase %s, %s, %d workers\n",
		s.Name, t.Objects, t.Moving, t.Models, t.Triangles, sceneBVs(s), o.broad, worldMode(o.all), p.World().Options().Workers)
	if s.Doc != "" {
		fmt.Fprintf(w, "  %s\n", s.Doc)
	}
	fmt.Fprintf(w, "models       built in %s\n", fmtTime(t.Build))
	fmt.Fprintf(w, "steps        %d, %d contacts (pairs of objects in contact, summed over the steps; at most %d at once)\n", t.Steps, t.Contacts, t.MaxContacts)
	fmt.Fprintf(w, "pairs        %d candidates, %d tested, %d began, %d ended\n", t.Candidates, t.Tested, t.Began, t.Ended)
	per := func(n int64) float64 { return float64(n) / float64(max(t.Steps, 1)) }
	fmt.Fprintf(w, "per step     moved %.1f, candidates %.1f, tested %.1f, Nv %.1f, Np %.1f, Nu %.1f, Nl %.1f\n",
		per(t.Moved), per(t.Candidates), per(t.Tested), per(t.Query.BVTests), per(t.Query.TriTests), per(t.Query.Updates), per(t.Query.LeafTests))
	if q := t.Query; q.Convex != 0 {
		fmt.Fprintf(w, "convex       %d tests: %d proved apart by the pair's plane (%.1f%%), %d by a new plane, %d left to the tree test\n",
			q.Convex, q.PlaneHits, 100*float64(q.PlaneHits)/float64(q.Convex), q.PlaneNew, q.Convex-q.PlaneHits-q.PlaneNew)
	}
	fmt.Fprintf(w, "time         %10s %10s %10s %10s\n", "total", "median", "p99", "max")
	for _, ph := range []struct {
		name string
		t    scene.Times
	}{{"motion", t.Motion}, {"bound", t.Bound}, {"broad", t.Broad}, {"narrow", t.Narrow}, {"update", t.Update}, {"step", t.Step}} {
		fmt.Fprintf(w, "  %-10s %10s %10s %10s %10s\n", ph.name, fmtTime(ph.t.Total), fmtTime(ph.t.Median), fmtTime(ph.t.P99), fmtTime(ph.t.Max))
	}
	return nil
}

// fmtTime formats a duration in ns, µs, ms or s, with 3 significant digits.
func fmtTime(d time.Duration) string {
	switch {
	case d < time.Microsecond:
		return fmt.Sprintf("%d ns", d.Nanoseconds())
	case d < time.Millisecond:
		return fmt.Sprintf("%.3g µs", float64(d)/float64(time.Microsecond))
	case d < time.Second:
		return fmt.Sprintf("%.3g ms", float64(d)/float64(time.Millisecond))
	}
	return fmt.Sprintf("%.3g s", d.Seconds())
}

// jsonTimes is a phase's times in the JSON summary, in seconds.
type jsonTimes struct {
	Total  float64 `json:"total"`
	Median float64 `json:"median"`
	P99    float64 `json:"p99"`
	Max    float64 `json:"max"`
}

func toJSONTimes(t scene.Times) jsonTimes {
	return jsonTimes{t.Total.Seconds(), t.Median.Seconds(), t.P99.Seconds(), t.Max.Seconds()}
}

type jsonWorldSummary struct {
	Scene       string    `json:"scene"`
	Objects     int       `json:"objects"`
	Moving      int       `json:"moving"`
	Models      int       `json:"models"`
	Triangles   int       `json:"triangles"`
	BV          string    `json:"bv"`
	Broad       string    `json:"broad"`
	All         bool      `json:"all"`
	Workers     int       `json:"workers"`
	Seed        uint64    `json:"seed"`
	Build       float64   `json:"build_seconds"`
	Steps       int       `json:"steps"`
	Contacts    int64     `json:"contacts"`
	MaxContacts int       `json:"max_contacts"`
	Moved       int64     `json:"moved"`
	Candidates  int64     `json:"candidates"`
	Tested      int64     `json:"tested"`
	Began       int64     `json:"began"`
	Kept        int64     `json:"kept"`
	Ended       int64     `json:"ended"`
	BVTests     int64     `json:"bv_tests"`
	TriTests    int64     `json:"tri_tests"`
	Updates     int64     `json:"updates"`
	LeafTests   int64     `json:"leaf_tests"`
	Convex      int64     `json:"convex,omitempty"`
	PlaneHits   int64     `json:"plane_hits,omitempty"`
	PlaneNew    int64     `json:"plane_new,omitempty"`
	SolidTests  int64     `json:"solid_tests,omitempty"`
	Motion      jsonTimes `json:"motion"`
	Bound       jsonTimes `json:"bound"`
	BroadTime   jsonTimes `json:"broad_phase"`
	Narrow      jsonTimes `json:"narrow"`
	Update      jsonTimes `json:"update"`
	Step        jsonTimes `json:"step"`
}

func writeWorldJSONSummary(w io.Writer, p *scene.Player, o *worldOptions, t *scene.Totals) error {
	s := p.Scene()
	return writeWorldLine(w, struct {
		Summary jsonWorldSummary `json:"summary"`
	}{jsonWorldSummary{
		Scene: s.Name, Objects: t.Objects, Moving: t.Moving, Models: t.Models, Triangles: t.Triangles,
		BV: sceneBVs(s), Broad: o.broad, All: o.all, Workers: p.World().Options().Workers, Seed: s.Seed,
		Build: t.Build.Seconds(), Steps: t.Steps, Contacts: t.Contacts, MaxContacts: t.MaxContacts,
		Moved: t.Moved, Candidates: t.Candidates, Tested: t.Tested, Began: t.Began, Kept: t.Kept, Ended: t.Ended,
		BVTests: t.Query.BVTests, TriTests: t.Query.TriTests, Updates: t.Query.Updates, LeafTests: t.Query.LeafTests,
		Convex: t.Query.Convex, PlaneHits: t.Query.PlaneHits, PlaneNew: t.Query.PlaneNew, SolidTests: t.Query.SolidTests,
		Motion: toJSONTimes(t.Motion), Bound: toJSONTimes(t.Bound), BroadTime: toJSONTimes(t.Broad),
		Narrow: toJSONTimes(t.Narrow), Update: toJSONTimes(t.Update), Step: toJSONTimes(t.Step),
	}})
}
