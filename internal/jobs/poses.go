package jobs

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/flight"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/internal/jsonl"
	"github.com/collide3d/collide/internal/source"
	"github.com/collide3d/collide/internal/textscan"
)

// The kinds of the queries over a pose file: check, distance and ccd.
func init() {
	kinds["check"] = poseKind{query: "check", cli: "check", defaultBV: collide.AABB}
	kinds["distance"] = poseKind{query: "distance", cli: "distance", defaultBV: collide.RSS}
	kinds["ccd"] = poseKind{query: "ccd", cli: "check", defaultBV: collide.AABB}
}

// poseKind is a query over the poses of a file: check (collide check
// --json), distance (collide distance --json) or ccd (collide check --ccd
// --json, a motion from each pose to the next).
type poseKind struct {
	query string
	cli   string // the CLI's command, naming it in messages
	// defaultBV is the command's default --bv (cmd/collide's defaultBV and
	// defaultDistanceBV).
	defaultBV collide.BV
}

func (k poseKind) unit() string {
	if k.query == "ccd" {
		return "motion"
	}
	return "pose"
}

// command returns the CLI's arguments for j:
//
//	check:    check --json [--all] [--eps X] [--solid] [--bv B] --poses P ENV FLY
//	distance: distance --json [--max X] [--solid] [--bv B] --poses P ENV FLY
//	ccd:      check --ccd --json [--bv B] --poses P ENV FLY
func (k poseKind) command(j *Job) []string {
	var a []string
	switch k.query {
	case "check":
		a = []string{"check", "--json"}
		if j.All {
			a = append(a, "--all")
		}
		if j.Eps != 0 {
			a = append(a, "--eps", formatFloat(j.Eps))
		}
		if j.Solid {
			a = append(a, "--solid")
		}
	case "distance":
		a = []string{"distance", "--json"}
		if j.Max != 0 {
			a = append(a, "--max", formatFloat(j.Max))
		}
		if j.Solid {
			a = append(a, "--solid")
		}
	case "ccd":
		a = []string{"check", "--ccd", "--json"}
	}
	if j.BV != "" {
		a = append(a, "--bv", j.BV)
	}
	return append(a, "--poses", j.Poses, j.Env, j.Fly)
}

