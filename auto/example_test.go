package auto_test

import (
	"context"
	"errors"
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

// ExampleChooseContext gives a choice up when its context is done: here a
// deadline already past (a user's Ctrl-C cancels a context alike).
func ExampleChooseContext() {
	torus := gen.Must(gen.Torus(geom.Vec3{}, 1, 0.3, 2000))
	ball := gen.Must(gen.Icosphere(geom.Vec3{}, 0.3, 500))
	ctx, cancel := context.WithTimeout(context.Background(), 0)
	defer cancel()
	_, err := auto.ChooseContext(ctx, auto.Source{Mesh: torus}, auto.Source{Mesh: ball}, auto.Options{})
	fmt.Println(errors.Is(err, context.DeadlineExceeded), err)
	// Output:
	// true auto: Choose stopped: context deadline exceeded
}
