package collide_test

import (
	"bytes"
	"errors"
	"math"
	"runtime"
	"runtime/debug"
	"slices"
	"testing"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/bvh"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh/gen"
)

// mallocs returns the number of heap allocations f makes, counting its
// first run (testing.AllocsPerRun runs f once before it counts), with
// GOMAXPROCS 1 as AllocsPerRun does.
//
// The collector is off while f runs, after a collection that ends any
// cycle under way: MemStats.Mallocs counts the runtime's own allocations
// too (a mark worker's), which a cycle could make while f runs.
func mallocs(f func()) uint64 {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	before := ms.Mallocs
	f()
	runtime.ReadMemStats(&ms)
	return ms.Mallocs - before
}

// saveLoad returns m saved and read back.
func saveLoad(t *testing.T, m *collide.Model) *collide.Model {
	t.Helper()
	var buf bytes.Buffer
	if err := m.Save(&buf); err != nil {
		t.Fatal(err)
	}
	l, err := collide.ReadModel(&buf)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// TestQueryPrepare checks that after Query.Prepare the first query
// allocates nothing (every volume, both modes, models built or loaded from
// saved ones), that a k-DOP flying model has its flying view for the
// environment's k before any query, and that prepared queries answer as
// collide.Check does on the built models.
func TestQueryPrepare(t *testing.T) {
	tests := []struct {
		env, fly collide.BV
		o        collide.QueryOptions
	}{
		{collide.KDOP18, collide.KDOP18, collide.QueryOptions{}},
		{collide.KDOP18, collide.KDOP18, collide.QueryOptions{All: true}},
		{collide.KDOP18, collide.KDOP14, collide.QueryOptions{All: true}},
		{collide.KDOP26, collide.KDOP6, collide.QueryOptions{}},
		{collide.KDOP18, collide.KDOP18, collide.QueryOptions{All: true, Experiment: collide.Experiment{ExactRoot: true}}},
		{collide.KDOP18, collide.KDOP18, collide.QueryOptions{All: true, Experiment: collide.Experiment{Restart: true}}},
		{collide.KDOP18, collide.KDOP18, collide.QueryOptions{All: true, Eps: 0.01}},
		{collide.OBB, collide.OBB, collide.QueryOptions{}},
		{collide.OBB, collide.OBB, collide.QueryOptions{All: true, Eps: 0.01}},
		{collide.Sphere, collide.Sphere, collide.QueryOptions{All: true}},
		{collide.AABB, collide.AABB, collide.QueryOptions{All: true}},
		{collide.RSS, collide.RSS, collide.QueryOptions{All: true}},
		{collide.BoxTree, collide.BoxTree, collide.QueryOptions{All: true}},
		{collide.KDOP18, collide.KDOP18, collide.QueryOptions{All: true, MaxPairs: 3}},
	}
	torus := gen.Must(gen.Torus(geom.Vec3{}, 1, 0.3, 4000))
	ball := gen.Must(gen.Icosphere(geom.Vec3{}, 0.1, 500))
	_, _, poses := torusScene(t, collide.BVDefault)
	for _, tc := range tests {
		env, err := collide.Build(torus, collide.BuildOptions{BV: tc.env})
		if err != nil {
			t.Fatal(err)
		}
		fly, err := collide.Build(ball, collide.BuildOptions{BV: tc.fly})
		if err != nil {
			t.Fatal(err)
		}
		for _, loaded := range []bool{false, true} {
			name := tc.env.String() + "/" + tc.fly.String()
			if loaded {
				name += "/loaded"
			}
			t.Run(name, func(t *testing.T) {
				e, f := env, fly
				if loaded {
					e, f = saveLoad(t, env), saveLoad(t, fly)
				} else {
					// New models, so that the view is not there from
					// an earlier run.
					e, _ = collide.Build(torus, collide.BuildOptions{BV: tc.env})
					f, _ = collide.Build(ball, collide.BuildOptions{BV: tc.fly})
				}
				// plain runs the same queries unprepared: a Query keeps
				// the pair's last first contact, which collide.Check's
				// pooled queries do not.
				var q, plain collide.Query
				if err := q.Prepare(e, f, tc.o); err != nil {
					t.Fatal(err)
				}
				if f.Tree() != nil && f.Tree().Kind() == bvh.KDOP && f.Tree().FlyingBytes() == 0 {
					t.Error("no flying view after Prepare")
				}
				for i, p := range poses {
					var got collide.Result
					n := mallocs(func() {
						if got, err = q.Check(e, f, p, tc.o); err != nil {
							t.Fatal(err)
						}
					})
					if n != 0 && i == 0 {
						t.Errorf("the first query after Prepare made %d allocations, want 0", n)
					}
					want := mustQuery(t, &plain, env, fly, p, tc.o)
					if got.Collide != want.Collide || !slices.Equal(got.Pairs, want.Pairs) || got.Truncated != want.Truncated || got.Stats != want.Stats {
						t.Fatalf("pose %d: prepared %+v, unprepared %+v", i, got, want)
					}
				}
			})
		}
	}
}

// TestQueryPrepareErrors checks that Prepare reports what the queries
// would, and that brute-force models and huge coordinates (where no pose
// places the flying model far away) prepare and answer.
func TestQueryPrepareErrors(t *testing.T) {
	ball := gen.Must(gen.Icosphere(geom.Vec3{}, 1, 80))
	build := func(m *geom.Vec3, b collide.BV) *collide.Model {
		mm := ball
		if m != nil {
			mm = gen.Must(gen.Icosphere(*m, 1e306, 80))
		}
		md, err := collide.Build(mm, collide.BuildOptions{BV: b})
		if err != nil {
			t.Fatal(err)
		}
		return md
	}
	k18, obb := build(nil, collide.KDOP18), build(nil, collide.OBB)
	var q collide.Query
	for _, tc := range []struct {
		name     string
		env, fly *collide.Model
		o        collide.QueryOptions
	}{
		{"nil environment", nil, k18, collide.QueryOptions{}},
		{"nil flying model", k18, nil, collide.QueryOptions{}},
		{"unbuilt", k18, &collide.Model{}, collide.QueryOptions{}},
		{"incompatible", k18, obb, collide.QueryOptions{}},
		{"negative tolerance", k18, k18, collide.QueryOptions{Eps: -1}},
		{"NaN tolerance", k18, k18, collide.QueryOptions{Eps: math.NaN()}},
		{"negative MaxPairs", k18, k18, collide.QueryOptions{MaxPairs: -1}},
	} {
		if err := q.Prepare(tc.env, tc.fly, tc.o); !errors.Is(err, collide.ErrInvalidQuery) {
			t.Errorf("%s: %v, want ErrInvalidQuery", tc.name, err)
		}
	}
	huge := geom.Vec3{X: 1e307}
	for _, tc := range []struct {
		name     string
		env, fly *collide.Model
	}{
		{"brute force", build(nil, collide.Brute), build(nil, collide.Brute)},
		{"huge coordinates", build(&huge, collide.KDOP18), build(&huge, collide.KDOP18)},
		{"huge OBB", build(&huge, collide.OBB), build(&huge, collide.OBB)},
	} {
		if err := q.Prepare(tc.env, tc.fly, collide.QueryOptions{All: true}); err != nil {
			t.Errorf("%s: %v", tc.name, err)
		}
		r, err := q.Check(tc.env, tc.fly, geom.Identity(), collide.QueryOptions{All: true})
		if err != nil || !r.Collide {
			t.Errorf("%s: %+v, %v; want contact at the identity", tc.name, r, err)
		}
	}
}
