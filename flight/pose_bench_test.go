package flight

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/collide3d/collide/geom"
)

// BenchmarkReadPoses reads a file of 10^4 random poses written with every
// digit (AppendPose), as pose files are written.
func BenchmarkReadPoses(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	var buf []byte
	const n = 10000
	for range n {
		q := geom.Quat{W: rng.NormFloat64(), X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}
		p := geom.FromQuat(q.Unit(), geom.V(rng.Float64(), rng.Float64(), rng.Float64()))
		buf = append(AppendPose(buf, p), '\n')
	}
	b.SetBytes(int64(len(buf)))
	b.ReportAllocs()
	for b.Loop() {
		poses, err := ReadPoses(bytes.NewReader(buf))
		if err != nil || len(poses) != n {
			b.Fatal(len(poses), err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/pose")
}
