package collide_test

import (
	"bytes"
	"errors"
	"fmt"
	"log"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/internal/testgeom"
	"github.com/collide3d/collide/mesh/gen"
)

// TestParseAuto checks Auto's name and that BVs, the bounding volumes,
// does not list it.
func TestParseAuto(t *testing.T) {
	b, err := collide.ParseBV("auto")
	if err != nil || b != collide.Auto || b.String() != "auto" {
		t.Errorf(`ParseBV("auto") = %v, %v`, b, err)
	}
	if slices.Contains(collide.BVs(), collide.Auto) {
		t.Error("BVs lists Auto, which is not a bounding volume")
	}
	if _, err := collide.ParseBV("Auto"); !errors.Is(err, collide.ErrUnknownBV) || !strings.Contains(err.Error(), "brute, auto") {
		t.Errorf(`ParseBV("Auto"): %v`, err)
	}
	if !collide.Auto.Compatible(collide.Auto) || !collide.Auto.Compatible(collide.Brute) || collide.Auto.Compatible(collide.KDOP18) ||
		collide.OBB.Compatible(collide.Auto) {
		t.Error("Auto.Compatible: wrong")
	}
	want := []collide.BV{collide.AABB, collide.KDOP14, collide.KDOP18, collide.KDOP26, collide.OBB}
	if got := collide.AutoCandidates(); !slices.Equal(got, want) {
		t.Errorf("AutoCandidates() = %v, want %v", got, want)
	}
}

// buildAuto builds auto models of env and fly, failing the test on an
// error.
func buildAutoPair(t testing.TB, sc testgeom.Scene, o collide.BuildOptions) (env, fly *collide.Model) {
	t.Helper()
	o.BV = collide.Auto
	env, err := collide.Build(sc.Env, o)
	if err != nil {
		t.Fatalf("%s: Build(env): %v", sc.Name, err)
	}
	fly, err = collide.Build(sc.Fly, o)
	if err != nil {
		t.Fatalf("%s: Build(fly): %v", sc.Name, err)
	}
	return env, fly
}

