// Package sep proves two point sets apart with a separating plane: the
// convex test of the object level (Zachmann's separating planes with their
// per-pair cache, found here by GJK and certified exactly).
//
// # Semantics
//
// A Shape is a finite point set (a model's vertices) kept as its convex
// hull (package hull), on which supports are found by hill climbing, exact
// maximisers of a linear function. Apart tests shape A, in its own frame,
// against shape B placed by a rigid pose p, each point b of B placed as
// p.Apply(b) computes it in float64 (the coordinates the exact triangle tests
// of package bvh see). It answers Cached or New only when it has proved, for
// the computed coordinates, a direction n with
//
//	max over a in A of n·a  <  min over b in B of n·p.Apply(b),
//
// so that no triangle over A's points meets a triangle over B's placed
// points: the plane separates the points, hence their convex hulls, hence
// every triangle. With a tolerance eps > 0 it also proves the gap between
// the two sets wider than eps plus the error bound of geom.TriTriWithin, so
// that no pair of triangles is found within eps either. NotProved says
// nothing: the sets may touch, or the float search did not find a plane; the
// caller's exact test decides. "Apart" is correct for any point sets; for
// convex models, whose triangles bound their hulls, a plane exists whenever
// the models are apart, and GJK finds it unless the gap is within the
// rounding of the computation.
//
// # The proof
//
// Let u = 2⁻⁵³ and γk = ku/(1−ku). For n, the climb gives a* ∈ A maximising
// n·a exactly and, with m = fl(Rᵀn) (R the pose's rotation, t its
// translation), b* ∈ B minimising m·b exactly (hull.Extreme). For any b ∈ B,
// with Mb the largest |coordinate| of B (hull.MaxAbs):
//
//   - p.Apply(b)ᵢ = fl(Σⱼ Rᵢⱼbⱼ + tᵢ) is within γ4(Mb·Σⱼ|Rᵢⱼ| + |tᵢ|) of
//     Rᵢ·b + tᵢ (four terms, each rounded at most four times);
//   - n·(Rb) = (Rᵀn)·b and |(Rᵀn)ⱼ − mⱼ| ≤ γ3·Σᵢ|Rᵢⱼ||nᵢ|;
//   - m·b ≥ m·b*, and the three dot products fl(n·a*), fl(m·b*), fl(n·t)
//     are within γ3 of their sums of magnitudes.
//
// So min over b of n·p.Apply(b) − max over a of n·a ≥ g − E with g =
// m·b* + n·t − n·a* and E ≤ γ4·S, S = Σ|nᵢa*ᵢ| + Σ|mⱼb*ⱼ| + 2Σ|nᵢtᵢ| +
// 2Mb·Σᵢⱼ|Rᵢⱼ||nᵢ|. Computing g in float adds two roundings, at most
// 2u(1+γ3)S, so |fl(g) − g| + E ≤ 6.01u·S, and fl(S) ≥ (1−γ16)S: the test
// fl(g) > 8u·fl(S) + 2⁻¹⁰⁶⁰ (the last term covers underflow: at most
// 2⁻¹⁰⁷⁵ a rounding) proves the strict inequality. An overflow gives an
// infinite or NaN S or g, and the comparison fails: NotProved. For eps > 0,
// the distance between the sets is at least (g − E)/|n|, and
// geom.TriTriWithin computes distances within 2⁻⁴³D + 2⁻⁵¹M + 2⁻¹⁰⁶⁹ ≤
// 2⁻⁴¹M' + 2⁻¹⁰⁶⁹ of the exact ones (D, M the extent and magnitude of the
// six vertices, M' a bound on every coordinate of both sets): the test asks
// fl(g) − 8u·fl(S) > (eps + 2⁻⁴¹M' + 2⁻¹⁰⁶⁰)·|n|·(1 + 2⁻⁴⁰), the last
// factor covering the roundings of the right side.
//
// # Search
//
// Apart first tries the cache's direction (the last plane that proved the
// pair apart, with the hull vertices where its supports were, so that the
// climbs take a few steps when the pose changed little): one support on
// each shape and the proof. When the caller has said that the pair was in
// contact at its last two tests (Cache.Touching), that is all: one
// direction, the last GJK reached, and NotProved if it fails. Otherwise
// GJK (Gilbert, Johnson and Keerthi) looks for the point of the Minkowski
// difference B − A nearest the origin, in float64, from that direction;
// every direction it tries is put to the proof with the supports it
// computed anyway, and the first proved is kept in the cache. GJK stops with NotProved when the difference
// contains the origin, when it stops progressing (the sets touch, or their
// gap is within its rounding), or after maxIter iterations.
//
// A Shape is immutable once built and safe for concurrent use; a Cache
// belongs to one pair and one caller at a time. Apart allocates nothing.
package sep

