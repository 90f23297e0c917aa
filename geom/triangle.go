package geom

// Triangle is a closed triangle: the convex hull of its three vertices. A
// degenerate triangle (collinear or coincident vertices) is the segment or the
// point that it is.
type Triangle [3]Vec3

// Tri returns the triangle (a, b, c).
func Tri(a, b, c Vec3) Triangle { return Triangle{a, b, c} }

// Bounds returns the smallest AABB containing t.
func (t Triangle) Bounds() AABB {
	return AABB{t[0].Min(t[1]).Min(t[2]), t[0].Max(t[1]).Max(t[2])}
}

// FiniteBounds returns Bounds for a t whose coordinates are finite: by
// comparisons, without the NaN handling of math.Min and math.Max, which
// made hot loops over many triangles measurably slower (nc's
// BenchmarkMoves, 13-23%). For a t with a NaN coordinate its answer
// means nothing.
func (t *Triangle) FiniteBounds() AABB {
	lo, hi := t[0], t[0]
	for _, p := range t[1:] {
		if p.X < lo.X {
			lo.X = p.X
		} else if p.X > hi.X {
			hi.X = p.X
		}
		if p.Y < lo.Y {
			lo.Y = p.Y
		} else if p.Y > hi.Y {
			hi.Y = p.Y
		}
		if p.Z < lo.Z {
			lo.Z = p.Z
		} else if p.Z > hi.Z {
			hi.Z = p.Z
		}
	}
	return AABB{Min: lo, Max: hi}
}

// Normal returns (t1 - t0) × (t2 - t0), the unnormalised normal of t, whose
// length is twice its area.
func (t Triangle) Normal() Vec3 { return t[1].Sub(t[0]).Cross(t[2].Sub(t[0])) }

// Area returns the area of t.
func (t Triangle) Area() float64 { return 0.5 * t.Normal().Norm() }

// Centroid returns the mean of the vertices of t.
func (t Triangle) Centroid() Vec3 {
	return Vec3{
		(t[0].X + t[1].X + t[2].X) / 3,
		(t[0].Y + t[1].Y + t[2].Y) / 3,
		(t[0].Z + t[1].Z + t[2].Z) / 3,
	}
}

// IsDegenerate reports exactly whether the vertices of t are collinear (or
// coincide), that is whether t has zero area.
func (t Triangle) IsDegenerate() bool {
	return Orient2D(t[0].X, t[0].Y, t[1].X, t[1].Y, t[2].X, t[2].Y) == 0 &&
		Orient2D(t[0].Y, t[0].Z, t[1].Y, t[1].Z, t[2].Y, t[2].Z) == 0 &&
		Orient2D(t[0].Z, t[0].X, t[1].Z, t[1].X, t[2].Z, t[2].X) == 0
}

// IsFinite reports whether every coordinate of t is finite.
func (t Triangle) IsFinite() bool { return t[0].IsFinite() && t[1].IsFinite() && t[2].IsFinite() }
