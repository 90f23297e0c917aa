package gcode

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"

	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/internal/textscan"
)

// Tolerances of arcs, in millimetres (see the package documentation).
const (
	// arcTolMM and arcTolInch are LinuxCNC's default
	// CENTER_ARC_RADIUS_TOLERANCE for programs in millimetres and in
	// inches: how much an I J K arc's end radius may differ from its start
	// radius whatever the radius (and up to 100 times more if the relative
	// difference is at most arcRelTol).
	arcTolMM   = 2 * 0.01 * math.Sqrt2
	arcTolInch = 2 * 0.001 * math.Sqrt2 * 25.4
	// arcRelTol is LinuxCNC's SPIRAL_RELATIVE_TOLERANCE.
	arcRelTol = 0.001
	// radiusTol is LinuxCNC's RADIUS_TOLERANCE (0.00005 inch, whatever the
	// units): the smallest radius of an I J K arc, and how far short of
	// half the chord an R arc's radius may fall.
	radiusTol = 0.00005 * 25.4
	// maxTurns bounds an arc's P word.
	maxTurns = 1_000_000
)

// Letters, as bits of block.have.
const (
	bF = 1 << ('F' - 'A')
	bI = 1 << ('I' - 'A')
	bJ = 1 << ('J' - 'A')
	bK = 1 << ('K' - 'A')
	bN = 1 << ('N' - 'A')
	bP = 1 << ('P' - 'A')
	bQ = 1 << ('Q' - 'A')
	bR = 1 << ('R' - 'A')
	bS = 1 << ('S' - 'A')
	bT = 1 << ('T' - 'A')
	bX = 1 << ('X' - 'A')
	bY = 1 << ('Y' - 'A')
	bZ = 1 << ('Z' - 'A')

	bAxes = bX | bY | bZ
	bIJK  = bI | bJ | bK
)

// Modal groups of G codes (LinuxCNC's numbering in the comments).
const (
	gNonModal    = iota // 0: G4
	gMotion             // 1: G0 G1 G2 G3 G80
	gPlane              // 2: G17 G18 G19
	gDistance           // 3: G90 G91
	gArcDistance        // 4: G90.1 G91.1
	gFeedMode           // 5: G94
	gUnits              // 6: G20 G21
	gCutterComp         // 7: G40
	gToolLength         // 8: G49
	gRetract            // 10: G98 G99
	gCoordSys           // 12: G54
	gPathMode           // 13: G61 G61.1 G64
	gStored             // G28.1 G30.1 (group 0 in LinuxCNC, kept apart here)
	nGroups
)

// Modal groups of M codes.
const (
	mStop       = iota // M0 M1 M2 M30
	mToolChange        // M6
	mSpindle           // M3 M4 M5
	nMGroups
)

// span is the position of a word in the compacted line.
type span struct{ lo, hi int32 }

// block holds the words of one line.
type block struct {
	have  uint32      // letters given, bit i for 'A'+i
	val   [26]float64 // their values, as written (not converted to mm)
	pos   [26]span    // and where they are, for messages
	gmask uint32      // G groups given
	g     [nGroups]int32
	gpos  [nGroups]span
	mmask uint32 // M groups given
	m     [nMGroups]int32
	mpos  [nMGroups]span
}

type reader struct {
	name      string
	strict    bool
	maxMoves  int
	lookahead int // the most moves held back (-1: no bound)
	lr        *textscan.LineReader
	buf       []byte // the compacted line
	line      int
	b         block

	// Modal state.
	motion   int8 // the motion mode: a Kind, or -1 for none
	plane    Plane
	incr     bool // G91
	arcAbs   bool // G90.1
	inch     bool // G20
	feed     float64
	speed    float64
	selected int // the last T word
	pos      [3]float64
	known    [3]bool // the start of each axis is known (see Options.Start)

	// The moves read and not yet returned: ready ones are final (from
	// ready[head:]); pending ones (pending[phead:]) may still change,
	// when an axis gets its first value or the first M6 comes (at most
	// lookahead of them).
	ready   []Move
	head    int
	pending []Move // from pending[phead:]
	phead   int
	nmoves  int  // the moves read so far
	m6      bool // an M6 has been read: Move.Tool is spindle's
	spindle int
	// Set when pending moves were returned before they were final
	// (more than lookahead of them): forced[a] for an axis whose start
	// was unknown (then at 0), forcedTool for the T-word tools of a
	// program that had no M6 yet.
	forced     [3]bool
	forcedTool bool
	inches     bool
	warnings   []Warning

	percent bool   // the program opened with a % line
	begun   bool   // a non-blank line has been read
	end     string // what ended the program ("M2 at line 40"), or ""
}

