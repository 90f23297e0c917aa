package bvh_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"testing/iotest"

	"github.com/collide3d/collide/bv"
	"github.com/collide3d/collide/bvh"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/internal/testgeom"
	"github.com/collide3d/collide/mesh"
	"github.com/collide3d/collide/mesh/gen"
)

// encSave builds a tree over m with o and returns it and its saved form.
func encSave(tb testing.TB, m *mesh.TriMesh, o bvh.Options) (*bvh.Tree, []byte) {
	tb.Helper()
	t, err := bvh.Build(m, o)
	if err != nil {
		tb.Fatalf("Build: %v", err)
	}
	var buf bytes.Buffer
	n, err := t.WriteTo(&buf)
	if err != nil {
		tb.Fatalf("WriteTo: %v", err)
	}
	if n != int64(buf.Len()) {
		tb.Fatalf("WriteTo returned %d, wrote %d bytes", n, buf.Len())
	}
	return t, buf.Bytes()
}

// opaque hides every method of a reader but Read (no Len, Seek, Stat).
type opaque struct{ r io.Reader }

func (o opaque) Read(p []byte) (int, error) { return o.r.Read(p) }

// checkSame checks that got, read from data, is the tree orig saved there.
func checkSame(t *testing.T, orig, got *bvh.Tree, data []byte) {
	t.Helper()
	if err := got.Validate(); err != nil {
		t.Fatalf("loaded tree invalid: %v", err)
	}
	if got.Options() != orig.Options() {
		t.Errorf("options %+v, want %+v", got.Options(), orig.Options())
	}
	if got.Nodes() != orig.Nodes() || got.Bytes() != orig.Bytes() || got.Height() != orig.Height() {
		t.Errorf("nodes %d (%d bytes, height %d), want %d (%d, %d)",
			got.Nodes(), got.Bytes(), got.Height(), orig.Nodes(), orig.Bytes(), orig.Height())
	}
	gm, om := got.Mesh(), orig.Mesh()
	if !slices.Equal(gm.Verts, om.Verts) || !slices.Equal(gm.Tris, om.Tris) {
		t.Errorf("mesh differs")
	}
	// Saving again gives the same bytes: same nodes, order and offsets.
	var again bytes.Buffer
	if _, err := got.WriteTo(&again); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(again.Bytes(), data) {
		t.Errorf("saving the loaded tree gives different bytes")
	}
	for i := 0; i < got.Nodes(); i += max(1, got.Nodes()/7) {
		d1, l1, r1, t1 := got.Node(i, nil)
		d2, l2, r2, t2 := orig.Node(i, nil)
		if d1 != d2 || l1 != l2 || r1 != r2 || !slices.Equal(t1, t2) {
			t.Errorf("node %d differs", i)
		}
	}
}

func TestEncodeRoundTrip(t *testing.T) {
	torus := gen.Must(gen.Torus(geom.Vec3{}, 1, 0.3, 1000))
	lattice := testgeom.LatticeSoup(rand.New(rand.NewPCG(1, 2)), 600, 5)
	var opts []bvh.Options
	for _, k := range bv.Ks {
		opts = append(opts, bvh.Options{K: k}, bvh.Options{K: k, Float64: true}, bvh.Options{K: k, Compact: true})
	}
	opts = append(opts,
		bvh.Options{K: bv.K18, Rule: bvh.MinSum, Split: bvh.Median, Leaf: 4, FlyLeaf: 2},
		bvh.Options{K: bv.K14, Rule: bvh.LongestSide, Leaf: 8, FlyLeaf: 1},
		bvh.Options{K: bv.K26, Rule: bvh.MinMax, Leaf: 3, Float64: true},
		bvh.Options{K: bv.K6, Split: bvh.Median, Leaf: 2, Float64: true},
		bvh.Options{Kind: bvh.OBB}, bvh.Options{Kind: bvh.OBB, Rule: bvh.RAPID, Leaf: 3},
		bvh.Options{Kind: bvh.Sphere}, bvh.Options{Kind: bvh.Sphere, Split: bvh.Median, Leaf: 4},
		bvh.Options{Kind: bvh.AABB}, bvh.Options{Kind: bvh.AABB, Rule: bvh.LongestSide, Leaf: 2},
		bvh.Options{Kind: bvh.BoxTree}, bvh.Options{Kind: bvh.BoxTree, Leaf: 8},
		bvh.Options{Kind: bvh.RSS}, bvh.Options{Kind: bvh.RSS, Split: bvh.Median, Leaf: 3},
	)
	rng := rand.New(rand.NewPCG(3, 4))
	for _, mc := range []struct {
		name string
		m    *mesh.TriMesh
	}{{"torus", torus}, {"lattice", lattice}} {
		c := mc.m.Bounds().Center()
		spread := 0.05 * mc.m.Bounds().Size().Norm()
		poses := []geom.Pose{randomPose(rng, c, spread), randomPose(rng, c, spread)}
		for _, o := range opts {
			orig, data := encSave(t, mc.m, o)
			got, err := bvh.Read(bytes.NewReader(data))
			if err != nil {
				t.Fatalf("%s %+v: Read: %v", mc.name, o, err)
			}
			checkSame(t, orig, got, data)
			for i, p := range poses {
				want := pairsAt(orig, orig, p)
				if len(want) == 0 {
					t.Errorf("%s pose %d: no contacts; a weak test", mc.name, i)
				}
				if g := pairsAt(got, got, p); !slices.Equal(g, want) {
					t.Errorf("%s %+v pose %d: %d pairs, want %d", mc.name, o, i, len(g), len(want))
				}
			}
		}
	}
}

