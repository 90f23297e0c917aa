package worlds

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/collide3d/collide/broad"
	"github.com/collide3d/collide/world"
)

// TestWorldsShort runs the many-body and cores parts on small scenes and
// checks what holds whatever the machine: every broad phase finds the
// same candidates, tests and contacts (a phase that takes the objects'
// DOPs, fewer candidates and the same contacts), and so does every way of
// running the exact tests.
func TestWorldsShort(t *testing.T) {
	const n, steps = 300, 4
	r, err := Run(context.Background(), Config{Seed: 1, Quick: true, Sizes: []int{n}, Steps: steps, NoCDFast: true})
	if err != nil {
		t.Fatal(err)
	}
	phases := world.BroadPhases()
	if len(r.Runs) != len(Scenes)*len(phases) {
		t.Fatalf("%d runs, want %d", len(r.Runs), len(Scenes)*len(phases))
	}
	for _, name := range Scenes {
		ref := r.Run(name, n, phases[0])
		for _, p := range phases {
			x := r.Run(name, n, p)
			if x == nil {
				t.Fatalf("%s: no run of %s", name, p)
			}
			if x.Steps != steps || x.First <= 0 || x.Idle <= 0 || x.Broad.Median > x.Broad.P99 || x.Step.Median < x.Broad.Median {
				t.Errorf("%s %s: %d steps, first %v, idle %v, broad %+v, step %+v", name, p, x.Steps, x.First, x.Idle, x.Broad, x.Step)
			}
			if takesDOPs(t, p) {
				// Its objects' DOPs prune some of the pairs of boxes,
				// never a contact.
				if x.Candidates > ref.Candidates || x.Tested != x.Candidates || x.Contacts != ref.Contacts {
					t.Errorf("%s: %s (DOPs) found %g candidates, %g tests, %g contacts a step; %s %g, %g, %g",
						name, p, x.Candidates, x.Tested, x.Contacts, ref.Phase, ref.Candidates, ref.Tested, ref.Contacts)
				}
			} else if x.Candidates != ref.Candidates || x.Tested != ref.Tested || x.Contacts != ref.Contacts {
				t.Errorf("%s: %s found %g candidates, %g tests, %g contacts a step; %s %g, %g, %g",
					name, p, x.Candidates, x.Tested, x.Contacts, ref.Phase, ref.Candidates, ref.Tested, ref.Contacts)
			}
		}
		if ref.Contacts == 0 {
			t.Errorf("%s: no contacts", name)
		}
	}
	if len(r.Cores) != 2 {
		t.Fatalf("%d cores scenes", len(r.Cores))
	}
	for _, x := range r.Cores {
		if len(x.Runs) != 3 || x.Runs[0].Workers != 1 || !x.Runs[2].Static || x.Steps != steps {
			t.Fatalf("%s: runs %+v, %d steps", x.Scene, x.Runs, x.Steps)
		}
		for _, cr := range x.Runs {
			if cr.Tested != x.Runs[0].Tested || cr.Tested == 0 {
				t.Errorf("%s: %d workers (static %v) made %d tests, one worker %d", x.Scene, cr.Workers, cr.Static, cr.Tested, x.Runs[0].Tested)
			}
		}
	}
	if r.Capacity <= 0 {
		t.Errorf("capacity %g", r.Capacity)
	}
	var buf bytes.Buffer
	if err := r.WriteMarkdown(&buf); err != nil {
		t.Fatal(err)
	}
	md := buf.String()
	for _, s := range []string{"# collide bench --worlds", "### brownian", "### fall", "### gravity", "Fastest broad phase",
		"## Cores and balancing", "tori (100)"} {
		if !strings.Contains(md, s) {
			t.Errorf("the report lacks %q", s)
		}
	}
	if strings.Contains(md, "CDFast") {
		t.Error("the report has a CDFast section though NoCDFast")
	}
}

// takesDOPs reports whether the broad phase named p takes the objects'
// DOPs (broad.DOPs) as well as their boxes.
func takesDOPs(t *testing.T, p string) bool {
	mk, err := world.NewBroad(p)
	if err != nil {
		t.Fatal(err)
	}
	_, ok := mk().(broad.DOPs)
	return ok
}
