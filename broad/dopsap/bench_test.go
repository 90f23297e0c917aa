package dopsap

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/collide3d/collide/broad"
	"github.com/collide3d/collide/broad/broadtest"
	"github.com/collide3d/collide/bv"
	"github.com/collide3d/collide/geom"
)

// BenchmarkPairs is broadtest's step with boxes alone.
func BenchmarkPairs(b *testing.B) { broadtest.BenchPairs(b, func() broad.Phase { return New(0) }) }

// BenchmarkBulk is broadtest's bulk insertion with boxes alone.
func BenchmarkBulk(b *testing.B) { broadtest.BenchBulk(b, func() broad.Phase { return New(0) }) }

// BenchmarkStepDOP times a step (the moves, the DOPs and Pairs) of n
// objects, each the k-DOP of 4 random points within 0.5 of its centre, at
// one per 8 unit³ in a cube, each taking a Brownian step of 0.01 per
// axis; and reports the pairs per step.
func BenchmarkStepDOP(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		for _, k := range []bv.K{bv.K6, bv.K14, bv.K18, bv.K26} {
			b.Run(fmt.Sprintf("n=%d/%v", n, k), func(b *testing.B) {
				r := rand.New(rand.NewPCG(1, 2))
				side := 2 * float64(int(float64(n)+0.5)) / float64(n)
				for side*side*side < 8*float64(n) {
					side *= 1.01
				}
				p := New(k)
				ds := make([]bv.DOP, n)
				var pr [bv.MaxSlabs]float64
				boxOf := func(d *bv.DOP) geom.AABB {
					return geom.AABB{Min: geom.V(d.Lo[0], d.Lo[1], d.Lo[2]), Max: geom.V(d.Hi[0], d.Hi[1], d.Hi[2])}
				}
				for i := range n {
					c := geom.V(r.Float64()*side, r.Float64()*side, r.Float64()*side)
					ds[i] = bv.Fit(k, cloud(r, c, 0.25, 4)...)
					p.Add(int32(i), boxOf(&ds[i]), false)
					p.SetDOP(int32(i), &ds[i])
				}
				pairs := 0
				fn := func(a, b int32) bool { pairs++; return true }
				p.Pairs(fn)
				pairs = 0
				b.ReportAllocs()
				for b.Loop() {
					for i := range n {
						k.Project(geom.V(0.01*r.NormFloat64(), 0.01*r.NormFloat64(), 0.01*r.NormFloat64()), &pr)
						d := &ds[i]
						for a := range k.Slabs() {
							d.Lo[a] += pr[a]
							d.Hi[a] += pr[a]
						}
						p.Move(int32(i), boxOf(d))
						p.SetDOP(int32(i), d)
					}
					p.Pairs(fn)
				}
				b.ReportMetric(float64(pairs)/float64(b.N), "pairs/step")
			})
		}
	}
}
