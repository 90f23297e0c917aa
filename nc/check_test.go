package nc

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh"
	"github.com/collide3d/collide/mesh/gen"
	"github.com/collide3d/collide/nc/gcode"
	"github.com/collide3d/collide/nc/ncgen"
	"github.com/collide3d/collide/nc/shape"
)

func mustTool(t testing.TB, spec string) Tool {
	t.Helper()
	tool, err := ParseTool(spec)
	if err != nil {
		t.Fatal(err)
	}
	return tool
}

func build(t testing.TB, m *mesh.TriMesh, b collide.BV) *collide.Model {
	t.Helper()
	md, err := collide.Build(m, collide.BuildOptions{BV: b})
	if err != nil {
		t.Fatal(err)
	}
	return md
}

// key identifies a violation for comparisons.
type key struct {
	move   int
	role   Role
	target Target
	tris   string
}

func keys(vs []Violation) []key {
	var out []key
	for _, v := range vs {
		out = append(out, key{v.Move, v.Role, v.Target, fmt.Sprint(v.Tris)})
	}
	return out
}

// check runs a checker over moves and returns its violations.
func check(t testing.TB, part *collide.Model, o Options, moves []gcode.Move) []Violation {
	t.Helper()
	c, err := New(part, o)
	if err != nil {
		t.Fatal(err)
	}
	var vs []Violation
	if _, err := c.Check(&gcode.Program{Name: "test.nc", Moves: moves}, func(v Violation) bool {
		vs = append(vs, v)
		return true
	}); err != nil {
		t.Fatal(err)
	}
	return vs
}

// brute is the oracle: every triangle of every target tested against every
// move with the same exact tests, no tree.
func brute(t testing.TB, part *collide.Model, o Options, moves []gcode.Move) []key {
	t.Helper()
	c, err := New(part, o)
	if err != nil {
		t.Fatal(err)
	}
	var out []key
	for i, m := range moves {
		if !isArc(m) && m.From == m.To {
			continue
		}
		tool, _ := c.toolFor(m.Tool)
		ts, err := c.state(tool)
		if err != nil {
			t.Fatal(err)
		}
		for _, rs := range ts.roles {
			for _, tg := range c.targets {
				if m.Kind != gcode.Rapid && rs.role == Cutting && tg.kind == OnStock {
					continue
				}
				var tris []int32
				for e := range tg.mesh.Tris {
					if c.meetsMove(m, 0, 1, rs.solids, tg.mesh.Triangle(e)).yes {
						tris = append(tris, int32(e))
					}
				}
				if len(tris) == 0 {
					if tg.kind == OnStock && tg.box.Contains(m.From.Add(geom.V(0, 0, rs.zlo))) {
						out = append(out, key{i, rs.role, tg.kind, "[]"})
					}
					continue
				}
				out = append(out, key{i, rs.role, tg.kind, fmt.Sprint(tris)})
			}
		}
	}
	return out
}

// randomMoves returns n moves over box b: lines (some rapids) and arcs in
// the three planes, some helical in XY.
func randomMoves(rng *rand.Rand, b geom.AABB, n int) []gcode.Move {
	pt := func() geom.Vec3 {
		s := b.Size()
		return geom.V(b.Min.X+rng.Float64()*s.X, b.Min.Y+rng.Float64()*s.Y, b.Min.Z+rng.Float64()*s.Z*1.2)
	}
	var ms []gcode.Move
	at := pt()
	for i := range n {
		m := gcode.Move{Line: i + 1, Kind: gcode.Linear, From: at}
		switch r := rng.IntN(10); {
		case r < 2:
			m.Kind = gcode.Rapid
			m.To = pt()
		case r < 6:
			m.To = at.Add(geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()*0.3).Scale(b.Size().X / 8))
		default:
			m.Kind = gcode.ArcCW
			if rng.IntN(2) == 0 {
				m.Kind = gcode.ArcCCW
			}
			m.Plane = gcode.Plane(rng.IntN(3))
			a, bb, nn := m.Plane.Axes()
			rad := b.Size().X / 16 * (0.2 + rng.Float64())
			th0, th1 := rng.Float64()*2*math.Pi, rng.Float64()*2*math.Pi
			c := at.SetIndex(a, at.Index(a)-rad*math.Cos(th0)).SetIndex(bb, at.Index(bb)-rad*math.Sin(th0))
			to := c.SetIndex(a, c.Index(a)+rad*math.Cos(th1)).SetIndex(bb, c.Index(bb)+rad*math.Sin(th1))
			if m.Plane == gcode.XY && rng.IntN(3) == 0 {
				to = to.SetIndex(nn, to.Index(nn)+rng.NormFloat64())
			}
			m.Center, m.To = c, to
			m.Radius = math.Hypot(at.Index(a)-c.Index(a), at.Index(bb)-c.Index(bb))
		}
		ms = append(ms, m)
		at = m.To
	}
	return ms
}

