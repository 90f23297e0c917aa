// Package ch6 runs the tree-design and usage experiments of chapter 6 of
// Klosowski's dissertation (1998) on the paper's scenes (package
// bench/scenes) and reports our figures beside the chapter's stated
// conclusions, whose numbers the text of the dissertation lost.
//
// Each scene's flight is flown once with the default tree to fix its poses
// and its answers (every pair at every step); every variant then replays
// those poses, its answers checked against them, and is timed by the least
// of Config.Rounds replays, the variants taking turns:
//
//   - Dirs: splitting along any of the k/2 directions (bvh.Options.SplitDirs)
//     against the axes, for every k of bv.Ks (the 8-, 12- and 20-DOPs join
//     the table where bv.Ks has them): build and query times, the total
//     volume of the environment tree's k-DOPs, and the average rank.
//   - Tau: the flying leaf threshold τ swept for k = 6, 14, 18 and 26: the
//     best τ, the range within 10% of the best, and the loss of the size
//     rule (bvh.FlyLeafFor) against the best.
//   - Oscillate: the oscillating tree (bvh.Options.Oscillate, 2 levels)
//     against the plain one, with the Splatter and Min Sum rules: build
//     time ×, query time, how often the regrouping kept the plain split.
//   - Skinny: the Pipes scene with its longest triangles halved along their
//     longest sides, the pairs mapped back to the original triangles. A
//     bench experiment only: a halving point is rounded, so the halves are
//     the original triangle only to within a rounding, which the library's
//     exact contact does not allow.
//   - Overlap: the overlap tests of the 18-DOP environment nodes in the
//     original order, ordered by slab thickness (thinnest first), and
//     truncated to the first m slabs, counted and timed by a replay of the
//     traversal (Algorithm 1) written here over the trees' public nodes, so
//     that bvh's query path is untouched.
//   - Build: the build time per rule and k (the chapter's preprocessing
//     table), beside the chapter's minutes.
package ch6
