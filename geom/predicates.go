package geom

import (
	"math"
	"math/big"

	"github.com/collide3d/collide/internal/exact"
)

// Error analysis of the float fast paths.
//
// Let u = 2⁻⁵³ (the unit roundoff of float64, round to nearest) and write
// fl(·) for a computed value. For any two floats x, y, without overflow or
// underflow, fl(x∘y) = (x∘y)(1+δ) with |δ| ≤ u for ∘ ∈ {+, -, ×}; the explicit
// float64(·) conversions around products force that rounding to happen (no
// FMA contraction), which this analysis relies on.
//
// Orient2D. The determinant is D = L - R with L = (bx-ax)(cy-ay) and
// R = (by-ay)(cx-ax). Each difference is computed with relative error ≤ u and
// each product adds another, so fl(L) = L(1+θ₁), fl(R) = R(1+θ₂) with
// |θᵢ| ≤ 2u + u². Then fl(D) = (fl(L) - fl(R))(1+δ), and
//
//	|fl(D) - D| ≤ u|fl(L) - fl(R)| + (2u+u²)(|L| + |R|)
//	           ≤ (3u + O(u²)) · (|fl(L)| + |fl(R)|).
//
// Shewchuk (Adaptive Precision Floating-Point Arithmetic and Fast Robust
// Geometric Predicates, 1997, §4.3) carries the second-order terms, including
// the rounding of the sum |fl(L)| + |fl(R)| itself, and obtains the bound
// errBound2 = (3 + 16u)u, which we use: when |fl(D)| > errBound2·fl(|fl(L)| +
// |fl(R)|), the sign of fl(D) is the sign of D.
//
// Orient3D. D = ux(vy·wz - vz·wy) + uy(vz·wx - vx·wz) + uz(vx·wy - vy·wx)
// with u = b-a, v = c-a, w = d-a. Every term is a product of three computed
// differences (three roundings) followed by one subtraction and then two
// additions, so each of the six triple products reaches D with a relative
// perturbation of at most (1+u)⁷ - 1 = 7u + O(u²). Bounding every
// perturbation by the permanent P = Σ|ui|(|vj·wk| + |vk·wj|), computed in
// floating point, Shewchuk's analysis (same section) gives
// errBound3 = (7 + 56u)u: when |fl(D)| > errBound3·fl(P), sign(fl(D)) =
// sign(D).
//
// Both bounds are relative and assume no underflow and no overflow. Underflow
// adds at most 2⁻¹⁰⁷⁴ absolute error per operation, which is negligible
// against errBound·P as long as P ≥ 2⁻⁹⁰⁰: below that we take the exact path.
// Overflow produces ±Inf or NaN in fl(D) or fl(P); the comparison
// |fl(D)| > errBound·fl(P) is then false (Inf > Inf and NaN comparisons are
// false), and we take the exact path again.
const (
	unitRoundoff = 0x1p-53
	errBound2    = (3 + 16*unitRoundoff) * unitRoundoff
	errBound3    = (7 + 56*unitRoundoff) * unitRoundoff
	tinyPerm     = 0x1p-900
)

// Orient2D returns the sign (-1, 0 or +1) of the 2D orientation determinant
// (bx-ax)(cy-ay) - (by-ay)(cx-ax), exactly: +1 when a, b, c turn
// counterclockwise, -1 when clockwise, 0 when they are collinear.
//
// Properties: Orient2D(a, b, c) = Orient2D(b, c, a) = -Orient2D(b, a, c), and
// the result is 0 whenever two of the points coincide.
func Orient2D(ax, ay, bx, by, cx, cy float64) int {
	l := float64((bx - ax) * (cy - ay))
	r := float64((by - ay) * (cx - ax))
	det := l - r
	sum := math.Abs(l) + math.Abs(r)
	if sum >= tinyPerm && math.Abs(det) > errBound2*sum {
		return sgn(det)
	}
	return orient2DExact(ax, ay, bx, by, cx, cy)
}

