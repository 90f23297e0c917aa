package auto

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh"
)

// candidates are the kinds Choose chooses from by default, in order of
// preference, the smaller trees first (bytes per triangle: 128, 144, 176,
// 240, 272): a later one replaces the best so far only when it is faster
// by more than tie.
var candidates = []collide.BV{collide.AABB, collide.KDOP14, collide.KDOP18, collide.KDOP26, collide.OBB}

// first is the kind of tree Choose builds first for a model given as a
// mesh, the fastest to build: it finds the probes with it.
const first = collide.KDOP18

// Candidates returns the kinds Choose chooses from by default, in order
// of preference (a kind is chosen over an earlier one only when it
// measured faster by more than 3%), the smaller trees first: aabb,
// kdop14, kdop18, kdop26, obb. The other kinds (kdop6, sphere, boxtree,
// rss) were never the fastest on the benchmark scenes; Options.Candidates
// can add them.
func Candidates() []collide.BV { return slices.Clone(candidates) }

// tie is the margin by which a later candidate must beat the best so far:
// timings within it are a tie, which goes to the earlier (more preferred)
// kind, so that the choice does not flip with noise between kinds that
// are equally fast.
const tie = 0.03

// Modes are the query modes a choice is made for.
type Modes uint8

// The modes.
const (
	// FirstContact: queries that stop at the first contact.
	FirstContact Modes = 1 << iota
	// AllPairs: queries that find every pair.
	AllPairs
	// BothModes: both (the zero Options.Modes means this too).
	BothModes = FirstContact | AllPairs
)

// Source is one model of a pair, as Choose takes it: a mesh, the options
// its candidate trees are built with (BV aside; RAPID applies to OBB trees
// only, FlyLeaf and Float64 to k-DOP trees), and optionally a tree of it
// already built (a saved model loaded, say), which is then the candidate
// of its kind as it is, not built again.
type Source struct {
	// Mesh is the model's mesh (nil: Model's).
	Mesh *mesh.TriMesh
	// Options are the options of the trees built (BV ignored).
	Options collide.BuildOptions
	// Model, if not nil, is a model of Mesh already built: the candidate
	// of its kind (a brute-force model is none).
	Model *collide.Model
}

// FromModel returns the source of the model m, built already: its mesh,
// the options it was built with, and m itself as the candidate of its
// kind.
func FromModel(m *collide.Model) Source {
	return Source{Mesh: m.Mesh(), Options: m.Options(), Model: m}
}

// A Clock returns the time, for the timing of Choose. Choose reads it
// before and after each block of queries it times, giving it the work of
// the block's queries at the reading after (the zero Stats at the one
// before), and at the start and end of each round of a bout (the zero
// Stats). The default reads the thread's CPU time on Linux (the wall
// clock elsewhere) for the blocks, ignoring the work, and the wall clock
// for the rounds. A fake clock that advances by a cost of the work makes
// the choice a function of the models (tests).
type Clock func(work collide.Stats) time.Duration

// Options configures Choose. The zero value chooses among Candidates for
// both modes, exact queries, at 40 probe poses of random flights of seed
// 0, timed on the thread's CPU time.
type Options struct {
	// Modes are the modes to choose for (0: both). A mode not probed is
	// given the kind chosen for the other.
	Modes Modes
	// Eps is the tolerance of the queries to come (see
	// collide.QueryOptions.Eps); the probes use it.
	Eps float64
	// Poses, when not empty, are poses of the flying model like those it
	// will be queried at (the poses of a path planned in advance, or of a
	// pose file): the probes are chosen among them (see Choose). Otherwise
	// they are chosen among the poses of random flights.
	Poses []geom.Pose
	// Probes is the number of probe poses (0: 40).
	Probes int
	// Seed selects the generated probe poses.
	Seed uint64
	// Candidates are the kinds to choose from (nil: Candidates()), in
	// order of preference: a later kind is chosen over an earlier one only
	// when it measured faster by more than 3%. Brute is not a candidate.
	Candidates []collide.BV
	// Rounds is how many times at most each candidate is timed at each
	// probe, taking turns with the best so far; its time at a probe is its
	// fastest round (0: 3). After two rounds, a candidate more than 15%
	// faster or slower than the best so far in every mode is not timed
	// again, nor after any round one whose round took over 250 ms.
	Rounds int
	// Clock, if not nil, replaces the clocks the queries and the rounds
	// are timed by (see Clock).
	Clock Clock
}

// Pick is the kind chosen for one query mode, and the two models of that
// kind the mode's queries run on.
type Pick struct {
	BV       collide.BV
	Env, Fly *collide.Model
}

