package stl

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh"
)

// facet is one binary facet: normal, three vertices.
type facet [12]float32

// binarySTL builds a binary STL with the given header text, declared count
// (-1: the number of facets) and facets, followed by trailing bytes.
func binarySTL(header string, count int64, facets []facet, trailing []byte) []byte {
	var hdr [80]byte
	copy(hdr[:], header)
	b := append([]byte(nil), hdr[:]...)
	if count < 0 {
		count = int64(len(facets))
	}
	b = binary.LittleEndian.AppendUint32(b, uint32(count))
	for _, f := range facets {
		for _, x := range f {
			b = binary.LittleEndian.AppendUint32(b, math.Float32bits(x))
		}
		b = append(b, 0xAB, 0xCD) // attribute word, ignored
	}
	return append(b, trailing...)
}

// tri returns a facet with a zero normal and vertices (a, b, c).
func tri(a, b, c [3]float32) facet {
	return facet{0, 0, 0, a[0], a[1], a[2], b[0], b[1], b[2], c[0], c[1], c[2]}
}

var (
	unitTri  = tri([3]float32{0, 0, 0}, [3]float32{1, 0, 0}, [3]float32{0, 1, 0})
	oddTri   = tri([3]float32{0.1, -2.5e-30, 3e30}, [3]float32{-7, 8.25, 1e-40}, [3]float32{1, 2, 3})
	unitMesh = [][3]geom.Vec3{{{X: 0, Y: 0, Z: 0}, {X: 1, Y: 0, Z: 0}, {X: 0, Y: 1, Z: 0}}}
)

// f32 widens float32 values the way Decode must.
func f32(x, y, z float32) geom.Vec3 { return geom.Vec3{X: float64(x), Y: float64(y), Z: float64(z)} }

func facetVerts(f facet) [3]geom.Vec3 {
	return [3]geom.Vec3{f32(f[3], f[4], f[5]), f32(f[6], f[7], f[8]), f32(f[9], f[10], f[11])}
}

// checkMesh asserts that m has exactly the triangles want, in order, over
// welded vertices: the distinct vertices (bit for bit, so -0 and +0 differ)
// in the order of their first appearance, triangle i indexing them.
func checkMesh(t *testing.T, m *mesh.TriMesh, want [][3]geom.Vec3) {
	t.Helper()
	if err := m.Validate(); err != nil {
		t.Fatalf("Validate: %v", err)
	}
	var verts []geom.Vec3
	var tris [][3]int32
	index := map[[3]uint64]int32{}
	for _, w := range want {
		var tri [3]int32
		for j, v := range w {
			key := [3]uint64{math.Float64bits(v.X), math.Float64bits(v.Y), math.Float64bits(v.Z)}
			k, ok := index[key]
			if !ok {
				k = int32(len(verts))
				index[key] = k
				verts = append(verts, v)
			}
			tri[j] = k
		}
		tris = append(tris, tri)
	}
	if len(m.Tris) != len(want) || len(m.Verts) != len(verts) {
		t.Fatalf("got %d triangles, %d vertices; want %d, %d", len(m.Tris), len(m.Verts), len(want), len(verts))
	}
	for i, w := range want {
		if m.Tris[i] != tris[i] {
			t.Errorf("Tris[%d] = %v, want %v", i, m.Tris[i], tris[i])
		}
		for j := range 3 {
			if got := m.Verts[m.Tris[i][j]]; !sameBits(got, w[j]) {
				t.Errorf("triangle %d vertex %d = %v, want %v", i, j, got, w[j])
			}
		}
	}
}

// checkFormatError asserts that err is a *mesh.FormatError at the given line
// (text) or offset (binary, line 0) whose message contains msg.
func checkFormatError(t *testing.T, err error, line int, offset int64, msg string) {
	t.Helper()
	var fe *mesh.FormatError
	if !errors.As(err, &fe) {
		t.Fatalf("error %v (%T), want *mesh.FormatError", err, err)
	}
	if fe.Format != "stl" {
		t.Errorf("Format = %q, want stl", fe.Format)
	}
	if fe.Line != line || (line == 0 && fe.Offset != offset) {
		t.Errorf("error %q at line %d offset %d, want line %d offset %d", fe, fe.Line, fe.Offset, line, offset)
	}
	if !strings.Contains(fe.Msg, msg) {
		t.Errorf("message %q does not contain %q", fe.Msg, msg)
	}
}

