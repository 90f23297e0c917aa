package collide

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"
	"unsafe"

	"github.com/collide3d/collide/bv"
	"github.com/collide3d/collide/bvh"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh"
	"github.com/collide3d/collide/solid"
	"github.com/collide3d/collide/topo"

	// The codecs register themselves with mesh.Load.
	_ "github.com/collide3d/collide/mesh/gltf"
	_ "github.com/collide3d/collide/mesh/obj"
	_ "github.com/collide3d/collide/mesh/off"
	_ "github.com/collide3d/collide/mesh/ply"
	_ "github.com/collide3d/collide/mesh/stl"
)

// BuildOptions configures Build. The zero value builds an 18-DOP tree with
// the Splatter rule, mean split points and one triangle per leaf.
type BuildOptions struct {
	// BV is the bounding volume (the zero value is KDOP18).
	BV BV
	// Rule chooses the axis each node is split along (RAPID: OBB trees
	// only).
	Rule Rule
	// Split chooses the split point along it.
	Split Split
	// Leaf is the largest number of triangles in a leaf (0: 1).
	Leaf int
	// FlyLeaf is the leaf threshold τ of a k-DOP tree when the model
	// flies: nodes with at most FlyLeaf triangles are leaves (0: a rule by
	// size, see bvh.FlyLeafFor).
	FlyLeaf int
	// Float64 stores k-DOP bounds in float64 instead of float32 (the other
	// volumes always use float64).
	Float64 bool
	// Compact stores float32 k-DOP bounds in 8 bits each, on a grid per
	// block of 16 nodes (bvh.Options.Compact): an 18-DOP tree with its
	// mesh takes about 81 bytes a triangle instead of 176, its queries
	// 5-30% more time. k-DOP volumes only, not with Float64.
	Compact bool
}

// QueryOptions configures a query. The zero value asks for the first contact,
// exact (eps = 0).
type QueryOptions struct {
	// All asks for every intersecting pair; otherwise the query stops at the
	// first one.
	All bool
	// Eps ≥ 0 is the tolerance: pairs at distance at most Eps are reported.
	// 0 is exact contact.
	Eps float64
	// MaxPairs > 0 bounds the pairs Collide keeps: the query stops when it
	// finds one more, and Result.Truncated says so. CollideFunc and Pairs
	// ignore it (their callback or loop stops the query when it wants).
	MaxPairs int
	// Front, if not nil, is the pair's front (see Front): the query starts
	// from where the pair's last query ended. Same answers, less work when
	// poses change little from one query to the next. Experiment.Restart
	// ignores it.
	Front *Front
	// Budget, if not zero, makes the query time-critical: when it has spent
	// the budget, it stops, and Pending (which must not be nil) holds the
	// pairs of nodes it has not tested; Result.Maybe then says that no
	// contact was found yet. A query with a Front ignores it.
	Budget Budget
	// Pending receives the rest of a query its Budget stopped; Query.Resume
	// goes on with it.
	Pending *Pending
	// Contacts asks for each pair's contact geometry in Result.Contacts,
	// and Patches, which implies it, for the pairs grouped in connected
	// patches in Result.Patches. A query without them costs what it did.
	Contacts, Patches bool
	// Solid treats both models as solids (Model.Solid): they are also in
	// contact when one is inside the other with their surfaces apart,
	// which Result.Inside and Stats.Inside report (there is no triangle
	// pair to name). A model whose surface is not closed, manifold and
	// oriented is then an error wrapping ErrNotSolid that says what breaks.
	// The containment test runs once the tree test has found no pair; a
	// query its Budget stopped runs it in the Resume that finishes it
	// (Pending.Inside). Its cost: one exact point test a component of fly
	// (package solid's index of env), then, only for a component of env
	// within fly's box, a scan of fly's triangles placed at the pose.
	Solid bool
	// Method chooses the exact test (MethodAuto, the zero value, chooses
	// by the models' topology: see Method.Resolve and AutoConvexTris);
	// Result.Method says which one decided.
	Method Method
	// Plane, if not nil, is the pair's separating-plane cache, kept by the
	// caller from one query of the pair to the next (as a world keeps one
	// per pair of objects); nil uses the Query's own, which remembers the
	// last pair's.
	Plane *Plane
	// Medium runs the tree test on two goroutines (Zachmann's medium
	// grain, bvh.CollideMedium): the pairs of nodes the walk leaves after
	// its first 128 are shared by the Query's goroutine and a helper,
	// about half the work each, and the first contact found stops both.
	// The answer is the same (all pairs: the same pairs; first contact: a
	// pair in contact, the least of those found, maybe not the one a
	// sequential query finds), sooner on large models when a core is
	// free; callbacks and iterators get the pairs once both walks end, on
	// the caller's goroutine. The Query keeps the second walk's scratch.
	// A query with a Front, a Budget or Experiment.Restart ignores it.
	Medium bool
	// Experiment selects traversal variants for experiments; applications
	// leave it zero.
	Experiment Experiment
}

