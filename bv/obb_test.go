package bv

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/collide3d/collide/geom"
)

var obbFits = []OBBFit{FitHull, FitSurface, FitVertices}

// Soups.

func obbRandVec(rng *rand.Rand, lo, hi float64) geom.Vec3 {
	return geom.V(lo+(hi-lo)*rng.Float64(), lo+(hi-lo)*rng.Float64(), lo+(hi-lo)*rng.Float64())
}

// obbSoup returns n random triangles with corners in [-1, 1]³ near a random
// centre, of size at most size.
func obbSoup(rng *rand.Rand, n int, size float64) []geom.Triangle {
	ts := make([]geom.Triangle, n)
	for i := range ts {
		c := obbRandVec(rng, -1, 1)
		ts[i] = geom.Tri(c.Add(obbRandVec(rng, -size, size)), c.Add(obbRandVec(rng, -size, size)), c.Add(obbRandVec(rng, -size, size)))
	}
	return ts
}

// obbBoxTris returns the 12 surface triangles of the box with corners lo
// and hi, each face cut into n×n squares (2 triangles each) if n > 1.
func obbBoxTris(lo, hi geom.Vec3, n int) []geom.Triangle {
	n = max(n, 1)
	var ts []geom.Triangle
	corner := func(ax, s, t int, side float64, u, v float64) geom.Vec3 {
		var p [3]float64
		p[ax] = side
		p[s] = lo.Index(s) + (hi.Index(s)-lo.Index(s))*u
		p[t] = lo.Index(t) + (hi.Index(t)-lo.Index(t))*v
		return geom.V(p[0], p[1], p[2])
	}
	for ax := range 3 {
		s, t := (ax+1)%3, (ax+2)%3
		for _, side := range []float64{lo.Index(ax), hi.Index(ax)} {
			for i := range n {
				for j := range n {
					u0, u1 := float64(i)/float64(n), float64(i+1)/float64(n)
					v0, v1 := float64(j)/float64(n), float64(j+1)/float64(n)
					a, b := corner(ax, s, t, side, u0, v0), corner(ax, s, t, side, u1, v0)
					c, d := corner(ax, s, t, side, u1, v1), corner(ax, s, t, side, u0, v1)
					ts = append(ts, geom.Tri(a, b, c), geom.Tri(a, c, d))
				}
			}
		}
	}
	return ts
}

// obbTransform applies x ↦ R·x + t to every corner.
func obbTransform(ts []geom.Triangle, r geom.Mat3, t geom.Vec3) []geom.Triangle {
	p := geom.Pose{R: r, T: t}
	out := make([]geom.Triangle, len(ts))
	for i, tr := range ts {
		out[i] = p.ApplyTriangle(tr)
	}
	return out
}

func obbScale(ts []geom.Triangle, s float64, off geom.Vec3) []geom.Triangle {
	out := make([]geom.Triangle, len(ts))
	for i, tr := range ts {
		for k := range 3 {
			out[i][k] = tr[k].Scale(s).Add(off)
		}
	}
	return out
}

// obbSphereSoup returns a UV sphere of radius rad with 2·nu·nv triangles
// (the poles have degenerate triangles). With jitter > 0 each vertex's
// radius is multiplied by a random factor in [1, 1 + jitter] (the same for
// every copy of the vertex), which breaks the exact coplanarity of the
// quads.
func obbSphereSoup(nu, nv int, rad, jitter float64) []geom.Triangle {
	rng := rand.New(rand.NewPCG(uint64(nu), uint64(nv)))
	radius := make([]float64, nu*(nv+1))
	for k := range radius {
		radius[k] = rad * (1 + jitter*rng.Float64())
	}
	pt := func(i, j int) geom.Vec3 {
		i %= nu
		if j == 0 || j == nv {
			i = 0 // one point per pole
		}
		r := radius[j*nu+i]
		th := math.Pi * float64(j) / float64(nv)
		ph := 2 * math.Pi * float64(i) / float64(nu)
		return geom.V(r*math.Sin(th)*math.Cos(ph), r*math.Sin(th)*math.Sin(ph), r*math.Cos(th))
	}
	var ts []geom.Triangle
	for i := range nu {
		for j := range nv {
			a, b, c, d := pt(i, j), pt(i+1, j), pt(i+1, j+1), pt(i, j+1)
			ts = append(ts, geom.Tri(a, b, c), geom.Tri(a, c, d))
		}
	}
	return ts
}

type obbSoupCase struct {
	name string
	tris []geom.Triangle
}

