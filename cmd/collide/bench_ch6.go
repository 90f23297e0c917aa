package main

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/collide3d/collide/bench/ch6"
	"github.com/collide3d/collide/bench/scenes"
)

// benchCh6Help is bench's help for --ch6.
const benchCh6Help = `

With --ch6, bench instead runs the tree-design and usage experiments of
Klosowski's dissertation (chapter 6) on the paper's scenes (--scenes picks
any; --steps caps the flights, 100 steps by default with --quick):
splitting along any of the k/2 directions against the axes for every k
(build and query times, the trees' total volume, the average rank); the
oscillating tree (2 levels, Splatter and Min Sum); the flying leaf
threshold τ swept for k = 6, 14, 18 and 26 (the best τ, the range within
10% of it, the size rule's loss); the Pipes scene with its longest
triangles halved; the overlap tests ordered by slab thickness and
truncated to the first m slabs (comparisons counted by a replay of the
traversal); and the build times per rule and k. Each flight is flown once
with the default trees, and every variant replays its poses, its answers
checked against the flight's, its queries timed in the thread's CPU time
by the least of its rounds (--rounds, default 3, 2 with --quick). It
writes ch6.md, the dissertation's conclusions beside ours. --quick takes
a minute or so; a full scene, 200 steps, 3 to 9 minutes.`

// runBenchCh6 runs bench --ch6.
func runBenchCh6(e *env, o *benchOptions) error {
	switch {
	case o.peers || o.worlds || o.front || o.ccdPeers || o.nc || o.queries || o.objects || o.grains:
		return usagef("--ch6 does not go with --peers, --worlds, --front, --ccd-peers, --nc, --queries, --objects or --grains")
	case o.slowSteps != 0 || o.sizes != "" || o.driver != "":
		return usagef("--slow-steps, --sizes and --driver do not go with --ch6")
	case o.out == "":
		return usagef("-o must name a folder")
	}
	c := ch6.Config{Quick: o.quick, Seed: o.seed, Steps: o.steps, Rounds: o.rounds}
	if o.scenes != "" {
		for _, s := range strings.Split(o.scenes, ",") {
			if !slices.Contains(scenes.PaperNames(), s) {
				return usagef("--scenes: with --ch6, the scenes are %s (not %q)", strings.Join(scenes.PaperNames(), ", "), s)
			}
			c.Scenes = append(c.Scenes, s)
		}
	}
	report, err := reportFile(o, "ch6.md")
	if err != nil {
		return err
	}
	var r *ch6.Report
	withStatus(e, "bench --ch6", func(progress func(string)) {
		c.Progress = progress
		r, err = ch6.Run(context.Background(), c)
	})
	if err != nil {
		return err
	}
	if err := writeFileAtomic(report, o.force, r.WriteMarkdown); err != nil {
		return err
	}
	_, err = fmt.Fprintf(e.stdout, "wrote %s: %d scenes (%s)\n", report, len(r.Scenes), r.Elapsed.Round(time.Second))
	return err
}
