package bv

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/collide3d/collide/geom"
)

// sphChecker decides |p − C| ≤ R exactly, in rational arithmetic.
type sphChecker struct {
	sum, x, y, r big.Rat
}

// contains reports whether the closed ball s holds p, exactly.
func (k *sphChecker) contains(s Sphere, p geom.Vec3) bool {
	k.sum.SetInt64(0)
	for i := range 3 {
		k.x.SetFloat64(p.Index(i))
		k.y.SetFloat64(s.C.Index(i))
		k.x.Sub(&k.x, &k.y)
		k.x.Mul(&k.x, &k.x)
		k.sum.Add(&k.sum, &k.x)
	}
	k.r.SetFloat64(s.R)
	k.r.Mul(&k.r, &k.r)
	return s.R >= 0 && k.sum.Cmp(&k.r) <= 0
}

// sphCheckAll fails t unless s holds every finite point of pts exactly.
func sphCheckAll(t *testing.T, name string, s Sphere, pts []geom.Vec3) {
	t.Helper()
	if !s.C.IsFinite() || math.IsNaN(s.R) || math.IsInf(s.R, 0) {
		t.Fatalf("%s: sphere not finite: %v", name, s)
	}
	var k sphChecker
	for i, p := range pts {
		if !p.IsFinite() {
			continue
		}
		if !k.contains(s, p) {
			t.Fatalf("%s: point %d %v (%x %x %x) outside C=%v R=%v (|p-C| = %v)",
				name, i, p, p.X, p.Y, p.Z, s.C, s.R, p.Distance(s.C))
		}
	}
}

// sphUnit returns a uniformly random unit vector.
func sphUnit(r *rand.Rand) geom.Vec3 {
	for {
		v := geom.V(2*r.Float64()-1, 2*r.Float64()-1, 2*r.Float64()-1)
		if n := v.Norm(); n > 0.1 && n <= 1 {
			return v.Scale(1 / n)
		}
	}
}

// sphKinds names the point-cloud kinds of sphCloud.
var sphKinds = []string{
	"cube", "surface", "circle", "line", "grid", "duplicates", "gaussian",
	"lattice", "single", "two", "tetra-corners", "cube-corners",
	"near-line", "near-plane", "near-circle",
}

// sphCloud returns n points of the given kind in about [-1, 1]³.
func sphCloud(r *rand.Rand, kind string, n int) []geom.Vec3 {
	pts := make([]geom.Vec3, 0, n)
	switch kind {
	case "cube":
		for range n {
			pts = append(pts, geom.V(2*r.Float64()-1, 2*r.Float64()-1, 2*r.Float64()-1))
		}
	case "surface": // cospherical up to rounding
		for range n {
			pts = append(pts, sphUnit(r))
		}
	case "circle": // cocircular up to rounding, in a tilted plane
		u := sphUnit(r)
		v := u.Cross(sphUnit(r)).Unit()
		w := u.Cross(v)
		for range n {
			a := 2 * math.Pi * r.Float64()
			pts = append(pts, v.Scale(math.Cos(a)).Add(w.Scale(math.Sin(a))))
		}
	case "line": // collinear up to rounding
		a, b := sphUnit(r), sphUnit(r)
		for range n {
			pts = append(pts, a.Lerp(b, r.Float64()))
		}
	case "grid": // coplanar grid, exact, in the plane z = 0.25
		m := max(1, int(math.Sqrt(float64(n))))
		for i := range n {
			pts = append(pts, geom.V(float64(i%m)/float64(m), float64(i/m)/float64(m), 0.25))
		}
	case "duplicates": // three distinct points, many copies
		d := [3]geom.Vec3{sphUnit(r), sphUnit(r), sphUnit(r)}
		for range n {
			pts = append(pts, d[r.IntN(3)])
		}
	case "gaussian":
		for range n {
			pts = append(pts, geom.V(r.NormFloat64(), 0.3*r.NormFloat64(), 0.01*r.NormFloat64()))
		}
	case "lattice": // coincident, collinear, coplanar and cospherical points
		for range n {
			pts = append(pts, geom.V(float64(r.IntN(3)-1), float64(r.IntN(3)-1), float64(r.IntN(3)-1)))
		}
	case "single":
		p := sphUnit(r)
		for range n {
			pts = append(pts, p)
		}
	case "two":
		a, b := sphUnit(r), sphUnit(r)
		for i := range n {
			pts = append(pts, [2]geom.Vec3{a, b}[i%2])
		}
	case "tetra-corners": // a regular tetrahedron and points inside
		c := []geom.Vec3{geom.V(1, 1, 1), geom.V(1, -1, -1), geom.V(-1, 1, -1), geom.V(-1, -1, 1)}
		for i := range n {
			if i < 4 {
				pts = append(pts, c[i])
			} else {
				pts = append(pts, geom.V(r.Float64()-0.5, r.Float64()-0.5, r.Float64()-0.5))
			}
		}
	case "near-line", "near-plane", "near-circle": // degenerate up to noise of 1e-15 to 1e-9
		base := sphCloud(r, map[string]string{"near-line": "line", "near-plane": "grid", "near-circle": "circle"}[kind], n)
		for _, p := range base {
			pts = append(pts, p.Add(sphUnit(r).Scale(math.Ldexp(r.Float64(), -30-r.IntN(20)))))
		}
	case "cube-corners": // 8 cospherical corners, repeated
		for i := range n {
			pts = append(pts, geom.V(float64(i&1), float64(i>>1&1), float64(i>>2&1)))
		}
	default:
		panic("unknown kind " + kind)
	}
	return pts
}

