// Package syntaxtest holds the cases the text codecs' tests share: the
// line ends they accept, spellings that are not decimal numbers, decimal
// numbers with their values, and a check of a decode error.
package syntaxtest

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/collide3d/collide/mesh"
)

// LineEnds are the line ends the text formats accept: LF, CRLF, a lone CR
// (old Mac) and the CR CR LF of files converted to CRLF twice.
var LineEnds = []string{"\n", "\r\n", "\r", "\r\r\n"}

// BadFloats are spellings that strconv.ParseFloat or Go literals accept but
// that are not decimal numbers.
var BadFloats = []string{"1_0", "1_000.5", "0_1", "1.5_0", "1e1_0", "0x1p3", "+0x1p3", "-0x1.8p1", "0X1P-2",
	"0x10", "0b1", "0o7", "0B1", "0O7", ".", "-.", "+", "1e", "1e+", "--1", "+-1", "1.2.3", "1,5", "e3", "1d3",
	"infx", "nan1", "0x", "1__0"}

// BadInts are integer spellings that are not decimal integers.
var BadInts = []string{"0x2", "0b10", "0o2", "0X2", "2_0", "1_0", "2.0", "2e0", "+0x2", "2.", "two", "٢", "++2", "-"}

// A Float is a decimal number S and its value F.
type Float struct {
	S string
	F float64
}

// GoodFloats are decimal numbers and their values.
var GoodFloats = []Float{
	{"-1.5e-3", -1.5e-3}, {".5", 0.5}, {"5.", 5}, {"+2", 2}, {"1E3", 1000}, {"-0", math.Copysign(0, -1)},
	{"007", 7}, {"+.5e+1", 5}, {"1e-400", 0}, {"12345678901234567890123", 12345678901234567890123},
}

// DecodeError checks that decoding in with decode fails with a
// *mesh.FormatError of format at line whose message contains msg.
func DecodeError(t testing.TB, decode func(string) (*mesh.TriMesh, error), format, in string, line int, msg string) {
	t.Helper()
	m, err := decode(in)
	if err == nil {
		t.Fatalf("%q: Decode succeeded (%d verts, %d tris), want an error", in, len(m.Verts), len(m.Tris))
	}
	var fe *mesh.FormatError
	if !errors.As(err, &fe) {
		t.Fatalf("%q: error %v (%T) is not a *mesh.FormatError", in, err, err)
	}
	if fe.Format != format || fe.Line != line || !strings.Contains(fe.Msg, msg) {
		t.Errorf("%q: got %v, want %s line %d with %q", in, err, format, line, msg)
	}
}
