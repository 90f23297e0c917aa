package geom_test

// TriTriContact against an exact rational oracle (math/big.Rat): the shared
// set of two closed triangles is computed by clipping one triangle with the
// constraints (planes and half-spaces) that define the other, its vertices
// are the extreme points of what remains, and their features, the kind and
// the orders are decided by rational arithmetic, independently of the
// predicates geom uses.

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"sync/atomic"
	"testing"

	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/internal/longtest"
	"github.com/collide3d/collide/internal/testgeom"
)

// qv is a point or vector with rational coordinates.
type qv [3]*big.Rat

func qvOf(p geom.Vec3) qv { return qv{rat(p.X), rat(p.Y), rat(p.Z)} }

func (v qv) sub(w qv) qv {
	return qv{new(big.Rat).Sub(v[0], w[0]), new(big.Rat).Sub(v[1], w[1]), new(big.Rat).Sub(v[2], w[2])}
}

func (v qv) add(w qv) qv {
	return qv{new(big.Rat).Add(v[0], w[0]), new(big.Rat).Add(v[1], w[1]), new(big.Rat).Add(v[2], w[2])}
}

func (v qv) scale(s *big.Rat) qv {
	return qv{new(big.Rat).Mul(v[0], s), new(big.Rat).Mul(v[1], s), new(big.Rat).Mul(v[2], s)}
}

func (v qv) dot(w qv) *big.Rat {
	s := new(big.Rat)
	for i := range 3 {
		s.Add(s, new(big.Rat).Mul(v[i], w[i]))
	}
	return s
}

func (v qv) cross(w qv) qv {
	m := func(a, b, c, d *big.Rat) *big.Rat { return new(big.Rat).Sub(mul(a, b), mul(c, d)) }
	return qv{m(v[1], w[2], v[2], w[1]), m(v[2], w[0], v[0], w[2]), m(v[0], w[1], v[1], w[0])}
}

func (v qv) eq(w qv) bool { return v[0].Cmp(w[0]) == 0 && v[1].Cmp(w[1]) == 0 && v[2].Cmp(w[2]) == 0 }

func (v qv) zero() bool { return v[0].Sign() == 0 && v[1].Sign() == 0 && v[2].Sign() == 0 }

func (v qv) float() geom.Vec3 {
	x, _ := v[0].Float64()
	y, _ := v[1].Float64()
	z, _ := v[2].Float64()
	return geom.V(x, y, z)
}

// qUnit returns v/|v| in float64, accurate to a few ulps: v is scaled by a
// power of two so that its largest component is near 1, then rounded.
func qUnit(v qv) geom.Vec3 {
	top, found := 0, false
	for _, x := range v {
		if x.Sign() != 0 {
			e := new(big.Float).SetPrec(200).SetRat(x).MantExp(nil)
			if !found || e > top {
				top, found = e, true
			}
		}
	}
	if !found {
		return geom.Vec3{}
	}
	var f [3]float64
	for i, x := range v {
		b := new(big.Float).SetPrec(200).SetRat(x)
		b.SetMantExp(b, -top)
		f[i], _ = b.Float64()
	}
	return geom.V(f[0], f[1], f[2]).Unit()
}

// qHalf is {x : n·x ≥ c}.
type qHalf struct {
	n qv
	c *big.Rat
}

// oracleTri is a triangle in rationals with its kind: proper (normal n ≠
// 0), a segment with extreme vertices lo, hi, or a point.
type qTri struct {
	v      [3]qv
	n      qv
	proper bool
	point  bool
	lo, hi int
}

func newQTri(t geom.Triangle) qTri {
	var r qTri
	for i := range 3 {
		r.v[i] = qvOf(t[i])
	}
	r.n = r.v[1].sub(r.v[0]).cross(r.v[2].sub(r.v[0]))
	r.proper = !r.n.zero()
	if !r.proper {
		// The extremes: the farthest pair, each the lowest-indexed of
		// the vertices equal to it.
		best := new(big.Rat).SetInt64(-1)
		for i := range 3 {
			for j := i + 1; j < 3; j++ {
				d := r.v[j].sub(r.v[i])
				if l := d.dot(d); l.Cmp(best) > 0 {
					best, r.lo, r.hi = l, i, j
				}
			}
		}
		for i := range 3 {
			if r.v[i].eq(r.v[r.lo]) {
				r.lo = i
				break
			}
		}
		for i := range 3 {
			if r.v[i].eq(r.v[r.hi]) {
				r.hi = i
				break
			}
		}
		r.point = best.Sign() == 0
	}
	return r
}

