package bvh

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"math"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/collide3d/collide/bv"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh"
)

// Magic is the first 8 bytes of a saved tree: the binary format in which
// Tree.WriteTo saves a built tree together with its mesh, and from which
// Read loads it back, much faster than Build rebuilds it. The final 0x1a
// (Ctrl-Z) ends the text for tools that print files.
//
// The format is little-endian throughout; k is the number of k-DOP planes,
// w the element width (4 or 8) and nv, nt, nn, no the counts of vertices,
// triangles, nodes and order entries:
//
//	offset       size          field
//	0            8             magic: Magic ("COLLIDE\x1a")
//	8            4             format version: uint32 2, or 3 with an extra
//	                           section (Read reads 1 too)
//	12           4             bounding-volume kind: uint32 1 + Kind (1 k-DOP,
//	                           2 OBB, 3 sphere, 4 AABB, 5 box-tree, 6 RSS)
//	16           4             k: uint32 6, 8, 12, 14, 18, 20 or 26 (k-DOP), else 0
//	20           4             element width w: uint32 4 (float32), 8
//	                           (float64) or 1 (compact, 8 bits: below);
//	                           8 for the other kinds
//	24           4             splitting rule: uint32 0-4 (Splatter … RAPID)
//	28           4             split point: uint32 0 (Mean) or 1 (Median)
//	32           4             leaf size: uint32 1-65536
//	36           4             flying leaf size: uint32 0-65536 (0: size rule)
//	40           8·k/2         origin offsets off[0..k/2): float64, finite
//	H = 40+4k    8             nv: uint64 ≤ mesh.MaxVertices
//	H+8          8             nt: uint64 ≤ mesh.MaxTriangles
//	H+16         8             nn: uint64, 0 if nt = 0, else 1 ≤ nn ≤ 2·nt−1
//	H+24         8             no: uint64, 0 for leaf size 1, else the
//	                           number of triangles the leaves hold (below)
//	V = H+32     24·nv         vertices: x, y, z float64
//	T = V+24·nv  12·nt         triangles: three int32 vertex indices
//	N = T+12·nt  nn·s          nodes, depth first, of s bytes each (below)
//	O = N+nn·s   4·no          triangle order: int32
//	E = O+4·no   8             version 3 only: the extra section's length x:
//	                           uint64 ≤ 2^16 + 16·nv + 32·nt
//	E+8          x             version 3 only: the extra section
//	C            4             CRC-32C (Castagnoli) of bytes [0, C), where C
//	                           is O+4·no (versions 1, 2) or E+8+x (3)
//
// A node holds its volume, then an int32 ref; the volumes are, in float64
// unless said otherwise:
//
//	k-DOP     s = k·w+4   the k bounds lo₀, hi₀, lo₁, hi₁, … (float32 or
//	                      float64)
//	OBB       s = 124     centre x, y, z; the axes as rows, 9 numbers;
//	                      half-extents
//	sphere    s = 36      centre x, y, z; radius
//	AABB      s = 52      centre x, y, z; half-extents
//	box-tree  s = 24      the left child's upper bound, the right child's
//	                      lower bound; after the ref, the axis: uint32 0-2
//	RSS       s = 124     rectangle centre x, y, z; the axes as rows, 9
//	                      numbers (edge directions, then normal); half
//	                      side lengths L0, L1; radius
//
// A compact k-DOP tree (w = 1, Options.Compact) stores ⌈nn/16⌉ block
// references before its nodes, k float32 each (the base and the step of
// each of the k/2 directions, finite, the step ≥ 0), and a node is k bytes
// then its ref (s = k+4): bound j of node i reads as base + float32(q·step)
// in float32 with the reference of block ⌊i/16⌋ (see bvh/kind_dopc.go).
// Read checks that every node's bounds so read contain its triangles.
//
// That is the first node layout, which k-DOP and box-trees keep. OBB,
// sphere, AABB and RSS trees are written in a second one, without leaf
// volumes (see vtree_save.go): a tag, the nn refs depth first, then the
// volumes of the internal nodes only; Read reads both.
//
// A box-tree's nodes are preceded by its root box (min x, y, z, max x, y,
// z: 48 bytes); its order lists every leaf's triangles (a triangle may be
// in several leaves, and 1 ≤ nn ≤ 2·no−1).
//
// The leaves hold every triangle but twins: of identical triangles (the
// same nine coordinates, bit for bit, in the same order) only the first is
// in a leaf, and queries report its pairs for all of them. Read finds the
// twins again from the mesh. In version 1 the leaves hold every triangle,
// twins included (no ≥ nt for box-trees, no = nt otherwise).
//
// A k-DOP node's bounds are those of its k-DOP less the offsets, rounded
// outward, as Build stores them. A node's ref (every kind) is, for an
// internal node, the offset r ≥ 2 of its right child (its left child is the
// next node); for a leaf it is ^x (negative), where x is its triangle (leaf
// size 1) or the position in the order of its first triangle; the order
// lists the triangles leaf by leaf, in the order of the leaves in the node
// array, the last one of each leaf complemented (^t).
//
// The extra section of version 3 holds bytes bvh does not interpret, which
// WriteExtra writes and ReadExtra returns: collide.Model.Save stores the
// model's topology there (package topo's encoding), which collide.ReadModel
// decodes and checks. Read checks only its length.
//
// Read accepts only the files whose contents satisfy every invariant it
// lists: those of the trees Build makes, which the queries rely on.
const Magic = "COLLIDE\x1a"

