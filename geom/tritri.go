package geom

import "math"

// TriTri reports exactly whether the closed triangles a and b share a point:
// touching at a vertex or along an edge counts, so does coplanar overlap and
// containment. A degenerate triangle is the segment or the point it is.
//
// Properties: TriTri(a, b) = TriTri(b, a); the result does not change under
// any permutation of the vertices of either triangle; it is decided only by
// the signs of exact orientation predicates, so it is exact for the float64
// coordinates as given.
//
// # Method
//
// The signs of b's vertices against the plane of a, and of a's against the
// plane of b, reject most disjoint pairs (Möller's interval test, made exact).
// Two non-degenerate, non-coplanar triangles that pass meet their planes'
// common line L in the segments a∩πb and b∩πa, and touch iff those overlap:
// after a canonical relabelling, two more orientation signs compare the
// segments' endpoints along L (Guigue and Devillers, "Fast and Robust
// Triangle-Triangle Overlap Test Using Orientation Predicates", 2003).
// Coplanar pairs are projected along an axis on which the projection is
// provably injective (the exact normal component is non-zero) and tested in
// 2D. Degenerate triangles are reduced to segments (or points) and tested
// with the segment-triangle and segment-segment predicates below.
func TriTri(a, b Triangle) bool {
	// Disjoint bounding boxes (closed, compared exactly) settle most far
	// pairs before any product is formed.
	if !boxesOverlap(&a, &b) {
		return false
	}
	sb := planeSigns(&a, &b) // b's vertices against the plane of a
	if sb[0] == sb[1] && sb[1] == sb[2] && sb[0] != 0 {
		return false
	}
	return triTriSigns(&a, &b, sb)
}

// triTriSigns is TriTri once the boxes overlap and b's vertices are not
// all strictly on one side of a's plane (their signs sb).
func triTriSigns(a, b *Triangle, sb [3]int) bool {
	sa := planeSigns(b, a) // a's vertices against the plane of b
	if sa[0] == sa[1] && sa[1] == sa[2] && sa[0] != 0 {
		return false
	}
	zb := sb[0] == 0 && sb[1] == 0 && sb[2] == 0
	za := sa[0] == 0 && sa[1] == 0 && sa[2] == 0
	switch {
	case zb && a.IsDegenerate():
		// a is a segment or a point.
		u, v := extremes(*a)
		return segTri(u, v, *b)
	case zb:
		// a is a proper triangle and b lies in its plane.
		return coplanarTriTri(*a, *b)
	case za:
		// b is degenerate (else its plane would be a's and zb would hold).
		u, v := extremes(*b)
		return segTri(u, v, *a)
	}
	return crossingTriTri(a, b, sa, sb)
}

// A TriPrep is a triangle prepared for TriTri against many others: its
// bounding box and its plane, which TriTri computes for each pair, are
// computed once. Meets gives TriTri's answer, by the same arithmetic.
type TriPrep struct {
	T      Triangle
	lo, hi Vec3
	pl     plane
}

// Prepare returns t prepared for TriTri.
func Prepare(t Triangle) TriPrep {
	var p TriPrep
	p.Reset(&t)
	return p
}

// Reset prepares p for the triangle t.
func (p *TriPrep) Reset(t *Triangle) {
	p.T = *t
	p.lo.X, p.hi.X = span(t[0].X, t[1].X, t[2].X)
	p.lo.Y, p.hi.Y = span(t[0].Y, t[1].Y, t[2].Y)
	p.lo.Z, p.hi.Z = span(t[0].Z, t[1].Z, t[2].Z)
	p.pl = planeOf(t)
}

// Meets reports TriTri(p.T, *b).
func (p *TriPrep) Meets(b *Triangle) bool {
	if !spanMeets(p.lo.X, p.hi.X, b[0].X, b[1].X, b[2].X) ||
		!spanMeets(p.lo.Y, p.hi.Y, b[0].Y, b[1].Y, b[2].Y) ||
		!spanMeets(p.lo.Z, p.hi.Z, b[0].Z, b[1].Z, b[2].Z) {
		return false
	}
	sb := p.pl.signs(&p.T, b)
	if sb[0] == sb[1] && sb[1] == sb[2] && sb[0] != 0 {
		return false
	}
	return triTriSigns(&p.T, b, sb)
}

