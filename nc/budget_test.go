package nc

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh/gen"
	"github.com/collide3d/collide/nc/gcode"
	"github.com/collide3d/collide/nc/ncgen"
)

// budgetScene is a zig-zag finishing program with gouges, a rapid into the
// stock and arcs, on a mold, checked with detail.
func budgetScene(t *testing.T) (*collide.Model, Options, *gcode.Program) {
	t.Helper()
	m := gen.Must(ncgen.Mold(14, 2))
	text := ncgen.ZigZag(m, 2, ncgen.ZigZagOptions{Step: 1.5, Stepover: 6, Arcs: true, RapidDown: 2,
		Distort: ncgen.Distortion{Count: 6, Depth: 0.2}, Seed: 5})
	p, err := gcode.Read(strings.NewReader(text), "zigzag.nc", gcode.Options{})
	if err != nil {
		t.Fatal(err)
	}
	b := m.Bounds()
	stock := geom.AABB{Min: b.Min, Max: b.Max.Add(geom.V(0, 0, 1))}
	o := Options{Tool: mustTool(t, "ball 4 6, shank 4 10, holder 12 10"), Stock: &stock}
	return build(t, m, collide.KDOP18), o, p
}

// runBudget checks p with o and returns the violations and the summary.
func runBudget(t *testing.T, part *collide.Model, o Options, p *gcode.Program) ([]Violation, Summary) {
	t.Helper()
	c, err := New(part, o)
	if err != nil {
		t.Fatal(err)
	}
	var vs []Violation
	sum, err := c.Check(p, func(v Violation) bool {
		vs = append(vs, v)
		return true
	})
	if err != nil {
		t.Fatal(err)
	}
	return vs, sum
}

// vkey names a violation but for its detail.
func vkey(v Violation) string {
	return fmt.Sprint(v.Move, v.Kind, v.Role, v.Target, v.Fixture, v.Tris, v.Graze, v.Within)
}

// checkStopped checks a budgeted check's answer against the whole check's:
// every violation reported is one of the whole check's, with the same
// triangles, and the same detail unless Stopped (then the detail of
// NoDetail, holding the whole check's depth); every move before Reached
// and not Unfinished has exactly the whole check's violations; no move
// from Reached on has any.
func checkStopped(t *testing.T, name string, p *gcode.Program, vs []Violation, sum Summary, full []Violation, fullSum Summary) {
	t.Helper()
	byKey := map[string]Violation{}
	for _, v := range full {
		byKey[vkey(v)] = v
	}
	unfinished := map[int]bool{}
	for _, l := range sum.UnfinishedLines {
		unfinished[l] = true
	}
	if sum.Unfinished < len(sum.UnfinishedLines) || sum.Unfinished > len(sum.UnfinishedLines) && len(sum.UnfinishedLines) < maxUnfinishedLines {
		t.Fatalf("%s: %d unfinished, lines %v", name, sum.Unfinished, sum.UnfinishedLines)
	}
	// The moves known unfinished: all those before the last line listed.
	known := sum.Reached
	if sum.Unfinished > len(sum.UnfinishedLines) {
		last := sum.UnfinishedLines[len(sum.UnfinishedLines)-1]
		known = slices.IndexFunc(p.Moves, func(m gcode.Move) bool { return m.Line == last })
	}
	got := map[int][]Violation{}
	for _, v := range vs {
		w, ok := byKey[vkey(v)]
		if !ok {
			t.Fatalf("%s: violation %+v is not one of the whole check's", name, v)
		}
		if v.Move >= sum.Reached {
			t.Fatalf("%s: violation at move %d, reached %d", name, v.Move, sum.Reached)
		}
		if v.Stopped {
			if v.Move < known && !unfinished[v.Line] {
				t.Fatalf("%s: a stopped violation on a finished move: %+v", name, v)
			}
			if v.S0 != 0 || v.S1 != 1 || v.Depth != 0 || v.DepthMax < w.DepthMax || v.Clearance != 0 {
				t.Fatalf("%s: stopped violation %+v, the whole check's %+v", name, v, w)
			}
		} else if !reflect.DeepEqual(v, w) {
			t.Fatalf("%s: violation %+v, the whole check's %+v", name, v, w)
		}
		got[v.Move] = append(got[v.Move], v)
	}
	want := map[int][]Violation{}
	for _, v := range full {
		want[v.Move] = append(want[v.Move], v)
	}
	checked, zero := 0, 0
	for i := 0; i < known; i++ {
		m := p.Moves[i]
		if !isArc(m) && m.From == m.To {
			zero++
			continue
		}
		if unfinished[m.Line] {
			continue
		}
		checked++
		if !reflect.DeepEqual(got[i], want[i]) {
			t.Fatalf("%s: move %d (line %d), checked: violations %+v, the whole check's %+v", name, i, m.Line, got[i], want[i])
		}
	}
	if len(sum.UnfinishedLines) == sum.Unfinished && (checked != sum.Checked || checked+zero+sum.Unfinished != sum.Reached) {
		t.Fatalf("%s: reached %d: %d checked (summary %d), %d of zero length, %d unfinished", name, sum.Reached, checked, sum.Checked, zero, sum.Unfinished)
	}
	if sum.Violations != len(vs) {
		t.Fatalf("%s: %d violations counted, %d reported", name, sum.Violations, len(vs))
	}
}

