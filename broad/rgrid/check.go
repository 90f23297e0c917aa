package rgrid

import (
	"fmt"
	"math"
	"slices"

	"github.com/collide3d/collide/geom"
)

// State is the state of a leaf cell of the static grid (CDFast's three
// events).
type State uint8

const (
	// Empty: no static box reaches the cell, so nothing in it can be met.
	Empty State = iota
	// Full: a static box contains the whole closed cell, so a volume that
	// reaches the cell meets that box without a test.
	Full
	// Partial: static boxes reach the cell, none contains it; each is
	// tested.
	Partial
)

// String returns "empty", "full" or "partial".
func (s State) String() string {
	switch s {
	case Empty:
		return "empty"
	case Full:
		return "full"
	case Partial:
		return "partial"
	}
	return fmt.Sprintf("State(%d)", uint8(s))
}

// Cell describes a leaf cell of the static grid.
type Cell struct {
	State State
	Depth int       // levels below the root
	Boxes int       // static boxes listed (more than Threshold only at a guard)
	Full  int       // of which contain the cell
	Box   geom.AABB // the closed extent of the cell
}

// Locate returns the leaf cell of the static grid that holds point x,
// building the grid first if the static set changed. A cell holds the
// points of its half-open extent [Min, Max) (closed at Max along an axis
// where it is the last cell of the root box); a point outside the root box
// is taken to the nearest border cell. ok is false when there is no static
// object.
func (p *Phase) Locate(x geom.Vec3) (c Cell, ok bool) {
	if p.staticDirty {
		p.build()
		p.staticDirty = false
	}
	s := &p.st
	if len(s.ids) == 0 {
		return Cell{}, false
	}
	xs := [3]float64{x.X, x.Y, x.Z}
	gi := int32(0)
	for {
		g := &s.grids[gi]
		var ix [3]int32
		for a := range 3 {
			ix[a] = g.index(a, xs[a])
		}
		cl := s.cells[g.base+(ix[2]*g.n[1]+ix[1])*g.n[0]+ix[0]]
		if cl.n < 0 {
			gi = cl.first
			continue
		}
		var b box3
		for a := range 3 {
			b.lo[a], b.hi[a] = g.cellAxis(a, ix[a])
		}
		c = Cell{Depth: int(g.depth), Boxes: int(cl.n), Full: int(cl.nfull), Box: geom.AABB{
			Min: geom.V(b.lo[0], b.lo[1], b.lo[2]), Max: geom.V(b.hi[0], b.hi[1], b.hi[2])}}
		switch {
		case cl.n == 0:
			c.State = Empty
		case cl.nfull > 0:
			c.State = Full
		default:
			c.State = Partial
		}
		return c, true
	}
}

