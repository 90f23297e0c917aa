package geom_test

import (
	"fmt"

	"github.com/collide3d/collide/geom"
)

func ExampleTriTriLowerBound() {
	a := geom.Tri(geom.V(0, 0, 0), geom.V(1, 0, 0), geom.V(0, 1, 0))
	b := geom.Tri(geom.V(0, 0, 2), geom.V(1, 0, 2), geom.V(0, 1, 3))
	d, _, _ := geom.TriTriDistance(a, b)
	L, B := geom.TriTriLowerBound(a, b), geom.TriTriDistanceBound(a, b)
	// L ≤ d, and the computed distance is within B of the exact one.
	fmt.Println(L <= d, L > 1.99, d, B < 1e-12)
	// Output: true true 2 true
}
