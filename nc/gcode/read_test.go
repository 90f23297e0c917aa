package gcode_test

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/nc/gcode"
)

var origin = &geom.Vec3{}

// read reads src, failing the test on an error.
func read(t *testing.T, src string, o gcode.Options) *gcode.Program {
	t.Helper()
	p, err := gcode.Read(strings.NewReader(src), "t.nc", o)
	if err != nil {
		t.Fatalf("Read(%q): %v", src, err)
	}
	return p
}

// mul returns a·b rounded in float64 (not as an exact constant).
func mul(a, b float64) float64 { return a * b }

func v(x, y, z float64) geom.Vec3 { return geom.Vec3{X: x, Y: y, Z: z} }

func near(a, b geom.Vec3) bool { return a.Sub(b).Norm() <= 1e-9*(1+a.Norm()) }

// path returns the ends of the moves, as "from->to" strings.
func path(p *gcode.Program) []string {
	var s []string
	for _, m := range p.Moves {
		s = append(s, fmt.Sprintf("%v %v->%v", m.Kind, m.From, m.To))
	}
	return s
}

// TestWords checks the word syntax: case, spaces (also inside numbers),
// leading zeros, signs, decimal points, comments, block delete, N numbers.
func TestWords(t *testing.T) {
	tests := []struct {
		name, src string
		want      []string
		n         []int
	}{
		{"plain", "G1 X1 Y2 Z3", []string{"G1 (0, 0, 0)->(1, 2, 3)"}, []int{-1}},
		{"no spaces", "G1X1Y2Z3", []string{"G1 (0, 0, 0)->(1, 2, 3)"}, nil},
		{"lower case", "g1 x1 y2 z3", []string{"G1 (0, 0, 0)->(1, 2, 3)"}, nil},
		{"spaces in words", "G 0 1 X 1 2 . 5 Y - 2\tZ+ 3", []string{"G1 (0, 0, 0)->(12.5, -2, 3)"}, nil},
		{"number forms", "G01 X.5 Y-.25 Z2.", []string{"G1 (0, 0, 0)->(0.5, -0.25, 2)"}, nil},
		{"G1.0 G00", "G1.0 X1\nG00 X2", []string{"G1 (0, 0, 0)->(1, 0, 0)", "G0 (1, 0, 0)->(2, 0, 0)"}, nil},
		{"comments", "(start) G1 (move) X1 ( x9 ) Y2 ; Z9 (\n;G1 X7\n(G1 X8)", []string{"G1 (0, 0, 0)->(1, 2, 0)"}, nil},
		{"semicolon in parentheses", "G1 X1 (a;b) Y2", []string{"G1 (0, 0, 0)->(1, 2, 0)"}, nil},
		{"block delete", "/G1 X1\n  / N20 G0 Y2", []string{"G1 (0, 0, 0)->(1, 0, 0)", "G0 (1, 0, 0)->(1, 2, 0)"}, []int{-1, 20}},
		{"line numbers", "N10 G1 X1\nn0020 X2\nX3 N5", []string{"G1 (0, 0, 0)->(1, 0, 0)", "G1 (1, 0, 0)->(2, 0, 0)", "G1 (2, 0, 0)->(3, 0, 0)"}, []int{10, 20, 5}},
		{"blank and tape lines", "%\n\n  \n\t\nG1 X1\n%\n", []string{"G1 (0, 0, 0)->(1, 0, 0)"}, nil},
		{"CRLF and CR", "G1 X1\r\nX2\rX3\r\n", []string{"G1 (0, 0, 0)->(1, 0, 0)", "G1 (1, 0, 0)->(2, 0, 0)", "G1 (2, 0, 0)->(3, 0, 0)"}, nil},
		{"byte order mark", "\xEF\xBB\xBFG1 X1", []string{"G1 (0, 0, 0)->(1, 0, 0)"}, nil},
		{"zero-length move kept", "G1 X0 Y0 Z0", []string{"G1 (0, 0, 0)->(0, 0, 0)"}, nil},
		{"G without axes moves nothing", "G1\nG0 F100\nG1 X1", []string{"G1 (0, 0, 0)->(1, 0, 0)"}, nil},
		{"long number", "G1 X0.000000000000000000000000000000000000000001234", []string{"G1 (0, 0, 0)->(1.234e-42, 0, 0)"}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := read(t, tc.src, gcode.Options{Start: origin})
			if got := path(p); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("moves\n got %q\nwant %q", got, tc.want)
			}
			if len(p.Warnings) != 0 {
				t.Errorf("warnings %v", p.Warnings)
			}
			for i, n := range tc.n {
				if p.Moves[i].N != n {
					t.Errorf("move %d: N = %d, want %d", i, p.Moves[i].N, n)
				}
			}
		})
	}
}

