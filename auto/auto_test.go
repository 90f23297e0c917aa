package auto_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/auto"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/internal/testgeom"
	"github.com/collide3d/collide/mesh/gen"
)

func pairsOf(r collide.Result) [][2]int32 {
	out := make([][2]int32, len(r.Pairs))
	for i, p := range r.Pairs {
		out[i] = [2]int32{p.Env, p.Fly}
	}
	return out
}

// mustCheck is collide.Check, failing the test on an error.
func mustCheck(t testing.TB, env, fly *collide.Model, pose geom.Pose, o collide.QueryOptions) collide.Result {
	t.Helper()
	r, err := collide.Check(env, fly, pose, o)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// mustQuery is Query.Check, failing the test on an error.
func mustQuery(t testing.TB, q *collide.Query, env, fly *collide.Model, pose geom.Pose, o collide.QueryOptions) collide.Result {
	t.Helper()
	r, err := q.Check(env, fly, pose, o)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func randomPose(rng *rand.Rand, spread float64) geom.Pose {
	axis := geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64())
	t := geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()).Scale(spread)
	return geom.FromAxisAngle(axis, rng.Float64()*6.3, t)
}

// sources returns the sources of sc's two meshes, built with o.
func sources(sc testgeom.Scene, o collide.BuildOptions) (env, fly auto.Source) {
	return auto.Source{Mesh: sc.Env, Options: o}, auto.Source{Mesh: sc.Fly, Options: o}
}

// mustChoose is auto.Choose of sc's meshes, failing the test on an error.
func mustChoose(t testing.TB, sc testgeom.Scene, o auto.Options) auto.Choice {
	t.Helper()
	env, fly := sources(sc, collide.BuildOptions{})
	c, err := auto.Choose(env, fly, o)
	if err != nil {
		t.Fatalf("%s: Choose: %v", sc.Name, err)
	}
	return c
}

// TestCandidates checks the default candidates, and that auto is not a
// bounding volume of the root package: ParseBV("auto") is an error that
// says where the choice is made, and BVs does not list it.
func TestCandidates(t *testing.T) {
	want := []collide.BV{collide.AABB, collide.KDOP14, collide.KDOP18, collide.KDOP26, collide.OBB}
	if got := auto.Candidates(); !slices.Equal(got, want) {
		t.Errorf("Candidates() = %v, want %v", got, want)
	}
	if _, err := collide.ParseBV("auto"); !errors.Is(err, collide.ErrUnknownBV) || !strings.Contains(err.Error(), "package auto") {
		t.Errorf(`ParseBV("auto"): %v`, err)
	}
	if _, err := collide.ParseBV("Auto"); !errors.Is(err, collide.ErrUnknownBV) || !strings.Contains(err.Error(), "rss, brute)") {
		t.Errorf(`ParseBV("Auto"): %v`, err)
	}
	for _, b := range collide.BVs() {
		if b.String() == "auto" {
			t.Error("BVs lists auto, which is not a bounding volume")
		}
	}
}

