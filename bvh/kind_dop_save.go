package bvh

import (
	"encoding/binary"
	"fmt"
	"math"
	"unsafe"

	"github.com/collide3d/collide/bv"
	"github.com/collide3d/collide/mesh"
)

// This file is the k-DOP kind's save layout and read checks (the kind's
// second file, see kind_dop.go): how its nodes are written and read, and
// the invariants Read and Tree.Validate check.

// check checks the invariants Read relies on (see verify).
func (t *tree[F, A]) check(m *mesh.TriMesh, o Options, tw twinList) *fault {
	i, msg := t.verify(m, o, tw)
	switch {
	case msg == "":
		return nil
	case i < 0:
		return faultf(atTree, 0, 0, "%s", msg)
	}
	return faultf(atNode, i, 0, "%s", msg)
}

// encodeNodes appends the nodes of t to e.
func (t *tree[F, A]) encodeNodes(e *encoder) {
	var z node[F, A]
	k := len(z.s)
	w := int(unsafe.Sizeof(z.s[0]))
	size := k*w + 4
	per := ioChunk / size
	le := binary.LittleEndian
	for lo := 0; lo < len(t.nodes) && e.err == nil; lo += per {
		nodes := t.nodes[lo:min(lo+per, len(t.nodes))]
		b := e.grab(size * len(nodes))
		for i := range nodes {
			nd := &nodes[i]
			p := b[size*i : size*i+size]
			if w == 4 {
				for j := range k {
					le.PutUint32(p[4*j:], math.Float32bits(float32(nd.s[j])))
				}
			} else {
				for j := range k {
					le.PutUint64(p[8*j:], math.Float64bits(float64(nd.s[j])))
				}
			}
			le.PutUint32(p[k*w:], uint32(nd.ref))
		}
	}
}

// readTree reads the nodes and the triangle order.
func readTree[F bv.Float, A bv.Slabs[F]](d *decoder, h *header) (*tree[F, A], error) {
	t := &tree[F, A]{off: h.off}
	var err error
	check := func(nodes []node[F, A], i0 int) { checkNodes(d, h, nodes, i0) }
	if size := int(h.nodeSize); unsafe.Sizeof(node[F, A]{}) == uintptr(size) {
		// float32: the nodes are stored as they are in memory.
		t.nodes, err = readRaw(d, h.nn, size, 4, "node array", check)
	} else {
		t.nodes, err = decodeNodes(d, h, check)
	}
	if err != nil {
		return t, err
	}
	t.order, err = readOrder(d, h)
	return t, err
}

// decodeNodes reads nodes whose memory image differs from the file's.
func decodeNodes[F bv.Float, A bv.Slabs[F]](d *decoder, h *header, check func([]node[F, A], int)) ([]node[F, A], error) {
	n, size := h.nn, int(h.nodeSize)
	var z node[F, A]
	k := len(z.s)
	s := alloc[node[F, A]](d, n, h.nodeSize)
	le := binary.LittleEndian
	for len(s) < n {
		c := min(n-len(s), ioChunk/size)
		b, err := d.next(c*size, "node array")
		if err != nil {
			return nil, err
		}
		i0 := len(s)
		s = grow(s, c, n)[:i0+c]
		nodes := s[i0:]
		for j := range nodes {
			nd := &nodes[j]
			p := b[size*j : size*j+size]
			if h.w == 4 {
				for s := range k {
					nd.s[s] = F(math.Float32frombits(le.Uint32(p[4*s:])))
				}
			} else {
				for s := range k {
					nd.s[s] = F(math.Float64frombits(le.Uint64(p[8*s:])))
				}
			}
			nd.ref = int32(le.Uint32(p[size-4:]))
		}
		check(nodes, i0)
	}
	return s, nil
}

// checkNodes records the first node of nodes, which start at node i0, with
// a NaN bound or a reference out of range.
func checkNodes[F bv.Float, A bv.Slabs[F]](d *decoder, h *header, nodes []node[F, A], i0 int) {
	if d.bad != nil {
		return
	}
	n := int64(h.nn)
	// A leaf's ^ref indexes the triangles or the order.
	leafRange, what := int64(h.nt), "triangle"
	if h.o.Leaf > 1 {
		leafRange, what = int64(h.no), "triangle order position"
	}
	for j := range nodes {
		nd := &nodes[j]
		nan := false
		for s := 0; s < len(nd.s); s++ {
			if nd.s[s] != nd.s[s] {
				nan = true
			}
		}
		i := int64(i0 + j)
		at := h.nAt + i*h.nodeSize
		refAt := at + h.nodeSize - 4
		switch r := int64(nd.ref); {
		case nan:
			d.badf(at, "node %d: NaN bound", i)
		case r >= 0 && (r < 2 || i+r >= n):
			d.badf(refAt, "node %d: right child offset %d out of range [2, %d)", i, r, n-i)
		case r < 0 && ^r >= leafRange:
			d.badf(refAt, "node %d: %s %d out of range [0, %d)", i, what, ^r, leafRange)
		default:
			continue
		}
		return
	}
}