// sphTransform returns scale·p + off for every p.
func sphTransform(pts []geom.Vec3, scale float64, off geom.Vec3) []geom.Vec3 {
	out := make([]geom.Vec3, len(pts))
	for i, p := range pts {
		out[i] = p.Scale(scale).Add(off)
	}
	return out
}

// sphCircum returns the centre and radius of the smallest sphere through
// the points of s (centre in their affine hull), solving the Gram system
// 2·Σ_j λ_j a_i·a_j = a_i·a_i (a_i = s_i − s_0) by Gaussian elimination with
// partial pivoting; false if the system is singular.
func sphCircum(s []geom.Vec3) (geom.Vec3, float64, bool) {
	k := len(s) - 1
	var a [3]geom.Vec3
	var m [3][4]float64
	for i := range k {
		a[i] = s[i+1].Sub(s[0])
	}
	scale := 0.0
	for i := range k {
		for j := range k {
			m[i][j] = 2 * a[i].Dot(a[j])
		}
		m[i][k] = a[i].Dot(a[i])
		scale = max(scale, m[i][i])
	}
	for c := range k {
		p := c
		for i := c + 1; i < k; i++ {
			if math.Abs(m[i][c]) > math.Abs(m[p][c]) {
				p = i
			}
		}
		if math.Abs(m[p][c]) <= 1e-13*scale {
			return geom.Vec3{}, 0, false
		}
		m[c], m[p] = m[p], m[c]
		for i := c + 1; i < k; i++ {
			f := m[i][c] / m[c][c]
			for j := c; j <= k; j++ {
				m[i][j] -= f * m[c][j]
			}
		}
	}
	var lam [3]float64
	for i := k - 1; i >= 0; i-- {
		v := m[i][k]
		for j := i + 1; j < k; j++ {
			v -= m[i][j] * lam[j]
		}
		lam[i] = v / m[i][i]
	}
	c := s[0]
	for i := range k {
		c = c.Add(a[i].Scale(lam[i]))
	}
	r := 0.0
	for _, p := range s {
		r = max(r, p.Distance(c))
	}
	return c, r, true
}

// sphBrute returns the radius of the minimum enclosing sphere of pts (n ≥ 1)
// by trying the circumscribed sphere of every subset of at most 4 points.
func sphBrute(pts []geom.Vec3) float64 {
	n := len(pts)
	best := math.Inf(1)
	var sub []geom.Vec3
	try := func() {
		c, r, ok := sphCircum(sub)
		if !ok || r >= best {
			return
		}
		for _, p := range pts {
			if p.Distance(c) > r*(1+1e-12) {
				return
			}
		}
		best = r
	}
	for i := range n {
		sub = append(sub[:0], pts[i])
		try()
		for j := i + 1; j < n; j++ {
			sub = append(sub[:1], pts[j])
			try()
			for k := j + 1; k < n; k++ {
				sub = append(sub[:2], pts[k])
				try()
				for l := k + 1; l < n; l++ {
					sub = append(sub[:3], pts[l])
					try()
				}
			}
		}
	}
	return best
}

// sphRitter is Ritter's approximate bounding sphere (1990): the sphere on
// the diameter of two far-apart points, grown to each point outside it.
func sphRitter(pts []geom.Vec3) Sphere {
	far := func(p geom.Vec3) geom.Vec3 {
		best, d := p, -1.0
		for _, q := range pts {
			if e := sphereDist2(p, q); e > d {
				best, d = q, e
			}
		}
		return best
	}
	y := far(pts[0])
	z := far(y)
	c := y.Lerp(z, 0.5)
	r := y.Distance(z) / 2
	for _, p := range pts {
		if d := p.Distance(c); d > r {
			nr := (r + d) / 2
			c = c.Add(p.Sub(c).Scale((nr - r) / d))
			r = nr
		}
	}
	// Pad by the largest distance so the result is comparable (contains all).
	for _, p := range pts {
		r = max(r, p.Distance(c))
	}
	return Sphere{C: c, R: r}
}

