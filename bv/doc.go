// Package bv holds bounding volumes: k-DOPs (discrete orientation polytopes)
// for k = 6, 14, 18 and 26, with the fixed directions of Klosowski et al.
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
package bv
