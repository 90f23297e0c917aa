package pipeline

import (
	"regexp"
	"testing"
)

// The fields a job's lines may differ in from the CLI's (package
// internal/jobs, # Semantics): the time of each line ("seconds") and its
// work counters ("stats", which depend on the state a query keeps from the
// poses before it), and the timing fields of nc's summary line ("seconds",
// "moves_per_second", "build_seconds").
var (
	maskedNumber = regexp.MustCompile(`"(seconds|moves_per_second|build_seconds)":(-?[0-9][0-9.eE+-]*|null)`)
	maskedObject = regexp.MustCompile(`"stats":\{[^{}]*\}`)
)

// mask returns line with the value of each field that may differ from the
// CLI's replaced by a fixed one (0, or {} for "stats"), every other byte
// kept: two lines are the same result iff their masks are equal.
func mask(line []byte) []byte {
	line = maskedNumber.ReplaceAll(line, []byte(`"$1":0`))
	return maskedObject.ReplaceAll(line, []byte(`"stats":{}`))
}

func TestMask(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`{"pose":0,"collide":true,"pairs":[[12,7]],"stats":{"bv_tests":3,"tri_tests":96,"updates":0,"leaf_tests":0},"seconds":0.0001}`,
			`{"pose":0,"collide":true,"pairs":[[12,7]],"stats":{},"seconds":0}`},
		{`{"pose":3,"seconds":1.5e-06,"distance":0.25}`, `{"pose":3,"seconds":0,"distance":0.25}`},
		{`{"summary":{"moves":2546,"seconds":0.2075,"moves_per_second":12255.39,"build_seconds":0.38,"queries":5000}}`,
			`{"summary":{"moves":2546,"seconds":0,"moves_per_second":0,"build_seconds":0,"queries":5000}}`},
		// Other fields are kept, even those that look alike.
		{`{"pose":1,"distance":0.5,"time":0.25,"toi_seconds":1}`, `{"pose":1,"distance":0.5,"time":0.25,"toi_seconds":1}`},
	} {
		if got := string(mask([]byte(c.in))); got != c.want {
			t.Errorf("mask(%s) = %s, want %s", c.in, got, c.want)
		}
	}
}
