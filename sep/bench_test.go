package sep_test

import (
	"fmt"
	"testing"

	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh/gen"
	"github.com/collide3d/collide/sep"
	"github.com/collide3d/collide/topo"
)

// BenchmarkApart proves two spheres apart along a slow motion: with the
// pair's cache (a hit: one climb of a step or two on each hull and the
// proof) and without (GJK from the centres each time).
func BenchmarkApart(b *testing.B) {
	poses := make([]geom.Pose, 1000)
	for i := range poses {
		poses[i] = geom.FromAxisAngle(geom.V(1, 2, 3), float64(i)*0.001, geom.V(2.5, 0.1*float64(i%10), 0))
	}
	for _, tris := range []int{80, 1280, 20480} {
		m := gen.Must(gen.Icosphere(geom.Vec3{}, 1, tris))
		s := sep.NewShape(m.Verts)
		for _, cached := range []bool{true, false} {
			b.Run(fmt.Sprintf("tris=%d/cached=%v", len(m.Tris), cached), func(b *testing.B) {
				b.ReportAllocs()
				var c sep.Cache
				n := 0
				for i := 0; b.Loop(); i++ {
					if !cached {
						c.Reset()
					}
					if sep.Apart(s, s, poses[i%len(poses)], 0, &c) != sep.NotProved {
						n++
					}
				}
				if n == 0 {
					b.Fatal("never proved")
				}
			})
		}
	}
}

// BenchmarkShape compares what the convex test's climbs run on, a hull
// (NewShape), with the topology of the same mesh (topo.Of), whose vertex
// adjacency the climbs could use instead.
func BenchmarkShape(b *testing.B) {
	for _, tris := range []int{80, 1280, 20480} {
		m := gen.Must(gen.Icosphere(geom.Vec3{}, 1, tris))
		b.Run(fmt.Sprintf("hull/tris=%d", len(m.Tris)), func(b *testing.B) {
			for b.Loop() {
				sep.NewShape(m.Verts)
			}
		})
		b.Run(fmt.Sprintf("topo/tris=%d", len(m.Tris)), func(b *testing.B) {
			for b.Loop() {
				topo.Of(m)
			}
		})
	}
}
