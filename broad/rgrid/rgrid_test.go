package rgrid_test

import (
	"testing"

	"github.com/collide3d/collide/broad"
	"github.com/collide3d/collide/broad/broadtest"
	"github.com/collide3d/collide/broad/rgrid"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/internal/longtest"
)

func TestConformance(t *testing.T) {
	broadtest.Run(t, func() broad.Phase { return rgrid.New(rgrid.Options{}) })
}

// checked runs Check after every Pairs that built the grid.
type checked struct {
	*rgrid.Phase
	t *testing.T
}

func (c checked) Pairs(fn func(a, b int32) bool) {
	n := c.Stats().Builds
	c.Phase.Pairs(fn)
	if c.Stats().Builds == n {
		return
	}
	if err := c.Check(); err != nil {
		c.t.Fatal(err)
	}
}

var unitCube = geom.AABB{Max: geom.V(1, 1, 1)}

// optionSets are the configurations every scene runs with: the defaults,
// the linear scan, deep and shallow trees, every guard, the paper's unit
// cube as bounds (the scenes go far beyond it).
var optionSets = []struct {
	name string
	opt  rgrid.Options
}{
	{"default", rgrid.Options{}},
	{"linear", rgrid.Options{LinearScan: true}},
	{"deep", rgrid.Options{Threshold: 1, MaxDepth: 12, Split: 3}},
	{"root1", rgrid.Options{Root: 1, Threshold: 2}},
	{"flat", rgrid.Options{MaxDepth: -1, Root: 40}},
	{"unitcube", rgrid.Options{Bounds: &unitCube, Threshold: 2, Root: 3}},
	{"maxcells", rgrid.Options{Threshold: 1, MaxDepth: 30, MaxCells: 300}},
	{"mincell", rgrid.Options{Threshold: 1, MaxDepth: 30, MinCellSize: 2}},
	{"linear-deep", rgrid.Options{LinearScan: true, Threshold: 1, MaxDepth: 8, MaxCells: 20000}},
}

// TestConformanceOptions plays broadtest's scenes (but the 10^5 one) with
// every option set, checking the grid's invariants after every step, from
// one seed (two with COLLIDE_LONG_TESTS=1).
func TestConformanceOptions(t *testing.T) {
	for _, os := range optionSets {
		t.Run(os.name, func(t *testing.T) {
			for _, sc := range broadtest.Scenes() {
				if sc.Big {
					continue
				}
				t.Run(sc.Name, func(t *testing.T) {
					for seed := range uint64(longtest.Pick(1, 2)) {
						broadtest.RunScene(t, sc, seed+10, checked{rgrid.New(os.opt), t})
					}
				})
			}
			broadtest.EarlyStop(t, rgrid.New(os.opt))
		})
	}
}
