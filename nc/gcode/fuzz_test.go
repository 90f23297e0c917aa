package gcode_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/nc/gcode"
)

// FuzzRead checks that Read never panics; that an error is an *Error on a
// line of the input; that every move is finite, starts where the previous
// one ended and has a finite, positive sweep if it is an arc; that the result
// does not depend on how the reader splits the input or (for input without
// CRs) on the line ends; that the start found by looking ahead gives the
// same moves as that start given; that Strict only adds errors; and that
// a Reader gives what Read gives (with a lookahead of one move, unless it
// says it could not look far enough ahead).
func FuzzRead(f *testing.F) {
	seeds := []string{
		"",
		"G0 X1 Y2 Z3\nG1 Z-1 F100\nG2 X10 I5\nG3 X0 R5\nM30\n",
		"%\n(header)\nG21 G90 G17 G40 G49 G80 G94 G54\nT1 M6\nS1000 M3\nG0 X0 Y0 Z5\nG1 Z-1 F200\nG2 X5 Y5 R5\nG3 X0 Y0 R-5\nG1 X0 Y0 Z5\nM5\nM30\n%\n",
		"G18 G2 X5 Z0 K-5\nG19 G3 Y5 Z5 R5\nG17 G2 X5 Y0 Z-2 I-5 P3\n",
		"G20 G1 X1 Y-2.5 F10\nG91 X1\nG21 G90 X1\nG90.1 G2 X-1 I0 J0\n",
		"g 0 1 x 1 2 . 5 y.5 z+2 ; comment\n/N20 G0 X1 (c)\n",
		"G0 Z5\nG0 X10 Y20\nG2 X0 I-5\nY7\n",
		"G91 G0 X5 Y1\nG90 X1 Z7\n",
		"E5 D1 H2 L3 O1 G93 M60 P2 Q3\n",
		"G41 X1\nG38.2 Z1\n#1=2\n[\n",
		"G2 X10.02 I5\nG20 G2 X0.202 I0.1\nG2 X10 R4.999\n",
		"G2 X1 Y1\nG2 X1 R1 I1\nG2 X0 Y0 R5\nX\nX1.2.3\n(\n",
		"G1 X99999999999999999999999999999999999999999999999999999999999999999\n",
		"G0 X0\nG90.1 G2 X10 I5 J0\n",
		"T1 M6 G0 X1\nT2\nM6\nG1 X2\nM2\nG0 X5\n",
	}
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := gcode.Read(bytes.NewReader(data), "f.nc", gcode.Options{})
		if err != nil {
			var e *gcode.Error
			if !errors.As(err, &e) {
				t.Fatalf("error of type %T: %v", err, err)
			}
			if lines := bytes.Count(data, []byte("\n")) + bytes.Count(data, []byte("\r")) + 1; e.Line < 1 || e.Line > lines {
				t.Fatalf("error on line %d of %d: %v", e.Line, lines, err)
			}
		} else {
			checkProgram(t, p)
		}
		p1, err1 := gcode.Read(iotest.OneByteReader(bytes.NewReader(data)), "f.nc", gcode.Options{})
		if !sameResult(p, err, p1, err1) {
			t.Fatalf("a bytes.Reader gives %v, a one-byte reader %v", err, err1)
		}
		if bytes.IndexByte(data, '\r') < 0 {
			for _, eol := range []string{"\r", "\r\n"} {
				p2, err2 := gcode.Read(bytes.NewReader(bytes.ReplaceAll(data, []byte("\n"), []byte(eol))), "f.nc", gcode.Options{})
				if !sameResult(p, err, p2, err2) {
					t.Fatalf("with LF line ends: %v; with %q: %v", err, eol, err2)
				}
			}
		}
		// A Reader returns Read's moves, or the same error; with a
		// lookahead of 1 move too, unless it says that it could not look
		// far enough ahead (an error, or a warning on the first M6).
		for _, la := range []int{0, 1} {
			q, qerr := readAll(data, gcode.Options{Lookahead: la})
			short := la == 1 && (qerr != nil && strings.Contains(qerr.Error(), "is first given") ||
				qerr == nil && slices.ContainsFunc(q.Warnings, func(w gcode.Warning) bool { return strings.Contains(w.Msg, "first M6") }))
			if !short && !sameResult(p, err, q, qerr) {
				t.Fatalf("Read gives %v, a Reader of lookahead %d %v", err, la, qerr)
			}
		}
		if err != nil {
			return
		}
		if len(p.Moves) > 0 {
			start := p.Moves[0].From
			q, err := gcode.Read(bytes.NewReader(data), "f.nc", gcode.Options{Start: &start})
			if err != nil || !reflect.DeepEqual(p.Moves, q.Moves) {
				t.Fatalf("Start %v given: %v\n%+v\nlooked ahead:\n%+v", start, err, q, p.Moves)
			}
		}
		s, err := gcode.Read(bytes.NewReader(data), "f.nc", gcode.Options{Strict: true})
		if err == nil && !reflect.DeepEqual(p.Moves, s.Moves) {
			t.Fatalf("Strict read other moves")
		}
	})
}

