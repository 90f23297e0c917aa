package collide_test

import (
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/internal/longtest"
	"github.com/collide3d/collide/internal/testgeom"
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

// testBVs returns the bounding volumes the tests build and query: every
// one of BVs.
func testBVs() []collide.BV { return collide.BVs() }

func randomPose(rng *rand.Rand, spread float64) geom.Pose {
	axis := geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64())
	t := geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()).Scale(spread)
	return geom.FromAxisAngle(axis, rng.Float64()*6.3, t)
}

// TestModelsAgainstOracle checks every bounding volume (and the brute-force
// model with its box filter) against the unfiltered oracle on every
// adversarial scene, at the identity and at random poses, in both modes and
// with a tolerance, through the facade (Check, the pooled path, and a reused
// Query). By default each bounding volume takes every other scene, in turn;
// every scene with COLLIDE_LONG_TESTS=1.
func TestModelsAgainstOracle(t *testing.T) {
	for _, b := range testBVs() {
		t.Run(b.String(), func(t *testing.T) { checkOracle(t, b) })
	}
}

// oracles holds the oracle's pairs of checkOracle's scenes, poses and
// tolerances, which are the same for every bounding volume (the poses are
// drawn from one seed), so that the oracle runs once for each.
var oracles sync.Map

// oracleOf returns the oracle's pairs of scene name at pose within eps:
// those held, or those brute computes, then held.
func oracleOf(name string, pose geom.Pose, eps float64, brute func() [][2]int32) [][2]int32 {
	type key struct {
		name string
		pose geom.Pose
		eps  float64
	}
	k := key{name, pose, eps}
	if v, ok := oracles.Load(k); ok {
		return v.([][2]int32)
	}
	v, _ := oracles.LoadOrStore(k, brute())
	return v.([][2]int32)
}

func checkOracle(t *testing.T, b collide.BV) {
	rng := rand.New(rand.NewPCG(5, 6))
	var q collide.Query
	for si, sc := range testgeom.AdversarialScenes(11) {
		env, err := collide.Build(sc.Env, collide.BuildOptions{BV: b})
		if err != nil {
			t.Fatalf("%s: Build(env): %v", sc.Name, err)
		}
		fly, err := collide.Build(sc.Fly, collide.BuildOptions{BV: b})
		if err != nil {
			t.Fatalf("%s: Build(fly): %v", sc.Name, err)
		}
		size := sc.Env.Bounds().Size().Norm()
		poses := []geom.Pose{geom.Identity()}
		for range 3 {
			p := randomPose(rng, 0.05*size)
			c := sc.Env.Bounds().Center()
			// Rotate about the scene's centre so that the models still meet.
			p.T = p.T.Add(c).Sub(p.R.MulVec(c))
			poses = append(poses, p)
		}
		if !longtest.Enabled() && (si+int(b))%2 != 0 {
			continue // by default half the scenes per bounding volume, in turn
		}
		for i, pose := range poses {
			for _, eps := range []float64{0, 0.01 * size} {
				want := oracleOf(sc.Name, pose, eps, func() [][2]int32 { return testgeom.Brute(sc.Env, sc.Fly, pose, eps) })
				all := mustCheck(t, env, fly, pose, collide.QueryOptions{All: true, Eps: eps})
				if got := pairsOf(all); !slices.Equal(got, want) {
					t.Errorf("%s pose %d eps %g: %d pairs, oracle %d", sc.Name, i, eps, len(got), len(want))
				}
				if got := pairsOf(mustQuery(t, &q, env, fly, pose, collide.QueryOptions{All: true, Eps: eps})); !slices.Equal(got, want) {
					t.Errorf("%s pose %d eps %g: Query.Check: %d pairs, oracle %d", sc.Name, i, eps, len(got), len(want))
				}
				if all.Collide != (len(want) > 0) {
					t.Errorf("%s pose %d: Collide = %v with %d oracle pairs", sc.Name, i, all.Collide, len(want))
				}
				first := mustCheck(t, env, fly, pose, collide.QueryOptions{Eps: eps})
				switch {
				case len(want) == 0 && (first.Collide || len(first.Pairs) != 0):
					t.Errorf("%s pose %d: first contact %v, oracle none", sc.Name, i, first.Pairs)
				case len(want) > 0 && (len(first.Pairs) != 1 || !slices.Contains(want, pairsOf(first)[0])):
					t.Errorf("%s pose %d: first contact %v is not an oracle pair", sc.Name, i, first.Pairs)
				}
			}
		}
	}
}

