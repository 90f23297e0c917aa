package collide

import (
	"fmt"
	"testing"

	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh/gen"
)

// solidBenchCase is a pair of spheres of the solid benchmarks.
type solidBenchCase struct {
	name     string
	env, fly *Model
	pose     geom.Pose
	inside   Inside
}

// solidBenchCases returns pairs of spheres of n triangles each (18-DOP
// trees): fly inside env, env inside fly, surfaces touching, apart within
// env's box and apart beyond it.
func solidBenchCases(b *testing.B, n int) []solidBenchCase {
	big, err := Build(gen.Must(gen.Icosphere(geom.Vec3{}, 2, n)), BuildOptions{})
	if err != nil {
		b.Fatal(err)
	}
	small, err := Build(gen.Must(gen.Icosphere(geom.Vec3{}, 0.5, n)), BuildOptions{})
	if err != nil {
		b.Fatal(err)
	}
	at := func(v geom.Vec3) geom.Pose { return geom.FromAxisAngle(geom.V(1, 2, 3), 0.4, v) }
	return []solidBenchCase{
		{"fly-in-env", big, small, at(geom.V(0.3, 0.1, 0)), FlyInEnv},
		{"env-in-fly", small, big, at(geom.V(0.3, 0.1, 0)), EnvInFly},
		{"touching", big, small, at(geom.V(2, 0, 0)), NotInside},
		{"apart-in-box", big, small, at(geom.V(1.55, 1.55, 1.55)), NotInside},
		{"apart-far", big, small, at(geom.V(9, 0, 0)), NotInside},
	}
}

// BenchmarkInside measures the containment test alone (Query.inside, what
// QueryOptions.Solid adds to a query whose surfaces the tree test found
// apart): fly inside env (one point against env's indexed solid), env
// inside fly (fly's surface placed and scanned), apart within env's box
// and beyond it.
func BenchmarkInside(b *testing.B) {
	for _, n := range []int{1000, 100000} {
		for _, c := range solidBenchCases(b, n) {
			if c.name == "touching" {
				continue // the containment test does not run
			}
			var q Query
			var st Stats
			o := &QueryOptions{Solid: true}
			if in := q.inside(c.env, c.fly, &c.pose, o, &st); in != c.inside {
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

// BenchmarkSolidQuery measures whole queries (first contact) of the same
// pairs with and without Solid: what Solid adds to a query whose surfaces
// touch (nothing: no containment test) and to one whose surfaces are
// apart.
func BenchmarkSolidQuery(b *testing.B) {
	for _, n := range []int{1000, 100000} {
		for _, c := range solidBenchCases(b, n) {
			for _, solid := range []bool{false, true} {
				o := QueryOptions{Solid: solid}
				var q Query
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
				})
			}
		}
	}
}