const asciiTri = `solid tri
  facet normal 0 0 1
    outer loop
      vertex 0 0 0
      vertex 1 0 0
      vertex 0 1 0
    endloop
  endfacet
endsolid tri
`

func TestDecodeASCII(t *testing.T) {
	v := func(x, y, z float64) geom.Vec3 { return geom.Vec3{X: x, Y: y, Z: z} }
	tests := []struct {
		name string
		in   string
		want [][3]geom.Vec3
	}{
		{"one facet", asciiTri, unitMesh},
		{"empty solid", "solid\nendsolid\n", nil},
		{"no trailing newline", "solid x\nendsolid x", nil},
		{"leading white space", "\n\n \t solid\nendsolid", nil},
		{"case and white space",
			"SOLID Part 1\r\n\tFACET NORMAL 0 0 1\r\nOuter Loop\r\nVERTEX 1.5 -2 3e2\r\n vertex\t0.1 0.2 0.3\r\n" +
				"vertex 1e-400 -0 +7\r\n   EndLoop\r\nEndFacet\r\nENDSOLID Part 1\r\n",
			[][3]geom.Vec3{{v(1.5, -2, 300), v(0.1, 0.2, 0.3), v(0, math.Copysign(0, -1), 7)}}},
		{"squashed facets", "solid s\nfacet normal 0 0 1 outer loop vertex 0 0 0 vertex 1 0 0 vertex 0 1 0 endloop endfacet endsolid s\n",
			unitMesh},
		{"facet without normal", "solid\nfacet\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\nendloop\nendfacet\nendsolid\n", unitMesh},
		{"nan normal", strings.Replace(asciiTri, "normal 0 0 1", "normal -nan NaN inf", 1), unitMesh},
		{"two solids", asciiTri + strings.ReplaceAll(asciiTri, "vertex 0 0 0", "vertex 0 0 9"),
			[][3]geom.Vec3{unitMesh[0], {v(0, 0, 9), v(1, 0, 0), v(0, 1, 0)}}},
		{"degenerate facet", strings.ReplaceAll(asciiTri, "vertex 1 0 0", "vertex 0 0 0"),
			[][3]geom.Vec3{{v(0, 0, 0), v(0, 0, 0), v(0, 1, 0)}}},
		{"utf-8 name", "solid größe ✓\nendsolid größe ✓\n", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m, err := Decode(strings.NewReader(tc.in))
			if err != nil {
				t.Fatal(err)
			}
			checkMesh(t, m, tc.want)
			// The same through a reader that returns one byte at a time.
			m, err = Decode(iotest.OneByteReader(strings.NewReader(tc.in)))
			if err != nil {
				t.Fatalf("one byte at a time: %v", err)
			}
			checkMesh(t, m, tc.want)
		})
	}
}

func TestDecodeBinary(t *testing.T) {
	solidHeader := "solid part" + strings.Repeat(" ", 70)
	tests := []struct {
		name string
		in   []byte
		want [][3]geom.Vec3
	}{
		{"one facet", binarySTL("binary", -1, []facet{unitTri}, nil), unitMesh},
		{"no facets", binarySTL("", -1, nil, nil), nil},
		{"float32 values widen exactly", binarySTL("x", -1, []facet{oddTri, unitTri}, nil),
			[][3]geom.Vec3{facetVerts(oddTri), unitMesh[0]}},
		{"header starts with solid", binarySTL(solidHeader, -1, []facet{unitTri, oddTri}, nil),
			[][3]geom.Vec3{unitMesh[0], facetVerts(oddTri)}},
		{"solid header, no facets", binarySTL(solidHeader, -1, nil, nil), nil},
		{"solid header with facet keywords", binarySTL("solid x\nfacet normal 0 0 1\n", -1, []facet{unitTri}, nil), unitMesh},
		{"ASCII-looking header and facet text", binarySTL(solidHeader, -1,
			[]facet{tri([3]float32{1e-30, 2e-30, 3e-30}, [3]float32{4, 5, 6}, [3]float32{7, 8, 9})}, nil),
			[][3]geom.Vec3{{f32(1e-30, 2e-30, 3e-30), f32(4, 5, 6), f32(7, 8, 9)}}},
		{"trailing garbage ignored", binarySTL("", -1, []facet{unitTri}, []byte("garbage\x00\x01")), unitMesh},
		{"non-finite normal ignored", binarySTL("", -1,
			[]facet{{float32(math.NaN()), float32(math.Inf(1)), 0, 0, 0, 0, 1, 0, 0, 0, 1, 0}}, nil), unitMesh},
		{"many facets", binarySTL("", -1, manyFacets(3000), nil), facetsMesh(manyFacets(3000))},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m, err := Decode(bytes.NewReader(tc.in))
			if err != nil {
				t.Fatal(err)
			}
			checkMesh(t, m, tc.want)
			m, err = Decode(iotest.HalfReader(bytes.NewReader(tc.in)))
			if err != nil {
				t.Fatalf("half reader: %v", err)
			}
			checkMesh(t, m, tc.want)
		})
	}
}

