package sap

import (
	"cmp"
	"math/bits"
	"slices"

	"github.com/collide3d/collide/broad"
	"github.com/collide3d/collide/geom"
)

// endpoint is one end of an object's interval on one axis.
type endpoint struct {
	v float64
	x uint32 // id<<1 | 1 for a max
}

// less orders endpoints by value, mins before maxes at equal values, so
// that touching intervals overlap in the order as they do as closed sets.
func less(a, b endpoint) bool {
	return a.v < b.v || a.v == b.v && a.x&1 < b.x&1
}

func cmpEndpoint(a, b endpoint) int {
	return cmp.Or(cmp.Compare(a.v, b.v), cmp.Compare(a.x&1, b.x&1))
}

type box6 struct{ lo, hi [3]float64 }

const (
	s3Present = 1 << iota
	s3Static
	s3Touched
	s3In     // endpoints in the arrays
	s3Moved  // in the arrays and moved this round
	s3Added  // added this round
	s3Remove // to leave the arrays this round
)

// Axis3 is the classic three-axis sweep and prune with a pair set.
type Axis3 struct {
	box     []geom.AABB
	cur     []box6 // the box the arrays are sorted by
	state   []uint8
	touched []int32
	n       int
	ep      [3][]endpoint
	pairs   pairSet
	added   []int32
	tmp     []endpoint
	lohi    []entry
	budget  int // swaps allowed before a rebuild is cheaper
}

// NewAxis3 returns an empty three-axis sweep and prune.
func NewAxis3() *Axis3 { return &Axis3{} }

func (p *Axis3) grow(id int32) {
	if id < 0 {
		panic("sap: negative object id")
	}
	for int(id) >= len(p.box) {
		p.box = append(p.box, geom.AABB{})
		p.cur = append(p.cur, box6{})
		p.state = append(p.state, 0)
	}
}

func (p *Axis3) touch(id int32) {
	if p.state[id]&s3Touched == 0 {
		p.state[id] |= s3Touched
		p.touched = append(p.touched, id)
	}
}

// Add implements broad.Phase.
func (p *Axis3) Add(id int32, b geom.AABB, static bool) {
	p.grow(id)
	if p.state[id]&s3Present == 0 {
		p.n++
	}
	p.box[id] = b
	s := p.state[id]&(s3Touched|s3In) | s3Present
	if static {
		s |= s3Static
	}
	p.state[id] = s
	p.touch(id)
}

// Move implements broad.Phase.
func (p *Axis3) Move(id int32, b geom.AABB) {
	if id < 0 || int(id) >= len(p.state) || p.state[id]&s3Present == 0 {
		panic("sap: Move of an absent object")
	}
	p.box[id] = b
	p.state[id] &^= s3Static
	p.touch(id)
}

// Remove implements broad.Phase.
func (p *Axis3) Remove(id int32) {
	if id < 0 || int(id) >= len(p.state) || p.state[id]&s3Present == 0 {
		return
	}
	p.n--
	p.state[id] &^= s3Present | s3Static
	p.touch(id)
}

// Len implements broad.Phase.
func (p *Axis3) Len() int { return p.n }

func toBox6(b *geom.AABB) box6 {
	return box6{[3]float64{b.Min.X, b.Min.Y, b.Min.Z}, [3]float64{b.Max.X, b.Max.Y, b.Max.Z}}
}

// Pairs implements broad.Phase.
func (p *Axis3) Pairs(fn func(a, b int32) bool) {
	defer p.clear()
	if p.update() {
		p.rebuild()
	}
	p.report(fn)
}

func (p *Axis3) clear() {
	for _, id := range p.touched {
		p.state[id] &^= s3Touched | s3Moved | s3Added | s3Remove
	}
	p.touched = p.touched[:0]
}

func (p *Axis3) report(fn func(a, b int32) bool) {
	for _, k := range p.pairs.list {
		a, b := int32(k>>32), int32(uint32(k))
		sa, sb := p.state[a], p.state[b]
		if (sa|sb)&s3Touched != 0 && sa&sb&s3Static == 0 {
			if !fn(a, b) {
				return
			}
		}
	}
}

