package jsonl

import (
	"bytes"
	"testing"

	"github.com/collide3d/collide/nc"
)

// TestNCLines checks nc's violation and summary lines: the keys in the
// CLI's order, a fixture's index, [] for no triangles, the budget's keys
// only when a budget stopped the check.
func TestNCLines(t *testing.T) {
	for _, c := range []struct {
		v    nc.Violation
		want string
	}{
		{nc.Violation{Move: 3, Line: 9, N: -1, Kind: nc.FixtureHit, Role: nc.Cutting, Target: nc.OnFixture, Fixture: 2, S0: 0.25, S1: 1, Depth: 0.5, DepthMax: 0.5000001, Tris: []int32{4, 7}},
			`{"move":3,"line":9,"n":-1,"kind":"fixture","role":"cutter","target":"fixture","fixture":2,"s0":0.25,"s1":1,"depth":0.5,"depth_max":0.5000001,"clearance":0,"graze":false,"triangles":[4,7]}` + "\n"},
		{nc.Violation{Move: 0, Line: 1, N: 5, Kind: nc.RapidHit, Role: nc.Holder, Target: nc.OnStock, S1: 1, Graze: true, Within: 1e-9, Stopped: true},
			`{"move":0,"line":1,"n":5,"kind":"rapid","role":"holder","target":"stock","s0":0,"s1":1,"depth":0,"depth_max":0,"clearance":0,"graze":true,"within":1e-9,"triangles":[],"stopped":true}` + "\n"},
		{nc.Violation{Move: 2, Line: 4, N: -1, Kind: nc.Gouge, Role: nc.Cutting, Target: nc.OnPart, S1: 1, Depth: 3, DepthMax: 3, Inside: true},
			`{"move":2,"line":4,"n":-1,"kind":"gouge","role":"cutter","target":"part","s0":0,"s1":1,"depth":3,"depth_max":3,"clearance":0,"graze":false,"triangles":[],"inside":true}` + "\n"},
	} {
		var b bytes.Buffer
		if err := WriteNCViolation(&b, c.v); err != nil {
			t.Fatal(err)
		}
		if b.String() != c.want {
			t.Errorf("WriteNCViolation(%+v) =\n  %s want\n  %s", c.v, b.String(), c.want)
		}
	}
	h := NCHead{Program: "p.nc", Part: "part.stl", Triangles: 12, BV: "obb", Tool: "ball 6 20", Warnings: 1, BuildSeconds: 0.5}
	sum := nc.Summary{Moves: 10, Checked: 8, Violations: 3, MovesHit: 2, Reached: 10, Seconds: 2, Stats: nc.Stats{Queries: 1, BVTests: 2, Candidates: 3, Exact: 4, Grazes: 5}}
	sum.ByKind[nc.Gouge], sum.ByKind[nc.ShankHit] = 2, 1
	head := `{"summary":{"program":"p.nc","part":"part.stl","triangles":12,"bv":"obb","fixtures":0,"tool":"ball 6 20","moves":10,"checked":8,"violations":3,"moves_hit":2,` +
		`"by_kind":{"fixture":0,"gouge":2,"holder":0,"rapid":0,"shank":1},"warnings":1,"seconds":2,"moves_per_second":4,"build_seconds":0.5,"queries":1,"bv_tests":2,"candidates":3,"exact":4,"grazes":5`
	var b bytes.Buffer
	if err := WriteNCSummary(&b, h, sum); err != nil {
		t.Fatal(err)
	}
	if want := head + "}}\n"; b.String() != want {
		t.Errorf("WriteNCSummary =\n  %s want\n  %s", b.String(), want)
	}
	sum.Stopped, sum.Reached, sum.Unfinished, sum.UnfinishedLines = true, 7, 1, []int{12}
	h.Interrupted = true
	b.Reset()
	if err := WriteNCSummary(&b, h, sum); err != nil {
		t.Fatal(err)
	}
	if want := head + `,"stopped":true,"interrupted":true,"reached":7,"unfinished":1,"unfinished_lines":[12]}}` + "\n"; b.String() != want {
		t.Errorf("WriteNCSummary of a stopped check =\n  %s want\n  %s", b.String(), want)
	}
	sum.Stats.Inside, h.Solid = 0, true
	b.Reset()
	if err := WriteNCSummary(&b, h, sum); err != nil {
		t.Fatal(err)
	}
	if want := head + `,"solid":true,"inside_tests":0,"stopped":true,"interrupted":true,"reached":7,"unfinished":1,"unfinished_lines":[12]}}` + "\n"; b.String() != want {
		t.Errorf("WriteNCSummary of a solid check =\n  %s want\n  %s", b.String(), want)
	}
}
