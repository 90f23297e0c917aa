// Package ply reads PLY (Stanford polygon file format) meshes, in the ASCII,
// binary little-endian and binary big-endian encodings.
//
// # What is read
//
// The header declares elements, each with a count and a list of properties
// of the types char/int8, uchar/uint8, short/int16, ushort/uint16, int/int32,
// uint/uint32, float/float32 and double/float64, or lists of them. Decode
// reads the x, y and z properties of the "vertex" element, of any numeric
// type, and the "vertex_indices" (or "vertex_index") list of the "face"
// element, with any integer count and item types. Every other property and
// element (normals, colours, edges, materials, ...) is skipped, in whatever
// order the elements come; faces may even precede the vertices, since indices
// are checked against the vertex count declared in the header. Lines (of the
// header and of an ASCII body) end at LF, CRLF or a lone CR (old Mac files);
// the CR CR LF of files converted to CRLF twice is one line end. A binary
// body starts right after the whole line end of end_header (so a body after
// a lone CR cannot start with the byte LF). "comment" and "obj_info" lines
// and blank lines in the header are ignored.
//
// Polygons are fan-triangulated in order: the face (p0 p1 p2 p3 ...) becomes
// the triangles (p0 p1 p2), (p0 p2 p3), ...
//
// # Rules
//
//   - A face must have at least 3 and at most 1<<20 vertices. A face with 0,
//     1 or 2 vertices is an error rather than skipped: it cannot be a
//     triangle, and silently dropping it could hide a contact.
//   - Indices must lie in [0, vertex count); a face may repeat a vertex (the
//     triangles are then degenerate, which is allowed).
//   - Coordinates must be finite. ASCII coordinates are parsed as float64
//     whatever their declared type, ASCII integers (list counts, indices) as
//     written, whatever their declared width. Binary values are converted
//     exactly to float64.
//   - ASCII numbers are decimal. A coordinate is an optional sign, digits
//     with an optional decimal point (at least one digit before or after
//     it), and an optional exponent "e" or "E" with an optional sign and
//     digits, such as 1, -1.5e-3, .5, 5. or +2E3, read correctly rounded to
//     float64 (a number too small for float64 reads as 0 or a subnormal).
//     Other spellings that Go's strconv would accept (1_0, 0x1p3), nan, inf
//     and numbers beyond the float64 range are errors. List counts,
//     indices and the element counts of the header are decimal integers,
//     digits with an optional sign; the version of the format line is a
//     decimal number equal to 1. Scalar properties that Decode skips are
//     not checked.
//   - An ASCII body is a sequence of white-space separated words (an element
//     need not sit on one line), and nothing but white space may follow the
//     last element. Bytes after the last element of a binary body are
//     ignored.
//   - Counts are limited: at most mesh.MaxVertices vertices, mesh.MaxTriangles
//     faces and triangles, and 1<<31-1 instances of any element.
//
// # Errors
//
// Malformed input yields a *mesh.FormatError with Format "ply": Line is set
// for errors in the header and in an ASCII body, Offset (in bytes) for
// errors in a binary body (the offset of the offending value, or where the
// data ended when it is truncated). Allocation is bounded by the data
// actually read: the arrays grow as the data arrives, by doubling (the
// vertices never beyond the declared count), so a hostile count costs
// nothing.
//
// Importing the package registers the format for the extension ".ply" with
// mesh.RegisterFormat.
package ply

import (
	"bytes"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/collide3d/collide/internal/textscan"
	"github.com/collide3d/collide/mesh"
)

func init() {
	mesh.RegisterFormat(mesh.Format{Name: "ply", Extensions: []string{".ply"}, Decode: Decode})
}

const (
	minGrow     = 1 << 10       // the smallest allocation of vertices or triangles
	maxPolygon  = 1 << 20       // vertices in one face
	maxElements = math.MaxInt32 // instances of one element
)

// scalar is a PLY value type.
type scalar uint8

const (
	tNone scalar = iota
	tInt8
	tUint8
	tInt16
	tUint16
	tInt32
	tUint32
	tFloat32
	tFloat64
)

var scalarNames = map[string]scalar{
	"char": tInt8, "int8": tInt8,
	"uchar": tUint8, "uint8": tUint8,
	"short": tInt16, "int16": tInt16,
	"ushort": tUint16, "uint16": tUint16,
	"int": tInt32, "int32": tInt32,
	"uint": tUint32, "uint32": tUint32,
	"float": tFloat32, "float32": tFloat32,
	"double": tFloat64, "float64": tFloat64,
}

