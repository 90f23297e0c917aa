package ccd

import (
	"math"

	"github.com/collide3d/collide/geom"
)

// This file is the fast path for a query whose four points stay coplanar
// by the structure of its inputs (flat): all four in one plane x_i = c(t)
// normal to an axis (their coordinates i equal at t = 0, and at t = 1,
// compared exactly), as when a drop whose positions are symmetric about
// y = 0 meets the features that lie in y = 0; or two pairs of them on
// lines along one axis, as two edges along an axis passing each other.
// Then f is zero at every time and the fast path gave up; the exact path
// (critical) decides from the roots of the orientations of the four
// triples projected along an axis that does not lie in their plane,
// quadratics: contact can begin only at t = 0 or at one of their roots.
// So does this path, in float with proven bounds: static at t = 0 from the
// exact signs of the inputs (endSigns), then the roots of the four
// quadratics in time order, each isolated alone in a span, narrowed to
// MaxWidth, and decided by static with fastSigns (shared.go), the
// quadratic known zero there. Roots it cannot separate or prove (two
// quadratics sharing a root, a root at a span's end) hand the query to
// the exact path.

// planar decides the query if its points stay coplanar by structure and
// every sign it needs is proven: ok false hands it to the exact path.
func (fq *fastQuery) planar() (toi Interval, hit, ok bool) {
	zero, _, _ := shape(fq.q)
	if !flat(zero) {
		return none, false, false
	}
	// The axis to project along, as critical chooses: vf, the triangle's
	// own orientation is not zero at every time; ee, one of the four is
	// not (a Bernstein coefficient on [0, 1] proven nonzero). The
	// members zero at every time by structure are left out: they have no
	// root, and fastSigns knows them zero.
	axis, use := -1, [4]bool{}
	p0, p1 := fq.points(0), fq.points(1)
	for a := range 3 {
		var u [4]bool
		valid := false
		for t := range 4 {
			if o2Zero(zero, a, t) {
				continue
			}
			u[t] = true
			c := qcoef(a, triplePair(triples[t], &p0), triplePair(triples[t], &p1))
			nonzero := false
			for _, x := range c {
				nonzero = nonzero || math.Abs(x) > qErr+tiny
			}
			if nonzero && (fq.k == ee || t == 3) {
				valid = true
			}
		}
		if valid {
			axis, use = a, u
			break
		}
	}
	if axis < 0 {
		return none, false, false
	}
	if static(&famSigns{atZero: true, end: endSigns{*fq.q}}, fq.k) {
		return Interval{}, true, true
	}
	// The members' exact signs at 0 and 1: a member zero there has that
	// end as a root, known (t = 0 is decided above, t = 1 below).
	var s0, s1 [4]int
	end1 := endSigns{[8]geom.Vec3{fq.q[4], fq.q[5], fq.q[6], fq.q[7]}}
	e0 := endSigns{*fq.q}
	for t := range 4 {
		if use[t] {
			s0[t], s1[t] = e0.sign(famO2(axis, t)), end1.sign(famO2(axis, t))
		}
	}
	type span struct {
		lo, hi float64
		depth  int
	}
	var stack [maxIsolate + 2]span
	stack[0] = span{0, 1, 0}
	n := 1
	for n > 0 {
		n--
		s := stack[n]
		pl, ph := fq.points(s.lo), fq.points(s.hi)
		root, roots, unknown, apart, left := 0, 0, false, false, 0
		for t := range 4 {
			if !use[t] {
				continue
			}
			c := qcoef(axis, triplePair(triples[t], &pl), triplePair(triples[t], &ph))
			k, l := qrootsIn(c, s.lo == 0 && s0[t] == 0, s.hi == 1 && s1[t] == 0)
			switch k {
			case 0:
				apart = true
			case 1:
				root, roots, left = t, roots+1, l
			case 2:
				unknown = true
			}
		}
		switch {
		case !unknown && roots == 0:
			continue
		case !unknown && roots == 1:
			lo, hi, ok := fq.narrow(axis, root, s.lo, s.hi, left)
			if !ok {
				return none, false, false
			}
			z := zero | 1<<famO2(axis, root)
			if apart {
				// Another member along axis is nonzero at the root: three
				// of the points span the common plane, which projects one
				// to one along axis, so the root's triple is on a line:
				// its orientation along every axis is zero.
				z |= 1<<famO2(0, root) | 1<<famO2(1, root) | 1<<famO2(2, root)
			}
			s := famSigns{fast: fastSigns{l: fq.points(lo), h: fq.points(hi), zero: z}}
			c := static(&s, fq.k)
			if s.fast.failed {
				return none, false, false
			}
			if c {
				return Interval{lo, hi}, true, true
			}
			continue
		}
		if s.depth == maxIsolate {
			return none, false, false
		}
		m, ok := fq.splitAt(axis, &use, s.lo, s.hi)
		if !ok {
			return none, false, false
		}
		stack[n] = span{m, s.hi, s.depth + 1}
		stack[n+1] = span{s.lo, m, s.depth + 1}
		n += 2
	}
	// No contact before 1: at 1 exactly.
	if static(&famSigns{atZero: true, end: end1}, fq.k) {
		return Interval{1, 1}, true, true
	}
	return none, false, true
}