// constraints returns the half-spaces whose intersection is the triangle
// (a plane n·x = c is the two half-spaces n·x ≥ c and −n·x ≥ −c).
func (r *qTri) constraints() []qHalf {
	var hs []qHalf
	plane := func(n qv, p qv) {
		c := n.dot(p)
		hs = append(hs, qHalf{n, c}, qHalf{n.scale(big.NewRat(-1, 1)), new(big.Rat).Neg(c)})
	}
	switch {
	case r.proper:
		plane(r.n, r.v[0])
		for i := range 3 {
			m := r.n.cross(r.v[(i+1)%3].sub(r.v[i])) // inward
			hs = append(hs, qHalf{m, m.dot(r.v[i])})
		}
	case r.point:
		one, zero := big.NewRat(1, 1), new(big.Rat)
		plane(qv{one, zero, zero}, r.v[0])
		plane(qv{zero, one, zero}, r.v[0])
		plane(qv{zero, zero, one}, r.v[0])
	default:
		u, v := r.v[r.lo], r.v[r.hi]
		e := v.sub(u)
		one, zero := big.NewRat(1, 1), new(big.Rat)
		var w1 qv
		for _, ax := range []qv{{one, zero, zero}, {zero, one, zero}, {zero, zero, one}} {
			if w1 = e.cross(ax); !w1.zero() {
				break
			}
		}
		plane(w1, u)
		plane(e.cross(w1), u)
		hs = append(hs, qHalf{e, e.dot(u)}, qHalf{e.scale(big.NewRat(-1, 1)), new(big.Rat).Neg(e.dot(v))})
	}
	return hs
}

// clip is one Sutherland–Hodgman step: the closed polygon (or segment, or
// point) poly, in cyclic order, cut by the half-space h.
func qclip(poly []qv, h qHalf) []qv {
	var out []qv
	n := len(poly)
	for i := range n {
		p, q := poly[i], poly[(i+1)%n]
		fp := new(big.Rat).Sub(h.n.dot(p), h.c)
		fq := new(big.Rat).Sub(h.n.dot(q), h.c)
		if fp.Sign() >= 0 {
			out = append(out, p)
		}
		if fp.Sign()*fq.Sign() < 0 {
			t := new(big.Rat).Sub(fp, fq)
			t.Quo(fp, t)
			out = append(out, p.add(q.sub(p).scale(t)))
		}
	}
	return out
}

// oracleContact is the exact answer.
type oracleContact struct {
	kind    geom.ContactKind
	pts     []qv
	fa, fb  []geom.Feature
	ra, rb  qTri
	coplane bool
}

// feature returns the feature of r holding its point x (see TriTriContact).
func (r *qTri) feature(x qv) geom.Feature {
	for i := range 3 {
		if r.v[i].eq(x) {
			return geom.Feature(i)
		}
	}
	if !r.proper {
		return qEdge(r.lo, r.hi)
	}
	for i := range 3 {
		// Twice the signed area of the sub-triangle opposite vertex i.
		p, q := r.v[(i+1)%3].sub(x), r.v[(i+2)%3].sub(x)
		if p.cross(q).dot(r.n).Sign() == 0 {
			return qEdge((i+1)%3, (i+2)%3)
		}
	}
	return geom.Face
}

func qEdge(i, j int) geom.Feature {
	if i > j {
		i, j = j, i
	}
	switch {
	case i == 0 && j == 1:
		return geom.Edge01
	case i == 1 && j == 2:
		return geom.Edge12
	}
	return geom.Edge20
}

// relint reports whether x, a point of r, lies in its relative interior.
func (r *qTri) relint(x qv) bool {
	switch {
	case r.point:
		return false
	case r.proper:
		return r.feature(x) == geom.Face
	}
	return !x.eq(r.v[r.lo]) && !x.eq(r.v[r.hi])
}

