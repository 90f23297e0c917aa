package dbvt

import (
	"math"
	"slices"
)

// null is the index of no node.
const null = -1

// node is a node of the tree, 40 bytes: a leaf holds one object's fat box,
// an internal node the union of its two children's boxes, in float32
// rounded outwards (a filter only: the pairs are decided on the float64
// boxes).
type node struct {
	box    box32
	parent int32    // free node: the next free node
	child  [2]int32 // leaf: child[0] == null and child[1] the object
	height int32    // 0 for a leaf, -1 for a free node
}

func (n *node) leaf() bool { return n.child[0] == null }

// obj is the object of leaf n.
func (n *node) obj() int32 { return n.child[1] }

// tree is a binary tree of boxes in a flat array of nodes, the dynamic AABB
// tree of Box2D (b2DynamicTree): leaves inserted by the surface-area
// heuristic, kept balanced by rotations, or built top-down in one go.
type tree struct {
	nodes []node
	root  int32
	free  int32 // first free node, null if none
	stack []int32
	items []item // build's scratch
}

func (t *tree) reset() {
	t.nodes = t.nodes[:0]
	t.root = null
	t.free = null
}

// alloc returns a new node, from the free list if it has one.
func (t *tree) alloc() int32 {
	if t.free != null {
		i := t.free
		t.free = t.nodes[i].parent
		t.nodes[i] = node{parent: null, child: [2]int32{null, null}}
		return i
	}
	t.nodes = append(t.nodes, node{parent: null, child: [2]int32{null, null}})
	return int32(len(t.nodes) - 1)
}

func (t *tree) release(i int32) {
	t.nodes[i] = node{parent: t.free, child: [2]int32{null, null}, height: -1}
	t.free = i
}

// area is half the surface area of b, the cost measure of the heuristic.
func area(b *box32) float32 {
	dx, dy, dz := b.max[0]-b.min[0], b.max[1]-b.min[1], b.max[2]-b.min[2]
	return dx*dy + dy*dz + dz*dx
}

// insertLeaf puts leaf, a node with its box set, into the tree: down from
// the root to the sibling that costs least by the surface-area heuristic,
// then up, refitting boxes and rotating where the heights of two children
// differ by more than one, as far as anything changes.
func (t *tree) insertLeaf(leaf int32) {
	if t.root == null {
		t.root = leaf
		t.nodes[leaf].parent = null
		return
	}
	t.insertFrom(leaf, t.root)
}

// insertFrom is insertLeaf with the descent starting at node i.
func (t *tree) insertFrom(leaf, i int32) {
	lb := t.nodes[leaf].box
	for !t.nodes[i].leaf() {
		n := &t.nodes[i]
		a := area(&n.box)
		u := n.box.union(&lb)
		ua := area(&u)
		cost := 2 * ua          // a new parent of this node and the leaf
		inherit := 2 * (ua - a) // what going down adds to this node
		var c [2]float32        // going down into each child
		for k, ci := range n.child {
			cn := &t.nodes[ci]
			cu := cn.box.union(&lb)
			if cn.leaf() {
				c[k] = area(&cu) + inherit
			} else {
				c[k] = area(&cu) - area(&cn.box) + inherit
			}
		}
		if cost < c[0] && cost < c[1] {
			break
		}
		if c[0] < c[1] {
			i = n.child[0]
		} else {
			i = n.child[1]
		}
	}
	sib := i
	oldParent := t.nodes[sib].parent
	p := t.alloc()
	np := &t.nodes[p]
	np.parent = oldParent
	np.box = lb.union(&t.nodes[sib].box)
	np.height = t.nodes[sib].height + 1
	np.child = [2]int32{sib, leaf}
	t.nodes[sib].parent = p
	t.nodes[leaf].parent = p
	if oldParent == null {
		t.root = p
	} else {
		t.replaceChild(oldParent, sib, p)
	}
	t.balance(p)
	t.fixUp(oldParent)
}

// move gives leaf the box b: out of the tree and in again, the descent
// starting from the lowest ancestor of its old place whose box holds b
// (Bullet's btDbvt::update with look-ahead), so that a short move costs a
// few levels rather than the height of the tree.
func (t *tree) move(leaf int32, b box32) {
	if leaf == t.root {
		t.nodes[leaf].box = b
		return
	}
	start := t.removeLeaf(leaf)
	for start != t.root && !t.nodes[start].box.contains(&b) {
		start = t.nodes[start].parent
	}
	t.nodes[leaf].box = b
	if t.root == null {
		t.root = leaf
		return
	}
	t.insertFrom(leaf, start)
}

// replaceChild makes c the child of p in place of old.
func (t *tree) replaceChild(p, old, c int32) {
	if t.nodes[p].child[0] == old {
		t.nodes[p].child[0] = c
	} else {
		t.nodes[p].child[1] = c
	}
}

