package octree_test

import (
	"fmt"
	"slices"

	"github.com/collide3d/collide/broad"
	"github.com/collide3d/collide/broad/octree"
	"github.com/collide3d/collide/geom"
)

func cube(x, y, z, s float64) geom.AABB {
	return geom.AABB{Min: geom.V(x, y, z), Max: geom.V(x+s, y+s, z+s)}
}

// pairs returns the pairs of one call of p.Pairs, in order.
func pairs(p broad.Phase) [][2]int32 {
	var out [][2]int32
	p.Pairs(func(a, b int32) bool { out = append(out, [2]int32{a, b}); return true })
	slices.SortFunc(out, func(x, y [2]int32) int { return int(x[0]-y[0])*1000 + int(x[1]-y[1]) })
	return out
}

// A floor, two crates on it and a ball above: the first Pairs reports
// every overlapping pair, the next ones only the pairs of what moved.
func Example() {
	p := octree.New()
	p.Add(0, geom.AABB{Min: geom.V(-10, -10, -1), Max: geom.V(10, 10, 0)}, true) // the floor, static
	p.Add(1, cube(0, 0, 0, 1), false)                                            // a crate on the floor
	p.Add(2, cube(1, 0, 0, 1), false)                                            // another, touching the first
	p.Add(3, cube(5, 5, 3, 1), false)                                            // a ball in the air
	fmt.Println(pairs(p))
	p.Move(3, cube(5, 5, 0, 1)) // the ball falls
	fmt.Println(pairs(p))
	fmt.Println(pairs(p)) // nothing moved
	// Output:
	// [[0 1] [0 2] [1 2]]
	// [[0 3]]
	// []
}

// Options fix the region and the depth of the tree, here a 100-unit cube
// in 2^5 cells a side; objects outside it still pair exactly.
func ExampleNewWith() {
	p := octree.NewWith(octree.Options{Bounds: cube(0, 0, 0, 100), Depth: 5})
	p.Add(0, cube(10, 10, 10, 2), false)
	p.Add(1, cube(11, 11, 11, 2), false)
	p.Add(2, cube(500, 500, 500, 1), false) // far out: in a border octant
	p.Add(3, cube(501, 500, 500, 1), false) // touching it
	fmt.Println(pairs(p), p.Depth())
	// Output:
	// [[0 1] [2 3]] 5
}
