package bv

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/collide3d/collide/geom"
)

// FitRSS.

// rssSoups returns the soups of the OBB tests and some more: far from the
// origin at 10⁶ and 10¹², a flat patch, a capsule.
func rssSoups() []obbSoupCase {
	rng := rand.New(rand.NewPCG(41, 42))
	cs := obbSoups()
	add := func(name string, ts []geom.Triangle) { cs = append(cs, obbSoupCase{name, ts}) }
	add("far-1e6", obbScale(obbSoup(rng, 100, 0.2), 1, geom.V(1e6, -1e6, 1e6)))
	add("far-1e6-rotated", obbTransform(obbSoup(rng, 100, 0.2), eigRot(rng), geom.V(-1e6, 2e6, 3e5)))
	add("far-1e12", obbScale(obbSoup(rng, 100, 0.2), 1, geom.V(1e12, 1e12, -1e12)))
	add("far-1e12-tiny", obbScale(obbSoup(rng, 60, 0.2), 1e-6, geom.V(-1e12, 3e12, 1e12)))
	var flat []geom.Triangle
	for range 60 {
		a, b, c := obbRandVec(rng, -1, 1), obbRandVec(rng, -1, 1), obbRandVec(rng, -1, 1)
		a.Z, b.Z, c.Z = 0, 0, 0
		flat = append(flat, geom.Tri(a, b, c))
	}
	add("flat-patch-far", obbTransform(flat, eigRot(rng), geom.V(1e6, 1e6, 1e6)))
	add("capsule", obbTransform([]geom.Triangle{
		geom.Tri(geom.V(-3, 0, 0), geom.V(3, 0, 0), geom.V(1, 0, 0)),
		geom.Tri(geom.V(-2, 0, 0), geom.V(0.5, 0, 0), geom.V(2.5, 0, 0)),
	}, eigRot(rng), geom.V(0.3, 0.2, 0.1)))
	add("two-points", []geom.Triangle{geom.Tri(geom.V(1, 2, 3), geom.V(1, 2, 3), geom.V(-1, 0, 4))})
	add("slab-8x4x1", obbTransform(obbBoxTris(geom.V(-4, -2, -0.5), geom.V(4, 2, 0.5), 1), eigRot(rng), geom.V(5, -5, 5)))
	add("sphere-far-1e12", obbScale(obbSphereSoup(16, 8, 1, 0.01), 1, geom.V(1e12, 0, 0)))
	return cs
}

// rssRat is the exact value of x.
func rssRat(x float64) *big.Rat { return new(big.Rat).SetFloat64(x) }

// rssExactCheck verifies the containment inequality of RSS exactly for
// every corner of ts, and returns the largest exact distance (rounded).
func rssExactCheck(t *testing.T, name string, v RSS, ts []geom.Triangle) float64 {
	t.Helper()
	var ax [3][3]*big.Rat
	for k := range 3 {
		for j := range 3 {
			ax[k][j] = rssRat(v.Axes[k][j])
		}
	}
	c := [3]*big.Rat{rssRat(v.C.X), rssRat(v.C.Y), rssRat(v.C.Z)}
	l := [2]*big.Rat{rssRat(v.L[0]), rssRat(v.L[1])}
	r2 := rssRat(v.R)
	r2.Mul(r2, r2)
	most := new(big.Rat)
	var diff [3]big.Rat
	var s [3]big.Rat
	p, q, e := new(big.Rat), new(big.Rat), new(big.Rat)
	for i, tr := range ts {
		for _, x := range tr {
			for j, xj := range [3]float64{x.X, x.Y, x.Z} {
				diff[j].Sub(rssRat(xj), c[j])
			}
			for k := range 3 {
				s[k].SetInt64(0)
				for j := range 3 {
					p.Mul(&diff[j], ax[k][j])
					s[k].Add(&s[k], p)
				}
			}
			q.Mul(&s[2], &s[2])
			for k := range 2 {
				e.Abs(&s[k])
				e.Sub(e, l[k])
				if e.Sign() > 0 {
					q.Add(q, e.Mul(e, e))
				}
			}
			if q.Cmp(r2) > 0 {
				qf, _ := q.Float64()
				t.Fatalf("%s: corner %v of triangle %d is outside: distance² %.17g > R² = %.17g\nRSS %+v",
					name, x, i, qf, v.R*v.R, v)
			}
			if q.Cmp(most) > 0 {
				most.Set(q)
			}
		}
	}
	f := new(big.Float).SetPrec(200).SetRat(most)
	d, _ := f.Sqrt(f).Float64()
	return d
}

// rssCheckFit checks the invariants of a fitted RSS and returns the largest
// exact distance of a corner from its rectangle.
func rssCheckFit(t *testing.T, name string, v RSS, ts []geom.Triangle) float64 {
	t.Helper()
	if !v.C.IsFinite() || !(v.L[0] >= 0 && v.L[0] <= math.MaxFloat64) || !(v.L[1] >= 0 && v.L[1] <= math.MaxFloat64) || !(v.R >= 0 && v.R <= math.MaxFloat64) {
		t.Fatalf("%s: bad RSS %+v", name, v)
	}
	eigCheckFrame(t, name, v.Axes, 1e-15)
	most := rssExactCheck(t, name, v, ts)
	for _, tr := range ts {
		for _, x := range tr {
			if !v.Contains(x, 0x1p-40*(obbMaxAbs(ts)+v.C.Norm())) {
				t.Fatalf("%s: Contains(%v) = false", name, x)
			}
		}
	}
	return most
}