// TestChooseAgainstOracle checks the models chosen against the
// brute-force oracle on every adversarial scene, at the identity and at
// random poses, in both modes, with and without a tolerance: chosen at
// the poses to come, with generated probes and (every third scene) with
// the default options; and the model chosen against a brute-force one.
func TestChooseAgainstOracle(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 5))
	var q collide.Query
	for si, sc := range testgeom.AdversarialScenes(11) {
		size := sc.Env.Bounds().Size().Norm()
		poses := []geom.Pose{geom.Identity()}
		for range 3 {
			p := randomPose(rng, 0.05*size)
			c := sc.Env.Bounds().Center()
			p.T = p.T.Add(c).Sub(p.R.MulVec(c))
			poses = append(poses, p)
		}
		want := make([][2][][2]int32, len(poses))
		for i, pose := range poses {
			for k, eps := range []float64{0, 0.01 * size} {
				want[i][k] = testgeom.Brute(sc.Env, sc.Fly, pose, eps)
			}
		}
		for way := range 3 {
			var c auto.Choice
			switch way {
			case 0: // chosen at the poses to come
				c = mustChoose(t, sc, auto.Options{Poses: poses, Probes: 4, Rounds: 1})
			case 1: // chosen at generated probes
				c = mustChoose(t, sc, auto.Options{Probes: 6, Rounds: 1, Seed: uint64(si)})
			case 2: // the defaults: slower
				if si%3 != 0 {
					continue
				}
				c = mustChoose(t, sc, auto.Options{})
			}
			if c.Probes == 0 || len(c.Candidates) == 0 {
				t.Errorf("%s way %d: Choice %+v", sc.Name, way, c)
			}
			brute, err := collide.Build(sc.Fly, collide.BuildOptions{BV: collide.Brute})
			if err != nil {
				t.Fatal(err)
			}
			for i, pose := range poses {
				for k, eps := range []float64{0, 0.01 * size} {
					want := want[i][k]
					o := collide.QueryOptions{All: true, Eps: eps}
					all := c.For(true)
					if got := pairsOf(mustCheck(t, all.Env, all.Fly, pose, o)); !slices.Equal(got, want) {
						t.Errorf("%s way %d pose %d eps %g: %d pairs, oracle %d", sc.Name, way, i, eps, len(got), len(want))
					}
					if got := pairsOf(mustQuery(t, &q, all.Env, all.Fly, pose, o)); !slices.Equal(got, want) {
						t.Errorf("%s way %d pose %d eps %g: Query.Check: %d pairs, oracle %d", sc.Name, way, i, eps, len(got), len(want))
					}
					if way == 0 && eps == 0 {
						if got := pairsOf(mustCheck(t, all.Env, brute, pose, o)); !slices.Equal(got, want) {
							t.Errorf("%s pose %d: chosen against brute: %d pairs, oracle %d", sc.Name, i, len(got), len(want))
						}
					}
					fc := c.For(false)
					first := mustCheck(t, fc.Env, fc.Fly, pose, collide.QueryOptions{Eps: eps})
					switch {
					case len(want) == 0 && first.Collide:
						t.Errorf("%s way %d pose %d: first contact %v, oracle none", sc.Name, way, i, first.Pairs)
					case len(want) > 0 && (len(first.Pairs) != 1 || !slices.Contains(want, pairsOf(first)[0])):
						t.Errorf("%s way %d pose %d: first contact %v is not an oracle pair", sc.Name, way, i, first.Pairs)
					}
				}
			}
		}
	}
}

// twoSpheres is a pair of models near contact with a clear fastest kind
// among kdop18 and boxtree (box-trees are slower by far).
func twoSpheres(t testing.TB) testgeom.Scene {
	t.Helper()
	return testgeom.Scene{
		Name: "spheres",
		Env:  gen.Must(gen.Icosphere(geom.Vec3{}, 1, 1280)),
		Fly:  gen.Must(gen.Icosphere(geom.Vec3{}, 0.3, 320)),
	}
}

