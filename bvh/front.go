package bvh

import (
	"math"
	"slices"
	"sync"

	"github.com/collide3d/collide/geom"
)

// This file is temporal coherence: the front a query leaves for the next
// query of the same pair of models (section 6.3.3 of Klosowski's
// dissertation, generalised from the flying root to pairs of nodes).
//
// A front is a list of pairs of nodes (e, f), one of each tree, whose
// subtrees' leaves partition the pairs of leaves of the two trees: every
// pair of leaves is below exactly one pair of the front. A walk started
// from every pair of a front finds exactly the pairs a walk from the roots
// finds, whatever the front, because the walk from a pair tests all of
// the pairs of leaves below it. The walk from the roots leaves such a
// front (the pairs it found disjoint and the pairs of leaves it reached,
// walk.front.out), and so does every operation below:
//
//   - dropping: a pair that may overlap is replaced by the front its own
//     walk leaves (split at once, sep having tested it: the walk starts
//     from its children);
//   - raising: two pairs that share one node, the other nodes being the
//     two children of one node, are replaced by the pair of that node and
//     the shared one, when both are far (more than twice the last motion
//     beyond the tolerance) and its volumes are disjoint; the pair so
//     raised is raised again with the pair before it while it can, so
//     that the front climbs back as the flying model leaves, where the
//     dissertation rose one level a query;
//   - restarting: a query from the front that cost more than the last
//     complete walk from the roots (its volume tests counted twice, for
//     sep weighs every axis where the walk's test stops at the first that
//     separates, and its pairs one test every frontScan) sends the next
//     query back to the roots: a front dropped where the model passed and
//     not raised since is finer than the walk from the roots, and would
//     cost more at every step;
//   - stopping: a first-contact query stops at its first pair; the pairs it
//     has not tested (the rest of its stack, the rest of the old front)
//     stay in the front as they are.
//
// What makes a front cheap is what it remembers of its disjoint pairs: a
// lower bound on the distance between their triangles (pairOps.sep), and
// how far the flying model had moved when it was proved (Front.moved, the
// sum of bounds on the displacement of every flying vertex between
// consecutive queries). While the flying model has moved less than the
// bound minus the tolerance, no triangle below the pair can have come
// within the tolerance, and the pair is kept without a test (Stats.Skipped).
// A bound costs a sep, which weighs every axis where the walk's own test
// stops at the first that separates: a near pair, whose last bound was
// within the last motion (or a pair of leaves, proved nothing), would be
// tested again at the next query whatever sep proved, so that test (or a
// leaf's test against a volume) decides it instead, nearTests queries in
// a row at most (nearMark), before sep measures it again.

// Front is what one pair of models keeps from one query to the next for
// temporal coherence: the pairs of nodes where the last query's walk ended,
// with what it proved about them, and the motion of the flying model since.
// It belongs to one pair (an environment and a flying tree, a world's pair
// of objects), never to a model: a Front given to a query of other trees
// starts afresh. The zero value is ready to use; a Front must not be used by
// two queries at once.
type Front struct {
	env, fly *Tree
	k        int // the environment's k, for k-DOP trees (the flying view)
	// state is the *frontState[X] of the trees' kind.
	state any
	// moved bounds the distance any flying vertex (as the queries compute
	// it at their poses) has moved since the first query, rounded upward;
	// pose is the last query's pose.
	moved float64
	pose  geom.Pose
	have  bool
	// lastMove is the bound of the last query's motion.
	lastMove float64
}

// Reset forgets the front: the next query starts from the roots.
func (fr *Front) Reset() { *fr = Front{} }

// Len returns the number of pairs of nodes in the front.
func (fr *Front) Len() int {
	switch s := fr.state.(type) {
	case *frontState[noFrame]:
		return len(s.items)
	case *frontState[boxFrame]:
		return len(s.items)
	}
	return 0
}

// fentry is a pair of nodes of a front, with what the last test of it
// proved.
type fentry[X any] struct {
	item[X]
	// low > 0 proves that the triangles below the pair are farther apart
	// than low, when the flying model had moved by at (Front.moved); 0
	// proves nothing (the pair is tested again); noBound says that the
	// walk's own test found the pair disjoint where sep proved nothing
	// (the pair is tested again by that test, which is cheaper than sep).
	low, at float64
}

