// Package ratccd is an exact rational oracle for continuous collision
// detection, written to check package ccd and sharing no code with it.
//
// Its functions take the same float64 inputs as ccd.VertexFace,
// ccd.EdgeEdge and ccd.TriTri (each point moving linearly from its
// position at t = 0 to its position at t = 1) and decide, with math/big
// only, whether the primitives, as closed point sets, ever share a point
// for t in [0, 1], and if so the earliest such t, as an exact real
// algebraic number (a Time).
//
// Method. Every coordinate is a polynomial of degree 1 in t with rational
// coefficients, and contact at time t is a boolean formula in the signs of
// a finite family of polynomials in t (the contact test of a vertex and a
// triangle, or of two segments, written with cross and dot products in 3D;
// see vfSystem and eeSystem in oracle.go). Both tests need the four points
// coplanar: when the coplanarity cubic f(t) = det(·, ·, ·) is not
// identically zero, contact is possible only at its roots in [0, 1], which
// are isolated with Sturm sequences and tried in increasing order. When f
// vanishes identically (motion within a plane, parallel edges, degenerate
// triangles), the answer can change only where a polynomial of the family
// changes sign, and the set of contact times is closed, so the earliest
// contact is at 0, 1 or a root in [0, 1] of a family member: all of them
// are isolated, sorted exactly and tried in order. At an algebraic time α
// (a root of a squarefree polynomial P, isolated in a rational interval)
// the sign of a polynomial g is read after narrowing α's interval a few
// times until a mean-value bound proves it constant, else by the
// Sturm–Tarski query of g on that interval (the signed remainder sequence
// of P and P′·g: its variations count the roots of P there where g > 0
// less those where g < 0). Two algebraic times are compared by narrowing
// a few times, then by where one lies against the other's interval and
// the sign there of the other's polynomial. Euclid's algorithm runs on
// integer pseudo-remainders made primitive. (Narrowing to the end and
// big.Rat's reductions took minutes a query when the coordinates mix
// float64 extremes.) The
// inputs are first scaled by a common power of two to integers, which
// changes no contact time.
//
// TriTri is the exact static triangle-triangle test at t = 0 (static.go,
// with its own formulas: Gram-matrix barycentric coordinates, closest
// points of lines, exact parameters on segments) and else the earliest of
// the six vertex-face and nine edge-edge queries.
//
// Slow (milliseconds a query) by design; a Time is not safe for concurrent
// use, as comparing it narrows its interval in place.
package ratccd
