// Package off reads Object File Format (OFF) meshes, as written by Geomview,
// CGAL and many mesh tools.
//
// # Supported
//
// Decode reads ASCII OFF:
//
//   - The header keyword OFF, optionally with the Geomview prefixes
//     [ST][C][N] (COFF, NOFF, CNOFF, STOFF, STCNOFF, ...), whose extra vertex
//     fields (texture coordinates, colors, normals) are skipped; nOFF with a
//     dimension of 3. The keyword may be omitted, as CGAL allows: a file that
//     starts with its counts is read as OFF.
//   - The counts "nv nf [ne]" on the header line or on a line of their own;
//     the edge count is optional and ignored.
//   - nv vertex lines "x y z ...", one vertex a line: the first three fields
//     are the coordinates, the rest (colors, normals) is skipped.
//   - nf face lines "n i0 i1 ... i(n-1) ...": n 0-based vertex indices, then
//     optional color fields, which are skipped. Polygons of more than three
//     vertices are fan-triangulated in order (p0 p1 p2, p0 p2 p3, ...).
//   - '#' comments anywhere (to the end of the line), blank lines, LF, CRLF
//     and lone CR (old Mac) line ends and the CR CR LF of files converted to
//     CRLF twice, a UTF-8 byte order mark. Anything after the last face is
//     ignored.
//
// Binary OFF ("OFF BINARY"), 4OFF (homogeneous coordinates) and nOFF of a
// dimension other than 3 are rejected with a clear error.
//
// # Numbers
//
// Coordinates are decimal numbers: an optional sign, digits with an
// optional decimal point (at least one digit before or after it), and an
// optional exponent "e" or "E" with an optional sign and digits, such as
// 1, -1.5e-3, .5, 5. or +2E3. They are read correctly rounded to float64.
// Other spellings that Go's strconv would accept (1_0, 0x1p3) are errors.
// Counts, face vertex counts, indices and the nOFF dimension are decimal
// integers: digits with an optional sign (a negative value is an error).
// The skipped fields (colors, normals, texture coordinates) are not checked.
//
// # Errors
//
// Decode returns a *mesh.FormatError with Format "off" and the 1-based line of
// the problem for: a missing or unknown header, malformed counts, counts
// beyond mesh.MaxVertices or mesh.MaxTriangles, a malformed (not decimal) or
// non-finite coordinate (nan, inf, infinity, or beyond the float64 range such
// as 1e400; a number too small for float64 reads as 0 or a subnormal), a vertex
// with fewer than three coordinates, a face with fewer than three vertices or
// more than 1<<20, fewer indices on a face line than it declares, an index out
// of range, a line longer than 1 MiB, and a file that ends before all the
// declared vertices and faces (the error names its last line). The declared
// counts are not trusted for allocation: at most 1<<16 vertices and faces are
// reserved up front, and the mesh grows only with the data actually read.
package off

import (
	"bytes"
	"fmt"
	"io"

	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/internal/textscan"
	"github.com/collide3d/collide/mesh"
)

const (
	// maxFaceVerts caps the number of vertices of one face.
	maxFaceVerts = 1 << 20
	// maxPrealloc caps the capacity reserved from the declared counts.
	maxPrealloc = 1 << 16
)

func init() {
	mesh.RegisterFormat(mesh.Format{Name: "off", Extensions: []string{".off"}, Decode: Decode})
}

type decoder struct {
	lr   *textscan.LineReader
	m    mesh.TriMesh
	line int // line being decoded
}

// Decode reads an ASCII OFF mesh from r. The vertices are kept in file order,
// referenced or not, and triangle i is the i-th triangle of the fan
// triangulation of the faces in file order. Errors in the data are of type
// *mesh.FormatError; errors from r are returned as they are.
func Decode(r io.Reader) (*mesh.TriMesh, error) {
	d := &decoder{lr: textscan.NewLineReader(r)}
	if err := d.decode(); err != nil {
		return nil, err
	}
	return &d.m, nil
}

func (d *decoder) errorf(format string, args ...any) error {
	return &mesh.FormatError{Format: "off", Line: d.line, Msg: fmt.Sprintf(format, args...)}
}

