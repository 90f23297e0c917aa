package ch6

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"time"

	"github.com/collide3d/collide/bench/internal/flights"
	"github.com/collide3d/collide/bench/internal/md"
	"github.com/collide3d/collide/bench/scenes"
	"github.com/collide3d/collide/bv"
	"github.com/collide3d/collide/bvh"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/internal/threadcpu"
)

// Config configures Run.
type Config struct {
	// Quick flies the small scenes (scenes.Quick), fewer steps and τ, and
	// 2 rounds.
	Quick bool
	// Seed selects the scenes' random geometry and paths.
	Seed uint64
	// Scenes lists the scenes to fly (nil: scenes.PaperNames()).
	Scenes []string
	// Steps, when positive, caps every flight (default: the scenes'
	// lengths, 100 steps with Quick).
	Steps int
	// Rounds is how many times each variant replays a flight, taking turns
	// with the others; the fastest is kept (0: 3, 2 with Quick).
	Rounds int
	// Ks are the k-DOPs of the split-direction and build tables (nil:
	// bv.Ks).
	Ks []bv.K
	// NoVolumeRules leaves the Min Sum and Min Max rules, whose builds are
	// the slowest, out of the oscillating tree's and the build's tables.
	NoVolumeRules bool
	// Progress, when not nil, is called with a line as each stage starts.
	Progress func(line string)
}

// Replay is one variant's replay of a flight: its build and query times (the
// least of the rounds), its counts, and its answers against the flight's.
type Replay struct {
	// Build is the time to build both trees and prepare the flying one.
	Build time.Duration
	// Query is the time of the whole replay (every pose, all pairs).
	Query time.Duration
	// BVTests, TriTests and Updates are the replay's Nv, Np and Nu.
	BVTests, TriTests, Updates int64
	// Differ counts the poses whose pairs differ from the flight's (0
	// unless a variant is wrong).
	Differ int
}

// DirsRow is one row of the split-direction table on one scene.
type DirsRow struct {
	K bv.K
	// Dirs is the number of split directions: 3 (the axes) or k/2.
	Dirs int
	Replay
	// Volume is the total volume of the environment tree's k-DOPs (every
	// node).
	Volume float64
}

// TauRun is the replay of a flight with one k and τ.
type TauRun struct {
	K   bv.K
	Tau int
	Replay
}

// OscRow compares the oscillating tree with the plain one, for a rule.
type OscRow struct {
	Rule        bvh.Rule
	Plain, Osc  Replay
	Splits      int64 // the oscillating builds' regroupings (both trees)
	Kept        int64 // of which kept the plain split
	PlainHeight int
	OscHeight   int
}

// Skinny is the Pipes scene with its longest triangles halved.
type Skinny struct {
	// Halved is how many triangles of each model were halved, of Tris.
	Halved, Tris [2]int
	Plain, Split Replay
}

// BuildRow is the build time of one rule and k on one scene's environment.
type BuildRow struct {
	K    bv.K
	Rule bvh.Rule
	Tris int
	Time time.Duration
}

// Scene holds the results of one scene.
type Scene struct {
	Info    *flights.SceneInfo
	Steps   int
	Pairs   int64 // pairs over the flight
	Dirs    []DirsRow
	Tau     []TauRun
	Osc     []OscRow
	Skinny  *Skinny
	Overlap *Overlap
	Build   []BuildRow
}

// Report holds the figures of a run.
type Report struct {
	Config  Config
	Machine string
	Load    string
	Scenes  []*Scene
	Elapsed time.Duration
}

// TauQuick and TauFull are the thresholds the τ sweep tries.
var (
	TauFull  = []int{1, 2, 4, 8, 16, 32, 64, 128}
	TauQuick = []int{1, 2, 4, 8, 16, 32}
)

// TauKs are the k of the dissertation's τ sweeps.
var TauKs = []bv.K{bv.K6, bv.K14, bv.K18, bv.K26}

