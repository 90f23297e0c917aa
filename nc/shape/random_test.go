package shape

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/internal/longtest"
)

// scene generates random cases: coordinates on a small integer grid (exact
// degeneracies: coplanar, parallel, touching, vertical moves), uniform
// floats, far from the origin (offsets 1e6 and 1e9) and tiny (1e-9).
type scene struct {
	rng   *rand.Rand
	scale float64
	off   geom.Vec3
	grid  bool
}

func newScene(rng *rand.Rand) *scene {
	s := &scene{rng: rng, scale: 1}
	switch rng.IntN(8) {
	case 0, 1, 2:
		s.grid = true
	case 3:
		s.scale = 10
	case 4:
		s.off = geom.V(1e6, -1e6, 1e6)
	case 5:
		s.off = geom.V(1e9, 1e9, -1e9)
		s.scale = 10
	case 6:
		s.scale = 1e-9
	}
	return s
}

func (s *scene) coord() float64 {
	if s.grid {
		return float64(s.rng.IntN(9)-4) * s.scale / 2
	}
	return (2*s.rng.Float64() - 1) * s.scale
}

func (s *scene) point() geom.Vec3 {
	return geom.V(s.coord(), s.coord(), s.coord()).Add(s.off)
}

// near returns p moved by a grid or random step, sometimes not at all.
func (s *scene) near(p geom.Vec3) geom.Vec3 {
	switch s.rng.IntN(4) {
	case 0:
		return p
	case 1: // vertical move
		return geom.V(p.X, p.Y, p.Z+s.coord())
	case 2: // horizontal move
		return geom.V(p.X+s.coord(), p.Y+s.coord(), p.Z)
	}
	return p.Add(geom.V(s.coord(), s.coord(), s.coord()))
}

func (s *scene) path(kind int) Path {
	a := s.point()
	switch kind {
	case 1:
		return Point(a)
	case 2:
		return Segment(a, s.near(a))
	}
	b := s.near(a)
	return Tri(a, b, s.near(b))
}

func (s *scene) tri() geom.Triangle {
	a := s.point()
	var t geom.Triangle
	switch s.rng.IntN(6) {
	case 0: // horizontal
		t = geom.Tri(a, s.point(), s.point())
		t[1].Z, t[2].Z = a.Z, a.Z
	case 1: // vertical wall
		t = geom.Tri(a, s.point(), s.point())
		t[1].X, t[2].X = a.X, a.X
	case 2: // degenerate: a segment or a point
		b := s.near(a)
		t = geom.Tri(a, b, b)
		if s.rng.IntN(3) == 0 {
			t = geom.Tri(a, a, a)
		}
	default:
		t = geom.Tri(a, s.point(), s.point())
	}
	return t
}

// scalar returns a random height-like value.
func (s *scene) scalar() float64 { return s.coord() }

// nearRadius returns a radius near √d2: exactly it (when representable),
// an ulp or two off, a small relative step off, or random.
func nearRadius(rng *rand.Rand, d2 *big.Rat, scale float64) float64 {
	if d2 == nil {
		return rng.Float64() * scale
	}
	d := sqrtF(d2)
	switch rng.IntN(10) {
	case 0, 1, 2:
		return d
	case 3:
		return math.Nextafter(d, math.Inf(1))
	case 4:
		return math.Max(0, math.Nextafter(d, 0))
	case 5:
		return d * (1 + 1e-12*(2*rng.Float64()-1))
	case 6:
		return d * (1 + 1e-7*(2*rng.Float64()-1))
	case 7:
		return 0
	}
	return d * (0.5 + rng.Float64())
}

type ballCase struct {
	path  Path
	zc, r float64
	t     geom.Triangle
}

func (c ballCase) String() string {
	return fmt.Sprintf("Ball(Path{P: %#v, N: %d}, %v, %v, %#v)", c.path.P, c.path.N, c.zc, c.r, c.t)
}

type cylCase struct {
	path      Path
	r, z0, z1 float64
	t         geom.Triangle
}

func (c cylCase) String() string {
	return fmt.Sprintf("Cylinder(Path{P: %#v, N: %d}, %v, %v, %v, %#v)", c.path.P, c.path.N, c.r, c.z0, c.z1, c.t)
}

// randBall returns a random case and its exact squared distance.
func randBall(rng *rand.Rand, kind int) (ballCase, *big.Rat) {
	s := newScene(rng)
	c := ballCase{path: s.path(kind), zc: s.scalar(), t: s.tri()}
	if rng.IntN(4) == 0 {
		c.zc = 0
	}
	d2 := oBallDist2(c.path, c.zc, c.t)
	c.r = nearRadius(rng, d2, s.scale)
	return c, d2
}

