package cdfast

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/collide3d/collide/bench/internal/md"
	"github.com/collide3d/collide/scene"
)

// per10k scales a count over steps steps to 10,000 steps.
func per10k(x int64, steps int) float64 {
	if steps == 0 {
		return math.NaN()
	}
	return float64(x) * float64(scene.CDFastSteps) / float64(steps)
}

// ms10k formats a mean step time as the ms of 10,000 steps.
func ms10k(perStep time.Duration) string {
	return md.Sig(float64(perStep.Nanoseconds()) * float64(scene.CDFastSteps) / 1e6)
}

// cnt formats a count scaled to 10,000 steps.
func cnt(x int64, steps int) string { return md.Thousands(int(math.Round(per10k(x, steps)))) }

// paperCell formats ours beside the paper's figure.
func paperCell(ours string, paper float64) string {
	return fmt.Sprintf("%s (%s)", ours, md.Thousands(int(paper)))
}

// moverTitle names a mover as the paper's tables do.
func moverTitle(m string) string {
	if m == "torus" {
		return "Table 1: the torus"
	}
	return "Table 2: the elongated object (the paper's \"complex object\" of Figure 5)"
}

// WriteMarkdown writes CDFast's experiments as a report of their own
// (WriteSection at the first level).
func (r *Report) WriteMarkdown(out io.Writer) error { return r.WriteSection(out, "#") }