// TestModal checks that motion modes, distance modes, feed and spindle are
// modal, and the moves' lines.
func TestModal(t *testing.T) {
	src := `G0 X1 Y1 Z5 S1000
G1 Z-1 F200
X2
Y2 F300
G0 Z5
X0 Y0
G91 G1 X1 Y-1
Z-2
G90 X0
G4 P1.5 X1
`
	p := read(t, src, gcode.Options{Start: origin})
	want := []string{
		"G0 (0, 0, 0)->(1, 1, 5)",
		"G1 (1, 1, 5)->(1, 1, -1)",
		"G1 (1, 1, -1)->(2, 1, -1)",
		"G1 (2, 1, -1)->(2, 2, -1)",
		"G0 (2, 2, -1)->(2, 2, 5)",
		"G0 (2, 2, 5)->(0, 0, 5)",
		"G1 (0, 0, 5)->(1, -1, 5)",
		"G1 (1, -1, 5)->(1, -1, 3)",
		"G1 (1, -1, 3)->(0, -1, 3)",
		"G1 (0, -1, 3)->(1, -1, 3)",
	}
	if got := path(p); !reflect.DeepEqual(got, want) {
		t.Fatalf("moves\n got %q\nwant %q", got, want)
	}
	feeds := []float64{0, 200, 200, 300, 300, 300, 300, 300, 300, 300}
	lines := []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	for i, m := range p.Moves {
		if m.Feed != feeds[i] || m.Spindle != 1000 || m.Line != lines[i] || m.Tool != 0 {
			t.Errorf("move %d: feed %v spindle %v line %d tool %d; want feed %v spindle 1000 line %d tool 0",
				i, m.Feed, m.Spindle, m.Line, m.Tool, feeds[i], lines[i])
		}
	}
	if len(p.Warnings) != 0 {
		t.Errorf("warnings %v", p.Warnings)
	}
}

