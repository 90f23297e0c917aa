package bv

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/hull"
	"github.com/collide3d/collide/internal/testgeom"
)

// dotCmp returns the sign of g·p - g·q, exactly: the float estimate decides
// when it exceeds its rounding error (at most 4u·m + 6·2⁻¹⁰⁷⁵, with
// m = Σ|g_j|(|p_j| + |q_j|)) by far, math/big otherwise.
func dotCmp(g, p, q geom.Vec3) int {
	f := g.Dot(p) - g.Dot(q)
	a := g.Abs()
	m := a.Dot(p.Abs()) + a.Dot(q.Abs())
	if m <= math.MaxFloat64 && math.Abs(f) <= math.MaxFloat64 && math.Abs(f) > 0x1p-40*m+0x1p-1000 {
		if f > 0 {
			return 1
		}
		return -1
	}
	if !g.IsFinite() || !p.IsFinite() || !q.IsFinite() {
		return 0
	}
	rat := func(x float64) *big.Rat { return new(big.Rat).SetFloat64(x) }
	s := new(big.Rat)
	for j := range 3 {
		t := rat(p.Index(j))
		t.Sub(t, rat(q.Index(j)))
		s.Add(s, t.Mul(t, rat(g.Index(j))))
	}
	return s.Sign()
}

// hullRot returns a random rotation by an angle of at most maxAngle.
func hullRot(rng *rand.Rand, maxAngle float64) geom.Mat3 {
	axis := geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64())
	return geom.AxisAngle(axis, maxAngle*(2*rng.Float64()-1)).Mat3()
}

// hullCheckDOP checks HullDOP against every input point and against HullDOPBrute,
// and that the stored vertices are exact extremes.
func hullCheckDOP(t *testing.T, h *hull.Hull, pts []geom.Vec3, k K, r geom.Mat3, tr geom.Vec3, st *ClimbState) int {
	t.Helper()
	d, steps := HullDOP(h, k, r, tr, st)
	b := HullDOPBrute(h, k, r, tr)
	if h.Len() == 0 {
		if d != Empty(k) || b != Empty(k) {
			t.Fatalf("empty hull: %v, %v", d, b)
		}
		return 0
	}
	set, base := hullDOPSetup(h, k, r, tr)
	pose := geom.Pose{R: r, T: tr}
	var pr [MaxSlabs]float64
	for _, p := range pts {
		if !p.IsFinite() {
			continue
		}
		k.Project(pose.Apply(p), &pr)
		for i := range k.Slabs() {
			if pr[i] < d.Lo[i] || pr[i] > d.Hi[i] {
				t.Fatalf("%v: slab %d: %v → %g outside [%g, %g]", k, i, p, pr[i], d.Lo[i], d.Hi[i])
			}
			if pr[i] < b.Lo[i] || pr[i] > b.Hi[i] {
				t.Fatalf("%v brute: slab %d: %v → %g outside [%g, %g]", k, i, p, pr[i], b.Lo[i], b.Hi[i])
			}
		}
	}
	for i, di := range set {
		g, m := hullDir(di, &r)
		pad := m*base + 0x1p-1000
		if !(math.Abs(d.Lo[i]-b.Lo[i]) <= 2*pad && math.Abs(d.Hi[i]-b.Hi[i]) <= 2*pad) {
			t.Fatalf("%v slab %d: climb [%g, %g], brute [%g, %g], pad %g", k, i, d.Lo[i], d.Hi[i], b.Lo[i], b.Hi[i], pad)
		}
		hi, lo := h.Vertex(int(st.v[2*i])), h.Vertex(int(st.v[2*i+1]))
		for _, p := range pts {
			if !p.IsFinite() {
				continue
			}
			if s := dotCmp(g, p, hi); s > 0 {
				t.Fatalf("%v slab %d: %v above the climbed maximum %v", k, i, p, hi)
			}
			if s := dotCmp(g, p, lo); s < 0 {
				t.Fatalf("%v slab %d: %v below the climbed minimum %v", k, i, p, lo)
			}
		}
	}
	return steps
}