// Read reads a G-code program from r (see the package documentation for
// the accepted language). name names the program in errors and in
// Program.Name. Every error is an *Error naming name and the line. Read
// holds every move; a Reader returns them one at a time, in bounded
// memory.
func Read(r io.Reader, name string, o Options) (*Program, error) {
	if o.MaxMoves <= 0 {
		o.MaxMoves = DefaultMaxMoves
	}
	rd := NewReader(r, name, o)
	rd.r.lookahead = -1 // the moves are all held anyway
	p := &Program{Name: name}
	// The moves are kept in chunks and copied once into Program.Moves, of
	// the exact size, at the end: growing one slice by append (by a
	// quarter at a time when large) allocated and copied five times the
	// final size.
	var full [][]Move
	var moves []Move
	for {
		m, err := rd.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		if len(moves) == chunk {
			full = append(full, moves)
			moves = make([]Move, 0, chunk)
		}
		moves = append(moves, m)
	}
	if len(full) > 0 {
		all := make([]Move, 0, len(full)*chunk+len(moves))
		for _, c := range full {
			all = append(all, c...)
		}
		moves = append(all, moves...)
	}
	p.Moves = moves
	p.Warnings = rd.Warnings()
	p.Inches = rd.Inches()
	last := 0
	for i := range moves {
		if t := moves[i].Tool; t != 0 && t != last {
			last = t
			if !slices.Contains(p.Tools, t) {
				p.Tools = append(p.Tools, t)
			}
		}
	}
	slices.Sort(p.Tools)
	return p, nil
}

// DefaultLookahead is the most moves a Reader holds back when
// Options.Lookahead is 0: the moves read before an axis gets its first
// value (see Options.Start), or, in a program that has not used M6 yet,
// after a T word (the first M6 makes them tool 0). When more are held
// back, the oldest are returned as they are: an axis whose start was
// still unknown then stays at 0, and its first absolute value, if not 0,
// is an error (give Options.Start); T words keep their tools (a later
// first M6 gives a warning). Read, which holds every move anyway, looks
// ahead without bound.
const DefaultLookahead = 1 << 14

// Reader reads a program's moves one at a time, in memory bounded by
// Options.Lookahead moves, MaxWarnings warnings and the longest line,
// whatever the program's length: a checker can verify a program of any
// size as it reads it. Its moves are those that Read returns, in the same
// order, for every program that gives each axis a value (and, if it uses
// M6, its first M6) within the lookahead (see DefaultLookahead).
type Reader struct {
	r    *reader
	err  error
	done bool
}

// NewReader returns a Reader of the program in r; name names it in errors.
// Options.MaxMoves 0 sets no bound on the moves (a Reader does not hold
// them).
func NewReader(r io.Reader, name string, o Options) *Reader {
	rd := &reader{
		name:      name,
		strict:    o.Strict,
		maxMoves:  o.MaxMoves,
		lr:        textscan.NewLineReader(r),
		motion:    -1,
		lookahead: o.Lookahead,
	}
	if rd.lookahead <= 0 {
		rd.lookahead = DefaultLookahead
	}
	if o.Start != nil {
		rd.pos = [3]float64{o.Start.X, o.Start.Y, o.Start.Z}
		rd.known = [3]bool{true, true, true}
	}
	return &Reader{r: rd}
}

// Name returns the name given to NewReader.
func (r *Reader) Name() string { return r.r.name }

// Next returns the next move, io.EOF after the last one, or an *Error
// (which Next then keeps returning).
func (r *Reader) Next() (Move, error) {
	rd := r.r
	for rd.head == len(rd.ready) {
		if r.err != nil {
			return Move{}, r.err
		}
		if r.done {
			return Move{}, io.EOF
		}
		rd.ready, rd.head = rd.ready[:0], 0
		more, err := rd.step()
		switch {
		case err != nil:
			r.err = err
		case !more:
			r.done = true
			rd.release(true)
		}
	}
	m := rd.ready[rd.head]
	rd.head++
	return m, nil
}

// Warnings returns the warnings so far, in line order (at most
// MaxWarnings+1: see MaxWarnings). The slice is the Reader's: it grows as
// reading goes on.
func (r *Reader) Warnings() []Warning { return r.r.warnings }

// Inches reports whether the program so far switched to G20.
func (r *Reader) Inches() bool { return r.r.inches }

func (r *reader) errorf(format string, args ...any) error {
	return &Error{Name: r.name, Line: r.line, Msg: fmt.Sprintf(format, args...)}
}

