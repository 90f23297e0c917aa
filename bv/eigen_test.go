package bv

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/collide3d/collide/geom"
)

// eigRot returns a uniformly random rotation.
func eigRot(rng *rand.Rand) geom.Mat3 {
	return geom.Quat{W: rng.NormFloat64(), X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}.Mat3()
}

// eigCompose returns the symmetric matrix qᵀ·diag(l)·q, rounded.
func eigCompose(q geom.Mat3, l [3]float64) [3][3]float64 {
	var c [3][3]float64
	for i := range 3 {
		for j := i; j < 3; j++ {
			s := 0.0
			for k := range 3 {
				s += q[k][i] * l[k] * q[k][j]
			}
			c[i][j], c[j][i] = s, s
		}
	}
	return c
}

// eigMaxAbs returns the largest |entry| of c.
func eigMaxAbs(c [3][3]float64) float64 {
	m := 0.0
	for i := range 3 {
		for j := range 3 {
			m = max(m, math.Abs(c[i][j]))
		}
	}
	return m
}

// eigCheckFrame checks that v is orthonormal to within tol and right-handed,
// and holds no NaN.
func eigCheckFrame(t *testing.T, name string, v geom.Mat3, tol float64) {
	t.Helper()
	for i := range 3 {
		for j := range 3 {
			g := v.Row(i).Dot(v.Row(j))
			if i == j {
				g--
			}
			if !(math.Abs(g) <= tol) {
				t.Fatalf("%s: rows %d·%d off by %g (frame %v)", name, i, j, g, v)
			}
		}
	}
	if d := v.Det(); !(math.Abs(d-1) <= tol) {
		t.Fatalf("%s: det %v", name, d)
	}
	// Row 2 is row 0 × row 1 (right-handed by construction).
	if !v.Row(0).Cross(v.Row(1)).ApproxEqual(v.Row(2), tol) {
		t.Fatalf("%s: row 2 is not row 0 × row 1: %v", name, v)
	}
}

// eigCheck checks the decomposition of c: sorted values, orthonormal
// right-handed frame, v·c·vᵀ diagonal with the values on the diagonal, all
// to within tol relative to the largest |entry| of c.
func eigCheck(t *testing.T, name string, c [3][3]float64, vals [3]float64, v geom.Mat3, tol float64) {
	t.Helper()
	eigCheckFrame(t, name, v, 1e-15)
	if !(vals[0] >= vals[1] && vals[1] >= vals[2]) {
		t.Fatalf("%s: values not sorted descending: %v", name, vals)
	}
	scale := eigMaxAbs(c)
	cm := geom.Mat3(c)
	d := v.Mul(cm).Mul(v.Transpose())
	for i := range 3 {
		for j := range 3 {
			want := 0.0
			if i == j {
				want = vals[i]
			}
			if !(math.Abs(d[i][j]-want) <= tol*scale) {
				t.Fatalf("%s: (V C Vᵀ)[%d][%d] = %g, want %g (scale %g, tol %g)\nC = %v\nvals = %v\nV = %v",
					name, i, j, d[i][j], want, scale, tol, c, vals, v)
			}
		}
	}
}

func TestSymEigenRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	// Eigenvalue patterns, before a random scale.
	patterns := []struct {
		name string
		gen  func() [3]float64
	}{
		{"distinct", func() [3]float64 { return [3]float64{rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()} }},
		{"double", func() [3]float64 { x := rng.NormFloat64(); return [3]float64{x, x, rng.NormFloat64()} }},
		{"triple", func() [3]float64 { x := rng.NormFloat64(); return [3]float64{x, x, x} }},
		{"near-double", func() [3]float64 { x := rng.NormFloat64(); return [3]float64{x, x * (1 + 1e-12), rng.NormFloat64()} }},
		{"rank1", func() [3]float64 { return [3]float64{rng.NormFloat64(), 0, 0} }},
		{"rank2", func() [3]float64 { return [3]float64{rng.NormFloat64(), rng.NormFloat64(), 0} }},
		{"rank2-double", func() [3]float64 { x := rng.NormFloat64(); return [3]float64{x, x, 0} }},
		{"psd-thin", func() [3]float64 { return [3]float64{1, 1e-10, 1e-20} }},
		{"mixed-sign-double", func() [3]float64 { return [3]float64{1, -1, -1} }},
		{"huge-spread", func() [3]float64 { return [3]float64{1, 1e-150, -1e-300} }},
	}
	for _, p := range patterns {
		for it := range 400 {
			l := p.gen()
			// Scale by 2^e for e in [-664, 664] (about 1e-200..1e200), or by a
			// random non-power-of-two factor.
			s := math.Ldexp(1, rng.IntN(1329)-664)
			if it%3 == 0 {
				s *= 1 + rng.Float64()
			}
			for k := range l {
				l[k] *= s
			}
			q := eigRot(rng)
			c := eigCompose(q, l)
			vals, v := SymEigen(c)
			name := p.name
			eigCheck(t, name, c, vals, v, 2e-15)
			want := l
			slices.SortFunc(want[:], func(x, y float64) int { return -cmpFloat(x, y) })
			lm := max(math.Abs(l[0]), math.Abs(l[1]), math.Abs(l[2]))
			for k := range 3 {
				if !(math.Abs(vals[k]-want[k]) <= 1e-14*lm) {
					t.Fatalf("%s: vals %v, want %v", name, vals, want)
				}
			}
		}
	}
}

