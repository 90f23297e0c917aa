package ratccd

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/internal/longtest"
)

var v = geom.V

// want is an expected answer: no contact, a rational earliest time, or a
// root of a polynomial (coefficients lowest first) near approx.
type want struct {
	hit    bool
	t      *big.Rat  // the exact earliest time when rational
	root   []float64 // else a polynomial it is a root of
	approx float64   // and an approximation within 1e-12
}

func at(num, den int64) want { return want{hit: true, t: big.NewRat(num, den)} }

var miss = want{}

type handCase struct {
	name string
	kind string      // "vf", "ee" or "tt"
	x    []geom.Vec3 // the inputs in parameter order
	want want
}

// tri returns the flattened inputs of TriTri(a0, b0, a1, b1).
func tri(a0, b0, a1, b1 geom.Triangle) []geom.Vec3 {
	return []geom.Vec3{a0[0], a0[1], a0[2], b0[0], b0[1], b0[2], a1[0], a1[1], a1[2], b1[0], b1[1], b1[2]}
}

// still returns 8 points with the four at t = 1 equal to those at t = 0.
func still(p, a, b, c geom.Vec3) []geom.Vec3 { return []geom.Vec3{p, a, b, c, p, a, b, c} }

var (
	o  = v(0, 0, 0)
	ex = v(4, 0, 0)
	ey = v(0, 4, 0)
)

