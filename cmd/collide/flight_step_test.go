package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"math"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/flight"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh/gen"
)

// jsonStepRef is a line of flight --json as encoding/json writes it, the
// reference stepSink.writeJSON must match byte for byte.
type jsonStepRef struct {
	Step      int        `json:"step"`
	Collide   bool       `json:"collide"`
	Pairs     [][2]int32 `json:"pairs"`
	Truncated bool       `json:"truncated,omitempty"`
	Stats     jsonStats  `json:"stats"`
	Seconds   float64    `json:"seconds"`
}

func TestWriteJSONStep(t *testing.T) {
	many := make([]collide.Pair, 20000) // past stepFlush: written in pieces
	for i := range many {
		many[i] = collide.Pair{Env: int32(i), Fly: int32(math.MaxInt32 - i)}
	}
	tests := []flight.Step{
		{},
		{Index: 1, Result: collide.Result{Collide: true, Pairs: []collide.Pair{{Env: 3, Fly: 4}}}, Time: 1234},
		{Index: 1 << 40, Result: collide.Result{Collide: true, Pairs: []collide.Pair{{Env: 0, Fly: 1}, {Env: 2, Fly: 3}, {Env: math.MaxInt32, Fly: 0}},
			Truncated: true, Stats: collide.Stats{BVTests: 1 << 50, TriTests: 7, Updates: 9}}, Time: 12 * time.Second},
		{Index: 7, Result: collide.Result{Collide: true, Pairs: many}, Time: time.Hour},
		{Time: 1},                    // 1e-9 s: an exponent
		{Time: 999},                  // 9.99e-7 s
		{Time: 1000},                 // 1e-6 s: no exponent
		{Time: 123456789},            // 0.123456789 s
		{Time: math.MaxInt64},        // 9.2e9 s
		{Time: -5 * time.Nanosecond}, // a clock gone backwards: printed as it is
	}
	for i := range tests {
		st := &tests[i]
		ref := jsonStepRef{Step: st.Index, Collide: st.Result.Collide, Pairs: [][2]int32{}, Truncated: st.Result.Truncated,
			Stats:   jsonStats{st.Result.Stats.BVTests, st.Result.Stats.TriTests, st.Result.Stats.Updates, st.Result.Stats.LeafTests},
			Seconds: st.Time.Seconds()}
		for _, p := range st.Result.Pairs {
			ref.Pairs = append(ref.Pairs, [2]int32{p.Env, p.Fly})
		}
		want, err := json.Marshal(ref)
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		k := newStepSink(true, false, &out, 1)
		if err := k.writeJSON(st); err != nil {
			t.Fatal(err)
		}
		if cap(k.buf) != stepLine {
			t.Errorf("step %d: the buffer grew to %d bytes, past stepLine", i, cap(k.buf))
		}
		if got := out.String(); got != string(want)+"\n" {
			t.Errorf("step %d:\n got %.200s\nwant %.200s", i, got, want)
		}
	}
}

func TestWriteJSONStepError(t *testing.T) {
	many := make([]collide.Pair, 20000)
	for _, pairs := range [][]collide.Pair{nil, many} {
		k := &stepSink{json: true, w: &failWriter{}}
		if err := k.step(&flight.Step{Result: collide.Result{Pairs: pairs}}); err == nil || !strings.Contains(err.Error(), "writing output") {
			t.Errorf("%d pairs: %v, want the write's error", len(pairs), err)
		}
	}
}

