package ply

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh"
)

// cell is one value of a test file body: a PLY type name and a value.
type cell struct {
	typ string
	v   float64
}

func c(typ string, v float64) cell { return cell{typ, v} }

// list returns the cells of a list value.
func list(ct, it string, items ...float64) []cell {
	cs := []cell{{ct, float64(len(items))}}
	for _, v := range items {
		cs = append(cs, cell{it, v})
	}
	return cs
}

// row concatenates cells and lists into one element instance.
func row(parts ...any) []cell {
	var r []cell
	for _, p := range parts {
		switch p := p.(type) {
		case cell:
			r = append(r, p)
		case []cell:
			r = append(r, p...)
		default:
			panic(fmt.Sprintf("row: %T", p))
		}
	}
	return r
}

// encodeCell appends the encoding of x to b.
func encodeCell(b []byte, enc string, x cell) []byte {
	if enc == "ascii" {
		if scalarNames[x.typ].isFloat() {
			return strconv.AppendFloat(b, x.v, 'g', -1, 64)
		}
		return strconv.AppendInt(b, int64(x.v), 10)
	}
	var o binary.AppendByteOrder = binary.LittleEndian
	if enc == "binary_big_endian" {
		o = binary.BigEndian
	}
	switch scalarNames[x.typ] {
	case tInt8, tUint8:
		return append(b, byte(int64(x.v)))
	case tInt16, tUint16:
		return o.AppendUint16(b, uint16(int64(x.v)))
	case tInt32, tUint32:
		return o.AppendUint32(b, uint32(int64(x.v)))
	case tFloat32:
		return o.AppendUint32(b, math.Float32bits(float32(x.v)))
	case tFloat64:
		return o.AppendUint64(b, math.Float64bits(x.v))
	}
	panic("encodeCell: type " + x.typ)
}

// plyFile builds a PLY file: the header lines between the format line and
// end_header, then one element instance per row (one line each in ASCII).
func plyFile(enc, header string, rows ...[]cell) []byte {
	b := []byte("ply\nformat " + enc + " 1.0\n" + header + "end_header\n")
	for _, r := range rows {
		for i, x := range r {
			if enc == "ascii" && i > 0 {
				b = append(b, ' ')
			}
			b = encodeCell(b, enc, x)
		}
		if enc == "ascii" {
			b = append(b, '\n')
		}
	}
	return b
}

var encodings = []string{"ascii", "binary_little_endian", "binary_big_endian"}

func v3(x, y, z float64) geom.Vec3 { return geom.Vec3{X: x, Y: y, Z: z} }

// checkMesh asserts that m has exactly the vertices and triangles given.
func checkMesh(t *testing.T, m *mesh.TriMesh, verts []geom.Vec3, tris [][3]int32) {
	t.Helper()
	if err := m.Validate(); err != nil {
		t.Fatalf("Validate: %v", err)
	}
	if len(m.Verts) != len(verts) || len(m.Tris) != len(tris) {
		t.Fatalf("got %d vertices, %d triangles; want %d, %d", len(m.Verts), len(m.Tris), len(verts), len(tris))
	}
	for i, v := range verts {
		if m.Verts[i] != v {
			t.Errorf("vertex %d = %v, want %v", i, m.Verts[i], v)
		}
	}
	for i, tr := range tris {
		if m.Tris[i] != tr {
			t.Errorf("triangle %d = %v, want %v", i, m.Tris[i], tr)
		}
	}
}

// decodeAll decodes data through several readers (whole, one byte at a
// time, in halves) and checks that they agree, returning the first result.
func decodeAll(t *testing.T, data []byte) (*mesh.TriMesh, error) {
	t.Helper()
	m, err := Decode(bytes.NewReader(data))
	for _, r := range []io.Reader{iotest.OneByteReader(bytes.NewReader(data)), iotest.HalfReader(bytes.NewReader(data))} {
		m2, err2 := Decode(r)
		if fmt.Sprint(err) != fmt.Sprint(err2) {
			t.Fatalf("error %v with a bytes.Reader, %v with %T", err, err2, r)
		}
		if err == nil && (len(m.Verts) != len(m2.Verts) || len(m.Tris) != len(m2.Tris)) {
			t.Fatalf("results differ with %T", r)
		}
	}
	return m, err
}

// The pyramid: a square base (a quad), four triangles, written as a quad, a
// triangle and a pentagon to check the fan order.
const pyramidHeader = "element vertex 5\nproperty float x\nproperty float y\nproperty float z\n" +
	"element face 3\nproperty list uchar int vertex_indices\n"

var (
	pyramidVerts = []geom.Vec3{v3(0, 0, 0), v3(1, 0, 0), v3(1, 1, 0), v3(0, 1, 0), v3(0.5, 0.5, 1)}
	pyramidTris  = [][3]int32{{0, 1, 2}, {0, 2, 3}, {0, 1, 4}, {4, 3, 2}, {4, 2, 1}, {4, 1, 0}}
)