// within reports d2 ≤ r² (d2 nil: never).
func within(d2 *big.Rat, r float64) bool {
	if d2 == nil {
		return false
	}
	rr := oR(r)
	return d2.Cmp(rr.Mul(rr, rr)) <= 0
}

// randCyl returns a random case and its exact squared distance (nil: the
// slab misses M).
func randCyl(rng *rand.Rand, kind int) (cylCase, *big.Rat) {
	s := newScene(rng)
	c := cylCase{path: s.path(kind), t: s.tri()}
	// Heights: random, or equal to a vertex height above a path point
	// (rounded), a cap exactly on the triangle.
	h := func() float64 {
		if rng.IntN(2) == 0 {
			return c.t[rng.IntN(3)].Z - c.path.P[rng.IntN(c.path.N)].Z
		}
		return s.scalar()
	}
	c.z0, c.z1 = h(), h()
	if c.z0 > c.z1 {
		c.z0, c.z1 = c.z1, c.z0
	}
	if rng.IntN(8) == 0 {
		c.z1 = c.z0
	}
	d2 := oCylDist2(c.path, c.z0, c.z1, c.t)
	c.r = nearRadius(rng, d2, s.scale)
	return c, d2
}

// caseCount returns how many of n seeded cases a test runs: n with
// COLLIDE_LONG_TESTS=1, a quarter by default, a tenth with -short.
func caseCount(t *testing.T, n int) int {
	if testing.Short() {
		return n / 10
	}
	return longtest.Pick(n/4, n)
}

// TestBallOracle compares Ball with the feature-decomposition oracle, and
// the fast and exact paths separately, on seeded random cases per path kind,
// most of them near the boundary.
func TestBallOracle(t *testing.T) {
	for kind := 1; kind <= 3; kind++ {
		t.Run(fmt.Sprint("N=", kind), func(t *testing.T) {
			t.Parallel()
			rng := rand.New(rand.NewPCG(uint64(kind), 7))
			var fast, hits, fails int
			n := caseCount(t, 20000)
			for i := range n {
				c, d2 := randBall(rng, kind)
				want := within(d2, c.r)
				if want {
					hits++
				}
				if got := Ball(c.path, c.zc, c.r, c.t); got != want {
					t.Errorf("%v = %v, oracle %v", c, got, want)
					fails++
				}
				q, _ := c.path.verts()
				if fastRange(&q, c.path.N, &c.t, c.zc, c.r, 0) {
					if v := ballFast(&q, c.path.N, c.zc, c.r, &c.t, nil); v != unsure {
						fast++
						if (v == hit) != want {
							t.Errorf("fast %v = %v, oracle %v", c, v == hit, want)
							fails++
						}
					}
				}
				if i%4 == 0 && ballExact(&q, c.path.N, c.zc, c.r, &c.t, nil) != want {
					t.Errorf("exact %v = %v, oracle %v", c, !want, want)
					fails++
				}
				if fails > 10 {
					t.Fatal("too many failures")
				}
			}
			t.Logf("%d cases, %d hits, fast path decided %d", n, hits, fast)
		})
	}
}

// TestCylinderOracle compares Cylinder with the all-pairs oracle, and the
// fast and exact paths separately.
func TestCylinderOracle(t *testing.T) {
	for kind := 1; kind <= 3; kind++ {
		t.Run(fmt.Sprint("N=", kind), func(t *testing.T) {
			t.Parallel()
			rng := rand.New(rand.NewPCG(uint64(kind), 11))
			var fast, hits, fails int
			n := caseCount(t, 20000)
			for i := range n {
				c, d2 := randCyl(rng, kind)
				want := within(d2, c.r)
				if want {
					hits++
				}
				if got := Cylinder(c.path, c.r, c.z0, c.z1, c.t); got != want {
					t.Errorf("%v = %v, oracle %v", c, got, want)
					fails++
				}
				q, _ := c.path.verts()
				if fastRange(&q, c.path.N, &c.t, c.r, c.z0, c.z1) {
					if v := cylFast(&q, c.path.N, c.r, c.z0, c.z1, &c.t, nil); v != unsure {
						fast++
						if (v == hit) != want {
							t.Errorf("fast %v = %v, oracle %v", c, v == hit, want)
							fails++
						}
					}
				}
				if i%4 == 0 && cylExact(&q, c.path.N, c.r, c.z0, c.z1, &c.t, nil) != want {
					t.Errorf("exact %v = %v, oracle %v", c, !want, want)
					fails++
				}
				if fails > 10 {
					t.Fatal("too many failures")
				}
			}
			t.Logf("%d cases, %d hits, fast path decided %d", n, hits, fast)
		})
	}
}
