package dops

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/collide3d/collide/bench/internal/md"
	"github.com/collide3d/collide/bv"
)

// Dissertation lists the conclusions of Klosowski's dissertation on the
// choice of k (Chapter 6's new DOPs, Chapter 7's comparison of k), as the
// summary reconstructs them: the numbers were stripped from the text.
var Dissertation = []string{
	"No k is optimal everywhere, but the 18-DOP is best on average, so it is QuickCD's default (Ch. 7; \"18\" inferred, the number stripped).",
	"On Torus and Interior another k (stripped) is slightly better than the default, on both platforms (Ch. 7).",
	"The 8-, 12- and 20-DOPs perform poorly, failing to beat even the 6-DOP (Ch. 6); none of them is in QuickCD.",
	"The 8-DOP is the worst choice, last in nearly all runs, sometimes by a huge margin; its slabs are the worst for nearly axis-aligned models such as Pipes and Interior: sensitive to the model's orientation (Ch. 6; \"remains far the worst\", Ch. 7).",
	"The new DOPs save interval comparisons per test but approximate worse (Ch. 6).",
}

// Ours returns our conclusions, drawn from r's figures in the terms of the
// dissertation's.
func (r *Report) Ours() []string {
	ks := r.Config.Ks
	avg := r.AverageRanks(false)
	if len(avg) == 0 {
		return nil
	}
	var out []string
	best := slices.MinFunc(ks, func(a, b bv.K) int {
		return cmpF(avg[a], avg[b])
	})
	line := fmt.Sprintf("Best on average over the paper's scenes: the %v (average rank %.2g)", best, avg[best])
	if best != bv.K18 {
		line += fmt.Sprintf("; the 18-DOP's average rank is %.2g", avg[bv.K18])
	}
	out = append(out, line+".")
	// Per scene, the fastest.
	var firsts []string
	for _, s := range r.paperScenes() {
		for _, row := range r.Rows {
			if row.Scene == s && row.Rank == 1 {
				firsts = append(firsts, fmt.Sprintf("%s: %v", s, row.K))
			}
		}
	}
	out = append(out, "Fastest per scene: "+strings.Join(firsts, ", ")+".")
	// Do the new DOPs beat the 6-DOP, or any of the paper's, anywhere?
	paper := []bv.K{bv.K6, bv.K14, bv.K18, bv.K26}
	for _, k := range []bv.K{bv.K8, bv.K12, bv.K20} {
		if !slices.Contains(ks, k) {
			continue
		}
		var beats6, beatsAll []string
		for _, s := range r.paperScenes() {
			row, ok := r.row(s, k)
			if !ok {
				continue
			}
			if r6, ok := r.row(s, bv.K6); ok && row.Mean < r6.Mean {
				beats6 = append(beats6, s)
			}
			all := true
			for _, p := range paper {
				if rp, ok := r.row(s, p); ok && rp.Mean <= row.Mean {
					all = false
				}
			}
			if all {
				beatsAll = append(beatsAll, s)
			}
		}
		line := fmt.Sprintf("The %v (average rank %.2g) beats the 6-DOP on %s", k, avg[k], listOr(beats6, "no scene"))
		line += fmt.Sprintf(", and every one of the paper's k on %s.", listOr(beatsAll, "no scene"))
		out = append(out, line)
	}
	// The 8-DOP last?
	if slices.Contains(ks, bv.K8) {
		var last []string
		n := 0
		for _, s := range r.paperScenes() {
			n++
			if row, ok := r.row(s, bv.K8); ok && row.Rank == len(ks) {
				last = append(last, s)
			}
		}
		out = append(out, fmt.Sprintf("The 8-DOP is last on %d of the %d paper's scenes (%s).", len(last), n, listOr(last, "none")))
		if slices.Contains(r.sceneNames(), Turned) {
			var parts []string
			for _, k := range ks {
				a, ok1 := r.row("pipes", k)
				b, ok2 := r.row(Turned, k)
				if ok1 && ok2 {
					parts = append(parts, fmt.Sprintf("%v %s → %s ms (rank %d → %d)", k, md.Ms(a.Mean), md.Ms(b.Mean), a.Rank, b.Rank))
				}
			}
			out = append(out, "Orientation: turning pipes by 45° about z (its flight turned with it) changes the mean query of each k: "+strings.Join(parts, "; ")+".")
		}
	}
	return out
}

