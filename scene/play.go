package scene

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/hull"
	"github.com/collide3d/collide/internal/textscan"
	"github.com/collide3d/collide/mesh"
	"github.com/collide3d/collide/mesh/gen"
	"github.com/collide3d/collide/world"
)

// GenPrefix starts a model's Source that names a generated model,
// gen:KIND[:key=value,...], as on the command line.
const GenPrefix = "gen:"

// LoadMesh returns the mesh that a model's Source names: a mesh file, or a
// generated model gen:KIND[:key=value,...] (package mesh/gen; the
// parameters not given take their defaults).
func LoadMesh(source string) (*mesh.TriMesh, error) {
	spec, ok := strings.CutPrefix(source, GenPrefix)
	if !ok {
		return mesh.Load(source)
	}
	kind, kv, _ := strings.Cut(spec, ":")
	k, ok := gen.Lookup(kind)
	if !ok {
		var names []string
		for _, k := range gen.Kinds() {
			names = append(names, k.Name)
		}
		return nil, fmt.Errorf("%s: unknown generator %q (kinds: %s)", source, kind, strings.Join(names, ", "))
	}
	params := map[string]float64{}
	if kv != "" {
		for _, pair := range strings.Split(kv, ",") {
			key, val, ok := strings.Cut(pair, "=")
			key = strings.TrimSpace(key)
			if !ok || key == "" {
				return nil, fmt.Errorf("%s: parameter %q is not key=value", source, pair)
			}
			if _, dup := params[key]; dup {
				return nil, fmt.Errorf("%s: parameter %q given twice", source, key)
			}
			x, e := textscan.ParseFloat([]byte(strings.TrimSpace(val)))
			if e != textscan.NumOK {
				return nil, fmt.Errorf("%s: parameter %s: %q is not a finite decimal number", source, key, val)
			}
			params[key] = x
		}
	}
	m, err := k.Generate(params)
	if err != nil {
		return nil, fmt.Errorf("%s: %s", source, strings.TrimPrefix(err.Error(), "gen: "+kind+": "))
	}
	if err := m.Validate(); err != nil {
		return nil, fmt.Errorf("%s: generated an invalid mesh: %w", source, err)
	}
	return m, nil
}

// Player plays a scene on a world, a step at a time: NewPlayer builds the
// models and adds the objects; each Step moves the moving objects along
// their paths and steps the world.
type Player struct {
	scene  *Scene
	world  *world.World
	models []*collide.Model // by model index; nil for models no object uses
	ids    []world.ID       // by object index
	obj    []int32          // object index by world ID
	paths  []Path           // by object index; nil for objects that never move
	moving []int            // the objects with a path
	bounds geom.AABB
	steps  int
	build  time.Duration
	motion time.Duration // of the last step
	tris   int
}

