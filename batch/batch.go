// Package batch runs one kind of query at many poses in one call, on every
// core: the call a binding from another language (the C library
// cmd/libcollide, the Python package) makes once for N poses instead of N
// times, and what a Go program validating a motion's samples wants too.
//
// # Semantics
//
// Each pose's answer is exactly the answer of the single call at that
// pose (collide.Collide, with its contacts for Contacts, DistanceBetween,
// Impact), whatever the number of
// workers and the order they run the poses in: the batch only spreads the
// poses over workers, each with its own collide.Query, and puts the
// answers back in pose order. A batch allocates nothing per pose beyond
// the pairs it returns.
//
// A bad pose (not finite, not a rotation, or moving its model beyond the
// float64 range: collide.Model.CheckPose) is reported as an *Error naming
// its index, before any query runs. So is a pose whose relative pose
// envPose⁻¹∘pose a query finds it cannot fly at (beyond the float64
// range), once the queries have run: the lowest such index, whatever the
// scheduling. A cancelled context stops the batch between chunks of poses
// with ctx.Err(); the answers already written are then those of their
// poses, the others untouched. A panic in a worker (a bug) stops the
// batch and is raised again in the caller's goroutine, where the caller
// can recover it.
//
// # Work sharing
//
// The poses are handed out in chunks (an atomic counter; up to 256 poses
// a chunk, fewer when there are few poses a worker) so that a batch of many
// cheap poses costs one atomic add per chunk, and poses of very different
// costs still spread evenly. Each worker reuses its collide.Query (from a
// pool shared by the batches) across its poses, forgetting between two poses what the query remembers of the
// last (collide.Query.Forget), so that each answer is the single call's
// whatever the worker ran before. Answers are written by pose index; pairs
// are gathered per worker and merged in pose order.
package batch

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/geom"
)

// Options configures a batch. The zero value asks for the first contact at
// each pose, exactly, on every core.
type Options struct {
	// All asks for every pair in contact at each pose; otherwise each
	// pose's query stops at its first pair.
	All bool
	// Eps ≥ 0 is the tolerance (collide.QueryOptions.Eps).
	Eps float64
	// Workers is the number of goroutines: 0 is runtime.GOMAXPROCS(0).
	Workers int
}

// Pair is a pair of triangles in contact at the pose of index Pose.
type Pair struct {
	Pose     int32
	Env, Fly int32
}

// Error is a bad pose of a batch: Index is its index in the poses given.
type Error struct {
	What  string // "pose", "from pose", "to pose", "motion" (a relative pose of Impact's)
	Index int
	Err   error
}

func (e *Error) Error() string { return fmt.Sprintf("%s %d: %v", e.What, e.Index, e.Err) }

func (e *Error) Unwrap() error { return e.Err }

// Check tests fly at each of flyPoses against env at envPose. It sets
// hits[i] (len(hits) must be len(flyPoses)) to whether they touch at
// flyPoses[i], and appends to pairs the pairs in contact, ordered by pose
// and then by collide.ComparePairs: every pair with o.All, else the first
// the query found at each pose that collides (Result.Pairs of the single
// query).
func Check(ctx context.Context, env *collide.Model, envPose geom.Pose, fly *collide.Model, flyPoses []geom.Pose, o Options, hits []bool, pairs []Pair) ([]Pair, error) {
	if len(hits) != len(flyPoses) {
		return pairs, fmt.Errorf("batch: %d hits for %d poses", len(hits), len(flyPoses))
	}
	if err := start(ctx, env, envPose, fly, flyPoses, "pose", o.Eps); err != nil {
		return pairs, err
	}
	qo := collide.QueryOptions{All: o.All, Eps: o.Eps}
	b := newRun(len(flyPoses), o.Workers, "pose")
	return gather(ctx, b, pairs, func() func(*collide.Query, int, []Pair) ([]Pair, error) {
		return func(q *collide.Query, i int, list []Pair) ([]Pair, error) {
			q.Forget()
			r, err := q.Collide(env, envPose, fly, flyPoses[i], qo)
			if err != nil {
				return list, err
			}
			hits[i] = r.Collide
			for _, p := range r.Pairs {
				list = append(list, Pair{Pose: int32(i), Env: p.Env, Fly: p.Fly})
			}
			return list, nil
		}
	})
}