func obbSoups() []obbSoupCase {
	rng := rand.New(rand.NewPCG(11, 12))
	var cs []obbSoupCase
	add := func(name string, ts []geom.Triangle) { cs = append(cs, obbSoupCase{name, ts}) }
	add("random", obbSoup(rng, 300, 0.3))
	add("random-small", obbSoup(rng, 200, 0.01))
	add("single", []geom.Triangle{geom.Tri(geom.V(0.1, 0.2, 0.3), geom.V(1.7, -0.4, 0.2), geom.V(-0.3, 0.9, 1.1))})
	add("single-axis", []geom.Triangle{geom.Tri(geom.V(0, 0, 0), geom.V(1, 0, 0), geom.V(0, 1, 0))})
	add("point", []geom.Triangle{geom.Tri(geom.V(0.3, -7, 1e-3), geom.V(0.3, -7, 1e-3), geom.V(0.3, -7, 1e-3))})
	add("origin", []geom.Triangle{{}, {}})
	add("segment", []geom.Triangle{geom.Tri(geom.V(0.3, 0.1, 0.7), geom.V(-1.2, 0.5, 2), geom.V(-1.2, 0.5, 2))})
	var degen []geom.Triangle
	for range 50 {
		p, q := obbRandVec(rng, -1, 1), obbRandVec(rng, -1, 1)
		switch rng.IntN(3) {
		case 0:
			degen = append(degen, geom.Tri(p, p, p))
		case 1:
			degen = append(degen, geom.Tri(p, q, p))
		case 2:
			degen = append(degen, geom.Tri(p, q, p.Lerp(q, 0.25)))
		}
	}
	add("all-degenerate", degen)
	// Coplanar: random triangles in the plane z = 0, then rotated and moved.
	var flat []geom.Triangle
	for range 100 {
		a, b, c := obbRandVec(rng, -1, 1), obbRandVec(rng, -1, 1), obbRandVec(rng, -1, 1)
		a.Z, b.Z, c.Z = 0, 0, 0
		flat = append(flat, geom.Tri(a, b, c))
	}
	add("coplanar-z0", flat)
	add("coplanar-rotated", obbTransform(flat, eigRot(rng), geom.V(0.5, -2, 3)))
	// Collinear: points on one line.
	var line []geom.Triangle
	d, o := obbRandVec(rng, -1, 1), obbRandVec(rng, -1, 1)
	for range 40 {
		line = append(line, geom.Tri(o.Add(d.Scale(rng.Float64())), o.Add(d.Scale(rng.Float64())), o.Add(d.Scale(3*rng.Float64()))))
	}
	add("collinear", line)
	add("far-1e9", obbScale(obbSoup(rng, 100, 0.2), 1, geom.V(1e9, -2e9, 3e9)))
	add("far-1e9-tiny", obbScale(obbSoup(rng, 100, 0.2), 1e-3, geom.V(1e9, 1e9, -1e9)))
	add("tiny-1e-9", obbScale(obbSoup(rng, 100, 0.2), 1e-9, geom.V(0, 0, 0)))
	add("tiny-1e-300", obbScale(obbSoup(rng, 50, 0.2), 1e-300, geom.V(0, 0, 0)))
	add("subnormal", obbScale(obbSoup(rng, 50, 0.2), 1e-320, geom.V(0, 0, 0)))
	add("huge-1e150", obbScale(obbSoup(rng, 100, 0.3), 1e150, geom.V(0, 0, 0)))
	add("huge-far-1e150", obbScale(obbSoup(rng, 100, 0.3), 1e140, geom.V(1e150, -1e150, 1e150)))
	add("mixed-scales", append(obbScale(obbSoup(rng, 20, 0.3), 1e-200, geom.V(0, 0, 0)), obbScale(obbSoup(rng, 20, 0.3), 1e100, geom.V(0, 0, 0))...))
	dup := obbSoup(rng, 1, 0.5)
	for range 30 {
		dup = append(dup, dup[0])
	}
	add("duplicates", dup)
	add("duplicates-mixed", append(dup, obbSoup(rng, 5, 0.5)...))
	add("cube", obbBoxTris(geom.V(-1, -1, -1), geom.V(1, 1, 1), 1))
	add("cube-rotated", obbTransform(obbBoxTris(geom.V(-1, -1, -1), geom.V(1, 1, 1), 3), eigRot(rng), geom.V(1, 2, 3)))
	add("sphere", obbSphereSoup(24, 12, 1, 0))
	add("sphere-far", obbScale(obbSphereSoup(16, 8, 1, 0.01), 1e-4, geom.V(12345.678, -1e6, 0.5)))
	tet := []geom.Vec3{geom.V(1, 1, 1), geom.V(1, -1, -1), geom.V(-1, 1, -1), geom.V(-1, -1, 1)}
	add("tetrahedron", []geom.Triangle{
		geom.Tri(tet[0], tet[1], tet[2]), geom.Tri(tet[0], tet[3], tet[1]),
		geom.Tri(tet[0], tet[2], tet[3]), geom.Tri(tet[1], tet[3], tet[2]),
	})
	add("thin-slab", obbTransform(obbBoxTris(geom.V(-5, -2, -1e-6), geom.V(5, 2, 1e-6), 2), eigRot(rng), geom.V(0, 0, 0)))
	return cs
}

// Exact containment check.

func obbRat(x float64) *big.Rat { return new(big.Rat).SetFloat64(x) }

// obbExactCheck verifies |(v − C)·Axes[k]| ≤ Half_k exactly for every
// corner, and returns the largest exact |(v − C)·Axes[k]| per axis, rounded.
func obbExactCheck(t *testing.T, name string, b OBB, ts []geom.Triangle) [3]float64 {
	t.Helper()
	var ax [3][3]*big.Rat
	var c [3]*big.Rat
	var half [3]*big.Rat
	for k := range 3 {
		for j := range 3 {
			ax[k][j] = obbRat(b.Axes[k][j])
		}
	}
	for j, x := range [3]float64{b.C.X, b.C.Y, b.C.Z} {
		c[j] = obbRat(x)
	}
	for k, x := range [3]float64{b.Half.X, b.Half.Y, b.Half.Z} {
		half[k] = obbRat(x)
	}
	var most [3]*big.Rat
	for k := range most {
		most[k] = new(big.Rat)
	}
	d, p, s := new(big.Rat), new(big.Rat), new(big.Rat)
	var diff [3]big.Rat
	for i, tr := range ts {
		for _, v := range tr {
			for j, x := range [3]float64{v.X, v.Y, v.Z} {
				diff[j].Sub(obbRat(x), c[j])
			}
			for k := range 3 {
				s.SetInt64(0)
				for j := range 3 {
					p.Mul(&diff[j], ax[k][j])
					s.Add(s, p)
				}
				d.Abs(s)
				if d.Cmp(half[k]) > 0 {
					df, _ := d.Float64()
					t.Fatalf("%s: corner %v of triangle %d is outside the box on axis %d: |(v−C)·a| = %.17g > Half = %s\nbox %+v",
						name, v, i, k, df, half[k].FloatString(20), b)
				}
				if d.Cmp(most[k]) > 0 {
					most[k].Set(d)
				}
			}
		}
	}
	var out [3]float64
	for k := range 3 {
		out[k], _ = most[k].Float64()
	}
	return out
}

func obbMaxAbs(ts []geom.Triangle) float64 {
	m := 0.0
	for _, tr := range ts {
		for _, v := range tr {
			m = max(m, math.Abs(v.X), math.Abs(v.Y), math.Abs(v.Z))
		}
	}
	return m
}

func TestFitOBBContains(t *testing.T) {
	for _, sc := range obbSoups() {
		for _, how := range obbFits {
			name := sc.name + "/" + how.String()
			b := FitOBB(sc.tris, how)
			if !b.C.IsFinite() || !b.Half.IsFinite() {
				t.Fatalf("%s: non-finite box %+v", name, b)
			}
			if !(b.Half.X >= 0 && b.Half.Y >= 0 && b.Half.Z >= 0) {
				t.Fatalf("%s: negative half-extent %v", name, b.Half)
			}
			eigCheckFrame(t, name, b.Axes, 1e-15)
			most := obbExactCheck(t, name, b, sc.tris)
			// Tightness of the padding: Half exceeds the largest exact
			// extent by at most a few times the proven pad.
			m := obbMaxAbs(sc.tris)
			slack := 0x1p-44*(m+b.C.Norm()) + 0x1p-990
			for k, h := range [3]float64{b.Half.X, b.Half.Y, b.Half.Z} {
				if h-most[k] > slack {
					t.Errorf("%s: axis %d: Half %.17g exceeds the extent %.17g by more than %g", name, k, h, most[k], slack)
				}
			}
			for _, tr := range sc.tris {
				for _, v := range tr {
					if !b.Contains(v) {
						t.Fatalf("%s: Contains(%v) = false", name, v)
					}
				}
			}
		}
	}
}

