package topo

import (
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh"
)

// convex decides whether a closed, oriented, outward surface bounds a convex
// solid (the criterion of the package doc's # Convexity); it returns nil if
// so, else the first test that fails.
func (t *Topology) convex(m *mesh.TriMesh) *Reflex {
	none := Edge{Tri: -1}
	if t.Components != 1 {
		return &Reflex{Reason: "components", Edge: none, Vertex: -1}
	}
	if t.Euler != 2 {
		return &Reflex{Reason: "genus", Edge: none, Vertex: -1}
	}
	P := func(w int32) geom.Vec3 { return m.Verts[t.Rep[w]] }
	for i, tr := range t.Tris {
		if degenerate(tr) {
			continue
		}
		if collinear(P(tr[0]), P(tr[1]), P(tr[2])) {
			return &Reflex{Reason: "zero-area triangle", Edge: Edge{Tri: i, V: [2]int{int(m.Tris[i][0]), int(m.Tris[i][1])}}, Vertex: -1}
		}
	}
	for h, g := range t.Twin {
		if g < int32(h) {
			continue
		}
		f, k := h/3, h%3
		a, b, c := P(t.Tris[f][k]), P(t.Tris[f][(k+1)%3]), P(t.Tris[f][(k+2)%3])
		d := P(t.Tris[g/3][(g%3+2)%3])
		e := Edge{Tri: f, V: [2]int{int(m.Tris[f][k]), int(m.Tris[f][(k+1)%3])}}
		switch s := geom.Orient3D(a, b, c, d); {
		case s > 0:
			return &Reflex{Reason: "reflex edge", Edge: e, Vertex: -1}
		case s == 0 && sameSide(a, b, c, d):
			return &Reflex{Reason: "folded edge", Edge: e, Vertex: -1}
		}
	}
	// Corners grouped by vertex.
	nv := len(t.Rep)
	start := make([]int32, nv+1)
	for _, tr := range t.Tris {
		if degenerate(tr) {
			continue
		}
		for _, v := range tr {
			start[v+1]++
		}
	}
	for i := 0; i < nv; i++ {
		start[i+1] += start[i]
	}
	fill := append([]int32(nil), start[:nv]...)
	corners := make([]int32, start[nv])
	for f, tr := range t.Tris {
		if degenerate(tr) {
			continue
		}
		for k, v := range tr {
			corners[fill[v]] = int32(3*f + k)
			fill[v]++
		}
	}
	for v := 0; v < nv; v++ {
		cs := corners[start[v]:start[v+1]]
		if len(cs) == 0 {
			continue
		}
		pv := P(int32(v))
		bad := func(reason string) *Reflex {
			return &Reflex{Reason: reason, Edge: none, Vertex: int(t.Rep[v])}
		}
		for _, c := range cs {
			f, k := c/3, c%3
			i1, i2 := t.Tris[f][(k+1)%3], t.Tris[f][(k+2)%3]
			p1, p2 := P(i1), P(i2)
			for _, c2 := range cs {
				// Each link vertex is the next corner of some triangle;
				// the triangle's own (coplanar, so the slow exact path of
				// Orient3D) are skipped.
				iw := t.Tris[c2/3][(c2%3+1)%3]
				if iw == i1 || iw == i2 {
					continue
				}
				switch geom.Orient3D(pv, p1, p2, P(iw)) {
				case 1:
					return bad("reflex vertex")
				case 0:
					if inCone(pv, p1, p2, P(iw)) {
						return bad("vertex wound more than once")
					}
				}
			}
		}
	}
	return nil
}

// collinear reports whether a, b, c lie on one line: their projections on
// the three coordinate planes are all collinear.
func collinear(a, b, c geom.Vec3) bool {
	return geom.Orient2D(a.X, a.Y, b.X, b.Y, c.X, c.Y) == 0 &&
		geom.Orient2D(a.Y, a.Z, b.Y, b.Z, c.Y, c.Z) == 0 &&
		geom.Orient2D(a.Z, a.X, b.Z, b.X, c.Z, c.X) == 0
}

// sameSide reports whether d, coplanar with the non-collinear a, b, c, is
// strictly on the side of line ab where c is, in a coordinate plane where
// the triangle's projection is not flat (it keeps sides).
func sameSide(a, b, c, d geom.Vec3) bool {
	if s := geom.Orient2D(a.X, a.Y, b.X, b.Y, c.X, c.Y); s != 0 {
		return s == geom.Orient2D(a.X, a.Y, b.X, b.Y, d.X, d.Y)
	}
	if s := geom.Orient2D(a.Y, a.Z, b.Y, b.Z, c.Y, c.Z); s != 0 {
		return s == geom.Orient2D(a.Y, a.Z, b.Y, b.Z, d.Y, d.Z)
	}
	s := geom.Orient2D(a.Z, a.X, b.Z, b.X, c.Z, c.X)
	return s != 0 && s == geom.Orient2D(a.Z, a.X, b.Z, b.X, d.Z, d.X)
}

// inCone reports whether w, coplanar with v, a, b (not collinear), lies in
// the closed cone of apex v spanned by a and b (an angle below π), in a
// coordinate plane where the triangle's projection is not flat.
func inCone(v, a, b, w geom.Vec3) bool {
	x := func(p geom.Vec3, k int) (float64, float64) {
		switch k {
		case 0:
			return p.X, p.Y
		case 1:
			return p.Y, p.Z
		}
		return p.Z, p.X
	}
	for k := 0; k < 3; k++ {
		vx, vy := x(v, k)
		ax, ay := x(a, k)
		bx, by := x(b, k)
		wx, wy := x(w, k)
		if s := geom.Orient2D(vx, vy, ax, ay, bx, by); s != 0 {
			return geom.Orient2D(vx, vy, ax, ay, wx, wy)*s >= 0 && geom.Orient2D(vx, vy, wx, wy, bx, by)*s >= 0
		}
	}
	return false
}

// degenerate reports whether two of tr's welded vertices are one.
func degenerate(tr [3]int32) bool { return tr[0] == tr[1] || tr[1] == tr[2] || tr[2] == tr[0] }
