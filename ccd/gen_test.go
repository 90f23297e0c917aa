package ccd_test

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/collide3d/collide/geom"
)

// This file generates the inputs of the oracle tests (oracle_test.go):
// seeded random queries at several scales and adversarial families. Each
// generator returns the same cases for the same seed.

// orcCase is one query: kind "vf" (VertexFace), "ee" (EdgeEdge) or "tt"
// (TriTri), and its coordinates in parameter order (24 for "vf" and "ee",
// 36 for "tt": a0, b0, a1, b1).
type orcCase struct {
	name string
	kind string
	x    []float64
}

// points returns the coordinates of c as points.
func (c orcCase) points() []geom.Vec3 {
	p := make([]geom.Vec3, len(c.x)/3)
	for i := range p {
		p[i] = geom.V(c.x[3*i], c.x[3*i+1], c.x[3*i+2])
	}
	return p
}

// orcCaseOf returns the case of the given points.
func orcCaseOf(name, kind string, p []geom.Vec3) orcCase {
	x := make([]float64, 0, 3*len(p))
	for _, v := range p {
		x = append(x, v.X, v.Y, v.Z)
	}
	return orcCase{name, kind, x}
}

// mapped returns c with every coordinate replaced by f of it.
func (c orcCase) mapped(name string, f func(float64) float64) orcCase {
	x := make([]float64, len(c.x))
	for i, v := range c.x {
		x[i] = f(v)
	}
	return orcCase{name, c.kind, x}
}

// orcNPoints is the number of points of a query of kind k.
func orcNPoints(k string) int {
	if k == "tt" {
		return 12
	}
	return 8
}

// orcHalf is the number of points at t = 0 (the rest are at t = 1, in
// the same order).
func orcHalf(k string) int { return orcNPoints(k) / 2 }

func orcUniform(r *rand.Rand, s float64) geom.Vec3 {
	return geom.V(s*(2*r.Float64()-1), s*(2*r.Float64()-1), s*(2*r.Float64()-1))
}

func orcGrid(r *rand.Rand, k int) geom.Vec3 {
	c := func() float64 { return float64(r.IntN(2*k+1) - k) }
	return geom.V(c(), c(), c())
}

// genRandom returns n queries with every point uniform in [-s, s]³.
func genRandom(r *rand.Rand, kind string, n int, s float64) []orcCase {
	out := make([]orcCase, n)
	for i := range out {
		p := make([]geom.Vec3, orcNPoints(kind))
		for j := range p {
			p[j] = orcUniform(r, s)
		}
		out[i] = orcCaseOf(fmt.Sprintf("random s=%g #%d", s, i), kind, p)
	}
	return out
}

// genCrossing returns n queries whose points move from uniform points in
// [-1, 1]³ to about their opposites (plus noise up to 0.3): everything
// passes near the origin, so most queries hit, at irrational times.
func genCrossing(r *rand.Rand, kind string, n int) []orcCase {
	out := make([]orcCase, n)
	h := orcHalf(kind)
	for i := range out {
		p := make([]geom.Vec3, orcNPoints(kind))
		for j := range h {
			p[j] = orcUniform(r, 1)
			p[j+h] = orcUniform(r, 0.3).Sub(p[j])
		}
		out[i] = orcCaseOf(fmt.Sprintf("crossing #%d", i), kind, p)
	}
	return out
}

// genGrid returns n queries on the integer grid [-2, 2]³ (ties,
// coincidences and degeneracies are common), with some points kept still
// and some collapsed onto others.
func genGrid(r *rand.Rand, kind string, n int) []orcCase {
	out := make([]orcCase, n)
	h := orcHalf(kind)
	for i := range out {
		p := make([]geom.Vec3, orcNPoints(kind))
		for j := range p {
			p[j] = orcGrid(r, 2)
		}
		for j := range h {
			switch r.IntN(6) {
			case 0:
				p[j+h] = p[j]
			case 1:
				k := r.IntN(h)
				p[j], p[j+h] = p[k], p[k+h]
			}
		}
		out[i] = orcCaseOf(fmt.Sprintf("grid #%d", i), kind, p)
	}
	return out
}

