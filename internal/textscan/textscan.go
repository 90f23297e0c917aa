// Package textscan holds the line reader, line counter, tokenizer and number
// parsers shared by the text mesh codecs (mesh/obj, mesh/off, ASCII
// mesh/stl and ASCII mesh/ply); pose files (flight) and the command line's
// numbers use its number parser too, so every number collide reads has the
// same decimal grammar. Nothing here allocates per line or per
// number in the common case.
//
// # Line ends
//
// A line ends at LF, at CR LF, at CR CR LF (a CRLF file converted to CRLF a
// second time) or at a CR followed by anything else or by the end of the
// input (old Mac files). LineReader and LineCounter apply the same rule, so
// every codec numbers lines the same way.
//
// # Numbers
//
// ParseFloat accepts decimal numbers only:
//
//	number   = [sign] (digits ["." [digits]] | "." digits) [exponent]
//	exponent = ("e" | "E") [sign] digits
//	sign     = "+" | "-"
//	digits   = "0" … "9" { "0" … "9" }
//
// so "1", "-1.5e-3", ".5", "5.", "+2" and "1E3" are numbers, and Go's other
// literal forms (underscores as in "1_0", hexadecimal as in "0x1p3", "0x10",
// binary and octal prefixes) are not. The words "inf", "infinity" and "nan"
// (any case, optionally signed) are reported as non-finite rather than
// malformed. ParseInt and ParseUint accept [sign] digits and digits.
package textscan

import (
	"bytes"
	"errors"
	"io"
	"strconv"
)

const (
	// MaxLine caps the length of one line (or one logical line joined by
	// continuations), so that input without newlines cannot exhaust memory.
	MaxLine = 1 << 20
	// readBuf is the initial size of the read buffer; it grows (up to a
	// little more than MaxLine) only for longer lines.
	readBuf = 64 << 10
)

// ErrLineTooLong is reported by LineReader.Next when a line exceeds MaxLine.
var ErrLineTooLong = errors.New("line too long")

// LineReader returns the physical lines of a stream, without their line
// ends (see the package documentation), and counts them.
type LineReader struct {
	src      io.Reader
	buf      []byte
	pos, end int   // buf[pos:end] is read and not yet returned
	lfScan   int   // buf[pos:lfScan] holds no LF; buf[lfScan] is one, if lfScan < end
	crScan   int   // likewise for CR
	rerr     error // sticky error from src (io.EOF at the end)
	Line     int   // 1-based number of the last line returned
	Err      error // io error or ErrLineTooLong; nil at a clean EOF
	// Offset is the number of bytes of the input up to the end of the
	// last line returned, its line end included: the offset of the next
	// line.
	Offset int64
}

// NewLineReader returns a LineReader reading r through a large buffer.
func NewLineReader(r io.Reader) *LineReader {
	return &LineReader{src: r, buf: make([]byte, readBuf)}
}

// Next returns the next line, without a UTF-8 byte order mark if it is the
// first. The slice is valid until the following call.
// It returns false at the end of the input or on an error (lr.Err).
func (lr *LineReader) Next() ([]byte, bool) {
	for {
		// The next LF and the next CR are remembered between calls, so
		// that each byte is searched about once for each: input with few
		// LFs (old Mac files) or no CRs costs no more than one search a
		// line.
		lf := max(lr.lfScan, lr.pos)
		if lf < lr.end && lr.buf[lf] != '\n' {
			lf = scan(lr.buf, lf, lr.end, '\n')
		}
		cr := max(lr.crScan, lr.pos)
		if cr < lr.end && lr.buf[cr] != '\r' {
			cr = scan(lr.buf, cr, lr.end, '\r')
		}
		lr.lfScan, lr.crScan = lf, cr
		data := lr.buf[lr.pos:lr.end]
		if lr.crScan < lr.lfScan {
			p := lr.crScan - lr.pos
			if len(data) < p+3 && lr.rerr == nil {
				// Too few bytes after the CR to tell its kind: read more.
				lr.more()
				continue
			}
			n := 1 // a lone CR
			if p+1 < len(data) && data[p+1] == '\n' {
				n = 2
			} else if p+2 < len(data) && data[p+1] == '\r' && data[p+2] == '\n' {
				n = 3
			}
			return lr.line(data[:p], n)
		}
		if lr.lfScan < lr.end {
			return lr.line(data[:lr.lfScan-lr.pos], 1)
		}
		if len(data) > MaxLine {
			lr.Err = ErrLineTooLong
			return nil, false
		}
		if lr.rerr != nil {
			if lr.rerr != io.EOF {
				lr.Err = lr.rerr
				return nil, false
			}
			if len(data) == 0 {
				return nil, false // clean EOF
			}
			return lr.line(data, 0) // the last line, without a line end
		}
		lr.more()
	}
}

