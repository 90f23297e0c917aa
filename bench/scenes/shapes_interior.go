package scenes

import (
	"math"

	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/internal/portable"
	"github.com/collide3d/collide/mesh"
)

// interiorStream is the PCG stream selector of Interior's clutter.
const interiorStream = 0x1e7e5eed00000004

// InteriorMinTris is the smallest request Interior accepts.
const InteriorMinTris = 4000

// interiorDetailTris is the request from which Interior adds the detail
// parts (headrests, trays, more pipes, brackets, clamps, rails and poles).
const interiorDetailTris = 20000

// Cabin dimensions.
const (
	cabinLength = 10.0
	cabinRadius = 3.0
	cabinFloor  = -1.2
	cargoFloor  = -2.5
	cabinRows   = 11
	cabinPitch  = 0.85
)

// Interior returns a cluttered section of an airliner's cabin: the
// environment of Klosowski et al.'s aircraft-interior scene (169,944
// triangles there), through which a Hand moves. The units are meters: the
// cabin runs along x from 0 to 10, inside a cylindrical fuselage shell of
// radius 3 about the x axis (its inner surface, normals inward), with the
// cabin floor at z = -1.2 and the cargo floor at z = -2.5. Every vertex lies
// in [0, 10] × [-3, 3] × [-3, 3], within 3 of the x axis.
//
// The structure: the shell; the cabin floor (a slab 5.44 wide); 11 rows of
// seats, three abreast on each side of an aisle 1.1 wide (|y| < 0.55), each
// block of three a cushion, a back, four armrests, two legs, and three
// headrests and three trays on the back; two rows of eight overhead bins
// with handles and brackets to the shell; flat and sloped ceiling panels
// with light strips; two air ducts above the ceiling, two ducts along the
// floor, four cables on each row of bins, six vertical pipes on each wall,
// handrails under the bins and four grab poles (capped cylinders), with
// brackets and clamps; under the floor, 20 floor beams, two cable runs, the
// cargo floor and four cargo containers. All but the cylinders are boxes.
// Requests below 20,000 triangles leave out the headrests, trays, lights,
// clamps, rails, poles and the bin and floor-duct brackets, and half the
// beams, handles, duct brackets, cables and vertical pipes.
//
// Every box is a grid of quads of side about h (at least one per face),
// every cylinder has about 2πr/h sides (6 to 24) and rings about h apart,
// the shell about 2π·3/h sides (at least 24) and rings about h apart; the
// edge length h is about the smallest for which the structure takes at
// most 62% of tris (or h = 10, the coarsest, when even that takes more;
// h ≈ 0.14 at 169,944 triangles, 1.5 at 8,000).
//
// The clutter fills the rest: random small objects tessellated at the same
// h, added while they fit: bags and boxes (turned about z) and bottles on
// the seats, cases and rolls on the aisle floor, boxes under the seats, cups
// on the armrests, oxygen masks hanging from the bins on cords, and bags in
// the cargo hold; then 12-triangle boxes on the aisle floor fill the last
// triangles, so the count is between tris-11 and tris. The parts overlap
// and touch each other freely (it is one soup). tris must be at least
// InteriorMinTris (4,000).
func Interior(tris int, seed uint64) (*mesh.TriMesh, error) {
	const kind = "interior"
	if err := checkTris(kind, tris, InteriorMinTris); err != nil {
		return nil, err
	}
	detail := tris >= interiorDetailTris
	h, ok := interiorEdge(tris, detail)
	if !ok {
		return nil, errorf(kind, "tris = %d is too few for the cabin", tris)
	}
	b := &builder{m: &mesh.TriMesh{}, h: h, tc: trigCache{}}
	b.m.Tris = make([][3]int32, 0, tris)
	cabin(b, detail)
	clutter(b, tris, seed)
	return checkResult(kind, b.m)
}

