package grains

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"time"

	"github.com/collide3d/collide/bench/internal/md"
)

// WriteMarkdown writes the report: the medium grain beside the thesis's
// table, the world of two objects each way, and the concurrent module.
func (r *Report) WriteMarkdown(out io.Writer) error {
	w := bufio.NewWriter(out)
	c := r.Config
	size := "full"
	if c.Quick {
		size = "quick"
	}
	fmt.Fprintf(w, "# collide bench --grains: Zachmann's medium grain and concurrent module\n\n")
	fmt.Fprintf(w, "A %s run, seed %d. Machine: %s, GOMAXPROCS %d", size, c.Seed, r.Machine, cores())
	if r.Load != "" {
		fmt.Fprintf(w, "; load average %s at the start", r.Load)
	}
	fmt.Fprintf(w, ". A pure arithmetic loop on 2 goroutines ran %.2f times as fast as on one just before the runs (2 on an idle machine): "+
		"that bounds what two goroutines can give here, and other work on the machine makes every time noisy. Run time: %s.\n\n",
		r.Capacity, r.Elapsed.Round(time.Second))

	if len(r.Medium) > 0 {
		w.WriteString("## Medium grain: one pair on two goroutines\n\n")
		fmt.Fprintf(w, "Two tori (major radius 1, minor 0.3, about the triangles shown each), one tumbling through, around and away "+
			"from the other over %d poses, queried with collide.Query sequentially and with QueryOptions.Medium (the pairs of nodes "+
			"the walk leaves after its first 128 shared by two goroutines, about half each, the first contact stopping both), %d rounds taking turns, "+
			"the fastest kept. Speed-up is sequential ÷ medium. *Differ* counts the poses whose answers differ (in contact or not; "+
			"all pairs: the pairs): 0. The thesis's speed-ups (section 6.6: two processes per pair, two objects, 5000 frames, "+
			"the arbitrary pairwise test and box-trees; first contact) are beside ours.\n\n", c.Frames, c.Rounds)
		t := md.NewTable(w, "triangles", "tree", "mode", "in contact", "sequential (µs)", "medium (µs)", "speed-up", "thesis", "differ")
		for _, x := range r.Medium {
			mode := "first contact"
			if x.All {
				mode = "all pairs"
			}
			thesis := "–"
			if th, ok := Thesis[x.Tris[0]]; ok && !x.All {
				v := th[0]
				if x.BV.String() == "boxtree" {
					v = th[1]
				}
				if !math.IsNaN(v) {
					thesis = fmt.Sprintf("%.2f", v)
				}
			}
			t.Row(fmt.Sprintf("2×%s", md.Thousands(x.Tris[0])), x.BV.String(), mode, fmt.Sprintf("%d of %d", x.Hits, x.Frames),
				md.Us(x.Seq), md.Us(x.Medium), md.Ratio(float64(x.Seq), float64(x.Medium)), thesis, fmt.Sprint(x.Differ))
		}
		w.WriteString("\n(The thesis's tori had 2×42, 2×132 and 2×442 polygons; ours are the nearest counts of gen.Torus.)\n\n")
	}
	if len(r.World) > 0 {
		w.WriteString("## A world of two objects: coarse grain against medium grain\n\n")
		fmt.Fprintf(w, "The same flights (18-DOP trees, first contact, no fronts) as a world of two objects, one static, stepped %d times: "+
			"the mean step, of the fastest of %d rounds. With one pair the coarse grain has one pair to share: "+
			"its second worker idles; the medium grain tests the pair on both.\n\n", c.Frames, c.Rounds)
		head := []string{"triangles"}
		for _, way := range Ways {
			head = append(head, way+" (µs)")
		}
		head = append(head, "medium ÷ 1 worker")
		t := md.NewTable(w, head...)
		for _, x := range r.World {
			row := []string{fmt.Sprintf("2×%s", md.Thousands(x.Tris))}
			for _, d := range x.Step {
				row = append(row, md.Us(d))
			}
			row = append(row, md.Ratio(float64(x.Step[0]), float64(x.Step[len(x.Step)-1])))
			t.Row(row...)
		}
		w.WriteString("\n")
	}
	if x := r.Concurrent; x != nil {
		w.WriteString("## The concurrent module\n\n")
		fmt.Fprintf(w, "An application's loop of %d frames moving %d tori of %d triangles (Brownian, every object every frame), "+
			"with its own work per frame (a busy loop of %s, the mean step's time, so that running the two side by side could at best "+
			"double the frame rate): World.Step called in the loop, against world.Concurrent stepping beside it (Move and Commit, "+
			"never waiting). The frame rate is the best of %d rounds. Lag is, when a result comes, the application's frame less the "+
			"frame it is for; delay the time from a frame's Commit to its result.\n\n",
			x.Frames, x.Objects, x.Tris, md.Us(x.Render)+" µs", c.Rounds)
		t := md.NewTable(w, "way", "frames per second", "frames stepped", "mean lag (frames)", "largest lag", "mean delay (µs)")
		t.Row("Step in the loop", fmt.Sprintf("%.0f", x.InLoop), fmt.Sprint(x.Frames), "0", "0", "–")
		t.Row("concurrent module", fmt.Sprintf("%.0f", x.Beside), fmt.Sprint(x.Stepped), md.Sig(x.MeanLag), md.Sig(x.MaxLag), md.Us(x.Delay))
		fmt.Fprintf(w, "\nFrame rate: %s as fast with the module (contacts per frame: %s). The module steps only the latest committed frame when "+
			"it is free, so it steps fewer frames than the application makes when its steps are slower; each result names its frame, "+
			"which the thesis's module could not (its open problem).\n\n", md.Ratio(x.Beside, x.InLoop), md.Sig(x.ContactsPerFrameLoop))
	}
	return w.Flush()
}
