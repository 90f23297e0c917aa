package bvh_test

import (
	"fmt"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/collide3d/collide/bv"
	"github.com/collide3d/collide/bvh"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh"
	"github.com/collide3d/collide/mesh/gen"
)

// meshBytes is the memory of a mesh's arrays.
func meshBytes(m *mesh.TriMesh) int64 { return int64(len(m.Verts))*24 + int64(len(m.Tris))*12 }

// BenchmarkBuildRules measures the build rate per rule and k on a 100,000-
// triangle icosphere, and the memory of the tree and its mesh per triangle.
func BenchmarkBuildRules(b *testing.B) {
	m := gen.Must(gen.Icosphere(geom.Vec3{}, 1, 100000))
	for _, k := range bv.Ks {
		for r := bvh.Splatter; r <= bvh.MinMax; r++ {
			b.Run(fmt.Sprintf("k=%d/%v", k, r), func(b *testing.B) {
				b.ReportAllocs()
				var t *bvh.Tree
				for b.Loop() {
					var err error
					if t, err = bvh.Build(m, bvh.Options{K: k, Rule: r}); err != nil {
						b.Fatal(err)
					}
				}
				n := float64(len(m.Tris))
				b.ReportMetric(n*float64(b.N)/b.Elapsed().Seconds(), "tris/s")
				b.ReportMetric(float64(t.Bytes()+meshBytes(m))/n, "B/tri")
			})
		}
	}
}

// BenchmarkBuild1M builds the default tree (18-DOPs, Splatter, mean) over a
// terrain of about a million triangles and reports the peak heap in use.
func BenchmarkBuild1M(b *testing.B) {
	m := gen.Must(gen.Terrain(708, 100, 10, 0.5, 1))
	b.ReportAllocs()
	var peak uint64
	for b.Loop() {
		runtime.GC()
		var before runtime.MemStats
		runtime.ReadMemStats(&before)
		t, err := bvh.Build(m, bvh.Options{})
		if err != nil {
			b.Fatal(err)
		}
		var after runtime.MemStats
		runtime.ReadMemStats(&after)
		peak = max(peak, after.HeapSys)
		runtime.KeepAlive(t)
	}
	b.ReportMetric(float64(len(m.Tris)), "tris")
	b.ReportMetric(float64(peak)/(1<<20), "heap-MB")
}

// BenchmarkBuildKinds builds each kind of tree other than k-DOPs over the
// 100,000-triangle sphere of BenchmarkBuildRules.
func BenchmarkBuildKinds(b *testing.B) {
	m := gen.Must(gen.Icosphere(geom.Vec3{}, 1, 100000))
	for _, o := range []bvh.Options{
		{Kind: bvh.OBB}, {Kind: bvh.OBB, Rule: bvh.RAPID}, {Kind: bvh.Sphere}, {Kind: bvh.AABB}, {Kind: bvh.BoxTree}, {Kind: bvh.RSS},
	} {
		b.Run(fmt.Sprintf("%v/%v", o.Kind, o.Rule), func(b *testing.B) {
			b.ReportAllocs()
			var t *bvh.Tree
			for b.Loop() {
				var err error
				if t, err = bvh.Build(m, o); err != nil {
					b.Fatal(err)
				}
			}
			n := float64(len(m.Tris))
			b.ReportMetric(n*float64(b.N)/b.Elapsed().Seconds(), "tris/s")
			b.ReportMetric(float64(t.Bytes()+meshBytes(m))/n, "B/tri")
		})
	}
}

// BenchmarkBuildKinds1M builds each kind of tree over the terrain of about
// a million triangles of BenchmarkBuild1M (k-DOPs of the default options
// too, for comparison), and reports its rate, its memory with the mesh,
// the process's CPU time per build (user and system: on a loaded machine
// a steadier figure than the wall time) and the heap obtained from the
// system after the builds (HeapSys, which the peak heap in use never
// exceeds; it never shrinks either, so that a kind's figure is the largest
// of the kinds run up to it: run one kind, -bench BuildKinds1M/obb, for
// its own).
func BenchmarkBuildKinds1M(b *testing.B) {
	m := gen.Must(gen.Terrain(708, 100, 10, 0.5, 1))
	for _, o := range []bvh.Options{{}, {Kind: bvh.OBB}, {Kind: bvh.RSS}, {Kind: bvh.AABB}, {Kind: bvh.Sphere}, {Kind: bvh.BoxTree}} {
		b.Run(o.Kind.String(), func(b *testing.B) {
			runtime.GC()
			cpu0 := processCPU()
			var t *bvh.Tree
			for b.Loop() {
				var err error
				if t, err = bvh.Build(m, o); err != nil {
					b.Fatal(err)
				}
			}
			cpu := processCPU() - cpu0
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			n := float64(len(m.Tris))
			b.ReportMetric(n*float64(b.N)/b.Elapsed().Seconds(), "tris/s")
			b.ReportMetric(float64(t.Bytes()+meshBytes(m))/n, "B/tri")
			b.ReportMetric(cpu.Seconds()*1000/float64(b.N), "cpu-ms/op")
			b.ReportMetric(float64(ms.HeapSys)/(1<<20), "heap-sys-MB")
		})
	}
}

// processCPU returns the CPU time (user and system) the process has used.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
