package bvh

import (
	"cmp"
	"math"
	"slices"
	"testing"

	"github.com/collide3d/collide/bv"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/internal/testgeom"
	"github.com/collide3d/collide/mesh"
	"github.com/collide3d/collide/mesh/gen"
)

// TestModes checks which mode Collide's options select (mode.go's table:
// a Front wins over a Budget, Restart over a Front, and a Budget drops
// Restart), and that Collide in each of them, the combinations included,
// finds the pairs brute force finds, for every kind of tree: all pairs,
// exactly and within a tolerance, and a first contact among them.
func TestModes(t *testing.T) {
	var pd Pending
	var fr Front
	b := Budget{Tests: 7}
	for _, c := range []struct {
		o    QueryOptions
		want mode
	}{
		{QueryOptions{}, modeContact},
		{QueryOptions{All: true, Eps: 0.1}, modeContact},
		{QueryOptions{Restart: true}, modeRestart},
		{QueryOptions{Front: &fr}, modeFront},
		{QueryOptions{Front: &fr, Restart: true}, modeRestart},
		{QueryOptions{Budget: b, Pending: &pd}, modeBudget},
		{QueryOptions{Budget: b, Pending: &pd, Restart: true}, modeBudget},
		{QueryOptions{Budget: b, Pending: &pd, Front: &fr}, modeFront},
		{QueryOptions{Budget: b}, modeContact},
		{QueryOptions{Pending: &pd}, modeContact},
	} {
		if got := c.o.request().mode; got != c.want {
			t.Errorf("%+v: mode %v, want %v", c.o, got, c.want)
		}
	}

	envM := gen.Must(gen.Torus(geom.Vec3{}, 1, 0.3, 600))
	flyM := gen.Must(gen.Icosphere(geom.V(1, 0, 0), 0.3, 80))
	var poses []geom.Pose
	for i := range 4 {
		a := 0.05 * float64(i)
		poses = append(poses, geom.FromAxisAngle(geom.V(1, 2, 3), a, geom.V(0.02*float64(i), 0.01, 0.05)))
	}
	sorted := func(ps []Pair) []Pair {
		slices.SortFunc(ps, func(a, b Pair) int { return cmp.Or(cmp.Compare(a.Env, b.Env), cmp.Compare(a.Fly, b.Fly)) })
		return ps
	}
	for _, o := range []Options{{K: bv.K6}, {K: bv.K18, Leaf: 4}, {Kind: OBB}, {Kind: Sphere}, {Kind: AABB}, {Kind: RSS, Leaf: 2}, {Kind: BoxTree, Leaf: 4}} {
		env, err := Build(envM, o)
		if err != nil {
			t.Fatal(err)
		}
		fly, err := Build(flyM, o)
		if err != nil {
			t.Fatal(err)
		}
		for _, eps := range []float64{0, 0.02} {
			for _, v := range []struct {
				name string
				o    QueryOptions
			}{
				{"contact", QueryOptions{}},
				{"restart", QueryOptions{Restart: true}},
				{"front", QueryOptions{Front: new(Front)}},
				{"front+restart", QueryOptions{Front: new(Front), Restart: true}},
				{"budget", QueryOptions{Budget: Budget{Tests: 5}, Pending: new(Pending)}},
				{"budget+restart", QueryOptions{Budget: Budget{Tests: 5}, Pending: new(Pending), Restart: true}},
			} {
				s := new(Scratch)
				for pi, p := range poses {
					var want []Pair
					for _, pr := range testgeom.Brute(envM, flyM, p, eps) {
						want = append(want, Pair{pr[0], pr[1]})
					}
					if len(want) == 0 {
						t.Fatalf("%v pose %d: no pairs; a weak test", o.Kind, pi)
					}
					for _, all := range []bool{true, false} {
						q := v.o
						q.All, q.Eps = all, eps
						var got []Pair
						fn := func(pr Pair) bool { got = append(got, pr); return true }
						Collide(env, fly, p, q, s, fn)
						for q.Pending != nil && !q.Pending.Done() && (all || len(got) == 0) {
							q.Pending.Resume(s, Budget{Tests: 5}, fn)
						}
						if all && !slices.Equal(sorted(got), want) {
							t.Errorf("%v %s eps %g pose %d: %d pairs, brute force %d", o.Kind, v.name, eps, pi, len(got), len(want))
						}
						if !all && (len(got) != 1 || !slices.Contains(want, got[0])) {
							t.Errorf("%v %s eps %g pose %d, first contact: %v", o.Kind, v.name, eps, pi, got)
						}
					}
				}
			}
		}
	}
}

