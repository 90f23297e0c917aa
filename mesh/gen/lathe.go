package gen

import (
	"math"

	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/internal/portable"
	"github.com/collide3d/collide/mesh"
)

// ring is a circle of a surface of revolution about the z axis: radius rho at
// height z.
type ring struct{ rho, z float64 }

// lathe returns the closed surface of revolution about the vertical line
// through center: a bottom point at height zBot, the rings (listed bottom to
// top, each of s vertices at angles 2π·j/s) and a top point at height zTop,
// with fans at both ends and two triangles per quad between consecutive
// rings: 2·s·len(rings) triangles, s·len(rings)+2 vertices, normals outward.
func lathe(center geom.Vec3, zBot float64, rings []ring, zTop float64, s int) *mesh.TriMesh {
	nr := len(rings)
	m := &mesh.TriMesh{
		Verts: make([]geom.Vec3, 0, s*nr+2),
		Tris:  make([][3]int32, 0, 2*s*nr),
	}
	cs := make([]float64, s)
	sn := make([]float64, s)
	for j := range s {
		sn[j], cs[j] = portable.SinCosTurn(int64(j), int64(s))
	}
	m.Verts = append(m.Verts, center.Add(geom.Vec3{Z: zBot}))
	for _, r := range rings {
		for j := range s {
			m.Verts = append(m.Verts, center.Add(geom.Vec3{X: float64(r.rho * cs[j]), Y: float64(r.rho * sn[j]), Z: r.z}))
		}
	}
	m.Verts = append(m.Verts, center.Add(geom.Vec3{Z: zTop}))

	at := func(k, j int) int32 { return int32(1 + k*s + j%s) }
	for j := range s {
		m.Tris = append(m.Tris, [3]int32{0, at(0, j+1), at(0, j)})
	}
	for k := 0; k+1 < nr; k++ {
		for j := range s {
			a, b, c, d := at(k, j), at(k, j+1), at(k+1, j), at(k+1, j+1)
			m.Tris = append(m.Tris, [3]int32{a, b, d}, [3]int32{a, d, c})
		}
	}
	top := int32(len(m.Verts) - 1)
	for j := range s {
		m.Tris = append(m.Tris, [3]int32{top, at(nr-1, j), at(nr-1, j+1)})
	}
	return m
}

// UVSphere returns a latitude-longitude sphere of the given center and
// radius: s slices (meridians) and t stacks, with the poles on the z axis as
// fans of s triangles. It has 2·s·(t-1) triangles and s·(t-1)+2 vertices, with
// t = max(2, round((1+√(1+tris))/2)) and s = max(3, the integer closest to
// tris/(2(t-1)), ties to the smaller), so s ≈ 2t and the count is within t-1
// of tris. tris must be at least 6 (an equatorial triangle and two poles).
//
// Every vertex lies at distance radius from center to within a few ulps. The
// rings are at polar angles π·k/t, the meridians at azimuths 2π·j/s, with
// vertex j = 0 of each ring in the direction +x.
func UVSphere(center geom.Vec3, radius float64, tris int) (*mesh.TriMesh, error) {
	const kind = "uvsphere"
	if err := checkCenter(kind, center); err != nil {
		return nil, err
	}
	if err := checkPositive(kind, "radius", radius); err != nil {
		return nil, err
	}
	if err := checkTris(kind, tris, 6); err != nil {
		return nil, err
	}
	T := int64(tris)
	t := roundClamp((1+math.Sqrt(float64(1+T)))/2, 2, T)
	s := maxInt64(3, closest(T, 2*(t-1)))
	if err := checkCount(kind, 2*s*(t-1)); err != nil {
		return nil, err
	}
	rings := make([]ring, t-1)
	for k := int64(1); k < t; k++ {
		// Ring k from the bottom is at polar angle π·(t-k)/t from the north pole.
		sin, cos := portable.SinCosTurn(t-k, 2*t)
		rings[k-1] = ring{float64(radius * sin), float64(radius * cos)}
	}
	return checkResult(kind, lathe(center, neg(radius), rings, radius, int(s)))
}

