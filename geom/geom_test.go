package geom_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/collide3d/collide/geom"
)

func TestAABBFlatAndPoint(t *testing.T) {
	flat := geom.AABB{Min: geom.V(0, 0, 0), Max: geom.V(1, 1, 0)}
	point := geom.AABB{Min: geom.V(2, 2, 2), Max: geom.V(2, 2, 2)}
	tests := []struct {
		name string
		got  bool
		want bool
	}{
		{"flat.IsEmpty", flat.IsEmpty(), false},
		{"point.IsEmpty", point.IsEmpty(), false},
		{"EmptyAABB.IsEmpty", geom.EmptyAABB().IsEmpty(), true},
		{"flat.Contains(mid)", flat.Contains(geom.V(.5, .5, 0)), true},
		{"flat.Contains(above)", flat.Contains(geom.V(.5, .5, 1e-300)), false},
		{"flat.Overlaps(touching flat)", flat.Overlaps(geom.AABB{Min: geom.V(1, 0, 0), Max: geom.V(2, 1, 0)}), true},
		{"flat.Overlaps(1ulp away)", flat.Overlaps(geom.AABB{Min: geom.V(math.Nextafter(1, 2), 0, 0), Max: geom.V(2, 1, 0)}), false},
		{"point.Overlaps(point)", point.Overlaps(point), true},
		{"union keeps flat", flat.Union(point).Contains(geom.V(0, 0, 0)), true},
		{"EmptyAABB union identity", geom.EmptyAABB().Union(flat) == flat, true},
		{"empty contained", flat.ContainsBox(geom.EmptyAABB()), true},
		{"Box canonical", geom.Box(geom.V(1, 1, 0), geom.V(0, 0, 0)) == flat, true},
	}
	for _, tc := range tests {
		if tc.got != tc.want {
			t.Errorf("%s = %v, want %v", tc.name, tc.got, tc.want)
		}
	}
}

func TestVecUnitZeroAndUnderflow(t *testing.T) {
	if got := (geom.Vec3{}).Unit(); got != (geom.Vec3{}) {
		t.Errorf("Vec3{}.Unit() = %v, want zero", got)
	}
	tiny := geom.V(4.3145e-196, 0, 0)
	if got := tiny.Unit(); math.Abs(got.X-1) > 1e-15 {
		t.Errorf("%v.Unit() = %v, want (1, 0, 0)", tiny, got)
	}
	huge := geom.V(1e300, 1e300, 0)
	if got := huge.Norm(); math.IsInf(got, 0) {
		t.Errorf("%v.Norm() overflowed", huge)
	}
}

func TestOrient2DTable(t *testing.T) {
	ulp1 := math.Nextafter(1, 2)
	tests := []struct {
		ax, ay, bx, by, cx, cy float64
		want                   int
	}{
		{0, 0, 1, 0, 0, 1, 1},
		{0, 0, 0, 1, 1, 0, -1},
		{0, 0, 1, 1, 2, 2, 0},
		{0, 0, 1, 1, 2, math.Nextafter(2, 3), 1},
		{0, 0, 1, 1, 2, math.Nextafter(2, 1), -1},
		{0.5, 0.5, 12, 12, 24, 24, 0},
		{1, 1, ulp1, ulp1, 3, 3, 0},
		{1e-300, 0, 0, 1e-300, 0, 0, 1},    // products underflow: exact path
		{1e300, 0, 0, 1e300, -1e300, 0, 1}, // products overflow: exact path
		{1e6 + 0.1, 1e6 + 0.2, 1e6 + 0.3, 1e6 + 0.4, 1e6 + 0.5, 1e6 + 0.6, sign2Big(1e6+0.1, 1e6+0.2, 1e6+0.3, 1e6+0.4, 1e6+0.5, 1e6+0.6)},
		{3, 3, 3, 3, 1, 7, 0},
	}
	for _, tc := range tests {
		got := geom.Orient2D(tc.ax, tc.ay, tc.bx, tc.by, tc.cx, tc.cy)
		if got != tc.want {
			t.Errorf("Orient2D(%v, %v, %v, %v, %v, %v) = %d, want %d", tc.ax, tc.ay, tc.bx, tc.by, tc.cx, tc.cy, got, tc.want)
		}
	}
}

