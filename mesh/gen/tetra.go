package gen

import (
	"math"
	"math/rand/v2"

	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh"
)

// Shape of the random tetrahedra, as fractions of the nominal edge length:
// a regular tetrahedron (circumradius √(3/8) ≈ 0.612) whose vertices are each
// moved by a random offset of length at most tetraJitter, then rotated.
const (
	tetraJitter = 0.15
	// tetraReach bounds the distance from a tetrahedron's center to its
	// vertices, √(3/8) + tetraJitter ≈ 0.762, with room for rounding.
	tetraReach = 0.77
	// tetraMinReach bounds the same distance from below: every vertex is at
	// least √(3/8) - tetraJitter ≈ 0.462 from the center.
	tetraMinReach = 0.46
	// tetraMinDet is the smallest accepted determinant of the edge vectors
	// (6·volume), against 1/√2 ≈ 0.707 for the regular tetrahedron.
	tetraMinDet = 0.05
)

// tetraSeq is the PCG stream selector used by Tetrahedra (the second PCG
// seed); changing it changes every generated field.
const tetraSeq = 0x7e7a7e7a5eed5eed

// Tetrahedra returns n random tetrahedra, pairwise disjoint (no two share a
// point) and inside bounds, as one mesh of 4·n triangles and 4·n vertices:
// tetrahedron i has vertices 4i..4i+3 and triangles 4i..4i+3, each closed
// and oriented outward. This is the obstacle field of QuickCD's experiments
// (25,000 tetrahedra around a flying 747; 10,000 around the Swept model).
//
// Each tetrahedron is a regular one of edge size with every vertex moved by
// a random offset of length up to 0.15·size (so its edges are between 0.7
// and 1.3 times size), in a uniformly random orientation, at a uniformly
// random position where its bounding sphere (radius at most 0.77·size)
// lies inside bounds and strictly apart from the bounding sphere of every
// earlier one; a rejected position is redrawn. bounds must be at least
// 1.54·size wide on every axis.
//
// Random placement jams when the spheres fill about a third of the volume
// (about 0.2 tetrahedra per size³ of volume in practice). Tetrahedra
// returns an error at once when n is clearly beyond that, and gives up
// with an error after 100·n+1000 positions in all, or earlier when the rate
// of success over the last 256 placements (a rate that only falls as the
// field fills) shows that the remaining attempts cannot suffice. Below that
// density a run takes expected O(n) time (a uniform grid finds the
// neighbors): about 10 ms for 25,000.
//
// The result is a function of the arguments alone: the random numbers are
// the raw outputs of math/rand/v2's PCG seeded with (seed, a constant).
func Tetrahedra(n int, bounds geom.AABB, size float64, seed uint64) (*mesh.TriMesh, error) {
	const kind = "tetrahedra"
	if n < 0 {
		return nil, errorf(kind, "n must be non-negative, got %d", n)
	}
	if n > MaxTriangles/4 {
		return nil, errorf(kind, "n = %d gives more than %d triangles", n, MaxTriangles)
	}
	if err := checkPositive(kind, "size", size); err != nil {
		return nil, err
	}
	ext := bounds.Size()
	if !bounds.Min.IsFinite() || !bounds.Max.IsFinite() || !ext.IsFinite() {
		return nil, errorf(kind, "bounds must be finite, got %v-%v", bounds.Min, bounds.Max)
	}
	reach := float64(tetraReach * size)
	if !(ext.X >= 2*reach && ext.Y >= 2*reach && ext.Z >= 2*reach) {
		return nil, errorf(kind, "bounds %v-%v are too small for tetrahedra of size %v: they must be at least %v wide on every axis",
			bounds.Min, bounds.Max, size, 2*reach)
	}
	// The bounding balls, of radius at least tetraMinReach·size, are disjoint
	// and inside bounds. Random sequential placement of balls jams when
	// they fill about 38.4% of the volume (far less with the real radii).
	rmin := float64(tetraMinReach * size)
	ball := 4 * math.Pi / 3 * rmin * rmin * rmin
	if float64(n)*ball > 0.384*ext.X*ext.Y*ext.Z {
		return nil, errorf(kind, "%d tetrahedra of size %v cannot fit in bounds %v-%v: their bounding spheres would fill more than the 38%% at which random placement jams",
			n, size, bounds.Min, bounds.Max)
	}
	// Centers are drawn in [lo, hi].
	lo := bounds.Min.Add(geom.Vec3{X: reach, Y: reach, Z: reach})
	hi := bounds.Max.Sub(geom.Vec3{X: reach, Y: reach, Z: reach})

	g := newSphereGrid(lo, hi, 2*reach, n)
	rng := random{rand.NewPCG(seed, tetraSeq)}

	m := &mesh.TriMesh{
		Verts: make([]geom.Vec3, 0, 4*n),
		Tris:  make([][3]int32, 0, 4*n),
	}
	budget := 100*n + 1000
	attempts := 0
	full := func(i int) error {
		return errorf(kind, "placed only %d of %d tetrahedra after %d attempts: the bounds are too full (use larger bounds, fewer or smaller tetrahedra)",
			i, n, attempts)
	}
	const window = 256
	windowStart := 0
	for i := range n {
		// Every window placements, give up early if even the current rate
		// of success (which only falls as the field fills) would need more
		// attempts than the budget has left.
		if i > 0 && i%window == 0 {
			spent := attempts - windowStart
			if float64(n-i)*float64(spent) > float64(window)*float64(budget-attempts) {
				return nil, full(i)
			}
			windowStart = attempts
		}
		shape := randomTetra(size, rng)
		var r0 float64 // the farthest vertex from the center
		for _, o := range shape {
			r0 = math.Max(r0, math.Sqrt(o.Dot(o)))
		}
		for {
			if attempts == budget {
				return nil, full(i)
			}
			attempts++
			c := geom.Vec3{ // drawn in this order: X, Y, Z
				X: between(lo.X, hi.X, rng.uniform()),
				Y: between(lo.Y, hi.Y, rng.uniform()),
				Z: between(lo.Z, hi.Z, rng.uniform()),
			}
			// The vertices will be fl(c + o): each coordinate is off by at
			// most 2⁻⁵³(|c|+|o|) from c + o, so this radius contains them.
			ca := c.Abs()
			r := float64(r0*(1+1e-12)) + float64(4e-16*(ca.X+ca.Y+ca.Z+float64(2*r0)))
			if r > reach {
				return nil, errorf(kind, "size %v is too small for the coordinates of bounds %v-%v", size, bounds.Min, bounds.Max)
			}
			if !g.free(c, r) {
				continue
			}
			g.add(c, r)
			base := int32(len(m.Verts))
			for _, o := range shape {
				m.Verts = append(m.Verts, c.Add(o))
			}
			// With det(v1-v0, v2-v0, v3-v0) > 0 these faces point outward.
			m.Tris = append(m.Tris,
				[3]int32{base, base + 2, base + 1},
				[3]int32{base, base + 1, base + 3},
				[3]int32{base, base + 3, base + 2},
				[3]int32{base + 1, base + 2, base + 3})
			break
		}
	}
	return m, nil
}

