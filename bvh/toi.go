package bvh

import (
	"cmp"
	"math"
	"slices"

	"github.com/collide3d/collide/ccd"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh"
)

// TOIOptions configures TimeOfImpact.
type TOIOptions struct {
	// Budget, if not zero, bounds the query's work: Tests the tests it
	// makes (Stats.BVTests + Stats.LeafTests + Stats.TriTests, the pairs
	// of triangles handed to the exact primitives and the spans of time
	// of a turning motion's bisection), Deadline the time, Done a channel
	// whose closing stops it (a context's). The query looks
	// at it between its steps and between two pairs of triangles it
	// decides, and its distance queries (conservative advancement) get
	// what is left of it (DistanceOptions.Budget), as does the all-pairs
	// query at m.From (Collide's Budget); when it has run out the query
	// stops and says so (TOIResult.Stopped).
	Budget Budget
}

// TOIResult is the answer of TimeOfImpact.
type TOIResult struct {
	// Hit says that the flying model touches the environment during the
	// motion; TOI holds the earliest time of contact, within at most
	// ccd.MaxWidth (translating motions; turning ones, 32·ccd.MaxWidth,
	// except where the rounding of the poses leaves a longer span
	// undecided right before a contact proved at a sampled pose, as when
	// a face sinks slowly onto another: then from that span's start to
	// the contact), and Pair two triangles that touch at a time in TOI
	// (turning motions: at TOI.Hi).
	Hit  bool
	TOI  ccd.Interval
	Pair Pair
	// Maybe (turning motions only): before TOI.Lo the models are proved
	// apart; within TOI they come within rounding of each other and no
	// contact is proved (Hit is false).
	Maybe bool
	// Stopped says that the budget (TOIOptions.Budget) ran out before the
	// search ended. No contact before TOI.Lo is proved. With Hit, Pair
	// touches at a time in TOI (at TOI.Hi for turning motions) and the
	// earliest contact lies in TOI, which may then be wider than said
	// above; with Maybe, as above; with neither, TOI.Hi is 1 and nothing
	// is known from TOI.Lo on.
	Stopped bool
	// Spans counts the spans of time a turning motion's bisection visited
	// (over every pair): the query's work beyond Stats. A pair gives up
	// with a Maybe after 65,536 spans in one window of the motion.
	Spans int64
	// Exact counts the pairs of triangles handed to the exact search
	// (ccd.TriTri, or a turning motion's bisection): those the walks
	// reached that the screening did not prove apart.
	Exact int64
	// Stats counts the walks' tests (the distance queries' and the
	// windows'); Stats.TriTests counts the pairs of triangles the windows'
	// walks reached, screened or decided, and the distance queries'
	// triangle tests.
	Stats Stats
}

