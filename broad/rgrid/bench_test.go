package rgrid_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/collide3d/collide/broad"
	"github.com/collide3d/collide/broad/rgrid"
	"github.com/collide3d/collide/bv"
	"github.com/collide3d/collide/geom"
)

// cdfastScene is the paper's scene 2 grown to ns objects: static cubes of
// side 0.069 (the bounds of its spheres of radius 0.0345) at random in a
// cube of the given side (the paper's unit cube, or one grown with ns to
// keep the density of its 50 spheres), and its torus (radius 0.11, ring 0.05 thick, read as major
// radius 0.11 and tube radius 0.05) following a random path of 10^4 steps:
// a random walk of step 0.01 kept inside the cube, its axis tumbling. Each
// step gives the torus's exact box, its bounding sphere (level 0) and nine
// spheres around its ring (level 1, the paper's count).
type cdfastScene struct {
	static []geom.AABB
	box    []geom.AABB
	lod0   [][]bv.Sphere
	lod1   [][]bv.Sphere
}

const cdfastSteps = 10000

func newCDFastScene(ns int, side float64) *cdfastScene {
	r := rand.New(rand.NewPCG(uint64(ns), 3))
	s := &cdfastScene{}
	h := geom.V(0.0345, 0.0345, 0.0345)
	for range ns {
		c := geom.V(r.Float64(), r.Float64(), r.Float64()).Scale(side)
		s.static = append(s.static, geom.AABB{Min: c.Sub(h), Max: c.Add(h)})
	}
	const major, minor = 0.11, 0.05
	c := geom.V(0.5, 0.5, 0.5).Scale(side)
	n := geom.V(0, 0, 1)
	for range cdfastSteps {
		d := geom.V(r.NormFloat64(), r.NormFloat64(), r.NormFloat64()).Unit().Scale(0.01)
		c = c.Add(d)
		for a := range 3 {
			if x := c.Index(a); x < major+minor || x > side-major-minor {
				c = c.Sub(d.Scale(2)) // bounce back
				break
			}
		}
		n = n.Add(geom.V(r.NormFloat64(), r.NormFloat64(), r.NormFloat64()).Scale(0.05)).Unit()
		// The torus's box: along axis e, R·sqrt(1 − (n·e)²) + r.
		var ext geom.Vec3
		for a := range 3 {
			na := n.Index(a)
			ext = ext.SetIndex(a, major*math.Sqrt(max(0, 1-na*na))+minor)
		}
		s.box = append(s.box, geom.AABB{Min: c.Sub(ext), Max: c.Add(ext)})
		s.lod0 = append(s.lod0, []bv.Sphere{{C: c, R: major + minor}})
		u := n.Cross(geom.V(1, 0, 0))
		if u.Norm2() < 0.1 {
			u = n.Cross(geom.V(0, 1, 0))
		}
		u = u.Unit()
		v := n.Cross(u)
		ring := make([]bv.Sphere, 9)
		for k := range ring {
			th := 2 * math.Pi * float64(k) / 9
			ring[k] = bv.Sphere{
				C: c.Add(u.Scale(major * math.Cos(th))).Add(v.Scale(major * math.Sin(th))),
				R: minor + 2*major*math.Sin(math.Pi/18), // covers its arc of the tube
			}
		}
		s.lod1 = append(s.lod1, ring)
	}
	return s
}

// BenchmarkCDFast times one step of the paper's experiment (move the torus,
// give its spheres, find its pairs) at N_s = 50, 500 and 5000 static boxes,
// in the unit cube ("unit": the density, and so the pairs a step, grow with
// N_s) and in a cube grown to keep the density of 50 boxes in the unit cube
// ("dense50": the pairs a step stay the same): with the torus's box alone,
// its one sphere (level 0) and its nine (level 1); the linear scan of every
// cell (the paper's O(C·T·N_d·S)); and broad.Brute, the baseline. ns/op is
// ns per step; the other metrics are per step.
func BenchmarkCDFast(b *testing.B) {
	for _, world := range []string{"unit", "dense50"} {
		for _, ns := range []int{50, 500, 5000} {
			side := 1.0
			if world == "dense50" {
				side = math.Cbrt(float64(ns) / 50)
			}
			benchCDFast(b, world, ns, side)
		}
	}
}

