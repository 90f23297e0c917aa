package paper

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"slices"
	"time"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/bench/internal/md"
	"github.com/collide3d/collide/bench/plot"
	"github.com/collide3d/collide/bench/scenes"
)

// Chart is a chart of the report, to be written as Name (an SVG file name).
type Chart struct {
	Name  string
	Title string
	SVG   interface{ WriteSVG(io.Writer) error }
}

// sceneTable starts a table with a column per scene after first.
func (r *Report) sceneTable(w *bufio.Writer, first string) *md.Table {
	head := []string{first}
	for _, s := range r.Scenes {
		head = append(head, s.Name)
	}
	return md.NewTable(w, head...)
}

// fastestRow adds the row naming, per scene, the fastest of names by our
// mean query time and by the paper's (ours(scene, name) and paper(scene,
// name); paper may return +Inf or NaN where the paper has no figure).
func (r *Report) fastestRow(t *md.Table, names []string, ours func(scene, name string) float64, paper func(scene, name string) float64) {
	cells := []string{"fastest"}
	for _, s := range r.Scenes {
		best, bestPaper := "", ""
		bt, bp := math.Inf(1), math.Inf(1)
		for _, name := range names {
			if m := ours(s.Name, name); m < bt {
				best, bt = name, m
			}
			if p := paper(s.Name, name); p < bp {
				bestPaper, bp = name, p
			}
		}
		if bestPaper == "" {
			cells = append(cells, best)
			continue
		}
		cells = append(cells, fmt.Sprintf("%s (%s)", best, bestPaper))
	}
	t.Row(cells...)
}

// meanMs is the mean query time of a flight, in milliseconds.
func meanMs(f *Flight) float64 {
	if f == nil {
		return math.NaN()
	}
	return float64(f.Sum.Mean().Nanoseconds()) / 1e6
}

// flightCell is "ours (paper's)" for a mean query time.
func flightCell(f *Flight, paper float64) string {
	if f == nil {
		return "–"
	}
	if paper > 0 {
		return fmt.Sprintf("%s (%s)", md.Sig(meanMs(f)), md.Sig(paper))
	}
	return md.Sig(meanMs(f))
}

// WriteMarkdown writes the report: the tables of the paper with our
// figures beside its, the ratios it draws, and links to the charts.
func (r *Report) WriteMarkdown(out io.Writer) error {
	w := bufio.NewWriter(out)
	size := "full"
	if r.Config.Size == scenes.Quick {
		size = "quick"
	}
	fmt.Fprintf(w, "# collide bench: the experiments of Klosowski et al. (1998)\n\n")
	fmt.Fprintf(w, "Scenes: %s size, seed %d. Machine: %s. Run time: %s.\n\n", size, r.Config.Seed, r.Machine, r.Elapsed.Round(time.Second))
	fmt.Fprintf(w, "Each cell is ours, with the paper's in parentheses (an SGI Indigo2, 195 MHz R10000, 1998). "+
		"Absolute times differ by the machines' speed; the ratios are what compare. "+
		"Every flight finds all pairs at every step, as in the paper's timings; \"obb\" is RAPID's OBB-tree in the paper, "+
		"ours built with the RAPID rule.\n\n")

	fmt.Fprintf(w, "## Scenes\n\n")
	t := md.NewTable(w, "scene", "how it is made", "environment triangles", "flying triangles", "steps", "contact pairs", "made in")
	for _, s := range r.Scenes {
		contacts := "–"
		if f := r.Flights[key(s.Name, "kdop18")]; f != nil {
			contacts = fmt.Sprint(f.Sum.Pairs)
		}
		n := func(ours string, paper int) string { return withPaper(ours, s.Name, fmt.Sprint(paper)) }
		t.Row(s.Name, s.Doc, n(fmt.Sprint(s.EnvTris), s.Paper.EnvTris), n(fmt.Sprint(s.FlyTris), s.Paper.FlyTris),
			n(fmt.Sprint(s.Steps), s.Paper.Steps), n(contacts, s.Paper.Contacts), s.Make.Round(time.Millisecond).String())
	}
	md.WriteSkipped(w, r.Skipped)

	r.writeCosts(w)
	r.writeTable2(w)
	r.writeSpread(w)
	r.writeBuilds(w)
	r.writeRules(w)
	r.writeNested(w)
	if r.Auto != nil {
		w.WriteString("\n")
		if err := r.Auto.WriteAutoMarkdown(w, "##"); err != nil {
			return err
		}
	}

	fmt.Fprintf(w, "\n## Charts\n\n")
	for _, c := range r.Charts() {
		fmt.Fprintf(w, "![%s](%s)\n\n", c.Title, c.Name)
	}
	return w.Flush()
}

