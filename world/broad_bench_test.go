package world_test

import (
	"testing"

	"github.com/collide3d/collide/broad/broadtest"
	"github.com/collide3d/collide/world"
)

// BenchmarkBroad runs broadtest's benchmark, every broad phase of the
// world's table (but brute) in the same run, for choosing the default.
func BenchmarkBroad(b *testing.B) {
	for _, name := range world.BroadPhases() {
		if name == "brute" {
			continue
		}
		mk, _ := world.NewBroad(name)
		b.Run(name, func(b *testing.B) { broadtest.BenchPairs(b, mk) })
	}
}