// Experiment holds the traversal variants that the experiments of
// Klosowski et al. compare (see bvh.QueryOptions). They change a query's
// work, never its answer; the zero value is the library's traversal.
type Experiment struct {
	// Restart selects the restart-at-the-root traversal: when a flying
	// node meets an environment leaf, its children are tested against the
	// environment's root.
	Restart bool
	// ExactRoot bounds the flying model's root by its exact k-DOP, found by
	// hill climbing on its convex hull, instead of by tumbling (k-DOP
	// trees; the other volumes ignore it). A Query keeps the climb's end
	// for its next query, where the next climb starts.
	ExactRoot bool
}

// Pair names two triangles in contact by their indices in the environment
// and the flying model.
type Pair struct {
	Env, Fly int32
}

// Stats counts the work of one query, in the terms of the cost model
// T = Nv·Cv + Np·Cp + Nu·Cu.
type Stats struct {
	BVTests  int64 // Nv: bounding-volume overlap tests
	TriTests int64 // Np: exact triangle-triangle tests
	Updates  int64 // Nu: flying volumes re-bounded (k-DOPs) or moved (the other volumes) for the pose
	// LeafTests (Nl) counts the tests of a leaf's triangles against the
	// other tree's volume, which replace the volume tests of pairs with a
	// leaf in OBB, AABB, sphere and RSS trees.
	LeafTests int64
	// Skipped counts the pairs of nodes of a Front kept without a test:
	// the flying model has moved less since than they were proved apart.
	Skipped int64
	// Convex counts the convex tests (MethodConvex): PlaneHits of them
	// proved the pair apart with its cached plane, PlaneNew with a new
	// plane; the others went on to the tree test.
	Convex, PlaneHits, PlaneNew int64
	// SolidTests counts the point-in-solid tests of queries of solids
	// (QueryOptions.Solid); Inside the queries whose answer was one model
	// inside the other.
	SolidTests, Inside int64
}

// Add adds the counts of s to st.
func (st *Stats) Add(s Stats) {
	st.BVTests += s.BVTests
	st.TriTests += s.TriTests
	st.Updates += s.Updates
	st.LeafTests += s.LeafTests
	st.Skipped += s.Skipped
	st.Convex += s.Convex
	st.PlaneHits += s.PlaneHits
	st.PlaneNew += s.PlaneNew
	st.SolidTests += s.SolidTests
	st.Inside += s.Inside
}

// addBVH adds bvh's counts to st. (By reference: a copy of a bvh.Stats
// just returned reads it back 16 bytes at a time across its 8-byte
// stores, which the store buffer cannot forward: 10-20 ns a query.)
func (st *Stats) addBVH(s *bvh.Stats) {
	st.BVTests += s.BVTests
	st.TriTests += s.TriTests
	st.Updates += s.Updates
	st.LeafTests += s.LeafTests
	st.Skipped += s.Skipped
}