// TestChooseDeterministic checks that the probes and their counts are a
// function of the models and the seed, and that a clearly faster kind is
// chosen every time (on the real clock).
func TestChooseDeterministic(t *testing.T) {
	sc := twoSpheres(t)
	o := auto.Options{Seed: 7, Probes: 12, Candidates: []collide.BV{collide.BoxTree, collide.KDOP18}}
	var first auto.Choice
	for i := range 3 {
		c := mustChoose(t, sc, o)
		if c.First.BV != collide.KDOP18 || c.All.BV != collide.KDOP18 {
			t.Errorf("run %d: chose %v and %v, want kdop18 (box-trees are much slower):\n%v", i, c.First.BV, c.All.BV, c)
		}
		if c.Probes != 12 || len(c.Poses) != 12 || c.Contacts > c.Probes || c.Given {
			t.Errorf("run %d: %d probes (%d poses), %d in contact, given %v", i, c.Probes, len(c.Poses), c.Contacts, c.Given)
		}
		if len(c.Candidates) != 2 || c.Candidates[0].BV != collide.BoxTree || c.Candidates[1].BV != collide.KDOP18 {
			t.Fatalf("run %d: candidates %+v", i, c.Candidates)
		}
		for _, cc := range c.Candidates {
			if cc.First <= 0 || cc.All <= 0 || cc.Rounds < 1 || cc.FirstStats.BVTests == 0 || cc.AllStats.BVTests < cc.FirstStats.BVTests {
				t.Errorf("run %d: %+v", i, cc)
			}
		}
		if i == 0 {
			first = c
			continue
		}
		for j, cc := range c.Candidates {
			if f := first.Candidates[j]; cc.FirstStats != f.FirstStats || cc.AllStats != f.AllStats {
				t.Errorf("run %d, %v: counts %v %v, first run %v %v", i, cc.BV, cc.FirstStats, cc.AllStats, f.FirstStats, f.AllStats)
			}
		}
		if c.Contacts != first.Contacts || !slices.Equal(c.Poses, first.Poses) {
			t.Errorf("run %d: %d probes in contact, first run %d (or other probes)", i, c.Contacts, first.Contacts)
		}
		// Another seed gives other probes.
		o2 := o
		o2.Seed++
		c2 := mustChoose(t, sc, o2)
		if c2.Candidates[1].AllStats == c.Candidates[1].AllStats {
			t.Errorf("seeds %d and %d gave the same counts", o.Seed, o2.Seed)
		}
	}
}

// TestChoiceModels checks the models a choice holds: of the kinds chosen,
// the same two models when both modes chose one kind, the sources' own
// models when they are of the kind chosen, and every candidate timed.
func TestChoiceModels(t *testing.T) {
	sc := twoSpheres(t)
	c := mustChoose(t, sc, auto.Options{Probes: 8, Rounds: 1})
	for _, m := range []auto.Pick{c.First, c.All} {
		if m.Env == nil || m.Fly == nil || m.Env.BV() != m.BV || m.Fly.BV() != m.BV || m.Env.Mesh() != sc.Env || m.Fly.Mesh() != sc.Fly {
			t.Errorf("pick %+v: models of other kinds or meshes", m)
		}
	}
	if c.First.BV == c.All.BV && (c.First.Env != c.All.Env || c.First.Fly != c.All.Fly) {
		t.Errorf("both modes chose %v but hold different models", c.First.BV)
	}
	if len(c.Candidates) != len(auto.Candidates()) {
		t.Errorf("%d candidates timed, want %d", len(c.Candidates), len(auto.Candidates()))
	}
	// A model already built is its kind's candidate, not built again.
	obbEnv, err := collide.Build(sc.Env, collide.BuildOptions{BV: collide.OBB})
	if err != nil {
		t.Fatal(err)
	}
	obb, err := collide.Build(sc.Fly, collide.BuildOptions{BV: collide.OBB})
	if err != nil {
		t.Fatal(err)
	}
	c, err = auto.Choose(auto.FromModel(obbEnv), auto.FromModel(obb), auto.Options{Probes: 8, Rounds: 1, Candidates: []collide.BV{collide.OBB}})
	if err != nil {
		t.Fatal(err)
	}
	if c.First.Env != obbEnv || c.First.Fly != obb || c.All.Fly != obb || c.Candidates[0].Build > time.Millisecond {
		t.Errorf("the OBB models given were not the candidates (built in %v)", c.Candidates[0].Build)
	}
	// One source flown against itself: one set of trees.
	self := auto.Source{Mesh: sc.Env}
	c, err = auto.Choose(self, self, auto.Options{Probes: 4, Rounds: 1})
	if err != nil {
		t.Fatal(err)
	}
	if c.First.Env != c.First.Fly || c.All.Env != c.All.Fly {
		t.Error("a model flown against itself was built twice")
	}
}

