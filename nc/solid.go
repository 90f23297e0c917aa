package nc

import (
	"math"

	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/nc/shape"
)

// This file decides whether a tool's parts, offset by the tolerance and
// swept over a set of positions (a shape.Path), meet a triangle.
//
// Cylinders and balls are decided exactly by package shape. Every other
// solid of revolution here (cones, bull-nose corners, and the rims that the
// tolerance rounds onto cylinders and cones) has a radius monotone in the
// height over each of its pieces, and is bracketed by cylinders: over a
// slab of heights the cylinder of the piece's smallest radius there lies
// inside it and the cylinder of its largest contains it. The outer one
// missing proves a miss, the inner one meeting proves contact, and
// otherwise the slab is halved, to at most maxDepth halvings. A slab still
// undecided then is reported as contact, a graze: the triangle is then
// within 2^-maxDepth of the piece's height times its slope of it (the two
// cylinders' radii differ by no more), and may not touch it.

// maxDepth is the most halvings of a bracketed slab.
const maxDepth = 40

// solid is one testable solid of an offset tool.
type solid struct {
	kind solidKind
	role Role
	// r is the radius of a cylinder or a ball; z0..z1 the heights (a
	// ball's centre is at z0).
	r      float64
	z0, z1 float64
	// inc says a profile's radius increases with the height (else it
	// decreases); terms are its radius: at height z the largest of the
	// terms whose range holds z.
	inc   bool
	terms []term
}

type solidKind uint8

const (
	exactCyl solidKind = iota
	exactBall
	profile
)

// term is a piece of a profile: a line from radius a at height za to
// radius b at zb, or (arc) the circle r = a + sqrt(c² − (z − zc)²),
// over za..zb.
type term struct {
	arc    bool
	za, zb float64
	a, b   float64
	c, zc  float64
}

// rough is the relative slack of a profile's radii: the computed radius
// times 1 ∓ rough bounds the true one (a few roundings of u = 2^-53 each,
// and a square root's loss near a rim, bounded in radius below).
const rough = 0x1p-44

// radius returns a lower (up false) or upper bound of the profile's radius
// at height z.
func (s *solid) radius(z float64, up bool) float64 {
	r := 0.0
	for _, t := range s.terms {
		if z < t.za || z > t.zb {
			continue
		}
		var v float64
		switch {
		case !t.arc && z == t.za:
			v = t.a // exact at the ends
		case !t.arc && z == t.zb:
			v = t.b
		case t.arc && (z-t.zc == t.c || t.zc-z == t.c):
			v = t.a // exact where the circle meets its centre's radius
		case t.arc:
			d := math.Abs(z - t.zc)
			// d is within 2^-53 of |z − zc| relatively; take it the
			// other way for each bound.
			if up {
				d *= 1 - 0x1p-51
			} else {
				d *= 1 + 0x1p-51
			}
			w := (t.c - d) * (t.c + d)
			if w < 0 {
				w = 0
			}
			v = t.a + math.Sqrt(w)
			v = bound(v, up)
		default:
			v = bound(t.a+(t.b-t.a)*(z-t.za)/(t.zb-t.za), up)
		}
		r = max(r, v)
	}
	return r
}

// bound returns r moved by the slack: up for an upper bound, down for a
// lower one.
func bound(r float64, up bool) float64 {
	if up {
		return r*(1+rough) + 0x1p-1000
	}
	return max(0, r*(1-rough))
}