// TestStepSinkAllocs checks that a step's work in the command (counting,
// recording, its JSON line) allocates nothing once the buffer has grown.
func TestStepSinkAllocs(t *testing.T) {
	w := bufio.NewWriter(io.Discard)
	k := newStepSink(true, true, w, 1000)
	st := &flight.Step{Pose: geom.Identity(), Result: collide.Result{Collide: true, Pairs: []collide.Pair{{Env: 1, Fly: 2}, {Env: 3, Fly: 4}},
		Stats: collide.Stats{BVTests: 123, TriTests: 45, Updates: 6}}, Time: 1500}
	if n := testing.AllocsPerRun(500, func() {
		st.Index++
		st.Time += 37
		if err := k.step(st); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Errorf("%v allocations per step, want 0", n)
	}
}

// TestFlightStepsAllocateNothing flies a flight with the command's step
// callback writing JSON lines, and checks that no step allocates (from
// just before its query to the end of its callback) and that no garbage
// collection ran during the steps. Fly prepares its query before the first
// step, and what that allocates may start a collection (depending on the
// heap the tests before left), so the motion collects before the first
// step's query and the count starts there.
func TestFlightStepsAllocateNothing(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	envMesh := gen.Must(gen.Tetrahedra(300, geom.AABB{Max: geom.Vec3{X: 16, Y: 16, Z: 16}}, 0.8, 3))
	flyMesh := gen.Must(gen.Torus(geom.Vec3{}, 1, 0.3, 1500))
	for _, all := range []bool{false, true} {
		env, err := collide.Build(envMesh, collide.BuildOptions{})
		if err != nil {
			t.Fatal(err)
		}
		fly, err := collide.Build(flyMesh, collide.BuildOptions{})
		if err != nil {
			t.Fatal(err)
		}
		mo, err := flight.NewBilliard(defaultBilliard(envMesh, flyMesh, 2))
		if err != nil {
			t.Fatal(err)
		}
		const steps = 300
		m := &mallocMotion{m: mo}
		k := newStepSink(true, true, bufio.NewWriter(io.Discard), steps)
		var worst, gcs uint64
		var ms runtime.MemStats
		sum, err := flight.Fly(env, fly, m, flight.Options{Steps: steps, Query: collide.QueryOptions{All: all}}, func(st *flight.Step) error {
			err := k.step(st)
			runtime.ReadMemStats(&ms)
			worst = max(worst, ms.Mallocs-m.before)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&ms)
		gcs = uint64(ms.NumGC - m.gc0)
		if sum.Colliding == 0 || sum.Steps != steps {
			t.Errorf("all %v: %d steps, %d in contact: the test wants some contact", all, sum.Steps, sum.Colliding)
		}
		if worst != 0 || gcs != 0 {
			t.Errorf("all %v: a step made up to %d allocations, and the flight %d collections; want 0 and 0", all, worst, gcs)
		}
	}
}

// mallocMotion is a Motion that reads the allocation count before each
// step's query.
type mallocMotion struct {
	m      flight.Motion
	before uint64
	// gc0 is the count of collections after the one Next runs before the
	// first step.
	gc0     uint32
	started bool
}

func (a *mallocMotion) Next(collided bool) (geom.Pose, bool) {
	p, ok := a.m.Next(collided)
	var ms runtime.MemStats
	if !a.started {
		a.started = true
		runtime.GC()
		runtime.ReadMemStats(&ms)
		a.gc0 = ms.NumGC
	}
	runtime.ReadMemStats(&ms)
	a.before = ms.Mallocs
	return p, ok
}

// TestFlightTail checks the summary's time figures, text and JSON: mean,
// median, p99, p99.9 and max in order, and the preparation apart.
func TestFlightTail(t *testing.T) {
	args := []string{"flight", "--env", "gen:tetrahedra", "--fly", "gen:torus:major=0.3,minor=0.1", "--steps", "40"}
	stdout, stderr, code := runCLI(t, args...)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"query time   mean ", ", median ", ", p99 ", ", p99.9 ", ", max ", "(prepared in "} {
		if !strings.Contains(stdout, want) {
			t.Errorf("the summary lacks %q:\n%s", want, stdout)
		}
	}
	stdout, stderr, code = runCLI(t, append(args, "--json")...)
	if code != exitOK {
		t.Fatalf("--json: exit %d: %s", code, stderr)
	}
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	var last struct {
		Summary map[string]any `json:"summary"`
	}
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &last); err != nil {
		t.Fatal(err)
	}
	var prev float64
	for _, key := range []string{"median", "p99", "p999", "max"} {
		v, ok := last.Summary[key].(float64)
		if !ok || v <= 0 || v < prev {
			t.Errorf("summary %s = %v (after %v): want a time, at least the one before", key, last.Summary[key], prev)
		}
		prev = v
	}
	if v, ok := last.Summary["prepare_seconds"].(float64); !ok || v <= 0 {
		t.Errorf("summary prepare_seconds = %v", last.Summary["prepare_seconds"])
	}
	if len(lines) != 41 {
		t.Errorf("%d lines, want 40 steps and the summary", len(lines))
	}
}