func TestBoundingSphereEmpty(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	for _, pts := range [][]geom.Vec3{
		nil,
		{},
		{geom.V(nan, 0, 0)},
		{geom.V(0, inf, 0), geom.V(0, 0, -inf), geom.V(nan, nan, nan)},
	} {
		s := BoundingSphere(pts)
		if s != (Sphere{R: -1}) || !s.IsEmpty() {
			t.Errorf("BoundingSphere(%v) = %v, want the empty sphere", pts, s)
		}
		if s.Contains(geom.Vec3{}) || s.Overlaps(Sphere{R: 10}) || s.Volume() != 0 {
			t.Errorf("empty sphere contains, overlaps or has volume")
		}
	}
	if s := BoundingSphereTriangles(nil); !s.IsEmpty() {
		t.Errorf("BoundingSphereTriangles(nil) = %v, want empty", s)
	}
}

func TestBoundingSphereSmall(t *testing.T) {
	p := geom.V(0.1, -3e-300, 7e200)
	tests := []struct {
		name string
		pts  []geom.Vec3
		c    geom.Vec3
		r    float64 // expected radius; the result may exceed it by 2^-48 relative
	}{
		{"single", []geom.Vec3{p}, p, 0},
		{"copies", []geom.Vec3{p, p, p, p}, p, 0},
		{"zero", []geom.Vec3{{}}, geom.Vec3{}, 0},
		{"two", []geom.Vec3{geom.V(-1, 0, 0), geom.V(3, 0, 0)}, geom.V(1, 0, 0), 2},
		{"two-with-copies", []geom.Vec3{geom.V(0, 0, 2), geom.V(0, 0, 2), geom.V(0, 0, -2), geom.V(0, 0, 2)}, geom.V(0, 0, 0), 2},
		{"segment-inner", []geom.Vec3{geom.V(0, 0, 0), geom.V(0.25, 0, 0), geom.V(1, 0, 0), geom.V(0.5, 0, 0)}, geom.V(0.5, 0, 0), 0.5},
		{"right-triangle", []geom.Vec3{geom.V(0, 0, 0), geom.V(2, 0, 0), geom.V(0, 2, 0)}, geom.V(1, 1, 0), math.Sqrt2},
		{"obtuse", []geom.Vec3{geom.V(-1, 0, 0), geom.V(1, 0, 0), geom.V(0, 0.1, 0)}, geom.V(0, 0, 0), 1},
		{"square", []geom.Vec3{geom.V(0, 0, 0), geom.V(1, 0, 0), geom.V(0, 1, 0), geom.V(1, 1, 0)}, geom.V(0.5, 0.5, 0), math.Sqrt2 / 2},
		{"cube", sphCloud(nil, "cube-corners", 8), geom.V(0.5, 0.5, 0.5), math.Sqrt(3) / 2},
		{"octahedron", []geom.Vec3{geom.V(1, 0, 0), geom.V(-1, 0, 0), geom.V(0, 1, 0), geom.V(0, -1, 0), geom.V(0, 0, 1), geom.V(0, 0, -1)}, geom.Vec3{}, 1},
		{"tetrahedron", []geom.Vec3{geom.V(1, 1, 1), geom.V(1, -1, -1), geom.V(-1, 1, -1), geom.V(-1, -1, 1)}, geom.Vec3{}, math.Sqrt(3)},
	}
	for _, tt := range tests {
		s := BoundingSphere(tt.pts)
		sphCheckAll(t, tt.name, s, tt.pts)
		if tt.r == 0 {
			if s != (Sphere{C: tt.c}) {
				t.Errorf("%s: got %v, want %v with R = 0", tt.name, s, tt.c)
			}
			continue
		}
		if s.R < tt.r*(1-1e-15) || s.R > tt.r*(1+0x1p-48) {
			t.Errorf("%s: R = %v, want %v", tt.name, s.R, tt.r)
		}
		if !s.C.ApproxEqual(tt.c, 1e-15) {
			t.Errorf("%s: C = %v, want %v", tt.name, s.C, tt.c)
		}
	}
}

