package collide_test

import (
	"math"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/bvh"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/internal/threadcpu"
	"github.com/collide3d/collide/mesh/gen"
)

// torusScene returns a torus and a small sphere, and poses of the sphere
// around the torus's ring, grazing and crossing its tube.
func torusScene(t testing.TB, b collide.BV) (env, fly *collide.Model, poses []geom.Pose) {
	t.Helper()
	var err error
	if env, err = collide.Build(gen.Must(gen.Torus(geom.Vec3{}, 1, 0.3, 4000)), collide.BuildOptions{BV: b}); err != nil {
		t.Fatal(err)
	}
	if fly, err = collide.Build(gen.Must(gen.Icosphere(geom.Vec3{}, 0.1, 500)), collide.BuildOptions{BV: b}); err != nil {
		t.Fatal(err)
	}
	for i := range 64 {
		a := 2 * math.Pi * float64(i) / 64
		poses = append(poses, geom.FromAxisAngle(geom.V(1, 2, 3), 5*a, geom.V(math.Cos(a), math.Sin(a), 0.2+0.15*math.Sin(3*a))))
	}
	return env, fly, poses
}

// TestQueryAllocs checks that a reused Query allocates nothing once warm, in
// both modes and with a tolerance.
func TestQueryAllocs(t *testing.T) {
	env, fly, poses := torusScene(t, collide.BVDefault)
	for _, o := range []collide.QueryOptions{
		{}, {All: true}, {All: true, Eps: 0.01},
		{All: true, Experiment: collide.Experiment{ExactRoot: true}},
		{All: true, Experiment: collide.Experiment{Restart: true}},
	} {
		var q collide.Query
		for _, p := range poses {
			mustQuery(t, &q, env, fly, p, o)
		}
		i := 0
		allocs := testing.AllocsPerRun(100, func() {
			q.Check(env, fly, poses[i%len(poses)], o)
			i++
		})
		if allocs != 0 {
			t.Errorf("%+v: %v allocations per query, want 0", o, allocs)
		}
	}
}

// TestConcurrentQueries runs queries on the same models from many
// goroutines at once (the first ones build the flying view concurrently) and
// compares each answer with the sequential one.
func TestConcurrentQueries(t *testing.T) {
	for _, name := range []collide.BV{collide.KDOP14, collide.BVDefault} {
		env, fly, poses := torusScene(t, name)
		// Fresh models: the flying view is built by the racing goroutines.
		want := make([][]collide.Pair, len(poses))
		{
			e2, f2, _ := torusScene(t, name)
			for i, p := range poses {
				want[i] = mustCheck(t, e2, f2, p, collide.QueryOptions{All: true}).Pairs
			}
		}
		var wg sync.WaitGroup
		errs := make(chan collide.BV, 8*len(poses))
		for g := range 8 {
			wg.Go(func() {
				var q collide.Query
				for j := range poses {
					i := (j + g*7) % len(poses)
					var res collide.Result
					var err error
					if g%2 == 0 {
						res, err = collide.Check(env, fly, poses[i], collide.QueryOptions{All: true})
					} else {
						res, err = q.Check(env, fly, poses[i], collide.QueryOptions{All: true})
					}
					if err != nil || !slices.Equal(res.Pairs, want[i]) {
						errs <- name
					}
				}
			})
		}
		wg.Wait()
		close(errs)
		for e := range errs {
			t.Errorf("%s: a concurrent query differs from the sequential one", e)
			break
		}
	}
}