func TestFitRSSContains(t *testing.T) {
	for _, sc := range rssSoups() {
		v := FitRSS(sc.tris)
		most := rssCheckFit(t, sc.name, v, sc.tris)
		// Tightness of the padding: R exceeds the largest exact distance
		// by at most a few times the proven pad.
		m := obbMaxAbs(sc.tris)
		slack := 0x1p-45*(m+v.C.Norm()) + 0x1p-519*m + 0x1p-1070
		if v.R-most > slack {
			t.Errorf("%s: R %.17g exceeds the largest distance %.17g by more than %g", sc.name, v.R, most, slack)
		}
		// The rectangle's normal is the axis of least extent of the box.
		box := FitOBB(sc.tris, FitHull)
		h := min(box.Half.X, box.Half.Y, box.Half.Z)
		n := v.Axes.Row(2)
		for k := range 3 {
			if a := box.Axes.Row(k); (a == n || a == n.Neg()) && box.Half.Index(k) != h {
				t.Errorf("%s: normal along an axis of half-extent %g, least %g", sc.name, box.Half.Index(k), h)
			}
		}
		// R is about the half-thickness of the box (PQP's radius), and the
		// rectangle no longer than the box.
		if v.R > h*(1+1e-12)+slack {
			t.Errorf("%s: R = %g, box half-thickness %g", sc.name, v.R, h)
		}
		if max(v.L[0], v.L[1]) > max(box.Half.X, box.Half.Y, box.Half.Z)*(1+1e-12)+slack {
			t.Errorf("%s: L = %v longer than the box %v", sc.name, v.L, box.Half)
		}
	}
}

func TestFitRSSRandomSoups(t *testing.T) {
	rng := rand.New(rand.NewPCG(43, 44))
	for it := range 80 {
		n := 1 + rng.IntN(60)
		ts := obbSoup(rng, n, math.Pow(10, -3*rng.Float64()))
		switch it % 4 {
		case 1:
			ts = obbTransform(ts, eigRot(rng), obbRandVec(rng, -1e6, 1e6))
		case 2:
			ts = obbTransform(ts, eigRot(rng), obbRandVec(rng, -1e12, 1e12))
		case 3:
			ts = obbScale(ts, math.Pow(10, float64(rng.IntN(40)-20)), geom.Vec3{})
		}
		if it%5 == 0 {
			for i := range ts {
				if rng.IntN(3) == 0 {
					ts[i][2] = ts[i][rng.IntN(2)]
				}
			}
		}
		rssCheckFit(t, fmt.Sprintf("soup %d", it), FitRSS(ts), ts)
	}
}

// TestFitRSSShapes checks the rectangle and radius on shapes whose RSS is
// known.
func TestFitRSSShapes(t *testing.T) {
	rng := rand.New(rand.NewPCG(45, 46))
	rot := eigRot(rng)
	off := geom.V(1, -2, 3)
	cases := []struct {
		name string
		ts   []geom.Triangle
		l    [2]float64
		r    float64
	}{
		// The corners of a slab lie at its extreme heights: the rectangle
		// is the whole mid-section.
		{"slab", obbTransform(obbBoxTris(geom.V(-4, -2, -0.5), geom.V(4, 2, 0.5), 1), rot, off), [2]float64{4, 2}, 0.5},
		{"flat", obbTransform([]geom.Triangle{
			geom.Tri(geom.V(-3, -1, 0), geom.V(3, -1, 0), geom.V(3, 1, 0)),
			geom.Tri(geom.V(-3, -1, 0), geom.V(3, 1, 0), geom.V(-3, 1, 0)),
		}, rot, off), [2]float64{3, 1}, 0},
		{"segment", obbTransform([]geom.Triangle{geom.Tri(geom.V(-2, 0, 0), geom.V(2, 0, 0), geom.V(0, 0, 0))}, rot, off), [2]float64{2, 0}, 0},
		{"point", []geom.Triangle{geom.Tri(off, off, off)}, [2]float64{0, 0}, 0},
		{"origin", []geom.Triangle{{}}, [2]float64{0, 0}, 0},
	}
	for _, c := range cases {
		v := FitRSS(c.ts)
		rssCheckFit(t, c.name, v, c.ts)
		tol := 1e-12
		if math.Abs(v.L[0]-c.l[0]) > tol || math.Abs(v.L[1]-c.l[1]) > tol || math.Abs(v.R-c.r) > tol {
			t.Errorf("%s: L = %v, R = %v; want %v, %v", c.name, v.L, v.R, c.l, c.r)
		}
	}
	// A thin square plate, 2 × 2 × 0.2, seen from its corner region: PQP's
	// rounding of the corners keeps the rectangle at most the plate.
	plate := obbBoxTris(geom.V(-1, -1, -0.1), geom.V(1, 1, 0.1), 4)
	v := FitRSS(plate)
	rssCheckFit(t, "plate", v, plate)
	if math.Abs(v.R-0.1) > 1e-12 || v.L[0] > 1+1e-12 || v.L[1] > 1+1e-12 || v.L[0] < 0.9 || v.L[1] < 0.9 {
		t.Errorf("plate: L = %v, R = %v", v.L, v.R)
	}
	// A ball: the rectangle shrinks to about its centre.
	ball := obbSphereSoup(24, 12, 1, 0)
	v = FitRSS(ball)
	rssCheckFit(t, "ball", v, ball)
	if math.Abs(v.R-1) > 1e-3 || v.L[0] > 0.3 || v.L[1] > 0.3 {
		t.Errorf("ball: L = %v, R = %v", v.L, v.R)
	}
}

func TestFitRSSSpecial(t *testing.T) {
	if v := FitRSS(nil); v != (RSS{Axes: geom.Identity3(), R: -1}) || !v.IsEmpty() || v.Volume() != 0 || v.Contains(geom.Vec3{}, 1) {
		t.Errorf("FitRSS(nil) = %+v", v)
	}
	inf := math.Inf(1)
	all := RSS{Axes: geom.Identity3(), R: inf}
	for _, bad := range []float64{math.NaN(), inf, -inf} {
		ts := []geom.Triangle{geom.Tri(geom.V(0, 0, 0), geom.V(1, 0, 0), geom.V(0, bad, 0))}
		if v := FitRSS(ts); v != all {
			t.Errorf("FitRSS with %v = %+v, want the RSS of everything", bad, v)
		}
	}
	if !all.Contains(geom.V(1e300, -1e300, 0), 0) {
		t.Error("the RSS of everything does not contain a point")
	}
	// Near the largest float: everything, or an exact fit, never NaN.
	big := []geom.Triangle{geom.Tri(geom.V(math.MaxFloat64, math.MaxFloat64, 0), geom.V(-math.MaxFloat64, 0, math.MaxFloat64), geom.V(0, 0, 0))}
	if v := FitRSS(big); v != all {
		rssCheckFit(t, "near-max", v, big)
	}
	half := obbScale(big, 0x1p-4, geom.Vec3{})
	if v := FitRSS(half); v != all {
		rssCheckFit(t, "near-max/16", v, half)
	}
}

