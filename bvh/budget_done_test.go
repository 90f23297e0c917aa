package bvh_test

import (
	"testing"

	"github.com/collide3d/collide/bvh"
	"github.com/collide3d/collide/ccd"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh/gen"
)

// TestBudgetDone checks Budget.Done, the channel a context closes: closed
// before the query, it stops a contact query within its first chunk of
// pairs (Pending then not done, and resuming finishes it with every pair),
// a distance query (Stopped, with a lower bound no larger than the
// distance) and a continuous one (Stopped, nothing proved); open, it
// changes no answer.
func TestBudgetDone(t *testing.T) {
	torus := must(gen.Torus(geom.Vec3{}, 1, 0.3, 2000))
	env, fly := must(bvh.Build(torus, bvh.Options{})), must(bvh.Build(torus, bvh.Options{}))
	closed := make(chan struct{})
	close(closed)
	open := make(chan struct{})

	pose := geom.FromAxisAngle(geom.V(1, 0, 0), 0.01, geom.V(0.001, 0, 0))
	want, _ := collect(env, fly, pose, bvh.QueryOptions{All: true}, nil)
	var pd bvh.Pending
	var got [][2]int32
	fn := func(x bvh.Pair) bool { got = append(got, [2]int32{x.Env, x.Fly}); return true }
	st := bvh.Collide(env, fly, pose, bvh.QueryOptions{All: true, Budget: bvh.Budget{Done: closed}, Pending: &pd}, nil, fn)
	if pd.Done() || st.BVTests > 256 {
		t.Fatalf("a closed Done left done=%v after %d tests", pd.Done(), st.BVTests)
	}
	pd.Resume(nil, bvh.Budget{}, fn)
	if !pd.Done() || len(got) != len(want) {
		t.Fatalf("resumed: done=%v, %d pairs, want %d", pd.Done(), len(got), len(want))
	}
	got = got[:0]
	bvh.Collide(env, fly, pose, bvh.QueryOptions{All: true, Budget: bvh.Budget{Done: open}, Pending: &pd}, nil, fn)
	if !pd.Done() || len(got) != len(want) {
		t.Fatalf("an open Done: done=%v, %d pairs, want %d", pd.Done(), len(got), len(want))
	}

	apart := geom.Translation(geom.V(0.2, 0.1, 0.75))
	full := bvh.Distance(env, fly, apart, bvh.DistanceOptions{}, nil)
	r := bvh.Distance(env, fly, apart, bvh.DistanceOptions{Budget: bvh.Budget{Done: closed}}, nil)
	if full.Stopped || !r.Stopped || r.Far || r.Lower > full.Distance || r.Distance < full.Distance {
		t.Fatalf("distance: without: %+v; closed Done: %+v", full, r)
	}
	if n := r.Stats.BVTests + r.Stats.LeafTests + r.Stats.TriTests; n > 2*256 {
		t.Errorf("distance: %d tests after a closed Done", n)
	}
	if r := bvh.Distance(env, fly, apart, bvh.DistanceOptions{Budget: bvh.Budget{Done: open}}, nil); r.Stopped || r.Distance != full.Distance {
		t.Errorf("distance: an open Done: %+v, want %+v", r, full)
	}

	m := ccd.Motion{From: geom.Translation(geom.V(0, 0, 2)), To: geom.FromAxisAngle(geom.V(1, 1, 0), 0.5, geom.V(0.1, 0, 0))}
	tfull := bvh.TimeOfImpact(env, fly, m, bvh.TOIOptions{}, nil)
	tr := bvh.TimeOfImpact(env, fly, m, bvh.TOIOptions{Budget: bvh.Budget{Done: closed}}, nil)
	if tfull.Stopped || !tfull.Hit || !tr.Stopped || tr.Hit || tr.Maybe || tr.TOI != (ccd.Interval{Lo: 0, Hi: 1}) {
		t.Fatalf("time of impact: without: %+v; closed Done: %+v", tfull, tr)
	}
	if tr := bvh.TimeOfImpact(env, fly, m, bvh.TOIOptions{Budget: bvh.Budget{Done: open}}, nil); tr.Stopped || tr.Hit != tfull.Hit || tr.TOI != tfull.TOI || tr.Pair != tfull.Pair {
		t.Errorf("time of impact: an open Done: %+v, want %+v", tr, tfull)
	}
	if (bvh.Budget{Done: open}).IsZero() {
		t.Error("a Budget with only Done is zero")
	}
}