// TestBoundingSphereExtremes checks coordinates at the ends of the float64
// range.
func TestBoundingSphereExtremes(t *testing.T) {
	const tiny = 0x1p-1074
	big := math.MaxFloat64
	tests := []struct {
		name string
		pts  []geom.Vec3
		r    float64 // the minimum radius, rounded
	}{
		{"1e308", []geom.Vec3{geom.V(-1e308, 0, 0), geom.V(1e308, 0, 0), geom.V(0, 1e308, 0)}, 1e308},
		{"1e308-corners", []geom.Vec3{geom.V(-1e308, -1e308, -1e308), geom.V(1e308, 1e308, 1e308)}, math.Sqrt(3) * 1e308},
		// The midpoint of two adjacent floats is not a float64: the centre
		// is one of them.
		{"max-offset", []geom.Vec3{geom.V(big, big, big), geom.V(big, math.Nextafter(big, 0), big)}, big - math.Nextafter(big, 0)},
		{"subnormal", []geom.Vec3{geom.V(0, 0, 0), geom.V(2*tiny, 0, 0)}, tiny},
		{"subnormal-triangle", []geom.Vec3{geom.V(0, 0, 0), geom.V(4*tiny, 0, 0), geom.V(0, 4*tiny, 0)}, 2 * math.Sqrt2 * tiny},
		{"tiny-spread-huge-offset", []geom.Vec3{geom.V(1e300, 0, 0), geom.V(1e300, 1e-300, 0)}, 5e-301},
		{"mixed", []geom.Vec3{geom.V(1e-300, -1e-300, 0), geom.V(1e200, 1e-200, 0), geom.V(-1e200, 5e-324, 0)}, 1e200},
	}
	for _, tt := range tests {
		s := BoundingSphere(tt.pts)
		sphCheckAll(t, tt.name, s, tt.pts)
		if s.R > tt.r*(1+1e-12)+4*tiny || s.R < tt.r*(1-1e-12)-4*tiny {
			t.Errorf("%s: R = %v, want %v", tt.name, s.R, tt.r)
		}
	}
	// A radius beyond the float64 range is +Inf, with a finite centre.
	s := BoundingSphere([]geom.Vec3{geom.V(-big, 0, 0), geom.V(big, 0, 0)})
	if !math.IsInf(s.R, 1) || !s.C.IsFinite() {
		t.Errorf("[-max, max]: %v, want a finite centre and R = +Inf", s)
	}
}

// TestBoundingSphereContainment checks exact containment of every point for
// every kind of cloud at many magnitudes and offsets, and that the radius is
// the one of the unscaled cloud, scaled.
func TestBoundingSphereContainment(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	frames := []struct {
		name  string
		scale float64
		off   geom.Vec3
	}{
		{"unit", 1, geom.Vec3{}},
		{"offset-1e9", 1, geom.V(1e9, -2e9, 3e9)},
		{"offset-1e15", 1, geom.V(1e15, 1e15, -1e15)},
		{"tiny-1e-12", 1e-12, geom.Vec3{}},
		{"tiny-1e-150", 1e-150, geom.V(3e-150, 0, 0)},
		{"subnormal-1e-310", 1e-310, geom.Vec3{}},
		{"huge-1e140", 1e140, geom.V(0, 1e140, 0)},
		{"huge-1e150", 1e150, geom.V(-1e150, 0, 2e150)},
		{"huge-1e300", 1e300, geom.Vec3{}},
		{"offset-1e10-size-1e-3", 1e-3, geom.V(1e10, 1e10, 1e10)},
	}
	for _, kind := range sphKinds {
		for _, n := range []int{1, 2, 3, 5, 13, 100, 2000} {
			base := sphCloud(r, kind, n)
			ref := BoundingSphere(base)
			for _, f := range frames {
				pts := sphTransform(base, f.scale, f.off)
				name := fmt.Sprintf("%s/n=%d/%s", kind, n, f.name)
				s := BoundingSphere(pts)
				sphCheckAll(t, name, s, pts)
				// The centre can only be placed on the float64 grid near
				// the offset, and the points themselves were rounded.
				mag := 0.0
				for _, p := range pts {
					a := p.Abs()
					mag = max(mag, a.X, a.Y, a.Z)
				}
				slack := 4 * mag * 0x1p-52
				if f.scale == 1e-310 {
					slack = 4 * 0x1p-1074
				}
				want := ref.R * f.scale
				if s.R > want*(1+1e-9)+slack || s.R < want*(1-1e-9)-slack {
					t.Errorf("%s: R = %v, want %v (± %v)", name, s.R, want, slack)
				}
			}
		}
	}
}

// TestBoundingSphereOptimal compares the radius with a brute-force minimum
// over all subsets of at most 4 points.
func TestBoundingSphereOptimal(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	kinds := []string{"cube", "surface", "circle", "line", "grid", "gaussian", "lattice", "duplicates", "tetra-corners",
		"near-line", "near-plane", "near-circle"}
	worst := 0.0
	for trial := range 6000 {
		kind := kinds[trial%len(kinds)]
		n := 1 + r.IntN(12)
		pts := sphCloud(r, kind, n)
		scale := []float64{1, 0x1p-500, 0x1p465}[trial%3]
		pts = sphTransform(pts, scale, geom.Vec3{})
		s := BoundingSphere(pts)
		name := fmt.Sprintf("trial %d (%s, n=%d)", trial, kind, n)
		sphCheckAll(t, name, s, pts)
		opt := sphBrute(sphTransform(pts, 1/scale, geom.Vec3{})) * scale
		if s.R > opt*(1+1e-9) || s.R < opt*(1-1e-9) {
			t.Errorf("%s: R = %v, brute-force optimum %v (ratio %v)", name, s.R, opt, s.R/opt)
		}
		if opt > 0 {
			worst = max(worst, math.Abs(s.R/opt-1))
		}
	}
	t.Logf("largest |R/R_opt - 1|: %.3g", worst)
}

