package coherence

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"slices"
	"time"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/bench/internal/flights"
	"github.com/collide3d/collide/bench/internal/md"
	"github.com/collide3d/collide/bench/scenes"
	"github.com/collide3d/collide/geom"
)

// BVs are the bounding volumes of the front experiments.
var BVs = []string{"kdop6", "kdop14", "kdop18", "kdop26", "obb", "rss", "sphere", "aabb", "boxtree"}

// DefaultRounds is the default of Config.Rounds.
const DefaultRounds = 3

// DefaultDeadline is the deadline of the budget experiment.
const DefaultDeadline = time.Millisecond

// DefaultTestBudgets are the budgets of tests of the budget experiment.
var DefaultTestBudgets = []int64{1000, 10000}

// maxResumes bounds the resumes of one step's budgeted query: a walk that
// needs more is an error (it does not move on).
const maxResumes = 1 << 24

// Config configures Run.
type Config struct {
	// Size is the size of the scenes: scenes.Full or scenes.Quick.
	Size scenes.Size
	// Seed selects the scenes' random geometry and paths.
	Seed uint64
	// Scenes lists the scenes to fly (nil: scenes.PaperNames()).
	Scenes []string
	// BVs lists the bounding volumes (nil: BVs).
	BVs []string
	// Steps, when positive, caps the steps of every flight.
	Steps int
	// Rounds is how many times each flight is flown, each round with a
	// new front on the same poses (0: DefaultRounds); a step's times are
	// the least of its rounds', so that the scheduler's pauses on a busy
	// machine do not pass for a step's cost. The counts are the same in
	// every round.
	Rounds int
	// Deadline is the deadline of the budget experiment (0:
	// DefaultDeadline); TestBudgets its budgets of tests (nil:
	// DefaultTestBudgets).
	Deadline    time.Duration
	TestBudgets []int64
	// NoBudget leaves out the budget experiment.
	NoBudget bool
	// Progress, when not nil, is called with a line describing each
	// flight as it starts.
	Progress func(line string)
}

// SceneInfo describes a scene of the report (as in package bench/paper).
type SceneInfo = flights.SceneInfo

// StepTimes summarises the query times of a flight's steps (nearest
// rank).
type StepTimes struct {
	Mean, Median, P99, Max time.Duration
}

// summarise summarises ts (which it sorts).
func summarise(ts []time.Duration) StepTimes {
	if len(ts) == 0 {
		return StepTimes{}
	}
	var sum time.Duration
	for _, t := range ts {
		sum += t
	}
	slices.Sort(ts)
	q := func(q float64) time.Duration {
		r := q * float64(len(ts))
		k := int(math.Ceil(r-r*0x1p-40)) - 1
		return ts[min(max(k, 0), len(ts)-1)]
	}
	return StepTimes{Mean: sum / time.Duration(len(ts)), Median: q(0.5), P99: q(0.99), Max: ts[len(ts)-1]}
}

// FrontRun is one side of a front flight: its queries from the roots, or
// with a collide.Front.
type FrontRun struct {
	// Stats are the counts of the cost model summed over the steps.
	Stats collide.Stats
	// MaxNv is the most volume tests (BVTests + LeafTests) of one step.
	MaxNv int64
	// FrontSum sums the front's size (collide.Front.Len) after each step,
	// FrontMax is its largest; 0 from the roots.
	FrontSum int64
	FrontMax int
	// Times are the steps' query times.
	Times StepTimes
}

// Nv returns the volume tests, BVTests + LeafTests (a leaf's triangles
// against a volume replace a volume test in OBB, AABB, sphere and RSS
// trees).
func (r *FrontRun) Nv() int64 { return r.Stats.BVTests + r.Stats.LeafTests }

