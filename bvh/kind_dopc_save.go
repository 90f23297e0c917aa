package bvh

import (
	"encoding/binary"
	"math"
	"unsafe"

	"github.com/collide3d/collide/bv"
)

// This file is the save layout and read checks of compact k-DOP trees (see
// kind_dopc.go): element width 1 in the header, the block references (k
// float32 each: base and step of each direction) before the nodes, then
// per node its k bytes and its ref.

// cRefsSize returns the size of the block references of nn nodes of a
// compact tree of k.
func cRefsSize(k bv.K, nn int) int64 {
	return int64((nn+cBlock-1)>>cBlockShift) * 4 * int64(k)
}

// encodeNodes writes the block references of t, then its nodes.
func (t *ctree[A, Q]) encodeNodes(e *encoder) {
	var a A
	k := len(a)
	le := binary.LittleEndian
	encodeRecords(e, len(t.refs), int64(4*k), func(i int, p []byte) {
		for j := range k {
			le.PutUint32(p[4*j:], math.Float32bits(t.refs[i][j]))
		}
	})
	encodeRecords(e, len(t.nodes), int64(k+4), func(i int, p []byte) {
		n := &t.nodes[i]
		for j := range k {
			p[j] = n.q[j]
		}
		le.PutUint32(p[k:], uint32(n.ref))
	})
}

// readCTree reads the block references, the nodes and the triangle order
// of a compact tree, checking every reference (finite bases, steps finite
// and ≥ 0 whose grid stays finite) and every node's ref; Read then checks
// the rest (ctree.check).
func readCTree[A bv.Slabs[float32], Q qbytes](d *decoder, h *header) (*ctree[A, Q], error) {
	var a A
	k := len(a)
	le := binary.LittleEndian
	t := &ctree[A, Q]{}
	t.shim.off = h.off
	nb := (h.nn + cBlock - 1) >> cBlockShift
	refsAt := h.nAt - cRefsSize(h.o.K, h.nn)
	t.refs = alloc[A](d, nb, int64(4*k))
	err := decodeRecords(d, nb, int64(4*k), "block references", func(i int, p []byte) {
		var r A
		for j := range k {
			r[j] = math.Float32frombits(le.Uint32(p[4*j:]))
		}
		t.refs = append(t.refs, r)
		for j := 0; j < k; j += 2 {
			b, s := r[j], r[j+1]
			if !finite32(b) || !finite32(s) || !(s >= 0) || !finite32(cdec(255, b, s)) {
				d.badf(refsAt+int64(i*4*k+4*j), "block %d: reference %d (base %v, step %v) is not a finite grid", i, j/2, b, s)
				return
			}
		}
	})
	if err != nil {
		return nil, err
	}
	n := int64(h.nn)
	leafRange, what := int64(h.nt), "triangle"
	if h.o.Leaf > 1 {
		leafRange, what = int64(h.no), "triangle order position"
	}
	var z cnode[Q]
	t.nodes = alloc[cnode[Q]](d, h.nn, int64(unsafe.Sizeof(z)))
	err = decodeRecords(d, h.nn, h.nodeSize, "node array", func(i int, p []byte) {
		var c cnode[Q]
		for j := range k {
			c.q[j] = p[j]
		}
		c.ref = int32(le.Uint32(p[k:]))
		t.nodes = append(t.nodes, c)
		at := h.nAt + int64(i)*h.nodeSize + int64(k)
		switch r, i := int64(c.ref), int64(i); {
		case r >= 0 && (r < 2 || i+r >= n):
			d.badf(at, "node %d: right child offset %d out of range [2, %d)", i, r, n-i)
		case r < 0 && ^r >= leafRange:
			d.badf(at, "node %d: %s %d out of range [0, %d)", i, what, ^r, leafRange)
		}
	})
	if err != nil {
		return nil, err
	}
	t.shim.order, err = readOrder(d, h)
	return t, err
}
