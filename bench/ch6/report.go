package ch6

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"slices"
	"time"

	"github.com/collide3d/collide/bench/internal/md"
	"github.com/collide3d/collide/bv"
	"github.com/collide3d/collide/bvh"
)

// The dissertation's conclusions, each section's (the summary of seed 001,
// sections 2.7.4, 2.7.5, 2.13 and 4.3; the text lost every number).
const (
	dissDirs = "Splitting along the k/2 directions helped in only a few of 15 runs, by a few percent (the 14- and 26-DOP on Torus); " +
		"preprocessing took longer; the total volume of the BVs was *larger* with more directions (18-DOP, 3 against 9); " +
		"the 18-DOP split along the axes was the fastest on average. Not adopted."
	dissTau = "Small flying objects (Swept, Interior) prefer a small τ whatever k; large ones a larger τ, growing with k " +
		"(Cv = O(k), Cu = O(k²)); the ranges within a few percent of the best are wide. Adopted: a size-dependent rule " +
		"(its values lost; the default before was τ = 40)."
	dissOsc = "No benefit: queries slower, not a single instance faster; preprocessing several times longer; the regrouping " +
		"often reproduced the plain split; the best regrouping sometimes isolates one set, giving unbalanced, deeper trees. " +
		"Min Sum scored regroupings best. Not adopted."
	dissSkinny = "On Pipes, halving the longest triangles (the count grown by a small percentage) gave a slight average " +
		"speed-up (its size lost). Not made a default."
	dissOverlap = "Ordering the 18-DOP's interval tests by slab thickness (thinnest first, precomputed per environment node) " +
		"cut the total comparisons and the average per call, but the extra indexing made the average query a few " +
		"percent slower: not adopted. Testing only the first m intervals made queries slower (the false overlaps' " +
		"extra tests outweigh the comparisons saved): not adopted."
	dissBuild = "After reorganising the code (the median split point removed, macros for the basic operations, more RAM), " +
		"the preprocessing table went from minutes to seconds (Interior, 18-DOP, Splatter: 5.71 min in the journal's " +
		"Table 3, \"a matter of seconds\" after)."
)

func ms(d time.Duration) string { return md.Ms(d) }

// WriteMarkdown writes the report: per experiment, the dissertation's
// conclusions, then our tables per scene.
func (r *Report) WriteMarkdown(out io.Writer) error {
	w := bufio.NewWriter(out)
	c := r.Config
	size := "full"
	if c.Quick {
		size = "quick"
	}
	fmt.Fprintf(w, "# collide bench --ch6: the tree-design and usage experiments of Klosowski's chapter 6\n\n")
	fmt.Fprintf(w, "A %s run, seed %d, %d rounds (each time the least of its rounds, the variants taking turns). Query times are the querying "+
		"thread's CPU time, which waiting for a processor on a loaded machine does not inflate; build times are wall times (a build "+
		"runs on every core). Machine: %s", size, c.Seed, c.Rounds, r.Machine)
	if r.Load != "" {
		fmt.Fprintf(w, "; load average %s at the start", r.Load)
	}
	fmt.Fprintf(w, ". Run time: %s.\n\n", r.Elapsed.Round(time.Second))
	w.WriteString("Each scene's flight is flown once with the default trees (18-DOPs, Splatter, mean, the size rule for τ), " +
		"every step finding all pairs; every variant replays those poses, and its answers are checked against that flight's " +
		"(*differ* counts the poses whose pairs differ: 0 unless a variant is wrong). The dissertation's numbers for this chapter " +
		"were all lost in the text we have (its tables keep only their labels): its conclusions are quoted in words.\n\n")
	w.WriteString("| scene | environment | flying | steps | pairs |\n|---|---|---|---|---|\n")
	for _, s := range r.Scenes {
		fmt.Fprintf(w, "| %s | %s | %s | %d | %d |\n", s.Info.Name, md.Thousands(s.Info.EnvTris), md.Thousands(s.Info.FlyTris), s.Steps, s.Pairs)
	}
	w.WriteString("\n")
	r.writeDirs(w)
	r.writeOsc(w)
	r.writeOverlap(w)
	r.writeBuild(w)
	r.writeTau(w)
	r.writeSkinny(w)
	return w.Flush()
}

func differ(n int) string { return fmt.Sprint(n) }