// TestReadReaders reads through readers that do not tell their length or
// return short reads, and a model large enough to take many chunks.
func TestReadReaders(t *testing.T) {
	small, smallData := encSave(t, gen.Must(gen.Torus(geom.Vec3{}, 1, 0.3, 500)), bvh.Options{Leaf: 2})
	big, bigData := encSave(t, gen.Must(gen.Icosphere(geom.Vec3{X: 1e6}, 1, 40000)), bvh.Options{K: bv.K26})
	for _, c := range []struct {
		name string
		tree *bvh.Tree
		data []byte
		r    func([]byte) io.Reader
	}{
		{"opaque", small, smallData, func(b []byte) io.Reader { return opaque{bytes.NewReader(b)} }},
		{"half", small, smallData, func(b []byte) io.Reader { return iotest.HalfReader(bytes.NewReader(b)) }},
		{"onebyte", small, smallData, func(b []byte) io.Reader { return iotest.OneByteReader(bytes.NewReader(b)) }},
		{"dataerr", small, smallData, func(b []byte) io.Reader { return iotest.DataErrReader(bytes.NewReader(b)) }},
		{"buffer", small, smallData, func(b []byte) io.Reader { return bytes.NewBuffer(b) }},
		{"section", small, smallData, func(b []byte) io.Reader { return io.NewSectionReader(bytes.NewReader(b), 0, int64(len(b))) }},
		{"big", big, bigData, func(b []byte) io.Reader { return bytes.NewReader(b) }},
		{"big-opaque", big, bigData, func(b []byte) io.Reader { return opaque{bytes.NewReader(b)} }},
	} {
		got, err := bvh.Read(c.r(c.data))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		checkSame(t, c.tree, got, c.data)
	}
	// Read stops at the checksum.
	r := bytes.NewReader(append(slices.Clip(smallData), "tail"...))
	if _, err := bvh.Read(r); err != nil || r.Len() != 4 {
		t.Errorf("Read with trailing data: %v, %d bytes left", err, r.Len())
	}
	// An error of the reader is returned, not as a FormatError.
	boom := errors.New("boom")
	_, err := bvh.Read(io.MultiReader(bytes.NewReader(smallData[:300]), iotest.ErrReader(boom)))
	var fe *mesh.FormatError
	if !errors.Is(err, boom) || errors.As(err, &fe) {
		t.Errorf("reader error: got %v", err)
	}
}

func TestEncodeEmpty(t *testing.T) {
	for _, m := range []*mesh.TriMesh{{}, {Verts: []geom.Vec3{{X: 1}, {Y: 2}}}} {
		for _, o := range []bvh.Options{{}, {K: bv.K6, Leaf: 4, Float64: true}} {
			orig, data := encSave(t, m, o)
			got, err := bvh.Read(bytes.NewReader(data))
			if err != nil {
				t.Fatalf("%d vertices %+v: %v", len(m.Verts), o, err)
			}
			checkSame(t, orig, got, data)
			if got.Nodes() != 0 || got.Height() != 0 {
				t.Errorf("empty tree has %d nodes", got.Nodes())
			}
		}
	}
}

// errWriter fails after n bytes.
type errWriter struct{ n int }

func (w *errWriter) Write(p []byte) (int, error) {
	if len(p) <= w.n {
		w.n -= len(p)
		return len(p), nil
	}
	n := w.n
	w.n = 0
	return n, errors.New("disk full")
}

