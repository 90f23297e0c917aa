package testgeom

import (
	"math"
	"math/big"
	"math/bits"

	"github.com/collide3d/collide/geom"
)

// RatTriTri reports whether the closed triangles a and b share a point,
// computed exactly in rational arithmetic (math/big) by a constructive
// algorithm that is independent of geom.TriTri. It is the oracle geom.TriTri
// is checked against. Degenerate triangles are the segments or points that
// they are. The coordinates must be finite (it panics otherwise).
//
// # Algorithm
//
// Every float64 is a dyadic rational m·2^e and is converted exactly (the
// value big.Rat.SetFloat64 gives). Comparing two float64 values with < is
// exact too, so the first step, the rejection of pairs whose bounding boxes
// are disjoint, compares the floats directly: it is the same comparison of
// rationals, without the conversion.
//
// Arithmetic. All eighteen coordinates are multiplied by one power of two
// 2^K, the smallest that makes all of them integers. A uniform scaling maps
// A ∩ B onto 2^K·A ∩ 2^K·B, so it changes no answer, and afterwards every
// quantity below is an integer (math/big.Int) except the two constructed
// kinds of rationals, which are kept as an explicit fraction num/den instead
// of a normalised big.Rat: the crossing point p = P/den of a segment with a
// plane (P an integer vector), and the parameters s = num/den of 2D line
// crossings, where s ∈ [0,1] is decided as 0 ≤ num·sgn(den) ≤ |den|. This is
// exact rational arithmetic without the gcd normalisation of big.Rat, about
// five times faster, which matters because the oracle runs a million times
// in the long tests.
//
// The test itself rests on this lemma. Let A and B be triangles, each the
// convex hull of its three vertices (so possibly a segment or a point), and
// call the three segments [a0,a1], [a1,a2], [a2,a0] the edges of A (an edge
// may be a single point). Then A ∩ B ≠ ∅ iff some edge of A meets B or some
// edge of B meets A.
//
// Proof. "If" is clear since the edges of A lie in A. "Only if": let
// C = A ∩ B ≠ ∅.
//   - If A is degenerate, its vertices lie on a line, and the hull of
//     collinear points is the segment between the two extreme ones, which is
//     one of the three edges; so A is the union of its edges and a point of C
//     lies on an edge of A. The same holds for B.
//   - Otherwise A and B are proper triangles with planes PA, PB. Suppose no
//     edge of A meets B and no edge of B meets A; then C avoids the relative
//     boundaries ∂A (the union of A's edges) and ∂B.
//     If PA ≠ PB, C ⊂ PA ∩ PB, which is a line L (the planes meet, since C
//     is not empty). L ∩ A is a non-empty compact segment of the line L in
//     the plane PA, so its end points lie on ∂A; likewise the end points of
//     L ∩ B lie on ∂B. C = (L∩A) ∩ (L∩B) is the intersection of two
//     intervals of L, a non-empty interval whose end points are end points of
//     one of them, hence on ∂A or ∂B: a contradiction.
//     If PA = PB, C is a non-empty compact convex subset of that plane, not
//     the whole plane, so it has a boundary point x in the plane. Every
//     neighbourhood of x holds points outside A or outside B, and x lies in
//     both closed sets, so x ∈ ∂A or x ∈ ∂B: a contradiction again. ∎
//
// So RatTriTri tests the six edges against the other triangle with segTri,
// after two exact early exits (disjoint bounding boxes; every vertex of one
// triangle strictly on the same side of the other's plane),
// the exact test of a closed segment [u,w] (possibly u = w) against a closed
// triangle T:
//
//   - T proper, normal n = (t1-t0)×(t2-t0) ≠ 0. Let du = n·(u-t0) and
//     dw = n·(w-t0). If they have the same strict sign the segment misses the
//     plane of T. If both are 0 the segment lies in the plane: see the 2D
//     test below. Otherwise the segment meets the plane in exactly one point,
//     p = u + t(w-u) with t = du/(du-dw) ∈ [0,1], which is constructed in
//     rationals (as P/den with den = du-dw, P = den·u + du·(w-u)); the
//     segment meets T iff p ∈ T, iff the barycentric
//     coordinates of p are all ≥ 0. They are computed in the projection that
//     drops an axis k with n_k ≠ 0, which maps the plane of T bijectively
//     onto a coordinate plane (the 2D area of the projected triangle is n_k,
//     and barycentric coordinates are preserved by the affine bijection).
//   - T degenerate (n = 0): T is the union of its edges (as above), so the
//     test is three segment-segment tests.
//
// 2D segment against proper 2D triangle (the coplanar case): the segment
// meets T iff an end point lies in T or the segment meets an edge of T. (If
// it meets T and u ∉ T, the first point of the segment, from u, that lies in
// the closed set T is a boundary point of T, so on an edge.)
//
// 3D segment against segment: segments on non-coplanar lines never meet, so
// the test first requires det[p1-p0, q0-p0, q1-p0] = 0. The four points then
// lie in some plane Π, and dropping a coordinate axis not parallel to Π maps
// Π injectively; so the segments meet iff their projections meet in each of
// the three coordinate planes (meeting in 3D implies meeting in every
// projection; meeting in the injective projection implies meeting in 3D).
//
// 2D segment against segment, constructively: with d1 = p1-p0, d2 = q1-q0,
// w = q0-p0 and D = d1×d2, if D ≠ 0 the lines meet at p0 + s·d1 = q0 + t·d2
// with s = (w×d2)/D and t = (w×d1)/D, and the segments meet iff s, t ∈ [0,1].
// If D = 0 the segments are parallel or one of them is a point; they can only
// meet if all four points are collinear, and then they meet iff their
// coordinate intervals overlap on an axis along which the four points are not
// all equal (that axis projects the common line injectively); if the four
// points are equal, they meet.
func RatTriTri(a, b geom.Triangle) bool {
	if !boxesOverlap(a, b) {
		return false
	}
	var r ratTT
	r.init(a, b)
	for k := range 2 {
		if r.separatedByPlane(k) {
			return false
		}
	}
	for k := range 2 {
		for i := range 3 {
			if r.edgeMeets(1-k, i) {
				return true
			}
		}
	}
	return false
}

