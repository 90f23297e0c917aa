package bvh_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/collide3d/collide/bvh"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/internal/longtest"
	"github.com/collide3d/collide/internal/testgeom"
	"github.com/collide3d/collide/mesh"
	"github.com/collide3d/collide/mesh/gen"
)

// path returns n poses of a flight about centre c of size s: the model
// comes from far away, tumbles slowly through c and leaves, with steps of
// a few hundredths of s and some jumps.
func path(rng *rand.Rand, c geom.Vec3, s float64, n int) []geom.Pose {
	axis := geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64())
	dir := geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()).Unit()
	var ps []geom.Pose
	for i := range n {
		u := float64(i)/float64(n-1)*2 - 1 // -1 .. 1
		if i == n/3 {
			u += 0.2 // a jump
		}
		p := geom.FromAxisAngle(axis, 0.02*float64(i), dir.Scale(2*s*u*u*u))
		p.T = p.T.Add(c).Sub(p.R.MulVec(c))
		ps = append(ps, p)
	}
	return ps
}

// coherenceScenes returns the scenes the coherence tests fly through:
// adversarial soups, and a tumbling sphere through a torus.
func coherenceScenes() []testgeom.Scene {
	sc := testgeom.AdversarialScenes(7)
	torus := must(gen.Torus(geom.Vec3{}, 1, 0.3, 400))
	ball := must(gen.Icosphere(geom.V(1, 0, 0), 0.3, 80))
	return append(sc, testgeom.Scene{Name: "torus", Env: torus, Fly: ball})
}

// sceneFrame returns the centre and size of a scene's environment.
func sceneFrame(m *mesh.TriMesh) (geom.Vec3, float64) {
	b := m.Bounds()
	d := b.Max.Sub(b.Min)
	return b.Min.Add(b.Max).Scale(0.5), max(d.X, d.Y, d.Z)
}

// TestFrontMatchesFresh checks that queries from a front find, at every
// step of flights through the adversarial scenes, exactly the pairs of
// queries from the roots, for every configuration of the conformance suite,
// in both modes and with a tolerance; that first-contact queries keep
// their early exit (one pair reported); and that fronts pay: fewer tests
// in all than from the roots, some pairs kept without a test.
func TestFrontMatchesFresh(t *testing.T) {
	// Every third configuration (the matrix has every kind in each third)
	// with COLLIDE_LONG_TESTS=1; by default every eighth from the second,
	// which still has every kind, a restart, an exact root and float64
	// storage; every eighth from the first with -short.
	step, off := longtest.Pick(8, 3), longtest.Pick(1, 0)
	if testing.Short() {
		step, off = 8, 0
	}
	var cs []config
	for i, c := range configs() {
		if i%step == off {
			cs = append(cs, c)
		}
	}
	scenes := coherenceScenes()
	var fresh, tracked, skipped int64
	for ci, c := range cs {
		sc := scenes[ci%len(scenes)]
		env, err := bvh.Build(sc.Env, c.opts)
		if err != nil {
			t.Fatal(err)
		}
		fly, err := bvh.Build(sc.Fly, c.opts)
		if err != nil {
			t.Fatal(err)
		}
		centre, size := sceneFrame(sc.Env)
		rng := rand.New(rand.NewPCG(uint64(ci), 17))
		poses := path(rng, centre, size, 30)
		for _, eps := range []float64{0, 0.003 * size} {
			for _, all := range []bool{true, false} {
				var front bvh.Front
				s1, s2 := new(bvh.Scratch), new(bvh.Scratch)
				name := fmt.Sprintf("%v/%s/eps%g/all=%v", c, sc.Name, eps, all)
				for i, p := range poses {
					q := c.q
					q.All, q.Eps = true, eps
					want, st := collect(env, fly, p, q, s1)
					q.All, q.Front = all, &front
					got, ft := collect(env, fly, p, q, s2)
					if all {
						fresh += st.BVTests + st.LeafTests
						tracked += ft.BVTests + ft.LeafTests
						skipped += ft.Skipped
						if !slices.Equal(got, want) {
							t.Fatalf("%s step %d: front found %d pairs, roots %d (missing %v, extra %v)", name, i, len(got), len(want), diff(want, got), diff(got, want))
						}
						continue
					}
					if len(got) > 1 {
						t.Fatalf("%s step %d: a first-contact query from a front reported %d pairs", name, i, len(got))
					}
					if (len(got) == 1) != (len(want) > 0) || len(got) == 1 && !slices.Contains(want, got[0]) {
						t.Fatalf("%s step %d: front %v, roots %d pairs", name, i, got, len(want))
					}
				}
			}
		}
	}
	t.Logf("all pairs: %d tests from the roots, %d from fronts, %d pairs kept untested", fresh, tracked, skipped)
	if tracked >= fresh || skipped == 0 {
		t.Errorf("fronts do not pay: %d tests from the roots, %d from fronts, %d kept", fresh, tracked, skipped)
	}
}

