package view

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http/httptest"
	"testing"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/flight"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh"
	"github.com/collide3d/collide/mesh/gen"
	"github.com/collide3d/collide/scene"
	"github.com/collide3d/collide/world"
)

// stepGeometryJSON is the contact geometry of /step/N.
type stepGeometryJSON struct {
	Pairs   int       `json:"pairs"`
	Curves  []float64 `json:"curves"`
	Normals []float64 `json:"normals"`
	Focus   *boxJSON  `json:"focus"`
}

// getJSON gets path from srv into v.
func getJSON(t *testing.T, srv *httptest.Server, path string, v any) {
	t.Helper()
	resp, err := srv.Client().Get(srv.URL + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 {
		t.Fatalf("GET %s: %d %s", path, resp.StatusCode, b)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("GET %s: %v", path, err)
	}
}

// wantGeometry is what a step's curves and normals should be, from the
// contacts and patches of res (in the frame pose places, relative to o):
// each contact's segment or polygon outline (nothing for a point or an
// Apart contact), each patch's point and normal.
func wantGeometry(res *collide.Result, pose geom.Pose, o geom.Vec3) (segs, normals []float64) {
	put := func(dst []float64, ps ...geom.Vec3) []float64 {
		for _, p := range ps {
			dst = append(dst, p.X, p.Y, p.Z)
		}
		return dst
	}
	for _, c := range res.Contacts {
		if c.Kind == geom.Apart || len(c.Points) < 2 {
			continue
		}
		n := len(c.Points)
		m := n
		if n == 2 {
			m = 1
		}
		for i := range m {
			segs = put(segs, pose.Apply(c.Points[i]).Sub(o), pose.Apply(c.Points[(i+1)%n]).Sub(o))
		}
	}
	for _, p := range res.Patches {
		normals = put(normals, pose.Apply(p.Point).Sub(o), pose.ApplyVec(p.Normal))
	}
	return segs, normals
}

// checkFocus checks that the focus box holds every point of the curves and
// normals, and is null exactly when there are none.
func checkFocus(t *testing.T, n int, g *stepGeometryJSON) {
	t.Helper()
	if (g.Focus == nil) != (len(g.Curves) == 0 && len(g.Normals) == 0) {
		t.Errorf("step %d: focus %v with %d curve numbers and %d normal numbers", n, g.Focus, len(g.Curves), len(g.Normals))
		return
	}
	if g.Focus == nil {
		return
	}
	box := geom.AABB{Min: v3(g.Focus.Min), Max: v3(g.Focus.Max)}
	for i := 0; i+2 < len(g.Curves); i += 3 {
		if p := (geom.Vec3{X: g.Curves[i], Y: g.Curves[i+1], Z: g.Curves[i+2]}); !box.Contains(p) {
			t.Errorf("step %d: curve point %v outside the focus %v", n, p, box)
		}
	}
	for i := 0; i+5 < len(g.Normals); i += 6 {
		if p := (geom.Vec3{X: g.Normals[i], Y: g.Normals[i+1], Z: g.Normals[i+2]}); !box.Contains(p) {
			t.Errorf("step %d: normal's point %v outside the focus %v", n, p, box)
		}
	}
}

func v3(a [3]float64) geom.Vec3 { return geom.Vec3{X: a[0], Y: a[1], Z: a[2]} }

func equalFloats(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestStepGeometryFlight records a flight of a sphere through tetrahedra
// and checks that every step's curves and normals, as the page gets them,
// are the facade's contacts and patches at the step's pose, number for
// number, and that the steps in contact have curves.
func TestStepGeometryFlight(t *testing.T) {
	envMesh := gen.Must(gen.Tetrahedra(150, geom.AABB{Max: geom.Vec3{X: 4, Y: 4, Z: 4}}, 0.3, 3))
	flyMesh := gen.Must(gen.Icosphere(geom.Vec3{}, 0.6, 320))
	env, err := collide.Build(envMesh, collide.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	fly, err := collide.Build(flyMesh, collide.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := flight.NewBilliard(flight.BilliardConfig{Start: geom.Vec3{X: 2, Y: 2, Z: 2}, Bounds: envMesh.Bounds(), Speed: 0.05, Spin: 0.02, Turn: 0.3, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	rec, _, err := RecordFlight("test", env, fly, b, flight.Options{Steps: 120, Query: collide.QueryOptions{All: true}})
	if err != nil {
		t.Fatal(err)
	}
	h, err := Handler(rec, Options{})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	var info struct {
		Origin [3]float64 `json:"origin"`
	}
	getJSON(t, srv, "/recording.json", &info)
	o := v3(info.Origin)
	inContact, curves := 0, 0
	for n := range rec.Steps {
		var g stepGeometryJSON
		getJSON(t, srv, fmt.Sprintf("/step/%d", n), &g)
		res, err := collide.Check(env, fly, rec.Pose(n, 1), collide.QueryOptions{All: true, Patches: true})
		if err != nil {
			t.Fatal(err)
		}
		segs, normals := wantGeometry(&res, geom.Identity(), o)
		if !equalFloats(g.Curves, segs) {
			t.Errorf("step %d: %d curve segments, the contacts have %d (or other coordinates)", n, len(g.Curves)/6, len(segs)/6)
		}
		if !equalFloats(g.Normals, normals) {
			t.Errorf("step %d: %d normals, the patches have %d (or other coordinates)", n, len(g.Normals)/6, len(normals)/6)
		}
		for i := 3; i+2 < len(g.Normals); i += 6 {
			if l := (geom.Vec3{X: g.Normals[i], Y: g.Normals[i+1], Z: g.Normals[i+2]}).Norm(); math.Abs(l-1) > 1e-12 {
				t.Errorf("step %d: a normal of length %v", n, l)
			}
		}
		checkFocus(t, n, &g)
		if g.Pairs > 0 {
			inContact++
			if len(g.Curves) > 0 {
				curves++
			}
			if len(g.Normals) == 0 {
				t.Errorf("step %d: %d pairs and no normal", n, g.Pairs)
			}
		}
	}
	if inContact == 0 || curves == 0 {
		t.Errorf("%d steps in contact, %d with curves: the test tests nothing", inContact, curves)
	}
	if n := rec.ContactStep(); rec.Steps[n].Pairs() == 0 {
		t.Errorf("ContactStep %d has no pairs", n)
	} else {
		for m := range rec.Steps {
			if p := rec.Steps[m].Pairs(); p > rec.Steps[n].Pairs() || (p == rec.Steps[n].Pairs() && m < n) {
				t.Errorf("ContactStep %d has %d pairs, step %d %d", n, rec.Steps[n].Pairs(), m, p)
			}
		}
	}
}

// TestStepGeometryUnbuilt: a recording of meshes without built models
// draws each recorded pair's contact (geom.TriTriContact): a ball crossing
// the top of a box.
func TestStepGeometryUnbuilt(t *testing.T) {
	rec := testRecording(1)
	// Replace the models: a box whose top is z = 0 and a ball crossing
	// it.
	floor := gen.Must(gen.Box(geom.AABB{Min: geom.Vec3{X: -1, Y: -1, Z: -1}, Max: geom.Vec3{X: 1, Y: 1, Z: 0}}, 1))
	tetra := gen.Must(gen.Icosphere(geom.Vec3{}, 0.5, 20))
	rec.Models = []Model{{Name: "floor", Mesh: floor}, {Name: "ball", Mesh: tetra}}
	rec.Objects = []Object{{Name: "floor", Model: 0, Static: true, Pose: geom.Identity()}, {Name: "ball", Model: 1, Pose: geom.Identity()}}
	rec.Moving = []int{1}
	pose := geom.FromAxisAngle(geom.Vec3{X: 1, Y: 2, Z: 3}, 0.7, geom.Vec3{X: 0.1, Y: -0.2, Z: 0.3})
	env, err := collide.Build(floor, collide.BuildOptions{BV: collide.Brute})
	if err != nil {
		t.Fatal(err)
	}
	fly, err := collide.Build(tetra, collide.BuildOptions{BV: collide.Brute})
	if err != nil {
		t.Fatal(err)
	}
	res, err := collide.Check(env, fly, pose, collide.QueryOptions{All: true})
	if err != nil || !res.Collide {
		t.Fatalf("the ball does not cross the floor: %v", err)
	}
	rec.Steps = []Step{{Poses: []geom.Pose{pose}, Contacts: []Contact{{A: 0, B: 1, Pairs: res.Pairs}}}}
	h, err := Handler(rec, Options{})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	var info struct {
		Origin [3]float64 `json:"origin"`
	}
	getJSON(t, srv, "/recording.json", &info)
	o := v3(info.Origin)
	var g stepGeometryJSON
	getJSON(t, srv, "/step/0", &g)
	segs, normals := wantPairGeometry(floor, geom.Identity(), tetra, pose, res.Pairs, o)
	if len(segs) == 0 || !equalFloats(g.Curves, segs) || !equalFloats(g.Normals, normals) {
		t.Errorf("curves %v normals %v, want %v and %v", g.Curves, g.Normals, segs, normals)
	}
	checkFocus(t, 0, &g)
}

// TestStepGeometryScene: the steps of a scene of many objects draw the
// facade's contacts of each pair of objects, placed by the first's pose.
func TestStepGeometryScene(t *testing.T) {
	s, err := scene.Builtin("fall", 12, 3)
	if err != nil {
		t.Fatal(err)
	}
	rec, _, err := RecordScene(s, scene.Options{World: world.Options{All: true}, Steps: 60})
	if err != nil {
		t.Fatal(err)
	}
	h, err := Handler(rec, Options{})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	var info struct {
		Origin [3]float64 `json:"origin"`
	}
	getJSON(t, srv, "/recording.json", &info)
	o := v3(info.Origin)
	checked := 0
	for n := range rec.Steps {
		if len(rec.Steps[n].Contacts) == 0 {
			continue
		}
		var g stepGeometryJSON
		getJSON(t, srv, fmt.Sprintf("/step/%d", n), &g)
		var segs, normals []float64
		for _, c := range rec.Steps[n].Contacts {
			pa, pb := rec.Pose(n, c.A), rec.Pose(n, c.B)
			a, b := rec.Models[rec.Objects[c.A].Model].Built, rec.Models[rec.Objects[c.B].Model].Built
			res, err := collide.Collide(a, pa, b, pb, collide.QueryOptions{All: true, Patches: true})
			if err != nil {
				t.Fatal(err)
			}
			s, nm := wantGeometry(&res, geom.Identity(), o)
			segs, normals = append(segs, s...), append(normals, nm...)
		}
		if !equalFloats(g.Curves, segs) || !equalFloats(g.Normals, normals) {
			t.Errorf("step %d: %d segments and %d normals, the facade's %d and %d (or other coordinates)", n, len(g.Curves)/6, len(g.Normals)/6, len(segs)/6, len(normals)/6)
		}
		checkFocus(t, n, &g)
		checked++
	}
	if checked == 0 {
		t.Error("no step in contact: the test tests nothing")
	}
}

// wantPairGeometry is what a step's curves and normals should be when its
// pairs are met one by one: each pair's contact (geom.TriTriContact of the
// triangles of a at pa and b at pb), its segment or polygon outline and
// its normal at the centre of its points, relative to o.
func wantPairGeometry(a *mesh.TriMesh, pa geom.Pose, b *mesh.TriMesh, pb geom.Pose, pairs []collide.Pair, o geom.Vec3) (segs, normals []float64) {
	for _, p := range pairs {
		k := geom.TriTriContact(pa.ApplyTriangle(a.Triangle(int(p.Env))), pb.ApplyTriangle(b.Triangle(int(p.Fly))))
		if k.Kind == geom.Apart {
			continue
		}
		var pts []geom.Vec3
		var c geom.Vec3
		for i := range k.N {
			pts = append(pts, k.Points[i].P)
			c = c.Add(k.Points[i].P)
		}
		r := collide.Result{Contacts: []collide.Contact{{Kind: k.Kind, Points: pts}}}
		s, _ := wantGeometry(&r, geom.Identity(), o)
		segs = append(segs, s...)
		c = c.Scale(1 / float64(k.N)).Sub(o)
		normals = append(normals, c.X, c.Y, c.Z, k.Normal.X, k.Normal.Y, k.Normal.Z)
	}
	return segs, normals
}

// TestStepGeometryFirstContact: a first-contact recording keeps one pair a
// step; the page draws that pair's contact, not every pair's.
func TestStepGeometryFirstContact(t *testing.T) {
	envMesh := gen.Must(gen.Tetrahedra(150, geom.AABB{Max: geom.Vec3{X: 4, Y: 4, Z: 4}}, 0.3, 3))
	flyMesh := gen.Must(gen.Icosphere(geom.Vec3{}, 0.6, 320))
	env, err := collide.Build(envMesh, collide.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	fly, err := collide.Build(flyMesh, collide.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := flight.NewBilliard(flight.BilliardConfig{Start: geom.Vec3{X: 2, Y: 2, Z: 2}, Bounds: envMesh.Bounds(), Speed: 0.05, Spin: 0.02, Turn: 0.3, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	rec, _, err := RecordFlight("test", env, fly, b, flight.Options{Steps: 120})
	if err != nil {
		t.Fatal(err)
	}
	h, err := Handler(rec, Options{})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	var info struct {
		Origin [3]float64 `json:"origin"`
	}
	getJSON(t, srv, "/recording.json", &info)
	o := v3(info.Origin)
	checked := 0
	for n := range rec.Steps {
		if len(rec.Steps[n].Contacts) == 0 {
			continue
		}
		var g stepGeometryJSON
		getJSON(t, srv, fmt.Sprintf("/step/%d", n), &g)
		pairs := rec.Steps[n].Contacts[0].Pairs
		all, err := collide.Check(env, fly, rec.Pose(n, 1), collide.QueryOptions{All: true})
		if err != nil {
			t.Fatal(err)
		}
		if len(all.Pairs) > len(pairs) {
			checked++
		}
		segs, normals := wantPairGeometry(envMesh, geom.Identity(), flyMesh, rec.Pose(n, 1), pairs, o)
		if !equalFloats(g.Curves, segs) || !equalFloats(g.Normals, normals) {
			t.Errorf("step %d: %d segments and %d normals for the recorded pair %v; want %d and %d", n, len(g.Curves)/6, len(g.Normals)/6, pairs, len(segs)/6, len(normals)/6)
		}
	}
	if checked == 0 {
		t.Error("no step has more pairs than the one recorded: the test tests nothing")
	}
}

// TestValidateEps: a recording's tolerance must be a finite number >= 0,
// and a built model must be built from its mesh.
func TestValidateEps(t *testing.T) {
	for _, eps := range []float64{-1, math.NaN(), math.Inf(1)} {
		rec := testRecording(2)
		rec.Eps = eps
		if err := rec.Validate(); err == nil {
			t.Errorf("Eps %v: no error", eps)
		}
	}
	rec := testRecording(2)
	other, err := collide.Build(gen.Must(gen.Icosphere(geom.Vec3{}, 1, 20)), collide.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	rec.Models[0].Built = other
	if err := rec.Validate(); err == nil {
		t.Error("a model built from another mesh: no error")
	}
	rec.Models[0].Built = nil
	rec.Eps = 0.5
	if err := rec.Validate(); err != nil {
		t.Errorf("Eps 0.5: %v", err)
	}
}
