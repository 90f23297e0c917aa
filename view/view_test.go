package view

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"io"
	"math"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/flight"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh"
	"github.com/collide3d/collide/mesh/gen"
	"github.com/collide3d/collide/scene"
	"github.com/collide3d/collide/world"
)

// decodedMesh is the page's reading of a mesh (view.js decodeMesh).
type decodedMesh struct {
	centre geom.Vec3
	verts  []float32
	tris   []uint32
}

func decodeMesh(t *testing.T, b []byte) decodedMesh {
	t.Helper()
	if len(b) < meshHeader || string(b[:4]) != meshMagic || binary.LittleEndian.Uint32(b[4:]) != wireVersion {
		t.Fatalf("mesh: bad header % x", b[:min(len(b), 16)])
	}
	nv, nt := int(binary.LittleEndian.Uint32(b[8:])), int(binary.LittleEndian.Uint32(b[12:]))
	if want := meshHeader + 12*nv + 12*nt; len(b) != want {
		t.Fatalf("mesh: %d bytes for %d vertices and %d triangles, want %d", len(b), nv, nt, want)
	}
	d := decodedMesh{centre: readVec64(b[16:])}
	for i := range 3 * nv {
		d.verts = append(d.verts, math.Float32frombits(binary.LittleEndian.Uint32(b[meshHeader+4*i:])))
	}
	for i := range 3 * nt {
		d.tris = append(d.tris, binary.LittleEndian.Uint32(b[meshHeader+12*nv+4*i:]))
	}
	return d
}

func readVec64(b []byte) geom.Vec3 {
	f := func(i int) float64 { return math.Float64frombits(binary.LittleEndian.Uint64(b[8*i:])) }
	return geom.Vec3{X: f(0), Y: f(1), Z: f(2)}
}

// decodedPoses is the page's reading of the poses (view.js decodePoses).
type decodedPoses struct {
	objects, moving, steps int
	origin                 geom.Vec3
	base, step             []float32
}

func decodePoses(t *testing.T, b []byte) decodedPoses {
	t.Helper()
	if len(b) < posesHeader || string(b[:4]) != posesMagic || binary.LittleEndian.Uint32(b[4:]) != wireVersion {
		t.Fatalf("poses: bad header % x", b[:min(len(b), 16)])
	}
	d := decodedPoses{
		objects: int(binary.LittleEndian.Uint32(b[8:])), moving: int(binary.LittleEndian.Uint32(b[12:])),
		steps: int(binary.LittleEndian.Uint32(b[16:])), origin: readVec64(b[24:]),
	}
	if want := posesHeader + 48*(d.objects+d.moving*d.steps); len(b) != want {
		t.Fatalf("poses: %d bytes, want %d", len(b), want)
	}
	all := make([]float32, (len(b)-posesHeader)/4)
	for i := range all {
		all[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[posesHeader+4*i:]))
	}
	d.base, d.step = all[:12*d.objects], all[12*d.objects:]
	return d
}

// place is the page's placing of a sent vertex v by the 12 numbers a, in
// float64, plus the origin: where the page draws the vertex.
func place(a []float32, v [3]float32, o geom.Vec3) geom.Vec3 {
	f := func(r int) float64 {
		return float64(a[3*r])*float64(v[0]) + float64(a[3*r+1])*float64(v[1]) + float64(a[3*r+2])*float64(v[2]) + float64(a[9+r])
	}
	return geom.Vec3{X: f(0), Y: f(1), Z: f(2)}.Add(o)
}

func randomPose(r *rand.Rand, scale float64) geom.Pose {
	q := geom.Quat{W: r.NormFloat64(), X: r.NormFloat64(), Y: r.NormFloat64(), Z: r.NormFloat64()}.Unit()
	return geom.Pose{R: q.Mat3(), T: geom.Vec3{X: scale * (r.Float64() - 0.5), Y: scale * (r.Float64() - 0.5), Z: scale * (r.Float64() - 0.5)}}
}

