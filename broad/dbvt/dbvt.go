// Package dbvt is a broad phase on a dynamic AABB tree with fattened boxes,
// the kind of Box2D's b2DynamicTree and Bullet's btDbvt: a broad.Phase
// whose cost per step is in the objects that moved, not in all of them.
//
//	p := dbvt.New()
//	p.Add(0, box0, true) // static
//	p.Add(1, box1, false)
//	p.Pairs(func(a, b int32) bool { ...; return true })
//	p.Move(1, box1Moved)
//	p.Pairs(...) // the pairs of object 1 only
//
// # Structure
//
// Each object has a leaf in a binary tree of boxes kept in a flat array of
// 40-byte nodes (indices, not pointers, boxes in float32 rounded outwards).
// A leaf holds the object's fat box: its box grown on every side by
// Options.Margin times its largest side (static objects get no margin). A
// move that keeps the box inside the fat box changes nothing in the tree;
// a move out of it, or one that leaves the fat box much too large, gives
// the leaf a new fat box and moves it: out of the tree and in again from
// the lowest ancestor of its old place whose box holds the new one (Bullet's
// update with look-ahead), down by the surface-area heuristic, then up,
// refitting boxes and rotating where two children's heights differ by more
// than one (Box2D's insertion and balance) as far as anything changes.
// When many objects arrive at once (a bulk insertion of 10^5 objects before
// one Pairs, or more than Options.RebuildFraction of the objects at one
// step) the whole tree is built again top down instead, by a binned
// surface-area heuristic, nodes in depth-first order, and the objects are
// numbered again in the order of the leaves, so that objects near in space
// are near in memory.
//
// # Pairs
//
// The moving objects' leaves and the static objects' are in two trees: a
// static object's query reads the moving tree only, and a bulk insertion
// pairs the moving tree with itself and with the static one, never the
// static one with itself, so that static objects stacked on each other
// cost nothing among themselves.
//
// The tree keeps, for each object, the list of the objects whose fat boxes
// overlap its own and which are not both static: Bullet's overlapping-pair
// cache, in flat per-object arrays. It changes only where a fat box
// changed: a moved leaf queries the tree with its new fat box, and its old
// entries go; a bulk insertion fills the cache with one traversal of the
// tree against itself rather than one query per object. Pairs then
// reports, for each object added or moved, the cached partners whose exact
// boxes overlap its exact box, by the exact test on the float64 boxes (the
// comparisons of broad.Overlaps), so that the pairs are exactly those of
// broad.Brute: every box lies in its fat box, so no pair is missed. Each
// list holds the partners numbered above the object first: a moved object
// reports those, and those numbered below that did not move, so that a
// pair of two moved objects is reported once.
//
// Querying the tree with each moved object's box instead of keeping the
// cache costs a traversal of some 60 nodes per moved object: at 10^5
// objects, all moving, the queries alone took 52 ms a step where a whole
// step with the cache took 7 (BenchmarkNoCache, BenchmarkPairs). The
// cache's price is the memory of the lists, about 3 partners per object at
// the default margin.
package dbvt

import (
	"slices"

	"github.com/collide3d/collide/broad"
	"github.com/collide3d/collide/geom"
)

// Options are the knobs of a tree. The zero value gives good defaults.
type Options struct {
	// Margin is the room a fat box leaves around an object's box on every
	// side, as a multiple of the box's largest side: more room means fewer
	// updates of the tree and more cached partners to test. Zero means
	// DefaultMargin; a negative value means no room (every move updates
	// the tree).
	Margin float64
	// RebuildFraction: when the objects to insert at one call of Pairs
	// (new, or moved out of their fat boxes) are at least this fraction of
	// all the objects, the tree is built again top down rather than by
	// one insertion each. Zero means DefaultRebuildFraction, where the two
	// took about the same time at 10^5 objects (80 ms a step).
	RebuildFraction float64
}

const (
	// DefaultMargin is the default Options.Margin.
	DefaultMargin = 0.2
	// DefaultRebuildFraction is the default Options.RebuildFraction.
	DefaultRebuildFraction = 0.5
)

// Object flags.
const (
	fPresent = 1 << iota
	fStatic
	fMoved // added or moved since the last Pairs (in t.moved)
	fForce // to be inserted again whatever its box: added (maybe of another kind)
	fFresh // during Pairs: inserted at this call
	fInS   // its leaf is in the static objects' tree
)