// splitAt returns a time inside (lo, hi) where every member used along
// axis has a proven sign, so that no span ends at a root: the middle, or
// else a point at 3/8 or 5/8 of the span (roots at dyadic times are
// common where coordinates are on a grid).
func (fq *fastQuery) splitAt(axis int, use *[4]bool, lo, hi float64) (float64, bool) {
next:
	for _, f := range [3]float64{0.5, 0.375, 0.625} {
		m := lo + (hi-lo)*f
		if m <= lo || m >= hi {
			continue
		}
		p := fq.points(m)
		for t := range 4 {
			if !use[t] {
				continue
			}
			ab := triplePair(triples[t], &p)
			if math.Abs(det2(axis, ab[0], ab[1])) <= qErr+tiny {
				continue next
			}
		}
		return m, true
	}
	return 0, false
}

// qrootsIn is qroots for a span whose ends may be known roots of the
// quadratic (z0: its start is t = 0 and the quadratic is zero there,
// exactly; z1: its end is t = 1, likewise): the known root factored out,
// the rest is linear. It returns 0 (no root inside), 1 (one root, simple,
// inside; left the quadratic's sign just after the start), or 2 (not
// proven).
func qrootsIn(c [3]float64, z0, z1 bool) (k, left int) {
	const err = qErr + tiny
	sg := func(x float64) int {
		switch {
		case x > err:
			return 1
		case x < -err:
			return -1
		}
		return 0
	}
	var a, b int // the linear rest's signs at the span's ends
	switch {
	case z0 && z1:
		// c1·2s(1 − s): one sign inside.
		if sg(c[1]) != 0 {
			return 0, 0
		}
		return 2, 0
	case z0: // s·(2c1(1 − s) + c2·s)
		a, b = sg(c[1]), sg(c[2])
	case z1: // (1 − s)·(c0(1 − s) + 2c1·s)
		a, b = sg(c[0]), sg(c[1])
	default:
		k := qroots(c)
		return k, sg(c[0])
	}
	switch {
	case a == 0 || b == 0:
		return 2, 0
	case a == b:
		return 0, 0
	}
	return 1, a
}

// flat reports whether the query's four points are coplanar at every time
// by the structure zero records (the coordinate differences zero at every
// time): all four share a coordinate, or two disjoint pairs each share
// the same two coordinates (each pair on a line along the third axis: two
// parallel lines, or one, are in a plane).
func flat(zero uint64) bool {
	z := func(i, p int) bool { return zero&(1<<famD(i, p)) != 0 }
	for i := range 3 {
		all := true
		for p := range pairs {
			all = all && z(i, p)
		}
		if all {
			return true
		}
		j, k := (i+1)%3, (i+2)%3
		for p := range 3 { // pairs p and 5 − p are disjoint
			q := 5 - p
			if z(j, p) && z(k, p) && z(j, q) && z(k, q) {
				return true
			}
		}
	}
	return false
}

