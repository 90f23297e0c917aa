// Package broadtest checks a broad phase (package broad) against the
// brute-force oracle on seeded scenes: random boxes that wander, boxes that
// touch at faces, edges and corners, nested and identical boxes, points and
// flat boxes, boxes far from the origin and far apart, objects leaving every
// bound, removals and re-insertions, early stops, and 10^5 objects. Every
// phase's tests call Run.
package broadtest

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"

	"github.com/collide3d/collide/broad"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/internal/longtest"
)

// Pair is a pair of object ids, A < B.
type Pair struct{ A, B int32 }

// Collect calls p.Pairs and returns what it reported, sorted, with an error
// if a pair is out of order, repeated or names an object twice.
func Collect(p broad.Phase) ([]Pair, error) {
	var out []Pair
	var err error
	p.Pairs(func(a, b int32) bool {
		if a >= b && err == nil {
			err = fmt.Errorf("pair (%d, %d) is not in ascending order", a, b)
		}
		out = append(out, Pair{a, b})
		return true
	})
	slices.SortFunc(out, func(x, y Pair) int { return cmp.Or(cmp.Compare(x.A, y.A), cmp.Compare(x.B, y.B)) })
	for i := 1; i < len(out); i++ {
		if out[i] == out[i-1] && err == nil {
			err = fmt.Errorf("pair (%d, %d) reported twice", out[i].A, out[i].B)
		}
	}
	return out, err
}

// object is the oracle's record of one object.
type object struct {
	box     geom.AABB
	static  bool
	present bool
}

// Oracle keeps the objects of a scene and the expected pairs of each step:
// it is a second, independent implementation of the contract, a sort and
// sweep along x over every box, exact on closed boxes.
type Oracle struct {
	objs  []object
	moved map[int32]bool
}

// NewOracle returns an empty oracle.
func NewOracle() *Oracle { return &Oracle{moved: map[int32]bool{}} }

func (o *Oracle) grow(id int32) {
	for int(id) >= len(o.objs) {
		o.objs = append(o.objs, object{})
	}
}

// Add records an insertion.
func (o *Oracle) Add(id int32, b geom.AABB, static bool) {
	o.grow(id)
	o.objs[id] = object{box: b, static: static, present: true}
	o.moved[id] = true
}

// Move records a move; a static object stays static.
func (o *Oracle) Move(id int32, b geom.AABB) {
	o.objs[id].box = b
	o.moved[id] = true
}

// Remove records a removal.
func (o *Oracle) Remove(id int32) {
	if int(id) < len(o.objs) {
		o.objs[id].present = false
	}
}

// Pairs returns the expected pairs of the step and clears the moved marks.
func (o *Oracle) Pairs() []Pair {
	ids := make([]int32, 0, len(o.objs))
	for i := range o.objs {
		if o.objs[i].present {
			ids = append(ids, int32(i))
		}
	}
	slices.SortFunc(ids, func(a, b int32) int { return cmp.Compare(o.objs[a].box.Min.X, o.objs[b].box.Min.X) })
	var out []Pair
	for i, a := range ids {
		ba := o.objs[a].box
		for _, b := range ids[i+1:] {
			bb := o.objs[b].box
			if bb.Min.X > ba.Max.X {
				break
			}
			if !ba.Overlaps(bb) {
				continue
			}
			if o.objs[a].static && o.objs[b].static {
				continue
			}
			if !o.moved[a] && !o.moved[b] {
				continue
			}
			out = append(out, Pair{min(a, b), max(a, b)})
		}
	}
	slices.SortFunc(out, func(x, y Pair) int { return cmp.Or(cmp.Compare(x.A, y.A), cmp.Compare(x.B, y.B)) })
	clear(o.moved)
	return out
}

// Scene is a seeded sequence of operations on a broad phase.
type Scene struct {
	Name  string
	Big   bool // skipped in -short mode
	Steps int
	Init  func(r *rand.Rand, add func(id int32, b geom.AABB, static bool))
	Step  func(r *rand.Rand, step int, s *State)
}

