package collide_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/internal/longtest"
	"github.com/collide3d/collide/internal/testgeom"
	"github.com/collide3d/collide/mesh"
	"github.com/collide3d/collide/mesh/gen"
)

// contactScene is a pair of meshes and the poses of the flying one.
type contactScene struct {
	name     string
	env, fly *mesh.TriMesh
	poses    []geom.Pose
}

// contactScenes returns real models crossing at random poses (spheres,
// tori, boxes) and the adversarial soups at the identity and a pose about
// their centre.
func contactScenes(rng *rand.Rand) []contactScene {
	sphere := gen.Must(gen.Icosphere(geom.Vec3{}, 1, 320))
	uv := gen.Must(gen.UVSphere(geom.Vec3{}, 0.8, 300))
	torus := gen.Must(gen.Torus(geom.Vec3{}, 1, 0.3, 600))
	box := gen.Must(gen.Box(geom.AABB{Min: geom.V(-0.5, -0.5, -0.5), Max: geom.V(0.5, 0.5, 0.5)}, 2))
	near := func(r float64, n int) []geom.Pose {
		var ps []geom.Pose
		for range n {
			p := randomPose(rng, 1)
			p.T = p.T.Unit().Scale(r * (0.5 + rng.Float64()))
			ps = append(ps, p)
		}
		return ps
	}
	sc := []contactScene{
		{"sphere-sphere", sphere, sphere, near(1.4, 4)},
		{"sphere-uvsphere", sphere, uv, near(1.3, 3)},
		{"torus-sphere", torus, uv, near(1.2, 3)},
		{"box-box", box, box, near(0.9, 4)},
		{"torus-box", torus, box, near(1, 3)},
	}
	for _, a := range testgeom.AdversarialScenes(32) {
		c := a.Env.Bounds().Center()
		p := randomPose(rng, 0.02*a.Env.Bounds().Size().Norm())
		p.T = p.T.Add(c).Sub(p.R.MulVec(c))
		sc = append(sc, contactScene{a.Name, a.Env, a.Fly, []geom.Pose{geom.Identity(), p}})
	}
	return sc
}

// TestContacts checks the contacts and patches of every scene at eps 0 and
// with a tolerance against the geometry: one contact per pair, in order,
// never apart at eps 0, each point within Bound of both triangles, unit
// normals, patches equal to the components found by brute force; and that
// every bounding volume, Brute, the pooled Check and a reused Query give
// the same contacts and patches, bit for bit.
func TestContacts(t *testing.T) {
	rng := rand.New(rand.NewPCG(32, 1))
	bvs := []collide.BV{collide.Brute, collide.BVDefault, collide.OBB, collide.KDOP6}
	if longtest.Enabled() {
		bvs = append([]collide.BV{collide.Brute}, testBVs()...)
	}
	var q collide.Query
	for si, sc := range contactScenes(rng) {
		bvs := bvs
		if !longtest.Enabled() && si%2 != 0 {
			bvs = bvs[:2] // by default every other scene against the default volume only
		}
		models := make([][2]*collide.Model, len(bvs))
		for i, b := range bvs {
			models[i] = [2]*collide.Model{mustBuild(t, sc.env, b), mustBuild(t, sc.fly, b)}
		}
		size := sc.env.Bounds().Size().Norm()
		for pi, pose := range sc.poses {
			for _, eps := range []float64{0, 0.01 * size} {
				name := fmt.Sprintf("%s pose %d eps %g", sc.name, pi, eps)
				o := collide.QueryOptions{All: true, Eps: eps, Patches: true}
				want := mustCheck(t, models[0][0], models[0][1], pose, o)
				checkContacts(t, name, sc.env, sc.fly, geom.Identity(), pose, eps, want, true)
				for i, b := range bvs {
					got, err := q.Check(models[i][0], models[i][1], pose, o)
					if err != nil {
						t.Fatal(err)
					}
					if d := diffContacts(got, want); d != "" {
						t.Errorf("%s: %s: Query.Check and Brute differ: %s", name, b, d)
					}
				}
				if eps == 0 && len(want.Pairs) > 0 {
					// The first contact: its one pair's contact.
					first := mustCheck(t, models[1][0], models[1][1], pose, collide.QueryOptions{Contacts: true})
					if len(first.Contacts) != 1 || first.Contacts[0].Pair != first.Pairs[0] || first.Patches != nil {
						t.Errorf("%s: first contact: %d contacts for %v, patches %v", name, len(first.Contacts), first.Pairs, first.Patches)
					}
				}
			}
		}
	}
}