// TestFrontAgainstOracle checks a front against the brute-force oracle on
// a long flight with a tolerance, so that the bounds it keeps across many
// steps are exercised, and that the front rises again when the model
// leaves (it is no larger at the end than early in the flight).
func TestFrontAgainstOracle(t *testing.T) {
	torus := must(gen.Torus(geom.Vec3{}, 1, 0.3, 300))
	ball := must(gen.Icosphere(geom.V(1, 0, 0), 0.25, 80))
	rng := rand.New(rand.NewPCG(5, 5))
	poses := path(rng, geom.Vec3{}, 2.6, 150)
	for _, o := range []bvh.Options{{K: 18}, {K: 6, FlyLeaf: 4}, {Kind: bvh.OBB}, {Kind: bvh.RSS}, {Kind: bvh.Sphere, Leaf: 2}, {Kind: bvh.AABB}, {Kind: bvh.BoxTree, Leaf: 4}} {
		env, fly := must(bvh.Build(torus, o)), must(bvh.Build(ball, o))
		var front bvh.Front
		s := new(bvh.Scratch)
		sizes := make([]int, len(poses))
		for i, p := range poses {
			got, _ := collect(env, fly, p, bvh.QueryOptions{All: true, Eps: 0.01, Front: &front}, s)
			want := testgeom.Brute(torus, ball, p, 0.01)
			if !slices.Equal(got, want) {
				t.Fatalf("%v step %d: front found %d pairs, oracle %d", o.Kind, i, len(got), len(want))
			}
			sizes[i] = front.Len()
		}
		peak := slices.Max(sizes)
		if end := sizes[len(sizes)-1]; end >= peak {
			t.Errorf("%v: the front did not rise as the model left: %d pairs at the end, %d at most", o.Kind, end, peak)
		}
	}
}

// TestBudget checks time-critical queries: with budgets of a few tests,
// resumed until done, a query reports exactly the pairs of an unbudgeted
// one; a first-contact query's contact is a true one and its "no contact"
// is only said when done; and small budgets do leave queries pending.
func TestBudget(t *testing.T) {
	scenes := coherenceScenes()
	pending := 0
	// Every third configuration with COLLIDE_LONG_TESTS=1, by default every
	// eighth from the second (every kind).
	step, off := longtest.Pick(8, 3), longtest.Pick(1, 0)
	for ci, c := range configs() {
		if ci%step != off {
			continue
		}
		sc := scenes[ci%len(scenes)]
		env, fly := must(bvh.Build(sc.Env, c.opts)), must(bvh.Build(sc.Fly, c.opts))
		centre, size := sceneFrame(sc.Env)
		rng := rand.New(rand.NewPCG(uint64(ci), 3))
		for i, p := range path(rng, centre, size, 12) {
			q := c.q
			q.All = true
			want, _ := collect(env, fly, p, q, nil)
			for _, all := range []bool{true, false} {
				var pd bvh.Pending
				var got [][2]int32
				fn := func(x bvh.Pair) bool { got = append(got, [2]int32{x.Env, x.Fly}); return true }
				q := c.q
				q.All, q.Budget, q.Pending = all, bvh.Budget{Tests: 1 + int64(rng.IntN(40))}, &pd
				bvh.Collide(env, fly, p, q, nil, fn)
				for n := 0; !pd.Done(); n++ {
					pending++
					if n > 1e6 {
						t.Fatalf("%v step %d: the query never ends", c, i)
					}
					pd.Resume(nil, bvh.Budget{Tests: 1 + int64(rng.IntN(40))}, fn)
				}
				slices.SortFunc(got, func(a, b [2]int32) int { return int(a[0]-b[0])*1<<20 + int(a[1]-b[1]) })
				if all && !slices.Equal(got, want) {
					t.Fatalf("%v step %d: budgeted queries found %d pairs, one query %d (missing %v, extra %v)", c, i, len(got), len(want), diff(want, got), diff(got, want))
				}
				if !all && ((len(got) > 0) != (len(want) > 0) || len(got) > 1 || len(got) == 1 && !slices.Contains(want, got[0])) {
					t.Fatalf("%v step %d: budgeted first contact %v, %d pairs in all", c, i, got, len(want))
				}
			}
		}
	}
	if pending == 0 {
		t.Error("no budget ran out")
	}
}