// TestArcs checks the centre, radius, sweep and the points at s = 0, 0.5,
// 1 of arcs in every plane, against values computed by hand.
func TestArcs(t *testing.T) {
	const h = 3.5355339059327378 // 5·cos 45°
	const pi = math.Pi
	tests := []struct {
		name   string
		start  geom.Vec3
		src    string
		plane  gcode.Plane
		kind   gcode.Kind
		to     geom.Vec3
		center geom.Vec3
		radius float64
		sweep  float64
		turns  int
		mid    geom.Vec3 // At(0.5)
	}{
		{"XY G2 quarter", v(5, 0, 0), "G2 X0 Y-5 I-5 J0", gcode.XY, gcode.ArcCW, v(0, -5, 0), v(0, 0, 0), 5, pi / 2, 0, v(h, -h, 0)},
		{"XY G3 three quarters", v(5, 0, 0), "G3 X0 Y-5 I-5", gcode.XY, gcode.ArcCCW, v(0, -5, 0), v(0, 0, 0), 5, 3 * pi / 2, 0, v(-h, h, 0)},
		{"XY G3 from an offset centre", v(1, 2, 3), "G17 G3 X-1 Y4 I-2", gcode.XY, gcode.ArcCCW, v(-1, 4, 3), v(-1, 2, 3), 2, pi / 2, 0, v(-1+2*math.Sqrt2/2, 2+2*math.Sqrt2/2, 3)},
		{"ZX G3 quarter", v(0, 0, 5), "G18 G3 X5 Z0 K-5 I0", gcode.ZX, gcode.ArcCCW, v(5, 0, 0), v(0, 0, 0), 5, pi / 2, 0, v(h, 0, h)},
		{"ZX G2 three quarters", v(0, 0, 5), "G18 G2 X5 Z0 K-5", gcode.ZX, gcode.ArcCW, v(5, 0, 0), v(0, 0, 0), 5, 3 * pi / 2, 0, v(-h, 0, -h)},
		{"YZ G2 quarter", v(0, 5, 0), "G19 G2 Y0 Z-5 J-5 K0", gcode.YZ, gcode.ArcCW, v(0, 0, -5), v(0, 0, 0), 5, pi / 2, 0, v(0, h, -h)},
		{"YZ G3 three quarters", v(7, 5, 0), "G19 G3 Y0 Z-5 J-5", gcode.YZ, gcode.ArcCCW, v(7, 0, -5), v(7, 0, 0), 5, 3 * pi / 2, 0, v(7, -h, h)},
		{"full circle G2", v(5, 0, 0), "G2 X5 Y0 I-5", gcode.XY, gcode.ArcCW, v(5, 0, 0), v(0, 0, 0), 5, 2 * pi, 0, v(-5, 0, 0)},
		{"full circle without axis change", v(5, 0, 2), "G3 X5 I-5", gcode.XY, gcode.ArcCCW, v(5, 0, 2), v(0, 0, 2), 5, 2 * pi, 0, v(-5, 0, 2)},
		{"full circle in ZX", v(0, 0, 5), "G18 G2 Z5 K-5", gcode.ZX, gcode.ArcCW, v(0, 0, 5), v(0, 0, 0), 5, 2 * pi, 0, v(0, 0, -5)},
		{"two turns (P2)", v(5, 0, 0), "G2 X5 Y0 I-5 P2", gcode.XY, gcode.ArcCW, v(5, 0, 0), v(0, 0, 0), 5, 4 * pi, 1, v(5, 0, 0)},
		{"P1 is a plain arc", v(5, 0, 0), "G3 X0 Y5 I-5 P1", gcode.XY, gcode.ArcCCW, v(0, 5, 0), v(0, 0, 0), 5, pi / 2, 0, v(h, h, 0)},
		{"helix", v(5, 0, 0), "G3 X-5 Y0 Z-2 I-5", gcode.XY, gcode.ArcCCW, v(-5, 0, -2), v(0, 0, 0), 5, pi, 0, v(0, 5, -1)},
		{"helix of two turns", v(5, 0, 0), "G3 X5 Y0 Z-4 I-5 P2", gcode.XY, gcode.ArcCCW, v(5, 0, -4), v(0, 0, 0), 5, 4 * pi, 1, v(5, 0, -2)},
		{"helix in YZ", v(0, 5, 0), "G19 G2 X3 Y0 Z-5 J-5", gcode.YZ, gcode.ArcCW, v(3, 0, -5), v(0, 0, 0), 5, pi / 2, 0, v(1.5, h, -h)},
		{"R semicircle", v(0, 0, 0), "G2 X10 Y0 R5", gcode.XY, gcode.ArcCW, v(10, 0, 0), v(5, 0, 0), 5, pi, 0, v(5, 5, 0)},
		{"R semicircle G3", v(0, 0, 0), "G3 X10 Y0 R5", gcode.XY, gcode.ArcCCW, v(10, 0, 0), v(5, 0, 0), 5, pi, 0, v(5, -5, 0)},
		{"R short G2", v(0, 0, 0), "G2 X5 Y5 R5", gcode.XY, gcode.ArcCW, v(5, 5, 0), v(5, 0, 0), 5, pi / 2, 0, v(5-h, h, 0)},
		{"R long G2", v(0, 0, 0), "G2 X5 Y5 R-5", gcode.XY, gcode.ArcCW, v(5, 5, 0), v(0, 5, 0), 5, 3 * pi / 2, 0, v(-h, 5+h, 0)},
		{"R short G3", v(0, 0, 0), "G3 X5 Y5 R5", gcode.XY, gcode.ArcCCW, v(5, 5, 0), v(0, 5, 0), 5, pi / 2, 0, v(h, 5-h, 0)},
		{"R long G3", v(0, 0, 0), "G3 X5 Y5 R-5", gcode.XY, gcode.ArcCCW, v(5, 5, 0), v(5, 0, 0), 5, 3 * pi / 2, 0, v(5+h, -h, 0)},
		{"R short in ZX", v(0, 0, 0), "G18 G2 X5 Z5 R5", gcode.ZX, gcode.ArcCW, v(5, 0, 5), v(0, 0, 5), 5, pi / 2, 0, v(h, 0, 5-h)},
		{"R short in YZ", v(0, 0, 0), "G19 G3 Y5 Z5 R5", gcode.YZ, gcode.ArcCCW, v(0, 5, 5), v(0, 0, 5), 5, pi / 2, 0, v(0, h, 5-h)},
		{"R helix", v(0, 0, 0), "G2 X10 Y0 Z1 R5", gcode.XY, gcode.ArcCW, v(10, 0, 1), v(5, 0, 0), 5, pi, 0, v(5, 5, 0.5)},
		{"R just short of half the chord", v(0, 0, 0), "G2 X10 R4.999", gcode.XY, gcode.ArcCW, v(10, 0, 0), v(5, 0, 0), 5, pi, 0, v(5, 5, 0)},
		{"R just short of half the chord, negative", v(0, 0, 0), "G3 X10 R-4.9988", gcode.XY, gcode.ArcCCW, v(10, 0, 0), v(5, 0, 0), 5, pi, 0, v(5, -5, 0)},
		{"small radius", v(0, 0, 0), "G2 X0.003 I0.0015", gcode.XY, gcode.ArcCW, v(0.003, 0, 0), v(0.0015, 0, 0), 0.0015, pi, 0, v(0.0015, 0.0015, 0)},
		{"R in inches", v(0, 0, 0), "G20 G3 X0.5 Y0.5 R0.5", gcode.XY, gcode.ArcCCW, v(12.7, 12.7, 0), v(0, 12.7, 0), 12.7, pi / 2, 0, v(12.7*math.Sqrt2/2, 12.7-12.7*math.Sqrt2/2, 0)},
		{"G91 incremental arc", v(10, 10, 0), "G91 G2 X10 Y0 I5 J0", gcode.XY, gcode.ArcCW, v(20, 10, 0), v(15, 10, 0), 5, pi, 0, v(15, 15, 0)},
		{"G91 incremental R arc", v(10, 10, 1), "G91 G3 X-5 Y5 Z-1 R5", gcode.XY, gcode.ArcCCW, v(5, 15, 0), v(5, 10, 1), 5, pi / 2, 0, v(5+h, 10+h, 0.5)},
		{"G90.1 absolute centre", v(10, 0, 0), "G90.1 G3 X-10 Y0 I0 J0", gcode.XY, gcode.ArcCCW, v(-10, 0, 0), v(0, 0, 0), 10, pi, 0, v(0, 10, 0)},
		{"G90.1 with G91 axes", v(10, 0, 0), "G90.1 G91 G3 X-20 I0 J0", gcode.XY, gcode.ArcCCW, v(-10, 0, 0), v(0, 0, 0), 10, pi, 0, v(0, 10, 0)},
		{"G91.1 after G90.1", v(10, 0, 0), "G90.1\nG91.1 G3 X-10 I-10", gcode.XY, gcode.ArcCCW, v(-10, 0, 0), v(0, 0, 0), 10, pi, 0, v(0, 10, 0)},
		{"inches", v(0, 0, 0), "G20 G2 X1 Y0 I0.5", gcode.XY, gcode.ArcCW, v(25.4, 0, 0), v(12.7, 0, 0), 12.7, pi, 0, v(12.7, 12.7, 0)},
		{"radii within tolerance", v(0, 0, 0), "G2 X10.02 I5", gcode.XY, gcode.ArcCW, v(10.02, 0, 0), v(5, 0, 0), 5, pi, 0, v(5, 5.01, 0)},
		{"radii within relative tolerance", v(0, 0, 0), "G2 X200.05 I100", gcode.XY, gcode.ArcCW, v(200.05, 0, 0), v(100, 0, 0), 100, pi, 0, v(100, 100.025, 0)},
		{"inch tolerance", v(0, 0, 0), "G20 G2 X0.202 I0.1", gcode.XY, gcode.ArcCW, v(0.202*25.4, 0, 0), v(2.54, 0, 0), 2.54, pi, 0, v(2.54, 2.54+0.001*25.4, 0)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := read(t, tc.src, gcode.Options{Start: &tc.start})
			if len(p.Moves) != 1 {
				t.Fatalf("%d moves, want 1", len(p.Moves))
			}
			m := p.Moves[0]
			if m.Kind != tc.kind || m.Plane != tc.plane || m.Turns != tc.turns {
				t.Errorf("kind %v plane %v turns %d, want %v %v %d", m.Kind, m.Plane, m.Turns, tc.kind, tc.plane, tc.turns)
			}
			if m.From != tc.start || !near(m.To, tc.to) {
				t.Errorf("from %v to %v, want %v to %v", m.From, m.To, tc.start, tc.to)
			}
			if !near(m.Center, tc.center) || math.Abs(m.Radius-tc.radius) > 1e-12*tc.radius {
				t.Errorf("centre %v radius %v, want %v %v", m.Center, m.Radius, tc.center, tc.radius)
			}
			if s := m.Sweep(); math.Abs(s-tc.sweep) > 1e-12 {
				t.Errorf("sweep %v, want %v", s, tc.sweep)
			}
			if m.At(0) != m.From || m.At(1) != m.To {
				t.Errorf("At(0) %v At(1) %v, want From %v To %v", m.At(0), m.At(1), m.From, m.To)
			}
			if got := m.At(0.5); !near(got, tc.mid) {
				t.Errorf("At(0.5) = %v, want %v", got, tc.mid)
			}
			// Points along the arc are at the interpolated radius from the
			// centre, and along the normal the helix is linear.
			a, b, n := m.Plane.Axes()
			r1 := math.Hypot(m.To.Index(a)-m.Center.Index(a), m.To.Index(b)-m.Center.Index(b))
			for _, s := range []float64{0.1, 0.3, 0.7, 0.9} {
				q := m.At(s)
				r := math.Hypot(q.Index(a)-m.Center.Index(a), q.Index(b)-m.Center.Index(b))
				if want := m.Radius + s*(r1-m.Radius); math.Abs(r-want) > 1e-9 {
					t.Errorf("At(%v) = %v at radius %v, want %v", s, q, r, want)
				}
				if want := m.From.Index(n) + s*(m.To.Index(n)-m.From.Index(n)); math.Abs(q.Index(n)-want) > 1e-12 {
					t.Errorf("At(%v) = %v, normal coordinate want %v", s, q, want)
				}
			}
		})
	}
}

