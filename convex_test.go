package collide_test

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/internal/testgeom"
	"github.com/collide3d/collide/mesh"
	"github.com/collide3d/collide/mesh/gen"
)

// convexModels returns small convex models (a sphere, a box, a cylinder, a
// capsule) and a non-convex one (a torus), with their names.
func convexModels(t testing.TB) ([]*collide.Model, []string) {
	t.Helper()
	meshes := []*mesh.TriMesh{
		gen.Must(gen.Icosphere(geom.Vec3{}, 1, 320)),
		gen.Must(gen.Box(geom.AABB{Min: geom.V(-0.8, -0.5, -0.6), Max: geom.V(0.8, 0.5, 0.6)}, 2)),
		gen.Must(gen.Cylinder(0.6, 1.5, 120)),
		gen.Must(gen.Capsule(0.4, 1, 200)),
		gen.Must(gen.Torus(geom.Vec3{}, 1, 0.3, 400)),
	}
	names := []string{"sphere", "box", "cylinder", "capsule", "torus"}
	ms := make([]*collide.Model, len(meshes))
	for i, m := range meshes {
		md, err := collide.Build(m, collide.BuildOptions{})
		if err != nil {
			t.Fatal(err)
		}
		ms[i] = md
	}
	return ms, names
}

// TestMethodSameAnswers asks every pair of models, convex or not, at random
// poses near contact, with each method: the same pairs in all-pairs mode,
// the same answer in first-contact mode, and the brute-force oracle's.
func TestMethodSameAnswers(t *testing.T) {
	ms, names := convexModels(t)
	rng := rand.New(rand.NewPCG(35, 3))
	var q [3]collide.Query
	var st [3]collide.Stats
	for i := range 400 {
		a, b := rng.IntN(len(ms)), rng.IntN(len(ms))
		axis := geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64())
		d := 1 + 2*rng.Float64()
		p := geom.FromAxisAngle(axis, rng.Float64()*6, geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()).Unit().Scale(d))
		envPose := geom.Pose{}
		if i%4 == 0 {
			envPose = geom.FromAxisAngle(geom.V(0, 0, 1), 0.7, geom.V(1e6, -1e6, 3))
			p = envPose.Compose(p)
		}
		all := i%2 == 0
		var want []collide.Pair
		for k, m := range []collide.Method{collide.MethodTree, collide.MethodConvex, collide.MethodAuto} {
			r, err := q[k].Collide(ms[a], envPose, ms[b], p, collide.QueryOptions{All: all, Method: m})
			if err != nil {
				t.Fatal(err)
			}
			st[k].Add(r.Stats)
			if k == 0 {
				want = slices.Clone(r.Pairs)
				if all {
					rel := envPose.Inverse().Compose(p)
					if brute := testgeom.Brute(ms[a].Mesh(), ms[b].Mesh(), rel, 0); len(brute) != len(want) && envPose.IsIdentity() {
						t.Fatalf("case %d: tree %d pairs, brute %d", i, len(want), len(brute))
					}
				}
				if r.Method != collide.MethodTree {
					t.Errorf("case %d: MethodTree decided by %v", i, r.Method)
				}
				continue
			}
			if r.Collide != (len(want) > 0) || all && !slices.Equal(r.Pairs, want) {
				t.Fatalf("case %d (%s vs %s, %v, all %v): %d pairs, tree %d", i, names[a], names[b], m, all, len(r.Pairs), len(want))
			}
			if (r.Method == collide.MethodConvex) != (r.Stats.PlaneHits+r.Stats.PlaneNew > 0) {
				t.Errorf("case %d: Method %v with stats %v", i, r.Method, r.Stats)
			}
			if m == collide.MethodAuto && (names[a] == "torus" || names[b] == "torus") && r.Stats.Convex > 0 {
				t.Errorf("case %d: auto ran the convex test on the torus", i)
			}
		}
	}
	t.Logf("tree %v\nconvex %v\nauto %v", st[0], st[1], st[2])
	if st[0].Convex != 0 || st[1].PlaneNew == 0 || st[1].PlaneHits == 0 || st[2].Convex == 0 || st[1].Convex-st[1].PlaneHits-st[1].PlaneNew == 0 {
		t.Errorf("the convex test was not exercised both ways: %v", st[1])
	}
}

