package dbvt

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/collide3d/collide/broad"
	"github.com/collide3d/collide/broad/broadtest"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/internal/longtest"
)

func TestConformance(t *testing.T) {
	broadtest.Run(t, func() broad.Phase { return New() })
}

// TestInvariants runs the conformance scenes with the invariants checked
// after every step, with a few margins and rebuild fractions.
func TestInvariants(t *testing.T) {
	cases := []struct {
		name string
		opt  Options
	}{
		{"default", Options{}},
		{"no-margin", Options{Margin: -1}},
		{"wide-margin", Options{Margin: 2}},
		{"always-rebuild", Options{RebuildFraction: 1e-9}},
		{"never-rebuild", Options{RebuildFraction: 2}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, sc := range broadtest.Scenes() {
				if sc.Big {
					continue
				}
				t.Run(sc.Name, func(t *testing.T) {
					for seed := range uint64(longtest.Pick(1, 3)) {
						broadtest.RunScene(t, sc, seed+1, checked{NewWith(c.opt), t})
					}
				})
			}
			broadtest.EarlyStop(t, checked{NewWith(c.opt), t})
		})
	}
}

// collect returns the pairs of one call of Pairs, sorted.
func collect(t *testing.T, p broad.Phase) []broadtest.Pair {
	t.Helper()
	got, err := broadtest.Collect(p)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// TestRoundOut checks the float32 filter boxes: the float64 box lies in
// its rounding, which is the smallest such float32 box, also beyond the
// float32 range and for subnormal, signed and infinite coordinates.
func TestRoundOut(t *testing.T) {
	max32 := float64(math.MaxFloat32)
	for _, c := range []struct {
		x      float64
		lo, hi float32
	}{
		{0, 0, 0},
		{1, 1, 1},
		{0.1, 0.099999994, 0.1},
		{-0.1, -0.1, -0.099999994},
		{1 + 1e-12, 1, 1.0000001},
		{1e-300, 0, 1e-45},
		{-1e-300, -1e-45, 0},
		{1e300, math.MaxFloat32, float32(math.Inf(1))},
		{-1e300, float32(math.Inf(-1)), -math.MaxFloat32},
		{max32, math.MaxFloat32, math.MaxFloat32},
		{math.Inf(1), math.MaxFloat32, float32(math.Inf(1))},
		{math.Inf(-1), float32(math.Inf(-1)), -math.MaxFloat32},
	} {
		if lo, hi := down(c.x), up(c.x); lo != c.lo || hi != c.hi {
			t.Errorf("%g: rounded to [%g, %g], want [%g, %g]", c.x, lo, hi, c.lo, c.hi)
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 100000 {
		x := r.NormFloat64() * math.Pow(10, float64(r.IntN(80)-40))
		lo, hi := down(x), up(x)
		if float64(lo) > x || float64(hi) < x || hi != lo && math.Nextafter32(lo, float32(math.Inf(1))) != hi {
			t.Fatalf("%g: rounded to [%g, %g]", x, lo, hi)
		}
	}
}

// TestIncremental builds the tree by insertions only (no top-down build
// after the first object), with removals and static objects turning into
// moving ones, against broad.Brute, invariants checked.
func TestIncremental(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	p := checked{NewWith(Options{RebuildFraction: 2}), t}
	brute := broad.NewBrute()
	rb := func() geom.AABB {
		c := geom.V(r.Float64(), r.Float64(), r.Float64()).Scale(30)
		h := geom.V(r.Float64(), r.Float64(), r.Float64()).Scale(2)
		return geom.AABB{Min: c.Sub(h), Max: c.Add(h)}
	}
	both := func(f func(q broad.Phase)) { f(p); f(brute) }
	for step := range 200 {
		for range 5 {
			id := int32(r.IntN(300))
			switch x := r.IntN(10); {
			case x < 6:
				b, st := rb(), r.IntN(4) == 0
				both(func(q broad.Phase) { q.Add(id, b, st) })
			case x < 8:
				both(func(q broad.Phase) { q.Remove(id) })
			default:
				if id < int32(len(p.slot)) && p.slot[id] != null {
					b := rb()
					both(func(q broad.Phase) { q.Move(id, b) })
				}
			}
		}
		want, got := collect(t, brute), collect(t, p)
		if !slices.Equal(got, want) {
			t.Fatalf("step %d: got %v, want %v", step, got, want)
		}
	}
}

// TestFatBoxes checks when a move changes the tree: a move inside the fat
// box changes nothing, a move out of it or a box that shrank much gets a
// new fat box, and a static object has none.
func TestFatBoxes(t *testing.T) {
	p := NewWith(Options{Margin: 0.25})
	p.Add(0, box(0, 0, 0, 4, 4, 4), false) // margin 1
	p.Add(1, box(10, 10, 10, 12, 12, 12), true)
	p.Pairs(func(a, b int32) bool { return true })
	s0, s1 := p.slot[0], p.slot[1]
	if f := p.fat[s0]; f != (box32{min: [3]float32{-1, -1, -1}, max: [3]float32{5, 5, 5}}) {
		t.Fatalf("fat box %v, want [-1, 5]³", f)
	}
	if f := p.fat[s1]; f != (box32{min: [3]float32{10, 10, 10}, max: [3]float32{12, 12, 12}}) {
		t.Fatalf("static fat box %v, want its box", f)
	}
	for _, c := range []struct {
		name string
		b    geom.AABB
		same bool // the fat box stays
	}{
		{"inside", box(0.5, -0.5, 1, 4.5, 3.5, 5), true},
		{"touching the fat box", box(-1, -1, -1, 3, 3, 3), true},
		{"out by a little", box(1.5, 0, 0, 5.5, 4, 4), false},
		{"shrunk", box(1.9, 1.9, 1.9, 2.1, 2.1, 2.1), false},
		{"shrunk a little", box(0.5, 0.5, 0.5, 3.5, 3.5, 3.5), true},
	} {
		p.Move(0, box(0, 0, 0, 4, 4, 4))
		p.Pairs(func(a, b int32) bool { return true })
		f := p.fat[p.slot[0]]
		p.Move(0, c.b)
		p.Pairs(func(a, b int32) bool { return true })
		if err := p.check(); err != nil {
			t.Fatal(err)
		}
		if same := p.fat[p.slot[0]] == f; same != c.same {
			t.Errorf("%s: fat box kept %v, want %v", c.name, same, c.same)
		}
	}
}
