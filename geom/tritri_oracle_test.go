package geom_test

// Cross-checks of the triangle-triangle tests against independent oracles
// from internal/testgeom:
//
//   - TestTriTriOracle: geom.TriTri against testgeom.RatTriTri (exact,
//     rational, a different algorithm) on every pair kind, with symmetry and
//     vertex-relabelling invariance, and TriTriWithin(a, b, 0) == TriTri.
//   - TestTriTriDistanceOracle: geom.TriTriDistance against a convex
//     quadratic program on the two barycentric simplices, solved by an
//     accelerated projected-gradient method and bracketed by its
//     Frank-Wolfe duality gap (not by enumerating vertex-face and edge-edge
//     candidates, as geom does).
//   - TestTriTriOracleRegressions, TestTriTriDistanceOracleRegressions: the
//     cases these checks have found, pinned.
//   - TestOracleQP: the distance reference itself, on known distances.
//
// Default: 197,750 pairs for the contact test and 14,125 for the distance
// test. COLLIDE_LONG=1: 1,017,000 and 141,250. COLLIDE_SEED=n changes the
// seed (default 1), COLLIDE_MAXFAIL=n the number of failures reported before
// a test stops (default 10). A failure prints the kind, the seed and the
// stream of the pair (rand.NewPCG(seed, stream) regenerates it with
// testgeom.Pair) and both triangles as exact Go literals.

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/internal/testgeom"
)

// oracleLong reports whether the long mode (COLLIDE_LONG=1) is on.
func oracleLong() bool { return os.Getenv("COLLIDE_LONG") != "" }

// oracleSeed returns COLLIDE_SEED, or 1.
func oracleSeed(t *testing.T) uint64 {
	s := os.Getenv("COLLIDE_SEED")
	if s == "" {
		return 1
	}
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		t.Fatalf("COLLIDE_SEED=%q: %v", s, err)
	}
	return n
}

// oracleStream is the PCG stream of pair i of a kind: every pair has its own
// generator, so one failing pair is regenerated alone.
func oracleStream(kind testgeom.PairKind, i int) uint64 { return uint64(kind)<<40 | uint64(i) }

// oracleMaxFailures returns how many failures one test reports before it
// stops: COLLIDE_MAXFAIL, or 10.
func oracleMaxFailures() int32 {
	if n, err := strconv.Atoi(os.Getenv("COLLIDE_MAXFAIL")); err == nil && n > 0 {
		return int32(n)
	}
	return 10
}

// oracleFail reports a failing pair and stops the subtest after
// oracleMaxFailures failures in all subtests together.
func oracleFail(t *testing.T, failures *atomic.Int32, kind testgeom.PairKind, seed, stream uint64, a, b geom.Triangle, format string, args ...any) {
	t.Helper()
	n, limit := failures.Add(1), oracleMaxFailures()
	if n <= limit {
		t.Errorf("kind %v, seed %d, stream %#x: %s\n\ta := %s\n\tb := %s", kind, seed, stream,
			fmt.Sprintf(format, args...), testgeom.FormatTriangle(a), testgeom.FormatTriangle(b))
	}
	if n >= limit {
		t.FailNow()
	}
}

// oracleShare returns the number of pairs to test for kind: perKind, but an
// eighth of it for KindExtreme, whose pairs take geom's math/big fallbacks
// and are about ten times slower.
func oracleShare(kind testgeom.PairKind, perKind int) int {
	if kind == testgeom.KindExtreme {
		return perKind / 8
	}
	return perKind
}