// TestMethodCoherent moves a capsule past a sphere in small steps: the
// pair's plane proves most steps apart at the cost of one support each,
// with the answers of the tree test at every step, and with a Front given
// to the same queries the front stays valid across the steps a plane
// decided.
func TestMethodCoherent(t *testing.T) {
	ms, _ := convexModels(t)
	env, fly := ms[0], ms[3]
	var q, qt collide.Query
	var pl collide.Plane
	var fr, frt collide.Front
	var st collide.Stats
	for i := range 500 {
		x := -4 + 0.016*float64(i)
		p := geom.FromAxisAngle(geom.V(1, 0.5, 0), 0.01*float64(i), geom.V(x, 0.6, 0.1))
		r, err := q.Collide(env, geom.Pose{}, fly, p, collide.QueryOptions{All: true, Method: collide.MethodConvex, Plane: &pl, Front: &fr})
		if err != nil {
			t.Fatal(err)
		}
		want, err := qt.Collide(env, geom.Pose{}, fly, p, collide.QueryOptions{All: true, Method: collide.MethodTree, Front: &frt})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(r.Pairs, want.Pairs) {
			t.Fatalf("step %d: %d pairs, tree %d", i, len(r.Pairs), len(want.Pairs))
		}
		st.Add(r.Stats)
	}
	t.Logf("%v", st)
	if st.PlaneHits < 200 || st.PlaneNew == 0 || st.Convex == st.PlaneHits+st.PlaneNew {
		t.Errorf("stats %v: want many plane hits, some new planes and some tree tests", st)
	}
	if s := st.String(); !strings.Contains(s, "plane hits") {
		t.Errorf("Stats.String %q does not label the convex counts", s)
	}
	if d, ok := pl.Dir(); !ok || !d.IsFinite() {
		t.Errorf("the plane holds %v, %v", d, ok)
	}
}

// TestMethodQueryPlane checks the Query's own plane: kept for the same
// pair, started afresh for another pair and after Forget.
func TestMethodQueryPlane(t *testing.T) {
	ms, _ := convexModels(t)
	var q collide.Query
	o := collide.QueryOptions{Method: collide.MethodConvex}
	p := geom.Translation(geom.V(3, 0, 0))
	ask := func(env, fly *collide.Model) collide.Stats {
		r, err := q.Collide(env, geom.Pose{}, fly, p, o)
		if err != nil || r.Collide || r.Method != collide.MethodConvex {
			t.Fatalf("%v, %v, %v", r.Collide, r.Method, err)
		}
		return r.Stats
	}
	if s := ask(ms[0], ms[1]); s.PlaneNew != 1 {
		t.Errorf("first query: %v", s)
	}
	if s := ask(ms[0], ms[1]); s.PlaneHits != 1 {
		t.Errorf("same pair again: %v", s)
	}
	if s := ask(ms[0], ms[2]); s.PlaneNew != 1 {
		t.Errorf("another pair: %v", s)
	}
	q.Forget()
	if s := ask(ms[0], ms[2]); s.PlaneNew != 1 {
		t.Errorf("after Forget: %v", s)
	}
}

// TestMethodEps compares the methods with a tolerance, near its edge.
func TestMethodEps(t *testing.T) {
	ms, _ := convexModels(t)
	box := ms[1]
	var q collide.Query
	for _, c := range []struct {
		gap, eps float64
	}{{0.01, 0.02}, {0.01, 0.01}, {0.01, 0.009}, {1e-9, 1e-9}, {0.5, 0.1}} {
		// Two copies of the box, gap apart along x.
		p := geom.Translation(geom.V(1.6+c.gap, 0, 0))
		var want *collide.Result
		for _, m := range []collide.Method{collide.MethodTree, collide.MethodConvex} {
			r, err := q.Collide(box, geom.Pose{}, box, p, collide.QueryOptions{All: true, Eps: c.eps, Method: m})
			if err != nil {
				t.Fatal(err)
			}
			if want == nil {
				want = &collide.Result{Pairs: slices.Clone(r.Pairs)}
				continue
			}
			if !slices.Equal(r.Pairs, want.Pairs) {
				t.Errorf("gap %g, eps %g: convex %d pairs, tree %d", c.gap, c.eps, len(r.Pairs), len(want.Pairs))
			}
			if c.gap > 2*c.eps && r.Method != collide.MethodConvex {
				t.Errorf("gap %g, eps %g: not proved by a plane", c.gap, c.eps)
			}
		}
	}
}

