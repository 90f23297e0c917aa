package flight

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// TestParsePoseFields checks ParsePoseBytes's splitting against
// strings.FieldsFunc's, which it replaces: on lines of numbers, separators
// of every kind, non-ASCII bytes and broken UTF-8, the two give the same
// pose or the same error.
func TestParsePoseFields(t *testing.T) {
	ref := func(s string) []string {
		return strings.FieldsFunc(s, func(r rune) bool {
			return r == ',' || r == ' ' || r == '\t' || r == '\r' || r == '\n' || r == '\v' || r == '\f'
		})
	}
	pieces := []string{"1", "0", "-0", "0.5", "1e-3", "x", "é", "\xff", "\u00a0", ",", " ", "\t", "\v", "\f", "\r", ",,", "  "} // 9 words, then separators
	rng := rand.New(rand.NewPCG(1, 2))
	lines := []string{"", " ", "1 0 0 0 1 0 0 0 1 0 0 0", ",1,0,0,0,1,0,0,0,1,0,0,0,", "1 0 0 0 1 0 0 0 1 0 0 0 0", "1\u00a00 0 0 1 0 0 0 1 0 0 0"}
	for range 20000 {
		var b strings.Builder
		// 11 to 13 words, most of them numbers, between runs of
		// separators, so that most lines have 12 fields.
		words, seps := pieces[:9], pieces[9:]
		b.WriteString(seps[rng.IntN(len(seps))][:rng.IntN(2)])
		for k := range 11 + rng.IntN(3) {
			if k > 0 {
				b.WriteString(seps[rng.IntN(len(seps))])
			}
			w := words[rng.IntN(4)]
			if rng.IntN(8) == 0 {
				w = words[rng.IntN(len(words))]
			}
			b.WriteString(w)
		}
		lines = append(lines, b.String())
	}
	seps := 0
	for _, line := range lines {
		fields := ref(line)
		got, err := ParsePoseBytes([]byte(line))
		if len(fields) != 12 {
			if err == nil || !strings.HasSuffix(err.Error(), "got "+strconv.Itoa(len(fields))) {
				t.Fatalf("%q: %d fields, ParsePoseBytes gave %v, %v", line, len(fields), got, err)
			}
			continue
		}
		seps++
		want, werr := ParsePose(strings.Join(fields, " "))
		if (err == nil) != (werr == nil) || err != nil && err.Error() != werr.Error() || got != want {
			t.Fatalf("%q: got %v, %v; the fields joined give %v, %v", line, got, err, want, werr)
		}
	}
	t.Logf("%d lines of 12 fields", seps)
	if seps == 0 {
		t.Fatal("no line of 12 fields: the test tests nothing")
	}
}