// FormatName is the Format of the *mesh.FormatError values Read returns.
const FormatName = "collide"

// formatVersion is the latest version Read reads, which WriteExtra writes;
// WriteTo writes version 2. Version 2 differs from version 1 in what the
// leaves hold: every triangle but twins (identical triangles but the
// first: see twinList), where version 1 trees hold every triangle. Version
// 3 is version 2 with an extra section before the checksum. Read reads
// all three.
const formatVersion = 3

// maxExtra bounds the length of an extra section Read accepts for nv
// vertices and nt triangles.
func maxExtra(nv, nt int) int64 { return 1<<16 + 16*int64(nv) + 32*int64(nt) }

// headerFixed is the size of the header before the offsets.
const headerFixed = 40

// ioChunk is the size of the chunks written and read.
const ioChunk = 1 << 20

// maxDepth bounds the height of a tree Read accepts: deeper ones would
// exhaust the stack of the recursive walks.
const maxDepth = 1 << 20

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// WriteTo writes t and its mesh to w in the format described at Magic
// (version 2, or 1 for a tree read from a file of version 1) and returns
// the number of bytes written. It buffers its output in large chunks, so w
// need not be buffered.
func (t *Tree) WriteTo(w io.Writer) (int64, error) { return t.write(w, nil, false) }

// ErrAllHeld is the error of WriteExtra for a tree read from a file of
// format version 1, whose leaves hold every triangle, twins included: it
// has no version 3 form (WriteTo saves it in version 1).
var ErrAllHeld = errors.New("bvh: a tree read from a file of format version 1 is saved in version 1, without an extra section")

// WriteExtra writes t as WriteTo does, in version 3, with the extra
// section extra (bytes bvh does not interpret: see Magic), which ReadExtra
// returns. For a tree read from a file of version 1 it writes nothing and
// returns ErrAllHeld.
func (t *Tree) WriteExtra(w io.Writer, extra []byte) (int64, error) {
	if t.allHeld {
		return 0, ErrAllHeld
	}
	if int64(len(extra)) > maxExtra(len(t.mesh.Verts), len(t.mesh.Tris)) {
		return 0, fmt.Errorf("bvh: an extra section of %d bytes is too large to save", len(extra))
	}
	return t.write(w, extra, true)
}