// scan returns the index of the first c in buf[from:end], or end if there is
// none.
func scan(buf []byte, from, end int, c byte) int {
	if j := bytes.IndexByte(buf[from:end], c); j >= 0 {
		return from + j
	}
	return end
}

// line returns b, a line followed by a line end of n bytes.
func (lr *LineReader) line(b []byte, n int) ([]byte, bool) {
	if len(b) > MaxLine {
		lr.Err = ErrLineTooLong
		return nil, false
	}
	lr.pos += len(b) + n
	lr.Offset += int64(len(b) + n)
	lr.Line++
	if lr.Line == 1 {
		b = bytes.TrimPrefix(b, utf8BOM)
	}
	return b, true
}

// utf8BOM is the byte order mark that some editors put at the start of a
// text file.
var utf8BOM = []byte("\xEF\xBB\xBF")

// more reads more input after buf[pos:end], moving that data to the start of
// buf, and growing buf if it is full. It reports false, with lr.rerr set, if
// nothing more could be read.
func (lr *LineReader) more() bool {
	if lr.pos > 0 {
		lr.lfScan = max(lr.lfScan, lr.pos) - lr.pos
		lr.crScan = max(lr.crScan, lr.pos) - lr.pos
		lr.end = copy(lr.buf, lr.buf[lr.pos:lr.end])
		lr.pos = 0
	}
	if lr.end == len(lr.buf) {
		// Only for lines longer than the buffer; MaxLine bounds the growth.
		b := make([]byte, 2*len(lr.buf))
		copy(b, lr.buf[:lr.end])
		lr.buf = b
	}
	if lr.rerr != nil {
		return false
	}
	n, err := ReadSome(lr.src, lr.buf[lr.end:])
	lr.end += n
	lr.rerr = err
	return n > 0
}

// ReadSome reads into b, which must not be empty, until it has at least
// one byte or an error: a reader that returns nothing 100 times running
// is io.ErrNoProgress, as in bufio.
func ReadSome(r io.Reader, b []byte) (int, error) {
	for range 100 {
		if n, err := r.Read(b); n > 0 || err != nil {
			return n, err
		}
	}
	return 0, io.ErrNoProgress
}

// LineCounter numbers the lines of a stream that a scanner reads a byte at a
// time (ASCII STL, the ASCII PLY body), by the same rule as LineReader: the
// scanner reports every CR and LF it consumes, and calls Other on any other
// byte it consumes between them.
type LineCounter struct {
	Line int   // 1-based line of the next byte
	cr   uint8 // CRs just consumed, at most 2
	bol  bool  // the last byte consumed ended a line
}

// CR counts a consumed carriage return. It ends a line, unless the line end
// turns out to be CR CR LF, which LF then corrects.
func (lc *LineCounter) CR() {
	lc.Line++
	lc.bol = true
	if lc.cr < 2 {
		lc.cr++
	}
}

// LF counts a consumed line feed: a line end of its own, or the end of a CR
// LF or CR CR LF already counted.
func (lc *LineCounter) LF() {
	switch lc.cr {
	case 0:
		lc.Line++
	case 2:
		lc.Line-- // CR CR LF: the second CR did not end a line
	}
	lc.cr = 0
	lc.bol = true
}

