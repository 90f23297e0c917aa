package bv

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/collide3d/collide/geom"
)

// randRot returns a random rotation matrix.
func randRot(rng *rand.Rand) geom.Mat3 {
	p := geom.FromAxisAngle(geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()), rng.Float64()*6.3, geom.Vec3{})
	return p.R
}

// boxPoint returns a random point of the box of half-extents h about c
// along the rows of ax, on its boundary with probability 1/2 per axis.
func boxPoint(rng *rand.Rand, c geom.Vec3, ax *geom.Mat3, h geom.Vec3) geom.Vec3 {
	p := c
	for k := range 3 {
		u := 2*rng.Float64() - 1
		if rng.IntN(2) == 0 {
			u = math.Copysign(1, u)
		}
		p = p.Add(ax.Row(k).Scale(u * h.Index(k)))
	}
	return p
}

// TestOBBSeparation checks OBBSeparation (and OBBFacesSeparation) against
// OBBDisjoint (OBBFacesDisjoint): positive exactly when they report true,
// on random boxes near contact; and that it bounds the distance between
// points of the boxes (sampled, with their closest corners).
func TestOBBSeparation(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	pos, n := 0, 20000
	for i := range n {
		a := geom.V(rng.Float64(), rng.Float64(), rng.Float64())
		b := geom.V(rng.Float64(), rng.Float64(), rng.Float64())
		if i%7 == 0 {
			a.Z = 0 // flat
		}
		ra, rb := randRot(rng), randRot(rng)
		if i%5 == 0 {
			rb = ra // parallel
		}
		ca := geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64())
		cb := ca.Add(geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()).Scale(1.5))
		pad := 0.0
		if i%2 == 0 {
			pad = 0.1 * rng.Float64()
		}
		// b in a's frame: r = Ra·Rbᵀ (rows of Ra are a's axes), t = Ra·(cb − ca).
		var r, absR geom.Mat3
		for x := range 3 {
			for y := range 3 {
				r[x][y] = ra.Row(x).Dot(rb.Row(y))
				absR[x][y] = math.Abs(r[x][y])
			}
		}
		tt := ra.MulVec(cb.Sub(ca))
		s := OBBSeparation(a, b, &r, &absR, tt, pad)
		if (s > 0) != OBBDisjoint(a, b, &r, &absR, tt, pad) {
			t.Fatalf("case %d: separation %g, OBBDisjoint %v", i, s, !(s > 0))
		}
		sf := OBBFacesSeparation(a, b, &r, &absR, tt, pad)
		if (sf > 0) != OBBFacesDisjoint(a, b, &r, &absR, tt, pad) || sf > s {
			t.Fatalf("case %d: faces separation %g (all %g), OBBFacesDisjoint %v", i, sf, s, OBBFacesDisjoint(a, b, &r, &absR, tt, pad))
		}
		if s <= 0 {
			continue
		}
		pos++
		for range 30 {
			p, q := boxPoint(rng, ca, &ra, a), boxPoint(rng, cb, &rb, b)
			if d := p.Sub(q).Norm(); d < s+pad-1e-12 {
				t.Fatalf("case %d: points %g apart, separation %g + pad %g", i, d, s, pad)
			}
		}
	}
	if pos < n/10 || pos > 9*n/10 {
		t.Errorf("%d of %d cases separated: a weak test", pos, n)
	}
}

// TestTriBoxFaceSeparation checks the face separations of triangles and
// boxes against TriBoxDisjoint and TriAxes.BoxDisjoint: positive only when
// they report true, and exactly when the face axes separate (the box's
// faces, taken alone); and that they bound the gap along the axes.
func TestTriBoxFaceSeparation(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	pos, n := 0, 20000
	for i := range n {
		h := geom.V(rng.Float64(), rng.Float64(), rng.Float64())
		c := geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()).Scale(0.5)
		var tri [3]geom.Vec3
		o := geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()).Scale(0.8)
		for k := range tri {
			tri[k] = o.Add(geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()).Scale(0.3))
		}
		pad := 0.0
		if i%2 == 0 {
			pad = 0.05 * rng.Float64()
		}
		a, b, cc := tri[0].Sub(c), tri[1].Sub(c), tri[2].Sub(c)
		s := TriBoxFaceSeparation(a, b, cc, h, pad)
		// The face axes alone: the triangle's padded box against the box.
		lo, hi := a.Min(b).Min(cc), a.Max(b).Max(cc)
		faces := lo.X > h.X+pad || hi.X < -h.X-pad || lo.Y > h.Y+pad || hi.Y < -h.Y-pad || lo.Z > h.Z+pad || hi.Z < -h.Z-pad
		if (s > 0) != faces || s > 0 && !TriBoxDisjoint(a, b, cc, h, pad) {
			t.Fatalf("case %d: face separation %g, faces %v, TriBoxDisjoint %v", i, s, faces, TriBoxDisjoint(a, b, cc, h, pad))
		}
		ta := PrepareTri(tri[0], tri[1], tri[2], pad)
		fs := ta.FaceSeparation(c, h)
		if fs > 0 && !ta.BoxDisjoint(c, h) || (fs > 0) != (s > 0) && math.Abs(s) > 1e-12 {
			t.Fatalf("case %d: prepared face separation %g, plain %g, BoxDisjoint %v", i, fs, s, ta.BoxDisjoint(c, h))
		}
		if s > 0 {
			pos++
			// Every point of the triangle is at least s + pad from the box.
			for range 20 {
				u, v := rng.Float64(), rng.Float64()
				if u+v > 1 {
					u, v = 1-u, 1-v
				}
				p := a.Add(b.Sub(a).Scale(u)).Add(cc.Sub(a).Scale(v))
				q := geom.V(max(-h.X, min(h.X, p.X)), max(-h.Y, min(h.Y, p.Y)), max(-h.Z, min(h.Z, p.Z)))
				if d := p.Sub(q).Norm(); d < s+pad-1e-12 {
					t.Fatalf("case %d: a point %g from the box, separation %g + pad %g", i, d, s, pad)
				}
			}
		}
	}
	if pos < n/10 || pos > 9*n/10 {
		t.Errorf("%d of %d cases separated: a weak test", pos, n)
	}
}