func TestOrient3DTable(t *testing.T) {
	o := geom.V(0, 0, 0)
	x, y, z := geom.V(1, 0, 0), geom.V(0, 1, 0), geom.V(0, 0, 1)
	up := math.Nextafter(0, 1) // the smallest subnormal
	tests := []struct {
		a, b, c, d geom.Vec3
		want       int
	}{
		{o, x, y, z, 1},
		{o, y, x, z, -1},
		{o, x, y, geom.V(5, 7, 0), 0},
		{o, x, y, geom.V(5, 7, up), 1},
		{o, x, y, geom.V(5, 7, -up), -1},
		{geom.V(1e6, 1e6, 1e6), geom.V(1e6+1, 1e6, 1e6), geom.V(1e6, 1e6+1, 1e6), geom.V(1e6+0.5, 1e6+0.5, math.Nextafter(1e6, 2e6)), 1},
		{geom.V(1e-7, 0, 0), geom.V(0, 1e-7, 0), geom.V(0, 0, 1e-7), geom.V(1e-7/3, 1e-7/3, 1e-7/3), sign3Big(geom.V(1e-7, 0, 0), geom.V(0, 1e-7, 0), geom.V(0, 0, 1e-7), geom.V(1e-7/3, 1e-7/3, 1e-7/3))},
		{geom.V(1e300, 0, 0), geom.V(0, 1e300, 0), geom.V(0, 0, 1e300), geom.V(-1e300, -1e300, -1e300), sign3Big(geom.V(1e300, 0, 0), geom.V(0, 1e300, 0), geom.V(0, 0, 1e300), geom.V(-1e300, -1e300, -1e300))},
		{x, x, y, z, 0},
	}
	for _, tc := range tests {
		got := geom.Orient3D(tc.a, tc.b, tc.c, tc.d)
		if got != tc.want {
			t.Errorf("Orient3D(%v, %v, %v, %v) = %d, want %d", tc.a, tc.b, tc.c, tc.d, got, tc.want)
		}
		// Properties: an odd permutation flips the sign, an even one keeps it.
		if g := geom.Orient3D(tc.b, tc.a, tc.c, tc.d); g != -tc.want {
			t.Errorf("Orient3D(b, a, c, d) = %d, want %d", g, -tc.want)
		}
		if g := geom.Orient3D(tc.c, tc.d, tc.a, tc.b); g != tc.want {
			t.Errorf("Orient3D(c, d, a, b) = %d, want %d", g, tc.want)
		}
	}
}

// TestOrientRandomAgainstBig compares the predicates with math/big on random
// near-degenerate inputs at many scales: points on a plane or line, rounded,
// then nudged by a few ulps, so that the float filter fails often and both
// exact stages run.
func TestOrientRandomAgainstBig(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	scales := []float64{1, 1e6, 1e-7, 1e-250, 1e250, 0x1p-205, 0x1p205}
	n := 20000
	if testing.Short() {
		n = 2000
	}
	for i := range n {
		s := scales[i%len(scales)]
		off := 0.0
		if i%3 == 0 {
			off = 1e6 * s
		}
		r := func() float64 { return off + (rng.Float64()*2-1)*s }
		a, b, c := geom.V(r(), r(), r()), geom.V(r(), r(), r()), geom.V(r(), r(), r())
		u, v := rng.Float64(), rng.Float64()
		d := a.Add(b.Sub(a).Scale(u)).Add(c.Sub(a).Scale(v))
		for range rng.IntN(3) {
			d.Z = math.Nextafter(d.Z, math.Inf(2*rng.IntN(2)-1))
		}
		if got, want := geom.Orient3D(a, b, c, d), sign3Big(a, b, c, d); got != want {
			t.Fatalf("Orient3D(%v, %v, %v, %v) = %d, want %d", a, b, c, d, got, want)
		}
		e := a.Lerp(b, u)
		if got, want := geom.Orient2D(a.X, a.Y, b.X, b.Y, e.X, e.Y), sign2Big(a.X, a.Y, b.X, b.Y, e.X, e.Y); got != want {
			t.Fatalf("Orient2D(%v, %v, %v) = %d, want %d", a, b, e, got, want)
		}
	}
}

