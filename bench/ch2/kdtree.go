package ch2

import (
	"fmt"
	"math"

	"github.com/collide3d/collide/bv"
	"github.com/collide3d/collide/geom"
)

// AxisRule is how the k-d tree picks the axis of a node's cut, given the
// triangle counts n₁ and n₂ of the two children that a cut at the box's
// midpoint would make on each axis (the chapter's four rules; its winner
// was lost with its text).
type AxisRule int

const (
	// AxisMax minimises max(n₁, n₂).
	AxisMax AxisRule = iota
	// AxisDiff minimises |n₁ - n₂|.
	AxisDiff
	// AxisProduct minimises n₁·n₂.
	AxisProduct
	// AxisLongest cuts the longest side of the box.
	AxisLongest
)

// AxisRules are the k-d tree's axis rules.
var AxisRules = []AxisRule{AxisMax, AxisDiff, AxisProduct, AxisLongest}

func (r AxisRule) String() string {
	switch r {
	case AxisMax:
		return "min max(n1,n2)"
	case AxisDiff:
		return "min abs(n1-n2)"
	case AxisProduct:
		return "min n1·n2"
	case AxisLongest:
		return "longest side"
	}
	return fmt.Sprintf("AxisRule(%d)", int(r))
}

// KDOptions configure a k-d tree.
type KDOptions struct {
	// Leaf is the leaf threshold: a box with at most Leaf triangles is a
	// leaf (0: 8).
	Leaf int
	// Gain is the gain threshold: how many cuts along a path from the root
	// may gain too little before the node becomes a leaf (0: 2; negative:
	// no limit). A cut gains too little when its larger child meets more
	// than 7/8 of its parent's triangles: near a vertex of high degree
	// every cut keeps most of the fan (the chapter counted cuts that lower
	// no count; cuts that lower it by one or two copy the fan down every
	// level, 130 copies per triangle on our scenes' gears and capsules).
	Gain int
	// Rule picks the axis of each cut.
	Rule AxisRule
	// MaxDepth caps the height (0: 40).
	MaxDepth int
}

// kdNode is a node of the k-d tree: a cut (axis ≥ 0) with children a, b,
// or a leaf (axis -1) listing list[a:b].
type kdNode struct {
	cut  float64
	axis int32
	a, b int32
}

// KDTree is the k-d tree of the dissertation's 2.2.2: a binary space
// partition by planes orthogonal to the axes, each cut at the midpoint of
// its box's side, each node meeting the triangles that meet its box (the
// exact triangle-box test, padded as the grid's), so that triangles are
// stored in every leaf they meet. A query descends with a box into every
// child whose closed half-space the box meets: with bb(F), testing the
// leaves' triangles' boxes against it, until a witness (phase I); then
// with each bb(f), testing f exactly against the leaves' triangles whose
// boxes meet bb(f) (phase II), stopping at the first contact.
type KDTree struct {
	env    *Env
	nodes  []kdNode
	list   []int32
	height int
	seen   stamps
	stack  []int32
}

// NewKDTree builds the k-d tree of e.
func NewKDTree(e *Env, o KDOptions) *KDTree {
	if o.Leaf <= 0 {
		o.Leaf = 8
	}
	if o.Gain == 0 {
		o.Gain = 2
	}
	if o.MaxDepth <= 0 {
		o.MaxDepth = 40
	}
	k := &KDTree{env: e, seen: newStamps(len(e.Tris))}
	all := make([]int32, len(e.Tris))
	for i := range all {
		all[i] = int32(i)
	}
	b := e.Bounds
	ext := b.Size()
	m := math.Max(ext.X, math.Max(ext.Y, ext.Z))
	if m == 0 {
		m = 1
	}
	scale := math.Max(maxAbs(b.Min), maxAbs(b.Max))
	pad := math.Max(1e-9*m, 0x1p-40*math.Max(scale, m))
	k.nodes = append(k.nodes, kdNode{})
	k.build(0, b, all, o, 0, 0, pad)
	return k
}