// plane is what planeSigns computes of its first triangle t: the normal
// (u × v, u and v the edges from t[0]), the sums of the products'
// magnitudes per component for the error bound, and whether a product
// underflowed inexactly (exact: every sign goes to the exact predicate).
type plane struct {
	nx, ny, nz float64
	px, py, pz float64
	exact      bool
}

// planeOf returns the plane of t for planeSigns.
func planeOf(t *Triangle) plane {
	ux, uy, uz := t[1].X-t[0].X, t[1].Y-t[0].Y, t[1].Z-t[0].Z
	vx, vy, vz := t[2].X-t[0].X, t[2].Y-t[0].Y, t[2].Z-t[0].Z
	uyvz, uzvy := float64(uy*vz), float64(uz*vy)
	uzvx, uxvz := float64(uz*vx), float64(ux*vz)
	uxvy, uyvx := float64(ux*vy), float64(uy*vx)
	return plane{
		nx: uyvz - uzvy, ny: uzvx - uxvz, nz: uxvy - uyvx,
		px: math.Abs(uyvz) + math.Abs(uzvy),
		py: math.Abs(uzvx) + math.Abs(uxvz),
		pz: math.Abs(uxvy) + math.Abs(uyvx),
		// The bound takes each product of the normal to be within a
		// relative ulp, which an underflowed product is not: its
		// absolute error, up to 2^-1075, is then multiplied by the
		// coordinates of q, which may be huge. Such a normal goes to the
		// exact predicate.
		exact: min(math.Abs(uyvz), math.Abs(uzvy), math.Abs(uzvx), math.Abs(uxvz), math.Abs(uxvy), math.Abs(uyvx)) < 0x1p-969 &&
			(inexactProd(uy, vz, uyvz) || inexactProd(uz, vy, uzvy) || inexactProd(uz, vx, uzvx) ||
				inexactProd(ux, vz, uxvz) || inexactProd(ux, vy, uxvy) || inexactProd(uy, vx, uyvx)),
	}
}

// planeSigns returns the exact signs of Orient3D(t0, t1, t2, p) for the
// vertices p of q. The float filter shares the plane normal of t between the
// three evaluations; it is Orient3D's own filter with the determinant
// expanded along its last row, for which the same error bound holds (the six
// triple products and their permanent are the same).
//
// It is planeOf and plane.signs written out as one function, as
// spanOverlap is span and spanMeets (small enough to be inlined): made of
// those calls, TriTri ran a third slower (BenchmarkCp: 78 → 106 ns).
func planeSigns(t, q *Triangle) [3]int {
	ux, uy, uz := t[1].X-t[0].X, t[1].Y-t[0].Y, t[1].Z-t[0].Z
	vx, vy, vz := t[2].X-t[0].X, t[2].Y-t[0].Y, t[2].Z-t[0].Z
	uyvz, uzvy := float64(uy*vz), float64(uz*vy)
	uzvx, uxvz := float64(uz*vx), float64(ux*vz)
	uxvy, uyvx := float64(ux*vy), float64(uy*vx)
	nx, ny, nz := uyvz-uzvy, uzvx-uxvz, uxvy-uyvx
	px := math.Abs(uyvz) + math.Abs(uzvy)
	py := math.Abs(uzvx) + math.Abs(uxvz)
	pz := math.Abs(uxvy) + math.Abs(uyvx)
	var s [3]int
	if min(math.Abs(uyvz), math.Abs(uzvy), math.Abs(uzvx), math.Abs(uxvz), math.Abs(uxvy), math.Abs(uyvx)) < 0x1p-969 &&
		(inexactProd(uy, vz, uyvz) || inexactProd(uz, vy, uzvy) || inexactProd(uz, vx, uzvx) ||
			inexactProd(ux, vz, uxvz) || inexactProd(ux, vy, uxvy) || inexactProd(uy, vx, uyvx)) {
		for i, p := range q {
			s[i] = orient3DExact(t[0], t[1], t[2], p)
		}
		return s
	}
	for i, p := range q {
		wx, wy, wz := p.X-t[0].X, p.Y-t[0].Y, p.Z-t[0].Z
		det := float64(nx*wx) + float64(ny*wy) + float64(nz*wz)
		perm := float64(px*math.Abs(wx)) + float64(py*math.Abs(wy)) + float64(pz*math.Abs(wz))
		if perm >= tinyPerm && math.Abs(det) > errBound3*perm {
			s[i] = sgn(det)
		} else {
			s[i] = orient3DExact(t[0], t[1], t[2], p)
		}
	}
	return s
}