func (t *Tree) write(w io.Writer, extra []byte, withExtra bool) (int64, error) {
	m := t.mesh
	if len(m.Verts) > mesh.MaxVertices || len(m.Tris) > mesh.MaxTriangles {
		return 0, fmt.Errorf("bvh: mesh of %d vertices and %d triangles is too large to save", len(m.Verts), len(m.Tris))
	}
	k := t.opts.K
	w8 := uint32(4)
	switch {
	case t.opts.Compact:
		w8 = 1
	case t.opts.Float64:
		w8 = 8
	}
	nn, no := t.impl.len(), len(t.impl.perm())
	size := headerFixed + 4*int64(k) + 32 + 24*int64(len(m.Verts)) + 12*int64(len(m.Tris)) +
		int64(nn)*nodeSize(t.opts) + 4*int64(no) + 4
	if t.opts.Compact {
		size += cRefsSize(k, nn)
	}
	if withExtra {
		size += 8 + int64(len(extra))
	}
	e := &encoder{w: w, buf: make([]byte, 0, min(size, ioChunk))}

	h := e.grab(headerFixed + 4*int(k) + 32)
	copy(h, Magic)
	le := binary.LittleEndian
	version := uint32(2)
	if withExtra {
		version = 3
	}
	if t.allHeld {
		version = 1 // the leaves hold every triangle, twins included
	}
	for i, v := range []uint32{version, uint32(t.opts.Kind) + 1, uint32(k), w8, uint32(t.opts.Rule),
		uint32(t.opts.Split), uint32(t.opts.Leaf), uint32(t.opts.FlyLeaf)} {
		le.PutUint32(h[8+4*i:], v)
	}
	if off, ok := t.impl.(interface{ offsets() *[bv.MaxSlabs]float64 }); ok {
		for i := range k.Slabs() {
			le.PutUint64(h[headerFixed+8*i:], math.Float64bits(off.offsets()[i]))
		}
	}
	c := h[headerFixed+4*int(k):]
	for i, v := range []int{len(m.Verts), len(m.Tris), nn, no} {
		le.PutUint64(c[8*i:], uint64(v))
	}

	const vs = 24
	for lo := 0; lo < len(m.Verts) && e.err == nil; lo += ioChunk / vs {
		vv := m.Verts[lo:min(lo+ioChunk/vs, len(m.Verts))]
		b := e.grab(vs * len(vv))
		for i := range vv {
			p := b[vs*i : vs*i+vs]
			le.PutUint64(p[0:], math.Float64bits(vv[i].X))
			le.PutUint64(p[8:], math.Float64bits(vv[i].Y))
			le.PutUint64(p[16:], math.Float64bits(vv[i].Z))
		}
	}
	const ts = 12
	for lo := 0; lo < len(m.Tris) && e.err == nil; lo += ioChunk / ts {
		tt := m.Tris[lo:min(lo+ioChunk/ts, len(m.Tris))]
		b := e.grab(ts * len(tt))
		for i := range tt {
			p := b[ts*i : ts*i+ts]
			le.PutUint32(p[0:], uint32(tt[i][0]))
			le.PutUint32(p[4:], uint32(tt[i][1]))
			le.PutUint32(p[8:], uint32(tt[i][2]))
		}
	}
	t.impl.encodeNodes(e)
	order := t.impl.perm()
	for lo := 0; lo < len(order) && e.err == nil; lo += ioChunk / 4 {
		oo := order[lo:min(lo+ioChunk/4, len(order))]
		b := e.grab(4 * len(oo))
		for i, v := range oo {
			le.PutUint32(b[4*i:], uint32(v))
		}
	}
	if withExtra {
		le.PutUint64(e.grab(8), uint64(len(extra)))
		for lo := 0; lo < len(extra) && e.err == nil; lo += ioChunk {
			copy(e.grab(min(ioChunk, len(extra)-lo)), extra[lo:])
		}
	}
	e.flush()
	if e.err == nil {
		var sum [4]byte
		le.PutUint32(sum[:], e.crc)
		var n int
		n, e.err = w.Write(sum[:])
		e.n += int64(n)
	}
	return e.n, e.err
}

