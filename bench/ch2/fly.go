package ch2

import (
	"math"

	"github.com/collide3d/collide/bench/scenes"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/hull"
	"github.com/collide3d/collide/mesh"
	"github.com/collide3d/collide/mesh/gen"
)

// Flyer is a flying object.
type Flyer struct {
	// Name is ours, Stands the chapter's object it stands for.
	Name, Stands string
	Mesh         *mesh.TriMesh
	// Hull is the convex hull of the mesh's vertices, on which Frame.Place
	// climbs.
	Hull *hull.Hull
}

// flyingObjects returns the flying objects, each scaled to fit a cube of
// side size centred at the origin: a tetrahedron (the chapter's tetra), a
// sphere (balloon), a capsule (a stand-in for the bishop, a lathe), and
// bench/scenes' aircraft (spitfire).
func flyingObjects(size float64) ([]Flyer, error) {
	s := math.Sqrt(8.0 / 9)
	tetra := &mesh.TriMesh{
		Verts: []geom.Vec3{{X: s, Z: -1.0 / 3}, {X: -s / 2, Y: math.Sqrt(2.0/3) * 1, Z: -1.0 / 3}, {X: -s / 2, Y: -math.Sqrt(2.0 / 3), Z: -1.0 / 3}, {Z: 1}},
		Tris:  [][3]int32{{0, 1, 2}, {0, 3, 1}, {1, 3, 2}, {2, 3, 0}},
	}
	balloon, err := gen.Icosphere(geom.Vec3{}, 1, 320)
	if err != nil {
		return nil, err
	}
	bishop, err := gen.Capsule(0.35, 1.3, 400)
	if err != nil {
		return nil, err
	}
	aircraft, err := scenes.Aircraft(scenes.AircraftMinTris)
	if err != nil {
		return nil, err
	}
	h := size / 2
	box := geom.AABB{Min: geom.Vec3{X: -h, Y: -h, Z: -h}, Max: geom.Vec3{X: h, Y: h, Z: h}}
	// fit fills 80% of its box: fill it all.
	box = box.Expanded(size / 8)
	out := []Flyer{{"tetra", "tetra", tetra, nil}, {"balloon", "balloon", balloon, nil}, {"capsule", "bishop", bishop, nil}, {"aircraft", "spitfire", aircraft, nil}}
	for i := range out {
		out[i].Mesh = fit(out[i].Mesh, geom.Identity3(), box)
		out[i].Hull = hull.New(out[i].Mesh.Verts)
	}
	return out, nil
}
