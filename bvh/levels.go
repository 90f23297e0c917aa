package bvh

import (
	"github.com/collide3d/collide/bv"
	"github.com/collide3d/collide/geom"
)

// Spheres appends to dst level l of the model's spheres at levels of detail
// (as CDFast uses them for a broad phase) and returns the result: level 0
// is one sphere around the whole model; level l holds one sphere for each
// node l levels below the root and for each leaf above that level, at most
// 2^l spheres that together contain every triangle. A Sphere tree gives its
// own spheres (but for leaves, which store none); the other kinds fit one
// to each node's triangles (bv.BoundingSphere), which takes time in
// proportion to the model's size.
func (t *Tree) Spheres(l int, dst []bv.Sphere) []bv.Sphere {
	if t.impl.len() == 0 {
		return dst
	}
	st, _ := t.impl.(*vtree[bv.Sphere])
	var tris []int32
	var pts []geom.Vec3
	var walk func(i, depth int)
	walk = func(i, depth int) {
		r := t.impl.ref(i)
		if depth < l && r >= 0 {
			walk(i+1, depth+1)
			walk(i+int(r), depth+1)
			return
		}
		if st != nil && r >= 0 { // leaves have no sphere stored
			dst = append(dst, *st.volAt(i))
			return
		}
		tris = t.subtreeTris(i, tris[:0])
		pts = pts[:0]
		for _, tr := range tris {
			for _, x := range t.mesh.Tris[tr] {
				pts = append(pts, t.mesh.Verts[x])
			}
		}
		dst = append(dst, bv.BoundingSphere(pts))
	}
	walk(0, 0)
	return dst
}
