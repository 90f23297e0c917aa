package grid

import (
	"fmt"
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
	broadtest.Run(t, func() broad.Phase { return New(nil) })
}

// TestConformanceModes runs the suite with the per-object queries and with
// the cell sweep forced, and with cell sizes far from the chosen one.
func TestConformanceModes(t *testing.T) {
	for _, c := range []struct {
		name string
		opt  Options
		mode int
	}{
		{"queries", Options{}, 1},
		{"sweep", Options{}, 2},
		{"tiny-cells", Options{CellSize: 0.25, MaxCells: 64}, 0},
		{"huge-cells", Options{CellSize: 1000}, 0},
		{"all-large", Options{CellSize: 0.01, MaxCells: 1}, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			for _, sc := range broadtest.Scenes() {
				// The odd sizes would take minutes on 10^5 objects.
				if sc.Big && (c.mode == 0 || testing.Short()) {
					continue
				}
				for seed := range uint64(longtest.Pick(1, 3)) {
					p := New(&c.opt)
					p.mode = c.mode
					broadtest.RunScene(t, sc, seed, p)
				}
			}
			p := New(&c.opt)
			p.mode = c.mode
			broadtest.EarlyStop(t, p)
		})
	}
}

func cube(x, y, z, s float64) geom.AABB {
	return geom.AABB{Min: geom.V(x, y, z), Max: geom.V(x+s, y+s, z+s)}
}

// TestTouchingShareACell checks the conservativeness of the cell index:
// boxes that touch at a face, an edge or a corner, at a cell boundary or
// an ulp away from one, near the origin or far beyond the clamped range,
// get integer boxes that overlap.
func TestTouchingShareACell(t *testing.T) {
	p := New(&Options{CellSize: 0.1})
	p.Add(0, cube(0, 0, 0, 1), false)
	p.Pairs(func(a, b int32) bool { return true })
	for _, v := range []float64{0, 0.1, 0.3, 1, 1e-300, -0.7, 12345.678, 1e6, 1e15, -1e300, math.MaxFloat64} {
		for _, w := range []float64{v, math.Nextafter(v, math.Inf(1)), math.Nextafter(v, math.Inf(-1))} {
			a := geom.AABB{Min: geom.V(w-1, w-1, w-1), Max: geom.V(v, v, v)}
			b := geom.AABB{Min: geom.V(v, v, v), Max: geom.V(w+1, w+1, w+1)}
			if !a.Overlaps(b) {
				continue
			}
			ia, ib := p.ibox(&a), p.ibox(&b)
			if !overlapI(&ia, &ib) {
				t.Errorf("boxes touching at %g: cells %v and %v do not overlap", v, ia, ib)
			}
		}
	}
	// Monotone on a sweep of values.
	r := rand.New(rand.NewPCG(1, 2))
	for range 10000 {
		x := r.NormFloat64() * math.Exp(r.Float64()*40-20)
		y := math.Nextafter(x, math.Inf(1))
		if p.coord(x, 0) > p.coord(y, 0) {
			t.Fatalf("coord(%g) = %d > coord(%g) = %d", x, p.coord(x, 0), y, p.coord(y, 0))
		}
	}
}

// TestDiff checks Zachmann's box difference against the set difference of
// random integer boxes.
func TestDiff(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	rbox := func() ibox {
		var b ibox
		for a := range 3 {
			lo := int32(r.IntN(6))
			b.lo[a], b.hi[a] = lo, lo+int32(r.IntN(4))
		}
		return b
	}
	cells := func(b ibox) map[[3]int32]bool {
		m := map[[3]int32]bool{}
		for x := b.lo[0]; x <= b.hi[0]; x++ {
			for y := b.lo[1]; y <= b.hi[1]; y++ {
				for z := b.lo[2]; z <= b.hi[2]; z++ {
					m[[3]int32{x, y, z}] = true
				}
			}
		}
		return m
	}
	for range 2000 {
		a, b := rbox(), rbox()
		if !overlapI(&a, &b) {
			continue
		}
		p := New(nil)
		p.diff(a, b, 7, true)
		want := cells(a)
		for c := range cells(b) {
			delete(want, c)
		}
		got := 0
		for i := range p.table.slots {
			s := &p.table.slots[i]
			if s.key == 0 {
				continue
			}
			x, y, z := int32(s.key&coordMax), int32(s.key>>21&coordMax), int32(s.key>>42&coordMax)
			if !want[[3]int32{x, y, z}] || len(s.objs) != 1 {
				t.Fatalf("diff(%v, %v): cell %d %d %d holds %v", a, b, x, y, z, s.objs)
			}
			got++
		}
		if got != len(want) {
			t.Fatalf("diff(%v, %v): %d cells, want %d", a, b, got, len(want))
		}
	}
}