// WriteSection writes CDFast's experiments under a heading of level head
// ("##": the sections are "###"), as a section of another report.
func (r *Report) WriteSection(out io.Writer, head string) error {
	w := bufio.NewWriter(out)
	sub := head + "#"
	steps := r.Config.Steps
	fmt.Fprintf(w, "%s CDFast's experiments (Sanna and Milani)\n\n", head)
	scaled := ""
	if steps != scene.CDFastSteps {
		scaled = fmt.Sprintf(" Our paths are %s steps long (a short run): times and counts are scaled to 10,000 steps.", md.Thousands(steps))
	}
	fmt.Fprintf(w, "The built-in scenes cdfast-{room,spheres,mixed}-{torus,elongated} (seed %d): one mover on a random path "+
		"in the unit cube among static objects (scene 1 the room, 2 the 50 spheres, 3 the mixed objects).%s "+
		"The paper's figures, in parentheses, are ms for 10,000 steps on an AMD Duron 650 MHz, and \"collision numbers\" it "+
		"does not define (notes §2.7). Ours:\n\n", r.Config.Seed, scaled)
	w.WriteString("- **CDFast, broad phase alone**: broad/rgrid over the static objects' world boxes (root box the unit cube, " +
		"default threshold), the mover's spheres at a level of detail (collide.Model.Spheres: level l has up to 2^l spheres; " +
		"level 0 is the paper's \"one sphere\", and the paper's sphere-trees, 9 spheres for the torus and 5 for the elongated " +
		"object, are nearest our levels 3 and 2) placed at each step's pose, then Pairs. Driven directly, without a world; the " +
		"time of a step is placing the spheres, moving the object and finding its pairs, the fastest of " +
		fmt.Sprint(r.Config.Rounds) + " rounds (a loaded machine preempts some steps). \"box\" bounds the mover by its tight world box instead (the world's default).\n")
	w.WriteString("- **Exact** (the paper's QuickCD): the world, rgrid's boxes then 18-DOP trees, one worker, first contact or " +
		"all pairs; the world's step time (bound, broad, narrow, update), the first step (which builds the grid) left out.\n")
	w.WriteString("- Counts, summed over the steps: for CDFast the steps with an interference, the (mover, static object) pairs " +
		"reported and the (sphere, static box) pairs that overlap; for the exact world the steps with a contact, the pairs of " +
		"objects in contact and the triangle pairs in contact (all pairs).\n\n")

	for _, mover := range Movers {
		tl := TreeLevel[mover]
		fmt.Fprintf(w, "%s %s\n\n", sub, moverTitle(mover))
		w.WriteString("Time, ms for 10,000 steps, ours (paper's):\n\n")
		t := md.NewTable(w, "scene", "exact, first contact (QuickCD)", "exact, all pairs", "level 0: one sphere (CDFast one sphere)",
			fmt.Sprintf("level %d (CDFast sphere-tree)", tl), "level 1", "box", "exact first ÷ level 0 (QuickCD ÷ one sphere)")
		for i, base := range Scenes {
			run := r.Run(base, mover)
			if run == nil {
				continue
			}
			p := paperCDFast[mover][i]
			l0, lt, l1, box := run.Level(0), run.Level(tl), run.Level(1), run.Level(-1)
			t.Row(fmt.Sprintf("%d %s", i+1, strings.TrimPrefix(base, "cdfast-")),
				paperCell(ms10k(run.First.PerStep()), p[0]), ms10k(run.All.PerStep()),
				paperCell(levelTime(l0), p[1]), paperCell(levelTime(lt), p[2]), levelTime(l1), levelTime(box),
				fmt.Sprintf("%s (%s)", md.Ratio(float64(run.First.PerStep()), float64(l0.PerStep())), md.Ratio(p[0], p[1])))
		}
		w.WriteString("\nCollision numbers for 10,000 steps, ours (paper's); CDFast cells are object pairs / sphere-box pairs / steps with an interference, exact cells triangle pairs / object pairs / steps with a contact:\n\n")
		t = md.NewTable(w, "scene", "exact, all pairs (QuickCD)", "level 0 (CDFast one sphere)", fmt.Sprintf("level %d (CDFast sphere-tree)", tl),
			"box: object pairs / steps", fmt.Sprintf("level %d ÷ level 0, object pairs (paper: tree ÷ one sphere)", tl))
		for i, base := range Scenes {
			run := r.Run(base, mover)
			if run == nil {
				continue
			}
			p := paperCDFast[mover][i]
			l0, lt, box := run.Level(0), run.Level(tl), run.Level(-1)
			e := run.All
			t.Row(fmt.Sprintf("%d %s", i+1, strings.TrimPrefix(base, "cdfast-")),
				fmt.Sprintf("%s / %s / %s (%s)", cnt(e.TriPairs, e.Steps), cnt(e.Contacts, e.Steps), cnt(e.StepsHit, e.Steps), md.Thousands(int(p[3]))),
				fmt.Sprintf("%s (%s)", levelCounts(l0), md.Thousands(int(p[4]))),
				fmt.Sprintf("%s (%s)", levelCounts(lt), md.Thousands(int(p[5]))),
				fmt.Sprintf("%s / %s", cnt(box.ObjectPairs, box.Steps), cnt(box.StepsHit, box.Steps)),
				fmt.Sprintf("%.2f (%.3f)", float64(lt.ObjectPairs)/float64(max(l0.ObjectPairs, 1)), p[5]/p[4]))
		}
		w.WriteString("\n")
	}

	fmt.Fprintf(w, "%s Every level of detail\n\n", sub)
	w.WriteString("Per 10,000 steps; µs per step the median; tests and cells are the grid's work (notes §1.6): sphere-box tests against static boxes, leaf cells reached, static boxes found by a Full cell without a test.\n\n")
	t := md.NewTable(w, "mover", "scene", "bound", "spheres", "ms", "median µs", "steps with interference", "object pairs", "sphere-box pairs",
		"sphere-box tests", "box tests", "cells visited", "Full hits", "grid cells (depth)")
	for _, run := range r.Runs {
		for _, b := range run.Broad {
			name := fmt.Sprintf("level %d", b.Level)
			if b.Level < 0 {
				name = "box"
			}
			t.Row(run.Mover, strings.TrimPrefix(run.Scene, "cdfast-"), name, fmt.Sprint(b.Spheres), levelTime(b), md.Us(b.Median),
				cnt(b.StepsHit, b.Steps), cnt(b.ObjectPairs, b.Steps), cnt(b.SphereBoxHits, b.Steps), cnt(b.SphereBoxTests, b.Steps),
				cnt(b.BoxTests, b.Steps), cnt(b.CellsVisited, b.Steps), cnt(b.FullHits, b.Steps), fmt.Sprintf("%d (%d)", b.Grid.Cells, b.Grid.Depth))
		}
	}
	w.WriteString("\n")

	if len(r.Ns) > 0 {
		fmt.Fprintf(w, "%s CDFast's time against N_s\n\n", sub)
		w.WriteString("cdfast-spheres' path (n = 50) among N_s static spheres: of the paper's radius 0.0345 (\"fixed radius\"; " +
			"up to 1,000, as 5,000 would fill 86% of the cube), or sharing the volume of the paper's 50 (\"fixed volume\", radius " +
			"0.0345·(50/N_s)^⅓). ms for 10,000 steps; pairs are (mover, sphere) pairs per step; ns per pair is the time of a step " +
			"divided by its pairs.\n\n")
		t := md.NewTable(w, "mover", "series", "N_s", "radius", "grid cells (depth)", "build (ms)", "level 0: ms", "pairs per step", "ns per pair",
			"tree: level", "ms", "pairs per step")
		for _, x := range r.Ns {
			l0, lt := x.Broad[0], x.Broad[len(x.Broad)-1]
			t.Row(x.Mover, x.Series, md.Thousands(x.N), fmt.Sprintf("%.4f", x.Radius), fmt.Sprintf("%d (%d)", l0.Grid.Cells, l0.Grid.Depth), md.Ms(l0.Build),
				levelTime(l0), md.Sig(float64(l0.ObjectPairs)/float64(l0.Steps)), nsPerPair(l0),
				fmt.Sprint(lt.Level), levelTime(lt), md.Sig(float64(lt.ObjectPairs)/float64(lt.Steps)))
		}
		w.WriteString("\n")
	}

	fmt.Fprintf(w, "%s What our numbers say of the paper's conclusions\n\n", sub)
	for _, line := range r.Conclusions() {
		fmt.Fprintf(w, "- %s\n", line)
	}
	w.WriteString("\n")
	return w.Flush()
}

