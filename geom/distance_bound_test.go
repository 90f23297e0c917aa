package geom_test

// An exact oracle for TriTriDistance's error bound, TriTriLowerBound and
// TriTriWithin: the exact squared distance of two triangles, in math/big
// rationals, as the minimum over the candidate features (each vertex
// against the other triangle's face, each edge against each edge; a
// degenerate triangle is covered by its edges), and 0 when testgeom.RatTriTri
// says contact. Every check compares squares of rationals, so it is exact.

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/internal/testgeom"
)

type rvec [3]*big.Rat

func rv(p geom.Vec3) rvec { return rvec{rat(p.X), rat(p.Y), rat(p.Z)} }

func (v rvec) sub(w rvec) rvec {
	return rvec{new(big.Rat).Sub(v[0], w[0]), new(big.Rat).Sub(v[1], w[1]), new(big.Rat).Sub(v[2], w[2])}
}

func (v rvec) add(w rvec) rvec {
	return rvec{new(big.Rat).Add(v[0], w[0]), new(big.Rat).Add(v[1], w[1]), new(big.Rat).Add(v[2], w[2])}
}

func (v rvec) scale(s *big.Rat) rvec { return rvec{mul(v[0], s), mul(v[1], s), mul(v[2], s)} }

func (v rvec) dot(w rvec) *big.Rat {
	d := mul(v[0], w[0])
	d.Add(d, mul(v[1], w[1]))
	return d.Add(d, mul(v[2], w[2]))
}

func (v rvec) cross(w rvec) rvec {
	m := func(a, b, c, d *big.Rat) *big.Rat { return new(big.Rat).Sub(mul(a, b), mul(c, d)) }
	return rvec{m(v[1], w[2], v[2], w[1]), m(v[2], w[0], v[0], w[2]), m(v[0], w[1], v[1], w[0])}
}

var ratZero, ratOne = new(big.Rat), big.NewRat(1, 1)

func ratClamp(x *big.Rat) *big.Rat {
	switch {
	case x.Sign() < 0:
		return new(big.Rat)
	case x.Cmp(ratOne) > 0:
		return big.NewRat(1, 1)
	}
	return x
}

func ratQuo(a, b *big.Rat) *big.Rat { return new(big.Rat).Quo(a, b) }

// ratSegSeg2 returns the exact squared distance between the closed
// segments [p1, q1] and [p2, q2] (either may be a point): Ericson's
// clamped closest-point algorithm (Real-Time Collision Detection, §5.1.9),
// which is exact in rational arithmetic.
func ratSegSeg2(p1, q1, p2, q2 rvec) *big.Rat {
	d1, d2, r := q1.sub(p1), q2.sub(p2), p1.sub(p2)
	a, e, f := d1.dot(d1), d2.dot(d2), d2.dot(r)
	s, t := new(big.Rat), new(big.Rat)
	switch {
	case a.Sign() == 0 && e.Sign() == 0:
	case a.Sign() == 0:
		t = ratClamp(ratQuo(f, e))
	default:
		c := d1.dot(r)
		if e.Sign() == 0 {
			s = ratClamp(ratQuo(new(big.Rat).Neg(c), a))
		} else {
			b := d1.dot(d2)
			den := new(big.Rat).Sub(mul(a, e), mul(b, b))
			if den.Sign() != 0 {
				s = ratClamp(ratQuo(new(big.Rat).Sub(mul(b, f), mul(c, e)), den))
			}
			t = ratQuo(new(big.Rat).Add(mul(b, s), f), e)
			if t.Sign() < 0 {
				t, s = new(big.Rat), ratClamp(ratQuo(new(big.Rat).Neg(c), a))
			} else if t.Cmp(ratOne) > 0 {
				t, s = big.NewRat(1, 1), ratClamp(ratQuo(new(big.Rat).Sub(b, c), a))
			}
		}
	}
	v := p1.add(d1.scale(s)).sub(p2.add(d2.scale(t)))
	return v.dot(v)
}

