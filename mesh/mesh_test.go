package mesh_test

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh"
)

func TestValidate(t *testing.T) {
	v := []geom.Vec3{geom.V(0, 0, 0), geom.V(1, 0, 0), geom.V(0, 1, 0)}
	tests := []struct {
		name string
		m    mesh.TriMesh
		want string // substring of the error, "" for valid
	}{
		{"empty", mesh.TriMesh{}, ""},
		{"one triangle", mesh.TriMesh{Verts: v, Tris: [][3]int32{{0, 1, 2}}}, ""},
		{"degenerate is valid", mesh.TriMesh{Verts: v, Tris: [][3]int32{{0, 1, 1}}}, ""},
		{"index too large", mesh.TriMesh{Verts: v, Tris: [][3]int32{{0, 1, 3}}}, "triangle 0: vertex index 3 out of range"},
		{"negative index", mesh.TriMesh{Verts: v, Tris: [][3]int32{{0, 1, 2}, {-1, 1, 2}}}, "triangle 1: vertex index -1"},
		{"NaN", mesh.TriMesh{Verts: []geom.Vec3{geom.V(0, 0, 0), geom.V(math.NaN(), 0, 0), geom.V(0, 1, 0)}}, "vertex 1: non-finite"},
		{"Inf", mesh.TriMesh{Verts: []geom.Vec3{geom.V(0, 0, math.Inf(-1))}}, "vertex 0: non-finite"},
	}
	for _, tc := range tests {
		err := tc.m.Validate()
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: Validate() = %v, want nil", tc.name, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: Validate() = %v, want error containing %q", tc.name, err, tc.want)
		}
	}
}

func TestStats(t *testing.T) {
	m := mesh.TriMesh{
		Verts: []geom.Vec3{geom.V(0, 0, 0), geom.V(1, 0, 0), geom.V(0, 1, 0), geom.V(2, 0, 0), geom.V(0, 0, 0)},
		Tris: [][3]int32{
			{0, 1, 2},
			{2, 1, 0}, // duplicate, reversed
			{4, 1, 2}, // duplicate by position (vertex 4 = vertex 0)
			{0, 1, 3}, // degenerate: collinear
			{0, 0, 0}, // degenerate: a point
		},
	}
	s := m.Stats()
	if s.Vertices != 5 || s.Triangles != 5 || s.Degenerate != 2 || s.Duplicate != 2 {
		t.Errorf("Stats() = %+v, want 5 vertices, 5 triangles, 2 degenerate, 2 duplicate", s)
	}
	if want := (geom.AABB{Min: geom.V(0, 0, 0), Max: geom.V(2, 1, 0)}); s.Bounds != want {
		t.Errorf("Stats().Bounds = %v, want %v", s.Bounds, want)
	}
	if !(&mesh.TriMesh{}).Bounds().IsEmpty() {
		t.Error("empty mesh has non-empty bounds")
	}
}

func TestTransform(t *testing.T) {
	m := &mesh.TriMesh{Verts: []geom.Vec3{geom.V(1, 0, 0), geom.V(0, 1, 0), geom.V(0, 0, 1)}, Tris: [][3]int32{{0, 1, 2}}}
	p := geom.Translation(geom.V(1, 2, 3))
	got := m.Transform(p)
	if got.Verts[0] != geom.V(2, 2, 3) || got.Tris[0] != m.Tris[0] {
		t.Errorf("Transform = %+v", got)
	}
	if m.Verts[0] != geom.V(1, 0, 0) {
		t.Error("Transform modified its input")
	}
}

func TestLoadErrors(t *testing.T) {
	dir := t.TempDir()
	unknown := filepath.Join(dir, "model.xyz")
	if err := os.WriteFile(unknown, []byte("1 2 3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := mesh.Load(unknown)
	if !errors.Is(err, mesh.ErrUnknownFormat) || !strings.Contains(err.Error(), unknown) {
		t.Errorf("Load(%q) = %v, want ErrUnknownFormat naming the file", unknown, err)
	}
	missing := filepath.Join(dir, "missing.obj")
	if _, err := mesh.Load(missing); err == nil || !strings.Contains(err.Error(), missing) {
		t.Errorf("Load(%q) = %v, want an error naming the file", missing, err)
	}
}

func TestFormatErrorMessage(t *testing.T) {
	tests := []struct {
		err  mesh.FormatError
		want string
	}{
		{mesh.FormatError{Format: "obj", File: "a.obj", Line: 7, Msg: "bad vertex"}, "a.obj: line 7: obj: bad vertex"},
		{mesh.FormatError{Format: "stl", File: "b.stl", Offset: 184, Msg: "truncated"}, "b.stl: offset 184: stl: truncated"},
		{mesh.FormatError{Format: "ply", Line: 2, Msg: "x"}, "line 2: ply: x"},
	}
	for _, tc := range tests {
		if got := tc.err.Error(); got != tc.want {
			t.Errorf("Error() = %q, want %q", got, tc.want)
		}
	}
}