// Choice is what Choose chose for a pair of models, and the measures it
// chose from.
type Choice struct {
	// First and All are the kinds and models chosen for first-contact and
	// all-pairs queries. When they are of the same kind, they are the same
	// models.
	First, All Pick
	// Modes are the modes probed (a mode not probed has the other's kind).
	Modes Modes
	// Probes is the number of probe poses, Contacts how many of them are in
	// contact; Given says that they were Options.Poses. Poses are the
	// probe poses.
	Probes, Contacts int
	Given            bool
	Poses            []geom.Pose
	// Candidates are the kinds timed, in the order they were timed, with
	// their measures.
	Candidates []CandidateCost
	// Time is the time Choose took, Build the part of it spent building
	// candidate trees (wall clock).
	Time, Build time.Duration
}

// CandidateCost is how a candidate kind measured at a choice's probes.
type CandidateCost struct {
	BV collide.BV
	// First and All are its time for one query at each probe (at each
	// the fastest of its rounds), in first-contact and all-pairs mode (0
	// for a mode not probed).
	First, All time.Duration
	// FirstStats and AllStats are its counts, summed over the probes.
	FirstStats, AllStats collide.Stats
	// Rounds is the number of rounds it was timed in its last bout.
	Rounds int
	// Build is the time spent building its trees for this choice (0 when
	// both were given).
	Build time.Duration
}

// For returns the pick for queries of mode all: c.All if all, else
// c.First.
func (c Choice) For(all bool) Pick {
	if all {
		return c.All
	}
	return c.First
}

// Cost returns the measured time of kind b in mode all at the probes, and
// whether b was timed in that mode.
func (c Choice) Cost(b collide.BV, all bool) (time.Duration, bool) {
	for _, cc := range c.Candidates {
		if cc.BV == b {
			t := cc.First
			if all {
				t = cc.All
			}
			return t, t > 0
		}
	}
	return 0, false
}

// Measures describes the choice for mode all in one line: the kind
// chosen, then each other kind timed with its time at the probes relative
// to the chosen one, e.g. "aabb (kdop18 +34%, obb +3%, ...)".
func (c Choice) Measures(all bool) string {
	best, _ := c.Cost(c.For(all).BV, all)
	var others []string
	for _, cc := range c.Candidates {
		if cc.BV == c.For(all).BV {
			continue
		}
		if t, ok := c.Cost(cc.BV, all); ok && best > 0 {
			others = append(others, fmt.Sprintf("%s %+.0f%%", cc.BV, 100*(float64(t)/float64(best)-1)))
		}
	}
	return fmt.Sprintf("%s (%s)", c.For(all).BV, strings.Join(others, ", "))
}

// String describes the choice in one line per mode probed (see
// Measures), e.g. "first contact: aabb (kdop18 +34%, obb +3%, ...)".
func (c Choice) String() string {
	var lines []string
	if c.Modes&FirstContact != 0 {
		lines = append(lines, "first contact: "+c.Measures(false))
	}
	if c.Modes&AllPairs != 0 {
		lines = append(lines, "all pairs: "+c.Measures(true))
	}
	return strings.Join(lines, "\n")
}

// Defaults of Options, and the timing budget.
const (
	defaultProbes = 40
	defaultRounds = 3
	// The budget of the timing, in work (tests and updates, 10 to 100 ns
	// each): probeWork plus probeWorkPerTri per triangle of the two models
	// (about 0.4 s plus 2 µs per triangle); the probes are thinned (down to
	// minProbes) so that the timing should fit in it.
	probeWork       = 20_000_000
	probeWorkPerTri = 100
	minProbes       = 12
	// A probe's block repeats its query until the first candidate's
	// would take minBlock (up to maxReps times), so that the clock's
	// resolution and the cost of reading it do not decide.
	minBlock = 50 * time.Microsecond
	maxReps  = 1000
	// roundBudget: a round of a candidate slower than this ends its
	// timing after that round.
	roundBudget = 250 * time.Millisecond
	// closeMargin: a challenger whose time is within this factor of the
	// best so far, in some mode, is timed again (up to Options.Rounds);
	// one clearly faster or slower in every mode is decided after two
	// rounds.
	closeMargin = 1.15
)

// chooseSem serialises the timings (a lock that a context can give up
// waiting for): choices are rare, and each times queries, which another
// choice timing beside it would slow.
var chooseSem = make(chan struct{}, 1)

