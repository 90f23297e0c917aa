package shape

import (
	"math/rand/v2"
	"testing"

	"github.com/collide3d/collide/geom"
)

// Benchmark cases. "typical": a tool of radius 3 near a part's triangles
// (sizes ~10, coordinates ~100), about half of the pairs within reach after
// the box filter; "near": the radius set within 1e-6 (relative) of the exact
// distance, so that every call goes past the box filter and most need a
// certificate close to its limit; "tangent": the radius exactly the
// distance (ulp-exact contact), which the exact path decides.

func benchCases(kind int, mode string) []ballCase {
	rng := rand.New(rand.NewPCG(42, uint64(kind)))
	var cs []ballCase
	for len(cs) < 256 {
		o := geom.V(100*rng.Float64(), 100*rng.Float64(), 20*rng.Float64())
		pt := func(s float64) geom.Vec3 {
			return o.Add(geom.V(s*(2*rng.Float64()-1), s*(2*rng.Float64()-1), s*(2*rng.Float64()-1)))
		}
		var p Path
		switch kind {
		case 1:
			p = Point(pt(5))
		case 2:
			p = Segment(pt(5), pt(5))
		default:
			p = Tri(pt(5), pt(5), pt(5))
		}
		t := geom.Tri(pt(8), pt(8), pt(8))
		c := ballCase{path: p, zc: 3, r: 3, t: t}
		switch mode {
		case "near", "tangent":
			d2 := oBallDist2(p, c.zc, t)
			if d2.Sign() == 0 {
				continue
			}
			c.r = sqrtF(d2)
			if mode == "near" {
				c.r *= 1 + 1e-6*(2*rng.Float64()-1)
			}
		}
		cs = append(cs, c)
	}
	return cs
}

func cylBenchCases(kind int, mode string) []cylCase {
	bs := benchCases(kind, "typical")
	var cs []cylCase
	for _, b := range bs {
		c := cylCase{path: b.path, r: 3, z0: 0, z1: 30, t: b.t}
		switch mode {
		case "near", "tangent":
			d2 := oCylDist2(c.path, c.z0, c.z1, c.t)
			if d2 == nil || d2.Sign() == 0 {
				continue
			}
			c.r = sqrtF(d2)
			if mode == "near" {
				c.r *= 1 + 1e-6*(float64(len(cs)%7)-3.5)/3.5
			}
		}
		cs = append(cs, c)
	}
	return cs
}

var sink bool

func BenchmarkBall(b *testing.B) {
	for _, k := range []struct {
		name string
		kind int
	}{{"point", 1}, {"segment", 2}, {"tri", 3}} {
		for _, mode := range []string{"typical", "near", "tangent"} {
			cs := benchCases(k.kind, mode)
			b.Run(k.name+"/"+mode, func(b *testing.B) {
				b.ReportAllocs()
				i := 0
				for b.Loop() {
					c := &cs[i%len(cs)]
					sink = Ball(c.path, c.zc, c.r, c.t)
					i++
				}
			})
		}
	}
}

func BenchmarkCylinder(b *testing.B) {
	for _, k := range []struct {
		name string
		kind int
	}{{"point", 1}, {"segment", 2}, {"tri", 3}} {
		for _, mode := range []string{"typical", "near", "tangent"} {
			cs := cylBenchCases(k.kind, mode)
			b.Run(k.name+"/"+mode, func(b *testing.B) {
				b.ReportAllocs()
				i := 0
				for b.Loop() {
					c := &cs[i%len(cs)]
					sink = Cylinder(c.path, c.r, c.z0, c.z1, c.t)
					i++
				}
			})
		}
	}
}

// BenchmarkOracle is the brute-force baseline: the test oracles.
func BenchmarkOracle(b *testing.B) {
	bs := benchCases(2, "typical")
	cs := cylBenchCases(2, "typical")
	b.Run("ball/segment", func(b *testing.B) {
		i := 0
		for b.Loop() {
			c := &bs[i%len(bs)]
			sink = oBall(c.path, c.zc, c.r, c.t)
			i++
		}
	})
	b.Run("cylinder/segment", func(b *testing.B) {
		i := 0
		for b.Loop() {
			c := &cs[i%len(cs)]
			sink = oCyl(c.path, c.r, c.z0, c.z1, c.t)
			i++
		}
	})
}
