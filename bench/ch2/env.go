package ch2

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/collide3d/collide/bench/scenes"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh"
	"github.com/collide3d/collide/mesh/gen"
)

// unitCube is the workspace every environment fills.
var unitCube = geom.AABB{Max: geom.Vec3{X: 1, Y: 1, Z: 1}}

// BSP returns the leaves of a random binary space partition of box into n
// boxes (the chapter's environments): n-1 times, a random leaf with a side
// longer than 2ε is cut across a random such side at a point uniform in
// [min+ε, max-ε].
func BSP(box geom.AABB, n int, eps float64, r *rand.Rand) []geom.AABB {
	leaves := []geom.AABB{box}
	for len(leaves) < n {
		i := r.IntN(len(leaves))
		b := leaves[i]
		var axes []int
		for a := range 3 {
			if b.Max.Index(a)-b.Min.Index(a) > 2*eps {
				axes = append(axes, a)
			}
		}
		if len(axes) == 0 {
			// Every leaf too small would loop forever; this one is left.
			if len(leaves) > 4*n {
				break
			}
			continue
		}
		a := axes[r.IntN(len(axes))]
		lo, hi := b.Min.Index(a)+eps, b.Max.Index(a)-eps
		cut := lo + (hi-lo)*r.Float64()
		l, u := b, b
		l.Max = l.Max.SetIndex(a, cut)
		u.Min = u.Min.SetIndex(a, cut)
		leaves[i] = l
		leaves = append(leaves, u)
	}
	return leaves
}

// Obstacle is a template of the scenes' obstacles.
type Obstacle struct {
	Name string
	Mesh *mesh.TriMesh
}