// nextData returns the next line that holds data, with any comment removed.
// At the end of the input it returns false and sets d.line to the last line
// (at least 1).
func (d *decoder) nextData() ([]byte, bool) {
	for {
		b, ok := d.lr.Next()
		if !ok {
			d.line = max(d.lr.Line, 1)
			return nil, false
		}
		if i := bytes.IndexByte(b, '#'); i >= 0 {
			b = b[:i]
		}
		if textscan.SkipSpace(b, 0) < len(b) {
			d.line = d.lr.Line
			return b, true
		}
	}
}

// eof returns the error for an input that ended while what was expected.
func (d *decoder) eof(what string, args ...any) error {
	if d.lr.Err == textscan.ErrLineTooLong {
		d.line = d.lr.Line + 1
		return d.errorf("line longer than %d bytes", textscan.MaxLine)
	}
	if d.lr.Err != nil {
		return d.lr.Err
	}
	return d.errorf("unexpected end of file: "+what, args...)
}

func (d *decoder) decode() error {
	b, ok := d.nextData()
	if !ok {
		return d.eof("no OFF header")
	}
	tok, i := textscan.Field(b, 0)
	rest := b // the rest of the header line: the counts, if any
	if len(tok) == 0 || tok[0]-'0' > 9 || bytes.HasSuffix(tok, []byte("OFF")) {
		ndim, err := d.keyword(tok)
		if err != nil {
			return err
		}
		rest = b[i:]
		if t, _ := textscan.Field(rest, 0); string(t) == "BINARY" {
			return d.errorf("binary OFF is not supported")
		}
		if ndim {
			if rest, err = d.dimension(rest); err != nil {
				return err
			}
		}
	}
	nv, nf, err := d.counts(rest)
	if err != nil {
		return err
	}
	return d.body(nv, nf)
}

// keyword checks the header keyword [ST][C][N][4][n]OFF and reports whether
// it is an nOFF keyword.
func (d *decoder) keyword(tok []byte) (ndim bool, err error) {
	p, ok := bytes.CutSuffix(tok, []byte("OFF"))
	if !ok {
		return false, d.errorf("missing OFF header (the file starts with %s)", textscan.Quote(tok))
	}
	p, _ = bytes.CutPrefix(p, []byte("ST"))
	p, _ = bytes.CutPrefix(p, []byte("C"))
	p, _ = bytes.CutPrefix(p, []byte("N"))
	p, four := bytes.CutPrefix(p, []byte("4"))
	p, ndim = bytes.CutPrefix(p, []byte("n"))
	switch {
	case len(p) != 0:
		return false, d.errorf("unknown header keyword %s", textscan.Quote(tok))
	case four:
		return false, d.errorf("%s (homogeneous 4D coordinates) is not supported", textscan.Quote(tok))
	}
	return ndim, nil
}

// dimension reads the dimension of an nOFF file, from rest or from the next
// line, and returns what follows it on its line.
func (d *decoder) dimension(rest []byte) ([]byte, error) {
	tok, i := textscan.Field(rest, 0)
	if len(tok) == 0 {
		b, ok := d.nextData()
		if !ok {
			return nil, d.eof("no nOFF dimension")
		}
		rest = b
		tok, i = textscan.Field(rest, 0)
	}
	dim, ok := textscan.ParseInt(tok, 1000)
	if !ok {
		return nil, d.errorf("malformed nOFF dimension %s", textscan.Quote(tok))
	}
	if dim != 3 {
		return nil, d.errorf("nOFF dimension %s is not supported (only 3)", textscan.Short(tok))
	}
	return rest[i:], nil
}

