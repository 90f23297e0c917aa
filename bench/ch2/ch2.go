package ch2

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/bench/internal/md"
	"github.com/collide3d/collide/flight"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh"
)

// Methods names the methods in the order of the report's columns: the
// chapter's four, then collide's trees of 18-DOPs (the default) and of
// 6-DOPs (boxes, the R-tree's volumes).
var Methods = []string{"grid", "k-d tree", "R-tree", "mesh", "18-DOP tree", "6-DOP tree"}

// Method indices into Methods.
const (
	MGrid = iota
	MKD
	MRTree
	MMesh
	MDOP18
	MDOP6
	nMethods
)

// Chapter is how many of Methods are the chapter's own.
const Chapter = 4

// Config configures Run.
type Config struct {
	// Seed is the seed of the environments and of the flights.
	Seed uint64
	// Quick makes a short run: one small environment per group, short
	// flights, one round.
	Quick bool
	// Steps is each flight's length (0: 1000, 150 with Quick).
	Steps int
	// Rounds is how many times each method flies each flight, taking
	// turns; the fastest round is kept (0: 2, 1 with Quick).
	Rounds int
	// Static is how many collision-free placements of each flight whose
	// bb(F) meets an obstacle's box are timed as static queries (0: 50, 10
	// with Quick).
	Static int
	// Oracle checks every step's answer against the brute-force oracle
	// too (every method is always checked against the path's answers).
	Oracle bool
	// FlySize is the side of the cube the flying objects fit (0: 0.06 of
	// the unit cube).
	FlySize float64
	// Leaf is the leaf threshold of the k-d tree and the R-tree (0: 8).
	Leaf int
	// Progress, when not nil, is called with a line as each stage starts.
	Progress func(line string)
}

// EnvSpec describes an environment of a run.
type EnvSpec struct {
	Name, Group string
	// What says how it was made.
	What string
	make func(seed uint64) (*mesh.TriMesh, error)
}

// Specs returns the environments of a full run or a quick one.
func Specs(quick bool) []EnvSpec {
	scenes := func(n int, fill float64, aircraft bool) func(uint64) (*mesh.TriMesh, error) {
		return func(seed uint64) (*mesh.TriMesh, error) {
			obs, err := obstacles(aircraft)
			if err != nil {
				return nil, err
			}
			return ScenesEnv(n, fill, obs, seed), nil
		}
	}
	tetra := func(n int, fill float64) func(uint64) (*mesh.TriMesh, error) {
		return func(seed uint64) (*mesh.TriMesh, error) { return TetraEnv(n, fill, seed), nil }
	}
	terrain := func(n int, relief, rough float64) func(uint64) (*mesh.TriMesh, error) {
		return func(seed uint64) (*mesh.TriMesh, error) { return TerrainEnv(n, relief, rough, seed) }
	}
	if quick {
		return []EnvSpec{
			{"parts", "scenes", "a BSP of 20 boxes, 40% filled with tori, gears, spheres, capsules", scenes(20, 0.4, false)},
			{"tetra", "tetrahedra", "a BSP of 300 boxes, half filled with a random tetrahedron each", tetra(300, 0.5)},
			{"terrain", "terrains", "a 17×17 fractal height field, relief 0.4, roughness 0.6", terrain(17, 0.4, 0.6)},
		}
	}
	return []EnvSpec{
		{"parts", "scenes", "a BSP of 150 boxes, 30% filled with tori, gears, spheres, capsules", scenes(150, 0.3, false)},
		{"parts-dense", "scenes", "a BSP of 400 boxes, 25% filled with tori, gears, spheres, capsules", scenes(400, 0.25, false)},
		{"hangar", "scenes", "a BSP of 100 boxes, 30% filled with the same and aircraft and axes", scenes(100, 0.3, true)},
		{"tetra", "tetrahedra", "a BSP of 2000 boxes, half filled with a random tetrahedron each", tetra(2000, 0.5)},
		{"tetra-dense", "tetrahedra", "a BSP of 10000 boxes, half filled with a random tetrahedron each", tetra(10000, 0.5)},
		{"terrain-smooth", "terrains", "a 97×97 fractal height field, relief 0.3, roughness 0.4", terrain(97, 0.3, 0.4)},
		{"terrain-rough", "terrains", "a 97×97 fractal height field, relief 0.5, roughness 0.7", terrain(97, 0.5, 0.7)},
	}
}

