package geom

import "math"

// AABB is a closed axis-aligned box: the points p with Min ≤ p ≤ Max on every
// axis. It is empty only when Min > Max on some axis; a point or a flat box is
// a valid box that contains and overlaps what it touches.
type AABB struct {
	Min, Max Vec3
}

// EmptyAABB returns the empty box (Min = +Inf, Max = -Inf), the identity of
// Union.
func EmptyAABB() AABB {
	inf := math.Inf(1)
	return AABB{Vec3{inf, inf, inf}, Vec3{-inf, -inf, -inf}}
}

// Box returns the box with corners a and b, in either order.
func Box(a, b Vec3) AABB { return AABB{a.Min(b), a.Max(b)} }

// IsEmpty reports whether b contains no point.
func (b AABB) IsEmpty() bool {
	return b.Min.X > b.Max.X || b.Min.Y > b.Max.Y || b.Min.Z > b.Max.Z
}

// AddPoint returns the smallest box containing b and p.
func (b AABB) AddPoint(p Vec3) AABB { return AABB{b.Min.Min(p), b.Max.Max(p)} }

// Union returns the smallest box containing b and c.
func (b AABB) Union(c AABB) AABB { return AABB{b.Min.Min(c.Min), b.Max.Max(c.Max)} }

// Intersection returns the box of the points in both b and c (empty if none).
func (b AABB) Intersection(c AABB) AABB { return AABB{b.Min.Max(c.Min), b.Max.Min(c.Max)} }

// Contains reports whether p lies in the closed box b.
func (b AABB) Contains(p Vec3) bool {
	return b.Min.X <= p.X && p.X <= b.Max.X &&
		b.Min.Y <= p.Y && p.Y <= b.Max.Y &&
		b.Min.Z <= p.Z && p.Z <= b.Max.Z
}

// ContainsBox reports whether every point of c lies in b. The empty box is
// contained in every box.
func (b AABB) ContainsBox(c AABB) bool {
	if c.IsEmpty() {
		return true
	}
	return b.Contains(c.Min) && b.Contains(c.Max)
}

// Overlaps reports whether the closed boxes b and c share a point.
func (b AABB) Overlaps(c AABB) bool {
	return b.Min.X <= c.Max.X && c.Min.X <= b.Max.X &&
		b.Min.Y <= c.Max.Y && c.Min.Y <= b.Max.Y &&
		b.Min.Z <= c.Max.Z && c.Min.Z <= b.Max.Z
}

// Expanded returns b grown by d on every side (shrunk if d < 0). The empty box
// stays empty.
func (b AABB) Expanded(d float64) AABB {
	if b.IsEmpty() {
		return b
	}
	e := Vec3{d, d, d}
	return AABB{b.Min.Sub(e), b.Max.Add(e)}
}

// Corner returns corner i of b, i in [0, 8): its x from Max if bit 0 of i
// is set, else from Min, its y likewise by bit 1 and its z by bit 2.
func (b AABB) Corner(i int) Vec3 {
	v := b.Min
	if i&1 != 0 {
		v.X = b.Max.X
	}
	if i&2 != 0 {
		v.Y = b.Max.Y
	}
	if i&4 != 0 {
		v.Z = b.Max.Z
	}
	return v
}

// Transform returns the box of the 8 corners of b at pose p (empty if b
// is), which holds every point of b at p up to p's rounding.
func (b AABB) Transform(p Pose) AABB {
	if b.IsEmpty() {
		return b
	}
	out := EmptyAABB()
	for c := range 8 {
		out = out.AddPoint(p.Apply(b.Corner(c)))
	}
	return out
}

// Size returns Max - Min (the zero vector for a point, negative for empty).
func (b AABB) Size() Vec3 { return b.Max.Sub(b.Min) }

// Center returns the midpoint of b.
func (b AABB) Center() Vec3 { return b.Min.Add(b.Max).Scale(0.5) }

// Volume returns the volume of b (0 for flat and empty boxes).
func (b AABB) Volume() float64 {
	if b.IsEmpty() {
		return 0
	}
	s := b.Size()
	return s.X * s.Y * s.Z
}
