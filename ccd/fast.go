package ccd

import (
	"math"

	"github.com/collide3d/collide/geom"
)

// This file is the float fast path. It decides a query only where every
// sign it needs is proven by an error bound, and otherwise hands it to the
// exact path (exactSolve).
//
// The query's four points are taken relative to a reference point (vf: a,
// ee: p), as three vectors X[0..2] that move linearly: X(t) = X0 + t·(X1 −
// X0), X0 and X1 computed from the inputs with one rounding each. The four
// points are coplanar when f(t) = det(X[0], X[1], X[2]) = 0, a cubic, which
// contact requires. f is computed in Bernstein form on [0, 1] (its
// coefficients are averages of determinants of X0s and X1s, the blossom of
// the determinant) and its roots isolated in time order by de Casteljau
// subdivision: a span whose four coefficients are all proven positive (or
// all negative) has no root; one whose proven signs change once has
// exactly one (Descartes' rule for the Bernstein basis). Each root is
// narrowed by bisection to a span at most MaxWidth wide, and contact at it
// decided by projecting along the axis of the largest normal component:
// vf, the vertex against the three edges; ee, each segment against the
// other's line: quadratics, whose signs are proven constant over the span
// from their own Bernstein coefficients there. Where one of them is zero at
// the root (a vertex sliding through an edge), staticAt (shared.go)
// decides from the exact structure of the inputs; where f is zero at every
// time by structure, parallel and planar (planar.go). Where f(0) or f(1) is
// within its bound, the exact orientation of the inputs there
// (geom.Orient3D) says whether it is a root: contact at 0 and at 1 is then
// decided exactly, and the isolation factors the root out (signsZ). Where
// f's sign at a span's middle is not proven (a root at a dyadic time, as
// on grids), the span is split at 3/8 or 5/8 instead (splitAt).
//
// Error bounds. The vectors are scaled by a power of two so that no
// component exceeds 1; each is then within u = 2^-53 of the exact scaled
// difference (one rounding). A determinant of three such vectors is at most
// 6 in magnitude and its computed value within 49u of the exact one
// (entries' error: 3 × 6 × u; cross then dot product: 31u); an average of
// three within 65u: fErr0 = 128u covers the Bernstein coefficients, and
// each de Casteljau split (three levels of rounded averages of values at
// most 6, each adding at most 6u) adds at most 18u; a split at λ = 3/8 or
// 5/8 (1 − λ exact; each of its three levels rounds two products and a
// sum of values at most 6: 12u) at most 36u = fErrL. f computed directly at
// a time t in [0, 1] from the vectors at t (below) is within 6·3·10u + 31u
// < 256u = fErrAt. The vectors at a time l in [0, 1] (X0 + l·(X1 − X0),
// three roundings of values at most 2) are within 10u of the exact ones;
// differences of two within 22u, at most 2 in magnitude; a 2×2
// determinant of vectors at most 2, each within 22u, is within 4·2·22u +
// 4·4u < 200u of the exact one, and so are the averages of two: qErr =
// 512u covers every quadratic coefficient. Results that underflow add at
// most 2^-1074 each; tiny covers them.

type kind uint8

const (
	vf kind = iota
	ee
)

const (
	u      = 0x1p-53
	fErr0  = 128 * u
	fErrD  = 18 * u
	fErrL  = 36 * u
	fErrAt = 256 * u
	fDDErr = 0x1p-88
	qErr   = 512 * u
	tiny   = 0x1p-1000
	// maxIsolate is the deepest split of [0, 1] isolating f's roots; a
	// span that cannot be decided by then (roots too close together, a
	// tangency, f near zero everywhere) goes to the exact path.
	maxIsolate = 24
)

// solve decides the query q of kind k.
func solve(q *[8]geom.Vec3, k kind) (Interval, bool) {
	for _, v := range q {
		if !v.IsFinite() {
			return none, false
		}
	}
	if sweptApart(q, k) {
		return none, false
	}
	if toi, hit, ok := fast(q, k); ok {
		return toi, hit
	}
	if apart(q, k) {
		return none, false
	}
	exactCalls.Add(1)
	return exactSolve(q, k)
}

