package collide_test

import (
	"bytes"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/internal/testgeom"
	"github.com/collide3d/collide/mesh"
	"github.com/collide3d/collide/mesh/gen"
)

// tris returns the triangles of m, moved by d.
func tris(m *mesh.TriMesh, d geom.Vec3) []geom.Triangle {
	ts := make([]geom.Triangle, len(m.Tris))
	for i := range ts {
		tr := m.Triangle(i)
		for j := range tr {
			tr[j] = tr[j].Add(d)
		}
		ts[i] = tr
	}
	return ts
}

// editSteps returns a sequence of edits of a model of the torus m (n
// triangles after each): scattered deletions and insertions, a region
// replaced by a finer patch, a part far outside, all but one triangle
// deleted, and the torus back far from the origin.
func editSteps(rng *rand.Rand, m *mesh.TriMesh) []func(*mesh.TriMesh) collide.Edit {
	return []func(*mesh.TriMesh) collide.Edit{
		func(c *mesh.TriMesh) collide.Edit {
			var e collide.Edit
			for _, i := range rng.Perm(len(c.Tris))[:len(c.Tris)/8] {
				e.Delete = append(e.Delete, int32(i))
			}
			e.Insert = tris(gen.Must(gen.Icosphere(geom.V(1, 0, 0.2), 0.25, 80)), geom.Vec3{})
			return e
		},
		func(c *mesh.TriMesh) collide.Edit {
			var e collide.Edit
			for i := range c.Tris {
				if c.Triangle(i)[0].X > 0.6 {
					e.Delete = append(e.Delete, int32(i))
				}
			}
			e.Insert = tris(gen.Must(gen.Torus(geom.V(1, 0, 0), 0.3, 0.1, 300)), geom.Vec3{})
			return e
		},
		func(*mesh.TriMesh) collide.Edit {
			return collide.Edit{Insert: tris(gen.Must(gen.Icosphere(geom.V(40, 0, 0), 1, 80)), geom.Vec3{})}
		},
		func(c *mesh.TriMesh) collide.Edit {
			var e collide.Edit
			keep := rng.IntN(len(c.Tris))
			for i := range c.Tris {
				if i != keep {
					e.Delete = append(e.Delete, int32(i))
				}
			}
			return e
		},
		func(*mesh.TriMesh) collide.Edit {
			return collide.Edit{Insert: slices.Concat(tris(m, geom.Vec3{}), tris(m, geom.V(1e6, -3e6, 2e6)))}
		},
	}
}

