package ncgen

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh"
	"github.com/collide3d/collide/mesh/gen"
)

// The mold parts span [0, MoldX] × [0, MoldY] in x and y (mm); their
// parting plane is z = 0.
const (
	MoldX = 120.0
	MoldY = 80.0
)

// MoldVariants is the number of mold parts Mold makes: seed % MoldVariants
// picks the part (the dissertation's industrial set had five), the rest of
// the seed varies its dimensions.
const MoldVariants = 5

// moldNames names the variants, in the order of seed % MoldVariants.
var moldNames = [MoldVariants]string{"bottle core", "bottle cavity", "flask core", "ribbed cavity", "twin cores"}

// MoldName returns the name of the mold part that seed makes: "bottle
// core", "bottle cavity", "flask core", "ribbed cavity" or "twin cores".
func MoldName(seed uint64) string { return moldNames[seed%MoldVariants] }

// moldSeq is the PCG stream of Mold's dimensions.
const moldSeq = 0x6d6f6c64

// bottle is a bottle lying along x on the parting plane: a surface of
// revolution about the line y = yc, z = 0, cut by the plane, its radius
// profile going from a rounded bottom through the body, a shoulder, the
// neck and a lip to a rounded end.
type bottle struct {
	x0, length float64 // the bottom at x0, the end at x0+length
	yc         float64
	body, neck float64 // radii
	bottom     float64 // length of the rounded bottom
	sh0, sh1   float64 // the shoulder, from the bottom (x - x0)
	lip0, lipW float64 // the lip ring, from the bottom, and its width
	lip        float64 // the lip's extra radius
	ribs       int     // ribs around the body
	ribDepth   float64
	zscale     float64 // heights are zscale × the round section's
	// panel, when panelW > 0, is a flat label panel cut into the body:
	// over [panel0, panel1] along the bottle and |y - yc| < panelW the
	// height is at most panelZ.
	panel0, panel1, panelW, panelZ float64
}

// radius returns the bottle's radius at s = x - x0 (0 ≤ s ≤ length).
func (b *bottle) radius(s float64) float64 {
	switch {
	case s < b.bottom:
		u := 1 - s/b.bottom
		return float64(b.body * math.Sqrt(1-float64(u*u)))
	case s < b.sh0:
		r := b.body
		if b.ribs > 0 {
			t := float64(float64(b.ribs) * ((s - b.bottom) / (b.sh0 - b.bottom)))
			w := 1 - math.Abs(float64(2*(t-math.Floor(t)))-1) // a triangle wave in [0, 1]
			r -= float64(b.ribDepth * smoothstep(w))
		}
		return r
	case s < b.sh1:
		return b.body + float64((b.neck-b.body)*smoothstep((s-b.sh0)/(b.sh1-b.sh0)))
	case s < b.lip0:
		return b.neck
	case s < b.lip0+b.lipW:
		u := float64(2*((s-b.lip0)/b.lipW)) - 1
		return b.neck + float64(b.lip*(1-float64(u*u)))
	}
	e0 := b.lip0 + b.lipW
	u := (s - e0) / (b.length - e0)
	return float64(b.neck * math.Sqrt(max(1-float64(u*u), 0)))
}

// raw returns the height of the round (scaled) section above (x, y) where
// the bottle is, else minus an approximate distance to its outline.
func (b *bottle) raw(x, y float64) float64 {
	s := x - b.x0
	dy := math.Abs(y - b.yc)
	if s < 0 || s > b.length {
		return -max(dy-b.body, -s, s-b.length, 0)
	}
	r := b.radius(s)
	if dy >= r {
		return r - dy
	}
	h := float64(b.zscale * math.Sqrt(float64((r-dy)*(r+dy))))
	if b.panelW > 0 && s > b.panel0 && s < b.panel1 && dy < b.panelW {
		h = min(h, b.panelZ)
	}
	return h
}

// smax returns a smooth maximum of 0 and x that is exactly 0 for x ≤ -k
// and exactly x for x ≥ k (the polynomial blend): the fillet between the
// parting plane and a part, of size about k.
func smax0(x, k float64) float64 {
	h := min(max(0.5+float64(0.5*(x/k)), 0), 1)
	return float64(x*h) + float64(k*float64(h*(1-h)))
}

// bump is a smooth bump of compact support: height a at (x, y), falling to
// 0 at distance r.
type bump struct{ x, y, r, a float64 }

func (b bump) at(x, y float64) float64 {
	dx, dy := x-b.x, y-b.y
	d := (float64(dx*dx) + float64(dy*dy)) / float64(b.r*b.r)
	if d >= 1 {
		return 0
	}
	w := 1 - d
	return float64(b.a * float64(w*float64(w*w)))
}

// moldShape is the height field of one mold part.
type moldShape struct {
	bottles []bottle
	bumps   []bump
	fillet  float64
	cavity  bool // heights are negated: a cavity below the parting plane
}

func (m *moldShape) height(x, y float64) float64 {
	raw := math.Inf(-1)
	for i := range m.bottles {
		raw = max(raw, m.bottles[i].raw(x, y))
	}
	h := smax0(raw, m.fillet)
	if h > 0 {
		mask := smoothstep(raw / 3) // only on the part, clear of its foot
		for _, b := range m.bumps {
			h += float64(mask * b.at(x, y))
		}
	}
	if m.cavity {
		return 0 - h // 0 - 0 is +0, never -0
	}
	return h
}

