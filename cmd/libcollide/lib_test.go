package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/batch"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/internal/source"
	"github.com/collide3d/collide/mesh"
)

// matrix returns p as the 16 numbers of a row-major 4x4 matrix.
func matrix(p geom.Pose) []float64 {
	p = p.Normalize()
	r, t := p.R, p.T
	return []float64{
		r[0][0], r[0][1], r[0][2], t.X,
		r[1][0], r[1][1], r[1][2], t.Y,
		r[2][0], r[2][1], r[2][2], t.Z,
		0, 0, 0, 1,
	}
}

// matrices returns the poses as 16 numbers each.
func matrices(ps ...geom.Pose) []float64 {
	var out []float64
	for _, p := range ps {
		out = append(out, matrix(p)...)
	}
	return out
}

// boxArrays returns the 12-triangle box [-1, 1]³ as arrays.
func boxArrays() (verts []float64, faces []int64) {
	verts = []float64{
		-1, -1, -1, 1, -1, -1, 1, 1, -1, -1, 1, -1,
		-1, -1, 1, 1, -1, 1, 1, 1, 1, -1, 1, 1,
	}
	faces = []int64{
		0, 2, 1, 0, 3, 2, 4, 5, 6, 4, 6, 7,
		0, 1, 5, 0, 5, 4, 2, 3, 7, 2, 7, 6,
		1, 2, 6, 1, 6, 5, 0, 4, 7, 0, 7, 3,
	}
	return verts, faces
}

// newBox returns the handle of a box model, released at the test's end.
func newBox(t *testing.T, bv string) uint64 {
	t.Helper()
	v, f := boxArrays()
	m, err := modelNew(v, len(v)/3, f, len(f)/3, bv)
	if err != nil {
		t.Fatal(err)
	}
	h := putHandle(m)
	t.Cleanup(func() { freeHandle(h) })
	return h
}

func TestPoseConversion(t *testing.T) {
	rot := geom.AxisAngle(geom.Vec3{X: 1, Y: 2, Z: 3}, 0.7).Mat3()
	want := geom.Pose{R: rot, T: geom.Vec3{X: 4, Y: -5, Z: 6}}
	m := matrix(want)
	if m[3] != 4 || m[7] != -5 || m[11] != 6 {
		t.Fatalf("matrix: translation not in the last column: %v", m)
	}
	got, err := posesOf(append(matrices(geom.Identity()), m...), "poses")
	if err != nil {
		t.Fatal(err)
	}
	if got[0] != geom.Identity() || got[1] != want {
		t.Errorf("posesOf: %v, want the identity and %v", got, want)
	}
	p, err := poseOrIdentity(nil, "env_pose")
	if err != nil || p != geom.Identity() {
		t.Errorf("poseOrIdentity(nil) = %v, %v; want the identity", p, err)
	}
}

func TestPoseErrors(t *testing.T) {
	bad := func(i int, x float64) []float64 {
		m := matrices(geom.Identity(), geom.Identity(), geom.Identity())
		m[i] = x
		return m
	}
	for _, tc := range []struct {
		m    []float64
		want string
	}{
		{bad(16+5, math.NaN()), "poses[1][1][1] is NaN"},
		{bad(32+3, math.Inf(-1)), "poses[2][0][3] is -Inf"},
		{bad(16+14, 1e-300), "poses[1]: the last row is 0 0 1e-300 1, not 0 0 0 1"},
		{bad(15, 2), "poses[0]: the last row is 0 0 0 2, not 0 0 0 1"},
		{bad(32+0, 2), "poses[2]: pose rotation is not orthonormal with determinant 1"},
		{matrices(geom.Pose{R: geom.Mat3{{-1, 0, 0}, {0, 1, 0}, {0, 0, 1}}}), "poses[0]: pose rotation is not orthonormal with determinant 1"},
	} {
		_, err := posesOf(tc.m, "poses")
		if err == nil || err.Error() != tc.want || code(err) != codeEINVAL {
			t.Errorf("posesOf: %v (code %d), want %q (EINVAL)", err, code(err), tc.want)
		}
	}
	if _, err := posesOf16(nil, 3, "poses"); err == nil || err.Error() != "poses is NULL" {
		t.Errorf("NULL poses: %v", err)
	}
	for _, tc := range []struct {
		n    int64
		want string
	}{{-1, "n = -1 is negative"}, {1 << 40, "n = 1099511627776 is too large"}} {
		if _, err := count(tc.n, 16, "n"); err == nil || err.Error() != tc.want {
			t.Errorf("count(%d): %v, want %q", tc.n, err, tc.want)
		}
	}
}

