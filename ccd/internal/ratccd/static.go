package ratccd

import (
	"math/big"

	"github.com/collide3d/collide/geom"
)

// rvec is a point or a vector with exact rational coordinates.
type rvec [3]*big.Rat

// ratVec returns v exactly (v finite).
func ratVec(v geom.Vec3) rvec {
	return rvec{new(big.Rat).SetFloat64(v.X), new(big.Rat).SetFloat64(v.Y), new(big.Rat).SetFloat64(v.Z)}
}

// lerp returns a + t·(b − a), exactly.
func lerp(a, b rvec, t *big.Rat) rvec {
	var r rvec
	for i := range r {
		r[i] = new(big.Rat).Sub(b[i], a[i])
		r[i].Mul(r[i], t)
		r[i].Add(r[i], a[i])
	}
	return r
}

func (a rvec) sub(b rvec) rvec {
	return rvec{new(big.Rat).Sub(a[0], b[0]), new(big.Rat).Sub(a[1], b[1]), new(big.Rat).Sub(a[2], b[2])}
}

func (a rvec) add(b rvec) rvec {
	return rvec{new(big.Rat).Add(a[0], b[0]), new(big.Rat).Add(a[1], b[1]), new(big.Rat).Add(a[2], b[2])}
}

func (a rvec) scale(s *big.Rat) rvec {
	return rvec{new(big.Rat).Mul(a[0], s), new(big.Rat).Mul(a[1], s), new(big.Rat).Mul(a[2], s)}
}

func (a rvec) dot(b rvec) *big.Rat {
	r := new(big.Rat).Mul(a[0], b[0])
	r.Add(r, new(big.Rat).Mul(a[1], b[1]))
	return r.Add(r, new(big.Rat).Mul(a[2], b[2]))
}

func (a rvec) cross(b rvec) rvec {
	m := func(x, y, z, w *big.Rat) *big.Rat {
		r := new(big.Rat).Mul(x, y)
		return r.Sub(r, new(big.Rat).Mul(z, w))
	}
	return rvec{m(a[1], b[2], a[2], b[1]), m(a[2], b[0], a[0], b[2]), m(a[0], b[1], a[1], b[0])}
}

func (a rvec) isZero() bool { return a[0].Sign() == 0 && a[1].Sign() == 0 && a[2].Sign() == 0 }

func (a rvec) equal(b rvec) bool {
	return a[0].Cmp(b[0]) == 0 && a[1].Cmp(b[1]) == 0 && a[2].Cmp(b[2]) == 0
}

// inUnit reports whether 0 ≤ s ≤ 1.
func inUnit(s *big.Rat) bool { return s.Sign() >= 0 && s.Cmp(big.NewRat(1, 1)) <= 0 }

// pointOnSegment reports whether p lies on the closed segment xy (the
// point x when x = y): p = x + s·(y − x) for some s in [0, 1], with s read
// off a coordinate in which y − x is nonzero and checked on all three.
func pointOnSegment(p, x, y rvec) bool {
	d := y.sub(x)
	k := -1
	for i := range d {
		if d[i].Sign() != 0 {
			k = i
			break
		}
	}
	if k < 0 {
		return p.equal(x)
	}
	s := new(big.Rat).Sub(p[k], x[k])
	s.Quo(s, d[k])
	return inUnit(s) && x.add(d.scale(s)).equal(p)
}

