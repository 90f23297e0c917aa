// Package jobs runs batch jobs of collide's CLI in shards: collide check
// (first contact or all pairs), distance, check --ccd and nc, each over a
// pose file or a G-code program, printing every result line exactly as the
// CLI prints it with --json. It is the core of the Beam pipeline (the
// module beam, cmd/collide-beam), which spreads the shards over workers; the
// CLI prints its lines with the same functions (package internal/jsonl).
//
// A job runs in three steps, each a function of this package:
//
//   - PlanJob reads the job's poses or program, loads its models and
//     splits the job into Shards of consecutive poses, motions or moves. A
//     job whose PlanJob fails fails whole, with the CLI's message
//     (Failure). What a shard can check alone, the shard checks (a pose
//     job's plan only splits the pose file at its line ends: each shard
//     parses its poses and checks that they place FLY), and Finish reports
//     the error the CLI would have met first.
//   - Run answers one shard, writing its lines in order: a shard depends on
//     nothing but itself, so shards run anywhere, in any order, and a shard
//     run twice writes the same lines.
//   - Finish takes the Results of all the shards of a job and returns what
//     the CLI prints after the last result (nc's summary line) and the job's
//     Summary.
//
// # Semantics
//
// The lines of a job are the CLI's lines for the same command (Job.Command),
// in the same order, when the shards' lines are joined in shard order,
// byte for byte but for the timing fields: "seconds" of each line, and
// "seconds", "moves_per_second" and "build_seconds" of nc's summary line.
// The work counters ("stats") matched the CLI's in every test, since the
// CLI answers each pose as if it were the first (collide check forgets the
// last first contact before each pose), but they count work, not answers:
// compare them as timing. A job fails whole where the CLI fails, with the
// CLI's message, and prints no line (the CLI may have printed some before
// its error).
//
// Paths are used as given, relative to the working directory, as the CLI
// uses them: on a cluster give paths that every worker reads the same
// (a shared filesystem).
package jobs

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// A Job is one line of a manifest: one run of the CLI.
//
// Query names the command: "check" (collide check --json, first contact
// unless All), "distance" (collide distance --json), "ccd" (collide check
// --ccd --json, a motion from each pose to the next) or "nc" (collide nc
// --json). The other fields mean what the CLI's flag or argument of the
// same name means; a field the query does not take is an error.
type Job struct {
	ID    string `json:"id"`
	Query string `json:"query"`

	// check, distance, ccd: the models and the pose file.
	Env   string `json:"env,omitempty"`
	Fly   string `json:"fly,omitempty"`
	Poses string `json:"poses,omitempty"`

	All   bool    `json:"all,omitempty"`   // check: every pair
	Solid bool    `json:"solid,omitempty"` // check, distance, nc: the models (nc: the part) as solids (--solid)
	Eps   float64 `json:"eps,omitempty"`   // check, nc: the tolerance
	Max   float64 `json:"max,omitempty"`   // distance: the cut-off
	BV    string  `json:"bv,omitempty"`    // the bounding volume (default: the command's; not "auto", which times queries)

	// nc: the part, the tool and the program; neither part nor program
	// (nor tool) checks the built-in demo.
	Part    string `json:"part,omitempty"`
	Tool    string `json:"tool,omitempty"`
	Program string `json:"program,omitempty"`
}

// Queries are the values of Job.Query.
var Queries = []string{"check", "distance", "ccd", "nc"}

// DefaultShard is the number of poses, motions or moves of a shard when
// Plan is given 0.
const DefaultShard = 4096

// maxID is the longest job id: ids name files.
const maxID = 128

