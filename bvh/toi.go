package bvh

import (
	"math"

	"github.com/collide3d/collide/ccd"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh"
)

// TOIResult is the answer of TimeOfImpact.
type TOIResult struct {
	// Hit says that the flying model touches the environment during the
	// motion; TOI holds the earliest time of contact, within at most
	// ccd.MaxWidth (translating motions; turning ones, 32·ccd.MaxWidth),
	// and Pair two triangles that touch at a time in TOI.
	Hit  bool
	TOI  ccd.Interval
	Pair Pair
	// Maybe (turning motions only): before TOI.Lo the models are proved
	// apart; within TOI they come within rounding of each other and no
	// contact is proved (Hit is false).
	Maybe bool
	Stats Stats
}

// TimeOfImpact returns the earliest time at which fly, moving by m (see
// ccd.Motion), touches env (at the identity pose), in scratch s (nil: a
// new one). The trees must be of the same kind; Collide's conditions on
// poses apply to both of m's poses and to those between.
//
// The motion is cut into 2^k pieces of time, enough that no vertex moves
// farther in a piece than the flying model's radius. For each piece, in
// time order, one query of the two trees at the pose halfway through the
// piece, with a tolerance that bounds how far a flying vertex moves from
// there during the piece (plus the rounding), reaches every pair of
// triangles that can touch during the piece: the volumes at that pose,
// padded by the tolerance, bound the volumes swept. Each such pair is then
// decided:
//
//   - translating motions (m.Translating): exactly, by ccd.TriTri, each
//     vertex moving on a straight line from its position at m.From to its
//     position at m.To, as geom.Pose.Apply computes them;
//   - turning motions: by bisection of the piece's time, earliest half
//     first: a span is dropped where the pair's distance at the pose
//     halfway through it, less its error bound, exceeds how far the flying
//     triangle can move in half the span (plus the rounding of the pose);
//     a span at most ccd.MaxWidth/2 long that cannot be dropped is a
//     contact if the triangles touch at the pose at its end, or at the end
//     of one of the next 64 spans as long (poses computed as m.At does,
//     tested as Collide does), and a Maybe otherwise. The interval is then
//     from the span's start to that end: at most 32·ccd.MaxWidth wide.
//
// The search stops after the piece in which a contact was found.
func TimeOfImpact(env, fly *Tree, m ccd.Motion, s *Scratch) TOIResult {
	if s == nil {
		s = new(Scratch)
	}
	sw := &s.sweep
	sw.begin(env.mesh, fly.mesh, m, fly.motionInfo(), env.motionInfo().mag)
	var st Stats
	n := sw.pieces()
	for k := range n {
		sw.t0, sw.t1 = float64(k)/float64(n), float64(k+1)/float64(n)
		if sw.done() {
			break
		}
		tm := (sw.t0 + sw.t1) / 2
		pad := sw.pad(sw.t0, sw.t1, sw.rho)
		st.Add(Collide(env, fly, m.At(tm), QueryOptions{All: true, Eps: pad, sweep: sw}, s, nil))
	}
	return sw.result(st)
}

// SweepAll is TimeOfImpact by testing every pair of triangles as it
// decides the pairs it reaches (the oracle of the tests, and the answer
// for models without hierarchies).
func SweepAll(env, fly *mesh.TriMesh, m ccd.Motion) TOIResult {
	var sw sweepState
	sw.begin(env, fly, m, nil, 0)
	sw.t0, sw.t1 = 0, 1
	var st Stats
	for e := range env.Tris {
		for f := range fly.Tris {
			st.TriTests++
			sw.pair(int32(e), int32(f))
		}
	}
	return sw.result(st)
}

// sweepState is the state of one continuous query.
type sweepState struct {
	m            ccd.Motion
	trans        bool
	angle        float64
	dT           float64 // |To.T − From.T|, rounded up
	rho          float64 // bound on |x| for every flying vertex x
	radius       float64 // the flying model's radius about its centre
	slack        float64 // bound on the rounding of the poses
	emesh, fmesh *mesh.TriMesh
	t0, t1       float64 // the piece being searched
	// va and vb are the flying vertices at From and To (translating
	// motions), computed once per query: vAt[x] == cur.
	va, vb []geom.Vec3
	vAt    []uint32
	cur    uint32
	seen   map[Pair]struct{}
	// The earliest contact so far: [lo, hi] = [min lo, min hi] of the
	// pairs' intervals, hp the pair of min hi; and the earliest Maybe.
	hit, maybe bool
	lo, hi     float64
	hp         Pair
	mlo, mhi   float64
	mpair      Pair
	tris       int64
}

// begin readies s for a query of fly moving by m against env; mi is the
// flying tree's motion data (nil: computed from fly), emag the largest
// |coordinate| of env.
func (s *sweepState) begin(env, fly *mesh.TriMesh, m ccd.Motion, mi *motionInfo, emag float64) {
	*s = sweepState{va: s.va, vb: s.vb, vAt: s.vAt, cur: s.cur + 1, seen: s.seen}
	s.m, s.emesh, s.fmesh = m, env, fly
	s.trans = m.Translating()
	_, s.angle = m.Rotation()
	if mi == nil {
		own := motionInfoOf(fly.Verts)
		emag = motionInfoOf(env.Verts).mag
		mi = &own
	}
	s.rho = (mi.c.Norm() + mi.r) * (1 + 0x1p-48)
	s.radius = mi.r
	s.dT = m.To.T.Sub(m.From.T).Norm() * (1 + 0x1p-48)
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
	if s.seen == nil {
		s.seen = map[Pair]struct{}{}
	}
	clear(s.seen)
}

