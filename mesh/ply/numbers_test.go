package ply

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/internal/textscan/syntaxtest"
	"github.com/collide3d/collide/mesh"
)

// The cases every text codec's tests share.
var (
	lineEnds   = syntaxtest.LineEnds
	badFloats  = syntaxtest.BadFloats
	badInts    = syntaxtest.BadInts
	goodFloats = syntaxtest.GoodFloats
)

// asciiTriLines are the lines of an ASCII PLY triangle with a skipped
// element; the body starts on line 14. %y is the y of vertex 1 (line 15),
// %c the face's vertex count and %i its second index (line 17), %n the
// vertex count (line 3), %v the version (line 2), %l a list length in the
// skipped element (line 18).
var asciiTriLines = []string{"ply", "format ascii %v", "element vertex %n", "property float x", "property float y",
	"property float z", "comment c", "element face 1", "property list uchar int vertex_indices",
	"element junk 1", "property list int float j", "", "end_header",
	"0 0 0", "1 %y 0", "0 1 0", "%c 0 %i 2", "%l 5 6"}

// asciiTri returns asciiTriLines joined by eol, with the values given as
// pairs of placeholder and text; the other placeholders read 1.0, 3, 3, 1
// and 2.
func asciiTri(eol string, subst ...string) []byte {
	s := strings.Join(asciiTriLines, eol) + eol
	s = strings.NewReplacer(subst...).Replace(s)
	s = strings.NewReplacer("%v", "1.0", "%n", "3", "%y", "0", "%c", "3", "%i", "1", "%l", "2").Replace(s)
	return []byte(s)
}

// TestDecodeNumberSyntax checks that ASCII coordinates must be decimal
// numbers and counts, versions and indices decimal, with the right line in
// the error whatever the line ends.
func TestDecodeNumberSyntax(t *testing.T) {
	for _, eol := range lineEnds {
		decode := func(subst ...string) (*mesh.TriMesh, error) {
			t.Helper()
			return decodeAll(t, asciiTri(eol, subst...))
		}
		for _, x := range badFloats {
			_, err := decode("%y", x)
			checkFormatError(t, err, 15, 0, "vertex 1: bad coordinate y "+quote([]byte(x))+": not a decimal number")
			_, err = decode("%v", x)
			checkFormatError(t, err, 2, 0, "unsupported version")
		}
		for _, x := range []string{"inf", "-Inf", "+infinity", "NaN", "nan"} {
			_, err := decode("%y", x)
			checkFormatError(t, err, 15, 0, "non-finite coordinate y")
		}
		_, err := decode("%y", "1e309")
		checkFormatError(t, err, 15, 0, "beyond the float64 range")
		for _, x := range badInts {
			_, err := decode("%n", x)
			checkFormatError(t, err, 3, 0, "bad element count")
			_, err = decode("%c", x)
			checkFormatError(t, err, 17, 0, "face 0: bad vertex count")
			_, err = decode("%i", x)
			checkFormatError(t, err, 17, 0, "face 0: bad vertex index")
			_, err = decode("%l", x)
			checkFormatError(t, err, 18, 0, "junk 0: bad list length for j")
		}
		for _, g := range goodFloats {
			m, err := decode("%y", g.S, "%c", "+3", "%i", "+01", "%n", "+3", "%v", "1")
			if err != nil {
				t.Fatalf("%q: %v", g.S, err)
			}
			if y := m.Verts[1].Y; math.Float64bits(y) != math.Float64bits(g.F) {
				t.Errorf("%q read as %v, want %v", g.S, y, g.F)
			}
			if len(m.Tris) != 1 || m.Tris[0] != [3]int32{0, 1, 2} {
				t.Errorf("face read as %v", m.Tris)
			}
		}
		for _, v := range []string{"1", "1.", "+1.0", "1e0", ".1e1", "1.000"} {
			if _, err := decode("%v", v); err != nil {
				t.Errorf("version %q: %v", v, err)
			}
		}
	}
}

// TestDecodeLineEnds checks files with each kind of line end, old Mac files
// included, in the header and in an ASCII body: the same mesh, and errors
// on the same lines; and binary bodies after each kind of line end.
func TestDecodeLineEnds(t *testing.T) {
	for _, eol := range lineEnds {
		for _, end := range []string{eol, ""} {
			in := bytes.TrimSuffix(asciiTri(eol), []byte(eol))
			in = append(in, end...)
			m, err := decodeAll(t, in)
			if err != nil {
				t.Fatalf("line end %q: %v", eol, err)
			}
			checkMesh(t, m, []geom.Vec3{v3(0, 0, 0), v3(1, 0, 0), v3(0, 1, 0)}, [][3]int32{{0, 1, 2}})

			bad := []struct {
				lines []string
				line  int
				msg   string
			}{
				{append(asciiTriLines[:17:17], "3 5 6"), 18, "unexpected end of data after 0 of 1 junk elements"},
				{append(asciiTriLines[:17:17], "", "1 5", "", "7"), 21, `after the last element: "7"`},
				{append(asciiTriLines[:16:16], "3 0 1 9"), 17, "vertex index 9 out of range"},
				{append(asciiTriLines[:15:15], "0 1"), 16, "after 2 of 3 vertex elements"},
				{asciiTriLines[:13], 13, "after 0 of 3 vertex elements"},
				{append(asciiTriLines[:6:6], "", "propertyy x"), 8, "unknown header keyword"},
				{asciiTriLines[:7], 7, "no end_header"},
			}
			for _, b := range bad {
				in := strings.Join(b.lines, eol) + end
				in = strings.NewReplacer("%v", "1.0", "%n", "3", "%y", "0", "%c", "3", "%i", "1", "%l", "2").Replace(in)
				_, err := decodeAll(t, []byte(in))
				checkFormatError(t, err, b.line, 0, b.msg)
			}
		}
		// A binary body starts right after the whole line end of
		// end_header (a body after a lone CR must not start with LF).
		for _, enc := range encodings[1:] {
			hdr := bytes.Index(pyramid(enc), []byte("end_header\n")) + len("end_header\n")
			data := append(bytes.ReplaceAll(pyramid(enc)[:hdr], []byte("\n"), []byte(eol)), pyramid(enc)[hdr:]...)
			m, err := decodeAll(t, data)
			if err != nil {
				t.Fatalf("%s, line end %q: %v", enc, eol, err)
			}
			checkMesh(t, m, pyramidVerts, pyramidTris)
		}
	}
}
