package grid

import (
	"math"
	"math/bits"
	"slices"

	"github.com/collide3d/collide/broad"
	"github.com/collide3d/collide/geom"
)

// Options are the grid's knobs; the zero value gives the defaults.
type Options struct {
	// CellSize is the edge of a cell. Zero chooses it from the boxes at
	// every bulk change (see the package documentation).
	CellSize float64
	// MaxCells is the number of cells above which an object is large: kept
	// out of the cells, in a list that every query scans. Zero means 512.
	MaxCells int
}

// ibox is an integer box of cells, closed: lo <= hi on every axis.
type ibox struct{ lo, hi [3]int32 }

// object is what a query reads of an object, in one cache line.
type object struct {
	box   geom.AABB
	stamp uint32 // the last query that met the object
	state uint8
	_     [11]byte
}

// Per-slot state bits.
const (
	sPresent = 1 << iota
	sStatic
	sTouched // in Phase.touched: added, moved or removed since the last Pairs
	sPlaced  // in the cells of ib, or in the large list
	sLarge   // placed in the large list
	sDone    // queried in this call of Pairs
	sInS     // placed as a static object: in stable or slarge
)

// coordMax bounds the integer coordinates, so that three fit a key.
const coordMax = 1<<21 - 1

// Phase is a uniform grid broad phase: see the package documentation.
//
// Objects live in slots, numbered in the order of their lowest cells at
// the last renumbering, so that the objects of a cell, and those of the
// next cell, sit side by side in memory.
type Phase struct {
	opt     Options
	mode    int      // tests: 0 chooses, 1 forces the queries, 2 the sweep
	slotOf  []int32  // by id: its slot, or -1
	idOf    []int32  // by slot: its id, or -1 for a free slot
	obj     []object // by slot
	ib      []ibox   // by slot: the cells of a placed object
	free    []int32  // free slots
	touched []int32  // touched slots
	tbits   []uint64 // touched slots, as a bitmap
	n       int      // present objects
	placed  int
	drift   int // lowest-cell changes since the last renumbering

	size float64    // the cell edge
	inv  float64    // 1/size
	off  [3]float64 // 2^20 - origin/size: the origin is the middle cell

	// The cells and the large objects, the moving ones apart from the
	// static ones: a query of a static object reads only the moving
	// ones, and no pair of two static objects is ever visited.
	table  table   // the cells' moving objects
	stable table   // the cells' static objects
	large  []int32 // slots of the large moving objects
	slarge []int32 // slots of the large static objects
	qs     uint32  // the query stamp
	visits int64   // candidate pairs visited (tests)

	// Scratch.
	edges       []float64
	keys, keys2 []skey
	newOf       []int32
	obj2        []object
	ib2         []ibox
	idOf2       []int32
}

// skey is a slot and its sort key.
type skey struct {
	key  uint64
	slot int32
}

// New returns an empty grid with the given options (nil for the defaults).
func New(opt *Options) *Phase {
	p := &Phase{}
	if opt != nil {
		p.opt = *opt
	}
	if p.opt.MaxCells <= 0 {
		p.opt.MaxCells = 512
	}
	return p
}

// slot returns the slot of id, giving it one if it has none.
func (p *Phase) slot(id int32) int32 {
	if id < 0 {
		panic("grid: negative object id")
	}
	for int(id) >= len(p.slotOf) {
		p.slotOf = append(p.slotOf, -1)
	}
	s := p.slotOf[id]
	if s >= 0 {
		return s
	}
	if n := len(p.free); n > 0 {
		s = p.free[n-1]
		p.free = p.free[:n-1]
	} else {
		s = int32(len(p.obj))
		p.obj = append(p.obj, object{})
		p.ib = append(p.ib, ibox{})
		p.idOf = append(p.idOf, -1)
		if len(p.tbits)*64 < len(p.obj) {
			p.tbits = append(p.tbits, 0)
		}
	}
	p.slotOf[id], p.idOf[s] = s, id
	p.obj[s] = object{}
	return s
}

// present returns the slot of id if it is present, else -1.
func (p *Phase) present(id int32) int32 {
	if id < 0 || int(id) >= len(p.slotOf) {
		return -1
	}
	s := p.slotOf[id]
	if s < 0 || p.obj[s].state&sPresent == 0 {
		return -1
	}
	return s
}

