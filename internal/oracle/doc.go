// Package oracle holds the brute-force exact all-pairs query that every
// accelerated structure of collide is checked against, fast enough for
// large scenes: Sweep finds every pair of triangles in contact (or within a
// tolerance) by a sweep and prune over exact triangle boxes, then the exact
// triangle test, with no code shared with the bounding-volume packages.
//
// It serves the experiments of package bench (the oracle of the peers
// comparison) as well as the tests. The package is internal: its answers
// are the contract of collide.Check, its interface is not.
package oracle