func TestFitOBBRandomSoups(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	for it := range 60 {
		n := 1 + rng.IntN(60)
		ts := obbSoup(rng, n, math.Pow(10, -3*rng.Float64()))
		if it%3 == 0 {
			ts = obbTransform(ts, eigRot(rng), obbRandVec(rng, -1e6, 1e6))
		}
		if it%5 == 0 {
			// Degenerate triangles mixed in.
			for i := range ts {
				if rng.IntN(3) == 0 {
					ts[i][2] = ts[i][rng.IntN(2)]
				}
			}
		}
		for _, how := range obbFits {
			b := FitOBB(ts, how)
			eigCheckFrame(t, how.String(), b.Axes, 1e-15)
			obbExactCheck(t, fmt.Sprintf("soup %d/%v", it, how), b, ts)
		}
	}
}

// TestFitOBBScaleInvariance checks that scaling by a power of two, down to
// subnormal coordinates and up to 2⁹⁰⁰, scales the box and keeps its axes:
// the covariance is computed on normalised corners.
func TestFitOBBScaleInvariance(t *testing.T) {
	rng := rand.New(rand.NewPCG(29, 30))
	ts := make([]geom.Triangle, 40)
	for i := range ts {
		for k := range 3 {
			// Multiples of 2⁻¹⁰ in [-1, 1]: exact after scaling by 2⁻¹⁰⁶⁴.
			ts[i][k] = geom.V(float64(rng.IntN(2049)-1024)/1024, float64(rng.IntN(2049)-1024)/1024, float64(rng.IntN(2049)-1024)/1024)
		}
	}
	for _, how := range obbFits {
		ref := FitOBB(ts, how)
		for _, e := range []int{-1064, -1030, -1000, -600, -1, 1, 600, 900} {
			b := FitOBB(obbScale(ts, math.Ldexp(1, e), geom.Vec3{}), how)
			// The surface and vertex fits see identical normalised corners.
			// The hull's insertion order depends on float estimates, so its
			// triangles may come in another order (or triangulate coplanar
			// faces otherwise) at another scale, which changes the rounding
			// of the moments only.
			tol := 0.0
			if how == FitHull {
				tol = 1e-14
			}
			for k := range 3 {
				if !b.Axes.Row(k).ApproxEqual(ref.Axes.Row(k), tol) {
					t.Errorf("%v, scale 2^%d: axes %v, want %v", how, e, b.Axes, ref.Axes)
				}
			}
			for k, h := range [3]float64{b.Half.X, b.Half.Y, b.Half.Z} {
				want := math.Ldexp(ref.Half.Index(k), e)
				if math.Abs(h-want) > 1e-12*want+0x1p-990 {
					t.Errorf("%v, scale 2^%d: Half[%d] = %g, want %g", how, e, k, h, want)
				}
			}
		}
	}
}

func TestFitOBBSpecial(t *testing.T) {
	id := geom.Identity3()
	if b := FitOBB(nil, FitSurface); b != (OBB{Axes: id}) {
		t.Errorf("FitOBB(nil) = %+v", b)
	}
	inf := math.Inf(1)
	for _, bad := range []float64{math.NaN(), inf, -inf} {
		ts := []geom.Triangle{geom.Tri(geom.V(0, 0, 0), geom.V(1, 0, 0), geom.V(0, bad, 0))}
		for _, how := range obbFits {
			b := FitOBB(ts, how)
			if b.Axes != id || b.C != (geom.Vec3{}) || b.Half != geom.V(inf, inf, inf) {
				t.Errorf("FitOBB with %v, %v = %+v, want the infinite box", bad, how, b)
			}
			if !b.Contains(geom.V(1e300, -1e300, 0)) {
				t.Errorf("the infinite box does not contain a point")
			}
		}
	}
	// Overflowing extents: a box of everything, never NaN.
	big := []geom.Triangle{geom.Tri(geom.V(math.MaxFloat64, math.MaxFloat64, 0), geom.V(-math.MaxFloat64, 0, math.MaxFloat64), geom.V(0, 0, 0))}
	for _, how := range obbFits {
		b := FitOBB(big, how)
		if b.Half.X != inf && !b.Half.IsFinite() {
			t.Errorf("FitOBB(near MaxFloat64, %v) = %+v", how, b)
		}
		if b.Half.IsFinite() {
			obbExactCheck(t, "near-max", b, big)
		}
	}
	defer func() {
		if recover() == nil {
			t.Errorf("FitOBB with an unknown OBBFit did not panic")
		}
	}()
	FitOBB(big, OBBFit(7))
}

// TestSurfaceCovarianceMonteCarlo compares the closed form of the surface
// covariance with the covariance of points sampled uniformly on the
// triangles, within 5 standard errors of the sample.
func TestSurfaceCovarianceMonteCarlo(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	for it := range 4 {
		ts := obbSoup(rng, 1+it*3, 1)
		if it == 3 {
			ts = append(ts, geom.Tri(geom.V(0, 0, 0), geom.V(1, 1, 1), geom.V(2, 2, 2))) // weighs nothing
		}
		acc := obbMoments{s: 1, ref: geom.V(0.25, -0.5, 1)} // covariance is translation invariant
		for _, tr := range ts {
			acc.addTri(tr[0], tr[1], tr[2])
		}
		cov, ok := acc.covariance()
		if !ok {
			t.Fatal("zero area")
		}
		// Sampling: triangle by area, then a uniform point in it.
		cum := make([]float64, len(ts))
		tot := 0.0
		for i, tr := range ts {
			tot += tr.Area()
			cum[i] = tot
		}
		const n = 400000
		xs := make([][3]float64, n)
		var mean [3]float64
		for s := range n {
			u := rng.Float64() * tot
			i := 0
			for cum[i] < u {
				i++
			}
			r1, r2 := math.Sqrt(rng.Float64()), rng.Float64()
			tr := ts[i]
			p := tr[0].Scale(1 - r1).Add(tr[1].Scale(r1 * (1 - r2))).Add(tr[2].Scale(r1 * r2))
			xs[s] = [3]float64{p.X, p.Y, p.Z}
			for j := range 3 {
				mean[j] += xs[s][j] / n
			}
		}
		for j := range 3 {
			for k := range 3 {
				var m1, m2 float64
				for _, x := range xs {
					z := (x[j] - mean[j]) * (x[k] - mean[k])
					m1 += z
					m2 += z * z
				}
				m1 /= n
				se := math.Sqrt((m2/n - m1*m1) / n)
				if d := math.Abs(cov[j][k] - m1); d > 5*se+1e-12 {
					t.Errorf("soup %d: C[%d][%d] = %.6g, sampled %.6g (diff %.3g, 5σ = %.3g)", it, j, k, cov[j][k], m1, d, 5*se)
				}
			}
		}
	}
}