// Flight is one scene flown with one kind of tree in one mode, from
// the roots and with a front, on the same poses.
type Flight struct {
	Scene, BV string
	// All is all-pairs mode; otherwise first contact.
	All bool
	// EnvTris is the environment's triangle count.
	EnvTris          int
	Steps, Colliding int
	// Pairs sums the pairs found (all-pairs mode).
	Pairs        int64
	Roots, Front FrontRun
}

// perStep returns x per step of f.
func (f *Flight) perStep(x int64) float64 { return float64(x) / float64(max(f.Steps, 1)) }

// MeanFront returns the front's mean size after a step.
func (f *Flight) MeanFront() float64 { return f.perStep(f.Front.FrontSum) }

// BudgetRun is one budget flown on a scene: how many steps its first part
// answered, and the resumes of the others.
type BudgetRun struct {
	// Deadline > 0 is a deadline from the start of each part; otherwise
	// Tests is the number of tests of each part.
	Deadline time.Duration
	Tests    int64
	// Resolved counts the steps the first part answered (a contact, or no
	// contact and no maybe); Maybes the others.
	Resolved, Maybes int
	// Resumes sums the resumes the maybes needed to finish (each within
	// the same budget), MaxResumes is the most one step needed.
	Resumes    int64
	MaxResumes int
	// MaxPart is the longest part (a query or a resume) of the run.
	MaxPart time.Duration
}

// Name returns "1 ms" or "1000 tests".
func (b *BudgetRun) Name() string {
	if b.Deadline > 0 {
		return fmt.Sprintf("%s ms", md.Sig(float64(b.Deadline.Nanoseconds())/1e6))
	}
	return fmt.Sprintf("%d tests", b.Tests)
}

// budget returns the budget of a part starting now.
func (b *BudgetRun) budget() collide.Budget {
	if b.Deadline > 0 {
		return collide.Budget{Deadline: time.Now().Add(b.Deadline)}
	}
	return collide.Budget{Tests: b.Tests}
}

// Budget is the budget experiment on one scene with one kind of
// tree, first-contact mode, no front.
type Budget struct {
	Scene, BV        string
	Steps, Colliding int
	// Unbudgeted are the times of the same queries without a budget.
	Unbudgeted StepTimes
	Runs       []*BudgetRun
}

// Report holds the figures of Run.
type Report struct {
	Config  Config
	Machine string
	Scenes  []*SceneInfo
	Flights []*Flight
	Budgets []*Budget
	Elapsed time.Duration
}

// Flight returns the flight of scene, bv and mode, or nil.
func (r *Report) Flight(scene, bv string, all bool) *Flight {
	for _, f := range r.Flights {
		if f.Scene == scene && f.BV == bv && f.All == all {
			return f
		}
	}
	return nil
}