func TestTriTriOracle(t *testing.T) {
	perKind := 14_000 // 14 kinds and an eighth: 197,750 pairs
	if oracleLong() {
		perKind = 72_000 // 1,017,000 pairs
	}
	seed := oracleSeed(t)
	var failures atomic.Int32
	var total atomic.Int64
	t.Cleanup(func() { t.Logf("%d pairs in total, seed %d", total.Load(), seed) })
	for _, kind := range testgeom.AllPairKinds() {
		t.Run(kind.String(), func(t *testing.T) {
			t.Parallel()
			n := oracleShare(kind, perKind)
			hits := 0
			for i := range n {
				stream := oracleStream(kind, i)
				rng := rand.New(rand.NewPCG(seed, stream))
				a, b := testgeom.Pair(kind, rng)
				want := testgeom.RatTriTri(a, b)
				if want {
					hits++
				}
				if got := geom.TriTri(a, b); got != want {
					oracleFail(t, &failures, kind, seed, stream, a, b, "TriTri = %v, RatTriTri = %v", got, want)
					continue
				}
				if got := geom.TriTri(b, a); got != want {
					oracleFail(t, &failures, kind, seed, stream, a, b, "TriTri(b, a) = %v, TriTri(a, b) = %v", got, want)
					continue
				}
				pa, pb := geom.Prepare(a), geom.Prepare(b)
				if x, y := pa.Meets(&b), pb.Meets(&a); x != want || y != want {
					oracleFail(t, &failures, kind, seed, stream, a, b, "Prepare(a).Meets(b) = %v, Prepare(b).Meets(a) = %v, want %v", x, y, want)
					continue
				}
				// Every vertex order of a and of b (cyclic shifts and
				// reversals), in both argument orders.
				for p := range 6 {
					q := (p + i) % 6
					pa, pb := testgeom.Permute(a, p), testgeom.Permute(b, q)
					if got := geom.TriTri(pa, pb); got != want {
						oracleFail(t, &failures, kind, seed, stream, a, b, "TriTri(Permute(a, %d), Permute(b, %d)) = %v, want %v", p, q, got, want)
						break
					}
					pa, pb = testgeom.Permute(a, q), testgeom.Permute(b, p)
					if got := geom.TriTri(pb, pa); got != want {
						oracleFail(t, &failures, kind, seed, stream, a, b, "TriTri(Permute(b, %d), Permute(a, %d)) = %v, want %v", p, q, got, want)
						break
					}
				}
				if got := geom.TriTriWithin(a, b, 0); got != want {
					oracleFail(t, &failures, kind, seed, stream, a, b, "TriTriWithin(a, b, 0) = %v, want %v", got, want)
				}
			}
			total.Add(int64(n))
			t.Logf("%-17v %7d pairs, %7d in contact (seed %d)", kind, n, hits, seed)
		})
	}
}

// oracleRegressions are pairs on which a check above once failed, or which
// were verified by hand while investigating one; want is the exact answer.
var oracleRegressions = []struct {
	name string
	a, b geom.Triangle
	want bool
}{
	// No disagreement of TriTri with RatTriTri has been found (seeds 1 to 9,
	// long mode). These pairs, from the distance investigations below, pin
	// the contact answers of configurations that broke TriTriDistance;
	// each answer was checked by hand and by both rational oracles.
	{"sliver and a point on its line, beyond it", oraclePt(geom.V(10, 10, 10)), oracleSliver, false},
	{"sliver and the midpoint of its long edge", oraclePt(geom.V(1, 1, 1)), oracleSliver, true},
	{"sliver and a point just across its long edge", oraclePt(geom.V(1, 1, 1-0x1p-53)), oracleSliver, false},
	{"sliver and a point just inside", oraclePt(geom.V(1, 1, 1+0x1p-53)), oracleSliver, true},
	{"sliver and a point at its end", oraclePt(geom.V(2, 2, 2)), oracleSliver, true},
	{"far, tiny b", oracleFarA, oracleFarB, true},
	{"tiny sliver sharing a vertex", oracleTinyA, oracleTinyB, true},
	{"disjoint at 2^-960", oracleScaled(oracleUnitTri, 0x1p-960), oracleScaled(oracleUnitTri.Add(geom.V(0, 0, 1)), 0x1p-960), false},
	{"disjoint at 2^960", oracleScaled(oracleUnitTri, 0x1p960), oracleScaled(oracleUnitTri.Add(geom.V(0, 0, 1)), 0x1p960), false},
}

// oracleSliver is (0,0,0), (1,1,1+2⁻⁵²), (2,2,2): a triangle 2⁻⁵² thick
// (at its middle vertex) whose float normal is mostly rounding noise.
var oracleSliver = geom.Triangle{geom.V(0, 0, 0), geom.V(1, 1, 0x1.0000000000001p+00), geom.V(2, 2, 2)}