// Tree is a dynamic AABB tree broad phase; it implements broad.Phase. The
// zero value is not ready: use New or NewWith. A Tree is not safe for
// concurrent use.
//
// Internally objects live in slots, numbered at each top-down build in the
// order of the tree's leaves, so that objects near in space are near in
// memory: a step then reads the boxes of an object's partners from the
// caches rather than from memory.
type Tree struct {
	margin  float64
	rebuild float64

	slot []int32 // each id's slot, null if absent

	// By slot.
	id    []int32     // its object, null if free
	box   []geom.AABB // the object's box
	fat   []box32     // its fat box, that of its leaf
	leaf  []int32     // its leaf, null if none
	flags []uint8
	adj   [][]int32 // partners: fat boxes overlap, not both static; higher slots first
	up    []int32   // how many partners have higher slots
	free  []int32   // free slots

	moved  []int32 // slots marked fMoved
	nmoved int     // Pairs: how many of them are present
	n      int

	// The moving objects' leaves and the static ones' apart: a static
	// object's query reads the moving tree only, and a rebuild pairs the
	// moving tree with itself and with the static one, never the static
	// one with itself.
	tr     tree
	st     tree
	visits int64   // candidate pairs visited (tests)
	ins    []int32 // Pairs: the slots to insert
	objs   []int32 // rebuild: the present slots
	perm   []int32 // rebuild: old slot to new
	lnk    []int32 // rebuild: the cached pairs, two slots each
	tmp    []int32 // rebuild: scratch
	pool   []int32 // rebuild: the adjacency arrays' backing
	// rebuild: the per-slot arrays being renumbered
	boxTmp   []geom.AABB
	fatTmp   []box32
	flagsTmp []uint8
	qid      int32 // the slot whose query runs
	qfn      func(int32) bool
	pfn      func(a, b int32)
}

var _ broad.Phase = (*Tree)(nil)

// New returns an empty tree with the default options.
func New() *Tree { return NewWith(Options{}) }

// NewWith returns an empty tree with options o.
func NewWith(o Options) *Tree {
	t := &Tree{margin: o.Margin, rebuild: o.RebuildFraction}
	switch {
	case t.margin == 0:
		t.margin = DefaultMargin
	case t.margin < 0:
		t.margin = 0
	}
	if !(t.rebuild > 0) {
		t.rebuild = DefaultRebuildFraction
	}
	t.tr.reset()
	t.st.reset()
	t.qfn = t.found
	t.pfn = t.collect
	return t
}

// Len implements broad.Phase.
func (t *Tree) Len() int { return t.n }

// grow returns s extended with zero values to length n, at least
// doubling its capacity when it grows it.
func grow[T any](s []T, n int) []T {
	m := len(s)
	if n > cap(s) {
		s = slices.Grow(s, max(n, 2*cap(s))-m)
	}
	s = s[:n]
	clear(s[m:])
	return s
}

// newSlot gives id a slot: a free one (whose fMoved mark, if any, stays:
// the slot is in t.moved) or a new one.
func (t *Tree) newSlot(id int32) int32 {
	var s int32
	if k := len(t.free); k > 0 {
		s = t.free[k-1]
		t.free = t.free[:k-1]
	} else {
		s = int32(len(t.id))
		n := len(t.id) + 1
		t.id = grow(t.id, n)
		t.box = grow(t.box, n)
		t.fat = grow(t.fat, n)
		t.leaf = grow(t.leaf, n)
		t.leaf[s] = null
		t.flags = grow(t.flags, n)
		t.adj = grow(t.adj, n)
		t.up = grow(t.up, n)
	}
	t.id[s] = id
	t.slot[id] = s
	return s
}

// Add implements broad.Phase.
func (t *Tree) Add(id int32, b geom.AABB, static bool) {
	if id < 0 {
		panic("dbvt: negative object id")
	}
	if int(id) >= len(t.slot) {
		m := len(t.slot)
		t.slot = grow(t.slot, int(id)+1)
		for i := m; i < len(t.slot); i++ {
			t.slot[i] = null
		}
	}
	s := t.slot[id]
	if s == null {
		s = t.newSlot(id)
		t.n++
	}
	f := t.flags[s]&(fMoved|fInS) | fPresent | fForce
	if static {
		f |= fStatic
	}
	t.flags[s] = f
	t.box[s] = b
	t.mark(s)
}