// sweptApart reports whether the boxes of the two primitives' positions at
// t = 0 and 1, which contain them at every t, are disjoint.
func sweptApart(q *[8]geom.Vec3, k kind) bool {
	split := 1 // vf: the vertex, then the triangle
	if k == ee {
		split = 2
	}
	for i := range 3 {
		alo, ahi := math.Inf(1), math.Inf(-1)
		blo, bhi := math.Inf(1), math.Inf(-1)
		for j := range 4 {
			x0, x1 := q[j].Index(i), q[j+4].Index(i)
			if j < split {
				alo, ahi = min(alo, x0, x1), max(ahi, x0, x1)
			} else {
				blo, bhi = min(blo, x0, x1), max(bhi, x0, x1)
			}
		}
		if ahi < blo || bhi < alo {
			return true
		}
	}
	return false
}

// apart reports whether a plane of one of a few directions, taken from
// the primitives at t = 0 and t = 1, separates them at every time: for a
// direction d, each pair of points x of one primitive and y of the other
// has d·(y − x) of one proven sign at t = 0 and t = 1, hence in between
// (it is linear in t). It catches most of the queries the fast path gives
// up on (coplanar motion, parallel edges) that are apart, before the
// exact path. The directions: vf, the triangle's normal and its edges'
// normals within its plane; ee, the cross product of the edges, and for
// parallel edges the normal of their plane and the normal of the edges
// within it.
func apart(q *[8]geom.Vec3, k kind) bool {
	var dirs [8]geom.Vec3
	n := 0
	for _, o := range [2]int{0, 4} {
		if k == vf {
			a, b, c := q[o+1], q[o+2], q[o+3]
			nrm := b.Sub(a).Cross(c.Sub(a))
			dirs[n], dirs[n+1], dirs[n+2], dirs[n+3] = nrm, nrm.Cross(b.Sub(a)), nrm.Cross(c.Sub(b)), nrm.Cross(a.Sub(c))
		} else {
			u, v, w := q[o+1].Sub(q[o]), q[o+3].Sub(q[o+2]), q[o+2].Sub(q[o])
			nrm := u.Cross(w)
			dirs[n], dirs[n+1], dirs[n+2], dirs[n+3] = u.Cross(v), nrm, nrm.Cross(u), nrm.Cross(v)
		}
		n += 4
	}
	split := 1
	if k == ee {
		split = 2
	}
	for _, d := range dirs {
		if separates(q, split, d) {
			return true
		}
	}
	return false
}

// separates reports whether d·(y − x) has one proven sign for every point
// x among q's first split points and y among the others, at t = 0 and 1.
// Each y − x is within u·|y − x| of the exact difference (one rounding)
// and the dot product adds at most 3u·m, m = Σ|d_i·(y − x)_i|: 5u·m bounds
// both.
func separates(q *[8]geom.Vec3, split int, d geom.Vec3) bool {
	sign := 0
	for _, o := range [2]int{0, 4} {
		for i := range split {
			for j := split; j < 4; j++ {
				e := q[o+j].Sub(q[o+i])
				v := d.X*e.X + d.Y*e.Y + d.Z*e.Z
				m := math.Abs(d.X*e.X) + math.Abs(d.Y*e.Y) + math.Abs(d.Z*e.Z)
				s := 0
				if v > 5*u*m+tiny {
					s = 1
				} else if v < -(5*u*m + tiny) {
					s = -1
				}
				if s == 0 || sign != 0 && s != sign {
					return false
				}
				sign = s
			}
		}
	}
	return true
}

// vec is a vector as three floats, indexable by axis.
type vec [3]float64

func (a vec) sub(b vec) vec { return vec{a[0] - b[0], a[1] - b[1], a[2] - b[2]} }

