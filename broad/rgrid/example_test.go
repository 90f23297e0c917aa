package rgrid_test

import (
	"fmt"

	"github.com/collide3d/collide/broad/rgrid"
	"github.com/collide3d/collide/bv"
	"github.com/collide3d/collide/geom"
)

// CDFast's setting: static boxes in the unit cube, one moving object
// bounded by a sphere (level of detail 0), and the pairs of each step.
func Example() {
	unit := geom.AABB{Max: geom.V(1, 1, 1)}
	p := rgrid.New(rgrid.Options{Bounds: &unit})

	// Static objects 0..3: cubes of side 0.069, the bounds of the paper's
	// spheres of radius 0.0345.
	for i, c := range []geom.Vec3{{X: 0.2, Y: 0.2, Z: 0.2}, {X: 0.5, Y: 0.5, Z: 0.5}, {X: 0.55, Y: 0.5, Z: 0.5}, {X: 0.8, Y: 0.2, Z: 0.7}} {
		h := geom.V(0.0345, 0.0345, 0.0345)
		p.Add(int32(i), geom.AABB{Min: c.Sub(h), Max: c.Add(h)}, true)
	}

	// The moving object 4 flies along x; its box bounds the sphere.
	sphere := bv.Sphere{C: geom.V(0.1, 0.5, 0.5), R: 0.05}
	for step := range 5 {
		r := geom.V(sphere.R, sphere.R, sphere.R)
		b := geom.AABB{Min: sphere.C.Sub(r), Max: sphere.C.Add(r)}
		if step == 0 {
			p.Add(4, b, false)
		} else {
			p.Move(4, b)
		}
		p.SetSpheres(4, []bv.Sphere{sphere})
		fmt.Printf("step %d at x=%.1f:", step, sphere.C.X)
		p.Pairs(func(a, b int32) bool {
			fmt.Printf(" (%d, %d)", a, b)
			return true
		})
		fmt.Println()
		sphere.C.X += 0.1
	}
	st := p.Stats()
	fmt.Printf("%d static pairs, %d sphere-box tests\n", st.StaticPairs, st.SphereBoxTests)
	// Output:
	// step 0 at x=0.1:
	// step 1 at x=0.2:
	// step 2 at x=0.3:
	// step 3 at x=0.4:
	// step 4 at x=0.5: (1, 4) (2, 4)
	// 2 static pairs, 10 sphere-box tests
}
