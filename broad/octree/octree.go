// Package octree is Zachmann's octree broad phase ("Exact and Fast
// Collision Detection", §5.4): a broad.Phase that keeps each object in the
// octants of a cube that its box covers, on the integer grid of the finest
// octants.
//
//	p := octree.New()
//	p.Add(0, box0, true) // static
//	p.Add(1, box1, false)
//	p.Pairs(func(a, b int32) bool { ...; return true })
//	p.Move(1, box1Moved)
//	p.Pairs(...) // the pairs of object 1 only
//
// # Structure
//
// The root cube is divided into 2^Depth cells a side. An object's box is
// turned into an integer box, the cells it touches, and inserted from the
// root: it is attached to an octant that lies completely inside its integer
// box, or that is at the maximum depth, and otherwise goes down into the
// children its box overlaps (the depth-3 decision on the octant's centre).
// Octant bounds are computed on the way down, never stored. Nodes live in
// flat arrays (a node's eight children are a block of eight consecutive
// indices, allocated when an insertion first needs them); each node has an
// object array and each object the list of octants it is attached to, so
// that it can be taken out without a search.
//
// Two objects whose closed boxes overlap share a cell, so one of them is
// attached at an ancestor of (or at) an octant of the other. The neighbour
// search of an object is the insertion traversal again, scanning the object
// array of every octant it visits, including the ancestors of the octants
// the object is attached to, and the whole subtree of an octant that lies
// inside its box. A query stamp per object removes the duplicates of
// objects met in several octants, and a pair of two moved objects is
// reported from the first searched. Every candidate is confirmed by the
// exact test on the float64 boxes (broad.Overlaps) before it is reported,
// so the pairs are exactly those of broad.Brute.
//
// Each octant lists its moving objects first and its static ones last: a
// static object's search, and the sweep for a static object, read only the
// moving ones, so that no pair of two static objects is visited.
//
// When a quarter of the objects or more moved, Pairs sweeps the whole tree
// once instead of searching around each (it costs about as much as the
// searches of a fifth of the objects): every object against those attached
// at the same octant and at its ancestors, a pair tested only at the
// octant that holds the lower corner of the intersection of the two
// integer boxes, so that it is met once without stamps.
//
// Objects are kept in slots numbered at each build along a Morton curve of
// their cells, so that objects near in space are near in memory.
//
// # Moves
//
// A move that leaves the integer box unchanged costs nothing but the
// search. A small box (at most 27 cells, before and after) moves by
// Zachmann's box difference: it leaves the octants the new box no longer
// covers, goes down from those it covers only in part (a coarse octant
// partly left: the ⚠ of the notes) and is inserted into the at most six
// boxes of cells it entered. Any other box is taken out of its octants and
// inserted again from the root: the box difference leaves a box attached
// to more octants than a fresh insertion would, which costs nothing for
// small boxes but fragments large ones as they move. BenchmarkMoveStrategy
// (10^4 boxes, all moving): the box difference alone was 6% faster than
// reinsertion alone on small boxes and 5% slower on a mix of small and
// large ones, with 17 octants per object against 11; the mix kept here was
// 2-3% faster than reinsertion on both.
//
// # The world bound
//
// The root cube is chosen in Pairs from the boxes present at the time
// (or fixed by Options.Bounds), and so is the depth: the finest cell is
// about the median object size (Options.CellSize), with at most about eight
// cells per object (Options.MaxDepth caps it). Objects leave every bound:
// integer coordinates are clamped to the root cube, so that a far object
// lands in the border octants, where the exact test still decides. When more
// than a quarter of the objects stick out of the root cube, or the number of
// objects has grown fourfold, or most of the objects are new, the next Pairs
// rebuilds the tree around the present boxes, in one pass.
package octree

import (
	"cmp"
	"math"
	"slices"

	"github.com/collide3d/collide/broad"
	"github.com/collide3d/collide/geom"
)

// Options are the knobs of an octree. The zero value gives good defaults.
type Options struct {
	// Bounds, when it has a positive volume, fixes the region of the root
	// cube: the cube with Bounds' lower corner and its largest side. The
	// tree is then never rebuilt for objects that stick out of it.
	// Otherwise the root cube is the bounding cube of the boxes present
	// when the tree is built.
	Bounds geom.AABB
	// Depth, when positive, fixes the number of levels below the root
	// (at most MaxLevels). Otherwise the depth is chosen at each build
	// from the number and the sizes of the objects.
	Depth int
	// MaxDepth caps the automatic depth; zero means DefaultMaxDepth.
	MaxDepth int
	// CellSize is the side of the finest cells the automatic depth aims
	// at, as a multiple of the median of the objects' largest sides; zero
	// means 1.
	CellSize float64
}

