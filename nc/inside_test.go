package nc

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh"
	"github.com/collide3d/collide/mesh/gen"
	"github.com/collide3d/collide/mesh/off"
	"github.com/collide3d/collide/nc/gcode"
	"github.com/collide3d/collide/nc/ncgen"
)

// cube returns the closed box [c−h, c+h]³, 12 triangles.
func cube(c geom.Vec3, h float64) *mesh.TriMesh {
	return gen.Must(gen.Box(geom.AABB{Min: c.Sub(geom.V(h, h, h)), Max: c.Add(geom.V(h, h, h))}, 1))
}

// describe returns "kind role target" of each violation, "inside" added
// for Violation.Inside.
func describe(vs []Violation) string {
	var got []string
	for _, v := range vs {
		s := fmt.Sprintf("%v %v %v", v.Kind, v.Role, v.Target)
		if v.Inside {
			s += " inside"
		}
		got = append(got, s)
	}
	return strings.Join(got, "; ")
}

// TestSolidConstructed checks tools inside, outside, touching and entering
// closed parts (a box, a sphere, far from the origin), each with and
// without Options.Solid, for a few volumes.
func TestSolidConstructed(t *testing.T) {
	box := cube(geom.Vec3{}, 10)
	far := cube(geom.V(1e6, -1e6, 1e6), 10)
	huge := cube(geom.V(0, 0, 1e18), 1e5)
	sphere := gen.Must(gen.Icosphere(geom.Vec3{}, 10, 320))
	speck := gen.Must(gen.Icosphere(geom.V(0, 0, -0.5), 0.1, 80))
	feed := func(a, b geom.Vec3) gcode.Move { return line(gcode.Linear, a, b) }
	cases := []struct {
		name       string
		part       *mesh.TriMesh
		tool       string
		o          Options
		move       gcode.Move
		want, none string // with Solid; without
	}{
		{"cutter inside the box", box, "flat 2 4", Options{}, feed(geom.V(-5, 0, -5), geom.V(5, 0, -5)), "gouge cutter part inside", ""},
		{"whole tool inside the box", box, "ball 2 4, shank 2 4, holder 4 5", Options{}, feed(geom.V(-5, 0, -9), geom.V(5, 3, -9)), "gouge cutter part inside; shank shank part inside; holder holder part inside", ""},
		{"tool outside the box", box, "ball 2 4, shank 2 4", Options{}, feed(geom.V(-5, 0, 11), geom.V(5, 0, 11)), "", ""},
		{"ball on the box's top", box, "ball 2 4", Options{}, feed(geom.V(-5, 0, 10), geom.V(5, 0, 10)), "gouge cutter part", "gouge cutter part"},
		{"ball one ulp above the top", box, "ball 2 4", Options{}, feed(geom.V(-5, 0, math.Nextafter(10, 11)), geom.V(5, 0, math.Nextafter(10, 11))), "", ""},
		{"plunge into the box", box, "flat 2 4", Options{}, feed(geom.V(0, 0, 20), geom.V(0, 0, 0)), "gouge cutter part", "gouge cutter part"},
		{"cutter through the bottom, shank inside, holder through the top", box, "flat 2 2, shank 2 5, holder 4 30", Options{}, feed(geom.V(0, 0, -11), geom.V(1, 0, -11)),
			"gouge cutter part; shank shank part inside; holder holder part", "gouge cutter part; holder holder part"},
		{"rapid inside the box", box, "ball 2 4", Options{}, line(gcode.Rapid, geom.V(-5, 0, 0), geom.V(5, 0, 0)), "rapid cutter part inside", ""},
		{"inside with a tolerance", box, "ball 2 4", Options{Eps: 0.5}, feed(geom.V(-5, 0, 0), geom.V(5, 0, 0)), "gouge cutter part inside", ""},
		{"inside, 0.1 from a face, tolerance 0.2", box, "flat 2 4", Options{Eps: 0.2}, feed(geom.V(-5, 0, 5.9), geom.V(5, 0, 5.9)), "gouge cutter part", "gouge cutter part"},
		{"inside with a minimum depth", box, "ball 2 4", Options{MinDepth: 5}, feed(geom.V(-5, 0, 0), geom.V(5, 0, 0)), "gouge cutter part inside", ""},
		{"discrete: ends inside", box, "ball 2 4", Options{Discrete: true}, feed(geom.V(0, 0, 30), geom.V(0, 0, 0)), "gouge cutter part inside", ""},
		{"discrete: ends outside", box, "ball 2 4", Options{Discrete: true}, feed(geom.V(0, 0, 0), geom.V(0, 0, 30)), "", ""},
		{"arc inside the sphere", sphere, "ball 2 3", Options{}, arcXY(geom.Vec3{}, 4, 0, 3, -1), "gouge cutter part inside", ""},
		{"line outside the sphere, inside its box", sphere, "ball 1 1", Options{}, feed(geom.V(9.5, 9.5, 9.5), geom.V(9.5, 9.5, 8)), "", ""},
		{"far from the origin, inside", far, "ball 2 4, shank 2 3", Options{}, feed(geom.V(1e6-5, -1e6, 1e6-5), geom.V(1e6+5, -1e6, 1e6-5)), "gouge cutter part inside; shank shank part inside", ""},
		{"far from the origin, outside", far, "ball 2 4, shank 2 3", Options{}, feed(geom.V(1e6-5, -1e6+12, 1e6-5), geom.V(1e6+5, -1e6+12, 1e6-5)), "", ""},
		{"at z 1e18, where the shank's heights hold no float", huge, "ball 2 4, shank 2 3", Options{}, feed(geom.V(-5, 0, 1e18), geom.V(5, 0, 1e18)), "gouge cutter part inside; shank shank part inside", ""},
		{"a speck of a part inside the swept cutter", speck, "flat 10 4", Options{}, feed(geom.V(-3, 0, -1), geom.V(3, 0, -1)), "gouge cutter part", "gouge cutter part"},
		{"a speck of a part inside the swept cutter, discrete", speck, "flat 10 4", Options{Discrete: true}, feed(geom.V(-30, 0, -1), geom.V(0, 0, -1)), "gouge cutter part", "gouge cutter part"},
	}
	for _, tc := range cases {
		for _, b := range []collide.BV{collide.KDOP18, collide.OBB, collide.Brute} {
			part := build(t, tc.part, b)
			for _, solid := range []bool{true, false} {
				o := tc.o
				o.Tool, o.Solid = mustTool(t, tc.tool), solid
				vs := check(t, part, o, []gcode.Move{tc.move})
				want := tc.none
				if solid {
					want = tc.want
				}
				if got := describe(vs); got != want {
					t.Errorf("%s (%v, solid %v): got %q, want %q", tc.name, b, solid, got, want)
				}
				for _, v := range vs {
					if !v.Inside {
						continue
					}
					r := o.Tool.Radius()
					for _, p := range o.Tool.Parts {
						if p.Role == v.Role {
							r = max(p.R0, p.R1)
						}
					}
					s0 := 0.0
					if o.Discrete {
						s0 = 1
					}
					if len(v.Tris) != 0 || v.Graze || v.Depth != r || v.DepthMax != r || v.S0 != s0 || v.S1 != 1 || v.Clearance != 0 {
						t.Errorf("%s (%v): inside violation %+v: want no triangles, depth %g, s %g..1, clearance 0", tc.name, b, v, r, s0)
					}
				}
			}
		}
	}
}

