package gcode_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/collide3d/collide/nc/gcode"
)

// TestBadPrograms checks the exact error, file and line named, for
// malformed and unsupported programs.
func TestBadPrograms(t *testing.T) {
	big := "1" + strings.Repeat("0", 307) // 1e307 written out
	tests := []struct{ src, err string }{
		// Syntax.
		{"G1 X1\nG1 X1 X2", "line 2: gcode: two X words in one block"},
		{"G1 X", "line 1: gcode: X without a number"},
		{"G1 X Y2", "line 1: gcode: X without a number"},
		{"G1 X1.2.3", "line 1: gcode: malformed number X1.2.3"},
		{"G1 X-", "line 1: gcode: malformed number X-"},
		{"G1 X.", "line 1: gcode: malformed number X."},
		{"G1 X--1", "line 1: gcode: malformed number X-"},
		{"G1 X1e", "line 1: gcode: E without a number"},
		{"G1 X9" + strings.Repeat("9", 400), "line 1: gcode: X999999999999999999999999999999999999999...: number out of range"},
		{"G1 X1 (comment\nG1 X2", "line 1: gcode: comment not closed (no ')' before the end of the line)"},
		{"(a (b) c)", "line 1: gcode: comment inside a comment (comments do not nest)"},
		{"G1 X1 *57", `line 1: gcode: unexpected character "*"`},
		{"G1 X1 )", `line 1: gcode: unexpected character ")"`},
		{"G1 X1 /", `line 1: gcode: unexpected character "/"`},
		{"G1 X1 \xc3\xa9", `line 1: gcode: unexpected character "\xc3"`},
		{"G1 X1\n12 G1 X2", `line 2: gcode: number "12" without a letter`},
		{"G1 X1 -2", `line 1: gcode: number "-2" without a letter`},
		{"#1=2", "line 1: gcode: parameters (#) are not supported"},
		{"G1 X#1", "line 1: gcode: parameters (#) are not supported"},
		{"G1 X[1+2]", "line 1: gcode: expressions ([...]) are not supported"},
		{"o100 sub", "line 1: gcode: O-words (subroutines and control flow) are not supported"},
		{"o<drill> call", "line 1: gcode: O-words (subroutines and control flow) are not supported"},
		{"\r\n\r\nG1 X1 X2", "line 3: gcode: two X words in one block"},
		{"G1 X1\n" + strings.Repeat(" ", 1<<20+1) + "\n", "line 2: gcode: line longer than 1048576 bytes"},

		// Blocks and modes.
		{"X1", "line 1: gcode: axis words with no motion mode in force (G0, G1, G2 or G3)"},
		{"G80 X1", "line 1: gcode: axis words with G80 (no motion mode)"},
		{"G0 X1\nG80\nY2", "line 3: gcode: axis words with no motion mode in force (G0, G1, G2 or G3)"},
		{"G1 G2 X1", "line 1: gcode: G1 and G2 in one block (the same modal group)"},
		{"G0 G0 X1", "line 1: gcode: G0 and G0 in one block (the same modal group)"},
		{"G90 G91", "line 1: gcode: G90 and G91 in one block (the same modal group)"},
		{"G20 G21", "line 1: gcode: G20 and G21 in one block (the same modal group)"},
		{"M3 M5", "line 1: gcode: M3 and M5 in one block (the same modal group)"},
		{"M0 M30", "line 1: gcode: M0 and M30 in one block (the same modal group)"},
		{"G1 X1 I1", "line 1: gcode: I1 with no arc (G2 or G3) to use it"},
		{"G0 X1 R1", "line 1: gcode: R1 with no arc (G2 or G3) to use it"},
		{"G2 X2 I1\nI1 J0", "line 2: gcode: I1 with no arc (G2 or G3) to use it"},
		{"G1 F-5", "line 1: gcode: F-5: negative feed rate"},
		{"S-1", "line 1: gcode: S-1: negative spindle speed"},
		{"T1.5 M6", "line 1: gcode: T1.5: a tool number must be a whole number from 0 to 2147483647"},
		{"T-1", "line 1: gcode: T-1: a tool number must be a whole number from 0 to 2147483647"},
		{"N1.5 G0 X1", "line 1: gcode: N1.5: a line number must be a whole number from 0 to 2147483647"},
		{"N99999999999 G0 X1", "line 1: gcode: N99999999999: a line number must be a whole number from 0 to 2147483647"},

		// Words that change the path in ways not modelled.
		{"G41 D1\nG1 X1", "line 1: gcode: G41 (cutter compensation) is not supported"},
		{"G42.1 D2", "line 1: gcode: G42.1 (cutter compensation) is not supported"},
		{"T1 M6\nG43 H1", "line 2: gcode: G43 (tool length offset) is not supported"},
		{"G92 X0 Y0", "line 1: gcode: G92 (coordinate system offset) is not supported"},
		{"G28", "line 1: gcode: G28 (move to a stored position) is not supported"},
		{"G30 Z10", "line 1: gcode: G30 (move to a stored position) is not supported"},
		{"g55", "line 1: gcode: G55 (work offset) is not supported"},
		{"G54.1 P1", "line 1: gcode: G54.1 (work offset) is not supported"},
		{"G59.3", "line 1: gcode: G59.3 (work offset) is not supported"},
		{"G53 G0 Z0", "line 1: gcode: G53 (machine coordinates) is not supported"},
		{"G81 X1 Y1 Z-1 R1", "line 1: gcode: G81 (canned cycle) is not supported"},
		{"G83 Z-5 Q1 R1", "line 1: gcode: G83 (canned cycle) is not supported"},
		{"G38.2 Z-10 F100", "line 1: gcode: G38.2 (probing) is not supported"},
		{"G33 Z-10 K1", "line 1: gcode: G33 (spindle-synchronized motion) is not supported"},
		{"G5.2 X1 Y1 P1", "line 1: gcode: G5.2 (spline) is not supported"},
		{"G10 L2 P1 X0", "line 1: gcode: G10 (setting offsets or tool data) is not supported"},
		{"M98 P100", "line 1: gcode: M98 (subprogram call) is not supported"},
		{"G1 X1 A90", "line 1: gcode: A90: axis A is not supported (only X, Y and Z)"},
		{"G1 W-1", "line 1: gcode: W-1: axis W is not supported (only X, Y and Z)"},

		// Arcs.
		{"G2 X1 Y1", "line 1: gcode: G2 with neither R nor I J (the centre in the XY plane)"},
		{"G18 G3 X1", "line 1: gcode: G3 with neither R nor K I (the centre in the ZX plane)"},
		{"G2 X1 R1 I1", "line 1: gcode: G2 with both R and I J"},
		{"G17 G2 X1 I1 K1", "line 1: gcode: G2: K1 in an arc in the XY plane (only I and J)"},
		{"G19 G2 Y1 I1 J1", "line 1: gcode: G2: I1 in an arc in the YZ plane (only J and K)"},
		{"G2 Z-1 I1", "line 1: gcode: G2 with neither X nor Y (an arc in the XY plane)"},
		{"G2 I5", "line 1: gcode: G2 with neither X nor Y (an arc in the XY plane)"},
		{"G18 G2 Y1 K1", "line 1: gcode: G2 with neither Z nor X (an arc in the ZX plane)"},
		{"G2 X10 R4", "line 1: gcode: G2: arc radius 4 is less than half the chord (5)"},
		{"G2 X10 R4.9985", "line 1: gcode: G2: arc radius 4.9985 is less than half the chord (5)"},
		{"G3 X10 R-4.99", "line 1: gcode: G3: arc radius 4.99 is less than half the chord (5)"},
		{"G3 X0 Y0 R5", "line 1: gcode: G3 with R ends where it starts (a full circle needs I J)"},
		{"G2 X1 R0", "line 1: gcode: G2 with radius R0"},
		{"G2 X10.03 I5", "line 1: gcode: arc radius differs at start (5) and end (5.03)"},
		{"G2 X10 Y0.5 I5 (within tolerance)\nG0 X0 Y0\nG2 X10 Y1 I5", "line 3: gcode: arc radius differs at start (5) and end (5.09902)"},
		{"G2 X20003 I10000", "line 1: gcode: arc radius differs at start (10000) and end (10003)"},
		{"G20 G2 X0.203 I0.1", "line 1: gcode: arc radius differs at start (2.54) and end (2.6162)"},
		{"G2 X5.1308 I2.54", "line 1: gcode: arc radius differs at start (2.54) and end (2.5908)"},
		{"G2 X0 Y0 I0.001", "line 1: gcode: G2: arc of zero radius (0.001 at the start, 0.001 at the end)"},
		{"G2 X2 I1 J0\nG2 X2.001 I-0.0005", "line 2: gcode: G2: arc of zero radius (0.0005 at the start, 0.0015 at the end)"},
		{"G90.1 G2 X1 I1", "line 1: gcode: G2: J missing with absolute arc centres (G90.1)"},
		{"G2 X1 I1 P0", "line 1: gcode: P0: the number of turns must be a whole number from 1 to 1000000"},
		{"G2 X1 I1 P1.5", "line 1: gcode: P1.5: the number of turns must be a whole number from 1 to 1000000"},
		{"G2 X1 I1 P1000001", "line 1: gcode: P1000001: the number of turns must be a whole number from 1 to 1000000"},

		// Numbers that do not fit.
		{"G20 G1 X" + big, "line 1: gcode: X" + big[:39] + "...: out of range in millimetres"},
		{"G20 F" + big, "line 1: gcode: F" + big[:39] + "...: out of range in millimetres"},
		{"G91 G1 X" + big + "0\nX" + big + "0", "line 2: gcode: X" + big[:39] + "...: the position is out of range"},
		{"G2 X" + big + "0 I-" + big + "0", "line 1: gcode: G2: the arc's centre or radius is out of range"},
		{"G0 X-" + big + "0\nG2 X" + big + "0 R" + big, "line 2: gcode: G2: arc radius 1e+307 is less than half the chord (+Inf)"},
	}
	for _, tc := range tests {
		for _, name := range []string{"part.nc", ""} {
			_, err := gcode.Read(strings.NewReader(tc.src), name, gcode.Options{Start: origin})
			want := tc.err
			if name != "" {
				want = name + ": " + want
			}
			var e *gcode.Error
			if err == nil || err.Error() != want || !errors.As(err, &e) || e.Line < 1 {
				t.Errorf("Read(%.60q):\n got %v\nwant %s", tc.src, err, want)
			}
		}
	}
	// With the start found by looking ahead.
	_, err := gcode.Read(strings.NewReader("G0 X0\nG90.1 G2 X10 I5 J0"), "part.nc", gcode.Options{})
	if want := "part.nc: line 2: gcode: G2: absolute centre (G90.1) with the start of Y unknown (give Y a value first, or set Options.Start)"; fmt.Sprint(err) != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
	if len(tests) < 25 {
		t.Errorf("only %d bad programs", len(tests))
	}
}
