// Package shape holds exact tests of the two primitive solids of a 3-axis
// milling tool, swept over a set of tool positions, against a triangle.
//
// A 3-axis tool never rotates: its axis is vertical (+z), and a tool
// position is a point p. Ball is the closed ball of radius r centred at
// p + (0, 0, zc); Cylinder is the closed vertical cylinder of radius r from
// height z0 to z1 above p. The set of positions is a Path: a point, a
// segment (a straight move) or a triangle (enclosing a piece of an arc); the
// swept solid is the union of the solid over the path (a Minkowski sum).
// Both tests decide exactly, for the float64 inputs as given, whether the
// swept solid and a closed triangle share a point.
//
// # Exactness
//
// Every answer is exact: sums such as p.Z + zc are never rounded, a touch is
// a hit, a gap of one ulp is a miss. A float fast path decides almost every
// call, but only with a certificate checked against a proven rounding-error
// bound: a hit by an explicit point of the swept solid within r of the
// triangle, a miss by an explicit separating plane. The search that
// proposes the point and the plane is plain floating point and needs no
// proof; when its proposal cannot be certified (the answer is within the
// bound of the boundary, r = 0 with a touch, or inputs out of the fast
// range), the exact path decides in big.Rat arithmetic: GJK on the
// Minkowski difference, which terminates in exact arithmetic. See filter.go
// for the rounding model, ball.go and cylinder.go for the bounds.
package shape