// TestVertexCovariance checks obbVertexCovariance against the definition.
func TestVertexCovariance(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 18))
	ts := obbSoup(rng, 20, 0.5)
	var mean geom.Vec3
	for _, tr := range ts {
		for _, v := range tr {
			mean = mean.Add(v.Scale(1.0 / 60))
		}
	}
	var want [3][3]float64
	for _, tr := range ts {
		for _, v := range tr {
			d := v.Sub(mean)
			dv := [3]float64{d.X, d.Y, d.Z}
			for j := range 3 {
				for k := range 3 {
					want[j][k] += dv[j] * dv[k] / 60
				}
			}
		}
	}
	got := obbVertexCovariance(ts, 0.5, geom.V(0.125, -0.25, 0.0625))
	for j := range 3 {
		for k := range 3 {
			if math.Abs(got[j][k]-0.25*want[j][k]) > 1e-15*math.Abs(want[j][k]) {
				t.Errorf("C[%d][%d] = %v, want %v", j, k, got[j][k], 0.25*want[j][k])
			}
		}
	}
}

// obbAABBVolume returns the volume of the axis-aligned box of the corners.
func obbAABBVolume(ts []geom.Triangle) float64 {
	b := geom.EmptyAABB()
	for _, tr := range ts {
		for _, v := range tr {
			b = b.AddPoint(v)
		}
	}
	return b.Volume()
}

func TestFitOBBTight(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 20))
	lo, hi := geom.V(-1.5, 0.25, 3), geom.V(1.5, 2.25, 4)
	trueVol := 3.0 * 2 * 1
	// Point sets of an axis-aligned box: its triangulated surface (for the
	// surface and hull fits; the corners of its 12 triangles are not
	// symmetric, so the vertex fit is not expected to align with it), and
	// a symmetric lattice of points (degenerate triangles) for all fits.
	var lattice []geom.Triangle
	for i := range 5 {
		for j := range 5 {
			for k := range 5 {
				p := geom.V(lo.X+(hi.X-lo.X)*float64(i)/4, lo.Y+(hi.Y-lo.Y)*float64(j)/4, lo.Z+(hi.Z-lo.Z)*float64(k)/4)
				lattice = append(lattice, geom.Tri(p, p, p))
			}
		}
	}
	sets := []struct {
		name string
		tris []geom.Triangle
		fits []OBBFit
	}{
		{"surface n=1", obbBoxTris(lo, hi, 1), []OBBFit{FitHull, FitSurface}},
		{"surface n=4", obbBoxTris(lo, hi, 4), []OBBFit{FitHull, FitSurface}},
		{"lattice", lattice, obbFits},
	}
	for _, set := range sets {
		for _, how := range set.fits {
			b := FitOBB(set.tris, how)
			if v := b.Volume(); !(v >= trueVol*(1-1e-12) && v <= 1.01*trueVol) {
				t.Errorf("axis-aligned box, %s, %v: volume %v, want within 1%% of %v", set.name, how, v, trueVol)
			}
		}
	}
	// A long thin box, rotated: the hull fit is tight, the AABB is not.
	r := geom.AxisAngle(geom.V(1, 2, 3), 0.9).Mat3()
	ts := obbTransform(obbBoxTris(geom.V(-5, -0.1, -0.05), geom.V(5, 0.1, 0.05), 1), r, geom.V(3, -1, 2))
	thinVol := 10 * 0.2 * 0.1
	aabb := obbAABBVolume(ts)
	for _, how := range obbFits {
		b := FitOBB(ts, how)
		v := b.Volume()
		t.Logf("thin rotated box, %v: OBB volume %.4g, AABB volume %.4g, true %.4g", how, v, aabb, thinVol)
		if how == FitHull && !(v <= 1.01*thinVol && v <= 0.02*aabb) {
			t.Errorf("thin rotated box, %v: volume %v, want ≤ 1.01×%v and ≤ 2%% of the AABB's %v", how, v, thinVol, aabb)
		}
	}
	// Random rotations of a box with distinct extents: the hull fit finds
	// the box.
	for range 20 {
		r := eigRot(rng)
		ts := obbTransform(obbBoxTris(geom.V(-2, -1, -0.5), geom.V(2, 1, 0.5), 2), r, obbRandVec(rng, -10, 10))
		b := FitOBB(ts, FitHull)
		if v := b.Volume(); !(v <= 1.0001*8) {
			t.Errorf("rotated 4×2×1 box: hull volume %v, want 8", v)
		}
	}
}

// TestFitOBBPaperExample is the example of Gottschalk et al.: a dense planar
// patch of vertices inside a box turns the vertex covariance towards the
// patch, while the hull's surface covariance sees the box only.
func TestFitOBBPaperExample(t *testing.T) {
	lo, hi := geom.V(-2, -1.5, -1), geom.V(2, 1.5, 1)
	boxVol := 4.0 * 3 * 2
	ts := obbBoxTris(lo, hi, 1)
	// Patch: a 30×30 grid of small triangles in a tilted plane through the
	// centre, inside the box.
	u := geom.V(1, 1, 0).Unit()
	v := geom.V(-1, 1, 2).Unit()
	const n = 30
	for i := range n {
		for j := range n {
			s0, s1 := -0.8+1.6*float64(i)/n, -0.8+1.6*float64(i+1)/n
			t0, t1 := -0.8+1.6*float64(j)/n, -0.8+1.6*float64(j+1)/n
			p := func(s, t float64) geom.Vec3 { return u.Scale(s).Add(v.Scale(t)) }
			ts = append(ts, geom.Tri(p(s0, t0), p(s1, t0), p(s1, t1)), geom.Tri(p(s0, t0), p(s1, t1), p(s0, t1)))
		}
	}
	vols := map[OBBFit]float64{}
	for _, how := range obbFits {
		b := FitOBB(ts, how)
		obbExactCheck(t, "paper/"+how.String(), b, ts)
		vols[how] = b.Volume()
		t.Logf("%v: volume %.4g (box %v)", how, vols[how], boxVol)
	}
	if !(vols[FitHull] <= 1.01*boxVol) {
		t.Errorf("hull fit volume %v, want ≤ 1.01×%v", vols[FitHull], boxVol)
	}
	if !(vols[FitVertices] > 1.2*boxVol) {
		t.Errorf("vertex fit volume %v: expected the patch to misalign it (> 1.2×%v)", vols[FitVertices], boxVol)
	}
}

