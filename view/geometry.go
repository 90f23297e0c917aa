package view

import (
	"slices"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/geom"
)

// stepGeometry is what the page draws of a step's contacts beside the
// triangles: the intersection curves as line segments, a normal at each
// patch's point, and the box of both (where the snapshot frames the
// camera). Coordinates are relative to the recording's origin.
type stepGeometry struct {
	// Segments holds the curves' segments, 6 numbers each (two points).
	Segments []float64
	// Normals holds, 6 numbers each, a point and a unit normal there:
	// each patch's point and normal (from A towards B), or, without
	// patches, each contact's centre and normal.
	Normals []float64
	// Box is the box of the segments' and normals' points; empty when the
	// step has none.
	Box geom.AABB
}

// geometry computes step n's stepGeometry relative to origin o. A pair of
// objects whose models were both built (Model.Built) gets the facade's
// contacts and patches at the step's poses, with the recording's
// tolerance: each contact's segment, or its coplanar polygon's outline,
// and each patch's normal. Where that query cannot be run (models that do
// not fly together) or finds other pairs than those recorded (a
// first-contact recording, pairs bounded by MaxPairs), and for models not
// built, the pairs recorded are met one by one (geom.TriTriContact, the
// triangles placed by their objects' poses) and each contact's normal is
// drawn at the centre of its points. Contacts of kind Apart (a
// tolerance's pairs that do not touch) draw nothing: they have no
// intersection.
func (r *Recording) geometry(n int, o geom.Vec3) *stepGeometry {
	g := &stepGeometry{Box: geom.EmptyAABB()}
	st := &r.Steps[n]
	for _, c := range st.Contacts {
		pa, pb := r.Pose(n, c.A), r.Pose(n, c.B)
		ma, mb := r.Models[r.Objects[c.A].Model], r.Models[r.Objects[c.B].Model]
		if ma.Built != nil && mb.Built != nil {
			q := collide.QueryOptions{All: true, Eps: r.Eps, Patches: true}
			res, err := collide.Collide(ma.Built, pa, mb.Built, pb, q) // in the common frame
			if err == nil && samePairs(res.Pairs, c.Pairs) {
				for i := range res.Contacts {
					k := &res.Contacts[i]
					if k.Kind != geom.Apart {
						g.addOutline(k.Points, o)
					}
				}
				for i := range res.Patches {
					p := &res.Patches[i]
					g.addNormal(p.Point, p.Normal, o)
				}
				continue
			}
		}
		ta, tb := ma.Mesh, mb.Mesh
		for _, p := range c.Pairs {
			k := geom.TriTriContact(pa.ApplyTriangle(ta.Triangle(int(p.Env))), pb.ApplyTriangle(tb.Triangle(int(p.Fly))))
			if k.Kind == geom.Apart || k.N == 0 {
				continue
			}
			pts := make([]geom.Vec3, k.N)
			var centre geom.Vec3
			for i := range pts {
				pts[i] = k.Points[i].P
				centre = centre.Add(pts[i])
			}
			g.addOutline(pts, o)
			g.addNormal(centre.Scale(1/float64(k.N)), k.Normal, o)
		}
	}
	return g
}

// samePairs reports whether sorted (a query's pairs, ascending) holds the
// same pairs as recorded, in any order.
func samePairs(sorted, recorded []collide.Pair) bool {
	if len(sorted) != len(recorded) {
		return false
	}
	if slices.IsSortedFunc(recorded, collide.ComparePairs) {
		return slices.Equal(sorted, recorded)
	}
	return slices.Equal(sorted, slices.SortedFunc(slices.Values(recorded), collide.ComparePairs))
}

// addOutline adds the segments of the shared set pts, relative to o:
// nothing for a point, the segment, or the closed outline of a polygon.
func (g *stepGeometry) addOutline(pts []geom.Vec3, o geom.Vec3) {
	if len(pts) < 2 {
		if len(pts) == 1 {
			g.Box = g.Box.AddPoint(pts[0].Sub(o))
		}
		return
	}
	m := len(pts)
	if m == 2 {
		m = 1 // a segment, not a loop
	}
	for i := range m {
		p, q := pts[i].Sub(o), pts[(i+1)%len(pts)].Sub(o)
		g.Segments = append(g.Segments, p.X, p.Y, p.Z, q.X, q.Y, q.Z)
		g.Box = g.Box.AddPoint(p).AddPoint(q)
	}
}

// addNormal adds a normal n at point p (p relative to o).
func (g *stepGeometry) addNormal(p, n geom.Vec3, o geom.Vec3) {
	p = p.Sub(o)
	g.Normals = append(g.Normals, p.X, p.Y, p.Z, n.X, n.Y, n.Z)
	g.Box = g.Box.AddPoint(p)
}