// verify checks the invariants Tree.Validate checks, on the available CPUs,
// and that the tree is at most maxDepth deep. It returns the node at fault
// (-1 for none in particular) and a message, or "" if t is valid. It
// assumes what checkNodes checks.
func (t *tree[F, A]) verify(m *mesh.TriMesh, o Options, tw twinList) (int, string) {
	n, nt := len(t.nodes), len(m.Tris)
	if nt == 0 || n == 0 {
		if n != nt {
			return -1, fmt.Sprintf("%d nodes over %d triangles", n, nt)
		}
		return -1, ""
	}
	// The shape: a depth-first walk checking that the nodes come in the
	// order they are laid out; and the leaves: every triangle in one.
	type item struct{ i, depth int32 }
	stack := []item{{0, 1}}
	seen := make([]bool, nt)
	var tris []int32
	next, inLeaves := 0, 0
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		i := int(it.i)
		if i != next {
			return i, fmt.Sprintf("node %d reached where node %d was expected", i, next)
		}
		if it.depth > maxDepth {
			return i, fmt.Sprintf("node %d: tree deeper than %d levels", i, maxDepth)
		}
		next++
		if r := t.nodes[i].ref; r >= 0 {
			stack = append(stack, item{it.i + r, it.depth + 1}, item{it.i + 1, it.depth + 1})
			continue
		}
		var err error
		if tris, err = t.leafOf(t.nodes[i].ref, tris[:0], nt); err != nil {
			return i, fmt.Sprintf("leaf %d: %v", i, err)
		}
		if len(tris) > o.Leaf {
			return i, fmt.Sprintf("leaf %d holds %d triangles, more than %d", i, len(tris), o.Leaf)
		}
		for _, tr := range tris {
			if seen[tr] {
				return i, fmt.Sprintf("leaf %d: triangle %d is in two leaves", i, tr)
			}
			if !tw.held(tr) {
				return i, fmt.Sprintf("leaf %d: triangle %d is the twin of an earlier one (leaves hold the first of identical triangles)", i, tr)
			}
			seen[tr] = true
		}
		inLeaves += len(tris)
	}
	if next != n {
		return -1, fmt.Sprintf("%d of %d nodes are not in the tree", n-next, n)
	}
	for tr, ok := range seen {
		if !ok && tw.held(int32(tr)) {
			return -1, fmt.Sprintf("triangle %d is in no leaf", tr)
		}
	}
	if t.order != nil && inLeaves != len(t.order) {
		return -1, fmt.Sprintf("the leaves hold %d triangles, the order lists %d", inLeaves, len(t.order))
	}
	// Containment: each node's k-DOP contains its children's, each leaf's
	// the k-DOPs of its triangles rounded outward as Build rounds them.
	i := firstFault(n, func(i int) bool { return !t.contained(i, m, o) })
	if i < 0 {
		return -1, ""
	}
	nd := &t.nodes[i]
	if r := nd.ref; r >= 0 {
		c := i + 1
		if contains[F](&nd.s, &t.nodes[c].s) {
			c = i + int(r)
		}
		return i, fmt.Sprintf("node %d's k-DOP does not contain its child %d's", i, c)
	}
	tris, _ = t.leafOf(nd.ref, tris[:0], nt)
	for _, tr := range tris {
		if !t.holds(nd, tr, m, o) {
			return i, fmt.Sprintf("leaf %d's k-DOP does not contain triangle %d", i, tr)
		}
	}
	return i, "k-DOP containment fails" // not reached
}

// contained reports whether the k-DOP of node i contains those of its
// children or of its triangles. The tree must have the right shape.
func (t *tree[F, A]) contained(i int, m *mesh.TriMesh, o Options) bool {
	nd := &t.nodes[i]
	if r := nd.ref; r >= 0 {
		return contains[F](&nd.s, &t.nodes[i+1].s) && contains[F](&nd.s, &t.nodes[i+int(r)].s)
	}
	x := ^nd.ref
	if t.order == nil {
		return t.holds(nd, x, m, o)
	}
	for j := int(x); ; j++ {
		v := t.order[j]
		if v < 0 {
			return t.holds(nd, ^v, m, o)
		}
		if !t.holds(nd, v, m, o) {
			return false
		}
	}
}

