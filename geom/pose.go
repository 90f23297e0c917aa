package geom

import (
	"fmt"
	"math"
)

// Mat3 is a 3×3 matrix in row-major order: M[r][c].
type Mat3 [3][3]float64

// Identity3 returns the identity matrix.
func Identity3() Mat3 { return Mat3{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}} }

// Rows returns the matrix whose rows are a, b, c.
func Rows(a, b, c Vec3) Mat3 { return Mat3{{a.X, a.Y, a.Z}, {b.X, b.Y, b.Z}, {c.X, c.Y, c.Z}} }

// Row returns row i of m.
func (m Mat3) Row(i int) Vec3 { return Vec3{m[i][0], m[i][1], m[i][2]} }

// Col returns column j of m.
func (m Mat3) Col(j int) Vec3 { return Vec3{m[0][j], m[1][j], m[2][j]} }

// MulVec returns m·v.
func (m Mat3) MulVec(v Vec3) Vec3 { return Vec3{m.Row(0).Dot(v), m.Row(1).Dot(v), m.Row(2).Dot(v)} }

// Mul returns the product m·n.
func (m Mat3) Mul(n Mat3) Mat3 {
	var r Mat3
	for i := range 3 {
		for j := range 3 {
			r[i][j] = m.Row(i).Dot(n.Col(j))
		}
	}
	return r
}

// Transpose returns the transpose of m.
func (m Mat3) Transpose() Mat3 {
	return Mat3{{m[0][0], m[1][0], m[2][0]}, {m[0][1], m[1][1], m[2][1]}, {m[0][2], m[1][2], m[2][2]}}
}

// Det returns the determinant of m.
func (m Mat3) Det() float64 { return m.Row(0).Dot(m.Row(1).Cross(m.Row(2))) }

// IsRotation reports whether m is orthonormal with determinant +1, within tol
// in every entry of mᵀm - I and in the determinant.
func (m Mat3) IsRotation(tol float64) bool {
	p := m.Transpose().Mul(m)
	id := Identity3()
	for i := range 3 {
		for j := range 3 {
			if math.Abs(p[i][j]-id[i][j]) > tol {
				return false
			}
		}
	}
	return math.Abs(m.Det()-1) <= tol
}

// Quat is a quaternion W + Xi + Yj + Zk. Unit quaternions represent rotations.
type Quat struct {
	W, X, Y, Z float64
}

// AxisAngle returns the unit quaternion of the rotation by angle radians
// about axis (right-handed). A zero axis gives the identity.
func AxisAngle(axis Vec3, angle float64) Quat {
	a := axis.Unit()
	if a == (Vec3{}) {
		return Quat{W: 1}
	}
	s, c := math.Sincos(angle / 2)
	return Quat{c, s * a.X, s * a.Y, s * a.Z}
}

// Mul returns the Hamilton product q·r (the rotation r followed by q).
func (q Quat) Mul(r Quat) Quat {
	return Quat{
		q.W*r.W - q.X*r.X - q.Y*r.Y - q.Z*r.Z,
		q.W*r.X + q.X*r.W + q.Y*r.Z - q.Z*r.Y,
		q.W*r.Y - q.X*r.Z + q.Y*r.W + q.Z*r.X,
		q.W*r.Z + q.X*r.Y - q.Y*r.X + q.Z*r.W,
	}
}

// Norm returns the norm of q.
func (q Quat) Norm() float64 { return math.Sqrt(q.W*q.W + q.X*q.X + q.Y*q.Y + q.Z*q.Z) }

// Unit returns q scaled to unit norm; the zero quaternion gives the identity.
func (q Quat) Unit() Quat {
	n := q.Norm()
	if n == 0 {
		return Quat{W: 1}
	}
	return Quat{q.W / n, q.X / n, q.Y / n, q.Z / n}
}

// Mat3 returns the rotation matrix of q, normalised first.
func (q Quat) Mat3() Mat3 {
	q = q.Unit()
	w, x, y, z := q.W, q.X, q.Y, q.Z
	return Mat3{
		{1 - 2*(y*y+z*z), 2 * (x*y - w*z), 2 * (x*z + w*y)},
		{2 * (x*y + w*z), 1 - 2*(x*x+z*z), 2 * (y*z - w*x)},
		{2 * (x*z - w*y), 2 * (y*z + w*x), 1 - 2*(x*x+y*y)},
	}
}

// Pose is a rigid transform: a point x goes to R·x + T. R must be a rotation
// (orthonormal, determinant +1).
//
// The zero value is the identity: a Pose whose R is the zero matrix stands
// for R = I, so Pose{} is the identity and Pose{T: v} the translation by v.
// Every method treats it so (Apply, Compose, Inverse, IsIdentity, Validate,
// Array, ...), and Normalize returns the explicit form, with R = I written
// out. Code that reads R itself (rather than through the methods) must
// Normalize first; the packages of this module do so where a pose enters.
// Two poses compare equal with == only in the same form: Equal compares
// them as transforms.
type Pose struct {
	R Mat3
	T Vec3
}

// Identity returns the identity pose, in its explicit form (R = I). The
// zero Pose is the same transform.
func Identity() Pose { return Pose{R: Identity3()} }

// Translation returns the pose that translates by t.
func Translation(t Vec3) Pose { return Pose{R: Identity3(), T: t} }

// Normalize returns p in its explicit form: R = I if p's R is the zero
// matrix (the zero Pose's convention), else p unchanged. Its cost is one
// comparison for a rotation whose R[0][0] is not 0, and at most nine.
func (p Pose) Normalize() Pose {
	if p.R[0][0] == 0 && zeroMat(&p.R) {
		p.R = identity3
	}
	return p
}

