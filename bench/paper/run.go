// Package paper reproduces the experiments of Klosowski et al., "Efficient
// collision detection using bounding volume hierarchies of k-DOPs" (1998),
// Tables 1 to 7 and Fig. 3, on the generated scenes of package
// bench/scenes, and reports our figures beside the paper's.
//
// Run runs the experiments and returns a Report; the Report writes itself
// as markdown and draws its charts as SVG. Nothing here prints: progress is
// reported through Config.Progress. The report ends with auto's section,
// flown by package bench/versus without the peers.
package paper

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/bench/internal/flights"
	"github.com/collide3d/collide/bench/internal/md"
	"github.com/collide3d/collide/bench/scenes"
	"github.com/collide3d/collide/bench/versus"
	"github.com/collide3d/collide/flight"
	"github.com/collide3d/collide/geom"
)

// SceneInfo describes a scene of the report: its name and sentence, its
// models' triangles, the steps flown, the paper's figures and the time it
// took to make.
type SceneInfo = flights.SceneInfo

// Config configures Run.
type Config struct {
	// Size is the size of the scenes: scenes.Full for the paper's, or
	// scenes.Quick.
	Size scenes.Size
	// Seed selects the scenes' random geometry and paths.
	Seed uint64
	// Scenes lists the scenes to fly (nil: every scene of scenes.Names()
	// that can be made here; see scenes.Available).
	Scenes []string
	// Steps, when positive, caps the steps of every flight.
	Steps int
	// CostTime is the time spent measuring each constant of Table 1
	// (0: 200 ms, or 50 ms for Quick).
	CostTime time.Duration
	// NestedSizes are the triangle counts of the nested-spheres tables
	// (nil: 2,000 and 20,000 as in the paper).
	NestedSizes []int
	// NoAuto leaves out the comparison of auto (package auto) with every
	// kind of tree, in both modes (Report.Auto).
	NoAuto bool
	// Progress, when not nil, is called with a line describing each
	// experiment as it starts.
	Progress func(line string)
}

// Flight is one flight of the report: a scene flown with one kind of tree,
// every step finding all pairs.
type Flight struct {
	Scene string
	BV    string
	Rule  collide.Rule
	Split collide.Split
	// Build is the time to build both models (and prepare the flying
	// one); Bytes their hierarchies' memory.
	Build time.Duration
	Bytes int64
	Sum   *flight.Summary
}

// Report holds the figures of a run.
type Report struct {
	Config  Config
	Machine string
	Scenes  []*SceneInfo
	// Costs (Table 1) are measured on the flying model of the torus
	// scene, per bounding volume.
	Costs map[string]Costs
	// Flights are the flights of Tables 2 to 5, keyed by FlightKey.
	Flights map[FlightKey]*Flight
	// Nested holds Nv for the nested spheres (Tables 6 and 7): by triangle
	// count, then bounding volume, one figure per α of NestedAlphas.
	Nested map[int]map[string][]int64
	// Auto holds the flights of every kind of tree and of auto, in both
	// modes, on every scene (see versus.Report.AutoRows), unless Config.NoAuto.
	Auto *versus.Report
	// Skipped says why each scene left out of a run of every scene (nil
	// Config.Scenes) could not be made here: the scenes of real meshes
	// when Debian's libcgal-demo is not installed.
	Skipped []string
	Elapsed time.Duration
}

// FlightKey names a flight: the scene, the bounding volume and how the
// trees were split.
type FlightKey struct {
	Scene, BV string
	Rule      collide.Rule
	Split     collide.Split
}

// TableBVs are the bounding volumes of Table 2: the paper's four k-DOPs and
// RAPID's OBB-trees (built with the RAPID rule), then ours beyond the paper.
var TableBVs = flights.TableBVs

// TableRules are the splitting rules of Tables 3 to 5, in the paper's
// order.
var TableRules = []collide.Rule{collide.LongestSide, collide.MinSum, collide.MinMax, collide.Splatter}

// NestedAlphas are the gaps of Tables 6 and 7.
func NestedAlphas() []float64 { return slices.Clone(nestedAlphas) }

// key returns the key of a Table 2 flight with bounding volume bv.
func key(scene, bv string) FlightKey {
	k := FlightKey{Scene: scene, BV: bv}
	k.Rule, k.Split = flights.Splitting(bv)
	return k
}