// ReadManifest reads a manifest: JSON Lines, one Job an object, blank lines
// and lines starting with '#' skipped. name names the manifest in errors,
// which give its line. An unknown key, a value of the wrong type, a
// missing or repeated id, or an id that cannot name a file is an error:
// the manifest is read whole before any job runs.
func ReadManifest(r io.Reader, name string) ([]Job, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	var jobs []Job
	seen := map[string]int{}
	for i, line := range bytes.Split(data, []byte("\n")) {
		n := i + 1
		line = bytes.TrimSpace(line)
		if len(line) == 0 || line[0] == '#' {
			continue
		}
		d := json.NewDecoder(bytes.NewReader(line))
		d.DisallowUnknownFields()
		var j Job
		if err := d.Decode(&j); err != nil {
			return nil, fmt.Errorf("%s: line %d: %s", name, n, jsonProblem(err))
		}
		if d.More() {
			return nil, fmt.Errorf("%s: line %d: more than one JSON value", name, n)
		}
		if err := checkID(j.ID); err != nil {
			return nil, fmt.Errorf("%s: line %d: %w", name, n, err)
		}
		if at, ok := seen[j.ID]; ok {
			return nil, fmt.Errorf("%s: line %d: id %q is the id of line %d too", name, n, j.ID, at)
		}
		seen[j.ID] = n
		if !slices.Contains(Queries, j.Query) {
			return nil, fmt.Errorf("%s: line %d: job %q: query %q: want one of %s", name, n, j.ID, j.Query, strings.Join(Queries, ", "))
		}
		jobs = append(jobs, j)
	}
	if len(jobs) == 0 {
		return nil, fmt.Errorf("%s: no jobs", name)
	}
	return jobs, nil
}

// jsonProblem describes a decoding error of one manifest line.
func jsonProblem(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return fmt.Sprintf("%q: want a %s, got a JSON %s", te.Field, te.Type, te.Value)
	}
	return strings.TrimPrefix(err.Error(), "json: ")
}

// checkID returns the error of an id that cannot name the job's files.
func checkID(id string) error {
	switch {
	case id == "":
		return errors.New(`no "id"`)
	case len(id) > maxID:
		return fmt.Errorf("id %.20q...: longer than %d bytes", id, maxID)
	case id == "." || id == "..":
		return fmt.Errorf("id %q: not a file name", id)
	}
	for _, r := range id {
		ok := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("._-", r)
		if !ok {
			return fmt.Errorf("id %q: use letters, digits, '.', '_' and '-' only (ids name files)", id)
		}
	}
	return nil
}

// A Plan is a job split into shards, with what Finish needs to know of it.
type Plan struct {
	Job    Job
	Units  int     // poses (check, distance), motions (ccd) or moves (nc)
	Shards []Shard // in order, covering the units
	// Info is the kind's own record of the job for Finish (nc: the
	// summary's names and counts).
	Info json.RawMessage `json:",omitempty"`
}

// A Shard is the units [First, First+N) of a job, with what running them
// needs. For check, distance and ccd it names the byte range of the pose
// file that holds its poses (N poses; for ccd N+1, a motion from each to
// the next), the line that range starts on (for messages) and the SHA-256
// of its bytes, which Run checks: shards stay small however many poses a
// job has, and a file changed since the plan fails the job rather than
// answer for other poses. For nc it holds its N moves, encoded (a program
// is read in order: its moves depend on the lines before them). Models are
// the digests of the models the plan loaded, which Run checks too.
type Shard struct {
	Job   Job
	Index int // the shard's place in the job, from 0
	First int
	N     int

	Offset, Length int64  // check, distance, ccd: the pose file's bytes
	Line           int    // the line of Offset, from 1
	Sum            string // the hex SHA-256 of the bytes

	Moves []byte `json:",omitempty"` // nc: the N moves, encoded

	Models []string `json:",omitempty"`
}

