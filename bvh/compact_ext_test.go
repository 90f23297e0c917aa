package bvh_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/collide3d/collide/bv"
	"github.com/collide3d/collide/bvh"
	"github.com/collide3d/collide/ccd"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/internal/longtest"
)

// TestTimeOfImpactCompact checks the time of impact on compact k-DOP trees
// against every pair's sweep (bvh.SweepAll), on the coherence scenes but
// those far from the origin and coplanar (seconds a motion, see
// TestTimeOfImpact; TestCompactLayout has them) and, but with
// COLLIDE_LONG_TESTS=1, the degenerate one (half a minute), a translating and a
// turning motion: the same verdict, and a contact's interval overlapping
// the sweep's (by default one of the two motions a scene, in turn;
// COLLIDE_LONG_TESTS=1 both).
func TestTimeOfImpactCompact(t *testing.T) {
	for si, sc := range coherenceScenes() {
		if strings.Contains(sc.Name, "far") || strings.Contains(sc.Name, "coplanar") || sc.Name == "degenerate" && !longtest.Enabled() {
			continue
		}
		o := bvh.Options{K: bv.K18, Compact: true}
		if si%2 == 1 {
			o = bvh.Options{K: bv.K6, Compact: true, Leaf: 4}
		}
		env, fly := must(bvh.Build(sc.Env, o)), must(bvh.Build(sc.Fly, o))
		centre, size := sceneFrame(sc.Env)
		rng := rand.New(rand.NewPCG(uint64(si), 31))
		s := new(bvh.Scratch)
		for i := range 2 {
			if i != si%2 && !longtest.Enabled() {
				continue // one motion a scene, translating or turning in turn
			}
			from := randomPose(rng, centre, size)
			to := from
			to.T = to.T.Add(geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()).Scale(size / 2))
			if i == 1 {
				to = randomPose(rng, centre, size)
			}
			m := ccd.Motion{From: from, To: to}
			got := bvh.TimeOfImpact(env, fly, m, bvh.TOIOptions{}, s)
			want := bvh.SweepAll(sc.Env, sc.Fly, m)
			if got.Hit != want.Hit || got.Maybe != want.Maybe {
				t.Fatalf("%s motion %d: hit %v maybe %v %v, every pair: hit %v maybe %v %v", sc.Name, i, got.Hit, got.Maybe, got.TOI, want.Hit, want.Maybe, want.TOI)
			}
			if got.Hit && (got.TOI.Lo > want.TOI.Hi || want.TOI.Lo > got.TOI.Hi) {
				t.Errorf("%s motion %d: TOI %v, every pair %v", sc.Name, i, got.TOI, want.TOI)
			}
		}
	}
}
