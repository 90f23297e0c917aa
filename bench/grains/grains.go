package grains

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync/atomic"
	"time"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/bench/internal/md"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh/gen"
	"github.com/collide3d/collide/world"
)

// Sizes are the triangles per torus of a full run's medium-grain pairs
// (the thesis's 42, 132 and 442, and bigger); QuickSizes a quick run's.
var (
	Sizes      = []int{42, 132, 442, 1500, 5000, 20000}
	QuickSizes = []int{42, 132, 442, 1500}
)

// Thesis holds the medium grain's speed-ups of the thesis (section 6.6,
// two processes per pair, two objects, 5000 frames), by triangles per
// object: with the arbitrary pairwise test, and with box-trees.
var Thesis = map[int][2]float64{42: {1.15, math.NaN()}, 132: {1.73, math.NaN()}, 442: {1.76, 1.83}}

// Config configures Run.
type Config struct {
	// Seed is the concurrent module's scene's seed.
	Seed uint64
	// Quick makes a short run: QuickSizes, fewer frames, 2 rounds.
	Quick bool
	// Sizes are the triangles per torus of the medium-grain pairs (nil:
	// Sizes, or QuickSizes).
	Sizes []int
	// Frames are the poses of each medium-grain flight and the frames of
	// the application's loop (0: 1000, 200 with Quick).
	Frames int
	// Rounds is how many times each way runs, taking turns; the fastest
	// round is kept (0: 3, 2 with Quick).
	Rounds int
	// NoMedium and NoConcurrent leave out a part.
	NoMedium, NoConcurrent bool
	// Progress, when not nil, is called with a line as each run starts.
	Progress func(line string)
}

// MediumRun is one flight of two tori, sequential and in medium grain.
type MediumRun struct {
	Tris   [2]int // the two models' triangles
	BV     collide.BV
	All    bool
	Frames int
	// Hits is the frames in contact.
	Hits int
	// Seq and Medium are the mean query time (of the fastest round).
	Seq, Medium time.Duration
	// Differ counts the frames whose answers differ (in contact or not;
	// all pairs: the pairs): 0 unless there is a bug.
	Differ int
}

// WorldRun is one flight of two tori as a world of two objects, stepped
// each way.
type WorldRun struct {
	Tris int
	// Step is the mean step time (of the fastest round) of each Way.
	Step []time.Duration
}

// Ways are the ways a WorldRun steps its world: one worker; two workers,
// dynamic and static (the coarse grain: with one pair, one works); two
// workers with Options.Medium.
var Ways = []string{"1 worker", "2 workers, dynamic", "2 workers, static", "2 workers, medium grain"}

// ConcurrentRun is the application's loop with the world stepped in it
// and beside it (world.Concurrent).
type ConcurrentRun struct {
	Objects, Tris, Frames int
	// Render is the application's own work per frame (a busy loop), set to
	// the mean step of the loop run without it.
	Render time.Duration
	// InLoop and Beside are the application's frames per second.
	InLoop, Beside float64
	// Stepped is the frames the module stepped (the others merged into
	// later ones); Latency its results' mean and largest lag, in frames:
	// the application's frame when the result came, less the frame it is
	// for; Delay the mean time from a frame's Commit to its result.
	Stepped              int
	MeanLag, MaxLag      float64
	Delay                time.Duration
	ContactsPerFrameLoop float64
}

// Report holds the figures of Run.
type Report struct {
	Config     Config
	Machine    string
	Capacity   float64 // how many times as fast two goroutines ran a pure loop as one, before the runs
	Load       string
	Medium     []*MediumRun
	World      []*WorldRun
	Concurrent *ConcurrentRun
	Elapsed    time.Duration
}

// Run measures the medium grain and the concurrent module (see Report).
// It stops between two runs when ctx ends, returning ctx's error.
func Run(ctx context.Context, c Config) (*Report, error) {
	start := time.Now()
	if c.Sizes == nil {
		c.Sizes = Sizes
		if c.Quick {
			c.Sizes = QuickSizes
		}
	}
	if c.Frames <= 0 {
		c.Frames = 1000
		if c.Quick {
			c.Frames = 200
		}
	}
	if c.Rounds <= 0 {
		c.Rounds = 3
		if c.Quick {
			c.Rounds = 2
		}
	}
	for _, n := range c.Sizes {
		if n < 18 {
			return nil, fmt.Errorf("grains: a torus of %d triangles (at least 18)", n)
		}
	}
	progress := func(format string, args ...any) {
		if c.Progress != nil {
			c.Progress(fmt.Sprintf(format, args...))
		}
	}
	r := &Report{Config: c, Machine: md.Machine(), Capacity: md.Capacity(2), Load: md.LoadAverage()}
	if !c.NoMedium {
		for _, n := range c.Sizes {
			for _, b := range []collide.BV{collide.KDOP18, collide.BoxTree} {
				env, fly, err := pair(n, b)
				if err != nil {
					return nil, err
				}
				poses := flight(c.Frames)
				for _, all := range []bool{false, true} {
					if err := ctx.Err(); err != nil {
						return nil, err
					}
					progress("medium grain: 2×%d triangles, %v, all=%v", n, b, all)
					r.Medium = append(r.Medium, medium(env, fly, poses, b, all, c.Rounds))
				}
				if b == collide.KDOP18 {
					if err := ctx.Err(); err != nil {
						return nil, err
					}
					progress("world of two: 2×%d triangles", n)
					wr, err := worldRun(env, fly, poses, c.Rounds)
					if err != nil {
						return nil, err
					}
					r.World = append(r.World, wr)
				}
			}
		}
	}
	if !c.NoConcurrent {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		progress("concurrent module")
		cr, err := concurrent(c)
		if err != nil {
			return nil, err
		}
		r.Concurrent = cr
	}
	r.Elapsed = time.Since(start)
	return r, nil
}

