package collide

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"

	"github.com/collide3d/collide/bv"
	"github.com/collide3d/collide/bvh"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh"

	// The codecs register themselves with mesh.Load.
	_ "github.com/collide3d/collide/mesh/obj"
	_ "github.com/collide3d/collide/mesh/off"
	_ "github.com/collide3d/collide/mesh/ply"
	_ "github.com/collide3d/collide/mesh/stl"
)

// BVBrute names the brute-force model: no hierarchy, every triangle pair is
// tested (after an exact bounding-box filter). It is the oracle every
// accelerated structure is checked against.
const BVBrute = "brute"

// BVDefault is the bounding volume Build uses when none is named.
const BVDefault = "kdop18"

// bvKinds maps the bounding-volume names to a tree kind and, for k-DOPs,
// k.
var bvKinds = map[string]struct {
	kind bvh.Kind
	k    bv.K
}{
	"kdop6": {bvh.KDOP, bv.K6}, "kdop14": {bvh.KDOP, bv.K14}, "kdop18": {bvh.KDOP, bv.K18}, "kdop26": {bvh.KDOP, bv.K26},
	"obb": {bvh.OBB, 0}, "sphere": {bvh.Sphere, 0}, "aabb": {bvh.AABB, 0}, "boxtree": {bvh.BoxTree, 0},
}

// BVNames returns the names of the bounding-volume types Build accepts:
//
//   - kdop6, kdop14, kdop18, kdop26: k-DOP trees (Klosowski et al.); the
//     flying model's k-DOPs are recomputed for each pose (tumbling)
//   - obb: oriented-box trees (Gottschalk et al., RAPID)
//   - sphere: sphere-trees
//   - aabb: trees of boxes aligned with the model's own axes, tested as
//     oriented boxes under the relative pose (as OPCODE does)
//   - boxtree: Zachmann's box-trees
//   - brute: no hierarchy, every pair tested (the oracle)
//
// The environment's type decides how a query runs; a flying model of
// another type gets a hierarchy of the environment's type, built on the
// first such query and kept.
func BVNames() []string {
	return []string{"kdop6", "kdop14", "kdop18", "kdop26", "obb", "sphere", "aabb", "boxtree", BVBrute}
}

// bvName returns the name of the bounding volume of t.
func bvName(t *bvh.Tree) string {
	if t.Kind() == bvh.KDOP {
		return fmt.Sprintf("kdop%d", int(t.K()))
	}
	return t.Kind().String()
}

// ErrUnknownBV is returned (wrapped) by Build for an unknown BV name.
var ErrUnknownBV = errors.New("unknown bounding volume")

// Rule, Split and their values choose how a hierarchy is split; see package
// bvh.
type (
	Rule  = bvh.Rule
	Split = bvh.Split
)

// The splitting rules and split points.
const (
	Splatter    = bvh.Splatter
	LongestSide = bvh.LongestSide
	MinSum      = bvh.MinSum
	MinMax      = bvh.MinMax
	RAPID       = bvh.RAPID
	Mean        = bvh.Mean
	Median      = bvh.Median
)

// BuildOptions configures Build. The zero value builds an 18-DOP tree with
// the Splatter rule, mean split points and one triangle per leaf.
type BuildOptions struct {
	// BV names the bounding-volume type (see BVNames; "" is BVDefault).
	BV string
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
	// types always use float64).
	Float64 bool
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
	// Restart selects the restart-at-the-root traversal variant of k-DOP
	// trees (for experiments; see bvh.QueryOptions).
	Restart bool
	// ExactRoot bounds the flying model's root by its exact k-DOP, found by
	// hill climbing on its convex hull, instead of by tumbling (k-DOP trees).
	ExactRoot bool
	// MaxPairs > 0 bounds the pairs Check keeps: the query stops when it
	// finds one more, and Result.Truncated says so. Each ignores it (its
	// callback stops the query when it wants).
	MaxPairs int
}

// Pair names two triangles in contact by their indices in the environment
// and the flying model.
type Pair = bvh.Pair

// Stats counts the work of one query, in the terms of the cost model
// T = Nv·Cv + Np·Cp + Nu·Cu.
type Stats = bvh.Stats

// Result is the answer to one query.
type Result struct {
	Collide bool
	Pairs   []Pair // ascending (ComparePairs); one pair in first-contact mode
	// Truncated says that there are more pairs than QueryOptions.MaxPairs:
	// Pairs holds the first MaxPairs the query found.
	Truncated bool
	Stats     Stats
}

// ComparePairs orders pairs as Result.Pairs lists them: by Env, then Fly.
func ComparePairs(a, b Pair) int {
	return cmp.Or(cmp.Compare(a.Env, b.Env), cmp.Compare(a.Fly, b.Fly))
}

// Model is a built, immutable collision model: a mesh and its hierarchy.
type Model struct {
	mesh  *mesh.TriMesh
	bv    string
	tree  *bvh.Tree   // nil for BVBrute
	boxes []geom.AABB // per-triangle bounds (BVBrute)
	// reach bounds |x|, |y|, |z| over the vertices: a pose moves no
	// vertex further than |R|·reach + |t| from the origin.
	reach geom.Vec3
}

// newModel returns the model of m with hierarchy t (nil for BVBrute).
func newModel(m *mesh.TriMesh, name string, t *bvh.Tree) *Model {
	md := &Model{mesh: m, bv: name, tree: t}
	for _, v := range m.Verts {
		md.reach = md.reach.Max(v.Abs())
	}
	return md
}

