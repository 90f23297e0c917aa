package collide_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/internal/testgeom"
	"github.com/collide3d/collide/mesh/gen"
)

// newDOPs are the dissertation's 8-, 12- and 20-DOPs, the sets without the
// axes.
var newDOPs = []collide.BV{collide.KDOP8, collide.KDOP12, collide.KDOP20}

// TestNewDOPsCrossK flies trees of the new k against trees of other k
// (the flying k-DOPs computed in the environment's directions: each new
// k against itself, the 6- and the 18-DOP, both ways) on the
// adversarial scenes (touching, coplanar, degenerate, far from the origin
// and tiny), at the identity, at random poses and at one-ulp translations,
// both modes, a new k on at least one side, against the brute-force oracle.
func TestNewDOPsCrossK(t *testing.T) {
	kdops := []collide.BV{collide.KDOP6, collide.KDOP8, collide.KDOP12, collide.KDOP14, collide.KDOP18, collide.KDOP20, collide.KDOP26}
	r := rand.New(rand.NewPCG(36, 8))
	found := 0
	for si, sc := range testgeom.AdversarialScenes(5) {
		if si%2 == 1 && sc.Name != "lattice-far" && sc.Name != "coplanar-touch" {
			continue // every other scene, keeping the far and touching ones
		}
		poses := []geom.Pose{geom.Identity()}
		if b := sc.Fly.Bounds(); !b.IsEmpty() {
			c := b.Center()
			s := b.Size().Norm() * 0.2
			poses = append(poses,
				// A turn about the flying model's centre, and a shift.
				geom.Translation(c.Add(geom.V(s*r.NormFloat64(), s*r.NormFloat64(), s*r.NormFloat64()))).
					Compose(geom.FromAxisAngle(geom.V(r.NormFloat64(), r.NormFloat64(), r.NormFloat64()), r.Float64(), geom.Vec3{})).
					Compose(geom.Translation(c.Neg())),
				geom.Translation(geom.V(ulp(c.X), 0, 0)))
		}
		models := map[collide.BV][2]*collide.Model{}
		for _, b := range kdops {
			env, err := collide.Build(sc.Env, collide.BuildOptions{BV: b})
			if err != nil {
				t.Fatal(err)
			}
			fly, err := collide.Build(sc.Fly, collide.BuildOptions{BV: b})
			if err != nil {
				t.Fatal(err)
			}
			models[b] = [2]*collide.Model{env, fly}
		}
		for pi, p := range poses {
			if p.Validate() != nil {
				continue
			}
			want := testgeom.Brute(sc.Env, sc.Fly, p, 0)
			found += len(want)
			for _, eb := range kdops {
				for _, fb := range kdops {
					// Each new k against itself, and flown against and
					// flying over the 6- and the 18-DOP.
					newE, newF := slices.Contains(newDOPs, eb), slices.Contains(newDOPs, fb)
					other := func(b collide.BV) bool { return b == collide.KDOP6 || b == collide.KDOP18 }
					if !(newE && eb == fb || newE && other(fb) || newF && other(eb)) {
						continue
					}
					name := fmt.Sprintf("%s pose %d: %s against %s", sc.Name, pi, fb, eb)
					env, fly := models[eb][0], models[fb][1]
					if got := pairsOf(mustCheck(t, env, fly, p, collide.QueryOptions{All: true})); !slices.Equal(got, want) {
						t.Fatalf("%s: %d pairs, the oracle %d", name, len(got), len(want))
					}
					if res := mustCheck(t, env, fly, p, collide.QueryOptions{}); res.Collide != (len(want) > 0) {
						t.Fatalf("%s: first contact says %v, the oracle %d pairs", name, res.Collide, len(want))
					}
				}
			}
		}
	}
	if found == 0 {
		t.Fatal("no contact in any scene: a weak test")
	}
}

// ulp returns the spacing of float64 at x (at least the smallest normal).
func ulp(x float64) float64 {
	if x < 0 {
		x = -x
	}
	return max(x*0x1p-52, 0x1p-1022)
}

// TestNewDOPsQueryAllocs checks that a reused Query on the new DOPs'
// trees allocates nothing once warm, in both modes and with a tolerance.
func TestNewDOPsQueryAllocs(t *testing.T) {
	for _, b := range newDOPs {
		env, fly, poses := torusScene(t, b)
		for _, o := range []collide.QueryOptions{
			{}, {All: true}, {All: true, Eps: 0.01},
			{All: true, Experiment: collide.Experiment{ExactRoot: true}},
		} {
			var q collide.Query
			for _, p := range poses {
				mustQuery(t, &q, env, fly, p, o)
			}
			i := 0
			allocs := testing.AllocsPerRun(100, func() {
				q.Check(env, fly, poses[i%len(poses)], o)
				i++
			})
			if allocs != 0 {
				t.Errorf("%v %+v: %v allocations per query, want 0", b, o, allocs)
			}
		}
	}
}

// TestNewDOPsFar checks that a query with nothing near ends after one
// volume test for the sets without the axes too: at (100, 0, 0) and (0, −3,
// 0) on the flying model's ball against the box derived from the
// environment root's diagonals, without tumbling; at (2, 2, 2), inside the
// 8-DOP's loose derived box, on the tumbled root. Near poses are checked
// against the oracle.
func TestNewDOPsFar(t *testing.T) {
	torus := gen.Must(gen.Torus(geom.Vec3{}, 1, 0.3, 4000))
	ball := gen.Must(gen.Icosphere(geom.Vec3{}, 0.1, 500))
	for _, b := range append([]collide.BV{collide.KDOP18}, newDOPs...) {
		env, fly, _ := torusScene(t, b)
		for i, far := range []geom.Vec3{geom.V(100, 0, 0), geom.V(0, -3, 0), geom.V(2, 2, 2)} {
			p := geom.FromAxisAngle(geom.V(1, 2, 3), 0.7, far)
			res := mustCheck(t, env, fly, p, collide.QueryOptions{})
			if res.Collide || res.Stats.BVTests != 1 || i < 2 && res.Stats.Updates != 0 {
				t.Errorf("%v at %v: collide %v after %d volume tests, %d updates", b, far, res.Collide, res.Stats.BVTests, res.Stats.Updates)
			}
		}
		found := 0
		for _, x := range []float64{1.38, 1.39, 1.4, 1.41} {
			p := geom.FromAxisAngle(geom.V(1, 2, 3), 0.7, geom.V(x, 0, 0))
			want := testgeom.Brute(torus, ball, p, 0)
			found += len(want)
			if got := pairsOf(mustCheck(t, env, fly, p, collide.QueryOptions{All: true})); !slices.Equal(got, want) {
				t.Errorf("%v at x = %g: %d pairs, the oracle %d", b, x, len(got), len(want))
			}
		}
		if found == 0 {
			t.Errorf("%v: no contact near the torus: a weak test", b)
		}
	}
}
