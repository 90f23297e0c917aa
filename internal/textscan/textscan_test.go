package textscan

import (
	"bytes"
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"
)

// TestParseFloat checks ParseFloat, fast path and fallback, against
// strconv.ParseFloat bit for bit on random decimal strings (whose syntax
// both accept).
func TestParseFloat(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	digits := func(n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte('0' + rng.IntN(10))
		}
		return string(b)
	}
	check := func(s string) {
		t.Helper()
		want, err := strconv.ParseFloat(s, 64)
		got, e := ParseFloat([]byte(s))
		switch {
		case err != nil || math.IsInf(want, 0) || math.IsNaN(want):
			if e == NumOK {
				t.Errorf("ParseFloat(%q) = %v, want an error", s, got)
			}
		case e != NumOK:
			t.Errorf("ParseFloat(%q) failed (%d), want %v", s, e, want)
		case math.Float64bits(got) != math.Float64bits(want):
			t.Errorf("ParseFloat(%q) = %v, want %v", s, got, want)
		}
	}
	fixed := []string{"0", "-0", "+0", "0.0", "-0.000", "1", "-1", ".5", "5.", "1e5", "1E-5", "1e+5",
		"9007199254740992", "9007199254740993", "9007199254740991.5", "1e22", "1e23", "1e-22", "1e-23",
		"123456789012345678", "1234567890123456789", "12345678901234567890", "0.1", "0.30000000000000004",
		"4.9e-324", "2.2250738585072014e-308", "1.7976931348623157e308", "1.7976931348623159e308",
		"00000000000000000000000001.5", "0.00000000000000000000000015", "1e99999999999", "1e-99999999999",
		"", "+", "-", ".", "e5", "1e", "1e+", "1.2.3", "1-2", "--1", "inf", "nan", "Infinity"}
	for _, s := range fixed {
		check(s)
	}
	for i := 0; i < 200000; i++ {
		s := ""
		if rng.IntN(2) == 0 {
			s = "-"
		}
		s += digits(rng.IntN(12))
		if rng.IntN(4) != 0 {
			s += "." + digits(rng.IntN(14))
		}
		if rng.IntN(3) == 0 {
			s += "e" + strconv.Itoa(rng.IntN(80)-40)
		}
		check(s)
	}
	for i := 0; i < 20000; i++ {
		x := math.Float64frombits(rng.Uint64())
		check(strconv.FormatFloat(x, 'g', -1, 64))
		check(strconv.FormatFloat(x, 'e', rng.IntN(20), 64))
	}
}

// TestParseFloatSyntax checks that ParseFloat accepts exactly the decimal
// grammar of the package documentation: Go's other literal forms, which
// strconv.ParseFloat accepts, are malformed.
func TestParseFloatSyntax(t *testing.T) {
	tests := []struct {
		in   string
		want NumError
		f    float64
	}{
		{"0", NumOK, 0},
		{"-1.5e-3", NumOK, -1.5e-3},
		{".5", NumOK, 0.5},
		{"5.", NumOK, 5},
		{"+2", NumOK, 2},
		{"1E3", NumOK, 1000},
		{"1e+3", NumOK, 1000},
		{"-.5E-1", NumOK, -0.05},
		{"007", NumOK, 7},
		{"5.e2", NumOK, 500},
		{"1e-400", NumOK, 0},        // underflow: a fine value
		{"4.9e-324", NumOK, 5e-324}, // the smallest subnormal
		{"123456789012345678901234567890", NumOK, 123456789012345678901234567890},
		{"1" + strings.Repeat("0", 64), NumOK, 1e64}, // 10^64 overflows uint64 to 0
		{"18446744073709551616", NumOK, 18446744073709551616},
		{"0.18446744073709551616e20", NumOK, 18446744073709551616},
		{"1e400", NumRange, 0},
		{"-1e400", NumRange, 0},
		{"inf", NumNonFinite, 0},
		{"+Inf", NumNonFinite, 0},
		{"-infinity", NumNonFinite, 0},
		{"NaN", NumNonFinite, 0},
		{"-nan", NumNonFinite, 0},
		{"1_0", NumMalformed, 0},
		{"1_000.5", NumMalformed, 0},
		{"0_1.5", NumMalformed, 0},
		{"1.5_0", NumMalformed, 0},
		{"1e1_0", NumMalformed, 0},
		{"0x1p3", NumMalformed, 0},
		{"+0x1p3", NumMalformed, 0},
		{"-0x1.8p1", NumMalformed, 0},
		{"0X1P-2", NumMalformed, 0},
		{"0x10", NumMalformed, 0},
		{"0b1", NumMalformed, 0},
		{"0o7", NumMalformed, 0},
		{"0_7", NumMalformed, 0},
		{"infx", NumMalformed, 0},
		{"in", NumMalformed, 0},
		{"nan(1)", NumMalformed, 0},
		{"", NumMalformed, 0},
		{"+", NumMalformed, 0},
		{".", NumMalformed, 0},
		{"-.", NumMalformed, 0},
		{".e1", NumMalformed, 0},
		{"e1", NumMalformed, 0},
		{"1e", NumMalformed, 0},
		{"1e+", NumMalformed, 0},
		{"1e+-1", NumMalformed, 0},
		{"1.2.3", NumMalformed, 0},
		{"++1", NumMalformed, 0},
		{"1 ", NumMalformed, 0},
		{" 1", NumMalformed, 0},
		{"1\r", NumMalformed, 0},
		{"1,5", NumMalformed, 0},
		{"1d3", NumMalformed, 0},
		{"１", NumMalformed, 0}, // a full-width digit
	}
	for _, tc := range tests {
		f, e := ParseFloat([]byte(tc.in))
		if e != tc.want || e == NumOK && f != tc.f {
			t.Errorf("ParseFloat(%q) = %v, %d; want %v, %d", tc.in, f, e, tc.f, tc.want)
		}
	}
}