func manyFacets(n int) []facet {
	fs := make([]facet, n)
	for i := range fs {
		x := float32(i)
		fs[i] = tri([3]float32{x, 0, 0}, [3]float32{x, 1, 0.5}, [3]float32{x, 0, -1})
	}
	return fs
}

func facetsMesh(fs []facet) [][3]geom.Vec3 {
	w := make([][3]geom.Vec3, len(fs))
	for i, f := range fs {
		w[i] = facetVerts(f)
	}
	return w
}

func TestDecodeErrors(t *testing.T) {
	nan := float32(math.NaN())
	inf := float32(math.Inf(-1))
	twoFacets := binarySTL("", -1, []facet{unitTri, unitTri}, nil)
	tests := []struct {
		name   string
		in     []byte
		line   int
		offset int64
		msg    string
	}{
		// Binary: offsets.
		{"empty", nil, 0, 0, "truncated binary header"},
		{"short header", []byte("hello"), 0, 5, "truncated binary header"},
		{"short solid header", []byte("solid\x00"), 0, 6, "truncated binary header"},
		{"4e9 facets in 84 bytes", binarySTL("", 4e9, nil, nil), 0, 80, "declares 4000000000 facets"},
		{"count just over the limit", binarySTL("", maxFacets+1, nil, nil), 0, 80, "more than the limit"},
		{"1e6 facets in 84 bytes", binarySTL("", 1e6, nil, nil), 0, 84, "after 0 of 1000000 facets"},
		{"limit count, no data", binarySTL("", maxFacets, nil, nil), 0, 84, "truncated"},
		{"truncated in facet 2", twoFacets[:84+75], 0, 84 + 75, "after 1 of 2 facets"},
		{"truncated at facet boundary", twoFacets[:84+50], 0, 84 + 50, "after 1 of 2 facets"},
		{"truncated attribute", twoFacets[:len(twoFacets)-1], 0, 84 + 99, "after 1 of 2 facets"},
		{"truncated across chunks", binarySTL("", 5000, manyFacets(4000), nil), 0, 84 + 4000*50, "after 4000 of 5000"},
		{"nan vertex", binarySTL("", -1, []facet{unitTri, {0, 0, 0, 0, 0, 0, 1, nan, 0, 0, 0, 0}}, nil), 0, 84 + 50, "facet 1: non-finite"},
		{"inf vertex", binarySTL("", -1, []facet{{0, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, inf}}, nil), 0, 84, "facet 0: non-finite"},
		{"nan before the end", binarySTL("", 3, []facet{unitTri, {6: nan}}, nil), 0, 84 + 50, "facet 1: non-finite"},
		{"nan in a later chunk", binarySTL("", -1, append(manyFacets(2000), facet{3: nan}), nil), 0, 84 + 2000*50, "facet 2000"},
		{"text with a control byte is binary", []byte(asciiTri[:50] + "\x01" + asciiTri[50:]), 0, 80, "malformed ASCII STL?"},
		{"not solid", []byte(strings.Replace(asciiTri, "solid tri", "slid tri", 1)), 0, 80, "more than the limit"},

		// ASCII: lines.
		{"all on one line", []byte("solid facet normal 0 0 0 outer loop vertex 0 0 0 vertex 1 0 0 vertex 0 1 0 endloop endfacet endsolid"),
			1, 0, "unexpected end of input"}, // the name runs to the end of the line
		{"solid only", []byte("solid"), 1, 0, "unexpected end of input, want \"facet\" or \"endsolid\""},
		{"missing endsolid", []byte(strings.TrimSuffix(asciiTri, "endsolid tri\n")), 8, 0, "unexpected end of input"},
		{"two vertices", []byte(strings.Replace(asciiTri, "      vertex 0 1 0\n", "", 1)), 6, 0, "facet with 2 vertices, want 3"},
		{"no vertices", []byte("solid\nfacet normal 0 0 1\nouter loop\nendloop\nendfacet\nendsolid\n"), 4, 0, "facet with 0 vertices"},
		{"four vertices", []byte(strings.Replace(asciiTri, "vertex 0 1 0\n", "vertex 0 1 0\nvertex 2 2 2\n", 1)), 7, 0, "more than 3 vertices"},
		{"bad number", []byte(strings.Replace(asciiTri, "vertex 1 0 0", "vertex 1 0x 0", 1)), 5, 0, `bad vertex coordinate "0x"`},
		{"two coordinates", []byte(strings.Replace(asciiTri, "vertex 1 0 0", "vertex 1 0", 1)), 6, 0, `bad vertex coordinate "vertex"`},
		{"nan coordinate", []byte(strings.Replace(asciiTri, "vertex 0 1 0", "vertex 0 NaN 0", 1)), 6, 0, "non-finite"},
		{"inf coordinate", []byte(strings.Replace(asciiTri, "vertex 0 1 0", "vertex 0 1 -Inf", 1)), 6, 0, "non-finite"},
		{"overflowing coordinate", []byte(strings.Replace(asciiTri, "vertex 0 0 0", "vertex 1e400 0 0", 1)), 4, 0, "bad vertex coordinate"},
		{"missing loop", []byte(strings.Replace(asciiTri, "outer loop", "outer\n", 1)), 5, 0, `want "loop" after "outer", found "vertex"`},
		{"missing outer", []byte(strings.Replace(asciiTri, "outer loop", "", 1)), 4, 0, `want "outer loop", found "vertex"`},
		{"missing endfacet", []byte(strings.Replace(asciiTri, "endfacet", "", 1)), 9, 0, `want "endfacet", found "endsolid"`},
		{"stray word", []byte(strings.Replace(asciiTri, "endfacet", "endfacet\nbanana", 1)), 9, 0, `want "facet" or "endsolid", found "banana"`},
		{"garbage after endsolid", []byte(asciiTri + "\n\nxyz\n"), 12, 0, `found "xyz"`},
		{"long word", []byte("solid\nfacet " + strings.Repeat("a", 20000) + "\n"), 2, 0, "word longer than"},
		{"end inside normal", []byte("solid\nfacet normal 1 2"), 2, 0, "unexpected end of input"},
		{"end inside vertex", []byte("solid\nfacet normal 1 2 3\nouter loop\nvertex 1 2\n"), 4, 0, "want a vertex coordinate"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m, err := Decode(bytes.NewReader(tc.in))
			if err == nil {
				t.Fatalf("got a mesh with %d triangles, want an error", len(m.Tris))
			}
			checkFormatError(t, err, tc.line, tc.offset, tc.msg)
			_, err = Decode(iotest.OneByteReader(bytes.NewReader(tc.in)))
			checkFormatError(t, err, tc.line, tc.offset, tc.msg)
		})
	}
}

