package world

import (
	"errors"
	"fmt"
	"iter"
	"math"
	"runtime"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/broad"
	"github.com/collide3d/collide/bv"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/hull"
)

// ID names an object of a world. IDs are small non-negative integers; the
// ID of a removed object is given to a later Add only after a Step.
type ID int32

// MaxGroups bounds the groups of the interest matrix: a group is in
// [0, MaxGroups).
const MaxGroups = 1024

// Errors wrapped by the world's methods.
var (
	// ErrNoObject: an ID that names no object of the world.
	ErrNoObject = errors.New("no such object")
	// ErrInStep: Remove, Step or StepContext called from a callback of
	// Step.
	ErrInStep = errors.New("called from a callback of Step")
)

// Options configures a world. The zero value is a world that reports the
// first contact of each pair, exactly, with the default broad phase, on every
// core.
type Options struct {
	// Broad makes the broad phase; nil is the default (see NewBroad).
	Broad func() broad.Phase
	// All asks for every pair of triangles in contact for each pair of
	// objects; otherwise each pair of objects reports its first one.
	All bool
	// Eps ≥ 0 is the tolerance of the exact tests (collide.QueryOptions.Eps):
	// objects closer than Eps are in contact; world boxes grow by Eps/2.
	Eps float64
	// Workers is the number of goroutines of the exact tests: 0 is
	// runtime.GOMAXPROCS(0), 1 runs them on Step's goroutine.
	Workers int
	// Spheres, with a broad phase that implements broad.Spheres (CDFast's
	// recursive grid), bounds each moving object by its spheres at level of
	// detail SphereLevel (collide.Model.Spheres) as well as by its box.
	Spheres     bool
	SphereLevel int
	// Static balances the exact tests statically (each worker a fixed
	// share of the pairs) instead of dynamically (workers take small chunks
	// as they go, the default): Zachmann's two schemes, for measuring them.
	Static bool
	// Fronts says when a pair of objects keeps a collide.Front from one
	// step to the next while its boxes keep overlapping (the same contacts,
	// found from where the pair's last test ended). The default, FrontAuto,
	// keeps one for the pairs whose two models both have at least
	// FrontMinTris triangles: for smaller ones a test from the roots costs
	// less than a front's upkeep.
	Fronts FrontPolicy
	// Solid treats every object as a solid (collide.QueryOptions.Solid):
	// two objects are also in contact when one is inside the other, with
	// no triangle pair to name. Add refuses a model whose surface bounds no
	// solid.
	Solid bool
	// Medium tests each pair on two goroutines (collide.QueryOptions.Medium,
	// Zachmann's medium grain) at the steps that test fewer pairs than
	// Workers (at least 2), where the pairs alone would leave cores idle;
	// those pairs keep no front at those steps. The contacts are the
	// same; with Options.All the same pairs.
	Medium bool
	// Method chooses each pair's exact test (collide.QueryOptions.Method);
	// the zero value chooses by the models' topology, the convex test for
	// two convex models. A pair given the convex test keeps its
	// separating plane (collide.Plane) from step to step while its boxes
	// overlap, as it keeps its front. StepStats.Query counts the convex
	// tests, the plane hits and the new planes.
	Method collide.Method
}

// FrontPolicy says which pairs of a world keep a front.
type FrontPolicy uint8

const (
	FrontAuto FrontPolicy = iota // pairs of models of at least FrontMinTris triangles
	FrontOn                      // every pair
	FrontOff                     // none
)

// FrontMinTris is the size of the models from which FrontAuto keeps fronts.
const FrontMinTris = 256

// ObjectOptions describes an object added to a world.
type ObjectOptions struct {
	// Static objects are the environment: pairs of two static objects are
	// never tested.
	Static bool
	// Group is the object's group in the interest matrix, in [0, MaxGroups).
	Group int
	// Data is the caller's, returned by World.Data.
	Data any
}

// Callbacks are called by Step for the pairs whose state it changed or
// confirmed (see the package documentation). A nil callback is not called.
// They run on the goroutine that called Step or StepContext, one at a
// time, once the step's exact tests are done; they may call Move and Add
// but not Remove, Step or StepContext. The Contact is valid during the
// call only.
type Callbacks struct {
	Begin, Keep, End func(c *Contact)
}

// Contact is a pair of objects in contact.
type Contact struct {
	A, B ID // A < B
	// Pairs holds the triangle pairs in contact, ascending
	// (collide.ComparePairs): one pair unless Options.All. Their fields
	// keep collide.Pair's names: Env is A's triangle and Fly is B's,
	// whichever of the two objects the pair was tested in the frame of.
	//
	// Deprecated: for reading, use All, At and Len, which name the
	// triangles A and B (TriPair). The field stays, with the same content.
	Pairs []collide.Pair
	// Step is the number of the step (counted from 1) that last tested the
	// pair; Since is the step at which it started touching.
	Step, Since int64
	// Inside says, in a world of solids (Options.Solid), that the contact
	// is one object inside the other with their surfaces apart (Pairs is
	// then empty), and which: AInB or BInA; NotInside (the zero value)
	// for a contact of the surfaces.
	Inside Inside
}

