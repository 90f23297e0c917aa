package bvh

import (
	"math/bits"
	"unsafe"

	"github.com/collide3d/collide/bv"
)

// This file is the wide (4- or 8-ary) layout of a k-DOP environment tree
// and the walk of Collide's modeContact on it, as wide.go is for AABB trees
// (see there); every other mode walks the binary tree.
//
// The layout collapses the depth-first tree[F, A] in the same way (the
// internal child whose axis box has the largest surface opened first; for
// a set without the axes, the box bv.DOP.Box derives),
// each wide node holding its children's k-DOPs structure-of-arrays: row 2j
// holds the lower bounds of slab j of its W children, row 2j + 1 the upper
// ones, as stored in the binary tree (the same numbers, float32 or
// float64, relative to the tree's offsets, rounded outward), with a ref
// each: a wide node (≥ 0) or ^e for leaf e of the binary tree, whose own
// k-DOP is the binary node's.
//
// The walk is Algorithm 1 of the binary walk (traverse): the environment
// is descended first, down to its leaves, W children at a time, then the
// flying tree, whose children are tumbled as fsplit tumbles them. A flying
// k-DOP is tested against all the children of a wide node at once
// (dopMask): every slab of every child, each comparison that of
// bv.Overlap on the same stored numbers (the flying k-DOP padded as
// before), so each verdict is the binary walk's, bit for bit, and the
// proof of the padding is the binary tree's.

// dopLanes are the rows of a wide k-DOP node: one bound of one slab of
// each child.
type dopLanes[F bv.Float] interface{ [4]F | [8]F }

// wideDOP is the wide layout of a k-DOP tree: node c's rows are
// rows[c·k : (c+1)·k], its children's refs kids[c·W : (c+1)·W], their
// number n[c].
type wideDOP[F bv.Float, L dopLanes[F]] struct {
	k    int
	rows []L
	kids []int32
	n    []uint8
}

func (w *wideDOP[F, L]) bytes() int64 {
	var l L
	return int64(unsafe.Sizeof(l))*int64(len(w.rows)) + 4*int64(len(w.kids)) + int64(len(w.n))
}

// wideDOPOf returns the wide layout of the k-DOP tree et of the tree t at
// the width of L, made once (see wideOf).
func wideDOPOf[F bv.Float, A bv.Slabs[F], L dopLanes[F]](t *Tree, et *tree[F, A]) *wideDOP[F, L] {
	var l L
	p := &t.wide.dop4
	if len(l) == 8 {
		p = &t.wide.dop8
	}
	if w, ok := p.Load().(*wideDOP[F, L]); ok {
		return w
	}
	p.CompareAndSwap(nil, collapseDOP[F, A, L](et))
	return p.Load().(*wideDOP[F, L])
}

// collapseDOP makes the wide layout of et, whose root is internal.
func collapseDOP[F bv.Float, A bv.Slabs[F], L dopLanes[F]](et *tree[F, A]) *wideDOP[F, L] {
	var l L
	var a A
	width, k := len(l), len(a)
	w := &wideDOP[F, L]{k: k}
	nodes := et.nodes
	area := func(i int32) float64 {
		s := &nodes[i].s
		if !bv.K(k).Axes() { // the box derived from the diagonals
			d := bv.Unpack[F](s, nil)
			b := d.Box()
			x, y, z := b.Max.X-b.Min.X, b.Max.Y-b.Min.Y, b.Max.Z-b.Min.Z
			return x*y + y*z + z*x
		}
		x, y, z := float64((*s)[1])-float64((*s)[0]), float64((*s)[3])-float64((*s)[2]), float64((*s)[5])-float64((*s)[4])
		return x*y + y*z + z*x
	}
	kids := make([]int32, 0, width)
	var make1 func(b int32) int32
	make1 = func(b int32) int32 {
		at := int32(len(w.n))
		w.n = append(w.n, 0)
		w.rows = append(w.rows, make([]L, k)...)
		w.kids = append(w.kids, make([]int32, width)...)
		kids = append(kids[:0], b+1, b+nodes[b].ref)
		for len(kids) < width {
			best, ar := -1, -1.0
			for i, c := range kids {
				if nodes[c].ref >= 0 {
					if s := area(c); s > ar {
						best, ar = i, s
					}
				}
			}
			if best < 0 {
				break
			}
			c := kids[best]
			kids = append(kids, 0)
			copy(kids[best+2:], kids[best+1:])
			kids[best], kids[best+1] = c+1, c+nodes[c].ref
		}
		mine := append([]int32(nil), kids...)
		w.n[at] = uint8(len(mine))
		for i, c := range mine {
			rows := w.rows[int(at)*k : int(at+1)*k]
			for j := range k {
				rows[j][i] = nodes[c].s[j]
			}
			ref := ^c
			if nodes[c].ref >= 0 {
				ref = make1(c)
			}
			w.kids[int(at)*width+i] = ref
		}
		return at
	}
	make1(0)
	return w
}

