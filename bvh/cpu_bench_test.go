package bvh_test

import (
	"runtime"
	"testing"
	"time"

	"github.com/collide3d/collide/bvh"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/internal/threadcpu"
	"github.com/collide3d/collide/mesh/gen"
)

// threadCPU returns the CPU time of the calling thread.
func threadCPU() time.Duration {
	d, _ := threadcpu.Now()
	return d
}

// BenchmarkQueryCPU runs the all-pairs queries of BenchmarkQuery for the
// kinds other than k-DOPs (and 18-DOPs, for reference), each iteration a
// pass over 250 poses timed in the thread's CPU time, which waiting for a
// processor does not inflate, and reports the least time per query over
// the passes (cpu-ns/query): a figure that compares builds on a busy
// machine, where ns/op swings by tens of percent. first-hint keeps a
// PairState over the orbit, as collide.Query does: each first-contact
// query tests the last one's pair first.
func BenchmarkQueryCPU(b *testing.B) {
	envM := gen.Must(gen.Torus(geom.Vec3{}, 1, 0.3, 20000))
	flyM := gen.Must(gen.Icosphere(geom.Vec3{}, 0.1, 2000))
	poses := orbit(1000)
	for _, o := range []bvh.Options{{Kind: bvh.OBB}, {Kind: bvh.Sphere}, {Kind: bvh.AABB}, {Kind: bvh.RSS}, {}} {
		env := mustBuild(b, envM, o)
		fly := mustBuild(b, flyM, o)
		for _, mode := range []string{"", "/first", "/first-hint"} {
			b.Run(o.Kind.String()+mode, func(b *testing.B) {
				runtime.LockOSThread()
				defer runtime.UnlockOSThread()
				q := bvh.QueryOptions{All: mode == ""}
				if mode == "/first-hint" {
					q.State = new(bvh.PairState) // the last contact first
				}
				var s bvh.Scratch
				fn := func(bvh.Pair) bool { return true }
				for _, p := range poses {
					bvh.Collide(env, fly, p, q, &s, fn)
				}
				const pass = 250
				best := time.Duration(1<<63 - 1)
				i := 0
				for b.Loop() {
					t0 := threadCPU()
					for range pass {
						bvh.Collide(env, fly, poses[i%len(poses)], q, &s, fn)
						i++
					}
					best = min(best, threadCPU()-t0)
				}
				b.ReportMetric(float64(best.Nanoseconds())/pass, "cpu-ns/query")
			})
		}
	}
}