func pyramidRows(xt, ct, it string) [][]cell {
	var rows [][]cell
	for _, v := range pyramidVerts {
		rows = append(rows, row(c(xt, v.X), c(xt, v.Y), c(xt, v.Z)))
	}
	return append(rows,
		list(ct, it, 0, 1, 2, 3),
		list(ct, it, 0, 1, 4),
		list(ct, it, 4, 3, 2, 1, 0))
}

func pyramid(enc string) []byte {
	return plyFile(enc, pyramidHeader, pyramidRows("float", "uchar", "int")...)
}

func TestDecodePyramid(t *testing.T) {
	for _, enc := range encodings {
		t.Run(enc, func(t *testing.T) {
			m, err := decodeAll(t, pyramid(enc))
			if err != nil {
				t.Fatal(err)
			}
			checkMesh(t, m, pyramidVerts, pyramidTris)
		})
	}
}

// TestDecodeTypes decodes coordinates of every type, and face lists of every
// integer count and item type, in every encoding.
func TestDecodeTypes(t *testing.T) {
	names := []string{"char", "uchar", "short", "ushort", "int", "uint", "float", "double",
		"int8", "uint8", "int16", "uint16", "int32", "uint32", "float32", "float64"}
	for _, enc := range encodings {
		for _, xt := range names {
			t.Run(enc+"/xyz "+xt, func(t *testing.T) {
				// Values that every type holds exactly, and extreme ones.
				verts := []geom.Vec3{v3(0, 1, 2), v3(3, 4, 5), v3(6, 7, 127)}
				switch scalarNames[xt] {
				case tInt8:
					verts[0] = v3(-128, -1, 0)
				case tUint8:
					verts[0] = v3(255, 254, 0)
				case tInt16:
					verts[0] = v3(-32768, 32767, -1)
				case tUint16:
					verts[0] = v3(65535, 0, 1)
				case tInt32:
					verts[0] = v3(math.MinInt32, math.MaxInt32, -1)
				case tUint32:
					verts[0] = v3(math.MaxUint32, 0, 1)
				case tFloat32:
					verts[0] = v3(-1.25, math.MaxFloat32, math.SmallestNonzeroFloat32)
				case tFloat64:
					verts[0] = v3(-1.25, math.MaxFloat64, math.SmallestNonzeroFloat64)
				}
				header := fmt.Sprintf("element vertex 3\nproperty %[1]s x\nproperty %[1]s y\nproperty %[1]s z\n"+
					"element face 1\nproperty list uchar int vertex_indices\n", xt)
				var rows [][]cell
				for _, v := range verts {
					rows = append(rows, row(c(xt, v.X), c(xt, v.Y), c(xt, v.Z)))
				}
				rows = append(rows, list("uchar", "int", 2, 1, 0))
				m, err := decodeAll(t, plyFile(enc, header, rows...))
				if err != nil {
					t.Fatal(err)
				}
				checkMesh(t, m, verts, [][3]int32{{2, 1, 0}})
			})
		}
		for _, ct := range names[:6] {
			for _, it := range names[8:14] {
				t.Run(enc+"/list "+ct+" "+it, func(t *testing.T) {
					header := fmt.Sprintf("element vertex 5\nproperty double x\nproperty double y\nproperty double z\n"+
						"element face 3\nproperty list %s %s vertex_indices\n", ct, it)
					m, err := decodeAll(t, plyFile(enc, header, pyramidRows("double", ct, it)...))
					if err != nil {
						t.Fatal(err)
					}
					checkMesh(t, m, pyramidVerts, pyramidTris)
				})
			}
		}
	}
}

func TestDecodeFloat32Widening(t *testing.T) {
	header := "element vertex 3\nproperty float x\nproperty float y\nproperty float z\n"
	f := func(x float64) float64 { return float64(float32(x)) }
	for _, enc := range encodings[1:] {
		m, err := decodeAll(t, plyFile(enc, header, row(c("float", 0.1), c("float", -1e-40), c("float", 3e38)),
			row(c("float", 1), c("float", 2), c("float", 3)), row(c("float", 0), c("float", 0), c("float", 1.0/3))))
		if err != nil {
			t.Fatal(err)
		}
		checkMesh(t, m, []geom.Vec3{v3(f(0.1), f(-1e-40), f(3e38)), v3(1, 2, 3), v3(0, 0, f(1.0/3))}, nil)
	}
}

