package gltf_test

import (
	"math"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	qgltf "github.com/qmuntal/gltf"
	"github.com/qmuntal/gltf/modeler"

	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh"
)

// TestGLTFKhronosSamples reads the Khronos sample models that the pinned
// module qmuntal/gltf ships in its testdata (files written by exporters:
// nested rotations, several meshes, cameras and animations beside them,
// each in its .gltf + .bin, embedded and .glb forms) through mesh.Load, and
// compares each with the mesh built independently: qmuntal's decoder and
// accessor reader, and each vertex carried up its chain of nodes one
// transform at a time (a matrix, or scale, quaternion rotation,
// translation), to within 1e-12 of the scene's size; the triangles, their
// order and winding exactly.
func TestGLTFKhronosSamples(t *testing.T) {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/qmuntal/gltf").Output()
	if err != nil {
		t.Fatalf("go list -m github.com/qmuntal/gltf: %v", err)
	}
	dir := filepath.Join(strings.TrimSpace(string(out)), "testdata")
	var files []string
	for _, pat := range []string{"*/*/*.gltf", "*/*/*.glb", "*/*.gltf"} {
		m, _ := filepath.Glob(filepath.Join(dir, pat))
		files = append(files, m...)
	}
	if len(files) < 15 {
		t.Fatalf("%s: %d sample files, want at least 15 (the module's testdata moved?)", dir, len(files))
	}
	for _, f := range files {
		name, _ := filepath.Rel(dir, f)
		t.Run(name, func(t *testing.T) {
			got, err := mesh.Load(f)
			if err != nil {
				t.Fatal(err)
			}
			want := khronosMesh(t, f)
			if len(got.Tris) == 0 || !slices.Equal(got.Tris, want.Tris) {
				t.Fatalf("triangles: got %d, want %d (or they differ)", len(got.Tris), len(want.Tris))
			}
			if len(got.Verts) != len(want.Verts) {
				t.Fatalf("vertices: got %d, want %d", len(got.Verts), len(want.Verts))
			}
			scale := 1.0
			for _, v := range want.Verts {
				scale = max(scale, math.Abs(v.X), math.Abs(v.Y), math.Abs(v.Z))
			}
			for i, v := range got.Verts {
				if d := v.Sub(want.Verts[i]); max(math.Abs(d.X), math.Abs(d.Y), math.Abs(d.Z)) > 1e-12*scale {
					t.Fatalf("vertex %d: got %v, want %v", i, v, want.Verts[i])
				}
			}
		})
	}
}

// khronosMesh builds the mesh of the glTF file at path as the package
// documents it, with qmuntal/gltf reading the file.
func khronosMesh(t *testing.T, path string) *mesh.TriMesh {
	doc, err := qgltf.Open(path)
	if err != nil {
		t.Fatalf("qmuntal/gltf: %v", err)
	}
	out := &mesh.TriMesh{}
	emit := func(m int, chain []*qgltf.Node) {
		mirror := false
		for _, n := range chain {
			mirror = mirror != (localDet(n) < 0)
		}
		for _, p := range doc.Meshes[m].Primitives {
			if p.Mode != qgltf.PrimitiveTriangles {
				continue // the samples' other modes are lines and points
			}
			pos, err := modeler.ReadPosition(doc, doc.Accessors[p.Attributes[qgltf.POSITION]], nil)
			if err != nil {
				t.Fatal(err)
			}
			var idx []uint32
			if p.Indices != nil {
				if idx, err = modeler.ReadIndices(doc, doc.Accessors[*p.Indices], nil); err != nil {
					t.Fatal(err)
				}
			} else {
				for i := range pos {
					idx = append(idx, uint32(i))
				}
			}
			base := int32(len(out.Verts))
			for _, q := range pos {
				v := geom.Vec3{X: float64(q[0]), Y: float64(q[1]), Z: float64(q[2])}
				for k := len(chain) - 1; k >= 0; k-- {
					v = localApply(chain[k], v)
				}
				out.Verts = append(out.Verts, v)
			}
			for i := 0; i+2 < len(idx); i += 3 {
				tri := [3]int32{base + int32(idx[i]), base + int32(idx[i+1]), base + int32(idx[i+2])}
				if mirror {
					tri[1], tri[2] = tri[2], tri[1]
				}
				out.Tris = append(out.Tris, tri)
			}
		}
	}
	if len(doc.Scenes) == 0 {
		for m := range doc.Meshes {
			emit(m, nil)
		}
		return out
	}
	s := 0
	if doc.Scene != nil {
		s = *doc.Scene
	}
	var walk func(n int, chain []*qgltf.Node)
	walk = func(n int, chain []*qgltf.Node) {
		nd := doc.Nodes[n]
		chain = append(slices.Clip(chain), nd)
		if nd.Mesh != nil {
			emit(*nd.Mesh, chain)
		}
		for _, c := range nd.Children {
			walk(c, chain)
		}
	}
	for _, r := range doc.Scenes[s].Nodes {
		walk(r, nil)
	}
	return out
}

// hasMatrix reports whether n is placed by a matrix rather than by TRS.
func hasMatrix(n *qgltf.Node) bool {
	return n.Matrix != [16]float64{} && n.Matrix != qgltf.DefaultMatrix
}

// localApply maps v by n's own transform, one step at a time.
func localApply(n *qgltf.Node, v geom.Vec3) geom.Vec3 {
	if hasMatrix(n) {
		m := n.Matrix // column-major
		return geom.Vec3{
			X: m[0]*v.X + m[4]*v.Y + m[8]*v.Z + m[12],
			Y: m[1]*v.X + m[5]*v.Y + m[9]*v.Z + m[13],
			Z: m[2]*v.X + m[6]*v.Y + m[10]*v.Z + m[14],
		}
	}
	s, q := n.ScaleOrDefault(), n.RotationOrDefault()
	v = geom.Vec3{X: v.X * s[0], Y: v.Y * s[1], Z: v.Z * s[2]}
	v = rotate(q, v)
	tr := n.TranslationOrDefault()
	return v.Add(geom.Vec3{X: tr[0], Y: tr[1], Z: tr[2]})
}

// localDet is the sign-carrying determinant of n's own linear part.
func localDet(n *qgltf.Node) float64 {
	if hasMatrix(n) {
		m := n.Matrix
		return geom.Mat3{{m[0], m[4], m[8]}, {m[1], m[5], m[9]}, {m[2], m[6], m[10]}}.Det()
	}
	s := n.ScaleOrDefault()
	return s[0] * s[1] * s[2]
}
