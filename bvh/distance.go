package bvh

import (
	"math"

	"github.com/collide3d/collide/geom"
)

// DistanceOptions configures Distance.
type DistanceOptions struct {
	// Max > 0 is a cut-off: the query looks only for triangles closer than
	// Max, and reports Far if there are none, often much sooner than it
	// would find the distance. 0: no cut-off.
	Max float64
	// Budget bounds the search (its Tests count the pairs of nodes whose
	// bound the search computes and the pairs of leaves whose triangles
	// it measures). When it runs out the result is Stopped: the best
	// distance found so far, an upper bound, with a certified lower
	// bound. The zero value bounds nothing.
	Budget Budget
}

// DistanceResult is the answer of Distance.
type DistanceResult struct {
	// Distance is the smallest distance between a triangle of the
	// environment and one of the flying model at the pose (+Inf if Far),
	// as geom.TriTriDistance computes it for the witnesses: 0 exactly when
	// two triangles are in contact.
	Distance float64
	// Far says that no two triangles are closer than the cut-off
	// DistanceOptions.Max.
	Far bool
	// Env and Fly are the witness triangles (-1 if Far); PEnv and PFly
	// their closest points, both in the environment's frame (PFly is on
	// the flying triangle at the pose).
	Env, Fly   int32
	PEnv, PFly geom.Vec3
	// Stopped says that the budget (DistanceOptions.Budget) ran out before
	// the search ended: Distance is then the smallest distance found so
	// far (+Inf, with witnesses -1, if none below the cut-off), an upper
	// bound on the answer, and Far is false.
	Stopped bool
	// Lower is a certified lower bound on the distance: no environment
	// triangle is closer than Lower to a flying one at the pose (as the
	// query computes its image), but for the witnesses, whose distance
	// Distance is to within its rounding (geom.TriTriDistanceBound). It
	// is Distance when the search ended (the cut-off Max if Far), the
	// least bound of the pairs of nodes left when it stopped.
	Lower float64
	Stats Stats
}

// Distance returns the smallest distance between the triangles of env and
// those of fly at pose, with its witnesses, in scratch s (nil: a new one).
// It searches the pairs of nodes of the two trees best first (nearest):
// from a priority queue ordered by a certified lower bound on the
// Euclidean distance between their triangles (pairOps.lowerBound), ties
// to the newest pair, so that the pairs whose volumes overlap are
// descended depth first; the best distance so far prunes from the first
// pair of leaves on, and a pair in contact (distance 0) ends the search.
// The distance of two triangles is geom.TriTriDistance's. The trees must
// be of the same kind; Collide's conditions on pose apply.
//
// There is no first-contact query first: at touching poses (bull and
// homer of libcgal-demo, two offsets, every kind but box-trees) the search
// reached its contact in 5% to 25% more volume tests than Collide's
// first-contact walk (it bounds both children of a pair as it queues
// them), so a check first would have nearly doubled the work where they
// touch, and added that walk at every pose apart.
func Distance(env, fly *Tree, pose geom.Pose, o DistanceOptions, s *Scratch) DistanceResult {
	if s == nil {
		s = new(Scratch)
	}
	d := &s.dist
	// geom.TriTriDistanceBound is at most 2^-43·D + 2^-51·M + 2^-1069, D
	// the extent of a pair's box and M its largest coordinate, both at most
	// emag + 2·fmag + |t|∞ (a rotated coordinate is within √3·fmag).
	t := pose.T.Abs()
	m := env.motionInfo().mag + 2*fly.motionInfo().mag + max(t.X, t.Y, t.Z)
	*d = distState{best: math.Inf(1), slack: 0x1p-41*m + 0x1p-1060, e: -1, f: -1}
	if o.Max > 0 {
		d.best = o.Max
	}
	d.bud = budget{tests: noLimit, deadline: o.Budget.Deadline, done: o.Budget.Done}
	if o.Budget.Tests > 0 {
		d.bud.tests = o.Budget.Tests
	}
	st := collide(env, fly, pose, request{mode: modeDistance, dist: d}, s, nil)
	r := DistanceResult{Distance: d.best, Env: d.e, Fly: d.f, PEnv: d.pe, PFly: d.pf, Stopped: d.stopped, Stats: st}
	if d.e < 0 {
		r.Distance, r.Far = math.Inf(1), !d.stopped
	}
	r.Lower = d.best
	if d.stopped {
		r.Lower = min(d.lower, d.best)
	}
	return r
}

// distEntry is a pair of nodes in the queue of a distance query: with its
// frame, the lower bound proved on the distance of its triangles, and its
// sequence number (later pairs have larger ones).
type distEntry[X any] struct {
	item[X]
	low float64
	seq uint64
}

// before orders the queue: the smaller bound first, and of equal bounds
// the newer pair (so that a run of pairs whose volumes overlap, all with
// bound 0, is walked depth first, as Collide walks it).
func (a *distEntry[X]) before(b *distEntry[X]) bool {
	return a.low < b.low || a.low == b.low && a.seq > b.seq
}

// distQueue is the priority queue of a distance query: a binary min-heap
// in a flat slice, reused from query to query (no allocation once it has
// grown), with the sequence numbers it gives out.
type distQueue[X any] struct {
	h   []distEntry[X]
	seq uint64
}

// push adds the pair it with bound low.
func (q *distQueue[X]) push(it item[X], low float64) {
	q.seq++
	q.h = append(q.h, distEntry[X]{it, low, q.seq})
	h := q.h
	i := len(h) - 1
	x := h[i]
	for i > 0 {
		p := (i - 1) / 2
		if !x.before(&h[p]) {
			break
		}
		h[i] = h[p]
		i = p
	}
	h[i] = x
}

// pop removes the first pair (the queue must not be empty).
func (q *distQueue[X]) pop() {
	h := q.h
	n := len(h) - 1
	x := h[n]
	h = h[:n]
	q.h = h
	if n == 0 {
		return
	}
	i := 0
	for {
		c := 2*i + 1
		if c >= n {
			break
		}
		if c+1 < n && h[c+1].before(&h[c]) {
			c++
		}
		if !h[c].before(&x) {
			break
		}
		h[i] = h[c]
		i = c
	}
	h[i] = x
}
