package testgeom

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/collide3d/collide/geom"
)

// Cloud is a named point set for the tests of convex hulls and of the k-DOPs
// climbed on them, with the expected number of hull vertices and the
// expected dimension where they are known (-1: not checked).
type Cloud struct {
	Name  string
	Pts   []geom.Vec3
	Verts int
	Dim   int
}

// SpherePoints returns n points drawn uniformly on the sphere of radius r
// centred at c (rounded: they lie near it, not on it).
func SpherePoints(rng *rand.Rand, n int, r float64, c geom.Vec3) []geom.Vec3 {
	pts := make([]geom.Vec3, n)
	for i := range pts {
		v := geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()).Unit()
		pts[i] = v.Scale(r).Add(c)
	}
	return pts
}

// BoxPoints returns n points drawn uniformly in the cube [-1, 1]³.
func BoxPoints(rng *rand.Rand, n int) []geom.Vec3 {
	pts := make([]geom.Vec3, n)
	for i := range pts {
		pts[i] = geom.V(2*rng.Float64()-1, 2*rng.Float64()-1, 2*rng.Float64()-1)
	}
	return pts
}

// LatticePoints returns the n×n×n integer grid scaled by s and offset by o.
func LatticePoints(n int, s float64, o geom.Vec3) []geom.Vec3 {
	var pts []geom.Vec3
	for i := range n {
		for j := range n {
			for k := range n {
				pts = append(pts, geom.V(float64(i), float64(j), float64(k)).Scale(s).Add(o))
			}
		}
	}
	return pts
}

// HullClouds returns the point sets that stress a convex hull: empty, single
// and repeated points, collinear and exactly coplanar sets (tilted and
// vertical planes, a grid with duplicates, a triangle with points on its
// edges), a needle-thin tetrahedron spanning 600 orders of magnitude,
// lattices near and far from the origin and tiny (whole faces of ties), a
// cube with points on its faces and edges, random spheres and boxes of 4 to
// 2000 points, heavy duplicates, a multi-scale soup, spheres far away, tiny,
// huge and minute, and points with NaN and infinite coordinates. The sets are
// the same on every call.
func HullClouds() []Cloud {
	rng := rand.New(rand.NewPCG(1, 1))
	var cs []Cloud
	add := func(name string, pts []geom.Vec3, verts, dim int) {
		cs = append(cs, Cloud{name, pts, verts, dim})
	}
	add("empty", nil, 0, -1)
	add("single", []geom.Vec3{geom.V(1, 2, 3)}, 1, 0)
	p := geom.V(-0.5, 7, 1e-3)
	add("repeated", []geom.Vec3{p, p, p, p, p}, 1, 0)
	var line []geom.Vec3
	for _, t := range rng.Perm(40) {
		line = append(line, geom.V(3, -1, 2).Add(geom.V(1, 2, -3).Scale(float64(t-10))))
	}
	line = append(line, line[5], line[7])
	add("collinear", line, 2, 1)
	add("two", []geom.Vec3{geom.V(0, 0, 0), geom.V(0, 0, 1e-300)}, 2, 1)
	// A tilted plane through integer combinations: exactly coplanar.
	var plane []geom.Vec3
	for range 300 {
		a, b := float64(rng.IntN(41)-20), float64(rng.IntN(41)-20)
		plane = append(plane, geom.V(5, -3, 2).Add(geom.V(1, 2, 3).Scale(a)).Add(geom.V(-2, 1, 1).Scale(b)))
	}
	add("coplanar", plane, -1, 2)
	var grid2 []geom.Vec3
	for i := range 10 {
		for j := range 10 {
			grid2 = append(grid2, geom.V(float64(i), 0.25, float64(j)), geom.V(float64(i), 0.25, float64(j)))
		}
	}
	add("grid2", grid2, 4, 2)
	add("triangle", []geom.Vec3{geom.V(0, 0, 0), geom.V(1, 0, 0), geom.V(0, 1, 0), geom.V(0.5, 0, 0), geom.V(0.25, 0.25, 0)}, 3, 2)
	var vert []geom.Vec3
	for range 100 {
		a, b := float64(rng.IntN(21)-10), float64(rng.IntN(21)-10)
		vert = append(vert, geom.V(a, 2*a, b))
	}
	add("vertical-plane", vert, -1, 2)
	add("skewed", []geom.Vec3{{}, geom.V(1e300, 0, 0), geom.V(0, 1e-300, 0), geom.V(0, 0, 1e-300), geom.V(1e299, 1e-301, 0)}, 4, 3)
	add("tetra", []geom.Vec3{geom.V(0, 0, 0), geom.V(1, 0, 0), geom.V(0, 1, 0), geom.V(0, 0, 1)}, 4, 3)
	add("octahedron", []geom.Vec3{geom.V(1, 0, 0), geom.V(-1, 0, 0), geom.V(0, 1, 0), geom.V(0, -1, 0), geom.V(0, 0, 1), geom.V(0, 0, -1), {}}, 6, 3)
	add("lattice", LatticePoints(6, 1, geom.Vec3{}), 8, 3)
	add("lattice-far", LatticePoints(5, 1, geom.V(1e6, -1e6, 1e6)), 8, 3)
	add("lattice-tiny", LatticePoints(5, 1e-7, geom.Vec3{}), 8, 3)
	// Cube corners with points on its faces and edges and inside.
	cube := LatticePoints(2, 2, geom.V(-1, -1, -1))
	for range 200 {
		q := BoxPoints(rng, 1)[0]
		switch rng.IntN(3) {
		case 0:
			q.X = float64(2*rng.IntN(2) - 1)
		case 1:
			q.Y, q.Z = float64(2*rng.IntN(2)-1), float64(2*rng.IntN(2)-1)
		}
		cube = append(cube, q)
	}
	add("cube-faces", cube, 8, 3)
	for _, n := range []int{4, 5, 10, 100, 2000} {
		add(fmt.Sprintf("sphere%d", n), SpherePoints(rng, n, 1, geom.Vec3{}), -1, -1)
		add(fmt.Sprintf("box%d", n), BoxPoints(rng, n), -1, -1)
	}
	s := SpherePoints(rng, 300, 1, geom.Vec3{})
	dup := append(append(append([]geom.Vec3{}, s...), s...), s[:100]...)
	rng.Shuffle(len(dup), func(i, j int) { dup[i], dup[j] = dup[j], dup[i] })
	add("duplicates", dup, -1, 3)
	var soup []geom.Vec3
	for range 500 {
		sc := math.Ldexp(1, rng.IntN(20)-10)
		soup = append(soup, BoxPoints(rng, 1)[0].Scale(sc).Add(geom.V(float64(rng.IntN(3)), 0, 0)))
	}
	add("soup", soup, -1, 3)
	add("far", SpherePoints(rng, 500, 1, geom.V(1e6, 1e6, -1e6)), -1, 3)
	add("tiny", SpherePoints(rng, 500, 1e-7, geom.V(1e-7, 0, 0)), -1, 3)
	add("huge", SpherePoints(rng, 200, 1e300, geom.Vec3{}), -1, 3)
	add("minute", SpherePoints(rng, 200, 1e-300, geom.Vec3{}), -1, 3)
	nf := SpherePoints(rng, 50, 1, geom.Vec3{})
	nf = append(nf, geom.V(math.NaN(), 0, 0), geom.V(0, math.Inf(1), 0))
	add("nonfinite", nf, -1, 3)
	return cs
}