func levelTime(b *Broad) string {
	if b == nil {
		return "–"
	}
	return ms10k(b.PerStep())
}

func levelCounts(b *Broad) string {
	if b == nil {
		return "–"
	}
	return fmt.Sprintf("%s / %s / %s", cnt(b.ObjectPairs, b.Steps), cnt(b.SphereBoxHits, b.Steps), cnt(b.StepsHit, b.Steps))
}

func nsPerPair(b *Broad) string {
	if b.ObjectPairs == 0 {
		return "–"
	}
	return md.Sig(float64(b.Total.Nanoseconds()) / float64(b.ObjectPairs))
}

// spread returns min, max and max/min of xs.
func spread(xs []float64) (lo, hi, r float64) {
	if len(xs) == 0 {
		return math.NaN(), math.NaN(), math.NaN()
	}
	lo, hi = slices.Min(xs), slices.Max(xs)
	return lo, hi, hi / lo
}

// Conclusions returns the paper's conclusions checked against our
// numbers, a sentence each.
func (r *Report) Conclusions() []string {
	var out []string
	us10k := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e3 }
	// Independence of the scene, and of N_s.
	for _, mover := range Movers {
		tl := TreeLevel[mover]
		var l0, lt []float64
		for _, base := range Scenes {
			if run := r.Run(base, mover); run != nil {
				l0 = append(l0, us10k(run.Level(0).PerStep()))
				lt = append(lt, us10k(run.Level(tl).PerStep()))
			}
		}
		p := paperCDFast[mover]
		_, _, pr0 := spread([]float64{p[0][1], p[1][1], p[2][1]})
		_, _, prt := spread([]float64{p[0][2], p[1][2], p[2][2]})
		a, b, s0 := spread(l0)
		c, d, st := spread(lt)
		out = append(out, fmt.Sprintf("**Same time in every scene** (%s): level 0 took %s to %s µs a step across the three scenes (max/min %.2f; the paper's one sphere %.2f), level %d %s to %s µs (%.2f; the paper's tree %.2f).",
			mover, md.Sig(a), md.Sig(b), s0, pr0, tl, md.Sig(c), md.Sig(d), st, prt))
	}
	for _, mover := range Movers {
		for _, series := range []string{"fixed radius", "fixed volume"} {
			var t0, pairs, per []float64
			var ns []string
			var cells []int
			for _, x := range r.Ns {
				if x.Mover != mover || x.Series != series {
					continue
				}
				l0 := x.Broad[0]
				t0 = append(t0, us10k(l0.PerStep()))
				pairs = append(pairs, float64(l0.ObjectPairs)/float64(l0.Steps))
				if l0.ObjectPairs > 0 {
					per = append(per, float64(l0.Total.Nanoseconds())/float64(l0.ObjectPairs))
				}
				ns = append(ns, md.Thousands(x.N))
				cells = append(cells, l0.Grid.Cells)
			}
			if len(t0) < 2 {
				continue
			}
			a, b, s := spread(t0)
			_, _, sp := spread(pairs)
			_, _, spp := spread(per)
			verdict := "holds"
			if s > 1.5 {
				verdict = "does not hold as stated"
			}
			out = append(out, fmt.Sprintf("**Time independent of N_s** (%s, %s, N_s = %s): level 0 took %s to %s µs a step (max/min %.2f): the claim %s. "+
				"The pairs reported per step changed %.1f-fold and the grid grew from %d to %d cells; the time per pair reported varied %.2f-fold: "+
				"the cost follows the interferences found, not N_s itself.",
				mover, series, strings.Join(ns, ", "), md.Sig(a), md.Sig(b), s, verdict, sp, cells[0], cells[len(cells)-1], spp))
		}
	}
	// Level 1 and the tree's level versus one sphere.
	for _, mover := range Movers {
		for _, tl := range []int{1, TreeLevel[mover]} {
			if line := r.levelConclusion(mover, tl); line != "" {
				out = append(out, line)
			}
		}
	}
	// The box against the spheres.
	var boxFaster, total int
	for _, run := range r.Runs {
		total++
		if b, l0 := run.Level(-1), run.Level(0); b.PerStep() < l0.PerStep() && b.ObjectPairs <= l0.ObjectPairs {
			boxFaster++
		}
	}
	if total > 0 {
		out = append(out, fmt.Sprintf("**Tight box vs one sphere**: the mover's tight world box was faster than its one sphere and reported no more pairs in %d of %d scene-mover runs.", boxFaster, total))
	}
	// Exact against the broad phase alone.
	for _, mover := range Movers {
		var fr, ar []float64
		for _, base := range Scenes {
			run := r.Run(base, mover)
			if run == nil {
				continue
			}
			l0 := float64(run.Level(0).PerStep())
			fr = append(fr, float64(run.First.PerStep())/l0)
			ar = append(ar, float64(run.All.PerStep())/l0)
		}
		if len(fr) == 0 {
			continue
		}
		p := paperCDFast[mover]
		a, b, _ := spread(fr)
		c, d, _ := spread(ar)
		out = append(out, fmt.Sprintf("**Exact vs broad phase alone** (%s): the exact world took %.0f to %.0f times CDFast's level-0 time (first contact), %.0f to %.0f (all pairs); "+
			"the paper's QuickCD %.1f to %.1f times its one sphere. The broad phase is the cheap part: the triangles cost the time, which the paper's comparison (QuickCD exact, CDFast not) leaves out.",
			mover, a, b, c, d, min(p[0][0]/p[0][1], p[1][0]/p[1][1], p[2][0]/p[2][1]), max(p[0][0]/p[0][1], p[1][0]/p[1][1], p[2][0]/p[2][1])))
	}
	return out
}