// Check verifies the invariants of the static grid, building it first if
// the static set changed: boundaries monotone and inside their parent cell;
// each leaf lists exactly the static boxes that meet its half-open extent
// (found here by scanning each grid's boundaries, not by the index
// arithmetic that built the lists), once each, those that contain the
// closed cell first and counted in its Full count; a leaf lists more than
// Threshold boxes only at a guard. It is meant for tests.
func (p *Phase) Check() error {
	if p.staticDirty {
		p.build()
		p.staticDirty = false
	}
	s := &p.st
	ns := len(s.ids)
	if ns == 0 {
		return nil
	}
	_, split, thr, maxDepth, maxCells, maxItems := p.params(ns)
	listed := 0
	for gi := range s.grids {
		g := &s.grids[gi]
		for a := range 3 {
			prev := g.lo[a]
			for k := int32(1); k < g.n[a]; k++ {
				b := g.bnd(a, k)
				if b < prev || b > g.hi[a] {
					return fmt.Errorf("grid %d axis %d: boundary %d = %g outside [%g, %g]", gi, a, k, b, prev, g.hi[a])
				}
				prev = b
			}
		}
		for iz := range g.n[2] {
			for iy := range g.n[1] {
				for ix := range g.n[0] {
					ci := g.base + (iz*g.n[1]+iy)*g.n[0] + ix
					cl := s.cells[ci]
					var cb box3
					for a, i := range [3]int32{ix, iy, iz} {
						cb.lo[a], cb.hi[a] = g.cellAxis(a, i)
					}
					if cl.n < 0 {
						ch := &s.grids[cl.first]
						if ch.lo != cb.lo || ch.hi != cb.hi || ch.depth != g.depth+1 {
							return fmt.Errorf("cell %d: child grid %d extent %v %v, want %v %v", ci, cl.first, ch.lo, ch.hi, cb.lo, cb.hi)
						}
						continue
					}
					items := s.items[cl.first : cl.first+cl.n]
					for i, k := range items {
						if slices.Contains(items[:i], k) {
							return fmt.Errorf("leaf %d lists box %d twice", ci, k)
						}
						if cov := covers(&s.box[k], &cb.lo, &cb.hi); cov != (int32(i) < cl.nfull) {
							return fmt.Errorf("leaf %d: box %d at %d covers=%v, nfull %d", ci, k, i, cov, cl.nfull)
						}
					}
					listed += len(items)
					if int(cl.n) > thr && int(cl.nfull) <= thr && int(g.depth) < maxDepth &&
						len(s.cells)+split*split*split <= maxCells && s.binned+split*split*split*int(cl.n) <= maxItems &&
						p.splittable(g, ix, iy, iz, split) {
						return fmt.Errorf("cell %d: %d boxes (%d full) > threshold %d at depth %d, and no guard holds", ci, cl.n, cl.nfull, thr, g.depth)
					}
				}
			}
		}
	}
	// Every (leaf, box) pair the boxes reach is listed; with the count, the
	// lists hold nothing else.
	reached := 0
	big := map[int32]bool{}
	root := &s.grids[0]
	for _, k := range s.big {
		if r := root.rangeOf(&s.box[k]); int64(r.hi[0]-r.lo[0]+1)*int64(r.hi[1]-r.lo[1]+1)*int64(r.hi[2]-r.lo[2]+1) <= bigStatic || big[k] {
			return fmt.Errorf("box %d in the big list twice, or reaching %v root cells only", k, r)
		}
		big[k] = true
	}
	for k := range s.box {
		if big[int32(k)] {
			continue
		}
		if err := s.checkReach(0, int32(k), [3]bool{true, true, true}, &reached); err != nil {
			return err
		}
	}
	if reached != listed {
		return fmt.Errorf("the leaves list %d boxes, the boxes reach %d leaves", listed, reached)
	}
	return nil
}

// checkReach finds the cells of grid gi that box k meets, by scanning the
// cell extents along each axis, and checks that the leaves among them list
// it. closed says along which axes the grid's last cell is closed at hi.
func (s *staticGrid) checkReach(gi, k int32, closed [3]bool, reached *int) error {
	g := &s.grids[gi]
	b := &s.box[k]
	var r cellRange
	for a := range 3 {
		r.lo[a], r.hi[a] = g.n[a], -1
		for i := range g.n[a] {
			lo, hi := g.cellAxis(a, i)
			top := closed[a] && i == g.n[a]-1
			if (b.lo[a] < hi || top && b.lo[a] <= hi) && lo <= b.hi[a] {
				r.lo[a] = min(r.lo[a], i)
				r.hi[a] = max(r.hi[a], i)
			}
		}
	}
	for z := r.lo[2]; z <= r.hi[2]; z++ {
		for y := r.lo[1]; y <= r.hi[1]; y++ {
			for x := r.lo[0]; x <= r.hi[0]; x++ {
				ci := g.base + (z*g.n[1]+y)*g.n[0] + x
				cl := s.cells[ci]
				if cl.n < 0 {
					var cc [3]bool
					for a, i := range [3]int32{x, y, z} {
						cc[a] = closed[a] && i == g.n[a]-1
					}
					if err := s.checkReach(cl.first, k, cc, reached); err != nil {
						return err
					}
					continue
				}
				if !slices.Contains(s.items[cl.first:cl.first+cl.n], k) {
					return fmt.Errorf("leaf %d does not list box %d %v %v, which meets it", ci, k, b.lo, b.hi)
				}
				*reached++
			}
		}
	}
	return nil
}

// splittable reports whether the leaf at (ix, iy, iz) of g could have been
// cut along some axis (the MinCellSize guard and flat extents).
func (p *Phase) splittable(g *grid, ix, iy, iz int32, split int) bool {
	minCell := p.opt.MinCellSize
	if minCell <= 0 {
		r := &p.st.grids[0]
		ext := 0.0
		for a := range 3 {
			if e := r.hi[a] - r.lo[a]; e > ext && !math.IsInf(e, 0) {
				ext = e
			}
		}
		minCell = ext * 0x1p-20
	}
	var child grid
	for a, i := range [3]int32{ix, iy, iz} {
		lo, hi := g.cellAxis(a, i)
		child.setAxis(a, lo, hi, int32(split), minCell)
	}
	return child.n[0]*child.n[1]*child.n[2] > 1
}
