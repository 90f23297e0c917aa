package depth

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/hull"
)

// Options tunes the search of the non-convex case. The zero value is the
// default.
type Options struct {
	// Directions is the number of directions, spread evenly on the sphere,
	// tried for Upper besides the informed ones (0: 64).
	Directions int
	// Refine is the number of rounds of local refinement around the best
	// direction, each halving the angle (0: 6).
	Refine int
	// Samples is the number of grid points per axis, in the overlap of the
	// bounding boxes, that seed the search for Lower (0: 6).
	Samples int
	// Climb is the number of hill-climbing steps from each of the best
	// seeds of Lower (0: 40).
	Climb int
	// Budget, if not zero, bounds the search (the time-critical queries'
	// type, collide.Budget): Tests > 0 is the most exact steps it takes
	// (Stats.Tests: separation certificates, point classifications and
	// the contact query seeding Lower, each a pass over a solid's
	// triangles), Deadline when it stops (looked at before every step,
	// every 256 iterations of the loops between steps, and within the
	// exact contact queries). A search the budget stops answers with the
	// bounds found so far (Result.Stopped).
	Budget collide.Budget
}

func (o Options) withDefaults() Options {
	if o.Directions <= 0 {
		o.Directions = 64
	}
	if o.Refine <= 0 {
		o.Refine = 6
	}
	if o.Samples <= 0 {
		o.Samples = 6
	}
	if o.Climb <= 0 {
		o.Climb = 40
	}
	return o
}

// Stats counts the work of one call.
type Stats struct {
	// Convex says that both meshes were found convex (the exact path).
	Convex bool
	// Axes is the number of separating axes evaluated (convex hulls).
	Axes int
	// Directions is the number of directions searched for Upper.
	Directions int
	// Pairs counts the triangle pairs whose contact interval along a
	// direction was computed.
	Pairs int64
	// Certificates counts the separation certificates attempted, and
	// Checks the exact contact queries (collide.Check) among them.
	Certificates, Checks int
	// Points counts the exact point classifications (winding numbers).
	Points int
	// Tests counts the steps that Options.Budget counts: Certificates,
	// Points, and the contact query that seeds Lower.
	Tests int64
}

// Result is the answer of Translation. PD, the translational penetration
// depth, lies in [Lower, Upper] (see the package doc for the rounding).
type Result struct {
	// Lower is a lower bound on PD; Upper an upper bound, the length of
	// Move.
	Lower, Upper float64
	// Move is a translation of fly, applied after pose, proven to separate
	// the solids: at Pose the interiors are disjoint, exactly. It is zero
	// when they do not interpenetrate at pose. Dir is Move's direction
	// (zero with Move).
	Move, Dir geom.Vec3
	// Pose is pose moved by Move: {pose.R, pose.T + Move}.
	Pose geom.Pose
	// Exact says that Lower is PD itself, up to rounding: both meshes are
	// convex (or the solids do not interpenetrate, and PD = 0).
	Exact bool
	// Stopped says that Options.Budget ran out before the search ended.
	// Lower and Upper are still certified, PD in [Lower, Upper], but
	// further apart than the whole search would leave them: Lower is the
	// best found so far (0 if none; PD itself if Exact, the convex hulls'
	// depth having been computed), and Upper the shorter of the best
	// translation certified so far and the shortest one that a plane
	// certifies along the six axes or the hulls' axis (computed after the
	// stop, linear in the vertices); Move may then be nonzero where the
	// solids do not interpenetrate at all.
	Stopped bool
	// Witness, when Lower > 0 in the non-convex case, is a point inside
	// both solids with dist(Witness, ∂env) + dist(Witness, ∂fly) ≥ Lower.
	Witness geom.Vec3
	Stats   Stats
}