const (
	// DefaultMaxDepth is the cap on the automatic depth.
	DefaultMaxDepth = 10
	// MaxLevels is the largest depth an octree can have.
	MaxLevels = 20
)

// Object flags.
const (
	fPresent = 1 << iota
	fStatic
	fMoved    // added or moved since the last Pairs (in t.moved)
	fAttached // inserted in the tree, ib valid
	fDone     // during Pairs: its pairs have been reported
	fOut      // its box sticks out of the root cube
)

// object is the hot per-object state, read by every search.
type object struct {
	box   geom.AABB
	stamp uint32
	flags uint8
}

// inl is the number of objects a node holds in itself; the others go to an
// overflow array.
const inl = 5

// node is an octant: 32 bytes, so that a block of 8 siblings is 4 cache
// lines and a node with few objects costs one.
type node struct {
	child int32 // first of the 8 children, 0 if none
	n     int32 // objects attached
	obj   [inl]int32
	more  int32 // 1 + index of the overflow array in Tree.more, 0 if none
}

// ibox is a box of cells, bounds included.
type ibox struct{ lo, hi [3]int32 }

// attach records one octant an object is attached to.
type attach struct {
	node int32
	lvl  int32
	o    [3]int32 // lower corner, in cells
}

// Tree is an octree broad phase; it implements broad.Phase. The zero value
// is not ready: use New or NewWith. A Tree is not safe for concurrent use.
type Tree struct {
	opt Options

	slot []int32 // each id's slot, null if absent

	// By slot: objects are numbered at each build in the order of their
	// cells along a Morton curve, so that objects near in space are near
	// in memory.
	ids   []int32 // the object in each slot, null if free
	obj   []object
	ib    []ibox     // integer box of each attached object
	att   [][]attach // octants each object is attached to
	free  []int32    // free slots
	moved []int32    // slots marked fMoved
	n     int        // present objects
	fresh int        // present objects not attached

	// The tree.
	built  bool
	nBuild int       // objects at the last build
	origin geom.Vec3 // lower corner of the root cube
	side   float64   // its side
	scale  float64   // cells per unit length
	depth  int
	res    int32 // cells a side, 1 << depth
	nodes  []node
	nst    []int32   // by node: its static objects, the last of its objects
	more   [][]int32 // overflow object arrays, by node.more-1
	nmore  int       // overflow arrays in use
	out    int       // attached objects with fOut

	// Pairs' state.
	query   uint32
	fn      func(a, b int32) bool
	stopped bool
	scratch []float64
	part    []attach
	anc     []int32 // sweep: the octants with objects on the path from the root
	keys    []keyed // rebuild: the present slots by Morton code
	perm    []int32 // rebuild: old slot to new
	idsTmp  []int32
	objTmp  []object
	attTmp  [][]attach

	visits int64 // candidate pairs visited (tests)

	moves int // movesHybrid, or the tests' movesReinsert or movesDiff
	force int // forceSearch or forceSweep: the tests' choice of sweepAll
}

var _ broad.Phase = (*Tree)(nil)

// New returns an empty octree with the default options.
func New() *Tree { return NewWith(Options{}) }

// NewWith returns an empty octree with options o.
func NewWith(o Options) *Tree {
	if o.Depth > MaxLevels {
		o.Depth = MaxLevels
	}
	if o.MaxDepth <= 0 {
		o.MaxDepth = DefaultMaxDepth
	}
	o.MaxDepth = min(o.MaxDepth, MaxLevels)
	if !(o.CellSize > 0) {
		o.CellSize = 1
	}
	return &Tree{opt: o}
}

// Len implements broad.Phase.
func (t *Tree) Len() int { return t.n }

// Depth returns the number of levels below the root of the tree as last
// built (0 before the first Pairs).
func (t *Tree) Depth() int { return t.depth }

// Bounds returns the root cube of the tree as last built.
func (t *Tree) Bounds() geom.AABB {
	return geom.AABB{Min: t.origin, Max: t.origin.Add(geom.V(t.side, t.side, t.side))}
}

// null is no slot.
const null = -1

// slotOf returns the slot of id, giving it one if it has none.
func (t *Tree) slotOf(id int32) int32 {
	if id < 0 {
		panic("octree: negative object id")
	}
	if int(id) >= len(t.slot) {
		m := len(t.slot)
		t.slot = grow(t.slot, int(id)+1)
		for i := m; i < len(t.slot); i++ {
			t.slot[i] = null
		}
	}
	if s := t.slot[id]; s != null {
		return s
	}
	var s int32
	if k := len(t.free); k > 0 {
		// A free slot keeps its fMoved mark, if any: it is in t.moved.
		s = t.free[k-1]
		t.free = t.free[:k-1]
	} else {
		s = int32(len(t.obj))
		n := len(t.obj) + 1
		t.ids = grow(t.ids, n)
		t.obj = grow(t.obj, n)
		t.ib = grow(t.ib, n)
		t.att = grow(t.att, n)
	}
	t.ids[s] = id
	t.slot[id] = s
	return s
}

