package gen

import (
	"fmt"
	"math"

	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh"
)

// MaxTriangles is the largest triangle count any generator returns. A request
// whose mesh would exceed it is an error.
const MaxTriangles = 50_000_000

// Must returns m, and panics if err is not nil. It is meant for tests and
// package-level variables with constant arguments:
//
//	var ball = gen.Must(gen.Icosphere(geom.Vec3{}, 1, 5000))
func Must(m *mesh.TriMesh, err error) *mesh.TriMesh {
	if err != nil {
		panic(err)
	}
	return m
}

// errorf returns an error prefixed with "gen: kind: ".
func errorf(kind, format string, args ...any) error {
	return fmt.Errorf("gen: "+kind+": "+format, args...)
}

func isFinite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// checkPositive returns an error unless x is positive and finite.
func checkPositive(kind, name string, x float64) error {
	if !(x > 0) || math.IsInf(x, 0) {
		return errorf(kind, "%s must be positive and finite, got %v", name, x)
	}
	return nil
}

// checkCenter returns an error unless every coordinate of c is finite.
func checkCenter(kind string, c geom.Vec3) error {
	if !c.IsFinite() {
		return errorf(kind, "center must be finite, got %v", c)
	}
	return nil
}

// checkTris returns an error unless min ≤ tris ≤ MaxTriangles.
func checkTris(kind string, tris, min int) error {
	if tris < min {
		return errorf(kind, "tris must be at least %d, got %d", min, tris)
	}
	if tris > MaxTriangles {
		return errorf(kind, "tris = %d exceeds the limit of %d triangles", tris, MaxTriangles)
	}
	return nil
}

// checkCount returns an error if a mesh of count triangles would exceed
// MaxTriangles.
func checkCount(kind string, count int64) error {
	if count > MaxTriangles {
		return errorf(kind, "%d triangles exceed the limit of %d", count, MaxTriangles)
	}
	return nil
}

// checkResult returns an error if m has a non-finite coordinate (the
// parameters were finite but their combination overflowed).
func checkResult(kind string, m *mesh.TriMesh) (*mesh.TriMesh, error) {
	for _, v := range m.Verts {
		if !v.IsFinite() {
			return nil, errorf(kind, "coordinates overflow float64 (vertex %v)", v)
		}
	}
	return m, nil
}

// closest returns the integer closest to t/k, the smaller one on a tie, for
// t ≥ 0 and k > 0.
func closest(t, k int64) int64 { return (2*t + k - 1) / (2 * k) }

// roundClamp returns math.Round(x) clamped to [lo, hi]; NaN gives lo.
func roundClamp(x float64, lo, hi int64) int64 {
	if !(x >= float64(lo)) {
		return lo
	}
	if x >= float64(hi) {
		return hi
	}
	return int64(math.Round(x))
}

// maxInt64 returns the larger of a and b.
func maxInt64(a, b int64) int64 {
	if a > b {
		return a
	}
	return b
}

// addScaled returns a + s·v with every product rounded on its own (no fused
// multiply-add), so that the result is the same on every platform.
func addScaled(a geom.Vec3, s float64, v geom.Vec3) geom.Vec3 {
	return geom.Vec3{X: a.X + float64(s*v.X), Y: a.Y + float64(s*v.Y), Z: a.Z + float64(s*v.Z)}
}

// scale returns s·v.
func scale(s float64, v geom.Vec3) geom.Vec3 {
	return geom.Vec3{X: float64(s * v.X), Y: float64(s * v.Y), Z: float64(s * v.Z)}
}

// unit returns v/|v| using math.Sqrt (correctly rounded) rather than
// geom.Vec3.Norm, whose math.Hypot is not guaranteed to give the same bits on
// every platform. v must not be the zero vector.
func unit(v geom.Vec3) geom.Vec3 {
	n := math.Sqrt(v.Dot(v))
	return geom.Vec3{X: v.X / n, Y: v.Y / n, Z: v.Z / n}
}

// neg returns -x, except that it returns +0 for ±0 (so that generated
// coordinates never hold a negative zero).
func neg(x float64) float64 { return 0 - x }

// Taylor coefficients of sin(x)/x and cos(x) in powers of x², enough for an
// error far below one ulp on [0, π/4] (the first omitted terms are below
// 1e-19).
var (
	sinCoef = [...]float64{1, -1.0 / 6, 1.0 / 120, -1.0 / 5040, 1.0 / 362880,
		-1.0 / 39916800, 1.0 / 6227020800, -1.0 / 1307674368000,
		1.0 / 355687428096000, -1.0 / 121645100408832000}
	cosCoef = [...]float64{1, -1.0 / 2, 1.0 / 24, -1.0 / 720, 1.0 / 40320,
		-1.0 / 3628800, 1.0 / 479001600, -1.0 / 87178291200,
		1.0 / 20922789888000, -1.0 / 6402373705728000}
)

// sincosSmall returns sin(x) and cos(x) for 0 ≤ x ≤ π/4, with an error of a
// few ulps, computed by Horner's rule with every product rounded.
func sincosSmall(x float64) (sin, cos float64) {
	z := float64(x * x)
	s := sinCoef[len(sinCoef)-1]
	for i := len(sinCoef) - 2; i >= 0; i-- {
		s = float64(s*z) + sinCoef[i]
	}
	c := cosCoef[len(cosCoef)-1]
	for i := len(cosCoef) - 2; i >= 0; i-- {
		c = float64(c*z) + cosCoef[i]
	}
	return float64(x * s), c
}

// sincosTurn returns the sine and cosine of the angle 2π·k/n (n > 0, and
// |k|, n below 2⁶⁰), the same bits on every platform. The quadrant and the
// octant are found in integer arithmetic, so the results are exact at
// multiples of π/2 (0, ±1) and exactly symmetric: sincosTurn(n-k, n) is
// sincosTurn(k, n) with the sine negated.
func sincosTurn(k, n int64) (sin, cos float64) {
	k %= n
	if k < 0 {
		k += n
	}
	quad := 4 * k / n
	r := 4*k - quad*n // the angle within the quadrant is (π/2)·r/n, 0 ≤ r < n
	var s, c float64
	if 2*r == n { // π/4: equal, so that the octant symmetries are exact
		s, c = math.Sqrt2/2, math.Sqrt2/2
	} else if 2*r < n {
		s, c = sincosSmall(math.Pi / 2 * (float64(r) / float64(n)))
	} else {
		c, s = sincosSmall(math.Pi / 2 * (float64(n-r) / float64(n)))
	}
	switch quad {
	case 0:
		return s, c
	case 1:
		return c, neg(s)
	case 2:
		return neg(s), neg(c)
	}
	return neg(c), s
}

// unitFloat maps 64 random bits to a float64 uniform in [0, 1) (a multiple of
// 2⁻⁵³).
func unitFloat(x uint64) float64 { return float64(float64(x>>11) * 0x1p-53) }
