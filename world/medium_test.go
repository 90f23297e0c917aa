package world_test

import (
	"fmt"
	"testing"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/world"
)

// TestWorldMedium plays the seeded scenes of TestWorldOracle with
// Options.Medium and more workers than pairs (every step tests its pairs
// each on two goroutines), and checks the contacts after every step
// against testing every pair of objects.
func TestWorldMedium(t *testing.T) {
	for _, b := range []collide.BV{collide.KDOP18, collide.OBB, collide.BoxTree} {
		ms := models(t, b)
		for _, o := range []world.Options{{All: true, Workers: 1 << 10, Medium: true}, {Eps: 0.02, Workers: 1 << 10, Medium: true, Fronts: world.FrontOn}} {
			t.Run(fmt.Sprintf("%v/all=%v/eps=%v", b, o.All, o.Eps), func(t *testing.T) {
				playOracle(t, ms, o, uint64(b)+7)
			})
		}
	}
}
