package collide

import "github.com/collide3d/collide/geom"

// Contact is the geometry of one pair of triangles in contact
// (QueryOptions.Contacts): where and how they meet.
type Contact struct {
	Pair Pair
	// Kind is geom.Touch or geom.Cross (embedded).
	Kind geom.ContactKind
	// Points are the vertices of the shared point, segment or (coplanar
	// overlap) convex polygon, in the frame the query's poses place both
	// models in; each within Bound of the exact point, and Features says,
	// exactly, which feature of each triangle holds it.
	Points   []geom.Vec3
	Features [][2]geom.Feature
	// Normal is a unit vector from the environment's triangle towards the
	// flying model's (see geom.TriContact.Normal).
	Normal geom.Vec3
	Bound  float64
}

// Patch is a connected set of contacts: pairs whose shared sets are joined
// through the edges and vertices the triangles share (QueryOptions.Patches).
type Patch struct {
	// Contacts indexes Result.Contacts.
	Contacts []int
	// Curves are the intersection curves: polylines chained from the
	// contacts' segments, closed (first point repeated last) when they
	// close.
	Curves [][]geom.Vec3
	// Point is a representative point and Normal the patch's unit normal,
	// from the environment towards the flying model.
	Point, Normal geom.Vec3
	// Manifold holds at most 4 points of the patch, spread over it, for
	// simulators.
	Manifold []geom.Vec3
	// Depth, when DepthKnown, is a certified interval for the penetration
	// along Normal (filled by package depth for closed meshes).
	Depth      [2]float64
	DepthKnown bool
}
