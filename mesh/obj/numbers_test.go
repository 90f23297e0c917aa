package obj_test

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/collide3d/collide/mesh"
	"github.com/collide3d/collide/mesh/obj"
)

// lineEnds are the line ends Decode accepts: LF, CRLF, a lone CR (old Mac)
// and the CR CR LF of files converted to CRLF twice.
var lineEnds = []string{"\n", "\r\n", "\r", "\r\r\n"}

// badFloats are spellings that strconv.ParseFloat or Go literals accept but
// that are not decimal numbers.
var badFloats = []string{"1_0", "1_000.5", "0_1", "1.5_0", "1e1_0", "0x1p3", "+0x1p3", "-0x1.8p1", "0X1P-2",
	"0x10", "0b1", "0o7", "0B1", "0O7", ".", "-.", "+", "1e", "1e+", "--1", "+-1", "1.2.3", "1,5", "e3", "1d3",
	"infx", "nan1", "0x", "1__0"}

// goodFloats are decimal numbers and their values.
var goodFloats = []struct {
	s string
	f float64
}{
	{"-1.5e-3", -1.5e-3}, {".5", 0.5}, {"5.", 5}, {"+2", 2}, {"1E3", 1000}, {"-0", math.Copysign(0, -1)},
	{"007", 7}, {"+.5e+1", 5}, {"1e-400", 0}, {"12345678901234567890123", 12345678901234567890123},
}

// decodeErr decodes in and checks that it fails with a *mesh.FormatError at
// line whose message contains msg.
func decodeErr(t *testing.T, in string, line int, msg string) {
	t.Helper()
	m, err := obj.Decode(strings.NewReader(in))
	if err == nil {
		t.Fatalf("%q: Decode succeeded (%d verts, %d tris), want an error", in, len(m.Verts), len(m.Tris))
	}
	var fe *mesh.FormatError
	if !errors.As(err, &fe) {
		t.Fatalf("%q: error %v (%T) is not a *mesh.FormatError", in, err, err)
	}
	if fe.Format != "obj" || fe.Line != line || !strings.Contains(fe.Msg, msg) {
		t.Errorf("%q: got %v, want obj line %d with %q", in, err, line, msg)
	}
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
			m, err := obj.Decode(strings.NewReader(file("v 0 0 0", "v 1 "+g.s+" 0", "v 0 1 0", "f +1 2 -1")))
			if err != nil {
				t.Fatalf("%q: %v", g.s, err)
			}
			if y := m.Verts[1].Y; math.Float64bits(y) != math.Float64bits(g.f) {
				t.Errorf("%q read as %v, want %v", g.s, y, g.f)
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
