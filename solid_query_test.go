package collide_test

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/internal/oracle"
	"github.com/collide3d/collide/internal/testgeom"
	"github.com/collide3d/collide/mesh"
	"github.com/collide3d/collide/mesh/gen"
)

func cube(c geom.Vec3, h float64, n int) *mesh.TriMesh {
	d := geom.Vec3{X: h, Y: h, Z: h}
	return gen.Must(gen.Box(geom.AABB{Min: c.Sub(d), Max: c.Add(d)}, n))
}

// solidOracle answers a query of solids by brute force: the surfaces'
// pairs (oracle.Sweep), and, when they are apart, the exact rational
// winding number of every vertex of each model against the other's
// surface, fly's vertices placed by pose as queries place them.
func solidOracle(env, fly *mesh.TriMesh, pose geom.Pose) (pairs [][2]int32, in collide.Inside) {
	if pairs = oracle.Sweep(env, fly, pose, 0); len(pairs) > 0 {
		return pairs, collide.NotInside
	}
	pose = pose.Normalize()
	tris := func(m *mesh.TriMesh, place bool) []geom.Triangle {
		ts := make([]geom.Triangle, len(m.Tris))
		for i := range ts {
			if ts[i] = m.Triangle(i); place {
				ts[i] = pose.ApplyTriangle(ts[i])
			}
		}
		return ts
	}
	es, fs := testgeom.NewRatSolid(tris(env, false)), testgeom.NewRatSolid(tris(fly, true))
	for _, v := range fly.Verts {
		if w, on := es.Winding(pose.Apply(v)); !on && w != 0 {
			return nil, collide.FlyInEnv
		}
	}
	for _, v := range env.Verts {
		if w, on := fs.Winding(v); !on && w != 0 {
			return nil, collide.EnvInFly
		}
	}
	return nil, collide.NotInside
}

// solidPairs are the models and poses of the solid tests: flying models
// inside, around, touching and apart from environments that are boxes,
// cavities (a hollow box), tori and two-component surfaces, at random
// poses and at poses that touch, near and far from the origin.
func solidPairs(rng *rand.Rand) []struct {
	name     string
	env, fly *mesh.TriMesh
	poses    []geom.Pose
} {
	far := geom.Vec3{X: 3e6, Y: -1e6, Z: 5e5}
	box := cube(geom.Vec3{}, 2, 2)
	hollow := testgeom.Join([]*mesh.TriMesh{box, cube(geom.Vec3{}, 1, 1)}, false, true)
	torus := gen.Must(gen.Torus(geom.Vec3{}, 1.5, 0.5, 100))
	twoSpheres := testgeom.Join([]*mesh.TriMesh{gen.Must(gen.Icosphere(geom.Vec3{X: -1.2}, 0.8, 80)), gen.Must(gen.Icosphere(geom.Vec3{X: 1.2}, 0.8, 20))})
	small := gen.Must(gen.Icosphere(geom.Vec3{}, 0.25, 20))
	smallBox := cube(geom.Vec3{}, 0.5, 1)
	big := cube(geom.Vec3{}, 4, 1)
	bigHollow := testgeom.Join([]*mesh.TriMesh{big, cube(geom.Vec3{}, 0.5, 1)}, false, true)
	pair := testgeom.Join([]*mesh.TriMesh{small, cube(geom.Vec3{X: 4}, 0.3, 1)})
	random := func(n int, spread float64, at geom.Vec3) []geom.Pose {
		ps := make([]geom.Pose, n)
		for i := range ps {
			axis := geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64())
			t := geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()).Scale(spread).Add(at)
			ps[i] = geom.FromAxisAngle(axis, rng.Float64()*6.3, t)
		}
		return ps
	}
	touch := []geom.Pose{
		geom.Translation(geom.Vec3{X: 1.5}),                 // faces on x = 2
		geom.Translation(geom.Vec3{X: 1.5, Y: 1.5}),         // along an edge
		geom.Translation(geom.Vec3{X: 1.5, Y: 1.5, Z: 1.5}), // at a corner
		geom.Translation(geom.Vec3{X: 1.4999999999999998}),  // just inside
		geom.Translation(geom.Vec3{X: 2.5}),                 // outside, touching
		geom.Translation(geom.Vec3{X: 2.5000000000000004}),  // just apart
		{},
	}
	farBox := box.Transform(geom.Translation(far))
	farTouch := make([]geom.Pose, len(touch))
	for i, p := range touch {
		farTouch[i] = geom.Translation(p.T.Add(far))
	}
	return []struct {
		name     string
		env, fly *mesh.TriMesh
		poses    []geom.Pose
	}{
		{"sphere in box", box, small, random(12, 1.5, geom.Vec3{})},
		{"box in box, touching", box, smallBox, append(touch, random(8, 1.5, geom.Vec3{})...)},
		{"box in box, far", farBox, smallBox, append(farTouch, random(8, 1.5, far)...)},
		{"sphere in hollow box", hollow, small, random(16, 1.2, geom.Vec3{})},
		{"sphere in torus", torus, small, random(16, 1.2, geom.Vec3{})},
		{"two spheres", twoSpheres, small, random(16, 1, geom.Vec3{})},
		{"big box around", box, big, append(random(6, 0.3, geom.Vec3{}), random(4, 3, geom.Vec3{})...)},
		{"two components flying", box, pair, random(16, 2, geom.Vec3{})},
		{"hollow box around torus", torus, bigHollow, random(8, 0.2, geom.Vec3{})},
	}
}