// Inside says which object of a Contact is inside the other.
type Inside uint8

const (
	NotInside Inside = iota // the surfaces touch: no containment
	AInB                    // (a part of) object A is inside object B's solid
	BInA                    // (a part of) object B is inside object A's solid
)

// String returns "none", "A in B" or "B in A".
func (i Inside) String() string {
	switch i {
	case AInB:
		return "A in B"
	case BInA:
		return "B in A"
	}
	return "none"
}

// TriPair is a pair of triangles in contact of a Contact: A is the index
// of a triangle of object A's model, B of object B's.
type TriPair struct {
	A, B int32
}

// Len returns the number of triangle pairs of c (one unless
// Options.All).
func (c *Contact) Len() int { return len(c.Pairs) }

// At returns c's i-th triangle pair, 0 ≤ i < c.Len(), in ascending order
// (of A's triangle, then B's).
func (c *Contact) At(i int) TriPair {
	p := c.Pairs[i]
	return TriPair{A: p.Env, B: p.Fly}
}

// All returns an iterator over c's triangle pairs, in ascending order (of
// A's triangle, then B's):
//
//	for tp := range c.All() {
//		fmt.Println("triangle", tp.A, "of", c.A, "touches triangle", tp.B, "of", c.B)
//	}
//
// It allocates nothing; like the Contact, it is valid until the next Step.
func (c *Contact) All() iter.Seq[TriPair] {
	return func(yield func(TriPair) bool) {
		for _, p := range c.Pairs {
			if !yield(TriPair{A: p.Env, B: p.Fly}) {
				return
			}
		}
	}
}

// model is what a world keeps per distinct model.
type model struct {
	m      *collide.Model
	hull   *hull.Hull
	tris   int
	refs   int
	levels [][]bv.Sphere // spheres per level of detail, model coordinates
}

// object is one object of a world.
type object struct {
	model    *model
	pose     geom.Pose
	box      geom.AABB
	climb    [6]int32   // the hull vertices extreme along ±x, ±y, ±z at the last bound
	rot      geom.Mat3  // the rotation of the last bound
	rlo, rhi [3]float64 // the box of R·x over the hull at that rotation
	rotValid bool
	defect   float64 // ‖R Rᵀ - I‖∞ of the pose, bounded (pad)
	group    uint16
	static   bool
	present  bool
	moved    bool  // in the moved buffer
	stepped  int64 // the step that last re-bounded it
	ovr      int32 // number of pair overrides of the interest matrix naming it
	ncont    int32 // number of contacts naming it
	data     any
}

// World is a set of objects that Step tests against each other. See the
// package documentation.
type World struct {
	opts    Options
	phase   broad.Phase
	spheres broad.Spheres
	dops    broad.DOPs      // the phase, if it takes DOPs
	climbs  []bv.ClimbState // per object, where dopBound's climbs start
	dop     bv.DOP          // dopBound's result, given to dops
	objs    []object
	models  map[*collide.Model]*model
	free    []ID // IDs of removed objects, reusable after the next Step
	freeing []ID // IDs removed since the last Step
	moved   []ID
	n       int
	cb      Callbacks
	inter   interest
	step    int64
	inStep  bool

	contacts map[uint64]int32 // pair key → index in cs
	cs       []contact
	csFree   []int32
	ended    []contact // contacts ended by Remove, reported at the next Step

	narrow narrow
	sbuf   []bv.Sphere
	// fronts holds the fronts of the pairs tested at the last step (see
	// Options.Fronts); planes the separating planes of the pairs tested
	// with the convex test (see Options.Method).
	fronts kept[collide.Front, *collide.Front]
	planes kept[collide.Plane, *collide.Plane]
}

// New returns an empty world.
func New(o Options) (*World, error) {
	if !(o.Eps >= 0) || o.Eps > 1e300 {
		return nil, fmt.Errorf("world: tolerance %v is not a finite number ≥ 0", o.Eps)
	}
	if o.Workers < 0 {
		return nil, fmt.Errorf("world: %d workers", o.Workers)
	}
	if o.Workers == 0 {
		o.Workers = runtime.GOMAXPROCS(0)
	}
	if o.SphereLevel < 0 || o.SphereLevel > 16 {
		return nil, fmt.Errorf("world: sphere level %d is not in [0, 16]", o.SphereLevel)
	}
	mk := o.Broad
	if mk == nil {
		mk = defaultBroad
	}
	w := &World{
		opts:     o,
		phase:    mk(),
		models:   map[*collide.Model]*model{},
		contacts: map[uint64]int32{},
	}
	if o.Spheres {
		w.spheres, _ = w.phase.(broad.Spheres)
	}
	w.dops, _ = w.phase.(broad.DOPs)
	w.inter.init()
	return w, nil
}