func (r *Report) writeCosts(w *bufio.Writer) {
	if len(r.Costs) == 0 {
		return
	}
	fmt.Fprintf(w, "\n## Table 1: the constants of the cost model (µs per operation)\n\n")
	fmt.Fprintf(w, "Measured on the flying torus's tree (paper.MeasureCosts). Cv is a volume test, Cu a flying volume updated "+
		"(k-DOPs re-bounded by tumbling; the other kinds moved), Cp a triangle-triangle test.\n\n")
	head := []string{"constant"}
	for _, bv := range TableBVs {
		head = append(head, bv)
	}
	t := md.NewTable(w, head...)
	for i, name := range []string{"Cv", "Cu", "Cp"} {
		cells := []string{name}
		for _, bv := range TableBVs {
			c, ok := r.Costs[bv]
			if !ok {
				cells = append(cells, "–")
				continue
			}
			ours := [3]float64{c.Cv, c.Cu, c.Cp}[i] / 1e3
			p, inPaper := paperCosts[bv]
			var paper float64
			switch {
			case !inPaper:
			case i == 2:
				paper = paperCp * 1e3
			default:
				paper = p[i] * 1e3
			}
			if paper > 0 {
				cells = append(cells, fmt.Sprintf("%s (%s)", md.Sig(ours), md.Sig(paper)))
			} else {
				cells = append(cells, md.Sig(ours))
			}
		}
		t.Row(cells...)
	}
	cells := []string{"Cu / Cv"}
	for _, bv := range TableBVs {
		c := r.Costs[bv]
		if p, ok := paperCosts[bv]; ok {
			cells = append(cells, fmt.Sprintf("%s (%s)", md.Ratio(c.Cu, c.Cv), md.Ratio(p[1], p[0])))
		} else {
			cells = append(cells, md.Ratio(c.Cu, c.Cv))
		}
	}
	t.Row(cells...)
}

func (r *Report) writeTable2(w *bufio.Writer) {
	fmt.Fprintf(w, "\n## Table 2: mean query time per step (ms), Splatter rule, mean split\n\n")
	t := r.sceneTable(w, "bv")
	for _, bv := range TableBVs {
		cells := []string{bv}
		for _, s := range r.Scenes {
			var paper float64
			if p, ok := paperCD[bv]; ok {
				paper = paperAt(p, s.Name)
			}
			cells = append(cells, flightCell(r.Flights[key(s.Name, bv)], paper))
		}
		t.Row(cells...)
	}
	for _, k := range paperKs {
		cells := []string{"obb / " + k}
		for _, s := range r.Scenes {
			cells = append(cells, withPaper(md.Ratio(meanMs(r.Flights[key(s.Name, "obb")]), meanMs(r.Flights[key(s.Name, k)])),
				s.Name, md.Ratio(paperAt(paperCD["obb"], s.Name), paperAt(paperCD[k], s.Name))))
		}
		t.Row(cells...)
	}
	r.fastestRow(t, TableBVs, func(scene, bv string) float64 { return meanMs(r.Flights[key(scene, bv)]) },
		func(scene, bv string) float64 {
			if p, ok := paperCD[bv]; ok {
				return paperAt(p, scene)
			}
			return math.Inf(1)
		})

	fmt.Fprintf(w, "\nThe counts of the cost model per step (Nv volume tests, Np triangle tests, Nu volume updates), and the trees' memory:\n\n")
	t = md.NewTable(w, "scene", "bv", "Nv", "Np", "Nu", "pairs per step", "build (s)", "bytes per triangle")
	for _, s := range r.Scenes {
		for _, bv := range TableBVs {
			f := r.Flights[key(s.Name, bv)]
			if f == nil {
				continue
			}
			st := f.Sum.Stats
			t.Row(s.Name, bv, md.Sig(f.Sum.Per(st.BVTests)), md.Sig(f.Sum.Per(st.TriTests)), md.Sig(f.Sum.Per(st.Updates)),
				md.Sig(f.Sum.Per(f.Sum.Pairs)), md.Sig(f.Build.Seconds()), md.Sig(float64(f.Bytes)/float64(s.EnvTris+s.FlyTris)))
		}
	}
}

