package broadpeers

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/collide3d/collide/bench/internal/md"
)

// WriteJSON writes the report as indented JSON (times in nanoseconds).
func (r *Report) WriteJSON(out io.Writer) error {
	enc := json.NewEncoder(out)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// bestCollide returns the smallest median step time of collide's phases
// on scene that ran every step (0 when none did).
func (r *Report) bestCollide(scene string, steps int) time.Duration {
	var best time.Duration
	for _, run := range r.Runs[scene] {
		if run.Peer || len(run.Update) != steps || steps == 0 {
			continue
		}
		if m := run.Quantile(0.5); best == 0 || m < best {
			best = m
		}
	}
	return best
}

func meanInts(xs []int) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := 0
	for _, x := range xs {
		s += x
	}
	return float64(s) / float64(len(xs))
}

// WriteMarkdown writes the report: the median step time of every system
// on every scene, then per scene a table of times and pair counts, then
// examples of missed pairs.
func (r *Report) WriteMarkdown(out io.Writer) error {
	w := bufio.NewWriter(out)
	fmt.Fprintf(w, "# collide's broad phases beside the peers'\n\n")
	fmt.Fprintf(w, "Machine: %s. %d round(s), the systems taking turns; a step's time is its fastest round. Run took %s.\n\n",
		r.Machine, r.Rounds, r.Elapsed.Round(time.Second))
	w.WriteString("Every system replays the same box trace. A step's time is its update (the step's adds, moves and removes) " +
		"plus finding the pairs: for collide's phases, Pairs reporting the pairs that changed; for the peers, their whole set of " +
		"overlapping pairs (Bullet: calculateOverlappingPairs and reading the pair cache; FCL: collide() with a callback that records " +
		"the pair). At every step each system's whole set of pairs (collide's: the pairs kept from the step before whose objects did not " +
		"change, plus those reported) is compared with the exact set, every pair of overlapping closed boxes not both static, from a sort " +
		"and sweep: *missed* are exact pairs the system did not have (false negatives, which a broad phase must not have; in brackets " +
		"those whose boxes only touch), *extra* pairs it had that are not exact (a superset is legitimate for a broad phase: Bullet " +
		"fattens and quantises its boxes). \"× best\" divides a median by the best median of collide's phases.\n\n")

	fmt.Fprintf(w, "## Median time per step (ms)\n\n")
	head := []string{"system"}
	for _, s := range r.Scenes {
		head = append(head, s.Name)
	}
	t := md.NewTable(w, head...)
	for _, sys := range r.Systems {
		row := []string{sys}
		for _, s := range r.Scenes {
			row = append(row, r.summaryCell(s, sys))
		}
		t.Row(row...)
	}
	w.WriteString("\n")

	for _, s := range r.Scenes {
		fmt.Fprintf(w, "## %s\n\n", s.Name)
		if s.Doc != "" {
			fmt.Fprintf(w, "%s ", s.Doc)
		}
		steps := max(s.Steps, 1)
		fmt.Fprintf(w, "%s objects (%s added static), %d steps; per step %s adds, %s moves, %s removes and %s exact pairs on average "+
			"(the oracle's sort and sweep took %s ms a step).\n\n",
			md.Thousands(s.Objects), md.Thousands(s.Static), s.Steps, md.Sig(float64(s.Adds)/float64(steps)), md.Sig(float64(s.Moves)/float64(steps)),
			md.Sig(float64(s.Removes)/float64(steps)), md.Sig(meanInts(s.Exact)), md.Sig(float64(s.OracleTime.Nanoseconds())/1e6/float64(steps)))
		t := md.NewTable(w, "system", "steps", "median (ms)", "p99 (ms)", "× best", "total (s)", "update (ms, median)", "pairs (ms, median)",
			"setup (ms)", "pairs per step", "reported per step", "missed (touching)", "steps missing", "extra", "invalid", "memory (MB)")
		for _, sys := range r.Systems {
			run := r.Runs[s.Name][sys]
			if run == nil {
				continue
			}
			name := sys
			if run.Variant != "" && run.Peer {
				name += " (" + run.Variant + ")"
			}
			if len(run.Update) == 0 {
				t.Row(name, "0", "failed: "+strings.ReplaceAll(run.Err, "|", "/"), "", "", "", "", "", "", "", "", "", "", "", "", "")
				continue
			}
			stepCell := strconv.Itoa(len(run.Update))
			if run.Err != "" {
				stepCell += " (" + strings.ReplaceAll(run.Err, "|", "/") + ")"
			}
			up := SystemRun{Update: run.Update, Pairs: make([]time.Duration, len(run.Update))}
			pr := SystemRun{Update: run.Pairs, Pairs: make([]time.Duration, len(run.Pairs))}
			missed, extra, stepsMissing := run.Sums()
			mem := "–"
			if run.Peer {
				mem = md.MB(run.Bytes)
			}
			setup := "–"
			if run.Peer {
				setup = md.Ms(run.Setup)
			}
			t.Row(name, stepCell, md.Ms(run.Quantile(0.5)), md.Ms(run.Quantile(0.99)),
				md.Ratio(float64(run.Quantile(0.5)), float64(r.bestCollide(s.Name, s.Steps))),
				md.Sig(run.Total().Seconds()), md.Ms(up.Quantile(0.5)), md.Ms(pr.Quantile(0.5)), setup,
				md.Sig(meanInts(run.Distinct)), md.Sig(meanInts(run.Reported)),
				fmt.Sprintf("%s (%d)", md.Count(missed), run.MissedTouching), strconv.Itoa(stepsMissing), md.Count(extra),
				strconv.Itoa(run.Invalid), mem)
		}
		w.WriteString("\n")
	}

	listed := false
	for _, s := range r.Scenes {
		for _, sys := range r.Systems {
			run := r.Runs[s.Name][sys]
			if run == nil {
				continue
			}
			for _, e := range run.Examples {
				if !e.Missed {
					continue
				}
				if !listed {
					w.WriteString("## Missed pairs (examples)\n\n")
					t = md.NewTable(w, "scene", "system", "step", "pair", "box a", "box b", "touching")
					listed = true
				}
				t.Row(s.Name, sys, strconv.Itoa(e.Step), fmt.Sprintf("%d%s, %d%s", e.A, staticMark(e.StaticA), e.B, staticMark(e.StaticB)),
					fmt.Sprint(e.BoxA), fmt.Sprint(e.BoxB), strconv.FormatBool(e.Touching))
			}
		}
	}
	if listed {
		w.WriteString("\n(s: static.)\n")
	} else {
		w.WriteString("No system missed an exact pair.\n")
	}
	return w.Flush()
}

func staticMark(s bool) string {
	if s {
		return " (s)"
	}
	return ""
}

// summaryCell is a system's median on a scene with its ratio to collide's
// best.
func (r *Report) summaryCell(s *SceneInfo, sys string) string {
	run := r.Runs[s.Name][sys]
	switch {
	case run == nil:
		return ""
	case len(run.Update) == 0:
		return "failed"
	}
	cell := fmt.Sprintf("%s (%s)", md.Ms(run.Quantile(0.5)), md.Ratio(float64(run.Quantile(0.5)), float64(r.bestCollide(s.Name, s.Steps))))
	if len(run.Update) < s.Steps {
		cell += fmt.Sprintf(", %d of %d steps", len(run.Update), s.Steps)
	}
	if missed, _, _ := run.Sums(); missed != 0 {
		cell += fmt.Sprintf(", %s missed", md.Count(missed))
	}
	return cell
}