// TestSphereSeparation checks SphereSeparation against the sphere test
// d·d ≤ rr·rr and against the exact distance.
func TestSphereSeparation(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for i := range 20000 {
		d := geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64())
		rr := d.Norm() * (1 + (rng.Float64()-0.5)*0.2)
		if i%3 == 0 {
			// At the boundary, to the ulp.
			rr = math.Nextafter(d.Norm(), math.Inf(rng.IntN(2)*2-1))
		}
		g := SphereSeparation(d, rr)
		if (g > 0) != !(d.Dot(d) <= rr*rr) {
			t.Fatalf("case %d: separation %g, d·d %g, rr² %g", i, g, d.Dot(d), rr*rr)
		}
		if g > 0x1p-1000 && d.Norm()-rr < g*(1-1e-15) {
			t.Fatalf("case %d: separation %g above |d| − rr = %g", i, g, d.Norm()-rr)
		}
	}
}

// TestRSSSeparation checks RSSSeparation against RSSDisjoint (positive
// exactly when it reports true) and against the distance between sampled
// points of the two volumes.
func TestRSSSeparation(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	pos, n := 0, 5000
	for i := range n {
		a := &RSS{Axes: randRot(rng), C: geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()), L: [2]float64{rng.Float64(), rng.Float64()}, R: 0.2 * rng.Float64()}
		b := &RSS{Axes: randRot(rng), C: a.C.Add(geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()).Scale(0.8)), L: [2]float64{rng.Float64(), rng.Float64()}, R: 0.2 * rng.Float64()}
		if i%5 == 0 {
			b.Axes = a.Axes
		}
		var r geom.Mat3
		for x := range 3 {
			for y := range 3 {
				r[x][y] = a.Axes.Row(x).Dot(b.Axes.Row(y))
			}
		}
		tt := a.Axes.MulVec(b.C.Sub(a.C))
		pad := 0.0
		if i%2 == 0 {
			pad = 0.05 * rng.Float64()
		}
		g := RSSSeparation(a, b, &r, tt, pad)
		if (g > 0) != RSSDisjoint(a, b, &r, tt, pad) {
			t.Fatalf("case %d: separation %g, RSSDisjoint %v", i, g, RSSDisjoint(a, b, &r, tt, pad))
		}
		if !(g > 0) {
			continue
		}
		pos++
		rect := func(v *RSS) geom.Vec3 {
			x := v.C.Add(v.Axes.Row(0).Scale((2*rng.Float64() - 1) * v.L[0])).Add(v.Axes.Row(1).Scale((2*rng.Float64() - 1) * v.L[1]))
			return x
		}
		for range 50 {
			// Points of the rectangles: the volumes' points are within R.
			p, q := rect(a), rect(b)
			if d := p.Sub(q).Norm() - a.R - b.R; d < pad+g-1e-12 {
				t.Fatalf("case %d: rectangles' points %g apart beyond the radii, pad %g + g %g", i, d, pad, g)
			}
		}
	}
	if pos < n/10 || pos > 9*n/10 {
		t.Errorf("%d of %d cases separated: a weak test", pos, n)
	}
}

// BenchmarkSeparation times the separations beside their tests.
func BenchmarkSeparation(b *testing.B) {
	rng := rand.New(rand.NewPCG(9, 10))
	ra, rb := randRot(rng), randRot(rng)
	var r, absR geom.Mat3
	for x := range 3 {
		for y := range 3 {
			r[x][y] = ra.Row(x).Dot(rb.Row(y))
			absR[x][y] = math.Abs(r[x][y])
		}
	}
	h := geom.V(0.5, 0.4, 0.3)
	ts := make([]geom.Vec3, 64)
	for i := range ts {
		ts[i] = geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()).Scale(1.2)
	}
	var sink float64
	b.Run("OBBSeparation", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			sink += OBBSeparation(h, h, &r, &absR, ts[i&63], 1e-9)
			i++
		}
	})
	b.Run("OBBDisjoint", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			if OBBDisjoint(h, h, &r, &absR, ts[i&63], 1e-9) {
				sink++
			}
			i++
		}
	})
	_ = sink
}
