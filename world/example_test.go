package world_test

import (
	"fmt"

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