// TestSolidFixture checks a tool inside a closed fixture (a fixture hit
// with Solid, nothing without), and that the stock's rules are kept.
func TestSolidFixture(t *testing.T) {
	fix := build(t, cube(geom.V(50, 0, 0), 10), collide.KDOP18)
	part := build(t, cube(geom.Vec3{}, 10), collide.KDOP18)
	stock := &geom.AABB{Min: geom.V(-100, -100, -100), Max: geom.V(100, 100, 100)}
	for _, solid := range []bool{true, false} {
		o := Options{Tool: mustTool(t, "ball 2 4, shank 2 4"), Fixtures: []*collide.Model{fix}, Stock: stock, Solid: solid}
		vs := check(t, part, o, []gcode.Move{line(gcode.Linear, geom.V(48, 0, -5), geom.V(52, 0, -5))})
		want := "shank shank stock inside"
		if solid {
			want = "fixture cutter fixture inside; shank shank fixture inside; shank shank stock inside"
		}
		if got := describe(vs); got != want {
			t.Errorf("solid %v: got %q, want %q", solid, got, want)
		}
	}
}

// TestSolidNotClosed checks that New refuses an open part or fixture with
// Solid, naming it and what breaks, and accepts it without.
func TestSolidNotClosed(t *testing.T) {
	open := build(t, floor(0), collide.KDOP18)
	closed := build(t, cube(geom.Vec3{}, 10), collide.KDOP18)
	tool := mustTool(t, "ball 2 4")
	for _, c := range []struct {
		part     *collide.Model
		fixtures []*collide.Model
		want     string
	}{
		{open, nil, "nc: the part: "},
		{closed, []*collide.Model{closed, open}, "nc: fixture 1: "},
	} {
		_, err := New(c.part, Options{Tool: tool, Fixtures: c.fixtures, Solid: true})
		if err == nil || !errors.Is(err, collide.ErrNotSolid) || !strings.HasPrefix(err.Error(), c.want) || !strings.Contains(err.Error(), "not closed") {
			t.Errorf("New(Solid) = %v: want an error wrapping ErrNotSolid, %q..., saying \"not closed\"", err, c.want)
		}
		if _, err := New(c.part, Options{Tool: tool, Fixtures: c.fixtures}); err != nil {
			t.Errorf("New without Solid: %v", err)
		}
	}
}

