package shape_test

import (
	"fmt"

	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/nc/shape"
)

// A ball-end mill of radius 3 (its ball centred 3 above the tool tip) and
// its shank (a cylinder of radius 3 from height 3 to 40 above the tip) move
// along x. At tip height 1 the ball centres are at 4, 6 above a floor at −2:
// a miss; at tip height −2 they are exactly 3 above it: a touch, a hit. At
// the end of the move the shank's axis is exactly 3 from a wall at x = 8: a
// hit; the wall one ulp farther is not touched.
func Example() {
	floor := geom.Tri(geom.V(-10, -10, -2), geom.V(10, -10, -2), geom.V(0, 10, -2))
	move := shape.Segment(geom.V(-5, 0, 1), geom.V(5, 0, 1))
	fmt.Println(shape.Ball(move, 3, 3, floor))
	low := shape.Segment(geom.V(-5, 0, -2), geom.V(5, 0, -2))
	fmt.Println(shape.Ball(low, 3, 3, floor))
	wall := geom.Tri(geom.V(8, -5, 0), geom.V(8, 5, 0), geom.V(8, 0, 30))
	fmt.Println(shape.Cylinder(move, 3, 3, 40, wall))
	wall2 := geom.Tri(geom.V(8.000000000000002, -5, 0), geom.V(8.000000000000002, 5, 0), geom.V(8.000000000000002, 0, 30))
	fmt.Println(shape.Cylinder(move, 3, 3, 40, wall2))
	// Output:
	// false
	// true
	// true
	// false
}