// TimeOfImpact returns the earliest time at which fly, moving by m (see
// ccd.Motion), touches env (at the identity pose), in scratch s (nil: a
// new one), within the budget of o. The trees must be of the same kind;
// Collide's conditions on poses apply to both of m's poses and to those
// between.
//
// First one all-pairs query at m.From: models touching there touch at
// [0, 0] (the least pair in contact is reported). Then the search goes
// forward in time from 0, each step proving a stretch of time free of
// contact or deciding a short window of it:
//
//   - Conservative advancement: at the pose of time t, a certified lower
//     bound L on the distance of the two models (clearance: Distance with
//     a cut-off, less its error bound) proves them apart until t + (L −
//     2·slack)/v, v = |ΔT| + angle·rho bounding how fast a flying vertex
//     moves (rho bounds the flying vertices' norms) and slack the rounding
//     of the poses. The cut-off doubles while the models stay farther
//     apart than it, up to gateMax·τ (a cut-off far above the distance
//     costs every pair within it). It is skipped where the rest of the
//     motion moves no vertex farther than 2τ, and a step shorter than half
//     a window is not taken (so that the search makes at most a few
//     thousand steps).
//   - A window [t0, t1], where L is below the window's pad τ: one query of
//     the two trees at the pose halfway through it, with the tolerance
//     h·v + slack (h half the window), reaches every pair of triangles
//     that can touch during the window. Each such pair is screened at that
//     pose by its own distance (geom.TriTriLowerBound, then for a
//     translating motion geom.TriTriDistance less its bound; a turning
//     pair's bisection starts with that test) against how far its flying
//     triangle moves in the window (its own rho): a pair proved apart is
//     dropped (a later window reaches it again if it comes closer). The
//     others get an earliest possible time of contact (their distance at
//     the window's start over v; for a translating motion also their gap
//     along the direction between their closest points over the speed
//     along it, never if the motion goes away) and are decided in that
//     order, a contact found pruning every pair whose earliest time is
//     later (by more than 64·ccd.MaxWidth, so that the interval and the
//     pair are those of deciding every pair).
//     τ starts at min(1/2, 4/√n)·radius for a flying model of n triangles
//     and adapts to the pairs the windows reach: halved past 256, doubled
//     (up to radius/2) below 16. A window is the dyadic span of time
//     (k/2^j, (k+1)/2^j) that holds t, of the length 2τ/v rounded down to
//     a power of two, at least 1/1024.
//
// The search ends when it reaches time 1, or passes the contact found. A
// pair that can touch is decided:
//
//   - translating motions (m.Translating): exactly, by ccd.TriTri, each
//     vertex moving on a straight line from its position at m.From to its
//     position at m.To, as geom.Pose.Apply computes them (once per pair),
//     unless a plane separates the environment triangle from the hull of
//     the flying triangle's two ends (apartSwept);
//   - turning motions: by bisection of the window's time, earliest half
//     first: a span is dropped where the pair is proved apart throughout
//     it, by the pair's distance at the pose halfway through it, less its
//     error bound, against how far the flying triangle can move in half
//     the span (plus the rounding of the pose), or by a plane of one of a
//     dozen directions (normals, cross products of edges, between the
//     closest points) that separates them with a margin beyond a
//     second-order bound of the motion along it, with each vertex's own
//     lever arm about the axis (apartTurning); a span that cannot be
//     dropped is tested at its middle and end poses, and a contact there
//     proves one (nothing later is searched). A span at most
//     ccd.MaxWidth/2 long that cannot be dropped is a contact if the
//     triangles touch at the pose at its end, or at the end of one of the
//     next 64 spans as long (past the window's end too), or at a time
//     sampled before (poses computed as m.At does, tested as Collide
//     does), and a Maybe otherwise. The interval is then from the span's
//     start to that contact: at most 32·ccd.MaxWidth wide unless the
//     contact was sampled before. A pair that visits 65,536 spans in a
//     window (never seen: a few dozen to a few hundred is the rule, even
//     for gaps of 10^-9 that stay small while the triangle turns fast)
//     gives up with a Maybe over the span it is at; TOIResult.Spans counts
//     the spans visited.
func TimeOfImpact(env, fly *Tree, m ccd.Motion, o TOIOptions, s *Scratch) TOIResult {
	if s == nil {
		s = new(Scratch)
	}
	sw := &s.sweep
	sw.begin(env.mesh, fly.mesh, m, fly.motionInfo(), env.motionInfo().mag)
	sw.bud, sw.screen = o.Budget, true
	v := sw.speed
	radius := max(sw.radius, 4*sw.slack, 0x1p-1000)
	tau := radius * min(0.5, 4/math.Sqrt(float64(max(len(fly.mesh.Tris), 1))))
	tau = max(tau, 4*sw.slack, 0x1p-1000)
	gate := 4 * tau
	t := 0.0
	if sw.touchingAtStart(env, fly, s) {
		return sw.result()
	}
	for t < 1 && !sw.past(t) {
		if sw.out() {
			sw.stop(t)
			break
		}
		w := 1.0 // the window's length
		if v > 0 {
			w = min(max(2*tau/v, 0x1p-10), 1)
		}
		// Conservative advancement, where the rest of the motion is long
		// enough for it to pay: a lower bound l on the distance at t,
		// found with a cut-off (the gate), proves the models apart until
		// t + (l − 2·slack)/v. A step shorter than half a window is not
		// taken (a window decides as much), so that the search makes at
		// most a few thousand steps.
		if rest := (1-t)*v + 2*sw.slack; rest > 2*tau {
			cut := min(gate, rest*(1+0x1p-20))
			l, far := sw.clearance(env, fly, t, cut, s)
			if g := l - 2*sw.slack; g >= tau && (v == 0 || g/v >= w/2) {
				if far {
					gate = min(2*gate, gateMax*tau)
				} else {
					gate = min(max(2*l, 4*tau), gateMax*tau)
				}
				if v == 0 {
					break
				}
				t += g / v * (1 - 0x1p-30)
				continue
			}
			gate = 4 * tau
		}
		// The window: the dyadic span of length 2^-k ≤ w that holds t, so
		// that the turning motions' bisection samples the dyadic times
		// (where a face sinking slowly onto another is placed exactly).
		size := 1.0
		for size > w {
			size /= 2
		}
		t0 := math.Floor(t/size) * size
		t1 := t0 + size
		if !sw.window(env, fly, t0, t1, s) {
			break
		}
		switch {
		case sw.handed > 256:
			tau = max(tau/2, 4*sw.slack, 0x1p-1000)
		case sw.handed < 16:
			tau = min(2*tau, max(radius/2, tau))
		}
		t = t1
	}
	return sw.result()
}

// gateMax is the largest cut-off of the distance queries, in windows' pads
// (τ): a distance query with a cut-off much larger than the distance costs
// as a tolerance query of that cut-off (every pair within it), while the
// window it would save costs one of τ.
const gateMax = 4

