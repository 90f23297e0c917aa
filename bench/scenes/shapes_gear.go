package scenes

import (
	"math"

	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/internal/portable"
	"github.com/collide3d/collide/mesh"
)

// The spur gears of the gears scene, in units of the module (the pitch
// diameter over the number of teeth).
const (
	// GearMinTeeth is the fewest teeth Gear accepts: with fewer, the
	// involute's roll angle at the tip would pass π/4 (the range of
	// portable.SinCosSmall) and the tips would come to a point.
	GearMinTeeth = 12
	// GearMaxTeeth is the most teeth Gear accepts.
	GearMaxTeeth = 1000
	// GearBacklash is the backlash of a pair of gears at the standard
	// center distance: each tooth is thinner than the standard's half pitch
	// by GearBacklash/2 along the pitch circle.
	GearBacklash = 0.1
	// gearPressureTurns is the pressure angle, 20°, in turns.
	gearPressureTurns = 18
)

// gearLevel is the resolution of a gear: the segments of each involute
// flank, of the tip and of the root arcs, and the layers across the face.
type gearLevel struct{ flank, tip, root, layers int }

func gearLevelOf(n int) gearLevel {
	h := max(2, (n+1)/2)
	return gearLevel{flank: n, tip: h, root: h, layers: max(1, (n+1)/2)}
}

// points returns the points of the outline per tooth.
func (l gearLevel) points(below bool) int {
	q := 2*(l.flank+1) + (l.tip - 1) + (l.root - 1)
	if below {
		q += 2
	}
	return q
}

// gearTris returns the triangle count of a gear of z teeth at level l.
func gearTris(z int, l gearLevel, below bool) int {
	return 4 * z * l.points(below) * (l.layers + 2)
}

// gearRadii returns the pitch, base, tip (addendum 1), root (dedendum
// 1.25) and bore radii of a gear of z teeth, module 1.
func gearRadii(z int) (pitch, base, tip, root, bore float64) {
	pitch = float64(z) / 2
	_, cos := portable.SinCosTurn(1, gearPressureTurns)
	base = float64(pitch * cos)
	tip = pitch + 1
	root = pitch - 1.25
	bore = float64(0.4 * root)
	return
}

