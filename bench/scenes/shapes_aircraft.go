package scenes

import (
	"math"

	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/internal/portable"
	"github.com/collide3d/collide/mesh"
	"github.com/collide3d/collide/mesh/gen"
)

// AircraftMinTris is the smallest request Aircraft accepts.
const AircraftMinTris = 1000

// Dimensions of Aircraft, in lengths of the fuselage (one unit is about
// 70.6 m on a Boeing 747).
const (
	acRadius     = 0.045 // fuselage radius
	acWingRoot   = 0.34  // leading edge of the wing at the center line
	acWingSpan   = 0.45  // half span
	acWingSweep  = 0.77  // tan of the leading-edge sweep (37.6°)
	acWingDihed  = 0.123 // tan of the dihedral (7°)
	acWingZ      = -0.45 * acRadius
	acNacelleLen = 0.075
	acNacelleRad = 0.014
)

// Aircraft returns an airliner model like a Boeing 747, one unit long: the
// flying object of Klosowski et al.'s "747" scenes (14,646 triangles there).
// The nose is at the origin and the fuselage runs along +x to x = 1, with z
// up and the wings along ±y; every vertex lies in [0, 1] × [-0.45, 0.45] ×
// [-0.05, 0.2] (the fuselage radius is 0.045, the span 0.9). Its parts are
// closed surfaces that overlap where they join (a soup):
//
//   - the fuselage, a loft of nf sides through af elliptic cross-sections
//     (denser at the ends), with an elliptic nose, a tail cone that sweeps
//     up, and fans to the nose and tail tips: 2·nf·af triangles;
//   - the upper-deck hump, a smaller body of nh sides and ah sections:
//     2·nh·ah triangles;
//   - two wings (37.6° sweep, 7° dihedral, chord 0.21 at the root, inside
//     the fuselage 0.02 from its center plane, to 0.05 at the tips) and the
//     two halves of the horizontal tail, each a
//     loft of symmetric NACA 00xx sections (2·p points, cosine spacing)
//     through st stations, closed by fans at root and tip: 2·(2p)·st
//     triangles, with p = pw, st = sw for a wing and p = pt, st = tt for the
//     tail and fin;
//   - the vertical fin, a loft like a tail half;
//   - four engine nacelles (lathes of nn sides and an rings, a flat inlet and
//     an exhaust cone: 2·nn·an triangles each) on pylons (gen.Box, 12
//     triangles) under the wings.
//
// With λ = √(tris/406): nf = max(8, round(8λ)), nh = max(6, round(5λ)),
// ah = max(3, round(3λ)), pw = sw = max(3, round(3λ)),
// pt = tt = max(2, round(2λ)), nn = max(6, round(4λ)), an = max(2,
// round(2λ)); then af is the integer closest to (tris - the rest)/(2·nf),
// so the count is within nf ≈ 0.4·√tris of tris (48 for 14,646, which gives
// 14,664). tris must be at least AircraftMinTris (1,000).
func Aircraft(tris int) (*mesh.TriMesh, error) {
	const kind = "aircraft"
	if err := checkTris(kind, tris, AircraftMinTris); err != nil {
		return nil, err
	}
	lam := math.Sqrt(float64(tris) / 406)
	res := func(k float64, lo int) int { return max(lo, roundInt(float64(k*lam))) }
	nf := res(8, 8)
	nh, ah := res(5, 6), res(3, 3)
	pw, sw := res(3, 3), res(3, 3)
	pt, tt := res(2, 2), res(2, 2)
	nn, an := res(4, 6), res(2, 2)
	rest := loftCount(nh, ah, 2) + 2*loftCount(2*pw, sw, 2) + 3*loftCount(2*pt, tt, 2) +
		4*loftCount(nn, an, 2) + 4*12
	af := closest(max(0, tris-rest), 2*nf)
	if af < 4 {
		return nil, errorf(kind, "tris = %d is too few for the model", tris)
	}

	m := &mesh.TriMesh{}
	tc := trigCache{}
	ex, ey, ez := geom.Vec3{X: 1}, geom.Vec3{Y: 1}, geom.Vec3{Z: 1}

	// Fuselage: sections at x = (1 - cos(πk/(af+1)))/2.
	R := acRadius
	var rings [][]geom.Vec3
	for k := 1; k <= af; k++ {
		_, c := portable.SinCosTurn(int64(k), int64(2*(af+1)))
		x := float64(0.5 * (1 - c))
		ry, rz, zc := fuselageProfile(x)
		rings = append(rings, ellipse(geom.Vec3{X: x, Z: zc}, ey, ez, ry, rz, tc.get(nf)))
	}
	nose, tail := geom.Vec3{Z: float64(-0.2 * R)}, geom.Vec3{X: 1, Z: float64(0.75 * R)}
	loft(m, rings, &nose, &tail)

	// Upper-deck hump, from x = 0.05 to 0.34.
	rings = rings[:0]
	const h0, h1 = 0.05, 0.34
	hz := float64(0.72 * R)
	for k := 1; k <= ah; k++ {
		_, c := portable.SinCosTurn(int64(k), int64(2*(ah+1)))
		t := float64(0.5 * (1 - c))
		var f float64
		switch {
		case t < 0.3:
			q := 1 - t/0.3
			f = math.Sqrt(1 - float64(q*q))
		case t > 0.55:
			q := (t - 0.55) / 0.45
			f = math.Sqrt(1 - float64(q*q))
		default:
			f = 1
		}
		x := lerp(h0, h1, t)
		rings = append(rings, ellipse(geom.Vec3{X: x, Z: hz}, ey, ez, float64(0.62*R)*f, float64(0.5*R)*f, tc.get(nh)))
	}
	front, back := geom.Vec3{X: h0, Z: hz}, geom.Vec3{X: h1, Z: hz}
	loft(m, rings, &front, &back)

	// Wings and horizontal tail, right halves built and mirrored.
	right := &mesh.TriMesh{}
	wing(right, tc, pw, sw, func(eta float64) (geom.Vec3, float64, float64) {
		y := lerp(0.02, acWingSpan, eta)
		le := geom.Vec3{X: acWingRoot + float64(acWingSweep*y), Y: y, Z: acWingZ + float64(acWingDihed*y)}
		return le, lerp(0.21, 0.05, eta), lerp(0.13, 0.08, eta)
	}, ex, ez)
	wing(right, tc, pt, tt, func(eta float64) (geom.Vec3, float64, float64) {
		y := lerp(0.01, 0.157, eta)
		le := geom.Vec3{X: 0.83 + float64(0.8*y), Y: y, Z: float64(0.35*R) + float64(0.12*y)}
		return le, lerp(0.12, 0.035, eta), lerp(0.1, 0.08, eta)
	}, ex, ez)
	// Nacelles and pylons under the right wing.
	for _, y := range []float64{0.165, 0.30} {
		xle := acWingRoot + float64(acWingSweep*y)
		zw := acWingZ + float64(acWingDihed*y)
		xf, zn := xle-0.05, zw-0.028
		rings = rings[:0]
		for k := range an {
			t := float64(k) / float64(an-1)
			p := 0.8 + float64(0.75*t) - float64(0.95*float64(t*t))
			rings = append(rings, ellipse(geom.Vec3{X: xf + float64(acNacelleLen*t), Y: y, Z: zn}, ey, ez,
				float64(acNacelleRad*p), float64(acNacelleRad*p), tc.get(nn)))
		}
		inlet, exhaust := geom.Vec3{X: xf, Y: y, Z: zn}, geom.Vec3{X: xf + acNacelleLen + 0.02, Y: y, Z: zn}
		loft(right, rings, &inlet, &exhaust)
		pylon, err := gen.Box(geom.AABB{
			Min: geom.Vec3{X: xf + 0.02, Y: y - 0.003, Z: zn + 0.008},
			Max: geom.Vec3{X: xle + 0.03, Y: y + 0.003, Z: zw},
		}, 1)
		if err != nil {
			return nil, errorf(kind, "%v", err)
		}
		appendMesh(right, pylon, geom.Identity())
	}
	appendMesh(m, right, geom.Identity())
	appendMapped(m, right, func(v geom.Vec3) geom.Vec3 { return geom.Vec3{X: v.X, Y: 0 - v.Y, Z: v.Z} }, true)

	// Vertical fin, its thickness along y: stations go up (+z), which the
	// ring order makes outward with the thickness direction -y.
	wing(m, tc, pt, tt, func(eta float64) (geom.Vec3, float64, float64) {
		z := float64(0.17 * eta)
		le := geom.Vec3{X: 0.78 + z, Z: float64(0.5*R) + z}
		return le, lerp(0.17, 0.045, eta), lerp(0.11, 0.09, eta)
	}, ex, geom.Vec3{Y: -1})
	return checkResult(kind, m)
}

