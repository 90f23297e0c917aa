package main

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/collide3d/collide/bench/dops"
	"github.com/collide3d/collide/bench/scenes"
)

// benchDopsHelp is the part of bench's help about --dops.
const benchDopsHelp = `

With --dops, bench instead compares the k of k-DOP trees as Klosowski's
dissertation does (chapter 7, with chapter 6's new 8-, 12- and 20-DOPs,
the 14-, 18- and 26-DOPs without the axes): the paper's scenes (--scenes
picks any of them) and pipes turned by 45 degrees about z, each flown in
all-pairs mode with 6-, 8-, 12-, 14-, 18-, 20- and 26-DOP trees, taking
turns for --rounds rounds (default 2, 1 with --quick; each step timed by
its least). It writes dops.md: per scene and k the build time, memory,
mean and largest query time, Nv, Np and Nu per step and the rank by mean
query time; each k's average rank; and the dissertation's conclusions
beside ours. --quick flies small scenes for 60 steps (--steps sets
them), in seconds.`

// runBenchDops runs bench --dops.
func runBenchDops(e *env, o *benchOptions) error {
	switch {
	case o.peers || o.worlds || o.front || o.ccdPeers || o.nc || o.queries || o.grains || o.objects:
		return usagef("--dops does not go with --peers, --worlds, --front, --ccd-peers, --nc, --queries, --grains or --objects")
	case o.slowSteps != 0 || o.sizes != "" || o.driver != "" || o.cap != 0 || o.drain != 0 || o.before != "":
		return usagef("--slow-steps, --sizes, --driver, --cap, --drain and --before do not go with --dops")
	case o.out == "":
		return usagef("-o must name a folder")
	}
	c := dops.Config{Quick: o.quick, Seed: o.seed, Steps: o.steps, Rounds: o.rounds}
	if o.scenes != "" {
		for _, s := range strings.Split(o.scenes, ",") {
			if !slices.Contains(scenes.PaperNames(), s) {
				return usagef("--scenes: with --dops, %q is not a scene of the paper (%s)", s, strings.Join(scenes.PaperNames(), ", "))
			}
			c.Scenes = append(c.Scenes, s)
		}
	}
	report, err := reportFile(o, "dops.md")
	if err != nil {
		return err
	}
	var r *dops.Report
	withStatus(e, "bench --dops", func(progress func(string)) {
		c.Progress = progress
		r, err = dops.Run(context.Background(), c)
	})
	if err != nil {
		return err
	}
	if err := writeFileAtomic(report, o.force, r.WriteMarkdown); err != nil {
		return err
	}
	printSkipped(e, r.Skipped)
	_, err = fmt.Fprintf(e.stdout, "wrote %s: %d scenes, %d flights (%s)\n", report, len(r.Scenes), len(r.Rows), r.Elapsed.Round(time.Second))
	return err
}
