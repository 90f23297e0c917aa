package bvh

import (
	"math"

	"github.com/collide3d/collide/bv"
	"github.com/collide3d/collide/geom"
)

// This file is the AABB kind: boxes aligned with the model's own axes,
// tested as oriented boxes under the relative pose (no re-bounding: the
// approach of OPCODE and ColDet).
//
// The boxes stay in float64. In float32 (a 32-byte node with its children,
// 56 bytes a triangle with the mesh instead of 80), rounded outward about
// the model's centre, the queries measured 2 to 4% slower on this project's
// machine (BenchmarkQueryCPU, all pairs 86 → 89 µs, first contact 8.0 →
// 8.3 µs; 2% on a 1,000,000-triangle torus): converting each environment
// box to float64 costs more than the smaller nodes save with caches this
// large, and the face-axis test done in float32 arithmetic was no faster.

var aabbKind = volKind[box]{
	kind: AABB,
	fit: func(tris []geom.Triangle, _ *fitScratch) box {
		b := geom.EmptyAABB()
		for _, t := range tris {
			b = b.Union(t.Bounds())
		}
		return boxOf(b)
	},
	frame:  func(_ *box, tris []geom.Triangle) ([3]geom.Vec3, [3]float64) { return aabbFrame(tris) },
	volume: func(v *box) float64 { return 8 * v.H.X * v.H.Y * v.H.Z },
	box:    func(b *box) geom.AABB { return geom.AABB{Min: b.C.Sub(b.H), Max: b.C.Add(b.H)} },
	floats: func(b *box, dst []*float64) []*float64 {
		return append(dst, &b.C.X, &b.C.Y, &b.C.Z, &b.H.X, &b.H.Y, &b.H.Z)
	},
	check:  checkBoxes,
	probes: aabbProbes,
}

// boxOf returns the box of b as centre and half-extents, rounded so that
// c - h ≤ b.Min and b.Max ≤ c + h hold exactly: h is at least the rounded
// differences fl(b.Max - c) and fl(c - b.Min), stepped up by one ulp, each
// of which is at least the exact difference.
func boxOf(b geom.AABB) box {
	c := b.Min.Scale(0.5).Add(b.Max.Scale(0.5))
	up := func(x float64) float64 { return math.Nextafter(x, math.Inf(1)) }
	return box{C: c, H: geom.Vec3{
		X: up(max(b.Max.X-c.X, c.X-b.Min.X)),
		Y: up(max(b.Max.Y-c.Y, c.Y-b.Min.Y)),
		Z: up(max(b.Max.Z-c.Z, c.Z-b.Min.Z)),
	}}
}

// aabbQuery is a query between two AABB trees.
type aabbQuery struct{ moveQuery[box] }

// update moves flying node f's centre by the pose.
func (q *aabbQuery) update(f int32) { q.sc.wc[f] = q.pose.Apply(q.ft.vol(f).C) }

// overlap runs the separating-axis test of the two boxes, the flying one
// rotated by the pose, on their six face axes: the nine edge-edge axes cost
// more than they cull between two internal nodes (6% slower over the quick
// peers scenes), since the leaves' triangles are tested finely anyway
// (flyLeaf, envLeaf).
func (q *aabbQuery) overlap(e, f int32, _ *noFrame) bool {
	a, b := q.et.vol(e), q.ft.vol(f)
	return !bv.OBBFacesDisjoint(a.H, b.H, &q.r, &q.absR, q.sc.wc[f].Sub(a.C), q.pad)
}

// flyLeaf tests environment box e against the triangles of flying leaf f
// at the pose.
func (q *aabbQuery) flyLeaf(e, f int32) bool {
	v := q.et.vol(e)
	for _, t := range q.flyTris(f) {
		if !q.flyAxes(t).BoxDisjoint(v.C, v.H) {
			return true
		}
	}
	return false
}

// envLeaf tests the triangles of environment leaf e against flying box f,
// in the flying model's coordinates.
func (q *aabbQuery) envLeaf(e, f int32) bool {
	v := q.ft.vol(f)
	for _, t := range q.envTris(e) {
		if !q.envAxes(t).BoxDisjoint(v.C, v.H) {
			return true
		}
	}
	return false
}

// envFirst descends the box with the larger surface (RAPID descends the
// one with the larger extent: on the peers' quick scenes, the surface
// leaves a fifth of the leaf tests on AABB trees, as many volume tests).
func (q *aabbQuery) envFirst(e, f int32, _ *noFrame) bool {
	return boxArea(q.et.vol(e).H) >= boxArea(q.ft.vol(f).H)
}

// aabbProbes: as obbProbes.
func aabbProbes(t *Tree) (cv, cu func(n int)) {
	q := aabbQuery{newMoveQuery[box](t, t, costPose, request{}, &Scratch{}, nil, false)}
	return probeAABB(&q, vtreeProbes[box](t))
}

// boxArea returns a quarter of the surface of the box of half-extents h.
func boxArea(h geom.Vec3) float64 { return h.X*h.Y + h.Y*h.Z + h.Z*h.X }