// Choose chooses the kind of tree, per query mode, for queries flying fly
// against env, and returns the choice: the kind chosen for each mode and
// its two models, built over the sources' meshes with their options (or
// the sources' own models, when of that kind).
//
// The choice is measured. The probe poses are chosen among o.Poses (up to
// 1,000 of them, evenly spaced), or else among the 1,200 poses of eight
// random flights of fly through env's bounding box grown by a quarter of
// fly's size (billiard paths, as collide flight flies given models: steps
// of 1% of fly's size, each from a random free start, half of them in
// fly's own orientation and half in a random one, reversing after a
// contact): each candidate pose is queried once (first contact, with trees
// of a kind both sources hold, else the 18-DOP trees), the poses are
// sorted by whether they touch and by the work of that query, and the
// probes are taken evenly from the sorted list, so that the few costly
// poses (contacts, near misses) are among the probes in proportion.
// Then each candidate's trees are built over the two meshes and its
// queries timed, in each mode of o.Modes, at the probes, against the
// fastest so far: the two take turns at each probe, each timing a block
// of the probe's query repeated (as many times as the first candidate
// needs for 50 µs, so that the clock's resolution does not decide; the
// repeats time the probe warm, as a flight's steps, each near the last,
// mostly are), in the thread's CPU time on Linux so that other processes
// on a busy machine do not inflate it (the wall clock elsewhere; see
// Options.Clock), for two rounds, or three when the two are within 15% (a
// candidate's time at a probe is its fastest round); the garbage
// collector runs before each bout, not during one. The fastest kind wins,
// a tie within 3% going to the earlier candidate. The timing is budgeted
// in work: when a first query of the first candidate at each probe says
// that the tournament would make more than 20 million volume and triangle
// tests and updates plus 100 per triangle of the two models (at 10 to 100
// ns each, about 0.4 s plus 2 µs per triangle), the probes are thinned,
// evenly, down to 12 at least.
//
// How well the probes stand for the queries to come is the honest limit
// of the choice: random flights stand for models moving among each other,
// not for a mechanism that keeps them in one configuration (gears in mesh,
// a part in its fixture); give o.Poses when the poses are known.
//
// Choices are timed one at a time (under a lock): a Choose waits for one
// in progress. The errors are those of a query (wrapping
// collide.ErrInvalidQuery or collide.ErrInvalidPose), of collide.Build,
// and of bad options (wrapping collide.ErrInvalidQuery). Choose is
// ChooseContext with a context that is never done.
func Choose(env, fly Source, o Options) (Choice, error) {
	return ChooseContext(context.Background(), env, fly, o)
}

// ChooseContext is Choose, stopped when ctx is done (cancelled, or past
// its deadline): while it waits for a choice in progress or for the build
// of a candidate tree, between two queries of the probe poses' search and
// between two timed blocks of queries (each about 50 µs). A choice
// stopped so is abandoned (no Choice, the trees it built dropped) and the
// error wraps ctx.Err() (errors.Is(err, context.Canceled) or
// context.DeadlineExceeded). A build cannot be stopped (an OBB tree of
// 200,000 triangles takes some 12 s): one in progress is left to end on a
// goroutine of its own, its tree dropped, and the next choice waits for
// its end before timing anything.
func ChooseContext(ctx context.Context, env, fly Source, o Options) (Choice, error) {
	if err := checkOptions(&env, &fly, &o); err != nil {
		return Choice{}, err
	}
	select {
	case chooseSem <- struct{}{}:
	case <-ctx.Done():
		return Choice{}, stopped(ctx)
	}
	if ctx.Err() != nil {
		<-chooseSem
		return Choice{}, stopped(ctx)
	}
	var left <-chan struct{}
	c, err := choose(ctx, env, fly, o, &left)
	if left != nil {
		// A build left running: the next choice waits for its end, so
		// that it does not slow that choice's timing.
		go func() { <-left; <-chooseSem }()
	} else {
		<-chooseSem
	}
	return c, err
}

// stopped is the error of a choice stopped by ctx, which is done.
func stopped(ctx context.Context) error {
	return fmt.Errorf("auto: Choose stopped: %w", ctx.Err())
}