// Result is the answer to one query.
type Result struct {
	Collide bool
	Pairs   []Pair // ascending (ComparePairs); one pair in first-contact mode
	// Truncated says that there are more pairs than QueryOptions.MaxPairs:
	// Pairs holds the first MaxPairs the query found.
	Truncated bool
	// Maybe says that the query's Budget ran out before it found a contact
	// or could rule every contact out: QueryOptions.Pending holds the
	// rest (Query.Resume). A time-critical query's "contact" (Collide) and
	// "no contact" (neither Collide nor Maybe) are never wrong.
	Maybe bool
	// Contacts holds each pair's contact geometry, in the order of Pairs,
	// when QueryOptions.Contacts or Patches asked; Patches the patches
	// when QueryOptions.Patches asked.
	Contacts []Contact
	Patches  []Patch
	// Inside says, for a query of solids (QueryOptions.Solid) whose
	// surfaces are apart, which model is inside the other (Collide is then
	// true and Pairs empty).
	Inside Inside
	// Method is the test that decided: MethodConvex when a separating
	// plane proved the models apart, else MethodTree.
	Method Method
	Stats  Stats
}

// ComparePairs orders pairs as Result.Pairs lists them: by Env, then Fly.
func ComparePairs(a, b Pair) int {
	return cmp.Or(cmp.Compare(a.Env, b.Env), cmp.Compare(a.Fly, b.Fly))
}

// Model is a built, immutable collision model: a mesh and its hierarchy.
type Model struct {
	mesh *mesh.TriMesh
	opts BuildOptions // as built, with the defaults filled in
	tree *bvh.Tree    // nil for Brute
	// boxes are the per-triangle bounds of a brute-force model.
	boxes []geom.AABB
	// reach bounds |x|, |y|, |z| over the vertices: a pose moves no
	// vertex further than |R|·reach + |t| from the origin.
	reach geom.Vec3
	// topo is the topology of mesh, computed once, when first asked.
	topoOnce sync.Once
	topo     *topo.Topology
	// solid is the solid that mesh bounds, or solidErr why there is none,
	// made once, when first asked.
	solidOnce sync.Once
	solid     *solid.Solid
	solidErr  error
	// convex is what the convex test keeps of the model (convex.go).
	convex convexState
}

// newModel returns the model of m built with o, with hierarchy t (nil for
// Brute).
func newModel(m *mesh.TriMesh, o BuildOptions, t *bvh.Tree) *Model {
	if t != nil {
		to := t.Options()
		o.Rule, o.Split, o.Leaf, o.FlyLeaf, o.Float64 = Rule(to.Rule), Split(to.Split), to.Leaf, to.FlyLeaf, to.Float64
		o.Compact = to.Compact
	} else {
		o = BuildOptions{BV: Brute}
	}
	md := &Model{mesh: m, opts: o, tree: t}
	for _, v := range m.Verts {
		md.reach = md.reach.Max(v.Abs())
	}
	return md
}

// Build validates m and builds a model for it. The model keeps m, which must
// not be modified afterwards. An o.BV that is none of BVs is an error
// wrapping ErrUnknownBV.
func Build(m *mesh.TriMesh, o BuildOptions) (*Model, error) {
	i := o.BV.index()
	if i < 0 {
		return nil, fmt.Errorf("collide: %w %v (known: %s)", ErrUnknownBV, o.BV, knownBVs())
	}
	if m == nil {
		return nil, errors.New("collide: nil mesh")
	}
	if err := m.Validate(); err != nil {
		return nil, err
	}
	if o.BV == Brute {
		md := newModel(m, o, nil)
		md.boxes = triangleBoxes(m)
		return md, nil
	}
	t, err := bvh.Build(m, bvh.Options{
		Kind: volumes[i].kind, K: volumes[i].k, Rule: bvh.Rule(o.Rule), Split: bvh.Split(o.Split),
		Leaf: o.Leaf, FlyLeaf: o.FlyLeaf, Float64: o.Float64, Compact: o.Compact,
	})
	if err != nil {
		return nil, err
	}
	return newModel(m, o, t), nil
}

func triangleBoxes(m *mesh.TriMesh) []geom.AABB {
	boxes := make([]geom.AABB, len(m.Tris))
	for i := range m.Tris {
		boxes[i] = m.Triangle(i).Bounds()
	}
	return boxes
}

