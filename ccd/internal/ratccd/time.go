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
	switch s := signAt(t.p, m); {
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
	s := signAt(t.p, x)
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
	// Equal when t is a root of u's polynomial lying in u's interval.
	if t.sign(u.p) == 0 && t.CmpRat(u.lo) > 0 && t.CmpRat(u.hi) < 0 {
		return 0
	}
	for {
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
}

// sign returns the sign of g(t).
func (t *Time) sign(g poly) int {
	if t.r != nil {
		return signAt(g, t.r)
	}
	if g.deg() <= 0 {
		return signAt(g, t.lo)
	}
	// g(t) = 0 iff t is a root of gcd(p, g): the only root of p in
	// (lo, hi), a simple one, so iff that gcd changes sign on it.
	if c := gcd(t.p, g); c.deg() >= 1 && signAt(c, t.lo) != signAt(c, t.hi) {
		return 0
	}
	seq := sturm(squarefree(g))
	for {
		if t.r != nil {
			return signAt(g, t.r)
		}
		// No root of g in (lo, hi]: its sign at t is its sign at hi.
		if variations(seq, t.lo) == variations(seq, t.hi) {
			return signAt(g, t.hi)
		}
		t.refine()
	}
}

// String formats t exactly, with a decimal approximation.
func (t *Time) String() string {
	if t.r != nil {
		f, _ := t.r.Float64()
		return fmt.Sprintf("%s (%.17g)", t.r.RatString(), f)
	}
	return fmt.Sprintf("root of %v in (%s, %s) (≈%.17g)", t.p, t.lo.RatString(), t.hi.RatString(), t.Float64())
}

// roots returns the distinct roots of p in [0, 1], in increasing order (none
// when p is constant).
func roots(p poly) []*Time {
	if p.deg() <= 0 {
		return nil
	}
	zero, one := new(big.Rat), big.NewRat(1, 1)
	q := squarefree(p)
	var out []*Time
	if q.deg() == 1 { // −q0/q1, rational
		r := new(big.Rat).Neg(q[0])
		r.Quo(r, q[1])
		if r.Sign() >= 0 && r.Cmp(one) <= 0 {
			out = append(out, ratTime(r))
		}
		return out
	}
	if signAt(q, zero) == 0 {
		out = append(out, ratTime(zero))
	}
	seq := sturm(q)
	return isolate(q, seq, zero, one, variations(seq, zero), variations(seq, one), out)
}

// isolate appends to out, in increasing order, the roots of the
// squarefree q in (a, b], which number va − vb, the difference of the
// Sturm variations at a and b.
func isolate(q poly, seq []poly, a, b *big.Rat, va, vb int, out []*Time) []*Time {
	n := va - vb
	if n == 0 {
		return out
	}
	if n == 1 {
		sb := signAt(q, b)
		if sb == 0 {
			return append(out, ratTime(b))
		}
		if sa := signAt(q, a); sa != 0 {
			return append(out, &Time{p: q, lo: a, hi: b, slo: sa})
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