// touchingAtStart reports whether the models touch at m.From, recording
// the contact at [0, 0] with the least pair in contact (as deciding every
// pair would: each of them touches at t = 0, the others later): one
// all-pairs query of the trees at that pose. A flight's motion often
// starts where the last step found a contact. The query gets the budget
// (Collide's, with a Pending): where it runs out the search stops at 0,
// with the contact at [0, 0] if one was found (its pair then the least of
// those found).
func (s *sweepState) touchingAtStart(env, fly *Tree, sc *Scratch) bool {
	o := QueryOptions{All: true}
	if b := s.bud; !b.IsZero() {
		o.Budget, o.Pending = b, &s.pd
	}
	st := collide(env, fly, s.m.From, o.request(), sc, func(p Pair) bool {
		s.take(p, 0, 0)
		return true
	})
	s.st.Add(st)
	if o.Pending != nil && !s.pd.Done() {
		s.spent = true
		s.stop(0)
	}
	return s.hit
}

// clearance returns a lower bound l, proved with the rounding, on the
// distance between env and the flying model at the pose of time t (as
// m.At computes it), from Distance with the cut-off cut: far says that no
// pair was nearer than the cut-off (l is then the cut-off less the
// bound). It is the continuous query's only use of Distance, which gets
// the rest of the query's budget: where that runs out within it, l comes
// from the certified lower bound it stopped with (DistanceResult.Lower),
// and the search stops at its next step.
func (s *sweepState) clearance(env, fly *Tree, t, cut float64, sc *Scratch) (l float64, far bool) {
	o := DistanceOptions{Max: cut}
	if b := s.bud; !b.IsZero() {
		o.Budget.Deadline, o.Budget.Done = b.Deadline, b.Done
		if b.Tests > 0 {
			o.Budget.Tests = max(b.Tests-s.used(), 1)
		}
	}
	r := Distance(env, fly, s.at(t), o, sc)
	s.st.Add(r.Stats)
	d := r.Distance
	switch {
	case r.Stopped:
		d, s.spent = min(r.Lower, r.Distance), true
	case r.Far:
		d = cut
	}
	// sc.dist.slack bounds the error of a computed distance, and how far
	// below the cut-off a pair the query dropped may be (see distState).
	return d - 2*sc.dist.slack, r.Far
}

// window decides the window [t0, t1] of the motion: every pair of
// triangles the walk at the pose halfway through reaches is screened
// (pair), the rest decided in order of their earliest possible time of
// contact (decide). It returns false if the budget ran out.
func (s *sweepState) window(env, fly *Tree, t0, t1 float64, sc *Scratch) bool {
	s.t0, s.t1 = t0, t1
	s.tm = t0 + (t1-t0)/2
	s.h = (t1 - t0) / 2
	s.mid, s.start = s.at(s.tm), s.at(t0)
	if s.wcur++; s.wcur == 0 {
		clear(s.wAt)
		s.wcur = 1
	}
	s.cands = s.cands[:0]
	s.handed = 0
	pad := s.pad(t0, t1, s.rho)
	o := request{QueryOptions: QueryOptions{All: true, Eps: pad}, mode: modeSweep, sweep: s}
	s.st.Add(collide(env, fly, s.mid, o, sc, nil))
	slices.SortFunc(s.cands, func(a, b candidate) int {
		if c := cmp.Compare(a.at, b.at); c != 0 {
			return c
		}
		if c := cmp.Compare(a.p.Env, b.p.Env); c != 0 {
			return c
		}
		return cmp.Compare(a.p.Fly, b.p.Fly)
	})
	for _, c := range s.cands {
		if s.past(c.at) {
			break
		}
		if s.out() {
			s.stop(t0)
			return false
		}
		s.decide(c.p)
	}
	return true
}

// candidate is a pair of triangles a window's walk reached that the
// screening did not prove apart, with its earliest possible time of
// contact.
type candidate struct {
	p  Pair
	at float64
}

// SweepAll is TimeOfImpact by deciding every pair of triangles over the
// whole motion, without screening (the oracle of the tests, and the answer
// for models without hierarchies).
func SweepAll(env, fly *mesh.TriMesh, m ccd.Motion) TOIResult {
	var sw sweepState
	sw.begin(env, fly, m, nil, 0)
	sw.t0, sw.t1 = 0, 1
	for e := range env.Tris {
		for f := range fly.Tris {
			sw.st.TriTests++
			sw.decide(Pair{int32(e), int32(f)})
		}
	}
	return sw.result()
}