func TestMeshEncoding(t *testing.T) {
	for _, off := range []float64{0, 1e3, -1e9} {
		m := gen.Must(gen.Icosphere(geom.Vec3{X: off, Y: 2 * off, Z: 0.5}, 2, 320))
		d := decodeMesh(t, appendMesh(nil, m, m.Bounds().Center()))
		if len(d.verts) != 3*len(m.Verts) || len(d.tris) != 3*len(m.Tris) {
			t.Fatalf("offset %g: %d vertices and %d triangles, want %d and %d", off, len(d.verts)/3, len(d.tris)/3, len(m.Verts), len(m.Tris))
		}
		if c := m.Bounds().Center(); d.centre != c {
			t.Errorf("offset %g: centre %v, want %v", off, d.centre, c)
		}
		for i, tr := range m.Tris {
			for c := range 3 {
				if d.tris[3*i+c] != uint32(tr[c]) {
					t.Fatalf("offset %g: triangle %d is %v, want %v", off, i, d.tris[3*i:3*i+3], tr)
				}
			}
		}
		// Far from the origin the shape stays: each vertex within float32's
		// rounding of the model's size (radius 2), not of its distance.
		for i, v := range m.Verts {
			got := geom.Vec3{X: float64(d.verts[3*i]), Y: float64(d.verts[3*i+1]), Z: float64(d.verts[3*i+2])}.Add(d.centre)
			if e := got.Sub(v).Norm(); e > 2*0x1p-23 {
				t.Fatalf("offset %g: vertex %d sent as %v, want %v (error %g)", off, i, got, v, e)
			}
		}
	}
}

// testRecording returns a recording of three objects (one static), two of
// which move, over steps steps, far from the origin.
func testRecording(steps int) *Recording {
	r := rand.New(rand.NewPCG(1, 2))
	ball := gen.Must(gen.Icosphere(geom.Vec3{X: 3, Y: -1, Z: 2}, 0.5, 80))
	box := gen.Must(gen.Box(geom.AABB{Min: geom.Vec3{X: -1, Y: -1, Z: -1}, Max: geom.Vec3{X: 1, Y: 1, Z: 1}}, 2))
	far := geom.Vec3{X: 1e6, Y: -2e6, Z: 5e5}
	at := func(p geom.Pose) geom.Pose { p.T = p.T.Add(far); return p }
	rec := &Recording{
		Title: "test", Mode: "all pairs",
		Models: []Model{{Name: "ball", Mesh: ball}, {Name: "box", Mesh: box}},
		Objects: []Object{
			{Name: "floor", Model: 1, Static: true, Pose: at(geom.Identity())},
			{Name: "a", Model: 0, Pose: at(randomPose(r, 4))},
			{Name: "b", Model: 0, Pose: at(randomPose(r, 4))},
		},
		Moving: []int{1, 2},
	}
	for n := range steps {
		rec.Steps = append(rec.Steps, Step{Poses: []geom.Pose{at(randomPose(r, 4)), at(randomPose(r, 4))}})
		if n%2 == 1 {
			rec.Steps[n].Contacts = []Contact{{A: 0, B: 2, Pairs: []collide.Pair{{Env: 3, Fly: 7}, {Env: 4, Fly: 1}}}}
		}
	}
	return rec
}

func TestPoseEncoding(t *testing.T) {
	rec := testRecording(5)
	boxes := rec.modelBoxes()
	box := rec.bounds(boxes)
	o := box.Center()
	d := decodePoses(t, appendPoses(nil, rec, boxes, o))
	if d.objects != 3 || d.moving != 2 || d.steps != 5 || d.origin != o {
		t.Fatalf("header: %d objects, %d moving, %d steps, origin %v", d.objects, d.moving, d.steps, d.origin)
	}
	meshes := []decodedMesh{decodeMesh(t, appendMesh(nil, rec.Models[0].Mesh, boxes[0].Center())), decodeMesh(t, appendMesh(nil, rec.Models[1].Mesh, boxes[1].Center()))}
	// Every vertex of every object, placed as the page places it, is
	// where the pose puts it, within float32's rounding of the distances
	// from the origin of the box of everything.
	tol := 8 * 0x1p-24 * (box.Size().Norm() + 4)
	check := func(n, i int, p geom.Pose, a []float32) {
		ob := rec.Objects[i]
		m, dm := rec.Models[ob.Model].Mesh, meshes[ob.Model]
		for k, v := range m.Verts {
			got := place(a, [3]float32{dm.verts[3*k], dm.verts[3*k+1], dm.verts[3*k+2]}, d.origin)
			if e := got.Sub(p.Apply(v)).Norm(); e > tol {
				t.Fatalf("step %d, object %d, vertex %d: drawn at %v, want %v (error %g > %g)", n, i, k, got, p.Apply(v), e, tol)
			}
			if !box.Expanded(tol).Contains(got) {
				t.Fatalf("step %d, object %d, vertex %d: %v outside the recording's box %v", n, i, k, got, box)
			}
		}
	}
	for i := range rec.Objects {
		check(-1, i, rec.Objects[i].Pose, d.base[12*i:12*i+12])
	}
	for n := range rec.Steps {
		for k, i := range rec.Moving {
			at := 12 * (n*d.moving + k)
			check(n, i, rec.Pose(n, i), d.step[at:at+12])
		}
	}
}

