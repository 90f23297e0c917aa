package ncgen

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/collide3d/collide/mesh"
)

// ZigZagOptions configures ZigZag. The zero value gives the defaults
// documented on each field.
type ZigZagOptions struct {
	// Stepover is the distance between rows, in mm (0 or less: the
	// ball's radius). The dissertation's terrain paths took every 10th
	// row of the elevation grid.
	Stepover float64
	// Step is the distance between samples along a row, in mm (0 or
	// less: a quarter of the radius).
	Step float64
	// Safe is the tip's height for rapids over the part (0, or below the
	// part's top: 10 mm above it). Approach is the height where the
	// rapids down end and the G1 plunge to a row's first sample starts
	// (0, or below the part's top: 2 mm above it; at most Safe).
	Safe, Approach float64
	// Feed (mm/min) and Spindle (rpm) are the program's F and S (0:
	// 1000 and 12000).
	Feed, Spindle float64
	// Allowance lifts every sample this far above the part (stock left
	// for a later pass; 0: the ball touches the part at the samples).
	Allowance float64
	// Distort lowers Distort.Count samples, picked by Seed, by
	// Distort.Depth mm: the "slightly distorted" paths of the
	// dissertation, which gouge the part.
	Distort Distortion
	// Seed picks the distorted samples.
	Seed uint64
	// Arcs links rows by G2/G3 semicircles beside the part: at the rows'
	// height where both ends are at one height and the ball clears the
	// part along the arc (a flat border), else at the safe height.
	// Without Arcs rows are linked by rapids up, over and down.
	Arcs bool
	// Numbers starts every line with an N word (N1, N2, ...).
	Numbers bool
	// RapidDown, when positive, makes the approach of row RapidDown (the
	// first row is 1) a rapid straight down to 1 mm above its first
	// sample instead of to the approach height: a programming error that
	// takes a rapid into the stock.
	RapidDown int
	// NoRetract ends the program with a rapid back over the part to the
	// x and y of its first sample before the retract to the safe height
	// (a forgotten retract: a rapid across the part at cutting height).
	NoRetract bool
}

// Distortion is ZigZagOptions.Distort: how many samples to lower, and by
// how much (mm).
type Distortion struct {
	Count int
	Depth float64
}

// unit is the resolution of the program's coordinates: 0.1 µm (4
// decimals of a mm).
const unit = 1e4

// maxSamples caps the samples of a ZigZag program; a smaller Step is
// raised to stay within it.
const maxSamples = 4 << 20

// distortSeq is the PCG stream that picks the distorted samples.
const distortSeq = 0x64697374

// ZigZag returns a G-code finishing program for a ball-end tool of the
// given radius over part, in millimetres: rows along x, Stepover apart,
// across the part's xy bounds, run alternately in +x and -x; along a row
// a sample every Step mm (and at the row's end), each at its drop-cutter
// height (the lowest height at which the ball, lowered from above, touches
// the part; the program commands the tip, the ball's centre less the
// radius), linked by G1 moves. The path is right at the samples; the chords
// between them may cut into ridges and valleys, which is where the
// dissertation's contacts came from. Rows are linked by rapids (G0 up to
// Safe, over, down to Approach, then a G1 plunge), or with Arcs by
// semicircles. The program starts with G21 G90 G17, T1 M6, S and M3, and
// ends with M5 and M30.
//
// Coordinates are written with 4 decimals; x and y are on that grid and
// each height is rounded up onto it, at least 1 nm above the drop-cutter
// height, so that the tool at a sample, as the program's numbers put it,
// clears the part (by 1 nm to 0.1 µm, plus Allowance): it neither digs
// into it nor touches it, and moving along flat ground it touches nothing. A part with no triangles, or a radius
// that is not positive and finite, gives a program with no cuts. The
// drop-cutter is plain floating point: heights are right to a few ulps.
// The same arguments give the same program.
func ZigZag(part *mesh.TriMesh, radius float64, o ZigZagOptions) string {
	z := &zigzag{o: o, r: radius}
	z.defaults(part)
	z.header()
	if len(part.Tris) > 0 && radius > 0 && isFinite(radius) && part.Bounds().Size().IsFinite() {
		z.d = newDropper(part, radius)
		z.rows(part)
	}
	z.footer()
	return z.b.String()
}

func isFinite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// zigzag writes one ZigZag program.
type zigzag struct {
	o       ZigZagOptions
	r       float64
	d       *dropper
	b       strings.Builder
	line    int
	top     float64 // the part's top
	safe    int64   // in units
	appr    int64
	fed     bool // F written
	sample  int  // samples written so far
	distort map[int]bool
	// firstX, firstY are the first sample's position.
	firstX, firstY int64
}