// sweepState is the state of one continuous query.
type sweepState struct {
	m            ccd.Motion
	trans        bool
	angle        float64
	dT           float64 // |To.T − From.T|, rounded up
	rho          float64 // bound on |x| for every flying vertex x
	speed        float64 // ≥ dT + angle·rho: how far a flying vertex moves from t = 0 to 1
	radius       float64 // the flying model's radius about its centre
	slack        float64 // bound on the rounding of the poses
	emesh, fmesh *mesh.TriMesh
	// The window being searched: [t0, t1], its middle tm and half length
	// h, the poses at tm and t0; the pairs its walk handed over (handed) and the
	// candidates they left.
	t0, t1, tm, h float64
	mid, start    geom.Pose
	handed        int64
	cands         []candidate
	// va and vb are the flying vertices at From and To (translating
	// motions), computed once per query: vAt[x] == cur.
	va, vb []geom.Vec3
	vAt    []uint32
	cur    uint32
	// w0 and wn are the flying vertices at the window's start and their
	// norms, computed once per window: wAt[x] == wcur.
	w0   []geom.Vec3
	wn   []float64
	wAt  []uint32
	wcur uint32
	// stack holds a turning pair's bisection's spans (reused); pd the
	// rest of a start query its budget stopped.
	stack []span
	pd    Pending
	seen  map[Pair]struct{}
	// The earliest contact so far: [lo, hi] = [min lo, min hi] of the
	// pairs' intervals, hp the pair of min hi; and the earliest Maybe.
	hit, maybe bool
	lo, hi     float64
	hp         Pair
	mlo, mhi   float64
	mpair      Pair
	exact      int64
	st         Stats
	// screen says to screen a translating pair by apartSwept before the
	// exact primitives (TimeOfImpact; SweepAll, the oracle, does not).
	screen bool
	// The budget, and where the search stopped when it ran out (free:
	// every time before it proved free of contact).
	bud     Budget
	spent   bool // a distance query ran out of it
	stopped bool
	free    float64
	// Turning motions: the axis, ΔT = To.T − From.T, the spans of time
	// visited, and the directional tests' state.
	axis  geom.Vec3
	dTv   geom.Vec3
	spans int64
	dir   dirBound
}

// begin readies s for a query of fly moving by m against env; mi is the
// flying tree's motion data (nil: computed from fly), emag the largest
// |coordinate| of env.
func (s *sweepState) begin(env, fly *mesh.TriMesh, m ccd.Motion, mi *motionInfo, emag float64) {
	*s = sweepState{va: s.va, vb: s.vb, vAt: s.vAt, cur: s.cur + 1, w0: s.w0, wn: s.wn, wAt: s.wAt, wcur: s.wcur, stack: s.stack[:0], pd: s.pd, seen: s.seen, cands: s.cands[:0]}
	s.m, s.emesh, s.fmesh = m, env, fly
	s.trans = m.Translating()
	s.axis, s.angle = m.Rotation()
	s.dTv = m.To.T.Sub(m.From.T)
	if mi == nil {
		own := motionInfoOf(fly.Verts)
		emag = motionInfoOf(env.Verts).mag
		mi = &own
	}
	s.rho = (mi.c.Norm() + mi.r) * (1 + 0x1p-48)
	s.radius = mi.r
	s.dT = m.To.T.Sub(m.From.T).Norm() * (1 + 0x1p-48)
	s.speed = (s.dT + s.angle*s.rho) * (1 + 0x1p-40)
	ta, tb := m.From.T.Abs(), m.To.T.Abs()
	// A pose computed in float64 places a vertex within a few units in the
	// last place of its largest term; 2^-46 of the sum of the magnitudes
	// covers it (and the rounding of the pads) many times over. A turning
	// motion between rotations that are not quite orthonormal ends a
	// little away from To, where At(1) puts it: that gap is added.
	s.slack = 0x1p-46 * (2*mi.mag + emag + max(ta.X, ta.Y, ta.Z) + max(tb.X, tb.Y, tb.Z))
	if !s.trans {
		axis, angle := m.Rotation()
		end := geom.AxisAngle(axis, angle).Mat3().Mul(m.From.R)
		g := 0.0
		for i := range 3 {
			for j := range 3 {
				g += (end[i][j] - m.To.R[i][j]) * (end[i][j] - m.To.R[i][j])
			}
		}
		s.slack += math.Sqrt(g) * s.rho * 2
	}
	if nv := len(fly.Verts); len(s.vAt) < nv || s.cur == 0 {
		s.va, s.vb, s.vAt = make([]geom.Vec3, nv), make([]geom.Vec3, nv), make([]uint32, nv)
		s.cur = 1
	}
	if nv := len(fly.Verts); len(s.wAt) < nv {
		s.w0, s.wn, s.wAt = make([]geom.Vec3, nv), make([]float64, nv), make([]uint32, nv)
		s.wcur = 0
	}
	if s.seen == nil {
		s.seen = map[Pair]struct{}{}
	}
	clear(s.seen)
}

// pad bounds how far a flying vertex x with |x| ≤ rho moves during
// [t0, t1] from where the pose halfway through places it, plus the
// rounding: h·|ΔT| + 2·sin(h·angle/2)·|x| ≤ h·(|ΔT| + angle·rho), h half
// the span.
func (s *sweepState) pad(t0, t1, rho float64) float64 {
	h := (t1 - t0) / 2
	return h*(s.dT+s.angle*rho)*(1+0x1p-40) + s.slack
}

// pruneMargin is how much later than the contact found a pair's or a
// window's earliest time of contact must be for the search to skip it:
// a pair that can touch before hi + pruneMargin could still lower the
// interval's start (a pair's interval is at most ccd.MaxWidth wide for a
// translating motion), so the answer is that of deciding every pair.
const pruneMargin = 64 * ccd.MaxWidth

// past reports whether a contact (or a Maybe) found ends earlier than t
// by more than pruneMargin: nothing from t on can change the answer.
func (s *sweepState) past(t float64) bool {
	return s.hit && t > s.hi+pruneMargin || s.maybe && t > s.mhi+pruneMargin
}

