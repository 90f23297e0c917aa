package obj_test

import (
	"fmt"
	"os"
	"strings"

	"github.com/collide3d/collide/mesh/obj"
)

func ExampleDecode() {
	const square = `# a unit square as one quad
v 0 0 0
v 1 0 0
v 1 1 0
v 0 1 0
vn 0 0 1
f 1//1 2//1 3//1 4//1
`
	m, err := obj.Decode(strings.NewReader(square))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(len(m.Verts), "vertices")
	fmt.Println(m.Tris) // the quad, fan-triangulated

	_, err = obj.Decode(strings.NewReader("v 0 0 0\nf 1 2 3\n"))
	fmt.Println(err)
	// Output:
	// 4 vertices
	// [[0 1 2] [0 2 3]]
	// line 2: obj: face vertex index 2 out of range (1 vertices in the file)
}

func ExampleEncode() {
	m, _ := obj.Decode(strings.NewReader("v 0.1 -0 1e30\nv 1 0 0\nv 0 1 0\nf 3 2 1\n"))
	if err := obj.Encode(os.Stdout, m); err != nil {
		fmt.Println(err)
	}
	// Output:
	// v 0.1 -0 1e+30
	// v 1 0 0
	// v 0 1 0
	// f 3 2 1
}
