package toolpaths

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"
)

// TestNCRun runs the NC experiments on small environments and checks the
// report: every cell, the contacts (the exact ball at the moves' ends
// finds exactly the lowered samples of a mold path and none of a terrain
// path, whose samples are right; the swept ball finds at least as many),
// the flat lake, and the markdown's sections.
func TestNCRun(t *testing.T) {
	bvs := []string{"kdop6", "kdop18", "obb", "aabb"}
	envs := []string{"buffalo", "seattle", "part1", "part4"}
	r, err := Run(context.Background(), Config{Seed: 1, Envs: envs, BVs: bvs, TerrainGrid: 21, MoldGrid: 25, Rounds: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Envs) != len(envs) || len(r.Cells) != len(envs)*len(bvs)*len(Tests) {
		t.Fatalf("%d environments, %d cells", len(r.Envs), len(r.Cells))
	}
	for _, e := range r.Envs {
		ball, swept := r.Cell(e.Name, Ball, "kdop18"), r.Cell(e.Name, Swept, "kdop18")
		want := 0
		if e.Kind == "mold" {
			want = 10 // the distorted samples
		}
		if ball.Contacts != want || swept.Contacts < ball.Contacts || swept.Contacts == 0 {
			t.Errorf("%s: ball %d contacts (want %d), swept %d", e.Name, ball.Contacts, want, swept.Contacts)
		}
		if (e.Name == "buffalo" || e.Kind == "mold") != (e.Flat > 0.2) {
			t.Errorf("%s: %.1f%% flat", e.Name, 100*e.Flat)
		}
		for _, test := range Tests {
			for _, bv := range bvs {
				if c := r.Cell(e.Name, test, bv); c == nil || c.Time <= 0 {
					t.Errorf("%s %s %s: %+v", e.Name, test, bv, c)
				}
			}
		}
	}
	if r.ToolTris[Poly] != 320 || r.ToolTris[Flat] == 0 || r.ToolTris[Cone] == 0 {
		t.Errorf("tools' triangles %v", r.ToolTris)
	}
	var b bytes.Buffer
	if err := r.WriteMarkdown(&b); err != nil {
		t.Fatal(err)
	}
	md := b.String()
	for _, s := range []string{"# collide bench --nc", "## Environments", "## Contacts", "### exact ball and its swept volume",
		"### polyhedral nearly conical tool at the moves' ends", "## The dissertation's conclusions", "| buffalo | terrain buffalo |",
		"| kdop6 | kdop18 | obb | aabb | obb ÷ kdop18 |"} {
		if !strings.Contains(md, s) {
			t.Errorf("the report lacks %q", s)
		}
	}
	if got := strings.Count(md, "\n- **"); got != 4 {
		t.Errorf("%d conclusions", got)
	}
	if _, err := Run(context.Background(), Config{Envs: []string{"boston"}}); err == nil || !strings.Contains(err.Error(), "boston") {
		t.Errorf("unknown environment: %v", err)
	}
}

// ncReport makes a report of the given times (ms) per environment, test
// and tree, for the conclusions' tests; contacts is the contacts of every
// sphere test.
func ncReport(contacts int, times map[string]map[string]map[string]float64) *Report {
	r := &Report{}
	for _, env := range []string{"buffalo", "denver", "part1"} {
		kind := "terrain"
		if env == "part1" {
			kind = "mold"
		}
		r.Envs = append(r.Envs, &Env{Name: env, Kind: kind, Moves: 100})
		for test, byBV := range times[env] {
			for bv, t := range byBV {
				r.Cells = append(r.Cells, &Cell{Env: env, Test: test, BV: bv, Contacts: contacts, Time: time.Duration(t * float64(time.Millisecond))})
			}
		}
	}
	return r
}

// uniform returns times for every environment: each test's time with
// every tree, from base, with the trees scaled by scale.
func uniform(base map[string]float64, scale map[string]float64) map[string]map[string]map[string]float64 {
	out := map[string]map[string]map[string]float64{}
	for _, env := range []string{"buffalo", "denver", "part1"} {
		out[env] = map[string]map[string]float64{}
		for test, t := range base {
			out[env][test] = map[string]float64{}
			for _, bv := range []string{"kdop6", "kdop14", "kdop18", "kdop26", "obb", "aabb"} {
				s := scale[bv]
				if s == 0 {
					s = 1
				}
				out[env][test][bv] = t * s
			}
		}
	}
	return out
}

// TestNCConclusions checks each conclusion's verdict on made-up figures
// that make it hold and not hold.
func TestNCConclusions(t *testing.T) {
	fast := map[string]float64{Ball: 1, Swept: 2, Poly: 4, Flat: 5, Cone: 6}
	slowBall := map[string]float64{Ball: 5, Swept: 6, Poly: 4, Flat: 5, Cone: 3}
	flatOBB := uniform(fast, map[string]float64{"obb": 1.5})
	flatOBB["denver"] = uniform(fast, map[string]float64{"obb": 0.8})["denver"]
	for _, c := range []struct {
		name     string
		r        *Report
		verdicts [4]string
	}{
		{"the dissertation's", ncReport(50, flatOBB), [4]string{"holds", "holds", "holds", "holds"}},
		{"slow ball, OBB alike, large k pays", ncReport(50, uniform(slowBall, map[string]float64{"kdop6": 2, "kdop14": 2})),
			[4]string{"does not hold", "does not hold", "does not hold", "does not hold"}},
		{"few contacts", ncReport(1, uniform(fast, nil)), [4]string{"holds", "holds", "does not hold", "not measured"}},
		{"nothing", &Report{}, [4]string{"not measured", "not measured", "not measured", "not measured"}},
	} {
		cls := c.r.Conclusions()
		for i, cl := range cls {
			if cl.Verdict != c.verdicts[i] {
				t.Errorf("%s: %q: %s (%s), want %s", c.name, cl.Claim, cl.Verdict, cl.Evidence, c.verdicts[i])
			}
		}
	}
}