// encoder buffers the output of WriteTo and sums it.
type encoder struct {
	w   io.Writer
	buf []byte
	n   int64 // bytes written to w
	crc uint32
	err error
}

// grab returns the next n ≤ ioChunk bytes of the output, to be filled in,
// flushing the buffer first if they do not fit. After an error it returns
// a scratch slice that is never written.
func (e *encoder) grab(n int) []byte {
	if len(e.buf)+n > cap(e.buf) {
		e.flush()
		if cap(e.buf) < n {
			e.buf = make([]byte, 0, n)
		}
	}
	if e.err != nil {
		e.buf = e.buf[:0]
	}
	l := len(e.buf)
	e.buf = e.buf[:l+n]
	return e.buf[l : l+n]
}

// flush writes the buffer out.
func (e *encoder) flush() {
	if e.err != nil || len(e.buf) == 0 {
		e.buf = e.buf[:0]
		return
	}
	e.crc = crc32.Update(e.crc, castagnoli, e.buf)
	n, err := e.w.Write(e.buf)
	e.n += int64(n)
	if err == nil && n < len(e.buf) {
		err = io.ErrShortWrite
	}
	e.err = err
	e.buf = e.buf[:0]
}

// header is the decoded header of a saved tree.
type header struct {
	version        int
	o              Options
	w              int // element width
	off            [bv.MaxSlabs]float64
	nv, nt, nn, no int
	nodeSize       int64
	// Offsets of the vertex, triangle, node and order arrays.
	vAt, tAt, nAt, oAt int64
}

// decoder reads a saved tree.
type decoder struct {
	r   io.Reader
	off int64 // bytes read
	// left is the number of bytes r held when Read began, or -1 if unknown.
	left int64
	crc  uint32
	buf  []byte
	bad  error // the first invalid content found, reported after the checksum
}

// Read reads a tree and its mesh saved by Tree.WriteTo (see Magic), reading
// no further than the checksum, and checks them, so that data that is
// corrupt or forged, even with a matching checksum, is rejected unless it is
// a valid tree: queries on a tree that Read returns find exactly the pairs
// of testing every pair, as on one that Build returns. Read never panics,
// whatever the bytes.
//
// Read checks the header and the counts against the limits before it
// allocates, and reads the arrays in chunks, allocating as the data arrives
// (all at once when r tells how much it holds: bytes.Reader, os.File, …), so
// that a short file declaring huge counts fails at its end without
// allocating for them. It then verifies the checksum, the mesh (finite
// coordinates, indices in range), that no bound is NaN, every reference
// and order entry in range, and the invariants of Tree.Validate, on the
// available CPUs, which for each kind are every one the queries rely on
// (vtree_check.go and kind_boxtree.go tell why they suffice; m is the
// largest |coordinate| of the mesh):
//
//   - every kind but box-trees: the nodes form one binary tree laid out
//     depth first, at most 2^20 levels deep; every triangle is in exactly
//     one leaf, of at most the leaf size; the leaves list the triangle
//     order in turn;
//   - k-DOP trees: each node's k-DOP contains its children's and each
//     leaf's those of its triangles as Build rounds them, compared exactly;
//   - OBB, sphere, AABB and RSS trees: each node's volume has finite
//     numbers, its centre within [−2m, 2m]³, its radius, half-extents or
//     half side lengths in [0, 2m] (or, for an OBB, all three +Inf, and
//     for an RSS a radius of +Inf: the volume around everything), an OBB's
//     or RSS's axes orthonormal to within 16 ulps (2^-49); and it contains
//     exactly every vertex of the triangles below it (an OBB in the slab
//     form |(x − C)·a_k| ≤ h_k of its axes a_k and half-extents h_k, as
//     bv.FitOBB makes it; an RSS in the form of bv.RSS, in its axes);
//   - box-trees: the root box lies in [−m, m]³ and contains every triangle;
//     the nodes form one binary tree laid out depth first, at most 65
//     levels deep, its cuts on axes 0 to 2; the leaves list the order in
//     turn, none holds a triangle twice, every triangle is in at least
//     one; and at every cut the bounds are finite and within the node's
//     box (so every box is in the root box), the triangles of the left
//     subtree that are not in the right one lie at or below the left
//     child's bound, those of the right subtree not in the left one at or
//     above the right child's, and if a triangle is in both, the children's
//     boxes leave no gap.
//
// Problems with the data are reported as a *mesh.FormatError with Format
// FormatName, the offset of the offending bytes (counted from where Read
// began: the field of the node, order entry or header at fault where
// there is one, else the start of the node array) and a message; errors of
// r itself are returned wrapped.
func Read(r io.Reader) (*Tree, error) {
	t, _, _, err := ReadExtra(r)
	return t, err
}