// interiorEdge returns the edge length h of Interior's structure for a
// request of tris triangles, and false if the coarsest structure leaves
// fewer than 200 triangles for the clutter.
func interiorEdge(tris int, detail bool) (float64, bool) {
	count := func(h float64) int {
		b := &builder{dry: true, h: h}
		cabin(b, detail)
		return b.n
	}
	const coarsest = 10.0
	if count(coarsest) > tris-200 {
		return 0, false
	}
	target := int(0.62 * float64(tris))
	if count(coarsest) >= target {
		return coarsest, true
	}
	// The finest h whose structure fits: bisect on a log scale, at the
	// geometric means (the count falls with h, if not strictly).
	lo, hi := 1e-4, coarsest
	for range 40 {
		mid := math.Sqrt(float64(lo * hi))
		if count(mid) <= target {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi, true
}

// builder appends boxes and cylinders tessellated at the edge length h, or
// only counts their triangles when dry.
type builder struct {
	m   *mesh.TriMesh
	n   int
	dry bool
	h   float64
	tc  trigCache
}

// div returns the number of parts of length about h in l, at least 1.
func (b *builder) div(l float64) int {
	q := l / b.h
	if q > 1<<24 {
		return 1 << 24
	}
	return max(1, roundInt(q))
}

// boxDivs returns the grid divisions of a box of the given size.
func (b *builder) boxDivs(size geom.Vec3) [3]int {
	return [3]int{b.div(size.X), b.div(size.Y), b.div(size.Z)}
}

// box appends the axis-aligned box lo-hi.
func (b *builder) box(lo, hi geom.Vec3) {
	n := b.boxDivs(hi.Sub(lo))
	b.n += gridBoxCount(n)
	if !b.dry {
		gridBox(b.m, geom.AABB{Min: lo, Max: hi}, n)
	}
}

// boxAt appends the box of the given size centered at the origin, rotated
// by rot and moved to c.
func (b *builder) boxAt(size geom.Vec3, rot geom.Mat3, c geom.Vec3) {
	n := b.boxDivs(size)
	b.n += gridBoxCount(n)
	if !b.dry {
		half := scl(0.5, size)
		tmp := &mesh.TriMesh{}
		gridBox(tmp, geom.AABB{Min: half.Neg(), Max: half}, n)
		appendMesh(b.m, tmp, geom.Pose{R: rot, T: c})
	}
}

// cylDivs returns the sides and segments of a cylinder of length l and
// radius r.
func (b *builder) cylDivs(l, r float64) (s, nl int) {
	return clampInt(b.div(float64(2*math.Pi*r)), 6, 24), b.div(l)
}

// cyl appends the capped cylinder of radius r about the segment p-q.
func (b *builder) cyl(p, q geom.Vec3, r float64) {
	d := q.Sub(p)
	l := math.Sqrt(d.Dot(d))
	s, nl := b.cylDivs(l, r)
	b.n += loftCount(s, nl+1, 2)
	if b.dry {
		return
	}
	t := portable.Unit(d)
	u := anyPerpendicular(t)
	v := t.Cross(u)
	tab := b.tc.get(s)
	rings := make([][]geom.Vec3, nl+1)
	for k := range rings {
		c := q
		if k < nl {
			c = lerpVec(p, q, float64(k)/float64(nl))
		}
		rings[k] = ellipse(c, u, v, r, r, tab)
	}
	loft(b.m, rings, &p, &q)
}

// shell appends the inner surface of the fuselage: an open tube of radius
// cabinRadius along x, normals toward the axis.
func (b *builder) shell() {
	na := max(24, b.div(2*math.Pi*cabinRadius))
	nl := b.div(cabinLength)
	b.n += loftCount(na, nl+1, 0)
	if b.dry {
		return
	}
	tab := b.tc.get(na)
	rings := make([][]geom.Vec3, nl+1)
	xs := splits(0, cabinLength, nl)
	for k := range rings {
		// Counterclockwise about z×y = -x while the rings go along +x:
		// the normals point inward.
		rings[k] = ellipse(geom.Vec3{X: xs[k]}, geom.Vec3{Z: 1}, geom.Vec3{Y: 1}, cabinRadius, cabinRadius, tab)
	}
	loft(b.m, rings, nil, nil)
}

// side returns the interval [lo, hi] on the side sg (+1: y > 0, -1: y < 0).
func side(sg, lo, hi float64) (float64, float64) {
	if sg > 0 {
		return lo, hi
	}
	return 0 - hi, 0 - lo
}

// cabin appends the structure of the cabin (see Interior).
func cabin(b *builder, detail bool) {
	v := func(x, y, z float64) geom.Vec3 { return geom.Vec3{X: x, Y: y, Z: z} }
	b.shell()
	b.box(v(0, -2.72, cabinFloor-0.05), v(cabinLength, 2.72, cabinFloor))
	// The lower lobe: floor beams, cables, the cargo floor and containers.
	for i := range 20 {
		if detail || i%2 == 0 {
			x := 0.3 + float64(0.5*float64(i))
			b.box(v(x, -2.6, cabinFloor-0.25), v(x+0.06, 2.6, cabinFloor-0.05))
		}
	}
	for _, y := range []float64{-1, 1} {
		b.cyl(v(0, y, cabinFloor-0.15), v(cabinLength, y, cabinFloor-0.15), 0.04)
	}
	b.box(v(0, -1.55, cargoFloor-0.05), v(cabinLength, 1.55, cargoFloor))
	for j := range 4 {
		x := 0.4 + float64(2.45*float64(j))
		b.box(v(x, -1.4, cargoFloor), v(x+1.5, 1.4, cargoFloor+1))
	}
	sides := [2]float64{-1, 1}
	for r := range cabinRows {
		x0 := 0.4 + float64(cabinPitch*float64(r))
		for _, sg := range sides {
			y0, y1 := side(sg, 0.6, 2.25)
			b.box(v(x0, y0, -0.8), v(x0+0.48, y1, -0.68))    // cushion
			b.box(v(x0+0.46, y0, -0.8), v(x0+0.56, y1, 0.0)) // back
			for k := range 4 {
				c := 0.575 + float64(0.55*float64(k))
				a0, a1 := side(sg, c-0.025, c+0.025)
				b.box(v(x0+0.05, a0, -0.58), v(x0+0.47, a1, -0.52))
			}
			for _, c := range []float64{0.8, 2.0} {
				l0, l1 := side(sg, c-0.03, c+0.03)
				b.box(v(x0+0.2, l0, cabinFloor), v(x0+0.26, l1, -0.8))
			}
			if !detail {
				continue
			}
			for i := range 3 {
				c := 0.6 + float64(0.55*(float64(i)+0.5))
				h0, h1 := side(sg, c-0.15, c+0.15)
				b.box(v(x0+0.40, h0, -0.12), v(x0+0.46, h1, 0.06)) // headrest
				t0, t1 := side(sg, c-0.18, c+0.18)
				b.box(v(x0+0.56, t0, -0.42), v(x0+0.59, t1, -0.2)) // tray
			}
		}
	}
	for i := range 8 {
		xa := 0.1 + float64(1.225*float64(i))
		for _, sg := range sides {
			y0, y1 := side(sg, 1.55, 2.35)
			b.box(v(xa, y0, 0.95), v(xa+1.2, y1, 1.55)) // bin
			if detail || i%2 == 0 {
				h0, h1 := side(sg, 1.52, 1.55)
				b.box(v(xa+0.5, h0, 1.0), v(xa+0.7, h1, 1.05)) // handle
			}
			if detail {
				k0, k1 := side(sg, 1.9, 2.0)
				b.box(v(xa, k0, 1.55), v(xa+0.05, k1, 2.2)) // bin bracket
				l0, l1 := side(sg, 1.0, 1.1)
				b.box(v(xa, l0, 2.11), v(xa+1.2, l1, 2.15)) // light strip
				c0, c1 := side(sg, 1.66, 2.0)
				b.box(v(xa+0.6, c0, 1.55), v(xa+0.64, c1, 1.64)) // cable clamp
			}
			// Sloped panel from the ceiling panel's edge down to the bin.
			b.boxAt(v(1.2, 0.7, 0.04), rotTurn(geom.Vec3{X: 1}, int64(0-sg), 6), v(xa+0.6, float64(sg*1.375), 1.85))
		}
		b.box(v(xa, -1.2, 2.15), v(xa+1.2, 1.2, 2.2)) // ceiling panel
	}
	for _, sg := range sides {
		b.cyl(v(0, float64(sg*0.7), 2.45), v(cabinLength, float64(sg*0.7), 2.45), 0.15) // air duct
		b.cyl(v(0, float64(sg*2.5), -1.0), v(cabinLength, float64(sg*2.5), -1.0), 0.08) // floor duct
		for k := range 4 {
			if detail || k < 2 {
				y := float64(sg * (1.72 + float64(0.075*float64(k))))
				b.cyl(v(0.05, y, 1.6), v(cabinLength-0.05, y, 1.6), 0.03) // cable
			}
		}
		for j := range 6 {
			if detail || j%2 == 0 {
				x := 0.5 + float64(1.8*float64(j))
				b.cyl(v(x, float64(sg*2.6), cabinFloor), v(x, float64(sg*2.6), 0.9), 0.04) // vertical pipe
			}
		}
		for i := 1; i < 10; i++ {
			x := float64(i)
			if detail || i%2 == 0 {
				d0, d1 := side(sg, 0.65, 0.75)
				b.box(v(x, d0, 2.6), v(x+0.05, d1, 2.85)) // duct bracket
			}
			if detail {
				f0, f1 := side(sg, 2.45, 2.55)
				b.box(v(x, f0, cabinFloor), v(x+0.05, f1, -1.08)) // floor-duct bracket
			}
		}
		if detail {
			b.cyl(v(0.1, float64(sg*1.5), 0.9), v(cabinLength-0.1, float64(sg*1.5), 0.9), 0.02) // handrail
			for _, x := range []float64{0.15, cabinLength - 0.15} {
				b.cyl(v(x, float64(sg*0.45), cabinFloor), v(x, float64(sg*0.45), 2.15), 0.03) // grab pole
			}
		}
	}
}

// clutter appends random small objects to b until it holds about tris
// triangles (see Interior).
func clutter(b *builder, tris int, seed uint64) {
	r := newRNG(seed, interiorStream)
	v := func(x, y, z float64) geom.Vec3 { return geom.Vec3{X: x, Y: y, Z: z} }
	ez := geom.Vec3{Z: 1}
	left := func() int { return tris - len(b.m.Tris) }
	seatX := func() float64 { return 0.4 + float64(cabinPitch*float64(r.intn(cabinRows))) }
	for left() >= 12 {
		// Draw an object; add it if it fits, else a 12-triangle box.
		var add func(b *builder)
		switch k := r.float(); {
		case k < 0.27: // on a seat
			x0 := seatX()
			sg := r.sign()
			seat := r.intn(3)
			yc := float64(sg * (0.6 + float64(0.55*(float64(seat)+r.between(0.25, 0.75)))))
			xc := x0 + r.between(0.12, 0.36)
			if r.chance(0.7) {
				size := v(r.between(0.1, 0.35), r.between(0.1, 0.35), r.between(0.03, 0.25))
				rot := rotTurn(ez, int64(r.intn(32)), 32)
				z := -0.68 + float64(0.5*size.Z) + r.between(0, 0.1)
				add = func(b *builder) { b.boxAt(size, rot, v(xc, yc, z)) }
			} else {
				rad, hgt := r.between(0.025, 0.05), r.between(0.08, 0.3)
				add = func(b *builder) { b.cyl(v(xc, yc, -0.68), v(xc, yc, -0.68+hgt), rad) }
			}
		case k < 0.5: // on the aisle floor
			xc, yc := r.between(0.4, 9.6), r.between(-0.4, 0.4)
			if r.chance(0.65) {
				size := v(r.between(0.15, 0.45), r.between(0.1, 0.35), r.between(0.1, 0.5))
				rot := rotTurn(ez, int64(r.intn(32)), 32)
				add = func(b *builder) { b.boxAt(size, rot, v(xc, yc, cabinFloor+float64(0.5*size.Z))) }
			} else {
				rad, l := r.between(0.03, 0.1), r.between(0.2, 0.6)
				d := v(float64(0.5*l), 0, 0)
				if r.chance(0.5) {
					d = v(0, float64(0.5*l), 0)
				}
				c := v(xc, yc, cabinFloor+rad)
				add = func(b *builder) { b.cyl(c.Sub(d), c.Add(d), rad) }
			}
		case k < 0.68: // under a seat
			x0 := seatX()
			size := v(r.between(0.1, 0.35), r.between(0.1, 0.35), r.between(0.05, 0.35))
			c := v(x0+r.between(0.15, 0.33), float64(r.sign()*r.between(0.8, 2.05)), cabinFloor+float64(0.5*size.Z))
			add = func(b *builder) { b.boxAt(size, geom.Identity3(), c) }
		case k < 0.77: // a cup on an armrest
			x0 := seatX()
			y := float64(r.sign() * (0.575 + float64(0.55*float64(r.intn(4)))))
			xc := x0 + r.between(0.1, 0.4)
			rad, hgt := r.between(0.025, 0.04), r.between(0.07, 0.12)
			add = func(b *builder) { b.cyl(v(xc, y, -0.52), v(xc, y, -0.52+hgt), rad) }
		case k < 0.9: // an oxygen mask hanging from a bin on a cord
			xc := r.between(0.2, 9.8)
			yc := float64(r.sign() * r.between(1.65, 2.25))
			l := r.between(0.2, 0.6)
			add = func(b *builder) {
				b.cyl(v(xc, yc, 0.95), v(xc, yc, 0.95-l), 0.006)
				b.boxAt(v(0.08, 0.06, 0.05), geom.Identity3(), v(xc, yc, 0.95-l-0.025))
			}
		default: // a bag on the floor of the cargo hold
			size := v(r.between(0.2, 0.6), r.between(0.15, 0.45), r.between(0.1, 0.4))
			rot := rotTurn(ez, int64(r.intn(32)), 32)
			c := v(r.between(0.4, 9.6), r.between(-1.2, 1.2), cargoFloor+float64(0.5*size.Z))
			add = func(b *builder) { b.boxAt(size, rot, c) }
		}
		d := &builder{dry: true, h: b.h}
		add(d)
		if d.n <= left() {
			add(b)
			continue
		}
		// A 12-triangle box on the aisle floor.
		c := v(r.between(0.4, 9.6), r.between(-0.4, 0.4), cabinFloor+0.05)
		gridBox(b.m, geom.AABB{Min: c.Sub(v(0.05, 0.05, 0.05)), Max: c.Add(v(0.05, 0.05, 0.05))}, [3]int{1, 1, 1})
	}
}
