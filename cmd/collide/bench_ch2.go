package main

import (
	"context"
	"fmt"
	"time"

	"github.com/collide3d/collide/bench/ch2"
)

// benchCh2Help is bench's help on --ch2 (no percent signs: it ends the
// help's format string).
const benchCh2Help = `

With --ch2, bench instead rebuilds the study of Klosowski's dissertation,
chapter 2: the grid of boxes, the k-d tree (and its four axis rules), the
binary R-tree and the mesh (ray-shooting) method, beside collide's trees of
18-DOPs and 6-DOPs, every one stopping at the first contact, on random BSP
environments filled with obstacles or tetrahedra and on synthetic height
fields standing for the chapter's DEMs, with four objects flown along
billiard paths. The mesh is TetGen's (Debian's package tetgen, run as a
program; without it the mesh rows say "tetgen not installed"). Every
method's answer is checked at every step. It writes ch2.md: sizes, triangles
stored, heights, build times and memory, time per step, full-resolution
checks and checks per second, and the chapter's scoring (wins, ties within
five percent, and the weighted ranking) beside the dissertation's results.
--steps sets each flight's length (default 1000, 150 with --quick),
--rounds the rounds (default 2, 1 with --quick). The full run takes about
three minutes on a 2-core machine busy with other work, --quick a few
seconds.`

// runBenchCh2 runs bench --ch2.
func runBenchCh2(e *env, o *benchOptions) error {
	switch {
	case o.peers || o.worlds || o.front || o.ccdPeers || o.nc || o.queries || o.objects:
		return usagef("--ch2 does not go with --peers, --worlds, --front, --ccd-peers, --nc, --queries or --objects")
	case o.slowSteps != 0 || o.sizes != "" || o.driver != "" || o.scenes != "":
		return usagef("--slow-steps, --sizes, --driver and --scenes do not go with --ch2")
	case o.out == "":
		return usagef("-o must name a folder")
	}
	c := ch2.Config{Quick: o.quick, Seed: o.seed, Steps: o.steps, Rounds: o.rounds}
	report, err := reportFile(o, "ch2.md")
	if err != nil {
		return err
	}
	var r *ch2.Report
	withStatus(e, "bench --ch2", func(progress func(string)) {
		c.Progress = progress
		r, err = ch2.Run(context.Background(), c)
	})
	if err != nil {
		return err
	}
	if err := writeFileAtomic(report, o.force, r.WriteMarkdown); err != nil {
		return err
	}
	_, err = fmt.Fprintf(e.stdout, "wrote %s: %d environments, %d flights (%s)\n", report, len(r.Envs), len(r.Flights), r.Elapsed.Round(time.Second))
	return err
}
