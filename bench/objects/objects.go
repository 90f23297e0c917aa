// Package objects runs the object-level experiments of Zachmann's thesis
// (sections 3.4.1 and 3.4.2): two convex objects (spheres and cones of
// 2×60, 2×120 and 2×250 polygons) tumbling in a cage, tested with the tree
// test and with the convex test (collide.MethodConvex: a separating plane
// kept per pair, GJK for a new one, each proved exactly); two cones of 100
// polygons each with the separating-plane cache, whose thesis version
// (the perceptron, capped) errs and ours does not; and a world of 10³
// small convex objects, every pair tested with each method. Every frame's
// answer is checked to be the same with both methods.
//
// Run runs them and returns a Report, which writes itself as markdown
// (`collide bench --objects` writes it as objects.md).
package objects

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/bench/internal/md"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh"
	"github.com/collide3d/collide/mesh/gen"
	"github.com/collide3d/collide/world"
)

// Config configures Run. Zero fields take the defaults said.
type Config struct {
	// Quick picks the short run: 1,000 frames a cage, 10 world steps.
	Quick bool
	// Seed selects the motions.
	Seed uint64
	// Frames is the number of frames of each cage (0: 10,000, as the
	// thesis's averages; 1,000 with Quick).
	Frames int
	// Objects is the number of objects of the world (0: 1,000) and Steps
	// its steps (0: 100; 10 with Quick).
	Objects, Steps int
	// Rounds is how many times each run is timed, the methods taking
	// turns; a run's time is the least of its rounds' (0: 3; 2 with
	// Quick).
	Rounds int
	// Progress, when not nil, is called with a line as each run starts.
	Progress func(line string)
}

// Method is what one method measured on a run.
type Method struct {
	Method collide.Method
	// Time is the least, over the rounds, of the run's query time (the
	// world: of its exact tests, Narrow).
	Time time.Duration
	// Queries counts the pairs tested; Stats sums their counts.
	Queries int64
	Stats   collide.Stats
}

// PerQuery returns the mean time of a pair's test.
func (m *Method) PerQuery() time.Duration { return m.Time / time.Duration(max(m.Queries, 1)) }

// Cage is one cage run: two objects of one kind tumbling in the unit cube,
// bouncing off its walls and off each other.
type Cage struct {
	Kind  string // "sphere" or "cone"
	Polys int    // triangles of each object
	// Frames counts the frames, Contacts those where the objects touch,
	// Apart those where they do not but the convex test left the frame to
	// the tree test (its fall-backs without contact).
	Frames, Contacts, Apart int
	Tree, Convex            Method
}

// World is the world run: Objects convex objects in Brownian motion.
type World struct {
	Objects, Steps  int
	Pairs, Contacts int64 // pairs tested and pairs in contact, summed over the steps
	Tree, Convex    Method
}

// Report is Run's result.
type Report struct {
	Config  Config
	Machine string
	Elapsed time.Duration
	// Cages are the convex-vs-arbitrary runs (spheres and cones, 2×60,
	// 2×120, 2×250); Planes the separating-plane run (two cones of 100).
	Cages  []*Cage
	Planes *Cage
	World  *World
}