// boxesOverlap reports whether the closed bounding boxes of a and b meet.
// Float comparisons are exact, so this is the rational comparison.
func boxesOverlap(a, b geom.Triangle) bool {
	for ax := range 3 {
		amin, amax := minMax3(a[0].Index(ax), a[1].Index(ax), a[2].Index(ax))
		bmin, bmax := minMax3(b[0].Index(ax), b[1].Index(ax), b[2].Index(ax))
		if amax < bmin || bmax < amin {
			return false
		}
	}
	return true
}

func minMax3(x, y, z float64) (lo, hi float64) {
	lo, hi = x, x
	for _, v := range [2]float64{y, z} {
		if v < lo {
			lo = v
		}
		if v > hi {
			hi = v
		}
	}
	return lo, hi
}

// ivec is a point of ℤ³ (coordinates scaled by 2^K, see RatTriTri).
type ivec [3]big.Int

// ratTT is the state of one RatTriTri call: the two triangles with integer
// coordinates, their normals, and the signed plane distances of each
// triangle's vertices from the other's plane.
type ratTT struct {
	v   [2][3]ivec // v[k][i]: vertex i of triangle k
	n   [2]ivec    // n[k] = (v1-v0)×(v2-v0) of triangle k
	deg [2]bool    // n[k] = 0: triangle k is a segment or a point
	ax  [2]int     // the axis of largest |n[k][ax]| > 0 (when !deg[k])
	// d[k][i] = n[k]·(v[1-k][i] - v[k][0]): the vertices of the other
	// triangle against the plane of triangle k (when !deg[k]).
	d [2][3]big.Int
}

// dyadicParts returns m and e with x = m·2^e exactly and m odd (m = 0 for
// x = 0). It panics on a non-finite x.
func dyadicParts(x float64) (m int64, e int) {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		panic("testgeom: RatTriTri: non-finite coordinate")
	}
	if x == 0 {
		return 0, 0
	}
	fr, ex := math.Frexp(x) // x = fr·2^ex, 0.5 ≤ |fr| < 1, subnormals included
	m = int64(fr * (1 << 53))
	e = ex - 53
	tz := bits.TrailingZeros64(uint64(m))
	return m >> tz, e + tz
}