// regularTetra is a regular tetrahedron of unit edge centered at the origin,
// with det(v1-v0, v2-v0, v3-v0) > 0.
var regularTetra = func() [4]geom.Vec3 {
	s := 1 / (2 * math.Sqrt2)
	return [4]geom.Vec3{{X: s, Y: s, Z: s}, {X: -s, Y: s, Z: -s}, {X: s, Y: -s, Z: -s}, {X: -s, Y: -s, Z: s}}
}()

// between returns lo·(1-u) + hi·u, in [lo, hi] (up to rounding) for u in [0, 1],
// without the overflow of lo + (hi-lo)·u.
func between(lo, hi, u float64) float64 { return float64(lo*(1-u)) + float64(hi*u) }

// random draws uniform numbers from the raw output of a PCG.
type random struct{ src *rand.PCG }

// uniform returns a uniform number in [0, 1).
func (r random) uniform() float64 { return unitFloat(r.src.Uint64()) }

// signed returns a uniform number in [-1, 1).
func (r random) signed() float64 { return float64(2*unitFloat(r.src.Uint64())) - 1 }

// randomTetra returns the vertex offsets, from the tetrahedron's center, of
// a random tetrahedron of nominal edge size, positively oriented.
func randomTetra(size float64, rng random) [4]geom.Vec3 {
	var local [4]geom.Vec3
	for {
		for i, v := range regularTetra {
			var p geom.Vec3
			for { // uniform in the unit ball
				p = geom.Vec3{X: rng.signed(), Y: rng.signed(), Z: rng.signed()}
				if p.Dot(p) <= 1 {
					break
				}
			}
			local[i] = addScaled(scale(size, v), tetraJitter*size, p)
		}
		e1, e2, e3 := local[1].Sub(local[0]), local[2].Sub(local[0]), local[3].Sub(local[0])
		if e1.Cross(e2).Dot(e3) >= float64(tetraMinDet*size)*float64(size*size) {
			break
		}
	}
	// A uniformly random rotation: a uniformly random unit quaternion,
	// by rejection from the 4-ball.
	var w, x, y, z float64
	for {
		w, x, y, z = rng.signed(), rng.signed(), rng.signed(), rng.signed()
		n2 := float64(w*w) + float64(x*x) + float64(y*y) + float64(z*z)
		if n2 > 1e-4 && n2 <= 1 {
			n := math.Sqrt(n2)
			w, x, y, z = w/n, x/n, y/n, z/n
			break
		}
	}
	xx, yy, zz := float64(x*x), float64(y*y), float64(z*z)
	xy, xz, yz := float64(x*y), float64(x*z), float64(y*z)
	wx, wy, wz := float64(w*x), float64(w*y), float64(w*z)
	r := geom.Mat3{
		{1 - float64(2*(yy+zz)), 2 * (xy - wz), 2 * (xz + wy)},
		{2 * (xy + wz), 1 - float64(2*(xx+zz)), 2 * (yz - wx)},
		{2 * (xz - wy), 2 * (yz + wx), 1 - float64(2*(xx+yy))},
	}
	var out [4]geom.Vec3
	for i, v := range local {
		out[i] = r.MulVec(v)
	}
	return out
}

