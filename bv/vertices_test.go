package bv

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/collide3d/collide/geom"
)

// vtTol returns the tolerance of the contract of Vertices for d.
func vtTol(d *DOP) float64 {
	m, s := 0.0, 0.0
	for i := range 3 {
		m = max(m, math.Abs(d.Lo[i]), math.Abs(d.Hi[i]))
		s = max(s, d.Hi[i]-d.Lo[i])
	}
	return 0x1p-40 * (m + s)
}

// vtUnit returns a random unit vector.
func vtUnit(r *rand.Rand) geom.Vec3 {
	for {
		v := geom.V(2*r.Float64()-1, 2*r.Float64()-1, 2*r.Float64()-1)
		if n := v.Norm(); n > 0.1 && n <= 1 {
			return v.Scale(1 / n)
		}
	}
}

// vtCloud returns a random point set of one of several kinds, in about
// [-1, 1]³.
func vtCloud(r *rand.Rand, kind, n int) []geom.Vec3 {
	pts := make([]geom.Vec3, n)
	for i := range pts {
		var p geom.Vec3
		switch kind {
		case 0: // uniform in a cube
			p = geom.V(2*r.Float64()-1, 2*r.Float64()-1, 2*r.Float64()-1)
		case 1: // on a sphere
			p = vtUnit(r)
		case 2: // gaussian, anisotropic
			p = geom.V(r.NormFloat64(), 0.3*r.NormFloat64(), 0.01*r.NormFloat64())
		case 3: // small integers: many coincident and touching planes
			p = geom.V(float64(r.IntN(3)-1), float64(r.IntN(3)-1), float64(r.IntN(3)-1))
		case 4: // on the plane z = 0.25 (flat axis slab)
			p = geom.V(2*r.Float64()-1, 2*r.Float64()-1, 0.25)
		case 5: // on the plane x + y + z = 0, up to rounding
			x, y := 2*r.Float64()-1, 2*r.Float64()-1
			p = geom.V(x, y, -x-y)
		case 6: // on the plane x = y (flat edge diagonal)
			x := 2*r.Float64() - 1
			p = geom.V(x, x, 2*r.Float64()-1)
		case 7: // on a random line
			if i == 0 {
				pts[0] = vtUnit(r)
				if n > 1 {
					pts[1] = vtUnit(r)
				}
			}
			if i < 2 {
				continue
			}
			p = pts[0].Lerp(pts[1], r.Float64())
		case 8: // on the line x = y = z
			t := 2*r.Float64() - 1
			p = geom.V(t, t, t)
		case 9: // on a random plane
			if i < 3 {
				p = vtUnit(r)
			} else {
				a, b := r.Float64(), r.Float64()
				p = pts[0].Add(pts[1].Sub(pts[0]).Scale(a)).Add(pts[2].Sub(pts[0]).Scale(b))
			}
		case 10: // a thin box: width 1e-13 in z, near the tolerance
			p = geom.V(2*r.Float64()-1, 2*r.Float64()-1, 1e-13*r.Float64())
		default: // a cluster of nearly equal points
			p = geom.V(1+1e-14*r.Float64(), 1e-14*r.Float64(), -1+1e-14*r.Float64())
		}
		pts[i] = p
	}
	return pts
}

const vtKinds = 12

// vtBrute returns the vertices of d by the slow path, and whether the fast
// path failed.
func vtBrute(d *DOP) (vs []geom.Vec3, bad bool) {
	var p vertPoly
	if !p.build(d) || p.empty {
		return nil, false
	}
	var out [vertSlots]geom.Vec3
	n := p.brute(&out)
	for _, v := range out[:n] {
		vs = append(vs, v.Add(p.c))
	}
	return vs, p.bad
}