// out reports whether the budget has run out.
func (s *sweepState) out() bool {
	b := &s.bud
	if b.IsZero() {
		return false
	}
	if s.spent || b.Tests > 0 && s.used() >= b.Tests {
		return true
	}
	return b.expired()
}

// used is the work done so far, as TOIOptions.Budget counts it.
func (s *sweepState) used() int64 {
	return s.st.BVTests + s.st.LeafTests + s.st.TriTests + s.exact + s.spans
}

// stop ends the search for want of budget: every time before t is proved
// free of contact.
func (s *sweepState) stop(t float64) { s.stopped, s.free = true, t }

// pair screens the pair of environment triangle e (a) and flying triangle
// f (b, placed at the window's middle pose as the walk's tester places
// it, as s.mid.ApplyTriangle does), which the window's walk reached: a
// pair proved apart throughout the window is dropped, the others are kept
// as candidates with the earliest time at which they can touch.
func (s *sweepState) pair(e, f int32, a, b geom.Triangle) {
	s.handed++
	p := Pair{e, f}
	if s.trans {
		if _, ok := s.seen[p]; ok {
			return // decided over the whole motion already
		}
	}
	// The flying triangle at the window's start, and its vertices' norms
	// (computed once per window).
	var b0 geom.Triangle
	var n [3]float64
	for j, x := range s.fmesh.Tris[f] {
		if s.wAt[x] != s.wcur {
			v := s.fmesh.Verts[x]
			s.w0[x], s.wn[x] = s.start.Apply(v), v.Norm()
			s.wAt[x] = s.wcur
		}
		b0[j], n[j] = s.w0[x], s.wn[x]
	}
	v := s.speed
	if !s.trans {
		rho := max(n[0], n[1], n[2]) * (1 + 0x1p-48)
		v = (s.dT + s.angle*rho) * (1 + 0x1p-40)
	}
	// Within the window the flying triangle stays within h·v + slack of
	// b (pad's bound, with its own rho).
	pad := s.h*v*(1+0x1p-40) + s.slack
	if geom.TriTriLowerBound(a, b) > pad {
		return
	}
	if s.trans {
		// (A turning pair's bisection starts with this test, on the same
		// pose.)
		d, _, _ := geom.TriTriDistance(a, b)
		if d-geom.TriTriDistanceBound(a, b) > pad {
			return
		}
	}
	// At the window's start the pair is at least lb0 apart, so at time t
	// at least lb0 − slack − (t − t0)·v: not in contact before
	// t0 + (lb0 − slack)/v (a conservative advancement step of the pair).
	lb0 := geom.TriTriLowerBound(a, b0)
	var pa, pb geom.Vec3
	d0 := math.NaN()
	if lb0 <= pad {
		d0, pa, pb = geom.TriTriDistance(a, b0)
		lb0 = max(lb0, d0-geom.TriTriDistanceBound(a, b0))
	}
	at := s.t0
	if g := lb0 - s.slack; g > 0 {
		if v == 0 {
			return // apart throughout
		}
		at = s.t0 + g/v*(1-0x1p-30)
	}
	if s.trans && d0 > 0 {
		// Sharper, for a translating motion: the gap along the direction
		// between the closest points closes only as fast as the motion
		// goes along it (not at all if it goes away).
		at = max(at, s.approach(a, b0, pb.Sub(pa)))
		if at > 1 {
			s.seen[p] = struct{}{} // apart for the rest of the motion
			return
		}
	}
	if at > s.t1 {
		return
	}
	s.cands = append(s.cands, candidate{p, at})
}

// approach returns the earliest time at which environment triangle a and
// the flying triangle b0, placed at the window's start, can touch under a
// translating motion, from their gap along n (any non-zero direction from a
// towards b0): the gap, computed from the vertices less the rounding of
// the products and the poses, shrinks at the rate −n·ΔT (plus the
// rounding of the vertices' motion) from t0 on; +Inf where it never
// shrinks, t0 where it proves nothing.
func (s *sweepState) approach(a, b0 geom.Triangle, n geom.Vec3) float64 {
	l := norm(n)
	if !(l > 0) || math.IsInf(l, 0) {
		return s.t0
	}
	n = n.Scale(1 / l) // |n| within 2^-50 of 1
	amax, bmin := math.Inf(-1), math.Inf(1)
	mag := 0.0
	for i := range 3 {
		amax = max(amax, n.Dot(a[i]))
		bmin = min(bmin, n.Dot(b0[i]))
		x, y := a[i].Abs(), b0[i].Abs()
		mag = max(mag, x.X+x.Y+x.Z, y.X+y.Y+y.Z)
	}
	// Each product n·x is within 2^-50·|x|₁ of exact, for the computed n;
	// each flying vertex is within slack of its place at t0 and moves by
	// ΔT per unit of time within 2·slack (its places at From and To, as
	// computed, each within slack).
	gap := (bmin-amax)*(1-0x1p-50) - 0x1p-48*mag - 4*s.slack - 0x1p-1000
	if !(gap > 0) {
		return s.t0
	}
	rate := -n.Dot(s.dTv) + 0x1p-40*s.dT + 4*s.slack
	if !(rate > 0) {
		return math.Inf(1)
	}
	return s.t0 + gap/rate*(1-0x1p-30)
}

