package depth

import (
	"math"

	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/hull"
)

// maxConvexWork bounds the exact orientation tests of the convexity check
// (triangles × vertices); larger meshes are treated as non-convex.
const maxConvexWork = 20_000_000

// isConvex reports whether the closed mesh (pts, tris over merged ids) is
// the boundary of a convex solid: every vertex lies on or below the plane
// of every non-degenerate triangle (geom.Orient3D ≤ 0, exact) and some
// vertex strictly below one of them. Then every triangle lies in the
// boundary of conv(pts), with its normal pointing out, so the interior is
// the interior of conv(pts) (see the package doc). It gives up, with
// false, when late reports the search stopped (looked at per triangle).
func isConvex(pts []geom.Vec3, tris [][3]int32, late func() bool) bool {
	if len(tris)*len(pts) > maxConvexWork {
		return false
	}
	solid := false
	for _, t := range tris {
		if late() {
			return false
		}
		a, b, c := pts[t[0]], pts[t[1]], pts[t[2]]
		if collinear(a, b, c) {
			continue // a degenerate triangle has no plane
		}
		for _, p := range pts {
			switch geom.Orient3D(a, b, c, p) {
			case 1:
				return false
			case -1:
				solid = true
			}
		}
	}
	return solid
}

// polytope is a convex polytope for the separating-axis computation: its
// hull (for exact supports), outward face normals, and edges with the
// normals of their two faces (the edge's arc on the Gauss map).
type polytope struct {
	h       *hull.Hull
	normals []geom.Vec3
	edges   []pedge
	center  geom.Vec3
}

type pedge struct {
	p, dir geom.Vec3 // a point of the edge and its direction
	n1, n2 geom.Vec3 // unit normals of the faces on its two sides
}

// newPolytope builds the polytope of a closed convex surface given by
// outward triangles over pts. It returns nil if pts are not solid.
func newPolytope(pts []geom.Vec3, tris [][3]int32) *polytope {
	h := hull.New(pts)
	if h.Dim() < 3 {
		return nil
	}
	P := &polytope{h: h}
	for i := 0; i < h.Len(); i++ {
		P.center = P.center.Add(h.Vertex(i))
	}
	P.center = P.center.Scale(1 / float64(h.Len()))
	type ekey [2]int32
	faces := make(map[ekey][]int, 3*len(tris)/2)
	tn := make([]geom.Vec3, len(tris))
	for i, t := range tris {
		n := pts[t[1]].Sub(pts[t[0]]).Cross(pts[t[2]].Sub(pts[t[0]]))
		if l := n.Norm(); l > 0 && !math.IsInf(l, 0) {
			tn[i] = n.Scale(1 / l)
			P.normals = append(P.normals, tn[i])
		}
		for k := 0; k < 3; k++ {
			a, b := t[k], t[(k+1)%3]
			if a == b {
				continue
			}
			key := ekey{min(a, b), max(a, b)}
			faces[key] = append(faces[key], i)
		}
	}
	for key, fs := range faces {
		a, b := pts[key[0]], pts[key[1]]
		e := pedge{p: a, dir: b.Sub(a)}
		if len(fs) == 2 {
			e.n1, e.n2 = tn[fs[0]], tn[fs[1]]
		} // else: no arc known: the edge is paired with every edge
		P.edges = append(P.edges, e)
	}
	return P
}

// support returns max over the polytope of u·x, with the hull vertex.
func (P *polytope) support(u geom.Vec3, start int) (float64, int) {
	v, _ := P.h.Extreme(u, start)
	return u.Dot(P.h.Vertex(v)), v
}

// minkowskiFace reports whether the arcs (a, b) and (c, d) on the Gauss map
// may cross (Gregorius's test), with a tolerance that keeps near-crossings:
// keeping a pair that is not a face of the Minkowski difference only adds
// an axis whose support is still an upper bound.
func minkowskiFace(a, b, c, d geom.Vec3) bool {
	if a == (geom.Vec3{}) || c == (geom.Vec3{}) {
		return true
	}
	const tol = 1e-9
	bxa, dxc := b.Cross(a), d.Cross(c)
	cba, dba := c.Dot(bxa), d.Dot(bxa)
	adc, bdc := a.Dot(dxc), b.Dot(dxc)
	return cba*dba < tol && adc*bdc < tol && cba*bdc > -tol
}

// satDepth returns the translational penetration depth of the convex
// polytopes A and B (B to be moved), as min over candidate axes u of
// h(u) = max_A u·x − min_B u·y, and the axis: face normals of A, negated
// face normals of B, and the cross products of edges whose Gauss arcs
// cross. The value is ≤ 0 when the interiors are disjoint. It is computed
// in float64: supports are exact maximisers (hull.Extreme), dots rounded.
// It gives up when late reports the search stopped (looked at per axis and
// per edge of A): the value is then the least over some axes only.
func satDepth(A, B *polytope, late func() bool) (float64, geom.Vec3, int) {
	best, bestU := math.Inf(1), geom.Vec3{}
	sa, sb := 0, 0
	axes := 0
	try := func(u geom.Vec3) {
		if late() {
			return
		}
		axes++
		ha, va := A.support(u, sa)
		hb, vb := B.support(u.Neg(), sb)
		sa, sb = va, vb
		if h := ha + hb; h < best {
			best, bestU = h, u
		}
	}
	for _, n := range A.normals {
		try(n)
	}
	for _, n := range B.normals {
		try(n.Neg())
	}
	for i := range A.edges {
		if late() {
			break
		}
		ea := &A.edges[i]
		for j := range B.edges {
			eb := &B.edges[j]
			if !minkowskiFace(ea.n1, ea.n2, eb.n1.Neg(), eb.n2.Neg()) {
				continue
			}
			u := ea.dir.Cross(eb.dir)
			l := u.Norm()
			if !(l > 1e-150) || math.IsInf(l, 0) {
				continue // parallel edges: their faces' normals are axes already
			}
			u = u.Scale(1 / l)
			if u.Dot(ea.p.Sub(A.center)) < 0 {
				u = u.Neg()
			}
			try(u)
		}
	}
	return best, bestU, axes
}

// collinear reports, exactly, whether a, b and c are collinear: whether
// their projections on the three coordinate planes all are.
func collinear(a, b, c geom.Vec3) bool {
	return geom.Orient2D(a.X, a.Y, b.X, b.Y, c.X, c.Y) == 0 &&
		geom.Orient2D(a.Y, a.Z, b.Y, b.Z, c.Y, c.Z) == 0 &&
		geom.Orient2D(a.Z, a.X, b.Z, b.X, c.Z, c.X) == 0
}