// orcTimes are the contact times of the constructed cases: dyadic, so that
// the motion through a contact point stays on the integer grid.
var orcTimes = []float64{0, 0.25, 0.5, 0.75, 1}

// through returns the ends of a linear motion that is at x at time tc
// (one of orcTimes), the other end being the free point y, exactly.
func through(x, y geom.Vec3, tc float64) (x0, x1 geom.Vec3) {
	switch tc {
	case 0:
		return x, y
	case 1:
		return y, x
	case 0.25: // x = y + (x1 − y)/4
		return y, y.Add(x.Sub(y).Scale(4))
	case 0.5:
		return y, x.Scale(2).Sub(y)
	case 0.75: // x = x1 + (y − x1)/4, y the start
		return x.Sub(y).Scale(4).Add(y), y
	}
	panic("through: not a contact time")
}

// contactPoints returns the points (at the contact time) of a contact of
// the given kind, on the grid of quarters: for "vf" a triangle and a point
// of it (inside, on a side or at a vertex; the triangle sometimes
// degenerate); for "ee" two segments through a common point (crossing,
// endpoint on segment, endpoints together, collinear overlap, zero
// length).
func contactPoints(r *rand.Rand, kind string) []geom.Vec3 {
	q := func() float64 { return float64(r.IntN(5)) / 4 } // 0, 1/4, ..., 1
	switch kind {
	case "vf":
		a, b, c := orcGrid(r, 3), orcGrid(r, 3), orcGrid(r, 3)
		switch r.IntN(6) {
		case 0: // collinear
			c = a.Add(b.Sub(a).Scale(float64(r.IntN(5) - 2)))
		case 1: // a point
			b, c = a, a
		}
		w1, w2 := q(), q()
		if w1+w2 > 1 {
			w1, w2 = 1-w1, 1-w2
		}
		p := a.Add(b.Sub(a).Scale(w1)).Add(c.Sub(a).Scale(w2))
		return []geom.Vec3{p, a, b, c}
	default:
		x := orcGrid(r, 3)
		u, v := orcGrid(r, 2), orcGrid(r, 2)
		switch r.IntN(5) {
		case 0: // parallel, collinear
			v = u.Scale(float64(r.IntN(5) - 2))
		case 1: // zero-length
			u = geom.Vec3{}
		}
		lam := func() float64 { return []float64{0, 0.5, 1, 2}[r.IntN(4)] }
		return []geom.Vec3{x.Sub(u.Scale(lam())), x.Add(u.Scale(lam())), x.Sub(v.Scale(lam())), x.Add(v.Scale(lam()))}
	}
}

// genExact returns n queries in exact contact at a time of orcTimes (or
// earlier): the contact points of contactPoints, each moving through its
// place from or to a free grid point, some still.
func genExact(r *rand.Rand, kind string, n int) []orcCase {
	out := make([]orcCase, n)
	for i := range out {
		tc := orcTimes[r.IntN(len(orcTimes))]
		c := contactPoints(r, kind)
		p := make([]geom.Vec3, 8)
		for j, x := range c {
			y := orcGrid(r, 3)
			if r.IntN(4) == 0 {
				y = x
			}
			p[j], p[j+4] = through(x, y, tc)
		}
		out[i] = orcCaseOf(fmt.Sprintf("exact t=%g #%d", tc, i), kind, p)
	}
	return out
}

// genExactTT returns n triangle pairs in exact contact at a time of
// orcTimes (or earlier), built around the vertex-face and edge-edge
// contacts of genExact: the vertex or the edge is completed to a triangle
// by grid offsets that move with it or not.
func genExactTT(r *rand.Rand, n int) []orcCase {
	out := make([]orcCase, n)
	for i := range out {
		kind := []string{"vf", "ee"}[r.IntN(2)]
		c := genExact(r, kind, 1)[0].points()
		off := func() geom.Vec3 { return orcGrid(r, 2) }
		var a0, b0, a1, b1 geom.Triangle
		if kind == "vf" {
			e1, e2 := off(), off()
			f1, f2 := e1, e2
			if r.IntN(2) == 0 {
				f1, f2 = off(), off()
			}
			a0 = geom.Tri(c[0], c[0].Add(e1), c[0].Add(e2))
			a1 = geom.Tri(c[4], c[4].Add(f1), c[4].Add(f2))
			b0, b1 = geom.Tri(c[1], c[2], c[3]), geom.Tri(c[5], c[6], c[7])
		} else {
			e, f := off(), off()
			a0 = geom.Tri(c[0], c[1], c[0].Add(e))
			a1 = geom.Tri(c[4], c[5], c[4].Add(e))
			b0 = geom.Tri(c[2], c[3], c[2].Add(f))
			b1 = geom.Tri(c[6], c[7], c[6].Add(f))
		}
		if r.IntN(2) == 0 { // either triangle first
			a0, b0, a1, b1 = b0, a0, b1, a1
		}
		p := []geom.Vec3{a0[0], a0[1], a0[2], b0[0], b0[1], b0[2], a1[0], a1[1], a1[2], b1[0], b1[1], b1[2]}
		out[i] = orcCaseOf(fmt.Sprintf("exact %s #%d", kind, i), "tt", p)
	}
	return out
}

