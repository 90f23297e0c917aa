package ch6_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/collide3d/collide/bench/ch6"
	"github.com/collide3d/collide/bv"
)

// TestQuick runs a short experiment on two quick scenes and checks that
// every variant answered as the flight did, that every table is there and
// that the counts hang together.
func TestQuick(t *testing.T) {
	r, err := ch6.Run(context.Background(), ch6.Config{Quick: true, Seed: 1, Scenes: []string{"pipes", "torus"}, Steps: 30, Rounds: 1,
		Ks: []bv.K{bv.K6, bv.K18}, NoVolumeRules: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Scenes) != 2 {
		t.Fatalf("%d scenes", len(r.Scenes))
	}
	var pairs int64
	for _, s := range r.Scenes {
		name := s.Info.Name
		pairs += s.Pairs
		if len(s.Dirs) != 3 { // 6(3), 18(3), 18(9)
			t.Errorf("%s: %d split-direction rows", name, len(s.Dirs))
		}
		for _, d := range s.Dirs {
			if d.Differ != 0 || !(d.Volume > 0) {
				t.Errorf("%s %d(%d): differ %d, volume %g", name, d.K, d.Dirs, d.Differ, d.Volume)
			}
		}
		for _, o := range s.Osc {
			if o.Plain.Differ+o.Osc.Differ != 0 || o.Splits == 0 || o.Kept > o.Splits {
				t.Errorf("%s oscillating %v: %+v", name, o.Rule, o)
			}
		}
		for _, x := range s.Tau {
			if x.Differ != 0 {
				t.Errorf("%s %v τ=%d: differ %d", name, x.K, x.Tau, x.Differ)
			}
		}
		rows := s.Overlap.Rows
		if len(rows) != 2+len(ch6.Truncations) {
			t.Fatalf("%s: %d overlap rows", name, len(rows))
		}
		for _, o := range rows {
			if o.Differ != 0 || o.Calls == 0 || o.Comparisons > 2*int64(o.M)*o.Calls || o.MissComparisons > o.Comparisons {
				t.Errorf("%s %s: %+v", name, o.Name, o)
			}
		}
		// Ordering changes the comparisons, not the tests: the same calls
		// and overlaps; truncating tests more.
		if rows[1].Calls != rows[0].Calls || rows[1].Overlaps != rows[0].Overlaps || rows[2].Calls < rows[0].Calls {
			t.Errorf("%s: original %+v, ordered %+v, first 1 %+v", name, rows[0], rows[1], rows[2])
		}
		if (name == "pipes") != (s.Skinny != nil) {
			t.Errorf("%s: skinny %v", name, s.Skinny)
		}
		if s.Skinny != nil && (s.Skinny.Split.Differ != 0 || s.Skinny.Halved[0] == 0) {
			t.Errorf("%s: skinny %+v", name, *s.Skinny)
		}
	}
	if pairs == 0 {
		t.Errorf("no pairs in the flights: the answers were not checked")
	}
	var buf bytes.Buffer
	if err := r.WriteMarkdown(&buf); err != nil {
		t.Fatal(err)
	}
	md := buf.String()
	for _, want := range []string{"## Splitting along any", "## The oscillating", "## Ordered and truncated", "## Preprocessing",
		"## The flying leaf threshold", "## Skinny triangles", "*Dissertation:*", "Average rank"} {
		if !strings.Contains(md, want) {
			t.Errorf("the report has no %q", want)
		}
	}
	if strings.Contains(md, "NaN") || strings.Contains(md, "Inf") {
		t.Errorf("the report shows NaN or Inf:\n%s", md)
	}
}
