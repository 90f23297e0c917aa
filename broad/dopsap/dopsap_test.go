package dopsap

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/collide3d/collide/broad"
	"github.com/collide3d/collide/broad/broadtest"
	"github.com/collide3d/collide/bv"
	"github.com/collide3d/collide/geom"
)

// TestConformance runs the suite on the default 18-DOP, and its scenes
// but the big one on the other direction sets (with boxes alone, they
// differ only in the number of arrays).
func TestConformance(t *testing.T) {
	broadtest.Run(t, func() broad.Phase { return New(0) })
	for _, k := range []bv.K{bv.K6, bv.K8, bv.K12, bv.K14, bv.K20, bv.K26} {
		t.Run(k.String(), func(t *testing.T) {
			for _, sc := range broadtest.Scenes() {
				if !sc.Big {
					broadtest.RunScene(t, sc, 1, New(k))
				}
			}
			broadtest.EarlyStop(t, New(k))
		})
	}
}

// TestConformanceModes runs the suite with the incremental update forced
// (never a rebuild for cost) and with a rebuild at every call.
func TestConformanceModes(t *testing.T) {
	for _, c := range []struct {
		name string
		mode int
	}{{"incremental", 1}, {"rebuild", 2}} {
		t.Run(c.name, func(t *testing.T) {
			broadtest.Run(t, func() broad.Phase {
				p := New(0)
				p.mode = c.mode
				return p
			})
		})
	}
}

// obj is the oracle's record of an object bounded by a DOP.
type obj struct {
	d               bv.DOP
	box             geom.AABB
	static, present bool
}

// dopOracle is the contract with DOPs, by testing every pair.
type dopOracle struct {
	objs  []obj
	moved map[int32]bool
}

func (o *dopOracle) pairs() []broadtest.Pair {
	var out []broadtest.Pair
	for a := range o.objs {
		for b := a + 1; b < len(o.objs); b++ {
			x, y := &o.objs[a], &o.objs[b]
			if !x.present || !y.present || x.static && y.static || !o.moved[int32(a)] && !o.moved[int32(b)] {
				continue
			}
			// The boxes are the DOPs' first slabs, or (a set without
			// the axes) swept as well.
			if x.d.Overlaps(&y.d) && x.box.Overlaps(y.box) {
				out = append(out, broadtest.Pair{A: int32(a), B: int32(b)})
			}
		}
	}
	clear(o.moved)
	return out
}

// dopScene makes the DOP of object id at a step.
type dopScene struct {
	name string
	n    int
	// gen returns the points whose DOP bounds object id at step.
	gen func(r *rand.Rand, id, step int) []geom.Vec3
}

func cloud(r *rand.Rand, c geom.Vec3, s float64, n int) []geom.Vec3 {
	ps := make([]geom.Vec3, n)
	for i := range ps {
		ps[i] = c.Add(geom.V(r.NormFloat64(), r.NormFloat64(), r.NormFloat64()).Scale(s))
	}
	return ps
}

func lattice(i, j, k int, s float64) geom.Vec3 {
	return geom.V(float64(i)*s, float64(j)*s, float64(k)*s)
}

func dopScenes() []dopScene {
	return []dopScene{
		{"random", 300, func(r *rand.Rand, id, step int) []geom.Vec3 {
			c := geom.V(r.Float64()*40, r.Float64()*40, r.Float64()*40)
			return cloud(r, c, 0.3+r.Float64(), 2+r.IntN(6))
		}},
		{"far", 200, func(r *rand.Rand, id, step int) []geom.Vec3 {
			c := geom.V(1e15+r.Float64()*4e3, -3e14+r.Float64()*4e3, 7e13+r.Float64()*4e3)
			return cloud(r, c, 50+50*r.Float64(), 3+r.IntN(4))
		}},
		{
			// Tetrahedra on a lattice, sharing faces, edges and
			// vertices with their neighbours, exactly: their DOPs touch
			// on every diagonal, and many intervals are equal.
			"touching", 216, func(r *rand.Rand, id, step int) []geom.Vec3 {
				i, j, k := id%6, id/6%6, id/36
				i += r.IntN(3) - 1
				ps := []geom.Vec3{lattice(i, j, k, 1), lattice(i+1, j, k, 1), lattice(i, j+1, k, 1), lattice(i, j, k+1, 1)}
				if r.IntN(2) == 0 {
					ps = []geom.Vec3{lattice(i+1, j+1, k+1, 1), lattice(i+1, j, k, 1), lattice(i, j+1, k, 1), lattice(i, j, k+1, 1)}
				}
				return ps
			},
		},
		{
			// Thin rods along the diagonals, crossing near each other:
			// their boxes overlap and their DOPs mostly do not.
			"rods", 200, func(r *rand.Rand, id, step int) []geom.Vec3 {
				c := geom.V(r.Float64()*10, r.Float64()*10, r.Float64()*10)
				d := geom.V(1, 1, 0)
				if id%2 == 1 {
					d = geom.V(1, -1, 0)
				}
				if id%3 == 0 {
					d = geom.V(1, 1, 1)
				}
				return []geom.Vec3{c, c.Add(d.Scale(3))}
			},
		},
		{
			// Points: every interval a single value, many equal.
			"points", 150, func(r *rand.Rand, id, step int) []geom.Vec3 {
				return []geom.Vec3{lattice(r.IntN(4), r.IntN(4), r.IntN(4), 0.5)}
			},
		},
	}
}

