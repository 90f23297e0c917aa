package collide_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh/gen"
)

// TestQueryForget checks that a Query that forgets its last pair between
// two first-contact queries answers each as the function Collide does,
// while one that remembers it may report the last pose's pair, still in
// contact (the case must occur, or the test tests nothing).
func TestQueryForget(t *testing.T) {
	m, err := collide.Build(gen.Must(gen.Icosphere(geom.Vec3{}, 1, 1280)), collide.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(3, 3))
	var kept, forgot collide.Query
	remembered := 0
	for range 300 {
		axis := geom.Vec3{X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}
		p := geom.Pose{R: geom.AxisAngle(axis, 0.3*rng.Float64()).Mat3(), T: geom.Vec3{X: 1.5 + 0.01*rng.Float64()}}
		want, err := collide.Collide(m, geom.Pose{}, m, p, collide.QueryOptions{})
		if err != nil || !want.Collide {
			t.Fatalf("pose %v: %v, %v", p, want.Collide, err)
		}
		forgot.Forget()
		got, err := forgot.Collide(m, geom.Pose{}, m, p, collide.QueryOptions{})
		if err != nil || !slices.Equal(got.Pairs, want.Pairs) {
			t.Fatalf("after Forget: %v, %v; want Collide's %v", got.Pairs, err, want.Pairs)
		}
		r, err := kept.Collide(m, geom.Pose{}, m, p, collide.QueryOptions{})
		if err != nil || !r.Collide {
			t.Fatal(err)
		}
		if !slices.Equal(r.Pairs, want.Pairs) {
			remembered++
		}
	}
	if remembered == 0 {
		t.Error("the query that remembers its last pair always answered as Collide: the scene does not test Forget")
	}
}
