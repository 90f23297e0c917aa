package obj_test

import (
	"math"
	"strings"
	"testing"

	"github.com/collide3d/collide/internal/textscan/syntaxtest"
	"github.com/collide3d/collide/mesh"
	"github.com/collide3d/collide/mesh/obj"
)

// The cases every text codec's tests share.
var (
	lineEnds   = syntaxtest.LineEnds
	badFloats  = syntaxtest.BadFloats
	goodFloats = syntaxtest.GoodFloats
)

// decodeErr decodes in and checks that it fails with a *mesh.FormatError at
// line whose message contains msg.
func decodeErr(t *testing.T, in string, line int, msg string) {
	t.Helper()
	syntaxtest.DecodeError(t, func(in string) (*mesh.TriMesh, error) { return obj.Decode(strings.NewReader(in)) }, "obj", in, line, msg)
}

// TestDecodeNumberSyntax checks that coordinates must be decimal numbers and
// face indices decimal integers, with the right line in the error whatever
// the line ends.
func TestDecodeNumberSyntax(t *testing.T) {
	for _, eol := range lineEnds {
		file := func(lines ...string) string { return strings.Join(lines, eol) + eol }
		for _, x := range badFloats {
			decodeErr(t, file("# c", "v 0 0 0", "v 1 "+x+" 0", "v 0 1 0", "f 1 2 3"), 3, "malformed number")
			decodeErr(t, file("v 0 0 0 "+x, "v 1 0 0", "v 0 1 0", "f 1 2 3"), 1, "malformed number") // an ignored w
		}
		for _, x := range []string{"inf", "-Inf", "+infinity", "NaN", "nan"} {
			decodeErr(t, file("v 0 0 0", "", "v "+x+" 0 0"), 3, "non-finite")
		}
		decodeErr(t, file("v 0 0 0", "v 1e309 0 0"), 2, "out of float64 range")
		for _, x := range []string{"0x2", "0b10", "0o2", "0X2", "2_0", "1_0", "2.0", "2e0", "+0x2", "-0x1", "2.", "two", "٢"} {
			decodeErr(t, file("v 0 0 0", "v 1 0 0", "v 0 1 0", "f 1 "+x+" 3"), 4, "malformed face vertex")
			decodeErr(t, file("v 0 0 0", "v 1 0 0", "v 0 1 0", "f 1 "+x+"/1/1 3"), 4, "malformed face vertex")
		}
		for _, g := range goodFloats {
			m, err := obj.Decode(strings.NewReader(file("v 0 0 0", "v 1 "+g.S+" 0", "v 0 1 0", "f +1 2 -1")))
			if err != nil {
				t.Fatalf("%q: %v", g.S, err)
			}
			if y := m.Verts[1].Y; math.Float64bits(y) != math.Float64bits(g.F) {
				t.Errorf("%q read as %v, want %v", g.S, y, g.F)
			}
			if m.Tris[0] != (tri{0, 1, 2}) {
				t.Errorf("f +1 2 -1 read as %v", m.Tris[0])
			}
		}
	}
}

// TestDecodeLineEnds checks files with each kind of line end, old Mac
// files included: the same mesh, and errors on the same lines.
func TestDecodeLineEnds(t *testing.T) {
	good := []string{"# a square", "v 0 0 0", "v 1 0 0", "", "v 1 1 0", "v 0 1 0 \\", "", "f 1 2 \\", "3 4", "f 1 2 3"}
	bad := []struct {
		lines []string
		line  int
		msg   string
	}{
		{append(good[:len(good):len(good)], "f 1 2"), 11, "2 vertices"},
		{append(good[:len(good):len(good)], "", "# x", "f 1 2 9"), 13, "out of range"},
		{[]string{"f 1 2 3", "", "f 1 2 4", "v 0 0 0", "v 0 0 0", "v 0 0 0"}, 3, "index 4 out of range"},
		{[]string{"v 0 0 0", "v 1 \\", "2"}, 2, "2 coordinates"},
	}
	for _, eol := range lineEnds {
		m, err := obj.Decode(strings.NewReader(strings.Join(good, eol)))
		if err != nil {
			t.Fatalf("line end %q: %v", eol, err)
		}
		if len(m.Verts) != 4 || len(m.Tris) != 3 || m.Tris[1] != (tri{0, 2, 3}) {
			t.Errorf("line end %q: %v", eol, m)
		}
		for _, b := range bad {
			decodeErr(t, strings.Join(b.lines, eol)+eol, b.line, b.msg)
			decodeErr(t, strings.Join(b.lines, eol), b.line, b.msg)
		}
	}
}
