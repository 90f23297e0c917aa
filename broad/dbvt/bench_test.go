package dbvt

import (
	"fmt"
	"testing"

	"github.com/collide3d/collide/broad"
	"github.com/collide3d/collide/broad/broadtest"
	"github.com/collide3d/collide/geom"
)

// BenchmarkPairs is one step of broadtest's scene: the moves and Pairs.
func BenchmarkPairs(b *testing.B) { broadtest.BenchPairs(b, func() broad.Phase { return New() }) }

// BenchmarkBulk adds 10^5 boxes to an empty phase and calls Pairs once.
func BenchmarkBulk(b *testing.B) { broadtest.BenchBulk(b, func() broad.Phase { return New() }) }

// BenchmarkBrute is the baseline: broad.Brute on the smallest scene.
func BenchmarkBrute(b *testing.B) {
	for _, every := range []int{1, 10} {
		b.Run(fmt.Sprintf("n=1000/moving=%d%%", 100/every), func(b *testing.B) {
			broadtest.BenchStep(b, broad.NewBrute(), 1000, every, 0.01)
		})
	}
}

// BenchmarkMargin is a step of the scene at 10^5 boxes, all moving, with a
// few margins, at the scene's step and at a step five times longer: the
// choice of DefaultMargin.
func BenchmarkMargin(b *testing.B) {
	for _, sigma := range []float64{0.01, 0.05} {
		for _, m := range []float64{-1, 0.05, 0.1, 0.2, 0.3, 0.5} {
			b.Run(fmt.Sprintf("step=%g/margin=%g", sigma, m), func(b *testing.B) {
				broadtest.BenchStep(b, NewWith(Options{Margin: m}), 100000, 1, sigma)
			})
		}
	}
}

// BenchmarkNoCache is the design not taken: every object of the scene at
// 10^5 boxes queries the tree with its box at each step, each candidate
// confirmed by the exact test, instead of scanning its cached partners
// (the moves and the tree's updates are not timed; compare with
// BenchmarkPairs/n=100000/moving=100%).
func BenchmarkNoCache(b *testing.B) {
	p := New()
	s := broadtest.NewBenchScene(100000, 0.01)
	for i, bx := range s.Boxes {
		p.Add(int32(i), bx, false)
	}
	p.Pairs(func(a, b int32) bool { return true })
	pairs := 0
	var a int32
	var ba *geom.AABB
	found := func(c int32) bool {
		if c > a && broad.Overlaps(ba, &p.box[c]) {
			pairs++
		}
		return true
	}
	b.ReportAllocs()
	for b.Loop() {
		for a = range int32(len(p.box)) {
			ba = &p.box[a]
			q := roundOut(ba)
			p.tr.query(&q, found)
		}
	}
	b.ReportMetric(float64(pairs)/float64(b.N), "pairs/step")
}
