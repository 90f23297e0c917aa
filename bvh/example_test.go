package bvh_test

import (
	"fmt"

	"github.com/collide3d/collide/bvh"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh/gen"
)

// ExampleCollide builds 14-DOP trees for two spheres and streams the
// triangle pairs in contact to a callback, stopping after three.
func ExampleCollide() {
	a := gen.Must(gen.Icosphere(geom.Vec3{}, 1, 1280))
	b := gen.Must(gen.Icosphere(geom.Vec3{}, 0.5, 320))
	env, err := bvh.Build(a, bvh.Options{K: 14})
	if err != nil {
		panic(err)
	}
	fly, err := bvh.Build(b, bvh.Options{K: 14})
	if err != nil {
		panic(err)
	}
	if err := env.Validate(); err != nil {
		panic(err)
	}
	var s bvh.Scratch
	n := 0
	pose := geom.FromAxisAngle(geom.V(0, 1, 0), 0.3, geom.V(1, 0, 0)) // half in, half out
	st := bvh.Collide(env, fly, pose, bvh.QueryOptions{All: true}, &s, func(p bvh.Pair) bool {
		n++
		return n < 3
	})
	fmt.Println(n, "pairs reported;", st.TriTests >= 3, st.BVTests > 0)
	// Output:
	// 3 pairs reported; true true
}
