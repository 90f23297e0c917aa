package pipeline

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx"

	"github.com/collide3d/collide/internal/jobs"
)

// A Summary is what OUT/ID.summary.json holds: the job's jobs.Summary
// and where its lines are.
type Summary struct {
	jobs.Summary
	// Output is the file of the job's lines, relative to OUT ("ID.jsonl"),
	// when the job ran; Bytes is its size.
	Output string `json:"output,omitempty"`
	Bytes  int64  `json:"bytes"`
}

// OutputPath returns the file of job id's lines in out.
func OutputPath(out, id string) string { return filepath.Join(out, id+".jsonl") }

// SummaryPath returns the file of job id's summary in out.
func SummaryPath(out, id string) string { return filepath.Join(out, id+".summary.json") }

// partsDir returns the directory of job id's part files in out.
func partsDir(out, id string) string { return filepath.Join(out, ".parts", id) }

// partPath returns the part file of shard i of job id in out.
func partPath(out, id string, i int) string {
	return filepath.Join(partsDir(out, id), fmt.Sprintf("%06d", i))
}

// Prepare makes the directory out and removes the outputs of js an
// earlier run left there, so that every output found after a run is the
// run's.
func Prepare(out string, js []jobs.Job) error {
	if err := os.MkdirAll(out, 0o777); err != nil {
		return err
	}
	for _, j := range js {
		for _, name := range []string{SummaryPath(out, j.ID), OutputPath(out, j.ID)} {
			if err := os.Remove(name); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return err
			}
		}
	}
	return nil
}

// Run runs js with o on the runner named by Beam's --runner flag (Prism,
// in the process, by default), after Prepare; beam.Init must have been
// called. The jobs' outcomes are in their summaries (Summaries): Run's
// error is the pipeline's, not a job's.
func Run(ctx context.Context, js []jobs.Job, o Options) error {
	if err := Prepare(o.Out, js); err != nil {
		return err
	}
	p, s := beam.NewPipelineWithRoot()
	if err := Build(s, js, o); err != nil {
		return err
	}
	return beamx.Run(ctx, p)
}

// Summaries reads the summaries of js in out, in the order of js. A job
// with no summary (the pipeline stopped before finishing it) has one
// saying so, not OK.
func Summaries(out string, js []jobs.Job) []Summary {
	ss := make([]Summary, len(js))
	for i, j := range js {
		s, err := readSummaryFile(out, j.ID)
		if err != nil {
			s = Summary{}
			s.ID, s.Query = j.ID, j.Query
			s.Error = fmt.Sprintf("no summary (the pipeline did not finish the job): %v", err)
		}
		ss[i] = s
	}
	return ss
}

// planned is what the plan stage passes to the finish stage for a job:
// its plan, or the summary of a job that failed to plan.
type planned struct {
	Plan   *jobs.Plan    `json:",omitempty"`
	Failed *jobs.Summary `json:",omitempty"`
}

// planJob plans j in shards of size units. The plan it returns for Finish
// keeps its shards without their moves (nc's), which their own records
// carry.
func planJob(ctx context.Context, j jobs.Job, size int) (*planned, []jobs.Shard) {
	p, err := jobs.PlanJob(ctx, j, size, jobs.Shared)
	if err != nil {
		s := jobs.Failed(j, err)
		return &planned{Failed: &s}, nil
	}
	shards := p.Shards
	kept := *p
	kept.Shards = slices.Clone(shards)
	for i := range kept.Shards {
		kept.Shards[i].Moves = nil
	}
	return &planned{Plan: &kept}, shards
}

// runShard runs s into its part file in out and returns its Result. Its
// error is for failures of the part file and of ctx (a failed shard has a
// Result with Err set).
func runShard(ctx context.Context, out string, s *jobs.Shard) (jobs.Result, error) {
	var r jobs.Result
	err := os.MkdirAll(partsDir(out, s.Job.ID), 0o777)
	if err != nil {
		return jobs.Result{}, fmt.Errorf("job %s: shard %d: %w", s.Job.ID, s.Index, err)
	}
	err = writeFile(partPath(out, s.Job.ID, s.Index), func(w io.Writer) error {
		var err error
		r, err = jobs.Run(ctx, s, jobs.Shared, w)
		return err
	})
	if err != nil {
		return jobs.Result{}, fmt.Errorf("job %s: shard %d: %w", s.Job.ID, s.Index, err)
	}
	return r, nil
}