// oracleFarA and oracleFarB (kind far, seed 1, stream 0xb800000017f): b is
// a triangle a few ulps (3e-10) across at 1e6, in contact with a.
var (
	oracleFarA = geom.Triangle{{X: -0x1.e847ffff9563dp+19, Y: 0x1.e84800004f2eap+19, Z: -0x1.e847fffffe5cfp+19}, {X: -0x1.e848000049dp+19, Y: 0x1.e847ffff9be8cp+19, Z: -0x1.e848000051e9ap+19}, {X: -0x1.e84800002461p+19, Y: 0x1.e8480000028fcp+19, Z: -0x1.e848000051517p+19}}
	oracleFarB = geom.Triangle{{X: -0x1.e847ffffbfb83p+19, Y: 0x1.e84800002c71p+19, Z: -0x1.e848000013d64p+19}, {X: -0x1.e847ffffbfb82p+19, Y: 0x1.e84800002c712p+19, Z: -0x1.e848000013d61p+19}, {X: -0x1.e847ffffbfb85p+19, Y: 0x1.e84800002c71p+19, Z: -0x1.e848000013d63p+19}}
)

// oracleTinyA and oracleTinyB (kind tiny, seed 1, stream 0xc80000006d3):
// a lattice pair scaled by 1e-7; a is a segment, b a sliver, and they share
// the vertex (-1e-7, -1e-7, 0).
var (
	oracleTinyA = geom.Triangle{{X: -0x1.421f5f40d8376p-22, Y: -0x1.421f5f40d8376p-22, Z: 0x1.ad7f29abcaf48p-23}, {X: -0x1.ad7f29abcaf48p-23, Y: -0x1.ad7f29abcaf48p-23, Z: 0x1.ad7f29abcaf48p-24}, {X: -0x1.ad7f29abcaf48p-24, Y: -0x1.ad7f29abcaf48p-24, Z: 0x0p+00}}
	oracleTinyB = geom.Triangle{{X: -0x1.ad7f29abcaf48p-24, Y: -0x1.ad7f29abcaf48p-24, Z: 0x0p+00}, {X: -0x1.ad7f29abcaf48p-25, Y: -0x1.ad7f29abcaf48p-25, Z: -0x1.ad7f29abcaf49p-25}, {X: 0x0p+00, Y: 0x0p+00, Z: -0x1.ad7f29abcaf48p-24}}
)

// oracleUnitTri is the unit right triangle in the plane z = 0.
var oracleUnitTri = oracleTri{geom.V(0, 0, 0), geom.V(1, 0, 0), geom.V(0, 1, 0)}

// oracleTri is a geom.Triangle with a translation helper for the tables.
type oracleTri geom.Triangle

// Add returns t translated by v.
func (t oracleTri) Add(v geom.Vec3) oracleTri {
	return oracleTri{t[0].Add(v), t[1].Add(v), t[2].Add(v)}
}

func oracleScaled(t oracleTri, s float64) geom.Triangle {
	return geom.Triangle{t[0].Scale(s), t[1].Scale(s), t[2].Scale(s)}
}

func oraclePt(p geom.Vec3) geom.Triangle { return geom.Triangle{p, p, p} }

func TestTriTriOracleRegressions(t *testing.T) {
	for _, c := range oracleRegressions {
		if got := testgeom.RatTriTri(c.a, c.b); got != c.want {
			t.Errorf("%s: RatTriTri = %v, want %v", c.name, got, c.want)
		}
		for p := range 6 {
			for q := range 6 {
				a, b := testgeom.Permute(c.a, p), testgeom.Permute(c.b, q)
				if got := geom.TriTri(a, b); got != c.want {
					t.Errorf("%s (perm %d, %d): TriTri = %v, want %v", c.name, p, q, got, c.want)
				}
				if got := geom.TriTri(b, a); got != c.want {
					t.Errorf("%s (perm %d, %d): TriTri(b, a) = %v, want %v", c.name, p, q, got, c.want)
				}
			}
		}
	}
}

// ---- the distance reference ----