// pair returns two tori of about n triangles each, built with b.
func pair(n int, b collide.BV) (env, fly *collide.Model, err error) {
	m, err := gen.Torus(geom.Vec3{}, 1, 0.3, n)
	if err != nil {
		return nil, nil, err
	}
	if env, err = collide.Build(m, collide.BuildOptions{BV: b}); err != nil {
		return nil, nil, err
	}
	if fly, err = collide.Build(m, collide.BuildOptions{BV: b}); err != nil {
		return nil, nil, err
	}
	return env, fly, nil
}

// flight returns n poses of a torus tumbling through and around another
// at the origin: linked with it, grazing it and apart.
func flight(n int) []geom.Pose {
	ps := make([]geom.Pose, n)
	for i := range ps {
		a := 2 * math.Pi * float64(i) / float64(n)
		d := 1.0 + 1.2*math.Sin(3*a)
		ps[i] = geom.FromAxisAngle(geom.V(1, 0.3*math.Cos(a), 0.2), math.Pi/2+0.4*math.Sin(5*a),
			geom.V(d*math.Cos(a), d*math.Sin(a), 0.3*math.Sin(7*a)))
	}
	return ps
}

// medium flies fly against env at poses sequentially and in medium grain,
// rounds times each, taking turns, and compares their answers.
func medium(env, fly *collide.Model, poses []geom.Pose, b collide.BV, all bool, rounds int) *MediumRun {
	x := &MediumRun{Tris: [2]int{len(env.Mesh().Tris), len(fly.Mesh().Tris)}, BV: b, All: all, Frames: len(poses)}
	var sq, mq collide.Query
	o := collide.QueryOptions{All: all}
	mo := o
	mo.Medium = true
	want := make([][]collide.Pair, len(poses))
	for i, p := range poses {
		res, _ := sq.Collide(env, geom.Pose{}, fly, p, o)
		want[i] = slices.Clone(res.Pairs)
		if res.Collide {
			x.Hits++
		}
		got, _ := mq.Collide(env, geom.Pose{}, fly, p, mo)
		if got.Collide != res.Collide || all && !slices.Equal(got.Pairs, res.Pairs) {
			x.Differ++
		}
	}
	x.Seq, x.Medium = time.Duration(math.MaxInt64), time.Duration(math.MaxInt64)
	for range rounds {
		x.Seq = min(x.Seq, timeFlight(&sq, env, fly, poses, o))
		x.Medium = min(x.Medium, timeFlight(&mq, env, fly, poses, mo))
	}
	return x
}

// timeFlight returns the mean time of q's queries of fly at poses.
func timeFlight(q *collide.Query, env, fly *collide.Model, poses []geom.Pose, o collide.QueryOptions) time.Duration {
	t0 := time.Now()
	for _, p := range poses {
		q.Collide(env, geom.Pose{}, fly, p, o)
	}
	return time.Since(t0) / time.Duration(len(poses))
}

// worldRun steps a world of env and fly (moving at poses) each of Ways,
// rounds times, taking turns.
func worldRun(env, fly *collide.Model, poses []geom.Pose, rounds int) (*WorldRun, error) {
	x := &WorldRun{Tris: len(env.Mesh().Tris)}
	opts := []world.Options{{Workers: 1}, {Workers: 2}, {Workers: 2, Static: true}, {Workers: 2, Medium: true}}
	x.Step = make([]time.Duration, len(opts))
	for i := range x.Step {
		x.Step[i] = time.Duration(math.MaxInt64)
	}
	for range rounds {
		for i, o := range opts {
			o.Fronts = world.FrontOff
			w, err := world.New(o)
			if err != nil {
				return nil, err
			}
			if _, err := w.Add(env, geom.Pose{}, world.ObjectOptions{Static: true}); err != nil {
				return nil, err
			}
			id, err := w.Add(fly, poses[0], world.ObjectOptions{})
			if err != nil {
				return nil, err
			}
			t0 := time.Now()
			for _, p := range poses {
				if err := w.Move(id, p); err != nil {
					return nil, err
				}
				if _, err := w.Step(); err != nil {
					return nil, err
				}
			}
			x.Step[i] = min(x.Step[i], time.Since(t0)/time.Duration(len(poses)))
		}
	}
	return x, nil
}

