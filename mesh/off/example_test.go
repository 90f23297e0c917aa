package off_test

import (
	"fmt"
	"strings"

	"github.com/collide3d/collide/mesh/off"
)

func ExampleDecode() {
	const square = `OFF
# a unit square as one quad, with a face color
4 1 0
0 0 0
1 0 0
1 1 0
0 1 0
4 0 1 2 3  255 0 0
`
	m, err := off.Decode(strings.NewReader(square))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(len(m.Verts), "vertices")
	fmt.Println(m.Tris) // the quad, fan-triangulated

	_, err = off.Decode(strings.NewReader("OFF\n3 1 0\n0 0 0\n1 0 0\n"))
	fmt.Println(err)
	// Output:
	// 4 vertices
	// [[0 1 2] [0 2 3]]
	// line 4: off: unexpected end of file: 2 of 3 vertices read
}
