package geom

import "math"

// TriTriLowerBound returns a lower bound L on the exact Euclidean distance d
// between the closed triangles a and b, proven with the rounding: L ≤ d
// always (0 when it cannot tell, and for non-finite coordinates). It costs
// a few dozen operations per test, far less than TriTriDistance: a distance
// query calls it to skip pairs that cannot beat the best distance so far
// (and TriTriWithin, with TriTriDistanceBound, to reject pairs farther
// than its tolerance).
//
// L is the largest of three separations, each rounded down:
//
//   - the gap between the triangles' bounding boxes along an axis: every
//     coordinate difference fl(x − y) is within a relative u = 2⁻⁵³ of
//     x − y (exact when subnormal), so fl(g·(1 − 2⁻⁵²)) ≤ g(1 − u) ≤ the
//     exact gap;
//   - the distance of b's vertices from the plane of a, when all three are
//     strictly on one side, and the same with a and b exchanged: every point
//     of b is then at least min |det_i| / |n| from that plane, where
//     det_i = n·(b_i − a_0), n = (a_1 − a_0) × (a_2 − a_0), is Orient3D's
//     determinant. Its float value is within errBound3·perm of it (the
//     filter of Orient3D and planeSigns, with perm its permanent; we take
//     twice that), each component of the float normal is within
//     errBound2·(|fl(p)| + |fl(q)|) of n's (Orient2D's filter, again
//     doubled), so min(|det̃_i| − err_i) / |n|⁺ with |n|⁺ an upper bound
//     on |n| is ≤ the separation, and the last roundings are covered by a
//     factor 1 − 2⁻⁴⁹. This test is skipped (0) when a coordinate exceeds
//     2²⁵⁰ in magnitude (no overflow), or when a product of the normal or a
//     permanent is so small that underflow could matter (as in
//     planeSigns).
func TriTriLowerBound(a, b Triangle) float64 {
	var lb lowerBound
	lb.box(&a, &b)
	return lb.planes(&a, &b)
}

// lowerBound holds the box part of TriTriLowerBound and the two magnitudes
// of TriTriDistanceBound.
type lowerBound struct {
	gap float64 // the certified box gap (≥ 0)
	d   float64 // the largest extent of the pair's box along an axis
	m   float64 // the largest |coordinate|
}

// box sets l from the bounding boxes of a and b.
func (l *lowerBound) box(a, b *Triangle) {
	g := 0.0
	gx, dx, mx := axisGap(a[0].X, a[1].X, a[2].X, b[0].X, b[1].X, b[2].X)
	gy, dy, my := axisGap(a[0].Y, a[1].Y, a[2].Y, b[0].Y, b[1].Y, b[2].Y)
	gz, dz, mz := axisGap(a[0].Z, a[1].Z, a[2].Z, b[0].Z, b[1].Z, b[2].Z)
	if gx > g {
		g = gx
	}
	if gy > g {
		g = gy
	}
	if gz > g {
		g = gz
	}
	if g > 0 {
		g *= 1 - 0x1p-52
		if g > math.MaxFloat64 {
			g = math.MaxFloat64 // the exact gap exceeds it
		}
	}
	l.gap, l.d, l.m = g, max(dx, dy, dz), max(mx, my, mz)
}

// axisGap returns, along one axis, the computed gap between the spans of
// a0, a1, a2 and of b0, b1, b2 (≤ 0 if they overlap), the span of all six
// and their largest magnitude.
func axisGap(a0, a1, a2, b0, b1, b2 float64) (gap, ext, mag float64) {
	alo, ahi := span3(a0, a1, a2)
	blo, bhi := span3(b0, b1, b2)
	gap = blo - ahi
	if g := alo - bhi; g > gap {
		gap = g
	}
	lo, hi := alo, ahi
	if blo < lo {
		lo = blo
	}
	if bhi > hi {
		hi = bhi
	}
	return gap, hi - lo, max(-lo, hi)
}

func span3(x, y, z float64) (lo, hi float64) {
	lo, hi = x, x
	if y < lo {
		lo = y
	} else if y > hi {
		hi = y
	}
	if z < lo {
		lo = z
	} else if z > hi {
		hi = z
	}
	return lo, hi
}

// planes returns the largest of the box gap and the two plane separations.
func (l *lowerBound) planes(a, b *Triangle) float64 {
	g := l.gap
	if !(l.m <= 0x1p250) {
		return g
	}
	if s := planeGap(a, b); s > g {
		g = s
	}
	if s := planeGap(b, a); s > g {
		g = s
	}
	return g
}

// planeGap returns a lower bound on the distance of q from the plane of t
// when q's vertices lie strictly on one side of it, else 0. Coordinates
// must be at most 2²⁵⁰ in magnitude.
func planeGap(t, q *Triangle) float64 {
	ux, uy, uz := t[1].X-t[0].X, t[1].Y-t[0].Y, t[1].Z-t[0].Z
	vx, vy, vz := t[2].X-t[0].X, t[2].Y-t[0].Y, t[2].Z-t[0].Z
	uyvz, uzvy := float64(uy*vz), float64(uz*vy)
	uzvx, uxvz := float64(uz*vx), float64(ux*vz)
	uxvy, uyvx := float64(ux*vy), float64(uy*vx)
	nx, ny, nz := uyvz-uzvy, uzvx-uxvz, uxvy-uyvx
	px := math.Abs(uyvz) + math.Abs(uzvy)
	py := math.Abs(uzvx) + math.Abs(uxvz)
	pz := math.Abs(uxvy) + math.Abs(uyvx)
	if min(math.Abs(uyvz), math.Abs(uzvy), math.Abs(uzvx), math.Abs(uxvz), math.Abs(uxvy), math.Abs(uyvx)) < 0x1p-969 &&
		(inexactProd(uy, vz, uyvz) || inexactProd(uz, vy, uzvy) || inexactProd(uz, vx, uzvx) ||
			inexactProd(ux, vz, uxvz) || inexactProd(ux, vy, uxvy) || inexactProd(uy, vx, uyvx)) {
		return 0
	}
	lo, side := math.Inf(1), 0.0
	for _, p := range q {
		wx, wy, wz := p.X-t[0].X, p.Y-t[0].Y, p.Z-t[0].Z
		det := float64(nx*wx) + float64(ny*wy) + float64(nz*wz)
		perm := float64(px*math.Abs(wx)) + float64(py*math.Abs(wy)) + float64(pz*math.Abs(wz))
		if !(perm >= tinyPerm) {
			return 0
		}
		err := 2 * errBound3 * perm
		s := 1.0
		if det < 0 {
			det, s = -det, -1
		}
		if !(det > err) || (side != 0 && s != side) {
			return 0
		}
		side = s
		lo = min(lo, det-err)
	}
	ex := math.Abs(nx) + 2*errBound2*px
	ey := math.Abs(ny) + 2*errBound2*py
	ez := math.Abs(nz) + 2*errBound2*pz
	nUp := math.Sqrt(ex*ex+ey*ey+ez*ez) * (1 + 0x1p-50)
	return lo / nUp * (1 - 0x1p-49)
}