// Run runs the experiments. It stops between two flights when ctx ends,
// returning ctx's error.
func Run(ctx context.Context, c Config) (*Report, error) {
	start := time.Now()
	var skipped []string
	if c.Scenes == nil {
		c.Scenes, skipped = flights.AvailableScenes()
	}
	if c.CostTime <= 0 {
		c.CostTime = 200 * time.Millisecond
		if c.Size == scenes.Quick {
			c.CostTime = 50 * time.Millisecond
		}
	}
	if c.NestedSizes == nil {
		c.NestedSizes = []int{2000, 20000}
	}
	progress := c.Progress
	if progress == nil {
		progress = func(string) {}
	}
	r := &Report{
		Config:  c,
		Machine: md.Machine(),
		Costs:   map[string]Costs{},
		Flights: map[FlightKey]*Flight{},
		Nested:  map[int]map[string][]int64{},
		Skipped: skipped,
	}
	// The flights of Tables 2, 4 and 5 (Table 3's build times are theirs).
	var keys []FlightKey
	for _, s := range c.Scenes {
		for _, bv := range TableBVs {
			keys = append(keys, key(s, bv))
		}
		for _, split := range []collide.Split{collide.Mean, collide.Median} {
			for _, rule := range TableRules {
				k := FlightKey{Scene: s, BV: "kdop18", Rule: rule, Split: split}
				if !slices.Contains(keys, k) {
					keys = append(keys, k)
				}
			}
		}
	}
	done := 0
	for _, name := range c.Scenes {
		progress(fmt.Sprintf("making scene %s", name))
		sc, info, err := flights.MakeScene(name, c.Size, c.Seed, c.Steps)
		if err != nil {
			return nil, err
		}
		r.Scenes = append(r.Scenes, info)
		for _, k := range keys {
			if k.Scene != name {
				continue
			}
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			done++
			progress(fmt.Sprintf("flight %d of %d: %s, %s, %s, %s split", done, len(keys), name, k.BV, k.Rule, k.Split))
			f, err := fly(sc, k, info.Steps)
			if err != nil {
				return nil, fmt.Errorf("%s, %s: %w", name, k.BV, err)
			}
			r.Flights[k] = f
		}
		if name == "torus" {
			for _, bv := range TableBVs {
				progress(fmt.Sprintf("table 1: costs of %s", bv))
				b, err := collide.ParseBV(bv)
				if err != nil {
					return nil, err
				}
				m, err := collide.Build(sc.Fly, collide.BuildOptions{BV: b})
				if err != nil {
					return nil, err
				}
				r.Costs[bv] = MeasureCosts(m.Tree(), c.CostTime)
			}
		}
	}
	for _, n := range c.NestedSizes {
		progress(fmt.Sprintf("tables 6 and 7: nested spheres of %d triangles", n))
		nv, err := nested(n)
		if err != nil {
			return nil, err
		}
		r.Nested[n] = nv
	}
	if !c.NoAuto {
		var err error
		if r.Auto, err = autoComparison(ctx, c, progress); err != nil {
			return nil, err
		}
	}
	r.Elapsed = time.Since(start)
	return r, nil
}

// fly builds the trees of k for sc and flies them for steps steps, every
// step finding all pairs.
func fly(sc *scenes.Scene, k FlightKey, steps int) (*Flight, error) {
	b, err := collide.ParseBV(k.BV)
	if err != nil {
		return nil, err
	}
	t0 := time.Now()
	env, fm, err := flights.BuildScene(sc, collide.BuildOptions{BV: b, Rule: k.Rule, Split: k.Split})
	if err != nil {
		return nil, err
	}
	build := time.Since(t0)
	m, err := sc.Motion()
	if err != nil {
		return nil, err
	}
	sum, err := flight.Fly(env, fm, m, flight.Options{Steps: steps, Query: collide.QueryOptions{All: true}, Front: flight.FrontOff}, nil)
	if err != nil {
		return nil, err
	}
	return &Flight{Scene: sc.Name, BV: k.BV, Rule: k.Rule, Split: k.Split, Build: build,
		Bytes: env.Bytes() + fm.Bytes(), Sum: sum}, nil
}

// nested runs the nested-spheres experiment on spheres of n triangles: Nv
// per bounding volume of the paper and α, with complete flying trees (τ = 1,
// as the paper sets it to match RAPID).
func nested(n int) (map[string][]int64, error) {
	nv := map[string][]int64{}
	bvs := append(slices.Clone(paperKs), "obb")
	opts := func(bv string) (collide.BuildOptions, error) {
		b, err := collide.ParseBV(bv)
		if b == collide.OBB {
			return collide.BuildOptions{BV: b, Rule: collide.RAPID}, err
		}
		return collide.BuildOptions{BV: b, FlyLeaf: 1}, err
	}
	envs := map[string]*collide.Model{}
	for i, a := range nestedAlphas {
		outer, inner, err := scenes.NestedSpheres(n, a)
		if err != nil {
			return nil, err
		}
		for _, bv := range bvs {
			o, err := opts(bv)
			if err != nil {
				return nil, err
			}
			if i == 0 {
				if envs[bv], err = collide.Build(outer, o); err != nil {
					return nil, err
				}
			}
			fly, err := collide.Build(inner, o)
			if err != nil {
				return nil, err
			}
			res, err := collide.Check(envs[bv], fly, geom.Identity(), collide.QueryOptions{All: true})
			if err != nil {
				return nil, err
			}
			if res.Collide {
				return nil, fmt.Errorf("nested spheres of %d triangles, α = %g, %s: the spheres touch (%d pairs)", n, a, bv, len(res.Pairs))
			}
			nv[bv] = append(nv[bv], res.Stats.BVTests)
		}
	}
	return nv, nil
}

// autoComparison flies c's scenes with every kind of TableBVs and with
// auto, in both modes, taking turns (bench/versus without the peers), for
// the report's auto section.
func autoComparison(ctx context.Context, c Config, progress func(string)) (*versus.Report, error) {
	return versus.Run(ctx, versus.Config{Size: c.Size, Seed: c.Seed, Scenes: c.Scenes, Steps: c.Steps,
		BVs: append(slices.Clone(TableBVs), versus.AutoBV), Rounds: 2,
		Progress: func(line string) { progress("auto: " + line) }})
}