// TestModelEdit edits a torus through a sequence of edits for every
// volume and checks after each: both modes against the oracle over the
// edited mesh, with and without a tolerance, a query through a Front and a
// PairState held from the old model, the distance against a built
// model's, a save and read of the edited model, the map of indices, and
// that the old model still answers as before.
func TestModelEdit(t *testing.T) {
	torus := gen.Must(gen.Torus(geom.Vec3{}, 1, 0.3, 600))
	flyM := gen.Must(gen.Icosphere(geom.Vec3{}, 0.3, 80))
	rng := rand.New(rand.NewPCG(36, 1))
	hits, misses := 0, 0
	for _, o := range refitOptions() {
		env, err := collide.Build(torus, o)
		if err != nil {
			t.Fatal(err)
		}
		fly, err := collide.Build(flyM, o)
		if err != nil {
			t.Fatal(err)
		}
		flyBuilt, err := collide.Build(flyM, collide.BuildOptions{})
		if err != nil {
			t.Fatal(err)
		}
		var front collide.Front
		var q collide.Query
		for si, step := range editSteps(rng, torus) {
			e := step(env.Mesh())
			poses := []geom.Pose{
				geom.FromAxisAngle(geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()), rng.Float64()*6.3, geom.V(1, 0.1*rng.NormFloat64(), 0)),
				geom.FromAxisAngle(geom.V(0, 0, 1), rng.Float64(), geom.V(40.5+rng.Float64(), 0, 0)),
				geom.FromAxisAngle(geom.V(1, 0, 0), rng.Float64(), geom.V(1e6+1, -3e6, 2e6)),
			}
			oldWant := make([][][2]int32, len(poses))
			for pi, p := range poses {
				oldWant[pi] = editPairs(mustCheck(t, env, fly, p, collide.QueryOptions{All: true}))
				// The front and the state are the old model's now.
				mustQuery(t, &q, env, fly, p, collide.QueryOptions{All: true, Front: &front})
			}
			ne, err := env.Edit(e)
			if err != nil {
				t.Fatalf("%+v step %d: %v", o, si, err)
			}
			remap, err := e.Renumber(len(env.Mesh().Tris))
			if err != nil {
				t.Fatal(err)
			}
			nm := ne.Mesh()
			for i, x := range remap {
				if x >= 0 && nm.Triangle(int(x)) != env.Mesh().Triangle(i) {
					t.Fatalf("%+v step %d: triangle %d is %d, another triangle", o, si, i, x)
				}
			}
			if got, want := len(nm.Tris), len(env.Mesh().Tris)-len(e.Delete)+len(e.Insert); got != want {
				t.Fatalf("%+v step %d: %d triangles, want %d", o, si, got, want)
			}
			if ne.Options() != env.Options() || ne.BV() != env.BV() {
				t.Errorf("%+v step %d: options %+v, were %+v", o, si, ne.Options(), env.Options())
			}
			if tr := ne.Tree(); tr != nil {
				if err := tr.Validate(); err != nil {
					t.Fatalf("%+v step %d: %v", o, si, err)
				}
			}
			if q := ne.EditQuality(); !(q > 0) {
				t.Errorf("%+v step %d: quality %v", o, si, q)
			}
			models := []*collide.Model{ne}
			if o.BV != collide.Brute {
				var saved bytes.Buffer
				if err := ne.Save(&saved); err != nil {
					t.Fatal(err)
				}
				read, err := collide.ReadModel(&saved)
				if err != nil {
					t.Fatalf("%+v step %d: reading the edited model: %v", o, si, err)
				}
				models = append(models, read)
			}
			// The distance against a model built over the edited mesh (whose
			// distances other tests check against brute force).
			built, err := collide.Build(nm, collide.BuildOptions{})
			if err != nil {
				t.Fatal(err)
			}
			for pi, p := range poses {
				if got := editPairs(mustCheck(t, env, fly, p, collide.QueryOptions{All: true})); !slices.Equal(got, oldWant[pi]) {
					t.Fatalf("%+v step %d pose %d: the old model's answer changed", o, si, pi)
				}
				for _, eps := range []float64{0, 0.02} {
					want := testgeom.Brute(nm, flyM, p, eps)
					if len(want) > 0 {
						hits++
					} else {
						misses++
					}
					for mi, md := range models {
						if got := editPairs(mustCheck(t, md, fly, p, collide.QueryOptions{All: true, Eps: eps})); !slices.Equal(got, want) {
							t.Errorf("%+v step %d pose %d eps %g model %d: %d pairs, oracle %d", o, si, pi, eps, mi, len(got), len(want))
						}
						first := mustCheck(t, md, fly, p, collide.QueryOptions{Eps: eps})
						if first.Collide != (len(want) > 0) || first.Collide &&
							!slices.Contains(want, [2]int32{first.Pairs[0].Env, first.Pairs[0].Fly}) {
							t.Errorf("%+v step %d pose %d eps %g model %d: first contact %v, oracle %d pairs", o, si, pi, eps, mi, first.Pairs, len(want))
						}
					}
					// The Query's state and the Front were the old model's.
					if got := editPairs(mustQuery(t, &q, ne, fly, p, collide.QueryOptions{All: true, Eps: eps, Front: &front})); !slices.Equal(got, want) {
						t.Errorf("%+v step %d pose %d eps %g: with the old model's front, %d pairs, oracle %d", o, si, pi, eps, len(got), len(want))
					}
				}
				d, err := collide.Distance(ne, fly, p, collide.DistanceOptions{})
				if err != nil {
					t.Fatal(err)
				}
				bd, err := collide.Distance(built, flyBuilt, p, collide.DistanceOptions{})
				if err != nil {
					t.Fatal(err)
				}
				if math.Abs(d.Distance-bd.Distance) > d.Bound+bd.Bound {
					t.Errorf("%+v step %d pose %d: distance %v, built %v", o, si, pi, d.Distance, bd.Distance)
				}
			}
			env = ne
		}
	}
	if hits < 10 || misses < 10 {
		t.Errorf("%d poses in contact, %d apart: the scenes test too little", hits, misses)
	}
}

// editPairs returns r's pairs in order.
func editPairs(r collide.Result) [][2]int32 {
	got := make([][2]int32, len(r.Pairs))
	for i, p := range r.Pairs {
		got[i] = [2]int32{p.Env, p.Fly}
	}
	slices.SortFunc(got, func(a, b [2]int32) int {
		if a[0] != b[0] {
			return int(a[0] - b[0])
		}
		return int(a[1] - b[1])
	})
	return got
}

