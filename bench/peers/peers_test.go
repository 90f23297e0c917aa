package peers

import (
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"
	"time"
)

// TestParseBuild checks the build line of the distance and ccd modes: a
// good one read whole, a bad one refused saying why.
func TestParseBuild(t *testing.T) {
	good := `{"build":{"system":"fcl-rss","mode":"distance","seconds":0.5,"bytes":10,"peak_bytes":20,"env_triangles":3,"fly_triangles":4}}`
	b, err := ParseBuild([]byte(good), "fcl-rss", "distance")
	if err != nil {
		t.Fatal(err)
	}
	if want := (Build{System: "fcl-rss", Build: 500 * time.Millisecond, Bytes: 10, Peak: 20, EnvTris: 3, FlyTris: 4}); b != want {
		t.Errorf("got %+v, want %+v", b, want)
	}
	for _, c := range []struct{ line, system, mode, want string }{
		{good, "fcl-rss", "ccd", `want "fcl-rss" mode "ccd"`},
		{good, "fcl-obbrss", "distance", `build line of system "fcl-rss"`},
		{`{"pose":0}`, "fcl-rss", "distance", "not the build line"},
		{`{"build":{"system":"x","mode":"ccd","env_triangles":0,"fly_triangles":4}}`, "x", "ccd", "bad triangle counts 0 and 4"},
		{`{"build":`, "x", "ccd", "unexpected end of JSON input"},
	} {
		if _, err := ParseBuild([]byte(c.line), c.system, c.mode); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s as %s %s: error %v, want %q", c.line, c.system, c.mode, err, c.want)
		}
	}
}

// TestBadLine checks the error of a bad output line: the mode, system and
// line named, the text cut at 200 bytes, the cause kept.
func TestBadLine(t *testing.T) {
	err := BadLine("ccd", "fcl-screw", 3, []byte(strings.Repeat("x", 300)+"\r\n"), "motion %d, want %d", 2, 1)
	want := `collide-peers --ccd fcl-screw: output line 3: motion 2, want 1: "` + strings.Repeat("x", 200) + `..."`
	if err.Error() != want {
		t.Errorf("got %s\nwant %s", err, want)
	}
	var oe *OutputError
	if !errors.As(error(err), &oe) || oe.Line != 3 || oe.Unwrap() == nil {
		t.Errorf("not an *OutputError of line 3 with its cause: %#v", err)
	}
}

// TestFloat checks that null reads as NaN and a number as itself.
func TestFloat(t *testing.T) {
	var xs []Float
	if err := json.Unmarshal([]byte(`[1.5, null, -0]`), &xs); err != nil {
		t.Fatal(err)
	}
	if len(xs) != 3 || xs[0] != 1.5 || !math.IsNaN(float64(xs[1])) || xs[2] != 0 {
		t.Errorf("got %v", xs)
	}
	if err := json.Unmarshal([]byte(`"x"`), &xs[0]); err == nil {
		t.Error("a string read as a number")
	}
}
