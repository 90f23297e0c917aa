package depth_test

import (
	"context"
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

// SignedDistance answers apart, touching and penetrating in one call, with
// both models placed by their own poses.
func ExampleSignedDistance() {
	box := gen.Must(gen.Box(geom.Box(geom.V(0, 0, 0), geom.V(1, 1, 1)), 1))
	env, _ := collide.Build(box, collide.BuildOptions{})
	fly, _ := collide.Build(box, collide.BuildOptions{})
	envPose := geom.Translation(geom.V(10, 0, 0)) // env is moved too
	for _, x := range []float64{11.5, 11, 10.75} {
		s, err := depth.SignedDistance(context.Background(), env, envPose, fly, geom.Translation(geom.V(x, 0, 0)), depth.SignedOptions{})
		if err != nil {
			panic(err)
		}
		fmt.Printf("fly at x=%v: %v, signed distance %v, PD in [%v, %v], move %v\n", x, s.Kind, s.Distance, s.Lower, s.Upper, s.Move)
	}
	// Output:
	// fly at x=11.5: apart, signed distance 0.5, PD in [0, 0], move (0, 0, 0)
	// fly at x=11: touching, signed distance 0, PD in [0, 0], move (0, 0, 0)
	// fly at x=10.75: penetrating, signed distance -0.25, PD in [0.25, 0.25], move (0.25, 0, 0)
}

// PatchDepths bounds the penetration along each patch's normal (here a
// patch made by hand; collide.QueryOptions.Patches computes them).
func ExamplePatchDepths() {
	box := gen.Must(gen.Box(geom.Box(geom.V(0, 0, 0), geom.V(1, 1, 1)), 1))
	env, _ := collide.Build(box, collide.BuildOptions{})
	fly, _ := collide.Build(box, collide.BuildOptions{})
	patches := []collide.Patch{
		{Point: geom.V(0.8, 0.5, 0.5), Normal: geom.V(1, 0, 0)},
		{Point: geom.V(0.8, 0.5, 0.5), Normal: geom.V(0, 1, 0)},
	}
	err := depth.PatchDepths(context.Background(), env, geom.Identity(), fly, geom.Translation(geom.V(0.75, 0.5, 0)), patches, depth.Options{})
	if err != nil {
		panic(err)
	}
	for _, p := range patches {
		fmt.Printf("along %v: depth in [%.4f, %.4f]\n", p.Normal, p.Depth[0], p.Depth[1])
	}
	// Output:
	// along (1, 0, 0): depth in [0.2500, 0.2500]
	// along (0, 1, 0): depth in [0.5000, 0.5000]
}
