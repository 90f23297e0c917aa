// Package dbvt is a broad phase on a dynamic AABB tree with fattened boxes,
// the kind of Box2D's b2DynamicTree and Bullet's btDbvt: a broad.Phase
// whose cost per step is in the objects that moved, not in all of them.
//
// # Structure
//
// Each object has a leaf in a binary tree of boxes kept in a flat array
// of nodes (indices, not pointers). A leaf holds the object's fat box: its
// box grown on every side by Options.Margin times its largest side (static
// objects get no margin). A move that keeps the box inside the fat box
// changes nothing in the tree; a move out of it, or one that leaves the fat
// box much too large, takes the leaf out and inserts it again with a new
// fat box: down from the root by the surface-area heuristic, then up,
// refitting the boxes and rotating where two children's heights differ by
// more than one (Box2D's insertion and balance). When many objects arrive
// at once (a bulk insertion of 10^5 objects before one Pairs, or more than
// Options.RebuildFraction of the objects at one step) the whole tree is
// built again top down instead, by a binned surface-area heuristic, nodes
// in depth-first order.
//
// # Pairs
//
// The tree keeps, for each object, the list of the objects whose fat boxes
// overlap its own and which are not both static: Bullet's overlapping-pair
// cache, in flat per-object arrays. It changes only where a fat box
// changed: a reinserted object queries the tree with its fat box, and its
// old entries go. Pairs then reports, for each object added or moved, the
// cached partners whose exact boxes overlap its exact box, by the exact
// test on the float64 boxes (broad.Overlaps), so that the pairs are exactly
// those of broad.Brute; since every box lies in its fat box, no pair is
// missed. A pair of two moved objects is reported once, by the first of the
// two to be scanned. A bulk insertion fills the cache with one traversal of
// the tree against itself rather than one query per object.
//
// Querying the tree with each moved object's box instead of keeping the
// cache costs a traversal per moved object, about 20 times the cost of
// scanning its cached partners when every object moves (see the benchmarks
// in the package tests): the cache is what brings a step of 10^5 moving
// objects into a few milliseconds.
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
	// one insertion each. Zero means DefaultRebuildFraction.
	RebuildFraction float64
}

const (
	// DefaultMargin is the default Options.Margin.
	DefaultMargin = 0.1
	// DefaultRebuildFraction is the default Options.RebuildFraction.
	DefaultRebuildFraction = 0.25
)

// Object flags.
const (
	fPresent = 1 << iota
	fStatic
	fMoved // added or moved since the last Pairs (in t.moved)
	fForce // to be inserted again whatever its box: added, or no longer static
	fFresh // during Pairs: inserted at this call
	fDone  // during Pairs: its pairs have been reported
)

// Tree is a dynamic AABB tree broad phase; it implements broad.Phase. The
// zero value is not ready: use New or NewWith. A Tree is not safe for
// concurrent use.
type Tree struct {
	margin  float64
	rebuild float64

	box   []geom.AABB // each object's box
	fat   []box32     // each object's fat box, that of its leaf
	leaf  []int32     // each object's leaf, null if none
	flags []uint8
	adj   [][]int32 // each object's partners: fat boxes overlap, not both static
	moved []int32
	n     int

	tr   tree
	ins  []int32 // Pairs: the objects to insert
	objs []int32 // rebuild: the present objects
	qid  int32   // the object whose query runs
	qfn  func(int32) bool
	pfn  func(a, b int32)
}

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
	t.qfn = t.found
	t.pfn = t.link
	return t
}

// Len implements broad.Phase.
func (t *Tree) Len() int { return t.n }

func (t *Tree) grow(id int32) {
	if id < 0 {
		panic("dbvt: negative object id")
	}
	if int(id) < len(t.box) {
		return
	}
	n := int(id) + 1
	t.box = grow(t.box, n)
	t.fat = grow(t.fat, n)
	m := len(t.leaf)
	t.leaf = grow(t.leaf, n)
	for i := m; i < n; i++ {
		t.leaf[i] = null
	}
	t.flags = grow(t.flags, n)
	t.adj = grow(t.adj, n)
}

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

// Add implements broad.Phase.
func (t *Tree) Add(id int32, b geom.AABB, static bool) {
	t.grow(id)
	f := t.flags[id]
	if f&fPresent == 0 {
		t.n++
	}
	f = f&fMoved | fPresent | fForce
	if static {
		f |= fStatic
	}
	t.flags[id] = f
	t.box[id] = b
	t.mark(id)
}

func (t *Tree) mark(id int32) {
	if t.flags[id]&fMoved == 0 {
		t.flags[id] |= fMoved
		t.moved = append(t.moved, id)
	}
}

// Move implements broad.Phase.
func (t *Tree) Move(id int32, b geom.AABB) {
	if id < 0 || int(id) >= len(t.flags) || t.flags[id]&fPresent == 0 {
		panic("dbvt: Move of an absent object")
	}
	if t.flags[id]&fStatic != 0 {
		t.flags[id] = t.flags[id]&^fStatic | fForce
	}
	t.box[id] = b
	t.mark(id)
}

// Remove implements broad.Phase: the object's leaf goes at once.
func (t *Tree) Remove(id int32) {
	if id < 0 || int(id) >= len(t.flags) || t.flags[id]&fPresent == 0 {
		return
	}
	t.n--
	t.takeOut(id)
	t.flags[id] &^= fPresent | fStatic | fForce
}

