package bvh

import (
	"math"
	"slices"
	"testing"

	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/internal/testgeom"
	"github.com/collide3d/collide/mesh"
	"github.com/collide3d/collide/mesh/gen"
)

// TestFrontRestarts checks the rule that drops a front costing more than a
// walk from the roots (frontState.restart), for every kind: on a flight
// that sweeps a ball along a torus and then far away and back, at every
// step the front finds the pairs the roots' walk finds (the oracle's, every
// eighth step); a query
// the rule sends back to the roots makes exactly the tests of a query
// without a front; the rule fires on some kind; and raising keeps the
// front no larger than the walk from the roots would leave it, give or
// take, once the ball has left (its pairs at most the tests of that walk).
func TestFrontRestarts(t *testing.T) {
	torus := gen.Must(gen.Torus(geom.Vec3{}, 1, 0.3, 600))
	ball := gen.Must(gen.Icosphere(geom.Vec3{}, 0.2, 80))
	var poses []geom.Pose
	for i := range 120 {
		a := 2 * math.Pi * float64(i) / 80
		r := 1.25
		if i >= 80 {
			r += 0.2 * float64(i-80) // leaving, far
		}
		if i >= 100 {
			r = 1.25 + 0.2*float64(120-i) // and back
		}
		poses = append(poses, geom.FromAxisAngle(geom.V(1, 2, 3), 3*a, geom.V(r*math.Cos(a), r*math.Sin(a), 0.1*math.Sin(4*a))))
	}
	const eps = 0.01
	fired := 0
	for _, o := range []Options{{K: 18}, {K: 6, FlyLeaf: 4}, {K: 18, Compact: true}, {Kind: OBB}, {Kind: RSS}, {Kind: Sphere, Leaf: 2}, {Kind: AABB}, {Kind: BoxTree, Leaf: 4}} {
		env, fly := mustBuildTree(t, torus, o), mustBuildTree(t, ball, o)
		var front Front
		var s1, s2 Scratch
		for i, p := range poses {
			restart := frontRestart(&front)
			var want, got [][2]int32
			st := Collide(env, fly, p, QueryOptions{All: true, Eps: eps}, &s1, func(q Pair) bool {
				want = append(want, [2]int32{q.Env, q.Fly})
				return true
			})
			ft := Collide(env, fly, p, QueryOptions{All: true, Eps: eps, Front: &front}, &s2, func(q Pair) bool {
				got = append(got, [2]int32{q.Env, q.Fly})
				return true
			})
			slices.SortFunc(want, cmpPair)
			slices.SortFunc(got, cmpPair)
			if !slices.Equal(got, want) {
				t.Fatalf("%v step %d: %d pairs from the front, %d from the roots", o.Kind, i, len(got), len(want))
			}
			if i%8 == 0 {
				if oracle := testgeom.Brute(torus, ball, p, eps); !slices.Equal(want, oracle) {
					t.Fatalf("%v step %d: %d pairs, oracle %d", o.Kind, i, len(want), len(oracle))
				}
			}
			if restart {
				fired++
				if n, m := st.BVTests+st.LeafTests, ft.BVTests+ft.LeafTests; n != m {
					t.Errorf("%v step %d: a front sent back to the roots made %d tests, the roots' walk %d", o.Kind, i, m, n)
				}
			}
			if i == 99 && int64(front.Len()) > st.BVTests+st.LeafTests+1 {
				t.Errorf("%v step %d: far from the torus the front holds %d pairs, the walk from the roots makes %d tests", o.Kind, i, front.Len(), st.BVTests+st.LeafTests)
			}
		}
	}
	t.Logf("%d queries sent back to the roots", fired)
	if fired == 0 {
		t.Errorf("no front was sent back to the roots")
	}
}

// frontRestart reports whether the next query of fr walks from the roots
// after its first.
func frontRestart(fr *Front) bool {
	switch s := fr.state.(type) {
	case *frontState[noFrame]:
		return s.restart
	case *frontState[boxFrame]:
		return s.restart
	}
	return false
}

// cmpPair orders pairs of triangles.
func cmpPair(a, b [2]int32) int {
	if a[0] != b[0] {
		return int(a[0] - b[0])
	}
	return int(a[1] - b[1])
}

// mustBuildTree builds m's tree with o.
func mustBuildTree(t *testing.T, m *mesh.TriMesh, o Options) *Tree {
	t.Helper()
	tr, err := Build(m, o)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}
