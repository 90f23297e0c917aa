package depth

import (
	"math"
	"math/big"

	"github.com/collide3d/collide/geom"
)

// dotErr returns fl(u·p) and a bound on its rounding error.
func dotErr(u, p geom.Vec3) (float64, float64) {
	x, y, z := float64(u.X*p.X), float64(u.Y*p.Y), float64(u.Z*p.Z)
	d := x + y + z
	mag := math.Abs(x) + math.Abs(y) + math.Abs(z)
	return d, 0x1p-50*mag + 0x1p-1060
}

func ratDot(u, p geom.Vec3) *big.Rat {
	r := new(big.Rat)
	var a, b big.Rat
	for _, xy := range [3][2]float64{{u.X, p.X}, {u.Y, p.Y}, {u.Z, p.Z}} {
		a.SetFloat64(xy[0])
		b.SetFloat64(xy[1])
		r.Add(r, a.Mul(&a, &b))
	}
	return r
}

// planeSeparates reports, exactly, whether max over as of u·a ≤ min over bs
// of u·b: then the closed half-spaces {u·x ≤ c} and {u·x ≥ c} hold the two
// point sets and so their convex hulls, whose interiors are disjoint.
// u and the points must be finite.
func planeSeparates(u geom.Vec3, as, bs []geom.Vec3) bool {
	// [loA, hiA] holds max u·a; [loB, hiB] holds min u·b.
	loA, hiA := math.Inf(-1), math.Inf(-1)
	for _, a := range as {
		d, e := dotErr(u, a)
		loA, hiA = max(loA, d-e), max(hiA, d+e)
	}
	loB, hiB := math.Inf(1), math.Inf(1)
	for _, b := range bs {
		d, e := dotErr(u, b)
		loB, hiB = min(loB, d-e), min(hiB, d+e)
	}
	if hiA < loB {
		return true
	}
	if loA > hiB {
		return false
	}
	// Close: decide exactly on the points that may be extreme.
	var mA, mB *big.Rat
	for _, a := range as {
		if d, e := dotErr(u, a); d+e >= loA {
			if r := ratDot(u, a); mA == nil || r.Cmp(mA) > 0 {
				mA = r
			}
		}
	}
	for _, b := range bs {
		if d, e := dotErr(u, b); d-e <= hiB {
			if r := ratDot(u, b); mB == nil || r.Cmp(mB) < 0 {
				mB = r
			}
		}
	}
	return mA != nil && mB != nil && mA.Cmp(mB) <= 0
}