// solids returns the solids of tool offset by eps ≥ 0: their union is the
// set of points within eps of the tool (a cylinder grows into a cylinder
// of radius r + eps and two rounded rims; a ball into a ball of radius r +
// eps; a cone into the cone offset along its normal between two rims; a
// corner into a corner of radius c + eps and a rim).
func solids(tool Tool, eps float64) []solid {
	var out []solid
	up := func(x float64) float64 {
		if eps == 0 {
			return x
		}
		// x + eps, rounded up.
		return x + eps + math.Abs(x+eps)*0x1p-52
	}
	for _, p := range tool.Parts {
		switch p.Shape {
		case Cyl:
			if eps == 0 {
				out = append(out, solid{kind: exactCyl, role: p.Role, r: p.R0, z0: p.Z0, z1: p.Z1})
				continue
			}
			out = append(out,
				solid{kind: exactCyl, role: p.Role, r: up(p.R0), z0: p.Z0, z1: p.Z1},
				solid{kind: profile, role: p.Role, inc: true, z0: p.Z0 - eps, z1: p.Z0,
					terms: []term{{arc: true, za: p.Z0 - eps, zb: p.Z0, a: p.R0, c: eps, zc: p.Z0}}},
				solid{kind: profile, role: p.Role, inc: false, z0: p.Z1, z1: p.Z1 + eps,
					terms: []term{{arc: true, za: p.Z1, zb: p.Z1 + eps, a: p.R0, c: eps, zc: p.Z1}}})
		case Ball:
			out = append(out, solid{kind: exactBall, role: p.Role, r: up(p.R0), z0: p.Z0 + p.R0})
		case Corner:
			c := p.Z1 - p.Z0
			out = append(out, solid{kind: profile, role: p.Role, inc: true, z0: p.Z0 - eps, z1: p.Z1,
				terms: []term{{arc: true, za: p.Z0 - eps, zb: p.Z1, a: p.R0, c: c + eps, zc: p.Z1}}})
			if eps > 0 {
				out = append(out, solid{kind: profile, role: p.Role, inc: false, z0: p.Z1, z1: p.Z1 + eps,
					terms: []term{{arc: true, za: p.Z1, zb: p.Z1 + eps, a: p.R1, c: eps, zc: p.Z1}}})
			}
		case Cone:
			out = append(out, coneSolids(p, eps)...)
		}
	}
	return out
}

// eroded returns the solids of tool with each part shrunk by d > 0: the
// points of each part at least d inside it (a cylinder loses d from its
// radius and from each end, a ball from its radius, a cone's side moves in
// by d along its normal, a corner's circle shrinks by d). A part thinner
// than 2d vanishes. Parts are shrunk each alone, so near the joins of two
// parts the union of the results is smaller than the whole tool shrunk.
//
// The shrunk sizes are rounded outwards (out: each solid holds the exact
// shrunk part, for proofs of a miss) or inwards (each lies inside it, for
// proofs of contact): every computed radius and height is rounded (for a
// cone, moved by 2^-50 of the magnitudes it is computed from) the way that
// makes the solid larger or smaller. A size computed exactly (a 3 mm
// cylinder shrunk by 3) is kept as it is.
func eroded(tool Tool, d float64, out bool) []solid {
	// grow returns a + b rounded the way that makes the solid larger if
	// out (else smaller), for a size whose growth grows the solid (a
	// radius, an upper end); shrink, for one whose growth shrinks it (a
	// lower end).
	grow := func(a, b float64) float64 { return addDir(a, b, out) }
	shrink := func(a, b float64) float64 { return addDir(a, b, !out) }
	small := func(x float64) float64 {
		if out {
			return math.Nextafter(x, math.Inf(-1))
		}
		return math.Nextafter(x, math.Inf(1))
	}
	var res []solid
	for _, p := range tool.Parts {
		switch p.Shape {
		case Cyl:
			r, z0, z1 := grow(p.R0, -d), shrink(p.Z0, d), grow(p.Z1, -d)
			if r >= 0 && z0 <= z1 {
				res = append(res, solid{kind: exactCyl, role: p.Role, r: r, z0: z0, z1: z1})
			}
		case Ball:
			if r := grow(p.R0, -d); r >= 0 {
				res = append(res, solid{kind: exactBall, role: p.Role, r: r, z0: p.Z0 + p.R0})
			}
		case Corner:
			c := p.Z1 - p.Z0
			cd, za, zb := grow(c, -d), shrink(p.Z0, d), grow(p.Z1, -d)
			if cd >= 0 && za <= zb {
				res = append(res, solid{kind: profile, role: p.Role, inc: true, z0: za, z1: zb,
					terms: []term{{arc: true, za: za, zb: zb, a: p.R0, c: cd, zc: p.Z1}}})
			}
		case Cone:
			h, dr := p.Z1-p.Z0, p.R1-p.R0
			in := d * math.Hypot(h, dr) / h // the radius lost at each height
			// in is within 4 roundings: moved by 2^-50 of itself, the way
			// that makes the solid larger (less lost) or smaller.
			in = small(in * (1 + math.Copysign(0x1p-50, boolSign(!out))))
			za, zb := shrink(p.Z0, d), grow(p.Z1, -d)
			if za > zb {
				continue
			}
			slack := (math.Abs(p.R0) + math.Abs(dr) + in) * 0x1p-50
			r := func(z float64) float64 {
				v := p.R0 + dr*(z-p.Z0)/h - in
				if out {
					return v + slack
				}
				return v - slack
			}
			ra, rb := r(za), r(zb)
			if ra < 0 && rb < 0 {
				continue
			}
			// Keep the heights where the radius is not negative: the
			// height of radius 0 moved by 2^-50 of the heights, outwards
			// or inwards (a line from radius 0 there to the other end
			// then bounds the shrunk side the same way).
			zs := (math.Abs(za) + math.Abs(zb)) * 0x1p-50
			if ra < 0 {
				z := za + (zb-za)*(-ra)/(rb-ra)
				if out {
					za = max(za, z-zs)
				} else {
					za = min(zb, z+zs)
				}
				ra = 0
			} else if rb < 0 {
				z := zb - (zb-za)*(-rb)/(ra-rb)
				if out {
					zb = min(zb, z+zs)
				} else {
					zb = max(za, z-zs)
				}
				rb = 0
			}
			res = append(res, solid{kind: profile, role: p.Role, inc: rb >= ra, z0: za, z1: zb,
				terms: []term{{za: za, zb: zb, a: ra, b: rb}}})
		}
	}
	return res
}

