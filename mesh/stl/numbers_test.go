package stl

import (
	"math"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/collide3d/collide/internal/textscan/syntaxtest"
)

// The cases every text codec's tests share.
var (
	lineEnds   = syntaxtest.LineEnds
	badFloats  = syntaxtest.BadFloats
	goodFloats = syntaxtest.GoodFloats
)

// triLines are the lines of asciiTri, with %s for the y of the second
// vertex (line 5).
var triLines = []string{"solid tri", "  facet normal 0 0 1", "    outer loop", "      vertex 0 0 0",
	"      vertex 1 %s 0", "      vertex 0 1 0", "    endloop", "  endfacet", "endsolid tri"}

// triFile returns triLines joined by eol, with y as the y of the second
// vertex.
func triFile(eol, y string) []byte {
	return []byte(strings.Replace(strings.Join(triLines, eol)+eol, "%s", y, 1))
}

// TestDecodeNumberSyntax checks that ASCII coordinates must be decimal
// numbers, with the right line in the error whatever the line ends.
func TestDecodeNumberSyntax(t *testing.T) {
	for _, eol := range lineEnds {
		for _, x := range badFloats {
			_, err := Decode(strings.NewReader(string(triFile(eol, x))))
			checkFormatError(t, err, 5, 0, "bad vertex coordinate "+quote([]byte(x))+": not a decimal number")
		}
		for _, x := range []string{"inf", "-Inf", "+infinity", "NaN", "nan"} {
			_, err := Decode(strings.NewReader(string(triFile(eol, x))))
			checkFormatError(t, err, 5, 0, "non-finite vertex coordinate")
		}
		_, err := Decode(strings.NewReader(string(triFile(eol, "-1e309"))))
		checkFormatError(t, err, 5, 0, "beyond the float64 range")
		for _, g := range goodFloats {
			m, err := Decode(strings.NewReader(string(triFile(eol, g.S))))
			if err != nil {
				t.Fatalf("%q: %v", g.S, err)
			}
			if y := m.Verts[1].Y; math.Float64bits(y) != math.Float64bits(g.F) {
				t.Errorf("%q read as %v, want %v", g.S, y, g.F)
			}
		}
	}
	// The normal is not parsed.
	if _, err := Decode(strings.NewReader(strings.Replace(asciiTri, "normal 0 0 1", "normal 0x1p3 1_0 nan", 1))); err != nil {
		t.Errorf("normal: %v", err)
	}
}

// TestDecodeLineEnds checks ASCII files with each kind of line end, old
// Mac files included: the same mesh, and errors on the same lines.
func TestDecodeLineEnds(t *testing.T) {
	bad := []struct {
		lines []string
		line  int
		msg   string
	}{
		{append(triLines[:8:8], "", "banana"), 10, `found "banana"`},
		{append(triLines[:9:9], "", "solid x", "facet", "outer loop", "vertex 1 2 0x1", "endloop"), 14, `bad vertex coordinate "0x1"`},
		{append(triLines[:9:9], "", "solid x", "facet", "outer loop", "vertex 1 2 3", "vertex 1 2"), 15, "want a vertex coordinate"},
		{triLines[:6], 6, "unexpected end of input"},
		{[]string{"solid ", "", "endsolid", "", "x"}, 5, `found "x"`},
		{[]string{"solid x", "facet normal 0 0 1", "outer loop", "vertex 1 2 3", "endloop"}, 5, "facet with 1 vertices"},
	}
	for _, eol := range lineEnds {
		in := string(triFile(eol, "0"))
		m, err := Decode(strings.NewReader(in))
		if err != nil {
			t.Fatalf("line end %q: %v", eol, err)
		}
		checkMesh(t, m, unitMesh)
		if m, err = Decode(iotest.OneByteReader(strings.NewReader(in))); err != nil {
			t.Fatalf("line end %q, one byte at a time: %v", eol, err)
		}
		checkMesh(t, m, unitMesh)
		for _, b := range bad {
			for _, end := range []string{eol, ""} {
				in := strings.Replace(strings.Join(b.lines, eol), "%s", "0", 1) + end
				_, err := Decode(strings.NewReader(in))
				checkFormatError(t, err, b.line, 0, b.msg)
				_, err = Decode(iotest.OneByteReader(strings.NewReader(in)))
				checkFormatError(t, err, b.line, 0, b.msg)
			}
		}
	}
}
