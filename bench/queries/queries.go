package queries

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/bench/distance"
	"github.com/collide3d/collide/bench/internal/md"
	"github.com/collide3d/collide/bench/scenes"
	"github.com/collide3d/collide/ccd"
	"github.com/collide3d/collide/mesh"
	"github.com/collide3d/collide/mesh/obj"
)

// Target is the most time a query row may take with any kind (issue 30:
// "every table row under 20 ms on this machine for every kind"). A build's
// target is twice the fastest k-DOP build of the same terrain (its item
// 4).
const Target = 20 * time.Millisecond

// Kinds returns the names of the kinds of tree every row runs: every
// bounding volume but brute, in collide.BVs' order.
func Kinds() []string {
	var ks []string
	for _, b := range collide.BVs() {
		if b != collide.Brute {
			ks = append(ks, b.String())
		}
	}
	return ks
}

// SweepPairs is the most triangle pairs (environment times flying) for
// which a time-of-impact row is checked against bvh.SweepAll, which
// decides every pair; above it, against the kinds' answers.
const SweepPairs = 1 << 20

// Config configures Run.
type Config struct {
	// Quick builds the terrain of 10^5 triangles instead of 10^6 and caps
	// the queries at 0.5 s by default.
	Quick bool
	// Scenes are the rows (nil: Scenes(Quick)).
	Scenes []Scene
	// Kinds are the kinds of tree (nil: Kinds()).
	Kinds []string
	// Rounds is how many times every kind runs every row, one after the
	// other in a process of its own; a row's time is the least and the
	// median of its rounds (0: 3). A run past its cap ends the kind's row.
	Rounds int
	// Cap caps the wall time of one query (0: 10 s, 0.5 s with Quick); a
	// build, a reference, the setup of a child (reading the meshes and
	// building the models) and a run of the driver get BuildCap (0: ten
	// times Cap). A run past its cap is killed (see RunChild).
	Cap, BuildCap time.Duration
	// Drain is how long a run past its cap is waited for more before it is
	// killed (0: not at all): its time and answer are then known.
	Drain time.Duration
	// Driver is the path of collide-peers (empty: collide alone): the
	// distance rows are answered by its distance systems too, and the
	// builds made by its mesh systems (see bench/peers/README.md).
	Driver string
	// Before, if not empty, is the path of a build of the program from an
	// earlier commit (one with this package, its main calling RunChild):
	// every kind then runs every row in it too, right before the program
	// itself, and the report shows both, before and after a change, on the
	// same machine in the same run.
	Before string
	// Progress, if not nil, is called with a line as each row starts.
	Progress func(string)
}

// A Result is one system's line of a row: a kind of collide's, or a
// system of the driver's.
type Result struct {
	// System is a kind ("kdop18") or a driver's system ("fcl-rss").
	System string
	Peer   bool
	// Before says that the kind ran in Config.Before's program.
	Before bool
	// Err is set when the system failed.
	Err string
	// Capped says that a run passed its cap: it was killed (Late false),
	// or ended within the drain (Late). The rounds before it, and a late
	// one, are timed.
	Capped, Late bool
	// Rounds is the number of timed runs; Min and Median their least and
	// median times.
	Rounds      int
	Min, Median time.Duration
	// Stats are the query's counts (collide's kinds).
	Stats collide.Stats
	// Distance rows: the distance, its error bound (0 for a peer), and its
	// difference from the row's reference.
	Distance, Bound, Diff float64
	// Time-of-impact rows: the answer.
	Hit, Maybe bool
	TOI        ccd.Interval
	// Agrees says that the answer agrees with the row's reference (see
	// Row.Reference): a distance within the two bounds of it (a peer's
	// within a relative distance.RelTol, or 1e-9 near 0), the same
	// time-of-impact interval (a motion that turns, or a reference from
	// the other program of Config.Before: overlapping).
	Agrees bool
	// Builds: the heap allocated during the build, the peak of the heap
	// over the heap before it (for a peer, both models'; see
	// bench/peers/README.md), and the bytes the model retains
	// (Model.Bytes, or the peer's).
	Alloc, Peak, Bytes int64
	// RSS is the largest resident set of collide's child process (reading
	// the meshes, building the models, every round).
	RSS int64
}

// Answered reports whether the system answered: it did not fail, and a
// round ended.
func (r *Result) Answered() bool { return r.Err == "" && r.Rounds > 0 }

