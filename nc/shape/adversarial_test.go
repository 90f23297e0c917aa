package shape

import (
	"fmt"
	"math"
	"testing"

	"github.com/collide3d/collide/geom"
)

// Adversarial cases with contact by construction: every case below touches
// exactly (the oracle confirms d² = r², so the construction itself is
// checked), and then
//
//   - the case hits;
//   - r one ulp smaller misses, one ulp larger hits;
//   - the triangle moved one ulp per coordinate along out misses, along in
//     (when given) hits.
//
// Each case runs in several frames: as built (small integers), scaled by
// 2⁻³⁰ (~1e-9), and offset to ~1e6 and ~1e9 (exact: the offsets' ulps are
// finer than the cases' grid).

type frame struct {
	name  string
	scale float64
	off   geom.Vec3
}

var frames = []frame{
	{"unit", 1, geom.Vec3{}},
	{"tiny", 0x1p-30, geom.Vec3{}},
	{"1e6", 1, geom.V(1e6+0.5, -1e6-0.25, 1e6+0.125)},
	{"1e9", 0.25, geom.V(1e9, -1e9, 1e9+0.5)},
	{"1e9z", 1, geom.V(-1e9, 1e9, -1e9)},
}

func (f frame) pt(p geom.Vec3) geom.Vec3 { return p.Scale(f.scale).Add(f.off) }

func (f frame) path(p Path) Path {
	for i := range p.P {
		p.P[i] = f.pt(p.P[i])
	}
	return p
}

func (f frame) tri(t geom.Triangle) geom.Triangle {
	return geom.Tri(f.pt(t[0]), f.pt(t[1]), f.pt(t[2]))
}

// ulpMove moves every coordinate of t one ulp in the direction of the sign
// of the matching component of d (not at all where it is 0).
func ulpMove(t geom.Triangle, d geom.Vec3) geom.Triangle {
	mv := func(x, s float64) float64 {
		switch {
		case s > 0:
			return math.Nextafter(x, math.Inf(1))
		case s < 0:
			return math.Nextafter(x, math.Inf(-1))
		}
		return x
	}
	for i := range t {
		t[i] = geom.V(mv(t[i].X, d.X), mv(t[i].Y, d.Y), mv(t[i].Z, d.Z))
	}
	return t
}

type advBall struct {
	name    string
	path    Path
	zc, r   float64
	t       geom.Triangle
	out, in geom.Vec3
}

