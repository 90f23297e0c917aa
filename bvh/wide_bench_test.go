//go:build scenebench

package bvh_test

import (
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/collide3d/collide/bench/scenes"
	"github.com/collide3d/collide/bvh"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh"
	"github.com/collide3d/collide/mesh/gen"
)

// BenchmarkWideCPU compares the environment layouts of Collide's
// modeContact (binary, 4-wide, 8-wide: wide.go, wide_dop.go) in one run:
// each iteration flies the poses once at each width in turn, and the least
// thread CPU time per query of each width over the iterations is reported
// (w2-ns, w4-ns, w8-ns), with the counts of each (Nv, Nl, Np per query).
// The scenes are BenchmarkProximityCPU's (gears, and dragon and knot when
// libcgal-demo's meshes are installed) and BenchmarkQueryCPU's torus and
// sphere; AABB and 18-DOP trees; first contact and all pairs.
func BenchmarkWideCPU(b *testing.B) {
	type scene struct {
		name     string
		env, fly *mesh.TriMesh
		poses    []geom.Pose
	}
	var scs []scene
	for _, name := range []string{"gears", "dragon", "knot"} {
		if scenes.Available(name) != nil {
			continue
		}
		sc, err := scenes.New(name, scenes.Full, 1)
		if err != nil {
			b.Fatal(err)
		}
		scs = append(scs, scene{name, sc.Env, sc.Fly, sc.Poses})
	}
	scs = append(scs, scene{"torus", gen.Must(gen.Torus(geom.Vec3{}, 1, 0.3, 20000)), gen.Must(gen.Icosphere(geom.Vec3{}, 0.1, 2000)), orbit(250)})
	widths := []int{2, 4, 8}
	for _, sc := range scs {
		for _, o := range []bvh.Options{{Kind: bvh.AABB}, {}} {
			env, fly := mustBuild(b, sc.env, o), mustBuild(b, sc.fly, o)
			for _, all := range []bool{false, true} {
				mode := "first"
				if all {
					mode = "all"
				}
				b.Run(sc.name+"/"+o.Kind.String()+"/"+mode, func(b *testing.B) {
					runtime.LockOSThread()
					defer runtime.UnlockOSThread()
					defer bvh.SaveWideWidth()()
					q := bvh.QueryOptions{All: all}
					var s bvh.Scratch
					fn := func(bvh.Pair) bool { return true }
					sts := make([]bvh.Stats, len(widths))
					best := make([]time.Duration, len(widths))
					for i, w := range widths {
						bvh.SetWideWidth(w)
						for _, p := range sc.poses {
							sts[i].Add(bvh.Collide(env, fly, p, q, &s, fn))
						}
						best[i] = time.Duration(1<<63 - 1)
					}
					for b.Loop() {
						for i, w := range widths {
							bvh.SetWideWidth(w)
							t0 := threadCPU()
							for _, p := range sc.poses {
								bvh.Collide(env, fly, p, q, &s, fn)
							}
							best[i] = min(best[i], threadCPU()-t0)
						}
					}
					n := float64(len(sc.poses))
					for i, w := range widths {
						b.ReportMetric(float64(best[i].Nanoseconds())/n, fmt.Sprintf("w%d-ns", w))
						st := sts[i]
						b.ReportMetric(float64(st.BVTests)/n, fmt.Sprintf("w%d-Nv", w))
						b.ReportMetric(float64(st.LeafTests)/n, fmt.Sprintf("w%d-Nl", w))
						b.ReportMetric(float64(st.TriTests)/n, fmt.Sprintf("w%d-Np", w))
					}
				})
			}
		}
	}
}