// zeroMat reports whether every entry of r is 0 (written out: Go's
// comparison of arrays calls a function).
func zeroMat(r *Mat3) bool {
	return r[0][0] == 0 && r[0][1] == 0 && r[0][2] == 0 &&
		r[1][0] == 0 && r[1][1] == 0 && r[1][2] == 0 &&
		r[2][0] == 0 && r[2][1] == 0 && r[2][2] == 0
}

// Equal reports whether p and q are the same transform with the same
// numbers once normalised: Pose{}.Equal(Identity()) is true.
func (p Pose) Equal(q Pose) bool { return p.Normalize() == q.Normalize() }

// FromQuat returns the pose rotating by q (normalised) then translating by t.
func FromQuat(q Quat, t Vec3) Pose { return Pose{R: q.Mat3(), T: t} }

// FromAxisAngle returns the pose rotating by angle radians about axis, then
// translating by t.
func FromAxisAngle(axis Vec3, angle float64, t Vec3) Pose {
	return FromQuat(AxisAngle(axis, angle), t)
}

// FromArray returns the pose of the 12 numbers r00 r01 r02 r10 r11 r12 r20 r21
// r22 tx ty tz, the order of pose files and the CLI. Nine zeros for the
// rotation give a pose whose R is zero, which stands for the identity (see
// Pose); a parser that wants them rejected (flight.ParsePose) says so
// itself.
func FromArray(a [12]float64) Pose {
	return Pose{
		R: Mat3{{a[0], a[1], a[2]}, {a[3], a[4], a[5]}, {a[6], a[7], a[8]}},
		T: Vec3{a[9], a[10], a[11]},
	}
}

// Array returns the 12 numbers of p in the order of FromArray, of its
// explicit form (the zero Pose gives the identity's numbers).
func (p Pose) Array() [12]float64 {
	r := p.Normalize().R
	return [12]float64{r[0][0], r[0][1], r[0][2], r[1][0], r[1][1], r[1][2], r[2][0], r[2][1], r[2][2], p.T.X, p.T.Y, p.T.Z}
}

// Apply returns R·x + T, as R.MulVec(x).Add(T) computes it (the same
// bits), with R = I for a zero R (the zero Pose's convention, the bits of
// Identity's). The zero R's test costs one comparison for a rotation whose
// R[0][0] is not 0.
func (p Pose) Apply(x Vec3) Vec3 {
	r := &p.R
	if r[0][0] == 0 && zeroMat(r) {
		r = &identity3
	}
	return Vec3{
		float64(r[0][0]*x.X) + float64(r[0][1]*x.Y) + float64(r[0][2]*x.Z) + p.T.X,
		float64(r[1][0]*x.X) + float64(r[1][1]*x.Y) + float64(r[1][2]*x.Z) + p.T.Y,
		float64(r[2][0]*x.X) + float64(r[2][1]*x.Y) + float64(r[2][2]*x.Z) + p.T.Z,
	}
}

// identity3 is Identity3(), for Apply.
var identity3 = Identity3()

// ApplyVec returns R·v, the image of a direction (no translation).
func (p Pose) ApplyVec(v Vec3) Vec3 { return p.Normalize().R.MulVec(v) }

// ApplyTriangle returns the image of t under p.
func (p Pose) ApplyTriangle(t Triangle) Triangle {
	return Triangle{p.Apply(t[0]), p.Apply(t[1]), p.Apply(t[2])}
}

// Compose returns the pose p∘q: q applied first, then p (in explicit
// form).
func (p Pose) Compose(q Pose) Pose {
	p, q = p.Normalize(), q.Normalize()
	return Pose{R: p.R.Mul(q.R), T: p.R.MulVec(q.T).Add(p.T)}
}

// Inverse returns the inverse rigid transform, using Rᵀ for R⁻¹ (in
// explicit form).
func (p Pose) Inverse() Pose {
	rt := p.Normalize().R.Transpose()
	return Pose{R: rt, T: rt.MulVec(p.T).Neg()}
}

// IsIdentity reports whether p is exactly the identity pose: Identity() or
// the zero Pose.
func (p Pose) IsIdentity() bool { return isIdentity(&p) }

// isIdentity is IsIdentity by reference, its tests written out (Go's
// comparison of arrays calls a function): T first, then R by its first
// entry, 1 for the identity and 0 for the zero Pose.
func isIdentity(p *Pose) bool {
	if p.T.X != 0 || p.T.Y != 0 || p.T.Z != 0 {
		return false
	}
	r := &p.R
	switch r[0][0] {
	case 0:
		return zeroMat(r)
	case 1:
		return r[0][1] == 0 && r[0][2] == 0 && r[1][0] == 0 && r[1][1] == 1 && r[1][2] == 0 &&
			r[2][0] == 0 && r[2][1] == 0 && r[2][2] == 1
	}
	return false
}

// Validate reports whether p is a usable rigid pose: finite, with R a rotation
// to within 1e-6 (a pose read from a text file with six or more digits). A
// zero R is the identity's (see Pose), and valid.
func (p Pose) Validate() error {
	p = p.Normalize()
	a := p.Array()
	for i, x := range a {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return fmt.Errorf("pose number %d is %v", i+1, x)
		}
	}
	if !p.R.IsRotation(1e-6) {
		return fmt.Errorf("pose rotation is not orthonormal with determinant 1")
	}
	return nil
}
