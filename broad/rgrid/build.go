package rgrid

import "math"

// grid is one uniform grid of the hierarchy: the root, over the root box,
// or the children of one subdivided cell. Along each axis its n cells are
// separated by the n−1 interior boundaries bnd(a, 1..n−1), strictly
// increasing and strictly inside (lo, hi); cell i runs from boundary i to
// boundary i+1, where boundary 0 is lo and boundary n is hi, and holds the
// coordinates x with index(x) = i: the half-open interval, closed at hi for
// the last cell of the root (and of the last cells of last cells). Every
// static box lies in the root box, so the leaves partition the space where
// static boxes can be.
type grid struct {
	lo, hi [3]float64 // the grid's extent (its parent cell, or the root box)
	w, inv [3]float64 // cell width and its inverse (0 when n is 1)
	n      [3]int32   // cells per axis
	base   int32      // index of the grid's first cell in staticGrid.cells
	depth  int32      // levels below the root (the root is 0)
}

// setAxis lays n cells over [lo, hi] along axis a, or one when the extent
// is flat or infinite, the cells would be narrower than minCell, or the
// rounded boundaries would not be strictly increasing (cells of a few ulps:
// subdivision then stops, whatever the other guards say).
func (g *grid) setAxis(a int, lo, hi float64, n int32, minCell float64) {
	g.lo[a], g.hi[a] = lo, hi
	g.n[a], g.w[a], g.inv[a] = 1, 0, 0
	ext := hi - lo
	if n <= 1 || !(ext > 0) || math.IsInf(ext, 0) {
		return
	}
	w := ext / float64(n)
	if !(w > 0) || w < minCell {
		return
	}
	g.n[a], g.w[a], g.inv[a] = n, w, float64(n)/ext
	prev := lo
	for k := int32(1); k < n; k++ {
		b := g.bnd(a, k)
		if !(b > prev) {
			g.n[a], g.w[a], g.inv[a] = 1, 0, 0
			return
		}
		prev = b
	}
	if !(prev < hi) {
		g.n[a], g.w[a], g.inv[a] = 1, 0, 0
	}
}

// bnd returns interior boundary k of axis a, 0 < k < n: lo + k·w rounded
// (the product rounded on its own, never fused), clamped to [lo, hi]. It is
// monotone in k, and binning, queries and Check all use it.
func (g *grid) bnd(a int, k int32) float64 {
	b := g.lo[a] + float64(float64(k)*g.w[a])
	return min(b, g.hi[a])
}

// index returns the cell of coordinate x along axis a: the number of
// interior boundaries at most x. The floor of (x − lo)/w is a guess that
// the boundaries themselves correct, so that binning and queries agree on
// every x whatever the rounding. Coordinates outside the grid fall into its
// first or last cell; a NaN falls into the first.
func (g *grid) index(a int, x float64) int32 {
	n := g.n[a]
	if n == 1 {
		return 0
	}
	t := (x - g.lo[a]) * g.inv[a]
	var i int32
	switch {
	case !(t >= 0):
		i = 0
	case t >= float64(n-1):
		i = n - 1
	default:
		i = int32(t)
	}
	for i > 0 && x < g.bnd(a, i) {
		i--
	}
	for i < n-1 && x >= g.bnd(a, i+1) {
		i++
	}
	return i
}

// cellAxis returns the closed extent [lo, hi] of cell i along axis a.
func (g *grid) cellAxis(a int, i int32) (lo, hi float64) {
	lo, hi = g.lo[a], g.hi[a]
	if i > 0 {
		lo = g.bnd(a, i)
	}
	if i < g.n[a]-1 {
		hi = g.bnd(a, i+1)
	}
	return
}

// cellRange is a query's range of cells in one grid, inclusive.
type cellRange struct{ lo, hi [3]int32 }

func (g *grid) rangeOf(b *box3) cellRange {
	var r cellRange
	for a := range 3 {
		r.lo[a] = g.index(a, b.lo[a])
		r.hi[a] = g.index(a, b.hi[a])
	}
	return r
}

// cell is a cell of the grid. A leaf lists its boxes in
// staticGrid.items[first:first+n], those that contain the whole cell (nfull
// of them, the Full state) first; an inner cell has n = -1 and first is the
// index of its child grid.
type cell struct {
	first, n, nfull int32
}

// pending is a cell of the level being built, with its boxes in the level's
// item buffer.
type pending struct {
	cell, grid int32
	ix         [3]int32
	start, n   int32
}

// staticGrid is the recursive grid over the static objects, in flat arrays.
type staticGrid struct {
	ids    []int32 // object id of each static index
	box    []box3  // box of each static index
	bounds box3    // union of box
	grids  []grid
	cells  []cell
	items  []int32 // static indices
	// big holds the static boxes that reach more than bigStatic root
	// cells: they stay out of the grid, and every query tests them, so
	// that the grid's lists hold at most bigStatic entries a box at the
	// root (boxes stacked on each other, each across every cell, made
	// lists of N entries in N cells).
	big    []int32
	ents   []int32 // build: the boxes binned
	binned int     // build: the entries binned, at every level (Options.MaxItems)

	leaves  []int32 // LinearScan: every leaf cell
	leafBox []box3  // LinearScan: its closed extent

	stamp  []uint32 // per static index: the query object it was decided for
	sstamp []uint32 // per static index: the sphere it was tested with

	// build scratch, kept between builds
	cur, next           []pending
	curItems, nextItems []int32
	counts              []int32
}