// ratFace2 returns the exact squared distance from p to the plane of t if
// t is not degenerate and the foot of p lies in t, else nil.
func ratFace2(p rvec, t [3]rvec) *big.Rat {
	n := t[1].sub(t[0]).cross(t[2].sub(t[0]))
	nn := n.dot(n)
	if nn.Sign() == 0 {
		return nil
	}
	for i := range 3 {
		e := t[(i+1)%3].sub(t[i])
		if e.cross(p.sub(t[i])).dot(n).Sign() < 0 {
			return nil
		}
	}
	h := p.sub(t[0]).dot(n)
	return ratQuo(mul(h, h), nn)
}

func ratTri(t geom.Triangle) [3]rvec { return [3]rvec{rv(t[0]), rv(t[1]), rv(t[2])} }

// ratPointTri2 returns the exact squared distance from p to t.
func ratPointTri2(p rvec, t [3]rvec) *big.Rat {
	best := ratFace2(p, t)
	for i := range 3 {
		if d := ratSegSeg2(p, p, t[i], t[(i+1)%3]); best == nil || d.Cmp(best) < 0 {
			best = d
		}
	}
	return best
}

// ratTriTri2 returns the exact squared distance between a and b.
func ratTriTri2(a, b geom.Triangle) *big.Rat {
	if testgeom.RatTriTri(a, b) {
		return new(big.Rat)
	}
	A, B := ratTri(a), ratTri(b)
	var best *big.Rat
	take := func(d *big.Rat) {
		if d != nil && (best == nil || d.Cmp(best) < 0) {
			best = d
		}
	}
	for i := range 3 {
		take(ratFace2(A[i], B))
		take(ratFace2(B[i], A))
		for j := range 3 {
			take(ratSegSeg2(A[i], A[(i+1)%3], B[j], B[(j+1)%3]))
		}
	}
	return best
}

// ratWithin reports whether |x − √d2| ≤ r, exactly (x, r ≥ 0 floats).
func ratWithin(x, r float64, d2 *big.Rat) bool {
	hi := new(big.Rat).Add(rat(x), rat(r))
	if d2.Cmp(mul(hi, hi)) > 0 {
		return false
	}
	lo := new(big.Rat).Sub(rat(x), rat(r))
	return lo.Sign() <= 0 || mul(lo, lo).Cmp(d2) <= 0
}

// ratSqrt returns √d2 to float64 precision, for messages and ratios.
func ratSqrt(d2 *big.Rat) float64 {
	f := new(big.Float).SetPrec(200).SetRat(d2)
	r, _ := f.Sqrt(f).Float64()
	return r
}

// boundCheck checks one pair with the bound TriTriDistanceBound / shrink and
// returns the problems found ("" if none) and the largest error over B.
func boundCheck(a, b geom.Triangle, shrink float64) (string, float64) {
	d, pa, pb := geom.TriTriDistance(a, b)
	B := geom.TriTriDistanceBound(a, b) / shrink
	d2 := ratTriTri2(a, b)
	touch := d2.Sign() == 0
	var msgs []string
	bad := func(format string, args ...any) { msgs = append(msgs, fmt.Sprintf(format, args...)) }
	if (d == 0) != touch {
		bad("TriTriDistance = %v, exact contact %v", d, touch)
	}
	exact := ratSqrt(d2)
	worst := math.Abs(d-exact) / B
	if !ratWithin(d, B, d2) {
		bad("TriTriDistance = %v, exact %v, bound %v", d, exact, B)
	}
	pa2, pb2 := ratPointTri2(rv(pa), ratTri(a)), ratPointTri2(rv(pb), ratTri(b))
	for _, off := range []*big.Rat{pa2, pb2} {
		worst = max(worst, ratSqrt(off)/B)
		if off.Cmp(mul(rat(B), rat(B))) > 0 {
			bad("witness %v from its triangle, bound %v", ratSqrt(off), B)
		}
	}
	w := rv(pa).sub(rv(pb))
	w2 := w.dot(w)
	worst = max(worst, math.Abs(ratSqrt(w2)-d)/B)
	if !ratWithin(d, B, w2) {
		bad("|pa − pb| = %v, TriTriDistance = %v, bound %v", ratSqrt(w2), d, B)
	}
	if L := geom.TriTriLowerBound(a, b); !(L >= 0) || mul(rat(L), rat(L)).Cmp(d2) > 0 {
		bad("TriTriLowerBound = %v > exact distance %v", L, exact)
	}
	for _, eps := range withinEps(d, a, b) {
		if got, want := geom.TriTriWithin(a, b, eps), d <= eps || (eps <= 0 && touch); got != want {
			bad("TriTriWithin(eps = %v) = %v, TriTriDistance = %v", eps, got, d)
		}
	}
	if len(msgs) == 0 {
		return "", worst
	}
	return fmt.Sprint(msgs), worst
}

