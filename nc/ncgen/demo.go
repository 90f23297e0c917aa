package ncgen

import (
	"github.com/collide3d/collide/mesh"
)

// The built-in demo's part and path.
const (
	// DemoGrid is the demo part's grid: 2·(DemoGrid-1)² = 49,928
	// triangles.
	DemoGrid = 159
	// DemoSeed picks the demo's part (a bottle core) and its distorted
	// samples.
	DemoSeed = 0
	// DemoRadius is the demo tool's ball radius, in mm.
	DemoRadius = 3.0
	// DemoTool is the demo's tool: a 6 mm ball-end cutting 9.5 mm from the
	// tip, on a 10 mm shank 40 mm long, in a 32 mm holder. The flutes are
	// a little short for the bottle: at one sample beside its steep end
	// the shank, wider than the ball, touches it.
	DemoTool = "ball 6 9.5, shank 10 40, holder 32 30"
)

// demoOptions are the demo program's options.
var demoOptions = ZigZagOptions{
	Stepover:  4,
	Step:      1,
	Distort:   Distortion{Count: 6, Depth: 0.4},
	Seed:      DemoSeed,
	Arcs:      true,
	Numbers:   true,
	NoRetract: true,
}

// Demo returns collide nc's built-in demo: a bottle core (Mold(DemoGrid,
// DemoSeed), 49,928 triangles), a zig-zag finishing program for a 6 mm
// ball-end over it (rows 4 mm apart, samples 1 mm apart, rows linked by
// arcs, about 2,600 moves) with six samples lowered by 0.4 mm and a
// forgotten retract at the end (a rapid back across the part), and the
// tool's specification (DemoTool). Checked, it shows the gouges of the
// distorted samples and the many shallower ones of the chords between
// samples cutting across the bottle's convex bottom, shoulder, lip and
// bumps, the shank touching the bottle at one sample, and the rapid.
func Demo() (part *mesh.TriMesh, program string, tool string) {
	part, err := Mold(DemoGrid, DemoSeed)
	if err != nil {
		panic("ncgen: the demo's part: " + err.Error()) // cannot happen: the arguments are constants
	}
	return part, ZigZag(part, DemoRadius, demoOptions), DemoTool
}