// bigStatic is the number of root cells above which a static box is big:
// kept out of the grid, in a list every query tests.
const bigStatic = 64

// params returns the resolved build parameters for ns static objects.
func (p *Phase) params(ns int) (root, split, thr, maxDepth, maxCells, maxItems int) {
	o := &p.opt
	root = o.Root
	if root <= 0 {
		root = int(math.Round(math.Cbrt(float64(ns))))
		root = min(max(root, 1), 64)
	}
	split = o.Split
	if split <= 0 {
		split = 2
	}
	thr = o.Threshold
	if thr <= 0 {
		thr = 16
	}
	maxDepth = o.MaxDepth
	if maxDepth == 0 {
		maxDepth = 6
	}
	maxDepth = max(maxDepth, 0)
	maxCells = o.MaxCells
	if maxCells <= 0 {
		maxCells = max(1<<16, 64*ns)
	}
	maxItems = o.MaxItems
	if maxItems <= 0 {
		maxItems = max(1<<18, 64*ns)
	}
	return
}

// covers reports whether the closed box b contains the closed cell of
// extent lo, hi.
func covers(b *box3, lo, hi *[3]float64) bool {
	return b.lo[0] <= lo[0] && hi[0] <= b.hi[0] &&
		b.lo[1] <= lo[1] && hi[1] <= b.hi[1] &&
		b.lo[2] <= lo[2] && hi[2] <= b.hi[2]
}

// build makes the static grid from the present static objects.
func (p *Phase) build() {
	s := &p.st
	s.ids, s.box = s.ids[:0], s.box[:0]
	for id, f := range p.flag {
		if f&(fPresent|fStatic) == fPresent|fStatic {
			s.ids = append(s.ids, int32(id))
			s.box = append(s.box, p.box[id])
		}
	}
	ns := len(s.ids)
	s.stamp = resize(s.stamp, ns)
	s.sstamp = resize(s.sstamp, ns)
	s.grids, s.cells, s.items = s.grids[:0], s.cells[:0], s.items[:0]
	s.leaves, s.leafBox = s.leaves[:0], s.leafBox[:0]
	s.bounds = emptyBox3()
	st := &p.stats
	st.Builds++
	st.Cells, st.Leaves, st.Depth, st.Items, st.OverThreshold, st.FullCells, st.Root, st.Big = 0, 0, 0, 0, 0, 0, 0, 0
	s.big = s.big[:0]
	if ns == 0 {
		return
	}
	for k := range s.box {
		s.bounds.union(&s.box[k])
	}
	arith := s.bounds
	if b := p.opt.Bounds; b != nil && !b.IsEmpty() {
		ob := toBox3(*b)
		arith.union(&ob)
	}
	root, split, thr, maxDepth, maxCells, maxItems := p.params(ns)
	st.Root = root
	minCell := p.opt.MinCellSize
	if minCell <= 0 {
		ext := 0.0
		for a := range 3 {
			if e := arith.hi[a] - arith.lo[a]; e > ext && !math.IsInf(e, 0) {
				ext = e
			}
		}
		minCell = ext * 0x1p-20
	}

	// The root grid, its cells all empty leaves to begin with.
	var g grid
	for a := range 3 {
		g.setAxis(a, arith.lo[a], arith.hi[a], int32(root), 0)
	}
	s.grids = append(s.grids, g)
	nc := int(g.n[0] * g.n[1] * g.n[2])
	s.cells = append(s.cells, make([]cell, nc)...)

	// Bin every box but the big ones into the root cells it reaches.
	s.counts = resize(s.counts, nc+1)
	clear(s.counts)
	s.big, s.ents = s.big[:0], s.ents[:0]
	for k := range int32(len(s.box)) {
		r := g.rangeOf(&s.box[k])
		if n := int64(r.hi[0]-r.lo[0]+1) * int64(r.hi[1]-r.lo[1]+1) * int64(r.hi[2]-r.lo[2]+1); n > bigStatic {
			s.big = append(s.big, k)
			continue
		}
		s.ents = append(s.ents, k)
		forRange(&g, r, func(c int32) { s.counts[c+1]++ })
	}
	st.Big = len(s.big)
	s.binned = 0 // the root's entries, before binInto's prefix sums
	for _, c := range s.counts[1 : nc+1] {
		s.binned += int(c)
	}
	s.cur, s.curItems = s.cur[:0], s.curItems[:0]
	s.next, s.nextItems = s.next[:0], s.nextItems[:0]
	s.binInto(&g, 0, s.ents, nc)
	s.cur, s.next = s.next, s.cur
	s.curItems, s.nextItems = s.nextItems, s.curItems

	depth := 0
	for len(s.cur) > 0 {
		s.next, s.nextItems = s.next[:0], s.nextItems[:0]
		for _, pc := range s.cur {
			s.process(pc, depth, split, thr, maxDepth, maxCells, maxItems, minCell)
		}
		s.cur, s.next = s.next, s.cur
		s.curItems, s.nextItems = s.nextItems, s.curItems
		depth++
	}

	// Shape, and the leaf list of the linear scan.
	st.Cells = len(s.cells)
	st.Items = len(s.items)
	for gi := range s.grids {
		g := &s.grids[gi]
		st.Depth = max(st.Depth, int(g.depth))
		for iz := range g.n[2] {
			for iy := range g.n[1] {
				for ix := range g.n[0] {
					ci := g.base + (iz*g.n[1]+iy)*g.n[0] + ix
					c := s.cells[ci]
					if c.n < 0 {
						continue
					}
					st.Leaves++
					if int(c.n) > thr {
						st.OverThreshold++
					}
					if c.nfull > 0 {
						st.FullCells++
					}
					if p.opt.LinearScan {
						var b box3
						for a, i := range [3]int32{ix, iy, iz} {
							b.lo[a], b.hi[a] = g.cellAxis(a, i)
						}
						s.leaves = append(s.leaves, ci)
						s.leafBox = append(s.leafBox, b)
					}
				}
			}
		}
	}
}