// TestDetectBinaryCount checks the claim of the package documentation: the
// count of any acceptable binary file puts a non-white control byte at
// offset 83.
func TestDetectBinaryCount(t *testing.T) {
	if maxFacets >= 0x06000000 {
		t.Fatalf("maxFacets = %#x: the detection argument needs fewer than 0x06000000", maxFacets)
	}
	h := "solid x\nfacet normal 0 0 0\nouter loop\n"
	h += strings.Repeat(" ", 80-len(h)) // no control byte in the header
	in := binarySTL(h, maxFacets, nil, nil)
	if isASCII(in) {
		t.Error("a binary file with the largest count is read as ASCII")
	}
}

func TestDetect(t *testing.T) {
	tests := []struct {
		in    string
		ascii bool
	}{
		{"solid", true},
		{"  Solid x\n", true},
		{"solid x\nfacet", true},
		{"solid x\nENDSOLID", true},
		{"solid x\nfacets ", false},
		{"solid x\nvertex ", false},
		{"solid x\nfac", true}, // cut off: cannot tell
		{"solidx\nfacet ", false},
		{"solid \x00\nfacet ", false},
		{"solid \x7f\nfacet ", false},
		{"solid é\nfacet ", true},
		{"facet", false},
		{"", false},
	}
	for _, tc := range tests {
		if got := isASCII([]byte(tc.in)); got != tc.ascii {
			t.Errorf("isASCII(%q) = %v, want %v", tc.in, got, tc.ascii)
		}
	}
}