func TestCutUTF8(t *testing.T) {
	s := "pose ∘ é" // ∘ is 3 bytes, é 2
	for n, want := range map[int]string{0: "", 4: "pose", 5: "pose ", 6: "pose ", 7: "pose ", 8: "pose ∘", 9: "pose ∘ ", 10: "pose ∘ ", 11: s, 50: s} {
		if got := cutUTF8(s, n); got != want {
			t.Errorf("cutUTF8(%q, %d) = %q, want %q", s, n, got, want)
		}
	}
}

func TestModelNewErrors(t *testing.T) {
	v, f := boxArrays()
	nan := append([]float64(nil), v...)
	nan[3*5+1] = math.NaN()
	inf := append([]float64(nil), v...)
	inf[3*7+2] = math.Inf(1)
	out := append([]int64(nil), f...)
	out[3*3+2] = 99
	neg := append([]int64(nil), f...)
	neg[3*11] = -1
	for _, tc := range []struct {
		name   string
		verts  []float64
		nv     int
		faces  []int64
		nf     int
		bv     string
		want   string
		status int32
	}{
		{"NaN", nan, 8, f, 12, "", "vertices[5][1] is NaN", codeEINVAL},
		{"Inf", inf, 8, f, 12, "", "vertices[7][2] is +Inf", codeEINVAL},
		{"out of range", v, 8, out, 12, "", "faces[3][2] = 99 is out of range [0, 8)", codeEINVAL},
		{"negative index", v, 8, neg, 12, "", "faces[11][0] = -1 is out of range [0, 8)", codeEINVAL},
		{"no vertices for the faces", nil, 0, f, 12, "", "faces[0][0] = 0 is out of range [0, 0)", codeEINVAL},
		{"empty", v, 8, nil, 0, "", "nfaces = 0: the model has no triangles", codeEINVAL},
		{"NULL verts", nil, 8, f, 12, "", "verts is NULL", codeEINVAL},
		{"NULL faces", v, 8, nil, 12, "", "faces is NULL", codeEINVAL},
		{"too many vertices", nil, mesh.MaxVertices + 1, f, 12, "", fmt.Sprintf("nverts = %d is more than %d (mesh.MaxVertices)", mesh.MaxVertices+1, mesh.MaxVertices), codeEINVAL},
		{"too many faces", v, 8, nil, mesh.MaxTriangles + 1, "", fmt.Sprintf("nfaces = %d is more than %d (mesh.MaxTriangles)", mesh.MaxTriangles+1, mesh.MaxTriangles), codeEINVAL},
		{"bv", v, 8, f, 12, "kdop17", `--bv: unknown bounding volume "kdop17" (known: kdop6, kdop8, kdop12, kdop14, kdop18, kdop20, kdop26, obb, sphere, aabb, boxtree, rss, brute)`, codeEINVAL},
	} {
		_, err := modelNew(tc.verts, tc.nv, tc.faces, tc.nf, tc.bv)
		if err == nil || err.Error() != tc.want || code(err) != tc.status {
			t.Errorf("%s: %v (status %d), want %q (status %d)", tc.name, err, code(err), tc.want, tc.status)
		}
	}
	if _, err := count(-3, 3, "nverts"); err == nil || err.Error() != "nverts = -3 is negative" {
		t.Errorf("count: %v", err)
	}
}

func TestModelRoundTrip(t *testing.T) {
	for _, bv := range []string{"", "obb", "brute"} {
		h := newBox(t, bv)
		nv, nf, name, err := modelInfo(h)
		want := bv
		if bv == "" {
			want = "kdop18"
		}
		if err != nil || nv != 8 || nf != 12 || name != want {
			t.Errorf("modelInfo(%q) = %d, %d, %q, %v; want 8, 12, %q", bv, nv, nf, name, err, want)
		}
		m, _ := lookupID[*collide.Model](h, "model")
		verts, faces := make([]float64, 3*nv), make([]int64, 3*nf)
		copyMesh(m.Mesh(), verts, faces)
		v, f := boxArrays()
		if !reflect.DeepEqual(verts, v) || !reflect.DeepEqual(faces, f) {
			t.Errorf("copyMesh: %v %v, want %v %v", verts, faces, v, f)
		}
		copyMesh(m.Mesh(), nil, faces) // either may be NULL
	}
}

