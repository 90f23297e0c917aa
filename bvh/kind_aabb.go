package bvh

import (
	"math"

	"github.com/collide3d/collide/bv"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/internal/exact"
	"github.com/collide3d/collide/mesh"
)

// This file is the AABB kind: boxes aligned with the model's own axes,
// tested as oriented boxes under the relative pose (no re-bounding: the
// approach of OPCODE and ColDet).
//
// Everything that is the kind's is here: its volume (fitted, bounded,
// saved as numbers), its query (the volume test next to its separation,
// the leaves' tests, ready) and its read checks (the volume's bounds and
// containment); what the moved-volume kinds share is in vtree*.go.
//
// The boxes stay in float64. In float32 (a 32-byte node with its children,
// 56 bytes a triangle with the mesh instead of 80), rounded outward about
// the model's centre, the queries measured 2 to 4% slower on this project's
// machine (BenchmarkQueryCPU, all pairs 86 → 89 µs, first contact 8.0 →
// 8.3 µs; 2% on a 1,000,000-triangle torus): converting each environment
// box to float64 costs more than the smaller nodes save with caches this
// large, and the face-axis test done in float32 arithmetic was no faster.

var aabbKind = volKind[box]{
	kind:   AABB,
	fit:    func(n *fitNode) box { return boxOf(n.box) },
	frame:  func(_ *box, n *fitNode) ([3]geom.Vec3, [3]float64) { return aabbFrame(n) },
	boxes:  true,
	volume: func(v *box) float64 { return 8 * v.H.X * v.H.Y * v.H.Z },
	box:    func(b *box) geom.AABB { return geom.AABB{Min: b.C.Sub(b.H), Max: b.C.Add(b.H)} },
	floats: func(b *box, dst []*float64) []*float64 {
		return append(dst, &b.C.X, &b.C.Y, &b.C.Z, &b.H.X, &b.H.Y, &b.H.Z)
	},
	check:  checkBoxes,
	probes: aabbProbes,
}

// aabbHalfAt is the offset of the half-extents in a saved AABB node's
// record (see Magic).
const aabbHalfAt = 3 * 8

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
//
// Its walk is the copy of the traversal that go generate makes from the
// first directive, and Collide runs it by the second (see traverse.go):
//
//specialize:copy AABB|noFrame|*aabbQuery
//specialize:case *vtree[box]|collideAABB(env, fly, pose, o, s, fn)
type aabbQuery struct{ moveQuery[box] }

// collideAABB runs the query of Collide on AABB trees: modeContact's on
// the environment's wide layout when wideWidth asks for one (wide.go), else
// and in the other modes on the binary trees.
func collideAABB(env, fly *Tree, pose geom.Pose, o request, s *Scratch, fn func(Pair) bool) Stats {
	var q aabbQuery
	q.init(env, fly, &pose, &o, s, false)
	q.fn = fn
	if o.mode == modeContact {
		if st, ok := q.collideWide(env); ok {
			return st
		}
	}
	return runAABB(&q)
}

// update moves flying node f's centre by the pose.
func (q *aabbQuery) update(f int32) { q.sc.wc[f] = q.pose.Apply(q.ft.vol(f).C) }

// overlap runs the separating-axis test of the two boxes, the flying one
// rotated by the pose, on their six face axes: the nine edge-edge axes cost
// more than they cull between two internal nodes (6% slower over the quick
// peers scenes), since the leaves' triangles are tested finely anyway
// (flyLeaf, envLeaf).
//
// It is the walk's yes/no test, a fast path kept next to sep, the kind's
// verdict and bound (sep > 0 exactly when overlap says false for two
// internal nodes), because bv.OBBFacesDisjoint stops at the first axis
// that separates where bv.OBBFacesSeparation tries all six: derived from
// sep (!(sep > 0)), the queries ran 30% slower, all pairs, and 82% to the
// first contact (BenchmarkQueryCPU, thread CPU time, least of three interleaved runs on the loaded 2-core machine).
func (q *aabbQuery) overlap(e, f int32, _ *noFrame) bool {
	a, b := q.et.vol(e), q.ft.vol(f)
	return !bv.OBBFacesDisjoint(a.H, b.H, &q.r, &q.absR, q.sc.wc[f].Sub(a.C), q.pad)
}

