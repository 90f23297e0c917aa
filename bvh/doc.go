// Package bvh builds bounding-volume trees over triangle meshes and tests
// two of them for contact. The core is the QuickCD system of Klosowski,
// Held, Mitchell, Sowizral and Zikan ("Efficient collision detection using
// bounding volume hierarchies of k-DOPs", 1998, and Klosowski's
// dissertation); the other kinds of tree (Options.Kind) are those the
// experiments compare it with, behind the same Build, Collide, Stats and
// save format.
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
// for environments). Large builds run on all CPUs. A k-DOP tree takes any
// direction set of package bv (Options.K: 6, 8, 12, 14, 18, the default, 20
// or 26); the dissertation's 8-, 12- and 20-DOPs have no axis slabs, so
// where a query reads a node's box (the early test of a flying model's
// ball, the wide layout's order, a refit's figure) it takes the box that
// bv.DOP.Box derives from the diagonals.
//
// Two designs of Klosowski's chapter 6 are options of k-DOP trees, off by
// default because they do not pay (collide bench --ch6 measures them):
// Options.SplitDirs splits along any of the k/2 directions rather than the
// axes, and Options.Oscillate builds the oscillating tree, each node's
// children regrouped from a split L levels deep by the Min Sum objective
// (Tree.Regroupings counts how often the plain split was kept). A Min Sum
// or Min Max build computes each volume once (two axes that split a small
// node alike share their score), the trees the same bit for bit
// (TestBuildUnchanged records their digests).
//
// Identical triangles (twins: the same nine coordinates, bit for bit, in the
// same order; stacked copies in a soup) would make every query on them
// quadratic, since no volume separates copies. Build finds them first (a
// radix sort of hashes, about 25 ms a million triangles on two cores) and
// the leaves hold one triangle of each group, the first; a query tests it
// once and reports the pair for every twin on either side, so that 5,000
// copies of a triangle near-missing 5,000 copies of another take one
// triangle test instead of 25 million. Stats.TriTests counts the tests
// made, so it may be smaller than the number of pairs reported; Node lists
// the triangles the leaves hold.
//
// The nodes are one flat array in depth-first order. Each holds its k-DOP in
// float32 (or float64, Options.Float64), rounded outward, relative to the
// model's centre so that models far from the origin keep their precision
// (a bound beyond float32's range is stored as its largest value where that
// still bounds, and as infinity otherwise: never +Inf for a lower bound),
// and one int32: the offset of the right child (the left one follows) or the
// leaf's triangle. An 18-DOP tree with one triangle per leaf takes 152 bytes
// per triangle; Tree.Validate checks every invariant of a tree exactly.
// Options.Compact stores the float32 bounds in 8 bits each instead, on a
// grid per block of 16 nodes, chosen so that each decoded bound still
// contains the float32 one (kind_dopc.go): 57 bytes per triangle for
// 18-DOPs, the queries a few percent slower.
//
// # Querying
//
// Collide tests a flying tree, at a rigid pose, against an environment tree
// of the same kind at the identity. Every kind runs one traversal
// (traverse.go): a simultaneous depth-first descent of the two trees, which
// asks the kind to test two volumes, to name a node's children, to choose
// which tree to descend and to test two leaves' triangles. For k-DOP trees
// it follows Algorithm 1 of the paper: descend the environment first, down
// to a leaf, then the flying tree; or, with QueryOptions.Restart, the
// variant that restarts the children of a flying node at the environment's
// root (for every kind). It reports each pair of triangles in contact once
// (or stops at the first, or when the callback says so), and counts the
// volume tests (Nv), triangle tests (Np) and node updates (Nu).
//
// Every query is a mode of that one traversal (mode.go lists them):
// Collide's first contact or all pairs, exact or within a tolerance, its
// restart variant, its fronts (Front) and budgets (Budget, Pending.Resume);
// Distance; TimeOfImpact's search for candidates; and Near. The mode is
// stored once in the query, the walk switches on it, and each mode's state
// lives with it.
// CollideMedium runs Collide's walk on two goroutines (Zachmann's medium
// grain): a budgeted walk, whose pairs left are shared by two resumed
// walks, each in its own Scratch.
//
// A flying model's nodes are re-bounded in the environment's directions for
// each pose ("tumbling"), lazily, once per node per query, by transforming
// the vertices of the node's initial k-DOP (or its own mesh vertices, when
// fewer) and taking their k-DOP, padded by a proven bound on every rounding.
// Translations skip the vertices; QueryOptions.ExactRoot bounds the root by
// its exact k-DOP, hill climbing on the convex hull (package hull) from the
// previous query's extreme vertices, which a PairState keeps. When the tree
// flies, nodes of at most τ
// triangles act as leaves (Options.FlyLeaf, or the size rule FlyLeafFor).
//
// A first-contact query with a PairState tests first the pair of triangles
// the pair's last first-contact query found (one triangle test when the
// pose moved little), and the kinds of moved volumes descend first the
// environment child whose centre is nearer the flying node's.
//
// Contact is decided exactly by geom.TriTri (or, with a tolerance eps > 0,
// by geom.TriTriWithin, the flying k-DOPs padded by eps·|d| per direction);
// the k-DOP tests are conservative, so the answer is that of testing every
// pair.
//
// Tree.Refit makes a tree of the same shape over new positions of the
// mesh's vertices (a deforming mesh), its volumes computed again bottom up
// as Build computes them (refit.go says how for each kind), so that it is
// as sound as a built one; Tree.RefitQuality says how much looser it has
// grown than the tree first built.
//
// Tree.Edit makes a tree with triangles deleted and inserted (a changing
// environment): the deleted ones removed from their leaves, the inserted
// ones placed as an R-tree places them and built by the kind's builder
// where they gather, the changed volumes computed again as Build computes
// them and the changed subtrees rebuilt past a height bound (edit.go says
// how, and how triangles are renumbered).
//
// # Other kinds of tree
//
// OBB trees (Gottschalk, Lin and Manocha, "OBBTree", 1996) bound each node
// by a box oriented by the eigenvectors of the covariance of the surface of
// the convex hull of its triangles (bv.FitOBBHull of the node's distinct
// vertices; below 1024 triangles, bv.FitOBB by the surface of the
// triangles themselves, as RAPID and PQP do at every
// node: see obbHullMin), split at the mean of the
// centroids along the box axis the Rule picks (Splatter: the axis of
// largest variance; LongestSide: the paper's longest axis; RAPID: RAPID's
// principal axis at the area-weighted mean, halving by count when that
// fails). Sphere trees bound nodes by near-minimal spheres (bv.BoundingSphere);
// AABB trees by boxes aligned with the model's axes; RSS trees (Larsen,
// Gottschalk, Lin and Manocha, PQP) by rectangle swept spheres (bv.FitRSSBy,
// oriented as OBBs),
// tested by the distance of their rectangles (bv.RSSDisjoint). These four
// store their volumes in float64, in model coordinates, for the internal
// nodes only, each with its children (OPCODE's "no-leaf" trees: a leaf's
// triangles are tested against the other tree's volume directly, so a
// leaf needs no volume, and a tree takes half the memory): a query moves a flying
// node's volume with the pose (its centre, and its axes for an OBB or RSS:
// Nu counts these) and tests it against the environment's with the 15-axis
// separating-axis test (bv.OBBDisjoint), the sphere test or the rectangle
// distance, with no re-bounding. The traversal descends both trees together, the larger
// volume first, as RAPID does.
//
// AABB and k-DOP environments have a wide layout (wide.go, wide_dop.go):
// the binary tree collapsed into nodes of up to four (or eight) children
// whose volumes are stored structure-of-arrays (the binary tree's, bit for
// bit), a flying volume tested against all of a node's children at once,
// without a branch over them, in Collide's walk from the roots
// (modeContact). It measured no faster than the binary walk, in more
// memory, and is off (see wideWidth); the conformance tests run it.
//
// Box-trees (Zachmann, "Exact and fast collision detection", 1994) store a
// cut per node instead of a volume: see the comments on boxTree. A triangle
// crossing a cut goes to both children, so a pair may meet in several leaf
// pairs; the query reports it once.
//
// Every test is padded by a proven bound on its rounding (and on how far
// the pose's rotation is from orthonormal), so every kind finds exactly the
// pairs of testing every pair. Trees of different kinds do not fly against
// each other: Tree.As builds, when asked, a tree of another kind over the
// same mesh. Tree.Spheres gives any tree's spheres at levels of detail.
//
// # Adding a kind
//
// A kind is one file, kind_name.go, holding everything that is the
// kind's: its node array (the impl interface of kinds.go); its query type
// implementing pairOps (traverse.go), with the volume test (overlap) and,
// next to it, the separation (sep) that gives the same verdict with a
// lower bound on the distance, and after it the Euclidean bound of the
// distance search (lowerBound, see sep.go), its leaf tests and ready; a
// //specialize:copy line naming the query type, from which go generate
// copies the traversal for the kind, and a //specialize:case line naming
// its node array's type and the call that runs its query, from which it
// writes Collide's switch (traverse_gen.go); its cost probes; its save
// layout and its read checks.
// A kind of volumes stored in model coordinates and moved with the pose
// is a vtree[V] with a volKind[V] (vtree.go): the node array, builder,
// query (moveQuery), save layout and checks of the moved-volume kinds are
// shared (vtree*.go), and the kind's file gives its volume's fit, test,
// separation, numbers and containment. The k-DOP kind is large enough for
// six files, kind_dop*.go (node array and query; save and checks;
// builder; flying view and tumbling; the compact layout's node array and
// query, and its save and checks).
//
// Then the kind takes:
//
//  1. its row in the table kinds (kinds.go), and its Kind constant
//     (options.go);
//  2. its node layout in the format's table (Magic), if its trees are saved;
//  3. its configurations in the conformance suite (configs, bvh_test.go);
//  4. go generate ./bvh.
//
// TestToyKind (toykind_test.go) adds a kind so from a test file, its row
// registered (registerKind) rather than written in the table, and checks
// it against brute force with Build, Validate, WriteTo, Read and As. A
// kind of a test file gets no copy of the walk and no case in Collide's
// switch (go generate reads the package's own files): its queries run
// the generic traversal (run) from its own code, and Collide panics on
// its trees. A kind that package collide offers also takes a row in the
// root's table of bounding volumes.
//
// # Concurrency
//
// A Tree is immutable once built; any number of goroutines may query it at
// once. The per-query state lives in a Scratch, one per goroutine; what a
// pair of models keeps between queries, in a PairState. A k-DOP tree's
// flying view is built on the first query that flies it (or ahead of time
// by PrepareFlying or Scratch.Prepare, which also sizes the scratch for a
// pair of trees), under a lock; FlyingBytes reports its memory.
package bvh