// OBBDisjoint.

// obbRel returns the pose of box b in box a's frame and |r|.
func obbRel(a, b OBB) (r, absR geom.Mat3, t geom.Vec3) {
	for i := range 3 {
		for j := range 3 {
			r[i][j] = a.Axes.Row(i).Dot(b.Axes.Row(j))
			absR[i][j] = math.Abs(r[i][j])
		}
	}
	d := b.C.Sub(a.C)
	t = geom.V(a.Axes.Row(0).Dot(d), a.Axes.Row(1).Dot(d), a.Axes.Row(2).Dot(d))
	return r, absR, t
}

func obbAbs(r geom.Mat3) geom.Mat3 {
	for i := range 3 {
		for j := range 3 {
			r[i][j] = math.Abs(r[i][j])
		}
	}
	return r
}

// obbPrec makes big.Float arithmetic exact in the OBBDisjoint oracles: every
// intermediate there is a sum of products of at most three float64 values,
// an integer multiple of 2⁻³²²² of magnitude below 2³⁰⁸⁰, which 6400 bits
// represent exactly.
const obbPrec = 6400

func obbF(x float64) *big.Float { return new(big.Float).SetPrec(obbPrec).SetFloat64(x) }

func obbNewF() *big.Float { return new(big.Float).SetPrec(obbPrec) }

// obbAxes returns the 15 candidate axes in a's frame, in the order of
// OBBDisjoint, computed from r exactly: A_i, B_j (column j of r), A_i × B_j.
func obbAxes(r *geom.Mat3) [15][3]*big.Float {
	var out [15][3]*big.Float
	var col [3][3]*big.Float
	for j := range 3 {
		for i := range 3 {
			col[j][i] = obbF(r[i][j])
		}
	}
	for i := range 3 {
		for k := range 3 {
			out[i][k] = obbNewF()
			if i == k {
				out[i][k].SetInt64(1)
			}
		}
		out[3+i] = col[i]
	}
	for i := range 3 {
		i1, i2 := (i+1)%3, (i+2)%3
		for j := range 3 {
			// e_i × c: component i is 0, i1 is −c_i2, i2 is c_i1.
			var l [3]*big.Float
			l[i] = obbNewF()
			l[i1] = obbNewF().Neg(col[j][i2])
			l[i2] = obbNewF().Set(col[j][i1])
			out[6+3*i+j] = l
		}
	}
	return out
}

// obbBig returns the extents, the translation and the columns of r as
// exact numbers.
func obbBig(a, b geom.Vec3, r *geom.Mat3, t geom.Vec3) (av, bv, tv [3]*big.Float, cols [3][3]*big.Float) {
	av = [3]*big.Float{obbF(a.X), obbF(a.Y), obbF(a.Z)}
	bv = [3]*big.Float{obbF(b.X), obbF(b.Y), obbF(b.Z)}
	tv = [3]*big.Float{obbF(t.X), obbF(t.Y), obbF(t.Z)}
	for j := range 3 {
		for i := range 3 {
			cols[j][i] = obbF(r[i][j])
		}
	}
	return av, bv, tv, cols
}

// obbExactSlacks returns, for each of the 15 axes, the exact gap between
// the projections of the corners of A = {Σ u_i a_i e_i} and
// B = {t + Σ v_j b_j r_j} (|u|, |v| ≤ 1; r_j the columns of r, as given):
// positive when the corner projections are disjoint on that axis, nil for
// an axis that is the zero vector (parallel edges), which never separates.
func obbExactSlacks(a, b geom.Vec3, r *geom.Mat3, t geom.Vec3) [15]*big.Float {
	axes := obbAxes(r)
	av, bv, tv, cols := obbBig(a, b, r, t)
	// Corners.
	var ca, cb [8][3]*big.Float
	for c := range 8 {
		for i := range 3 {
			ca[c][i] = obbNewF().Set(av[i])
			if c>>i&1 == 1 {
				ca[c][i].Neg(ca[c][i])
			}
			cb[c][i] = obbNewF().Set(tv[i])
		}
		for j := range 3 {
			s := obbNewF().Set(bv[j])
			if c>>j&1 == 1 {
				s.Neg(s)
			}
			for i := range 3 {
				cb[c][i].Add(cb[c][i], obbNewF().Mul(s, cols[j][i]))
			}
		}
	}
	var out [15]*big.Float
	p := obbNewF()
	for k, l := range axes {
		if l[0].Sign() == 0 && l[1].Sign() == 0 && l[2].Sign() == 0 {
			continue
		}
		var loA, hiA, loB, hiB *big.Float
		for c := range 8 {
			for w, set := range [2]*[8][3]*big.Float{&ca, &cb} {
				d := obbNewF()
				for i := range 3 {
					d.Add(d, p.Mul(set[c][i], l[i]))
				}
				if w == 0 {
					if loA == nil || d.Cmp(loA) < 0 {
						loA = d
					}
					if hiA == nil || d.Cmp(hiA) > 0 {
						hiA = d
					}
				} else {
					if loB == nil || d.Cmp(loB) < 0 {
						loB = d
					}
					if hiB == nil || d.Cmp(hiB) > 0 {
						hiB = d
					}
				}
			}
		}
		g1 := obbNewF().Sub(loB, hiA)
		g2 := obbNewF().Sub(loA, hiB)
		if g1.Cmp(g2) < 0 {
			g1 = g2
		}
		out[k] = g1
	}
	return out
}

