package bv

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/collide3d/collide/geom"
)

// triBoxExact reports whether triangle t meets the closed box [-h, h],
// exactly: a corner of t is in the box, or t meets one of the box's 12
// surface triangles (geom.TriTri is exact).
func triBoxExact(t geom.Triangle, h geom.Vec3) bool {
	for _, p := range t {
		if math.Abs(p.X) <= h.X && math.Abs(p.Y) <= h.Y && math.Abs(p.Z) <= h.Z {
			return true
		}
	}
	for _, f := range obbBoxTris(h.Scale(-1), h, 1) {
		if geom.TriTri(t, f) {
			return true
		}
	}
	return false
}

// triBoxScene returns n triangles near the box [-h, h] drawn by one of the
// adversarial families, and h.
func triBoxScene(rng *rand.Rand, family string, scale float64) (geom.Triangle, geom.Vec3) {
	h := obbRandVec(rng, 0.05, 1).Scale(scale)
	corner := func() geom.Vec3 {
		return geom.V(h.X*float64(2*rng.IntN(2)-1), h.Y*float64(2*rng.IntN(2)-1), h.Z*float64(2*rng.IntN(2)-1))
	}
	near := func() geom.Vec3 { return obbRandVec(rng, -2, 2).Scale(scale) }
	switch family {
	case "corner": // touching the box at a corner, or missing it by an ulp
		c := corner()
		if rng.IntN(2) == 0 {
			c = geom.V(math.Nextafter(c.X, 2*c.X), c.Y, c.Z)
		}
		return geom.Tri(c, c.Add(near().Abs().Scale(math.Copysign(1, c.X))), c.Add(geom.V(c.X, 2*c.Y, c.Z))), h
	case "face": // in the plane of a face (coplanar), or an ulp off it
		z := h.Z
		if rng.IntN(2) == 0 {
			z = math.Nextafter(z, 2*z)
		}
		p := func() geom.Vec3 { q := near(); q.Z = z; return q }
		return geom.Tri(p(), p(), p()), h
	case "edge": // crossing a box edge
		a := geom.V(h.X, h.Y, 0)
		d := obbRandVec(rng, -1, 1).Scale(scale)
		return geom.Tri(a.Add(d), a.Sub(d), a.Add(geom.V(1, 1, 0).Scale(scale*rng.Float64()))), h
	case "sliver": // nearly collinear corners
		a, b := near(), near()
		m := a.Add(b).Scale(0.5).Add(geom.V(0, 0, 1e-12*scale))
		return geom.Tri(a, b, m), h
	case "point": // degenerate: a point
		a := near()
		return geom.Tri(a, a, a), h
	}
	return geom.Tri(near(), near(), near()), h
}

// TestTriBoxDisjoint checks the separating-axis test against the exact
// oracle: it never separates a triangle that meets the box, and it
// separates most that are clearly apart.
func TestTriBoxDisjoint(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	for _, family := range []string{"random", "corner", "face", "edge", "sliver", "point"} {
		for _, scale := range []float64{1, 1e6, 1e-7, 0x1p-300} {
			meets, culled, apart := 0, 0, 0
			for range 3000 {
				tri, h := triBoxScene(rng, family, scale)
				pad := 0x1p-46 * 4 * scale
				got := TriBoxDisjoint(tri[0], tri[1], tri[2], h, pad)
				// The prepared form, the box moved by c and the
				// triangle with it.
				c := obbRandVec(rng, -1, 1).Scale(scale)
				pt := PrepareTri(tri[0].Add(c), tri[1].Add(c), tri[2].Add(c), pad)
				if moved := pt.BoxDisjoint(c, h); moved && triBoxExact(tri, h) {
					t.Fatalf("%s ×%g: %v + %v meets the box of half-extents %v about %v, but BoxDisjoint separates them", family, scale, tri, c, h, c)
				}
				if triBoxExact(tri, h) {
					meets++
					if got {
						t.Fatalf("%s ×%g: %v meets the box of half-extents %v, but TriBoxDisjoint separates them", family, scale, tri, h)
					}
					continue
				}
				apart++
				if got {
					culled++
				}
			}
			if family == "random" && culled < apart/2 {
				t.Errorf("%s ×%g: separated only %d of %d triangles apart from the box", family, scale, culled, apart)
			}
			t.Logf("%s ×%g: %d meet, %d of %d apart separated", family, scale, meets, culled, apart)
		}
	}
}

// TestTriBoxPad checks that the test separates a triangle just beyond the
// padded box and keeps one just within it, on a face, an edge and the
// normal axis.
func TestTriBoxPad(t *testing.T) {
	h := geom.V(1, 2, 3)
	const pad = 0.01
	for _, c := range []struct {
		name     string
		tri      geom.Triangle
		disjoint bool
	}{
		{"face, beyond", geom.Tri(geom.V(1.02, 0, 0), geom.V(2, 1, 0), geom.V(2, 0, 1)), true},
		{"face, within", geom.Tri(geom.V(1.005, 0, 0), geom.V(2, 1, 0), geom.V(2, 0, 1)), false},
		// The plane x + y + z = s: the box's radius on (1,1,1) is 6,
		// padded by 3·pad.
		{"normal, beyond", geom.Tri(geom.V(6.04, 0, 0), geom.V(0, 6.04, 0), geom.V(0, 0, 6.04)), true},
		{"normal, within", geom.Tri(geom.V(6.02, 0, 0), geom.V(0, 6.02, 0), geom.V(0, 0, 6.02)), false},
		{"degenerate point inside", geom.Tri(geom.V(0.5, 0.5, 0.5), geom.V(0.5, 0.5, 0.5), geom.V(0.5, 0.5, 0.5)), false},
		{"NaN", geom.Tri(geom.V(math.NaN(), math.NaN(), math.NaN()), geom.V(9, 9, 9), geom.V(9, 9, 10)), false},
	} {
		if got := TriBoxDisjoint(c.tri[0], c.tri[1], c.tri[2], h, pad); got != c.disjoint {
			t.Errorf("%s: TriBoxDisjoint = %v, want %v", c.name, got, c.disjoint)
		}
		pt := PrepareTri(c.tri[0], c.tri[1], c.tri[2], pad)
		if got := pt.BoxDisjoint(geom.Vec3{}, h); got != c.disjoint {
			t.Errorf("%s: BoxDisjoint = %v, want %v", c.name, got, c.disjoint)
		}
	}
}

func BenchmarkTriAxesBoxDisjoint(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	var tris []TriAxes
	var hs []geom.Vec3
	for range 1024 {
		tri, h := triBoxScene(rng, "random", 1)
		tris, hs = append(tris, PrepareTri(tri[0], tri[1], tri[2], 1e-12)), append(hs, h)
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		tris[i&1023].BoxDisjoint(geom.Vec3{}, hs[i&1023])
		i++
	}
}

func BenchmarkTriBoxDisjoint(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	var tris []geom.Triangle
	var hs []geom.Vec3
	for range 1024 {
		tri, h := triBoxScene(rng, "random", 1)
		tris, hs = append(tris, tri), append(hs, h)
	}
	b.ReportAllocs()
	n := 0
	i := 0
	for b.Loop() {
		t := &tris[i&1023]
		if TriBoxDisjoint(t[0], t[1], t[2], hs[i&1023], 1e-12) {
			n++
		}
		i++
	}
}
