package sep_test

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/internal/testgeom"
	"github.com/collide3d/collide/mesh"
	"github.com/collide3d/collide/mesh/gen"
	"github.com/collide3d/collide/sep"
)

// ratDot returns n·x exactly.
func ratDot(n, x geom.Vec3) *big.Rat {
	s := new(big.Rat)
	for i := range 3 {
		a, b := new(big.Rat).SetFloat64(n.Index(i)), new(big.Rat).SetFloat64(x.Index(i))
		s.Add(s, a.Mul(a, b))
	}
	return s
}

// separatesExactly reports, in rational arithmetic, whether n separates
// the points of a from those of b placed by p (as p.Apply computes them):
// max n·a < min n·p.Apply(b).
func separatesExactly(a, b []geom.Vec3, p geom.Pose, n geom.Vec3) bool {
	var hi *big.Rat
	for _, x := range a {
		if d := ratDot(n, x); hi == nil || d.Cmp(hi) > 0 {
			hi = d
		}
	}
	for _, x := range b {
		if ratDot(n, p.Apply(x)).Cmp(hi) <= 0 {
			return false
		}
	}
	return true
}

func randomPose(rng *rand.Rand, dist float64) geom.Pose {
	axis := geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64())
	t := geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()).Unit().Scale(dist)
	return geom.FromAxisAngle(axis, rng.Float64()*2*math.Pi, t)
}

// TestApartRandom puts Apart's planes to an exact rational check on random
// clouds at random poses, near and far, and asks it to find a plane for
// every pair whose bounding spheres are clearly apart.
func TestApartRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var proved, apart int
	for i := range 300 {
		pa := testgeom.SpherePoints(rng, 5+rng.IntN(60), 1, geom.Vec3{})
		pb := testgeom.BoxPoints(rng, 5+rng.IntN(60))
		if i%3 == 0 {
			pa, pb = pb, pa
		}
		a, b := sep.NewShape(pa), sep.NewShape(pb)
		dist := rng.Float64() * 5
		p := randomPose(rng, dist)
		var c sep.Cache
		out := sep.Apart(a, b, p, 0, &c)
		if out != sep.NotProved {
			proved++
			n, ok := c.Dir()
			if !ok {
				t.Fatalf("case %d: %v with no direction cached", i, out)
			}
			if !separatesExactly(pa, pb, p, n) {
				t.Fatalf("case %d: %v, but %v does not separate the points exactly", i, out, n)
			}
			if !sep.Separates(a, b, p, n, 0) {
				t.Errorf("case %d: Separates refuses the direction Apart proved", i)
			}
		}
		// The clouds lie in the unit ball (spheres) and [-1,1]³ (boxes,
		// within √3 of the origin): beyond 1+√3 they are apart.
		if dist > 1+math.Sqrt(3)+1e-3 {
			apart++
			if out == sep.NotProved {
				t.Errorf("case %d: clouds %g apart not proved", i, dist)
			}
		}
	}
	t.Logf("%d proved of 300, %d clearly apart", proved, apart)
	if proved == 0 || apart == 0 {
		t.Fatalf("proved %d, apart %d: the test tests nothing", proved, apart)
	}
}

// scene is an adversarial pair of models for the convex test.
type scene struct {
	name     string
	env, fly *mesh.TriMesh
	pose     geom.Pose
	eps      float64
	// apart: whether Apart must prove them apart (else it must not or may
	// not: the oracle decides).
	mustProve bool
}

func unitBox() *mesh.TriMesh {
	return gen.Must(gen.Box(geom.AABB{Min: geom.V(0, 0, 0), Max: geom.V(1, 1, 1)}, 1))
}