// Run runs the experiments.
func Run(ctx context.Context, c Config) (*Report, error) {
	start := time.Now()
	if c.Frames <= 0 {
		c.Frames = 10000
		if c.Quick {
			c.Frames = 1000
		}
	}
	if c.Objects <= 0 {
		c.Objects = 1000
	}
	if c.Steps <= 0 {
		c.Steps = 100
		if c.Quick {
			c.Steps = 10
		}
	}
	if c.Rounds <= 0 {
		c.Rounds = 3
		if c.Quick {
			c.Rounds = 2
		}
	}
	r := &Report{Config: c, Machine: md.Machine()}
	for _, kind := range []string{"sphere", "cone"} {
		for _, polys := range []int{60, 120, 250} {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			progress(c, fmt.Sprintf("cage: 2 %ss of %d triangles, %d frames", kind, polys, c.Frames))
			cg, err := runCage(c, kind, polys, 0.2)
			if err != nil {
				return nil, err
			}
			r.Cages = append(r.Cages, cg)
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	progress(c, fmt.Sprintf("planes: 2 cones of 100 triangles, %d frames", c.Frames))
	pl, err := runCage(c, "cone", 100, 0.2)
	if err != nil {
		return nil, err
	}
	r.Planes = pl
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	progress(c, fmt.Sprintf("world: %d convex objects, %d steps", c.Objects, c.Steps))
	wr, err := runWorld(ctx, c)
	if err != nil {
		return nil, err
	}
	r.World = wr
	r.Elapsed = time.Since(start)
	return r, nil
}

func progress(c Config, line string) {
	if c.Progress != nil {
		c.Progress(line)
	}
}

// Cone returns a cone of n base vertices, radius r and height h, apex up,
// its base's centre at the origin: 2n triangles, closed and convex (the
// base a fan around its centre).
func Cone(r, h float64, n int) *mesh.TriMesh {
	m := &mesh.TriMesh{Verts: []geom.Vec3{{Z: h}, {}}}
	for i := range n {
		a := 2 * math.Pi * float64(i) / float64(n)
		m.Verts = append(m.Verts, geom.V(r*math.Cos(a), r*math.Sin(a), 0))
	}
	for i := range n {
		a, b := int32(2+i), int32(2+(i+1)%n)
		m.Tris = append(m.Tris, [3]int32{0, a, b}, [3]int32{1, b, a})
	}
	return m
}

// object returns the model of a kind with about polys triangles, of
// radius about r.
func object(kind string, polys int, r float64) (*collide.Model, error) {
	var m *mesh.TriMesh
	var err error
	switch kind {
	case "sphere":
		m, err = gen.UVSphere(geom.Vec3{}, r, polys)
	case "cone":
		m = Cone(r, 2*r, polys/2)
	default:
		return nil, fmt.Errorf("objects: unknown kind %q", kind)
	}
	if err != nil {
		return nil, err
	}
	return collide.Build(m, collide.BuildOptions{})
}

// body is a tumbling body: position, velocity, rotation axis, angle and
// angular speed.
type body struct {
	p, v, axis geom.Vec3
	ang, w     float64
}

func (b *body) pose() geom.Pose { return geom.FromAxisAngle(b.axis, b.ang, b.p) }

func newBody(rng *rand.Rand, lo, hi, speed float64) body {
	u := func() float64 { return lo + rng.Float64()*(hi-lo) }
	return body{
		p:    geom.V(u(), u(), u()),
		v:    geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()).Unit().Scale(speed),
		axis: geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()),
		w:    0.05 * rng.NormFloat64(),
	}
}

// step moves b one frame, bouncing off the walls of [lo, hi]³.
func (b *body) step(lo, hi float64) {
	b.p, b.ang = b.p.Add(b.v), b.ang+b.w
	for i := range 3 {
		x, v := b.p.Index(i), b.v.Index(i)
		if (x < lo && v < 0) || (x > hi && v > 0) {
			b.v = b.v.SetIndex(i, -v)
		}
	}
}

