package ratccd

import (
	"fmt"
	"math"
	"math/big"
	"sort"
)

// Time is a real algebraic number in [0, 1], the time of a contact: either
// a rational number, or the only root of a squarefree polynomial p in the
// open interval (lo, hi), where p(lo) and p(hi) are nonzero with opposite
// signs. Comparing a Time narrows its interval in place, so a Time is not
// safe for concurrent use.
type Time struct {
	r      *big.Rat // the value when known rational, else nil
	p      poly     // squarefree, with one root in (lo, hi)
	pz     zpoly    // p with integer coefficients
	pf     *fpoly   // p as a contact test's polynomial, once needed
	lo, hi *big.Rat
	slo    int // the sign of p at lo
}

// ratTime returns the rational time r.
func ratTime(r *big.Rat) *Time { return &Time{r: new(big.Rat).Set(r)} }

// Rat returns t's value and true when t is known to be rational (0, 1, a
// rational root met while isolating, or a root of a linear polynomial);
// otherwise nil and false, though t may still be rational.
func (t *Time) Rat() (*big.Rat, bool) {
	if t.r != nil {
		return new(big.Rat).Set(t.r), true
	}
	return nil, false
}

// IsZero reports whether t = 0.
func (t *Time) IsZero() bool { return t.CmpRat(new(big.Rat)) == 0 }

// refine halves t's interval (or finds t rational).
func (t *Time) refine() {
	if t.r != nil {
		return
	}
	m := new(big.Rat).Add(t.lo, t.hi)
	m.Mul(m, big.NewRat(1, 2))
	switch s := t.pz.signAt(m); {
	case s == 0:
		t.r, t.lo, t.hi = m, m, m
	case s == t.slo:
		t.lo = m
	default:
		t.hi = m
	}
}

// Bounds returns rational lo ≤ t ≤ hi with hi − lo ≤ w (w > 0).
func (t *Time) Bounds(w *big.Rat) (lo, hi *big.Rat) {
	if t.r != nil {
		return new(big.Rat).Set(t.r), new(big.Rat).Set(t.r)
	}
	for {
		if d := new(big.Rat).Sub(t.hi, t.lo); d.Cmp(w) <= 0 || t.r != nil {
			break
		}
		t.refine()
	}
	if t.r != nil {
		return new(big.Rat).Set(t.r), new(big.Rat).Set(t.r)
	}
	return new(big.Rat).Set(t.lo), new(big.Rat).Set(t.hi)
}

// Float64 returns a float64 within 2^-60 of t.
func (t *Time) Float64() float64 {
	lo, hi := t.Bounds(new(big.Rat).SetFrac(big.NewInt(1), new(big.Int).Lsh(big.NewInt(1), 60)))
	f, _ := lo.Add(lo, hi).Mul(lo, big.NewRat(1, 2)).Float64()
	return f
}

// CmpRat returns the sign of t − x.
func (t *Time) CmpRat(x *big.Rat) int {
	if t.r != nil {
		return t.r.Cmp(x)
	}
	if x.Cmp(t.lo) <= 0 {
		return 1
	}
	if x.Cmp(t.hi) >= 0 {
		return -1
	}
	s := t.pz.signAt(x)
	switch {
	case s == 0:
		t.r, t.lo, t.hi = new(big.Rat).Set(x), new(big.Rat).Set(x), new(big.Rat).Set(x)
		return 0
	case s == t.slo: // the root is in (x, hi)
		t.lo = new(big.Rat).Set(x)
		return 1
	default:
		t.hi = new(big.Rat).Set(x)
		return -1
	}
}

// In reports whether lo ≤ t ≤ hi, exactly (false when lo or hi is NaN).
func (t *Time) In(lo, hi float64) bool {
	if math.IsNaN(lo) || math.IsNaN(hi) {
		return false
	}
	if !math.IsInf(lo, -1) && (math.IsInf(lo, 1) || t.CmpRat(new(big.Rat).SetFloat64(lo)) < 0) {
		return false
	}
	if !math.IsInf(hi, 1) && (math.IsInf(hi, -1) || t.CmpRat(new(big.Rat).SetFloat64(hi)) > 0) {
		return false
	}
	return true
}