// Build validates m and builds a model for it. The model keeps m, which must
// not be modified afterwards.
func Build(m *mesh.TriMesh, o BuildOptions) (*Model, error) {
	if o.BV == "" {
		o.BV = BVDefault
	}
	if !slices.Contains(BVNames(), o.BV) {
		return nil, fmt.Errorf("%w %q (known: %s)", ErrUnknownBV, o.BV, strings.Join(BVNames(), ", "))
	}
	if m == nil {
		return nil, errors.New("collide: nil mesh")
	}
	if err := m.Validate(); err != nil {
		return nil, err
	}
	if o.BV == BVBrute {
		md := newModel(m, o.BV, nil)
		md.boxes = triangleBoxes(m)
		return md, nil
	}
	kind := bvKinds[o.BV]
	t, err := bvh.Build(m, bvh.Options{
		Kind: kind.kind, K: kind.k, Rule: o.Rule, Split: o.Split, Leaf: o.Leaf, FlyLeaf: o.FlyLeaf, Float64: o.Float64,
	})
	if err != nil {
		return nil, err
	}
	return newModel(m, o.BV, t), nil
}

func triangleBoxes(m *mesh.TriMesh) []geom.AABB {
	boxes := make([]geom.AABB, len(m.Tris))
	for i := range m.Tris {
		boxes[i] = m.Triangle(i).Bounds()
	}
	return boxes
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

// BV returns the name of the model's bounding-volume type.
func (m *Model) BV() string { return m.bv }

// Tree returns the model's hierarchy (nil for BVBrute).
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
// two goroutines at once (use one per goroutine). The zero value is ready to
// use.
type Query struct {
	s     bvh.Scratch
	pairs []Pair
	hit   func(Pair) bool
	// max is the query's MaxPairs; truncated says that it found more.
	max       int
	truncated bool
}

var queryPool = sync.Pool{New: func() any { return new(Query) }}

// ErrInvalidQuery is wrapped by the error of a query that cannot be asked:
// a nil or unbuilt model, a tolerance that is not a finite number ≥ 0, or
// a negative MaxPairs.
var ErrInvalidQuery = errors.New("invalid query")

// ErrInvalidPose is wrapped by the error of a query whose pose cannot
// place the flying model (see Model.CheckPose).
var ErrInvalidPose = errors.New("invalid pose")

// Check tests fly, placed at pose, against env at the identity pose. It is
// safe to call from many goroutines on the same models; each call takes its
// scratch state from a pool.
//
// A query that cannot be answered as asked is an error, never an answer: a
// nil model or a tolerance that is not a finite number ≥ 0 (wrapping
// ErrInvalidQuery), a pose that is not finite, not a rotation, or that
// moves a vertex of fly to a coordinate that is not finite (wrapping
// ErrInvalidPose; see Model.CheckPose).
func Check(env, fly *Model, pose geom.Pose, o QueryOptions) (Result, error) {
	q := queryPool.Get().(*Query)
	r, err := q.Check(env, fly, pose, o)
	r.Pairs = slices.Clone(r.Pairs)
	if r.Pairs == nil {
		r.Pairs = []Pair{}
	}
	queryPool.Put(q)
	return r, err
}

// Check is like the function Check, but reuses q's buffers: the returned
// Pairs are valid until q's next query.
func (q *Query) Check(env, fly *Model, pose geom.Pose, o QueryOptions) (Result, error) {
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
	st, err := q.Each(env, fly, pose, o, q.hit)
	slices.SortFunc(q.pairs, ComparePairs)
	return Result{Collide: len(q.pairs) > 0, Pairs: q.pairs, Truncated: q.truncated, Stats: st}, err
}

// Each calls fn for every pair in contact, in no particular order, until fn
// returns false (or after the first pair unless o.All), and returns the
// query's counts. Each pair is reported once. It returns the errors of
// Check, before calling fn at all.
func (q *Query) Each(env, fly *Model, pose geom.Pose, o QueryOptions, fn func(Pair) bool) (Stats, error) {
	if err := checkQuery(env, fly, pose, o); err != nil {
		return Stats{}, err
	}
	if env.tree == nil || fly.tree == nil {
		return bruteForce(env, fly, pose, o, fn), nil
	}
	return bvh.Collide(env.tree, fly.tree, pose, bvh.QueryOptions{
		All: o.All, Eps: o.Eps, Restart: o.Restart, ExactRoot: o.ExactRoot,
	}, &q.s, fn), nil
}

// checkQuery returns the error of a query that cannot be answered.
func checkQuery(env, fly *Model, pose geom.Pose, o QueryOptions) error {
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
	if !(o.Eps >= 0 && o.Eps <= math.MaxFloat64) {
		return fmt.Errorf("collide: %w: tolerance %v is not a finite number >= 0", ErrInvalidQuery, o.Eps)
	}
	if o.MaxPairs < 0 {
		return fmt.Errorf("collide: %w: MaxPairs %d is negative", ErrInvalidQuery, o.MaxPairs)
	}
	return fly.CheckPose(pose)
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
// geom.Pose.Validate), or if it moves a vertex of m to a coordinate that
// is not finite (beyond ±math.MaxFloat64), where the answer would be for
// geometry m does not have. Every query checks its flying model's pose so;
// the cost is a few dozen operations unless the pose takes m to within a
// factor 2^-40 of the float64 range, when every vertex is moved once.
func (m *Model) CheckPose(pose geom.Pose) error {
	if pose.IsIdentity() {
		return nil
	}
	if !rigid(&pose) {
		if err := pose.Validate(); err != nil {
			return fmt.Errorf("collide: %w: %v", ErrInvalidPose, err)
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
			return fmt.Errorf("collide: %w: it moves vertex %d (%v, %v, %v) to (%v, %v, %v), beyond the float64 range",
				ErrInvalidPose, i, v.X, v.Y, v.Z, w.X, w.Y, w.Z)
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
