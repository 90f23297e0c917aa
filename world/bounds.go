package world

import (
	"math"

	"github.com/collide3d/collide/bv"
	"github.com/collide3d/collide/geom"
)

// bound returns the world box of ob at its pose: the box of its convex
// hull's vertices moved by the pose (bv.HullDOP with the 6-DOP, climbing
// from the extremes of the last call), padded by pad.
func (w *World) bound(ob *object) geom.AABB {
	h := ob.model.hull
	d, _ := bv.HullDOP(h, bv.K6, ob.pose.R, ob.pose.T, &ob.climb)
	p := w.pad(ob.pose, h.MaxAbs())
	return geom.AABB{
		Min: geom.V(d.Lo[0]-p, d.Lo[1]-p, d.Lo[2]-p),
		Max: geom.V(d.Hi[0]+p, d.Hi[1]+p, d.Hi[2]+p),
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
func (w *World) pad(p geom.Pose, m float64) float64 {
	d := 0.0
	for i := range 3 {
		row := 0.0
		for j := range 3 {
			s := p.R[i][0]*p.R[j][0] + p.R[i][1]*p.R[j][1] + p.R[i][2]*p.R[j][2]
			if i == j {
				s--
			}
			row += math.Abs(s)
		}
		d = max(d, row)
	}
	d = d*(1+0x1p-30) + 0x1p-49 // the rounding of d itself
	tau := max(math.Abs(p.T.X), math.Abs(p.T.Y), math.Abs(p.T.Z))
	return 3.1*d*m + 0x1p-43*(3*m+tau) + w.opts.Eps*(0.5+0.5e-5) + 0x1p-1000
}

// sphereBounds returns the world spheres of ob at level l of detail,
// padded like its box, into w.sbuf.
func (w *World) sphereBounds(ob *object, l int) []bv.Sphere {
	md := ob.model
	for len(md.levels) <= l {
		md.levels = append(md.levels, md.m.Spheres(len(md.levels)))
	}
	p := w.pad(ob.pose, ob.model.hull.MaxAbs())
	w.sbuf = w.sbuf[:0]
	for _, s := range md.levels[l] {
		w.sbuf = append(w.sbuf, bv.Sphere{C: ob.pose.Apply(s.C), R: s.R*(1+0x1p-40) + 2*p})
	}
	return w.sbuf
}