// takeOut removes object id's leaf, if any, and its cached pairs.
func (t *Tree) takeOut(id int32) {
	l := t.leaf[id]
	if l == null {
		return
	}
	t.tr.removeLeaf(l)
	t.tr.release(l)
	t.leaf[id] = null
	for _, b := range t.adj[id] {
		s := t.adj[b]
		i := slices.Index(s, id)
		s[i] = s[len(s)-1]
		t.adj[b] = s[:len(s)-1]
	}
	t.adj[id] = t.adj[id][:0]
}

// link caches the pair a, b, unless both are static.
func (t *Tree) link(a, b int32) {
	if t.flags[a]&t.flags[b]&fStatic != 0 {
		return
	}
	t.adj[a] = append(t.adj[a], b)
	t.adj[b] = append(t.adj[b], a)
}

// found is the callback of the query of the fat box of t.qid, newly
// inserted: it caches the pair with b once (of two new objects, the lower
// one's query caches it).
func (t *Tree) found(b int32) bool {
	a := t.qid
	if b != a && (t.flags[b]&fFresh == 0 || b > a) {
		t.link(a, b)
	}
	return true
}

// fatten sets the fat box of object id: its box grown by its margin,
// rounded outwards to float32.
func (t *Tree) fatten(id int32) {
	b := &t.box[id]
	m := t.room(id)
	f := geom.AABB{
		Min: geom.Vec3{X: b.Min.X - m, Y: b.Min.Y - m, Z: b.Min.Z - m},
		Max: geom.Vec3{X: b.Max.X + m, Y: b.Max.Y + m, Z: b.Max.Z + m},
	}
	t.fat[id] = roundOut(&f)
}

// room is the margin of object id's fat box.
func (t *Tree) room(id int32) float64 {
	if t.flags[id]&fStatic != 0 {
		return 0
	}
	b := &t.box[id]
	return t.margin * max(b.Max.X-b.Min.X, b.Max.Y-b.Min.Y, b.Max.Z-b.Min.Z)
}

// fits reports whether object id's box lies in its fat box, without more
// than four times the margin it would get now on any side (a box that
// shrank gets a smaller fat box).
func (t *Tree) fits(id int32) bool {
	b, f := &t.box[id], &t.fat[id]
	if !f.holds(b) {
		return false
	}
	m := 4 * t.room(id)
	return b.Min.X-float64(f.min[0]) <= m && b.Min.Y-float64(f.min[1]) <= m && b.Min.Z-float64(f.min[2]) <= m &&
		float64(f.max[0])-b.Max.X <= m && float64(f.max[1])-b.Max.Y <= m && float64(f.max[2])-b.Max.Z <= m
}

// Pairs implements broad.Phase.
func (t *Tree) Pairs(fn func(a, b int32) bool) {
	t.update()
	moved := t.moved
	t.moved = t.moved[:0]
	stopped := false
	for _, a := range moved {
		if t.flags[a]&fPresent == 0 || stopped {
			continue
		}
		ba := &t.box[a]
		for _, b := range t.adj[a] {
			if t.flags[b]&fDone != 0 || !broad.Overlaps(ba, &t.box[b]) {
				continue
			}
			lo, hi := a, b
			if hi < lo {
				lo, hi = hi, lo
			}
			if !fn(lo, hi) {
				stopped = true
				break
			}
		}
		t.flags[a] |= fDone
	}
	for _, a := range moved {
		t.flags[a] &^= fMoved | fDone
	}
}

// update brings the tree and the cached pairs up to date with the boxes.
func (t *Tree) update() {
	ins := t.ins[:0]
	for _, id := range t.moved {
		f := t.flags[id]
		if f&fPresent == 0 || f&fForce == 0 && t.leaf[id] != null && t.fits(id) {
			continue
		}
		t.takeOut(id)
		t.flags[id] = f &^ fForce
		t.fatten(id)
		ins = append(ins, id)
	}
	t.ins = ins[:0]
	if len(ins) == 0 {
		return
	}
	if len(ins) > 1 && (t.tr.root == null || float64(len(ins)) >= t.rebuild*float64(t.n)) {
		t.rebuildAll()
		return
	}
	for _, id := range ins {
		l := t.tr.alloc()
		t.tr.nodes[l].box = t.fat[id]
		t.tr.nodes[l].child[1] = id
		t.leaf[id] = l
		t.tr.insertLeaf(l)
		t.flags[id] |= fFresh
	}
	for _, id := range ins {
		t.qid = id
		t.tr.query(&t.fat[id], t.qfn)
	}
	for _, id := range ins {
		t.flags[id] &^= fFresh
	}
}

// rebuildAll builds the tree of every present object top down and finds
// the cached pairs again by a traversal of the tree against itself.
func (t *Tree) rebuildAll() {
	objs := t.objs[:0]
	for id := range int32(len(t.flags)) {
		if t.flags[id]&fPresent != 0 {
			objs = append(objs, id)
			t.adj[id] = t.adj[id][:0]
		}
	}
	t.objs = objs[:0]
	t.tr.build(objs, t.fat, t.leaf)
	t.tr.pairs(t.pfn)
}