// present returns the slot of id, null if absent.
func (t *Tree) present(id int32) int32 {
	if id < 0 || int(id) >= len(t.slot) {
		return null
	}
	return t.slot[id]
}

// grow returns s extended with zero values to length n.
func grow[T any](s []T, n int) []T {
	m := len(s)
	s = slices.Grow(s, n-m)[:n]
	clear(s[m:])
	return s
}

// Add implements broad.Phase.
func (t *Tree) Add(id int32, b geom.AABB, static bool) {
	id = t.slotOf(id)
	o := &t.obj[id]
	if o.flags&fPresent == 0 {
		t.n++
		if o.flags&fAttached == 0 {
			t.fresh++
		}
	}
	if o.flags&fAttached != 0 && (o.flags&fStatic != 0) != static {
		// Its octants hold it among the objects of its old kind.
		t.detachAll(id)
		t.fresh++
	}
	o.flags |= fPresent
	o.flags &^= fStatic
	if static {
		o.flags |= fStatic
	}
	o.box = b
	t.mark(id)
}

func (t *Tree) mark(id int32) {
	o := &t.obj[id]
	if o.flags&fMoved == 0 {
		o.flags |= fMoved
		t.moved = append(t.moved, id)
	}
}

// Move implements broad.Phase.
func (t *Tree) Move(id int32, b geom.AABB) {
	if id = t.present(id); id == null {
		panic("octree: Move of an absent object")
	}
	o := &t.obj[id]
	o.box = b
	t.mark(id)
}

// Remove implements broad.Phase: the object is taken out of its octants at
// once.
func (t *Tree) Remove(id int32) {
	s := t.present(id)
	if s == null {
		return
	}
	o := &t.obj[s]
	t.n--
	if o.flags&fAttached != 0 {
		t.detachAll(s)
	} else {
		t.fresh--
	}
	o.flags &= fMoved
	t.ids[s] = null
	t.slot[id] = null
	t.free = append(t.free, s)
}

// detachAll takes object id out of every octant.
func (t *Tree) detachAll(id int32) {
	for _, a := range t.att[id] {
		t.unlink(a.node, id)
	}
	t.att[id] = t.att[id][:0]
	o := &t.obj[id]
	if o.flags&fOut != 0 {
		t.out--
	}
	o.flags &^= fAttached | fOut
}

// objects returns the objects attached to node: those it holds in itself
// and those of its overflow array.
func (t *Tree) objects(node int32) (a, b []int32) {
	nd := &t.nodes[node]
	if nd.n <= inl {
		return nd.obj[:nd.n], nil
	}
	return nd.obj[:], t.more[nd.more-1][:nd.n-inl]
}

// at returns the place of the i-th object of node.
func (t *Tree) at(node int32, i int32) *int32 {
	if i < inl {
		return &t.nodes[node].obj[i]
	}
	return &t.more[t.nodes[node].more-1][i-inl]
}

// movers returns the moving objects attached to node: the first of its
// objects, the static ones coming last.
func (t *Tree) movers(node int32) (a, b []int32) {
	nd := &t.nodes[node]
	m := nd.n - t.nst[node]
	if m <= inl {
		return nd.obj[:m], nil
	}
	return nd.obj[:], t.more[nd.more-1][:m-inl]
}

// link attaches id to node, among its moving or its static objects.
func (t *Tree) link(node, id int32) {
	t.append(node, id)
	n := t.nodes[node].n
	if t.obj[id].flags&fStatic != 0 {
		t.nst[node]++
	} else if ns := t.nst[node]; ns > 0 {
		// Before the static objects.
		p, q := t.at(node, n-1), t.at(node, n-1-ns)
		*p, *q = *q, *p
	}
}

// append adds id after the objects of node.
func (t *Tree) append(node, id int32) {
	nd := &t.nodes[node]
	if nd.n < inl {
		nd.obj[nd.n] = id
		nd.n++
		return
	}
	if nd.more == 0 {
		if t.nmore == len(t.more) {
			t.more = append(t.more, nil)
		}
		t.more[t.nmore] = t.more[t.nmore][:0]
		t.nmore++
		nd.more = int32(t.nmore)
	}
	m := &t.more[nd.more-1]
	*m = append((*m)[:nd.n-inl], id)
	nd.n++
}