// Met reports whether the system's median time is within target, and no
// round passed its cap.
func (r *Result) Met(target time.Duration) bool {
	return r.Answered() && !r.Capped && r.Median <= target
}

// A Row is one scene's results.
type Row struct {
	Scene            Scene
	EnvTris, FlyTris int
	// Skipped says why the row was not run (its meshes are not
	// installed); it has no results then.
	Skipped string
	// Reference names what the answers are checked against: "brute force"
	// (every triangle pair, for distances of at most
	// distance.BruteForcePairs pairs), "SweepAll" (bvh.SweepAll, for a
	// motion of at most SweepPairs pairs), or a kind ("collide rss": the
	// first that answered). RefNote says why there is none.
	Reference, RefNote string
	// RefBefore says that the reference is a kind of Config.Before's
	// program.
	RefBefore bool
	// The reference's answer.
	RefDistance, RefBound float64
	RefHit, RefMaybe      bool
	RefTOI                ccd.Interval
	// Target is the row's target time: Target, or for a build twice the
	// fastest k-DOP build.
	Target  time.Duration
	Results []Result
}

// Report is the result of Run.
type Report struct {
	Quick         bool
	Rounds        int
	Cap, BuildCap time.Duration
	Drain         time.Duration
	Machine       string
	Driver        string
	Before        string
	Rows          []Row
	Skipped       []string
	Elapsed       time.Duration
	// Load is the machine's load average (over a minute) at the start and
	// at the end of the run, where the system tells it (Linux); NaN where
	// not.
	Load [2]float64
}

// Run measures every row of c.Scenes with every kind of c.Kinds (and the
// driver's systems, with c.Driver), checks the answers and returns the
// report. Every kind's rounds of a row run in a child process (the program
// run again: see RunChild), killed when a round passes its cap. A row
// whose meshes are missing (libcgal-demo not installed) is skipped and said
// so in Report.Skipped. Run stops between two runs when ctx ends,
// returning ctx's error.
func Run(ctx context.Context, c Config) (*Report, error) {
	start := time.Now()
	if c.Scenes == nil {
		c.Scenes = Scenes(c.Quick)
	}
	if c.Kinds == nil {
		c.Kinds = Kinds()
	}
	if c.Rounds <= 0 {
		c.Rounds = 3
	}
	if c.Cap <= 0 {
		c.Cap = 10 * time.Second
		if c.Quick {
			c.Cap = 500 * time.Millisecond
		}
	}
	if c.BuildCap <= 0 {
		c.BuildCap = 10 * c.Cap
	}
	for _, k := range c.Kinds {
		if _, err := collide.ParseBV(k); err != nil {
			return nil, err
		}
	}
	m := &measure{c: c, ctx: ctx, progress: func(format string, args ...any) {
		if c.Progress != nil {
			c.Progress(fmt.Sprintf(format, args...))
		}
	}}
	rep := &Report{Quick: c.Quick, Rounds: c.Rounds, Cap: c.Cap, BuildCap: c.BuildCap, Drain: c.Drain,
		Machine: md.Machine(), Driver: c.Driver, Before: c.Before, Load: [2]float64{loadAverage(), math.NaN()}}
	dir, err := os.MkdirTemp("", "collide-queries-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	for i, sc := range c.Scenes {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		m.progress("making scene %s", sc.Name)
		row := Row{Scene: sc, Target: Target}
		env, fly, err := loadScene(sc)
		var missing *scenes.MissingDataError
		if errors.As(err, &missing) {
			row.Skipped = fmt.Sprintf("%s: %v", sc.Name, err)
			rep.Skipped = append(rep.Skipped, row.Skipped)
			rep.Rows = append(rep.Rows, row)
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("scene %s: %w", sc.Name, err)
		}
		row.EnvTris = env.NumTriangles()
		if fly != nil {
			row.FlyTris = fly.NumTriangles()
		}
		// The children read libcgal-demo's meshes from files of their own
		// (reading the archive takes seconds); generated ones they make.
		if sc, err = localScene(sc, env, fly, filepath.Join(dir, strconv.Itoa(i))); err != nil {
			return nil, err
		}
		switch sc.Op {
		case Build:
			err = m.buildRow(&row, sc)
		default:
			err = m.queriesRow(&row, sc)
		}
		if err != nil {
			return nil, fmt.Errorf("scene %s: %w", sc.Name, err)
		}
		if c.Driver != "" {
			m.progress("%s: the driver's systems", sc.Name)
			if err := m.peers(&row, env, fly); err != nil {
				return nil, fmt.Errorf("scene %s: %w", sc.Name, err)
			}
		}
		rep.Rows = append(rep.Rows, row)
	}
	rep.Elapsed = time.Since(start)
	rep.Load[1] = loadAverage()
	return rep, nil
}