// genUlp returns the cases with one coordinate moved by one ulp, up or
// down: near misses and near hits of exact contacts.
func genUlp(r *rand.Rand, cs []orcCase) []orcCase {
	out := make([]orcCase, len(cs))
	for i, c := range cs {
		x := append([]float64(nil), c.x...)
		j := r.IntN(len(x))
		x[j] = math.Nextafter(x[j], math.Inf(2*r.IntN(2)-1))
		out[i] = orcCase{fmt.Sprintf("%s, x[%d] one ulp", c.name, j), c.kind, x}
	}
	return out
}

// genPlane returns the cases mapped into a plane: (x, y, z) goes to
// o + x·u + y·v with small integer o, u, v (z dropped), so every point
// stays in the plane throughout the motion, exactly. With u = (1, 0, 0),
// v = (0, 1, 0) and o = (0, 0, z) it is the plane z = const.
func genPlane(r *rand.Rand, cs []orcCase, axisAligned bool) []orcCase {
	out := make([]orcCase, len(cs))
	for i, c := range cs {
		o, u, v := orcGrid(r, 5), orcGrid(r, 3), orcGrid(r, 3)
		if axisAligned {
			o, u, v = geom.V(0, 0, float64(r.IntN(7)-3)), geom.V(1, 0, 0), geom.V(0, 1, 0)
		}
		p := c.points()
		for j, x := range p {
			p[j] = o.Add(u.Scale(x.X)).Add(v.Scale(x.Y))
		}
		out[i] = orcCaseOf(c.name+", in a plane", c.kind, p)
	}
	return out
}

// genParallel returns n edge-edge queries whose edges stay parallel (the
// same direction d at every time, lengths changing linearly), collinear
// in some; vertex-face queries whose triangle is a moving segment or
// point.
func genParallel(r *rand.Rand, kind string, n int) []orcCase {
	out := make([]orcCase, n)
	for i := range out {
		d := orcGrid(r, 2)
		k := func() float64 { return float64(r.IntN(5) - 2) }
		var p []geom.Vec3
		p0, p1 := orcGrid(r, 3), orcGrid(r, 3)
		r0, r1 := orcGrid(r, 3), orcGrid(r, 3)
		if r.IntN(2) == 0 { // collinear: r − p along d too
			r0, r1 = p0.Add(d.Scale(k())), p1.Add(d.Scale(k()))
		}
		if kind == "ee" {
			p = []geom.Vec3{p0, p0.Add(d.Scale(k())), r0, r0.Add(d.Scale(k())), p1, p1.Add(d.Scale(k())), r1, r1.Add(d.Scale(k()))}
		} else { // the vertex p against the segment or point r, r+kd, r+kd
			p = []geom.Vec3{p0, r0, r0.Add(d.Scale(k())), r0.Add(d.Scale(k())), p1, r1, r1.Add(d.Scale(k())), r1.Add(d.Scale(k()))}
		}
		out[i] = orcCaseOf(fmt.Sprintf("parallel #%d", i), kind, p)
	}
	return out
}

// genStill returns the cases with every point still (its position at t = 0
// kept), or, alternately, with only the moving half of them still.
func genStill(cs []orcCase) []orcCase {
	out := make([]orcCase, len(cs))
	for i, c := range cs {
		p := c.points()
		h := len(p) / 2
		for j := range h {
			if i%2 == 0 || j%2 == 0 {
				p[j+h] = p[j]
			}
		}
		out[i] = orcCaseOf(c.name+", still", c.kind, p)
	}
	return out
}

