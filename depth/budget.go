package depth

import (
	"context"
	"math"
	"time"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/geom"
)

// This file is the search's budget (Options.Budget and the context of
// TranslationContext): the steps it counts, the clock and the context it
// looks at, and the answer of a search the budget stopped, whose bounds are
// those found so far, still certified.

// lateEvery is how many iterations of a long loop between two steps (the
// sweep of triangle pairs, the convexity and separating-axis loops) pass
// between two looks at the clock, as a bvh walk looks every 256 pairs.
const lateEvery = 256

// step takes one test off the budget before an exact step of the search
// (a separation certificate, a point classification, the contact query
// that seeds Lower): it returns false, and the search is stopped, when the
// budget has run out or the context is done. The deadline and the context
// are looked at every step: each costs a pass over a solid's triangles,
// far more than reading the clock.
func (q *query) step() bool {
	if q.stopped {
		return false
	}
	b := q.o.Budget
	if b.Tests > 0 && q.st.Tests >= b.Tests || !b.Deadline.IsZero() && !time.Now().Before(b.Deadline) || q.cancelled() {
		q.stopped = true
		return false
	}
	q.st.Tests++
	return true
}

// late reports whether the search is stopped, looking at the deadline and
// the context every lateEvery calls: for the long loops that take no step.
func (q *query) late() bool {
	if q.stopped {
		return true
	}
	if q.o.Budget.Deadline.IsZero() && q.done == nil {
		return false
	}
	// The first call looks, then every lateEvery-th.
	if q.lateN++; q.lateN%lateEvery == 1 &&
		(!q.o.Budget.Deadline.IsZero() && !time.Now().Before(q.o.Budget.Deadline) || q.cancelled()) {
		q.stopped = true
	}
	return q.stopped
}

// cancelled reports whether the query's context is done.
func (q *query) cancelled() bool {
	if q.done == nil {
		return false
	}
	select {
	case <-q.done:
		return true
	default:
		return false
	}
}

// withContext makes ctx's deadline, if earlier, the budget's: the exact
// contact queries of the search then stop at it too (they do not look at
// the context itself).
func withContext(ctx context.Context, o Options) Options {
	if d, ok := ctx.Deadline(); ok && (o.Budget.Deadline.IsZero() || d.Before(o.Budget.Deadline)) {
		o.Budget.Deadline = d
	}
	return o
}

// checkBudget is the budget of the exact contact queries of the search:
// its deadline (the tests are the search's own steps).
func (q *query) checkBudget() (collide.Budget, *collide.Pending) {
	if q.o.Budget.Deadline.IsZero() {
		return collide.Budget{}, nil
	}
	return collide.Budget{Deadline: q.o.Budget.Deadline}, &q.pend
}

// cut returns the answer of a search the budget stopped: res's Lower (the
// bound found so far, and its Witness; Exact if Lower is PD), and for Upper
// the shorter of up, the certified translation move found so far (if
// found), and the shortest translation that a plane certifies along the
// directions us and the six axes (linear in the vertices, taken after the
// budget ran out, so that Upper is never left unknown).
func (q *query) cut(res Result, up float64, move geom.Vec3, found bool, us ...geom.Vec3) Result {
	res.Stopped = true
	best, bestV := math.Inf(1), geom.Vec3{}
	if found {
		best, bestV = up, move
	}
	axes := []geom.Vec3{geom.V(1, 0, 0), geom.V(-1, 0, 0), geom.V(0, 1, 0), geom.V(0, -1, 0), geom.V(0, 0, 1), geom.V(0, 0, -1)}
	for _, d := range append(us, axes...) {
		if l := d.Norm(); !(l > 0) || math.IsInf(l, 0) {
			continue
		} else {
			d = d.Scale(1 / l)
		}
		if t, ok := q.planeAlong(d, best); ok {
			best, bestV = t, d.Scale(t)
		}
	}
	res.Move, res.Upper = bestV, max(bestV.Norm(), best)
	res.Dir = geom.Vec3{}
	if res.Move != (geom.Vec3{}) {
		res.Dir = res.Move.Scale(1 / res.Move.Norm())
	}
	res.Upper = max(res.Upper, res.Lower)
	res.Pose = q.poseAt(res.Move)
	res.Stats = q.st
	return res
}

// planeAlong returns the least t < limit found at which fly moved by t·d
// has all its vertices past env's along the unit d, exactly (planeSeparates):
// from the gap of the floating-point extents, lengthened by a nudge that
// doubles until the exact test holds.
func (q *query) planeAlong(d geom.Vec3, limit float64) (float64, bool) {
	maxA, minB := math.Inf(-1), math.Inf(1)
	for _, p := range q.aPts {
		maxA = max(maxA, d.Dot(p))
	}
	for _, p := range q.bPts0 {
		minB = min(minB, d.Dot(p))
	}
	t := max(maxA-minB, 0)
	nudge := 0x1p-36 * (q.scale + q.diag)
	for k := 0; k < 64 && t < limit; k++ {
		if planeSeparates(d, q.aPts, q.placed(d.Scale(t))) {
			return t, true
		}
		t = max(maxA-minB, 0) + math.Ldexp(nudge, k)
	}
	return 0, false
}