// noBound is fentry.low of a pair found disjoint with no bound.
const noBound = -1.0

// nearMark - n (n = 0, 1, ...) is fentry.low of a near pair found
// disjoint by the walk's own test n + 1 queries in a row without sep (see
// track); after nearTests such queries sep measures it again.
const (
	nearMark  = -2.0
	nearTests = 4
)

// frontState is the front of one kind of tree.
type frontState[X any] struct {
	items, next []fentry[X]
	// root is the pair of the roots. restart makes the next query walk
	// from it, as the first does: track sets it when a query from the
	// front cost more than fresh, the volume tests of the last complete
	// walk from the roots (its own tests counted twice, its pairs as a
	// test every frontScan), so that a front that has grown finer than
	// the walk from the roots (dropped where the model passed, not raised
	// since) never costs much more than that walk.
	root    item[X]
	restart bool
	fresh   int64
	// hint is the index in items of the pair of leaves where the last
	// first-contact query found its contact (-1: none); the next one
	// starts there.
	hint int
	// epar and fpar are the parents of the environment's and the flying
	// tree's nodes (-1 for the roots).
	epar, fpar []int32
}

// attach readies fr for a query of fly against env at pose and returns its
// state, with the flying model's motion since the last query added to
// fr.moved. A front of other trees is reset first.
func attach[X any](fr *Front, env, fly *Tree, k int, pose geom.Pose, root item[X]) *frontState[X] {
	st := stateFor(fr, env, fly, k, root)
	if fr.have {
		fr.lastMove = fly.motion(fr.pose, pose)
		fr.moved = math.Nextafter(fr.moved+fr.lastMove, math.Inf(1))
	}
	fr.pose, fr.have = pose, true
	return st
}

// stateFor returns fr's state for queries of fly against env (of k-DOPs of
// k), starting afresh at root if it was another pair's.
func stateFor[X any](fr *Front, env, fly *Tree, k int, root item[X]) *frontState[X] {
	st, ok := fr.state.(*frontState[X])
	if !ok || fr.env != env || fr.fly != fly || fr.k != k {
		*fr = Front{env: env, fly: fly, k: k}
		st = &frontState[X]{hint: -1, root: root, restart: true}
		st.epar, st.fpar = frontParents(env, fly, k)
		fr.state = st
	}
	return st
}

// frontScan is how many pairs of a front kept without a test track counts
// as one volume test when it weighs a front against a walk from the roots:
// a pair kept is copied and its bound compared, a few nanoseconds, where a
// volume test takes tens.
const frontScan = 8

// prepared is the most pairs of nodes Prepare makes room for.
const prepared = 1 << 16

// Prepare readies fr for the queries of fly against env (trees of the same
// kind), so that they allocate nothing while the front stays within
// prepared pairs of nodes (four times the trees' numbers of nodes, at most
// 2^16): the parents of their nodes, the bound of the flying model's
// motion, the front's buffers.
func (fr *Front) Prepare(env, fly *Tree) {
	if !SameKind(env, fly) {
		return
	}
	fly.motionInfo()
	n := min(4*(env.impl.len()+fly.impl.len()), prepared)
	if bt, ok := env.impl.(*boxTree); ok {
		st := stateFor(fr, env, fly, 0, item[boxFrame]{x: boxFrame{bt.root, fly.impl.(*boxTree).root}})
		st.items, st.next = slices.Grow(st.items, n), slices.Grow(st.next, n)
		return
	}
	st := stateFor(fr, env, fly, int(env.opts.K), item[noFrame]{})
	st.items, st.next = slices.Grow(st.items, n), slices.Grow(st.next, n)
}

// lowOf returns a lower bound on eps + g, rounded down: the distance a
// pair proved g farther than the tolerance eps is above.
func lowOf(eps, g float64) float64 { return (eps + g) * (1 - 0x1p-50) }

