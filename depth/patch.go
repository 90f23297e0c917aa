package depth

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/geom"
)

// This file bounds the penetration of two solids along a direction, the
// normal of a contact patch:
//
//	D(n) = inf{ t ≥ 0 : Ω_env ∩ (Ω_fly + t·n) = ∅ },
//
// how far fly must move along n before the interiors are disjoint.
// PD ≤ D(n) for every unit n (t·n is one of the translations PD ranges
// over).
//
// Upper: along (the search's certified gaps along a direction) or, failing
// it, planeAlong (a plane normal to n) certifies a t at which the
// interiors are disjoint, so D(n) ≤ t.
//
// Lower: if x is inside env with B(x, a) missing env's surface and y
// inside fly with B(y, b) missing fly's, the open balls lie in the
// interiors (see the package doc's Lower), and after a translation t·n
// they still meet while |x − y − t·n| < a + b: an open interval of t.
// Every t of a union of such intervals that covers [0, T) leaves the
// interiors overlapping, so D(n) ≥ T. The points come in two chains from
// a point p inside both: x_i marching from p along +n inside env, each a
// step of 0.9 times its ball's radius beyond the last, and y_j along −n
// inside fly; the pairs (x_i, y_j) give intervals around the distance
// between them along n, which reach about the distance from p to env's
// surface along +n plus that to fly's along −n (the directional analogue
// of d_env(p) + d_fly(p)). Each point's classification is exact (winding
// numbers); each radius is the floating-point distance less the margin
// that Lower uses, and each interval is shrunk by a bound on the rounding
// of its ends (derived in ballInterval).

// PatchDepths fills each patch's Depth and DepthKnown: a certified
// interval [lo, hi] for D(n), the penetration of fly into env along the
// patch's Normal n (from env towards fly): the least t ≥ 0 after which fly,
// moved by t·n, has an interior disjoint from env's. hi is a translation
// certified separating (the search's certificates along n, or a plane
// normal to n); lo is the larger of PD's certified lower bound (PD ≤ D(n))
// and a bound along n from balls inside both solids (see the file's
// comment in patch.go). Both bound D(n) for fly at the relative pose
// envPose⁻¹∘flyPose (as SignedDistance computes it), n mapped into env's
// frame by envPose's rotation and normalised in float64, and fly at
// {R, T + hi·n} as computed in float64 (the rounding of Result.Pose).
//
// What serves every patch runs once: whether the solids interpenetrate
// at all, and PD's lower bound (Translation's search for Lower, or the
// exact PD of convex meshes, with o); each patch then costs a search
// along its normal and a few dozen point classifications. When the solids are certified not to
// interpenetrate every depth is [0, 0]. A patch whose Normal is zero or
// not finite, or for which nothing could be certified (the budget ran
// out), is left with DepthKnown false; so are all of them, without an
// error, when a mesh is not closed.
//
// ctx stops the call as it stops TranslationContext: the patches not
// reached keep DepthKnown false and the error wraps ctx.Err(). The other
// errors are those of SignedDistance.
func PatchDepths(ctx context.Context, env *collide.Model, envPose geom.Pose, fly *collide.Model, flyPose geom.Pose, patches []collide.Patch, o Options) error {
	if ctx == nil {
		return fmt.Errorf("depth: nil context: %w", ErrInvalid)
	}
	if env == nil || fly == nil {
		return fmt.Errorf("depth: nil model: %w", ErrInvalid)
	}
	for i := range patches {
		patches[i].Depth, patches[i].DepthKnown = [2]float64{}, false
	}
	envPose, flyPose = envPose.Normalize(), flyPose.Normalize()
	if err := env.CheckPose(envPose); err != nil {
		return fmt.Errorf("depth: env pose: %w", err)
	}
	rel := collide.RelativePose(envPose, flyPose)
	q, err := prepare(ctx, env, fly, rel, o)
	var open *OpenError
	if errors.As(err, &open) {
		return nil
	}
	if err != nil {
		return err
	}
	if len(patches) == 0 {
		return nil
	}
	r := q.lowerOnly()
	if err := q.ctxError(r.Stopped, q.err); err != nil {
		return err
	}
	if r.Upper == 0 {
		for i := range patches {
			patches[i].DepthKnown = true
		}
		return nil
	}
	back := envPose.Inverse()
	for i := range patches {
		p := &patches[i]
		n := envPose.R.Transpose().MulVec(p.Normal)
		l := n.Norm()
		if !(l > 0) || math.IsInf(l, 0) {
			continue
		}
		n = n.Scale(1 / l)
		hi, ok := q.alongDepth(n)
		if !ok {
			if q.cancelled() {
				break
			}
			continue
		}
		lo := r.Lower
		if hi > lo {
			lo = max(lo, q.patchLower(n, back.Apply(p.Point), r))
		}
		p.Depth, p.DepthKnown = [2]float64{min(lo, hi), hi}, true
	}
	return q.ctxError(q.stopped, nil)
}

