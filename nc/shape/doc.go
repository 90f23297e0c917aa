// Package shape holds exact tests of the two primitive solids of a 3-axis
// milling tool, swept over a set of tool positions, against a triangle.
//
// A 3-axis tool never rotates: its axis is vertical (+z), and a tool
// position is a point p. Ball is the closed ball of radius r centred at
// p + (0, 0, zc); Cylinder is the closed vertical cylinder of radius r from
// height z0 to z1 above p. The set of positions is a Path: a point, a
// segment (a straight move) or a triangle (enclosing a piece of an arc). The
// swept solid is the union of the solid over the path (a Minkowski sum);
// both tests decide whether it shares a point with a closed triangle (a
// degenerate triangle is the segment or point it is).
//
// # What is exact
//
// Every answer is exact for the float64 inputs as given: the heights
// p.Z + zc, p.Z + z0, p.Z + z1 and every other intermediate are taken
// exactly, never rounded; a touch (distance exactly r, a cap exactly on a
// vertex) is a hit, a gap of one ulp a miss. Inputs outside the contract
// (NaN or ±Inf, r < 0, z0 > z1, Path.N not 1, 2 or 3) give false and never
// panic; the caller validates them.
//
// # How
//
// Both tests reduce to the convex set M = t ⊕ (−path) = conv{t_j − p_i}:
// the ball meets t iff dist((0, 0, zc), M) ≤ r; the cylinder meets t iff
// the part of M in the slab z0 ≤ z ≤ z1 comes within r of the z axis.
//
//  1. A box filter decides far pairs exactly (single rounded differences
//     compared with floats: rounding is monotone).
//  2. A float fast path, run when every non-zero input magnitude is in
//     [2⁻²⁵⁰, 2²⁵⁰], searches a closest pair (Ball: vertex–face, edge–edge
//     and crossing candidates; Cylinder: the slab's cross-section points S
//     and a 2D GJK) and then certifies, never trusting the search:
//     a hit by explicit float parameters of a point of the swept solid
//     whose computed vector, plus its proven error bound (about 16u times
//     the magnitudes involved, u = 2⁻⁵³), is within r; a miss by an
//     explicit separating plane whose support gap, minus its proven bound
//     (16u times the magnitudes), is positive. For the cylinder, the
//     classification of the vertices of M against the slab's planes is
//     exact (a filter, then TwoSum expansions), so S is the exact set, and
//     the miss plane is the 2D direction tilted by a one-dimensional LP
//     (LP duality makes such a plane exist whenever there is a miss).
//     The bounds are derived in the comments of filter.go, ball.go and
//     cylinder.go.
//  3. When neither certificate holds (the distance is within about 1e-15,
//     relative, of r; r = 0 with a touch; or inputs outside the fast
//     range), the exact path decides: the inputs are scaled by a power of
//     two to integers and GJK runs in fraction-free math/big.Int
//     arithmetic (terminating, since in exact arithmetic the distance
//     decreases strictly), started from the fast path's simplex.
//
// The fast path allocates nothing; the exact path allocates (about 10 µs
// for a point path, 30 µs for a triangle path, on 2020s hardware). Both are
// safe for concurrent use: there is no shared state.
package shape