// unlink removes id from the objects of node; the overflow array stays
// with the node, for the next time it fills.
func (t *Tree) unlink(node, id int32) {
	nd := &t.nodes[node]
	n, ns := nd.n, t.nst[node]
	i := int32(0)
	for i < n && *t.at(node, i) != id {
		i++
	}
	if i == n {
		panic("octree: object missing from an octant it is attached to")
	}
	if m := n - ns; i < m {
		// A moving object: the last moving one fills its place, the
		// last static one that of the last moving one.
		*t.at(node, i) = *t.at(node, m-1)
		if ns > 0 {
			*t.at(node, m-1) = *t.at(node, n-1)
		}
	} else {
		*t.at(node, i) = *t.at(node, n-1)
		t.nst[node]--
	}
	nd.n--
}

// Pairs implements broad.Phase.
func (t *Tree) Pairs(fn func(a, b int32) bool) {
	if len(t.moved) > len(t.obj)/32 {
		// Many moved: take them in the order of their slots, that of
		// space and memory.
		t.moved = t.moved[:0]
		for s := range t.obj {
			if t.obj[s].flags&fMoved != 0 {
				t.moved = append(t.moved, int32(s))
			}
		}
	}
	t.update()
	moved := t.moved
	t.moved = t.moved[:0]
	t.fn = fn
	t.stopped = false
	if t.sweepAll(len(moved)) {
		// Many moved: one sweep over the tree.
		t.anc = t.anc[:0]
		t.sweep(0, 0, [3]int32{})
	} else {
		for _, a := range moved {
			o := &t.obj[a]
			if o.flags&fPresent == 0 || t.stopped {
				continue
			}
			t.search(a)
			o.flags |= fDone
		}
	}
	t.fn = nil
	for _, a := range moved {
		t.obj[a].flags &^= fMoved | fDone
	}
}

// update brings the tree up to date with the recorded changes, rebuilding
// it when that is due.
func (t *Tree) update() {
	if t.rebuildDue() {
		t.rebuild()
		return
	}
	for _, id := range t.moved {
		o := &t.obj[id]
		if o.flags&fPresent == 0 {
			continue
		}
		nb := t.intBox(&o.box)
		if o.flags&fAttached == 0 {
			t.fresh--
			t.insertObj(id, nb)
			continue
		}
		if nb == t.ib[id] {
			t.setOut(id)
			continue
		}
		if t.byDiff(&t.ib[id], &nb) {
			t.moveDiff(id, nb)
			t.setOut(id)
		} else {
			t.detachAll(id)
			t.insertObj(id, nb)
		}
	}
	if t.opt.Bounds.Volume() <= 0 && t.out > t.n/4+16 {
		t.rebuild()
	}
}

func (t *Tree) rebuildDue() bool {
	switch {
	case t.n == 0:
		return false
	case !t.built:
		return true
	case t.fresh > 64 && t.fresh >= t.n/2:
		return true
	case t.opt.Depth <= 0 && t.n > 4*t.nBuild+64:
		return true
	}
	return false
}

// setOut keeps flag fOut and the count t.out of an attached object.
func (t *Tree) setOut(id int32) {
	o := &t.obj[id]
	ib := &t.ib[id]
	out := false
	if m := t.res - 1; ib.lo[0] == 0 || ib.lo[1] == 0 || ib.lo[2] == 0 || ib.hi[0] == m || ib.hi[1] == m || ib.hi[2] == m {
		// In the border cells: maybe out.
		out = !t.Bounds().ContainsBox(o.box)
	}
	if out != (o.flags&fOut != 0) {
		if out {
			o.flags |= fOut
			t.out++
		} else {
			o.flags &^= fOut
			t.out--
		}
	}
}

// insertObj attaches object id, not attached, with integer box nb.
func (t *Tree) insertObj(id int32, nb ibox) {
	t.ib[id] = nb
	t.obj[id].flags |= fAttached
	t.setOut(id)
	t.insert(0, 0, [3]int32{}, &nb, id)
}

// rebuild chooses the root cube and the depth from the present boxes and
// inserts every present object into an empty tree.
func (t *Tree) rebuild() {
	t.nmore = 0
	t.out = 0
	// Octant arrays of 8 from one allocation for the objects without.
	var pool []attach
	for id := range t.obj {
		if cap(t.att[id]) == 0 && t.obj[id].flags&fPresent != 0 {
			if len(pool) == 0 {
				pool = make([]attach, 8*(len(t.obj)-id))
			}
			t.att[id], pool = pool[:0:8], pool[8:]
		}
		t.att[id] = t.att[id][:0]
		t.obj[id].flags &^= fAttached | fOut
	}
	t.fresh = t.n
	t.chooseGrid()
	t.built = true
	t.nBuild = t.n
	t.renumber()
	// Room for the whole backbone (at most 9.2 nodes an object at the
	// automatic depth), as Zachmann allocates it at the start: nodes are
	// made as objects reach new cells, without growing the array.
	room := 16*t.n + 1024
	if t.depth < 8 {
		room = min(room, (1<<(3*(t.depth+1))-1)/7)
	}
	t.nodes = slices.Grow(t.nodes[:0], room)
	t.nst = slices.Grow(t.nst[:0], room)
	t.newNode()
	for id := range int32(len(t.obj)) {
		o := &t.obj[id]
		if o.flags&fPresent != 0 {
			t.fresh--
			t.insertObj(id, t.intBox(&o.box))
		}
	}
}