func TestLoopbackHost(t *testing.T) {
	for host, want := range map[string]bool{
		"localhost": true, "localhost:8357": true, "127.0.0.1:0": true, "127.0.0.2": true, "[::1]:80": true, "::1": true,
		":8357": false, "0.0.0.0:80": false, "10.0.0.1": false, "evil.example:8357": false, "localhost.evil.example": false, "": false,
	} {
		if got := LoopbackHost(host); got != want {
			t.Errorf("LoopbackHost(%q) = %v, want %v", host, got, want)
		}
	}
	// Every loopback form a browser or a client sends, with and without a
	// port: the hosts of http://[::1]/, http://LOCALHOST/,
	// http://localhost./ are served.
	for _, host := range []string{
		"localhost", "LocalHost", "LOCALHOST", "localhost.",
		"127.0.0.1", "127.0.0.2", "127.255.255.254",
		"[::1]", "[0:0:0:0:0:0:0:1]", "[::ffff:127.0.0.1]", "::1", "0:0:0:0:0:0:0:1",
	} {
		for _, port := range []string{"", ":80", ":8357", ":0"} {
			h := host + port
			if port != "" && strings.Count(host, ":") > 1 && !strings.HasPrefix(host, "[") {
				continue // an IPv6 address takes a port in brackets only
			}
			if !LoopbackHost(h) {
				t.Errorf("LoopbackHost(%q) = false, want true", h)
			}
		}
	}
	// Foreign hosts, and malformed ones, still refused, with and without a
	// port.
	for _, host := range []string{
		"example.com", "evil.example", "localhost.evil.example", "evil.localhost.example", "localhostx", "xlocalhost",
		"localhost..", "0.0.0.0", "10.0.0.1", "128.0.0.1", "192.168.1.1", "1.127.0.0",
		"[::]", "[::2]", "[2001:db8::1]", "[::1", "::1]", "[[::1]]", "[127.0.0.1]", "[localhost]", "[]",
		"[fe80::1%25lo]", "::", "",
	} {
		for _, port := range []string{"", ":80", ":8357"} {
			if h := host + port; LoopbackHost(h) {
				t.Errorf("LoopbackHost(%q) = true, want false", h)
			}
		}
	}
}

func TestValidate(t *testing.T) {
	nan := geom.Identity()
	nan.T.X = math.NaN()
	for _, tc := range []struct {
		name   string
		change func(r *Recording)
		want   string
	}{
		{"no models", func(r *Recording) { r.Models = nil }, "without models"},
		{"empty mesh", func(r *Recording) { r.Models[1].Mesh = &mesh.TriMesh{} }, "no triangles"},
		{"model index", func(r *Recording) { r.Objects[2].Model = 2 }, "shows model 2"},
		{"NaN pose", func(r *Recording) { r.Objects[0].Pose = nan }, "object 0"},
		{"NaN step pose", func(r *Recording) { r.Steps[1].Poses[0] = nan }, "step 1, object 1"},
		{"moving order", func(r *Recording) { r.Moving = []int{2, 1} }, "ascending"},
		{"poses count", func(r *Recording) { r.Steps[2].Poses = r.Steps[2].Poses[:1] }, "1 poses for 2 moving"},
		{"contact object", func(r *Recording) { r.Steps[1].Contacts[0].B = 3 }, "objects 0 and 3"},
		{"contact itself", func(r *Recording) { r.Steps[1].Contacts[0].B = 0 }, "objects 0 and 0"},
		{"pair index", func(r *Recording) { r.Steps[1].Contacts[0].Pairs[1].Fly = 80 }, "pair (4, 80)"},
		{"negative pair", func(r *Recording) { r.Steps[1].Contacts[0].Pairs[0].Env = -1 }, "pair (-1, 7)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := testRecording(4)
			tc.change(r)
			err := r.Validate()
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Validate = %v, want an error with %q", err, tc.want)
			}
			if _, err := Handler(r, Options{}); err == nil {
				t.Fatal("Handler served an invalid recording")
			}
		})
	}
	r := testRecording(4)
	if err := r.Validate(); err != nil {
		t.Fatal(err)
	}
	r.Steps = make([]Step, MaxPoses/2+1)
	if err := r.Validate(); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("%d steps of 2 moving objects: Validate = %v, want ErrTooLarge", len(r.Steps), err)
	}
}