// sameContacts reports whether a and b have the same pairs, contacts and
// patches, bit for bit.
func sameContacts(a, b collide.Result) bool { return diffContacts(a, b) == "" }

// diffContacts describes the first difference between a's and b's pairs,
// contacts and patches, bit for bit ("" for none).
func diffContacts(a, b collide.Result) string {
	if slices.Equal(a.Pairs, b.Pairs) && reflect.DeepEqual(a.Contacts, b.Contacts) && reflect.DeepEqual(a.Patches, b.Patches) {
		return ""
	}
	switch {
	case !slices.Equal(a.Pairs, b.Pairs):
		return fmt.Sprintf("pairs %v and %v", head2(a.Pairs), head2(b.Pairs))
	case len(a.Contacts) != len(b.Contacts) || len(a.Patches) != len(b.Patches):
		return fmt.Sprintf("%d and %d contacts, %d and %d patches", len(a.Contacts), len(b.Contacts), len(a.Patches), len(b.Patches))
	}
	for i := range a.Contacts {
		if x, y := fmt.Sprintf("%#v", a.Contacts[i]), fmt.Sprintf("%#v", b.Contacts[i]); x != y {
			return fmt.Sprintf("contact %d: %s and %s", i, x, y)
		}
	}
	for i := range a.Patches {
		if x, y := fmt.Sprintf("%#v", a.Patches[i]), fmt.Sprintf("%#v", b.Patches[i]); x != y {
			return fmt.Sprintf("patch %d: %s and %s", i, x, y)
		}
	}
	return ""
}

func head2(s []collide.Pair) []collide.Pair { return s[:min(len(s), 8)] }

// checkContacts checks r's contacts and patches for env at envPose and fly
// at envPose∘pose (pose the relative pose the query tested).
func checkContacts(t *testing.T, name string, env, fly *mesh.TriMesh, envPose, pose geom.Pose, eps float64, r collide.Result, patches bool) {
	t.Helper()
	if len(r.Contacts) != len(r.Pairs) {
		t.Fatalf("%s: %d contacts for %d pairs", name, len(r.Contacts), len(r.Pairs))
	}
	bad := 0
	fail := func(format string, args ...any) {
		t.Helper()
		if bad++; bad <= 5 {
			t.Errorf("%s: "+format, append([]any{name}, args...)...)
		}
	}
	for i, c := range r.Contacts {
		if c.Pair != r.Pairs[i] {
			fail("contact %d is of pair %v, not %v", i, c.Pair, r.Pairs[i])
			continue
		}
		// The triangles in the common frame: as the query tested them,
		// then placed by envPose.
		et := env.Triangle(int(c.Pair.Env))
		ft := fly.Triangle(int(c.Pair.Fly))
		if !pose.IsIdentity() {
			ft = pose.ApplyTriangle(ft)
		}
		if !envPose.IsIdentity() {
			et, ft = envPose.ApplyTriangle(et), envPose.ApplyTriangle(ft)
		}
		switch {
		case c.Kind == geom.Apart && eps == 0:
			fail("pair %v reported at eps 0 is apart", c.Pair)
		case c.Kind == geom.Apart:
			if len(c.Points) != 2 || c.Features != nil {
				fail("apart pair %v: %d points, features %v", c.Pair, len(c.Points), c.Features)
			}
		default:
			if n := len(c.Points); n < 1 || n > 6 || len(c.Features) != n {
				fail("pair %v: %d points, %d features", c.Pair, n, len(c.Features))
			}
		}
		if math.Abs(c.Normal.Norm()-1) > 1e-12 {
			fail("pair %v: normal %v of length %v", c.Pair, c.Normal, c.Normal.Norm())
		}
		if !(c.Bound >= 0) {
			fail("pair %v: bound %v", c.Pair, c.Bound)
		}
		for k, p := range c.Points {
			tris := []geom.Triangle{et, ft}
			if c.Kind == geom.Apart {
				tris = tris[k : k+1] // each closest point on its own triangle
			}
			for _, tr := range tris {
				m := 0.0
				for _, v := range append(tr[:], p) {
					m = max(m, math.Abs(v.X), math.Abs(v.Y), math.Abs(v.Z))
				}
				// The test's own rounding: placing the triangle and finding
				// the closest point.
				tiny := 0x1p-40 * m
				if d := p.Distance(geom.ClosestPointTriangle(p, tr)); d > c.Bound+tiny {
					fail("pair %v point %d %v: %g from triangle %s, bound %g", c.Pair, k, p, d, testgeom.FormatTriangle(tr), c.Bound)
				}
			}
		}
	}
	if patches {
		checkPatches(t, name, env, fly, r, fail)
	}
}