func ratContact(a, b geom.Triangle) oracleContact {
	o := oracleContact{ra: newQTri(a), rb: newQTri(b)}
	poly := []qv{o.rb.v[0], o.rb.v[1], o.rb.v[2]}
	for _, h := range o.ra.constraints() {
		if poly = qclip(poly, h); len(poly) == 0 {
			return o
		}
	}
	// Distinct points, then the extreme ones: a point strictly between two
	// others is not a vertex (every clipped point lies on the boundary of
	// the convex set, or on the segment it is).
	var ds []qv
	for _, p := range poly {
		dup := false
		for _, q := range ds {
			dup = dup || p.eq(q)
		}
		if !dup {
			ds = append(ds, p)
		}
	}
	for i, p := range ds {
		inner := false
		for j, q := range ds {
			for k, s := range ds {
				if j == i || k == i || j == k {
					continue
				}
				d, e := p.sub(q), s.sub(q)
				if d.cross(e).zero() && d.dot(e).Sign() > 0 && d.dot(e).Cmp(e.dot(e)) < 0 {
					inner = true
				}
			}
		}
		if !inner {
			o.pts = append(o.pts, p)
		}
	}
	_ = ds
	for _, p := range o.pts {
		o.fa = append(o.fa, o.ra.feature(p))
		o.fb = append(o.fb, o.rb.feature(p))
	}
	// Coplanar: all six points on one plane.
	all := append(append([]qv{}, o.ra.v[:]...), o.rb.v[:]...)
	o.coplane = true
	for i := 0; i < 6 && o.coplane; i++ {
		for j := i + 1; j < 6 && o.coplane; j++ {
			for k := j + 1; k < 6 && o.coplane; k++ {
				n := all[j].sub(all[i]).cross(all[k].sub(all[i]))
				if n.zero() {
					continue
				}
				for _, p := range all {
					if n.dot(p.sub(all[i])).Sign() != 0 {
						o.coplane = false
					}
				}
				i, j, k = 6, 6, 6
			}
		}
	}
	o.kind = geom.Touch
	if !o.coplane && len(o.pts) <= 2 {
		x := o.pts[0]
		if len(o.pts) == 2 {
			x = o.pts[0].add(o.pts[1]).scale(big.NewRat(1, 2))
		}
		if o.ra.relint(x) && o.rb.relint(x) {
			o.kind = geom.Cross
		}
	}
	return o
}