// TestFitRSSScale checks that scaling by a power of two scales the fit:
// the work is done on normalised corners.
func TestFitRSSScale(t *testing.T) {
	rng := rand.New(rand.NewPCG(47, 48))
	ts := make([]geom.Triangle, 40)
	for i := range ts {
		for k := range 3 {
			ts[i][k] = geom.V(float64(rng.IntN(2049)-1024)/1024, float64(rng.IntN(2049)-1024)/1024, float64(rng.IntN(2049)-1024)/1024)
		}
	}
	ref := FitRSS(ts)
	for _, e := range []int{-1064, -1030, -1000, -600, -1, 1, 600, 900} {
		sc := obbScale(ts, math.Ldexp(1, e), geom.Vec3{})
		v := FitRSS(sc)
		rssCheckFit(t, fmt.Sprintf("2^%d", e), v, sc)
		if e < -1022 {
			continue // the axes of subnormal corners are fitted to rounded moments
		}
		for k := range 3 {
			if !v.Axes.Row(k).ApproxEqual(ref.Axes.Row(k), 1e-14) {
				t.Errorf("2^%d: axes %v, want %v", e, v.Axes, ref.Axes)
			}
		}
		for k := range 2 {
			if want := math.Ldexp(ref.L[k], e); math.Abs(v.L[k]-want) > 1e-12*want+0x1p-990 {
				t.Errorf("2^%d: L[%d] = %g, want %g", e, k, v.L[k], want)
			}
		}
		if want := math.Ldexp(ref.R, e); math.Abs(v.R-want) > 1e-12*want+0x1p-990 {
			t.Errorf("2^%d: R = %g, want %g", e, v.R, want)
		}
	}
}

// The exact distance between two rectangles.

// rssZono is the exact zonotope form of a rectangle pair: the distance
// between A and B is min |t + Σ λ_i g_i| over λ ∈ [−1, 1]⁴, with g_0 =
// −a0·x, g_1 = −a1·y, g_2 = b0·c0, g_3 = b1·c1 (c_j the columns of r as
// given). Every coordinate is a dyadic rational; multiplied by a common
// power of two 1/scale they are integers, and gram[i][j] = g_i·g_j for
// i, j < 4, gram[i][4] = g_i·t and gram[4][4] = t·t in those units, so the
// search below runs in integer arithmetic.
type rssZono struct {
	gram  [5][5]*big.Int
	scale *big.Rat // the length of the integer unit
}

func newRSSZono(a, b [2]float64, r *geom.Mat3, t geom.Vec3) *rssZono {
	var v [5][3]*big.Rat
	for i := range v {
		for k := range 3 {
			v[i][k] = new(big.Rat)
		}
	}
	v[0][0].Neg(rssRat(a[0]))
	v[1][1].Neg(rssRat(a[1]))
	for k := range 3 {
		v[2][k].Mul(rssRat(b[0]), rssRat(r[k][0]))
		v[3][k].Mul(rssRat(b[1]), rssRat(r[k][1]))
	}
	v[4] = [3]*big.Rat{rssRat(t.X), rssRat(t.Y), rssRat(t.Z)}
	// The denominators are powers of two: the largest is a common one.
	den := big.NewInt(1)
	for i := range v {
		for k := range 3 {
			if d := v[i][k].Denom(); d.Cmp(den) > 0 {
				den.Set(d)
			}
		}
	}
	var w [5][3]*big.Int
	for i := range v {
		for k := range 3 {
			x := new(big.Rat).Mul(v[i][k], new(big.Rat).SetInt(den))
			if !x.IsInt() {
				panic("rssZono: denominator is not a power of two")
			}
			w[i][k] = new(big.Int).Set(x.Num())
		}
	}
	z := &rssZono{scale: new(big.Rat).SetFrac(big.NewInt(1), den)}
	p := new(big.Int)
	for i := range 5 {
		for j := range 5 {
			s := new(big.Int)
			for k := range 3 {
				s.Add(s, p.Mul(w[i][k], w[j][k]))
			}
			z.gram[i][j] = s
		}
	}
	return z
}

// dist2 returns the exact squared distance: the least value of the
// quadratic over the faces of the cube [−1, 1]⁴ (each λ_i at −1, at +1 or
// free) on which its minimiser over the face's affine hull, with the free
// generators independent, lies in the face. Some optimal λ has independent
// free generators (moving along a dependency keeps the point and reaches a
// bound), so the least such value is the minimum. The Gram matrix K of a
// free set F is inverted once (as adj(K)/det K) for the 2^(4−|F|) signs of
// the fixed generators: with h = G_Fᵀ·base, the minimiser is μ = −K⁻¹h,
// feasible when |adj(K)·h| ≤ |det K|, and the value is |base|² + μ·h =
// (|base|²·det K − h·adj(K)·h)/det K.
func (z *rssZono) dist2() *big.Rat {
	var bestNum, bestDen *big.Int
	p, q := new(big.Int), new(big.Int)
	for mask := range 15 { // free sets of at most 3 generators
		var free, fixed []int
		for i := range 4 {
			if mask>>i&1 == 1 {
				free = append(free, i)
			} else {
				fixed = append(fixed, i)
			}
		}
		n := len(free)
		var k [3][3]*big.Int
		for a, i := range free {
			for b, j := range free {
				k[a][b] = z.gram[i][j]
			}
		}
		adj, det := rssAdjugate(k, n)
		if det.Sign() == 0 {
			continue
		}
		if det.Sign() < 0 {
			det.Neg(det)
			for a := range n {
				for b := range n {
					adj[a][b] = new(big.Int).Neg(adj[a][b])
				}
			}
		}
		for signs := range 1 << len(fixed) {
			sign := func(f int) int64 { return int64(1 - 2*(signs>>f&1)) }
			// |base|² and h, base = t + Σ_fixed ±g_j.
			base2 := new(big.Int).Set(z.gram[4][4])
			for f, i := range fixed {
				p.SetInt64(2 * sign(f))
				base2.Add(base2, p.Mul(p, z.gram[i][4]))
				for g, j := range fixed {
					p.SetInt64(sign(f) * sign(g))
					base2.Add(base2, p.Mul(p, z.gram[i][j]))
				}
			}
			var h [3]*big.Int
			for a, i := range free {
				h[a] = new(big.Int).Set(z.gram[i][4])
				for f, j := range fixed {
					p.SetInt64(sign(f))
					h[a].Add(h[a], p.Mul(p, z.gram[i][j]))
				}
			}
			feasible := true
			num := new(big.Int).Mul(base2, det)
			for a := range n {
				w := new(big.Int)
				for b := range n {
					w.Add(w, p.Mul(adj[a][b], h[b]))
				}
				if q.Abs(w).Cmp(det) > 0 {
					feasible = false
					break
				}
				num.Sub(num, p.Mul(w, h[a]))
			}
			if !feasible {
				continue
			}
			if bestNum == nil || new(big.Int).Mul(num, bestDen).Cmp(new(big.Int).Mul(bestNum, det)) < 0 {
				bestNum, bestDen = num, det
			}
		}
	}
	d2 := new(big.Rat).SetFrac(bestNum, bestDen)
	d2.Mul(d2, z.scale)
	return d2.Mul(d2, z.scale)
}