// State is what a scene's step sees and does.
type State struct {
	Boxes   []geom.AABB // current box of each id (valid when Present)
	Static  []bool
	Present []bool
	ops     []op
}

type op struct {
	kind   byte // 'a' add, 'm' move, 'r' remove
	id     int32
	b      geom.AABB
	static bool
}

// Add inserts or replaces an object.
func (s *State) Add(id int32, b geom.AABB, static bool) {
	for int(id) >= len(s.Boxes) {
		s.Boxes = append(s.Boxes, geom.AABB{})
		s.Static = append(s.Static, false)
		s.Present = append(s.Present, false)
	}
	s.Boxes[id], s.Static[id], s.Present[id] = b, static, true
	s.ops = append(s.ops, op{kind: 'a', id: id, b: b, static: static})
}

// Move moves a present object (a static one stays static).
func (s *State) Move(id int32, b geom.AABB) {
	s.Boxes[id] = b
	s.ops = append(s.ops, op{kind: 'm', id: id, b: b})
}

// Remove removes an object (present or not).
func (s *State) Remove(id int32) {
	if int(id) < len(s.Present) {
		s.Present[id] = false
	}
	s.ops = append(s.ops, op{kind: 'r', id: id})
}

// Run checks the phases newPhase makes against the oracle on every scene of
// Scenes at every step, each from one seed, or from three (but the big
// scene) with COLLIDE_LONG_TESTS=1.
func Run(t *testing.T, newPhase func() broad.Phase) {
	for _, sc := range Scenes() {
		t.Run(sc.Name, func(t *testing.T) {
			if sc.Big && testing.Short() {
				t.Skip("big scene skipped in -short mode")
			}
			seeds := []uint64{1, 2, 3}
			if sc.Big || !longtest.Enabled() {
				seeds = seeds[:1]
			}
			for _, seed := range seeds {
				RunScene(t, sc, seed, newPhase())
			}
		})
	}
	t.Run("early-stop", func(t *testing.T) { EarlyStop(t, newPhase()) })
	t.Run("linear", func(t *testing.T) { Linear(t, newPhase) })
}

// RunScene plays one scene from one seed on p, comparing every step's pairs
// with the oracle's; it stops at the first difference.
func RunScene(t *testing.T, sc Scene, seed uint64, p broad.Phase) {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 0x62726f6164))
	or := NewOracle()
	st := &State{}
	sc.Init(r, st.Add)
	for step := 0; step <= sc.Steps; step++ {
		if step > 0 {
			sc.Step(r, step, st)
		}
		for _, o := range st.ops {
			switch o.kind {
			case 'a':
				p.Add(o.id, o.b, o.static)
				or.Add(o.id, o.b, o.static)
			case 'm':
				p.Move(o.id, o.b)
				or.Move(o.id, o.b)
			case 'r':
				p.Remove(o.id)
				or.Remove(o.id)
			}
		}
		st.ops = st.ops[:0]
		want := or.Pairs()
		got, err := Collect(p)
		if err != nil {
			t.Fatalf("%s seed %d step %d: %v", sc.Name, seed, step, err)
		}
		n := 0
		for _, ok := range st.Present {
			if ok {
				n++
			}
		}
		if p.Len() != n {
			t.Fatalf("%s seed %d step %d: Len() = %d, want %d", sc.Name, seed, step, p.Len(), n)
		}
		if !slices.Equal(got, want) {
			t.Fatalf("%s seed %d step %d: %d pairs, want %d\n%s", sc.Name, seed, step, len(got), len(want), diff(got, want, st))
		}
	}
}

