package world_test

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh/gen"
	"github.com/collide3d/collide/world"
)

// A world of three balls that share one model: two touch, then one moves
// away.
func Example() {
	ball, _ := collide.Build(gen.Must(gen.Icosphere(geom.V(0, 0, 0), 1, 320)), collide.BuildOptions{})
	w, _ := world.New(world.Options{})
	w.SetCallbacks(world.Callbacks{
		Begin: func(c *world.Contact) { fmt.Println("begin", c.A, c.B) },
		End:   func(c *world.Contact) { fmt.Println("end", c.A, c.B) },
	})
	a, _ := w.Add(ball, geom.Translation(geom.V(0, 0, 0)), world.ObjectOptions{Static: true})
	b, _ := w.Add(ball, geom.Translation(geom.V(1.5, 0, 0)), world.ObjectOptions{})
	w.Add(ball, geom.Translation(geom.V(10, 0, 0)), world.ObjectOptions{})
	w.Step()
	w.Move(b, geom.Translation(geom.V(5, 0, 0)))
	st, _ := w.Step()
	fmt.Println(st.Moved, "moved,", st.Contacts, "contacts;", a, "was static")
	st, _ = w.Step()
	fmt.Println("nothing moved: step", st.Step)
	// Output:
	// begin 0 1
	// end 0 1
	// 1 moved, 0 contacts; 0 was static
	// nothing moved: step 0
}

// A step stopped by its context is abandoned whole: the contacts stay
// those of the last complete step, and the next step does it again.
func ExampleWorld_StepContext() {
	ball, _ := collide.Build(gen.Must(gen.Icosphere(geom.V(0, 0, 0), 1, 320)), collide.BuildOptions{})
	w, _ := world.New(world.Options{})
	w.Add(ball, geom.Pose{}, world.ObjectOptions{Static: true})
	w.Add(ball, geom.Pose{T: geom.V(1.5, 0, 0)}, world.ObjectOptions{})

	ctx, cancel := context.WithCancel(context.Background())
	cancel() // Ctrl-C, say
	_, err := w.StepContext(ctx)
	fmt.Println(errors.Is(err, context.Canceled), w.NumContacts(), "contacts")

	st, err := w.StepContext(context.Background())
	fmt.Println(err, "step", st.Step, "found", st.Contacts, "contact")
	// Output:
	// true 0 contacts
	// <nil> step 1 found 1 contact
}

// The iterators: every contact, and each contact's pairs of triangles, A's
// first.
func ExampleWorld_AllContacts() {
	box, _ := collide.Build(gen.Must(gen.Box(geom.AABB{Min: geom.V(0, 0, 0), Max: geom.V(1, 1, 1)}, 1)), collide.BuildOptions{})
	w, _ := world.New(world.Options{All: true})
	w.Add(box, geom.Pose{}, world.ObjectOptions{})
	w.Add(box, geom.Pose{T: geom.V(1, 0, 0)}, world.ObjectOptions{}) // face to face
	w.Add(box, geom.Pose{T: geom.V(5, 0, 0)}, world.ObjectOptions{})
	w.Step()
	for c := range w.AllContacts() {
		fmt.Println("objects", c.A, "and", c.B, "touch at", c.Len(), "pairs of triangles; the first:")
		for tp := range c.All() {
			fmt.Println("  triangle", tp.A, "of", c.A, "and triangle", tp.B, "of", c.B)
			break
		}
	}
	fmt.Println(slices.Collect(w.AllObjects()))
	// Output:
	// objects 0 and 1 touch at 62 pairs of triangles; the first:
	//   triangle 2 of 0 and triangle 0 of 1
	// [0 1 2]
}