// TestDecodeLayouts checks skipped properties and elements, and element
// orders.
func TestDecodeLayouts(t *testing.T) {
	type tc struct {
		name   string
		header string
		rows   [][]cell
		verts  []geom.Vec3
		tris   [][3]int32
	}
	var tests []tc

	// Vertex properties around x, y, z, including lists, of every width.
	{
		header := "element vertex 5\nproperty uchar red\nproperty list uchar float tex\nproperty float x\nproperty double nx\n" +
			"property float y\nproperty list short int junk\nproperty float z\nproperty ushort flags\n" +
			"element face 3\nproperty list uchar int vertex_indices\n"
		var rows [][]cell
		for i, v := range pyramidVerts {
			rows = append(rows, row(c("uchar", 200), list("uchar", "float", 1, 2, float64(i)), c("float", v.X), c("double", math.NaN()),
				c("float", v.Y), list("short", "int", make([]float64, i)...), c("float", v.Z), c("ushort", 65535)))
		}
		rows = append(rows, pyramidRows("float", "uchar", "int")[5:]...)
		tests = append(tests, tc{"vertex properties with lists", header, rows, pyramidVerts, pyramidTris})
	}
	// Fixed-size vertex records with other properties.
	{
		header := "element vertex 5\nproperty double nx\nproperty float z\nproperty uchar red\nproperty float y\nproperty int x\n" +
			"element face 3\nproperty list uchar int vertex_indices\n"
		var rows [][]cell
		verts := make([]geom.Vec3, len(pyramidVerts))
		for i, v := range pyramidVerts {
			verts[i] = v3(float64(i), v.Y, v.Z)
			rows = append(rows, row(c("double", math.Inf(1)), c("float", v.Z), c("uchar", 1), c("float", v.Y), c("int", float64(i))))
		}
		rows = append(rows, pyramidRows("float", "uchar", "int")[5:]...)
		tests = append(tests, tc{"fixed vertex records in any order", header, rows, verts, pyramidTris})
	}
	// Face properties around the index list.
	{
		header := "element vertex 5\nproperty float x\nproperty float y\nproperty float z\n" +
			"element face 3\nproperty uchar red\nproperty list uint short texcoord\nproperty list ushort uint vertex_index\n" +
			"property double w\nproperty list uchar int vertex_indices\n"
		rows := pyramidRows("float", "uchar", "int")[:5]
		for i, f := range [][]float64{{0, 1, 2, 3}, {0, 1, 4}, {4, 3, 2, 1, 0}} {
			rows = append(rows, row(c("uchar", 7), list("uint", "short", make([]float64, 2*i)...), list("ushort", "uint", f...),
				c("double", math.NaN()), list("uchar", "int", 9, 9, 9, 9, 9, 9)))
		}
		tests = append(tests, tc{"face properties, vertex_index", header, rows, pyramidVerts, pyramidTris})
	}
	// Other elements everywhere, faces first.
	{
		header := "element material 2\nproperty list uchar uchar name\nproperty float shininess\n" +
			"element face 3\nproperty list uchar int vertex_indices\n" +
			"element edge 2\nproperty int vertex1\nproperty int vertex2\nproperty uchar red\n" +
			"element vertex 5\nproperty float x\nproperty float y\nproperty float z\n" +
			"element nothing 2000000000\n" +
			"element range_grid 3\nproperty list uchar int vertex_indices\n"
		pr := pyramidRows("float", "uchar", "int")
		rows := [][]cell{row(list("uchar", "uchar", 'a', 'b'), c("float", 1)), row(list("uchar", "uchar"), c("float", 2))}
		rows = append(rows, pr[5:]...)
		rows = append(rows, row(c("int", 0), c("int", 1), c("uchar", 0)), row(c("int", -5), c("int", 1e9), c("uchar", 0)))
		rows = append(rows, pr[:5]...)
		rows = append(rows, list("uchar", "int", 1), list("uchar", "int"), list("uchar", "int", 99, 99, 99, 99))
		tests = append(tests, tc{"other elements, faces first", header, rows, pyramidVerts, pyramidTris})
	}
	tests = append(tests,
		tc{"point cloud", "element vertex 2\nproperty float x\nproperty float y\nproperty float z\n",
			[][]cell{row(c("float", 1), c("float", 2), c("float", 3)), row(c("float", 4), c("float", 5), c("float", 6))},
			[]geom.Vec3{v3(1, 2, 3), v3(4, 5, 6)}, nil},
		tc{"empty", "", nil, nil, nil},
		tc{"empty elements", "element vertex 0\nproperty float x\nelement face 0\n", nil, nil, nil},
		tc{"repeated vertex in a face", "element vertex 3\nproperty float x\nproperty float y\nproperty float z\n" +
			"element face 1\nproperty list uchar uint vertex_indices\n",
			[][]cell{row(c("float", 0), c("float", 0), c("float", 0)), row(c("float", 1), c("float", 0), c("float", 0)),
				row(c("float", 0), c("float", 1), c("float", 0)), list("uchar", "uint", 0, 1, 1, 2, 0)},
			[]geom.Vec3{v3(0, 0, 0), v3(1, 0, 0), v3(0, 1, 0)}, [][3]int32{{0, 1, 1}, {0, 1, 2}, {0, 2, 0}}},
	)
	for _, tc := range tests {
		for _, enc := range encodings {
			t.Run(tc.name+"/"+enc, func(t *testing.T) {
				m, err := decodeAll(t, plyFile(enc, tc.header, tc.rows...))
				if err != nil {
					t.Fatal(err)
				}
				checkMesh(t, m, tc.verts, tc.tris)
			})
		}
	}
}