// TestMethodAllocs checks that warm queries of the convex test allocate
// nothing, by a cached plane and by a new one.
func TestMethodAllocs(t *testing.T) {
	ms, _ := convexModels(t)
	var q collide.Query
	i := 0
	o := collide.QueryOptions{Method: collide.MethodAuto}
	if _, err := q.Collide(ms[0], geom.Pose{}, ms[2], geom.Translation(geom.V(5, 0, 0)), o); err != nil {
		t.Fatal(err)
	}
	allocs := testing.AllocsPerRun(200, func() {
		i++
		p := geom.FromAxisAngle(geom.V(0, 0, 1), float64(i)*0.7, geom.V(3+math.Mod(float64(i), 2), 0, 0))
		if _, err := q.Collide(ms[0], geom.Pose{}, ms[2], p, o); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Errorf("a warm convex query allocates %v times", allocs)
	}
}

// TestMethodResolve checks the choice of MethodAuto by topology, and the
// parsing of the names.
func TestMethodResolve(t *testing.T) {
	ms, _ := convexModels(t)
	sphere, torus := ms[0], ms[4]
	for _, c := range []struct {
		m           collide.Method
		env, fly    *collide.Model
		want        collide.Method
		name, want2 string
	}{
		{collide.MethodAuto, sphere, sphere, collide.MethodConvex, "auto", ""},
		{collide.MethodAuto, sphere, torus, collide.MethodTree, "auto", ""},
		{collide.MethodTree, sphere, sphere, collide.MethodTree, "tree", ""},
		{collide.MethodConvex, torus, torus, collide.MethodConvex, "convex", ""},
	} {
		if got := c.m.Resolve(c.env, c.fly); got != c.want {
			t.Errorf("%v.Resolve = %v, want %v", c.m, got, c.want)
		}
		if m, err := collide.ParseMethod(c.name); err != nil || m != c.m {
			t.Errorf("ParseMethod(%q) = %v, %v", c.name, m, err)
		}
	}
	if _, err := collide.ParseMethod("gjk"); err == nil {
		t.Error("ParseMethod(gjk) accepted")
	}
	// A model above AutoConvexTris is convex to MethodAuto only once its
	// topology is known.
	big, err := collide.Build(gen.Must(gen.Icosphere(geom.Vec3{}, 1, 2*collide.AutoConvexTris)), collide.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := collide.MethodAuto.Resolve(big, sphere); got != collide.MethodTree {
		t.Errorf("big sphere, topology unknown: %v", got)
	}
	if !big.Topology().Convex {
		t.Fatal("the big sphere is not convex")
	}
	if got := collide.MethodAuto.Resolve(big, sphere); got != collide.MethodConvex {
		t.Errorf("big sphere, topology known: %v", got)
	}
}

// TestMethodConvexAdversarial runs the convex test on the adversarial
// scenes (touching, coplanar, degenerate and sliver soups, near misses,
// far from the origin, tiny), none of them convex, at the identity and
// nudged: every answer is the brute-force oracle's.
func TestMethodConvexAdversarial(t *testing.T) {
	var q collide.Query
	proved := 0
	for _, s := range testgeom.AdversarialScenes(35) {
		env, err := collide.Build(s.Env, collide.BuildOptions{})
		if err != nil {
			t.Fatal(err)
		}
		fly, err := collide.Build(s.Fly, collide.BuildOptions{})
		if err != nil {
			t.Fatal(err)
		}
		b := s.Env.Bounds().Union(s.Fly.Bounds())
		ext := b.Max.Sub(b.Min)
		for _, p := range []geom.Pose{{}, geom.Translation(geom.V(ext.X, 0, 0)), geom.Translation(geom.V(ext.X*(1+1e-12), ext.Y*1e-3, 0)), geom.Translation(geom.V(0, 0, 2*ext.Z))} {
			r, err := q.Collide(env, geom.Pose{}, fly, p, collide.QueryOptions{All: true, Method: collide.MethodConvex})
			if err != nil {
				t.Fatal(err)
			}
			want := testgeom.Brute(s.Env, s.Fly, p, 0)
			if len(r.Pairs) != len(want) {
				t.Fatalf("%s at %v: %d pairs, oracle %d", s.Name, p.T, len(r.Pairs), len(want))
			}
			for i, pr := range r.Pairs {
				if pr.Env != want[i][0] || pr.Fly != want[i][1] {
					t.Fatalf("%s at %v: pair %d is %v, oracle %v", s.Name, p.T, i, pr, want[i])
				}
			}
			if r.Method == collide.MethodConvex {
				proved++
			}
		}
	}
	if proved == 0 {
		t.Error("no plane proved any pose apart: the test tests nothing")
	}
}