// TestBudgetWholeRun checks within budgets of tests for the whole run:
// the check stops, having reported only violations of the whole check's,
// each move before the stop exactly.
func TestBudgetWholeRun(t *testing.T) {
	part, o, p := budgetScene(t)
	for _, minDepth := range []float64{0, 0.05} {
		o.MinDepth = minDepth
		full, fullSum := runBudget(t, part, o, p)
		if len(full) < 4 || fullSum.Stopped || fullSum.Unfinished != 0 || fullSum.Reached != len(p.Moves) {
			t.Fatalf("the whole check: %d violations, %+v", len(full), fullSum)
		}
		total := fullSum.Stats.Exact + fullSum.Stats.Queries
		overrun := int64(0)
		for _, n := range []int64{1, 100, total / 3, total - 1, total, total + 1} {
			bo := o
			bo.Budget = collide.Budget{Tests: n}
			vs, sum := runBudget(t, part, bo, p)
			name := fmt.Sprintf("min depth %v, %d tests of %d", minDepth, n, total)
			if n < total && !sum.Stopped || n > total && sum.Stopped {
				t.Fatalf("%s: stopped %v", name, sum.Stopped)
			}
			spent := sum.Stats.Exact + sum.Stats.Queries
			overrun = max(overrun, spent-n)
			if spent > n+maxOverrun {
				t.Fatalf("%s: spent %d", name, spent)
			}
			checkStopped(t, name, p, vs, sum, full, fullSum)
			if !sum.Stopped && (!reflect.DeepEqual(vs, full) || sum.Checked != fullSum.Checked) {
				t.Fatalf("%s: not stopped, a different answer", name)
			}
		}
		t.Logf("min depth %v: %d tests, %d violations; the most tests past the budget %d", minDepth, total, len(full), overrun)
	}
}

// maxOverrun bounds, in the tests, the tests a check makes past its
// budget (between two looks: one triangle's tests).
const maxOverrun = 4096

// TestBudgetPerMove checks within budgets per move: every move is reached,
// those cut short are named, the others checked exactly.
func TestBudgetPerMove(t *testing.T) {
	part, o, p := budgetScene(t)
	full, fullSum := runBudget(t, part, o, p)
	cut, stoppedDetail := 0, 0
	for _, n := range []int64{1, 3, 10, 30, 100, 300, 1000} {
		bo := o
		bo.MoveBudget = MoveBudget{Tests: n}
		vs, sum := runBudget(t, part, bo, p)
		name := fmt.Sprintf("%d tests a move", n)
		if sum.Stopped || sum.Reached != len(p.Moves) {
			t.Fatalf("%s: %+v", name, sum)
		}
		cut += sum.Unfinished
		checkStopped(t, name, p, vs, sum, full, fullSum)
		st := 0
		for _, v := range vs {
			if v.Stopped {
				st++
			}
		}
		stoppedDetail += st
		t.Logf("%s: %d moves unfinished, %d of %d violations (%d stopped in their detail)", name, sum.Unfinished, len(vs), len(full), st)
	}
	if cut == 0 || stoppedDetail == 0 {
		t.Errorf("%d moves cut short, %d violations stopped in their detail: the test tests too little", cut, stoppedDetail)
	}
}

// TestBudgetDeadline checks deadlines already past: the whole run's stops
// before the first move; a move's of no time cuts every move short
// (looked at before its first test), reporting nothing it has not proved.
func TestBudgetDeadline(t *testing.T) {
	part, o, p := budgetScene(t)
	full, fullSum := runBudget(t, part, o, p)
	bo := o
	bo.Budget = collide.Budget{Deadline: time.Now().Add(-time.Second)}
	vs, sum := runBudget(t, part, bo, p)
	if len(vs) != 0 || !sum.Stopped || sum.Reached != 0 || sum.Checked != 0 || sum.Stats != (Stats{}) {
		t.Errorf("a deadline past: %d violations, %+v", len(vs), sum)
	}
	bo = o
	bo.MoveBudget = MoveBudget{Time: time.Nanosecond}
	vs, sum = runBudget(t, part, bo, p)
	checkStopped(t, "a move deadline of 1 ns", p, vs, sum, full, fullSum)
	if sum.Reached != len(p.Moves) || sum.Stopped {
		t.Errorf("a move deadline of 1 ns: %+v", sum)
	}
	// A large budget changes nothing.
	bo = o
	bo.Budget = collide.Budget{Tests: 1 << 50, Deadline: time.Now().Add(time.Hour)}
	bo.MoveBudget = MoveBudget{Tests: 1 << 50, Time: time.Hour}
	vs, sum = runBudget(t, part, bo, p)
	sum.Seconds, fullSum.Seconds = 0, 0
	if !reflect.DeepEqual(vs, full) || !reflect.DeepEqual(sum, fullSum) {
		t.Errorf("a large budget: %+v, without %+v", sum, fullSum)
	}
	if _, err := New(part, Options{Tool: o.Tool, MoveBudget: MoveBudget{Tests: -1}}); err == nil {
		t.Error("a negative budget: no error")
	}
}
