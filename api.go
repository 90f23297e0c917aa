package collide

import (
	"context"
	"fmt"
	"iter"
	"math"
	"slices"
	"time"

	"github.com/collide3d/collide/bvh"
	"github.com/collide3d/collide/ccd"
	"github.com/collide3d/collide/geom"
)

// This file is the pairwise queries as users call them: both models
// placed, the environment's pose first, the relative pose composed once
// inside (see the package documentation, "Poses and frames"); the
// long-running ones take a context.Context. The calls of earlier versions
// (Check, Query.Each, Distance, TimeOfImpact, Near) are thin calls of
// these, with the environment at the identity.

// RelativePose returns fly's pose in env's frame, envPose⁻¹∘flyPose, as
// every pairwise call composes it (a query with both models placed is
// answered exactly for this pose, as computed): normalised (geom.Pose.Normalize): flyPose itself when envPose is the
// identity, else R = Rₑᵀ·R_f and T = Rₑᵀ·(T_f − Tₑ) (the translations'
// difference first: one rounding less than Inverse().Compose, and exact
// for poses near each other far from the origin).
func RelativePose(envPose, flyPose geom.Pose) geom.Pose {
	if envPose.IsIdentity() {
		return flyPose.Normalize()
	}
	e, f := envPose.Normalize(), flyPose.Normalize()
	rt := e.R.Transpose()
	return geom.Pose{R: rt.Mul(f.R), T: rt.MulVec(f.T.Sub(e.T))}
}

// placePair checks the poses of a pairwise query and returns fly's pose
// in env's frame (relative): each must be finite and rigid and keep its
// model's vertices finite (Model.CheckPose), and so must the relative
// pose, at which the query flies fly. flyName names flyPose in the error,
// relName the relative pose. The models must have been checked
// (checkBuilt).
func placePair(env *Model, envPose *geom.Pose, fly *Model, flyPose *geom.Pose, flyName, relName string) (geom.Pose, error) {
	if envPose.IsIdentity() {
		rel := flyPose.Normalize()
		return rel, fly.checkPose(&rel, flyName)
	}
	e, f := envPose.Normalize(), flyPose.Normalize()
	if err := env.checkPose(&e, "the environment's pose"); err != nil {
		return geom.Pose{}, err
	}
	if err := fly.checkPose(&f, flyName); err != nil {
		return geom.Pose{}, err
	}
	rel := RelativePose(e, f)
	return rel, fly.checkPose(&rel, relName)
}

// The names of the poses in errors.
const (
	flyPoseName = "the flying model's pose"
	relPoseName = "the relative pose envPose⁻¹∘flyPose"
)

// commonBound bounds how far envPose.Apply(p) lies from the exact image of
// p under envPose, for |p|∞ ≤ m: each coordinate of Apply is a sum of four
// terms, within γ₄·(‖row‖₁·m + |t|) of the exact one (γ₄ < 2⁻⁵⁰, ‖row‖₁ ≤
// √3·(1 + 2⁻¹⁸) for a rotation to within 10⁻⁶, the check every pose
// passes), and √3 times that in Euclidean norm: below 2⁻⁴⁹·(2m + |T|∞).
// 0 for the identity. A length L with error B in env's frame has, in the
// common frame, an error of at most B·(1 + s) + s·L + 2·commonBound, s =
// stretch(R).
func commonBound(envPose geom.Pose, m float64) float64 {
	if envPose.IsIdentity() {
		return 0
	}
	t := envPose.T.Abs()
	return 0x1p-49 * (2*m + max(t.X, t.Y, t.Z))
}

