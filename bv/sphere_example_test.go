package bv_test

import (
	"fmt"

	"github.com/collide3d/collide/bv"
	"github.com/collide3d/collide/geom"
)

// ExampleBoundingSphere bounds the corners of a unit cube (and a point
// inside it) by their minimum enclosing sphere, then tests it against two
// other spheres.
func ExampleBoundingSphere() {
	pts := []geom.Vec3{
		geom.V(0, 0, 0), geom.V(1, 0, 0), geom.V(0, 1, 0), geom.V(1, 1, 0),
		geom.V(0, 0, 1), geom.V(1, 0, 1), geom.V(0, 1, 1), geom.V(1, 1, 1),
		geom.V(0.5, 0.25, 0.75),
	}
	s := bv.BoundingSphere(pts)
	fmt.Printf("centre (%.6f, %.6f, %.6f), radius %.6f (√3/2 = 0.866025)\n", s.C.X, s.C.Y, s.C.Z, s.R)
	fmt.Println("contains every point:", s.Contains(pts[0]) && s.Contains(pts[7]) && s.Contains(pts[8]))

	near := bv.Sphere{C: geom.V(2, 0.5, 0.5), R: 0.7}
	far := bv.Sphere{C: geom.V(3, 3, 3), R: 1}
	fmt.Println("overlaps near:", s.Overlaps(near))
	fmt.Println("overlaps far:", s.Overlaps(far))

	// Touching spheres overlap: the test is on closed balls, and exact.
	a, b := bv.Sphere{C: geom.V(0, 0, 0), R: 1}, bv.Sphere{C: geom.V(2, 0, 0), R: 1}
	fmt.Println("touching:", a.Overlaps(b))
	// Output:
	// centre (0.500000, 0.500000, 0.500000), radius 0.866025 (√3/2 = 0.866025)
	// contains every point: true
	// overlaps near: true
	// overlaps far: false
	// touching: true
}
