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
// overlaps about one other), walking a Brownian step of 0.01 per axis,
// reflected at the walls.
type BenchScene struct {
	Boxes []geom.AABB
	side  float64
	disp  []geom.Vec3
	t     int
}

// NewBenchScene returns the scene of n boxes (a function of n).
func NewBenchScene(n int) *BenchScene {
	r := rand.New(rand.NewPCG(uint64(n), 7))
	s := &BenchScene{side: 2 * math.Cbrt(float64(n))}
	for range n {
		c := geom.V(r.Float64()*s.side, r.Float64()*s.side, r.Float64()*s.side)
		h := geom.V(0.25+r.Float64()*0.5, 0.25+r.Float64()*0.5, 0.25+r.Float64()*0.5)
		s.Boxes = append(s.Boxes, geom.AABB{Min: c.Sub(h), Max: c.Add(h)})
	}
	s.disp = make([]geom.Vec3, 1<<16)
	for i := range s.disp {
		s.disp[i] = geom.V(r.NormFloat64(), r.NormFloat64(), r.NormFloat64()).Scale(0.01)
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

var sink int

// BenchPairs times a step (the moves and Pairs) of the phases newPhase
// makes on the scene of 10^3, 10^4 and 10^5 boxes, every box moving or one
// in ten.
func BenchPairs(b *testing.B, newPhase func() broad.Phase) {
	for _, n := range []int{1000, 10000, 100000} {
		for _, every := range []int{1, 10} {
			b.Run(fmt.Sprintf("n=%d/moving=%d%%", n, 100/every), func(b *testing.B) {
				s := NewBenchScene(n)
				p := newPhase()
				for i, bx := range s.Boxes {
					p.Add(int32(i), bx, false)
				}
				count := func(a, b int32) bool { sink++; return true }
				p.Pairs(count)
				for range 3 {
					s.Step(p, every)
					p.Pairs(count)
				}
				b.ReportAllocs()
				b.ResetTimer()
				for b.Loop() {
					s.Step(p, every)
					p.Pairs(count)
				}
			})
		}
	}
}

// BenchBulk times the insertion of 10^5 boxes and the first Pairs.
func BenchBulk(b *testing.B, newPhase func() broad.Phase) {
	s := NewBenchScene(100000)
	b.ReportAllocs()
	for b.Loop() {
		p := newPhase()
		for i, bx := range s.Boxes {
			p.Add(int32(i), bx, false)
		}
		p.Pairs(func(a, b int32) bool { sink++; return true })
	}
}
