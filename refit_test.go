package collide_test

import (
	"bytes"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/internal/testgeom"
	"github.com/collide3d/collide/mesh/gen"
)

// twist returns vs twisted about the x axis by a radians per unit of x,
// squashed along z by s and moved by noise of size n (seeded).
func twist(vs []geom.Vec3, a, s, n float64, seed uint64) []geom.Vec3 {
	rng := rand.New(rand.NewPCG(seed, 36))
	out := make([]geom.Vec3, len(vs))
	for i, v := range vs {
		c, sn := math.Cos(a*v.X), math.Sin(a*v.X)
		w := geom.V(v.X, c*v.Y-sn*v.Z, (sn*v.Y+c*v.Z)*s)
		out[i] = w.Add(geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()).Scale(n))
	}
	return out
}

// refitOptions are the build options the refit tests run: every volume,
// and the k-DOP storages.
func refitOptions() []collide.BuildOptions {
	var os []collide.BuildOptions
	for _, b := range collide.BVs() {
		os = append(os, collide.BuildOptions{BV: b})
	}
	return append(os, collide.BuildOptions{BV: collide.KDOP18, Float64: true},
		collide.BuildOptions{BV: collide.KDOP14, Compact: true}, collide.BuildOptions{BV: collide.OBB, Leaf: 4})
}

// TestModelRefit refits a torus and a sphere through random deformations,
// far from the origin too, and checks every query mode against the oracle
// over the deformed meshes, the refitted tree's invariants, and a save and
// read of the refitted model.
func TestModelRefit(t *testing.T) {
	envM := gen.Must(gen.Torus(geom.Vec3{}, 1, 0.3, 800))
	flyM := gen.Must(gen.Icosphere(geom.Vec3{}, 0.3, 320))
	rng := rand.New(rand.NewPCG(36, 36))
	hits, misses := 0, 0
	for oi, o := range refitOptions() {
		env0, err := collide.Build(envM, o)
		if err != nil {
			t.Fatal(err)
		}
		fly0, err := collide.Build(flyM, o)
		if err != nil {
			t.Fatal(err)
		}
		// A mild and a large deformation, the second far from the origin.
		for di, d := range []struct {
			a, s, n float64
			far     geom.Vec3
		}{{0.3, 0.9, 0.003, geom.Vec3{}}, {2, 0.4, 0.03, geom.V(1e6, -3e6, 2e6)}} {
			ev := twist(envM.Verts, d.a, d.s, d.n, uint64(oi*10+di))
			fv := twist(flyM.Verts, -d.a, 1/d.s, d.n, uint64(oi*10+di+5))
			for i := range ev {
				ev[i] = ev[i].Add(d.far)
			}
			env, err := env0.Refit(ev)
			if err != nil {
				t.Fatal(err)
			}
			fly, err := fly0.Refit(fv)
			if err != nil {
				t.Fatal(err)
			}
			if env.Options() != env0.Options() || env.BV() != o.BV {
				t.Errorf("%+v: refitted options %+v, were %+v", o, env.Options(), env0.Options())
			}
			if tr := env.Tree(); tr != nil {
				if err := tr.Validate(); err != nil {
					t.Fatalf("%+v deformation %d: %v", o, di, err)
				}
			}
			models := []*collide.Model{env}
			if o.BV != collide.Brute { // which has no hierarchy to save
				var saved bytes.Buffer
				if err := env.Save(&saved); err != nil {
					t.Fatal(err)
				}
				read, err := collide.ReadModel(&saved)
				if err != nil {
					t.Fatalf("%+v deformation %d: reading the refitted model: %v", o, di, err)
				}
				models = append(models, read)
			}
			eM, fM := env.Mesh(), fly.Mesh()
			for pi := range 2 {
				pose := geom.FromAxisAngle(geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()), rng.Float64()*6.3,
					d.far.Add(geom.V(3*rng.Float64()-1.5, 3*rng.Float64()-1.5, 1.4*rng.Float64()-0.7)))
				for _, eps := range []float64{0, 0.02} {
					want := testgeom.Brute(eM, fM, pose, eps)
					if len(want) > 0 {
						hits++
					} else {
						misses++
					}
					for mi, e := range models {
						r := mustCheck(t, e, fly, pose, collide.QueryOptions{All: true, Eps: eps})
						got := make([][2]int32, len(r.Pairs))
						for i, p := range r.Pairs {
							got[i] = [2]int32{p.Env, p.Fly}
						}
						if !slices.Equal(got, want) {
							t.Errorf("%+v deformation %d pose %d eps %g model %d: %d pairs, oracle %d", o, di, pi, eps, mi, len(got), len(want))
						}
						first := mustCheck(t, e, fly, pose, collide.QueryOptions{Eps: eps})
						if first.Collide != (len(want) > 0) || first.Collide &&
							!slices.Contains(want, [2]int32{first.Pairs[0].Env, first.Pairs[0].Fly}) {
							t.Errorf("%+v deformation %d pose %d eps %g model %d: first contact %v, oracle %d pairs", o, di, pi, eps, mi, first.Pairs, len(want))
						}
					}
				}
			}
		}
	}
	if hits < 10 || misses < 10 {
		t.Errorf("%d poses in contact, %d apart: the scenes test too little", hits, misses)
	}
}