// Cmp returns the sign of t − u.
func (t *Time) Cmp(u *Time) int {
	if t.r != nil {
		return -u.CmpRat(t.r)
	}
	if u.r != nil {
		return t.CmpRat(u.r)
	}
	for range 8 { // cheap first: narrow both while they overlap
		switch {
		case t.r != nil:
			return -u.CmpRat(t.r)
		case u.r != nil:
			return t.CmpRat(u.r)
		case t.hi.Cmp(u.lo) <= 0:
			return -1
		case u.hi.Cmp(t.lo) <= 0:
			return 1
		}
		t.refine()
		u.refine()
	}
	// Exactly, without narrowing further (distinct roots can be closer
	// than 2^-4000 when the coordinates mix float64 extremes): where is t
	// against u's interval (lo, hi), and if inside it, on which side of u,
	// the one root of u's polynomial there, by that polynomial's sign at t.
	if t.CmpRat(u.lo) <= 0 {
		return -1
	}
	if t.CmpRat(u.hi) >= 0 {
		return 1
	}
	if t.r != nil {
		return -u.CmpRat(t.r)
	}
	if u.pf == nil {
		u.pf = newFpoly(u.p)
	}
	switch s := t.sign(u.pf); {
	case s == 0:
		return 0
	case s == u.slo: // t in (lo, u)
		return -1
	default:
		return 1
	}
}

// fpoly is a polynomial of a contact test, with its integer form and,
// once needed, the Sturm sequence of its squarefree part.
type fpoly struct {
	p   poly
	z   zpoly
	dz  *big.Rat // Σ i·|z_i|, a bound on |z′| over [0, 1]
	sq  poly     // the squarefree part of p, once needed
	seq []zpoly  // its Sturm sequence, once needed
}

func newFpoly(p poly) *fpoly {
	z := integral(p)
	d := new(big.Int)
	for i, c := range z {
		d.Add(d, new(big.Int).Mul(big.NewInt(int64(i)), new(big.Int).Abs(c)))
	}
	return &fpoly{p: p, z: z, dz: new(big.Rat).SetInt(d)}
}

// sturm returns the squarefree part of g and its Sturm sequence (g of
// degree at least 1).
func (g *fpoly) sturm() (poly, []zpoly) {
	if g.seq == nil {
		g.sq = squarefree(g.p)
		g.seq = sturm(g.sq)
	}
	return g.sq, g.seq
}

// quickSign returns the sign of g on [lo, hi] ⊂ [0, 1] when the mean
// value theorem proves it constant there (|g(hi)| > max|g′|·(hi − lo)),
// else 0.
func (g *fpoly) quickSign(lo, hi *big.Rat) int {
	// In integers (a big.Rat result would be reduced by a gcd of numbers
	// of thousands of bits): with hi = n/d and D = d^deg, |g(hi)| > dz·w
	// iff |g(hi)·D|·den(w) > dz·num(w)·D, g(hi)·D = Σ g_i·n^i·d^(deg−i).
	z := g.z
	if len(z) == 0 {
		return 0
	}
	v, dp := z.scaledAt(hi)
	w := new(big.Rat).Sub(hi, lo)
	left := new(big.Int).Abs(v)
	left.Mul(left, w.Denom())
	right := new(big.Int).Mul(g.dz.Num(), w.Num())
	right.Mul(right, dp)
	if left.Cmp(right) > 0 {
		return v.Sign()
	}
	return 0
}

// sign returns the sign of g(t).
func (t *Time) sign(g *fpoly) int {
	if t.r != nil {
		return g.z.signAt(t.r)
	}
	switch g.p.deg() {
	case -1:
		return 0
	case 0:
		return g.p[0].Sign()
	}
	for range 8 { // cheap first: narrow t while g is not proven constant
		if t.r != nil {
			return g.z.signAt(t.r)
		}
		if s := g.quickSign(t.lo, t.hi); s != 0 {
			return s
		}
		t.refine()
	}
	// The Sturm–Tarski query of g on (lo, hi), where p has the one root
	// t and no root at either end: the variations of the signed remainder
	// sequence of p and p′·g at lo less those at hi are the sign of g(t).
	// (Narrowing t until g has no root near it can take thousands of
	// steps when the coordinates mix float64 extremes.)
	if t.r != nil {
		return g.z.signAt(t.r)
	}
	// No root of g in (lo, hi] (its own Sturm sequence, computed once for
	// every time it is read at): its sign at t is its sign at hi.
	if _, gs := g.sturm(); variations(gs, t.lo) == variations(gs, t.hi) {
		return g.z.signAt(t.hi)
	}
	seq := tarski(t.pz, zmul(zderiv(t.pz), g.z))
	return variations(seq, t.lo) - variations(seq, t.hi)
}

// String formats t briefly: the fraction when t is a known rational of
// at most 40 digits, else a decimal approximation (within 2^-60) and how
// t is defined. Exact returns the full description.
func (t *Time) String() string {
	if t.r != nil {
		if r := t.r.RatString(); len(r) <= 40 {
			return r
		}
		return fmt.Sprintf("%.17g (rational)", t.Float64())
	}
	return fmt.Sprintf("%.17g (a root of a degree-%d polynomial)", t.Float64(), t.p.deg())
}

