package flight_test

import (
	"errors"
	"math/rand/v2"
	"runtime"
	"runtime/debug"
	"testing"
	"time"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/flight"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh/gen"
)

// TestTimeStats checks the time statistics on known sets of durations, in
// shuffled order: 1 to n nanoseconds, whose nearest-rank q-quantile is
// ⌈q·n⌉.
func TestTimeStats(t *testing.T) {
	tests := []struct {
		n    int
		want flight.TimeStats
	}{
		{0, flight.TimeStats{}},
		{1, flight.TimeStats{Mean: 1, Median: 1, P99: 1, P999: 1, Max: 1}},
		{2, flight.TimeStats{Mean: 1, Median: 1, P99: 2, P999: 2, Max: 2}},
		{99, flight.TimeStats{Mean: 50, Median: 50, P99: 99, P999: 99, Max: 99}},
		{100, flight.TimeStats{Mean: 50, Median: 50, P99: 99, P999: 100, Max: 100}},
		{999, flight.TimeStats{Mean: 500, Median: 500, P99: 990, P999: 999, Max: 999}},
		{1000, flight.TimeStats{Mean: 500, Median: 500, P99: 990, P999: 999, Max: 1000}},
		{2000, flight.TimeStats{Mean: 1000, Median: 1000, P99: 1980, P999: 1998, Max: 2000}},
		{10000, flight.TimeStats{Mean: 5000, Median: 5000, P99: 9900, P999: 9990, Max: 10000}},
		{100000, flight.TimeStats{Mean: 50000, Median: 50000, P99: 99000, P999: 99900, Max: 100000}},
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, tc := range tests {
		s := &flight.Summary{Steps: tc.n}
		for i := range tc.n {
			s.Times = append(s.Times, time.Duration(i+1))
		}
		rng.Shuffle(len(s.Times), func(i, j int) { s.Times[i], s.Times[j] = s.Times[j], s.Times[i] })
		got := s.TimeStats()
		if got != tc.want {
			t.Errorf("%d steps: %+v, want %+v", tc.n, got, tc.want)
		}
		for _, q := range []struct {
			q    float64
			want time.Duration
		}{{0.5, got.Median}, {0.99, got.P99}, {0.999, got.P999}, {1, got.Max}} {
			if d := s.Quantile(q.q); d != q.want {
				t.Errorf("%d steps: Quantile(%v) = %v, TimeStats says %v", tc.n, q.q, d, q.want)
			}
		}
	}
	// The tail is the tail: one slow step in 1,000 is P99.9's business
	// only from 1,001 steps on.
	s := &flight.Summary{Times: make([]time.Duration, 1001)}
	for i := range s.Times {
		s.Times[i] = 10
	}
	s.Times[500], s.Times[900] = 5000, 4000
	if ts := s.TimeStats(); ts.P99 != 10 || ts.P999 != 4000 || ts.Max != 5000 {
		t.Errorf("two slow steps in 1,001: %+v", ts)
	}
}

// allocCounter is a Motion that reads the allocation count before each
// step's query, and a step callback that reads it after.
type allocCounter struct {
	m       flight.Motion
	before  uint64
	perStep []uint64
}

func (a *allocCounter) Next(collided bool) (geom.Pose, bool) {
	p, ok := a.m.Next(collided)
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	a.before = ms.Mallocs
	return p, ok
}

func (a *allocCounter) step(*flight.Step) error {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	a.perStep = append(a.perStep, ms.Mallocs-a.before)
	return nil
}

// TestFlyPrepares checks that Fly prepares its query before the first
// step: no step, the first included, allocates (every volume, both modes,
// the flying model new to the flight, its k-DOP view not built), and the
// summary says how long preparing took. Each step's allocations are
// counted from just before its query to its callback, with GOMAXPROCS 1
// and the collector off: MemStats.Mallocs also counts the runtime's own
// allocations (a GC mark worker's sudog), which a collection started by
// the building of the models could make in the middle of a step.
func TestFlyPrepares(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	envMesh := gen.Must(gen.Tetrahedra(300, geom.AABB{Max: geom.Vec3{X: 16, Y: 16, Z: 16}}, 0.8, 3))
	flyMesh := gen.Must(gen.Torus(geom.Vec3{}, 1, 0.3, 1500))
	for _, b := range []collide.BV{collide.KDOP18, collide.KDOP6, collide.OBB, collide.Sphere, collide.AABB, collide.RSS, collide.BoxTree} {
		for _, all := range []bool{false, true} {
			env := build(t, envMesh, b)
			fly := build(t, flyMesh, b)
			mo, err := flight.NewBilliard(flight.BilliardConfig{
				Start: geom.Vec3{X: 8, Y: 8, Z: 8}, Bounds: envMesh.Bounds(), Speed: 0.2, Spin: 0.05, Turn: 0.3, Seed: 4,
			})
			if err != nil {
				t.Fatal(err)
			}
			a := &allocCounter{m: mo, perStep: make([]uint64, 0, 100)}
			runtime.GC()
			s, err := flight.Fly(env, fly, a, flight.Options{Steps: 100, Query: collide.QueryOptions{All: all}}, a.step)
			if err != nil {
				t.Fatal(err)
			}
			if s.Colliding == 0 || s.Colliding == s.Steps {
				t.Errorf("%v: %d of %d steps in contact: the test wants both", b, s.Colliding, s.Steps)
			}
			if s.Prepare <= 0 {
				t.Errorf("%v: Summary.Prepare %v", b, s.Prepare)
			}
			for i, n := range a.perStep {
				if n != 0 {
					t.Errorf("%v, all %v: step %d made %d allocations, want 0", b, all, i, n)
					break
				}
			}
		}
	}
}

// TestFlyPrepareError checks that Fly returns the error of preparing
// models that cannot fly together, before any step.
func TestFlyPrepareError(t *testing.T) {
	m := gen.Must(gen.Icosphere(geom.Vec3{}, 1, 80))
	steps := 0
	s, err := flight.Fly(build(t, m, collide.KDOP18), build(t, m, collide.OBB), &flight.Recorded{Poses: []geom.Pose{geom.Identity()}},
		flight.Options{Steps: 1}, func(*flight.Step) error { steps++; return nil })
	if !errors.Is(err, collide.ErrInvalidQuery) || steps != 0 || s.Steps != 0 {
		t.Errorf("%v after %d steps, want ErrInvalidQuery before any", err, steps)
	}
}