func TestModelLoadSave(t *testing.T) {
	dir := t.TempDir()
	h := newBox(t, "obb")
	path := filepath.Join(dir, "box.collide")
	if err := modelSave(h, path); err != nil {
		t.Fatal(err)
	}
	if err := modelSave(h, path); err != nil { // replaces it
		t.Fatalf("saving again: %v", err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("the directory holds %d files after two saves, want 1 (no temporary file left)", len(entries))
	}
	for _, bv := range []string{"", "obb"} {
		m, err := modelLoad(path, bv, "")
		if err != nil {
			t.Fatalf("loading with bv %q: %v", bv, err)
		}
		if m.BV() != collide.OBB || len(m.Mesh().Tris) != 12 {
			t.Errorf("loaded %v with %d triangles, want obb with 12", m.BV(), len(m.Mesh().Tris))
		}
	}
	m, err := modelLoad("gen:box:n=2", "rss", "")
	if err != nil || m.BV() != collide.RSS || len(m.Mesh().Tris) != 48 {
		t.Errorf("gen:box:n=2 with rss: %v, %v", m, err)
	}
	m, err = modelLoad("gen:box", "", "")
	if err != nil || m.BV() != collide.KDOP18 {
		t.Errorf("gen:box: %v, %v; want a kdop18 model (the default)", m, err)
	}

	obj := filepath.Join(dir, "tri.obj")
	os.WriteFile(obj, []byte("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n"), 0o644)
	if m, err := modelLoad(obj, "aabb", ""); err != nil || m.BV() != collide.AABB || len(m.Mesh().Tris) != 1 {
		t.Errorf("%s: %v, %v", obj, m, err)
	}
}

// TestLoadErrors checks the status of each problem of a model argument and
// that its message is the command line's for the same problem (what
// `collide check ARG ARG` prints after "collide check: ").
func TestLoadErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name, s string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	saved := filepath.Join(dir, "box.collide")
	if err := modelSave(newBox(t, "obb"), saved); err != nil {
		t.Fatal(err)
	}
	unreadable := write("locked.obj", "v 0 0 0\n")
	os.Chmod(unreadable, 0)
	for _, tc := range []struct {
		name, arg, bv string
		status        int32
		cli           []string // the command line's flags, when it says the same
	}{
		{"missing", filepath.Join(dir, "none.obj"), "", codeENOENT, nil},
		{"malformed", write("bad.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 x\n"), "", codeEFORMAT, nil},
		{"bad vertex", write("bad.off", "OFF\n3 1 0\n0 0 0\n1 0 0\n0 1\n3 0 1 2\n"), "", codeEFORMAT, nil},
		{"no triangles", write("empty.obj", "v 0 0 0\n"), "", codeEFORMAT, nil},
		{"unknown extension", write("box.xyz", "1 2 3\n"), "", codeEINVAL, nil},
		{"directory", dir, "", codeEIO, nil},
		{"unknown generator", "gen:boxx", "", codeEINVAL, nil},
		{"bad parameter", "gen:box:n=x", "", codeEINVAL, nil},
		{"saved of another volume", saved, "kdop18", codeEINVAL, []string{"--bv", "kdop18"}},
		{"unknown volume", saved, "kdop7", codeEINVAL, nil},
		{"not a saved model", write("cut.collide", "COLLIDE\x00\x01"), "", codeEFORMAT, nil},
		{"no such glTF mesh", write("tri.gltf", triangleGLTF) + "#wheel", "", codeEFORMAT, nil},
		{"a mesh of an OBJ file", write("tri.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n") + "#tri", "", codeEINVAL, nil},
		{"a mesh of a saved model", saved + "#tri", "", codeEINVAL, nil},
	} {
		_, err := modelLoad(tc.arg, tc.bv, "")
		if err == nil {
			t.Errorf("%s: no error", tc.name)
			continue
		}
		if c := code(err); c != tc.status {
			t.Errorf("%s: %v: status %d, want %d", tc.name, err, c, tc.status)
		}
		if tc.bv == "kdop7" {
			continue // the command line also knows "auto"
		}
		args := append(append([]string{"check"}, tc.cli...), tc.arg, tc.arg)
		if want := cliError(t, args...); want != err.Error() {
			t.Errorf("%s: message\n%q, the command line's\n%q", tc.name, err, want)
		}
	}
	if os.Getuid() != 0 { // root reads anything
		_, err := modelLoad(unreadable, "", "")
		if code(err) != codeEIO || !errors.Is(err, fs.ErrPermission) {
			t.Errorf("unreadable: %v (status %d), want EIO", err, code(err))
		}
	}
}