// Exact formats t exactly: the fraction, or the polynomial and the
// interval that isolates t among its roots.
func (t *Time) Exact() string {
	if t.r != nil {
		return t.r.RatString()
	}
	return fmt.Sprintf("the root of %v in (%s, %s)", t.p, t.lo.RatString(), t.hi.RatString())
}

// roots returns the distinct roots of p in [0, 1], in increasing order (none
// when p is constant).
func roots(p poly) []*Time { return newFpoly(p).roots() }

// roots returns the distinct roots of g in [0, 1], in increasing order
// (none when g is constant).
func (g *fpoly) roots() []*Time {
	if g.p.deg() <= 0 {
		return nil
	}
	zero, one := new(big.Rat), big.NewRat(1, 1)
	q, seq := g.sturm()
	var out []*Time
	if q.deg() == 1 { // −q0/q1, rational
		r := new(big.Rat).Neg(q[0])
		r.Quo(r, q[1])
		if r.Sign() >= 0 && r.Cmp(one) <= 0 {
			out = append(out, ratTime(r))
		}
		return out
	}
	if q[0].Sign() == 0 {
		out = append(out, ratTime(zero))
	}
	return isolate(q, seq, zero, one, variations(seq, zero), variations(seq, one), out)
}

// isolate appends to out, in increasing order, the roots of the
// squarefree q in (a, b], which number va − vb, the difference of the
// Sturm variations at a and b.
func isolate(q poly, seq []zpoly, a, b *big.Rat, va, vb int, out []*Time) []*Time {
	n := va - vb
	if n == 0 {
		return out
	}
	if n == 1 {
		sb := seq[0].signAt(b)
		if sb == 0 {
			return append(out, ratTime(b))
		}
		if sa := seq[0].signAt(a); sa != 0 {
			return append(out, &Time{p: q, pz: seq[0], lo: a, hi: b, slo: sa})
		}
	}
	if n >= 2 {
		// Roots that crowd near an end (times like 2^-2000 when the
		// coordinates mix float64 extremes) are reached in a few dozen
		// steps, not by halving thousands of times.
		if p, vp, ok := crowd(seq, a, b, va, vb, 1); ok {
			return isolate(q, seq, a, p, va, vp, out)
		}
		if p, vp, ok := crowd(seq, a, b, va, vb, -1); ok {
			return isolate(q, seq, p, b, vp, vb, out)
		}
		// Two roots close together inside: the root of the sequence's
		// linear member is near them (an exact double root would be
		// that member's root): look for both in small intervals about it.
		if lo, hi, vl, vh, ok := pair(seq, a, b, va, vb); ok {
			return isolate(q, seq, lo, hi, vl, vh, out)
		}
	}
	m := new(big.Rat).Add(a, b)
	m.Mul(m, big.NewRat(1, 2))
	vm := variations(seq, m)
	out = isolate(q, seq, a, m, va, vm, out)
	return isolate(q, seq, m, b, vm, vb, out)
}

// pair looks, when (a, b] holds two roots, for an interval (c − d, c + d]
// that holds both, c the root of the sequence's linear member and
// d = (b − a)/2^k with k ≥ 2 as large as it finds (doubling, then halving
// the gap). It returns the interval and the variations at its ends.
func pair(seq []zpoly, a, b *big.Rat, va, vb int) (lo, hi *big.Rat, vl, vh int, ok bool) {
	if va-vb != 2 {
		return nil, nil, 0, 0, false
	}
	for _, c := range centres(seq) {
		if c.Cmp(a) <= 0 || c.Cmp(b) >= 0 {
			continue
		}
		if lo, hi, vl, vh, ok = pairAbout(seq, a, b, c); ok {
			return lo, hi, vl, vh, true
		}
	}
	return nil, nil, 0, 0, false
}