var testTools = []string{
	"ball 6 10, shank 6 10, holder 16 10",
	"flat 4 8, holder 12:20 6",
	"bull 6 1 8, shank 5 6",
	"taper 1 6 6, cyl 6 4, holder 14 8",
}

// TestOracle compares the checker, every volume, with the brute-force
// oracle (the same exact tests of every triangle): the trees and their
// searches must find every triangle the tests would, and report no other.
func TestOracle(t *testing.T) {
	terrain := gen.Must(gen.Terrain(12, 40, 8, 0.6, 7))
	box := gen.Must(gen.Box(geom.AABB{Min: geom.V(10, 10, 0), Max: geom.V(30, 22, 9)}, 2))
	stock := geom.AABB{Min: geom.V(0, 0, 0), Max: geom.V(40, 40, 10)}
	scenes := []struct {
		name string
		part *mesh.TriMesh
	}{{"terrain", terrain}, {"box", box}}
	bvs := collide.BVs()
	for si, sc := range scenes {
		for ti, spec := range testTools {
			for _, eps := range []float64{0, 0.4} {
				rng := rand.New(rand.NewPCG(uint64(si), uint64(ti)))
				moves := randomMoves(rng, sc.part.Bounds(), 24)
				o := Options{Eps: eps, Tool: mustTool(t, spec), NoDetail: true}
				if ti%2 == 0 {
					o.Stock = &stock
				}
				want := brute(t, build(t, sc.part, collide.Brute), o, moves)
				if len(want) == 0 {
					t.Errorf("%s %q eps %v: no violation in the scene: the test tests nothing", sc.name, spec, eps)
				}
				for bi, b := range bvs {
					if (bi+ti+si)%3 != 0 && b != collide.Brute && b != collide.KDOP18 {
						continue
					}
					got := keys(check(t, build(t, sc.part, b), o, moves))
					if !slices.Equal(got, want) {
						t.Errorf("%s %q eps %v %v: got %d violations, the oracle %d\n got %v\nwant %v", sc.name, spec, eps, b, len(got), len(want), got, want)
					}
				}
			}
		}
	}
}

// TestSampling checks that the tool at 201 positions along each move meets
// no triangle that the move's check did not report (a second oracle, for
// the sweeps and the arcs' bisection), on a terrain, with every tool.
func TestSampling(t *testing.T) {
	terrain := gen.Must(gen.Terrain(10, 40, 8, 0.6, 3))
	part := build(t, terrain, collide.KDOP18)
	for ti, spec := range testTools {
		rng := rand.New(rand.NewPCG(9, uint64(ti)))
		moves := randomMoves(rng, terrain.Bounds(), 30)
		o := Options{Tool: mustTool(t, spec), NoDetail: true}
		vs := check(t, part, o, moves)
		got := map[[3]int]bool{}
		for _, v := range vs {
			for _, e := range v.Tris {
				got[[3]int{v.Move, int(v.Role), int(e)}] = true
			}
		}
		c, _ := New(part, o)
		ts, _ := c.state(o.Tool)
		sampled := 0
		reach := o.Tool.Radius() + 1e-6
		for i, m := range moves {
			for k := 0; k <= 200; k++ {
				p := m.At(float64(k) / 200)
				near := geom.AABB{Min: p.Sub(geom.V(reach, reach, 1e-6)), Max: p.Add(geom.V(reach, reach, o.Tool.Height()+1e-6))}
				for _, rs := range ts.roles {
					for e := range terrain.Tris {
						if !terrain.Triangle(e).Bounds().Overlaps(near) {
							continue
						}
						h := c.meetsAll(shape.Point(p), 0, 0, rs.solids, terrain.Triangle(e))
						if h.yes && !h.graze {
							sampled++
							if !got[[3]int{i, int(rs.role), e}] {
								t.Fatalf("%q move %d (%v) at s=%v: the %v meets triangle %d, not reported", spec, i, m.Kind, float64(k)/400, rs.role, e)
							}
						}
					}
				}
			}
		}
		if sampled == 0 {
			t.Errorf("%q: no sample touches: the test tests nothing", spec)
		}
	}
}

