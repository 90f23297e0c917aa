package view

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/flight"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh"
	"github.com/collide3d/collide/scene"
	"github.com/collide3d/collide/world"
)

// Recording is what the viewer plays: models, objects that show them, and
// the steps of a motion, each with the poses of the moving objects, the
// pairs of triangles in contact, the query's time and its counts.
type Recording struct {
	// Title and Doc head the page.
	Title, Doc string
	// Mode says what the contacts are ("all pairs", "first contact",
	// "tolerance 0.01, all pairs"), for the page.
	Mode string
	// TimeName names what Step.Time measures, for the page ("query
	// time" if empty).
	TimeName string
	Models   []Model
	Objects  []Object
	// Eps is the tolerance of the queries that found the contacts (0:
	// exact contact); the page's contact geometry is computed with it.
	Eps float64
	// Moving holds the indices of the objects whose poses each step gives,
	// ascending; the others stay at Object.Pose.
	Moving []int
	Steps  []Step
}

// Model is a mesh the objects of a recording show.
type Model struct {
	Name string
	Mesh *mesh.TriMesh
	// Built, when not nil, is the model built from Mesh: the page's
	// intersection curves and normals are then the facade's contacts and
	// patches at each step's poses (see Handler). Without it they are
	// the recorded pairs' contacts one by one, with no patches.
	Built *collide.Model
}

// Object is an instance of a model at a pose.
type Object struct {
	Name  string
	Model int // index in Recording.Models
	// Static objects are drawn as the environment (grey).
	Static bool
	// Pose is the object's pose at every step, unless the object is in
	// Recording.Moving.
	Pose geom.Pose
}

// Step is one step of a recording.
type Step struct {
	// Poses[k] is the pose of object Moving[k] at this step.
	Poses []geom.Pose
	// Contacts are the pairs of objects in contact, with their pairs of
	// triangles.
	Contacts []Contact
	// Time is the query's time: a flight's query, or a world's step
	// (bounding the moved objects, the broad phase, the exact tests and
	// the update of the contacts; not the motions).
	Time time.Duration
	// Stats are the query's counts.
	Stats collide.Stats
	// Truncated says that the step found more pairs than it kept.
	Truncated bool
}

// Contact is a pair of objects in contact: A's triangles are the pairs'
// Env, B's their Fly.
type Contact struct {
	A, B  int
	Pairs []collide.Pair
}

// Limits of a recording: MaxPoses bounds the steps times the moving objects
// (each pose is 96 bytes here, 48 on the wire), MaxPairs the pairs of
// triangles summed over the steps.
const (
	MaxPoses = 1 << 21
	MaxPairs = 1 << 24
)

// ErrTooLarge is wrapped by the errors of recordings past MaxPoses or
// MaxPairs.
var ErrTooLarge = errors.New("view: recording too large")

// Pairs returns the number of pairs of triangles in contact at the step.
func (s *Step) Pairs() int {
	n := 0
	for i := range s.Contacts {
		n += len(s.Contacts[i].Pairs)
	}
	return n
}

// ContactStep returns the step a snapshot shows unless told otherwise: the
// step with the most pairs of triangles in contact (the first of them), or
// 0 when no step has any.
func (r *Recording) ContactStep() int {
	best, most := 0, 0
	for n := range r.Steps {
		if p := r.Steps[n].Pairs(); p > most {
			best, most = n, p
		}
	}
	return best
}

// Pose returns the pose of object i at step n.
func (r *Recording) Pose(n, i int) geom.Pose {
	if k, ok := slices.BinarySearch(r.Moving, i); ok {
		return r.Steps[n].Poses[k]
	}
	return r.Objects[i].Pose
}