func (p *Phase) touch(s int32) {
	if p.obj[s].state&sTouched == 0 {
		p.obj[s].state |= sTouched
		p.touched = append(p.touched, s)
		p.tbits[s>>6] |= 1 << (s & 63)
	}
}

// Add inserts object id with box b, or replaces it; see broad.Phase.
func (p *Phase) Add(id int32, b geom.AABB, static bool) {
	s := p.slot(id)
	o := &p.obj[s]
	if o.state&sPresent == 0 {
		p.n++
	}
	o.box = b
	o.state = o.state&^sStatic | sPresent
	if static {
		o.state |= sStatic
	}
	p.touch(s)
}

// Move sets the box of object id, which must be present, and marks it
// moved; see broad.Phase.
func (p *Phase) Move(id int32, b geom.AABB) {
	s := p.present(id)
	if s < 0 {
		panic("grid: Move of an absent object")
	}
	o := &p.obj[s]
	o.box = b
	p.touch(s)
}

// Remove takes object id out; removing an absent id does nothing.
func (p *Phase) Remove(id int32) {
	s := p.present(id)
	if s < 0 {
		return
	}
	p.n--
	p.obj[s].state &^= sPresent | sStatic
	p.touch(s)
}

// Len returns the number of objects.
func (p *Phase) Len() int { return p.n }

// CellSize returns the edge of the cells in use (0 before the first Pairs).
func (p *Phase) CellSize() float64 { return p.size }

// coord returns the integer coordinate of v on axis a, about
// (v-origin)/size + 2^20, clamped to [0, coordMax]. It is v·inv + off[a]
// rounded to float64, clamped and truncated: each step is monotone, so the
// whole is a monotone function of v, the same for every box, and boxes
// that overlap or touch get integer boxes that overlap: they share a cell.
// (Monotone is all that is needed: this is not floor((v-origin)/size) to
// the last ulp, and need not be.)
func (p *Phase) coord(v float64, a int) int32 {
	f := v*p.inv + p.off[a]
	if !(f >= 0) {
		f = 0
	} else if f > coordMax {
		f = coordMax
	}
	return int32(f)
}

func (p *Phase) ibox(b *geom.AABB) ibox {
	return ibox{
		[3]int32{p.coord(b.Min.X, 0), p.coord(b.Min.Y, 1), p.coord(b.Min.Z, 2)},
		[3]int32{p.coord(b.Max.X, 0), p.coord(b.Max.Y, 1), p.coord(b.Max.Z, 2)},
	}
}

func (p *Phase) isLarge(b *ibox) bool {
	m := int64(p.opt.MaxCells)
	c := int64(1)
	for a := range 3 {
		s := int64(b.hi[a]-b.lo[a]) + 1
		if s > m {
			return true
		}
		c *= s
	}
	return c > m
}

// key packs the coordinates of a cell; it is never 0.
func key(x, y, z int32) uint64 {
	return 1<<63 | uint64(x) | uint64(y)<<21 | uint64(z)<<42
}

// tab returns the table of the object in slot s, static or moving (by
// where it is placed).
func (p *Phase) tab(s int32) *table {
	if int(s) < len(p.obj) && p.obj[s].state&sInS != 0 {
		return &p.stable
	}
	return &p.table
}

// addCells adds slot s to every cell of the integer box [lo, hi].
func (p *Phase) addCells(lo, hi [3]int32, s int32) {
	t := p.tab(s)
	for z := lo[2]; z <= hi[2]; z++ {
		for y := lo[1]; y <= hi[1]; y++ {
			for x := lo[0]; x <= hi[0]; x++ {
				t.add(key(x, y, z), s)
			}
		}
	}
}

// removeCells removes slot s from every cell of the integer box [lo, hi].
func (p *Phase) removeCells(lo, hi [3]int32, s int32) {
	t := p.tab(s)
	for z := lo[2]; z <= hi[2]; z++ {
		for y := lo[1]; y <= hi[1]; y++ {
			for x := lo[0]; x <= hi[0]; x++ {
				t.remove(key(x, y, z), s)
			}
		}
	}
}

