package scenes

import (
	"math"

	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/internal/portable"
	"github.com/collide3d/collide/mesh"
	"github.com/collide3d/collide/mesh/gen"
)

// torusStream is the PCG stream selector of DeformedTorus.
const torusStream = 0x70705eed00000002

// DeformedTorusMinTris is the smallest request DeformedTorus accepts (the
// minimum of gen.Torus).
const DeformedTorusMinTris = 18

// DeformedTorus returns a torus around the z axis centered at the origin,
// of major radius 1 and minor radius 0.3, smoothly deformed so that it has
// no symmetry left: the flying object of Klosowski et al.'s stalagmite
// scene (20,000 triangles there).
//
// The mesh is gen.Torus(origin, 1, 0.3, tris) with every vertex moved, so
// it has the same triangles and count: 2·a·b, with b = round(√(0.15·tris))
// segments around the tube and a = the integer closest to tris/(2b) around
// the axis, within b of tris (20,020 for a request of 20,000). A vertex at
// angle u around the axis and v around the tube goes to C(u) + ρ(u,v)·n,
// where n is its direction from the tube's center circle: the center circle
// C(u) is bent radially by up to 3.5% (a random wave of 2 or 3 periods) and
// vertically by up to 0.05 (1 to 3 periods), and the tube radius is
// ρ = 0.3·(1 + δ(u,v)), δ the sum of four random waves cos(m·u + n·v + φ),
// m in 1..4, n in -2..2, of amplitudes 0.02 to 0.05 (so |δ| ≤ 0.2). Each
// cross-section stays in its own half-plane through the axis and is
// star-shaped about C(u), so the surface is still closed, consistently
// oriented outward and free of self-intersections. Every vertex is between
// 0.6 and 1.4 from the z axis, with |z| ≤ 0.41.
func DeformedTorus(tris int, seed uint64) (*mesh.TriMesh, error) {
	const kind = "deformed torus"
	if err := checkTris(kind, tris, DeformedTorusMinTris); err != nil {
		return nil, err
	}
	m, err := gen.Torus(geom.Vec3{}, 1, 0.3, tris)
	if err != nil {
		return nil, errorf(kind, "%v", err)
	}
	r := newRNG(seed, torusStream)
	phase := func() cpx {
		s, c := portable.SinCosTurn(int64(r.intn(1<<20)), 1<<20)
		return cpx{c, s}
	}
	type wave struct {
		amp  float64
		m, n int
		ph   cpx
	}
	var waves [4]wave
	for i := range waves {
		waves[i] = wave{r.between(0.02, 0.05), 1 + r.intn(4), r.intn(5) - 2, phase()}
	}
	radial := wave{r.between(0.015, 0.035), 2 + r.intn(2), 0, phase()}
	vertical := wave{r.between(0.02, 0.05), 1 + r.intn(3), 0, phase()}

	for i, p := range m.Verts {
		rho := math.Sqrt(float64(p.X*p.X) + float64(p.Y*p.Y))
		eu := cpx{p.X / rho, p.Y / rho}
		dx := rho - 1
		l := math.Sqrt(float64(dx*dx) + float64(p.Z*p.Z))
		ev := cpx{dx / l, p.Z / l}
		delta := 0.0
		for _, w := range waves {
			delta += float64(w.amp * eu.pow(w.m).mul(ev.pow(w.n)).mul(w.ph).re)
		}
		rc := 1 + float64(radial.amp*eu.pow(radial.m).mul(radial.ph).re)
		zc := float64(vertical.amp * eu.pow(vertical.m).mul(vertical.ph).re)
		tube := float64(0.3 * (1 + delta))
		rr := rc + float64(tube*ev.re)
		m.Verts[i] = geom.Vec3{X: float64(rr * eu.re), Y: float64(rr * eu.im), Z: zc + float64(tube*ev.im)}
	}
	return checkResult(kind, m)
}

// cpx is a complex number, for the waves of DeformedTorus.
type cpx struct{ re, im float64 }

// mul returns z·w with every product rounded.
func (z cpx) mul(w cpx) cpx {
	return cpx{float64(z.re*w.re) - float64(z.im*w.im), float64(z.re*w.im) + float64(z.im*w.re)}
}

// pow returns zⁿ for a unit z (the conjugate's power for n < 0).
func (z cpx) pow(n int) cpx {
	if n < 0 {
		z, n = cpx{z.re, 0 - z.im}, -n
	}
	p := cpx{1, 0}
	for range n {
		p = p.mul(z)
	}
	return p
}

// NestedSpheres returns the two spheres of Klosowski et al.'s nested-spheres
// experiment (Tables 6 and 7): outer = gen.Icosphere(origin, 1, tris) and
// inner = gen.Icosphere(origin, 1-alpha, tris), geodesic spheres with the
// same tessellation, 20·n² triangles each with n ≥ 1 the frequency whose
// count is closest to tris (2,000 for 2,000; 20,480 for 20,000). The inner
// one's vertices are those of the outer one scaled by 1-alpha (up to
// rounding) and the outer polyhedron is star-shaped about the origin, so
// the spheres never touch: they are at distance about alpha, parallel
// surfaces in close proximity when alpha is small. This is the setup of
// bvh's nested-spheres test. alpha must be in (0, 1), with 1-alpha < 1 in
// floating point; tris must be at least 20.
func NestedSpheres(tris int, alpha float64) (outer, inner *mesh.TriMesh, err error) {
	const kind = "nested spheres"
	if !(alpha > 0 && alpha < 1) {
		return nil, nil, errorf(kind, "alpha must be in (0, 1), got %v", alpha)
	}
	if 1-alpha == 1 {
		return nil, nil, errorf(kind, "alpha = %v is too small: 1-alpha rounds to 1", alpha)
	}
	if err := checkTris(kind, tris, 20); err != nil {
		return nil, nil, err
	}
	if outer, err = gen.Icosphere(geom.Vec3{}, 1, tris); err != nil {
		return nil, nil, errorf(kind, "%v", err)
	}
	if inner, err = gen.Icosphere(geom.Vec3{}, 1-alpha, tris); err != nil {
		return nil, nil, errorf(kind, "%v", err)
	}
	return outer, inner, nil
}
