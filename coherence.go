package collide

import (
	"context"
	"math"
	"time"

	"github.com/collide3d/collide/bvh"
	"github.com/collide3d/collide/geom"
)

// Front is what one pair of models keeps from one query to the next for
// temporal coherence (Klosowski's front tracking): the pairs of nodes of
// the two hierarchies where the last query ended, with the distances they
// were proved apart, and how far the flying model has moved since. A query
// given a Front (QueryOptions.Front) starts from it rather than from the
// roots, keeps without a test every pair the motion since cannot have
// brought into contact, drops the front where volumes now overlap and
// raises it where they have parted; it finds exactly the pairs a query from
// the roots finds, and a first-contact query still stops at its first pair
// (starting where the last contact was).
//
// A Front belongs to one pair of models (a flight, a world's pair of
// objects), never to a model: given to a query of other models, it starts
// afresh. Fronts pay when poses change little between queries; brute-force
// models ignore them. The zero value is ready to use; a Front must not be
// used by two queries at once.
type Front struct {
	f bvh.Front
}

// Reset forgets the front: the next query starts from the roots.
func (f *Front) Reset() { f.f.Reset() }

// Len returns the number of pairs of nodes in the front.
func (f *Front) Len() int { return f.f.Len() }

// Budget bounds the work of a time-critical query (QueryOptions.Budget):
// a number of tests, a deadline, or both. The zero value bounds nothing.
type Budget struct {
	// Tests > 0 is the most pairs of nodes the query tests (each a volume
	// test, a leaf's triangles against a volume, or the triangles of two
	// leaves).
	Tests int64
	// Deadline, if not zero, is when the query stops; it looks at the
	// clock every 256 pairs of nodes.
	Deadline time.Time
}

// Pending is what a time-critical query left when its budget ran out: the
// pairs of nodes it has not tested. A query that stops early answers
// "maybe": the pairs it found are in contact (a contact is never wrong),
// but "no contact" needs the rest, which Query.Resume tests later, within
// another budget. The zero value is done; a Pending belongs to one query.
//
// A query of solids (QueryOptions.Solid) stopped by its budget has not
// decided containment either, which needs the surfaces found apart: the
// Resume that finishes its tree test without a pair found in any part runs
// the containment test, counts it in the Stats it returns (SolidTests,
// Inside) and leaves the answer in Pending.Inside.
type Pending struct {
	p   bvh.Pending
	sol pendingSolid
}

// pendingSolid is what a query of solids leaves for Resume's containment
// test: its models and pose (env nil: none to run), whether a pair was
// found, and the answer once run.
type pendingSolid struct {
	env, fly *Model
	rel      geom.Pose
	found    bool
	in       Inside
}

// Inside returns what the containment test of a query of solids found,
// once the Resume that finished the query ran it (NotInside before, and
// for a query that is not of solids or found a pair).
func (p *Pending) Inside() Inside { return p.sol.in }

// deferInside keeps in o.Pending what Resume needs for the containment
// test of a query of solids that its budget stopped.
func (q *Query) deferInside(env, fly *Model, rel *geom.Pose, o *QueryOptions) {
	if o.Pending == nil {
		return
	}
	o.Pending.sol = pendingSolid{}
	if o.Solid && !o.Pending.Done() {
		o.Pending.sol = pendingSolid{env: env, fly: fly, rel: *rel, found: q.nhit > 0}
	}
}

// Done reports whether the query has nothing left to test.
func (p *Pending) Done() bool { return p.p.Done() }

// Left returns the number of pairs of nodes the query has not tested.
func (p *Pending) Left() int { return p.p.Left() }