// forRange calls f with the index of every cell of g in r.
func forRange(g *grid, r cellRange, f func(c int32)) {
	for z := r.lo[2]; z <= r.hi[2]; z++ {
		for y := r.lo[1]; y <= r.hi[1]; y++ {
			row := g.base + (z*g.n[1]+y)*g.n[0]
			for x := r.lo[0]; x <= r.hi[0]; x++ {
				f(row + x)
			}
		}
	}
}

// binInto fills the next level's item buffer from counts, which hold in
// counts[c+1] the number of boxes of each of the nc cells of g, and queues
// the non-empty cells. ents are the static indices to bin.
func (s *staticGrid) binInto(g *grid, gi int32, ents []int32, nc int) {
	queue, items := &s.next, &s.nextItems
	base0 := int32(len(*items))
	for c := range nc {
		s.counts[c+1] += s.counts[c]
	}
	*items = append(*items, make([]int32, s.counts[nc])...)
	fill := s.counts // fill[c] is the next free slot of cell c
	put := func(k int32) {
		r := g.rangeOf(&s.box[k])
		forRange(g, r, func(c int32) {
			c -= g.base
			(*items)[base0+fill[c]] = k
			fill[c]++
		})
	}
	for _, k := range ents {
		put(k)
	}
	// fill[c] is now the end of cell c, and fill[c-1] its start.
	start := int32(0)
	for c := range int32(nc) {
		end := fill[c]
		if end > start {
			nx, ny := g.n[0], g.n[1]
			*queue = append(*queue, pending{
				cell: g.base + c, grid: gi,
				ix:    [3]int32{c % nx, c / nx % ny, c / (nx * ny)},
				start: base0 + start, n: end - start,
			})
		}
		start = end
	}
}

// process makes the pending cell pc, at depth, a leaf or subdivides it.
func (s *staticGrid) process(pc pending, depth, split, thr, maxDepth, maxCells, maxItems int, minCell float64) {
	g := s.grids[pc.grid]
	var lo, hi [3]float64
	for a := range 3 {
		lo[a], hi[a] = g.cellAxis(a, pc.ix[a])
	}
	ents := s.curItems[pc.start : pc.start+pc.n]
	nfull := 0
	for i, k := range ents {
		if covers(&s.box[k], &lo, &hi) {
			ents[i], ents[nfull] = ents[nfull], ents[i]
			nfull++
		}
	}
	if len(ents) > thr && nfull <= thr && depth < maxDepth {
		child := grid{depth: g.depth + 1}
		for a := range 3 {
			child.setAxis(a, lo[a], hi[a], int32(split), minCell)
		}
		nc := int(child.n[0] * child.n[1] * child.n[2])
		if nc > 1 && len(s.cells)+nc <= maxCells {
			child.base = int32(len(s.cells))
			s.counts = resize(s.counts, nc+1)
			clear(s.counts[:nc+1])
			total := 0
			for _, k := range ents {
				forRange(&child, child.rangeOf(&s.box[k]), func(c int32) { s.counts[c-child.base+1]++; total++ })
			}
			if s.binned+total <= maxItems {
				gi := int32(len(s.grids))
				s.grids = append(s.grids, child)
				s.cells = append(s.cells, make([]cell, nc)...)
				s.cells[pc.cell] = cell{first: gi, n: -1}
				s.binned += total
				s.binInto(&child, gi, ents, nc)
				return
			}
		}
	}
	first := int32(len(s.items))
	s.items = append(s.items, ents...)
	s.cells[pc.cell] = cell{first: first, n: int32(len(ents)), nfull: int32(nfull)}
}

// resize returns s with length n, reusing its storage when it can.
func resize[T any](s []T, n int) []T {
	if cap(s) >= n {
		return s[:n]
	}
	return make([]T, n)
}