// addDir returns a + b rounded up (up) or down, exactly: the float nearest
// the sum, moved one ulp when it is on the wrong side (Knuth's TwoSum gives
// the sum's rounding error exactly).
func addDir(a, b float64, up bool) float64 {
	s := a + b
	bv := s - a
	e := (a - (s - bv)) + (b - bv)
	switch {
	case up && e > 0:
		return math.Nextafter(s, math.Inf(1))
	case !up && e < 0:
		return math.Nextafter(s, math.Inf(-1))
	}
	return s
}

// boolSign returns 1 for true, -1 for false.
func boolSign(b bool) float64 {
	if b {
		return 1
	}
	return -1
}

// coneSolids returns the solids of cone p offset by eps: its trapezoid of
// profile grown by a disc of radius eps is bounded, at each height, by the
// largest of the rims' circles and the offset side, and is split where its
// radius is largest (at the wider end) into an increasing and a
// decreasing piece.
func coneSolids(p Part, eps float64) []solid {
	if eps == 0 {
		return []solid{{kind: profile, role: p.Role, inc: p.R1 >= p.R0, z0: p.Z0, z1: p.Z1,
			terms: []term{{za: p.Z0, zb: p.Z1, a: p.R0, b: p.R1}}}}
	}
	h, dr := p.Z1-p.Z0, p.R1-p.R0
	l := math.Hypot(h, dr)
	nr, nz := h/l, -dr/l
	// The offset side, a little inside its exact place in radius (the
	// lower bound takes the largest term; an upper bound takes the rims
	// and this side pushed out by the slack).
	terms := []term{
		{arc: true, za: p.Z0 - eps, zb: p.Z0 + eps, a: p.R0, c: eps, zc: p.Z0},
		{arc: true, za: p.Z1 - eps, zb: p.Z1 + eps, a: p.R1, c: eps, zc: p.Z1},
		{za: p.Z0 + eps*nz, zb: p.Z1 + eps*nz, a: p.R0 + eps*nr, b: p.R1 + eps*nr},
	}
	if p.R1 >= p.R0 {
		return []solid{
			{kind: profile, role: p.Role, inc: true, z0: p.Z0 - eps, z1: p.Z1, terms: terms},
			{kind: profile, role: p.Role, inc: false, z0: p.Z1, z1: p.Z1 + eps, terms: terms[1:2]},
		}
	}
	return []solid{
		{kind: profile, role: p.Role, inc: true, z0: p.Z0 - eps, z1: p.Z0, terms: terms[:1]},
		{kind: profile, role: p.Role, inc: false, z0: p.Z0, z1: p.Z1 + eps, terms: terms},
	}
}