// TestAtLines checks At and Sweep on straight moves, and At's clamping.
func TestAtLines(t *testing.T) {
	m := gcode.Move{Kind: gcode.Linear, From: v(1, 2, 3), To: v(3, 6, -1)}
	for _, tc := range []struct {
		s    float64
		want geom.Vec3
	}{{0, v(1, 2, 3)}, {0.5, v(2, 4, 1)}, {1, v(3, 6, -1)}, {0.25, v(1.5, 3, 2)}, {-1, v(1, 2, 3)}, {2, v(3, 6, -1)}, {math.NaN(), v(1, 2, 3)}} {
		if got := m.At(tc.s); got != tc.want {
			t.Errorf("At(%v) = %v, want %v", tc.s, got, tc.want)
		}
	}
	if s := m.Sweep(); s != 0 {
		t.Errorf("Sweep of a line = %v", s)
	}
	m.Kind = gcode.Rapid
	if got := m.At(0.5); got != v(2, 4, 1) {
		t.Errorf("G0 At(0.5) = %v", got)
	}
}

// TestUnits checks G20 and G21: lengths and F in inches become mm.
func TestUnits(t *testing.T) {
	p := read(t, "G20 G1 X1 Y-2.5 Z0.1 F10\nG91 X1\nG21 G90 X1 F100\nG20 F1\nX0", gcode.Options{Start: origin})
	want := []string{
		"G1 (0, 0, 0)->(25.4, -63.5, 2.54)",
		"G1 (25.4, -63.5, 2.54)->(50.8, -63.5, 2.54)",
		"G1 (50.8, -63.5, 2.54)->(1, -63.5, 2.54)",
		"G1 (1, -63.5, 2.54)->(0, -63.5, 2.54)",
	}
	if got := path(p); !reflect.DeepEqual(got, want) {
		t.Fatalf("moves\n got %q\nwant %q", got, want)
	}
	for i, f := range []float64{254, 254, 100, 25.4} {
		if p.Moves[i].Feed != f {
			t.Errorf("move %d feed %v, want %v", i, p.Moves[i].Feed, f)
		}
	}
	if !p.Inches {
		t.Error("Inches false after G20")
	}
	if p := read(t, "G21 G1 X1", gcode.Options{}); p.Inches {
		t.Error("Inches true without G20")
	}
	// Inches are converted from the decimal as written, correctly rounded
	// (up to 13 significant digits).
	for _, tc := range []struct {
		in   string
		want float64
	}{
		{"1.5", 38.1}, {"0.1", 2.54}, {"-0.0001", -0.00254}, {"+3", 76.2}, {"-0", 0}, {".3", 7.62},
		{"1234567.890123", 31358024.4091242}, {"0.0000000000000000000001", 2.54e-21},
		{"1.23456789012345678", mul(1.23456789012345678, 25.4)}, {"0.00000000000000000000001", mul(1e-23, 25.4)},
	} {
		p := read(t, "G20 G1 X"+tc.in, gcode.Options{Start: origin})
		if got := p.Moves[0].To.X; got != tc.want {
			t.Errorf("X%s inches = %v mm, want %v", tc.in, got, tc.want)
		}
	}
	// S is not a length.
	if p := read(t, "G20 S1000 G1 X1", gcode.Options{}); p.Moves[0].Spindle != 1000 {
		t.Errorf("spindle %v in inches", p.Moves[0].Spindle)
	}
}

