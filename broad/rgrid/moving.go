package rgrid

import (
	"math"
	"slices"
)

// The moving objects' grid (beyond the paper). A single uniform grid, laid
// over the moving objects at its last rebuild, holds each in the cells its
// box reached then ("main", compressed rows). An object that moves keeps
// its place while its new box reaches no other cell and stays inside the
// grid's box; otherwise it goes to the overflow list, binned afresh at each
// Pairs with the same cells, and the main grid is rebuilt when the overflow
// or the stale entries grow past a fraction of it. Objects whose boxes
// reach more than bigCells cells are kept in a list of their own and tested
// against every query. Cell indices are clamped floors of (x − org)/w,
// monotone in x, so a box's range holds the cell of each of its points and
// two boxes that share a point share a cell: no pair is lost, whatever the
// rounding and wherever the objects go.
type movingGrid struct {
	org, inv [3]float64
	n        [3]int32
	box      box3 // the grid's box when built (an object outside it leaves main)

	start []int32 // main: cell c lists list[start[c]:start[c+1]]
	list  []int32
	rng   []irange // per id: the range it was binned at in main

	over   []int32 // ids whose home is hOver (may hold stale ids)
	ostart []int32 // overflow binned like main, when it is long
	olist  []int32
	obin   bool // overflow binned (else scanned)
	big    []int32

	mainN int // objects binned in main at the last rebuild
	stale int // main entries whose object has left since
	built bool

	// rebuild scratch
	sample []float64
	counts []int32
}

// irange is a range of cells of the moving grid, inclusive.
type irange struct{ lo, hi [3]int32 }

const (
	bigCells     = 64 // an object reaching more cells is kept in the big list
	overScanMax  = 32 // an overflow list this short is scanned, not binned
	rebuildSlack = 32
)

func (m *movingGrid) index(a int, x float64) int32 {
	n := m.n[a]
	if n == 1 {
		return 0
	}
	t := (x - m.org[a]) * m.inv[a]
	switch {
	case !(t >= 0):
		return 0
	case t >= float64(n-1):
		return n - 1
	}
	return int32(t)
}

func (m *movingGrid) rangeOf(b *box3) irange {
	var r irange
	for a := range 3 {
		r.lo[a] = m.index(a, b.lo[a])
		r.hi[a] = m.index(a, b.hi[a])
	}
	return r
}

func (r *irange) cells() int64 {
	return int64(r.hi[0]-r.lo[0]+1) * int64(r.hi[1]-r.lo[1]+1) * int64(r.hi[2]-r.lo[2]+1)
}

func (r *irange) within(o *irange) bool {
	return o.lo[0] <= r.lo[0] && r.hi[0] <= o.hi[0] &&
		o.lo[1] <= r.lo[1] && r.hi[1] <= o.hi[1] &&
		o.lo[2] <= r.lo[2] && r.hi[2] <= o.hi[2]
}

func (b *box3) within(o *box3) bool {
	return o.lo[0] <= b.lo[0] && b.hi[0] <= o.hi[0] &&
		o.lo[1] <= b.lo[1] && b.hi[1] <= o.hi[1] &&
		o.lo[2] <= b.lo[2] && b.hi[2] <= o.hi[2]
}

// updateMoving finds the home of every moving object that changed, then
// rebuilds the main grid or bins the overflow.
func (p *Phase) updateMoving() {
	m := &p.mv
	if !m.built {
		p.rebuildMoving()
		return
	}
	for _, a := range p.changed {
		if p.flag[a]&(fPresent|fStatic) != fPresent {
			continue
		}
		r := m.rangeOf(&p.box[a])
		if p.home[a] == hMain {
			if r.within(&m.rng[a]) && p.box[a].within(&m.box) {
				continue
			}
			m.stale++
		}
		if r.cells() > bigCells {
			p.home[a] = hBig
			if p.flag[a]&fInBig == 0 {
				p.flag[a] |= fInBig
				m.big = append(m.big, a)
			}
			continue
		}
		p.home[a] = hOver
		if p.flag[a]&fInOver == 0 {
			p.flag[a] |= fInOver
			m.over = append(m.over, a)
		}
	}
	// Drop the stale ids of the two lists.
	m.big = p.compact(m.big, hBig, fInBig)
	m.over = p.compact(m.over, hOver, fInOver)
	if len(m.over) > rebuildSlack+m.mainN/4 || m.stale > rebuildSlack+m.mainN/2 {
		p.rebuildMoving()
		return
	}
	p.binOverflow()
}

