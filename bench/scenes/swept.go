package scenes

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/flight"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh"
)

// sweptGap is the least distance, relative to the axe's length, between a
// tetrahedron of the Swept scene and the axe at any step of its path.
const sweptGap = 1e-3

// swept: "an axe-shaped polyhedron flying through a swept volume
// surrounded by 10,000 random tetrahedra, placed close to the swept volume
// but never penetrating it" (36 and 40,000 triangles, 1,000 steps, no
// contact).
//
// The path is drawn first (a billiard path that ignores collisions); then
// tetrahedra are drawn next to the axe at random steps, each near a random
// point of its surface, and a tetrahedron is kept only if it is farther
// than sweptGap from the axe at every step of the path. The test is a
// query at tolerance sweptGap against the union of the axe's copies at all
// the steps, so a correct flight along the path finds no contact.
func swept(size Size, seed uint64) (*Scene, error) {
	axe := Axe()
	ab := axe.Bounds()
	length := ab.Size().X
	length = math.Max(length, math.Max(ab.Size().Y, ab.Size().Z))
	steps := pick(size, 1000, 200)
	room := geom.AABB{Max: cube(6 * length)}
	path := flight.BilliardConfig{
		Center: ab.Center(), Start: room.Center(), Bounds: shrink(room, cube(length)),
		Speed: 0.02 * length, Spin: 0.03, Turn: 0.3, Fixed: true, Seed: seed,
	}
	b, err := flight.NewBilliard(path)
	if err != nil {
		return nil, err
	}
	poses := flight.Path(b, steps)
	union := &mesh.TriMesh{}
	for _, p := range poses {
		appendMesh(union, axe, p)
	}
	unionModel, err := collide.Build(union, collide.BuildOptions{})
	if err != nil {
		return nil, err
	}
	n := pick(size, 10000, 1000)
	env, err := tetrahedraNear(union, unionModel, n, sweptGap*length, 0.06*length, seed)
	if err != nil {
		return nil, err
	}
	return &Scene{
		Doc: fmt.Sprintf("a 36-triangle axe (Axe) flying along a fixed random path through %d tetrahedra placed close to its swept volume, never touching it", n),
		Env: env, Fly: axe,
		Steps: steps, Poses: poses, Billiard: path,
		Paper: Paper{40000, 36, 1000, 0},
	}, nil
}

// tetrahedraNear returns n random tetrahedra of about the given size, each
// near a random point of the surface of near and farther than gap from
// every triangle of it.
//
// A tetrahedron is tested by an exact query on its copy with every face
// pushed out by gap (scaled about its incenter): that solid contains every
// point within gap of the tetrahedron, so if its surface does not meet near
// (whose triangles are far bigger than a tetrahedron, so none lies inside
// it), the tetrahedron is farther than gap from near.
func tetrahedraNear(near *mesh.TriMesh, nearModel *collide.Model, n int, gap, size float64, seed uint64) (*mesh.TriMesh, error) {
	rng := rand.New(rand.NewPCG(seed, 0x7377657074)) // "swept"
	out := &mesh.TriMesh{}
	for round := 0; len(out.Tris) < 4*n; round++ {
		if round == 20 {
			return nil, fmt.Errorf("placed only %d of %d tetrahedra", len(out.Tris)/4, n)
		}
		want := n - len(out.Tris)/4
		cand, grown := &mesh.TriMesh{}, &mesh.TriMesh{}
		for range want + want/2 + 16 {
			t := near.Triangle(rng.IntN(near.NumTriangles()))
			u, v := rng.Float64(), rng.Float64()
			if u+v > 1 {
				u, v = 1-u, 1-v
			}
			p := t[0].Add(t[1].Sub(t[0]).Scale(u)).Add(t[2].Sub(t[0]).Scale(v))
			s := size * (0.5 + rng.Float64())
			// Off the surface by the gap and up to a tetrahedron's size
			// more, in a random direction.
			c := p.Add(randomUnit(rng).Scale(gap + 0.8*s + s*rng.Float64()))
			tet := randomTetra(c, s, rng)
			addTetra(cand, tet)
			addTetra(grown, offsetTetra(tet, gap))
		}
		// One first-contact query per tetrahedron: a tetrahedron near the
		// path meets many of the axe's overlapping copies, and one pair
		// is enough to reject it.
		for i := range cand.NumTriangles() / 4 {
			g := &mesh.TriMesh{Verts: grown.Verts[4*i : 4*i+4], Tris: tetraFaces}
			gm, err := collide.Build(g, collide.BuildOptions{})
			if err != nil {
				return nil, err
			}
			res, err := collide.Check(nearModel, gm, geom.Identity(), collide.QueryOptions{})
			if err != nil {
				return nil, err
			}
			if !res.Collide && len(out.Tris) < 4*n {
				addTetra(out, [4]geom.Vec3(cand.Verts[4*i:4*i+4]))
			}
		}
	}
	return out, nil
}