// wall returns a mesh of the rectangle x = x0, y in [-20, 20], z in [z0, z1].
func wall(x0, z0, z1 float64) *mesh.TriMesh {
	return &mesh.TriMesh{
		Verts: []geom.Vec3{{X: x0, Y: -20, Z: z0}, {X: x0, Y: 20, Z: z0}, {X: x0, Y: 20, Z: z1}, {X: x0, Y: -20, Z: z1}},
		Tris:  [][3]int32{{0, 1, 2}, {0, 2, 3}},
	}
}

// floor returns a mesh of the square z = z0, x and y in [-20, 20].
func floor(z0 float64) *mesh.TriMesh {
	return &mesh.TriMesh{
		Verts: []geom.Vec3{{X: -20, Y: -20, Z: z0}, {X: 20, Y: -20, Z: z0}, {X: 20, Y: 20, Z: z0}, {X: -20, Y: 20, Z: z0}},
		Tris:  [][3]int32{{0, 1, 2}, {0, 2, 3}},
	}
}

// incline returns the plane x = z/2 (the side of a cone of slope 1/2
// about the z axis with its apex at the origin), x and y in [-20, 20].
func incline() *mesh.TriMesh {
	return &mesh.TriMesh{
		Verts: []geom.Vec3{{X: -1, Y: -20, Z: -2}, {X: -1, Y: 20, Z: -2}, {X: 10, Y: 20, Z: 20}, {X: 10, Y: -20, Z: 20}},
		Tris:  [][3]int32{{0, 1, 2}, {0, 2, 3}},
	}
}

func line(kind gcode.Kind, a, b geom.Vec3) gcode.Move {
	return gcode.Move{Line: 1, Kind: kind, From: a, To: b}
}

// arcXY is a G17 arc about c of radius r from angle a0 to a1 (radians,
// counterclockwise) at height z.
func arcXY(c geom.Vec3, r, a0, a1, z float64) gcode.Move {
	return gcode.Move{Line: 1, Kind: gcode.ArcCCW, Plane: gcode.XY, Center: geom.V(c.X, c.Y, z), Radius: r,
		From: geom.V(c.X+r*math.Cos(a0), c.Y+r*math.Sin(a0), z), To: geom.V(c.X+r*math.Cos(a1), c.Y+r*math.Sin(a1), z)}
}