// diff adds slot s to (add) or removes it from the cells of a that are not
// in b, as at most six disjoint slabs: Zachmann's box difference. a and b
// must overlap.
func (p *Phase) diff(a, b ibox, s int32, add bool) {
	lo, hi := a.lo, a.hi
	for ax := range 3 {
		if lo[ax] < b.lo[ax] {
			t := hi
			t[ax] = b.lo[ax] - 1
			p.cellsOf(lo, t, s, add)
			lo[ax] = b.lo[ax]
		}
		if hi[ax] > b.hi[ax] {
			t := lo
			t[ax] = b.hi[ax] + 1
			p.cellsOf(t, hi, s, add)
			hi[ax] = b.hi[ax]
		}
	}
}

func (p *Phase) cellsOf(lo, hi [3]int32, s int32, add bool) {
	if add {
		p.addCells(lo, hi, s)
	} else {
		p.removeCells(lo, hi, s)
	}
}

func overlapI(a, b *ibox) bool {
	return a.lo[0] <= b.hi[0] && b.lo[0] <= a.hi[0] &&
		a.lo[1] <= b.hi[1] && b.lo[1] <= a.hi[1] &&
		a.lo[2] <= b.hi[2] && b.lo[2] <= a.hi[2]
}

// place puts a present, unplaced object into the cells of its box, or into
// the large list.
func (p *Phase) place(s int32) {
	b := p.ibox(&p.obj[s].box)
	p.ib[s] = b
	p.placed++
	st := p.obj[s].state
	if st&sStatic != 0 {
		st |= sInS
	}
	if p.isLarge(&b) {
		p.obj[s].state = st | sPlaced | sLarge
		if st&sInS != 0 {
			p.slarge = append(p.slarge, s)
		} else {
			p.large = append(p.large, s)
		}
		return
	}
	p.obj[s].state = st | sPlaced
	p.addCells(b.lo, b.hi, s)
}

// unplace takes a placed object out of its cells or the large list.
func (p *Phase) unplace(s int32) {
	st := p.obj[s].state
	p.placed--
	if st&sLarge != 0 {
		l := &p.large
		if st&sInS != 0 {
			l = &p.slarge
		}
		i := slices.Index(*l, s)
		*l = slices.Delete(*l, i, i+1)
	} else {
		b := &p.ib[s]
		p.removeCells(b.lo, b.hi, s)
	}
	p.obj[s].state = st &^ (sPlaced | sLarge | sInS)
}

// replace moves a placed object to its new box.
func (p *Phase) replace(s int32) {
	nb := p.ibox(&p.obj[s].box)
	ob := p.ib[s]
	st := p.obj[s].state
	if nb == ob && (st&sStatic != 0) == (st&sInS != 0) {
		return // Zachmann's pre-check: the same cells, no grid work
	}
	if nb.lo != ob.lo {
		p.drift++
	}
	if st&sLarge != 0 || p.isLarge(&nb) || !overlapI(&ob, &nb) || (st&sStatic != 0) != (st&sInS != 0) {
		p.unplace(s)
		p.place(s)
		return
	}
	p.ib[s] = nb
	p.diff(nb, ob, s, true)
	p.diff(ob, nb, s, false)
}

// release frees the slot of a removed object.
func (p *Phase) release(s int32) {
	p.slotOf[p.idOf[s]] = -1
	p.idOf[s] = -1
	p.free = append(p.free, s)
}

// Pairs brings the grid up to date and calls fn(a, b), a < b, for every
// overlapping pair, not both static, with an object added or moved since
// the last call; it stops when fn returns false. See broad.Phase.
func (p *Phase) Pairs(fn func(a, b int32) bool) {
	p.update()
	p.query(fn)
	for _, s := range p.touched {
		p.obj[s].state &^= sTouched | sDone
		p.tbits[s>>6] = 0
	}
	p.touched = p.touched[:0]
}

