package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	qgltf "github.com/qmuntal/gltf"
	"github.com/qmuntal/gltf/modeler"
)

// writeGLB writes a glTF scene of two tetrahedra, "Box" at the origin and
// "Wheel" moved by 10 along x, as dir/scene.glb.
func writeGLB(t *testing.T, dir string) string {
	t.Helper()
	verts := [][3]float32{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}}
	idx := []uint16{0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3}
	doc := qgltf.NewDocument()
	for _, n := range []string{"Box", "Wheel"} {
		doc.Meshes = append(doc.Meshes, &qgltf.Mesh{Name: n, Primitives: []*qgltf.Primitive{{
			Attributes: qgltf.PrimitiveAttributes{qgltf.POSITION: modeler.WritePosition(doc, verts)},
			Indices:    qgltf.Index(modeler.WriteIndices(doc, idx)),
		}}})
	}
	doc.Nodes = []*qgltf.Node{
		{Mesh: qgltf.Index(0), Rotation: qgltf.DefaultRotation, Scale: qgltf.DefaultScale},
		{Mesh: qgltf.Index(1), Translation: [3]float64{10, 0, 0}, Rotation: qgltf.DefaultRotation, Scale: qgltf.DefaultScale},
	}
	doc.Scenes[0].Nodes = []int{0, 1}
	p := filepath.Join(dir, "scene.glb")
	if err := qgltf.SaveBinary(doc, p); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestGLTFInfoCheck reads a .glb with info (whole, and one mesh by
// FILE#NAME) and check.
func TestGLTFInfoCheck(t *testing.T) {
	p := writeGLB(t, t.TempDir())
	info := func(arg string) jsonInfo {
		t.Helper()
		stdout, stderr, code := runCLI(t, "info", "--json", arg)
		if code != 0 {
			t.Fatalf("info %s: exit %d: %s", arg, code, stderr)
		}
		var ji jsonInfo
		if err := json.Unmarshal([]byte(stdout), &ji); err != nil {
			t.Fatalf("info %s: %v: %s", arg, err, stdout)
		}
		return ji
	}
	if ji := info(p); ji.Format != "gltf" || ji.Triangles != 8 || ji.Vertices != 8 || ji.Bounds.Max[0] != 11 {
		t.Errorf("info %s: %+v", p, ji)
	}
	if ji := info(p + "#Wheel"); ji.File != p+"#Wheel" || ji.Triangles != 4 || ji.Bounds.Max[0] != 1 {
		t.Errorf("info %s#Wheel: %+v (want the untransformed mesh)", p, ji)
	}
	_, stderr, code := runCLI(t, "info", p+"#Tyre")
	if want := p + `: glb: no mesh named "Tyre" (meshes: "Box", "Wheel")`; code != 1 || !strings.Contains(stderr, want) {
		t.Errorf("info %s#Tyre: exit %d, stderr %q; want 1 and %q", p, code, stderr, want)
	}

	// FLY (the Wheel mesh alone, at the origin) moved onto the scene's
	// Wheel: only its triangles, 4 to 7, touch.
	stdout, stderr, code := runCLI(t, "check", "--json", "--all", "--pose", "1 0 0 0 1 0 0 0 1 10.25 0.25 0.25", p, p+"#Wheel")
	if code != 0 {
		t.Fatalf("check: exit %d: %s", code, stderr)
	}
	var res struct {
		Collide bool       `json:"collide"`
		Pairs   [][2]int32 `json:"pairs"`
	}
	if err := json.Unmarshal([]byte(stdout), &res); err != nil {
		t.Fatalf("check: %v: %s", err, stdout)
	}
	if !res.Collide || len(res.Pairs) == 0 {
		t.Fatalf("check: %s", stdout)
	}
	for _, pr := range res.Pairs {
		if pr[0] < 4 || pr[0] > 7 {
			t.Errorf("check: pair %v: env triangle %d is not the Wheel's (4-7)", pr, pr[0])
		}
	}
}