// TestChooseErrors checks the errors of Choose: bad options and sources,
// and a build that fails.
func TestChooseErrors(t *testing.T) {
	sc := twoSpheres(t)
	for _, tc := range []struct {
		o    auto.Options
		want string
	}{
		{auto.Options{Eps: -1}, "tolerance"},
		{auto.Options{Probes: -1}, "negative"},
		{auto.Options{Modes: 4}, "modes"},
		{auto.Options{Candidates: []collide.BV{}}, "no candidates"},
		{auto.Options{Candidates: []collide.BV{collide.Brute}}, "not a kind of tree"},
		{auto.Options{Candidates: []collide.BV{collide.BV(200)}}, "not a kind of tree"},
		{auto.Options{Candidates: []collide.BV{collide.OBB, collide.OBB}}, "twice"},
		// (The zero Pose is the identity, a valid pose; a scaling is not.)
		{auto.Options{Poses: []geom.Pose{{R: geom.Mat3{{2, 0, 0}, {0, 1, 0}, {0, 0, 1}}}}}, "pose 0"},
	} {
		env, fly := sources(sc, collide.BuildOptions{})
		if _, err := auto.Choose(env, fly, tc.o); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Choose(%+v): %v, want %q", tc.o, err, tc.want)
		}
	}
	_, fly := sources(sc, collide.BuildOptions{})
	if _, err := auto.Choose(auto.Source{}, fly, auto.Options{}); !errors.Is(err, collide.ErrInvalidQuery) {
		t.Errorf("Choose of no mesh: %v", err)
	}
	other, err := collide.Build(sc.Env, collide.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := auto.Choose(auto.Source{Mesh: sc.Fly, Model: other}, fly, auto.Options{}); !errors.Is(err, collide.ErrInvalidQuery) {
		t.Errorf("Choose of a model of another mesh: %v", err)
	}
	env, fly := sources(sc, collide.BuildOptions{Leaf: 1 << 20})
	if _, err := auto.Choose(env, fly, auto.Options{}); err == nil {
		t.Error("Choose with a leaf size out of range succeeded")
	}
}

// TestChoiceConcurrent flies the models chosen from many goroutines at
// once (run it with -race).
func TestChoiceConcurrent(t *testing.T) {
	sc := twoSpheres(t)
	c := mustChoose(t, sc, auto.Options{Probes: 8, Rounds: 1})
	rng := rand.New(rand.NewPCG(3, 4))
	var poses []geom.Pose
	for range 16 {
		poses = append(poses, randomPose(rng, 1))
	}
	want := make([][][2]int32, len(poses))
	for i, p := range poses {
		want[i] = testgeom.Brute(sc.Env, sc.Fly, p, 0)
	}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			m := c.For(g%2 == 0)
			for i, p := range poses {
				r, err := collide.Check(m.Env, m.Fly, p, collide.QueryOptions{All: g%2 == 0})
				if err != nil {
					t.Error(err)
					return
				}
				if g%2 == 0 && !slices.Equal(pairsOf(r), want[i]) || r.Collide != (len(want[i]) > 0) {
					t.Errorf("goroutine %d pose %d: %d pairs, oracle %d", g, i, len(r.Pairs), len(want[i]))
				}
			}
		})
	}
	wg.Wait()
}

// mallocs returns the number of heap allocations f makes, counting its
// first run, with GOMAXPROCS 1 and the collector off (see the root
// package's test of the same name).
func mallocs(f func()) uint64 {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	before := ms.Mallocs
	f()
	runtime.ReadMemStats(&ms)
	return ms.Mallocs - before
}