func tetra(apex geom.Vec3, down bool) *mesh.TriMesh {
	// A tetrahedron with the given apex, its base 1 below (or above) it.
	s := 1.0
	if !down {
		s = -1
	}
	v := []geom.Vec3{apex, apex.Add(geom.V(-0.5, -0.5, s)), apex.Add(geom.V(0.5, -0.5, s)), apex.Add(geom.V(0, 0.5, s))}
	return &mesh.TriMesh{Verts: v, Tris: [][3]int32{{0, 1, 2}, {0, 2, 3}, {0, 3, 1}, {1, 3, 2}}}
}

func adversarial() []scene {
	ulp := math.Nextafter(1, 2)
	rot := geom.FromAxisAngle(geom.V(0, 0, 1), math.Pi/2, geom.V(2, 0, 0)) // cos(π/2) rounds to 6e-17
	far := 1e9
	var ss []scene
	for _, off := range []float64{0, far} {
		o := geom.V(off, off, off)
		env := testgeom.Far(unitBox(), off)
		ss = append(ss,
			scene{name: "face on face", env: env, fly: unitBox(), pose: geom.Translation(o.Add(geom.V(1, 0, 0)))},
			scene{name: "face on face, shifted", env: env, fly: unitBox(), pose: geom.Translation(o.Add(geom.V(1, 0.5, 0.25)))},
			scene{name: "edge on edge", env: env, fly: unitBox(), pose: geom.Translation(o.Add(geom.V(1, 1, 0)))},
			scene{name: "vertex on vertex", env: env, fly: unitBox(), pose: geom.Translation(o.Add(geom.V(1, 1, 1)))},
			scene{name: "vertex on face", env: env, fly: tetra(geom.V(0.5, 0.5, 1), false), pose: geom.Translation(o)},
			scene{name: "rotated, touching", env: env, fly: unitBox(), pose: geom.Pose{R: rot.R, T: o.Add(geom.V(2, 0, 0))}},
			scene{name: "rotated, apart", env: env, fly: unitBox(), pose: geom.Pose{R: rot.R, T: o.Add(geom.V(2.001, 0, 0))}, mustProve: true},
			scene{name: "one ulp apart", env: env, fly: unitBox(), pose: geom.Translation(o.Add(geom.V(ulp, 0, 0)))},
			scene{name: "coplanar faces overlapping", env: env, fly: unitBox(), pose: geom.Translation(o.Add(geom.V(0.5, 0.5, 0)))},
			scene{name: "apart by 1e-3", env: env, fly: unitBox(), pose: geom.Translation(o.Add(geom.V(1.001, 0, 0))), mustProve: true},
			scene{name: "within eps", env: env, fly: unitBox(), pose: geom.Translation(o.Add(geom.V(1.001, 0, 0))), eps: 0.001},
			scene{name: "beyond eps", env: env, fly: unitBox(), pose: geom.Translation(o.Add(geom.V(1.01, 0, 0))), eps: 0.001, mustProve: true},
		)
	}
	// A point below the first ulp: touching at the origin's scale.
	ss = append(ss, scene{name: "tiny apart", env: unitBox(), fly: testgeom.Tiny(unitBox(), 1e-300), pose: geom.Translation(geom.V(1+1e-9, 0, 0)), mustProve: true})
	return ss
}

// used returns the vertices m's triangles use.
func used(m *mesh.TriMesh) []geom.Vec3 {
	var pts []geom.Vec3
	for _, t := range m.Tris {
		for _, x := range t {
			pts = append(pts, m.Verts[x])
		}
	}
	return pts
}