var advBalls = []advBall{
	{"floor below point", Point(geom.V(0, 0, 0)), 2, 3,
		geom.Tri(geom.V(-5, -5, -1), geom.V(5, -5, -1), geom.V(0, 5, -1)), geom.V(0, 0, -1), geom.V(0, 0, 1)},
	{"vertex 3-4-5 from move", Segment(geom.V(-4, 0, 0), geom.V(4, 0, 0)), 1, 5,
		geom.Tri(geom.V(2, 3, 5), geom.V(2, 10, 20), geom.V(3, 12, 9)), geom.V(0, 1, 1), geom.V(0, -1, -1)},
	{"edge parallel to move", Segment(geom.V(0, 0, 0), geom.V(10, 0, 0)), 0, 5,
		geom.Tri(geom.V(-5, 3, 4), geom.V(15, 3, 4), geom.V(5, 6, 8)), geom.V(0, 1, 1), geom.V(0, -1, -1)},
	{"edge crossing move at r", Segment(geom.V(0, 0, 0), geom.V(10, 0, 0)), -4, 4,
		geom.Tri(geom.V(5, -7, 0), geom.V(5, 7, 0), geom.V(5, 0, 9)), geom.V(0, 0, 1), geom.V(0, 0, -1)},
	{"coplanar arc piece touching, r=0", Tri(geom.V(0, 0, 0), geom.V(4, 0, 0), geom.V(0, 4, 0)), 0, 0,
		geom.Tri(geom.V(2, 2, -1), geom.V(2, 2, 1), geom.V(5, 5, 0)), geom.V(1, 1, 0), geom.V(-1, -1, 0)},
	{"arc piece over floor", Tri(geom.V(0, 0, 3), geom.V(4, 0, 3), geom.V(0, 4, 3)), 1, 2,
		geom.Tri(geom.V(-9, -9, 2), geom.V(9, -9, 2), geom.V(0, 9, 2)), geom.V(0, 0, -1), geom.V(0, 0, 1)},
	{"degenerate segment triangle", Point(geom.V(0, 0, 0)), 1, 4,
		geom.Tri(geom.V(-1, 0, -3), geom.V(1, 0, -3), geom.V(1, 0, -3)), geom.V(0, 0, -1), geom.V(0, 0, 1)},
	{"degenerate point triangle", Point(geom.V(0, 0, 0)), 2, 5,
		geom.Tri(geom.V(3, 4, 2), geom.V(3, 4, 2), geom.V(3, 4, 2)), geom.V(1, 1, 0), geom.V(-1, -1, 0)},
	{"zero-length move", Segment(geom.V(1, 1, 1), geom.V(1, 1, 1)), 2, 3,
		geom.Tri(geom.V(-5, -5, 0), geom.V(5, -5, 0), geom.V(0, 5, 0)), geom.V(0, 0, -1), geom.V(0, 0, 1)},
	{"vertical plunge", Segment(geom.V(0, 0, 10), geom.V(0, 0, 0)), 2, 3,
		geom.Tri(geom.V(-5, -5, -1), geom.V(5, -5, -1), geom.V(0, 5, -1)), geom.V(0, 0, -1), geom.V(0, 0, 1)},
	{"point on triangle, r=0", Point(geom.V(1, 1, 0)), 0, 0,
		geom.Tri(geom.V(0, 0, 0), geom.V(4, 0, 0), geom.V(0, 4, 0)), geom.V(0, 0, 1), geom.Vec3{}},
	{"move ending on wall", Segment(geom.V(-10, 0, 0), geom.V(0, 0, 0)), 0, 2,
		geom.Tri(geom.V(2, -5, -5), geom.V(2, 5, -5), geom.V(2, 0, 5)), geom.V(1, 0, 0), geom.V(-1, 0, 0)},
	{"wall along move", Segment(geom.V(0, -10, 3), geom.V(0, 10, 3)), -3, 2,
		geom.Tri(geom.V(2, -5, -5), geom.V(2, 5, -5), geom.V(2, 0, 5)), geom.V(1, 0, 0), geom.V(-1, 0, 0)},
	{"tilted plane", Point(geom.V(0, 0, 0)), 0, 3,
		// plane 2x + 2y + z = 9, at distance 9/3 = 3 from the origin
		geom.Tri(geom.V(5, 0, -1), geom.V(0, 5, -1), geom.V(0, 0, 9)), geom.V(1, 1, 1), geom.V(-1, -1, -1)},
}

type advCyl struct {
	name      string
	path      Path
	r, z0, z1 float64
	t         geom.Triangle
	out, in   geom.Vec3
	cap       bool // contact through a cap: in height, at horizontal distance < r
}