// EnvRun is an environment's structures: sizes, preprocessing, memory.
type EnvRun struct {
	Spec        EnvSpec
	Verts, Tris int
	GridN       int
	// Stored is the triangles each method stores (the chapter's ST; the
	// mesh's faces on obstacles; the trees' leaves' triangles).
	Stored [nMethods]int
	// Height of the k-d tree and the R-tree (and the BV-trees).
	Height [nMethods]int
	Build  [nMethods]time.Duration
	Bytes  [nMethods]int64
	// Tets and Steiner describe the mesh; MeshErr says why there is none
	// ("tetgen not installed", TetGen's rejection, a mesh that does not
	// conform).
	Tets, Steiner int
	MeshErr       string
	// TetGen is the time TetGen took (in Build[MMesh] with the reading and
	// indexing).
	TetGen time.Duration
	// KD holds the k-d tree built with each of AxisRules.
	KD []KDRun
}

// KDRun is the k-d tree of one axis rule in one environment.
type KDRun struct {
	Rule   AxisRule
	Stored int
	Height int
	Build  time.Duration
	Bytes  int64
}

// MethodRun is one method's flight.
type MethodRun struct {
	Ran bool
	// Step is the mean time per step (of the fastest round).
	Step time.Duration
	Counts
	// Differ counts the steps whose answer is not the path's: 0.
	Differ int
	// Static is the static queries per second at the flight's
	// collision-free placements whose bb(F) meets an obstacle's box.
	Static float64
}

// FlightRun is one billiard flight of one object in one environment.
type FlightRun struct {
	Env, Fly    string
	Steps, Hits int
	// Placements is how many static placements were timed.
	Placements int
	// Transform is the time per step of moving every vertex of the flying
	// object and bounding its triangles (Frame.Set): what the chapter's
	// programs paid every step to draw the object, and what a method here
	// pays at each of its full-resolution checks (Frame.Full).
	Transform time.Duration
	Method    [nMethods]MethodRun
	// KD is the k-d tree of each axis rule on the same flight.
	KD []MethodRun
}

// Report holds the figures of Run.
type Report struct {
	Config  Config
	Machine string
	Load    string
	Flyers  []Flyer
	Envs    []*EnvRun
	Flights []*FlightRun
	// OracleSteps counts the steps checked against the brute-force oracle.
	OracleSteps int
	// DefaultRule is the k-d tree's rule in the main tables.
	DefaultRule AxisRule
	Elapsed     time.Duration
}

// DefaultRule is the axis rule of the k-d tree in the main comparison:
// the fastest of the four in a full run (the report's section on the
// rules says which won its own run).
const DefaultRule = AxisLongest

