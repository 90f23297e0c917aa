package shape

import (
	"math"
	"testing"

	"github.com/collide3d/collide/geom"
)

// Fuzz targets: Ball and Cylinder against the oracles on arbitrary inputs
// (never disagree, never panic). Non-finite or out-of-contract inputs must
// give false.

func fuzzPath(kind uint8, c []float64) Path {
	p := Path{N: int(kind%3) + 1}
	for i := range 3 {
		p.P[i] = geom.V(c[3*i], c[3*i+1], c[3*i+2])
	}
	return p
}

func allFinite(xs ...float64) bool {
	for _, x := range xs {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return true
}

// seed returns the fuzz arguments for a path and a triangle.
func seed(path Path, t geom.Triangle) (uint8, [18]float64) {
	var v [18]float64
	for i, p := range append(path.P[:], t[:]...) {
		v[3*i], v[3*i+1], v[3*i+2] = p.X, p.Y, p.Z
	}
	return uint8(path.N - 1), v
}

func FuzzBall(f *testing.F) {
	for _, c := range advBalls {
		k, v := seed(c.path, c.t)
		f.Add(k, v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9], v[10], v[11], v[12], v[13], v[14], v[15], v[16], v[17], c.zc, c.r)
	}
	f.Fuzz(func(t *testing.T, kind uint8, p0, p1, p2, p3, p4, p5, p6, p7, p8,
		t0, t1, t2, t3, t4, t5, t6, t7, t8, zc, r float64) {
		path := fuzzPath(kind, []float64{p0, p1, p2, p3, p4, p5, p6, p7, p8})
		tri := geom.Tri(geom.V(t0, t1, t2), geom.V(t3, t4, t5), geom.V(t6, t7, t8))
		got := Ball(path, zc, r, tri)
		ps := []float64{t0, t1, t2, t3, t4, t5, t6, t7, t8, zc, r}
		for i := range path.N {
			ps = append(ps, path.P[i].X, path.P[i].Y, path.P[i].Z)
		}
		if !allFinite(ps...) || r < 0 {
			if got {
				t.Fatalf("out of contract, true")
			}
			return
		}
		if want := oBall(path, zc, r, tri); got != want {
			t.Fatalf("%v = %v, oracle %v", ballCase{path, zc, r, tri}, got, want)
		}
	})
}

func FuzzCylinder(f *testing.F) {
	for _, c := range advCyls {
		k, v := seed(c.path, c.t)
		f.Add(k, v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9], v[10], v[11], v[12], v[13], v[14], v[15], v[16], v[17], c.r, c.z0, c.z1)
	}
	f.Fuzz(func(t *testing.T, kind uint8, p0, p1, p2, p3, p4, p5, p6, p7, p8,
		t0, t1, t2, t3, t4, t5, t6, t7, t8, r, z0, z1 float64) {
		path := fuzzPath(kind, []float64{p0, p1, p2, p3, p4, p5, p6, p7, p8})
		tri := geom.Tri(geom.V(t0, t1, t2), geom.V(t3, t4, t5), geom.V(t6, t7, t8))
		got := Cylinder(path, r, z0, z1, tri)
		ps := []float64{t0, t1, t2, t3, t4, t5, t6, t7, t8, r, z0, z1}
		for i := range path.N {
			ps = append(ps, path.P[i].X, path.P[i].Y, path.P[i].Z)
		}
		if !allFinite(ps...) || r < 0 || z0 > z1 {
			if got {
				t.Fatalf("out of contract, true")
			}
			return
		}
		if want := oCyl(path, r, z0, z1, tri); got != want {
			t.Fatalf("%v = %v, oracle %v", cylCase{path, r, z0, z1, tri}, got, want)
		}
	})
}