func (r *reader) warn(msg string) {
	switch n := len(r.warnings); {
	case n < MaxWarnings:
		r.warnings = append(r.warnings, Warning{r.line, msg})
	case n == MaxWarnings:
		r.warnings = append(r.warnings, Warning{r.line, fmt.Sprintf("more than %d warnings: the rest are not listed", MaxWarnings)})
	}
}

// readErr turns the line reader's error into an *Error.
func (r *reader) readErr() error {
	e := &Error{Name: r.name, Line: r.lr.Line + 1, Err: r.lr.Err}
	if r.lr.Err == textscan.ErrLineTooLong {
		e.Msg = fmt.Sprintf("line longer than %d bytes", textscan.MaxLine)
		e.Err = nil
	} else {
		e.Msg = "read: " + r.lr.Err.Error()
	}
	return e
}

// step reads lines up to the next one that is executed (or to the end,
// more false).
func (r *reader) step() (more bool, err error) {
	for {
		line, ok := r.lr.Next()
		if !ok {
			if r.lr.Err != nil {
				return false, r.readErr()
			}
			return false, nil
		}
		r.line = r.lr.Line
		if r.end != "" {
			if hasMotion(line) {
				r.warn("motion after the program's end (" + r.end + ") is ignored")
				return false, nil
			}
			continue
		}
		b, tape, err := r.compact(line)
		if err != nil {
			return false, err
		}
		if tape {
			if r.percent {
				r.end = "% at line " + strconv.Itoa(r.line)
			} else if !r.begun {
				r.percent = true
			}
			r.begun = true
			continue
		}
		if len(b) == 0 {
			r.begun = r.begun || textscan.SkipSpace(line, 0) < len(line)
			continue
		}
		r.begun = true
		if err := r.parse(b); err != nil {
			return false, err
		}
		if err := r.exec(); err != nil {
			return false, err
		}
		return true, nil
	}
}

// hasMotion reports whether a line after the program's end holds an X, Y
// or Z word outside comments. It checks nothing else.
func hasMotion(line []byte) bool {
	comment := false
	for _, c := range line {
		switch {
		case comment:
			comment = c != ')'
		case c == '(':
			comment = true
		case c == ';':
			return false
		case c|0x20 == 'x' || c|0x20 == 'y' || c|0x20 == 'z':
			return true
		}
	}
	return false
}

// compact returns the line without spaces and comments, with letters in
// upper case, in r.buf; tape reports a % line. A / at the start (block
// delete) is dropped.
func (r *reader) compact(line []byte) (b []byte, tape bool, err error) {
	i := textscan.SkipSpace(line, 0)
	if i < len(line) {
		switch line[i] {
		case '%':
			return nil, true, nil
		case '/':
			i++
		}
	}
	b = r.buf[:0]
	for ; i < len(line); i++ {
		c := line[i]
		switch {
		case c >= 'a' && c <= 'z':
			b = append(b, c-('a'-'A'))
		case c == ' ' || c == '\t' || c == '\v' || c == '\f':
		case c == '(':
			j := i + 1
			for j < len(line) && line[j] != ')' {
				if line[j] == '(' {
					return nil, false, r.errorf("comment inside a comment (comments do not nest)")
				}
				j++
			}
			if j == len(line) {
				return nil, false, r.errorf("comment not closed (no ')' before the end of the line)")
			}
			i = j
		case c == ';':
			i = len(line)
		default:
			b = append(b, c)
		}
	}
	r.buf = b
	return b, false, nil
}

// gInfo returns the modal group of G code g (in tenths: G61.1 is 611), or
// -1 with a reason if the code is not supported, or -2 if it is unknown.
func gInfo(g int32) (group int, why string) {
	switch g {
	case 0, 10, 20, 30, 800:
		return gMotion, ""
	case 40:
		return gNonModal, ""
	case 170, 180, 190:
		return gPlane, ""
	case 200, 210:
		return gUnits, ""
	case 281, 301:
		return gStored, ""
	case 400:
		return gCutterComp, ""
	case 490:
		return gToolLength, ""
	case 540:
		return gCoordSys, ""
	case 610, 611, 640:
		return gPathMode, ""
	case 900, 910:
		return gDistance, ""
	case 901, 911:
		return gArcDistance, ""
	case 940:
		return gFeedMode, ""
	case 980, 990:
		return gRetract, ""
	case 50, 51, 52, 53:
		return -1, "spline"
	case 100:
		return -1, "setting offsets or tool data"
	case 280, 300:
		return -1, "move to a stored position"
	case 330, 331, 760:
		return -1, "spindle-synchronized motion"
	case 382, 383, 384, 385:
		return -1, "probing"
	case 410, 411, 420, 421:
		return -1, "cutter compensation"
	case 430, 431, 432:
		return -1, "tool length offset"
	case 520:
		return -1, "local coordinate offset"
	case 530:
		return -1, "machine coordinates"
	case 541, 550, 560, 570, 580, 590, 591, 592, 593:
		return -1, "work offset"
	case 730, 740, 810, 820, 830, 840, 850, 860, 870, 880, 890:
		return -1, "canned cycle"
	case 920, 921, 922, 923:
		return -1, "coordinate system offset"
	}
	return -2, ""
}

