package geom_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/collide3d/collide/geom"
)

// poseSink keeps the benchmarks' results alive.
var poseSink geom.Vec3

// BenchmarkPoseApply applies a pose to 1,024 points, as a query moves a
// flying model's vertices (bvh's tester).
func BenchmarkPoseApply(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	pts := make([]geom.Vec3, 1024)
	for i := range pts {
		pts[i] = geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64())
	}
	out := make([]geom.Vec3, len(pts))
	p := geom.FromAxisAngle(geom.V(1, 2, 3), 0.7, geom.V(4, 5, 6))
	b.ReportAllocs()
	for b.Loop() {
		for i, x := range pts {
			out[i] = p.Apply(x)
		}
	}
	poseSink = out[len(out)-1]
}

// oldApply is Apply as it was before the zero Pose meant the identity (one
// call, no test of R), for BenchmarkPoseApply's baseline.
//
//go:noinline
func oldApply(p geom.Pose, x geom.Vec3) geom.Vec3 { return p.R.MulVec(x).Add(p.T) }

// BenchmarkPoseApplyOld is BenchmarkPoseApply's loop with oldApply.
func BenchmarkPoseApplyOld(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	pts := make([]geom.Vec3, 1024)
	for i := range pts {
		pts[i] = geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64())
	}
	out := make([]geom.Vec3, len(pts))
	p := geom.FromAxisAngle(geom.V(1, 2, 3), 0.7, geom.V(4, 5, 6))
	b.ReportAllocs()
	for b.Loop() {
		for i, x := range pts {
			out[i] = oldApply(p, x)
		}
	}
	poseSink = out[len(out)-1]
}

// TestZeroPose checks that the zero Pose is the identity, and Pose{T: v}
// the translation by v, for every method, bit for bit.
func TestZeroPose(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	v := geom.V(1.5, -2, 1e300)
	q := geom.FromAxisAngle(geom.V(1, 2, 3), 0.7, geom.V(4, 5, 6))
	tri := geom.Triangle{geom.V(1, 2, 3), geom.V(-1e-300, 0, 5), geom.V(math.Copysign(0, -1), 7, -8)}
	for _, c := range []struct {
		name           string
		zero, explicit geom.Pose
	}{
		{"zero", geom.Pose{}, geom.Identity()},
		{"translation", geom.Pose{T: v}, geom.Translation(v)},
		{"negative zeros", geom.Pose{R: geom.Mat3{{math.Copysign(0, -1)}}}, geom.Identity()},
	} {
		z, e := c.zero, c.explicit
		if got := z.Normalize(); got != e {
			t.Errorf("%s: Normalize = %v, want %v", c.name, got, e)
		}
		if !z.Equal(e) || !e.Equal(z) {
			t.Errorf("%s: not Equal to %v", c.name, e)
		}
		if z.IsIdentity() != e.IsIdentity() {
			t.Errorf("%s: IsIdentity %v, explicit %v", c.name, z.IsIdentity(), e.IsIdentity())
		}
		if err := z.Validate(); err != nil {
			t.Errorf("%s: Validate: %v", c.name, err)
		}
		if z.Array() != e.Array() {
			t.Errorf("%s: Array = %v, want %v", c.name, z.Array(), e.Array())
		}
		for range 100 {
			x := geom.V(rng.NormFloat64()*1e3, rng.NormFloat64(), rng.NormFloat64()*1e-3)
			if got, want := z.Apply(x), e.Apply(x); got != want {
				t.Fatalf("%s: Apply(%v) = %v, want %v", c.name, x, got, want)
			}
			if got, want := z.ApplyVec(x), e.ApplyVec(x); got != want {
				t.Fatalf("%s: ApplyVec(%v) = %v, want %v", c.name, x, got, want)
			}
		}
		if got, want := z.ApplyTriangle(tri), e.ApplyTriangle(tri); got != want {
			t.Errorf("%s: ApplyTriangle = %v, want %v", c.name, got, want)
		}
		if got, want := z.Compose(q), e.Compose(q); got != want {
			t.Errorf("%s: Compose = %v, want %v", c.name, got, want)
		}
		if got, want := q.Compose(z), q.Compose(e); got != want {
			t.Errorf("%s: q.Compose = %v, want %v", c.name, got, want)
		}
		if got, want := z.Inverse(), e.Inverse(); got != want {
			t.Errorf("%s: Inverse = %v, want %v", c.name, got, want)
		}
		b := geom.AABB{Min: geom.V(-1, 2, 3), Max: geom.V(4, 5, 6)}
		if got, want := b.Transform(z), b.Transform(e); got != want {
			t.Errorf("%s: AABB.Transform = %v, want %v", c.name, got, want)
		}
	}
	if !(geom.Pose{}).IsIdentity() || (geom.Pose{T: v}).IsIdentity() {
		t.Error("IsIdentity of Pose{} false or of a translation true")
	}
	// A zero row is no zero matrix: not the identity, and invalid.
	half := geom.Pose{R: geom.Mat3{{}, {0, 1, 0}, {0, 0, 1}}}
	if half.Validate() == nil || half.IsIdentity() {
		t.Error("a rotation with a zero row validated or is the identity")
	}
	if got := half.Apply(geom.V(1, 1, 1)); got != geom.V(0, 1, 1) {
		t.Errorf("a zero row applied as the identity: %v", got)
	}
}

// TestApplyBits checks that Apply computes R.MulVec(x).Add(T), bit for
// bit, at random poses, including rotations whose R[0][0] is 0.
func TestApplyBits(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	poses := []geom.Pose{
		{R: geom.Mat3{{0, 1, 0}, {0, 0, 1}, {1, 0, 0}}, T: geom.V(1, 2, 3)},
		{R: geom.Mat3{{0, 0, 1}, {0, 1, 0}, {-1, 0, 0}}},
	}
	for range 200 {
		poses = append(poses, geom.FromAxisAngle(geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()),
			rng.Float64()*7, geom.V(rng.NormFloat64()*1e6, rng.NormFloat64(), rng.NormFloat64()*1e-6)))
	}
	for _, p := range poses {
		for range 10 {
			x := geom.V(rng.NormFloat64()*1e3, rng.NormFloat64(), rng.NormFloat64()*1e-3)
			if got, want := p.Apply(x), p.R.MulVec(x).Add(p.T); got != want {
				t.Fatalf("%v.Apply(%v) = %v, want %v", p, x, got, want)
			}
			if got, want := p.ApplyVec(x), p.R.MulVec(x); got != want {
				t.Fatalf("%v.ApplyVec(%v) = %v, want %v", p, x, got, want)
			}
		}
	}
}