// Collide tests fly at flyPose against env at envPose, both placed in a
// common frame: whether they touch and, with o.All, every pair of
// triangles in contact (Result.Pairs, ascending). It is safe to call from
// many goroutines on the same models; each call takes its scratch state
// from a pool. The zero geom.Pose is the identity: Collide(env,
// geom.Pose{}, fly, pose, o) tests fly at pose against env where its mesh
// is. The query is decided in env's frame, at the relative pose
// envPose⁻¹∘flyPose composed once, and is exact for that pose (see the
// package documentation, "Poses and frames").
//
// A query that cannot be answered as asked is an error, never an answer: a
// nil model or a tolerance that is not a finite number ≥ 0 (wrapping
// ErrInvalidQuery), a pose that is not finite, not a rotation, or that
// moves a vertex of its model to a coordinate that is not finite (wrapping
// ErrInvalidPose, naming which pose; see Model.CheckPose).
func Collide(env *Model, envPose geom.Pose, fly *Model, flyPose geom.Pose, o QueryOptions) (Result, error) {
	q := queryPool.Get().(*Query)
	r, err := q.Collide(env, envPose, fly, flyPose, o)
	r.Pairs = slices.Clone(r.Pairs)
	r.Contacts, r.Patches = cloneContacts(r.Contacts), clonePatches(r.Patches)
	if r.Pairs == nil {
		r.Pairs = []Pair{}
	}
	q.ps = bvh.PairState{} // the pair's state is no other pair's, nor kept alive by the pool
	q.cs.list = q.cs.list[:0]
	queryPool.Put(q)
	return r, err
}

// Collide is like the function Collide, but reuses q's buffers: the
// returned Pairs are valid until q's next query, and once they have grown
// a query allocates nothing.
func (q *Query) Collide(env *Model, envPose geom.Pose, fly *Model, flyPose geom.Pose, o QueryOptions) (Result, error) {
	return q.collideAt(env, &envPose, fly, &flyPose, &o)
}

// collideAt is Query.Collide (and Query.Check) with its arguments by
// reference: a query's poses and options are copied once.
func (q *Query) collideAt(env *Model, envPose *geom.Pose, fly *Model, flyPose *geom.Pose, o *QueryOptions) (r Result, err error) {
	rel, err := q.check(env, envPose, fly, flyPose, o)
	if err != nil {
		r.Pairs = q.pairs[:0]
		return r, err
	}
	q.collide(env, envPose, fly, &rel, o, &r)
	return r, nil
}

// check returns the error of a pairwise query that cannot be answered,
// else fly's pose in env's frame.
func (q *Query) check(env *Model, envPose *geom.Pose, fly *Model, flyPose *geom.Pose, o *QueryOptions) (geom.Pose, error) {
	if err := checkOptions(env, fly, o); err != nil {
		return geom.Pose{}, err
	}
	return placePair(env, envPose, fly, flyPose, flyPoseName, relPoseName)
}

// CollideFunc calls fn for every pair of triangles in contact, fly at
// flyPose and env at envPose, in no particular order, until fn returns
// false (or after the first pair unless o.All), and returns the query's
// counts. Each pair is reported once; o.MaxPairs is ignored (fn stops the
// query when it wants). It returns the errors of Collide, before calling
// fn at all.
func (q *Query) CollideFunc(env *Model, envPose geom.Pose, fly *Model, flyPose geom.Pose, o QueryOptions, fn func(Pair) bool) (Stats, error) {
	return q.collideFunc(env, &envPose, fly, &flyPose, &o, fn)
}

// collideFunc is Query.CollideFunc (and Query.Each) with its arguments by
// reference.
func (q *Query) collideFunc(env *Model, envPose *geom.Pose, fly *Model, flyPose *geom.Pose, o *QueryOptions, fn func(Pair) bool) (st Stats, err error) {
	rel, err := q.check(env, envPose, fly, flyPose, o)
	if err != nil {
		return Stats{}, err
	}
	q.walkInto(env, fly, &rel, o, fn, &st)
	return st, nil
}

