package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/flight"
)

// TestFlightSummaryWords checks that the text summary of a flight says how
// it used the front and what a step cost in words a newcomer reads (no
// "kept 106.7", no "it did not pay (auto)"), with the cost model's names
// beside them, and that help flight explains those names once.
func TestFlightSummaryWords(t *testing.T) {
	stats := collide.Stats{BVTests: 2310, TriTests: 179, Updates: 88, LeafTests: 4, Skipped: 170}
	for _, tc := range []struct {
		name       string
		front      bool
		frontSteps int
		front1     string // the front line
		work       string // the per-step line
	}{
		{"off", false, 0, "off: every step searched both trees from the top",
			"231.0 volume tests (Nv), 17.9 triangle tests (Np), 8.8 volume updates (Nu), 0.4 leaf tests (Nl)"},
		{"on", true, 10, "on: every step resumed where the last one ended, skipping 17.0 pairs of volumes a step (proved still apart)",
			"231.0 volume tests (Nv), 17.9 triangle tests (Np), 8.8 volume updates (Nu), 0.4 leaf tests (Nl), 17.0 skipped by the front"},
		{"auto, stopped", false, 4, "off from step 4: resuming each step where the last one ended was slower here than starting from the top, so --front auto stopped it",
			"231.0 volume tests (Nv), 17.9 triangle tests (Np), 8.8 volume updates (Nu), 0.4 leaf tests (Nl), 17.0 skipped by the front"},
	} {
		sum := &flight.Summary{Steps: 10, Stats: stats, Front: tc.front, FrontSteps: tc.frontSteps}
		if got := frontLine(sum); got != tc.front1 {
			t.Errorf("%s: front line %q, want %q", tc.name, got, tc.front1)
		}
		if got := workLine(sum); got != tc.work {
			t.Errorf("%s: work line %q, want %q", tc.name, got, tc.work)
		}
	}

	// The whole first screen of a flight, with each policy.
	for _, front := range []string{"auto", "on", "off"} {
		stdout, stderr, code := runCLI(t, "flight", "--scene", "torus", "--quick", "--steps", "100", "--front", front)
		if code != exitOK {
			t.Fatalf("--front %s: exit %d: %s", front, code, stderr)
		}
		for _, jargon := range []string{"kept", "did not pay", "(auto)", "from the roots", "Nv 2", "Nv 1"} {
			if strings.Contains(stdout, jargon) {
				t.Errorf("--front %s: the summary says %q:\n%s", front, jargon, stdout)
			}
		}
		if !strings.Contains(stdout, "\nfront        o") || !strings.Contains(stdout, " volume tests (Nv), ") {
			t.Errorf("--front %s: the summary lacks its front or work line:\n%s", front, stdout)
		}
	}

	// help flight explains every count once.
	var help bytes.Buffer
	printHelp(&help, lookupCommand("flight"))
	for _, want := range []string{"Nv counts", "Np the pairs of triangles", "Nu the volumes", "Nl the tests", `counted as "skipped"`, "timed every 16"} {
		if strings.Count(help.String(), want) != 1 {
			t.Errorf("help flight says %q %d times, want once", want, strings.Count(help.String(), want))
		}
	}
}