// TestDeadline checks that a past deadline stops a query at once (within a
// chunk of pairs) and that resuming it without a budget finishes it.
func TestDeadline(t *testing.T) {
	torus := must(gen.Torus(geom.Vec3{}, 1, 0.3, 2000))
	env, fly := must(bvh.Build(torus, bvh.Options{})), must(bvh.Build(torus, bvh.Options{}))
	pose := geom.FromAxisAngle(geom.V(1, 0, 0), 0.01, geom.V(0.001, 0, 0))
	want, _ := collect(env, fly, pose, bvh.QueryOptions{All: true}, nil)
	var pd bvh.Pending
	var got [][2]int32
	fn := func(x bvh.Pair) bool { got = append(got, [2]int32{x.Env, x.Fly}); return true }
	st := bvh.Collide(env, fly, pose, bvh.QueryOptions{All: true, Budget: bvh.Budget{Deadline: time.Now().Add(-time.Second)}, Pending: &pd}, nil, fn)
	if pd.Done() || st.BVTests > 256 {
		t.Fatalf("a past deadline left done=%v after %d tests", pd.Done(), st.BVTests)
	}
	pd.Resume(nil, bvh.Budget{}, fn)
	if !pd.Done() || len(got) != len(want) {
		t.Fatalf("resumed: done=%v, %d pairs, want %d", pd.Done(), len(got), len(want))
	}
}

// bruteDistance returns the smallest geom.TriTriDistance over every pair of
// triangles of env and fly at pose, and whether some pair is in contact.
func bruteDistance(env, fly *mesh.TriMesh, pose geom.Pose) (float64, bool) {
	best := math.Inf(1)
	for j := range fly.NumTriangles() {
		b := pose.ApplyTriangle(fly.Triangle(j))
		for i := range env.NumTriangles() {
			d, _, _ := geom.TriTriDistance(env.Triangle(i), b)
			best = min(best, d)
		}
	}
	return best, best == 0
}

// TestDistance checks Distance against brute force for every
// configuration (by default a sixth), on the adversarial scenes and a torus, at random poses
// near and far: the same distance (to within the distance's own rounding
// bound), witnesses at that distance, 0 exactly on contact, and the
// cut-off: Far exactly when the distance is not below it.
func TestDistance(t *testing.T) {
	scenes := coherenceScenes()
	cs := configs()
	// Every configuration with COLLIDE_LONG_TESTS=1, by default every
	// sixth from the fourth (every kind: a box-tree among them), every
	// other of those with -short.
	step, off := longtest.Pick(6, 1), longtest.Pick(3, 0)
	if testing.Short() {
		step *= 2
	}
	for ci, c := range cs {
		if c.q.Restart || ci%step != off {
			continue
		}
		sc := scenes[ci%len(scenes)]
		env, fly := must(bvh.Build(sc.Env, c.opts)), must(bvh.Build(sc.Fly, c.opts))
		centre, size := sceneFrame(sc.Env)
		rng := rand.New(rand.NewPCG(uint64(ci), 9))
		s := new(bvh.Scratch)
		for i := range 6 {
			p := randomPose(rng, centre, size*float64(i)/4)
			want, touch := bruteDistance(sc.Env, sc.Fly, p)
			r := bvh.Distance(env, fly, p, bvh.DistanceOptions{}, s)
			tol := 0x1p-40 * (size + centre.Abs().Max(p.T.Abs()).Norm())
			if math.Abs(r.Distance-want) > tol {
				t.Fatalf("%v/%s pose %d: distance %g, brute force %g", c, sc.Name, i, r.Distance, want)
			}
			if (r.Distance == 0) != touch {
				t.Fatalf("%v/%s pose %d: distance %g, contact %v", c, sc.Name, i, r.Distance, touch)
			}
			a := sc.Env.Triangle(int(r.Env))
			b := p.ApplyTriangle(sc.Fly.Triangle(int(r.Fly)))
			if d, _, _ := geom.TriTriDistance(a, b); d != r.Distance || math.Abs(r.PEnv.Distance(r.PFly)-r.Distance) > tol {
				t.Fatalf("%v/%s pose %d: witnesses %d, %d at %g (points %g apart), reported %g", c, sc.Name, i, r.Env, r.Fly, d, r.PEnv.Distance(r.PFly), r.Distance)
			}
			if want > 0 {
				for _, m := range []float64{want * 0.5, want * 2} {
					r := bvh.Distance(env, fly, p, bvh.DistanceOptions{Max: m}, s)
					if r.Far != (m < want) || !r.Far && r.Distance != want {
						t.Fatalf("%v/%s pose %d: cut-off %g: far %v distance %g, brute force %g", c, sc.Name, i, m, r.Far, r.Distance, want)
					}
				}
			}
		}
	}
}