// fuselageProfile returns the half width, half height and center height of
// the fuselage's cross-section at x in (0, 1).
func fuselageProfile(x float64) (ry, rz, zc float64) {
	R := acRadius
	switch {
	case x < 0.12:
		t := x / 0.12
		g := math.Sqrt(float64(t * (2 - t)))
		q := 1 - t
		return float64(R * g), float64(R * g), float64(-0.2 * R * float64(q*q))
	case x > 0.7:
		t := (x - 0.7) / 0.3
		f := 1 - float64(0.88*float64(t*t))
		return float64(R * f), float64(R * f), float64(0.75 * R * float64(t*t))
	}
	return R, R, 0
}

// wing appends a lifting surface: st ≥ 2 stations at η = k/(st-1), where
// station(η) gives the leading edge, the chord and the thickness ratio, each
// a symmetric NACA 00xx section of 2·p points along chord (the chord
// direction) and thick (the thickness direction), closed by fans to a point
// of the root and tip chords. The stations must follow each other along
// thick × chord.
func wing(m *mesh.TriMesh, tc trigCache, p, st int, station func(eta float64) (le geom.Vec3, chord, t float64), chord, thick geom.Vec3) {
	xs := make([]float64, p+1) // cosine spacing along the chord
	for i := range xs {
		_, c := portable.SinCosTurn(int64(i), int64(2*p))
		xs[i] = float64(0.5 * (1 - c))
	}
	xs[0], xs[p] = 0, 1
	rings := make([][]geom.Vec3, st)
	var root, tip geom.Vec3
	for k := range st {
		le, c, t := station(float64(k) / float64(st-1))
		ring := make([]geom.Vec3, 0, 2*p)
		for i := 0; i <= p; i++ {
			ring = append(ring, le.Add(comb(float64(c*xs[i]), chord, float64(c*naca(xs[i], t)), thick)))
		}
		for i := p - 1; i >= 1; i-- {
			ring = append(ring, le.Add(comb(float64(c*xs[i]), chord, 0-float64(c*naca(xs[i], t)), thick)))
		}
		rings[k] = ring
		mid := madd(le, float64(0.4*c), chord)
		if k == 0 {
			root = mid
		}
		tip = mid
	}
	loft(m, rings, &root, &tip)
}

// naca returns the half thickness of the symmetric NACA 4-digit section of
// thickness ratio t at x ∈ [0, 1] along the chord, with a closed trailing
// edge (zero at x = 0 and x = 1).
func naca(x, t float64) float64 {
	if x <= 0 || x >= 1 {
		return 0
	}
	p := float64(x*-0.1036) + 0.2843
	p = float64(x*p) - 0.3516
	p = float64(x*p) - 0.1260
	p = float64(x * p)
	return float64(5*t) * (float64(0.2969*math.Sqrt(x)) + p)
}