// TestDOPs drives the phase, each object bounded by the DOP of a set of
// points and its box the DOP's x, y and z, through seeded scenes where
// objects are added, moved, removed, re-added with the other static flag
// and left unmoved, against the oracle that tests every pair's DOPs, in
// every mode and for every direction set.
func TestDOPs(t *testing.T) {
	for _, sc := range dopScenes() {
		for _, k := range bv.Ks {
			for mode := range 3 {
				t.Run(fmt.Sprintf("%s/%v/mode=%d", sc.name, k, mode), func(t *testing.T) {
					runDOPScene(t, sc, k, mode, 1)
				})
			}
		}
	}
}

func runDOPScene(t *testing.T, sc dopScene, k bv.K, mode int, seed uint64) {
	r := rand.New(rand.NewPCG(seed, 0x646f70))
	p := New(k)
	p.mode = mode
	or := &dopOracle{moved: map[int32]bool{}}
	set := func(id int, step int, add, static bool) {
		d := bv.Fit(k, sc.gen(r, id, step)...)
		b := d.Box() // the axis slabs, or the box derived from the diagonals
		for len(or.objs) <= id {
			or.objs = append(or.objs, obj{})
		}
		if add {
			p.Add(int32(id), b, static)
			or.objs[id] = obj{d: d, box: b, static: static, present: true}
		} else {
			p.Move(int32(id), b)
			or.objs[id].d, or.objs[id].box = d, b
		}
		p.SetDOP(int32(id), &d)
		or.moved[int32(id)] = true
	}
	for id := range sc.n {
		set(id, 0, true, id%4 == 0)
	}
	withDOP := 0
	for step := 0; step < 12; step++ {
		if step > 0 {
			for id := range sc.n {
				o := &or.objs[id]
				switch x := r.IntN(100); {
				case !o.present:
					if x < 40 {
						set(id, step, true, x < 10)
					}
				case x < 4:
					p.Remove(int32(id))
					o.present = false
				case x < 6:
					set(id, step, true, !o.static) // the other flag
				case x < 8 && o.static:
					set(id, step, false, true)
				case x < 40 && !o.static:
					set(id, step, false, false)
				}
			}
		}
		want := or.pairs()
		got, err := broadtest.Collect(p)
		if err != nil {
			t.Fatalf("step %d: %v", step, err)
		}
		if !slices.Equal(got, want) {
			t.Fatalf("step %d: %d pairs, want %d (first difference %v)", step, len(got), len(want), firstDiff(got, want))
		}
		withDOP += len(want)
	}
	if withDOP == 0 {
		t.Fatalf("no pair in 12 steps: the scene tests nothing")
	}
}

func firstDiff(got, want []broadtest.Pair) string {
	for i := range min(len(got), len(want)) {
		if got[i] != want[i] {
			return fmt.Sprintf("got %v, want %v", got[i], want[i])
		}
	}
	if len(got) > len(want) {
		return fmt.Sprintf("extra %v", got[len(want)])
	}
	if len(want) > len(got) {
		return fmt.Sprintf("missing %v", want[len(got)])
	}
	return "none"
}

