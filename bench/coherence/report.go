package coherence

import (
	"bufio"
	"cmp"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/collide3d/collide/bench/internal/md"
	"github.com/collide3d/collide/bench/scenes"
)

// NvRatio returns Nv from the roots ÷ Nv with the front (> 1: the front
// tests fewer volumes).
func (f *Flight) NvRatio() float64 { return float64(f.Roots.Nv()) / float64(max(f.Front.Nv(), 1)) }

// MedianRatio, MeanRatio and MaxRatio return the step time from the roots
// ÷ with the front (> 1: the front is faster).
func (f *Flight) MedianRatio() float64 {
	return durRatio(f.Roots.Times.Median, f.Front.Times.Median)
}

// MeanRatio is MedianRatio for the mean step time.
func (f *Flight) MeanRatio() float64 { return durRatio(f.Roots.Times.Mean, f.Front.Times.Mean) }

// MaxRatio is MedianRatio for the longest step.
func (f *Flight) MaxRatio() float64 { return durRatio(f.Roots.Times.Max, f.Front.Times.Max) }

func durRatio(a, b time.Duration) float64 { return float64(a) / float64(max(b, 1)) }

// name names the flight as "scene/bv".
func (f *Flight) name() string { return f.Scene + "/" + f.BV }

// flights returns the flights of one mode, in run order.
func (r *Report) flights(all bool) []*Flight {
	var out []*Flight
	for _, f := range r.Flights {
		if f.All == all {
			out = append(out, f)
		}
	}
	return out
}

// bvs returns the bounding volumes of the report, in run order.
func (r *Report) bvs() []string {
	return md.Distinct(r.Flights, func(f *Flight) string { return f.BV })
}

// WriteMarkdown writes the report: per scene and kind of tree the counts
// and step times from the roots and with the front, the dissertation's
// conclusions checked against them, where the front loses, and the budget
// experiment.
func (r *Report) WriteMarkdown(out io.Writer) error {
	w := bufio.NewWriter(out)
	size := "full"
	if r.Config.Size == scenes.Quick {
		size = "quick"
	}
	fmt.Fprintf(w, "# collide bench --front: front tracking and time-critical queries\n\n")
	fmt.Fprintf(w, "Scenes: %s size, seed %d. Machine: %s. Run time: %s.\n\n", size, r.Config.Seed, r.Machine, r.Elapsed.Round(time.Second))
	fmt.Fprintf(w, "Every scene is flown with every kind of tree (built as in Table 2 of `collide bench`) in both modes, twice on the same poses: "+
		"queries from the roots, and queries given a `collide.Front` (front tracking, Klosowski's dissertation, section 6.3.3, "+
		"generalised from the flying root to pairs of nodes of both trees). The two take turns at going first at each step, "+
		"and at every step they were checked to find the same pairs (all pairs: the same set; first contact: the same yes or no, "+
		"each pair found among the pairs in contact). Each flight was flown %d times, each time with a new front; a step's time is the least of its %d. Nv counts volume tests and leaf tests (BVTests + LeafTests), per step; "+
		"ratios are from the roots ÷ with the front, so above 1 the front wins. Times are µs per step.\n\n", r.Config.Rounds, r.Config.Rounds)

	fmt.Fprintf(w, "## Scenes\n\n")
	t := md.NewTable(w, "scene", "environment triangles", "flying triangles", "steps")
	for _, s := range r.Scenes {
		t.Row(s.Name, md.Thousands(s.EnvTris), md.Thousands(s.FlyTris), md.Thousands(s.Steps))
	}

	for _, all := range []bool{true, false} {
		if len(r.flights(all)) == 0 {
			continue
		}
		fmt.Fprintf(w, "\n## Front tracking, %s\n\n", modeName(all))
		r.writeSummary(w, all)
		w.WriteString("\n")
		r.writeFlights(w, all)
	}

	if len(r.Flights) > 0 {
		fmt.Fprintf(w, "\n## The dissertation's conclusions\n\n")
		fmt.Fprintf(w, "Section 6.3.3 and chapter 7 of the dissertation (its figures were stripped from our copy; see "+
			"notes/seed-001-klosowski-dissertation.md, section 2.12), each claim checked against our flights, per mode. "+
			"The dissertation timed its flights finding all pairs.\n\n")
		t := md.NewTable(w, "the dissertation's claim", "all pairs", "first contact")
		for _, c := range r.Conclusions() {
			t.Row(c.Claim, c.All, c.First)
		}
		fmt.Fprintf(w, "\n## Where the front loses\n\n")
		losses := r.Losses()
		for _, all := range []bool{true, false} {
			if fs := r.flights(all); len(fs) > 0 {
				nv, md, mx := 0, 0, 0
				for _, f := range fs {
					nv += b2i(f.NvRatio() < 1)
					md += b2i(f.MedianRatio() < 1)
					mx += b2i(f.MaxRatio() < 1)
				}
				fmt.Fprintf(w, "%s: of %d flights, the front tested more volumes in %d, had a slower median step in %d and a slower longest step in %d.\n\n",
					modeName(all), len(fs), nv, md, mx)
			}
		}
		w.WriteString("Flight by flight (a single longest step is at the mercy of the scheduler on a busy machine; differences under 0.5% are left out):\n\n")
		if len(losses) == 0 {
			w.WriteString("Nowhere: with the front every flight tested fewer volumes and had a lower median and maximum step time.\n")
		}
		for _, l := range losses {
			fmt.Fprintf(w, "- %s\n", l)
		}
	}

	if len(r.Budgets) > 0 {
		r.writeBudgets(w)
	}
	return w.Flush()
}