// A Result is what Run reports of a shard, for Finish.
type Result struct {
	Job   string
	Index int
	Lines int64   // the lines written
	Hits  int64   // poses in contact, motions that hit, violations
	Query float64 // seconds the queries took
	// Info is the kind's own counts (nc: the shard's nc.Summary).
	Info json.RawMessage `json:",omitempty"`
	// Err is the message of a shard that failed (the CLI's, "collide
	// CMD: ..."), the job failing with it. ErrRank and ErrUnit order the
	// shards' errors as the CLI meets them, so that Finish reports the
	// CLI's: the rank of the check that failed (a pose job's CLI reads
	// every pose, then loads the models, then places every pose, then
	// queries), then the line, pose, motion or move it failed at.
	Err     string `json:",omitempty"`
	ErrRank int    `json:",omitempty"`
	ErrUnit int    `json:",omitempty"`
}

// A Summary describes a finished job (written as OUT/ID.summary.json by
// the pipeline).
type Summary struct {
	ID      string   `json:"id"`
	Query   string   `json:"query"`
	Command []string `json:"command"` // the CLI's arguments for the same job
	OK      bool     `json:"ok"`
	// Error is the CLI's message for the same job ("collide CMD: ..."),
	// when the job failed; no result file is written then.
	Error  string `json:"error,omitempty"`
	Units  int    `json:"units"`  // poses, motions or moves (as planned, for a failed job too)
	Unit   string `json:"unit"`   // "pose", "motion" or "move"
	Shards int    `json:"shards"` // the shards it ran in
	Lines  int64  `json:"lines"`  // the lines of OUT/ID.jsonl
	Hits   int64  `json:"hits"`   // poses in contact, motions that hit, violations
	// QuerySeconds is the time the shards' queries took, summed.
	QuerySeconds float64 `json:"query_seconds"`
}

// A Failure is the error of a job that cannot run: Message is what the CLI
// prints on stderr for the same job ("collide CMD: ...").
type Failure struct {
	Job     string
	Message string
}

func (f *Failure) Error() string { return fmt.Sprintf("job %s: %s", f.Job, f.Message) }

// kind is one value of Job.Query: how its jobs are planned, run and
// finished.
type kind interface {
	// command returns the CLI's arguments (after "collide") for j.
	command(j *Job) []string
	// unit names what the job's shards divide: "pose", "motion", "move".
	unit() string
	// plan loads what j needs (models into c) and splits its units into
	// shards of at most size.
	plan(ctx context.Context, j *Job, size int, c *Cache) (*Plan, error)
	// run runs s, writing its lines to w.
	run(ctx context.Context, s *Shard, c *Cache, w io.Writer) (Result, error)
	// finish returns the lines after the last shard's (nc's summary) of
	// the job p whose shards returned rs, all without error.
	finish(p *Plan, rs []Result) ([]byte, error)
}

// kinds maps Job.Query to its kind; each kind's file adds itself.
var kinds = map[string]kind{}

func kindOf(j *Job) (kind, error) {
	k, ok := kinds[j.Query]
	if !ok {
		return nil, fmt.Errorf("job %s: query %q: want one of %s", j.ID, j.Query, strings.Join(Queries, ", "))
	}
	return k, nil
}

// Command returns the CLI's arguments (after "collide") that run the same
// job as j: its lines are the job's lines.
func (j *Job) Command() []string {
	k, err := kindOf(j)
	if err != nil {
		return nil
	}
	return k.command(j)
}

// PlanJob plans job j in shards of at most size units (DefaultShard if size
// is 0), loading its models into c. A job that cannot run returns a
// *Failure with the CLI's message.
func PlanJob(ctx context.Context, j Job, size int, c *Cache) (*Plan, error) {
	k, err := kindOf(&j)
	if err != nil {
		return nil, err
	}
	if size <= 0 {
		size = DefaultShard
	}
	return k.plan(ctx, &j, size, c)
}

// Run runs shard s, writing its lines, in order, to w; models come from c
// (loaded there once, checked against the plan's digests). A shard that
// fails returns a Result with Err set and a nil error; the error is for
// failures of w and of ctx.
func Run(ctx context.Context, s *Shard, c *Cache, w io.Writer) (Result, error) {
	k, err := kindOf(&s.Job)
	if err != nil {
		return Result{}, err
	}
	return k.run(ctx, s, c, w)
}