// TestBoundingSphereOutlier puts one point just outside a cospherical
// cloud: the optimum moves toward it by about half the excess, which the
// algorithm must find although every other point lies on a sphere.
func TestBoundingSphereOutlier(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	for _, excess := range []float64{1e-3, 1e-7, 1e-10} {
		pts := sphCloud(r, "surface", 2000)
		u := sphUnit(r)
		pts = append(pts, u.Scale(1+excess))
		r.Shuffle(len(pts), func(i, j int) { pts[i], pts[j] = pts[j], pts[i] })
		s := BoundingSphere(pts)
		sphCheckAll(t, "outlier", s, pts)
		// Upper bound on the optimum: the best sphere centred on the line
		// through u, by ternary search (the radius is convex in t).
		rad := func(t float64) float64 {
			c, m := u.Scale(t), 0.0
			for _, p := range pts {
				m = max(m, p.Distance(c))
			}
			return m
		}
		a, b := 0.0, excess
		for range 100 {
			m1, m2 := a+(b-a)/3, b-(b-a)/3
			if rad(m1) < rad(m2) {
				b = m2
			} else {
				a = m1
			}
		}
		bound := rad((a + b) / 2)
		if s.R > bound*(1+1e-11) {
			t.Errorf("excess %g: R = %.17g, a sphere of radius %.17g exists", excess, s.R, bound)
		}
	}
}

// TestSphereShuffle checks that the shuffle is a permutation of the finite
// points, for the direct and the bucketed methods.
func TestSphereShuffle(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 24))
	for _, n := range []int{1, 100, sphereShuffleDirect, sphereShuffleDirect + 1, 100000} {
		var pts []geom.Vec3
		for i := range n {
			pts = append(pts, geom.V(float64(i), 0, 0))
			if r.IntN(10) == 0 {
				pts = append(pts, geom.V(math.NaN(), 0, 0))
			}
		}
		q := make([]geom.Vec3, n)
		f := sphereFrame{sigma: 1}
		sphereShuffle(q, pts, &f)
		seen := make([]bool, n)
		fixed := 0
		for i, p := range q {
			k := int(p.X)
			if p.X != float64(k) || k < 0 || k >= n || seen[k] || p.Y != 0 || p.Z != 0 {
				t.Fatalf("n=%d: q[%d] = %v is not a new input point", n, i, p)
			}
			seen[k] = true
			if k == i {
				fixed++
			}
		}
		if n >= 100 && fixed > 10 {
			t.Errorf("n=%d: %d fixed points, want about 1", n, fixed)
		}
	}
}

// TestBoundingSphereKnownRadius checks clouds whose minimum enclosing
// sphere is known: points on a sphere, a circle, a segment, a square grid.
func TestBoundingSphereKnownRadius(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, n := range []int{10, 100, 1000, 3000} {
		pts := sphCloud(r, "surface", n)
		// n points spread over the unit sphere: the optimum is at most 1
		// (up to the rounding of the points) and at least half the
		// largest distance.
		s := BoundingSphere(pts)
		sphCheckAll(t, "surface", s, pts)
		diam := 0.0
		for i := range pts {
			for j := i + 1; j < len(pts); j++ {
				diam = max(diam, pts[i].Distance(pts[j]))
			}
		}
		if s.R > 1+1e-9 || s.R < diam/2 {
			t.Errorf("surface n=%d: R = %v, want in [%v, 1]", n, s.R, diam/2)
		}
	}
	for _, n := range []int{4, 100, 100000} {
		// A circle of radius 3 around (1, 2, 3) with a diametral pair.
		u := sphUnit(r)
		v := u.Cross(sphUnit(r)).Unit()
		w := u.Cross(v)
		c := geom.V(1, 2, 3)
		pts := []geom.Vec3{c.Add(v.Scale(3)), c.Sub(v.Scale(3))}
		for range n - 2 {
			a := 2 * math.Pi * r.Float64()
			pts = append(pts, c.Add(v.Scale(3*math.Cos(a))).Add(w.Scale(3*math.Sin(a))))
		}
		s := BoundingSphere(pts)
		sphCheckAll(t, "circle", s, pts)
		if math.Abs(s.R-3) > 1e-9*3 || !s.C.ApproxEqual(c, 1e-8) {
			t.Errorf("circle n=%d: %v, want C = %v, R = 3", n, s, c)
		}
	}
	for _, n := range []int{3, 1000, 100000} {
		// Collinear: the segment from a to b, both included.
		a, b := geom.V(-5, 1, 2), geom.V(7, 4, -2)
		pts := []geom.Vec3{a, b}
		for range n - 2 {
			pts = append(pts, a.Lerp(b, r.Float64()))
		}
		r.Shuffle(len(pts), func(i, j int) { pts[i], pts[j] = pts[j], pts[i] })
		s := BoundingSphere(pts)
		sphCheckAll(t, "line", s, pts)
		want := a.Distance(b) / 2
		if math.Abs(s.R-want) > 1e-9*want {
			t.Errorf("line n=%d: R = %v, want %v", n, s.R, want)
		}
	}
	for _, m := range []int{2, 10, 300} {
		// A coplanar m×m grid on [0, 1]²: the corners are cocircular.
		var pts []geom.Vec3
		for i := range m {
			for j := range m {
				pts = append(pts, geom.V(float64(i)/float64(m-1), float64(j)/float64(m-1), -1))
			}
		}
		s := BoundingSphere(pts)
		sphCheckAll(t, "grid", s, pts)
		if want := math.Sqrt2 / 2; math.Abs(s.R-want) > 1e-9 {
			t.Errorf("grid %dx%d: R = %v, want %v", m, m, s.R, want)
		}
	}
}

