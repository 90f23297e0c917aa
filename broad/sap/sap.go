package sap

import (
	"cmp"
	"math/bits"
	"slices"

	"github.com/collide3d/collide/broad"
	"github.com/collide3d/collide/geom"
)

// endpoint is one end of an object's interval in the sorted array of one
// axis a, with the object's intervals on the two other axes, (a+1)%3 and
// (a+2)%3, carried along, so that the overlap test at a swap reads nothing
// but the two endpoints at hand.
type endpoint struct {
	v    float64    // the end on axis a
	b, c [2]float64 // the object's [min, max] on axes (a+1)%3 and (a+2)%3
	x    uint32     // id<<1, | 1 for a max
}

// less orders endpoints by value, a min before a max at equal values: then
// a min is before another object's max in the order exactly when it is at
// most that max, and touching intervals overlap in the order as they do as
// closed sets.
func less(e, f *endpoint) bool {
	return e.v < f.v || e.v == f.v && e.x&1 < f.x&1
}

func cmpEndpoint(e, f endpoint) int {
	return cmp.Or(cmp.Compare(e.v, f.v), cmp.Compare(e.x&1, f.x&1))
}

// overlap2 reports whether the objects of e and f overlap on the two axes
// other than the array's. Each max(...) <= min(...) is one comparison that
// is rarely true, where four short-circuit comparisons would be mispredicted.
func overlap2(e, f *endpoint) bool {
	return max(e.b[0], f.b[0]) <= min(e.b[1], f.b[1]) && max(e.c[0], f.c[0]) <= min(e.c[1], f.c[1])
}

// box6 is a box indexed by axis.
type box6 struct{ lo, hi [3]float64 }

// Per-id state bits.
const (
	sPresent = 1 << iota
	sStatic
	sTouched // in Phase.touched: added, moved or removed since the last Pairs
	sIn      // in the arrays
	sMoved   // in the arrays and moved this round
	sAdded   // entering the arrays this round
	sRemove  // leaving the arrays this round
)

// Phase is an incremental three-axis sweep and prune: see the package
// documentation. The zero value is not ready to use; call New.
type Phase struct {
	box     []geom.AABB // the boxes given by Add and Move
	cur     []box6      // the boxes the arrays are sorted by
	state   []uint8
	touched []int32
	n       int // present objects
	nin     int // objects in the arrays

	ep    [3][]endpoint // sorted endpoints of each axis
	pairs pairSet       // every overlapping pair of objects in the arrays

	added []int32
	tmp   []endpoint
	sweep []sweepBox

	rebuildCost int // the last rebuild's work, in sweep steps
	budget      int // swaps an incremental update may take before a rebuild is cheaper
}

// New returns an empty sweep and prune.
func New() *Phase { return &Phase{} }

func (p *Phase) grow(id int32) {
	if id < 0 {
		panic("sap: negative object id")
	}
	if int(id) >= len(p.box) {
		n := int(id) + 1
		p.box = slices.Grow(p.box, n-len(p.box))[:n]
		p.cur = slices.Grow(p.cur, n-len(p.cur))[:n]
		p.state = slices.Grow(p.state, n-len(p.state))[:n]
	}
}

func (p *Phase) touch(id int32) {
	if p.state[id]&sTouched == 0 {
		p.state[id] |= sTouched
		p.touched = append(p.touched, id)
	}
}

// Add inserts object id with box b, or replaces it; see broad.Phase.
func (p *Phase) Add(id int32, b geom.AABB, static bool) {
	p.grow(id)
	s := p.state[id]
	if s&sPresent == 0 {
		p.n++
	}
	p.box[id] = b
	s = s&(sTouched|sIn) | sPresent
	if static {
		s |= sStatic
	}
	p.state[id] = s
	p.touch(id)
}

// Move sets the box of object id, which must be present, and marks it
// moved; see broad.Phase.
func (p *Phase) Move(id int32, b geom.AABB) {
	if id < 0 || int(id) >= len(p.state) || p.state[id]&sPresent == 0 {
		panic("sap: Move of an absent object")
	}
	p.box[id] = b
	p.state[id] &^= sStatic
	p.touch(id)
}

// Remove takes object id out; removing an absent id does nothing.
func (p *Phase) Remove(id int32) {
	if id < 0 || int(id) >= len(p.state) || p.state[id]&sPresent == 0 {
		return
	}
	p.n--
	p.state[id] &^= sPresent | sStatic
	p.touch(id)
}

// Len returns the number of objects.
func (p *Phase) Len() int { return p.n }

