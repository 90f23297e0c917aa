package sap

import (
	"slices"

	"github.com/collide3d/collide/broad"
	"github.com/collide3d/collide/geom"
)

// entry is one object in the sorted array: its box, with the sort axis
// first, and its id and flags, in one cache-friendly record.
type entry struct {
	lo, hi     float64 // the box on the sort axis
	min1, max1 float64 // on the second axis
	min2, max2 float64 // on the third axis
	id         int32
	f          uint32
}

// Entry flags.
const (
	fPending = 1 << iota // added or moved since the last Pairs
	fStatic
	fWide // wider than Phase.w on the sort axis: in Phase.wide
	fDead // removed; dropped at the next compaction
)

// Per-id state flags.
const (
	sPresent = 1 << iota
	sStatic
	sTouched // in Phase.touched
)

// ArrayPhase is the single-axis array sweep and prune.
type ArrayPhase struct {
	box     []geom.AABB
	state   []uint8
	pos     []int32 // index of the id's entry in ent, -1 if none
	touched []int32
	n       int

	ent    []entry // sorted by lo up to nsorted, then new entries
	axis   int
	w, wb  float64 // the width bound of non-wide entries, and w with a margin
	meanW  float64
	wide   []int32 // ids of the wide entries
	wide0  int     // len(wide) after the last rebuild
	ndead  int
	sorted int
	tmp    []entry
	widths []float64
}

// NewArray returns an empty array sweep and prune.
func NewArray() *ArrayPhase { return &ArrayPhase{} }

func (p *ArrayPhase) grow(id int32) {
	if id < 0 {
		panic("sap: negative object id")
	}
	for int(id) >= len(p.box) {
		p.box = append(p.box, geom.AABB{})
		p.state = append(p.state, 0)
		p.pos = append(p.pos, -1)
	}
}

func (p *ArrayPhase) touch(id int32) {
	if p.state[id]&sTouched == 0 {
		p.state[id] |= sTouched
		p.touched = append(p.touched, id)
	}
}

// Add implements broad.Phase.
func (p *ArrayPhase) Add(id int32, b geom.AABB, static bool) {
	p.grow(id)
	if p.state[id]&sPresent == 0 {
		p.n++
	}
	p.box[id] = b
	s := p.state[id]&sTouched | sPresent
	if static {
		s |= sStatic
	}
	p.state[id] = s
	p.touch(id)
}

// Move implements broad.Phase.
func (p *ArrayPhase) Move(id int32, b geom.AABB) {
	if id < 0 || int(id) >= len(p.state) || p.state[id]&sPresent == 0 {
		panic("sap: Move of an absent object")
	}
	p.box[id] = b
	p.state[id] &^= sStatic
	p.touch(id)
}

// Remove implements broad.Phase.
func (p *ArrayPhase) Remove(id int32) {
	if id < 0 || int(id) >= len(p.state) || p.state[id]&sPresent == 0 {
		return
	}
	p.n--
	p.state[id] &^= sPresent | sStatic
	p.touch(id)
}

// Len implements broad.Phase.
func (p *ArrayPhase) Len() int { return p.n }

func (p *ArrayPhase) makeEntry(id int32) entry {
	b := &p.box[id]
	f := uint32(fPending)
	if p.state[id]&sStatic != 0 {
		f |= fStatic
	}
	switch p.axis {
	case 0:
		return entry{b.Min.X, b.Max.X, b.Min.Y, b.Max.Y, b.Min.Z, b.Max.Z, id, f}
	case 1:
		return entry{b.Min.Y, b.Max.Y, b.Min.X, b.Max.X, b.Min.Z, b.Max.Z, id, f}
	default:
		return entry{b.Min.Z, b.Max.Z, b.Min.X, b.Max.X, b.Min.Y, b.Max.Y, id, f}
	}
}

// Pairs implements broad.Phase.
func (p *ArrayPhase) Pairs(fn func(a, b int32) bool) {
	p.update()
	defer p.clear()
	p.sweep(fn)
}

func (p *ArrayPhase) clear() {
	for _, id := range p.touched {
		p.state[id] &^= sTouched
		if k := p.pos[id]; k >= 0 {
			p.ent[k].f &^= fPending
		}
	}
	p.touched = p.touched[:0]
}

func (p *ArrayPhase) update() {
	nadd := 0
	for _, id := range p.touched {
		k := p.pos[id]
		if p.state[id]&sPresent == 0 {
			if k >= 0 {
				p.ent[k].f |= fDead
				p.pos[id] = -1
				p.ndead++
			}
			continue
		}
		e := p.makeEntry(id)
		if k >= 0 {
			e.f |= p.ent[k].f & fWide
			p.ent[k] = e
			continue
		}
		p.pos[id] = int32(len(p.ent))
		p.ent = append(p.ent, e)
		nadd++
	}
	if p.ndead > 0 {
		p.compact()
	}
	if nadd > p.sorted/4 || len(p.wide) > 2*p.wide0+64 {
		p.rebuild()
		return
	}
	p.fixWide()
	if !p.insertionSort(p.ent[:p.sorted], 8*len(p.ent)+1024) {
		p.rebuild()
		return
	}
	if nadd > 0 {
		p.merge()
	}
}

