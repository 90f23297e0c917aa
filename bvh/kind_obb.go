package bvh

import (
	"math"

	"github.com/collide3d/collide/bv"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh"
)

// This file is the OBB kind (Gottschalk, Lin and Manocha, RAPID): boxes
// oriented by the principal axes of the convex hull of their triangles,
// tested with the 15-axis separating-axis test under the relative pose.

var obbKind = volKind[bv.OBB]{
	kind: OBB,
	fit:  func(tris []geom.Triangle, _ *fitScratch) bv.OBB { return bv.FitOBB(tris, bv.FitHull) },
	frame: func(v *bv.OBB, _ []geom.Triangle) ([3]geom.Vec3, [3]float64) {
		return [3]geom.Vec3{v.Axes.Row(0), v.Axes.Row(1), v.Axes.Row(2)}, [3]float64{v.Half.X, v.Half.Y, v.Half.Z}
	},
	volume: func(v *bv.OBB) float64 { return v.Volume() },
	box: func(b *bv.OBB) geom.AABB {
		var e geom.Vec3
		for k := range 3 {
			e = e.Add(b.Axes.Row(k).Abs().Scale(b.Half.Index(k)))
		}
		return geom.AABB{Min: b.C.Sub(e), Max: b.C.Add(e)}
	},
	floats: func(b *bv.OBB, dst []*float64) []*float64 {
		a := &b.Axes
		return append(dst, &b.C.X, &b.C.Y, &b.C.Z, &a[0][0], &a[0][1], &a[0][2], &a[1][0], &a[1][1], &a[1][2],
			&a[2][0], &a[2][1], &a[2][2], &b.Half.X, &b.Half.Y, &b.Half.Z)
	},
	probes: obbProbes,
	check: func(t *flat[bv.OBB], m *mesh.TriMesh, sh *shape) *fault {
		return checkHolds(t, OBB, m, sh, obbFault, func(b *bv.OBB, p geom.Vec3) bool {
			return math.IsInf(b.Half.X, 1) || obbHolds(b, p)
		})
	},
}

// obbQuery is a query between two OBB trees.
type obbQuery struct{ moveQuery[bv.OBB] }

// update moves flying node f's centre and axes by the pose.
func (q *obbQuery) update(f int32) {
	v := q.ft.vol(f)
	q.moveAxes(f, v.C, &v.Axes)
}

// overlap runs the separating-axis test of environment box e and flying box
// f, in e's frame. (The relative frame is computed here, not in a function
// shared with the RSS test: the call costs a third of the test.)
func (q *obbQuery) overlap(e, f int32, _ *noFrame) bool {
	a, b := q.et.vol(e), q.ft.vol(f)
	wax := &q.sc.wax[f]
	d := q.sc.wc[f].Sub(a.C)
	var r, absR geom.Mat3
	for i := range 3 {
		ai := a.Axes.Row(i)
		for j := range 3 {
			x := ai.X*wax[j][0] + ai.Y*wax[j][1] + ai.Z*wax[j][2]
			r[i][j], absR[i][j] = x, math.Abs(x)
		}
	}
	return !bv.OBBDisjoint(a.Half, b.Half, &r, &absR, a.Axes.MulVec(d), q.pad)
}

// flyLeaf tests environment box e against the triangles of flying leaf f
// at the pose.
func (q *obbQuery) flyLeaf(e, f int32) bool {
	v := q.et.vol(e)
	for _, t := range q.flyTris(f) {
		x := q.flyTriangle(t)
		if !triFrameDisjoint(&x, v.C, &v.Axes, v.Half, q.tpad) {
			return true
		}
	}
	return false
}

// envLeaf tests the triangles of environment leaf e against flying box f,
// in the flying model's coordinates.
func (q *obbQuery) envLeaf(e, f int32) bool {
	v := q.ft.vol(f)
	for _, t := range q.envTris(e) {
		if !triFrameDisjoint(q.envInFly(t), v.C, &v.Axes, v.Half, q.tpad) {
			return true
		}
	}
	return false
}

// triFrameDisjoint reports whether triangle x and the box of half-extents h
// about c along axes (rows) are disjoint, testing x's image u = axes·(x - c)
// against the box [-h, h]. The points of an OBB (RSS) satisfy the slab
// conditions |axes·(p - c)| ≤ h, stored axes and all: the image of the box
// is exactly [-h, h], the map is linear, so x meets the box only if its
// image does; the image is off by its rounding, within the padding.
func triFrameDisjoint(x *geom.Triangle, c geom.Vec3, axes *geom.Mat3, h geom.Vec3, pad float64) bool {
	return bv.TriBoxDisjoint(axes.MulVec(x[0].Sub(c)), axes.MulVec(x[1].Sub(c)), axes.MulVec(x[2].Sub(c)), h, pad)
}

// envFirst descends the box with the larger surface (RAPID descends the
// one with the larger extent: on the peers' quick scenes, the surface
// leaves a fifth of the leaf tests on AABB trees, as many volume tests).
func (q *obbQuery) envFirst(e, f int32, _ *noFrame) bool {
	return boxArea(q.et.vol(e).Half) >= boxArea(q.ft.vol(f).Half)
}

// probes: Cv tests nearby nodes of t against those of t moved by costPose
// (moved beforehand: that is Cu); Cu moves nodes.
func obbProbes(t *Tree) (cv, cu func(n int)) {
	q := obbQuery{newMoveQuery[bv.OBB](t, t, costPose, request{}, &Scratch{}, nil, true)}
	return probeOBB(&q, vtreeProbes[bv.OBB](t))
}