// narrow narrows [lo, hi], where the projected orientation of triple t
// along axis has one root (inside) and sign left just after lo, to at
// most MaxWidth around the root, by bisection on its proven signs (in
// float, else in double-double; at 3/8 or 5/8 of the span where the
// middle is too close to the root).
func (fq *fastQuery) narrow(axis, t int, lo, hi float64, left int) (l, h float64, ok bool) {
	for hi-lo > MaxWidth {
		v := 0.0
		var m float64
		for _, f := range [3]float64{0.5, 0.375, 0.625} {
			if m = lo + (hi-lo)*f; m <= lo || m >= hi {
				continue
			}
			pm := fq.points(m)
			ab := triplePair(triples[t], &pm)
			if v = det2(axis, ab[0], ab[1]); math.Abs(v) > qErr+tiny {
				break
			}
			if v = fq.qdd(axis, t, m); v != 0 {
				break
			}
		}
		if v == 0 {
			return 0, 0, false
		}
		if (v > 0) == (left > 0) {
			lo = m
		} else {
			hi = m
		}
	}
	return lo, hi, true
}

// qdd is the projected orientation of triple t along axis at time m in
// [0, 1], computed in double-double from the exact vectors (as fdd): its
// value if its sign is proven, else 0. The vectors at m are within 30u²
// of the exact ones (fdd), their differences (at most 2) within 70u², and
// the 2×2 determinant (products at most 4) within 700u² < fDDErr.
func (fq *fastQuery) qdd(axis, t int, m float64) float64 {
	var p [4][3]dd
	for j := range 3 {
		for i := range 3 {
			p[j+1][i] = fq.e0[j][i].add(fq.e1[j][i].sub(fq.e0[j][i]).mulf(m))
		}
	}
	if fq.k == vf {
		p[0], p[1] = p[1], p[0]
	}
	tr := triples[t]
	j, k := (axis+1)%3, (axis+2)%3
	a0, a1 := p[tr[1]][j].sub(p[tr[0]][j]), p[tr[1]][k].sub(p[tr[0]][k])
	b0, b1 := p[tr[2]][j].sub(p[tr[0]][j]), p[tr[2]][k].sub(p[tr[0]][k])
	v := a0.mul(b1).sub(a1.mul(b0)).hi
	if math.Abs(v) <= fDDErr+tiny {
		return 0
	}
	return v
}

// points returns the query's four points at time t in [0, 1], as vectors
// from its reference point, each coordinate within 10u of the exact one.
func (fq *fastQuery) points(t float64) (p [4]vec) {
	for j := range 3 {
		for i := range 3 {
			p[j+1][i] = fq.x0[j][i] + t*fq.d[j][i]
		}
	}
	if fq.k == vf {
		// X = p − a, b − a, c − a: the points p, a, b, c are X0, 0, X1, X2.
		p[0], p[1] = p[1], p[0]
	}
	return p
}

// triplePair returns the differences P1 − P0 and P2 − P0 of the triple
// tr's points, whose projected orientation is the family member.
func triplePair(tr [3]int, p *[4]vec) [2]vec {
	return [2]vec{p[tr[1]].sub(p[tr[0]]), p[tr[2]].sub(p[tr[0]])}
}

// qcoef returns the Bernstein coefficients over a span of the quadratic
// det2(ax, A(t), B(t)), A and B moving linearly from l to h: each within
// qErr of the exact one when l and h are as points computes them.
func qcoef(ax int, l, h [2]vec) [3]float64 {
	return [3]float64{
		det2(ax, l[0], l[1]),
		(det2(ax, l[0], h[1]) + det2(ax, h[0], l[1])) / 2,
		det2(ax, h[0], h[1]),
	}
}

// qroots returns 0 if the quadratic's coefficients c are proven of one
// sign (no root in its span), 1 if proven nonzero and changing sign once
// (one root, simple), 2 otherwise.
func qroots(c [3]float64) int {
	const err = qErr + tiny
	pos, neg := 0, 0
	for _, x := range c {
		if x > err {
			pos++
		} else if x < -err {
			neg++
		}
	}
	switch {
	case pos == 3 || neg == 3:
		return 0
	case pos+neg == 3 && (c[0] > 0) != (c[2] > 0):
		return 1
	}
	return 2
}