// Run runs the front experiments and the budget experiment. A step
// where the queries with a front find other pairs than those from the
// roots is an error, as is a budgeted query whose answer, once finished,
// differs from the unbudgeted query's. It stops between two flights when
// ctx ends, returning ctx's error.
func Run(ctx context.Context, c Config) (*Report, error) {
	start := time.Now()
	if c.Scenes == nil {
		c.Scenes = scenes.PaperNames()
	}
	if c.BVs == nil {
		c.BVs = slices.Clone(BVs)
	}
	if c.Rounds <= 0 {
		c.Rounds = DefaultRounds
	}
	if c.Deadline <= 0 {
		c.Deadline = DefaultDeadline
	}
	if c.TestBudgets == nil {
		c.TestBudgets = slices.Clone(DefaultTestBudgets)
	}
	progress := c.Progress
	if progress == nil {
		progress = func(string) {}
	}
	r := &Report{
		Config:  c,
		Machine: md.Machine(),
	}
	total := len(c.Scenes) * len(c.BVs)
	done := 0
	for _, name := range c.Scenes {
		progress(fmt.Sprintf("making scene %s", name))
		sc, info, err := flights.MakeScene(name, c.Size, c.Seed, c.Steps)
		if err != nil {
			return nil, err
		}
		r.Scenes = append(r.Scenes, info)
		for _, bv := range c.BVs {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			done++
			rule, split := flights.Splitting(bv)
			b, err := collide.ParseBV(bv)
			if err != nil {
				return nil, err
			}
			env, fly, err := flights.BuildScene(sc, collide.BuildOptions{BV: b, Rule: rule, Split: split})
			if err != nil {
				return nil, fmt.Errorf("%s, %s: %w", name, bv, err)
			}
			for _, all := range []bool{true, false} {
				progress(fmt.Sprintf("%d of %d: %s, %s, %s, from the roots and with a front", done, total, name, bv, modeName(all)))
				runtime.GC()
				f, err := flyFront(sc, env, fly, bv, all, info.Steps, c.Rounds)
				if err != nil {
					return nil, fmt.Errorf("%s, %s, %s: %w", name, bv, modeName(all), err)
				}
				f.EnvTris = info.EnvTris
				r.Flights = append(r.Flights, f)
			}
			if c.NoBudget {
				continue
			}
			progress(fmt.Sprintf("%d of %d: %s, %s, budgets", done, total, name, bv))
			runtime.GC()
			fb, err := flyBudget(sc, env, fly, bv, info.Steps, c.Deadline, c.TestBudgets)
			if err != nil {
				return nil, fmt.Errorf("%s, %s, budgets: %w", name, bv, err)
			}
			r.Budgets = append(r.Budgets, fb)
		}
	}
	r.Elapsed = time.Since(start)
	return r, nil
}

// modeName names a query mode.
func modeName(all bool) string {
	if all {
		return "all pairs"
	}
	return "first contact"
}

// flyFront flies sc's path with env and fly in one mode, from the roots
// and with a front, rounds times (each step's times the least of the
// rounds'), and checks at every step that they find the same pairs.
func flyFront(sc *scenes.Scene, env, fly *collide.Model, bv string, all bool, steps, rounds int) (*Flight, error) {
	var f *Flight
	var rt, ft []time.Duration
	for round := range max(rounds, 1) {
		g, r, t, err := flyFrontRound(sc, env, fly, bv, all, steps, round)
		if err != nil {
			if rounds > 1 {
				err = fmt.Errorf("round %d: %w", round+1, err)
			}
			return nil, err
		}
		if f == nil {
			f, rt, ft = g, r, t
			continue
		}
		if g.Steps != f.Steps || g.Roots.Stats != f.Roots.Stats || g.Front.Stats != f.Front.Stats {
			return nil, fmt.Errorf("round %d counted other figures than round 1: %d steps, %+v and %+v against %d steps, %+v and %+v",
				round+1, g.Steps, g.Roots.Stats, g.Front.Stats, f.Steps, f.Roots.Stats, f.Front.Stats)
		}
		for i := range rt {
			rt[i], ft[i] = min(rt[i], r[i]), min(ft[i], t[i])
		}
	}
	f.Roots.Times, f.Front.Times = summarise(rt), summarise(ft)
	return f, nil
}

