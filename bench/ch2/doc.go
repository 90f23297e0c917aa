// Package ch2 rebuilds the study of Klosowski's dissertation, chapter 2
// (Held, Klosowski and Mitchell, "Evaluation of collision detection methods
// for virtual reality fly-throughs", CCCG 1995): four methods that check a
// flying object against an environment of obstacle triangles, stopping at
// the first contact, measured on the chapter's experiments beside
// collide's own BV-trees.
//
// The methods, each a Method over an Env (flat arrays, no allocation per
// query once warm), every one in two phases, a box phase that looks for an
// obstacle triangle whose box meets bb(F), the flying object's box (taken,
// as the chapter did, by hill climbing on the object's convex hull:
// Frame.Place), and a full-resolution phase of exact triangle tests
// (geom.TriTri) with the object's triangles moved (Frame.Full):
//
//   - Grid: the grid of boxes, N³ voxels listing the triangles that meet
//     them (exact triangle-box tests);
//   - KDTree: the k-d tree, midpoint cuts orthogonal to the axes,
//     triangles copied into every leaf they meet, a leaf threshold and a
//     gain threshold, four axis rules (AxisRule);
//   - RTree: the binary R-tree, boxes of the triangles split at the median
//     centroid, each triangle stored once;
//   - Mesh: the mesh (ray-shooting) method on a constrained Delaunay
//     tetrahedralization made by TetGen (Debian's tetgen, run as a
//     program; without it the mesh is left out and says so), located by
//     walking from the last query's tetrahedron and searched breadth
//     first;
//   - BVTree: collide's trees (18-DOPs, the default, and 6-DOPs).
//
// Run builds them on the chapter's environments (random BSP partitions of
// the unit cube filled with obstacles or tetrahedra, and height fields
// standing for its DEMs), flies four objects along billiard paths through
// each, checks every method's answer at every step, and scores them as the
// chapter did (wins, ties within 5%, and the weighted ranking), beside the
// dissertation's stated results. Its Report writes itself as markdown
// (`collide bench --ch2` writes it as ch2.md).
package ch2
