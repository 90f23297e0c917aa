package collide

import (
	"context"
	"github.com/collide3d/collide/bvh"
	"github.com/collide3d/collide/ccd"
	"github.com/collide3d/collide/geom"
)

// TOIResult is the answer of a continuous query (TimeOfImpact).
type TOIResult struct {
	// Hit says that the flying model touches the environment at some time
	// of the motion; TOI then holds the earliest such time, t in [0, 1]
	// (0 at From, 1 at To), and Pair two triangles that touch at a time
	// within it (turning motions: at TOI.Hi). TOI is at most ccd.MaxWidth
	// wide for a motion that does not turn, and at most 32·ccd.MaxWidth
	// for one that turns, except where the rounding of the poses leaves
	// a longer stretch undecided right before a contact proved at a
	// sampled pose (a face sinking slowly onto another): TOI then runs
	// from that stretch's start to the contact.
	Hit  bool
	TOI  ccd.Interval
	Pair Pair
	// Maybe says, for a rotating motion only, that no contact is proved
	// before TOI.Lo nor ruled out after it: the models pass within
	// rounding of each other there (see TimeOfImpact), or one pair of
	// triangles used up its budget of 65,536 spans of time in one piece
	// of the motion. Hit is then false.
	Maybe bool
	// Stopped says that the budget (TOIOptions.Budget) ran out before the
	// search ended: no contact before TOI.Lo is proved. With Hit, Pair
	// touches at a time in TOI (at TOI.Hi for a turning motion) and the
	// earliest contact lies in TOI, which may be wider than said above;
	// with Maybe, as above; with neither, TOI.Hi is 1 and nothing is known
	// from TOI.Lo on.
	Stopped bool
	// Spans counts the spans of time a turning motion's search visited,
	// over every pair of triangles: the query's work beyond Stats (0 for
	// a motion that does not turn).
	Spans int64
	// Exact counts the pairs of triangles decided by the exact primitives
	// (ccd.TriTri, or a turning motion's bisection); Stats.TriTests counts
	// every pair the search's walks reached, most of them screened out
	// (see bvh.TimeOfImpact).
	Exact int64
	Stats Stats
}

// TOIOptions configures a continuous query (TimeOfImpactWith).
type TOIOptions struct {
	// Budget, if not zero, bounds the query's work: Tests the tests it
	// makes (volume tests, leaf tests, triangle pairs reached, decided, and
	// spans of time), Deadline the time, looked at between the search's
	// steps, between two pairs of triangles it decides and within its
	// contact query at the motion's start and its distance queries. When
	// it runs out the query stops and says what it proved
	// (TOIResult.Stopped).
	Budget Budget
}

// TimeOfImpact returns the earliest time at which fly, moving from pose
// from (t = 0) to pose to (t = 1) by the rigid motion ccd.Motion describes
// (translation linear in t, rotation at a constant angular velocity about a
// fixed axis), touches env at the identity pose. It is safe to call from
// many goroutines on the same models. The errors are those of Check, for
// either pose. It is Impact with env at the identity and no budget, which
// says how motions are decided.
//
// Deprecated: use Impact(ctx, env, geom.Pose{}, fly, from, to,
// TOIOptions{}), which places both models and can be cancelled.
func TimeOfImpact(env, fly *Model, from, to geom.Pose) (TOIResult, error) {
	return Impact(context.Background(), env, geom.Pose{}, fly, from, to, TOIOptions{})
}

// TimeOfImpactWith is TimeOfImpact within the budget of o.
//
// Deprecated: use Impact(ctx, env, geom.Pose{}, fly, from, to, o).
func TimeOfImpactWith(env, fly *Model, from, to geom.Pose, o TOIOptions) (TOIResult, error) {
	return Impact(context.Background(), env, geom.Pose{}, fly, from, to, o)
}

// TimeOfImpact is like the function TimeOfImpact, with q's scratch state.
//
// Deprecated: use q.Impact(ctx, env, geom.Pose{}, fly, from, to,
// TOIOptions{}).
func (q *Query) TimeOfImpact(env, fly *Model, from, to geom.Pose) (TOIResult, error) {
	return q.Impact(context.Background(), env, geom.Pose{}, fly, from, to, TOIOptions{})
}

// TimeOfImpactWith is like the function TimeOfImpactWith, with q's scratch
// state.
//
// Deprecated: use q.Impact(ctx, env, geom.Pose{}, fly, from, to, o).
func (q *Query) TimeOfImpactWith(env, fly *Model, from, to geom.Pose, o TOIOptions) (TOIResult, error) {
	return q.Impact(context.Background(), env, geom.Pose{}, fly, from, to, o)
}

// impact is Query.Impact once the query is checked, m fly's motion in
// env's frame.
func (q *Query) impact(ctx context.Context, env, fly *Model, m ccd.Motion, o TOIOptions) TOIResult {
	var r bvh.TOIResult
	if env.tree == nil || fly.tree == nil {
		r = bvh.SweepAll(env.mesh, fly.mesh, m)
	} else {
		bo := bvh.TOIOptions{Budget: ctxBudget(ctx, o.Budget)}
		r = bvh.TimeOfImpact(env.tree, fly.tree, m, bo, &q.s)
	}
	return TOIResult{Hit: r.Hit, TOI: r.TOI, Pair: Pair(r.Pair), Maybe: r.Maybe, Stopped: r.Stopped,
		Spans: r.Spans, Exact: r.Exact, Stats: statsOf(r.Stats)}
}
