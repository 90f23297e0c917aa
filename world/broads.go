package world

import (
	"fmt"
	"slices"

	"github.com/collide3d/collide/broad"
	"github.com/collide3d/collide/broad/dbvt"
	"github.com/collide3d/collide/broad/dopsap"
	"github.com/collide3d/collide/broad/grid"
	"github.com/collide3d/collide/broad/octree"
	"github.com/collide3d/collide/broad/rgrid"
	"github.com/collide3d/collide/broad/sap"
)

// broads is the table of broad phases by name.
var broads = map[string]func() broad.Phase{
	"brute":  func() broad.Phase { return broad.NewBrute() },
	"sap":    func() broad.Phase { return sap.New() },
	"octree": func() broad.Phase { return octree.New() },
	"grid":   func() broad.Phase { return grid.New(nil) },
	"dbvt":   func() broad.Phase { return dbvt.New() },
	"rgrid":  func() broad.Phase { return rgrid.New(rgrid.Options{}) },
	"dopsap": func() broad.Phase { return dopsap.New(0) },
}

// defaultBroadName is the broad phase of Options.Broad = nil.
const defaultBroadName = "grid"

func defaultBroad() broad.Phase { return broads[defaultBroadName]() }

// BroadPhases returns the names of the broad phases NewBroad knows, sorted.
func BroadPhases() []string {
	var names []string
	for n := range broads {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// DefaultBroad is the name of the default broad phase.
func DefaultBroad() string { return defaultBroadName }

// NewBroad returns the constructor of the broad phase of that name (see
// BroadPhases), for Options.Broad.
func NewBroad(name string) (func() broad.Phase, error) {
	if f, ok := broads[name]; ok {
		return f, nil
	}
	return nil, fmt.Errorf("world: unknown broad phase %q (known: %v)", name, BroadPhases())
}