// gather runs the poses on b's workers and appends to dst what each pose
// gives, in pose order: worker makes, once for each worker (with its own
// buffers), the function that appends pose i's items to a list. With one
// worker it runs on the caller's goroutine and appends to dst in place;
// with several, each worker appends to its own list and records, for each
// chunk it ran, where its items are, and the lists are merged by chunk.
func gather[T any](ctx context.Context, b *run, dst []T, worker func() func(q *collide.Query, i int, list []T) ([]T, error)) ([]T, error) {
	if b.workers == 1 {
		q := getQuery()
		defer putQuery(q)
		pose := worker()
		b.each(ctx, func(lo, hi int) bool {
			for i := lo; i < hi; i++ {
				var err error
				if dst, err = pose(q, i, dst); err != nil {
					b.fail(i, err)
					return false
				}
			}
			return true
		})
		return dst, b.err(ctx)
	}
	type span struct{ worker, lo, hi int }
	spans := make([]span, b.chunks())
	lists := make([][]T, b.workers)
	b.parallel(ctx, func(w int, next func() (int, int, bool)) {
		q := getQuery()
		defer putQuery(q)
		pose := worker()
		var list []T
		for {
			lo, hi, ok := next()
			if !ok {
				break
			}
			start := len(list)
			for i := lo; i < hi; i++ {
				var err error
				if list, err = pose(q, i, list); err != nil {
					b.fail(i, err)
					break
				}
			}
			spans[lo/b.chunk] = span{w, start, len(list)}
		}
		lists[w] = list
	})
	if err := b.err(ctx); err != nil {
		return dst, err
	}
	n := 0
	for _, l := range lists {
		n += len(l)
	}
	dst = slices.Grow(dst, n)
	for _, s := range spans {
		dst = append(dst, lists[s.worker][s.lo:s.hi]...)
	}
	return dst, nil
}

// Distance sets out[i] (len(out) must be len(flyPoses)) to
// collide.DistanceBetween's answer at flyPoses[i], with o's Max and
// Budget; its Workers as Options.Workers.
func Distance(ctx context.Context, env *collide.Model, envPose geom.Pose, fly *collide.Model, flyPoses []geom.Pose, o collide.DistanceOptions, workers int, out []collide.DistanceResult) error {
	if len(out) != len(flyPoses) {
		return fmt.Errorf("batch: %d results for %d poses", len(out), len(flyPoses))
	}
	if err := start(ctx, env, envPose, fly, flyPoses, "pose", 0); err != nil {
		return err
	}
	b := newRun(len(flyPoses), workers, "pose")
	b.forEach(ctx, func(q *collide.Query, i int) error {
		r, err := q.DistanceBetween(ctx, env, envPose, fly, flyPoses[i], o)
		if err == nil {
			out[i] = r
		}
		return err
	})
	return b.err(ctx)
}

// Impact sets out[i] (len(out) must be len(from) and len(to)) to
// collide.Impact's answer for the motion of fly from from[i] to to[i].
func Impact(ctx context.Context, env *collide.Model, envPose geom.Pose, fly *collide.Model, from, to []geom.Pose, o collide.TOIOptions, workers int, out []collide.TOIResult) error {
	if len(from) != len(to) || len(out) != len(from) {
		return fmt.Errorf("batch: %d from poses, %d to poses and %d results", len(from), len(to), len(out))
	}
	if err := start(ctx, env, envPose, fly, from, "from pose", 0); err != nil {
		return err
	}
	if err := checkPoses(fly, to, "to pose"); err != nil {
		return err
	}
	b := newRun(len(from), workers, "motion")
	b.forEach(ctx, func(q *collide.Query, i int) error {
		r, err := q.Impact(ctx, env, envPose, fly, from[i], to[i], o)
		if err == nil {
			out[i] = r
		}
		return err
	})
	return b.err(ctx)
}

// start checks what a batch can check before its queries, whatever the
// number of poses: the models, the tolerance, env's pose, the poses (as
// checkPoses) and ctx.
func start(ctx context.Context, env *collide.Model, envPose geom.Pose, fly *collide.Model, poses []geom.Pose, what string, eps float64) error {
	if ctx == nil {
		return fmt.Errorf("batch: %w: nil context (use context.Background())", collide.ErrInvalidQuery)
	}
	if env == nil || fly == nil {
		return fmt.Errorf("batch: %w: nil model", collide.ErrInvalidQuery)
	}
	if len(poses) > math.MaxInt32 {
		return fmt.Errorf("batch: %w: %d poses, more than %d", collide.ErrInvalidQuery, len(poses), math.MaxInt32)
	}
	if !(eps >= 0 && eps <= math.MaxFloat64) {
		return fmt.Errorf("batch: %w: tolerance %v is not a finite number >= 0", collide.ErrInvalidQuery, eps)
	}
	if e, f := env.BV(), fly.BV(); !e.Compatible(f) {
		return fmt.Errorf("batch: %w: the flying model's bounding volume, %s, does not fly against the environment's, %s "+
			"(only k-DOPs of different k do)", collide.ErrInvalidQuery, f, e)
	}
	if err := envPose.Validate(); err != nil {
		return fmt.Errorf("batch: %w: the environment's pose: %v", collide.ErrInvalidPose, err)
	}
	if err := env.CheckPose(envPose); err != nil {
		return fmt.Errorf("batch: the environment's pose: %w", err)
	}
	if err := checkPoses(fly, poses, what); err != nil {
		return err
	}
	return ctx.Err()
}

// checkPoses returns an *Error naming the first of poses that cannot
// place fly, as what: collide.Model.CheckPose, the check of every query,
// which validates the pose (geom.Pose.Validate) in a few dozen operations.
func checkPoses(fly *collide.Model, poses []geom.Pose, what string) error {
	for i := range poses {
		if err := fly.CheckPose(poses[i]); err != nil {
			return &Error{What: what, Index: i, Err: err}
		}
	}
	return nil
}

