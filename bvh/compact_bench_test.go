//go:build scenebench

package bvh_test

import (
	"runtime"
	"testing"
	"time"

	"github.com/collide3d/collide/bench/scenes"
	"github.com/collide3d/collide/bvh"
)

// BenchmarkCompactCPU flies the full-size scenes of close proximity (as
// BenchmarkProximityCPU) with 18-DOP trees in float32 and in the compact
// layout, in both modes, the two layouts interleaved pass by pass so that
// the machine's load weighs on both alike: the least thread CPU time per
// query of each, the counts, and the environment's bytes per triangle
// with its mesh.
func BenchmarkCompactCPU(b *testing.B) {
	for _, name := range []string{"gears", "dragon", "knot"} {
		if scenes.Available(name) != nil {
			continue // a scene of real meshes, not installed
		}
		sc, err := scenes.New(name, scenes.Full, 1)
		if err != nil {
			b.Fatal(err)
		}
		poses := sc.Poses
		plainE, plainF := mustBuild(b, sc.Env, bvh.Options{}), mustBuild(b, sc.Fly, bvh.Options{})
		compE, compF := mustBuild(b, sc.Env, bvh.Options{Compact: true}), mustBuild(b, sc.Fly, bvh.Options{Compact: true})
		nt := float64(len(sc.Env.Tris))
		meshBytes := float64(24*len(sc.Env.Verts) + 12*len(sc.Env.Tris))
		for _, all := range []bool{false, true} {
			mode := "first"
			if all {
				mode = "all"
			}
			b.Run(name+"/"+mode, func(b *testing.B) {
				runtime.LockOSThread()
				defer runtime.UnlockOSThread()
				q := bvh.QueryOptions{All: all}
				var s bvh.Scratch
				fn := func(bvh.Pair) bool { return true }
				var stP, stC bvh.Stats
				for _, p := range poses {
					stP.Add(bvh.Collide(plainE, plainF, p, q, &s, fn))
					stC.Add(bvh.Collide(compE, compF, p, q, &s, fn))
				}
				bestP, bestC := time.Duration(1<<63-1), time.Duration(1<<63-1)
				for b.Loop() {
					t0 := threadCPU()
					for _, p := range poses {
						bvh.Collide(plainE, plainF, p, q, &s, fn)
					}
					t1 := threadCPU()
					for _, p := range poses {
						bvh.Collide(compE, compF, p, q, &s, fn)
					}
					bestP, bestC = min(bestP, t1-t0), min(bestC, threadCPU()-t1)
				}
				n := float64(len(poses))
				b.ReportMetric(float64(bestP.Nanoseconds())/n, "f32-ns/query")
				b.ReportMetric(float64(bestC.Nanoseconds())/n, "compact-ns/query")
				b.ReportMetric(float64(stP.BVTests)/n, "f32-Nv/op")
				b.ReportMetric(float64(stC.BVTests)/n, "compact-Nv/op")
				b.ReportMetric(float64(stP.TriTests)/n, "f32-Np/op")
				b.ReportMetric(float64(stC.TriTests)/n, "compact-Np/op")
				b.ReportMetric((float64(plainE.Bytes())+meshBytes)/nt, "f32-B/tri")
				b.ReportMetric((float64(compE.Bytes())+meshBytes)/nt, "compact-B/tri")
			})
		}
	}
}
