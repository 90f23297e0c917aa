package ccd

import "github.com/collide3d/collide/geom"

// This file is the fast path's second way to decide contact at a root of
// f, for the roots where contact's quadratics are exactly zero: a vertex
// that slides through an edge or meets a vertex, a triangle that is a
// segment at that instant. Such ties are not an accident of rounding but
// of the inputs' structure: three of the four points sharing one
// coordinate exactly at every time, or two points sharing two (an
// axis-aligned motion whose positions are symmetric about a coordinate
// plane: a vertical drop at y = 0). They made the fast path give up, and
// the exact path took about a millisecond for each.
//
// At the root t* (isolated in [lo, hi], where f has exactly one root,
// simple), contact is decided by the exact path's own test, static, from
// the signs of the exact path's family at t*, each proven here:
//
//   - the orientation of the four points, f: zero (t* is its root);
//   - a coordinate difference that is zero at t = 0 and at t = 1 (the two
//     input coordinates equal, compared exactly): zero at every time;
//   - for each factorization f = ±L·Q that shape reads from the inputs (L
//     a coordinate difference, linear, Q a projected orientation,
//     quadratic): with L's sign proven at lo and at hi, t* is L's root
//     (opposite signs) or Q's (one sign), never both as the root is
//     simple; the members equal to ±L, or to ±Q, are then zero at t*;
//   - a projected orientation (a[j]·b[l] − a[l]·b[j] of two difference
//     vectors a, b from one of its three points to the two others) each
//     of whose two products has a factor known zero at t* (above): zero;
//   - any other member: the sign of its values over [lo, hi] when proven
//     constant there (a quadratic from its Bernstein coefficients, qsign's
//     bound; a difference from its values at lo and hi, each within 22u of
//     the exact one), else the query goes to the exact path.
//
// Every sign is thus the exact sign at t*, and static's answer the exact
// answer.

// dErr bounds the error of a coordinate difference of two points at a
// time in [0, 1] (each coordinate within 10u of the exact one, the
// difference rounded once, at most 2).
const dErr = 32*u + tiny

// fastSigns gives the family's signs at the root t* in [lo, hi], as
// proven from the points at lo and hi (l, h: point k as a vector from the
// query's reference point). A sign it cannot prove is reported as 0 and
// sets failed.
type fastSigns struct {
	l, h   [4]vec
	zero   uint64 // the members known zero at t*, a bit per id
	failed bool
}

// isZero reports whether member id is known zero at t*.
func (s *fastSigns) isZero(id int) bool { return s.zero&(1<<id) != 0 }

func (s *fastSigns) sign(id int) int {
	switch {
	case id == famO3 || s.isZero(id):
		return 0
	case id >= famD(0, 0):
		i, p := (id-famD(0, 0))/6, (id-famD(0, 0))%6
		a, b := pairs[p][0], pairs[p][1]
		vl, vh := s.l[b][i]-s.l[a][i], s.h[b][i]-s.h[a][i]
		switch {
		case vl > dErr && vh > dErr:
			return 1
		case vl < -dErr && vh < -dErr:
			return -1
		}
		s.failed = true
		return 0
	}
	i, t := (id-1)/4, (id-1)%4
	tr := triples[t]
	if o2Zero(s.zero, i, t) {
		return 0
	}
	l := [2]vec{s.l[tr[1]].sub(s.l[tr[0]]), s.l[tr[2]].sub(s.l[tr[0]])}
	h := [2]vec{s.h[tr[1]].sub(s.h[tr[0]]), s.h[tr[2]].sub(s.h[tr[0]])}
	v := qsign(i, l, h)
	if v == 0 {
		s.failed = true
	}
	return v
}

// o2Zero reports whether the orientation of triple t projected along
// axis i is zero where the coordinate differences that zero records are:
// it is a[j]·b[k] − a[k]·b[j], a = P1 − P0, b = P2 − P0 for the triple's
// points in any cyclic order (the same value), zero if both products
// have a zero factor.
func o2Zero(zero uint64, i, t int) bool {
	z := func(i, a, b int) bool { return zero&(1<<famD(i, pairIndex(a, b))) != 0 }
	tr := triples[t]
	j, k := (i+1)%3, (i+2)%3
	for r := range 3 {
		p0, p1, p2 := tr[r], tr[(r+1)%3], tr[(r+2)%3]
		if (z(j, p0, p1) || z(k, p0, p2)) && (z(k, p0, p1) || z(j, p0, p2)) {
			return true
		}
	}
	return false
}