var advCyls = []advCyl{
	{"wall at r", Point(geom.V(0, 0, 0)), 2, 0, 10,
		geom.Tri(geom.V(2, -5, 1), geom.V(2, 5, 1), geom.V(2, 0, 8)), geom.V(1, 0, 0), geom.V(-1, 0, 0), false},
	{"wall along move", Segment(geom.V(0, -10, 0), geom.V(0, 10, 0)), 2, 0, 10,
		geom.Tri(geom.V(2, -5, 1), geom.V(2, 5, 1), geom.V(2, 0, 8)), geom.V(1, 0, 0), geom.V(-1, 0, 0), false},
	{"wall parallel to diagonal move", Segment(geom.V(0, 0, 0), geom.V(30, 40, 0)), 2, 0, 10,
		// 4x − 3y = 10: distance 10/5 = 2 from the line 4x = 3y
		geom.Tri(geom.V(4, 2, 1), geom.V(7, 6, 1), geom.V(4, 2, 9)), geom.V(1, -1, 0), geom.V(-1, 1, 0), false},
	{"bottom cap on floor", Point(geom.V(0, 0, 5)), 1, -2, 10,
		geom.Tri(geom.V(-5, -5, 3), geom.V(5, -5, 3), geom.V(0, 5, 3)), geom.V(0, 0, -1), geom.V(0, 0, 1), true},
	{"top cap on ceiling", Point(geom.V(0, 0, 0)), 1, -3, 2,
		geom.Tri(geom.V(-5, -5, 2), geom.V(5, -5, 2), geom.V(0, 5, 2)), geom.V(0, 0, 1), geom.V(0, 0, -1), true},
	{"vertical plunge onto floor", Segment(geom.V(0, 0, 10), geom.V(0, 0, 4)), 1, -1, 20,
		geom.Tri(geom.V(-5, -5, 3), geom.V(5, -5, 3), geom.V(0, 5, 3)), geom.V(0, 0, -1), geom.V(0, 0, 1), true},
	{"floor vertex under the cap edge", Point(geom.V(0, 0, 5)), 5, 0, 1,
		geom.Tri(geom.V(3, 4, 5), geom.V(9, 9, 5), geom.V(3, 12, 5)), geom.V(1, 1, -1), geom.V(-1, -1, 1), false},
	{"point on rim", Point(geom.V(0, 0, 0)), 5, 0, 3,
		geom.Tri(geom.V(3, 4, 0), geom.V(3, 4, 0), geom.V(3, 4, 0)), geom.V(1, 1, -1), geom.V(-1, -1, 1), false},
	{"vertical segment at r", Point(geom.V(0, 0, 0)), 5, 2, 3,
		geom.Tri(geom.V(3, 4, 0), geom.V(3, 4, 10), geom.V(3, 4, 10)), geom.V(1, 1, 0), geom.V(-1, -1, 0), false},
	{"slope on the rim", Point(geom.V(0, 0, 0)), 1, 0, 10,
		// plane z = x − 1 touches the bottom rim at (1, 0, 0)
		geom.Tri(geom.V(-1, -5, -2), geom.V(-1, 5, -2), geom.V(6, 0, 5)), geom.V(1, 0, -1), geom.V(-1, 0, 1), false},
	{"move ending on wall", Segment(geom.V(-10, 0, 0), geom.V(0, 0, 0)), 2, 0, 10,
		geom.Tri(geom.V(2, -5, 1), geom.V(2, 5, 1), geom.V(2, 0, 8)), geom.V(1, 0, 0), geom.V(-1, 0, 0), false},
	{"arc piece against wall", Tri(geom.V(0, 0, 0), geom.V(10, 0, 0), geom.V(10, 10, 0)), 1, 0, 10,
		geom.Tri(geom.V(11, -5, 1), geom.V(11, 15, 1), geom.V(11, 5, 8)), geom.V(1, 0, 0), geom.V(-1, 0, 0), false},
	{"flat disk at wall", Point(geom.V(0, 0, 0)), 2, 3, 3,
		geom.Tri(geom.V(2, -5, 1), geom.V(2, 5, 1), geom.V(2, 0, 5)), geom.V(1, 0, 0), geom.V(-1, 0, 0), false},
	{"axis only, r=0, on triangle", Point(geom.V(1, 1, 0)), 0, 0, 0,
		geom.Tri(geom.V(0, 0, 0), geom.V(4, 0, 0), geom.V(0, 4, 0)), geom.V(0, 0, 1), geom.Vec3{}, false},
	{"coplanar floor edge at r", Segment(geom.V(0, 0, 0), geom.V(10, 0, 0)), 3, 0, 5,
		geom.Tri(geom.V(-5, 3, 0), geom.V(15, 3, 0), geom.V(5, 9, 0)), geom.V(0, 1, 0), geom.V(0, -1, 0), false},
}

func TestBallAdversarial(t *testing.T) {
	for _, c := range advBalls {
		for _, f := range frames {
			t.Run(c.name+"/"+f.name, func(t *testing.T) {
				p, tri, zc, r := f.path(c.path), f.tri(c.t), c.zc*f.scale, c.r*f.scale
				d2 := oBallDist2(p, zc, tri)
				if rr := oR(r); d2.Cmp(rr.Mul(rr, rr)) != 0 {
					t.Fatalf("construction: d² = %v, r² = %v", d2.FloatString(30), r*r)
				}
				check := func(what string, tri geom.Triangle, r float64, want bool) {
					t.Helper()
					if o := oBall(p, zc, r, tri); o != want {
						t.Fatalf("%s: oracle %v, want %v", what, o, want)
					}
					if got := Ball(p, zc, r, tri); got != want {
						t.Errorf("%s: %v = %v, want %v", what, ballCase{p, zc, r, tri}, got, want)
					}
				}
				check("contact", tri, r, true)
				if r > 0 {
					check("r−ulp", tri, math.Nextafter(r, 0), false)
				}
				check("r+ulp", tri, math.Nextafter(r, math.Inf(1)), true)
				check("out", ulpMove(tri, c.out), r, false)
				if c.in != (geom.Vec3{}) {
					check("in", ulpMove(tri, c.in), r, true)
				}
			})
		}
	}
}