func cmpF(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func listOr(xs []string, none string) string {
	if len(xs) == 0 {
		return none
	}
	return strings.Join(xs, ", ")
}

// paperScenes returns the scenes of the rows but the turned one.
func (r *Report) paperScenes() []string {
	return slices.DeleteFunc(r.sceneNames(), func(s string) bool { return s == Turned })
}

// sceneNames returns the scenes of the rows, in order.
func (r *Report) sceneNames() []string {
	var out []string
	for _, row := range r.Rows {
		if !slices.Contains(out, row.Scene) {
			out = append(out, row.Scene)
		}
	}
	return out
}

// row returns the row of scene s and k.
func (r *Report) row(s string, k bv.K) (Row, bool) {
	for _, row := range r.Rows {
		if row.Scene == s && row.K == k {
			return row, true
		}
	}
	return Row{}, false
}

// WriteMarkdown writes the report.
func (r *Report) WriteMarkdown(w io.Writer) error {
	b := bufio.NewWriter(w)
	c := r.Config
	size := "the paper's sizes"
	if c.Quick {
		size = "small scenes (Quick)"
	}
	fmt.Fprintf(b, "# The choice of k: Klosowski's dissertation, Chapters 6 and 7\n\n")
	clock := "the querying thread's CPU time"
	if r.WallClock {
		clock = "the wall clock (the thread's CPU time could not be read here)"
	}
	fmt.Fprintf(b, "%s, seed %d, %d round(s), each step's query timed by %s, its least over the rounds; builds by the wall clock; %s; run took %s.\n\n",
		size, c.Seed, c.Rounds, clock, r.Machine, r.Elapsed.Round(time.Second))
	b.WriteString("Every scene is flown with k-DOP trees of each k (splatter rule, mean split, τ by the size rule), " +
		"all pairs at every step, no front (QuickCD's Chapter 7 runs report all pairs). " +
		"Build is the time to build both models, memory their trees; mean and max are a step's query time; " +
		"Nv, Np and Nu are per step (volume tests, triangle tests, node updates). " +
		"The 8-, 12- and 20-DOPs are the 14-, 18- and 26-DOPs without the axes.\n\n")
	b.WriteString("## Scenes\n\n")
	t := md.NewTable(b, "scene", "", "environment triangles", "flying triangles", "steps")
	for _, s := range r.Scenes {
		t.Row(s.Name, s.Doc, md.Thousands(s.EnvTris), md.Thousands(s.FlyTris), md.Thousands(s.Steps))
	}
	md.WriteSkipped(b, r.Skipped)
	for _, s := range r.sceneNames() {
		fmt.Fprintf(b, "\n## %s\n\n", s)
		t := md.NewTable(b, "k", "build (ms)", "memory (MB)", "mean (ms)", "max (ms)", "Nv", "Np", "Nu", "pairs", "rank")
		for _, row := range r.Rows {
			if row.Scene != s {
				continue
			}
			n := float64(max(row.Steps, 1))
			t.Row(row.K.String(), md.Ms(row.Build), md.MB(row.Bytes), md.Ms(row.Mean), md.Ms(row.Max),
				md.Sig(float64(row.Stats.BVTests)/n), md.Sig(float64(row.Stats.TriTests)/n), md.Sig(float64(row.Stats.Updates)/n),
				md.Thousands(int(row.Pairs)), fmt.Sprint(row.Rank))
		}
	}
	b.WriteString("\n## Ranks\n\nEach k's rank by mean query time on each scene (1: the fastest), and its average over the paper's scenes")
	if slices.Contains(r.sceneNames(), Turned) {
		b.WriteString(" (the turned pipes scene not counted)")
	}
	b.WriteString(".\n\n")
	head := append([]string{"k"}, r.sceneNames()...)
	head = append(head, "average rank")
	t = md.NewTable(b, head...)
	avg := r.AverageRanks(false)
	for _, k := range c.Ks {
		cells := []string{k.String()}
		for _, s := range r.sceneNames() {
			if row, ok := r.row(s, k); ok {
				cells = append(cells, fmt.Sprint(row.Rank))
			} else {
				cells = append(cells, "–")
			}
		}
		t.Row(append(cells, md.Sig(avg[k]))...)
	}
	b.WriteString("\n## The dissertation's conclusions\n\n")
	b.WriteString("Its tables of preprocessing and query time by k (Sun and SGI, 7 k × 5 scenes) survive only as their labels: " +
		"every number was stripped from the text (the summary's section 0), so only the conclusions can be set beside ours.\n\n")
	for _, s := range Dissertation {
		fmt.Fprintf(b, "- %s\n", s)
	}
	b.WriteString("\n## Ours\n\n")
	for _, s := range r.Ours() {
		fmt.Fprintf(b, "- %s\n", s)
	}
	return b.Flush()
}
