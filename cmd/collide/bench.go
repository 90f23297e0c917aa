package main

import (
	"cmp"
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
	peers  bool
	driver string
	rounds int
}

// defaultBenchDir is where bench writes its report by default.
const defaultBenchDir = "bench-report"

// defaultDriver is where bench/peers/build.sh builds the peers driver,
// relative to the repository's root.
const defaultDriver = "bench/peers/build/collide-peers"

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
minute. An existing report in the folder is kept unless --force is given.

With --peers, bench instead flies every scene through collide (each bounding
volume, first contact and all pairs) and through FCL, OPCODE, ODE and Bullet
(the program collide-peers, which bench/peers/build.sh installs and builds),
all on the same poses, taking turns for --rounds rounds, and writes
peers.md: per scene and system the build time, memory, mean, p99 and max
query time and the ratio to collide's best, and every step where a system's
answer differs from the brute-force oracle's (all of them in
peers-disagreements.csv). The driver is found at --driver, or
$COLLIDE_PEERS, or %s.`,
			strings.Join(scenes.Names(), ", "), defaultBenchDir, defaultDriver),
		flags: func(fs *flag.FlagSet) any {
			o := &benchOptions{}
			fs.BoolVar(&o.quick, "quick", false, "small scenes and short flights (about a minute)")
			fs.StringVar(&o.out, "o", defaultBenchDir, "write the report and charts to `DIR`")
			intFlag(fs, &o.seed, "seed", 1, "random `SEED` of the scenes and their paths")
			fs.StringVar(&o.scenes, "scenes", "", "fly only the scenes of the comma-separated `LIST` (default all)")
			intFlag(fs, &o.steps, "steps", 0, "cap every flight at `N` steps (default: the scenes' lengths)")
			fs.BoolVar(&o.force, "force", false, "overwrite an existing report in DIR")
			fs.BoolVar(&o.peers, "peers", false, "compare collide with FCL, OPCODE, ODE and Bullet (see below)")
			fs.StringVar(&o.driver, "driver", "", "with --peers: the peers driver `FILE` (default $COLLIDE_PEERS or "+defaultDriver+")")
			intFlag(fs, &o.rounds, "rounds", 0, "with --peers: fly every system `N` times, taking turns (default 3, or 2 with --quick)")
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
	if o.rounds < 0 {
		return usagef("--rounds must be >= 0, not %d", o.rounds)
	}
	if !o.peers && (o.driver != "" || o.rounds != 0) {
		return usagef("--driver and --rounds go with --peers")
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
	if o.peers {
		return runPeers(e, o, c)
	}
	report := filepath.Join(o.out, "report.md")
	if err := keep(report, o.force); err != nil {
		return err
	}
	if err := os.MkdirAll(o.out, 0o755); err != nil {
		return err
	}

	var r *bench.Report
	var err error
	withStatus(e, "bench", func(progress func(string)) {
		c.Progress = progress
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

// runPeers runs bench --peers.
func runPeers(e *env, o *benchOptions, bc bench.Config) error {
	driver := o.driver
	if driver == "" {
		driver = cmp.Or(os.Getenv("COLLIDE_PEERS"), defaultDriver)
	}
	if _, err := os.Stat(driver); err != nil {
		return fmt.Errorf("the peers driver %s: %w (build it with bench/peers/build.sh, or name it with --driver)", driver, err)
	}
	report := filepath.Join(o.out, "peers.md")
	disagreements := filepath.Join(o.out, "peers-disagreements.csv")
	for _, f := range []string{report, disagreements} {
		if err := keep(f, o.force); err != nil {
			return err
		}
	}
	if err := os.MkdirAll(o.out, 0o755); err != nil {
		return err
	}
	c := bench.PeersConfig{Size: bc.Size, Seed: bc.Seed, Scenes: bc.Scenes, Steps: bc.Steps, Driver: driver, Rounds: o.rounds}
	var r *bench.PeersReport
	var err error
	withStatus(e, "bench --peers", func(progress func(string)) {
		c.Progress = progress
		r, err = bench.RunPeers(c)
	})
	if err != nil {
		return err
	}
	if err := writeFileAtomic(disagreements, o.force, r.WriteDisagreementsCSV); err != nil {
		return err
	}
	if err := writeFileAtomic(report, o.force, func(w io.Writer) error { return r.WriteMarkdown(w) }); err != nil {
		return err
	}
	_, err = fmt.Fprintf(e.stdout, "wrote %s: %d systems, %d scenes, %d wrong answers (%s)\n",
		report, len(r.Systems), len(r.Scenes), len(r.Disagreements), r.Elapsed.Round(time.Second))
	return err
}

// withStatus runs work, showing on a terminal a progress line made of name,
// the last line work passed to its progress function, and the time elapsed.
func withStatus(e *env, name string, work func(progress func(string))) {
	var mu sync.Mutex
	status := "starting"
	progress := func(line string) {
		mu.Lock()
		status = line
		mu.Unlock()
	}
	withTicker(e, true, func(elapsed time.Duration) string {
		mu.Lock()
		defer mu.Unlock()
		return fmt.Sprintf("%s: %s (%.0f s)", name, status, elapsed.Seconds())
	}, func() { work(progress) })
}