// decide decides pair p over the window [t0, t1] (translating motions:
// over the whole motion, once, screened by apartSwept first).
func (s *sweepState) decide(p Pair) {
	if s.trans {
		if _, ok := s.seen[p]; ok {
			return
		}
		s.seen[p] = struct{}{}
		a := s.emesh.Triangle(int(p.Env))
		fa, fb := s.flyAt(p.Fly)
		if s.screen && apartSwept(a, fa, fb) {
			return
		}
		s.exact++
		if toi, hit := ccd.TriTri(fa, a, fb, a); hit {
			s.take(p, toi.Lo, toi.Hi)
		}
		return
	}
	s.exact++
	s.turning(p)
}

// flyAt returns flying triangle f at From and at To.
func (s *sweepState) flyAt(f int32) (a, b geom.Triangle) {
	for j, x := range s.fmesh.Tris[f] {
		if s.vAt[x] != s.cur {
			v := s.fmesh.Verts[x]
			s.va[x], s.vb[x] = s.m.From.Apply(v), s.m.To.Apply(v)
			s.vAt[x] = s.cur
		}
		a[j], b[j] = s.va[x], s.vb[x]
	}
	return a, b
}

// take records a contact of pair p within [lo, hi].
func (s *sweepState) take(p Pair, lo, hi float64) {
	if !s.hit {
		s.hit, s.lo, s.hi, s.hp = true, lo, hi, p
		return
	}
	s.lo = min(s.lo, lo)
	if hi < s.hi || hi == s.hi && (p.Env < s.hp.Env || p.Env == s.hp.Env && p.Fly < s.hp.Fly) {
		s.hi, s.hp = hi, p
	}
}

// maxSpans is the most spans of time the bisection of one pair visits in
// one piece before it gives up with a Maybe over the span it is at (a
// safeguard: the directional bounds below make a few hundred the rule,
// TOIResult.Spans says how many were visited).
const maxSpans = 1 << 16

// maxAhead is how many spans of ccd.MaxWidth/2 past one that cannot be
// dropped a turning motion's bisection looks for a contact: the interval
// of a contact so found is at most (maxAhead/2)·ccd.MaxWidth wide.
const maxAhead = 64

// turning decides pair p for a turning motion over the window [t0, t1].
//
// Spans of time are dropped where the pair is proved apart throughout
// (apartTurning), earliest first; a span that cannot be dropped is tested
// at its middle pose and at its end, and a contact there (as m.At computes
// the pose, as Collide tests it) proves one: what follows is not searched.
func (s *sweepState) turning(p Pair) {
	a := s.emesh.Triangle(int(p.Env))
	ix := s.fmesh.Tris[p.Fly]
	model := geom.Triangle{s.fmesh.Verts[ix[0]], s.fmesh.Verts[ix[1]], s.fmesh.Verts[ix[2]]}
	rho := max(model[0].Norm(), model[1].Norm(), model[2].Norm()) * (1 + 0x1p-48)
	if s.t0 == 0 && geom.TriTri(a, s.m.From.ApplyTriangle(model)) {
		s.take(p, 0, 0)
		return
	}
	stack := append(s.stack[:0], span{s.t0, s.t1})
	touch := math.Inf(1) // a time at which the pair is proved to touch
	visits := 0
	defer func() { s.spans, s.stack = s.spans+int64(visits), stack[:0] }()
	for len(stack) > 0 {
		sp := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if s.hit && sp.lo > s.hi || s.maybe && sp.lo > s.mhi {
			return // later than what is known already
		}
		if sp.lo >= touch {
			break
		}
		visits++
		mid := (sp.lo + sp.hi) / 2
		pose := s.at(mid)
		b := pose.ApplyTriangle(model)
		if s.apartTurning(a, b, pose.T, (sp.hi-sp.lo)/2, rho) {
			continue
		}
		if visits >= maxSpans {
			// Undecided within the budget: a Maybe over the span.
			if !s.maybe || sp.lo < s.mlo {
				s.maybe, s.mlo, s.mhi, s.mpair = true, sp.lo, min(sp.hi, touch), p
			}
			return
		}
		if sp.hi-sp.lo > ccd.MaxWidth/2 {
			if geom.TriTri(a, b) {
				touch = mid
				stack = append(stack, span{sp.lo, mid})
				continue
			}
			// The end too (the contact may begin where the piece ends).
			if sp.hi < touch && geom.TriTri(a, s.at(sp.hi).ApplyTriangle(model)) {
				touch = sp.hi
			}
			stack = append(stack, span{mid, sp.hi}, span{sp.lo, mid})
			continue
		}
		// Neither dropped nor longer: the earliest contact of the pair is
		// not before sp.lo. A contact if the triangles touch at the end
		// of this span or of one of the next maxAhead as long (where the
		// pair approaches slowly, the rounding leaves several spans before
		// a contact that cannot be dropped), or at a time already sampled
		// as close; a Maybe if at none.
		w := sp.hi - sp.lo
		for j := 1; j <= maxAhead; j++ {
			tj := min(sp.lo+float64(j)*w, 1)
			if tj >= touch {
				s.take(p, sp.lo, touch)
				return
			}
			if geom.TriTri(a, s.at(tj).ApplyTriangle(model)) {
				s.take(p, sp.lo, tj)
				return
			}
			if tj == 1 {
				break
			}
		}
		if touch < math.Inf(1) {
			// A contact proved at a time sampled earlier, past the look
			// ahead: the rounding of the poses leaves every span from
			// sp.lo to it undecided (a slow approach).
			s.take(p, sp.lo, touch)
			return
		}
		if !s.maybe || sp.lo < s.mlo {
			s.maybe, s.mlo, s.mhi, s.mpair = true, sp.lo, sp.hi, p
		}
		return
	}
	// Every span before a contact sampled was dropped (the bounds cover
	// the closed spans, so this does not happen): the contact is the
	// earliest.
	if touch < math.Inf(1) {
		s.take(p, touch, touch)
	}
}

