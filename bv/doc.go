// Package bv holds bounding volumes: k-DOPs (discrete orientation polytopes)
// for k = 6, 8, 12, 14, 18, 20 and 26, with the fixed directions of
// Klosowski et al.;
// oriented boxes; and spheres. It fits them to points and triangles, tests
// them for overlap and measures them. The convex hull that some of the fits
// work on is package hull's.
//
// # k-DOPs
//
// A k-DOP is the intersection of k/2 slabs lo ≤ d·x ≤ hi, one per fixed
// direction d. The directions have integer coordinates in {-1, 0, 1} and are
// not normalised, so a projection needs additions only:
//
//   - 6-DOP: the axes x, y, z (an axis-aligned box)
//   - 14-DOP: the axes and the 4 corner diagonals (1,1,1), (1,-1,1), (1,1,-1), (1,-1,-1)
//   - 18-DOP: the axes and the 6 edge diagonals (1,1,0), (1,0,1), (0,1,1), (1,-1,0), (1,0,-1), (0,1,-1)
//   - 26-DOP: all 13
//   - 8-DOP: the 4 corner diagonals only
//   - 12-DOP: the 6 edge diagonals only
//   - 20-DOP: the corner and the edge diagonals, without the axes
//
// The 8-, 12- and 20-DOPs are those of Klosowski's dissertation (Chapter 6):
// the 14-, 18- and 26-DOPs without the 6 planes of the box. The text that
// survives names them so; their directions are reconstructed from it, not
// quoted. Without the axes, a DOP's axis-aligned box is not among its slabs:
// Box derives it from pairs of diagonals, x = ((1,1,1) + (1,−1,−1))/2 and the
// like, rounded outward, and everything here that needs a box around a
// k-DOP (Vertices, Volume, the padding of Fit and Translated) uses it.
//
// DOP is the general form, in float64, used to fit, combine and measure
// k-DOPs. Its bounds are conservative: Fit rounds outward, so the DOP of a
// point set contains every point exactly, whatever the rounding of the
// projections. Overlaps is the k/2-interval test of the papers: it never
// misses an intersection, and it is exact for k = 6 only (two k-DOPs can
// overlap on every slab and still be disjoint).
//
// Slabs is the compact storage form used in trees: the k bounds of one k-DOP
// interleaved (lo, hi per slab) in an array whose length is k, in float32 or
// float64, so that the overlap loop is specialised for each k by the compiler.
// Pack converts a DOP to it, rounding outward.
//
// HullDOP bounds a rotated point set by the k-DOP of its convex hull (a
// hull.Hull) under the pose, found by hill climbing (QuickCD's exact
// bounding volume for the root of a flying model): per slab side,
// hull.Hull.Extreme climbs from the extreme vertex of the previous call,
// kept in a ClimbState, so that a slowly rotating body costs a few vertex
// moves per slab. The result is padded by a proven bound so that it
// contains every point exactly; HullDOPBrute, which projects every vertex,
// is its reference.
//
// # Oriented boxes
//
// OBB is the oriented box of the OBBTree (Gottschalk, Lin and Manocha; RAPID):
// a centre, three orthonormal right-handed axes (the rows of Axes) and three
// half-extents. FitOBB takes the axes from the eigenvectors (SymEigen, cyclic
// Jacobi) of a covariance matrix: of the surface of the convex hull of the
// corners (FitHull, the paper's method, on the triangles of
// hull.NewTriangulated), of the triangles' own surface, area-weighted
// (FitSurface, RAPID's), or of the corners (FitVertices). The
// extents come from the extreme corners, padded so that every corner lies in
// the box exactly, whatever the rounding. OBBDisjoint is the 15-axis
// separating-axis test, with box B given in A's frame (R, |R|, T) and a
// caller's margin pad; it allocates nothing and calls no function.
//
// # Spheres
//
// Sphere is a closed ball (centre C, radius R; R < 0 is empty), the bounding
// volume of sphere-trees. BoundingSphere computes the minimum enclosing
// sphere of a point set up to rounding (Welzl's move-to-front algorithm on a
// deterministically shuffled, rescaled copy, expected O(n)), and guarantees
// containment: the radius is the largest distance to any point, padded by a
// proven bound of 2^-49 relative, so every point is inside exactly. Overlaps
// is the exact closed test (touching spheres overlap); BoundingSphereBuf
// reuses a scratch buffer so that tree builders do not allocate.
package bv