// init converts the vertices to integers x·2^K exactly (TestDyadicParts
// checks the conversion against big.Rat.SetFloat64), then computes the
// normals and the plane distances.
func (r *ratTT) init(a, b geom.Triangle) {
	var ms [2][3][3]int64
	var es [2][3][3]int
	k := 0
	for ti, t := range [2]geom.Triangle{a, b} {
		for i := range 3 {
			for c := range 3 {
				m, e := dyadicParts(t[i].Index(c))
				ms[ti][i][c], es[ti][i][c] = m, e
				if m != 0 && -e > k {
					k = -e
				}
			}
		}
	}
	for ti := range 2 {
		for i := range 3 {
			for c := range 3 {
				x := &r.v[ti][i][c]
				x.SetInt64(ms[ti][i][c])
				x.Lsh(x, uint(es[ti][i][c]+k))
			}
		}
	}
	for k := range 2 {
		var e1, e2 ivec
		sub3(&e1, &r.v[k][1], &r.v[k][0])
		sub3(&e2, &r.v[k][2], &r.v[k][0])
		cross3(&r.n[k], &e1, &e2)
		r.deg[k] = true
		best := -1
		for ax := range 3 {
			if l := r.n[k][ax].BitLen(); r.n[k][ax].Sign() != 0 &&
				(best < 0 || l > best || (l == best && r.n[k][ax].CmpAbs(&r.n[k][r.ax[k]]) > 0)) {
				best, r.ax[k], r.deg[k] = l, ax, false
			}
		}
		if r.deg[k] {
			continue
		}
		for i := range 3 {
			var w ivec
			sub3(&w, &r.v[1-k][i], &r.v[k][0])
			dot3(&r.d[k][i], &r.n[k], &w)
		}
	}
}

// separatedByPlane reports whether triangle 1-k lies strictly on one side of
// the plane of the proper triangle k (a sufficient condition for disjointness,
// used only to return early).
func (r *ratTT) separatedByPlane(k int) bool {
	if r.deg[k] {
		return false
	}
	s := r.d[k][0].Sign()
	return s != 0 && r.d[k][1].Sign() == s && r.d[k][2].Sign() == s
}

// edgeMeets reports whether edge i (from vertex i to vertex i+1) of triangle
// k meets triangle o = 1-k: segTri of the RatTriTri comment.
func (r *ratTT) edgeMeets(k, i int) bool {
	o := 1 - k
	j := (i + 1) % 3
	u, w := &r.v[k][i], &r.v[k][j]
	t := &r.v[o]
	if r.deg[o] {
		for e := range 3 {
			if segSeg3(u, w, &t[e], &t[(e+1)%3]) {
				return true
			}
		}
		return false
	}
	du, dw := &r.d[o][i], &r.d[o][j]
	su, sw := du.Sign(), dw.Sign()
	if su*sw > 0 {
		return false
	}
	ax := r.ax[o]
	area := &r.n[o][ax]
	tri := [3]i2{proj(&t[0], ax), proj(&t[1], ax), proj(&t[2], ax)}
	if su == 0 && sw == 0 {
		return segTri2(proj(u, ax), proj(w, ax), tri, area)
	}
	// p = u + t(w-u) with t = du/den, den = du-dw ≠ 0, as p = P/den with
	// P = den·u + du·(w-u).
	var den, x big.Int
	den.Sub(du, dw)
	var pp ivec
	for c := range 3 {
		x.Sub(&w[c], &u[c])
		x.Mul(&x, du)
		pp[c].Mul(&den, &u[c])
		pp[c].Add(&pp[c], &x)
	}
	return inTri2(proj(&pp, ax), &den, tri, area)
}

// i2 is a point of ℤ², a view of two coordinates of an ivec.
type i2 [2]*big.Int

// proj drops axis ax, keeping the next two axes in cyclic order, so that the
// 2D cross product of projected vectors is component ax of the 3D one.
func proj(p *ivec, ax int) i2 { return i2{&p[(ax+1)%3], &p[(ax+2)%3]} }

func sub3(z, a, b *ivec) {
	for c := range 3 {
		z[c].Sub(&a[c], &b[c])
	}
}

// cross3 sets z = a×b; z must not alias a or b.
func cross3(z, a, b *ivec) {
	var t big.Int
	for c := range 3 {
		i, j := (c+1)%3, (c+2)%3
		z[c].Mul(&a[i], &b[j])
		t.Mul(&a[j], &b[i])
		z[c].Sub(&z[c], &t)
	}
}

func dot3(z *big.Int, a, b *ivec) {
	var t big.Int
	z.SetInt64(0)
	for c := range 3 {
		t.Mul(&a[c], &b[c])
		z.Add(z, &t)
	}
}

// crossv2 returns u×v for the vectors u = b-a and v = d-c.
func crossv2(a, b, c, d i2) *big.Int {
	var ux, uy, vx, vy big.Int
	ux.Sub(b[0], a[0])
	uy.Sub(b[1], a[1])
	vx.Sub(d[0], c[0])
	vy.Sub(d[1], c[1])
	ux.Mul(&ux, &vy)
	uy.Mul(&uy, &vx)
	return ux.Sub(&ux, &uy)
}

