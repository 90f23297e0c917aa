package collide

import (
	"fmt"

	"github.com/collide3d/collide/bvh"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh"
)

// ErrRefitVertices is wrapped by Refit's error when the new vertices do not
// fit the model: another count, or a coordinate that is not finite (the
// error names the vertex).
var ErrRefitVertices = bvh.ErrRefitVertices

// Refit returns a model of m's triangles at the vertices verts (one for
// each of m's mesh's vertices, in its order): a deforming mesh (cloth,
// a soft body, an animated character, an edit moving vertices) whose
// hierarchy is refitted instead of built again. The new model takes verts
// over (they must stay unchanged while it is in use, as a mesh given to
// Build must); m is unchanged.
//
// Refit makes a new model rather than changing m because models are
// immutable and shared: queries on other goroutines, worlds and the per-pair
// state of a Query or a world (keyed by the model) may hold m, and must never
// see its volumes half refitted. The new model shares m's triangles and the
// tree's shape and triangle order; it has its own vertices, volumes and
// caches. What m computed from its vertices (its topology, which welds and
// convexity depend on; its solid; its convex test's vertex set; flying
// views, see PrepareFlying) is not carried over: the new model computes it
// when asked.
//
// The new model answers every query exactly as a model built over the new
// vertices would (the volumes are refitted with Build's fits and rounding,
// see bvh.Tree.Refit), but its tree keeps the shape built for m's
// vertices, and loosens as the mesh deforms: RefitQuality measures that,
// and past about 2 a rebuild (Build) pays; see the README's "Refit:
// deforming meshes". Refit uses the available CPUs for large meshes.
func (m *Model) Refit(verts []geom.Vec3) (*Model, error) {
	if m == nil || m.mesh == nil {
		return nil, fmt.Errorf("collide: %w: Refit of a model that was not built", ErrInvalidQuery)
	}
	if m.tree == nil {
		nm := &mesh.TriMesh{Verts: verts, Tris: m.mesh.Tris}
		if len(verts) != len(m.mesh.Verts) {
			return nil, fmt.Errorf("collide: %w: %d vertices for a mesh of %d", ErrRefitVertices, len(verts), len(m.mesh.Verts))
		}
		for i, v := range verts {
			if !v.IsFinite() {
				return nil, fmt.Errorf("collide: %w: vertex %d: non-finite coordinate %v", ErrRefitVertices, i, v)
			}
		}
		md := newModel(nm, m.opts, nil)
		md.boxes = triangleBoxes(nm)
		return md, nil
	}
	t, err := m.tree.Refit(verts)
	if err != nil {
		return nil, fmt.Errorf("collide: %w", err)
	}
	return newModel(t.Mesh(), m.opts, t), nil
}

// RefitQuality returns how much looser m's hierarchy is than when it was
// built, if m was made by Refit (bvh.Tree.RefitQuality: 1 for a built
// model, growing as refits loosen the volumes; the query cost grows with
// it). Past about 2, rebuild. It costs a pass over a few thousand nodes.
func (m *Model) RefitQuality() float64 {
	if m == nil || m.tree == nil {
		return 1
	}
	return m.tree.RefitQuality()
}