// span is a span of time [lo, hi] of a turning motion's bisection.
type span struct{ lo, hi float64 }

// apartTurning reports whether env triangle a and the flying triangle,
// at b at the pose halfway through a span of half-length h (its
// translation tm; rho bounds its model vertices' norms), are proved apart
// during the whole span. First the distance at the middle against how far
// the flying triangle can move (h·(|ΔT| + angle·rho)); then, as that
// bound is far from tight where the triangle turns fast and the pair is
// close (a gap that stays small, a slow approach), separation along fixed
// directions with a second-order bound of the motion along each: the
// triangles' normals, the cross products of their edges and the
// direction between their closest points, in the environment's frame
// (a fixed, the flying triangle moving) and in the flying triangle's
// frame (b fixed, a moving by the inverse motion).
//
// The bound. Each flying point moves on a helix about the axis through
// the moving centre T(t): with δ = (t − mid)·angle and r = x(mid) − T(mid),
// n·(x(t) − x(mid)) = (t − mid)·n·v + (sin δ − δ)·n·(axis × r) + (cos δ −
// 1)·n·r⊥, v = ΔT + angle·axis × r its velocity; the last two terms are
// within ((h·angle)²/2 + (h·angle)³/6)·|n⊥|·|r⊥|, n⊥ and r⊥ the parts
// perpendicular to the axis. In the flying triangle's frame (the rigid map
// taking x(t) back to x(mid)), a fixed point e moves by u = −angle·axis ×
// w − ΔT, w = e − T(mid), with the same remainder on |w⊥| plus
// h·(h·angle + (h·angle)²/2)·|n⊥|·|ΔT|. The poses' rounding (slack) and the
// float arithmetic are added, each many times over.
func (s *sweepState) apartTurning(a, b geom.Triangle, tm geom.Vec3, h, rho float64) bool {
	pad := h*(s.dT+s.angle*rho)*(1+0x1p-40) + s.slack
	if geom.TriTriLowerBound(a, b) > pad {
		return true
	}
	d, pa, pb := geom.TriTriDistance(a, b)
	if d-geom.TriTriDistanceBound(a, b) > pad {
		return true
	}
	if !(d > 0) {
		return false // touching, or not finite
	}
	var dirs [12]geom.Vec3
	n := 0
	add := func(v geom.Vec3, scale float64) {
		if l := norm(v); l > 0x1p-30*scale && !math.IsInf(l, 0) {
			dirs[n] = v.Scale(1 / l)
			n++
		}
	}
	ea := [3]geom.Vec3{a[1].Sub(a[0]), a[2].Sub(a[1]), a[0].Sub(a[2])}
	eb := [3]geom.Vec3{b[1].Sub(b[0]), b[2].Sub(b[1]), b[0].Sub(b[2])}
	add(pb.Sub(pa), d/2)
	add(ea[0].Cross(ea[1]), norm(ea[0])*norm(ea[1]))
	add(eb[0].Cross(eb[1]), norm(eb[0])*norm(eb[1]))
	for i := range 3 {
		for j := range 3 {
			add(ea[i].Cross(eb[j]), norm(ea[i])*norm(eb[j]))
		}
	}
	k := &s.dir
	k.h, k.ht = h, h*s.angle
	k.rem = (k.ht*k.ht/2 + k.ht*k.ht*k.ht/6) * (1 + 0x1p-40)
	k.tm = tm
	for i := range 3 {
		k.fly[i] = s.mover(b[i], tm, 1)
		k.env[i] = s.mover(a[i], tm, -1)
	}
	for _, dir := range dirs[:n] {
		if k.apartAlong(s, dir, &a, &k.fly) || k.apartAlong(s, dir, &b, &k.env) {
			return true
		}
	}
	return false
}