// update applies the round's changes incrementally; it reports true when
// a rebuild is cheaper or needed.
func (p *Axis3) update() bool {
	nrem, nmov := 0, 0
	p.added = p.added[:0]
	for _, id := range p.touched {
		s := p.state[id]
		switch {
		case s&s3Present == 0:
			if s&s3In != 0 {
				p.state[id] = s&^s3In | s3Remove
				nrem++
			}
		case s&s3In != 0:
			p.state[id] |= s3Moved
			nmov++
		default:
			p.state[id] |= s3Added
			p.added = append(p.added, id)
		}
	}
	nin := len(p.ep[0])/2 - nrem
	if len(p.added) > nin/8 {
		return true
	}
	if nrem > 0 {
		for a := range 3 {
			s := p.ep[a][:0]
			for _, e := range p.ep[a] {
				if p.state[e.x>>1]&s3Remove == 0 {
					s = append(s, e)
				}
			}
			p.ep[a] = s
		}
		p.pairs.filter(func(a, b int32) bool { return (p.state[a]|p.state[b])&s3Remove == 0 })
	}
	if nmov > 0 {
		budget := p.budget
		for a := range 3 {
			s := p.ep[a]
			for i := range s {
				id := s[i].x >> 1
				if p.state[id]&s3Moved != 0 {
					if s[i].x&1 == 0 {
						s[i].v = p.boxLo(id, a)
					} else {
						s[i].v = p.boxHi(id, a)
					}
				}
			}
			for _, id := range p.touched {
				if p.state[id]&s3Moved != 0 {
					c := &p.cur[id]
					c.lo[a], c.hi[a] = p.boxLo(uint32(id), a), p.boxHi(uint32(id), a)
				}
			}
			budget = p.sortAxis(a, budget)
			if budget < 0 {
				return true
			}
		}
	}
	if len(p.added) > 0 {
		p.insert()
	}
	return false
}

func (p *Axis3) boxLo(id uint32, a int) float64 {
	b := &p.box[id]
	switch a {
	case 0:
		return b.Min.X
	case 1:
		return b.Min.Y
	}
	return b.Min.Z
}

func (p *Axis3) boxHi(id uint32, a int) float64 {
	b := &p.box[id]
	switch a {
	case 0:
		return b.Max.X
	case 1:
		return b.Max.Y
	}
	return b.Max.Z
}

// overlap2 reports whether x and y overlap on the two axes other than a.
func (p *Axis3) overlap2(a int, x, y uint32) bool {
	bx, by := &p.cur[x], &p.cur[y]
	b, c := (a+1)%3, (a+2)%3
	return bx.lo[b] <= by.hi[b] && by.lo[b] <= bx.hi[b] && bx.lo[c] <= by.hi[c] && by.lo[c] <= bx.hi[c]
}

func pairKey(a, b uint32) uint64 {
	if a > b {
		a, b = b, a
	}
	return uint64(a)<<32 | uint64(b)
}

// sortAxis re-sorts axis a by insertion, updating the pair set at every
// swap of a min and a max, and returns the budget left (negative: gave up).
func (p *Axis3) sortAxis(a int, budget int) int {
	s := p.ep[a]
	for i := 1; i < len(s); i++ {
		e := s[i]
		if !less(e, s[i-1]) {
			continue
		}
		j := i
		eid := e.x >> 1
		if e.x&1 == 0 {
			for j > 0 && less(e, s[j-1]) {
				f := s[j-1]
				if f.x&1 != 0 && p.overlap2(a, eid, f.x>>1) {
					p.pairs.add(pairKey(eid, f.x>>1))
				}
				s[j] = f
				j--
			}
		} else {
			for j > 0 && less(e, s[j-1]) {
				f := s[j-1]
				if f.x&1 == 0 && p.overlap2(a, eid, f.x>>1) {
					p.pairs.remove(pairKey(eid, f.x>>1))
				}
				s[j] = f
				j--
			}
		}
		s[j] = e
		budget -= i - j
		if budget < 0 {
			return budget
		}
	}
	return budget
}

// insert merges the added objects' endpoints into the arrays and finds
// their pairs by a scan of the x array.
func (p *Axis3) insert() {
	for _, id := range p.added {
		p.cur[id] = toBox6(&p.box[id])
		p.state[id] |= s3In
	}
	for a := range 3 {
		p.tmp = p.tmp[:0]
		for _, id := range p.added {
			c := &p.cur[id]
			p.tmp = append(p.tmp, endpoint{c.lo[a], uint32(id) << 1}, endpoint{c.hi[a], uint32(id)<<1 | 1})
		}
		slices.SortFunc(p.tmp, cmpEndpoint)
		n0 := len(p.ep[a])
		s := append(p.ep[a], p.tmp...)
		i, j, k := n0-1, len(p.tmp)-1, len(s)-1
		for j >= 0 {
			if i >= 0 && less(p.tmp[j], s[i]) {
				s[k] = s[i]
				i--
			} else {
				s[k] = p.tmp[j]
				j--
			}
			k--
		}
		p.ep[a] = s
	}
	for _, x := range p.added {
		cx := &p.cur[x]
		for _, e := range p.ep[0] {
			if e.v > cx.hi[0] {
				break
			}
			y := e.x >> 1
			if e.x&1 != 0 || y == uint32(x) {
				continue
			}
			if p.state[y]&s3Added != 0 && y < uint32(x) {
				continue
			}
			cy := &p.cur[y]
			if cy.hi[0] >= cx.lo[0] && cx.lo[1] <= cy.hi[1] && cy.lo[1] <= cx.hi[1] && cx.lo[2] <= cy.hi[2] && cy.lo[2] <= cx.hi[2] {
				p.pairs.add(pairKey(uint32(x), y))
			}
		}
	}
}