// rssAdjugate returns the adjugate and the determinant of the leading n×n
// block of k (n ≤ 3; the empty matrix has determinant 1).
func rssAdjugate(k [3][3]*big.Int, n int) (adj [3][3]*big.Int, det *big.Int) {
	mul := func(a, b *big.Int) *big.Int { return new(big.Int).Mul(a, b) }
	sub := func(a, b *big.Int) *big.Int { return new(big.Int).Sub(a, b) }
	switch n {
	case 0:
		return adj, big.NewInt(1)
	case 1:
		adj[0][0] = big.NewInt(1)
		return adj, new(big.Int).Set(k[0][0])
	case 2:
		adj[0][0], adj[1][1] = k[1][1], k[0][0]
		adj[0][1], adj[1][0] = new(big.Int).Neg(k[0][1]), new(big.Int).Neg(k[1][0])
		return adj, sub(mul(k[0][0], k[1][1]), mul(k[0][1], k[1][0]))
	}
	for i := range 3 {
		for j := range 3 {
			// Cofactor of entry (j, i).
			r0, r1 := (j+1)%3, (j+2)%3
			c0, c1 := (i+1)%3, (i+2)%3
			adj[i][j] = sub(mul(k[r0][c0], k[r1][c1]), mul(k[r0][c1], k[r1][c0]))
		}
	}
	det = new(big.Int)
	for j := range 3 {
		det.Add(det, mul(k[0][j], adj[j][0]))
	}
	return adj, det
}

// rssPair is a pair of rectangles, b in a's frame.
type rssPair struct {
	a, b [2]float64
	r    geom.Mat3
	t    geom.Vec3
}

// scale returns S of the rounding bound: |t| + a0 + a1 + b0 + b1.
func (p *rssPair) scale() float64 { return p.t.Norm() + p.a[0] + p.a[1] + p.b[0] + p.b[1] }

func rssLen(rng *rand.Rand) float64 {
	if rng.IntN(10) == 0 {
		return 0
	}
	return 0.05 + rng.Float64()
}

// rssRot returns a rotation of one of the kinds that make the rectangles
// parallel, perpendicular, nearly parallel or general.
func rssRot(rng *rand.Rand) (geom.Mat3, string) {
	rz := func(a float64) geom.Mat3 { return geom.FromAxisAngle(geom.V(0, 0, 1), a, geom.Vec3{}).R }
	switch rng.IntN(8) {
	case 0:
		return geom.Identity3(), "identity"
	case 1:
		return rz(2 * math.Pi * rng.Float64()), "parallel"
	case 2:
		// b's normal in a's plane.
		q := geom.FromAxisAngle(geom.V(1, 0, 0), math.Pi/2, geom.Vec3{}).R
		return rz(2 * math.Pi * rng.Float64()).Mul(q), "perpendicular"
	case 3:
		ang := math.Pow(10, -float64(2+rng.IntN(12)))
		return geom.FromAxisAngle(obbRandVec(rng, -1, 1), ang, geom.Vec3{}).R, "nearly-identity"
	case 4:
		ang := math.Pow(10, -float64(2+rng.IntN(12)))
		return geom.FromAxisAngle(obbRandVec(rng, -1, 1), ang, geom.Vec3{}).R.Mul(rz(2 * math.Pi * rng.Float64())), "nearly-parallel"
	case 5:
		// Edges exactly parallel: a quarter turn about an axis of a.
		axes := []geom.Vec3{geom.V(1, 0, 0), geom.V(0, 1, 0), geom.V(0, 0, 1)}
		return geom.FromAxisAngle(axes[rng.IntN(3)], math.Pi/2*float64(1+rng.IntN(3)), geom.Vec3{}).R, "quarter"
	}
	return eigRot(rng), "random"
}

// rssRandomPair returns a random pair: lengths up to about 1 (some 0),
// b's centre in [−2.5, 2.5]³, coplanar for some parallel pairs, and
// sometimes scaled.
func rssRandomPair(rng *rand.Rand) (rssPair, string) {
	p := rssPair{a: [2]float64{rssLen(rng), rssLen(rng)}, b: [2]float64{rssLen(rng), rssLen(rng)}}
	var kind string
	p.r, kind = rssRot(rng)
	p.t = obbRandVec(rng, -2.5, 2.5)
	if rng.IntN(3) == 0 {
		p.t = p.t.Scale(0.3) // closer: more contacts and near misses
	}
	if (kind == "identity" || kind == "parallel" || kind == "nearly-identity") && rng.IntN(2) == 0 {
		p.t.Z = 0
		kind += "-coplanar"
	}
	if rng.IntN(6) == 0 {
		s := math.Pow(10, float64(rng.IntN(25)-12))
		p.a = [2]float64{p.a[0] * s, p.a[1] * s}
		p.b = [2]float64{p.b[0] * s, p.b[1] * s}
		p.t = p.t.Scale(s)
		kind += "-scaled"
	}
	return p, kind
}