// TestTable checks the cell table against a map under random additions
// and removals (backward-shift deletion, growth, the lists' recycling).
func TestTable(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	var tb table
	ref := map[uint64][]int32{}
	for i := range 200000 {
		k := key(int32(r.IntN(40)), int32(r.IntN(3)), int32(r.IntN(3)))
		if objs := ref[k]; len(objs) > 0 && r.IntN(2) == 0 {
			id := objs[r.IntN(len(objs))]
			tb.remove(k, id)
			j := slices.Index(objs, id)
			ref[k] = slices.Delete(objs, j, j+1)
		} else {
			id := int32(i)
			tb.add(k, id)
			ref[k] = append(objs, id)
		}
		if i%1000 == 0 {
			n := 0
			for k, objs := range ref {
				if len(objs) == 0 {
					if tb.get(k) != nil {
						t.Fatalf("empty cell %x still in the table", k)
					}
					continue
				}
				n++
				s := tb.get(k)
				if s == nil || !slices.IsSorted(s.objs) || !slices.Equal(s.objs, slices.Sorted(slices.Values(objs))) {
					t.Fatalf("cell %x: got %v, want %v", k, s, objs)
				}
			}
			if n != tb.n {
				t.Fatalf("table holds %d cells, want %d", tb.n, n)
			}
		}
	}
}

// TestLarge checks that a box spanning 10^6 cells and more goes to the
// large list, not into the cells, and comes back when it shrinks.
func TestLarge(t *testing.T) {
	p := New(&Options{CellSize: 1})
	for i := range int32(100) {
		p.Add(i, cube(float64(i), 0, 0, 0.5), false)
	}
	p.Pairs(func(a, b int32) bool { return true })
	cells := p.table.n
	huge := geom.AABB{Min: geom.V(-50, -50, -50), Max: geom.V(150, 150, 150)} // 8e6 cells
	p.Add(100, huge, false)
	got := collect(p)
	if len(got) != 100 || len(p.large) != 1 || p.table.n != cells {
		t.Fatalf("huge box: %d pairs, %d large, %d cells (was %d)", len(got), len(p.large), p.table.n, cells)
	}
	p.Move(100, geom.AABB{Min: geom.V(-1e300, -1e300, -1e300), Max: geom.V(1e300, 1e300, 1e300)})
	p.Move(5, cube(5, 0, 0, 0.5))
	if got := collect(p); len(got) != 100 {
		t.Fatalf("after moving the huge box: %d pairs, want 100", len(got))
	}
	p.Move(100, cube(10, 0, 0, 0.2))
	if got := collect(p); len(got) != 1 || len(p.large) != 0 {
		t.Fatalf("after shrinking: pairs %v, %d large", got, len(p.large))
	}
}

// TestRenumber drifts every object across many cells so that the slots are
// renumbered several times, checking the pairs against the brute force
// phase at every step.
func TestRenumber(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	p, q := New(&Options{CellSize: 1}), broad.NewBrute()
	boxes := make([]geom.AABB, 500)
	for i := range boxes {
		boxes[i] = cube(r.Float64()*20, r.Float64()*20, r.Float64()*20, 0.8)
		p.Add(int32(i), boxes[i], i%7 == 0)
		q.Add(int32(i), boxes[i], i%7 == 0)
	}
	renumbered := 0
	gone := map[int]bool{}
	for step := range 40 {
		for i := range boxes {
			if i%7 == 0 || gone[i] || r.IntN(2) == 0 {
				continue
			}
			d := geom.V(r.Float64()*2-1, r.Float64()*2-1, r.Float64()*2-1)
			boxes[i] = geom.AABB{Min: boxes[i].Min.Add(d), Max: boxes[i].Max.Add(d)}
			p.Move(int32(i), boxes[i])
			q.Move(int32(i), boxes[i])
		}
		if step%5 == 0 {
			i := 1 + step
			p.Remove(int32(i))
			q.Remove(int32(i))
			gone[i] = true
		}
		d0 := p.drift
		got, want := collect(p), collect(q)
		if p.drift < d0 {
			renumbered++
		}
		if !slices.Equal(got, want) {
			t.Fatalf("step %d: %d pairs, want %d", step, len(got), len(want))
		}
		for s, id := range p.idOf {
			if id >= 0 && p.slotOf[id] != int32(s) {
				t.Fatalf("step %d: slot %d holds %d whose slot is %d", step, s, id, p.slotOf[id])
			}
		}
	}
	if renumbered < 2 {
		t.Errorf("renumbered %d times, want several", renumbered)
	}
}

func collect(p broad.Phase) []broadtest.Pair {
	got, err := broadtest.Collect(p)
	if err != nil {
		panic(err)
	}
	return got
}

