package depth

import (
	"math"

	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh"
	"github.com/collide3d/collide/solid"
)

// Solid is the solid bounded by a closed mesh, for exact point
// classification (Winding, Contains) and distances to its surface.
// It is immutable and safe for concurrent use.
type Solid struct {
	s     *solid.Solid
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
	ss := solid.FromTriangles(tris)
	return &Solid{s: ss, tris: tris, boxes: ss.Boxes(), box: ss.Bounds()}
}

// Winding returns the winding number of the surface around p and whether p
// lies on the surface (then w is 0 and meaningless). Both are exact for the
// float64 coordinates: on is decided by geom.TriTri against the point, and
// w counts, with signs, the triangles crossed by the ray from p along +x,
// the ray's origin being perturbed symbolically to (p.X, p.Y+ε, p.Z+ε²)
// (simulation of simplicity), so that a ray through an edge or a vertex
// is counted once, consistently between the triangles that share it.
// p is inside the solid (Contains) iff it is off the surface and w ≠ 0.
// It is package solid's Winding, which indexes the triangles once a solid
// has been asked about a few points.
func (s *Solid) Winding(p geom.Vec3) (w int, on bool) { return s.s.Winding(p) }

// Contains reports whether p is in the interior of the solid: off the
// surface with a nonzero winding number.
func (s *Solid) Contains(p geom.Vec3) bool { return s.s.Contains(p) }

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