// BenchmarkCheck times Query.Check on the torus scene, first contact, for
// the default bounding volume: the facade's cost above the tree's.
func BenchmarkCheck(b *testing.B) {
	env, fly, poses := torusScene(b, collide.BVDefault)
	var q collide.Query
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if _, err := q.Check(env, fly, poses[i%len(poses)], collide.QueryOptions{}); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

// BenchmarkCheckPose times the check every query makes of its pose.
func BenchmarkCheckPose(b *testing.B) {
	_, fly, poses := torusScene(b, collide.BVDefault)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if err := fly.CheckPose(poses[i%len(poses)]); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

// BenchmarkCheckFar times a query with nothing near (the flying model 1,000
// units away), for each bounding volume, through the facade (Query.Check;
// with a Front; Query.CollideFunc, as a world's narrow phase calls it) and
// through bvh.Collide: the fixed cost of a query. Each iteration is a pass
// of 1,000 queries timed in the thread's CPU time; cpu-ns/query is the
// least over the passes.
func BenchmarkCheckFar(b *testing.B) {
	for _, name := range []string{"kdop18", "obb", "aabb", "rss", "sphere"} {
		bvk, err := collide.ParseBV(name)
		if err != nil {
			b.Fatal(err)
		}
		env, fly, _ := torusScene(b, bvk)
		far := geom.FromAxisAngle(geom.V(1, 2, 3), 0.3, geom.V(1000, 0, 0))
		var q collide.Query
		var s bvh.Scratch
		var front collide.Front
		fn := func(bvh.Pair) bool { return true }
		each := func(collide.Pair) bool { return true }
		for _, via := range []string{"check", "front", "func", "bvh"} {
			query := func() {
				switch via {
				case "bvh":
					bvh.Collide(env.Tree(), fly.Tree(), far, bvh.QueryOptions{}, &s, fn)
				case "func":
					if st, err := q.CollideFunc(env, geom.Pose{}, fly, far, collide.QueryOptions{}, each); err != nil || st.TriTests != 0 {
						b.Fatal(st, err)
					}
				default:
					o := collide.QueryOptions{}
					if via == "front" {
						o.Front = &front
					}
					if r, err := q.Check(env, fly, far, o); err != nil || r.Collide {
						b.Fatal(r, err)
					}
				}
			}
			b.Run(name+"/"+via, func(b *testing.B) {
				runtime.LockOSThread()
				defer runtime.UnlockOSThread()
				query()
				b.ReportAllocs()
				best := time.Duration(math.MaxInt64)
				for b.Loop() {
					t0, _ := threadcpu.Now()
					for range 1000 {
						query()
					}
					t1, _ := threadcpu.Now()
					best = min(best, t1-t0)
				}
				b.ReportMetric(float64(best.Nanoseconds())/1000, "cpu-ns/query")
			})
		}
	}
}

// TestQueryStatsFresh checks that a query's counts are its own: a reused
// Query, told to Forget, counts what a fresh one counts, through Check and
// CollideFunc alike, query after query (nothing carried over from the
// last), for trees and brute force, both modes, a tolerance and the
// convex test.
func TestQueryStatsFresh(t *testing.T) {
	far := geom.FromAxisAngle(geom.V(1, 2, 3), 0.3, geom.V(1000, 0, 0))
	fn := func(collide.Pair) bool { return true }
	for _, name := range []string{"kdop18", "obb", "brute"} {
		bvk, err := collide.ParseBV(name)
		if err != nil {
			t.Fatal(err)
		}
		env, fly, poses := torusScene(t, bvk)
		poses = append(poses[:0:0], poses[0], poses[5], poses[21], poses[40], far)
		var q, qf collide.Query
		for _, o := range []collide.QueryOptions{
			{}, {All: true}, {All: true, Eps: 0.01},
			{Method: collide.MethodConvex}, {All: true, Method: collide.MethodConvex},
		} {
			if bvk == collide.Brute && (o.Eps > 0 || o.Method != collide.MethodAuto) {
				continue // brute force counts the same way for these: keep the test fast
			}
			for i, p := range poses {
				want := mustQuery(t, new(collide.Query), env, fly, p, o).Stats
				for rep := range 2 {
					q.Forget()
					if got := mustQuery(t, &q, env, fly, p, o).Stats; got != want {
						t.Errorf("%s %+v pose %d, query %d: Check counts %v, a fresh Query %v", name, o, i, rep, got, want)
					}
					qf.Forget()
					got, err := qf.CollideFunc(env, geom.Pose{}, fly, p, o, fn)
					if err != nil {
						t.Fatal(err)
					}
					if got != want {
						t.Errorf("%s %+v pose %d, query %d: CollideFunc counts %v, a fresh Query %v", name, o, i, rep, got, want)
					}
				}
			}
		}
	}
}
