// Package bvh builds k-DOP bounding-volume trees over triangle meshes and
// tests two of them for contact: the QuickCD system of Klosowski, Held,
// Mitchell, Sowizral and Zikan ("Efficient collision detection using
// bounding volume hierarchies of k-DOPs", 1998, and Klosowski's
// dissertation).
//
// # Building
//
// Build makes a binary tree top down. Each triangle is represented by its
// centroid; a node is split by a plane orthogonal to x, y or z, chosen by
// the Rule (Splatter: largest variance of the centroids, the default;
// LongestSide; MinSum and MinMax, which compare the volumes of the candidate
// children's k-DOPs and build about twenty-five times slower), at the mean of the
// centroids (the default) or their median. Leaves hold at most
// Options.Leaf triangles (1 by default: a complete tree, as the papers use
// for environments). Large builds run on all CPUs.
//
// The nodes are one flat array in depth-first order. Each holds its k-DOP in
// float32 (or float64, Options.Float64), rounded outward, relative to the
// model's centre so that models far from the origin keep their precision,
// and one int32: the offset of the right child (the left one follows) or the
// leaf's triangle. An 18-DOP tree with one triangle per leaf takes 152 bytes
// per triangle; Tree.Validate checks every invariant of a tree exactly.
//
// # Querying
//
// Collide tests a flying tree, at a rigid pose, against an environment tree
// at the identity. It follows Algorithm 1 of the paper: descend the
// environment first, down to a leaf, then the flying tree; or, with
// QueryOptions.Restart, the variant that restarts the children of a flying
// node at the environment's root. It reports each pair of triangles in
// contact once (or stops at the first, or when the callback says so), and
// counts the k-DOP tests (Nv), triangle tests (Np) and node updates (Nu).
//
// A flying model's nodes are re-bounded in the environment's directions for
// each pose ("tumbling"), lazily, once per node per query, by transforming
// the vertices of the node's initial k-DOP (or its own mesh vertices, when
// fewer) and taking their k-DOP, padded by a proven bound on every rounding.
// Translations skip the vertices; QueryOptions.ExactRoot bounds the root by
// its exact k-DOP, hill climbing on the convex hull from the previous
// query's extreme vertices. When the tree flies, nodes of at most τ
// triangles act as leaves (Options.FlyLeaf, or the size rule FlyLeafFor).
//
// Contact is decided exactly by geom.TriTri (or, with a tolerance eps > 0,
// by geom.TriTriWithin, the flying k-DOPs padded by eps·|d| per direction);
// the k-DOP tests are conservative, so the answer is that of testing every
// pair.
//
// # Concurrency
//
// A Tree is immutable once built; any number of goroutines may query it at
// once. The per-query state lives in a Scratch, one per goroutine. A tree's
// flying view is built on the first query that flies it (or by
// PrepareFlying), under a lock.
package bvh
