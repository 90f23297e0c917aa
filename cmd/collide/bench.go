package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/collide3d/collide/bench"
	"github.com/collide3d/collide/bench/scenes"
)

type benchOptions struct {
	quick  bool
	out    string
	seed   uint64
	scenes string
	steps  int
	force  bool
}

// defaultBenchDir is where bench writes its report by default.
const defaultBenchDir = "bench-report"

func benchCommand() *command {
	return &command{
		name:  "bench",
		usage: "bench [flags]",
		help: fmt.Sprintf(`
Reproduces the experiments of Klosowski et al. (1998), Tables 1 to 7 and
Fig. 3, on collide's generated scenes (%s), and writes a markdown report,
report.md, with our figures beside the paper's and the ratios the paper
draws, and SVG charts, to the folder of -o (default %s).

Table 1 times the constants of the cost model; Table 2 flies every scene with
6-, 14-, 18- and 26-DOPs, OBBs (the paper's RAPID) and our other trees; Table
3 gives the build times of 18-DOP trees per splitting rule; Tables 4 and 5
fly them with mean and median split points; Tables 6 and 7 count the volume
tests between nested spheres. Every flight finds all pairs at every step.

The full run uses the paper's sizes (about 140,000 triangles per model for
pipes) and takes a while; --quick uses small scenes and finishes in about a
minute. An existing report in the folder is kept unless --force is given.`,
			strings.Join(scenes.Names(), ", "), defaultBenchDir),
		flags: func(fs *flag.FlagSet) any {
			o := &benchOptions{}
			fs.BoolVar(&o.quick, "quick", false, "small scenes and short flights (about a minute)")
			fs.StringVar(&o.out, "o", defaultBenchDir, "write the report and charts to `DIR`")
			fs.Uint64Var(&o.seed, "seed", 1, "random `SEED` of the scenes and their paths")
			fs.StringVar(&o.scenes, "scenes", "", "fly only the scenes of the comma-separated `LIST` (default all)")
			fs.IntVar(&o.steps, "steps", 0, "cap every flight at `N` steps (default: the scenes' lengths)")
			fs.BoolVar(&o.force, "force", false, "overwrite an existing report in DIR")
			return o
		},
		run: runBench,
	}
}

func runBench(e *env, opts any, args []string) error {
	o := opts.(*benchOptions)
	if len(args) > 0 {
		return usagef("bench takes no arguments (got %q)", args[0])
	}
	if o.steps < 0 {
		return usagef("--steps must be >= 0, not %d", o.steps)
	}
	c := bench.Config{Seed: o.seed, Steps: o.steps}
	if o.quick {
		c.Size = scenes.Quick
	}
	if o.scenes != "" {
		for _, s := range strings.Split(o.scenes, ",") {
			if !slices.Contains(scenes.Names(), s) {
				return usagef("--scenes: unknown scene %q (available: %s)", s, strings.Join(scenes.Names(), ", "))
			}
			c.Scenes = append(c.Scenes, s)
		}
	}
	if o.out == "" {
		return usagef("-o must name a folder")
	}
	report := filepath.Join(o.out, "report.md")
	if err := keep(report, o.force); err != nil {
		return err
	}
	if err := os.MkdirAll(o.out, 0o755); err != nil {
		return err
	}

	var mu sync.Mutex
	status := "starting"
	c.Progress = func(line string) {
		mu.Lock()
		status = line
		mu.Unlock()
	}
	var r *bench.Report
	var err error
	withTicker(e, true, func(elapsed time.Duration) string {
		mu.Lock()
		defer mu.Unlock()
		return fmt.Sprintf("bench: %s (%.0f s)", status, elapsed.Seconds())
	}, func() {
		r, err = bench.Run(c)
	})
	if err != nil {
		return err
	}
	for _, ch := range r.Charts() {
		path := filepath.Join(o.out, ch.Name)
		if err := writeFileAtomic(path, true, ch.SVG.WriteSVG); err != nil {
			return err
		}
	}
	if err := writeFileAtomic(report, o.force, func(w io.Writer) error { return r.WriteMarkdown(w) }); err != nil {
		return err
	}
	_, err = fmt.Fprintf(e.stdout, "wrote %s and %d charts (%s)\n", report, len(r.Charts()), r.Elapsed.Round(time.Second))
	return err
}
