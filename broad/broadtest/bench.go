package broadtest

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/collide3d/collide/broad"
	"github.com/collide3d/collide/geom"
)

// BenchScene is the benchmark scene of the broad phases: n boxes with
// sides uniform in [0.5, 1.5] at one box per 8 unit³ in a cube (each box
// overlaps about one other), walking a Brownian step of sigma (0.01 in
// BenchPairs) per axis, reflected at the walls.
type BenchScene struct {
	Boxes []geom.AABB
	side  float64
	disp  []geom.Vec3
	t     int
}

// NewBenchScene returns the scene of n boxes (a function of n and sigma).
func NewBenchScene(n int, sigma float64) *BenchScene {
	r := rand.New(rand.NewPCG(uint64(n), 7))
	s := &BenchScene{side: 2 * math.Cbrt(float64(n))}
	for range n {
		c := geom.V(r.Float64()*s.side, r.Float64()*s.side, r.Float64()*s.side)
		h := geom.V(0.25+r.Float64()*0.5, 0.25+r.Float64()*0.5, 0.25+r.Float64()*0.5)
		s.Boxes = append(s.Boxes, geom.AABB{Min: c.Sub(h), Max: c.Add(h)})
	}
	s.disp = make([]geom.Vec3, 1<<16)
	for i := range s.disp {
		s.disp[i] = geom.V(r.NormFloat64(), r.NormFloat64(), r.NormFloat64()).Scale(sigma)
	}
	return s
}

// Step moves every every-th object by its Brownian step, on p.
func (s *BenchScene) Step(p broad.Phase, every int) {
	s.t++
	off := s.t * 7919
	for i := 0; i < len(s.Boxes); i += every {
		d := s.disp[(i*31+off)&(len(s.disp)-1)]
		b := &s.Boxes[i]
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

// Sink counts the pairs the benchmarks' callbacks receive.
var Sink int

// Settle is the number of steps before a benchmark's timing: fat boxes
// (broad/dbvt), all fresh after a bulk insertion, take about 500 steps of
// 0.01 to reach the steady rate of reinsertions that the timing measures.
const Settle = 500

// BenchStep times one step (the moves and Pairs) of the scene of n boxes
// on p, one in every moving, after Settle steps, and reports the pairs per
// step.
func BenchStep(b *testing.B, p broad.Phase, n, every int, sigma float64) {
	s := NewBenchScene(n, sigma)
	for i, bx := range s.Boxes {
		p.Add(int32(i), bx, false)
	}
	count := func(a, b int32) bool { Sink++; return true }
	p.Pairs(count)
	for range Settle {
		s.Step(p, every)
		p.Pairs(count)
	}
	Sink = 0
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		s.Step(p, every)
		p.Pairs(count)
	}
	b.ReportMetric(float64(Sink)/float64(b.N), "pairs/step")
}

// BenchPairs times a step of the phases newPhase makes on the scene of
// 10^3, 10^4 and 10^5 boxes, every box moving or one in ten (BenchStep).
func BenchPairs(b *testing.B, newPhase func() broad.Phase) {
	for _, n := range []int{1000, 10000, 100000} {
		for _, every := range []int{1, 10} {
			b.Run(fmt.Sprintf("n=%d/moving=%d%%", n, 100/every), func(b *testing.B) {
				BenchStep(b, newPhase(), n, every, 0.01)
			})
		}
	}
}

// BenchBulk times the insertion of 10^5 boxes and the first Pairs.
func BenchBulk(b *testing.B, newPhase func() broad.Phase) {
	s := NewBenchScene(100000, 0.01)
	b.ReportAllocs()
	for b.Loop() {
		p := newPhase()
		for i, bx := range s.Boxes {
			p.Add(int32(i), bx, false)
		}
		p.Pairs(func(a, b int32) bool { Sink++; return true })
	}
}
