package bvh

import (
	"github.com/collide3d/collide/bv"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh"
)

// This file is the sphere kind: near-minimal spheres (bv.BoundingSphere),
// their centres moved with the pose.

var sphereKind = volKind[bv.Sphere]{
	kind: Sphere,
	fit: func(tris []geom.Triangle, sc *fitScratch) bv.Sphere {
		sc.pts = sc.pts[:0]
		for _, t := range tris {
			sc.pts = append(sc.pts, t[0], t[1], t[2])
		}
		var s bv.Sphere
		s, sc.buf = bv.BoundingSphereBuf(sc.pts, sc.buf)
		return s
	},
	frame:  func(_ *bv.Sphere, tris []geom.Triangle) ([3]geom.Vec3, [3]float64) { return aabbFrame(tris) },
	volume: func(v *bv.Sphere) float64 { return v.Volume() },
	box: func(s *bv.Sphere) geom.AABB {
		r := geom.V(s.R, s.R, s.R)
		return geom.AABB{Min: s.C.Sub(r), Max: s.C.Add(r)}
	},
	floats: func(s *bv.Sphere, dst []*float64) []*float64 { return append(dst, &s.C.X, &s.C.Y, &s.C.Z, &s.R) },
	probes: sphereProbes,
	check: func(t *flat[bv.Sphere], m *mesh.TriMesh, sh *shape) *fault {
		return checkHolds(t, Sphere, m, sh, sphereFault, sphereHolds)
	},
}

// sphereQuery is a query between two sphere trees.
type sphereQuery struct{ moveQuery[bv.Sphere] }

// update moves flying node f's centre by the pose.
func (q *sphereQuery) update(f int32) { q.sc.wc[f] = q.pose.Apply(q.ft.vol(f).C) }

// overlap compares the distance of the centres with the sum of the radii.
func (q *sphereQuery) overlap(e, f int32, _ *noFrame) bool {
	a, b := q.et.vol(e), q.ft.vol(f)
	d := q.sc.wc[f].Sub(a.C)
	rr := a.R + b.R + q.pad
	return d.Dot(d) <= rr*rr
}

// flyLeaf tests environment sphere e, by its bounding cube, against the
// triangles of flying leaf f at the pose.
func (q *sphereQuery) flyLeaf(e, f int32) bool {
	v := q.et.vol(e)
	h := geom.Vec3{X: v.R, Y: v.R, Z: v.R}
	for _, t := range q.flyTris(f) {
		if !q.flyAxes(t).BoxDisjoint(v.C, h) {
			return true
		}
	}
	return false
}

// envLeaf tests the triangles of environment leaf e against flying sphere
// f's bounding cube, in the flying model's coordinates.
func (q *sphereQuery) envLeaf(e, f int32) bool {
	v := q.ft.vol(f)
	h := geom.Vec3{X: v.R, Y: v.R, Z: v.R}
	for _, t := range q.envTris(e) {
		if !q.envAxes(t).BoxDisjoint(v.C, h) {
			return true
		}
	}
	return false
}

// envFirst descends the larger sphere.
func (q *sphereQuery) envFirst(e, f int32, _ *noFrame) bool {
	return q.et.vol(e).R >= q.ft.vol(f).R
}

// sphereProbes: as obbProbes.
func sphereProbes(t *Tree) (cv, cu func(n int)) {
	q := sphereQuery{newMoveQuery[bv.Sphere](t, t, costPose, request{}, &Scratch{}, nil, false)}
	return probeSphere(&q, vtreeProbes[bv.Sphere](t))
}