// TestChoiceAllocs checks that a query of the models chosen allocates
// nothing once its Query is warm, and nothing in its first query after
// Query.Prepare, answering as collide.Check does (the torus scene of the
// root package's TestQueryPrepare).
func TestChoiceAllocs(t *testing.T) {
	sc := twoSpheres(t)
	c := mustChoose(t, sc, auto.Options{Probes: 8, Rounds: 1})
	var q collide.Query
	pose := geom.Translation(geom.V(0.9, 0, 0))
	for _, all := range []bool{false, true} {
		o := collide.QueryOptions{All: all}
		m := c.For(all)
		if err := q.Prepare(m.Env, m.Fly, o); err != nil {
			t.Fatal(err)
		}
		mustQuery(t, &q, m.Env, m.Fly, pose, o)
		if n := testing.AllocsPerRun(50, func() { q.Check(m.Env, m.Fly, pose, o) }); n != 0 {
			t.Errorf("all %v: %v allocations per query", all, n)
		}
	}

	torus := gen.Must(gen.Torus(geom.Vec3{}, 1, 0.3, 4000))
	ball := gen.Must(gen.Icosphere(geom.Vec3{}, 0.1, 500))
	var poses []geom.Pose
	for i := range 64 {
		a := 2 * math.Pi * float64(i) / 64
		poses = append(poses, geom.FromAxisAngle(geom.V(1, 2, 3), 5*a, geom.V(math.Cos(a), math.Sin(a), 0.2+0.15*math.Sin(3*a))))
	}
	tc, err := auto.Choose(auto.Source{Mesh: torus}, auto.Source{Mesh: ball}, auto.Options{})
	if err != nil {
		t.Fatal(err)
	}
	o := collide.QueryOptions{All: true}
	m := tc.For(true)
	var pq collide.Query
	if err := pq.Prepare(m.Env, m.Fly, o); err != nil {
		t.Fatal(err)
	}
	for i, p := range poses {
		var got collide.Result
		n := mallocs(func() {
			if got, err = pq.Check(m.Env, m.Fly, p, o); err != nil {
				t.Fatal(err)
			}
		})
		if n != 0 && i == 0 {
			t.Errorf("the first query after Prepare made %d allocations, want 0", n)
		}
		want := mustCheck(t, m.Env, m.Fly, p, o)
		if got.Collide != want.Collide || !slices.Equal(got.Pairs, want.Pairs) || got.Stats != want.Stats {
			t.Fatalf("pose %d: prepared %+v, collide.Check %+v", i, got, want)
		}
	}
}

// costClock is a fake clock that advances by a cost of the work it is
// given: the cost model T = Nv·Cv + Np·Cp + Nu·Cu (and leaf tests), with
// constants that differ from kind to kind only through the counts.
type costClock struct{ now time.Duration }

func cost(w collide.Stats) time.Duration {
	return time.Duration(100*w.BVTests + 400*w.TriTests + 100*w.LeafTests + 50*w.Updates)
}

func (c *costClock) read(w collide.Stats) time.Duration {
	c.now += cost(w)
	return c.now
}

