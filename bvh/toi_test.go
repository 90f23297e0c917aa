package bvh_test

import (
	"math/rand/v2"
	"os"
	"testing"

	"github.com/collide3d/collide/bvh"
	"github.com/collide3d/collide/ccd"
	"github.com/collide3d/collide/geom"
)

// TestTimeOfImpact checks continuous queries against SweepAll (every pair
// of triangles decided alike) for every other configuration of the
// conformance matrix, on translating and turning motions through the
// adversarial scenes: translating motions give SweepAll's answer exactly,
// turning ones the same verdict within an overlapping interval. Every
// answer is checked by sampling: no pose of the motion sampled before
// TOI.Lo is in contact, and a contact's pair touches at its end.
//
// By default every sixth configuration runs, each on one scene (the
// scenes in turn), four motions; COLLIDE_LONG_TESTS=1 runs every other
// configuration on eight. The exact path makes the coplanar scenes slow
// (seconds a motion).
func TestTimeOfImpact(t *testing.T) {
	scenes := coherenceScenes()
	hits, maybes := 0, 0
	step, motions := 6, 4
	if os.Getenv("COLLIDE_LONG_TESTS") != "" {
		step, motions = 2, 8
	}
	if testing.Short() {
		step = 12
	}
	for ci, c := range configs() {
		if c.q.Restart || ci%step != 0 {
			continue
		}
		sc := scenes[(ci/step)%len(scenes)]
		env, fly := must(bvh.Build(sc.Env, c.opts)), must(bvh.Build(sc.Fly, c.opts))
		centre, size := sceneFrame(sc.Env)
		rng := rand.New(rand.NewPCG(uint64(ci), 18))
		s := new(bvh.Scratch)
		for i := range motions {
			from := randomPose(rng, centre, size)
			to := from
			to.T = to.T.Add(geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()).Scale(size / 2))
			if i%2 == 1 {
				to = randomPose(rng, centre, size)
			}
			m := ccd.Motion{From: from, To: to}
			got := bvh.TimeOfImpact(env, fly, m, s)
			want := bvh.SweepAll(sc.Env, sc.Fly, m)
			name := func() string { return c.String() + "/" + sc.Name }
			if got.Hit != want.Hit || got.Maybe != want.Maybe {
				t.Fatalf("%s motion %d: hit %v maybe %v %v, every pair: hit %v maybe %v %v", name(), i, got.Hit, got.Maybe, got.TOI, want.Hit, want.Maybe, want.TOI)
			}
			switch {
			case m.Translating() && (got.TOI != want.TOI && got.Hit || got.Pair != want.Pair):
				t.Fatalf("%s motion %d: %v %v, every pair: %v %v", name(), i, got.TOI, got.Pair, want.TOI, want.Pair)
			case got.Hit && (got.TOI.Hi < want.TOI.Lo || want.TOI.Hi < got.TOI.Lo):
				t.Fatalf("%s motion %d: %v, every pair: %v", name(), i, got.TOI, want.TOI)
			}
			if got.Hit {
				hits++
				wmax := ccd.MaxWidth
				if !m.Translating() {
					wmax *= 32
				}
				if got.TOI.Width() > wmax {
					t.Fatalf("%s motion %d: interval %v too wide", name(), i, got.TOI)
				}
				a := sc.Env.Triangle(int(got.Pair.Env))
				b := sc.Fly.Triangle(int(got.Pair.Fly))
				if m.Translating() {
					if toi, hit := ccd.TriTri(from.ApplyTriangle(b), a, to.ApplyTriangle(b), a); !hit || toi.Hi < got.TOI.Lo || toi.Lo > got.TOI.Hi {
						t.Fatalf("%s motion %d: pair %v meets at %v %v, reported %v", name(), i, got.Pair, hit, toi, got.TOI)
					}
				} else if !geom.TriTri(a, m.At(got.TOI.Hi).ApplyTriangle(b)) {
					t.Fatalf("%s motion %d: pair %v apart at the end of %v", name(), i, got.Pair, got.TOI)
				}
			}
			if got.Maybe {
				maybes++
			}
			end := 1.0
			if got.Hit || got.Maybe {
				end = got.TOI.Lo - 1e-9
			}
			for k := range 64 {
				tk := float64(k) / 64
				if tk > end {
					break
				}
				if pairs, _ := collect(env, fly, m.At(tk), bvh.QueryOptions{}, s); len(pairs) > 0 {
					t.Fatalf("%s motion %d: contact %v at t = %v, before the reported %v (hit %v)", name(), i, pairs, tk, got.TOI, got.Hit)
				}
			}
		}
	}
	t.Logf("%d contacts, %d maybes", hits, maybes)
	if hits == 0 {
		t.Error("no motion met the environment")
	}
}
