package sap

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/collide3d/collide/broad"
	"github.com/collide3d/collide/broad/broadtest"
	"github.com/collide3d/collide/geom"
)

func TestConformance(t *testing.T) {
	broadtest.Run(t, func() broad.Phase { return New() })
}

// TestConformanceModes runs the suite with the incremental update forced
// (never a rebuild for cost: the insertion sort of teleported objects, the
// insertion of few objects) and with a rebuild at every call.
func TestConformanceModes(t *testing.T) {
	for _, c := range []struct {
		name string
		mode int
	}{{"incremental", 1}, {"rebuild", 2}} {
		t.Run(c.name, func(t *testing.T) {
			broadtest.Run(t, func() broad.Phase {
				p := New()
				p.mode = c.mode
				return p
			})
		})
	}
}

func box(x0, y0, z0, x1, y1, z1 float64) geom.AABB {
	return geom.AABB{Min: geom.V(x0, y0, z0), Max: geom.V(x1, y1, z1)}
}

// both is the phase under test and the brute-force oracle, driven
// together.
type both struct {
	t *testing.T
	p *Phase
	q *broad.Brute
}

func newBoth(t *testing.T, mode int) *both {
	p := New()
	p.mode = mode
	return &both{t, p, broad.NewBrute()}
}

func (b *both) add(id int32, x geom.AABB, static bool) {
	b.p.Add(id, x, static)
	b.q.Add(id, x, static)
}

func (b *both) move(id int32, x geom.AABB) {
	b.p.Move(id, x)
	b.q.Move(id, x)
}

func (b *both) remove(id int32) {
	b.p.Remove(id)
	b.q.Remove(id)
}

func (b *both) check(what string) []broadtest.Pair {
	b.t.Helper()
	got, err := broadtest.Collect(b.p)
	if err != nil {
		b.t.Fatalf("%s: %v", what, err)
	}
	want, _ := broadtest.Collect(b.q)
	if !slices.Equal(got, want) {
		b.t.Fatalf("%s: pairs %v, want %v", what, got, want)
	}
	return got
}

// TestTies moves endpoints onto equal values from either side, one at a
// time and several at once: a min reaching a max touches (overlap), a max
// leaving a min by an ulp separates, and equal mins or maxes do nothing.
func TestTies(t *testing.T) {
	up := func(v float64) float64 { return math.Nextafter(v, math.Inf(1)) }
	down := func(v float64) float64 { return math.Nextafter(v, math.Inf(-1)) }
	for _, mode := range []int{0, 1, 2} {
		t.Run(fmt.Sprint("mode", mode), func(t *testing.T) {
			b := newBoth(t, mode)
			b.add(0, box(0, 0, 0, 1, 1, 1), false)
			b.add(1, box(up(1), 0, 0, 2, 1, 1), false) // an ulp apart on x
			b.add(2, box(0, up(1), 0, 1, 2, 1), true)  // an ulp apart on y
			b.add(3, box(0, 0, up(1), 1, 1, 2), false) // an ulp apart on z
			b.add(4, box(5, 5, 5, 5, 5, 5), false)     // a point
			for i := int32(5); i < 40; i++ {           // filler sharing values
				f := float64(i%4) * 3
				b.add(i, box(f, 10, 10, f+3, 11, 11), i%3 == 0)
			}
			b.check("apart")
			b.move(1, box(1, 0, 0, 2, 1, 1)) // min onto 0's max
			if got := b.check("touch x"); !slices.Contains(got, broadtest.Pair{A: 0, B: 1}) {
				t.Fatalf("touching on x not reported: %v", got)
			}
			b.move(0, box(0, 0, 0, down(1), 1, 1)) // 0's max leaves by an ulp
			b.check("leave x")
			b.move(0, box(0, 0, 0, 1, 1, 1))
			b.move(3, box(0, 0, 1, 1, 1, 2)) // z touch, at once
			b.check("touch x and z")
			b.move(4, box(1, 1, 1, 1, 1, 1)) // the point onto the corner of 0
			if got := b.check("corner"); !slices.Contains(got, broadtest.Pair{A: 0, B: 4}) {
				t.Fatalf("a point on a corner not reported: %v", got)
			}
			b.move(4, box(up(1), 1, 1, up(1), 1, 1))
			b.check("corner left")
			// Every object onto the same box: all pairs but static ones.
			for i := int32(0); i < 40; i++ {
				if i != 2 {
					b.move(i, box(3, 3, 3, 3, 3, 3))
				}
			}
			b.check("all the same point")
			for i := int32(0); i < 40; i += 2 {
				b.remove(i)
			}
			b.check("half removed")
			// -0 and +0 are the same value.
			b.move(1, box(-1, -1, -1, math.Copysign(0, -1), 0, 0))
			b.move(3, box(0, 0, 0, 1, 1, 1))
			if got := b.check("signed zeros"); !slices.Contains(got, broadtest.Pair{A: 1, B: 3}) {
				t.Fatalf("boxes touching at -0 and +0 not reported: %v", got)
			}
		})
	}
}

