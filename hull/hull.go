package hull

import (
	"math"
	"math/big"

	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/internal/exact"
)

// Hull is the convex hull of a point set, kept as the graph of its vertices
// and edges, on which Extreme climbs to the vertex extreme in a direction.
//
// The vertices are the extreme points of the set only: a point on an edge or
// in a face of the hull is not a vertex, and the neighbours of a vertex are
// the ends of the hull edges at it (the edges of the polytope, not of a
// triangulation of its faces). On this graph every linear function that is
// not maximal at a vertex increases strictly along some edge from it, so
// climbing from any vertex ends at a maximiser.
//
// A flat point set has the convex polygon as its hull, each vertex adjacent
// to its two polygon neighbours; a collinear set has its two extreme points,
// adjacent to each other; a single point (possibly repeated) has one vertex
// and no edge; the empty set has no vertex. Every topological decision is
// taken with the exact predicates geom.Orient3D and geom.Orient2D.
//
// A Hull is immutable once built and safe for concurrent use.
type Hull struct {
	verts  []geom.Vec3
	index  []int32 // index of each vertex in the input
	off    []int32 // neighbours of vertex i: nbr[off[i]:off[i+1]]
	nbr    []int32
	dim    int
	maxAbs float64 // largest |coordinate| of the input (of the vertices)
}

// New returns the convex hull of pts. Points with a NaN or infinite
// coordinate are ignored; duplicates are allowed. It runs in expected
// O(n log n) time: randomized incremental construction in a fixed
// pseudo-random order (so the result is deterministic), each pending point
// remembering one hull face it sees, with exact orientation tests throughout.
// It panics if pts has 2³¹ or more points.
func New(pts []geom.Vec3) *Hull {
	h, _ := build(pts, false)
	return h
}

// NewTriangulated returns the convex hull of pts as New does and, when it is
// solid (Dim() == 3), a triangulation of its boundary: the triangles of the
// incremental construction, as indices into pts, each counterclockwise seen
// from outside (geom.Orient3D of its three corners and any finite point of
// pts is at most 0). A face of the hull with more than three corners is cut into
// several coplanar triangles, whose corners may include points that are not
// vertices of the hull (they lie in the face or on one of its edges). For a
// hull that is not solid the triangles are nil.
func NewTriangulated(pts []geom.Vec3) (*Hull, [][3]int32) {
	return build(pts, true)
}

// Len returns the number of hull vertices.
func (h *Hull) Len() int { return len(h.verts) }

// Vertex returns hull vertex i (0 ≤ i < Len()), a copy of an input point.
func (h *Hull) Vertex(i int) geom.Vec3 { return h.verts[i] }

// Index returns the position in the input of New of hull vertex i.
func (h *Hull) Index(i int) int { return int(h.index[i]) }

// Neighbors returns the hull vertices joined to vertex i by a hull edge. The
// slice is shared with h and must not be modified.
func (h *Hull) Neighbors(i int) []int32 { return h.nbr[h.off[i]:h.off[i+1]] }

// Dim returns the affine dimension of the point set: 3 for a solid hull, 2
// when the points are coplanar, 1 when collinear, 0 for a single (possibly
// repeated) point and -1 when there is no point.
func (h *Hull) Dim() int { return h.dim }

// MaxAbs returns the largest magnitude of a coordinate of a hull vertex,
// which is also the largest over the finite input points (|x_j| is convex,
// so its maximum over the hull is reached at a vertex); 0 for the empty hull.
// Error bounds of computations on the input, such as the padding of
// bv.HullDOP, scale with it.
func (h *Hull) MaxAbs() float64 { return h.maxAbs }

// Extreme returns a hull vertex v that maximises g·v exactly, over the hull
// and so over the finite input points, and the number of moves the hill
// climbing to it made. It starts at vertex start and moves along hull edges
// to a neighbour of larger g·v until there is none, taking the steepest
// ascent by a float estimate; exact signs decide every move (a float filter
// with a proven error bound, an exact fallback), so ties and rounding never
// stop it early or send it round in circles. When g changes little between
// calls (the direction of a slab of a rotating body), starting from the
// previous answer takes few moves.
//
// A start outside [0, Len()), such as a vertex of another hull, is replaced
// by vertex 0. On the empty hull Extreme returns -1 and no move. g should be
// finite; otherwise the result is some vertex (the climb still ends). It does
// not allocate.
func (h *Hull) Extreme(g geom.Vec3, start int) (v, steps int) {
	n := len(h.verts)
	if n == 0 {
		return -1, 0
	}
	if start < 0 || start >= n {
		start = 0
	}
	// The climb moves from vertex c to a neighbour w with g·w > g·c (exactly)
	// until there is none. Among the improving neighbours it takes the one of
	// largest float estimate of g·(w - c) (steepest ascent). Each move
	// strictly increases g·c, so it ends; with ties it stops at the first
	// vertex no neighbour improves on, which is a maximiser since the hull
	// graph has no other local maximum.
	//
	// Filter: the computed f(x) = g.Dot(x) (three rounded products, two
	// rounded sums) is within γ₃·Σ|g_j x_j| ≤ γ₃|g|₁M of g·x, γ₃ = 3u/(1-3u),
	// M = maxAbs, plus at most 3·2⁻¹⁰⁷⁵ if products underflow. If the
	// computed δ = f(w) - f(c) is finite (nothing overflowed) and
	// δ > B = 8u|g|₁M + 2⁻¹⁰⁶⁰, then g·(w-c) ≥ δ/(1+u) - 2γ₃|g|₁M - 6·2⁻¹⁰⁷⁵ > 0
	// (8 > 6(1+u)/(1-3u) leaves room for the rounding of B itself);
	// symmetrically δ < -B means g·(w-c) < 0. Otherwise dotSign decides.
	bound := 8*0x1p-53*(math.Abs(g.X)+math.Abs(g.Y)+math.Abs(g.Z))*h.maxAbs + 0x1p-1060
	c := int32(start)
	x := h.verts[c]
	fc := g.Dot(x)
	for {
		best, bestD := int32(-1), 0.0
		for _, w := range h.nbr[h.off[c]:h.off[c+1]] {
			y := h.verts[w]
			d := g.Dot(y) - fc
			switch {
			case d > bound && d <= math.MaxFloat64:
				if best < 0 || d > bestD {
					best, bestD = w, d
				}
			case d < -bound && d >= -math.MaxFloat64:
			case best < 0:
				if s, _ := dotSign(g, y, x); s > 0 {
					best, bestD = w, d
				}
			}
		}
		if best < 0 {
			return int(c), steps
		}
		c = best
		x = h.verts[c]
		fc = g.Dot(x)
		steps++
	}
}

