package geom

// The TriTriDistance and TriTriWithin of commit 8f16c33, before the error
// bound and the lower bound, kept for BenchmarkTriTriWithin's comparison.

import "math"

func (t Triangle) oldScaled(s float64) Triangle {
	return Triangle{t[0].Scale(s), t[1].Scale(s), t[2].Scale(s)}
}

func (v Vec3) oldMaxComp() float64 { return max(v.X, v.Y, v.Z) }

// oldTriTriDistance returns the Euclidean distance between the closed triangles
// a and b and a pair of closest points pa on a and pb on b. For touching
// triangles the distance is 0 and pa = pb is a common point (computed in
// floating point, so it lies on the triangles only to within rounding).
//
// The distance is computed in floating point from the candidates that can
// realise it for disjoint triangles (each vertex against the other triangle,
// each edge against each edge), so it is accurate to a few ulps of the
// coordinates, not exact; whether it is 0 is decided exactly by TriTri.
// Degenerate triangles are handled (their edges cover them).
func oldTriTriDistance(a, b Triangle) (dist float64, pa, pb Vec3) {
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
		dist, pa, pb = oldTriTriDistanceTouch(a.oldScaled(s), b.oldScaled(s), touch)
		return dist * inv, pa.Scale(inv), pb.Scale(inv)
	}
	return oldTriTriDistanceTouch(a, b, touch)
}

// oldTriTriDistance computes oldTriTriDistance for coordinates in a safe range,
// given whether the triangles touch.
func oldTriTriDistanceTouch(a, b Triangle, touch bool) (dist float64, pa, pb Vec3) {
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
	p := oldCommonPoint(a, b, pa)
	return 0, p, p
}

// oldCommonPoint returns a point of both touching triangles, computed in
// floating point: where an edge that meets the other triangle (decided
// exactly) crosses it, choosing, among all such edges, the point nearest to
// both triangles. fallback is returned if no candidate is better.
func oldCommonPoint(a, b Triangle, fallback Vec3) Vec3 {
	best := fallback
	bestErr := oldOffBoth(fallback, a, b)
	consider := func(c Vec3) {
		if e := oldOffBoth(c, a, b); e < bestErr {
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

// oldOffBoth returns the larger squared distance from p to a and to b.
func oldOffBoth(p Vec3, a, b Triangle) float64 {
	return max(ClosestPointTriangle(p, a).Sub(p).Norm2(), ClosestPointTriangle(p, b).Sub(p).Norm2())
}

// oldTriTriWithin reports whether the closed triangles a and b are at distance
// at most eps. With eps = 0 it is TriTri, exact; with eps > 0 the distance is
// computed in floating point (see oldTriTriDistance).
func oldTriTriWithin(a, b Triangle, eps float64) bool {
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
	m := max(ba.Min.Abs().Max(ba.Max.Abs()).oldMaxComp(), bb.Min.Abs().Max(bb.Max.Abs()).oldMaxComp())
	gap := bb.Min.Sub(ba.Max).Max(ba.Min.Sub(bb.Max)).oldMaxComp()
	if gap > eps*(1+0x1p-40)+0x1p-40*m {
		return false
	}
	d, _, _ := oldTriTriDistance(a, b)
	return d <= eps
}