// vtCheck checks the contract of Vertices on d = Fit(k, pts...).
func vtCheck(t *testing.T, r *rand.Rand, name string, d *DOP, pts []geom.Vec3) {
	t.Helper()
	k := d.K
	tol := vtTol(d)
	vs := d.Vertices(nil)
	if len(vs) == 0 || len(vs) > MaxVertices(k) {
		t.Fatalf("%s: %d vertices, want 1..%d\n%v", name, len(vs), MaxVertices(k), d)
	}
	for i, v := range vs {
		if !v.IsFinite() {
			t.Fatalf("%s: vertex %v", name, v)
		}
		var pr [MaxSlabs]float64
		k.Project(v, &pr)
		for s := range k.Slabs() {
			if pr[s] < d.Lo[s]-2*tol || pr[s] > d.Hi[s]+2*tol {
				t.Fatalf("%s: vertex %v outside slab %d: %g not in [%g, %g] (tol %g)",
					name, v, s, pr[s], d.Lo[s], d.Hi[s], tol)
			}
		}
		for _, w := range vs[:i] {
			if v.Distance(w) < tol/2 {
				t.Fatalf("%s: vertices %v and %v closer than tol/2 = %g", name, v, w, tol/2)
			}
		}
	}
	// The DOP of the vertices is d.
	e := Fit(k, vs...)
	for s := range k.Slabs() {
		if math.Abs(e.Lo[s]-d.Lo[s]) > 2*tol || math.Abs(e.Hi[s]-d.Hi[s]) > 2*tol {
			t.Fatalf("%s: slab %d of the vertices [%g, %g], of d [%g, %g] (tol %g)",
				name, s, e.Lo[s], e.Hi[s], d.Lo[s], d.Hi[s], tol)
		}
	}
	// Every point lies in the hull of the vertices: no direction separates.
	for range 16 {
		u := vtUnit(r)
		hv := math.Inf(-1)
		for _, v := range vs {
			hv = max(hv, u.Dot(v))
		}
		for _, p := range pts {
			if u.Dot(p) > hv+tol {
				t.Fatalf("%s: point %v outside the vertices' hull along %v by %g",
					name, p, u, u.Dot(p)-hv)
			}
		}
	}
	// Same as the brute force, within tol each way.
	bs, bad := vtBrute(d)
	if bad {
		t.Fatalf("%s: the clipping fell back to brute force\n%v", name, d)
	}
	vtSameSet(t, name, vs, bs, 2*tol)
	// Volume: the face areas of the brute vertices.
	var p vertPoly
	p.build(d)
	vol := d.Volume()
	if !p.flat {
		want := p.bruteVolume(vtShift(bs, p.c.Neg()))
		if math.Abs(vol-want) > 1e-9*want+1e3*tol*vtArea(d) {
			t.Fatalf("%s: volume %g, from brute vertices %g\n%v", name, vol, want, d)
		}
	} else if vol != 0 {
		t.Fatalf("%s: volume %g of a flat DOP", name, vol)
	}
}

// vtArea bounds the surface area of d by that of its box.
func vtArea(d *DOP) float64 {
	x, y, z := d.Hi[0]-d.Lo[0], d.Hi[1]-d.Lo[1], d.Hi[2]-d.Lo[2]
	return 2 * (x*y + y*z + z*x)
}

func vtShift(vs []geom.Vec3, t geom.Vec3) []geom.Vec3 {
	out := make([]geom.Vec3, len(vs))
	for i, v := range vs {
		out[i] = v.Add(t)
	}
	return out
}

// vtSameSet checks that every point of a is within tol of b and back.
func vtSameSet(t *testing.T, name string, a, b []geom.Vec3, tol float64) {
	t.Helper()
	near := func(v geom.Vec3, s []geom.Vec3) bool {
		for _, w := range s {
			if v.Distance(w) <= tol {
				return true
			}
		}
		return false
	}
	for _, v := range a {
		if !near(v, b) {
			t.Fatalf("%s: vertex %v not within %g of the brute force's %v", name, v, tol, b)
		}
	}
	for _, v := range b {
		if !near(v, a) {
			t.Fatalf("%s: brute force vertex %v not within %g of %v", name, v, tol, a)
		}
	}
}