// Translation bounds the translational penetration depth of fly, placed at
// pose, into env (at the identity): the length of the shortest translation
// of fly after which the interiors of the two solids are disjoint. Both
// meshes must be closed (else an *OpenError); an empty mesh, a non-finite
// coordinate, a nil model or an invalid pose are errors (wrapping ErrEmpty,
// ErrInvalid or collide.ErrInvalidPose). When both meshes are convex the
// answer is exact (Lower = PD, Exact); otherwise Lower and Upper are
// certified bounds found by the search that o tunes, within o.Budget.
//
// Translation is TranslationContext with context.Background().
func Translation(env, fly *collide.Model, pose geom.Pose, o Options) (Result, error) {
	return TranslationContext(context.Background(), env, fly, pose, o)
}

// TranslationContext is Translation stopped by ctx as by o.Budget: the
// search looks at ctx where it looks at the budget's deadline (before each
// exact step and every 256 iterations of the loops between steps), and
// ctx's deadline, if earlier than o.Budget.Deadline, stops the exact
// contact queries within the search too. When ctx stops the search it
// returns the bounds certified so far (Result.Stopped, as a budget's stop
// leaves them) and an error wrapping ctx.Err().
func TranslationContext(ctx context.Context, env, fly *collide.Model, pose geom.Pose, o Options) (Result, error) {
	q, err := prepare(ctx, env, fly, pose, o)
	if err != nil {
		return Result{}, err
	}
	r, err := q.run()
	return r, q.ctxError(r.Stopped, err)
}

// prepare checks the input of a query and sets it up.
func prepare(ctx context.Context, env, fly *collide.Model, pose geom.Pose, o Options) (*query, error) {
	if ctx == nil {
		return nil, fmt.Errorf("depth: nil context: %w", ErrInvalid)
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("depth: %w", err)
	}
	if env == nil || fly == nil {
		return nil, fmt.Errorf("depth: nil model: %w", ErrInvalid)
	}
	if err := fly.CheckPose(pose); err != nil {
		return nil, fmt.Errorf("depth: %w", err)
	}
	sa, err := shapeOf(env, "env")
	if err != nil {
		return nil, err
	}
	sb, err := shapeOf(fly, "fly")
	if err != nil {
		return nil, err
	}
	q := newQuery(env, fly, pose, sa, sb, withContext(ctx, o.withDefaults()))
	q.ctx, q.done = ctx, ctx.Done()
	return q, nil
}

// ctxError returns err, or, when the search stopped and the context is
// done, an error wrapping the context's.
func (q *query) ctxError(stopped bool, err error) error {
	if err != nil || !stopped && !q.stopped {
		return err
	}
	cerr := q.ctx.Err()
	if d, ok := q.ctx.Deadline(); cerr == nil && ok && !time.Now().Before(d) {
		// The deadline, the budget's too, passed; the context's timer
		// may not have fired yet.
		cerr = context.DeadlineExceeded
	}
	if cerr != nil {
		return fmt.Errorf("depth: search stopped: %w", cerr)
	}
	return nil
}

type query struct {
	env, fly *collide.Model
	brute    *collide.Model // fly as a brute-force model, if env's BV is not compatible with fly's
	pose     geom.Pose
	o        Options
	ta, tb   *topo
	aPts     []geom.Vec3 // env's merged vertices
	bLocal   []geom.Vec3 // fly's merged vertices in its own frame
	rx       []geom.Vec3 // R·x of fly's merged vertices
	sA       *Solid
	bPts0    []geom.Vec3 // fly's vertices at pose
	sB0      *Solid      // fly's solid at pose: built by flySolid when first needed
	boxB0    geom.AABB   // the box of bPts0
	scale    float64     // largest coordinate magnitude (at pose)
	diag     float64     // diagonal of the union of the boxes
	st       Stats
	err      error
	// stopped says that the budget ran out (step, late); lateN counts the
	// calls of late; pend keeps what a contact query its deadline stopped
	// left (dropped: the query then certifies nothing).
	stopped bool
	lateN   int
	pend    collide.Pending
	// ctx, if not nil, stops the search when done is closed
	// (TranslationContext); done is nil when it never is.
	ctx  context.Context
	done <-chan struct{}
}

