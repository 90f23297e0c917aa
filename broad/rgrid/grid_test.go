package rgrid_test

import (
	"math"
	"slices"
	"testing"

	"github.com/collide3d/collide/broad/broadtest"
	"github.com/collide3d/collide/broad/rgrid"
	"github.com/collide3d/collide/bv"
	"github.com/collide3d/collide/geom"
)

func box(x0, y0, z0, x1, y1, z1 float64) geom.AABB {
	return geom.AABB{Min: geom.V(x0, y0, z0), Max: geom.V(x1, y1, z1)}
}

func cubeAt(c geom.Vec3, s float64) geom.AABB {
	h := geom.V(s/2, s/2, s/2)
	return geom.AABB{Min: c.Sub(h), Max: c.Add(h)}
}

// TestTermination: static sets on which CDFast's rule recurses forever
// (more than T boxes around one point at every scale), and the guard that
// stops each. Every case must build, pass Check, and report the right pair
// for a moving box at the crowded point.
func TestTermination(t *testing.T) {
	identical := func(n int) []geom.AABB {
		return slices.Repeat([]geom.AABB{box(0, 0, 0, 1, 1, 1)}, n)
	}
	var nested, corner, points, flat []geom.AABB
	for i := range 50 {
		nested = append(nested, cubeAt(geom.V(0.5, 0.5, 0.5), 1/float64(i+1)))
		points = append(points, box(0.5, 0.5, 0.5, 0.5, 0.5, 0.5))
		flat = append(flat, box(0, 0, 0.5, 1, 1, 0.5))
	}
	for i := range 8 {
		lo := geom.V(float64(i&1), float64(i>>1&1), float64(i>>2)).Scale(0.5)
		corner = append(corner, geom.AABB{Min: lo, Max: lo.Add(geom.V(0.5, 0.5, 0.5))}) // 8 octants sharing (0.5, 0.5, 0.5)
	}
	tests := []struct {
		name      string
		boxes     []geom.AABB
		opt       rgrid.Options
		maxDepth  int // the deepest level allowed
		maxCells  int
		wantState rgrid.State // of the leaf at (0.5, 0.5, 0.5)
		wantBoxes int         // boxes listed there
	}{
		// 50 identical boxes contain every cell: more than T of them
		// cover the root cells, which stay leaves.
		{"identical", identical(50), rgrid.Options{Threshold: 4}, 0, 64, rgrid.Full, 50},
		// The same with no depth limit to speak of.
		{"identical-deep", identical(50), rgrid.Options{Threshold: 4, MaxDepth: 1000}, 0, 64, rgrid.Full, 50},
		// Nested cubes: the centre cell is crowded at every depth; the
		// depth guard stops it.
		{"nested", nested, rgrid.Options{Threshold: 4, MaxDepth: 5}, 5, 1 << 16, rgrid.Full, 50},
		// Eight boxes meeting at one corner: only the cell holding the
		// corner is crowded (the octant box above it contains it: Full,
		// but one full box is not more than T), so the grid grows by 8
		// cells a level.
		{"corner-depth", corner, rgrid.Options{Threshold: 4, Root: 2, MaxDepth: 30}, 30, 8 + 30*8, rgrid.Full, 8},
		// The same stopped by MinCellSize (2^-10 of the unit extent).
		{"corner-mincell", corner, rgrid.Options{Threshold: 4, Root: 2, MaxDepth: 1000, MinCellSize: 0x1p-10}, 9, 8 + 9*8, rgrid.Full, 8},
		// ... by the default MinCellSize (2^-20 of the extent).
		{"corner-default-mincell", corner, rgrid.Options{Threshold: 4, Root: 2, MaxDepth: 1000}, 19, 8 + 19*8, rgrid.Full, 8},
		// ... by MaxCells.
		{"corner-maxcells", corner, rgrid.Options{Threshold: 4, Root: 2, MaxDepth: 1000, MinCellSize: 1e-300, MaxCells: 100}, 11, 100, rgrid.Full, 8},
		// ... with no size guard at all: the cells shrink to one ulp of
		// 0.5, where the boundaries of a split would coincide.
		{"corner-ulp", corner, rgrid.Options{Threshold: 4, Root: 2, MaxDepth: 5000, MinCellSize: math.SmallestNonzeroFloat64, MaxCells: 1 << 30}, 53, 8 + 53*8, rgrid.Full, 8},
		// 50 identical points: the root box is that point, one cell,
		// which cannot be cut, and which the points contain.
		{"points", points, rgrid.Options{Threshold: 4, MaxDepth: 1000}, 0, 1, rgrid.Full, 50},
		// 50 identical flat boxes: flat along z, cut along x and y only,
		// and each cell (flat along z, as the root) is covered.
		{"flat", flat, rgrid.Options{Threshold: 4, MaxDepth: 1000}, 0, 64, rgrid.Full, 50},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := rgrid.New(tc.opt)
			for i, b := range tc.boxes {
				p.Add(int32(i), b, true)
			}
			mover := int32(len(tc.boxes))
			p.Add(mover, box(0.5, 0.5, 0.5, 0.5, 0.5, 0.5), false)
			got, err := broadtest.Collect(p)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(tc.boxes) {
				t.Errorf("%d pairs, want %d", len(got), len(tc.boxes))
			}
			if err := p.Check(); err != nil {
				t.Fatal(err)
			}
			st := p.Stats()
			if st.Depth > tc.maxDepth || st.Cells > tc.maxCells {
				t.Errorf("depth %d, %d cells; want at most %d, %d", st.Depth, st.Cells, tc.maxDepth, tc.maxCells)
			}
			c, ok := p.Locate(geom.V(0.5, 0.5, 0.5))
			if !ok || c.State != tc.wantState || c.Boxes != tc.wantBoxes {
				t.Errorf("leaf at the centre: %+v, want %v with %d boxes", c, tc.wantState, tc.wantBoxes)
			}
			t.Logf("depth %d, %d cells, %d leaves over the threshold; centre %v", st.Depth, st.Cells, st.OverThreshold, c)
		})
	}
}

