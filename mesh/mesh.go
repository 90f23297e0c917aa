package mesh

import (
	"fmt"

	"github.com/collide3d/collide/geom"
)

// Limits on decoded meshes. A file that declares or delivers more is rejected
// with a FormatError rather than exhausting memory.
const (
	MaxVertices  = 1 << 28
	MaxTriangles = 1 << 28
)

// TriMesh is an indexed triangle soup: float64 vertices and triangles as
// triples of indices into Verts. The zero value is an empty mesh.
type TriMesh struct {
	Verts []geom.Vec3
	Tris  [][3]int32
}

// NumTriangles returns the number of triangles in m.
func (m *TriMesh) NumTriangles() int { return len(m.Tris) }

// Triangle returns triangle i of m. It panics if i or one of its vertex
// indices is out of range (call Validate on untrusted meshes).
func (m *TriMesh) Triangle(i int) geom.Triangle {
	t := m.Tris[i]
	return geom.Triangle{m.Verts[t[0]], m.Verts[t[1]], m.Verts[t[2]]}
}

// Bounds returns the smallest box containing every vertex referenced by a
// triangle of m (the empty box for a mesh with no triangles).
func (m *TriMesh) Bounds() geom.AABB {
	b := geom.EmptyAABB()
	for _, t := range m.Tris {
		for _, i := range t {
			b = b.AddPoint(m.Verts[i])
		}
	}
	return b
}

// Transform returns a copy of m with every vertex mapped by p. The triangles
// keep their indices.
func (m *TriMesh) Transform(p geom.Pose) *TriMesh {
	out := &TriMesh{Verts: make([]geom.Vec3, len(m.Verts)), Tris: append([][3]int32(nil), m.Tris...)}
	for i, v := range m.Verts {
		out.Verts[i] = p.Apply(v)
	}
	return out
}

// Validate reports the first problem that makes m unusable: a non-finite
// vertex coordinate, or a triangle index out of range. Degenerate and
// duplicate triangles are valid (see Stats).
func (m *TriMesh) Validate() error {
	for i, v := range m.Verts {
		if !v.IsFinite() {
			return fmt.Errorf("vertex %d: non-finite coordinate %v", i, v)
		}
	}
	n := int32(len(m.Verts))
	for i, t := range m.Tris {
		for _, j := range t {
			if j < 0 || j >= n {
				return fmt.Errorf("triangle %d: vertex index %d out of range [0, %d)", i, j, n)
			}
		}
	}
	return nil
}

// Stats describes a mesh: its counts, its bounds and how many of its
// triangles are degenerate or duplicated.
type Stats struct {
	Vertices, Triangles int
	// Degenerate counts triangles of zero area (collinear or coincident
	// vertices, decided exactly).
	Degenerate int
	// Duplicate counts triangles with the same vertex positions as an
	// earlier triangle, in any order or orientation.
	Duplicate int
	Bounds    geom.AABB
}

// Stats computes the Stats of m. m must be valid (see Validate).
func (m *TriMesh) Stats() Stats {
	s := Stats{Vertices: len(m.Verts), Triangles: len(m.Tris), Bounds: m.Bounds()}
	seen := make(map[[9]float64]struct{}, len(m.Tris))
	for i := range m.Tris {
		t := m.Triangle(i)
		if t.IsDegenerate() {
			s.Degenerate++
		}
		k := sortedKey(t)
		if _, ok := seen[k]; ok {
			s.Duplicate++
		} else {
			seen[k] = struct{}{}
		}
	}
	return s
}

// sortedKey returns the coordinates of t with its vertices in lexicographic
// order, so that the key ignores vertex order and orientation.
func sortedKey(t geom.Triangle) [9]float64 {
	less := func(a, b geom.Vec3) bool {
		if a.X != b.X {
			return a.X < b.X
		}
		if a.Y != b.Y {
			return a.Y < b.Y
		}
		return a.Z < b.Z
	}
	if less(t[1], t[0]) {
		t[0], t[1] = t[1], t[0]
	}
	if less(t[2], t[1]) {
		t[1], t[2] = t[2], t[1]
	}
	if less(t[1], t[0]) {
		t[0], t[1] = t[1], t[0]
	}
	return [9]float64{t[0].X, t[0].Y, t[0].Z, t[1].X, t[1].Y, t[1].Z, t[2].X, t[2].Y, t[2].Z}
}