func det3(a, b, c vec) float64 {
	return a[0]*(float64(b[1]*c[2])-float64(b[2]*c[1])) +
		a[1]*(float64(b[2]*c[0])-float64(b[0]*c[2])) +
		a[2]*(float64(b[0]*c[1])-float64(b[1]*c[0]))
}

// det2 is the 2×2 determinant of a and b projected along axis i.
func det2(i int, a, b vec) float64 {
	j, k := (i+1)%3, (i+2)%3
	return float64(a[j]*b[k]) - float64(a[k]*b[j])
}

// fastQuery is the state of the fast path for one query.
type fastQuery struct {
	k      kind
	x0, x1 [3]vec // X0 and X1, scaled
	d      [3]vec // X1 − X0
	// Exact X0 and X1 (scaled), for fdd.
	e0, e1 [3][3]dd
	q      *[8]geom.Vec3 // the query, for staticAt
}

// fast decides the query, if every sign it needs is proven: ok false
// hands it to the exact path.
func fast(q *[8]geom.Vec3, k kind) (toi Interval, hit, ok bool) {
	var fq fastQuery
	fq.k, fq.q = k, q
	ref, others := 1, [3]int{0, 2, 3} // vf: p − a, b − a, c − a
	if k == ee {
		ref, others = 0, [3]int{1, 2, 3} // ee: q − p, r − p, s − p
	}
	m := 0.0
	for j, o := range others {
		for i := range 3 {
			a := ddDiff(q[o].Index(i), q[ref].Index(i))
			b := ddDiff(q[o+4].Index(i), q[ref+4].Index(i))
			fq.e0[j][i], fq.e1[j][i] = a, b
			m = max(m, math.Abs(a.hi), math.Abs(b.hi))
		}
	}
	if m == 0 || m > math.MaxFloat64 {
		return none, false, false
	}
	_, e := math.Frexp(m)
	for j := range 3 {
		for i := range 3 {
			fq.e0[j][i] = fq.e0[j][i].ldexp(-e)
			fq.e1[j][i] = fq.e1[j][i].ldexp(-e)
			fq.x0[j][i] = fq.e0[j][i].hi
			fq.x1[j][i] = fq.e1[j][i].hi
			fq.d[j][i] = fq.x1[j][i] - fq.x0[j][i]
		}
	}
	a0, b0, c0 := fq.x0[0], fq.x0[1], fq.x0[2]
	a1, b1, c1 := fq.x1[0], fq.x1[1], fq.x1[2]
	f := [4]float64{
		det3(a0, b0, c0),
		(det3(a1, b0, c0) + det3(a0, b1, c0) + det3(a0, b0, c1)) / 3,
		(det3(a0, b1, c1) + det3(a1, b0, c1) + det3(a1, b1, c0)) / 3,
		det3(a1, b1, c1),
	}
	// Contact at t = 0 needs f(0) = 0. Where f(0) and f(1) are within
	// their bound, their exact signs (geom.Orient3D of the inputs) say
	// whether 0 and 1 are roots: contact at 0 is then decided exactly
	// (endSigns), at 1 after the roots before it, and the isolation
	// factors them out (z0, z1).
	z0, z1 := false, false
	if math.Abs(f[0]) <= fErr0+tiny {
		if toi, hit, ok := fq.parallel(); ok {
			return toi, hit, ok
		}
		if toi, hit, ok := fq.planar(); ok {
			return toi, hit, ok
		}
		if static(&famSigns{atZero: true, end: endSigns{*q}}, k) {
			return Interval{}, true, true
		}
		if geom.Orient3D(q[0], q[1], q[2], q[3]) != 0 {
			return none, false, false
		}
		z0 = true
	}
	if math.Abs(f[3]) <= fErr0+tiny && geom.Orient3D(q[4], q[5], q[6], q[7]) == 0 {
		z1 = true
	}
	// Depth-first over spans of [0, 1], earlier spans first; each span's
	// coefficients within err of the exact ones.
	type span struct {
		f      [4]float64
		lo, hi float64
		err    float64
		depth  int
	}
	var stack [maxIsolate + 2]span
	stack[0] = span{f, 0, 1, fErr0 + tiny, 0}
	n := 1
	for n > 0 {
		n--
		s := stack[n]
		if e0, e1 := z0 && s.lo == 0, z1 && s.hi == 1; e0 || e1 {
			c, left := signsZ(s.f, s.err, e0, e1)
			switch c {
			case 0:
				continue
			case 1:
				toi, hit, ok := fq.rootDD(s.lo, s.hi, left)
				if !ok || hit {
					return toi, hit, ok
				}
				continue
			}
		} else {
			switch signs(s.f, s.err) {
			case 0: // no root
				continue
			case 1: // one root
				toi, hit, ok := fq.root(s.f, s.lo, s.hi, s.err)
				if !ok || hit {
					return toi, hit, ok
				}
				continue
			}
		}
		if s.depth == maxIsolate {
			return none, false, false
		}
		// At the middle, or where f's sign there is not proven (a root at
		// a dyadic time, common on grids) at 3/8 or 5/8 of the span.
		l, r := split(s.f)
		m, err := (s.lo+s.hi)/2, s.err+fErrD
		if math.Abs(l[3]) <= err {
			for _, lam := range [2]float64{0.375, 0.625} {
				l2, r2 := splitAt(s.f, lam)
				if math.Abs(l2[3]) > s.err+fErrL {
					l, r, m, err = l2, r2, s.lo+(s.hi-s.lo)*lam, s.err+fErrL
					break
				}
			}
		}
		stack[n] = span{r, m, s.hi, err, s.depth + 1}
		stack[n+1] = span{l, s.lo, m, err, s.depth + 1}
		n += 2
	}
	if z1 && static(&famSigns{atZero: true, end: endSigns{[8]geom.Vec3{q[4], q[5], q[6], q[7]}}}, k) {
		return Interval{1, 1}, true, true
	}
	return none, false, true
}