// TestSolidAgainstOracle checks queries of solids against the brute-force
// oracle, for every bounding volume and Brute, at every pose of every
// pair, in both modes.
func TestSolidAgainstOracle(t *testing.T) {
	rng := rand.New(rand.NewPCG(35, 20))
	seen := map[collide.Inside]int{}
	touching := 0
	bvs := append([]collide.BV{collide.Brute}, testBVs()...)
	var q collide.Query
	for _, sc := range solidPairs(rng) {
		models := make([][2]*collide.Model, len(bvs))
		for i, bv := range bvs {
			e, err := collide.Build(sc.env, collide.BuildOptions{BV: bv})
			if err != nil {
				t.Fatal(err)
			}
			f, err := collide.Build(sc.fly, collide.BuildOptions{BV: bv})
			if err != nil {
				t.Fatal(err)
			}
			models[i] = [2]*collide.Model{e, f}
		}
		for pi, pose := range sc.poses {
			pairs, want := solidOracle(sc.env, sc.fly, pose)
			seen[want]++
			if len(pairs) > 0 {
				touching++
			}
			for i, bv := range bvs {
				for _, all := range []bool{false, true} {
					r, err := q.Collide(models[i][0], geom.Pose{}, models[i][1], pose, collide.QueryOptions{Solid: true, All: all})
					if err != nil {
						t.Fatal(err)
					}
					if r.Inside != want || r.Collide != (len(pairs) > 0 || want != collide.NotInside) || (len(r.Pairs) > 0) != (len(pairs) > 0) {
						t.Fatalf("%s, pose %d, %v, all %v: collide %v, inside %v, %d pairs; the oracle says inside %v, %d pairs",
							sc.name, pi, bv, all, r.Collide, r.Inside, len(r.Pairs), want, len(pairs))
					}
					if all && len(r.Pairs) != len(pairs) {
						t.Fatalf("%s, pose %d, %v: %d pairs, the oracle %d", sc.name, pi, bv, len(r.Pairs), len(pairs))
					}
					if (r.Stats.Inside > 0) != (want != collide.NotInside) {
						t.Fatalf("%s, pose %d, %v: Stats.Inside %d, inside %v", sc.name, pi, bv, r.Stats.Inside, want)
					}
					if len(pairs) > 0 && r.Stats.SolidTests != 0 {
						t.Fatalf("%s, pose %d, %v: %d solid tests on touching surfaces", sc.name, pi, bv, r.Stats.SolidTests)
					}
					// Without Solid, the same query reports the surfaces only.
					if r0, _ := q.Collide(models[i][0], geom.Pose{}, models[i][1], pose, collide.QueryOptions{All: all}); r0.Inside != collide.NotInside || r0.Collide != (len(pairs) > 0) {
						t.Fatalf("%s, pose %d, %v: without Solid: collide %v, inside %v", sc.name, pi, bv, r0.Collide, r0.Inside)
					}
				}
			}
		}
	}
	if seen[collide.FlyInEnv] == 0 || seen[collide.EnvInFly] == 0 || seen[collide.NotInside] == touching || touching == 0 {
		t.Errorf("cases: %v, %d touching: one kind is missing", seen, touching)
	}
	t.Logf("cases: %d fly in env, %d env in fly, %d neither (%d touching)", seen[collide.FlyInEnv], seen[collide.EnvInFly], seen[collide.NotInside], touching)
}