var handCases = []handCase{
	// Vertex against face.
	{"vf/falls onto face at 1/2", "vf", []geom.Vec3{v(1, 1, 1), o, ex, ey, v(1, 1, -1), o, ex, ey}, at(1, 2)},
	{"vf/touching at 0", "vf", []geom.Vec3{v(1, 1, 0), o, ex, ey, v(1, 1, -1), o, ex, ey}, at(0, 1)},
	{"vf/touching at 1 only", "vf", []geom.Vec3{v(1, 1, 1), o, ex, ey, v(1, 1, 0), o, ex, ey}, at(1, 1)},
	{"vf/stops short of the face", "vf", []geom.Vec3{v(1, 1, 1), o, ex, ey, v(1, 1, 0x1p-50), o, ex, ey}, miss},
	{"vf/passes outside", "vf", []geom.Vec3{v(3, 3, 1), o, ex, ey, v(3, 3, -1), o, ex, ey}, miss},
	{"vf/through an edge at 1/2", "vf", []geom.Vec3{v(2, 0, 1), o, ex, ey, v(2, 0, -1), o, ex, ey}, at(1, 2)},
	{"vf/through the hypotenuse at 1/4", "vf", []geom.Vec3{v(2, 2, 1), o, ex, ey, v(2, 2, -3), o, ex, ey}, at(1, 4)},
	{"vf/through a vertex at 1/2", "vf", []geom.Vec3{v(0, 0, 1), o, ex, ey, v(0, 0, -1), o, ex, ey}, at(1, 2)},
	{"vf/one ulp outside the hypotenuse", "vf", []geom.Vec3{v(2, math.Nextafter(2, 3), 1), o, ex, ey, v(2, math.Nextafter(2, 3), -1), o, ex, ey}, miss},
	{"vf/sliding in the plane from 1/3", "vf", []geom.Vec3{v(-1, 1, 0), o, ex, ey, v(2, 1, 0), o, ex, ey}, at(1, 3)},
	{"vf/sliding along the plane, outside", "vf", []geom.Vec3{v(-1, -1, 0), o, ex, ey, v(5, -1, 0), o, ex, ey}, miss},
	{"vf/triangle slides onto the point at 1/2", "vf", []geom.Vec3{v(1, 1, 0), v(2, 0, 0), v(6, 0, 0), v(2, 4, 0), v(1, 1, 0), v(-2, 0, 0), v(2, 0, 0), v(-2, 4, 0)}, at(1, 4)},
	{"vf/nothing moves, in contact", "vf", still(v(1, 1, 0), o, ex, ey), at(0, 1)},
	{"vf/nothing moves, apart", "vf", still(v(1, 1, 1), o, ex, ey), miss},
	{"vf/segment triangle crossed at 1/2", "vf", []geom.Vec3{v(1, 1, 0), o, v(2, 0, 0), v(1, 0, 0), v(1, -1, 0), o, v(2, 0, 0), v(1, 0, 0)}, at(1, 2)},
	{"vf/segment triangle crossed off the plane at 1/2", "vf", []geom.Vec3{v(1, 1, 1), o, v(2, 0, 0), v(1, 0, 0), v(1, -1, -1), o, v(2, 0, 0), v(1, 0, 0)}, at(1, 2)},
	{"vf/segment triangle missed beyond its end", "vf", []geom.Vec3{v(3, 1, 0), o, v(2, 0, 0), v(1, 0, 0), v(3, -1, 0), o, v(2, 0, 0), v(1, 0, 0)}, miss},
	{"vf/point triangle met at 1/2", "vf", []geom.Vec3{v(-1, -1, -1), o, o, o, v(1, 1, 1), o, o, o}, at(1, 2)},
	{"vf/point triangle missed", "vf", []geom.Vec3{v(-1, -1, -1), o, o, o, v(1, 1, 2), o, o, o}, miss},
	{"vf/triangle collapses onto the point at 1", "vf", []geom.Vec3{v(1, 1, 1), v(0, 0, 2), v(4, 0, 2), v(0, 4, 2), v(1, 1, 1), v(1, 1, 1), v(1, 1, 1), v(1, 1, 1)}, at(1, 1)},
	// Plane z = x·t/2 (b rises), p = (1+t, 1, 1−t): t² + 3t − 2 = 0.
	{"vf/irrational time", "vf", []geom.Vec3{v(1, 1, 1), o, ex, ey, v(2, 1, 0), o, v(4, 0, 2), ey},
		want{hit: true, root: []float64{-2, 3, 1}, approx: (math.Sqrt(17) - 3) / 2}},
	// Edge against edge.
	{"ee/crossing at 1/2", "ee", []geom.Vec3{v(-1, 0, 1), v(1, 0, 1), v(0, -1, 0), v(0, 1, 0), v(-1, 0, -1), v(1, 0, -1), v(0, -1, 0), v(0, 1, 0)}, at(1, 2)},
	{"ee/passing by", "ee", []geom.Vec3{v(-1, 0, 1), v(1, 0, 1), v(0, 2, 0), v(0, 3, 0), v(-1, 0, -1), v(1, 0, -1), v(0, 2, 0), v(0, 3, 0)}, miss},
	{"ee/endpoint onto edge at 1/4", "ee", []geom.Vec3{v(1, 0, 1), v(3, 0, 1), v(0, -1, 1), v(0, 1, 1), v(-3, 0, 1), v(-1, 0, 1), v(0, -1, 1), v(0, 1, 1)}, at(1, 4)},
	{"ee/endpoints meet at 1/2", "ee", []geom.Vec3{v(1, 1, 1), v(2, 2, 2), v(0, 0, 0), v(-1, 0, 0), v(-1, -1, -1), v(2, 2, 2), v(0, 0, 0), v(-1, 0, 0)}, at(1, 2)},
	{"ee/touching at 0", "ee", []geom.Vec3{v(-1, 0, 0), v(1, 0, 0), v(0, -1, 0), v(0, 1, 0), v(-1, 0, 5), v(1, 0, 5), v(0, -1, 0), v(0, 1, 0)}, at(0, 1)},
	{"ee/touching at 1", "ee", []geom.Vec3{v(-1, 0, 5), v(1, 0, 5), v(0, -1, 0), v(0, 1, 0), v(-1, 0, 0), v(1, 0, 0), v(0, -1, 0), v(0, 1, 0)}, at(1, 1)},
	{"ee/collinear sliding into overlap at 1/2", "ee", []geom.Vec3{v(-3, 0, 0), v(-2, 0, 0), o, v(1, 0, 0), v(1, 0, 0), v(2, 0, 0), o, v(1, 0, 0)}, at(1, 2)},
	{"ee/collinear, stopping short", "ee", []geom.Vec3{v(-3, 0, 0), v(-2, 0, 0), o, v(1, 0, 0), v(-2, 0, 0), v(-0x1p-40, 0, 0), o, v(1, 0, 0)}, miss},
	{"ee/parallel coplanar sliding into overlap at 1/2", "ee", []geom.Vec3{v(-1, 1, 0), v(1, 1, 0), o, v(2, 0, 0), v(-1, -1, 0), v(1, -1, 0), o, v(2, 0, 0)}, at(1, 2)},
	{"ee/parallel sliding past", "ee", []geom.Vec3{v(-3, 1, 0), v(-2, 1, 0), o, v(2, 0, 0), v(-3, -1, 0), v(-2, -1, 0), o, v(2, 0, 0)}, miss},
	{"ee/parallel planes apart", "ee", []geom.Vec3{v(-1, 1, 1), v(1, 1, 1), o, v(2, 0, 0), v(-1, -1, 1), v(1, -1, 1), o, v(2, 0, 0)}, miss},
	{"ee/zero-length edge through an edge at 1/2", "ee", []geom.Vec3{v(0, 0, 1), v(0, 0, 1), v(-1, 0, 0), v(1, 0, 0), v(0, 0, -1), v(0, 0, -1), v(-1, 0, 0), v(1, 0, 0)}, at(1, 2)},
	{"ee/two points meet at 1/2", "ee", []geom.Vec3{o, o, v(1, 1, 1), v(1, 1, 1), v(2, 2, 2), v(2, 2, 2), v(1, 1, 1), v(1, 1, 1)}, at(1, 2)},
	{"ee/two points miss", "ee", []geom.Vec3{o, o, v(1, 1, 1.5), v(1, 1, 1.5), v(2, 2, 2), v(2, 2, 2), v(1, 1, 1.5), v(1, 1, 1.5)}, miss},
	{"ee/nothing moves, skew", "ee", []geom.Vec3{v(-1, 0, 0), v(1, 0, 0), v(0, -1, 1), v(0, 1, 1), v(-1, 0, 0), v(1, 0, 0), v(0, -1, 1), v(0, 1, 1)}, miss},
	{"ee/nothing moves, crossing", "ee", []geom.Vec3{v(-1, 0, 0), v(1, 0, 0), v(0, -1, 0), v(0, 1, 0), v(-1, 0, 0), v(1, 0, 0), v(0, -1, 0), v(0, 1, 0)}, at(0, 1)},
	{"ee/edge shrinks onto the other's endpoint at 1", "ee", []geom.Vec3{v(2, 1, 0), v(2, -1, 0), v(-1, 0, 0), v(1, 0, 0), v(1, 0, 0), v(1, 0, 0), v(-1, 0, 0), v(1, 0, 0)}, at(1, 1)},
	// pq = (∓2, 0, 2 − 2t); rs from (0, −1, 0) to (0, 1 + 2t, 2) crosses
	// y = 0 at z = 1/(1 + t): 2(1 − t²) = 1, t = 1/√2.
	{"ee/irrational time", "ee", []geom.Vec3{v(-2, 0, 2), v(2, 0, 2), v(0, -1, 0), v(0, 1, 2), v(-2, 0, 0), v(2, 0, 0), v(0, -1, 0), v(0, 3, 2)},
		want{hit: true, root: []float64{-1, 0, 2}, approx: math.Sqrt2 / 2}},
	// Triangle against triangle.
	{"tt/overlapping at 0", "tt", tri(geom.Tri(o, ex, ey), geom.Tri(v(1, 1, -1), v(1, 1, 1), v(2, 1, 1)), geom.Tri(o, ex, ey), geom.Tri(v(1, 1, -1), v(1, 1, 1), v(2, 1, 1))), at(0, 1)},
	{"tt/edge pierces the interior at 0", "tt", tri(geom.Tri(o, ex, ey), geom.Tri(v(1, 1, -1), v(1, 1, 1), v(3, 3, 1)), geom.Tri(v(0, 0, 5), v(4, 0, 5), v(0, 4, 5)), geom.Tri(v(1, 1, -1), v(1, 1, 1), v(3, 3, 1))), at(0, 1)},
	{"tt/falls onto at 1/2", "tt", tri(geom.Tri(v(1, 1, 1), v(1, 1, 3), v(2, 1, 3)), geom.Tri(o, ex, ey), geom.Tri(v(1, 1, -1), v(1, 1, 1), v(2, 1, 1)), geom.Tri(o, ex, ey)), at(1, 2)},
	{"tt/faces meet flat at 1/2", "tt", tri(geom.Tri(v(1, 1, 1), v(3, 1, 1), v(1, 3, 1)), geom.Tri(o, ex, ey), geom.Tri(v(1, 1, -1), v(3, 1, -1), v(1, 3, -1)), geom.Tri(o, ex, ey)), at(1, 2)},
	{"tt/passing by", "tt", tri(geom.Tri(v(5, 5, 1), v(7, 5, 1), v(5, 7, 1)), geom.Tri(o, ex, ey), geom.Tri(v(5, 5, -1), v(7, 5, -1), v(5, 7, -1)), geom.Tri(o, ex, ey)), miss},
	{"tt/edges cross at 1/2", "tt", tri(geom.Tri(v(-1, 0, 1), v(1, 0, 1), v(0, 0, 3)), geom.Tri(v(0, -1, 0), v(0, 1, 0), v(0, 0, -2)), geom.Tri(v(-1, 0, -1), v(1, 0, -1), v(0, 0, 1)), geom.Tri(v(0, -1, 0), v(0, 1, 0), v(0, 0, -2))), at(1, 2)},
}