// TestConstructed checks scenes with contact by construction, exactly at
// the tool's size and one ulp away, for every volume.
func TestConstructed(t *testing.T) {
	up := math.Nextafter(0, 1)
	in7 := math.Nextafter(7, 0)
	cases := []struct {
		name  string
		part  *mesh.TriMesh
		tool  string
		stock *geom.AABB
		move  gcode.Move
		want  string // "kind role target" of each violation, or ""
		graze bool
		clear float64 // the true clearance, when want is "": a graze may say so
	}{
		{"ball grazes the floor", floor(0), "ball 6 10", nil, line(gcode.Linear, geom.V(-5, 0, 0), geom.V(5, 0, 0)), "gouge cutter part", false, 0},
		{"ball one ulp above the floor", floor(0), "ball 6 10", nil, line(gcode.Linear, geom.V(-5, 0, up), geom.V(5, 0, up)), "", false, 0},
		{"plunge ends on the floor", floor(0), "flat 6 10", nil, line(gcode.Linear, geom.V(0, 0, 10), geom.V(0, 0, 0)), "gouge cutter part", false, 0},
		{"plunge ends one ulp above", floor(0), "flat 6 10", nil, line(gcode.Linear, geom.V(0, 0, 10), geom.V(0, 0, up)), "", false, 0},
		{"flat end along a wall at its radius", wall(10, -5, 5), "flat 6 10", nil, line(gcode.Linear, geom.V(7, -5, 0), geom.V(7, 5, 0)), "gouge cutter part", false, 0},
		{"flat end one ulp off the wall", wall(10, -5, 5), "flat 6 10", nil, line(gcode.Linear, geom.V(in7, -5, 0), geom.V(in7, 5, 0)), "", false, 0},
		{"diagonal move ends touching the wall", wall(10, -5, 5), "ball 6 10", nil, line(gcode.Linear, geom.V(0, -5, 0), geom.V(7, 0, 0)), "gouge cutter part", false, 0},
		{"shank along the wall", wall(10, 12, 20), "ball 6 10, shank 6 10", nil, line(gcode.Linear, geom.V(7, -5, 0), geom.V(7, 5, 0)), "shank shank part", false, 0},
		{"holder cone's rim on a wall", wall(10, 12, 20), "flat 6 10, holder 6:10 4", nil, line(gcode.Linear, geom.V(5, -5, 2), geom.V(5, 5, 2)), "holder holder part", false, 0},
		{"rapid through the stock", floor(-30), "ball 6 10", &geom.AABB{Min: geom.V(-10, -10, -10), Max: geom.V(10, 10, 0)}, line(gcode.Rapid, geom.V(-20, 0, -5), geom.V(20, 0, -5)), "rapid cutter stock", false, 0},
		{"rapid inside the stock", floor(-30), "ball 6 10", &geom.AABB{Min: geom.V(-100, -100, -100), Max: geom.V(100, 100, 100)}, line(gcode.Rapid, geom.V(-20, 0, -5), geom.V(20, 0, -5)), "rapid cutter stock", false, 0},
		{"feed through the stock cuts", floor(-30), "ball 6 10", &geom.AABB{Min: geom.V(-10, -10, -10), Max: geom.V(10, 10, 0)}, line(gcode.Linear, geom.V(-20, 0, -5), geom.V(20, 0, -5)), "", false, 0},
		{"arc tangent to a wall", wall(12, -5, 5), "ball 4 10", nil, arcXY(geom.V(0, 0, 0), 10, -math.Pi/4, math.Pi/4, 0), "gouge cutter part", true, 0},
		{"arc clears a wall by 1e-9", wall(12+1e-9, -5, 5), "ball 4 10", nil, arcXY(geom.V(0, 0, 0), 10, -math.Pi/4, math.Pi/4, 0), "", false, 0},
		{"arc cuts a wall by 1e-9", wall(12-1e-9, -5, 5), "ball 4 10", nil, arcXY(geom.V(0, 0, 0), 10, -math.Pi/4, math.Pi/4, 0), "gouge cutter part", false, 0},
		{"arc ends on a wall", wall(12, -5, 5), "ball 4 10", nil, arcXY(geom.V(0, 0, 0), 10, -math.Pi/2, 0, 0), "gouge cutter part", false, 0},
		{"bull nose bottom on the floor", floor(0), "bull 6 1 8", nil, line(gcode.Linear, geom.V(-5, 0, 0), geom.V(5, 0, 0)), "gouge cutter part", false, 0},
		{"taper crosses a wall", wall(10, -5, 20), "taper 0 6 6", nil, line(gcode.Linear, geom.V(8.5, -5, 3), geom.V(8.5, 5, 3)), "gouge cutter part", false, 0},
		{"taper's rim on a wall", wall(10, -5, 20), "taper 0 6 6", nil, line(gcode.Linear, geom.V(7, -5, 3), geom.V(7, 5, 3)), "gouge cutter part", false, 0},
		{"taper's rim 1e-9 off a wall", wall(10, -5, 20), "taper 0 6 6", nil, line(gcode.Linear, geom.V(7-1e-9, -5, 3), geom.V(7-1e-9, 5, 3)), "", false, 0},
		{"taper's side along an inclined plane", incline(), "taper 0 6 6", nil, line(gcode.Linear, geom.V(0, -5, 0), geom.V(0, 5, 0)), "gouge cutter part", false, 0},
		{"taper's side 1e-9 off an inclined plane", incline(), "taper 0 6 6", nil, line(gcode.Linear, geom.V(-1e-9, -5, 0), geom.V(-1e-9, 5, 0)), "", false, 0},
	}
	for _, tc := range cases {
		for _, b := range []collide.BV{collide.KDOP6, collide.KDOP18, collide.OBB, collide.Sphere, collide.RSS, collide.BoxTree, collide.Brute} {
			part := build(t, tc.part, b)
			vs := check(t, part, Options{Tool: mustTool(t, tc.tool), Stock: tc.stock}, []gcode.Move{tc.move})
			var got []string
			graze := false
			for _, v := range vs {
				got = append(got, fmt.Sprintf("%v %v %v", v.Kind, v.Role, v.Target))
				graze = graze || v.Graze
			}
			if tc.want == "" && tc.clear > 0 && len(vs) == 1 && vs[0].Graze && vs[0].Within >= tc.clear {
				continue // undecided, and said so with a bound that holds
			}
			if strings.Join(got, "; ") != tc.want {
				t.Errorf("%s (%v): got %q, want %q", tc.name, b, got, tc.want)
			}
			if tc.want != "" && graze && !tc.graze {
				t.Errorf("%s (%v): a graze, want contact proved", tc.name, b)
			}
		}
	}
}