func TestCylinderAdversarial(t *testing.T) {
	for _, c := range advCyls {
		for _, f := range frames {
			t.Run(c.name+"/"+f.name, func(t *testing.T) {
				p, tri := f.path(c.path), f.tri(c.t)
				r, z0, z1 := c.r*f.scale, c.z0*f.scale, c.z1*f.scale
				d2 := oCylDist2(p, z0, z1, tri)
				if rr := oR(r); d2 == nil || (!c.cap && d2.Cmp(rr.Mul(rr, rr)) != 0) {
					t.Fatalf("construction: d² = %v, r² = %v", d2, r*r)
				}
				if c.cap && oCylDist2(p, z0, z1, ulpMove(tri, c.out)) != nil {
					t.Fatalf("construction: the slab still meets the moved triangle")
				}
				check := func(what string, tri geom.Triangle, r float64, want bool) {
					t.Helper()
					if o := oCyl(p, r, z0, z1, tri); o != want {
						t.Fatalf("%s: oracle %v, want %v", what, o, want)
					}
					if got := Cylinder(p, r, z0, z1, tri); got != want {
						t.Errorf("%s: %v = %v, want %v", what, cylCase{p, r, z0, z1, tri}, got, want)
					}
				}
				check("contact", tri, r, true)
				if r > 0 {
					check("r−ulp", tri, math.Nextafter(r, 0), c.cap)
				}
				check("r+ulp", tri, math.Nextafter(r, math.Inf(1)), true)
				check("out", ulpMove(tri, c.out), r, false)
				if c.in != (geom.Vec3{}) {
					check("in", ulpMove(tri, c.in), r, true)
				}
			})
		}
	}
}

// TestUnroundedSums checks that p.Z + zc and p.Z + z0 are taken exactly:
// with p.Z = 0.1 and zc = 0.2 the centre is at 0.1 + 0.2 =
// 0.3000000000000000166..., between the floats 0.3 and fl(0.1 + 0.2) =
// 0.30000000000000004, which a rounded sum would confuse.
func TestUnroundedSums(t *testing.T) {
	floor := func(z float64) geom.Triangle {
		return geom.Tri(geom.V(-1, -1, z), geom.V(1, -1, z), geom.V(0, 1, z))
	}
	p := Point(geom.V(0, 0, 0.1))
	gap := 0x1p-55 // (0.1 + 0.2) − 0.3, exactly
	a, b := 0.1, 0.2
	above := a + b // rounded at run time (a constant sum would be exact)
	if above != 0.30000000000000004 {
		t.Fatalf("fl(0.1 + 0.2) = %v", above)
	}
	for _, c := range []struct {
		name string
		got  bool
		want bool
	}{
		{"ball: floor 0.3 at exactly r", Ball(p, 0.2, gap, floor(0.3)), true},
		{"ball: floor 0.3 an ulp of r beyond", Ball(p, 0.2, math.Nextafter(gap, 0), floor(0.3)), false},
		{"ball: ceiling fl(0.1+0.2), r=0", Ball(p, 0.2, 0, floor(above)), false},
		{"ball: ceiling fl(0.1+0.2), r=2⁻⁵⁵", Ball(p, 0.2, 0x1p-55, floor(above)), true},
		{"ball: ceiling fl(0.1+0.2), r=2⁻⁵⁵−ulp", Ball(p, 0.2, math.Nextafter(0x1p-55, 0), floor(above)), false},
		{"disk at 0.1+0.2 vs floor fl(0.1+0.2)", Cylinder(p, 1, 0.2, 0.2, floor(above)), false},
		{"disk at 0.1+0.2 vs floor 0.3", Cylinder(p, 1, 0.2, 0.2, floor(0.3)), false},
		{"disk at 0.1+0.2 vs a slope from 0.3 to fl(0.1+0.2)", Cylinder(p, 1, 0.2, 0.2,
			geom.Tri(geom.V(-1, -1, 0.3), geom.V(1, -1, above), geom.V(0, 1, 0.3))), true},
		{"cylinder top 0.1+0.2 vs ceiling fl(0.1+0.2)", Cylinder(p, 1, -1, 0.2, floor(above)), false},
		{"cylinder bottom 0.1+0.2 vs floor 0.3", Cylinder(p, 1, 0.2, 1, floor(0.3)), false},
		{"cylinder bottom 0.1+0.2 vs floor fl(0.1+0.2)", Cylinder(p, 1, 0.2, 1, floor(above)), true},
	} {
		if c.got != c.want {
			t.Errorf("%s: %v, want %v", c.name, c.got, c.want)
		}
	}
}

