package nc

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
)

// groupsOracle groups violations (in program order) the simple way: for
// each key, its violations in move order, split where a move is skipped.
func groupsOracle(vs []Violation) []Group {
	type k struct {
		kind    Kind
		role    Role
		target  Target
		fixture int
	}
	by := map[k][]Violation{}
	var keys []k
	for _, v := range vs {
		kk := k{v.Kind, v.Role, v.Target, v.Fixture}
		if by[kk] == nil {
			keys = append(keys, kk)
		}
		by[kk] = append(by[kk], v)
	}
	var out []Group
	for _, kk := range keys {
		run := by[kk]
		for len(run) > 0 {
			n := 1
			for n < len(run) && run[n].Move <= run[n-1].Move+1 {
				n++
			}
			g := Group{Kind: kk.kind, Role: kk.role, Target: kk.target, Fixture: kk.fixture,
				FirstMove: run[0].Move, LastMove: run[n-1].Move, FirstLine: run[0].Line, LastLine: run[n-1].Line,
				FirstN: run[0].N, LastN: run[n-1].N, Violations: n}
			deep := 0
			for i, v := range run[:n] {
				if Deeper(&v, &run[deep]) {
					deep = i
				}
				if v.Graze {
					g.Grazes++
				}
				g.DepthMax = max(g.DepthMax, v.DepthMax)
			}
			g.Deepest, g.Triangles = run[deep], len(run[deep].Tris)
			g.Deepest.Tris = nil
			out = append(out, g)
			run = run[n:]
		}
	}
	// Deepest first, then in program order, by brute force: a group
	// goes before another iff it is deeper.
	slices.SortStableFunc(out, cmpGroups)
	return out
}

// randomViolations returns n violations in program order over a few
// kinds, parts and targets, with runs, gaps and ties of depth.
func randomViolations(rng *rand.Rand, n int) []Violation {
	var vs []Violation
	move := 0
	for len(vs) < n {
		move += 1 + rng.IntN(3)/2 // often the next move, sometimes one skipped
		for range 1 + rng.IntN(3) {
			d := float64(rng.IntN(5)) / 4
			v := Violation{Move: move, Line: move + 10, N: move - 1, Kind: Kind(rng.IntN(2)), Role: Role(rng.IntN(2)),
				Target: Target(rng.IntN(2)), Fixture: rng.IntN(2), Depth: d, DepthMax: d + float64(rng.IntN(3))/8,
				Graze: rng.IntN(5) == 0, Tris: make([]int32, 1+rng.IntN(4))}
			if v.Target != OnFixture {
				v.Fixture = 0
			}
			// One violation per move, kind, part and target.
			if !slices.ContainsFunc(vs, func(w Violation) bool {
				return w.Move == v.Move && w.Kind == v.Kind && w.Role == v.Role && w.Target == v.Target && w.Fixture == v.Fixture
			}) {
				vs = append(vs, v)
			}
		}
	}
	return vs
}

// TestGrouper checks the runs against the oracle on random violations:
// the same groups, deepest first; with MaxGroups, the deepest MaxGroups
// of them, and the others counted.
func TestGrouper(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for trial := range 200 {
		vs := randomViolations(rng, 1+rng.IntN(60))
		want := groupsOracle(vs)
		var g Grouper
		for _, v := range vs {
			g.Add(v)
		}
		got := g.Groups()
		if !slices.EqualFunc(got, want, func(a, b Group) bool { return reflect.DeepEqual(a, b) }) {
			for i := range min(len(got), len(want)) {
				if !reflect.DeepEqual(got[i], want[i]) {
					t.Fatalf("trial %d: group %d: %+v\nthe oracle: %+v", trial, i, got[i], want[i])
				}
			}
			t.Fatalf("trial %d: %d groups, the oracle %d", trial, len(got), len(want))
		}
		if n, _ := g.Dropped(); n != 0 || g.Runs() != len(want) {
			t.Fatalf("trial %d: %d dropped, %d runs, want 0 and %d", trial, n, g.Runs(), len(want))
		}
		limit := 1 + rng.IntN(5)
		capped := Grouper{MaxGroups: limit}
		for _, v := range vs {
			capped.Add(v)
		}
		got = capped.Groups()
		keep := want[:min(limit, len(want))]
		if !slices.EqualFunc(got, keep, func(a, b Group) bool { return reflect.DeepEqual(a, b) }) {
			t.Fatalf("trial %d, MaxGroups %d: %+v, want %+v", trial, limit, got, keep)
		}
		dropped, dv := capped.Dropped()
		wantV := 0
		for _, gr := range want[len(keep):] {
			wantV += gr.Violations
		}
		if dropped != len(want)-len(keep) || dv != wantV {
			t.Fatalf("trial %d: dropped %d groups of %d violations, want %d of %d", trial, dropped, dv, len(want)-len(keep), wantV)
		}
	}
}