func (t *Tree) mark(s int32) {
	if t.flags[s]&fMoved == 0 {
		t.flags[s] |= fMoved
		t.moved = append(t.moved, s)
	}
}

// Move implements broad.Phase.
func (t *Tree) Move(id int32, b geom.AABB) {
	if id < 0 || int(id) >= len(t.slot) || t.slot[id] == null {
		panic("dbvt: Move of an absent object")
	}
	s := t.slot[id]
	t.box[s] = b
	t.mark(s)
}

// Remove implements broad.Phase: the object's leaf goes at once.
func (t *Tree) Remove(id int32) {
	if id < 0 || int(id) >= len(t.slot) || t.slot[id] == null {
		return
	}
	s := t.slot[id]
	t.n--
	t.takeOut(s)
	t.flags[s] &= fMoved
	t.id[s] = null
	t.slot[id] = null
	t.free = append(t.free, s)
}

// takeOut removes slot s's leaf, if any, and its cached pairs.
func (t *Tree) takeOut(s int32) {
	l := t.leaf[s]
	if l == null {
		return
	}
	tr := t.treeOf(s)
	tr.removeLeaf(l)
	tr.release(l)
	t.leaf[s] = null
	t.flags[s] &^= fInS
	t.unlink(s)
}

// unlink drops the cached pairs of slot s.
func (t *Tree) unlink(s int32) {
	for _, b := range t.adj[s] {
		t.dropPartner(b, s)
	}
	t.adj[s] = t.adj[s][:0]
	t.up[s] = 0
}

// treeOf returns the tree of slot s's leaf.
func (t *Tree) treeOf(s int32) *tree {
	if t.flags[s]&fInS != 0 {
		return &t.st
	}
	return &t.tr
}

// link caches the pair a, b, unless both are static.
func (t *Tree) link(a, b int32) {
	if t.flags[a]&t.flags[b]&fStatic != 0 {
		return
	}
	t.addPartner(a, b)
	t.addPartner(b, a)
}

// addPartner adds b to s's partners, keeping those in higher slots first.
func (t *Tree) addPartner(s, b int32) {
	a := append(t.adj[s], b)
	if b > s {
		u := t.up[s]
		a[u], a[len(a)-1] = b, a[u]
		t.up[s] = u + 1
	}
	t.adj[s] = a
}

// dropPartner removes b from s's partners.
func (t *Tree) dropPartner(s, b int32) {
	a := t.adj[s]
	last := len(a) - 1
	if b > s {
		// Fill the hole with the last higher partner, and its place
		// with the last partner.
		u := t.up[s] - 1
		i := slices.Index(a[:u+1], b)
		a[i] = a[u]
		a[u] = a[last]
		t.up[s] = u
	} else {
		i := int(t.up[s]) + slices.Index(a[t.up[s]:], b)
		a[i] = a[last]
	}
	t.adj[s] = a[:last]
}

// collect is link for a rebuild, which gathers the pairs first.
func (t *Tree) collect(a, b int32) {
	t.visits++
	if t.flags[a]&t.flags[b]&fStatic == 0 {
		t.lnk = append(t.lnk, a, b)
	}
}

// found is the callback of the query of the fat box of t.qid, newly
// inserted: it caches the pair with b once (of two new objects, the lower
// one's query caches it).
func (t *Tree) found(b int32) bool {
	a := t.qid
	t.visits++
	if b != a && (t.flags[b]&fFresh == 0 || b > a) {
		t.link(a, b)
	}
	return true
}

// fatten sets the fat box of slot s: its box grown by its margin, rounded
// outwards to float32.
func (t *Tree) fatten(s int32) {
	b := &t.box[s]
	m := t.room(s)
	f := geom.AABB{
		Min: geom.Vec3{X: b.Min.X - m, Y: b.Min.Y - m, Z: b.Min.Z - m},
		Max: geom.Vec3{X: b.Max.X + m, Y: b.Max.Y + m, Z: b.Max.Z + m},
	}
	t.fat[s] = roundOut(&f)
}