// Run builds every method on every environment and flies every object
// along a billiard path through each (see the package doc).
func Run(ctx context.Context, c Config) (*Report, error) {
	start := time.Now()
	if c.Steps <= 0 {
		c.Steps = pick(c.Quick, 1000, 150)
	}
	if c.Rounds <= 0 {
		c.Rounds = pick(c.Quick, 2, 1)
	}
	if c.Static <= 0 {
		c.Static = pick(c.Quick, 50, 10)
	}
	if c.FlySize <= 0 {
		c.FlySize = 0.06
	}
	if c.Leaf <= 0 {
		c.Leaf = 8
	}
	if c.FlySize >= 0.5 || math.IsNaN(c.FlySize) {
		return nil, fmt.Errorf("ch2: flying objects of size %v do not fit the unit cube's flights", c.FlySize)
	}
	progress := func(format string, args ...any) {
		if c.Progress != nil {
			c.Progress(fmt.Sprintf(format, args...))
		}
	}
	flyers, err := flyingObjects(c.FlySize)
	if err != nil {
		return nil, err
	}
	r := &Report{Config: c, Machine: md.Machine(), Load: md.LoadAverage(), Flyers: flyers, DefaultRule: DefaultRule}
	type flyModels struct{ dop18, dop6 *collide.Model }
	fms := make([]flyModels, len(flyers))
	for i, f := range flyers {
		if fms[i].dop18, err = collide.Build(f.Mesh, collide.BuildOptions{BV: collide.KDOP18}); err != nil {
			return nil, err
		}
		if fms[i].dop6, err = collide.Build(f.Mesh, collide.BuildOptions{BV: collide.KDOP6}); err != nil {
			return nil, err
		}
	}
	for ei, spec := range Specs(c.Quick) {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		progress("%s: building", spec.Name)
		m, err := spec.make(c.Seed + uint64(ei))
		if err != nil {
			return nil, fmt.Errorf("ch2: environment %s: %w", spec.Name, err)
		}
		env, err := envOf(spec.Name, spec.Group, m)
		if err != nil {
			return nil, err
		}
		er := &EnvRun{Spec: spec, Verts: len(m.Verts), Tris: len(m.Tris), GridN: GridSize(len(m.Tris))}
		r.Envs = append(r.Envs, er)
		var methods [nMethods]Method
		timed := func(i int, build func() Method) {
			t0 := time.Now()
			methods[i] = build()
			er.Build[i] = time.Since(t0)
		}
		var grid *Grid
		var kd *KDTree
		var rt *RTree
		timed(MGrid, func() Method { grid = NewGrid(env, er.GridN); return grid })
		timed(MKD, func() Method { kd = NewKDTree(env, KDOptions{Rule: DefaultRule, Leaf: c.Leaf}); return kd })
		timed(MRTree, func() Method { rt = NewRTree(env, c.Leaf); return rt })
		er.Stored[MGrid], er.Bytes[MGrid] = grid.Stored(), grid.Bytes()
		er.Stored[MKD], er.Bytes[MKD], er.Height[MKD] = kd.Stored(), kd.Bytes(), kd.Height()
		er.Stored[MRTree], er.Bytes[MRTree], er.Height[MRTree] = rt.Stored(), rt.Bytes(), rt.Height()
		kds := make([]*KDTree, len(AxisRules))
		for i, rule := range AxisRules {
			t0 := time.Now()
			kds[i] = NewKDTree(env, KDOptions{Rule: rule, Leaf: c.Leaf})
			er.KD = append(er.KD, KDRun{Rule: rule, Stored: kds[i].Stored(), Height: kds[i].Height(), Build: time.Since(t0), Bytes: kds[i].Bytes()})
		}
		progress("%s: meshing with tetgen", spec.Name)
		t0 := time.Now()
		mesh, err := NewMesh(ctx, env)
		er.Build[MMesh] = time.Since(t0)
		var rej *RejectedError
		switch {
		case errors.Is(err, ErrNoTetGen):
			er.MeshErr = "tetgen not installed"
		case errors.As(err, &rej):
			er.MeshErr = rej.Error()
		case err != nil:
			return nil, fmt.Errorf("ch2: environment %s: %w", spec.Name, err)
		case mesh.Misfit > 0:
			er.MeshErr = fmt.Sprintf("the mesh does not conform: %d obstacle triangles are not covered by their faces", mesh.Misfit)
		default:
			methods[MMesh] = mesh
			er.Tets, er.Steiner, er.Stored[MMesh], er.Bytes[MMesh] = mesh.Tets(), mesh.Steiner, mesh.Faces, mesh.Bytes()
		}
		var envModels [2]*collide.Model
		for i, b := range []collide.BV{collide.KDOP18, collide.KDOP6} {
			t0 := time.Now()
			if envModels[i], err = collide.Build(m, collide.BuildOptions{BV: b}); err != nil {
				return nil, err
			}
			er.Build[MDOP18+i] = time.Since(t0)
			er.Bytes[MDOP18+i] = envModels[i].Bytes()
			er.Stored[MDOP18+i] = len(m.Tris)
			if tr := envModels[i].Tree(); tr != nil {
				er.Height[MDOP18+i] = tr.Height()
			}
		}
		for fi, fly := range flyers {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			progress("%s: flying %s", spec.Name, fly.Name)
			methods[MDOP18] = NewBVTree(envModels[0], fms[fi].dop18)
			methods[MDOP6] = NewBVTree(envModels[1], fms[fi].dop6)
			fr, err := fly1(env, fly, methods, kds, c, rand.New(rand.NewPCG(c.Seed, uint64(ei*100+fi))))
			if err != nil {
				return nil, fmt.Errorf("ch2: %s, %s: %w", spec.Name, fly.Name, err)
			}
			r.OracleSteps += fr.oracle
			r.Flights = append(r.Flights, &fr.FlightRun)
		}
	}
	r.Elapsed = time.Since(start)
	return r, nil
}

func pick[T any](quick bool, full, short T) T {
	if quick {
		return short
	}
	return full
}

// GridSize is the grid's N for n obstacle triangles: about n/4 voxels in
// all, between 4³ and 64³ (the chapter tuned N by experiment and kept it
// small).
func GridSize(n int) int {
	return max(4, min(64, int(math.Round(math.Cbrt(float64(n)/4)))))
}

type flightResult struct {
	FlightRun
	oracle int
}

