package bv

import (
	"math"

	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/hull"
)

// This file is the filter that keeps FitHull's convex hull linear in the
// corners: before the hull is built, the corners strictly inside the hull
// of a few extreme corners are dropped (Akl and Toussaint's heuristic), so
// that the exact incremental hull, its sort and its orientation tests only
// see the corners near the boundary. On a node of a million-triangle
// terrain it keeps a few hundredths of the corners.

// hullFilterMin is the number of corners below which obbHullCovariance
// builds the hull of every corner: the filter does not pay there, and the
// small fits stay exactly as they were before the filter existed.
const hullFilterMin = 3 * 256

// hullFilterChunk is the number of consecutive triangles whose corners the
// filter first tests as one box: consecutive triangles of a mesh (and of a
// node of a tree, partitioned in place) tend to be close together, so that
// a chunk inside the polytope is dropped at the cost of one test per face.
const hullFilterChunk = 16

// hullFilterMargin is the margin, in the scaled coordinates, by which a
// corner must lie inside every face plane of the polytope to be dropped:
// see hullCandidates.
const hullFilterMargin = 0x1p-36

// hullPlane is a face plane of the filter's polytope, in the scaled
// coordinates: n·(q − a) is positive outside.
type hullPlane struct{ n, a geom.Vec3 }

// hullCandidates appends to dst the corners of tris that may matter for
// their convex hull, and returns it: a subset of the corners (with
// repetitions) whose hull is the hull of all the corners. The corners are
// finite and their largest |coordinate| is m > 0.
//
// The filter takes the corners extreme along seven directions (the axes
// and the four diagonals, both ways), builds their hull Q exactly, and
// drops a corner (or a chunk of corners, by its box) only if it lies
// strictly inside every face plane of Q: inside Q, hence inside the hull
// of the corners kept, of which Q's corners are. Q's corners themselves
// lie on its faces and are kept.
//
// Rounding. The corners are scaled by s, a power of two, so that |q_j| < 2
// (up to the cap on s for subnormal input, which only makes them smaller);
// the scaling is exact but for results below 2⁻¹⁰²², off by at most
// 2⁻¹⁰⁷⁵. For a face abc of Q and a point q (a corner or a chunk box's
// corner, |q_j| < 2), the exact F = ((b − a)×(c − a))·(q − a) is the
// orientation that geom.Orient3D decides, positive outside Q. The
// computed normal n has |n_j| ≤ 32.1 and lies within 130u of the exact
// one per component (u = 2⁻⁵³: two rounded differences below 4, two
// products, one difference); the computed fl(n·fl(q − a)) is within γ₄·385
// < 1550u of n·(q − a) and that within 3·130u·4 = 1560u of F; underflow
// adds below 2⁻¹⁰⁶⁰. So |g − F| < 3200u < 2⁻⁴¹, and g < −2⁻³⁶ implies
// F < 0 with room to spare.
func hullCandidates(dst []geom.Vec3, tris []geom.Triangle, m float64) []geom.Vec3 {
	s := math.Ldexp(1, min(-math.Ilogb(m), 1000))
	e := hullExtremes(tris, s)
	planes, ok := hullFilterPlanes(e)
	if !ok {
		for i := range tris {
			dst = append(dst, tris[i][0], tris[i][1], tris[i][2])
		}
		return dst
	}
	// The first round drops whole chunks by their box; each point of the
	// others that is kept is offered as the farthest beyond the first face
	// it is outside of. The corners kept are listed by number (3·triangle
	// + corner): a sixth of the memory of the points.
	far := make([]hullFar, len(planes))
	kept := make([]int32, 0, len(tris)/4)
	last := 0
	for lo := 0; lo < len(tris); lo += hullFilterChunk {
		chunk := tris[lo:min(lo+hullFilterChunk, len(tris))]
		inf := math.Inf(1)
		bmin, bmax := geom.Vec3{X: inf, Y: inf, Z: inf}, geom.Vec3{X: -inf, Y: -inf, Z: -inf}
		for i := range chunk {
			for _, v := range chunk[i] {
				q := v.Scale(s)
				bmin.X, bmax.X = min(bmin.X, q.X), max(bmax.X, q.X)
				bmin.Y, bmax.Y = min(bmin.Y, q.Y), max(bmax.Y, q.Y)
				bmin.Z, bmax.Z = min(bmin.Z, q.Z), max(bmax.Z, q.Z)
			}
		}
		if hullBoxInside(planes, bmin, bmax) {
			continue
		}
		for i := range chunk {
			for k, v := range chunk[i] {
				q := v.Scale(s)
				if f, g := hullOutside(planes, q, &last); f >= 0 {
					kept = append(kept, int32(3*(lo+i)+k))
					far[f].offer(g, q)
				}
			}
		}
	}
	corner := func(c int32) geom.Vec3 { return tris[c/3][c%3] }
	// Later rounds, as Quickhull: the polytope grows by the farthest point
	// beyond each face, and the points kept are filtered again, while that
	// drops a good share of them.
	for range hullFilterRounds {
		n := len(e)
		for _, f := range far {
			if f.ok {
				e = append(e, f.q)
			}
		}
		if len(e) == n {
			break
		}
		if planes, ok = hullFilterPlanes(e); !ok {
			break // not reached: e only grew
		}
		far = append(far[:0], make([]hullFar, len(planes))...)
		j, last := 0, 0
		for _, c := range kept {
			q := corner(c).Scale(s)
			if f, g := hullOutside(planes, q, &last); f >= 0 {
				kept[j] = c
				j++
				far[f].offer(g, q)
			}
		}
		dropped := len(kept) - j
		kept = kept[:j]
		if 4*dropped < len(kept)+dropped {
			break
		}
	}
	for _, c := range kept {
		dst = append(dst, corner(c))
	}
	return dst
}