// room is the margin of slot s's fat box.
func (t *Tree) room(s int32) float64 {
	if t.flags[s]&fStatic != 0 {
		return 0
	}
	b := &t.box[s]
	m := b.Max.X - b.Min.X
	if y := b.Max.Y - b.Min.Y; y > m {
		m = y
	}
	if z := b.Max.Z - b.Min.Z; z > m {
		m = z
	}
	return t.margin * m
}

// fits reports whether slot s's box lies in its fat box, without more
// than four times the margin it would get now on any side (a box that
// shrank gets a smaller fat box).
func (t *Tree) fits(s int32) bool {
	b, f := &t.box[s], &t.fat[s]
	m := 4 * t.room(s)
	return f.holds(b) && b2i(b.Min.X-float64(f.min[0]) > m)|b2i(b.Min.Y-float64(f.min[1]) > m)|b2i(b.Min.Z-float64(f.min[2]) > m)|
		b2i(float64(f.max[0])-b.Max.X > m)|b2i(float64(f.max[1])-b.Max.Y > m)|b2i(float64(f.max[2])-b.Max.Z > m) == 0
}

// b2i is 1 for true, 0 for false, without a branch.
func b2i(c bool) uint8 {
	if c {
		return 1
	}
	return 0
}

// overlaps is broad.Overlaps without branches: in the loops over cached
// partners, whether two boxes overlap is a coin toss that a branch
// predictor loses.
func overlaps(a, b *geom.AABB) bool {
	return b2i(a.Min.X > b.Max.X)|b2i(b.Min.X > a.Max.X)|
		b2i(a.Min.Y > b.Max.Y)|b2i(b.Min.Y > a.Max.Y)|
		b2i(a.Min.Z > b.Max.Z)|b2i(b.Min.Z > a.Max.Z) == 0
}

// Pairs implements broad.Phase.
func (t *Tree) Pairs(fn func(a, b int32) bool) {
	if len(t.moved) > len(t.flags)/32 {
		// Many moved: take them in the order of their slots, which is
		// that of the memory.
		t.moved = t.moved[:0]
		for s, f := range t.flags {
			if f&fMoved != 0 {
				t.moved = append(t.moved, int32(s))
			}
		}
	}
	t.update()
	moved := t.moved
	t.moved = t.moved[:0]
	// A pair of two moved objects is reported from the lower slot: a
	// moved object reports its partners in higher slots, and those in
	// lower slots that did not move (none when all moved).
	all := t.nmoved == t.n
	for _, a := range moved {
		if t.flags[a]&fPresent == 0 {
			continue
		}
		ba := &t.box[a]
		adj, u := t.adj[a], t.up[a]
		for _, b := range adj[:u] {
			if overlaps(ba, &t.box[b]) && !t.report(fn, a, b) {
				goto stop
			}
		}
		if all {
			continue
		}
		for _, b := range adj[u:] {
			if t.flags[b]&fMoved == 0 && overlaps(ba, &t.box[b]) && !t.report(fn, a, b) {
				goto stop
			}
		}
	}
stop:
	for _, a := range moved {
		t.flags[a] &^= fMoved
	}
}

// report calls fn on the ids of slots a and b, in order.
func (t *Tree) report(fn func(a, b int32) bool, a, b int32) bool {
	lo, hi := t.id[a], t.id[b]
	if hi < lo {
		lo, hi = hi, lo
	}
	return fn(lo, hi)
}