func (p *Phase) update() {
	nadd := 0
	for _, s := range p.touched {
		if p.obj[s].state&(sPresent|sPlaced) == sPresent {
			nadd++
		}
	}
	if p.size == 0 && nadd > 0 || nadd > p.placed/4 {
		p.rebuild()
		return
	}
	// In the order of the slots, which is that of the memory.
	for w, word := range p.tbits {
		for word != 0 {
			s := int32(w<<6 + bits.TrailingZeros64(word))
			word &= word - 1
			switch st := p.obj[s].state; {
			case st&sPresent == 0:
				if st&sPlaced != 0 {
					p.unplace(s)
				}
				p.release(s)
			case st&sPlaced != 0:
				p.replace(s)
			default:
				p.place(s)
			}
		}
	}
	if p.drift > p.n/2 {
		p.renumber(false)
	}
}

// rebuild chooses the cell size and the origin, renumbers the slots and
// places every object.
func (p *Phase) rebuild() {
	p.table.reset()
	p.stable.reset()
	p.large = p.large[:0]
	p.slarge = p.slarge[:0]
	p.placed = 0
	lo := geom.V(math.Inf(1), math.Inf(1), math.Inf(1))
	hi := geom.V(math.Inf(-1), math.Inf(-1), math.Inf(-1))
	p.edges = p.edges[:0]
	var sum geom.Vec3
	for s := range p.obj {
		o := &p.obj[s]
		o.state &^= sPlaced | sLarge | sInS
		if o.state&sPresent == 0 {
			if p.idOf[s] >= 0 {
				p.release(int32(s))
			}
			continue
		}
		sz := o.box.Size()
		if e := max(sz.X, sz.Y, sz.Z); e < math.Inf(1) {
			lo, hi = lo.Min(o.box.Min), hi.Max(o.box.Max)
			p.edges = append(p.edges, e)
			sum = sum.Add(sz)
		}
	}
	p.size = p.opt.CellSize
	if p.size <= 0 {
		p.size = p.chooseSize(lo, hi, sum)
	}
	p.inv = 1 / p.size
	for a, o := range [3]float64{lo.X, lo.Y, lo.Z} {
		p.off[a] = 1<<20 - finite(o)*p.inv
	}
	for s := range p.obj {
		if p.obj[s].state&sPresent != 0 {
			p.ib[s] = p.ibox(&p.obj[s].box)
		}
	}
	p.renumber(true)
	for s := range p.obj {
		p.place(int32(s))
	}
}

// chooseSize returns the cell edge c that minimises a cost model of a
// query: cells(c)·(α + β·occupancy(c)), where a mean box (of the edges
// averaged over the boxes) spans cells(c) = Π(e_i/c + 1) cells, each
// holding occupancy(c) = ρ·Π(c + e_i) objects at the mean density ρ of the
// boxes' bounds. α/β = 20, a cell visit costing about twenty entries, was
// measured on the benchmark scene. c is tried from a quarter to sixteen
// times the median longest edge, by steps of 2^(1/4).
func (p *Phase) chooseSize(lo, hi, sum geom.Vec3) float64 {
	n := len(p.edges)
	if n == 0 {
		return 1
	}
	slices.Sort(p.edges)
	med := p.edges[n/2]
	ext := hi.Sub(lo)
	span := max(ext.X, ext.Y, ext.Z)
	if !(span > 0) || !(span < math.Inf(1)) {
		if med > 0 && med < math.Inf(1) {
			return med
		}
		return 1
	}
	// Flat worlds: an extent below the median edge (or span/64) counts as
	// that.
	f := max(med, span/64)
	vol := max(ext.X, f) * max(ext.Y, f) * max(ext.Z, f)
	rho := float64(n) / vol
	e := sum.Scale(1 / float64(n))
	const alpha = 20.0
	base := med
	if !(base > 0) {
		base = math.Cbrt(vol / float64(n)) // points: about one a cell
	}
	// A floor keeps the integer coordinates of the bounds in range.
	floor := span / (1 << 19)
	best, bestCost := 0.0, math.Inf(1)
	for k := -8; k <= 16; k++ {
		c := max(base*math.Exp2(float64(k)/4), floor)
		cells := (e.X/c + 1) * (e.Y/c + 1) * (e.Z/c + 1)
		occ := rho * (c + e.X) * (c + e.Y) * (c + e.Z)
		if cost := cells * (alpha + occ); cost < bestCost {
			best, bestCost = c, cost
		}
	}
	if !(best > 0) {
		return 1
	}
	return best
}

func finite(v float64) float64 {
	if math.IsInf(v, 0) {
		return 0
	}
	return v
}

