package ccd

import (
	"math/rand/v2"
	"testing"

	"github.com/collide3d/collide/geom"
)

// randomQueries returns n seeded queries with points in [-1, 1]³.
func randomQueries(n int) [][8]geom.Vec3 {
	rng := rand.New(rand.NewPCG(7, 8))
	qs := make([][8]geom.Vec3, n)
	for k := range qs {
		for i := range qs[k] {
			qs[k][i] = geom.V(rng.Float64()*2-1, rng.Float64()*2-1, rng.Float64()*2-1)
		}
	}
	return qs
}

func BenchmarkVertexFace(b *testing.B) {
	qs := randomQueries(1024)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		q := &qs[i%len(qs)]
		VertexFace(q[0], q[1], q[2], q[3], q[4], q[5], q[6], q[7])
		i++
	}
}

func BenchmarkEdgeEdge(b *testing.B) {
	qs := randomQueries(1024)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		q := &qs[i%len(qs)]
		EdgeEdge(q[0], q[1], q[2], q[3], q[4], q[5], q[6], q[7])
		i++
	}
}

func BenchmarkExact(b *testing.B) {
	qs := randomQueries(64)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		exactSolve(&qs[i%len(qs)], kind(i%2))
		i++
	}
}
