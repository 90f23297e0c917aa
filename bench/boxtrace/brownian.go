package boxtrace

import (
	"io"
	"math"
	"math/rand/v2"

	"github.com/collide3d/collide/geom"
)

// BrownianConfig describes a trace of boxes in Brownian motion in a cube
// (Brownian gives the usual one).
type BrownianConfig struct {
	N, Steps int
	Seed     uint64
	// Static is the fraction of objects that are static (never moved).
	Static float64
	// Fill is the fraction of the cube's volume the boxes fill (they may
	// overlap): it sets the side of the cube, so the pairs per object; 0
	// means 0.2, about one overlapping pair per object.
	Fill float64
	// Sigma is the standard deviation of a box's displacement per step
	// along each axis, boxes being 0.5 to 1.5 on a side (0: 0.05). Boxes
	// bounce off the cube's walls.
	Sigma float64
	// Grid, when > 0, puts every box's corners on multiples of Grid (sides
	// at least Grid), so that many boxes touch exactly, at faces, edges and
	// corners; a box then moves by whole multiples of Grid. Use a power of
	// two so that the coordinates are exact in float32 too.
	Grid float64
	// Churn is the probability that a moving object is removed in a step;
	// a removed object comes back (same id, a new place, static with
	// probability Static) with probability 1/2 at each later step. A static
	// object starts moving with probability Churn/4 a step.
	Churn float64
}

// Brownian returns a trace of n boxes (sides 0.5 to 1.5) in Brownian
// motion for steps steps in a cube sized so that they fill a fifth of it, a
// tenth of them static; step 0 adds them all and every later step moves
// every moving box.
func Brownian(n, steps int, seed uint64) Source {
	return BrownianConfig{N: n, Steps: steps, Seed: seed, Static: 0.1}.Source()
}

// Source returns the trace c describes, generated step by step.
func (c BrownianConfig) Source() Source {
	if c.Fill <= 0 {
		c.Fill = 0.2
	}
	if c.Sigma <= 0 {
		c.Sigma = 0.05
	}
	// Sides are uniform in [0.5, 1.5]: the mean volume is E[s]^3 = 1.
	side := math.Cbrt(float64(c.N) / c.Fill)
	if c.Grid > 0 {
		side = math.Ceil(side/c.Grid) * c.Grid
	}
	g := &brownian{c: c, side: side, r: rand.New(rand.NewPCG(c.Seed, 0x62726f776e))}
	g.center = make([]geom.Vec3, c.N)
	g.half = make([]geom.Vec3, c.N)
	g.static = make([]bool, c.N)
	g.present = make([]bool, c.N)
	return g
}

type brownian struct {
	c       BrownianConfig
	side    float64
	r       *rand.Rand
	step    int
	center  []geom.Vec3
	half    []geom.Vec3
	static  []bool
	present []bool
}

func (g *brownian) Header() (int, int) { return g.c.N, g.c.Steps }

// place gives object i a new size and place.
func (g *brownian) place(i int) {
	h := geom.V(0.25+g.r.Float64()*0.5, 0.25+g.r.Float64()*0.5, 0.25+g.r.Float64()*0.5)
	g.half[i] = h
	g.center[i] = geom.V(h.X+g.r.Float64()*(g.side-2*h.X), h.Y+g.r.Float64()*(g.side-2*h.Y), h.Z+g.r.Float64()*(g.side-2*h.Z))
	g.static[i] = g.r.Float64() < g.c.Static
	g.present[i] = true
}

// walk moves object i's center by a random step, bouncing off the walls.
func (g *brownian) walk(i int) {
	c, h := g.center[i], g.half[i]
	axis := func(x, h float64) float64 {
		x += g.r.NormFloat64() * g.c.Sigma
		lo, hi := h, g.side-h
		if x < lo {
			x = min(2*lo-x, hi)
		} else if x > hi {
			x = max(2*hi-x, lo)
		}
		return x
	}
	g.center[i] = geom.V(axis(c.X, h.X), axis(c.Y, h.Y), axis(c.Z, h.Z))
}

// box returns object i's box, on the grid when there is one.
func (g *brownian) box(i int) geom.AABB {
	c, h := g.center[i], g.half[i]
	if q := g.c.Grid; q > 0 {
		snap := func(c, h float64) (float64, float64) {
			lo := math.Round((c-h)/q) * q
			return lo, lo + max(1, math.Round(2*h/q))*q
		}
		x0, x1 := snap(c.X, h.X)
		y0, y1 := snap(c.Y, h.Y)
		z0, z1 := snap(c.Z, h.Z)
		return geom.AABB{Min: geom.V(x0, y0, z0), Max: geom.V(x1, y1, z1)}
	}
	return geom.AABB{Min: c.Sub(h), Max: c.Add(h)}
}

func (g *brownian) Next(s *Step) error {
	if g.step >= g.c.Steps {
		return io.EOF
	}
	s.Reset()
	if g.step == 0 {
		for i := range g.c.N {
			g.place(i)
			s.Add = append(s.Add, Added{ID: int32(i), Static: g.static[i], Box: g.box(i)})
		}
		g.step++
		return nil
	}
	for i := range g.c.N {
		switch {
		case !g.present[i]:
			if g.r.IntN(2) == 0 {
				g.place(i)
				s.Add = append(s.Add, Added{ID: int32(i), Static: g.static[i], Box: g.box(i)})
			}
		case g.static[i]:
			if g.c.Churn > 0 && g.r.Float64() < g.c.Churn/4 {
				g.static[i] = false
				g.walk(i)
				s.Move = append(s.Move, Moved{ID: int32(i), Box: g.box(i)})
			}
		case g.c.Churn > 0 && g.r.Float64() < g.c.Churn:
			g.present[i] = false
			s.Remove = append(s.Remove, int32(i))
		default:
			g.walk(i)
			s.Move = append(s.Move, Moved{ID: int32(i), Box: g.box(i)})
		}
	}
	g.step++
	return nil
}