// withinEps returns tolerances around d and around the lower bound's
// decision threshold, where TriTriWithin's shortcuts could disagree.
func withinEps(d float64, a, b geom.Triangle) []float64 {
	B, L := geom.TriTriDistanceBound(a, b), geom.TriTriLowerBound(a, b)
	eps := []float64{0, d, math.Nextafter(d, 0), math.Nextafter(d, math.Inf(1)), d * (1 - 1e-9), d * (1 + 1e-9), L, L - B, math.Nextafter(L-B, 0), 2 * d}
	out := eps[:0]
	for _, e := range eps {
		if e >= 0 && !math.IsInf(e, 0) {
			out = append(out, e)
		}
	}
	return out
}

// boundScenes returns the adversarial pairs, by name.
func boundScenes() (names []string, pairs [][2]geom.Triangle) {
	v := geom.V
	add := func(name string, a, b geom.Triangle) {
		names = append(names, name)
		pairs = append(pairs, [2]geom.Triangle{a, b})
	}
	unit := geom.Tri(v(0, 0, 0), v(1, 0, 0), v(0, 1, 0))
	up := math.Nextafter(0, 1)
	one := math.Nextafter(1, 2)
	third := 1.0 / 3
	base := []struct {
		name string
		a, b geom.Triangle
	}{
		{"touch at a vertex", unit, geom.Tri(v(1, 0, 0), v(2, 1, 1), v(2, -1, 1))},
		{"touch along an edge", unit, geom.Tri(v(0, 0, 0), v(1, 0, 0), v(0.5, -1, 0.5))},
		{"vertex on face", unit, geom.Tri(v(0.25, 0.25, 0), v(1, 1, 1), v(0, 1, 1))},
		{"crossing", unit, geom.Tri(v(0.2, 0.2, -1), v(0.3, 0.2, 1), v(0.2, 0.4, 1))},
		{"coplanar overlap", unit, geom.Tri(v(0.5, 0.5, 0), v(-0.5, 0.2, 0), v(0.2, -0.5, 0))},
		{"coplanar near miss", unit, geom.Tri(v(one, 0, 0), v(2, 0, 0), v(2, 1, 0))},
		{"coplanar near miss diagonal", unit, geom.Tri(v(0.5, math.Nextafter(0.5, 1), 0), v(1, 1, 0), v(2, 0.5, 0))},
		{"parallel edges", geom.Tri(v(0, 0, 0), v(1, 0, 0), v(0.5, -1, -1)), geom.Tri(v(0.3, 0, 1e-3), v(1.7, 0, 1e-3), v(1, 1, 1))},
		{"parallel edges one ulp", geom.Tri(v(0, 0, 0), v(1, 0, 0), v(0.5, -1, -1)), geom.Tri(v(0.3, 0, up), v(1.7, 0, up), v(1, 1, 1))},
		{"near-parallel edges", geom.Tri(v(0, 0, 0), v(1, 0, 0), v(0.5, -1, -1)), geom.Tri(v(-0.5, 1e-9, 1e-6), v(1.5, -1e-9, 1e-6), v(1, 1, 1))},
		{"near-parallel edges 1e-15", geom.Tri(v(0, 0, 0), v(third, 0, 0), v(0.5, -1, -1)), geom.Tri(v(-0.5, 1e-15, 1e-7), v(1.5, -1e-15, 1e-7), v(1, 1, 1))},
		{"parallel triangles", unit, geom.Tri(v(0.2, 0.2, 1e-3), v(1.2, 0.2, 1e-3), v(0.2, 1.2, 1e-3))},
		{"near-parallel triangles", unit, geom.Tri(v(0.1, 0.1, 1e-6), v(1.1, 0.1, 1e-6+1e-12), v(0.1, 1.1, 1e-6-1e-12))},
		{"parallel one ulp", unit, geom.Tri(v(0.1, 0.1, up), v(0.9, 0.05, up), v(0.1, 0.7, up))},
		{"vertex one ulp above face", unit, geom.Tri(v(third, third, math.Nextafter(0, 1)), v(1, 1, 1), v(0, 1, 1))},
		{"vertex one ulp off vertex", unit, geom.Tri(v(one, 0, 0), v(2, 1, 1), v(2, -1, 1))},
		{"segment vs triangle", unit, geom.Tri(v(0.2, 0.2, 0.5), v(0.4, 0.4, 1.5), v(0.3, 0.3, 1))},
		{"segment vs segment", geom.Tri(v(0, 0, 0), v(1, 1, 1), v(0.5, 0.5, 0.5)), geom.Tri(v(1, 0, 0), v(0, 1, 0.3), v(0.25, 0.75, 0.225))},
		{"point vs triangle", unit, geom.Tri(v(third, third, 0.1), v(third, third, 0.1), v(third, third, 0.1))},
		{"point vs point", geom.Tri(v(1, 2, 3), v(1, 2, 3), v(1, 2, 3)), geom.Tri(v(1, 2, math.Nextafter(3, 4)), v(1, 2, math.Nextafter(3, 4)), v(1, 2, math.Nextafter(3, 4)))},
		{"point on segment", geom.Tri(v(0, 0, 0), v(3, 3, 3), v(1, 1, 1)), geom.Tri(v(2, 2, 2), v(2, 2, 2), v(2, 2, 2))},
		{"sliver above", geom.Tri(v(0, 0, 0), v(1, 1, 1), v(0.5, 0.5, math.Nextafter(0.5, 1))), geom.Tri(v(0.4, 0.6, 0.5), v(0.6, 0.4, 0.5), v(0.5, 0.5, 2))},
		{"sliver point beyond", geom.Tri(v(0, 0, 0), v(1, 1, 1), v(0.5, 0.5, math.Nextafter(0.5, 1))), geom.Tri(v(3, 3, 3), v(3, 3, 3), v(3, 3, 3))},
		{"mixed scales", geom.Tri(v(-1e6, -1e6, 0), v(1e6, -1e6, 0), v(0, 1e6, 0)), geom.Tri(v(1e-6, 1e-6, 1e-6), v(2e-6, 1e-6, 1e-6), v(1e-6, 2e-6, 3e-6))},
		{"mixed scales far", geom.Tri(v(-1e6, -1e6, 0), v(1e6, -1e6, 0), v(0, 1e6, 0)), geom.Tri(v(1e5, 1e5, 1e-9), v(1e5+1e-6, 1e5, 1e-9), v(1e5, 1e5+1e-6, 2e-9))},
	}
	for _, c := range base {
		add(c.name, c.a, c.b)
	}
	for _, c := range base {
		for _, s := range []float64{1e-300, 1e300, 0x1p-1000, 3e-320} {
			add(fmt.Sprintf("%s ×%g", c.name, s), scaleTri(c.a, s), scaleTri(c.b, s))
		}
		for _, o := range []geom.Vec3{v(1e8, 1e8, 1e8), v(-1e8, 3e8, 0x1p27+0.5)} {
			add(fmt.Sprintf("%s +%v", c.name, o), offTri(c.a, o), offTri(c.b, o))
		}
	}
	return names, pairs
}