// obbExactRadii returns the same gaps as obbExactSlacks from the radius
// form |t·L| − Σ a_i|L_i| − Σ b_j|r_j·L|, exactly: the half-width of the
// projection of a parallelepiped is the sum of its |edge·L|. It is about
// three times faster than projecting the 16 corners.
func obbExactRadii(a, b geom.Vec3, r *geom.Mat3, t geom.Vec3) [15]*big.Float {
	axes := obbAxes(r)
	av, bv, tv, cols := obbBig(a, b, r, t)
	var out [15]*big.Float
	p, d := obbNewF(), obbNewF()
	for k, l := range axes {
		if l[0].Sign() == 0 && l[1].Sign() == 0 && l[2].Sign() == 0 {
			continue
		}
		s := obbNewF()
		for i := range 3 {
			s.Add(s, p.Mul(tv[i], l[i]))
		}
		s.Abs(s)
		for i := range 3 {
			s.Sub(s, p.Mul(av[i], p.Abs(l[i])))
		}
		for j := range 3 {
			d.SetInt64(0)
			for i := range 3 {
				d.Add(d, p.Mul(cols[j][i], l[i]))
			}
			s.Sub(s, p.Mul(bv[j], d.Abs(d)))
		}
		out[k] = s
	}
	return out
}

// obbDisjointGeneric is the generic form of the 15-axis test in float64:
// |t·L| > Σ a_i|A_i·L| + Σ b_j|B_j·L| + pad for the axes L computed
// explicitly. It is the reference and the baseline of the benchmark.
func obbDisjointGeneric(a, b geom.Vec3, r *geom.Mat3, t geom.Vec3, pad float64) bool {
	var ls [15]geom.Vec3
	ex := [3]geom.Vec3{{X: 1}, {Y: 1}, {Z: 1}}
	for i := range 3 {
		ls[i] = ex[i]
		ls[3+i] = r.Col(i)
		for j := range 3 {
			ls[6+3*i+j] = ex[i].Cross(r.Col(j))
		}
	}
	for _, l := range ls {
		ra := a.X*math.Abs(l.X) + a.Y*math.Abs(l.Y) + a.Z*math.Abs(l.Z)
		rb := b.X*math.Abs(r.Col(0).Dot(l)) + b.Y*math.Abs(r.Col(1).Dot(l)) + b.Z*math.Abs(r.Col(2).Dot(l))
		if math.Abs(t.Dot(l)) > ra+rb+pad {
			return true
		}
	}
	return false
}

// obbDisjointLoop is OBBDisjoint written with loops over the axis indices,
// the benchmark's comparison for the unrolled form.
func obbDisjointLoop(a, b geom.Vec3, r, absR *geom.Mat3, t geom.Vec3, pad float64) bool {
	av := [3]float64{a.X, a.Y, a.Z}
	bv := [3]float64{b.X, b.Y, b.Z}
	tv := [3]float64{t.X, t.Y, t.Z}
	for i := range 3 {
		if math.Abs(tv[i]) > av[i]+bv[0]*absR[i][0]+bv[1]*absR[i][1]+bv[2]*absR[i][2]+pad {
			return true
		}
	}
	for j := range 3 {
		if math.Abs(tv[0]*r[0][j]+tv[1]*r[1][j]+tv[2]*r[2][j]) > av[0]*absR[0][j]+av[1]*absR[1][j]+av[2]*absR[2][j]+bv[j]+pad {
			return true
		}
	}
	for i := range 3 {
		i1, i2 := (i+1)%3, (i+2)%3
		for j := range 3 {
			j1, j2 := (j+1)%3, (j+2)%3
			if math.Abs(tv[i2]*r[i1][j]-tv[i1]*r[i2][j]) > av[i1]*absR[i2][j]+av[i2]*absR[i1][j]+bv[j1]*absR[i][j2]+bv[j2]*absR[i][j1]+pad {
				return true
			}
		}
	}
	return false
}

// obbPair is a random box pair: half-extents a, b, and b's pose in a's frame.
type obbPair struct {
	a, b geom.Vec3
	r, q geom.Mat3 // q = |r|
	t    geom.Vec3
}

func obbExtent(rng *rand.Rand) geom.Vec3 {
	e := obbRandVec(rng, 0, 1)
	// Flat boxes, segments and points.
	if rng.IntN(4) == 0 {
		e.Z = 0
	}
	if rng.IntN(8) == 0 {
		e.Y = 0
	}
	if rng.IntN(16) == 0 {
		e.X = 0
	}
	return e
}

// obbRandomPair returns a random pair. Some are placed so that the gap
// along one random candidate axis is 0 (before rounding) or small.
func obbRandomPair(rng *rand.Rand) obbPair {
	p := obbPair{a: obbExtent(rng), b: obbExtent(rng)}
	switch rng.IntN(4) {
	case 0:
		p.r = geom.Identity3()
	default:
		p.r = eigRot(rng)
	}
	p.q = obbAbs(p.r)
	p.t = obbRandVec(rng, -1, 1)
	if rng.IntN(2) == 0 {
		// Move b along a random candidate axis so that the projections on
		// it just touch.
		var ls [15]geom.Vec3
		ex := [3]geom.Vec3{{X: 1}, {Y: 1}, {Z: 1}}
		for i := range 3 {
			ls[i] = ex[i]
			ls[3+i] = p.r.Col(i)
			for j := range 3 {
				ls[6+3*i+j] = ex[i].Cross(p.r.Col(j))
			}
		}
		l := ls[rng.IntN(15)]
		if n := l.Norm(); n > 1e-3 {
			l = l.Scale(1 / n)
			ra := p.a.X*math.Abs(l.X) + p.a.Y*math.Abs(l.Y) + p.a.Z*math.Abs(l.Z)
			rb := p.b.X*math.Abs(p.r.Col(0).Dot(l)) + p.b.Y*math.Abs(p.r.Col(1).Dot(l)) + p.b.Z*math.Abs(p.r.Col(2).Dot(l))
			gap := 0.0 // touching
			switch rng.IntN(3) {
			case 1:
				gap = 0.05 * rng.Float64()
			case 2:
				gap = -0.05 * rng.Float64()
			}
			perp := p.t.Sub(l.Scale(p.t.Dot(l)))
			p.t = perp.Add(l.Scale(ra + rb + gap))
		}
	}
	return p
}

