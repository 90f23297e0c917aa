package nc

import (
	"io"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/nc/gcode"
	"github.com/collide3d/collide/nc/ncgen"
)

// partMoves is a PartReader of moves, the first being the program's move
// first.
type partMoves struct {
	first int
	moves []gcode.Move
	i     int
}

func (p *partMoves) Name() string { return "demo.nc" }
func (p *partMoves) First() int   { return p.first }

func (p *partMoves) Next() (gcode.Move, error) {
	if p.i == len(p.moves) {
		return gcode.Move{}, io.EOF
	}
	p.i++
	return p.moves[p.i-1], nil
}

// TestParts checks the built-in demo (a program with gouges, a shank hit
// and a rapid) whole, then in parts of 1, 3 and 700 moves, the parts in
// reverse order on one Checker: each part's violations are the whole
// check's for its moves, numbered alike, and the parts' summaries added
// are the whole check's, work counters included, but for the time.
func TestParts(t *testing.T) {
	part, text, spec := ncgen.Demo()
	m, err := collide.Build(part, collide.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	prog, err := gcode.Read(strings.NewReader(text), "demo.nc", gcode.Options{})
	if err != nil {
		t.Fatal(err)
	}
	o := Options{Tool: mustTool(t, spec)}
	whole, err := New(m, o)
	if err != nil {
		t.Fatal(err)
	}
	var want []Violation
	wantSum, err := whole.CheckReader(&partMoves{moves: prog.Moves}, func(v Violation) bool {
		want = append(want, v)
		return true
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(want) == 0 || wantSum.ByKind[RapidHit] == 0 || wantSum.ByKind[ShankHit] == 0 {
		t.Fatalf("the demo's check found %d violations (%v by kind): want gouges, a shank hit and rapids", len(want), wantSum.ByKind)
	}
	wantSum.Seconds = 0
	for _, size := range []int{1, 3, 700} {
		c, err := New(m, o)
		if err != nil {
			t.Fatal(err)
		}
		n := (len(prog.Moves) + size - 1) / size
		parts := make([][]Violation, n)
		sums := make([]Summary, n)
		for k := n - 1; k >= 0; k-- {
			first := k * size
			p := &partMoves{first: first, moves: prog.Moves[first:min(first+size, len(prog.Moves))]}
			sums[k], err = c.CheckReader(p, func(v Violation) bool {
				parts[k] = append(parts[k], v)
				return true
			})
			if err != nil {
				t.Fatalf("size %d, part %d: %v", size, k, err)
			}
		}
		var got []Violation
		var sum Summary
		for k := range n {
			got = append(got, parts[k]...)
			sum.Add(sums[k])
		}
		sum.Seconds = 0
		if !reflect.DeepEqual(got, want) {
			t.Errorf("parts of %d: %d violations, want the whole check's %d (first differing: %+v)", size, len(got), len(want), firstDiff(got, want))
		}
		if !reflect.DeepEqual(sum, wantSum) {
			t.Errorf("parts of %d: summaries added = %+v, want %+v", size, sum, wantSum)
		}
	}
}

func firstDiff(a, b []Violation) any {
	for i := range min(len(a), len(b)) {
		if !reflect.DeepEqual(a[i], b[i]) {
			return [2]Violation{a[i], b[i]}
		}
	}
	return nil
}

// TestSummaryAdd adds two summaries: counts summed, UnfinishedLines kept
// to their first 64, Stopped if either is.
func TestSummaryAdd(t *testing.T) {
	a := Summary{Moves: 3, Checked: 2, Violations: 1, MovesHit: 1, Reached: 3, Unfinished: 60, Stats: Stats{Queries: 5, BVTests: 7, Candidates: 2, Exact: 9, Grazes: 1, Inside: 2}, Seconds: 1}
	a.ByKind[Gouge] = 1
	for i := range 60 {
		a.UnfinishedLines = append(a.UnfinishedLines, i+1)
	}
	b := Summary{Moves: 4, Checked: 4, Violations: 2, MovesHit: 2, Reached: 2, Stopped: true, Unfinished: 10, Stats: Stats{Queries: 1, BVTests: 1, Candidates: 1, Exact: 1, Inside: 3}, Seconds: 0.5}
	b.ByKind[RapidHit] = 2
	for i := range 10 {
		b.UnfinishedLines = append(b.UnfinishedLines, 100+i)
	}
	a.Add(b)
	want := Summary{Moves: 7, Checked: 6, Violations: 3, MovesHit: 3, Reached: 5, Stopped: true, Unfinished: 70, Stats: Stats{Queries: 6, BVTests: 8, Candidates: 3, Exact: 10, Grazes: 1, Inside: 5}, Seconds: 1.5}
	want.ByKind[Gouge], want.ByKind[RapidHit] = 1, 2
	for i := range 60 {
		want.UnfinishedLines = append(want.UnfinishedLines, i+1)
	}
	want.UnfinishedLines = append(want.UnfinishedLines, 100, 101, 102, 103)
	if !reflect.DeepEqual(a, want) {
		t.Errorf("Add = %+v, want %+v", a, want)
	}
}

// TestValidMove checks that ValidMove refuses what a check refuses,
// with the check's error.
func TestValidMove(t *testing.T) {
	c, err := New(nil, Options{Tool: mustTool(t, "ball 6 20"), Stock: &geom.AABB{Max: geom.V(10, 10, 10)}})
	if err != nil {
		t.Fatal(err)
	}
	for _, c0 := range []struct {
		name string
		m    gcode.Move
		want string // "" for a valid move
	}{
		{"line", gcode.Move{Line: 4, Kind: gcode.Linear, From: geom.V(0, 0, 20), To: geom.V(5, 0, 20)}, ""},
		{"not finite", gcode.Move{Line: 4, Kind: gcode.Linear, From: geom.V(0, 0, 20), To: geom.V(math.NaN(), 0, 20)}, "p.nc: line 4: nc: a move with a coordinate or radius not a finite number"},
		{"helix in ZX", gcode.Move{Line: 7, Kind: gcode.ArcCW, Plane: gcode.ZX, From: geom.V(0, 0, 20), To: geom.V(10, 5, 20), Center: geom.V(5, 0, 20), Radius: 5}, "p.nc: line 7: nc: a helix outside the XY plane (G17) is not supported"},
	} {
		err := ValidMove("p.nc", c0.m)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != c0.want {
			t.Errorf("%s: ValidMove = %q, want %q", c0.name, got, c0.want)
		}
		_, err = c.Check(&gcode.Program{Name: "p.nc", Moves: []gcode.Move{c0.m}}, nil)
		got = ""
		if err != nil {
			got = err.Error()
		}
		if got != c0.want {
			t.Errorf("%s: Check's error = %q, want %q", c0.name, got, c0.want)
		}
	}
}