// testKey is a contact point's key, computed as the patches' rule says,
// written apart from the package's.
type testKey struct {
	env, fly string
}

// featureName names feature f of triangle i of m by the model's geometry.
func featureName(m *mesh.TriMesh, i int32, f geom.Feature) string {
	t := m.Triangle(int(i))
	pos := func(v geom.Vec3) string {
		// −0 and +0 are one position.
		return fmt.Sprintf("%x,%x,%x", math.Float64bits(v.X+0), math.Float64bits(v.Y+0), math.Float64bits(v.Z+0))
	}
	switch f {
	case geom.Face:
		return fmt.Sprintf("f%d", i)
	case geom.Vertex0, geom.Vertex1, geom.Vertex2:
		return "v" + pos(t[int(f)])
	}
	e := []string{pos(t[int(f-geom.Edge01)]), pos(t[(int(f-geom.Edge01)+1)%3])}
	slices.Sort(e)
	return "e" + e[0] + "|" + e[1]
}

// checkPatches compares r's patches with the connected components of the
// contacts found by brute force: two contacts are adjacent when their key
// sets meet (every pair compared), components by breadth-first search.
func checkPatches(t *testing.T, name string, env, fly *mesh.TriMesh, r collide.Result, fail func(string, ...any)) {
	t.Helper()
	n := len(r.Contacts)
	// Each contact's key set, as the sorted ids of its keys.
	ids := map[testKey]int{}
	keys := make([][]int, n)
	for i, c := range r.Contacts {
		for _, f := range c.Features {
			k := testKey{featureName(env, c.Pair.Env, f[0]), featureName(fly, c.Pair.Fly, f[1])}
			id, ok := ids[k]
			if !ok {
				id = len(ids)
				ids[k] = id
			}
			keys[i] = append(keys[i], id)
		}
		slices.Sort(keys[i])
	}
	meet := func(i, j int) bool {
		a, b := keys[i], keys[j]
		for len(a) > 0 && len(b) > 0 {
			switch {
			case a[0] == b[0]:
				return true
			case a[0] < b[0]:
				a = a[1:]
			default:
				b = b[1:]
			}
		}
		return false
	}
	comp := make([]int, n)
	for i := range comp {
		comp[i] = -1
	}
	var comps [][]int
	for s := range n {
		if comp[s] >= 0 {
			continue
		}
		id := len(comps)
		comp[s] = id
		queue, members := []int{s}, []int{}
		for len(queue) > 0 {
			i := queue[0]
			queue = queue[1:]
			members = append(members, i)
			for j := range n {
				if comp[j] < 0 && meet(i, j) {
					comp[j] = id
					queue = append(queue, j)
				}
			}
		}
		slices.Sort(members)
		comps = append(comps, members)
	}
	// Components are found from their least contact in ascending order:
	// the patches' order.
	if len(r.Patches) != len(comps) {
		fail("%d patches, brute force %d components", len(r.Patches), len(comps))
		return
	}
	seen := make([]int, n)
	for pi, p := range r.Patches {
		if !slices.Equal(p.Contacts, comps[pi]) {
			fail("patch %d holds contacts %v, brute force %v", pi, head(p.Contacts), head(comps[pi]))
		}
		for _, i := range p.Contacts {
			seen[i]++
		}
		if math.Abs(p.Normal.Norm()-1) > 1e-12 {
			fail("patch %d: normal %v of length %v", pi, p.Normal, p.Normal.Norm())
		}
		if !p.Point.IsFinite() {
			fail("patch %d: point %v", pi, p.Point)
		}
		if len(p.Manifold) == 0 || len(p.Manifold) > 4 {
			fail("patch %d: %d manifold points", pi, len(p.Manifold))
		}
		for _, m := range p.Manifold {
			if !onPatch(m, p, r.Contacts) {
				fail("patch %d: manifold point %v is none of its contacts' points", pi, m)
			}
		}
		for _, c := range p.Curves {
			if len(c) < 2 {
				fail("patch %d: a curve of %d points", pi, len(c))
			}
			for _, x := range c {
				if !onPatch(x, p, r.Contacts) {
					fail("patch %d: curve point %v is none of its contacts' points", pi, x)
				}
			}
		}
		if p.DepthKnown {
			fail("patch %d: depth known without package depth", pi)
		}
	}
	for i, k := range seen {
		if k != 1 {
			fail("contact %d is in %d patches", i, k)
		}
	}
}

