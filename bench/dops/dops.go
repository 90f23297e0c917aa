// Package dops runs the comparison of k of Klosowski's dissertation
// (Chapter 7, and the new DOPs of Chapter 6): the paper's five scenes
// flown with k-DOP trees of every k collide has, 6, 8, 12, 14, 18, 20 and
// 26, in all-pairs mode as QuickCD's Chapter 7 runs them, each flight's
// build time, memory, mean and largest query time (each step's query
// timed by its thread's CPU time, the least over Config.Rounds rounds),
// and Nv, Np and Nu (volume tests, triangle tests, node updates), which
// do not depend on the machine; per scene the rank of each k by its mean
// query time, and each k's average rank. The report puts the
// dissertation's conclusions beside ours: its numbers were stripped from
// the text that survives (see the summary's section 0), so only the
// conclusions can be compared.
//
// The 8-, 12- and 20-DOPs are the 14-, 18- and 26-DOPs without the axes
// (package bv). The dissertation found them poor (the 8-DOP by far the
// worst, and sensitive to the model's orientation); the report says
// whether they pay anywhere here. An orientation study flies the axis-
// aligned pipes scene turned by 45° about z, where the 8-DOP's corner
// directions and the axes trade places, beside the scene as made.
//
// Run returns a Report that writes itself as markdown; nothing here
// prints (Config.Progress reports each flight as it starts).
package dops

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"runtime"
	"slices"
	"time"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/bench/internal/flights"
	"github.com/collide3d/collide/bench/internal/md"
	"github.com/collide3d/collide/bench/scenes"
	"github.com/collide3d/collide/bv"
	"github.com/collide3d/collide/flight"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/internal/threadcpu"
	"github.com/collide3d/collide/mesh"
)

// Config configures Run.
type Config struct {
	// Quick flies the small scenes (scenes.Quick), each flight capped at
	// QuickSteps steps unless Steps says otherwise.
	Quick bool
	// Seed selects the scenes' random geometry and paths.
	Seed uint64
	// Scenes lists the scenes to fly (nil: those of scenes.PaperNames()
	// that can be made here).
	Scenes []string
	// Ks lists the k to compare (nil: every bv.Ks).
	Ks []bv.K
	// Steps, when positive, caps every flight.
	Steps int
	// Rounds flies every k that many times on each scene, taking turns,
	// and keeps each step's least time (0: 2, or 1 with Quick).
	Rounds int
	// NoTurned leaves out the flights of the pipes scene turned by 45°.
	NoTurned bool
	// Progress, when not nil, is called with a line as each flight starts.
	Progress func(line string)
}

// QuickSteps caps the flights of a Quick run.
const QuickSteps = 60

// Turned is the name of the pipes scene turned by 45° about z.
const Turned = "pipes-45z"

// Row is one flight: a scene flown with k-DOP trees of one k.
type Row struct {
	Scene string
	K     bv.K
	// Build is the time to build both models (the least over the rounds),
	// Bytes their hierarchies' memory.
	Build time.Duration
	Bytes int64
	// Mean and Max are the mean and the largest query time of a step (the
	// CPU time of the querying thread), each step timed by its least over
	// the rounds.
	Mean, Max time.Duration
	Steps     int
	// Stats are Nv, Np and Nu summed over the steps; Pairs the pairs
	// reported.
	Stats collide.Stats
	Pairs int64
	// Rank is the row's place among the scene's rows by Mean (1: the
	// fastest).
	Rank int
}

// Report holds the figures of a run.
type Report struct {
	Config  Config
	Machine string
	Scenes  []*flights.SceneInfo
	Rows    []Row
	// WallClock says that some step was timed by the wall clock, the
	// thread's CPU time being unreadable here (see fly).
	WallClock bool
	// Skipped says why a scene of a run of every scene could not be made.
	Skipped []string
	Elapsed time.Duration
}

// Run flies every scene with every k. It stops between two flights when
// ctx ends, returning ctx's error.
func Run(ctx context.Context, c Config) (*Report, error) {
	start := time.Now()
	r := &Report{Config: c, Machine: md.Machine()}
	if c.Scenes == nil {
		for _, n := range scenes.PaperNames() {
			if err := scenes.Available(n); err != nil {
				r.Skipped = append(r.Skipped, err.Error())
				continue
			}
			c.Scenes = append(c.Scenes, n)
		}
	}
	if c.Ks == nil {
		c.Ks = slices.Clone(bv.Ks)
	}
	for _, k := range c.Ks {
		if !k.Valid() {
			return nil, fmt.Errorf("dops: unsupported k = %d", int(k))
		}
	}
	size, steps := scenes.Full, c.Steps
	if c.Quick {
		size = scenes.Quick
		if steps <= 0 {
			steps = QuickSteps
		}
	}
	if c.Rounds <= 0 {
		c.Rounds = 2
		if c.Quick {
			c.Rounds = 1
		}
	}
	r.Config = c
	progress := c.Progress
	if progress == nil {
		progress = func(string) {}
	}
	names := slices.Clone(c.Scenes)
	if !c.NoTurned && slices.Contains(names, "pipes") {
		names = append(names, Turned)
	}
	for _, name := range names {
		base := name
		if name == Turned {
			base = "pipes"
		}
		progress(fmt.Sprintf("making scene %s", name))
		sc, info, err := flights.MakeScene(base, size, c.Seed, steps)
		if err != nil {
			return nil, err
		}
		motion := sc.Motion
		if name == Turned {
			turn := geom.FromAxisAngle(geom.V(0, 0, 1), math.Pi/4, geom.Vec3{})
			sc.Env = turnMesh(sc.Env, turn)
			motion = func() (flight.Motion, error) {
				m, err := sc.Motion()
				if err != nil {
					return nil, err
				}
				return turned{m, turn}, nil
			}
			info.Name, info.Doc = name, "pipes turned by 45° about z, the flying model's path with it"
		}
		r.Scenes = append(r.Scenes, info)
		rows := make([]Row, len(c.Ks))
		times := make([][]time.Duration, len(c.Ks))
		for round := range c.Rounds {
			for i, k := range c.Ks {
				if err := ctx.Err(); err != nil {
					return nil, err
				}
				progress(fmt.Sprintf("%s, %v, round %d of %d", name, k, round+1, c.Rounds))
				row, ts, cpu, err := fly(sc, motion, k, info.Steps)
				if err != nil {
					return nil, fmt.Errorf("dops: %s, %v: %w", name, k, err)
				}
				r.WallClock = r.WallClock || !cpu
				row.Scene = name
				if round == 0 {
					rows[i], times[i] = row, ts
					continue
				}
				rows[i].Build = min(rows[i].Build, row.Build)
				for j := range min(len(ts), len(times[i])) {
					times[i][j] = min(times[i][j], ts[j])
				}
			}
		}
		for i := range rows {
			rows[i].Mean, rows[i].Max = meanMax(times[i])
		}
		rank(rows)
		r.Rows = append(r.Rows, rows...)
	}
	r.Elapsed = time.Since(start)
	return r, nil
}

