package auto_test

import (
	"fmt"
	"log"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/auto"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh/gen"
)

// ExampleChoose chooses the trees of a torus and a ball before the
// queries, at the poses the ball will fly through, and queries the models
// chosen.
func ExampleChoose() {
	torus := gen.Must(gen.Torus(geom.Vec3{}, 1, 0.3, 2000))
	ball := gen.Must(gen.Icosphere(geom.Vec3{}, 0.3, 500))
	// Choose at the poses the ball will fly through (without Poses, at
	// poses of random flights).
	var path []geom.Pose
	for i := range 50 {
		path = append(path, geom.FromAxisAngle(geom.V(0, 0, 1), 0.1*float64(i), geom.V(1, 0, 0.2)))
	}
	choice, err := auto.Choose(auto.Source{Mesh: torus}, auto.Source{Mesh: ball}, auto.Options{Poses: path})
	if err != nil {
		log.Fatal(err)
	}
	// The queries run on the models of the kind chosen for their mode
	// (which depends on the machine: choice.String() says how they
	// measured).
	m := choice.For(true)
	res, err := collide.Check(m.Env, m.Fly, path[5], collide.QueryOptions{All: true})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(res.Pairs), "pairs")
	// Output:
	// 102 pairs
}
