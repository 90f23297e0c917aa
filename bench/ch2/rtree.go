package ch2

import (
	"math"
	"slices"

	"github.com/collide3d/collide/geom"
)

// rNode is a node of the R-tree: its box, and children a, b (leaf false)
// or the triangles order[a:b] (leaf true).
type rNode struct {
	box  geom.AABB
	a, b int32
	leaf bool
}

// RTree is the binary R-tree ("tree of boxes") of the dissertation's
// 2.2.3: a hierarchy of the obstacle triangles, each node the box of its
// triangles, split in half at the median of their centroids along the axis
// whose two children's boxes have the least total volume (the chapter's
// function of the volumes was lost with its text; the sum is ours), down
// to Leaf triangles. Every triangle is stored once. A query descends with
// bb(F) into the children whose boxes it meets, testing the leaves'
// triangles' boxes against it until a witness (phase I); then with each
// bb(f), testing f exactly against the triangles whose boxes meet bb(f)
// (phase II), stopping at the first contact.
type RTree struct {
	env    *Env
	nodes  []rNode
	order  []int32
	height int
	stack  []int32
}

// NewRTree builds the R-tree of e with leaves of at most leaf triangles
// (0: 8).
func NewRTree(e *Env, leaf int) *RTree {
	if leaf <= 0 {
		leaf = 8
	}
	r := &RTree{env: e, order: make([]int32, len(e.Tris))}
	for i := range r.order {
		r.order[i] = int32(i)
	}
	cent := make([]geom.Vec3, len(e.Tris))
	for i := range e.Tris {
		cent[i] = e.Boxes[i].Center()
	}
	r.nodes = append(r.nodes, rNode{})
	r.build(0, 0, len(r.order), leaf, cent, 0)
	return r
}

func (r *RTree) box(lo, hi int) geom.AABB {
	b := geom.EmptyAABB()
	for _, t := range r.order[lo:hi] {
		b = b.Union(r.env.Boxes[t])
	}
	return b
}

// build makes node i of order[lo:hi];
func (r *RTree) build(i, lo, hi, leaf int, cent []geom.Vec3, depth int) {
	r.height = max(r.height, depth)
	r.nodes[i].box = r.box(lo, hi)
	if hi-lo <= leaf {
		r.nodes[i].a, r.nodes[i].b, r.nodes[i].leaf = int32(lo), int32(hi), true
		return
	}
	mid := (lo + hi) / 2
	part := r.order[lo:hi]
	best, bestAxis := math.Inf(1), 0
	for a := range 3 {
		sortAxis(part, cent, a)
		l, rb := r.box(lo, mid), r.box(mid, hi)
		if v := l.Volume() + rb.Volume(); v < best {
			best, bestAxis = v, a
		}
	}
	if bestAxis != 2 {
		sortAxis(part, cent, bestAxis)
	}
	li := len(r.nodes)
	r.nodes = append(r.nodes, rNode{}, rNode{})
	r.nodes[i].a, r.nodes[i].b = int32(li), int32(li+1)
	r.build(li, lo, mid, leaf, cent, depth+1)
	r.build(li+1, mid, hi, leaf, cent, depth+1)
}

// sortAxis orders the triangles by their centroids' coordinate a (ties by
// index, so that the tree is a function of its input).
func sortAxis(part []int32, cent []geom.Vec3, a int) {
	slices.SortFunc(part, func(x, y int32) int {
		cx, cy := cent[x].Index(a), cent[y].Index(a)
		switch {
		case cx < cy:
			return -1
		case cx > cy:
			return 1
		}
		return int(x - y)
	})
}

// Stored returns the triangles stored: each once.
func (r *RTree) Stored() int { return len(r.order) }

// Height returns the depth of the deepest leaf (the root's is 0).
func (r *RTree) Height() int { return r.height }

// Bytes returns the memory of the tree's arrays.
func (r *RTree) Bytes() int64 { return 64*int64(len(r.nodes)) + 4*int64(len(r.order)) }

// Reset does nothing: an R-tree query carries nothing over.
func (r *RTree) Reset() {}

// visit calls leaf with the triangles of every leaf whose box meets q,
// until leaf returns true, and reports whether it did.
func (r *RTree) visit(q *geom.AABB, c *Counts, leaf func(list []int32) bool) bool {
	st := append(r.stack[:0], 0)
	for len(st) > 0 {
		n := &r.nodes[st[len(st)-1]]
		st = st[:len(st)-1]
		c.BoxTests++
		if !overlaps(&n.box, q) {
			continue
		}
		if n.leaf {
			if leaf(r.order[n.a:n.b]) {
				r.stack = st
				return true
			}
			continue
		}
		st = append(st, n.b, n.a)
	}
	r.stack = st
	return false
}

// Collide is the R-tree's query (see RTree).
func (r *RTree) Collide(f *Frame, c *Counts) bool {
	e := r.env
	if !r.visit(&f.Box, c, func(list []int32) bool {
		for _, t := range list {
			c.BoxTests++
			if overlaps(&e.Boxes[t], &f.Box) {
				return true
			}
		}
		return false
	}) {
		return false
	}
	c.FullRes++
	f.Full()
	for j := range f.Tris {
		fb := &f.Boxes[j]
		if r.visit(fb, c, func(list []int32) bool {
			for _, t := range list {
				c.BoxTests++
				if overlaps(&e.Boxes[t], fb) {
					c.TriTests++
					if geom.TriTri(e.Tris[t], f.Tris[j]) {
						return true
					}
				}
			}
			return false
		}) {
			return true
		}
	}
	return false
}
