package depth

import (
	"math"

	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh"
)

// Solid is the solid bounded by a closed mesh, for exact point
// classification (Winding, Contains) and distances to its surface.
// It is immutable and safe for concurrent use.
type Solid struct {
	tris  []geom.Triangle
	boxes []geom.AABB
	box   geom.AABB
}

// NewSolid checks that m is closed (else it returns an *OpenError naming
// "mesh") and returns its solid.
func NewSolid(m *mesh.TriMesh) (*Solid, error) {
	if _, err := checkMesh(m, "mesh"); err != nil {
		return nil, err
	}
	tris := make([]geom.Triangle, len(m.Tris))
	for i := range tris {
		tris[i] = m.Triangle(i)
	}
	return newSolid(tris), nil
}

func newSolid(tris []geom.Triangle) *Solid {
	s := &Solid{tris: tris, boxes: make([]geom.AABB, len(tris)), box: geom.EmptyAABB()}
	for i, t := range tris {
		s.boxes[i] = t.Bounds()
		s.box = s.box.Union(s.boxes[i])
	}
	return s
}

// Winding returns the winding number of the surface around p and whether p
// lies on the surface (then w is 0 and meaningless). Both are exact for the
// float64 coordinates: on is decided by geom.TriTri against the point, and
// w counts, with signs, the triangles crossed by the ray from p along +x,
// the ray's origin being perturbed symbolically to (p.X, p.Y+ε, p.Z+ε²)
// (simulation of simplicity), so that a ray through an edge or a vertex
// is counted once, consistently between the triangles that share it.
// p is inside the solid (Contains) iff it is off the surface and w ≠ 0.
func (s *Solid) Winding(p geom.Vec3) (w int, on bool) {
	pt := geom.Triangle{p, p, p}
	for i := range s.tris {
		b := &s.boxes[i]
		if p.Y < b.Min.Y || p.Y > b.Max.Y || p.Z < b.Min.Z || p.Z > b.Max.Z || p.X > b.Max.X {
			continue
		}
		t := &s.tris[i]
		if p.X >= b.Min.X && geom.TriTri(*t, pt) {
			return 0, true
		}
		s1 := orientYZ(t[0], t[1], p)
		if s1 == 0 {
			continue
		}
		if orientYZ(t[1], t[2], p) != s1 || orientYZ(t[2], t[0], p) != s1 {
			continue
		}
		// The perturbed ray meets the triangle's plane at x* with
		// x* > p.X iff p is on the side of the plane opposite to the
		// normal's x component (p is not on the plane: it would then be
		// on the triangle).
		if geom.Orient3D(t[0], t[1], t[2], p) == -s1 {
			w += s1
		}
	}
	return w, false
}

// Contains reports whether p is in the interior of the solid: off the
// surface with a nonzero winding number.
func (s *Solid) Contains(p geom.Vec3) bool {
	w, on := s.Winding(p)
	return !on && w != 0
}

// orientYZ is the sign of the 2D orientation of a, b and p projected on
// the yz-plane, with p perturbed to (p.Y+ε, p.Z+ε²): it is 0 only when a
// and b project to the same point.
func orientYZ(a, b, p geom.Vec3) int {
	if o := geom.Orient2D(a.Y, a.Z, b.Y, b.Z, p.Y, p.Z); o != 0 {
		return o
	}
	// det(ε) = det + (b.Y-a.Y)ε² - (b.Z-a.Z)ε.
	switch {
	case a.Z > b.Z:
		return 1
	case a.Z < b.Z:
		return -1
	case b.Y > a.Y:
		return 1
	case b.Y < a.Y:
		return -1
	}
	return 0
}

// Distance returns the distance from p to the surface and a closest point
// on it, in floating point (a few ulps of the coordinates).
func (s *Solid) Distance(p geom.Vec3) (float64, geom.Vec3) {
	best, bestP := math.Inf(1), p
	best2 := math.Inf(1)
	for i := range s.tris {
		b := &s.boxes[i]
		// Squared distance from p to the triangle's box: a lower bound.
		dx := max(b.Min.X-p.X, 0, p.X-b.Max.X)
		dy := max(b.Min.Y-p.Y, 0, p.Y-b.Max.Y)
		dz := max(b.Min.Z-p.Z, 0, p.Z-b.Max.Z)
		if dx*dx+dy*dy+dz*dz > best2 {
			continue
		}
		c := geom.ClosestPointTriangle(p, s.tris[i])
		if d2 := c.Sub(p).Norm2(); d2 < best2 {
			best2, bestP = d2, c
		}
	}
	if best2 < math.Inf(1) {
		best = math.Sqrt(best2)
	}
	return best, bestP
}

// Bounds returns the bounding box of the surface.
func (s *Solid) Bounds() geom.AABB { return s.box }