func newQuery(env, fly *collide.Model, pose geom.Pose, sa, sb *shape, o Options) *query {
	q := &query{env: env, fly: fly, pose: pose, o: o, ta: sa.t, tb: sb.t}
	q.aPts, q.sA, q.bLocal = sa.pts, sa.solid, sb.pts
	q.rx = make([]geom.Vec3, len(q.bLocal))
	for i, v := range q.bLocal {
		q.rx[i] = pose.R.MulVec(v)
	}
	q.bPts0 = q.placed(geom.Vec3{})
	q.boxB0 = geom.EmptyAABB()
	for _, p := range q.bPts0 {
		q.boxB0 = q.boxB0.Union(geom.AABB{Min: p, Max: p})
	}
	box := q.sA.box.Union(q.boxB0)
	q.diag = box.Size().Norm()
	q.scale = max(box.Min.Abs().Max(box.Max.Abs()).X, box.Min.Abs().Max(box.Max.Abs()).Y, box.Min.Abs().Max(box.Max.Abs()).Z)
	return q
}

// flySolid returns fly's solid at pose, built the first time.
func (q *query) flySolid() *Solid {
	if q.sB0 == nil {
		q.sB0 = newSolid(trisOf(q.bPts0, q.tb.tris))
	}
	return q.sB0
}

func trisOf(pts []geom.Vec3, tris [][3]int32) []geom.Triangle {
	out := make([]geom.Triangle, len(tris))
	for i, t := range tris {
		out[i] = geom.Triangle{pts[t[0]], pts[t[1]], pts[t[2]]}
	}
	return out
}

// placed returns fly's merged vertices at the pose {R, T+v}, computed as
// Pose.Apply computes them (R·x, then + (T+v)), so that they are the
// coordinates collide.Check uses at that pose.
func (q *query) placed(v geom.Vec3) []geom.Vec3 {
	t := q.pose.T.Add(v)
	out := make([]geom.Vec3, len(q.rx))
	for i, r := range q.rx {
		out[i] = r.Add(t)
	}
	return out
}

func (q *query) poseAt(v geom.Vec3) geom.Pose {
	return geom.Pose{R: q.pose.R, T: q.pose.T.Add(v)}
}

// contact runs collide's exact contact test of fly at pose p.
func (q *query) contact(p geom.Pose, o collide.QueryOptions) (collide.Result, error) {
	q.st.Checks++
	fly := q.fly
	if q.brute != nil {
		fly = q.brute
	}
	o.Budget, o.Pending = q.checkBudget()
	r, err := collide.Check(q.env, fly, p, o)
	if err != nil && q.brute == nil && !errors.Is(err, collide.ErrInvalidPose) {
		// Models of incompatible bounding volumes: fly as the brute-force
		// model is compatible with every tree.
		b, berr := collide.Build(q.fly.Mesh(), collide.BuildOptions{BV: collide.Brute})
		if berr != nil {
			return r, err
		}
		q.brute = b
		r, err = collide.Check(q.env, b, p, o)
	}
	if r.Maybe {
		// The deadline passed within the query: no contact was ruled out.
		q.stopped = true
	}
	return r, err
}

// separated certifies, exactly, that fly moved by v has an interior
// disjoint from env's: by a plane (one of the axes us) with env's vertices
// on one side and fly's on the other, or by surfaces without contact and
// no component of either surface inside the other solid. False means not
// certified.
func (q *query) separated(v geom.Vec3, us ...geom.Vec3) bool {
	if !q.step() {
		return false
	}
	q.st.Certificates++
	pts := q.placed(v)
	for _, u := range us {
		if u != (geom.Vec3{}) && planeSeparates(u, q.aPts, pts) {
			return true
		}
	}
	r, err := q.contact(q.poseAt(v), collide.QueryOptions{})
	if err != nil {
		if q.err == nil {
			q.err = err
		}
		return false
	}
	if r.Collide || r.Maybe {
		return false
	}
	for _, rep := range q.tb.reps {
		if !q.step() {
			return false
		}
		q.st.Points++
		if w, on := q.sA.Winding(pts[rep]); on || w != 0 {
			return false
		}
	}
	sB := newSolid(trisOf(pts, q.tb.tris))
	for _, rep := range q.ta.reps {
		if !q.step() {
			return false
		}
		q.st.Points++
		if w, on := sB.Winding(q.aPts[rep]); on || w != 0 {
			return false
		}
	}
	return true
}