// mInfo returns the modal group of M code m (in tenths), -1 with a reason
// if it is not supported, -2 if it is unknown, or -3 if it is known and
// ignored.
func mInfo(m int32) (group int, why string) {
	switch m {
	case 0, 10, 20, 300:
		return mStop, ""
	case 30, 40, 50:
		return mSpindle, ""
	case 60:
		return mToolChange, ""
	case 70, 80, 90:
		return -3, ""
	case 980:
		return -1, "subprogram call"
	case 990:
		return -1, "subprogram return"
	}
	return -2, ""
}

// code parses the number of a G or M word in tenths ("61.1" is 611, "01"
// is 10, "1.0" is 10), or returns -1 if it is not of the form digits with
// at most one non-zero decimal.
func code(num []byte) int32 {
	var v int32
	i := 0
	for ; i < len(num) && num[i] != '.'; i++ {
		d := num[i] - '0'
		if d > 9 || v > 100000 {
			return -1
		}
		v = v*10 + int32(d)
	}
	v *= 10
	if i < len(num) { // num[i] == '.'
		for k, c := range num[i+1:] {
			d := c - '0'
			switch {
			case d > 9:
				return -1
			case k == 0:
				v += int32(d)
			case d != 0:
				return -1
			}
		}
	}
	return v
}

// parse reads the words of the compacted line b into r.b, reporting
// unsupported words as errors and unknown ones as warnings.
func (r *reader) parse(b []byte) error {
	k := &r.b
	k.have, k.gmask, k.mmask = 0, 0, 0
	for i := 0; i < len(b); {
		c := b[i]
		if c < 'A' || c > 'Z' {
			return r.notWord(b, i)
		}
		j := i + 1
		if j < len(b) && (b[j] == '+' || b[j] == '-') {
			j++
		}
		digits, dots := 0, 0
		for ; j < len(b); j++ {
			if d := b[j]; d >= '0' && d <= '9' {
				digits++
			} else if d == '.' {
				dots++
			} else {
				break
			}
		}
		w := b[i:j]
		num := b[i+1 : j]
		sp := span{int32(i), int32(j)}
		i = j
		if len(num) == 0 {
			if c == 'O' && j < len(b) && b[j] == '<' {
				return r.errorf("O-words (subroutines and control flow) are not supported")
			}
			if j < len(b) {
				switch b[j] {
				case '#':
					return r.errorf("parameters (#) are not supported")
				case '[':
					return r.errorf("expressions ([...]) are not supported")
				}
			}
			return r.errorf("%c without a number", c)
		}
		if digits == 0 || dots > 1 {
			return r.errorf("malformed number %s", textscan.Short(w))
		}
		switch c {
		case 'G', 'M':
			if err := r.gm(c, w, num, sp); err != nil {
				return err
			}
			continue
		case 'A', 'B', 'C', 'U', 'V', 'W':
			return r.errorf("%s: axis %c is not supported (only X, Y and Z)", textscan.Short(w), c)
		case 'O':
			if i < len(b) {
				return r.errorf("O-words (subroutines and control flow) are not supported")
			}
			if err := r.unknown(w); err != nil {
				return err
			}
			continue
		case 'F', 'I', 'J', 'K', 'N', 'P', 'Q', 'R', 'S', 'T', 'X', 'Y', 'Z':
		default: // D E H L
			if err := r.unknown(w); err != nil {
				return err
			}
			continue
		}
		bit := uint32(1) << (c - 'A')
		if k.have&bit != 0 {
			return r.errorf("two %c words in one block", c)
		}
		v, e := textscan.ParseFloat(num)
		if e != textscan.NumOK {
			return r.errorf("%s: number out of range", textscan.Short(w))
		}
		k.have |= bit
		k.val[c-'A'] = v
		k.pos[c-'A'] = sp
	}
	return nil
}