func (r *Report) writeDirs(w *bufio.Writer) {
	w.WriteString("## Splitting along any of the k/2 directions\n\n")
	fmt.Fprintf(w, "*Dissertation:* %s\n\n", dissDirs)
	w.WriteString("*Ours:* bvh.Options.SplitDirs, every k of bv.Ks, Splatter at the mean; k(3) splits along x, y, z, k(k/2) along every direction " +
		"(the 8-, 12- and 20-DOPs, which have no axes among their directions, appear where bv.Ks has them: their k(3) rows split the centroids along x, y, z). " +
		"*Volume* is the sum of the volumes of the environment tree's k-DOPs; *build* both trees; *query* the whole flight.\n\n")
	ranks := map[string][]float64{}
	for _, s := range r.Scenes {
		if len(s.Dirs) == 0 {
			continue
		}
		fmt.Fprintf(w, "### %s\n\n", s.Info.Name)
		t := md.NewTable(w, "method", "build (ms)", "query (ms)", "Nv", "Np", "volume", "volume ÷ axes'", "rank", "differ")
		order := make([]int, len(s.Dirs))
		for i := range order {
			order[i] = i
		}
		slices.SortStableFunc(order, func(a, b int) int { return int(s.Dirs[a].Query - s.Dirs[b].Query) })
		rank := make([]int, len(s.Dirs))
		for i, j := range order {
			rank[j] = i + 1
		}
		for i, d := range s.Dirs {
			axes := d.Volume
			for _, e := range s.Dirs {
				if e.K == d.K && e.Dirs == 3 {
					axes = e.Volume
				}
			}
			name := fmt.Sprintf("%d(%d)", d.K, d.Dirs)
			ranks[name] = append(ranks[name], float64(rank[i]))
			t.Row(name, ms(d.Build), ms(d.Query), fmt.Sprint(d.BVTests), fmt.Sprint(d.TriTests), md.Sig(d.Volume), md.Ratio(d.Volume, axes),
				fmt.Sprint(rank[i]), differ(d.Differ))
		}
		w.WriteString("\n")
	}
	if len(ranks) > 0 {
		w.WriteString("### Average rank over the scenes (by query time; 1 is the fastest)\n\n")
		names := make([]string, 0, len(ranks))
		for n := range ranks {
			names = append(names, n)
		}
		slices.SortFunc(names, func(a, b string) int {
			ma, mb := md.Mean(ranks[a]), md.Mean(ranks[b])
			switch {
			case ma < mb:
				return -1
			case ma > mb:
				return 1
			}
			return 0
		})
		t := md.NewTable(w, "method", "average rank")
		for _, n := range names {
			t.Row(n, fmt.Sprintf("%.1f", md.Mean(ranks[n])))
		}
		w.WriteString("\n")
		// Build time and volume ratios, k/2 directions over 3.
		var build, vol []float64
		wins, runs := 0, 0
		for _, s := range r.Scenes {
			for _, d := range s.Dirs {
				if d.Dirs == 3 {
					continue
				}
				for _, e := range s.Dirs {
					if e.K == d.K && e.Dirs == 3 {
						build = append(build, float64(d.Build)/float64(e.Build))
						vol = append(vol, d.Volume/e.Volume)
						runs++
						if d.Query < e.Query {
							wins++
						}
					}
				}
			}
		}
		if runs > 0 {
			fmt.Fprintf(w, "Against the same k split along the axes, the k/2 directions were faster to query in %d of %d runs; "+
				"their build took %s to %s as long (geometric mean %s), and their total volume was %s to %s the axes' (geometric mean %s).\n\n",
				wins, runs, md.Ratio(slices.Min(build), 1), md.Ratio(slices.Max(build), 1), md.Ratio(md.Geomean(build), 1),
				md.Ratio(slices.Min(vol), 1), md.Ratio(slices.Max(vol), 1), md.Ratio(md.Geomean(vol), 1))
		}
	}
}