func (w want) check(t *testing.T, got *Time, hit bool) {
	t.Helper()
	if hit != w.hit {
		t.Fatalf("hit = %v (%v), want %v", hit, got, w.hit)
	}
	if !hit {
		return
	}
	if w.t != nil {
		if got.CmpRat(w.t) != 0 {
			t.Fatalf("earliest = %v, want %s", got, w.t.RatString())
		}
		return
	}
	if d := math.Abs(got.Float64() - w.approx); d > 1e-12 {
		t.Fatalf("earliest = %v, want ≈ %.17g", got, w.approx)
	}
	// The root polynomial changes sign across a narrow interval around got.
	lo, hi := got.Bounds(new(big.Rat).SetFloat64(0x1p-80))
	var p poly
	for _, c := range w.root {
		p = append(p, new(big.Rat).SetFloat64(c))
	}
	if signAt(p, lo)*signAt(p, hi) > 0 {
		t.Fatalf("earliest = %v is not a root of %v", got, p)
	}
}

func run(kind string, x []geom.Vec3) (*Time, bool) {
	switch kind {
	case "vf":
		return VertexFace(x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7])
	case "ee":
		return EdgeEdge(x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7])
	default:
		return TriTri(geom.Triangle(x[0:3]), geom.Triangle(x[3:6]), geom.Triangle(x[6:9]), geom.Triangle(x[9:12]))
	}
}

