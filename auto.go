package collide

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh"
)

// Auto is not a bounding volume but the choice of one per pair of models:
// no kind of tree is fastest everywhere (OBB trees in parallel close
// proximity, k-DOP trees among scattered objects, AABB trees in between),
// so a model built with BV Auto keeps its mesh and builds the candidate
// trees a pair of models needs, and Choose picks, for a pair of auto
// models, the kind whose queries measured fastest at probe poses of the
// flying model (the poses it will be queried at, when they are known, or
// poses of random flights), one kind per query mode. Queries of the pair
// then run on the chosen trees, as fast as a pair built with that kind.
//
// An auto model flies against auto models (and brute-force models);
// against a model of another volume a query is an error (see
// Model.WithBV). ParseBV("auto") returns Auto; BVs does not list it, as
// it is not a volume.
//
// Memory: Build(m, BuildOptions{BV: Auto}) builds an 18-DOP tree (the
// fastest to build, with which Choose finds its probes); Choose builds the
// other candidates one at a time, each timed against the best so far, and
// drops each loser as soon as it has lost, so that at most four trees of a
// model (the best so far for each mode, the one timed against them, and
// the 18-DOP tree until its turn) are held at once while choosing; once it
// has chosen, a model holds the trees chosen for its pairs (one,
// or two when the modes chose differently) and no other. Model.Bytes
// reports what it holds, and Model.Tree is nil. Building the candidates is
// most of the cost of the choice: about the sum of their builds (OBB trees
// build slowest, see the README); the timing is budgeted to about 0.4 s
// plus 2 µs per triangle of the two models (counted in tests, see
// Choose).
const Auto BV = 0xff

// autoName is Auto's name, as ParseBV takes it and String returns it.
const autoName = "auto"

// autoCandidates are the kinds Choose chooses from by default, in order
// of preference, the smaller trees first (bytes per triangle: 128, 144,
// 176, 240, 272): a later one replaces the best so far only when it is
// faster by more than chooseTie.
var autoCandidates = []BV{AABB, KDOP14, KDOP18, KDOP26, OBB}

// autoFirst is the kind of tree Build builds for an auto model, the
// fastest to build: Choose finds its probes with it.
const autoFirst = KDOP18

// AutoCandidates returns the kinds Choose chooses from by default, in
// order of preference (a kind is chosen over an earlier one only when it
// measured faster by more than 3%), the smaller trees first: aabb,
// kdop14, kdop18, kdop26, obb. The other kinds (kdop6, sphere, boxtree,
// rss) were never the fastest on the benchmark scenes;
// ChooseOptions.Candidates can add them.
func AutoCandidates() []BV { return slices.Clone(autoCandidates) }

// chooseTie is the margin by which a later candidate must beat the best
// so far: timings within it are a tie, which goes to the earlier (more
// preferred) kind, so that the choice does not flip with noise between
// kinds that are equally fast.
const chooseTie = 0.03

// Modes are the query modes a choice is made for.
type Modes uint8

// The modes.
const (
	// FirstContact: queries that stop at the first contact.
	FirstContact Modes = 1 << iota
	// AllPairs: queries that find every pair.
	AllPairs
	// BothModes: both (the zero ChooseOptions.Modes means this too).
	BothModes = FirstContact | AllPairs
)

// ChooseOptions configures Choose. The zero value chooses among
// AutoCandidates for both modes, exact queries, at 40 probe poses of
// random flights of seed 0.
type ChooseOptions struct {
	// Modes are the modes to choose for (0: both). A mode not probed is
	// given the kind chosen for the other.
	Modes Modes
	// Eps is the tolerance of the queries to come (see QueryOptions.Eps);
	// the probes use it.
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
	// Candidates are the kinds to choose from (nil: AutoCandidates()), in
	// order of preference: a later kind is chosen over an earlier one only
	// when it measured faster by more than 3%. Brute and Auto are not
	// candidates.
	Candidates []BV
	// Rounds is how many times at most each candidate is timed at each
	// probe, taking turns with the best so far; its time at a probe is its
	// fastest round (0: 3). After two rounds, a candidate more than 15%
	// faster or slower than the best so far in every mode is not timed
	// again, nor after any round one whose round took over 250 ms.
	Rounds int
}