// signs is planeSigns(t, q) for the plane pl of t.
func (pl *plane) signs(t, q *Triangle) [3]int {
	var s [3]int
	if pl.exact {
		for i, p := range q {
			s[i] = orient3DExact(t[0], t[1], t[2], p)
		}
		return s
	}
	for i, p := range q {
		wx, wy, wz := p.X-t[0].X, p.Y-t[0].Y, p.Z-t[0].Z
		det := float64(pl.nx*wx) + float64(pl.ny*wy) + float64(pl.nz*wz)
		perm := float64(pl.px*math.Abs(wx)) + float64(pl.py*math.Abs(wy)) + float64(pl.pz*math.Abs(wz))
		if perm >= tinyPerm && math.Abs(det) > errBound3*perm {
			s[i] = sgn(det)
		} else {
			s[i] = orient3DExact(t[0], t[1], t[2], p)
		}
	}
	return s
}

// boxesOverlap reports whether the bounding boxes of a and b overlap.
func boxesOverlap(a, b *Triangle) bool {
	return spanOverlap(a[0].X, a[1].X, a[2].X, b[0].X, b[1].X, b[2].X) &&
		spanOverlap(a[0].Y, a[1].Y, a[2].Y, b[0].Y, b[1].Y, b[2].Y) &&
		spanOverlap(a[0].Z, a[1].Z, a[2].Z, b[0].Z, b[1].Z, b[2].Z)
}

// spanOverlap reports whether the closed intervals spanned by a0, a1, a2 and
// by b0, b1, b2 overlap. (Plain comparisons: the built-in min and max carry
// NaN and signed-zero rules that cost more and are not needed here.)
func spanOverlap(a0, a1, a2, b0, b1, b2 float64) bool {
	alo, ahi := a0, a0
	if a1 < alo {
		alo = a1
	} else if a1 > ahi {
		ahi = a1
	}
	if a2 < alo {
		alo = a2
	} else if a2 > ahi {
		ahi = a2
	}
	return !(b0 < alo && b1 < alo && b2 < alo) && !(b0 > ahi && b1 > ahi && b2 > ahi)
}

// span returns the least and the greatest of a0, a1, a2.
func span(a0, a1, a2 float64) (lo, hi float64) {
	lo, hi = a0, a0
	if a1 < lo {
		lo = a1
	} else if a1 > hi {
		hi = a1
	}
	if a2 < lo {
		lo = a2
	} else if a2 > hi {
		hi = a2
	}
	return lo, hi
}

// spanMeets reports whether the closed interval [lo, hi] meets the one
// spanned by b0, b1, b2.
func spanMeets(lo, hi, b0, b1, b2 float64) bool {
	return !(b0 < lo && b1 < lo && b2 < lo) && !(b0 > hi && b1 > hi && b2 > hi)
}

// canonicalPick chooses the vertex that canonical relabelling puts first: the
// vertex alone on its (closed) side of the other plane, given the signs s of
// a triangle's vertices, not all zero and not all of one strict sign. It
// returns the vertex and its declared side (+1 or -1): the other two lie in
// the closed half-space of the opposite side. The chosen vertex is off the
// plane unless it is the only vertex on it, so neither edge from it lies in
// the plane and each meets the plane in exactly one point.
func canonicalPick(s [3]int) (pick, side int) {
	zeros := 0
	for _, x := range s {
		if x == 0 {
			zeros++
		}
	}
	switch zeros {
	case 0:
		// Exactly one vertex differs in sign from the other two.
		for i := range 3 {
			if s[i] != s[(i+1)%3] && s[i] != s[(i+2)%3] {
				pick, side = i, s[i]
			}
		}
	case 1:
		z := 0
		for i := range 3 {
			if s[i] == 0 {
				z = i
			}
		}
		o1, o2 := s[(z+1)%3], s[(z+2)%3]
		if o1 == o2 {
			// Only the vertex z touches the plane: it is alone, declared
			// on the side opposite to the others.
			pick, side = z, -o1
		} else {
			// One vertex on each side: take the positive one.
			pick, side = (z+1)%3, o1
			if o1 < 0 {
				pick, side = (z+2)%3, o2
			}
		}
	case 2:
		for i := range 3 {
			if s[i] != 0 {
				pick, side = i, s[i]
			}
		}
	}
	return pick, side
}

