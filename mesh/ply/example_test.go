package ply_test

import (
	"fmt"
	"log"
	"strings"

	"github.com/collide3d/collide/mesh/ply"
)

func Example() {
	// A unit square as one quad, plus a triangle; the quad is split into a
	// fan of two triangles.
	const file = `ply
format ascii 1.0
comment a square and a triangle
element vertex 5
property float x
property float y
property float z
property uchar red
element face 2
property list uchar int vertex_indices
end_header
0 0 0 255
1 0 0 255
1 1 0 255
0 1 0 255
0.5 0.5 1 0
4 0 1 2 3
3 0 1 4
`
	m, err := ply.Decode(strings.NewReader(file))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(m.Verts), "vertices,", len(m.Tris), "triangles")
	for i, t := range m.Tris {
		fmt.Println(i, t)
	}

	_, err = ply.Decode(strings.NewReader(strings.Replace(file, "3 0 1 4", "3 0 1 5", 1)))
	fmt.Println(err)
	// Output:
	// 5 vertices, 3 triangles
	// 0 [0 1 2]
	// 1 [0 2 3]
	// 2 [0 1 4]
	// line 18: ply: face 1: vertex index 5 out of range [0, 5)
}