// checkOptions returns the error of a Choose that cannot be made, and
// fills in the sources' meshes.
func checkOptions(env, fly *Source, o *Options) error {
	for _, s := range []struct {
		s    *Source
		name string
	}{{env, "environment"}, {fly, "flying model"}} {
		if s.s.Mesh == nil && s.s.Model != nil {
			s.s.Mesh = s.s.Model.Mesh()
		}
		switch {
		case s.s.Mesh == nil:
			return fmt.Errorf("auto: %w: Choose: the %s has no mesh", collide.ErrInvalidQuery, s.name)
		case s.s.Model != nil && s.s.Model.Mesh() != s.s.Mesh:
			return fmt.Errorf("auto: %w: Choose: the %s's model is not of its mesh", collide.ErrInvalidQuery, s.name)
		}
	}
	if !(o.Eps >= 0 && o.Eps <= math.MaxFloat64) {
		return fmt.Errorf("auto: %w: Choose: tolerance %v is not a finite number >= 0", collide.ErrInvalidQuery, o.Eps)
	}
	if o.Modes&^BothModes != 0 {
		return fmt.Errorf("auto: %w: Choose: unknown modes %#x", collide.ErrInvalidQuery, uint8(o.Modes))
	}
	if o.Probes < 0 || o.Rounds < 0 {
		return fmt.Errorf("auto: %w: Choose: negative Probes (%d) or Rounds (%d)", collide.ErrInvalidQuery, o.Probes, o.Rounds)
	}
	if o.Candidates != nil && len(o.Candidates) == 0 {
		return fmt.Errorf("auto: %w: Choose: no candidates (nil means the default ones)", collide.ErrInvalidQuery)
	}
	for i, b := range o.Candidates {
		if !isTree(b) {
			return fmt.Errorf("auto: %w: Choose: candidate %v is not a kind of tree (the kinds: %s)", collide.ErrInvalidQuery, b, knownTrees())
		}
		if slices.Contains(o.Candidates[:i], b) {
			return fmt.Errorf("auto: %w: Choose: candidate %v given twice", collide.ErrInvalidQuery, b)
		}
	}
	return nil
}

// isTree reports whether b is a kind of tree (one of collide.BVs but
// Brute).
func isTree(b collide.BV) bool {
	return b != collide.Brute && slices.Contains(collide.BVs(), b)
}

// knownTrees returns the names of the kinds of tree, comma-separated.
func knownTrees() string {
	var names []string
	for _, b := range collide.BVs() {
		if b != collide.Brute {
			names = append(names, b.String())
		}
	}
	return strings.Join(names, ", ")
}

// forKind returns the options of a source's tree of kind b: o's where
// they apply (RAPID is for OBB trees only, FlyLeaf and Float64 for k-DOP
// trees).
func forKind(o collide.BuildOptions, b collide.BV) collide.BuildOptions {
	o.BV = b
	if o.Rule == collide.RAPID && b != collide.OBB {
		o.Rule = collide.Splatter
	}
	if !isKDOP(b) {
		o.FlyLeaf, o.Float64 = 0, false
	}
	return o
}

// isKDOP reports whether b is one of the k-DOP trees.
func isKDOP(b collide.BV) bool {
	return b == collide.KDOP6 || b == collide.KDOP14 || b == collide.KDOP18 || b == collide.KDOP26
}

// candidate is a kind being timed: its trees and its measures.
type candidate struct {
	cost   CandidateCost
	e, f   *collide.Model
	best   [2]time.Duration // per mode (0 first, 1 all): the fastest round
	stats  [2]collide.Stats
	rounds int
}

// sum returns the candidate's time in mode i: the sum over the probes of
// its fastest round's time per query.
func (c *candidate) sum(i int) time.Duration { return c.best[i] }

// nearBest reports whether c's time is within closeMargin of the best so far
// in one of the modes probed.
func nearBest(c *candidate, best [2]*candidate, probed []int) bool {
	for _, i := range probed {
		a, b := float64(c.sum(i)), float64(best[i].sum(i))
		if a <= b*closeMargin && b <= a*closeMargin {
			return true
		}
	}
	return false
}

// workOf is the work a query's counts stand for, in tests and updates.
func workOf(st collide.Stats) int64 { return st.BVTests + st.TriTests + st.LeafTests + st.Updates }