func TestHullDOP(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	for _, c := range testgeom.HullClouds() {
		h := hull.New(c.Pts)
		pts := c.Pts
		if len(pts) > 500 {
			pts = pts[:500] // every point is still checked by HullDOPBrute below
		}
		t.Run(c.Name, func(t *testing.T) {
			for _, k := range Ks {
				var st ClimbState
				tr := geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()).Scale(math.Ldexp(1, rng.IntN(40)-20))
				// Identity and quarter turns: ties everywhere on lattices.
				hullCheckDOP(t, h, pts, k, geom.Identity3(), tr, &st)
				hullCheckDOP(t, h, pts, k, geom.Mat3{{0, -1, 0}, {1, 0, 0}, {0, 0, 1}}, tr, &st)
				hullCheckDOP(t, h, pts, k, geom.AxisAngle(geom.V(1, 2, 3), 1e-17).Mat3(), tr, &st)
				// Large jumps.
				for range 3 {
					hullCheckDOP(t, h, pts, k, hullRot(rng, math.Pi), tr, &st)
				}
				// A coherent sequence of small rotations.
				q := geom.AxisAngle(geom.V(rng.NormFloat64(), 1, 0), 1)
				for range 4 {
					q = geom.AxisAngle(geom.V(rng.NormFloat64(), rng.NormFloat64(), 1), 0.02).Mul(q)
					hullCheckDOP(t, h, pts, k, q.Mat3(), tr, &st)
				}
			}
		})
		if len(c.Pts) > len(pts) {
			// All points against the climbed DOP, for one pose and k.
			r := hullRot(rng, math.Pi)
			d, _ := HullDOP(h, K26, r, geom.Vec3{}, nil)
			pose := geom.Pose{R: r}
			for _, p := range c.Pts {
				if p.IsFinite() && !d.Contains(pose.Apply(p)) {
					t.Fatalf("%s: %v not in %v", c.Name, p, d)
				}
			}
		}
	}
}

func TestHullTies(t *testing.T) {
	// Axis-aligned lattices under identity and quarter turns: every slab
	// side has whole faces of maximisers, and neighbours tie.
	quarter := geom.Mat3{{0, 0, 1}, {1, 0, 0}, {0, 1, 0}}
	for _, pts := range [][]geom.Vec3{testgeom.LatticePoints(7, 1, geom.Vec3{}), testgeom.LatticePoints(4, 0.5, geom.V(-1, -1, -1))} {
		h := hull.New(pts)
		for _, k := range Ks {
			var st ClimbState
			for _, r := range []geom.Mat3{geom.Identity3(), quarter, quarter.Mul(quarter), geom.Identity3()} {
				steps := hullCheckDOP(t, h, pts, k, r, geom.Vec3{}, &st)
				if steps > 2*k.Slabs()*h.Len() {
					t.Fatalf("%v: %d steps on a %d-vertex hull", k, steps, h.Len())
				}
			}
		}
	}
}

func TestHullCoherence(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	h := hull.New(testgeom.SpherePoints(rng, 2000, 1, geom.Vec3{}))
	var st ClimbState
	q := geom.Quat{W: 1}
	small, jumps := 0, 0
	const n = 200
	for range n {
		q = geom.AxisAngle(geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()), 0.01).Mul(q)
		_, s := HullDOP(h, K18, q.Mat3(), geom.Vec3{}, &st)
		small += s
	}
	for range n {
		_, s := HullDOP(h, K18, hullRot(rng, math.Pi), geom.Vec3{}, &st)
		jumps += s
	}
	t.Logf("%d hull vertices; K18 steps per query: %.2f coherent (0.01 rad), %.1f random", h.Len(), float64(small)/n, float64(jumps)/n)
	if small*5 > jumps {
		t.Errorf("coherent queries take %d steps, random ones %d", small, jumps)
	}
}