// TestAutoAgainstOracle checks auto models against the brute-force oracle
// on every adversarial scene, at the identity and at random poses, in both
// modes, with and without a tolerance: pairs chosen ahead of the queries
// (Choose, given the poses, and with generated probes) and (every third
// scene) pairs that choose on their first query; and auto models against
// brute-force ones.
func TestAutoAgainstOracle(t *testing.T) {
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
			if way == 2 && si%3 != 0 {
				continue // the first queries choose with the defaults: slower
			}
			env, fly := buildAutoPair(t, sc, collide.BuildOptions{})
			switch way {
			case 0: // chosen at the poses to come
				if _, err := collide.Choose(env, fly, collide.ChooseOptions{Poses: poses, Probes: 4, Rounds: 1}); err != nil {
					t.Fatalf("%s: Choose: %v", sc.Name, err)
				}
			case 1: // chosen at generated probes
				if _, err := collide.Choose(env, fly, collide.ChooseOptions{Probes: 6, Rounds: 1, Seed: uint64(si)}); err != nil {
					t.Fatalf("%s: Choose: %v", sc.Name, err)
				}
			}
			brute, err := fly.WithBV(collide.Brute)
			if err != nil {
				t.Fatal(err)
			}
			for i, pose := range poses {
				for k, eps := range []float64{0, 0.01 * size} {
					want := want[i][k]
					o := collide.QueryOptions{All: true, Eps: eps}
					if got := pairsOf(mustCheck(t, env, fly, pose, o)); !slices.Equal(got, want) {
						t.Errorf("%s way %d pose %d eps %g: %d pairs, oracle %d", sc.Name, way, i, eps, len(got), len(want))
					}
					if got := pairsOf(mustQuery(t, &q, env, fly, pose, o)); !slices.Equal(got, want) {
						t.Errorf("%s way %d pose %d eps %g: Query.Check: %d pairs, oracle %d", sc.Name, way, i, eps, len(got), len(want))
					}
					if way == 0 && eps == 0 {
						if got := pairsOf(mustCheck(t, env, brute, pose, o)); !slices.Equal(got, want) {
							t.Errorf("%s pose %d: auto against brute: %d pairs, oracle %d", sc.Name, i, len(got), len(want))
						}
					}
					first := mustCheck(t, env, fly, pose, collide.QueryOptions{Eps: eps})
					switch {
					case len(want) == 0 && first.Collide:
						t.Errorf("%s way %d pose %d: first contact %v, oracle none", sc.Name, way, i, first.Pairs)
					case len(want) > 0 && (len(first.Pairs) != 1 || !slices.Contains(want, pairsOf(first)[0])):
						t.Errorf("%s way %d pose %d: first contact %v is not an oracle pair", sc.Name, way, i, first.Pairs)
					}
				}
			}
			c, ok := collide.Chosen(env, fly)
			if !ok || c.Probes == 0 || len(c.Candidates) == 0 {
				t.Errorf("%s way %d: Chosen = %+v, %v", sc.Name, way, c, ok)
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
// function of the models and the seed, that a clearly faster kind is
// chosen every time, and that the choice is made once per pair.
func TestChooseDeterministic(t *testing.T) {
	sc := twoSpheres(t)
	o := collide.ChooseOptions{Seed: 7, Probes: 12, Candidates: []collide.BV{collide.BoxTree, collide.KDOP18}}
	var first collide.Choice
	for i := range 3 {
		env, fly := buildAutoPair(t, sc, collide.BuildOptions{})
		c, err := collide.Choose(env, fly, o)
		if err != nil {
			t.Fatal(err)
		}
		if c.First != collide.KDOP18 || c.All != collide.KDOP18 {
			t.Errorf("run %d: chose %v and %v, want kdop18 (box-trees are much slower):\n%v", i, c.First, c.All, c)
		}
		if c.Probes != 12 || c.Contacts > c.Probes || c.Given {
			t.Errorf("run %d: %d probes, %d in contact, given %v", i, c.Probes, c.Contacts, c.Given)
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
		if c.Contacts != first.Contacts {
			t.Errorf("run %d: %d probes in contact, first run %d", i, c.Contacts, first.Contacts)
		}
		// Chosen once: another Choose returns the same choice.
		again, err := collide.Choose(env, fly, collide.ChooseOptions{Candidates: []collide.BV{collide.OBB}})
		if err != nil || again.First != c.First || again.Time != c.Time {
			t.Errorf("run %d: Choose again chose %v in %v (%v), first %v in %v", i, again.First, again.Time, err, c.First, c.Time)
		}
		// Another seed gives other probes.
		env2, fly2 := buildAutoPair(t, sc, collide.BuildOptions{})
		o2 := o
		o2.Seed++
		c2, err := collide.Choose(env2, fly2, o2)
		if err != nil {
			t.Fatal(err)
		}
		if c2.Candidates[1].AllStats == c.Candidates[1].AllStats {
			t.Errorf("seeds %d and %d gave the same counts", o.Seed, o2.Seed)
		}
	}
}

// TestAutoMemory checks that once chosen, a model holds the trees chosen
// for it and no other, and that WithBV gives them without building.
func TestAutoMemory(t *testing.T) {
	sc := twoSpheres(t)
	env, fly := buildAutoPair(t, sc, collide.BuildOptions{})
	k18, err := env.WithBV(collide.KDOP18)
	if err != nil {
		t.Fatal(err)
	}
	if env.Bytes() != k18.Bytes() || env.Tree() != nil || env.BV() != collide.Auto || env.Options().BV != collide.Auto {
		t.Errorf("built: %d bytes, want the 18-DOP tree's %d", env.Bytes(), k18.Bytes())
	}
	if again, _ := env.WithBV(collide.KDOP18); again != k18 {
		t.Error("WithBV(kdop18) of an auto model built its tree again")
	}
	c, err := collide.Choose(env, fly, collide.ChooseOptions{Probes: 8, Rounds: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []*collide.Model{env, fly} {
		var want int64
		for _, b := range []collide.BV{c.First, c.All} {
			tm, err := m.WithBV(b)
			if err != nil {
				t.Fatal(err)
			}
			want += tm.Bytes()
			if c.All == c.First {
				break
			}
		}
		if m.Bytes() != want {
			t.Errorf("after choosing %v/%v: %d bytes, want %d", c.First, c.All, m.Bytes(), want)
		}
	}
	if len(c.Candidates) != len(collide.AutoCandidates()) {
		t.Errorf("%d candidates timed, want %d", len(c.Candidates), len(collide.AutoCandidates()))
	}
	// A model of another volume becomes an auto model holding it.
	obb, err := collide.Build(sc.Fly, collide.BuildOptions{BV: collide.OBB})
	if err != nil {
		t.Fatal(err)
	}
	a, err := obb.WithBV(collide.Auto)
	if err != nil || a.BV() != collide.Auto || a.Bytes() != obb.Bytes() || a.Mesh() != obb.Mesh() {
		t.Errorf("obb.WithBV(Auto): %v, %v", a, err)
	}
	if back, _ := a.WithBV(collide.OBB); back != obb {
		t.Error("an auto model made from an OBB model does not give it back")
	}
}

// TestAutoErrors checks the errors of auto models: against models of
// other volumes, Choose of models that are not auto, bad options, Save.
func TestAutoErrors(t *testing.T) {
	sc := twoSpheres(t)
	env, fly := buildAutoPair(t, sc, collide.BuildOptions{})
	pose := geom.Translation(geom.V(0.9, 0, 0))
	for _, b := range []collide.BV{collide.KDOP18, collide.OBB, collide.AABB} {
		other, err := collide.Build(sc.Fly, collide.BuildOptions{BV: b})
		if err != nil {
			t.Fatal(err)
		}
		otherEnv, err := collide.Build(sc.Env, collide.BuildOptions{BV: b})
		if err != nil {
			t.Fatal(err)
		}
		for _, pair := range [][2]*collide.Model{{env, other}, {otherEnv, fly}} {
			_, err := collide.Check(pair[0], pair[1], pose, collide.QueryOptions{})
			if !errors.Is(err, collide.ErrInvalidQuery) || !strings.Contains(err.Error(), "auto model") ||
				!strings.Contains(err.Error(), b.String()) || !strings.Contains(err.Error(), "WithBV") {
				t.Errorf("%v against %v: %v", pair[1].BV(), pair[0].BV(), err)
			}
		}
		if _, err := collide.Choose(env, other, collide.ChooseOptions{}); !errors.Is(err, collide.ErrInvalidQuery) ||
			!strings.Contains(err.Error(), "not an auto model") {
			t.Errorf("Choose with a %v model: %v", b, err)
		}
		// The fix the error gives works.
		a, err := other.WithBV(collide.Auto)
		if err != nil {
			t.Fatal(err)
		}
		want := testgeom.Brute(sc.Env, sc.Fly, pose, 0)
		if got := pairsOf(mustCheck(t, env, a, pose, collide.QueryOptions{All: true})); !slices.Equal(got, want) {
			t.Errorf("auto made from %v: %d pairs, oracle %d", b, len(got), len(want))
		}
	}
	for _, tc := range []struct {
		o    collide.ChooseOptions
		want string
	}{
		{collide.ChooseOptions{Eps: -1}, "tolerance"},
		{collide.ChooseOptions{Probes: -1}, "negative"},
		{collide.ChooseOptions{Modes: 4}, "modes"},
		{collide.ChooseOptions{Candidates: []collide.BV{}}, "no candidates"},
		{collide.ChooseOptions{Candidates: []collide.BV{collide.Brute}}, "not a kind of tree"},
		{collide.ChooseOptions{Candidates: []collide.BV{collide.Auto}}, "not a kind of tree"},
		{collide.ChooseOptions{Candidates: []collide.BV{collide.OBB, collide.OBB}}, "twice"},
		{collide.ChooseOptions{Poses: []geom.Pose{{}}}, "pose 0"},
	} {
		e2, f2 := buildAutoPair(t, sc, collide.BuildOptions{})
		if _, err := collide.Choose(e2, f2, tc.o); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Choose(%+v): %v, want %q", tc.o, err, tc.want)
		}
		if _, ok := collide.Chosen(e2, f2); ok {
			t.Errorf("Choose(%+v) failed but left a choice", tc.o)
		}
	}
	if _, err := collide.Choose(nil, fly, collide.ChooseOptions{}); !errors.Is(err, collide.ErrInvalidQuery) {
		t.Errorf("Choose(nil, fly): %v", err)
	}
	if err := env.Save(&bytes.Buffer{}); err == nil || !strings.Contains(err.Error(), "auto") {
		t.Errorf("Save of an auto model: %v", err)
	}
	if _, err := collide.Build(sc.Env, collide.BuildOptions{BV: collide.Auto, Leaf: 1 << 20}); err == nil {
		t.Error("Build(Auto) with a leaf size out of range succeeded")
	}
}

// TestAutoConcurrent flies one pair of auto models from many goroutines at
// once, the first queries choosing (run it with -race).
func TestAutoConcurrent(t *testing.T) {
	sc := twoSpheres(t)
	env, fly := buildAutoPair(t, sc, collide.BuildOptions{})
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
			for i, p := range poses {
				r, err := collide.Check(env, fly, p, collide.QueryOptions{All: g%2 == 0})
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
	if _, ok := collide.Chosen(env, fly); !ok {
		t.Error("no choice after the queries")
	}
}

// ExampleChoose builds auto models and chooses their trees before the
// queries, so that no query pays for the choice.
func ExampleChoose() {
	torus := gen.Must(gen.Torus(geom.Vec3{}, 1, 0.3, 2000))
	ball := gen.Must(gen.Icosphere(geom.Vec3{}, 0.3, 500))
	env, err := collide.Build(torus, collide.BuildOptions{BV: collide.Auto})
	if err != nil {
		log.Fatal(err)
	}
	fly, err := collide.Build(ball, collide.BuildOptions{BV: collide.Auto})
	if err != nil {
		log.Fatal(err)
	}
	// Choose at the poses the ball will fly through (without Poses, at
	// poses generated near contact).
	var path []geom.Pose
	for i := range 50 {
		path = append(path, geom.FromAxisAngle(geom.V(0, 0, 1), 0.1*float64(i), geom.V(1, 0, 0.2)))
	}
	choice, err := collide.Choose(env, fly, collide.ChooseOptions{Poses: path})
	if err != nil {
		log.Fatal(err)
	}
	// The queries run on the trees of the kind chosen for their mode (which
	// depends on the machine: choice.String() says how they measured).
	_ = choice.For(true)
	res, err := collide.Check(env, fly, path[5], collide.QueryOptions{All: true})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(res.Pairs), "pairs")
	// Output:
	// 102 pairs
}

// TestAutoAllocs checks that a query of a chosen pair of auto models
// allocates nothing once its Query is warm.
func TestAutoAllocs(t *testing.T) {
	sc := twoSpheres(t)
	env, fly := buildAutoPair(t, sc, collide.BuildOptions{})
	if _, err := collide.Choose(env, fly, collide.ChooseOptions{Probes: 8, Rounds: 1}); err != nil {
		t.Fatal(err)
	}
	var q collide.Query
	pose := geom.Translation(geom.V(0.9, 0, 0))
	for _, all := range []bool{false, true} {
		o := collide.QueryOptions{All: all}
		if err := q.Prepare(env, fly, o); err != nil {
			t.Fatal(err)
		}
		mustQuery(t, &q, env, fly, pose, o)
		if n := testing.AllocsPerRun(50, func() { q.Check(env, fly, pose, o) }); n != 0 {
			t.Errorf("all %v: %v allocations per query", all, n)
		}
	}
}

// BenchmarkAutoQuery measures what finding the chosen trees costs a
// query: the same query through auto models and through models of the
// kind chosen.
func BenchmarkAutoQuery(b *testing.B) {
	sc := twoSpheres(b)
	env, fly := buildAutoPair(b, sc, collide.BuildOptions{})
	c, err := collide.Choose(env, fly, collide.ChooseOptions{Probes: 8, Rounds: 1})
	if err != nil {
		b.Fatal(err)
	}
	e, _ := env.WithBV(c.First)
	f, _ := fly.WithBV(c.First)
	pose := geom.Translation(geom.V(0.9, 0, 0))
	for _, m := range []struct {
		name     string
		env, fly *collide.Model
	}{{"auto", env, fly}, {c.First.String(), e, f}} {
		b.Run(m.name, func(b *testing.B) {
			var q collide.Query
			b.ReportAllocs()
			for b.Loop() {
				q.Check(m.env, m.fly, pose, collide.QueryOptions{})
			}
		})
	}
}
