package dbvt

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

// settle is the number of steps before the timing: the fat boxes, all
// fresh after the bulk insertion, take about 500 steps of 0.01 to reach the
// steady rate of reinsertions (1.4% of the moving objects a step at the
// default margin, 0.4% at a margin of 0.2), which the timing measures.
const settle = 500

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

// BenchmarkMargin is a step of the scene at 10^5 boxes, all moving, with a
// few margins, at the scene's step and at a step five times longer: the
// choice of DefaultMargin.
func BenchmarkMargin(b *testing.B) {
	for _, sigma := range []float64{0.01, 0.05} {
		for _, m := range []float64{-1, 0.05, 0.1, 0.2, 0.3, 0.5} {
			b.Run(fmt.Sprintf("step=%g/margin=%g", sigma, m), func(b *testing.B) {
				benchStep(b, NewWith(Options{Margin: m}), 100000, 1, sigma)
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
	s := newBenchScene(100000, 0.01)
	for i, bx := range s.box {
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
