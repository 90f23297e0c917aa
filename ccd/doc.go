// Package ccd decides continuous collisions between primitives moving
// linearly in time: a vertex against a triangle (VertexFace), an edge
// against an edge (EdgeEdge), and a triangle against a triangle (TriTri),
// each point moving on a straight line from its position at t = 0 to its
// position at t = 1, at constant speed.
//
// The answers are exact for the float64 coordinates as given: whether the
// primitives, as closed point sets, ever share a point for some t in
// [0, 1] (touching counts, as in package geom), and if so the earliest such
// t, as an Interval [Lo, Hi] that contains it, of width at most 2^-40 (a
// single point when the earliest time is 0). Every degenerate case is
// decided: parallel and collinear edges, motion within the triangle's
// plane, zero-length edges and zero-area triangles (the segment or point
// that they are), points that do not move, contact that begins or ends
// exactly at t = 0 or t = 1.
//
// How: contact at a time t is decided from the signs of a fixed family of
// polynomials in t (the orientation of the four points, the orientations of
// each three in the three coordinate planes, and their coordinate
// differences): between two roots of these polynomials the answer cannot
// change, so the earliest contact is at t = 0 or at one of their roots. A
// float fast path computes the coplanarity cubic in Bernstein form with a
// proven error bound, isolates its roots in [0, 1] in time order, and
// decides contact at each from the signs of quadratics over the root's
// interval. Where those signs are exactly zero because of the inputs'
// structure, it decides with the exact path's contact test from signs it
// proves: points sharing a coordinate at every time (equal inputs) give
// zero differences, and, three points sharing one coordinate or two points
// two, factor the cubic into a coordinate difference times a projected
// orientation, one of which is zero at the root. When the cubic is zero at
// every time by structure, it decides edges that stay parallel (along an
// axis, or translating with parallel vectors) from whether their lines ever
// meet, and points that stay in a plane normal to an axis from the roots of
// the four projected orientations. Roots of the cubic at t = 0 or 1 are
// read from exact orientation predicates of the inputs, and contact there
// decided exactly. Such are the queries of a motion along an axis onto or
// past features symmetric about a coordinate plane, and of models whose
// coordinates lie on a grid. When a sign is within its error bound it gives
// up, and the exact path decides the query with math/big: the coordinates
// scaled by one power of two to integers, it isolates every root of the
// family exactly (Sturm sequences, evaluated at dyadic times in integers)
// and evaluates the static contact test at each, earliest first, with the
// signs of the family at these algebraic times (read from the polynomial's
// values at the root's interval when it has no root there, else by a
// Sturm–Tarski query, without narrowing). Its work grows polynomially with
// the spread of the exponents: a query whose coordinates mix 5e-324 and
// 1.8e308 takes milliseconds. ExactCalls counts the queries it decides: the
// fast path decides the others in about a microsecond.
//
// Inputs must be finite: a NaN or infinite coordinate gives no contact and
// an Interval of NaNs.
package ccd