import (
	"math"

	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/hull"
)

// Shape is a point set prepared for Apart: its convex hull, the largest
// magnitude of its coordinates and the centre of its box.
type Shape struct {
	h      *hull.Hull
	center geom.Vec3
}

// NewShape returns the shape of pts (points with a NaN or infinite
// coordinate are ignored, as by hull.New). It takes expected O(n log n)
// time.
func NewShape(pts []geom.Vec3) *Shape {
	s := &Shape{h: hull.New(pts)}
	if s.h.Len() > 0 {
		lo, hi := s.h.Vertex(0), s.h.Vertex(0)
		for i := 1; i < s.h.Len(); i++ {
			v := s.h.Vertex(i)
			lo, hi = lo.Min(v), hi.Max(v)
		}
		s.center = lo.Add(hi).Scale(0.5)
	}
	return s
}

// Len returns the number of vertices of the shape's hull.
func (s *Shape) Len() int { return s.h.Len() }

// Hull returns the shape's convex hull.
func (s *Shape) Hull() *hull.Hull { return s.h }

// Cache is one pair's separating-plane cache: the direction of the last
// plane that proved the pair apart, in A's frame, and the hull vertices of
// its supports, where the next climbs start. It belongs to one pair of
// shapes: given to Apart with others, it starts afresh. The zero value is
// empty.
type Cache struct {
	a, b   *Shape
	dir    geom.Vec3
	ia, ib int32
	// ok says that dir proved the pair apart at the last Apart (else dir
	// is the last direction GJK reached); touch counts the caller's tests
	// in a row that found the pair in contact (Touching), up to 255.
	ok    bool
	touch uint8
}

// Reset empties c.
func (c *Cache) Reset() { *c = Cache{} }

// Dir returns the cached direction (from A toward B) and whether it proved
// the pair apart at the last Apart.
func (c *Cache) Dir() (geom.Vec3, bool) { return c.dir, c.ok }

// Outcome is the answer of Apart.
type Outcome uint8

const (
	// NotProved: no plane was proved; the sets may touch.
	NotProved Outcome = iota
	// Cached: the cache's plane proved the sets apart.
	Cached
	// New: a new plane proved them apart (now in the cache).
	New
)

var outcomeNames = [...]string{"not proved", "cached", "new"}

// String returns "not proved", "cached" or "new".
func (o Outcome) String() string {
	if int(o) < len(outcomeNames) {
		return outcomeNames[o]
	}
	return "Outcome(?)"
}

// maxIter bounds GJK's iterations.
const maxIter = 64

// Apart tries to prove A and B, placed by p, apart by a plane (see the
// package doc), within tolerance eps ≥ 0, starting from c's plane when c
// holds one for A and B. c may be nil. It allocates nothing.
func Apart(a, b *Shape, p geom.Pose, eps float64, c *Cache) Outcome {
	var none Cache
	if c == nil {
		c = &none
	}
	if c.a != a || c.b != b {
		*c = Cache{a: a, b: b}
	}
	if a.h.Len() == 0 || b.h.Len() == 0 {
		return NotProved
	}
	p = p.Normalize()
	pr := newProver(a, b, &p, eps)
	ia, ib := int(c.ia), int(c.ib)
	v := c.dir
	cached := c.ok
	if v == (geom.Vec3{}) || !v.IsFinite() {
		v = p.Apply(b.center).Sub(a.center)
		if v == (geom.Vec3{}) || !v.IsFinite() {
			v = geom.Vec3{X: 1}
		}
	}
	if c.touch >= touchRuns && !cached {
		// In contact at the last tests: the last direction only.
		_, _, ja, jb, ok := pr.test(v, ia, ib)
		c.ia, c.ib = int32(ja), int32(jb)
		if !ok {
			return NotProved
		}
		c.dir, c.ok, c.touch = v, true, 0
		return New
	}
	out, v, ia, ib := search(&pr, v, ia, ib, cached)
	c.dir, c.ia, c.ib, c.ok = v, int32(ia), int32(ib), out != NotProved
	if out != NotProved {
		c.touch = 0
	}
	return out
}

// search runs GJK from direction v, the hull vertices ia and ib where the
// supports' climbs start, each direction put to the proof; it returns the
// outcome and the last direction with its supports.
func search(pr *prover, v geom.Vec3, ia, ib int, cached bool) (Outcome, geom.Vec3, int, int) {
	var g gjk
	for it := 0; it < maxIter; it++ {
		pa, pb, ja, jb, ok := pr.test(v, ia, ib)
		ia, ib = ja, jb
		if ok {
			if it == 0 && cached {
				return Cached, v, ia, ib
			}
			return New, v, ia, ib
		}
		w := pb.Sub(pa)
		vv, vw := v.Dot(v), v.Dot(w)
		if it > 0 && !(vv-vw > 1e-13*vv) {
			return NotProved, v, ia, ib // no progress: touching, or within rounding
		}
		next := v
		if !g.add(w) || !g.closest(&next) {
			return NotProved, v, ia, ib // no progress, or the origin is in the simplex
		}
		if !next.IsFinite() || !(next.Dot(next) > 1e-28*g.scale()) {
			return NotProved, v, ia, ib
		}
		v = next
	}
	return NotProved, v, ia, ib
}