var scalarSizes = [...]int{tNone: 0, tInt8: 1, tUint8: 1, tInt16: 2, tUint16: 2, tInt32: 4, tUint32: 4, tFloat32: 4, tFloat64: 8}

func (t scalar) size() int     { return scalarSizes[t] }
func (t scalar) isFloat() bool { return t == tFloat32 || t == tFloat64 }

func (t scalar) String() string {
	return [...]string{"none", "int8", "uint8", "int16", "uint16", "int32", "uint32", "float32", "float64"}[t]
}

// property is a declared property: a scalar (count == tNone) or a list.
type property struct {
	name  string
	typ   scalar // the value type, or the item type of a list
	count scalar // the count type of a list, or tNone
	line  int
}

func (p *property) isList() bool { return p.count != tNone }

// element is a declared element.
type element struct {
	name  string
	count int64
	props []property
	line  int
}

// encoding is the body format.
type encoding int

const (
	ascii encoding = iota + 1
	binaryLE
	binaryBE
)

// readHeader reads the header up to and including the end_header line.
func readHeader(rd *reader) (encoding, []element, error) {
	var (
		enc   encoding
		elems []element
		// The lines of the "vertex" and "face" elements, and of the
		// properties of the last element, by name.
		elemLines = map[string]int{}
		propLines = map[string]int{}
	)
	for n := 1; ; n++ {
		line, ok, tooLong := rd.readLine()
		if tooLong {
			return 0, nil, lineError(n, "header line longer than %d bytes", maxLine)
		}
		if !ok {
			if rd.err != io.EOF {
				return 0, nil, rd.err
			}
			if n == 1 {
				return 0, nil, lineError(1, "empty input, not a PLY file")
			}
			return 0, nil, lineError(n-1, "unexpected end of input in the header (no end_header)")
		}
		if n == 1 {
			if string(bytes.TrimRight(line, " \t")) != "ply" {
				return 0, nil, lineError(1, "not a PLY file: the first line is %s, want \"ply\"", quote(line))
			}
			continue
		}
		f := strings.Fields(string(line))
		if len(f) == 0 {
			continue
		}
		switch f[0] {
		case "comment", "obj_info":
		case "format":
			if enc != 0 {
				return 0, nil, lineError(n, "second format line")
			}
			if len(f) != 3 {
				return 0, nil, lineError(n, "want \"format ENCODING 1.0\"")
			}
			switch f[1] {
			case "ascii":
				enc = ascii
			case "binary_little_endian":
				enc = binaryLE
			case "binary_big_endian":
				enc = binaryBE
			default:
				return 0, nil, lineError(n, "unknown format %q (want ascii, binary_little_endian or binary_big_endian)", f[1])
			}
			if v, e := textscan.ParseFloat([]byte(f[2])); e != textscan.NumOK || v != 1 {
				return 0, nil, lineError(n, "unsupported version %q (want 1.0)", f[2])
			}
		case "element":
			if len(f) != 3 {
				return 0, nil, lineError(n, "want \"element NAME COUNT\"")
			}
			limit := int64(maxElements)
			switch f[1] {
			case "vertex":
				limit = mesh.MaxVertices
			case "face":
				limit = mesh.MaxTriangles
			}
			count, ok := textscan.ParseInt([]byte(f[2]), limit)
			if !ok || count < 0 {
				return 0, nil, lineError(n, "bad element count %q (want a decimal integer, at least 0)", f[2])
			}
			if count > limit {
				return 0, nil, lineError(n, "element %s: count %s exceeds the limit %d", f[1], textscan.Short([]byte(f[2])), limit)
			}
			if first, ok := elemLines[f[1]]; ok {
				return 0, nil, lineError(n, "second %q element (first on line %d)", f[1], first)
			}
			if f[1] == "vertex" || f[1] == "face" {
				elemLines[f[1]] = n
			}
			clear(propLines)
			elems = append(elems, element{name: f[1], count: count, line: n})
		case "property":
			if len(elems) == 0 {
				return 0, nil, lineError(n, "property before any element")
			}
			p := property{line: n}
			if len(f) >= 2 && f[1] == "list" {
				if len(f) != 5 {
					return 0, nil, lineError(n, "want \"property list COUNTTYPE ITEMTYPE NAME\"")
				}
				p.count, p.typ, p.name = scalarNames[f[2]], scalarNames[f[3]], f[4]
				if p.count == tNone {
					return 0, nil, lineError(n, "unknown list count type %q", f[2])
				}
				if p.count.isFloat() {
					return 0, nil, lineError(n, "list count type %s is not an integer type", f[2])
				}
				if p.typ == tNone {
					return 0, nil, lineError(n, "unknown list item type %q", f[3])
				}
			} else {
				if len(f) != 3 {
					return 0, nil, lineError(n, "want \"property TYPE NAME\"")
				}
				p.typ, p.name = scalarNames[f[1]], f[2]
				if p.typ == tNone {
					return 0, nil, lineError(n, "unknown property type %q", f[1])
				}
			}
			e := &elems[len(elems)-1]
			if first, ok := propLines[p.name]; ok {
				return 0, nil, lineError(n, "element %s: second property %q (first on line %d)", e.name, p.name, first)
			}
			propLines[p.name] = n
			e.props = append(e.props, p)
		case "end_header":
			if len(f) != 1 {
				return 0, nil, lineError(n, "unexpected words after end_header")
			}
			if enc == 0 {
				return 0, nil, lineError(n, "no format line in the header")
			}
			return enc, elems, nil
		default:
			return 0, nil, lineError(n, "unknown header keyword %s", quote([]byte(f[0])))
		}
	}
}