func scaleTri(t geom.Triangle, s float64) geom.Triangle {
	return geom.Tri(t[0].Scale(s), t[1].Scale(s), t[2].Scale(s))
}

func offTri(t geom.Triangle, o geom.Vec3) geom.Triangle {
	return geom.Tri(t[0].Add(o), t[1].Add(o), t[2].Add(o))
}

// farPair returns a random pair of unit size at a random offset of about
// 1e8, at a random distance up to 1.
func farPair(rng *rand.Rand) (a, b geom.Triangle) {
	o := geom.V(1e8*(1+rng.Float64()), -1e8*(1+rng.Float64()), 1e8*rng.Float64())
	a, b = testgeom.RandomPair(rng)
	return offTri(a, o), offTri(b, o)
}

// boundPairs calls f with every pair of the test: the adversarial scenes,
// each with its triangles exchanged, 60 pairs of every testgeom kind and
// 300 far random pairs.
func boundPairs(f func(name string, a, b geom.Triangle)) {
	names, pairs := boundScenes()
	for i, p := range pairs {
		f(names[i], p[0], p[1])
		f(names[i]+" (swapped)", p[1], p[0])
	}
	for _, kind := range testgeom.AllPairKinds() {
		for i := range 60 {
			rng := rand.New(rand.NewPCG(17, uint64(kind)<<32|uint64(i)))
			a, b := testgeom.Pair(kind, rng)
			f(fmt.Sprintf("%v %d", kind, i), a, b)
		}
	}
	rng := rand.New(rand.NewPCG(17, 99))
	for i := range 300 {
		a, b := farPair(rng)
		f(fmt.Sprintf("far %d", i), a, b)
	}
}