// TestParseFloatAgainstStrconv checks, on random strings over the bytes
// that numbers are made of, that ParseFloat accepts a string exactly when
// it is a decimal number that strconv.ParseFloat reads as a finite value, and
// then returns the same value.
func TestParseFloatAgainstStrconv(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	const alphabet = "0123456789.eE+-_xXpPabfinINo"
	for range 300000 {
		b := make([]byte, 1+rng.IntN(8))
		for i := range b {
			if rng.IntN(3) == 0 {
				b[i] = alphabet[rng.IntN(len(alphabet))]
			} else {
				b[i] = "0123456789.e-"[rng.IntN(13)]
			}
		}
		s := string(b)
		got, e := ParseFloat(b)
		want, err := strconv.ParseFloat(s, 64)
		decimal := isDecimal(s)
		switch {
		case !decimal && e == NumOK:
			t.Fatalf("ParseFloat(%q) = %v, want an error: not a decimal number", s, got)
		case decimal && err != nil && e != NumRange:
			t.Fatalf("ParseFloat(%q) = %v, %d; strconv says %v", s, got, e, err)
		case decimal && err == nil && (e != NumOK || math.Float64bits(got) != math.Float64bits(want)):
			t.Fatalf("ParseFloat(%q) = %v, %d; want %v", s, got, e, want)
		}
	}
}

// isDecimal is the grammar of the package documentation, written
// independently of ParseFloat.
func isDecimal(s string) bool {
	digits := func(i int) int {
		for i < len(s) && '0' <= s[i] && s[i] <= '9' {
			i++
		}
		return i
	}
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	j := digits(i)
	n := j - i
	if j < len(s) && s[j] == '.' {
		k := digits(j + 1)
		n += k - j - 1
		j = k
	}
	if n == 0 {
		return false
	}
	if j < len(s) && (s[j] == 'e' || s[j] == 'E') {
		j++
		if j < len(s) && (s[j] == '+' || s[j] == '-') {
			j++
		}
		k := digits(j)
		if k == j {
			return false
		}
		j = k
	}
	return j == len(s)
}

func TestParseInt(t *testing.T) {
	tests := []struct {
		in string
		v  int64
		ok bool
	}{
		{"0", 0, true}, {"7", 7, true}, {"+7", 7, true}, {"-7", -7, true}, {"007", 7, true},
		{"1000", 1000, true}, {"1001", 1001, true}, {"99999999999999999999999", 1001, true},
		{"-99999999999999999999999", -1001, true},
		{"", 0, false}, {"+", 0, false}, {"-", 0, false}, {"1_0", 0, false}, {"0x10", 0, false},
		{"0b1", 0, false}, {"0o7", 0, false}, {"1.0", 0, false}, {"1e3", 0, false}, {"--1", 0, false},
		{"+-1", 0, false}, {" 1", 0, false}, {"1 ", 0, false},
	}
	for _, tc := range tests {
		v, ok := ParseInt([]byte(tc.in), 1000)
		if v != tc.v && tc.ok || ok != tc.ok {
			t.Errorf("ParseInt(%q, 1000) = %d, %v; want %d, %v", tc.in, v, ok, tc.v, tc.ok)
		}
		if u, ok := ParseUint([]byte(tc.in), 1000); ok != (tc.ok && tc.in[0] != '+' && tc.in[0] != '-') || ok && u != tc.v {
			t.Errorf("ParseUint(%q, 1000) = %d, %v", tc.in, u, ok)
		}
	}
}

