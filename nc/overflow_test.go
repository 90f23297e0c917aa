package nc

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh/gen"
	"github.com/collide3d/collide/nc/gcode"
)

// summary returns "kind role target" of each violation.
func summary(vs []Violation) []string {
	var out []string
	for _, v := range vs {
		out = append(out, fmt.Sprintf("%v %v %v", v.Kind, v.Role, v.Target))
	}
	return out
}

// TestHugeMoves checks moves whose length, or whose coordinates'
// differences, overflow float64 (from -9e307 to 9e307, straight through a
// 200 mm box): they meet the stock, the part and a fixture as the same
// moves from -1000 to 1000 do, with every kind of tree, along each axis
// and diagonally, swept and discrete.
func TestHugeMoves(t *testing.T) {
	const big = 9e307
	box := geom.AABB{Min: geom.V(0, 0, 0), Max: geom.V(200, 200, 200)}
	block := gen.Must(gen.Box(geom.AABB{Min: geom.V(50, 50, 50), Max: geom.V(150, 150, 150)}, 1))
	tool := mustTool(t, "flat 6 20, shank 6 30")
	type mv struct {
		name string
		kind gcode.Kind
		a, b geom.Vec3 // from a·big to b·big, or a·1000 to b·1000
		off  geom.Vec3
	}
	moves := []mv{
		{"rapid along x", gcode.Rapid, geom.V(-1, 0, 0), geom.V(1, 0, 0), geom.V(100, 100, 100)},
		{"rapid along y", gcode.Rapid, geom.V(0, 1, 0), geom.V(0, -1, 0), geom.V(100, 100, 100)},
		{"rapid along z", gcode.Rapid, geom.V(0, 0, 1), geom.V(0, 0, -1), geom.V(100, 100, 100)},
		{"rapid diagonal", gcode.Rapid, geom.V(-1, -1, -1), geom.V(1, 1, 1), geom.V(100, 100, 100)},
		{"feed, the shank through", gcode.Linear, geom.V(-1, 0, 0), geom.V(1, 0, 0), geom.V(100, 100, 170)},
		{"feed above", gcode.Linear, geom.V(-1, 0, 0), geom.V(1, 0, 0), geom.V(100, 100, 201)},
	}
	bvs := append(collide.BVs(), collide.Brute)
	models := map[collide.BV]*collide.Model{}
	for _, bv := range bvs {
		models[bv] = build(t, block, bv)
	}
	for _, m := range moves {
		move := func(s float64) gcode.Move {
			return line(m.kind, m.a.Scale(s).Add(m.off), m.b.Scale(s).Add(m.off))
		}
		huge, small := move(big), move(1000)
		if d := huge.To.Sub(huge.From); d.IsFinite() {
			t.Fatalf("%s: the move's difference %v does not overflow", m.name, d)
		}
		for _, discrete := range []bool{false, true} {
			if discrete && m.kind == gcode.Rapid {
				continue // the end alone is far from everything
			}
			o := Options{Tool: tool, Stock: &box, Discrete: discrete, NoDetail: true}
			want := summary(check(t, nil, Options{Tool: tool, Stock: &box, Fixtures: []*collide.Model{models[collide.Brute]}, Discrete: discrete, NoDetail: true}, []gcode.Move{small}))
			kinds := bvs
			if m.name != moves[0].name {
				kinds = []collide.BV{collide.KDOP18, collide.OBB} // the trees are not searched: every kind was, above
			}
			for _, bv := range kinds {
				o.Fixtures = []*collide.Model{models[bv]}
				got := summary(check(t, nil, o, []gcode.Move{huge}))
				if !slices.Equal(got, want) {
					t.Errorf("%s (%v, discrete %v): %q, the same move from -1000 to 1000 %q", m.name, bv, discrete, got, want)
				}
				// The block as the part.
				po := Options{Tool: tool, Discrete: discrete, NoDetail: true}
				got, want := summary(check(t, models[bv], po, []gcode.Move{huge})), summary(check(t, models[bv], po, []gcode.Move{small}))
				if !slices.Equal(got, want) {
					t.Errorf("%s (%v, discrete %v), part: %q, the same move from -1000 to 1000 %q", m.name, bv, discrete, got, want)
				}
			}
			if !discrete && m.name != "feed above" && len(want) == 0 {
				t.Errorf("%s: nothing met: the test tests little", m.name)
			}
		}
	}
}

// TestHugeMovePositions checks Move.At and Move.Length on a move whose
// difference overflows: finite positions on the segment, in order, and a
// length of +Inf (1.8e308 is beyond the float64 range), or 1.6e308 along
// a diagonal whose differences do not overflow.
func TestHugeMovePositions(t *testing.T) {
	m := line(gcode.Rapid, geom.V(-9e307, 1, 2), geom.V(9e307, 1, 2))
	if l := m.Length(); !math.IsInf(l, 1) {
		t.Errorf("length %v, want +Inf", l)
	}
	if l, want := line(gcode.Rapid, geom.V(0, 0, 0), geom.V(8e307, 8e307, 8e307)).Length(), 8e307*math.Sqrt(3); math.Abs(l-want) > 1e-15*want {
		t.Errorf("diagonal length %v, want %v", l, want)
	}
	prev := math.Inf(-1)
	for _, s := range []float64{0, 0.1, 0.25, 0.5, 0.75, 1} {
		p := m.At(s)
		if !p.IsFinite() || p.X < prev || p.Y != 1 || p.Z != 2 {
			t.Errorf("At(%v) = %v", s, p)
		}
		prev = p.X
	}
	if p := m.At(0.5); p.X != 0 {
		t.Errorf("At(0.5) = %v, want x 0", p)
	}
	if l := line(gcode.Rapid, geom.V(-8e307, 0, 0), geom.V(8e307, 0, 0)).Length(); l != 1.6e308 {
		t.Errorf("length %v, want 1.6e308", l)
	}
}

