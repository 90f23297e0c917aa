package gen

import (
	"math"

	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/internal/portable"
	"github.com/collide3d/collide/mesh"
)

// The regular icosahedron: vertices (0, ±1, ±φ) and their cyclic
// permutations, and 20 faces, counterclockwise seen from outside.
var (
	icoVerts = func() [12]geom.Vec3 {
		const phi = 1.6180339887498948482045868343656381177203091798057628621 // (1+√5)/2
		v := [12]geom.Vec3{
			{X: -1, Y: phi}, {X: 1, Y: phi}, {X: -1, Y: -phi}, {X: 1, Y: -phi},
			{Y: -1, Z: phi}, {Y: 1, Z: phi}, {Y: -1, Z: -phi}, {Y: 1, Z: -phi},
			{X: phi, Z: -1}, {X: phi, Z: 1}, {X: -phi, Z: -1}, {X: -phi, Z: 1},
		}
		for i := range v {
			v[i] = portable.Unit(v[i])
		}
		return v
	}()
	icoFaces = [20][3]int{
		{0, 11, 5}, {0, 5, 1}, {0, 1, 7}, {0, 7, 10}, {0, 10, 11},
		{1, 5, 9}, {5, 11, 4}, {11, 10, 2}, {10, 7, 6}, {7, 1, 8},
		{3, 9, 4}, {3, 4, 2}, {3, 2, 6}, {3, 6, 8}, {3, 8, 9},
		{4, 9, 5}, {2, 4, 11}, {6, 2, 10}, {8, 6, 7}, {9, 8, 1},
	}
)

// icosphereFrequency returns the n ≥ 1 whose 20·n² is closest to tris (the
// smaller on a tie).
func icosphereFrequency(tris int64) int64 {
	n := int64(math.Sqrt(float64(tris) / 20))
	for n > 1 && 20*n*n > tris {
		n--
	}
	for 20*(n+1)*(n+1) <= tris {
		n++
	}
	if n < 1 {
		return 1
	}
	// Now 20n² ≤ tris < 20(n+1)² (or n = 1 and tris < 20).
	if 20*(n+1)*(n+1)-tris < tris-20*n*n {
		n++
	}
	return n
}

// Icosphere returns a geodesic sphere of the given center and radius: the
// regular icosahedron with every edge split into n equal parts, every face
// into n² triangles, and every vertex pushed out to the sphere. It has 20·n²
// triangles and 10·n²+2 vertices, with n ≥ 1 the frequency whose count is
// closest to tris (the smaller on a tie); tris must be at least 20. Requests
// of 20·4ᵏ give the counts and the connectivity of the classic recursively
// subdivided icospheres (with slightly different vertices: here every one is
// projected from the flat icosahedron's face).
//
// Every vertex lies at distance radius from center to within a few ulps.
func Icosphere(center geom.Vec3, radius float64, tris int) (*mesh.TriMesh, error) {
	const kind = "icosphere"
	if err := checkCenter(kind, center); err != nil {
		return nil, err
	}
	if err := checkPositive(kind, "radius", radius); err != nil {
		return nil, err
	}
	if err := checkTris(kind, tris, 20); err != nil {
		return nil, err
	}
	n := icosphereFrequency(int64(tris))
	if err := checkCount(kind, 20*n*n); err != nil {
		return nil, err
	}
	return checkResult(kind, icosphere(center, radius, int(n)))
}

// icosphere builds the frequency-n geodesic sphere. Vertices are numbered
// corners first (as in icoVerts), then the n-1 inner points of each edge in
// the order the faces first meet the edges, then the inner points of each
// face; triangles go face by face.
func icosphere(center geom.Vec3, radius float64, n int) *mesh.TriMesh {
	m := &mesh.TriMesh{
		Verts: make([]geom.Vec3, 0, 10*n*n+2),
		Tris:  make([][3]int32, 0, 20*n*n),
	}
	put := func(p geom.Vec3) int32 {
		m.Verts = append(m.Verts, addScaled(center, radius, portable.Unit(p)))
		return int32(len(m.Verts) - 1)
	}
	// mix returns (a·U[i] + b·U[j] + c·U[k]) / n before projection.
	fn := float64(n)
	mix := func(a int, u geom.Vec3, b int, v geom.Vec3, c int, w geom.Vec3) geom.Vec3 {
		wa, wb, wc := float64(a)/fn, float64(b)/fn, float64(c)/fn
		return geom.Vec3{
			X: float64(wa*u.X) + float64(wb*v.X) + float64(wc*w.X),
			Y: float64(wa*u.Y) + float64(wb*v.Y) + float64(wc*w.Y),
			Z: float64(wa*u.Z) + float64(wb*v.Z) + float64(wc*w.Z),
		}
	}
	for _, v := range icoVerts {
		put(v)
	}

	// Inner edge points, computed once from the lower-numbered end so that
	// both faces of an edge share them.
	edgeStart := make(map[[2]int]int32, 30)
	for _, f := range icoFaces {
		for e := range 3 {
			a, b := f[e], f[(e+1)%3]
			if a > b {
				a, b = b, a
			}
			if _, ok := edgeStart[[2]int{a, b}]; ok {
				continue
			}
			edgeStart[[2]int{a, b}] = int32(len(m.Verts))
			for k := 1; k < n; k++ {
				put(mix(n-k, icoVerts[a], k, icoVerts[b], 0, geom.Vec3{}))
			}
		}
	}
	// edgePoint returns the point k steps (0 < k < n) from corner a toward b.
	edgePoint := func(a, b, k int) int32 {
		if a < b {
			return edgeStart[[2]int{a, b}] + int32(k-1)
		}
		return edgeStart[[2]int{b, a}] + int32(n-k-1)
	}

	// idx[i*(n+1)+j] is the vertex at A + (i/n)(B-A) + (j/n)(C-A).
	idx := make([]int32, (n+1)*(n+1))
	for _, f := range icoFaces {
		a, b, c := f[0], f[1], f[2]
		for i := 0; i <= n; i++ {
			for j := 0; i+j <= n; j++ {
				var v int32
				switch {
				case i == 0 && j == 0:
					v = int32(a)
				case i == n:
					v = int32(b)
				case j == n:
					v = int32(c)
				case j == 0:
					v = edgePoint(a, b, i)
				case i == 0:
					v = edgePoint(a, c, j)
				case i+j == n:
					v = edgePoint(b, c, j)
				default:
					v = put(mix(n-i-j, icoVerts[a], i, icoVerts[b], j, icoVerts[c]))
				}
				idx[i*(n+1)+j] = v
			}
		}
		at := func(i, j int) int32 { return idx[i*(n+1)+j] }
		for i := range n {
			for j := 0; i+j < n; j++ {
				m.Tris = append(m.Tris, [3]int32{at(i, j), at(i+1, j), at(i, j+1)})
				if i+j < n-1 {
					m.Tris = append(m.Tris, [3]int32{at(i+1, j), at(i+1, j+1), at(i, j+1)})
				}
			}
		}
	}
	return m
}
