package rgrid_test

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/collide3d/collide/broad/broadtest"
	"github.com/collide3d/collide/broad/rgrid"
	"github.com/collide3d/collide/bv"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/internal/longtest"
)

// ballMeetsBox decides |c − b|² ≤ r² in rational arithmetic: the oracle's
// own test, written without the package's filter.
func ballMeetsBox(s bv.Sphere, b geom.AABB) bool {
	if s.R < 0 {
		return false
	}
	var sum, d, t big.Rat
	for a := range 3 {
		c, lo, hi := s.C.Index(a), b.Min.Index(a), b.Max.Index(a)
		switch {
		case c < lo:
			d.SetFloat64(lo)
			d.Sub(&d, t.SetFloat64(c))
		case c > hi:
			d.SetFloat64(c)
			d.Sub(&d, t.SetFloat64(hi))
		default:
			continue
		}
		d.Mul(&d, &d)
		sum.Add(&sum, &d)
	}
	t.SetFloat64(s.R)
	t.Mul(&t, &t)
	return sum.Cmp(&t) <= 0
}

// sphereOracle is a brute-force broad phase with spheres: every pair of
// objects, the contract of broad.Spheres tested literally.
type sphereOracle struct {
	box     []geom.AABB
	sph     [][]bv.Sphere
	static  []bool
	present []bool
	moved   map[int32]bool
}

func (o *sphereOracle) grow(id int32) {
	for int(id) >= len(o.box) {
		o.box = append(o.box, geom.AABB{})
		o.sph = append(o.sph, nil)
		o.static = append(o.static, false)
		o.present = append(o.present, false)
	}
}

func (o *sphereOracle) ok(a, b int32) bool {
	if len(o.sph[a]) == 0 {
		return true
	}
	for _, s := range o.sph[a] {
		if ballMeetsBox(s, o.box[b]) {
			return true
		}
	}
	return false
}

func (o *sphereOracle) pairs() []broadtest.Pair {
	var out []broadtest.Pair
	for a := range int32(len(o.box)) {
		for b := a + 1; b < int32(len(o.box)); b++ {
			if !o.present[a] || !o.present[b] || (o.static[a] && o.static[b]) || (!o.moved[a] && !o.moved[b]) {
				continue
			}
			if o.box[a].Overlaps(o.box[b]) && o.ok(a, b) && o.ok(b, a) {
				out = append(out, broadtest.Pair{A: a, B: b})
			}
		}
	}
	clear(o.moved)
	return out
}

// sphereScene drives a phase and the oracle together.
type sphereScene struct {
	r  *rand.Rand
	p  *rgrid.Phase
	o  *sphereOracle
	q  float64 // the lattice step: coordinates are multiples of it
	id int32
}

func (s *sphereScene) add(id int32, b geom.AABB, static bool, sph []bv.Sphere) {
	s.o.grow(id)
	s.p.Add(id, b, static)
	s.o.box[id], s.o.static[id], s.o.present[id], s.o.sph[id] = b, static, true, nil
	s.o.moved[id] = true
	s.setSpheres(id, sph)
}

func (s *sphereScene) move(id int32, b geom.AABB, sph []bv.Sphere) {
	s.p.Move(id, b)
	s.o.box[id], s.o.static[id], s.o.sph[id] = b, false, nil
	s.o.moved[id] = true
	s.setSpheres(id, sph)
}

func (s *sphereScene) setSpheres(id int32, sph []bv.Sphere) {
	if sph != nil {
		s.p.SetSpheres(id, sph)
		s.o.sph[id] = slices.Clone(sph)
	}
}

// lat returns a random multiple of the lattice step in [lo, hi].
func (s *sphereScene) lat(lo, hi float64) float64 {
	n := int((hi - lo) / s.q)
	return lo + float64(s.r.IntN(n+1))*s.q
}

// staticBox returns a static box: a cube of the paper's 0.069 side or a
// random lattice box, in the unit cube.
func (s *sphereScene) staticBox() geom.AABB {
	if s.r.IntN(2) == 0 {
		c := geom.V(s.r.Float64(), s.r.Float64(), s.r.Float64())
		h := geom.V(0.0345, 0.0345, 0.0345)
		return geom.AABB{Min: c.Sub(h), Max: c.Add(h)}
	}
	lo := geom.V(s.lat(0, 0.9), s.lat(0, 0.9), s.lat(0, 0.9))
	sz := geom.V(s.lat(0, 0.2), s.lat(0, 0.2), s.lat(0, 0.2))
	return geom.AABB{Min: lo, Max: lo.Add(sz)}
}