// checkContact compares TriTriContact(a, b) with the oracle; it returns a
// description of the first disagreement, or "".
func checkContact(a, b geom.Triangle) string {
	got := geom.TriTriContact(a, b)
	want := ratContact(a, b)
	if tt := geom.TriTri(a, b); (got.Kind != geom.Apart) != tt {
		return fmt.Sprintf("kind %v, TriTri %v", got.Kind, tt)
	}
	if len(want.pts) == 0 {
		if got.Kind != geom.Apart {
			return fmt.Sprintf("kind %v, oracle apart", got.Kind)
		}
		return ""
	}
	if got.Kind != want.kind {
		return fmt.Sprintf("kind %v, oracle %v (%d points)", got.Kind, want.kind, len(want.pts))
	}
	if got.N != len(want.pts) {
		return fmt.Sprintf("N = %d, oracle %d: got %v, oracle %v", got.N, len(want.pts), got.Points[:got.N], qFloats(want.pts))
	}
	// Bound: small, and every point within it of its exact point, which
	// has the same features.
	m := 0.0
	for _, t := range []geom.Triangle{a, b} {
		for _, p := range t {
			m = max(m, math.Abs(p.X), math.Abs(p.Y), math.Abs(p.Z))
		}
	}
	if !(got.Bound >= 0 && got.Bound <= 0x1p-40*m+0x1p-1060) {
		return fmt.Sprintf("Bound %g for magnitude %g", got.Bound, m)
	}
	// A point held by a vertex of a or b is that vertex, exactly.
	for i := range got.N {
		cp := got.Points[i]
		if cp.A.IsVertex() && cp.P != a[cp.A] || cp.B.IsVertex() && cp.P != b[cp.B] {
			return fmt.Sprintf("point %d %v (A %v, B %v) is not the vertex it is", i, cp.P, cp.A, cp.B)
		}
	}
	if allVertices := func() bool {
		for _, cp := range got.Points[:got.N] {
			if !cp.A.IsVertex() && !cp.B.IsVertex() {
				return false
			}
		}
		return true
	}(); allVertices && got.Bound != 0 {
		return fmt.Sprintf("Bound %g with every point a vertex", got.Bound)
	}
	bound2 := new(big.Rat).Mul(rat(got.Bound), rat(got.Bound))
	match := make([]int, got.N)
	used := make([]bool, got.N)
	for i := range got.N {
		cp := got.Points[i]
		if !cp.P.IsFinite() {
			return fmt.Sprintf("point %d not finite: %v", i, cp.P)
		}
		match[i] = -1
		for j, x := range want.pts {
			if used[j] || want.fa[j] != cp.A || want.fb[j] != cp.B {
				continue
			}
			d := qvOf(cp.P).sub(x)
			if d.dot(d).Cmp(bound2) <= 0 {
				match[i], used[j] = j, true
				break
			}
		}
		if match[i] < 0 {
			return fmt.Sprintf("point %d %v (A %d, B %d) matches no oracle vertex within %g: oracle %v, features A %v B %v",
				i, cp.P, cp.A, cp.B, got.Bound, qFloats(want.pts), want.fa, want.fb)
		}
	}
	// Normal.
	n := got.Normal
	if !n.IsFinite() || math.Abs(n.Norm()-1) > 1e-12 {
		return fmt.Sprintf("normal %v not unit", n)
	}
	ra, rb := want.ra, want.rb
	switch {
	case got.Kind == geom.Cross && ra.proper:
		if w := qUnit(ra.n); !n.ApproxEqual(w, 1e-12) {
			return fmt.Sprintf("cross normal %v, a's normal %v", n, w)
		}
	case got.Kind == geom.Cross:
		if w := qUnit(rb.n).Neg(); !n.ApproxEqual(w, 1e-12) {
			return fmt.Sprintf("cross normal %v, minus b's normal %v", n, w)
		}
	case want.coplane && ra.proper:
		if w := qUnit(ra.n); !n.ApproxEqual(w, 1e-12) {
			return fmt.Sprintf("coplanar normal %v, a's normal %v", n, w)
		}
	}
	if got.Kind == geom.Touch {
		// Weak separation, exactly for the computed Normal, through the
		// exact shared point, up to 1e-9 of the pair's size for the
		// rounding of the direction.
		x := want.pts[0]
		p := x.float()
		scale := 0.0 // half the pair's extent from p (halved: no overflow)
		for _, t := range []geom.Triangle{a, b} {
			for _, v := range t {
				scale = max(scale, v.Scale(0.5).Sub(p.Scale(0.5)).Norm())
			}
		}
		tol := mul(rat(1e-9*scale), rat(2))
		scale *= 2
		rn := qvOf(n)
		for i := range 3 {
			if d := rn.dot(qvOf(a[i]).sub(x)); d.Cmp(tol) > 0 {
				return fmt.Sprintf("touch normal %v: a's vertex %d at %s > %g", n, i, d.FloatString(20), 1e-9*scale)
			}
			if d := rn.dot(qvOf(b[i]).sub(x)); d.Cmp(new(big.Rat).Neg(tol)) < 0 {
				return fmt.Sprintf("touch normal %v: b's vertex %d at %s < -%g", n, i, d.FloatString(20), 1e-9*scale)
			}
		}
	}
	// Orders.
	switch {
	case got.N >= 3:
		// A convex polygon counter-clockwise seen from a's normal: every
		// other vertex strictly left of each edge.
		for i := range got.N {
			p, q := want.pts[match[i]], want.pts[match[(i+1)%got.N]]
			for j := range got.N {
				if j == i || j == (i+1)%got.N {
					continue
				}
				s := want.pts[match[j]]
				if q.sub(p).cross(s.sub(p)).dot(ra.n).Sign() <= 0 {
					return fmt.Sprintf("polygon not counter-clockwise at point %d: %v", i, got.Points[:got.N])
				}
			}
		}
	case got.N == 2 && ra.proper && rb.proper && !want.coplane:
		d := ra.n.cross(rb.n)
		if want.pts[match[1]].sub(want.pts[match[0]]).dot(d).Sign() <= 0 {
			return "segment not along na × nb"
		}
	case got.N == 2 && want.coplane && ra.proper && rb.proper:
		// On an edge of a, in the order of a walk around a from vertex 0.
		if !got.Points[0].A.IsVertex() && !got.Points[0].A.IsEdge() || !got.Points[1].A.IsVertex() && !got.Points[1].A.IsEdge() {
			return fmt.Sprintf("coplanar segment %v not on a's boundary", got.Points[:2])
		}
		pos := func(i int) *big.Rat {
			cp, x := got.Points[i], want.pts[match[i]]
			if cp.A.IsVertex() {
				return big.NewRat(int64(cp.A), 1)
			}
			e := int(cp.A - geom.Edge01)
			d := ra.v[(e+1)%3].sub(ra.v[e])
			t := new(big.Rat).Quo(x.sub(ra.v[e]).dot(d), d.dot(d))
			return t.Add(t, big.NewRat(int64(e), 1))
		}
		if pos(0).Cmp(pos(1)) >= 0 {
			return fmt.Sprintf("coplanar segment %v not in the order of a's boundary", got.Points[:2])
		}
	case got.N == 2 && !ra.proper || got.N == 2 && !rb.proper:
		r := ra
		if ra.proper {
			r = rb
		}
		e := r.v[r.hi].sub(r.v[r.lo])
		// From the extreme with the lower coordinate on the axis of
		// largest extent (the lower axis on ties).
		ax := 0
		for k := 1; k < 3; k++ {
			if new(big.Rat).Abs(e[k]).Cmp(new(big.Rat).Abs(e[ax])) > 0 {
				ax = k
			}
		}
		if e[ax].Sign() < 0 {
			e = e.scale(big.NewRat(-1, 1))
		}
		if want.pts[match[1]].sub(want.pts[match[0]]).dot(e).Sign() <= 0 {
			return "segment not along the degenerate triangle"
		}
	}
	return ""
}