// compact drops the dead entries, keeping the order.
func (p *ArrayPhase) compact() {
	j := 0
	ns := 0
	for i := range p.ent {
		e := &p.ent[i]
		if e.f&fDead != 0 {
			if i < p.sorted {
				ns++
			}
			continue
		}
		if j != i {
			p.ent[j] = *e
			p.pos[e.id] = int32(j)
		}
		j++
	}
	p.ent = p.ent[:j]
	p.sorted -= ns
	p.ndead = 0
	// Wide entries that died leave the list.
	w := p.wide[:0]
	for _, id := range p.wide {
		if k := p.pos[id]; k >= 0 && p.ent[k].f&fWide != 0 {
			w = append(w, id)
		}
	}
	p.wide = w
}

// fixWide keeps the wide flags and list in step with the refreshed entries.
func (p *ArrayPhase) fixWide() {
	for _, id := range p.touched {
		k := p.pos[id]
		if k < 0 || int(k) >= p.sorted {
			continue
		}
		e := &p.ent[k]
		wide := !(e.hi-e.lo <= p.w)
		if wide == (e.f&fWide != 0) {
			continue
		}
		if wide {
			e.f |= fWide
			p.wide = append(p.wide, id)
		} else {
			e.f &^= fWide
			i := slices.Index(p.wide, id)
			p.wide = slices.Delete(p.wide, i, i+1)
		}
	}
}

// insertionSort sorts s by lo, keeping pos, and reports false if it gave
// up after budget shifts.
func (p *ArrayPhase) insertionSort(s []entry, budget int) bool {
	for i := 1; i < len(s); i++ {
		if s[i-1].lo <= s[i].lo {
			continue
		}
		e := s[i]
		j := i
		for j > 0 && s[j-1].lo > e.lo {
			s[j] = s[j-1]
			p.pos[s[j].id] = int32(j)
			j--
		}
		s[j] = e
		p.pos[e.id] = int32(j)
		budget -= i - j
		if budget < 0 {
			return false
		}
	}
	return true
}

// merge sorts the new entries and merges them into the sorted ones.
func (p *ArrayPhase) merge() {
	n := len(p.ent)
	add := p.ent[p.sorted:]
	slices.SortFunc(add, func(a, b entry) int {
		switch {
		case a.lo < b.lo:
			return -1
		case a.lo > b.lo:
			return 1
		}
		return 0
	})
	p.tmp = append(p.tmp[:0], add...)
	i, j, k := p.sorted-1, len(p.tmp)-1, n-1
	for j >= 0 {
		if i >= 0 && p.ent[i].lo > p.tmp[j].lo {
			p.ent[k] = p.ent[i]
			i--
		} else {
			p.ent[k] = p.tmp[j]
			j--
		}
		p.pos[p.ent[k].id] = int32(k)
		k--
	}
	p.sorted = n
	for _, e := range p.tmp {
		if !(e.hi-e.lo <= p.w) {
			p.ent[p.pos[e.id]].f |= fWide
			p.wide = append(p.wide, e.id)
		}
	}
}

// rebuild chooses the axis and the width bound and sorts every entry.
func (p *ArrayPhase) rebuild() {
	// The axis: the one along which the boxes are narrowest compared with
	// the spread of their centres, so that a sweep meets the fewest.
	var sw, sc, sc2 [3]float64
	cnt := 0
	for _, e := range p.ent {
		b := &p.box[e.id]
		s := b.Size()
		c := b.Center()
		for a, v := range [3]float64{s.X, s.Y, s.Z} {
			if v < 1e300 {
				sw[a] += v
			}
		}
		for a, v := range [3]float64{c.X, c.Y, c.Z} {
			if v > -1e300 && v < 1e300 {
				sc[a] += v
				sc2[a] += v * v
			}
		}
		cnt++
	}
	best, bestScore := 0, 0.0
	for a := range 3 {
		if cnt == 0 {
			break
		}
		m := sc[a] / float64(cnt)
		v := sc2[a]/float64(cnt) - m*m
		score := sw[a] * sw[a] / (v + 1e-300)
		if a == 0 || score < bestScore {
			best, bestScore = a, score
		}
	}
	p.axis = best
	p.widths = p.widths[:0]
	for i := range p.ent {
		e := p.makeEntry(p.ent[i].id)
		e.f = p.ent[i].f &^ fWide
		p.ent[i] = e
		p.widths = append(p.widths, e.hi-e.lo)
	}
	p.chooseW()
	p.wide = p.wide[:0]
	for i := range p.ent {
		e := &p.ent[i]
		if !(e.hi-e.lo <= p.w) {
			e.f |= fWide
			p.wide = append(p.wide, e.id)
		}
	}
	slices.SortFunc(p.ent, func(a, b entry) int {
		switch {
		case a.lo < b.lo:
			return -1
		case a.lo > b.lo:
			return 1
		}
		return 0
	})
	for i, e := range p.ent {
		p.pos[e.id] = int32(i)
	}
	p.sorted = len(p.ent)
	p.wide0 = len(p.wide)
}