// readLines returns the lines of s as LineReader returns them, with their
// numbers, reading r.
func readLines(t *testing.T, r io.Reader) ([]string, []int) {
	t.Helper()
	lr := NewLineReader(r)
	var lines []string
	var nums []int
	for {
		b, ok := lr.Next()
		if !ok {
			break
		}
		lines = append(lines, string(b))
		nums = append(nums, lr.Line)
	}
	if lr.Err != nil {
		t.Fatalf("LineReader: %v", lr.Err)
	}
	return lines, nums
}

func TestLineReader(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"a", []string{"a"}},
		{"a\n", []string{"a"}},
		{"a\nb", []string{"a", "b"}},
		{"a\r\nb\r\n", []string{"a", "b"}},
		{"a\rb\r", []string{"a", "b"}},
		{"a\rb", []string{"a", "b"}},
		{"a\r", []string{"a"}},
		{"\r", []string{""}},
		{"\r\r", []string{"", ""}},
		{"a\r\rb", []string{"a", "", "b"}},
		{"a\r\r\nb", []string{"a", "b"}},       // CR CR LF: one line end
		{"a\r\r\r\nb", []string{"a", "", "b"}}, // CR, then CR CR LF
		{"a\n\rb", []string{"a", "", "b"}},     // LF CR: two line ends
		{"a\n\nb\r\rc\r\n\r\nd", []string{"a", "", "b", "", "c", "", "d"}},
		{"a\r \nb", []string{"a", " ", "b"}},
		{"\xEF\xBB\xBFa\rb", []string{"a", "b"}},
		{"\xEF\xBB\xBF\r\xEF\xBB\xBFb", []string{"", "\xEF\xBB\xBFb"}},
		{"v 0 0 0\rv 1 0 0\rf 1 2 3\r", []string{"v 0 0 0", "v 1 0 0", "f 1 2 3"}},
	}
	for _, tc := range tests {
		for _, one := range []bool{false, true} {
			var r io.Reader = strings.NewReader(tc.in)
			if one {
				r = iotest.OneByteReader(r)
			}
			got, nums := readLines(t, r)
			if !slices.Equal(got, tc.want) {
				t.Errorf("%q (one byte at a time: %v): lines %q, want %q", tc.in, one, got, tc.want)
			}
			for i, n := range nums {
				if n != i+1 {
					t.Errorf("%q: line %d numbered %d", tc.in, i+1, n)
				}
			}
		}
	}
}

// TestLineReaderLong checks lines longer than the read buffer, with every
// kind of line end straddling the buffer's end, and the length limit.
func TestLineReaderLong(t *testing.T) {
	for _, end := range []string{"\n", "\r\n", "\r", "\r\r\n"} {
		for _, n := range []int{readBuf - 3, readBuf - 2, readBuf - 1, readBuf, readBuf + 1, 3*readBuf + 7} {
			long := strings.Repeat("x", n)
			in := long + end + "y" + end + long + end
			got, _ := readLines(t, strings.NewReader(in))
			if want := []string{long, "y", long}; !slices.Equal(got, want) {
				t.Errorf("line end %q, length %d: got %d lines", end, n, len(got))
			}
		}
	}
	for _, end := range []string{"", "\n", "\r"} {
		lr := NewLineReader(strings.NewReader("a\n" + strings.Repeat("x", MaxLine+1) + end))
		if b, ok := lr.Next(); !ok || string(b) != "a" {
			t.Fatalf("first line: %q, %v", b, ok)
		}
		if _, ok := lr.Next(); ok || lr.Err != ErrLineTooLong || lr.Line != 1 {
			t.Errorf("end %q: got ok %v, Err %v, Line %d; want ErrLineTooLong after line 1", end, ok, lr.Err, lr.Line)
		}
	}
	got, _ := readLines(t, strings.NewReader(strings.Repeat("x", MaxLine)+"\r"))
	if len(got) != 1 || len(got[0]) != MaxLine {
		t.Errorf("a line of MaxLine bytes: got %d lines", len(got))
	}
}

// TestLineReaderOldMac checks that a long input with CR line ends only is
// read in linear time (LF is not searched again for every line).
func TestLineReaderOldMac(t *testing.T) {
	in := strings.Repeat("v 0 0 0\r", 200000)
	got, nums := readLines(t, strings.NewReader(in))
	if len(got) != 200000 || nums[len(nums)-1] != 200000 {
		t.Fatalf("got %d lines", len(got))
	}
}

