package collide_test

import (
	"math"
	"runtime"
	"testing"
	"time"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/internal/threadcpu"
)

// BenchmarkCheckCPU times Query.Check on the torus scene (64 poses, first
// contact and every pair) in the thread's CPU time, the least over passes
// of the 64 poses: cpu-ns/query. It compares the plain query before and
// after a change on a shared machine (the Contacts rows measure their
// cost).
func BenchmarkCheckCPU(b *testing.B) {
	env, fly, poses := torusScene(b, collide.BVDefault)
	for _, c := range []struct {
		name string
		o    collide.QueryOptions
	}{
		{"first", collide.QueryOptions{}},
		{"all", collide.QueryOptions{All: true}},
		{"all-contacts", collide.QueryOptions{All: true, Contacts: true}},
		{"all-patches", collide.QueryOptions{All: true, Patches: true}},
	} {
		b.Run(c.name, func(b *testing.B) {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			var q collide.Query
			pass := func() {
				for _, p := range poses {
					if _, err := q.Check(env, fly, p, c.o); err != nil {
						b.Fatal(err)
					}
				}
			}
			pass()
			b.ReportAllocs()
			best := time.Duration(math.MaxInt64)
			for b.Loop() {
				t0, _ := threadcpu.Now()
				pass()
				t1, _ := threadcpu.Now()
				best = min(best, t1-t0)
			}
			b.ReportMetric(float64(best.Nanoseconds())/float64(len(poses)), "cpu-ns/query")
		})
	}
}