func TestDecodeText(t *testing.T) {
	tests := []struct {
		name string
		in   string
	}{
		{"comments, crlf, blank lines", "ply\r\nformat ascii 1.0\r\ncomment made by hand\r\n\r\nobj_info x\r\n" +
			"element vertex 3\r\n  property   float  x \r\nproperty float y\r\nproperty float z\r\n" +
			"element face 1\r\nproperty list uchar int vertex_indices\r\nend_header\r\n" +
			"0 0 0\r\n1 0 0\r\n0 1 0\r\n3 0 1 2\r\n"},
		{"elements across lines", "ply\nformat ascii 1\nelement vertex 3\nproperty float x\nproperty float y\nproperty float z\n" +
			"element face 1\nproperty list uchar int vertex_indices\nend_header\n0 0 0 1 0\n0 0\n1\n0\n3\n\n0 1\t2"},
		{"ply with trailing space", "ply \nformat ascii 1.0\nelement vertex 3\nproperty double x\nproperty double y\nproperty double z\n" +
			"element face 1\nproperty list int int vertex_indices\nend_header\n0 +0 -0\n1e0 0.0 0\n0 1 0\n+3 0 1 2\n\n\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m, err := decodeAll(t, []byte(tc.in))
			if err != nil {
				t.Fatal(err)
			}
			checkMesh(t, m, []geom.Vec3{v3(0, 0, 0), v3(1, 0, 0), v3(0, 1, 0)}, [][3]int32{{0, 1, 2}})
		})
	}
}

func TestDecodeBinaryExtras(t *testing.T) {
	// Trailing bytes after a binary body are ignored; \r\n before the body.
	for _, enc := range encodings[1:] {
		data := append(pyramid(enc), "trailing\x00\xff"...)
		m, err := decodeAll(t, data)
		if err != nil {
			t.Fatal(err)
		}
		checkMesh(t, m, pyramidVerts, pyramidTris)
		data = bytes.ReplaceAll(pyramid(enc), []byte("end_header\n"), []byte("end_header\r\n"))
		data = bytes.Replace(data, []byte("ply\n"), []byte("ply\r\n"), 1)
		if m, err = decodeAll(t, data); err != nil {
			t.Fatal(err)
		}
		checkMesh(t, m, pyramidVerts, pyramidTris)
	}
}

// TestDecodeLarge crosses buffer boundaries with many faces, a huge polygon
// and long skipped elements.
func TestDecodeLarge(t *testing.T) {
	const nv, nf = 3000, 30000
	header := fmt.Sprintf("element vertex %d\nproperty float x\nproperty float y\nproperty float z\nproperty list uchar uchar junk\n"+
		"element face %d\nproperty list ushort uint vertex_indices\n"+
		"element face2 1\nproperty list int uint x\n"+
		"element skip 20000\nproperty double a\nproperty float b\n", nv, nf+1)
	var rows [][]cell
	var verts []geom.Vec3
	for i := range nv {
		v := v3(float64(i), float64(i%7), -float64(i%13))
		verts = append(verts, v)
		rows = append(rows, row(c("float", v.X), c("float", v.Y), c("float", v.Z), list("uchar", "uchar", make([]float64, i%4)...)))
	}
	var tris [][3]int32
	for i := range nf {
		k := 3 + i%3
		idx := make([]float64, k)
		for j := range idx {
			idx[j] = float64((i*7 + j*j) % nv)
		}
		rows = append(rows, list("ushort", "uint", idx...))
		for j := 2; j < k; j++ {
			tris = append(tris, [3]int32{int32(idx[0]), int32(idx[j-1]), int32(idx[j])})
		}
	}
	big := make([]float64, 50000)
	for j := range big {
		big[j] = float64(j % nv)
	}
	rows = append(rows, list("ushort", "uint", big...))
	for j := 2; j < len(big); j++ {
		tris = append(tris, [3]int32{0, int32(big[j-1]), int32(big[j])})
	}
	rows = append(rows, list("int", "uint", big...))
	for range 20000 {
		rows = append(rows, row(c("double", 1), c("float", 2)))
	}
	for _, enc := range encodings {
		t.Run(enc, func(t *testing.T) {
			data := plyFile(enc, header, rows...)
			m, err := Decode(bytes.NewReader(data))
			if err != nil {
				t.Fatal(err)
			}
			checkMesh(t, m, verts, tris)
			m, err = Decode(iotest.HalfReader(bytes.NewReader(data)))
			if err != nil {
				t.Fatal(err)
			}
			checkMesh(t, m, verts, tris)
		})
	}
}