// fixUp refits the boxes and heights from node i up, balancing on the
// way, until a node's box and height come out as they were.
func (t *tree) fixUp(i int32) {
	for i != null {
		ob, oh := t.nodes[i].box, t.nodes[i].height
		i = t.balance(i)
		n := &t.nodes[i]
		a, b := &t.nodes[n.child[0]], &t.nodes[n.child[1]]
		n.height = 1 + max(a.height, b.height)
		n.box = a.box.union(&b.box)
		if n.height == oh && n.box == ob {
			return
		}
		i = n.parent
	}
}

// removeLeaf takes leaf out of the tree (the node stays allocated) and
// returns the node now in its parent's place (null if the tree is empty).
func (t *tree) removeLeaf(leaf int32) int32 {
	if leaf == t.root {
		t.root = null
		return null
	}
	p := t.nodes[leaf].parent
	gp := t.nodes[p].parent
	sib := t.nodes[p].child[0]
	if sib == leaf {
		sib = t.nodes[p].child[1]
	}
	t.release(p)
	t.nodes[leaf].parent = null
	t.nodes[sib].parent = gp
	if gp == null {
		t.root = sib
		return sib
	}
	t.replaceChild(gp, p, sib)
	t.fixUp(gp)
	return sib
}

// balance rotates node a when the heights of its children differ by more
// than one, lifting the taller child; it returns the node now in a's place.
func (t *tree) balance(ia int32) int32 {
	a := &t.nodes[ia]
	if a.leaf() || a.height < 2 {
		return ia
	}
	ib, ic := a.child[0], a.child[1]
	b, c := &t.nodes[ib], &t.nodes[ic]
	d := c.height - b.height
	switch {
	case d > 1:
		return t.rotate(ia, 1)
	case d < -1:
		return t.rotate(ia, 0)
	}
	return ia
}

// rotate lifts child k of node a (the taller one) into a's place: a takes
// the lower of that child's children, the child keeps the higher one.
func (t *tree) rotate(ia int32, k int) int32 {
	a := &t.nodes[ia]
	ic := a.child[k]   // rises
	ib := a.child[1-k] // stays under a
	c := &t.nodes[ic]
	if_, ig := c.child[0], c.child[1]
	f, g := &t.nodes[if_], &t.nodes[ig]
	// c takes a's place.
	c.child[0] = ia
	c.parent = a.parent
	a.parent = ic
	if c.parent == null {
		t.root = ic
	} else {
		t.replaceChild(c.parent, ia, ic)
	}
	// The higher of f and g stays with c; the other goes to a.
	if f.height < g.height {
		if_, ig = ig, if_
		f, g = g, f
	}
	c.child[1] = if_
	a.child[k] = ig
	g.parent = ia
	b := &t.nodes[ib]
	a.box = b.box.union(&g.box)
	a.height = 1 + max(b.height, g.height)
	c.box = a.box.union(&f.box)
	c.height = 1 + max(a.height, f.height)
	return ic
}

// query calls fn(obj) for every leaf whose box overlaps b; fn returns
// false to stop.
//
// The stack holds internal nodes whose boxes overlap b: a node's two
// children are tested together, so that their loads overlap.
func (t *tree) query(b *box32, fn func(obj int32) bool) bool {
	if t.root == null || !b.overlaps(&t.nodes[t.root].box) {
		return true
	}
	if r := &t.nodes[t.root]; r.leaf() {
		return fn(r.obj())
	}
	st := append(t.stack[:0], t.root)
	for len(st) > 0 {
		n := &t.nodes[st[len(st)-1]]
		st = st[:len(st)-1]
		c0, c1 := &t.nodes[n.child[0]], &t.nodes[n.child[1]]
		o0, o1 := b.overlaps(&c0.box), b.overlaps(&c1.box)
		if o0 {
			if !c0.leaf() {
				st = append(st, n.child[0])
			} else if !fn(c0.obj()) {
				t.stack = st
				return false
			}
		}
		if o1 {
			if !c1.leaf() {
				st = append(st, n.child[1])
			} else if !fn(c1.obj()) {
				t.stack = st
				return false
			}
		}
	}
	t.stack = st
	return true
}

// bins is the number of bins of the top-down build's surface-area heuristic.
const bins = 16

// item is an object to build the tree of, with its box.
type item struct {
	box box32
	obj int32
}

// build makes the tree of objects objs, whose fat boxes are fat[obj], top
// down, from an empty node array: each node splits its objects at the
// best of bins-1 planes across the longest axis of their centres by the
// surface-area heuristic. Nodes come in depth-first order, a parent before
// its children. leaf[obj] receives each object's leaf.
func (t *tree) build(objs []int32, fat []box32, leaf []int32) {
	t.reset()
	if len(objs) == 0 {
		return
	}
	items := t.items[:0]
	for _, o := range objs {
		items = append(items, item{fat[o], o})
	}
	t.items = items[:0]
	t.nodes = slices.Grow(t.nodes, 2*len(objs))
	t.root = t.buildRange(items, leaf, null)
}