// rssExactDist returns the exact squared distance and the distance
// rounded.
func (p *rssPair) exactDist() (*big.Rat, float64) {
	d2 := newRSSZono(p.a, p.b, &p.r, p.t).dist2()
	f, _ := d2.Float64()
	return d2, math.Sqrt(f)
}

// rssGreater reports whether x > √d2 exactly (x finite).
func rssGreater(x *big.Rat, d2 *big.Rat) bool {
	if x.Sign() <= 0 {
		return false
	}
	return new(big.Rat).Mul(x, x).Cmp(d2) > 0
}

// rssAtMost reports whether √d2 ≤ x exactly.
func rssAtMost(d2, x *big.Rat) bool {
	return x.Sign() >= 0 && new(big.Rat).Mul(x, x).Cmp(d2) >= 0
}

// rssEps is the rounding bound of RSSDisjoint and RectDist for S and T,
// computed upward.
func rssEps(s, t float64) float64 { return (0x1p-48*(s+t)+0x1p-960)*(1+0x1p-40) + 0x1p-1070 }

func TestRectDistOracle(t *testing.T) {
	rng := rand.New(rand.NewPCG(51, 52))
	n := 4000
	if testing.Short() {
		n = 600
	}
	worst := 0.0
	var zero int
	kinds := map[string]int{}
	for it := range n {
		p, kind := rssRandomPair(rng)
		kinds[kind]++
		d2, d := p.exactDist()
		got := RectDist(p.a, p.b, &p.r, p.t)
		if !(got >= 0) {
			t.Fatalf("pair %d (%s): RectDist = %v: %+v", it, kind, got, p)
		}
		s := p.scale()
		// Soundness, exactly: got − ε ≤ d.
		lo := new(big.Rat).Sub(rssRat(got), rssRat(rssEps(s, got)))
		if rssGreater(lo, d2) {
			t.Fatalf("pair %d (%s): RectDist = %.17g exceeds the exact distance %.17g by more than the bound: %+v", it, kind, got, d, p)
		}
		// Tightness: within a few ulps of S.
		e := math.Abs(got-d) / (s * 0x1p-53)
		worst = max(worst, e)
		if e > 1e4 {
			t.Errorf("pair %d (%s): RectDist = %.17g, exact %.17g (off by %.3g ulps of S): %+v", it, kind, got, d, e, p)
		}
		if d2.Sign() == 0 {
			zero++
		}
	}
	t.Logf("%d pairs (%v), %d intersecting; largest error %.3g ulps of S", n, kinds, zero, worst)
	if zero < n/20 || zero > n/2 {
		t.Errorf("poor coverage: %d intersecting pairs of %d", zero, n)
	}
}

// TestRectDistCases checks configurations with known distances, where the
// closest pair is of each kind.
func TestRectDistCases(t *testing.T) {
	id := geom.Identity3()
	rx := geom.FromAxisAngle(geom.V(1, 0, 0), math.Pi/2, geom.Vec3{}).R // b's normal along −y
	ry := geom.FromAxisAngle(geom.V(0, 1, 0), math.Pi/2, geom.Vec3{}).R
	rz := geom.FromAxisAngle(geom.V(0, 0, 1), math.Pi/4, geom.Vec3{}).R
	rnd := eigRot(rand.New(rand.NewPCG(53, 54)))
	a := [2]float64{1, 0.5}
	b := [2]float64{0.75, 0.25}
	cases := []struct {
		name string
		a, b [2]float64
		r    geom.Mat3
		t    geom.Vec3
		want float64
	}{
		{"identical", a, a, id, geom.V(0, 0, 0), 0},
		{"stacked", a, b, id, geom.V(0.1, 0.2, 3), 3},
		{"coplanar side by side", a, b, id, geom.V(1+0.75+2, 0, 0), 2},
		{"coplanar corner to corner", a, b, id, geom.V(1+0.75+3, 0.5+0.25+4, 0), 5},
		{"corner to corner", a, b, id, geom.V(1+0.75+3, 0.5+0.25+4, 12), 13},
		{"vertex to edge", a, b, id, geom.V(0.2, 0.5+0.25+3, 4), 5},
		{"vertex to face", [2]float64{3, 3}, b, rnd, geom.V(0.1, -0.1, 5), 5 - rssLowest(b, rnd)},
		{"crossing", a, b, rx, geom.V(0.3, 0, 0), 0},
		{"crossing rotated", a, b, rnd, geom.V(0, 0, 0.01), 0},
		{"edge to edge skew", a, b, ry, geom.V(0, 0.5+0.25+2, 0), 2},
		{"T above", a, b, rx, geom.V(0, 0, 0.25+1.5), 1.5},
		{"perpendicular beside", a, b, ry, geom.V(1+1, 0, 0), 1},
		{"rotated coplanar apart", a, b, rz, geom.V(3, 0, 0), 3 - 1 - (0.75+0.25)*math.Sqrt(0.5)},
		// Apart along B's edge normal only (not along x or y).
		{"coplanar diamond", [2]float64{1, 1}, [2]float64{0.5, 0.5}, rz, geom.V(1, 1, 0).Scale((math.Sqrt2 + 0.6) * math.Sqrt(0.5)), 0.1},
		{"points", [2]float64{}, [2]float64{}, rnd, geom.V(3, 4, 12), 13},
		{"point above face", a, [2]float64{}, rnd, geom.V(0.5, 0.25, -2), 2},
		{"segments skew", [2]float64{1, 0}, [2]float64{1, 0}, rz.Mul(rx), geom.V(0, 0, 2), 2},
		{"segments crossing", [2]float64{1, 0}, [2]float64{1, 0}, rz, geom.V(0, 0, 0), 0},
		{"segments parallel", [2]float64{1, 0}, [2]float64{1, 0}, id, geom.V(1.5, 3, 4), 5},
		{"segment over corner", [2]float64{1, 1}, [2]float64{1, 0}, rz, geom.V(1+3, 1+3, 0), 3*math.Sqrt2 - 1},
	}
	for _, c := range cases {
		p := rssPair{a: c.a, b: c.b, r: c.r, t: c.t}
		_, exact := p.exactDist()
		if math.Abs(exact-c.want) > 1e-12 {
			t.Errorf("%s: exact oracle %.17g, want %.17g", c.name, exact, c.want)
		}
		if got := RectDist(c.a, c.b, &c.r, c.t); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("%s: RectDist = %.17g, want %.17g", c.name, got, c.want)
		}
		// RSSDisjoint decides at the distance.
		if c.want > 1e-9 {
			va, vb := RSS{L: c.a, R: 0.5 * c.want * (1 - 1e-9)}, RSS{L: c.b, R: 0.5 * c.want * (1 - 1e-9)}
			if !RSSDisjoint(&va, &vb, &c.r, c.t, 0) {
				t.Errorf("%s: not disjoint with radii just below the distance", c.name)
			}
		}
		va, vb := RSS{L: c.a, R: 0.5 * c.want * (1 + 1e-9)}, RSS{L: c.b, R: 0.5 * c.want * (1 + 1e-9)}
		if RSSDisjoint(&va, &vb, &c.r, c.t, 0) {
			t.Errorf("%s: disjoint with radii just above the distance", c.name)
		}
	}
}