func TestSaveErrors(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name   string
		h      uint64
		path   string
		status int32
		want   string
	}{
		{"brute", newBox(t, "brute"), filepath.Join(dir, "b.collide"), codeEINVAL, "model: a brute-force model has no hierarchy to save (build it with another bv)"},
		{"no directory", newBox(t, ""), filepath.Join(dir, "none", "b.collide"), codeENOENT, ""},
		{"a directory", newBox(t, ""), dir, codeEIO, dir + " is a directory, not a regular file; not overwritten"},
		{"empty path", newBox(t, ""), "", codeEINVAL, "path is empty"},
		{"not a model", bufferHandle([]int64{1}), filepath.Join(dir, "b.collide"), codeEINVAL, ""},
	} {
		err := modelSave(tc.h, tc.path)
		if err == nil || code(err) != tc.status || (tc.want != "" && err.Error() != tc.want) {
			t.Errorf("%s: %v (status %d), want status %d %q", tc.name, err, code(err), tc.status, tc.want)
		}
	}
}

func TestStatusCodes(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want int32
	}{
		{nil, codeOK},
		{argf("x"), codeEINVAL},
		{fmt.Errorf("wrapped: %w", argf("x")), codeEINVAL},
		{&source.UsageError{Msg: "x"}, codeEINVAL},
		{&batch.Error{What: "pose", Index: 1, Err: errors.New("x")}, codeEINVAL},
		{fmt.Errorf("collide: %w: x", collide.ErrInvalidQuery), codeEINVAL},
		{fmt.Errorf("collide: %w: x", collide.ErrInvalidPose), codeEINVAL},
		{fmt.Errorf("open x: %w", fs.ErrNotExist), codeENOENT},
		{&fs.PathError{Op: "open", Path: "x", Err: fs.ErrNotExist}, codeENOENT},
		{&fs.PathError{Op: "read", Path: "x", Err: fs.ErrPermission}, codeEIO},
		{errors.New("disk on fire"), codeEIO},
		{&mesh.FormatError{Format: "obj", Line: 3, Msg: "x"}, codeEFORMAT},
		{fmt.Errorf("x: %w", &mesh.FormatError{Format: "collide", Offset: 3, Msg: "x"}), codeEFORMAT},
		{&contentError{errors.New("x")}, codeEFORMAT},
		{context.Canceled, codeECANCELED},
		{fmt.Errorf("collide: stopped: %w", context.Canceled), codeECANCELED},
		{panicError("boom"), codeEINTERNAL},
	} {
		if got := code(tc.err); got != tc.want {
			t.Errorf("code(%v) = %d, want %d", tc.err, got, tc.want)
		}
	}
	if got := panicError("index out of range").Error(); got != "internal error: index out of range" {
		t.Errorf("panic message %q", got)
	}
}

