package sap

import (
	"cmp"
	"math"
	"slices"

	"github.com/collide3d/collide/broad"
	"github.com/collide3d/collide/broad/internal/pairset"
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
	st   uint8      // 1 for a static object (in the struct's padding)
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
	sStale   // its endpoints in the x and y arrays carry old intervals
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
	pairs pairset.Set   // every overlapping pair of objects in the arrays

	added   []int32
	stale   []int32 // the objects marked sStale
	tmp     []endpoint
	sweep   []sweepBox
	rk, rk2 []rkey
	start   []int32
	slabbed []int32
	movers  []int32

	reflag      bool  // an object in the arrays changed its static flag
	visits      int64 // candidate pairs visited (tests)
	mode        int   // tests: 0 by the cost model, 1 never rebuilds for cost, 2 always rebuilds
	rebuildCost int   // the cost of a rebuild (ns, by a model)
	budget      int   // swaps an incremental update may take before a rebuild is cheaper
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
	if s&sIn != 0 && (s&sStatic != 0) != static {
		p.reflag = true // its pairs change kind: a rebuild finds them
	}
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
	if p.update() || p.mode == 2 || p.reflag {
		p.rebuild()
		p.reflag = false
	}
	for _, k := range p.pairs.List {
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
	if p.state[id]&sStatic != 0 {
		e.st = 1
	}
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
	if p.nin == 0 || 3*len(p.added)*p.nin > 2*p.rebuildCost {
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
		p.pairs.Filter(func(k uint64) bool { return (p.state[k>>32]|p.state[uint32(k)])&sRemove == 0 })
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
			p.refill(a, sMoved|sStale)
			if budget = p.sortAxis(a, budget); budget < 0 {
				return true
			}
		}
		// The x and y arrays still carry the moved objects' old intervals
		// on later axes: they are stale until the next refills.
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
// endpoints carry intervals on later axes.
func (p *Phase) refill(a int, mask uint8) {
	if a == 2 {
		mask &^= sStale
	}
	s := p.ep[a]
	for i := range s {
		id := s[i].x >> 1
		if p.state[id]&mask != 0 {
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
				if overlap2(&e, f) && f.x&1 != 0 && e.st&f.st == 0 {
					p.pairs.Add(pairset.Key(e.x>>1, f.x>>1))
				}
				s[j] = *f
				j--
			}
		} else {
			for j > 0 && less(&e, &s[j-1]) {
				f := &s[j-1]
				if overlap2(&e, f) && f.x&1 == 0 && e.st&f.st == 0 {
					p.pairs.Remove(pairset.Key(e.x>>1, f.x>>1))
				}
				s[j] = *f
				j--
			}
		}
		s[j] = e
		p.visits += int64(i - j)
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
			p.visits++
			if e.x&1 != 0 || y == uint32(x) || p.state[y]&sAdded != 0 && y < uint32(x) || e.st&ex.st != 0 {
				continue
			}
			if p.cur[y].hi[0] >= cx.lo[0] && overlap2(&ex, e) {
				p.pairs.Add(pairset.Key(uint32(x), y))
			}
		}
	}
}

// sweepBox is a box in the rebuild's sweep: its interval on x, its min
// endpoint in the x array (which carries its y and z intervals) and its
// first slab.
type sweepBox struct {
	lo, hi float64
	e      *endpoint
	s0, s1 int32
}

// rebuild sorts every array afresh and finds every pair.
func (p *Phase) rebuild() {
	for a := range 3 {
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
		p.cur[id] = toBox6(&p.box[id])
		p.nin++
	}
	for a := range 3 {
		p.sortFresh(a)
	}
	p.pairs.Reset()
	work := p.findPairs()
	// The cost model, in nanoseconds measured on the benchmark scene: a
	// rebuild costs about 500 per object (the sorts) and 3 per candidate
	// of the sweep; a swap of the incremental sort costs about 5, and an
	// insertion's scan about 1.5 per object.
	p.rebuildCost = 500*p.nin + 3*work + 10000
	p.budget = p.rebuildCost / 5
	if p.mode == 1 {
		p.rebuildCost, p.budget = math.MaxInt/4, math.MaxInt/4
	}
}

// rkey is an endpoint's sort key and its object and end, for the radix
// sort of a rebuild.
type rkey struct {
	key uint64
	x   uint32
}

// sortFresh fills a's array with the endpoints of the objects in the
// arrays, sorted by an LSD radix sort of their values made into unsigned
// integers of the same order (-0 first made +0, which it equals). The
// sort is stable and the mins come first, so a min is before a max of the
// same value.
func (p *Phase) sortFresh(a int) {
	n := 2 * p.nin
	if n == 0 {
		p.ep[a] = p.ep[a][:0]
		return
	}
	k := slices.Grow(p.rk[:0], n)
	for _, max := range []bool{false, true} {
		for id := range p.state {
			if p.state[id]&sIn == 0 {
				continue
			}
			c := &p.cur[id]
			v, x := c.lo[a], uint32(id)<<1
			if max {
				v, x = c.hi[a], x|1
			}
			b := math.Float64bits(v + 0)
			if b>>63 != 0 {
				b = ^b
			} else {
				b |= 1 << 63
			}
			k = append(k, rkey{b, x})
		}
	}
	tmp := slices.Grow(p.rk2[:0], n)[:n]
	const d = 11
	var count [1 << d]int32
	for shift := uint(0); shift < 64; shift += d {
		clear(count[:])
		for _, e := range k {
			count[e.key>>shift&(1<<d-1)]++
		}
		if int(count[k[0].key>>shift&(1<<d-1)]) == n {
			continue // one digit: nothing to do
		}
		sum := int32(0)
		for i, c := range count {
			count[i] = sum
			sum += c
		}
		for _, e := range k {
			j := e.key >> shift & (1<<d - 1)
			tmp[count[j]] = e
			count[j]++
		}
		k, tmp = tmp, k
	}
	p.rk, p.rk2 = k, tmp
	ep := slices.Grow(p.ep[a][:0], n)
	for _, e := range k {
		ep = append(ep, p.fill(a, e.x>>1, e.x&1 != 0))
	}
	p.ep[a] = ep
}

