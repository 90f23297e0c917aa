package collide

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh/gen"
)

// TestFillContactsEnvPose checks the environment's pose in fillContacts:
// the contacts and patches of a query at the relative pose, placed by
// envPose, are those at the identity with every point moved by
// envPose.Apply, every normal by its rotation, and bounds no smaller; the
// patches group the same contacts (their keys are in model coordinates).
func TestFillContactsEnvPose(t *testing.T) {
	rng := rand.New(rand.NewPCG(32, 4))
	torus := gen.Must(gen.Torus(geom.Vec3{}, 1, 0.3, 600))
	sphere := gen.Must(gen.Icosphere(geom.Vec3{}, 0.5, 320))
	env, err := Build(torus, BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	fly, err := Build(sphere, BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var q Query
	total := 0
	for i := range 20 {
		a := 2 * math.Pi * rng.Float64()
		rel := geom.FromAxisAngle(geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()), 6*rng.Float64(),
			geom.V(math.Cos(a), math.Sin(a), 0.3*rng.NormFloat64()))
		envPose := geom.FromAxisAngle(geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()), 6*rng.Float64(),
			geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()).Scale(1e3))
		o := QueryOptions{All: true, Patches: true}
		r, err := q.Check(env, fly, rel, o)
		if err != nil {
			t.Fatal(err)
		}
		want, wantPatches := cloneContacts(r.Contacts), clonePatches(r.Patches)
		got, gotPatches := q.fillContacts(env, fly, rel, envPose, o)
		total += len(got)
		if len(got) != len(want) || len(gotPatches) != len(wantPatches) {
			t.Fatalf("pose %d: %d contacts and %d patches, at the identity %d and %d", i, len(got), len(gotPatches), len(want), len(wantPatches))
		}
		for k, w := range want {
			g := got[k]
			if g.Pair != w.Pair || g.Kind != w.Kind || !slices.Equal(g.Features, w.Features) || len(g.Points) != len(w.Points) {
				t.Fatalf("pose %d: contact %d %+v, at the identity %+v", i, k, g, w)
			}
			for j, p := range w.Points {
				if g.Points[j] != envPose.Apply(p) {
					t.Errorf("pose %d: pair %v point %d %v, want %v", i, w.Pair, j, g.Points[j], envPose.Apply(p))
				}
			}
			if !g.Normal.ApproxEqual(envPose.ApplyVec(w.Normal), 1e-12) || math.Abs(g.Normal.Norm()-1) > 1e-12 {
				t.Errorf("pose %d: pair %v normal %v, want %v", i, w.Pair, g.Normal, envPose.ApplyVec(w.Normal))
			}
			// The placed bound covers the point's error and the rounding of
			// the placement (|t| ~ 1e3 here: about 2⁻⁴⁸·10³ ≈ 4e-12).
			if !(g.Bound >= w.Bound && g.Bound >= 0x1p-48*envPose.T.Abs().Norm()/2) {
				t.Errorf("pose %d: pair %v bound %v from %v", i, w.Pair, g.Bound, w.Bound)
			}
		}
		for k, w := range wantPatches {
			g := gotPatches[k]
			if !slices.Equal(g.Contacts, w.Contacts) || len(g.Curves) != len(w.Curves) || len(g.Manifold) != len(w.Manifold) {
				t.Fatalf("pose %d: patch %d differs from the identity's", i, k)
			}
			for c, curve := range w.Curves {
				for j, p := range curve {
					if g.Curves[c][j] != envPose.Apply(p) {
						t.Errorf("pose %d: patch %d curve %d point %d not placed", i, k, c, j)
					}
				}
			}
			if !g.Normal.ApproxEqual(envPose.ApplyVec(w.Normal), 1e-9) {
				t.Errorf("pose %d: patch %d normal %v, want %v", i, k, g.Normal, envPose.ApplyVec(w.Normal))
			}
		}
	}
	if total < 100 {
		t.Errorf("%d contacts in all: the scene barely meets", total)
	}
}

// TestFrameRho checks the bound on ‖R‖₂ against the largest singular
// value of slightly non-orthonormal rotations: ρ ≥ max over unit x of
// |R·x|, sampled.
func TestFrameRho(t *testing.T) {
	rng := rand.New(rand.NewPCG(32, 5))
	for range 200 {
		p := geom.FromAxisAngle(geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()), 6*rng.Float64(), geom.Vec3{})
		for i := range 3 {
			for j := range 3 {
				p.R[i][j] += 1e-7 * rng.NormFloat64()
			}
		}
		f := newFrame(p)
		for range 200 {
			x := geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()).Unit()
			if n := p.R.MulVec(x).Norm(); n > f.rho {
				t.Fatalf("|R·x| = %v > rho %v", n, f.rho)
			}
		}
		if f.rho > 1+1e-5 {
			t.Errorf("rho %v for a rotation within 1e-7", f.rho)
		}
	}
}
