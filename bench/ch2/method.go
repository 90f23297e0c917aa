package ch2

import (
	"math"

	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/hull"
	"github.com/collide3d/collide/mesh"
)

// Env is an environment as the chapter's methods see it: the obstacle
// triangles in a flat array, each with its bounding box, inside Bounds.
type Env struct {
	Name, Group string
	Tris        []geom.Triangle
	Boxes       []geom.AABB
	Bounds      geom.AABB
	// Verts is the number of distinct vertices of the mesh it came from.
	Verts int
}

// NewEnv returns the environment of the triangles tris.
func NewEnv(name, group string, tris []geom.Triangle, verts int) *Env {
	e := &Env{Name: name, Group: group, Tris: tris, Boxes: make([]geom.AABB, len(tris)), Bounds: geom.EmptyAABB(), Verts: verts}
	for i := range tris {
		e.Boxes[i] = tris[i].FiniteBounds()
		e.Bounds = e.Bounds.Union(e.Boxes[i])
	}
	return e
}

// Frame is the flying object at one placement: bb(F), the box of its
// moved vertices, and, once Full is called (at a full-resolution check),
// its triangles moved by the pose and each one's box.
type Frame struct {
	Pose  geom.Pose
	Tris  []geom.Triangle
	Boxes []geom.AABB
	Box   geom.AABB
	moved []geom.Vec3
	mesh  *mesh.TriMesh
	full  bool
	ext   [6]int // the last extreme hull vertices, where the climbs start
}

// Set places the flying model m at p: every vertex transformed into f's
// arrays, which it reuses, every triangle's box and bb(F), their union.
func (f *Frame) Set(p geom.Pose, m *mesh.TriMesh) {
	f.Pose, f.mesh, f.full = p, m, true
	f.moved = f.moved[:0]
	for _, v := range m.Verts {
		f.moved = append(f.moved, p.Apply(v))
	}
	f.Tris = f.Tris[:0]
	f.Boxes = f.Boxes[:0]
	f.Box = geom.EmptyAABB()
	for _, t := range m.Tris {
		tri := geom.Triangle{f.moved[t[0]], f.moved[t[1]], f.moved[t[2]]}
		b := tri.FiniteBounds()
		f.Tris = append(f.Tris, tri)
		f.Boxes = append(f.Boxes, b)
		f.Box = union(&f.Box, &b)
	}
}

// Place places the flying model m at p as the chapter did: bb(F) by hill
// climbing on m's convex hull h (from the previous placement's extreme
// vertices, hull.Hull.Extreme, exact) to the six vertices extreme along
// the world's axes, moved by p, the box grown by a bound on the rounding of
// moving a vertex (so that it contains every moved vertex as Set computes
// it); the triangles are moved only when a method calls Full.
func (f *Frame) Place(p geom.Pose, m *mesh.TriMesh, h *hull.Hull) {
	f.Pose, f.mesh, f.full = p, m, false
	r := &p.R
	if r[0][0] == 0 && *r == (geom.Mat3{}) {
		id := geom.Identity3() // the zero Pose's convention
		r = &id
	}
	// |rounding| of a moved coordinate: three products and three sums of
	// terms at most 3·maxAbs + |t|, under 4 units of 2⁻⁵³ each; 2⁻⁴⁸ is
	// generous.
	pad := 0x1p-48 * (3*h.MaxAbs() + maxAbs(p.T))
	for a := range 3 {
		g := geom.Vec3{X: r[a][0], Y: r[a][1], Z: r[a][2]}
		hi, _ := h.Extreme(g, f.ext[2*a])
		lo, _ := h.Extreme(g.Neg(), f.ext[2*a+1])
		f.ext[2*a], f.ext[2*a+1] = hi, lo
		f.Box.Max = f.Box.Max.SetIndex(a, p.Apply(h.Vertex(hi)).Index(a)+pad)
		f.Box.Min = f.Box.Min.SetIndex(a, p.Apply(h.Vertex(lo)).Index(a)-pad)
	}
}

// Full moves the triangles of a Place'd frame (Set's work, less bb(F),
// which stays the climb's): the full-resolution phase needs them.
func (f *Frame) Full() {
	if f.full {
		return
	}
	box := f.Box
	f.Set(f.Pose, f.mesh)
	f.Box = box
}

// Counts are what a method did for its queries.
type Counts struct {
	// FullRes counts the queries that went on to the full-resolution
	// phase (phase II: exact triangle tests), the chapter's
	// "full-resolution checks".
	FullRes int64
	// TriTests counts the exact triangle-triangle tests, BoxTests the
	// box-box tests of obstacle triangles (and, for the BV-trees, the
	// volume tests).
	TriTests, BoxTests int64
}

// A Method answers first-contact queries of one flying object against one
// environment. A Method is not safe for concurrent use: it keeps its
// scratch state (and the mesh method its location) between queries.
type Method interface {
	// Collide reports whether the flying object at f touches an obstacle
	// triangle, stopping at the first contact found, and adds its work to
	// c.
	Collide(f *Frame, c *Counts) bool
	// Reset forgets what the method carries from one query to the next
	// (the mesh method's location): the next query is a static one.
	Reset()
}

// union returns the box of a and b.
func union(a, b *geom.AABB) geom.AABB {
	u := *a
	if b.Min.X < u.Min.X {
		u.Min.X = b.Min.X
	}
	if b.Min.Y < u.Min.Y {
		u.Min.Y = b.Min.Y
	}
	if b.Min.Z < u.Min.Z {
		u.Min.Z = b.Min.Z
	}
	if b.Max.X > u.Max.X {
		u.Max.X = b.Max.X
	}
	if b.Max.Y > u.Max.Y {
		u.Max.Y = b.Max.Y
	}
	if b.Max.Z > u.Max.Z {
		u.Max.Z = b.Max.Z
	}
	return u
}

// overlaps reports whether the closed boxes a and b share a point.
func overlaps(a, b *geom.AABB) bool {
	return a.Min.X <= b.Max.X && b.Min.X <= a.Max.X &&
		a.Min.Y <= b.Max.Y && b.Min.Y <= a.Max.Y &&
		a.Min.Z <= b.Max.Z && b.Min.Z <= a.Max.Z
}

// Brute is the oracle: every pair of an obstacle triangle and a flying
// triangle whose boxes meet, tested with geom.TriTri (exact), in the
// frame's coordinates, as the methods test them.
func Brute(e *Env, f *Frame) bool {
	for j := range f.Tris {
		for i := range e.Tris {
			if overlaps(&e.Boxes[i], &f.Boxes[j]) && geom.TriTri(e.Tris[i], f.Tris[j]) {
				return true
			}
		}
	}
	return false
}

// stamps marks obstacle triangles (or tetrahedra) seen in the current
// round of a query, without clearing an array each round.
type stamps struct {
	mark []uint32
	cur  uint32
}

func newStamps(n int) stamps { return stamps{mark: make([]uint32, n)} }

// next starts a new round.
func (s *stamps) next() {
	s.cur++
	if s.cur == 0 {
		clear(s.mark)
		s.cur = 1
	}
}

// first marks i and reports whether it was not marked in this round.
func (s *stamps) first(i int32) bool {
	if s.mark[i] == s.cur {
		return false
	}
	s.mark[i] = s.cur
	return true
}

// maxAbs returns the largest |coordinate| of v.
func maxAbs(v geom.Vec3) float64 {
	return math.Max(math.Abs(v.X), math.Max(math.Abs(v.Y), math.Abs(v.Z)))
}
