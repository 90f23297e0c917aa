package obj_test

import (
	"bytes"
	"errors"
	"io"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh"
	"github.com/collide3d/collide/mesh/obj"
)

type tri = [3]int32

func v(x, y, z float64) geom.Vec3 { return geom.Vec3{X: x, Y: y, Z: z} }

// square is four vertices of a unit square, then the input text.
const square = "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\n"

var squareVerts = []geom.Vec3{v(0, 0, 0), v(1, 0, 0), v(1, 1, 0), v(0, 1, 0)}

func TestDecodeValid(t *testing.T) {
	tests := []struct {
		name  string
		in    string
		verts []geom.Vec3 // nil: squareVerts
		tris  []tri
	}{
		{"triangle", square + "f 1 2 3\n", nil, []tri{{0, 1, 2}}},
		{"v/vt", square + "vt 0 0\nvt 1 0\nvt 1 1\nf 1/1 2/2 3/3\n", nil, []tri{{0, 1, 2}}},
		{"v//vn", square + "vn 0 0 1\nf 1//1 2//1 3//1\n", nil, []tri{{0, 1, 2}}},
		{"v/vt/vn", square + "vt 0 0\nvn 0 0 1\nf 1/1/1 2/1/1 3/1/1\n", nil, []tri{{0, 1, 2}}},
		{"mixed forms", square + "f 1 2/5 3//7\n", nil, []tri{{0, 1, 2}}},
		{"negative", square + "f -4 -3 -2\nf -1 -2 -3\n", nil, []tri{{0, 1, 2}, {3, 2, 1}}},
		{"negative v/vt/vn", square + "f -4/-1/-1 -3/-1/-1 -1/-1/-1\n", nil, []tri{{0, 1, 3}}},
		{"negative relative to line",
			"v 0 0 0\nv 1 0 0\nv 1 1 0\nf -3 -2 -1\nv 0 1 0\nf -1 -2 -3\n", nil,
			[]tri{{0, 1, 2}, {3, 2, 1}}},
		{"quad fan", square + "f 1 2 3 4\n", nil, []tri{{0, 1, 2}, {0, 2, 3}}},
		{"pentagon fan", square + "v 0.5 2 0\nf 2 3 5 4 1\n", append(append([]geom.Vec3(nil), squareVerts...), v(0.5, 2, 0)),
			[]tri{{1, 2, 4}, {1, 4, 3}, {1, 3, 0}}},
		{"CRLF", strings.ReplaceAll(square+"f 1 2 3 4\n", "\n", "\r\n"), nil, []tri{{0, 1, 2}, {0, 2, 3}}},
		{"no final newline", square + "f 1 2 3", nil, []tri{{0, 1, 2}}},
		{"CR at EOF", square + "f 1 2 3\r", nil, []tri{{0, 1, 2}}},
		{"CRCRLF", strings.ReplaceAll(square+"f 1 2 3\n", "\n", "\r\r\n"), nil, []tri{{0, 1, 2}}},
		{"old Mac line ends", strings.ReplaceAll(square+"f 1 2 3 4\n", "\n", "\r"), nil, []tri{{0, 1, 2}, {0, 2, 3}}},
		{"mixed line ends", "v 0 0 0\rv 1 0 0\r\nv 1 1 0\nv 0 1 0\r\r\nf 1 2 \\\r3\r", nil, []tri{{0, 1, 2}}},
		{"BOM", "\xEF\xBB\xBF" + square + "f 1 2 3\n", nil, []tri{{0, 1, 2}}},
		{"comments and skipped statements",
			"# header\n\nmtllib a.mtl\no obj\ng group\ns off\nusemtl red\n" +
				"v 0 0 0 # first\nv 1 0 0\n   \n\tv 1 1 0\nv 0 1 0#nospace\n" +
				"vt 0 0\nvn 0 0 1\nvp 0.5\nl 1 2\np 1\ncstype bezier\nfo 1 2 3\nfoo bar\n" +
				"f 1 2 3 # tri\n#f 1 2 4\n", nil, []tri{{0, 1, 2}}},
		{"tabs and extra spaces", "v\t0 0 0\nv  1\t 0   0  \nv 1 1 0\nv 0 1 0\nf\t1  2\t3 \t\n", nil, []tri{{0, 1, 2}}},
		{"forward references", "f 1 2 3\nf 4 3 2\n" + square, nil, []tri{{0, 1, 2}, {3, 2, 1}}},
		{"continuation", square + "f 1 2 \\\n 3 \\\r\n 4\n", nil, []tri{{0, 1, 2}, {0, 2, 3}}},
		{"continued vertex", "v 0 \\\n0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf 1 2 3\n", nil, []tri{{0, 1, 2}}},
		{"backslash in comment", square + "f 1 2 3 # see \\\nf 1 3 4\n", nil, []tri{{0, 1, 2}, {0, 2, 3}}},
		{"weight and colors", "v 0 0 0 1\nv 1 0 0 0.5 0.5 0.5\nv 1 1 0 1 0 0 1\nv 0 1 0\nf 1 2 3\n", nil, []tri{{0, 1, 2}}},
		{"number forms", "v 1e0 -0.5E+1 .25\nv +2. 1e-2 -0\nv 25e-2 1234567890123456789012 0.000001\nf 1 2 3\n",
			[]geom.Vec3{v(1, -5, 0.25), v(2, 0.01, math.Copysign(0, -1)), v(0.25, 1234567890123456789012, 0.000001)},
			[]tri{{0, 1, 2}}},
		{"degenerate kept", square + "f 1 1 1\nf 1 2 1\n", nil, []tri{{0, 0, 0}, {0, 1, 0}}},
		{"unreferenced vertices kept", square + "f 1 2 3\n", nil, []tri{{0, 1, 2}}},
		{"empty", "", []geom.Vec3{}, nil},
		{"only comments", "# nothing\n\n", []geom.Vec3{}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m, err := obj.Decode(strings.NewReader(tc.in))
			if err != nil {
				t.Fatalf("Decode: %v", err)
			}
			want := tc.verts
			if want == nil {
				want = squareVerts
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
	long := "v " + strings.Repeat("1", 2<<20) + " 0 0\n"
	tests := []struct {
		name string
		in   string
		line int
		msg  string // substring of the message
	}{
		{"two coordinates", "v 0 0 0\nv 1 2\n", 2, "2 coordinates"},
		{"bare v", "v\n", 1, "0 coordinates"},
		{"v comment", "v # x\n", 1, "0 coordinates"},
		{"nan", "v 1 2 nan\n", 1, "non-finite"},
		{"NaN", "v NaN 2 3\n", 1, "non-finite"},
		{"inf", "v 0 0 0\nv inf 0 0\n", 2, "non-finite"},
		{"-Infinity", "v -Infinity 0 0\n", 1, "non-finite"},
		{"1e400", "\n\nv 1e400 0 0\n", 3, "range"},
		{"-1e400", "v 0 -1e400 0\n", 1, "range"},
		{"malformed", "v 1 2 x\n", 1, "malformed number \"x\""},
		{"malformed extra field", "v 1 2 3 w\n", 1, "malformed"},
		{"double dot", "v 1..2 0 0\n", 1, "malformed"},
		{"sign only", "v - 0 0\n", 1, "malformed"},
		{"exponent only", "v 1e 0 0\n", 1, "malformed"},
		{"two vertices", square + "f 1 2\n", 5, "2 vertices"},
		{"bare f", square + "f\n", 5, "0 vertices"},
		{"f comment", square + "f # 1 2 3\n", 5, "0 vertices"},
		{"index 0", square + "f 0 1 2\n", 5, "index 0"},
		{"negative zero", square + "f -0 1 2\n", 5, "index 0"},
		{"out of range", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 7\n", 4, "face vertex index 7 out of range (3 vertices"},
		{"first out of range", square + "f 1 2 9\nf 1 2 3\nf 7 8 9\n", 5, "index 9 out of range"},
		{"first forward out of range", "f 1 2 4\nf 1 2 9\nf 1 2 3\n" + square, 2, "index 9 out of range"},
		{"forward then earlier", "f 1 2 3\nf 1 2 6\nf 1 2 5\nv 0 0 0\nv 0 0 0\nv 0 0 0\nv 0 0 0\n", 2, "index 6"},
		{"negative out of range", square + "f -1 -2 -5\n", 5, "index -5 out of range (4 vertices so far)"},
		{"negative before vertices", "f -1 -2 -3\n" + square, 1, "out of range"},
		{"huge index", square + "f 1 2 99999999999999999999999\n", 5, "out of range"},
		{"huge negative", square + "f 1 2 -99999999999999999999999\n", 5, "out of range"},
		{"letters", square + "f a b c\n", 5, "malformed face vertex \"a\""},
		{"float index", square + "f 1.5 2 3\n", 5, "malformed"},
		{"empty v in v/vt", square + "f /1 2 3\n", 5, "malformed"},
		{"CRLF line numbers", strings.ReplaceAll(square+"f 1 2 3\nf 1 2\n", "\n", "\r\n"), 6, "2 vertices"},
		{"old Mac line numbers", strings.ReplaceAll(square+"f 1 2 3\nf 1 2\n", "\n", "\r"), 6, "2 vertices"},
		{"CRCRLF line numbers", strings.ReplaceAll(square+"f 1 2 3\nf 1 2\n", "\n", "\r\r\n"), 6, "2 vertices"},
		{"BOM not at start", square + "\xEF\xBB\xBFv 1 2 3\nf 1 2 5\n", 6, "out of range"},
		{"continued error line", square + "f 1 \\\n 2\n", 5, "2 vertices"},
		{"long line", square + long, 5, "longer than"},
		{"long line no newline", strings.Repeat("x", 3<<20), 1, "longer than"},
		{"long continuation", square + strings.Repeat("f 1 2 3 "+strings.Repeat(" ", 1<<16)+"\\\n", 20), 5, "longer than"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m, err := obj.Decode(strings.NewReader(tc.in))
			if err == nil {
				t.Fatalf("Decode succeeded (%d verts, %d tris), want error", len(m.Verts), len(m.Tris))
			}
			var fe *mesh.FormatError
			if !errors.As(err, &fe) {
				t.Fatalf("error %v (%T) is not a *mesh.FormatError", err, err)
			}
			if fe.Format != "obj" || fe.Line != tc.line {
				t.Errorf("got format %q line %d, want obj line %d (%v)", fe.Format, fe.Line, tc.line, err)
			}
			if !strings.Contains(fe.Msg, tc.msg) {
				t.Errorf("message %q does not contain %q", fe.Msg, tc.msg)
			}
		})
	}
}

func TestDecodeReadError(t *testing.T) {
	boom := errors.New("boom")
	r := io.MultiReader(strings.NewReader(square), iotest.ErrReader(boom))
	if _, err := obj.Decode(r); !errors.Is(err, boom) {
		t.Fatalf("got %v, want %v", err, boom)
	}
	// One byte at a time exercises every buffer boundary.
	m, err := obj.Decode(iotest.OneByteReader(strings.NewReader(square + "f 1 2 3 4\n")))
	if err != nil || len(m.Tris) != 2 {
		t.Fatalf("OneByteReader: %v, %v", m, err)
	}
}

// TestLongFace decodes a face longer than the read buffer.
func TestLongFace(t *testing.T) {
	const n = 30000
	var b strings.Builder
	for i := 0; i < n; i++ {
		b.WriteString("v 1 2 3\n")
	}
	b.WriteString("f")
	for i := n; i >= 1; i-- {
		b.WriteString(" ")
		b.WriteString(itoa(i))
	}
	b.WriteString("\n")
	m, err := obj.Decode(strings.NewReader(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Tris) != n-2 || m.Tris[n-3] != (tri{n - 1, 1, 0}) {
		t.Fatalf("got %d tris, last %v", len(m.Tris), m.Tris[len(m.Tris)-1])
	}
}

func itoa(i int) string { return string(appendInt(nil, i)) }

func appendInt(b []byte, i int) []byte {
	if i >= 10 {
		b = appendInt(b, i/10)
	}
	return append(b, byte('0'+i%10))
}

func TestRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	m := &mesh.TriMesh{}
	special := []float64{0, math.Copysign(0, -1), 1, -1, 0.1, 1e-300, 5e-324, -5e-324,
		math.MaxFloat64, -math.MaxFloat64, math.SmallestNonzeroFloat64, 1e21, 1e22, 1e23,
		123456789012345678, 0.30000000000000004, 2.2250738585072014e-308}
	for _, x := range special {
		m.Verts = append(m.Verts, v(x, -x, x/3))
	}
	for i := 0; i < 2000; i++ {
		var c [3]float64
		for k := range c {
			switch rng.IntN(3) {
			case 0:
				c[k] = math.Float64frombits(rng.Uint64())
				if math.IsNaN(c[k]) || math.IsInf(c[k], 0) {
					c[k] = 0
				}
			case 1:
				c[k] = rng.NormFloat64() * 100
			default:
				c[k] = float64(rng.IntN(2000)-1000) / 64
			}
		}
		m.Verts = append(m.Verts, v(c[0], c[1], c[2]))
	}
	for i := 0; i < 3000; i++ {
		n := int32(len(m.Verts))
		m.Tris = append(m.Tris, tri{rng.Int32N(n), rng.Int32N(n), rng.Int32N(n)})
	}
	var buf bytes.Buffer
	if err := obj.Encode(&buf, m); err != nil {
		t.Fatal(err)
	}
	got, err := obj.Decode(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if !sameVerts(got.Verts, m.Verts) || !sameTris(got.Tris, m.Tris) {
		t.Fatal("round trip changed the mesh")
	}
}

func TestEncodeInvalid(t *testing.T) {
	var buf bytes.Buffer
	bad := []*mesh.TriMesh{
		{Verts: []geom.Vec3{v(math.NaN(), 0, 0)}},
		{Verts: []geom.Vec3{v(0, 0, 0)}, Tris: []tri{{0, 0, 1}}},
	}
	for _, m := range bad {
		if err := obj.Encode(&buf, m); err == nil {
			t.Errorf("Encode(%v) succeeded", m)
		}
	}
	if buf.Len() != 0 {
		t.Errorf("Encode wrote %q for invalid meshes", buf.String())
	}
}

func TestEncodeWriteError(t *testing.T) {
	m := &mesh.TriMesh{Verts: []geom.Vec3{v(1, 2, 3)}, Tris: []tri{{0, 0, 0}}}
	if err := obj.Encode(errWriter{}, m); err == nil {
		t.Fatal("Encode ignored a write error")
	}
}

type errWriter struct{}

func (errWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestRegistered(t *testing.T) {
	f, ok := mesh.FormatFor("model.OBJ")
	if !ok || f.Name != "obj" {
		t.Fatalf("FormatFor(model.OBJ) = %v, %v", f, ok)
	}
}
