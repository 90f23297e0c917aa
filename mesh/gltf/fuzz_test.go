package gltf_test

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/collide3d/collide/mesh"
	"github.com/collide3d/collide/mesh/gltf"
)

// FuzzDecode checks that Decode never panics, that its errors are
// *mesh.FormatError, that what it accepts is a valid mesh within the limits,
// and that it decides the same way twice. The seeds are small valid .gltf
// and .glb files (the nested test scene, the one-triangle document with
// each mode) and a few broken ones.
func FuzzDecode(f *testing.F) {
	f.Add(encodeGLTF(f, sceneDoc(""), true))
	doc := sceneDoc("")
	doc.Buffers[0].EmbeddedResource()
	f.Add(encodeGLTF(f, doc, false))
	for mode := range 7 {
		m := baseDoc()
		set(m, "meshes.0.primitives.0.mode", mode)
		f.Add(marshal(m))
		set(m, "buffers.0.uri", nil)
		f.Add(glbOf(marshal(m), triangleBin()))
	}
	m := baseDoc()
	set(m, "accessors.0.sparse", map[string]any{"count": 1,
		"indices": map[string]any{"bufferView": 1, "componentType": 5121},
		"values":  map[string]any{"bufferView": 0, "byteOffset": 24}})
	f.Add(marshal(m))
	m = baseDoc()
	instancing(m)
	f.Add(marshal(m))
	f.Add([]byte(`{"asset":{"version":"2.0"}}`))
	f.Add([]byte("glTF\x02\x00\x00\x00\x14\x00\x00\x00\x00\x00\x00\x00JSON"))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := gltf.Decode(bytes.NewReader(data))
		m2, err2 := gltf.Decode(bytes.NewReader(data))
		if fmt.Sprint(err) != fmt.Sprint(err2) || (err == nil) != (err2 == nil) {
			t.Fatalf("two decodings differ: %v, %v", err, err2)
		}
		if err != nil {
			if _, ok := err.(*mesh.FormatError); !ok {
				t.Fatalf("error %v is a %T, want a *mesh.FormatError", err, err)
			}
			return
		}
		if err := m.Validate(); err != nil {
			t.Fatalf("Decode accepted an invalid mesh: %v", err)
		}
		if len(m.Verts) > mesh.MaxVertices || len(m.Tris) > mesh.MaxTriangles {
			t.Fatalf("%d vertices, %d triangles: beyond the limits", len(m.Verts), len(m.Tris))
		}
		if len(m.Verts) != len(m2.Verts) || len(m.Tris) != len(m2.Tris) {
			t.Fatalf("two decodings differ in size")
		}
		for i := range m.Tris {
			if m.Tris[i] != m2.Tris[i] {
				t.Fatalf("two decodings differ at triangle %d", i)
			}
		}
	})
}
