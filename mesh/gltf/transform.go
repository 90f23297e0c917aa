package gltf

import "github.com/collide3d/collide/geom"

// mat4 is an affine transform as a row-major 4×4 matrix: m[r][c].
type mat4 [4][4]float64

var identity = mat4{{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}}

// The products below are converted to float64 one by one, which forbids
// fused multiply-adds: the same file gives the same bits on every
// architecture.

// mul returns a·b.
func (a mat4) mul(b mat4) mat4 {
	var c mat4
	for r := range 4 {
		for k := range 4 {
			c[r][k] = float64(a[r][0]*b[0][k]) + float64(a[r][1]*b[1][k]) + float64(a[r][2]*b[2][k]) + float64(a[r][3]*b[3][k])
		}
	}
	return c
}

// apply returns m·(v, 1).
func (m *mat4) apply(v geom.Vec3) geom.Vec3 {
	return geom.Vec3{
		X: float64(m[0][0]*v.X) + float64(m[0][1]*v.Y) + float64(m[0][2]*v.Z) + m[0][3],
		Y: float64(m[1][0]*v.X) + float64(m[1][1]*v.Y) + float64(m[1][2]*v.Z) + m[1][3],
		Z: float64(m[2][0]*v.X) + float64(m[2][1]*v.Y) + float64(m[2][2]*v.Z) + m[2][3],
	}
}

// det3 returns the determinant of m's 3×3 part (negative for a mirror).
func (m *mat4) det3() float64 {
	a := float64(m[1][1]*m[2][2]) - float64(m[1][2]*m[2][1])
	b := float64(m[1][0]*m[2][2]) - float64(m[1][2]*m[2][0])
	c := float64(m[1][0]*m[2][1]) - float64(m[1][1]*m[2][0])
	return float64(m[0][0]*a) - float64(m[0][1]*b) + float64(m[0][2]*c)
}

// trs returns T·R·S for the translation t, the rotation by the quaternion
// q = (x, y, z, w) (used as given; glTF requires a unit quaternion) and the
// scale s.
func trs(t [3]float64, q [4]float64, s [3]float64) mat4 {
	x, y, z, w := q[0], q[1], q[2], q[3]
	xx, yy, zz := float64(x*x), float64(y*y), float64(z*z)
	xy, xz, yz := float64(x*y), float64(x*z), float64(y*z)
	wx, wy, wz := float64(w*x), float64(w*y), float64(w*z)
	r := [3][3]float64{
		{1 - 2*(yy+zz), 2 * (xy - wz), 2 * (xz + wy)},
		{2 * (xy + wz), 1 - 2*(xx+zz), 2 * (yz - wx)},
		{2 * (xz - wy), 2 * (yz + wx), 1 - 2*(xx+yy)},
	}
	var m mat4
	for i := range 3 {
		for j := range 3 {
			m[i][j] = r[i][j] * s[j]
		}
		m[i][3] = t[i]
	}
	m[3][3] = 1
	return m
}
