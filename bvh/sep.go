package bvh

import (
	"math"

	"github.com/collide3d/collide/bv"
	"github.com/collide3d/collide/geom"
)

// This file is pairOps.sep for every kind: a certified lower bound g on
// how much farther apart than the query's tolerance eps the triangles
// below a pair of nodes are (every environment triangle below e farther
// than eps + g from every flying triangle below f, the flying one at the
// pose as tester.flyTriangle computes it; g ≤ 0 proves nothing). Fronts
// keep a pair without a test while the flying model moves less than g,
// and distance queries drop the pairs whose bound is no better than the
// best distance so far.
//
// Each kind measures what its own test compares, evaluated with the very
// expressions of the test, so that g > 0 exactly when the test says
// disjoint (where sep and the test try the same axes; where sep tries
// fewer, g > 0 only when the test says disjoint). The certificate comes
// from the proofs of the tests' paddings. A test on an axis L computes a
// separation P − Q (the projections' gap of the centres less the radii)
// and says disjoint when it exceeds pad = eps·(1 + 2⁻⁵⁰) + R, R the part
// that covers the rounding; its proof bounds the difference E between P −
// Q and the exact gap between the triangles (as computed) along L/|L| by
// far less than R (300u·M against R = 2⁻⁴²·M = 2048u·M for the vtrees,
// see padding; u = 2⁻⁵³). With s = fl(P − fl(Q + pad)) > 0, the exact gap
// is at least P − Q − E ≥ s(1 − u) + pad − u(Q + pad) − E > eps + s(1 −
// u): the 2⁻⁵⁰·eps of pad covers u·eps, and R covers E and u·(Q + R).
// Scaled by 1 − 2⁻⁴⁸ (sepScale), g = s·(1 − 2⁻⁴⁸) also covers the
// rounding of s and of the product and the axes' lengths (1 + 16u at most
// for axes orthonormal to within 16 ulps; the edge axes of the OBB test,
// unnormalised, are shorter than 1, which only makes g smaller than the
// gap along them). This is the black-box statement "the test with
// tolerance eps + g' still says disjoint for g' < (s − pad)/(1 + 2⁻⁵⁰)",
// sharpened to the test's own s.
//
// Leaves. Volume trees (OBB, RSS, sphere, AABB trees) have no leaf
// volumes: an environment leaf's triangles, mapped into the flying
// model's coordinates, are measured against the flying volume, and a
// flying leaf's triangles at the pose against the environment's volume,
// each on the volume's three face axes only (the first axes of the
// triangle-box test, bv.TriBoxDisjoint, whose other ten sep leaves out
// for speed), g the least over the leaf's triangles; two leaves by the
// gap between the boxes of their triangles.

// sepScale scales a separation into a certified bound (see above).
const sepScale = 1 - 0x1p-48

// dopW[k][i] is the weight of slab i of a k-DOP's separation: 1/|d_i|,
// rounded down with room for two roundings (see dopQuery.sep).
var dopW = func() (w [27][bv.MaxSlabs]float64) {
	for _, k := range bv.Ks {
		for i := range k.Slabs() {
			w[k][i] = 1 / k.Norm(i) * (1 - 0x1p-47)
		}
	}
	return w
}()

