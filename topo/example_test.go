package topo_test

import (
	"fmt"

	"github.com/collide3d/collide/mesh/gen"
	"github.com/collide3d/collide/topo"
)

func Example() {
	k, _ := gen.Lookup("box")
	m, _ := k.Generate(nil)
	t := topo.Of(m)
	fmt.Println(t.Manifold, t.Closed, t.Oriented, t.Outward, t.Convex, t.Euler, t.Genus)

	m.Tris = m.Tris[1:] // a hole
	t = topo.Of(m)
	fmt.Println(t.Closed, t.NumBoundary, t.Boundary[0])
	// Output:
	// true true true true true 2 0
	// false 3 {0 [5 0]}
}