func (r *Report) writeOsc(w *bufio.Writer) {
	w.WriteString("## The oscillating BV-tree\n\n")
	fmt.Fprintf(w, "*Dissertation:* %s\n\n", dissOsc)
	w.WriteString("*Ours:* bvh.Options.Oscillate = 2 on 18-DOP trees: each node split 2 levels down by the rule, the 4 sets regrouped into " +
		"the children by the best of the 7 bipartitions by the Min Sum objective (the plain split winning ties). *Kept* is the share of " +
		"regroupings that kept the plain split (both trees).\n\n")
	t := md.NewTable(w, "scene", "rule", "build plain (ms)", "build oscillating (ms)", "build ×", "query plain (ms)", "query oscillating (ms)", "query ×",
		"Nv ×", "kept", "height plain / oscillating", "differ")
	for _, s := range r.Scenes {
		for _, o := range s.Osc {
			t.Row(s.Info.Name, o.Rule.String(), ms(o.Plain.Build), ms(o.Osc.Build), md.Ratio(float64(o.Osc.Build), float64(o.Plain.Build)),
				ms(o.Plain.Query), ms(o.Osc.Query), md.Ratio(float64(o.Osc.Query), float64(o.Plain.Query)),
				md.Ratio(float64(o.Osc.BVTests), float64(o.Plain.BVTests)), md.Percent(float64(o.Kept)/float64(o.Splits)),
				fmt.Sprintf("%d / %d", o.PlainHeight, o.OscHeight), differ(o.Plain.Differ+o.Osc.Differ))
		}
	}
	w.WriteString("\n")
}

func (r *Report) writeOverlap(w *bufio.Writer) {
	w.WriteString("## Ordered and truncated overlap tests\n\n")
	fmt.Fprintf(w, "*Dissertation:* %s\n\n", dissOverlap)
	w.WriteString("*Ours:* 18-DOP trees, replayed by a traversal written in the experiment (Algorithm 1, all pairs, the flying nodes tumbled by " +
		"their k-DOPs' vertices) over the trees' public nodes, so that bvh's query path is untouched; one interval test is up to 2 comparisons. " +
		"*original* tests the slabs in the tree's order (axes, then diagonals), *ordered* the environment node's thinnest slab first " +
		"(its order precomputed per node), *first m* only the first m of the ordered slabs. The replay's times are its own (bvh's " +
		"query is several times faster); compare them with each other only. A truncated test's replay stops once it has made " +
		fmt.Sprint(TruncationCap) + " times the original's overlap calls; its time is then a lower bound.\n\n")
	t := md.NewTable(w, "scene", "test", "overlap calls", "overlaps", "% overlap", "comparisons", "on misses", "per call", "Np", "time (ms)", "time ×", "differ")
	for _, s := range r.Scenes {
		if s.Overlap == nil {
			continue
		}
		base := s.Overlap.Rows[0]
		for _, o := range s.Overlap.Rows {
			tm, ratio := ms(o.Time), md.Ratio(float64(o.Time), float64(base.Time))
			name := o.Name
			if o.Capped {
				tm, ratio = "> "+tm, "> "+ratio
				name = fmt.Sprintf("%s (stopped after %d of %d poses)", o.Name, o.Poses, s.Steps)
			}
			t.Row(s.Info.Name, name, fmt.Sprint(o.Calls), fmt.Sprint(o.Overlaps), md.Percent(float64(o.Overlaps)/float64(o.Calls)),
				fmt.Sprint(o.Comparisons), fmt.Sprint(o.MissComparisons), fmt.Sprintf("%.2f", float64(o.Comparisons)/float64(o.Calls)),
				fmt.Sprint(o.TriTests), tm, ratio, differ(o.Differ))
		}
	}
	w.WriteString("\n")
}

func (r *Report) writeBuild(w *bufio.Writer) {
	w.WriteString("## Preprocessing\n\n")
	fmt.Fprintf(w, "*Dissertation:* %s\n\n", dissBuild)
	w.WriteString("*Ours:* the environment's build time (seconds, the least of the rounds) per rule and k, on all the machine's cores. " +
		"The builder's speed-ups and the benchstat before and after are in bvh's package doc and the README.\n\n")
	head := []string{"scene", "triangles", "k"}
	for _, rule := range BuildRules {
		if !r.Config.NoVolumeRules || rule != bvh.MinSum && rule != bvh.MinMax {
			head = append(head, rule.String()+" (s)")
		}
	}
	t := md.NewTable(w, head...)
	for _, s := range r.Scenes {
		byK := map[bv.K][]BuildRow{}
		var ks []bv.K
		for _, b := range s.Build {
			if _, ok := byK[b.K]; !ok {
				ks = append(ks, b.K)
			}
			byK[b.K] = append(byK[b.K], b)
		}
		for _, k := range ks {
			row := []string{s.Info.Name, md.Thousands(byK[k][0].Tris), fmt.Sprint(int(k))}
			for _, b := range byK[k] {
				row = append(row, fmt.Sprintf("%.3f", b.Time.Seconds()))
			}
			t.Row(row...)
		}
	}
	w.WriteString("\n")
}