// TestTools checks T, M6, Move.Tool and Program.Tools.
func TestTools(t *testing.T) {
	tests := []struct {
		name, src string
		tools     []int // of the moves
		list      []int
	}{
		{"no tools", "G0 X1\nG1 X2", []int{0, 0}, nil},
		{"M6", "T1 M6\nG0 X0\nT2\nG1 X1\nM6\nG1 X2\nT3\nG1 X3", []int{1, 1, 2, 2}, []int{1, 2}},
		{"M6 in the moving block", "T4 M6 G0 X1\nT7 G1 X2\nM6 G1 X3", []int{4, 4, 7}, []int{4, 7}},
		{"before the first M6", "T5 G0 X0\nM6\nG1 X1", []int{0, 5}, []int{5}},
		{"no M6: the last T", "T3 G0 X0\nT4\nG1 X1\nT1 G1 X2", []int{3, 4, 1}, []int{1, 3, 4}},
		{"T0 M6 unloads", "T2 M6 G0 X0\nT0 M6\nG0 X1", []int{2, 0}, []int{2}},
		{"two M6 before a move", "T2 M6\nT3 M6\nG0 X1", []int{3}, []int{3}},
		{"unused tool", "T9 M6\nT8 M6", nil, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := read(t, tc.src, gcode.Options{})
			var got []int
			for _, m := range p.Moves {
				got = append(got, m.Tool)
			}
			if !reflect.DeepEqual(got, tc.tools) || !reflect.DeepEqual(p.Tools, tc.list) {
				t.Errorf("tools %v list %v, want %v %v", got, p.Tools, tc.tools, tc.list)
			}
		})
	}
}