// ReadExtra reads and checks a tree as Read does, and returns the extra
// section of a file of version 3 (see Magic; nil for versions 1 and 2)
// with the offset of its first byte, for the caller to decode and check:
// Read checks only its length.
func ReadExtra(r io.Reader) (t *Tree, extra []byte, at int64, err error) {
	d := &decoder{r: r, left: remaining(r)}
	h, err := d.header()
	if err != nil {
		return nil, nil, 0, err
	}
	m := &mesh.TriMesh{}
	if m.Verts, err = readRaw(d, h.nv, 24, 8, "vertex array", func(vs []geom.Vec3, i0 int) { h.checkVerts(d, vs, i0) }); err != nil {
		return nil, nil, 0, err
	}
	if m.Tris, err = readRaw(d, h.nt, 12, 4, "triangle array", func(ts [][3]int32, i0 int) { h.checkTris(d, ts, i0) }); err != nil {
		return nil, nil, 0, err
	}
	ti, err := kinds[h.o.Kind].read(d, h, m)
	if err != nil {
		return nil, nil, 0, err
	}
	if h.version >= 3 {
		b, err := d.next(8, "extra section's length")
		if err != nil {
			return nil, nil, 0, err
		}
		if x, lim := binary.LittleEndian.Uint64(b), maxExtra(h.nv, h.nt); x > uint64(lim) {
			return nil, nil, 0, d.errorf(d.off-8, "extra section of %d bytes, more than the limit %d", x, lim)
		} else if at = d.off; x > 0 {
			if extra, err = readRaw(d, int(x), 1, 1, "extra section", func([]byte, int) {}); err != nil {
				return nil, nil, 0, err
			}
		} else {
			extra = []byte{}
		}
	}
	want := d.crc
	sum, err := d.next(4, "checksum")
	if err != nil {
		return nil, nil, 0, err
	}
	if got := binary.LittleEndian.Uint32(sum); got != want {
		return nil, nil, 0, d.errorf(d.off-4, "checksum mismatch (stored %08x, computed %08x)", got, want)
	}
	if d.bad != nil {
		return nil, nil, 0, d.bad
	}
	if err := m.Validate(); err != nil {
		return nil, nil, 0, d.errorf(h.vAt, "%v", err)
	}
	// The leaves of a version 1 tree hold every triangle; those of a
	// later one, the first of each group of twins.
	var tw twinList
	if h.version > 1 {
		tw, _ = findTwins(m)
	}
	if f := ti.check(m, h.o, tw); f != nil {
		return nil, nil, 0, d.errorf(f.offset(h), "%s", f.msg)
	}
	return &Tree{mesh: m, opts: h.o, impl: ti, twins: tw, allHeld: h.version == 1}, extra, at, nil
}