// randomTetra returns a random tetrahedron: a regular one of edge s about
// c, turned at random and with its vertices jittered by up to s/4, with
// det(v1-v0, v2-v0, v3-v0) > 0.
func randomTetra(c geom.Vec3, s float64, rng *rand.Rand) [4]geom.Vec3 {
	q := geom.AxisAngle(randomUnit(rng), 2*math.Pi*rng.Float64()).Mat3()
	h := s / (2 * math.Sqrt2)
	reg := [4]geom.Vec3{{X: h, Y: h, Z: h}, {X: -h, Y: h, Z: -h}, {X: h, Y: -h, Z: -h}, {X: -h, Y: -h, Z: h}}
	var v [4]geom.Vec3
	for i, o := range reg {
		v[i] = c.Add(q.MulVec(o)).Add(randomUnit(rng).Scale(s / 4 * rng.Float64()))
	}
	if v[1].Sub(v[0]).Cross(v[2].Sub(v[0])).Dot(v[3].Sub(v[0])) < 0 {
		v[1], v[2] = v[2], v[1]
	}
	return v
}

// offsetTetra returns v with every face pushed out by d (twice that, for
// rounding), v scaled about its incenter.
func offsetTetra(v [4]geom.Vec3, d float64) [4]geom.Vec3 {
	var area [4]float64 // area[i]: the face opposite v[i]
	var sum float64
	for i := range 4 {
		a, b, c := v[(i+1)%4], v[(i+2)%4], v[(i+3)%4]
		area[i] = b.Sub(a).Cross(c.Sub(a)).Norm() / 2
		sum += area[i]
	}
	var in geom.Vec3
	for i := range 4 {
		in = in.Add(v[i].Scale(area[i] / sum))
	}
	vol := v[1].Sub(v[0]).Cross(v[2].Sub(v[0])).Dot(v[3].Sub(v[0])) / 6
	r := 3 * vol / sum // the inradius
	f := (r + 2*d) / r
	var out [4]geom.Vec3
	for i := range 4 {
		out[i] = in.Add(v[i].Sub(in).Scale(f))
	}
	return out
}

// tetraFaces are the faces of a tetrahedron v0..v3 with det(v1-v0, v2-v0,
// v3-v0) > 0, pointing outward.
var tetraFaces = [][3]int32{{0, 2, 1}, {0, 1, 3}, {0, 3, 2}, {1, 2, 3}}

// addTetra appends the tetrahedron v (det(v1-v0, v2-v0, v3-v0) > 0) to m,
// its faces pointing outward.
func addTetra(m *mesh.TriMesh, v [4]geom.Vec3) {
	base := int32(len(m.Verts))
	m.Verts = append(m.Verts, v[:]...)
	for _, f := range tetraFaces {
		m.Tris = append(m.Tris, [3]int32{base + f[0], base + f[1], base + f[2]})
	}
}

// randomUnit returns a random unit vector, uniform on the sphere.
func randomUnit(rng *rand.Rand) geom.Vec3 {
	for {
		v := geom.Vec3{X: 2*rng.Float64() - 1, Y: 2*rng.Float64() - 1, Z: 2*rng.Float64() - 1}
		if n := v.Norm(); n > 0.01 && n <= 1 {
			return v.Scale(1 / n)
		}
	}
}
