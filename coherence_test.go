package collide_test

import (
	"errors"
	"fmt"
	"log"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh/gen"
)

// ExampleDistance measures how far apart two spheres are, with the
// witness triangles and points, and asks whether they are farther apart
// than 2 (a cut-off, answered sooner).
func ExampleDistance() {
	ball := gen.Must(gen.Icosphere(geom.Vec3{}, 1, 320))
	env, err := collide.Build(ball, collide.BuildOptions{BV: collide.RSS})
	if err != nil {
		log.Fatal(err)
	}
	fly, err := collide.Build(ball, collide.BuildOptions{BV: collide.RSS})
	if err != nil {
		log.Fatal(err)
	}
	d, err := collide.Distance(env, fly, geom.Translation(geom.V(3, 0, 0)), collide.DistanceOptions{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("distance %.3f, the closest points %.3f apart\n", d.Distance, d.PEnv.Distance(d.PFly))
	far, err := collide.Distance(env, fly, geom.Translation(geom.V(3, 0, 0)), collide.DistanceOptions{Max: 0.5})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("farther than 0.5:", far.Far)
	// Output:
	// distance 1.000, the closest points 1.000 apart
	// farther than 0.5: true
}

// ExampleFront keeps a front from one query to the next along a path: the
// answers are those of queries from the roots; many pairs of nodes are kept
// without a test.
func ExampleFront() {
	torus := gen.Must(gen.Torus(geom.Vec3{}, 1, 0.3, 2000))
	ball := gen.Must(gen.Icosphere(geom.Vec3{}, 0.2, 320))
	env, _ := collide.Build(torus, collide.BuildOptions{})
	fly, _ := collide.Build(ball, collide.BuildOptions{})
	var q collide.Query
	var front collide.Front
	same, contacts := true, 0
	for i := range 200 {
		a := float64(i) * 0.005
		pose := geom.Translation(geom.V(math.Cos(a)*1.25, math.Sin(a)*1.25, 0))
		fresh, _ := collide.Check(env, fly, pose, collide.QueryOptions{All: true})
		got, _ := q.Check(env, fly, pose, collide.QueryOptions{All: true, Front: &front})
		same = same && slices.Equal(got.Pairs, fresh.Pairs)
		if got.Collide {
			contacts++
		}
	}
	fmt.Println("same pairs:", same, "steps in contact:", contacts)
	// Output: same pairs: true steps in contact: 200
}

// ExampleQuery_Resume asks a time-critical question: a budget of 20 tests
// is not enough to say "no contact" (Maybe), and the query goes on
// later from where it stopped.
func ExampleQuery_Resume() {
	torus := gen.Must(gen.Torus(geom.Vec3{}, 1, 0.3, 4000))
	ball := gen.Must(gen.Icosphere(geom.Vec3{}, 0.69, 1280)) // in the hole, close to the torus
	env, _ := collide.Build(torus, collide.BuildOptions{})
	fly, _ := collide.Build(ball, collide.BuildOptions{})
	var q collide.Query
	var rest collide.Pending
	pose := geom.Identity()
	r, _ := q.Check(env, fly, pose, collide.QueryOptions{Budget: collide.Budget{Tests: 20}, Pending: &rest})
	fmt.Println("contact:", r.Collide, "maybe:", r.Maybe)
	found := false
	for !rest.Done() {
		q.Resume(&rest, collide.Budget{Tests: 50}, func(collide.Pair) bool { found = true; return false })
	}
	fmt.Println("contact after resuming:", found)
	// Output:
	// contact: false maybe: true
	// contact after resuming: false
}

// TestDistanceFacade checks collide.Distance against brute-force models
// and the errors of a bad cut-off.
func TestDistanceFacade(t *testing.T) {
	envM := gen.Must(gen.Torus(geom.Vec3{}, 1, 0.3, 300))
	flyM := gen.Must(gen.Icosphere(geom.V(1, 0, 0), 0.3, 80))
	be, _ := collide.Build(envM, collide.BuildOptions{BV: collide.Brute})
	bf, _ := collide.Build(flyM, collide.BuildOptions{BV: collide.Brute})
	rng := rand.New(rand.NewPCG(1, 2))
	for _, b := range collide.BVs() {
		if b == collide.Brute {
			continue
		}
		env, err := collide.Build(envM, collide.BuildOptions{BV: b})
		if err != nil {
			t.Fatal(err)
		}
		fly, err := collide.Build(flyM, collide.BuildOptions{BV: b})
		if err != nil {
			t.Fatal(err)
		}
		for i := range 8 {
			p := geom.FromAxisAngle(geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()), rng.Float64()*6, geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()).Scale(float64(i)/4))
			want, err := collide.Distance(be, bf, p, collide.DistanceOptions{})
			if err != nil {
				t.Fatal(err)
			}
			got, err := collide.Distance(env, fly, p, collide.DistanceOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if got.Distance != want.Distance || (got.Distance == 0) != (got.Bound == 0) {
				t.Fatalf("%v pose %d: distance %g (bound %g), brute force %g", b, i, got.Distance, got.Bound, want.Distance)
			}
			c, _ := collide.Check(env, fly, p, collide.QueryOptions{})
			if c.Collide != (got.Distance == 0) {
				t.Fatalf("%v pose %d: distance %g, Check says contact %v", b, i, got.Distance, c.Collide)
			}
		}
		if _, err := collide.Distance(env, fly, geom.Identity(), collide.DistanceOptions{Max: math.NaN()}); !errors.Is(err, collide.ErrInvalidQuery) {
			t.Errorf("%v: a NaN cut-off: %v", b, err)
		}
	}
	var q collide.Query
	if _, err := q.Check(be, bf, geom.Identity(), collide.QueryOptions{Budget: collide.Budget{Tests: 5}}); !errors.Is(err, collide.ErrInvalidQuery) {
		t.Errorf("a budget without a Pending: %v", err)
	}
}

// TestDistanceBudget checks the facade's distance budget: a budget of one
// test stops the search far from a torus (Stopped, not Far, Lower at most
// the distance, Distance at least it, valid witnesses if any), a large one
// gives the answer of no budget with Lower = Distance, and brute-force
// models ignore it.
func TestDistanceBudget(t *testing.T) {
	envM := gen.Must(gen.Torus(geom.Vec3{}, 1, 0.3, 600))
	flyM := gen.Must(gen.Icosphere(geom.V(1, 0, 0), 0.3, 320))
	p := geom.Translation(geom.V(2, 2, 2))
	for _, b := range []collide.BV{collide.RSS, collide.KDOP18, collide.Brute} {
		env, _ := collide.Build(envM, collide.BuildOptions{BV: b})
		fly, _ := collide.Build(flyM, collide.BuildOptions{BV: b})
		full, err := collide.Distance(env, fly, p, collide.DistanceOptions{})
		if err != nil || full.Stopped || full.Lower != full.Distance {
			t.Fatalf("%v: no budget: %+v, %v", b, full, err)
		}
		r, err := collide.Distance(env, fly, p, collide.DistanceOptions{Budget: collide.Budget{Tests: 1}})
		if err != nil {
			t.Fatal(err)
		}
		if b == collide.Brute {
			if r.Stopped || r.Distance != full.Distance {
				t.Errorf("brute: a budget changed the answer: %+v", r)
			}
			continue
		}
		if !r.Stopped || r.Far || r.Lower > full.Distance || r.Distance < full.Distance {
			t.Errorf("%v: budget 1: stopped %v far %v lower %g distance %g; the distance is %g", b, r.Stopped, r.Far, r.Lower, r.Distance, full.Distance)
		}
		if r.Env >= 0 && r.Bound == 0 {
			t.Errorf("%v: budget 1: witnesses %d %d without a bound", b, r.Env, r.Fly)
		}
		r, _ = collide.Distance(env, fly, p, collide.DistanceOptions{Budget: collide.Budget{Tests: 1 << 40}})
		if r.Stopped || r.Distance != full.Distance || r.Lower != r.Distance {
			t.Errorf("%v: a large budget: %+v, want %g", b, r, full.Distance)
		}
	}
}