func benchCDFast(b *testing.B, world string, ns int, side float64) {
	bounds := geom.AABB{Max: geom.V(side, side, side)}
	sc := newCDFastScene(ns, side)
	for _, mode := range []string{"box", "lod0", "lod1", "lod0-linear", "brute"} {
		b.Run(fmt.Sprintf("%s/Ns=%d/%s", world, ns, mode), func(b *testing.B) {
			var p broad.Phase
			var rg *rgrid.Phase
			var sph [][]bv.Sphere
			switch mode {
			case "brute":
				p = broad.NewBrute()
			case "lod0-linear":
				rg = rgrid.New(rgrid.Options{Bounds: &bounds, LinearScan: true})
			default:
				rg = rgrid.New(rgrid.Options{Bounds: &bounds})
			}
			if rg != nil {
				p = rg
			}
			switch mode {
			case "lod0", "lod0-linear":
				sph = sc.lod0
			case "lod1":
				sph = sc.lod1
			}
			for i, bx := range sc.static {
				p.Add(int32(i), bx, true)
			}
			id := int32(ns)
			p.Add(id, sc.box[0], false)
			pairs := 0
			count := func(a, b int32) bool { pairs++; return true }
			p.Pairs(count)
			if rg != nil {
				rg.ResetStats()
			}
			pairs = 0
			b.ReportAllocs()
			b.ResetTimer()
			for i := range b.N {
				k := i % cdfastSteps
				p.Move(id, sc.box[k])
				if sph != nil {
					rg.SetSpheres(id, sph[k])
				}
				p.Pairs(count)
			}
			n := float64(b.N)
			b.ReportMetric(float64(pairs)/n, "pairs/step")
			if rg != nil {
				st := rg.Stats()
				b.ReportMetric(float64(st.CellsVisited)/n, "cells/step")
				b.ReportMetric(float64(st.SphereBoxTests+st.BoxTests)/n, "tests/step")
				b.ReportMetric(float64(st.Cells), "gridcells")
			}
		})
	}
}

// BenchmarkMany times one step of 10^5 boxes (sides 0.2 to 3 in a cube of
// side 500), 10% of them static, 10% of the moving ones moving by a normal
// step each time (broadtest's 10^5 scene). The moves are precomputed for 32
// steps, played forwards then backwards.
func BenchmarkMany(b *testing.B) {
	const n, steps = 100000, 32
	r := rand.New(rand.NewPCG(5, 5))
	boxes := make([]geom.AABB, n)
	for i := range boxes {
		c := geom.V(r.Float64()*500, r.Float64()*500, r.Float64()*500)
		s := geom.V(0.2+r.Float64()*2.8, 0.2+r.Float64()*2.8, 0.2+r.Float64()*2.8).Scale(0.5)
		boxes[i] = geom.AABB{Min: c.Sub(s), Max: c.Add(s)}
	}
	type move struct {
		id       int32
		old, new geom.AABB
	}
	var path [steps][]move
	cur := append([]geom.AABB(nil), boxes...)
	for k := range path {
		for id := range int32(n) {
			if id%10 != 0 && r.IntN(10) == 0 {
				d := geom.V(r.NormFloat64(), r.NormFloat64(), r.NormFloat64())
				nb := geom.AABB{Min: cur[id].Min.Add(d), Max: cur[id].Max.Add(d)}
				path[k] = append(path[k], move{id, cur[id], nb})
				cur[id] = nb
			}
		}
	}
	p := rgrid.New(rgrid.Options{})
	for i, bx := range boxes {
		p.Add(int32(i), bx, i%10 == 0)
	}
	pairs := 0
	count := func(a, b int32) bool { pairs++; return true }
	p.Pairs(count)
	step := func(i int) {
		if k := i % (2 * steps); k < steps {
			for _, m := range path[k] {
				p.Move(m.id, m.new)
			}
		} else {
			ms := path[2*steps-1-k]
			for j := len(ms) - 1; j >= 0; j-- {
				p.Move(ms[j].id, ms[j].old)
			}
		}
		p.Pairs(count)
	}
	for i := range 2 * steps { // warm up: reach the steady state
		step(i)
	}
	p.ResetStats()
	pairs = 0
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		step(i)
	}
	st := p.Stats()
	b.ReportMetric(float64(pairs)/float64(b.N), "pairs/step")
	b.ReportMetric(float64(st.MovingRebuilds)/float64(b.N), "rebuilds/step")
}