// checkFormatError asserts that err is a *mesh.FormatError at the given
// line, or at the given offset when line is 0, whose message contains msg.
func checkFormatError(t *testing.T, err error, line int, offset int64, msg string) {
	t.Helper()
	var fe *mesh.FormatError
	if !errors.As(err, &fe) {
		t.Fatalf("error %v (%T), want *mesh.FormatError", err, err)
	}
	if fe.Format != "ply" {
		t.Errorf("Format = %q, want ply", fe.Format)
	}
	if fe.Line != line || (line == 0 && fe.Offset != offset) {
		t.Errorf("error %q at line %d offset %d, want line %d offset %d", fe, fe.Line, fe.Offset, line, offset)
	}
	if !strings.Contains(fe.Msg, msg) {
		t.Errorf("message %q does not contain %q", fe.Msg, msg)
	}
}

const triHeader = "element vertex 3\nproperty float x\nproperty float y\nproperty float z\n" +
	"element face 1\nproperty list uchar int vertex_indices\n"

// tri returns the rows of a one-triangle file with the given face row.
func triRows(face []cell) [][]cell {
	return [][]cell{
		row(c("float", 0), c("float", 0), c("float", 0)),
		row(c("float", 1), c("float", 0), c("float", 0)),
		row(c("float", 0), c("float", 1), c("float", 0)),
		face,
	}
}

func TestDecodeHeaderErrors(t *testing.T) {
	h := func(lines ...string) string {
		return "ply\nformat ascii 1.0\n" + strings.Join(lines, "\n") + "\nend_header\n"
	}
	tests := []struct {
		name string
		in   string
		line int
		msg  string
	}{
		{"empty", "", 1, "empty input"},
		{"not ply", "plx\nformat ascii 1.0\n", 1, `the first line is "plx"`},
		{"binary junk", "\x00\x01\x02\n", 1, "not a PLY file"},
		{"no newline", "ply", 1, "no end_header"},
		{"no end_header", "ply\nformat ascii 1.0\ncomment x\n", 3, "no end_header"},
		{"no format", "ply\nelement vertex 0\nend_header\n", 3, "no format line"},
		{"two formats", "ply\nformat ascii 1.0\nformat ascii 1.0\nend_header\n", 3, "second format"},
		{"bad format", "ply\nformat binary_middle_endian 1.0\nend_header\n", 2, `unknown format "binary_middle_endian"`},
		{"format without version", "ply\nformat ascii\nend_header\n", 2, "want \"format ENCODING 1.0\""},
		{"version 2", "ply\nformat ascii 2.0\nend_header\n", 2, "unsupported version"},
		{"element without count", h("element vertex"), 3, "want \"element NAME COUNT\""},
		{"bad count", h("element vertex 1x"), 3, `bad element count "1x"`},
		{"negative count", h("element vertex -1"), 3, "bad element count"},
		{"huge count", h("element vertex 99999999999999999999"), 3, "count 99999999999999999999 exceeds the limit"},
		{"hex count", h("element vertex 0x3"), 3, "bad element count"},
		{"2e9 vertices", h("element vertex 2000000000"), 3, "exceeds the limit"},
		{"too many vertices", h("element vertex " + strconv.Itoa(mesh.MaxVertices+1)), 3, "exceeds the limit"},
		{"too many faces", h("element face " + strconv.Itoa(mesh.MaxTriangles+1)), 3, "exceeds the limit"},
		{"too many others", h("element edge 2147483648"), 3, "exceeds the limit"},
		{"two vertex elements", h("element vertex 0", "element face 0", "element vertex 0"), 5, `second "vertex" element (first on line 3)`},
		{"property first", h("property float x"), 3, "property before any element"},
		{"unknown type", h("element vertex 1", "property real x"), 4, `unknown property type "real"`},
		{"property without name", h("element vertex 1", "property float"), 4, "want \"property TYPE NAME\""},
		{"list too short", h("element face 1", "property list uchar vertex_indices"), 4, "want \"property list COUNTTYPE ITEMTYPE NAME\""},
		{"unknown count type", h("element face 1", "property list byte int vertex_indices"), 4, `unknown list count type "byte"`},
		{"float count type", h("element face 1", "property list float int vertex_indices"), 4, "not an integer type"},
		{"unknown item type", h("element face 1", "property list uchar integer vertex_indices"), 4, `unknown list item type "integer"`},
		{"duplicate property", h("element vertex 1", "property float x", "property double x"), 5, `second property "x" (first on line 4)`},
		{"unknown keyword", h("element vertex 1", "propertyy float x"), 4, `unknown header keyword "propertyy"`},
		{"end_header with junk", "ply\nformat ascii 1.0\nend_header now\n", 3, "after end_header"},
		{"long line", "ply\ncomment " + strings.Repeat("x", maxLine) + "\n", 2, "header line longer than"},
		{"vertex without z", h("element vertex 1", "property float x", "property float y"), 3, "vertex element without property z"},
		{"x is a list", h("element vertex 1", "property list uchar float x", "property float y", "property float z"), 4, "vertex property x is a list"},
		{"face without indices", h("element vertex 0", "element face 1", "property list uchar int verts"), 4, "face element without a vertex_indices list"},
		{"indices not a list", h("element face 1", "property int vertex_indices"), 4, "vertex_indices is not a list"},
		{"float indices", h("element face 1", "property list uchar float vertex_indices"), 4, "item type float32, want an integer type"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m, err := decodeAll(t, []byte(tc.in))
			if err == nil {
				t.Fatalf("got a mesh with %d triangles, want an error", len(m.Tris))
			}
			checkFormatError(t, err, tc.line, 0, tc.msg)
		})
	}
}

