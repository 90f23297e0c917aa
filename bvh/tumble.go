package bvh

import (
	"math"

	"github.com/collide3d/collide/bv"
	"github.com/collide3d/collide/geom"
)

// bound sets lo and hi to the k-DOP of the points p transformed by x ↦ R·x +
// t. The transform may round differently from geom.Pose.Apply (it may fuse
// multiply-adds); the caller pads by a bound on the difference.
func bound(k bv.K, pts []geom.Vec3, r *geom.Mat3, t geom.Vec3, lo, hi *[bv.MaxSlabs]float64) {
	inf := math.Inf(1)
	for i := range lo {
		lo[i], hi[i] = inf, -inf
	}
	switch k {
	case bv.K6:
		bound6(pts, r, t, lo, hi)
	case bv.K14:
		bound14(pts, r, t, lo, hi)
	case bv.K18:
		bound18(pts, r, t, lo, hi)
	default:
		bound26(pts, r, t, lo, hi)
	}
}

func bound6(pts []geom.Vec3, r *geom.Mat3, t geom.Vec3, lo, hi *[bv.MaxSlabs]float64) {
	r0, r1, r2 := r[0], r[1], r[2]
	var l, h [3]float64
	for n, p := range pts {
		v := [3]float64{
			r0[0]*p.X + r0[1]*p.Y + r0[2]*p.Z + t.X,
			r1[0]*p.X + r1[1]*p.Y + r1[2]*p.Z + t.Y,
			r2[0]*p.X + r2[1]*p.Y + r2[2]*p.Z + t.Z,
		}
		if n == 0 {
			l, h = v, v
			continue
		}
		for j := range v {
			l[j] = min(l[j], v[j])
			h[j] = max(h[j], v[j])
		}
	}
	if len(pts) > 0 {
		copy(lo[:], l[:])
		copy(hi[:], h[:])
	}
}

func bound14(pts []geom.Vec3, r *geom.Mat3, t geom.Vec3, lo, hi *[bv.MaxSlabs]float64) {
	r0, r1, r2 := r[0], r[1], r[2]
	var l, h [7]float64
	for n, p := range pts {
		x := r0[0]*p.X + r0[1]*p.Y + r0[2]*p.Z + t.X
		y := r1[0]*p.X + r1[1]*p.Y + r1[2]*p.Z + t.Y
		z := r2[0]*p.X + r2[1]*p.Y + r2[2]*p.Z + t.Z
		s, d := x+y, x-y
		v := [7]float64{x, y, z, s + z, d + z, s - z, d - z}
		if n == 0 {
			l, h = v, v
			continue
		}
		for j := range v {
			l[j] = min(l[j], v[j])
			h[j] = max(h[j], v[j])
		}
	}
	if len(pts) > 0 {
		copy(lo[:], l[:])
		copy(hi[:], h[:])
	}
}

func bound18(pts []geom.Vec3, r *geom.Mat3, t geom.Vec3, lo, hi *[bv.MaxSlabs]float64) {
	r0, r1, r2 := r[0], r[1], r[2]
	var l, h [9]float64
	for n, p := range pts {
		x := r0[0]*p.X + r0[1]*p.Y + r0[2]*p.Z + t.X
		y := r1[0]*p.X + r1[1]*p.Y + r1[2]*p.Z + t.Y
		z := r2[0]*p.X + r2[1]*p.Y + r2[2]*p.Z + t.Z
		v := [9]float64{x, y, z, x + y, x + z, y + z, x - y, x - z, y - z}
		if n == 0 {
			l, h = v, v
			continue
		}
		for j := range v {
			l[j] = min(l[j], v[j])
			h[j] = max(h[j], v[j])
		}
	}
	if len(pts) > 0 {
		copy(lo[:], l[:])
		copy(hi[:], h[:])
	}
}

func bound26(pts []geom.Vec3, r *geom.Mat3, t geom.Vec3, lo, hi *[bv.MaxSlabs]float64) {
	r0, r1, r2 := r[0], r[1], r[2]
	var l, h [13]float64
	for n, p := range pts {
		x := r0[0]*p.X + r0[1]*p.Y + r0[2]*p.Z + t.X
		y := r1[0]*p.X + r1[1]*p.Y + r1[2]*p.Z + t.Y
		z := r2[0]*p.X + r2[1]*p.Y + r2[2]*p.Z + t.Z
		s, d := x+y, x-y
		v := [13]float64{x, y, z, s + z, d + z, s - z, d - z, s, x + z, y + z, d, x - z, y - z}
		if n == 0 {
			l, h = v, v
			continue
		}
		for j := range v {
			l[j] = min(l[j], v[j])
			h[j] = max(h[j], v[j])
		}
	}
	if len(pts) > 0 {
		copy(lo[:], l[:])
		copy(hi[:], h[:])
	}
}
