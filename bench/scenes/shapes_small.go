package scenes

import (
	"math"

	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/internal/portable"
	"github.com/collide3d/collide/mesh"
	"github.com/collide3d/collide/mesh/gen"
)

// Axe returns an axe-shaped polyhedron of exactly 36 triangles and 22
// vertices, about one unit long: the flying object of Klosowski et al.'s
// swept-volume scene. It is two closed, outward-oriented surfaces that
// overlap where the handle goes through the head:
//
//   - the handle, vertices 0-7 and triangles 0-11: gen.Box of the box
//     [0, 1] × [-0.015, 0.015] × [-0.02, 0.02], along x;
//   - the head, vertices 8-21 and triangles 12-35, around the top of the
//     handle with its blade toward +z: a loft of four horizontal sections,
//     the rectangles x ∈ [0.86, 0.96], |y| ≤ 0.025 at z = -0.06 (the poll,
//     a flat face of 2 triangles) and z = 0.03 (8 triangles between them),
//     x ∈ [0.84, 0.98], |y| ≤ 0.01 at z = 0.12 (8 more: the cheeks
//     narrow), and the cutting edge, the segment from (0.78, 0, 0.21) to
//     (1.02, 0, 0.21) (6 triangles: two flat bevels down to it and two end
//     triangles). Every face is planar and the edge is sharp.
//
// Every vertex lies in [0, 1.02] × [-0.025, 0.025] × [-0.06, 0.21].
func Axe() *mesh.TriMesh {
	m := gen.Must(gen.Box(geom.AABB{Min: geom.Vec3{Y: -0.015, Z: -0.02}, Max: geom.Vec3{X: 1, Y: 0.015, Z: 0.02}}, 1))
	base := int32(len(m.Verts))
	rect := func(x0, x1, w, z float64) {
		m.Verts = append(m.Verts,
			geom.Vec3{X: x0, Y: 0 - w, Z: z}, geom.Vec3{X: x1, Y: 0 - w, Z: z},
			geom.Vec3{X: x1, Y: w, Z: z}, geom.Vec3{X: x0, Y: w, Z: z})
	}
	rect(0.86, 0.96, 0.025, -0.06)
	rect(0.86, 0.96, 0.025, 0.03)
	rect(0.84, 0.98, 0.01, 0.12)
	m.Verts = append(m.Verts, geom.Vec3{X: 0.78, Z: 0.21}, geom.Vec3{X: 1.02, Z: 0.21})
	at := func(layer, j int) int32 { return base + int32(4*layer+j%4) }
	add := func(a, b, c int32) { m.Tris = append(m.Tris, [3]int32{a, b, c}) }
	add(at(0, 0), at(0, 2), at(0, 1)) // the poll, facing -z
	add(at(0, 0), at(0, 3), at(0, 2))
	for k := range 2 { // the rectangles are counterclockwise about +z
		for j := range 4 {
			a, b, c, d := at(k, j), at(k, j+1), at(k+1, j), at(k+1, j+1)
			add(a, b, d)
			add(a, d, c)
		}
	}
	p0, p1, p2, p3 := at(2, 0), at(2, 1), at(2, 2), at(2, 3)
	e0, e1 := base+12, base+13
	add(p0, p1, e1) // bevel facing -y
	add(p0, e1, e0)
	add(p2, p3, e0) // bevel facing +y
	add(p2, e0, e1)
	add(p1, p2, e1) // end facing +x
	add(p3, p0, e0) // end facing -x
	return m
}

// HandMinTris is the smallest request Hand accepts.
const HandMinTris = 100

