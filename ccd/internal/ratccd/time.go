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
	v := g.z.value(hi)
	w := new(big.Rat).Sub(hi, lo)
	w.Mul(w, g.dz)
	if new(big.Rat).Abs(v).Cmp(w) > 0 {
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
	m := new(big.Rat).Add(a, b)
	m.Mul(m, big.NewRat(1, 2))
	vm := variations(seq, m)
	out = isolate(q, seq, a, m, va, vm, out)
	return isolate(q, seq, m, b, vm, vb, out)
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
