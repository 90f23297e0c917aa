package ccd

import (
	"math"
	"sync/atomic"

	"github.com/collide3d/collide/geom"
)

// Interval is a closed interval of times, [Lo, Hi].
type Interval struct{ Lo, Hi float64 }

// Width returns Hi − Lo.
func (i Interval) Width() float64 { return i.Hi - i.Lo }

// Contains reports whether Lo ≤ t ≤ Hi.
func (i Interval) Contains(t float64) bool { return i.Lo <= t && t <= i.Hi }

// MaxWidth is the widest Interval a contact time is reported in: 2^-40.
const MaxWidth = 0x1p-40

// none is the Interval of no contact, and of non-finite input.
var none = Interval{math.NaN(), math.NaN()}

// VertexFace reports whether vertex p, moving from p0 to p1, ever touches
// the closed triangle abc whose vertices move from a0, b0, c0 to a1, b1,
// c1, for t in [0, 1], and if so returns the earliest time of contact as
// an Interval of width at most MaxWidth.
func VertexFace(p0, a0, b0, c0, p1, a1, b1, c1 geom.Vec3) (toi Interval, hit bool) {
	q := [8]geom.Vec3{p0, a0, b0, c0, p1, a1, b1, c1}
	return solve(&q, vf)
}

// EdgeEdge reports whether the closed segment pq, whose ends move from p0,
// q0 to p1, q1, ever touches the closed segment rs, whose ends move from
// r0, s0 to r1, s1, for t in [0, 1], and if so returns the earliest time of
// contact as an Interval of width at most MaxWidth.
func EdgeEdge(p0, q0, r0, s0, p1, q1, r1, s1 geom.Vec3) (toi Interval, hit bool) {
	q := [8]geom.Vec3{p0, q0, r0, s0, p1, q1, r1, s1}
	return solve(&q, ee)
}

// TriTri reports whether triangle a, whose vertices move from a0 to a1,
// ever touches triangle b, moving from b0 to b1 (vertex i of a0 to vertex
// i of a1), for t in [0, 1], and if so returns the earliest time of contact
// as an Interval of width at most MaxWidth. Every point of a triangle moves
// on a straight line too (its barycentric coordinates are fixed), and two
// triangles that are apart first touch with a vertex on the other's face
// or an edge on an edge: TriTri is the exact static test at t = 0 and the
// earliest of the six vertex-face and nine edge-edge queries.
func TriTri(a0, b0, a1, b1 geom.Triangle) (toi Interval, hit bool) {
	return triTri(&a0, &b0, &a1, &b1)
}

// exactCalls counts the queries decided by the exact path.
var exactCalls atomic.Int64

// ExactCalls returns how many vertex-face and edge-edge queries (TriTri's
// among them) the exact path has decided since the program started: the
// queries that the float fast path and its filters could not decide. Each
// takes about a millisecond, the others about a microsecond or less: a
// count that grows with the queries asked points at inputs the fast path
// does not handle.
func ExactCalls() int64 { return exactCalls.Load() }
