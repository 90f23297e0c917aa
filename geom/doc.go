// Package geom holds the geometric value types of collide (Vec3, Mat3, Quat,
// Pose, AABB, Triangle) and its exact predicates.
//
// # Conventions
//
// Coordinates are float64 in a right-handed frame. Every type is a plain value:
// methods take value receivers and return new values; nothing is mutated.
//
// Boxes and triangles are closed point sets. An AABB is empty only when
// Min > Max on some axis; a point or a flat box (the bounds of an axis-aligned
// triangle) is a valid, non-empty box.
//
// # Exactness
//
// Orient2D and Orient3D return the exact sign of their determinant for the
// float64 inputs as given: a float fast path with a proven error bound decides
// almost every call, and an exact fallback (error-free transformations, or
// math/big for inputs near the ends of the float64 range) decides the rest.
// TriTri, the triangle-triangle contact test, is built only on these
// predicates, so it never misses a touch and never reports a false contact.
// TriTriContact goes further: the set two triangles share (a point, a
// segment or a coplanar polygon), whether they touch or cross, the feature
// of each triangle holding each vertex of that set, exactly, and a contact
// normal; the points that are not vertices of either triangle are rounded,
// with a stated error bound.
//
// Wherever a sign depends on a product, the product is wrapped in an
// explicit float64 conversion, which the Go specification says must round,
// so that the compiler cannot fuse it into a fused multiply-add (FMA) and
// invalidate the error analysis (it does fuse on arm64 otherwise).
//
// Non-finite inputs (NaN, ±Inf) are outside the contract: results are
// unspecified but the functions do not panic. Validate meshes first
// (mesh.TriMesh.Validate).
//
// geom imports only the standard library and internal/exact, which holds the
// exact arithmetic of the fallbacks (shared with package hull).
package geom
