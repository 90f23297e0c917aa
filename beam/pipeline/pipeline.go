// Package pipeline is the Beam pipeline of collide-beam: it runs the jobs
// of a manifest (package internal/jobs) in shards spread over a Beam
// runner's workers, and writes each job's lines, byte-identical to the
// CLI's but for the timing fields, to OUT/ID.jsonl, with its summary in
// OUT/ID.summary.json.
//
// The stages (plan, run and finish are the DoFns of this file):
//
//	jobs (JSON)                   beam.Create
//	  → plan                      jobs.PlanJob: the job's plan, keyed by id, and its shards
//	      → shards, Reshuffled    spread over the workers
//	      → run                   jobs.Run: OUT/.parts/ID/NNNNNN; the shard's Result, keyed by id
//	  → per job                   CoGroupByKey of the plan and the results
//	  → finish                    jobs.Finish: OUT/ID.jsonl and OUT/ID.summary.json
//
// # Semantics
//
// A job that cannot run (its plan fails: a missing model, a malformed pose
// file) or whose shard fails writes its summary, whose "error" is the
// CLI's message on stderr for the same job, and no OUT/ID.jsonl (a stale
// one of an earlier run is removed); the other jobs are not affected.
//
// A shard writes its lines to OUT/.parts/ID/NNNNNN (NNNNNN its index in
// the job), under a temporary name renamed when complete: a shard run
// twice, by a runner retrying a failed bundle or running a slow one twice,
// writes the same file again, and no line is written twice. Finish
// concatenates the parts in shard order, streaming them (a worker's memory
// does not grow with a job's lines), checks each part holds the lines its
// shard reported, writes OUT/ID.jsonl under a temporary name renamed when
// complete, then the summary, then removes the parts: a summary says the
// job is done, and a finish that the runner retries after it wrote the
// summary keeps it and the output.
//
// Run first removes the outputs and summaries that an earlier run left in
// OUT for the same ids (Prepare), so that the files found after a run are
// the run's.
//
// Models are loaded once per worker process (jobs.Shared, keyed by the
// file's digest). Paths in a job are used as given: on a cluster, every
// worker must read the models, pose files and programs, and write OUT, at
// the same paths (a shared filesystem).
//
// Everything crossing a stage is JSON-encoded bytes (jobs.Job, jobs.Plan,
// jobs.Shard, jobs.Result), so no coder beyond Beam's own is needed.
package pipeline

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"github.com/collide3d/collide/internal/jobs"
)

func init() {
	register.DoFn4x1[context.Context, []byte, func(string, []byte), func([]byte), error](&planFn{})
	register.DoFn3x1[context.Context, []byte, func(string, []byte), error](&runFn{})
	register.DoFn4x1[context.Context, string, func(*[]byte) bool, func(*[]byte) bool, error](&finishFn{})
	register.Emitter1[[]byte]()
	register.Emitter2[string, []byte]()
	register.Iter1[[]byte]()
}

// Options are the pipeline's settings.
type Options struct {
	Out   string // the output directory
	Shard int    // the units (poses, motions, moves) of a shard; 0: jobs.DefaultShard
}

// Build adds to s the stages that run js with o.
func Build(s beam.Scope, js []jobs.Job, o Options) error {
	encoded := make([]any, len(js))
	for i, j := range js {
		b, err := json.Marshal(j)
		if err != nil {
			return fmt.Errorf("job %s: %w", j.ID, err)
		}
		encoded[i] = b
	}
	in := beam.Create(s.Scope("jobs"), encoded...)
	plans, shards := beam.ParDo2(s.Scope("plan"), &planFn{Shard: o.Shard}, in)
	shards = beam.Reshuffle(s.Scope("spread"), shards)
	results := beam.ParDo(s.Scope("run"), &runFn{Out: o.Out}, shards)
	perJob := beam.CoGroupByKey(s.Scope("per job"), plans, results)
	beam.ParDo0(s.Scope("finish"), &finishFn{Out: o.Out}, perJob)
	return nil
}

// planFn plans a job: it emits the job's planned record keyed by its id
// and each of its shards.
type planFn struct {
	Shard int
}

func (f *planFn) ProcessElement(ctx context.Context, job []byte, plan func(string, []byte), shard func([]byte)) error {
	var j jobs.Job
	if err := json.Unmarshal(job, &j); err != nil {
		return fmt.Errorf("plan: decoding a job: %w", err)
	}
	p, shards := planJob(ctx, j, f.Shard)
	b, err := json.Marshal(p)
	if err != nil {
		return fmt.Errorf("plan: job %s: %w", j.ID, err)
	}
	plan(j.ID, b)
	for i := range shards {
		b, err := json.Marshal(&shards[i])
		if err != nil {
			return fmt.Errorf("plan: job %s: shard %d: %w", j.ID, i, err)
		}
		shard(b)
	}
	return nil
}

// runFn runs a shard into its part file and emits its Result keyed by the
// job's id.
type runFn struct {
	Out string
}

func (f *runFn) ProcessElement(ctx context.Context, shard []byte, emit func(string, []byte)) error {
	var s jobs.Shard
	if err := json.Unmarshal(shard, &s); err != nil {
		return fmt.Errorf("run: decoding a shard: %w", err)
	}
	r, err := runShard(ctx, f.Out, &s)
	if err != nil {
		return err // the runner retries the bundle
	}
	b, err := json.Marshal(r)
	if err != nil {
		return fmt.Errorf("run: job %s: shard %d: %w", s.Job.ID, s.Index, err)
	}
	emit(s.Job.ID, b)
	return nil
}

// finishFn finishes a job from its planned record and its shards' Results.
type finishFn struct {
	Out string
}

func (f *finishFn) ProcessElement(ctx context.Context, id string, plans, results func(*[]byte) bool) error {
	var p *planned
	var b []byte
	for plans(&b) {
		if p != nil {
			return fmt.Errorf("finish: job %s: planned twice", id)
		}
		p = new(planned)
		if err := json.Unmarshal(b, p); err != nil {
			return fmt.Errorf("finish: job %s: decoding its plan: %w", id, err)
		}
	}
	if p == nil {
		return fmt.Errorf("finish: job %s: results without a plan", id)
	}
	var rs []jobs.Result
	for results(&b) {
		var r jobs.Result
		if err := json.Unmarshal(b, &r); err != nil {
			return fmt.Errorf("finish: job %s: decoding a result: %w", id, err)
		}
		rs = append(rs, r)
	}
	_, err := finishJob(f.Out, p, rs)
	return err
}