// obstacles returns the templates the "scenes" environments copy: plain
// closed surfaces (a torus, a gear, a sphere, a capsule standing for the
// chess pieces), and, with aircraft, bench/scenes' aircraft and axe, whose
// parts overlap (wings through the fuselage, the handle through the head).
func obstacles(aircraft bool) ([]Obstacle, error) {
	var out []Obstacle
	add := func(name string, m *mesh.TriMesh, err error) error {
		if err != nil {
			return err
		}
		out = append(out, Obstacle{name, m})
		return nil
	}
	m, err := gen.Torus(geom.Vec3{}, 1, 0.35, 240)
	if err := add("torus", m, err); err != nil {
		return nil, err
	}
	m, err = scenes.Gear(12, 3, 300)
	if err := add("gear", m, err); err != nil {
		return nil, err
	}
	m, err = gen.Icosphere(geom.Vec3{}, 1, 80)
	if err := add("sphere", m, err); err != nil {
		return nil, err
	}
	m, err = gen.Capsule(0.4, 1.2, 120)
	if err := add("capsule", m, err); err != nil {
		return nil, err
	}
	if aircraft {
		m, err = scenes.Aircraft(scenes.AircraftMinTris)
		if err := add("aircraft", m, err); err != nil {
			return nil, err
		}
		if err := add("axe", scenes.Axe(), nil); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// randomRotation returns a rotation uniform at random.
func randomRotation(r *rand.Rand) geom.Mat3 {
	q := geom.Quat{W: r.NormFloat64(), X: r.NormFloat64(), Y: r.NormFloat64(), Z: r.NormFloat64()}
	return q.Unit().Mat3()
}

// fit returns m turned by rot, scaled and moved to fill the middle 80% of
// box (the largest scale that fits every side).
func fit(m *mesh.TriMesh, rot geom.Mat3, box geom.AABB) *mesh.TriMesh {
	turned := m.Transform(geom.Pose{R: rot})
	b := turned.Bounds()
	s := math.Inf(1)
	for a := range 3 {
		if w := b.Max.Index(a) - b.Min.Index(a); w > 0 {
			s = math.Min(s, 0.8*(box.Max.Index(a)-box.Min.Index(a))/w)
		}
	}
	c, bc := box.Center(), b.Center()
	out := &mesh.TriMesh{Tris: turned.Tris, Verts: make([]geom.Vec3, len(turned.Verts))}
	for i, v := range turned.Verts {
		out.Verts[i] = c.Add(v.Sub(bc).Scale(s))
	}
	return out
}

// appendMesh appends src's triangles to dst.
func appendMesh(dst, src *mesh.TriMesh) {
	base := int32(len(dst.Verts))
	dst.Verts = append(dst.Verts, src.Verts...)
	for _, t := range src.Tris {
		dst.Tris = append(dst.Tris, [3]int32{t[0] + base, t[1] + base, t[2] + base})
	}
}

// ScenesEnv fills a fraction fill of the n leaves of a random BSP of the
// unit cube with scaled, turned copies of the obstacles, drawn at random
// (the chapter's "scenes" group).
func ScenesEnv(n int, fill float64, obs []Obstacle, seed uint64) *mesh.TriMesh {
	r := rand.New(rand.NewPCG(seed, 0x5ce7e5))
	out := &mesh.TriMesh{}
	for _, leaf := range BSP(unitCube, n, 0.02, r) {
		if r.Float64() >= fill {
			continue
		}
		appendMesh(out, fit(obs[r.IntN(len(obs))].Mesh, randomRotation(r), leaf))
	}
	return out
}

// TetraEnv fills a fraction fill of the n leaves of a random BSP of the
// unit cube with a random tetrahedron each, its corners uniform in the
// middle 80% of the leaf (the chapter's "tetrahedra" group).
func TetraEnv(n int, fill float64, seed uint64) *mesh.TriMesh {
	r := rand.New(rand.NewPCG(seed, 0x7e7a))
	out := &mesh.TriMesh{}
	for _, leaf := range BSP(unitCube, n, 0.01, r) {
		if r.Float64() >= fill {
			continue
		}
		c, h := leaf.Center(), leaf.Size().Scale(0.4)
		var p [4]geom.Vec3
		for {
			for i := range p {
				p[i] = c.Add(geom.Vec3{X: h.X * (2*r.Float64() - 1), Y: h.Y * (2*r.Float64() - 1), Z: h.Z * (2*r.Float64() - 1)})
			}
			// Not too flat: at least a tenth of the volume of the box's
			// largest tetrahedron.
			vol := p[1].Sub(p[0]).Cross(p[2].Sub(p[0])).Dot(p[3].Sub(p[0]))
			if math.Abs(vol) > 0.1*8*h.X*h.Y*h.Z/3 {
				if vol < 0 {
					p[1], p[2] = p[2], p[1]
				}
				break
			}
		}
		base := int32(len(out.Verts))
		out.Verts = append(out.Verts, p[:]...)
		for _, t := range [4][3]int32{{0, 2, 1}, {0, 1, 3}, {1, 2, 3}, {0, 3, 2}} {
			out.Tris = append(out.Tris, [3]int32{base + t[0], base + t[1], base + t[2]})
		}
	}
	return out
}

// TerrainEnv is a synthetic DEM (the chapter's USGS terrains cannot be
// downloaded here): an n×n height field over the unit square, fractal
// value noise (gen.Terrain) of the given roughness, heights in [0,
// relief].
func TerrainEnv(n int, relief, roughness float64, seed uint64) (*mesh.TriMesh, error) {
	return gen.Terrain(n, 1, relief, roughness, seed)
}

// envOf returns the environment of the mesh m.
func envOf(name, group string, m *mesh.TriMesh) (*Env, error) {
	if err := m.Validate(); err != nil {
		return nil, fmt.Errorf("ch2: environment %s: %w", name, err)
	}
	tris := make([]geom.Triangle, len(m.Tris))
	for i := range tris {
		tris[i] = m.Triangle(i)
	}
	return NewEnv(name, group, tris, len(m.Verts)), nil
}
