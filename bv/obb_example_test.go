package bv_test

import (
	"fmt"
	"math"

	"github.com/collide3d/collide/bv"
	"github.com/collide3d/collide/geom"
)

// ExampleFitOBB bounds a thin slab, 8 × 4 × 0.02, turned 30° about the z
// axis and then tilted 45° about the x axis. Its axis-aligned box is more
// than a hundred times larger than the slab; the oriented box fitted to its
// convex hull is the slab itself, up to rounding.
func ExampleFitOBB() {
	// The 8 corners and 12 faces of the slab, then the rotation.
	var corners [8]geom.Vec3
	for i := range corners {
		x, y, z := -4.0, -2.0, -0.01
		if i&1 != 0 {
			x = 4
		}
		if i&2 != 0 {
			y = 2
		}
		if i&4 != 0 {
			z = 0.01
		}
		corners[i] = geom.V(x, y, z)
	}
	faces := [6][4]int{{0, 1, 3, 2}, {4, 6, 7, 5}, {0, 4, 5, 1}, {2, 3, 7, 6}, {0, 2, 6, 4}, {1, 5, 7, 3}}
	pose := geom.FromAxisAngle(geom.V(1, 0, 0), math.Pi/4, geom.V(0, 0, 0)).
		Compose(geom.FromAxisAngle(geom.V(0, 0, 1), math.Pi/6, geom.V(0, 0, 0)))
	var tris []geom.Triangle
	for _, f := range faces {
		a, b, c, d := pose.Apply(corners[f[0]]), pose.Apply(corners[f[1]]), pose.Apply(corners[f[2]]), pose.Apply(corners[f[3]])
		tris = append(tris, geom.Tri(a, b, c), geom.Tri(a, c, d))
	}

	box := bv.FitOBB(tris, bv.FitHull)
	aabb := geom.EmptyAABB()
	for _, t := range tris {
		aabb = aabb.Union(t.Bounds())
	}
	fmt.Printf("half-extents: %.4f %.4f %.4f\n", box.Half.X, box.Half.Y, box.Half.Z)
	fmt.Printf("OBB volume: %.4f\n", box.Volume())
	fmt.Printf("AABB volume: %.1f\n", aabb.Volume())
	fmt.Println("normal axis:", box.Axes.Row(2).Sub(pose.R.Col(2)).Norm() < 1e-12 || box.Axes.Row(2).Add(pose.R.Col(2)).Norm() < 1e-12)
	// Output:
	// half-extents: 4.0000 2.0000 0.0100
	// OBB volume: 0.6400
	// AABB volume: 250.0
	// normal axis: true
}