func TestHandleMisuse(t *testing.T) {
	box := newBox(t, "")
	buf := bufferHandle([]int64{1, 2, 3})
	if bufferHandle(nil) != 0 {
		t.Error("an empty buffer has a handle")
	}
	for _, tc := range []struct {
		err  error
		want string
	}{
		{func() error { _, err := lookupID[*collide.Model](0, "env"); return err }(), "env: handle 0 is no object"},
		{func() error { _, err := lookupID[*collide.Model](1<<50, "fly"); return err }(), "fly: handle 1125899906842624 is not a live object (already released, or never issued)"},
		{func() error { _, err := lookupID[*collide.Model](buf, "env"); return err }(), fmt.Sprintf("env: handle %d is a buffer, not a model", buf)},
		{func() error { _, err := lookupID[[]int64](box, "buffer"); return err }(), fmt.Sprintf("buffer: handle %d is a model, not a buffer", box)},
		{bufferCopy(buf, make([]int64, 2), 2), "n = 2, but the buffer holds 3 elements"},
		{bufferCopy(buf, nil, 3), "dst is NULL"},
	} {
		if tc.err == nil || tc.err.Error() != tc.want || code(tc.err) != codeEINVAL {
			t.Errorf("%v (status %d), want %q (EINVAL)", tc.err, code(tc.err), tc.want)
		}
	}
	if err := bufferCopy(0, nil, 0); err != nil {
		t.Errorf("copying the empty buffer 0: %v", err)
	}
	if err := bufferCopy(0, make([]int64, 1), 1); err == nil || err.Error() != "n = 1, but the buffer holds 0 elements" {
		t.Errorf("copying 1 element of the empty buffer 0: %v", err)
	}
	dst := make([]int64, 3)
	if err := bufferCopy(buf, dst, 3); err != nil || !reflect.DeepEqual(dst, []int64{1, 2, 3}) {
		t.Errorf("bufferCopy: %v, %v", dst, err)
	}
	if err := freeHandle(buf); err != nil {
		t.Fatal(err)
	}
	err := freeHandle(buf)
	if want := fmt.Sprintf("handle %d is not a live object (already released, or never issued)", buf); err == nil || err.Error() != want || code(err) != codeEINVAL {
		t.Errorf("second free: %v, want %q", err, want)
	}
	if _, err := lookupID[[]int64](buf, "buffer"); err == nil {
		t.Error("a released buffer is still found")
	}
	if err := freeHandle(0); err != nil {
		t.Errorf("free(0): %v", err)
	}
	if next := putHandle(1); next <= buf {
		t.Errorf("handle %d issued after %d: handles must not be reused", next, buf)
	} else {
		freeHandle(next)
	}
}

func TestCheck(t *testing.T) {
	env, fly := newBox(t, ""), newBox(t, "")
	poses := []geom.Pose{
		geom.Translation(geom.Vec3{X: 3}),            // apart
		geom.Translation(geom.Vec3{X: 2}),            // touching face to face
		geom.Translation(geom.Vec3{X: 1, Y: 0.5}),    // overlapping
		geom.Translation(geom.Vec3{X: 2.01, Z: 0.3}), // apart by 0.01
	}
	em, _ := lookupID[*collide.Model](env, "")
	for _, all := range []bool{false, true} {
		for _, eps := range []float64{0, 0.1} {
			for _, workers := range []int32{0, 1, 3} {
				hits := make([]bool, len(poses))
				ph, err := check(env, nil, fly, matrices(poses...), len(poses), all, eps, workers, hits, true)
				if err != nil {
					t.Fatal(err)
				}
				var got []int64
				if ph != 0 {
					got, _ = lookupID[[]int64](ph, "")
					freeHandle(ph)
				}
				var want []int64
				for i, p := range poses {
					r, err := collide.Collide(em, geom.Pose{}, em, p, collide.QueryOptions{All: all, Eps: eps})
					if err != nil {
						t.Fatal(err)
					}
					if hits[i] != r.Collide {
						t.Errorf("all=%v eps=%v: pose %d: hit %v, want %v", all, eps, i, hits[i], r.Collide)
					}
					for _, q := range r.Pairs {
						want = append(want, int64(i), int64(q.Env), int64(q.Fly))
					}
				}
				if !reflect.DeepEqual(got, want) {
					t.Errorf("all=%v eps=%v workers=%d: pairs %v, want %v", all, eps, workers, got, want)
				}
				if eps == 0 && !reflect.DeepEqual(hits, []bool{false, true, true, false}) || eps > 0 && !reflect.DeepEqual(hits, []bool{false, true, true, true}) {
					t.Errorf("eps=%v: hits %v", eps, hits)
				}
			}
		}
	}
	// Without a buffer wanted, and with env placed: the same scene moved.
	move := geom.Pose{R: geom.AxisAngle(geom.Vec3{X: 1, Y: 1}, 0.4).Mat3(), T: geom.Vec3{X: 5, Y: 6, Z: 7}}
	moved := make([]geom.Pose, len(poses))
	for i, p := range poses {
		moved[i] = move.Compose(p)
	}
	hits := make([]bool, len(poses))
	if ph, err := check(env, matrix(move), fly, matrices(moved...), len(poses), false, 0, 0, hits, false); err != nil || ph != 0 {
		t.Errorf("check without pairs: %d, %v", ph, err)
	}
	if hits[0] || !hits[2] {
		t.Errorf("placed: hits %v", hits)
	}
}