// compact keeps the ids of list whose home is h and clears inFlag of the
// others.
func (p *Phase) compact(list []int32, h, inFlag uint8) []int32 {
	out := list[:0]
	for _, id := range list {
		if p.home[id] == h && p.flag[id]&(fPresent|fStatic) == fPresent {
			out = append(out, id)
		} else {
			p.flag[id] &^= inFlag
			if p.home[id] == h {
				p.home[id] = hNone
			}
		}
	}
	return out
}

// rebuildMoving lays a new grid over the moving objects and bins them all.
func (p *Phase) rebuildMoving() {
	m := &p.mv
	p.stats.MovingRebuilds++
	m.built = true
	for _, id := range m.over {
		p.flag[id] &^= fInOver
	}
	for _, id := range m.big {
		p.flag[id] &^= fInBig
	}
	m.over, m.big = m.over[:0], m.big[:0]
	m.stale, m.mainN = 0, 0
	m.obin = false

	// The cell size: twice the median of the objects' largest extents
	// (from a sample of at most 1024), so that an object reaches a few
	// cells; the grid's box: the union of the boxes not much larger than
	// that.
	nm := 0
	for id, f := range p.flag {
		if f&(fPresent|fStatic) == fPresent {
			nm++
		} else {
			p.home[id] = hNone
		}
	}
	step := max(1, nm/1024)
	m.sample = m.sample[:0]
	i := 0
	for id, f := range p.flag {
		if f&(fPresent|fStatic) != fPresent {
			continue
		}
		if i%step == 0 {
			b := &p.box[id]
			e := max(b.hi[0]-b.lo[0], b.hi[1]-b.lo[1], b.hi[2]-b.lo[2])
			if e >= 0 && !math.IsInf(e, 0) {
				m.sample = append(m.sample, e)
			}
		}
		i++
	}
	h := 0.0
	if len(m.sample) > 0 {
		slices.Sort(m.sample)
		h = 2 * m.sample[len(m.sample)/2]
	}
	bb := emptyBox3()
	for id, f := range p.flag {
		if f&(fPresent|fStatic) != fPresent {
			continue
		}
		b := &p.box[id]
		e := max(b.hi[0]-b.lo[0], b.hi[1]-b.lo[1], b.hi[2]-b.lo[2])
		if e <= 8*h || h == 0 {
			bb.union(b)
		}
	}
	m.box = bb
	ext := [3]float64{}
	for a := range 3 {
		if e := bb.hi[a] - bb.lo[a]; e > 0 && !math.IsInf(e, 0) {
			ext[a] = e
		}
	}
	if !(h > 0) || math.IsInf(h, 0) {
		// Points, or nothing finite: about one object per cell.
		h = max(ext[0], ext[1], ext[2]) / max(1, math.Cbrt(float64(nm)))
	}
	maxCells := float64(2*nm + 8)
	var dims [3]float64
	for {
		total := 1.0
		for a := range 3 {
			dims[a] = 1
			if ext[a] > 0 && h > 0 {
				dims[a] = min(math.Ceil(ext[a]/h), 1<<20)
			}
			total *= dims[a]
		}
		if total <= maxCells {
			break
		}
		h *= math.Cbrt(total / maxCells * 1.01)
	}
	for a := range 3 {
		m.n[a] = int32(dims[a])
		m.org[a] = bb.lo[a]
		m.inv[a] = 0
		if m.n[a] > 1 {
			m.inv[a] = dims[a] / ext[a]
		}
		if math.IsInf(m.org[a], 0) || math.IsNaN(m.org[a]) {
			m.n[a], m.org[a], m.inv[a] = 1, 0, 0
		}
	}
	nc := int(m.n[0] * m.n[1] * m.n[2])

	// Bin.
	m.counts = resize(m.counts, nc+1)
	clear(m.counts)
	for id, f := range p.flag {
		if f&(fPresent|fStatic) != fPresent {
			continue
		}
		r := m.rangeOf(&p.box[id])
		if r.cells() > bigCells {
			p.home[id] = hBig
			p.flag[id] |= fInBig
			m.big = append(m.big, int32(id))
			continue
		}
		p.home[id] = hMain
		m.rng[id] = r
		m.mainN++
		m.forRange(r, func(c int32) { m.counts[c+1]++ })
	}
	for c := range nc {
		m.counts[c+1] += m.counts[c]
	}
	m.start = resize(m.start, nc+1)
	copy(m.start, m.counts)
	m.list = resize(m.list, int(m.counts[nc]))
	for id := range p.flag {
		if p.home[id] != hMain {
			continue
		}
		m.forRange(m.rng[id], func(c int32) {
			m.list[m.counts[c]] = int32(id)
			m.counts[c]++
		})
	}
}