// fly builds sc's trees of k-DOPs of k and flies them along the motion,
// every step finding all pairs, each step's query timed by the CPU time of
// its thread (package internal/threadcpu, the goroutine locked to it): the
// machines these runs share give a flight a fraction of a core, which the
// wall clock would count. Where the thread's clock cannot be read, the
// wall clock times the steps (the Report says which).
func fly(sc *scenes.Scene, motion func() (flight.Motion, error), k bv.K, steps int) (Row, []time.Duration, bool, error) {
	b, err := collide.ParseBV(fmt.Sprintf("kdop%d", int(k)))
	if err != nil {
		return Row{}, nil, false, err
	}
	// The build runs on every CPU: it is timed by the wall clock.
	t0 := time.Now()
	env, fm, err := flights.BuildScene(sc, collide.BuildOptions{BV: b})
	if err != nil {
		return Row{}, nil, false, err
	}
	build := time.Since(t0)
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	m, err := motion()
	if err != nil {
		return Row{}, nil, false, err
	}
	o := collide.QueryOptions{All: true}
	var q collide.Query
	if err := q.Prepare(env, fm, o); err != nil {
		return Row{}, nil, false, err
	}
	row := Row{K: k, Bytes: env.Bytes() + fm.Bytes()}
	var times []time.Duration
	cpu := true
	collided := false
	for steps <= 0 || row.Steps < steps {
		pose, ok := m.Next(collided)
		if !ok {
			break
		}
		a, ok1 := threadcpu.Now()
		res, err := q.Check(env, fm, pose, o)
		z, ok2 := threadcpu.Now()
		if err != nil {
			return Row{}, nil, false, fmt.Errorf("step %d: %w", row.Steps, err)
		}
		cpu = cpu && ok1 && ok2
		times = append(times, z-a)
		row.Steps++
		row.Stats.BVTests += res.Stats.BVTests
		row.Stats.TriTests += res.Stats.TriTests
		row.Stats.Updates += res.Stats.Updates
		row.Pairs += int64(len(res.Pairs))
		collided = res.Collide
	}
	row.Build = build
	return row, times, cpu, nil
}

// meanMax returns the mean and the largest of ts.
func meanMax(ts []time.Duration) (mean, mx time.Duration) {
	if len(ts) == 0 {
		return 0, 0
	}
	var sum time.Duration
	for _, t := range ts {
		sum += t
		mx = max(mx, t)
	}
	return sum / time.Duration(len(ts)), mx
}

// rank sets the rows' Rank by Mean, ties sharing the better place.
func rank(rows []Row) {
	order := make([]int, len(rows))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(rows[a].Mean, rows[b].Mean) })
	for p, i := range order {
		rows[i].Rank = p + 1
		if p > 0 && rows[order[p-1]].Mean == rows[i].Mean {
			rows[i].Rank = rows[order[p-1]].Rank
		}
	}
}

// turnMesh returns m with every vertex turned by p.
func turnMesh(m *mesh.TriMesh, p geom.Pose) *mesh.TriMesh {
	out := &mesh.TriMesh{Verts: make([]geom.Vec3, len(m.Verts)), Tris: m.Tris}
	for i, v := range m.Verts {
		out.Verts[i] = p.Apply(v)
	}
	return out
}

// turned is a motion turned by p: each pose q becomes p∘q, so the flying
// model keeps its place relative to the turned environment.
type turned struct {
	m flight.Motion
	p geom.Pose
}

func (t turned) Next(collided bool) (geom.Pose, bool) {
	q, ok := t.m.Next(collided)
	return t.p.Compose(q), ok
}

// AverageRanks returns each k's mean rank over the scenes, in the order of
// r.Config.Ks. With turned true the turned pipes scene counts too.
func (r *Report) AverageRanks(withTurned bool) map[bv.K]float64 {
	sum, n := map[bv.K]float64{}, map[bv.K]int{}
	for _, row := range r.Rows {
		if row.Scene == Turned && !withTurned {
			continue
		}
		sum[row.K] += float64(row.Rank)
		n[row.K]++
	}
	out := map[bv.K]float64{}
	for k, s := range sum {
		out[k] = s / float64(n[k])
	}
	return out
}