// insideConvex reports whether p is inside the closed convex surface m,
// oriented outwards: strictly behind every face's plane (the oracle).
func insideConvex(m *mesh.TriMesh, p geom.Vec3) bool {
	for i := range m.Tris {
		t := m.Triangle(i)
		if geom.Orient3D(t[0], t[1], t[2], p) >= 0 {
			return false
		}
	}
	return true
}

// TestSolidOracle checks random moves in and around a convex closed part
// (a geodesic sphere) against the oracle: the violations without Solid
// are those of the brute-force oracle, Solid adds exactly one Inside
// violation for each tool part that meets no triangle and whose point at
// the move's end (the middle of its axis) is inside the convex part.
func TestSolidOracle(t *testing.T) {
	sphere := gen.Must(gen.Icosphere(geom.V(3, -2, 1), 10, 180))
	rng := rand.New(rand.NewPCG(35, 4))
	b := sphere.Bounds()
	moves := randomMoves(rng, geom.AABB{Min: b.Min.Sub(geom.V(4, 4, 4)), Max: b.Max.Add(geom.V(4, 4, 4))}, 300)
	tool := mustTool(t, "ball 2 2, shank 2 1, holder 3 1")
	inside := 0
	for _, bv := range []collide.BV{collide.KDOP18, collide.Sphere} {
		part := build(t, sphere, bv)
		for _, discrete := range []bool{false, true} {
			o := Options{Tool: tool, Discrete: discrete, NoDetail: true}
			plain := check(t, part, o, moves)
			if !discrete && !slices.Equal(keys(plain), brute(t, part, o, moves)) {
				t.Fatalf("%v: the violations without Solid differ from the oracle's", bv)
			}
			o.Solid = true
			solid := check(t, part, o, moves)
			var rest []Violation
			got := map[key]bool{}
			for _, v := range solid {
				if v.Inside {
					got[key{v.Move, v.Role, v.Target, ""}] = true
				} else {
					rest = append(rest, v)
				}
			}
			if !slices.Equal(keys(rest), keys(plain)) {
				t.Errorf("%v, discrete %v: Solid changed the surface violations", bv, discrete)
			}
			met := map[key]bool{}
			for _, v := range plain {
				met[key{v.Move, v.Role, v.Target, ""}] = true
			}
			want := map[key]bool{}
			for i, m := range moves {
				if !isArc(m) && m.From == m.To {
					continue
				}
				for _, r := range []Role{Cutting, Shank, Holder} {
					k := key{i, r, OnPart, ""}
					lo, hi := math.Inf(1), math.Inf(-1)
					for _, p := range tool.Parts {
						if p.Role == r {
							lo, hi = min(lo, p.Z0), max(hi, p.Z1)
						}
					}
					if !met[k] && insideConvex(sphere, m.To.Add(geom.V(0, 0, (lo+hi)/2))) {
						want[k] = true
					}
				}
			}
			if len(got) != len(want) {
				t.Errorf("%v, discrete %v: %d inside violations, want %d", bv, discrete, len(got), len(want))
			}
			for k := range want {
				if !got[k] {
					t.Errorf("%v, discrete %v: move %d's %v inside the part not reported", bv, discrete, k.move, k.role)
				}
			}
			inside += len(want)
		}
	}
	if inside < 20 {
		t.Errorf("only %d tool parts inside the part: the test tests little", inside)
	}
}