// onPatch reports whether x is a point of one of p's contacts.
func onPatch(x geom.Vec3, p collide.Patch, cs []collide.Contact) bool {
	for _, i := range p.Contacts {
		if slices.Contains(cs[i].Points, x) {
			return true
		}
	}
	return false
}

func head(s []int) []int { return s[:min(len(s), 8)] }

// TestContactsSpheres: two closed spheres crossing meet along one closed
// curve, in one patch whose normal points from the environment's centre
// towards the flying sphere's.
func TestContactsSpheres(t *testing.T) {
	rng := rand.New(rand.NewPCG(32, 2))
	s := gen.Must(gen.Icosphere(geom.Vec3{}, 1, 1280))
	env, fly := mustBuild(t, s, collide.BVDefault), mustBuild(t, s, collide.BVDefault)
	for i := range 20 {
		pose := randomPose(rng, 1)
		pose.T = pose.T.Unit().Scale(0.4 + 1.4*rng.Float64())
		r := mustCheck(t, env, fly, pose, collide.QueryOptions{All: true, Patches: true})
		if len(r.Patches) != 1 {
			t.Errorf("pose %d (%v apart): %d patches, want 1", i, pose.T.Norm(), len(r.Patches))
			continue
		}
		p := r.Patches[0]
		if len(p.Curves) != 1 {
			t.Errorf("pose %d: %d curves, want 1", i, len(p.Curves))
		} else if c := p.Curves[0]; len(c) < 4 || c[0] != c[len(c)-1] {
			t.Errorf("pose %d: the curve of %d points is not closed", i, len(c))
		}
		if d := p.Normal.Dot(pose.T.Unit()); !(d > 0.5) {
			t.Errorf("pose %d: normal %v, centre to centre %v: dot %v", i, p.Normal, pose.T.Unit(), d)
		}
		if len(p.Manifold) != 4 {
			t.Errorf("pose %d: %d manifold points, want 4", i, len(p.Manifold))
		}
		for _, c := range r.Contacts {
			if c.Kind != geom.Cross {
				t.Errorf("pose %d: pair %v is %v, want cross", i, c.Pair, c.Kind)
				break
			}
		}
	}
}

// TestContactsBoxesResting: a box resting on another, face to face, with
// the upper one offset: one patch, normal +z (the environment's face's
// normal, from it towards the flying box), its manifold the four corners
// of the overlap.
func TestContactsBoxesResting(t *testing.T) {
	for _, n := range []int{1, 2, 3} {
		lo := gen.Must(gen.Box(geom.AABB{Min: geom.V(0, 0, 0), Max: geom.V(1, 1, 1)}, n))
		for _, off := range []geom.Vec3{geom.V(0.25, 0.5, 1), geom.V(-0.375, 0.125, 1), geom.V(0.5, -0.75, 1)} {
			for _, b := range []collide.BV{collide.Brute, collide.BVDefault} {
				env, fly := mustBuild(t, lo, b), mustBuild(t, lo, b)
				pose := geom.Translation(off)
				name := fmt.Sprintf("n %d offset %v %s", n, off, b)
				r := mustCheck(t, env, fly, pose, collide.QueryOptions{All: true, Patches: true})
				checkContacts(t, name, lo, lo, geom.Identity(), pose, 0, r, true)
				if len(r.Patches) != 1 {
					t.Errorf("%s: %d patches, want 1", name, len(r.Patches))
					continue
				}
				p := r.Patches[0]
				if !p.Normal.ApproxEqual(geom.V(0, 0, 1), 1e-12) {
					t.Errorf("%s: normal %v, want +z", name, p.Normal)
				}
				x0, x1 := max(0, off.X), min(1, 1+off.X)
				y0, y1 := max(0, off.Y), min(1, 1+off.Y)
				corners := []geom.Vec3{geom.V(x0, y0, 1), geom.V(x1, y0, 1), geom.V(x1, y1, 1), geom.V(x0, y1, 1)}
				if len(p.Manifold) != 4 {
					t.Errorf("%s: manifold %v, want the 4 corners %v", name, p.Manifold, corners)
					continue
				}
				for _, c := range corners {
					if !slices.ContainsFunc(p.Manifold, func(m geom.Vec3) bool { return m.Distance(c) <= 1e-12 }) {
						t.Errorf("%s: manifold %v lacks the corner %v", name, p.Manifold, c)
					}
				}
				if want := geom.V((x0+x1)/2, (y0+y1)/2, 1); !p.Point.ApproxEqual(want, 1e-12) {
					t.Errorf("%s: point %v, want the overlap's centre %v", name, p.Point, want)
				}
			}
		}
	}
}