// newMoldShape returns the part of seed: the variant seed % MoldVariants,
// its dimensions varied by the rest of the seed.
func newMoldShape(seed uint64) *moldShape {
	rng := rand.New(rand.NewPCG(seed, moldSeq))
	vary := func(x, rel float64) float64 { // x × (1 ± rel)
		return float64(x * (1 + float64(rel*(float64(2*rng.Float64())-1))))
	}
	base := func(x0, length, yc, body, neck, zscale float64) bottle {
		return bottle{
			x0: x0, length: length, yc: yc, body: body, neck: neck, zscale: zscale,
			bottom: float64(0.12 * length), sh0: float64(0.55 * length), sh1: float64(0.72 * length),
			lip0: float64(0.86 * length), lipW: float64(0.06 * length), lip: float64(0.25 * neck),
		}
	}
	m := &moldShape{fillet: vary(3, 0.2)}
	yc := vary(MoldY/2, 0.05)
	switch seed % MoldVariants {
	case 0: // bottle core
		m.bottles = []bottle{base(vary(12, 0.2), vary(94, 0.04), yc, vary(16, 0.1), vary(6, 0.1), 1)}
	case 1: // bottle cavity
		m.bottles = []bottle{base(vary(12, 0.2), vary(94, 0.04), yc, vary(15, 0.1), vary(6, 0.1), vary(1.1, 0.05))}
		m.cavity = true
	case 2: // flask core with a label panel
		b := base(vary(14, 0.2), vary(90, 0.04), yc, vary(22, 0.08), vary(7, 0.1), vary(0.55, 0.1))
		b.panel0, b.panel1 = float64(0.2*b.length), float64(0.48*b.length)
		b.panelW = float64(0.6 * b.body)
		b.panelZ = float64(0.8 * float64(b.zscale*b.body))
		m.bottles = []bottle{b}
	case 3: // ribbed cavity
		b := base(vary(12, 0.2), vary(94, 0.04), yc, vary(15, 0.1), vary(6, 0.1), 1)
		b.ribs = 4 + rng.IntN(3)
		b.ribDepth = vary(1.5, 0.2)
		m.bottles = []bottle{b}
		m.cavity = true
	default: // twin cores
		d := vary(18, 0.05)
		m.bottles = []bottle{
			base(vary(14, 0.2), vary(80, 0.05), MoldY/2-d, vary(10, 0.1), vary(4, 0.1), 1),
			base(vary(14, 0.2), vary(80, 0.05), MoldY/2+d, vary(10, 0.1), vary(4, 0.1), 1),
		}
	}
	// A few bumps (embossed marks) on the first bottle's body.
	b := &m.bottles[0]
	for range 2 + rng.IntN(3) {
		s := float64(b.bottom + float64((b.sh0-b.bottom)*rng.Float64()))
		off := float64(0.5 * float64(b.body*(float64(2*rng.Float64())-1)))
		m.bumps = append(m.bumps, bump{x: b.x0 + s, y: b.yc + off, r: vary(5, 0.3), a: vary(1.5, 0.4)})
	}
	return m
}

// Mold returns a mold-like part: the height field of a bottle-shaped core
// or cavity on a flat parting plane, over [0, MoldX] × [0, MoldY] mm (120
// × 80), sampled on an n×n grid (2·(n-1)² triangles, facing up, like
// mesh/gen.Terrain's): a rounded bottom, a body (with ribs on one
// variant, a flat label panel on another), a shoulder, a neck with a lip
// ring, a few smooth bumps on the body and a fillet of about 3 mm where
// the part meets the parting plane z = 0, which is exactly flat around it
// out to the border. seed % MoldVariants picks the part (see MoldName):
// a bottle core (up to about 18 mm high), a bottle cavity (about 18 mm
// deep), a flatter flask core with a recessed label panel, a ribbed
// cavity, and two small cores side by side; the rest of the seed varies
// their dimensions by a few per cent. n must be at least 2.
func Mold(n int, seed uint64) (*mesh.TriMesh, error) {
	if n < 2 {
		return nil, fmt.Errorf("ncgen: mold: n must be at least 2, got %d", n)
	}
	if n > 1<<20 || 2*int64(n-1)*int64(n-1) > gen.MaxTriangles {
		return nil, fmt.Errorf("ncgen: mold: n = %d gives more than %d triangles", n, gen.MaxTriangles)
	}
	shape := newMoldShape(seed)
	return heightField(n, MoldX, MoldY, shape.height), nil
}

// heightField samples z = f(x, y) on an n×n grid over [0, sx] × [0, sy],
// vertex (i, j) number j·n+i, two triangles per square facing up.
func heightField(n int, sx, sy float64, f func(x, y float64) float64) *mesh.TriMesh {
	m := &mesh.TriMesh{
		Verts: make([]geom.Vec3, n*n),
		Tris:  make([][3]int32, 0, 2*(n-1)*(n-1)),
	}
	at := func(size float64, i int) float64 {
		if i == n-1 {
			return size
		}
		return float64(size * (float64(i) / float64(n-1)))
	}
	for j := range n {
		y := at(sy, j)
		for i := range n {
			x := at(sx, i)
			m.Verts[j*n+i] = geom.Vec3{X: x, Y: y, Z: f(x, y)}
		}
	}
	for j := range n - 1 {
		for i := range n - 1 {
			p00 := int32(j*n + i)
			p10, p01, p11 := p00+1, p00+int32(n), p00+int32(n)+1
			m.Tris = append(m.Tris, [3]int32{p00, p10, p11}, [3]int32{p00, p11, p01})
		}
	}
	return m
}