// mover returns a moving object's box and its spheres: a few spheres with
// lattice centres in the box and lattice radii, some placed to touch a
// static box exactly (at a face, or at a corner through a 3-4-5 triangle)
// or to miss it by one ulp, and sometimes no spheres at all.
func (s *sphereScene) mover() (geom.AABB, []bv.Sphere) {
	lo := geom.V(s.lat(-0.1, 0.95), s.lat(-0.1, 0.95), s.lat(-0.1, 0.95))
	sz := geom.V(s.lat(0, 0.25), s.lat(0, 0.25), s.lat(0, 0.25))
	b := geom.AABB{Min: lo, Max: lo.Add(sz)}
	if s.r.IntN(8) == 0 {
		return b, nil
	}
	n := 1 + s.r.IntN(9)
	sph := make([]bv.Sphere, n)
	for i := range sph {
		c := geom.V(s.lat(lo.X, b.Max.X), s.lat(lo.Y, b.Max.Y), s.lat(lo.Z, b.Max.Z))
		sph[i] = bv.Sphere{C: c, R: s.lat(0, 0.1)}
		if s.r.IntN(10) == 0 {
			sph[i].R = -1 // empty
		}
	}
	// Touch a static box exactly, or miss it by an ulp.
	if s.id > 0 && s.r.IntN(2) == 0 {
		k := int32(s.r.IntN(int(s.id)))
		if s.o.present[k] && s.o.static[k] {
			t := s.o.box[k]
			k := s.r.IntN(len(sph))
			u := s.q * float64(1+s.r.IntN(4))
			switch s.r.IntN(3) {
			case 0: // face
				sph[k] = bv.Sphere{C: geom.V(t.Max.X+5*u, (t.Min.Y+t.Max.Y)/2, (t.Min.Z+t.Max.Z)/2), R: 5 * u}
			case 1: // corner: distance (3u, 4u, 0) = 5u
				sph[k] = bv.Sphere{C: geom.V(t.Max.X+3*u, t.Max.Y+4*u, t.Max.Z), R: 5 * u}
			case 2: // corner: distance (2u, 3u, 6u) = 7u
				sph[k] = bv.Sphere{C: geom.V(t.Min.X-2*u, t.Max.Y+3*u, t.Min.Z-6*u), R: 7 * u}
			}
			switch s.r.IntN(3) {
			case 0:
				sph[k].R = math.Nextafter(sph[k].R, 0)
			case 1:
				sph[k].R = math.Nextafter(sph[k].R, 1)
			}
			c := sph[k].C
			b = b.Union(geom.AABB{Min: c, Max: c})
		}
	}
	return b, sph
}

// TestSpheresOracle plays seeded scenes of static boxes in the unit cube
// and moving objects bounded by spheres (and some by their box alone),
// with exact touches and one-ulp misses, against the brute-force oracle,
// from two seeds (four with COLLIDE_LONG_TESTS=1).
func TestSpheresOracle(t *testing.T) {
	for _, os := range optionSets {
		t.Run(os.name, func(t *testing.T) {
			var exact int64
			for seed := range uint64(longtest.Pick(2, 4)) { // a dyadic step and not
				exact += playSpheres(t, os.opt, seed)
			}
			if exact == 0 {
				t.Errorf("no sphere-box test reached the exact path")
			}
		})
	}
}

func playSpheres(t *testing.T, opt rgrid.Options, seed uint64) int64 {
	s := &sphereScene{
		r: rand.New(rand.NewPCG(seed, 0x737068)),
		p: rgrid.New(opt),
		o: &sphereOracle{moved: map[int32]bool{}},
		q: 1.0 / 64,
	}
	if seed%2 == 1 {
		s.q = 0.1 // not a dyadic step: touches within rounding
	}
	for range 60 {
		sph := []bv.Sphere(nil)
		b := s.staticBox()
		if s.r.IntN(10) == 0 {
			c := b.Center()
			sph = []bv.Sphere{{C: c, R: b.Size().X / 3}}
		}
		s.add(s.id, b, true, sph)
		s.id++
	}
	for range 25 {
		b, sph := s.mover()
		s.add(s.id, b, false, sph)
		s.id++
	}
	for step := range 40 {
		if step > 0 {
			for id := range s.id {
				switch x := s.r.IntN(20); {
				case !s.o.present[id]:
					if x < 4 {
						b, sph := s.mover()
						s.add(id, b, x == 0, sph)
					}
				case s.o.static[id]:
					if x == 0 {
						s.p.Remove(id)
						s.o.present[id] = false
					}
				case x < 8:
					b, sph := s.mover()
					s.move(id, b, sph)
				case x == 8:
					s.p.Remove(id)
					s.o.present[id] = false
				}
			}
		}
		want := s.o.pairs()
		got, err := broadtest.Collect(s.p)
		if err != nil {
			t.Fatalf("seed %d step %d: %v", seed, step, err)
		}
		if !slices.Equal(got, want) {
			t.Fatalf("seed %d step %d: %d pairs, want %d\n%s", seed, step, len(got), len(want), pairDiff(got, want, s.o))
		}
		if err := s.p.Check(); err != nil {
			t.Fatalf("seed %d step %d: %v", seed, step, err)
		}
	}
	return s.p.Stats().ExactSphereTests
}

func pairDiff(got, want []broadtest.Pair, o *sphereOracle) string {
	in := func(l []broadtest.Pair, p broadtest.Pair) bool { return slices.Contains(l, p) }
	out := ""
	for _, p := range want {
		if !in(got, p) {
			out += fmt.Sprintf("missing %v: %v %v static %v / %v %v static %v\n", p, o.box[p.A], o.sph[p.A], o.static[p.A], o.box[p.B], o.sph[p.B], o.static[p.B])
		}
	}
	for _, p := range got {
		if !in(want, p) {
			out += fmt.Sprintf("extra %v: %v %v / %v %v\n", p, o.box[p.A], o.sph[p.A], o.box[p.B], o.sph[p.B])
		}
	}
	return out
}
