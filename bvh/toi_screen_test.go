package bvh

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/collide3d/collide/ccd"
	"github.com/collide3d/collide/geom"
)

// TestApartSwept checks the screening of translating pairs against the
// exact primitives: wherever apartSwept proves a pair apart, ccd.TriTri
// finds no contact, on seeded random pairs near each other, on pairs
// sliding along each other touching, one ulp apart and 1e-12 apart (faces
// coplanar, edges on edges, a vertex on a face), degenerate triangles,
// and all of these 10^6 from the origin; and it proves most of the random
// pairs that ccd.TriTri finds apart.
func TestApartSwept(t *testing.T) {
	v := geom.V
	rng := rand.New(rand.NewPCG(30, 7))
	pt := func(s float64) geom.Vec3 {
		return v(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()).Scale(s)
	}
	type pair struct{ a, fa, fb geom.Triangle }
	var ps []pair
	for range 3000 {
		a := geom.Triangle{pt(1), pt(1), pt(1)}
		fa := geom.Triangle{pt(1), pt(1), pt(1)}
		c := pt(2)
		for i := range fa {
			fa[i] = fa[i].Add(c)
		}
		d := pt(2)
		ps = append(ps, pair{a, fa, geom.Triangle{fa[0].Add(d), fa[1].Add(d), fa[2].Add(d)}})
	}
	// Adversarial: a unit triangle in z = 0; a flying one sliding along x
	// at heights 0, one ulp and 1e-12 above, and below; edge on edge;
	// degenerate (a segment, a point).
	base := geom.Triangle{v(0, 0, 0), v(1, 0, 0), v(0, 1, 0)}
	for _, z := range []float64{0, math.Nextafter(0, 1), 0x1p-52, 1e-12, -1e-12, -0x1p-52} {
		flat := geom.Triangle{v(-2, 0.2, z), v(-1.5, 0.2, z), v(-2, 0.6, z)}
		up := geom.Triangle{v(-2, 0.2, z), v(-1.5, 0.2, z+1), v(-2, 0.6, z+1)}
		seg := geom.Triangle{v(-2, 0.2, z), v(-1.5, 0.2, z), v(-1.75, 0.2, z)}
		dot := geom.Triangle{v(-2, 0.2, z), v(-2, 0.2, z), v(-2, 0.2, z)}
		edge := geom.Triangle{v(-2, 0, z), v(-1.5, 0, z+1), v(-1.5, 0, z-1)}
		for _, f := range []geom.Triangle{flat, up, seg, dot, edge} {
			for _, d := range []geom.Vec3{v(3, 0, 0), v(1.9, 0, 0), v(1.5, 0, 0), v(3, 0.1, 0), v(2, 0, -2*z)} {
				ps = append(ps, pair{base, f, geom.Triangle{f[0].Add(d), f[1].Add(d), f[2].Add(d)}})
			}
		}
	}
	n := len(ps)
	for _, p := range ps[:n] {
		o := v(1e6, -1e6, 1e6)
		var q pair
		for i := range 3 {
			q.a[i], q.fa[i], q.fb[i] = p.a[i].Add(o), p.fa[i].Add(o), p.fb[i].Add(o)
		}
		ps = append(ps, q)
	}
	proved, apart := 0, 0
	for i, p := range ps {
		_, hit := ccd.TriTri(p.fa, p.a, p.fb, p.a)
		if apartSwept(p.a, p.fa, p.fb) {
			if i < 3000 {
				proved++
			}
			if hit {
				t.Fatalf("pair %d: proved apart, but ccd.TriTri finds a contact: %v from %v to %v", i, p.a, p.fa, p.fb)
			}
		}
		if !hit && i < 3000 {
			apart++
		}
	}
	if proved < apart*3/4 {
		t.Errorf("%d of the %d random pairs apart proved apart", proved, apart)
	}
}
