package collide

import (
	"fmt"
	"testing"

	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh/gen"
)

// BenchmarkInside measures the containment test alone (Query.inside, what
// QueryOptions.Solid adds to a query whose surfaces the tree test found
// apart), on spheres of n triangles: fly inside env (one point against
// env's indexed solid), env inside fly (fly's surface placed and scanned),
// apart within env's box and beyond it.
func BenchmarkInside(b *testing.B) {
	for _, n := range []int{1000, 100000} {
		big, err := Build(gen.Must(gen.Icosphere(geom.Vec3{}, 2, n)), BuildOptions{})
		if err != nil {
			b.Fatal(err)
		}
		small, err := Build(gen.Must(gen.Icosphere(geom.Vec3{}, 0.5, n)), BuildOptions{})
		if err != nil {
			b.Fatal(err)
		}
		at := func(v geom.Vec3) geom.Pose { return geom.FromAxisAngle(geom.V(1, 2, 3), 0.4, v) }
		for _, c := range []struct {
			name     string
			env, fly *Model
			pose     geom.Pose
			want     Inside
		}{
			{"fly-in-env", big, small, at(geom.V(0.3, 0.1, 0)), FlyInEnv},
			{"env-in-fly", small, big, at(geom.V(0.3, 0.1, 0)), EnvInFly},
			{"apart-in-box", big, small, at(geom.V(1.55, 1.55, 1.55)), NotInside},
			{"apart-far", big, small, at(geom.V(9, 0, 0)), NotInside},
		} {
			var q Query
			var st Stats
			o := &QueryOptions{Solid: true}
			if in := q.inside(c.env, c.fly, &c.pose, o, &st); in != c.want {
				b.Fatalf("%s: %v", c.name, in)
			}
			b.Run(fmt.Sprintf("tris=%d/%s", n, c.name), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					q.inside(c.env, c.fly, &c.pose, o, &st)
				}
			})
		}
	}
}