// remaining returns the number of bytes left in r, if r tells it cheaply
// (bytes.Reader, strings.Reader, bytes.Buffer, regular files,
// io.SectionReader), else -1.
func remaining(r io.Reader) int64 {
	if l, ok := r.(interface{ Len() int }); ok {
		return int64(l.Len())
	}
	s, ok := r.(io.Seeker)
	if !ok {
		return -1
	}
	var size int64
	switch f := r.(type) {
	case interface{ Stat() (fs.FileInfo, error) }:
		fi, err := f.Stat()
		if err != nil || !fi.Mode().IsRegular() {
			return -1
		}
		size = fi.Size()
	case interface{ Size() int64 }:
		size = f.Size()
	default:
		return -1
	}
	at, err := s.Seek(0, io.SeekCurrent)
	if err != nil || at > size {
		return -1
	}
	return size - at
}

// errorf returns a FormatError at offset at.
func (d *decoder) errorf(at int64, format string, args ...any) error {
	return &mesh.FormatError{Format: FormatName, Offset: at, Msg: fmt.Sprintf(format, args...)}
}

// badf records the first invalid content, at offset at.
func (d *decoder) badf(at int64, format string, args ...any) {
	if d.bad == nil {
		d.bad = d.errorf(at, format, args...)
	}
}

// next reads the next n bytes, part of what, into the reused buffer.
func (d *decoder) next(n int, what string) ([]byte, error) {
	if cap(d.buf) < n {
		d.buf = make([]byte, n)
	}
	b := d.buf[:n]
	return b, d.fill(b, what)
}

// fill reads len(b) bytes, part of what, into b.
func (d *decoder) fill(b []byte, what string) error {
	got, err := io.ReadFull(d.r, b)
	if err != nil {
		end := d.off + int64(got)
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			return d.errorf(end, "truncated: file ends at byte %d inside the %s", end, what)
		}
		return fmt.Errorf("bvh: reading byte %d: %w", end, err)
	}
	d.crc = crc32.Update(d.crc, castagnoli, b)
	d.off += int64(len(b))
	return nil
}

// alloc returns an empty slice for n elements of size bytes each: with room
// for all of them if r is known to hold them, else for a first chunk.
func alloc[T any](d *decoder, n int, size int64) []T {
	if d.left >= 0 && int64(n)*size <= d.left-d.off {
		return make([]T, 0, n)
	}
	return make([]T, 0, min(int64(n), ioChunk/size))
}

// grow makes room in s for c more elements, of n in all, doubling its
// capacity: what is allocated stays within twice what has been read.
func grow[T any](s []T, c, n int) []T {
	if len(s)+c <= cap(s) {
		return s
	}
	t := make([]T, len(s), min(n, max(2*cap(s), len(s)+c)))
	copy(t, s)
	return t
}