// signsZ is signs for a span of f that starts at t = 0 where f(0) = 0
// (e0) or ends at t = 1 where f(1) = 0 (e1), exactly: those roots
// factored out, f is s, 1 − s or s·(1 − s) times a quadratic or a linear
// rest whose Bernstein coefficients are positive multiples of c1, c2, c3
// (e0), c0, c1, c2 (e1) or c1, c2 (both). It returns 0 (no root inside),
// 1 (one root inside, simple, left f's sign just after the start) or 2.
func signsZ(c [4]float64, err float64, e0, e1 bool) (k, left int) {
	r := c[1:]
	switch {
	case e0 && e1:
		r = c[1:3]
	case e1:
		r = c[:3]
	}
	pos, neg := 0, 0
	for _, x := range r {
		if x > err {
			pos++
		} else if x < -err {
			neg++
		}
	}
	switch {
	case pos == len(r) || neg == len(r):
		return 0, 0
	case pos+neg < len(r):
		return 2, 0
	}
	v := 0
	for i := 1; i < len(r); i++ {
		if (r[i] > 0) != (r[i-1] > 0) {
			v++
		}
	}
	if v != 1 {
		return 2, 0
	}
	if r[0] > 0 {
		return 1, 1
	}
	return 1, -1
}

// rootDD is root for a span with an end where f is exactly zero (signsZ):
// f's one root inside is narrowed by bisection on f's proven signs (float
// or double-double; at 3/8 or 5/8 of the span where the middle is too
// close to a root), left its sign just after lo.
func (fq *fastQuery) rootDD(lo, hi float64, left int) (toi Interval, hit, ok bool) {
	for hi-lo > MaxWidth {
		v, m := 0.0, 0.0
		for _, f := range [3]float64{0.5, 0.375, 0.625} {
			if m = lo + (hi-lo)*f; m > lo && m < hi {
				if v = fq.sign(m); v != 0 {
					break
				}
			}
		}
		if v == 0 {
			return none, false, false
		}
		if (v > 0) == (left > 0) {
			lo = m
		} else {
			hi = m
		}
	}
	c := fq.contact(lo, hi)
	if c == 0 {
		c = fq.staticAt(lo, hi)
	}
	switch c {
	case 1:
		return Interval{lo, hi}, true, true
	case -1:
		return none, false, true
	}
	return none, false, false
}

