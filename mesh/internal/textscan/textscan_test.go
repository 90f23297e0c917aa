package textscan

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
)

// TestParseFloat checks ParseFloat, fast path and fallback, against
// strconv.ParseFloat bit for bit on random decimal strings.
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
		"", "+", "-", ".", "e5", "1e", "1e+", "1.2.3", "1-2", "--1", "0x1p3", "inf", "nan", "Infinity", "1_0"}
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
