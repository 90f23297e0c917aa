package gltf_test

import (
	"bytes"
	"math"
	"testing"
	"time"

	qgltf "github.com/qmuntal/gltf"
	"github.com/qmuntal/gltf/modeler"

	"github.com/collide3d/collide/mesh/gltf"
)

// gridDoc returns a height field of n×n quads, 2n² triangles, as one mesh
// of float32 positions and uint32 indices, instanced by one node with a
// rotation (so that the transform is applied to every vertex).
func gridDoc(n int) *qgltf.Document {
	doc := qgltf.NewDocument()
	verts := make([][3]float32, 0, (n+1)*(n+1))
	for i := 0; i <= n; i++ {
		for j := 0; j <= n; j++ {
			x, y := float64(i)/float64(n), float64(j)/float64(n)
			verts = append(verts, [3]float32{float32(x*10 - 5), float32(y*10 - 5), float32(math.Sin(7*x) * math.Cos(5*y))})
		}
	}
	idx := make([]uint32, 0, 6*n*n)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			a := uint32(i*(n+1) + j)
			c := a + uint32(n) + 1
			idx = append(idx, a, c, c+1, a, c+1, a+1)
		}
	}
	doc.Meshes = []*qgltf.Mesh{{Name: "grid", Primitives: []*qgltf.Primitive{{
		Attributes: qgltf.PrimitiveAttributes{qgltf.POSITION: modeler.WritePosition(doc, verts)},
		Indices:    qgltf.Index(modeler.WriteIndices(doc, idx)),
	}}}}
	doc.Nodes = []*qgltf.Node{{Mesh: qgltf.Index(0), Rotation: quat([3]float64{1, 1, 0}, 0.3), Scale: qgltf.DefaultScale}}
	doc.Scenes[0].Nodes = []int{0}
	return doc
}

func benchDecode(b *testing.B, data []byte, wantTris int) {
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	start := time.Now()
	for b.Loop() {
		m, err := gltf.Decode(bytes.NewReader(data))
		if err != nil {
			b.Fatal(err)
		}
		if len(m.Tris) != wantTris {
			b.Fatalf("got %d triangles, want %d", len(m.Tris), wantTris)
		}
	}
	b.ReportMetric(float64(wantTris)*float64(b.N)/time.Since(start).Seconds(), "tris/s")
}

// BenchmarkDecodeGLB decodes a ~200k-triangle grid from a .glb (float32
// positions, uint32 indices, one rotated instance).
func BenchmarkDecodeGLB(b *testing.B) {
	const n = 317 // 2·317² = 200,978 triangles
	benchDecode(b, encodeGLTF(b, gridDoc(n), true), 2*n*n)
}

// BenchmarkDecodeEmbedded decodes the same grid from a .gltf with the
// buffer embedded as base64 in the JSON.
func BenchmarkDecodeEmbedded(b *testing.B) {
	const n = 317
	doc := gridDoc(n)
	doc.Buffers[0].EmbeddedResource()
	benchDecode(b, encodeGLTF(b, doc, false), 2*n*n)
}