// TestCellStates: the state of each leaf on the paper's unit cube with a
// 4×4×4 root and no subdivision.
func TestCellStates(t *testing.T) {
	p := rgrid.New(rgrid.Options{Bounds: &unitCube, Root: 4, MaxDepth: -1})
	p.Add(0, box(0, 0, 0, 0.5, 0.5, 0.5), true) // contains cell (1,1,1) exactly
	p.Add(1, box(0.5, 0.5, 0.5, 1, 1, 1), true) // touches box 0 at a corner
	p.Add(2, box(0.26, 0.8, 0.8, 0.3, 0.9, 0.9), true)
	if err := p.Check(); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		at          geom.Vec3
		state       rgrid.State
		boxes, full int
	}{
		{geom.V(0.3, 0.3, 0.3), rgrid.Full, 1, 1},          // [0.25, 0.5)³, inside box 0
		{geom.V(0.1, 0.1, 0.1), rgrid.Full, 1, 1},          // [0, 0.25)³, inside box 0
		{geom.V(0.5, 0.5, 0.5), rgrid.Full, 2, 1},          // [0.5, 0.75)³: box 1 contains it, box 0 touches its corner
		{geom.V(0.49, 0.5, 0.5), rgrid.Partial, 1, 0},      // [0.25, 0.5)×[0.5, 0.75)²: box 0 at its faces y, z = 0.5; box 1 starts at x = 0.5, outside
		{geom.V(0.3, 0.85, 0.85), rgrid.Partial, 1, 0},     // box 2
		{geom.V(0.3, 0.85, 0.3), rgrid.Empty, 0, 0},        // nothing
		{geom.V(0.6, 0.6, 0.3), rgrid.Partial, 1, 0},       // [0.5, 0.75)²×[0.25, 0.5): box 0 along its edge x = y = 0.5
		{geom.V(-5, 0.3, 0.3), rgrid.Full, 1, 1},           // outside the root box: the nearest cell, [0, 0.25)×[0.25, 0.5)²
		{geom.V(0.3, 0.3, math.Inf(1)), rgrid.Empty, 0, 0}, // [0.25, 0.5)²×[0.75, 1]
	}
	for _, tc := range tests {
		c, ok := p.Locate(tc.at)
		if !ok || c.State != tc.state || c.Boxes != tc.boxes || c.Full != tc.full {
			t.Errorf("at %v: %+v, want %v with %d boxes, %d full", tc.at, c, tc.state, tc.boxes, tc.full)
		}
	}
	st := p.Stats()
	if st.Cells != 64 || st.Leaves != 64 || st.Depth != 0 || st.FullCells == 0 {
		t.Errorf("stats %+v", st)
	}

	// A moving box that reaches Full cells of box 0, one of them only at
	// its corner, is reported without a box test, and exactly.
	p.Add(10, box(0.1, 0.1, 0.1, 0.25, 0.25, 0.25), false)
	got, _ := broadtest.Collect(p)
	if want := []broadtest.Pair{{A: 0, B: 10}}; !slices.Equal(got, want) {
		t.Errorf("pairs %v, want %v", got, want)
	}
	if p.Stats().FullHits == 0 {
		t.Errorf("no Full hit")
	}
}

