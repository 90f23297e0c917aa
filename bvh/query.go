package bvh

import "github.com/collide3d/collide/bv"

// Pair names two triangles in contact by their indices in the environment's
// and the flying model's meshes.
type Pair struct {
	Env, Fly int32
}

// Stats counts the work of one query, in the terms of the cost model
// T = Nv·Cv + Np·Cp + Nu·Cu.
type Stats struct {
	BVTests  int64 // Nv: bounding-volume overlap tests
	TriTests int64 // Np: exact triangle-triangle tests
	Updates  int64 // Nu: flying volumes re-bounded (k-DOPs) or moved (the other kinds) for the pose
	// LeafTests (Nl) counts the tests of a leaf's triangles against the
	// other tree's volume, which replace the volume tests of pairs with a
	// leaf in the kinds that make them (OBB, AABB, sphere and RSS trees).
	LeafTests int64
	// Skipped counts the pairs of nodes of a front (QueryOptions.Front)
	// kept without a test: the flying model has moved less since the
	// distance their triangles were proved apart.
	Skipped int64
}

// Add adds the counts of s to st.
func (st *Stats) Add(s Stats) {
	st.BVTests += s.BVTests
	st.TriTests += s.TriTests
	st.Updates += s.Updates
	st.LeafTests += s.LeafTests
	st.Skipped += s.Skipped
}

// QueryOptions configures Collide. The zero value asks for the first contact
// at distance 0, with the traversal of Algorithm 1 and approximate tumbling.
type QueryOptions struct {
	// All reports every pair in contact; otherwise the query stops at the
	// first.
	All bool
	// Eps ≥ 0 is the tolerance: pairs at distance at most Eps are in
	// contact (0: exact contact).
	Eps float64
	// Restart (k-DOP trees) selects the traversal variant that, when a
	// flying node meets an environment leaf, tests its children against
	// the environment root rather than against that leaf (Klosowski et
	// al.'s "modified" variant).
	Restart bool
	// ExactRoot (k-DOP trees) bounds the flying root by its exact k-DOP,
	// found by hill climbing on the flying model's convex hull, rather than
	// by tumbling. The climb starts from the previous query's extreme
	// vertices if State keeps them.
	ExactRoot bool
	// State, if not nil, is kept by the two models between their queries
	// (see PairState): a first-contact query (without All, Front, Budget
	// or Restart) tests the pair of triangles the last one found before it
	// walks.
	State *PairState
	// Front, if not nil, is the front of the pair of models (see Front):
	// the query starts from it rather than from the roots, and leaves its
	// own there. The pairs found are those of a query from the roots. A
	// query with Restart ignores it.
	Front *Front
	// Budget, if not zero, bounds the query's work (see Budget): when it
	// runs out, the query stops and Pending, which must then not be nil,
	// holds what it has not tested. A query with a Front ignores it.
	Budget Budget
	// Pending receives the rest of a query its budget stopped.
	Pending *Pending
}

// PairState is what one pair of models keeps from one query to the next:
// the extreme vertices of the last ExactRoot query, where the next one's
// hill climbing starts, and the pair of triangles the last first-contact
// query found, which the next one tests first (see Collide). Unlike a
// Scratch, which any query may use, a PairState belongs to one pair of
// models; given to a query of another, it starts afresh. The zero value is
// ready to use; a PairState must not be used by two queries at once.
type PairState struct {
	view  *flyView
	climb bv.ClimbState
	hint  contactHint
}

// contactHint is the pair of triangles in contact that the last
// first-contact query of the trees env and fly found (ok).
type contactHint struct {
	env, fly *Tree
	p        Pair
	ok       bool
}

// hintFor returns the hint of the trees env and fly, forgotten if it was
// another pair's.
func (p *PairState) hintFor(env, fly *Tree) *contactHint {
	h := &p.hint
	if h.env != env || h.fly != fly {
		*h = contactHint{env: env, fly: fly}
	}
	return h
}

// climbFor returns the climbing state for the flying view v, reset if it
// was another view's.
func (p *PairState) climbFor(v *flyView) *bv.ClimbState {
	if p.view != v {
		p.view = v
		p.climb = bv.ClimbState{}
	}
	return &p.climb
}