// TestContract checks the inputs outside the contract: false, no panic.
func TestContract(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	tri := geom.Tri(geom.V(0, 0, 0), geom.V(1, 0, 0), geom.V(0, 1, 0))
	p := Point(geom.V(0, 0, 0))
	cases := []struct {
		name string
		got  bool
	}{
		{"ball NaN r", Ball(p, 0, nan, tri)},
		{"ball -r", Ball(p, 0, -1, tri)},
		{"ball Inf r", Ball(p, 0, inf, tri)},
		{"ball NaN zc", Ball(p, nan, 1, tri)},
		{"ball NaN vertex", Ball(p, 0, 1, geom.Tri(geom.V(nan, 0, 0), tri[1], tri[2]))},
		{"ball Inf path", Ball(Point(geom.V(0, inf, 0)), 0, 1, tri)},
		{"ball N=0", Ball(Path{}, 0, 1, tri)},
		{"ball N=4", Ball(Path{N: 4}, 0, 1, tri)},
		{"cyl NaN r", Cylinder(p, nan, 0, 1, tri)},
		{"cyl z0>z1", Cylinder(p, 1, 1, 0, tri)},
		{"cyl NaN z1", Cylinder(p, 1, 0, nan, tri)},
		{"cyl Inf z0", Cylinder(p, 1, -inf, 1, tri)},
		{"cyl NaN vertex", Cylinder(p, 1, 0, 1, geom.Tri(geom.V(0, 0, nan), tri[1], tri[2]))},
		{"cyl N=-1", Cylinder(Path{N: -1}, 1, 0, 1, tri)},
	}
	for _, c := range cases {
		if c.got {
			t.Errorf("%s: true, want false", c.name)
		}
	}
	// P[N:] is ignored.
	q := Path{P: [3]geom.Vec3{{X: 5}, {X: nan}, {X: nan}}, N: 1}
	if Ball(q, 0, 1, tri) || !Ball(q, 0, 5, tri) {
		t.Error("P[N:] not ignored")
	}
}

// TestExtremeMagnitudes exercises the exact path's range: coordinates near
// the ends of float64 (outside the fast range), checked against the oracle.
func TestExtremeMagnitudes(t *testing.T) {
	for _, s := range []float64{0x1p-1070, 0x1p-600, 0x1p600, 0x1p1000} {
		tri := geom.Tri(geom.V(-5*s, -5*s, -s), geom.V(5*s, -5*s, -s), geom.V(0, 5*s, -s))
		for _, r := range []float64{3 * s, math.Nextafter(3*s, 0)} {
			p := Point(geom.V(0, 0, 0))
			if got, want := Ball(p, 2*s, r, tri), oBall(p, 2*s, r, tri); got != want {
				t.Errorf("s=%g r=%g: Ball %v, oracle %v", s, r, got, want)
			}
			if got, want := Cylinder(p, r, -s, s, tri), oCyl(p, r, -s, s, tri); got != want {
				t.Errorf("s=%g r=%g: Cylinder %v, oracle %v", s, r, got, want)
			}
		}
	}
	// Differences that overflow a float64.
	m := math.MaxFloat64
	tri := geom.Tri(geom.V(m, m, m), geom.V(m, -m, m), geom.V(-m, 0, m))
	p := Segment(geom.V(-m, 0, -m), geom.V(m, 0, -m))
	for _, r := range []float64{0, 1, m} {
		if got, want := Ball(p, m, r, tri), oBall(p, m, r, tri); got != want {
			t.Errorf("max: Ball r=%g %v, oracle %v", r, got, want)
		}
		if got, want := Cylinder(p, r, 0, m, tri), oCyl(p, r, 0, m, tri); got != want {
			t.Errorf("max: Cylinder r=%g %v, oracle %v", r, got, want)
		}
	}
}

var _ = fmt.Sprint
