// Package stl reads and writes STL (stereolithography) triangle meshes, in the
// ASCII and the binary form.
//
// # ASCII or binary
//
// Decode tells the two forms apart by content, not by the first bytes alone:
// many binary files begin their 80-byte header with "solid". The input is
// read as ASCII if and only if all of these hold for its first 512 bytes (or
// all of it, if shorter):
//
//   - after optional white space it starts with the keyword "solid" (any case)
//     followed by white space or the end of the input;
//   - it holds no control byte other than white space (no byte 0x00-0x08,
//     0x0E-0x1F or 0x7F);
//   - the first word after the "solid" line is "facet" or "endsolid" (any
//     case), or cannot be seen within those bytes.
//
// Everything else is read as binary. The rule cannot misread a binary file
// that Decode accepts: such a file has at most mesh.MaxVertices/3 facets
// (see below), fewer than 0x06000000, so the high byte of its facet count,
// at offset 83, is a control byte 0x00-0x05 and fails the second test.
// Conversely, text read as binary whose byte 83 is white space or printable
// declares at least 0x09000000 facets, which is refused: a misdetection ends
// in an error, not in a wrong mesh.
//
// # Vertices
//
// STL stores every facet with its own three vertices, which repeats each
// vertex of a closed mesh about six times. Decode welds them: vertices that
// are bit-identical (after a binary float32 widens to float64; -0 and +0 are
// different bits and stay apart, so that Encode writes them back as they
// were) get one index, and Verts lists the distinct vertices in the order of
// their first appearance. Triangle i of the result is still facet i of the
// file, its vertices in the facet's order; only the vertex numbering is not
// 3i, 3i+1, 3i+2. Welding costs a hash lookup per vertex (about 0.15 µs a
// facet) and saves two thirds of the vertex memory. Decode refuses files with
// more than mesh.MaxVertices/3 facets (so the mesh stays within
// mesh.MaxVertices whatever the welding finds).
// Facet normals and the binary attribute word are ignored. Binary float32
// coordinates widen exactly to float64. NaN and infinite coordinates are
// errors.
//
// # ASCII syntax
//
// ASCII STL is a sequence of words separated by white space; keywords are
// matched in any case. Vertex coordinates are decimal numbers: an optional
// sign, digits with an optional decimal point (at least one digit before or
// after it), and an optional exponent "e" or "E" with an optional sign and
// digits, such as 1, -1.5e-3, .5, 5. or +2E3, read correctly rounded to
// float64 (a number too small for float64 reads as 0 or a subnormal). Other
// spellings that Go's strconv would accept (1_0, 0x1p3), nan, inf and
// numbers beyond the float64 range are errors. The words of a facet normal
// are not parsed: some writers put "nan" there. Lines, which error messages
// count, end at LF, CRLF or a lone CR (old Mac files); the CR CR LF of files
// converted to CRLF twice is one line end.
//
// # Errors
//
// Malformed input yields a *mesh.FormatError with Format "stl": Line is set
// for ASCII input, Offset (in bytes) for binary input. A binary file whose
// data ends before its declared number of facets is an error at the offset
// where the data ended. Bytes after the declared facets of a binary file are
// ignored (many writers pad their files); the ASCII form accepts several
// solids in a row and nothing else after the last "endsolid".
//
// Allocation is bounded by the data actually read: the arrays grow as facets
// arrive, by doubling but never beyond the declared count, so a hostile
// count costs nothing (the first allocation is for the first 64 KiB of
// facets read).
//
// Importing the package registers the format for the extension ".stl" with
// mesh.RegisterFormat.
package stl

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"

	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/internal/textscan"
	"github.com/collide3d/collide/mesh"
)

func init() {
	mesh.RegisterFormat(mesh.Format{Name: "stl", Extensions: []string{".stl"}, Decode: Decode})
}

const (
	headerSize = 80
	facetSize  = 50
	// maxFacets is the largest facet count Decode accepts: every facet may
	// have three vertices of its own.
	maxFacets = min(mesh.MaxTriangles, mesh.MaxVertices/3)
	// sniffSize is how many leading bytes decide between ASCII and binary.
	sniffSize = 512
	// chunkFacets is how many binary facets are read at a time (about 64 KiB).
	chunkFacets = 1311
)

