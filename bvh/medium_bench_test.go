package bvh

import (
	"fmt"
	"math"
	"testing"

	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh/gen"
)

// BenchmarkCollideMedium flies a torus of 448 and of 5000 triangles
// through another, all pairs, with k-DOP and box-trees: sequentially
// (Collide), in medium grain as CollideMedium shares the walk (static),
// and with its pairs taken one at a time (dynamic).
func BenchmarkCollideMedium(b *testing.B) {
	for _, n := range []int{448, 5000} {
		for _, kind := range []Kind{KDOP, BoxTree} {
			m := gen.Must(gen.Torus(geom.Vec3{}, 1, 0.3, n))
			t, _ := Build(m, Options{Kind: kind, K: 18})
			var poses []geom.Pose
			for i := range 100 {
				a := 2 * math.Pi * float64(i) / 100
				d := 1.0 + 1.2*math.Sin(3*a)
				poses = append(poses, geom.FromAxisAngle(geom.V(1, 0.3*math.Cos(a), 0.2), math.Pi/2+0.4*math.Sin(5*a), geom.V(d*math.Cos(a), d*math.Sin(a), 0.3*math.Sin(7*a))))
			}
			fn := func(Pair) bool { return true }
			for _, way := range []string{"seq", "static", "dynamic"} {
				b.Run(fmt.Sprintf("%d/%v/%s", n, kind, way), func(b *testing.B) {
					var s Scratch
					var md Medium
					md.dynamic = way == "dynamic"
					b.ReportAllocs()
					for b.Loop() {
						for _, p := range poses {
							if way == "seq" {
								Collide(t, t, p, QueryOptions{All: true}, &s, fn)
							} else {
								CollideMedium(t, t, p, QueryOptions{All: true}, &md, [2]func(Pair) bool{fn, fn})
							}
						}
					}
				})
			}
		}
	}
}