// fly1 flies fly along a billiard path through env: the path is made with
// the 18-DOP tree's answers (reversed at each collision), then every
// method flies it, Rounds times taking turns, each answer compared with
// the path's.
func fly1(env *Env, fly Flyer, methods [nMethods]Method, kds []*KDTree, c Config, rng *rand.Rand) (*flightResult, error) {
	fr := &flightResult{FlightRun: FlightRun{Env: env.Name, Fly: fly.Name, Steps: c.Steps}}
	bvt := methods[MDOP18]
	var f Frame
	var cnt Counts
	// A free start, at random, with the flying object inside the cube.
	h := c.FlySize * 0.75
	inner := geom.AABB{Min: geom.Vec3{X: h, Y: h, Z: h}, Max: geom.Vec3{X: 1 - h, Y: 1 - h, Z: 1 - h}}
	var startPos geom.Vec3
	var orient geom.Quat
	found := false
	for range 5000 {
		startPos = geom.Vec3{X: h + (1-2*h)*rng.Float64(), Y: h + (1-2*h)*rng.Float64(), Z: h + (1-2*h)*rng.Float64()}
		orient = geom.Quat{W: rng.NormFloat64(), X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}.Unit()
		f.Pose = geom.Pose{R: orient.Mat3(), T: startPos}
		if !bvt.Collide(&f, &cnt) {
			found = true
			break
		}
	}
	if !found {
		return nil, errors.New("no free start in 5000 random placements")
	}
	path, err := flight.NewBilliard(flight.BilliardConfig{
		Start: startPos, Orient: orient, Bounds: inner,
		Speed: c.FlySize / 8, Spin: 0.05, Turn: 0.3, Seed: rng.Uint64(),
	})
	if err != nil {
		return nil, err
	}
	poses := make([]geom.Pose, c.Steps)
	hits := make([]bool, c.Steps)
	bvt.Reset()
	collided := false
	for i := range poses {
		p, _ := path.Next(collided)
		if err := p.Validate(); err != nil {
			return nil, err
		}
		f.Pose = p
		collided = bvt.Collide(&f, &cnt)
		poses[i], hits[i] = p, collided
		if collided {
			fr.Hits++
		}
		if c.Oracle {
			f.Set(p, fly.Mesh)
			if Brute(env, &f) != collided {
				return nil, fmt.Errorf("step %d: the 18-DOP tree says %v, the oracle not", i, collided)
			}
			fr.oracle++
		}
	}
	// The static placements: free, and bb(F) meets an obstacle's box.
	var static []int
	for i, p := range poses {
		if hits[i] {
			continue
		}
		f.Set(p, fly.Mesh)
		for j := range env.Boxes {
			if overlaps(&env.Boxes[j], &f.Box) {
				static = append(static, i)
				break
			}
		}
	}
	if len(static) > c.Static {
		pickd := make([]int, c.Static)
		for k := range pickd {
			pickd[k] = static[k*len(static)/c.Static]
		}
		static = pickd
	}
	fr.Placements = len(static)
	all := append([]Method(nil), methods[:]...)
	for _, k := range kds {
		all = append(all, k)
	}
	runs := make([]MethodRun, len(all))
	best := make([]time.Duration, len(all))
	bestStatic := make([]time.Duration, len(all))
	for round := range c.Rounds {
		t0 := time.Now()
		for _, p := range poses {
			f.Set(p, fly.Mesh)
		}
		if d := time.Since(t0) / time.Duration(len(poses)); round == 0 || d < fr.Transform {
			fr.Transform = d
		}
		for mi, m := range all {
			if m == nil {
				continue
			}
			_, tree := m.(*BVTree)
			run := &runs[mi]
			var cnt Counts
			m.Reset()
			t0 := time.Now()
			for i, p := range poses {
				if tree {
					f.Pose = p
				} else {
					f.Place(p, fly.Mesh, fly.Hull)
				}
				if m.Collide(&f, &cnt) != hits[i] && round == 0 {
					run.Differ++
				}
			}
			d := time.Since(t0)
			if round == 0 || d < best[mi] {
				best[mi] = d
			}
			if round == 0 {
				run.Ran, run.Counts = true, cnt
			}
			t0 = time.Now()
			for _, i := range static {
				m.Reset()
				if tree {
					f.Pose = poses[i]
				} else {
					f.Place(poses[i], fly.Mesh, fly.Hull)
				}
				if m.Collide(&f, &cnt) && round == 0 {
					run.Differ++
				}
			}
			d = time.Since(t0)
			if round == 0 || d < bestStatic[mi] {
				bestStatic[mi] = d
			}
		}
	}
	for mi := range runs {
		if !runs[mi].Ran {
			continue
		}
		runs[mi].Step = best[mi] / time.Duration(len(poses))
		if len(static) > 0 && bestStatic[mi] > 0 {
			runs[mi].Static = float64(len(static)) / bestStatic[mi].Seconds()
		}
	}
	copy(fr.Method[:], runs[:nMethods])
	fr.KD = runs[nMethods:]
	return fr, nil
}