// Options returns the options the world was made with (Workers resolved).
func (w *World) Options() Options { return w.opts }

// SetCallbacks sets the callbacks of the next steps.
func (w *World) SetCallbacks(c Callbacks) { w.cb = c }

// Add inserts an instance of m at pose p and returns its ID; the object is
// tested at the next Step. m must be built, its bounding volume compatible
// with the models of the world's other objects (collide.BV.Compatible),
// its surface the boundary of a solid in a world of solids (Options.Solid:
// else the error wraps collide.ErrNotSolid and says what breaks), and p a
// valid pose for it (the zero rotation stands for the identity: the
// zero Pose is the identity, Pose{T: v} a translation).
func (w *World) Add(m *collide.Model, p geom.Pose, o ObjectOptions) (ID, error) {
	p = normPose(p)
	if m == nil || m.Mesh() == nil {
		return -1, fmt.Errorf("world: Add: %w: the model is nil or not built", collide.ErrInvalidQuery)
	}
	if w.opts.Solid {
		if _, err := m.Solid(); err != nil {
			return -1, fmt.Errorf("world: Add: the object's model (Options.Solid): %w", err)
		}
	}
	md, err := w.model(m)
	if err != nil {
		return -1, err
	}
	d, err := checkPose(md, p, nil)
	if err != nil {
		return -1, fmt.Errorf("world: Add: %w", err)
	}
	if o.Group < 0 || o.Group >= MaxGroups {
		return -1, fmt.Errorf("world: Add: group %d is not in [0, %d)", o.Group, MaxGroups)
	}
	if md.refs == 0 {
		w.models[m] = md
	}
	md.refs++
	var id ID
	if k := len(w.free); k > 0 {
		id = w.free[k-1]
		w.free = w.free[:k-1]
	} else {
		id = ID(len(w.objs))
		w.objs = append(w.objs, object{})
	}
	ob := &w.objs[id]
	*ob = object{model: md, pose: p, defect: d, group: uint16(o.Group), static: o.Static, present: true, data: o.Data}
	w.n++
	ob.box = w.bound(ob)
	ob.stepped = -1 // bounded at its pose: Step need not do it again
	w.phase.Add(int32(id), ob.box, o.Static)
	w.markMoved(id)
	return id, nil
}

// model returns the world's record of m, new (not yet in w.models) if m is
// not the model of an object, after checking that it can be tested against
// the world's other models.
func (w *World) model(m *collide.Model) (*model, error) {
	if md := w.models[m]; md != nil {
		return md, nil
	}
	for _, other := range w.models {
		if !m.BV().Compatible(other.m.BV()) {
			return nil, fmt.Errorf("world: Add: %w: a %v model cannot be tested against the world's %v models (build it with a compatible BV, or use Model.WithBV)", collide.ErrInvalidQuery, m.BV(), other.m.BV())
		}
	}
	return &model{m: m, hull: hull.New(m.Mesh().Verts), tris: len(m.Mesh().Tris)}, nil
}

// markMoved puts id in the moved buffer once.
func (w *World) markMoved(id ID) {
	ob := &w.objs[id]
	if !ob.moved {
		ob.moved = true
		w.moved = append(w.moved, id)
	}
}

func (w *World) get(id ID) (*object, error) {
	if id < 0 || int(id) >= len(w.objs) || !w.objs[id].present {
		return nil, fmt.Errorf("world: %w: object %d", ErrNoObject, id)
	}
	return &w.objs[id], nil
}

// Move sets the pose of object id (the zero rotation standing for the
// identity, as for Add); it is re-bounded and tested at the next Step.
// Moving an object to the pose it has still counts as a move.
func (w *World) Move(id ID, p geom.Pose) error {
	p = normPose(p)
	ob, err := w.get(id)
	if err != nil {
		return err
	}
	d, err := checkPose(ob.model, p, ob)
	if err != nil {
		return fmt.Errorf("world: Move %d: %w", id, err)
	}
	ob.pose, ob.defect = p, d
	if ob.stepped == -1 {
		ob.stepped = 0
	}
	w.markMoved(id)
	return nil
}