func formatFloat(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// fail returns the Failure of job j with the CLI's message for err.
func (k poseKind) fail(j *Job, err error) *Failure {
	return &Failure{Job: j.ID, Message: "collide " + k.cli + ": " + err.Error()}
}

// usage checks the keys of j: those the query takes, and their values as
// the CLI checks its flags. It returns the build options.
func (k poseKind) usage(j *Job) (collide.BuildOptions, error) {
	var bo collide.BuildOptions
	extra := []struct {
		name string
		set  bool
		ok   bool
	}{
		{"all", j.All, k.query == "check"},
		{"eps", j.Eps != 0, k.query == "check"},
		{"max", j.Max != 0, k.query == "distance"},
		{"solid", j.Solid, k.query == "check" || k.query == "distance"},
		{"part", j.Part != "", false},
		{"tool", j.Tool != "", false},
		{"program", j.Program != "", false},
	}
	for _, e := range extra {
		if e.set && !e.ok {
			return bo, &Failure{Job: j.ID, Message: fmt.Sprintf("job %s: query %s does not take %q", j.ID, k.query, e.name)}
		}
	}
	for _, need := range []struct{ name, value string }{{"env", j.Env}, {"fly", j.Fly}, {"poses", j.Poses}} {
		if strings.TrimSpace(need.value) == "" {
			return bo, &Failure{Job: j.ID, Message: fmt.Sprintf("job %s: query %s needs %q", j.ID, k.query, need.name)}
		}
		if strings.HasPrefix(need.value, "-") {
			return bo, &Failure{Job: j.ID, Message: fmt.Sprintf("job %s: %q %q starts with '-', which the CLI reads as a flag: write ./%s", j.ID, need.name, need.value, need.value)}
		}
	}
	bv := k.defaultBV
	switch j.BV {
	case "":
	case "auto":
		return bo, &Failure{Job: j.ID, Message: fmt.Sprintf(`job %s: "bv": auto chooses the kind by timing the queries, so that two runs may differ: name a kind`, j.ID)}
	default:
		var err error
		if bv, err = collide.ParseBV(j.BV); err != nil {
			// cmd/collide's buildFlags.options.
			var names []string
			for _, b := range collide.BVs() {
				names = append(names, b.String())
			}
			return bo, k.fail(j, fmt.Errorf("--bv: %v %q (known: %s, auto)", collide.ErrUnknownBV, j.BV, strings.Join(names, ", ")))
		}
	}
	if math.IsNaN(j.Eps) || math.IsInf(j.Eps, 0) || j.Eps < 0 {
		return bo, k.fail(j, fmt.Errorf("--eps must be a finite number >= 0, not %v", j.Eps))
	}
	if !(j.Max >= 0 && j.Max <= math.MaxFloat64) {
		return bo, k.fail(j, fmt.Errorf("--max must be a finite number >= 0, not %v", j.Max))
	}
	// The CLI's defaults of the other build flags (cmd/collide's
	// buildFlags.define).
	return collide.BuildOptions{BV: bv, Rule: collide.Splatter, Split: collide.Mean, Leaf: 1}, nil
}

// given is the build flags a job gives explicitly: --bv, if any.
func given(j *Job) source.Given {
	return func(flag string) bool { return flag == "bv" && j.BV != "" }
}

// poseScan is what a pass over a pose file found.
type poseScan struct {
	n      int // the poses
	shards []Shard
}

// The ranks of a pose job's errors (Result.ErrRank), in the order the CLI
// meets them: it reads every pose, then loads the models, then checks that
// every pose places FLY, then queries.
const (
	errChanged  = iota // a file changed since the plan (not the CLI's)
	errPoseLine        // a line of the pose file that does not parse; ErrUnit its line
	errModels          // the models
	errPlace           // a pose that does not place FLY; ErrUnit the pose
	errSolid           // with "solid", a model that bounds no solid
	errQuery           // a query's error; ErrUnit the pose or motion
)

// plan splits the job's pose file into shards at line ends, in one pass
// that does not parse the poses (the shards do, in parallel) and in memory
// that does not grow with the poses, then loads the models. The errors it
// finds are those the CLI meets before any pose is parsed (the file, a line
// too long, no poses, too few for ccd), where no pose before them fails to
// parse; a model that does not load fails the shards, after their poses'
// errors, as the CLI reads the poses first.
func (k poseKind) plan(ctx context.Context, j *Job, size int, c *Cache) (*Plan, error) {
	bo, err := k.usage(j)
	if err != nil {
		return nil, err
	}
	sc, err := k.scan(j, size)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	n := sc.n
	if k.query == "ccd" && n < 2 {
		if err := k.firstBadLine(j, 0); err != nil {
			return nil, err
		}
		return nil, k.fail(j, fmt.Errorf("--ccd needs at least 2 poses, a motion from each to the next; %s has %d", j.Poses, n))
	}
	if m, err := loadModels(j, bo, c); err == nil {
		for i := range sc.shards {
			sc.shards[i].Models = []string{m.envSum, m.flySum}
		}
	} // else the shards, without the models' digests, fail with the models' error
	units := n
	if k.query == "ccd" {
		units = n - 1
	}
	return &Plan{Job: *j, Units: units, Shards: sc.shards}, nil
}

// isPoseLine reports whether line b holds a pose (or a line that should):
// not blank once a comment is cut.
func isPoseLine(b []byte) bool {
	text, _, _ := bytes.Cut(b, []byte("#"))
	return len(bytes.TrimSpace(text)) > 0
}

// firstBadLine returns the CLI's error for the first pose line of j's pose
// file that does not parse, before line upto if upto > 0, or nil.
func (k poseKind) firstBadLine(j *Job, upto int) error {
	f, err := os.Open(j.Poses)
	if err != nil {
		return k.fail(j, err)
	}
	defer f.Close()
	lr := textscan.NewLineReader(f)
	for {
		b, ok := lr.Next()
		if !ok || upto > 0 && lr.Line >= upto {
			return nil
		}
		if !isPoseLine(b) {
			continue
		}
		text, _, _ := bytes.Cut(b, []byte("#"))
		if _, err := flight.ParsePoseBytes(text); err != nil {
			return k.fail(j, fmt.Errorf("%s: %w", j.Poses, &flight.PoseError{Line: lr.Line, Err: err}))
		}
	}
}

// poseError is the error of pose i of file, as the CLI words it.
func poseError(file string, i int, err error) error {
	return fmt.Errorf("pose %d of %s: %s", i, file, strings.TrimPrefix(err.Error(), "collide: "))
}

// recordHeader starts the header of a flight record (cmd/collide's
// record.go), a comment before the first pose.
const recordHeader = "flight:"

// scan reads the pose file of j and returns the number of its pose lines
// (not blank once a comment is cut; the shards parse them) and its shards
// of at most size units: a shard's bytes run from the start of its first
// pose's line to the end of its last pose's line (its line end included),
// so that no line is split between two shards; a ccd shard of the motions
// [a, a+N) holds the poses a to a+N, the last of them the first of the
// next shard. The errors are the CLI's (a line too long is the error only
// when every pose line before it parses), but for a flight record (a pose
// file whose header names its models), which is refused.
func (k poseKind) scan(j *Job, size int) (*poseScan, error) {
	f, err := os.Open(j.Poses)
	if err != nil {
		return nil, k.fail(j, err)
	}
	defer f.Close()
	ccd := k.query == "ccd"
	sc := &poseScan{}
	t := &tee{}
	lr := textscan.NewLineReader(io.TeeReader(f, t))
	cur := -1      // the index of the shard being read, if any
	header := true // the comment lines before the first pose or blank line
	var last int64 // the end of the last pose's line
	open := func(i int, start int64) {
		sc.shards = append(sc.shards, Shard{Job: *j, Index: len(sc.shards), First: i, Offset: start, Line: lr.Line})
		cur = len(sc.shards) - 1
		t.drop(start)
	}
	close := func(lastPose int, end int64) {
		s := &sc.shards[cur]
		s.Length, s.Sum = end-s.Offset, t.sum(s.Offset, end)
		s.N = lastPose - s.First + 1
		if ccd {
			s.N-- // motions
		}
		cur = -1
	}
	for {
		start := lr.Offset
		b, ok := lr.Next()
		if !ok {
			break
		}
		if !isPoseLine(b) {
			c, comment := strings.CutPrefix(strings.TrimSpace(string(b)), "#")
			if header = header && comment; header && strings.HasPrefix(strings.TrimSpace(c), recordHeader) {
				return nil, &Failure{Job: j.ID, Message: fmt.Sprintf("job %s: %s:%d: a flight record (its header names the models it flew): give its poses without the header, or run it with the CLI", j.ID, j.Poses, lr.Line)}
			}
			continue
		}
		header = false
		i := sc.n
		sc.n++
		last = lr.Offset
		switch {
		case cur < 0:
			open(i, start)
		case ccd && i-sc.shards[cur].First == size:
			close(i, last)
			open(i, start)
		}
		if !ccd && i-sc.shards[cur].First+1 == size {
			close(i, last)
		}
	}
	if err := lr.Err; err != nil {
		if errors.Is(err, textscan.ErrLineTooLong) {
			if err := k.firstBadLine(j, lr.Line+1); err != nil {
				return nil, err // the CLI parses the lines before it
			}
			return nil, k.fail(j, fmt.Errorf("%s: %w", j.Poses, &flight.PoseError{Line: lr.Line + 1, Err: fmt.Errorf("line longer than %d bytes", flight.MaxLine)}))
		}
		return nil, k.fail(j, fmt.Errorf("%s: %w", j.Poses, err))
	}
	if sc.n == 0 {
		return nil, k.fail(j, fmt.Errorf("%s: no poses", j.Poses))
	}
	if cur >= 0 {
		if ccd && sc.shards[cur].First == sc.n-1 && cur > 0 {
			sc.shards = sc.shards[:cur] // the last pose only: no motion
		} else {
			close(sc.n-1, last)
		}
	}
	return sc, nil
}

// tee keeps the bytes of a file read through it from offset base on, for
// the SHA-256 of each shard's bytes: the sums are of the bytes parsed.
type tee struct {
	base int64
	buf  []byte
}

func (t *tee) Write(p []byte) (int, error) {
	t.buf = append(t.buf, p...)
	return len(p), nil
}

// drop forgets the bytes before offset off.
func (t *tee) drop(off int64) {
	n := copy(t.buf, t.buf[off-t.base:])
	t.buf, t.base = t.buf[:n], off
}

// sum returns the hex SHA-256 of the bytes [from, to).
func (t *tee) sum(from, to int64) string {
	h := sha256.Sum256(t.buf[from-t.base : to-t.base])
	return hex.EncodeToString(h[:])
}

// models are the two models of a job, with the digests of what they were
// loaded from.
type models struct {
	env, fly       *collide.Model
	envSum, flySum string
}

// loadModels returns the models of j, loaded and built as the CLI does
// (source.LoadPair, source.BuildPair) through c: a model argument is
// loaded once for its digest, and built once for its digest and the
// build options, so that jobs of the same files share their models.
func loadModels(j *Job, bo collide.BuildOptions, c *Cache) (*models, error) {
	envSum, err1 := argDigest(j.Env, c)
	flySum, err2 := argDigest(j.Fly, c)
	o := source.PairOptions{Given: given(j)}
	if err1 == nil && err2 == nil {
		// Keys hold the argument too: messages name it.
		sums := map[string]string{j.Env: envSum, j.Fly: flySum}
		o.Load = func(arg string) (*source.Source, error) {
			v, err := c.get(key("source", arg, sums[arg]), func() (any, error) { return source.Load(arg, source.Options{}) })
			if err != nil {
				return nil, err
			}
			return v.(*source.Source), nil
		}
		o.Build = func(s *source.Source, bo collide.BuildOptions) (*collide.Model, error) {
			v, err := c.get(key("model", s.Arg, sums[s.Arg], fmt.Sprintf("%+v", bo)), func() (any, error) {
				m, err := collide.Build(s.Mesh, bo)
				if err != nil {
					return nil, fmt.Errorf("%s: %w", s.Arg, err)
				}
				return m, nil
			})
			if err != nil {
				return nil, err
			}
			return v.(*collide.Model), nil
		}
		o.WithBV = func(fly *collide.Model, bv collide.BV, envArg, flyArg string, n int) (*collide.Model, error) {
			v, err := c.get(key("model", flyArg, sums[flyArg], fmt.Sprintf("%+v", fly.Options()), fly.BV().String(), "as", bv.String()), func() (any, error) {
				return fly.WithBV(bv)
			})
			if err != nil {
				return nil, err
			}
			return v.(*collide.Model), nil
		}
	} // else a file that cannot be read: loading it gives the CLI's error
	envSrc, flySrc, bo, err := source.LoadPair(j.Env, j.Fly, bo, o)
	if err != nil {
		return nil, err
	}
	env, fly, err := source.BuildPair(envSrc, flySrc, bo, o)
	if err != nil {
		return nil, err
	}
	return &models{env: env, fly: fly, envSum: envSum, flySum: flySum}, nil
}

// argDigest returns the digest of what the model argument arg loads: its
// file's SHA-256 (kept in c for the file's size and time), or arg itself
// for a generated model.
func argDigest(arg string, c *Cache) (string, error) {
	if strings.HasPrefix(arg, source.GenPrefix) {
		return arg, nil
	}
	path, _ := source.SplitMesh(arg)
	fi, err := os.Stat(path)
	if err != nil {
		return "", err
	}
	v, err := c.get(key("digest", path, strconv.FormatInt(fi.Size(), 10), fi.ModTime().Format(time.RFC3339Nano)), func() (any, error) {
		f, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		h := sha256.New()
		if _, err := io.Copy(h, f); err != nil {
			return nil, err
		}
		return hex.EncodeToString(h.Sum(nil)), nil
	})
	if err != nil {
		return "", err
	}
	return v.(string), nil
}

// queryPool holds the queries of the shards being run: one a goroutine.
var queryPool = sync.Pool{New: func() any { return new(collide.Query) }}

// run answers shard s: it reads the shard's bytes of the pose file,
// checks their SHA-256 and the models' against the plan's, and writes the
// line of each pose (or motion) with the CLI's functions (internal/jsonl).
func (k poseKind) run(ctx context.Context, s *Shard, c *Cache, w io.Writer) (Result, error) {
	j := &s.Job
	res := Result{Job: j.ID, Index: s.Index}
	failed := func(rank, unit int, err error) (Result, error) {
		res.Err, res.ErrRank, res.ErrUnit = "collide "+k.cli+": "+err.Error(), rank, unit
		return res, nil
	}
	bo, err := k.usage(j)
	if err != nil {
		var f *Failure
		if errors.As(err, &f) {
			res.Err, res.ErrRank, res.ErrUnit = f.Message, errChanged, s.First
			return res, nil
		}
		return res, err
	}
	poses, err := readShard(s)
	if err != nil {
		var pe *flight.PoseError
		if errors.As(err, &pe) {
			return failed(errPoseLine, pe.Line, err)
		}
		return failed(errChanged, s.Line, err)
	}
	if len(s.Models) == 0 { // the plan could not load the models: their error
		_, err := loadModels(j, bo, c)
		if err == nil {
			err = fmt.Errorf("%s, %s: changed since the job was planned (they did not load then)", j.Env, j.Fly)
		}
		return failed(errModels, 0, err)
	}
	for i, arg := range []string{j.Env, j.Fly} {
		sum, err := argDigest(arg, c)
		if err == nil && s.Models[i] != sum {
			err = errors.New("changed since the job was planned (its SHA-256 differs)")
		}
		if err != nil {
			return failed(errChanged, 0, fmt.Errorf("%s: %w", arg, err))
		}
	}
	m, err := loadModels(j, bo, c)
	if err != nil {
		return failed(errModels, 0, err)
	}
	for i, p := range poses {
		if err := m.fly.CheckPose(p); err != nil {
			return failed(errPlace, s.First+i, poseError(j.Poses, s.First+i, err))
		}
	}
	if j.Solid { // as cmd/collide's checkSolids
		for i, md := range []*collide.Model{m.env, m.fly} {
			if _, err := md.Solid(); err != nil {
				return failed(errSolid, 0, fmt.Errorf("%s: --solid: %s", []string{j.Env, j.Fly}[i], strings.TrimPrefix(err.Error(), "collide: ")))
			}
		}
	}
	q := queryPool.Get().(*collide.Query)
	defer queryPool.Put(q)
	bw := bufio.NewWriter(w)
	var total time.Duration
	switch k.query {
	case "check":
		qo := collide.QueryOptions{All: j.All, Eps: j.Eps, Solid: j.Solid}
		if err := q.Prepare(m.env, m.fly, qo); err != nil {
			return failed(errQuery, s.First, err)
		}
		pp := &jsonl.Pairs{W: bw}
		for i, p := range poses {
			if err := ctx.Err(); err != nil {
				return res, err
			}
			pp.Begin(s.First + i)
			q.Forget() // each pose as if alone, as the CLI answers it
			start := time.Now()
			st, err := q.Each(m.env, m.fly, p, qo, pp.Add)
			d := time.Since(start)
			if err != nil {
				return failed(errQuery, s.First+i, poseError(j.Poses, s.First+i, err))
			}
			total += d
			in := q.Inside()
			if pp.N() > 0 || in != collide.NotInside {
				res.Hits++
			}
			pp.SetInside(in)
			pp.End(st, d)
			if err := pp.Err(); err != nil {
				return res, err
			}
		}
	case "distance":
		if err := q.Prepare(m.env, m.fly, collide.QueryOptions{}); err != nil {
			return failed(errQuery, s.First, err)
		}
		var b []byte
		for i, p := range poses {
			if err := ctx.Err(); err != nil {
				return res, err
			}
			start := time.Now()
			r, err := q.Distance(m.env, m.fly, p, collide.DistanceOptions{Max: j.Max, Solid: j.Solid})
			d := time.Since(start)
			if err != nil {
				return failed(errQuery, s.First+i, poseError(j.Poses, s.First+i, err))
			}
			total += d
			if !r.Far && r.Distance == 0 {
				res.Hits++
			}
			b = jsonl.AppendDistance(b[:0], s.First+i, &r, j.Max, d)
			if _, err := bw.Write(b); err != nil {
				return res, err
			}
		}
	case "ccd":
		if err := q.Prepare(m.env, m.fly, collide.QueryOptions{}); err != nil {
			return failed(errQuery, s.First, err)
		}
		var b []byte
		for i := range len(poses) - 1 {
			if err := ctx.Err(); err != nil {
				return res, err
			}
			mi := s.First + i
			start := time.Now()
			r, err := q.TimeOfImpactWith(m.env, m.fly, poses[i], poses[i+1], collide.TOIOptions{})
			d := time.Since(start)
			if err != nil {
				return failed(errQuery, mi, fmt.Errorf("motion %d (poses %d and %d of %s): %s", mi, mi, mi+1, j.Poses, strings.TrimPrefix(err.Error(), "collide: ")))
			}
			total += d
			if r.Hit {
				res.Hits++
			}
			b = jsonl.AppendMotion(b[:0], mi, &r, d)
			if _, err := bw.Write(b); err != nil {
				return res, err
			}
		}
	}
	if err := bw.Flush(); err != nil {
		return res, err
	}
	res.Lines = int64(s.N)
	res.Query = total.Seconds()
	return res, nil
}

// readShard reads the poses of shard s from its bytes of the pose file,
// checking their SHA-256 against the plan's. The error of a line that does
// not parse wraps its *flight.PoseError.
func readShard(s *Shard) ([]geom.Pose, error) {
	j := &s.Job
	f, err := os.Open(j.Poses)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data := make([]byte, s.Length)
	if _, err := f.ReadAt(data, s.Offset); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("%s: changed since the job was planned (shorter than the poses from line %d)", j.Poses, s.Line)
		}
		return nil, fmt.Errorf("%s: %w", j.Poses, err)
	}
	if sum := sha256.Sum256(data); hex.EncodeToString(sum[:]) != s.Sum {
		return nil, fmt.Errorf("%s: changed since the job was planned (the poses from line %d differ)", j.Poses, s.Line)
	}
	want := s.N
	if s.Job.Query == "ccd" {
		want++
	}
	poses := make([]geom.Pose, 0, want)
	lr := textscan.NewLineReader(bytes.NewReader(data))
	for {
		b, ok := lr.Next()
		if !ok {
			break
		}
		if !isPoseLine(b) {
			continue
		}
		text, _, _ := bytes.Cut(b, []byte("#"))
		p, err := flight.ParsePoseBytes(text)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", j.Poses, &flight.PoseError{Line: s.Line + lr.Line - 1, Err: err})
		}
		poses = append(poses, p)
	}
	if lr.Err != nil {
		return nil, fmt.Errorf("%s: %w", j.Poses, lr.Err)
	}
	if len(poses) != want {
		return nil, fmt.Errorf("%s: %d poses from line %d, the plan has %d", j.Poses, len(poses), s.Line, want)
	}
	return poses, nil
}

func (k poseKind) finish(p *Plan, rs []Result) ([]byte, error) { return nil, nil }