func TestOBBDisjointOracle(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	n := 30000
	if testing.Short() {
		n = 3000
	}
	const margin = 1e-9
	var compared, disjoint, edgeOnly, nearTouch int
	for it := range n {
		p := obbRandomPair(rng)
		slacks := obbExactRadii(p.a, p.b, &p.r, p.t)
		if it%10 == 0 {
			// The corner projections (independent of the radius form) agree.
			for k, c := range obbExactSlacks(p.a, p.b, &p.r, p.t) {
				if (c == nil) != (slacks[k] == nil) || c != nil && c.Cmp(slacks[k]) != 0 {
					t.Fatalf("pair %d, axis %d: corner gap %v, radius gap %v", it, k, c, slacks[k])
				}
			}
		}
		best := math.Inf(-1)
		faceSep := false
		for k, s := range slacks {
			if s == nil {
				continue
			}
			f, _ := s.Float64()
			best = max(best, f)
			if k < 6 && f > margin {
				faceSep = true
			}
		}
		got := OBBDisjoint(p.a, p.b, &p.r, &p.q, p.t, 0)
		if g := obbDisjointLoop(p.a, p.b, &p.r, &p.q, p.t, 0); g != got {
			t.Fatalf("pair %d: loop form %v, unrolled %v: %+v", it, g, got, p)
		}
		if math.Abs(best) > margin {
			compared++
			want := best > 0
			if got != want {
				t.Fatalf("pair %d: OBBDisjoint = %v, exact %v (slacks max %g): %+v", it, got, want, best, p)
			}
			if g := obbDisjointGeneric(p.a, p.b, &p.r, p.t, 0); g != want {
				t.Fatalf("pair %d: generic = %v, exact %v: %+v", it, g, want, p)
			}
			if want {
				disjoint++
				if !faceSep {
					edgeOnly++
				}
			}
		} else {
			nearTouch++
		}
		// Soundness with a pad that covers the rounding: reported disjoint
		// implies an axis separates the exact corner projections by more
		// than 0 (so the boxes, as given, are disjoint).
		if OBBDisjoint(p.a, p.b, &p.r, &p.q, p.t, margin) && !(best > 0) {
			t.Fatalf("pair %d: disjoint with pad %g, but no axis separates the corners (max gap %g): %+v", it, margin, best, p)
		}
		// Completeness: a gap larger than pad plus the rounding is found.
		if best > 2*margin && !OBBDisjoint(p.a, p.b, &p.r, &p.q, p.t, margin) {
			t.Fatalf("pair %d: gap %g > pad %g but not reported disjoint: %+v", it, best, margin, p)
		}
		// pad acts like a gap: with pad = gap/2 the pair is disjoint, with
		// pad = 2·gap it is not.
		if best > margin {
			if !OBBDisjoint(p.a, p.b, &p.r, &p.q, p.t, best/2) || OBBDisjoint(p.a, p.b, &p.r, &p.q, p.t, 2*best) {
				t.Fatalf("pair %d: pad does not act as a margin on gap %g: %+v", it, best, p)
			}
		}
	}
	t.Logf("%d pairs: %d compared (%d disjoint, %d by an edge axis only), %d near touching", n, compared, disjoint, edgeOnly, nearTouch)
	if compared < n/2 || disjoint < n/5 || disjoint > compared*4/5 || edgeOnly < n/100 || nearTouch < n/100 {
		t.Errorf("poor coverage: %d compared, %d disjoint, %d edge-only, %d near touching", compared, disjoint, edgeOnly, nearTouch)
	}
}

func TestOBBDisjointCases(t *testing.T) {
	id := geom.Identity3()
	rz := geom.Mat3{{0, -1, 0}, {1, 0, 0}, {0, 0, 1}} // 90° about z
	perm := geom.Mat3{{0, 0, 1}, {1, 0, 0}, {0, 1, 0}}
	up := func(x float64) float64 { return math.Nextafter(x, math.Inf(1)) }
	a := geom.V(1, 0.5, 0.25)
	b := geom.V(0.75, 0.5, 0.125)
	cases := []struct {
		name string
		a, b geom.Vec3
		r    geom.Mat3
		t    geom.Vec3
		want bool
	}{
		{"identical", a, a, id, geom.V(0, 0, 0), false},
		{"nested", a, geom.V(0.1, 0.1, 0.1), eigRot(rand.New(rand.NewPCG(1, 1))), geom.V(0.3, 0.2, 0.1), false},
		{"containing", geom.V(0.1, 0.1, 0.1), a, id, geom.V(0.5, 0, 0), false},
		{"face-face touching x", a, b, id, geom.V(a.X+b.X, 0.3, -0.1), false},
		{"face-face apart x", a, b, id, geom.V(up(a.X+b.X), 0.3, -0.1), true},
		{"face-face touching -y", a, b, id, geom.V(0.1, -(a.Y + b.Y), 0), false},
		{"face-face apart -y", a, b, id, geom.V(0.1, -up(a.Y+b.Y), 0), true},
		{"edge-edge touching", a, b, id, geom.V(a.X+b.X, a.Y+b.Y, 0), false},
		{"corner-corner touching", a, b, id, geom.V(a.X+b.X, a.Y+b.Y, -(a.Z + b.Z)), false},
		{"corner-corner apart", a, b, id, geom.V(a.X+b.X, a.Y+b.Y, -up(a.Z+b.Z)), true},
		// b rotated 90° about z: its x extent along a's y and vice versa.
		{"rotated touching", a, b, rz, geom.V(a.X+b.Y, a.Y+b.X, 0), false},
		{"rotated apart", a, b, rz, geom.V(up(a.X+b.Y), 0, 0), true},
		{"permuted touching", a, b, perm, geom.V(0, 0, a.Z+b.Y), false},
		{"permuted apart", a, b, perm, geom.V(0, 0, up(a.Z+b.Y)), true},
		{"point on face", a, geom.V(0, 0, 0), id, geom.V(0.3, a.Y, 0.1), false},
		{"point off face", a, geom.V(0, 0, 0), id, geom.V(0.3, up(a.Y), 0.1), true},
		{"point on corner", a, geom.V(0, 0, 0), eigRot(rand.New(rand.NewPCG(2, 2))), a, false},
		{"points equal", geom.V(0, 0, 0), geom.V(0, 0, 0), eigRot(rand.New(rand.NewPCG(3, 3))), geom.V(0, 0, 0), false},
		{"points apart", geom.V(0, 0, 0), geom.V(0, 0, 0), id, geom.V(0, 0, 0x1p-1074), true},
		{"segments crossing", geom.V(1, 0, 0), geom.V(1, 0, 0), rz, geom.V(0, 0, 0), false},
		{"segments skew apart", geom.V(1, 0, 0), geom.V(1, 0, 0), rz, geom.V(0, 0, 0.5), true},
		{"flat boxes coplanar overlap", geom.V(1, 1, 0), geom.V(1, 1, 0), eigRot(rand.New(rand.NewPCG(4, 4))), geom.V(0, 0, 0), false},
		{"nan", a, b, id, geom.V(math.NaN(), 0, 0), false},
	}
	for _, tc := range cases {
		q := obbAbs(tc.r)
		if got := OBBDisjoint(tc.a, tc.b, &tc.r, &q, tc.t, 0); got != tc.want {
			t.Errorf("%s: OBBDisjoint = %v, want %v", tc.name, got, tc.want)
		}
		if tc.name == "nan" || tc.r != id && tc.r != rz && tc.r != perm {
			continue
		}
		// Exact oracle agrees (these poses are exact).
		best := obbF(-1)
		for _, s := range obbExactSlacks(tc.a, tc.b, &tc.r, tc.t) {
			if s != nil && s.Cmp(best) > 0 {
				best = s
			}
		}
		if (best.Sign() > 0) != tc.want {
			t.Errorf("%s: exact oracle gap %v, want disjoint %v", tc.name, best, tc.want)
		}
	}
}