// TestHugeArcs checks that arcs whose circle or length reaches beyond the
// float64 range are refused with the line, by the checker and by Read,
// and that a huge straight move is read.
func TestHugeArcs(t *testing.T) {
	tool := mustTool(t, "ball 6 20")
	box := geom.AABB{Min: geom.V(0, 0, 0), Max: geom.V(200, 200, 200)}
	c, err := New(nil, Options{Tool: tool, Stock: &box})
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []gcode.Move{
		arcXY(geom.V(0, 0, 0), 1e308, 0, math.Pi/2, 0),
		arcXY(geom.V(1.5e308, 0, 0), 1e307, 0, math.Pi/2, 0),
		{Line: 1, Kind: gcode.ArcCW, Center: geom.V(0, 0, 0), Radius: 1e302, From: geom.V(1e302, 0, 0), To: geom.V(1e302, 0, 0), Turns: 1000000},
		{Line: 1, Kind: gcode.Linear, From: geom.V(math.NaN(), 0, 0), To: geom.V(1, 0, 0)},
		{Line: 1, Kind: gcode.Linear, From: geom.V(math.Inf(1), 0, 0), To: geom.V(1, 0, 0)},
	} {
		_, err := c.Check(&gcode.Program{Name: "huge.nc", Moves: []gcode.Move{m}}, nil)
		if err == nil || !strings.Contains(err.Error(), "huge.nc: line 1: nc: ") {
			t.Errorf("%v: error %v, want one naming huge.nc line 1", m, err)
		}
	}
	nines := "9" + strings.Repeat("0", 307)
	for _, src := range []string{
		"G0 X0 Y0\nG2 X" + nines + " Y0 R" + nines + "\n",
		"G0 X-" + nines + " Y0\nG3 X" + nines + " Y0 I" + nines + "\n",
		"G0 X1 Y0\nG2 X1 Y0 I-1" + strings.Repeat("0", 303) + " P1000000\n", // a million turns of radius 1e303
	} {
		_, err := gcode.Read(strings.NewReader(src), "arc.nc", gcode.Options{})
		if err == nil || !strings.Contains(err.Error(), "arc.nc: line 2: gcode: ") {
			t.Errorf("%.40q...: error %v, want one naming arc.nc line 2", src, err)
		}
	}
	p, err := gcode.Read(strings.NewReader("G0 X-"+nines+" Y100 Z100\nG0 X"+nines+"\n"), "line.nc", gcode.Options{})
	if err != nil || len(p.Moves) != 2 || !math.IsInf(p.Moves[1].Length(), 1) {
		t.Fatalf("read: %v, %v", p, err)
	}
	vs := check(t, nil, Options{Tool: tool, Stock: &box}, p.Moves)
	if len(vs) != 1 || vs[0].Kind != RapidHit || vs[0].Target != OnStock || vs[0].Line != 2 {
		t.Errorf("G0 from x -9e307 to 9e307 through the stock: %q, want the rapid on line 2", summary(vs))
	}
}

// TestLongMovesSearchNearThePart checks that a long move, finite but far
// longer than the part (from -9e10 to 9e10 through a 100 mm block), is cut
// into pieces whose tree is searched only where they come near the part,
// not 2^20 searches, and finds what brute force finds, with every kind of
// tree.
func TestLongMovesSearchNearThePart(t *testing.T) {
	block := gen.Must(gen.Box(geom.AABB{Min: geom.V(50, 50, 50), Max: geom.V(150, 150, 150)}, 1))
	tool := mustTool(t, "flat 6 20, shank 6 30")
	moves := []gcode.Move{
		line(gcode.Linear, geom.V(-9e10, 100, 100), geom.V(9e10, 100, 100)),       // through the block
		line(gcode.Linear, geom.V(100, -9e10, 170), geom.V(100, 9e10, 170)),       // the shank through
		line(gcode.Rapid, geom.V(-9e10, -9e10, 151), geom.V(9e10, 9e10, 151)),     // a rapid grazing the top
		line(gcode.Linear, geom.V(-9e10, 100, 300), geom.V(9e10, 100, 300)),       // far above
		line(gcode.Linear, geom.V(-9e10, -9e10, -9e10), geom.V(9e10, 9e10, 9e10)), // diagonal through
	}
	o := Options{Tool: tool, NoDetail: true}
	for _, bv := range collide.BVs() {
		part := build(t, block, bv)
		want := brute(t, part, o, moves)
		c, err := New(part, o)
		if err != nil {
			t.Fatal(err)
		}
		var got []key
		sum, err := c.Check(&gcode.Program{Name: "test.nc", Moves: moves}, func(v Violation) bool {
			got = append(got, keys([]Violation{v})...)
			return true
		})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%v: %v, brute force %v", bv, got, want)
		}
		if sum.Stats.Queries > 1000 {
			t.Errorf("%v: %d searches of the tree for %d moves that pass the part once each", bv, sum.Stats.Queries, len(moves))
		}
	}
}
