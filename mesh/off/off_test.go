package off_test

import (
	"errors"
	"io"
	"math"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh"
	"github.com/collide3d/collide/mesh/off"
)

type tri = [3]int32

func v(x, y, z float64) geom.Vec3 { return geom.Vec3{X: x, Y: y, Z: z} }

// squareVerts are the vertex lines of a unit square.
const squareVerts = "0 0 0\n1 0 0\n1 1 0\n0 1 0\n"

var square = []geom.Vec3{v(0, 0, 0), v(1, 0, 0), v(1, 1, 0), v(0, 1, 0)}

func TestDecodeValid(t *testing.T) {
	tests := []struct {
		name  string
		in    string
		verts []geom.Vec3 // nil: square
		tris  []tri
	}{
		{"triangle", "OFF\n4 1 0\n" + squareVerts + "3 0 1 2\n", nil, []tri{{0, 1, 2}}},
		{"quad fan", "OFF\n4 1 4\n" + squareVerts + "4 0 1 2 3\n", nil, []tri{{0, 1, 2}, {0, 2, 3}}},
		{"pentagon fan", "OFF\n5 1 0\n" + squareVerts + "0.5 2 0\n5 1 2 4 3 0\n",
			append(append([]geom.Vec3(nil), square...), v(0.5, 2, 0)), []tri{{1, 2, 4}, {1, 4, 3}, {1, 3, 0}}},
		{"counts on header line", "OFF 4 2 0\n" + squareVerts + "3 0 1 2\n3 0 2 3\n", nil, []tri{{0, 1, 2}, {0, 2, 3}}},
		{"no edge count", "OFF\n4 1\n" + squareVerts + "3 0 1 2\n", nil, []tri{{0, 1, 2}}},
		{"no keyword", "4 1 0\n" + squareVerts + "3 2 1 0\n", nil, []tri{{2, 1, 0}}},
		{"comments and blank lines",
			"# made by hand\nOFF # header\n\n# counts\n4 1 0 # nv nf ne\n0 0 0\n\n# more\n1 0 0 # v1\n1 1 0\n0 1 0\n#faces\n3 0 1 2 # f0\n\n",
			nil, []tri{{0, 1, 2}}},
		{"CRLF", strings.ReplaceAll("OFF\n4 1 0\n"+squareVerts+"4 0 1 2 3\n", "\n", "\r\n"), nil, []tri{{0, 1, 2}, {0, 2, 3}}},
		{"CRCRLF", strings.ReplaceAll("OFF\n4 1 0\n"+squareVerts+"3 0 1 2\n", "\n", "\r\r\n"), nil, []tri{{0, 1, 2}}},
		{"old Mac line ends", strings.ReplaceAll("OFF\n4 1 0\n"+squareVerts+"4 0 1 2 3\n", "\n", "\r"), nil, []tri{{0, 1, 2}, {0, 2, 3}}},
		{"mixed line ends", "OFF\r4 1 0\r\n0 0 0\n1 0 0\r\r\n1 1 0\r0 1 0\r\r3 0 1 2\r", nil, []tri{{0, 1, 2}}},
		{"BOM", "\xEF\xBB\xBFOFF\n4 1 0\n" + squareVerts + "3 0 1 2\n", nil, []tri{{0, 1, 2}}},
		{"no final newline", "OFF\n4 1 0\n" + squareVerts + "3 0 1 2", nil, []tri{{0, 1, 2}}},
		{"tabs and spaces", "  OFF\t\n\t4  1   0 \n 0\t0 0\n1 0 0  \n1 1 0\n0 1 0\n\t3 0\t1  2 \n", nil, []tri{{0, 1, 2}}},
		{"face colors", "OFF\n4 2 0\n" + squareVerts + "3 0 1 2 255 0 0\n3 0 2 3 0.1 0.2 0.3 1\n", nil, []tri{{0, 1, 2}, {0, 2, 3}}},
		{"COFF", "COFF\n4 1 0\n0 0 0 255 0 0 255\n1 0 0 0 255 0 255\n1 1 0 0 0 255 255\n0 1 0 1 1 1 1\n3 0 1 2\n", nil, []tri{{0, 1, 2}}},
		{"NOFF", "NOFF\n4 1 0\n0 0 0 0 0 1\n1 0 0 0 0 1\n1 1 0 0 0 1\n0 1 0 0 0 1\n3 0 1 2\n", nil, []tri{{0, 1, 2}}},
		{"CNOFF", "CNOFF 4 1 0\n0 0 0 0 0 1 1 0 0 1\n1 0 0 0 0 1 1 0 0 1\n1 1 0 0 0 1 1 0 0 1\n0 1 0 0 0 1 1 0 0 1\n3 0 1 2\n", nil, []tri{{0, 1, 2}}},
		{"STOFF", "STOFF\n4 1 0\n0 0 0 0 0\n1 0 0 1 0\n1 1 0 1 1\n0 1 0 0 1\n3 0 1 2\n", nil, []tri{{0, 1, 2}}},
		{"STCNOFF", "STCNOFF\n4 1 0\n" + squareVerts + "3 0 1 2\n", nil, []tri{{0, 1, 2}}},
		{"nOFF 3", "nOFF\n3\n4 1 0\n" + squareVerts + "3 0 1 2\n", nil, []tri{{0, 1, 2}}},
		{"nOFF 3 one line", "nOFF 3 4 1 0\n" + squareVerts + "3 0 1 2\n", nil, []tri{{0, 1, 2}}},
		{"number forms", "OFF\n3 1 0\n1e0 -0.5E+1 .25\n+2. 1e-2 -0\n25e-2 1234567890123456789012 0.000001\n3 0 1 2\n",
			[]geom.Vec3{v(1, -5, 0.25), v(2, 0.01, math.Copysign(0, -1)), v(0.25, 1234567890123456789012, 0.000001)},
			[]tri{{0, 1, 2}}},
		{"degenerate kept", "OFF\n4 2 0\n" + squareVerts + "3 0 0 0\n3 0 1 0\n", nil, []tri{{0, 0, 0}, {0, 1, 0}}},
		{"trailing data ignored", "OFF\n4 1 0\n" + squareVerts + "3 0 1 2\nwhatever\n", nil, []tri{{0, 1, 2}}},
		{"empty mesh", "OFF\n0 0 0\n", []geom.Vec3{}, nil},
		{"vertices only", "OFF\n4 0 0\n" + squareVerts, nil, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m, err := off.Decode(strings.NewReader(tc.in))
			if err != nil {
				t.Fatalf("Decode: %v", err)
			}
			want := tc.verts
			if want == nil {
				want = square
			}
			if !sameVerts(m.Verts, want) {
				t.Errorf("verts = %v, want %v", m.Verts, want)
			}
			if !sameTris(m.Tris, tc.tris) {
				t.Errorf("tris = %v, want %v", m.Tris, tc.tris)
			}
			if err := m.Validate(); err != nil {
				t.Errorf("Validate: %v", err)
			}
		})
	}
}