// Remove takes object id out of the world; its contacts end (Callbacks.End
// is called for them at the next Step). Its ID may be given to an object
// added after the next Step.
func (w *World) Remove(id ID) error {
	if w.inStep {
		return fmt.Errorf("world: Remove %d: %w", id, ErrInStep)
	}
	ob, err := w.get(id)
	if err != nil {
		return err
	}
	w.phase.Remove(int32(id))
	w.endContactsOf(id)
	ob.model.refs--
	if ob.model.refs == 0 {
		delete(w.models, ob.model.m)
	}
	w.forget(id)
	*ob = object{}
	w.freeing = append(w.freeing, id)
	w.n--
	return nil
}

// Len returns the number of objects.
func (w *World) Len() int { return w.n }

// normPose returns p with a zero rotation (the zero Pose's) replaced by
// the identity, which it stands for.
func normPose(p geom.Pose) geom.Pose {
	if p.R == (geom.Mat3{}) {
		p.R = geom.Identity3()
	}
	return p
}

// Pose returns the pose of object id (the zero Pose if there is none), its
// rotation the identity where Add or Move was given the zero one.
func (w *World) Pose(id ID) geom.Pose {
	if ob, err := w.get(id); err == nil {
		return ob.pose
	}
	return geom.Pose{}
}

// Bounds returns the world box of object id as of the last Step (or Add):
// the box of its convex hull at its pose, padded (see the package
// documentation). It is empty if there is no such object.
func (w *World) Bounds(id ID) geom.AABB {
	if ob, err := w.get(id); err == nil {
		return ob.box
	}
	return geom.EmptyAABB()
}

// Model returns the model of object id (nil if there is none).
func (w *World) Model(id ID) *collide.Model {
	if ob, err := w.get(id); err == nil {
		return ob.model.m
	}
	return nil
}

// Static reports whether object id is static.
func (w *World) Static(id ID) bool {
	ob, err := w.get(id)
	return err == nil && ob.static
}

// Group returns the group of object id.
func (w *World) Group(id ID) int {
	if ob, err := w.get(id); err == nil {
		return int(ob.group)
	}
	return -1
}

// Data returns the Data of object id's ObjectOptions.
func (w *World) Data(id ID) any {
	if ob, err := w.get(id); err == nil {
		return ob.data
	}
	return nil
}

// Objects calls fn with the ID of every object, ascending, until fn returns
// false. AllObjects is the same sequence as an iterator.
func (w *World) Objects(fn func(ID) bool) {
	for i := range w.objs {
		if w.objs[i].present && !fn(ID(i)) {
			return
		}
	}
}

// AllObjects returns an iterator over the IDs of the objects, ascending,
// as Objects calls its function with them. The world must not change while
// the iteration runs (a loop that removes objects collects their IDs
// first).
func (w *World) AllObjects() iter.Seq[ID] {
	return func(yield func(ID) bool) { w.Objects(yield) }
}

// RotationTol is how far from orthonormal the rotation of a pose given to a
// world may be (geom.Mat3.IsRotation): tighter than the 1e-6 of
// geom.Pose.Validate, so that the relative pose of two objects, at which
// their pair is tested, is a rotation to within 1e-6.
const RotationTol = 2e-7

// maxReach bounds 3M + |t|∞ for an object whose hull's largest |coordinate|
// is M at a pose with translation t: its coordinates, and those of the
// relative pose of any pair, then stay far from overflow (collide.Query
// accepts a pose up to about 2¹⁰²⁴).
const maxReach = 0x1p1020

// checkPose returns the error of a pose p for an object of model md, or the
// bound on its rotation's defect for the pad; prev is the object's pose
// before (nil if new) with its defect, whose rotation, if p has it too, need
// not be checked again.
func checkPose(md *model, p geom.Pose, prev *object) (float64, error) {
	t := p.T
	if s := t.X + t.Y + t.Z; s-s != 0 {
		return 0, fmt.Errorf("%w: translation %v is not finite", collide.ErrInvalidPose, t)
	}
	var d float64
	if prev != nil && prev.pose.R == p.R {
		d = prev.defect
	} else {
		a := p.Array()
		for i, x := range a[:9] {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return 0, fmt.Errorf("%w: pose number %d is %v", collide.ErrInvalidPose, i+1, x)
			}
		}
		var ok bool
		if d, ok = defect(&p.R); !ok {
			return 0, fmt.Errorf("%w: pose rotation is not orthonormal with determinant 1 to within %g", collide.ErrInvalidPose, RotationTol)
		}
	}
	if 3*md.hull.MaxAbs()+max(math.Abs(t.X), math.Abs(t.Y), math.Abs(t.Z)) > maxReach {
		return 0, fmt.Errorf("%w: the pose takes the model's coordinates beyond %g", collide.ErrInvalidPose, maxReach)
	}
	return d, nil
}
