package bvh_test

import (
	"fmt"
	"testing"

	"github.com/collide3d/collide/bv"
	"github.com/collide3d/collide/bvh"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh/gen"
)

// BenchmarkBuildSmall measures the build per rule and k on a
// 20,000-triangle icosphere, below the size that builds on several
// goroutines: the builder's own cost, for profiles and benchstat.
func BenchmarkBuildSmall(b *testing.B) {
	m := gen.Must(gen.Icosphere(geom.Vec3{}, 1, 20000))
	for _, k := range []bv.K{bv.K6, bv.K18, bv.K26} {
		for r := bvh.Splatter; r <= bvh.MinMax; r++ {
			b.Run(fmt.Sprintf("k=%d/%v", k, r), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if _, err := bvh.Build(m, bvh.Options{K: k, Rule: r}); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
