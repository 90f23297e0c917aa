package bvh

import (
	"encoding/binary"

	"github.com/collide3d/collide/mesh"
)

// This file is the save layout of the moved-volume kinds (OBB, sphere,
// AABB, RSS), the part they share: each kind gives the numbers of its
// volume (volKind.floats).

// The node array of an OBB, sphere, AABB or RSS tree has had two layouts.
// The first (files written before leaves lost their volumes) is the one
// Magic describes: nn records, each the numbers of a node's volume
// (volKind.floats) in float64, then its ref. The second, which WriteTo
// writes, leaves the leaves' volumes out (see vtree):
//
//	offset       size       field
//	N            8          tag: "nl", layout 2, element width w (8),
//	                        0, 0, 0xf8, 0x7f
//	N+8          4·nn       refs: int32, as in the first layout
//	N+8+4·nn     ni·s       the volumes of the ni internal nodes (those
//	                        whose ref is ≥ 0), in layout order, each the
//	                        numbers of the first layout in width w:
//	                        s = w·(15 OBB, 4 sphere, 6 AABB, 15 RSS)
//
// The tag, read as the float64 that opens a file of the first layout, is a
// NaN, which that layout never holds: Read tells the layouts apart by it,
// and builds that predate the second layout reject its files (as a NaN
// bound) rather than misread them. An empty tree (nn = 0) has no tag.
const (
	vnodeTagLen = 8
	vnodeLayout = 2 // the layout WriteTo writes
)

// vnodeTag returns the tag of the second node layout for element width w.
func vnodeTag(w int) [vnodeTagLen]byte {
	return [vnodeTagLen]byte{'n', 'l', vnodeLayout, byte(w), 0, 0, 0xf8, 0x7f}
}

// isVNodeTag reports whether b opens a node array of the second layout or
// a later one (whatever its layout and width, which the caller checks).
func isVNodeTag(b []byte) bool {
	t := vnodeTag(0)
	return string(b[:2]) == string(t[:2]) && string(b[4:]) == string(t[4:])
}

// encodeNodes writes the nodes of t in the second layout.
func (t *vtree[V]) encodeNodes(e *encoder) {
	if t.nn == 0 {
		return
	}
	f := t.flatten()
	tag := vnodeTag(8)
	copy(e.grab(vnodeTagLen), tag[:])
	encodeRecords(e, len(f.refs), 4, func(i int, p []byte) {
		binary.LittleEndian.PutUint32(p, uint32(f.refs[i]))
	})
	var buf []*float64
	size := 8 * int64(len(t.vk.floats(new(V), nil)))
	encodeRecords(e, len(t.nodes), size, func(i int, p []byte) {
		buf = t.vk.floats(&t.nodes[i].v, buf[:0])
		for _, x := range buf {
			p = putFloats(p, *x)
		}
	})
}

// savedNodes locates the nodes of a vtree that Read found in the second
// layout: its refs at refsAt, its volumes of size bytes at volsAt, of
// numbers w bytes wide.
type savedNodes struct {
	refsAt, volsAt, size int64
	w                    int
}

// readVTree reads the nodes of a tree of the kind vk over m, in either
// layout, into t.pend (see vtree; check makes the nodes).
func readVTree[V any](vk *volKind[V], d *decoder, h *header, m *mesh.TriMesh) (*vtree[V], error) {
	t := &vtree[V]{vk: vk, m: m, mag: meshMag(m), nn: h.nn}
	var refs []int32
	var vols, leafVols []V
	if h.nn > 0 {
		tag, err := d.next(vnodeTagLen, "node array")
		if err != nil {
			return nil, err
		}
		if isVNodeTag(tag) {
			refs, vols, t.saved, err = readNodes(vk, d, h, tag)
		} else {
			refs, vols, leafVols, err = readLegacyNodes(vk, d, h, tag)
		}
		if err != nil {
			return nil, err
		}
	}
	t.pend = newFlat(refs, vols, leafVols)
	h.oAt = d.off // the order follows the nodes, whatever their layout
	var err error
	t.order, err = readOrder(d, h)
	return t, err
}

// readNodes reads nodes of the kind vk in the second layout, after the
// tag: their refs, the internal nodes' volumes, and where they lie.
func readNodes[V any](vk *volKind[V], d *decoder, h *header, tag []byte) (refs []int32, vols []V, s *savedNodes, err error) {
	at := d.off - vnodeTagLen
	if tag[2] != vnodeLayout || tag[3] != 8 {
		return nil, nil, nil, d.errorf(at+2, "node layout %d of width %d is not supported (this build reads layout %d of width 8)", tag[2], tag[3], vnodeLayout)
	}
	s = &savedNodes{refsAt: at + vnodeTagLen, w: 8}
	refs, err = readRaw(d, h.nn, 4, 4, "node array", func(refs []int32, i0 int) {
		for j, r := range refs {
			i := i0 + j
			d.checkRefAt(s.refsAt+4*int64(i), h.nn, i, r, int64(h.nt))
		}
	})
	if err != nil {
		return nil, nil, nil, err
	}
	ni := 0
	for _, r := range refs {
		if r >= 0 {
			ni++
		}
	}
	var buf []*float64
	s.size = 8 * int64(len(vk.floats(new(V), nil)))
	s.volsAt = d.off
	vols = alloc[V](d, ni, s.size)
	node := 0 // the node whose volume comes next
	err = decodeRecords(d, ni, s.size, "node array", func(j int, p []byte) {
		for refs[node] < 0 {
			node++
		}
		var zero V
		vols = append(vols, zero)
		buf = vk.floats(&vols[j], buf[:0])
		for _, x := range buf {
			var nan bool
			if p, nan = getFloats(p, x); nan {
				d.badf(s.volsAt+int64(j)*s.size, "node %d: NaN bound", node)
			}
		}
		node++
	})
	return refs, vols, s, err
}

// readLegacyNodes reads nodes of the kind vk in the first layout, whose
// first 8 bytes have been read: their refs, and the volumes of the
// internal nodes and of the leaves.
func readLegacyNodes[V any](vk *volKind[V], d *decoder, h *header, first []byte) (refs []int32, vols, leafVols []V, err error) {
	size := h.nodeSize
	rec := make([]byte, size)
	copy(rec, first)
	rest, err := d.next(int(size)-vnodeTagLen, "node array")
	if err != nil {
		return nil, nil, nil, err
	}
	copy(rec[vnodeTagLen:], rest)
	// The volumes are allocated as they arrive (see alloc).
	refs = alloc[int32](d, h.nn, size)
	all := alloc[V](d, h.nn, size)
	var buf []*float64
	get := func(i int, p []byte) {
		var zero V
		all = append(all, zero)
		var nan bool
		buf = vk.floats(&all[len(all)-1], buf[:0])
		for _, x := range buf {
			var n bool
			p, n = getFloats(p, x)
			nan = nan || n
		}
		ref := int32(binary.LittleEndian.Uint32(p))
		refs = append(refs, ref)
		if nan {
			d.badf(h.nAt+int64(i)*size, "node %d: NaN bound", i)
		}
		d.checkRef(h, i, ref, int64(h.nt))
	}
	get(0, rec)
	if err := decodeRecords(d, h.nn-1, size, "node array", func(i int, p []byte) { get(i+1, p) }); err != nil {
		return nil, nil, nil, err
	}
	for i, r := range refs {
		if r >= 0 {
			vols = append(vols, all[i])
		} else {
			leafVols = append(leafVols, all[i])
		}
	}
	return refs, vols, leafVols, nil
}