// keeps reports whether a pair proved farther apart than low when the
// flying model had moved by at can be kept without a test now that it has
// moved by moved, at tolerance eps: the motion since, rounded up, is less
// than low - eps, rounded down. (moved - at bounds the motion since: each
// step added an upper bound and rounded upward.)
func keeps(low, at, moved, eps float64) bool {
	return low > eps && (moved-at)*(1+0x1p-50) < (low-eps)*(1-0x1p-50)
}

// motionInfo is what bounding the flying model's motion needs: a centre c
// of its vertices, a radius r ≥ |v - c| for every vertex v, and mag, the
// largest |coordinate|.
type motionInfo struct {
	c      geom.Vec3
	r, mag float64
}

// motion returns an upper bound on the distance any vertex of t moves,
// as queries compute it (geom.Pose.Apply), between poses a and b.
//
// A vertex v goes from a(v) to b(v): the exact images differ by
// (Rb - Ra)(v - c) + (Rb - Ra)c + (Tb - Ta), at most ‖Rb - Ra‖_F·r +
// |(Rb - Ra)c + Tb - Ta|. Each computed image is within 2^-50·(3m + |T|∞)
// of the exact one (three products and three sums a coordinate, |R_ij| ≤
// 1 + 10^-6, √3 for the norm), and the bound itself is computed within a
// relative 2^-48 and an absolute 2^-48·(m + |Ta|∞ + |Tb|∞) (the differences
// of rotations and the products by c); the padding below covers all of it.
func (t *Tree) motion(a, b geom.Pose) float64 {
	mi := t.motionInfo()
	var dr geom.Mat3
	f := 0.0
	for i := range 3 {
		for j := range 3 {
			dr[i][j] = b.R[i][j] - a.R[i][j]
			f += dr[i][j] * dr[i][j]
		}
	}
	d := b.T.Sub(a.T).Add(dr.MulVec(mi.c))
	ta, tb := a.T.Abs(), b.T.Abs()
	abs := 0x1p-44 * (3*mi.mag + max(ta.X, ta.Y, ta.Z) + max(tb.X, tb.Y, tb.Z))
	return (math.Sqrt(f)*mi.r+d.Norm())*(1+0x1p-44) + abs
}

// motionInfo returns (computing it once) what motion needs of t.
func (t *Tree) motionInfo() *motionInfo {
	t.side.once.Do(func() { t.side.mi = motionInfoOf(t.mesh.Verts) })
	return &t.side.mi
}

// motionInfoOf returns the motion data of the vertices v.
func motionInfoOf(v []geom.Vec3) motionInfo {
	var mi motionInfo
	if len(v) == 0 {
		return mi
	}
	b := geom.EmptyAABB()
	for _, x := range v {
		b = b.Union(geom.Box(x, x))
	}
	mi.c = b.Min.Add(b.Max).Scale(0.5)
	for _, x := range v {
		mi.r = max(mi.r, x.Sub(mi.c).Norm())
		a := x.Abs()
		mi.mag = max(mi.mag, a.X, a.Y, a.Z)
	}
	mi.r = mi.r*(1+0x1p-48) + 0x1p-48*mi.mag
	return mi
}

// treeSide is what a tree computes once, on first use, for the queries
// that need it: its motion bound's data and the parents of its nodes in
// each numbering the queries use.
type treeSide struct {
	once sync.Once
	mi   motionInfo
	mu   sync.Mutex
	par  map[int][]int32
}

// parents returns (computing it once) the parents of the nodes of t in
// numbering key (0: as an environment; k: as a flying tree against an
// environment of k-DOPs; 1: as a flying tree of another kind), n numbers
// in all, whose children kids gives (l < 0 for a leaf).
func (t *Tree) parents(key, n int, kids func(i int32) (l, r int32)) []int32 {
	s := &t.side
	s.mu.Lock()
	defer s.mu.Unlock()
	if p, ok := s.par[key]; ok {
		return p
	}
	p := make([]int32, n)
	for i := range p {
		p[i] = -1
	}
	stack := []int32{0}
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if l, r := kids(i); l >= 0 {
			p[l], p[r] = i, i
			stack = append(stack, l, r)
		}
	}
	if s.par == nil {
		s.par = map[int][]int32{}
	}
	s.par[key] = p
	return p
}