// TestStart checks the start position: found by looking ahead with
// Options.Start nil, and the same moves as with that start given.
func TestStart(t *testing.T) {
	tests := []struct {
		name, src string
		start     geom.Vec3 // the start Read should find
		first     string
	}{
		{"first values", "G0 Z5\nG0 X10 Y20\nG1 Z-1", v(10, 20, 5), "G0 (10, 20, 5)->(10, 20, 5)"},
		{"one line", "G0 X1 Y2 Z3", v(1, 2, 3), "G0 (1, 2, 3)->(1, 2, 3)"},
		{"axis never given", "G0 X1\nG1 X2", v(1, 0, 0), "G0 (1, 0, 0)->(1, 0, 0)"},
		{"incremental first", "G91 G0 X5 Y1\nG90 X1 Z7", v(0, 0, 7), "G0 (0, 0, 7)->(5, 1, 7)"},
		{"in inches", "G20 G0 Z1\nX2", v(50.8, 0, 25.4), "G0 (50.8, 0, 25.4)->(50.8, 0, 25.4)"},
		{"arc before Y is known", "G0 X0\nG2 X10 I5\nG1 Y7\nZ-1", v(0, 7, -1), "G0 (0, 7, -1)->(0, 7, -1)"},
		{"R arc before Y and Z are known", "G0 X0\nG2 X10 R5\nG1 Z3\nY-2", v(0, -2, 3), "G0 (0, -2, 3)->(0, -2, 3)"},
		{"helix before X is known", "G0 Y0 Z0\nG19 G3 Y0 Z0 K5 X4\nG1 X9", v(4, 0, 0), "G0 (4, 0, 0)->(4, 0, 0)"},
		{"arc ends give the start", "G0 Z5\nG3 X5 Y0 I-5", v(5, 0, 5), "G0 (5, 0, 5)->(5, 0, 5)"},
		{"nothing", "G0", v(0, 0, 0), ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := read(t, tc.src, gcode.Options{})
			if tc.first != "" && path(p)[0] != tc.first {
				t.Errorf("first move %s, want %s", path(p)[0], tc.first)
			}
			q := read(t, tc.src, gcode.Options{Start: &tc.start})
			if !reflect.DeepEqual(p.Moves, q.Moves) {
				t.Errorf("with Start nil:\n%+v\nwith Start %v:\n%+v", p.Moves, tc.start, q.Moves)
			}
		})
	}
}

// TestLong checks a program of more moves than are kept in one piece while
// reading: the start found by looking ahead reaches the first moves, tool
// changes apply from their move on, the lines and order are kept.
func TestLong(t *testing.T) {
	const n = 70000
	type want struct{ line, tool int }
	var wants []want
	var b strings.Builder
	line, tool := 0, 0
	emit := func(s string, move bool) {
		b.WriteString(s + "\n")
		line++
		if move {
			wants = append(wants, want{line, tool})
		}
	}
	emit("T3", false)
	for i := range n {
		switch i {
		case 20000:
			emit("T4 M6", false)
			tool = 4
		case 50000:
			emit("G1 X1 Y2", true) // the first X and Y
		case 60000:
			emit("G2 X3 I1", true)
		}
		emit(fmt.Sprintf("G1 Z%d", i%7), true)
	}
	src := b.String()
	p := read(t, src, gcode.Options{})
	if len(p.Moves) != len(wants) {
		t.Fatalf("%d moves, want %d", len(p.Moves), len(wants))
	}
	x := 1.0
	for i, m := range p.Moves {
		if m.Line != wants[i].line || m.Tool != wants[i].tool || m.From.X != x || m.From.Y != 2 {
			t.Fatalf("move %d: %+v, want line %d tool %d X %v Y 2", i, m, wants[i].line, wants[i].tool, x)
		}
		if i > 0 && m.From != p.Moves[i-1].To {
			t.Fatalf("move %d does not follow move %d", i, i-1)
		}
		x = m.To.X
	}
	if x != 3 {
		t.Errorf("ends at X %v", x)
	}
	if !reflect.DeepEqual(p.Tools, []int{4}) {
		t.Errorf("tools %v", p.Tools)
	}
	q := read(t, src, gcode.Options{Start: &geom.Vec3{X: 1, Y: 2}})
	if !reflect.DeepEqual(p.Moves, q.Moves) {
		t.Error("the looked-ahead start gives other moves than that start given")
	}
	_, err := gcode.Read(strings.NewReader(src), "long.nc", gcode.Options{MaxMoves: len(wants) - 1})
	if want := fmt.Sprintf("long.nc: line %d: gcode: more than %d moves", line, len(wants)-1); fmt.Sprint(err) != want {
		t.Errorf("MaxMoves: %v, want %s", err, want)
	}
}