// queries keeps the workers' queries between batches: a batch's queries
// start with the scratch state that earlier batches grew (a query's
// buffers take tens of kilobytes: a batch of one pose, called again and
// again, would allocate them every time).
var queries = sync.Pool{New: func() any { return new(collide.Query) }}

func getQuery() *collide.Query { return queries.Get().(*collide.Query) }

// putQuery returns q to the pool, without what it remembers of its last
// pair of models (which it does not keep alive).
func putQuery(q *collide.Query) {
	q.Forget()
	queries.Put(q)
}

// maxChunk is the most poses a worker takes at once: a batch of cheap poses
// costs one atomic add per maxChunk poses.
const maxChunk = 256

// run shares out the poses 0..n-1 of one batch in chunks and keeps its
// first error.
type run struct {
	n, workers, chunk int
	what              string       // names a pose in an *Error
	next              atomic.Int64 // the start of the next chunk
	// bad is the lowest index of a pose whose query failed (n: none),
	// and errs the errors by index, guarded by mu.
	bad  atomic.Int64
	mu   sync.Mutex
	errs map[int]error
	// halt says that a worker panicked: the others stop.
	halt atomic.Bool
}

// newRun returns the run of n poses on the given workers (0: GOMAXPROCS),
// at most one per chunk.
func newRun(n, workers int, what string) *run {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	chunk := min(maxChunk, max(1, n/(8*workers)))
	b := &run{n: n, chunk: chunk, what: what}
	b.workers = max(1, min(workers, b.chunks()))
	b.bad.Store(int64(n))
	return b
}

// chunks returns the number of chunks.
func (b *run) chunks() int { return (b.n + b.chunk - 1) / b.chunk }

// take returns the next chunk [lo, hi), or false when there are none left,
// the context is done or a pose before the chunk has failed.
func (b *run) take(ctx context.Context) (lo, hi int, ok bool) {
	if ctx.Err() != nil {
		return 0, 0, false
	}
	s := b.next.Add(int64(b.chunk)) - int64(b.chunk)
	if s >= int64(b.n) || s >= b.bad.Load() || b.halt.Load() {
		return 0, 0, false
	}
	return int(s), min(int(s)+b.chunk, b.n), true
}

// each calls fn with the chunks in order in the caller's goroutine, until
// fn returns false.
func (b *run) each(ctx context.Context, fn func(lo, hi int) bool) {
	for {
		lo, hi, ok := b.take(ctx)
		if !ok || !fn(lo, hi) {
			return
		}
	}
}

// parallel runs fn on b.workers goroutines (the caller's for one), each
// taking chunks with next until it returns false. A panic in a worker
// stops the others at their next chunk and is raised again in the
// caller's goroutine once they are done, where the caller can recover it
// (the C library turns it into an error): a panic on a goroutine of its
// own would end the process.
func (b *run) parallel(ctx context.Context, fn func(w int, next func() (lo, hi int, ok bool))) {
	next := func() (int, int, bool) { return b.take(ctx) }
	if b.workers == 1 {
		fn(0, next)
		return
	}
	var (
		wg       sync.WaitGroup
		once     sync.Once
		panicked any
	)
	for w := range b.workers {
		wg.Go(func() {
			defer func() {
				if r := recover(); r != nil {
					once.Do(func() { panicked = r })
					b.halt.Store(true)
				}
			}()
			fn(w, next)
		})
	}
	wg.Wait()
	if panicked != nil {
		panic(panicked)
	}
}

// forEach runs fn for every index on the workers, each with its own query
// (from the pool) for its chunks; an error stops the batch at its index
// (fail).
func (b *run) forEach(ctx context.Context, fn func(q *collide.Query, i int) error) {
	b.parallel(ctx, func(_ int, next func() (int, int, bool)) {
		q := getQuery()
		defer putQuery(q)
		for {
			lo, hi, ok := next()
			if !ok {
				return
			}
			for i := lo; i < hi; i++ {
				if err := fn(q, i); err != nil {
					b.fail(i, err)
					break
				}
			}
		}
	})
}

// fail records that the query of pose i failed with err; the chunks after
// it are not taken. Chunks before it run on (a pose before i may fail too:
// the lowest index is reported).
func (b *run) fail(i int, err error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.errs == nil {
		b.errs = map[int]error{}
	}
	b.errs[i] = err
	for {
		cur := b.bad.Load()
		if int64(i) >= cur || b.bad.CompareAndSwap(cur, int64(i)) {
			return
		}
	}
}

// err returns the batch's error: the failed query of the lowest index (an
// *Error when its pose is at fault), else ctx's error if it stopped the
// batch.
func (b *run) err(ctx context.Context) error {
	if i := int(b.bad.Load()); i < b.n {
		err := b.errs[i]
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			if e := ctx.Err(); e != nil {
				return e
			}
		}
		if errors.Is(err, collide.ErrInvalidPose) {
			return &Error{What: b.what, Index: i, Err: err}
		}
		return err
	}
	if b.next.Load() < int64(b.n) {
		return ctx.Err() // stopped before the end
	}
	return nil
}
