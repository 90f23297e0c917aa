package sep

import "github.com/collide3d/collide/geom"

// gjk is the simplex of GJK's search, in float64: up to four points of the
// Minkowski difference B − A, reduced at each step to the smallest face
// holding the point nearest the origin (Ericson, Real-Time Collision
// Detection, 5.1.2-5.1.6). Its arithmetic is heuristic: every direction it
// yields is proved or rejected by the exact test.
type gjk struct {
	pts [4]geom.Vec3
	n   int
	max float64 // the largest squared norm of a point added
}

// add adds w; false when w is already in the simplex (no progress).
func (g *gjk) add(w geom.Vec3) bool {
	for i := range g.n {
		if g.pts[i] == w {
			return false
		}
	}
	g.pts[g.n] = w
	g.n++
	g.max = max(g.max, w.Dot(w))
	return true
}

// scale returns the largest squared norm of the points added, against
// which a nearest point is "at the origin".
func (g *gjk) scale() float64 { return g.max }

// closest sets v to the point of the simplex nearest the origin and reduces
// the simplex to the face holding it; false when the origin is inside (a
// tetrahedron containing it).
func (g *gjk) closest(v *geom.Vec3) bool {
	switch g.n {
	case 1:
		*v = g.pts[0]
	case 2:
		*v, g.n = segment(&g.pts, g.pts[0], g.pts[1])
	case 3:
		*v, g.n = triangle(&g.pts, g.pts[0], g.pts[1], g.pts[2])
	case 4:
		return g.tetrahedron(v)
	}
	return true
}

// segment returns the point of segment ab nearest the origin, and writes
// the points of the face holding it to out (returning their number).
func segment(out *[4]geom.Vec3, a, b geom.Vec3) (geom.Vec3, int) {
	ab := b.Sub(a)
	d := ab.Dot(ab)
	t := -a.Dot(ab)
	switch {
	case t <= 0 || !(d > 0):
		out[0] = a
		return a, 1
	case t >= d:
		out[0] = b
		return b, 1
	}
	out[0], out[1] = a, b
	return a.Add(ab.Scale(t / d)), 2
}

// triangle returns the point of triangle abc nearest the origin (Ericson's
// ClosestPtPointTriangle), with the face holding it in out.
func triangle(out *[4]geom.Vec3, a, b, c geom.Vec3) (geom.Vec3, int) {
	ab, ac := b.Sub(a), c.Sub(a)
	d1, d2 := -ab.Dot(a), -ac.Dot(a)
	if d1 <= 0 && d2 <= 0 {
		out[0] = a
		return a, 1
	}
	d3, d4 := -ab.Dot(b), -ac.Dot(b)
	if d3 >= 0 && d4 <= d3 {
		out[0] = b
		return b, 1
	}
	vc := float64(d1*d4) - float64(d3*d2)
	if vc <= 0 && d1 >= 0 && d3 <= 0 {
		return segment(out, a, b)
	}
	d5, d6 := -ab.Dot(c), -ac.Dot(c)
	if d6 >= 0 && d5 <= d6 {
		out[0] = c
		return c, 1
	}
	vb := float64(d5*d2) - float64(d1*d6)
	if vb <= 0 && d2 >= 0 && d6 <= 0 {
		return segment(out, a, c)
	}
	va := float64(d3*d6) - float64(d5*d4)
	if va <= 0 && d4-d3 >= 0 && d5-d6 >= 0 {
		return segment(out, b, c)
	}
	sum := va + vb + vc
	if !(sum > 0) {
		// Degenerate (collinear corners): the nearest of the edges.
		return nearestEdge(out, a, b, c)
	}
	v, w := vb/sum, vc/sum
	out[0], out[1], out[2] = a, b, c
	return a.Add(ab.Scale(v)).Add(ac.Scale(w)), 3
}

// nearestEdge returns the nearest point of the three edges of abc.
func nearestEdge(out *[4]geom.Vec3, a, b, c geom.Vec3) (geom.Vec3, int) {
	var best [4]geom.Vec3
	bv, bn := segment(&best, a, b)
	for _, e := range [2][2]geom.Vec3{{a, c}, {b, c}} {
		var o [4]geom.Vec3
		if v, n := segment(&o, e[0], e[1]); v.Dot(v) < bv.Dot(bv) {
			best, bv, bn = o, v, n
		}
	}
	*out = best
	return bv, bn
}

// tetrahedron sets v to the point of the tetrahedron nearest the origin
// from the faces the origin is outside of (Ericson's
// ClosestPtPointTetrahedron); false when it is outside none.
func (g *gjk) tetrahedron(v *geom.Vec3) bool {
	p := g.pts
	faces := [4][4]int{{0, 1, 2, 3}, {0, 2, 3, 1}, {0, 3, 1, 2}, {1, 3, 2, 0}}
	found := false
	var best [4]geom.Vec3
	var bv geom.Vec3
	bn := 0
	for _, f := range faces {
		a, b, c, d := p[f[0]], p[f[1]], p[f[2]], p[f[3]]
		n := b.Sub(a).Cross(c.Sub(a))
		so, sd := -n.Dot(a), n.Dot(d.Sub(a))
		if !(so*sd < 0 || sd == 0) {
			continue
		}
		var o [4]geom.Vec3
		w, k := triangle(&o, a, b, c)
		if !found || w.Dot(w) < bv.Dot(bv) {
			found, best, bv, bn = true, o, w, k
		}
	}
	if !found {
		return false
	}
	g.pts, g.n, *v = best, bn, bv
	return true
}