// Validate checks that r is complete and consistent: every model has a mesh
// of at least one triangle whose vertices are finite, every index names
// what it should, every pose is a finite rotation and translation, and the
// recording is within MaxPoses and MaxPairs.
func (r *Recording) Validate() error {
	if len(r.Models) == 0 {
		return errors.New("view: a recording without models")
	}
	if !(r.Eps >= 0) || math.IsInf(r.Eps, 1) {
		return fmt.Errorf("view: the tolerance Eps %v is not a finite number >= 0", r.Eps)
	}
	for i, m := range r.Models {
		if m.Mesh == nil || len(m.Mesh.Tris) == 0 {
			return fmt.Errorf("view: model %d (%s) has no triangles", i, m.Name)
		}
		if err := m.Mesh.Validate(); err != nil {
			return fmt.Errorf("view: model %d (%s): %w", i, m.Name, err)
		}
		if m.Built != nil && m.Built.Mesh() != m.Mesh {
			return fmt.Errorf("view: model %d (%s): Built is not built from Mesh", i, m.Name)
		}
	}
	for i, o := range r.Objects {
		if o.Model < 0 || o.Model >= len(r.Models) {
			return fmt.Errorf("view: object %d (%s) shows model %d, not in [0, %d)", i, o.Name, o.Model, len(r.Models))
		}
		if err := o.Pose.Validate(); err != nil {
			return fmt.Errorf("view: object %d (%s): %w", i, o.Name, err)
		}
	}
	for k, i := range r.Moving {
		if i < 0 || i >= len(r.Objects) || (k > 0 && i <= r.Moving[k-1]) {
			return fmt.Errorf("view: moving objects must be ascending indices of objects; %d is not", i)
		}
	}
	if len(r.Steps) > 0 && len(r.Moving) > MaxPoses/len(r.Steps) {
		return fmt.Errorf("%w: %d steps of %d moving objects are more than %d poses", ErrTooLarge, len(r.Steps), len(r.Moving), MaxPoses)
	}
	pairs := 0
	for n := range r.Steps {
		s := &r.Steps[n]
		if len(s.Poses) != len(r.Moving) {
			return fmt.Errorf("view: step %d has %d poses for %d moving objects", n, len(s.Poses), len(r.Moving))
		}
		for k, p := range s.Poses {
			if err := p.Validate(); err != nil {
				return fmt.Errorf("view: step %d, object %d: %w", n, r.Moving[k], err)
			}
		}
		for _, c := range s.Contacts {
			if c.A < 0 || c.A >= len(r.Objects) || c.B < 0 || c.B >= len(r.Objects) || c.A == c.B {
				return fmt.Errorf("view: step %d: a contact between objects %d and %d of %d", n, c.A, c.B, len(r.Objects))
			}
			ta, tb := len(r.Models[r.Objects[c.A].Model].Mesh.Tris), len(r.Models[r.Objects[c.B].Model].Mesh.Tris)
			for _, p := range c.Pairs {
				if p.Env < 0 || int(p.Env) >= ta || p.Fly < 0 || int(p.Fly) >= tb {
					return fmt.Errorf("view: step %d: pair (%d, %d) of objects %d and %d, which have %d and %d triangles", n, p.Env, p.Fly, c.A, c.B, ta, tb)
				}
			}
			pairs += len(c.Pairs)
		}
		if pairs > MaxPairs {
			return fmt.Errorf("%w: more than %d pairs of triangles by step %d", ErrTooLarge, MaxPairs, n)
		}
	}
	return nil
}

// RecordFlight flies fly through env as flight.Fly does with options o, and
// records every step: object 0 is env (static, at the identity), object 1
// fly, and the contacts are those of o.Query (set Query.All to see every
// pair). It stops with an error wrapping ErrTooLarge when the pairs pass
// MaxPairs (bound them with Query.MaxPairs).
func RecordFlight(title string, env, fly *collide.Model, m flight.Motion, o flight.Options) (*Recording, *flight.Summary, error) {
	if o.Steps > MaxPoses {
		return nil, nil, fmt.Errorf("%w: %d steps are more than %d", ErrTooLarge, o.Steps, MaxPoses)
	}
	r := &Recording{
		Title: title, Mode: modeName(o.Query.All, o.Query.Eps), Eps: o.Query.Eps,
		Models: []Model{{Name: "environment", Mesh: env.Mesh(), Built: env}, {Name: "flying", Mesh: fly.Mesh(), Built: fly}},
		Objects: []Object{
			{Name: "environment", Model: 0, Static: true, Pose: geom.Identity()},
			{Name: "flying", Model: 1, Pose: geom.Identity()},
		},
		Moving: []int{1},
		Steps:  make([]Step, 0, o.Steps),
	}
	if env == fly {
		r.Models, r.Objects[1].Model = r.Models[:1], 0
	}
	pairs := 0
	sum, err := flight.Fly(env, fly, m, o, func(st *flight.Step) error {
		s := Step{Poses: []geom.Pose{st.Pose}, Time: st.Time, Stats: st.Result.Stats, Truncated: st.Result.Truncated}
		if len(st.Result.Pairs) > 0 {
			pairs += len(st.Result.Pairs)
			if pairs > MaxPairs {
				return fmt.Errorf("%w: more than %d pairs of triangles by step %d (bound them with a query's MaxPairs)", ErrTooLarge, MaxPairs, st.Index)
			}
			s.Contacts = []Contact{{A: 0, B: 1, Pairs: slices.Clone(st.Result.Pairs)}}
		}
		r.Steps = append(r.Steps, s)
		return nil
	})
	if err != nil {
		return nil, sum, err
	}
	return r, sum, nil
}