// TestWarnings checks the text of every kind of warning, and that Strict
// turns unknown and unused words into errors.
func TestWarnings(t *testing.T) {
	tests := []struct {
		name, src string
		warnings  []string
		strict    string // the error with Strict, "" if none
		moves     int
	}{
		{"unknown letters", "G1 X1 E5 D1\nH2 L3", []string{"line 1: unknown word E5 (ignored)", "line 1: unknown word D1 (ignored)", "line 2: unknown word H2 (ignored)", "line 2: unknown word L3 (ignored)"}, "t.nc: line 1: gcode: unknown word E5", 1},
		{"unknown G", "G93\nG1 X1 g7", []string{"line 1: unknown word G93 (ignored)", "line 2: unknown word G7 (ignored)"}, "t.nc: line 1: gcode: unknown word G93", 1},
		{"unknown M", "M60\nM100 P1", []string{"line 1: unknown word M60 (ignored)", "line 2: unknown word M100 (ignored)", "line 2: unused word P1 (ignored)"}, "t.nc: line 1: gcode: unknown word M60", 0},
		{"not a G number", "G0 G1.05 X1\nG-1\nG1.10 X2", []string{"line 1: unknown word G1.05 (ignored)", "line 2: unknown word G-1 (ignored)", "line 3: unknown word G1.10 (ignored)"}, "t.nc: line 1: gcode: unknown word G1.05", 2},
		{"program number", "O1234 (PART)\nG0 X1", []string{"line 1: unknown word O1234 (ignored)"}, "t.nc: line 1: gcode: unknown word O1234", 1},
		{"exponent", "G1 X1E3", []string{"line 1: unknown word E3 (ignored)"}, "t.nc: line 1: gcode: unknown word E3", 1},
		{"unused P", "G1 X1 P2", []string{"line 1: unused word P2 (ignored)"}, "t.nc: line 1: gcode: unused word P2", 1},
		{"unused Q", "Q2\nG64 P0.01 Q0.01\nG4 P2", []string{"line 1: unused word Q2 (ignored)"}, "t.nc: line 1: gcode: unused word Q2", 0},
		{"motion after M30", "G0 X1\nM30\n(done)\n\nM5\nG0 X2\nG0 X3", []string{"line 6: motion after the program's end (M30 at line 2) is ignored"}, "", 1},
		{"motion after M2", "G0 X1 M2\ny1", []string{"line 2: motion after the program's end (M2 at line 1) is ignored"}, "", 1},
		{"nothing after M2", "G0 X1\nM02\n(X1)\n;Y2\nM5\n%\n", nil, "", 1},
		{"garbage after M2", "G0 X1\nM2\n#1=[2]\n\x00\xff(", nil, "", 1},
		{"closing percent", "%\nG0 X1\n%\nG0 X2\n", []string{"line 4: motion after the program's end (% at line 3) is ignored"}, "", 1},
		{"percent not first", "G0 X1\n%\nG0 X2\n", nil, "", 2},
		{"known and ignored", "G4 P1\nG40 G49 G80 G61 G94 G54 G98\nG61.1 G99\nG64\nG28.1\nG30.1\nM0 M3 M7 M8 M9 S1\nM1 M4\nM5\nG17 G20 G90 G90.1\nG18 G21 G91 G91.1\nG19", nil, "", 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := read(t, tc.src, gcode.Options{})
			var got []string
			for _, w := range p.Warnings {
				got = append(got, w.String())
			}
			if !reflect.DeepEqual(got, tc.warnings) {
				t.Errorf("warnings\n got %q\nwant %q", got, tc.warnings)
			}
			if len(p.Moves) != tc.moves {
				t.Errorf("%d moves, want %d", len(p.Moves), tc.moves)
			}
			_, err := gcode.Read(strings.NewReader(tc.src), "t.nc", gcode.Options{Strict: true})
			if fmt.Sprint(err) != tc.strict && (err != nil || tc.strict != "") {
				t.Errorf("Strict: error %v, want %q", err, tc.strict)
			}
		})
	}
}

