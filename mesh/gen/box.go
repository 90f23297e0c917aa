package gen

import (
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh"
)

// Box returns the closed surface of the box b with every face split into an
// n×n grid of quads, two triangles each: 12·n² triangles and 6·n²+2 vertices
// (n = 1 gives the 12-triangle box). b must be finite with Min < Max on every
// axis. The vertices of each face lie exactly in the face's plane (their
// coordinate on its axis is exactly b.Min or b.Max), and the grid coordinates
// are b.Min + (b.Max-b.Min)·i/n, computed as b.Min·((n-i)/n) + b.Max·(i/n).
func Box(b geom.AABB, n int) (*mesh.TriMesh, error) {
	const kind = "box"
	if !b.Min.IsFinite() || !b.Max.IsFinite() || !(b.Min.X < b.Max.X && b.Min.Y < b.Max.Y && b.Min.Z < b.Max.Z) {
		return nil, errorf(kind, "box must be finite with Min < Max on every axis, got %v-%v", b.Min, b.Max)
	}
	if n < 1 {
		return nil, errorf(kind, "n must be at least 1, got %d", n)
	}
	if n > 1<<20 || 12*int64(n)*int64(n) > MaxTriangles {
		return nil, errorf(kind, "n = %d gives more than %d triangles", n, MaxTriangles)
	}
	return checkResult(kind, box(b, n))
}

// box builds the grid box. Lattice point (i, j, k) ∈ [0, n]³ is at (xs[i],
// ys[j], zs[k]); the surface points are numbered: the bottom face (k = 0) row
// by row, the top face (k = n), then the rings 0 < k < n, each walked around
// the square boundary counterclockwise from (0, 0).
func box(b geom.AABB, n int) *mesh.TriMesh {
	coords := func(lo, hi float64) []float64 {
		c := make([]float64, n+1)
		c[0], c[n] = lo, hi
		for i := 1; i < n; i++ {
			c[i] = float64(lo*(float64(n-i)/float64(n))) + float64(hi*(float64(i)/float64(n)))
		}
		return c
	}
	xs, ys, zs := coords(b.Min.X, b.Max.X), coords(b.Min.Y, b.Max.Y), coords(b.Min.Z, b.Max.Z)
	face := (n + 1) * (n + 1)
	// perim numbers the boundary points of the square [0, n]².
	perim := func(i, j int) int {
		switch {
		case j == 0 && i < n:
			return i
		case i == n && j < n:
			return n + j
		case j == n && i > 0:
			return 2*n + (n - i)
		}
		return 3*n + (n - j) // i == 0 && j > 0
	}
	index := func(p [3]int) int32 {
		i, j, k := p[0], p[1], p[2]
		switch k {
		case 0:
			return int32(i*(n+1) + j)
		case n:
			return int32(face + i*(n+1) + j)
		}
		return int32(2*face + (k-1)*4*n + perim(i, j))
	}

	m := &mesh.TriMesh{
		Verts: make([]geom.Vec3, 0, 6*n*n+2),
		Tris:  make([][3]int32, 0, 12*n*n),
	}
	for _, k := range []int{0, n} {
		for i := 0; i <= n; i++ {
			for j := 0; j <= n; j++ {
				m.Verts = append(m.Verts, geom.Vec3{X: xs[i], Y: ys[j], Z: zs[k]})
			}
		}
	}
	for k := 1; k < n; k++ {
		for p := range 4 * n {
			var i, j int
			switch side, t := p/n, p%n; side {
			case 0:
				i, j = t, 0
			case 1:
				i, j = n, t
			case 2:
				i, j = n-t, n
			default:
				i, j = 0, n-t
			}
			m.Verts = append(m.Verts, geom.Vec3{X: xs[i], Y: ys[j], Z: zs[k]})
		}
	}

	// Faces -x, +x, -y, +y, -z, +z. On the face of axis a, u = a+1 and
	// v = a+2 (mod 3) are the grid axes, and e_u × e_v = e_a.
	for a := range 3 {
		u, v := (a+1)%3, (a+2)%3
		for _, side := range []int{0, n} {
			for iu := range n {
				for iv := range n {
					var p00, p10, p11, p01 [3]int
					p00[a], p10[a], p11[a], p01[a] = side, side, side, side
					p00[u], p00[v] = iu, iv
					p10[u], p10[v] = iu+1, iv
					p11[u], p11[v] = iu+1, iv+1
					p01[u], p01[v] = iu, iv+1
					q00, q10, q11, q01 := index(p00), index(p10), index(p11), index(p01)
					if side == n {
						m.Tris = append(m.Tris, [3]int32{q00, q10, q11}, [3]int32{q00, q11, q01})
					} else {
						m.Tris = append(m.Tris, [3]int32{q00, q11, q10}, [3]int32{q00, q01, q11})
					}
				}
			}
		}
	}
	return m
}
