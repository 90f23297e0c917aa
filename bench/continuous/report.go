package continuous

import (
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	"github.com/collide3d/collide/bench/internal/md"
)

// Details is how many disagreements per system and scene
// WriteMarkdown lists.
const Details = 6

// WriteMarkdown prints the report: how the answers are judged, a table
// summing up every scene per system (motions of each verdict, times), then
// per scene its motions, a table per system and the first Details
// disagreements of each.
func (r *Report) WriteMarkdown(w io.Writer) error {
	ew := &md.ErrWriter{W: w}
	ew.Printf("# Continuous collision: collide's TimeOfImpact and FCL's continuousCollide\n\n")
	ew.Printf("Motion i of a scene goes from pose i to pose i+1. collide answers with `collide.TimeOfImpact` (%s trees), "+
		"the peers with `collide-peers --ccd` (see bench/peers/README.md). The reference of a motion: %d evenly spaced "+
		"exact discrete checks (`collide.Check`) on the system's path, the first contact refined by bisection (a sampled "+
		"contact proves a contact at or before its time); collide's answer, where it is not contradicted by sampling, "+
		"for the linear path (a certified no-contact, a contact interval); and the distance of the models at a reported "+
		"time, which proves no contact within `tol` of that time when it exceeds `tol` times the fastest a point of the "+
		"flying model moves. Tolerance on times: tol = %g.\n\n", r.BV, r.Samples, r.Tol)
	ew.Printf("Verdicts: **miss**: no contact reported, but collide or sampling finds one; **invent**: a contact where "+
		"collide certifies none and sampling sees none (or, on FCL's screw path, where sampling sees none and the "+
		"models are apart at the reported time); **late** / **early**: a contact more than tol after the reference's "+
		"(a sampled or collide contact proves an earlier one) / before it (collide proves none before its interval, or "+
		"the models are apart at the reported time); **unsure**: no reference (collide says maybe; a screw contact "+
		"sampling missed with the models close at its time). collide's own row is judged against the sampling alone. "+
		"Paths: *linear* is collide's motion (translation linear in t, rotation at constant angular velocity about "+
		"the model's origin), which FCL's CCDM_LINEAR and CCDM_TRANS follow too; *screw* is FCL's CCDM_SCREW, "+
		"whose poses in between differ on turning motions (its reference is sampling on the screw itself). Times are "+
		"the fastest of %d rounds, µs per motion, over the motions a system answered.\n\n", r.Rounds)

	// The summary over the scenes.
	type sum struct {
		path    Path
		counts  [numVerdicts]int
		times   []time.Duration
		failed  []string
		late    float64
		unstab  int
		present bool
	}
	var order []string
	sums := map[string]*sum{}
	for _, s := range r.Scenes {
		for _, row := range s.Rows {
			name := row.System
			su := sums[name]
			if su == nil {
				su = &sum{path: row.Path}
				sums[name] = su
				order = append(order, name)
			}
			if row.Err != "" {
				su.failed = append(su.failed, s.Name)
				continue
			}
			su.present = true
			for v, n := range row.Counts {
				su.counts[v] += n
			}
			su.late = max(su.late, row.MaxLate)
			su.unstab += row.Unstable
			for _, a := range row.Answers {
				if a.Err == "" && a.Skipped == "" {
					su.times = append(su.times, time.Duration(a.Nanos))
				}
			}
		}
	}
	ew.Printf("## All scenes\n\n")
	var names []string
	total := 0
	for _, s := range r.Scenes {
		names = append(names, fmt.Sprintf("%s (%d)", s.Name, len(s.Motions)))
		total += len(s.Motions)
	}
	ew.Printf("%d motions: %s.\n\n", total, strings.Join(names, ", "))
	ew.Printf("| system | path | agree | miss | invent | late | early | unsure | error | skipped | median µs | p90 µs |\n")
	ew.Printf("|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n")
	for _, name := range order {
		su := sums[name]
		if !su.present {
			ew.Printf("| %s | %s | failed: %s | | | | | | | | | |\n", name, su.path, strings.Join(su.failed, ", "))
			continue
		}
		c := su.counts
		ew.Printf("| %s | %s | %d | %d | %d | %d | %d | %d | %d | %d | %s | %s |\n", name, su.path,
			c[Agree], c[Miss], c[Invent], c[Late], c[Early], c[Unsure], c[Failed], c[Skipped],
			microsOrDash(su.times, 0.5), microsOrDash(su.times, 0.9))
	}
	ew.Printf("\n")
	for _, name := range order {
		if su := sums[name]; len(su.failed) > 0 && su.present {
			ew.Printf("%s failed on %s.\n", name, strings.Join(su.failed, ", "))
		}
		if su := sums[name]; su.unstab > 0 {
			ew.Printf("%s answered %d motions differently from one round to the next.\n", name, su.unstab)
		}
	}

	for _, s := range r.Scenes {
		turns, sampled, screwSampled := 0, 0, 0
		for _, m := range s.Motions {
			if m.Turns {
				turns++
				if m.Screw.Contact {
					screwSampled++
				}
			}
			if m.Sampled.Contact {
				sampled++
			}
		}
		ew.Printf("\n## %s\n\n%s. %d × %d triangles; %d motions, %d turning; sampling finds a contact on %d (on FCL's screw path: %d of the turning ones).",
			s.Name, upperFirst(s.About), s.EnvTris, s.FlyTris, len(s.Motions), turns, sampled, screwSampled)
		if len(s.Rows) > 0 && s.Rows[0].Err == "" {
			hits, maybes := 0, 0
			for _, a := range s.Rows[0].Answers {
				if a.Hit {
					hits++
				}
				if a.Maybe {
					maybes++
				}
			}
			ew.Printf(" %s: %d contacts, %d maybe.", s.Rows[0].System, hits, maybes)
		}
		ew.Printf("\n\n")
		ew.Printf("| system | path | build ms | agree | miss | invent | late | early | unsure | error | skipped | max late | max invented gap | median µs | p90 µs |\n")
		ew.Printf("|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n")
		for _, row := range s.Rows {
			if row.Err != "" {
				ew.Printf("| %s | %s | failed: %s | | | | | | | | | | | | |\n", row.System, row.Path, oneLine(row.Err))
				continue
			}
			c := row.Counts
			median, p90 := "–", "–"
			if c[Skipped]+c[Failed] < len(row.Answers) {
				median, p90 = fmt.Sprintf("%.1f", md.Micros(row.Median)), fmt.Sprintf("%.1f", md.Micros(row.P90))
			}
			ew.Printf("| %s | %s | %.2f | %d | %d | %d | %d | %d | %d | %d | %d | %s | %s | %s | %s |\n", row.System, row.Path,
				float64(row.Build)/float64(time.Millisecond),
				c[Agree], c[Miss], c[Invent], c[Late], c[Early], c[Unsure], c[Failed], c[Skipped],
				dash(row.MaxLate), dash(row.MaxInventGap), median, p90)
		}
		var details []string
		for _, row := range s.Rows {
			if row.Err != "" {
				continue
			}
			listed, more := 0, 0
			for i, a := range row.Answers {
				if (a.Verdict == Agree || a.Verdict == Skipped) && !a.Unstable {
					continue
				}
				if listed >= Details && !a.Unstable {
					more++
					continue
				}
				listed++
				line := fmt.Sprintf("- %s, motion %d: **%s**: %s", row.System, i, a.Verdict, a.Text())
				if a.Why != "" {
					line += "; " + oneLine(a.Why)
				}
				if a.Unstable {
					line += fmt.Sprintf(" (another round: %s)", a.Other)
				}
				details = append(details, line)
			}
			if more > 0 {
				details = append(details, fmt.Sprintf("- %s: %d more", row.System, more))
			}
		}
		if len(details) > 0 {
			ew.Printf("\n%s\n", strings.Join(details, "\n"))
		}
	}
	return ew.Err
}

// microsOrDash prints the q-quantile of times in µs, or "–" if there are
// none.
func microsOrDash(times []time.Duration, q float64) string {
	if len(times) == 0 {
		return "–"
	}
	return fmt.Sprintf("%.1f", md.Micros(md.Quantile(times, q)))
}

// dash prints x, or "–" for 0.
func dash(x float64) string {
	if x == 0 || math.IsNaN(x) {
		return "–"
	}
	return fmt.Sprintf("%.3g", x)
}

func oneLine(s string) string {
	s = strings.ReplaceAll(s, "\n", " ")
	s = strings.ReplaceAll(s, "|", "/")
	if len(s) > 300 {
		s = s[:300] + "..."
	}
	return s
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