// holds reports whether the k-DOP of nd contains that of triangle tr as
// Build packs it (with bv.PackDOP), as Validate checks.
//
// It avoids the cost of packing: PackDOP stores the slab [l, h] of the
// k-DOP as [roundDown(down(l − off)), roundUp(up(h − off))], where down and
// up step to the adjacent float64 (finite arguments) and roundDown and
// roundUp round to the nearest element of F below and above. For a bound L
// in F and finite y = l − off (rounded), roundDown(down(y)) ≥ L if and only
// if down(y) ≥ L, that is y > L; likewise at the top. Infinite differences
// (huge coordinates) are packed. TestReadLeafBounds checks the equivalence
// on trees that Build makes.
func (t *tree[F, A]) holds(nd *node[F, A], tr int32, m *mesh.TriMesh, o Options) bool {
	d := bv.FitTriangles(o.K, m.Triangle(int(tr)))
	for i := range len(nd.s) / 2 {
		l, h := d.Lo[i]-t.off[i], d.Hi[i]-t.off[i]
		if l-l != 0 || h-h != 0 { // ±Inf
			var p A
			bv.PackDOP[F](&p, &d, &t.off)
			return contains[F](&nd.s, &p)
		}
		if !(float64(nd.s[2*i]) < l && h < float64(nd.s[2*i+1])) {
			return false
		}
	}
	return true
}

func (t *tree[F, A]) validate(m *mesh.TriMesh, o Options, tw twinList) error {
	n := len(t.nodes)
	nt := len(m.Tris)
	if nt == 0 {
		if n != 0 {
			return fmt.Errorf("bvh: %d nodes over no triangles", n)
		}
		return nil
	}
	if n == 0 {
		return fmt.Errorf("bvh: no nodes over %d triangles", nt)
	}
	seen := make([]bool, nt)
	var leafTris []int32
	// Depth-first walk with an explicit stack of (node, parent) pairs,
	// checking that nodes come in the order they are laid out.
	type item struct{ i, parent int }
	stack := []item{{0, -1}}
	next := 0
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		i := it.i
		if i != next {
			return fmt.Errorf("bvh: node %d reached where node %d was expected", i, next)
		}
		next++
		nd := &t.nodes[i]
		if it.parent >= 0 && !contains[F](&t.nodes[it.parent].s, &nd.s) {
			return fmt.Errorf("bvh: node %d's k-DOP does not contain its child %d's", it.parent, i)
		}
		if r := nd.ref; r >= 0 {
			if r < 2 || i+int(r) >= n {
				return fmt.Errorf("bvh: node %d: right child offset %d out of range", i, r)
			}
			stack = append(stack, item{i + int(r), i}, item{i + 1, i})
			continue
		}
		var err error
		if leafTris, err = t.leafOf(nd.ref, leafTris[:0], nt); err != nil {
			return fmt.Errorf("bvh: leaf %d: %v", i, err)
		}
		if len(leafTris) > o.Leaf {
			return fmt.Errorf("bvh: leaf %d holds %d triangles, more than %d", i, len(leafTris), o.Leaf)
		}
		for _, tr := range leafTris {
			if seen[tr] {
				return fmt.Errorf("bvh: triangle %d is in two leaves", tr)
			}
			if !tw.held(tr) {
				return fmt.Errorf("bvh: leaf %d: triangle %d is the twin of an earlier one (leaves hold the first of identical triangles)", i, tr)
			}
			seen[tr] = true
			d := bv.FitTriangles(o.K, m.Triangle(int(tr)))
			var p A
			bv.PackDOP[F](&p, &d, &t.off)
			if !contains[F](&nd.s, &p) {
				return fmt.Errorf("bvh: leaf %d's k-DOP does not contain triangle %d", i, tr)
			}
		}
	}
	if next != n {
		return fmt.Errorf("bvh: %d of %d nodes are not in the tree", n-next, n)
	}
	for tr, ok := range seen {
		if !ok && tw.held(int32(tr)) {
			return fmt.Errorf("bvh: triangle %d is in no leaf", tr)
		}
	}
	return nil
}

// leafOf appends the triangles of the leaf whose ref is ref, checking every
// index against nt.
func (t *tree[F, A]) leafOf(ref int32, dst []int32, nt int) ([]int32, error) {
	x := ^ref
	if t.order == nil {
		if int(x) >= nt {
			return dst, fmt.Errorf("triangle %d out of range [0, %d)", x, nt)
		}
		return append(dst, x), nil
	}
	for j := int(x); ; j++ {
		if j >= len(t.order) {
			return dst, fmt.Errorf("triangle list runs past its end")
		}
		v := t.order[j]
		last := v < 0
		if last {
			v = ^v
		}
		if int(v) >= nt {
			return dst, fmt.Errorf("triangle %d out of range [0, %d)", v, nt)
		}
		dst = append(dst, v)
		if last {
			return dst, nil
		}
	}
}

// contains reports whether every slab of a contains that of b.
func contains[F bv.Float, A bv.Slabs[F]](a, b *A) bool {
	for i := 0; i < len(*a); i += 2 {
		if (*b)[i] < (*a)[i] || (*b)[i+1] > (*a)[i+1] {
			return false
		}
	}
	return true
}
