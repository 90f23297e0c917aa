package collide

import (
	"fmt"

	"github.com/collide3d/collide/bvh"
	"github.com/collide3d/collide/geom"
)

// Edit is a change of a model's triangles (Model.Edit): the triangles to
// delete, by their indices in the model, and the triangles to insert, by
// their corners.
type Edit struct {
	Insert []geom.Triangle
	Delete []int32
}

// ErrEdit is wrapped by Model.Edit's error for an edit that cannot be made:
// a deleted index out of range or given twice, an inserted triangle with a
// coordinate that is not finite, or no triangle left. The error names the
// offending triangle (delete j, insert j).
var ErrEdit = bvh.ErrEdit

// Renumber returns the map of e applied to a model of n triangles: the new
// index of each old triangle, -1 for a deleted one. The survivors keep
// their order (a triangle's index drops by the number of deleted ones
// before it) and the inserted ones follow, in e.Insert's order: without
// deletions, the old indices stay and the inserted triangles take the next
// ones. An error wraps ErrEdit as Model.Edit's does.
func (e Edit) Renumber(n int) ([]int32, error) {
	return bvh.EditMap(n, e.Delete)
}

// Edit returns a model of m's triangles with e.Delete deleted and e.Insert
// inserted (a changing environment: a part removed, added or replaced);
// m is unchanged. The triangles are renumbered as Edit.Renumber says, and
// a deleted triangle is never reported: the new model is a model of its
// mesh (Mesh: the survivors' vertices in their order, then three for each
// inserted triangle) like any other, which it answers every query about
// exactly, and which it saves.
//
// Edit makes a new model rather than changing m because models are
// immutable and shared: queries on other goroutines, worlds and the
// per-pair state of a Query or a world (a Front, a PairState: keyed by the
// model, so that held against m they start afresh with the new model) may
// hold m, and never see a half-changed hierarchy. The new model's
// hierarchy is m's edited (bvh.Tree.Edit): the deleted triangles removed
// from their leaves, the inserted ones placed as in an R-tree, the
// changed volumes computed again exactly and the changed subtrees
// rebuilt where they grow too deep; it copies the node arrays, so an edit
// costs a pass over them however small it is (see the README's "Editing
// a model"). What m computed from its triangles (its topology, solid,
// convex test's vertex set, flying views) is not carried over: the new
// model computes it when asked.
//
// An edited hierarchy is looser than a built one: EditQuality measures
// how much, and past the threshold the README gives, a rebuild (Build of
// Mesh) pays.
func (m *Model) Edit(e Edit) (*Model, error) {
	if m == nil || m.mesh == nil {
		return nil, fmt.Errorf("collide: %w: Edit of a model that was not built", ErrInvalidQuery)
	}
	if m.tree == nil {
		nm, _, err := bvh.EditMesh(m.mesh, e.Insert, e.Delete)
		if err != nil {
			return nil, fmt.Errorf("collide: %w", err)
		}
		md := newModel(nm, m.opts, nil)
		md.boxes = triangleBoxes(nm)
		return md, nil
	}
	t, _, err := m.tree.Edit(e.Insert, e.Delete)
	if err != nil {
		return nil, fmt.Errorf("collide: %w", err)
	}
	return newModel(t.Mesh(), m.opts, t), nil
}

// EditQuality returns how much looser m's hierarchy is than the one it
// was edited (or refitted) from was when built: bvh.Tree.RefitQuality, 1
// for a built model. Past the README's threshold, rebuild.
func (m *Model) EditQuality() float64 { return m.RefitQuality() }