func TestDecodeBodyErrors(t *testing.T) {
	le, be := "binary_little_endian", "binary_big_endian"
	hdr := func(enc, header string) int64 { return int64(len(plyFile(enc, header))) }
	leTri := hdr(le, triHeader) // offset of the body
	nan := math.NaN()
	listVertex := "element vertex 1\nproperty float x\nproperty float y\nproperty float z\nproperty list uchar int l\n"
	intCount := strings.Replace(triHeader, "uchar int", "int int", 1)
	tests := []struct {
		name   string
		in     []byte
		line   int
		offset int64
		msg    string
	}{
		// Binary: offsets.
		{"no data", plyFile(le, triHeader), 0, leTri, "after 0 of 3 vertex elements"},
		{"truncated vertex", plyFile(le, triHeader, triRows(list("uchar", "int", 0, 1, 2))...)[:leTri+13], 0, leTri + 13, "after 1 of 3 vertex"},
		{"truncated face count", plyFile(le, triHeader, triRows(nil)...), 0, leTri + 36, "after 0 of 1 face"},
		{"truncated face", plyFile(le, triHeader, triRows(list("uchar", "int", 0, 1, 2))...)[:leTri+36+7], 0, leTri + 43, "after 0 of 1 face"},
		{"nan y", plyFile(le, triHeader, row(c("float", 0), c("float", nan), c("float", 0))), 0, leTri + 4, "vertex 0: non-finite coordinate y"},
		{"inf z big endian", plyFile(be, strings.ReplaceAll(triHeader, "float", "double"),
			row(c("double", 0), c("double", 0), c("double", 0)), row(c("double", 0), c("double", 0), c("double", math.Inf(-1)))),
			0, hdr(be, strings.ReplaceAll(triHeader, "float", "double")) + 40, "vertex 1: non-finite coordinate z"},
		{"nan with a list", plyFile(le, listVertex, row(c("float", 0), c("float", nan), c("float", 0), list("uchar", "int", 1, 2))),
			0, hdr(le, listVertex) + 4, "vertex 0: non-finite coordinate y"},
		{"truncated with a list", plyFile(le, listVertex, row(c("float", 0), c("float", 1), c("float", 0), list("uchar", "int", 1, 2)))[:hdr(le, listVertex)+17],
			0, hdr(le, listVertex) + 17, "after 0 of 1 vertex"},
		{"face of 2", plyFile(le, triHeader, triRows(list("uchar", "int", 0, 1))...), 0, leTri + 36, "face 0 has 2 vertices, want at least 3"},
		{"face of 0", plyFile(le, triHeader, triRows(list("uchar", "int"))...), 0, leTri + 36, "face 0 has 0 vertices"},
		{"index out of range", plyFile(le, triHeader, triRows(list("uchar", "int", 0, 1, 3))...), 0, leTri + 36 + 9, "vertex index 3 out of range [0, 3)"},
		{"negative index", plyFile(le, triHeader, triRows(list("uchar", "int", 0, -1, 2))...), 0, leTri + 36 + 5, "vertex index -1 out of range"},
		{"index 2^32-1", plyFile(le, strings.Replace(triHeader, "uchar int", "uchar uint", 1), triRows(list("uchar", "uint", math.MaxUint32, 1, 2))...),
			0, hdr(le, strings.Replace(triHeader, "uchar int", "uchar uint", 1)) + 37 + 4*0, "vertex index 4294967295 out of range"},
		{"int count 0", plyFile(le, intCount, triRows(list("int", "int"))...), 0, hdr(le, intCount) + 36, "face 0 has 0 vertices"},
		{"huge polygon", plyFile(le, intCount, triRows(row(c("int", maxPolygon+1)))...), 0, hdr(le, intCount) + 36, "more than the limit 1048576"},
		{"largest polygon truncated", plyFile(be, intCount, triRows(row(c("int", maxPolygon), c("int", 2), c("int", 1)))...),
			0, hdr(be, intCount) + 36 + 12, "after 0 of 1 face"},
		{"largest polygon, bad index", plyFile(le, intCount, triRows(row(c("int", maxPolygon), c("int", 2), c("int", 1), c("int", 3)))...),
			0, hdr(le, intCount) + 36 + 12, "vertex index 3 out of range"},
		{"negative list count", plyFile(le, "element junk 1\nproperty list char int a\n", row(c("char", -1))), 0,
			hdr(le, "element junk 1\nproperty list char int a\n"), "negative list length -1"},
		{"truncated skipped element", plyFile(le, "element junk 5\nproperty double a\n", row(c("double", 1))), 0,
			hdr(le, "element junk 5\nproperty double a\n") + 8, "after 1 of 5 junk"},
		{"truncated skipped list", plyFile(le, "element junk 5\nproperty list uint double a\n", row(c("uint", 1e9))), 0,
			hdr(le, "element junk 5\nproperty list uint double a\n") + 4, "after 0 of 5 junk"},
		{"2e6 vertices declared, 12 bytes given", plyFile(le, strings.Replace(triHeader, "vertex 3", "vertex 2000000", 1),
			row(c("float", 0), c("float", 0), c("float", 0))), 0, hdr(le, strings.Replace(triHeader, "vertex 3", "vertex 2000000", 1)) + 12, "after 1 of 2000000"},

		// ASCII: lines.
		{"ascii no data", plyFile("ascii", triHeader), 9, 0, "after 0 of 3 vertex"},
		{"ascii bad float", []byte(strings.Replace(string(plyFile("ascii", triHeader, triRows(list("uchar", "int", 0, 1, 2))...)), "1 0 0", "1 0,5 0", 1)), 11, 0, `vertex 1: bad coordinate y "0,5"`},
		{"ascii nan", []byte(strings.Replace(string(plyFile("ascii", triHeader, triRows(list("uchar", "int", 0, 1, 2))...)), "1 0 0", "1 0 nan", 1)), 11, 0, "vertex 1: non-finite coordinate z"},
		{"ascii overflow", []byte(strings.Replace(string(plyFile("ascii", triHeader, triRows(list("uchar", "int", 0, 1, 2))...)), "1 0 0", "1e999 0 0", 1)), 11, 0, "bad coordinate x"},
		{"ascii bad count", plyFile("ascii", triHeader, triRows(row(c("float", 3.5)))...), 13, 0, `face 0: bad vertex count "3.5"`},
		{"ascii bad index", plyFile("ascii", triHeader, triRows(row(c("int", 3), c("int", 1), c("float", 0.5)))...), 13, 0, `bad vertex index "0.5"`},
		{"ascii face of 1", plyFile("ascii", triHeader, triRows(list("uchar", "int", 1))...), 13, 0, "face 0 has 1 vertices"},
		{"ascii face too big", plyFile("ascii", triHeader, triRows(row(c("int", maxPolygon+1)))...), 13, 0, "more than the limit"},
		{"ascii index out of range", []byte(string(plyFile("ascii", triHeader, triRows(row(c("int", 3), c("int", 0), c("int", 1)))...)) + "5\n"), 14, 0, "vertex index 5 out of range"},
		{"ascii truncated face", plyFile("ascii", triHeader, triRows(row(c("int", 3), c("int", 0), c("int", 1)))...), 13, 0, "after 0 of 1 face"},
		{"ascii extra data", []byte(string(plyFile("ascii", triHeader, triRows(list("uchar", "int", 0, 1, 2))...)) + "\n\n7\n"), 16, 0, `after the last element: "7"`},
		{"ascii negative list count", plyFile("ascii", "element junk 1\nproperty list char int a\n", row(c("char", -2))), 6, 0, "negative list length -2"},
		{"ascii long word", []byte(string(plyFile("ascii", triHeader)) + strings.Repeat("1", maxLine+1)), 10, 0, "word longer than"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m, err := decodeAll(t, tc.in)
			if err == nil {
				t.Fatalf("got a mesh with %d triangles, want an error", len(m.Tris))
			}
			checkFormatError(t, err, tc.line, tc.offset, tc.msg)
		})
	}
}