// pairIndex returns the index in pairs of points a and b (a ≠ b).
func pairIndex(a, b int) int {
	a, b = min(a, b), max(a, b)
	for k, pr := range pairs {
		if pr == [2]int{a, b} {
			return k
		}
	}
	panic("ccd: not a pair")
}

// tripleIndex returns the index in triples of the points other than o.
func tripleIndex(o int) int { return 3 - o }

// factors is a factorization f = ±L·Q read from the query's exact
// structure: L the difference of coordinate axis between points la and
// lb, Q a projected orientation; lZero and qZero are the members zero at
// a root of L and at a root of Q.
type factors struct {
	axis, la, lb int
	lZero, qZero uint64
}

// maxFactors is the most factorizations shape finds: one a coordinate for
// three points sharing it, one a pair of points sharing two coordinates.
const maxFactors = 3 + 6

// shape returns the members zero at every time (the coordinate
// differences whose two input coordinates are equal at t = 0 and at
// t = 1) and the factorizations of f that the query's structure gives:
//
//   - the three points other than o share coordinate i at every time: L
//     the difference of coordinate i between o and any of them, Q their
//     orientation projected along i (expanded about one of the three, the
//     two other difference vectors have no component i); at L's root o
//     shares coordinate i with all three;
//   - points m and n share the two coordinates other than i at every
//     time: L their difference of coordinate i, Q the orientation of m
//     and the other two projected along i, which is that of n and the
//     other two (expanded about m, P_n − P_m has component i only).
func shape(q *[8]geom.Vec3) (zero uint64, fac [maxFactors]factors, n int) {
	for i := range 3 {
		for p, pr := range pairs {
			a, b := pr[0], pr[1]
			if q[a].Index(i) == q[b].Index(i) && q[a+4].Index(i) == q[b+4].Index(i) {
				zero |= 1 << famD(i, p)
			}
		}
	}
	if zero == 0 {
		return 0, fac, 0
	}
	z := func(i, a, b int) bool { return zero&(1<<famD(i, pairIndex(a, b))) != 0 }
	for i := range 3 {
		for o := range 4 {
			tr := triples[tripleIndex(o)]
			if !z(i, tr[0], tr[1]) || !z(i, tr[0], tr[2]) || z(i, o, tr[0]) {
				continue
			}
			f := factors{axis: i, la: o, lb: tr[0], qZero: 1 << famO2(i, tripleIndex(o))}
			for _, m := range tr {
				f.lZero |= 1 << famD(i, pairIndex(o, m))
			}
			fac[n], n = f, n+1
		}
	}
	for i := range 3 {
		j, k := (i+1)%3, (i+2)%3
		for p, pr := range pairs {
			a, b := pr[0], pr[1]
			if !z(j, a, b) || !z(k, a, b) || z(i, a, b) {
				continue
			}
			// Q: the triple without b, with a, and the one without a.
			fac[n] = factors{axis: i, la: a, lb: b, lZero: 1 << famD(i, p),
				qZero: 1<<famO2(i, tripleIndex(b)) | 1<<famO2(i, tripleIndex(a))}
			n++
		}
	}
	return zero, fac, n
}

// staticAt decides contact at the one root of f in [lo, hi] by static
// with proven signs (the file's comment): 1 contact, -1 none, 0 not
// proven.
func (fq *fastQuery) staticAt(lo, hi float64) int {
	var ss famSigns
	s := &ss.fast
	s.l, s.h = fq.points(lo), fq.points(hi)
	zero, fac, n := shape(fq.q)
	s.zero = zero
	// t* is a simple root of f: of exactly one of L and Q in each
	// factorization.
	for _, fc := range fac[:n] {
		i := fc.axis
		ll, lh := s.l[fc.la][i]-s.l[fc.lb][i], s.h[fc.la][i]-s.h[fc.lb][i]
		switch {
		case ll > dErr && lh > dErr, ll < -dErr && lh < -dErr:
			s.zero |= fc.qZero // Q's root
		case ll > dErr && lh < -dErr, ll < -dErr && lh > dErr:
			s.zero |= fc.lZero // L's root
		default:
			return 0
		}
	}
	c := static(&ss, fq.k)
	switch {
	case s.failed:
		return 0
	case c:
		return 1
	}
	return -1
}