func TestHandCases(t *testing.T) {
	for _, c := range handCases {
		t.Run(c.name, func(t *testing.T) {
			got, hit := run(c.kind, c.x)
			c.want.check(t, got, hit)
			checkSamples(t, c.kind, c.x, got, hit, 64, nil)
		})
	}
}

// checkSamples checks the continuous answer against the static tests at
// rational times: k/n for k = 0..n and extra: no time before the earliest
// is in contact, and at a rational earliest time the static test says
// contact. It also checks that the continuous system's own contact test
// agrees with the static one at every sample (for "vf" and "ee").
func checkSamples(t *testing.T, kind string, x []geom.Vec3, got *Time, hit bool, n int, extra []*big.Rat) {
	t.Helper()
	ts := extra
	for k := 0; k <= n; k++ {
		ts = append(ts, big.NewRat(int64(k), int64(n)))
	}
	if hit {
		if r, ok := got.Rat(); ok {
			if !ContactAt(kind, x, r) {
				t.Errorf("%s %v: no static contact at the earliest time %v", kind, x, got)
			}
			ts = append(ts, r)
		}
	}
	var sys *system
	if kind != "tt" {
		P := scaled(x...)
		if kind == "vf" {
			sys = vfSystem(P[0], P[1], P[2], P[3])
		} else {
			sys = eeSystem(P[0], P[1], P[2], P[3])
		}
	}
	for _, tk := range ts {
		if tk.Sign() < 0 || tk.Cmp(big.NewRat(1, 1)) > 0 {
			continue
		}
		c := ContactAt(kind, x, tk)
		if c && (!hit || got.CmpRat(tk) > 0) {
			t.Errorf("%s %v: static contact at t = %s before the earliest time (hit %v, %v)", kind, x, tk.RatString(), hit, got)
		}
		if sys != nil {
			if d := sys.at(ratTime(tk)); d != c {
				t.Errorf("%s %v: at t = %s, the continuous test says %v, the static test %v", kind, x, tk.RatString(), d, c)
			}
		}
	}
}

