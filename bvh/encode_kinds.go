package bvh

import (
	"encoding/binary"
	"math"

	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh"
)

// boxRootSize is the size of the root box that precedes a box-tree's nodes.
const boxRootSize = 6 * 8

// putFloats stores xs at p, little-endian, and returns the rest of p.
func putFloats(p []byte, xs ...float64) []byte {
	for _, x := range xs {
		binary.LittleEndian.PutUint64(p, math.Float64bits(x))
		p = p[8:]
	}
	return p
}

// getFloats loads len(xs) float64s from p into xs and returns the rest of
// p; nan reports whether one was NaN.
func getFloats(p []byte, xs ...*float64) (rest []byte, nan bool) {
	for _, x := range xs {
		*x = math.Float64frombits(binary.LittleEndian.Uint64(p))
		nan = nan || *x != *x
		p = p[8:]
	}
	return p, nan
}

// encodeRecords writes n records of size bytes, record i filled by put.
func encodeRecords(e *encoder, n int, size int64, put func(i int, p []byte)) {
	per := int(ioChunk / size)
	for lo := 0; lo < n && e.err == nil; lo += per {
		hi := min(lo+per, n)
		b := e.grab(int(size) * (hi - lo))
		for i := lo; i < hi; i++ {
			put(i, b[int(size)*(i-lo):int(size)*(i-lo+1)])
		}
	}
}

// decodeRecords reads n records of size bytes, what the file calls them,
// passing record i to get, in chunks.
func decodeRecords(d *decoder, n int, size int64, what string, get func(i int, p []byte)) error {
	per := int(ioChunk / size)
	for lo := 0; lo < n; lo += per {
		hi := min(lo+per, n)
		b, err := d.next(int(size)*(hi-lo), what)
		if err != nil {
			return err
		}
		for i := lo; i < hi; i++ {
			get(i, b[int(size)*(i-lo):int(size)*(i-lo+1)])
		}
	}
	return nil
}

// encodeNodes writes the nodes of t: per node the numbers of its volume
// (volKind.floats) in float64, then its ref.
func (t *vtree[V]) encodeNodes(e *encoder) {
	size := nodeSize(Options{Kind: t.vk.kind})
	var buf []*float64
	encodeRecords(e, len(t.refs), size, func(i int, p []byte) {
		buf = t.vk.floats(&t.vols[i], buf[:0])
		for _, x := range buf {
			p = putFloats(p, *x)
		}
		binary.LittleEndian.PutUint32(p, uint32(t.refs[i]))
	})
}

// encodeNodes writes the root box of t, then per node its two bounds in
// float64, its ref and its axis as uint32.
func (t *boxTree) encodeNodes(e *encoder) {
	if len(t.nodes) > 0 {
		r := t.root
		putFloats(e.grab(boxRootSize), r.Min.X, r.Min.Y, r.Min.Z, r.Max.X, r.Max.Y, r.Max.Z)
	}
	encodeRecords(e, len(t.nodes), nodeSize(Options{Kind: BoxTree}), func(i int, p []byte) {
		n := &t.nodes[i]
		p = putFloats(p, n.hi, n.lo)
		binary.LittleEndian.PutUint32(p, uint32(n.ref))
		binary.LittleEndian.PutUint32(p[4:], uint32(n.axis))
	})
}

// readOrder reads the triangle order of h.no entries, checking each
// against the triangle count.
func readOrder(d *decoder, h *header) ([]int32, error) {
	if h.no == 0 {
		return nil, nil
	}
	return readRaw(d, h.no, 4, 4, "triangle order", func(order []int32, i0 int) {
		nt := int32(h.nt)
		for j, v := range order {
			if v < 0 {
				v = ^v
			}
			if v >= nt {
				i := i0 + j
				d.badf(h.oAt+4*int64(i), "order entry %d: triangle %d out of range [0, %d)", i, v, nt)
				return
			}
		}
	})
}

// readVTree reads the nodes of a tree of the kind vk over m.
func readVTree[V any](vk *volKind[V], d *decoder, h *header, m *mesh.TriMesh) (*vtree[V], error) {
	// The volumes are allocated as they arrive (see alloc).
	t := &vtree[V]{vk: vk, mag: meshMag(m), refs: alloc[int32](d, h.nn, h.nodeSize), vols: alloc[V](d, h.nn, h.nodeSize)}
	var buf []*float64
	err := decodeRecords(d, h.nn, h.nodeSize, "node array", func(i int, p []byte) {
		var zero V
		t.vols = append(t.vols, zero)
		var nan bool
		buf = vk.floats(&t.vols[len(t.vols)-1], buf[:0])
		for _, x := range buf {
			var n bool
			p, n = getFloats(p, x)
			nan = nan || n
		}
		ref := int32(binary.LittleEndian.Uint32(p))
		t.refs = append(t.refs, ref)
		if nan {
			d.badf(h.nAt+int64(i)*h.nodeSize, "node %d: NaN bound", i)
		}
		d.checkRef(h, i, ref, int64(h.nt))
	})
	if err != nil {
		return nil, err
	}
	t.order, err = readOrder(d, h)
	return t, err
}

// readBoxTree reads the root box and the nodes of a box-tree over m.
func readBoxTree(d *decoder, h *header, m *mesh.TriMesh) (*boxTree, error) {
	t := &boxTree{mag: meshMag(m), root: geom.EmptyAABB()}
	if h.nn > 0 {
		b, err := d.next(boxRootSize, "root box")
		if err != nil {
			return nil, err
		}
		r := &t.root
		if _, nan := getFloats(b, &r.Min.X, &r.Min.Y, &r.Min.Z, &r.Max.X, &r.Max.Y, &r.Max.Z); nan {
			d.badf(h.nAt-boxRootSize, "NaN in the root box")
		}
	}
	t.nodes = alloc[cut](d, h.nn, h.nodeSize)
	err := decodeRecords(d, h.nn, h.nodeSize, "node array", func(i int, p []byte) {
		var c cut
		p, nan := getFloats(p, &c.hi, &c.lo)
		c.ref = int32(binary.LittleEndian.Uint32(p))
		axis := binary.LittleEndian.Uint32(p[4:])
		c.axis = uint8(min(axis, 3))
		t.nodes = append(t.nodes, c)
		at := h.nAt + int64(i)*h.nodeSize
		switch {
		case nan:
			d.badf(at, "node %d: NaN bound", i)
		case axis > 2:
			d.badf(at+20, "node %d: axis %d (want 0, 1 or 2)", i, axis)
		}
		d.checkRef(h, i, c.ref, int64(h.no))
	})
	if err != nil {
		return nil, err
	}
	// The order's entries may be out of range until Read has checked
	// them: Read sets t.dup after.
	t.order, err = readOrder(d, h)
	return t, err
}

// checkRef records a reference of node i out of range: a right child
// beyond the array, or a leaf's first entry at or beyond leafRange.
func (d *decoder) checkRef(h *header, i int, ref int32, leafRange int64) {
	r, n := int64(ref), int64(h.nn)
	at := h.nAt + int64(i+1)*h.nodeSize - 4
	if h.o.Kind == BoxTree {
		at -= 4
	}
	switch {
	case r >= 0 && (r < 2 || int64(i)+r >= n):
		d.badf(at, "node %d: right child offset %d out of range [2, %d)", i, r, n-int64(i))
	case r < 0 && ^r >= leafRange:
		d.badf(at, "node %d: leaf reference %d out of range [0, %d)", i, ^r, leafRange)
	}
}