func (d *decoder) header() (*header, error) {
	le := binary.LittleEndian
	// The magic first, so that a short file of another kind is not
	// reported as truncated.
	var mg [len(Magic)]byte
	got, err := io.ReadFull(d.r, mg[:])
	if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
		return nil, fmt.Errorf("bvh: reading byte %d: %w", got, err)
	}
	if string(mg[:got]) != Magic[:got] {
		return nil, d.errorf(0, "not a %s model file (bad magic)", FormatName)
	}
	if err != nil {
		return nil, d.errorf(int64(got), "truncated: file ends at byte %d inside the header", got)
	}
	d.crc = crc32.Update(0, castagnoli, mg[:])
	d.off = int64(len(mg))

	b, err := d.next(headerFixed-len(Magic), "header")
	if err != nil {
		return nil, err
	}
	field := func(at int) uint32 { return le.Uint32(b[at-len(Magic):]) }
	h := &header{}
	if v := field(8); v < 1 || v > formatVersion {
		return nil, d.errorf(8, "unsupported version %d (this build reads versions 1 to %d)", v, formatVersion)
	} else {
		h.version = int(v)
	}
	if v := field(12); v < 1 || v > uint32(len(kinds)) {
		return nil, d.errorf(12, "unsupported bounding-volume kind %d (this build reads 1 to %d)", v, len(kinds))
	} else {
		h.o.Kind = Kind(v - 1)
	}
	k := field(16)
	switch {
	case h.o.Kind == KDOP && (k > 26 || !bv.K(k).Valid()):
		return nil, d.errorf(16, "k = %d is not supported (want 6, 8, 12, 14, 18, 20 or 26)", k)
	case h.o.Kind != KDOP && k != 0:
		return nil, d.errorf(16, "k = %d for a %v tree (want 0)", k, h.o.Kind)
	}
	h.o.K = bv.K(k)
	switch v := field(20); {
	case v == 8 || (v == 4 || v == 1) && h.o.Kind == KDOP:
		h.w = int(v)
		h.o.Float64 = v == 8
		h.o.Compact = v == 1
	case h.o.Kind == KDOP:
		return nil, d.errorf(20, "element width %d is not supported (want 4 for float32, 8 for float64 or 1 for compact)", v)
	default:
		return nil, d.errorf(20, "element width %d is not supported for a %v tree (want 8)", v, h.o.Kind)
	}
	if v := field(24); v > uint32(RAPID) || v == uint32(RAPID) && h.o.Kind != OBB {
		return nil, d.errorf(24, "unknown splitting rule %d", v)
	} else {
		h.o.Rule = Rule(v)
	}
	if v := field(28); v > uint32(Median) {
		return nil, d.errorf(28, "unknown split point %d", v)
	} else {
		h.o.Split = Split(v)
	}
	if v := field(32); v < 1 || v > maxLeaf {
		return nil, d.errorf(32, "leaf size %d out of range [1, %d]", v, maxLeaf)
	} else {
		h.o.Leaf = int(v)
	}
	if v := field(36); v > maxLeaf || v != 0 && h.o.Kind != KDOP {
		return nil, d.errorf(36, "flying leaf size %d out of range [0, %d]", v, maxLeaf)
	} else {
		h.o.FlyLeaf = int(v)
	}

	ns := int(k) / 2
	b, err = d.next(8*ns+32, "header")
	if err != nil {
		return nil, err
	}
	for i := range ns {
		x := math.Float64frombits(le.Uint64(b[8*i:]))
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return nil, d.errorf(headerFixed+8*int64(i), "origin offset %d is not finite (%v)", i, x)
		}
		h.off[i] = x
	}
	at := int64(headerFixed + 8*ns)
	c := b[8*ns:]
	nv, nt, nn, no := le.Uint64(c), le.Uint64(c[8:]), le.Uint64(c[16:]), le.Uint64(c[24:])
	// The order lists every triangle (version 1), or every triangle but
	// twins, at least one (later versions); the leaves decide which.
	minNo := nt
	if h.version > 1 {
		minNo = min(nt, 1)
	}
	switch {
	case nv > mesh.MaxVertices:
		return nil, d.errorf(at, "%d vertices, more than the limit %d", nv, mesh.MaxVertices)
	case nt > mesh.MaxTriangles:
		return nil, d.errorf(at+8, "%d triangles, more than the limit %d", nt, mesh.MaxTriangles)
	case nt == 0 && nn != 0:
		return nil, d.errorf(at+16, "%d nodes over no triangles", nn)
	case h.o.Kind == BoxTree && (no < minNo || no > mesh.MaxTriangles):
		return nil, d.errorf(at+24, "triangle order of %d entries for %d triangles (want %d to %d)", no, nt, minNo, mesh.MaxTriangles)
	case h.o.Kind == BoxTree && nt > 0 && (nn < 1 || nn > 2*no-1):
		return nil, d.errorf(at+16, "%d nodes over %d leaf entries (want 1 to %d)", nn, no, 2*no-1)
	case h.o.Kind != BoxTree && nt > 0 && (nn < 1 || nn > 2*nt-1):
		return nil, d.errorf(at+16, "%d nodes over %d triangles (want 1 to %d)", nn, nt, 2*nt-1)
	case h.o.Kind != BoxTree && h.o.Leaf == 1 && no != 0:
		return nil, d.errorf(at+24, "triangle order of %d entries with leaf size 1 (want none)", no)
	case h.o.Kind != BoxTree && h.o.Leaf > 1 && (no < minNo || no > nt):
		return nil, d.errorf(at+24, "triangle order of %d entries for %d triangles (want %d to %d)", no, nt, minNo, nt)
	}
	h.nv, h.nt, h.nn, h.no = int(nv), int(nt), int(nn), int(no)
	h.nodeSize = nodeSize(h.o)
	h.vAt = at + 32
	h.tAt = h.vAt + 24*int64(nv)
	h.nAt = h.tAt + 12*int64(nt)
	if h.o.Kind == BoxTree && nt > 0 {
		h.nAt += boxRootSize // the root box comes first
	}
	if h.o.Compact {
		h.nAt += cRefsSize(h.o.K, h.nn) // the block references come first
	}
	h.oAt = h.nAt + h.nodeSize*int64(nn)
	return h, nil
}

