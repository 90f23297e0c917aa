package off_test

import (
	"math"
	"strings"
	"testing"

	"github.com/collide3d/collide/internal/textscan/syntaxtest"
	"github.com/collide3d/collide/mesh"
	"github.com/collide3d/collide/mesh/off"
)

// The cases every text codec's tests share.
var (
	lineEnds   = syntaxtest.LineEnds
	badFloats  = syntaxtest.BadFloats
	badInts    = syntaxtest.BadInts
	goodFloats = syntaxtest.GoodFloats
)

// decodeErr decodes in and checks that it fails with a *mesh.FormatError at
// line whose message contains msg.
func decodeErr(t *testing.T, in string, line int, msg string) {
	t.Helper()
	syntaxtest.DecodeError(t, func(in string) (*mesh.TriMesh, error) { return off.Decode(strings.NewReader(in)) }, "off", in, line, msg)
}

// TestDecodeNumberSyntax checks that coordinates must be decimal numbers
// and counts and indices decimal integers, with the right line in the
// error whatever the line ends.
func TestDecodeNumberSyntax(t *testing.T) {
	for _, eol := range lineEnds {
		file := func(lines ...string) string { return strings.Join(lines, eol) + eol }
		for _, x := range badFloats {
			decodeErr(t, file("OFF", "# c", "3 1 0", "0 0 0", "1 "+x+" 0", "0 1 0", "3 0 1 2"), 5, "malformed number")
		}
		for _, x := range []string{"inf", "-Inf", "+infinity", "NaN", "nan"} {
			decodeErr(t, file("OFF", "3 1 0", "0 0 0", "", "0 "+x+" 0"), 5, "non-finite")
		}
		decodeErr(t, file("OFF", "3 1 0", "0 0 0", "-1e309 0 0"), 4, "out of float64 range")
		for _, x := range badInts {
			decodeErr(t, file("OFF", x+" 1 0"), 2, "malformed vertex count")
			decodeErr(t, file("OFF "+x+" 1 0"), 1, "malformed vertex count")
			decodeErr(t, file("OFF", "3 "+x+" 0"), 2, "malformed face count")
			decodeErr(t, file("OFF", "3 1 "+x), 2, "malformed edge count")
			decodeErr(t, file("nOFF", x, "3 1 0"), 2, "malformed nOFF dimension")
			decodeErr(t, file("OFF", "3 1 0", "0 0 0", "1 0 0", "0 1 0", x+" 0 1 2"), 6, "malformed face vertex count")
			decodeErr(t, file("OFF", "3 1 0", "0 0 0", "1 0 0", "0 1 0", "3 0 "+x+" 2"), 6, "malformed face vertex index")
		}
		for _, g := range goodFloats {
			m, err := off.Decode(strings.NewReader(file("OFF", "+3 +1 +0", "0 0 0", "1 "+g.S+" 0", "0 1 0", "+3 0 +1 2")))
			if err != nil {
				t.Fatalf("%q: %v", g.S, err)
			}
			if y := m.Verts[1].Y; math.Float64bits(y) != math.Float64bits(g.F) {
				t.Errorf("%q read as %v, want %v", g.S, y, g.F)
			}
			if len(m.Tris) != 1 || m.Tris[0] != (tri{0, 1, 2}) {
				t.Errorf("3 0 +1 2 read as %v", m.Tris)
			}
		}
	}
}

// TestDecodeLineEnds checks files with each kind of line end, old Mac
// files included: the same mesh, and errors on the same lines.
func TestDecodeLineEnds(t *testing.T) {
	good := []string{"# a square", "OFF", "", "4 2 0", "0 0 0", "1 0 0 # v1", "", "1 1 0", "0 1 0", "3 0 1 2", "3 0 2 3"}
	bad := []struct {
		lines []string
		line  int
		msg   string
	}{
		{append(good[:9:9], "3 0 1 2", "2 0 1"), 11, "2 vertices"},
		{append(good[:9:9], "", "# x", "3 0 1 4"), 12, "out of range"},
		{append(good[:9:9], "3 0 1 2"), 10, "1 of 2 faces read"},
		{[]string{"OFF", "4 1 0", "0 0 0", "1 0"}, 4, "2 coordinates"},
		{[]string{"nOFF", "", "4", "4 1 0"}, 3, "dimension 4"},
	}
	for _, eol := range lineEnds {
		m, err := off.Decode(strings.NewReader(strings.Join(good, eol)))
		if err != nil {
			t.Fatalf("line end %q: %v", eol, err)
		}
		if len(m.Verts) != 4 || len(m.Tris) != 2 || m.Tris[1] != (tri{0, 2, 3}) {
			t.Errorf("line end %q: %v", eol, m)
		}
		for _, b := range bad {
			decodeErr(t, strings.Join(b.lines, eol)+eol, b.line, b.msg)
			decodeErr(t, strings.Join(b.lines, eol), b.line, b.msg)
		}
	}
}
