package hull_test

import (
	"fmt"

	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/hull"
)

// Example builds the hull of the 27 points of a 3×3×3 grid, of which only
// the 8 corners are vertices, and climbs to the vertex extreme along a
// direction, then along a slightly turned one from there.
func Example() {
	var pts []geom.Vec3
	for x := -1.0; x <= 1; x++ {
		for y := -1.0; y <= 1; y++ {
			for z := -1.0; z <= 1; z++ {
				pts = append(pts, geom.V(x, y, z))
			}
		}
	}
	h := hull.New(pts)
	fmt.Println("dimension:", h.Dim(), "vertices:", h.Len(), "neighbours of vertex 0:", len(h.Neighbors(0)))

	v, steps := h.Extreme(geom.V(1, 2, 3), 0)
	fmt.Println("extreme along (1, 2, 3):", h.Vertex(v), "input point", h.Index(v), "after", steps, "moves")
	v, steps = h.Extreme(geom.V(1.1, 2, 3), v)
	fmt.Println("extreme along (1.1, 2, 3):", h.Vertex(v), "after", steps, "moves")
	// Output:
	// dimension: 3 vertices: 8 neighbours of vertex 0: 3
	// extreme along (1, 2, 3): (1, 1, 1) input point 26 after 3 moves
	// extreme along (1.1, 2, 3): (1, 1, 1) after 0 moves
}