// oracleQP minimises f(λ, μ) = |Σ λ_i P_i − Σ μ_j Q_j|² over the two
// probability simplices (λ ≥ 0, Σλ = 1, and the same for μ), where P and Q
// hold one to three points. The minimum is the squared distance between
// conv(P) and conv(Q). The method is FISTA (accelerated projected gradient,
// Beck and Teboulle 2009) with the adaptive restart of O'Donoghue and
// Candès (2015), step 1/L with L = 2·trace(MMᵀ) ≥ 2·λmax(MᵀM), M = [P, −Q]
// (an upper bound that needs no eigenvalue computation, at most three
// times too large).
//
// The answer is a bracket, valid whatever the convergence: hi = √f(x) at an
// iterate x is a distance attained by two points of the hulls, so
// dist ≤ hi; and for a convex f over a polytope the Frank-Wolfe gap
// g(x) = max_s ∇f(x)·(x − s), s ranging over the vertices of the product of
// simplices, satisfies f(x) − f* ≤ g(x), so dist ≥ lo = √max(0, f(x) − g(x)).
// The best ends over the iterates examined are kept. It iterates until
// done(lo, hi) or maxIter iterations. Rounding adds about 1e-16 of the
// points' magnitude to both ends; the points are first translated by P[0]
// to keep that magnitude small.
//
// In float64 the value f converges to a few ulps, so hi is in practice
// accurate to ~1e-16 relative; lo converges only as fast as the iterate
// itself (the gap is linear in the error of x), and may stay loose on
// ill-conditioned pairs (nearly parallel edges or faces). Callers therefore
// use hi as the sharp side.
func oracleQP(P, Q []geom.Vec3, maxIter int, done func(lo, hi float64) bool) (lo, hi float64, iters int) {
	o := P[0]
	var p, q [3]geom.Vec3
	np, nq := len(P), len(Q)
	for i := range np {
		p[i] = P[i].Sub(o)
	}
	for j := range nq {
		q[j] = Q[j].Sub(o)
	}
	// Scale by a power of two so that the largest coordinate is about 1:
	// squares neither overflow nor underflow (exact unless a coordinate
	// falls below 2⁻¹⁰²², negligible against the tolerances).
	m := 0.0
	for _, v := range append(p[:np:np], q[:nq]...) {
		a := v.Abs()
		m = math.Max(m, math.Max(a.X, math.Max(a.Y, a.Z)))
	}
	switch {
	case m == 0:
		return 0, 0, 0
	case math.IsInf(m, 0) || math.IsNaN(m):
		return math.NaN(), math.NaN(), 0 // fails every comparison
	}
	_, e := math.Frexp(m)
	ldexp := func(v geom.Vec3, k int) geom.Vec3 {
		return geom.Vec3{X: math.Ldexp(v.X, k), Y: math.Ldexp(v.Y, k), Z: math.Ldexp(v.Z, k)}
	}
	for i := range np {
		p[i] = ldexp(p[i], -e)
	}
	for j := range nq {
		q[j] = ldexp(q[j], -e)
	}
	inner := done
	done = func(lo, hi float64) bool { return inner(math.Ldexp(lo, e), math.Ldexp(hi, e)) }
	defer func() { lo, hi = math.Ldexp(lo, e), math.Ldexp(hi, e) }()
	trace := 0.0
	for i := range np {
		trace += p[i].Norm2()
	}
	for j := range nq {
		trace += q[j].Norm2()
	}
	if trace == 0 {
		return 0, 0, 0
	}
	L := 2 * trace

	type point struct{ l, m [3]float64 }
	eval := func(x point) (r geom.Vec3) {
		for i := range np {
			r = r.Add(p[i].Scale(x.l[i]))
		}
		for j := range nq {
			r = r.Sub(q[j].Scale(x.m[j]))
		}
		return r
	}
	grad := func(r geom.Vec3) (gl, gm [3]float64) {
		for i := range np {
			gl[i] = 2 * p[i].Dot(r)
		}
		for j := range nq {
			gm[j] = -2 * q[j].Dot(r)
		}
		return gl, gm
	}
	var x point
	for i := range np {
		x.l[i] = 1 / float64(np)
	}
	for j := range nq {
		x.m[j] = 1 / float64(nq)
	}
	lo, hi = 0, math.Inf(1)
	bracket := func(x point) {
		r := eval(x)
		f := r.Norm2()
		gl, gm := grad(r)
		g := 0.0
		minl, minm := math.Inf(1), math.Inf(1)
		for i := range np {
			g += gl[i] * x.l[i]
			minl = math.Min(minl, gl[i])
		}
		for j := range nq {
			g += gm[j] * x.m[j]
			minm = math.Min(minm, gm[j])
		}
		g -= minl + minm
		lo = math.Max(lo, math.Sqrt(math.Max(0, f-math.Max(0, g))))
		hi = math.Min(hi, math.Sqrt(f))
		// The support bound along u = r/|r|, which is never worse:
		// dist ≥ min_i u·P_i − max_j u·Q_j.
		if f > 0 {
			u := r.Scale(1 / math.Sqrt(f))
			pmin, qmax := math.Inf(1), math.Inf(-1)
			for i := range np {
				pmin = math.Min(pmin, u.Dot(p[i]))
			}
			for j := range nq {
				qmax = math.Max(qmax, u.Dot(q[j]))
			}
			lo = math.Max(lo, pmin-qmax)
		}
	}
	y, tk := x, 1.0
	for iters = 1; iters <= maxIter; iters++ {
		gl, gm := grad(eval(y))
		var xn point
		for i := range np {
			xn.l[i] = y.l[i] - gl[i]/L
		}
		for j := range nq {
			xn.m[j] = y.m[j] - gm[j]/L
		}
		xn.l = oracleSimplex(xn.l, np)
		xn.m = oracleSimplex(xn.m, nq)
		// Gradient restart: momentum off when the gradient-mapping step
		// y → xn points against the last move, (y − xn)·(xn − x) > 0.
		// Unlike the function test f(xn) > f(x), it is not blinded by the
		// rounding of f once f is within a few ulps of its minimum.
		dot := 0.0
		for i := range np {
			dot += (y.l[i] - xn.l[i]) * (xn.l[i] - x.l[i])
		}
		for j := range nq {
			dot += (y.m[j] - xn.m[j]) * (xn.m[j] - x.m[j])
		}
		if dot > 0 {
			x, y, tk = xn, xn, 1
			continue
		}
		tn := (1 + math.Sqrt(1+4*tk*tk)) / 2
		beta := (tk - 1) / tn
		for i := range np {
			y.l[i] = xn.l[i] + beta*(xn.l[i]-x.l[i])
		}
		for j := range nq {
			y.m[j] = xn.m[j] + beta*(xn.m[j]-x.m[j])
		}
		x, tk = xn, tn
		if iters%16 == 0 {
			if bracket(x); done(lo, hi) {
				return lo, hi, iters
			}
		}
	}
	bracket(x)
	return lo, hi, maxIter
}