// Other records that a consumed byte was neither CR nor LF.
func (lc *LineCounter) Other() {
	lc.cr = 0
	lc.bol = false
}

// Byte records a consumed byte c.
func (lc *LineCounter) Byte(c byte) {
	switch c {
	case '\r':
		lc.CR()
	case '\n':
		lc.LF()
	default:
		lc.Other()
	}
}

// EOFLine is the line to report for an unexpected end of input: the last
// line, not the empty one after a final line end.
func (lc *LineCounter) EOFLine() int {
	if lc.bol && lc.Line > 1 {
		return lc.Line - 1
	}
	return lc.Line
}

// IsSpace reports whether c separates fields: space, tab, VT or FF. (CR is
// a line end, and LineReader removes line ends.)
func IsSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\v' || c == '\f'
}

// SkipSpace returns the index of the first non-space byte of b at or after i.
func SkipSpace(b []byte, i int) int {
	for i < len(b) && IsSpace(b[i]) {
		i++
	}
	return i
}

// Field returns the field of b starting at or after i (after any spaces), and
// the index just past it. A '#' starts a comment that ends the line: it
// yields an empty field.
func Field(b []byte, i int) (tok []byte, next int) {
	i = SkipSpace(b, i)
	if i < len(b) && b[i] == '#' {
		return nil, len(b)
	}
	j := i
	for j < len(b) && !IsSpace(b[j]) && b[j] != '#' {
		j++
	}
	return b[i:j], j
}

// pow10 holds the powers of ten that float64 represents exactly.
var pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9,
	1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// NumError classifies a number that ParseFloat rejects.
type NumError uint8

const (
	NumOK        NumError = iota
	NumMalformed          // not a decimal number
	NumRange              // beyond the float64 range (e.g. 1e400)
	NumNonFinite          // NaN or ±Inf written as such
)

// ParseFloat parses a decimal number (the grammar of the package
// documentation) such as "-1.25e-3", correctly rounded to float64. It
// checks the syntax itself, in one pass that also takes an exact fast path
// (Clinger's: at most 19 significant digits, an integer mantissa below 2^53
// and a power of ten that float64 holds exactly), and hands only well-formed
// decimal numbers outside that path to strconv.ParseFloat. A number that
// underflows reads as 0 or a subnormal; one beyond the float64 range is
// NumRange; "inf", "infinity" and "nan" are NumNonFinite; anything else that
// is not a decimal number is NumMalformed.
func ParseFloat(b []byte) (float64, NumError) {
	i := 0
	neg := false
	if i < len(b) && (b[i] == '+' || b[i] == '-') {
		neg = b[i] == '-'
		i++
	}
	var mant uint64
	nd := 0 // significant digits in mant
	exp := 0
	start := i
	for ; i < len(b); i++ {
		c := b[i] - '0'
		if c > 9 {
			break
		}
		if mant == 0 && c == 0 {
			continue
		}
		nd++
		mant = mant*10 + uint64(c)
	}
	digits := i > start
	if i < len(b) && b[i] == '.' {
		i++
		frac := i
		for ; i < len(b); i++ {
			c := b[i] - '0'
			if c > 9 {
				break
			}
			exp--
			if mant == 0 && c == 0 {
				continue
			}
			nd++
			mant = mant*10 + uint64(c)
		}
		digits = digits || i > frac
	}
	if !digits {
		return 0, notNumber(b)
	}
	if i < len(b) && b[i]|0x20 == 'e' {
		i++
		eneg := false
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			eneg = b[i] == '-'
			i++
		}
		e := 0
		estart := i
		for ; i < len(b); i++ {
			c := b[i] - '0'
			if c > 9 {
				break
			}
			if e < 100000 {
				e = e*10 + int(c)
			}
		}
		if i == estart {
			return 0, NumMalformed
		}
		if eneg {
			e = -e
		}
		exp += e
	}
	if i != len(b) {
		return 0, NumMalformed
	}
	var f float64
	switch {
	case nd > 19 || mant > 1<<53:
		return parseDecimal(b) // (beyond 19 digits, mant has overflowed)
	case mant == 0:
		f = 0
	case exp == 0:
		f = float64(mant)
	case exp > 0 && exp <= 22:
		f = float64(mant) * pow10[exp]
	case exp < 0 && exp >= -22:
		f = float64(mant) / pow10[-exp]
	default:
		return parseDecimal(b)
	}
	if neg {
		f = -f
	}
	return f, NumOK
}

