package bv

import (
	"math"

	"github.com/collide3d/collide/geom"
)

// TriBoxDisjoint reports whether the triangle a, b, c and the box of
// half-extents h centred at the origin and aligned with the axes are
// separated by more than pad: the separating-axis test of Akenine-Möller
// ("Fast 3D triangle-box overlap testing", 2001) on the 13 axes that can
// separate a triangle from a box (the box's three face normals, the
// triangle's normal, and the nine cross products of a triangle edge with a
// box axis), the box's faces first because they are the cheapest to test
// and cull the most.
//
// It is conservative: true means the two are disjoint even if every
// coordinate of the triangle was off by up to pad/4, the box grown by pad/4
// in every direction and both by a tolerance of pad/4 more, provided pad is
// at least 2⁻⁴⁶ times the largest |coordinate| and half-extent. On each
// axis L the test compares the triangle's projection with the box's radius
// Σ h_i·|L_i|, padded by pad·|L|₁: the shifts move the projections by at
// most 3/4·pad·|L|₁, and the rounding by less than 10u·|L|₁ times the
// largest coordinate (u = 2⁻⁵³): each projection sums two or three
// products. The axes are used as computed (any axis separates if it
// separates), so the rounding of the edges and the normal does not matter,
// except that the projections of an edge's two ends on an axis made from
// the edge are taken equal: they differ by the edge's rounding δ times the
// axis, |δ·L| ≤ 2u·|L|₁ times the largest coordinate. A corner whose
// coordinates are all NaN makes the triangle never disjoint.
func TriBoxDisjoint(a, b, c, h geom.Vec3, pad float64) bool {
	// Face normals of the box: the triangle's bounding box against the box.
	if min(a.X, b.X, c.X) > h.X+pad || max(a.X, b.X, c.X) < -h.X-pad ||
		min(a.Y, b.Y, c.Y) > h.Y+pad || max(a.Y, b.Y, c.Y) < -h.Y-pad ||
		min(a.Z, b.Z, c.Z) > h.Z+pad || max(a.Z, b.Z, c.Z) < -h.Z-pad {
		return true
	}
	e0, e1, e2 := b.Sub(a), c.Sub(b), a.Sub(c)
	// The triangle's normal.
	n := e0.Cross(e1)
	an := geom.Vec3{X: math.Abs(n.X), Y: math.Abs(n.Y), Z: math.Abs(n.Z)}
	// The three projections, not one: the computed normal of a sliver
	// can be far from perpendicular to its edges.
	pa, pb, pc := n.Dot(a), n.Dot(b), n.Dot(c)
	r := h.X*an.X + h.Y*an.Y + h.Z*an.Z + pad*(an.X+an.Y+an.Z)
	if min(pa, pb, pc) > r || max(pa, pb, pc) < -r {
		return true
	}
	// The edges × the box's axes. For the axis e × x = (0, -e.z, e.y)
	// the projections of the edge's two ends are equal (in exact
	// arithmetic): the test takes both the third vertex's and the ends'.
	return edgeAxes(e0, a, c, h, pad) || edgeAxes(e1, b, a, h, pad) || edgeAxes(e2, c, b, h, pad)
}

// edgeAxes tests the three axes e × x, e × y and e × z, for the edge e from
// p (whose other end projects alike) and the triangle's third vertex o.
func edgeAxes(e, p, o, h geom.Vec3, pad float64) bool {
	ax, ay, az := math.Abs(e.X), math.Abs(e.Y), math.Abs(e.Z)
	// e × x = (0, e.z, -e.y): projection e.z·y - e.y·z.
	if sep(e.Z*p.Y-e.Y*p.Z, e.Z*o.Y-e.Y*o.Z, h.Y*az+h.Z*ay+pad*(ay+az)) {
		return true
	}
	// e × y = (-e.z, 0, e.x): projection e.x·z - e.z·x.
	if sep(e.X*p.Z-e.Z*p.X, e.X*o.Z-e.Z*o.X, h.X*az+h.Z*ax+pad*(ax+az)) {
		return true
	}
	// e × z = (e.y, -e.x, 0): projection e.y·x - e.x·y.
	return sep(e.Y*p.X-e.X*p.Y, e.Y*o.X-e.X*o.Y, h.X*ay+h.Y*ax+pad*(ax+ay))
}

// sep reports whether the interval between p and q lies outside [-r, r].
func sep(p, q, r float64) bool { return min(p, q) > r || max(p, q) < -r }

// TriAxes is a triangle prepared for TriBoxDisjoint's test against many
// boxes: its projections on the 13 axes, which depend on the triangle
// alone when the boxes are aligned with the axes. A triangle tested against
// a run of boxes (a leaf against the nodes of the other tree) pays for the
// products once, and only if a box comes close: its bounding box is
// prepared first, the rest when a box first meets it.
type TriAxes struct {
	v      [3]geom.Vec3
	pad    float64
	lo, hi geom.Vec3 // the triangle's bounding box, padded
	full   bool      // the fields below are set
	// The normal n, |n| per component, and the interval of the corners'
	// projections on n, padded by pad·|n|₁.
	n, an    geom.Vec3
	nlo, nhi float64
	// The edges e_k (k = 0, 1, 2), |e_k| per component, and the interval
	// of the corners' projections on e_k × x, e_k × y and e_k × z, padded
	// by pad·|axis|₁.
	e, ae    [3]geom.Vec3
	elo, ehi [3][3]float64
}