// Hand returns a right hand about 0.17 long: the flying object of Klosowski
// et al.'s aircraft-interior scene (404 triangles there, a data glove's
// hand). The palm lies in the xy plane, facing -z, with the fingers along
// +y and the thumb on the +x side; every vertex lies in [-0.05, 0.09] ×
// [-0.05, 0.13] × [-0.05, 0.02]. Its parts are closed surfaces that overlap
// where they join:
//
//   - the palm, an ellipsoid of half-axes 0.042, 0.05 and 0.015: a
//     gen.UVSphere of P triangles scaled per axis;
//   - four fingers (lengths 0.06 to 0.08, radii 0.0075 to 0.009) and a
//     thumb (0.062 long, radius 0.0105, turned out and down toward the
//     palm side), each a tube of s sides through nr rings along an arc that
//     curls toward the palm (by 26°, the thumb by 18°), tapering by 15%, from
//     a flat base inside the palm to a fan at the rounded tip: 2·s·nr
//     triangles.
//
// With f = 0.156·tris, s = max(4, round(1.1·√(f/2))) and nr = max(2,
// round(f/(2s))); the palm gets the rest, P = tris - 10·s·nr, and
// gen.UVSphere makes that within t-1 of P, t = round((1 + √(1+P))/2), so
// the count is within 0.3·√tris of tris (3%). A request of 400 gives
// exactly 400: fingers of 6 sides and 5 rings, a palm of 100. tris must be
// at least HandMinTris (100).
func Hand(tris int) (*mesh.TriMesh, error) {
	const kind = "hand"
	if err := checkTris(kind, tris, HandMinTris); err != nil {
		return nil, err
	}
	f := float64(0.156 * float64(tris))
	s := max(4, roundInt(float64(1.1*math.Sqrt(f/2))))
	nr := max(2, roundInt(f/float64(2*s)))
	palmTris := tris - 5*loftCount(s, nr, 2)
	const ax, ay, az = 0.042, 0.05, 0.015
	palm, err := gen.UVSphere(geom.Vec3{}, 1, palmTris)
	if err != nil {
		return nil, errorf(kind, "%v", err)
	}
	m := &mesh.TriMesh{}
	appendMapped(m, palm, func(v geom.Vec3) geom.Vec3 {
		return geom.Vec3{X: float64(ax * v.X), Y: float64(ay * v.Y), Z: float64(az * v.Z)}
	}, false)

	tab := trigCache{}.get(s)
	down := geom.Vec3{Z: -1}
	for _, fg := range []struct{ x, length, r float64 }{
		{0.027, 0.072, 0.0085}, // index
		{0.009, 0.08, 0.009},   // middle
		{-0.009, 0.075, 0.0085},
		{-0.027, 0.06, 0.0075}, // little
	} {
		q := fg.x / ax
		y := float64(ay*math.Sqrt(1-float64(q*q))) - 0.01
		finger(m, tab, nr, geom.Vec3{X: fg.x, Y: y}, geom.Vec3{Y: 1}, down, fg.length, fg.r, 1.0/14)
	}
	fwd := portable.Unit(geom.Vec3{X: 0.75, Y: 0.6, Z: -0.3})
	finger(m, tab, nr, geom.Vec3{X: 0.03, Y: -0.018, Z: -0.004}, fwd,
		perpendicular(geom.Vec3{X: -0.6, Y: 0.2, Z: -0.8}, fwd), 0.062, 0.0105, 1.0/20)
	return checkResult(kind, m)
}

// finger appends a tube of nr rings and len(tab.sin) sides from base along
// an arc that starts in the unit direction fwd and turns toward the unit
// direction down (perpendicular to fwd) by bend turns (at most 1/8) over its
// length, with radius r tapering to 0.85r and then 0.72r at the last ring,
// 0.8r before the tip, closed by a flat fan at the base and a fan to the tip.
func finger(m *mesh.TriMesh, tab trig, nr int, base, fwd, down geom.Vec3, length, r, bend float64) {
	// The arc of curvature κ = 2π·bend/length: the point at arc length σ
	// is base + (sin θ/κ)·fwd + ((1-cos θ)/κ)·down, θ = κσ.
	kappa := float64(2*math.Pi*bend) / length
	at := func(sigma float64) (p, t geom.Vec3) {
		sin, cos := portable.SinCosSmall(float64(kappa * sigma))
		p = base.Add(comb(sin/kappa, fwd, (1-cos)/kappa, down))
		return p, comb(cos, fwd, sin, down)
	}
	ts := make([]geom.Vec3, nr)
	cs := make([]geom.Vec3, nr)
	rs := make([]float64, nr)
	last := length - float64(0.8*r)
	for k := range nr {
		sigma := float64(last*float64(k)) / float64(nr-1)
		cs[k], ts[k] = at(sigma)
		rs[k] = float64(r * (1 - float64(0.15*sigma)/length))
	}
	rs[nr-1] = float64(0.85 * rs[nr-1])
	us, vs := transport(ts, down)
	rings := make([][]geom.Vec3, nr)
	for k := range rings {
		rings[k] = ellipse(cs[k], us[k], vs[k], rs[k], rs[k], tab)
	}
	tip, _ := at(length)
	loft(m, rings, &cs[0], &tip)
}
