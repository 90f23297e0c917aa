package world_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/world"
)

// BenchmarkBound times moving and re-bounding objects (the hill climbing on
// the hull from the last extremes): a step in which every one of n small
// objects turns a little, or only translates, with a broad phase that does
// nothing.
func BenchmarkBound(b *testing.B) {
	ms := models(b, collide.KDOP18)
	for _, c := range []struct {
		n    int
		turn bool
	}{{1000, true}, {10000, true}, {10000, false}} {
		n := c.n
		name := fmt.Sprintf("%d/translate", n)
		if c.turn {
			name = fmt.Sprintf("%d/turn", n)
		}
		b.Run(name, func(b *testing.B) {
			w, _ := world.New(world.Options{Broad: func() broadPhase { return nop{} }})
			r := rand.New(rand.NewPCG(1, 1))
			poses := make([]geom.Pose, n)
			for i := range n {
				poses[i] = randPose(r, 100)
				w.Add(ms[i%len(ms)], poses[i], world.ObjectOptions{})
			}
			w.Step()
			turn := geom.FromAxisAngle(geom.V(1, 2, 3), 0.01, geom.V(0.01, 0, 0))
			if !c.turn {
				turn = geom.Translation(geom.V(0.01, -0.02, 0.005))
			}
			b.ReportAllocs()
			for b.Loop() {
				for i := range n {
					poses[i] = turn.Compose(poses[i])
					w.Move(world.ID(i), poses[i])
				}
				w.Step()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/object")
		})
	}
}