func diff(got, want []Pair, st *State) string {
	s := ""
	n := 0
	set := map[Pair]bool{}
	for _, p := range got {
		set[p] = true
	}
	for _, p := range want {
		if !set[p] && n < 5 {
			s += fmt.Sprintf("missing (%d, %d): %v static %v, %v static %v\n", p.A, p.B, st.Boxes[p.A], st.Static[p.A], st.Boxes[p.B], st.Static[p.B])
			n++
		}
		delete(set, p)
	}
	for p := range set {
		if n < 10 {
			s += fmt.Sprintf("extra (%d, %d)", p.A, p.B)
			if int(p.B) < len(st.Boxes) {
				s += fmt.Sprintf(": %v, %v", st.Boxes[p.A], st.Boxes[p.B])
			}
			s += "\n"
			n++
		}
	}
	return s
}

// EarlyStop checks that a call of Pairs stopped by its callback takes the
// changes as seen: the next call, with nothing moved, reports nothing.
func EarlyStop(t *testing.T, p broad.Phase) {
	for i := range int32(20) {
		p.Add(i, cube(geom.V(float64(i)*0.5, 0, 0), 1), false)
	}
	n := 0
	p.Pairs(func(a, b int32) bool { n++; return n < 3 })
	if n != 3 {
		t.Fatalf("Pairs called back %d times after the callback said stop at 3", n)
	}
	got, err := Collect(p)
	if err != nil || len(got) != 0 {
		t.Fatalf("after an early stop and no move, Pairs reported %v (%v)", got, err)
	}
	p.Move(7, cube(geom.V(3.5, 0, 0), 1))
	got, _ = Collect(p)
	if len(got) != 4 { // 5, 6, 8, 9 (each within 1 of 3.5)
		t.Fatalf("after moving one object, Pairs reported %v, want its 4 neighbours", got)
	}
}

func cube(c geom.Vec3, s float64) geom.AABB {
	h := geom.V(s/2, s/2, s/2)
	return geom.AABB{Min: c.Sub(h), Max: c.Add(h)}
}

func randBox(r *rand.Rand, lo, hi, smin, smax float64) geom.AABB {
	c := geom.V(lo+r.Float64()*(hi-lo), lo+r.Float64()*(hi-lo), lo+r.Float64()*(hi-lo))
	s := geom.V(smin+r.Float64()*(smax-smin), smin+r.Float64()*(smax-smin), smin+r.Float64()*(smax-smin))
	return geom.AABB{Min: c.Sub(s.Scale(0.5)), Max: c.Add(s.Scale(0.5))}
}

func shift(b geom.AABB, d geom.Vec3) geom.AABB {
	return geom.AABB{Min: b.Min.Add(d), Max: b.Max.Add(d)}
}

