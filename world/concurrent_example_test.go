package world_test

import (
	"fmt"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh/gen"
	"github.com/collide3d/collide/world"
)

// The concurrent module beside an application's loop: each frame moves a
// ball and commits, never waiting for a step; each result names the frame
// it is for.
func ExampleConcurrent() {
	ball, _ := collide.Build(gen.Must(gen.Icosphere(geom.V(0, 0, 0), 1, 320)), collide.BuildOptions{})
	w, _ := world.New(world.Options{})
	w.Add(ball, geom.Pose{}, world.ObjectOptions{Static: true})
	b, _ := w.Add(ball, geom.Translation(geom.V(5, 0, 0)), world.ObjectOptions{})

	c := world.NewConcurrent(w, world.ConcurrentOptions{Done: func(f *world.Frame) {
		// On the module's goroutine, after each step (some frames are
		// merged into later ones when the application runs ahead).
		_ = f.Frame
	}})
	for frame := int64(1); frame <= 30; frame++ {
		c.Move(b, geom.Translation(geom.V(5-0.12*float64(frame), 0, 0))) // the ball comes closer
		c.Commit(frame)
		// ... the application's own work for the frame ...
	}
	if err := c.Close(); err != nil { // steps the last frame committed
		fmt.Println(err)
	}
	f, _ := c.Latest()
	fmt.Println("frame", f.Frame, "contacts", len(f.Contacts), "between", f.Contacts[0].A, "and", f.Contacts[0].B)
	// Output:
	// frame 30 contacts 1 between 0 and 1
}