// writeSummary writes, per kind of tree and scene, the Nv ratio and the
// median step time's ratio of one mode.
func (r *Report) writeSummary(w *bufio.Writer, all bool) {
	fmt.Fprintf(w, "Nv ratio / median step time ratio (from the roots ÷ with the front):\n\n")
	head := []string{"bv"}
	for _, s := range r.Scenes {
		head = append(head, s.Name)
	}
	t := md.NewTable(w, head...)
	for _, bv := range r.bvs() {
		cells := []string{bv}
		for _, s := range r.Scenes {
			f := r.Flight(s.Name, bv, all)
			if f == nil {
				cells = append(cells, "–")
				continue
			}
			cells = append(cells, fmt.Sprintf("%s / %s", md.Ratio(f.NvRatio(), 1), md.Ratio(f.MedianRatio(), 1)))
		}
		t.Row(cells...)
	}
	cells := []string{"geometric mean"}
	for _, s := range r.Scenes {
		var nv, med []float64
		for _, f := range r.flights(all) {
			if f.Scene == s.Name {
				nv, med = append(nv, f.NvRatio()), append(med, f.MedianRatio())
			}
		}
		cells = append(cells, fmt.Sprintf("%s / %s", md.Ratio(md.Geomean(nv), 1), md.Ratio(md.Geomean(med), 1)))
	}
	t.Row(cells...)
}

// writeFlights writes the full figures of one mode's flights.
func (r *Report) writeFlights(w *bufio.Writer, all bool) {
	t := md.NewTable(w, "scene", "bv", "steps in contact", "Nv roots", "Nv front", "Nv ÷", "max Nv roots / front", "Np roots / front",
		"Nu roots / front", "skipped", "front mean / max", "median roots", "median front", "median ÷", "mean ÷", "p99 roots / front",
		"max roots", "max front", "max ÷")
	for _, f := range r.flights(all) {
		t.Row(f.Scene, f.BV, fmt.Sprint(f.Colliding),
			md.Sig(f.perStep(f.Roots.Nv())), md.Sig(f.perStep(f.Front.Nv())), md.Ratio(f.NvRatio(), 1),
			fmt.Sprintf("%s / %s", md.Thousands(int(f.Roots.MaxNv)), md.Thousands(int(f.Front.MaxNv))),
			fmt.Sprintf("%s / %s", md.Sig(f.perStep(f.Roots.Stats.TriTests)), md.Sig(f.perStep(f.Front.Stats.TriTests))),
			fmt.Sprintf("%s / %s", md.Sig(f.perStep(f.Roots.Stats.Updates)), md.Sig(f.perStep(f.Front.Stats.Updates))),
			md.Sig(f.perStep(f.Front.Stats.Skipped)),
			fmt.Sprintf("%s / %s", md.Sig(f.MeanFront()), md.Thousands(f.Front.FrontMax)),
			md.Us(f.Roots.Times.Median), md.Us(f.Front.Times.Median), md.Ratio(f.MedianRatio(), 1), md.Ratio(f.MeanRatio(), 1),
			fmt.Sprintf("%s / %s", md.Us(f.Roots.Times.P99), md.Us(f.Front.Times.P99)),
			md.Us(f.Roots.Times.Max), md.Us(f.Front.Times.Max), md.Ratio(f.MaxRatio(), 1))
	}
}