// NewPlayer builds the models of s (each once, however many objects share
// it), makes a world with options o, adds the objects at their initial
// poses and sets the interest matrix. Errors name the scene and the entry.
func NewPlayer(s *Scene, o world.Options) (*Player, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	p := &Player{scene: s, models: make([]*collide.Model, len(s.Models))}
	t0 := time.Now()
	index := make(map[string]int, len(s.Models))
	for i := range s.Models {
		index[s.Models[i].Name] = i
	}
	used := make([]bool, len(s.Models))
	for i := range s.Objects {
		used[index[s.Objects[i].Model]] = true
	}
	for i := range s.Models {
		if !used[i] {
			continue
		}
		m := &s.Models[i]
		entry := entryName("models", i, m.Name)
		tm := m.Mesh
		if tm == nil {
			var err error
			if tm, err = LoadMesh(m.Source); err != nil {
				return nil, s.wrap(m.Line, entry, err)
			}
		}
		md, err := collide.Build(tm, collide.BuildOptions{BV: m.BV})
		if err != nil {
			return nil, s.wrap(m.Line, entry, err)
		}
		p.models[i] = md
	}
	p.build = time.Since(t0)

	// The bounds of the motions.
	p.bounds = s.Bounds
	if p.bounds.IsEmpty() || p.bounds == (geom.AABB{}) {
		p.bounds = geom.EmptyAABB()
		for i := range s.Objects {
			ob := &s.Objects[i]
			p.bounds = p.bounds.Union(p.models[index[ob.Model]].Mesh().Bounds().Transform(ob.pose()))
		}
	}

	// The points of the models of falling objects (their hulls'
	// vertices): a fall keeps the object itself in the bounds.
	points := make([][]geom.Vec3, len(s.Models))
	for i := range s.Objects {
		ob := &s.Objects[i]
		if _, ok := ob.Motion.(Fall); !ok || ob.Static {
			continue
		}
		if k := index[ob.Model]; points[k] == nil {
			h := hull.New(p.models[k].Mesh().Verts)
			pts := make([]geom.Vec3, h.Len())
			for j := range pts {
				pts[j] = h.Vertex(j)
			}
			points[k] = pts
		}
	}

	w, err := world.New(o)
	if err != nil {
		return nil, err
	}
	p.world = w
	p.ids = make([]world.ID, len(s.Objects))
	p.paths = make([]Path, len(s.Objects))
	for i := range s.Objects {
		ob := &s.Objects[i]
		entry := entryName("objects", i, ob.Name)
		md := p.models[index[ob.Model]]
		p.tris += len(md.Mesh().Tris)
		b := md.Mesh().Bounds()
		mo := ob.Motion
		if mo == nil {
			mo = Static{}
		}
		path, err := mo.Path(PathContext{
			Start: ob.pose(), Center: b.Center(), Radius: b.Size().Norm() / 2,
			Points: points[index[ob.Model]], Bounds: p.bounds, Seed: ObjectSeed(s.Seed, i), SceneSeed: s.Seed,
		})
		if err != nil {
			return nil, s.wrap(ob.Line, entry, fmt.Errorf("motion %s: %w", mo.Kind(), err))
		}
		pose, _ := path.Next()
		id, err := w.Add(md, pose, world.ObjectOptions{Static: ob.Static, Group: ob.Group, Data: i})
		if err != nil {
			return nil, s.wrapMsg(ob.Line, entry, strings.TrimPrefix(err.Error(), "world: Add: "))
		}
		p.ids[i] = id
		for int(id) >= len(p.obj) {
			p.obj = append(p.obj, -1)
		}
		p.obj[id] = int32(i)
		if _, still := mo.(Static); !still && !ob.Static {
			p.paths[i] = path
			p.moving = append(p.moving, i)
		}
	}
	var byName map[string]int
	for i := range s.Interest {
		in := &s.Interest[i]
		var err error
		if in.Groups != nil {
			err = w.SetGroupInterest(in.Groups[0], in.Groups[1], in.On)
		} else {
			if byName == nil {
				byName = make(map[string]int, len(s.Objects))
				for i := range s.Objects {
					byName[s.Objects[i].Name] = i
				}
			}
			a, b := byName[in.Objects[0]], byName[in.Objects[1]]
			err = w.SetInterest(p.ids[a], p.ids[b], in.On)
		}
		if err != nil {
			return nil, s.wrap(in.Line, entryName("interest", i, ""), err)
		}
	}
	return p, nil
}

// wrapMsg is wrap with a message.
func (s *Scene) wrapMsg(line int, entry, msg string) error {
	return &Error{File: s.Name, Line: line, Entry: entry, Err: fmt.Errorf("%s", msg)}
}

// Scene returns the scene played.
func (p *Player) Scene() *Scene { return p.scene }

// World returns the world the scene is played on: its contacts, poses and
// models. The caller must not add, move or remove objects.
func (p *Player) World() *world.World { return p.world }

// Bounds returns the bounds the motions keep to (the scene's, or the box of
// the objects at their initial poses).
func (p *Player) Bounds() geom.AABB { return p.bounds }

// ID returns the world ID of object i of the scene.
func (p *Player) ID(i int) world.ID { return p.ids[i] }

// Object returns the index in the scene of the object of world ID id, or
// -1.
func (p *Player) Object(id world.ID) int {
	if id < 0 || int(id) >= len(p.obj) {
		return -1
	}
	return int(p.obj[id])
}

// Name returns the name of the object of world ID id.
func (p *Player) Name(id world.ID) string {
	if i := p.Object(id); i >= 0 {
		return p.scene.Objects[i].Name
	}
	return ""
}

// Moving returns the number of objects that move (not static, with a
// motion other than Static).
func (p *Player) Moving() int { return len(p.moving) }

// MovingObjects returns the indices in the scene of the objects that move
// (those Moving counts), ascending.
func (p *Player) MovingObjects() []int { return slices.Clone(p.moving) }

// Triangles returns the number of triangles of all the objects.
func (p *Player) Triangles() int { return p.tris }

// BuildTime returns the time NewPlayer took to load and build the models.
func (p *Player) BuildTime() time.Duration { return p.build }

// Steps returns the number of steps played.
func (p *Player) Steps() int { return p.steps }

