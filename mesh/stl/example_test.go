package stl_test

import (
	"bytes"
	"fmt"
	"log"
	"strings"

	"github.com/collide3d/collide/mesh/stl"
)

func Example() {
	const ascii = `solid square
  facet normal 0 0 1
    outer loop
      vertex 0 0 0
      vertex 1 0 0
      vertex 1 1 0
    endloop
  endfacet
  facet normal 0 0 1
    outer loop
      vertex 0 0 0
      vertex 1 1 0
      vertex 0 1 0
    endloop
  endfacet
endsolid square
`
	m, err := stl.Decode(strings.NewReader(ascii))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(m.Tris), "triangles,", len(m.Verts), "vertices (welded)")
	fmt.Println("triangle 1:", m.Triangle(1))

	// Re-encode as binary STL and read it back.
	var buf bytes.Buffer
	if err := stl.Encode(&buf, m); err != nil {
		log.Fatal(err)
	}
	fmt.Println(buf.Len(), "bytes of binary STL")
	m2, err := stl.Decode(&buf)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("triangle 1:", m2.Triangle(1))
	// Output:
	// 2 triangles, 4 vertices (welded)
	// triangle 1: [(0, 0, 0) (1, 1, 0) (0, 1, 0)]
	// 184 bytes of binary STL
	// triangle 1: [(0, 0, 0) (1, 1, 0) (0, 1, 0)]
}