// Exact sign of g·(w - v).
//
// Fast path: with d_j = fl(w_j - v_j) and t_j = fl(g_j·d_j), the computed
// s = fl(fl(t_0 + t_1) + t_2) carries every exact term g_j(w_j - v_j) with a
// relative perturbation of at most (1+u)⁴ - 1 (one difference, one product,
// at most two sums), so |s - S| ≤ 4.01u·Σ|g_j(w_j - v_j)|. The computed
// P = fl(|t_0| + |t_1| + |t_2|) is at least (1-u)²(1-2u-u²) ≥ 1-5u times that
// sum, so |s - S| < 5u·P, and |s| > 8u·P fixes the sign of S. Underflow adds
// at most a few 2⁻¹⁰⁷⁵, negligible against 8u·P when P ≥ 2⁻⁹⁰⁰ (else we
// take the exact path); overflow makes s or P infinite or NaN, which fails
// the test and takes the exact path too.
const (
	dotBound = 8 * 0x1p-53
	dotTiny  = 0x1p-900
)

// dotSign returns the sign of g·(w - v), exactly, and a float estimate of
// the value.
func dotSign(g, w, v geom.Vec3) (int, float64) {
	tx := float64(g.X * (w.X - v.X))
	ty := float64(g.Y * (w.Y - v.Y))
	tz := float64(g.Z * (w.Z - v.Z))
	s := tx + ty + tz
	p := math.Abs(tx) + math.Abs(ty) + math.Abs(tz)
	if p >= dotTiny && math.Abs(s) > dotBound*p {
		if s > 0 {
			return 1, s
		}
		return -1, s
	}
	return dotSignExact(g, w, v), s
}

// dotSignExact returns the sign of g·(w - v) = Σ g_j·w_j - Σ g_j·v_j,
// exactly, or 0 for non-finite inputs. g and the points are scaled by
// powers of two (which keeps the sign) so that their largest magnitudes lie
// in [1, 2); if then every non-zero input is at least 2⁻⁴⁸⁰, every product
// a·b is split exactly into fl(a·b) and its FMA error (the exponents add to
// at least -960 ≥ -1022 + 52, and nothing overflows) and the parts are summed
// into an exact.Expansion (12 components at most), whose sign is that of its
// largest component; otherwise math/big decides.
func dotSignExact(g, w, v geom.Vec3) int {
	gs := [3]float64{g.X, g.Y, g.Z}
	xs := [6]float64{w.X, w.Y, w.Z, v.X, v.Y, v.Z}
	if !scale(gs[:]) || !scale(xs[:]) {
		return dotSignBig(g, w, v)
	}
	var e exact.Expansion
	for j := range 3 {
		e.AddProd2(1, gs[j], xs[j])
		e.AddProd2(-1, gs[j], xs[3+j])
	}
	return e.Sign()
}

// scale multiplies xs by the power of two that brings the largest |x|
// into [1, 2), and reports whether every non-zero result is then at least
// 2⁻⁴⁸⁰ (and so exact). It reports false for non-finite inputs.
func scale(xs []float64) bool {
	hi := 0.0
	for _, x := range xs {
		a := math.Abs(x)
		if !(a <= math.MaxFloat64) {
			return false
		}
		hi = max(hi, a)
	}
	if hi == 0 {
		return true
	}
	e := -math.Ilogb(hi)
	for i, x := range xs {
		if x != 0 {
			xs[i] = math.Ldexp(x, e)
			if math.Abs(xs[i]) < 0x1p-480 {
				return false
			}
		}
	}
	return true
}

// dotSignBig returns the sign of g·(w - v) in rationals, or 0 for
// non-finite inputs.
func dotSignBig(g, w, v geom.Vec3) int {
	if !g.IsFinite() || !w.IsFinite() || !v.IsFinite() {
		return 0 // outside the contract
	}
	rat := func(x float64) *big.Rat { return new(big.Rat).SetFloat64(x) }
	s := new(big.Rat)
	t := new(big.Rat)
	for j, gj := range [3]float64{g.X, g.Y, g.Z} {
		t.Sub(rat(w.Index(j)), rat(v.Index(j)))
		t.Mul(t, rat(gj))
		s.Add(s, t)
	}
	return s.Sign()
}