func (t *tree) buildRange(items []item, leaf []int32, parent int32) int32 {
	i := t.alloc()
	t.nodes[i].parent = parent
	if len(items) == 1 {
		o := items[0].obj
		t.nodes[i].box = items[0].box
		t.nodes[i].child[1] = o
		leaf[o] = i
		return i
	}
	k := split(items)
	l := t.buildRange(items[:k], leaf, i)
	r := t.buildRange(items[k:], leaf, i)
	n := &t.nodes[i]
	n.child = [2]int32{l, r}
	a, b := &t.nodes[l], &t.nodes[r]
	n.box = a.box.union(&b.box)
	n.height = 1 + max(a.height, b.height)
	return i
}

// split reorders items into two non-empty parts and returns the length of
// the first: by the surface-area heuristic over bins across the longest
// axis of the items' centres, or for a few items at the middle of that
// axis.
func split(items []item) int {
	lo := items[0].box.center()
	hi := lo
	for k := range items {
		c := items[k].box.center()
		for ax := range 3 {
			if c[ax] < lo[ax] {
				lo[ax] = c[ax]
			}
			if c[ax] > hi[ax] {
				hi[ax] = c[ax]
			}
		}
	}
	ax := 0
	ext := [3]float32{hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]}
	if ext[1] > ext[0] {
		ax = 1
	}
	if ext[2] > ext[ax] {
		ax = 2
	}
	l, e := lo[ax], ext[ax]
	if !(e > 0) || len(items) <= 2 {
		return len(items) / 2
	}
	// bin is the bin of a box's centre, among nb across [l, l+e].
	nb := bins
	if len(items) <= 2*bins {
		nb = 2
	}
	scale := float32(nb) / e
	bin := func(b *box32) int {
		f := (b.min[ax]/2 + b.max[ax]/2 - l) * scale
		switch {
		case f >= float32(nb-1):
			return nb - 1
		case f > 0:
			return int(f)
		}
		return 0 // and NaN, from an infinite box
	}
	best := 1
	if nb > 2 {
		var count [bins]int
		var box [bins]box32
		for k := range box {
			box[k] = emptyBox32()
		}
		for k := range items {
			b := &items[k].box
			j := bin(b)
			count[j]++
			u := &box[j]
			for a := range 3 { // in place: a copy of the box stalls
				if b.min[a] < u.min[a] {
					u.min[a] = b.min[a]
				}
				if b.max[a] > u.max[a] {
					u.max[a] = b.max[a]
				}
			}
		}
		// right[k]: the area of the bins k.. and their count.
		var right [bins]float32
		var nright [bins]int
		acc, n := emptyBox32(), 0
		for k := nb - 1; k > 0; k-- {
			acc = acc.union(&box[k])
			n += count[k]
			right[k], nright[k] = area(&acc), n
		}
		best = 0
		bestCost := float32(math.Inf(1))
		acc, n = emptyBox32(), 0
		for k := 1; k < nb; k++ { // split before bin k
			acc = acc.union(&box[k-1])
			n += count[k-1]
			if n == 0 || nright[k] == 0 {
				continue
			}
			if c := area(&acc)*float32(n) + right[k]*float32(nright[k]); c < bestCost {
				best, bestCost = k, c
			}
		}
		if best == 0 {
			return len(items) / 2
		}
	}
	// Partition: bins below best first.
	i, j := 0, len(items)-1
	for i <= j {
		if bin(&items[i].box) < best {
			i++
		} else {
			items[i], items[j] = items[j], items[i]
			j--
		}
	}
	if i == 0 || i == len(items) {
		return len(items) / 2
	}
	return i
}

// pairs calls fn(a, b) for every two leaves whose boxes overlap, once, by a
// traversal of the tree against itself.
func (t *tree) pairs(fn func(a, b int32)) { t.cross(t, fn) }

// cross calls fn(a, b) for every leaf a of t and leaf b of u whose boxes
// overlap, by a traversal of the two trees against each other; when u is
// t, for every two leaves of t, once.
func (t *tree) cross(u *tree, fn func(a, b int32)) {
	if t.root == null || u.root == null {
		return
	}
	st := append(t.stack[:0], t.root, u.root)
	for len(st) > 0 {
		x, y := st[len(st)-2], st[len(st)-1]
		st = st[:len(st)-2]
		nx, ny := &t.nodes[x], &u.nodes[y]
		if u == t && x == y {
			if !nx.leaf() {
				c0, c1 := nx.child[0], nx.child[1]
				st = append(st, c0, c0, c1, c1, c0, c1)
			}
			continue
		}
		if !nx.box.overlaps(&ny.box) {
			continue
		}
		switch {
		case nx.leaf() && ny.leaf():
			fn(nx.obj(), ny.obj())
		case ny.leaf() || !nx.leaf() && nx.height >= ny.height:
			st = append(st, nx.child[0], y, nx.child[1], y)
		default:
			st = append(st, x, ny.child[0], x, ny.child[1])
		}
	}
	t.stack = st
}
