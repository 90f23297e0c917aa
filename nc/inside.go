package nc

import (
	"fmt"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh"
	"github.com/collide3d/collide/nc/gcode"
	solidpkg "github.com/collide3d/collide/solid"
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
// The winding number is the signed count of the triangles that a ray from
// the point crosses (solid.Crossing, along +x, its origin perturbed
// symbolically). The ray is cast along the axis direction, of the six,
// that leaves the target's box soonest, by turning the coordinates (a
// rotation that permutes them and flips signs, exact, so the count is the
// same), and the triangles it may cross are found by the target's tree:
// a sliver triangle holding the ray's segment across the box is searched
// as the tool's axis is (collide.Query.NearTriangles, tolerance 0), each
// triangle once. A target without a tree (collide.Brute) counts over all
// its triangles (solid.Winding).

// rayDirs is the number of directions a ray is cast in: ±x, ±y, ±z.
const rayDirs = 6

// turn returns v in the frame where ray direction d (0..5: +x, −x, +y, −y,
// +z, −z) is +x: a rotation that permutes coordinates and flips signs.
func turn(d int, v geom.Vec3) geom.Vec3 {
	switch d {
	case 1:
		return geom.Vec3{X: -v.X, Y: -v.Y, Z: v.Z}
	case 2:
		return geom.Vec3{X: v.Y, Y: v.Z, Z: v.X}
	case 3:
		return geom.Vec3{X: -v.Y, Y: -v.Z, Z: v.X}
	case 4:
		return geom.Vec3{X: v.Z, Y: v.X, Z: v.Y}
	case 5:
		return geom.Vec3{X: -v.Z, Y: -v.X, Z: v.Y}
	}
	return v
}

// rayModels returns, for target tg with a tree, the six rays' models: a
// sliver triangle from the origin along each axis direction, longer than
// the target's box along it (with room for the rounding of its placing).
func rayModels(tg *target) ([rayDirs]*collide.Model, error) {
	var out [rayDirs]*collide.Model
	size := tg.box.Size()
	for d := range rayDirs {
		axis := d / 2
		l := size.Index(axis)*(1+0x1p-40) + 1 + tg.mag*0x1p-40
		end := geom.Vec3{}.SetIndex(axis, l)
		side := geom.Vec3{}.SetIndex(axis, l/2).SetIndex((axis+1)%3, l*0x1p-10)
		if d%2 == 1 {
			end, side = end.Scale(-1), side.SetIndex(axis, -l/2)
		}
		m, err := collide.Build(&mesh.TriMesh{Verts: []geom.Vec3{{}, end, side}, Tris: [][3]int32{{0, 1, 2}}},
			collide.BuildOptions{BV: tg.model.BV(), Float64: tg.model.Options().Float64})
		if err != nil {
			return out, fmt.Errorf("nc: a ray as a %v model: %w", tg.model.BV(), err)
		}
		out[d] = m
	}
	return out, nil
}

// winding returns the winding number of target tg's solid around p and
// whether p is on its surface (then 0): tg.solid.Winding(p), its
// triangles found by the tree.
func (c *Checker) winding(p geom.Vec3, tg *target) (int, bool) {
	b := tg.box
	if !b.Contains(p) {
		return 0, false
	}
	if !tg.tree {
		return tg.solid.Winding(p)
	}
	// The direction that leaves the box soonest.
	dists := [rayDirs]float64{b.Max.X - p.X, p.X - b.Min.X, b.Max.Y - p.Y, p.Y - b.Min.Y, b.Max.Z - p.Z, p.Z - b.Min.Z}
	d := 0
	for k, v := range dists {
		if v < dists[d] {
			d = k
		}
	}
	tg.cur++
	if tg.cur == 0 {
		clear(tg.stamp)
		tg.cur = 1
	}
	c.cand, c.tg = c.cand[:0], tg
	st, err := c.query.Near(tg.model, tg.rays[d], geom.Translation(p), 0, c.visit)
	if err != nil {
		// Near refuses only what cannot be here (p is finite and in the
		// box); count over every triangle all the same.
		return tg.solid.Winding(p)
	}
	c.st.BVTests += st.BVTests + st.LeafTests
	c.st.Candidates += st.TriTests
	q := turn(d, p)
	pt := geom.Triangle{p, p, p}
	w := 0
	for _, e := range c.cand {
		t := tg.mesh.Triangle(int(e))
		tb := triBounds(t)
		if tb.Contains(p) && geom.TriTri(t, pt) {
			return 0, true
		}
		r := geom.Triangle{turn(d, t[0]), turn(d, t[1]), turn(d, t[2])}
		w += solidpkg.Crossing(&r, q)
	}
	return w, false
}

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
		if w, on := c.winding(rolePoint(m.To, rs), tg); !on && w != 0 {
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
