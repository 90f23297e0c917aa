package bv_test

import (
	"fmt"
	"math"

	"github.com/collide3d/collide/bv"
	"github.com/collide3d/collide/geom"
)

// ExampleFitRSS bounds a thin slab, 8 × 4 × 0.02, turned 30° about the z
// axis and tilted 45° about the x axis: the rectangle swept sphere is the
// slab's mid-section swept by a sphere of radius 0.01, up to rounding. A
// copy of the slab is then placed above it, and RSSDisjoint tests the two
// volumes with the second one expressed in the first one's frame, as a
// tree query does.
func ExampleFitRSS() {
	var corners [8]geom.Vec3
	for i := range corners {
		x, y, z := -4.0, -2.0, -0.01
		if i&1 != 0 {
			x = 4
		}
		if i&2 != 0 {
			y = 2
		}
		if i&4 != 0 {
			z = 0.01
		}
		corners[i] = geom.V(x, y, z)
	}
	faces := [6][4]int{{0, 1, 3, 2}, {4, 6, 7, 5}, {0, 4, 5, 1}, {2, 3, 7, 6}, {0, 2, 6, 4}, {1, 5, 7, 3}}
	tilt := geom.FromAxisAngle(geom.V(1, 0, 0), math.Pi/4, geom.V(0, 0, 0)).
		Compose(geom.FromAxisAngle(geom.V(0, 0, 1), math.Pi/6, geom.V(0, 0, 0)))
	slab := func(p geom.Pose) []geom.Triangle {
		var tris []geom.Triangle
		for _, f := range faces {
			a, b, c, d := p.Apply(corners[f[0]]), p.Apply(corners[f[1]]), p.Apply(corners[f[2]]), p.Apply(corners[f[3]])
			tris = append(tris, geom.Tri(a, b, c), geom.Tri(a, c, d))
		}
		return tris
	}

	v := bv.FitRSS(slab(tilt))
	fmt.Printf("half lengths: %.4f %.4f, radius: %.4f\n", v.L[0], v.L[1], v.R)
	fmt.Printf("volume: %.4f (the slab's: 0.6400)\n", v.Volume())

	// The copy, moved along the slab's normal by h: the gap between the
	// slabs is h − 0.02.
	normal := tilt.R.Col(2)
	for _, h := range []float64{0.019, 0.021} {
		w := bv.FitRSS(slab(geom.Translation(normal.Scale(h)).Compose(tilt)))
		var r geom.Mat3
		for i := range 3 {
			for j := range 3 {
				r[i][j] = v.Axes.Row(i).Dot(w.Axes.Row(j))
			}
		}
		t := v.Axes.MulVec(w.C.Sub(v.C))
		fmt.Printf("offset %.3f: disjoint %v\n", h, bv.RSSDisjoint(&v, &w, &r, t, 1e-12))
	}
	// Output:
	// half lengths: 4.0000 2.0000, radius: 0.0100
	// volume: 0.6438 (the slab's: 0.6400)
	// offset 0.019: disjoint false
	// offset 0.021: disjoint true
}
