package bvh

import (
	"github.com/collide3d/collide/geom"
)

// This file is what the separations of every kind share (each kind's
// sep is in its file, kind_*.go, next to its volume test): the contract of
// pairOps.sep, a certified lower bound g on
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
