package main

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/collide3d/collide/geom"
)

// BenchmarkCheck measures collide_check's Go side (check: the handles,
// the poses converted and validated, the batch, the pairs' buffer) on
// batch.BenchmarkCheck's far scene: a 320-triangle sphere against itself
// at 10^5 random rotations 10 apart, each query about a root test. Its
// ns/pose less batch.BenchmarkCheck/far/batch-workers=1's is the C
// library's overhead per pose (the cgo call itself is once per batch).
func BenchmarkCheck(b *testing.B) {
	m, err := modelLoad("gen:icosphere:tris=320", "", "")
	if err != nil {
		b.Fatal(err)
	}
	h := putHandle(m)
	defer freeHandle(h)
	rng := rand.New(rand.NewPCG(1, 1))
	const n = 100_000
	poses := make([]float64, 0, 16*n)
	for range n {
		axis := geom.Vec3{X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}
		d := geom.Vec3{X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}.Unit().Scale(10)
		poses = append(poses, matrix(geom.Pose{R: geom.AxisAngle(axis, rng.Float64()*2*math.Pi).Mat3(), T: d})...)
	}
	hits := make([]bool, n)
	for _, w := range []struct {
		name    string
		workers int32
	}{{"workers=1", 1}, {"workers=0", 0}} {
		b.Run(w.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := check(h, nil, h, poses, n, false, 0, w.workers, hits, true); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/pose")
		})
	}
}
