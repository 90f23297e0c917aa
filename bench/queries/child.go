package queries

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"runtime"
	"runtime/metrics"
	"strings"
	"syscall"
	"time"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/bench/distance"
	"github.com/collide3d/collide/bvh"
	"github.com/collide3d/collide/ccd"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh"
)

// ChildEnv is the environment variable that makes a process a child of
// Run: it holds the job, and the program's main (or a test binary's
// TestMain) calls RunChild when it is set. See Child.
const ChildEnv = "COLLIDE_QUERIES_JOB"

// A job is what a child runs: Rounds runs of a scene's query or build with
// one kind, or the scene's reference (Kind reference).
type job struct {
	Scene  Scene
	Kind   string
	Rounds int
}

// reference is the Kind of the job that computes a row's reference:
// brute force (distance) or bvh.SweepAll (time of impact).
const reference = "reference"

// A childLine is a line of a child's output (JSON): first Ready, once the
// meshes are read and the models built, then one line per round: its time,
// counts and answer. Err ends the output when the job fails.
type childLine struct {
	Ready bool   `json:"ready,omitempty"`
	Err   string `json:"error,omitempty"`
	// Ns is the round's wall time.
	Ns    int64         `json:"ns"`
	Stats collide.Stats `json:"stats"`
	// Distance rows.
	Distance float64 `json:"distance"`
	Bound    float64 `json:"bound"`
	// Time-of-impact rows.
	Hit   bool         `json:"hit"`
	Maybe bool         `json:"maybe"`
	TOI   ccd.Interval `json:"toi"`
	// Builds: bytes allocated, the heap's peak over its size before, and
	// the model's Bytes.
	Alloc int64 `json:"alloc"`
	Peak  int64 `json:"peak"`
	Bytes int64 `json:"bytes"`
}

// Child reports whether this process is a child of Run (ChildEnv is set).
func Child() bool { return os.Getenv(ChildEnv) != "" }

// RunChild runs the job of ChildEnv, writing its lines to w, and returns
// the process's exit status. A program that runs Run calls it first thing
// when Child says so (cmd/collide's main does):
//
//	if queries.Child() {
//		os.Exit(queries.RunChild(os.Stdout))
//	}
//
// Every measurement of Run is made in a child of its own, the program
// itself run again (os.Executable), so that one past its cap can be killed:
// today's queries and builds take no deadline.
func RunChild(w io.Writer) int {
	enc := json.NewEncoder(w)
	if err := runJob(os.Getenv(ChildEnv), enc); err != nil {
		enc.Encode(childLine{Err: err.Error()})
		return 1
	}
	return 0
}

// runJob decodes the job and runs it.
func runJob(spec string, enc *json.Encoder) error {
	var j job
	if err := json.Unmarshal([]byte(spec), &j); err != nil {
		return fmt.Errorf("%s: %w", ChildEnv, err)
	}
	sc := j.Scene
	env, fly, err := loadScene(sc)
	if err != nil {
		return err
	}
	if j.Kind == reference {
		if err := enc.Encode(childLine{Ready: true}); err != nil {
			return err
		}
		t0 := time.Now()
		var l childLine
		switch sc.Op {
		case Distance:
			d, e, f := distance.BruteForceDistance(env, fly, sc.From)
			l.Distance = d
			if e >= 0 {
				l.Bound = geom.TriTriDistanceBound(env.Triangle(int(e)), sc.From.ApplyTriangle(fly.Triangle(int(f))))
			}
		case TOI:
			r := bvh.SweepAll(env, fly, ccd.Motion{From: sc.From, To: sc.To})
			l.Hit, l.Maybe, l.TOI = r.Hit, r.Maybe, finite(r.TOI)
		default:
			return fmt.Errorf("no reference for a %s", sc.Op)
		}
		l.Ns = time.Since(t0).Nanoseconds()
		return enc.Encode(l)
	}
	bv, err := collide.ParseBV(j.Kind)
	if err != nil {
		return err
	}
	if sc.Op == Build {
		if err := enc.Encode(childLine{Ready: true}); err != nil {
			return err
		}
		for range j.Rounds {
			l, err := buildOnce(env, collide.BuildOptions{BV: bv})
			if err != nil {
				return err
			}
			if err := enc.Encode(l); err != nil {
				return err
			}
		}
		return nil
	}
	em, err := collide.Build(env, collide.BuildOptions{BV: bv})
	if err != nil {
		return err
	}
	fm, err := collide.Build(fly, collide.BuildOptions{BV: bv})
	if err != nil {
		return err
	}
	fm.PrepareFlying()
	if err := enc.Encode(childLine{Ready: true}); err != nil {
		return err
	}
	var q collide.Query
	for range j.Rounds {
		// Today's queries take no deadline; the parent kills the process
		// at the cap. A query given a budget would stop by itself.
		var l childLine
		t0 := time.Now()
		if sc.Op == Distance {
			d, err := q.Distance(em, fm, sc.From, collide.DistanceOptions{})
			l.Ns = time.Since(t0).Nanoseconds()
			if err != nil {
				return err
			}
			l.Stats, l.Distance, l.Bound = d.Stats, d.Distance, d.Bound
		} else {
			t, err := q.TimeOfImpact(em, fm, sc.From, sc.To)
			l.Ns = time.Since(t0).Nanoseconds()
			if err != nil {
				return err
			}
			l.Stats, l.Hit, l.Maybe, l.TOI = t.Stats, t.Hit, t.Maybe, finite(t.TOI)
		}
		if err := enc.Encode(l); err != nil {
			return err
		}
	}
	return nil
}