// WithBV returns a model of bounding volume b over m's mesh: the companion
// that m needs to fly against an environment of volume b when the two are
// not Compatible. It is built with m's options where they apply (the rule,
// except RAPID for a volume other than OBB, which becomes Splatter; the
// split point; the leaf sizes; float64 storage between k-DOPs) and is a new
// model, with its own hierarchy, whose memory its Bytes reports; m is
// unchanged. If b is m's volume, WithBV returns m.
func (m *Model) WithBV(b BV) (*Model, error) {
	if m == nil || m.mesh == nil {
		return nil, fmt.Errorf("collide: %w: WithBV of a model that was not built", ErrInvalidQuery)
	}
	if b == m.opts.BV {
		return m, nil
	}
	o := m.opts
	o.BV = b
	if o.Rule == RAPID && b != OBB {
		o.Rule = Splatter
	}
	if !m.opts.BV.isKDOP() {
		o.FlyLeaf, o.Float64 = 0, false
	}
	if !b.isKDOP() {
		o.Compact = false
	}
	return Build(m.mesh, o)
}

// PrepareFlying builds ahead of time what the first query flying m against
// a model of its own bounding volume would build on demand (for k-DOP trees,
// the truncated flying hierarchy and its tumbling points), so that the first
// query is not slower than the others. It does nothing for the other kinds.
func (m *Model) PrepareFlying() {
	if m.tree != nil && m.tree.Kind() == bvh.KDOP {
		m.tree.PrepareFlying(m.tree.K())
	}
}

// Mesh returns the mesh the model was built from.
func (m *Model) Mesh() *mesh.TriMesh { return m.mesh }

// BV returns the model's bounding volume.
func (m *Model) BV() BV { return m.opts.BV }

// Options returns the options the model was built with, its defaults
// filled in: Leaf is at least 1, and the volumes other than k-DOPs report
// FlyLeaf 0 and Float64 (they always store float64). A brute-force model
// reports only its BV. A model loaded by ReadModel reports the options it
// was saved with.
func (m *Model) Options() BuildOptions { return m.opts }

// Bytes returns the memory of the model's hierarchy (for a brute-force
// model, of its triangles' boxes), not counting the mesh.
func (m *Model) Bytes() int64 {
	if m.tree != nil {
		return m.tree.Bytes()
	}
	return int64(len(m.boxes)) * int64(unsafe.Sizeof(geom.AABB{}))
}

// Tree returns the model's hierarchy (nil for Brute), for tools that
// inspect the engine itself: cmd/collide's build and info print its
// statistics, package bench measures the cost model's constants on it.
// Every query has its entry point in this package (Collide,
// DistanceBetween, Impact, Query.NearTriangles, ...). Package bvh is the engine's interface, not the
// library's: it may change between versions.
func (m *Model) Tree() *bvh.Tree { return m.tree }

// Spheres returns level l of the model's spheres at levels of detail, in
// model coordinates, for broad phases (see bvh.Tree.Spheres): level 0 is one
// sphere around the model, level l at most 2^l spheres that together
// contain it. A brute-force model has level 0 only, whatever l.
func (m *Model) Spheres(l int) []bv.Sphere {
	if m.tree == nil {
		return []bv.Sphere{bv.BoundingSphere(m.mesh.Verts)}
	}
	return m.tree.Spheres(l, nil)
}

