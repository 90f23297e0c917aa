package gltf_test

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"math"
	"strings"

	"github.com/collide3d/collide/mesh/gltf"
)

func ExampleDecode() {
	// A unit square as a triangle strip of 4 vertices, instanced twice:
	// once moved up by 2, once mirrored in x (its triangles reversed).
	var bin bytes.Buffer
	for _, x := range []float32{0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0} {
		binary.Write(&bin, binary.LittleEndian, math.Float32bits(x))
	}
	doc := `{"asset": {"version": "2.0"},
	  "scenes": [{"nodes": [0, 1]}],
	  "nodes": [{"mesh": 0, "translation": [0, 0, 2]}, {"mesh": 0, "scale": [-1, 1, 1]}],
	  "meshes": [{"name": "Square", "primitives": [{"attributes": {"POSITION": 0}, "mode": 5}]}],
	  "accessors": [{"bufferView": 0, "componentType": 5126, "count": 4, "type": "VEC3"}],
	  "bufferViews": [{"buffer": 0, "byteLength": 48}],
	  "buffers": [{"byteLength": 48, "uri": "data:application/octet-stream;base64,` +
		base64.StdEncoding.EncodeToString(bin.Bytes()) + `"}]}`

	m, err := gltf.Decode(strings.NewReader(doc))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(m.Verts[:4])
	fmt.Println(m.Verts[4:])
	fmt.Println(m.Tris)

	// One named mesh, in its own coordinates.
	sq, _ := gltf.DecodeWith(strings.NewReader(doc), gltf.Options{Mesh: "Square"})
	fmt.Println(len(sq.Verts), "vertices,", sq.Tris)

	_, err = gltf.DecodeWith(strings.NewReader(doc), gltf.Options{Mesh: "Wheel"})
	fmt.Println(err)
	// Output:
	// [(0, 0, 2) (1, 0, 2) (0, 1, 2) (1, 1, 2)]
	// [(0, 0, 0) (-1, 0, 0) (0, 1, 0) (-1, 1, 0)]
	// [[0 1 2] [1 3 2] [4 6 5] [5 6 7]]
	// 4 vertices, [[0 1 2] [1 3 2]]
	// gltf: no mesh named "Wheel" (meshes: "Square")
}