// Claim is a claim of the dissertation with what our flights say of
// it in each mode.
type Claim struct {
	Claim, All, First string
}

// Conclusions returns the dissertation's claims on front tracking (and
// issue 17's target) checked against the flights of each mode.
func (r *Report) Conclusions() []Claim {
	claims := []struct {
		claim string
		check func([]*Flight) string
	}{
		{"Total BV overlap tests fall with the front (ch. 6: min, average and max decrease; ch. 7: on average)", checkNv},
		{"Query time: the majority of cases faster; a few cases a few percent slower (mean query time)", checkMean},
		{"The largest gain is on Swept, where the obstacles cluster near the path", checkSwept},
		{"The front reduces the maximum query time per flight", checkMax},
		{"The front stays small: a few percent of the environment's triangles at most (we take small as under 10%; " +
			"the dissertation's front holds environment nodes, ours pairs of nodes of both trees)", checkSize},
		{"Issue 17's target: at least 3× fewer volume tests and 2× lower median step time", checkTarget},
	}
	var out []Claim
	for _, c := range claims {
		fc := Claim{Claim: c.claim, All: "–", First: "–"}
		if fs := r.flights(true); len(fs) > 0 {
			fc.All = c.check(fs)
		}
		if fs := r.flights(false); len(fs) > 0 {
			fc.First = c.check(fs)
		}
		out = append(out, fc)
	}
	return out
}

// changes returns, per flight, the change 1/x(f) - 1 that a ratio x
// (roots ÷ front) says the front made to a figure (negative: it fell).
func changes(fs []*Flight, x func(*Flight) float64) []float64 {
	out := make([]float64, len(fs))
	for i, f := range fs {
		out[i] = 1/x(f) - 1
	}
	return out
}

func checkNv(fs []*Flight) string {
	d := changes(fs, (*Flight).NvRatio)
	fell := 0
	for _, x := range d {
		if x < 0 {
			fell++
		}
	}
	verdict := "**holds**"
	switch {
	case md.Mean(d) >= 0:
		verdict = "**does not hold**"
	case fell < len(d):
		verdict = "**holds on average**, not everywhere"
	}
	return fmt.Sprintf("%s: Nv fell in %d of %d flights; the front changed it by %s to %s, mean %s (geometric mean of the ratios %s)",
		verdict, fell, len(d), md.Pct(slices.Min(d)), md.Pct(slices.Max(d)), md.Pct(md.Mean(d)), md.Ratio(md.Geomean(ratios(fs, (*Flight).NvRatio)), 1))
}

// ratios returns x of every flight.
func ratios(fs []*Flight, x func(*Flight) float64) []float64 {
	out := make([]float64, len(fs))
	for i, f := range fs {
		out[i] = x(f)
	}
	return out
}

func checkMean(fs []*Flight) string {
	faster, worst, worstName := 0, math.Inf(1), ""
	for _, f := range fs {
		x := f.MeanRatio()
		if x > 1 {
			faster++
		}
		if x < worst {
			worst, worstName = x, f.name()
		}
	}
	slower := len(fs) - faster
	verdict := "**holds**"
	switch {
	case 2*faster <= len(fs):
		verdict = "**does not hold**"
	case worst < 1/1.1:
		verdict = "**partly holds**: the majority faster, but some more than 10% slower"
	}
	s := fmt.Sprintf("%s: faster in %d of %d flights (roots ÷ front, geometric mean %s)", verdict, faster, len(fs), md.Ratio(md.Geomean(ratios(fs, (*Flight).MeanRatio)), 1))
	if slower > 0 {
		s += fmt.Sprintf("; slower in %d, at worst %s (%s)", slower, worstName, md.Ratio(worst, 1))
	}
	return s
}