// Pairs returns an iterator over the pairs of triangles in contact, fly at
// flyPose and env at envPose: those CollideFunc would pass to its
// callback (one pair unless o.All; o.MaxPairs is ignored), in no
// particular order. The errors of Collide are returned at once; the query
// itself runs when the iterator is ranged over, and stops when the loop
// does (a break ends the walk: the work not done is not done). Each range
// runs the query again.
//
// The iterator uses q's scratch state: q must not run another query
// (nor be ranged over again) until the loop ends, and the loop's body must
// use another Query for its own queries. Use CollideFunc for the counts.
func (q *Query) Pairs(env *Model, envPose geom.Pose, fly *Model, flyPose geom.Pose, o QueryOptions) (iter.Seq[Pair], error) {
	rel, err := q.check(env, &envPose, fly, &flyPose, &o)
	if err != nil {
		return func(func(Pair) bool) {}, err
	}
	return func(yield func(Pair) bool) {
		q.iterStats = Stats{}
		q.walkInto(env, fly, &rel, &o, yield, &q.iterStats)
	}, nil
}

// DistanceBetween returns the smallest distance between the triangles of
// env at envPose and those of fly at flyPose, with the two witness
// triangles and their closest points in the common frame (see
// DistanceResult). It is safe to call from many goroutines on the same
// models. The errors are those of Collide, and a cut-off that is not a
// finite number ≥ 0.
//
// ctx stops a long search: its deadline and its cancellation are looked
// at with o.Budget's (every 256 pairs of nodes), and when they stop the
// search the result is the partial one a budget gives (Stopped: the best
// distance so far, a certified lower bound) with an error wrapping
// ctx.Err(): errors.Is(err, context.Canceled) or
// context.DeadlineExceeded. A context already done returns at once,
// Stopped with nothing found. Brute-force models look at ctx between two
// flying triangles.
func DistanceBetween(ctx context.Context, env *Model, envPose geom.Pose, fly *Model, flyPose geom.Pose, o DistanceOptions) (DistanceResult, error) {
	q := queryPool.Get().(*Query)
	r, err := q.DistanceBetween(ctx, env, envPose, fly, flyPose, o)
	queryPool.Put(q)
	return r, err
}

// DistanceBetween is like the function DistanceBetween, with q's scratch
// state.
//
// The pairs of nodes of the two hierarchies are searched best first, by a
// lower bound on the Euclidean distance of their triangles that each kind
// of tree proves from its volumes (with their proven rounding), and a pair
// is dropped as soon as its bound is no better than the best distance
// found so far; a pair of triangles in contact ends the search. Two
// triangles' distance is geom.TriTriDistance's.
func (q *Query) DistanceBetween(ctx context.Context, env *Model, envPose geom.Pose, fly *Model, flyPose geom.Pose, o DistanceOptions) (DistanceResult, error) {
	if ctx == nil {
		return DistanceResult{}, fmt.Errorf("collide: %w: nil context (use context.Background())", ErrInvalidQuery)
	}
	rel, err := q.check(env, &envPose, fly, &flyPose, &QueryOptions{Solid: o.Solid})
	if err != nil {
		return DistanceResult{}, err
	}
	if !(o.Max >= 0 && o.Max <= math.MaxFloat64) {
		return DistanceResult{}, fmt.Errorf("collide: %w: distance cut-off %v is not a finite number >= 0", ErrInvalidQuery, o.Max)
	}
	if err := ctx.Err(); err != nil {
		return DistanceResult{Distance: math.Inf(1), Env: -1, Fly: -1, Stopped: true}, fmt.Errorf("collide: distance query not started: %w", err)
	}
	r := q.distance(ctx, env, fly, rel, o)
	if !envPose.IsIdentity() {
		m := max(maxAbs(r.PEnv), maxAbs(r.PFly))
		e := envPose.Normalize()
		r.PEnv, r.PFly = e.Apply(r.PEnv), e.Apply(r.PFly)
		if r.Bound > 0 {
			st := stretch(&e.R)
			r.Bound = r.Bound*(1+st) + st*r.Distance + 2*commonBound(e, m)
		}
	}
	return r, stoppedBy(ctx, r.Stopped, "distance query")
}

