package nc_test

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh/gen"
	"github.com/collide3d/collide/nc"
	"github.com/collide3d/collide/nc/gcode"
)

// A ball-end mill crosses a block: the pass at the block's top height
// touches it (contact is closed), the pass a millimetre lower cuts into
// it, and a rapid down across it crashes into the stock and the part.
func ExampleChecker_Check() {
	block := gen.Must(gen.Box(geom.AABB{Min: geom.V(0, 0, 0), Max: geom.V(20, 20, 10)}, 1))
	part, _ := collide.Build(block, collide.BuildOptions{})
	tool, _ := nc.ParseTool("ball 6 20, shank 6 30, holder 20 40")
	stock := geom.AABB{Min: geom.V(-5, -5, 0), Max: geom.V(25, 25, 12)}
	c, _ := nc.New(part, nc.Options{Tool: tool, Stock: &stock})
	program := `G21 G90 G17
G0 X-10 Y10 Z20
G1 Z10 F500
G1 X30
G1 Z9
G1 X-10
G0 Z20
G0 X30 Z5`
	p, _ := gcode.Read(strings.NewReader(program), "demo.nc", gcode.Options{})
	sum, _ := c.Check(p, func(v nc.Violation) bool {
		fmt.Printf("line %d: %v (%v into the %v) at s %.3f..%.3f, depth %.3g\n", v.Line, v.Kind, v.Role, v.Target, v.S0, v.S1, v.Depth)
		return true
	})
	fmt.Printf("%d moves, %d violations\n", sum.Checked, sum.Violations)
	// Output:
	// line 4: gouge (cutter into the part) at s 0.250..0.750, depth 0
	// line 6: gouge (cutter into the part) at s 0.194..0.806, depth 1
	// line 8: rapid (cutter into the part) at s 0.667..0.823, depth 1.36
	// line 8: rapid (cutter into the stock) at s 0.533..0.950, depth 3
	// 6 moves, 4 violations
}

// A budget per move cuts a move short rather than let it stall the
// check: the moves it cuts are named, and nothing is reported that is
// not proved.
func ExampleMoveBudget() {
	block := gen.Must(gen.Box(geom.AABB{Min: geom.V(0, 0, 0), Max: geom.V(20, 20, 10)}, 1))
	part, _ := collide.Build(block, collide.BuildOptions{})
	tool, _ := nc.ParseTool("ball 6 20, shank 6 30")
	c, _ := nc.New(part, nc.Options{Tool: tool, MoveBudget: nc.MoveBudget{Tests: 40}})
	program := `G21 G90 G17
G0 X-10 Y10 Z20
G1 Z9 F500
G1 X30
G0 Z20`
	p, _ := gcode.Read(strings.NewReader(program), "demo.nc", gcode.Options{})
	sum, _ := c.Check(p, func(v nc.Violation) bool {
		fmt.Printf("line %d: %v, detail stopped %v\n", v.Line, v.Kind, v.Stopped)
		return true
	})
	fmt.Printf("%d moves checked, %d cut short (lines %v)\n", sum.Checked, sum.Unfinished, sum.UnfinishedLines)
	// Output:
	// line 4: gouge, detail stopped true
	// 2 moves checked, 1 cut short (lines [4])
}

// A check stopped by its context (cancelled here by the first violation,
// as a user's Ctrl-C would) returns what it checked and an error that
// says why.
func ExampleChecker_CheckContext() {
	block := gen.Must(gen.Box(geom.AABB{Min: geom.V(0, 0, 0), Max: geom.V(20, 20, 10)}, 1))
	part, _ := collide.Build(block, collide.BuildOptions{})
	tool, _ := nc.ParseTool("ball 6 20, shank 6 30")
	c, _ := nc.New(part, nc.Options{Tool: tool})
	program := `G21 G90 G17
G0 X-10 Y10 Z20
G1 Z9 F500
G1 X30
G1 Y15
G1 X-10
G0 Z20`
	p, _ := gcode.Read(strings.NewReader(program), "demo.nc", gcode.Options{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sum, err := c.CheckContext(ctx, p, func(v nc.Violation) bool {
		fmt.Printf("line %d: %v\n", v.Line, v.Kind)
		cancel()
		return true
	})
	fmt.Println(errors.Is(err, context.Canceled), err)
	fmt.Printf("%d of %d moves read: %d checked, %d cut short (lines %v)\n", sum.Reached, sum.Moves, sum.Checked, sum.Unfinished, sum.UnfinishedLines)
	// Output:
	// line 4: gouge
	// true nc: demo.nc: the check stopped after reading 3 moves: context canceled
	// 3 of 6 moves read: 2 checked, 0 cut short (lines [])
}

// With Options.Solid the part is the solid its closed surface bounds: a
// pass entirely inside it, touching none of its faces, is a gouge
// (Violation.Inside), which a check of the surface does not see.
func ExampleOptions_solid() {
	block := gen.Must(gen.Box(geom.AABB{Min: geom.V(0, 0, 0), Max: geom.V(40, 40, 30)}, 1))
	part, _ := collide.Build(block, collide.BuildOptions{})
	tool, _ := nc.ParseTool("ball 6 10, shank 6 10")
	program := `G0 X20 Y20 Z35
G1 Z5 F500
G1 X25
G1 Y25`
	p, _ := gcode.Read(strings.NewReader(program), "inside.nc", gcode.Options{})
	for _, solid := range []bool{false, true} {
		c, err := nc.New(part, nc.Options{Tool: tool, Solid: solid})
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("solid %v:\n", solid)
		c.Check(p, func(v nc.Violation) bool {
			fmt.Printf("  line %d: %v (%v into the %v), %d triangles, inside %v, depth %g\n", v.Line, v.Kind, v.Role, v.Target, len(v.Tris), v.Inside, v.Depth)
			return true
		})
	}
	// Output:
	// solid false:
	//   line 2: gouge (cutter into the part), 2 triangles, inside false, depth 3
	//   line 2: shank (shank into the part), 2 triangles, inside false, depth 3
	// solid true:
	//   line 2: gouge (cutter into the part), 2 triangles, inside false, depth 3
	//   line 2: shank (shank into the part), 2 triangles, inside false, depth 3
	//   line 3: gouge (cutter into the part), 0 triangles, inside true, depth 3
	//   line 3: shank (shank into the part), 0 triangles, inside true, depth 3
	//   line 4: gouge (cutter into the part), 0 triangles, inside true, depth 3
	//   line 4: shank (shank into the part), 0 triangles, inside true, depth 3
}