// TestSolidDemo checks the demo's program against its part closed into a
// block: Solid keeps every violation of the surface and adds only tool
// parts under the mold's surface.
func TestSolidDemo(t *testing.T) {
	hf, prog, spec := ncgen.Demo()
	blk, err := ncgen.Block(hf, hf.Bounds().Min.Z-10)
	if err != nil {
		t.Fatal(err)
	}
	p, err := gcode.Read(strings.NewReader(prog), "demo.nc", gcode.Options{})
	if err != nil {
		t.Fatal(err)
	}
	part := build(t, blk, collide.KDOP18)
	o := Options{Tool: mustTool(t, spec), NoDetail: true}
	plain := check(t, part, o, p.Moves)
	o.Solid = true
	solid := check(t, part, o, p.Moves)
	var rest []Violation
	for _, v := range solid {
		if !v.Inside {
			rest = append(rest, v)
		}
	}
	if !slices.Equal(keys(rest), keys(plain)) {
		t.Errorf("Solid changed the demo's surface violations: %d, want %d", len(rest), len(plain))
	}
	t.Logf("%d violations, %d with Solid", len(plain), len(solid))
}

// TestSolidAllocs checks that a move tested against a solid, inside or
// outside, allocates nothing once the checker is warm (but for reporting
// a violation).
func TestSolidAllocs(t *testing.T) {
	part := build(t, cube(geom.Vec3{}, 10), collide.KDOP18)
	c, err := New(part, Options{Tool: mustTool(t, "ball 2 4, shank 2 4"), Solid: true, NoDetail: true})
	if err != nil {
		t.Fatal(err)
	}
	ts, err := c.state(c.o.Tool)
	if err != nil {
		t.Fatal(err)
	}
	for _, z := range []float64{-5, 30} {
		m := line(gcode.Linear, geom.V(-5, 0, z), geom.V(5, 0, z))
		n := 0
		c.move(0, m, ts, func(Violation) bool { n++; return true })
		if allocs := testing.AllocsPerRun(50, func() { c.move(0, m, ts, func(Violation) bool { return true }) }); allocs != 0 {
			t.Errorf("a move at z %g (%d violations): %v allocations, want 0", z, n, allocs)
		}
		if (z < 0) != (n == 2) {
			t.Errorf("a move at z %g: %d violations", z, n)
		}
	}
}