// TestContactsIterator checks Query.Contacts against Query.Check: the same
// contacts (in the order found, so compared sorted), with both poses, the
// environment's pose placing the points; an early break; errors at once.
func TestContactsIterator(t *testing.T) {
	rng := rand.New(rand.NewPCG(32, 3))
	sphere := gen.Must(gen.Icosphere(geom.Vec3{}, 1, 320))
	torus := gen.Must(gen.Torus(geom.Vec3{}, 1, 0.3, 600))
	env, fly := mustBuild(t, torus, collide.BVDefault), mustBuild(t, sphere, collide.BVDefault)
	var q, q2 collide.Query
	for i := range 10 {
		flyPose := randomPose(rng, 1)
		envPose := geom.Identity()
		if i%2 == 1 {
			envPose = randomPose(rng, 3)
			flyPose = envPose.Compose(flyPose)
		}
		rel := collide.RelativePose(envPose, flyPose)
		if envPose.IsIdentity() {
			rel = flyPose
		}
		want, err := q2.Check(env, fly, rel, collide.QueryOptions{All: true, Contacts: true})
		if err != nil {
			t.Fatal(err)
		}
		seq, err := q.Contacts(env, envPose, fly, flyPose, collide.QueryOptions{})
		if err != nil {
			t.Fatal(err)
		}
		var got []collide.Contact
		for c := range seq {
			c.Points, c.Features = slices.Clone(c.Points), slices.Clone(c.Features)
			got = append(got, c)
		}
		slices.SortFunc(got, func(a, b collide.Contact) int { return collide.ComparePairs(a.Pair, b.Pair) })
		if len(got) != len(want.Contacts) {
			t.Fatalf("pose %d: %d contacts, Check %d", i, len(got), len(want.Contacts))
		}
		for k, w := range want.Contacts {
			g := got[k]
			if g.Pair != w.Pair || g.Kind != w.Kind || !slices.Equal(g.Features, w.Features) || len(g.Points) != len(w.Points) {
				t.Fatalf("pose %d: contact %d %+v, Check %+v", i, k, g, w)
			}
			for j, p := range w.Points {
				want := p
				if !envPose.IsIdentity() {
					want = envPose.Apply(p)
				}
				if g.Points[j] != want {
					t.Errorf("pose %d: pair %v point %d %v, want %v placed: %v", i, w.Pair, j, g.Points[j], p, want)
				}
			}
			if envPose.IsIdentity() && (g.Normal != w.Normal || g.Bound != w.Bound) {
				t.Errorf("pose %d: pair %v: normal %v bound %v, Check %v %v", i, w.Pair, g.Normal, g.Bound, w.Normal, w.Bound)
			}
			if !(g.Bound >= w.Bound) {
				t.Errorf("pose %d: pair %v: bound %v below the environment frame's %v", i, w.Pair, g.Bound, w.Bound)
			}
		}
		checkContacts(t, fmt.Sprintf("iterator pose %d", i), torus, sphere, envPose, rel, 0,
			collide.Result{Pairs: pairsOfContacts(got), Contacts: got}, false)
		// An early break stops the query.
		if len(got) > 1 {
			n := 0
			for range seq {
				if n++; n == 1 {
					break
				}
			}
			if n != 1 {
				t.Errorf("pose %d: the loop ran %d times after its break", i, n)
			}
		}
	}
	// Errors come at once, before any query.
	bad := geom.Identity()
	bad.R[0][0] = 2
	for _, c := range []struct {
		name     string
		env, fly *collide.Model
		ep, fp   geom.Pose
		o        collide.QueryOptions
	}{
		{"nil env", nil, fly, geom.Identity(), geom.Identity(), collide.QueryOptions{}},
		{"bad env pose", env, fly, bad, geom.Identity(), collide.QueryOptions{}},
		{"bad fly pose", env, fly, geom.Identity(), bad, collide.QueryOptions{}},
		{"negative eps", env, fly, geom.Identity(), geom.Identity(), collide.QueryOptions{Eps: -1}},
	} {
		if seq, err := q.Contacts(c.env, c.ep, c.fly, c.fp, c.o); err == nil || seq != nil {
			t.Errorf("%s: no error", c.name)
		}
	}
	// The zero Pose is the identity.
	seq, err := q.Contacts(env, geom.Pose{}, fly, geom.Pose{}, collide.QueryOptions{})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for range seq {
		n++
	}
	if r := mustCheck(t, env, fly, geom.Identity(), collide.QueryOptions{All: true}); n != len(r.Pairs) {
		t.Errorf("zero poses: %d contacts, %d pairs at the identity", n, len(r.Pairs))
	}
}