// oracleSimplex returns the Euclidean projection of v[:n] onto the
// probability simplex (Held, Wolfe and Crowder; sort and threshold).
func oracleSimplex(v [3]float64, n int) [3]float64 {
	u := v
	// Sort u[:n] in decreasing order.
	for i := 1; i < n; i++ {
		for j := i; j > 0 && u[j] > u[j-1]; j-- {
			u[j], u[j-1] = u[j-1], u[j]
		}
	}
	sum, theta := 0.0, 0.0
	for j := range n {
		sum += u[j]
		if th := (sum - 1) / float64(j+1); u[j]-th > 0 {
			theta = th
		}
	}
	var out [3]float64
	for i := range n {
		out[i] = math.Max(v[i]-theta, 0)
	}
	return out
}

// oracleScale is the magnitude that rounding errors are relative to: the
// largest absolute coordinate of the two triangles (at least the smallest
// normal float64).
func oracleScale(a, b geom.Triangle) float64 {
	s := 0x1p-1022
	for _, t := range [2]geom.Triangle{a, b} {
		for _, v := range t {
			a := v.Abs()
			s = math.Max(s, math.Max(a.X, math.Max(a.Y, a.Z)))
		}
	}
	return s
}

// Tolerances of the distance checks, relative to S = oracleScale(a, b): a
// float64 computation of a distance between points of magnitude S is off by
// a few ulps of S (~1e-16·S); geom's candidates are not exact, and its
// closest-point formulas divide by squared edge lengths and can lose digits
// on nearly parallel edges or tiny triangles. 1e-12·S leaves four orders of
// magnitude for that while still catching a missed candidate, a wrong clamp
// or a wrong case, which are off by much more.
//
// The reference bracket [lo, hi] (oracleQP) is iterated to a width of
// oracleDistTol·S/4 or 20,000 iterations. With the gradient restart it
// reaches that width on almost every pair; a few ill-conditioned pairs (tiny
// or nearly degenerate triangles) stay wider, and the test log counts them.
// The check dist ≤ hi + tol is sharp either way (hi is attained, and f
// converges to a few ulps); dist ≥ lo − tol is then weaker, but it also
// follows from the checks pa ∈ a, pb ∈ b and |pa − pb| = dist.
const (
	oracleDistTol = 1e-12 // dist against the reference; |pa−pb| against dist; contact ⇒ dist ≈ 0
	oracleOnTol   = 1e-12 // pa ∈ a and pb ∈ b
)

