package main

import (
	"context"
	"fmt"
	"time"

	"github.com/collide3d/collide/bench/objects"
)

// runBenchObjects runs bench --objects.
func runBenchObjects(e *env, o *benchOptions) error {
	switch {
	case o.peers || o.worlds || o.front || o.ccdPeers || o.nc || o.queries:
		return usagef("--objects does not go with --peers, --worlds, --front, --ccd-peers, --nc or --queries")
	case o.slowSteps != 0 || o.sizes != "" || o.driver != "" || o.scenes != "":
		return usagef("--slow-steps, --sizes, --driver and --scenes do not go with --objects")
	case o.out == "":
		return usagef("-o must name a folder")
	}
	c := objects.Config{Quick: o.quick, Seed: o.seed, Steps: o.steps, Rounds: o.rounds}
	report, err := reportFile(o, "objects.md")
	if err != nil {
		return err
	}
	var r *objects.Report
	withStatus(e, "bench --objects", func(progress func(string)) {
		c.Progress = progress
		r, err = objects.Run(context.Background(), c)
	})
	if err != nil {
		return err
	}
	if err := writeFileAtomic(report, o.force, r.WriteMarkdown); err != nil {
		return err
	}
	_, err = fmt.Fprintf(e.stdout, "wrote %s: %d cages, a world of %d objects (%s)\n", report, len(r.Cages)+1, r.World.Objects, r.Elapsed.Round(time.Second))
	return err
}