// choose makes the choice for env and fly; the caller holds chooseSem and
// has checked the options. It looks at ctx between two builds, two
// searched poses and two timed blocks, and while it waits for a build: a
// build it gives up is left to end on its own goroutine, whose end *left
// is then closed on (the caller keeps chooseSem until then).
func choose(ctx context.Context, env, fly Source, o Options, left *<-chan struct{}) (Choice, error) {
	start := time.Now()
	done := ctx.Done()
	isDone := func() bool {
		select {
		case <-done:
			return true
		default:
			return false
		}
	}
	// build is collide.Build, given up when ctx is done (the tree then
	// dropped when it is built).
	build := func(m *mesh.TriMesh, bo collide.BuildOptions) (*collide.Model, error) {
		if done == nil {
			return collide.Build(m, bo)
		}
		if isDone() {
			return nil, stopped(ctx)
		}
		var t *collide.Model
		var err error
		end := make(chan struct{})
		go func() {
			defer close(end)
			t, err = collide.Build(m, bo)
		}()
		select {
		case <-end:
			return t, err
		case <-done:
			*left = end
			return nil, stopped(ctx)
		}
	}
	cands := o.Candidates
	if cands == nil {
		cands = candidates
	}
	modes := o.Modes
	if modes == 0 {
		modes = BothModes
	}
	rounds := o.Rounds
	if rounds == 0 {
		rounds = defaultRounds
	}
	nprobes := o.Probes
	if nprobes == 0 {
		nprobes = defaultProbes
	}
	blockClock, roundClock := Clock(func(collide.Stats) time.Duration { return threadTime() }),
		Clock(func(collide.Stats) time.Duration { return wallTime() })
	if o.Clock != nil {
		blockClock, roundClock = o.Clock, o.Clock
	}
	ch := Choice{Modes: modes}

	// The trees each source holds, by kind: its own model, else (a mesh)
	// its 18-DOP trees, built first. The same source twice (a model
	// flown against itself) holds one set of trees.
	srcs := []*Source{&env, &fly}
	held := []map[collide.BV]*collide.Model{{}, {}}
	if fly == env {
		srcs, held = srcs[:1], held[:1]
	}
	heldBy := func(k int) map[collide.BV]*collide.Model { return held[min(k, len(held)-1)] }
	for k, s := range srcs {
		if s.Model != nil {
			if b := s.Model.BV(); b != collide.Brute {
				held[k][b] = s.Model
			}
			continue
		}
		t0 := time.Now()
		t, err := build(s.Mesh, forKind(s.Options, first))
		if err != nil {
			return Choice{}, err
		}
		held[k][first] = t
		ch.Build += time.Since(t0)
	}
	for i, p := range o.Poses {
		var m *collide.Model
		for _, t := range heldBy(1) {
			m = t
			break
		}
		if m == nil {
			var err error
			if m, err = collide.Build(fly.Mesh, collide.BuildOptions{BV: collide.Brute}); err != nil {
				return Choice{}, err
			}
		}
		if err := m.CheckPose(p); err != nil {
			return Choice{}, fmt.Errorf("Choose: pose %d: %w", i, err)
		}
	}

	// get returns the candidate of kind b, building its trees if needed.
	get := func(b collide.BV) (*candidate, error) {
		t0 := time.Now()
		c := &candidate{cost: CandidateCost{BV: b}}
		for k, s := range srcs {
			if held[k][b] != nil {
				continue
			}
			t, err := build(s.Mesh, forKind(s.Options, b))
			if err != nil {
				return nil, err
			}
			held[k][b] = t
		}
		c.e, c.f = heldBy(0)[b], heldBy(1)[b]
		c.f.PrepareFlying()
		c.cost.Build = time.Since(t0)
		ch.Build += c.cost.Build
		return c, nil
	}
	// drop lets go of the trees of kind b.
	drop := func(b collide.BV) {
		for _, h := range held {
			delete(h, b)
		}
	}

	// The probe poses are found with trees of a kind both models hold (no
	// build), else with the first candidate's.
	pk := cands[0]
	for _, b := range append(slices.Clone(cands), collide.BVs()...) {
		if b != collide.Brute && heldBy(0)[b] != nil && heldBy(1)[b] != nil {
			pk = b
			break
		}
	}
	pc, err := get(pk)
	if err != nil {
		return Choice{}, err
	}
	ch.Given = len(o.Poses) > 0
	poses, err := probePoses(pc.e, pc.f, o.Poses, nprobes, o.Seed, o.Eps, isDone)
	if isDone() {
		return Choice{}, stopped(ctx)
	}
	if err != nil {
		return Choice{}, err
	}
	var probed []int // the modes probed: 0 first contact, 1 all pairs
	if modes&FirstContact != 0 {
		probed = append(probed, 0)
	}
	if modes&AllPairs != 0 {
		probed = append(probed, 1)
	}
	c0 := pc
	if pk != cands[0] {
		if c0, err = get(cands[0]); err != nil {
			return Choice{}, err
		}
	}
	order := []*candidate{c0} // every candidate timed, in order
	best := [2]*candidate{c0, c0}
	yes := func(collide.Pair) bool { return true }
	// The blocks are timed in the thread's CPU time where the system
	// offers it (see Clock), on one thread.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var q collide.Query
	// A probe is timed in blocks: a block repeats the query at the probe
	// reps times (reps[j][i] for probe j in mode i, the same for every
	// candidate), enough for the first candidate's block to take minBlock,
	// so that the clock's resolution and the cost of reading it do not
	// decide; the repeats time the probe warm, as a flight's steps, each
	// near the last, mostly are.
	reps := make([][2]int64, len(poses))
	block := func(c *candidate, i, j int) (time.Duration, collide.Stats, error) {
		if isDone() {
			return 0, collide.Stats{}, stopped(ctx)
		}
		qo := collide.QueryOptions{All: i == 1, Eps: o.Eps, Method: collide.MethodTree}
		var st, work collide.Stats
		start := blockClock(collide.Stats{})
		for r := range reps[j][i] {
			s, err := q.Each(c.e, c.f, poses[j], qo, yes)
			if err != nil {
				return 0, st, err
			}
			if r == 0 {
				st = s
			}
			work.Add(s)
		}
		return max(blockClock(work)-start, 1), st, nil
	}
	// A first block of the first candidate at each probe, of one query
	// (untimed: a warm-up), tells the cost of the timing: the repeats, and
	// the probes kept, evenly, to stay within the budget. The budget is
	// counted in work (volume, triangle and leaf tests and updates), not
	// time, so that the probes stay a function of the models and the seed.
	var work int64
	for j := range poses {
		for _, i := range probed {
			reps[j][i] = 1
			d, st, err := block(c0, i, j)
			if err != nil {
				return Choice{}, err
			}
			work += workOf(st)
			reps[j][i] = int64(min(maxReps, minBlock/d+1))
		}
	}
	budget := probeWork + probeWorkPerTri*int64(len(env.Mesh.Tris)+len(fly.Mesh.Tris))
	// A bout times two or three kinds in two or three rounds.
	if est := 8 * int64(max(len(cands)-1, 1)) * work; est > budget && len(poses) > minProbes {
		m := max(minProbes, int(float64(len(poses))*float64(budget)/float64(est)))
		thin, thinReps := make([]geom.Pose, m), make([][2]int64, m)
		for i := range m {
			k := (2*i + 1) * len(poses) / (2 * m)
			thin[i], thinReps[i] = poses[k], reps[k]
		}
		poses, reps = thin, thinReps
	}
	ch.Probes, ch.Poses = len(poses), poses
	for _, p := range poses {
		found := false
		if _, err := q.Each(c0.e, c0.f, p, collide.QueryOptions{Eps: o.Eps, Method: collide.MethodTree}, func(collide.Pair) bool { found = true; return false }); err != nil {
			return Choice{}, err
		}
		if found {
			ch.Contacts++
		}
	}

	// The tournament: the best so far per mode against each candidate in
	// turn (a bout). In each round the members take turns at each probe,
	// so that what slows the machine for a moment falls on all of them
	// alike; a member's time at a probe is its fastest block, its time in
	// a mode the sum over the probes of that time per query.
	bout := func(challenger *candidate) error {
		// The builds and drops leave garbage: collect it now rather than
		// while timing, when the collector's work would fall on some
		// candidates and not others.
		runtime.GC()
		members := []*candidate{best[0]}
		if best[1] != best[0] {
			members = append(members, best[1])
		}
		if challenger != nil && !slices.Contains(members, challenger) {
			members = append(members, challenger)
		}
		fastest := make([][][2]time.Duration, len(members)) // by member, probe, mode
		for k, c := range members {
			fastest[k] = make([][2]time.Duration, len(poses))
			c.stats, c.rounds = [2]collide.Stats{}, 0
		}
		for r := range rounds {
			t0 := roundClock(collide.Stats{})
			for j := range poses {
				for n := range members {
					k := (n + r) % len(members) // who goes first turns each round
					c := members[k]
					for _, i := range probed {
						d, st, err := block(c, i, j)
						if err != nil {
							return err
						}
						if r == 0 || d < fastest[k][j][i] {
							fastest[k][j][i] = d
						}
						if r == 0 {
							c.stats[i].Add(st)
						}
					}
				}
			}
			for k, c := range members {
				c.rounds++
				for _, i := range probed {
					var sum float64
					for j := range poses {
						sum += float64(fastest[k][j][i]) / float64(reps[j][i])
					}
					c.best[i] = time.Duration(max(sum, 1))
				}
			}
			slow := roundClock(collide.Stats{})-t0 > roundBudget*time.Duration(len(members))
			if r >= 1 && challenger != nil && !nearBest(challenger, best, probed) || slow {
				break // the decision is clear, or the round was slow
			}
		}
		for _, c := range members {
			c.cost.Rounds = c.rounds
			c.cost.FirstStats, c.cost.AllStats = c.stats[0], c.stats[1]
			if modes&FirstContact != 0 {
				c.cost.First = c.sum(0)
			}
			if modes&AllPairs != 0 {
				c.cost.All = c.sum(1)
			}
		}
		if challenger == nil {
			return nil
		}
		for _, i := range probed {
			if float64(challenger.sum(i)) < float64(best[i].sum(i))*(1-tie) {
				best[i] = challenger
			}
		}
		return nil
	}
	if len(cands) == 1 {
		// No challenger: time the one candidate for the record.
		if err := bout(nil); err != nil {
			return Choice{}, err
		}
	}
	for _, b := range cands[1:] {
		c, err := get(b)
		if err != nil {
			return Choice{}, err
		}
		order = append(order, c)
		if err := bout(c); err != nil {
			return Choice{}, err
		}
		for _, l := range order {
			if l != best[0] && l != best[1] && l.e != nil {
				drop(l.cost.BV)
				l.e, l.f = nil, nil
			}
		}
	}
	if len(probed) == 1 {
		best[1-probed[0]] = best[probed[0]]
	}
	ch.First = Pick{BV: best[0].cost.BV, Env: best[0].e, Fly: best[0].f}
	ch.All = Pick{BV: best[1].cost.BV, Env: best[1].e, Fly: best[1].f}
	for _, c := range order {
		ch.Candidates = append(ch.Candidates, c.cost)
	}
	// Let go of every tree not chosen.
	pc, c0, order, best = nil, nil, nil, [2]*candidate{}
	held = nil
	// The losers' trees are garbage, often much more memory than the
	// winners': return it to the system now, rather than let the
	// runtime's scavenger do so in the background during the queries to
	// come.
	debug.FreeOSMemory()
	// A last pass at the probes with the chosen trees leaves them in the
	// caches, as a build leaves the tree it built, for the first queries.
	for _, i := range probed {
		m := ch.For(i == 1)
		for _, p := range poses {
			if _, err := q.Each(m.Env, m.Fly, p, collide.QueryOptions{All: i == 1, Eps: o.Eps, Method: collide.MethodTree}, yes); err != nil {
				return Choice{}, err
			}
		}
	}
	ch.Time = time.Since(start)
	return ch, nil
}