func (q *query) zero(exact bool) Result {
	return Result{Pose: q.pose, Exact: exact, Stats: q.st}
}

// margin bounds the rounding of a computed distance.
func (q *query) margin() float64 { return 0x1p-44*q.scale + 0x1p-1000 }

func (q *query) run() (Result, error) {
	convA := isConvex(q.aPts, q.ta.tris, q.late)
	convB := convA && isConvex(q.bLocal, q.tb.tris, q.late)
	if convA && convB {
		r, ok := q.convex()
		if ok {
			return r, q.err
		}
		if q.stopped {
			return q.cut(r, 0, geom.Vec3{}, false, r.Dir), q.err
		}
	}
	if q.stopped {
		return q.cut(Result{}, 0, geom.Vec3{}, false), q.err
	}
	// Not interpenetrating: no contact, no component inside the other.
	if q.separated(geom.Vec3{}) {
		return q.zero(true), q.err
	}
	if q.err != nil {
		return Result{}, q.err
	}
	if q.stopped {
		return q.cut(Result{}, 0, geom.Vec3{}, false), nil
	}
	// Touching convex hulls: the hulls' separating plane certifies it.
	hA, hB := hullPolytope(q.aPts), hullPolytope(q.bPts0)
	var hullU geom.Vec3
	if hA == nil || hB == nil {
		// A flat solid has an empty interior.
		return q.zero(true), nil
	}
	pd, u, axes := satDepth(hA, hB, q.late)
	q.st.Axes += axes
	hullU = u
	if pd <= 0 && q.separated(geom.Vec3{}, u) {
		return q.zero(true), nil
	}
	res := Result{}
	lower, witness, hints := q.lower()
	if lower > 0 {
		res.Lower, res.Witness = lower, witness
	}
	if hullU != (geom.Vec3{}) {
		hints = append(hints, hullU)
	}
	if q.stopped {
		return q.cut(res, 0, geom.Vec3{}, false, hullU), q.err
	}
	up, move := q.upper(hints, lower)
	if q.stopped {
		return q.cut(res, up, move, !math.IsInf(up, 1), hullU), q.err
	}
	res.Upper, res.Move = up, move
	if up > 0 {
		res.Dir = move.Scale(1 / move.Norm())
	}
	res.Upper = max(res.Upper, res.Lower)
	res.Pose = q.poseAt(move)
	res.Stats = q.st
	return res, q.err
}

// convex is the exact path: both meshes are convex, so their interiors are
// those of the convex hulls of their vertices, and PD is the least support
// of the Minkowski difference over the candidate axes. ok is false when
// the answer could not be certified (then the general path runs), or when
// the budget stopped it: then, if the depth was computed, the Result has
// Lower = PD, Exact and Dir, the axis.
func (q *query) convex() (Result, bool) {
	q.st.Convex = true
	A, B := newPolytope(q.aPts, q.ta.tris), newPolytope(q.bPts0, q.tb.tris)
	if A == nil || B == nil {
		return Result{}, false
	}
	pd, u, axes := satDepth(A, B, q.late)
	q.st.Axes += axes
	if q.stopped {
		return Result{}, false // pd is the least over some of the axes only
	}
	if pd <= 0 || math.IsInf(pd, 0) || math.IsNaN(pd) {
		if q.separated(geom.Vec3{}, u) {
			r := q.zero(true)
			r.Stats.Convex = true
			return r, true
		}
		return Result{}, false
	}
	// Move by pd·u, or a hair more where rounding makes fly's vertices
	// fall short of the plane.
	for k := 0; k < 30; k++ {
		t := pd
		if k > 0 {
			t = pd + math.Ldexp(pd+q.scale, -52+2*k)
		}
		v := u.Scale(t)
		if q.separated(v, u) {
			up := max(v.Norm(), pd)
			return Result{Lower: pd, Upper: up, Move: v, Dir: u, Pose: q.poseAt(v), Exact: true, Stats: q.st}, true
		}
		if q.stopped {
			return Result{Lower: pd, Dir: u, Exact: true}, false
		}
	}
	return Result{}, false
}

