// Package obj reads and writes Wavefront OBJ meshes.
//
// # Supported
//
// Decode reads the geometry of an OBJ file:
//
//   - "v x y z" vertices. Further numbers on the line (the optional weight w,
//     or the r g b colors some tools append) must be numbers and are ignored.
//   - "f" faces whose vertices have any of the forms v, v/vt, v//vn and
//     v/vt/vn; only v is used (vt and vn are not checked). Indices are 1-based;
//     a negative index -k refers to the k-th most recent vertex defined before
//     the face's line. A positive index may refer to a vertex defined later in
//     the file; it is checked once the whole file is read.
//   - Polygons of more than three vertices, fan-triangulated in order
//     (p0 p1 p2, p0 p2 p3, ...).
//   - A backslash at the end of a "v" or "f" line continues it on the next
//     line.
//   - LF, CRLF and lone CR (old Mac) line ends, and the CR CR LF of files
//     converted to CRLF twice; a UTF-8 byte order mark; '#' comments, at the
//     start of a line or after a statement; blank lines.
//
// Every other statement (vt, vn, vp, o, g, s, usemtl, mtllib, l, p, curves
// and surfaces, and unknown keywords) is skipped without being checked.
//
// # Numbers
//
// Coordinates are decimal numbers: an optional sign, digits with an
// optional decimal point (at least one digit before or after it), and an
// optional exponent "e" or "E" with an optional sign and digits, such as
// 1, -1.5e-3, .5, 5. or +2E3. They are read correctly rounded to float64.
// Other spellings that Go's strconv would accept (1_0, 0x1p3) are errors.
// Face indices are decimal integers: digits, with an optional sign ("-" for
// indices relative to the last vertex); the "/vt/vn" parts are not checked.
//
// # Errors
//
// Decode returns a *mesh.FormatError with Format "obj" and the 1-based line of
// the problem for: a malformed number (one that is not decimal), a
// non-finite one (nan, inf, infinity, or beyond the float64 range such as
// 1e400; a number too small for float64 reads as 0 or a subnormal), a vertex
// with fewer than three coordinates, a face with fewer than three vertices or
// more than 1<<20, an index that is zero, malformed or out of range, a line
// longer than 1 MiB, and more than mesh.MaxVertices vertices or
// mesh.MaxTriangles triangles. No allocation depends on anything but the data
// actually read.
//
// Encode writes a mesh as "v" and "f" lines that Decode reads back exactly.
package obj

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strconv"

	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/internal/textscan"
	"github.com/collide3d/collide/mesh"
)

// maxFaceVerts caps the number of vertices of one face.
const maxFaceVerts = 1 << 20

func init() {
	mesh.RegisterFormat(mesh.Format{Name: "obj", Extensions: []string{".obj"}, Decode: Decode})
}

// forwardRef records a positive face index that referred past the vertices
// read so far. Only increasing indices are kept, so the list stays short and
// its first entry beyond the final vertex count is the first offending face.
type forwardRef struct {
	index int64 // 1-based index as written
	line  int
}

type decoder struct {
	lr   *textscan.LineReader
	m    mesh.TriMesh
	join []byte // assembles lines continued with a backslash
	fwd  []forwardRef
	line int // line of the statement being decoded
}

// Decode reads an OBJ mesh from r. The vertices are kept in file order,
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
	return &mesh.FormatError{Format: "obj", Line: d.line, Msg: fmt.Sprintf(format, args...)}
}

func (d *decoder) readErr() error {
	if d.lr.Err == textscan.ErrLineTooLong {
		return &mesh.FormatError{Format: "obj", Line: d.lr.Line + 1, Msg: fmt.Sprintf("line longer than %d bytes", textscan.MaxLine)}
	}
	return d.lr.Err
}

func (d *decoder) decode() error {
	for {
		b, ok := d.lr.Next()
		if !ok {
			break
		}
		d.line = d.lr.Line
		i := textscan.SkipSpace(b, 0)
		if i >= len(b) {
			continue
		}
		kw := b[i]
		if kw != 'v' && kw != 'f' || i+1 < len(b) && !textscan.IsSpace(b[i+1]) && b[i+1] != '#' {
			continue // vt, vn, fo, comments, other statements
		}
		b = b[i+1:]
		if n := lastNonSpace(b); n > 0 && b[n-1] == '\\' && bytes.IndexByte(b, '#') < 0 {
			var err error
			if b, err = d.continued(b[:n-1]); err != nil {
				return err
			}
		}
		var err error
		if kw == 'v' {
			err = d.vertex(b)
		} else {
			err = d.face(b)
		}
		if err != nil {
			return err
		}
	}
	if d.lr.Err != nil {
		return d.readErr()
	}
	nv := int64(len(d.m.Verts))
	for _, f := range d.fwd {
		if f.index > nv {
			d.line = f.line
			return d.errorf("face vertex index %d out of range (%d vertices in the file)", f.index, nv)
		}
	}
	return nil
}

// lastNonSpace returns the length of b without trailing spaces.
func lastNonSpace(b []byte) int {
	n := len(b)
	for n > 0 && textscan.IsSpace(b[n-1]) {
		n--
	}
	return n
}