// Cylinder returns the closed cylinder of the given radius around the z
// axis, from z = 0 (the base) to z = height, with s slices, m rows of side
// quads and caps as fans of s triangles around their centers (0, 0, 0) and
// (0, 0, height). It has 2·s·(m+1) triangles and s·(m+1)+2 vertices. The rows
// are chosen so that the side quads are about square for the requested
// count, then s = max(3, the integer closest to tris/(2(m+1)), ties to the
// smaller), so the count is within m+1 of tris. tris must be at least 12.
//
// The rim vertices lie at distance radius from the z axis to within a few
// ulps; the rows are at heights height·k/m (exactly 0 and height at the ends).
func Cylinder(radius, height float64, tris int) (*mesh.TriMesh, error) {
	const kind = "cylinder"
	if err := checkPositive(kind, "radius", radius); err != nil {
		return nil, err
	}
	if err := checkPositive(kind, "height", height); err != nil {
		return nil, err
	}
	if err := checkTris(kind, tris, 12); err != nil {
		return nil, err
	}
	// Square side quads mean 2πr/s = h/m; with 2s(m+1) = T that gives
	// (h/(πr))s² + 2s - T = 0, solved in the cancellation-free form below.
	T := int64(tris)
	x := float64(float64(T) * (height / (math.Pi * radius)))
	s0 := roundClamp(float64(T)/(1+math.Sqrt(1+x)), 3, T)
	m := maxInt64(1, closest(T, 2*s0)-1)
	s := maxInt64(3, closest(T, 2*(m+1)))
	if err := checkCount(kind, 2*s*(m+1)); err != nil {
		return nil, err
	}
	rings := make([]ring, m+1)
	for k := range rings {
		rings[k] = ring{radius, rowHeight(height, int64(k), m)}
	}
	return checkResult(kind, lathe(geom.Vec3{}, 0, rings, height, int(s)))
}

// rowHeight returns h·k/m, exactly 0 for k = 0 and h for k = m.
func rowHeight(h float64, k, m int64) float64 {
	if k == m {
		return h
	}
	return float64(h * (float64(k) / float64(m)))
}

// Capsule returns the closed capsule of the given radius around the segment
// from (0, 0, 0) to (0, 0, height): the points within radius of that segment,
// spanning z from -radius to height+radius. height may be 0 (a sphere). It is
// a lathe with s slices and R = 2q+m-1 rings: q rings per hemisphere
// (including its equator) at latitude steps of π/(2q), and m rows of side
// quads (m = 0 when height = 0, when the two equators are one ring), with the
// poles as fans. It has 2·s·R triangles and s·R+2 vertices. The rings are
// spaced about evenly along the profile and the quads are about square for
// the requested count; then s = max(3, the integer closest to tris/(2R), ties
// to the smaller), so the count is within R of tris. tris must be at least 12
// (6 when height = 0).
//
// Every vertex lies at distance radius from the segment to within a few ulps.
func Capsule(radius, height float64, tris int) (*mesh.TriMesh, error) {
	const kind = "capsule"
	if err := checkPositive(kind, "radius", radius); err != nil {
		return nil, err
	}
	if !(height >= 0) || math.IsInf(height, 0) {
		return nil, errorf(kind, "height must be finite and non-negative, got %v", height)
	}
	minTris := 12
	if height == 0 {
		minTris = 6
	}
	if err := checkTris(kind, tris, minTris); err != nil {
		return nil, err
	}
	// A ring step of 2π/s along the profile: 2sR = T with R ≈ s·k - 1,
	// k = 1/2 + h/(2πr).
	T := int64(tris)
	k := 0.5 + height/(2*math.Pi*radius)
	s0 := roundClamp((1+math.Sqrt(1+float64(2*k*float64(T))))/(2*k), 3, T)
	r0 := maxInt64(1, closest(T, 2*s0))
	var q, m int64
	if height == 0 {
		q = maxInt64(1, (r0+2)/2) // R = 2q-1 = r0, or r0+1 when r0 is even
	} else {
		R := maxInt64(2, r0)
		// 2q + m = R+1 segments along a profile of length πr + h, of which
		// the hemispheres take πr.
		q = roundClamp(float64(R+1)*(math.Pi*radius/(2*(float64(math.Pi*radius)+height))), 1, R/2)
		m = R + 1 - 2*q
	}
	R := 2*q + m - 1
	s := maxInt64(3, closest(T, 2*R))
	if err := checkCount(kind, 2*s*R); err != nil {
		return nil, err
	}
	rings := make([]ring, 0, R)
	for j := int64(1); j <= q; j++ { // bottom hemisphere, from the pole up to the equator
		sin, cos := portable.SinCosTurn(j, 4*q)
		rings = append(rings, ring{float64(radius * sin), neg(float64(radius * cos))})
	}
	for k := int64(1); k <= m; k++ { // side rows, ending with the top equator
		rings = append(rings, ring{radius, rowHeight(height, k, m)})
	}
	for j := q - 1; j >= 1; j-- { // top hemisphere, from above the equator to the pole
		sin, cos := portable.SinCosTurn(j, 4*q)
		rings = append(rings, ring{float64(radius * sin), height + float64(radius*cos)})
	}
	return checkResult(kind, lathe(geom.Vec3{}, neg(radius), rings, height+radius, int(s)))
}