// sep of k-DOP trees: the largest gap between the slabs of the two
// k-DOPs, in units of the slab's direction d_i (|d_i| = 1, √2 or √3),
// divided by |d_i|. The flying k-DOP is stored padded by eps·|d_i|·(1 +
// 2⁻⁵⁰) and by the bound on the tumbling's rounding, rounded outward, and
// every stored slab (float32 or float64, less the tree's offset off_i,
// the same for both trees) contains its triangles' projections exactly:
// with G_i = L_f − H_e > 0 (or L_e − H_f), the exact values of the stored
// bounds, d_i·(y − x) ≥ G_i + eps·|d_i| for every flying point y and
// environment point x, so |y − x| ≥ G_i/|d_i| + eps. The difference of
// the two stored bounds is rounded once (relative u), the product by the
// weight once, and the weight is 1/|d_i|·(1 − 2⁻⁴⁷) to within 2u: the
// result is below G_i/|d_i|, strictly for G_i > 0, with no further
// scaling. fl(G_i) > 0 exactly when the overlap test's comparison finds
// slab i disjoint, so g > 0 exactly when it says disjoint.
//
// A lower bound stored as +Inf (an upper one as −Inf) is read as float64's
// largest value (its negative): a projection that overflowed float64 (a
// diagonal one near float64's largest coordinates, in a tree built so, or
// packed at the query's pose) is still a bound, but not a gap of infinite
// size, which would keep a front's pair however far the model moves
// (bv.PackLoose stores no such bound; Build's trees, as saved, may). The
// difference still rounds to +Inf where the exact gap exceeds float64's
// range: a motion that covers it overflows the front's bound of the motion
// (Front.moved), which then keeps nothing.
func (q *dopQuery[F, A]) sep(e, f int32, _ *noFrame) float64 {
	a, b := &q.sc.fdop[f], &q.et.nodes[e].s
	w := &dopW[len(*a)]
	g := math.Inf(-1)
	for i := 0; i < len(*a); i += 2 {
		wi := w[i/2]
		if s := (float64((*a)[i]) - float64((*b)[i+1])) * wi; s > g {
			g = s
		}
		if s := (float64((*b)[i]) - float64((*a)[i+1])) * wi; s > g {
			g = s
		}
	}
	if g > math.MaxFloat64 {
		return dopSepFinite[F](a, b, w)
	}
	return g
}

// dopSepFinite is dopQuery.sep with the infinite bounds read as float64's
// largest value, for the pairs where sep found an infinite gap.
func dopSepFinite[F bv.Float, A bv.Slabs[F]](a, b *A, w *[bv.MaxSlabs]float64) float64 {
	const top = math.MaxFloat64
	g := math.Inf(-1)
	for i := 0; i < len(*a); i += 2 {
		wi := w[i/2]
		if s := (min(float64((*a)[i]), top) - max(float64((*b)[i+1]), -top)) * wi; s > g {
			g = s
		}
		if s := (min(float64((*b)[i]), top) - max(float64((*a)[i+1]), -top)) * wi; s > g {
			g = s
		}
	}
	return g
}

// sep of OBB trees. Two internal nodes: the 15-axis separation of
// OBBDisjoint, computed as overlap computes its arguments (g > 0 exactly
// when overlap says disjoint). A leaf: see the leaf helpers below.
func (q *obbQuery) sep(e, f int32, _ *noFrame) float64 {
	ei, fi := uint32(e) < uint32(len(q.et.nodes)), uint32(f) < uint32(len(q.ft.nodes))
	switch {
	case ei && fi:
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
		return bv.OBBSeparation(a.Half, b.Half, &r, &absR, a.Axes.MulVec(d), q.pad) * sepScale
	case fi:
		v := q.ft.vol(f)
		return q.envFrameSep(e, v.C, &v.Axes, v.Half)
	case ei:
		v := q.et.vol(e)
		return q.flyFrameSep(f, v.C, &v.Axes, v.Half)
	}
	return q.leavesSep(e, f)
}

