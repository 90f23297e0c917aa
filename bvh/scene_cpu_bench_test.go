//go:build scenebench

package bvh_test

// This benchmark needs the scenes of package bench, which import the root
// package: it builds only with the scenebench tag (go test -tags
// scenebench -run '^$' -bench SceneQueryCPU ./bvh), so that the tests of
// bvh never depend on the packages above it.

import (
	"runtime"
	"testing"
	"time"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/bench/scenes"
	"github.com/collide3d/collide/bvh"
	"github.com/collide3d/collide/flight"
)

// BenchmarkSceneQueryCPU is bench's BenchmarkSceneQuery (the quick scenes'
// flights, all pairs, for each kind of tree) timed as BenchmarkQueryCPU
// does: each iteration flies the recorded flight once, and cpu-ns/query is
// the least thread CPU time per query over the iterations.
func BenchmarkSceneQueryCPU(b *testing.B) {
	for _, name := range scenes.Names() {
		if scenes.Available(name) != nil {
			continue // a scene of real meshes, not installed
		}
		sc, err := scenes.New(name, scenes.Quick, 1)
		if err != nil {
			b.Fatal(err)
		}
		poses := sc.Poses
		if poses == nil {
			env, fly := must(collide.Build(sc.Env, collide.BuildOptions{})), must(collide.Build(sc.Fly, collide.BuildOptions{}))
			m, err := sc.Motion()
			if err != nil {
				b.Fatal(err)
			}
			if _, err := flight.Fly(env, fly, m, flight.Options{Steps: min(sc.Steps, 300)}, func(s *flight.Step) error {
				poses = append(poses, s.Pose)
				return nil
			}); err != nil {
				b.Fatal(err)
			}
		}
		poses = poses[:min(len(poses), 300)]
		for _, o := range []bvh.Options{{}, {Kind: bvh.OBB}, {Kind: bvh.AABB}, {Kind: bvh.RSS}, {Kind: bvh.Sphere}} {
			env, fly := mustBuild(b, sc.Env, o), mustBuild(b, sc.Fly, o)
			b.Run(name+"/"+o.Kind.String(), func(b *testing.B) {
				runtime.LockOSThread()
				defer runtime.UnlockOSThread()
				q := bvh.QueryOptions{All: true}
				var s bvh.Scratch
				fn := func(bvh.Pair) bool { return true }
				for _, p := range poses {
					bvh.Collide(env, fly, p, q, &s, fn)
				}
				best := time.Duration(1<<63 - 1)
				for b.Loop() {
					t0 := threadCPU()
					for _, p := range poses {
						bvh.Collide(env, fly, p, q, &s, fn)
					}
					best = min(best, threadCPU()-t0)
				}
				b.ReportMetric(float64(best.Nanoseconds())/float64(len(poses)), "cpu-ns/query")
			})
		}
	}
}