// endSigns gives the family's signs at t = 0 exactly, from the inputs
// (geom's exact orientation predicates).
type endSigns struct{ q [8]geom.Vec3 }

func (s *endSigns) sign(id int) int {
	q := &s.q
	switch {
	case id == famO3:
		return geom.Orient3D(q[0], q[1], q[2], q[3])
	case id >= famD(0, 0):
		i, p := (id-famD(0, 0))/6, (id-famD(0, 0))%6
		a, b := q[pairs[p][0]].Index(i), q[pairs[p][1]].Index(i)
		switch {
		case b > a:
			return 1
		case b < a:
			return -1
		}
		return 0
	}
	i, t := (id-1)/4, (id-1)%4
	j, k := (i+1)%3, (i+2)%3
	a, b, c := q[triples[t][0]], q[triples[t][1]], q[triples[t][2]]
	return geom.Orient2D(a.Index(j), a.Index(k), b.Index(j), b.Index(k), c.Index(j), c.Index(k))
}

// parallel decides an edge-edge query whose edges are parallel at every
// time, by structure: both along one axis (each edge's ends share the two
// other coordinates), or each moving without turning or stretching (its
// end-to-end vector the same at t = 0 and 1, exactly) with those vectors
// parallel, exactly. Such edges can touch only when their lines coincide,
// r on the line pq: every orientation of p, q, r projected along an axis
// zero. Where at every time one of them has a proven sign (spans of
// [0, 1], qsign), the edges never touch; else (the lines meet, or an edge
// is a point) ok is false.
func (fq *fastQuery) parallel() (toi Interval, hit, ok bool) {
	if fq.k != ee || !fq.parallelEdges() {
		return none, false, false
	}
	type span struct {
		lo, hi float64
		depth  int
	}
	var stack [maxIsolate + 2]span
	stack[0] = span{0, 1, 0}
	n := 1
	for n > 0 {
		n--
		s := stack[n]
		pl, ph := fq.points(s.lo), fq.points(s.hi)
		l, h := triplePair(triples[0], &pl), triplePair(triples[0], &ph)
		if qsign(0, l, h) != 0 || qsign(1, l, h) != 0 || qsign(2, l, h) != 0 {
			continue
		}
		if s.depth == maxIsolate {
			return none, false, false
		}
		m := (s.lo + s.hi) / 2
		stack[n] = span{m, s.hi, s.depth + 1}
		stack[n+1] = span{s.lo, m, s.depth + 1}
		n += 2
	}
	return none, false, true
}

// parallelEdges reports whether the edges pq and rs are parallel at every
// time, by parallel's structures.
func (fq *fastQuery) parallelEdges() bool {
	q := fq.q
	same := func(a, b int, i int) bool {
		return q[a].Index(i) == q[b].Index(i) && q[a+4].Index(i) == q[b+4].Index(i)
	}
	for i := range 3 {
		j, k := (i+1)%3, (i+2)%3
		if same(0, 1, j) && same(0, 1, k) && same(2, 3, j) && same(2, 3, k) {
			return true
		}
	}
	// u = q − p and v = s − r, the same at both ends and exact as floats.
	var u, v [3]float64
	for i := range 3 {
		u0, u1 := ddDiff(q[1].Index(i), q[0].Index(i)), ddDiff(q[5].Index(i), q[4].Index(i))
		v0, v1 := ddDiff(q[3].Index(i), q[2].Index(i)), ddDiff(q[7].Index(i), q[6].Index(i))
		if u0 != u1 || v0 != v1 || u0.lo != 0 || v0.lo != 0 {
			return false
		}
		u[i], v[i] = u0.hi, v0.hi
	}
	for i := range 3 {
		j, k := (i+1)%3, (i+2)%3
		if geom.Orient2D(0, 0, u[j], u[k], v[j], v[k]) != 0 {
			return false
		}
	}
	return true
}