// Pairs brings the arrays and the pair set up to date and calls fn(a, b),
// a < b, for every overlapping pair, not both static, with an object added
// or moved since the last call; it stops when fn returns false. See
// broad.Phase.
func (p *Phase) Pairs(fn func(a, b int32) bool) {
	if p.update() {
		p.rebuild()
	}
	for _, k := range p.pairs.list {
		a, b := uint32(k>>32), uint32(k)
		sa, sb := p.state[a], p.state[b]
		if (sa|sb)&sTouched != 0 && sa&sb&sStatic == 0 && !fn(int32(a), int32(b)) {
			break
		}
	}
	for _, id := range p.touched {
		p.state[id] &^= sTouched | sMoved | sAdded | sRemove
	}
	p.touched = p.touched[:0]
}

// fill returns the min (max false) or max endpoint of object id for the
// array of axis a, from cur.
func (p *Phase) fill(a int, id uint32, max bool) endpoint {
	c := &p.cur[id]
	a1, a2 := next[a][0], next[a][1]
	e := endpoint{v: c.lo[a], b: [2]float64{c.lo[a1], c.hi[a1]}, c: [2]float64{c.lo[a2], c.hi[a2]}, x: id << 1}
	if max {
		e.v = c.hi[a]
		e.x |= 1
	}
	return e
}

var next = [3][2]int{{1, 2}, {2, 0}, {0, 1}}

func toBox6(b *geom.AABB) box6 {
	return box6{[3]float64{b.Min.X, b.Min.Y, b.Min.Z}, [3]float64{b.Max.X, b.Max.Y, b.Max.Z}}
}

// update applies the round's changes incrementally; it reports true when
// a rebuild is needed or cheaper.
func (p *Phase) update() bool {
	nrem, nmov := 0, 0
	p.added = p.added[:0]
	for _, id := range p.touched {
		s := p.state[id]
		switch {
		case s&sPresent == 0:
			if s&sIn != 0 {
				p.state[id] = s&^sIn | sRemove
				nrem++
			}
		case s&sIn != 0:
			p.state[id] |= sMoved
			nmov++
		default:
			p.state[id] |= sAdded
			p.added = append(p.added, id)
		}
	}
	p.nin -= nrem
	// An insertion scans the x array up to the new object (half of it on
	// average).
	if p.nin == 0 || len(p.added)*p.nin > p.rebuildCost {
		return len(p.added) > 0 || nrem > 0
	}
	if nrem > 0 {
		for a := range 3 {
			s := p.ep[a][:0]
			for _, e := range p.ep[a] {
				if p.state[e.x>>1]&sRemove == 0 {
					s = append(s, e)
				}
			}
			p.ep[a] = s
		}
		p.pairs.filter(func(k uint64) bool { return (p.state[k>>32]|p.state[uint32(k)])&sRemove == 0 })
	}
	if nmov > 0 {
		// Axis by axis: cur takes the new interval on a, the moved
		// endpoints of a's array take it with cur's intervals on the
		// other axes (new on the axes done, old on those to do: the
		// orders of their arrays), and an insertion sort of a's array
		// updates the pair set at every min/max swap.
		budget := p.budget
		for a := range 3 {
			for _, id := range p.touched {
				if p.state[id]&sMoved != 0 {
					c, b := &p.cur[id], &p.box[id]
					switch a {
					case 0:
						c.lo[0], c.hi[0] = b.Min.X, b.Max.X
					case 1:
						c.lo[1], c.hi[1] = b.Min.Y, b.Max.Y
					default:
						c.lo[2], c.hi[2] = b.Min.Z, b.Max.Z
					}
				}
			}
			p.refill(a)
			if budget = p.sortAxis(a, budget); budget < 0 {
				return true
			}
		}
		// The x and y arrays still carry old intervals on later axes.
		p.refill(0)
		p.refill(1)
	}
	if len(p.added) > 0 {
		p.insert()
	}
	return false
}

// refill sets the moved objects' endpoints in a's array from cur.
func (p *Phase) refill(a int) {
	s := p.ep[a]
	for i := range s {
		id := s[i].x >> 1
		if p.state[id]&sMoved != 0 {
			s[i] = p.fill(a, id, s[i].x&1 != 0)
		}
	}
}

