package nc

import (
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/nc/gcode"
)

// This file decides, with Options.Solid, whether a tool part that meets no
// triangle of a part or fixture over a move is inside the solid that it
// bounds.
//
// The part swept over the move is connected (a stack of solids of
// revolution, each touching the next, moved along a connected path) and
// shares no point with the surface, so it lies in one connected piece of
// the surface's complement, where the winding number is constant: one
// point of it decides, exactly, by package solid's Winding. The point is
// on the tool's axis at the move's end (the tool's position at parameter
// 1, the one Options.Discrete tests too): the tip itself for the cutter
// (its parts start at height 0), the lowest point of the part's axis that
// a float holds for the shank and the holder (the heights are added with
// their rounding error known, so the point is in the part, never a rounded
// neighbour outside it). Only when no float lies on that axis, the
// position's z beyond 2^52 times the part's length, is the float nearest
// its lowest point taken instead.
//
// The tool's parts are stacked, each touching the next (as ParseTool
// stacks them), so a part that meets no triangle above one that met none
// is in the same piece of the complement: its answer is the one below
// (Stats.Inside counts the tests made). A part that starts above the top
// of the one below (a tool made by hand with a gap) is tested itself.
//
// The winding number is package solid's (Solid.Winding: exact, its
// triangles found through the solid's own index).

// insideAnswer is what is known of a tool's position against a solid.
type insideAnswer uint8

const (
	insideUnknown insideAnswer = iota
	insideNo
	insideYes
)

// startInside forgets the answers of the previous move.
func (c *Checker) startInside() {
	if len(c.inside) != len(c.targets) {
		c.inside = make([]insideAnswer, len(c.targets))
		c.insideTop = make([]float64, len(c.targets))
	}
	clear(c.inside)
}

// insideSolid reports whether role rs of the tool, which meets no triangle
// of target ti (a solid) over move m, is inside the solid, and keeps the
// answer for the role above.
func (c *Checker) insideSolid(m gcode.Move, rs *roleState, ti int, tg *target) bool {
	a := c.inside[ti]
	if a == insideUnknown || rs.z0 > c.insideTop[ti] {
		c.st.Inside++
		a = insideNo
		if w, on := tg.solid.Winding(rolePoint(m.To, rs)); !on && w != 0 {
			a = insideYes
		}
	}
	c.inside[ti], c.insideTop[ti] = a, rs.z1
	return a == insideYes
}

// rolePoint returns a point of role rs of the tool at position p: the
// lowest float on its axis within its parts' heights, p itself for the
// cutter (see the top of the file).
func rolePoint(p geom.Vec3, rs *roleState) geom.Vec3 {
	if rs.z0 == 0 {
		return p
	}
	// lo is the least float ≥ p.Z + z0, hi the greatest ≤ p.Z + z1: both
	// exact (addDir rounds the sum the way asked, exactly).
	lo, hi := addDir(p.Z, rs.z0, true), addDir(p.Z, rs.z1, false)
	if lo <= hi {
		p.Z = lo
	} else {
		p.Z += rs.z0
	}
	return p
}
