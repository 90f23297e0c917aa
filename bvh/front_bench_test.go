//go:build scenebench

package bvh_test

// This benchmark needs the scenes of package bench, as
// BenchmarkSceneQueryCPU does: go test -tags scenebench -run '^$' -bench
// SceneFrontCPU ./bvh.

import (
	"flag"
	"runtime"
	"testing"
	"time"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/bench/scenes"
	"github.com/collide3d/collide/bvh"
	"github.com/collide3d/collide/flight"
	"github.com/collide3d/collide/geom"
)

// frontFull makes BenchmarkSceneFrontCPU fly the full-size scenes.
var frontFull = flag.Bool("front.full", false, "BenchmarkSceneFrontCPU: the full-size scenes")

// BenchmarkSceneFrontCPU flies the paper's scenes (quick, or full with
// -args -front.full; their first 300 steps, first contact and all pairs)
// with 18-DOP, OBB, AABB and RSS trees, from the roots (roots) and with a
// front kept from step to step (front), each iteration the whole flight
// with a new front, timed as BenchmarkSceneQueryCPU is (cpu-ns/query, the
// least thread CPU time per query over the iterations), with the counts
// per query: Nv (volume tests), Nl (leaf tests), Np (triangle tests),
// skipped (front pairs kept without a test) and the front's mean size.
func BenchmarkSceneFrontCPU(b *testing.B) {
	size := scenes.Quick
	if *frontFull {
		size = scenes.Full
	}
	for _, name := range scenes.PaperNames() {
		b.Run(name, func(b *testing.B) {
			sc, err := scenes.New(name, size, 1)
			if err != nil {
				b.Fatal(err)
			}
			for _, all := range []bool{false, true} {
				mode := "first"
				if all {
					mode = "all"
				}
				var poses []geom.Pose
				for _, o := range []bvh.Options{{}, {Kind: bvh.OBB}, {Kind: bvh.AABB}, {Kind: bvh.RSS}} {
					var env, fly *bvh.Tree
					for _, front := range []bool{false, true} {
						side := "roots"
						if front {
							side = "front"
						}
						b.Run(o.Kind.String()+"/"+mode+"/"+side, func(b *testing.B) {
							if poses == nil {
								poses = flightPoses(b, sc, all)
							}
							if env == nil {
								env, fly = mustBuild(b, sc.Env, o), mustBuild(b, sc.Fly, o)
							}
							benchFront(b, env, fly, poses, all, front)
						})
					}
				}
			}
		})
	}
}

// flightPoses returns the first 300 poses of sc's flight in one mode.
func flightPoses(b *testing.B, sc *scenes.Scene, all bool) []geom.Pose {
	if sc.Poses != nil {
		return sc.Poses[:min(len(sc.Poses), 300)]
	}
	env, fly := must(collide.Build(sc.Env, collide.BuildOptions{})), must(collide.Build(sc.Fly, collide.BuildOptions{}))
	m, err := sc.Motion()
	if err != nil {
		b.Fatal(err)
	}
	var poses []geom.Pose
	o := flight.Options{Steps: min(sc.Steps, 300), Front: flight.FrontOff}
	o.Query.All = all
	if _, err := flight.Fly(env, fly, m, o, func(s *flight.Step) error {
		poses = append(poses, s.Pose)
		return nil
	}); err != nil {
		b.Fatal(err)
	}
	return poses
}

// benchFront flies poses once an iteration, with a new front each time if
// front, and reports the least CPU time per query and the counts.
func benchFront(b *testing.B, env, fly *bvh.Tree, poses []geom.Pose, all, front bool) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var s bvh.Scratch
	var fr bvh.Front
	fn := func(bvh.Pair) bool { return true }
	q := bvh.QueryOptions{All: all}
	if front {
		q.Front = &fr
		fr.Prepare(env, fly)
	}
	for _, p := range poses {
		bvh.Collide(env, fly, p, q, &s, fn)
	}
	var st bvh.Stats
	size := 0
	best := time.Duration(1<<63 - 1)
	b.ReportAllocs()
	for b.Loop() {
		if front {
			fr.Reset()
			fr.Prepare(env, fly)
		}
		st, size = bvh.Stats{}, 0
		t0 := threadCPU()
		for _, p := range poses {
			st.Add(bvh.Collide(env, fly, p, q, &s, fn))
			size += fr.Len()
		}
		best = min(best, threadCPU()-t0)
	}
	n := float64(len(poses))
	b.ReportMetric(float64(best.Nanoseconds())/n, "cpu-ns/query")
	b.ReportMetric(float64(st.BVTests)/n, "Nv/op")
	b.ReportMetric(float64(st.LeafTests)/n, "Nl/op")
	b.ReportMetric(float64(st.TriTests)/n, "Np/op")
	b.ReportMetric(float64(st.Skipped)/n, "skipped/op")
	b.ReportMetric(float64(size)/n, "front/op")
}