// Step plays one step: the first tests the objects at their initial poses;
// each later one first moves every moving object whose path changed its
// pose. It returns the world's StepStats.
func (p *Player) Step() (world.StepStats, error) {
	t0 := time.Now()
	if p.steps > 0 {
		for _, i := range p.moving {
			pose, changed := p.paths[i].Next()
			if !changed {
				continue
			}
			if err := p.world.Move(p.ids[i], pose); err != nil {
				ob := &p.scene.Objects[i]
				return world.StepStats{}, p.scene.wrap(ob.Line, entryName("objects", i, ob.Name),
					fmt.Errorf("step %d: %s", p.steps+1, strings.TrimPrefix(err.Error(), "world: ")))
			}
		}
	}
	p.motion = time.Since(t0)
	st, err := p.world.Step()
	if err != nil {
		return st, p.scene.wrap(0, "", fmt.Errorf("step %d: %w", p.steps+1, err))
	}
	p.steps++
	return st, nil
}

// MotionTime returns the time the last Step took to compute the poses of
// the moving objects and move them.
func (p *Player) MotionTime() time.Duration { return p.motion }

// Options configures Play.
type Options struct {
	// World makes the world.
	World world.Options
	// Steps is the number of steps; 0 plays the scene's.
	Steps int
}

// Times summarises the time of one phase over the steps of a play. Total
// and Max are exact; Median and P99 are exact for a play of at most
// ExactTimes steps, and at most 0.8% above the exact ones for a longer
// play, which keeps its times in a fixed memory (see ExactTimes).
type Times struct {
	Total, Median, P99, Max time.Duration
}

// quantile returns the nearest-rank q-quantile of sorted, not empty.
func quantile(sorted []time.Duration, q float64) time.Duration {
	i := int(math.Ceil(q*float64(len(sorted)))) - 1
	return sorted[min(max(i, 0), len(sorted)-1)]
}

// Totals sums up a play.
type Totals struct {
	Objects, Moving, Models, Triangles int
	// Build is the time taken to load and build the models.
	Build time.Duration
	Steps int
	// Contacts sums, over the steps, the pairs of objects in contact
	// after the step; MaxContacts is the most at one step.
	Contacts    int64
	MaxContacts int
	// The sums of the steps' StepStats.
	Moved, Candidates, Tested, Began, Kept, Ended int64
	Query                                         collide.Stats
	// The times per step: the motions (computing the poses and moving
	// the objects), the world's phases, and the whole step.
	Motion, Bound, Broad, Narrow, Update, Step Times
}

// Play plays s on a world made with o.World for o.Steps steps (the scene's
// if 0), calling each after every step, if not nil, with the player (whose
// World holds the step's contacts) and the step's stats; an error from each
// stops the play and is returned.
func Play(s *Scene, o Options, each func(p *Player, st world.StepStats) error) (*Totals, error) {
	p, err := NewPlayer(s, o.World)
	if err != nil {
		return nil, err
	}
	n := o.Steps
	if n == 0 {
		n = s.Steps
	}
	if n < 0 || n > MaxSteps {
		return nil, s.errorf(0, "", "steps %d is not in [0, %d]", n, MaxSteps)
	}
	return p.Play(n, each)
}

// Play plays n more steps (see the function Play).
func (p *Player) Play(n int, each func(p *Player, st world.StepStats) error) (*Totals, error) {
	t := &Totals{Objects: len(p.scene.Objects), Moving: len(p.moving), Triangles: p.tris, Build: p.build}
	for _, m := range p.models {
		if m != nil {
			t.Models++
		}
	}
	var phases [6]timeAcc // bounded memory, whatever n
	for range n {
		t0 := time.Now()
		st, err := p.Step()
		total := time.Since(t0)
		if err != nil {
			return nil, err
		}
		t.Steps++
		t.Contacts += int64(st.Contacts)
		t.MaxContacts = max(t.MaxContacts, st.Contacts)
		t.Moved += int64(st.Moved)
		t.Candidates += int64(st.Candidates)
		t.Tested += int64(st.Tested)
		t.Began += int64(st.Began)
		t.Kept += int64(st.Kept)
		t.Ended += int64(st.Ended)
		t.Query.Add(st.Query)
		for i, d := range [6]time.Duration{p.motion, st.Bound, st.Broad, st.Narrow, st.Update, total} {
			phases[i].add(d)
		}
		if each != nil {
			if err := each(p, st); err != nil {
				return nil, err
			}
		}
	}
	t.Motion, t.Bound, t.Broad = phases[0].times(), phases[1].times(), phases[2].times()
	t.Narrow, t.Update, t.Step = phases[3].times(), phases[4].times(), phases[5].times()
	return t, nil
}
