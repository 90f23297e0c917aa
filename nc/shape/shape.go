package shape

import (
	"math"

	"github.com/collide3d/collide/geom"
)

// Path is the set of tool positions: the convex hull of P[:N], N = 1 (a
// point), 2 (a segment: a straight move) or 3 (a triangle, used to enclose a
// piece of a circular arc). Coincident or collinear points are allowed: the
// hull is what it is. P[N:] is ignored.
type Path struct {
	P [3]geom.Vec3
	N int
}

// Point returns the path of the single position p.
func Point(p geom.Vec3) Path { return Path{P: [3]geom.Vec3{p, p, p}, N: 1} }

// Segment returns the path of the straight move from a to b (the closed
// segment [a, b]).
func Segment(a, b geom.Vec3) Path { return Path{P: [3]geom.Vec3{a, b, b}, N: 2} }

// Tri returns the path that is the closed triangle (a, b, c).
func Tri(a, b, c geom.Vec3) Path { return Path{P: [3]geom.Vec3{a, b, c}, N: 3} }

// verts returns the path's points as three vertices, repeating the last one
// when N < 3, so that the hull is unchanged, and whether N is in 1..3.
func (p *Path) verts() (q [3]geom.Vec3, ok bool) {
	switch p.N {
	case 1:
		q = [3]geom.Vec3{p.P[0], p.P[0], p.P[0]}
	case 2:
		q = [3]geom.Vec3{p.P[0], p.P[1], p.P[1]}
	case 3:
		q = p.P
	default:
		return q, false
	}
	return q, true
}

// validPath reports whether the path's points are finite.
func validPath(q *[3]geom.Vec3, n int) bool {
	for i := range n {
		if !q[i].IsFinite() {
			return false
		}
	}
	return true
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// Ball reports whether the closed ball of radius r centred at p + (0, 0, zc),
// for some position p of path, shares a point with the closed triangle t
// (a degenerate t is the segment or point that it is). Equivalently, whether
// the distance between path + (0, 0, zc) and t is at most r. The answer is
// exact for the float64 inputs: the centre heights p.Z + zc and every other
// intermediate are taken exactly, never rounded. r = 0 tests the moved
// point, segment or triangle itself.
//
// Inputs outside the contract (a NaN or infinite coordinate or parameter,
// r < 0, path.N not in 1..3) give false; the caller validates them. Ball
// never panics.
func Ball(path Path, zc, r float64, t geom.Triangle) bool {
	q, ok := path.verts()
	if !ok || !(r >= 0) {
		return false
	}
	fast := fastRange(&q, path.N, &t, zc, r, 0) // implies finite inputs
	if !fast && !(finite(zc) && finite(r) && validPath(&q, path.N) && t.IsFinite()) {
		return false
	}
	if ballBoxMiss(&q, path.N, zc, r, &t) {
		return false
	}
	var h hint
	if fast {
		switch ballFast(&q, path.N, zc, r, &t, &h) {
		case hit:
			return true
		case miss:
			return false
		}
	}
	return ballExact(&q, path.N, zc, r, &t, &h)
}

// Cylinder reports whether the closed vertical cylinder
// {x : z0 ≤ x.Z − p.Z ≤ z1, (x.X − p.X)² + (x.Y − p.Y)² ≤ r²}, for some
// position p of path, shares a point with the closed triangle t (a
// degenerate t is the segment or point that it is). The answer is exact for
// the float64 inputs: heights p.Z + z0, p.Z + z1 and every other
// intermediate are taken exactly, never rounded. r = 0 tests the vertical
// segment from height z0 to z1 above p, z0 = z1 a horizontal disk.
//
// Inputs outside the contract (a NaN or infinite coordinate or parameter,
// r < 0, z0 > z1, path.N not in 1..3) give false; the caller validates them.
// Cylinder never panics.
func Cylinder(path Path, r, z0, z1 float64, t geom.Triangle) bool {
	q, ok := path.verts()
	if !ok || !(r >= 0) || !(z0 <= z1) {
		return false
	}
	fast := fastRange(&q, path.N, &t, r, z0, z1) // implies finite inputs
	if !fast && !(finite(r) && finite(z0) && finite(z1) && validPath(&q, path.N) && t.IsFinite()) {
		return false
	}
	if cylBoxMiss(&q, path.N, r, z0, z1, &t) {
		return false
	}
	var h hint
	if fast {
		switch cylFast(&q, path.N, r, z0, z1, &t, &h) {
		case hit:
			return true
		case miss:
			return false
		}
	}
	return cylExact(&q, path.N, r, z0, z1, &t, &h)
}

// hint passes the fast path's proposal to the exact path, which starts its
// GJK there: indices of up to four points of the exact path's point list
// (Ball: t_j − p_i at 3i + j; Cylinder: the points of S, built in the same
// order by both paths). Any subset is a valid start; a good one saves
// iterations.
type hint struct {
	n   int
	idx [4]int
}

func (h *hint) add(i int) {
	for _, j := range h.idx[:min(h.n, 4)] {
		if j == i {
			return
		}
	}
	if h.n < 4 {
		h.idx[h.n] = i
	}
	h.n++ // more than four: no hint
}

// verdict is the outcome of a fast path: hit and miss are proven, unsure
// sends the query to the exact path.
type verdict int8

const (
	unsure verdict = iota
	hit
	miss
)