// lowerOnly is the part of run that PatchDepths needs: whether the solids
// interpenetrate at all (Upper 0 if certified not), and PD's lower bound
// and witness (the convex path's exact PD for convex meshes), without the
// search of directions for Upper, which each patch's normal replaces.
// Upper is +Inf when the solids are not certified apart.
func (q *query) lowerOnly() Result {
	res := Result{Upper: math.Inf(1)}
	convA := isConvex(q.aPts, q.ta.tris, q.late)
	if convA && isConvex(q.bLocal, q.tb.tris, q.late) {
		r, ok := q.convex()
		if ok {
			return r
		}
		if r.Exact {
			res.Lower, res.Exact = r.Lower, true // PD computed, the budget stopped the rest
		}
	}
	if q.stopped {
		res.Stopped = true
		return res
	}
	if q.separated(geom.Vec3{}) {
		return q.zero(true)
	}
	if q.err != nil || q.stopped {
		res.Stopped = q.stopped
		return res
	}
	hA, hB := hullPolytope(q.aPts), hullPolytope(q.bPts0)
	if hA == nil || hB == nil {
		return q.zero(true) // a flat solid has an empty interior
	}
	pd, u, axes := satDepth(hA, hB, q.late)
	q.st.Axes += axes
	if pd <= 0 && q.separated(geom.Vec3{}, u) {
		return q.zero(true)
	}
	if lower, witness, _ := q.lower(); lower > 0 {
		res.Lower, res.Witness = lower, witness
	}
	res.Stopped = q.stopped
	res.Stats = q.st
	return res
}

// alongDepth returns a t certified to separate the solids when fly moves
// by t·n: the search's along, else a plane normal to n.
func (q *query) alongDepth(n geom.Vec3) (float64, bool) {
	if !q.stopped {
		q.st.Directions++
		if t, _, ok := q.along(n, math.Inf(1)); ok {
			return t, true
		}
	}
	if q.done != nil && q.cancelled() {
		return 0, false
	}
	return q.planeAlong(n, math.Inf(1))
}

// patchLower returns a certified lower bound on D(n) from the chains of
// balls (see the file's comment) started at the best of a few points
// inside both solids: PD's witness, and points around the patch's point
// pt (env's frame).
func (q *query) patchLower(n, pt geom.Vec3, r Result) float64 {
	type cand struct {
		p    geom.Vec3
		f    float64
		a, b float64
	}
	var cands []cand
	try := func(p geom.Vec3) {
		if !p.IsFinite() || !q.step() {
			return
		}
		q.st.Points++
		if !q.sA.Contains(p) || !q.step() {
			return
		}
		q.st.Points++
		if !q.flySolid().Contains(p) {
			return
		}
		a, _ := q.sA.Distance(p)
		b, _ := q.flySolid().Distance(p)
		cands = append(cands, cand{p, a + b, a, b})
	}
	if r.Lower > 0 && !r.Exact {
		try(r.Witness)
	}
	e1, e2 := basis(n)
	for _, s := range []float64{1.0 / 8, 1.0 / 32, 1.0 / 128} {
		for _, u := range []geom.Vec3{n.Neg(), n, e1, e1.Neg(), e2, e2.Neg()} {
			try(pt.Add(u.Scale(s * q.diag)))
		}
	}
	slices.SortFunc(cands, func(x, y cand) int { return cmp.Compare(y.f, x.f) })
	best := 0.0
	for _, c := range cands[:min(3, len(cands))] {
		best = max(best, q.chainLower(c.p, n, c.a, c.b))
	}
	return best
}

// chainSteps is the most points of each chain.
const chainSteps = 24

// chainLower returns T with D(n) ≥ T, from the chains of balls marching
// from p (inside both solids, at distances a and b from their surfaces)
// along +n inside env and along −n inside fly.
func (q *query) chainLower(p, n geom.Vec3, a, b float64) float64 {
	m := q.margin()
	type ball struct {
		c geom.Vec3
		r float64
	}
	chain := func(s *Solid, d geom.Vec3, r0 float64) []ball {
		out := []ball{{p, r0 - m}}
		if out[0].r <= 0 {
			return nil
		}
		for len(out) < chainSteps {
			last := out[len(out)-1]
			x := last.c.Add(d.Scale(0.9 * last.r))
			if x == last.c || !q.step() {
				break
			}
			q.st.Points++
			if !s.Contains(x) {
				break
			}
			dx, _ := s.Distance(x)
			if dx-m <= 0 {
				break
			}
			out = append(out, ball{x, dx - m})
		}
		return out
	}
	xs := chain(q.sA, n, a)
	ys := chain(q.flySolid(), n.Neg(), b)
	var ivs []interval
	for _, x := range xs {
		for _, y := range ys {
			if iv, ok := ballInterval(x.c.Sub(y.c), n, x.r+y.r); ok {
				ivs = append(ivs, iv)
			}
		}
	}
	cur := 0.0
	for {
		best := cur
		for _, iv := range ivs {
			if iv.lo < cur {
				best = max(best, iv.hi)
			}
		}
		if best <= cur {
			return cur
		}
		cur = best
	}
}

// ballInterval returns an open interval of t, as computed shrunk by a
// bound on its rounding, within {t : |w − t·n| < r} for the unit n: the
// ends are c ∓ h with c = w·n and h = √(r² − |w|² + c²). With M = |w| + r,
// every term under the root is at most M² and each of the few roundings
// of w = x − y, the dot products and the sum is within 2^-52 of its
// magnitude, and n's length within 2^-51 of 1: E = 2^-46·M² bounds the
// error of the radicand, so h is within min(√E, E/h) of the exact root
// (|h − h*| ≤ |h² − h*²|/(h + h*)), and c within 2^-46·M; the ends are
// pulled in by their sum and an ulp of the root.
func ballInterval(w, n geom.Vec3, r float64) (interval, bool) {
	c := w.Dot(n)
	ww := w.Dot(w)
	M := math.Sqrt(ww) + r
	e := 0x1p-46 * M * M
	disc := r*r - ww + c*c
	if !(disc > e) {
		return interval{}, false
	}
	h := math.Sqrt(disc)
	d := min(math.Sqrt(e), e/h) + 0x1p-46*M + 0x1p-51*h
	if h <= d {
		return interval{}, false
	}
	return interval{c - h + d, c + h - d}, true
}
