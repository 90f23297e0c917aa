package textscan

// Package textscan holds the line reader, tokenizer and number parsers of
// the text mesh codecs (mesh/obj, mesh/off). Nothing here allocates per line
// or per number in the common case.

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"math"
	"strconv"
)

const (
	// MaxLine caps the length of one line (or one logical line joined by
	// continuations), so that input without newlines cannot exhaust memory.
	MaxLine = 1 << 20
	// readBuf is the size of the bufio buffer; longer lines are assembled in
	// a separate, capped buffer.
	readBuf = 64 << 10
)

// ErrLineTooLong is reported by LineReader.next when a line exceeds MaxLine.
var ErrLineTooLong = errors.New("line too long")

// LineReader returns the physical lines of a stream, without their "\n" or
// "\r\n" terminators, and counts them.
type LineReader struct {
	br   *bufio.Reader
	long []byte // assembles lines longer than the bufio buffer
	Line int    // 1-based number of the last line returned
	Err  error  // io error or ErrLineTooLong; nil at a clean EOF
}

// NewLineReader returns a LineReader reading r through a large buffer.
func NewLineReader(r io.Reader) *LineReader {
	return &LineReader{br: bufio.NewReaderSize(r, readBuf)}
}

// next returns the next line, without a UTF-8 byte order mark if it is the
// first. The slice is valid until the following call.
// It returns false at the end of the input or on an error (lr.Err).
func (lr *LineReader) Next() ([]byte, bool) {
	b, err := lr.br.ReadSlice('\n')
	if err == bufio.ErrBufferFull {
		lr.long = append(lr.long[:0], b...)
		for err == bufio.ErrBufferFull {
			b, err = lr.br.ReadSlice('\n')
			if len(lr.long)+len(b) > MaxLine {
				lr.Err = ErrLineTooLong
				return nil, false
			}
			lr.long = append(lr.long, b...)
		}
		b = lr.long
	}
	if err != nil && err != io.EOF {
		lr.Err = err
		return nil, false
	}
	if len(b) == 0 {
		return nil, false // clean EOF
	}
	lr.Line++
	if n := len(b); b[n-1] == '\n' {
		b = b[:n-1]
	}
	for n := len(b); n > 0 && b[n-1] == '\r'; n-- {
		b = b[:n-1] // CRLF, and the CRCRLF of doubly converted files
	}
	if lr.Line == 1 {
		b = bytes.TrimPrefix(b, utf8BOM)
	}
	return b, true
}

// utf8BOM is the byte order mark that some editors put at the start of a
// text file.
var utf8BOM = []byte("\xEF\xBB\xBF")

// IsSpace reports whether c separates fields: space, tab, VT or FF. A CR is
// not a space: CRs before the line end are removed, and any other CR (as in
// files with old Mac line ends) makes the line malformed instead of being
// silently read as one long line.
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

// field returns the field of b starting at or after i (after any spaces), and
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
	NumMalformed          // not a number
	NumRange              // beyond the float64 range (e.g. 1e400)
	NumNonFinite          // NaN or ±Inf written as such
)

// ParseFloat parses a decimal number such as "-1.25e-3", correctly rounded
// to float64. It takes an exact fast path (Clinger's: at most 19 significant
// digits, an integer mantissa below 2^53 and a power of ten that float64
// holds exactly) and falls back to strconv.ParseFloat otherwise. It rejects
// NaN and infinities.
func ParseFloat(b []byte) (float64, NumError) {
	i := 0
	neg := false
	if i < len(b) && (b[i] == '+' || b[i] == '-') {
		neg = b[i] == '-'
		i++
	}
	var mant uint64
	nd := 0 // significant digits in mant
	digits := false
	exp := 0
	for ; i < len(b); i++ {
		c := b[i] - '0'
		if c > 9 {
			break
		}
		digits = true
		if mant == 0 && c == 0 {
			continue
		}
		nd++
		mant = mant*10 + uint64(c)
	}
	if i < len(b) && b[i] == '.' {
		i++
		for ; i < len(b); i++ {
			c := b[i] - '0'
			if c > 9 {
				break
			}
			digits = true
			exp--
			if mant == 0 && c == 0 {
				continue
			}
			nd++
			mant = mant*10 + uint64(c)
		}
	}
	if !digits {
		return parseFloatSlow(b)
	}
	if i < len(b) && b[i]|0x20 == 'e' {
		i++
		eneg := false
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			eneg = b[i] == '-'
			i++
		}
		e := 0
		start := i
		for ; i < len(b); i++ {
			c := b[i] - '0'
			if c > 9 {
				break
			}
			if e < 100000 {
				e = e*10 + int(c)
			}
		}
		if i == start {
			return parseFloatSlow(b)
		}
		if eneg {
			e = -e
		}
		exp += e
	}
	if i != len(b) || nd > 19 {
		return parseFloatSlow(b)
	}
	var f float64
	switch {
	case mant == 0:
		f = 0
	case mant > 1<<53:
		return parseFloatSlow(b)
	case exp == 0:
		f = float64(mant)
	case exp > 0 && exp <= 22:
		f = float64(mant) * pow10[exp]
	case exp < 0 && exp >= -22:
		f = float64(mant) / pow10[-exp]
	default:
		return parseFloatSlow(b)
	}
	if neg {
		f = -f
	}
	return f, NumOK
}

// parseFloatSlow parses b with strconv.ParseFloat.
func parseFloatSlow(b []byte) (float64, NumError) {
	if len(b) == 0 {
		return 0, NumMalformed
	}
	f, err := strconv.ParseFloat(string(b), 64)
	if err != nil {
		if errors.Is(err, strconv.ErrRange) {
			return 0, NumRange
		}
		return 0, NumMalformed
	}
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, NumNonFinite
	}
	return f, NumOK
}

// ParseUint parses a decimal integer without sign. It returns ok == false if
// b is not one; values above limit are clamped to limit+1 (so that callers
// can report them as out of range without overflow).
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

// short returns b as a string for an error message, shortened if long.
func Short(b []byte) string {
	const max = 40
	if len(b) > max {
		return string(b[:max]) + "..."
	}
	return string(b)
}

// quote returns b quoted for an error message, shortened if long.
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
	return "malformed number " + Quote(tok)
}
