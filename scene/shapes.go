package scene

import (
	"math"

	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh"
	"github.com/collide3d/collide/mesh/gen"
)

// merge returns the meshes as one soup.
func merge(ms ...*mesh.TriMesh) *mesh.TriMesh {
	out := &mesh.TriMesh{}
	for _, m := range ms {
		off := int32(len(out.Verts))
		out.Verts = append(out.Verts, m.Verts...)
		for _, t := range m.Tris {
			out.Tris = append(out.Tris, [3]int32{t[0] + off, t[1] + off, t[2] + off})
		}
	}
	return out
}

// tetrahedron returns a regular tetrahedron with circumradius r about the
// origin, faces outward.
func tetrahedron(r float64) *mesh.TriMesh {
	s := r / math.Sqrt(3)
	return &mesh.TriMesh{
		Verts: []geom.Vec3{{X: s, Y: s, Z: s}, {X: s, Y: -s, Z: -s}, {X: -s, Y: s, Z: -s}, {X: -s, Y: -s, Z: s}},
		Tris:  [][3]int32{{0, 1, 2}, {0, 3, 1}, {0, 2, 3}, {1, 3, 2}},
	}
}

// centeredBox returns a box of size d centred at the origin, each face an
// n×n grid.
func centeredBox(d geom.Vec3, n int) *mesh.TriMesh {
	h := d.Scale(0.5)
	return gen.Must(gen.Box(geom.AABB{Min: h.Neg(), Max: h}, n))
}

// hyperboloid returns a closed hyperboloid of one sheet,
// x²/a² + y²/b² - z²/c² = 1 for |z| ≤ h, whose rims are twice as wide as
// its waist, capped by fans, filling the box size (rims sx × sy, height
// sz): rings rings of s segments (s a multiple of 4, so that the rims reach
// the box's sides).
func hyperboloid(size geom.Vec3, rings, s int) *mesh.TriMesh {
	h := size.Z / 2
	a, b := size.X/4, size.Y/4 // at the rims, k = 2
	c := h / math.Sqrt(3)      // k(h) = √(1 + h²/c²) = 2
	m := &mesh.TriMesh{}
	for i := 0; i <= rings; i++ {
		z := -h + size.Z*float64(i)/float64(rings)
		k := math.Sqrt(1 + z*z/(c*c))
		if i == 0 || i == rings {
			k = 2
		}
		for j := range s {
			sn, cs := sincosFrac(j, s)
			m.Verts = append(m.Verts, geom.Vec3{X: a * k * cs, Y: b * k * sn, Z: z})
		}
	}
	for i := range rings {
		for j := range s {
			v00 := int32(i*s + j)
			v01 := int32(i*s + (j+1)%s)
			v10, v11 := v00+int32(s), v01+int32(s)
			m.Tris = append(m.Tris, [3]int32{v00, v01, v11}, [3]int32{v00, v11, v10})
		}
	}
	bot, top := int32(len(m.Verts)), int32(len(m.Verts)+1)
	m.Verts = append(m.Verts, geom.Vec3{Z: -h}, geom.Vec3{Z: h})
	last := int32(rings * s)
	for j := range s {
		j0, j1 := int32(j), int32((j+1)%s)
		m.Tris = append(m.Tris, [3]int32{bot, j1, j0}, [3]int32{top, last + j0, last + j1})
	}
	return m
}

// sincosFrac returns the sine and cosine of 2π·j/n, exact at the quarter
// turns.
func sincosFrac(j, n int) (float64, float64) {
	if 4*j%n == 0 {
		switch 4 * j / n {
		case 0:
			return 0, 1
		case 1:
			return 1, 0
		case 2:
			return 0, -1
		case 3:
			return -1, 0
		}
	}
	return math.Sincos(2 * math.Pi * float64(j) / float64(n))
}

// elongated returns CDFast's "complex object" as we read it: an object of
// 0.4×0.23×0.23, a fuselage along x (a capsule of radius 0.05, 0.4 long)
// crossed by a wing (0.1×0.23×0.02, along y) and a fin (0.06×0.02×0.23,
// along z) near its tail: not convex, long and thin, so that one sphere
// bounds it loosely. About tris triangles.
func elongated(tris int) *mesh.TriMesh {
	const r, length = 0.05, 0.4
	body := gen.Must(gen.Capsule(r, length-2*r, max(tris-96, 12)))
	// z → x, exactly: (x, y, z) ↦ (z, y, -x), then centred.
	for i, v := range body.Verts {
		body.Verts[i] = geom.Vec3{X: v.Z - length/2 + r, Y: v.Y, Z: 0 - v.X}
	}
	wing := gen.Must(gen.Box(geom.AABB{Min: geom.V(-0.05, -0.115, -0.01), Max: geom.V(0.05, 0.115, 0.01)}, 2))
	fin := gen.Must(gen.Box(geom.AABB{Min: geom.V(0.1, -0.01, -0.115), Max: geom.V(0.16, 0.01, 0.115)}, 2))
	return merge(body, wing, fin)
}