// sep of AABB trees. Two internal nodes: the separation over the six face
// axes that overlap tests (bv.OBBFacesSeparation), positive exactly when
// overlap says disjoint. A leaf: the triangles against the box, as envLeaf
// and flyLeaf test them.
func (q *aabbQuery) sep(e, f int32, _ *noFrame) float64 {
	ei, fi := uint32(e) < uint32(len(q.et.nodes)), uint32(f) < uint32(len(q.ft.nodes))
	switch {
	case ei && fi:
		a, b := q.et.vol(e), q.ft.vol(f)
		return bv.OBBFacesSeparation(a.H, b.H, &q.r, &q.absR, q.sc.wc[f].Sub(a.C), q.pad) * sepScale
	case fi:
		v := q.ft.vol(f)
		return q.envAxesSep(e, v.C, v.H)
	case ei:
		v := q.et.vol(e)
		return q.flyAxesSep(f, v.C, v.H)
	}
	return q.leavesSep(e, f)
}

// lowerBound of AABB trees: as for OBB trees (the boxes' axes are the
// models', the flying one's the columns of the pose's rotation), a leaf's
// triangles against the box on its axes (envAxesLower, flyAxesLower). See
// sep.go.
func (q *aabbQuery) lowerBound(e, f int32, x *noFrame) float64 {
	ei, fi := uint32(e) < uint32(len(q.et.nodes)), uint32(f) < uint32(len(q.ft.nodes))
	switch {
	case ei && fi:
		a, b := q.et.vol(e), q.ft.vol(f)
		t := q.sc.wc[f].Sub(a.C)
		return max(boxFaceLower(a.H, b.H, &q.r, &q.absR, t, q.pad), boxRectLower(a.H, b.H, &q.r, t, q.pad))
	case fi:
		v := q.ft.vol(f)
		return q.envAxesLower(e, v.C, v.H, 0)
	case ei:
		v := q.et.vol(e)
		return q.flyAxesLower(f, v.C, v.H, 0)
	}
	return q.leavesLower(e, f)
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

func (q *aabbQuery) ready(f int32) {
	if q.internal(f) && q.stale(f) {
		q.update(f)
	}
}

// boxFault returns the fault of box b of node i outside the bounds, or
// nil.
func boxFault(i int, b *box, mag float64) *fault {
	if f := centreFault(i, AABB, b.C, mag); f != nil {
		return f
	}
	for k := range 3 {
		if f := extentFault(i, aabbHalfAt+8*k, "half-extent", b.H.Index(k), mag); f != nil {
			return f
		}
	}
	return nil
}

// checkBoxes checks the stored volumes of an AABB tree: within the
// bounds, and containing exactly the box of the vertices below each node,
// which is computed children before parents in one pass: taking the nodes
// in reverse layout order, each subtree leaves its box on a stack, the
// right subtree's below the left one's.
func checkBoxes(t *flat[box], m *mesh.TriMesh, sh *shape) *fault {
	n := len(t.refs)
	mag := meshMag(m)
	volFault := func(i int) *fault {
		if v := t.stored(i); v != nil {
			return boxFault(i, v, mag)
		}
		return nil
	}
	if i := firstFault(n, func(i int) bool { return volFault(i) != nil }); i >= 0 {
		return volFault(i)
	}
	var stack []geom.AABB
	bad := -1
	for i := n - 1; i >= 0; i-- {
		var b geom.AABB
		if t.refs[i] >= 0 {
			l, r := stack[len(stack)-1], stack[len(stack)-2]
			stack = stack[:len(stack)-2]
			b = l.Union(r)
		} else {
			b = geom.EmptyAABB()
			for _, tr := range sh.seq[sh.lo[i]:sh.hi[i]] {
				b = b.Union(m.Triangle(int(tr)).Bounds())
			}
		}
		stack = append(stack, b)
		if v := t.stored(i); v != nil && !boxHolds(v, b) {
			bad = i
		}
	}
	if bad < 0 {
		return nil
	}
	return faultf(atNode, bad, 0, "node %d's aabb does not contain the triangles below it", bad)
}

// boxHolds reports whether C − H ≤ b.Min and b.Max ≤ C + H hold exactly
// for the box x of finite numbers: C ± H is computed as an unevaluated sum
// s + e by Knuth's TwoSum (exact when s is finite; s infinite means an
// overflow away from b).
func boxHolds(x *box, b geom.AABB) bool {
	for k := range 3 {
		c, h := x.C.Index(k), x.H.Index(k)
		lo, hi := b.Min.Index(k), b.Max.Index(k)
		if s, e := exact.TwoSum(c, h); !(hi < s || hi == s && e >= 0) {
			return false
		}
		if s, e := exact.TwoSum(c, -h); !(lo > s || lo == s && e <= 0) {
			return false
		}
	}
	return true
}

// box is an axis-aligned box as centre and half-extents, containing the
// points c - h ≤ x ≤ c + h of exact arithmetic.
type box struct{ C, H geom.Vec3 }