// TestZigZagOracle checks a drop-cutter finishing program on a mold part
// (ball and chords cutting ridges, distorted samples, a rapid into the
// stock, arcs linking rows), every volume, against the oracle.
func TestZigZagOracle(t *testing.T) {
	m := gen.Must(ncgen.Mold(14, 2))
	text := ncgen.ZigZag(m, 2, ncgen.ZigZagOptions{Step: 1, Stepover: 3, Arcs: true, RapidDown: 2,
		Distort: ncgen.Distortion{Count: 4, Depth: 0.2}, Seed: 5})
	p, err := gcode.Read(strings.NewReader(text), "zigzag.nc", gcode.Options{})
	if err != nil {
		t.Fatal(err)
	}
	b := m.Bounds()
	stock := geom.AABB{Min: b.Min, Max: b.Max.Add(geom.V(0, 0, 1))}
	o := Options{Tool: mustTool(t, "ball 4 6, shank 4 10, holder 12 10"), Stock: &stock, NoDetail: true}
	want := brute(t, build(t, m, collide.Brute), o, p.Moves)
	kinds := map[Kind]bool{}
	for _, v := range check(t, build(t, m, collide.KDOP18), o, p.Moves) {
		kinds[v.Kind] = true
	}
	if !kinds[Gouge] || !kinds[RapidHit] {
		t.Errorf("violations of kinds %v: want gouges and a rapid", kinds)
	}
	for _, bv := range collide.BVs() {
		got := keys(check(t, build(t, m, bv), o, p.Moves))
		if !slices.Equal(got, want) {
			t.Errorf("%v: got %d violations, the oracle %d", bv, len(got), len(want))
		}
	}
}

