package geom

// ContactKind says how two triangles meet.
type ContactKind uint8

const (
	// Apart: the triangles share no point.
	Apart ContactKind = iota
	// Touch: the triangles share points but some plane weakly separates
	// them (each lies in one closed side): their relative interiors do not
	// cross, or they are coplanar.
	Touch
	// Cross: no plane separates them: they are not coplanar and a point
	// lies in the relative interior of both (one surface passes through
	// the other, embedded).
	Cross
)

// String returns "apart", "touch" or "cross".
func (k ContactKind) String() string {
	switch k {
	case Apart:
		return "apart"
	case Touch:
		return "touch"
	case Cross:
		return "cross"
	}
	return "ContactKind(?)"
}

// A Feature names the part of a triangle that holds a point: one of its
// vertices, edges, or its interior. Edge k joins vertex k and vertex
// (k+1) mod 3.
type Feature uint8

const (
	Vertex0 Feature = iota
	Vertex1
	Vertex2
	Edge01
	Edge12
	Edge20
	Face
)

// ContactPoint is a vertex of the set two triangles share: its computed
// position and, exactly, the feature of each triangle that holds the exact
// point (the feature of least dimension: a vertex before an edge before the
// face).
type ContactPoint struct {
	P    Vec3
	A, B Feature
}

// TriContact is the set two closed triangles share (TriTriContact).
type TriContact struct {
	Kind ContactKind
	// N is the number of Points: 1 for a point, 2 for a segment, 3 to 6
	// for the convex polygon of a coplanar overlap (in order around it,
	// counter-clockwise seen from the side Normal points to).
	N      int
	Points [6]ContactPoint
	// Normal is a unit vector from a towards b: for a touch, a direction
	// that separates them (a on its negative side, b on its positive
	// side); for a crossing, a's normal by its winding (see
	// TriTriContact).
	Normal Vec3
	// Bound bounds the distance of each computed point from the exact
	// point it stands for.
	Bound float64
}

// TriTriContact returns the set the closed triangles a and b share, exactly
// in its combinatorics. Its kind is Apart exactly when TriTri(a, b) is
// false.
func TriTriContact(a, b Triangle) TriContact {
	panic("TriTriContact: not yet implemented")
}