// signs returns 0 if the coefficients c are all proven of one sign (beyond
// err), 1 if all are proven nonzero and change sign once, 2 otherwise.
func signs(c [4]float64, err float64) int {
	pos, neg := 0, 0
	for _, x := range c {
		if x > err {
			pos++
		} else if x < -err {
			neg++
		}
	}
	if pos == 4 || neg == 4 {
		return 0
	}
	if pos+neg < 4 {
		return 2
	}
	v := 0
	for i := 1; i < 4; i++ {
		if (c[i] > 0) != (c[i-1] > 0) {
			v++
		}
	}
	if v == 1 {
		return 1
	}
	return 2
}

// split returns the Bernstein coefficients of the cubic c on the halves of
// its span (de Casteljau at 1/2).
func split(c [4]float64) (l, r [4]float64) {
	a := (c[0] + c[1]) / 2
	b := (c[1] + c[2]) / 2
	d := (c[2] + c[3]) / 2
	e := (a + b) / 2
	g := (b + d) / 2
	h := (e + g) / 2
	return [4]float64{c[0], a, e, h}, [4]float64{h, g, d, c[3]}
}

// splitAt returns the Bernstein coefficients of the cubic c on [0, λ] and
// [λ, 1] of its span (de Casteljau at λ, 1 − λ exact).
func splitAt(c [4]float64, lam float64) (l, r [4]float64) {
	mu := 1 - lam
	a := mu*c[0] + lam*c[1]
	b := mu*c[1] + lam*c[2]
	d := mu*c[2] + lam*c[3]
	e := mu*a + lam*b
	g := mu*b + lam*d
	h := mu*e + lam*g
	return [4]float64{c[0], a, e, h}, [4]float64{h, g, d, c[3]}
}

// root decides contact at the one root of f in [lo, hi] (f's Bernstein
// coefficients there, err their bound). It narrows the
// span to at most MaxWidth around the root, then decides contact there.
func (fq *fastQuery) root(f [4]float64, lo, hi float64, err float64) (toi Interval, hit, ok bool) {
	l, h, ok := fq.newton(f, lo, hi)
	if !ok {
		if l, h, ok = fq.bisect(f, lo, hi, err); !ok {
			return none, false, false
		}
	}
	lo, hi = l, h
	c := fq.contact(lo, hi)
	if c == 0 {
		c = fq.staticAt(lo, hi)
	}
	switch c {
	case 1:
		return Interval{lo, hi}, true, true
	case -1:
		return none, false, true
	}
	return none, false, false
}

// newton narrows [lo, hi], where f (its Bernstein coefficients there) has
// one root and proven signs at both ends, to at most MaxWidth around the
// root: Newton's method from the middle finds it, and f's proven signs at
// MaxWidth/4 on each side bracket it. ok false: not proven.
func (fq *fastQuery) newton(f [4]float64, lo, hi float64) (l, h float64, ok bool) {
	w := hi - lo
	x := 0.5 // in the span's own parameter
	for range 12 {
		v, d := bernstein(f, x)
		if d == 0 {
			return 0, 0, false
		}
		step := v / d
		x = min(max(x-step, 0), 1)
		if math.Abs(step)*w < 0x1p-50 {
			break
		}
	}
	t := lo + x*w
	l, h = max(t-MaxWidth/4, lo), min(t+MaxWidth/4, hi)
	s0 := f[0] > 0
	if l > lo {
		if v := fq.sign(l); v == 0 || (v > 0) != s0 {
			return 0, 0, false
		}
	}
	if h < hi {
		if v := fq.sign(h); v == 0 || (v > 0) == s0 {
			return 0, 0, false
		}
	}
	return l, h, h-l <= MaxWidth
}