// renumber gives the present objects the slots 0..n-1 in the order of
// their lowest cells (the large and unplaced ones last), by a radix sort;
// it moves the cells' lists, the large list and the touched ones along
// (unless fresh: a rebuild places every object after).
func (p *Phase) renumber(fresh bool) {
	p.drift = 0
	var mn, mx [3]int32
	first := true
	for s := range p.obj {
		if p.idOf[s] < 0 || p.obj[s].state&sPresent == 0 || p.obj[s].state&sLarge != 0 {
			continue
		}
		l := p.ib[s].lo
		if first {
			mn, mx, first = l, l, false
		}
		for a := range 3 {
			mn[a], mx[a] = min(mn[a], l[a]), max(mx[a], l[a])
		}
	}
	bx := uint(bits.Len32(uint32(mx[0] - mn[0])))
	by := uint(bits.Len32(uint32(mx[1] - mn[1])))
	bz := uint(bits.Len32(uint32(mx[2] - mn[2])))
	last := uint64(1) << (bx + by + bz) // after every cell key
	p.keys = p.keys[:0]
	for s := range p.obj {
		if p.idOf[s] < 0 || p.obj[s].state&sPresent == 0 {
			continue
		}
		k := last
		if p.obj[s].state&sLarge == 0 {
			l := p.ib[s].lo
			k = uint64(l[2]-mn[2])<<(bx+by) | uint64(l[1]-mn[1])<<bx | uint64(l[0]-mn[0])
		}
		p.keys = append(p.keys, skey{k, int32(s)})
	}
	p.keys2 = slices.Grow(p.keys2[:0], len(p.keys))[:len(p.keys)]
	keys := radixSort(p.keys, p.keys2, last)

	// Permute the slots.
	n := len(keys)
	p.newOf = slices.Grow(p.newOf[:0], len(p.obj))[:len(p.obj)]
	for i := range p.newOf {
		p.newOf[i] = -1
	}
	p.obj2 = slices.Grow(p.obj2[:0], n)[:n]
	p.ib2 = slices.Grow(p.ib2[:0], n)[:n]
	p.idOf2 = slices.Grow(p.idOf2[:0], n)[:n]
	for i, k := range keys {
		p.newOf[k.slot] = int32(i)
		p.obj2[i] = p.obj[k.slot]
		p.ib2[i] = p.ib[k.slot]
		id := p.idOf[k.slot]
		p.idOf2[i] = id
		p.slotOf[id] = int32(i)
	}
	p.obj, p.obj2 = p.obj2, p.obj[:0]
	p.ib, p.ib2 = p.ib2, p.ib[:0]
	p.idOf, p.idOf2 = p.idOf2, p.idOf[:0]
	p.free = p.free[:0]
	clear(p.tbits)
	p.tbits = p.tbits[:(n+63)/64]
	t := p.touched[:0]
	for _, s := range p.touched {
		if ns := p.newOf[s]; ns >= 0 {
			t = append(t, ns)
			p.tbits[ns>>6] |= 1 << (ns & 63)
		}
	}
	p.touched = t
	if fresh {
		return
	}
	for _, l := range [][]int32{p.large, p.slarge} {
		for i := range l {
			l[i] = p.newOf[l[i]]
		}
	}
	for _, t := range []*table{&p.table, &p.stable} {
		for i := range t.slots {
			c := &t.slots[i]
			for j, s := range c.objs {
				c.objs[j] = p.newOf[s]
			}
			slices.Sort(c.objs)
		}
	}
}

// radixSort sorts s by key, keys at most max, with tmp as scratch of the
// same length, and returns the sorted slice (s or tmp).
func radixSort(s, tmp []skey, max uint64) []skey {
	const b = 11
	var count [1 << b]int
	for shift := uint(0); shift < 64 && max>>shift != 0; shift += b {
		clear(count[:])
		for _, e := range s {
			count[e.key>>shift&(1<<b-1)]++
		}
		sum := 0
		for i, c := range count {
			count[i] = sum
			sum += c
		}
		for _, e := range s {
			d := e.key >> shift & (1<<b - 1)
			tmp[count[d]] = e
			count[d]++
		}
		s, tmp = tmp, s
	}
	return s
}