// mover is a point moving with the flying triangle (sign 1) or, in its
// frame, with the environment (sign -1): its position and velocity at the
// middle of the span, the distance of its lever from the axis, bounded,
// and the errors of its position and velocity.
type mover struct {
	x      geom.Vec3
	v      geom.Vec3
	perp   float64 // ≥ |r⊥|
	ex, ev float64 // ≥ the errors of n·x and n·v, n a unit vector
}

// mover returns x's mover about the centre tm (both as the pose at the
// middle places them, within slack of the motion's).
func (s *sweepState) mover(x, tm geom.Vec3, sign float64) mover {
	r := x.Sub(tm)
	rn := norm(r)
	perp := norm(r.Sub(s.axis.Scale(s.axis.Dot(r))))
	v := s.axis.Cross(r).Scale(s.angle * sign)
	if sign > 0 {
		v = v.Add(s.dTv)
	} else {
		v = v.Sub(s.dTv)
	}
	a := x.Abs()
	m := mover{x: x, v: v}
	// r is within 2·slack of the exact lever (x and tm each within slack;
	// the environment's x is exact), plus its own rounding.
	m.perp = (perp+2*s.slack+0x1p-46*rn)*(1+0x1p-40) + 0x1p-1000
	m.ex = 0x1p-48*(a.X+a.Y+a.Z) + 0x1p-1000
	if sign > 0 {
		m.ex += s.slack
	}
	m.ev = 2*s.angle*s.slack + 0x1p-46*(s.dT+s.angle*rn) + 0x1p-1000
	return m
}

// dirBound is the state of the directional tests of one span.
type dirBound struct {
	h, ht, rem float64 // half the span, h·angle, the remainder's factor
	tm         geom.Vec3
	fly, env   [3]mover
}

// apartAlong reports whether the fixed triangle t and the moving points
// mv are on either side of a plane of normal n throughout the span.
func (k *dirBound) apartAlong(s *sweepState, n geom.Vec3, t *geom.Triangle, mv *[3]mover) bool {
	nperp := norm(n.Sub(s.axis.Scale(s.axis.Dot(n))))*(1+0x1p-40) + 0x1p-44
	tlo, thi := math.Inf(1), math.Inf(-1)
	tmag := 0.0 // the largest |x|₁, whose 2^-48 bounds the products' rounding
	for _, x := range t {
		y := n.Dot(x)
		tlo, thi = min(tlo, y), max(thi, y)
		a := x.Abs()
		tmag = max(tmag, a.X+a.Y+a.Z)
	}
	mlo, mhi := math.Inf(1), math.Inf(-1)
	for i := range mv {
		m := &mv[i]
		y := n.Dot(m.x)
		drift := (k.h*(math.Abs(n.Dot(m.v))+m.ev)+k.rem*nperp*m.perp)*(1+0x1p-40) + m.ex
		mlo, mhi = min(mlo, y-drift), max(mhi, y+drift)
	}
	// The environment's frame: ΔT's part of the remainder is for the
	// environment's points moving in the flying triangle's frame.
	if mv == &k.env {
		extra := k.h * (k.ht + k.ht*k.ht/2) * nperp * s.dT * (1 + 0x1p-40)
		mlo, mhi = mlo-extra, mhi+extra
	}
	// The fixed triangle's products, within 2^-50 of their terms' size,
	// and the flying triangle's pose (slack) when it is the fixed one.
	terr := 0x1p-48*tmag + 0x1p-1000
	if mv == &k.env {
		terr += s.slack
	}
	margin := 0x1p-48 * (math.Abs(mlo) + math.Abs(mhi))
	return mlo-margin > thi+terr || mhi+margin < tlo-terr
}

// at returns s.m.At(t), with the motion's axis and angle computed once.
func (s *sweepState) at(t float64) geom.Pose { return s.m.AtRotation(t, s.axis, s.angle) }

// norm returns |v| (math.Sqrt of the sum of squares where neither it
// underflows nor overflows, geom.Vec3.Norm's math.Hypot elsewhere: the
// directional tests take many).
func norm(v geom.Vec3) float64 {
	if q := v.X*v.X + v.Y*v.Y + v.Z*v.Z; q > 0x1p-400 && q < 0x1p400 {
		return math.Sqrt(q)
	}
	return v.Norm()
}

// result returns the query's answer.
func (s *sweepState) result() TOIResult {
	r := TOIResult{Stats: s.st, Spans: s.spans, Exact: s.exact, Stopped: s.stopped}
	nan := math.NaN()
	r.TOI = ccd.Interval{Lo: nan, Hi: nan}
	switch {
	case s.maybe && (!s.hit || s.mlo < s.lo):
		r.Maybe, r.TOI, r.Pair = true, ccd.Interval{Lo: s.mlo, Hi: s.mhi}, s.mpair
	case s.hit:
		r.Hit, r.TOI, r.Pair = true, ccd.Interval{Lo: s.lo, Hi: s.hi}, s.hp
	case s.stopped:
		r.TOI = ccd.Interval{Lo: s.free, Hi: 1}
	}
	if s.stopped {
		r.TOI.Lo = min(r.TOI.Lo, s.free)
	}
	return r
}
