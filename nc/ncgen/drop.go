package ncgen

import (
	"math"

	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh"
)

// dropper answers drop-cutter queries for a ball of radius r over a part:
// the lowest height of the ball's centre above (x, y) at which the ball,
// lowered from above, touches the part. It is plain floating point, right
// to a few ulps of the coordinates, not exact. Triangles are found through
// a uniform grid over the part's xy bounds.
type dropper struct {
	m      *mesh.TriMesh
	bounds geom.AABB // m's
	r      float64
	x0, y0 float64 // the grid's corner
	cell   float64
	nx, ny int
	start  []int32 // cell c's triangles are tris[start[c]:start[c+1]]
	tris   []int32
	stamp  []uint32 // per triangle: the query that last tested it
	query  uint32
}

// maxCells caps the drop-cutter grid's cells.
const maxCells = 1 << 20

// newDropper returns the drop-cutter of a ball of radius r > 0 over m.
func newDropper(m *mesh.TriMesh, r float64) *dropper {
	d := &dropper{m: m, r: r, stamp: make([]uint32, len(m.Tris))}
	b := m.Bounds()
	d.bounds = b
	if len(m.Tris) == 0 || b.IsEmpty() {
		d.nx, d.ny, d.cell = 1, 1, 1
		d.start = make([]int32, 2)
		return d
	}
	d.x0, d.y0 = b.Min.X, b.Min.Y
	w, h := b.Max.X-b.Min.X, b.Max.Y-b.Min.Y
	// Cells about as wide as the ball, or as a typical triangle, whichever is
	// larger, within maxCells.
	d.cell = max(r, math.Sqrt(w*h/float64(len(m.Tris))), math.Sqrt(w*h/maxCells), 1e-9)
	d.nx = min(int(w/d.cell)+1, maxCells)
	d.ny = min(int(h/d.cell)+1, maxCells/d.nx)
	count := make([]int32, d.nx*d.ny+1)
	d.each(m, func(c int, _ int32) { count[c+1]++ })
	for c := 1; c < len(count); c++ {
		count[c] += count[c-1]
	}
	d.start = count
	d.tris = make([]int32, count[len(count)-1])
	fill := make([]int32, d.nx*d.ny)
	d.each(m, func(c int, t int32) {
		d.tris[d.start[c]+fill[c]] = t
		fill[c]++
	})
	return d
}

// each calls fn for every cell that triangle t's xy bounds overlap, for
// every t.
func (d *dropper) each(m *mesh.TriMesh, fn func(c int, t int32)) {
	for t, tri := range m.Tris {
		a, b, c := m.Verts[tri[0]], m.Verts[tri[1]], m.Verts[tri[2]]
		i0, j0 := d.cellOf(min(a.X, b.X, c.X), min(a.Y, b.Y, c.Y))
		i1, j1 := d.cellOf(max(a.X, b.X, c.X), max(a.Y, b.Y, c.Y))
		for j := j0; j <= j1; j++ {
			for i := i0; i <= i1; i++ {
				fn(j*d.nx+i, int32(t))
			}
		}
	}
}

// cellOf returns the cell of (x, y), clamped to the grid.
func (d *dropper) cellOf(x, y float64) (int, int) {
	i := int(math.Floor((x - d.x0) / d.cell))
	j := int(math.Floor((y - d.y0) / d.cell))
	return min(max(i, 0), d.nx-1), min(max(j, 0), d.ny-1)
}

// drop returns the height of the ball's centre above (x, y) when it rests
// on the part, and false if no triangle lies within r of the vertical line
// through (x, y).
func (d *dropper) drop(x, y float64) (float64, bool) {
	d.query++
	if d.query == 0 { // wrapped: clear the stamps
		clear(d.stamp)
		d.query = 1
	}
	i0, j0 := d.cellOf(x-d.r, y-d.r)
	i1, j1 := d.cellOf(x+d.r, y+d.r)
	best, found := math.Inf(-1), false
	for j := j0; j <= j1; j++ {
		for i := i0; i <= i1; i++ {
			c := j*d.nx + i
			for _, t := range d.tris[d.start[c]:d.start[c+1]] {
				if d.stamp[t] == d.query {
					continue
				}
				d.stamp[t] = d.query
				if z, ok := dropTriangle(d.m.Triangle(int(t)), x, y, d.r); ok && z > best {
					best, found = z, true
				}
			}
		}
	}
	return best, found
}

// dropTriangle returns the highest centre height of a ball of radius r on
// the vertical line through (x, y) that touches the closed triangle t (the
// height at which the ball, lowered from above, first touches it), and
// false if the line passes farther than r from t. It takes the largest of
// the facet, edge and vertex cases.
func dropTriangle(t geom.Triangle, x, y, r float64) (float64, bool) {
	best, found := math.Inf(-1), false
	take := func(z float64) {
		if z > best {
			best, found = z, true
		}
	}
	rr := r * r
	// Vertices: the ball's lower hemisphere over the vertex.
	for _, v := range t {
		dx, dy := x-v.X, y-v.Y
		if d2 := dx*dx + dy*dy; d2 <= rr {
			take(v.Z + math.Sqrt(rr-d2))
		}
	}
	// Edges: the centre at distance r from the edge's line, the foot of the
	// perpendicular within the edge.
	for k := range 3 {
		a, b := t[k], t[(k+1)%3]
		e := b.Sub(a)
		l := e.Norm()
		if l == 0 {
			continue
		}
		u := e.Scale(1 / l)
		A := u.X*u.X + u.Y*u.Y // 1 - uz²: the edge's horizontal extent
		if A < 1e-18 {
			continue // vertical: its vertices decide
		}
		wx, wy := x-a.X, y-a.Y
		p := wx*u.X + wy*u.Y
		B := -2 * p * u.Z
		C := wx*wx + wy*wy - p*p - rr
		disc := B*B - 4*A*C
		if disc < 0 {
			continue
		}
		sq := math.Sqrt(disc)
		var s float64 // the larger root: the centre's height above a
		if B <= 0 {
			s = (-B + sq) / (2 * A)
		} else {
			s = (2 * C) / (-B - sq)
		}
		if along := p + s*u.Z; along >= 0 && along <= l {
			take(a.Z + s)
		}
	}
	// The facet: the centre at r along the upward normal from a point of
	// the triangle.
	n := t[1].Sub(t[0]).Cross(t[2].Sub(t[0]))
	if n.Z < 0 {
		n = n.Neg()
	}
	if nl := n.Norm(); nl > 0 && n.Z > 1e-12*nl {
		n = n.Scale(1 / nl)
		a := t[0]
		z := a.Z + (r-n.X*(x-a.X)-n.Y*(y-a.Y))/n.Z
		qx, qy := x-r*n.X, y-r*n.Y // the contact point's projection
		if insideXY(t, qx, qy) {
			take(z)
		}
	}
	return best, found
}

// insideXY reports whether (x, y) lies in the closed xy projection of t
// (which has positive area).
func insideXY(t geom.Triangle, x, y float64) bool {
	cross := func(a, b geom.Vec3) float64 { return (b.X-a.X)*(y-a.Y) - (b.Y-a.Y)*(x-a.X) }
	d0, d1, d2 := cross(t[0], t[1]), cross(t[1], t[2]), cross(t[2], t[0])
	return (d0 >= 0 && d1 >= 0 && d2 >= 0) || (d0 <= 0 && d1 <= 0 && d2 <= 0)
}