// keyed is a slot and its Morton code.
type keyed struct {
	key  uint64
	slot int32
}

// renumber gives the present objects the slots 0 to n-1 in the order of
// the Morton codes of their boxes' centre cells, and drops the free
// slots. The objects are not attached.
func (t *Tree) renumber() {
	keys := t.keys[:0]
	for s := range int32(len(t.obj)) {
		if t.obj[s].flags&fPresent == 0 {
			continue
		}
		b := t.intBox(&t.obj[s].box)
		var k uint64
		for bit := t.depth - 1; bit >= 0; bit-- {
			for ax := range 3 {
				c := (b.lo[ax] + b.hi[ax]) / 2
				k = k<<1 | uint64(c>>bit&1)
			}
		}
		keys = append(keys, keyed{k, s})
	}
	slices.SortFunc(keys, func(a, b keyed) int { return cmp.Compare(a.key, b.key) })
	t.keys = keys[:0]
	perm := grow(t.perm[:0], len(t.obj))
	for i := range perm {
		perm[i] = null
	}
	for i, k := range keys {
		perm[k.slot] = int32(i)
	}
	t.perm = perm
	t.ids, t.idsTmp = permute(t.ids, perm, t.idsTmp), t.ids
	t.obj, t.objTmp = permute(t.obj, perm, t.objTmp), t.obj
	t.att, t.attTmp = permute(t.att, perm, t.attTmp), t.att
	t.ib = t.ib[:len(keys)]
	for s, id := range t.ids {
		t.slot[id] = int32(s)
	}
	t.free = t.free[:0]
	moved := t.moved[:0]
	for _, s := range t.moved {
		if p := perm[s]; p != null {
			moved = append(moved, p)
		}
	}
	t.moved = moved
}

// permute returns src reordered by perm in dst's array: src[i] goes to
// [perm[i]], and entries with perm[i] == null are dropped.
func permute[T any](src []T, perm []int32, dst []T) []T {
	n := 0
	for _, p := range perm {
		if p != null {
			n++
		}
	}
	dst = grow(dst[:0], n)
	for i, p := range perm {
		if p != null {
			dst[p] = src[i]
		}
	}
	return dst
}

// chooseGrid sets the root cube and the depth.
func (t *Tree) chooseGrid() {
	bounds := t.opt.Bounds
	auto := bounds.Volume() <= 0
	if auto {
		bounds = geom.EmptyAABB()
		for i := range t.obj {
			if t.obj[i].flags&fPresent != 0 {
				bounds = bounds.Union(t.obj[i].box)
			}
		}
	}
	s := bounds.Size()
	side := max(s.X, s.Y, s.Z)
	if auto {
		side *= 1 + 1.0/16 // room for small moves at the border
	}
	if !(side > 0) || math.IsInf(side, 0) {
		side = 1
	}
	t.side = side
	t.origin = bounds.Min
	if auto {
		c := bounds.Center()
		h := side / 2
		t.origin = c.Sub(geom.V(h, h, h))
	}
	if math.IsInf(t.origin.X, 0) || math.IsInf(t.origin.Y, 0) || math.IsInf(t.origin.Z, 0) || math.IsNaN(t.origin.X+t.origin.Y+t.origin.Z) {
		t.origin = geom.Vec3{}
	}
	d := t.opt.Depth
	if d <= 0 {
		d = t.autoDepth()
	}
	t.depth = d
	t.res = 1 << d
	t.scale = float64(t.res) / t.side
	if math.IsInf(t.scale, 0) || !(t.scale > 0) {
		t.depth, t.res, t.scale = 0, 1, 1
	}
}

// autoDepth is the depth whose finest cells are about CellSize times the
// median largest side of the objects, with at most 8n cells.
func (t *Tree) autoDepth() int {
	sz := t.scratch[:0]
	for i := range t.obj {
		if t.obj[i].flags&fPresent != 0 {
			s := t.obj[i].box.Size()
			sz = append(sz, max(s.X, s.Y, s.Z))
		}
	}
	t.scratch = sz[:0]
	if len(sz) == 0 {
		return 0
	}
	slices.Sort(sz)
	med := sz[len(sz)/2] * t.opt.CellSize
	d := t.opt.MaxDepth
	if med > 0 {
		d = min(d, max(0, int(math.Round(math.Log2(t.side/med)))))
	}
	// 8^d <= 8n
	for d > 0 && 3*(d-1) > bitsLen(len(sz))-1 {
		d--
	}
	return d
}

