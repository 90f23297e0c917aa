package bvh

import (
	"fmt"
	"math"

	"github.com/collide3d/collide/bv"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh"
)

// This file is the table of the kinds of tree: how each is named, built,
// saved and loaded; and Collide, which sends a query to its kind's walk
// through collideKind, the type switch that go generate writes from the
// //specialize:case lines of the kinds' files (traverse_gen.go): a call
// through an interface or a func value would make the callback and the
// scratch escape to the heap, an allocation per query. A kind is one file
// (kind_*.go): its node array (an impl), its query (the operations of
// pairOps, see traverse.go), the directives that copy the traversal for
// it and send its queries there, its separation, its cost probes, its
// save layout and its read checks.

// impl is the node array of a tree of one kind.
type impl interface {
	len() int
	ref(i int) int32
	perm() []int32
	// bounds returns the volume of node i as a k-DOP: its own, or the
	// axis-aligned box around it.
	bounds(i int) bv.DOP
	bytes() int64
	// validate checks the invariants over m, whose leaves hold the
	// triangles tw holds; check checks those Read relies on, reporting
	// where in a saved tree they fail.
	validate(m *mesh.TriMesh, o Options, tw twinList) error
	check(m *mesh.TriMesh, o Options, tw twinList) *fault
	encodeNodes(e *encoder)
	// probes returns the cost probes of t, whose nodes these are (see
	// Tree.CostProbes).
	probes(t *Tree) (cv, cu func(n int))
}

// kindSpec is one row of the table of kinds.
type kindSpec struct {
	name string
	// nodeSize is the size of a saved node of a tree built with o.
	nodeSize func(o Options) int64
	// build builds the nodes over the triangles ids of m, which it takes
	// over; read reads them as WriteTo saved them (see Magic).
	build func(o Options, m *mesh.TriMesh, ids []int32) impl
	read  func(d *decoder, h *header, m *mesh.TriMesh) (impl, error)
}

// vtreeSpec returns the row of the kind of vtree vk.
func vtreeSpec[V any](name string, vk *volKind[V]) kindSpec {
	var v V
	n := int64(len(vk.floats(&v, nil)))
	return kindSpec{
		name:     name,
		nodeSize: func(Options) int64 { return 8*n + 4 },
		build:    func(o Options, m *mesh.TriMesh, ids []int32) impl { return newVTree(vk, o, m, ids) },
		read: func(d *decoder, h *header, m *mesh.TriMesh) (impl, error) {
			return readVTree(vk, d, h, m)
		},
	}
}

// kinds is the table of kinds, indexed by Kind: this package's, then any
// that registerKind adds.
var kinds = []kindSpec{
	KDOP: {
		name: "kdop",
		nodeSize: func(o Options) int64 {
			w := int64(4)
			switch {
			case o.Compact:
				w = 1
			case o.Float64:
				w = 8
			}
			return int64(o.K)*w + 4
		},
		build: func(o Options, m *mesh.TriMesh, ids []int32) impl {
			t := dopKindFor(o.K, o.Float64).build(o, m, ids)
			if o.Compact {
				return cdopKindFor(o.K).build(t)
			}
			return t
		},
		read: func(d *decoder, h *header, _ *mesh.TriMesh) (impl, error) {
			if h.o.Compact {
				return cdopKindFor(h.o.K).read(d, h)
			}
			return dopKindFor(h.o.K, h.w == 8).read(d, h)
		},
	},
	OBB:    vtreeSpec("obb", &obbKind),
	Sphere: vtreeSpec("sphere", &sphereKind),
	AABB:   vtreeSpec("aabb", &aabbKind),
	BoxTree: {
		name:     "boxtree",
		nodeSize: func(Options) int64 { return 2*8 + 4 + 4 },
		build:    func(o Options, m *mesh.TriMesh, ids []int32) impl { return newBoxTree(o, m, ids) },
		read: func(d *decoder, h *header, m *mesh.TriMesh) (impl, error) {
			return readBoxTree(d, h, m)
		},
	},
	RSS: vtreeSpec("rss", &rssKind),
}