// b2u returns 1 for true, 0 for false (compiled without a branch).
func b2u(b bool) uint32 {
	var x uint32
	if b {
		x = 1
	}
	return x
}

// dopMask returns the children, as bits, of the wide node whose rows are
// rows and which has n children, whose k-DOPs overlap the flying k-DOP fd:
// bv.Overlap's comparisons, all of them.
func dopMask[F bv.Float, A bv.Slabs[F], L dopLanes[F]](rows []L, n uint8, fd *A) uint32 {
	var dis uint32
	for j := 0; j+1 < len(rows) && j+1 < len(*fd); j += 2 {
		flo, fhi := (*fd)[j], (*fd)[j+1]
		lo, hi := &rows[j], &rows[j+1]
		for i := range len(*lo) {
			dis |= (b2u(flo > (*hi)[i]) | b2u((*lo)[i] > fhi)) << i
		}
	}
	return ^dis & (1<<n - 1)
}

// collideWide runs q, a query of modeContact, on the wide layout of its
// environment env at wideDOPWidth, and reports whether it did (not when the
// width is 2 or the environment is one leaf).
func (q *dopQuery[F, A]) collideWide(env *Tree) (Stats, bool) {
	if wideDOPWidth != 4 && wideDOPWidth != 8 || len(q.et.nodes) < 2 {
		return Stats{}, false
	}
	// As run: nothing to walk when the query ended at its setup (apart),
	// and the last contact's pair first (tester.tryHint).
	if len(q.sc.walk.stack) == 0 || q.tryHint() {
		return q.st, true
	}
	if wideDOPWidth == 4 {
		walkWideDOP(q, wideDOPOf[F, A, [4]F](env, q.et))
	} else {
		walkWideDOP(q, wideDOPOf[F, A, [8]F](env, q.et))
	}
	return q.st, true
}

// walkWideDOP runs the query q on the wide layout w of its environment.
// It counts a volume test for each child k-DOP tested, and for each pair
// of an environment leaf and a flying node, as the binary walk does.
func walkWideDOP[F bv.Float, A bv.Slabs[F], L dopLanes[F]](q *dopQuery[F, A], w *wideDOP[F, L]) {
	t := &q.tester
	sc := q.sc
	var l L
	width, k := len(l), w.k
	t.st.BVTests++
	if !q.overlap(0, 0, nil) {
		return
	}
	stack := append(sc.wide[:0], wideItem{0, 0, -1})
	for len(stack) > 0 && !t.stop {
		top := len(stack) - 1
		c, f := stack[top].c, stack[top].f
		stack = stack[:top]
		if c >= 0 {
			nc := int(c)
			m := dopMask[F, A, L](w.rows[nc*k:(nc+1)*k], w.n[nc], &sc.fdop[f])
			t.st.BVTests += int64(w.n[nc])
			kids := w.kids[nc*width : (nc+1)*width]
			for m != 0 {
				i := 31 - bits.LeadingZeros32(m)
				m &^= 1 << uint(i)
				stack = append(stack, wideItem{kids[i], f, -1})
			}
			continue
		}
		e := ^c
		fl, fr := q.fkids(f)
		if fl < 0 {
			q.leaves(e, f)
			continue
		}
		q.fsplit(f, nil, nil)
		t.st.BVTests += 2
		if q.overlap(e, fr, nil) {
			stack = append(stack, wideItem{c, fr, -1})
		}
		if q.overlap(e, fl, nil) {
			stack = append(stack, wideItem{c, fl, -1})
		}
	}
	sc.wide = stack
}
