package nc

import (
	"math"
	"slices"
	"testing"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh/gen"
	"github.com/collide3d/collide/nc/gcode"
)

// TestOracleFloat32Range compares the checker, every volume (k-DOP trees
// store theirs in float32, relative to the part's centre), with the
// brute-force oracle at the edges of float32's range: short moves of the
// tool's own size far out of float32's range of the part's frame (near
// 2^127, float32's largest value, 2^129, 10^300, on either side), and a
// part among float32's denormals ([0, 2^-140]³) under lines at its scale
// and at the tool's. (A part near 2^127 itself cannot be machined: a coordinate's ulp
// there, 2^75, dwarfs any tool, which nc bounds by 10^6.)
func TestOracleFloat32Range(t *testing.T) {
	o := Options{Tool: mustTool(t, testTools[0]), NoDetail: true}
	box := gen.Must(gen.Box(geom.AABB{Min: geom.V(10, 10, 0), Max: geom.V(30, 22, 9)}, 2))
	var far []gcode.Move
	for i, x := range []float64{0x1p127, math.MaxFloat32, 0x1p128, 0x1p129, 1e300, -0x1p128, -0x1p140} {
		from := geom.V(x, 15, 20)
		far = append(far, gcode.Move{Line: i + 1, Kind: gcode.Linear, From: from, To: from.Add(geom.V(3, 1, -25))})
	}
	// Then into the part from above, and along its top.
	in := []gcode.Move{
		{Line: 8, Kind: gcode.Rapid, From: geom.V(20, 15, 30), To: geom.V(20, 15, 12)},
		{Line: 9, Kind: gcode.Linear, From: geom.V(20, 15, 12), To: geom.V(20, 15, 8)},
		{Line: 10, Kind: gcode.Linear, From: geom.V(20, 15, 8), To: geom.V(25, 16, 8)},
	}
	const d = 0x1p-140
	tiny := gen.Must(gen.Box(geom.AABB{Max: geom.V(d, d, d)}, 2))
	// Lines over it: through it, above it (the ball end of radius 3
	// reaches it), far from it, and tiny ones on its scale.
	var small []gcode.Move
	for i, m := range [][2]geom.Vec3{
		{geom.V(-1, d/2, d/2), geom.V(1, d/3, d/4)},
		{geom.V(-1, 0, 2), geom.V(1, d, 2)},
		{geom.V(-1, 0, 20), geom.V(1, d, 20)},
		{geom.V(d/2, d/2, 2*d), geom.V(d/3, d/4, d/2)},
		{geom.V(3*d, d, 5*d), geom.V(2*d, 3*d, 4*d)},
	} {
		small = append(small, gcode.Move{Line: i + 1, Kind: gcode.Linear, From: m[0], To: m[1]})
	}
	for _, sc := range []struct {
		name  string
		part  *collide.Model
		moves []gcode.Move
	}{
		{"far", build(t, box, collide.Brute), append(far, in...)},
		{"denormals", build(t, tiny, collide.Brute), small},
	} {
		want := brute(t, sc.part, o, sc.moves)
		if len(want) == 0 {
			t.Fatalf("%s: no violation: the test tests nothing", sc.name)
		}
		for _, b := range collide.BVs() {
			if got := keys(check(t, build(t, sc.part.Mesh(), b), o, sc.moves)); !slices.Equal(got, want) {
				t.Errorf("%s %v: %d violations, the oracle %d\n got %v\nwant %v", sc.name, b, len(got), len(want), got, want)
			}
		}
	}
}