// genScaled returns the cases scaled by s (exact when s is a power of
// two, a different geometry otherwise).
func genScaled(cs []orcCase, s float64) []orcCase {
	out := make([]orcCase, len(cs))
	for i, c := range cs {
		out[i] = c.mapped(fmt.Sprintf("%s, ×%g", c.name, s), func(x float64) float64 { return x * s })
	}
	return out
}

// genOffset returns the cases scaled by s and moved by off in every
// coordinate (far from the origin, with small motions).
func genOffset(cs []orcCase, s, off float64) []orcCase {
	out := make([]orcCase, len(cs))
	for i, c := range cs {
		out[i] = c.mapped(fmt.Sprintf("%s, ×%g+%g", c.name, s, off), func(x float64) float64 { return x*s + off })
	}
	return out
}

// genMixed returns the cases with about a third of their coordinates
// replaced by tiny ones (a few multiples of 2^-1074, or ±9.3e-302) beside
// the others' grid values: exponents 10^300 apart in one query.
func genMixed(r *rand.Rand, cs []orcCase) []orcCase {
	out := make([]orcCase, len(cs))
	for i, c := range cs {
		x := append([]float64(nil), c.x...)
		tiny := []float64{5e-324, 1e-323, 2e-323, 9.332636185032189e-302}[r.IntN(4)]
		for j := range x {
			if r.IntN(3) == 0 {
				x[j] = float64(r.IntN(5)-2) * tiny
			}
		}
		out[i] = orcCase{c.name + ", mixed with tiny", c.kind, x}
	}
	return out
}

// genShared returns the cases given an exact structure that the fast path
// decides without the exact path when it can (shared.go, planar.go), as
// a drop along an axis onto a model symmetric about a coordinate plane
// has: some points moving along one axis only, some sharing a coordinate
// at every time (three of a query's four points, or all of its points:
// motion within an axis plane), some two points sharing two coordinates
// (a vertex passing through another).
func genShared(r *rand.Rand, cs []orcCase) []orcCase {
	out := make([]orcCase, len(cs))
	for n, c := range cs {
		p := c.points()
		h := len(p) / 2
		name := c.name
		if r.IntN(2) == 0 { // a drop: every point moves along axis k
			k := r.IntN(3)
			for j := range h {
				x := p[j]
				switch k {
				case 0:
					x.X = p[j+h].X
				case 1:
					x.Y = p[j+h].Y
				default:
					x.Z = p[j+h].Z
				}
				p[j+h] = x
			}
			name += fmt.Sprintf(", along axis %d", k)
		}
		set := func(v *geom.Vec3, i int, x float64) {
			switch i {
			case 0:
				v.X = x
			case 1:
				v.Y = x
			default:
				v.Z = x
			}
		}
		i := r.IntN(3)
		switch m := r.IntN(4); m {
		case 0, 1: // some points (each with chance 3/4), or all, share coordinate i
			c0, c1 := p[0].Index(i), p[h].Index(i)
			if r.IntN(2) == 0 {
				c1 = c0
			}
			for j := range h {
				if m == 1 || r.IntN(4) != 0 {
					set(&p[j], i, c0)
					set(&p[j+h], i, c1)
				}
			}
			name += fmt.Sprintf(", sharing coordinate %d (%d)", i, m)
		case 2: // two points share the coordinates other than i
			a, b := r.IntN(h), r.IntN(h)
			for _, k := range [2]int{(i + 1) % 3, (i + 2) % 3} {
				set(&p[b], k, p[a].Index(k))
				set(&p[b+h], k, p[a+h].Index(k))
			}
			name += fmt.Sprintf(", %d and %d sharing all but coordinate %d", a, b, i)
		default: // both: all share coordinate i, and a pair the others
			a, b := r.IntN(h), r.IntN(h)
			for j := range h {
				set(&p[j], i, p[0].Index(i))
				set(&p[j+h], i, p[h].Index(i))
			}
			k := (i + 1 + r.IntN(2)) % 3
			set(&p[b], k, p[a].Index(k))
			set(&p[b+h], k, p[a+h].Index(k))
			name += fmt.Sprintf(", in an axis plane %d, %d and %d sharing coordinate %d", i, a, b, k)
		}
		out[n] = orcCaseOf(name+fmt.Sprintf(" #%d", n), c.kind, p)
	}
	return out
}