// Query holds the scratch state of queries. Reusing a Query makes queries
// allocation-free once its buffers have grown; a Query must not be used by
// two goroutines at once (use one per goroutine), nor by a query while a
// loop over its Pairs iterator runs. The zero value is ready to use.
//
// A Query also remembers the pair of triangles its last first-contact
// query of a pair of models found: the next first-contact query of the
// same two models tests that pair first, and when it is still in contact
// (the pose moved little) answers with it after one triangle test. The
// pair reported is then that one, where a fresh Query might report
// another pair in contact.
type Query struct {
	s     bvh.Scratch
	ps    bvh.PairState // the last pair's state: the ExactRoot climb's, the last first contact
	pairs []Pair
	hit   func(Pair) bool // Collide's callback: collects into pairs
	// fn is the callback of the current query; each, made once, passes
	// bvh's pairs to it.
	fn   func(Pair) bool
	each func(bvh.Pair) bool
	// max is the query's MaxPairs; truncated says that it found more.
	max       int
	truncated bool
	// in is what the last query's solid test found (QueryOptions.Solid);
	// decided the test that decided it (Result.Method).
	in      Inside
	decided Method
	sol     solidScratch // the solid test's placed flying model
	// plane is the separating-plane cache of queries without their own
	// (QueryOptions.Plane); tried, the plane of a convex test that left
	// the query to the tree test (told what that found, then nil).
	plane Plane
	tried *Plane
	// nhit counts the pairs the current walk reported; hitFn, made once,
	// counts them and passes them on to fn.
	nhit  int
	hitFn func(Pair) bool
	// cs and pt hold the contacts and patches of the last query that asked
	// for them.
	cs contactSet
	pt patchScratch
	// iterStats are the counts of the last query a Pairs iterator ran
	// (for the tests).
	iterStats Stats
	// md is the second walk's state of medium-grain queries
	// (QueryOptions.Medium), made by the first.
	md *medium
}

var queryPool = sync.Pool{New: func() any { return new(Query) }}

// Forget drops what q remembers of the pair of models of its last query
// (the last first contact, which the next first-contact query of the same
// pair tests first; an ExactRoot query's climb; the separating plane of
// the convex test): q's next query answers as
// a fresh Query's, or the function Collide's, would, with q's buffers. A
// caller that reuses one Query over unrelated poses of the same pair and
// wants each pose's answer independent of the order (package batch) calls
// it before each query; it costs a few stores.
func (q *Query) Forget() { q.ps = bvh.PairState{}; q.plane.Reset() }

// ErrInvalidQuery is wrapped by the error of a query that cannot be asked:
// a nil or unbuilt model, a tolerance that is not a finite number ≥ 0, or
// a negative MaxPairs.
var ErrInvalidQuery = errors.New("invalid query")

// ErrInvalidPose is wrapped by the error of a query one of whose poses
// cannot place its model (see Model.CheckPose); the error names which: the
// environment's pose, the flying model's, or the relative pose
// envPose⁻¹∘flyPose composed from them.
var ErrInvalidPose = errors.New("invalid pose")

// Check tests fly, placed at pose, against env at the identity pose. It is
// safe to call from many goroutines on the same models; each call takes its
// scratch state from a pool, and returns copies of what it holds (pairs,
// and the contacts and patches that o.Contacts and o.Patches ask for).
// Its errors are Collide's.
//
// Deprecated: use Collide(env, geom.Pose{}, fly, pose, o), which places
// both models (the zero Pose is the identity).
func Check(env, fly *Model, pose geom.Pose, o QueryOptions) (Result, error) {
	return Collide(env, geom.Pose{}, fly, pose, o)
}

// Check is like the function Check, but reuses q's buffers: the returned
// Pairs are valid until q's next query.
//
// Deprecated: use q.Collide(env, geom.Pose{}, fly, pose, o).
func (q *Query) Check(env, fly *Model, pose geom.Pose, o QueryOptions) (Result, error) {
	return q.collideAt(env, &geom.Pose{}, fly, &pose, &o)
}

// Each calls fn for every pair in contact, in no particular order, until fn
// returns false (or after the first pair unless o.All), and returns the
// query's counts. Each pair is reported once. It returns the errors of
// Check, before calling fn at all.
//
// Deprecated: use q.CollideFunc(env, geom.Pose{}, fly, pose, o, fn), or
// the iterator q.Pairs.
func (q *Query) Each(env, fly *Model, pose geom.Pose, o QueryOptions, fn func(Pair) bool) (Stats, error) {
	return q.collideFunc(env, &geom.Pose{}, fly, &pose, &o, fn)
}