// concurrent runs the application's loop of Config c with the world
// stepped in it, then beside it.
func concurrent(c Config) (*ConcurrentRun, error) {
	const objects, tris = 40, 442
	m, err := gen.Torus(geom.Vec3{}, 1, 0.3, tris)
	if err != nil {
		return nil, err
	}
	model, err := collide.Build(m, collide.BuildOptions{})
	if err != nil {
		return nil, err
	}
	frames := c.Frames
	// Brownian tori in a box: every object moves at every frame.
	r := rand.New(rand.NewPCG(c.Seed, 6))
	poses := make([][]geom.Pose, frames+1)
	cur := make([]geom.Pose, objects)
	vel := make([]geom.Vec3, objects)
	for i := range cur {
		cur[i] = geom.FromAxisAngle(geom.V(r.NormFloat64(), r.NormFloat64(), r.NormFloat64()), r.Float64()*6,
			geom.V(8*r.Float64(), 8*r.Float64(), 8*r.Float64()))
	}
	for f := range poses {
		for i := range cur {
			vel[i] = vel[i].Scale(0.9).Add(geom.V(r.NormFloat64(), r.NormFloat64(), r.NormFloat64()).Scale(0.02))
			t := cur[i].T.Add(vel[i])
			t = geom.V(min(max(t.X, 0), 8), min(max(t.Y, 0), 8), min(max(t.Z, 0), 8))
			cur[i] = geom.FromAxisAngle(geom.V(1, 2, 3), 0.01*float64(f)+float64(i), t)
		}
		poses[f] = slices.Clone(cur)
	}
	newWorld := func() (*world.World, error) {
		w, err := world.New(world.Options{Workers: 1})
		if err != nil {
			return nil, err
		}
		for _, p := range poses[0] {
			if _, err := w.Add(model, p, world.ObjectOptions{}); err != nil {
				return nil, err
			}
		}
		_, err = w.Step()
		return w, err
	}
	x := &ConcurrentRun{Objects: objects, Tris: len(model.Mesh().Tris), Frames: frames}
	// The step's cost alone: the render is set to it, where running the
	// two side by side could at best double the frame rate.
	{
		w, err := newWorld()
		if err != nil {
			return nil, err
		}
		t0 := time.Now()
		contacts := 0
		for f := 1; f <= frames; f++ {
			for i, p := range poses[f] {
				w.Move(world.ID(i), p)
			}
			st, err := w.Step()
			if err != nil {
				return nil, err
			}
			contacts += st.Contacts
		}
		x.Render = time.Since(t0) / time.Duration(frames)
		x.ContactsPerFrameLoop = float64(contacts) / float64(frames)
	}
	units := calibrate(x.Render)
	x.InLoop, x.Beside = 0, 0
	for range c.Rounds {
		// In the loop.
		w, err := newWorld()
		if err != nil {
			return nil, err
		}
		t0 := time.Now()
		for f := 1; f <= frames; f++ {
			for i, p := range poses[f] {
				w.Move(world.ID(i), p)
			}
			if _, err := w.Step(); err != nil {
				return nil, err
			}
			spin(units)
		}
		x.InLoop = max(x.InLoop, float64(frames)/time.Since(t0).Seconds())
		// Beside it.
		if w, err = newWorld(); err != nil {
			return nil, err
		}
		var appFrame atomic.Int64
		committed := make([]time.Time, frames+1)
		var lags []float64
		var delay time.Duration
		cm := world.NewConcurrent(w, world.ConcurrentOptions{Done: func(fr *world.Frame) {
			lags = append(lags, float64(appFrame.Load()-fr.Frame))
			delay += time.Since(committed[fr.Frame])
		}})
		t0 = time.Now()
		for f := 1; f <= frames; f++ {
			for i, p := range poses[f] {
				cm.Move(world.ID(i), p)
			}
			committed[f] = time.Now()
			cm.Commit(int64(f))
			appFrame.Store(int64(f))
			spin(units)
		}
		fps := float64(frames) / time.Since(t0).Seconds()
		if err := cm.Close(); err != nil {
			return nil, err
		}
		if fps > x.Beside {
			x.Beside = fps
			x.Stepped = len(lags)
			x.MeanLag, x.MaxLag = md.Mean(lags), slices.Max(lags)
			x.Delay = delay / time.Duration(len(lags))
		}
	}
	return x, nil
}

// spin runs n units of a pure arithmetic loop: the application's own work.
func spin(n int) float64 {
	s := 1.0
	for i := range n * 1000 {
		s = s*1.0000001 + float64(i&7)
	}
	return s
}

var sink float64

// calibrate returns the units of spin that take about d.
func calibrate(d time.Duration) int {
	best := time.Duration(math.MaxInt64)
	for range 5 {
		t0 := time.Now()
		sink += spin(100)
		best = min(best, time.Since(t0))
	}
	return max(1, int(float64(d)/float64(best)*100))
}

// cores is GOMAXPROCS, for the report.
func cores() int { return runtime.GOMAXPROCS(0) }
