package depth_test

import (
	"fmt"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/depth"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh/gen"
)

func ExampleTranslation() {
	// Two unit cubes, the flying one pushed 0.25 into the other along x.
	env, _ := collide.Build(gen.Must(gen.Box(geom.Box(geom.V(0, 0, 0), geom.V(1, 1, 1)), 1)), collide.BuildOptions{})
	fly, _ := collide.Build(gen.Must(gen.Box(geom.Box(geom.V(0, 0, 0), geom.V(1, 1, 1)), 1)), collide.BuildOptions{})
	res, err := depth.Translation(env, fly, geom.Translation(geom.V(0.75, 0.1, 0.2)), depth.Options{})
	if err != nil {
		panic(err)
	}
	fmt.Printf("PD in [%.3f, %.3f], exact %v, move %v\n", res.Lower, res.Upper, res.Exact, res.Move)

	// A ball pushed into the tube of a torus: non-convex, so certified
	// bounds.
	torus, _ := collide.Build(gen.Must(gen.Torus(geom.V(0, 0, 0), 2, 0.6, 400)), collide.BuildOptions{})
	ball, _ := collide.Build(gen.Must(gen.Icosphere(geom.V(0, 0, 0), 0.5, 80)), collide.BuildOptions{})
	res, err = depth.Translation(torus, ball, geom.Translation(geom.V(2, 0, 0.8)), depth.Options{})
	if err != nil {
		panic(err)
	}
	fmt.Printf("certified: %.2f ≤ PD ≤ %.2f\n", res.Lower, res.Upper)
	// Output:
	// PD in [0.250, 0.250], exact true, move (0.25, 0, 0)
	// certified: 0.28 ≤ PD ≤ 0.28
}

// A budget bounds the search: stopped after 120 exact steps, the bounds
// are still certified, only further apart.
func ExampleOptions_budget() {
	torus, _ := collide.Build(gen.Must(gen.Torus(geom.V(0, 0, 0), 2, 0.6, 400)), collide.BuildOptions{})
	ball, _ := collide.Build(gen.Must(gen.Icosphere(geom.V(0, 0, 0), 0.5, 80)), collide.BuildOptions{})
	res, err := depth.Translation(torus, ball, geom.Translation(geom.V(2, 0, 0.8)), depth.Options{Budget: collide.Budget{Tests: 120}})
	if err != nil {
		panic(err)
	}
	fmt.Printf("stopped %v after %d tests: %.2f ≤ PD ≤ %.2f\n", res.Stopped, res.Stats.Tests, res.Lower, res.Upper)
	// Output:
	// stopped true after 120 tests: 0.09 ≤ PD ≤ 0.28
}
