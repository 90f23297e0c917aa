package octree

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/collide3d/collide/broad"
	"github.com/collide3d/collide/geom"
)

// brownian is the benchmark scene: n boxes with sides in [0.5, 1.5] in a
// cube of side 20·(n/1000)^(1/3) (about one overlapping partner per box),
// of which every 1/frac-th takes a Gaussian step of 0.05 on each axis per
// step, kept inside the cube.
type brownian struct {
	side  float64
	half  []geom.Vec3 // half sizes
	ctr   []geom.Vec3 // centres
	step  []geom.Vec3 // a ring of steps
	k     int
	every int
}

func newBrownian(n int, frac float64) *brownian {
	r := rand.New(rand.NewPCG(uint64(n), 7))
	s := &brownian{side: 20 * math.Cbrt(float64(n)/1000), every: int(math.Round(1 / frac))}
	for range n {
		h := geom.V(0.25+r.Float64()/2, 0.25+r.Float64()/2, 0.25+r.Float64()/2)
		s.half = append(s.half, h)
		s.ctr = append(s.ctr, geom.V(r.Float64(), r.Float64(), r.Float64()).Scale(s.side))
	}
	if sortedIDs {
		key := func(c geom.Vec3) uint64 {
			var k uint64
			x, y, z := uint64(c.X/s.side*1023), uint64(c.Y/s.side*1023), uint64(c.Z/s.side*1023)
			for b := 9; b >= 0; b-- {
				k = k<<3 | (x>>b&1)<<2 | (y>>b&1)<<1 | z>>b&1
			}
			return k
		}
		slices.SortFunc(s.ctr, func(a, b geom.Vec3) int { return cmp.Compare(key(a), key(b)) })
	}
	for range 1 << 16 {
		s.step = append(s.step, geom.V(r.NormFloat64(), r.NormFloat64(), r.NormFloat64()).Scale(0.05))
	}
	return s
}

func (s *brownian) box(i int) geom.AABB {
	return geom.AABB{Min: s.ctr[i].Sub(s.half[i]), Max: s.ctr[i].Add(s.half[i])}
}

// move moves the moving boxes one step, calling p.Move.
func (s *brownian) move(p broad.Phase) {
	for i := 0; i < len(s.ctr); i += s.every {
		c := s.ctr[i].Add(s.step[s.k])
		s.k = (s.k + 1) & (len(s.step) - 1)
		c.X = min(max(c.X, 0), s.side)
		c.Y = min(max(c.Y, 0), s.side)
		c.Z = min(max(c.Z, 0), s.side)
		s.ctr[i] = c
		p.Move(int32(i), s.box(i))
	}
}

func benchPairs(b *testing.B, p broad.Phase, n int, frac float64) {
	s := newBrownian(n, frac)
	for i := range n {
		p.Add(int32(i), s.box(i), false)
	}
	pairs := 0
	count := func(a, b int32) bool { pairs++; return true }
	p.Pairs(count)
	for range 20 { // settle: grow every array to its steady size
		s.move(p)
		p.Pairs(count)
	}
	pairs = 0
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		s.move(p)
		p.Pairs(count)
	}
	b.ReportMetric(float64(pairs)/float64(b.N), "pairs/step")
}

// BenchmarkPairs is one step of the Brownian scene: the moves and Pairs.
func BenchmarkPairs(b *testing.B) {
	for _, n := range []int{1000, 10000, 100000} {
		for _, frac := range []float64{1, 0.1} {
			b.Run(fmt.Sprintf("n=%d/moving=%g", n, frac), func(b *testing.B) {
				benchPairs(b, New(), n, frac)
			})
		}
	}
}

// BenchmarkBrute is the baseline: broad.Brute on the smallest scene.
func BenchmarkBrute(b *testing.B) {
	for _, frac := range []float64{1, 0.1} {
		b.Run(fmt.Sprintf("n=1000/moving=%g", frac), func(b *testing.B) {
			benchPairs(b, broad.NewBrute(), 1000, frac)
		})
	}
}

// BenchmarkBulk adds 10^5 boxes to an empty tree and calls Pairs once.
func BenchmarkBulk(b *testing.B) {
	const n = 100000
	s := newBrownian(n, 1)
	b.ReportAllocs()
	for range b.N {
		p := New()
		for i := range n {
			p.Add(int32(i), s.box(i), false)
		}
		p.Pairs(func(a, b int32) bool { return true })
	}
}

// BenchmarkMoveStrategy compares the two ways of moving an object whose
// integer box changed: out of every octant and in again from the root
// (kept), or Zachmann's box difference, on the Brownian scene and on one
// where every tenth box is 8 times larger (sides in [4, 12], attached at
// coarser octants), and 100 of those change size at each step.
func BenchmarkMoveStrategy(b *testing.B) {
	for _, diff := range []bool{false, true} {
		name := "reinsert"
		if diff {
			name = "diff"
		}
		b.Run(name+"/brownian", func(b *testing.B) {
			t := New()
			t.diffMoves = diff
			benchPairs(b, t, 10000, 1)
		})
		b.Run(name+"/mixed", func(b *testing.B) {
			t := New()
			t.diffMoves = diff
			s := newBrownian(10000, 1)
			for i := 0; i < len(s.half); i += 10 {
				s.half[i] = s.half[i].Scale(8)
			}
			for i := range s.ctr {
				t.Add(int32(i), s.box(i), false)
			}
			r := rand.New(rand.NewPCG(1, 1))
			count := func(a, b int32) bool { return true }
			step := func() {
				s.move(t)
				for range 100 {
					i := r.IntN(len(s.ctr)/10) * 10
					s.half[i] = geom.V(2+r.Float64()*4, 2+r.Float64()*4, 2+r.Float64()*4)
					t.Move(int32(i), s.box(i))
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

// sortedIDs numbers the boxes of the scene in Morton order, as a world
// that numbers its objects by place would.
var sortedIDs = false
