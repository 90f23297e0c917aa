package bvh

import (
	"math"

	"github.com/collide3d/collide/geom"
)

// apartSwept reports whether environment triangle a and a flying triangle
// translating from fa (t = 0) to fb (t = 1), each vertex on a straight
// line, are proved apart at every time of the motion: a plane separates a
// from the convex hull of the six points fa and fb, which holds the
// triangle at every time (each of its points is a convex combination of
// its vertices, each of theirs of its ends). It is the screening of a
// translating pair before the exact primitives (ccd.TriTri), which decide
// the same motion: false proves nothing.
//
// The planes tried are those of the separating axis theorem for the two
// polytopes, were fb exactly fa moved by one vector d = fb[0] − fa[0]: the
// normals of a and of fa, the cross products of a's edges with fa's edges
// and with d, and of fa's edges with d (17 directions). Each direction n is
// scaled to |n|∞ = 1 (those too small or not finite are skipped), so that
// a computed product n·x is within 2^-51·|x|₁ of its exact value; the gap
// must exceed twice 2^-48 of the largest |x|₁ of the nine points.
func apartSwept(a, fa, fb geom.Triangle) bool {
	mag := 0.0
	for i := range 3 {
		for _, x := range [3]geom.Vec3{a[i].Abs(), fa[i].Abs(), fb[i].Abs()} {
			mag = max(mag, x.X+x.Y+x.Z)
		}
	}
	if !(mag < 0x1p900) {
		return false // too large for the bound, or not finite
	}
	margin := 0x1p-47*mag + 0x1p-1000
	ea := [3]geom.Vec3{a[1].Sub(a[0]), a[2].Sub(a[1]), a[0].Sub(a[2])}
	eb := [3]geom.Vec3{fa[1].Sub(fa[0]), fa[2].Sub(fa[1]), fa[0].Sub(fa[2])}
	d := fb[0].Sub(fa[0])
	apart := func(n geom.Vec3) bool {
		m := max(math.Abs(n.X), math.Abs(n.Y), math.Abs(n.Z))
		if !(m > 0x1p-900) || math.IsInf(m, 0) {
			return false
		}
		n = n.Scale(1 / m)
		alo, ahi := math.Inf(1), math.Inf(-1)
		blo, bhi := math.Inf(1), math.Inf(-1)
		for i := range 3 {
			x := n.Dot(a[i])
			alo, ahi = min(alo, x), max(ahi, x)
			y, z := n.Dot(fa[i]), n.Dot(fb[i])
			blo, bhi = min(blo, y, z), max(bhi, y, z)
		}
		return blo-ahi > margin || alo-bhi > margin
	}
	if apart(ea[0].Cross(ea[1])) || apart(eb[0].Cross(eb[1])) {
		return true
	}
	for i := range 3 {
		if apart(ea[i].Cross(d)) || apart(eb[i].Cross(d)) {
			return true
		}
		for j := range 3 {
			if apart(ea[i].Cross(eb[j])) {
				return true
			}
		}
	}
	return false
}