// grid returns a random point with small integer coordinates in [-k, k].
func grid(r *rand.Rand, k int) geom.Vec3 {
	c := func() float64 { return float64(r.IntN(2*k+1) - k) }
	return v(c(), c(), c())
}

func unit(r *rand.Rand) geom.Vec3 {
	return v(2*r.Float64()-1, 2*r.Float64()-1, 2*r.Float64()-1)
}

// randomInputs returns n points for kind: small integer grids (with many
// degeneracies and exact contacts), grids with some points kept still or
// collapsed, flat (z = 0) grids, and uniform floats in [-1, 1]³.
func randomInputs(r *rand.Rand, kind string) []geom.Vec3 {
	n := 8
	if kind == "tt" {
		n = 12
	}
	x := make([]geom.Vec3, n)
	style := r.IntN(4)
	for i := range x {
		switch style {
		case 0, 1:
			x[i] = grid(r, 2)
		case 2:
			x[i] = grid(r, 2)
			x[i].Z = 0
		default:
			x[i] = unit(r)
		}
	}
	half := n / 2
	if kind == "tt" {
		half = 6
	}
	for i := range half {
		switch r.IntN(8) {
		case 0: // does not move
			x[i+half] = x[i]
		case 1: // collapses onto another point
			j := r.IntN(half)
			x[i], x[i+half] = x[j], x[j+half]
		}
	}
	return x
}

// TestSampling cross-checks the continuous oracle with the static tests at
// rational sample times, on random inputs.
func TestSampling(t *testing.T) {
	n := 300
	if longtest.Exhaustive() {
		n = 3000
	}
	r := rand.New(rand.NewPCG(1, 2))
	for _, kind := range []string{"vf", "ee", "tt"} {
		hits := 0
		m := n
		if kind == "tt" {
			m = n / 5
		}
		for range m {
			x := randomInputs(r, kind)
			got, hit := run(kind, x)
			if hit {
				hits++
			}
			var extra []*big.Rat
			if hit {
				// Rationals just before the earliest time.
				lo, _ := got.Bounds(new(big.Rat).SetFloat64(0x1p-30))
				extra = append(extra, lo, new(big.Rat).Sub(lo, new(big.Rat).SetFloat64(0x1p-20)))
			}
			for range 4 {
				extra = append(extra, big.NewRat(r.Int64N(1<<20), 1<<20))
			}
			checkSamples(t, kind, x, got, hit, 32, extra)
			if t.Failed() {
				return
			}
		}
		t.Logf("%s: %d cases, %d hits", kind, m, hits)
	}
}