// TestDecodeLongName checks a "solid" line longer than the detection window.
func TestDecodeLongName(t *testing.T) {
	in := "solid " + strings.Repeat("n", 3000) + "\n" + asciiTri[len("solid tri\n"):]
	m, err := Decode(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	checkMesh(t, m, unitMesh)
}

type errReader struct{}

func (errReader) Read([]byte) (int, error) { return 0, io.ErrClosedPipe }

func TestDecodeReadError(t *testing.T) {
	for _, r := range []io.Reader{
		errReader{},
		io.MultiReader(strings.NewReader(asciiTri[:100]), errReader{}),
		io.MultiReader(bytes.NewReader(binarySTL("", 10, manyFacets(3), nil)), errReader{}),
	} {
		if _, err := Decode(r); !errors.Is(err, io.ErrClosedPipe) {
			t.Errorf("Decode: error %v, want %v", err, io.ErrClosedPipe)
		}
	}
}

func TestEncodeRoundTrip(t *testing.T) {
	fs := append(manyFacets(2000), oddTri, unitTri)
	want := facetsMesh(fs)
	m, err := Decode(bytes.NewReader(binarySTL("", -1, fs, nil)))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := Encode(&buf, m); err != nil {
		t.Fatal(err)
	}
	if bytes.HasPrefix(bytes.ToLower(buf.Bytes()), []byte("solid")) {
		t.Error("Encode header starts with \"solid\"")
	}
	if got, want := buf.Len(), 84+50*len(fs); got != want {
		t.Errorf("Encode wrote %d bytes, want %d", got, want)
	}
	m2, err := Decode(&buf)
	if err != nil {
		t.Fatal(err)
	}
	checkMesh(t, m2, want)
}

func TestEncodeNormalsAndNarrowing(t *testing.T) {
	m := &mesh.TriMesh{
		Verts: []geom.Vec3{{X: 0, Y: 0, Z: 0}, {X: 0.1, Y: 0, Z: 0}, {X: 0, Y: 0.1, Z: 0}, {X: 5, Y: 5, Z: 5}},
		Tris:  [][3]int32{{0, 1, 2}, {0, 0, 3}, {2, 1, 0}},
	}
	var buf bytes.Buffer
	if err := Encode(&buf, m); err != nil {
		t.Fatal(err)
	}
	b := buf.Bytes()
	normal := func(i int) [3]float32 {
		var n [3]float32
		for j := range n {
			n[j] = math.Float32frombits(binary.LittleEndian.Uint32(b[84+50*i+4*j:]))
		}
		return n
	}
	for i, want := range [][3]float32{{0, 0, 1}, {0, 0, 0}, {0, 0, -1}} {
		if got := normal(i); got != want {
			t.Errorf("normal of triangle %d = %v, want %v", i, got, want)
		}
	}
	m2, err := Decode(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := m2.Verts[1].X, float64(float32(0.1)); got != want {
		t.Errorf("0.1 encoded and decoded = %v, want %v", got, want)
	}
}

func TestEncodeErrors(t *testing.T) {
	v := []geom.Vec3{{X: 0, Y: 0, Z: 0}, {X: 1, Y: 0, Z: 0}, {X: 0, Y: 1, Z: 0}}
	for _, tc := range []struct {
		name string
		m    *mesh.TriMesh
		msg  string
	}{
		{"index out of range", &mesh.TriMesh{Verts: v, Tris: [][3]int32{{0, 1, 3}}}, "out of range"},
		{"negative index", &mesh.TriMesh{Verts: v, Tris: [][3]int32{{-1, 1, 2}}}, "out of range"},
		{"nan", &mesh.TriMesh{Verts: append([]geom.Vec3{{X: math.NaN()}}, v...), Tris: [][3]int32{{0, 1, 2}}}, "not a finite float32"},
		{"float32 overflow", &mesh.TriMesh{Verts: append([]geom.Vec3{{Z: 1e39}}, v...), Tris: [][3]int32{{0, 1, 2}}}, "not a finite float32"},
	} {
		if err := Encode(io.Discard, tc.m); err == nil || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%s: Encode error %v, want one containing %q", tc.name, err, tc.msg)
		}
	}
	m := &mesh.TriMesh{Verts: v, Tris: [][3]int32{{0, 1, 2}}}
	if err := Encode(errWriter{}, m); !errors.Is(err, io.ErrShortWrite) {
		t.Errorf("Encode to a failing writer: %v, want %v", err, io.ErrShortWrite)
	}
}

type errWriter struct{}

func (errWriter) Write([]byte) (int, error) { return 0, io.ErrShortWrite }

func TestRegistered(t *testing.T) {
	f, ok := mesh.FormatFor("part.STL")
	if !ok || f.Name != "stl" {
		t.Fatalf("FormatFor(part.STL) = %v, %v", f.Name, ok)
	}
	m, err := mesh.LoadReader("part.stl", strings.NewReader(asciiTri))
	if err != nil || len(m.Tris) != 1 {
		t.Fatalf("LoadReader: %v", err)
	}
	_, err = mesh.LoadReader("bad.stl", strings.NewReader("solid\nfacet\n"))
	var fe *mesh.FormatError
	if !errors.As(err, &fe) || fe.File != "bad.stl" || fe.Line != 2 {
		t.Errorf("LoadReader error %v, want a FormatError for bad.stl line 2", err)
	}
}

func checkIsFormatError(t *testing.T, err error) {
	t.Helper()
	var fe *mesh.FormatError
	if !errors.As(err, &fe) {
		t.Fatalf("error %v (%T), want *mesh.FormatError", err, err)
	}
	if fe.Format != "stl" || fe.Line < 0 || fe.Offset < 0 || (fe.Line > 0 && fe.Offset != 0) {
		t.Fatalf("malformed FormatError %+v", fe)
	}
}

// TestDecodeHostileAllocation checks that huge declared counts cost nothing
// until the data arrives.
func TestDecodeHostileAllocation(t *testing.T) {
	for _, in := range [][]byte{
		binarySTL("", 4e9, nil, nil),
		binarySTL("solid", maxFacets, nil, nil),
		binarySTL("", maxFacets, []facet{unitTri}, nil),
	} {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, err := Decode(bytes.NewReader(in))
		runtime.ReadMemStats(&after)
		checkIsFormatError(t, err)
		if n := after.TotalAlloc - before.TotalAlloc; n > 1<<20 {
			t.Errorf("Decode allocated %d bytes for a %d-byte input", n, len(in))
		}
	}
}

// TestDecodeWelds checks that bit-identical vertices get one index across
// facets, solids and both forms, that -0 and +0 stay apart, and that a
// closed grid of facets keeps its vertex count.
func TestDecodeWelds(t *testing.T) {
	negZero := float32(math.Copysign(0, -1))
	a := tri([3]float32{0, 0, 0}, [3]float32{1, 0, 0}, [3]float32{0, 1, 0})
	b := tri([3]float32{1, 0, 0}, [3]float32{0, 0, 0}, [3]float32{negZero, 1, 0})
	m, err := Decode(bytes.NewReader(binarySTL("", -1, []facet{a, b}, nil)))
	if err != nil {
		t.Fatal(err)
	}
	if want := [][3]int32{{0, 1, 2}, {1, 0, 3}}; !slices.Equal(m.Tris, want) || len(m.Verts) != 4 {
		t.Errorf("binary: Tris %v over %d vertices, want %v over 4", m.Tris, len(m.Verts), want)
	}
	checkMesh(t, m, [][3]geom.Vec3{facetVerts(a), facetVerts(b)})

	fs := benchFacets(5000)
	m, err = Decode(bytes.NewReader(binarySTL("", -1, fs, nil)))
	if err != nil {
		t.Fatal(err)
	}
	want := make([][3]geom.Vec3, len(fs))
	for i, f := range fs {
		want[i] = facetVerts(f)
	}
	checkMesh(t, m, want)
	if len(m.Verts) >= len(fs) {
		t.Errorf("grid of %d facets: %d vertices, want fewer than the facets", len(fs), len(m.Verts))
	}
	m2, err := Decode(bytes.NewReader(asciiSTL(fs)))
	if err != nil {
		t.Fatal(err)
	}
	// asciiSTL writes the shortest decimals of the float32 values, which
	// read back as other float64 values.
	for i := range want {
		for j := range want[i] {
			for _, c := range []*float64{&want[i][j].X, &want[i][j].Y, &want[i][j].Z} {
				*c, _ = strconv.ParseFloat(fmt.Sprintf("%g", float32(*c)), 64)
			}
		}
	}
	checkMesh(t, m2, want)
	if cap(m.Verts) > len(m.Verts)+len(m.Verts)/8 || cap(m2.Tris) > len(m2.Tris)+len(m2.Tris)/8 {
		t.Errorf("spare capacity kept: verts %d of %d, tris %d of %d", len(m.Verts), cap(m.Verts), len(m2.Tris), cap(m2.Tris))
	}
}