func bitsLen(n int) int {
	l := 0
	for n > 0 {
		l++
		n >>= 1
	}
	return l
}

// cell returns the integer coordinate of x on an axis with lower end o,
// clamped to the root cube: a monotone function of x, so that closed boxes
// that overlap have integer boxes that overlap.
func (t *Tree) cell(x, o float64) int32 {
	if t.depth == 0 {
		return 0
	}
	f := (x - o) * t.scale
	if !(f >= 0) {
		return 0
	}
	if f >= float64(t.res) {
		return t.res - 1
	}
	return int32(f)
}

func (t *Tree) intBox(b *geom.AABB) ibox {
	return ibox{
		lo: [3]int32{t.cell(b.Min.X, t.origin.X), t.cell(b.Min.Y, t.origin.Y), t.cell(b.Min.Z, t.origin.Z)},
		hi: [3]int32{t.cell(b.Max.X, t.origin.X), t.cell(b.Max.Y, t.origin.Y), t.cell(b.Max.Z, t.origin.Z)},
	}
}

// newNode appends one node without children and objects.
func (t *Tree) newNode() int32 {
	t.nodes = append(t.nodes, node{})
	t.nst = append(t.nst, 0)
	return int32(len(t.nodes) - 1)
}

// children returns the first of node's 8 children, making them if needed.
func (t *Tree) children(node int32) int32 {
	c := t.nodes[node].child
	if c == 0 {
		c = t.newNode()
		for range 7 {
			t.newNode()
		}
		t.nodes[node].child = c
	}
	return c
}

// inside reports whether the octant with corner o and size cells a side
// lies in b.
func inside(o [3]int32, size int32, b *ibox) bool {
	return b.lo[0] <= o[0] && o[0]+size-1 <= b.hi[0] &&
		b.lo[1] <= o[1] && o[1]+size-1 <= b.hi[1] &&
		b.lo[2] <= o[2] && o[2]+size-1 <= b.hi[2]
}

// halves returns which halves of an octant split at m the interval
// [lo, hi] meets: bit 0 the low half, bit 1 the high half.
func halves(lo, hi, m int32) int {
	h := 0
	if lo < m {
		h = 1
	}
	if hi >= m {
		h |= 2
	}
	return h
}

// insert attaches id, with box b, under node (level lvl, corner o): to the
// node when it lies in b or is a finest cell, else to the children b
// meets.
func (t *Tree) insert(node int32, lvl int, o [3]int32, b *ibox, id int32) {
	size := t.res >> lvl
	if lvl == t.depth || inside(o, size, b) {
		t.link(node, id)
		t.att[id] = append(t.att[id], attach{node: node, lvl: int32(lvl), o: o})
		return
	}
	c := t.children(node)
	h := size >> 1
	xs := halves(b.lo[0], b.hi[0], o[0]+h)
	ys := halves(b.lo[1], b.hi[1], o[1]+h)
	zs := halves(b.lo[2], b.hi[2], o[2]+h)
	for ix := range int32(2) {
		if xs>>ix&1 == 0 {
			continue
		}
		for iy := range int32(2) {
			if ys>>iy&1 == 0 {
				continue
			}
			for iz := range int32(2) {
				if zs>>iz&1 == 0 {
					continue
				}
				t.insert(c+(ix<<2|iy<<1|iz), lvl+1, [3]int32{o[0] + ix*h, o[1] + iy*h, o[2] + iz*h}, b, id)
			}
		}
	}
}

// Values of Tree.moves.
const (
	movesHybrid   = iota // byDiff decides
	movesReinsert        // always out and in again
	movesDiff            // always by the box difference
)

// diffCells is the largest integer box, in cells, that moves by the box
// difference.
const diffCells = 27

// byDiff reports whether an object moves from integer box ob to nb by the
// box difference rather than out of every octant and in again from the
// root: when both boxes have at most diffCells cells. The
// box difference does less work but leaves an object attached to more
// octants than a fresh insertion would (the cells of a new slab are not
// merged with those kept into coarser octants): for small boxes that costs
// nothing, but boxes attached at coarse octants fragment as they move and
// the searches slow down (see the package doc).
func (t *Tree) byDiff(ob, nb *ibox) bool {
	switch t.moves {
	case movesReinsert:
		return false
	case movesDiff:
		return true
	}
	return cellCount(ob) <= diffCells && cellCount(nb) <= diffCells
}

// cellCount returns the number of cells of b.
func cellCount(b *ibox) int64 {
	n := int64(1)
	for ax := range 3 {
		n *= int64(b.hi[ax]-b.lo[ax]) + 1
	}
	return n
}