// Choice is what Choose chose for a pair of models, and the measures it
// chose from.
type Choice struct {
	// First and All are the kinds chosen for first-contact and all-pairs
	// queries.
	First, All BV
	// Modes are the modes probed (a mode not probed has the other's kind).
	Modes Modes
	// Probes is the number of probe poses, Contacts how many of them are in
	// contact; Given says that they were ChooseOptions.Poses.
	Probes, Contacts int
	Given            bool
	// Candidates are the kinds timed, in the order they were timed, with
	// their measures.
	Candidates []CandidateCost
	// Time is the time Choose took, Build the part of it spent building
	// candidate trees.
	Time, Build time.Duration
}

// CandidateCost is how a candidate kind measured at a choice's probes.
type CandidateCost struct {
	BV BV
	// First and All are its time for one query at each probe (at each
	// the fastest of its rounds), in first-contact and all-pairs mode (0
	// for a mode not probed).
	First, All time.Duration
	// FirstStats and AllStats are its counts, summed over the probes.
	FirstStats, AllStats Stats
	// Rounds is the number of rounds it was timed in its last bout.
	Rounds int
	// Build is the time spent building its trees for this choice (0 when
	// both models already held them).
	Build time.Duration
}

// For returns the kind chosen for queries of mode all: c.All if all, else
// c.First.
func (c Choice) For(all bool) BV {
	if all {
		return c.All
	}
	return c.First
}