// TestSolidEnvPose places both models: the answer is that of the
// relative pose.
func TestSolidEnvPose(t *testing.T) {
	env, _ := collide.Build(cube(geom.Vec3{}, 2, 2), collide.BuildOptions{})
	fly, _ := collide.Build(gen.Must(gen.Icosphere(geom.Vec3{}, 0.25, 20)), collide.BuildOptions{})
	ep := geom.FromAxisAngle(geom.V(1, 1, 0), 0.3, geom.V(10, 20, 30))
	for _, c := range []struct {
		fly  geom.Vec3
		want collide.Inside
	}{{geom.V(10, 20, 30), collide.FlyInEnv}, {geom.V(15, 20, 30), collide.NotInside}} {
		r, err := collide.Collide(env, ep, fly, geom.Translation(c.fly), collide.QueryOptions{Solid: true})
		if err != nil || r.Inside != c.want || r.Collide != (c.want != collide.NotInside) {
			t.Errorf("fly at %v: %+v, %v; want inside %v", c.fly, r, err, c.want)
		}
	}
}

// TestSolidRefused: a model that bounds no solid is an error naming it and
// what breaks.
func TestSolidRefused(t *testing.T) {
	box := cube(geom.Vec3{}, 1, 1)
	closed, _ := collide.Build(box, collide.BuildOptions{})
	for _, c := range testgeom.NotSolids(box) {
		bad, err := collide.Build(c.Mesh, collide.BuildOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range []struct {
			env, fly *collide.Model
			who      string
		}{{closed, bad, "flying model"}, {bad, closed, "environment"}} {
			_, err := collide.Collide(w.env, geom.Pose{}, w.fly, geom.Pose{}, collide.QueryOptions{Solid: true})
			if !errors.Is(err, collide.ErrNotSolid) || !strings.Contains(err.Error(), c.Why) || !strings.Contains(err.Error(), w.who) {
				t.Errorf("%s %s: %v; want ErrNotSolid naming the %s and %q", c.Name, w.who, err, w.who, c.Why)
			}
		}
		if _, err := collide.Collide(closed, geom.Pose{}, bad, geom.Pose{}, collide.QueryOptions{}); err != nil {
			t.Errorf("%s without Solid: %v", c.Name, err)
		}
	}
}

// TestSolidResume: a query of solids stopped by its budget decides
// containment in the Resume that finishes it.
func TestSolidResume(t *testing.T) {
	env, _ := collide.Build(gen.Must(gen.Icosphere(geom.Vec3{}, 2, 500)), collide.BuildOptions{})
	fly, _ := collide.Build(gen.Must(gen.Icosphere(geom.Vec3{}, 1.5, 500)), collide.BuildOptions{})
	for _, c := range []struct {
		at   geom.Vec3
		want collide.Inside
	}{{geom.V(0.1, 0, 0), collide.FlyInEnv}, {geom.V(10, 0, 0), collide.NotInside}, {geom.V(1, 0, 0), collide.NotInside}} {
		var q collide.Query
		var p collide.Pending
		r, err := q.Collide(env, geom.Pose{}, fly, geom.Translation(c.at), collide.QueryOptions{Solid: true, Budget: collide.Budget{Tests: 2}, Pending: &p})
		if err != nil {
			t.Fatal(err)
		}
		if c.at.X == 10 {
			if r.Maybe || r.Collide {
				t.Errorf("far: %+v", r)
			}
			continue
		}
		if !r.Maybe || r.Collide || p.Done() {
			t.Fatalf("at %v: the budget of 2 tests did not stop the query: %+v", c.at, r)
		}
		st := q.Resume(&p, collide.Budget{}, func(collide.Pair) bool { return true })
		if !p.Done() || p.Inside() != c.want || (st.Inside > 0) != (c.want != collide.NotInside) {
			t.Errorf("at %v: after Resume, done %v, inside %v, stats %v; want inside %v", c.at, p.Done(), p.Inside(), st, c.want)
		}
		if c.want == collide.FlyInEnv && st.SolidTests == 0 {
			t.Errorf("at %v: no solid test counted: %v", c.at, st)
		}
	}
}

// TestSolidAllocates nothing once warm: fly inside env, env inside fly
// (the placed flying model's scratch) and neither.
func TestSolidAllocates(t *testing.T) {
	box, _ := collide.Build(cube(geom.Vec3{}, 2, 4), collide.BuildOptions{})
	ball, _ := collide.Build(gen.Must(gen.Icosphere(geom.Vec3{}, 0.5, 300)), collide.BuildOptions{})
	var q collide.Query
	for _, c := range []struct {
		env, fly *collide.Model
		pose     geom.Pose
		want     collide.Inside
	}{
		{box, ball, geom.FromAxisAngle(geom.V(1, 2, 3), 0.5, geom.V(0.2, 0, 0)), collide.FlyInEnv},
		{ball, box, geom.FromAxisAngle(geom.V(1, 2, 3), 0.5, geom.V(0.2, 0, 0)), collide.EnvInFly},
		{ball, box, geom.Translation(geom.V(9, 0, 0)), collide.NotInside},
	} {
		o := collide.QueryOptions{Solid: true}
		r, _ := q.Collide(c.env, geom.Pose{}, c.fly, c.pose, o)
		if r.Inside != c.want {
			t.Fatalf("inside %v, want %v", r.Inside, c.want)
		}
		if n := testing.AllocsPerRun(20, func() { q.Collide(c.env, geom.Pose{}, c.fly, c.pose, o) }); n != 0 {
			t.Errorf("inside %v: %v allocations a query", c.want, n)
		}
	}
}

// TestStatsStringSolid labels the solid counts when not 0.
func TestStatsStringSolid(t *testing.T) {
	s := collide.Stats{SolidTests: 3, Inside: 1}.String()
	if !strings.Contains(s, "solid tests 3") || !strings.Contains(s, "inside 1") {
		t.Errorf("%q", s)
	}
	if s := (collide.Stats{}).String(); strings.Contains(s, "solid") || strings.Contains(s, "inside") {
		t.Errorf("%q", s)
	}
	for in, want := range map[collide.Inside]string{collide.NotInside: "not inside", collide.FlyInEnv: "fly in env", collide.EnvInFly: "env in fly", 7: "Inside(7)"} {
		if got := in.String(); got != want {
			t.Errorf("Inside(%d).String() = %q, want %q", in, got, want)
		}
	}
}

// TestSolidDistance: with Solid, the distance is 0 when one model is
// inside the other, the witness a vertex inside; otherwise the distance
// without it.
func TestSolidDistance(t *testing.T) {
	rng := rand.New(rand.NewPCG(35, 21))
	var q collide.Query
	n := map[collide.Inside]int{}
	for _, sc := range solidPairs(rng) {
		for _, bv := range []collide.BV{collide.Brute, collide.KDOP18, collide.OBB} {
			env, _ := collide.Build(sc.env, collide.BuildOptions{BV: bv})
			fly, _ := collide.Build(sc.fly, collide.BuildOptions{BV: bv})
			for pi, pose := range sc.poses {
				if pi%3 != 0 {
					continue // the oracle's cases are TestSolidAgainstOracle's
				}
				r, err := collide.Collide(env, geom.Pose{}, fly, pose, collide.QueryOptions{Solid: true})
				if err != nil {
					t.Fatal(err)
				}
				d, err := q.DistanceBetween(t.Context(), env, geom.Pose{}, fly, pose, collide.DistanceOptions{Solid: true})
				if err != nil {
					t.Fatal(err)
				}
				d0, _ := q.DistanceBetween(t.Context(), env, geom.Pose{}, fly, pose, collide.DistanceOptions{})
				switch {
				case r.Inside != collide.NotInside:
					n[r.Inside]++
					if d.Distance != 0 || d.Inside != r.Inside || d.Env != -1 || d.PEnv != d.PFly || d.Stats.Inside != 1 {
						t.Fatalf("%s, pose %d, %v: inside %v; distance %+v", sc.name, pi, bv, r.Inside, d)
					}
					if d0.Distance <= 0 {
						t.Fatalf("%s, pose %d, %v: apart, but the surfaces' distance is %v", sc.name, pi, bv, d0.Distance)
					}
				case r.Collide:
					if d.Distance != 0 {
						t.Fatalf("%s, pose %d, %v: contact, distance %v", sc.name, pi, bv, d.Distance)
					}
				default:
					if d.Distance != d0.Distance || d.Inside != collide.NotInside || d.Env != d0.Env {
						t.Fatalf("%s, pose %d, %v: apart: %+v; without Solid %+v", sc.name, pi, bv, d, d0)
					}
				}
			}
		}
	}
	if n[collide.FlyInEnv] == 0 || n[collide.EnvInFly] == 0 {
		t.Errorf("cases %v: one is missing", n)
	}
	box, _ := collide.Build(cube(geom.Vec3{}, 1, 1), collide.BuildOptions{})
	open, _ := collide.Build(&mesh.TriMesh{Verts: box.Mesh().Verts, Tris: box.Mesh().Tris[1:]}, collide.BuildOptions{})
	if _, err := collide.DistanceBetween(t.Context(), box, geom.Pose{}, open, geom.Pose{}, collide.DistanceOptions{Solid: true}); !errors.Is(err, collide.ErrNotSolid) {
		t.Errorf("open model: %v", err)
	}
}