func cmpFloat(x, y float64) int {
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}

func TestSymEigenGeneral(t *testing.T) {
	// Arbitrary symmetric matrices, including sparse and integer ones.
	rng := rand.New(rand.NewPCG(3, 4))
	for it := range 20000 {
		var c [3][3]float64
		for i := range 3 {
			for j := i; j < 3; j++ {
				var x float64
				switch it % 4 {
				case 0:
					x = rng.NormFloat64()
				case 1:
					x = float64(rng.IntN(5) - 2)
				case 2:
					if rng.IntN(2) == 0 {
						x = rng.NormFloat64()
					}
				case 3:
					x = rng.NormFloat64() * math.Pow(10, float64(rng.IntN(41)-20))
				}
				c[i][j], c[j][i] = x, x
			}
		}
		vals, v := SymEigen(c)
		eigCheck(t, "general", c, vals, v, 2e-15)
	}
}

func TestSymEigenSpecial(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	id := geom.Identity3()
	cases := []struct {
		name     string
		c        [3][3]float64
		vals     [3]float64
		identity bool // the frame must be the identity
	}{
		{name: "zero", identity: true},
		{name: "identity", c: [3][3]float64{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}, vals: [3]float64{1, 1, 1}, identity: true},
		{name: "diag-sorted", c: [3][3]float64{{3, 0, 0}, {0, 2, 0}, {0, 0, 1}}, vals: [3]float64{3, 2, 1}, identity: true},
		{name: "diag-reversed", c: [3][3]float64{{1, 0, 0}, {0, 2, 0}, {0, 0, 3}}, vals: [3]float64{3, 2, 1}},
		{name: "swap", c: [3][3]float64{{0, 1, 0}, {1, 0, 0}, {0, 0, 0}}, vals: [3]float64{1, 0, -1}},
		{name: "ones", c: [3][3]float64{{1, 1, 1}, {1, 1, 1}, {1, 1, 1}}, vals: [3]float64{3, 0, 0}},
		{name: "nan", c: [3][3]float64{{1, nan, 0}, {nan, 1, 0}, {0, 0, 1}}, identity: true},
		{name: "inf", c: [3][3]float64{{inf, 0, 0}, {0, 1, 0}, {0, 0, 1}}, identity: true},
		{name: "-inf-off", c: [3][3]float64{{1, -inf, 0}, {-inf, 1, 0}, {0, 0, 1}}, identity: true},
		{name: "subnormal", c: [3][3]float64{{5e-324, 1e-323, 0}, {1e-323, 5e-324, 0}, {0, 0, 0}}},
		{name: "max", c: [3][3]float64{{math.MaxFloat64, math.MaxFloat64, 0}, {math.MaxFloat64, math.MaxFloat64, 0}, {0, 0, 1}}},
	}
	for _, tc := range cases {
		vals, v := SymEigen(tc.c)
		for _, x := range vals {
			if math.IsNaN(x) {
				t.Fatalf("%s: NaN value: %v", tc.name, vals)
			}
		}
		eigCheckFrame(t, tc.name, v, 1e-15)
		if tc.identity && v != id {
			t.Errorf("%s: frame %v, want identity", tc.name, v)
		}
		if tc.vals != ([3]float64{}) {
			for k := range 3 {
				if math.Abs(vals[k]-tc.vals[k]) > 4e-15*math.Abs(tc.vals[0]) {
					t.Errorf("%s: vals %v, want %v", tc.name, vals, tc.vals)
				}
			}
		}
		if tc.name == "subnormal" && !(vals[0] > 0 && vals[2] < 0) {
			t.Errorf("subnormal: vals %v, want one positive and one negative", vals)
		}
		if tc.name == "max" && !math.IsInf(vals[0], 1) {
			t.Errorf("max: vals %v, want +Inf first (2·MaxFloat64)", vals)
		}
	}
}

// TestSymEigenSymmetricPart checks that only (c + cᵀ)/2 is used.
func TestSymEigenSymmetricPart(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for range 1000 {
		var c, s [3][3]float64
		for i := range 3 {
			for j := range 3 {
				c[i][j] = float64(rng.IntN(9) - 4)
			}
		}
		for i := range 3 {
			for j := range 3 {
				s[i][j] = (c[i][j] + c[j][i]) / 2
			}
		}
		v1, f1 := SymEigen(c)
		v2, f2 := SymEigen(s)
		if v1 != v2 || f1 != f2 {
			t.Fatalf("SymEigen(%v) = %v %v, SymEigen of the symmetric part = %v %v", c, v1, f1, v2, f2)
		}
	}
}

func BenchmarkSymEigen(b *testing.B) {
	rng := rand.New(rand.NewPCG(7, 8))
	cs := make([][3][3]float64, 256)
	for i := range cs {
		cs[i] = eigCompose(eigRot(rng), [3]float64{rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()})
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		SymEigen(cs[i&255])
		i++
	}
}