// canonTab holds canonicalPick for every sign pattern, indexed by signIndex.
var canonTab = func() (tab [27]struct{ pick, side int8 }) {
	for i := range tab {
		s := [3]int{i/9 - 1, i/3%3 - 1, i%3 - 1}
		p, sd := canonicalPick(s)
		tab[i].pick, tab[i].side = int8(p), int8(sd)
	}
	return tab
}()

func signIndex(s [3]int) int { return (s[0]+1)*9 + (s[1]+1)*3 + s[2] + 1 }

// crossingTriTri decides two non-degenerate triangles whose planes cross
// along a line L, given the signs sa of a's vertices against πb and sb of b's
// vertices against πa.
//
// After canonical relabelling, p1 = a[0] is alone on its side of πb, so a∩πb
// is the segment [i, j] with i on edge p1q1 and j on edge p1r1, both on L;
// likewise b∩πa = [k, l] with k on p2q2 and l on p2r2. The edge lines p1q1
// (in πa) and p2q2 (in πb) cross L transversally, so they are coplanar, and
// Orient3D(p1, q1, p2, q2) is 0, exactly when i = k; by continuity its sign
// is the order of i and k along L (and the same for the other pairs). Flipping
// the orientation of one triangle (swapping its last two vertices) when the
// other's lone vertex lies on the negative side makes the order of i, j and
// of k, l consistent, and then the segments overlap iff
// Orient3D(p1, q1, p2, q2) ≤ 0 and Orient3D(p1, r1, r2, p2) ≤ 0.
func crossingTriTri(a, b *Triangle, sa, sb [3]int) bool {
	ca, cb := canonTab[signIndex(sa)], canonTab[signIndex(sb)]
	ia, ib := int(ca.pick), int(cb.pick)
	p1, q1, r1 := &a[ia], &a[next3[ia]], &a[next3[ia+1]]
	p2, q2, r2 := &b[ib], &b[next3[ib]], &b[next3[ib+1]]
	if ca.side < 0 {
		q2, r2 = r2, q2
	}
	if cb.side < 0 {
		q1, r1 = r1, q1
	}
	return Orient3D(*p1, *q1, *p2, *q2) <= 0 && Orient3D(*p1, *r1, *r2, *p2) <= 0
}

// next3[i] is (i+1) mod 3, and next3[i+1] is (i+2) mod 3.
var next3 = [4]int{1, 2, 0, 1}

// extremes returns the two extreme points of a degenerate (collinear or
// coincident) triangle: the segment it is (u = v for a point). Along a line,
// the order of points is the order of any coordinate on which they are not
// all equal, so comparing floats on the axis of largest spread is exact.
func extremes(t Triangle) (u, v Vec3) {
	span := t.Bounds().Size()
	axis := span.LargestAxis()
	lo, hi := 0, 0
	for i := 1; i < 3; i++ {
		if t[i].Index(axis) < t[lo].Index(axis) {
			lo = i
		}
		if t[i].Index(axis) > t[hi].Index(axis) {
			hi = i
		}
	}
	return t[lo], t[hi]
}

// segTri reports whether the closed segment [u, v] (a point if u = v) meets
// the closed triangle t, which may itself be degenerate.
func segTri(u, v Vec3, t Triangle) bool {
	if t.IsDegenerate() {
		w, x := extremes(t)
		return segSeg(u, v, w, x)
	}
	su := Orient3D(t[0], t[1], t[2], u)
	sv := Orient3D(t[0], t[1], t[2], v)
	if su*sv > 0 {
		return false
	}
	if su == 0 && sv == 0 {
		k := projectionAxis(t)
		p, q := project(u, k), project(v, k)
		return segTri2D(p, q, project(t[0], k), project(t[1], k), project(t[2], k))
	}
	// The line uv is not in the plane of t, so it meets that plane in one
	// point X, which lies on [u, v]. X is in t iff the three orientations of
	// the line against t's edges do not include both strict signs.
	o0 := Orient3D(u, v, t[0], t[1])
	o1 := Orient3D(u, v, t[1], t[2])
	if o0*o1 < 0 {
		return false
	}
	o2 := Orient3D(u, v, t[2], t[0])
	return o0*o2 >= 0 && o1*o2 >= 0
}