// collide is Query.Collide once the query is checked, its answer in r:
// rel is fly's pose in env's frame (placePair), envPose env's, which
// places the geometry the result holds (contacts) in the common frame.
func (q *Query) collide(env *Model, envPose *geom.Pose, fly *Model, rel *geom.Pose, o *QueryOptions, r *Result) {
	if q.hit == nil {
		q.hit = func(p Pair) bool {
			if q.max > 0 && len(q.pairs) == q.max {
				q.truncated = true // there are more
				return false
			}
			q.pairs = append(q.pairs, p)
			return true
		}
	}
	q.pairs, q.max, q.truncated = q.pairs[:0], o.MaxPairs, false
	// r is filled in place, its counts by the walk itself. A Stats (ten
	// words) is more than Go's nine integer result registers: returned by
	// value it is copied through memory, 16 bytes at a time across the
	// 8-byte stores that just wrote it, which the store buffer cannot
	// forward. Passed back so from tree to walk to here it cost a far
	// query 35-140 ns, by volume and by how the binary is laid out
	// (BenchmarkCheckFar).
	*r = Result{}
	q.walkInto(env, fly, rel, o, q.hit, &r.Stats)
	if len(q.pairs) > 1 {
		slices.SortFunc(q.pairs, ComparePairs)
	}
	r.Collide, r.Pairs, r.Truncated = len(q.pairs) > 0 || q.in != NotInside, q.pairs, q.truncated
	r.Maybe = len(q.pairs) == 0 && o.Pending != nil && !o.Pending.Done()
	r.Inside, r.Method = q.in, q.decided
	if o.Contacts || o.Patches {
		// Contact geometry, from r.Pairs at rel, placed in the common
		// frame by envPose.
		r.Contacts, r.Patches = q.fillContacts(env, fly, *rel, *envPose, *o)
	}
}

// walk is Query.CollideFunc once the query is checked, fly at pose rel in
// env's frame.
func (q *Query) walk(env, fly *Model, rel *geom.Pose, o *QueryOptions, fn func(Pair) bool) (st Stats) {
	q.walkInto(env, fly, rel, o, fn, &st)
	return st
}

// walkInto is walk adding its counts to st.
// It runs the phases of the object level around the tree test: the convex
// test first (a separating plane proves the models apart), then the tree
// test, then, for solids whose surfaces are apart, the containment test.
func (q *Query) walkInto(env, fly *Model, rel *geom.Pose, o *QueryOptions, fn func(Pair) bool, st *Stats) {
	q.in, q.decided = NotInside, MethodConvex
	if q.separated(env, fly, rel, o, st) {
		if o.Pending != nil {
			*o.Pending = Pending{} // decided: nothing pending
		}
		return
	}
	q.decided = MethodTree
	q.callbacks()
	q.nhit, q.fn = 0, fn
	q.tree(env, fly, rel, o, st)
	q.fn = nil
	q.afterTree()
	if o.Solid && q.nhit == 0 && (o.Pending == nil || o.Pending.Done()) {
		if q.in = q.inside(env, fly, rel, o, st); q.in != NotInside {
			st.Inside++
		}
	}
	if o.Pending != nil {
		q.deferInside(env, fly, rel, o)
	}
}

// tree is the tree test of walk (or brute force), reporting to q.hitFn
// and adding its counts to st.
func (q *Query) tree(env, fly *Model, rel *geom.Pose, o *QueryOptions, st *Stats) {
	if env.tree == nil || fly.tree == nil {
		if o.Pending != nil {
			*o.Pending = Pending{} // brute force has no budget: done
		}
		st.Add(bruteForce(env, fly, *rel, *o, q.hitFn))
		return
	}
	bo := bvh.QueryOptions{All: o.All, Eps: o.Eps, Restart: o.Experiment.Restart, ExactRoot: o.Experiment.ExactRoot, State: &q.ps}
	if o.Front != nil {
		bo.Front = &o.Front.f
	}
	if pd := o.Pending; pd != nil && o.Front == nil {
		bo.Budget, bo.Pending = bvh.Budget{Tests: o.Budget.Tests, Deadline: o.Budget.Deadline}, &pd.p
		if bo.Budget.IsZero() {
			bo.Budget.Tests = math.MaxInt64
		}
	}
	if o.Medium && bo.Front == nil && bo.Pending == nil && !bo.Restart {
		st.Add(q.medium(env, fly, rel, bo))
		return
	}
	c := bvh.Collide(env.tree, fly.tree, *rel, bo, &q.s, q.each)
	st.addBVH(&c)
}