func (r *Report) writeTau(w *bufio.Writer) {
	w.WriteString("## The flying leaf threshold τ\n\n")
	fmt.Fprintf(w, "*Dissertation:* %s\n\n", dissTau)
	w.WriteString("*Ours:* the query time of the whole flight (ms) against τ (bvh.Options.FlyLeaf), the environment complete; " +
		"*best* is the fastest τ, *within 10%* the τ within 10% of its time, *rule* the size rule's τ (bvh.FlyLeafFor) and its loss against the best.\n\n")
	for _, k := range TauKs {
		var taus []int
		for _, s := range r.Scenes {
			for _, x := range s.Tau {
				if x.K == k && !slices.Contains(taus, x.Tau) {
					taus = append(taus, x.Tau)
				}
			}
		}
		if len(taus) == 0 {
			continue
		}
		slices.Sort(taus)
		fmt.Fprintf(w, "### %v\n\n", k)
		head := []string{"scene"}
		for _, tau := range taus {
			head = append(head, fmt.Sprintf("τ=%d", tau))
		}
		head = append(head, "best", "within 10%", "rule", "rule's loss", "differ")
		t := md.NewTable(w, head...)
		for _, s := range r.Scenes {
			at := map[int]TauRun{}
			for _, x := range s.Tau {
				if x.K == k {
					at[x.Tau] = x
				}
			}
			if len(at) == 0 {
				continue
			}
			row := []string{s.Info.Name}
			best, bestT, diff := 0, time.Duration(math.MaxInt64), 0
			for _, tau := range taus {
				x, ok := at[tau]
				if !ok {
					row = append(row, "–")
					continue
				}
				row = append(row, ms(x.Query))
				diff += x.Differ
				if x.Query < bestT {
					best, bestT = tau, x.Query
				}
			}
			lo, hi := 0, 0
			for _, tau := range taus {
				if x, ok := at[tau]; ok && float64(x.Query) <= 1.1*float64(bestT) {
					if lo == 0 {
						lo = tau
					}
					hi = tau
				}
			}
			rule := bvh.FlyLeafFor(k, s.Info.FlyTris)
			loss := "–"
			if x, ok := at[rule]; ok {
				loss = md.Pct(float64(x.Query)/float64(bestT) - 1)
			}
			row = append(row, fmt.Sprint(best), fmt.Sprintf("%d–%d", lo, hi), fmt.Sprint(rule), loss, differ(diff))
			t.Row(row...)
		}
		w.WriteString("\n")
	}
}

func (r *Report) writeSkinny(w *bufio.Writer) {
	for _, s := range r.Scenes {
		if s.Skinny == nil {
			continue
		}
		k := s.Skinny
		w.WriteString("## Skinny triangles (Pipes)\n\n")
		fmt.Fprintf(w, "*Dissertation:* %s\n\n", dissSkinny)
		fmt.Fprintf(w, "*Ours:* the longest %s of each model's triangles (by their longest side) halved across that side: %d of %s "+
			"environment triangles and %d of %s flying ones, each model growing by as many. The pairs of the halved models are mapped back to "+
			"the original triangles and checked against the flight's. A bench experiment only: a halving point is a rounded midpoint, so "+
			"the halves are the original triangle only to within a rounding, which the library's exact contact does not allow.\n\n",
			md.Percent(SkinnyFraction), k.Halved[0], md.Thousands(k.Tris[0]), k.Halved[1], md.Thousands(k.Tris[1]))
		t := md.NewTable(w, "models", "build (ms)", "query (ms)", "Nv", "Np", "Nu", "differ")
		t.Row("original", ms(k.Plain.Build), ms(k.Plain.Query), fmt.Sprint(k.Plain.BVTests), fmt.Sprint(k.Plain.TriTests), fmt.Sprint(k.Plain.Updates), differ(k.Plain.Differ))
		t.Row("halved", ms(k.Split.Build), ms(k.Split.Query), fmt.Sprint(k.Split.BVTests), fmt.Sprint(k.Split.TriTests), fmt.Sprint(k.Split.Updates), differ(k.Split.Differ))
		fmt.Fprintf(w, "\nQuery time halved ÷ original: %s.\n\n", md.Ratio(float64(k.Split.Query), float64(k.Plain.Query)))
	}
}