// cross2 returns (b-a)×(c-a).
func cross2(a, b, c i2) *big.Int { return crossv2(a, b, a, c) }

// inTri2 reports whether the point p = P/den (den ≠ 0; den = nil means 1)
// lies in the closed 2D triangle t whose doubled signed area
// (t1-t0)×(t2-t0) is area ≠ 0: whether the barycentric coordinates
// λ_{i+2} = (t_{i+1}-t_i)×(p-t_i) / area are all ≥ 0. With a denominator,
// (t_{i+1}-t_i)×(p-t_i) = (t_{i+1}-t_i)×(P - den·t_i) / den.
func inTri2(pp i2, den *big.Int, t [3]i2, area *big.Int) bool {
	s := area.Sign()
	if den != nil {
		s *= den.Sign()
	}
	for i := range 3 {
		ti := t[i]
		if den != nil {
			var x, y big.Int
			x.Mul(den, t[i][0])
			y.Mul(den, t[i][1])
			ti = i2{&x, &y}
		}
		// (t_{i+1}-t_i)×(P-T_i): the edge vector is unscaled.
		if crossv2(t[i], t[(i+1)%3], ti, pp).Sign()*s < 0 {
			return false
		}
	}
	return true
}

// segTri2 reports whether the closed 2D segment [u,w] meets the proper
// closed 2D triangle t (doubled signed area area ≠ 0).
func segTri2(u, w i2, t [3]i2, area *big.Int) bool {
	if inTri2(u, nil, t, area) || inTri2(w, nil, t, area) {
		return true
	}
	for i := range 3 {
		if segSeg2(u, w, t[i], t[(i+1)%3]) {
			return true
		}
	}
	return false
}

// segSeg2 reports whether the closed 2D segments [p0,p1] and [q0,q1] meet
// (either may be a point).
func segSeg2(p0, p1, q0, q1 i2) bool {
	den := crossv2(p0, p1, q0, q1) // D = d1×d2
	if ds := den.Sign(); ds != 0 {
		// s = (w×d2)/D and t = (w×d1)/D with w = q0-p0; 0 ≤ s,t ≤ 1.
		s := crossv2(p0, q0, q0, q1)
		t := crossv2(p0, q0, p0, p1)
		if ds < 0 {
			den.Neg(den)
			s.Neg(s)
			t.Neg(t)
		}
		return s.Sign() >= 0 && s.Cmp(den) <= 0 && t.Sign() >= 0 && t.Cmp(den) <= 0
	}
	// Parallel, or a point: all four points must be collinear.
	switch {
	case !eq2(p0, p1):
		if cross2(p0, p1, q0).Sign() != 0 || cross2(p0, p1, q1).Sign() != 0 {
			return false
		}
	case !eq2(q0, q1):
		if cross2(q0, q1, p0).Sign() != 0 {
			return false
		}
	}
	for c := range 2 {
		if p0[c].Cmp(p1[c]) != 0 || p0[c].Cmp(q0[c]) != 0 || p0[c].Cmp(q1[c]) != 0 {
			return intervalsMeet(p0[c], p1[c], q0[c], q1[c])
		}
	}
	return true // four equal points
}

func eq2(a, b i2) bool { return a[0].Cmp(b[0]) == 0 && a[1].Cmp(b[1]) == 0 }

// intervalsMeet reports whether [min(a,b), max(a,b)] meets [min(c,d), max(c,d)].
func intervalsMeet(a, b, c, d *big.Int) bool {
	if a.Cmp(b) > 0 {
		a, b = b, a
	}
	if c.Cmp(d) > 0 {
		c, d = d, c
	}
	return a.Cmp(d) <= 0 && c.Cmp(b) <= 0
}

// segSeg3 reports whether the closed 3D segments [p0,p1] and [q0,q1] meet
// (either may be a point).
func segSeg3(p0, p1, q0, q1 *ivec) bool {
	var u, v, w, n ivec
	sub3(&u, p1, p0)
	sub3(&v, q0, p0)
	sub3(&w, q1, p0)
	cross3(&n, &u, &v)
	var det big.Int
	dot3(&det, &n, &w)
	if det.Sign() != 0 {
		return false
	}
	for ax := range 3 {
		if !segSeg2(proj(p0, ax), proj(p1, ax), proj(q0, ax), proj(q1, ax)) {
			return false
		}
	}
	return true
}