// segSeg reports whether the closed segments [u, v] and [w, x] meet (either
// may be a point).
func segSeg(u, v, w, x Vec3) bool {
	if Orient3D(u, v, w, x) != 0 {
		return false
	}
	// Coplanar: they meet iff their projections meet on all three
	// coordinate planes, because some projection is injective on a plane
	// containing both.
	for k := range 3 {
		if !segSeg2D(project(u, k), project(v, k), project(w, k), project(x, k)) {
			return false
		}
	}
	return true
}

// coplanarTriTri decides a proper triangle a and a triangle b lying in a's
// plane.
func coplanarTriTri(a, b Triangle) bool {
	k := projectionAxis(a)
	var pa, pb [3]vec2
	for i := range 3 {
		pa[i], pb[i] = project(a[i], k), project(b[i], k)
	}
	if orient2(pb[0], pb[1], pb[2]) == 0 {
		u, v := extremes(b)
		return segTri2D(project(u, k), project(v, k), pa[0], pa[1], pa[2])
	}
	for i := range 3 {
		for j := range 3 {
			if segSeg2D(pa[i], pa[(i+1)%3], pb[j], pb[(j+1)%3]) {
				return true
			}
		}
	}
	return pointInTri2D(pa[0], pb[0], pb[1], pb[2]) || pointInTri2D(pb[0], pa[0], pa[1], pa[2])
}

// vec2 is a point of a coordinate plane.
type vec2 struct{ x, y float64 }

// project drops coordinate k of p.
func project(p Vec3, k int) vec2 {
	switch k {
	case 0:
		return vec2{p.Y, p.Z}
	case 1:
		return vec2{p.Z, p.X}
	}
	return vec2{p.X, p.Y}
}

// projectionAxis returns an axis k along which projecting the plane of the
// proper triangle t is injective: the component k of its normal is exactly
// non-zero (that component is the 2D orientation of the projection). The
// axis of the largest float normal component is tried first.
func projectionAxis(t Triangle) int {
	k := t.Normal().LargestAxis()
	for i := range 3 {
		kk := (k + i) % 3
		if orient2(project(t[0], kk), project(t[1], kk), project(t[2], kk)) != 0 {
			return kk
		}
	}
	return k // not reached for a proper triangle
}

func orient2(a, b, c vec2) int { return Orient2D(a.x, a.y, b.x, b.y, c.x, c.y) }

// segSeg2D reports whether the closed segments [p, q] and [r, s] of the
// plane meet (either may be a point).
func segSeg2D(p, q, r, s vec2) bool {
	o1, o2 := orient2(p, q, r), orient2(p, q, s)
	if o1*o2 > 0 {
		return false
	}
	o3, o4 := orient2(r, s, p), orient2(r, s, q)
	if o3*o4 > 0 {
		return false
	}
	if o1 != 0 || o2 != 0 || o3 != 0 || o4 != 0 {
		return true
	}
	// Collinear (or points): the intervals must overlap on both axes, one
	// of which is injective on the common line.
	return overlap1(p.x, q.x, r.x, s.x) && overlap1(p.y, q.y, r.y, s.y)
}

func overlap1(a, b, c, d float64) bool {
	return math.Max(c, d) >= math.Min(a, b) && math.Max(a, b) >= math.Min(c, d)
}

// pointInTri2D reports whether p lies in the closed proper triangle abc.
func pointInTri2D(p, a, b, c vec2) bool {
	d1, d2, d3 := orient2(a, b, p), orient2(b, c, p), orient2(c, a, p)
	neg := d1 < 0 || d2 < 0 || d3 < 0
	pos := d1 > 0 || d2 > 0 || d3 > 0
	return !(neg && pos)
}

// segTri2D reports whether the closed segment [p, q] meets the closed
// triangle abc of the plane (which may be degenerate).
func segTri2D(p, q, a, b, c vec2) bool {
	if segSeg2D(p, q, a, b) || segSeg2D(p, q, b, c) || segSeg2D(p, q, c, a) {
		return true
	}
	// No boundary crossing: the segment meets the triangle only if it lies
	// inside, which needs a proper triangle.
	return orient2(a, b, c) != 0 && pointInTri2D(p, a, b, c)
}