// flyFrontRound flies sc's path once with env and fly in one mode, from
// the roots and with a new front, the two taking turns at going first (the
// front first at even steps of odd rounds), and checks at every step that
// they find the same pairs. It returns the flight's counts and each
// step's times.
func flyFrontRound(sc *scenes.Scene, env, fly *collide.Model, bv string, all bool, steps, round int) (*Flight, []time.Duration, []time.Duration, error) {
	m, err := sc.Motion()
	if err != nil {
		return nil, nil, nil, err
	}
	var roots, front, check collide.Query
	var fr collide.Front
	ro := collide.QueryOptions{All: all}
	fo := ro
	fo.Front = &fr
	co := collide.QueryOptions{All: true}
	for _, p := range []struct {
		q *collide.Query
		o collide.QueryOptions
	}{{&roots, ro}, {&front, fo}, {&check, co}} {
		if err := p.q.Prepare(env, fly, p.o); err != nil {
			return nil, nil, nil, err
		}
	}
	f := &Flight{Scene: sc.Name, BV: bv, All: all}
	rt, ft := make([]time.Duration, 0, steps), make([]time.Duration, 0, steps)
	timed := func(q *collide.Query, pose geom.Pose, o collide.QueryOptions) (collide.Result, time.Duration, error) {
		t0 := time.Now()
		res, err := q.Check(env, fly, pose, o)
		return res, time.Since(t0), err
	}
	collided := false
	for i := range steps {
		pose, ok := m.Next(collided)
		if !ok {
			break
		}
		var r0, r1 collide.Result
		var d0, d1 time.Duration
		var e0, e1 error
		if (i+round)%2 == 0 {
			r0, d0, e0 = timed(&roots, pose, ro)
			r1, d1, e1 = timed(&front, pose, fo)
		} else {
			r1, d1, e1 = timed(&front, pose, fo)
			r0, d0, e0 = timed(&roots, pose, ro)
		}
		if err := cmpErr(e0, e1); err != nil {
			return nil, nil, nil, fmt.Errorf("step %d: %w", i, err)
		}
		if err := sameAnswer(&check, env, fly, pose, all, r0, r1); err != nil {
			return nil, nil, nil, fmt.Errorf("step %d: the front's answer differs from the roots': %w", i, err)
		}
		collided = r0.Collide
		f.Steps++
		if collided {
			f.Colliding++
		}
		f.Pairs += int64(len(r0.Pairs))
		rt, ft = append(rt, d0), append(ft, d1)
		f.Roots.add(r0.Stats, 0)
		f.Front.add(r1.Stats, fr.Len())
	}
	return f, rt, ft, nil
}

// cmpErr returns the first of two errors, naming its side.
func cmpErr(roots, front error) error {
	if roots != nil {
		return fmt.Errorf("from the roots: %w", roots)
	}
	if front != nil {
		return fmt.Errorf("with the front: %w", front)
	}
	return nil
}

// add adds a step's counts and the front's size after it.
func (r *FrontRun) add(st collide.Stats, front int) {
	r.Stats.Add(st)
	r.MaxNv = max(r.MaxNv, st.BVTests+st.LeafTests)
	r.FrontSum += int64(front)
	r.FrontMax = max(r.FrontMax, front)
}

// sameAnswer checks the answers of a step from the roots (r0) and with
// the front (r1): in all-pairs mode the same pairs; in first-contact mode
// the same yes or no, and each pair found among the pairs in contact
// (found by check, from the roots, in all-pairs mode).
func sameAnswer(check *collide.Query, env, fly *collide.Model, pose geom.Pose, all bool, r0, r1 collide.Result) error {
	if all {
		if slices.Equal(r0.Pairs, r1.Pairs) {
			return nil
		}
		i := 0
		for i < min(len(r0.Pairs), len(r1.Pairs)) && r0.Pairs[i] == r1.Pairs[i] {
			i++
		}
		return fmt.Errorf("%d pairs from the roots, %d with the front, first different at position %d: %s", len(r0.Pairs), len(r1.Pairs), i, pairAt(r0.Pairs, r1.Pairs, i))
	}
	if r0.Collide != r1.Collide {
		return fmt.Errorf("contact from the roots: %v, with the front: %v", r0.Collide, r1.Collide)
	}
	if !r0.Collide {
		return nil
	}
	rc, err := check.Check(env, fly, pose, collide.QueryOptions{All: true})
	if err != nil {
		return err
	}
	for side, r := range map[string]collide.Result{"the roots": r0, "the front": r1} {
		if len(r.Pairs) != 1 {
			return fmt.Errorf("first contact from %s reported %d pairs", side, len(r.Pairs))
		}
		if _, ok := slices.BinarySearchFunc(rc.Pairs, r.Pairs[0], collide.ComparePairs); !ok {
			return fmt.Errorf("first contact from %s found pair %v, not among the %d pairs in contact", side, r.Pairs[0], len(rc.Pairs))
		}
	}
	return nil
}

