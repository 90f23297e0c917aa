package world

import (
	"math"

	"github.com/collide3d/collide/bv"
	"github.com/collide3d/collide/geom"
)

// smallHull is the number of hull vertices up to which bound projects
// every vertex rather than climbing: a cube's 8 cost less than 6 climbs.
const smallHull = 12

// bound returns the world box of ob at its pose: the box of its convex
// hull's vertices moved by the pose, padded by pad. It is HullDOP with the
// 6-DOP, written for it: the extreme vertex along x (y, z) is the one that
// maximises row 0 (1, 2) of R, found by hill climbing from the last one,
// and its coordinate is computed as geom.Pose.Apply computes it,
// fl(fl(rowᵢ·x) + tᵢ), so that HullDOP's proof holds (its pad for the axes,
// 2⁻⁴⁸(3ρM + τ), is the part 2⁻⁴⁸·3M + 2⁻⁴⁸τ of pad's, ρ ≤ 1 + 1e-6); small
// hulls project every vertex (HullDOPBrute).
//
// As x ↦ fl(x + tᵢ) is monotone, the extreme of fl(fl(rowᵢ·x) + tᵢ) is
// fl(extreme of fl(rowᵢ·x) + tᵢ): bound keeps the extremes of R·x, and an
// object that only translated gets the same box, bit for bit, from them and
// its new t, without looking at its hull.
func (w *World) bound(ob *object) geom.AABB {
	h := ob.model.hull
	r, t := &ob.pose.R, [3]float64{ob.pose.T.X, ob.pose.T.Y, ob.pose.T.Z}
	if !ob.rotValid || ob.rot != *r {
		ob.rot, ob.rotValid = *r, true
		lo, hi := &ob.rlo, &ob.rhi
		switch n := h.Len(); {
		case n == 0:
			*lo, *hi = [3]float64{}, [3]float64{}
		case n <= smallHull:
			rows := [3]geom.Vec3{r.Row(0), r.Row(1), r.Row(2)}
			*lo = [3]float64{math.Inf(1), math.Inf(1), math.Inf(1)}
			*hi = [3]float64{math.Inf(-1), math.Inf(-1), math.Inf(-1)}
			for v := range n {
				x := h.Vertex(v)
				for i := range 3 {
					c := rows[i].Dot(x)
					lo[i] = min(lo[i], c)
					hi[i] = max(hi[i], c)
				}
			}
		default:
			for i := range 3 {
				g := r.Row(i)
				a, _ := h.Extreme(g, int(ob.climb[2*i]))
				b, _ := h.Extreme(g.Neg(), int(ob.climb[2*i+1]))
				ob.climb[2*i], ob.climb[2*i+1] = int32(a), int32(b)
				hi[i] = g.Dot(h.Vertex(a))
				lo[i] = g.Dot(h.Vertex(b))
			}
		}
	}
	p := w.pad(ob, h.MaxAbs())
	return geom.AABB{
		Min: geom.V((ob.rlo[0]+t[0])-p, (ob.rlo[1]+t[1])-p, (ob.rlo[2]+t[2])-p),
		Max: geom.V((ob.rhi[0]+t[0])+p, (ob.rhi[1]+t[1])+p, (ob.rhi[2]+t[2])+p),
	}
}

// pad returns the padding of the world box of an object at pose p whose
// hull's largest |coordinate| is m.
//
// A pair (E, F) is tested with E as the environment and F at the relative
// pose P = E⁻¹∘F computed in float64 (geom.Pose.Inverse and Compose). Say
// the query finds a point p of a triangle of E equal to a point of the
// computed triangle of F: p = Σλᵢwᵢ, wᵢ = fl(P·vᵢ), q = Σλᵢvᵢ. Write
// u = 2⁻⁵³, d_X = ‖R_X R_Xᵀ - I‖∞ (a pose's rotation need only be
// orthonormal to within 1e-6), M_X the largest |coordinate| of X's hull and
// τ_X = |t_X|∞. The world points y_E = R_E·p + t_E and y_F = R_F·q + t_F
// lie in the boxes of E and F (HullDOP's box holds the computed images of
// the hull's vertices; the exact images of points of the hull are within
// γ₄(3M + τ) of them, which the pad below covers). Bounding the roundings
// of R_Eᵀ R_F, R_Eᵀ(t_F - t_E) and P·vᵢ gives wᵢ = R_Eᵀ(R_F vᵢ + t_F - t_E)
// + eᵢ with |eᵢ|∞ ≤ 20u(M_F + τ_E + τ_F), so
//
//	y_E - y_F = D_E·(y_F - t_E) + R_E·e,  D_E = R_E R_Eᵀ - I,
//
// and with |y_F - t_E|∞ ≤ 3.01·M_E + Δ and τ_E ≤ 3.01(M_E + M_F) + τ_F + Δ
// (t_E = y_E - R_E p), where Δ = |y_E - y_F|∞, for d_E ≤ 1e-5:
//
//	Δ ≤ 3.02·d_E·M_E + 185u·M_E + 245u·M_F + 123u·τ_F.
//
// The terms of E and those of F are each at most pad_X = 3.1·d_X·M_X +
// 2⁻⁴³(3M_X + τ_X) (2⁻⁴³ = 1024u, which also covers γ₄(3M + τ), the
// rounding of the padded bounds and of pad itself), so boxes padded by
// pad_E and pad_F share a point whenever the query can find a contact. With
// a tolerance eps the query reports points up to eps apart in E's frame, at
// most eps(1 + d_E) in the world: each box grows by eps(1 + 1e-5)/2 more.
func (w *World) pad(ob *object, m float64) float64 {
	t := ob.pose.T
	tau := max(math.Abs(t.X), math.Abs(t.Y), math.Abs(t.Z))
	return 3.1*ob.defect*m + 0x1p-43*(3*m+tau) + w.opts.Eps*(0.5+0.5e-5) + 0x1p-1000
}