func TestPose(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for range 100 {
		axis := geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64())
		p := geom.FromAxisAngle(axis, rng.Float64()*7, geom.V(rng.NormFloat64(), 3, -2))
		q := geom.FromQuat(geom.Quat{W: rng.NormFloat64(), X: rng.NormFloat64(), Y: 1, Z: rng.NormFloat64()}, geom.V(1, 2, 3))
		x := geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64())
		if err := p.Validate(); err != nil {
			t.Fatalf("FromAxisAngle pose invalid: %v", err)
		}
		if got := p.Inverse().Apply(p.Apply(x)); !got.ApproxEqual(x, 1e-12) {
			t.Errorf("p⁻¹(p(x)) = %v, want %v", got, x)
		}
		if got, want := p.Compose(q).Apply(x), p.Apply(q.Apply(x)); !got.ApproxEqual(want, 1e-12) {
			t.Errorf("(p∘q)(x) = %v, want p(q(x)) = %v", got, want)
		}
		if got := geom.FromArray(p.Array()); got != p {
			t.Errorf("FromArray(Array()) = %v, want %v", got, p)
		}
		// The axis is fixed by the rotation.
		if got := p.ApplyVec(axis); !got.ApproxEqual(axis, 1e-12*axis.Norm()) {
			t.Errorf("R·axis = %v, want %v", got, axis)
		}
	}
	r := geom.FromAxisAngle(geom.V(0, 0, 1), math.Pi/2, geom.Vec3{})
	if got := r.Apply(geom.V(1, 0, 0)); !got.ApproxEqual(geom.V(0, 1, 0), 1e-15) {
		t.Errorf("quarter turn about z of x = %v, want y", got)
	}
	bad := geom.Pose{R: geom.Mat3{{2, 0, 0}, {0, 1, 0}, {0, 0, 1}}}
	if bad.Validate() == nil {
		t.Error("scaling pose validated")
	}
	nan := geom.Identity()
	nan.T.X = math.NaN()
	if nan.Validate() == nil {
		t.Error("NaN pose validated")
	}
}

func TestAABBTransform(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	b := geom.AABB{Min: geom.V(-1, 2, 3), Max: geom.V(4, 2.5, 9)}
	for range 100 {
		q := geom.Quat{W: r.NormFloat64(), X: r.NormFloat64(), Y: r.NormFloat64(), Z: r.NormFloat64()}.Unit()
		p := geom.Pose{R: q.Mat3(), T: geom.V(r.Float64()*10, -r.Float64(), 1e6)}
		got := b.Transform(p)
		// Every point of b lands in the box, and the box is the corners'.
		for range 20 {
			x := geom.V(b.Min.X+r.Float64()*(b.Max.X-b.Min.X), b.Min.Y+r.Float64()*(b.Max.Y-b.Min.Y), b.Min.Z+r.Float64()*(b.Max.Z-b.Min.Z))
			if y := p.Apply(x); !got.Expanded(1e-9).Contains(y) {
				t.Fatalf("%v at %v: %v not in %v", x, p, y, got)
			}
		}
		if !got.Contains(p.Apply(b.Min)) || !got.Contains(p.Apply(b.Max)) {
			t.Fatalf("corners of %v not in %v", b, got)
		}
	}
	if e := geom.EmptyAABB().Transform(geom.Identity()); !e.IsEmpty() {
		t.Errorf("the empty box transformed is %v, not empty", e)
	}
}

// TestFiniteBounds checks FiniteBounds against Bounds on random triangles
// with repeated coordinates.
func TestFiniteBounds(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	vals := []float64{-2, -1, 0, 1, 3.5, 1e300, -1e-300}
	for trial := range 2000 {
		var tr geom.Triangle
		for i := range tr {
			tr[i] = geom.V(vals[rng.IntN(len(vals))], vals[rng.IntN(len(vals))], vals[rng.IntN(len(vals))])
		}
		if got, want := tr.FiniteBounds(), tr.Bounds(); got != want {
			t.Fatalf("trial %d: FiniteBounds(%v) = %v, Bounds %v", trial, tr, got, want)
		}
	}
}
