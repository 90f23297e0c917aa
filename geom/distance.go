package geom

import "math"

// TriTriDistance returns the Euclidean distance between the closed triangles
// a and b and a pair of closest points pa on a and pb on b. For touching
// triangles the distance is 0 and pa = pb is a common point (computed in
// floating point, so it lies on the triangles only to within rounding).
//
// The distance is computed in floating point from the candidates that can
// realise it for disjoint triangles (each vertex against the other triangle,
// each edge against each edge), so it is accurate to a few ulps of the
// coordinates, not exact; whether it is 0 is decided exactly by TriTri.
// Degenerate triangles are handled (their edges cover them).
func TriTriDistance(a, b Triangle) (dist float64, pa, pb Vec3) {
	best := math.Inf(1)
	consider := func(p, q Vec3) {
		if d := p.Sub(q).Norm2(); d < best {
			best, pa, pb = d, p, q
		}
	}
	for i := range 3 {
		consider(a[i], ClosestPointTriangle(a[i], b))
		consider(ClosestPointTriangle(b[i], a), b[i])
	}
	for i := range 3 {
		for j := range 3 {
			p, q := ClosestPointsSegments(a[i], a[(i+1)%3], b[j], b[(j+1)%3])
			consider(p, q)
		}
	}
	if best == 0 {
		return 0, pa, pb
	}
	if TriTri(a, b) {
		// The triangles cross: an edge of one pierces the other.
		if p, ok := piercing(a, b); ok {
			return 0, p, p
		}
		if p, ok := piercing(b, a); ok {
			return 0, p, p
		}
		return 0, pa, pa
	}
	return math.Sqrt(best), pa, pb
}

// piercing returns the point where an edge of a crosses the plane of b inside
// b, if an edge does (in floating point).
func piercing(a, b Triangle) (Vec3, bool) {
	n := b.Normal()
	for i := range 3 {
		u, v := a[i], a[(i+1)%3]
		du, dv := n.Dot(u.Sub(b[0])), n.Dot(v.Sub(b[0]))
		if du == dv || (du > 0 && dv > 0) || (du < 0 && dv < 0) {
			continue
		}
		p := u.Lerp(v, du/(du-dv))
		if q := ClosestPointTriangle(p, b); q.Sub(p).Norm2() <= 1e-20*math.Max(1, p.Norm2()) {
			return p, true
		}
	}
	return Vec3{}, false
}

// TriTriWithin reports whether the closed triangles a and b are at distance
// at most eps. With eps = 0 it is TriTri, exact; with eps > 0 the distance is
// computed in floating point (see TriTriDistance).
func TriTriWithin(a, b Triangle, eps float64) bool {
	if TriTri(a, b) {
		return true
	}
	if eps <= 0 {
		return false
	}
	d, _, _ := TriTriDistance(a, b)
	return d <= eps
}

// ClosestPointTriangle returns the point of the closed triangle t closest to
// p (in floating point). Degenerate triangles are handled.
func ClosestPointTriangle(p Vec3, t Triangle) Vec3 {
	n := t.Normal()
	if nn := n.Norm2(); nn > 0 {
		// Project onto the plane and keep the projection if it falls
		// inside (barycentric coordinates from sub-triangle normals).
		q := p.Sub(n.Scale(n.Dot(p.Sub(t[0])) / nn))
		w0 := t[1].Sub(q).Cross(t[2].Sub(q)).Dot(n)
		w1 := t[2].Sub(q).Cross(t[0].Sub(q)).Dot(n)
		w2 := t[0].Sub(q).Cross(t[1].Sub(q)).Dot(n)
		if w0 >= 0 && w1 >= 0 && w2 >= 0 {
			return q
		}
	}
	best, bd := t[0], math.Inf(1)
	for i := range 3 {
		c := ClosestPointSegment(p, t[i], t[(i+1)%3])
		if d := c.Sub(p).Norm2(); d < bd {
			best, bd = c, d
		}
	}
	return best
}

// ClosestPointSegment returns the point of the closed segment [a, b] closest
// to p.
func ClosestPointSegment(p, a, b Vec3) Vec3 {
	ab := b.Sub(a)
	den := ab.Norm2()
	if den == 0 {
		return a
	}
	t := p.Sub(a).Dot(ab) / den
	switch {
	case t <= 0:
		return a
	case t >= 1:
		return b
	}
	return a.Add(ab.Scale(t))
}

// ClosestPointsSegments returns a pair of closest points of the closed
// segments [p1, q1] and [p2, q2] (either may be a point), following Ericson,
// Real-Time Collision Detection, §5.1.9, with the parallel case clamped.
func ClosestPointsSegments(p1, q1, p2, q2 Vec3) (c1, c2 Vec3) {
	d1, d2 := q1.Sub(p1), q2.Sub(p2)
	r := p1.Sub(p2)
	a, e, f := d1.Norm2(), d2.Norm2(), d2.Dot(r)
	var s, t float64
	switch {
	case a == 0 && e == 0:
		return p1, p2
	case a == 0:
		t = clamp01(f / e)
	default:
		c := d1.Dot(r)
		if e == 0 {
			s = clamp01(-c / a)
		} else {
			b := d1.Dot(d2)
			den := a*e - b*b
			if den > 0 {
				s = clamp01((b*f - c*e) / den)
			}
			t = (b*s + f) / e
			if t < 0 {
				t, s = 0, clamp01(-c/a)
			} else if t > 1 {
				t, s = 1, clamp01((b-c)/a)
			}
		}
	}
	return p1.Add(d1.Scale(s)), p2.Add(d2.Scale(t))
}

func clamp01(x float64) float64 {
	switch {
	case x < 0:
		return 0
	case x > 1:
		return 1
	}
	return x
}
