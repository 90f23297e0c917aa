package octree

import (
	"fmt"
	"math/rand/v2"
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

// BenchmarkMoveStrategy compares the ways of moving an object whose
// integer box changed: out of every octant and in again from the root,
// Zachmann's box difference, or (kept) the box difference for boxes of at
// most 27 cells that keep their size and reinsertion otherwise; on the
// scene at 10^4 boxes, and on one where every tenth box is 8 times larger
// (sides in [4, 12], attached at coarser octants) and 100 of those change
// size at each step.
func BenchmarkMoveStrategy(b *testing.B) {
	for _, moves := range []int{movesReinsert, movesDiff, movesHybrid} {
		name := [...]string{"hybrid", "reinsert", "diff"}[moves]
		b.Run(name+"/brownian", func(b *testing.B) {
			t := New()
			t.moves = moves
			broadtest.BenchStep(b, t, 10000, 1, 0.01)
		})
		b.Run(name+"/mixed", func(b *testing.B) {
			t := New()
			t.moves = moves
			s := broadtest.NewBenchScene(10000, 0.01)
			for i := 0; i < len(s.Boxes); i += 10 {
				c, h := s.Boxes[i].Center(), s.Boxes[i].Size().Scale(4)
				s.Boxes[i] = geom.AABB{Min: c.Sub(h), Max: c.Add(h)}
			}
			for i, bx := range s.Boxes {
				t.Add(int32(i), bx, false)
			}
			r := rand.New(rand.NewPCG(1, 1))
			count := func(a, b int32) bool { return true }
			step := func() {
				s.Step(t, 1)
				for range 100 {
					i := r.IntN(len(s.Boxes)/10) * 10
					c, h := s.Boxes[i].Center(), geom.V(2+r.Float64()*4, 2+r.Float64()*4, 2+r.Float64()*4)
					s.Boxes[i] = geom.AABB{Min: c.Sub(h), Max: c.Add(h)}
					t.Move(int32(i), s.Boxes[i])
				}
				t.Pairs(count)
			}
			for range 20 {
				step()
			}
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				step()
			}
			atts := 0
			for i := range t.att {
				atts += len(t.att[i])
			}
			b.ReportMetric(float64(atts)/float64(len(t.att)), "octants/object")
		})
	}
}