// oracleDistInfo describes one distance check, for the test log.
type oracleDistInfo struct {
	disjoint bool    // not in contact (RatTriTri)
	width    float64 // width of the reference bracket / S (disjoint pairs)
	outside  float64 // how far dist lies outside the bracket / S (≤ 0 inside)
	on       float64 // largest distance of pa, pb from their triangles / S
}

// oracleCheckDistance checks TriTriDistance and TriTriWithin on the pair
// (a, b) against the references: it returns the problems found, separated
// by "; ", or "".
func oracleCheckDistance(a, b geom.Triangle, info *oracleDistInfo) string {
	S := oracleScale(a, b)
	tol, onTol := oracleDistTol*S, oracleOnTol*S
	d, pa, pb := geom.TriTriDistance(a, b)
	if math.IsNaN(d) || d < 0 {
		return fmt.Sprintf("TriTriDistance = %v", d)
	}
	var problems []string
	bad := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	if testgeom.RatTriTri(a, b) {
		if d > tol {
			bad("triangles in contact, TriTriDistance = %v", d)
		}
	} else {
		info.disjoint = true
		lo, hi, _ := oracleQP(a[:], b[:], 20000, func(lo, hi float64) bool { return hi-lo <= tol/4 })
		info.width = (hi - lo) / S
		info.outside = math.Max(d-hi, lo-d) / S
		if d > hi+tol || d < lo-tol {
			bad("disjoint triangles, TriTriDistance = %v, reference distance in [%v, %v]", d, lo, hi)
		}
		// TriTriWithin agrees wherever the bracket decides.
		if eps := hi + tol; !geom.TriTriWithin(a, b, eps) {
			bad("TriTriWithin(eps = %v) = false, reference distance ≤ %v", eps, hi)
		}
		if eps := lo - tol; eps > 0 && geom.TriTriWithin(a, b, eps) {
			bad("TriTriWithin(eps = %v) = true, reference distance ≥ %v", eps, lo)
		}
	}
	// pa ∈ a, pb ∈ b: the distance from a point to a triangle by the same
	// quadratic program (one simplex is a point). Stop when the point is
	// certainly within onTol/4, or certainly farther than onTol.
	onDone := func(lo, hi float64) bool { return hi <= onTol/4 || lo > onTol }
	_, onA, _ := oracleQP(a[:], []geom.Vec3{pa}, 20000, onDone)
	_, onB, _ := oracleQP(b[:], []geom.Vec3{pb}, 20000, onDone)
	info.on = math.Max(onA, onB) / S

	if onA > onTol || onB > onTol {
		bad("pa = %v is %.3g from a, pb = %v is %.3g from b (tolerance %.3g)", pa, onA, pb, onB, onTol)
	}
	if e := math.Abs(pa.Distance(pb) - d); !(e <= tol) {
		bad("TriTriDistance = %v but |pa − pb| = %v", d, pa.Distance(pb))
	}
	return strings.Join(problems, "; ")
}