func TestWriteError(t *testing.T) {
	tr, data := encSave(t, gen.Must(gen.Icosphere(geom.Vec3{}, 1, 20000)), bvh.Options{})
	for _, n := range []int{0, 100, len(data) / 2, len(data) - 4, len(data) - 1} {
		got, err := tr.WriteTo(&errWriter{n})
		if err == nil || got != int64(n) {
			t.Errorf("limit %d: WriteTo = %d, %v", n, got, err)
		}
	}
}

// smallFiles returns saved trees small enough to cut at every byte.
func smallFiles(tb testing.TB) map[string][]byte {
	rng := rand.New(rand.NewPCG(7, 8))
	soup := testgeom.LatticeSoup(rng, 12, 3)
	_, a := encSave(tb, soup, bvh.Options{K: bv.K18, Leaf: 4})
	_, b := encSave(tb, soup, bvh.Options{K: bv.K6, Float64: true})
	tr, c := encSave(tb, gen.Must(gen.Torus(geom.Vec3{}, 1, 0.3, 18)), bvh.Options{K: bv.K26})
	// The torus in version 3, with an extra section.
	var d bytes.Buffer
	if _, err := tr.WriteExtra(&d, []byte("extra section bytes")); err != nil {
		tb.Fatal(err)
	}
	return map[string][]byte{"k18-leaf4": a, "k6-f64": b, "k26-torus": c, "k26-torus-extra": d.Bytes()}
}

// formatError returns err as a *mesh.FormatError, failing if it is not one.
func formatError(t *testing.T, what string, err error) *mesh.FormatError {
	t.Helper()
	var fe *mesh.FormatError
	if !errors.As(err, &fe) {
		t.Fatalf("%s: error %v is not a *mesh.FormatError", what, err)
	}
	if fe.Format != bvh.FormatName {
		t.Errorf("%s: format %q", what, fe.Format)
	}
	return fe
}

func TestReadTruncated(t *testing.T) {
	for name, data := range smallFiles(t) {
		for n := range len(data) {
			for _, r := range []io.Reader{bytes.NewReader(data[:n]), opaque{bytes.NewReader(data[:n])}} {
				_, err := bvh.Read(r)
				fe := formatError(t, name, err)
				if fe.Offset != int64(n) || !strings.HasPrefix(fe.Msg, "truncated: file ends at byte ") {
					t.Fatalf("%s cut at %d: %v", name, n, err)
				}
			}
		}
	}
}

func TestReadCorrupt(t *testing.T) {
	for name, data := range smallFiles(t) {
		b := slices.Clone(data)
		for i := range b {
			for _, x := range []byte{0xff, 1 << (i % 8), 0x80} {
				b[i] ^= x
				_, err := bvh.Read(bytes.NewReader(b))
				if err == nil {
					t.Fatalf("%s: byte %d ^ %#x accepted", name, i, x)
				}
				formatError(t, name, err)
				b[i] ^= x
			}
		}
	}
}

// layout locates the parts of a saved tree.
type layout struct {
	k, w                int
	nv, nt, nn, no      int
	h, v, t, n, o, node int
}

func parseLayout(b []byte) layout {
	le := binary.LittleEndian
	var l layout
	l.k, l.w = int(le.Uint32(b[16:])), int(le.Uint32(b[20:]))
	l.h = 40 + 4*l.k
	l.nv, l.nt = int(le.Uint64(b[l.h:])), int(le.Uint64(b[l.h+8:]))
	l.nn, l.no = int(le.Uint64(b[l.h+16:])), int(le.Uint64(b[l.h+24:]))
	l.node = l.k*l.w + 4
	l.v = l.h + 32
	l.t = l.v + 24*l.nv
	l.n = l.t + 12*l.nt
	l.o = l.n + l.nn*l.node
	return l
}

// expand replaces {nv}, {nt}, {nn}, {nn+5}, {nt+3} and {2nt-1} in s.
func (l layout) expand(s string) string {
	return strings.NewReplacer("{nv}", strconv.Itoa(l.nv), "{nt}", strconv.Itoa(l.nt), "{nn}", strconv.Itoa(l.nn),
		"{nn+5}", strconv.Itoa(l.nn+5), "{nt+3}", strconv.Itoa(l.nt+3), "{2nt-1}", strconv.Itoa(2*l.nt-1)).Replace(s)
}

// ref returns the ref of node i.
func (l layout) ref(b []byte, i int) int32 {
	return int32(binary.LittleEndian.Uint32(b[l.n+i*l.node+l.k*l.w:]))
}

// leaf returns the first leaf.
func (l layout) leaf(b []byte) int {
	for i := range l.nn {
		if l.ref(b, i) < 0 {
			return i
		}
	}
	panic("no leaf")
}