// PrepareTri returns the triangle a, b, c prepared for BoxDisjoint with
// the padding pad.
func PrepareTri(a, b, c geom.Vec3, pad float64) TriAxes {
	var t TriAxes
	t.Reset(a, b, c, pad)
	return t
}

// Reset prepares t for the triangle a, b, c and the padding pad.
func (t *TriAxes) Reset(a, b, c geom.Vec3, pad float64) {
	t.v = [3]geom.Vec3{a, b, c}
	t.pad = pad
	t.lo = geom.Vec3{X: min(a.X, b.X, c.X) - pad, Y: min(a.Y, b.Y, c.Y) - pad, Z: min(a.Z, b.Z, c.Z) - pad}
	t.hi = geom.Vec3{X: max(a.X, b.X, c.X) + pad, Y: max(a.Y, b.Y, c.Y) + pad, Z: max(a.Z, b.Z, c.Z) + pad}
	t.full = false
}

// complete sets the projections on the normal and the edge axes.
func (t *TriAxes) complete() {
	a, b, c := t.v[0], t.v[1], t.v[2]
	t.full = true
	t.e = [3]geom.Vec3{b.Sub(a), c.Sub(b), a.Sub(c)}
	t.n = t.e[0].Cross(t.e[1])
	t.an = t.n.Abs()
	pn := t.pad * (t.an.X + t.an.Y + t.an.Z)
	pa, pb, pc := t.n.Dot(a), t.n.Dot(b), t.n.Dot(c)
	t.nlo, t.nhi = min(pa, pb, pc)-pn, max(pa, pb, pc)+pn
	// Edge k runs from p (its other end projects alike) and o is the
	// third corner.
	ends := [3][2]geom.Vec3{{a, c}, {b, a}, {c, b}}
	for k, e := range t.e {
		ae := e.Abs()
		t.ae[k] = ae
		p, o := ends[k][0], ends[k][1]
		px, ox := e.Z*p.Y-e.Y*p.Z, e.Z*o.Y-e.Y*o.Z
		py, oy := e.X*p.Z-e.Z*p.X, e.X*o.Z-e.Z*o.X
		pz, oz := e.Y*p.X-e.X*p.Y, e.Y*o.X-e.X*o.Y
		qx, qy, qz := t.pad*(ae.Y+ae.Z), t.pad*(ae.X+ae.Z), t.pad*(ae.X+ae.Y)
		t.elo[k] = [3]float64{min(px, ox) - qx, min(py, oy) - qy, min(pz, oz) - qz}
		t.ehi[k] = [3]float64{max(px, ox) + qx, max(py, oy) + qy, max(pz, oz) + qz}
	}
}

// BoxDisjoint reports whether the triangle and the box of half-extents h
// centred at c and aligned with the axes are separated by more than the
// padding: TriBoxDisjoint's test of the triangle moved by -c, with the same
// guarantee, provided the padding is at least 2⁻⁴⁵ times the largest
// |coordinate| of the triangle, of c and of h (the projections of the
// triangle and of c are now rounded apart, each within 3u·|L|₁ times its
// coordinates, and the padding is added to the triangle's projections
// beforehand, with a rounding of its own of at most u times them).
func (t *TriAxes) BoxDisjoint(c, h geom.Vec3) bool {
	if t.lo.X-c.X > h.X || t.hi.X-c.X < -h.X ||
		t.lo.Y-c.Y > h.Y || t.hi.Y-c.Y < -h.Y ||
		t.lo.Z-c.Z > h.Z || t.hi.Z-c.Z < -h.Z {
		return true
	}
	if !t.full {
		t.complete()
	}
	nc := t.n.Dot(c)
	r := h.X*t.an.X + h.Y*t.an.Y + h.Z*t.an.Z
	if t.nlo-nc > r || t.nhi-nc < -r {
		return true
	}
	for k := range 3 {
		e, ae := &t.e[k], &t.ae[k]
		lo, hi := &t.elo[k], &t.ehi[k]
		if x, r := e.Z*c.Y-e.Y*c.Z, h.Y*ae.Z+h.Z*ae.Y; lo[0]-x > r || hi[0]-x < -r {
			return true
		}
		if y, r := e.X*c.Z-e.Z*c.X, h.X*ae.Z+h.Z*ae.X; lo[1]-y > r || hi[1]-y < -r {
			return true
		}
		if z, r := e.Y*c.X-e.X*c.Y, h.X*ae.Y+h.Y*ae.X; lo[2]-z > r || hi[2]-z < -r {
			return true
		}
	}
	return false
}