// TestDecodeHostileAllocation checks that huge declared counts do not
// allocate beyond the first, capped allocation.
func TestDecodeHostileAllocation(t *testing.T) {
	for _, in := range []string{
		"ply\nformat binary_little_endian 1.0\nelement vertex 268435456\nproperty double x\nproperty double y\nproperty double z\n" +
			"element face 268435456\nproperty list int int vertex_indices\nend_header\n",
		"ply\nformat binary_little_endian 1.0\nelement face 268435456\nproperty list int int vertex_indices\nend_header\n\xff\xff\x0f\x00",
		"ply\nformat ascii 1.0\nelement junk 2147483647\nproperty list int int vertex_indices\nend_header\n2000000000",
		"ply\nformat binary_big_endian 1.0\nelement junk 2147483647\nproperty list int double v\nend_header\n\x7f\xff\xff\xff",
	} {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, err := Decode(strings.NewReader(in))
		runtime.ReadMemStats(&after)
		checkIsFormatError(t, err)
		if n := after.TotalAlloc - before.TotalAlloc; n > 1<<20 {
			t.Errorf("Decode allocated %d bytes for a %d-byte input", n, len(in))
		}
	}
}

type errReader struct{}

func (errReader) Read([]byte) (int, error) { return 0, io.ErrClosedPipe }