func checkSwept(fs []*Flight) string {
	var names []string
	gain := map[string]float64{}
	for _, f := range fs {
		if !slices.Contains(names, f.Scene) {
			names = append(names, f.Scene)
		}
	}
	for _, n := range names {
		var xs []float64
		for _, f := range fs {
			if f.Scene == n {
				xs = append(xs, f.MeanRatio())
			}
		}
		gain[n] = md.Geomean(xs)
	}
	if !slices.Contains(names, "swept") || len(names) < 2 {
		return "– (needs swept and another scene)"
	}
	slices.SortFunc(names, func(a, b string) int { return -cmpFloat(gain[a], gain[b]) })
	var parts []string
	for _, n := range names {
		parts = append(parts, fmt.Sprintf("%s %s", n, md.Ratio(gain[n], 1)))
	}
	verdict := "**holds**"
	if names[0] != "swept" {
		verdict = "**does not hold**"
	}
	return fmt.Sprintf("%s: mean-time speed-up by scene (geometric mean over the trees): %s", verdict, strings.Join(parts, ", "))
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func checkMax(fs []*Flight) string {
	d := changes(fs, (*Flight).MaxRatio)
	fell := 0
	for _, x := range d {
		if x < 0 {
			fell++
		}
	}
	verdict := "**holds**"
	switch {
	case 2*fell <= len(d) || md.Geomean(ratios(fs, (*Flight).MaxRatio)) <= 1:
		verdict = "**does not hold**"
	case fell < len(d):
		verdict = "**holds in most flights**"
	}
	x := ratios(fs, (*Flight).MaxRatio)
	return fmt.Sprintf("%s: the longest step fell in %d of %d flights; roots ÷ front from %s to %s, geometric mean %s",
		verdict, fell, len(d), md.Ratio(slices.Min(x), 1), md.Ratio(slices.Max(x), 1), md.Ratio(md.Geomean(x), 1))
}

func checkSize(fs []*Flight) string {
	worst, worstName, worstN := 0.0, "", 0
	var means []float64
	for _, f := range fs {
		x := float64(f.Front.FrontMax) / float64(max(f.EnvTris, 1))
		if x >= worst {
			worst, worstName, worstN = x, f.name(), f.Front.FrontMax
		}
		means = append(means, f.MeanFront()/float64(max(f.EnvTris, 1)))
	}
	verdict := "**holds**"
	if worst >= 0.1 {
		verdict = "**does not hold**"
	}
	return fmt.Sprintf("%s: the largest front held %s pairs of nodes, %s of the environment's triangles (%s); the mean front over a flight was at most %s",
		verdict, md.Thousands(worstN), md.Percent(worst), worstName, md.Percent(slices.Max(means)))
}

func checkTarget(fs []*Flight) string {
	nv, med, both := 0, 0, 0
	for _, f := range fs {
		a, b := f.NvRatio() >= 3, f.MedianRatio() >= 2
		if a {
			nv++
		}
		if b {
			med++
		}
		if a && b {
			both++
		}
	}
	verdict := "**holds**"
	if both < len(fs) {
		verdict = "**does not hold** everywhere"
	}
	if both == 0 {
		verdict = "**does not hold**"
	}
	return fmt.Sprintf("%s: %d of %d flights meet both; ≥3× fewer Nv in %d, ≥2× lower median in %d (geometric means %s and %s)",
		verdict, both, len(fs), nv, med, md.Ratio(md.Geomean(ratios(fs, (*Flight).NvRatio)), 1), md.Ratio(md.Geomean(ratios(fs, (*Flight).MedianRatio)), 1))
}

// Losses returns a line for each flight where the front did worse than
// the roots on volume tests, median or maximum step time.
func (r *Report) Losses() []string {
	var out []string
	for _, f := range r.Flights {
		var what []string
		if x := f.NvRatio(); x < 1/1.005 {
			what = append(what, fmt.Sprintf("%s more volume tests", md.Percent(1/x-1)))
		}
		if x := f.MedianRatio(); x < 1/1.005 {
			what = append(what, fmt.Sprintf("median step %s slower (%s µs against %s)", md.Percent(1/x-1), md.Us(f.Front.Times.Median), md.Us(f.Roots.Times.Median)))
		}
		if x := f.MaxRatio(); x < 1/1.005 {
			what = append(what, fmt.Sprintf("longest step %s slower (%s µs against %s)", md.Percent(1/x-1), md.Us(f.Front.Times.Max), md.Us(f.Roots.Times.Max)))
		}
		if len(what) > 0 {
			out = append(out, fmt.Sprintf("%s, %s: %s", f.name(), modeName(f.All), strings.Join(what, "; ")))
		}
	}
	return out
}

// writeBudgets writes the budget experiment.
func (r *Report) writeBudgets(w *bufio.Writer) {
	fb0 := r.Budgets[0]
	fmt.Fprintf(w, "\n## Time-critical queries: budgets\n\n")
	fmt.Fprintf(w, "First-contact mode, no front: each step is asked again within a budget (`QueryOptions.Budget`); a step is resolved when "+
		"that first part answers (a contact, or no contact without `Result.Maybe`). A maybe is resumed (`Query.Resume`) within the same "+
		"budget until it is answered; every answer was checked against the unbudgeted query's. The deadline is looked at every 256 "+
		"pairs of nodes, so a part may overrun it (\"longest part\"). Unbudgeted times are those of the same queries without a budget, µs.\n\n")
	var names []string
	for _, b := range fb0.Runs {
		names = append(names, b.Name())
	}
	fmt.Fprintf(w, "Steps resolved by the first part (%s):\n\n", strings.Join(names, " / "))
	head := []string{"bv"}
	for _, s := range r.Scenes {
		head = append(head, s.Name)
	}
	t := md.NewTable(w, head...)
	for _, bv := range r.budgetBVs() {
		cells := []string{bv}
		for _, s := range r.Scenes {
			var parts []string
			for _, fb := range r.Budgets {
				if fb.Scene == s.Name && fb.BV == bv {
					for _, b := range fb.Runs {
						parts = append(parts, fmt.Sprintf("%.0f%%", 100*float64(b.Resolved)/float64(max(fb.Steps, 1))))
					}
				}
			}
			cells = append(cells, cmp.Or(strings.Join(parts, " / "), "–"))
		}
		t.Row(cells...)
	}
	w.WriteString("\n")
	head = []string{"scene", "bv", "steps", "in contact", "unbudgeted median / p99 / max"}
	for _, b := range fb0.Runs {
		n := b.Name()
		head = append(head, n+": resolved", n+": resumes a maybe (mean / max)")
		if b.Deadline > 0 {
			head = append(head, n+": longest part (µs)")
		}
	}
	t = md.NewTable(w, head...)
	for _, fb := range r.Budgets {
		cells := []string{fb.Scene, fb.BV, fmt.Sprint(fb.Steps), fmt.Sprint(fb.Colliding),
			fmt.Sprintf("%s / %s / %s", md.Us(fb.Unbudgeted.Median), md.Us(fb.Unbudgeted.P99), md.Us(fb.Unbudgeted.Max))}
		for _, b := range fb.Runs {
			cells = append(cells, fmt.Sprintf("%s (%d)", md.Percent(float64(b.Resolved)/float64(max(fb.Steps, 1))), b.Resolved), resumesCell(b))
			if b.Deadline > 0 {
				cells = append(cells, md.Us(b.MaxPart))
			}
		}
		t.Row(cells...)
	}
	w.WriteString("\n")
	for i, b := range fb0.Runs {
		steps, resolved, full, flights := 0, 0, 0, 0
		for _, fb := range r.Budgets {
			x := fb.Runs[i]
			steps += fb.Steps
			resolved += x.Resolved
			flights++
			if x.Resolved == fb.Steps {
				full++
			}
		}
		fmt.Fprintf(w, "- %s: resolved %s of all %s steps; every step of %d of %d flights.\n",
			b.Name(), md.Percent(float64(resolved)/float64(max(steps, 1))), md.Thousands(steps), full, flights)
	}
}

// resumesCell is "mean / max" resumes per maybe, or "–" without maybes.
func resumesCell(b *BudgetRun) string {
	if b.Maybes == 0 {
		return "–"
	}
	return fmt.Sprintf("%s / %d", md.Sig(float64(b.Resumes)/float64(b.Maybes)), b.MaxResumes)
}

// b2i returns 1 for true.
func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// budgetBVs returns the bounding volumes of the budget flights, in run
// order.
func (r *Report) budgetBVs() []string {
	return md.Distinct(r.Budgets, func(fb *Budget) string { return fb.BV })
}