func pairsOfContacts(cs []collide.Contact) []collide.Pair {
	var ps []collide.Pair
	for _, c := range cs {
		ps = append(ps, c.Pair)
	}
	return ps
}

// TestContactsAllocs: a reused Query computes contacts and patches without
// allocating once warm; the function Check's copies do not share the
// pooled Query's buffers.
func TestContactsAllocs(t *testing.T) {
	env, fly, poses := torusScene(t, collide.BVDefault)
	for _, o := range []collide.QueryOptions{{All: true, Contacts: true}, {All: true, Patches: true}, {Patches: true}} {
		var q collide.Query
		for _, p := range poses {
			mustQuery(t, &q, env, fly, p, o)
		}
		i := 0
		allocs := testing.AllocsPerRun(50, func() {
			q.Check(env, fly, poses[i%len(poses)], o)
			i++
		})
		if allocs != 0 {
			t.Errorf("%+v: %v allocations per query, want 0", o, allocs)
		}
	}
	o := collide.QueryOptions{All: true, Patches: true}
	var keep []collide.Result
	for _, p := range poses[:8] {
		keep = append(keep, mustCheck(t, env, fly, p, o))
	}
	var q collide.Query
	for i, p := range poses[:8] {
		r := mustQuery(t, &q, env, fly, p, o)
		if !sameContacts(keep[i], r) {
			t.Errorf("pose %d: Check's result changed after later queries", i)
		}
	}
}

// unweld returns m with every triangle on vertices of its own (a soup
// repeating the positions).
func unweld(m *mesh.TriMesh) *mesh.TriMesh {
	out := &mesh.TriMesh{}
	for i := range m.Tris {
		n := int32(len(out.Verts))
		t := m.Triangle(i)
		out.Verts = append(out.Verts, t[0], t[1], t[2])
		out.Tris = append(out.Tris, [3]int32{n, n + 1, n + 2})
	}
	return out
}

// TestContactsUnwelded: the patches of welded meshes and of the same
// meshes as soups (every triangle on vertices of its own, at the same
// positions) are the same, contact for contact.
func TestContactsUnwelded(t *testing.T) {
	rng := rand.New(rand.NewPCG(32, 6))
	torus := gen.Must(gen.Torus(geom.Vec3{}, 1, 0.3, 600))
	box := gen.Must(gen.Box(geom.AABB{Min: geom.V(-0.4, -0.4, -0.4), Max: geom.V(0.4, 0.4, 0.4)}, 2))
	welded := [2]*collide.Model{mustBuild(t, torus, collide.BVDefault), mustBuild(t, box, collide.BVDefault)}
	soup := [2]*collide.Model{mustBuild(t, unweld(torus), collide.BVDefault), mustBuild(t, unweld(box), collide.BVDefault)}
	o := collide.QueryOptions{All: true, Patches: true}
	patches, contacts := 0, 0
	for i := range 30 {
		pose := randomPose(rng, 1)
		a := 2 * math.Pi * rng.Float64()
		pose.T = geom.V(math.Cos(a), math.Sin(a), 0.3*rng.NormFloat64())
		w := mustCheck(t, welded[0], welded[1], pose, o)
		s := mustCheck(t, soup[0], soup[1], pose, o)
		if d := diffContacts(w, s); d != "" {
			t.Errorf("pose %d: welded and soup differ: %s", i, d)
		}
		patches += len(w.Patches)
		contacts += len(w.Contacts)
	}
	// The crossings' curves join: far fewer patches than contacts.
	if patches == 0 || 5*patches > contacts {
		t.Errorf("%d patches of %d contacts", patches, contacts)
	}
	t.Logf("%d patches of %d contacts", patches, contacts)
}
