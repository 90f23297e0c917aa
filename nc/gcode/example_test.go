package gcode_test

import (
	"fmt"
	"strings"

	"github.com/collide3d/collide/nc/gcode"
)

func ExampleRead() {
	const prog = `%
(pocket corner, inches)
G20 G17 G90 G40 G49 G54
T2 M6
S12000 M3
G0 Z0.2
G0 X0 Y0
G1 Z-0.1 F20
G1 X1
G3 X1.5 Y0.5 R0.5   ; quarter turn, counter-clockwise
M30
%
`
	p, err := gcode.Read(strings.NewReader(prog), "corner.nc", gcode.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, m := range p.Moves {
		fmt.Printf("line %d %v %v -> %v feed %g tool %d\n", m.Line, m.Kind, m.From, m.To, m.Feed, m.Tool)
	}
	arc := p.Moves[4]
	mid := arc.At(0.5)
	c := arc.Center
	fmt.Printf("arc: centre (%.6g, %.6g, %.6g) radius %.6g sweep %.4f rad, midpoint (%.3f, %.3f, %.3f)\n",
		c.X, c.Y, c.Z, arc.Radius, arc.Sweep(), mid.X, mid.Y, mid.Z)
	fmt.Println("inches:", p.Inches, "tools:", p.Tools)

	_, err = gcode.Read(strings.NewReader("G0 X0 Y0\nG2 X10 Y0 I5.2\n"), "part.nc", gcode.Options{})
	fmt.Println(err)
	// Output:
	// line 6 G0 (0, 0, 5.08) -> (0, 0, 5.08) feed 0 tool 2
	// line 7 G0 (0, 0, 5.08) -> (0, 0, 5.08) feed 0 tool 2
	// line 8 G1 (0, 0, 5.08) -> (0, 0, -2.54) feed 508 tool 2
	// line 9 G1 (0, 0, -2.54) -> (25.4, 0, -2.54) feed 508 tool 2
	// line 10 G3 (25.4, 0, -2.54) -> (38.1, 12.7, -2.54) feed 508 tool 2
	// arc: centre (25.4, 12.7, -2.54) radius 12.7 sweep 1.5708 rad, midpoint (34.380, 3.720, -2.540)
	// inches: true tools: [2]
	// part.nc: line 2: gcode: arc radius differs at start (5.2) and end (4.8)
}