// registerKind adds the kind s to the table and returns its Kind: for a
// kind defined outside the files of this package's kinds (the toy kind
// of the tests, toykind_test.go), whose trees Build, As, Validate,
// WriteTo and Read then handle as they handle the others'. Collide (and
// the queries made of it) does not run a registered kind: it has no case
// in collideKind, and its own code runs its queries. It must be called
// before any tree of the kind is built, and not while another goroutine
// uses the table.
func registerKind(s kindSpec) Kind {
	if len(kinds) > math.MaxUint8 {
		panic("bvh: too many kinds")
	}
	kinds = append(kinds, s)
	return Kind(len(kinds) - 1)
}

// String returns the kind's name: kdop, obb, sphere, aabb, boxtree or rss.
func (k Kind) String() string {
	if int(k) < len(kinds) {
		return kinds[k].name
	}
	return fmt.Sprintf("Kind(%d)", k)
}

// nodeSize returns the size of a saved node of a tree built with o.
func nodeSize(o Options) int64 { return kinds[o.Kind].nodeSize(o) }

// Scratch is the per-query state of Collide: the flying model's volumes for
// the current pose, its transformed vertices and the traversal's stack.
// Reusing one Scratch makes queries allocation-free once it has grown to
// the models; a Scratch must not be used by two queries at once. What a
// pair of models keeps between queries is in a PairState instead. The zero
// value is ready to use.
type Scratch struct {
	dop   any          // *dopScratch[F, A], for k-DOP trees
	move  *moveScratch // for the vtrees
	box   *boxScratch  // for box-trees
	dist  distState    // for Distance
	sweep sweepState   // for TimeOfImpact
}

// Collide tests fly, placed at pose, against env at the identity pose,
// calling fn for each pair of triangles in contact (at distance at most
// o.Eps); fn returns false to stop the query. Without o.All the query stops
// after the first pair. Each pair is reported once, in no particular order.
// The two trees must be of the same kind (SameKind); a k-DOP tree flying
// against one of another k is tumbled in env's k-DOPs. s may be nil (a new
// Scratch is used).
//
// Collide trusts its input, for speed: pose must be finite, its rotation
// orthonormal to within 10^-6 (geom.Pose.Validate), and it must keep fly's
// coordinates finite; o.Eps must be finite and ≥ 0. Otherwise its answer
// means nothing. The facade, collide.Check, checks all of this and reports
// an error instead. Collide panics if the kinds differ.
func Collide(env, fly *Tree, pose geom.Pose, o QueryOptions, s *Scratch, fn func(Pair) bool) Stats {
	return collide(env, fly, pose, o.request(), s, fn)
}

// collide runs the query o (in its mode, see mode.go) of fly at pose
// against env, as Collide describes, in the kind's copy of the walk.
func collide(env, fly *Tree, pose geom.Pose, o request, s *Scratch, fn func(Pair) bool) Stats {
	if !SameKind(env, fly) {
		panic(fmt.Sprintf("bvh: Collide of a %v tree flying against a %v tree", fly.opts.Kind, env.opts.Kind))
	}
	if env.impl.len() == 0 || fly.impl.len() == 0 {
		return Stats{}
	}
	if s == nil {
		s = new(Scratch)
	}
	if st, ok := collideKind(env, fly, pose, o, s, fn); ok {
		return st
	}
	panic(fmt.Sprintf("bvh: Collide of %v trees, a kind with no walk (no //specialize:case line)", env.opts.Kind))
}

// SameKind reports whether fly can fly against env in Collide: trees of
// one kind (k-DOP trees of any k).
func SameKind(env, fly *Tree) bool { return env.opts.Kind == fly.opts.Kind }

// CostProbes returns the probes that package bench times to measure the
// constants of the cost model on t (t must have at least 66 nodes): cv(n)
// runs n volume tests and cu(n) n flying-volume updates (nil for
// box-trees, which update none), each on nodes close to each other in t's
// layout, and so in space, as a query tests them, with t flying against
// itself at a small rotation (k-DOP trees: against its flying view at a
// random one).
func (t *Tree) CostProbes() (cv, cu func(n int)) { return t.impl.probes(t) }