// pieces returns the number of pieces the motion is cut into: a power of
// two, enough that no vertex moves more than the model's radius in one (at
// most 2^10).
func (s *sweepState) pieces() int {
	l := s.dT + s.angle*s.rho
	n := 1
	for n < 1024 && l > float64(n)*max(s.radius, 0x1p-1000) {
		n *= 2
	}
	return n
}

// pad bounds how far a flying vertex x with |x| ≤ rho moves during
// [t0, t1] from where the pose halfway through places it, plus the
// rounding: h·|ΔT| + 2·sin(h·angle/2)·|x| ≤ h·(|ΔT| + angle·rho), h half
// the span.
func (s *sweepState) pad(t0, t1, rho float64) float64 {
	h := (t1 - t0) / 2
	return h*(s.dT+s.angle*rho)*(1+0x1p-40) + s.slack
}

// done reports whether a contact found ends before the piece being
// searched starts.
func (s *sweepState) done() bool { return s.hit && s.hi < s.t0 || s.maybe && s.mhi < s.t0 }

// pair decides the pair of environment triangle e and flying triangle f.
func (s *sweepState) pair(e, f int32) {
	p := Pair{e, f}
	if s.trans {
		if _, ok := s.seen[p]; ok {
			return
		}
		s.seen[p] = struct{}{}
		a := s.emesh.Triangle(int(e))
		fa, fb := s.flyAt(f)
		s.tris++
		if toi, hit := ccd.TriTri(fa, a, fb, a); hit {
			s.take(p, toi.Lo, toi.Hi)
		}
		return
	}
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
// one piece before it gives up with a Maybe.
const maxSpans = 1 << 12

// maxAhead is how many spans of ccd.MaxWidth/2 past one that cannot be
// dropped a turning motion's bisection looks for a contact: the interval
// of a contact so found is at most (maxAhead/2)·ccd.MaxWidth wide.
const maxAhead = 64

// turning decides pair p for a turning motion over the piece [t0, t1].
func (s *sweepState) turning(p Pair) {
	a := s.emesh.Triangle(int(p.Env))
	ix := s.fmesh.Tris[p.Fly]
	model := geom.Triangle{s.fmesh.Verts[ix[0]], s.fmesh.Verts[ix[1]], s.fmesh.Verts[ix[2]]}
	rho := max(model[0].Norm(), model[1].Norm(), model[2].Norm()) * (1 + 0x1p-48)
	s.tris++
	if s.t0 == 0 && geom.TriTri(a, s.m.From.ApplyTriangle(model)) {
		s.take(p, 0, 0)
		return
	}
	type span struct{ lo, hi float64 }
	stack := []span{{s.t0, s.t1}}
	for visits := 0; len(stack) > 0; visits++ {
		sp := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if s.hit && sp.lo > s.hi || s.maybe && sp.lo > s.mhi {
			return // later than what is known already
		}
		mid := (sp.lo + sp.hi) / 2
		b := s.m.At(mid).ApplyTriangle(model)
		pad := s.pad(sp.lo, sp.hi, rho)
		if geom.TriTriLowerBound(a, b) > pad {
			continue
		}
		if d, _, _ := geom.TriTriDistance(a, b); d-geom.TriTriDistanceBound(a, b) > pad {
			continue
		}
		if sp.hi-sp.lo <= ccd.MaxWidth/2 || visits >= maxSpans {
			// Neither dropped nor longer: a contact if the triangles touch
			// at the end of this span or of one of the next maxAhead as
			// long (where the pair approaches slowly, the rounding leaves
			// several spans before a contact that cannot be dropped); a
			// Maybe if at none.
			w := sp.hi - sp.lo
			for j := 1; j <= maxAhead; j++ {
				tj := min(sp.lo+float64(j)*w, s.t1)
				if geom.TriTri(a, s.m.At(tj).ApplyTriangle(model)) {
					s.take(p, sp.lo, tj)
					return
				}
				if tj == s.t1 {
					break
				}
			}
			if !s.maybe || sp.lo < s.mlo {
				s.maybe, s.mlo, s.mhi, s.mpair = true, sp.lo, sp.hi, p
			}
			return
		}
		stack = append(stack, span{mid, sp.hi}, span{sp.lo, mid})
	}
}

// result returns the query's answer, with the statistics st of its
// searches.
func (s *sweepState) result(st Stats) TOIResult {
	r := TOIResult{Stats: st}
	nan := math.NaN()
	r.TOI = ccd.Interval{Lo: nan, Hi: nan}
	switch {
	case s.maybe && (!s.hit || s.mlo < s.lo):
		r.Maybe, r.TOI, r.Pair = true, ccd.Interval{Lo: s.mlo, Hi: s.mhi}, s.mpair
	case s.hit:
		r.Hit, r.TOI, r.Pair = true, ccd.Interval{Lo: s.lo, Hi: s.hi}, s.hp
	}
	return r
}