// TestSolidParts checks that with Solid a move's violations and work
// still depend on the move alone: random moves in and around a sphere,
// checked whole and in parts of 7 in reverse order on one Checker, give
// the same violations and summed summaries (the inside tests included).
func TestSolidParts(t *testing.T) {
	sphere := gen.Must(gen.Icosphere(geom.Vec3{}, 10, 180))
	rng := rand.New(rand.NewPCG(35, 7))
	moves := randomMoves(rng, geom.AABB{Min: geom.V(-14, -14, -14), Max: geom.V(14, 14, 14)}, 200)
	part := build(t, sphere, collide.KDOP18)
	o := Options{Tool: mustTool(t, "ball 2 2, shank 2 1, holder 3 1"), Solid: true}
	whole, err := New(part, o)
	if err != nil {
		t.Fatal(err)
	}
	var want []Violation
	wantSum, err := whole.CheckReader(&partMoves{moves: moves}, func(v Violation) bool {
		want = append(want, v)
		return true
	})
	if err != nil {
		t.Fatal(err)
	}
	if wantSum.Stats.Inside == 0 || !slices.ContainsFunc(want, func(v Violation) bool { return v.Inside }) {
		t.Fatalf("%d inside tests, no inside violation: the test tests little", wantSum.Stats.Inside)
	}
	const size = 7
	c, err := New(part, o)
	if err != nil {
		t.Fatal(err)
	}
	n := (len(moves) + size - 1) / size
	parts := make([][]Violation, n)
	sums := make([]Summary, n)
	for k := n - 1; k >= 0; k-- {
		first := k * size
		sums[k], err = c.CheckReader(&partMoves{first: first, moves: moves[first:min(first+size, len(moves))]}, func(v Violation) bool {
			parts[k] = append(parts[k], v)
			return true
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	var got []Violation
	var sum Summary
	for k := range n {
		got = append(got, parts[k]...)
		sum.Add(sums[k])
	}
	sum.Seconds, wantSum.Seconds = 0, 0
	if !reflect.DeepEqual(got, want) {
		t.Errorf("parts: %d violations, want the whole check's %d (first differing: %+v)", len(got), len(want), firstDiff(got, want))
	}
	if !reflect.DeepEqual(sum, wantSum) {
		t.Errorf("parts: summaries added = %+v, want %+v", sum, wantSum)
	}
}

// TestSolidToolWithGap checks a tool made by hand whose shank starts well
// above its cutter's top: the cutter inside the box, the shank above it,
// the shank is tested itself rather than given the cutter's answer.
func TestSolidToolWithGap(t *testing.T) {
	part := build(t, cube(geom.Vec3{}, 10), collide.KDOP18)
	tool := Tool{Parts: []Part{
		{Shape: Cyl, Role: Cutting, R0: 1, R1: 1, Z0: 0, Z1: 2},
		{Shape: Cyl, Role: Shank, R0: 1, R1: 1, Z0: 30, Z1: 32},
	}}
	vs := check(t, part, Options{Tool: tool, Solid: true}, []gcode.Move{line(gcode.Linear, geom.V(-5, 0, -5), geom.V(5, 0, -5))})
	if got, want := describe(vs), "gouge cutter part inside"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestSolidRealMesh checks random moves of a small ball end in and around
// a real closed mesh (libcgal-demo's elephant, skipped when it is not
// installed): Solid adds to the surface's violations exactly the cutters
// that meet no triangle and whose ball's centre, another point of the
// same cutter, is inside by the solid's count over every triangle.
func TestSolidRealMesh(t *testing.T) {
	f, err := os.Open("/tmp/cdef/cgal/data/meshes/elephant.off")
	if err != nil {
		t.Skip("libcgal-demo's meshes are not installed")
	}
	defer f.Close()
	m, err := off.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	b := m.Bounds()
	r := b.Size().X / 40
	tool := mustTool(t, fmt.Sprintf("ball %g %g", 2*r, 2*r))
	rng := rand.New(rand.NewPCG(35, 11))
	var moves []gcode.Move
	for i := range 400 {
		a := geom.V(b.Min.X+rng.Float64()*b.Size().X, b.Min.Y+rng.Float64()*b.Size().Y, b.Min.Z+rng.Float64()*b.Size().Z)
		moves = append(moves, gcode.Move{Line: i + 1, Kind: gcode.Linear, From: a, To: a.Add(geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()).Scale(r / 2))})
	}
	part := build(t, m, collide.KDOP18)
	o := Options{Tool: tool, NoDetail: true}
	plain := check(t, part, o, moves)
	o.Solid = true
	solid := check(t, part, o, moves)
	s, err := part.Solid()
	if err != nil {
		t.Fatal(err)
	}
	met := map[int]bool{}
	for _, v := range plain {
		met[v.Move] = true
	}
	var want, got []int
	for i, mv := range moves {
		if !met[i] && s.Contains(mv.To.Add(geom.V(0, 0, r))) {
			want = append(want, i)
		}
	}
	var rest []Violation
	for _, v := range solid {
		if v.Inside {
			got = append(got, v.Move)
		} else {
			rest = append(rest, v)
		}
	}
	if !slices.Equal(keys(rest), keys(plain)) {
		t.Errorf("Solid changed the surface violations")
	}
	if !slices.Equal(got, want) {
		t.Errorf("inside at moves %v, want %v", got, want)
	}
	if len(want) < 10 || len(want) > 390 {
		t.Errorf("%d of 400 moves inside: the test tests little", len(want))
	}
	t.Logf("%d moves meet the surface, %d inside", len(met), len(want))
}