// rssLowest returns the lowest height of a point of rectangle b under
// rotation r (its corner of least z), negated: b0|r20| + b1|r21|.
func rssLowest(b [2]float64, r geom.Mat3) float64 {
	return b[0]*math.Abs(r[2][0]) + b[1]*math.Abs(r[2][1])
}

// TestRSSDisjointOracle compares RSSDisjoint with the exact distance, on
// random pairs with random radii and on pairs whose radii make them touch
// to within an ulp.
func TestRSSDisjointOracle(t *testing.T) {
	rng := rand.New(rand.NewPCG(55, 56))
	n := 4000
	if testing.Short() {
		n = 600
	}
	var disjoint, touching, missed int
	for it := range n {
		p, kind := rssRandomPair(rng)
		d2, d := p.exactDist()
		s := p.scale()
		sc := max(s, 1e-300)
		var radii [][2]float64
		ra := sc * 0.2 * rng.Float64()
		if rng.IntN(4) == 0 {
			ra = 0
		}
		radii = append(radii, [2]float64{ra, sc * 0.2 * rng.Float64()}, [2]float64{0, sc * 1e-3 * rng.Float64()})
		// Touching: a.R + b.R at the distance, to within an ulp either way.
		if d > 0 {
			ra = min(ra, 0.5*d)
			rb := d - ra
			radii = append(radii, [2]float64{ra, rb}, [2]float64{ra, math.Nextafter(rb, 0)}, [2]float64{ra, math.Nextafter(rb, math.Inf(1))})
		}
		for _, rr := range radii {
			va := RSS{L: p.a, R: rr[0]}
			vb := RSS{L: p.b, R: rr[1]}
			sum := new(big.Rat).Add(rssRat(rr[0]), rssRat(rr[1]))
			tsum := rr[0] + rr[1]
			eps := rssEps(s, tsum)
			// With pad = 2ε, "disjoint" implies d > a.R + b.R exactly.
			if RSSDisjoint(&va, &vb, &p.r, p.t, 2*eps) && rssAtMost(d2, sum) {
				t.Fatalf("pair %d (%s): disjoint with pad 2ε, but the distance %.17g ≤ a.R + b.R = %.17g: %+v, radii %v", it, kind, d, tsum, p, rr)
			}
			// With pad = 0, "disjoint" implies d > a.R + b.R − ε.
			if RSSDisjoint(&va, &vb, &p.r, p.t, 0) {
				if rssAtMost(d2, new(big.Rat).Sub(sum, rssRat(eps))) {
					t.Fatalf("pair %d (%s): disjoint, but the distance %.17g ≤ a.R + b.R − ε: %+v, radii %v", it, kind, d, p, rr)
				}
				disjoint++
			}
			if math.Abs(d-tsum) <= 0x1p-50*sc {
				touching++
			}
			// Completeness: a gap well above the rounding is found.
			if d > tsum+0x1p-40*sc && !RSSDisjoint(&va, &vb, &p.r, p.t, 0) {
				missed++
				t.Errorf("pair %d (%s): distance %.17g > a.R + b.R = %.17g but not disjoint: %+v", it, kind, d, tsum, p)
			}
		}
	}
	t.Logf("%d pairs: %d disjoint answers, %d touching to within 2⁻⁵⁰S, %d missed", n, disjoint, touching, missed)
	if disjoint < n/5 || touching < n/2 {
		t.Errorf("poor coverage: %d disjoint, %d touching", disjoint, touching)
	}
}