// build makes node i of the box b meeting the triangles tris.
func (k *KDTree) build(i int, b geom.AABB, tris []int32, o KDOptions, depth, fails int, pad float64) {
	k.height = max(k.height, depth)
	leaf := func() {
		k.nodes[i] = kdNode{axis: -1, a: int32(len(k.list)), b: int32(len(k.list) + len(tris))}
		k.list = append(k.list, tris...)
	}
	if len(tris) <= o.Leaf || depth >= o.MaxDepth {
		leaf()
		return
	}
	size := b.Size()
	var lists [3][2][]int32
	axis, best := -1, math.Inf(1)
	for a := range 3 {
		if size.Index(a) <= 0 {
			continue
		}
		if o.Rule == AxisLongest {
			if s := size.Index(a); -s < best {
				axis, best = a, -s
			}
			continue
		}
		lists[a][0], lists[a][1] = k.split(b, a, tris, pad)
		n1, n2 := float64(len(lists[a][0])), float64(len(lists[a][1]))
		var score float64
		switch o.Rule {
		case AxisMax:
			score = math.Max(n1, n2)
		case AxisDiff:
			score = math.Abs(n1 - n2)
		case AxisProduct:
			score = n1 * n2
		}
		if score < best {
			axis, best = a, score
		}
	}
	if axis < 0 {
		leaf()
		return
	}
	if lists[axis][0] == nil && lists[axis][1] == nil {
		lists[axis][0], lists[axis][1] = k.split(b, axis, tris, pad)
	}
	l, r := lists[axis][0], lists[axis][1]
	if 8*max(len(l), len(r)) > 7*len(tris) {
		fails++
		if o.Gain >= 0 && fails > o.Gain {
			leaf()
			return
		}
	}
	cut := 0.5 * (b.Min.Index(axis) + b.Max.Index(axis))
	li := len(k.nodes)
	k.nodes = append(k.nodes, kdNode{}, kdNode{})
	k.nodes[i] = kdNode{cut: cut, axis: int32(axis), a: int32(li), b: int32(li + 1)}
	lb, rb := b, b
	lb.Max = lb.Max.SetIndex(axis, cut)
	rb.Min = rb.Min.SetIndex(axis, cut)
	k.build(li, lb, l, o, depth+1, fails, pad)
	k.build(li+1, rb, r, o, depth+1, fails, pad)
}

// split returns the triangles of tris that meet each half of b cut at its
// midpoint on axis a.
func (k *KDTree) split(b geom.AABB, a int, tris []int32, pad float64) (l, r []int32) {
	cut := 0.5 * (b.Min.Index(a) + b.Max.Index(a))
	lb, rb := b, b
	lb.Max = lb.Max.SetIndex(a, cut)
	rb.Min = rb.Min.SetIndex(a, cut)
	l, r = make([]int32, 0, len(tris)), make([]int32, 0, len(tris))
	for _, t := range tris {
		if k.meets(t, &lb, pad) {
			l = append(l, t)
		}
		if k.meets(t, &rb, pad) {
			r = append(r, t)
		}
	}
	return l, r
}

// meets reports whether triangle t may meet the box b (its box first, then
// the exact test, padded).
func (k *KDTree) meets(t int32, b *geom.AABB, pad float64) bool {
	tb := k.env.Boxes[t]
	if tb.Min.X > b.Max.X+pad || tb.Max.X < b.Min.X-pad || tb.Min.Y > b.Max.Y+pad || tb.Max.Y < b.Min.Y-pad ||
		tb.Min.Z > b.Max.Z+pad || tb.Max.Z < b.Min.Z-pad {
		return false
	}
	c := b.Center()
	tri := &k.env.Tris[t]
	return !bv.TriBoxDisjoint(tri[0].Sub(c), tri[1].Sub(c), tri[2].Sub(c), b.Size().Scale(0.5), pad)
}

// Stored returns the length of all the leaves' lists (the chapter's ST).
func (k *KDTree) Stored() int { return len(k.list) }

// Height returns the depth of the deepest leaf (the root's is 0).
func (k *KDTree) Height() int { return k.height }

// Bytes returns the memory of the tree's arrays.
func (k *KDTree) Bytes() int64 {
	return 24*int64(len(k.nodes)) + 4*int64(len(k.list)) + 4*int64(len(k.seen.mark))
}

// Reset does nothing: a k-d tree query carries nothing over.
func (k *KDTree) Reset() {}

// visit calls leaf with the list of every leaf whose box q's descent
// reaches, until leaf returns true, and reports whether it did.
func (k *KDTree) visit(q *geom.AABB, leaf func(list []int32) bool) bool {
	st := append(k.stack[:0], 0)
	for len(st) > 0 {
		n := &k.nodes[st[len(st)-1]]
		st = st[:len(st)-1]
		if n.axis < 0 {
			if leaf(k.list[n.a:n.b]) {
				k.stack = st
				return true
			}
			continue
		}
		lo, hi := q.Min.Index(int(n.axis)), q.Max.Index(int(n.axis))
		if hi >= n.cut {
			st = append(st, n.b)
		}
		if lo <= n.cut {
			st = append(st, n.a)
		}
	}
	k.stack = st
	return false
}

// Collide is the k-d tree's query (see KDTree).
func (k *KDTree) Collide(f *Frame, c *Counts) bool {
	e := k.env
	if !overlaps(&e.Bounds, &f.Box) {
		return false
	}
	k.seen.next()
	if !k.visit(&f.Box, func(list []int32) bool {
		for _, t := range list {
			if k.seen.first(t) {
				c.BoxTests++
				if overlaps(&e.Boxes[t], &f.Box) {
					return true
				}
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
		if !overlaps(&e.Bounds, fb) {
			continue
		}
		k.seen.next()
		if k.visit(fb, func(list []int32) bool {
			for _, t := range list {
				if !k.seen.first(t) {
					continue
				}
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