// callbacks makes q's callbacks, once: hitFn counts the pairs of a walk
// and passes them on to q.fn; each passes bvh's pairs to hitFn.
func (q *Query) callbacks() {
	if q.hitFn == nil {
		q.hitFn = func(p Pair) bool { q.nhit++; return q.fn(p) }
		q.each = func(p bvh.Pair) bool { return q.hitFn(Pair{Env: p.Env, Fly: p.Fly}) }
	}
}

// checkBuilt returns the error of a query of two models of which one is
// nil or unbuilt.
func checkBuilt(env, fly *Model) error {
	for _, m := range []struct {
		m    *Model
		name string
	}{{env, "environment"}, {fly, "flying model"}} {
		switch {
		case m.m == nil:
			return fmt.Errorf("collide: %w: nil %s", ErrInvalidQuery, m.name)
		case m.m.mesh == nil:
			return fmt.Errorf("collide: %w: the %s was not built (use Build or ReadModel)", ErrInvalidQuery, m.name)
		}
	}
	return nil
}

// checkOptions returns the error of a query of fly against env with
// options o that cannot be answered, whatever the poses.
func checkOptions(env, fly *Model, o *QueryOptions) error {
	if err := checkBuilt(env, fly); err != nil {
		return err
	}
	if e, f := env.opts.BV, fly.opts.BV; !e.Compatible(f) {
		return fmt.Errorf("collide: %w: the flying model's bounding volume, %s, does not fly against the environment's, %s "+
			"(only k-DOPs of different k do): fly its companion of the environment's volume, fly.WithBV(env.BV())",
			ErrInvalidQuery, f, e)
	}
	if !(o.Eps >= 0 && o.Eps <= math.MaxFloat64) {
		return fmt.Errorf("collide: %w: tolerance %v is not a finite number >= 0", ErrInvalidQuery, o.Eps)
	}
	if o.Pending == nil && (o.Budget.Tests > 0 || !o.Budget.Deadline.IsZero()) {
		return fmt.Errorf("collide: %w: a Budget needs a Pending to keep what it leaves", ErrInvalidQuery)
	}
	if o.MaxPairs < 0 {
		return fmt.Errorf("collide: %w: MaxPairs %d is negative", ErrInvalidQuery, o.MaxPairs)
	}
	if o.Method > MethodConvex {
		return fmt.Errorf("collide: %w: unknown %v", ErrInvalidQuery, o.Method)
	}
	if o.Solid {
		for _, m := range [2]struct {
			m    *Model
			name string
		}{{env, "environment"}, {fly, "flying model"}} {
			if _, err := m.m.Solid(); err != nil {
				return fmt.Errorf("%w (the %s)", err, m.name)
			}
		}
	}
	return nil
}

// rigid is geom.Pose.Validate in a few dozen operations, for the query's
// hot path: it reports whether every number of p is finite, RᵀR is the
// identity to within 10^-6 in every entry and det R is 1 to within 10^-6.
// (Validate, called when it reports false, says why.)
func rigid(p *geom.Pose) bool {
	r := &p.R
	sum := p.T.X + p.T.Y + p.T.Z
	for i := range 3 {
		sum += r[i][0] + r[i][1] + r[i][2]
	}
	if sum-sum != 0 { // a NaN or an infinity
		return false
	}
	c0, c1, c2 := r.Col(0), r.Col(1), r.Col(2)
	const tol = 1e-6
	return math.Abs(c0.Dot(c0)-1) <= tol && math.Abs(c1.Dot(c1)-1) <= tol && math.Abs(c2.Dot(c2)-1) <= tol &&
		math.Abs(c0.Dot(c1)) <= tol && math.Abs(c0.Dot(c2)) <= tol && math.Abs(c1.Dot(c2)) <= tol &&
		math.Abs(r.Det()-1) <= tol
}

// maxReach is the largest bound on a moved coordinate that guarantees it
// is finite: the bound, computed in float64, is within a few ulps of the
// exact one, and so is the coordinate that Pose.Apply computes.
const maxReach = math.MaxFloat64 * (1 - 0x1p-40)

