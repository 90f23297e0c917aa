package bvh

import (
	"math/rand/v2"
	"runtime"
	"runtime/debug"
	"slices"
	"testing"

	"github.com/collide3d/collide/bv"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh"
	"github.com/collide3d/collide/mesh/gen"
)

// mallocs returns the number of heap allocations f makes, once (unlike
// testing.AllocsPerRun, which runs f once before it counts), with
// GOMAXPROCS 1 as AllocsPerRun does, so that other goroutines do not add
// theirs.
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

// TestPrepare checks that Scratch.Prepare builds ahead what the first
// query of a pair of trees would build (the flying view for the
// environment's k, the convex hull of ExactRoot), that the first query
// after it allocates nothing, for every kind and both modes, and that it
// finds the pairs a query with a new scratch finds.
func TestPrepare(t *testing.T) {
	env := gen.Must(gen.Tetrahedra(300, geom.AABB{Max: geom.Vec3{X: 16, Y: 16, Z: 16}}, 0.8, 3))
	fly := gen.Must(gen.Torus(geom.Vec3{}, 1, 0.3, 1500))
	rng := rand.New(rand.NewPCG(5, 6))
	poses := make([]geom.Pose, 8)
	for i := range poses {
		q := geom.Quat{W: rng.NormFloat64(), X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}.Unit()
		poses[i] = geom.Pose{R: q.Mat3(), T: geom.Vec3{X: 2 + 12*rng.Float64(), Y: 2 + 12*rng.Float64(), Z: 2 + 12*rng.Float64()}}
	}
	tests := []struct {
		name     string
		env, fly Options
		o        QueryOptions
	}{
		{"kdop18", Options{K: bv.K18}, Options{K: bv.K18}, QueryOptions{}},
		{"kdop18 float64", Options{K: bv.K18, Float64: true}, Options{K: bv.K18, Float64: true}, QueryOptions{}},
		{"kdop6 in kdop26", Options{K: bv.K26}, Options{K: bv.K6}, QueryOptions{}},
		{"kdop14 leaf 4", Options{K: bv.K14, Leaf: 4}, Options{K: bv.K14, Leaf: 4}, QueryOptions{}},
		{"kdop18 restart", Options{K: bv.K18}, Options{K: bv.K18}, QueryOptions{Restart: true}},
		{"kdop18 exact root", Options{K: bv.K18}, Options{K: bv.K18}, QueryOptions{ExactRoot: true}},
		{"obb", Options{Kind: OBB}, Options{Kind: OBB}, QueryOptions{}},
		{"obb leaf 3", Options{Kind: OBB, Leaf: 3}, Options{Kind: OBB, Leaf: 3}, QueryOptions{}},
		{"sphere", Options{Kind: Sphere}, Options{Kind: Sphere}, QueryOptions{}},
		{"aabb", Options{Kind: AABB}, Options{Kind: AABB}, QueryOptions{}},
		{"rss", Options{Kind: RSS}, Options{Kind: RSS}, QueryOptions{}},
		{"boxtree", Options{Kind: BoxTree}, Options{Kind: BoxTree}, QueryOptions{}},
		{"obb eps", Options{Kind: OBB}, Options{Kind: OBB}, QueryOptions{Eps: 0.05}},
	}
	for _, tc := range tests {
		for _, all := range []bool{false, true} {
			name := tc.name + map[bool]string{false: ", first contact", true: ", all pairs"}[all]
			t.Run(name, func(t *testing.T) {
				et, err := Build(env, tc.env)
				if err != nil {
					t.Fatal(err)
				}
				ft, err := Build(fly, tc.fly)
				if err != nil {
					t.Fatal(err)
				}
				o := tc.o
				o.All = all
				var s Scratch
				s.Prepare(et, ft, o)
				if ft.opts.Kind == KDOP {
					v := ft.views[et.opts.K]
					switch {
					case v == nil:
						t.Fatalf("no flying view for %v after Prepare", et.opts.K)
					case o.ExactRoot && v.hull == nil:
						t.Error("no convex hull after Prepare with ExactRoot")
					case len(ft.views) != 1:
						t.Errorf("%d flying views, want 1", len(ft.views))
					}
				}
				hit := 0
				for i, p := range poses {
					got := make([]Pair, 0, 1<<14)
					collect := func(q Pair) bool { got = append(got, q); return true }
					var st Stats
					n := mallocs(func() { st = Collide(et, ft, p, o, &s, collect) })
					if n != 0 {
						t.Errorf("pose %d: the query after Prepare made %d allocations, want 0", i, n)
					}
					var want []Pair
					wst := Collide(et, ft, p, o, nil, func(q Pair) bool { want = append(want, q); return true })
					if !slices.Equal(got, want) || st != wst {
						t.Fatalf("pose %d: prepared %v %+v, new scratch %v %+v", i, got, st, want, wst)
					}
					if len(got) > 0 {
						hit++
					}
				}
				if hit == 0 || hit == len(poses) {
					t.Errorf("%d of %d poses in contact: the test wants both kinds", hit, len(poses))
				}
			})
		}
	}
}

// TestPrepareMismatch checks that Prepare does nothing for trees that
// cannot fly together, nor for a pair it cannot place apart, beyond the
// flying view.
func TestPrepareMismatch(t *testing.T) {
	m := gen.Must(gen.Icosphere(geom.Vec3{}, 1, 80))
	k, err := Build(m, Options{K: bv.K18})
	if err != nil {
		t.Fatal(err)
	}
	o, err := Build(m, Options{Kind: OBB})
	if err != nil {
		t.Fatal(err)
	}
	var s Scratch
	s.Prepare(o, k, QueryOptions{})
	s.Prepare(k, o, QueryOptions{})
	if s.dop != nil || s.move != nil || s.box != nil || len(k.views) != 0 {
		t.Error("Prepare of trees of different kinds prepared something")
	}
	huge := gen.Must(gen.Icosphere(geom.Vec3{X: 1e308}, 1e307, 80))
	h, err := Build(huge, Options{K: bv.K18})
	if err != nil {
		t.Fatal(err)
	}
	s.Prepare(k, h, QueryOptions{})
	if s.dop != nil || h.views[bv.K18] == nil {
		t.Error("Prepare of a model beyond any far pose: want the view alone")
	}
}

// TestPrepareOneTriangle checks Prepare on trees whose root is a leaf, of
// every kind: the query after it allocates nothing and finds the pair.
func TestPrepareOneTriangle(t *testing.T) {
	m := &mesh.TriMesh{Verts: []geom.Vec3{{}, {X: 1}, {Y: 1}}, Tris: [][3]int32{{0, 1, 2}}}
	for _, o := range []Options{{K: bv.K18}, {K: bv.K6}, {Kind: OBB}, {Kind: Sphere}, {Kind: AABB}, {Kind: RSS}, {Kind: BoxTree}} {
		tr, err := Build(m, o)
		if err != nil {
			t.Fatal(err)
		}
		var s Scratch
		s.Prepare(tr, tr, QueryOptions{All: true})
		got := make([]Pair, 0, 4)
		p := geom.Pose{R: geom.Mat3{{0, -1, 0}, {1, 0, 0}, {0, 0, 1}}}
		if n := mallocs(func() {
			Collide(tr, tr, p, QueryOptions{All: true}, &s, func(q Pair) bool { got = append(got, q); return true })
		}); n != 0 || len(got) != 1 {
			t.Errorf("%v: %d allocations, pairs %v; want 0 and one pair", o.Kind, n, got)
		}
	}
}
