package ccd

import (
	"math"

	"github.com/collide3d/collide/geom"
)

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
			s.zero |= s.productRoot(zero, fc.qZero)
		case ll > dErr && lh < -dErr, ll < -dErr && lh > dErr:
			s.zero |= fc.lZero // L's root
		default:
			return 0
		}
	}
	s.zero |= fq.sameRoot(s.zero, zero)
	s.zero = closure(s.zero)
	c := static(&ss, fq.k)
	switch {
	case s.failed:
		return 0
	case c:
		return 1
	}
	return -1
}

// productRoot returns the coordinate differences zero at t* when it is a
// root of a factor Q of f (its members in qZero) that is, at every time
// (by the differences zero records), a product of two coordinate
// differences D1·D2 (an orientation one of whose two products has a zero
// factor): then D1 and D2 divide f, and t*, f's one root in [lo, hi], is
// the root of D1 if D1's signs at lo and hi differ, else of D2 if D1's
// are one sign.
func (s *fastSigns) productRoot(zero, qZero uint64) uint64 {
	z := func(i, a, b int) bool { return zero&(1<<famD(i, pairIndex(a, b))) != 0 }
	for i := range 3 {
		for t := range 4 {
			if qZero&(1<<famO2(i, t)) == 0 {
				continue
			}
			tr := triples[t]
			j, k := (i+1)%3, (i+2)%3
			for r := range 3 {
				p0, p1, p2 := tr[r], tr[(r+1)%3], tr[(r+2)%3]
				// a[j]·b[k] − a[k]·b[j], a = P1 − P0, b = P2 − P0.
				var d1, d2 [3]int // axis, from, to
				switch {
				case z(k, p0, p1) || z(j, p0, p2): // a[j]·b[k] alone
					d1, d2 = [3]int{j, p0, p1}, [3]int{k, p0, p2}
				case z(j, p0, p1) || z(k, p0, p2): // a[k]·b[j] alone
					d1, d2 = [3]int{k, p0, p1}, [3]int{j, p0, p2}
				default:
					continue
				}
				if z(d1[0], d1[1], d1[2]) || z(d2[0], d2[1], d2[2]) {
					continue // zero at every time: no information
				}
				vl := s.l[d1[2]][d1[0]] - s.l[d1[1]][d1[0]]
				vh := s.h[d1[2]][d1[0]] - s.h[d1[1]][d1[0]]
				switch {
				case vl > dErr && vh > dErr, vl < -dErr && vh < -dErr:
					return 1 << famD(d2[0], pairIndex(d2[1], d2[2]))
				case vl > dErr && vh < -dErr, vl < -dErr && vh > dErr:
					return 1 << famD(d1[0], pairIndex(d1[1], d1[2]))
				}
			}
		}
	}
	return 0
}

// closure returns zero with, on each axis, every difference between two
// points joined by differences known zero.
func closure(zero uint64) uint64 {
	for i := range 3 {
		for range 2 {
			for p, pr := range pairs {
				for q, qr := range pairs {
					if p == q || zero&(1<<famD(i, p)) == 0 || zero&(1<<famD(i, q)) == 0 {
						continue
					}
					// Pairs sharing a point give the pair of their other ends.
					a, b, c, d := pr[0], pr[1], qr[0], qr[1]
					var x, y int
					switch {
					case a == c:
						x, y = b, d
					case a == d:
						x, y = b, c
					case b == c:
						x, y = a, d
					case b == d:
						x, y = a, c
					default:
						continue
					}
					if x != y {
						zero |= 1 << famD(i, pairIndex(x, y))
					}
				}
			}
		}
	}
	return zero
}

// sameRoot returns the coordinate differences zero at t* found from one
// that is (known, not zero at every time: ident): t* is then the root of
// that linear polynomial D, and another E is zero there exactly when
// d0·e1 − d1·e0 = 0 (their values at t = 0 and 1), an orientation of
// exact floats (when the differences of the inputs are).
func (fq *fastQuery) sameRoot(known, ident uint64) uint64 {
	diff := func(id, end int) (float64, bool) {
		i, p := (id-famD(0, 0))/6, (id-famD(0, 0))%6
		a, b := fq.q[pairs[p][0]+end].Index(i), fq.q[pairs[p][1]+end].Index(i)
		d := ddDiff(b, a)
		return d.hi, d.lo == 0 && !math.IsInf(d.hi, 0)
	}
	for id := famD(0, 0); id < famSize; id++ {
		if known&^ident&(1<<id) == 0 {
			continue
		}
		d0, ok0 := diff(id, 0)
		d1, ok1 := diff(id, 4)
		if !ok0 || !ok1 {
			continue
		}
		var out uint64
		for e := famD(0, 0); e < famSize; e++ {
			if known&(1<<e) != 0 {
				continue
			}
			e0, ok0 := diff(e, 0)
			e1, ok1 := diff(e, 4)
			if ok0 && ok1 && geom.Orient2D(0, 0, d0, d1, e0, e1) == 0 {
				out |= 1 << e
			}
		}
		return out
	}
	return 0
}