// notWord reports the byte at b[i], where a word should start.
func (r *reader) notWord(b []byte, i int) error {
	c := b[i]
	switch {
	case c == '#':
		return r.errorf("parameters (#) are not supported")
	case c == '[':
		return r.errorf("expressions ([...]) are not supported")
	case c >= '0' && c <= '9' || c == '.' || c == '+' || c == '-':
		j := i + 1
		for j < len(b) && (b[j] >= '0' && b[j] <= '9' || b[j] == '.') {
			j++
		}
		return r.errorf("number %s without a letter", textscan.Quote(b[i:j]))
	}
	return r.errorf("unexpected character %s", strconv.Quote(string(b[i:i+1])))
}

// unknown reports an unknown word: a warning, or an error if strict.
func (r *reader) unknown(w []byte) error {
	if r.strict {
		return r.errorf("unknown word %s", textscan.Short(w))
	}
	r.warn("unknown word " + textscan.Short(w) + " (ignored)")
	return nil
}

// gm records a G or M word.
func (r *reader) gm(c byte, w, num []byte, sp span) error {
	k := &r.b
	v := code(num)
	var group int
	var why string
	if v < 0 {
		group = -2
	} else if c == 'G' {
		group, why = gInfo(v)
	} else {
		group, why = mInfo(v)
	}
	switch group {
	case -1:
		return r.errorf("%s (%s) is not supported", textscan.Short(w), why)
	case -2:
		return r.unknown(w)
	case -3:
		return nil
	}
	if c == 'G' {
		if k.gmask&(1<<group) != 0 {
			return r.errorf("%s and %s in one block (the same modal group)", r.word(k.gpos[group]), w)
		}
		k.gmask |= 1 << group
		k.g[group] = v
		k.gpos[group] = sp
		return nil
	}
	if k.mmask&(1<<group) != 0 {
		return r.errorf("%s and %s in one block (the same modal group)", r.word(k.mpos[group]), w)
	}
	k.mmask |= 1 << group
	k.m[group] = v
	k.mpos[group] = sp
	return nil
}

// word returns the text of the word at sp in the compacted line.
func (r *reader) word(sp span) string {
	return textscan.Short(r.buf[sp.lo:sp.hi])
}

// wordOf returns the text of the word of letter c.
func (r *reader) wordOf(c byte) string { return r.word(r.b.pos[c-'A']) }

// mm returns the value of the word of letter c in millimetres (in the
// block's units), or an error if it is not finite in millimetres.
func (r *reader) mm(c byte) (float64, error) {
	v := r.b.val[c-'A']
	if r.inch {
		sp := r.b.pos[c-'A']
		v = inchesToMM(r.buf[sp.lo+1:sp.hi], v)
		if math.IsInf(v, 0) {
			return 0, r.errorf("%s: out of range in millimetres", r.wordOf(c))
		}
	}
	return v, nil
}

// pow10 holds the powers of ten that float64 represents exactly.
var pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9,
	1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// inchesToMM returns v, the value of the decimal number num (as parse
// accepts it: no exponent), times 25.4. When num has at most 13 significant
// digits and 21 decimals the result is the exact product correctly rounded
// (so "1.5" inches is 38.1 mm, the float64 nearest 38.1, not 1.5·25.4 =
// 38.099999999999994): the digits times 254 are an integer below 2⁵³ and
// the one rounding is the division by an exact power of ten. Otherwise it
// is v·25.4.
func inchesToMM(num []byte, v float64) float64 {
	var mant uint64
	nd, k, dot := 0, 0, false
	for _, c := range num {
		switch {
		case c == '.':
			dot = true
			continue
		case c < '0' || c > '9':
			continue // the sign
		case nd > 0 || c != '0':
			nd++
		}
		mant = mant*10 + uint64(c-'0')
		if dot {
			k++
		}
	}
	if nd > 13 || k+1 >= len(pow10) { // 254·(10¹³−1) < 2⁵³
		return v * 25.4
	}
	mm := float64(mant*254) / pow10[k+1]
	if num[0] == '-' {
		mm = -mm
	}
	return mm
}

// whole returns the value of the word of letter c as an integer in [lo, hi].
func (r *reader) whole(c byte, lo, hi int, what string) (int, error) {
	v := r.b.val[c-'A']
	if v != math.Trunc(v) || v < float64(lo) || v > float64(hi) {
		return 0, r.errorf("%s: %s must be a whole number from %d to %d", r.wordOf(c), what, lo, hi)
	}
	return int(v), nil
}