// touchRuns is the number of tests in a row that must find a pair in
// contact before Apart tries one direction only: a pair that bounces off
// (in contact at one query) gets a whole search at the next, one that
// rests in contact does not.
const touchRuns = 2

// Touching tells c that the caller's exact test, run after Apart answered
// NotProved, found the pair in contact (or not). Once it has found it so
// touchRuns times in a row, the next Apart tries the last direction GJK
// reached only, one support on each shape, before it gives up, rather
// than a whole search, which a pair resting in contact would run in vain
// at every query.
func (c *Cache) Touching(in bool) {
	switch {
	case !in:
		c.touch = 0
	case c.touch < 255:
		c.touch++
	}
}

// Separates reports whether the direction n proves A and B, placed by p,
// apart within tolerance eps ≥ 0 (the proof of the package doc, with exact
// supports). It is Apart's test of one direction.
func Separates(a, b *Shape, p geom.Pose, n geom.Vec3, eps float64) bool {
	if a.h.Len() == 0 || b.h.Len() == 0 {
		return false
	}
	p = p.Normalize()
	pr := newProver(a, b, &p, eps)
	_, _, _, _, ok := pr.test(n, 0, 0)
	return ok
}

// prover holds what the proof of a direction needs of a pair and a pose.
type prover struct {
	a, b *Shape
	p    *geom.Pose
	eps  float64
	// rowAbs[i] = Σⱼ|Rᵢⱼ|; tAbs = |t|.
	rowAbs [3]float64
	tAbs   geom.Vec3
	// reach bounds every coordinate of both sets (eps > 0 only).
	reach float64
}

func newProver(a, b *Shape, p *geom.Pose, eps float64) prover {
	pr := prover{a: a, b: b, p: p, eps: eps, tAbs: p.T.Abs()}
	for i := range 3 {
		r := p.R[i]
		pr.rowAbs[i] = math.Abs(r[0]) + math.Abs(r[1]) + math.Abs(r[2])
	}
	if eps > 0 {
		mb := b.h.MaxAbs()
		fly := max(pr.rowAbs[0]*mb+pr.tAbs.X, pr.rowAbs[1]*mb+pr.tAbs.Y, pr.rowAbs[2]*mb+pr.tAbs.Z)
		pr.reach = max(a.h.MaxAbs(), fly) * (1 + 0x1p-40)
	}
	return pr
}

// test climbs to the supports of direction n (A's maximiser from hull
// vertex ia, B's minimiser from ib) and reports whether they prove the sets
// apart; it returns the supports (B's placed) for GJK.
func (pr *prover) test(n geom.Vec3, ia, ib int) (pa, pb geom.Vec3, ja, jb int, ok bool) {
	r := &pr.p.R
	m := geom.Vec3{
		X: float64(r[0][0]*n.X) + float64(r[1][0]*n.Y) + float64(r[2][0]*n.Z),
		Y: float64(r[0][1]*n.X) + float64(r[1][1]*n.Y) + float64(r[2][1]*n.Z),
		Z: float64(r[0][2]*n.X) + float64(r[1][2]*n.Y) + float64(r[2][2]*n.Z),
	}
	ja, _ = pr.a.h.Extreme(n, ia)
	jb, _ = pr.b.h.Extreme(m.Neg(), ib)
	pa, b := pr.a.h.Vertex(ja), pr.b.h.Vertex(jb)
	pb = pr.p.Apply(b)

	ha := n.Dot(pa)
	hb := m.Dot(b)
	nt := n.Dot(pr.p.T)
	g := (hb + nt) - ha
	na := n.Abs()
	s := na.Dot(pa.Abs()) + m.Abs().Dot(b.Abs()) + 2*na.Dot(pr.tAbs) +
		2*pr.b.h.MaxAbs()*(na.X*pr.rowAbs[0]+na.Y*pr.rowAbs[1]+na.Z*pr.rowAbs[2])
	low := g - (0x1p-50*s + 0x1p-1060)
	if pr.eps > 0 {
		need := (pr.eps + 0x1p-41*pr.reach + 0x1p-1060) * n.Norm() * (1 + 0x1p-40)
		ok = low > need
	} else {
		ok = g > 0x1p-50*s+0x1p-1060
	}
	return pa, pb, ja, jb, ok
}