func (z *zigzag) defaults(part *mesh.TriMesh) {
	o := &z.o
	if !(o.Stepover > 0) || !isFinite(o.Stepover) {
		o.Stepover = z.r
	}
	if !(o.Step > 0) || !isFinite(o.Step) {
		o.Step = z.r / 4
	}
	b := part.Bounds()
	z.top = b.Max.Z
	if len(part.Tris) == 0 || !isFinite(z.top) {
		z.top = 0
	}
	if !(o.Safe > z.top) || !isFinite(o.Safe) {
		o.Safe = z.top + 10
	}
	if !(o.Approach > z.top) || !isFinite(o.Approach) {
		o.Approach = z.top + 2
	}
	o.Approach = min(o.Approach, o.Safe)
	if !(o.Feed > 0) || !isFinite(o.Feed) {
		o.Feed = 1000
	}
	if !(o.Spindle > 0) || !isFinite(o.Spindle) {
		o.Spindle = 12000
	}
	if !isFinite(o.Allowance) {
		o.Allowance = 0
	}
	z.safe = ceilUnits(o.Safe)
	z.appr = ceilUnits(o.Approach)
}

// ceilUnits returns the least multiple of 1/unit, in units, whose value as
// parsed from its decimal is at least x.
func ceilUnits(x float64) int64 {
	u := int64(math.Ceil(x * unit))
	if float64(u)/unit < x {
		u++
	}
	return u
}

// fmtUnits formats u units as a decimal with at most 4 decimals: "12.34",
// "-0.5", "0".
func fmtUnits(u int64) string {
	neg := u < 0
	if neg {
		u = -u
	}
	s := strconv.FormatInt(u/unit, 10)
	if f := u % unit; f != 0 {
		s += strings.TrimRight(fmt.Sprintf(".%04d", f), "0")
	}
	if neg {
		s = "-" + s
	}
	return s
}

func (z *zigzag) emit(words ...string) {
	z.line++
	if z.o.Numbers {
		fmt.Fprintf(&z.b, "N%d ", z.line)
	}
	z.b.WriteString(strings.Join(words, " "))
	z.b.WriteByte('\n')
}

func (z *zigzag) header() {
	z.line = 0
	fmt.Fprintf(&z.b, "(collide ncgen: zig-zag finishing, ball-end radius %s mm, stepover %s, step %s)\n",
		fmtFloat(z.r), fmtFloat(z.o.Stepover), fmtFloat(z.o.Step))
	z.emit("G21", "G90", "G17")
	z.emit("T1", "M6")
	z.emit("S"+fmtFloat(z.o.Spindle), "M3")
	z.emit("G0", "Z"+fmtUnits(z.safe))
}

func (z *zigzag) footer() {
	if z.o.NoRetract && z.sample > 0 {
		z.emit("G0", "X"+fmtUnits(z.firstX), "Y"+fmtUnits(z.firstY))
	}
	z.emit("G0", "Z"+fmtUnits(z.safe))
	z.emit("M5")
	z.emit("M30")
}

