package testgeom

import (
	"github.com/collide3d/collide/mesh"
)

// Join returns the meshes as one mesh, their vertices and triangles in
// order; flip[i] reverses the orientation of mesh i's triangles (a cavity,
// inside a surface around it, or a surface turned inward).
func Join(ms []*mesh.TriMesh, flip ...bool) *mesh.TriMesh {
	out := &mesh.TriMesh{}
	for i, m := range ms {
		off := int32(len(out.Verts))
		out.Verts = append(out.Verts, m.Verts...)
		for _, t := range m.Tris {
			if i < len(flip) && flip[i] {
				t[1], t[2] = t[2], t[1]
			}
			out.Tris = append(out.Tris, [3]int32{t[0] + off, t[1] + off, t[2] + off})
		}
	}
	return out
}

// NotSolid is a surface that bounds no solid, for the tests of what
// refuses it: Why is what the refusal says breaks.
type NotSolid struct {
	Name string
	Mesh *mesh.TriMesh
	Why  string
}

// NotSolids returns closed box's surface broken three ways: open (a
// triangle removed: 3 boundary edges), flipped (a triangle reversed) and
// non-manifold (a triangle repeated: 3 edges of three triangles).
func NotSolids(box *mesh.TriMesh) []NotSolid {
	t0 := box.Tris[0]
	return []NotSolid{
		{"open", &mesh.TriMesh{Verts: box.Verts, Tris: box.Tris[1:]}, "not closed: 3 boundary edges"},
		{"flipped", &mesh.TriMesh{Verts: box.Verts, Tris: append([][3]int32{{t0[0], t0[2], t0[1]}}, box.Tris[1:]...)}, "not oriented"},
		{"non-manifold", &mesh.TriMesh{Verts: box.Verts, Tris: append(append([][3]int32{}, box.Tris...), t0)}, "not manifold"},
	}
}
