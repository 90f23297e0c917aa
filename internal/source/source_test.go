package source

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	qgltf "github.com/qmuntal/gltf"
	"github.com/qmuntal/gltf/modeler"
)

var (
	tetraVerts = [][3]float32{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}}
	tetraIdx   = []uint16{0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3}
)

// writeScene writes a glTF scene of two tetrahedra, "Box" at the origin
// and "Wheel" moved by 10 along x, to dir/name (.glb, or .gltf with a
// .bin beside it).
func writeScene(t *testing.T, dir, name string) string {
	t.Helper()
	doc := qgltf.NewDocument()
	var meshes []*qgltf.Mesh
	for _, n := range []string{"Box", "Wheel"} {
		meshes = append(meshes, &qgltf.Mesh{Name: n, Primitives: []*qgltf.Primitive{{
			Attributes: qgltf.PrimitiveAttributes{qgltf.POSITION: modeler.WritePosition(doc, tetraVerts)},
			Indices:    qgltf.Index(modeler.WriteIndices(doc, tetraIdx)),
		}}})
	}
	doc.Meshes = meshes
	doc.Nodes = []*qgltf.Node{
		{Mesh: qgltf.Index(0), Rotation: qgltf.DefaultRotation, Scale: qgltf.DefaultScale},
		{Mesh: qgltf.Index(1), Translation: [3]float64{10, 0, 0}, Rotation: qgltf.DefaultRotation, Scale: qgltf.DefaultScale},
	}
	doc.Scenes[0].Nodes = []int{0, 1}
	p := filepath.Join(dir, name)
	var err error
	if strings.HasSuffix(name, ".glb") {
		err = qgltf.SaveBinary(doc, p)
	} else {
		doc.Buffers[0].URI = strings.TrimSuffix(name, ".gltf") + ".bin"
		err = qgltf.Save(doc, p)
	}
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestSourceGLTF reads glTF files whole and one mesh by FILE#NAME or
// Options.Mesh, and checks the errors of names given where none can be.
func TestSourceGLTF(t *testing.T) {
	dir := t.TempDir()
	glb := writeScene(t, dir, "scene.glb")
	gltf := writeScene(t, dir, "scene.gltf")
	for _, p := range []string{glb, gltf} {
		s, err := Load(p, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if s.Format != "gltf" || len(s.Mesh.Tris) != 8 || s.Mesh.Verts[4].X != 10 {
			t.Errorf("%s: format %s, %d triangles, vertex 4 %v", p, s.Format, len(s.Mesh.Tris), s.Mesh.Verts[4])
		}
		s, err = Load(p+"#Wheel", Options{})
		if err != nil {
			t.Fatal(err)
		}
		if s.Arg != p+"#Wheel" || len(s.Mesh.Tris) != 4 || s.Mesh.Verts[1].X != 1 {
			t.Errorf("%s#Wheel: arg %s, %d triangles, vertex 1 %v (want the untransformed mesh)", p, s.Arg, len(s.Mesh.Tris), s.Mesh.Verts[1])
		}
		s, err = Load(p, Options{Mesh: "Box"})
		if err != nil || len(s.Mesh.Tris) != 4 {
			t.Errorf("%s with Options.Mesh: %v", p, err)
		}
	}

	// A file whose name holds a '#' reads whole.
	hash := filepath.Join(dir, "a#Wheel.glb")
	data, _ := os.ReadFile(glb)
	if err := os.WriteFile(hash, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if s, err := Load(hash, Options{}); err != nil || len(s.Mesh.Tris) != 8 {
		t.Errorf("%s: %v", hash, err)
	}

	objPath := filepath.Join(dir, "t.obj")
	if err := os.WriteFile(objPath, []byte("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var ue *UsageError
	for _, c := range []struct {
		arg   string
		o     Options
		want  string
		usage bool
	}{
		{glb + "#Nope", Options{}, glb + `: glb: no mesh named "Nope" (meshes: "Box", "Wheel")`, false},
		{glb + "#", Options{}, glb + `#: no mesh name after '#' (FILE#NAME reads the mesh NAME of a glTF file)`, true},
		{glb + "#Box", Options{Mesh: "Wheel"}, glb + `#Box: names mesh "Box", and the options name mesh "Wheel"`, true},
		{objPath + "#Box", Options{}, objPath + `: cannot read the mesh named "Box": obj files have no named meshes (glTF files do)`, false},
		{objPath, Options{Mesh: "Box"}, objPath + `: cannot read the mesh named "Box": obj files have no named meshes (glTF files do)`, false},
		{"gen:box", Options{Mesh: "Box"}, `gen:box: a generated model has no named meshes (mesh "Box")`, true},
	} {
		_, err := Load(c.arg, c.o)
		if err == nil || err.Error() != c.want {
			t.Errorf("%s: got %v\nwant %s", c.arg, err, c.want)
		}
		if errors.As(err, &ue) != c.usage {
			t.Errorf("%s: usage error %v, want %v", c.arg, !c.usage, c.usage)
		}
	}
}

func TestSourceSplitMesh(t *testing.T) {
	dir := t.TempDir()
	hash := filepath.Join(dir, "x#y.obj")
	if err := os.WriteFile(hash, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ arg, path, name string }{
		{"a.glb", "a.glb", ""},
		{"a.glb#Wheel", "a.glb", "Wheel"},
		{"dir#1/a.glb#Wheel#2", "dir#1/a.glb#Wheel", "2"},
		{hash, hash, ""},
		{hash + "#z", hash, "z"},
	} {
		if p, n := SplitMesh(c.arg); p != c.path || n != c.name {
			t.Errorf("SplitMesh(%q) = %q, %q; want %q, %q", c.arg, p, n, c.path, c.name)
		}
	}
}