// TestFullShortcutSpheres: a sphere whose bounds reach a Full cell that the
// sphere itself misses must not be reported against the covering box, even
// when the boxes overlap; at the root (the cell filter says no) and below
// it, where the parent cell's test cannot decide (the sphere misses it by
// one ulp) and the sphere's bounds reach a single child.
func TestFullShortcutSpheres(t *testing.T) {
	tests := []struct {
		name   string
		opt    rgrid.Options
		static []geom.AABB
		mover  geom.AABB
		sph    bv.Sphere
		want   []broadtest.Pair
	}{
		{
			name:   "root",
			opt:    rgrid.Options{Bounds: &unitCube, Root: 4, MaxDepth: -1},
			static: []geom.AABB{box(0.25, 0.25, 0.25, 0.5, 0.5, 0.5)},
			mover:  box(0.1, 0.1, 0.1, 0.3, 0.3, 0.3),
			sph:    bv.Sphere{C: geom.V(0.1, 0.1, 0.1), R: 0.2}, // reaches cell 1 on each axis, 0.26 from the box
		},
		{
			name:   "root-touch",
			opt:    rgrid.Options{Bounds: &unitCube, Root: 4, MaxDepth: -1},
			static: []geom.AABB{box(0.25, 0.25, 0.25, 0.5, 0.5, 0.5)},
			mover:  box(0.1, 0.1, 0.1, 0.3, 0.3, 0.3),
			sph:    bv.Sphere{C: geom.V(0.25-3.0/64, 0.25-4.0/64, 0.3), R: 5.0 / 64}, // touches the box's edge
			want:   []broadtest.Pair{{A: 0, B: 2}},
		},
		{
			name: "child",
			opt:  rgrid.Options{Bounds: &unitCube, Root: 4, Threshold: 1},
			static: []geom.AABB{
				box(0.25, 0.25, 0.25, 0.375, 0.375, 0.375), // contains child (0,0,0) of cell (1,1,1)
				box(0.45, 0.45, 0.45, 0.46, 0.46, 0.46),    // makes cell (1,1,1) crowded
			},
			mover: box(0.2, 0.2, 0.2, 0.3, 0.3, 0.3),
			sph:   bv.Sphere{C: geom.V(0.25-1.0/64, 0.3, 0.3), R: math.Nextafter(1.0/64, 0)},
		},
		{
			name: "child-touch",
			opt:  rgrid.Options{Bounds: &unitCube, Root: 4, Threshold: 1},
			static: []geom.AABB{
				box(0.25, 0.25, 0.25, 0.375, 0.375, 0.375),
				box(0.45, 0.45, 0.45, 0.46, 0.46, 0.46),
			},
			mover: box(0.2, 0.2, 0.2, 0.3, 0.3, 0.3),
			sph:   bv.Sphere{C: geom.V(0.25-1.0/64, 0.3, 0.3), R: 1.0 / 64},
			want:  []broadtest.Pair{{A: 0, B: 2}},
		},
	}
	for _, tc := range tests {
		for _, linear := range []bool{false, true} {
			opt := tc.opt
			opt.LinearScan = linear
			p := rgrid.New(opt)
			for i, b := range tc.static {
				p.Add(int32(i), b, true)
			}
			p.Add(2, tc.mover, false)
			p.SetSpheres(2, []bv.Sphere{tc.sph})
			got, err := broadtest.Collect(p)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("%s (linear %v): pairs %v, want %v", tc.name, linear, got, tc.want)
			}
			if c, _ := p.Locate(geom.V(0.3, 0.3, 0.3)); c.State != rgrid.Full {
				t.Errorf("%s: the cell at (0.3, 0.3, 0.3) is %+v, want full", tc.name, c)
			}
		}
	}
}

// TestOutsideStatic: moving objects beyond the static bounds meet no static
// object but meet each other.
func TestOutsideStatic(t *testing.T) {
	p := rgrid.New(rgrid.Options{})
	p.Add(0, box(0, 0, 0, 1, 1, 1), true)
	p.Add(1, box(5, 5, 5, 6, 6, 6), false)
	p.Add(2, box(6, 6, 6, 7, 7, 7), false) // touches 1 at a corner
	p.Add(3, box(1, 1, 1, 2, 2, 2), false) // touches 0 at a corner
	got, _ := broadtest.Collect(p)
	if want := []broadtest.Pair{{A: 0, B: 3}, {A: 1, B: 2}}; !slices.Equal(got, want) {
		t.Errorf("pairs %v, want %v", got, want)
	}
	p.Move(2, box(7, 7, 7, 8, 8, 8))
	if got, _ := broadtest.Collect(p); len(got) != 0 {
		t.Errorf("pairs %v after moving apart", got)
	}
}

// TestSpheresDropOnMove: Move drops the spheres, which bounded the object
// at its old place; the box alone decides until SetSpheres.
func TestSpheresDropOnMove(t *testing.T) {
	p := rgrid.New(rgrid.Options{})
	p.Add(0, box(0, 0, 0, 1, 1, 1), true)
	p.Add(1, box(0.5, 0.5, 0.5, 2, 2, 2), false)
	p.SetSpheres(1, []bv.Sphere{{C: geom.V(1.9, 1.9, 1.9), R: 0.1}}) // misses box 0
	if got, _ := broadtest.Collect(p); len(got) != 0 {
		t.Fatalf("pairs %v with a sphere that misses", got)
	}
	p.Move(1, box(0.5, 0.5, 0.5, 2, 2, 2))
	if got, _ := broadtest.Collect(p); len(got) != 1 {
		t.Fatalf("pairs %v after Move without spheres, want the box pair", got)
	}
}