func qFloats(ps []qv) []geom.Vec3 {
	var f []geom.Vec3
	for _, p := range ps {
		f = append(f, p.float())
	}
	return f
}

func TestTriTriContactOracle(t *testing.T) {
	perKind := longtest.Pick(150, 2_000)
	if oracleLong() {
		perKind = 20_000
	}
	seed := oracleSeed(t)
	var failures atomic.Int32
	for _, kind := range testgeom.AllPairKinds() {
		t.Run(kind.String(), func(t *testing.T) {
			t.Parallel()
			n := oracleShare(kind, perKind)
			var counts [3]int
			var sizes [7]int
			for i := range n {
				stream := oracleStream(kind, i)
				rng := rand.New(rand.NewPCG(seed, stream))
				a, b := testgeom.Pair(kind, rng)
				c := geom.TriTriContact(a, b)
				counts[c.Kind]++
				sizes[c.N]++
				if msg := checkSymmetry(a, b); msg != "" {
					oracleFail(t, &failures, kind, seed, stream, a, b, "%s", msg)
				}
				for _, ab := range [][2]geom.Triangle{{a, b}, {b, a}, {testgeom.Permute(a, i%6), testgeom.Permute(b, (i/6)%6)}} {
					if msg := checkContact(ab[0], ab[1]); msg != "" {
						oracleFail(t, &failures, kind, seed, stream, ab[0], ab[1], "%s", msg)
						break
					}
				}
			}
			t.Logf("%-17v %6d pairs: %d apart, %d touch, %d cross; sizes 1 to 6: %v", kind, n, counts[0], counts[1], counts[2], sizes[1:])
			// The generators reach every size of polygon.
			if kind == testgeom.KindCoplanarOverlap {
				for s := 1; s <= 5; s++ {
					if sizes[s] == 0 {
						t.Errorf("no coplanar overlap of %d points", s)
					}
				}
			}
		})
	}
}

// checkSymmetry compares TriTriContact(a, b) with TriTriContact(b, a): the
// same kind and size, features swapped (the points themselves are checked
// against the oracle in both orders), and for a touch of two proper
// triangles in different planes of which exactly one face plane separates,
// normals exactly opposite (both take that plane).
func checkSymmetry(a, b geom.Triangle) string {
	c, d := geom.TriTriContact(a, b), geom.TriTriContact(b, a)
	if c.Kind != d.Kind || c.N != d.N {
		return fmt.Sprintf("(a, b): %v with %d points, (b, a): %v with %d", c.Kind, c.N, d.Kind, d.N)
	}
	for i := range c.N {
		found := false
		for j := range d.N {
			found = found || c.Points[i].A == d.Points[j].B && c.Points[i].B == d.Points[j].A
		}
		if !found {
			return fmt.Sprintf("point %d of (a, b) %+v has no swapped twin in (b, a) %+v", i, c.Points[:c.N], d.Points[:d.N])
		}
	}
	if c.Kind != geom.Touch || a.IsDegenerate() || b.IsDegenerate() {
		return ""
	}
	side := func(t, q geom.Triangle) bool {
		pos, neg, zero := 0, 0, 0
		for _, p := range q {
			switch geom.Orient3D(t[0], t[1], t[2], p) {
			case 1:
				pos++
			case -1:
				neg++
			default:
				zero++
			}
		}
		return zero < 3 && (pos == 0 || neg == 0)
	}
	if side(a, b) != side(b, a) && d.Normal != c.Normal.Neg() {
		return fmt.Sprintf("touch normals %v and %v, not opposite", c.Normal, d.Normal)
	}
	return ""
}
