package geom

import (
	"fmt"
	"math"
)

// Vec3 is a point or a vector in ℝ³.
type Vec3 struct {
	X, Y, Z float64
}

// V returns the vector (x, y, z).
func V(x, y, z float64) Vec3 { return Vec3{x, y, z} }

// Add returns v + w.
func (v Vec3) Add(w Vec3) Vec3 { return Vec3{v.X + w.X, v.Y + w.Y, v.Z + w.Z} }

// Sub returns v - w.
func (v Vec3) Sub(w Vec3) Vec3 { return Vec3{v.X - w.X, v.Y - w.Y, v.Z - w.Z} }

// Scale returns s·v.
func (v Vec3) Scale(s float64) Vec3 { return Vec3{s * v.X, s * v.Y, s * v.Z} }

// Neg returns -v.
func (v Vec3) Neg() Vec3 { return Vec3{-v.X, -v.Y, -v.Z} }

// Dot returns the dot product v·w. Each product is rounded before the sum (no
// fused multiply-add).
func (v Vec3) Dot(w Vec3) float64 {
	return float64(v.X*w.X) + float64(v.Y*w.Y) + float64(v.Z*w.Z)
}

// Cross returns the cross product v×w, with every product rounded separately
// (no fused multiply-add).
func (v Vec3) Cross(w Vec3) Vec3 {
	return Vec3{
		float64(v.Y*w.Z) - float64(v.Z*w.Y),
		float64(v.Z*w.X) - float64(v.X*w.Z),
		float64(v.X*w.Y) - float64(v.Y*w.X),
	}
}

// Norm2 returns the squared Euclidean norm of v.
func (v Vec3) Norm2() float64 { return v.Dot(v) }

// Norm returns the Euclidean norm of v, without overflow or underflow in the
// intermediate squares.
func (v Vec3) Norm() float64 { return math.Hypot(math.Hypot(v.X, v.Y), v.Z) }

// Unit returns v scaled to unit length. The unit of the zero vector is the
// zero vector.
func (v Vec3) Unit() Vec3 {
	n := v.Norm()
	if n == 0 {
		return Vec3{}
	}
	return Vec3{v.X / n, v.Y / n, v.Z / n}
}

// Distance returns the Euclidean distance between v and w.
func (v Vec3) Distance(w Vec3) float64 { return v.Sub(w).Norm() }

// Min returns the element-wise minimum of v and w.
func (v Vec3) Min(w Vec3) Vec3 {
	return Vec3{math.Min(v.X, w.X), math.Min(v.Y, w.Y), math.Min(v.Z, w.Z)}
}

// Max returns the element-wise maximum of v and w.
func (v Vec3) Max(w Vec3) Vec3 {
	return Vec3{math.Max(v.X, w.X), math.Max(v.Y, w.Y), math.Max(v.Z, w.Z)}
}

// Abs returns the element-wise absolute value of v.
func (v Vec3) Abs() Vec3 { return Vec3{math.Abs(v.X), math.Abs(v.Y), math.Abs(v.Z)} }

// Lerp returns v + t·(w - v).
func (v Vec3) Lerp(w Vec3, t float64) Vec3 { return v.Add(w.Sub(v).Scale(t)) }

// Index returns component i (0: X, 1: Y, 2: Z). It panics if i is not 0, 1 or 2.
func (v Vec3) Index(i int) float64 {
	switch i {
	case 0:
		return v.X
	case 1:
		return v.Y
	case 2:
		return v.Z
	}
	panic("geom: Vec3 index out of range")
}

// SetIndex returns v with component i (0: X, 1: Y, 2: Z) set to x. It
// panics if i is not 0, 1 or 2.
func (v Vec3) SetIndex(i int, x float64) Vec3 {
	switch i {
	case 0:
		v.X = x
	case 1:
		v.Y = x
	case 2:
		v.Z = x
	default:
		panic("geom: Vec3 index out of range")
	}
	return v
}

// LargestAxis returns the index (0, 1, 2) of the component of largest
// absolute value, preferring the lower index on ties.
func (v Vec3) LargestAxis() int {
	a := v.Abs()
	switch {
	case a.X >= a.Y && a.X >= a.Z:
		return 0
	case a.Y >= a.Z:
		return 1
	}
	return 2
}

// IsFinite reports whether every component of v is finite (not NaN or ±Inf).
func (v Vec3) IsFinite() bool {
	return !math.IsNaN(v.X) && !math.IsInf(v.X, 0) &&
		!math.IsNaN(v.Y) && !math.IsInf(v.Y, 0) &&
		!math.IsNaN(v.Z) && !math.IsInf(v.Z, 0)
}

// ApproxEqual reports whether v and w differ by at most tol in every component.
func (v Vec3) ApproxEqual(w Vec3, tol float64) bool {
	d := v.Sub(w).Abs()
	return d.X <= tol && d.Y <= tol && d.Z <= tol
}

// String formats v as "(x, y, z)".
func (v Vec3) String() string { return fmt.Sprintf("(%g, %g, %g)", v.X, v.Y, v.Z) }