func TestTriTriDistanceOracle(t *testing.T) {
	perKind := 1_000 // 14 kinds and an eighth: 14,125 pairs
	if oracleLong() {
		perKind = 10_000 // 141,250 pairs
	}
	seed := oracleSeed(t)
	var failures atomic.Int32
	for _, kind := range testgeom.AllPairKinds() {
		t.Run(kind.String(), func(t *testing.T) {
			t.Parallel()
			var loose, disjoint int
			maxOutside, maxOn, maxWidth := 0.0, 0.0, 0.0
			n := oracleShare(kind, perKind)
			for i := range n {
				stream := oracleStream(kind, i) | 1<<39 // not the contact test's pairs
				rng := rand.New(rand.NewPCG(seed, stream))
				a, b := testgeom.Pair(kind, rng)
				var info oracleDistInfo
				if msg := oracleCheckDistance(a, b, &info); msg != "" {
					oracleFail(t, &failures, kind, seed, stream, a, b, "%s", msg)
					continue
				}
				maxOn = math.Max(maxOn, info.on)
				if info.disjoint {
					disjoint++
					maxOutside = math.Max(maxOutside, info.outside)
					if info.width > oracleDistTol {
						loose++
						maxWidth = math.Max(maxWidth, info.width)
					}
				}
			}
			t.Logf("%-17v %5d pairs, %5d disjoint (%d with a reference bracket wider than the tolerance, at most %.2g·S); dist outside the bracket by at most %.2g·S; pa, pb off their triangles by at most %.2g·S",
				kind, n, disjoint, loose, maxWidth, math.Max(0, maxOutside), maxOn)
		})
	}
}

// oracleDistanceRegressions are pairs on which the distance checks failed
// before commit a80fe90 ("robust distance"); each comment gives the old
// behaviour and its cause.
var oracleDistanceRegressions = []struct {
	name string
	a, b geom.Triangle
}{
	// Sliver: ClosestPointTriangle projected onto the plane of the sliver's
	// float normal (rounding noise, about 2⁻⁵¹), and the three float
	// barycentric signs of a point on the sliver's line passed, so the
	// point came back as its own closest point. TriTriDistance was 0 (true
	// distance 8√3 ≈ 13.86) and TriTriWithin(a, b, 1e-9) true: a false
	// contact for every eps > 0.
	{"sliver, point on its line beyond it", oraclePt(geom.V(10, 10, 10)), oracleSliver},
	{"sliver, point on its line before it", oraclePt(geom.V(-1, -1, -1)), oracleSliver},
	// The same mechanism on a lattice pair scaled by 1e-7: in contact at a
	// shared vertex, dist = 0 was right, but pa = pb = a[0], 3.5e-7 from b.
	{"tiny sliver sharing a vertex, witness off b", oracleTinyA, oracleTinyB},
	// In contact; dist = 0 was right, but pa = pb was 1.17e-5 from b (b is
	// 3e-10 across): piercing() used b.Normal(), which has no correct digit
	// for such a b, and accepted a point up to 1e-10·|p| (here 1.7e-4) from
	// b.
	{"far, tiny b, witness off b", oracleFarA, oracleFarB},
	// In contact (a crosses b); coordinates about 3e-12. pa = pb was
	// 2.7e-12 from b: piercing() accepted |q − p|² ≤ 1e-20·max(1, |p|²), an
	// absolute 1e-10 below |p| = 1, which is not scale-invariant (kind tiny,
	// seed 1, stream 0xc800000026b).
	{"tiny crossing pair, witness off b",
		geom.Triangle{{X: -0x1.33b46272bbdf4p-37, Y: 0x1.77cf44765195fp-38, Z: -0x1.83580eb4cea94p-38}, {X: -0x1.8d9eb9940ae45p-42, Y: 0x0p+00, Z: 0x1.966d952ed0cdfp-39}, {X: -0x1.5af94ada18e5ap-38, Y: -0x1.ad7f29abcaf48p-40, Z: -0x1.b907f3ea4807dp-38}},
		geom.Triangle{{X: -0x1.ad7f29abcaf48p-39, Y: -0x1.ad7f29abcaf48p-41, Z: -0x1.ad7f29abcaf48p-40}, {X: 0x1.ad7f29abcaf48p-41, Y: -0x1.ad7f29abcaf48p-41, Z: -0x1.ad7f29abcaf48p-39}, {X: 0x1.ad7f29abcaf48p-41, Y: 0x1.421f5f40d8376p-39, Z: -0x1.ad7f29abcaf48p-40}}},
	// Squared distances underflowed: parallel triangles 2⁻⁹⁶⁰ apart got
	// TriTriDistance = 0 and TriTriWithin(a, b, 2⁻¹⁰⁰⁰) = true.
	{"parallel, 2^-960 apart", oracleScaled(oracleUnitTri, 0x1p-960), oracleScaled(oracleUnitTri.Add(geom.V(0, 0, 1)), 0x1p-960)},
	// Squared distances overflowed: parallel triangles 2⁹⁶⁰ apart got
	// TriTriDistance = +Inf with pa = pb = (0,0,0), and
	// TriTriWithin(a, b, math.MaxFloat64) = false.
	{"parallel, 2^960 apart", oracleScaled(oracleUnitTri, 0x1p960), oracleScaled(oracleUnitTri.Add(geom.V(0, 0, 1)), 0x1p960)},
}