// query reports the pairs of every touched, present object, in the order
// of the slots, so that one query finds the cells, lists and boxes of the
// next in the cache; then those of the large ones.
func (p *Phase) query(fn func(a, b int32) bool) {
	// The sweep's cost hardly depends on how many moved, the queries' is
	// proportional: they cross at about 60% on the benchmark scene.
	if m := p.countTouched(); p.mode == 2 || p.mode == 0 && m > 0 && 5*m >= 3*p.placed {
		p.sweep(fn)
		return
	}
	for w, word := range p.tbits {
		for word != 0 {
			s := int32(w<<6 + bits.TrailingZeros64(word))
			word &= word - 1
			if p.obj[s].state&(sPresent|sLarge) == sPresent && !p.query1(fn, s) {
				return
			}
		}
	}
	p.queryLarge(fn)
}

// queryLarge reports the pairs of the touched large objects: each moving
// one by a query of every object, the static ones together by one pass
// over the moving objects (so that no pair of two static objects is
// visited).
func (p *Phase) queryLarge(fn func(a, b int32) bool) {
	statics := false
	for _, s := range p.touched {
		switch p.obj[s].state & (sPresent | sLarge | sStatic) {
		case sPresent | sLarge:
			if !p.query1(fn, s) {
				return
			}
		case sPresent | sLarge | sStatic:
			statics = true
		}
	}
	if !statics {
		return
	}
	for j := range p.obj {
		oj := &p.obj[j]
		if oj.state&(sPresent|sStatic|sDone) != sPresent {
			continue
		}
		for _, s := range p.slarge {
			os := &p.obj[s]
			if os.state&sTouched == 0 {
				continue
			}
			p.visits++
			if broad.Overlaps(&os.box, &oj.box) && !p.report(fn, s, int32(j)) {
				return
			}
		}
	}
}

func (p *Phase) countTouched() int {
	m := 0
	for _, w := range p.tbits {
		m += bits.OnesCount64(w)
	}
	return m
}

// sweep reports the pairs when most objects moved: every cell of the
// moving objects once, when its first object (the lists are in ascending
// order) comes in the order of the slots, and in it every pair of two
// moving objects, and of a moving and a static one, once, reported only
// from the lowest cell the two share. The large objects that moved then
// query as usual.
func (p *Phase) sweep(fn func(a, b int32) bool) {
	for o := range int32(len(p.obj)) {
		oo := &p.obj[o]
		if oo.state&(sPlaced|sLarge) != sPlaced {
			continue
		}
		if oo.state&sInS == 0 {
			b := &p.ib[o]
			for z := b.lo[2]; z <= b.hi[2]; z++ {
				for y := b.lo[1]; y <= b.hi[1]; y++ {
					for x := b.lo[0]; x <= b.hi[0]; x++ {
						k := key(x, y, z)
						c := p.table.get(k).objs
						if c[0] != o {
							continue
						}
						var sc []int32
						if cs := p.stable.get(k); cs != nil {
							sc = cs.objs
						}
						for i, s := range c {
							if !p.sweepCell(fn, s, c[i+1:], x, y, z) || !p.sweepCell(fn, s, sc, x, y, z) {
								return
							}
						}
					}
				}
			}
		}
		// The pairs of a moved object and a large one that did not move
		// (those that moved find all theirs below).
		if oo.state&sTouched != 0 {
			ls := [2][]int32{p.large, p.slarge}
			if oo.state&sInS != 0 {
				ls[1] = nil
			}
			for _, l := range ls {
				for _, j := range l {
					oj := &p.obj[j]
					p.visits++
					if oj.state&sTouched != 0 || !broad.Overlaps(&oo.box, &oj.box) {
						continue
					}
					if !p.report(fn, o, j) {
						return
					}
				}
			}
		}
	}
	p.queryLarge(fn)
}

