package collide

import "github.com/collide3d/collide/topo"

// Topology returns the topology of m's mesh (see package topo): its welded
// vertices and edges, whether it is manifold, closed, oriented, outward and
// convex, and what breaks each. It is computed the first time it is asked
// (about 1 s for 10^6 triangles, so that Build does not pay for it) and
// kept; Save saves it with the model, and a model ReadModel reads has it at
// once (checked as it was read), but one read from a file of an older
// format computes it when asked. Safe for concurrent use.
func (m *Model) Topology() *topo.Topology {
	m.topoOnce.Do(func() { m.topo = topo.Of(m.mesh); m.convex.topoKnown.Store(true) })
	return m.topo
}