// TestPrunes checks that the DOPs prune: two rods crossing along the
// diagonals, whose boxes overlap and whose 18-DOPs do not, are not
// reported, and are once the DOPs are dropped.
func TestPrunes(t *testing.T) {
	p := New(bv.K18)
	a := bv.Fit(bv.K18, geom.V(0, 0, 0), geom.V(1, 1, 0))
	b := bv.Fit(bv.K18, geom.V(0.8, 0, 0), geom.V(1, 0.2, 0)) // x - y ≥ 0.6 on b, 0 on a
	boxOf := func(d *bv.DOP) geom.AABB {
		return geom.AABB{Min: geom.V(d.Lo[0], d.Lo[1], d.Lo[2]), Max: geom.V(d.Hi[0], d.Hi[1], d.Hi[2])}
	}
	p.Add(0, boxOf(&a), false)
	p.Add(1, boxOf(&b), false)
	p.SetDOP(0, &a)
	p.SetDOP(1, &b)
	if got, _ := broadtest.Collect(p); len(got) != 0 {
		t.Fatalf("disjoint 18-DOPs reported: %v", got)
	}
	p.Move(1, boxOf(&b)) // forgets the DOP
	if got, _ := broadtest.Collect(p); len(got) != 1 {
		t.Fatalf("overlapping boxes not reported after Move dropped the DOP: %v", got)
	}
	p.Move(1, boxOf(&b))
	p.SetDOP(1, &b)
	if got, _ := broadtest.Collect(p); len(got) != 0 {
		t.Fatalf("disjoint 18-DOPs reported after SetDOP: %v", got)
	}
}

// TestZeroAllocs checks that a warm step (moves, DOPs and Pairs)
// allocates nothing.
func TestZeroAllocs(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 5))
	p := New(bv.K18)
	const n = 500
	ds := make([]bv.DOP, n)
	for i := range n {
		c := geom.V(r.Float64()*30, r.Float64()*30, r.Float64()*30)
		ds[i] = bv.Fit(bv.K18, cloud(r, c, 0.5, 4)...)
		p.Add(int32(i), geom.AABB{Min: geom.V(ds[i].Lo[0], ds[i].Lo[1], ds[i].Lo[2]), Max: geom.V(ds[i].Hi[0], ds[i].Hi[1], ds[i].Hi[2])}, i%5 == 0)
		p.SetDOP(int32(i), &ds[i])
	}
	fn := func(a, b int32) bool { return true }
	step := func() {
		for i := range n {
			if i%5 == 0 {
				continue
			}
			d := &ds[i]
			s := 0.01 * r.NormFloat64()
			for a := range 9 {
				m := 1.0
				if a >= 3 {
					m = 2
				}
				d.Lo[a] += m * s
				d.Hi[a] += m * s
			}
			p.Move(int32(i), geom.AABB{Min: geom.V(d.Lo[0], d.Lo[1], d.Lo[2]), Max: geom.V(d.Hi[0], d.Hi[1], d.Hi[2])})
			p.SetDOP(int32(i), d)
		}
		p.Pairs(fn)
	}
	for range 20 {
		step()
	}
	if a := testing.AllocsPerRun(20, step); a != 0 {
		t.Errorf("a warm step allocates %v times", a)
	}
}

// TestSortOrder checks the arrays' order after steps: ascending, a min
// before a max at equal values, every object's min before its max.
func TestSortOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	p := New(bv.K26)
	p.mode = 1
	for i := range int32(200) {
		d := bv.Fit(bv.K26, cloud(r, geom.V(float64(i%7), 0, 0), 1, 3)...)
		p.Add(i, geom.AABB{Min: geom.V(d.Lo[0], d.Lo[1], d.Lo[2]), Max: geom.V(d.Hi[0], d.Hi[1], d.Hi[2])}, false)
		p.SetDOP(i, &d)
	}
	p.Pairs(func(a, b int32) bool { return true })
	for range 5 {
		for i := range int32(200) {
			d := bv.Fit(bv.K26, cloud(r, geom.V(float64(r.IntN(7)), 0, 0), 1, 3)...)
			p.Move(i, geom.AABB{Min: geom.V(d.Lo[0], d.Lo[1], d.Lo[2]), Max: geom.V(d.Hi[0], d.Hi[1], d.Hi[2])})
			p.SetDOP(i, &d)
		}
		p.Pairs(func(a, b int32) bool { return true })
		for a, s := range p.ep {
			if !slices.IsSortedFunc(s, cmpEndpoint) {
				t.Fatalf("axis %d not sorted", a)
			}
			seen := map[uint32]bool{}
			for _, e := range s {
				if e.x&1 != 0 && !seen[e.x>>1] {
					t.Fatalf("axis %d: object %d's max before its min", a, e.x>>1)
				}
				seen[e.x>>1] = true
			}
		}
	}
}