func TestDecodeReadError(t *testing.T) {
	for _, enc := range encodings {
		data := pyramid(enc)
		for _, n := range []int{0, 10, len(data) - 3} {
			_, err := Decode(io.MultiReader(bytes.NewReader(data[:n]), errReader{}))
			if !errors.Is(err, io.ErrClosedPipe) {
				t.Errorf("%s, error after %d bytes: got %v", enc, n, err)
			}
		}
	}
}

func TestRegistered(t *testing.T) {
	f, ok := mesh.FormatFor("bunny.PLY")
	if !ok || f.Name != "ply" {
		t.Fatalf("FormatFor(bunny.PLY) = %v, %v", f.Name, ok)
	}
	m, err := mesh.LoadReader("p.ply", bytes.NewReader(pyramid("ascii")))
	if err != nil || len(m.Tris) != len(pyramidTris) {
		t.Fatalf("LoadReader: %v", err)
	}
}

func checkIsFormatError(t *testing.T, err error) {
	t.Helper()
	var fe *mesh.FormatError
	if !errors.As(err, &fe) {
		t.Fatalf("error %v (%T), want *mesh.FormatError", err, err)
	}
	if fe.Format != "ply" || fe.Line < 0 || fe.Offset < 0 || (fe.Line > 0 && fe.Offset != 0) {
		t.Fatalf("malformed FormatError %+v", fe)
	}
}

// TestDecodeWideRecords reads vertex records larger than the read buffer.
func TestDecodeWideRecords(t *testing.T) {
	var h strings.Builder
	h.WriteString("element vertex 3\n")
	for i := range 9000 {
		fmt.Fprintf(&h, "property double p%d\n", i)
		if i == 4000 {
			h.WriteString("property float x\nproperty float y\nproperty float z\n")
		}
	}
	h.WriteString("element face 1\nproperty uchar flags\nproperty list uchar int vertex_indices\nproperty short s\n")
	var rows [][]cell
	for _, v := range pyramidVerts[:3] {
		r := make([]cell, 0, 9003)
		for i := range 9000 {
			r = append(r, c("double", float64(i)))
			if i == 4000 {
				r = append(r, c("float", v.X), c("float", v.Y), c("float", v.Z))
			}
		}
		rows = append(rows, r)
	}
	rows = append(rows, row(c("uchar", 1), list("uchar", "int", 0, 1, 2), c("short", -1)))
	for _, enc := range encodings {
		m, err := decodeAll(t, plyFile(enc, h.String(), rows...))
		if err != nil {
			t.Fatal(err)
		}
		checkMesh(t, m, pyramidVerts[:3], [][3]int32{{0, 1, 2}})
		_, err = decodeAll(t, plyFile(enc, h.String(), rows[:3]...))
		checkIsFormatError(t, err)
		_, err = decodeAll(t, plyFile(enc, h.String(), append(rows[:3:3], row(c("uchar", 1), list("uchar", "int", 0, 1, 2)))...))
		checkIsFormatError(t, err)
	}
}

// TestDecodeSlowReaderMemory decodes many faces delivered a byte at a time
// and checks that the arrays grow with the data only.
func TestDecodeSlowReaderMemory(t *testing.T) {
	for _, enc := range encodings {
		data := benchPLY(enc, 20000)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		m, err := Decode(iotest.OneByteReader(bytes.NewReader(data)))
		runtime.ReadMemStats(&after)
		if err != nil {
			t.Fatal(err)
		}
		if n, limit := after.TotalAlloc-before.TotalAlloc, uint64(4<<20); n > limit {
			t.Errorf("%s: Decode allocated %d bytes for %d triangles, want at most %d", enc, n, len(m.Tris), limit)
		}
	}
}

// TestDecodeBigHeader parses headers with many properties and elements,
// which must take linear time.
func TestDecodeBigHeader(t *testing.T) {
	var h strings.Builder
	h.WriteString("ply\nformat binary_little_endian 1.0\nelement vertex 0\n")
	for i := range 100_000 {
		fmt.Fprintf(&h, "property uchar p%d\n", i)
	}
	for i := range 100_000 {
		fmt.Fprintf(&h, "element e%d 2147483647\n", i)
	}
	h.WriteString("end_header\n")
	m, err := Decode(strings.NewReader(h.String()))
	if err != nil {
		t.Fatal(err)
	}
	checkMesh(t, m, nil, nil)
}