// rebuild sorts every array afresh and finds every pair by a sweep.
func (p *Axis3) rebuild() {
	for a := range 3 {
		p.ep[a] = p.ep[a][:0]
	}
	for id := range p.state {
		s := p.state[id]
		if s&s3Present == 0 {
			p.state[id] = s &^ s3In
			continue
		}
		p.state[id] = s | s3In
		p.cur[id] = toBox6(&p.box[id])
		c := &p.cur[id]
		for a := range 3 {
			p.ep[a] = append(p.ep[a], endpoint{c.lo[a], uint32(id) << 1}, endpoint{c.hi[a], uint32(id)<<1 | 1})
		}
	}
	for a := range 3 {
		slices.SortFunc(p.ep[a], cmpEndpoint)
	}
	p.pairs.reset()
	p.lohi = p.lohi[:0]
	for _, e := range p.ep[0] {
		if e.x&1 == 0 {
			c := &p.cur[e.x>>1]
			p.lohi = append(p.lohi, entry{c.lo[0], c.hi[0], c.lo[1], c.hi[1], c.lo[2], c.hi[2], int32(e.x >> 1), 0})
		}
	}
	ent := p.lohi
	work := 0
	for i := range ent {
		a := &ent[i]
		j := i + 1
		for ; j < len(ent) && ent[j].lo <= a.hi; j++ {
			b := &ent[j]
			if max(a.min1, b.min1) <= min(a.max1, b.max1) && max(a.min2, b.min2) <= min(a.max2, b.max2) {
				p.pairs.add(pairKey(uint32(a.id), uint32(b.id)))
			}
		}
		work += j - i
	}
	// A rebuild costs three sorts and the sweep; a swap costs about as
	// much as three steps of the sweep or one comparison of a sort.
	n := len(ent)
	p.budget = work/3 + 6*n*bits.Len(uint(n)) + 1024
}

var _ broad.Phase = (*Axis3)(nil)

// pairSet is a set of pairs: a dense list for iteration and an open
// addressing table (linear probing) from key to list index.
type pairSet struct {
	list  []uint64
	keys  []uint64 // 0: empty
	idx   []int32
	shift uint
}

func (s *pairSet) slot(k uint64) int {
	return int((k * 0x9E3779B97F4A7C15) >> s.shift)
}

func (s *pairSet) reset() {
	s.list = s.list[:0]
	clear(s.keys)
}

func (s *pairSet) growTo(n int) {
	size := 16
	for size < 2*n {
		size *= 2
	}
	if size <= len(s.keys) {
		return
	}
	s.keys = make([]uint64, size)
	s.idx = make([]int32, size)
	s.shift = 64
	for 1<<(64-s.shift) < size {
		s.shift--
	}
	for i, k := range s.list {
		s.put(k, int32(i))
	}
}

func (s *pairSet) put(k uint64, i int32) {
	mask := len(s.keys) - 1
	h := s.slot(k)
	for s.keys[h] != 0 {
		h = (h + 1) & mask
	}
	s.keys[h] = k
	s.idx[h] = i
}

func (s *pairSet) add(k uint64) {
	if 2*(len(s.list)+1) > len(s.keys) {
		s.growTo(len(s.list) + 1)
	}
	s.put(k, int32(len(s.list)))
	s.list = append(s.list, k)
}

func (s *pairSet) find(k uint64) int {
	mask := len(s.keys) - 1
	h := s.slot(k)
	for s.keys[h] != k {
		if s.keys[h] == 0 {
			return -1
		}
		h = (h + 1) & mask
	}
	return h
}

func (s *pairSet) remove(k uint64) {
	h := s.find(k)
	if h < 0 {
		return
	}
	i := s.idx[h]
	last := s.list[len(s.list)-1]
	s.list[i] = last
	s.list = s.list[:len(s.list)-1]
	if last != k {
		s.idx[s.find(last)] = i
	}
	// Backward-shift deletion.
	mask := len(s.keys) - 1
	for {
		s.keys[h] = 0
		j := h
		for {
			j = (j + 1) & mask
			if s.keys[j] == 0 {
				return
			}
			home := s.slot(s.keys[j])
			// Move keys[j] to h if its home is not in (h, j].
			if (j > h && (home <= h || home > j)) || (j < h && home <= h && home > j) {
				s.keys[h], s.idx[h] = s.keys[j], s.idx[j]
				h = j
				break
			}
		}
	}
}

// filter keeps the pairs for which keep is true and rebuilds the table.
func (s *pairSet) filter(keep func(a, b int32) bool) {
	l := s.list[:0]
	for _, k := range s.list {
		if keep(int32(k>>32), int32(uint32(k))) {
			l = append(l, k)
		}
	}
	s.list = l
	clear(s.keys)
	for i, k := range s.list {
		s.put(k, int32(i))
	}
}