// loadAverage returns the machine's load average over the last minute
// (/proc/loadavg), or NaN.
func loadAverage() float64 {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return math.NaN()
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return math.NaN()
	}
	x, err := strconv.ParseFloat(f[0], 64)
	if err != nil {
		return math.NaN()
	}
	return x
}

// localScene returns sc with its meshes from libcgal-demo written to OBJ
// files named by prefix (exactly: package mesh/obj writes every float64
// so that it reads back the same).
func localScene(sc Scene, env, fly *mesh.TriMesh, prefix string) (Scene, error) {
	write := func(src *string, m *mesh.TriMesh, name string) error {
		if !strings.HasPrefix(*src, "cgal:") {
			return nil
		}
		path := prefix + "-" + name + ".obj"
		f, err := os.Create(path)
		if err != nil {
			return err
		}
		if err := errors.Join(obj.Encode(f, m), f.Close()); err != nil {
			return err
		}
		*src = path
		return nil
	}
	if err := write(&sc.Env, env, "env"); err != nil {
		return sc, err
	}
	if fly != nil {
		if err := write(&sc.Fly, fly, "fly"); err != nil {
			return sc, err
		}
	}
	return sc, nil
}

// loadScene makes a scene's meshes (fly nil for a build).
func loadScene(sc Scene) (env, fly *mesh.TriMesh, err error) {
	if env, err = LoadMesh(sc.Env); err != nil {
		return nil, nil, err
	}
	if sc.Op == Build {
		return env, nil, nil
	}
	if fly, err = LoadMesh(sc.Fly); err != nil {
		return nil, nil, err
	}
	return env, fly, nil
}

// measure holds what the rows of a run share.
type measure struct {
	c        Config
	ctx      context.Context
	progress func(string, ...any)
}

// queriesRow measures a distance or time-of-impact row with every kind,
// each in a child process, then its reference, and checks the answers.
func (m *measure) queriesRow(row *Row, sc Scene) error {
	for _, k := range m.c.Kinds {
		for _, before := range m.programs() {
			res, err := m.kindRun(sc, k, m.c.Cap, before)
			if err != nil {
				return err
			}
			if len(res.lines) > 0 {
				l := res.lines[len(res.lines)-1]
				res.Result.Stats, res.Result.Distance, res.Result.Bound = l.Stats, l.Distance, l.Bound
				res.Result.Hit, res.Result.Maybe, res.Result.TOI = l.Hit, l.Maybe, l.TOI
			}
			row.Results = append(row.Results, res.Result)
		}
	}
	m.reference(row, sc)
	for i := range row.Results {
		checkAgainst(row, &row.Results[i])
	}
	return nil
}

// kindResult is a kind's Result and the lines of its rounds.
type kindResult struct {
	Result
	lines []childLine
}

// programs says which programs run every kind: Config.Before's (true),
// if there is one, then this one (false).
func (m *measure) programs() []bool {
	if m.c.Before != "" {
		return []bool{true, false}
	}
	return []bool{false}
}

// kindRun runs c.Rounds rounds of sc with kind k in a child process (of
// Config.Before's program if before), each capped at cap, and sums them
// up.
func (m *measure) kindRun(sc Scene, k string, cap time.Duration, before bool) (kindResult, error) {
	exe := ""
	if before {
		exe = m.c.Before
		m.progress("%s: %s, before", sc.Name, k)
	} else {
		m.progress("%s: %s", sc.Name, k)
	}
	run := runChild(m.ctx, exe, job{Scene: sc, Kind: k, Rounds: m.c.Rounds}, m.c.BuildCap, cap, m.c.Drain)
	if err := m.ctx.Err(); err != nil {
		return kindResult{}, err
	}
	r := kindResult{Result: Result{System: k, Before: before, Capped: run.capped || run.late, Late: run.late, RSS: run.maxRSS}, lines: run.lines}
	if run.failed != nil {
		r.Err = run.failed.Error()
	}
	var times []time.Duration
	for _, l := range run.lines {
		times = append(times, time.Duration(l.Ns))
	}
	r.Rounds = len(times)
	if len(times) > 0 {
		r.Min, r.Median = slices.Min(times), md.Quantile(times, 0.5)
	}
	return r, nil
}

