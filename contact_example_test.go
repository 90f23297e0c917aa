package collide_test

import (
	"fmt"
	"log"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh"
)

// ExampleQuery_Contacts shows where and how two models meet: a floor
// triangle and an upright triangle passing through it cross along a
// segment, whose normal is the floor's, from the floor towards the flying
// triangle; Check with Patches groups the contacts in patches.
func ExampleQuery_Contacts() {
	floor := &mesh.TriMesh{Verts: []geom.Vec3{{X: 0, Y: 0, Z: 0}, {X: 2, Y: 0, Z: 0}, {X: 0, Y: 2, Z: 0}}, Tris: [][3]int32{{0, 1, 2}}}
	blade := &mesh.TriMesh{Verts: []geom.Vec3{{X: 0.25, Y: 0.25, Z: -1}, {X: 1, Y: 1, Z: -1}, {X: 0.5, Y: 0.5, Z: 1}}, Tris: [][3]int32{{0, 1, 2}}}
	env, err := collide.Build(floor, collide.BuildOptions{})
	if err != nil {
		log.Fatal(err)
	}
	fly, err := collide.Build(blade, collide.BuildOptions{})
	if err != nil {
		log.Fatal(err)
	}
	// The floor stays where it is; the blade moves up by 0.5.
	envPose, flyPose := geom.Identity(), geom.Translation(geom.V(0, 0, 0.5))

	var q collide.Query
	contacts, err := q.Contacts(env, envPose, fly, flyPose, collide.QueryOptions{})
	if err != nil {
		log.Fatal(err)
	}
	for c := range contacts {
		fmt.Println(c.Pair, c.Kind, c.Points, "normal", c.Normal)
	}

	r, err := collide.Check(env, fly, flyPose, collide.QueryOptions{All: true, Patches: true})
	if err != nil {
		log.Fatal(err)
	}
	for _, p := range r.Patches {
		fmt.Println("patch of contacts", p.Contacts, "curves", p.Curves, "point", p.Point, "normal", p.Normal)
	}
	// Output:
	// {0 0} cross [(0.3125, 0.3125, 0) (0.875, 0.875, 0)] normal (0, 0, 1)
	// patch of contacts [0] curves [[(0.3125, 0.3125, 0) (0.875, 0.875, 0)]] point (0.59375, 0.59375, 0) normal (0, 0, 1)
}