// parseDecimal parses b, a well-formed decimal number, with
// strconv.ParseFloat.
func parseDecimal(b []byte) (float64, NumError) {
	f, err := strconv.ParseFloat(string(b), 64)
	if err != nil {
		// The syntax is checked: the only error left is overflow (an
		// underflow returns 0 or a subnormal without error).
		return 0, NumRange
	}
	return f, NumOK
}

// notNumber classifies b, which holds no digit: the words for NaN and the
// infinities are non-finite, anything else is malformed.
func notNumber(b []byte) NumError {
	if len(b) > 0 && (b[0] == '+' || b[0] == '-') {
		b = b[1:]
	}
	if EqualFold(b, "inf") || EqualFold(b, "infinity") || EqualFold(b, "nan") {
		return NumNonFinite
	}
	return NumMalformed
}

// EqualFold reports whether b equals the lower-case ASCII word w, ignoring
// case.
func EqualFold(b []byte, w string) bool {
	if len(b) != len(w) {
		return false
	}
	for i := range len(b) {
		if b[i]|0x20 != w[i] {
			return false
		}
	}
	return true
}

// ParseUint parses a decimal integer without sign: one or more digits 0-9,
// nothing else. It returns ok == false if b is not one; values above limit
// are clamped to limit+1 (so that callers can report them as out of range
// without overflow). limit must be below math.MaxInt64/10.
func ParseUint(b []byte, limit int64) (v int64, ok bool) {
	if len(b) == 0 {
		return 0, false
	}
	for _, c := range b {
		d := c - '0'
		if d > 9 {
			return 0, false
		}
		if v <= limit {
			v = v*10 + int64(d)
		}
	}
	if v > limit {
		v = limit + 1
	}
	return v, true
}

// ParseInt parses a decimal integer with an optional sign: "+" or "-", then
// one or more digits 0-9. It returns ok == false if b is not one; magnitudes
// above limit are clamped to limit+1, as in ParseUint. (It is written to be
// inlined.)
func ParseInt(b []byte, limit int64) (v int64, ok bool) {
	sign := int64(1)
	for i, c := range b {
		if d := c - '0'; d <= 9 {
			v = min(v*10+int64(d), limit+1)
		} else if i == 0 && len(b) > 1 && (c == '-' || c == '+') {
			sign = int64(',') - int64(c) // 1 for '+', -1 for '-'
		} else {
			return 0, false
		}
	}
	return sign * v, len(b) > 0
}

// Short returns b as a string for an error message, shortened if long.
func Short(b []byte) string {
	const max = 40
	if len(b) > max {
		return string(b[:max]) + "..."
	}
	return string(b)
}

// Quote returns b quoted for an error message, shortened if long.
func Quote(b []byte) string {
	const max = 40
	if len(b) > max {
		return strconv.Quote(string(b[:max])) + "..."
	}
	return strconv.Quote(string(b))
}

// Describe returns the error message for the rejected token tok.
func (e NumError) Describe(tok []byte) string {
	switch e {
	case NumRange:
		return "number " + Quote(tok) + " out of float64 range"
	case NumNonFinite:
		return "non-finite number " + Quote(tok)
	}
	return "malformed number " + Quote(tok) + " (want a decimal number such as -1.5e-3)"
}