// fixCRC recomputes the checksum of a whole file.
func fixCRC(b []byte) {
	n := len(b) - 4
	binary.LittleEndian.PutUint32(b[n:], crc32.Checksum(b[:n], crc32.MakeTable(crc32.Castagnoli)))
}

func TestReadCrafted(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	soup := testgeom.LatticeSoup(rng, 40, 4)
	torus := gen.Must(gen.Torus(geom.Vec3{}, 1, 0.3, 64))
	_, leaf1 := encSave(t, torus, bvh.Options{K: bv.K18})
	_, leaf4 := encSave(t, soup, bvh.Options{K: bv.K14, Leaf: 4, Float64: true})
	le := binary.LittleEndian
	put32 := func(b []byte, at int, v uint32) { le.PutUint32(b[at:], v) }
	put64 := func(b []byte, at int, v uint64) { le.PutUint64(b[at:], v) }
	// bound returns the offset of bound j of node i.
	bound := func(l layout, i, j int) int { return l.n + i*l.node + j*l.w }
	nudge := func(b []byte, l layout, at int) { // move a lower bound up by one ulp
		if l.w == 4 {
			x := math.Float32frombits(le.Uint32(b[at:]))
			put32(b, at, math.Float32bits(math.Nextafter32(x, float32(math.Inf(1)))))
		} else {
			x := math.Float64frombits(le.Uint64(b[at:]))
			put64(b, at, math.Float64bits(math.Nextafter(x, math.Inf(1))))
		}
	}
	cases := []struct {
		name string
		file []byte
		edit func(b []byte, l layout) // the checksum is recomputed after
		msg  string                   // expected in Msg, with {nv} etc. replaced
		at   func(l layout) int       // expected offset (nil: don't check)
	}{
		{"magic", leaf1, func(b []byte, l layout) { b[0] = 'X' }, "not a collide model file (bad magic)", func(layout) int { return 0 }},
		{"text", []byte("solid cube\n"), nil, "bad magic", func(layout) int { return 0 }},
		{"version", leaf1, func(b []byte, l layout) { put32(b, 8, 4) }, "unsupported version 4 (this build reads versions 1 to 3)", func(layout) int { return 8 }},
		{"version 0", leaf1, func(b []byte, l layout) { put32(b, 8, 0) }, "unsupported version 0 (this build reads versions 1 to 3)", func(layout) int { return 8 }},
		{"kind", leaf1, func(b []byte, l layout) { put32(b, 12, 9) }, "bounding-volume kind 9", func(layout) int { return 12 }},
		{"kind-k", leaf1, func(b []byte, l layout) { put32(b, 12, 2) }, "k = 18 for a obb tree (want 0)", func(layout) int { return 16 }},
		{"k13", leaf1, func(b []byte, l layout) { put32(b, 16, 13) }, "k = 13 is not supported", func(layout) int { return 16 }},
		{"k-huge", leaf1, func(b []byte, l layout) { put32(b, 16, 1<<31) }, "is not supported", func(layout) int { return 16 }},
		{"width3", leaf1, func(b []byte, l layout) { put32(b, 20, 3) }, "element width 3 is not supported", func(layout) int { return 20 }},
		{"rule", leaf1, func(b []byte, l layout) { put32(b, 24, 4) }, "unknown splitting rule 4", func(layout) int { return 24 }},
		{"split", leaf1, func(b []byte, l layout) { put32(b, 28, 2) }, "unknown split point 2", func(layout) int { return 28 }},
		{"leaf0", leaf1, func(b []byte, l layout) { put32(b, 32, 0) }, "leaf size 0 out of range", func(layout) int { return 32 }},
		{"leaf-huge", leaf1, func(b []byte, l layout) { put32(b, 32, 1<<17) }, "leaf size 131072 out of range", func(layout) int { return 32 }},
		{"flyleaf", leaf1, func(b []byte, l layout) { put32(b, 36, 1<<20) }, "flying leaf size", func(layout) int { return 36 }},
		{"offset-nan", leaf1, func(b []byte, l layout) { put64(b, 40+16, math.Float64bits(math.NaN())) }, "origin offset 2 is not finite", func(layout) int { return 56 }},
		{"offset-inf", leaf4, func(b []byte, l layout) { put64(b, 40, math.Float64bits(math.Inf(-1))) }, "origin offset 0 is not finite", func(layout) int { return 40 }},
		{"vertices-huge", leaf1, func(b []byte, l layout) { put64(b, l.h, 1<<40) }, "1099511627776 vertices, more than the limit", func(l layout) int { return l.h }},
		{"triangles-huge", leaf1, func(b []byte, l layout) { put64(b, l.h+8, 1<<40) }, "triangles, more than the limit", func(l layout) int { return l.h + 8 }},
		{"nodes-huge", leaf1, func(b []byte, l layout) { put64(b, l.h+16, 1<<40) }, "1099511627776 nodes over {nt} triangles", func(l layout) int { return l.h + 16 }},
		{"order-huge", leaf4, func(b []byte, l layout) { put64(b, l.h+24, 1<<40) }, "triangle order of 1099511627776 entries", func(l layout) int { return l.h + 24 }},
		{"nodes-zero", leaf1, func(b []byte, l layout) { put64(b, l.h+16, 0) }, "0 nodes over {nt} triangles (want 1 to {2nt-1})", func(l layout) int { return l.h + 16 }},
		{"nodes-no-tris", leaf1, func(b []byte, l layout) { put64(b, l.h+8, 0) }, "{nn} nodes over no triangles", func(l layout) int { return l.h + 16 }},
		{"order-leaf1", leaf1, func(b []byte, l layout) { put64(b, l.h+24, 1) }, "with leaf size 1", func(l layout) int { return l.h + 24 }},
		{"vertices-past-end", leaf1, func(b []byte, l layout) { put64(b, l.h, mesh.MaxVertices) }, "inside the vertex array", nil},
		{"triangles-past-end", leaf1, func(b []byte, l layout) {
			put64(b, l.h+8, mesh.MaxTriangles)
			put64(b, l.h+16, 2*mesh.MaxTriangles-1)
		}, "inside the triangle array", nil},
		{"nodes-past-end", leaf4, func(b []byte, l layout) { put64(b, l.h+16, 2*uint64(l.nt)-1) }, "inside the node array", nil},
		{"vertex-nan", leaf1, func(b []byte, l layout) { put64(b, l.v+24*3+8, math.Float64bits(math.NaN())) }, "vertex 3: non-finite coordinate", func(l layout) int { return l.v + 24*3 }},
		{"vertex-inf", leaf4, func(b []byte, l layout) { put64(b, l.v+24*7, math.Float64bits(math.Inf(1))) }, "vertex 7: non-finite coordinate", func(l layout) int { return l.v + 24*7 }},
		{"vertex-moved", leaf1, func(b []byte, l layout) { put64(b, l.v, math.Float64bits(100)) }, "does not contain", nil},
		{"index-range", leaf1, func(b []byte, l layout) { put32(b, l.t+12*5+4, uint32(l.nv)) }, "triangle 5: vertex index {nv} out of range [0, {nv})", func(l layout) int { return l.t + 60 }},
		{"index-negative", leaf4, func(b []byte, l layout) { put32(b, l.t+12*9+8, math.MaxUint32) }, "triangle 9: vertex index -1 out of range", func(l layout) int { return l.t + 108 }},
		{"ref-right", leaf1, func(b []byte, l layout) { put32(b, l.n+l.k*l.w, uint32(l.nn+5)) }, "node 0: right child offset {nn+5} out of range [2, {nn})", func(l layout) int { return l.n + l.k*l.w }},
		{"ref-one", leaf1, func(b []byte, l layout) { put32(b, l.n+l.k*l.w, 1) }, "node 0: right child offset 1 out of range", func(l layout) int { return l.n + l.k*l.w }},
		{"ref-leaf", leaf1, func(b []byte, l layout) {
			i := l.leaf(b)
			put32(b, l.n+i*l.node+l.k*l.w, uint32(^int32(l.nt+3)))
		}, "triangle {nt+3} out of range [0, {nt})", nil},
		{"ref-order", leaf4, func(b []byte, l layout) {
			i := l.leaf(b)
			put32(b, l.n+i*l.node+l.k*l.w, uint32(^int32(l.no)))
		}, "triangle order position {nt} out of range [0, {nt})", nil},
		{"ref-shape", leaf1, func(b []byte, l layout) { put32(b, l.n+l.k*l.w, 2) }, "reached where node", nil},
		{"leaf-twice", leaf1, func(b []byte, l layout) {
			i := l.leaf(b)
			j := i + 1
			for l.ref(b, j) >= 0 {
				j++
			}
			put32(b, l.n+j*l.node+l.k*l.w, uint32(l.ref(b, i)))
		}, "", nil},
		{"leaf-shrunk", leaf1, func(b []byte, l layout) { nudge(b, l, bound(l, l.leaf(b), 0)) }, "'s k-DOP does not contain triangle", func(l layout) int { return l.n + l.leaf(leaf1)*l.node }},
		{"leaf4-shrunk", leaf4, func(b []byte, l layout) { nudge(b, l, bound(l, l.leaf(b), 4)) }, "'s k-DOP does not contain triangle", func(l layout) int { return l.n + l.leaf(leaf4)*l.node }},
		{"root-shrunk", leaf1, func(b []byte, l layout) { nudge(b, l, bound(l, 0, 2)) }, "node 0's k-DOP does not contain its child", func(l layout) int { return l.n }},
		{"node-nan", leaf4, func(b []byte, l layout) { put64(b, bound(l, 2, 3), math.Float64bits(math.NaN())) }, "node 2: NaN bound", func(l layout) int { return l.n + 2*l.node }},
		{"node-nan32", leaf1, func(b []byte, l layout) { put32(b, bound(l, 1, 0), math.Float32bits(float32(math.NaN()))) }, "node 1: NaN bound", func(l layout) int { return l.n + l.node }},
		{"order-range", leaf4, func(b []byte, l layout) { put32(b, l.o+4*3, uint32(l.nt)) }, "order entry 3: triangle {nt} out of range [0, {nt})", func(l layout) int { return l.o + 12 }},
		{"order-dup", leaf4, func(b []byte, l layout) { copy(b[l.o+4:l.o+8], b[l.o:l.o+4]) }, "", nil},
		{"checksum", leaf1, func(b []byte, l layout) { b[l.v] ^= 1; b[len(b)-1] ^= 0x10 }, "checksum mismatch", func(l layout) int { return l.o + 4*l.no }},
	}
	for _, c := range cases {
		b := slices.Clone(c.file)
		var l layout
		if c.edit != nil {
			l = parseLayout(c.file)
			c.edit(b, l)
			if c.name != "checksum" {
				fixCRC(b)
			}
		}
		for _, r := range []io.Reader{bytes.NewReader(b), opaque{bytes.NewReader(b)}} {
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			before := ms.TotalAlloc
			tr, err := bvh.Read(r)
			runtime.ReadMemStats(&ms)
			if alloc := ms.TotalAlloc - before; alloc > 8<<20 {
				t.Errorf("%s: Read allocated %d MiB", c.name, alloc>>20)
			}
			if err == nil {
				t.Errorf("%s: accepted (%d nodes)", c.name, tr.Nodes())
				continue
			}
			fe := formatError(t, c.name, err)
			if want := l.expand(c.msg); !strings.Contains(fe.Msg, want) {
				t.Errorf("%s: %v, want %q", c.name, err, want)
			}
			if c.at != nil && fe.Offset != int64(c.at(l)) {
				t.Errorf("%s: %v: offset %d, want %d", c.name, err, fe.Offset, c.at(l))
			}
			if c.at == nil && fe.Offset < int64(l.v) && c.edit != nil {
				t.Errorf("%s: %v: offset %d in the header", c.name, err, fe.Offset)
			}
		}
	}
}