func TestMaxVertices(t *testing.T) {
	want := map[K]int{K6: 8, K14: 24, K18: 32, K26: 48}
	for k, n := range want {
		if got := MaxVertices(k); got != n {
			t.Errorf("MaxVertices(%v) = %d, want %d", k, got, n)
		}
	}
	if got := MaxVertices(K(8)); got != 0 {
		t.Errorf("MaxVertices(8) = %d, want 0", got)
	}
}

func TestVerticesRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	type scale struct {
		name   string
		s, off float64
	}
	scales := []scale{{"unit", 1, 0}, {"tiny", 1e-7, 0}, {"far", 1, 1e6}, {"far-small", 1e-3, 1e6}, {"large", 1e5, 3e5}}
	for _, k := range Ks {
		for kind := range vtKinds {
			for _, sc := range scales {
				for rep := range 6 {
					n := 1 + r.IntN(50)
					if rep == 0 {
						n = 1 + rep
					}
					pts := vtCloud(r, kind, n)
					off := vtUnit(r).Scale(sc.off)
					for i := range pts {
						pts[i] = pts[i].Scale(sc.s).Add(off)
					}
					d := Fit(k, pts...)
					name := fmt.Sprintf("%v/kind%d/%s/%d", k, kind, sc.name, rep)
					vtCheck(t, r, name, &d, pts)
				}
			}
		}
	}
}

func TestVerticesDegenerate(t *testing.T) {
	p := geom.V(0.3, -1e6, 7)
	for _, k := range Ks {
		// A point.
		d := Fit(k, p)
		vs := d.Vertices(nil)
		if len(vs) != 1 || vs[0].Distance(p) > vtTol(&d) {
			t.Errorf("%v of a point: %v", k, vs)
		}
		if v := d.Volume(); v != 0 {
			t.Errorf("%v of a point: volume %g", k, v)
		}
		// The origin: zero tolerance.
		d = Fit(k, geom.Vec3{})
		if vs := d.Vertices(nil); len(vs) != 1 || vs[0] != (geom.Vec3{}) {
			t.Errorf("%v of the origin: %v", k, vs)
		}
		// Segments: along an axis for every k, along (1,1,0) when it is a
		// direction.
		segs := [][2]geom.Vec3{{p, p.Add(geom.V(0, 2, 0))}}
		if k == K18 || k == K26 {
			segs = append(segs, [2]geom.Vec3{geom.V(1, 2, 3), geom.V(4, 5, 3)})
		}
		for _, s := range segs {
			d := Fit(k, s[0], s[1])
			vs := d.Vertices(nil)
			if len(vs) != 2 {
				t.Errorf("%v of segment %v: %v", k, s, vs)
			} else {
				vtSameSet(t, "segment", vs, s[:], vtTol(&d))
			}
			if v := d.Volume(); v != 0 {
				t.Errorf("%v of segment %v: volume %g", k, s, v)
			}
		}
		// An axis-aligned square.
		sq := []geom.Vec3{geom.V(1, 2, 5), geom.V(3, 2, 5), geom.V(3, 4, 5), geom.V(1, 4, 5)}
		d = Fit(k, sq...)
		vs = d.Vertices(nil)
		if len(vs) != 4 {
			t.Errorf("%v of a square: %v", k, vs)
		} else {
			vtSameSet(t, "square", vs, sq, vtTol(&d))
		}
		if v := d.Volume(); v != 0 {
			t.Errorf("%v of a square: volume %g", k, v)
		}
		// A triangle in the plane x + y + z = 0: flat for k = 14 and 26.
		tri := []geom.Vec3{geom.V(1, -1, 0), geom.V(0, 1, -1), geom.V(-1, 0, 1)}
		d = Fit(k, tri...)
		vs = d.Vertices(nil)
		if k == K14 || k == K26 {
			if v := d.Volume(); v != 0 {
				t.Errorf("%v of a triangle in x+y+z=0: volume %g", k, v)
			}
			var pr [MaxSlabs]float64
			for _, v := range vs {
				k.Project(v, &pr)
				if math.Abs(pr[3]) > 1e-12 {
					t.Errorf("%v of a triangle in x+y+z=0: vertex %v off the plane", k, v)
				}
			}
		}
		// Empty DOPs.
		e := Empty(k)
		if vs := e.Vertices(nil); len(vs) != 0 || e.Volume() != 0 {
			t.Errorf("%v empty: %v, volume %g", k, vs, e.Volume())
		}
		e = Fit(k, geom.V(0, 0, 0), geom.V(1, 1, 1))
		e.Lo[1] = math.NaN()
		if vs := e.Vertices(nil); len(vs) != 0 || e.Volume() != 0 {
			t.Errorf("%v with NaN: %v, volume %g", k, vs, e.Volume())
		}
		if k != K6 {
			// Every slab is non-empty, their intersection is.
			e = Fit(k, geom.V(0, 0, 0), geom.V(1, 1, 1))
			e.Lo[3] = 5
			e.Hi[3] = 6
			if vs := e.Vertices(nil); len(vs) != 0 || e.Volume() != 0 {
				t.Errorf("%v infeasible: %v, volume %g", k, vs, e.Volume())
			}
		}
		// Unbounded.
		u := Fit(k, geom.V(0, 0, 0), geom.V(1, 1, 1))
		u.Hi[2] = math.Inf(1)
		if vs := u.Vertices(nil); len(vs) != 0 || !math.IsInf(u.Volume(), 1) {
			t.Errorf("%v unbounded: %v, volume %g", k, vs, u.Volume())
		}
		// Loose diagonal slabs (as after Union or Expanded) leave the box.
		b := Fit(k, geom.V(0, 0, 0), geom.V(1, 2, 3))
		for i := 3; i < k.Slabs(); i++ {
			b.Lo[i], b.Hi[i] = -100, math.Inf(1)
		}
		if vs := b.Vertices(nil); len(vs) != 8 || b.Volume() != 6 {
			t.Errorf("%v with loose diagonals: %v, volume %g", k, vs, b.Volume())
		}
	}
}