// Orient3D returns the sign (-1, 0 or +1) of ((b-a) × (c-a)) · (d-a),
// exactly: +1 when d lies on the side of the plane through a, b, c toward
// which the normal (b-a)×(c-a) points (a, b, c counterclockwise seen from d),
// -1 on the other side, 0 when the four points are coplanar.
//
// Properties: the sign flips under an odd permutation of the four points and
// is unchanged under an even one; it is 0 whenever a, b, c are collinear.
func Orient3D(a, b, c, d Vec3) int {
	ux, uy, uz := b.X-a.X, b.Y-a.Y, b.Z-a.Z
	vx, vy, vz := c.X-a.X, c.Y-a.Y, c.Z-a.Z
	wx, wy, wz := d.X-a.X, d.Y-a.Y, d.Z-a.Z

	vywz, vzwy := float64(vy*wz), float64(vz*wy)
	vzwx, vxwz := float64(vz*wx), float64(vx*wz)
	vxwy, vywx := float64(vx*wy), float64(vy*wx)
	det := float64(ux*(vywz-vzwy)) + float64(uy*(vzwx-vxwz)) + float64(uz*(vxwy-vywx))
	perm := float64(math.Abs(ux)*(math.Abs(vywz)+math.Abs(vzwy))) +
		float64(math.Abs(uy)*(math.Abs(vzwx)+math.Abs(vxwz))) +
		float64(math.Abs(uz)*(math.Abs(vxwy)+math.Abs(vywx)))
	if perm >= tinyPerm && math.Abs(det) > errBound3*perm &&
		(min(math.Abs(vywz), math.Abs(vzwy), math.Abs(vzwx), math.Abs(vxwz), math.Abs(vxwy), math.Abs(vywx)) >= 0x1p-969 ||
			!(inexactProd(vy, wz, vywz) || inexactProd(vz, wy, vzwy) || inexactProd(vz, wx, vzwx) ||
				inexactProd(vx, wz, vxwz) || inexactProd(vx, wy, vxwy) || inexactProd(vy, wx, vywx))) {
		return sgn(det)
	}
	return orient3DExact(a, b, c, d)
}

// inexactProd reports whether p, the rounded product x·y, may be off by
// more than a relative ulp: it underflowed to 0 or to below 2^-969 (where
// a product keeps fewer than 53 bits, with margin). The filters' error
// bounds take every product to be within a relative ulp; an underflowed
// one is off by up to 2^-1075, which a later factor may make large.
func inexactProd(x, y, p float64) bool {
	if p == 0 {
		return x != 0 && y != 0
	}
	return math.Abs(p) < 0x1p-969
}