// CheckPose returns nil if queries can place m at pose, else an error
// wrapping ErrInvalidPose: if a number of pose is not finite, if its
// rotation is not orthonormal with determinant 1 to within 10^-6 (see
// geom.Pose.Validate; a zero rotation is the identity's, see geom.Pose),
// or if it moves a vertex of m to a coordinate that is not finite (beyond
// ±math.MaxFloat64), where the answer would be for geometry m does not
// have. Every query checks its models' poses so (both, and the relative
// pose it flies at); the cost is a few dozen operations unless the pose
// takes m to within a factor 2^-40 of the float64 range, when every vertex
// is moved once.
func (m *Model) CheckPose(pose geom.Pose) error {
	p := pose.Normalize()
	return m.checkPose(&p, "")
}

// checkPose is CheckPose of a normalised pose, whose error names it as
// which says (nothing if empty).
func (m *Model) checkPose(pose *geom.Pose, which string) error {
	if pose.IsIdentity() {
		return nil
	}
	sep := ": "
	if which == "" {
		sep = ""
	}
	if !rigid(pose) {
		if err := pose.Validate(); err != nil {
			return fmt.Errorf("collide: %w: %s%s%v", ErrInvalidPose, which, sep, err)
		}
	}
	r, t, x := &pose.R, pose.T, m.reach
	if math.Abs(r[0][0])*x.X+math.Abs(r[0][1])*x.Y+math.Abs(r[0][2])*x.Z+math.Abs(t.X) <= maxReach &&
		math.Abs(r[1][0])*x.X+math.Abs(r[1][1])*x.Y+math.Abs(r[1][2])*x.Z+math.Abs(t.Y) <= maxReach &&
		math.Abs(r[2][0])*x.X+math.Abs(r[2][1])*x.Y+math.Abs(r[2][2])*x.Z+math.Abs(t.Z) <= maxReach {
		return nil
	}
	for i, v := range m.mesh.Verts {
		w := pose.Apply(v)
		if w.X-w.X+w.Y-w.Y+w.Z-w.Z != 0 { // NaN unless all finite
			return fmt.Errorf("collide: %w: %s%sit moves vertex %d (%v, %v, %v) to (%v, %v, %v), beyond the float64 range",
				ErrInvalidPose, which, sep, i, v.X, v.Y, v.Z, w.X, w.Y, w.Z)
		}
	}
	return nil
}

// bruteForce tests every pair of triangles whose boxes overlap.
func bruteForce(env, fly *Model, pose geom.Pose, o QueryOptions, fn func(Pair) bool) Stats {
	var st Stats
	fm := fly.mesh
	ident := pose.IsIdentity()
	tris := make([]geom.Triangle, len(fm.Tris))
	boxes := make([]geom.AABB, len(fm.Tris))
	scene := geom.EmptyAABB()
	for i := range fm.Tris {
		t := fm.Triangle(i)
		if !ident {
			t = pose.ApplyTriangle(t)
		}
		tris[i] = t
		boxes[i] = t.Bounds()
		scene = scene.Union(boxes[i])
	}
	envBoxes := env.boxes
	if envBoxes == nil {
		envBoxes = triangleBoxes(env.mesh)
	}
	if o.Eps > 0 {
		// The box filter must never drop a pair that the floating-point
		// distance would accept: pad eps by more than the rounding of the
		// box arithmetic and of the distance.
		for _, b := range envBoxes {
			scene = scene.Union(b)
		}
		m := scene.Min.Abs().Max(scene.Max.Abs())
		pad := o.Eps + 1e-9*o.Eps + 1e-12*max(m.X, m.Y, m.Z)
		for i := range boxes {
			boxes[i] = boxes[i].Expanded(pad)
		}
	}
	for i, eb := range envBoxes {
		et := env.mesh.Triangle(i)
		for j := range tris {
			if !eb.Overlaps(boxes[j]) {
				continue
			}
			st.TriTests++
			if geom.TriTriWithin(et, tris[j], o.Eps) {
				if !fn(Pair{Env: int32(i), Fly: int32(j)}) || !o.All {
					return st
				}
			}
		}
	}
	return st
}
