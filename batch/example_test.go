package batch_test

import (
	"context"
	"fmt"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/batch"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh/gen"
)

// A box tested at five poses along x, in one call: apart, touching face to
// face at x = 2 (contact is exact: touching counts), overlapping.
func ExampleCheck() {
	unit := geom.AABB{Min: geom.Vec3{X: -1, Y: -1, Z: -1}, Max: geom.Vec3{X: 1, Y: 1, Z: 1}}
	box, err := collide.Build(gen.Must(gen.Box(unit, 1)), collide.BuildOptions{})
	if err != nil {
		panic(err)
	}
	var poses []geom.Pose
	for _, x := range []float64{3, 2.5, 2, 1, 0.5} {
		poses = append(poses, geom.Translation(geom.Vec3{X: x}))
	}
	hits := make([]bool, len(poses))
	pairs, err := batch.Check(context.Background(), box, geom.Pose{}, box, poses, batch.Options{}, hits, nil)
	if err != nil {
		panic(err)
	}
	fmt.Println(hits)
	for _, p := range pairs {
		fmt.Printf("pose %d: triangles %d and %d\n", p.Pose, p.Env, p.Fly)
	}
	// Output:
	// [false false true true true]
	// pose 2: triangles 4 and 1
	// pose 3: triangles 4 and 1
	// pose 4: triangles 4 and 1
}

// The contacts of a box resting on another, shifted, and of one sunk into
// it, in one call: at the first pose every pair touches (the top face
// meets the bottom face in a coplanar overlap, side faces meet along
// edges), at the second most pairs cross.
func ExampleContacts() {
	unit := geom.AABB{Min: geom.Vec3{X: -1, Y: -1, Z: -1}, Max: geom.Vec3{X: 1, Y: 1, Z: 1}}
	box, err := collide.Build(gen.Must(gen.Box(unit, 1)), collide.BuildOptions{})
	if err != nil {
		panic(err)
	}
	poses := []geom.Pose{geom.Translation(geom.Vec3{X: 0.5, Y: 0.5, Z: 2}), geom.Translation(geom.Vec3{X: 0.5, Y: 0.5, Z: 1.5})}
	cs, err := batch.Contacts(context.Background(), box, geom.Pose{}, box, poses, batch.Options{All: true}, nil)
	if err != nil {
		panic(err)
	}
	kinds := map[int32]map[geom.ContactKind]int{0: {}, 1: {}}
	for _, c := range cs {
		kinds[c.Pose][c.Kind]++
	}
	fmt.Println("pose 0:", kinds[0][geom.Touch], "touch,", kinds[0][geom.Cross], "cross")
	fmt.Println("pose 1:", kinds[1][geom.Touch], "touch,", kinds[1][geom.Cross], "cross")
	// Output:
	// pose 0: 22 touch, 0 cross
	// pose 1: 4 touch, 10 cross
}