// TestReadLeafBounds checks that Read accepts the leaves of a tree exactly
// as tight as Build makes them and rejects every one tightened by one ulp
// on one side: its containment test is that of Validate, on both sides of
// the boundary.
func TestReadLeafBounds(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	box := geom.AABB{Min: geom.V(1000, -3, 7), Max: geom.V(1001, -2, 8)}
	meshes := []*mesh.TriMesh{
		testgeom.RandomSoup(rng, 12, box, 0.3),
		testgeom.LatticeSoup(rng, 12, 3),
		testgeom.RandomSoup(rng, 12, geom.AABB{Min: geom.V(-1e-3, -1e-3, -1e-3), Max: geom.V(1e-3, 1e-3, 1e-3)}, 1e-4),
	}
	le := binary.LittleEndian
	for _, m := range meshes {
		for _, k := range bv.Ks {
			for _, f64 := range []bool{false, true} {
				_, data := encSave(t, m, bvh.Options{K: k, Float64: f64})
				l := parseLayout(data)
				b := slices.Clone(data)
				for i := range l.nn {
					if l.ref(data, i) >= 0 {
						continue
					}
					for j := range l.k {
						at := l.n + i*l.node + j*l.w
						copy(b, data)
						dir := math.Inf(1) // tighten: lo up, hi down
						if j%2 == 1 {
							dir = math.Inf(-1)
						}
						if l.w == 4 {
							x := math.Float32frombits(le.Uint32(b[at:]))
							le.PutUint32(b[at:], math.Float32bits(math.Nextafter32(x, float32(dir))))
						} else {
							x := math.Float64frombits(le.Uint64(b[at:]))
							le.PutUint64(b[at:], math.Float64bits(math.Nextafter(x, dir)))
						}
						fixCRC(b)
						_, err := bvh.Read(bytes.NewReader(b))
						if err == nil || !strings.Contains(err.Error(), "does not contain triangle") {
							t.Fatalf("k%d f64=%v leaf %d bound %d tightened: %v", k, f64, i, j, err)
						}
					}
				}
			}
		}
	}
}