// TestTriTriIsEarliestPair checks TriTri against the pair queries it is
// defined from, and its symmetry.
func TestTriTriIsEarliestPair(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for range 40 {
		x := randomInputs(r, "tt")
		a0, b0, a1, b1 := geom.Triangle(x[0:3]), geom.Triangle(x[3:6]), geom.Triangle(x[6:9]), geom.Triangle(x[9:12])
		got, hit := TriTri(a0, b0, a1, b1)
		rev, rhit := TriTri(b0, a0, b1, a1)
		if hit != rhit || (hit && got.Cmp(rev) != 0) {
			t.Fatalf("TriTri not symmetric on %v: %v %v / %v %v", x, hit, got, rhit, rev)
		}
		if hit && !got.IsZero() {
			for i := range 3 {
				if u, h := VertexFace(a0[i], b0[0], b0[1], b0[2], a1[i], b1[0], b1[1], b1[2]); h && u.Cmp(got) < 0 {
					t.Fatalf("vertex %d of a meets b at %v, before TriTri's %v", i, u, got)
				}
			}
		}
	}
}

func TestNonFinite(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	for _, bad := range []float64{nan, inf, -inf} {
		x := []geom.Vec3{v(1, 1, 1), o, ex, ey, v(1, 1, -1), o, ex, ey}
		x[6].Y = bad
		for _, kind := range []string{"vf", "ee"} {
			if _, hit := run(kind, x); hit {
				t.Errorf("%s with %v: hit", kind, bad)
			}
		}
		if _, hit := run("tt", append(x, x[:4]...)); hit {
			t.Errorf("tt with %v: hit", bad)
		}
	}
}

// TestTimeCompare checks the algebraic-number comparisons on roots known
// by hand.
func TestTimeCompare(t *testing.T) {
	mk := func(cs ...int64) poly {
		var p poly
		for _, c := range cs {
			p = append(p, big.NewRat(c, 1))
		}
		return trim(p)
	}
	// The roots of 2t² − 1 (1/√2), of 3t² − 1 (1/√3) and of
	// (2t² − 1)(2t − 1) (1/2 and 1/√2).
	r1 := roots(mk(-1, 0, 2))
	r2 := roots(mk(-1, 0, 3))
	r3 := roots(mul(mk(-1, 0, 2), mk(-1, 2)))
	if len(r1) != 1 || len(r2) != 1 || len(r3) != 2 {
		t.Fatalf("roots: %v %v %v", r1, r2, r3)
	}
	if r1[0].Cmp(r2[0]) != 1 || r2[0].Cmp(r1[0]) != -1 {
		t.Errorf("1/√2 vs 1/√3: %d", r1[0].Cmp(r2[0]))
	}
	if r3[1].Cmp(r1[0]) != 0 || r3[0].CmpRat(big.NewRat(1, 2)) != 0 {
		t.Errorf("roots of (2t²−1)(2t−1): %v", r3)
	}
	if !r1[0].In(0.7071067811865475, 0.7071067811865476) || r1[0].In(0.7071067811865476, 1) || r1[0].In(0, 0.7071067811865475) {
		t.Errorf("In around 1/√2 = %v", r1[0])
	}
	if s := r1[0].sign(newFpoly(mk(-1, 0, 4))); s != 1 { // 4t² − 1 at 1/√2 = 1
		t.Errorf("sign of 4t²−1 at 1/√2 = %d", s)
	}
	if s := r1[0].sign(newFpoly(mul(mk(-1, 0, 2), mk(5, 1)))); s != 0 {
		t.Errorf("sign of (2t²−1)(t+5) at 1/√2 = %d", s)
	}
	// Roots at 0 and 1 and a double root.
	if rs := roots(mul(mul(mk(0, 1), mk(-1, 1)), mul(mk(-1, 3), mk(-1, 3)))); len(rs) != 3 ||
		!rs[0].IsZero() || rs[1].CmpRat(big.NewRat(1, 3)) != 0 || rs[2].CmpRat(big.NewRat(1, 1)) != 0 {
		t.Errorf("roots of t(t−1)(3t−1)²: %v", rs)
	}
}