// hullFilterRounds is the number of rounds of hullCandidates after the
// first.
const hullFilterRounds = 4

// hullFar is the farthest point found outside a face: its plane value g.
type hullFar struct {
	g  float64
	q  geom.Vec3
	ok bool
}

func (f *hullFar) offer(g float64, q geom.Vec3) {
	if !f.ok || g > f.g {
		f.g, f.q, f.ok = g, q, true
	}
}

// hullExtremes returns the distinct points among the corners of tris,
// scaled by s, that are extreme along the filter's directions.
func hullExtremes(tris []geom.Triangle, s float64) []geom.Vec3 {
	// Seven linear functions, each taken at its least and its greatest.
	var lo, hi [7]float64
	var at [14]geom.Vec3
	for k := range lo {
		lo[k], hi[k] = math.Inf(1), math.Inf(-1)
	}
	for i := range tris {
		for _, v := range tris[i] {
			q := v.Scale(s)
			f := [7]float64{q.X, q.Y, q.Z, q.X + q.Y + q.Z, q.X + q.Y - q.Z, q.X - q.Y + q.Z, -q.X + q.Y + q.Z}
			for k, x := range f {
				if x < lo[k] {
					lo[k], at[2*k] = x, q
				}
				if x > hi[k] {
					hi[k], at[2*k+1] = x, q
				}
			}
		}
	}
	e := make([]geom.Vec3, 0, 64)
	for _, q := range at {
		dup := false
		for _, p := range e {
			dup = dup || p == q
		}
		if !dup {
			e = append(e, q)
		}
	}
	return e
}

// hullFilterPlanes returns the face planes of the hull of the points e
// (scaled corners), and false if that hull is not solid.
func hullFilterPlanes(e []geom.Vec3) ([]hullPlane, bool) {
	h, faces := hull.NewTriangulated(e)
	if h.Dim() != 3 {
		return nil, false
	}
	planes := make([]hullPlane, len(faces))
	for i, f := range faces {
		a, b, c := e[f[0]], e[f[1]], e[f[2]]
		planes[i] = hullPlane{n: b.Sub(a).Cross(c.Sub(a)), a: a}
	}
	return planes, true
}

// hullOutside returns a plane that q is not strictly inside of, by the
// margin (see hullCandidates), and q's value there; or -1. It tries plane
// *last first (the one the previous point was outside of: neighbours tend
// to be outside the same face) and sets it.
func hullOutside(planes []hullPlane, q geom.Vec3, last *int) (int, float64) {
	if i := *last; i < len(planes) {
		p := &planes[i]
		if g := p.n.X*(q.X-p.a.X) + p.n.Y*(q.Y-p.a.Y) + p.n.Z*(q.Z-p.a.Z); !(g < -hullFilterMargin) {
			return i, g
		}
	}
	for i := range planes {
		p := &planes[i]
		if g := p.n.X*(q.X-p.a.X) + p.n.Y*(q.Y-p.a.Y) + p.n.Z*(q.Z-p.a.Z); !(g < -hullFilterMargin) {
			*last = i
			return i, g
		}
	}
	return -1, 0
}

// hullBoxInside reports whether the box [lo, hi] lies strictly inside every
// plane, by the margin: for each plane, its corner farthest out is inside
// (the box's corners have |coordinates| < 2, as hullCandidates assumes).
func hullBoxInside(planes []hullPlane, lo, hi geom.Vec3) bool {
	for i := range planes {
		p := &planes[i]
		q := lo
		if p.n.X > 0 {
			q.X = hi.X
		}
		if p.n.Y > 0 {
			q.Y = hi.Y
		}
		if p.n.Z > 0 {
			q.Z = hi.Z
		}
		if !(p.n.X*(q.X-p.a.X)+p.n.Y*(q.Y-p.a.Y)+p.n.Z*(q.Z-p.a.Z) < -hullFilterMargin) {
			return false
		}
	}
	return true
}