func hullPolytope(pts []geom.Vec3) *polytope {
	h, tris := hull.NewTriangulated(pts)
	if h.Dim() < 3 {
		return nil
	}
	return newPolytope(pts, tris)
}

// fibonacci returns n directions spread evenly on the unit sphere.
func fibonacci(n int) []geom.Vec3 {
	out := make([]geom.Vec3, n)
	ga := math.Pi * (3 - math.Sqrt(5))
	for i := range out {
		z := 1 - (2*float64(i)+1)/float64(n)
		r := math.Sqrt(max(0, 1-z*z))
		a := ga * float64(i)
		out[i] = geom.V(r*math.Cos(a), r*math.Sin(a), z)
	}
	return out
}

// upper searches directions for the shortest certified separating
// translation. hints are informed directions tried first.
func (q *query) upper(hints []geom.Vec3, lower float64) (float64, geom.Vec3) {
	// Far along any axis: the last resort, certified by a plane.
	best, bestV := math.Inf(1), geom.Vec3{}
	var bestD geom.Vec3
	try := func(d geom.Vec3) {
		l := d.Norm()
		if !(l > 0) || math.IsInf(l, 0) {
			return
		}
		d = d.Scale(1 / l)
		if q.stopped {
			return
		}
		q.st.Directions++
		if t, v, ok := q.along(d, best); ok && t < best {
			best, bestV, bestD = t, v, d
		}
	}
	for _, d := range hints {
		try(d)
	}
	for _, d := range []geom.Vec3{geom.V(1, 0, 0), geom.V(-1, 0, 0), geom.V(0, 1, 0), geom.V(0, -1, 0), geom.V(0, 0, 1), geom.V(0, 0, -1)} {
		try(d)
	}
	for _, d := range fibonacci(q.o.Directions) {
		try(d)
	}
	// Local refinement around the best direction.
	theta := 0.25
	for r := 0; r < q.o.Refine && bestD != (geom.Vec3{}) && !q.stopped; r++ {
		if best <= lower {
			break
		}
		e1, e2 := basis(bestD)
		d0 := bestD
		for _, c := range [][2]float64{{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {0.7, 0.7}, {-0.7, 0.7}, {0.7, -0.7}, {-0.7, -0.7}} {
			try(d0.Add(e1.Scale(c[0] * theta)).Add(e2.Scale(c[1] * theta)))
		}
		theta /= 2
	}
	if math.IsInf(best, 1) {
		return math.Inf(1), geom.Vec3{}
	}
	return max(bestV.Norm(), best), bestV
}

// basis returns two unit vectors orthogonal to the unit d and each other.
func basis(d geom.Vec3) (geom.Vec3, geom.Vec3) {
	a := geom.V(1, 0, 0)
	if math.Abs(d.X) > 0.6 {
		a = geom.V(0, 1, 0)
	}
	e1 := d.Cross(a).Unit()
	return e1, d.Cross(e1)
}

type interval struct{ lo, hi float64 }

// along returns the shortest certified separating translation along the
// unit d found below limit: it computes, in floating point, the intervals
// of t where the surfaces touch when fly moves by t·d, and certifies the
// start of each gap between them in turn (the status of the interiors is
// constant within a gap), bisecting inside a gap when rounding defeats the
// first certificate.
func (q *query) along(d geom.Vec3, limit float64) (float64, geom.Vec3, bool) {
	// Beyond tFar, fly's vertices are all past env's along d.
	maxA, minB := math.Inf(-1), math.Inf(1)
	for _, p := range q.aPts {
		maxA = max(maxA, d.Dot(p))
	}
	for _, p := range q.bPts0 {
		minB = min(minB, d.Dot(p))
	}
	tFar := maxA - minB
	if tFar <= 0 {
		tFar = 0
	}
	gaps := q.gaps(d, tFar)
	nudge := 0x1p-36 * (q.scale + q.diag)
	for i, g := range gaps {
		if g.lo >= limit {
			break
		}
		t := g.lo
		if i == 0 && t == 0 {
			// No contact at 0 (one solid may hold the other).
			if q.separated(geom.Vec3{}, d) {
				return 0, geom.Vec3{}, true
			}
		}
		t += nudge
		if t < limit && q.separated(d.Scale(t), d) {
			return t, d.Scale(t), true
		}
		if q.stopped {
			return 0, geom.Vec3{}, false
		}
		hi := g.hi
		if math.IsInf(hi, 1) {
			hi = tFar + nudge
			ok := false
			for k := 0; k < 60 && !ok; k++ {
				if ok = q.separated(d.Scale(hi), d); !ok {
					hi += nudge * math.Ldexp(1, k)
				}
			}
			if !ok || hi >= limit {
				// Not certified (the budget stopped it, or 60 doublings of
				// the nudge did not get past rounding), or no shorter.
				return 0, geom.Vec3{}, false
			}
		} else {
			hi = (t + hi) / 2
			if hi >= limit || !q.separated(d.Scale(hi), d) {
				continue
			}
		}
		// Bisect between t (not certified) and hi (certified).
		lo := t
		for k := 0; k < 60 && hi-lo > nudge && !q.stopped; k++ {
			m := (lo + hi) / 2
			if q.separated(d.Scale(m), d) {
				hi = m
			} else {
				lo = m
			}
		}
		return hi, d.Scale(hi), true
	}
	return 0, geom.Vec3{}, false
}

// gaps returns the intervals of t in [0, ∞) where the surfaces of env and
// of fly moved by t·d do not touch (by the floating-point contact
// intervals of the triangle pairs), in increasing order; the last one is
// unbounded.
func (q *query) gaps(d geom.Vec3, tFar float64) []interval {
	e1, e2 := basis(d)
	type proj struct {
		lo1, hi1, lo2, hi2, lod, hid float64
		i                            int
	}
	project := func(t geom.Triangle, i int) proj {
		p := proj{math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1), i}
		for _, v := range t {
			a, b, c := e1.Dot(v), e2.Dot(v), d.Dot(v)
			p.lo1, p.hi1 = min(p.lo1, a), max(p.hi1, a)
			p.lo2, p.hi2 = min(p.lo2, b), max(p.hi2, b)
			p.lod, p.hid = min(p.lod, c), max(p.hid, c)
		}
		// Pad by the rounding of the dots.
		pad := 1e-12 * (q.scale + q.diag)
		p.lo1, p.hi1, p.lo2, p.hi2, p.lod, p.hid = p.lo1-pad, p.hi1+pad, p.lo2-pad, p.hi2+pad, p.lod-pad, p.hid+pad
		return p
	}
	pa := make([]proj, len(q.sA.tris))
	for i, t := range q.sA.tris {
		pa[i] = project(t, i)
	}
	sB0 := q.flySolid()
	pb := make([]proj, len(sB0.tris))
	for i, t := range sB0.tris {
		pb[i] = project(t, i)
	}
	byLo := func(x, y proj) int {
		if x.lo1 < y.lo1 {
			return -1
		}
		if x.lo1 > y.lo1 {
			return 1
		}
		return 0
	}
	slices.SortFunc(pa, byLo)
	slices.SortFunc(pb, byLo)
	var ivs []interval
	pair := func(a, b *proj) {
		if a.hi2 < b.lo2 || b.hi2 < a.lo2 {
			return
		}
		// fly's triangle moves by t·d: its d-range [lod+t, hid+t] must meet a's.
		if a.hid-b.lod < 0 || a.lod-b.hid > tFar {
			return
		}
		if q.late() {
			return
		}
		q.st.Pairs++
		if iv, ok := contactInterval(q.sA.tris[a.i], sB0.tris[b.i], d); ok && iv.hi >= 0 && iv.lo <= tFar {
			ivs = append(ivs, iv)
		}
	}
	// Sweep along e1.
	j := 0
	var active []int
	for i := range pa {
		a := &pa[i]
		for j < len(pb) && pb[j].lo1 <= a.hi1 {
			active = append(active, j)
			j++
		}
		n := 0
		for _, k := range active {
			b := &pb[k]
			if b.hi1 < a.lo1 {
				// b ends before a starts; later a's start later still.
				continue
			}
			active[n] = k
			n++
			if b.lo1 <= a.hi1 {
				pair(a, b)
			}
		}
		active = active[:n]
	}
	if q.stopped {
		return nil // the intervals are not all known: no gap is
	}
	slices.SortFunc(ivs, func(x, y interval) int {
		if x.lo < y.lo {
			return -1
		}
		if x.lo > y.lo {
			return 1
		}
		return 0
	})
	var out []interval
	cur := 0.0
	for _, iv := range ivs {
		if iv.lo > cur {
			out = append(out, interval{cur, iv.lo})
		}
		cur = max(cur, iv.hi)
	}
	out = append(out, interval{cur, math.Inf(1)})
	return out
}

