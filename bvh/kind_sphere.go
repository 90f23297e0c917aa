package bvh

import (
	"math"

	"github.com/collide3d/collide/bv"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh"
)

// This file is the sphere kind: near-minimal spheres (bv.BoundingSphere),
// their centres moved with the pose.
//
// Everything that is the kind's is here: its volume (fitted, bounded,
// saved as numbers), its query (the volume test next to its separation,
// the leaves' tests, ready) and its read checks (the volume's bounds and
// containment); what the moved-volume kinds share is in vtree*.go.

var sphereKind = volKind[bv.Sphere]{
	kind: Sphere,
	fit: func(n *fitNode) bv.Sphere {
		sc := n.sc
		sc.pts = sc.pts[:0]
		if cap(sc.pts) < 3*len(n.ids) {
			sc.pts = make([]geom.Vec3, 0, 3*len(n.ids)) // not append's steps of 1.25
		}
		for _, t := range n.ids {
			tr := n.m.Triangle(int(t))
			sc.pts = append(sc.pts, tr[0], tr[1], tr[2])
		}
		var s bv.Sphere
		s, sc.buf = bv.BoundingSphereBuf(sc.pts, sc.buf)
		return s
	},
	frame:  func(_ *bv.Sphere, n *fitNode) ([3]geom.Vec3, [3]float64) { return aabbFrame(n) },
	boxes:  true,
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

// sphereRAt is the offset of the radius in a saved sphere node's record
// (see Magic).
const sphereRAt = 3 * 8

// sphereQuery is a query between two sphere trees.
//
// Its walk is the copy of the traversal that go generate makes from the
// first directive, and Collide runs it by the second (see traverse.go):
//
//specialize:copy Sphere|noFrame|*sphereQuery
//specialize:case *vtree[bv.Sphere]|collideSphere(env, fly, pose, o, s, fn)
type sphereQuery struct{ moveQuery[bv.Sphere] }

// collideSphere runs the query of Collide on sphere trees.
func collideSphere(env, fly *Tree, pose geom.Pose, o request, s *Scratch, fn func(Pair) bool) Stats {
	var q sphereQuery
	q.init(env, fly, &pose, &o, s, false)
	q.fn = fn
	return runSphere(&q)
}

// update moves flying node f's centre by the pose.
func (q *sphereQuery) update(f int32) { q.sc.wc[f] = q.pose.Apply(q.ft.vol(f).C) }

// overlap compares the distance of the centres with the sum of the radii:
// the walk's yes/no test, a fast path kept next to sep, the kind's verdict
// and bound (sep > 0 exactly when overlap says false for two internal
// nodes). Derived from sep (!(sep > 0)), which takes a square root for
// every disjoint pair and a call more, the queries ran within the noise
// of the measure, ±10% (BenchmarkQueryCPU, thread CPU time, least of three interleaved runs on the loaded 2-core machine): not shown to be as fast, so the test
// stays as it was.
func (q *sphereQuery) overlap(e, f int32, _ *noFrame) bool {
	a, b := q.et.vol(e), q.ft.vol(f)
	d := q.sc.wc[f].Sub(a.C)
	rr := a.R + b.R + q.pad
	return d.Dot(d) <= rr*rr
}

// sep of sphere trees. Two internal nodes: the distance of the centres
// less the radii and the padding, by bv.SphereSeparation, positive exactly
// when overlap says disjoint (its floor of 2⁻¹⁰⁰⁰, when the rounding of
// the square root leaves no margin, is covered by the padding's: R exceeds
// the test's proven error by more than 1700u·M). A leaf: the triangles
// against the sphere's bounding cube, as envLeaf and flyLeaf test them.
func (q *sphereQuery) sep(e, f int32, _ *noFrame) float64 {
	ei, fi := uint32(e) < uint32(len(q.et.nodes)), uint32(f) < uint32(len(q.ft.nodes))
	switch {
	case ei && fi:
		a, b := q.et.vol(e), q.ft.vol(f)
		return bv.SphereSeparation(q.sc.wc[f].Sub(a.C), a.R+b.R+q.pad) * sepScale
	case fi:
		v := q.ft.vol(f)
		return q.envAxesSep(e, v.C, geom.Vec3{X: v.R, Y: v.R, Z: v.R})
	case ei:
		v := q.et.vol(e)
		return q.flyAxesSep(f, v.C, geom.Vec3{X: v.R, Y: v.R, Z: v.R})
	}
	return q.leavesSep(e, f)
}

// lowerBound of sphere trees: two internal nodes, sep's bound (the
// distance of the spheres, Euclidean already); a leaf, the larger of its
// triangles' gaps to the sphere's cube combined and their distance to the
// centre less the radius; two leaves, the distance of their boxes. See
// sep.go.
func (q *sphereQuery) lowerBound(e, f int32, x *noFrame) float64 {
	ei, fi := uint32(e) < uint32(len(q.et.nodes)), uint32(f) < uint32(len(q.ft.nodes))
	switch {
	case ei && fi:
		return q.sep(e, f, x)
	case fi:
		v := q.ft.vol(f)
		return max(q.envAxesLower(e, v.C, geom.Vec3{X: v.R, Y: v.R, Z: v.R}, 0), q.envAxesLower(e, v.C, geom.Vec3{}, v.R))
	case ei:
		v := q.et.vol(e)
		return max(q.flyAxesLower(f, v.C, geom.Vec3{X: v.R, Y: v.R, Z: v.R}, 0), q.flyAxesLower(f, v.C, geom.Vec3{}, v.R))
	}
	return q.leavesLower(e, f)
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

func (q *sphereQuery) ready(f int32) {
	if q.internal(f) && q.stale(f) {
		q.update(f)
	}
}

// sphereFault returns the fault of sphere s of node i outside the bounds,
// or nil.
func sphereFault(i int, s *bv.Sphere, mag float64) *fault {
	if f := centreFault(i, Sphere, s.C, mag); f != nil {
		return f
	}
	return extentFault(i, sphereRAt, "radius", s.R, mag)
}

// sphereHolds reports whether |p − C| ≤ R exactly, for a sphere whose
// numbers are finite and R ≥ 0.
//
// The float64 filter: with d_j = fl(p_j − C_j), the computed
// S = fl(Σ d_j²) ≥ |p − C|²(1−u)⁵ − 3·2⁻¹⁰⁷⁵ (FMA or not) and
// fl(R·R) ≤ R²(1+u) + 2⁻¹⁰⁷⁵, so fl(S·(1 + 8u)) + 2⁻¹⁰⁶⁰ ≤ fl(R·R) implies
// |p − C|² ≤ R² when S is finite (if fl(R·R) overflows, R² exceeds the
// largest float64 and so |p − C|², below it). A point the filter cannot
// confirm (S infinite, or within about 7u of R relative) is decided exactly
// by bv.Sphere.Overlaps.
func sphereHolds(s *bv.Sphere, p geom.Vec3) bool {
	d := p.Sub(s.C)
	dd := d.X*d.X + d.Y*d.Y + d.Z*d.Z
	if dd <= math.MaxFloat64 && dd*(1+0x1p-50)+0x1p-1060 <= s.R*s.R {
		return true
	}
	if d == (geom.Vec3{}) {
		return true // p = C: fl(p_j − C_j) = 0 only then
	}
	exactChecks.Add(1)
	return bv.Sphere{C: p}.Overlaps(*s)
}