// chooseW sets the width bound: twice the 90th percentile of the widths,
// raised so that at most 32 entries are wider.
func (p *ArrayPhase) chooseW() {
	ws := p.widths
	if len(ws) == 0 {
		p.w, p.wb, p.meanW = 0, 0, 0
		return
	}
	slices.SortFunc(ws, func(a, b float64) int {
		// NaN (inf - inf) sorts last.
		switch {
		case a < b:
			return -1
		case a > b:
			return 1
		case a == b:
			return 0
		case a != a:
			if b != b {
				return 0
			}
			return 1
		}
		return -1
	})
	w := 2 * ws[len(ws)*9/10]
	if k := len(ws) - 1 - 32; k >= 0 && ws[k] > w {
		w = ws[k]
	}
	if !(w < 1e300) {
		w = 1e300
	}
	sum := 0.0
	for _, v := range ws {
		if v <= w {
			sum += v
		}
	}
	p.w = w
	p.wb = w * (1 + 1e-9)
	p.meanW = sum / float64(len(ws))
}

// sweep reports the pairs.
func (p *ArrayPhase) sweep(fn func(a, b int32) bool) {
	n := len(p.ent)
	m := 0
	for _, id := range p.touched {
		if p.pos[id] >= 0 {
			m++
		}
	}
	if m == 0 {
		return
	}
	// A full sweep costs n forward scans; a sweep of the moved ones alone
	// costs m forward scans, m backward scans of length w and m passes over
	// the wide list.
	if float64(m)*(p.meanW+p.wb+float64(len(p.wide))*p.meanW/8) >= float64(n)*p.meanW {
		p.sweepAll(fn)
		return
	}
	p.sweepMoved(fn)
}

func pairOK(fa, fb uint32) bool {
	return (fa|fb)&fPending != 0 && fa&fb&fStatic == 0
}

func (p *ArrayPhase) report(fn func(a, b int32) bool, a, b int32) bool {
	if a < b {
		return fn(a, b)
	}
	return fn(b, a)
}

func (p *ArrayPhase) sweepAll(fn func(a, b int32) bool) {
	ent := p.ent
	for i := range ent {
		a := &ent[i]
		hi := a.hi
		for j := i + 1; j < len(ent) && ent[j].lo <= hi; j++ {
			b := &ent[j]
			if max(a.min1, b.min1) <= min(a.max1, b.max1) && max(a.min2, b.min2) <= min(a.max2, b.max2) && pairOK(a.f, b.f) {
				if !p.report(fn, a.id, b.id) {
					return
				}
			}
		}
	}
}

func (p *ArrayPhase) sweepMoved(fn func(a, b int32) bool) {
	ent := p.ent
	for _, id := range p.touched {
		i := int(p.pos[id])
		if i < 0 {
			continue
		}
		a := &ent[i]
		hi := a.hi
		// Forward: every entry after a that starts before a ends.
		for j := i + 1; j < len(ent) && ent[j].lo <= hi; j++ {
			b := &ent[j]
			if max(a.min1, b.min1) <= min(a.max1, b.max1) && max(a.min2, b.min2) <= min(a.max2, b.max2) && pairOK(a.f, b.f) {
				if !p.report(fn, a.id, b.id) {
					return
				}
			}
		}
		// Backward: the entries before a that end after a starts and did
		// not move (a moved one found a in its forward scan). A non-wide
		// entry is at most w long, so they start after a.lo - wb: the
		// float subtraction is monotone, so no such entry is missed.
		lo := a.lo
		t := lo - p.wb
		for j := i - 1; j >= 0 && ent[j].lo >= t; j-- {
			b := &ent[j]
			if b.f&(fPending|fWide) == 0 && b.hi >= lo && a.min1 <= b.max1 && b.min1 <= a.max1 && a.min2 <= b.max2 && b.min2 <= a.max2 && a.f&b.f&fStatic == 0 {
				if !p.report(fn, a.id, b.id) {
					return
				}
			}
		}
		for _, wid := range p.wide {
			j := int(p.pos[wid])
			if j >= i {
				continue
			}
			b := &ent[j]
			if b.f&fPending == 0 && b.hi >= lo && a.min1 <= b.max1 && b.min1 <= a.max1 && a.min2 <= b.max2 && b.min2 <= a.max2 && a.f&b.f&fStatic == 0 {
				if !p.report(fn, a.id, b.id) {
					return
				}
			}
		}
	}
}

var _ broad.Phase = (*ArrayPhase)(nil)