// sphereGrid is a uniform grid of balls, for finding whether a new ball
// meets an earlier one. Cells are at least as wide as the largest ball's
// diameter, so two balls that meet lie in the same or adjacent cells.
type sphereGrid struct {
	lo         geom.Vec3
	cell       float64
	nx, ny, nz int
	head       []int32 // first ball in each cell, -1 if none
	next       []int32 // next ball in the same cell
	center     []geom.Vec3
	radius     []float64
}

// newSphereGrid returns an empty grid for the centers in [lo, hi], balls of
// diameter at most diam, and about n balls.
func newSphereGrid(lo, hi geom.Vec3, diam float64, n int) *sphereGrid {
	ext := hi.Sub(lo)
	cell := diam * (1 + 1e-9)
	maxCells := float64(4*n + 64)
	cells := func(e float64) float64 { return math.Floor(e/cell) + 1 }
	for cells(ext.X)*cells(ext.Y)*cells(ext.Z) > maxCells {
		cell *= 1.25
	}
	g := &sphereGrid{
		lo: lo, cell: cell,
		nx: int(cells(ext.X)), ny: int(cells(ext.Y)), nz: int(cells(ext.Z)),
		next:   make([]int32, 0, n),
		center: make([]geom.Vec3, 0, n),
		radius: make([]float64, 0, n),
	}
	g.head = make([]int32, g.nx*g.ny*g.nz)
	for i := range g.head {
		g.head[i] = -1
	}
	return g
}

// cellOf returns the cell coordinates of p, clamped to the grid.
func (g *sphereGrid) cellOf(p geom.Vec3) (int, int, int) {
	f := func(x, lo float64, n int) int {
		c := math.Floor((x - lo) / g.cell)
		if !(c >= 0) {
			return 0
		}
		if c >= float64(n-1) {
			return n - 1
		}
		return int(c)
	}
	return f(p.X, g.lo.X, g.nx), f(p.Y, g.lo.Y, g.ny), f(p.Z, g.lo.Z, g.nz)
}

// free reports whether the ball (c, r) is strictly apart from every ball in
// the grid, with a relative margin that covers the rounding of the test.
func (g *sphereGrid) free(c geom.Vec3, r float64) bool {
	cx, cy, cz := g.cellOf(c)
	for z := max(cz-1, 0); z <= min(cz+1, g.nz-1); z++ {
		for y := max(cy-1, 0); y <= min(cy+1, g.ny-1); y++ {
			for x := max(cx-1, 0); x <= min(cx+1, g.nx-1); x++ {
				for i := g.head[(z*g.ny+y)*g.nx+x]; i >= 0; i = g.next[i] {
					d := c.Sub(g.center[i])
					s := r + g.radius[i]
					if d.Dot(d) <= float64(s*s)*(1+1e-9) {
						return false
					}
				}
			}
		}
	}
	return true
}

// add inserts the ball (c, r).
func (g *sphereGrid) add(c geom.Vec3, r float64) {
	cx, cy, cz := g.cellOf(c)
	k := (cz*g.ny+cy)*g.nx + cx
	g.next = append(g.next, g.head[k])
	g.head[k] = int32(len(g.center))
	g.center = append(g.center, c)
	g.radius = append(g.radius, r)
}