// Decode reads an ASCII or binary STL file from r and returns its triangles
// in file order, over welded vertices (see the package documentation). See the package
// documentation for how the form is detected and what is accepted. Errors
// in the data are of type *mesh.FormatError; errors from r are returned as
// they are.
func Decode(r io.Reader) (*mesh.TriMesh, error) {
	br := bufio.NewReaderSize(r, sniffSize)
	head, err := br.Peek(sniffSize)
	if err != nil && err != io.EOF && !errors.Is(err, bufio.ErrBufferFull) {
		return nil, err
	}
	if isASCII(head) {
		s := &scanner{r: br, buf: make([]byte, 16<<10)}
		s.Line = 1
		return decodeASCII(s)
	}
	return decodeBinary(br)
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

// isASCII applies the detection rule of the package documentation to the
// leading bytes p of the input.
func isASCII(p []byte) bool {
	for _, c := range p {
		if (c < 0x20 && !isSpace(c)) || c == 0x7f {
			return false
		}
	}
	i := 0
	for i < len(p) && isSpace(p[i]) {
		i++
	}
	if len(p)-i < 5 || !textscan.EqualFold(p[i:i+5], "solid") {
		return false
	}
	i += 5
	if i < len(p) && !isSpace(p[i]) {
		return false
	}
	// Skip the rest of the "solid" line: the name is free text.
	for i < len(p) && p[i] != '\n' && p[i] != '\r' {
		i++
	}
	for i < len(p) && isSpace(p[i]) {
		i++
	}
	j := i
	for j < len(p) && !isSpace(p[j]) {
		j++
	}
	if j == len(p) {
		return true // the word is cut off (or absent): cannot tell, keep ASCII
	}
	return textscan.EqualFold(p[i:j], "facet") || textscan.EqualFold(p[i:j], "endsolid")
}

func binaryError(off int64, format string, args ...any) error {
	return &mesh.FormatError{Format: "stl", Offset: off, Msg: fmt.Sprintf(format, args...)}
}

func lineError(line int, format string, args ...any) error {
	return &mesh.FormatError{Format: "stl", Line: line, Msg: fmt.Sprintf(format, args...)}
}

// decodeBinary reads a binary STL: an 80-byte header, a little-endian uint32
// facet count, then per facet 12 float32 (normal, three vertices) and a
// uint16 attribute word.
func decodeBinary(r io.Reader) (*mesh.TriMesh, error) {
	var hdr [headerSize + 4]byte
	if n, err := io.ReadFull(r, hdr[:]); err != nil {
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			return nil, binaryError(int64(n), "truncated binary header: %d bytes, want %d", n, len(hdr))
		}
		return nil, err
	}
	count := int64(binary.LittleEndian.Uint32(hdr[headerSize:]))
	if count > maxFacets {
		msg := ""
		if textscan.EqualFold(hdr[:5], "solid") {
			msg = " (the file starts with \"solid\": malformed ASCII STL?)"
		}
		return nil, binaryError(headerSize, "binary STL declares %d facets, more than the limit %d%s", count, maxFacets, msg)
	}
	w := &welder{m: &mesh.TriMesh{}}
	buf := make([]byte, min(count, chunkFacets)*facetSize)
	for done := int64(0); done < count; {
		k := int(min(count-done, chunkFacets))
		n, err := io.ReadFull(r, buf[:k*facetSize])
		if err != nil {
			if err == io.EOF || err == io.ErrUnexpectedEOF {
				// Report a bad facet before the end, as a streaming
				// reader would.
				if err := appendFacets(w, buf[:n/facetSize*facetSize], done); err != nil {
					return nil, err
				}
				end := headerSize + 4 + done*facetSize + int64(n)
				return nil, binaryError(end, "truncated: data ends after %d of %d facets", done+int64(n/facetSize), count)
			}
			return nil, err
		}
		if m := w.m; cap(m.Tris)-len(m.Tris) < k {
			// Double the triangles, but never beyond the declared
			// count: at most twice what has actually arrived. The
			// vertices, fewer once welded, grow as they arrive.
			n := min(max(2*cap(m.Tris), len(m.Tris)+k), int(count))
			m.Tris = slices.Grow(m.Tris, n-len(m.Tris))
		}
		if err := appendFacets(w, buf[:k*facetSize], done); err != nil {
			return nil, err
		}
		done += int64(k)
	}
	return w.done(), nil
}