// TestContactHint checks the first-contact query's hint: with a PairState,
// a query at the pose of the last contact finds it again with one triangle
// test and no volume test; at a pose where that pair has come apart it
// walks and finds what a query from scratch finds (contact or not); and
// the hint of another pair of trees is not used.
func TestContactHint(t *testing.T) {
	envM := gen.Must(gen.Torus(geom.Vec3{}, 1, 0.3, 2000))
	flyM := gen.Must(gen.Icosphere(geom.Vec3{}, 0.2, 320))
	touch := geom.FromAxisAngle(geom.V(1, 2, 3), 0.4, geom.V(1.3, 0, 0))
	apart := geom.FromAxisAngle(geom.V(1, 2, 3), 0.4, geom.V(0, 0, 0))
	for _, o := range []Options{{K: bv.K18}, {Kind: OBB}, {Kind: AABB}, {Kind: Sphere}, {Kind: RSS}, {Kind: BoxTree}} {
		env, fly := mustBuildTree(t, envM, o), mustBuildTree(t, flyM, o)
		var s Scratch
		var ps PairState
		q := QueryOptions{State: &ps}
		var got []Pair
		fn := func(p Pair) bool { got = append(got, p); return true }
		if st := Collide(env, fly, touch, q, &s, fn); len(got) != 1 || st.BVTests == 0 {
			t.Fatalf("%v: first query: %v, %+v; want one pair after a walk", o.Kind, got, st)
		}
		hit := got[0]
		got = got[:0]
		if st := Collide(env, fly, touch, q, &s, fn); len(got) != 1 || got[0] != hit || st.TriTests != 1 || st.BVTests+st.LeafTests != 0 {
			t.Errorf("%v: again at the same pose: %v, %+v; want %v after one triangle test", o.Kind, got, st, hit)
		}
		got = got[:0]
		if st := Collide(env, fly, apart, q, &s, fn); len(got) != 0 || st.BVTests == 0 {
			t.Errorf("%v: apart: %v, %+v; want none after a walk", o.Kind, got, st)
		}
		other := mustBuildTree(t, flyM, o)
		got = got[:0]
		if st := Collide(env, other, touch, q, &s, fn); len(got) != 1 || st.BVTests == 0 {
			t.Errorf("%v: another flying tree: %v, %+v; want one pair after a walk", o.Kind, got, st)
		}
	}
}

// TestApartEdge checks the k-DOP query's early end (dopQuery.apart) where
// it must not end: a flying model touching the environment root's box at
// a point of its face (rotated, so that the flying root is tumbled
// otherwise), at one ulp from it, and at a tolerance equal to the gap, at
// the origin and far from it, against the exact answer.
func TestApartEdge(t *testing.T) {
	for _, off := range []float64{0, 1e6, -3e9} {
		o := geom.V(off, off, off)
		env := &mesh.TriMesh{Verts: []geom.Vec3{
			geom.V(1, 0, 0).Add(o), geom.V(1, 1, 0).Add(o), geom.V(1, 0, 1).Add(o),
			geom.V(-1, -1, -1).Add(o), geom.V(-1, -0.5, -1).Add(o), geom.V(-1, -1, -0.5).Add(o),
		}, Tris: [][3]int32{{0, 1, 2}, {3, 4, 5}}}
		fly := &mesh.TriMesh{Verts: []geom.Vec3{{}, geom.V(-1, 0.2, 0.1), geom.V(-1, 0.1, 0.3)}, Tris: [][3]int32{{0, 1, 2}}}
		for _, k := range bv.Ks {
			et, ft := mustBuildTree(t, env, Options{K: k}), mustBuildTree(t, fly, Options{K: k})
			for _, c := range []struct {
				dx, eps float64
			}{{0, 0}, {1, 0}, {-1, 0}, {1, 1}, {4, 1}} {
				// A turn about x keeps the flying vertex at the origin
				// and the others at x = -1; the vertex lands on env's
				// first triangle, moved along x by dx ulps of its x.
				x := 1 + off
				for range int(math.Abs(c.dx)) {
					x = math.Nextafter(x, math.Copysign(math.Inf(1), c.dx))
				}
				pose := geom.FromAxisAngle(geom.V(1, 0, 0), 0.7, geom.V(x, 0.3+off, 0.3+off))
				eps := math.Abs(x-(1+off)) * c.eps
				want := len(testgeom.Brute(env, fly, pose, eps)) > 0
				var s Scratch
				got := false
				Collide(et, ft, pose, QueryOptions{Eps: eps}, &s, func(Pair) bool { got = true; return true })
				if got != want {
					t.Errorf("k=%d, origin %g, %g ulps, eps %g: contact %v, exact %v", k, off, c.dx, eps, got, want)
				}
			}
		}
	}
}