// writeSpread writes the distribution of query times per step (the paper
// gives Pipes' maximum, about 18 ms, and Fig. 3).
func (r *Report) writeSpread(w *bufio.Writer) {
	fmt.Fprintf(w, "\n## Query time per step: mean, median and worst (ms)\n\n")
	fmt.Fprintf(w, "The paper reports the worst step of Pipes with 18-DOPs at about 18 ms (Fig. 3), 50 times its mean.\n\n")
	t := md.NewTable(w, "scene", "bv", "mean", "median", "p99", "max", "max / mean")
	for _, s := range r.Scenes {
		for _, bv := range []string{"kdop18", "obb"} {
			f := r.Flights[key(s.Name, bv)]
			if f == nil {
				continue
			}
			sum := f.Sum
			t.Row(s.Name, bv, md.Ms(sum.Mean()), md.Ms(sum.Quantile(0.5)), md.Ms(sum.Quantile(0.99)), md.Ms(sum.Quantile(1)),
				md.Ratio(float64(sum.Quantile(1)), float64(sum.Mean())))
		}
	}
}

func ruleName(r collide.Rule) string { return r.String() }

func (r *Report) writeBuilds(w *bufio.Writer) {
	fmt.Fprintf(w, "\n## Table 3: preprocessing time (s; the paper's in minutes), 18-DOPs, both models\n\n")
	t := r.sceneTable(w, "rule")
	rows := append([]string{}, "longest", "minsum", "minmax", "splatter", "obb")
	for _, row := range rows {
		cells := []string{row}
		if row == "obb" {
			cells[0] = "obb (rapid rule)"
		}
		for _, s := range r.Scenes {
			var f *Flight
			if row == "obb" {
				f = r.Flights[key(s.Name, "obb")]
			} else {
				f = r.Flights[FlightKey{s.Name, "kdop18", ruleByName(row), collide.Mean}]
			}
			if f == nil {
				cells = append(cells, "–")
				continue
			}
			cells = append(cells, withPaper(md.Sig(f.Build.Seconds()), s.Name, md.Sig(paperAt(paperBuild[row], s.Name))+" min"))
		}
		t.Row(cells...)
	}
	cells := []string{"minsum / splatter"}
	for _, s := range r.Scenes {
		a, b := r.Flights[FlightKey{s.Name, "kdop18", collide.MinSum, collide.Mean}], r.Flights[key(s.Name, "kdop18")]
		if a == nil || b == nil {
			cells = append(cells, "–")
			continue
		}
		cells = append(cells, withPaper(md.Ratio(a.Build.Seconds(), b.Build.Seconds()), s.Name,
			md.Ratio(paperAt(paperBuild["minsum"], s.Name), paperAt(paperBuild["splatter"], s.Name))))
	}
	t.Row(cells...)
}

func ruleByName(name string) collide.Rule {
	for _, r := range TableRules {
		if r.String() == name {
			return r
		}
	}
	return collide.Splatter
}

func (r *Report) writeRules(w *bufio.Writer) {
	for _, split := range []collide.Split{collide.Mean, collide.Median} {
		n := 4
		if split == collide.Median {
			n = 5
		}
		fmt.Fprintf(w, "\n## Table %d: mean query time per step (ms), 18-DOPs, %s split\n\n", n, split)
		t := r.sceneTable(w, "rule")
		for _, rule := range TableRules {
			cells := []string{ruleName(rule)}
			for _, s := range r.Scenes {
				f := r.Flights[FlightKey{s.Name, "kdop18", rule, split}]
				cells = append(cells, flightCell(f, paperAt(paperRuleCD[split.String()][rule.String()], s.Name)))
			}
			t.Row(cells...)
		}
		var names []string
		for _, rule := range TableRules {
			names = append(names, rule.String())
		}
		r.fastestRow(t, names, func(scene, name string) float64 {
			return meanMs(r.Flights[FlightKey{scene, "kdop18", ruleByName(name), split}])
		}, func(scene, name string) float64 { return paperAt(paperRuleCD[split.String()][name], scene) })
	}
	fmt.Fprintf(w, "\nMedian split over mean split, query time (the paper: never faster, 1–35%% slower):\n\n")
	t := r.sceneTable(w, "rule")
	for _, rule := range TableRules {
		cells := []string{ruleName(rule)}
		for _, s := range r.Scenes {
			a := meanMs(r.Flights[FlightKey{s.Name, "kdop18", rule, collide.Median}])
			b := meanMs(r.Flights[FlightKey{s.Name, "kdop18", rule, collide.Mean}])
			cells = append(cells, withPaper(md.Ratio(a, b), s.Name,
				md.Ratio(paperAt(paperRuleCD["median"][rule.String()], s.Name), paperAt(paperRuleCD["mean"][rule.String()], s.Name))))
		}
		t.Row(cells...)
	}
}