// counts reads "nv nf [ne]" from rest or, if rest is blank, from the next
// data line.
func (d *decoder) counts(rest []byte) (nv, nf int, err error) {
	if textscan.SkipSpace(rest, 0) == len(rest) {
		b, ok := d.nextData()
		if !ok {
			return 0, 0, d.eof("no vertex and face counts")
		}
		rest = b
	}
	var c [3]int64
	limits := [3]int64{mesh.MaxVertices, mesh.MaxTriangles, 1 << 40} // the edge count is ignored
	names := [3]string{"vertex", "face", "edge"}
	i, n := 0, 0
	for ; ; n++ {
		var tok []byte
		tok, i = textscan.Field(rest, i)
		if len(tok) == 0 {
			break
		}
		if n == 3 {
			return 0, 0, d.errorf("unexpected %s after the vertex, face and edge counts", textscan.Quote(tok))
		}
		x, ok := textscan.ParseInt(tok, limits[n])
		if !ok {
			return 0, 0, d.errorf("malformed %s count %s", names[n], textscan.Quote(tok))
		}
		if x < 0 {
			return 0, 0, d.errorf("negative %s count %s", names[n], textscan.Short(tok))
		}
		if x > limits[n] && n < 2 {
			return 0, 0, d.errorf("%s count %s exceeds the limit of %d", names[n], textscan.Short(tok), limits[n])
		}
		c[n] = x
	}
	if n < 2 {
		return 0, 0, d.errorf("expected vertex and face counts, got %d number(s)", n)
	}
	return int(c[0]), int(c[1]), nil
}

// body reads nv vertex lines and nf face lines.
func (d *decoder) body(nv, nf int) error {
	d.m.Verts = make([]geom.Vec3, 0, min(nv, maxPrealloc))
	d.m.Tris = make([][3]int32, 0, min(nf, maxPrealloc))
	for k := 0; k < nv; k++ {
		b, ok := d.nextData()
		if !ok {
			return d.eof("%d of %d vertices read", k, nv)
		}
		if err := d.vertex(b); err != nil {
			return err
		}
	}
	for k := 0; k < nf; k++ {
		b, ok := d.nextData()
		if !ok {
			return d.eof("%d of %d faces read", k, nf)
		}
		if err := d.face(b); err != nil {
			return err
		}
	}
	return nil
}

// vertex decodes a vertex line: three coordinates, then fields it skips.
func (d *decoder) vertex(b []byte) error {
	var c [3]float64
	i := 0
	for k := range c {
		var tok []byte
		tok, i = textscan.Field(b, i)
		if len(tok) == 0 {
			return d.errorf("vertex has %d coordinates, need 3", k)
		}
		f, e := textscan.ParseFloat(tok)
		if e != textscan.NumOK {
			return d.numError(tok, e)
		}
		c[k] = f
	}
	d.m.Verts = append(d.m.Verts, geom.Vec3{X: c[0], Y: c[1], Z: c[2]})
	return nil
}

func (d *decoder) numError(tok []byte, e textscan.NumError) error {
	return d.errorf("%s", e.Describe(tok))
}

// face decodes a face line "n i0 ... i(n-1) [color]" and appends its fan
// triangulation.
func (d *decoder) face(b []byte) error {
	tok, i := textscan.Field(b, 0)
	n, ok := textscan.ParseInt(tok, maxFaceVerts)
	if !ok {
		return d.errorf("malformed face vertex count %s", textscan.Quote(tok))
	}
	if n < 3 {
		return d.errorf("face has %d vertices, need at least 3", n)
	}
	if n > maxFaceVerts {
		return d.errorf("face has more than %d vertices", maxFaceVerts)
	}
	if len(d.m.Tris)+int(n-2) > mesh.MaxTriangles {
		return d.errorf("more than %d triangles", mesh.MaxTriangles)
	}
	nv := int64(len(d.m.Verts))
	var fan mesh.Fan
	for k := int64(0); k < n; k++ {
		tok, i = textscan.Field(b, i)
		if len(tok) == 0 {
			return d.errorf("face declares %d vertices but lists %d", n, k)
		}
		x, ok := textscan.ParseInt(tok, mesh.MaxVertices)
		if !ok {
			return d.errorf("malformed face vertex index %s", textscan.Quote(tok))
		}
		if x < 0 || x >= nv {
			return d.errorf("face vertex index %s out of range (%d vertices)", textscan.Short(tok), nv)
		}
		d.m.Tris = fan.Add(d.m.Tris, int32(x))
	}
	return nil
}
