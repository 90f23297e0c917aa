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
// goroutines: the builder's own cost, for profiles and benchstat. It
// reports the process's CPU time per build too (cpu-ms/op), steadier
// than the wall time on a loaded machine: run it with -cpu 1.
func BenchmarkBuildSmall(b *testing.B) {
	m := gen.Must(gen.Icosphere(geom.Vec3{}, 1, 20000))
	for _, k := range []bv.K{bv.K6, bv.K18, bv.K26} {
		for r := bvh.Splatter; r <= bvh.MinMax; r++ {
			b.Run(fmt.Sprintf("k=%d/%v", k, r), func(b *testing.B) {
				b.ReportAllocs()
				cpu0 := processCPU()
				for b.Loop() {
					if _, err := bvh.Build(m, bvh.Options{K: k, Rule: r}); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric((processCPU()-cpu0).Seconds()*1000/float64(b.N), "cpu-ms/op")
			})
		}
	}
}