// contactInterval returns, in floating point, the interval of t where the
// triangles a and b+t·d touch: the line ℝ·d clipped by the slabs of the
// Minkowski difference a−b over its candidate facet normals (the normals,
// the cross products of edges, and each normal crossed with each edge).
func contactInterval(a, b geom.Triangle, d geom.Vec3) (interval, bool) {
	ea := [3]geom.Vec3{a[1].Sub(a[0]), a[2].Sub(a[1]), a[0].Sub(a[2])}
	eb := [3]geom.Vec3{b[1].Sub(b[0]), b[2].Sub(b[1]), b[0].Sub(b[2])}
	na, nb := ea[0].Cross(ea[1]), eb[0].Cross(eb[1])
	lo, hi := math.Inf(-1), math.Inf(1)
	clip := func(u geom.Vec3) bool {
		if u == (geom.Vec3{}) {
			return true
		}
		a0, a1, a2 := u.Dot(a[0]), u.Dot(a[1]), u.Dot(a[2])
		b0, b1, b2 := u.Dot(b[0]), u.Dot(b[1]), u.Dot(b[2])
		hMax := max(a0, a1, a2) - min(b0, b1, b2)
		hMin := min(a0, a1, a2) - max(b0, b1, b2)
		ud := u.Dot(d)
		switch {
		case ud > 0:
			lo, hi = max(lo, hMin/ud), min(hi, hMax/ud)
		case ud < 0:
			lo, hi = max(lo, hMax/ud), min(hi, hMin/ud)
		default:
			if hMin > 0 || hMax < 0 {
				return false
			}
		}
		return lo <= hi
	}
	if !clip(na) || !clip(nb) {
		return interval{}, false
	}
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			if !clip(ea[i].Cross(eb[j])) {
				return interval{}, false
			}
		}
		if !clip(na.Cross(ea[i])) || !clip(na.Cross(eb[i])) || !clip(nb.Cross(ea[i])) || !clip(nb.Cross(eb[i])) {
			return interval{}, false
		}
	}
	return interval{lo, hi}, true
}
