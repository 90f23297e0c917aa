package worlds

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/collide3d/collide/bench/internal/md"
)

// WriteMarkdown writes the report: CDFast's experiments, the many-body
// figures per broad phase, and the cores.
func (r *Report) WriteMarkdown(out io.Writer) error {
	w := bufio.NewWriter(out)
	c := r.Config
	size := "full"
	if c.Quick {
		size = "quick"
	}
	fmt.Fprintf(w, "# collide bench --worlds: worlds of many objects\n\n")
	fmt.Fprintf(w, "A %s run, seed %d. Machine: %s", size, c.Seed, r.Machine)
	if r.LoadBefore != "" {
		fmt.Fprintf(w, "; load average %s at the start, %s at the end (other work shares the machine: times are noisy, tails most)", r.LoadBefore, r.LoadAfter)
	}
	fmt.Fprintf(w, ". Run time: %s.\n\n", r.Elapsed.Round(time.Second))

	if r.CDFast != nil {
		if err := r.CDFast.WriteSection(w, "##"); err != nil {
			return err
		}
	}

	if len(r.Runs) > 0 {
		w.WriteString("## Many bodies: every broad phase\n\n")
		steps := "the scenes' steps (brownian 100, fall 400, gravity 200)"
		if c.Steps > 0 {
			steps = fmt.Sprintf("at most %d steps each", c.Steps)
		}
		fmt.Fprintf(w, "The built-in scenes %s (scene.Builtin, seed %d), %s, on a world of each broad phase, one worker, "+
			"18-DOP trees, first contact. Per step, over the steps after the first (which adds every object, shown apart): "+
			"*broad* is bound plus broad, updating the moved objects' boxes and finding the pairs (Broadmark's measure); "+
			"*step* the world's whole step (bound, broad, exact tests, contacts and callbacks; the scene's motions not "+
			"included). Candidates are the broad phase's pairs, tested the exact tests, contacts the pairs of objects in contact. "+
			"*Idle* is a step with nothing moved after the play (%s of them in 20 batches; the median batch's mean). brute runs up to %s objects only.\n\n",
			strings.Join(c.Scenes, ", "), c.Seed, steps, md.Thousands(IdleSteps), md.Thousands(BruteMaxObjects))
		for _, name := range c.Scenes {
			fmt.Fprintf(w, "### %s\n\n", name)
			t := md.NewTable(w, "n", "broad phase", "steps", "first step (ms)", "broad: median (ms)", "p99", "step: median (ms)", "p99",
				"candidates", "tested", "contacts", "idle (ns)")
			for _, x := range r.Runs {
				if x.Scene != name {
					continue
				}
				t.Row(md.Thousands(x.N), x.Phase, fmt.Sprint(x.Steps), md.Ms(x.First), md.Ms(x.Broad.Median), md.Ms(x.Broad.P99),
					md.Ms(x.Step.Median), md.Ms(x.Step.P99), md.Sig(x.Candidates), md.Sig(x.Tested), md.Sig(x.Contacts), md.Sig(float64(x.Idle.Nanoseconds())))
			}
			w.WriteString("\n")
		}
		w.WriteString("Fastest broad phase by the median of bound plus broad (the runner-up, and how much slower it was):\n\n")
		t := md.NewTable(w, "scene", "n", "fastest", "median (ms)", "runner-up", "slowest")
		for _, name := range c.Scenes {
			for _, n := range c.Sizes {
				var rs []*Play
				for _, x := range r.Runs {
					if x.Scene == name && x.N == n {
						rs = append(rs, x)
					}
				}
				if len(rs) == 0 {
					continue
				}
				sortRuns(rs)
				second, last := "–", "–"
				if len(rs) > 1 {
					second = fmt.Sprintf("%s (%s)", rs[1].Phase, md.Ratio(float64(rs[1].Broad.Median), float64(rs[0].Broad.Median)))
					l := rs[len(rs)-1]
					last = fmt.Sprintf("%s (%s)", l.Phase, md.Ratio(float64(l.Broad.Median), float64(rs[0].Broad.Median)))
				}
				t.Row(name, md.Thousands(n), rs[0].Phase, md.Ms(rs[0].Broad.Median), second, last)
			}
		}
		w.WriteString("\n")
	}

	if len(r.Cores) > 0 {
		w.WriteString("## Cores and balancing (Zachmann's coarse grain)\n\n")
		fmt.Fprintf(w, "The exact tests of a step (the narrow phase) on one worker, then on every core (%d) taking chunks of 16 pairs as they go "+
			"(dynamic, the default) or each given a fixed share (static, Options.Static); all pairs, the world's default broad phase. "+
			"Each way ran %s, taking turns; its fastest round is kept. Speed-up is the narrow phase's median step on one worker over its median on every core. "+
			"A pure arithmetic loop on %d goroutines ran %.2f times as fast as on one just before (%d on an idle machine): "+
			"that bounds what the cores can give here.\n\n",
			r.Cores[0].Runs[1].Workers, roundsText(c.Quick), r.Cores[0].Runs[1].Workers, r.Capacity, r.Cores[0].Runs[1].Workers)
		t := md.NewTable(w, "scene", "objects", "triangles", "steps", "exact tests per step", "1 worker: narrow median (ms)",
			"dynamic: median (ms)", "speed-up", "static: median (ms)", "speed-up", "static ÷ dynamic")
		for _, x := range r.Cores {
			one, dyn, sta := x.Runs[0], x.Runs[1], x.Runs[2]
			t.Row(x.Scene, md.Thousands(x.Objects), md.Thousands(x.Triangles), fmt.Sprint(x.Steps), md.Sig(x.Tested), md.Ms(one.Narrow.Median),
				md.Ms(dyn.Narrow.Median), md.Ratio(float64(one.Narrow.Median), float64(dyn.Narrow.Median)),
				md.Ms(sta.Narrow.Median), md.Ratio(float64(one.Narrow.Median), float64(sta.Narrow.Median)),
				md.Ratio(float64(sta.Narrow.Median), float64(dyn.Narrow.Median)))
		}
		w.WriteString("\n")
		for _, x := range r.Cores {
			fmt.Fprintf(w, "- %s: %s.\n", x.Scene, x.Doc)
		}
		w.WriteString("\n")
	}
	return w.Flush()
}

func roundsText(quick bool) string {
	if quick {
		return "once"
	}
	return "3 times"
}

// sortRuns sorts runs by the median of bound plus broad.
func sortRuns(rs []*Play) {
	for i := 1; i < len(rs); i++ {
		for j := i; j > 0 && rs[j].Broad.Median < rs[j-1].Broad.Median; j-- {
			rs[j], rs[j-1] = rs[j-1], rs[j]
		}
	}
}