// TestChooseFakeClock chooses on a clock that advances by a cost of the
// queries' counts, and checks the choice against the tournament computed
// here from the counts at the choice's probes: each candidate's time, the
// kind chosen per mode (a later kind wins only when cheaper by more than
// 3%), and its rounds (two when the challenger was more than 15% away
// from the best so far in both modes, else three).
func TestChooseFakeClock(t *testing.T) {
	sc := twoSpheres(t)
	cands := []collide.BV{collide.AABB, collide.KDOP14, collide.KDOP18, collide.KDOP26, collide.OBB, collide.BoxTree, collide.Sphere}
	var clock costClock
	c := mustChoose(t, sc, auto.Options{Seed: 3, Probes: 12, Candidates: cands, Clock: clock.read})
	if len(c.Candidates) != len(cands) {
		t.Fatalf("%d candidates timed, want %d", len(c.Candidates), len(cands))
	}
	var q collide.Query
	costs := make([][2]time.Duration, len(cands))
	for k, b := range cands {
		env, err := collide.Build(sc.Env, collide.BuildOptions{BV: b})
		if err != nil {
			t.Fatal(err)
		}
		fly, err := collide.Build(sc.Fly, collide.BuildOptions{BV: b})
		if err != nil {
			t.Fatal(err)
		}
		var stats [2]collide.Stats
		for i, all := range []bool{false, true} {
			var sum float64
			for _, p := range c.Poses {
				st, err := q.Each(env, fly, p, collide.QueryOptions{All: all, Method: collide.MethodTree}, func(collide.Pair) bool { return true })
				if err != nil {
					t.Fatal(err)
				}
				sum += float64(max(cost(st), 1))
				stats[i].Add(st)
			}
			costs[k][i] = time.Duration(max(sum, 1))
		}
		cc := c.Candidates[k]
		if cc.BV != b || cc.First != costs[k][0] || cc.All != costs[k][1] || cc.FirstStats != stats[0] || cc.AllStats != stats[1] {
			t.Errorf("%v: timed %v and %v (counts %v, %v), want %v and %v (%v, %v)", b, cc.First, cc.All, cc.FirstStats, cc.AllStats,
				costs[k][0], costs[k][1], stats[0], stats[1])
		}
	}
	best := [2]int{0, 0}
	rounds := make([]int, len(cands)) // of each candidate's last bout
	near := func(a, b time.Duration) bool { return float64(a) <= float64(b)*1.15 && float64(b) <= float64(a)*1.15 }
	for k := 1; k < len(cands); k++ {
		n := 2
		if near(costs[k][0], costs[best[0]][0]) || near(costs[k][1], costs[best[1]][1]) {
			n = 3
		}
		rounds[best[0]], rounds[best[1]], rounds[k] = n, n, n
		for i := range 2 {
			if float64(costs[k][i]) < float64(costs[best[i]][i])*0.97 {
				best[i] = k
			}
		}
	}
	for k, cc := range c.Candidates {
		if cc.Rounds != rounds[k] {
			t.Errorf("%v: timed in %d rounds, want %d", cc.BV, cc.Rounds, rounds[k])
		}
	}
	if c.First.BV != cands[best[0]] || c.All.BV != cands[best[1]] {
		t.Errorf("chose %v and %v, the counts say %v and %v:\n%v", c.First.BV, c.All.BV, cands[best[0]], cands[best[1]], c)
	}
	// The same models and the same clock: the same choice.
	var again costClock
	c2 := mustChoose(t, sc, auto.Options{Seed: 3, Probes: 12, Candidates: cands, Clock: again.read})
	if c2.First.BV != c.First.BV || c2.All.BV != c.All.BV || !slices.Equal(c2.Candidates, zeroBuild(c.Candidates, c2.Candidates)) {
		t.Errorf("chose again %v and %v, first %v and %v", c2.First.BV, c2.All.BV, c.First.BV, c.All.BV)
	}
}

// zeroBuild returns a's costs with b's build times, which are measured.
func zeroBuild(a, b []auto.CandidateCost) []auto.CandidateCost {
	out := slices.Clone(a)
	for i := range out {
		if i < len(b) {
			out[i].Build = b[i].Build
		}
	}
	return out
}

// blockClock is a fake clock that advances by step at the end of every
// block of queries, whatever the queries.
func blockClock(step time.Duration) auto.Clock {
	var now time.Duration
	return func(w collide.Stats) time.Duration {
		if w != (collide.Stats{}) {
			now += step
		}
		return now
	}
}