// sep of RSS trees. Two internal nodes: bv.RSSSeparation with overlap's
// arguments and padding, positive exactly when overlap says disjoint; it
// certifies rectangles apart by more than the radii and the padding less
// bv.RSSDisjoint's ε, and overlap's padding adds ε to the query's pad, so
// the triangles are farther apart than eps + g by the argument above (the
// query's pad covers the moved rectangle's errors as for OBBs). A leaf:
// the triangles against the volume's box in its frame (rssBox), as
// envLeaf and flyLeaf test them.
func (q *rssQuery) sep(e, f int32, _ *noFrame) float64 {
	ei, fi := uint32(e) < uint32(len(q.et.nodes)), uint32(f) < uint32(len(q.ft.nodes))
	switch {
	case ei && fi:
		a, b := q.et.vol(e), q.ft.vol(f)
		wax := &q.sc.wax[f]
		var r geom.Mat3
		for i := range 3 {
			ai := a.Axes.Row(i)
			for j := range 2 {
				r[i][j] = ai.X*wax[j][0] + ai.Y*wax[j][1] + ai.Z*wax[j][2]
			}
		}
		t := a.Axes.MulVec(q.sc.wc[f].Sub(a.C))
		s := math.Abs(t.X) + math.Abs(t.Y) + math.Abs(t.Z) + a.L[0] + a.L[1] + b.L[0] + b.L[1] + a.R + b.R + q.pad
		return bv.RSSSeparation(a, b, &r, t, q.pad+0x1p-47*s+0x1p-959) * sepScale
	case fi:
		v := q.ft.vol(f)
		return q.envFrameSep(e, v.C, &v.Axes, rssBox(v))
	case ei:
		v := q.et.vol(e)
		return q.flyFrameSep(f, v.C, &v.Axes, rssBox(v))
	}
	return q.leavesSep(e, f)
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

// sep of box-trees: the 15-axis separation of the boxes of the frame x,
// as overlap computes them (g > 0 exactly when overlap says disjoint). A
// box-tree's box holds the part of its triangles that lies in it, not
// the whole of them (a triangle crossing a cut goes to both children): g
// bounds the distance between those parts, which is what the walks need,
// since a pair of points in contact is found at the pairs of nodes whose
// boxes hold them. Box-trees keep their leaves' boxes, so leaves are no
// different.
func (q *boxQuery) sep(_, _ int32, x *boxFrame) float64 {
	eb, fb := &x.eb, &x.fb
	ec, fc := eb.Min.Add(eb.Max).Scale(0.5), fb.Min.Add(fb.Max).Scale(0.5)
	eh, fh := eb.Max.Sub(eb.Min).Scale(0.5), fb.Max.Sub(fb.Min).Scale(0.5)
	return bv.OBBSeparation(eh, fh, &q.r, &q.absR, q.pose.Apply(fc).Sub(ec), q.pad) * sepScale
}

// The leaf helpers of the volume trees. Each measures triangles against a
// box on its three face axes, as the first test of bv.TriBoxDisjoint (or
// bv.TriAxes.BoxDisjoint) does, with the query's triangle padding tpad =
// eps·(1 + 2⁻⁵⁰) + 4·r, r the rounding part of pad (triPad): the proof of
// that test lets the triangle's image and the box each be off by up to r,
// gives eps of tolerance and r for its own rounding. The images the query
// makes (environment triangles mapped into the flying model's coordinates,
// triangles mapped into a box's frame) are within R ≤ r of the exact ones,
// and the boxes are exact (an OBB's or RSS's points satisfy the slab
// conditions of their stored axes, a sphere lies in its cube): a
// face-axis separation s = fl(extent − fl(h + tpad)) > 0 certifies an
// exact gap above s(1 − u) + tpad − 2R − u(h + tpad) > eps + s(1 − u)
// (u·h ≤ r and u·tpad ≤ eps·2⁻⁵⁰ + r), so g = s·(1 − 2⁻⁴⁸) as above. A
// face-axis separation is one of the test's, so g > 0 only when the test
// (envLeaf, flyLeaf) says disjoint.

// envFrameSep measures the triangles of environment leaf e, in the flying
// model's coordinates, against the box of half-extents h about c along
// axes (rows), as triFrameDisjoint tests them.
func (q *moveQuery[V]) envFrameSep(e int32, c geom.Vec3, axes *geom.Mat3, h geom.Vec3) float64 {
	g := math.Inf(1)
	for _, t := range q.envTris(e) {
		x := q.envInFly(t)
		s := bv.TriBoxFaceSeparation(axes.MulVec(x[0].Sub(c)), axes.MulVec(x[1].Sub(c)), axes.MulVec(x[2].Sub(c)), h, q.tpad)
		if !(s < g) {
			continue
		}
		if g = s; !(g > 0) {
			return 0
		}
	}
	return g * sepScale
}

// flyFrameSep measures the triangles of flying leaf f at the pose against
// the environment's box of half-extents h about c along axes (rows).
func (q *moveQuery[V]) flyFrameSep(f int32, c geom.Vec3, axes *geom.Mat3, h geom.Vec3) float64 {
	g := math.Inf(1)
	for _, t := range q.flyTris(f) {
		x := q.flyTriangle(t)
		s := bv.TriBoxFaceSeparation(axes.MulVec(x[0].Sub(c)), axes.MulVec(x[1].Sub(c)), axes.MulVec(x[2].Sub(c)), h, q.tpad)
		if !(s < g) {
			continue
		}
		if g = s; !(g > 0) {
			return 0
		}
	}
	return g * sepScale
}

// envAxesSep measures the triangles of environment leaf e, in the flying
// model's coordinates, against the axis-aligned box of half-extents h
// about c, as envAxes(t).BoxDisjoint tests them.
func (q *moveQuery[V]) envAxesSep(e int32, c, h geom.Vec3) float64 {
	g := math.Inf(1)
	for _, t := range q.envTris(e) {
		s := q.envAxes(t).FaceSeparation(c, h)
		if !(s < g) {
			continue
		}
		if g = s; !(g > 0) {
			return 0
		}
	}
	return g * sepScale
}

// flyAxesSep measures the triangles of flying leaf f at the pose against
// the environment's axis-aligned box of half-extents h about c.
func (q *moveQuery[V]) flyAxesSep(f int32, c, h geom.Vec3) float64 {
	g := math.Inf(1)
	for _, t := range q.flyTris(f) {
		s := q.flyAxes(t).FaceSeparation(c, h)
		if !(s < g) {
			continue
		}
		if g = s; !(g > 0) {
			return 0
		}
	}
	return g * sepScale
}

// leavesSep bounds the distance between the triangles of environment leaf
// e and those of flying leaf f at the pose by the gap between their
// bounding boxes, both in the environment's coordinates (boxGapSep).
func (q *moveQuery[V]) leavesSep(e, f int32) float64 {
	eb, fb := geom.EmptyAABB(), geom.EmptyAABB()
	for _, t := range q.envTris(e) {
		eb = eb.Union(q.emesh.Triangle(int(t)).Bounds())
	}
	for _, t := range q.flyTris(f) {
		fb = fb.Union(q.flyTriangle(t).Bounds())
	}
	return boxGapSep(&eb, &fb, q.eps)
}

// boxGapSep returns a certified g for triangles in the boxes a and b at
// tolerance eps: the largest gap γ between them along an axis, a lower
// bound on the distance of any two of their points, is computed as
// fl(γ) ≤ γ(1 + u); x = fl(fl(γ)·(1 − 2⁻⁵⁰)) is then below γ, and g =
// fl(fl(x − eps)·(1 − 2⁻⁵⁰)) below x − eps when positive. The boxes'
// bounds are the triangles' own coordinates: no other rounding. It
// returns 0 when no axis separates the boxes.
func boxGapSep(a, b *geom.AABB, eps float64) float64 {
	g := max(b.Min.X-a.Max.X, a.Min.X-b.Max.X, b.Min.Y-a.Max.Y, a.Min.Y-b.Max.Y, b.Min.Z-a.Max.Z, a.Min.Z-b.Max.Z)
	if !(g > 0) {
		return 0
	}
	return (g*(1-0x1p-50) - eps) * (1 - 0x1p-50)
}