// TestRSSDisjointNearParallel places nearly parallel rectangles, edges
// nearly parallel, in contact within an ulp: the case where closest points
// are ill-conditioned.
func TestRSSDisjointNearParallel(t *testing.T) {
	rng := rand.New(rand.NewPCG(57, 58))
	for it := range 600 {
		ang := math.Pow(10, -1-15*rng.Float64())
		axis := obbRandVec(rng, -1, 1)
		if it%2 == 0 {
			axis = geom.V(0, 0, 1) // coplanar turn
		}
		p := rssPair{
			a: [2]float64{0.5 + rng.Float64(), 0.5 + rng.Float64()},
			b: [2]float64{0.5 + rng.Float64(), 0.5 + rng.Float64()},
			r: geom.FromAxisAngle(axis, ang, geom.Vec3{}).R,
		}
		// Edge to edge: b beside a along x or stacked, nearly touching.
		switch it % 3 {
		case 0:
			p.t = geom.V(p.a[0]+p.b[0]+1e-3*rng.NormFloat64(), rng.NormFloat64()*0.3, 1e-3*rng.NormFloat64())
		case 1:
			p.t = geom.V(rng.NormFloat64()*0.3, rng.NormFloat64()*0.3, 1e-3*rng.NormFloat64())
		default:
			p.t = geom.V(p.a[0]+p.b[0], p.a[1]+p.b[1], 0).Add(obbRandVec(rng, -1e-6, 1e-6))
		}
		d2, d := p.exactDist()
		s := p.scale()
		got := RectDist(p.a, p.b, &p.r, p.t)
		lo := new(big.Rat).Sub(rssRat(got), rssRat(rssEps(s, got)))
		if rssGreater(lo, d2) {
			t.Fatalf("pair %d: RectDist = %.17g > exact %.17g + ε: %+v", it, got, d, p)
		}
		if math.Abs(got-d) > 0x1p-40*s {
			t.Errorf("pair %d (angle %.3g): RectDist = %.17g, exact %.17g: %+v", it, ang, got, d, p)
		}
		for _, rb := range []float64{d, math.Nextafter(d, 0), math.Nextafter(d, 2)} {
			va, vb := RSS{L: p.a}, RSS{L: p.b, R: rb}
			eps := rssEps(s, rb)
			if RSSDisjoint(&va, &vb, &p.r, p.t, 2*eps) && rssAtMost(d2, rssRat(rb)) {
				t.Fatalf("pair %d: disjoint with pad 2ε at distance %.17g ≤ R = %.17g: %+v", it, d, rb, p)
			}
		}
	}
}

// TestRSSDisjointCoplanar checks rectangles in one plane, turned about its
// normal, at distances where the closest pair is of every kind in the
// plane (edge to edge along either rectangle's edge normal, vertex to
// vertex), against the exact distance, with no radius.
func TestRSSDisjointCoplanar(t *testing.T) {
	rng := rand.New(rand.NewPCG(65, 66))
	var apart int
	for it := range 3000 {
		p := rssPair{
			a: [2]float64{0.1 + rng.Float64(), 0.1 + rng.Float64()},
			b: [2]float64{0.1 + rng.Float64(), 0.1 + rng.Float64()},
			r: geom.FromAxisAngle(geom.V(0, 0, 1), 2*math.Pi*rng.Float64(), geom.Vec3{}).R,
		}
		ang := 2 * math.Pi * rng.Float64()
		p.t = geom.V(math.Cos(ang), math.Sin(ang), 0).Scale(0.5 + 3*rng.Float64())
		d2, d := p.exactDist()
		s := p.scale()
		// No radius, then radii summing to just below and just above d.
		for k, f := range []float64{0, 1 - 0x1p-20, 1 + 0x1p-20} {
			va, vb := RSS{L: p.a, R: 0.25 * f * d}, RSS{L: p.b, R: 0.75 * f * d}
			sum := va.R + vb.R
			got := RSSDisjoint(&va, &vb, &p.r, p.t, 0)
			if got && rssAtMost(d2, new(big.Rat).Sub(new(big.Rat).Add(rssRat(va.R), rssRat(vb.R)), rssRat(rssEps(s, sum)))) {
				t.Fatalf("pair %d: disjoint at distance %g with radii %g: %+v", it, d, sum, p)
			}
			want := d > sum+0x1p-40*s
			if k == 0 && want {
				apart++
			}
			if got != want && (want || d <= sum) {
				t.Errorf("pair %d: distance %.17g, radii %.17g: RSSDisjoint = %v: %+v", it, d, sum, got, p)
			}
		}
		if g := RectDist(p.a, p.b, &p.r, p.t); math.Abs(g-d) > 0x1p-45*s {
			t.Errorf("pair %d: RectDist = %.17g, exact %.17g: %+v", it, g, d, p)
		}
	}
	if apart < 1000 {
		t.Errorf("poor coverage: %d pairs apart", apart)
	}
}

func TestRSSDisjointCases(t *testing.T) {
	up := func(x float64) float64 { return math.Nextafter(x, math.Inf(1)) }
	id := geom.Identity3()
	a := RSS{L: [2]float64{1, 0.5}, R: 0.25}
	b := RSS{L: [2]float64{0.75, 0.5}, R: 0.125}
	empty := RSS{R: -1}
	sum := a.R + b.R
	cases := []struct {
		name string
		a, b *RSS
		r    geom.Mat3
		t    geom.Vec3
		want bool
	}{
		{"identical", &a, &a, id, geom.V(0, 0, 0), false},
		{"stacked touching", &a, &b, id, geom.V(0.3, 0.2, sum), false},
		{"stacked apart", &a, &b, id, geom.V(0.3, 0.2, up(sum)), true},
		{"beside touching", &a, &b, id, geom.V(1+0.75+sum, 0, 0), false},
		{"beside apart", &a, &b, id, geom.V(up(1+0.75+sum), 0, 0), true},
		{"empty", &a, &empty, id, geom.V(0, 0, 0), true},
		{"empty first", &empty, &a, id, geom.V(0, 0, 0), true},
		{"nan", &a, &b, id, geom.V(math.NaN(), 0, 0), false},
		{"everything", &a, &RSS{R: math.Inf(1)}, id, geom.V(1e300, 0, 0), false},
	}
	for _, c := range cases {
		if got := RSSDisjoint(c.a, c.b, &c.r, c.t, 0); got != c.want {
			t.Errorf("%s: RSSDisjoint = %v, want %v", c.name, got, c.want)
		}
	}
	// pad acts like a margin.
	c := geom.V(0, 0, 1)
	if !RSSDisjoint(&a, &b, &id, c, 0.6) || RSSDisjoint(&a, &b, &id, c, 0.7) {
		t.Error("pad does not act as a margin")
	}
}

