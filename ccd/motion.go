package ccd

import (
	"math"

	"github.com/collide3d/collide/geom"
)

// Motion is a rigid motion of a model from pose From, at t = 0, to pose To,
// at t = 1: its translation moves linearly in t, and it turns at a constant
// angular velocity about a fixed axis, by the rotation that takes From's
// orientation to To's (the shorter way, at most half a turn):
//
//	R(t) = Rot(axis, t·angle)·From.R,  Rot(axis, angle) = To.R·From.Rᵀ
//	T(t) = From.T + t·(To.T − From.T)
//
// A model vertex x is at R(t)·x + T(t). Every point of the model then moves
// on a helix about the axis (a straight line when the motion does not
// turn).
type Motion struct{ From, To geom.Pose }

// Translating reports whether the motion does not turn: From and To have
// the same rotation matrix (bit for bit). Each vertex then moves on a
// straight line, from its position at From to its position at To, both as
// geom.Pose.Apply computes them, and the continuous queries are exact for
// those computed positions, as the discrete ones are for a pose.
func (m Motion) Translating() bool { return m.From.R == m.To.R }

// Rotation returns the motion's axis (a unit vector, in the environment's
// frame) and angle in [0, π]; the zero vector and 0 when it does not
// turn.
func (m Motion) Rotation() (axis geom.Vec3, angle float64) {
	if m.Translating() {
		return geom.Vec3{}, 0
	}
	q := quatOf(m.To.R.Mul(m.From.R.Transpose()))
	v := geom.V(q.X, q.Y, q.Z)
	n := v.Norm()
	if n == 0 {
		return geom.Vec3{}, 0
	}
	return v.Scale(1 / n), 2 * math.Atan2(n, q.W)
}

// At returns the pose at time t: From at 0 and To at 1 exactly, and in
// between the motion's pose as computed in float64.
func (m Motion) At(t float64) geom.Pose {
	var axis geom.Vec3
	var angle float64
	if t != 0 && t != 1 && !m.Translating() {
		axis, angle = m.Rotation()
	}
	return m.AtRotation(t, axis, angle)
}

// AtRotation is At with the axis and angle of the motion's rotation
// given, as Rotation returns them (unused for a motion that does not
// turn): a caller asking many poses of one motion computes them once.
func (m Motion) AtRotation(t float64, axis geom.Vec3, angle float64) geom.Pose {
	switch {
	case t == 0:
		return m.From
	case t == 1:
		return m.To
	}
	T := m.From.T.Add(m.To.T.Sub(m.From.T).Scale(t))
	if m.Translating() {
		return geom.Pose{R: m.From.R, T: T}
	}
	return geom.Pose{R: geom.AxisAngle(axis, t*angle).Mat3().Mul(m.From.R), T: T}
}

// quatOf returns a unit quaternion of the rotation matrix r with W ≥ 0
// (Shepperd's method: the largest of the four squares first).
func quatOf(r geom.Mat3) geom.Quat {
	tr := r[0][0] + r[1][1] + r[2][2]
	var q geom.Quat
	switch {
	case tr >= r[0][0] && tr >= r[1][1] && tr >= r[2][2]:
		s := math.Sqrt(1+tr) * 2
		q = geom.Quat{W: s / 4, X: (r[2][1] - r[1][2]) / s, Y: (r[0][2] - r[2][0]) / s, Z: (r[1][0] - r[0][1]) / s}
	case r[0][0] >= r[1][1] && r[0][0] >= r[2][2]:
		s := math.Sqrt(1+r[0][0]-r[1][1]-r[2][2]) * 2
		q = geom.Quat{W: (r[2][1] - r[1][2]) / s, X: s / 4, Y: (r[0][1] + r[1][0]) / s, Z: (r[0][2] + r[2][0]) / s}
	case r[1][1] >= r[2][2]:
		s := math.Sqrt(1+r[1][1]-r[0][0]-r[2][2]) * 2
		q = geom.Quat{W: (r[0][2] - r[2][0]) / s, X: (r[0][1] + r[1][0]) / s, Y: s / 4, Z: (r[1][2] + r[2][1]) / s}
	default:
		s := math.Sqrt(1+r[2][2]-r[0][0]-r[1][1]) * 2
		q = geom.Quat{W: (r[1][0] - r[0][1]) / s, X: (r[0][2] + r[2][0]) / s, Y: (r[1][2] + r[2][1]) / s, Z: s / 4}
	}
	if q.W < 0 {
		q = geom.Quat{W: -q.W, X: -q.X, Y: -q.Y, Z: -q.Z}
	}
	return q.Unit()
}