// moveDiff moves attached object id to integer box nb by Zachmann's box
// difference: it leaves the octants that nb no longer covers, goes down
// from the octants nb now covers only in part (the coarse-octant case),
// and inserts the cells of nb that the old box lacked, at most 6 boxes.
func (t *Tree) moveDiff(id int32, nb ibox) {
	ob := t.ib[id]
	t.ib[id] = nb
	if !overlapI(&ob, &nb) {
		t.detachAll(id)
		t.insertObj(id, nb)
		return
	}
	att := t.att[id]
	keep := att[:0]
	part := t.part[:0]
	for _, a := range att {
		size := t.res >> a.lvl
		switch {
		case inside(a.o, size, &nb):
			keep = append(keep, a)
		case overlapOct(a.o, size, &nb):
			t.unlink(a.node, id)
			part = append(part, a)
		default:
			t.unlink(a.node, id)
		}
	}
	t.att[id] = keep
	for _, a := range part {
		t.insert(a.node, int(a.lvl), a.o, &nb, id)
	}
	t.part = part[:0]
	// The entering boxes: slabs of nb outside ob, x first, then y and z
	// over the part of nb inside ob on the axes before.
	c := nb
	for ax := range 3 {
		if c.lo[ax] < ob.lo[ax] {
			e := c
			e.hi[ax] = ob.lo[ax] - 1
			t.insert(0, 0, [3]int32{}, &e, id)
			c.lo[ax] = ob.lo[ax]
		}
		if c.hi[ax] > ob.hi[ax] {
			e := c
			e.lo[ax] = ob.hi[ax] + 1
			t.insert(0, 0, [3]int32{}, &e, id)
			c.hi[ax] = ob.hi[ax]
		}
	}
}

func overlapI(a, b *ibox) bool {
	return a.lo[0] <= b.hi[0] && b.lo[0] <= a.hi[0] &&
		a.lo[1] <= b.hi[1] && b.lo[1] <= a.hi[1] &&
		a.lo[2] <= b.hi[2] && b.lo[2] <= a.hi[2]
}

func overlapOct(o [3]int32, size int32, b *ibox) bool {
	return b.lo[0] <= o[0]+size-1 && o[0] <= b.hi[0] &&
		b.lo[1] <= o[1]+size-1 && o[1] <= b.hi[1] &&
		b.lo[2] <= o[2]+size-1 && o[2] <= b.hi[2]
}

// sweepAll reports whether Pairs sweeps the whole tree for m moved objects
// rather than searching around each: a sweep costs about as much as
// searches for a fifth of the objects (BenchmarkPairs).
func (t *Tree) sweepAll(m int) bool {
	if t.force != 0 {
		return t.force == forceSweep
	}
	return m >= t.n/4
}

// Values of Tree.force, for the tests.
const (
	forceSearch = 1
	forceSweep  = 2
)

// sweep reports the pairs with a moved object among the objects attached
// at node (level lvl, corner o) and between them and those attached at its
// ancestors, t.anc. Two objects whose integer boxes overlap share the cell
// c at the lower corner of the intersection of their boxes, and one is
// attached at an ancestor of (or at) the octant of the other that holds c:
// the pair is tested there only, where, both boxes covering the octant, c
// is the octant's lower corner. It returns false once the callback has
// asked to stop.
func (t *Tree) sweep(node int32, lvl int, o [3]int32) bool {
	nd := &t.nodes[node]
	if nd.n > 0 {
		// The moving objects come first: a static one meets only the
		// moving ones, here and at the ancestors, so that no pair of
		// two static objects is visited.
		x, y := t.objects(node)
		mx, my := t.movers(node)
		for i, a := range mx {
			if !t.sweepPairs(a, x[i+1:], o) || !t.sweepPairs(a, y, o) {
				return false
			}
		}
		for i, a := range my {
			if !t.sweepPairs(a, y[i+1:], o) {
				return false
			}
		}
		for _, m := range t.anc {
			p, q := t.objects(m)
			mp, mq := t.movers(m)
			for _, xs := range [2][]int32{x, y} {
				for _, a := range xs {
					pp, qq := p, q
					if t.obj[a].flags&fStatic != 0 {
						pp, qq = mp, mq
					}
					if !t.sweepPairs(a, pp, o) || !t.sweepPairs(a, qq, o) {
						return false
					}
				}
			}
		}
	}
	if c := nd.child; c != 0 {
		if nd.n > 0 {
			t.anc = append(t.anc, node)
		}
		h := (t.res >> lvl) >> 1
		for k := range int32(8) {
			if !t.sweep(c+k, lvl+1, [3]int32{o[0] + k>>2*h, o[1] + k>>1&1*h, o[2] + k&1*h}) {
				return false
			}
		}
		if nd.n > 0 {
			t.anc = t.anc[:len(t.anc)-1]
		}
	}
	return true
}

