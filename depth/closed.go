package depth

import (
	"errors"
	"fmt"

	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh"
)

// ErrEmpty is wrapped by the error for a mesh with no triangles.
var ErrEmpty = errors.New("mesh has no triangles")

// ErrInvalid is wrapped by the errors for a nil model or a mesh with a
// non-finite coordinate or an index out of range.
var ErrInvalid = errors.New("invalid input")

// OpenError reports a mesh that is not closed (see the package doc): an
// edge, between two vertex positions, that the triangles use a different
// number of times in its two directions.
type OpenError struct {
	// Model names the mesh: "env" or "fly" (or "mesh" for NewSolid).
	Model string
	// Tri is the first triangle, in mesh order, with an unbalanced edge,
	// and Edge that edge as Tri directs it (from Edge[0] to Edge[1]).
	Tri  int
	Edge [2]geom.Vec3
	// Forward and Backward count the triangles that use the edge in Tri's
	// direction and in the opposite direction (Forward ≠ Backward).
	Forward, Backward int
	// Tris lists every triangle that uses the edge, in either direction,
	// ascending.
	Tris []int
}

func (e *OpenError) Error() string {
	return fmt.Sprintf("depth: %s mesh is not closed: edge (%v, %v, %v)-(%v, %v, %v) of triangle %d is used %d time(s) in that direction and %d time(s) reversed (triangles %v)",
		e.Model, e.Edge[0].X, e.Edge[0].Y, e.Edge[0].Z, e.Edge[1].X, e.Edge[1].Y, e.Edge[1].Z,
		e.Tri, e.Forward, e.Backward, e.Tris)
}

// topo is the combinatorial structure of a closed mesh after merging
// vertices with identical coordinates.
type topo struct {
	id    []int32    // merged id of each mesh vertex (-1: unused)
	verts []int32    // one mesh vertex index per merged id
	tris  [][3]int32 // triangles over merged ids
	reps  []int32    // one merged id per connected component
}

// key of a position: +0 and -0 are one coordinate.
func posKey(v geom.Vec3) [3]float64 { return [3]float64{v.X + 0, v.Y + 0, v.Z + 0} }

// checkMesh validates m (finite, indices in range, at least one triangle)
// and checks that it is closed; it returns the merged topology.
func checkMesh(m *mesh.TriMesh, name string) (*topo, error) {
	if m == nil {
		return nil, fmt.Errorf("depth: %s: nil mesh: %w", name, ErrInvalid)
	}
	if err := m.Validate(); err != nil {
		return nil, fmt.Errorf("depth: %s: %w: %v", name, ErrInvalid, err)
	}
	if len(m.Tris) == 0 {
		return nil, fmt.Errorf("depth: %s: %w", name, ErrEmpty)
	}
	t := &topo{id: make([]int32, len(m.Verts)), tris: make([][3]int32, len(m.Tris))}
	for i := range t.id {
		t.id[i] = -1
	}
	byPos := make(map[[3]float64]int32, len(m.Verts))
	for i, tri := range m.Tris {
		for k, vi := range tri {
			if t.id[vi] < 0 {
				key := posKey(m.Verts[vi])
				id, ok := byPos[key]
				if !ok {
					id = int32(len(t.verts))
					byPos[key] = id
					t.verts = append(t.verts, vi)
				}
				t.id[vi] = id
			}
			t.tris[i][k] = t.id[vi]
		}
	}
	// Balance of each undirected edge: +1 for each use lo→hi, -1 for hi→lo.
	type edge [2]int32
	bal := make(map[edge]int32, 3*len(m.Tris)/2)
	for _, tri := range t.tris {
		for k := 0; k < 3; k++ {
			a, b := tri[k], tri[(k+1)%3]
			switch {
			case a < b:
				bal[edge{a, b}]++
			case a > b:
				bal[edge{b, a}]--
			}
		}
	}
	for i, tri := range t.tris {
		for k := 0; k < 3; k++ {
			a, b := tri[k], tri[(k+1)%3]
			if a == b {
				continue
			}
			lo, hi := min(a, b), max(a, b)
			if bal[edge{lo, hi}] == 0 {
				continue
			}
			e := &OpenError{Model: name, Tri: i,
				Edge: [2]geom.Vec3{m.Verts[t.verts[a]], m.Verts[t.verts[b]]}}
			for j, u := range t.tris {
				in := false
				for l := 0; l < 3; l++ {
					c, d := u[l], u[(l+1)%3]
					if c == a && d == b {
						e.Forward++
						in = true
					} else if c == b && d == a {
						e.Backward++
						in = true
					}
				}
				if in {
					e.Tris = append(e.Tris, j)
				}
			}
			return nil, e
		}
	}
	// Components by union-find over the merged vertices.
	parent := make([]int32, len(t.verts))
	for i := range parent {
		parent[i] = int32(i)
	}
	var find func(int32) int32
	find = func(x int32) int32 {
		for parent[x] != x {
			parent[x] = parent[parent[x]]
			x = parent[x]
		}
		return x
	}
	for _, tri := range t.tris {
		r0 := find(tri[0])
		for _, v := range tri[1:] {
			if r := find(v); r != r0 {
				parent[r] = r0
			}
		}
	}
	for i := range parent {
		if find(int32(i)) == int32(i) {
			t.reps = append(t.reps, int32(i))
		}
	}
	return t, nil
}
