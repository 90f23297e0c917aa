// Package collide is exact, fast collision detection between polygonal
// models: load a mesh, build a model once, and ask, at any rigid pose, whether
// it touches another model and which triangle pairs touch.
//
// # Semantics
//
// Models are triangle soups (see package mesh). Triangles are closed point
// sets: two triangles are in contact iff they share a point, so touching at a
// vertex or along an edge counts, and so does coplanar overlap; a degenerate
// triangle is the segment or point it is. With eps = 0 the answer is exact for
// the float64 coordinates, after the pose has been applied in float64 (see
// package geom). With eps > 0 a pair is reported when its distance is at most
// eps.
//
// A report names triangles by their index in their model (Pair.Env,
// Pair.Fly). In first-contact mode a query stops at the first pair found; in
// all-pairs mode it reports every pair exactly once, in ascending order.
//
// # Models and queries
//
// Build makes a Model from a mesh: by default a tree of 18-DOPs (QuickCD's
// choice); BuildOptions choose k (kdop6, kdop14, kdop18, kdop26), the
// splitting rule and point, the leaf sizes, or the brute-force model, the
// oracle. Check tests one model, at a pose, against another at the
// identity; Query.Check does the same with reusable scratch state and
// allocates nothing once warm; Query.Each streams the pairs to a callback
// that can stop early. Model.Save and LoadModel store and load a built
// model with its mesh.
//
// # Packages
//
//   - geom: vectors, poses, boxes, exact predicates, the triangle-triangle test
//   - mesh: TriMesh and Load; mesh/obj, mesh/stl, mesh/ply, mesh/off codecs
//   - mesh/gen: deterministic mesh generators
//   - bv: k-DOPs (fitting, overlap, vertices, volume) and convex hulls
//   - bvh: k-DOP trees: build, tumble, traverse, save and load
//
// # Concurrency
//
// A built Model is immutable: any number of goroutines may query it at once,
// through Check (which takes its scratch state from a pool) or through one
// Query per goroutine. The first query that flies a model prepares its
// flying view (about a tenth of the build's work), under a lock.
package collide
