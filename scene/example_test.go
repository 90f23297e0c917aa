package scene_test

import (
	"fmt"

	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/scene"
	"github.com/collide3d/collide/world"
)

// A ball replayed down onto a static floor: the floor is never moved, and
// the ball not after its last pose.
func Example() {
	down := func(z float64) geom.Pose { return geom.Translation(geom.V(0, 0, z)) }
	s := &scene.Scene{
		Name:  "example",
		Steps: 4,
		Models: []scene.Model{
			{Name: "box", Source: "gen:box"}, // [-1, 1]³
			{Name: "ball", Source: "gen:icosphere:radius=0.5,tris=80"},
		},
		Objects: []scene.Object{
			{Name: "floor", Model: "box", Pose: down(-1), Static: true},
			{Name: "ball", Model: "ball", Pose: geom.Identity(), Motion: scene.Poses{Poses: []geom.Pose{down(2), down(1), down(0.4)}}},
		},
	}
	_, err := scene.Play(s, scene.Options{}, func(p *scene.Player, st world.StepStats) error {
		var names []string
		p.World().Contacts(func(c *world.Contact) bool {
			names = append(names, p.Name(c.A)+"-"+p.Name(c.B))
			return true
		})
		fmt.Printf("step %d: %d moved, in contact: %v\n", p.Steps(), st.Moved, names)
		return nil
	})
	if err != nil {
		fmt.Println(err)
	}
	// Output:
	// step 1: 2 moved, in contact: []
	// step 2: 1 moved, in contact: []
	// step 3: 1 moved, in contact: [floor-ball]
	// step 4: 0 moved, in contact: [floor-ball]
}