// TestBoundingSphereNonFinite checks that NaN and infinite points are
// ignored: the result is the one of the finite points alone.
func TestBoundingSphereNonFinite(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	bad := []geom.Vec3{
		geom.V(math.NaN(), 0, 0), geom.V(0, math.Inf(1), 0), geom.V(0, 0, math.Inf(-1)),
		geom.V(math.Inf(1), math.Inf(-1), math.NaN()),
	}
	for _, kind := range sphKinds {
		good := sphCloud(r, kind, 50)
		var mixed []geom.Vec3
		for i, p := range good {
			if i%7 == 0 {
				mixed = append(mixed, bad[i%len(bad)])
			}
			mixed = append(mixed, p)
		}
		mixed = append(mixed, bad...)
		if got, want := BoundingSphere(mixed), BoundingSphere(good); got != want {
			t.Errorf("%s: with non-finite points %v, without %v", kind, got, want)
		}
	}
}

// TestBoundingSphereDeterministic checks that a call repeats exactly and that
// the order of the points changes the radius by rounding only.
func TestBoundingSphereDeterministic(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for _, kind := range sphKinds {
		pts := sphCloud(r, kind, 500)
		a, b := BoundingSphere(pts), BoundingSphere(pts)
		if a != b {
			t.Errorf("%s: two calls gave %v and %v", kind, a, b)
		}
		perm := append([]geom.Vec3(nil), pts...)
		r.Shuffle(len(perm), func(i, j int) { perm[i], perm[j] = perm[j], perm[i] })
		c := BoundingSphere(perm)
		if math.Abs(c.R-a.R) > 1e-12*max(a.R, 1e-300) {
			t.Errorf("%s: permuted radius %v, original %v", kind, c.R, a.R)
		}
	}
}

func TestBoundingSphereTriangles(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for _, n := range []int{1, 5, 21, 22, 1000} {
		pts := sphCloud(r, "cube", 3*n)
		tris := make([]geom.Triangle, n)
		for i := range tris {
			tris[i] = geom.Tri(pts[3*i], pts[3*i+1], pts[3*i+2])
		}
		got, want := BoundingSphereTriangles(tris), BoundingSphere(pts)
		if got != want {
			t.Errorf("n=%d: BoundingSphereTriangles = %v, BoundingSphere of the vertices = %v", n, got, want)
		}
		sphCheckAll(t, "triangles", got, pts)
	}
}

func TestBoundingSphereBuf(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	var buf []geom.Vec3
	for _, n := range []int{0, 1, 10, 1000, 10, 5000} {
		pts := sphCloud(r, "gaussian", n)
		var s Sphere
		s, buf = BoundingSphereBuf(pts, buf)
		if want := BoundingSphere(pts); s != want {
			t.Errorf("n=%d: BoundingSphereBuf = %v, BoundingSphere = %v", n, s, want)
		}
		if len(buf) != 0 || cap(buf) < n {
			t.Errorf("n=%d: returned buffer len %d cap %d", n, len(buf), cap(buf))
		}
	}
	pts := sphCloud(r, "cube", 5000)
	if a := testing.AllocsPerRun(10, func() { _, buf = BoundingSphereBuf(pts, buf) }); a != 0 {
		t.Errorf("BoundingSphereBuf with a large enough buffer: %v allocations, want 0", a)
	}
	small := pts[:sphereStackPoints]
	if a := testing.AllocsPerRun(10, func() { BoundingSphere(small) }); a != 0 {
		t.Errorf("BoundingSphere of %d points: %v allocations, want 0", len(small), a)
	}
	if a := testing.AllocsPerRun(10, func() { BoundingSphere(pts) }); a != 1 {
		t.Errorf("BoundingSphere of %d points: %v allocations, want 1", len(pts), a)
	}
	tris := make([]geom.Triangle, 20)
	if a := testing.AllocsPerRun(10, func() { BoundingSphereTriangles(tris) }); a != 0 {
		t.Errorf("BoundingSphereTriangles of %d triangles: %v allocations, want 0", len(tris), a)
	}
}