func TestCheckErrors(t *testing.T) {
	env, fly := newBox(t, ""), newBox(t, "")
	obb := newBox(t, "obb")
	buf := bufferHandle([]int64{1})
	t.Cleanup(func() { freeHandle(buf) })
	good := matrices(geom.Identity(), geom.Translation(geom.Vec3{X: 1}), geom.Translation(geom.Vec3{X: 9}))
	badPose := append([]float64(nil), good...)
	badPose[16+0] = 0.5 // pose 1 is a scaling
	hits := make([]bool, 3)
	farEnv := matrix(geom.Translation(geom.Vec3{X: -1e308}))
	far := matrices(geom.Identity(), geom.Translation(geom.Vec3{X: 1e308}), geom.Identity())
	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"bad pose", func() error {
			_, err := check(env, nil, fly, badPose, 3, false, 0, 0, hits, true)
			return err
		}(), "poses[1]: pose rotation is not orthonormal with determinant 1"},
		{"bad env pose", func() error {
			_, err := check(env, badPose[16:32], fly, good, 3, false, 0, 0, hits, true)
			return err
		}(), "env_pose: pose rotation is not orthonormal with determinant 1"},
		{"relative pose", func() error {
			_, err := check(env, farEnv, fly, far, 3, false, 0, 0, hits, true)
			return err
		}(), "poses[1]: invalid pose: the relative pose envPose⁻¹∘flyPose: pose number 10 is +Inf"},
		{"NULL hits", func() error { _, err := check(env, nil, fly, good, 3, false, 0, 0, nil, true); return err }(), "hits is NULL"},
		{"NULL poses", func() error { _, err := check(env, nil, fly, nil, 3, false, 0, 0, hits, true); return err }(), "poses is NULL"},
		{"eps", func() error { _, err := check(env, nil, fly, good, 3, false, -1, 0, hits, true); return err }(), "--eps must be a finite number >= 0, not -1"},
		{"eps NaN", func() error {
			_, err := check(env, nil, fly, good, 3, false, math.NaN(), 0, hits, true)
			return err
		}(), "--eps must be a finite number >= 0, not NaN"},
		{"workers", func() error { _, err := check(env, nil, fly, good, 3, false, 0, -2, hits, true); return err }(), "workers = -2 is negative (0: every core)"},
		{"env a buffer", func() error { _, err := check(buf, nil, fly, good, 3, false, 0, 0, hits, true); return err }(), fmt.Sprintf("env: handle %d is a buffer, not a model", buf)},
		{"fly 0", func() error { _, err := check(env, nil, 0, good, 3, false, 0, 0, hits, true); return err }(), "fly: handle 0 is no object"},
		{"volumes", func() error { _, err := check(obb, nil, fly, good, 3, false, 0, 0, hits, true); return err }(),
			"batch: invalid query: the flying model's bounding volume, kdop18, does not fly against the environment's, obb (only k-DOPs of different k do)"},
	} {
		if tc.err == nil || tc.err.Error() != tc.want || code(tc.err) != codeEINVAL {
			t.Errorf("%s: %v (status %d), want %q (EINVAL)", tc.name, tc.err, code(tc.err), tc.want)
		}
	}
}

func TestDistance(t *testing.T) {
	env, fly := newBox(t, "rss"), newBox(t, "rss")
	poses := matrices(geom.Translation(geom.Vec3{X: 3}), geom.Translation(geom.Vec3{X: 1}), geom.Translation(geom.Vec3{X: 10}))
	dist, bound, witness, tris := make([]float64, 3), make([]float64, 3), make([]float64, 18), make([]int64, 6)
	if err := distance(env, nil, fly, poses, 3, math.Inf(1), 0, dist, bound, witness, tris); err != nil {
		t.Fatal(err)
	}
	if dist[0] != 1 || dist[1] != 0 || dist[2] != 8 {
		t.Errorf("distances %v, want 1 0 8", dist)
	}
	if witness[0] != 1 || witness[3] != 2 || tris[0] < 0 || tris[1] < 0 {
		t.Errorf("witnesses %v, triangles %v: want x = 1 on env, 2 on fly at pose 0", witness[:6], tris[:2])
	}
	// With a cut-off: the far pose gives +inf, NaN witnesses, triangles -1.
	if err := distance(env, nil, fly, poses, 3, 2, 2, dist, bound, witness, tris); err != nil {
		t.Fatal(err)
	}
	if dist[0] != 1 || !math.IsInf(dist[2], 1) || !math.IsNaN(witness[12]) || !math.IsNaN(witness[17]) || tris[4] != -1 || tris[5] != -1 {
		t.Errorf("max 2: distances %v, witnesses %v, triangles %v", dist, witness[12:], tris[4:])
	}
	// Witnesses and triangles may be NULL.
	if err := distance(env, nil, fly, poses, 3, 0, 1, dist, bound, nil, nil); err != nil || dist[2] != 8 {
		t.Errorf("without witnesses: %v, %v", dist, err)
	}
	for _, tc := range []struct {
		err  error
		want string
	}{
		{distance(env, nil, fly, poses, 3, -1, 0, dist, bound, nil, nil), "max must be a number >= 0 (0 or +inf: no limit), not -1"},
		{distance(env, nil, fly, poses, 3, 0, 0, nil, bound, nil, nil), "dist is NULL"},
		{distance(env, nil, fly, poses, 3, 0, 0, dist, nil, nil, nil), "bound is NULL"},
	} {
		if tc.err == nil || tc.err.Error() != tc.want || code(tc.err) != codeEINVAL {
			t.Errorf("%v, want %q", tc.err, tc.want)
		}
	}
}