// TestDepth checks the depths of constructed gouges: how deep a floor or a
// wall reaches into each kind of cutter.
func TestDepth(t *testing.T) {
	for _, tc := range []struct {
		name string
		part *mesh.TriMesh
		tool string
		move gcode.Move
		want float64
	}{
		{"ball 1 below the floor", floor(0), "ball 6 10", line(gcode.Linear, geom.V(-5, 0, -1), geom.V(5, 0, -1)), 1},
		{"flat end plunged 0.5", floor(0), "flat 6 10", line(gcode.Linear, geom.V(0, 0, 5), geom.V(0, 0, -0.5)), 0.5},
		{"flat end 0.2 into a wall", wall(10, -5, 20), "flat 6 10", line(gcode.Linear, geom.V(7.2, -5, 0), geom.V(7.2, 5, 0)), 0.2},
		{"flat end along a wall", wall(10, -5, 20), "flat 6 10", line(gcode.Linear, geom.V(7, -5, 0), geom.V(7, 5, 0)), 0},
		{"bull nose 0.3 below the floor", floor(0), "bull 6 1 10", line(gcode.Linear, geom.V(-5, 0, -0.3), geom.V(5, 0, -0.3)), 0.3},
		{"taper tip 0.25 into the floor", floor(0), "taper 0 6 6", line(gcode.Linear, geom.V(-5, 0, -0.25), geom.V(5, 0, -0.25)), 0.25 / math.Hypot(1, 2) * 2 / 2},
	} {
		vs := check(t, build(t, tc.part, collide.KDOP18), Options{Tool: mustTool(t, tc.tool)}, []gcode.Move{tc.move})
		if len(vs) != 1 {
			t.Errorf("%s: %d violations", tc.name, len(vs))
			continue
		}
		if tol := 1e-5; math.Abs(vs[0].Depth-tc.want) > tol {
			t.Errorf("%s: depth %v, want %v", tc.name, vs[0].Depth, tc.want)
		}
	}
}

// TestSeparated checks the plane certificate of the profiles against their
// cylinder brackets: on random triangles near random cones (many parallel
// to a cone's side, just off it or just into it), swept over random
// paths, a proved separation is never a proved contact of the brackets.
func TestSeparated(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	proved, sep := 0, 0
	for range 4000 {
		r0, r1, h := rng.Float64()*2, 1+rng.Float64()*3, 1+rng.Float64()*5
		tool := Tool{Parts: []Part{{Shape: Cone, R0: r0, R1: r1, Z0: 0, Z1: h}}}
		eps := 0.0
		if rng.IntN(3) == 0 {
			eps = rng.Float64() * 0.5
		}
		ss := solids(tool, eps)
		// A plane along the cone's side at angle a, moved by d along its normal.
		a := rng.Float64() * 2 * math.Pi
		u := geom.V(math.Cos(a), math.Sin(a), 0)
		side0, side1 := u.Scale(r0).Add(geom.V(0, 0, 0)), u.Scale(r1).Add(geom.V(0, 0, h))
		nrm := geom.V(h*u.X, h*u.Y, -(r1 - r0)).Unit()
		d := (rng.Float64() - 0.5) * math.Pow(10, -float64(rng.IntN(10)))
		w := geom.V(-u.Y, u.X, 0).Scale(5)
		off := nrm.Scale(d + eps*float64(rng.IntN(2)))
		tri := geom.Triangle{side0.Sub(w).Add(off), side0.Add(w).Add(off), side1.Add(off)}
		if rng.IntN(4) == 0 {
			tri[2] = tri[2].Add(geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()).Scale(0.3))
		}
		var path shape.Path
		p0 := geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()).Scale(0.01)
		switch rng.IntN(3) {
		case 0:
			path = shape.Point(p0)
		case 1:
			path = shape.Segment(p0, p0.Add(w.Scale(0.2)))
		default:
			path = shape.Tri(p0, p0.Add(w.Scale(0.2)), p0.Add(geom.V(0, 0, 0.1)))
		}
		for i := range ss {
			if ss[i].kind != profile || !ss[i].separated(path, tri) {
				continue
			}
			sep++
			var st Stats
			if h := ss[i].cylinders(path, tri, &st); h.yes && !h.graze {
				proved++
				t.Errorf("separated, but the cylinders prove contact: cone %v eps %v, d %v, path %v, tri %v", tool.Parts[0], eps, d, path, tri)
			}
		}
	}
	if sep < 500 {
		t.Errorf("only %d separations: the test tests little", sep)
	}
}