// TestMaxWarnings checks that the warnings are capped.
func TestMaxWarnings(t *testing.T) {
	src := strings.Repeat("E1 E2 E3\n", gcode.MaxWarnings)
	p := read(t, src, gcode.Options{})
	if len(p.Warnings) != gcode.MaxWarnings+1 {
		t.Fatalf("%d warnings, want %d", len(p.Warnings), gcode.MaxWarnings+1)
	}
	last := p.Warnings[gcode.MaxWarnings].String()
	if want := fmt.Sprintf("line 334: more than %d warnings: the rest are not listed", gcode.MaxWarnings); last != want {
		t.Errorf("last warning %q, want %q", last, want)
	}
}

// TestMaxMoves checks Options.MaxMoves.
func TestMaxMoves(t *testing.T) {
	src := "G0 X1\nX2\nX3\n"
	if p := read(t, src, gcode.Options{MaxMoves: 3}); len(p.Moves) != 3 {
		t.Errorf("%d moves", len(p.Moves))
	}
	_, err := gcode.Read(strings.NewReader(src), "big.nc", gcode.Options{MaxMoves: 2})
	if want := "big.nc: line 3: gcode: more than 2 moves"; fmt.Sprint(err) != want {
		t.Errorf("error %v, want %s", err, want)
	}
}

// TestError checks Error's text, its fields, and a failing reader.
func TestError(t *testing.T) {
	_, err := gcode.Read(strings.NewReader("G1 X1\nG1 X2 X3"), "part.nc", gcode.Options{})
	var e *gcode.Error
	if !errors.As(err, &e) || e.Name != "part.nc" || e.Line != 2 || e.Msg != "two X words in one block" {
		t.Fatalf("error %#v", err)
	}
	if got, want := err.Error(), "part.nc: line 2: gcode: two X words in one block"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	e.Name = ""
	if got, want := e.Error(), "line 2: gcode: two X words in one block"; got != want {
		t.Errorf("Error() without a name = %q, want %q", got, want)
	}
	boom := errors.New("boom")
	_, err = gcode.Read(iotest.ErrReader(boom), "r.nc", gcode.Options{})
	if !errors.As(err, &e) || !errors.Is(err, boom) || err.Error() != "r.nc: line 1: gcode: read: boom" {
		t.Errorf("failing reader: %#v", err)
	}
	_, err = gcode.Read(iotest.TimeoutReader(strings.NewReader(strings.Repeat("G0 X1\n", 20000))), "r.nc", gcode.Options{})
	if !errors.As(err, &e) || !errors.Is(err, iotest.ErrTimeout) || e.Line < 2 {
		t.Errorf("reader failing later: %#v", err)
	}
}

// TestOneByteReader checks that the result does not depend on how the
// reader splits the input.
func TestOneByteReader(t *testing.T) {
	src := "%\nT1 M6\nG0 X0 Y0 Z5\nG1 Z-1 F100\nG2 X10 I5\nG3 X0 R5 ; back\nM30\n"
	p := read(t, src, gcode.Options{})
	q, err := gcode.Read(iotest.OneByteReader(strings.NewReader(src)), "t.nc", gcode.Options{})
	if err != nil || !reflect.DeepEqual(p, q) {
		t.Errorf("one byte at a time: %v\n%+v\n%+v", err, p, q)
	}
}

// TestKindPlaneStrings checks the String methods and Plane.Axes.
func TestKindPlaneStrings(t *testing.T) {
	var got []string
	for k := gcode.Rapid; k <= gcode.ArcCCW+1; k++ {
		got = append(got, k.String())
	}
	for p := gcode.XY; p <= gcode.YZ+1; p++ {
		a, b, n := p.Axes()
		got = append(got, fmt.Sprintf("%v%d%d%d", p, a, b, n))
	}
	want := []string{"G0", "G1", "G2", "G3", "Kind(4)", "XY012", "ZX201", "YZ120", "Plane(3)012"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
	if w := (gcode.Warning{Line: 12, Msg: "unknown word E5 (ignored)"}); w.String() != "line 12: unknown word E5 (ignored)" {
		t.Errorf("Warning.String() = %q", w.String())
	}
}