// exec executes the block in r.b, in RS-274's order: units, F, S, T, M6,
// plane, distance modes, motion, stop.
func (r *reader) exec() error {
	k := &r.b
	if k.have&bN != 0 {
		if _, err := r.whole('N', 0, math.MaxInt32, "a line number"); err != nil {
			return err
		}
	}
	if k.gmask&(1<<gUnits) != 0 {
		r.inch = k.g[gUnits] == 200
		r.inches = r.inches || r.inch
	}
	if k.have&bF != 0 {
		f, err := r.mm('F')
		if err != nil {
			return err
		}
		if f < 0 {
			return r.errorf("%s: negative feed rate", r.wordOf('F'))
		}
		r.feed = f
	}
	if k.have&bS != 0 {
		if s := k.val['S'-'A']; s < 0 {
			return r.errorf("%s: negative spindle speed", r.wordOf('S'))
		} else {
			r.speed = s
		}
	}
	if k.have&bT != 0 {
		t, err := r.whole('T', 0, math.MaxInt32, "a tool number")
		if err != nil {
			return err
		}
		r.selected = t
	}
	if k.mmask&(1<<mToolChange) != 0 {
		r.toolChange()
	}
	if k.gmask&(1<<gPlane) != 0 {
		r.plane = Plane((k.g[gPlane] - 170) / 10)
	}
	if k.gmask&(1<<gDistance) != 0 {
		r.incr = k.g[gDistance] == 910
	}
	if k.gmask&(1<<gArcDistance) != 0 {
		r.arcAbs = k.g[gArcDistance] == 901
	}
	explicit := k.gmask&(1<<gMotion) != 0
	if explicit {
		if g := k.g[gMotion]; g == 800 {
			r.motion = -1
		} else {
			r.motion = int8(g / 10)
		}
	}
	isArc := false
	if k.have&bAxes != 0 || explicit && r.motion >= int8(ArcCW) {
		if r.motion < 0 {
			if explicit {
				return r.errorf("axis words with G80 (no motion mode)")
			}
			return r.errorf("axis words with no motion mode in force (G0, G1, G2 or G3)")
		}
		isArc = Kind(r.motion).IsArc()
		if err := r.move(); err != nil {
			return err
		}
	}
	if !isArc {
		for _, c := range []byte("IJKR") {
			if k.have&(1<<(c-'A')) != 0 {
				return r.errorf("%s with no arc (G2 or G3) to use it", r.wordOf(c))
			}
		}
	}
	quiet := k.gmask&(1<<gNonModal) != 0 || k.gmask&(1<<gPathMode) != 0 && k.g[gPathMode] == 640
	for _, c := range []byte("PQ") {
		bit := uint32(1) << (c - 'A')
		if k.have&bit == 0 || quiet || c == 'P' && isArc {
			continue
		}
		if r.strict {
			return r.errorf("unused word %s", r.wordOf(c))
		}
		r.warn("unused word " + r.wordOf(c) + " (ignored)")
	}
	if k.mmask&(1<<mStop) != 0 {
		if m := k.m[mStop]; m == 20 || m == 300 {
			r.end = r.word(k.mpos[mStop]) + " at line " + strconv.Itoa(r.line)
		}
	}
	return nil
}

// chunk is the number of moves in each chunk of Read's.
const chunk = 1 << 14

// toolChange puts the selected tool in the spindle from the next move on.
// The first M6 makes the tool of the moves before it 0 (nothing was in
// the spindle), where they had their T word's (a program without M6).
func (r *reader) toolChange() {
	if !r.m6 {
		if r.forcedTool {
			r.warn(fmt.Sprintf("the first M6 comes more than %d moves after a T word: the moves before it keep the tool of their T word, not 0", r.lookahead))
		} else {
			for i := range r.pending[r.phead:] {
				r.pending[r.phead+i].Tool = 0
			}
		}
	}
	r.m6 = true
	r.spindle = r.selected
	r.release(false)
}

// final reports whether move m read now can no longer change.
func (r *reader) final(m *Move) bool {
	return r.known == [3]bool{true, true, true} && (r.m6 || m.Tool == 0 || r.forcedTool)
}

// release moves the pending moves that are final (all of them at the
// end) to ready, in order; then, if more than lookahead are pending, the
// oldest ones as they are.
func (r *reader) release(end bool) {
	q := r.pending[r.phead:]
	n := 0
	for n < len(q) && (end || r.final(&q[n])) {
		n++
	}
	if over := len(q) - r.lookahead; r.lookahead >= 0 && over > n {
		for a := range 3 {
			r.forced[a] = r.forced[a] || !r.known[a]
		}
		for _, m := range q[:over] {
			r.forcedTool = r.forcedTool || !r.m6 && m.Tool != 0
		}
		n = over
	}
	if n == 0 {
		return
	}
	r.ready = append(r.ready, q[:n]...)
	r.phead += n
	switch {
	case r.phead == len(r.pending):
		r.pending, r.phead = r.pending[:0], 0
	case r.phead >= 1024 && 2*r.phead >= len(r.pending):
		k := copy(r.pending, r.pending[r.phead:])
		r.pending, r.phead = r.pending[:k], 0
	}
}