// TestEncodeHugeCoordinates round-trips a tree whose diagonal projections
// overflow to infinity.
func TestEncodeHugeCoordinates(t *testing.T) {
	const h = 1.5e308
	m := &mesh.TriMesh{
		Verts: []geom.Vec3{{X: h, Y: h, Z: h}, {X: -h, Y: h, Z: h}, {X: h, Y: -h, Z: h}, {X: -h, Y: -h, Z: -h}, {X: 1}, {Y: 1}},
		Tris:  [][3]int32{{0, 1, 2}, {1, 2, 3}, {3, 4, 5}, {0, 4, 5}},
	}
	for _, k := range bv.Ks {
		for _, f64 := range []bool{false, true} {
			orig, data := encSave(t, m, bvh.Options{K: k, Float64: f64})
			got, err := bvh.Read(bytes.NewReader(data))
			if err != nil {
				t.Fatalf("k%d f64=%v: %v", k, f64, err)
			}
			checkSame(t, orig, got, data)
		}
	}
}

// TestReadForgedValid checks that a forged file that is still a valid tree
// is accepted and answers as its contents say.
func TestReadForgedValid(t *testing.T) {
	_, data := encSave(t, gen.Must(gen.Torus(geom.Vec3{}, 1, 0.3, 64)), bvh.Options{K: bv.K6, FlyLeaf: 3})
	b := slices.Clone(data)
	binary.LittleEndian.PutUint32(b[36:], 5) // flying leaf size
	fixCRC(b)
	tr, err := bvh.Read(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if tr.FlyLeaf() != 5 {
		t.Errorf("FlyLeaf = %d", tr.FlyLeaf())
	}
}

func FuzzRead(f *testing.F) {
	for _, data := range smallFiles(f) {
		f.Add(data)
		f.Add(data[:len(data)/2])
	}
	f.Add([]byte(bvh.Magic))
	f.Fuzz(func(t *testing.T, data []byte) {
		tr, extra, at, err := bvh.ReadExtra(bytes.NewReader(data))
		if err != nil {
			var fe *mesh.FormatError
			if !errors.As(err, &fe) {
				t.Fatalf("error %v is not a *mesh.FormatError", err)
			}
			return
		}
		if err := tr.Validate(); err != nil {
			t.Fatalf("accepted an invalid tree: %v", err)
		}
		var buf bytes.Buffer
		if extra == nil {
			_, err = tr.WriteTo(&buf)
		} else {
			_, err = tr.WriteExtra(&buf, extra)
			if at+int64(len(extra))+4 != int64(buf.Len()) || !bytes.Equal(data[at:at+int64(len(extra))], extra) {
				t.Fatalf("the extra section read is not at %d", at)
			}
		}
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.HasPrefix(data, buf.Bytes()) {
			t.Fatalf("saving the tree read gives other bytes")
		}
		bvh.Collide(tr, tr, geom.Identity(), bvh.QueryOptions{All: true}, nil, func(bvh.Pair) bool { return true })
	})
}

var benchModel = sync.OnceValue(func() *mesh.TriMesh {
	return gen.Must(gen.Icosphere(geom.Vec3{}, 1, 200000))
})

func benchSaved(b *testing.B) (*bvh.Tree, []byte) {
	return encSave(b, benchModel(), bvh.Options{})
}

func BenchmarkWrite(b *testing.B) {
	tr, data := benchSaved(b)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := tr.WriteTo(io.Discard); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRead(b *testing.B) {
	_, data := benchSaved(b)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := bvh.Read(bytes.NewReader(data)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkBuild builds the tree BenchmarkRead loads, for comparison (its
// MB/s are of the saved file).
func BenchmarkBuild(b *testing.B) {
	m := benchModel()
	_, data := benchSaved(b)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := bvh.Build(m, bvh.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// pairsAt returns all pairs in contact at pose, sorted.
func pairsAt(env, fly *bvh.Tree, pose geom.Pose) [][2]int32 {
	got, _ := collect(env, fly, pose, bvh.QueryOptions{All: true}, nil)
	return got
}

// TestReadForgedKinds alters the nodes of saved OBB, sphere, AABB and
// box-trees, fixing the checksum, and checks that Read rejects each: a
// volume that no longer contains its triangles, a NaN, a bad reference or
// axis.
func TestReadForgedKinds(t *testing.T) {
	torus := gen.Must(gen.Torus(geom.Vec3{}, 1, 0.3, 64))
	nodesAt := 40 + 32 + 24*len(torus.Verts) + 12*len(torus.Tris)
	le := binary.LittleEndian
	setF := func(b []byte, at int, x float64) { le.PutUint64(b[at:], math.Float64bits(x)) }
	// The nodes of OBB, sphere and AABB trees: a tag, the refs, then the
	// internal nodes' volumes, the root's first (see bvh/vtree_save.go).
	refsAt := nodesAt + 8
	volsAt := func(b []byte) int { return refsAt + 4*int(le.Uint64(b[40+16:])) }
	cases := []struct {
		name string
		o    bvh.Options
		edit func(b []byte)
		msg  string
	}{
		// The root OBB's first half-extent (after centre and axes) halved.
		{"obb-half", bvh.Options{Kind: bvh.OBB}, func(b []byte) {
			at := volsAt(b) + 12*8
			setF(b, at, math.Float64frombits(le.Uint64(b[at:]))/2)
		}, "does not contain"},
		{"obb-nan", bvh.Options{Kind: bvh.OBB}, func(b []byte) { setF(b, volsAt(b)+120+8, math.NaN()) }, "NaN"},
		{"sphere-radius", bvh.Options{Kind: bvh.Sphere}, func(b []byte) { setF(b, volsAt(b)+3*8, 0.5) }, "does not contain"},
		{"aabb-ref", bvh.Options{Kind: bvh.AABB}, func(b []byte) { le.PutUint32(b[refsAt:], 1<<30) }, "out of range"},
		// The root cut's bound of the left child lowered below its triangles.
		{"boxtree-cut", bvh.Options{Kind: bvh.BoxTree}, func(b []byte) { setF(b, nodesAt+48, -2) }, "reaches above its cut"},
		{"boxtree-axis", bvh.Options{Kind: bvh.BoxTree}, func(b []byte) { le.PutUint32(b[nodesAt+48+20:], 7) }, "axis 7"},
		{"boxtree-root", bvh.Options{Kind: bvh.BoxTree}, func(b []byte) { setF(b, nodesAt, 0.5) }, "root box does not contain"},
	}
	for _, c := range cases {
		_, data := encSave(t, torus, c.o)
		if _, err := bvh.Read(bytes.NewReader(data)); err != nil {
			t.Fatalf("%s: the unaltered file: %v", c.name, err)
		}
		b := slices.Clone(data)
		c.edit(b)
		fixCRC(b)
		_, err := bvh.Read(bytes.NewReader(b))
		if err == nil {
			t.Errorf("%s: accepted", c.name)
			continue
		}
		if fe := formatError(t, c.name, err); !strings.Contains(fe.Msg, c.msg) {
			t.Errorf("%s: %v, want %q", c.name, err, c.msg)
		}
	}
}

// TestReadExtra checks the extra section of version 3: read back as
// written, at its offset, empty or not; absent from version 2; its length
// capped.
func TestReadExtra(t *testing.T) {
	// Large enough for an extra section of more than one chunk (1 MiB).
	// The limit: 2^16 bytes, 16 a vertex and 32 a triangle.
	tr, v2 := encSave(t, gen.Must(gen.Torus(geom.Vec3{}, 1, 0.3, 44000)), bvh.Options{Leaf: 8})
	if _, extra, _, err := bvh.ReadExtra(bytes.NewReader(v2)); err != nil || extra != nil {
		t.Fatalf("version 2: extra %q, %v", extra, err)
	}
	for _, x := range [][]byte{{}, []byte("x"), bytes.Repeat([]byte{0xa5}, 1<<20+1000)} {
		var buf bytes.Buffer
		n, err := tr.WriteExtra(&buf, x)
		if err != nil || n != int64(buf.Len()) {
			t.Fatalf("WriteExtra: %d, %v", n, err)
		}
		data := buf.Bytes()
		if v := binary.LittleEndian.Uint32(data[8:]); v != 3 || !bytes.HasPrefix(data[12:], v2[12:len(v2)-4]) {
			t.Fatalf("version %d, or another tree", v)
		}
		got, extra, at, err := bvh.ReadExtra(bytes.NewReader(data))
		if err != nil || extra == nil || !bytes.Equal(extra, x) || at != int64(len(v2)-4+8) {
			t.Fatalf("extra of %d bytes read as %d at %d: %v", len(x), len(extra), at, err)
		}
		if err := got.Validate(); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := tr.WriteExtra(io.Discard, make([]byte, 1<<16+16*len(tr.Mesh().Verts)+32*len(tr.Mesh().Tris)+1)); err == nil {
		t.Error("an extra section over the limit is written")
	}
}