// Run runs the experiments. It stops between two stages when ctx ends,
// returning ctx's error.
func Run(ctx context.Context, c Config) (*Report, error) {
	start := time.Now()
	if c.Scenes == nil {
		c.Scenes = scenes.PaperNames()
	}
	if c.Rounds <= 0 {
		c.Rounds = 3
		if c.Quick {
			c.Rounds = 2
		}
	}
	if c.Steps <= 0 && c.Quick {
		c.Steps = 100
	}
	if c.Ks == nil {
		c.Ks = slices.Clone(bv.Ks)
	}
	progress := c.Progress
	if progress == nil {
		progress = func(string) {}
	}
	r := &Report{Config: c, Machine: md.Machine(), Load: md.LoadAverage()}
	size := scenes.Full
	if c.Quick {
		size = scenes.Quick
	}
	for _, name := range c.Scenes {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		progress("making scene " + name)
		sc, info, err := flights.MakeScene(name, size, c.Seed, c.Steps)
		if err != nil {
			return nil, err
		}
		f, err := record(sc, info.Steps)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		s := &Scene{Info: info, Steps: len(f.poses), Pairs: f.pairs}
		r.Scenes = append(r.Scenes, s)
		stages := []struct {
			what string
			run  func() error
		}{
			{"split directions", func() (err error) { s.Dirs, err = dirs(ctx, c, f); return }},
			{"oscillating tree", func() (err error) { s.Osc, err = oscillate(ctx, c, f); return }},
			{"overlap tests", func() (err error) { s.Overlap, err = overlapTests(f, c.Rounds); return }},
			{"build times", func() (err error) { s.Build, err = builds(ctx, c, f); return }},
			{"leaf threshold", func() (err error) { s.Tau, err = taus(ctx, c, f); return }},
		}
		if name == "pipes" {
			stages = append(stages, struct {
				what string
				run  func() error
			}{"skinny triangles", func() (err error) { s.Skinny, err = skinny(f, c.Rounds); return }})
		}
		for _, st := range stages {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			progress(fmt.Sprintf("%s: %s", name, st.what))
			if err := st.run(); err != nil {
				return nil, fmt.Errorf("%s, %s: %w", name, st.what, err)
			}
		}
	}
	r.Elapsed = time.Since(start)
	return r, nil
}

// flight is a scene's flight, flown once with the default trees: its
// poses and, per pose, the digest of its pairs.
type flight struct {
	sc    *scenes.Scene
	poses []geom.Pose
	sums  []pairSum
	pairs int64
}

// pairSum is an order-free digest of a set of pairs.
type pairSum struct {
	n   int
	sum uint64
}

func (p *pairSum) add(e, f int32) {
	p.n++
	x := uint64(uint32(e))<<32 | uint64(uint32(f))
	x ^= x >> 31
	x *= 0x9e3779b97f4a7c15
	x ^= x >> 29
	p.sum += x
}

// record flies sc's motion for steps steps with the default trees, every
// step finding all pairs.
func record(sc *scenes.Scene, steps int) (*flight, error) {
	env, err := bvh.Build(sc.Env, bvh.Options{})
	if err != nil {
		return nil, err
	}
	fly, err := bvh.Build(sc.Fly, bvh.Options{})
	if err != nil {
		return nil, err
	}
	m, err := sc.Motion()
	if err != nil {
		return nil, err
	}
	f := &flight{sc: sc}
	var s bvh.Scratch
	hit := false
	for range steps {
		p, ok := m.Next(hit)
		if !ok {
			break
		}
		var ps pairSum
		bvh.Collide(env, fly, p, bvh.QueryOptions{All: true}, &s, func(q bvh.Pair) bool { ps.add(q.Env, q.Fly); return true })
		f.poses = append(f.poses, p)
		f.sums = append(f.sums, ps)
		f.pairs += int64(ps.n)
		hit = ps.n > 0
	}
	return f, nil
}

// trees are two built trees and the time they took.
type trees struct {
	env, fly *bvh.Tree
	build    time.Duration
}

// buildBoth builds f's trees with o (the flying one prepared to fly).
func buildBoth(f *flight, o bvh.Options) (trees, error) {
	t0 := time.Now()
	env, err := bvh.Build(f.sc.Env, o)
	if err != nil {
		return trees{}, err
	}
	fly, err := bvh.Build(f.sc.Fly, o)
	if err != nil {
		return trees{}, err
	}
	fly.PrepareFlying(env.K())
	return trees{env, fly, time.Since(t0)}, nil
}

// clock returns the calling thread's CPU time where the system gives it
// (waiting for a processor on a loaded machine does not count), else the
// wall clock. Callers lock their goroutine to its thread.
func clock() time.Duration {
	if d, ok := threadcpu.Now(); ok {
		return d
	}
	return time.Duration(time.Now().UnixNano())
}

// replay queries every pose of f with t, all pairs, and returns the time
// (the thread's CPU time) and the counts, the answers checked against f's.
func replay(f *flight, t trees, s *bvh.Scratch) Replay {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var r Replay
	var ps pairSum
	fn := func(q bvh.Pair) bool { ps.add(q.Env, q.Fly); return true }
	t0 := clock()
	for i, p := range f.poses {
		ps = pairSum{}
		st := bvh.Collide(t.env, t.fly, p, bvh.QueryOptions{All: true}, s, fn)
		r.BVTests += st.BVTests
		r.TriTests += st.TriTests
		r.Updates += st.Updates
		if ps != f.sums[i] {
			r.Differ++
		}
	}
	r.Query = clock() - t0
	r.Build = t.build
	return r
}