// appendFacets decodes the whole facets in b, the first of which is facet
// number first of the file, and appends them to w's mesh.
func appendFacets(w *welder, b []byte, first int64) error {
	k := len(b) / facetSize
	for i := range k {
		f := b[i*facetSize+12 : i*facetSize+48]
		var bits [9]uint32
		bad := false
		for j := range bits {
			u := binary.LittleEndian.Uint32(f[4*j:])
			bits[j] = u
			bad = bad || u&0x7f800000 == 0x7f800000
		}
		if bad {
			off := headerSize + 4 + (first+int64(i))*facetSize
			return binaryError(off, "facet %d: non-finite vertex coordinate", first+int64(i))
		}
		var t [3]geom.Vec3
		for j := range t {
			t[j] = geom.Vec3{
				X: float64(math.Float32frombits(bits[3*j])),
				Y: float64(math.Float32frombits(bits[3*j+1])),
				Z: float64(math.Float32frombits(bits[3*j+2])),
			}
		}
		w.facet(t)
	}
	return nil
}

// Encode writes m to w as a binary STL file: a fixed 80-byte header that does
// not start with "solid", the triangle count, then per triangle its unit
// normal (computed from the float64 vertices; zero for a degenerate
// triangle), its three vertices and a zero attribute word.
//
// The format stores float32, so Encode narrows every coordinate to the
// nearest float32: this is lossy unless the coordinates are already float32
// values (as those of a decoded binary STL are, so that Decode after Encode
// gives them back exactly). A coordinate that is not finite, or whose
// magnitude overflows float32, and a vertex index out of range are errors,
// reported before anything is written for that triangle.
func Encode(w io.Writer, m *mesh.TriMesh) error {
	if int64(len(m.Tris)) > math.MaxUint32 {
		return fmt.Errorf("stl: %d triangles do not fit a binary STL", len(m.Tris))
	}
	buf := make([]byte, 0, chunkFacets*facetSize)
	var hdr [headerSize]byte
	copy(hdr[:], "binary STL written by github.com/collide3d/collide")
	buf = append(buf, hdr[:]...)
	buf = binary.LittleEndian.AppendUint32(buf, uint32(len(m.Tris)))
	nv := len(m.Verts)
	for i, t := range m.Tris {
		for _, j := range t {
			if j < 0 || int(j) >= nv {
				return fmt.Errorf("stl: triangle %d: vertex index %d out of range [0, %d)", i, j, nv)
			}
		}
		tri := m.Triangle(i)
		for _, v := range tri {
			for _, c := range [3]float64{v.X, v.Y, v.Z} {
				if f := float32(c); math.IsInf(float64(f), 0) || math.IsNaN(float64(f)) {
					return fmt.Errorf("stl: triangle %d: coordinate %g is not a finite float32", i, c)
				}
			}
		}
		n := tri.Normal().Unit()
		for _, v := range [4]geom.Vec3{n, tri[0], tri[1], tri[2]} {
			buf = binary.LittleEndian.AppendUint32(buf, math.Float32bits(float32(v.X)))
			buf = binary.LittleEndian.AppendUint32(buf, math.Float32bits(float32(v.Y)))
			buf = binary.LittleEndian.AppendUint32(buf, math.Float32bits(float32(v.Z)))
		}
		buf = append(buf, 0, 0)
		if len(buf) > cap(buf)-facetSize {
			if _, err := w.Write(buf); err != nil {
				return err
			}
			buf = buf[:0]
		}
	}
	_, err := w.Write(buf)
	return err
}