// bernstein returns the cubic with Bernstein coefficients c, and its
// derivative, at x in [0, 1].
func bernstein(c [4]float64, x float64) (v, d float64) {
	y := 1 - x
	a0, a1, a2 := c[0]*y+c[1]*x, c[1]*y+c[2]*x, c[2]*y+c[3]*x
	b0, b1 := a0*y+a1*x, a1*y+a2*x
	return b0*y + b1*x, 3 * (b1 - b0)
}

// sign returns f(t) if its sign is proven, in float or else in
// double-double, and 0 otherwise.
func (fq *fastQuery) sign(t float64) float64 {
	if v := fq.f(t); v != 0 {
		return v
	}
	return fq.fdd(t)
}

// bisect narrows [lo, hi] as newton does, by bisection: on the Bernstein
// coefficients while f's sign at the middle is proven by them, then on f
// in double-double.
func (fq *fastQuery) bisect(f [4]float64, lo, hi float64, err float64) (l, h float64, ok bool) {
	s0 := f[0] > 0 // f's sign at lo
	dd := false
	for hi-lo > MaxWidth {
		m := (lo + hi) / 2
		var v float64
		if !dd {
			l, r := split(f)
			err += fErrD
			if v = l[3]; math.Abs(v) > err {
				if (v > 0) == s0 {
					f, lo = r, m
				} else {
					f, hi = l, m
				}
				continue
			}
			dd = true
		}
		if v = fq.fdd(m); v == 0 {
			return 0, 0, false
		}
		if (v > 0) == s0 {
			lo = m
		} else {
			hi = m
		}
	}
	return lo, hi, true
}

// f returns f(t) if its sign is proven (f computed from the vectors at t,
// within fErrAt of the exact value), else 0.
func (fq *fastQuery) f(t float64) float64 {
	var x [3]vec
	for j := range 3 {
		for i := range 3 {
			x[j][i] = fq.x0[j][i] + t*fq.d[j][i]
		}
	}
	v := det3(x[0], x[1], x[2])
	if math.Abs(v) <= fErrAt+tiny {
		return 0
	}
	return v
}

// fdd is f computed in double-double arithmetic from the exact vectors:
// f(t) if its sign is proven, else 0. The vectors at t (exact X0 and X1,
// then three operations of relative error at most 7u² on values at most 2)
// are within 30u² of the exact ones; the determinant (at most 6, each of
// some twenty operations within 7u² of values at most 6), within another
// 2000u²: fDDErr = 2^-88 bounds it with room to spare.
func (fq *fastQuery) fdd(t float64) float64 {
	var x [3][3]dd
	for j := range 3 {
		for i := range 3 {
			x[j][i] = fq.e0[j][i].add(fq.e1[j][i].sub(fq.e0[j][i]).mulf(t))
		}
	}
	v := ddDet3(x[0], x[1], x[2]).hi
	if math.Abs(v) <= fDDErr+tiny {
		return 0
	}
	return v
}