// sweptBounds returns a box holding solid s at every position in the box
// pb, slightly grown for the rounding of its sums.
func (s *solid) sweptBounds(pb geom.AABB) geom.AABB {
	r, lo, hi := s.r, s.z0, s.z1
	switch s.kind {
	case exactBall:
		lo, hi = s.z0-s.r, s.z0+s.r
	case profile:
		r = max(s.radius(s.z0, true), s.radius(s.z1, true))
	}
	b := geom.AABB{Min: pb.Min.Add(geom.V(-r, -r, lo)), Max: pb.Max.Add(geom.V(r, r, hi))}
	g := (mag(b) + r) * 0x1p-48
	return b.Expanded(g)
}

// hit is the answer of a test: contact proved (yes), or (yes and graze)
// not decided by the brackets, the triangle then being within within of
// the solid.
type hit struct {
	yes, graze bool
	within     float64
}

// or returns the answer of either test: a proof of contact if either
// proves it, else the grazes with the larger bound.
func (h hit) or(g hit) hit {
	switch {
	case h.yes && !h.graze:
		return h
	case g.yes && !g.graze:
		return g
	case !h.yes:
		return g
	case !g.yes:
		return h
	}
	h.within = max(h.within, g.within)
	return h
}

// outerSteps is the number of cylinders of a profile's outer test.
const outerSteps = 8

// bracketBudget bounds the cylinders tested for one profile and one
// triangle: a triangle parallel to a cone's side all along it would
// otherwise halve every slab to the limit.
const bracketBudget = 256

// meets reports whether solid s swept over path meets triangle t. With
// lift > 0 (each position also raised by up to lift: a helix's rise) or
// grow > 0 (each position also moved by up to grow in any direction: the
// rounding of an arc's enclosing triangle) the test is conservative: it is
// an outer test only, by a cylinder or a ball that contains the solid so
// moved.
func (s *solid) meets(path shape.Path, lift, grow float64, t geom.Triangle, st *Stats) hit {
	if lift > 0 || grow > 0 {
		st.Exact++
		g := func(r float64) float64 { return (r + grow) * (1 + 0x1p-51) }
		zlo := s.z0 - grow - math.Abs(s.z0)*0x1p-51
		zhi := func(z float64) float64 { return z + lift + grow + math.Abs(z+lift)*0x1p-51 }
		switch s.kind {
		case exactBall:
			if shape.Ball(path, s.z0, g(s.r), t) {
				return hit{yes: true}
			}
			if lift == 0 {
				return hit{}
			}
			st.Exact += 2
			return hit{yes: shape.Ball(path, s.z0+lift, g(s.r), t) || shape.Cylinder(path, g(s.r), s.z0, zhi(s.z0), t)}
		case exactCyl:
			return hit{yes: shape.Cylinder(path, g(s.r), zlo, zhi(s.z1), t)}
		}
		// A staircase of outer cylinders, each slab's widest; the
		// triangle meeting one is within the slab's radii's difference
		// of the solid, moved as allowed.
		var h hit
		for k := range outerSteps {
			za := s.z0 + (s.z1-s.z0)*float64(k)/outerSteps
			zb := s.z0 + (s.z1-s.z0)*float64(k+1)/outerSteps
			if k == outerSteps-1 {
				zb = s.z1
			}
			ra, rb := s.radius(za, true), s.radius(zb, true)
			if !shape.Cylinder(path, g(max(ra, rb)), za-grow-math.Abs(za)*0x1p-51, zhi(zb), t) {
				continue
			}
			h = h.or(hit{yes: true, graze: true, within: max(ra, rb) - min(s.radius(za, false), s.radius(zb, false))})
		}
		st.Exact += outerSteps - 1
		return h
	}
	switch s.kind {
	case exactCyl:
		st.Exact++
		return hit{yes: shape.Cylinder(path, s.r, s.z0, s.z1, t)}
	case exactBall:
		st.Exact++
		return hit{yes: shape.Ball(path, s.z0, s.r, t)}
	}
	return s.bracket(path, t, st)
}

