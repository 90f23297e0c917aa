package nc

import (
	"testing"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/nc/gcode"
)

// TestDepthInterval checks that a violation's depth interval holds the
// true depth of constructed gouges (floors and walls reaching into each
// kind of cutter by a known amount, from 0.4 mm down to 40 nm into a
// 200 mm face mill), and that MinDepth drops a violation only when the
// true depth is below it: one a little below the depth keeps it, one a
// little above drops it.
func TestDepthInterval(t *testing.T) {
	for _, tc := range []struct {
		name string
		tool string
		part func() *collide.Model
		move gcode.Move
		want float64
	}{
		{"face mill plunged 4e-5", "flat 200 10", func() *collide.Model { return build(t, floor(0), collide.KDOP18) },
			line(gcode.Linear, geom.V(0, 0, 5), geom.V(0, 0, -0.00004)), 0.00004},
		{"face mill plunged 3e-7", "flat 200 10", func() *collide.Model { return build(t, floor(0), collide.OBB) },
			line(gcode.Linear, geom.V(0, 0, 5), geom.V(0, 0, -3e-7)), 3e-7},
		{"ball 0.4 below the floor", "ball 6 10", func() *collide.Model { return build(t, floor(0), collide.AABB) },
			line(gcode.Linear, geom.V(-5, 0, -0.4), geom.V(5, 0, -0.4)), 0.4},
		{"ball 2e-5 below the floor", "ball 6 10", func() *collide.Model { return build(t, floor(0), collide.KDOP18) },
			line(gcode.Linear, geom.V(-5, 0, -2e-5), geom.V(5, 0, -2e-5)), 2e-5},
		{"flat end 1e-4 into a wall", "flat 6 10", func() *collide.Model { return build(t, wall(10, -5, 20), collide.KDOP18) },
			line(gcode.Linear, geom.V(7.0001, -5, 0), geom.V(7.0001, 5, 0)), 0.0001},
		{"bull nose 3e-5 below the floor", "bull 6 1 10", func() *collide.Model { return build(t, floor(0), collide.KDOP18) },
			line(gcode.Linear, geom.V(-5, 0, -3e-5), geom.V(5, 0, -3e-5)), 3e-5},
	} {
		part := tc.part()
		tool := mustTool(t, tc.tool)
		vs := check(t, part, Options{Tool: tool}, []gcode.Move{tc.move})
		if len(vs) != 1 {
			t.Errorf("%s: %d violations, want 1", tc.name, len(vs))
			continue
		}
		v := vs[0]
		// The true depth is tc.want up to the rounding of the positions.
		slack := 1e-12
		if !(v.Depth <= tc.want+slack && tc.want-slack <= v.DepthMax) {
			t.Errorf("%s: depth in [%g, %g], the true depth %g is not in it", tc.name, v.Depth, v.DepthMax, tc.want)
		}
		if v.DepthMax-v.Depth > 0x1p-9*v.DepthMax {
			t.Errorf("%s: depth in [%g, %g]: wider than 2^-9 of its top", tc.name, v.Depth, v.DepthMax)
		}
		for _, f := range []float64{0.25, 0.9, 1.1, 4} {
			d := tc.want * f
			got := check(t, part, Options{Tool: tool, MinDepth: d}, []gcode.Move{tc.move})
			if keep := f < 1; (len(got) == 1) != keep {
				t.Errorf("%s: MinDepth %g (true depth %g): %d violations, want kept %v", tc.name, d, tc.want, len(got), keep)
			}
			if len(got) == 1 && (got[0].Depth > tc.want+slack || got[0].DepthMax < tc.want-slack) {
				t.Errorf("%s: MinDepth %g: depth in [%g, %g], not holding %g", tc.name, d, got[0].Depth, got[0].DepthMax, tc.want)
			}
		}
	}
}