// TestSphereSupportDegenerate checks the support balls of degenerate
// support sets: finite, and holding every support point.
func TestSphereSupportDegenerate(t *testing.T) {
	a, b, c := geom.V(0, 0, 0), geom.V(1, 1, 1), geom.V(3, 3, 3)
	e := geom.V(1e-17, 0, 0)
	sets := [][]geom.Vec3{
		{a, a, a},
		{a, b, c},        // collinear
		{a, c, b.Add(e)}, // nearly collinear
		{a, a, b, c},     // coincident and collinear
		{a, geom.V(1, 0, 0), geom.V(0, 1, 0), geom.V(1, 1, 0)},                                   // cocircular
		{a, geom.V(2, 0, 0), geom.V(0, 2, 0), geom.V(0.5, 0.5, 0)},                               // coplanar
		{a, geom.V(2, 0, 0), geom.V(0, 2, 0), geom.V(0.5, 0.5, 1e-300)},                          // nearly coplanar
		{geom.V(1, 0, 0), geom.V(-1, 0, 0), geom.V(0, 1, 0), geom.V(0, -1, 1e-16)},               // nearly cocircular
		{a, b, c, geom.V(2, 2, 2)},                                                               // collinear
		{geom.V(1e-200, 0, 0), geom.V(0, 1e-200, 0), geom.V(0, 0, 1e-200), geom.V(0, 0, 0)},      // tiny
		{geom.V(1, 0, 0), geom.V(1+0x1p-52, 0, 0), geom.V(1, 0x1p-52, 0), geom.V(1, 0, 0x1p-52)}, // ulp-sized
	}
	for i, s := range sets {
		var m sphereWelzl
		m.cap2 = 100
		copy(m.supp[:], s)
		ball := m.support(len(s))
		if !ball.c.IsFinite() || !(ball.r2 >= 0) || ball.r2 > m.cap2 {
			t.Errorf("set %d: ball %v", i, ball)
			continue
		}
		for _, p := range s {
			if d := sphereDist2(p, ball.c); d > ball.r2*sphereTol {
				t.Errorf("set %d: support point %v outside (d² = %v > r² = %v)", i, p, d, ball.r2)
			}
		}
	}
}

func TestSphereOverlaps(t *testing.T) {
	up := func(x float64) float64 { return math.Nextafter(x, math.Inf(1)) }
	unit := func(x, y, z, r float64) Sphere { return Sphere{C: geom.V(x, y, z), R: r} }
	tests := []struct {
		name string
		a, b Sphere
		want bool
	}{
		{"touching", unit(0, 0, 0, 1), unit(2, 0, 0, 1), true},
		{"one ulp apart", unit(0, 0, 0, 1), unit(up(2), 0, 0, 1), false},
		{"one ulp apart, radius", unit(0, 0, 0, math.Nextafter(1, 0)), unit(2, 0, 0, 1), false},
		{"touching diagonal", unit(0, 0, 0, 2), unit(2, 3, 6, 5), true},
		{"diagonal one ulp apart", unit(0, 0, 0, 2), unit(2, 3, up(6), 5), false},
		{"point on point", unit(1, 2, 3, 0), unit(1, 2, 3, 0), true},
		{"points apart", unit(1, 2, 3, 0), unit(1, 2, up(3), 0), false},
		{"concentric", unit(5, 5, 5, 1), unit(5, 5, 5, 100), true},
		{"touching tiny", unit(0, 0, 0, 0x1p-1074), unit(0x1p-1073, 0, 0, 0x1p-1074), true},
		{"apart tiny", unit(0, 0, 0, 0x1p-1074), unit(0x1p-1073+0x1p-1074, 0, 0, 0x1p-1074), false},
		{"touching huge", unit(-1e308, 0, 0, 1e308), unit(1e308, 0, 0, 1e308), true},
		{"apart huge", unit(-1e308, 0, 0, 1e308), unit(up(1e308), 0, 0, 1e308), false},
		{"empty", unit(0, 0, 0, -1), unit(0, 0, 0, 1), false},
		{"infinite radius", unit(0, 0, 0, math.Inf(1)), unit(1e300, 0, 0, 0), true},
		{"NaN centre", unit(math.NaN(), 0, 0, 1), unit(0, 0, 0, 1), false},
	}
	for _, tt := range tests {
		if got := tt.a.Overlaps(tt.b); got != tt.want {
			t.Errorf("%s: %v.Overlaps(%v) = %v, want %v", tt.name, tt.a, tt.b, got, tt.want)
		}
		if got := tt.b.Overlaps(tt.a); got != tt.want {
			t.Errorf("%s (swapped): %v.Overlaps(%v) = %v, want %v", tt.name, tt.b, tt.a, got, tt.want)
		}
	}
	// Random pairs at nearly the touching distance, against the rational
	// oracle, at several magnitudes.
	r := rand.New(rand.NewPCG(15, 16))
	overlapping := 0
	for i := range 20000 {
		scale := []float64{1, 1e-160, 1e150, 0x1p-1060}[i%4]
		a := Sphere{C: geom.V(r.NormFloat64(), r.NormFloat64(), r.NormFloat64()).Scale(scale), R: r.Float64() * scale}
		rb := r.Float64() * scale
		d := sphUnit(r).Scale((a.R + rb) * (1 + (r.Float64()-0.5)*math.Ldexp(1, -r.IntN(60))))
		b := Sphere{C: a.C.Add(d), R: rb}
		want := sphereOverlapsExact(a, b)
		if want {
			overlapping++
		}
		if got := a.Overlaps(b); got != want {
			t.Fatalf("%v.Overlaps(%v) = %v, exact %v", a, b, got, want)
		}
	}
	if overlapping < 5000 || overlapping > 15000 {
		t.Errorf("near-touching pairs: %d of 20000 overlap, want a balanced mix", overlapping)
	}
}