func (r *Report) writeNested(w *bufio.Writer) {
	sizes := make([]int, 0, len(r.Nested))
	for n := range r.Nested {
		sizes = append(sizes, n)
	}
	slices.Sort(sizes)
	for _, n := range sizes {
		nv := r.Nested[n]
		paper, num := PaperNested(n), 6
		if n >= 10000 {
			num = 7
		}
		fmt.Fprintf(w, "\n## Table %d: nested spheres of %d triangles, Nv (volume tests) per gap α\n\n", num, n)
		head := []string{"bv"}
		for _, a := range nestedAlphas {
			head = append(head, fmt.Sprint(a))
		}
		t := md.NewTable(w, head...)
		bvs := append(slices.Clone(paperKs), "obb")
		for _, bv := range bvs {
			cells := []string{bv}
			for i, x := range nv[bv] {
				cells = append(cells, fmt.Sprintf("%d (%d)", x, paper[bv][i]))
			}
			t.Row(cells...)
		}
		for _, k := range paperKs {
			cells := []string{k + " / obb"}
			for i := range nestedAlphas {
				if i < len(nv[k]) && i < len(nv["obb"]) {
					cells = append(cells, fmt.Sprintf("%s (%s)", md.Ratio(float64(nv[k][i]), float64(nv["obb"][i])),
						md.Ratio(float64(paper[k][i]), float64(paper["obb"][i]))))
				}
			}
			t.Row(cells...)
		}
	}
}

// Charts returns the report's charts: the query time of every step of
// each scene with 18-DOPs and OBBs (the paper's Fig. 3, for Pipes), the
// mean query times of Table 2, and Nv against α for the nested spheres.
func (r *Report) Charts() []Chart {
	var charts []Chart
	for _, s := range r.Scenes {
		c := &plot.LineChart{
			Title:  fmt.Sprintf("%s: query time per step, all pairs (cf. Fig. 3)", s.Name),
			XLabel: "step", YLabel: "query time (µs)", LogY: true,
		}
		for _, bv := range []string{"kdop18", "obb"} {
			f := r.Flights[key(s.Name, bv)]
			if f == nil {
				continue
			}
			x, y := make([]float64, len(f.Sum.Times)), make([]float64, len(f.Sum.Times))
			for i, d := range f.Sum.Times {
				x[i], y[i] = float64(i), float64(d.Nanoseconds())/1e3
			}
			c.Series = append(c.Series, plot.Series{Name: bv, X: x, Y: y})
		}
		charts = append(charts, Chart{Name: "steps-" + s.Name + ".svg", Title: c.Title, SVG: c})
	}
	bar := &plot.BarChart{Title: "Table 2: mean query time per step (ms)", YLabel: "ms", LogY: true}
	for _, s := range r.Scenes {
		bar.Categories = append(bar.Categories, s.Name)
	}
	for _, bv := range TableBVs {
		sr := plot.Series{Name: bv}
		for _, s := range r.Scenes {
			sr.Y = append(sr.Y, meanMs(r.Flights[key(s.Name, bv)]))
		}
		bar.Series = append(bar.Series, sr)
	}
	charts = append(charts, Chart{Name: "table2.svg", Title: bar.Title, SVG: bar})
	sizes := make([]int, 0, len(r.Nested))
	for n := range r.Nested {
		sizes = append(sizes, n)
	}
	slices.Sort(sizes)
	for _, n := range sizes {
		c := &plot.LineChart{Title: fmt.Sprintf("Nested spheres, %d triangles: Nv against the gap (dashed: the paper)", n),
			XLabel: "log10 α", YLabel: "Nv", LogY: true}
		paper := PaperNested(n)
		for _, bv := range append(slices.Clone(paperKs), "obb") {
			var x []float64
			for _, a := range nestedAlphas {
				x = append(x, math.Log10(a))
			}
			c.Series = append(c.Series, plot.Series{Name: bv, X: x, Y: toFloats(r.Nested[n][bv])})
			c.Series = append(c.Series, plot.Series{Name: bv + " (paper)", X: x, Y: toFloats(paper[bv]), Dashed: true})
		}
		charts = append(charts, Chart{Name: fmt.Sprintf("nested-%d.svg", n), Title: c.Title, SVG: c})
	}
	return charts
}

func toFloats(a []int64) []float64 {
	out := make([]float64, len(a))
	for i, x := range a {
		out[i] = float64(x)
	}
	return out
}
