package bvh

import (
	"math"

	"github.com/collide3d/collide/bv"
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

// Euclidean lower bounds (pairOps.lowerBound, for the distance search).
// A separation bounds the distance along one axis; the search needs the
// Euclidean distance, which can be √3 times larger (two boxes offset along
// a diagonal), and with bounds √3 times too small the search descends
// pairs far beyond the closest. Each kind's lowerBound is the largest of
// sep's bound (at tolerance 0) and a Euclidean one:
//
//   - Per-axis gaps combined (euclid): where certified gaps g_k ≥ 0 bound
//     |(y − x)·a_k| for every pair of points x, y of the two nodes, along
//     three axes a_k orthonormal to within 16 ulps (a box's own axes, the
//     model's axes), |y − x| ≥ √(Σ g_k²)·(1 − 25u). k-DOPs take the gaps of
//     their three axis slabs (the distance of their axis boxes), the
//     leaves of the volume trees the gaps of each triangle against the
//     other's box along the box's face axes (the least over the leaf's
//     triangles), two leaves the gaps of their triangles' boxes. Each gap
//     is certified as sep's are (above) and keeps the margin of its
//     padding, which covers the rounding of the images and R's departure
//     from a rotation along its axis: √(Σ (g_k + p)²) ≥ √(Σ g_k²) + p, so
//     the combination keeps it too.
//   - Boxes in different frames (OBB, AABB and box-trees): the gaps along
//     each box's three face axes combined (boxFaceLower: two boxes of
//     parallel axes, their distance), and boxRectLower: a
//     box of half-extents h₀ ≥ h₁ ≥ h₂ lies within h₂ of its mid-rectangle
//     (the points with |s₂| = 0, s_k the coordinates along its axes): it is
//     inside the rectangle swept sphere of half-lengths h₀, h₁ and radius
//     h₂ (as rssHolds defines one, from the same stored axes), so the RSS
//     kind's separation of those two volumes, with its proof and padding,
//     bounds the distance of the triangles inside.
//   - Spheres: the distance of the centres less the radii is sep's already;
//     a leaf's triangles against a sphere, the distance from its centre to
//     the triangle's box (per-axis gaps from the centre, combined) less the
//     radius.
//
// Rounding of euclid: the squares, their two sums and the square root
// round by at most 4.01u together, within euclidScale's 512u, with 487u
// left for the axes' 25u. Gaps below 2⁻⁵⁰⁰ in the result's scale may
// underflow when squared, and a square may overflow: euclid then returns
// the largest gap alone, itself a bound.

// euclidScale scales a Euclidean combination of certified gaps into a
// certified bound (see above).
const euclidScale = 1 - 0x1p-44

// euclid returns a certified lower bound on the distance between two point
// sets whose gaps along three (nearly) orthonormal axes are at least gx,
// gy, gz (≤ 0: nothing), each certified: never below the largest of them
// scaled by euclidScale.
func euclid(gx, gy, gz float64) float64 {
	gx, gy, gz = max(gx, 0), max(gy, 0), max(gz, 0)
	s := math.Sqrt(gx*gx+gy*gy+gz*gz) * euclidScale
	if !(s >= 0x1p-500 && s <= math.MaxFloat64) {
		return max(gx, gy, gz)
	}
	return s
}

// boxRectLower returns a certified lower bound on the distance between two
// boxes of half-extents a and b placed as for bv.OBBDisjoint (r the second
// box's axes in the first's frame, t its centre there, pad the query's
// padding for the boxes' errors and rounding): the RSS separation of the
// rectangle swept spheres around them (see above), as rssQuery.sep
// computes it, with bv.RSSDisjoint's own rounding added to pad. 0: the
// spheres overlap.
func boxRectLower(a, b geom.Vec3, r *geom.Mat3, t geom.Vec3, pad float64) float64 {
	ia, ib := byExtent(a), byExtent(b)
	ra := bv.RSS{L: [2]float64{a.Index(ia[0]), a.Index(ia[1])}, R: a.Index(ia[2])}
	rb := bv.RSS{L: [2]float64{b.Index(ib[0]), b.Index(ib[1])}, R: b.Index(ib[2])}
	var rr geom.Mat3
	for m := range 3 {
		rr[m][0], rr[m][1] = r[ia[m]][ib[0]], r[ia[m]][ib[1]]
	}
	tt := geom.Vec3{X: t.Index(ia[0]), Y: t.Index(ia[1]), Z: t.Index(ia[2])}
	s := math.Abs(tt.X) + math.Abs(tt.Y) + math.Abs(tt.Z) + ra.L[0] + ra.L[1] + rb.L[0] + rb.L[1] + ra.R + rb.R + pad
	return bv.RSSSeparation(&ra, &rb, &rr, tt, pad+0x1p-47*s+0x1p-959) * sepScale
}

// boxFaceLower returns the Euclidean bound of the gaps of two boxes placed
// as for bv.OBBDisjoint along the first one's three face axes, and along
// the second one's, the larger: the six separations of
// bv.OBBFacesSeparation, computed with its expressions and certified as
// sep's are, combined three by three (each box's axes are orthonormal to
// within 16 ulps; see above). For two boxes of parallel axes it is their
// distance.
func boxFaceLower(a, b geom.Vec3, r, absR *geom.Mat3, t geom.Vec3, pad float64) float64 {
	ga := [3]float64{
		(math.Abs(t.X) - (a.X + b.X*absR[0][0] + b.Y*absR[0][1] + b.Z*absR[0][2] + pad)) * sepScale,
		(math.Abs(t.Y) - (a.Y + b.X*absR[1][0] + b.Y*absR[1][1] + b.Z*absR[1][2] + pad)) * sepScale,
		(math.Abs(t.Z) - (a.Z + b.X*absR[2][0] + b.Y*absR[2][1] + b.Z*absR[2][2] + pad)) * sepScale,
	}
	gb := [3]float64{
		(math.Abs(t.X*r[0][0]+t.Y*r[1][0]+t.Z*r[2][0]) - (a.X*absR[0][0] + a.Y*absR[1][0] + a.Z*absR[2][0] + b.X + pad)) * sepScale,
		(math.Abs(t.X*r[0][1]+t.Y*r[1][1]+t.Z*r[2][1]) - (a.X*absR[0][1] + a.Y*absR[1][1] + a.Z*absR[2][1] + b.Y + pad)) * sepScale,
		(math.Abs(t.X*r[0][2]+t.Y*r[1][2]+t.Z*r[2][2]) - (a.X*absR[0][2] + a.Y*absR[1][2] + a.Z*absR[2][2] + b.Z + pad)) * sepScale,
	}
	return max(gapLower(ga), gapLower(gb))
}

// byExtent returns the indices of h's components, largest first.
func byExtent(h geom.Vec3) [3]int {
	i := [3]int{0, 1, 2}
	if h.Y > h.X {
		i[0], i[1] = 1, 0
	}
	if h.Z > h.Index(i[1]) {
		i[1], i[2] = 2, i[1]
		if h.Z > h.Index(i[0]) {
			i[0], i[1] = 2, i[0]
		}
	}
	return i
}

// gapLower returns the Euclidean bound of the certified gaps g (sep's, or
// a leaf helper's, already scaled): the larger of their combination and
// the largest alone.
func gapLower(g [3]float64) float64 { return max(euclid(g[0], g[1], g[2]), g[0], g[1], g[2]) }

// triBoxGaps returns the gaps of the triangle a, b, c against the box of
// half-extents h about the origin along each axis, as
// bv.TriBoxFaceSeparation computes them (its largest is that function's
// result), each scaled by sepScale: certified as the leaves' separations
// are (see vtree_query.go).
func triBoxGaps(a, b, c, h geom.Vec3, pad float64) [3]float64 {
	hx, hy, hz := h.X+pad, h.Y+pad, h.Z+pad
	return [3]float64{
		max(min(a.X, b.X, c.X)-hx, -hx-max(a.X, b.X, c.X)) * sepScale,
		max(min(a.Y, b.Y, c.Y)-hy, -hy-max(a.Y, b.Y, c.Y)) * sepScale,
		max(min(a.Z, b.Z, c.Z)-hz, -hz-max(a.Z, b.Z, c.Z)) * sepScale,
	}
}

// triAxesGaps returns the gaps of the triangle x against the box of
// half-extents h about c aligned with the axes, as bv.TriAxes.FaceSeparation
// computes them for x prepared with the padding pad (its largest is that
// method's result), each scaled by sepScale.
func triAxesGaps(x *geom.Triangle, c, h geom.Vec3, pad float64) [3]float64 {
	var g [3]float64
	for k := range 3 {
		a, b, d := x[0].Index(k), x[1].Index(k), x[2].Index(k)
		lo, hi := min(a, b, d)-pad, max(a, b, d)+pad
		ck, hk := c.Index(k), h.Index(k)
		g[k] = max((lo-ck)-hk, -(hi-ck)-hk) * sepScale
	}
	return g
}

// triDirGap returns a certified lower bound on the distance between the
// triangle a, b, c and the box [−h, h] (h = 0: the origin), both images
// in the box's frame off by the padding pad as the leaves' separations
// take them (see vtree_query.go): the gap along m, the direction from the
// box's centre to the triangle's centroid (times three), between the
// triangle's projection and the box's, Σ|m_k|·h_k, less pad·|m|₁ (which
// covers the images' errors, 2r·|m|₁, and the projections' rounding, a
// few u·|m|₁ times coordinates of magnitude below r/u), divided by |m|.
// The frame's axes, orthonormal to within 16 ulps, stretch distances by
// at most 25u; with the square root, the quotient and the product, the
// factor 1 − 2⁻⁴⁶ covers them. Far from the box, with a small triangle,
// it is within a few sizes squared over the distance of the distance,
// where the face gaps of the box are off by the sizes. 0 proves nothing.
func triDirGap(a, b, c, h geom.Vec3, pad float64) float64 {
	m := a.Add(b).Add(c)
	p := min(m.Dot(a), m.Dot(b), m.Dot(c))
	am := m.Abs()
	gap := p - (am.X*h.X + am.Y*h.Y + am.Z*h.Z) - pad*(am.X+am.Y+am.Z)
	n := math.Sqrt(m.Dot(m))
	g := gap / n * (1 - 0x1p-46)
	if !(n >= 0x1p-400 && g > 0 && g <= math.MaxFloat64) {
		return 0
	}
	return g
}

// boxGaps returns the certified gaps along each axis between the boxes a
// and b at tolerance 0, as boxGapSep computes their largest.
func boxGaps(a, b *geom.AABB) [3]float64 {
	f := func(g float64) float64 {
		if !(g > 0) {
			return 0
		}
		return g * (1 - 0x1p-50) * (1 - 0x1p-50)
	}
	return [3]float64{
		f(max(b.Min.X-a.Max.X, a.Min.X-b.Max.X)),
		f(max(b.Min.Y-a.Max.Y, a.Min.Y-b.Max.Y)),
		f(max(b.Min.Z-a.Max.Z, a.Min.Z-b.Max.Z)),
	}
}

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