// TestRSSDisjointFitted checks volumes fitted to triangles against the
// exact triangle test: triangles in contact never have disjoint volumes.
func TestRSSDisjointFitted(t *testing.T) {
	rng := rand.New(rand.NewPCG(59, 60))
	var contacts, culled int
	for it := range 20000 {
		ta := obbSoup(rng, 1, 0.4)[0]
		tb := obbSoup(rng, 1, 0.4)[0]
		if rng.IntN(4) == 0 {
			tb[0] = ta[rng.IntN(3)] // shared vertex: touching
		}
		if it%7 == 0 {
			off := obbRandVec(rng, -1e6, 1e6)
			for k := range 3 {
				ta[k], tb[k] = ta[k].Add(off), tb[k].Add(off)
			}
		}
		va, vb := FitRSS([]geom.Triangle{ta}), FitRSS([]geom.Triangle{tb})
		// b in a's frame, as a tree query does with the identity pose.
		var r geom.Mat3
		for i := range 3 {
			for j := range 3 {
				r[i][j] = va.Axes.Row(i).Dot(vb.Axes.Row(j))
			}
		}
		tt := va.Axes.MulVec(vb.C.Sub(va.C))
		m := max(obbMaxAbs([]geom.Triangle{ta, tb}), 1)
		dis := RSSDisjoint(&va, &vb, &r, tt, 0x1p-40*m)
		if geom.TriTri(ta, tb) {
			contacts++
			if dis {
				t.Fatalf("triangles %v and %v touch but their volumes are disjoint: %+v %+v", ta, tb, va, vb)
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

func TestRSSDisjointNoAlloc(t *testing.T) {
	ps := rssBenchPairs(16, 2)
	if n := testing.AllocsPerRun(100, func() {
		for i := range ps {
			RSSDisjoint(&ps[i].a, &ps[i].b, &ps[i].r, ps[i].t, 0)
		}
	}); n != 0 {
		t.Errorf("RSSDisjoint allocates %v times", n)
	}
}

func TestRSSVolume(t *testing.T) {
	v := RSS{Axes: geom.Identity3(), L: [2]float64{2, 1}, R: 0.5}
	want := 8*2*1*0.5 + 2*math.Pi*3*0.25 + 4.0/3*math.Pi*0.125
	if got := v.Volume(); math.Abs(got-want) > 1e-12 {
		t.Errorf("Volume = %v, want %v", got, want)
	}
	if got := v.Size(); got != 2.5 {
		t.Errorf("Size = %v, want 2.5", got)
	}
	ball := RSS{Axes: geom.Identity3(), R: 2}
	if got, want := ball.Volume(), 4.0/3*math.Pi*8; math.Abs(got-want) > 1e-12 {
		t.Errorf("ball volume %v, want %v", got, want)
	}
	// Monte Carlo in the bounding box: within 5 standard errors.
	rng := rand.New(rand.NewPCG(61, 62))
	const n = 400000
	in := 0
	for range n {
		p := geom.V((2*rng.Float64()-1)*2.5, (2*rng.Float64()-1)*1.5, (2*rng.Float64()-1)*0.5)
		if v.Contains(p, 0) {
			in++
		}
	}
	box := 5.0 * 3 * 1
	f := float64(in) / n
	if est, se := f*box, box*math.Sqrt(f*(1-f)/n); math.Abs(est-want) > 5*se {
		t.Errorf("Monte Carlo volume %v ± %v, formula %v", est, se, want)
	}
	if !v.Contains(geom.V(2, 1, 0.5), 0) || v.Contains(geom.V(2, 1, 0.5000001), 0) || !v.Contains(geom.V(2.3, 1.4, 0), 0) || v.Contains(geom.V(2.36, 1.36, 0), 0) {
		t.Error("Contains is wrong on the boundary")
	}
}

// Benchmarks.

// rssBenchVol is a benchmark pair: volumes and b's pose in a's frame.
type rssBenchVol struct {
	a, b RSS
	r    geom.Mat3
	t    geom.Vec3
}

// rssBenchPairs returns n random pairs of unit-scale volumes: kind 0
// separated (the exact test says disjoint), 1 overlapping, 2 near (the
// distance within 10% of the sum of the radii either way).
func rssBenchPairs(n, kind int) []rssBenchVol {
	rng := rand.New(rand.NewPCG(63, 64))
	var ps []rssBenchVol
	for len(ps) < n {
		p := rssBenchVol{
			a: RSS{L: [2]float64{0.2 + 0.8*rng.Float64(), 0.2 + 0.8*rng.Float64()}, R: 0.1 * rng.Float64()},
			b: RSS{L: [2]float64{0.2 + 0.8*rng.Float64(), 0.2 + 0.8*rng.Float64()}, R: 0.1 * rng.Float64()},
			r: eigRot(rng),
			t: obbRandVec(rng, -2.5, 2.5),
		}
		d := RectDist(p.a.L, p.b.L, &p.r, p.t)
		sum := p.a.R + p.b.R
		var ok bool
		switch kind {
		case 0:
			ok = d > sum
		case 1:
			ok = d <= sum
		default:
			ok = math.Abs(d-sum) < 0.1*sum
		}
		if ok {
			ps = append(ps, p)
		}
	}
	return ps
}

var rssSink bool

func BenchmarkRSSDisjoint(b *testing.B) {
	for k, name := range []string{"separated", "overlapping", "near"} {
		ps := rssBenchPairs(1024, k)
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			s := false
			i := 0
			for b.Loop() {
				p := &ps[i&1023]
				s = s != RSSDisjoint(&p.a, &p.b, &p.r, p.t, 0)
				i++
			}
			rssSink = s
		})
	}
}

func BenchmarkRectDist(b *testing.B) {
	ps := rssBenchPairs(1024, 2)
	b.ReportAllocs()
	s := 0.0
	i := 0
	for b.Loop() {
		p := &ps[i&1023]
		s += RectDist(p.a.L, p.b.L, &p.r, p.t)
		i++
	}
	rssSink = s > 0
}

// BenchmarkFitRSS fits volumes to the 1,000-triangle sphere of
// BenchmarkFitOBB, and to a 100-triangle patch of it.
func BenchmarkFitRSS(b *testing.B) {
	r := geom.AxisAngle(geom.V(1, 2, 3), 0.4).Mat3()
	ts := obbTransform(obbSphereSoup(25, 20, 1, 0.01), r, geom.V(1, 2, 3))
	for _, c := range []struct {
		name string
		ts   []geom.Triangle
	}{{"sphere", ts}, {"patch", ts[:100]}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				FitRSS(c.ts)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(c.ts)), "ns/tri")
		})
	}
}