func TestTriTriDistanceOracleRegressions(t *testing.T) {
	for _, c := range oracleDistanceRegressions {
		var info oracleDistInfo
		if msg := oracleCheckDistance(c.a, c.b, &info); msg != "" {
			t.Errorf("%s: %s", c.name, msg)
		}
		var info2 oracleDistInfo
		if msg := oracleCheckDistance(c.b, c.a, &info2); msg != "" {
			t.Errorf("%s (swapped): %s", c.name, msg)
		}
	}
}

// TestOracleQP checks the distance reference itself on cases with known
// distances.
func TestOracleQP(t *testing.T) {
	v := geom.V
	cases := []struct {
		name string
		P, Q []geom.Vec3
		want float64
	}{
		{"parallel triangles", []geom.Vec3{v(0, 0, 0), v(1, 0, 0), v(0, 1, 0)}, []geom.Vec3{v(0, 0, 2), v(1, 0, 2), v(0, 1, 2)}, 2},
		{"edge to edge", []geom.Vec3{v(0, 0, 0), v(1, 0, 0), v(0, 1, 0)}, []geom.Vec3{v(2, -1, 1), v(2, 1, 1), v(3, 0, 5)}, math.Sqrt2},
		{"point to face", []geom.Vec3{v(0, 0, 0), v(4, 0, 0), v(0, 4, 0)}, []geom.Vec3{v(1, 1, -3)}, 3},
		{"point to vertex", []geom.Vec3{v(0, 0, 0), v(4, 0, 0), v(0, 4, 0)}, []geom.Vec3{v(-3, -4, 0)}, 5},
		{"point on face", []geom.Vec3{v(0, 0, 0), v(4, 0, 0), v(0, 4, 0)}, []geom.Vec3{v(1, 1, 0)}, 0},
		{"point on segment", []geom.Vec3{v(0, 0, 0), v(4, 4, 4), v(2, 2, 2)}, []geom.Vec3{v(1, 1, 1)}, 0},
		{"crossing", []geom.Vec3{v(0, 0, 0), v(1, 0, 0), v(0, 1, 0)}, []geom.Vec3{v(.2, .2, -1), v(.2, .2, 1), v(3, 3, 0)}, 0},
		{"far offset", []geom.Vec3{v(1e6, 1e6, 1e6), v(1e6+1, 1e6, 1e6), v(1e6, 1e6+1, 1e6)}, []geom.Vec3{v(1e6+.25, 1e6+.25, 1e6+0x1p-10)}, 0x1p-10},
	}
	for _, c := range cases {
		for _, s := range []float64{1, 0x1p-1000, 0x1p1000, 0x1p-1060} {
			P := make([]geom.Vec3, len(c.P))
			for i, v := range c.P {
				P[i] = v.Scale(s)
			}
			Q := make([]geom.Vec3, len(c.Q))
			for i, v := range c.Q {
				Q[i] = v.Scale(s)
			}
			want, tol := c.want*s, math.Max(1e-12*s, 0x1p-1074*16)
			lo, hi, it := oracleQP(P, Q, 20000, func(lo, hi float64) bool { return hi-lo <= tol/10 })
			if !(lo <= want+tol && want-tol <= hi && hi-lo <= tol) {
				t.Errorf("%s (scaled by %g): bracket [%v, %v] after %d iterations, want %v", c.name, s, lo, hi, it, want)
			}
		}
	}
}