func TestBuildRejects(t *testing.T) {
	m := testgeom.LatticeSoup(rand.New(rand.NewPCG(1, 1)), 10, 3)
	if _, err := collide.Build(m, collide.BuildOptions{BV: collide.BV(200)}); !errors.Is(err, collide.ErrUnknownBV) {
		t.Errorf("Build with an unknown BV: %v", err)
	}
	bad := *m
	bad.Tris = append([][3]int32{{0, 1, 99999}}, m.Tris...)
	if _, err := collide.Build(&bad, collide.BuildOptions{}); err == nil {
		t.Error("Build of a mesh with an out-of-range index succeeded")
	}
}

// TestBVNames checks that every bounding volume's name parses back to it,
// that the zero BuildOptions mean 18-DOPs, and that unknown names and
// values are errors.
func TestBVNames(t *testing.T) {
	want := []string{"kdop6", "kdop8", "kdop12", "kdop14", "kdop18", "kdop20", "kdop26", "obb", "sphere", "aabb", "boxtree", "rss", "brute"}
	var got []string
	for _, b := range collide.BVs() {
		got = append(got, b.String())
		if p, err := collide.ParseBV(b.String()); p != b || err != nil {
			t.Errorf("ParseBV(%q) = %v, %v", b, p, err)
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("BVs: %q, want %q", got, want)
	}
	if collide.BV(0) != collide.KDOP18 || collide.BVDefault != collide.KDOP18 {
		t.Errorf("the zero BV is %v and BVDefault %v, want kdop18", collide.BV(0), collide.BVDefault)
	}
	m, err := collide.Build(testgeom.LatticeSoup(rand.New(rand.NewPCG(1, 1)), 10, 3), collide.BuildOptions{})
	if err != nil || m.BV() != collide.KDOP18 || m.Tree().K() != 18 {
		t.Errorf("the zero BuildOptions built %v (%v)", m.BV(), err)
	}
	for _, s := range []string{"", "KDOP18", "kdop7", "rss "} {
		if _, err := collide.ParseBV(s); !errors.Is(err, collide.ErrUnknownBV) || !strings.Contains(err.Error(), "kdop6, kdop8, kdop12, kdop14") {
			t.Errorf("ParseBV(%q): %v", s, err)
		}
	}
	// The values stored before the 8-, 12- and 20-DOPs joined are kept.
	for b, v := range map[collide.BV]uint8{collide.KDOP18: 0, collide.KDOP6: 1, collide.KDOP14: 2, collide.KDOP26: 3, collide.OBB: 4,
		collide.Sphere: 5, collide.AABB: 6, collide.BoxTree: 7, collide.RSS: 8, collide.Brute: 9} {
		if uint8(b) != v {
			t.Errorf("%v = %d, want %d", b, uint8(b), v)
		}
	}
	if s := collide.BV(200).String(); s != "BV(200)" {
		t.Errorf("BV(200).String() = %q", s)
	}
	for _, r := range []collide.Rule{collide.Splatter, collide.LongestSide, collide.MinSum, collide.MinMax, collide.RAPID} {
		if p, err := collide.ParseRule(r.String()); p != r || err != nil {
			t.Errorf("ParseRule(%q) = %v, %v", r, p, err)
		}
	}
	for _, s := range []collide.Split{collide.Mean, collide.Median} {
		if p, err := collide.ParseSplit(s.String()); p != s || err != nil {
			t.Errorf("ParseSplit(%q) = %v, %v", s, p, err)
		}
	}
}
