package bvh_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/collide3d/collide/bv"
	"github.com/collide3d/collide/bvh"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/internal/longtest"
	"github.com/collide3d/collide/internal/testgeom"
	"github.com/collide3d/collide/mesh/gen"
)

// distanceKinds are one configuration of each kind, for the distance
// tests below (TestDistance runs the conformance matrix).
func distanceKinds() []bvh.Options {
	os := []bvh.Options{{K: bv.K6}, {K: bv.K18, Leaf: 4, FlyLeaf: 1}, {K: bv.K26, Float64: true}, {K: bv.K14, Compact: true}, {K: bv.K18, Compact: true, Leaf: 3},
		{K: bv.K8}, {K: bv.K12, Leaf: 4}, {K: bv.K20, Compact: true}}
	for _, k := range []bvh.Kind{bvh.OBB, bvh.Sphere, bvh.AABB, bvh.RSS, bvh.BoxTree} {
		os = append(os, bvh.Options{Kind: k}, bvh.Options{Kind: k, Leaf: 4})
	}
	return os
}

// TestDistanceBudget checks the best-first search stopped by its budget
// against brute force, for each kind, on the adversarial scenes and a
// torus, near and far poses: whatever the budget, Lower ≤ the distance ≤
// Distance (to within the distances' rounding), the witnesses at
// Distance; a budget that stops it says so (Stopped, not Far), one that
// does not gives the answer of the query without a budget, Lower =
// Distance; more tests never give a larger Distance nor a smaller Lower
// once the search ends; and a deadline already past stops the search
// after its first look at the clock.
func TestDistanceBudget(t *testing.T) {
	// The torus and, in turn, adversarial scenes whose brute force is
	// quick (not the coplanar ones, whose triangle distances are slow).
	var scenes []testgeom.Scene
	for _, sc := range coherenceScenes() {
		switch sc.Name {
		case "lattice", "near-miss-far", "sliver", "lattice-tiny", "random-tiny", "degenerate":
			scenes = append(scenes, sc)
		}
	}
	torus := coherenceScenes()[len(coherenceScenes())-1]
	for oi, o := range distanceKinds() {
		sc := scenes[oi/2%len(scenes)]
		if oi%2 == 1 {
			sc = torus
		}
		env, fly := must(bvh.Build(sc.Env, o)), must(bvh.Build(sc.Fly, o))
		centre, size := sceneFrame(sc.Env)
		rng := rand.New(rand.NewPCG(uint64(oi), 77))
		s := new(bvh.Scratch)
		// Two poses by default (near, and apart), four in the long run.
		for i := range longtest.Pick(2, 4) {
			p := randomPose(rng, centre, size*float64(i*3/longtest.Pick(1, 3))/3)
			name := fmt.Sprintf("%v/%s pose %d", o, sc.Name, i)
			want, _ := bruteDistance(sc.Env, sc.Fly, p)
			tol := 0x1p-40 * (size + centre.Abs().Max(p.T.Abs()).Norm())
			full := bvh.Distance(env, fly, p, bvh.DistanceOptions{}, s)
			if full.Stopped || full.Lower != full.Distance || math.Abs(full.Distance-want) > tol {
				t.Fatalf("%s: no budget: distance %g lower %g stopped %v, brute force %g", name, full.Distance, full.Lower, full.Stopped, want)
			}
			n := full.Stats.BVTests + full.Stats.LeafTests + full.Stats.TriTests
			stopped := 0
			for _, tests := range []int64{1, 2, 5, 20, 100, 1000, n + 1} {
				r := bvh.Distance(env, fly, p, bvh.DistanceOptions{Budget: bvh.Budget{Tests: tests}}, s)
				if r.Far || r.Lower > want+tol || r.Distance < want-tol {
					t.Fatalf("%s: budget %d: distance %g lower %g far %v, brute force %g", name, tests, r.Distance, r.Lower, r.Far, want)
				}
				if r.Env >= 0 {
					a, b := sc.Env.Triangle(int(r.Env)), p.ApplyTriangle(sc.Fly.Triangle(int(r.Fly)))
					if d, _, _ := geom.TriTriDistance(a, b); d != r.Distance {
						t.Fatalf("%s: budget %d: witnesses at %g, reported %g", name, tests, d, r.Distance)
					}
				} else if !r.Stopped || !math.IsInf(r.Distance, 1) {
					t.Fatalf("%s: budget %d: no witnesses, distance %g, stopped %v", name, tests, r.Distance, r.Stopped)
				}
				if r.Stopped {
					stopped++
					continue
				}
				if r.Distance != full.Distance || r.Lower != r.Distance {
					t.Fatalf("%s: budget %d not spent: distance %g lower %g, without a budget %g", name, tests, r.Distance, r.Lower, full.Distance)
				}
			}
			if n > 1 && stopped == 0 {
				t.Fatalf("%s: no budget stopped a search of %d tests", name, n)
			}
			r := bvh.Distance(env, fly, p, bvh.DistanceOptions{Budget: bvh.Budget{Deadline: time.Now().Add(-time.Second)}}, s)
			if m := r.Stats.BVTests + r.Stats.LeafTests; !r.Stopped && (m > 256+2 || r.Distance != full.Distance) || r.Lower > want+tol {
				t.Fatalf("%s: past deadline: stopped %v after %d tests, lower %g", name, r.Stopped, m, r.Lower)
			}
			// A cut-off with a budget: Far only when the search ended.
			if want > 0 {
				r := bvh.Distance(env, fly, p, bvh.DistanceOptions{Max: want * 0.5, Budget: bvh.Budget{Tests: 3}}, s)
				if r.Far == r.Stopped || r.Far && r.Lower != want*0.5 {
					t.Fatalf("%s: cut-off with a budget: far %v stopped %v lower %g", name, r.Far, r.Stopped, r.Lower)
				}
			}
		}
	}
}

