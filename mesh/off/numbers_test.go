package off_test

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/collide3d/collide/mesh"
	"github.com/collide3d/collide/mesh/off"
)

// lineEnds are the line ends Decode accepts: LF, CRLF, a lone CR (old Mac)
// and the CR CR LF of files converted to CRLF twice.
var lineEnds = []string{"\n", "\r\n", "\r", "\r\r\n"}

// badFloats are spellings that strconv.ParseFloat or Go literals accept but
// that are not decimal numbers.
var badFloats = []string{"1_0", "1_000.5", "0_1", "1.5_0", "1e1_0", "0x1p3", "+0x1p3", "-0x1.8p1", "0X1P-2",
	"0x10", "0b1", "0o7", "0B1", "0O7", ".", "-.", "+", "1e", "1e+", "--1", "+-1", "1.2.3", "1,5", "e3", "1d3",
	"infx", "nan1", "0x", "1__0"}

// badInts are integer spellings that are not decimal integers.
var badInts = []string{"0x2", "0b10", "0o2", "0X2", "2_0", "1_0", "2.0", "2e0", "+0x2", "2.", "two", "٢", "++2", "-"}

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
	m, err := off.Decode(strings.NewReader(in))
	if err == nil {
		t.Fatalf("%q: Decode succeeded (%d verts, %d tris), want an error", in, len(m.Verts), len(m.Tris))
	}
	var fe *mesh.FormatError
	if !errors.As(err, &fe) {
		t.Fatalf("%q: error %v (%T) is not a *mesh.FormatError", in, err, err)
	}
	if fe.Format != "off" || fe.Line != line || !strings.Contains(fe.Msg, msg) {
		t.Errorf("%q: got %v, want off line %d with %q", in, err, line, msg)
	}
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
			m, err := off.Decode(strings.NewReader(file("OFF", "+3 +1 +0", "0 0 0", "1 "+g.s+" 0", "0 1 0", "+3 0 +1 2")))
			if err != nil {
				t.Fatalf("%q: %v", g.s, err)
			}
			if y := m.Verts[1].Y; math.Float64bits(y) != math.Float64bits(g.f) {
				t.Errorf("%q read as %v, want %v", g.s, y, g.f)
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
