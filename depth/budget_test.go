package depth

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh"
	"github.com/collide3d/collide/mesh/gen"
)

// budgets are the budgets of the tests: a few steps, and a deadline
// already past.
var budgets = []collide.Budget{{Tests: 1}, {Tests: 2}, {Tests: 7}, {Tests: 40}, {Deadline: time.Unix(1, 0)}}

// checkBudgeted checks a budgeted answer r against the whole search's, full:
// the steps within the budget, Stopped when it ran out, and the bounds
// still certified (checkResult: Move separates by the brute-force oracle)
// and holding PD's bounds [lo, hi] (lo ≤ PD ≤ hi, from an oracle).
func checkBudgeted(t *testing.T, name string, env, fly *mesh.TriMesh, pose geom.Pose, b collide.Budget, r, full Result, lo, hi float64) {
	t.Helper()
	if b.Tests > 0 && r.Stats.Tests > b.Tests {
		t.Fatalf("%s, budget %+v: %d tests", name, b, r.Stats.Tests)
	}
	if !b.Deadline.IsZero() && (r.Stats.Tests != 0 || !r.Stopped) {
		t.Fatalf("%s: a deadline past: %d tests, stopped %v", name, r.Stats.Tests, r.Stopped)
	}
	if !r.Stopped && (r.Lower != full.Lower || r.Upper != full.Upper || r.Move != full.Move) {
		t.Fatalf("%s, budget %+v: not stopped, [%v, %v] move %v; the whole search [%v, %v] move %v",
			name, b, r.Lower, r.Upper, r.Move, full.Lower, full.Upper, full.Move)
	}
	if r.Stopped && b.Tests > 0 && r.Stats.Tests != b.Tests {
		t.Fatalf("%s, budget %+v: stopped after %d tests", name, b, r.Stats.Tests)
	}
	checkResult(t, name, env, fly, pose, r)
	if math.IsInf(r.Upper, 1) {
		t.Fatalf("%s, budget %+v: no Upper", name, b)
	}
	tol := 1e-9 * (1 + hi)
	if r.Lower > hi+tol || r.Upper < lo-tol {
		t.Fatalf("%s, budget %+v: [%v, %v] misses the depth's bounds [%v, %v]", name, b, r.Lower, r.Upper, lo, hi)
	}
	if r.Exact && math.Abs(r.Lower-lo) > tol {
		t.Fatalf("%s, budget %+v: exact Lower %v, the depth %v", name, b, r.Lower, lo)
	}
}

// TestBudgetConvex runs the convex oracle scenes within small budgets:
// the interval holds the Minkowski oracle's depth.
func TestBudgetConvex(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	stopped := 0
	for it := 0; it < 30; it++ {
		scale := math.Pow(10, float64(rng.IntN(5)-2))
		env := hullMesh(rng, 12+rng.IntN(30), scale, geom.Vec3{})
		fly := gen.Must(gen.Icosphere(geom.Vec3{}, scale*(0.3+rng.Float64()), 80))
		pose := randomPose(rng, 1.5*scale)
		em, fm := build(t, env), build(t, fly)
		full, err := Translation(em, fm, pose, Options{})
		if err != nil {
			t.Fatal(err)
		}
		want := minkowskiPD(meshPoints(env, geom.Identity()), meshPoints(fly, pose))
		for _, b := range budgets {
			r, err := Translation(em, fm, pose, Options{Budget: b})
			if err != nil {
				t.Fatal(err)
			}
			if r.Stopped {
				stopped++
			}
			checkBudgeted(t, "convex", env, fly, pose, b, r, full, want, want)
		}
	}
	if stopped < 30 {
		t.Errorf("only %d budgeted searches stopped", stopped)
	}
}

// TestBudgetNonConvex runs the non-convex oracle scenes within small
// budgets: the interval holds the whole search's Lower (certified: a
// point inside both solids) and the translations it certifies.
func TestBudgetNonConvex(t *testing.T) {
	cases := nonConvexCases()
	one := geom.V(1, 1, 1)
	cases = append(cases, struct {
		name     string
		env, fly *mesh.TriMesh
		pose     geom.Pose
	}{"boxes apart", boxMesh(geom.Vec3{}, one), boxMesh(geom.Vec3{}, one), geom.Translation(geom.V(0, 0, 1.5))},
		struct {
			name     string
			env, fly *mesh.TriMesh
			pose     geom.Pose
		}{"torus and ball in its hole", gen.Must(gen.Torus(geom.Vec3{}, 2, 0.5, 200)), gen.Must(gen.Icosphere(geom.Vec3{}, 1, 80)), geom.Identity()})
	for _, c := range cases {
		em, fm := build(t, c.env), build(t, c.fly)
		full, err := Translation(em, fm, c.pose, Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range budgets {
			r, err := Translation(em, fm, c.pose, Options{Budget: b})
			if err != nil {
				t.Fatal(err)
			}
			if b.Tests > 0 && full.Stats.Tests > b.Tests && !r.Stopped {
				t.Errorf("%s: %d tests of the %d of the whole search: not stopped: %+v", c.name, b.Tests, full.Stats.Tests, r)
			}
			checkBudgeted(t, c.name, c.env, c.fly, c.pose, b, r, full, full.Lower, full.Upper)
			if r.Lower > 0 && !r.Exact {
				sa, sb := newSolid(placedTris(c.env, geom.Identity())), newSolid(placedTris(c.fly, c.pose))
				dA, _ := sa.Distance(r.Witness)
				dB, _ := sb.Distance(r.Witness)
				if !sa.Contains(r.Witness) || !sb.Contains(r.Witness) || dA+dB < r.Lower {
					t.Fatalf("%s, budget %+v: witness %v does not certify Lower %v", c.name, b, r.Witness, r.Lower)
				}
			}
		}
	}
}

// TestBudgetLarge checks that a budget the search does not run out of
// changes nothing.
func TestBudgetLarge(t *testing.T) {
	for _, c := range nonConvexCases()[:3] {
		em, fm := build(t, c.env), build(t, c.fly)
		full, err := Translation(em, fm, c.pose, Options{})
		if err != nil {
			t.Fatal(err)
		}
		r, err := Translation(em, fm, c.pose, Options{Budget: collide.Budget{Tests: 1 << 40, Deadline: time.Now().Add(time.Hour)}})
		if err != nil {
			t.Fatal(err)
		}
		if r.Stopped || r.Lower != full.Lower || r.Upper != full.Upper || r.Move != full.Move || r.Stats != full.Stats {
			t.Errorf("%s: with a large budget %+v, without %+v", c.name, r, full)
		}
	}
}