// pairAt describes position i of two lists of pairs.
func pairAt(a, b []collide.Pair, i int) string {
	at := func(p []collide.Pair) string {
		if i < len(p) {
			return fmt.Sprint(p[i])
		}
		return "none"
	}
	return fmt.Sprintf("%s from the roots, %s with the front", at(a), at(b))
}

// flyBudget flies sc's path in first-contact mode with no front, and at
// each step asks the step again within each budget (a deadline, then each
// number of tests), resuming a maybe within the same budget until it is
// answered; every answer is checked against the unbudgeted query's.
func flyBudget(sc *scenes.Scene, env, fly *collide.Model, bv string, steps int, deadline time.Duration, tests []int64) (*Budget, error) {
	m, err := sc.Motion()
	if err != nil {
		return nil, err
	}
	fb := &Budget{Scene: sc.Name, BV: bv}
	fb.Runs = append(fb.Runs, &BudgetRun{Deadline: deadline})
	for _, t := range tests {
		fb.Runs = append(fb.Runs, &BudgetRun{Tests: t})
	}
	var ref, q collide.Query
	var pd collide.Pending
	if err := ref.Prepare(env, fly, collide.QueryOptions{}); err != nil {
		return nil, err
	}
	if err := q.Prepare(env, fly, collide.QueryOptions{}); err != nil {
		return nil, err
	}
	times := make([]time.Duration, 0, steps)
	collided := false
	for i := range steps {
		pose, ok := m.Next(collided)
		if !ok {
			break
		}
		t0 := time.Now()
		want, err := ref.Check(env, fly, pose, collide.QueryOptions{})
		times = append(times, time.Since(t0))
		if err != nil {
			return nil, fmt.Errorf("step %d: %w", i, err)
		}
		collided = want.Collide
		fb.Steps++
		if collided {
			fb.Colliding++
		}
		for _, b := range fb.Runs {
			if err := b.step(&q, &pd, env, fly, pose, collided); err != nil {
				return nil, fmt.Errorf("step %d, %s: %w", i, b.Name(), err)
			}
		}
	}
	fb.Unbudgeted = summarise(times)
	return fb, nil
}

// step asks one step within b, resuming until it is answered, and checks
// the answer against want.
func (b *BudgetRun) step(q *collide.Query, pd *collide.Pending, env, fly *collide.Model, pose geom.Pose, want bool) error {
	t0 := time.Now()
	res, err := q.Check(env, fly, pose, collide.QueryOptions{Budget: b.budget(), Pending: pd})
	b.MaxPart = max(b.MaxPart, time.Since(t0))
	if err != nil {
		return err
	}
	switch {
	case res.Collide && !want:
		return fmt.Errorf("the budgeted query found a contact %v where there is none", res.Pairs[0])
	case !res.Collide && !res.Maybe && want:
		return fmt.Errorf("the budgeted query answered no contact, without a maybe, where there is one")
	case !res.Maybe:
		b.Resolved++
		return nil
	}
	b.Maybes++
	found, n := false, 0
	for !pd.Done() {
		if n++; n > maxResumes {
			return fmt.Errorf("not finished after %d resumes (%d pairs of nodes left)", maxResumes, pd.Left())
		}
		t0 := time.Now()
		q.Resume(pd, b.budget(), func(collide.Pair) bool {
			found = true
			return false
		})
		b.MaxPart = max(b.MaxPart, time.Since(t0))
	}
	if found != want {
		return fmt.Errorf("after %d resumes the budgeted query found contact: %v, the unbudgeted: %v", n, found, want)
	}
	b.Resumes += int64(n)
	b.MaxResumes = max(b.MaxResumes, n)
	return nil
}