// centres returns the real roots of the sequence's members of degree 1
// and 2 (the latter rounded), where clusters of roots of its first member
// lie: q ≈ (t − c)²·s near a pair of close roots makes the last members
// of the sequence close to multiples of t − c.
func centres(seq []zpoly) []*big.Rat {
	var out []*big.Rat
	for _, p := range seq {
		switch len(p) {
		case 2:
			out = append(out, new(big.Rat).SetFrac(new(big.Int).Neg(p[0]), p[1]))
		case 3:
			// (−b ± √(b² − 4ac)) / 2a in big.Float.
			prec := uint(64 + 2*max(p[0].BitLen(), p[1].BitLen(), p[2].BitLen()))
			disc := new(big.Int).Mul(p[1], p[1])
			disc.Sub(disc, new(big.Int).Mul(big.NewInt(4), new(big.Int).Mul(p[0], p[2])))
			if disc.Sign() < 0 {
				continue
			}
			sq := new(big.Float).SetPrec(prec).SetInt(disc)
			sq.Sqrt(sq)
			two := new(big.Float).SetPrec(prec).SetInt(new(big.Int).Mul(big.NewInt(2), p[2]))
			for _, sg := range []float64{1, -1} {
				x := new(big.Float).SetPrec(prec).SetInt(new(big.Int).Neg(p[1]))
				y := new(big.Float).SetPrec(prec).Mul(sq, big.NewFloat(sg))
				x.Add(x, y)
				x.Quo(x, two)
				if r, _ := x.Rat(nil); r != nil {
					out = append(out, r)
				}
			}
		}
	}
	return out
}

// pairAbout is pair about the centre c.
func pairAbout(seq []zpoly, a, b, c *big.Rat) (lo, hi *big.Rat, vl, vh int, ok bool) {
	w := new(big.Rat).Sub(b, a)
	at := func(k int) (l, h *big.Rat, v1, v2 int, in bool) {
		d := new(big.Rat).SetFrac(big.NewInt(1), new(big.Int).Lsh(big.NewInt(1), uint(k)))
		d.Mul(d, w)
		// c rounded down to a multiple of 2^-e, within d/8 (c's own
		// denominator is huge; evaluating at it would be slow).
		e := uint(k + w.Denom().BitLen() + 3)
		n := new(big.Int).Lsh(c.Num(), e)
		n.Div(n, c.Denom())
		cr := new(big.Rat).SetFrac(n, new(big.Int).Lsh(big.NewInt(1), e))
		l, h = new(big.Rat).Sub(cr, d), new(big.Rat).Add(cr, d)
		if l.Cmp(a) <= 0 || h.Cmp(b) > 0 {
			return l, h, 0, 0, false
		}
		v1, v2 = variations(seq, l), variations(seq, h)
		return l, h, v1, v2, v1-v2 == 2
	}
	good, bad := 0, 0
	for k := 2; k <= 1<<14; k *= 2 {
		l, h, v1, v2, in := at(k)
		if !in {
			bad = k
			break
		}
		good, lo, hi, vl, vh = k, l, h, v1, v2
	}
	if good == 0 {
		return nil, nil, 0, 0, false
	}
	for bad > good+1 {
		k := (good + bad) / 2
		if l, h, v1, v2, in := at(k); in {
			good, lo, hi, vl, vh = k, l, h, v1, v2
		} else {
			bad = k
		}
	}
	return lo, hi, vl, vh, true
}

// crowd looks for a point p = a + (b − a)/2^k (dir 1) or b − (b − a)/2^k
// (dir -1), k ≥ 2 as large as it finds, such that every root of the
// sequence's first member in (a, b] lies in (a, p] (dir 1) or (p, b]: it
// doubles k while that holds, then halves the gap to the first k where it
// does not. It returns p and the variations there.
func crowd(seq []zpoly, a, b *big.Rat, va, vb, dir int) (*big.Rat, int, bool) {
	n := va - vb
	w := new(big.Rat).Sub(b, a)
	at := func(k int) (*big.Rat, int) {
		d := new(big.Rat).SetFrac(big.NewInt(1), new(big.Int).Lsh(big.NewInt(1), uint(k)))
		d.Mul(d, w)
		if dir > 0 {
			d.Add(a, d)
		} else {
			d.Sub(b, d)
		}
		return d, variations(seq, d)
	}
	holds := func(v int) bool {
		if dir > 0 {
			return va-v == n
		}
		return v-vb == n
	}
	good, bad := 0, 0
	var gp *big.Rat
	gv := 0
	for k := 2; k <= 1<<14; k *= 2 {
		p, v := at(k)
		if !holds(v) {
			bad = k
			break
		}
		good, gp, gv = k, p, v
	}
	if good == 0 {
		return nil, 0, false
	}
	for bad > good+1 {
		k := (good + bad) / 2
		if p, v := at(k); holds(v) {
			good, gp, gv = k, p, v
		} else {
			bad = k
		}
	}
	return gp, gv, true
}

// sortTimes sorts ts in increasing order and drops duplicates.
func sortTimes(ts []*Time) []*Time {
	sort.SliceStable(ts, func(i, j int) bool { return ts[i].Cmp(ts[j]) < 0 })
	out := ts[:0]
	for _, t := range ts {
		if len(out) > 0 && out[len(out)-1].Cmp(t) == 0 {
			continue
		}
		out = append(out, t)
	}
	return out
}
