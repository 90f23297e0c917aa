package ccd

import (
	"math"
	"math/big"
	"math/bits"

	"github.com/collide3d/collide/geom"
)

// This file is the exact path: every decision is made with math/big, from
// the float64 inputs as given.
//
// The four points P0..P3 of a query (vf: p, a, b, c; ee: p, q, r, s) move
// as Pk(t) = q[k] + t·(q[k+4] − q[k]). Contact at time t is decided by
// static (vf, ee) from the signs at t of a fixed family of polynomials in
// t: the orientation of the four points (degree ≤ 3), the orientations of
// each three of them projected on each coordinate plane (degree ≤ 2) and
// the differences of their coordinates (degree ≤ 1). On an open interval
// of time where none of these changes sign the answer is constant, and the
// set of contact times is closed, so the earliest contact is at t = 0 or
// at a root of one of them; exactSolve evaluates static at 0 and at these
// roots, earliest first.

// Family member ids: famO3 the orientation of the four points; famO2(i, t)
// the orientation of the triple t (of triples) projected along axis i;
// famD(i, p) the difference along axis i of the pair p (of pairs).
const (
	famO3   = 0
	famSize = 1 + 3*4 + 3*6
)

func famO2(axis, tri int) int { return 1 + axis*4 + tri }
func famD(axis, pair int) int { return 13 + axis*6 + pair }

var (
	triples = [4][3]int{{0, 1, 2}, {0, 1, 3}, {0, 2, 3}, {1, 2, 3}}
	pairs   = [6][2]int{{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}}
)

// signer answers the sign of a family member at the time of evaluation.
type signer interface{ sign(id int) int }

// famSigns is the signer static reads: the exact path's (exact), or the
// fast path's proven signs at a root (fast) or at t = 0 (end, when
// atZero). A concrete type, so that the fast path's stay on the stack (a
// signer interface holding a pointer to them made them escape: an
// allocation per query, and the query's inputs with it).
type famSigns struct {
	exact  signer
	atZero bool
	end    endSigns
	fast   fastSigns
}

func (s *famSigns) sign(id int) int {
	switch {
	case s.exact != nil:
		return s.exact.sign(id)
	case s.atZero:
		return s.end.sign(id)
	}
	return s.fast.sign(id)
}

// o2 returns the sign of the orientation of points a, b, c (any order)
// projected along axis i.
func o2(s *famSigns, i, a, b, c int) int {
	// Sort the triple, counting transpositions.
	sg := 1
	if a > b {
		a, b, sg = b, a, -sg
	}
	if b > c {
		b, c, sg = c, b, -sg
	}
	if a > b {
		a, b, sg = b, a, -sg
	}
	for t, tr := range triples {
		if tr == [3]int{a, b, c} {
			return sg * s.sign(famO2(i, t))
		}
	}
	panic("ccd: repeated point in a triple")
}

// cmpc returns the sign of coordinate i of point b minus that of point a.
func cmpc(s *famSigns, i, a, b int) int {
	sg := 1
	if a > b {
		a, b, sg = b, a, -1
	}
	for k, pr := range pairs {
		if pr == [2]int{a, b} {
			return sg * s.sign(famD(i, k))
		}
	}
	panic("ccd: repeated point in a pair")
}

// static decides contact at one time from the signs s gives: vf, point 0
// in the closed triangle 1, 2, 3; ee, segment 0-1 and segment 2-3.
func static(s *famSigns, k kind) bool {
	if s.sign(famO3) != 0 {
		return false
	}
	if k == vf {
		for i := range 3 {
			n := o2(s, i, 1, 2, 3)
			if n == 0 {
				continue
			}
			return o2(s, i, 1, 2, 0)*n >= 0 && o2(s, i, 2, 3, 0)*n >= 0 && o2(s, i, 3, 1, 0)*n >= 0
		}
		// The triangle is a segment or a point: its hull is the union of
		// the segments between its vertices.
		return onSeg(s, 0, 1, 2) || onSeg(s, 0, 2, 3) || onSeg(s, 0, 3, 1)
	}
	for i := range 3 {
		if o2(s, i, 0, 1, 2) != 0 || o2(s, i, 0, 1, 3) != 0 || o2(s, i, 2, 3, 0) != 0 || o2(s, i, 2, 3, 1) != 0 {
			// Coplanar, not all on a line: the projection along i is one
			// to one on their plane.
			return o2(s, i, 0, 1, 2)*o2(s, i, 0, 1, 3) <= 0 && o2(s, i, 2, 3, 0)*o2(s, i, 2, 3, 1) <= 0
		}
	}
	// All four on a line: the segments meet iff their coordinate ranges
	// overlap on every axis.
	for i := range 3 {
		if below(s, i, 0, 1, 2, 3) || below(s, i, 2, 3, 0, 1) {
			return false
		}
	}
	return true
}

// below reports whether both points a, b are below both points c, d along
// axis i.
func below(s *famSigns, i, a, b, c, d int) bool {
	return cmpc(s, i, a, c) > 0 && cmpc(s, i, a, d) > 0 && cmpc(s, i, b, c) > 0 && cmpc(s, i, b, d) > 0
}

