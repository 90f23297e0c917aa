package dbvt

import (
	"math"

	"github.com/collide3d/collide/geom"
)

// box32 is a closed box in float32, the tree's filter: a float64 box
// rounded outwards (roundOut) lies in it.
type box32 struct {
	min, max [3]float32
}

func emptyBox32() box32 {
	inf := float32(math.Inf(1))
	return box32{min: [3]float32{inf, inf, inf}, max: [3]float32{-inf, -inf, -inf}}
}

// roundOut returns the smallest box32 holding b.
func roundOut(b *geom.AABB) box32 {
	return box32{
		min: [3]float32{down(b.Min.X), down(b.Min.Y), down(b.Min.Z)},
		max: [3]float32{up(b.Max.X), up(b.Max.Y), up(b.Max.Z)},
	}
}

// down returns the largest float32 not above x.
func down(x float64) float32 {
	switch {
	case x > math.MaxFloat32:
		return math.MaxFloat32
	case x < -math.MaxFloat32:
		return float32(math.Inf(-1))
	}
	f := float32(x)
	if float64(f) > x {
		f = math.Nextafter32(f, float32(math.Inf(-1)))
	}
	return f
}

// up returns the smallest float32 not below x.
func up(x float64) float32 {
	switch {
	case x > math.MaxFloat32:
		return float32(math.Inf(1))
	case x < -math.MaxFloat32:
		return -math.MaxFloat32
	}
	f := float32(x)
	if float64(f) < x {
		f = math.Nextafter32(f, float32(math.Inf(1)))
	}
	return f
}

func (a *box32) overlaps(b *box32) bool {
	return a.min[0] <= b.max[0] && b.min[0] <= a.max[0] &&
		a.min[1] <= b.max[1] && b.min[1] <= a.max[1] &&
		a.min[2] <= b.max[2] && b.min[2] <= a.max[2]
}

func (a *box32) union(b *box32) box32 {
	u := *a
	for k := range 3 {
		// Comparisons rather than min and max, which spend branches on
		// NaN and signed zeros (the boxes hold neither NaN nor -0
		// that matters to a filter).
		if b.min[k] < u.min[k] {
			u.min[k] = b.min[k]
		}
		if b.max[k] > u.max[k] {
			u.max[k] = b.max[k]
		}
	}
	return u
}

func (a *box32) center() [3]float32 {
	return [3]float32{a.min[0]/2 + a.max[0]/2, a.min[1]/2 + a.max[1]/2, a.min[2]/2 + a.max[2]/2}
}

// holds reports whether the float64 box b lies in a.
func (a *box32) holds(b *geom.AABB) bool {
	return float64(a.min[0]) <= b.Min.X && float64(a.min[1]) <= b.Min.Y && float64(a.min[2]) <= b.Min.Z &&
		b.Max.X <= float64(a.max[0]) && b.Max.Y <= float64(a.max[1]) && b.Max.Z <= float64(a.max[2])
}

// contains reports whether b lies in a.
func (a *box32) contains(b *box32) bool {
	return a.min[0] <= b.min[0] && a.min[1] <= b.min[1] && a.min[2] <= b.min[2] &&
		b.max[0] <= a.max[0] && b.max[1] <= a.max[1] && b.max[2] <= a.max[2]
}