func get(t *testing.T, srv *httptest.Server, method, path, host string) (int, string, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, srv.URL+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if host != "" {
		req.Host = host
	}
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header.Get("Content-Type"), b
}

func TestHandler(t *testing.T) {
	rec := testRecording(6)
	h, err := Handler(rec, Options{})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	for _, tc := range []struct {
		method, path, host string
		status             int
		typ, body          string
	}{
		{"GET", "/", "", 200, "text/html", "collide view"},
		{"GET", "/view.js", "", 200, "text/javascript", "collideView"},
		{"GET", "/chart.js", "", 200, "text/javascript", "export class Chart"},
		{"GET", "/view.css", "", 200, "text/css", ""},
		{"GET", "/three/three.module.js", "", 200, "text/javascript", "three.core.js"},
		{"GET", "/three/three.core.js", "", 200, "text/javascript", "REVISION"},
		{"GET", "/three/OrbitControls.js", "", 200, "text/javascript", "class OrbitControls"},
		{"GET", "/three/LICENSE", "", 200, "text/plain", "MIT"},
		{"GET", "/mesh/1", "", 200, "application/octet-stream", meshMagic},
		{"GET", "/poses", "", 200, "application/octet-stream", posesMagic},
		{"GET", "/step/3", "", 200, "application/json", `"pairs":[3,7,4,1]`},
		{"HEAD", "/", "", 200, "text/html", ""},
		{"GET", "/mesh/2", "", 404, "", "no model"},
		{"GET", "/mesh/-1", "", 404, "", "no model"},
		{"GET", "/step/6", "", 404, "", "no step"},
		{"GET", "/step/x", "", 404, "", "no step"},
		{"GET", "/assets/view.js", "", 404, "", ""},
		{"GET", "/three/", "", 404, "", ""},
		{"GET", "/three/package.json", "", 404, "", ""},
		{"GET", "/../../etc/passwd", "", 404, "", ""},
		{"GET", "/view.go", "", 404, "", ""},
		{"POST", "/", "", 405, "", ""},
		{"GET", "/", "localhost:8357", 200, "text/html", ""},
		{"GET", "/", "[::1]:80", 200, "text/html", ""},
		{"GET", "/", "[::1]", 200, "text/html", ""},
		{"GET", "/", "127.0.0.1", 200, "text/html", ""},
		{"GET", "/", "LOCALHOST", 200, "text/html", ""},
		{"GET", "/recording.json", "[2001:db8::1]", 403, "", "loopback"},
		{"GET", "/recording.json", "evil.example:8357", 403, "", "loopback"},
		{"GET", "/mesh/0", "10.0.0.1", 403, "", "loopback"},
	} {
		status, typ, body := get(t, srv, tc.method, tc.path, tc.host)
		if status != tc.status || !strings.HasPrefix(typ, tc.typ) || !strings.Contains(string(body), tc.body) {
			t.Errorf("%s %s (Host %q) = %d %q %.60q, want %d %q with %q", tc.method, tc.path, tc.host, status, typ, body, tc.status, tc.typ, tc.body)
		}
	}

	// recording.json: the figures by step and the box, relative to the
	// origin the poses were sent with.
	_, _, body := get(t, srv, "GET", "/recording.json", "")
	var j recordingJSON
	if err := json.Unmarshal(body, &j); err != nil {
		t.Fatal(err)
	}
	_, _, pb := get(t, srv, "GET", "/poses", "")
	d := decodePoses(t, pb)
	o := geom.Vec3{X: j.Origin[0], Y: j.Origin[1], Z: j.Origin[2]}
	if j.Steps != 6 || len(j.Pairs) != 6 || j.Pairs[3] != 2 || j.Contacts[3] != 1 || j.Pairs[2] != 0 || o != d.origin {
		t.Errorf("recording.json: %d steps, pairs %v, contacts %v, origin %v (poses' %v)", j.Steps, j.Pairs, j.Contacts, o, d.origin)
	}
	if !slices.Equal(j.Moving, rec.Moving) || len(j.Objects) != 3 || !j.Objects[0].Static || j.Models[0].Triangles != len(rec.Models[0].Mesh.Tris) {
		t.Errorf("recording.json: moving %v, objects %+v, models %+v", j.Moving, j.Objects, j.Models)
	}

	// Every key of the data the page reads is snake_case, as every JSON
	// key the CLI writes.
	for _, path := range []string{"/recording.json", "/step/3"} {
		_, _, body := get(t, srv, "GET", path, "")
		var v any
		if err := json.Unmarshal(body, &v); err != nil {
			t.Fatal(err)
		}
		var walk func(v any)
		walk = func(v any) {
			switch v := v.(type) {
			case map[string]any:
				for k, x := range v {
					if !regexp.MustCompile(`^[a-z][a-z0-9]*(_[a-z0-9]+)*$`).MatchString(k) {
						t.Errorf("%s: the key %q is not snake_case", path, k)
					}
					walk(x)
				}
			case []any:
				for _, x := range v {
					walk(x)
				}
			}
		}
		walk(v)
	}

	// Only loopback hosts, unless AnyHost.
	h, _ = Handler(rec, Options{AnyHost: true})
	any := httptest.NewServer(h)
	defer any.Close()
	if status, _, _ := get(t, any, "GET", "/recording.json", "viewer.example:80"); status != 200 {
		t.Errorf("AnyHost: status %d, want 200", status)
	}
}