// quote renders input text for an error message, shortened if long.
func quote(w []byte) string {
	if len(w) > 40 {
		return strconv.Quote(string(w[:40])) + "..."
	}
	return strconv.Quote(string(w))
}

// layout is what Decode needs from the header: where x, y, z and the face
// indices are.
type layout struct {
	vertex     *element
	xyz        [3]int // property indices of x, y, z in vertex
	face       *element
	indices    int   // property index of the index list in face
	vertexLine int   // the header line of the vertex element
	nverts     int64 // declared vertex count
}

// findLayout locates the properties Decode reads and checks their types.
func findLayout(elems []element) (layout, error) {
	var l layout
	for i := range elems {
		e := &elems[i]
		switch e.name {
		case "vertex":
			l.vertex, l.nverts = e, e.count
			l.xyz = [3]int{-1, -1, -1}
			for j, p := range e.props {
				if k := strings.Index("xyz", p.name); len(p.name) == 1 && k >= 0 {
					if p.isList() {
						return l, lineError(p.line, "vertex property %s is a list", p.name)
					}
					l.xyz[k] = j
				}
			}
			for k, j := range l.xyz {
				if j < 0 && e.count > 0 {
					return l, lineError(e.line, "vertex element without property %c", "xyz"[k])
				}
			}
		case "face":
			l.face, l.indices = e, -1
			for j, p := range e.props {
				if p.name == "vertex_indices" || p.name == "vertex_index" {
					if !p.isList() {
						return l, lineError(p.line, "face property %s is not a list", p.name)
					}
					if p.typ.isFloat() {
						return l, lineError(p.line, "face property %s has item type %s, want an integer type", p.name, p.typ)
					}
					l.indices = j
					break
				}
			}
			if l.indices < 0 && e.count > 0 {
				return l, lineError(e.line, "face element without a vertex_indices list")
			}
		}
	}
	return l, nil
}

// Decode reads a PLY file from r and returns its vertices and its faces,
// fan-triangulated in order. See the package documentation for what is
// accepted. Errors in the data are of type *mesh.FormatError; errors from r
// are returned as they are.
func Decode(r io.Reader) (*mesh.TriMesh, error) {
	rd := newReader(r)
	enc, elems, err := readHeader(rd)
	if err != nil {
		return nil, err
	}
	l, err := findLayout(elems)
	if err != nil {
		return nil, err
	}
	d := &decoder{rd: rd, enc: enc, l: l, m: &mesh.TriMesh{}}
	for i := range elems {
		if err := d.element(&elems[i]); err != nil {
			return nil, err
		}
	}
	if enc == ascii {
		if w, ok, tooLong := rd.word(); ok {
			return nil, lineError(rd.Line, "unexpected data after the last element: %s", quote(w))
		} else if tooLong {
			return nil, lineError(rd.Line, "unexpected data after the last element: a word longer than %d bytes", maxLine)
		}
		if rd.err != io.EOF {
			return nil, rd.err
		}
	}
	return d.m, nil
}