// finite returns i with its bounds that are not numbers (no contact) as
// 0, which JSON can write.
func finite(i ccd.Interval) ccd.Interval {
	if math.IsNaN(i.Lo) || math.IsInf(i.Lo, 0) {
		i.Lo = 0
	}
	if math.IsNaN(i.Hi) || math.IsInf(i.Hi, 0) {
		i.Hi = 0
	}
	return i
}

// heapMetrics are the runtime's counters a build reads: the bytes
// allocated so far and the bytes of the heap's objects (live or not yet
// swept).
var heapMetrics = []string{"/gc/heap/allocs:bytes", "/memory/classes/heap/objects:bytes"}

// readHeap returns the bytes allocated so far and the heap's objects now.
func readHeap() (alloc, objects int64) {
	s := make([]metrics.Sample, len(heapMetrics))
	for i, n := range heapMetrics {
		s[i].Name = n
	}
	metrics.Read(s)
	return int64(s[0].Value.Uint64()), int64(s[1].Value.Uint64())
}

// buildOnce builds m with o after a collection, sampling the heap every
// millisecond meanwhile, and returns its time, the heap allocated, the
// peak of the heap's objects over their bytes before it, and the model's
// Bytes.
func buildOnce(m *mesh.TriMesh, o collide.BuildOptions) (childLine, error) {
	runtime.GC()
	alloc0, base := readHeap()
	stop, sampled := make(chan struct{}), make(chan int64)
	go func() {
		top := base
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				sampled <- top
				return
			case <-tick.C:
				_, h := readHeap()
				top = max(top, h)
			}
		}
	}()
	t0 := time.Now()
	model, err := collide.Build(m, o)
	took := time.Since(t0)
	alloc1, h := readHeap()
	close(stop)
	peak := max(h, <-sampled)
	if err != nil {
		return childLine{}, err
	}
	return childLine{Ns: took.Nanoseconds(), Alloc: alloc1 - alloc0, Peak: peak - base, Bytes: model.Bytes()}, nil
}

// childRun is what the parent saw of a child: its rounds' lines, whether
// it was killed past its cap (Capped) or answered past it within the
// drain (Late), and its largest resident set.
type childRun struct {
	lines        []childLine
	capped, late bool
	maxRSS       int64
	failed       error
}

// runChild runs j in a child process of the program exe (empty: this
// one): it waits up to setup for the child to be ready, then up to cap
// (and drain more) for each round, killing it when a round passes that.
func runChild(ctx context.Context, exe string, j job, setup, cap, drain time.Duration) childRun {
	var res childRun
	if exe == "" {
		var err error
		if exe, err = os.Executable(); err != nil {
			res.failed = err
			return res
		}
	}
	spec, err := json.Marshal(j)
	if err != nil {
		res.failed = err
		return res
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	cmd := exec.CommandContext(ctx, exe)
	cmd.Env = append(os.Environ(), ChildEnv+"="+string(spec))
	cmd.WaitDelay = time.Second
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		res.failed = err
		return res
	}
	if err := cmd.Start(); err != nil {
		res.failed = err
		return res
	}
	lines := make(chan childLine)
	go func() {
		defer close(lines)
		dec := json.NewDecoder(out)
		for {
			var l childLine
			if dec.Decode(&l) != nil {
				return
			}
			select {
			case lines <- l:
			case <-ctx.Done():
				return
			}
		}
	}()
	// next waits up to d for a line, then up to drain more (the line is
	// then late); ok is false when the child ended or d and drain passed.
	next := func(d time.Duration, drain time.Duration) (l childLine, ok, late bool) {
		timer := time.NewTimer(d)
		defer timer.Stop()
		select {
		case l, ok = <-lines:
			return l, ok, false
		case <-timer.C:
		}
		if drain > 0 {
			timer.Reset(drain)
			select {
			case l, ok = <-lines:
				return l, ok, true
			case <-timer.C:
			}
		}
		res.capped = true
		return l, false, false
	}
	stop := func() {
		cancel()
		cmd.Wait()
		if cmd.ProcessState != nil {
			if u, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
				res.maxRSS = u.Maxrss * 1024 // kilobytes on Linux
			}
		}
	}
	l, ok, _ := next(setup, 0)
	switch {
	case res.capped:
		stop()
		return res
	case !ok || !l.Ready:
		stop()
		res.failed = childError(l, &stderr)
		return res
	}
	for range j.Rounds {
		l, ok, late := next(cap, drain)
		if res.capped {
			break
		}
		if !ok || l.Err != "" {
			stop()
			res.failed = childError(l, &stderr)
			return res
		}
		res.lines = append(res.lines, l)
		if late || time.Duration(l.Ns) > cap {
			res.late = true
			break
		}
	}
	stop()
	return res
}

// childError says why a child ended without its lines.
func childError(l childLine, stderr *bytes.Buffer) error {
	if l.Err != "" {
		return errors.New(l.Err)
	}
	msg := strings.TrimSpace(stderr.String())
	if i := strings.LastIndexByte(msg, '\n'); i >= 0 {
		msg = msg[i+1:]
	}
	if msg == "" {
		msg = "no output"
	}
	return fmt.Errorf("the child process ended: %s", msg)
}
