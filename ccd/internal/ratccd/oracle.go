package ratccd

import (
	"math"
	"math/big"
	"math/bits"

	"github.com/collide3d/collide/geom"
)

// system is a continuous contact query: contact at time t is coplanar
// (f(t) = 0) and contact(sign) for the signs of the family at t.
type system struct {
	f       *fpoly   // the coplanarity cubic (or lower)
	family  []*fpoly // every polynomial whose sign contact reads
	contact func(sign func(*fpoly) int) bool
}

// at reports whether the system is in contact at t.
func (s *system) at(t *Time) bool { return s.contact(t.sign) }

// earliest returns the earliest time in [0, 1] of contact, if any.
func (s *system) earliest() (*Time, bool) {
	if !s.f.p.isZero() {
		for _, t := range s.f.roots() { // in increasing order
			sign := func(g *fpoly) int {
				if g == s.f { // t is a root of f
					return 0
				}
				return t.sign(g)
			}
			if s.contact(sign) {
				return t, true
			}
		}
		return nil, false
	}
	cands := []*Time{ratTime(zeroRat()), ratTime(oneRat())}
	for _, g := range s.family {
		cands = append(cands, g.roots()...)
	}
	for _, t := range sortTimes(cands) {
		if s.contact(t.sign) {
			return t, true
		}
	}
	return nil, false
}

// fvec is a vector of polynomials of a contact test.
type fvec [3]*fpoly

func newFvec(v pvec) fvec { return fvec{newFpoly(v[0]), newFpoly(v[1]), newFpoly(v[2])} }

func zeroVec(sign func(*fpoly) int, v fvec) bool {
	return sign(v[0]) == 0 && sign(v[1]) == 0 && sign(v[2]) == 0
}

// segTest is point P on the closed segment XY, as polynomial signs:
// if d = Y − X is zero, P = X; else d × (P − X) = 0 and
// 0 ≤ (P − X)·d ≤ d·d.
type segTest struct {
	d, w, c     fvec
	lo, hiMinus *fpoly // (P − X)·d and (P − X)·d − d·d
}

func newSegTest(P, X, Y pvec) *segTest {
	d, w := vsub(Y, X), vsub(P, X)
	dw := dot(w, d)
	return &segTest{d: newFvec(d), w: newFvec(w), c: newFvec(cross(d, w)),
		lo: newFpoly(dw), hiMinus: newFpoly(sub(dw, dot(d, d)))}
}

func (s *segTest) polys() []*fpoly {
	return []*fpoly{s.d[0], s.d[1], s.d[2], s.w[0], s.w[1], s.w[2], s.c[0], s.c[1], s.c[2], s.lo, s.hiMinus}
}

func (s *segTest) holds(sign func(*fpoly) int) bool {
	if zeroVec(sign, s.d) {
		return zeroVec(sign, s.w)
	}
	return zeroVec(sign, s.c) && sign(s.lo) >= 0 && sign(s.hiMinus) <= 0
}

// vfSystem: vertex P against the closed triangle ABC. With n = (B−A)×(C−A)
// nonzero and P in the plane, P is in the triangle iff
// n·((B−A)×(P−A)), n·((C−B)×(P−B)), n·((A−C)×(P−C)) are all ≥ 0; with n
// zero the triangle is the union of its three sides.
func vfSystem(P, A, B, C pvec) *system {
	ba, ca := vsub(B, A), vsub(C, A)
	pn := cross(ba, ca)
	f := newFpoly(dot(pn, vsub(P, A)))
	n := newFvec(pn)
	e := [3]*fpoly{
		newFpoly(dot(pn, cross(ba, vsub(P, A)))),
		newFpoly(dot(pn, cross(vsub(C, B), vsub(P, B)))),
		newFpoly(dot(pn, cross(vsub(A, C), vsub(P, C)))),
	}
	sides := [3]*segTest{newSegTest(P, A, B), newSegTest(P, B, C), newSegTest(P, C, A)}
	fam := []*fpoly{n[0], n[1], n[2], e[0], e[1], e[2]}
	for _, s := range sides {
		fam = append(fam, s.polys()...)
	}
	return &system{f: f, family: fam, contact: func(sign func(*fpoly) int) bool {
		if sign(f) != 0 {
			return false
		}
		if !zeroVec(sign, n) {
			return sign(e[0]) >= 0 && sign(e[1]) >= 0 && sign(e[2]) >= 0
		}
		return sides[0].holds(sign) || sides[1].holds(sign) || sides[2].holds(sign)
	}}
}