// Scenes returns the scenes of the conformance suite.
func Scenes() []Scene {
	return []Scene{
		{
			// Static boxes stacked on each other (identical, or nested
			// and large), a few movers through them, statics moved
			// within the stack (they stay static) and re-added as
			// moving or static.
			Name: "stacked", Steps: 8,
			Init: func(r *rand.Rand, add func(int32, geom.AABB, bool)) {
				for i := range int32(100) {
					b := cube(geom.V(5, 5, 5), 3)
					switch i % 3 {
					case 0:
						b = cube(geom.V(5, 5, 5), 3+float64(i)/40)
					case 1:
						b = cube(geom.V(5, 5, 5), 0.5+float64(i)/40)
					}
					add(i, b, i >= 4)
				}
			},
			Step: func(r *rand.Rand, step int, s *State) {
				for id := range int32(len(s.Boxes)) {
					switch x := r.IntN(100); {
					case !s.Present[id]:
						if x < 30 {
							s.Add(id, cube(geom.V(5, 5, 5), 3), x < 20)
						}
					case s.Static[id]:
						if x < 3 {
							s.Move(id, shift(s.Boxes[id], geom.V(r.Float64()-0.5, 0, 0)))
						} else if x < 4 {
							s.Remove(id)
						} else if x < 5 {
							s.Add(id, s.Boxes[id], false)
						}
					default:
						if x < 5 {
							s.Add(id, s.Boxes[id], true)
						} else {
							s.Move(id, cube(geom.V(5+4*r.Float64(), 5, 5), 0.5))
						}
					}
				}
			},
		},
		{
			Name: "random", Steps: 30,
			Init: func(r *rand.Rand, add func(int32, geom.AABB, bool)) {
				for i := range int32(400) {
					add(i, randBox(r, 0, 100, 0.5, 8), i%4 == 0)
				}
			},
			Step: func(r *rand.Rand, step int, s *State) {
				for id := range int32(len(s.Boxes)) {
					switch x := r.IntN(100); {
					case !s.Present[id]:
						if x < 30 {
							s.Add(id, randBox(r, 0, 100, 0.5, 8), x < 5)
						}
					case s.Static[id]:
						if x < 2 {
							s.Move(id, randBox(r, 0, 100, 0.5, 8))
						}
					case x < 3:
						s.Remove(id)
					case x < 50:
						d := geom.V(r.NormFloat64(), r.NormFloat64(), r.NormFloat64())
						s.Move(id, shift(s.Boxes[id], d))
					}
				}
				if step%10 == 0 {
					s.Remove(int32(len(s.Boxes)) + 5) // absent
				}
			},
		},
		{
			// Unit cubes on an integer lattice, half the sites filled: every
			// neighbour touches at a face, an edge or a corner, exactly, and
			// the boundaries fall on every power-of-two cell boundary.
			Name: "touching", Steps: 20,
			Init: func(r *rand.Rand, add func(int32, geom.AABB, bool)) {
				id := int32(0)
				for x := range 8 {
					for y := range 8 {
						for z := range 8 {
							if r.IntN(2) == 0 {
								add(id, geom.AABB{Min: geom.V(float64(x), float64(y), float64(z)), Max: geom.V(float64(x+1), float64(y+1), float64(z+1))}, r.IntN(3) == 0)
								id++
							}
						}
					}
				}
			},
			Step: func(r *rand.Rand, step int, s *State) {
				for id := range int32(len(s.Boxes)) {
					if s.Present[id] && !s.Static[id] && r.IntN(4) == 0 {
						d := geom.V(float64(r.IntN(3)-1), float64(r.IntN(3)-1), float64(r.IntN(3)-1))
						s.Move(id, shift(s.Boxes[id], d))
					}
				}
			},
		},
		{
			// Nested boxes, identical boxes (20 copies), points and flat
			// boxes: what makes a recursive grid recurse forever.
			Name: "nested", Steps: 15,
			Init: func(r *rand.Rand, add func(int32, geom.AABB, bool)) {
				id := int32(0)
				for i := range 30 {
					add(id, cube(geom.V(0, 0, 0), 100/float64(i+1)), i%2 == 0)
					id++
				}
				for range 20 {
					add(id, cube(geom.V(10, 10, 10), 3), id%3 == 0)
					id++
				}
				for range 20 {
					p := geom.V(float64(r.IntN(20)), float64(r.IntN(20)), 5)
					add(id, geom.AABB{Min: p, Max: p}, false) // points
					id++
				}
				for range 20 {
					b := randBox(r, -20, 20, 1, 10)
					b.Max.Z = b.Min.Z // flat
					add(id, b, id%4 == 0)
					id++
				}
			},
			Step: func(r *rand.Rand, step int, s *State) {
				for id := range int32(len(s.Boxes)) {
					if s.Present[id] && !s.Static[id] && r.IntN(3) == 0 {
						s.Move(id, shift(s.Boxes[id], geom.V(float64(r.IntN(5)-2), float64(r.IntN(5)-2), 0)))
					}
				}
			},
		},
		{
			// Clusters far from the origin and far from each other, tiny
			// boxes, and boxes one ulp apart.
			Name: "far", Steps: 15,
			Init: func(r *rand.Rand, add func(int32, geom.AABB, bool)) {
				id := int32(0)
				for _, c := range []float64{-1e12, -1e6, 0, 1e-9, 1e6, 1e15} {
					for range 25 {
						s := math.Max(math.Abs(c)*1e-6, 1e-12)
						b := randBox(r, c, c+100*s, s, 10*s)
						add(id, b, r.IntN(3) == 0)
						id++
					}
				}
				// One ulp apart, and touching.
				a := geom.AABB{Min: geom.V(1, 1, 1), Max: geom.V(2, 2, 2)}
				add(id, a, false)
				nx := math.Nextafter(2, 3)
				add(id+1, geom.AABB{Min: geom.V(nx, 1, 1), Max: geom.V(3, 2, 2)}, false)
				add(id+2, geom.AABB{Min: geom.V(2, 2, 2), Max: geom.V(3, 3, 3)}, true)
			},
			Step: func(r *rand.Rand, step int, s *State) {
				for id := range int32(len(s.Boxes)) {
					if s.Present[id] && !s.Static[id] && r.IntN(2) == 0 {
						b := s.Boxes[id]
						sz := b.Size()
						d := geom.V(sz.X*r.NormFloat64(), sz.Y*r.NormFloat64(), sz.Z*r.NormFloat64())
						s.Move(id, shift(b, d))
					}
				}
			},
		},
		{
			// Objects leaving every bound the phase may have set from the
			// first boxes, by a thousandfold and more, and coming back; a
			// box as large as the world.
			Name: "leaving", Steps: 20,
			Init: func(r *rand.Rand, add func(int32, geom.AABB, bool)) {
				for i := range int32(200) {
					add(i, randBox(r, 0, 10, 0.1, 2), i%5 == 0)
				}
			},
			Step: func(r *rand.Rand, step int, s *State) {
				for id := range int32(len(s.Boxes)) {
					if !s.Present[id] || s.Static[id] {
						continue
					}
					switch x := r.IntN(10); {
					case x == 0:
						s.Move(id, randBox(r, -1e4, 1e4, 0.1, 2))
					case x == 1:
						s.Move(id, randBox(r, 0, 10, 0.1, 2))
					case x == 2 && step%7 == 0:
						s.Move(id, geom.AABB{Min: geom.V(-1e5, -1e5, -1e5), Max: geom.V(1e5, 1e5, 1e5)})
					case x < 6:
						s.Move(id, shift(s.Boxes[id], geom.V(r.NormFloat64(), r.NormFloat64(), r.NormFloat64())))
					}
				}
			},
		},
		{
			// 10^5 objects, 10% of them static, 10% of the others moving at
			// each step.
			Name: "1e5", Big: true, Steps: 3,
			Init: func(r *rand.Rand, add func(int32, geom.AABB, bool)) {
				for i := range int32(100000) {
					add(i, randBox(r, 0, 500, 0.2, 3), i%10 == 0)
				}
			},
			Step: func(r *rand.Rand, step int, s *State) {
				for id := range int32(len(s.Boxes)) {
					if s.Present[id] && !s.Static[id] && r.IntN(10) == 0 {
						s.Move(id, shift(s.Boxes[id], geom.V(r.NormFloat64(), r.NormFloat64(), r.NormFloat64())))
					}
				}
			},
		},
	}
}