// TestOBBDisjointFitted checks boxes fitted to triangles against the exact
// triangle test: triangles in contact never have disjoint boxes.
func TestOBBDisjointFitted(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 24))
	var contacts, culled int
	for range 20000 {
		ta := obbSoup(rng, 1, 0.4)[0]
		tb := obbSoup(rng, 1, 0.4)[0]
		if rng.IntN(4) == 0 {
			tb[0] = ta[rng.IntN(3)] // shared vertex: touching
		}
		how := obbFits[rng.IntN(3)]
		ba, bb := FitOBB([]geom.Triangle{ta}, how), FitOBB([]geom.Triangle{tb}, how)
		r, q, tt := obbRel(ba, bb)
		dis := OBBDisjoint(ba.Half, bb.Half, &r, &q, tt, 1e-12)
		if geom.TriTri(ta, tb) {
			contacts++
			if dis {
				t.Fatalf("triangles %v and %v touch but their boxes are disjoint: %+v %+v", ta, tb, ba, bb)
			}
		} else if dis {
			culled++
		}
	}
	t.Logf("%d contacts, %d disjoint pairs culled", contacts, culled)
	if contacts < 1000 || culled < 1000 {
		t.Errorf("poor coverage: %d contacts, %d culled", contacts, culled)
	}
}

func TestOBBDisjointNoAlloc(t *testing.T) {
	p := obbRandomPair(rand.New(rand.NewPCG(25, 26)))
	if n := testing.AllocsPerRun(100, func() { OBBDisjoint(p.a, p.b, &p.r, &p.q, p.t, 0) }); n != 0 {
		t.Errorf("OBBDisjoint allocates %v times", n)
	}
}

func TestOBBVolume(t *testing.T) {
	b := OBB{Axes: geom.Identity3(), Half: geom.V(1, 2, 3)}
	if v := b.Volume(); v != 48 {
		t.Errorf("Volume = %v, want 48", v)
	}
	if !b.Contains(geom.V(1, -2, 3)) || b.Contains(geom.V(1, -2, 3.0000001)) {
		t.Error("Contains is wrong on the boundary")
	}
	for f, s := range map[OBBFit]string{FitHull: "hull", FitSurface: "surface", FitVertices: "vertices", 9: "OBBFit(9)"} {
		if f.String() != s {
			t.Errorf("String = %q, want %q", f.String(), s)
		}
	}
}

// Benchmarks.

// obbBenchPairs returns n random pairs of unit-scale boxes whose
// OBBDisjoint result is want.
func obbBenchPairs(n int, want bool) []obbPair {
	rng := rand.New(rand.NewPCG(27, 28))
	var ps []obbPair
	for len(ps) < n {
		p := obbPair{a: obbRandVec(rng, 0.2, 1), b: obbRandVec(rng, 0.2, 1), r: eigRot(rng)}
		p.q = obbAbs(p.r)
		p.t = obbRandVec(rng, -2.5, 2.5)
		if OBBDisjoint(p.a, p.b, &p.r, &p.q, p.t, 0) == want {
			ps = append(ps, p)
		}
	}
	return ps
}

var obbSink bool

func BenchmarkOBBDisjoint(b *testing.B) {
	for _, kind := range []struct {
		name string
		want bool
	}{{"overlapping", false}, {"separated", true}} {
		ps := obbBenchPairs(1024, kind.want)
		for _, v := range []struct {
			name string
			f    func(a, b geom.Vec3, r, q *geom.Mat3, t geom.Vec3, pad float64) bool
		}{
			{"", OBBDisjoint},
			{"/loop", obbDisjointLoop},
			{"/generic", func(a, b geom.Vec3, r, _ *geom.Mat3, t geom.Vec3, pad float64) bool {
				return obbDisjointGeneric(a, b, r, t, pad)
			}},
		} {
			b.Run(kind.name+v.name, func(b *testing.B) {
				b.ReportAllocs()
				s := false
				i := 0
				for b.Loop() {
					p := &ps[i&1023]
					s = s != v.f(p.a, p.b, &p.r, &p.q, p.t, 0)
					i++
				}
				obbSink = s
			})
		}
	}
}

// BenchmarkFitOBB fits boxes to a 1,000-triangle sphere (a UV sphere whose
// vertex radii vary by up to 1%, rotated); "hull-uv" is the exact UV sphere,
// whose planar quads and rings make many hull orientation tests degenerate
// (decided by the exact fallback).
func BenchmarkFitOBB(b *testing.B) {
	r := geom.AxisAngle(geom.V(1, 2, 3), 0.4).Mat3()
	ts := obbTransform(obbSphereSoup(25, 20, 1, 0.01), r, geom.V(1, 2, 3))
	uv := obbTransform(obbSphereSoup(25, 20, 1, 0), r, geom.V(1, 2, 3))
	run := func(name string, ts []geom.Triangle, how OBBFit) {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				FitOBB(ts, how)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(ts)), "ns/tri")
		})
	}
	for _, how := range obbFits {
		run(how.String(), ts, how)
	}
	run("hull-uv", uv, FitHull)
}