// Resume goes on with the query p holds, within budget b (zero: to the
// end), calling fn for each pair in contact that the earlier parts did not
// report, and returns this part's counts; p then holds what is left. The
// Resume that finishes a query of solids runs its containment test (see
// Pending).
func (q *Query) Resume(p *Pending, b Budget, fn func(Pair) bool) Stats {
	if p.Done() {
		return Stats{}
	}
	q.callbacks()
	q.nhit, q.fn = 0, fn
	st := statsOf(p.p.Resume(&q.s, bvh.Budget{Tests: b.Tests, Deadline: b.Deadline}, q.each))
	q.fn = nil
	if ps := &p.sol; ps.env != nil {
		ps.found = ps.found || q.nhit > 0
		if p.Done() {
			if !ps.found {
				if ps.in = q.inside(ps.env, ps.fly, &ps.rel, nil, &st); ps.in != NotInside {
					st.Inside++
				}
			}
			ps.env, ps.fly = nil, nil
		}
	}
	return st
}

// statsOf returns bvh's counts as the facade's.
func statsOf(st bvh.Stats) Stats {
	return Stats{BVTests: st.BVTests, TriTests: st.TriTests, Updates: st.Updates, LeafTests: st.LeafTests, Skipped: st.Skipped}
}

// DistanceOptions configures a distance query.
type DistanceOptions struct {
	// Max > 0 is a cut-off: the query looks only for triangles closer than
	// Max and reports Far if there are none, which it can often tell much
	// sooner than the distance ("is it farther than Max?"). 0: none.
	Max float64
	// Budget bounds the search: its Tests the pairs of nodes whose bound
	// it computes and the pairs of leaves whose triangles it measures.
	// When it runs out the result is Stopped, with the best distance found
	// so far and a certified lower bound (an approximate answer, cheaply).
	// The zero value bounds nothing; models without a hierarchy (Brute)
	// ignore it.
	Budget Budget
	// Solid treats both models as solids (QueryOptions.Solid): the
	// distance is 0 when one is inside the other (DistanceResult.Inside),
	// decided first, by one vertex per component of each (a vertex inside
	// the other solid puts the two solids in contact, whether its
	// component is wholly inside or crosses the other surface); else the
	// search runs as without it. A model whose surface bounds no solid is
	// then an error wrapping ErrNotSolid.
	Solid bool
}

// DistanceResult is the answer of a distance query.
type DistanceResult struct {
	// Distance is the smallest distance between a triangle of the
	// environment and one of the flying model at the pose, +Inf if Far.
	// It is 0 exactly when two triangles are in contact (as Collide decides
	// it, exactly), and otherwise within Bound of the exact distance of
	// the triangles as the pose places them.
	Distance float64
	// Bound bounds the error of Distance (geom.TriTriDistanceBound of the
	// witnesses, which bounds their distances to their triangles too); 0
	// on contact. With envPose not the identity, Distance and that bound
	// are computed in env's frame, where the query is decided, and Bound
	// is then widened by envPose's map into the common frame: B·(1 + s) +
	// s·Distance + 2⁻⁴⁸·(2m + |T|∞), s = 3·max|RᵀR − I| + 2⁻⁴⁸ bounding
	// how much envPose's R (a rotation only to within 10⁻⁶) stretches a
	// length, m the witnesses' largest |coordinate| in env's frame and T
	// envPose's translation (its rounding), so that |PEnv − PFly| is
	// within Bound of Distance and each witness within Bound of its
	// triangle as envPose places it.
	Bound float64
	// Far says that no two triangles are closer than DistanceOptions.Max.
	Far bool
	// Inside, with DistanceOptions.Solid, says which model has a vertex
	// inside the other's solid: Distance, Bound and Lower are then 0, Env
	// and Fly -1 (no triangle pair), PEnv = PFly that vertex, and Stats
	// count the point tests (SolidTests, Inside).
	Inside Inside
	// Env and Fly are the witness triangles (-1 if Far or Inside); PEnv and PFly
	// their closest points, in the common frame the poses place both
	// models in (envPose applied to the points found in env's frame; for
	// the deprecated Distance, env's frame). On contact PEnv = PFly is a
	// common point.
	Env, Fly   int32
	PEnv, PFly geom.Vec3
	// Stopped says that the budget ran out before the search ended:
	// Distance is then the smallest distance found so far (+Inf, with Env
	// and Fly -1, if none below the cut-off), an upper bound on the
	// answer, Far is false, and Lower bounds the answer from below.
	Stopped bool
	// Lower is a certified lower bound on the distance: no two triangles
	// are closer, but for the witnesses, whose distance is Distance
	// within Bound. It is Distance when the search ended (Max if Far).
	Lower float64
	Stats Stats
}

