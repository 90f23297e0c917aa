package ch2

import (
	"math"

	"github.com/collide3d/collide/bv"
	"github.com/collide3d/collide/geom"
)

// Grid is the grid of boxes (dissertation 2.2.1): N×N×N equal voxels over
// the environment's box, each listing the obstacle triangles that meet it
// (scan conversion: every voxel of a triangle's box tested with the exact
// triangle-box test bv.TriBoxDisjoint, padded a millionth of a voxel, so a
// list may hold a triangle that only nearly meets its voxel, never miss
// one). A query takes the voxels bb(F) overlaps and looks for a witness,
// an obstacle triangle whose box meets bb(F) (phase I); then, for each
// flying triangle f, the voxels bb(f) overlaps, and tests f exactly against
// the triangles listed there whose boxes meet bb(f) (phase II), stopping at
// the first contact.
type Grid struct {
	env   *Env
	n     int
	lo    geom.Vec3
	hi    geom.Vec3
	inv   geom.Vec3 // voxels per unit length on each axis
	start []int32   // the lists: voxel v's triangles are list[start[v]:start[v+1]]
	list  []int32
	seen  stamps
}

// NewGrid builds the grid of n×n×n voxels over e.
func NewGrid(e *Env, n int) *Grid {
	g := &Grid{env: e, n: n, lo: e.Bounds.Min, hi: e.Bounds.Max, seen: newStamps(len(e.Tris))}
	size := e.Bounds.Size()
	// A flat environment (a plane of triangles) still gets voxels of
	// positive size.
	ext := math.Max(size.X, math.Max(size.Y, size.Z))
	if ext == 0 {
		ext = 1
	}
	fix := func(s float64) float64 { return math.Max(s, ext*1e-6) }
	size = geom.Vec3{X: fix(size.X), Y: fix(size.Y), Z: fix(size.Z)}
	g.hi = g.lo.Add(size)
	g.inv = geom.Vec3{X: float64(n) / size.X, Y: float64(n) / size.Y, Z: float64(n) / size.Z}
	cell := geom.Vec3{X: size.X / float64(n), Y: size.Y / float64(n), Z: size.Z / float64(n)}
	h := cell.Scale(0.5)
	scale := math.Max(math.Max(math.Abs(g.lo.X), math.Abs(g.hi.X)), math.Max(math.Max(math.Abs(g.lo.Y), math.Abs(g.hi.Y)), math.Max(math.Abs(g.lo.Z), math.Abs(g.hi.Z))))
	pad := math.Max(1e-6*math.Min(cell.X, math.Min(cell.Y, cell.Z)), 0x1p-40*math.Max(scale, ext))
	counts := make([]int32, n*n*n+1)
	type entry struct{ v, t int32 }
	var entries []entry
	for ti := range e.Tris {
		t := &e.Tris[ti]
		x0, x1, y0, y1, z0, z1, ok := g.cells(&e.Boxes[ti])
		if !ok {
			continue
		}
		for z := z0; z <= z1; z++ {
			for y := y0; y <= y1; y++ {
				for x := x0; x <= x1; x++ {
					c := geom.Vec3{X: g.lo.X + (float64(x)+0.5)*cell.X, Y: g.lo.Y + (float64(y)+0.5)*cell.Y, Z: g.lo.Z + (float64(z)+0.5)*cell.Z}
					if bv.TriBoxDisjoint(t[0].Sub(c), t[1].Sub(c), t[2].Sub(c), h, pad) {
						continue
					}
					v := int32((z*n+y)*n + x)
					entries = append(entries, entry{v, int32(ti)})
					counts[v+1]++
				}
			}
		}
	}
	for v := 1; v < len(counts); v++ {
		counts[v] += counts[v-1]
	}
	g.start = counts
	g.list = make([]int32, len(entries))
	fill := append([]int32(nil), counts[:len(counts)-1]...)
	for _, en := range entries {
		g.list[fill[en.v]] = en.t
		fill[en.v]++
	}
	return g
}

// cells returns the range of voxels that the box b overlaps (a point's
// voxel is its coordinate's floor((x-lo)·inv), monotone in x, so every
// point of b is in a voxel of the range), and false when b misses the grid.
func (g *Grid) cells(b *geom.AABB) (x0, x1, y0, y1, z0, z1 int, ok bool) {
	if b.Max.X < g.lo.X || b.Min.X > g.hi.X || b.Max.Y < g.lo.Y || b.Min.Y > g.hi.Y || b.Max.Z < g.lo.Z || b.Min.Z > g.hi.Z {
		return 0, 0, 0, 0, 0, 0, false
	}
	x0, x1 = g.axis(b.Min.X, b.Max.X, g.lo.X, g.inv.X)
	y0, y1 = g.axis(b.Min.Y, b.Max.Y, g.lo.Y, g.inv.Y)
	z0, z1 = g.axis(b.Min.Z, b.Max.Z, g.lo.Z, g.inv.Z)
	return x0, x1, y0, y1, z0, z1, true
}

func (g *Grid) axis(a, b, lo, inv float64) (int, int) {
	clamp := func(x float64) int {
		i := math.Floor((x - lo) * inv)
		switch {
		case !(i >= 0): // NaN too
			return 0
		case i >= float64(g.n):
			return g.n - 1
		}
		return int(i)
	}
	return clamp(a), clamp(b)
}

// Stored returns the length of all the voxels' lists: the triangles
// stored, counting copies (the chapter's ST).
func (g *Grid) Stored() int { return len(g.list) }

// Bytes returns the memory of the grid's arrays (the lists and their
// starts; the environment's triangles and boxes are not counted).
func (g *Grid) Bytes() int64 { return 4*int64(len(g.start)+len(g.list)) + 4*int64(len(g.seen.mark)) }

// Reset does nothing: a grid query carries nothing over.
func (g *Grid) Reset() {}

// Collide is the grid's query (see Grid).
func (g *Grid) Collide(f *Frame, c *Counts) bool {
	e := g.env
	x0, x1, y0, y1, z0, z1, ok := g.cells(&f.Box)
	if !ok {
		return false
	}
	g.seen.next()
	witness := false
phase1:
	for z := z0; z <= z1; z++ {
		for y := y0; y <= y1; y++ {
			for x := x0; x <= x1; x++ {
				v := (z*g.n+y)*g.n + x
				for _, t := range g.list[g.start[v]:g.start[v+1]] {
					if !g.seen.first(t) {
						continue
					}
					c.BoxTests++
					if overlaps(&e.Boxes[t], &f.Box) {
						witness = true
						break phase1
					}
				}
			}
		}
	}
	if !witness {
		return false
	}
	c.FullRes++
	f.Full()
	for j := range f.Tris {
		fb := &f.Boxes[j]
		x0, x1, y0, y1, z0, z1, ok := g.cells(fb)
		if !ok {
			continue
		}
		g.seen.next()
		for z := z0; z <= z1; z++ {
			for y := y0; y <= y1; y++ {
				for x := x0; x <= x1; x++ {
					v := (z*g.n+y)*g.n + x
					for _, t := range g.list[g.start[v]:g.start[v+1]] {
						if !g.seen.first(t) {
							continue
						}
						c.BoxTests++
						if !overlaps(&e.Boxes[t], fb) {
							continue
						}
						c.TriTests++
						if geom.TriTri(e.Tris[t], f.Tris[j]) {
							return true
						}
					}
				}
			}
		}
	}
	return false
}
