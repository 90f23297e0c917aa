package collide_test

import (
	"fmt"
	"testing"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh/gen"
)

// BenchmarkSolidQuery measures what QueryOptions.Solid adds to a query of
// two spheres of n triangles each (18-DOP trees, first contact): fly
// inside env (the containment test: fly's vertex against env's indexed
// solid), env inside fly (env's vertex against fly's surface placed and
// scanned), surfaces touching (no containment test), apart within env's
// box (one point test) and apart beyond it (box filters only); each with
// and without Solid.
func BenchmarkSolidQuery(b *testing.B) {
	for _, n := range []int{1000, 100000} {
		big, err := collide.Build(gen.Must(gen.Icosphere(geom.Vec3{}, 2, n)), collide.BuildOptions{})
		if err != nil {
			b.Fatal(err)
		}
		small, err := collide.Build(gen.Must(gen.Icosphere(geom.Vec3{}, 0.5, n)), collide.BuildOptions{})
		if err != nil {
			b.Fatal(err)
		}
		rot := geom.FromAxisAngle(geom.V(1, 2, 3), 0.4, geom.Vec3{})
		at := func(v geom.Vec3) geom.Pose { p := rot; p.T = v; return p }
		for _, c := range []struct {
			name     string
			env, fly *collide.Model
			pose     geom.Pose
		}{
			{"fly-in-env", big, small, at(geom.V(0.3, 0.1, 0))},
			{"env-in-fly", small, big, at(geom.V(0.3, 0.1, 0))},
			{"touching", big, small, at(geom.V(2, 0, 0))},
			{"apart-in-box", big, small, at(geom.V(1.55, 1.55, 1.55))},
			{"apart-far", big, small, at(geom.V(9, 0, 0))},
		} {
			for _, solid := range []bool{false, true} {
				o := collide.QueryOptions{Solid: solid}
				var q collide.Query
				r, err := q.Collide(c.env, geom.Pose{}, c.fly, c.pose, o)
				if err != nil {
					b.Fatal(err)
				}
				b.Run(fmt.Sprintf("tris=%d/%s/solid=%v", n, c.name, solid), func(b *testing.B) {
					b.ReportAllocs()
					for b.Loop() {
						q.Collide(c.env, geom.Pose{}, c.fly, c.pose, o)
					}
					b.ReportMetric(float64(r.Stats.SolidTests), "solid-tests")
					if r.Collide {
						b.ReportMetric(1, "collide")
					}
				})
			}
		}
	}
}