func TestVolume(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	near := func(got, want, rel float64) bool { return math.Abs(got-want) <= rel*math.Abs(want) }
	// Boxes.
	d := Fit(K6, geom.V(1, 2, 3), geom.V(1.5, 4, 7))
	if v := d.Volume(); !near(v, 0.5*2*4, 1e-15) {
		t.Errorf("box volume %g, want 4", v)
	}
	// The unit cube: the diagonal planes touch it at corners and edges.
	var cube []geom.Vec3
	for i := range 8 {
		cube = append(cube, geom.V(float64(i&1), float64(i>>1&1), float64(i>>2)))
	}
	for _, k := range Ks {
		d := Fit(k, cube...)
		if v := d.Volume(); !near(v, 1, 1e-12) {
			t.Errorf("%v of the unit cube: volume %g", k, v)
		}
		if vs := d.Vertices(nil); len(vs) != 8 {
			t.Errorf("%v of the unit cube: %d vertices", k, len(vs))
		}
	}
	// The regular octahedron is a 14-DOP (and a 26-DOP).
	oct := []geom.Vec3{geom.V(1, 0, 0), geom.V(-1, 0, 0), geom.V(0, 1, 0), geom.V(0, -1, 0), geom.V(0, 0, 1), geom.V(0, 0, -1)}
	for _, k := range []K{K14, K26} {
		d := Fit(k, oct...)
		if v := d.Volume(); !near(v, 4.0/3, 1e-12) {
			t.Errorf("%v of the octahedron: volume %g, want 4/3", k, v)
		}
		vs := d.Vertices(nil)
		if len(vs) != 6 {
			t.Errorf("%v of the octahedron: %v", k, vs)
		} else {
			vtSameSet(t, "octahedron", vs, oct, 1e-12)
		}
	}
	// Monte Carlo on the 14-DOP of a ball.
	pts := vtCloud(r, 1, 200)
	d = Fit(K14, pts...)
	const samples = 20000
	in := 0
	for range samples {
		p := geom.V(
			d.Lo[0]+r.Float64()*(d.Hi[0]-d.Lo[0]),
			d.Lo[1]+r.Float64()*(d.Hi[1]-d.Lo[1]),
			d.Lo[2]+r.Float64()*(d.Hi[2]-d.Lo[2]))
		if d.Contains(p) {
			in++
		}
	}
	mc := float64(in) / samples * (d.Hi[0] - d.Lo[0]) * (d.Hi[1] - d.Lo[1]) * (d.Hi[2] - d.Lo[2])
	if v := d.Volume(); !near(v, mc, 0.03) {
		t.Errorf("14-DOP of a ball: volume %g, Monte Carlo %g", v, mc)
	}
	// Scale and translation invariance.
	for _, k := range Ks {
		pts := vtCloud(r, 0, 30)
		d := Fit(k, pts...)
		v := d.Volume()
		for _, s := range []float64{1e-6, 0.37, 1e4} {
			sp := make([]geom.Vec3, len(pts))
			for i, p := range pts {
				sp[i] = p.Scale(s)
			}
			ds := Fit(k, sp...)
			if vs := ds.Volume(); !near(vs, s*s*s*v, 1e-9) {
				t.Errorf("%v: volume %g at scale %g, want %g", k, vs, s, s*s*s*v)
			}
			for i := range sp {
				sp[i] = pts[i].Add(geom.V(1e6, -2e6, 5e5))
			}
			dt := Fit(k, sp...)
			if vt := dt.Volume(); !near(vt, v, 1e-6) {
				t.Errorf("%v: volume %g translated, want %g", k, vt, v)
			}
		}
	}
}