// Cost returns the measured time of kind b in mode all at the probes, and
// whether b was timed in that mode.
func (c Choice) Cost(b BV, all bool) (time.Duration, bool) {
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

// String describes the choice in one line per mode probed, each kind with
// its time at the probes relative to the chosen one, e.g. "first contact:
// aabb (kdop18 +34%, obb +3%, ...)".
func (c Choice) String() string {
	var lines []string
	for _, all := range []bool{false, true} {
		if c.Modes&modeOf(all) == 0 {
			continue
		}
		best, _ := c.Cost(c.For(all), all)
		var others []string
		for _, cc := range c.Candidates {
			if cc.BV == c.For(all) {
				continue
			}
			if t, ok := c.Cost(cc.BV, all); ok && best > 0 {
				others = append(others, fmt.Sprintf("%s %+.0f%%", cc.BV, 100*(float64(t)/float64(best)-1)))
			}
		}
		name := "first contact"
		if all {
			name = "all pairs"
		}
		lines = append(lines, fmt.Sprintf("%s: %s (%s)", name, c.For(all), strings.Join(others, ", ")))
	}
	return strings.Join(lines, "\n")
}

func modeOf(all bool) Modes {
	if all {
		return AllPairs
	}
	return FirstContact
}

// clone returns a copy of c that shares nothing with it.
func (c *Choice) clone() Choice {
	d := *c
	d.Candidates = slices.Clone(c.Candidates)
	return d
}

// autoState is the state of an auto model: the candidate trees it holds
// and the choices made for the pairs it is the environment of. Queries
// read both without a lock (each is a map that is replaced, never
// modified); Choose, which writes them, holds chooseMu.
type autoState struct {
	id    uint64
	trees atomic.Pointer[map[BV]*Model]
	pairs atomic.Pointer[map[uint64]*Choice] // by the flying model's id
	// kept counts, per kind, the choices (as environment or flying model)
	// that use it; guarded by chooseMu.
	kept map[BV]int
}

var (
	// chooseMu serialises choices: they are rare, and each times queries.
	chooseMu sync.Mutex
	autoIDs  atomic.Uint64
)

// tree returns the candidate of kind b the model holds, or nil.
func (a *autoState) tree(b BV) *Model {
	if m := a.trees.Load(); m != nil {
		return (*m)[b]
	}
	return nil
}

// setTree adds (m != nil) or drops (m == nil) the candidate of kind b.
func (a *autoState) setTree(b BV, m *Model) {
	old := a.trees.Load()
	next := map[BV]*Model{}
	if old != nil {
		for k, v := range *old {
			next[k] = v
		}
	}
	if m != nil {
		next[b] = m
	} else {
		delete(next, b)
	}
	a.trees.Store(&next)
}

// choice returns the choice made for the pair of this model and the
// flying model of id fly, or nil.
func (a *autoState) choice(fly uint64) *Choice {
	if m := a.pairs.Load(); m != nil {
		return (*m)[fly]
	}
	return nil
}

func (a *autoState) setChoice(fly uint64, c *Choice) {
	old := a.pairs.Load()
	next := map[uint64]*Choice{}
	if old != nil {
		for k, v := range *old {
			next[k] = v
		}
	}
	next[fly] = c
	a.pairs.Store(&next)
}

// newAuto returns an auto model of m built with o (o.BV is Auto), holding
// no candidate yet.
func newAuto(m *mesh.TriMesh, o BuildOptions) *Model {
	md := newModel(m, o, nil)
	o.BV = Auto
	o.Leaf = max(o.Leaf, 1)
	md.opts = o
	md.auto = &autoState{id: autoIDs.Add(1), kept: map[BV]int{}}
	return md
}

// buildAuto is Build for BV Auto: it builds the tree of kind autoFirst,
// which validates m and o.
func buildAuto(m *mesh.TriMesh, o BuildOptions) (*Model, error) {
	first := autoFirst
	c, err := Build(m, o.forKind(first))
	if err != nil {
		return nil, err
	}
	md := newAuto(m, o)
	md.opts.Leaf = c.opts.Leaf
	md.auto.setTree(first, c)
	return md, nil
}

// forKind returns the options of an auto model's candidate of kind b: o's
// where they apply (RAPID is for OBB trees only, FlyLeaf and Float64 for
// k-DOP trees).
func (o BuildOptions) forKind(b BV) BuildOptions {
	o.BV = b
	if o.Rule == RAPID && b != OBB {
		o.Rule = Splatter
	}
	if !b.isKDOP() {
		o.FlyLeaf, o.Float64 = 0, false
	}
	return o
}

// withBVAuto is Model.WithBV when m is an auto model or b is Auto. An
// auto model gives the candidate of kind b it holds, or a new model of
// kind b over its mesh (not kept by it); a model of another volume becomes
// an auto model over its mesh that holds it as its candidate of its kind.
func (m *Model) withBVAuto(b BV) (*Model, error) {
	switch {
	case m.auto != nil && b == Auto:
		return m, nil
	case m.auto != nil:
		if c := m.auto.tree(b); c != nil {
			return c, nil
		}
		if b == Brute {
			return Build(m.mesh, BuildOptions{BV: Brute})
		}
		return Build(m.mesh, m.opts.forKind(b))
	}
	md := newAuto(m.mesh, m.opts)
	if m.tree != nil {
		md.auto.setTree(m.opts.BV, m)
	}
	return md, nil
}

// autoMismatch is the error of a query between an auto model and a model
// of volume other (env says which one is the environment).
func autoMismatch(envBV, flyBV BV) error {
	role, other, fix := "environment", flyBV, "fly.WithBV(collide.Auto)"
	if flyBV == Auto {
		role, other, fix = "flying model", envBV, "fly.WithBV(env.BV())"
	}
	return fmt.Errorf("collide: %w: the %s is an auto model and the other is a %s model: an auto model flies only "+
		"against auto models, whose kind Choose picks per pair, and brute-force models; make both auto (%s, "+
		"which keeps the model's tree as a candidate), or fly models of one volume", ErrInvalidQuery, role, other, fix)
}

// resolveAuto returns the trees that answer a query of mode o between two
// auto models: those chosen for the pair, choosing first (see Choose) if
// no choice was made. A first query that chooses pays for the choice:
// call Choose ahead of the queries to keep it out of them.
func resolveAuto(env, fly *Model, o QueryOptions) (*Model, *Model, error) {
	c := env.auto.choice(fly.auto.id)
	if c == nil {
		chooseMu.Lock()
		var err error
		if c = env.auto.choice(fly.auto.id); c == nil {
			c, err = choose(env, fly, ChooseOptions{Eps: o.Eps})
		}
		chooseMu.Unlock()
		if err != nil {
			return nil, nil, err
		}
	}
	b := c.For(o.All)
	e, f := env.auto.tree(b), fly.auto.tree(b)
	if e == nil || f == nil {
		return nil, nil, fmt.Errorf("collide: internal error: the %s trees chosen for the pair are gone", b)
	}
	return e, f, nil
}

// Chosen returns the choice made for env and fly (auto models, env the
// environment), if one was made.
func Chosen(env, fly *Model) (Choice, bool) {
	if env == nil || fly == nil || env.auto == nil || fly.auto == nil {
		return Choice{}, false
	}
	if c := env.auto.choice(fly.auto.id); c != nil {
		return c.clone(), true
	}
	return Choice{}, false
}

// Choose chooses the kind of tree, per query mode, for queries flying fly
// against env, two auto models (built with BV Auto), and returns the
// choice; the pair's queries then run on the chosen trees. A pair is
// chosen once: if a choice was made (by Choose, or by the first query or
// Query.Prepare of the pair), Choose returns it whatever o says. A query
// of a pair not yet chosen chooses with the default options (its
// tolerance aside), inside the query: call Choose (or Query.Prepare)
// before the queries whose time matters.
//
// The choice is measured. The probe poses are chosen among o.Poses (up to
// 1,000 of them, evenly spaced), or else among the 1,200 poses of eight
// random flights of fly through env's bounding box grown by a quarter of
// fly's size (billiard paths, as collide flight flies given models: steps
// of 1% of fly's size, each from a random free start, half of them in
// fly's own orientation and half in a random one, reversing after a
// contact): each candidate pose is queried once (first contact, with the trees the model holds), the poses
// are sorted by whether they touch and by the work of that query, and the
// probes are taken evenly from the sorted list, so that the few costly
// poses (contacts, near misses) are among the probes in proportion.
// Then each candidate's trees are built over the two meshes and its
// queries timed, in each mode of o.Modes, at the probes, against the
// fastest so far: the two take turns at each probe, each timing a block
// of the probe's query repeated (as many times as the first candidate
// needs for 50 µs, so that the clock's resolution does not decide; the
// repeats time the probe warm, as a flight's steps, each near the last,
// mostly are), in the thread's CPU time on Linux so that other processes
// on a busy machine do not inflate it (the wall clock elsewhere), for two
// rounds, or three when the two are within 15% (a candidate's time at a
// probe is its fastest round); the garbage collector runs before each
// bout, not during one. The fastest kind wins, a tie within 3% going to
// the earlier candidate. The timing is budgeted in work: when a first
// query of the first candidate at each probe says that the tournament
// would make more than 20 million volume and triangle tests and updates
// plus 100 per triangle of the two models (at 10 to 100 ns each, about
// 0.4 s plus 2 µs per triangle), the probes are thinned, evenly, down to
// 12 at least.
//
// The probes, and so the counts of CandidateCost, are a function of the
// models and of o.Seed (or o.Poses); the times are measured, so two kinds
// whose times are within a few percent of each other may be chosen
// differently from one run to the next, while one clearly faster at the
// probes is chosen every time. How well the probes stand for the queries
// to come is the honest limit of the choice: random flights stand for
// models moving among each other, not for a mechanism that keeps them in
// one configuration (gears in mesh, a part in its fixture); give o.Poses
// when the poses are known.
//
// Choices are made one at a time (under a lock): a Choose waits for one
// in progress. The errors are those of a query (wrapping ErrInvalidQuery
// or ErrInvalidPose), of Build, and for a model that is not an auto model
// an error wrapping ErrInvalidQuery.
func Choose(env, fly *Model, o ChooseOptions) (Choice, error) {
	if err := checkChoose(env, fly, &o); err != nil {
		return Choice{}, err
	}
	chooseMu.Lock()
	defer chooseMu.Unlock()
	c := env.auto.choice(fly.auto.id)
	if c == nil {
		var err error
		if c, err = choose(env, fly, o); err != nil {
			return Choice{}, err
		}
	}
	return c.clone(), nil
}

// checkChoose returns the error of a Choose that cannot be made, and
// fills in o's defaults.
func checkChoose(env, fly *Model, o *ChooseOptions) error {
	if err := checkBuilt(env, fly, "Choose: "); err != nil {
		return err
	}
	for _, m := range []struct {
		m    *Model
		name string
	}{{env, "environment"}, {fly, "flying model"}} {
		switch {
		case m.m.auto == nil:
			return fmt.Errorf("collide: %w: Choose: the %s is a %s model, not an auto model (build it with BV Auto, or use m.WithBV(collide.Auto))",
				ErrInvalidQuery, m.name, m.m.opts.BV)
		}
	}
	if !(o.Eps >= 0 && o.Eps <= math.MaxFloat64) {
		return fmt.Errorf("collide: %w: Choose: tolerance %v is not a finite number >= 0", ErrInvalidQuery, o.Eps)
	}
	if o.Modes&^BothModes != 0 {
		return fmt.Errorf("collide: %w: Choose: unknown modes %#x", ErrInvalidQuery, uint8(o.Modes))
	}
	if o.Probes < 0 || o.Rounds < 0 {
		return fmt.Errorf("collide: %w: Choose: negative Probes (%d) or Rounds (%d)", ErrInvalidQuery, o.Probes, o.Rounds)
	}
	if o.Candidates != nil && len(o.Candidates) == 0 {
		return fmt.Errorf("collide: %w: Choose: no candidates (nil means the default ones)", ErrInvalidQuery)
	}
	for i, b := range o.Candidates {
		if b.index() < 0 || b == Brute {
			return fmt.Errorf("collide: %w: Choose: candidate %v is not a kind of tree (the kinds: %s)", ErrInvalidQuery, b, knownTrees())
		}
		if slices.Contains(o.Candidates[:i], b) {
			return fmt.Errorf("collide: %w: Choose: candidate %v given twice", ErrInvalidQuery, b)
		}
	}
	for i, p := range o.Poses {
		if err := fly.CheckPose(p); err != nil {
			return fmt.Errorf("Choose: pose %d: %w", i, err)
		}
	}
	return nil
}

// knownTrees returns the names of the kinds of tree, comma-separated.
func knownTrees() string {
	var names []string
	for _, v := range volumes {
		if v.id != Brute {
			names = append(names, v.name)
		}
	}
	return strings.Join(names, ", ")
}

// Defaults of ChooseOptions, and the timing budget.
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
)