// Gear returns a spur gear of z teeth (GearMinTeeth ≤ z ≤ GearMaxTeeth),
// module 1, pressure angle 20°, its axis the z axis, its faces at
// z = ±width/2 (0 < width ≤ 1000), centered at the origin, with a tooth centered on the +x
// axis: a closed surface, consistently oriented outward, with a bore of
// 0.4 times the root radius.
//
// The teeth have involute flanks from the base circle to the tip circle
// (radius z/2 + 1); below the base circle, when the root circle (radius
// z/2 - 1.25) is inside it, each flank goes on straight to the root circle,
// the tooth widening by a tenth of the half-space there (a stand-in for the
// fillet, clear of the mate's tip); the tips and the roots are arcs of
// circles. Each tooth is thinner than the standard's half pitch by
// GearBacklash/2 along the pitch circle, so that two gears at the standard
// center distance (z₁ + z₂)/2 have GearBacklash of play.
//
// The outline has q points per tooth, every one at a distinct angle, and
// the face has L layers: the triangles number 4·z·q·(L+2), and Gear picks
// the resolution whose count is the closest to tris (the coarsest has
// q = 6, or 8 when the flanks go below the base circle, and L = 1).
func Gear(z int, width float64, tris int) (*mesh.TriMesh, error) {
	const kind = "gear"
	if z < GearMinTeeth || z > GearMaxTeeth {
		return nil, errorf(kind, "teeth must be in [%d, %d], got %d", GearMinTeeth, GearMaxTeeth, z)
	}
	if !(width > 0 && width <= 1000) {
		return nil, errorf(kind, "width must be in (0, 1000], got %g", width)
	}
	if err := checkTris(kind, tris, 1); err != nil {
		return nil, err
	}
	_, base, _, root, _ := gearRadii(z)
	below := root < base
	lv := gearLevelOf(1)
	for n := 2; n <= 64; n++ {
		l := gearLevelOf(n)
		if abs(gearTris(z, l, below)-tris) >= abs(gearTris(z, lv, below)-tris) {
			break
		}
		lv = l
	}
	return checkResult(kind, gearMesh(z, width, lv))
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// gearOutline returns the outline of a gear of z teeth at level lv,
// counterclockwise, every point at a larger angle than the one before.
func gearOutline(z int, lv gearLevel) []geom.Vec3 {
	pitch, base, tip, root, _ := gearRadii(z)
	below := root < base
	sinP, cosP := portable.SinCosTurn(1, gearPressureTurns)
	// inv(20°) = tan 20° - 20° (in radians: π/9).
	inv := sinP/cosP - 2*math.Pi/gearPressureTurns
	halfPitch := math.Pi / float64(z)
	// psiB: the half angle of a tooth at the base circle.
	psiB := halfPitch/2 + inv - GearBacklash/2/(2*pitch)
	psiF := psiB + 0.1*(halfPitch-psiB) // at the root, below the base circle
	ta2 := float64(tip*tip)/float64(base*base) - 1
	t02 := 0.0
	if !below {
		t02 = float64(root*root)/float64(base*base) - 1
	}
	involute := func(t float64) (x, y float64) {
		s, c := portable.SinCosSmall(t)
		return float64(base * (c + float64(t*s))), float64(base * (s - float64(t*c)))
	}
	rot := func(s, c, x, y float64) geom.Vec3 {
		return geom.Vec3{X: float64(c*x) - float64(s*y), Y: float64(s*x) + float64(c*y)}
	}
	sB, cB := portable.SinCosSmall(psiB)
	sF, cF := portable.SinCosSmall(psiF)
	// One tooth, centered on +x.
	var tooth []geom.Vec3
	if below {
		tooth = append(tooth, geom.Vec3{X: float64(root * cF), Y: -float64(root * sF)})
	}
	flank := make([][2]float64, lv.flank+1)
	for i := range flank {
		// Uniform in t², so about uniform in arc length.
		t := math.Sqrt(t02 + float64((ta2-t02)*float64(i))/float64(lv.flank))
		flank[i][0], flank[i][1] = involute(t)
	}
	for _, p := range flank { // the flank on the -y side, rising
		tooth = append(tooth, rot(-sB, cB, p[0], p[1]))
	}
	a, b := tooth[len(tooth)-1], geom.Vec3{}
	b = rot(sB, cB, flank[lv.flank][0], -flank[lv.flank][1])
	for k := 1; k < lv.tip; k++ {
		tooth = append(tooth, scl(tip, portable.Unit(lerpVec(a, b, float64(k)/float64(lv.tip)))))
	}
	for i := lv.flank; i >= 0; i-- { // the flank on the +y side, falling
		tooth = append(tooth, rot(sB, cB, flank[i][0], -flank[i][1]))
	}
	if below {
		tooth = append(tooth, geom.Vec3{X: float64(root * cF), Y: float64(root * sF)})
	}
	out := make([]geom.Vec3, 0, z*lv.points(below))
	for j := range z {
		s, c := portable.SinCosTurn(int64(j), int64(z))
		for _, p := range tooth {
			out = append(out, rot(s, c, p.X, p.Y))
		}
		// The root arc to the next tooth.
		s1, c1 := portable.SinCosTurn(int64(j+1), int64(z))
		a := rot(s, c, tooth[len(tooth)-1].X, tooth[len(tooth)-1].Y)
		b := rot(s1, c1, tooth[0].X, tooth[0].Y)
		for k := 1; k < lv.root; k++ {
			out = append(out, scl(root, portable.Unit(lerpVec(a, b, float64(k)/float64(lv.root)))))
		}
	}
	return out
}

// gearMesh builds the gear: the outline, a ring half a module inside the
// root circle and the bore, each with a point at the angle of each point
// of the outline, on lv.layers+1 planes across the face; the outer and bore
// walls between the planes; and the annular faces, in two bands (outline
// to ring, ring to bore) so that the triangles next to the teeth are short.
func gearMesh(z int, width float64, lv gearLevel) *mesh.TriMesh {
	_, _, _, root, bore := gearRadii(z)
	outline := gearOutline(z, lv)
	n := len(outline)
	ring := make([]geom.Vec3, n)
	inner := make([]geom.Vec3, n)
	for i, p := range outline {
		u := portable.Unit(p)
		ring[i], inner[i] = scl(root-0.5, u), scl(bore, u)
	}
	m := &mesh.TriMesh{}
	for k := 0; k <= lv.layers; k++ {
		h := float64(width*float64(k))/float64(lv.layers) - width/2
		for _, p := range outline {
			m.Verts = append(m.Verts, geom.Vec3{X: p.X, Y: p.Y, Z: h})
		}
		for _, p := range inner {
			m.Verts = append(m.Verts, geom.Vec3{X: p.X, Y: p.Y, Z: h})
		}
	}
	// The rings, on the two faces only.
	ringAt := [2]int32{}
	for f, h := range []float64{-width / 2, width / 2} {
		ringAt[f] = int32(len(m.Verts))
		for _, p := range ring {
			m.Verts = append(m.Verts, geom.Vec3{X: p.X, Y: p.Y, Z: h})
		}
	}
	o := func(k, i int) int32 { return int32(2*n*k + i%n) }
	in := func(k, i int) int32 { return int32(2*n*k + n + i%n) }
	rg := func(f, i int) int32 { return ringAt[f] + int32(i%n) }
	for k := 0; k < lv.layers; k++ {
		for i := range n {
			// The outer wall faces out, the bore wall in (towards the axis).
			m.Tris = append(m.Tris,
				[3]int32{o(k, i), o(k, i+1), o(k+1, i+1)}, [3]int32{o(k, i), o(k+1, i+1), o(k+1, i)},
				[3]int32{in(k, i), in(k+1, i+1), in(k, i+1)}, [3]int32{in(k, i), in(k+1, i), in(k+1, i+1)})
		}
	}
	top := lv.layers
	for i := range n {
		// Each quad between two of the curves spans the same angles on
		// both, so it is convex; the top faces up, the bottom down.
		m.Tris = append(m.Tris,
			[3]int32{o(top, i), o(top, i+1), rg(1, i+1)}, [3]int32{o(top, i), rg(1, i+1), rg(1, i)},
			[3]int32{rg(1, i), rg(1, i+1), in(top, i+1)}, [3]int32{rg(1, i), in(top, i+1), in(top, i)},
			[3]int32{o(0, i), rg(0, i+1), o(0, i+1)}, [3]int32{o(0, i), rg(0, i), rg(0, i+1)},
			[3]int32{rg(0, i), in(0, i+1), rg(0, i+1)}, [3]int32{rg(0, i), in(0, i), in(0, i+1)})
	}
	return m
}