// setStart makes v the start of axis a, whose start was unknown: every move
// so far had 0 on that axis (the tool had not moved along it), and now has
// v.
func (r *reader) setStart(a int, v float64) error {
	if r.forced[a] && v != 0 {
		return r.errorf("%c is first given a value here, more than %d moves after the first one, which were read with %c at 0: give the start position (Options.Start, collide nc --start)", 'X'+a, r.lookahead, 'X'+a)
	}
	r.known[a] = true
	r.pos[a] = v
	if v == 0 {
		return nil
	}
	for i := range r.pending[r.phead:] {
		m := &r.pending[r.phead+i]
		m.From = m.From.SetIndex(a, v)
		m.To = m.To.SetIndex(a, v)
		if m.Kind.IsArc() {
			m.Center = m.Center.SetIndex(a, m.Center.Index(a)+v)
		}
	}
	return nil
}

// move performs the motion of the block in the motion mode r.motion.
func (r *reader) move() error {
	k := &r.b
	if r.maxMoves > 0 && r.nmoves >= r.maxMoves {
		return r.errorf("more than %d moves", r.maxMoves)
	}
	to := r.pos
	for a := range 3 {
		c := byte('X' + a)
		if k.have&(1<<(c-'A')) == 0 {
			continue
		}
		v, err := r.mm(c)
		if err != nil {
			return err
		}
		if !r.known[a] {
			if r.incr {
				r.known[a] = true
			} else if err := r.setStart(a, v); err != nil {
				return err
			}
		}
		if r.incr {
			v += r.pos[a]
			if math.IsInf(v, 0) {
				return r.errorf("%s: the position is out of range", r.wordOf(c))
			}
		}
		to[a] = v
	}
	m := Move{
		Line:    r.line,
		N:       -1,
		Kind:    Kind(r.motion),
		From:    geom.Vec3{X: r.pos[0], Y: r.pos[1], Z: r.pos[2]},
		To:      geom.Vec3{X: to[0], Y: to[1], Z: to[2]},
		Feed:    r.feed,
		Spindle: r.speed,
		Tool:    r.selected,
	}
	if k.have&bN != 0 {
		m.N = int(k.val['N'-'A'])
	}
	if m.Kind.IsArc() {
		if err := r.arc(&m, to); err != nil {
			return err
		}
	}
	if r.m6 {
		m.Tool = r.spindle
	}
	r.nmoves++
	r.pos = to
	if r.phead == len(r.pending) && r.final(&m) {
		r.ready = append(r.ready, m)
		return nil
	}
	r.pending = append(r.pending, m)
	r.release(false)
	return nil
}