// stretch returns s such that R scales every length by a factor within
// [1 − s, 1 + s]: 3·max|RᵀR − I| (Gershgorin's bound on RᵀR's
// eigenvalues, whose square roots are the factors) plus 2⁻⁴⁸ for the
// rounding of RᵀR. About 2⁻⁴⁸ for a rotation built in float64, at most
// 3·10⁻⁶ + 2⁻⁴⁸ for one that passes Validate.
func stretch(r *geom.Mat3) float64 {
	p := r.Transpose().Mul(*r)
	d := 0.0
	for i := range 3 {
		for j := range 3 {
			x := p[i][j]
			if i == j {
				x--
			}
			d = max(d, math.Abs(x))
		}
	}
	return 3*d + 0x1p-48
}

// maxAbs returns the largest |coordinate| of v (0 for a NaN).
func maxAbs(v geom.Vec3) float64 {
	a := v.Abs()
	return max(a.X, a.Y, a.Z)
}

// Impact returns the earliest time at which fly, moving from pose flyFrom
// (t = 0) to pose flyTo (t = 1) by the rigid motion ccd.Motion describes
// (translation linear in t, rotation at a constant angular velocity about
// a fixed axis), touches env, which stays at envPose during the motion. It
// is safe to call from many goroutines on the same models. The errors are
// those of Collide, for each pose.
//
// The motion is decided in env's frame: from envPose⁻¹∘flyFrom to
// envPose⁻¹∘flyTo, each composed once, which is the same rigid motion
// (its axis turned by envPose's rotation) up to the rounding of the
// composition. A motion that does not turn (both relative poses have the
// same rotation matrix) is decided exactly: each flying vertex moves on a
// straight line from its position at the start to its position at the
// end (as Collide computes them), and the answer is exact for those
// positions, as Collide's is for a pose. A turning motion is decided by
// bisection of time, with the rounding of the poses bounded: contact at
// TOI.Hi is proved at the pose as computed there (ccd.Motion.At), no
// contact before TOI.Lo is proved for the motion; where the models pass
// within that rounding of each other without a proved contact, the answer
// is Maybe. See bvh.TimeOfImpact.
//
// o.Budget bounds the work; ctx stops the search as DistanceBetween's
// does (its deadline and cancellation looked at with the budget's, between
// the search's steps): the result is then the partial one (Stopped) and
// the error wraps ctx.Err(). Brute-force models look at ctx only before
// they start.
func Impact(ctx context.Context, env *Model, envPose geom.Pose, fly *Model, flyFrom, flyTo geom.Pose, o TOIOptions) (TOIResult, error) {
	q := queryPool.Get().(*Query)
	r, err := q.Impact(ctx, env, envPose, fly, flyFrom, flyTo, o)
	queryPool.Put(q)
	return r, err
}

// Impact is like the function Impact, with q's scratch state.
func (q *Query) Impact(ctx context.Context, env *Model, envPose geom.Pose, fly *Model, flyFrom, flyTo geom.Pose, o TOIOptions) (TOIResult, error) {
	if ctx == nil {
		return TOIResult{}, fmt.Errorf("collide: %w: nil context (use context.Background())", ErrInvalidQuery)
	}
	if err := checkOptions(env, fly, &QueryOptions{}); err != nil {
		return TOIResult{}, err
	}
	from, err := placePair(env, &envPose, fly, &flyFrom, "the flying model's pose at the start (flyFrom)", "the relative pose envPose⁻¹∘flyFrom")
	if err != nil {
		return TOIResult{}, err
	}
	to, err := placePair(env, &envPose, fly, &flyTo, "the flying model's pose at the end (flyTo)", "the relative pose envPose⁻¹∘flyTo")
	if err != nil {
		return TOIResult{}, err
	}
	if err := ctx.Err(); err != nil {
		return TOIResult{Stopped: true, TOI: ccd.Interval{Lo: 0, Hi: 1}}, fmt.Errorf("collide: time-of-impact query not started: %w", err)
	}
	r := q.impact(ctx, env, fly, ccd.Motion{From: from, To: to}, o)
	return r, stoppedBy(ctx, r.Stopped, "time-of-impact query")
}