// findPairs puts every overlapping pair into the pair set and returns the
// number of candidates it met. It is box pruning (a sweep along x, each box
// against those that start before it ends) within slabs along y: a box is
// in every slab its y interval meets, and a pair is taken only in the
// lowest slab the two share. The slab of a value is a monotone function of
// it, so overlapping boxes share a slab. With slabs as thick as the mean
// box, a sweep meets about 4·w/Y as many candidates as one sweep of all
// (w the mean thickness, Y the extent along y): in a cube of 10^5 boxes, 23
// times fewer.
func (p *Phase) findPairs() int {
	p.sweep = p.sweep[:0]
	ylo, yhi := math.Inf(1), math.Inf(-1)
	sum, cnt := 0.0, 0
	for i := range p.ep[0] {
		e := &p.ep[0][i]
		if e.x&1 != 0 {
			continue
		}
		p.sweep = append(p.sweep, sweepBox{lo: e.v, hi: p.cur[e.x>>1].hi[0], e: e})
		if w := e.b[1] - e.b[0]; w < math.Inf(1) {
			ylo, yhi = min(ylo, e.b[0]), max(yhi, e.b[1])
			sum += w
			cnt++
		}
	}
	sw := p.sweep
	ext := yhi - ylo
	k, inv := 1, 0.0
	if cnt > 0 && ext > 0 && ext < math.Inf(1) {
		h := max(sum/float64(cnt), 2*ext/float64(len(sw)))
		for {
			k = int(min(ext/h, float64(len(sw)))) + 1
			inv = float64(k-1) / ext
			total := 0
			for i := range sw {
				b := &sw[i]
				b.s0, b.s1 = slab(b.e.b[0], ylo, inv, k), slab(b.e.b[1], ylo, inv, k)
				total += int(b.s1-b.s0) + 1
			}
			// Many boxes across many slabs: thicker slabs.
			if total <= 3*len(sw) || k <= 2 {
				break
			}
			h *= 2
		}
	} else {
		for i := range sw {
			sw[i].s0, sw[i].s1 = 0, 0
		}
	}
	// The slabs' lists, in x order: a counting sort.
	p.start = slices.Grow(p.start[:0], k+1)[:k+1]
	clear(p.start)
	for i := range sw {
		for s := sw[i].s0; s <= sw[i].s1; s++ {
			p.start[s+1]++
		}
	}
	for s := 1; s <= k; s++ {
		p.start[s] += p.start[s-1]
	}
	total := int(p.start[k])
	p.slabbed = slices.Grow(p.slabbed[:0], total)[:total]
	for i := range sw {
		for s := sw[i].s0; s <= sw[i].s1; s++ {
			p.slabbed[p.start[s]] = int32(i)
			p.start[s]++
		}
	}
	// In each slab, a moving box meets every box after it in x order; a
	// static one only the moving boxes after it (lm, from index mi), so
	// that no pair of two static boxes is visited.
	work := 0
	lo := int32(0)
	for s := range int32(k) {
		hi := p.start[s]
		l := p.slabbed[lo:hi]
		lo = hi
		lm := p.movers[:0]
		for _, i := range l {
			if sw[i].e.st == 0 {
				lm = append(lm, i)
			}
		}
		p.movers = lm
		mi := 0
		for a, i := range l {
			bi := &sw[i]
			rest := l[a+1:]
			if bi.e.st == 0 {
				mi++
			} else {
				rest = lm[mi:]
			}
			for _, j := range rest {
				bj := &sw[j]
				if bj.lo > bi.hi {
					break
				}
				work++
				if overlap2(bi.e, bj.e) && max(bi.s0, bj.s0) == s {
					p.pairs.Add(pairset.Key(bi.e.x>>1, bj.e.x>>1))
				}
			}
		}
		work += len(l)
	}
	p.visits += int64(work)
	return work
}

// slab returns the slab of v: (v-lo)·inv truncated, clamped to [0, k-1];
// a monotone function of v.
func slab(v, lo, inv float64, k int) int32 {
	f := (v - lo) * inv
	if !(f >= 0) {
		return 0
	}
	if f >= float64(k-1) {
		return int32(k - 1)
	}
	return int32(f)
}

var _ broad.Phase = (*Phase)(nil)

// Visits returns the number of candidate pairs the phase has visited
// (endpoints passed by its sorts and scans, boxes met by its sweeps): a
// measure of its work for tests (broadtest.Linear).
func (p *Phase) Visits() int64 { return p.visits }