// orcFamily is a named set of cases.
type orcFamily struct {
	name  string
	cases []orcCase
}

// orcFamilies returns the generated families for kind, n cases each for
// the main ones (fewer for the variants), seeded by seed.
func orcFamilies(kind string, n int, seed uint64) []orcFamily {
	r := rand.New(rand.NewPCG(seed, uint64(len(kind))*1000+uint64(kind[0])))
	exact := func(m int) []orcCase {
		if kind == "tt" {
			return genExactTT(r, m)
		}
		return genExact(r, kind, m)
	}
	grid := func(m int) []orcCase { return genGrid(r, kind, m) }
	fs := []orcFamily{
		{"random/s=1", genRandom(r, kind, n, 1)},
		{"random/s=1e-3", genRandom(r, kind, n/4, 1e-3)},
		{"random/s=1e3", genRandom(r, kind, n/4, 1e3)},
		{"random/s=2^40", genRandom(r, kind, n/4, 0x1p40)},
		{"random/crossing", genCrossing(r, kind, n)},
		{"random/crossing ulp", genUlp(r, genCrossing(r, kind, n/4))},
		{"grid", grid(n)},
		{"exact", exact(n)},
		{"ulp", genUlp(r, exact(n))},
		{"still", genStill(exact(n / 4))},
		{"coplanar/z", genPlane(r, append(exact(n/4), grid(n/4)...), true)},
		{"coplanar/plane", genPlane(r, append(exact(n/4), grid(n/4)...), false)},
		{"coplanar/ulp", genUlp(r, genPlane(r, exact(n/4), false))},
		{"coplanar/z ulp", genUlp(r, genPlane(r, exact(n/4), true))},
		{"huge/2^500", genScaled(exact(n/8), 0x1p500)},
		{"huge/1e150", genScaled(append(exact(n/8), genRandom(r, kind, n/8, 1)...), 1e150)},
		{"huge/1e300", genScaled(append(exact(n/8), genRandom(r, kind, n/8, 1)...), 1e300)},
		{"far/1e9", genOffset(append(exact(n/8), genRandom(r, kind, n/8, 1)...), 1, 1e9)},
		{"far/1e9 ulp", genUlp(r, genOffset(exact(n/8), 1, 1e9))},
		{"tiny/1e-150", genScaled(append(exact(n/8), genRandom(r, kind, n/8, 1)...), 1e-150)},
		{"tiny/2^-1070", genScaled(exact(n/8), 0x1p-1070)},
		{"tiny/1e-310", genScaled(append(exact(n/8), genRandom(r, kind, n/8, 1)...), 1e-310)},
		{"mixed/tiny", genMixed(r, append(exact(n/160), grid(n/160)...))}, // slow in ccd: few
	}
	if kind != "tt" {
		fs = append(fs,
			orcFamily{"parallel", genParallel(r, kind, n/2)},
			orcFamily{"parallel/ulp", genUlp(r, genParallel(r, kind, n/4))},
			orcFamily{"parallel/plane", genPlane(r, genParallel(r, kind, n/4), false)},
		)
	}
	// Appended last, so that the families above keep their cases.
	shared := append(append(exact(n/2), grid(n/4)...), genCrossing(r, kind, n/4)...)
	fs = append(fs,
		orcFamily{"shared", genShared(r, shared)},
		orcFamily{"shared/ulp", genUlp(r, genShared(r, append(exact(n/4), grid(n/4)...)))},
		orcFamily{"shared/far 1e9", genOffset(genShared(r, exact(n/4)), 1, 1e9)},
		orcFamily{"shared/×2^-600", genScaled(genShared(r, exact(n/8)), 0x1p-600)},
	)
	nonEmpty := fs[:0]
	for _, f := range fs {
		if len(f.cases) > 0 {
			nonEmpty = append(nonEmpty, f)
		}
	}
	return nonEmpty
}