func TestHullStateReuse(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	big := hull.New(testgeom.SpherePoints(rng, 300, 1, geom.Vec3{}))
	small := hull.New(testgeom.LatticePoints(3, 1, geom.Vec3{}))
	var st ClimbState
	HullDOP(big, K26, hullRot(rng, 3), geom.Vec3{}, &st)
	st.v[0] = -5
	// Indices past the small hull's vertices are reset, not used.
	hullCheckDOP(t, small, testgeom.LatticePoints(3, 1, geom.Vec3{}), K26, hullRot(rng, 3), geom.Vec3{}, &st)
	if d, s := HullDOP(hull.New(nil), K6, geom.Identity3(), geom.Vec3{}, nil); s != 0 || !d.IsEmpty() {
		t.Errorf("empty hull: %v, %d steps", d, s)
	}
	// Non-finite poses must not panic or loop; the result stays conservative.
	d, _ := HullDOP(big, K14, geom.Mat3{{math.NaN(), 0, 0}, {0, 1, 0}, {0, 0, 1}}, geom.Vec3{}, &st)
	for i := range K14.Slabs() {
		if math.IsNaN(d.Lo[i]) || math.IsNaN(d.Hi[i]) {
			t.Errorf("NaN pose: slab %d is [%g, %g]", i, d.Lo[i], d.Hi[i])
		}
	}
	h := hull.New(testgeom.LatticePoints(4, 1e307, geom.V(-1.5e307, -1.5e307, -1.5e307)))
	d, _ = HullDOP(h, K26, hullRot(rng, 3), geom.V(1e308, 0, 0), nil)
	for i := range K26.Slabs() {
		if math.IsNaN(d.Lo[i]) || math.IsNaN(d.Hi[i]) || d.Lo[i] > d.Hi[i] {
			t.Errorf("overflowing pose: slab %d is [%g, %g]", i, d.Lo[i], d.Hi[i])
		}
	}
}

func TestHullDOPNoAlloc(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	h := hull.New(testgeom.SpherePoints(rng, 500, 1, geom.Vec3{}))
	var st ClimbState
	r := hullRot(rng, 3)
	if a := testing.AllocsPerRun(20, func() { HullDOP(h, K26, r, geom.V(1, 2, 3), &st) }); a != 0 {
		t.Errorf("DOP allocates %v times", a)
	}
}

func BenchmarkHullDOP(b *testing.B) {
	for _, n := range []int{1000, 10_000} {
		rng := rand.New(rand.NewPCG(1, 1))
		h := hull.New(testgeom.SpherePoints(rng, n, 1, geom.Vec3{}))
		rots := make([]geom.Mat3, 64)
		for i := range rots {
			rots[i] = hullRot(rng, math.Pi)
		}
		step := geom.AxisAngle(geom.V(1, 2, 3), 0.01)
		b.Run(fmt.Sprintf("sphere%d/coherent", n), func(b *testing.B) {
			b.ReportAllocs()
			var st ClimbState
			q, steps := geom.Quat{W: 1}, 0
			for b.Loop() {
				q = step.Mul(q)
				_, s := HullDOP(h, K18, q.Mat3(), geom.V(1, 2, 3), &st)
				steps += s
			}
			b.ReportMetric(float64(steps)/float64(b.N), "steps/op")
		})
		b.Run(fmt.Sprintf("sphere%d/random", n), func(b *testing.B) {
			b.ReportAllocs()
			var st ClimbState
			i, steps := 0, 0
			for b.Loop() {
				_, s := HullDOP(h, K18, rots[i%len(rots)], geom.V(1, 2, 3), &st)
				steps += s
				i++
			}
			b.ReportMetric(float64(steps)/float64(b.N), "steps/op")
		})
		b.Run(fmt.Sprintf("sphere%d/brute", n), func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				HullDOPBrute(h, K18, rots[i%len(rots)], geom.V(1, 2, 3))
				i++
			}
		})
	}
}