func sgn(x float64) int {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

// Exact evaluation.
//
// Stage 1 (error-free transformations, no allocation): when every input lies
// in the safe range {0} ∪ [2⁻²⁰⁰, 2²⁰⁰] in magnitude, exact.TwoSum and
// exact.TwoProd (via math.FMA) are exact, because no product or sum can
// overflow and no product's rounding error can fall below the smallest normal
// float. The determinant is expanded into a sum of products of two or three
// floats, each product split exactly into 2 or 4 floats, and the floats are
// summed exactly into an exact.Expansion (Shewchuk's Grow-Expansion with zero
// elimination), whose sign is the sign of its largest component: at most 96
// components, within exact.MaxLen. When the coordinate differences are exact
// (their TwoDiff tails are zero, as on lattices and in most near-degenerate
// cases) the determinant is expanded over the differences; otherwise over the
// raw coordinates.
//
// Stage 2 (math/big, allocates): inputs outside the safe range are evaluated
// with big.Float at a precision large enough for every intermediate to be
// exact.

const safeLo, safeHi = 0x1p-200, 0x1p200

func inSafeRange(xs ...float64) bool {
	for _, x := range xs {
		a := math.Abs(x)
		if a != 0 && !(a >= safeLo && a <= safeHi) {
			return false
		}
	}
	return true
}

// safeScale returns a power of two s such that every x·s is exact and in the
// safe range, if there is one: the inputs' non-zero magnitudes must be finite
// and span less than the safe range itself. (Scaling up is exact even for
// subnormals; scaling down is exact because no result falls below 2⁻²⁰⁰.)
func safeScale(xs ...float64) (float64, bool) {
	lo, hi := math.Inf(1), 0.0
	for _, x := range xs {
		a := math.Abs(x)
		if a == 0 {
			continue
		}
		if math.IsInf(a, 0) || math.IsNaN(a) {
			return 0, false
		}
		lo, hi = min(lo, a), max(hi, a)
	}
	if hi == 0 {
		return 1, true
	}
	s := math.Ldexp(1, -math.Ilogb(hi)) // hi·s ∈ [1, 2)
	if lo*s < safeLo || hi*s >= safeHi {
		return 0, false
	}
	return s, true
}

// exactDiff returns a-b and whether it is exact.
func exactDiff(a, b float64) (float64, bool) {
	d := a - b
	bv := a - d
	av := d + bv
	return d, (a-av)+(bv-b) == 0
}

func orient2DExact(ax, ay, bx, by, cx, cy float64) int {
	if !inSafeRange(ax, ay, bx, by, cx, cy) {
		// A power-of-two scaling is exact and keeps the sign; it brings
		// inputs of one extreme magnitude into the safe range.
		s, ok := safeScale(ax, ay, bx, by, cx, cy)
		if !ok {
			return orient2DBig(ax, ay, bx, by, cx, cy)
		}
		ax, ay, bx, by, cx, cy = ax*s, ay*s, bx*s, by*s, cx*s, cy*s
	}
	var e exact.Expansion
	ux, ok1 := exactDiff(bx, ax)
	uy, ok2 := exactDiff(by, ay)
	vx, ok3 := exactDiff(cx, ax)
	vy, ok4 := exactDiff(cy, ay)
	if ok1 && ok2 && ok3 && ok4 {
		e.AddProd2(1, ux, vy)
		e.AddProd2(-1, uy, vx)
		return e.Sign()
	}
	orient2DRaw(&e, ax, ay, bx, by, cx, cy)
	return e.Sign()
}

// orient2DRaw adds to e the Orient2D determinant over the raw coordinates
// (in the safe range): (bx-ax)(cy-ay) - (by-ay)(cx-ax) expanded,
// bx·cy - bx·ay - ax·cy - by·cx + by·ax + ay·cx (the ax·ay terms cancel).
func orient2DRaw(e *exact.Expansion, ax, ay, bx, by, cx, cy float64) {
	e.AddProd2(1, bx, cy)
	e.AddProd2(-1, bx, ay)
	e.AddProd2(-1, ax, cy)
	e.AddProd2(-1, by, cx)
	e.AddProd2(1, by, ax)
	e.AddProd2(1, ay, cx)
}

func orient3DExact(a, b, c, d Vec3) int {
	if !inSafeRange(a.X, a.Y, a.Z, b.X, b.Y, b.Z, c.X, c.Y, c.Z, d.X, d.Y, d.Z) {
		s, ok := safeScale(a.X, a.Y, a.Z, b.X, b.Y, b.Z, c.X, c.Y, c.Z, d.X, d.Y, d.Z)
		if !ok {
			return orient3DBig(a, b, c, d)
		}
		a, b, c, d = a.Scale(s), b.Scale(s), c.Scale(s), d.Scale(s)
	}
	var e exact.Expansion
	ux, o1 := exactDiff(b.X, a.X)
	uy, o2 := exactDiff(b.Y, a.Y)
	uz, o3 := exactDiff(b.Z, a.Z)
	vx, o4 := exactDiff(c.X, a.X)
	vy, o5 := exactDiff(c.Y, a.Y)
	vz, o6 := exactDiff(c.Z, a.Z)
	wx, o7 := exactDiff(d.X, a.X)
	wy, o8 := exactDiff(d.Y, a.Y)
	wz, o9 := exactDiff(d.Z, a.Z)
	if o1 && o2 && o3 && o4 && o5 && o6 && o7 && o8 && o9 {
		e.AddProd3(1, ux, vy, wz)
		e.AddProd3(-1, ux, vz, wy)
		e.AddProd3(1, uy, vz, wx)
		e.AddProd3(-1, uy, vx, wz)
		e.AddProd3(1, uz, vx, wy)
		e.AddProd3(-1, uz, vy, wx)
		return e.Sign()
	}
	orient3DRaw(&e, a, b, c, d)
	return e.Sign()
}

// orient3DRaw adds to e the Orient3D determinant of a, b, c, d over their
// raw coordinates (in the safe range): the determinant of the 4×4 matrix
// with rows (p, 1) for p = a, b, c, d, which equals ((b-a)×(c-a))·(d-a) up
// to sign, expanded along the column of ones into four 3×3 determinants:
// det[b-a, c-a, d-a] = |b c d| - |a c d| + |a b d| - |a b c|.
func orient3DRaw(e *exact.Expansion, a, b, c, d Vec3) {
	det3 := func(s float64, p, q, r Vec3) {
		e.AddProd3(s, p.X, q.Y, r.Z)
		e.AddProd3(-s, p.X, q.Z, r.Y)
		e.AddProd3(s, p.Y, q.Z, r.X)
		e.AddProd3(-s, p.Y, q.X, r.Z)
		e.AddProd3(s, p.Z, q.X, r.Y)
		e.AddProd3(-s, p.Z, q.Y, r.X)
	}
	det3(1, b, c, d)
	det3(-1, a, c, d)
	det3(1, a, b, d)
	det3(-1, a, b, c)
}

// bigPrec is enough for every intermediate of Orient3D to be exact: a
// difference of two float64 needs at most 1024+1074+1 bits, a product of
// three differences at most three times that, and a sum of six such products
// a few bits more.
const bigPrec = 6400

func bigF(x float64) *big.Float { return new(big.Float).SetPrec(bigPrec).SetFloat64(x) }

func bigSub(x, y float64) *big.Float {
	if math.IsNaN(x) || math.IsNaN(y) || math.IsInf(x, 0) || math.IsInf(y, 0) {
		return bigF(0) // outside the contract; never panic
	}
	return new(big.Float).SetPrec(bigPrec).Sub(bigF(x), bigF(y))
}

func bigMul(x, y *big.Float) *big.Float { return new(big.Float).SetPrec(bigPrec).Mul(x, y) }

func orient2DBig(ax, ay, bx, by, cx, cy float64) int {
	l := bigMul(bigSub(bx, ax), bigSub(cy, ay))
	r := bigMul(bigSub(by, ay), bigSub(cx, ax))
	return l.Cmp(r)
}

func orient3DBig(a, b, c, d Vec3) int {
	ux, uy, uz := bigSub(b.X, a.X), bigSub(b.Y, a.Y), bigSub(b.Z, a.Z)
	vx, vy, vz := bigSub(c.X, a.X), bigSub(c.Y, a.Y), bigSub(c.Z, a.Z)
	wx, wy, wz := bigSub(d.X, a.X), bigSub(d.Y, a.Y), bigSub(d.Z, a.Z)
	minor := func(p, q, r, s *big.Float) *big.Float {
		return new(big.Float).SetPrec(bigPrec).Sub(bigMul(p, q), bigMul(r, s))
	}
	t := bigMul(ux, minor(vy, wz, vz, wy))
	t.Add(t, bigMul(uy, minor(vz, wx, vx, wz)))
	t.Add(t, bigMul(uz, minor(vx, wy, vy, wx)))
	return t.Sign()
}