// eeSystem: closed segment PQ against closed segment RS. With u = Q−P,
// v = S−R, w = R−P, m = u×v nonzero and the four points coplanar, the
// lines meet at P + αu = R + βv with α = ((w×v)·m)/(m·m) and
// β = ((w×u)·m)/(m·m), and the segments meet iff both are in [0, 1]; with
// m zero (parallel or zero-length) they meet iff an endpoint of one lies on
// the other.
func eeSystem(P, Q, R, S pvec) *system {
	u, v, w := vsub(Q, P), vsub(S, R), vsub(R, P)
	pm := cross(u, v)
	f := newFpoly(dot(cross(u, w), vsub(S, P)))
	mm := dot(pm, pm)
	pal, pbe := dot(cross(w, v), pm), dot(cross(w, u), pm)
	m := newFvec(pm)
	al, be := newFpoly(pal), newFpoly(pbe)
	alHi, beHi := newFpoly(sub(pal, mm)), newFpoly(sub(pbe, mm))
	ends := [4]*segTest{newSegTest(P, R, S), newSegTest(Q, R, S), newSegTest(R, P, Q), newSegTest(S, P, Q)}
	fam := []*fpoly{m[0], m[1], m[2], al, alHi, be, beHi}
	for _, s := range ends {
		fam = append(fam, s.polys()...)
	}
	return &system{f: f, family: fam, contact: func(sign func(*fpoly) int) bool {
		if sign(f) != 0 {
			return false
		}
		if !zeroVec(sign, m) {
			return sign(al) >= 0 && sign(alHi) <= 0 && sign(be) >= 0 && sign(beHi) <= 0
		}
		for _, s := range ends {
			if s.holds(sign) {
				return true
			}
		}
		return false
	}}
}

func finite(vs ...geom.Vec3) bool {
	for _, v := range vs {
		for _, x := range [3]float64{v.X, v.Y, v.Z} {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return false
			}
		}
	}
	return true
}

// scaled returns the linear motions of the points x[i] (t = 0) to
// x[i+len(x)/2] (t = 1), all scaled by the same power of two so that every
// coordinate is an integer: contact times do not change, and the
// polynomials get integer coefficients (cheap big.Rat arithmetic).
func scaled(x ...geom.Vec3) []pvec {
	e := 0 // the least exponent of a set bit, over all coordinates
	first := true
	for _, v := range x {
		for _, c := range [3]float64{v.X, v.Y, v.Z} {
			if c == 0 {
				continue
			}
			fr, exp := math.Frexp(math.Abs(c)) // c = fr·2^exp, fr in [1/2, 1)
			m := uint64(math.Ldexp(fr, 53))    // c = m·2^(exp−53)
			low := exp - 53 + bits.TrailingZeros64(m)
			if first || low < e {
				e, first = low, false
			}
		}
	}
	s := new(big.Rat).SetInt(new(big.Int).Lsh(big.NewInt(1), uint(max(-e, 0))))
	if e > 0 {
		s.Inv(new(big.Rat).SetInt(new(big.Int).Lsh(big.NewInt(1), uint(e))))
	}
	h := len(x) / 2
	out := make([]pvec, h)
	for i := range out {
		out[i] = motion(ratVec(x[i]).scale(s), ratVec(x[i+h]).scale(s))
	}
	return out
}

