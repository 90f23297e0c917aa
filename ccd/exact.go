package ccd

import (
	"math"
	"math/big"

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

// o2 returns the sign of the orientation of points a, b, c (any order)
// projected along axis i.
func o2(s signer, i, a, b, c int) int {
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
func cmpc(s signer, i, a, b int) int {
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
func static(s signer, k kind) bool {
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
func below(s signer, i, a, b, c, d int) bool {
	return cmpc(s, i, a, c) > 0 && cmpc(s, i, a, d) > 0 && cmpc(s, i, b, c) > 0 && cmpc(s, i, b, d) > 0
}

// onSeg reports whether point x is on the closed segment yz (a point if
// y = z).
func onSeg(s signer, x, y, z int) bool {
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
	at0 := &ratSigns{fam: fam, t: new(big.Rat)}
	if static(at0, k) {
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
		if !static(&algSigns{fam: fam, at: r}, k) {
			continue
		}
		r.refine(0x1p-52)
		if best == nil {
			best = &algebraic{lo: r.lo, hi: r.hi}
			continue
		}
		if r.lo.Cmp(best.lo) < 0 {
			best.lo = r.lo
		}
		if r.hi.Cmp(best.hi) < 0 {
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
func critical(fam []poly, k kind) []int {
	if !fam[famO3].zero() {
		return []int{famO3}
	}
	for i := range 3 {
		ids := []int{famO2(i, 0), famO2(i, 1), famO2(i, 2), famO2(i, 3)}
		if k == vf && !fam[famO2(i, 3)].zero() {
			return ids
		}
		if k == ee && !(fam[ids[0]].zero() && fam[ids[1]].zero() && fam[ids[2]].zero() && fam[ids[3]].zero()) {
			return ids
		}
	}
	var ids []int
	for id, g := range fam {
		if !g.zero() {
			ids = append(ids, id)
		}
	}
	return ids
}

// family returns the family's polynomials for the query q.
func family(q *[8]geom.Vec3) []poly {
	var pts [4][3]poly
	for k := range 4 {
		for i := range 3 {
			a := ratOf(q[k].Index(i))
			b := ratOf(q[k+4].Index(i))
			pts[k][i] = poly{a, new(big.Rat).Sub(b, a)}.trim()
		}
	}
	fam := make([]poly, famSize)
	sub := func(a, b [3]poly) [3]poly { return [3]poly{a[0].sub(b[0]), a[1].sub(b[1]), a[2].sub(b[2])} }
	u, v, w := sub(pts[1], pts[0]), sub(pts[2], pts[0]), sub(pts[3], pts[0])
	fam[famO3] = u[0].mul(v[1].mul(w[2]).sub(v[2].mul(w[1]))).
		add(u[1].mul(v[2].mul(w[0]).sub(v[0].mul(w[2])))).
		add(u[2].mul(v[0].mul(w[1]).sub(v[1].mul(w[0]))))
	for i := range 3 {
		j, l := (i+1)%3, (i+2)%3
		for t, tr := range triples {
			a, b := sub(pts[tr[1]], pts[tr[0]]), sub(pts[tr[2]], pts[tr[0]])
			fam[famO2(i, t)] = a[j].mul(b[l]).sub(a[l].mul(b[j]))
		}
		for p, pr := range pairs {
			fam[famD(i, p)] = pts[pr[1]][i].sub(pts[pr[0]][i])
		}
	}
	return fam
}

// ratSigns gives the signs of the family at a rational time t.
type ratSigns struct {
	fam []poly
	t   *big.Rat
}

func (s *ratSigns) sign(id int) int { return s.fam[id].eval(s.t).Sign() }

// algSigns gives the signs of the family at an algebraic time.
type algSigns struct {
	fam []poly
	at  *algebraic
}

func (s *algSigns) sign(id int) int { return s.at.signOf(s.fam[id]) }

// algebraic is a real number in [0, 1]: the rational lo when exact, else
// the one root of the squarefree polynomial h in the open interval
// (lo, hi), at whose ends h is not zero.
type algebraic struct {
	exact  bool
	h      poly
	lo, hi *big.Rat
}

// isolate returns the distinct roots of g (not zero) in (0, 1].
func isolate(g poly) []*algebraic {
	h := g.squarefree()
	var out []*algebraic
	// Roots at 0 and 1 are factored out: the ends of the search must not
	// be roots.
	zero, one := new(big.Rat), big.NewRat(1, 1)
	if h.eval(zero).Sign() == 0 {
		h = h.divLinear(zero)
	}
	if h.eval(one).Sign() == 0 {
		out = append(out, &algebraic{exact: true, lo: one, hi: one})
		h = h.divLinear(one)
	}
	type span struct{ lo, hi *big.Rat }
	work := []span{{zero, one}}
	for len(work) > 0 && h.degree() > 0 {
		sp := work[len(work)-1]
		work = work[:len(work)-1]
		st := h.sturm()
		n := variations(st, sp.lo) - variations(st, sp.hi)
		switch {
		case n == 0:
		case n == 1:
			out = append(out, &algebraic{h: h, lo: sp.lo, hi: sp.hi})
		default:
			m := mid(sp.lo, sp.hi)
			if h.eval(m).Sign() == 0 {
				out = append(out, &algebraic{exact: true, lo: m, hi: m})
				h = h.divLinear(m)
				// The other roots are in the same span: search it again
				// (m is no longer a root of h).
				for i := range out {
					if !out[i].exact {
						out[i].h = h
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

// refine narrows a's interval to at most w wide.
func (a *algebraic) refine(w float64) {
	if a.exact {
		return
	}
	width := new(big.Rat)
	lim := new(big.Rat).SetFloat64(w)
	for width.Sub(a.hi, a.lo).Cmp(lim) > 0 {
		a.bisect()
	}
}

// bisect halves a's interval (or makes a exact, if the middle is its root).
func (a *algebraic) bisect() {
	m := mid(a.lo, a.hi)
	s := a.h.eval(m).Sign()
	switch {
	case s == 0:
		a.exact, a.lo, a.hi = true, m, m
	case s == a.h.eval(a.lo).Sign():
		a.lo = m
	default:
		a.hi = m
	}
}

// signOf returns the sign of g at a.
func (a *algebraic) signOf(g poly) int {
	if a.exact {
		return g.eval(a.lo).Sign()
	}
	if g.zero() {
		return 0
	}
	// g vanishes at a iff it shares a's factor of h: the gcd (squarefree,
	// as a divisor of h) changes sign across a's interval.
	if d := gcd(g, a.h); d.degree() > 0 && d.eval(a.lo).Sign()*d.eval(a.hi).Sign() < 0 {
		return 0
	}
	// Otherwise narrow the interval until g has no root in it.
	st := g.squarefree().sturm()
	for {
		sl, sh := g.eval(a.lo).Sign(), g.eval(a.hi).Sign()
		if sl != 0 && sh != 0 && variations(st, a.lo) == variations(st, a.hi) {
			return sh
		}
		a.bisect()
		if a.exact {
			return g.eval(a.lo).Sign()
		}
	}
}

func mid(a, b *big.Rat) *big.Rat {
	m := new(big.Rat).Add(a, b)
	return m.Mul(m, big.NewRat(1, 2))
}

// floorFloat returns the largest float64 ≤ r, ceilFloat the smallest ≥ r.
func floorFloat(r *big.Rat) float64 {
	f, _ := r.Float64()
	if new(big.Rat).SetFloat64(f).Cmp(r) > 0 {
		f = math.Nextafter(f, math.Inf(-1))
	}
	return f
}

func ceilFloat(r *big.Rat) float64 {
	f, _ := r.Float64()
	if new(big.Rat).SetFloat64(f).Cmp(r) < 0 {
		f = math.Nextafter(f, math.Inf(1))
	}
	return f
}

func ratOf(x float64) *big.Rat { return new(big.Rat).SetFloat64(x) }
