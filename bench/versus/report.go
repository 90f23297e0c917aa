package versus

import (
	"bufio"
	"encoding/csv"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/collide3d/collide/bench/internal/md"
)

// ListedDisagreements is how many disagreements of each system the markdown
// report lists; WriteDisagreementsCSV lists them all.
const ListedDisagreements = 20

// best returns the smallest mean query time over the first n steps of
// collide's runs on scene in mode all that flew them (0 when none did).
func (r *Report) best(scene string, all bool, n int) time.Duration {
	var b time.Duration
	for _, run := range r.Runs[scene] {
		if run.System.Peer || run.System.All != all || run.Err != "" || len(run.Sum.Times) < n || n == 0 {
			continue
		}
		if m := meanOf(run.Sum.Times[:n]); b == 0 || m < b {
			b = m
		}
	}
	return b
}

// meanOf returns the mean of times (not empty).
func meanOf(times []time.Duration) time.Duration {
	var sum time.Duration
	for _, t := range times {
		sum += t
	}
	return sum / time.Duration(len(times))
}

// ratioToBest formats run's mean over collide's best in the same mode and
// over the same steps.
func (r *Report) ratioToBest(run *PeerRun) string {
	return md.Ratio(float64(run.Sum.Mean()), float64(r.best(run.Scene, run.System.All, len(run.Sum.Times))))
}

// WriteMarkdown writes the report: a summary of the mean query times per
// scene and system, a table per scene (build time, memory, mean, p99 and
// max query time, ratio to collide's best) and the disagreements.
func (r *Report) WriteMarkdown(out io.Writer) error {
	w := bufio.NewWriter(out)
	c := r.Config
	size := "full"
	if c.Size != 0 {
		size = "quick"
	}
	fmt.Fprintf(w, "# collide beside its peers\n\n")
	fmt.Fprintf(w, "Machine: %s. Scenes: %s, seed %d; every system flies the same poses (collide's recorded flight), %d rounds taking turns; a step's time is its fastest round (systems whose run took over %s flew once). Run took %s.\n\n",
		r.Machine, size, c.Seed, c.Rounds, c.SlowRun, r.Elapsed.Round(time.Second))
	fmt.Fprintf(w, "Times are per query, in µs; \"× best\" divides a system's mean by the fastest mean of collide's trees in the same mode, over the same steps. "+
		"%s"+
		"Memory is what the two models hold once built (tree and mesh); build peak is the peak heap of the build "+
		"(for collide, the bytes allocated during it: an upper bound).\n\n", capNote(c))
	md.WriteSkipped(w, r.Skipped)
	if len(r.Skipped) > 0 {
		w.WriteString("\n")
	}

	for _, all := range []bool{true, false} {
		title := "first contact"
		if all {
			title = "all pairs (ODE and Bullet: all contacts)"
		}
		fmt.Fprintf(w, "## Mean query time, %s\n\n", title)
		head := []string{"system"}
		for _, s := range r.Scenes {
			head = append(head, s.Name)
		}
		t := md.NewTable(w, head...)
		for _, sys := range r.Systems {
			if sys.All != all {
				continue
			}
			row := []string{sys.Name}
			for _, s := range r.Scenes {
				row = append(row, r.summaryCell(s.Name, sys.String()))
			}
			t.Row(row...)
		}
		w.WriteString("\n")
	}
	r.writeBestAgainstPeers(w)

	for _, s := range r.Scenes {
		fmt.Fprintf(w, "## %s\n\n%s %s triangles in the environment, %s flying, %d steps.\n\n",
			s.Name, s.Doc, md.Thousands(s.EnvTris), md.Thousands(s.FlyTris), s.Steps)
		t := md.NewTable(w, "system", "mode", "steps", "build (ms)", "memory (MB)", "build peak (MB)", "mean", "p99", "max", "× best",
			"steps in contact", "pairs per step", "counters per step", "disagreements (wrong)")
		for _, sys := range r.Systems {
			run := r.Runs[s.Name][sys.String()]
			if run == nil {
				continue
			}
			if len(run.Sum.Times) == 0 {
				t.Row(sys.Name, sys.Mode(), "", "failed: "+strings.ReplaceAll(run.Err, "|", "/"), "", "", "", "", "", "", "", "", "", "")
				continue
			}
			steps := strconv.Itoa(len(run.Sum.Times))
			if run.Capped {
				steps += " (capped)"
			}
			t.Row(sys.Name, sys.Mode(), steps, md.Ms(run.Build), md.MB(run.Bytes), md.MB(run.Peak),
				md.Us(run.Sum.Mean()), md.Us(run.Sum.Quantile(0.99)), md.Us(run.Sum.Quantile(1)), r.ratioToBest(run),
				strconv.Itoa(run.Sum.Colliding), md.Sig(run.Sum.Per(run.Sum.Pairs)), counters(run),
				fmt.Sprintf("%d (%d)", run.Disagree, run.Wrong))
		}
		w.WriteString("\n")
	}
	r.writeAgreement(w)
	return w.Flush()
}

