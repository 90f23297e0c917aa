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
	// The box of the axis slabs, or the box derived from the diagonals.
	b := d.Box()
	lo, hi := [3]float64{b.Min.X, b.Min.Y, b.Min.Z}, [3]float64{b.Max.X, b.Max.Y, b.Max.Z}
	m, s := 0.0, 0.0
	for i := range 3 {
		m = max(m, math.Abs(lo[i]), math.Abs(hi[i]))
		s = max(s, hi[i]-lo[i])
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
		vs = append(vs, v.Scale(p.unit).Add(p.c))
	}
	return vs, p.bad
}

// vtBruteVolume returns the volume of the polytope p of vertices vs (by
// vtBrute), from the areas of its faces.
func vtBruteVolume(p *vertPoly, vs []geom.Vec3) float64 {
	rel := make([]geom.Vec3, len(vs))
	for i, v := range vs {
		rel[i] = v.Sub(p.c).Scale(1 / p.unit)
	}
	return p.bruteVolume(rel) * p.unit * p.unit * p.unit
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
			if pr[s] < d.Lo[s]-tol || pr[s] > d.Hi[s]+tol {
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
		want := vtBruteVolume(&p, bs)
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
	want := map[K]int{K6: 8, K8: 12, K12: 20, K14: 24, K18: 32, K20: 36, K26: 48}
	for k, n := range want {
		if got := MaxVertices(k); got != n {
			t.Errorf("MaxVertices(%v) = %d, want %d", k, got, n)
		}
	}
	// 8 is a set since the dissertation's 8-DOP joined; 10 is none.
	for _, k := range []K{0, 10, 16, 24} {
		if got := MaxVertices(k); got != 0 {
			t.Errorf("MaxVertices(%d) = %d, want 0", int(k), got)
		}
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

// vtAdversarial returns a DOP of one of several kinds meant to hit the
// tolerances: planes through or near vertices, zero-thickness slabs, slabs
// meeting at a point or not at all, loose slabs.
func vtAdversarial(r *rand.Rand, k K, kind int) DOP {
	var pts []geom.Vec3
	switch kind {
	case 0: // random slabs, some flat, some disjoint
		d := DOP{K: k}
		for i := range k.Slabs() {
			a, b := r.NormFloat64(), r.NormFloat64()
			if i >= 3 {
				a, b = 2*a, 2*b
			}
			if r.IntN(8) == 0 {
				b = a
			}
			d.Lo[i], d.Hi[i] = min(a, b), max(a, b)
		}
		return d
	case 1: // points of a small integer grid: planes through vertices
		rg := 1 + r.IntN(4)
		for range 1 + r.IntN(12) {
			pts = append(pts, geom.V(float64(r.IntN(rg)), float64(r.IntN(rg)), float64(r.IntN(rg))))
		}
	case 2: // the same with noise from 1e-16 to 1e-8: planes near vertices
		e := math.Pow(10, -float64(8+r.IntN(9)))
		for range 1 + r.IntN(12) {
			pts = append(pts, geom.V(
				float64(r.IntN(3))+e*r.NormFloat64(),
				float64(r.IntN(3))+e*r.NormFloat64(),
				float64(r.IntN(3))+e*r.NormFloat64()))
		}
	case 3: // expanded by a tiny amount
		d := Fit(k, vtCloud(r, r.IntN(vtKinds), 1+r.IntN(20))...)
		return d.Expanded(math.Pow(10, -float64(10+r.IntN(8))))
	case 4: // cube corners with the diagonal bounds moved a little
		for range 1 + r.IntN(8) {
			pts = append(pts, geom.V(float64(r.IntN(2)), float64(r.IntN(2)), float64(r.IntN(2))))
		}
		d := Fit(k, pts...)
		for i := 3; i < k.Slabs(); i++ {
			e := math.Pow(10, -float64(9+r.IntN(9)))
			a, b := d.Lo[i]+e*r.NormFloat64(), d.Hi[i]+e*r.NormFloat64()
			d.Lo[i], d.Hi[i] = min(a, b), max(a, b)
		}
		return d
	default:
		pts = vtCloud(r, r.IntN(vtKinds), 1+r.IntN(30))
	}
	return Fit(k, pts...)
}

// vtViolation returns the largest distance from v to a halfspace of d that
// does not contain it.
func vtViolation(d *DOP, v geom.Vec3) float64 {
	var pr [MaxSlabs]float64
	d.K.Project(v, &pr)
	m := 0.0
	for i := range d.K.Slabs() {
		m = max(m, (d.Lo[i]-pr[i])/d.K.Norm(i), (pr[i]-d.Hi[i])/d.K.Norm(i))
	}
	return m
}

// vtScaled returns d scaled by s and moved by t, as the DOP of the scaled and
// moved points would be, up to rounding.
func vtScaled(d DOP, s float64, t geom.Vec3) DOP {
	var pt [MaxSlabs]float64
	d.K.Project(t, &pt)
	for i := range d.K.Slabs() {
		d.Lo[i] = d.Lo[i]*s + pt[i]
		d.Hi[i] = d.Hi[i]*s + pt[i]
	}
	return d
}

// TestVerticesAdversarial checks the contract of Vertices and Volume against
// the brute force over plane triples, on DOPs meant to hit the tolerances.
func TestVerticesAdversarial(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	scales := []float64{1, 1e-6, 3e4}
	for it := range 20000 {
		k := Ks[r.IntN(len(Ks))]
		kind := r.IntN(6)
		d := vtAdversarial(r, k, kind)
		if it%3 != 0 {
			d = vtScaled(d, scales[r.IntN(len(scales))], vtUnit(r).Scale(1e6*r.Float64()))
		}
		name := fmt.Sprintf("%d: %v kind %d", it, k, kind)
		var p vertPoly
		if !p.build(&d) {
			t.Fatalf("%s: no polytope\n%v", name, d)
		}
		if p.bad {
			t.Fatalf("%s: the cutting fell back to brute force\n%v", name, d)
		}
		tol := vtTol(&d)
		vs := d.Vertices(nil)
		if len(vs) > MaxVertices(k) {
			t.Fatalf("%s: %d vertices\n%v", name, len(vs), d)
		}
		for i, v := range vs {
			var pr [MaxSlabs]float64
			k.Project(v, &pr)
			for s := range k.Slabs() {
				if pr[s] < d.Lo[s]-tol || pr[s] > d.Hi[s]+tol {
					t.Fatalf("%s: vertex %v outside slab %d by more than %g\n%v", name, v, s, tol, d)
				}
			}
			for _, w := range vs[:i] {
				if v.Distance(w) <= tol/2 {
					t.Fatalf("%s: vertices %v and %v within tol/2\n%v", name, v, w, d)
				}
			}
		}
		// Every vertex of the exact polytope is within tol of a vertex. The
		// brute force finds the points within eps of the planes: those of a
		// polytope that is empty, but by less than eps, are not vertices.
		bs, _ := vtBrute(&d)
		for _, b := range bs {
			if vtViolation(&d, b) > tol/256 {
				continue
			}
			ok := false
			for _, v := range vs {
				ok = ok || v.Distance(b) <= tol
			}
			if !ok {
				t.Fatalf("%s: vertex %v of the brute force missed\n%v\n%v", name, b, d, vs)
			}
		}
		if p.empty || p.flat {
			if v := d.Volume(); v != 0 {
				t.Fatalf("%s: volume %g of an empty or flat polytope", name, v)
			}
			continue
		}
		want := vtBruteVolume(&p, bs)
		if vol := d.Volume(); math.Abs(vol-want) > 1e-9*want+1e3*tol*vtArea(&d) {
			t.Fatalf("%s: volume %g, from brute vertices %g\n%v", name, vol, want, d)
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
		if !k.Axes() {
			continue // the shapes below are flat for the sets with the axes (TestDiagonalSets)
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
		if k == K18 || k == K26 {
			// Slabs that meet in a segment, none of zero thickness: the
			// edge x = y = 1 of the unit cube, cut by x + y ≥ 2.
			var cube []geom.Vec3
			for c := range 8 {
				cube = append(cube, geom.V(float64(c&1), float64(c>>1&1), float64(c>>2)))
			}
			e := Fit(k, cube...)
			i := 3
			if k == K26 {
				i = 7
			}
			e.Lo[i] = 2
			vs := e.Vertices(nil)
			vtSameSet(t, "edge", vs, []geom.Vec3{geom.V(1, 1, 0), geom.V(1, 1, 1)}, 1e-12)
			if v := e.Volume(); v != 0 {
				t.Errorf("%v of the edge of a cube: volume %g", k, v)
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
	// Without the axes: the 8-DOP of the cube is the octahedron |x−½| +
	// |y−½| + |z−½| ≤ 3/2, the 12- and 20-DOPs the rhombic dodecahedron
	// around the cube (its corners and the 6 face centres pushed out by ½).
	cubeDOP := map[K]struct {
		vol float64
		nv  int
	}{K8: {4.5, 6}, K12: {2, 14}, K20: {2, 14}}
	for _, k := range Ks {
		want, ok := cubeDOP[k]
		if !ok {
			want.vol, want.nv = 1, 8
		}
		d := Fit(k, cube...)
		if v := d.Volume(); !near(v, want.vol, 1e-12) {
			t.Errorf("%v of the unit cube: volume %g, want %g", k, v, want.vol)
		}
		if vs := d.Vertices(nil); len(vs) != want.nv {
			t.Errorf("%v of the unit cube: %d vertices, want %d", k, len(vs), want.nv)
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

// TestDiagonalSets checks the sets without the axes (8, 12, 20): Box
// against the exact extent of the polytope's vertices, flat and unbounded
// DOPs, and far from the origin.
func TestDiagonalSets(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for _, k := range []K{K8, K12, K20} {
		if k.Axes() {
			t.Fatalf("%v has the axes", k)
		}
		for it := range 300 {
			off := vtUnit(r).Scale([]float64{0, 1e6, 1e-3}[it%3])
			pts := vtCloud(r, r.IntN(vtKinds), 1+r.IntN(20))
			for i := range pts {
				pts[i] = pts[i].Add(off)
			}
			d := Fit(k, pts...)
			b := d.Box()
			for _, p := range pts {
				if !b.Contains(p) || !d.Contains(p) {
					t.Fatalf("%v %d: %v outside box %v or DOP %v", k, it, p, b, d)
				}
			}
			// The box holds the polytope: every vertex within tol of it.
			tol := vtTol(&d)
			for _, v := range d.Vertices(nil) {
				if !b.Expanded(tol).Contains(v) {
					t.Fatalf("%v %d: vertex %v outside box %v", k, it, v, b)
				}
			}
		}
		// A point: its box is the point (far from the origin, padded).
		p := geom.V(0.3, -1e6, 7)
		d := Fit(k, p)
		if b := d.Box(); !b.Contains(p) || b.Size().Norm() > 1e-6 {
			t.Errorf("%v of a point: box %v", k, b)
		}
		if vs := d.Vertices(nil); len(vs) != 1 || vs[0].Distance(p) > vtTol(&d) {
			t.Errorf("%v of a point: %v", k, vs)
		}
		// A segment along (1,−1,0): the slab of (1,1,1) (8, 20) or
		// (1,1,0) (12) is flat.
		s := Fit(k, geom.V(1, 2, 3), geom.V(2, 1, 3))
		if v := s.Volume(); v != 0 {
			t.Errorf("%v of a diagonal segment: volume %g", k, v)
		}
		// Unbounded: with every upper bound infinite, the polytope runs
		// off along x (d·x ≥ 0 for every diagonal d), and so does its box.
		// One infinite bound is not enough: the other pairs bound the box.
		u := Fit(k, geom.V(0, 0, 0), geom.V(1, 1, 1))
		u.Hi[0] = math.Inf(1)
		if b := u.Box(); math.IsInf(b.Max.X, 0) || len(u.Vertices(nil)) == 0 {
			t.Errorf("%v with one infinite bound: box %v", k, b)
		}
		for i := range k.Slabs() {
			u.Hi[i] = math.Inf(1)
		}
		if vs := u.Vertices(nil); len(vs) != 0 || !math.IsInf(u.Volume(), 1) {
			t.Errorf("%v unbounded: %v, volume %g", k, vs, u.Volume())
		}
		// Empty: disjoint slabs.
		e := Fit(k, geom.V(0, 0, 0))
		e.Lo[0], e.Hi[0] = 5, 6
		if vs := e.Vertices(nil); len(vs) != 0 || e.Volume() != 0 {
			t.Errorf("%v empty: %v, volume %g", k, vs, e.Volume())
		}
	}
}