// TestCellSize checks the chosen edge on degenerate sets of boxes.
func TestCellSize(t *testing.T) {
	for _, c := range []struct {
		name  string
		boxes []geom.AABB
	}{
		{"one", []geom.AABB{cube(0, 0, 0, 1)}},
		{"points", []geom.AABB{cube(0, 0, 0, 0), cube(1, 2, 3, 0), cube(5, 5, 5, 0)}},
		{"same point", []geom.AABB{cube(1, 1, 1, 0), cube(1, 1, 1, 0)}},
		{"flat", []geom.AABB{{Min: geom.V(0, 0, 0), Max: geom.V(1, 1, 0)}, {Min: geom.V(5, 0, 0), Max: geom.V(6, 1, 0)}}},
		{"infinite", []geom.AABB{{Min: geom.V(math.Inf(-1), 0, 0), Max: geom.V(math.Inf(1), 1, 1)}, cube(0, 0, 0, 1)}},
		{"spread", []geom.AABB{cube(-1e300, 0, 0, 1), cube(1e300, 0, 0, 1)}},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := New(nil)
			for i, b := range c.boxes {
				p.Add(int32(i), b, false)
			}
			p.Pairs(func(a, b int32) bool { return true })
			if s := p.CellSize(); !(s > 0) || math.IsInf(s, 0) {
				t.Fatalf("cell size %g", s)
			}
		})
	}
}

func TestRadixSort(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for _, max := range []uint64{0, 1, 2047, 2048, 1 << 40, math.MaxUint64 >> 1} {
		s := make([]skey, 1000)
		for i := range s {
			s[i] = skey{r.Uint64() % (max + 1), int32(i)}
		}
		got := radixSort(slices.Clone(s), make([]skey, len(s)), max)
		slices.SortStableFunc(s, func(a, b skey) int {
			switch {
			case a.key < b.key:
				return -1
			case a.key > b.key:
				return 1
			}
			return 0
		})
		if !slices.Equal(got, s) {
			t.Fatalf("max %d: radix sort differs from a stable sort", max)
		}
	}
}

func ExamplePhase() {
	p := New(nil)                                                         // the cell size is chosen from the boxes
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

// TestInfinite mixes boxes with infinite sides (half-spaces, slabs, the
// whole space, points at infinity) with ordinary ones, in both modes.
func TestInfinite(t *testing.T) {
	inf := math.Inf(1)
	r := rand.New(rand.NewPCG(11, 12))
	for _, mode := range []int{1, 2} {
		p, q := New(nil), broad.NewBrute()
		p.mode = mode
		add := func(id int32, b geom.AABB, static bool) { p.Add(id, b, static); q.Add(id, b, static) }
		move := func(id int32, b geom.AABB) { p.Move(id, b); q.Move(id, b) }
		add(0, geom.AABB{Min: geom.V(-inf, -inf, -inf), Max: geom.V(inf, inf, inf)}, true)
		add(1, geom.AABB{Min: geom.V(-inf, 0, 0), Max: geom.V(0, 1, 1)}, false)
		add(2, geom.AABB{Min: geom.V(inf, inf, inf), Max: geom.V(inf, inf, inf)}, false)
		add(3, geom.AABB{Min: geom.V(-inf, -inf, -inf), Max: geom.V(-inf, -inf, -inf)}, false)
		for i := int32(4); i < 100; i++ {
			add(i, cube(r.Float64()*20, r.Float64()*20, r.Float64()*20, 1), i%5 == 0)
		}
		for step := range 10 {
			if step > 0 {
				for i := int32(1); i < 100; i += 3 {
					if i%5 == 0 {
						continue
					}
					if i < 4 {
						c := r.Float64()*40 - 20
						move(i, geom.AABB{Min: geom.V(-inf, c, 0), Max: geom.V(c, c+1, 1)})
						continue
					}
					move(i, cube(r.Float64()*20, r.Float64()*20, r.Float64()*20, 1))
				}
			}
			got, want := collect(p), collect(q)
			if !slices.Equal(got, want) {
				t.Fatalf("mode %d step %d: %v, want %v", mode, step, got, want)
			}
		}
	}
}

// TestReplace removes and re-adds ids within one call, and replaces
// present objects with Add, changing their static flags.
func TestReplace(t *testing.T) {
	for _, mode := range []int{1, 2} {
		p, q := New(nil), broad.NewBrute()
		p.mode = mode
		add := func(id int32, b geom.AABB, static bool) { p.Add(id, b, static); q.Add(id, b, static) }
		remove := func(id int32) { p.Remove(id); q.Remove(id) }
		check := func(what string) {
			t.Helper()
			if got, want := collect(p), collect(q); !slices.Equal(got, want) {
				t.Fatalf("mode %d %s: %v, want %v", mode, what, got, want)
			}
		}
		for i := range int32(30) {
			add(i, cube(float64(i)*0.7, 0, 0, 1), i%2 == 0)
		}
		check("start")
		remove(3)
		add(3, cube(10, 0, 0, 1), true)
		remove(4)
		add(4, cube(4, 0, 0, 1), false)
		add(6, cube(1, 0, 0, 1), false) // static to moving
		add(7, cube(1, 0, 0, 1), true)  // moving to static
		add(40, geom.AABB{Min: geom.V(0, 0, 0), Max: geom.V(30, 1, 1)}, false)
		remove(40)
		remove(41)
		check("replaced")
		p.Move(7, cube(2, 0, 0, 1))
		q.Move(7, cube(2, 0, 0, 1))
		check("moved")
	}
}