// TestVerticesMax checks that the maximum count is reached: the k-DOP of a
// dense sample of a sphere is a simple polytope with every face present.
func TestVerticesMax(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	pts := vtCloud(r, 1, 2000)
	for _, k := range Ks {
		d := Fit(k, pts...)
		if n := len(d.Vertices(nil)); n != MaxVertices(k) {
			t.Errorf("%v of a sphere: %d vertices, want %d", k, n, MaxVertices(k))
		}
	}
}

func TestVerticesAllocs(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	pts := vtCloud(r, 1, 100)
	buf := make([]geom.Vec3, 0, 48)
	for _, k := range Ks {
		d := Fit(k, pts...)
		if a := testing.AllocsPerRun(10, func() { buf = d.Vertices(buf[:0]) }); a != 0 {
			t.Errorf("%v: Vertices allocates %g times", k, a)
		}
		if a := testing.AllocsPerRun(10, func() { _ = d.Volume() }); a != 0 {
			t.Errorf("%v: Volume allocates %g times", k, a)
		}
	}
}

// vtBenchDOPs returns k-DOPs of random clouds of 30 points on a sphere, the
// case of many vertices.
func vtBenchDOPs(k K) []DOP {
	r := rand.New(rand.NewPCG(1, 1))
	ds := make([]DOP, 64)
	for i := range ds {
		ds[i] = Fit(k, vtCloud(r, 1, 30)...)
	}
	return ds
}

func BenchmarkVertices(b *testing.B) {
	for _, k := range Ks {
		b.Run(fmt.Sprint(int(k)), func(b *testing.B) {
			ds := vtBenchDOPs(k)
			buf := make([]geom.Vec3, 0, MaxVertices(k))
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				buf = ds[i&63].Vertices(buf[:0])
				i++
			}
		})
	}
}

func BenchmarkVolume(b *testing.B) {
	for _, k := range Ks {
		b.Run(fmt.Sprint(int(k)), func(b *testing.B) {
			ds := vtBenchDOPs(k)
			b.ReportAllocs()
			i := 0
			sum := 0.0
			for b.Loop() {
				sum += ds[i&63].Volume()
				i++
			}
			_ = sum
		})
	}
}