// A probe is a candidate probe pose, with what a first-contact query
// with the probe trees found there: whether fly touches env, and the
// query's work (volume and triangle tests), the key by which probes are
// chosen.
type probe struct {
	pose    geom.Pose
	contact bool
	work    int64
}

// probeKey orders probes: apart before in contact, then by work.
func probeKey(a, b probe) int {
	if a.contact != b.contact {
		if a.contact {
			return 1
		}
		return -1
	}
	return cmp.Compare(a.work, b.work)
}

// maxCandidatePoses is the number of given poses beyond which they are
// thinned (evenly) before the probes are chosen among them.
const maxCandidatePoses = 1000

// probePoses returns n probe poses (see Choose) among poses, or among
// poses of random flights if poses is empty, deterministically: env and
// fly are the trees of one kind the contacts are found with. The poses
// are sorted by probeKey and taken evenly from the sorted list (a
// systematic sample stratified by the work of a query), so that the
// probes' total time stands for the mean time over all the poses, the few
// costly ones (contacts, near misses) included in proportion.
func probePoses(env, fly *collide.Model, poses []geom.Pose, n int, seed uint64, eps float64, isDone func() bool) ([]geom.Pose, error) {
	var cands []probe
	if len(poses) == 0 {
		cands = flightProbes(env, fly, seed, eps, isDone)
	} else {
		m := min(len(poses), maxCandidatePoses)
		var q collide.Query
		for i := range m {
			if isDone() {
				return nil, nil // the caller says why
			}
			p := probe{pose: poses[i*len(poses)/m]}
			st, err := q.Each(env, fly, p.pose, collide.QueryOptions{Eps: eps, Method: collide.MethodTree}, func(collide.Pair) bool { p.contact = true; return false })
			if err != nil {
				return nil, err
			}
			p.work = st.BVTests + st.TriTests
			cands = append(cands, p)
		}
	}
	slices.SortStableFunc(cands, probeKey)
	n = min(n, len(cands))
	out := make([]geom.Pose, n)
	for i := range n {
		out[i] = cands[(2*i+1)*len(cands)/(2*n)].pose
	}
	return out, nil
}