// TestApartAdversarial checks Apart against the exact all-pairs oracle on
// touching, coplanar, one-ulp and far-from-the-origin pairs: never "apart"
// when a pair of triangles is in contact (or within eps).
func TestApartAdversarial(t *testing.T) {
	for _, s := range adversarial() {
		pa, pb := used(s.env), used(s.fly)
		a, b := sep.NewShape(pa), sep.NewShape(pb)
		var c sep.Cache
		out := sep.Apart(a, b, s.pose, s.eps, &c)
		pairs := testgeom.Brute(s.env, s.fly, s.pose, s.eps)
		switch {
		case out != sep.NotProved && len(pairs) > 0:
			t.Errorf("%s: %v, but %d pairs in contact (first %v)", s.name, out, len(pairs), pairs[0])
		case out == sep.NotProved && s.mustProve:
			t.Errorf("%s: not proved, want apart (oracle: %d pairs)", s.name, len(pairs))
		}
		if out != sep.NotProved {
			n, _ := c.Dir()
			if !separatesExactly(pa, pb, s.pose, n) {
				t.Errorf("%s: %v does not separate exactly", s.name, n)
			}
		}
		// A second call starts from the cache: the same answer.
		if out2 := sep.Apart(a, b, s.pose, s.eps, &c); (out2 == sep.NotProved) != (out == sep.NotProved) {
			t.Errorf("%s: %v, then %v from the cache", s.name, out, out2)
		}
	}
}

// TestApartCache moves a shape past another a little at a time: the cached
// plane proves most steps, and none is proved wrongly.
func TestApartCache(t *testing.T) {
	sa := gen.Must(gen.Icosphere(geom.Vec3{}, 1, 320))
	sb := gen.Must(gen.Cylinder(0.5, 1, 120))
	a, b := sep.NewShape(sa.Verts), sep.NewShape(sb.Verts)
	var c sep.Cache
	count := map[sep.Outcome]int{}
	apartMissed := 0
	for i := range 400 {
		ang := float64(i) * 0.01
		p := geom.FromAxisAngle(geom.V(1, 1, 0), ang, geom.V(-4+0.02*float64(i), 0.3, 0))
		out := sep.Apart(a, b, p, 0, &c)
		count[out]++
		contact := len(testgeom.Brute(sa, sb, p, 0)) > 0
		if out != sep.NotProved && contact {
			t.Fatalf("step %d: %v while in contact", i, out)
		}
		if out == sep.NotProved {
			c.Touching(contact) // as collide's query does after its tree test
			// Beyond 1.75 the cylinder (within 0.71 of its centre) is
			// outside the sphere's hull: apart means a plane exists.
			if !contact && p.T.Norm() > 1.75 {
				apartMissed++
			}
		}
	}
	t.Logf("outcomes %v", count)
	if apartMissed > 0 {
		t.Errorf("%d steps with the hulls apart not proved: the pair leaving contact should find a plane at once", apartMissed)
	}
	if count[sep.Cached] < 100 || count[sep.New] == 0 || count[sep.NotProved] == 0 {
		t.Errorf("outcomes %v: want many cached, some new and some not proved (the shapes pass through each other)", count)
	}
}

func TestApartAllocs(t *testing.T) {
	a := sep.NewShape(gen.Must(gen.Icosphere(geom.Vec3{}, 1, 320)).Verts)
	b := sep.NewShape(gen.Must(gen.Box(geom.AABB{Min: geom.V(-1, -1, -1), Max: geom.V(1, 1, 1)}, 2)).Verts)
	var c sep.Cache
	i := 0
	allocs := testing.AllocsPerRun(100, func() {
		i++
		sep.Apart(a, b, geom.FromAxisAngle(geom.V(0, 1, 1), float64(i)*0.1, geom.V(2.5+float64(i%3), 0, 0)), 0, &c)
	})
	if allocs != 0 {
		t.Errorf("Apart allocates %v times a call", allocs)
	}
}

func TestApartEmpty(t *testing.T) {
	a := sep.NewShape(nil)
	b := sep.NewShape([]geom.Vec3{{X: 1}})
	if out := sep.Apart(a, b, geom.Pose{}, 0, nil); out != sep.NotProved {
		t.Errorf("empty shape: %v", out)
	}
	if out := sep.Apart(b, b, geom.Translation(geom.V(1, 0, 0)), 0, nil); out != sep.New {
		t.Errorf("two points 1 apart: %v, want new", out)
	}
	if out := sep.Apart(b, b, geom.Pose{}, 0, nil); out != sep.NotProved {
		t.Errorf("one point on itself: %v", out)
	}
}