// onSeg reports whether point x is on the closed segment yz (a point if
// y = z).
func onSeg(s *famSigns, x, y, z int) bool {
	for i := range 3 {
		if o2(s, i, y, z, x) != 0 {
			return false
		}
	}
	for i := range 3 {
		if cmpc(s, i, y, x)*cmpc(s, i, z, x) > 0 {
			return false
		}
	}
	return true
}

// exactSolve decides the query q of kind k exactly.
func exactSolve(q *[8]geom.Vec3, k kind) (Interval, bool) {
	fam := family(q)
	if static(&famSigns{exact: &dyadSigns{fam: fam, t: dyadInt(0)}}, k) {
		return Interval{}, true
	}
	var roots []*algebraic
	for _, id := range critical(fam, k) {
		roots = append(roots, isolate(fam[id])...)
	}
	// The contact times among the roots, each narrowed to 2^-52: the
	// earliest lies in [smallest lo, smallest hi].
	var best *algebraic
	for _, r := range roots {
		if best != nil && r.lo.cmp(best.hi) >= 0 && !r.exact {
			continue // later than a contact already found
		}
		if !static(&famSigns{exact: &algSigns{fam: fam, at: r}}, k) {
			continue
		}
		r.refine(52)
		if best == nil {
			best = &algebraic{lo: r.lo, hi: r.hi}
			continue
		}
		if r.lo.cmp(best.lo) < 0 {
			best.lo = r.lo
		}
		if r.hi.cmp(best.hi) < 0 {
			best.hi = r.hi
		}
	}
	if best == nil {
		return none, false
	}
	return Interval{floorFloat(best.lo), ceilFloat(best.hi)}, true
}

// critical returns the members of the family whose roots are the only
// times, besides 0, where contact can begin:
//
//   - the orientation of the four points, if it is not zero: contact needs
//     it to be 0, at its roots only;
//   - else (coplanar at every time), the orientations of the four triples
//     projected along the first axis where one is not zero: between their
//     roots the projection is one to one on the common plane and their
//     signs decide contact (vf: the triangle's own orientation is one of
//     them; ee: at a time when all four are zero, a root, static decides);
//   - else (vf: a segment or a point at every time; ee: all on a line), the
//     whole family.
func critical(fam []*member, k kind) []int {
	if !fam[famO3].p.zero() {
		return []int{famO3}
	}
	for i := range 3 {
		ids := []int{famO2(i, 0), famO2(i, 1), famO2(i, 2), famO2(i, 3)}
		if k == vf && !fam[famO2(i, 3)].p.zero() {
			return ids
		}
		if k == ee && !(fam[ids[0]].p.zero() && fam[ids[1]].p.zero() && fam[ids[2]].p.zero() && fam[ids[3]].p.zero()) {
			return ids
		}
	}
	var ids []int
	for id, g := range fam {
		if !g.p.zero() {
			ids = append(ids, id)
		}
	}
	return ids
}

// member is a polynomial of the family, with its Sturm sequence once
// needed.
type member struct {
	p  zpoly
	st []zpoly
}

// sturm returns the Sturm sequence of p's squarefree part (p of degree at
// least 1).
func (g *member) sturm() []zpoly {
	if g.st == nil {
		h := g.p.squarefree()
		g.st = remSeq(h, h.deriv())
	}
	return g.st
}

// family returns the family's polynomials for the query q, its
// coordinates scaled by one power of two to integers (which changes no
// sign and no time).
func family(q *[8]geom.Vec3) []*member {
	// x = m·2^(e−53), m an integer of 53 bits: scale every coordinate by
	// 2^S, S = −min(e − 53 + the trailing zeros of m), to make them
	// integers.
	lowest := math.MaxInt
	for _, v := range q {
		for i := range 3 {
			if x := v.Index(i); x != 0 {
				fr, e := math.Frexp(x)
				m := uint64(math.Abs(math.Ldexp(fr, 53)))
				lowest = min(lowest, e-53+bits.TrailingZeros64(m))
			}
		}
	}
	intOf := func(x float64) *big.Int {
		if x == 0 {
			return new(big.Int)
		}
		fr, e := math.Frexp(x)
		n := big.NewInt(int64(math.Ldexp(fr, 53)))
		if k := e - 53 - lowest; k >= 0 {
			return n.Lsh(n, uint(k))
		} else {
			return n.Rsh(n, uint(-k)) // exact: m ends in at least −k zeros
		}
	}
	var pts [4][3]zpoly
	for k := range 4 {
		for i := range 3 {
			a := intOf(q[k].Index(i))
			b := intOf(q[k+4].Index(i))
			pts[k][i] = zpoly{a, new(big.Int).Sub(b, a)}.trim()
		}
	}
	fam := make([]*member, famSize)
	sub := func(a, b [3]zpoly) [3]zpoly { return [3]zpoly{a[0].sub(b[0]), a[1].sub(b[1]), a[2].sub(b[2])} }
	u, v, w := sub(pts[1], pts[0]), sub(pts[2], pts[0]), sub(pts[3], pts[0])
	fam[famO3] = &member{p: u[0].mul(v[1].mul(w[2]).sub(v[2].mul(w[1]))).
		add(u[1].mul(v[2].mul(w[0]).sub(v[0].mul(w[2])))).
		add(u[2].mul(v[0].mul(w[1]).sub(v[1].mul(w[0]))))}
	for i := range 3 {
		j, l := (i+1)%3, (i+2)%3
		for t, tr := range triples {
			a, b := sub(pts[tr[1]], pts[tr[0]]), sub(pts[tr[2]], pts[tr[0]])
			fam[famO2(i, t)] = &member{p: a[j].mul(b[l]).sub(a[l].mul(b[j]))}
		}
		for p, pr := range pairs {
			fam[famD(i, p)] = &member{p: pts[pr[1]][i].sub(pts[pr[0]][i])}
		}
	}
	return fam
}

