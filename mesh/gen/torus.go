package gen

import (
	"math"

	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/internal/portable"
	"github.com/collide3d/collide/mesh"
)

// Torus returns the closed ring torus of the given center around the z axis:
// the points at distance minor from the circle of radius major in the plane
// z = center.Z. It requires 0 < minor < major (a horn or spindle torus would
// intersect itself). The surface is a grid of a segments around the axis and
// b around the tube, two triangles per quad: 2·a·b triangles and a·b vertices,
// with b = max(3, round(√(tris·minor/(2·major)))) and a = max(3, the integer
// closest to tris/(2b), ties to the smaller), so the quads are about square
// and the count is within b of tris. tris must be at least 18.
//
// Vertex (i, j), number i·b+j, is at angle 2π·i/a around the axis (from +x)
// and 2π·j/b around the tube (from the outer equator).
func Torus(center geom.Vec3, major, minor float64, tris int) (*mesh.TriMesh, error) {
	const kind = "torus"
	if err := checkCenter(kind, center); err != nil {
		return nil, err
	}
	if err := checkPositive(kind, "major", major); err != nil {
		return nil, err
	}
	if err := checkPositive(kind, "minor", minor); err != nil {
		return nil, err
	}
	if !(minor < major) {
		return nil, errorf(kind, "minor radius %v must be smaller than major radius %v", minor, major)
	}
	if err := checkTris(kind, tris, 18); err != nil {
		return nil, err
	}
	T := int64(tris)
	b := roundClamp(math.Sqrt(float64(T)*(minor/major)/2), 3, T)
	a := maxInt64(3, closest(T, 2*b))
	if err := checkCount(kind, 2*a*b); err != nil {
		return nil, err
	}
	return checkResult(kind, torus(center, major, minor, int(a), int(b)))
}

func torus(center geom.Vec3, major, minor float64, a, b int) *mesh.TriMesh {
	m := &mesh.TriMesh{
		Verts: make([]geom.Vec3, 0, a*b),
		Tris:  make([][3]int32, 0, 2*a*b),
	}
	tubeRho := make([]float64, b) // distance from the axis
	tubeZ := make([]float64, b)
	for j := range b {
		sin, cos := portable.SinCosTurn(int64(j), int64(b))
		tubeRho[j] = major + float64(minor*cos)
		tubeZ[j] = float64(minor * sin)
	}
	for i := range a {
		sin, cos := portable.SinCosTurn(int64(i), int64(a))
		for j := range b {
			m.Verts = append(m.Verts, center.Add(geom.Vec3{X: float64(tubeRho[j] * cos), Y: float64(tubeRho[j] * sin), Z: tubeZ[j]}))
		}
	}
	at := func(i, j int) int32 { return int32((i%a)*b + j%b) }
	for i := range a {
		for j := range b {
			p00, p10, p11, p01 := at(i, j), at(i+1, j), at(i+1, j+1), at(i, j+1)
			m.Tris = append(m.Tris, [3]int32{p00, p10, p11}, [3]int32{p00, p11, p01})
		}
	}
	return m
}
