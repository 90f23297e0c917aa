package bv

import (
	"math"

	"github.com/collide3d/collide/geom"
)

// eigenMaxSweeps caps the Jacobi sweeps of SymEigen. Convergence is
// quadratic: random 3×3 matrices need at most 4 sweeps.
const eigenMaxSweeps = 50

// SymEigen returns the eigenvalues of the symmetric matrix c, in descending
// order, and orthonormal eigenvectors as the rows of vecs (row i belongs to
// vals[i]). Only the symmetric part (c + cᵀ)/2 is used.
//
// It runs cyclic Jacobi rotations on c scaled by a power of two that brings
// its largest |entry| into [1, 2), so that no intermediate overflows or
// underflows to a loss of accuracy whatever the scale of c, and stops when the
// off-diagonal part is below 2⁻⁵⁵ of the Frobenius norm, or after 50 sweeps
// (keeping the rotations accumulated so far, which are an orthonormal frame).
// The frame is then re-orthonormalised (rows 0 and 1 by Gram-Schmidt, row
// 2 = row 0 × row 1), so it is right-handed (det +1) and orthonormal to
// within a few ulps. Repeated eigenvalues are legitimate: any orthonormal
// basis of the eigenspace is returned. The eigenvalues are the diagonal of
// the rotated matrix scaled back, accurate to a few ulps of the largest
// |eigenvalue|; a result beyond the float64 range becomes ±Inf.
//
// The zero matrix gives zero eigenvalues and the identity frame. A NaN or
// infinite entry gives zero eigenvalues and the identity frame too, so that
// the result never holds a NaN.
func SymEigen(c [3][3]float64) (vals [3]float64, vecs geom.Mat3) {
	vecs = geom.Identity3()
	m := 0.0
	for i := range 3 {
		for j := range 3 {
			x := math.Abs(c[i][j])
			if !(x <= math.MaxFloat64) {
				return [3]float64{}, vecs
			}
			m = max(m, x)
		}
	}
	if m == 0 {
		return vals, vecs
	}
	e := math.Ilogb(m)
	var a [3][3]float64
	for i := range 3 {
		for j := range 3 {
			a[i][j] = 0.5 * (math.Ldexp(c[i][j], -e) + math.Ldexp(c[j][i], -e))
		}
	}
	v := [3][3]float64{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}} // rows: eigenvectors
	for range eigenMaxSweeps {
		off := a[0][1]*a[0][1] + a[0][2]*a[0][2] + a[1][2]*a[1][2]
		fro := a[0][0]*a[0][0] + a[1][1]*a[1][1] + a[2][2]*a[2][2] + 2*off
		if off <= 0x1p-110*fro {
			break
		}
		jacobiRotate(&a, &v, 0, 1, 2)
		jacobiRotate(&a, &v, 0, 2, 1)
		jacobiRotate(&a, &v, 1, 2, 0)
	}
	// Sort by descending eigenvalue (a stable sorting network of 3).
	d := [3]float64{a[0][0], a[1][1], a[2][2]}
	idx := [3]int{0, 1, 2}
	for _, p := range [3][2]int{{0, 1}, {1, 2}, {0, 1}} {
		if d[idx[p[0]]] < d[idx[p[1]]] {
			idx[p[0]], idx[p[1]] = idx[p[1]], idx[p[0]]
		}
	}
	e0 := geom.Vec3{X: v[idx[0]][0], Y: v[idx[0]][1], Z: v[idx[0]][2]}
	e1 := geom.Vec3{X: v[idx[1]][0], Y: v[idx[1]][1], Z: v[idx[1]][2]}
	e0 = eigenUnit(e0)
	e1 = eigenUnit(e1.Sub(e0.Scale(e1.Dot(e0))))
	e2 := eigenUnit(e0.Cross(e1))
	if !e2.IsFinite() || e2 == (geom.Vec3{}) || e1 == (geom.Vec3{}) || e0 == (geom.Vec3{}) {
		// Unreachable for a product of rotations; kept so that a NaN can
		// never escape.
		return [3]float64{}, geom.Identity3()
	}
	for i := range 3 {
		vals[i] = math.Ldexp(d[idx[i]], e)
	}
	return vals, geom.Rows(e0, e1, e2)
}

// jacobiRotate applies to the symmetric matrix a the plane rotation J in the
// (p, q) plane that zeroes a[p][q] (a ← Jᵀ·a·J), r being the third index, and
// rotates the rows p and q of v alike (v ← Jᵀ·v), so that v·a₀·vᵀ = a stays
// true for the original matrix a₀. The rotation is the smaller of the two
// that annihilate a[p][q] (|angle| ≤ π/4), as in Rutishauser's formulation.
func jacobiRotate(a, v *[3][3]float64, p, q, r int) {
	apq := a[p][q]
	if apq == 0 {
		return
	}
	theta := (a[q][q] - a[p][p]) / (2 * apq)
	var t float64
	if at := math.Abs(theta); at > 0x1p500 {
		t = 0.5 / theta // 1/(|θ| + √(θ²+1)) to within a relative 2⁻¹⁰⁰⁰
	} else {
		t = math.Copysign(1, theta) / (at + math.Sqrt(theta*theta+1))
	}
	c := 1 / math.Sqrt(t*t+1)
	s := t * c
	a[p][p] -= t * apq
	a[q][q] += t * apq
	a[p][q], a[q][p] = 0, 0
	arp, arq := a[r][p], a[r][q]
	a[r][p] = c*arp - s*arq
	a[r][q] = s*arp + c*arq
	a[p][r], a[q][r] = a[r][p], a[r][q]
	for k := range 3 {
		vp, vq := v[p][k], v[q][k]
		v[p][k] = c*vp - s*vq
		v[q][k] = s*vp + c*vq
	}
}

// eigenUnit returns x/|x| for the near-unit vectors of SymEigen (no
// overflow or underflow is possible there), or the zero vector for a zero or
// non-finite norm.
func eigenUnit(x geom.Vec3) geom.Vec3 {
	n := math.Sqrt(x.Dot(x))
	if !(n > 0 && n <= math.MaxFloat64) {
		return geom.Vec3{}
	}
	return geom.Vec3{X: x.X / n, Y: x.Y / n, Z: x.Z / n}
}