// splitLines is the line rule of the package documentation, written
// independently of LineReader: the lines of b and the offsets where they
// start.
func splitLines(b []byte) (lines []string, starts []int) {
	start := 0
	for i := 0; i < len(b); {
		n := 0
		switch {
		case b[i] == '\n':
			n = 1
		case b[i] == '\r' && i+1 < len(b) && b[i+1] == '\n':
			n = 2
		case b[i] == '\r' && i+2 < len(b) && b[i+1] == '\r' && b[i+2] == '\n':
			n = 3
		case b[i] == '\r':
			n = 1
		default:
			i++
			continue
		}
		lines, starts = append(lines, string(b[start:i])), append(starts, start)
		i += n
		start = i
	}
	if start < len(b) {
		lines, starts = append(lines, string(b[start:])), append(starts, start)
	}
	return lines, starts
}

// TestLineEnds checks LineReader (reading all at once and a byte at a time)
// and LineCounter (fed a byte at a time) against splitLines on random
// inputs of CRs, LFs and other bytes.
func TestLineEnds(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for range 20000 {
		b := make([]byte, rng.IntN(12))
		for i := range b {
			b[i] = "\r\n x"[rng.IntN(4)]
		}
		want, starts := splitLines(b)
		for _, one := range []bool{false, true} {
			var r io.Reader = bytes.NewReader(b)
			if one {
				r = iotest.OneByteReader(r)
			}
			if got, _ := readLines(t, r); !slices.Equal(got, want) {
				t.Fatalf("%q: LineReader returns %q, want %q", b, got, want)
			}
		}
		lc := LineCounter{Line: 1}
		pos := 0
		for i, start := range starts {
			for ; pos < start; pos++ {
				lc.Byte(b[pos])
			}
			if lc.Line != i+1 {
				t.Fatalf("%q: line %d starts at byte %d, where LineCounter says line %d", b, i+1, start, lc.Line)
			}
		}
		for ; pos < len(b); pos++ {
			lc.Byte(b[pos])
		}
		if lc.EOFLine() != max(len(want), 1) {
			t.Fatalf("%q: %d lines, LineCounter.EOFLine %d", b, len(want), lc.EOFLine())
		}
	}
}

// FuzzParseFloat checks ParseFloat against the grammar (isDecimal) and
// strconv.ParseFloat: it accepts exactly the decimal numbers with a finite
// float64 value, bit for bit the value strconv gives them.
func FuzzParseFloat(f *testing.F) {
	for _, s := range []string{"0", "-1.5e-3", ".5", "5.", "+2", "1E3", "1_0", "0x1p3", "inf", "nan", "1e400",
		"1e-400", "123456789012345678901234567890", "9007199254740993", "4.9e-324", "1e23"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, e := ParseFloat([]byte(s))
		if !isDecimal(s) {
			if e == NumOK {
				t.Fatalf("ParseFloat(%q) = %v, want an error: not a decimal number", s, got)
			}
			return
		}
		want, err := strconv.ParseFloat(s, 64)
		switch {
		case err != nil:
			if e != NumRange {
				t.Fatalf("ParseFloat(%q) = %v, %d; strconv says %v", s, got, e, err)
			}
		case e != NumOK || math.Float64bits(got) != math.Float64bits(want):
			t.Fatalf("ParseFloat(%q) = %v, %d; want %v", s, got, e, want)
		}
	})
}

// TestLineReaderOffset checks Offset after each line: the offset of the
// next line, so that the input from it reads the same lines as the rest of
// the whole input (every line end kind, read one byte at a time too).
func TestLineReaderOffset(t *testing.T) {
	for _, in := range []string{
		"", "a", "a\n", "a\nb", "a\r\nb\r\n", "a\rb\r", "a\r", "\r\r", "a\r\rb", "a\r\r\nb",
		"a\r\r\r\nb", "a\n\rb", "a\n\nb\r\rc\r\n\r\nd", "a\r \nb", "\xEF\xBB\xBFa\rb",
	} {
		for _, one := range []bool{false, true} {
			var r io.Reader = strings.NewReader(in)
			if one {
				r = iotest.OneByteReader(r)
			}
			lr := NewLineReader(r)
			var offsets []int64
			var lines []string
			for {
				b, ok := lr.Next()
				if !ok {
					break
				}
				lines = append(lines, string(b))
				offsets = append(offsets, lr.Offset)
			}
			if len(offsets) > 0 && offsets[len(offsets)-1] != int64(len(in)) {
				t.Errorf("%q: offset after the last line %d, want %d", in, offsets[len(offsets)-1], len(in))
			}
			for i, off := range offsets {
				rest, _ := readLines(t, strings.NewReader(in[off:]))
				if !slices.Equal(rest, lines[i+1:]) {
					t.Errorf("%q: after line %d (offset %d): lines %q, want %q", in, i+1, off, rest, lines[i+1:])
				}
			}
		}
	}
}