// defect returns a bound on ‖R Rᵀ - I‖∞ for the pad, and whether R is a
// rotation to within RotationTol (every entry of R Rᵀ - I and det R - 1).
func defect(r *geom.Mat3) (float64, bool) {
	d, worst := 0.0, 0.0
	rows := [3]geom.Vec3{r.Row(0), r.Row(1), r.Row(2)}
	for i := range 3 {
		row := 0.0
		for j := range 3 {
			s := rows[i].Dot(rows[j])
			if i == j {
				s--
			}
			row += math.Abs(s)
			worst = max(worst, math.Abs(s))
		}
		d = max(d, row)
	}
	d = d*(1+0x1p-30) + 0x1p-49 // the rounding of d itself
	return d, worst <= RotationTol && math.Abs(r.Det()-1) <= RotationTol
}

// sphereBounds returns the world spheres of ob at level l of detail,
// padded like its box, into w.sbuf.
func (w *World) sphereBounds(ob *object, l int) []bv.Sphere {
	md := ob.model
	for len(md.levels) <= l {
		md.levels = append(md.levels, md.m.Spheres(len(md.levels)))
	}
	p := w.pad(ob, ob.model.hull.MaxAbs())
	w.sbuf = w.sbuf[:0]
	for _, s := range md.levels[l] {
		w.sbuf = append(w.sbuf, bv.Sphere{C: ob.pose.Apply(s.C), R: s.R*(1+0x1p-40) + 2*p})
	}
	return w.sbuf
}

// dopBound returns the world k-DOP of ob at its pose, for a broad phase
// that takes DOPs (broad.DOPs): bv.HullDOP of its hull, climbing from the
// vertices of st, each slab i widened by |d_i|₁·pad. The proof of pad
// carries over: HullDOP's slabs hold the computed projections of the
// computed images of the hull's vertices, within 6.01u·|d_i|₁(3ρM + τ) of
// the exact projections of the exact images (HullDOP's E₁), which
// |d_i|₁·2⁻⁴³(3M + τ) covers many times; and two world points y_E, y_F
// with |y_E - y_F|∞ ≤ Δ, or Euclidean distance up to eps(1 + 1e-5), have
// projections on d_i at most |d_i|₁·Δ, or |d_i|₂·eps(1 + 1e-5) ≤
// |d_i|₁·eps(1 + 1e-5), apart. So the DOPs of E and F padded by
// |d_i|₁·pad_E and |d_i|₁·pad_F share a point on every slab whenever the
// query can find a contact, as their boxes do.
func (w *World) dopBound(ob *object, k bv.K, st *bv.ClimbState) bv.DOP {
	h := ob.model.hull
	var d bv.DOP
	if h.Len() <= 2*k.Slabs() {
		d = bv.HullDOPBrute(h, k, ob.pose.R, ob.pose.T)
	} else {
		d, _ = bv.HullDOP(h, k, ob.pose.R, ob.pose.T, st)
	}
	p := w.pad(ob, h.MaxAbs())
	for i := range k.Slabs() {
		v := k.Dir(i)
		m := math.Abs(v.X) + math.Abs(v.Y) + math.Abs(v.Z)
		d.Lo[i] -= m * p
		d.Hi[i] += m * p
	}
	return d
}

// setDOP gives the broad phase the world DOP of object id.
func (w *World) setDOP(id ID, ob *object) {
	for len(w.climbs) <= int(id) {
		w.climbs = append(w.climbs, bv.ClimbState{})
	}
	w.dop = w.dopBound(ob, w.dops.K(), &w.climbs[id])
	w.dops.SetDOP(int32(id), &w.dop)
}