// finishJob finishes the job p whose shards returned rs (in any order, a
// shard's repeated Result counted once): it writes OUT/ID.jsonl from the
// parts, then the summary, which it returns, then removes the parts. A
// failed job's summary says why, and its stale OUT/ID.jsonl is removed. A
// job whose summary is written already (a finish retried by the runner
// after it wrote it; Prepare removed those of earlier runs) is finished:
// its parts are removed, its output kept. The error is for failures of
// the summary's file and of the parts' removal.
func finishJob(out string, p *planned, rs []jobs.Result) (Summary, error) {
	var s Summary
	if p.Failed != nil {
		s.Summary = *p.Failed
	} else {
		s.Summary.ID = p.Plan.Job.ID
	}
	if done, err := readSummaryFile(out, s.ID); err == nil {
		return done, removeParts(out, s.ID)
	}
	if p.Failed != nil {
		return s, conclude(out, &s)
	}
	rs = slices.Clone(rs)
	slices.SortStableFunc(rs, func(a, b jobs.Result) int { return a.Index - b.Index })
	rs = slices.CompactFunc(rs, func(a, b jobs.Result) bool { return a.Index == b.Index })
	tail, js := jobs.Finish(p.Plan, rs)
	s.Summary = js
	if s.OK {
		n, err := assemble(out, s.ID, rs, tail)
		if err != nil {
			s.OK, s.Error = false, "collide-beam: "+err.Error()
		} else {
			s.Output, s.Bytes = filepath.Base(OutputPath(out, s.ID)), n
		}
	}
	return s, conclude(out, &s)
}

// readSummaryFile reads the summary of job id in out.
func readSummaryFile(out, id string) (Summary, error) {
	var s Summary
	b, err := os.ReadFile(SummaryPath(out, id))
	if err == nil {
		err = json.Unmarshal(b, &s)
	}
	return s, err
}

// conclude removes the output of the job of s if it failed, writes its
// summary and removes its parts.
func conclude(out string, s *Summary) error {
	if !s.OK {
		s.Lines, s.Output, s.Bytes = 0, "", 0
		if err := os.Remove(OutputPath(out, s.ID)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	err = writeFile(SummaryPath(out, s.ID), func(w io.Writer) error {
		_, err := w.Write(append(b, '\n'))
		return err
	})
	if err != nil {
		return err
	}
	return removeParts(out, s.ID)
}

// removeParts removes the part files of job id in out.
func removeParts(out, id string) error {
	if err := os.RemoveAll(partsDir(out, id)); err != nil {
		return err
	}
	os.Remove(filepath.Join(out, ".parts")) // when no other job's parts are left
	return nil
}

// assemble writes OUT/ID.jsonl: the part files of the results rs (one a
// shard, in shard order), each checked to hold the lines its result
// counts, then tail. It returns the file's size.
func assemble(out, id string, rs []jobs.Result, tail []byte) (int64, error) {
	var size int64
	err := writeFile(OutputPath(out, id), func(w io.Writer) error {
		for _, r := range rs {
			name := partPath(out, id, r.Index)
			f, err := os.Open(name)
			if err != nil {
				return err
			}
			c := lineCounter{w: w}
			_, err = io.Copy(&c, f)
			f.Close()
			if err != nil {
				return err
			}
			if c.lines != r.Lines || c.open {
				return fmt.Errorf("%s: %d lines, its shard wrote %d", name, c.lines, r.Lines)
			}
			size += c.bytes
		}
		n, err := w.Write(tail)
		size += int64(n)
		return err
	})
	return size, err
}

// lineCounter writes to w, counting the bytes and the lines; open is
// whether the last line written has no newline yet.
type lineCounter struct {
	w     io.Writer
	bytes int64
	lines int64
	open  bool
}

func (c *lineCounter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.bytes += int64(n)
	c.lines += int64(bytes.Count(p[:n], []byte("\n")))
	if n > 0 {
		c.open = p[n-1] != '\n'
	}
	return n, err
}

// writeFile writes name through fill: into a temporary file of name's
// directory, renamed to name when complete, so that name is either absent,
// its old self or complete, and two writers of the same name (a shard run
// twice) each replace it whole.
func writeFile(name string, fill func(w io.Writer) error) (err error) {
	dir, base := filepath.Split(name)
	f, err := os.CreateTemp(dir, "."+base+".tmp*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	w := bufio.NewWriterSize(f, 1<<16)
	if err := fill(w); err != nil {
		return err
	}
	if err := w.Flush(); err != nil {
		return err
	}
	if err := f.Chmod(0o644); err != nil { // CreateTemp's 0600 is for the temporary file only
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), name)
}