// sweepPairs is sweep on object a, attached at the octant with corner o,
// and the objects bs attached at the octant or its ancestors.
func (t *Tree) sweepPairs(a int32, bs []int32, o [3]int32) bool {
	fa := t.obj[a].flags
	la := &t.ib[a].lo
	t.visits += int64(len(bs))
	for _, b := range bs {
		fb := t.obj[b].flags
		if (fa|fb)&fMoved == 0 || fa&fb&fStatic != 0 {
			continue
		}
		lb := &t.ib[b].lo
		if max(la[0], lb[0]) != o[0] || max(la[1], lb[1]) != o[1] || max(la[2], lb[2]) != o[2] {
			continue
		}
		if !broad.Overlaps(&t.obj[a].box, &t.obj[b].box) {
			continue
		}
		lo, hi := t.ids[a], t.ids[b]
		if hi < lo {
			lo, hi = hi, lo
		}
		if !t.fn(lo, hi) {
			return false
		}
	}
	return true
}

// search reports the pairs of moved object a: it walks the insertion
// traversal of a's integer box, scanning the object arrays on the way.
func (t *Tree) search(a int32) {
	t.query++
	if t.query == 0 {
		for i := range t.obj {
			t.obj[i].stamp = 0
		}
		t.query = 1
	}
	t.obj[a].stamp = t.query
	b := t.intBox(&t.obj[a].box)
	t.visit(0, 0, [3]int32{}, &b, a)
}

// visit scans node (level lvl, corner o) and goes on into the children
// that b meets, or into the whole subtree when the node lies in b.
func (t *Tree) visit(node int32, lvl int, o [3]int32, b *ibox, a int32) {
	if !t.scan(node, a) {
		return
	}
	c := t.nodes[node].child
	if c == 0 {
		return
	}
	size := t.res >> lvl
	if inside(o, size, b) {
		t.visitAll(c, a)
		return
	}
	h := size >> 1
	xs := halves(b.lo[0], b.hi[0], o[0]+h)
	ys := halves(b.lo[1], b.hi[1], o[1]+h)
	zs := halves(b.lo[2], b.hi[2], o[2]+h)
	for ix := range int32(2) {
		if xs>>ix&1 == 0 {
			continue
		}
		for iy := range int32(2) {
			if ys>>iy&1 == 0 {
				continue
			}
			for iz := range int32(2) {
				if zs>>iz&1 == 0 {
					continue
				}
				t.visit(c+(ix<<2|iy<<1|iz), lvl+1, [3]int32{o[0] + ix*h, o[1] + iy*h, o[2] + iz*h}, b, a)
			}
		}
	}
}

// visitAll scans the 8 nodes from c on and their subtrees.
func (t *Tree) visitAll(c, a int32) {
	for n := c; n < c+8; n++ {
		if !t.scan(n, a) {
			return
		}
		if k := t.nodes[n].child; k != 0 {
			t.visitAll(k, a)
		}
	}
}

// scan tests a against the objects of node not met yet in this search,
// reporting those that overlap; it returns false once the callback has
// asked to stop.
func (t *Tree) scan(node, a int32) bool {
	if t.stopped {
		return false
	}
	q := t.query
	oa := &t.obj[a]
	ba := oa.box
	st := oa.flags & fStatic
	nd := &t.nodes[node]
	if nd.n == 0 {
		return true
	}
	x, y := t.objects(node)
	if st != 0 {
		// A static object meets the moving ones only.
		x, y = t.movers(node)
	}
	if !t.scanObjs(x, a, &ba, st, q) {
		return false
	}
	return t.scanObjs(y, a, &ba, st, q)
}

// scanObjs is scan on one part of a node's objects.
func (t *Tree) scanObjs(objs []int32, a int32, ba *geom.AABB, st uint8, q uint32) bool {
	t.visits += int64(len(objs))
	for _, b := range objs {
		ob := &t.obj[b]
		if ob.stamp == q {
			continue
		}
		ob.stamp = q
		if ob.flags&fDone != 0 || ob.flags&st != 0 {
			continue
		}
		if !broad.Overlaps(ba, &ob.box) {
			continue
		}
		lo, hi := t.ids[a], t.ids[b]
		if hi < lo {
			lo, hi = hi, lo
		}
		if !t.fn(lo, hi) {
			t.stopped = true
			return false
		}
	}
	return true
}

// Visits returns the number of candidate pairs the tree has visited
// (objects met by its searches and sweeps): a measure of its work for
// tests (broadtest.Linear).
func (t *Tree) Visits() int64 { return t.visits }
