package bvh

import (
	"fmt"
)

// This file holds what the checks of every kind share, as Read loads a
// tree and Tree.Validate checks it: the faults they report (where in a
// saved tree an invariant fails) and the walk of a tree's shape. What
// each kind's queries rely on, and how it is checked, is in the kind's
// own file (kind_*.go; vtree_check.go for what the moved-volume kinds
// share).

// faultAt says where a fault lies in a saved tree.
type faultAt uint8

const (
	atTree  faultAt = iota // no field in particular (reported at the node array)
	atNode                 // node i, at byte off of its record
	atEntry                // triangle order entry i
	atRoot                 // a box-tree's root box, at byte off
	atByte                 // the bytes at pos
)

// fault is an invariant a tree breaks: where, and what.
type fault struct {
	at  faultAt
	i   int
	off int
	pos int64
	msg string
}

func faultf(at faultAt, i, off int, format string, args ...any) *fault {
	return &fault{at: at, i: i, off: off, msg: fmt.Sprintf(format, args...)}
}

// offset returns the offset in the file described by h of the bytes at
// fault.
func (f *fault) offset(h *header) int64 {
	switch f.at {
	case atNode:
		return h.nAt + int64(f.i)*h.nodeSize + int64(f.off)
	case atEntry:
		return h.oAt + 4*int64(f.i)
	case atRoot:
		return h.nAt - boxRootSize + int64(f.off)
	case atByte:
		return f.pos
	}
	return h.nAt
}

// shapeRules are the rules of a tree's shape that differ between kinds.
type shapeRules struct {
	levels  int  // most levels
	maxLeaf int  // most triangles in a leaf, 0 for no limit
	once    bool // every triangle in exactly one leaf (else at least one)
	refAt   int  // offset of the ref in a node's record
	// twins are the triangles the leaves do not hold: they are in none,
	// the others as once says.
	twins twinList
}

// shape is the layout of a tree's leaves: seq lists the triangles of the
// leaves in layout order, and node i's subtree holds seq[lo[i]:hi[i]].
type shape struct {
	seq    []int32
	lo, hi []int32
}

// walkShape checks the shape of a tree of n ≥ 1 nodes, whose node i has
// reference ref(i), over nt triangles listed leaf by leaf in order (nil
// for one triangle per leaf): the nodes form one binary tree laid out depth
// first, at most r.levels deep; each leaf's triangles are in range, its
// list starts where the previous leaf's ended and ends within the order; no
// leaf holds more than r.maxLeaf triangles, or one twice; every triangle
// but the twins r.twins leaves out is in one leaf (r.once) or in at least
// one, and no twin is; every order entry is in a leaf.
func walkShape(n, nt int, ref func(int) int32, order []int32, r shapeRules) (*shape, *fault) {
	type item struct{ i, depth int32 }
	stack := []item{{0, 1}}
	sh := &shape{seq: make([]int32, 0, max(len(order), nt)), lo: make([]int32, n), hi: make([]int32, n)}
	// mark[t] is 1 + the number of the last leaf that holds triangle t, 0
	// if none does.
	mark := make([]int32, nt)
	next, pos, leaves := 0, 0, int32(0)
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		i := int(it.i)
		if i != next {
			return nil, faultf(atNode, i, 0, "node %d reached where node %d was expected", i, next)
		}
		if int(it.depth) > r.levels {
			return nil, faultf(atNode, i, 0, "node %d: tree deeper than %d levels", i, r.levels)
		}
		next++
		x := ref(i)
		if x >= 0 {
			if x < 2 || i+int(x) >= n {
				return nil, faultf(atNode, i, r.refAt, "node %d: right child offset %d out of range [2, %d)", i, x, n-i)
			}
			stack = append(stack, item{it.i + x, it.depth + 1}, item{it.i + 1, it.depth + 1})
			continue
		}
		leaves++
		sh.lo[i] = int32(len(sh.seq))
		first := int(^x)
		if order == nil {
			if first >= nt {
				return nil, faultf(atNode, i, r.refAt, "leaf %d: triangle %d out of range [0, %d)", i, first, nt)
			}
			if mark[first] != 0 {
				return nil, faultf(atNode, i, r.refAt, "leaf %d: triangle %d is in two leaves", i, first)
			}
			if !r.twins.held(int32(first)) {
				return nil, faultf(atNode, i, r.refAt, "leaf %d: triangle %d is the twin of an earlier one (leaves hold the first of identical triangles)", i, first)
			}
			mark[first] = leaves
			sh.seq = append(sh.seq, int32(first))
			sh.hi[i] = int32(len(sh.seq))
			continue
		}
		if first != pos {
			return nil, faultf(atNode, i, r.refAt, "leaf %d: its triangles start at order entry %d where entry %d was expected (the leaves list the order in turn)", i, first, pos)
		}
		for j := first; ; j++ {
			if j >= len(order) {
				return nil, faultf(atNode, i, r.refAt, "leaf %d: its triangle list runs past the end of the order", i)
			}
			v := order[j]
			last := v < 0
			if last {
				v = ^v
			}
			switch {
			case int(v) >= nt:
				return nil, faultf(atEntry, j, 0, "order entry %d: triangle %d out of range [0, %d)", j, v, nt)
			case r.maxLeaf > 0 && j-first >= r.maxLeaf:
				return nil, faultf(atNode, i, 0, "leaf %d holds more than %d triangles", i, r.maxLeaf)
			case mark[v] == leaves:
				return nil, faultf(atEntry, j, 0, "order entry %d: triangle %d is twice in leaf %d", j, v, i)
			case r.once && mark[v] != 0:
				return nil, faultf(atEntry, j, 0, "order entry %d: triangle %d is in two leaves", j, v)
			case !r.twins.held(v):
				return nil, faultf(atEntry, j, 0, "order entry %d: triangle %d is the twin of an earlier one (leaves hold the first of identical triangles)", j, v)
			}
			mark[v] = leaves
			sh.seq = append(sh.seq, v)
			if last {
				pos = j + 1
				break
			}
		}
		sh.hi[i] = int32(len(sh.seq))
	}
	if next != n {
		return nil, faultf(atTree, 0, 0, "%d of %d nodes are not in the tree", n-next, n)
	}
	if order != nil && pos != len(order) {
		return nil, faultf(atEntry, pos, 0, "order entries %d to %d are in no leaf", pos, len(order)-1)
	}
	for t, mk := range mark {
		if mk == 0 && r.twins.held(int32(t)) {
			return nil, faultf(atTree, 0, 0, "triangle %d is in no leaf", t)
		}
	}
	// An internal node's subtree holds its left subtree's triangles then
	// its right one's, which follow them in seq.
	for i := n - 1; i >= 0; i-- {
		if x := ref(i); x >= 0 {
			sh.lo[i], sh.hi[i] = sh.lo[i+1], sh.hi[i+int(x)]
		}
	}
	return sh, nil
}