// Family returns the peer a driver's system belongs to: its name up to the
// first "-" ("fcl" for fcl-obb, "opcode" for opcode-tc).
func Family(system string) string {
	f, _, _ := strings.Cut(system, "-")
	return f
}

// A BestCell is a scene's fastest run, in one mode, among collide's trees
// or among the systems of one peer (Family), with its ratio to collide's
// best (the peer's mean over collide's fastest mean in the same mode and
// over the same steps: above 1, collide is faster).
type BestCell struct {
	Run   *PeerRun
	Ratio float64
}

// Best returns, for scene in mode all, collide's fastest tree and each
// peer's fastest system (by family, in the order of r.Systems), leaving
// out runs that failed; a peer's fastest is the one of least ratio.
func (r *Report) Best(scene string, all bool) (collide BestCell, peers []BestCell) {
	index := map[string]int{}
	for _, sys := range r.Systems {
		run := r.Runs[scene][sys.String()]
		if sys.All != all || run == nil || run.Err != "" || len(run.Sum.Times) == 0 {
			continue
		}
		b := r.best(scene, all, len(run.Sum.Times))
		if b == 0 {
			continue
		}
		c := BestCell{Run: run, Ratio: float64(run.Sum.Mean()) / float64(b)}
		if !sys.Peer {
			if collide.Run == nil || c.Ratio < collide.Ratio {
				collide = c
			}
			continue
		}
		f := Family(sys.Name)
		if i, ok := index[f]; !ok {
			index[f] = len(peers)
			peers = append(peers, c)
		} else if c.Ratio < peers[i].Ratio {
			peers[i] = c
		}
	}
	return collide, peers
}

// writeBestAgainstPeers writes, per mode, a table of collide's fastest
// tree on each scene against each peer's fastest system: the issue's
// ratio table (peer's time over collide's), with the wrong answers.
func (r *Report) writeBestAgainstPeers(w *bufio.Writer) {
	var families []string
	for _, sys := range r.Systems {
		if f := Family(sys.Name); sys.Peer && !slices.Contains(families, f) {
			families = append(families, f)
		}
	}
	if len(families) == 0 {
		return
	}
	fmt.Fprintf(w, "## Collide's best against each peer's best\n\n")
	fmt.Fprintf(w, "Per scene and mode, collide's fastest tree (mean µs per query) and each peer's fastest system "+
		"(its ratio to collide's best over the same steps: above 1, collide is faster), with the steps where each was wrong. "+
		"The last column is the fastest peer.\n\n")
	head := append([]string{"scene", "mode", "collide"}, families...)
	t := md.NewTable(w, append(head, "fastest peer")...)
	for _, all := range []bool{true, false} {
		for _, s := range r.Scenes {
			c, peers := r.Best(s.Name, all)
			if c.Run == nil {
				continue
			}
			mode := "first"
			if all {
				mode = "all"
			}
			row := []string{s.Name, mode, fmt.Sprintf("%s (%s)%s", md.Us(c.Run.Sum.Mean()), c.Run.System.BV, wrongNote(c.Run))}
			var fastest *BestCell
			for _, f := range families {
				i := slices.IndexFunc(peers, func(p BestCell) bool { return Family(p.Run.System.Name) == f })
				if i < 0 {
					row = append(row, "")
					continue
				}
				p := peers[i]
				cell := fmt.Sprintf("%.2f× (%s)", p.Ratio, p.Run.System.Name)
				if p.Run.Capped {
					cell += fmt.Sprintf(", first %d steps", len(p.Run.Sum.Times))
				}
				row = append(row, cell+wrongNote(p.Run))
				if fastest == nil || p.Ratio < fastest.Ratio {
					fastest = &peers[i]
				}
			}
			if fastest != nil {
				row = append(row, fmt.Sprintf("%s %.2f×", fastest.Run.System.Name, fastest.Ratio))
			} else {
				row = append(row, "")
			}
			t.Row(row...)
		}
	}
	w.WriteString("\n")
}

// wrongNote is ", N wrong" for a run wrong at N steps, or "".
func wrongNote(run *PeerRun) string {
	if run.Wrong == 0 {
		return ""
	}
	return fmt.Sprintf(", %d wrong", run.Wrong)
}

// capNote says which runs are capped.
func capNote(c Config) string {
	if c.SlowSteps <= 0 {
		return ""
	}
	return fmt.Sprintf("A system slower than %s a query over the first %d steps of a flight flies only those steps, once (\"capped\"). ",
		c.SlowQuery, c.SlowSteps)
}