// contact decides contact at a time in [lo, hi] where the four points are
// coplanar, from the signs of quadratics proven constant over the span: 1
// contact, -1 none, 0 not proven.
func (fq *fastQuery) contact(lo, hi float64) int {
	var xl, xh [3]vec
	for j := range 3 {
		for i := range 3 {
			xl[j][i] = fq.x0[j][i] + lo*fq.d[j][i]
			xh[j][i] = fq.x0[j][i] + hi*fq.d[j][i]
		}
	}
	// The projection axis: the largest component of the normal at lo.
	var nl, nh [2]vec // the two vectors whose cross product is the normal
	if fq.k == vf {
		nl, nh = [2]vec{xl[1], xl[2]}, [2]vec{xh[1], xh[2]}
	} else {
		nl, nh = [2]vec{xl[0], xl[2].sub(xl[1])}, [2]vec{xh[0], xh[2].sub(xh[1])}
	}
	ax, best := 0, -1.0
	for i := range 3 {
		if v := math.Abs(det2(i, nl[0], nl[1])); v > best {
			ax, best = i, v
		}
	}
	n := qsign(ax, nl, nh)
	if n == 0 {
		return 0
	}
	if fq.k == vf {
		// U = p − a, V = b − a, W = c − a: the vertex against edges ab, bc, ca.
		u, v, w := 0, 1, 2
		s1 := qsign(ax, [2]vec{xl[v], xl[u]}, [2]vec{xh[v], xh[u]})
		s2 := qsign(ax, [2]vec{xl[w].sub(xl[v]), xl[u].sub(xl[v])}, [2]vec{xh[w].sub(xh[v]), xh[u].sub(xh[v])})
		s3 := qsign(ax, [2]vec{xl[u].sub(xl[w]), xl[w]}, [2]vec{xh[u].sub(xh[w]), xh[w]})
		if s1 == -n || s2 == -n || s3 == -n {
			return -1
		}
		if s1 == n && s2 == n && s3 == n {
			return 1
		}
		return 0
	}
	// U = q − p, V = r − p, W = s − p: r, s against line pq; p, q against line rs.
	u, v, w := 0, 1, 2
	o1 := qsign(ax, [2]vec{xl[u], xl[v]}, [2]vec{xh[u], xh[v]})
	o2 := qsign(ax, [2]vec{xl[u], xl[w]}, [2]vec{xh[u], xh[w]})
	rl, rh := xl[w].sub(xl[v]), xh[w].sub(xh[v])
	o3 := qsign(ax, [2]vec{rl, vec{-xl[v][0], -xl[v][1], -xl[v][2]}}, [2]vec{rh, vec{-xh[v][0], -xh[v][1], -xh[v][2]}})
	o4 := qsign(ax, [2]vec{rl, xl[u].sub(xl[v])}, [2]vec{rh, xh[u].sub(xh[v])})
	if o1*o2 > 0 || o3*o4 > 0 {
		return -1
	}
	if o1*o2 < 0 && o3*o4 < 0 {
		return 1
	}
	return 0
}

// qsign returns the sign of the quadratic det2(ax, A(t), B(t)) over a span,
// A and B moving linearly from l to h, if proven constant, else 0.
func qsign(ax int, l, h [2]vec) int {
	c0 := det2(ax, l[0], l[1])
	c2 := det2(ax, h[0], h[1])
	c1 := (det2(ax, l[0], h[1]) + det2(ax, h[0], l[1])) / 2
	const err = qErr + tiny
	switch {
	case c0 > err && c1 > err && c2 > err:
		return 1
	case c0 < -err && c1 < -err && c2 < -err:
		return -1
	}
	return 0
}

// triTri decides the triangles' query: the static test at t = 0, then the
// earliest of the fifteen feature queries.
func triTri(a0, b0, a1, b1 *geom.Triangle) (Interval, bool) {
	for _, t := range [4]*geom.Triangle{a0, b0, a1, b1} {
		for _, v := range t {
			if !v.IsFinite() {
				return none, false
			}
		}
	}
	if geom.TriTri(*a0, *b0) {
		return Interval{}, true
	}
	best, hit := none, false
	take := func(toi Interval, h bool) {
		if !h {
			return
		}
		if !hit {
			best, hit = toi, true
			return
		}
		best.Lo, best.Hi = min(best.Lo, toi.Lo), min(best.Hi, toi.Hi)
	}
	for i := range 3 {
		take(VertexFace(a0[i], b0[0], b0[1], b0[2], a1[i], b1[0], b1[1], b1[2]))
		take(VertexFace(b0[i], a0[0], a0[1], a0[2], b1[i], a1[0], a1[1], a1[2]))
		for j := range 3 {
			i2, j2 := (i+1)%3, (j+1)%3
			take(EdgeEdge(a0[i], a0[i2], b0[j], b0[j2], a1[i], a1[i2], b1[j], b1[j2]))
		}
	}
	return best, hit
}