// candidate is a kind being timed: its trees and its measures.
type candidate struct {
	cost   CandidateCost
	e, f   *Model
	best   [2]time.Duration // per mode (0 first, 1 all): the fastest round
	stats  [2]Stats
	rounds int
}

// sum returns the candidate's time in mode i: the sum over the probes of
// its fastest round's time per query.
func (c *candidate) sum(i int) time.Duration { return c.best[i] }

// closeMargin: a challenger whose time is within this factor of the best
// so far, in some mode, is timed again (up to ChooseOptions.Rounds); one
// clearly faster or slower in every mode is decided after one round.
const closeMargin = 1.15

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

// choose makes the choice for env and fly; the caller holds chooseMu and
// has checked the options.
func choose(env, fly *Model, o ChooseOptions) (*Choice, error) {
	start := time.Now()
	cands := o.Candidates
	if cands == nil {
		cands = autoCandidates
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
	ch := &Choice{Modes: modes}

	// get returns the candidate of kind b, building its trees if needed.
	get := func(b BV) (*candidate, error) {
		t0 := time.Now()
		c := &candidate{cost: CandidateCost{BV: b}}
		for _, m := range []*Model{env, fly} {
			if m.auto.tree(b) != nil {
				continue
			}
			t, err := Build(m.mesh, m.opts.forKind(b))
			if err != nil {
				return nil, err
			}
			m.auto.setTree(b, t)
		}
		c.e, c.f = env.auto.tree(b), fly.auto.tree(b)
		c.f.PrepareFlying()
		c.cost.Build = time.Since(t0)
		ch.Build += c.cost.Build
		return c, nil
	}
	// drop lets go of the trees of kind b unless a choice uses them.
	drop := func(b BV) {
		for _, m := range []*Model{env, fly} {
			if m.auto.kept[b] == 0 {
				m.auto.setTree(b, nil)
			}
		}
	}

	// The probe poses are found with trees of a kind both models hold (no
	// build), else with the first candidate's.
	pk := cands[0]
	for _, b := range append(slices.Clone(cands), BVs()...) {
		if b != Brute && env.auto.tree(b) != nil && fly.auto.tree(b) != nil {
			pk = b
			break
		}
	}
	pc, err := get(pk)
	if err != nil {
		return nil, err
	}
	ch.Given = len(o.Poses) > 0
	poses, err := probePoses(pc.e, pc.f, o.Poses, nprobes, o.Seed, o.Eps)
	if err != nil {
		return nil, err
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
			return nil, err
		}
	}
	order := []*candidate{c0} // every candidate timed, in order
	best := [2]*candidate{c0, c0}
	yes := func(Pair) bool { return true }
	// The blocks are timed in the thread's CPU time where the system
	// offers it (see clock), on one thread.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var q Query
	// A probe is timed in blocks: a block repeats the query at the probe
	// reps times (reps[j][i] for probe j in mode i, the same for every
	// candidate), enough for the first candidate's block to take minBlock,
	// so that the clock's resolution and the cost of reading it do not
	// decide; the repeats time the probe warm, as a flight's steps, each
	// near the last, mostly are.
	reps := make([][2]int64, len(poses))
	block := func(c *candidate, i, j int) (time.Duration, Stats, error) {
		qo := QueryOptions{All: i == 1, Eps: o.Eps}
		var st Stats
		start := clock()
		for r := range reps[j][i] {
			s, err := q.Each(c.e, c.f, poses[j], qo, yes)
			if err != nil {
				return 0, st, err
			}
			if r == 0 {
				st = s
			}
		}
		return max(clock()-start, 1), st, nil
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
				return nil, err
			}
			work += st.BVTests + st.TriTests + st.LeafTests + st.Updates
			reps[j][i] = int64(min(maxReps, minBlock/d+1))
		}
	}
	budget := probeWork + probeWorkPerTri*int64(len(env.mesh.Tris)+len(fly.mesh.Tris))
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
	ch.Probes = len(poses)
	found := false
	for _, p := range poses {
		found = false
		if _, err := q.Each(c0.e, c0.f, p, QueryOptions{Eps: o.Eps}, func(Pair) bool { found = true; return false }); err != nil {
			return nil, err
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
			c.stats, c.rounds = [2]Stats{}, 0
		}
		for r := range rounds {
			t0 := time.Now()
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
			if r >= 1 && challenger != nil && !nearBest(challenger, best, probed) || time.Since(t0) > roundBudget*time.Duration(len(members)) {
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
			if float64(challenger.sum(i)) < float64(best[i].sum(i))*(1-chooseTie) {
				best[i] = challenger
			}
		}
		return nil
	}
	if len(cands) == 1 {
		// No challenger: time the one candidate for the record.
		if err := bout(nil); err != nil {
			return nil, err
		}
	}
	for _, b := range cands[1:] {
		c, err := get(b)
		if err != nil {
			return nil, err
		}
		order = append(order, c)
		if err := bout(c); err != nil {
			return nil, err
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
	ch.First, ch.All = best[0].cost.BV, best[1].cost.BV
	for _, c := range order {
		ch.Candidates = append(ch.Candidates, c.cost)
	}
	// Record the choice, and keep the chosen trees.
	for _, m := range []*Model{env, fly} {
		m.auto.kept[ch.First]++
		if ch.All != ch.First {
			m.auto.kept[ch.All]++
		}
	}
	for _, m := range []*Model{env, fly} {
		for b := range m.auto.held() {
			drop(b)
		}
	}
	// The losers' trees are garbage, often much more memory than the
	// winners': return it to the system now, rather than let the
	// runtime's scavenger do so in the background during the queries to
	// come.
	debug.FreeOSMemory()
	// A last pass at the probes with the chosen trees leaves them in the
	// caches, as a build leaves the tree it built, for the first queries.
	for _, i := range probed {
		e, f := env.auto.tree(best[i].cost.BV), fly.auto.tree(best[i].cost.BV)
		for _, p := range poses {
			if _, err := q.Each(e, f, p, QueryOptions{All: i == 1, Eps: o.Eps}, yes); err != nil {
				return nil, err
			}
		}
	}
	ch.Time = time.Since(start)
	env.auto.setChoice(fly.auto.id, ch)
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
func probePoses(env, fly *Model, poses []geom.Pose, n int, seed uint64, eps float64) ([]geom.Pose, error) {
	var cands []probe
	if len(poses) == 0 {
		cands = flightProbes(env, fly, seed, eps)
	} else {
		m := min(len(poses), maxCandidatePoses)
		var q Query
		for i := range m {
			p := probe{pose: poses[i*len(poses)/m]}
			st, err := q.Each(env, fly, p.pose, QueryOptions{Eps: eps}, func(Pair) bool { p.contact = true; return false })
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
// found at each: each flight
// starts at a random point of the box where fly does not touch env (the
// last of 20 tries if none), in fly's own orientation (even flights) or a
// random one (odd flights), and reverses after a step that collides, as
// billiard paths do (see package flight), so that the poses are spread as
// a flight's are, most of them apart, some near contact, a few in contact.
func flightProbes(env, fly *Model, seed uint64, eps float64) []probe {
	rng := rand.New(rand.NewPCG(seed, 0x6175746f)) // "auto"
	eb, fb := env.mesh.Bounds(), fly.mesh.Bounds()
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
	var q Query
	var out []probe
	query := func(pos geom.Vec3, rot geom.Quat) (probe, bool) {
		r := rot.Mat3()
		p := probe{pose: geom.Pose{R: r, T: pos.Sub(r.MulVec(c))}}
		st, err := q.Each(env, fly, p.pose, QueryOptions{Eps: eps}, func(Pair) bool { p.contact = true; return false })
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

// errAutoSave is the error of saving an auto model.
var errAutoSave = errors.New("collide: an auto model has no one hierarchy to save (its kind is chosen per pair of models); " +
	"save the tree of a kind, m.WithBV(kind)")

// bytes returns the memory of the candidate trees the model holds.
func (a *autoState) bytes() int64 {
	var n int64
	if m := a.trees.Load(); m != nil {
		for _, t := range *m {
			n += t.Bytes()
		}
	}
	return n
}

// held returns the candidate trees the model holds, by kind (nil for
// none); the map must not be modified.
func (a *autoState) held() map[BV]*Model {
	if m := a.trees.Load(); m != nil {
		return *m
	}
	return nil
}

// clockStart is the origin of wallClock.
var clockStart = time.Now()

// wallClock returns the monotonic time since clockStart.
func wallClock() time.Duration { return time.Since(clockStart) }
