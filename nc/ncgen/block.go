package ncgen

import (
	"fmt"
	"math"

	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh"
)

// Block returns the height field hf (as Mold and Terrain make it: an n×n
// grid of vertices, vertex (i, j) numbered j·n+i, two triangles a square
// facing up) closed into a solid block: walls from its border down to
// height z and a bottom at z (a copy of the grid, facing down). The block
// is closed, manifold and oriented outwards, so that a checker can treat
// the part as a solid (nc.Options.Solid). z must be below every vertex.
func Block(hf *mesh.TriMesh, z float64) (*mesh.TriMesh, error) {
	nv := len(hf.Verts)
	n := int(math.Round(math.Sqrt(float64(nv))))
	if n < 2 || n*n != nv || len(hf.Tris) != 2*(n-1)*(n-1) {
		return nil, fmt.Errorf("ncgen: block: not a height field's grid (%d vertices, %d triangles)", nv, len(hf.Tris))
	}
	b := hf.Bounds()
	if !(z < b.Min.Z) || math.IsInf(z, 0) {
		return nil, fmt.Errorf("ncgen: block: bottom %g not below the lowest vertex %g", z, b.Min.Z)
	}
	m := &mesh.TriMesh{Verts: make([]geom.Vec3, 0, 2*nv), Tris: make([][3]int32, 0, 4*(n-1)*(n-1)+8*(n-1))}
	m.Verts = append(m.Verts, hf.Verts...)
	for _, v := range hf.Verts {
		m.Verts = append(m.Verts, geom.Vec3{X: v.X, Y: v.Y, Z: z})
	}
	m.Tris = append(m.Tris, hf.Tris...)
	off := int32(nv)
	for _, t := range hf.Tris {
		m.Tris = append(m.Tris, [3]int32{t[0] + off, t[2] + off, t[1] + off})
	}
	// The border's edges, in the direction the top's triangles use them
	// (counterclockwise seen from above), each get a wall of two
	// triangles using it the other way.
	at := func(i, j int) int32 { return int32(j*n + i) }
	wall := func(a, c int32) {
		m.Tris = append(m.Tris, [3]int32{c, a, a + off}, [3]int32{c, a + off, c + off})
	}
	for i := range n - 1 {
		wall(at(i, 0), at(i+1, 0))     // y = 0, along +x
		wall(at(i+1, n-1), at(i, n-1)) // y = max, along −x
	}
	for j := range n - 1 {
		wall(at(n-1, j), at(n-1, j+1)) // x = max, along +y
		wall(at(0, j+1), at(0, j))     // x = 0, along −y
	}
	return m, nil
}
