package source

import (
	"fmt"

	"github.com/collide3d/collide"
)

// HasTriangles returns an error naming s if its mesh has no triangle:
// there is nothing to test or build.
func (s *Source) HasTriangles() error {
	if len(s.Mesh.Tris) == 0 {
		return fmt.Errorf("%s: the model has no triangles", s.Arg)
	}
	return nil
}

// AgreeBV returns the *UsageError of asking explicitly for the bounding
// volume bv of s when s is a saved model of another volume: a saved model
// keeps the volume it was built with (the command line's --bv, the C
// library's bv argument).
func (s *Source) AgreeBV(bv collide.BV) error {
	if s.Saved == nil || bv == s.Saved.BV() {
		return nil
	}
	return usagef("--bv %s: %s is a saved %s model (omit --bv, or rebuild it with 'collide build --bv %s')", bv, s.Arg, s.Saved.BV(), bv)
}