// Finish returns the lines that follow the shards' lines (nc's summary
// line; none for the others) and the summary of the job p, whose shards
// returned rs (in any order). A job with a failed shard is failed, with
// the message of the shard whose failing unit comes first.
func Finish(p *Plan, rs []Result) ([]byte, Summary) {
	j := &p.Job
	k, err := kindOf(j)
	s := Summary{ID: j.ID, Query: j.Query, Command: j.Command(), Units: p.Units, Shards: len(p.Shards)}
	if err != nil {
		s.Error = err.Error()
		return nil, s
	}
	s.Unit = k.unit()
	rs = slices.Clone(rs)
	slices.SortFunc(rs, func(a, b Result) int { return a.Index - b.Index })
	var failed *Result
	for i := range rs {
		r := &rs[i]
		if r.Err != "" && (failed == nil || r.ErrRank < failed.ErrRank || r.ErrRank == failed.ErrRank && r.ErrUnit < failed.ErrUnit) {
			failed = r
		}
		s.Lines += r.Lines
		s.Hits += r.Hits
		s.QuerySeconds += r.Query
	}
	if failed != nil {
		s.Error, s.Lines, s.Hits = failed.Err, 0, 0
		return nil, s
	}
	if len(rs) != len(p.Shards) {
		s.Error, s.Lines, s.Hits = fmt.Sprintf("internal error: %d results for %d shards", len(rs), len(p.Shards)), 0, 0
		return nil, s
	}
	tail, err := k.finish(p, rs)
	if err != nil {
		s.Error, s.Lines, s.Hits = err.Error(), 0, 0
		return nil, s
	}
	s.Lines += int64(bytes.Count(tail, []byte("\n")))
	s.OK = true
	return tail, s
}

// Failed returns the summary of job j that failed to plan with err.
func Failed(j Job, err error) Summary {
	s := Summary{ID: j.ID, Query: j.Query, Command: j.Command(), Error: err.Error()}
	var f *Failure
	if errors.As(err, &f) {
		s.Error = f.Message
	}
	if k, e := kindOf(&j); e == nil {
		s.Unit = k.unit()
	}
	return s
}

// A Cache holds the models this process has loaded, keyed by what they
// were loaded from (the digest of the file's bytes, or the gen: argument)
// and the options they were built with: a worker loads each model once
// however many shards it runs, and two jobs of the same file share it.
// The zero value is not ready: use NewCache. It is safe for concurrent use;
// a model being loaded by one goroutine is waited for by the others.
type Cache struct {
	mu sync.Mutex
	m  map[string]*cacheEntry
}

type cacheEntry struct {
	done chan struct{}
	v    any
	err  error
}

// NewCache returns an empty cache.
func NewCache() *Cache { return &Cache{m: map[string]*cacheEntry{}} }

// Shared is the process's cache, which the pipeline's workers use.
var Shared = NewCache()

// get returns the value of key, calling load once to make it (errors too
// are kept: a file that failed to load fails the same way for every shard
// of the process).
func (c *Cache) get(key string, load func() (any, error)) (any, error) {
	c.mu.Lock()
	e, ok := c.m[key]
	if !ok {
		e = &cacheEntry{done: make(chan struct{})}
		c.m[key] = e
		c.mu.Unlock()
		e.v, e.err = load()
		close(e.done)
		return e.v, e.err
	}
	c.mu.Unlock()
	<-e.done
	return e.v, e.err
}

// Len returns the number of entries of c (for the tests).
func (c *Cache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.m)
}

// digest returns the hex SHA-256 of data.
func digest(data []byte) string {
	h := sha256.Sum256(data)
	return hex.EncodeToString(h[:])
}

// key joins the parts of a cache key.
func key(parts ...string) string {
	for i, p := range parts {
		parts[i] = strconv.Quote(p)
	}
	return strings.Join(parts, " ")
}