func TestTimeOfImpact(t *testing.T) {
	env, fly := newBox(t, ""), newBox(t, "")
	from := matrices(geom.Translation(geom.Vec3{X: 6}), geom.Translation(geom.Vec3{X: 6}))
	to := matrices(geom.Translation(geom.Vec3{X: 0}), geom.Translation(geom.Vec3{X: 6, Y: 5}))
	hit, toi, tris, maybe := make([]uint8, 2), make([]float64, 4), make([]int64, 4), make([]uint8, 2)
	if err := timeOfImpact(env, nil, fly, from, to, 2, 0, hit, toi, tris, maybe); err != nil {
		t.Fatal(err)
	}
	// The box moving from x = 6 to x = 0 touches at x = 2: t = 2/3.
	if hit[0] != 1 || !(toi[0] <= 2.0/3 && 2.0/3 <= toi[1]) || toi[1]-toi[0] > 1e-6 || tris[0] < 0 || maybe[0] != 0 {
		t.Errorf("motion 0: hit %d, toi %v, tris %v, maybe %d", hit[0], toi[:2], tris[:2], maybe[0])
	}
	if hit[1] != 0 || toi[2] != 1 || toi[3] != 1 || tris[2] != -1 || tris[3] != -1 {
		t.Errorf("motion 1: hit %d, toi %v, tris %v", hit[1], toi[2:], tris[2:])
	}
	bad := append([]float64(nil), to...)
	bad[16+5] = math.NaN()
	for _, tc := range []struct {
		err  error
		want string
	}{
		{timeOfImpact(env, nil, fly, from, bad, 2, 0, hit, toi, tris, nil), "to[1][1][1] is NaN"},
		{timeOfImpact(env, nil, fly, from, to, 2, 0, hit, nil, tris, nil), "toi is NULL"},
		{timeOfImpact(env, nil, fly, nil, to, 2, 0, hit, toi, tris, nil), "from is NULL"},
	} {
		if tc.err == nil || tc.err.Error() != tc.want || code(tc.err) != codeEINVAL {
			t.Errorf("%v, want %q", tc.err, tc.want)
		}
	}
}

// cliError runs the command line with args and returns its error message,
// after "collide COMMAND: ".
func cliError(t *testing.T, args ...string) string {
	t.Helper()
	out, err := runCLI(t, args...)
	if err == nil {
		t.Fatalf("collide %s: no error", strings.Join(args, " "))
	}
	line, _, _ := strings.Cut(out, "\n")
	_, msg, ok := strings.Cut(line, ": ")
	if !ok {
		t.Fatalf("collide %s: %q", strings.Join(args, " "), out)
	}
	return msg
}