// sortAxis re-sorts a's array by insertion, updating the pair set at every
// swap of a min and a max, and returns the budget left: negative when it
// gave up, leaving the array and the pair set to a rebuild.
//
// Every object's min stays before its max (the sort moves an endpoint only
// past a strictly greater one), so two objects overlap on a, in the order,
// unless one's min is after the other's max; a min moving down past
// another object's max therefore begins an overlap on a, and a max moving
// down past another's min ends one. Either changes the pair's state iff the
// two overlap on the other axes, in their arrays' orders, which are those
// of the intervals the endpoints carry.
func (p *Phase) sortAxis(a int, budget int) int {
	s := p.ep[a]
	for i := 1; i < len(s); i++ {
		if !less(&s[i], &s[i-1]) {
			continue
		}
		e := s[i]
		j := i
		if e.x&1 == 0 {
			for j > 0 && less(&e, &s[j-1]) {
				f := &s[j-1]
				if overlap2(&e, f) && f.x&1 != 0 {
					p.pairs.add(pairKey(e.x>>1, f.x>>1))
				}
				s[j] = *f
				j--
			}
		} else {
			for j > 0 && less(&e, &s[j-1]) {
				f := &s[j-1]
				if overlap2(&e, f) && f.x&1 == 0 {
					p.pairs.remove(pairKey(e.x>>1, f.x>>1))
				}
				s[j] = *f
				j--
			}
		}
		s[j] = e
		if budget -= i - j; budget < 0 {
			return budget
		}
	}
	return budget
}

// insert merges the added objects' endpoints into the arrays and finds
// their pairs by a scan of the x array.
func (p *Phase) insert() {
	for _, id := range p.added {
		p.cur[id] = toBox6(&p.box[id])
		p.state[id] |= sIn
	}
	p.nin += len(p.added)
	for a := range 3 {
		p.tmp = p.tmp[:0]
		for _, id := range p.added {
			p.tmp = append(p.tmp, p.fill(a, uint32(id), false), p.fill(a, uint32(id), true))
		}
		slices.SortFunc(p.tmp, cmpEndpoint)
		n0 := len(p.ep[a])
		s := append(p.ep[a], p.tmp...)
		i, j := n0-1, len(p.tmp)-1
		for k := len(s) - 1; j >= 0; k-- {
			if i >= 0 && less(&p.tmp[j], &s[i]) {
				s[k] = s[i]
				i--
			} else {
				s[k] = p.tmp[j]
				j--
			}
		}
		p.ep[a] = s
	}
	for _, x := range p.added {
		cx := &p.cur[x]
		ex := p.fill(0, uint32(x), false)
		for i := range p.ep[0] {
			e := &p.ep[0][i]
			if e.v > cx.hi[0] {
				break
			}
			y := e.x >> 1
			if e.x&1 != 0 || y == uint32(x) || p.state[y]&sAdded != 0 && y < uint32(x) {
				continue
			}
			if p.cur[y].hi[0] >= cx.lo[0] && overlap2(&ex, e) {
				p.pairs.add(pairKey(uint32(x), y))
			}
		}
	}
}

// sweepBox is a box in the rebuild's sweep.
type sweepBox struct {
	lo, hi float64
	e      *endpoint
}

// rebuild sorts every array afresh and finds every pair by a sweep along x
// (box pruning).
func (p *Phase) rebuild() {
	for a := range 3 {
		p.ep[a] = p.ep[a][:0]
	}
	p.nin = 0
	for id := range p.state {
		s := p.state[id]
		if s&sPresent == 0 {
			p.state[id] = s &^ sIn
			continue
		}
		p.state[id] = s | sIn
		p.cur[id] = toBox6(&p.box[id])
		for a := range 3 {
			p.ep[a] = append(p.ep[a], p.fill(a, uint32(id), false), p.fill(a, uint32(id), true))
		}
		p.nin++
	}
	for a := range 3 {
		slices.SortFunc(p.ep[a], cmpEndpoint)
	}
	p.pairs.reset()
	p.sweep = p.sweep[:0]
	for i := range p.ep[0] {
		e := &p.ep[0][i]
		if e.x&1 == 0 {
			p.sweep = append(p.sweep, sweepBox{e.v, p.cur[e.x>>1].hi[0], e})
		}
	}
	sw := p.sweep
	work := 0
	for i := range sw {
		hi, e := sw[i].hi, sw[i].e
		j := i + 1
		for ; j < len(sw) && sw[j].lo <= hi; j++ {
			if overlap2(e, sw[j].e) {
				p.pairs.add(pairKey(e.x>>1, sw[j].e.x>>1))
			}
		}
		work += j - i
	}
	// A rebuild costs three sorts and the sweep; a swap costs about as
	// much as three steps of the sweep or a comparison of a sort.
	n := p.nin
	p.rebuildCost = work + 6*n*bits.Len(uint(n)) + 1024
	p.budget = p.rebuildCost / 3
}

var _ broad.Phase = (*Phase)(nil)