// TestInfinite mixes boxes with infinite sides (half-spaces, slabs, the
// whole space) with ordinary ones, in every mode.
func TestInfinite(t *testing.T) {
	inf := math.Inf(1)
	r := rand.New(rand.NewPCG(1, 2))
	for _, mode := range []int{0, 1, 2} {
		b := newBoth(t, mode)
		b.add(0, box(-inf, -inf, -inf, inf, inf, inf), true)
		b.add(1, box(-inf, 0, 0, 0, 1, 1), false)
		b.add(2, box(inf, inf, inf, inf, inf, inf), false)
		b.add(3, box(-inf, -inf, -inf, -inf, -inf, -inf), false)
		for i := int32(4); i < 100; i++ {
			c := r.Float64() * 20
			b.add(i, box(c, c, c, c+1, c+1, c+1), i%5 == 0)
		}
		b.check("start")
		for step := range 10 {
			for i := int32(1); i < 100; i += 3 {
				if i%5 == 0 {
					continue
				}
				c := r.Float64() * 20
				if i < 4 {
					c = r.Float64()*40 - 20
					b.move(i, box(-inf, c, 0, c, c+1, 1))
					continue
				}
				b.move(i, box(c, c, c, c+1, c+1, c+1))
			}
			b.check(fmt.Sprint("mode ", mode, " step ", step))
		}
	}
}

func ExamplePhase() {
	p := New()
	p.Add(0, geom.AABB{Min: geom.V(0, 0, 0), Max: geom.V(1, 1, 1)}, true) // static
	p.Add(1, geom.AABB{Min: geom.V(1, 0, 0), Max: geom.V(2, 1, 1)}, false)
	p.Add(2, geom.AABB{Min: geom.V(5, 5, 5), Max: geom.V(6, 6, 6)}, false)
	p.Pairs(func(a, b int32) bool { fmt.Println(a, b); return true })
	p.Move(2, geom.AABB{Min: geom.V(1.5, 0.5, 0.5), Max: geom.V(2.5, 1.5, 1.5)})
	p.Pairs(func(a, b int32) bool { fmt.Println(a, b); return true })
	// Output:
	// 0 1
	// 1 2
}

// TestReplace removes and re-adds ids within one call, and replaces
// present objects with Add, changing their static flags.
func TestReplace(t *testing.T) {
	for _, mode := range []int{0, 1, 2} {
		b := newBoth(t, mode)
		for i := range int32(30) {
			f := float64(i) * 0.7
			b.add(i, box(f, 0, 0, f+1, 1, 1), i%2 == 0)
		}
		b.check("start")
		b.remove(3)
		b.add(3, box(10, 0, 0, 11, 1, 1), true)
		b.remove(4)
		b.add(4, box(4, 0, 0, 5, 1, 1), false)
		b.add(6, box(1, 0, 0, 2, 1, 1), false) // static to moving
		b.add(7, box(1, 0, 0, 2, 1, 1), true)  // moving to static
		b.add(40, box(0, 0, 0, 30, 1, 1), false)
		b.remove(40)
		b.remove(41)
		b.check(fmt.Sprint("mode ", mode, " replaced"))
		b.move(7, box(2, 0, 0, 3, 1, 1))
		b.check(fmt.Sprint("mode ", mode, " moved"))
	}
}