// Random flights of flightProbes: flights of flightSteps steps each, every
// step moving fly's centre by 1% of fly's diagonal and turning it by 0.02
// radians, the direction wandering by up to 30% a step (the billiard path
// that collide flight flies through models it is given).
const (
	flights     = 8
	flightSteps = 150
	flightSpeed = 0.01
	flightSpin  = 0.02
	flightTurn  = 0.3
)

// flightProbes returns the poses of random flights of fly through env's
// bounding box (grown by a quarter of fly's diagonal, so that a fly as
// large as env has room to be apart), with what a first-contact query
// found at each: each flight starts at a random point of the box where
// fly does not touch env (the last of 20 tries if none), in fly's own
// orientation (even flights) or a random one (odd flights), and reverses
// after a step that collides, as billiard paths do (see package flight),
// so that the poses are spread as a flight's are, most of them apart,
// some near contact, a few in contact.
func flightProbes(env, fly *collide.Model, seed uint64, eps float64, isDone func() bool) []probe {
	rng := rand.New(rand.NewPCG(seed, 0x6175746f)) // "auto"
	eb, fb := env.Mesh().Bounds(), fly.Mesh().Bounds()
	c := fb.Center()
	eb = eb.Expanded(fb.Size().Norm() / 4)
	speed := flightSpeed * fb.Size().Norm()
	if !(speed > 0) {
		speed = flightSpeed * eb.Size().Norm()
	}
	unit := func() geom.Vec3 {
		for {
			v := geom.V(2*rng.Float64()-1, 2*rng.Float64()-1, 2*rng.Float64()-1)
			if n := v.Norm(); n > 0.01 && n <= 1 {
				return v.Scale(1 / n)
			}
		}
	}
	perturb := func(v geom.Vec3, length float64) geom.Vec3 {
		w := v.Add(unit().Scale(flightTurn * length * rng.Float64()))
		if n := w.Norm(); n > 1e-9*length {
			return w.Scale(length / n)
		}
		return unit().Scale(length)
	}
	point := func() geom.Vec3 {
		return geom.V(eb.Min.X+rng.Float64()*(eb.Max.X-eb.Min.X), eb.Min.Y+rng.Float64()*(eb.Max.Y-eb.Min.Y),
			eb.Min.Z+rng.Float64()*(eb.Max.Z-eb.Min.Z))
	}
	var q collide.Query
	var out []probe
	query := func(pos geom.Vec3, rot geom.Quat) (probe, bool) {
		r := rot.Mat3()
		p := probe{pose: geom.Pose{R: r, T: pos.Sub(r.MulVec(c))}}
		st, err := q.Each(env, fly, p.pose, collide.QueryOptions{Eps: eps, Method: collide.MethodTree}, func(collide.Pair) bool { p.contact = true; return false })
		p.work = st.BVTests + st.TriTests
		return p, err == nil
	}
	for k := range flights {
		// Half the flights start in the models' own orientation (models
		// made in one frame, as CAD parts and scenes are, meet with their
		// faces parallel), half in a random one.
		rot := geom.Quat{W: 1}
		if k%2 == 1 {
			rot = geom.Quat{W: rng.NormFloat64(), X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}.Unit()
		}
		var pos geom.Vec3
		for try := range 20 {
			pos = point()
			if p, ok := query(pos, rot); ok && !p.contact || try == 19 {
				break
			}
		}
		vel, spin := unit().Scale(speed), unit().Scale(flightSpin)
		inside := false
		for step := range flightSteps {
			if isDone() {
				return nil // the caller says why
			}
			p, ok := query(pos, rot)
			if !ok {
				break // a pose beyond the float64 range: end this flight
			}
			out = append(out, p)
			if step == flightSteps-1 {
				break
			}
			if p.contact && !inside {
				vel, spin = vel.Neg(), spin.Neg()
			} else {
				vel, spin = perturb(vel, speed), perturb(spin, flightSpin)
			}
			inside = p.contact
			pos = pos.Add(vel)
			for a := range 3 { // reflect off the box's walls
				x, v, lo, hi := pos.Index(a), vel.Index(a), eb.Min.Index(a), eb.Max.Index(a)
				switch {
				case x < lo:
					x, v = math.Min(2*lo-x, hi), math.Abs(v)
				case x > hi:
					x, v = math.Max(2*hi-x, lo), -math.Abs(v)
				default:
					continue
				}
				pos, vel = pos.SetIndex(a, x), vel.SetIndex(a, v)
			}
			rot = geom.AxisAngle(spin, flightSpin).Mul(rot).Unit()
		}
	}
	return out
}

// clockStart is the origin of wallTime.
var clockStart = time.Now()

// wallTime returns the monotonic time since clockStart.
func wallTime() time.Duration { return time.Since(clockStart) }