// dyadSigns gives the signs of the family at a dyadic time t.
type dyadSigns struct {
	fam []*member
	t   dyad
}

func (s *dyadSigns) sign(id int) int { return s.fam[id].p.signAt(s.t) }

// algSigns gives the signs of the family at an algebraic time, each
// computed once.
type algSigns struct {
	fam  []*member
	at   *algebraic
	memo [famSize]int8 // sign + 2 once known
}

func (s *algSigns) sign(id int) int {
	if s.memo[id] == 0 {
		s.memo[id] = int8(s.at.signOf(s.fam[id]) + 2)
	}
	return int(s.memo[id]) - 2
}

// algebraic is a real number in [0, 1]: the dyadic lo when exact, else
// the one root of the squarefree polynomial h in the open interval
// (lo, hi), at whose ends h is not zero (slo its sign at lo).
type algebraic struct {
	exact  bool
	h      zpoly
	slo    int
	lo, hi dyad
}

// isolate returns the distinct roots of g (not zero) in (0, 1].
func isolate(g *member) []*algebraic {
	if g.p.degree() < 1 {
		return nil
	}
	h := g.p.squarefree()
	var out []*algebraic
	// Roots at 0 and 1 are factored out: the ends of the search must not
	// be roots.
	zero, one := dyadInt(0), dyadInt(1)
	if h.signAt(zero) == 0 {
		h = h.divLinear(zero)
	}
	if h.signAt(one) == 0 {
		out = append(out, &algebraic{exact: true, lo: one, hi: one})
		h = h.divLinear(one)
	}
	type span struct{ lo, hi dyad }
	work := []span{{zero, one}}
	st := remSeq(h, h.deriv())
	for len(work) > 0 && h.degree() > 0 {
		sp := work[len(work)-1]
		work = work[:len(work)-1]
		n := variations(st, sp.lo) - variations(st, sp.hi)
		switch {
		case n == 0:
		case n == 1:
			out = append(out, &algebraic{h: h, slo: h.signAt(sp.lo), lo: sp.lo, hi: sp.hi})
		default:
			m := mid(sp.lo, sp.hi)
			if h.signAt(m) == 0 {
				out = append(out, &algebraic{exact: true, lo: m, hi: m})
				h = h.divLinear(m)
				st = remSeq(h, h.deriv())
				// The other roots are in the same span: search it again
				// (m is no longer a root of h).
				for i := range out {
					if !out[i].exact {
						out[i].h = h
						out[i].slo = h.signAt(out[i].lo)
					}
				}
				work = append(work, sp)
				continue
			}
			work = append(work, span{m, sp.hi}, span{sp.lo, m})
		}
	}
	return out
}

// refine narrows a's interval to at most 2^-bits wide.
func (a *algebraic) refine(bits uint) {
	lim := dyad{big.NewInt(1), bits}
	for !a.exact && a.hi.sub(a.lo).cmp(lim) > 0 {
		a.bisect()
	}
}

// bisect halves a's interval (or makes a exact, if the middle is its root).
func (a *algebraic) bisect() {
	m := mid(a.lo, a.hi)
	s := a.h.signAt(m)
	switch {
	case s == 0:
		a.exact, a.lo, a.hi = true, m, m
	case s == a.slo:
		a.lo = m
	default:
		a.hi = m
	}
}

// signOf returns the sign of g at a.
func (a *algebraic) signOf(g *member) int {
	if a.exact {
		return g.p.signAt(a.lo)
	}
	switch g.p.degree() {
	case -1:
		return 0
	case 0:
		return g.p[0].Sign()
	}
	// No root of g in [lo, hi]: its sign there is a's.
	if sl, sh := g.p.signAt(a.lo), g.p.signAt(a.hi); sl == sh && sl != 0 {
		if st := g.sturm(); variations(st, a.lo) == variations(st, a.hi) {
			return sl
		}
	}
	// Else the Sturm–Tarski query of g on (lo, hi), where h has the one
	// root a: the variations of the signed remainder sequence of h and
	// h′·g at lo less those at hi are the sign of g(a). No narrowing:
	// roots of g and h can be closer than 2^-4000 when the coordinates
	// mix float64 extremes.
	s := remSeq(a.h, a.h.deriv().mul(g.p))
	return variations(s, a.lo) - variations(s, a.hi)
}
