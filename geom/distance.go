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
	touch := TriTri(a, b)
	// Far from 1 in magnitude, squared distances would overflow or
	// underflow: work on a copy scaled by a power of two (exact).
	m := 0.0
	for i := range 3 {
		m = max(m, a[i].Abs().Max(b[i].Abs()).Index(a[i].Abs().Max(b[i].Abs()).LargestAxis()))
	}
	if m != 0 && (m > 0x1p400 || m < 0x1p-400) {
		e := math.Ilogb(m)
		s, inv := math.Ldexp(1, -e), math.Ldexp(1, e)
		dist, pa, pb = triTriDistance(a.scaled(s), b.scaled(s), touch)
		return dist * inv, pa.Scale(inv), pb.Scale(inv)
	}
	return triTriDistance(a, b, touch)
}

func (t Triangle) scaled(s float64) Triangle {
	return Triangle{t[0].Scale(s), t[1].Scale(s), t[2].Scale(s)}
}

// triTriDistance computes TriTriDistance for coordinates in a safe range,
// given whether the triangles touch.
func triTriDistance(a, b Triangle, touch bool) (dist float64, pa, pb Vec3) {
	best := math.Inf(1)
	consider := func(p, q Vec3) {
		if d := p.Sub(q).Norm2(); d < best || math.IsInf(best, 1) {
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
	if !touch {
		return pa.Distance(pb), pa, pb
	}
	if pa == pb {
		return 0, pa, pa
	}
	p := commonPoint(a, b, pa)
	return 0, p, p
}

// commonPoint returns a point of both touching triangles, computed in
// floating point: where an edge that meets the other triangle (decided
// exactly) crosses it, choosing, among all such edges, the point nearest to
// both triangles. fallback is returned if no candidate is better.
func commonPoint(a, b Triangle, fallback Vec3) Vec3 {
	best := fallback
	bestErr := offBoth(fallback, a, b)
	consider := func(c Vec3) {
		if e := offBoth(c, a, b); e < bestErr {
			best, bestErr = c, e
		}
	}
	try := func(t, o Triangle) {
		n := o.Normal()
		for i := range 3 {
			u, v := t[i], t[(i+1)%3]
			if !segTri(u, v, o) {
				continue
			}
			if du, dv := n.Dot(u.Sub(o[0])), n.Dot(v.Sub(o[0])); du != dv {
				consider(u.Lerp(v, clamp01(du/(du-dv))))
			}
			// In (or nearly in) the plane: an endpoint inside, or where
			// the segment crosses the other triangle's boundary.
			consider(u)
			consider(v)
			for j := range 3 {
				p, q := ClosestPointsSegments(u, v, o[j], o[(j+1)%3])
				consider(p.Lerp(q, 0.5))
			}
		}
	}
	try(a, b)
	try(b, a)
	return best
}

// offBoth returns the larger squared distance from p to a and to b.
func offBoth(p Vec3, a, b Triangle) float64 {
	return max(ClosestPointTriangle(p, a).Sub(p).Norm2(), ClosestPointTriangle(p, b).Sub(p).Norm2())
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
	// A gap between the boxes wider than eps plus a generous bound on the
	// error of the computed distance (a few ulps of the coordinates) decides
	// without computing it.
	ba, bb := a.Bounds(), b.Bounds()
	m := max(ba.Min.Abs().Max(ba.Max.Abs()).maxComp(), bb.Min.Abs().Max(bb.Max.Abs()).maxComp())
	gap := bb.Min.Sub(ba.Max).Max(ba.Min.Sub(bb.Max)).maxComp()
	if gap > eps*(1+0x1p-40)+0x1p-40*m {
		return false
	}
	d, _, _ := TriTriDistance(a, b)
	return d <= eps
}

// ClosestPointTriangle returns the point of the closed triangle t closest to
// p (in floating point). Degenerate and sliver triangles are handled: every
// candidate is built as a convex combination of t's vertices, so the result
// lies on t up to rounding even when the barycentric solve is ill
// conditioned; the interior candidate competes with the closest points of the
// three edges.
func ClosestPointTriangle(p Vec3, t Triangle) Vec3 {
	best, bd := t[0], math.Inf(1)
	ab, ac, ap := t[1].Sub(t[0]), t[2].Sub(t[0]), p.Sub(t[0])
	d00, d01, d11 := ab.Dot(ab), ab.Dot(ac), ac.Dot(ac)
	d20, d21 := ap.Dot(ab), ap.Dot(ac)
	if den := float64(d00*d11) - float64(d01*d01); den > 0 {
		v := (float64(d11*d20) - float64(d01*d21)) / den
		w := (float64(d00*d21) - float64(d01*d20)) / den
		if v >= 0 && w >= 0 && v+w <= 1 {
			best = t[0].Add(ab.Scale(v)).Add(ac.Scale(w))
			bd = best.Sub(p).Norm2()
		}
	}
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

// maxComp returns the largest component of v.
func (v Vec3) maxComp() float64 { return max(v.X, v.Y, v.Z) }
