package bv_test

import (
	"fmt"

	"github.com/collide3d/collide/bv"
	"github.com/collide3d/collide/geom"
)

// ExampleFit bounds two triangles by 18-DOPs: their boxes overlap, but a
// diagonal slab separates them.
func ExampleFit() {
	ta := geom.Tri(geom.V(0, 0, 0), geom.V(1, 0, 0), geom.V(0, 1, 0))
	tb := geom.Tri(geom.V(1, 1, 0), geom.V(0.7, 1, 0), geom.V(1, 0.7, 0))
	boxA, boxB := bv.FitTriangles(bv.K6, ta), bv.FitTriangles(bv.K6, tb)
	a, b := bv.FitTriangles(bv.K18, ta), bv.FitTriangles(bv.K18, tb)
	fmt.Println("boxes overlap:", boxA.Overlaps(&boxB))
	fmt.Println("18-DOPs overlap:", a.Overlaps(&b))
	fmt.Println("vertices of the first 18-DOP:", len(a.Vertices(nil)))
	// Output:
	// boxes overlap: true
	// 18-DOPs overlap: false
	// vertices of the first 18-DOP: 3
}
