package dopsap

import (
	"cmp"
	"math"
	"math/bits"
	"slices"

	"github.com/collide3d/collide/broad"
	"github.com/collide3d/collide/broad/internal/pairset"
	"github.com/collide3d/collide/bv"
	"github.com/collide3d/collide/geom"
)

// endpoint is one end of an object's interval in the sorted array of one
// axis, with the object's box (its intervals on x, y and z, min and max
// in turn) carried along, so that the test at a swap reads the other
// object's intervals only when the two boxes overlap.
type endpoint struct {
	v   float64    // the end
	box [6]float64 // the object's box, as in cur
	x   uint32     // id<<1, | 1 for a max
}

// boxBut reports whether the boxes carried by e and f overlap on the box
// axes other than a.
func boxBut(e, f *endpoint, a int) bool {
	switch a {
	case 0:
		return max(e.box[2], f.box[2]) <= min(e.box[3], f.box[3]) && max(e.box[4], f.box[4]) <= min(e.box[5], f.box[5])
	case 1:
		return max(e.box[0], f.box[0]) <= min(e.box[1], f.box[1]) && max(e.box[4], f.box[4]) <= min(e.box[5], f.box[5])
	case 2:
		return max(e.box[0], f.box[0]) <= min(e.box[1], f.box[1]) && max(e.box[2], f.box[2]) <= min(e.box[3], f.box[3])
	}
	return max(e.box[0], f.box[0]) <= min(e.box[1], f.box[1]) && max(e.box[2], f.box[2]) <= min(e.box[3], f.box[3]) &&
		max(e.box[4], f.box[4]) <= min(e.box[5], f.box[5])
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

// Per-id state bits.
const (
	sPresent = 1 << iota
	sStatic
	sTouched // in Phase.touched: added, moved or removed since the last Pairs
	sIn      // in the arrays
	sMoved   // in the arrays and moved this round
	sAdded   // entering the arrays this round
	sRemove  // leaving the arrays this round
	sReflag  // in the arrays, added again with the other static flag
	sStale   // its endpoints in the x and y arrays carry an old box
)

// Phase is an incremental sweep and prune on the k/2 directions of a
// k-DOP: see the package documentation. The zero value is not ready to
// use; call New.
type Phase struct {
	k bv.K
	m int // k/2: the axes

	// given holds, per object, the intervals given by Add, Move and SetDOP
	// (2m floats: the min and the max of each axis in turn, so that the
	// test of a pair on one axis reads one cache line of each); cur those
	// the arrays are sorted by, laid out the same way.
	given, cur []float64
	state      []uint16
	touched    []int32
	n          int // present objects
	nin        int // objects in the arrays

	ep    [][]endpoint // sorted endpoints of each axis
	pairs pairset.Set  // every pair in the arrays that overlaps on every axis, not both static

	added  []int32
	stale  []int32 // the objects marked sStale
	tmp    []endpoint
	sweep  []int32
	movers []int32

	visits   int64 // candidate pairs visited (tests)
	lastWork int   // the candidates of the last rebuild's sweep
	mode     int   // tests: 0 by the cost model, 1 never rebuilds for cost, 2 always rebuilds
}

// New returns an empty sweep and prune on the directions of k (any
// bv.Ks; 0 means K18, the library's default tree). A set without the axes
// (bv.K8, K12, K20) is swept on the axes too, which carry the boxes the
// phase is given, as the set with them (K14, K18, K26). It panics if k is
// not a supported direction set.
func New(k bv.K) *Phase {
	if k == 0 {
		k = bv.K18
	}
	if !k.Valid() {
		panic("dopsap: unsupported " + k.String())
	}
	m := k.Slabs()
	if !k.Axes() {
		m += 3
	}
	return &Phase{k: k, m: m, ep: make([][]endpoint, m)}
}

// K returns the direction set of the phase.
func (p *Phase) K() bv.K { return p.k }

func (p *Phase) grow(id int32) {
	if id < 0 {
		panic("dopsap: negative object id")
	}
	if int(id) >= len(p.state) {
		n := int(id) + 1
		p.given = slices.Grow(p.given, 2*p.m*n-len(p.given))[:2*p.m*n]
		p.cur = slices.Grow(p.cur, 2*p.m*n-len(p.cur))[:2*p.m*n]
		p.state = slices.Grow(p.state, n-len(p.state))[:n]
	}
}

func (p *Phase) touch(id int32) {
	if p.state[id]&sTouched == 0 {
		p.state[id] |= sTouched
		p.touched = append(p.touched, id)
	}
}

// setBox sets the given intervals of id to those of b on x, y, z and to
// the whole line on the other axes.
func (p *Phase) setBox(id int32, b *geom.AABB) {
	g := p.given[2*p.m*int(id) : 2*p.m*(int(id)+1)]
	g[0], g[1], g[2], g[3], g[4], g[5] = b.Min.X, b.Max.X, b.Min.Y, b.Max.Y, b.Min.Z, b.Max.Z
	for a := 3; a < p.m; a++ {
		g[2*a], g[2*a+1] = math.Inf(-1), math.Inf(1)
	}
}

// Add inserts object id with box b, or replaces it; see broad.Phase. The
// object is bounded by its box until SetDOP gives its DOP.
func (p *Phase) Add(id int32, b geom.AABB, static bool) {
	p.grow(id)
	s := p.state[id]
	if s&sPresent == 0 {
		p.n++
	}
	p.setBox(id, &b)
	if s&sIn != 0 && (s&sStatic != 0) != static {
		s |= sReflag // its pairs change kind: it leaves the arrays and enters again
	}
	s = s&(sTouched|sIn|sReflag) | sPresent
	if static {
		s |= sStatic
	}
	p.state[id] = s
	p.touch(id)
}

// Move sets the box of object id, which must be present, and marks it
// moved; see broad.Phase. The object is bounded by its box until SetDOP
// gives its DOP.
func (p *Phase) Move(id int32, b geom.AABB) {
	if id < 0 || int(id) >= len(p.state) || p.state[id]&sPresent == 0 {
		panic("dopsap: Move of an absent object")
	}
	p.setBox(id, &b)
	p.touch(id)
}

// SetDOP bounds object id, present, by the k-DOP d as well as by its box
// (set by Add or Move just before): on the directions of the phase other
// than x, y and z, its intervals are d's; on x, y and z they stay the
// box's. d must have the phase's direction set, and bound the object as
// soundly as its box: the phase reports a pair only when the two objects'
// intervals overlap on every direction. A nil d, or a slab of d that is
// empty or holds a NaN, goes back to the box on that direction. It does
// not mark the object moved: Add or Move has.
func (p *Phase) SetDOP(id int32, d *bv.DOP) {
	if id < 0 || int(id) >= len(p.state) || p.state[id]&sPresent == 0 {
		panic("dopsap: SetDOP of an absent object")
	}
	if d != nil && d.K != p.k {
		panic("dopsap: SetDOP with a " + d.K.String() + " for a phase on the " + p.k.String())
	}
	g := p.given[2*p.m*int(id) : 2*p.m*(int(id)+1)]
	// The slab of d on direction a: the same a, or a − 3 for a set
	// without the axes, whose diagonals come in the order of the set with
	// them (bv.K8's are bv.K14's after the axes, and so on).
	shift := 0
	if !p.k.Axes() {
		shift = 3
	}
	for a := 3; a < p.m; a++ {
		g[2*a], g[2*a+1] = math.Inf(-1), math.Inf(1)
		if d != nil && d.Lo[a-shift] <= d.Hi[a-shift] {
			g[2*a], g[2*a+1] = d.Lo[a-shift], d.Hi[a-shift]
		}
	}
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
// a < b, for every pair that overlaps on every axis, not both static, with
// an object added or moved since the last call; it stops when fn returns
// false. See broad.Phase.
func (p *Phase) Pairs(fn func(a, b int32) bool) {
	if p.update() || p.mode == 2 {
		p.rebuild()
	}
	for _, k := range p.pairs.List {
		a, b := uint32(k>>32), uint32(k)
		sa, sb := p.state[a], p.state[b]
		if (sa|sb)&sTouched != 0 && sa&sb&sStatic == 0 && !fn(int32(a), int32(b)) {
			break
		}
	}
	for _, id := range p.touched {
		p.state[id] &^= sTouched | sMoved | sAdded | sRemove | sReflag
	}
	p.touched = p.touched[:0]
}

// overlapBut reports whether objects i and j overlap, by cur, on every
// axis but a and the box axes (which the caller has tested).
func (p *Phase) overlapBut(i, j uint32, a int) bool {
	m := p.m
	ci := p.cur[2*m*int(i) : 2*m*(int(i)+1)]
	cj := p.cur[2*m*int(j) : 2*m*(int(j)+1)]
	for b := 3; b < m; b++ {
		if b != a && !(max(ci[2*b], cj[2*b]) <= min(ci[2*b+1], cj[2*b+1])) {
			return false
		}
	}
	return true
}

// bothStatic reports whether objects i and j are both static.
func (p *Phase) bothStatic(i, j uint32) bool {
	return p.state[i]&p.state[j]&sStatic != 0
}

// update applies the round's changes incrementally; it reports true when
// a rebuild is needed or cheaper.
func (p *Phase) update() bool {
	nrem, nmov := 0, 0
	p.added = p.added[:0]
	for _, id := range p.touched {
		s := p.state[id]
		if s&sIn != 0 && (s&sPresent == 0 || s&sReflag != 0) {
			s = s&^sIn | sRemove
			nrem++
		}
		switch {
		case s&sPresent == 0:
		case s&sIn != 0:
			s |= sMoved
			nmov++
		default:
			s |= sAdded
			p.added = append(p.added, id)
		}
		p.state[id] = s
	}
	p.nin -= nrem
	// A rebuild sorts every axis and sweeps; an insertion scans the first
	// axis's array up to the new object.
	cost := p.rebuildCost()
	if p.nin == 0 || len(p.added)*p.nin > cost {
		return len(p.added) > 0 || nrem > 0
	}
	if nrem > 0 {
		for a := range p.m {
			s := p.ep[a][:0]
			for _, e := range p.ep[a] {
				if p.state[e.x>>1]&sRemove == 0 {
					s = append(s, e)
				}
			}
			p.ep[a] = s
		}
		p.pairs.Filter(func(k uint64) bool { return (p.state[k>>32]|p.state[uint32(k)])&sRemove == 0 })
	}
	if nmov > 0 {
		// Axis by axis: cur takes the new interval on a, and an insertion
		// sort of a's array updates the pair set at every min/max swap,
		// by cur on the other axes (new on the axes done, old on those
		// to do: the orders of their arrays).
		budget := cost
		m := p.m
		for a := range m {
			for _, id := range p.touched {
				if p.state[id]&sMoved != 0 {
					o := 2 * m * int(id)
					p.cur[o+2*a], p.cur[o+2*a+1] = p.given[o+2*a], p.given[o+2*a+1]
				}
			}
			p.refill(a, sMoved|sStale)
			if budget = p.sortAxis(a, budget); budget < 0 {
				return true
			}
		}
		// The x and y arrays still carry the moved objects' old boxes on
		// later axes: they are stale until the next refills.
		for _, id := range p.stale {
			p.state[id] &^= sStale
		}
		p.stale = p.stale[:0]
		for _, id := range p.touched {
			if p.state[id]&sMoved != 0 {
				p.state[id] |= sStale
				p.stale = append(p.stale, id)
			}
		}
	}
	if len(p.added) > 0 {
		p.freshen()
		p.insert()
	}
	return false
}

// freshen refills the stale endpoints of the x and y arrays.
func (p *Phase) freshen() {
	if len(p.stale) == 0 {
		return
	}
	p.refill(0, sStale)
	p.refill(1, sStale)
	for _, id := range p.stale {
		p.state[id] &^= sStale
	}
	p.stale = p.stale[:0]
}

// refill sets the endpoints in a's array of the objects with a state bit
// of mask from cur. Only the arrays of x and y can be stale: their
// endpoints carry the box on later axes.
func (p *Phase) refill(a int, mask uint16) {
	if a >= 2 {
		mask &^= sStale
	}
	s := p.ep[a]
	for i := range s {
		id := s[i].x >> 1
		if p.state[id]&mask != 0 {
			s[i] = p.ends(a, id, s[i].x&1 != 0)
		}
	}
}

// rebuildCost returns the work of a rebuild, in the units of the
// insertion sort's swaps: the comparison sorts of every axis (2n log₂ 2n
// comparisons each, about twice a swap's time) and the last sweep's
// candidates.
func (p *Phase) rebuildCost() int {
	n := 2 * p.nin
	return 2*p.m*n*bits.Len(uint(n)) + 2*p.lastWork + 1024
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
// of cur.
func (p *Phase) sortAxis(a int, budget int) int {
	s := p.ep[a]
	for i := 1; i < len(s); i++ {
		if !less(&s[i], &s[i-1]) {
			continue
		}
		e := s[i]
		j := i
		for j > 0 && less(&e, &s[j-1]) {
			f := &s[j-1]
			if boxBut(&e, f, a) && (e.x^f.x)&1 != 0 && !p.bothStatic(e.x>>1, f.x>>1) && p.overlapBut(e.x>>1, f.x>>1, a) {
				if e.x&1 == 0 {
					p.pairs.Add(pairset.Key(e.x>>1, f.x>>1))
				} else {
					p.pairs.Remove(pairset.Key(e.x>>1, f.x>>1))
				}
			}
			s[j] = *f
			j--
		}
		s[j] = e
		p.visits += int64(i - j)
		if budget -= i - j; budget < 0 {
			return budget
		}
	}
	return budget
}

// ends returns the min (max false) or max endpoint of object id on axis a,
// from cur.
func (p *Phase) ends(a int, id uint32, max bool) endpoint {
	c := p.cur[2*p.m*int(id):]
	e := endpoint{v: c[2*a], box: [6]float64(c[:6]), x: id << 1}
	if max {
		e.v = c[2*a+1]
		e.x |= 1
	}
	return e
}

// insert merges the added objects' endpoints into the arrays and finds
// their pairs by a scan of the first axis's array.
func (p *Phase) insert() {
	m := p.m
	for _, id := range p.added {
		o := 2 * m * int(id)
		copy(p.cur[o:o+2*m], p.given[o:o+2*m])
		p.state[id] |= sIn
	}
	p.nin += len(p.added)
	for a := range m {
		p.tmp = p.tmp[:0]
		for _, id := range p.added {
			p.tmp = append(p.tmp, p.ends(a, uint32(id), false), p.ends(a, uint32(id), true))
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
		ux := uint32(x)
		lo, hi := p.cur[2*m*int(x)], p.cur[2*m*int(x)+1]
		ex := p.ends(0, ux, false)
		for i := range p.ep[0] {
			e := &p.ep[0][i]
			if e.v > hi {
				break
			}
			y := e.x >> 1
			p.visits++
			if e.x&1 != 0 || y == ux || p.state[y]&sAdded != 0 && y < ux || p.bothStatic(ux, y) {
				continue
			}
			if p.cur[2*m*int(y)+1] >= lo && boxBut(&ex, e, 0) && p.overlapBut(ux, y, 0) {
				p.pairs.Add(pairset.Key(ux, y))
			}
		}
	}
}

// rebuild sorts every array afresh and finds every pair.
func (p *Phase) rebuild() {
	m := p.m
	for a := range m {
		p.ep[a] = p.ep[a][:0]
	}
	p.nin = 0
	p.stale = p.stale[:0]
	for id := range p.state {
		s := p.state[id] &^ sStale
		if s&sPresent == 0 {
			p.state[id] = s &^ sIn
			continue
		}
		p.state[id] = s | sIn
		o := 2 * m * id
		copy(p.cur[o:o+2*m], p.given[o:o+2*m])
		p.nin++
	}
	for a := range m {
		s := slices.Grow(p.ep[a][:0], 2*p.nin)
		for id := range p.state {
			if p.state[id]&sIn != 0 {
				s = append(s, p.ends(a, uint32(id), false), p.ends(a, uint32(id), true))
			}
		}
		slices.SortFunc(s, cmpEndpoint)
		p.ep[a] = s
	}
	p.pairs.Reset()
	p.lastWork = p.findPairs()
	if p.mode == 1 {
		p.lastWork = math.MaxInt / 4
	}
}

// findPairs puts every pair that overlaps on every axis, not both static,
// into the pair set and returns the number of candidates it met: box
// pruning along the first axis (each object against those whose min is
// between its own min and max), a static object meeting only the moving
// ones, so that no pair of two static objects is visited.
func (p *Phase) findPairs() int {
	m := p.m
	p.sweep, p.movers = p.sweep[:0], p.movers[:0]
	for _, e := range p.ep[0] {
		if e.x&1 == 0 {
			id := int32(e.x >> 1)
			p.sweep = append(p.sweep, id)
			if p.state[id]&sStatic == 0 {
				p.movers = append(p.movers, id)
			}
		}
	}
	work := 0
	mi := 0
	for a, i := range p.sweep {
		rest := p.sweep[a+1:]
		if p.state[i]&sStatic == 0 {
			mi++
		} else {
			rest = p.movers[mi:]
		}
		hi := p.cur[2*m*int(i)+1]
		for _, j := range rest {
			if p.cur[2*m*int(j)] > hi {
				break
			}
			work++
			ci, cj := p.cur[2*m*int(i):], p.cur[2*m*int(j):]
			if max(ci[2], cj[2]) <= min(ci[3], cj[3]) && max(ci[4], cj[4]) <= min(ci[5], cj[5]) && p.overlapBut(uint32(i), uint32(j), 0) {
				p.pairs.Add(pairset.Key(uint32(i), uint32(j)))
			}
		}
	}
	work += len(p.sweep)
	p.visits += int64(work)
	return work
}

var (
	_ broad.Phase = (*Phase)(nil)
	_ broad.DOPs  = (*Phase)(nil)
)

// Visits returns the number of candidate pairs the phase has visited
// (endpoints passed by its sorts and scans, objects met by its sweeps): a
// measure of its work for tests (broadtest.Linear).
func (p *Phase) Visits() int64 { return p.visits }