// counters formats a run's counters per step, by name.
func counters(run *PeerRun) string {
	names := slices.Sorted(maps.Keys(run.Counters))
	cells := make([]string, len(names))
	for i, n := range names {
		cells[i] = n + " " + md.Sig(run.Sum.Per(run.Counters[n]))
	}
	return strings.Join(cells, ", ")
}

// summaryCell is a system's mean on a scene with its ratio to collide's
// best.
func (r *Report) summaryCell(scene, key string) string {
	run := r.Runs[scene][key]
	switch {
	case run == nil:
		return ""
	case len(run.Sum.Times) == 0:
		return "failed"
	}
	cell := fmt.Sprintf("%s (%s)", md.Us(run.Sum.Mean()), r.ratioToBest(run))
	if run.Capped {
		cell += fmt.Sprintf(", first %d steps", len(run.Sum.Times))
	}
	if run.Wrong > 0 {
		cell += fmt.Sprintf(", %d wrong", run.Wrong)
	}
	return cell
}

func (r *Report) writeAgreement(w *bufio.Writer) {
	fmt.Fprintf(w, "## Agreement\n\n")
	fmt.Fprintf(w, "Every system's answer at every step is compared with collide's all-pairs answer with %s trees: "+
		"the same boolean, and the same pairs for a system that reports every pair (else pairs among collide's). "+
		"Every step where they differ is checked with the brute-force oracle (%d steps checked, in %s). "+
		"A system is wrong at a step when its answer differs from the oracle's.\n\n", ReferenceBV, r.Oracle, r.OracleTime.Round(time.Second))
	type tally struct{ wrong, missed, falses, pairs int }
	tallies := map[string]*tally{}
	for _, d := range r.Disagreements {
		t := tallies[d.System.String()]
		if t == nil {
			t = &tally{}
			tallies[d.System.String()] = t
		}
		t.wrong++
		switch d.Kind() {
		case "missed contact":
			t.missed++
		case "false contact":
			t.falses++
		default:
			t.pairs++
		}
	}
	t := md.NewTable(w, "system", "mode", "steps", "wrong", "missed contacts", "false contacts", "wrong pairs")
	for _, sys := range r.Systems {
		steps := 0
		for _, s := range r.Scenes {
			if run := r.Runs[s.Name][sys.String()]; run != nil {
				steps += len(run.Sum.Times)
			}
		}
		tl := tallies[sys.String()]
		if tl == nil {
			tl = &tally{}
		}
		t.Row(sys.Name, sys.Mode(), strconv.Itoa(steps), strconv.Itoa(tl.wrong), strconv.Itoa(tl.missed),
			strconv.Itoa(tl.falses), strconv.Itoa(tl.pairs))
	}
	w.WriteString("\n")
	if len(r.Disagreements) == 0 {
		w.WriteString("No system was wrong at any step.\n")
		return
	}
	fmt.Fprintf(w, "The wrong answers (at most %d per system here; all of them in peers-disagreements.csv). "+
		"Examples: -e/f a pair in contact the system missed, +e/f a pair it reported that is not in contact "+
		"(e: environment triangle, f: flying triangle).\n\n", ListedDisagreements)
	t = md.NewTable(w, "scene", "system", "mode", "step", "what", "said", "truth", "missing pairs", "pairs not in contact", "examples")
	listed := map[string]int{}
	for _, d := range r.Disagreements {
		k := d.System.String()
		if listed[k] >= ListedDisagreements {
			continue
		}
		listed[k]++
		t.Row(d.Scene, d.System.Name, d.System.Mode(), strconv.Itoa(d.Step), d.Kind(), yesNo(d.Said), yesNo(d.Truth),
			strconv.Itoa(d.Missing), strconv.Itoa(d.Extra), d.ExampleString())
	}
}

func yesNo(b bool) string {
	if b {
		return "contact"
	}
	return "none"
}

// WriteDisagreementsCSV writes every disagreement as a CSV row: scene,
// system, mode, step, what, said, truth, missing, extra, examples.
func (r *Report) WriteDisagreementsCSV(out io.Writer) error {
	w := csv.NewWriter(out)
	w.Write([]string{"scene", "system", "mode", "step", "what", "said", "truth", "missing_pairs", "extra_pairs", "examples"})
	for _, d := range r.Disagreements {
		w.Write([]string{d.Scene, d.System.Name, d.System.Mode(), strconv.Itoa(d.Step), d.Kind(),
			strconv.FormatBool(d.Said), strconv.FormatBool(d.Truth), strconv.Itoa(d.Missing), strconv.Itoa(d.Extra), d.ExampleString()})
	}
	w.Flush()
	return w.Error()
}