// update brings the tree and the cached pairs up to date with the boxes.
func (t *Tree) update() {
	ins := t.ins[:0]
	t.nmoved = 0
	for _, s := range t.moved {
		f := t.flags[s]
		if f&fPresent == 0 {
			continue
		}
		t.nmoved++
		if f&fForce == 0 && t.leaf[s] != null && t.fits(s) {
			continue
		}
		t.flags[s] = f &^ fForce
		ins = append(ins, s)
	}
	t.ins = ins[:0]
	if len(ins) == 0 {
		return
	}
	if len(ins) > 1 && (t.tr.root == null && t.st.root == null || float64(len(ins)) >= t.rebuild*float64(t.n)) {
		for _, s := range ins {
			t.fatten(s)
		}
		t.rebuildAll()
		return
	}
	for _, s := range ins {
		t.unlink(s)
		t.fatten(s)
		l := t.leaf[s]
		if l != null && (t.flags[s]&fStatic != 0) != (t.flags[s]&fInS != 0) {
			t.takeOut(s) // to the tree of its new kind
			l = null
		}
		if l != null {
			t.treeOf(s).move(l, t.fat[s])
		} else {
			if t.flags[s]&fStatic != 0 {
				t.flags[s] |= fInS
			}
			tr := t.treeOf(s)
			l = tr.alloc()
			tr.nodes[l].box = t.fat[s]
			tr.nodes[l].child[1] = s
			t.leaf[s] = l
			tr.insertLeaf(l)
		}
		t.flags[s] |= fFresh
	}
	for _, s := range ins {
		t.qid = s
		t.tr.query(&t.fat[s], t.qfn)
		if t.flags[s]&fStatic == 0 {
			t.st.query(&t.fat[s], t.qfn)
		}
	}
	for _, s := range ins {
		t.flags[s] &^= fFresh
	}
}

// rebuildAll builds the tree of every present object top down, numbers
// the slots again in the order of the leaves, and finds the cached pairs
// again by a traversal of the tree against itself.
func (t *Tree) rebuildAll() {
	objs := t.objs[:0]
	nm := 0
	for s := range int32(len(t.flags)) {
		if f := t.flags[s]; f&fPresent != 0 {
			if f&fStatic == 0 {
				objs = append(objs, s)
				nm++
			}
			t.flags[s] = f &^ fInS
		}
	}
	for s := range int32(len(t.flags)) {
		if f := t.flags[s]; f&fPresent != 0 && f&fStatic != 0 {
			objs = append(objs, s)
			t.flags[s] = f | fInS
		}
	}
	t.objs = objs[:0]
	t.tr.build(objs[:nm], t.fat, t.leaf)
	t.st.build(objs[nm:], t.fat, t.leaf)

	// Renumber: perm[old] = new, in the order of the leaves.
	perm := grow(t.perm[:0], len(t.flags))
	for i := range perm {
		perm[i] = null
	}
	t.perm = perm
	k := int32(0)
	for _, tr := range []*tree{&t.tr, &t.st} {
		for i := range tr.nodes {
			nd := &tr.nodes[i]
			if nd.leaf() && nd.height == 0 {
				perm[nd.child[1]] = k
				nd.child[1] = k
				k++
			}
		}
	}
	t.id, t.tmp = permute(t.id, perm, t.tmp), t.id
	t.box, t.boxTmp = permute(t.box, perm, t.boxTmp), t.box
	t.fat, t.fatTmp = permute(t.fat, perm, t.fatTmp), t.fat
	t.flags, t.flagsTmp = permute(t.flags, perm, t.flagsTmp), t.flags
	t.adj = t.adj[:k]
	t.up = t.up[:k]
	clear(t.up)
	t.leaf = t.leaf[:k]
	for _, tr := range []*tree{&t.tr, &t.st} {
		for i := range tr.nodes {
			nd := &tr.nodes[i]
			if nd.leaf() && nd.height == 0 {
				t.leaf[nd.child[1]] = int32(i)
			}
		}
	}
	for s, id := range t.id {
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

	// The cached pairs, each slot's in one run of one array.
	t.lnk = t.lnk[:0]
	t.tr.pairs(t.pfn)
	t.tr.cross(&t.st, t.pfn)
	deg := grow(t.tmp[:0], int(k))
	for _, s := range t.lnk {
		deg[s]++
	}
	total := 0
	for _, d := range deg {
		total += int(d) + 4
	}
	if cap(t.pool) < total {
		t.pool = make([]int32, total)
	}
	pool := t.pool[:total]
	for s, d := range deg {
		c := int(d) + 4
		t.adj[s], pool = pool[:0:c], pool[c:]
	}
	t.tmp = deg[:0]
	for i := 0; i < len(t.lnk); i += 2 {
		a, b := t.lnk[i], t.lnk[i+1]
		t.addPartner(a, b)
		t.addPartner(b, a)
	}
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

// Visits returns the number of candidate pairs the tree has visited
// (leaves met by its queries and traversals): a measure of its work for
// tests (broadtest.Linear).
func (t *Tree) Visits() int64 { return t.visits }