// VertexFace reports whether vertex p, moving linearly from p0 (t = 0) to
// p1 (t = 1), ever lies in the closed triangle abc whose vertices move
// linearly from a0, b0, c0 to a1, b1, c1, for t in [0, 1], and if so the
// earliest such t, exactly. A non-finite input gives no contact.
func VertexFace(p0, a0, b0, c0, p1, a1, b1, c1 geom.Vec3) (*Time, bool) {
	if !finite(p0, a0, b0, c0, p1, a1, b1, c1) {
		return nil, false
	}
	m := scaled(p0, a0, b0, c0, p1, a1, b1, c1)
	return vfSystem(m[0], m[1], m[2], m[3]).earliest()
}

// EdgeEdge reports whether the closed segment pq, whose ends move linearly
// from p0, q0 to p1, q1, ever meets the closed segment rs, whose ends move
// from r0, s0 to r1, s1, for t in [0, 1], and if so the earliest such t,
// exactly. A non-finite input gives no contact.
func EdgeEdge(p0, q0, r0, s0, p1, q1, r1, s1 geom.Vec3) (*Time, bool) {
	if !finite(p0, q0, r0, s0, p1, q1, r1, s1) {
		return nil, false
	}
	m := scaled(p0, q0, r0, s0, p1, q1, r1, s1)
	return eeSystem(m[0], m[1], m[2], m[3]).earliest()
}

// TriTri reports whether triangle a, its vertex i moving linearly from
// a0[i] to a1[i], ever meets triangle b, moving from b0 to b1, for t in
// [0, 1], and if so the earliest such t, exactly: 0 when they meet at
// t = 0 (an exact static test), else the earliest of the six vertex-face
// and nine edge-edge contacts. A non-finite input gives no contact.
func TriTri(a0, b0, a1, b1 geom.Triangle) (*Time, bool) {
	if !finite(a0[0], a0[1], a0[2], b0[0], b0[1], b0[2], a1[0], a1[1], a1[2], b1[0], b1[1], b1[2]) {
		return nil, false
	}
	var ra, rb [3]rvec
	for i := range 3 {
		ra[i], rb[i] = ratVec(a0[i]), ratVec(b0[i])
	}
	if trianglesMeet(ra, rb) {
		return ratTime(zeroRat()), true
	}
	var best *Time
	keep := func(t *Time, hit bool) {
		if hit && (best == nil || t.Cmp(best) < 0) {
			best = t
		}
	}
	for i := range 3 {
		keep(VertexFace(a0[i], b0[0], b0[1], b0[2], a1[i], b1[0], b1[1], b1[2]))
		keep(VertexFace(b0[i], a0[0], a0[1], a0[2], b1[i], a1[0], a1[1], a1[2]))
		for j := range 3 {
			i2, j2 := (i+1)%3, (j+1)%3
			keep(EdgeEdge(a0[i], a0[i2], b0[j], b0[j2], a1[i], a1[i2], b1[j], b1[j2]))
		}
	}
	return best, best != nil
}

// ContactAt reports, by the exact static tests (independent formulas from
// the continuous ones), whether the query's primitives share a point at
// the rational time t. kind is "vf", "ee" or "tt"; x holds the inputs in
// the order of the functions' parameters: 8 points for "vf" and "ee", 12
// for "tt" (a0, b0, a1, b1).
func ContactAt(kind string, x []geom.Vec3, t *big.Rat) bool {
	at := func(i, j int) rvec { return lerp(ratVec(x[i]), ratVec(x[j]), t) }
	switch kind {
	case "vf":
		return pointInTriangle(at(0, 4), at(1, 5), at(2, 6), at(3, 7))
	case "ee":
		return segmentsMeet(at(0, 4), at(1, 5), at(2, 6), at(3, 7))
	case "tt":
		return trianglesMeet([3]rvec{at(0, 6), at(1, 7), at(2, 8)}, [3]rvec{at(3, 9), at(4, 10), at(5, 11)})
	}
	panic("ratccd: unknown kind " + kind)
}

func zeroRat() *big.Rat { return new(big.Rat) }
func oneRat() *big.Rat  { return big.NewRat(1, 1) }