func TestTriTriDistanceBound(t *testing.T) {
	t.Parallel()
	worst, worstName, n := 0.0, "", 0
	boundPairs(func(name string, a, b geom.Triangle) {
		if !a.IsFinite() || !b.IsFinite() {
			return
		}
		n++
		msg, w := boundCheck(a, b, 1)
		if msg != "" {
			t.Errorf("%s: %s\n\ta := %#v\n\tb := %#v", name, msg, a, b)
		}
		if w > worst {
			worst, worstName = w, name
		}
	})
	t.Logf("%d pairs; largest error / B = %.3g (%s)", n, worst, worstName)
}

// TestTriTriDistanceBoundTeeth checks that the oracle test can fail: with
// the bound divided by 16 some pair must violate it (the witnesses of far
// pairs are rounded to the ulps of their coordinates, which B's 2⁻⁵¹·M
// term covers with less than that to spare).
func TestTriTriDistanceBoundTeeth(t *testing.T) {
	t.Parallel()
	fails := 0
	boundPairs(func(name string, a, b geom.Triangle) {
		if a.IsFinite() && b.IsFinite() {
			if msg, _ := boundCheck(a, b, 16); msg != "" {
				fails++
			}
		}
	})
	if fails == 0 {
		t.Fatal("no pair violates TriTriDistanceBound / 16: the oracle test cannot fail")
	}
	t.Logf("%d pairs violate TriTriDistanceBound / 16", fails)
}

// TestTriTriLowerBoundRate checks that the lower bound is useful: positive
// on most well-separated random pairs (one triangle moved 1 to 2 units away
// in a random direction), and never above the exact distance.
func TestTriTriLowerBoundRate(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(5, 5))
	const n = 1000
	pos, tight := 0, 0.0
	for range n {
		a, b := testgeom.RandomPair(rng)
		dir := geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()).Unit()
		b = offTri(b, dir.Scale(1+rng.Float64()))
		L := geom.TriTriLowerBound(a, b)
		d2 := ratTriTri2(a, b)
		if mul(rat(L), rat(L)).Cmp(d2) > 0 {
			t.Fatalf("TriTriLowerBound = %v > exact %v\n\ta := %#v\n\tb := %#v", L, ratSqrt(d2), a, b)
		}
		if L > 0 {
			pos++
			tight += L / ratSqrt(d2)
		}
	}
	t.Logf("L > 0 on %d of %d separated pairs; mean L/d there %.2f", pos, n, tight/float64(pos))
	if pos < n*9/10 {
		t.Errorf("L > 0 on only %d of %d well-separated pairs, want ≥ 90%%", pos, n)
	}
}
