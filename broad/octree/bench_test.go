package octree

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/collide3d/collide/broad"
	"github.com/collide3d/collide/geom"
)

// benchScene is the benchmark world of the broad phases (as in broad/sap
// and broad/grid): n boxes with sides uniform in [0.5, 1.5] at one box per
// 8 unit³ in a cube (each box overlaps about one other), walking a
// Brownian step of sigma (0.01) per axis, reflected at the walls.
type benchScene struct {
	box  []geom.AABB
	side float64
	disp []geom.Vec3
	t    int
}

func newBenchScene(n int, sigma float64) *benchScene {
	r := rand.New(rand.NewPCG(uint64(n), 7))
	s := &benchScene{side: 2 * math.Cbrt(float64(n))}
	for range n {
		c := geom.V(r.Float64()*s.side, r.Float64()*s.side, r.Float64()*s.side)
		h := geom.V(0.25+r.Float64()*0.5, 0.25+r.Float64()*0.5, 0.25+r.Float64()*0.5)
		s.box = append(s.box, geom.AABB{Min: c.Sub(h), Max: c.Add(h)})
	}
	s.disp = make([]geom.Vec3, 1<<16)
	for i := range s.disp {
		s.disp[i] = geom.V(r.NormFloat64(), r.NormFloat64(), r.NormFloat64()).Scale(sigma)
	}
	return s
}

// step moves every every-th object by its Brownian step.
func (s *benchScene) step(p broad.Phase, every int) {
	s.t++
	off := s.t * 7919
	for i := 0; i < len(s.box); i += every {
		d := s.disp[(i*31+off)&(len(s.disp)-1)]
		b := &s.box[i]
		if b.Min.X+d.X < 0 || b.Max.X+d.X > s.side {
			d.X = -d.X
		}
		if b.Min.Y+d.Y < 0 || b.Max.Y+d.Y > s.side {
			d.Y = -d.Y
		}
		if b.Min.Z+d.Z < 0 || b.Max.Z+d.Z > s.side {
			d.Z = -d.Z
		}
		b.Min, b.Max = b.Min.Add(d), b.Max.Add(d)
		p.Move(int32(i), *b)
	}
}

var sink int

// settle is the number of steps before the timing, enough for the object
// and octant arrays to reach their steady sizes (no more allocations).
const settle = 300

// benchStep times one step (the moves and Pairs) of the scene on p, after
// settle steps.
func benchStep(b *testing.B, p broad.Phase, n, every int, sigma float64) {
	s := newBenchScene(n, sigma)
	for i, bx := range s.box {
		p.Add(int32(i), bx, false)
	}
	count := func(a, b int32) bool { sink++; return true }
	p.Pairs(count)
	for range settle {
		s.step(p, every)
		p.Pairs(count)
	}
	sink = 0
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		s.step(p, every)
		p.Pairs(count)
	}
	b.ReportMetric(float64(sink)/float64(b.N), "pairs/step")
}

func benchPairs(b *testing.B, newPhase func() broad.Phase) {
	for _, n := range []int{1000, 10000, 100000} {
		for _, every := range []int{1, 10} {
			b.Run(fmt.Sprintf("n=%d/moving=%d%%", n, 100/every), func(b *testing.B) {
				benchStep(b, newPhase(), n, every, 0.01)
			})
		}
	}
}

func benchBulk(b *testing.B, newPhase func() broad.Phase) {
	s := newBenchScene(100000, 0.01)
	b.ReportAllocs()
	for b.Loop() {
		p := newPhase()
		for i, bx := range s.box {
			p.Add(int32(i), bx, false)
		}
		p.Pairs(func(a, b int32) bool { sink++; return true })
	}
}

// BenchmarkPairs is one step of the scene: the moves and Pairs.
func BenchmarkPairs(b *testing.B) { benchPairs(b, func() broad.Phase { return New() }) }

// BenchmarkBulk adds 10^5 boxes to an empty phase and calls Pairs once.
func BenchmarkBulk(b *testing.B) { benchBulk(b, func() broad.Phase { return New() }) }

// BenchmarkBrute is the baseline: broad.Brute on the smallest scene.
func BenchmarkBrute(b *testing.B) {
	for _, every := range []int{1, 10} {
		b.Run(fmt.Sprintf("n=1000/moving=%d%%", 100/every), func(b *testing.B) {
			benchStep(b, broad.NewBrute(), 1000, every, 0.01)
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
			benchStep(b, t, 10000, 1, 0.01)
		})
		b.Run(name+"/mixed", func(b *testing.B) {
			t := New()
			t.moves = moves
			s := newBenchScene(10000, 0.01)
			for i := 0; i < len(s.box); i += 10 {
				c, h := s.box[i].Center(), s.box[i].Size().Scale(4)
				s.box[i] = geom.AABB{Min: c.Sub(h), Max: c.Add(h)}
			}
			for i, bx := range s.box {
				t.Add(int32(i), bx, false)
			}
			r := rand.New(rand.NewPCG(1, 1))
			count := func(a, b int32) bool { return true }
			step := func() {
				s.step(t, 1)
				for range 100 {
					i := r.IntN(len(s.box)/10) * 10
					c, h := s.box[i].Center(), geom.V(2+r.Float64()*4, 2+r.Float64()*4, 2+r.Float64()*4)
					s.box[i] = geom.AABB{Min: c.Sub(h), Max: c.Add(h)}
					t.Move(int32(i), s.box[i])
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