// TestModelRefitCaches checks that a refitted model computes what depends
// on coordinates again (its topology's convexity) and leaves the old
// model's alone.
func TestModelRefitCaches(t *testing.T) {
	m := gen.Must(gen.Icosphere(geom.Vec3{}, 1, 320))
	old, err := collide.Build(m, collide.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !old.Topology().Convex {
		t.Fatal("icosphere not convex")
	}
	vs := slices.Clone(m.Verts)
	vs[0] = vs[0].Scale(0.5) // a dent
	dented, err := old.Refit(vs)
	if err != nil {
		t.Fatal(err)
	}
	if dented.Topology().Convex {
		t.Error("dented refit: topology convex, want not")
	}
	if !old.Topology().Convex || old.Mesh().Verts[0] != m.Verts[0] {
		t.Error("the old model changed")
	}
	if q := old.RefitQuality(); q != 1 {
		t.Errorf("built model's quality %g, want 1", q)
	}
}

// TestModelRefitErrors checks Refit's errors.
func TestModelRefitErrors(t *testing.T) {
	m := gen.Must(gen.Icosphere(geom.Vec3{}, 1, 80))
	for _, b := range []collide.BV{collide.BVDefault, collide.Brute} {
		md, err := collide.Build(m, collide.BuildOptions{BV: b})
		if err != nil {
			t.Fatal(err)
		}
		bad := slices.Clone(m.Verts)
		bad[5].Z = math.Inf(1)
		for _, vs := range [][]geom.Vec3{nil, m.Verts[1:], bad} {
			_, err := md.Refit(vs)
			if !errors.Is(err, collide.ErrRefitVertices) {
				t.Errorf("%v: Refit of %d vertices: %v, want ErrRefitVertices", b, len(vs), err)
			}
		}
		if _, err := md.Refit(bad); err == nil || !strings.Contains(err.Error(), "vertex 5:") {
			t.Errorf("%v: Refit(Inf at vertex 5): %v, want the vertex named", b, err)
		}
	}
	var nilModel *collide.Model
	if _, err := nilModel.Refit(m.Verts); !errors.Is(err, collide.ErrInvalidQuery) {
		t.Errorf("nil model: %v", err)
	}
}

// TestModelRefitAllocs checks that warm queries on refitted models
// allocate nothing.
func TestModelRefitAllocs(t *testing.T) {
	env, fly, poses := torusScene(t, collide.BVDefault)
	env2, err := env.Refit(twist(env.Mesh().Verts, 0.5, 0.8, 0.001, 1))
	if err != nil {
		t.Fatal(err)
	}
	fly2, err := fly.Refit(twist(fly.Mesh().Verts, 0.5, 0.8, 0.001, 2))
	if err != nil {
		t.Fatal(err)
	}
	warmNoAllocs(t, env2, fly2, poses, "refitted models")
}

// warmNoAllocs checks that queries of fly against env at poses, first
// contact and all pairs within a tolerance, allocate nothing once warm
// (models says what env and fly are).
func warmNoAllocs(t *testing.T, env, fly *collide.Model, poses []geom.Pose, models string) {
	t.Helper()
	for _, o := range []collide.QueryOptions{{}, {All: true, Eps: 0.01}} {
		var q collide.Query
		for _, p := range poses {
			mustQuery(t, &q, env, fly, p, o)
		}
		i := 0
		allocs := testing.AllocsPerRun(100, func() {
			q.Check(env, fly, poses[i%len(poses)], o)
			i++
		})
		if allocs != 0 {
			t.Errorf("%+v: %v allocations per query on %s, want 0", o, allocs, models)
		}
	}
}