// levelConclusion compares level l with level 0 for mover, against the
// paper's sphere-tree and one sphere ("" when there is no run).
func (r *Report) levelConclusion(mover string, l int) string {
	var cr, tr, hr []float64
	spheres := 0
	for _, base := range Scenes {
		run := r.Run(base, mover)
		if run == nil || run.Level(l) == nil || run.Level(0) == nil {
			continue
		}
		l0, lt := run.Level(0), run.Level(l)
		spheres = lt.Spheres
		cr = append(cr, float64(lt.ObjectPairs)/float64(max(l0.ObjectPairs, 1)))
		hr = append(hr, float64(lt.SphereBoxHits)/float64(max(l0.SphereBoxHits, 1)))
		tr = append(tr, float64(lt.PerStep())/float64(l0.PerStep()))
	}
	if len(cr) == 0 {
		return ""
	}
	p := paperCDFast[mover]
	a, b, _ := spread(cr)
	c, d, _ := spread(tr)
	e, f, _ := spread(hr)
	verdict := "fewer interferences"
	if b >= 1 {
		verdict = "not always fewer interferences"
	}
	return fmt.Sprintf("**Level %d vs one sphere** (%s, %d spheres): %s: object pairs ×%.2f to ×%.2f, sphere-box pairs ×%.2f to ×%.2f, "+
		"at ×%.2f to ×%.2f the time (the paper's sphere-tree: counts ×%.3f to ×%.3f at ×%.2f to ×%.2f the time).",
		l, mover, spheres, verdict, a, b, e, f, c, d,
		min(p[0][5]/p[0][4], p[1][5]/p[1][4], p[2][5]/p[2][4]), max(p[0][5]/p[0][4], p[1][5]/p[1][4], p[2][5]/p[2][4]),
		min(p[0][2]/p[0][1], p[1][2]/p[1][1], p[2][2]/p[2][1]), max(p[0][2]/p[0][1], p[1][2]/p[1][1], p[2][2]/p[2][1]))
}