func TestSphereContainsVolume(t *testing.T) {
	s := Sphere{C: geom.V(1, 2, 3), R: 2}
	for _, tt := range []struct {
		p    geom.Vec3
		want bool
	}{
		{geom.V(1, 2, 3), true},
		{geom.V(3, 2, 3), true}, // on the boundary, exactly
		{geom.V(1, 2, 1), true},
		{geom.V(math.Nextafter(3, 4), 2, 3), false},
		{geom.V(2.5, 3.5, 3), false},
	} {
		if got := s.Contains(tt.p); got != tt.want {
			t.Errorf("%v.Contains(%v) = %v, want %v", s, tt.p, got, tt.want)
		}
	}
	if v, want := s.Volume(), 32*math.Pi/3; math.Abs(v-want) > 1e-14*want {
		t.Errorf("Volume = %v, want %v", v, want)
	}
	if v := (Sphere{R: 0}).Volume(); v != 0 {
		t.Errorf("point Volume = %v, want 0", v)
	}
}

// TestBoundingSphereRitter compares the radius with Ritter's approximation:
// Ritter is never smaller (up to rounding) and is usually a few percent
// larger.
func TestBoundingSphereRitter(t *testing.T) {
	r := rand.New(rand.NewPCG(17, 18))
	for _, kind := range []string{"cube", "surface", "gaussian", "circle", "lattice"} {
		sum, worst := 0.0, 0.0
		const trials = 50
		for range trials {
			pts := sphCloud(r, kind, 1000)
			w, rt := BoundingSphere(pts), sphRitter(pts)
			q := rt.R / w.R
			if q < 1-1e-12 {
				t.Errorf("%s: Ritter radius %v < ours %v", kind, rt.R, w.R)
			}
			sum += q
			worst = max(worst, q)
		}
		t.Logf("%-9s Ritter/ours radius: mean %.4f, worst %.4f", kind, sum/trials, worst)
	}
}

func BenchmarkBoundingSphere(b *testing.B) {
	for _, n := range []int{100, 10000, 1000000} {
		pts := sphCloud(rand.New(rand.NewPCG(19, 20)), "cube", n)
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				BoundingSphere(pts)
			}
		})
	}
}

func BenchmarkBoundingSphereBuf(b *testing.B) {
	for _, kind := range []string{"cube", "surface"} {
		for _, n := range []int{100, 10000, 100000, 1000000} {
			pts := sphCloud(rand.New(rand.NewPCG(19, 20)), kind, n)
			b.Run(fmt.Sprintf("%s/n=%d", kind, n), func(b *testing.B) {
				b.ReportAllocs()
				var buf []geom.Vec3
				for b.Loop() {
					_, buf = BoundingSphereBuf(pts, buf)
				}
			})
		}
	}
}

// BenchmarkRitter is the baseline: Ritter's approximate algorithm, with the
// mean ratio of its radius to BoundingSphere's over the clouds reported as
// the metric R/Rwelzl.
func BenchmarkRitter(b *testing.B) {
	for _, n := range []int{100, 10000, 1000000} {
		r := rand.New(rand.NewPCG(19, 20))
		pts := sphCloud(r, "cube", n)
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				sphRitter(pts)
			}
			sum := 0.0
			const clouds = 5
			for i := range clouds {
				c := sphCloud(r, []string{"cube", "gaussian", "surface", "cube", "gaussian"}[i], n)
				sum += sphRitter(c).R / BoundingSphere(c).R
			}
			b.ReportMetric(sum/clouds, "R/Rwelzl")
		})
	}
}