// Visitor is implemented by phases that count their work: the candidate
// pairs they visit (boxes tested, list entries read), for Linear.
type Visitor interface {
	Visits() int64
}

// Linear checks that a phase's work and memory stay linear in the objects
// and the pairs reported when many static objects overlap each other: n
// identical static boxes stacked, and n nested ones, with a few moving
// boxes through them, statics moved within the stack and removed. The
// pairs of two static objects, never reported, must be neither held nor
// visited: it compares n = 1000 with n = 4000 (16 times the work if it
// is quadratic, 4 if linear) by the phase's Visits, if it counts them, and
// by the bytes it allocates, and checks every step's pairs against the
// oracle.
func Linear(t *testing.T, newPhase func() broad.Phase) {
	for _, kind := range []string{"identical", "nested", "identical and one far"} {
		nested := kind == "nested"
		type cost struct{ visits, bytes int64 }
		run := func(n int) cost {
			p := newPhase()
			st := &State{}
			moved := map[int32]bool{}
			box := func(i int) geom.AABB {
				if nested {
					return cube(geom.V(0, 0, 0), 1+float64(i)/float64(n))
				}
				return cube(geom.V(0, 0, 0), 1)
			}
			var c cost
			v0 := int64(0)
			if v, ok := p.(Visitor); ok {
				v0 = v.Visits()
			}
			var m0, m1 runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&m0)
			apply := func() {
				for _, o := range st.ops {
					switch o.kind {
					case 'a':
						p.Add(o.id, o.b, o.static)
						moved[o.id] = true
					case 'm':
						p.Move(o.id, o.b)
						moved[o.id] = true
					case 'r':
						p.Remove(o.id)
					}
				}
				st.ops = st.ops[:0]
			}
			for i := range n {
				st.Add(int32(i), box(i), true)
			}
			const movers = 3
			for k := range movers {
				st.Add(int32(n+k), cube(geom.V(0.5*float64(k), 0, 0), 0.5), false)
			}
			if kind == "identical and one far" {
				// The stack's faces then cross cells of a grid over
				// both, instead of the stack filling it.
				st.Add(int32(n+movers), cube(geom.V(20, 20, 20), 1), true)
			}
			for step := range 8 {
				switch step {
				case 0:
				case 5:
					st.Move(int32(n/2), shift(st.Boxes[n/2], geom.V(0.25, 0, 0)))
					st.Move(int32(n/3), shift(st.Boxes[n/3], geom.V(0, 0.25, 0)))
				case 6:
					st.Remove(int32(n / 4))
				default:
					for k := range movers {
						st.Move(int32(n+k), shift(st.Boxes[n+k], geom.V(0.1, 0.05, 0)))
					}
				}
				apply()
				got, err := Collect(p)
				if err != nil {
					t.Fatalf("%s, n %d, step %d: %v", kind, n, step, err)
				}
				// The oracle, linear here: every pair has a moving object.
				var want []Pair
				for a := range int32(len(st.Boxes)) {
					if !st.Present[a] || st.Static[a] {
						continue
					}
					for b := range int32(len(st.Boxes)) {
						if b == a || !st.Present[b] || !st.Static[b] && b < a || !moved[a] && !moved[b] || !st.Boxes[a].Overlaps(st.Boxes[b]) {
							continue
						}
						want = append(want, Pair{min(a, b), max(a, b)})
					}
				}
				clear(moved)
				slices.SortFunc(want, func(x, y Pair) int { return cmp.Or(cmp.Compare(x.A, y.A), cmp.Compare(x.B, y.B)) })
				if !slices.Equal(got, want) {
					t.Fatalf("%s, n %d, step %d: %d pairs, want %d\n%s", kind, n, step, len(got), len(want), diff(got, want, st))
				}
			}
			runtime.ReadMemStats(&m1)
			c.bytes = int64(m1.TotalAlloc - m0.TotalAlloc)
			if v, ok := p.(Visitor); ok {
				c.visits = v.Visits() - v0
			}
			runtime.KeepAlive(p)
			return c
		}
		small, large := run(1000), run(4000)
		if large.visits > 6*small.visits+1000 {
			t.Errorf("%s: %d pairs visited for 1000 static objects, %d for 4000: not linear", kind, small.visits, large.visits)
		}
		// The oracle and the collected pairs allocate too, linearly.
		if large.bytes > 6*small.bytes+4<<20 {
			t.Errorf("%s: %d bytes allocated for 1000 static objects, %d for 4000: not linear", kind, small.bytes, large.bytes)
		}
	}
}