// sweepCell reports the pairs of slot s with the slots of l in the cell
// (x, y, z) whose lowest shared cell it is, at least one of each pair
// touched; it returns false if fn did.
func (p *Phase) sweepCell(fn func(a, b int32) bool, s int32, l []int32, x, y, z int32) bool {
	os := &p.obj[s]
	bs, ss := &os.box, os.state
	p.visits += int64(len(l))
	for _, t := range l {
		ot := &p.obj[t]
		bt := &ot.box
		if b2i(bs.Min.X <= bt.Max.X)&b2i(bt.Min.X <= bs.Max.X)&
			b2i(bs.Min.Y <= bt.Max.Y)&b2i(bt.Min.Y <= bs.Max.Y)&
			b2i(bs.Min.Z <= bt.Max.Z)&b2i(bt.Min.Z <= bs.Max.Z) == 0 {
			continue
		}
		if (ss|ot.state)&sTouched == 0 {
			continue
		}
		is, it := &p.ib[s], &p.ib[t]
		if max(is.lo[0], it.lo[0]) != x || max(is.lo[1], it.lo[1]) != y || max(is.lo[2], it.lo[2]) != z {
			continue
		}
		if !p.report(fn, s, t) {
			return false
		}
	}
	return true
}

// query1 reports the pairs of the object in slot o; it returns false if fn
// did. A static object reads only the moving objects.
func (p *Phase) query1(fn func(a, b int32) bool, o int32) bool {
	if p.qs++; p.qs == 0 {
		for i := range p.obj {
			p.obj[i].stamp = 0
		}
		p.qs = 1
	}
	qs := p.qs
	oo := &p.obj[o]
	oo.stamp = qs
	so := oo.state
	bo := &oo.box
	if so&sLarge != 0 {
		// A moving large object (the static ones go by queryLarge).
		for j := range p.obj {
			oj := &p.obj[j]
			if oj.state&(sPresent|sDone) != sPresent || int32(j) == o {
				continue
			}
			p.visits++
			if !broad.Overlaps(bo, &oj.box) {
				continue
			}
			if !p.report(fn, o, int32(j)) {
				return false
			}
		}
		oo.state |= sDone
		return true
	}
	tabs := [2]*table{&p.table, &p.stable}
	larges := [2][]int32{p.large, p.slarge}
	if so&sInS != 0 {
		tabs[1], larges[1] = nil, nil
	}
	b := &p.ib[o]
	for _, t := range tabs {
		if t == nil {
			continue
		}
		for z := b.lo[2]; z <= b.hi[2]; z++ {
			for y := b.lo[1]; y <= b.hi[1]; y++ {
				for x := b.lo[0]; x <= b.hi[0]; x++ {
					c := t.get(key(x, y, z))
					if c == nil {
						continue
					}
					p.visits += int64(len(c.objs))
					// Zachmann's query stamp skips an object met in an
					// earlier cell; it and the box test are computed
					// without branches, which would be mispredicted,
					// into one that is rarely taken.
					for _, j := range c.objs {
						oj := &p.obj[j]
						fresh := b2i(oj.stamp != qs)
						oj.stamp = qs
						bj := &oj.box
						if fresh&b2i(bo.Min.X <= bj.Max.X)&b2i(bj.Min.X <= bo.Max.X)&
							b2i(bo.Min.Y <= bj.Max.Y)&b2i(bj.Min.Y <= bo.Max.Y)&
							b2i(bo.Min.Z <= bj.Max.Z)&b2i(bj.Min.Z <= bo.Max.Z) == 0 {
							continue
						}
						if oj.state&sDone != 0 {
							continue
						}
						if !p.report(fn, o, j) {
							return false
						}
					}
				}
			}
		}
	}
	for _, l := range larges {
		for _, j := range l {
			oj := &p.obj[j]
			p.visits++
			if oj.state&sDone != 0 || !broad.Overlaps(bo, &oj.box) {
				continue
			}
			if !p.report(fn, o, j) {
				return false
			}
		}
	}
	oo.state |= sDone
	return true
}

// report calls fn with the ids of the objects in slots s and t, in order.
func (p *Phase) report(fn func(a, b int32) bool, s, t int32) bool {
	a, b := p.idOf[s], p.idOf[t]
	if a < b {
		return fn(a, b)
	}
	return fn(b, a)
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

var _ broad.Phase = (*Phase)(nil)

// Visits returns the number of candidate pairs the grid has visited (list
// entries read and boxes tested by its queries and sweeps): a measure of
// its work for tests (broadtest.Linear).
func (p *Phase) Visits() int64 { return p.visits }