func (m *movingGrid) forRange(r irange, f func(c int32)) {
	for z := r.lo[2]; z <= r.hi[2]; z++ {
		for y := r.lo[1]; y <= r.hi[1]; y++ {
			row := (z*m.n[1] + y) * m.n[0]
			for x := r.lo[0]; x <= r.hi[0]; x++ {
				f(row + x)
			}
		}
	}
}

// binOverflow bins the overflow list into the main grid's cells when it is
// too long to scan.
func (p *Phase) binOverflow() {
	m := &p.mv
	m.obin = len(m.over) > overScanMax
	if !m.obin {
		return
	}
	nc := int(m.n[0] * m.n[1] * m.n[2])
	m.counts = resize(m.counts, nc+1)
	clear(m.counts)
	for _, id := range m.over {
		m.forRange(m.rangeOf(&p.box[id]), func(c int32) { m.counts[c+1]++ })
	}
	for c := range nc {
		m.counts[c+1] += m.counts[c]
	}
	m.ostart = resize(m.ostart, nc+1)
	copy(m.ostart, m.counts)
	m.olist = resize(m.olist, int(m.counts[nc]))
	for _, id := range m.over {
		m.forRange(m.rangeOf(&p.box[id]), func(c int32) {
			m.olist[m.counts[c]] = id
			m.counts[c]++
		})
	}
}

// queryMoving reports the pairs of object a, of box q, with the moving
// objects. When a moved (moving), a pair with another moved object is
// reported from the lower id only; when a is a new static object, pairs
// with moved objects are left to their own queries of the static grid.
func (p *Phase) queryMoving(a int32, q *box3, moving bool) bool {
	m := &p.mv
	if !m.built {
		return true
	}
	r := m.rangeOf(q)
	for z := r.lo[2]; z <= r.hi[2]; z++ {
		for y := r.lo[1]; y <= r.hi[1]; y++ {
			row := (z*m.n[1] + y) * m.n[0]
			for x := r.lo[0]; x <= r.hi[0]; x++ {
				c := row + x
				for _, b := range m.list[m.start[c]:m.start[c+1]] {
					if !p.movingCand(a, b, q, moving, hMain) {
						return false
					}
				}
				if m.obin {
					for _, b := range m.olist[m.ostart[c]:m.ostart[c+1]] {
						if !p.movingCand(a, b, q, moving, hOver) {
							return false
						}
					}
				}
			}
		}
	}
	if !m.obin {
		for _, b := range m.over {
			if !p.movingCand(a, b, q, moving, hOver) {
				return false
			}
		}
	}
	for _, b := range m.big {
		if !p.movingCand(a, b, q, moving, hBig) {
			return false
		}
	}
	return true
}

// movingCand tests the candidate b, found in the structure of home h.
func (p *Phase) movingCand(a, b int32, q *box3, moving bool, h uint8) bool {
	if p.home[b] != h || b == a {
		return true // a stale entry, or a itself
	}
	if p.mstamp[b] == p.q {
		return true
	}
	p.mstamp[b] = p.q
	f := p.flag[b]
	if f&(fPresent|fStatic) != fPresent {
		return true
	}
	if f&fMoved != 0 && (!moving || b < a) {
		return true
	}
	p.stats.MovingBoxTests++
	if !q.overlaps(&p.box[b]) || !p.sphOK(a, &p.box[b]) || !p.sphOK(b, q) {
		return true
	}
	if moving {
		p.stats.MovingPairs++
	} else {
		p.stats.StaticPairs++
	}
	return p.emit(a, b)
}
