package geom

// TriTri reports exactly whether the closed triangles a and b share a point.
func TriTri(a, b Triangle) bool {
	panic("TODO: being written")
}

// TriTriDistance returns the Euclidean distance between the closed triangles
// a and b and a pair of closest points pa ∈ a, pb ∈ b.
func TriTriDistance(a, b Triangle) (dist float64, pa, pb Vec3) {
	panic("TODO: being written")
}

// TriTriWithin reports whether a and b are at distance at most eps.
func TriTriWithin(a, b Triangle, eps float64) bool {
	panic("TODO: being written")
}
