// Command collide-beam runs a manifest of collide's batch jobs (collide
// check, distance, check --ccd and nc over pose files and G-code programs)
// as an Apache Beam pipeline: on Beam's Prism runner in this process by
// default, or on any runner Beam's flags name.
//
//	collide-beam --manifest jobs.jsonl --out results/ [--shard N] [-v] [Beam's flags]
//
// The manifest has one job a line (JSON: "id", "query" = check | distance |
// ccd | nc, "env", "fly", "poses", "all", "eps", "max", "solid", "bv", and
// for nc "part", "tool", "program": each what the CLI's flag or argument of
// that name means; see package internal/jobs). For each job it writes
// OUT/ID.jsonl, the lines the CLI prints with --json for the same job (the
// same bytes but for the timing fields: "seconds" and "stats" of each
// line, the timing fields of nc's summary line), and OUT/ID.summary.json:
// the job's command, whether it ran, the CLI's error message if it did
// not, its units, shards, lines and hits (see package pipeline). A job
// that fails leaves the others to finish.
//
// Flags:
//
//	--manifest FILE  the jobs (required)
//	--out DIR        the output directory (required; made if missing)
//	--shard N        poses, motions or moves a shard (default 4096, jobs.DefaultShard)
//	-v               Prism's and Beam's INFO logs on stderr (quiet otherwise)
//
// Beam's own flags choose the runner: --runner (default prism, in the
// process), --endpoint, --job_endpoint, --environment_type,
// --environment_config and the runners' own (Dataflow's --project,
// --region, --staging_location, ...). On a cluster every worker must read
// the manifest's models, pose files and programs, and write --out, at the
// same paths: a shared filesystem.
//
// At the end it prints one line a job on stderr (id, ok or failed, units,
// lines, the error) and exits with status 1 if a job failed or the
// pipeline did, 2 on bad usage.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	beamlog "github.com/apache/beam/sdks/v2/go/pkg/beam/log"

	"github.com/collide3d/collide/beam/pipeline"
	"github.com/collide3d/collide/internal/jobs"
)

// Exit statuses.
const (
	exitOK    = 0
	exitError = 1
	exitUsage = 2
)

const usage = "usage: collide-beam --manifest FILE --out DIR [--shard N] [-v] [Beam's flags: --runner NAME ...]"

// The flags of collide-beam, beside Beam's in flag.CommandLine (Beam reads
// its own from there).
var (
	manifestFlag = flag.String("manifest", "", "the manifest: one job a line, JSON (required)")
	outFlag      = flag.String("out", "", "the output directory (required)")
	shardFlag    = flag.Int("shard", jobs.DefaultShard, "poses, motions or moves a shard")
	verboseFlag  = flag.Bool("v", false, "Prism's and Beam's INFO logs on stderr")
)

func main() {
	flag.CommandLine.Usage = func() {
		fmt.Fprintln(os.Stderr, usage)
		flag.PrintDefaults()
	}
	flag.Parse()
	if !*verboseFlag {
		beamlog.LogLevel = "warn"
	}
	// On a portable runner's worker, Init runs the worker and does not
	// return.
	beam.Init()
	os.Exit(run(context.Background(), flag.Args(), os.Stderr))
}

// run runs the manifest named by the flags, parsed already, with the
// arguments left args, reporting on stderr.
func run(ctx context.Context, args []string, stderr io.Writer) int {
	o, manifest, err := options(args)
	if err != nil {
		fmt.Fprintf(stderr, "collide-beam: %v\n%s\n", err, usage)
		return exitUsage
	}
	js, err := readManifest(manifest)
	if err != nil {
		fmt.Fprintf(stderr, "collide-beam: %v\n", err)
		return exitError
	}
	perr := pipeline.Run(ctx, js, o)
	status := report(stderr, pipeline.Summaries(o.Out, js))
	if perr != nil {
		fmt.Fprintf(stderr, "collide-beam: the pipeline failed: %v\n", perr)
		status = exitError
	}
	return status
}

// options checks collide-beam's flags and returns the pipeline's options
// and the manifest's name.
func options(args []string) (pipeline.Options, string, error) {
	var o pipeline.Options
	switch {
	case len(args) > 0:
		return o, "", fmt.Errorf("unexpected argument %q (the manifest is --manifest FILE)", args[0])
	case *manifestFlag == "":
		return o, "", errors.New("--manifest: required")
	case *outFlag == "":
		return o, "", errors.New("--out: required")
	case *shardFlag < 1:
		return o, "", fmt.Errorf("--shard %d: want a positive number of units", *shardFlag)
	}
	o.Out, o.Shard = *outFlag, *shardFlag
	return o, *manifestFlag, nil
}

// readManifest reads the manifest file name.
func readManifest(name string) ([]jobs.Job, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return jobs.ReadManifest(f, name)
}

// report prints a line a job and returns the exit status: 1 if any job
// failed.
func report(w io.Writer, ss []pipeline.Summary) int {
	status := exitOK
	for _, s := range ss {
		unit := s.Unit
		if unit == "" {
			unit = "unit"
		}
		if s.OK {
			fmt.Fprintf(w, "%s: ok: %d %ss, %d lines\n", s.ID, s.Units, unit, s.Lines)
			continue
		}
		status = exitError
		fmt.Fprintf(w, "%s: failed: %d %ss, %d lines: %s\n", s.ID, s.Units, unit, s.Lines, s.Error)
	}
	return status
}