// readAll reads data through a Reader, as Read does.
func readAll(data []byte, o gcode.Options) (*gcode.Program, error) {
	r := gcode.NewReader(bytes.NewReader(data), "f.nc", o)
	p := &gcode.Program{Name: "f.nc"}
	for {
		m, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		p.Moves = append(p.Moves, m)
	}
	p.Warnings, p.Inches = r.Warnings(), r.Inches()
	last := 0
	for _, m := range p.Moves {
		if m.Tool != 0 && m.Tool != last {
			last = m.Tool
			if !slices.Contains(p.Tools, m.Tool) {
				p.Tools = append(p.Tools, m.Tool)
			}
		}
	}
	slices.Sort(p.Tools)
	return p, nil
}

func finite(v geom.Vec3) bool {
	return !math.IsInf(v.X, 0) && !math.IsNaN(v.X) && !math.IsInf(v.Y, 0) && !math.IsNaN(v.Y) && !math.IsInf(v.Z, 0) && !math.IsNaN(v.Z)
}

func finiteF(x float64) bool { return !math.IsInf(x, 0) && !math.IsNaN(x) }

// checkProgram checks the invariants of a program that Read accepted.
func checkProgram(t *testing.T, p *gcode.Program) {
	t.Helper()
	for i, m := range p.Moves {
		if !finite(m.From) || !finite(m.To) || !finite(m.Center) || !finiteF(m.Radius) || !finiteF(m.Feed) || !finiteF(m.Spindle) {
			t.Fatalf("move %d not finite: %+v", i, m)
		}
		if m.Line < 1 || m.Kind > gcode.ArcCCW || m.Plane > gcode.YZ || m.Turns < 0 || m.Feed < 0 || m.Spindle < 0 || m.Tool < 0 || m.N < -1 {
			t.Fatalf("move %d out of range: %+v", i, m)
		}
		if i > 0 && (m.From != p.Moves[i-1].To || m.Line < p.Moves[i-1].Line) {
			t.Fatalf("move %d does not follow move %d: %+v after %+v", i, i-1, m, p.Moves[i-1])
		}
		if m.At(0) != m.From || m.At(1) != m.To {
			t.Fatalf("move %d: At(0) %v At(1) %v", i, m.At(0), m.At(1))
		}
		for _, s := range []float64{0.25, 0.5, 0.75} {
			if q := m.At(s); !finite(q) {
				t.Fatalf("move %d: At(%v) = %v", i, s, q)
			}
		}
		sw := m.Sweep()
		if m.Kind.IsArc() {
			if !finiteF(sw) || sw <= 0 || sw > 2*math.Pi*float64(m.Turns+1)+1e-9 || m.Radius <= 0 {
				t.Fatalf("arc %d: sweep %v radius %v: %+v", i, sw, m.Radius, m)
			}
			_, _, n := m.Plane.Axes()
			if m.Center.Index(n) != m.From.Index(n) {
				t.Fatalf("arc %d: centre %v not at the start's normal coordinate", i, m.Center)
			}
		} else if sw != 0 {
			t.Fatalf("line %d: sweep %v", i, sw)
		}
	}
	if !slices.IsSorted(p.Tools) || len(slices.Compact(slices.Clone(p.Tools))) != len(p.Tools) || slices.Contains(p.Tools, 0) {
		t.Fatalf("tools %v", p.Tools)
	}
	if len(p.Warnings) > gcode.MaxWarnings+1 {
		t.Fatalf("%d warnings", len(p.Warnings))
	}
}

// sameResult reports whether two reads gave the same error, or the same
// program.
func sameResult(p *gcode.Program, err error, p1 *gcode.Program, err1 error) bool {
	if err != nil || err1 != nil {
		return fmt.Sprint(err) == fmt.Sprint(err1)
	}
	return reflect.DeepEqual(p, p1)
}