// TestChooseTies checks that a tie goes to the earlier candidate: on a
// clock that gives every block the same time, every kind measures the same
// and the first candidate is chosen in both modes, each challenger timed
// in every round (within 15% of the best).
func TestChooseTies(t *testing.T) {
	sc := twoSpheres(t)
	for _, cands := range [][]collide.BV{auto.Candidates(), {collide.OBB, collide.AABB, collide.KDOP6}} {
		c := mustChoose(t, sc, auto.Options{Probes: 12, Candidates: cands, Clock: blockClock(100 * time.Microsecond)})
		if c.First.BV != cands[0] || c.All.BV != cands[0] {
			t.Errorf("candidates %v: chose %v and %v, want the first", cands, c.First.BV, c.All.BV)
		}
		for _, cc := range c.Candidates[1:] {
			if cc.Rounds != 3 || cc.First != c.Candidates[0].First || cc.All != c.Candidates[0].All {
				t.Errorf("candidates %v: %v timed %v, %v in %d rounds, the first %v, %v", cands, cc.BV, cc.First, cc.All, cc.Rounds,
					c.Candidates[0].First, c.Candidates[0].All)
			}
		}
	}
}

// TestChooseRoundBudget checks that a round slower than its budget (250
// ms a member) ends the timing: on a clock that gives every block 300 ms,
// each candidate is timed in one round.
func TestChooseRoundBudget(t *testing.T) {
	sc := twoSpheres(t)
	c := mustChoose(t, sc, auto.Options{Probes: 12, Rounds: 3, Clock: blockClock(300 * time.Millisecond)})
	for _, cc := range c.Candidates {
		if cc.Rounds != 1 {
			t.Errorf("%v: timed in %d rounds, want 1", cc.BV, cc.Rounds)
		}
	}
	c = mustChoose(t, sc, auto.Options{Probes: 12, Rounds: 3, Clock: blockClock(time.Microsecond)})
	for _, cc := range c.Candidates[1:] {
		if cc.Rounds != 3 {
			t.Errorf("%v: timed in %d rounds on a fast clock, want 3", cc.BV, cc.Rounds)
		}
	}
}

// TestChooseGivenPoses checks that given poses are the probes: all of
// them when there are no more than Probes, else Probes of them.
func TestChooseGivenPoses(t *testing.T) {
	sc := twoSpheres(t)
	rng := rand.New(rand.NewPCG(8, 9))
	var poses []geom.Pose
	for range 20 {
		poses = append(poses, randomPose(rng, 1))
	}
	for _, n := range []int{8, 20, 40} {
		c := mustChoose(t, sc, auto.Options{Poses: poses, Probes: n, Rounds: 1, Clock: blockClock(time.Microsecond),
			Candidates: []collide.BV{collide.AABB, collide.OBB}})
		if !c.Given || c.Probes != min(n, len(poses)) || len(c.Poses) != c.Probes {
			t.Errorf("%d probes asked: given %v, %d probes, %d poses", n, c.Given, c.Probes, len(c.Poses))
		}
		for i, p := range c.Poses {
			if !slices.Contains(poses, p) {
				t.Errorf("%d probes asked: probe %d is not a given pose", n, i)
			}
			if slices.Contains(c.Poses[:i], p) {
				t.Errorf("%d probes asked: probe %d taken twice", n, i)
			}
		}
		contacts := 0
		for _, p := range c.Poses {
			if len(testgeom.Brute(sc.Env, sc.Fly, p, 0)) > 0 {
				contacts++
			}
		}
		if c.Contacts != contacts {
			t.Errorf("%d probes asked: %d in contact, oracle %d", n, c.Contacts, contacts)
		}
	}
}

// TestChoiceString checks the description of a choice.
func TestChoiceString(t *testing.T) {
	c := auto.Choice{
		Modes: auto.BothModes,
		First: auto.Pick{BV: collide.AABB}, All: auto.Pick{BV: collide.OBB},
		Candidates: []auto.CandidateCost{
			{BV: collide.AABB, First: 100, All: 300},
			{BV: collide.OBB, First: 134, All: 200},
		},
	}
	want := "first contact: aabb (obb +34%)\nall pairs: obb (aabb +50%)"
	if got := c.String(); got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
	c.Modes = auto.AllPairs
	if got := c.String(); got != "all pairs: obb (aabb +50%)" {
		t.Errorf("String() of one mode = %q", got)
	}
}