// reference finds the row's reference answer: brute force or SweepAll
// where affordable (in a child, under the build cap), else the first kind
// that answered.
func (m *measure) reference(row *Row, sc Scene) {
	pairs := row.EnvTris * row.FlyTris
	what := ""
	switch {
	case sc.Op == Distance && pairs <= distance.BruteForcePairs:
		what = "brute force"
	case sc.Op == TOI && pairs <= SweepPairs:
		what = "SweepAll"
	}
	if what != "" {
		m.progress("%s: %s", sc.Name, what)
		run := runChild(m.ctx, "", job{Scene: sc, Kind: reference, Rounds: 1}, m.c.BuildCap, m.c.BuildCap, m.c.Drain)
		switch {
		case len(run.lines) == 1:
			l := run.lines[0]
			row.Reference = what
			row.RefDistance, row.RefBound, row.RefHit, row.RefMaybe, row.RefTOI = l.Distance, l.Bound, l.Hit, l.Maybe, l.TOI
			return
		case run.failed != nil:
			row.RefNote = fmt.Sprintf("%s failed: %v", what, run.failed)
		default:
			row.RefNote = fmt.Sprintf("%s passed its cap (%s)", what, fmtDur(m.c.BuildCap))
		}
	}
	// This program's kinds first, then Config.Before's.
	for _, before := range []bool{false, true} {
		for _, r := range row.Results {
			if !r.Peer && r.Before == before && r.Answered() {
				row.Reference, row.RefBefore = "collide "+r.System, before
				if before {
					row.Reference += " (before)"
				}
				row.RefDistance, row.RefBound = r.Distance, r.Bound
				row.RefHit, row.RefMaybe, row.RefTOI = r.Hit, r.Maybe, r.TOI
				return
			}
		}
	}
	if row.RefNote == "" {
		row.RefNote = "no kind answered"
	}
}

// checkAgainst sets r.Agrees and r.Diff from the row's reference.
func checkAgainst(row *Row, r *Result) {
	if row.Reference == "" || !r.Answered() {
		return
	}
	switch row.Scene.Op {
	case Distance:
		r.Diff = math.Abs(r.Distance - row.RefDistance)
		tol := r.Bound + row.RefBound
		if r.Peer {
			tol = max(1e-9, distance.RelTol*row.RefDistance)
		}
		r.Agrees = r.Diff <= tol
	case TOI:
		same := r.Hit == row.RefHit && r.Maybe == row.RefMaybe
		if !same || !r.Hit {
			r.Agrees = same
			break
		}
		// A translating motion's interval is exact: the same from every
		// kind of one program. Programs may differ within their widths.
		if (ccd.Motion{From: row.Scene.From, To: row.Scene.To}).Translating() && r.Before == row.RefBefore {
			r.Agrees = r.TOI == row.RefTOI
		} else {
			r.Agrees = r.TOI.Lo <= row.RefTOI.Hi && row.RefTOI.Lo <= r.TOI.Hi
		}
	}
}

// buildRow measures the build of the row's model with every kind, each in
// a child process, and sets the row's target: twice the fastest k-DOP
// build (by its median; after the change, with Config.Before).
func (m *measure) buildRow(row *Row, sc Scene) error {
	fastest := time.Duration(0)
	for _, k := range m.c.Kinds {
		for _, before := range m.programs() {
			res, err := m.kindRun(sc, k, m.c.BuildCap, before)
			if err != nil {
				return err
			}
			for _, l := range res.lines {
				res.Alloc, res.Bytes = l.Alloc, l.Bytes
				res.Peak = max(res.Peak, l.Peak)
			}
			if !before && res.Met(time.Duration(math.MaxInt64)) && strings.HasPrefix(k, "kdop") && (fastest == 0 || res.Median < fastest) {
				fastest = res.Median
			}
			row.Results = append(row.Results, res.Result)
		}
	}
	row.Target = 2 * fastest
	return nil
}
