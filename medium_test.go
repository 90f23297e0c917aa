package collide_test

import (
	"math"
	"slices"
	"testing"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh/gen"
)

// mediumScene returns a torus and a sphere across its tube, built with b,
// and poses of the sphere around the ring, grazing and crossing the tube.
func mediumScene(t testing.TB, b collide.BV) (env, fly *collide.Model, poses []geom.Pose) {
	t.Helper()
	var err error
	if env, err = collide.Build(gen.Must(gen.Torus(geom.Vec3{}, 1, 0.3, 1500)), collide.BuildOptions{BV: b}); err != nil {
		t.Fatal(err)
	}
	if fly, err = collide.Build(gen.Must(gen.Icosphere(geom.Vec3{}, 0.2, 300)), collide.BuildOptions{BV: b}); err != nil {
		t.Fatal(err)
	}
	for i := range 24 {
		a := 2 * math.Pi * float64(i) / 24
		r := 1 + 0.6*math.Sin(5*a)
		poses = append(poses, geom.FromAxisAngle(geom.V(1, 2, 3), 5*a, geom.V(r*math.Cos(a), r*math.Sin(a), 0.6*math.Sin(3*a))))
	}
	return env, fly, poses
}

// TestMediumQuery checks QueryOptions.Medium against the sequential query
// for every bounding volume (and brute force), at poses around a torus:
// all pairs, the same pairs and counts of pairs; first contact, in
// contact iff the sequential query is, with a pair in contact; within a
// tolerance too; and through CollideFunc, whose callback can stop it.
func TestMediumQuery(t *testing.T) {
	for _, b := range testBVs() {
		env, fly, poses := mediumScene(t, b)
		var q, mq collide.Query
		hits := 0
		for i, p := range poses {
			for _, eps := range []float64{0, 0.02} {
				o := collide.QueryOptions{All: true, Eps: eps}
				want := slices.Clone(mustQuery(t, &q, env, fly, p, o).Pairs)
				o.Medium = true
				got := mustQuery(t, &mq, env, fly, p, o)
				if !slices.Equal(got.Pairs, want) || got.Collide != (len(want) > 0) {
					t.Errorf("%v pose %d eps %g: medium grain %d pairs, sequential %d", b, i, eps, len(got.Pairs), len(want))
				}
				if len(want) > 0 {
					hits++
				}
				o.All = false
				first := mustQuery(t, &mq, env, fly, p, o)
				if first.Collide != (len(want) > 0) || len(first.Pairs) != min(1, len(want)) ||
					len(want) > 0 && !slices.Contains(want, first.Pairs[0]) {
					t.Errorf("%v pose %d eps %g: medium grain's first contact %v, sequential pairs %d", b, i, eps, first.Pairs, len(want))
				}
				n := 0
				if _, err := mq.CollideFunc(env, geom.Pose{}, fly, p, collide.QueryOptions{All: true, Eps: eps, Medium: true},
					func(collide.Pair) bool { n++; return n < 3 }); err != nil {
					t.Fatal(err)
				}
				if n != min(3, len(want)) {
					t.Errorf("%v pose %d eps %g: CollideFunc stopped after 3 pairs called %d times, of %d pairs", b, i, eps, n, len(want))
				}
			}
		}
		if hits == 0 || hits == 2*len(poses) {
			t.Errorf("%v: %d of %d queries in contact: the scene tests nothing", b, hits, 2*len(poses))
		}
	}
}

// TestMediumAllocs checks that a reused Query's medium-grain queries
// allocate nothing once warm, in both modes.
func TestMediumAllocs(t *testing.T) {
	env, fly, poses := mediumScene(t, collide.BVDefault)
	for _, o := range []collide.QueryOptions{{Medium: true}, {All: true, Medium: true}} {
		var q collide.Query
		for range 3 {
			for _, p := range poses {
				mustQuery(t, &q, env, fly, p, o)
			}
		}
		i := 0
		allocs := testing.AllocsPerRun(100, func() {
			q.Check(env, fly, poses[i%len(poses)], o)
			i++
		})
		if allocs != 0 {
			t.Errorf("%+v: %v allocations per query, want 0", o, allocs)
		}
	}
}