// RecordScene plays s on a world with options o, as scene.Play does, and
// records every step: the scene's models and objects, the poses of its
// moving objects, every pair of objects in contact with its pairs of
// triangles (every pair with o.World.All, else the first), and the time
// and counts of each world step. It fails with an error wrapping
// ErrTooLarge, before playing, when the steps times the moving objects pass
// MaxPoses.
func RecordScene(s *scene.Scene, o scene.Options) (*Recording, *scene.Totals, error) {
	p, err := scene.NewPlayer(s, o.World)
	if err != nil {
		return nil, nil, err
	}
	n := o.Steps
	if n == 0 {
		n = s.Steps
	}
	moving := p.MovingObjects()
	if n > 0 && len(moving) > MaxPoses/n {
		return nil, nil, fmt.Errorf("%w: %d steps of %d moving objects are more than %d poses; play fewer steps", ErrTooLarge, n, len(moving), MaxPoses)
	}
	w := p.World()
	r := &Recording{
		Title: s.Name, Doc: s.Doc, Mode: modeName(o.World.All, o.World.Eps), Eps: o.World.Eps,
		TimeName: "world step time",
		Models:   make([]Model, len(s.Models)),
		Objects:  make([]Object, len(s.Objects)),
		Moving:   moving,
		Steps:    make([]Step, 0, n),
	}
	for i := range s.Models {
		r.Models[i].Name = s.Models[i].Name
	}
	index := make(map[string]int, len(s.Models))
	for i := range s.Models {
		index[s.Models[i].Name] = i
	}
	for i := range s.Objects {
		ob := &s.Objects[i]
		mi := index[ob.Model]
		id := p.ID(i)
		r.Objects[i] = Object{Name: ob.Name, Model: mi, Static: ob.Static, Pose: w.Pose(id)}
		if r.Models[mi].Mesh == nil {
			r.Models[mi].Built = w.Model(id)
			r.Models[mi].Mesh = r.Models[mi].Built.Mesh()
		}
	}
	// Models no object shows are dropped, and the objects' models
	// renumbered.
	keep := make([]int, len(r.Models))
	var models []Model
	for i, m := range r.Models {
		keep[i] = len(models)
		if m.Mesh != nil {
			models = append(models, m)
		}
	}
	for i := range r.Objects {
		r.Objects[i].Model = keep[r.Objects[i].Model]
	}
	r.Models = models

	pairs := 0
	tot, err := p.Play(n, func(p *scene.Player, st world.StepStats) error {
		step := Step{Poses: make([]geom.Pose, len(moving)), Time: st.Bound + st.Broad + st.Narrow + st.Update, Stats: st.Query}
		for k, i := range moving {
			step.Poses[k] = w.Pose(p.ID(i))
		}
		var err error
		w.Contacts(func(c *world.Contact) bool {
			a, b := p.Object(c.A), p.Object(c.B)
			pairs += len(c.Pairs)
			if pairs > MaxPairs {
				err = fmt.Errorf("%w: more than %d pairs of triangles by step %d", ErrTooLarge, MaxPairs, len(r.Steps))
				return false
			}
			step.Contacts = append(step.Contacts, Contact{A: a, B: b, Pairs: slices.Clone(c.Pairs)})
			return true
		})
		slices.SortFunc(step.Contacts, func(x, y Contact) int {
			if x.A != y.A {
				return x.A - y.A
			}
			return x.B - y.B
		})
		r.Steps = append(r.Steps, step)
		return err
	})
	if err != nil {
		return nil, tot, err
	}
	return r, tot, nil
}

// modeName names a query's mode for the page.
func modeName(all bool, eps float64) string {
	m := "first contact"
	if all {
		m = "all pairs"
	}
	if eps > 0 {
		m = fmt.Sprintf("tolerance %g, %s", eps, m)
	}
	return m
}