// TestDistanceTouching checks that a touching pose ends the search at its
// first contact: a distance of 0 with a common point, in no more triangle
// tests than an all-pairs query makes, for each kind.
func TestDistanceTouching(t *testing.T) {
	torus := must(gen.Torus(geom.Vec3{}, 1, 0.3, 600))
	ball := must(gen.Icosphere(geom.Vec3{}, 0.4, 320))
	for _, o := range distanceKinds() {
		env, fly := must(bvh.Build(torus, o)), must(bvh.Build(ball, o))
		s := new(bvh.Scratch)
		for _, x := range []float64{0.8, 1, 1.2} {
			p := geom.Translation(geom.V(x, 0, 0))
			r := bvh.Distance(env, fly, p, bvh.DistanceOptions{}, s)
			var all bvh.Stats
			all = bvh.Collide(env, fly, p, bvh.QueryOptions{All: true}, s, func(bvh.Pair) bool { return true })
			if r.Distance != 0 || r.PEnv != r.PFly || r.Stopped {
				t.Fatalf("%v at x = %g: distance %g, points %v %v", o, x, r.Distance, r.PEnv, r.PFly)
			}
			if r.Stats.TriTests > all.TriTests {
				t.Errorf("%v at x = %g: %d triangle tests to a contact, an all-pairs query tests %d", o, x, r.Stats.TriTests, all.TriTests)
			}
		}
	}
}

// TestDistanceAllocs checks that a distance query allocates nothing once
// its scratch has grown, for each kind, with and without a budget.
func TestDistanceAllocs(t *testing.T) {
	torus := must(gen.Torus(geom.Vec3{}, 1, 0.3, 600))
	ball := must(gen.Icosphere(geom.Vec3{}, 0.4, 320))
	for _, o := range distanceKinds() {
		env, fly := must(bvh.Build(torus, o)), must(bvh.Build(ball, o))
		s := new(bvh.Scratch)
		poses := []geom.Pose{geom.Translation(geom.V(3, 3, 3)), geom.Translation(geom.V(1, 0, 0)), geom.FromAxisAngle(geom.V(1, 2, 3), 1, geom.V(0.5, 0.5, 0.5))}
		for _, b := range []bvh.Budget{{}, {Tests: 50}} {
			for _, p := range poses {
				bvh.Distance(env, fly, p, bvh.DistanceOptions{Budget: b}, s)
			}
			if n := testing.AllocsPerRun(5, func() {
				for _, p := range poses {
					bvh.Distance(env, fly, p, bvh.DistanceOptions{Budget: b}, s)
				}
			}); n > 0 {
				t.Errorf("%v, budget %v: %g allocations per run", o, b, n)
			}
		}
	}
}
