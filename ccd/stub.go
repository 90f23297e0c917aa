package ccd

import "github.com/collide3d/collide/geom"

// STUB: replaced by the real solver (being written).

type kind uint8

const (
	vf kind = iota
	ee
)

func solve(q *[8]geom.Vec3, k kind) (Interval, bool) { return none, false }

func triTri(a0, b0, a1, b1 *geom.Triangle) (Interval, bool) { return none, false }
