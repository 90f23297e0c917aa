package gcode

import (
	"math"
	"strconv"
	"strings"

	"github.com/collide3d/collide/geom"
)

// Kind is the kind of a motion: the G code that commanded it.
type Kind uint8

const (
	Rapid  Kind = iota // G0: straight, at rapid rate
	Linear             // G1: straight, at the feed rate
	ArcCW              // G2: clockwise arc or helix, seen from the plane's positive normal
	ArcCCW             // G3: counter-clockwise arc or helix
)

// String returns the G code of the kind: "G0", "G1", "G2" or "G3".
func (k Kind) String() string {
	if k <= ArcCCW {
		return [...]string{"G0", "G1", "G2", "G3"}[k]
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

// IsArc reports whether k is ArcCW or ArcCCW.
func (k Kind) IsArc() bool { return k == ArcCW || k == ArcCCW }

// Plane is the plane of arcs, selected by G17, G18 and G19.
type Plane uint8

const (
	XY Plane = iota // G17: arcs in X and Y, about Z (the default)
	ZX              // G18: arcs in Z and X, about Y
	YZ              // G19: arcs in Y and Z, about X
)

// String returns "XY", "ZX" or "YZ".
func (p Plane) String() string {
	switch p {
	case XY:
		return "XY"
	case ZX:
		return "ZX"
	case YZ:
		return "YZ"
	}
	return "Plane(" + strconv.Itoa(int(p)) + ")"
}

// Axes returns the plane's two axes, in the order that makes the plane
// right-handed about its normal, and the normal (0: X, 1: Y, 2: Z): XY is
// (0, 1, 2), ZX is (2, 0, 1) and YZ is (1, 2, 0). Angles in the plane are
// measured from the first axis towards the second, so that counter-clockwise
// (G3) is the positive sense seen from the positive normal.
func (p Plane) Axes() (a, b, normal int) {
	switch p {
	case ZX:
		return 2, 0, 1
	case YZ:
		return 1, 2, 0
	}
	return 0, 1, 2
}

// Move is one motion, in millimetres, in absolute coordinates of the
// program's frame.
type Move struct {
	Line     int  // 1-based line of the file that commanded it
	N        int  // the block's N number, or -1
	Kind     Kind // G0, G1, G2 or G3
	From, To geom.Vec3

	// Arcs only (G2, G3). Center is the arc's centre: in the arc's plane,
	// at From's coordinate along the plane's normal (for a helix the normal
	// coordinate goes linearly from From's to To's). Radius is |From−Center|
	// in the plane (computed before Center is rounded, so it may differ from
	// the rounded distance in the last bits). Turns is the number of extra full turns: the P word
	// less one (LinuxCNC's P counts turns, P1 being a plain arc), 0 without
	// P.
	Center geom.Vec3
	Radius float64
	Plane  Plane
	Turns  int

	Feed    float64 // F in mm/min, as set when the move was read (0 if never set)
	Spindle float64 // S (0 if never set)
	Tool    int     // the tool in the spindle (the T of the last M6; the last T word if the program never uses M6; 0 if none)
}

// Sweep returns the angle an arc turns through, in radians, positive in the
// arc's own sense (clockwise for G2), including its full turns: in (0, 2π]
// plus 2π·Turns. An arc whose end is its start in the plane (a full circle)
// sweeps 2π. Sweep returns 0 for straight moves.
func (m Move) Sweep() float64 {
	if !m.Kind.IsArc() {
		return 0
	}
	a, b, _ := m.Plane.Axes()
	sx, sy := m.From.Index(a)-m.Center.Index(a), m.From.Index(b)-m.Center.Index(b)
	ex, ey := m.To.Index(a)-m.Center.Index(a), m.To.Index(b)-m.Center.Index(b)
	return sweep(m.Kind, sx, sy, ex, ey) + 2*math.Pi*float64(m.Turns)
}

// sweep returns the angle from (sx, sy) to (ex, ey), both relative to the
// centre, in the sense of kind, in (0, 2π]. Equal vectors give 2π (a full
// circle). The vectors are scaled to unit length first, so that the products
// neither overflow nor underflow.
func sweep(kind Kind, sx, sy, ex, ey float64) float64 {
	if sx == ex && sy == ey {
		return 2 * math.Pi
	}
	r0, r1 := math.Hypot(sx, sy), math.Hypot(ex, ey)
	if r0 == 0 || r1 == 0 {
		return 2 * math.Pi // not a valid arc (Read rejects it)
	}
	sx, sy, ex, ey = sx/r0, sy/r0, ex/r1, ey/r1
	t := math.Atan2(float64(sx*ey)-float64(sy*ex), float64(sx*ex)+float64(sy*ey))
	if kind == ArcCW {
		t = -t
	}
	if t <= 0 {
		t += 2 * math.Pi
	}
	return t
}

// At returns the position at parameter s along the move, s clamped to
// [0, 1]: At(0) is From and At(1) is To, exactly. A straight move goes
// linearly from From to To. On an arc the angle about Center goes linearly
// with s through Sweep, the coordinate along the plane's normal goes
// linearly from From's to To's (a helix), and the distance from the centre
// goes linearly from the start radius to the end radius (they differ only
// within the tolerance that Read allows, so the path stays continuous).
func (m Move) At(s float64) geom.Vec3 {
	switch {
	case s <= 0 || s != s:
		return m.From
	case s >= 1:
		return m.To
	case !m.Kind.IsArc():
		return geom.Vec3{X: lerp(m.From.X, m.To.X, s), Y: lerp(m.From.Y, m.To.Y, s), Z: lerp(m.From.Z, m.To.Z, s)}
	}
	a, b, n := m.Plane.Axes()
	ca, cb := m.Center.Index(a), m.Center.Index(b)
	sx, sy := m.From.Index(a)-ca, m.From.Index(b)-cb
	ex, ey := m.To.Index(a)-ca, m.To.Index(b)-cb
	r0, r1 := math.Hypot(sx, sy), math.Hypot(ex, ey)
	t := sweep(m.Kind, sx, sy, ex, ey) + 2*math.Pi*float64(m.Turns)
	if m.Kind == ArcCW {
		t = -t
	}
	th := math.Atan2(sy, sx) + s*t
	r := r0 + s*(r1-r0)
	sin, cos := math.Sincos(th)
	fn, tn := m.From.Index(n), m.To.Index(n)
	p := geom.Vec3{}
	p = p.SetIndex(a, ca+r*cos)
	p = p.SetIndex(b, cb+r*sin)
	p = p.SetIndex(n, fn+s*(tn-fn))
	return p
}

// lerp returns a + s·(b − a), or, when b − a overflows (a and b of
// opposite signs, each within the float64 range), (1 − s)·a + s·b, whose
// terms have opposite signs and so do not overflow.
func lerp(a, b, s float64) float64 {
	if d := b - a; !math.IsInf(d, 0) {
		return a + s*d
	}
	return (1-s)*a + s*b
}

// Length returns the length of the move's path: the distance from From to
// To for a straight move, the helix's length for an arc (its angle times
// its radius, with its rise). It is computed without overflow in its
// steps (a move from x = −9e307 to 9e307 is 1.8e308 long) and is +Inf only
// when the length itself is beyond the float64 range.
func (m Move) Length() float64 {
	if !m.Kind.IsArc() {
		d := m.To.Sub(m.From)
		if d.IsFinite() {
			return d.Norm()
		}
		// Halving is exact for coordinates this large.
		h := m.To.Scale(0.5).Sub(m.From.Scale(0.5))
		return 2 * h.Norm()
	}
	_, _, n := m.Plane.Axes()
	rise := m.To.Index(n) - m.From.Index(n)
	if math.IsInf(rise, 0) {
		rise = 2 * (m.To.Index(n)/2 - m.From.Index(n)/2)
	}
	return math.Hypot(m.Sweep()*m.Radius, rise)
}

// Warning is a problem that does not stop the reading: an unknown word, a
// word with nothing to use it, motion after the program's end.
type Warning struct {
	Line int    // 1-based line
	Msg  string // e.g. "unknown word E5 (ignored)"
}

// String returns the warning as "line 12: unknown word E5 (ignored)".
func (w Warning) String() string {
	return "line " + strconv.Itoa(w.Line) + ": " + w.Msg
}

// Program is a tool path read by Read.
type Program struct {
	Name     string    // the name given to Read
	Moves    []Move    // in program order
	Warnings []Warning // in line order, at most MaxWarnings+1 (see MaxWarnings)
	Inches   bool      // the program switched to G20 at least once
	Tools    []int     // the distinct non-zero Tool values of Moves, ascending
}

// Options controls Read. The zero value reads with the defaults.
type Options struct {
	// Start is the position before the first move. Nil: the tool starts at
	// the first value the program gives each axis (found by looking ahead),
	// so the first moves do not come from an invented origin; an axis never
	// given is 0, and an axis whose first word is incremental (G91) starts
	// at 0.
	Start *geom.Vec3
	// Strict makes unknown and unused words errors rather than warnings.
	Strict bool
	// MaxMoves bounds the moves read (0: DefaultMaxMoves for Read, no
	// bound for a Reader, which does not hold them); more is an error, not
	// a crash.
	MaxMoves int
	// Lookahead bounds the moves a Reader holds back, waiting for an
	// axis's first value or the first M6 (0: DefaultLookahead). Read
	// looks ahead without bound.
	Lookahead int
}

const (
	// DefaultMaxMoves is the bound on the moves of a program when
	// Options.MaxMoves is 0.
	DefaultMaxMoves = 50_000_000
	// MaxWarnings bounds Program.Warnings: after this many, one last
	// warning says that the rest are not listed.
	MaxWarnings = 1000
)

// Error is a bad program: it names the file, the line (1-based) and the
// problem. Every error that Read returns is an *Error, a failing reader's
// too (with Err set).
type Error struct {
	Name string // the name given to Read
	Line int    // 1-based line of the problem
	Msg  string // what is wrong
	Err  error  // the reader's error, for a failed read; nil otherwise
}

// Error returns the error as "part.nc: line 12: gcode: MSG" (without the
// name and its colon when Name is empty).
func (e *Error) Error() string {
	var b strings.Builder
	if e.Name != "" {
		b.WriteString(e.Name)
		b.WriteString(": ")
	}
	b.WriteString("line ")
	b.WriteString(strconv.Itoa(e.Line))
	b.WriteString(": gcode: ")
	b.WriteString(e.Msg)
	return b.String()
}

// Unwrap returns the reader's error, if there is one.
func (e *Error) Unwrap() error { return e.Err }