// pointInTriangle reports whether p lies in the closed triangle abc, a
// degenerate one being the segment or the point that it is. For a proper
// triangle it solves the Gram system for p's barycentric coordinates
// (Cramer's rule) and checks that they rebuild p exactly.
func pointInTriangle(p, a, b, c rvec) bool {
	u, v, w := b.sub(a), c.sub(a), p.sub(a)
	d00, d01, d11 := u.dot(u), u.dot(v), v.dot(v)
	den := new(big.Rat).Mul(d00, d11)
	den.Sub(den, new(big.Rat).Mul(d01, d01))
	if den.Sign() == 0 { // collinear vertices: the union of the three sides
		return pointOnSegment(p, a, b) || pointOnSegment(p, b, c) || pointOnSegment(p, c, a)
	}
	d20, d21 := w.dot(u), w.dot(v)
	l1 := new(big.Rat).Mul(d11, d20)
	l1.Sub(l1, new(big.Rat).Mul(d01, d21))
	l1.Quo(l1, den)
	l2 := new(big.Rat).Mul(d00, d21)
	l2.Sub(l2, new(big.Rat).Mul(d01, d20))
	l2.Quo(l2, den)
	l0 := new(big.Rat).Sub(big.NewRat(1, 1), l1)
	l0.Sub(l0, l2)
	if l0.Sign() < 0 || l1.Sign() < 0 || l2.Sign() < 0 {
		return false
	}
	return a.add(u.scale(l1)).add(v.scale(l2)).equal(p) // p in the plane
}

// segmentsMeet reports whether the closed segments pq and rs share a point
// (a zero-length segment is a point). When the directions are not parallel
// it finds the closest points of the two lines from the normal equations
// and checks that they lie on the segments and coincide; otherwise the
// segments meet iff an endpoint of one lies on the other.
func segmentsMeet(p, q, r, s rvec) bool {
	u, v, w := q.sub(p), s.sub(r), r.sub(p)
	if u.cross(v).isZero() {
		return pointOnSegment(p, r, s) || pointOnSegment(q, r, s) ||
			pointOnSegment(r, p, q) || pointOnSegment(s, p, q)
	}
	// α u − β v = w in the least-squares sense:
	// [u·u  −u·v] [α]   [w·u]
	// [u·v  −v·v] [β] = [w·v]
	uu, uv, vv, wu, wv := u.dot(u), u.dot(v), v.dot(v), w.dot(u), w.dot(v)
	det := new(big.Rat).Mul(uv, uv)
	det.Sub(det, new(big.Rat).Mul(uu, vv)) // −uu·vv + uv², < 0
	al := new(big.Rat).Mul(wv, uv)
	al.Sub(al, new(big.Rat).Mul(wu, vv)) // (−wu·vv + uv·wv)
	al.Quo(al, det)
	be := new(big.Rat).Mul(uu, wv)
	be.Sub(be, new(big.Rat).Mul(uv, wu))
	be.Quo(be, det)
	if !inUnit(al) || !inUnit(be) {
		return false
	}
	return p.add(u.scale(al)).equal(r.add(v.scale(be)))
}

// segmentMeetsTriangle reports whether the closed segment xy and the closed
// triangle abc share a point.
func segmentMeetsTriangle(x, y, a, b, c rvec) bool {
	n := b.sub(a).cross(c.sub(a))
	if n.isZero() {
		return segmentsMeet(x, y, a, b) || segmentsMeet(x, y, b, c) || segmentsMeet(x, y, c, a)
	}
	ox, oy := n.dot(x.sub(a)), n.dot(y.sub(a))
	sx, sy := ox.Sign(), oy.Sign()
	switch {
	case sx*sy > 0:
		return false
	case sx == 0 && sy == 0: // in the plane
		return pointInTriangle(x, a, b, c) || pointInTriangle(y, a, b, c) ||
			segmentsMeet(x, y, a, b) || segmentsMeet(x, y, b, c) || segmentsMeet(x, y, c, a)
	}
	s := new(big.Rat).Sub(ox, oy)
	s.Quo(ox, s) // where the segment crosses the plane
	return pointInTriangle(x.add(y.sub(x).scale(s)), a, b, c)
}

// trianglesMeet reports whether the closed triangles a and b share a
// point: iff a side of one meets the other (the sides of a degenerate
// triangle cover it).
func trianglesMeet(a, b [3]rvec) bool {
	for i := range 3 {
		j := (i + 1) % 3
		if segmentMeetsTriangle(a[i], a[j], b[0], b[1], b[2]) ||
			segmentMeetsTriangle(b[i], b[j], a[0], a[1], a[2]) {
			return true
		}
	}
	return false
}