func sameVerts(a, b []geom.Vec3) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		for k := 0; k < 3; k++ {
			if math.Float64bits(a[i].Index(k)) != math.Float64bits(b[i].Index(k)) {
				return false
			}
		}
	}
	return true
}

func sameTris(a, b []tri) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestDecodeErrors(t *testing.T) {
	const head = "OFF\n4 1 0\n" + squareVerts // faces start on line 7
	tests := []struct {
		name string
		in   string
		line int
		msg  string
	}{
		{"empty", "", 1, "no OFF header"},
		{"only comments", "# a\n\n# b\n", 3, "no OFF header"},
		{"not OFF", "ply\nformat ascii 1.0\n", 1, "missing OFF header"},
		{"unknown keyword", "XOFF\n", 1, "unknown header keyword"},
		{"binary", "OFF BINARY\n", 1, "binary OFF"},
		{"4OFF", "4OFF\n4 1 0\n", 1, "not supported"},
		{"nOFF 4", "nOFF\n4\n4 1 0\n", 2, "dimension 4"},
		{"nOFF bad dim", "nOFF x\n", 1, "malformed nOFF dimension"},
		{"nOFF eof", "nOFF\n", 1, "no nOFF dimension"},
		{"no counts", "OFF\n", 1, "no vertex and face counts"},
		{"one count", "OFF\n4\n", 2, "got 1"},
		{"four counts", "OFF\n4 1 0 7\n", 2, "unexpected \"7\""},
		{"negative count", "OFF\n-4 1 0\n", 2, "negative vertex count"},
		{"hex count", "OFF\n0x4 1 0\n", 2, "malformed vertex count"},
		{"float count", "OFF\n4.0 1 0\n", 2, "malformed vertex count"},
		{"malformed edge count", "OFF\n4 1 x\n", 2, "malformed edge count"},
		{"too many vertices", "OFF\n268435457 1 0\n", 2, "vertex count 268435457 exceeds"},
		{"huge vertex count", "OFF\n99999999999999999999999999 1 0\n", 2, "vertex count"},
		{"huge face count", "OFF 3 99999999999999999999999999 0\n", 1, "face count"},
		{"truncated vertices", "OFF\n8 1 0\n" + squareVerts, 6, "4 of 8 vertices"},
		{"truncated vertices comment", "OFF\n8 1 0\n" + squareVerts + "# end\n\n", 8, "4 of 8 vertices"},
		{"truncated faces", "OFF\n4 2 0\n" + squareVerts + "3 0 1 2\n", 7, "1 of 2 faces read"},
		{"truncated faces count", "OFF\n4 3 0\n" + squareVerts + "3 0 1 2\n", 7, "1 of 3 faces"},
		{"no faces", "OFF\n4 1 0\n" + squareVerts, 6, "0 of 1 faces"},
		{"hostile counts", "OFF\n268435456 268435456 0\n0 0 0\n", 3, "1 of 268435456 vertices"},
		{"two coordinates", "OFF\n4 1 0\n0 0 0\n1 0\n", 4, "2 coordinates"},
		{"nan", "OFF\n4 1 0\n0 0 nan\n", 3, "non-finite"},
		{"inf", "OFF\n4 1 0\n0 0 0\n-inf 0 0\n", 4, "non-finite"},
		{"1e400", "OFF\n4 1 0\n0 1e400 0\n", 3, "range"},
		{"malformed coordinate", "OFF\n4 1 0\n0 0 x\n", 3, "malformed number \"x\""},
		{"two-vertex face", head + "2 0 1\n", 7, "2 vertices"},
		{"zero-vertex face", head + "0\n", 7, "0 vertices"},
		{"short face", head + "4 0 1 2\n", 7, "declares 4 vertices but lists 3"},
		{"huge face", head + "99999999 0 1 2\n", 7, "more than"},
		{"malformed face count", head + "x 0 1 2\n", 7, "malformed face vertex count"},
		{"index out of range", head + "3 0 1 4\n", 7, "face vertex index 4 out of range (4 vertices)"},
		{"negative index", head + "3 0 -1 2\n", 7, "face vertex index -1 out of range"},
		{"huge index", head + "3 0 1 99999999999999999999\n", 7, "out of range"},
		{"float index", head + "3 0 1 2.0\n", 7, "malformed"},
		{"CRLF line numbers", strings.ReplaceAll(head+"3 0 1 9\n", "\n", "\r\n"), 7, "out of range"},
		{"old Mac line numbers", strings.ReplaceAll(head+"3 0 1 9\n", "\n", "\r"), 7, "out of range"},
		{"CRCRLF line numbers", strings.ReplaceAll(head+"3 0 1 9\n", "\n", "\r\r\n"), 7, "out of range"},
		{"old Mac line ends after header", "OFF\n4 1 0\r0 0 0\r", 3, "1 of 4 vertices read"},
		{"long line", "OFF\n1 0 0\n" + strings.Repeat("1", 2<<20) + " 0 0\n", 3, "longer than"},
		{"long line no newline", strings.Repeat(" ", 3<<20), 1, "longer than"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m, err := off.Decode(strings.NewReader(tc.in))
			if err == nil {
				t.Fatalf("Decode succeeded (%d verts, %d tris), want error", len(m.Verts), len(m.Tris))
			}
			var fe *mesh.FormatError
			if !errors.As(err, &fe) {
				t.Fatalf("error %v (%T) is not a *mesh.FormatError", err, err)
			}
			if fe.Format != "off" || fe.Line != tc.line {
				t.Errorf("got format %q line %d, want off line %d (%v)", fe.Format, fe.Line, tc.line, err)
			}
			if !strings.Contains(fe.Msg, tc.msg) {
				t.Errorf("message %q does not contain %q", fe.Msg, tc.msg)
			}
		})
	}
}

func TestDecodeReadError(t *testing.T) {
	boom := errors.New("boom")
	r := io.MultiReader(strings.NewReader("OFF\n4 1 0\n"+squareVerts), iotest.ErrReader(boom))
	if _, err := off.Decode(r); !errors.Is(err, boom) {
		t.Fatalf("got %v, want %v", err, boom)
	}
	m, err := off.Decode(iotest.OneByteReader(strings.NewReader("OFF\n4 1 0\n" + squareVerts + "4 0 1 2 3\n")))
	if err != nil || len(m.Tris) != 2 {
		t.Fatalf("OneByteReader: %v, %v", m, err)
	}
}

func TestRegistered(t *testing.T) {
	f, ok := mesh.FormatFor("bunny.Off")
	if !ok || f.Name != "off" {
		t.Fatalf("FormatFor(bunny.Off) = %v, %v", f, ok)
	}
}
