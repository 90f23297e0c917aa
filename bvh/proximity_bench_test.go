//go:build scenebench

package bvh_test

import (
	"runtime"
	"testing"
	"time"

	"github.com/collide3d/collide/bench/scenes"
	"github.com/collide3d/collide/bvh"
)

// BenchmarkProximityCPU flies the full-size scenes of close proximity
// (gears in mesh and the real meshes of libcgal-demo, when installed) with
// each kind of tree, in both modes, timed as BenchmarkQueryCPU does: the
// least thread CPU time per query over passes of the scene's poses. The
// first contact runs from scratch (first) and with a PairState kept over
// the flight (first-hint: the last contact is tested first, as
// collide.Query does).
func BenchmarkProximityCPU(b *testing.B) {
	for _, name := range scenes.ProximityNames() {
		if scenes.Available(name) != nil {
			continue // a scene of real meshes, not installed
		}
		sc, err := scenes.New(name, scenes.Full, 1)
		if err != nil {
			b.Fatal(err)
		}
		poses := sc.Poses
		for _, o := range []bvh.Options{{}, {Kind: bvh.OBB}, {Kind: bvh.AABB}, {Kind: bvh.RSS}} {
			env, fly := mustBuild(b, sc.Env, o), mustBuild(b, sc.Fly, o)
			for _, mode := range []string{"first", "first-hint", "all"} {
				b.Run(name+"/"+o.Kind.String()+"/"+mode, func(b *testing.B) {
					runtime.LockOSThread()
					defer runtime.UnlockOSThread()
					q := bvh.QueryOptions{All: mode == "all"}
					if mode == "first-hint" {
						q.State = new(bvh.PairState)
					}
					var s bvh.Scratch
					fn := func(bvh.Pair) bool { return true }
					var st bvh.Stats
					for _, p := range poses {
						st.Add(bvh.Collide(env, fly, p, q, &s, fn))
					}
					best := time.Duration(1<<63 - 1)
					for b.Loop() {
						t0 := threadCPU()
						for _, p := range poses {
							bvh.Collide(env, fly, p, q, &s, fn)
						}
						best = min(best, threadCPU()-t0)
					}
					n := float64(len(poses))
					b.ReportMetric(float64(best.Nanoseconds())/n, "cpu-ns/query")
					b.ReportMetric(float64(st.BVTests)/n, "Nv/op")
					b.ReportMetric(float64(st.LeafTests)/n, "Nl/op")
					b.ReportMetric(float64(st.TriTests)/n, "Np/op")
					b.ReportMetric(float64(st.Updates)/n, "Nu/op")
				})
			}
		}
	}
}