// continued joins head with the following lines while they end with a
// backslash, and returns the logical line.
func (d *decoder) continued(head []byte) ([]byte, error) {
	d.join = append(append(d.join[:0], head...), ' ')
	for {
		b, ok := d.lr.Next()
		if !ok {
			if d.lr.Err != nil {
				return nil, d.readErr()
			}
			return d.join, nil // a continuation at EOF ends the statement
		}
		n := lastNonSpace(b)
		more := n > 0 && b[n-1] == '\\' && bytes.IndexByte(b, '#') < 0
		if more {
			b = b[:n-1]
		}
		if len(d.join)+len(b)+1 > textscan.MaxLine {
			return nil, d.errorf("continued line longer than %d bytes", textscan.MaxLine)
		}
		d.join = append(append(d.join, b...), ' ')
		if !more {
			return d.join, nil
		}
	}
}

// vertex decodes the fields after "v".
func (d *decoder) vertex(b []byte) error {
	var c [3]float64
	i := 0
	for k := 0; ; k++ {
		var tok []byte
		tok, i = textscan.Field(b, i)
		if len(tok) == 0 {
			if k < 3 {
				return d.errorf("vertex has %d coordinates, need 3", k)
			}
			break
		}
		f, e := textscan.ParseFloat(tok)
		if e != textscan.NumOK {
			return d.numError(tok, e)
		}
		if k < 3 {
			c[k] = f
		}
	}
	if len(d.m.Verts) >= mesh.MaxVertices {
		return d.errorf("more than %d vertices", mesh.MaxVertices)
	}
	d.m.Verts = append(d.m.Verts, geom.Vec3{X: c[0], Y: c[1], Z: c[2]})
	return nil
}

func (d *decoder) numError(tok []byte, e textscan.NumError) error {
	return d.errorf("%s", e.Describe(tok))
}

// face decodes the fields after "f" and appends their fan triangulation.
func (d *decoder) face(b []byte) error {
	nv := int64(len(d.m.Verts))
	var fan mesh.Fan
	i := 0
	for {
		var tok []byte
		tok, i = textscan.Field(b, i)
		if len(tok) == 0 {
			break
		}
		// The vertex index is the part before the first '/'.
		v := tok
		for j, c := range tok {
			if c == '/' {
				v = tok[:j]
				break
			}
		}
		neg := len(v) > 0 && v[0] == '-'
		digits := v
		if neg || len(v) > 0 && v[0] == '+' {
			digits = v[1:]
		}
		x, ok := textscan.ParseUint(digits, mesh.MaxVertices)
		if !ok {
			return d.errorf("malformed face vertex %s", textscan.Quote(tok))
		}
		if x == 0 {
			return d.errorf("face vertex index 0 (indices start at 1)")
		}
		var idx int64
		if neg {
			if x > nv {
				return d.errorf("face vertex index %s out of range (%d vertices so far)", textscan.Short(v), nv)
			}
			idx = nv - x
		} else {
			if x > mesh.MaxVertices {
				return d.errorf("face vertex index %s out of range (more than %d)", textscan.Short(v), mesh.MaxVertices)
			}
			if x > nv && (len(d.fwd) == 0 || x > d.fwd[len(d.fwd)-1].index) {
				d.fwd = append(d.fwd, forwardRef{x, d.line})
			}
			idx = x - 1
		}
		if fan.Len() >= 2 {
			if fan.Len() >= maxFaceVerts {
				return d.errorf("face has more than %d vertices", maxFaceVerts)
			}
			if len(d.m.Tris) >= mesh.MaxTriangles {
				return d.errorf("more than %d triangles", mesh.MaxTriangles)
			}
		}
		d.m.Tris = fan.Add(d.m.Tris, int32(idx))
	}
	if fan.Len() < 3 {
		return d.errorf("face has %d vertices, need at least 3", fan.Len())
	}
	return nil
}

// Encode writes m to w as OBJ: one "v x y z" line per vertex, with the
// shortest decimal form that reads back as the same float64, then one
// "f a b c" line per triangle with 1-based indices. It returns an error
// without writing anything if m does not pass m.Validate.
func Encode(w io.Writer, m *mesh.TriMesh) error {
	if err := m.Validate(); err != nil {
		return fmt.Errorf("obj: %w", err)
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	buf := make([]byte, 0, 128)
	for _, v := range m.Verts {
		buf = append(buf[:0], 'v', ' ')
		buf = strconv.AppendFloat(buf, v.X, 'g', -1, 64)
		buf = append(buf, ' ')
		buf = strconv.AppendFloat(buf, v.Y, 'g', -1, 64)
		buf = append(buf, ' ')
		buf = strconv.AppendFloat(buf, v.Z, 'g', -1, 64)
		buf = append(buf, '\n')
		bw.Write(buf) // errors are sticky; Flush reports them
	}
	for _, t := range m.Tris {
		buf = append(buf[:0], 'f', ' ')
		buf = strconv.AppendInt(buf, int64(t[0])+1, 10)
		buf = append(buf, ' ')
		buf = strconv.AppendInt(buf, int64(t[1])+1, 10)
		buf = append(buf, ' ')
		buf = strconv.AppendInt(buf, int64(t[2])+1, 10)
		buf = append(buf, '\n')
		bw.Write(buf)
	}
	return bw.Flush()
}