// Distance returns the smallest distance between the triangles of env and
// those of fly at pose, with the two witness triangles and their closest
// points. It is safe to call from many goroutines on the same models.
// The errors are those of Check, and a cut-off that is not a finite
// number ≥ 0.
//
// Deprecated: use DistanceBetween(ctx, env, geom.Pose{}, fly, pose, o),
// which places both models and can be cancelled.
func Distance(env, fly *Model, pose geom.Pose, o DistanceOptions) (DistanceResult, error) {
	return DistanceBetween(context.Background(), env, geom.Pose{}, fly, pose, o)
}

// Distance is like the function Distance, with q's scratch state.
//
// Deprecated: use q.DistanceBetween(ctx, env, geom.Pose{}, fly, pose, o).
func (q *Query) Distance(env, fly *Model, pose geom.Pose, o DistanceOptions) (DistanceResult, error) {
	return q.DistanceBetween(context.Background(), env, geom.Pose{}, fly, pose, o)
}

// distance is Query.DistanceBetween once the query is checked, fly at pose
// rel in env's frame, and its result in env's frame.
func (q *Query) distance(ctx context.Context, env, fly *Model, rel geom.Pose, o DistanceOptions) DistanceResult {
	var r DistanceResult
	var solidStats Stats
	if o.Solid {
		if in := q.inside(env, fly, &rel, nil, &solidStats); in != NotInside {
			solidStats.Inside++
			return DistanceResult{Inside: in, Env: -1, Fly: -1, PEnv: q.sol.at, PFly: q.sol.at, Stats: solidStats}
		}
	}
	if env.tree == nil || fly.tree == nil {
		r = bruteDistance(env, fly, rel, o, ctx.Done())
	} else {
		bo := bvh.DistanceOptions{Max: o.Max, Budget: ctxBudget(ctx, o.Budget)}
		d := bvh.Distance(env.tree, fly.tree, rel, bo, &q.s)
		r = DistanceResult{Distance: d.Distance, Far: d.Far, Env: d.Env, Fly: d.Fly, PEnv: d.PEnv, PFly: d.PFly,
			Stopped: d.Stopped, Lower: d.Lower, Stats: statsOf(d.Stats)}
	}
	if r.Env >= 0 && r.Distance > 0 {
		r.Bound = geom.TriTriDistanceBound(env.mesh.Triangle(int(r.Env)), rel.ApplyTriangle(fly.mesh.Triangle(int(r.Fly))))
	}
	r.Stats.Add(solidStats)
	return r
}

// bruteDistance is Distance by testing every pair of triangles. A closed
// done (not nil) stops it between two flying triangles: Stopped, with
// Lower 0.
func bruteDistance(env, fly *Model, pose geom.Pose, o DistanceOptions, done <-chan struct{}) DistanceResult {
	r := DistanceResult{Distance: math.Inf(1), Env: -1, Fly: -1}
	best := math.Inf(1)
	if o.Max > 0 {
		best = o.Max
	}
	for j := range fly.mesh.Tris {
		if done != nil {
			select {
			case <-done:
				r.Stopped, r.Lower = true, 0
				return r
			default:
			}
		}
		b := pose.ApplyTriangle(fly.mesh.Triangle(j))
		for i := range env.mesh.Tris {
			r.Stats.TriTests++
			if d, pa, pb := geom.TriTriDistance(env.mesh.Triangle(i), b); d < best {
				best = d
				r.Distance, r.Env, r.Fly, r.PEnv, r.PFly = d, int32(i), int32(j), pa, pb
			}
		}
	}
	r.Far = r.Env < 0
	r.Lower = best
	return r
}