// littleEndian is true if the host stores numbers least significant byte
// first, as the format does.
var littleEndian = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

// readRaw reads n elements of type T, whose memory image is size bytes of
// words little-endian numbers of word bytes each, as the file stores them:
// straight into the slice's memory, in chunks. It calls check on each chunk
// read, with the index of its first element.
func readRaw[T any](d *decoder, n, size, word int, what string, check func(s []T, i0 int)) ([]T, error) {
	s := alloc[T](d, n, int64(size))
	for len(s) < n {
		c := min(n-len(s), ioChunk/size)
		i0 := len(s)
		s = grow(s, c, n)[:i0+c]
		b := unsafe.Slice((*byte)(unsafe.Pointer(&s[i0])), c*size)
		if err := d.fill(b, what); err != nil {
			return nil, err
		}
		if !littleEndian {
			for i := 0; i < len(b); i += word {
				slices.Reverse(b[i : i+word])
			}
		}
		check(s[i0:], i0)
	}
	return s, nil
}

// checkVerts records the first non-finite vertex of vs, which start at
// vertex i0.
func (h *header) checkVerts(d *decoder, vs []geom.Vec3, i0 int) {
	for j, v := range vs {
		// x − x is 0 for finite x, NaN otherwise.
		if v.X-v.X+v.Y-v.Y+v.Z-v.Z != 0 {
			i := i0 + j
			d.badf(h.vAt+24*int64(i), "vertex %d: non-finite coordinate %v", i, v)
			return
		}
	}
}

// checkTris records the first vertex index out of range in ts, which start
// at triangle i0.
func (h *header) checkTris(d *decoder, ts [][3]int32, i0 int) {
	nv := uint32(h.nv)
	for j, t := range ts {
		// Negative indices are large as uint32.
		if uint32(t[0]) >= nv || uint32(t[1]) >= nv || uint32(t[2]) >= nv {
			for _, v := range t {
				if uint32(v) >= nv {
					i := i0 + j
					d.badf(h.tAt+12*int64(i), "triangle %d: vertex index %d out of range [0, %d)", i, v, nv)
					return
				}
			}
		}
	}
}

// firstFault returns the least i in [0, n) for which bad(i) holds, or -1,
// calling bad on the available CPUs.
func firstFault(n int, bad func(i int) bool) int {
	const grain = 1 << 12
	p := runtime.GOMAXPROCS(0)
	chunks := min(4*p, (n+grain-1)/grain)
	if p == 1 || chunks <= 1 {
		for i := range n {
			if bad(i) {
				return i
			}
		}
		return -1
	}
	size := (n + chunks - 1) / chunks
	first := make([]int, chunks)
	var next atomic.Int64
	var wg sync.WaitGroup
	for range p {
		wg.Go(func() {
			for {
				c := int(next.Add(1) - 1)
				if c >= chunks {
					return
				}
				first[c] = -1
				for i := c * size; i < min(n, (c+1)*size); i++ {
					if bad(i) {
						first[c] = i
						break
					}
				}
			}
		})
	}
	wg.Wait()
	for _, i := range first {
		if i >= 0 {
			return i
		}
	}
	return -1
}