// runCage flies two objects in the unit cage: the poses are made once with
// the tree test deciding the bounces, then each method is timed over them
// (first contact, the thesis's mode), its answers checked at every frame.
func runCage(c Config, kind string, polys int, r float64) (*Cage, error) {
	m, err := object(kind, polys, r)
	if err != nil {
		return nil, err
	}
	rng := rand.New(rand.NewPCG(c.Seed, uint64(polys)))
	a, b := newBody(rng, r, 1-r, 0.01), newBody(rng, r, 1-r, 0.01)
	poses := make([][2]geom.Pose, c.Frames)
	hit := make([]bool, c.Frames)
	var q collide.Query
	cg := &Cage{Kind: kind, Polys: len(m.Mesh().Tris), Frames: c.Frames}
	for f := range c.Frames {
		poses[f] = [2]geom.Pose{a.pose(), b.pose()}
		res, err := q.Collide(m, poses[f][0], m, poses[f][1], collide.QueryOptions{Method: collide.MethodTree})
		if err != nil {
			return nil, err
		}
		hit[f] = res.Collide
		if res.Collide {
			cg.Contacts++
			// Bounce: reverse the speeds of two objects closing in (not
			// of two already parting, which would stay stuck together).
			if b.v.Sub(a.v).Dot(b.p.Sub(a.p)) < 0 {
				a.v, b.v = a.v.Neg(), b.v.Neg()
			}
		}
		a.step(r, 1-r)
		b.step(r, 1-r)
	}
	cg.Tree.Method, cg.Convex.Method = collide.MethodTree, collide.MethodConvex
	for round := range c.Rounds {
		ms := []*Method{&cg.Tree, &cg.Convex}
		if round%2 == 1 {
			ms[0], ms[1] = ms[1], ms[0]
		}
		for _, me := range ms {
			var q collide.Query
			var pl collide.Plane
			var st collide.Stats
			apart := 0
			o := collide.QueryOptions{Method: me.Method, Plane: &pl}
			t0 := time.Now()
			for f := range poses {
				res, err := q.Collide(m, poses[f][0], m, poses[f][1], o)
				if err != nil {
					return nil, err
				}
				if res.Collide != hit[f] {
					return nil, fmt.Errorf("objects: %s cage, frame %d: %v says %v, the tree test %v", kind, f, me.Method, res.Collide, hit[f])
				}
				if !res.Collide && res.Stats.Convex > 0 && res.Method == collide.MethodTree {
					apart++
				}
				st.Add(res.Stats)
			}
			d := time.Since(t0)
			if round == 0 || d < me.Time {
				me.Time = d
			}
			me.Queries, me.Stats = int64(len(poses)), st
			if me.Method == collide.MethodConvex {
				cg.Apart = apart
			}
		}
	}
	return cg, nil
}

// runWorld plays the world of convex objects with each method, the same
// motions, checking that the contacts agree at every step.
func runWorld(ctx context.Context, c Config) (*World, error) {
	var models []*collide.Model
	for _, m := range []*mesh.TriMesh{
		gen.Must(gen.Icosphere(geom.Vec3{}, 0.5, 80)),
		gen.Must(gen.Box(geom.AABB{Min: geom.V(-0.4, -0.3, -0.5), Max: geom.V(0.4, 0.3, 0.5)}, 1)),
		gen.Must(gen.Cylinder(0.3, 0.9, 24)),
		Cone(0.4, 0.8, 16),
	} {
		md, err := collide.Build(m, collide.BuildOptions{})
		if err != nil {
			return nil, err
		}
		models = append(models, md)
	}
	side := 1.5 * math.Cbrt(float64(c.Objects))
	wr := &World{Objects: c.Objects, Steps: c.Steps}
	wr.Tree.Method, wr.Convex.Method = collide.MethodTree, collide.MethodConvex
	for round := range c.Rounds {
		ms := []*Method{&wr.Tree, &wr.Convex}
		if round%2 == 1 {
			ms[0], ms[1] = ms[1], ms[0]
		}
		var contacts [2][]int
		for k, me := range ms {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			w, err := world.New(world.Options{Method: me.Method, Workers: 1})
			if err != nil {
				return nil, err
			}
			rng := rand.New(rand.NewPCG(c.Seed, 35))
			bodies := make([]body, c.Objects)
			for i := range bodies {
				bodies[i] = newBody(rng, 0, side, 0.02)
				if _, err := w.Add(models[i%len(models)], bodies[i].pose(), world.ObjectOptions{}); err != nil {
					return nil, err
				}
			}
			var st collide.Stats
			var narrow time.Duration
			var pairs, hits int64
			for s := range c.Steps {
				if s > 0 {
					for i := range bodies {
						bodies[i].step(0, side)
						if err := w.Move(world.ID(i), bodies[i].pose()); err != nil {
							return nil, err
						}
					}
				}
				ss, err := w.Step()
				if err != nil {
					return nil, err
				}
				st.Add(ss.Query)
				narrow += ss.Narrow
				pairs += int64(ss.Tested)
				hits += int64(ss.Contacts)
				contacts[k] = append(contacts[k], ss.Contacts, ss.Began, ss.Ended)
			}
			if round == 0 || narrow < me.Time {
				me.Time = narrow
			}
			me.Queries, me.Stats = pairs, st
			wr.Pairs, wr.Contacts = pairs, hits
		}
		for i := range contacts[0] {
			if contacts[0][i] != contacts[1][i] {
				return nil, fmt.Errorf("objects: world: the methods' contacts differ at step %d", i/3)
			}
		}
	}
	return wr, nil
}