func fmtFloat(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// sampleHeight returns the tip's height at (x, y) in units (rounded up),
// with the allowance, and false where the ball meets no triangle.
func (z *zigzag) sampleHeight(xu, yu int64) (int64, bool) {
	x, y := float64(xu)/unit, float64(yu)/unit
	c, ok := z.d.drop(x, y)
	if !ok {
		return 0, false
	}
	return aboveUnits(c - z.r + z.o.Allowance), true
}

// minLift is the least height by which the program's tip at a sample
// clears its drop-cutter height: far more than the drop-cutter's error, so
// that an exact check finds the ball clear of the part at every sample.
const minLift = 1e-9

// aboveUnits returns the height h rounded up onto the program's grid, at
// least minLift above h.
func aboveUnits(h float64) int64 { return ceilUnits(h + minLift) }

func (z *zigzag) feed(words ...string) {
	if !z.fed {
		words = append(words, "F"+fmtFloat(z.o.Feed))
		z.fed = true
	}
	z.emit(append([]string{"G1"}, words...)...)
}

func (z *zigzag) rows(part *mesh.TriMesh) {
	b := part.Bounds()
	x0, x1 := ceilUnits(b.Min.X), int64(math.Floor(b.Max.X*unit))
	y0, y1 := ceilUnits(b.Min.Y), int64(math.Floor(b.Max.Y*unit))
	if x1 < x0 || y1 < y0 {
		return
	}
	so := max(2*int64(math.Round(z.o.Stepover*unit/2)), 2) // even: I/J offsets of the arcs are whole half units
	step := max(int64(math.Round(z.o.Step*unit)), 1)
	nrows := int((y1-y0)/so) + 1
	nx := int((x1-x0)/step) + 1
	if (x1-x0)%step != 0 {
		nx++
	}
	for nrows*nx > maxSamples {
		step *= 2
		nx = int((x1-x0)/step) + 2
	}
	xs := make([]int64, 0, nx)
	for x := x0; x <= x1; x += step {
		xs = append(xs, x)
	}
	if xs[len(xs)-1] != x1 {
		xs = append(xs, x1)
	}
	// The distorted samples, numbered in the program's order.
	total := nrows * len(xs)
	z.distort = map[int]bool{}
	if c := min(z.o.Distort.Count, total); c > 0 && z.o.Distort.Depth != 0 && isFinite(z.o.Distort.Depth) {
		rng := rand.New(rand.NewPCG(z.o.Seed, distortSeq))
		for len(z.distort) < c {
			z.distort[rng.IntN(total)] = true
		}
	}
	heights := make([]int64, len(xs))
	var prevX, prevY, prevZ int64
	for j := range nrows {
		y := y0 + int64(j)*so
		order := make([]int64, len(xs))
		for k := range xs {
			if j%2 == 0 {
				order[k] = xs[k]
			} else {
				order[k] = xs[len(xs)-1-k]
			}
		}
		for k, x := range order {
			var ok bool
			if heights[k], ok = z.sampleHeight(x, y); !ok {
				heights[k] = ceilUnits(b.Min.Z) // beyond the part: its floor
			}
			if z.distort[z.sample] {
				heights[k] -= int64(math.Round(z.o.Distort.Depth * unit))
			}
			z.sample++
		}
		startX, startZ := order[0], heights[0]
		if j == 0 {
			z.firstX, z.firstY = startX, y
			z.rapidTo(startX, y, startZ, j)
		} else {
			z.link(prevX, prevY, prevZ, startX, y, startZ, j)
		}
		for k := 1; k < len(order); k++ {
			z.feed("X"+fmtUnits(order[k]), "Y"+fmtUnits(y), "Z"+fmtUnits(heights[k]))
		}
		prevX, prevY, prevZ = order[len(order)-1], y, heights[len(order)-1]
	}
}

// rapidTo moves from the safe height to the first sample (x, y, zs) of row
// j (0-based): over at the safe height, down to the approach height (or,
// for the RapidDown row, to 1 mm above the sample), then a G1 plunge.
func (z *zigzag) rapidTo(x, y, zs int64, j int) {
	z.emit("G0", "X"+fmtUnits(x), "Y"+fmtUnits(y))
	down := z.appr
	if z.o.RapidDown == j+1 {
		down = zs + unit
	}
	if down < z.safe {
		z.emit("G0", "Z"+fmtUnits(down))
	}
	z.feed("Z" + fmtUnits(zs))
}

// link joins the end (x0, y0, z0) of row j-1 to the start (x1, y1, z1) of
// row j.
func (z *zigzag) link(x0, y0, z0, x1, y1, z1 int64, j int) {
	if z.o.Arcs && x0 == x1 {
		// Row j-1 ran in +x when j-1 is even: it ends at the right and
		// turns left (counterclockwise, G3) when y grows.
		ccw := (j-1)%2 == 0
		if y1 < y0 {
			ccw = !ccw
		}
		g := "G2"
		if ccw {
			g = "G3"
		}
		jj := "J" + fmtUnits((y1-y0)/2) // the stepover is even in units
		if z0 == z1 && z.arcClear(x0, y0, y1, z0) {
			z.emit(g, "X"+fmtUnits(x1), "Y"+fmtUnits(y1), "I0", jj)
			return
		}
		z.emit("G0", "Z"+fmtUnits(z.safe))
		z.emit(g, "X"+fmtUnits(x1), "Y"+fmtUnits(y1), "I0", jj)
		down := z.appr
		if z.o.RapidDown == j+1 {
			down = z1 + unit
		}
		if down < z.safe {
			z.emit("G0", "Z"+fmtUnits(down))
		}
		z.feed("Z" + fmtUnits(z1))
		return
	}
	z.emit("G0", "Z"+fmtUnits(z.safe))
	z.rapidTo(x1, y1, z1, j)
}

// arcClear reports whether the ball, its tip at height zu, clears the part
// along the semicircle from (xu, y0) to (xu, y1) that bulges away from the
// part: sampled at 31 points, none below its drop-cutter height.
func (z *zigzag) arcClear(xu, y0, y1, zu int64) bool {
	x := float64(xu) / unit
	ya, yb := float64(y0)/unit, float64(y1)/unit
	cy, rad := (ya+yb)/2, math.Abs(yb-ya)/2
	// The bulge's side: away from the part's middle.
	side := 1.0
	if b := z.d.bounds; x < (b.Min.X+b.Max.X)/2 {
		side = -1
	}
	const n = 32
	tip := float64(zu) / unit
	for i := 1; i < n; i++ {
		a := math.Pi * float64(i) / n
		px := x + side*rad*math.Sin(a)
		py := cy - rad*math.Cos(a)*sign(yb-ya)
		if c, ok := z.d.drop(px, py); ok && c-z.r > tip+1e-9 {
			return false
		}
	}
	return true
}

func sign(x float64) float64 {
	if x < 0 {
		return -1
	}
	return 1
}