// compare replays f with each of ts, rounds times taking turns, and keeps
// each one's fastest round.
func compare(f *flight, ts []trees, rounds int) []Replay {
	runs := make([]Replay, len(ts))
	var s bvh.Scratch
	for round := range rounds {
		for i, t := range ts {
			r := replay(f, t, &s)
			if round == 0 || r.Query < runs[i].Query {
				runs[i] = r
			}
		}
	}
	return runs
}

// dirs builds and flies the trees of every k of c.Ks split along the axes
// and along the k/2 directions.
func dirs(ctx context.Context, c Config, f *flight) ([]DirsRow, error) {
	var rows []DirsRow
	var ts []trees
	for _, k := range c.Ks {
		for _, all := range []bool{false, true} {
			if all && k.Slabs() == 3 {
				continue
			}
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			t, err := buildBoth(f, bvh.Options{K: k, SplitDirs: all})
			if err != nil {
				return nil, err
			}
			row := DirsRow{K: k, Dirs: 3}
			if all {
				row.Dirs = k.Slabs()
			}
			row.Volume = totalVolume(t.env)
			rows = append(rows, row)
			ts = append(ts, t)
		}
	}
	for i, r := range compare(f, ts, c.Rounds) {
		rows[i].Replay = r
	}
	return rows, nil
}

// totalVolume returns the sum of the volumes of t's k-DOPs.
func totalVolume(t *bvh.Tree) float64 {
	v := 0.0
	for i := range t.Nodes() {
		d, _, _, _ := t.Node(i, nil)
		v += d.Volume()
	}
	return v
}

// OscRules are the rules the oscillating tree is measured with.
var OscRules = []bvh.Rule{bvh.Splatter, bvh.MinSum}

// oscillate flies the 18-DOP trees of each of OscRules, plain and
// oscillating 2 levels.
func oscillate(ctx context.Context, c Config, f *flight) ([]OscRow, error) {
	var rows []OscRow
	for _, rule := range OscRules {
		if c.NoVolumeRules && (rule == bvh.MinSum || rule == bvh.MinMax) {
			continue
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		plain, err := buildBoth(f, bvh.Options{Rule: rule})
		if err != nil {
			return nil, err
		}
		osc, err := buildBoth(f, bvh.Options{Rule: rule, Oscillate: 2})
		if err != nil {
			return nil, err
		}
		runs := compare(f, []trees{plain, osc}, c.Rounds)
		row := OscRow{Rule: rule, Plain: runs[0], Osc: runs[1], PlainHeight: plain.env.Height(), OscHeight: osc.env.Height()}
		for _, t := range []*bvh.Tree{osc.env, osc.fly} {
			s, k := t.Regroupings()
			row.Splits += s
			row.Kept += k
		}
		rows = append(rows, row)
	}
	return rows, nil
}

// taus flies f with the k of TauKs in c.Ks and each τ.
func taus(ctx context.Context, c Config, f *flight) ([]TauRun, error) {
	tv := TauFull
	if c.Quick {
		tv = TauQuick
	}
	var rows []TauRun
	for _, k := range TauKs {
		if !slices.Contains(c.Ks, k) {
			continue
		}
		env, err := bvh.Build(f.sc.Env, bvh.Options{K: k})
		if err != nil {
			return nil, err
		}
		var ts []trees
		for _, tau := range tv {
			if tau > len(f.sc.Fly.Tris) && tau > tv[0] {
				break // the whole model is one leaf already
			}
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			fly, err := bvh.Build(f.sc.Fly, bvh.Options{K: k, FlyLeaf: tau})
			if err != nil {
				return nil, err
			}
			fly.PrepareFlying(k)
			ts = append(ts, trees{env: env, fly: fly})
			rows = append(rows, TauRun{K: k, Tau: tau})
		}
		for i, r := range compare(f, ts, c.Rounds) {
			rows[len(rows)-len(ts)+i].Replay = r
		}
	}
	return rows, nil
}

// BuildRules are the rules of the build table: the chapter's Longest Side
// and Splatter, and the volume rules.
var BuildRules = []bvh.Rule{bvh.LongestSide, bvh.Splatter, bvh.MinSum, bvh.MinMax}

// builds times the build of f's environment with each rule and k of
// c.Ks (the least of the rounds).
func builds(ctx context.Context, c Config, f *flight) ([]BuildRow, error) {
	var rows []BuildRow
	for _, k := range c.Ks {
		for _, rule := range BuildRules {
			if c.NoVolumeRules && (rule == bvh.MinSum || rule == bvh.MinMax) {
				continue
			}
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			row := BuildRow{K: k, Rule: rule, Tris: len(f.sc.Env.Tris)}
			for round := range c.Rounds {
				t0 := time.Now()
				if _, err := bvh.Build(f.sc.Env, bvh.Options{K: k, Rule: rule}); err != nil {
					return nil, err
				}
				if d := time.Since(t0); round == 0 || d < row.Time {
					row.Time = d
				}
			}
			rows = append(rows, row)
		}
	}
	return rows, nil
}