// TestRecordFlight checks a recorded flight's contacts against the query
// asked afresh at each recorded pose.
func TestRecordFlight(t *testing.T) {
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
	rec, sum, err := RecordFlight("test", env, fly, b, flight.Options{Steps: 200, Query: collide.QueryOptions{All: true}})
	if err != nil {
		t.Fatal(err)
	}
	if err := rec.Validate(); err != nil {
		t.Fatal(err)
	}
	if len(rec.Steps) != 200 || sum.Colliding == 0 {
		t.Fatalf("%d steps, %d in contact: want 200 steps, some in contact", len(rec.Steps), sum.Colliding)
	}
	bruteEnv, bruteFly := brute(t, envMesh), brute(t, flyMesh)
	for n, st := range rec.Steps {
		want, err := collide.Check(bruteEnv, bruteFly, rec.Pose(n, 1), collide.QueryOptions{All: true})
		if err != nil {
			t.Fatal(err)
		}
		var got []collide.Pair
		if len(st.Contacts) > 0 {
			got = st.Contacts[0].Pairs
		}
		if !slices.Equal(got, want.Pairs) || (len(st.Contacts) > 0) != want.Collide {
			t.Fatalf("step %d: recorded %v, the query at its pose finds %v", n, got, want.Pairs)
		}
	}
}

// TestRecordScene checks a recorded scene's contacts against every pair of
// objects tested afresh at the recorded poses.
func TestRecordScene(t *testing.T) {
	s, err := scene.Load("testdata/balls.json")
	if err != nil {
		t.Fatal(err)
	}
	rec, tot, err := RecordScene(s, scene.Options{World: world.Options{All: true}})
	if err != nil {
		t.Fatal(err)
	}
	if err := rec.Validate(); err != nil {
		t.Fatal(err)
	}
	if len(rec.Steps) != 60 || !slices.Equal(rec.Moving, []int{1, 2, 3}) || tot.Contacts == 0 {
		t.Fatalf("%d steps, moving %v, %d contacts", len(rec.Steps), rec.Moving, tot.Contacts)
	}
	models := make([]*collide.Model, len(rec.Models))
	for i, m := range rec.Models {
		models[i] = brute(t, m.Mesh)
	}
	for n, st := range rec.Steps {
		var want []Contact
		for a := range rec.Objects {
			for b := a + 1; b < len(rec.Objects); b++ {
				if rec.Objects[a].Static && rec.Objects[b].Static {
					continue
				}
				pa, pb := rec.Pose(n, a), rec.Pose(n, b)
				res, err := collide.Collide(models[rec.Objects[a].Model], pa, models[rec.Objects[b].Model], pb, collide.QueryOptions{All: true})
				if err != nil {
					t.Fatal(err)
				}
				if res.Collide {
					want = append(want, Contact{A: a, B: b, Pairs: res.Pairs})
				}
			}
		}
		if len(want) != len(st.Contacts) {
			t.Fatalf("step %d: %d contacts recorded, %d found afresh", n, len(st.Contacts), len(want))
		}
		for i, c := range st.Contacts {
			if c.A != want[i].A || c.B != want[i].B || !slices.Equal(c.Pairs, want[i].Pairs) {
				t.Fatalf("step %d: contact %d recorded as %d–%d %v, found afresh as %d–%d %v", n, i, c.A, c.B, c.Pairs, want[i].A, want[i].B, want[i].Pairs)
			}
		}
	}
}

// brute builds m without a hierarchy: the oracle, every pair of triangles.
func brute(t *testing.T, m *mesh.TriMesh) *collide.Model {
	t.Helper()
	b, err := collide.Build(m, collide.BuildOptions{BV: collide.Brute})
	if err != nil {
		t.Fatal(err)
	}
	return b
}