// NearTriangles calls fn with the environment triangles near fly, env at
// envPose and fly at flyPose: every triangle of env within eps of a
// triangle of fly (in the sense of geom.TriTriWithin, at the relative
// pose), and maybe more. It is the search for candidates of a caller with
// its own exact test of what flies, a swept tool for instance (package nc
// flies a tool's axis with the tool's radius as eps). fn returns false to
// stop the search. Once q's scratch state has grown to the models, a
// search with hierarchies allocates nothing.
//
// With hierarchies, NearTriangles reports the triangles of every
// environment leaf whose volume comes within eps of a flying leaf's,
// whether or not the triangles themselves do (see bvh.Near): a triangle
// may be reported more than once, and Stats.TriTests counts the triangles
// handed over. A model without one (Brute) is searched pair by pair: each
// triangle within eps is reported once, and Stats.TriTests counts the
// exact tests. NearTriangles returns the errors of Collide (a nil or
// unbuilt model, volumes that do not fly against each other, a tolerance
// that is not a finite number ≥ 0, a pose that cannot place its model),
// before calling fn at all.
func (q *Query) NearTriangles(env *Model, envPose geom.Pose, fly *Model, flyPose geom.Pose, eps float64, fn func(envTri int32) bool) (Stats, error) {
	o := QueryOptions{All: true, Eps: eps}
	rel, err := q.check(env, &envPose, fly, &flyPose, &o)
	if err != nil {
		return Stats{}, err
	}
	return q.near(env, fly, rel, o, fn), nil
}

// ctxBudget returns b as bvh's budget, stopped by ctx too: the earlier of
// b's deadline and ctx's, and ctx's Done channel (nil for a context that
// is never done, such as context.Background(): the budget is then b's).
func ctxBudget(ctx context.Context, b Budget) bvh.Budget {
	bb := bvh.Budget{Tests: b.Tests, Deadline: b.Deadline, Done: ctx.Done()}
	if d, ok := ctx.Deadline(); ok && (bb.Deadline.IsZero() || d.Before(bb.Deadline)) {
		bb.Deadline = d
	}
	return bb
}

// stoppedBy returns the error of a query that stopped (stopped) when ctx
// is done or its deadline has passed (the query may see the clock pass
// the deadline before the context's timer fires): it wraps ctx.Err(), or
// context.DeadlineExceeded. A query that finished, or that its own Budget
// stopped, has none.
func stoppedBy(ctx context.Context, stopped bool, what string) error {
	if !stopped {
		return nil
	}
	err := ctx.Err()
	if d, ok := ctx.Deadline(); err == nil && ok && !time.Now().Before(d) {
		err = context.DeadlineExceeded
	}
	if err == nil {
		return nil
	}
	return fmt.Errorf("collide: %s stopped: %w", what, err)
}

// String returns the counts labelled, in a fixed order: "bv tests 120, tri
// tests 8, updates 3", followed by ", leaf tests N" and ", skipped N" when
// they are not 0 (they count the work of some kinds of tree and of
// fronts only).
func (st Stats) String() string {
	s := fmt.Sprintf("bv tests %d, tri tests %d, updates %d", st.BVTests, st.TriTests, st.Updates)
	if st.LeafTests != 0 {
		s += fmt.Sprintf(", leaf tests %d", st.LeafTests)
	}
	if st.Skipped != 0 {
		s += fmt.Sprintf(", skipped %d", st.Skipped)
	}
	if st.Convex != 0 {
		s += fmt.Sprintf(", convex %d (plane hits %d, new %d)", st.Convex, st.PlaneHits, st.PlaneNew)
	}
	if st.SolidTests != 0 {
		s += fmt.Sprintf(", solid tests %d", st.SolidTests)
	}
	if st.Inside != 0 {
		s += fmt.Sprintf(", inside %d", st.Inside)
	}
	return s
}
