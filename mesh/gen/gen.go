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

// neg returns -x, except that it returns +0 for ±0 (so that generated
// coordinates never hold a negative zero).
func neg(x float64) float64 { return 0 - x }

// unitFloat maps 64 random bits to a float64 uniform in [0, 1) (a multiple of
// 2⁻⁵³).
func unitFloat(x uint64) float64 { return float64(float64(x>>11) * 0x1p-53) }