// TestStatus checks the path from an error, or a panic, to the caller's
// buffer: the status, the message cut to the buffer at a UTF-8 boundary.
func TestStatus(t *testing.T) {
	long := argf("poses[1]: invalid pose: the relative pose envPose⁻¹∘flyPose")
	for _, tc := range []struct {
		name   string
		cap    int
		fn     func() error
		status int32
		msg    string
	}{
		{"ok", 64, func() error { return nil }, codeOK, ""},
		{"error", 64, func() error { return argf("n = -1 is negative") }, codeEINVAL, "n = -1 is negative"},
		{"cut", 5, func() error { return argf("n = -1 is negative") }, codeEINVAL, "n = "},
		{"cut before a multibyte rune", 52, func() error { return long }, codeEINVAL, "poses[1]: invalid pose: the relative pose envPose"},
		{"no buffer", 0, func() error { return long }, codeEINVAL, ""},
		{"one byte", 1, func() error { return long }, codeEINVAL, ""},
		{"panic", 64, func() error { panic("boom") }, codeEINTERNAL, "internal error: boom"},
		{"runtime panic", 64, func() error {
			var m map[string]int
			m["x"]++
			return nil
		}, codeEINTERNAL, "internal error: assignment to entry in nil map"},
	} {
		status, msg := statusOf(tc.cap, tc.fn)
		if status != tc.status || msg != tc.msg {
			t.Errorf("%s: status %d, message %q; want %d, %q", tc.name, status, msg, tc.status, tc.msg)
		}
	}
}

func TestZeroRotation(t *testing.T) {
	m := make([]float64, 16) // a geom.Pose's zero R is the identity; a matrix's is not a rotation
	m[15] = 1
	if _, err := posesOf(m, "poses"); err == nil || err.Error() != "poses[0]: pose rotation is not orthonormal with determinant 1" {
		t.Errorf("the zero rotation: %v", err)
	}
}

// triangleGLTF is a glTF file with an embedded buffer: the triangle
// (0,0,0), (1,0,0), (0,1,0) as mesh "tri" at the origin and as mesh
// "moved" at a node translated by 5 along x.
const triangleGLTF = `{"asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0, 1]}],
"nodes": [{"mesh": 0}, {"mesh": 1, "translation": [5, 0, 0]}],
"meshes": [{"name": "tri", "primitives": [{"attributes": {"POSITION": 0}}]}, {"name": "moved", "primitives": [{"attributes": {"POSITION": 0}}]}],
"buffers": [{"byteLength": 36, "uri": "data:application/octet-stream;base64,AAAAAAAAAAAAAAAAAACAPwAAAAAAAAAAAAAAAAAAgD8AAAAA"}],
"bufferViews": [{"buffer": 0, "byteLength": 36}],
"accessors": [{"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3", "min": [0, 0, 0], "max": [1, 1, 0]}]}`

// TestLoadGLTF loads a glTF file whole and by mesh name, with the mesh
// argument and as FILE#NAME, and checks the errors of mesh names.
func TestLoadGLTF(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "tri.gltf")
	if err := os.WriteFile(path, []byte(triangleGLTF), 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := modelLoad(path, "", "")
	if err != nil {
		t.Fatal(err)
	}
	if n := len(m.Mesh().Tris); n != 2 {
		t.Errorf("the whole scene: %d triangles, want 2", n)
	}
	for _, tc := range []struct{ arg, mesh string }{{path, "moved"}, {path + "#moved", ""}} {
		m, err := modelLoad(tc.arg, "obb", tc.mesh)
		if err != nil {
			t.Fatalf("%s mesh %q: %v", tc.arg, tc.mesh, err)
		}
		if me := m.Mesh(); len(me.Tris) != 1 || m.BV() != collide.OBB {
			t.Errorf("%s mesh %q: %d triangles, %v; want 1, obb", tc.arg, tc.mesh, len(me.Tris), m.BV())
		}
	}
	obj := filepath.Join(dir, "tri.obj")
	os.WriteFile(obj, []byte("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n"), 0o644)
	saved := filepath.Join(dir, "box.collide")
	if err := modelSave(newBox(t, ""), saved); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, arg, mesh string
		status          int32
	}{
		{"no such mesh", path, "wheel", codeEFORMAT},
		{"a mesh of an OBJ file", obj, "tri", codeEINVAL},
		{"a mesh of an OBJ file, FILE#NAME", obj + "#tri", "", codeEINVAL},
		{"a mesh of a saved model", saved, "tri", codeEINVAL},
		{"a mesh of a generated model", "gen:box", "tri", codeEINVAL},
		{"two names", path + "#tri", "moved", codeEINVAL},
	} {
		_, err := modelLoad(tc.arg, "", tc.mesh)
		if err == nil || code(err) != tc.status {
			t.Errorf("%s: %v (status %d), want status %d", tc.name, err, code(err), tc.status)
		}
	}
}