// arc computes the centre, radius and turns of the arc m, from r.pos to to,
// and checks it.
func (r *reader) arc(m *Move, to [3]float64) error {
	k := &r.b
	m.Plane = r.plane
	a, b, n := r.plane.Axes()
	g := m.Kind.String()
	ax, bx := byte('X'+a), byte('X'+b)                  // the plane's axis letters
	ai, bi, ni := byte('I'+a), byte('I'+b), byte('I'+n) // and their centre letters
	bit := func(c byte) uint32 { return 1 << (c - 'A') }
	if k.have&(bit(ax)|bit(bx)) == 0 {
		return r.errorf("%s with neither %c nor %c (an arc in the %v plane)", g, ax, bx, r.plane)
	}
	if k.have&bP != 0 {
		p, err := r.whole('P', 1, maxTurns, "the number of turns")
		if err != nil {
			return err
		}
		m.Turns = p - 1
	}
	sx, sy := r.pos[a], r.pos[b]
	ex, ey := to[a], to[b]
	var ox, oy float64 // the centre, relative to the start (or absolute, if abs)
	abs := false
	switch {
	case k.have&bR != 0 && k.have&bIJK != 0:
		return r.errorf("%s with both R and %c %c", g, ai, bi)
	case k.have&bR != 0:
		rad, err := r.mm('R')
		if err != nil {
			return err
		}
		if rad == 0 {
			return r.errorf("%s with radius %s", g, r.wordOf('R'))
		}
		if sx == ex && sy == ey {
			return r.errorf("%s with R ends where it starts (a full circle needs %c %c)", g, ai, bi)
		}
		dx, dy := ex-sx, ey-sy
		chord := math.Hypot(dx, dy)
		h, ar := chord/2, math.Abs(rad)
		if h-ar > radiusTol {
			return r.errorf("%s: arc radius %s is less than half the chord (%s)", g, num(ar), num(h))
		}
		// The centre is off the chord's midpoint by d, to the left of the
		// chord (seen from the positive normal) for a counter-clockwise arc
		// of at most half a turn, to the right for a clockwise one; R < 0
		// asks for the other centre.
		d := 0.0
		if ar > h {
			d = math.Sqrt(ar-h) * math.Sqrt(ar+h)
		}
		if (m.Kind == ArcCW) == (rad > 0) {
			d = -d
		}
		ux, uy := dx/chord, dy/chord
		ox, oy = dx/2-d*uy, dy/2+d*ux
	case k.have&bIJK == 0:
		return r.errorf("%s with neither R nor %c %c (the centre in the %v plane)", g, ai, bi, r.plane)
	case k.have&bit(ni) != 0:
		return r.errorf("%s: %s in an arc in the %v plane (only %c and %c)", g, r.wordOf(ni), r.plane, ai, bi)
	default:
		var c [2]float64
		for i, l := range [2]byte{ai, bi} {
			if k.have&bit(l) == 0 {
				if r.arcAbs {
					return r.errorf("%s: %c missing with absolute arc centres (G90.1)", g, l)
				}
				continue
			}
			v, err := r.mm(l)
			if err != nil {
				return err
			}
			c[i] = v
		}
		if r.arcAbs {
			for _, ax := range [2]int{a, b} {
				if !r.known[ax] {
					return r.errorf("%s: absolute centre (G90.1) with the start of %c unknown (give %c a value first, or set Options.Start)", g, 'X'+ax, 'X'+ax)
				}
			}
			abs = true
		}
		ox, oy = c[0], c[1]
	}
	// The radii come from the centre relative to the start, so that they do
	// not depend on where the start is (see setStart), except for an
	// absolute centre, given as such.
	ca, cb := sx+ox, sy+oy
	r0 := math.Hypot(ox, oy)
	r1 := math.Hypot(ex-sx-ox, ey-sy-oy)
	if abs {
		ca, cb = ox, oy
		r0 = math.Hypot(sx-ca, sy-cb)
		r1 = math.Hypot(ex-ca, ey-cb)
	}
	if math.IsInf(ca, 0) || math.IsInf(cb, 0) || math.IsInf(r0, 0) || math.IsInf(r1, 0) || r0 != r0 || r1 != r1 {
		return r.errorf("%s: the arc's centre or radius is out of range", g)
	}
	if k.have&bR == 0 {
		if r0 < radiusTol || r1 < radiusTol {
			return r.errorf("%s: arc of zero radius (%s at the start, %s at the end)", g, num(r0), num(r1))
		}
		tol := arcTolMM
		if r.inch {
			tol = arcTolInch
		}
		if d := math.Abs(r1 - r0); d > 100*tol || d > tol && d > arcRelTol*max(r0, r1) {
			s0, s1 := num(r0), num(r1)
			if s0 == s1 {
				s0, s1 = strconv.FormatFloat(r0, 'g', -1, 64), strconv.FormatFloat(r1, 'g', -1, 64)
			}
			return r.errorf("arc radius differs at start (%s) and end (%s)", s0, s1)
		}
	}
	m.Center = m.From.SetIndex(a, ca).SetIndex(b, cb)
	m.Radius = r0
	if !ArcInRange(*m) {
		return r.errorf("%s: the arc's centre or radius is out of range (its circle or its length reaches beyond the float64 range)", g)
	}
	return nil
}

// ArcInRange reports whether arc m stays well within the float64 range:
// its length is finite, and four times the sum of its radius and the
// magnitudes of its centre's and ends' coordinates is too, so that its
// circle's box and the bounds a checker computes from them do not
// overflow. Read refuses the arcs that do not.
func ArcInRange(m Move) bool {
	if !m.Kind.IsArc() {
		return true
	}
	s := m.Radius
	for _, p := range [3]geom.Vec3{m.Center, m.From, m.To} {
		s += math.Abs(p.X) + math.Abs(p.Y) + math.Abs(p.Z)
	}
	return !math.IsInf(4*s, 0) && !math.IsNaN(s) && !math.IsInf(m.Length(), 0)
}

// num formats a length for a message.
func num(v float64) string { return strconv.FormatFloat(v, 'g', 6, 64) }
