package geom_test

import (
	"fmt"
	"math"

	"github.com/collide3d/collide/geom"
)

func ExampleTriTri() {
	floor := geom.Tri(geom.V(0, 0, 0), geom.V(1, 0, 0), geom.V(0, 1, 0))
	// A triangle standing on the floor touches it along an edge...
	standing := geom.Tri(geom.V(0.2, 0.2, 0), geom.V(0.4, 0.2, 0), geom.V(0.3, 0.2, 1))
	// ...and one lifted by the smallest float64 does not.
	lift := math.Nextafter(0, 1)
	lifted := geom.Tri(geom.V(0.2, 0.2, lift), geom.V(0.4, 0.2, lift), geom.V(0.3, 0.2, 1))
	fmt.Println(geom.TriTri(floor, standing), geom.TriTri(floor, lifted))
	// Output: true false
}

func ExampleOrient3D() {
	a, b, c := geom.V(0, 0, 0), geom.V(1, 0, 0), geom.V(0, 1, 0)
	fmt.Println(geom.Orient3D(a, b, c, geom.V(0.3, 0.3, 1)))
	fmt.Println(geom.Orient3D(a, b, c, geom.V(0.3, 0.3, 0)))
	fmt.Println(geom.Orient3D(a, b, c, geom.V(0.3, 0.3, -1e-300)))
	// Output:
	// 1
	// 0
	// -1
}

func ExampleTriTriDistance() {
	a := geom.Tri(geom.V(0, 0, 0), geom.V(1, 0, 0), geom.V(0, 1, 0))
	b := geom.Tri(geom.V(0, 0, 2), geom.V(1, 0, 2), geom.V(0, 1, 3))
	d, pa, pb := geom.TriTriDistance(a, b)
	fmt.Println(d, pa.Distance(pb))
	// Output: 2 2
}

func ExamplePose() {
	// A quarter turn about z, then a step along x.
	p := geom.FromAxisAngle(geom.V(0, 0, 1), math.Pi/2, geom.V(1, 0, 0))
	q := p.Apply(geom.V(1, 0, 0))
	fmt.Printf("%.3f %.3f %.3f\n", q.X, q.Y, q.Z)
	back := p.Inverse().Apply(q)
	fmt.Printf("%.3f %.3f %.3f\n", back.X, back.Y, back.Z)
	// Output:
	// 1.000 1.000 0.000
	// 1.000 0.000 0.000
}
