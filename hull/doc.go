// Package hull computes the convex hull of a point set in ℝ³, exactly, and
// finds its vertex extreme in a direction by hill climbing on it.
//
// # Construction
//
// New builds the hull by randomized incremental construction in expected
// O(n log n) time: the points are inserted in a fixed pseudo-random order,
// so the result is deterministic, with rounds of it sorted along a
// space-filling curve for locality (a biased randomized insertion order),
// each pending point remembering one face it sees. Every topological decision is
// taken with the exact predicates geom.Orient3D and geom.Orient2D, so
// duplicates, coplanar and collinear points, and coordinates from 1e-300 to
// 1e300 in one set are handled without tolerance. Points with a NaN or
// infinite coordinate are ignored.
//
// A Hull keeps the vertices (the extreme points only: a point inside a face
// or an edge of the polytope is not a vertex) and the graph of the edges of
// the polytope. Flat sets give the convex polygon, collinear sets the
// segment between the two extreme points, a single point one vertex, the
// empty set none; Dim tells which. NewTriangulated also returns the boundary
// of a solid hull as outward triangles, for integrals over the surface (the
// covariance of bv.FitOBB's FitHull mode).
//
// # Hill climbing
//
// Extreme walks from a start vertex along the edges, always to a neighbour
// strictly further along the direction, and stops at a vertex that
// maximises it: on the edge graph of a convex polytope a linear function
// has no other local maximum. Each comparison is exact: a float estimate
// decides when it exceeds a proven bound on its rounding error, and an
// exact fallback the rest (products split by fused multiply-add into a
// nonoverlapping expansion, or math/big at the ends of the float64 range),
// so ties and rounding neither stop the climb early nor send it round in
// circles. Started from the previous answer while the direction turns
// slowly, it takes a few moves: that is how bv.HullDOP keeps the k-DOP of a
// rotating body up to date (Klosowski et al., QuickCD).
//
// hull imports only geom, internal/exact and the standard library; bv
// builds on it.
package hull