// separated reports whether a plane parallel to triangle t proves that
// profile s swept over path misses t: with n the triangle's normal (either
// way), min over t's corners c and the path's points p of n·(c − p) must
// exceed the solid's support h(n) = max over its heights z of n_z·z +
// r(z)·|n_xy| (at the ends of a cone's heights, its radius being linear;
// with the largest radius for the others, which bounds it). Everything is
// computed in floating point and the gap must exceed a bound on its
// rounding: 2⁻⁴⁰ of the sum of the magnitudes involved, far above the few
// roundings of each term. It decides at once the case the cylinders
// bracket worst: a face parallel to a cone's side.
func (s *solid) separated(path shape.Path, t geom.Triangle) bool {
	n := t[1].Sub(t[0]).Cross(t[2].Sub(t[0]))
	nl := math.Abs(n.X) + math.Abs(n.Y) + math.Abs(n.Z)
	if nl == 0 || math.IsNaN(nl) || math.IsInf(nl, 0) {
		return false
	}
	n = n.Scale(1 / nl)
	nxy := math.Hypot(n.X, n.Y)
	pts := path.P[:path.N]
	mag := max(math.Abs(s.z0), math.Abs(s.z1))
	for _, c := range t {
		mag = max(mag, math.Abs(c.X), math.Abs(c.Y), math.Abs(c.Z))
	}
	for _, p := range pts {
		mag = max(mag, math.Abs(p.X), math.Abs(p.Y), math.Abs(p.Z))
	}
	rmax := max(s.radius(s.z0, true), s.radius(s.z1, true))
	for _, sign := range [2]float64{1, -1} {
		m := n.Scale(sign)
		lo := math.Inf(1)
		for _, c := range t {
			for _, p := range pts {
				lo = min(lo, m.Dot(c)-m.Dot(p))
			}
		}
		var h float64
		if len(s.terms) == 1 && !s.terms[0].arc {
			h = max(m.Z*s.z0+s.radius(s.z0, true)*nxy, m.Z*s.z1+s.radius(s.z1, true)*nxy)
		} else {
			h = max(m.Z*s.z0, m.Z*s.z1) + rmax*nxy
		}
		if lo-h > (4*mag+2*rmax)*0x1p-40 {
			return true
		}
	}
	return false
}

// slab is a range of heights of a bracketed profile, and its depth.
type slab struct {
	za, zb float64
	depth  int
}

// bracket decides a profile by cylinders (see the top of the file),
// breadth first: slabs are halved level by level, so that a triangle
// parallel to a cone's side all along it, which no slab decides until it
// is as thin as the gap, uses the budget evenly and its graze's bound is
// the thinnest slabs'.
func (s *solid) bracket(path shape.Path, t geom.Triangle, st *Stats) hit {
	if s.separated(path, t) {
		return hit{}
	}
	return s.cylinders(path, t, st)
}

// cylinders is bracket's halving of the slabs.
func (s *solid) cylinders(path shape.Path, t geom.Triangle, st *Stats) hit {
	var buf [bracketBudget]slab
	queue := append(buf[:0], slab{s.z0, s.z1, 0})
	var h hit
	for head := 0; head < len(queue); head++ {
		sl := queue[head]
		lo, hi := sl.za, sl.zb
		if !s.inc {
			lo, hi = hi, lo
		}
		outer := s.radius(hi, true)
		st.Exact++
		if !shape.Cylinder(path, outer, sl.za, sl.zb, t) {
			continue
		}
		inner := s.radius(lo, false)
		st.Exact += 2
		if shape.Cylinder(path, inner, sl.za, sl.zb, t) ||
			shape.Cylinder(path, s.radius(hi, false), hi, hi, t) {
			// Inside: the cylinder of the slab's least radius, and the
			// disc of its greatest at the wide end.
			return hit{yes: true}
		}
		zm := sl.za + (sl.zb-sl.za)/2
		if sl.depth >= maxDepth || zm <= sl.za || zm >= sl.zb || len(queue)+2 > cap(queue) {
			// Undecided: the triangle meets the outer cylinder, so it is
			// within the radii's difference of the solid (the solid
			// holds the inner cylinder, whose points are no farther from
			// the outer's than that, and the outer holds the slab).
			h.yes, h.graze = true, true
			h.within = max(h.within, outer-inner)
			continue
		}
		queue = append(queue, slab{sl.za, zm, sl.depth + 1}, slab{zm, sl.zb, sl.depth + 1})
	}
	return h
}