// TestModelEditCaches checks that an edited model computes what depends
// on its triangles again (its topology, whether it is closed and convex,
// its solid) and leaves the old model's alone.
func TestModelEditCaches(t *testing.T) {
	m := gen.Must(gen.Icosphere(geom.Vec3{}, 1, 320))
	for _, b := range []collide.BV{collide.BVDefault, collide.Brute} {
		old, err := collide.Build(m, collide.BuildOptions{BV: b})
		if err != nil {
			t.Fatal(err)
		}
		if tp := old.Topology(); !tp.Convex || !tp.Closed {
			t.Fatal("icosphere not closed and convex")
		}
		holed, err := old.Edit(collide.Edit{Delete: []int32{7}})
		if err != nil {
			t.Fatal(err)
		}
		if tp := holed.Topology(); tp.Closed || tp.Convex {
			t.Errorf("%v: holed icosphere: closed %v convex %v, want neither", b, tp.Closed, tp.Convex)
		}
		if _, err := holed.Solid(); err == nil {
			t.Errorf("%v: holed icosphere: a solid", b)
		}
		closed, err := holed.Edit(collide.Edit{Insert: []geom.Triangle{m.Triangle(7)}})
		if err != nil {
			t.Fatal(err)
		}
		if tp := closed.Topology(); !tp.Closed || !tp.Convex {
			t.Errorf("%v: icosphere closed again: closed %v convex %v", b, tp.Closed, tp.Convex)
		}
		if tp := old.Topology(); !tp.Convex || len(old.Mesh().Tris) != len(m.Tris) {
			t.Errorf("%v: the old model changed", b)
		}
	}
}

// TestModelEditErrors checks Edit's errors: they wrap ErrEdit and name the
// offending triangle.
func TestModelEditErrors(t *testing.T) {
	m := gen.Must(gen.Icosphere(geom.Vec3{}, 1, 80))
	all := make([]int32, len(m.Tris))
	for i := range all {
		all[i] = int32(i)
	}
	for _, b := range []collide.BV{collide.BVDefault, collide.OBB, collide.Brute} {
		md, err := collide.Build(m, collide.BuildOptions{BV: b})
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			e    collide.Edit
			name string
		}{
			{collide.Edit{Delete: []int32{4, -1}}, "delete 1: triangle -1 out of range"},
			{collide.Edit{Delete: []int32{int32(len(m.Tris))}}, "delete 0: triangle 80 out of range"},
			{collide.Edit{Delete: []int32{3, 5, 3}}, "delete 2: triangle 3 deleted twice"},
			{collide.Edit{Insert: []geom.Triangle{{}, {{}, {X: math.NaN()}, {}}}}, "insert 1: non-finite"},
			{collide.Edit{Delete: all}, "no triangle left"},
		} {
			nm, err := md.Edit(c.e)
			if !errors.Is(err, collide.ErrEdit) || nm != nil || !strings.Contains(err.Error(), c.name) {
				t.Errorf("%v: %v, want ErrEdit naming %q", b, err, c.name)
			}
		}
	}
	var nilModel *collide.Model
	if _, err := nilModel.Edit(collide.Edit{}); !errors.Is(err, collide.ErrInvalidQuery) {
		t.Errorf("nil model: %v", err)
	}
}

// TestModelEditConcurrent queries a model on other goroutines while it
// is edited (run with -race): its answers never change.
func TestModelEditConcurrent(t *testing.T) {
	env, fly, poses := torusScene(t, collide.BVDefault)
	want := editPairs(mustCheck(t, env, fly, poses[0], collide.QueryOptions{All: true}))
	var wg sync.WaitGroup
	stop := make(chan struct{})
	for range 2 {
		wg.Go(func() {
			var q collide.Query
			for {
				select {
				case <-stop:
					return
				default:
				}
				r, err := q.Check(env, fly, poses[0], collide.QueryOptions{All: true})
				if err != nil || !slices.Equal(editPairs(r), want) {
					t.Errorf("the old model's answer changed during an edit: %v", err)
					return
				}
			}
		})
	}
	cur := env
	for i := range 4 {
		ne, err := cur.Edit(collide.Edit{Delete: []int32{int32(i), int32(100 + i)}, Insert: tris(fly.Mesh(), geom.V(1, 0, 0))})
		if err != nil {
			t.Error(err)
			break
		}
		cur = ne
	}
	close(stop)
	wg.Wait()
}

// TestModelEditAllocs checks that warm queries on edited models allocate
// nothing.
func TestModelEditAllocs(t *testing.T) {
	env, fly, poses := torusScene(t, collide.BVDefault)
	env2, err := env.Edit(collide.Edit{Delete: []int32{1, 2, 3}, Insert: tris(fly.Mesh(), geom.V(1, 0, 0))})
	if err != nil {
		t.Fatal(err)
	}
	warmNoAllocs(t, env2, fly, poses, "edited models")
}
