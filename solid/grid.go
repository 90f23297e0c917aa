package solid

import (
	"math"

	"github.com/collide3d/collide/geom"
)

// lazyAfter is how many points a solid of FromTriangles answers by a scan
// before it builds its index: the index costs a few scans.
const lazyAfter = 4

// maxEntries bounds the grid's entries per triangle on average: a surface
// of long thin triangles across many cells gets a coarser grid.
const maxEntries = 8

// grid is a uniform grid over the yz-plane of a solid's box: cell (i, j)
// lists every triangle whose bounding box meets the closed cell, so that
// the ray from a point p along +x can only cross triangles listed in p's
// cell. It only filters: the tests are the exact ones of the scan.
//
// A cell is found by the same float operations for a point and for a box's
// corners, each monotone in its argument (a subtraction, a multiplication
// by a positive constant, a truncation, a clamp), so that a point inside a
// triangle's closed box always falls in a cell the box was listed in.
type grid struct {
	y0, z0, sy, sz float64 // origin and cells per unit length
	ny, nz         int
	start          []int32 // cell c lists idx[start[c]:start[c+1]]
	idx            []int32
}

// index builds s's grid.
func (s *Solid) index() {
	n := len(s.tris)
	ly, lz := s.box.Max.Y-s.box.Min.Y, s.box.Max.Z-s.box.Min.Z
	ny, nz := 1, 1
	switch {
	case n == 0 || !(ly > 0 || lz > 0):
	case !(lz > 0):
		ny = n
	case !(ly > 0):
		nz = n
	default:
		fy := math.Sqrt(float64(n) * ly / lz)
		ny = int(math.Max(1, math.Min(float64(n), math.Round(fy))))
		nz = max(1, min(n, int(math.Round(float64(n)/float64(ny)))))
	}
	for {
		g := &grid{y0: s.box.Min.Y, z0: s.box.Min.Z, ny: ny, nz: nz}
		if ly > 0 {
			g.sy = float64(ny) / ly
		}
		if lz > 0 {
			g.sz = float64(nz) / lz
		}
		if g.fill(s.boxes) || (ny == 1 && nz == 1) {
			s.grid.Store(g)
			return
		}
		ny, nz = max(1, ny/2), max(1, nz/2)
	}
}

// fill lists the boxes in g's cells, or reports false when they would
// take more than maxEntries a box (the grid is too fine).
func (g *grid) fill(boxes []geom.AABB) bool {
	cells := g.ny * g.nz
	g.start = make([]int32, cells+1)
	total := 0
	for i := range boxes {
		b := &boxes[i]
		i0, j0 := g.coords(b.Min.Y, b.Min.Z)
		i1, j1 := g.coords(b.Max.Y, b.Max.Z)
		total += (i1 - i0 + 1) * (j1 - j0 + 1)
		if total > maxEntries*len(boxes) && g.ny*g.nz > 1 {
			return false
		}
		for j := j0; j <= j1; j++ {
			for i := i0; i <= i1; i++ {
				g.start[j*g.ny+i+1]++
			}
		}
	}
	for c := range cells {
		g.start[c+1] += g.start[c]
	}
	g.idx = make([]int32, total)
	next := make([]int32, cells)
	copy(next, g.start[:cells])
	for k := range boxes {
		b := &boxes[k]
		i0, j0 := g.coords(b.Min.Y, b.Min.Z)
		i1, j1 := g.coords(b.Max.Y, b.Max.Z)
		for j := j0; j <= j1; j++ {
			for i := i0; i <= i1; i++ {
				c := j*g.ny + i
				g.idx[next[c]] = int32(k)
				next[c]++
			}
		}
	}
	return true
}

// coords returns the column and row of the cell of (y, z), clamped to the
// grid; monotone in each coordinate.
func (g *grid) coords(y, z float64) (i, j int) {
	return clampCell((y-g.y0)*g.sy, g.ny), clampCell((z-g.z0)*g.sz, g.nz)
}

// cell returns the index of the cell of (y, z).
func (g *grid) cell(y, z float64) int {
	i, j := g.coords(y, z)
	return j*g.ny + i
}

// clampCell truncates x to a cell in [0, n).
func clampCell(x float64, n int) int {
	if !(x > 0) {
		return 0
	}
	if x >= float64(n) {
		return n - 1
	}
	return int(x)
}
