package collide_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/internal/testgeom"
	"github.com/collide3d/collide/mesh"
	"github.com/collide3d/collide/mesh/gen"
)

// TestQueryErrors checks that every kind of model reports a query it
// cannot answer as an error, through Check, Query.Check and Query.Each,
// without calling the callback, rather than answering it.
func TestQueryErrors(t *testing.T) {
	ball := gen.Must(gen.Icosphere(geom.Vec3{}, 1, 80))
	far := &mesh.TriMesh{
		Verts: []geom.Vec3{{X: 0}, {X: 1e308}, {Y: 1}},
		Tris:  [][3]int32{{0, 1, 2}},
	}
	nan := math.NaN()
	rot := geom.FromAxisAngle(geom.V(1, 2, 3), 0.7, geom.Vec3{})
	scaled := geom.Identity()
	scaled.R[0][0] = 1.01
	shift := func(x float64) geom.Pose { return geom.Translation(geom.V(x, 0, 0)) }
	withNaN := geom.Identity()
	withNaN.R[1][2] = nan

	for _, name := range testBVs() {
		env, err := collide.Build(ball, collide.BuildOptions{BV: name})
		if err != nil {
			t.Fatal(err)
		}
		fly, err := collide.Build(ball, collide.BuildOptions{BV: name})
		if err != nil {
			t.Fatal(err)
		}
		farFly, err := collide.Build(far, collide.BuildOptions{BV: name})
		if err != nil {
			t.Fatal(err)
		}
		cases := []struct {
			what     string
			env, fly *collide.Model
			pose     geom.Pose
			o        collide.QueryOptions
			want     error
			msg      string
		}{
			{"nil environment", nil, fly, rot, collide.QueryOptions{}, collide.ErrInvalidQuery, "nil environment"},
			{"nil flying model", env, nil, rot, collide.QueryOptions{}, collide.ErrInvalidQuery, "nil flying model"},
			{"both nil", nil, nil, geom.Identity(), collide.QueryOptions{}, collide.ErrInvalidQuery, "nil"},
			{"unbuilt model", env, &collide.Model{}, rot, collide.QueryOptions{}, collide.ErrInvalidQuery, "not built"},
			{"negative eps", env, fly, rot, collide.QueryOptions{Eps: -1e-9}, collide.ErrInvalidQuery, "tolerance"},
			{"NaN eps", env, fly, rot, collide.QueryOptions{Eps: nan, All: true}, collide.ErrInvalidQuery, "tolerance"},
			{"infinite eps", env, fly, rot, collide.QueryOptions{Eps: math.Inf(1)}, collide.ErrInvalidQuery, "tolerance"},
			{"NaN rotation", env, fly, withNaN, collide.QueryOptions{All: true}, collide.ErrInvalidPose, "NaN"},
			{"NaN translation", env, fly, geom.Translation(geom.V(0, nan, 0)), collide.QueryOptions{}, collide.ErrInvalidPose, "NaN"},
			{"infinite translation", env, fly, shift(math.Inf(-1)), collide.QueryOptions{}, collide.ErrInvalidPose, "Inf"},
			{"not a rotation", env, fly, scaled, collide.QueryOptions{All: true}, collide.ErrInvalidPose, "orthonormal"},
			{"vertex moved to +Inf", env, farFly, shift(1e308), collide.QueryOptions{All: true}, collide.ErrInvalidPose, "vertex 1"},
		}
		for _, c := range cases {
			var q collide.Query
			called := false
			_, err1 := collide.Check(c.env, c.fly, c.pose, c.o)
			_, err2 := q.Check(c.env, c.fly, c.pose, c.o)
			_, err3 := q.Each(c.env, c.fly, c.pose, c.o, func(collide.Pair) bool { called = true; return true })
			for _, err := range []error{err1, err2, err3} {
				if !errors.Is(err, c.want) || !strings.Contains(err.Error(), c.msg) {
					t.Errorf("%s: %s: error %v, want one wrapping %v and saying %q", name, c.what, err, c.want, c.msg)
				}
			}
			if called {
				t.Errorf("%s: %s: the callback was called", name, c.what)
			}
		}
		// The same far model at a pose that keeps it finite is answered.
		if _, err := collide.Check(env, farFly, shift(-1e308), collide.QueryOptions{All: true}); err != nil {
			t.Errorf("%s: a pose keeping the model finite: %v", name, err)
		}
		// At the edge of the range, CheckPose moves every vertex and
		// agrees with Pose.Apply.
		edge := math.MaxFloat64 - 1e308
		for _, x := range []float64{7e307, 8e307, edge, math.Nextafter(edge, 0), math.Nextafter(edge, math.Inf(1)), edge * (1 + 0x1p-45), -edge} {
			p := shift(x)
			finite := true
			for _, v := range far.Verts {
				finite = finite && p.Apply(v).IsFinite()
			}
			if err := farFly.CheckPose(p); (err == nil) != finite || err != nil && !errors.Is(err, collide.ErrInvalidPose) {
				t.Errorf("%s: CheckPose(translation %v) on a model reaching 1e308: %v; moved finite: %v", name, x, err, finite)
			}
		}
	}
}

// TestHugePoses checks every kind against the oracle where poses take the
// models to the edge of the float64 range: coordinates up to 1.7e308 are
// answered exactly, and the first pose that would move a vertex beyond the
// range is an error.
func TestHugePoses(t *testing.T) {
	ball := gen.Must(gen.Icosphere(geom.Vec3{}, 1, 80))
	rng := rand.New(rand.NewPCG(3, 4))
	for _, scale := range []float64{1e300, 1e307, 1.7e308} {
		fm := &mesh.TriMesh{Verts: slices.Clone(ball.Verts), Tris: ball.Tris}
		em := &mesh.TriMesh{Verts: slices.Clone(ball.Verts), Tris: ball.Tris}
		for i := range fm.Verts {
			fm.Verts[i] = fm.Verts[i].Scale(0.3 * scale)
			em.Verts[i] = em.Verts[i].Scale(0.3 * scale).Add(geom.V(0.5*scale, 0, 0))
		}
		for _, name := range testBVs() {
			env, err := collide.Build(em, collide.BuildOptions{BV: name})
			if err != nil {
				t.Fatal(err)
			}
			fly, err := collide.Build(fm, collide.BuildOptions{BV: name})
			if err != nil {
				t.Fatal(err)
			}
			for k := range 10 {
				axis := geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64())
				p := geom.FromAxisAngle(axis, rng.Float64()*6, geom.V(0.2*float64(k)*scale, 0, 0))
				finite := true
				for _, v := range fm.Verts {
					finite = finite && p.Apply(v).IsFinite()
				}
				res, err := collide.Check(env, fly, p, collide.QueryOptions{All: true})
				if !finite {
					if !errors.Is(err, collide.ErrInvalidPose) {
						t.Errorf("scale %g, %s, pose %d: moves a vertex beyond the range, error %v", scale, name, k, err)
					}
					continue
				}
				if err != nil {
					t.Errorf("scale %g, %s, pose %d: %v", scale, name, k, err)
					continue
				}
				if got, want := pairsOf(res), testgeom.Brute(em, fm, p, 0); !slices.Equal(got, want) {
					t.Errorf("scale %g, %s, pose %d: %d pairs, the oracle %d", scale, name, k, len(got), len(want))
				}
			}
		}
	}
}

// TestMaxPairs checks that Check keeps at most MaxPairs pairs, says when
// there were more, and refuses a negative bound.
func TestMaxPairs(t *testing.T) {
	tri := geom.Triangle{geom.V(0, 0, 0), geom.V(1, 0, 0), geom.V(0, 1, 0)}
	m := testgeom.Copies(tri, 20) // 400 pairs against itself
	for _, name := range testBVs() {
		md, err := collide.Build(m, collide.BuildOptions{BV: name})
		if err != nil {
			t.Fatal(err)
		}
		all := mustCheck(t, md, md, geom.Identity(), collide.QueryOptions{All: true})
		for _, c := range []struct {
			max, pairs int
			truncated  bool
		}{{0, 400, false}, {400, 400, false}, {399, 399, true}, {7, 7, true}} {
			r := mustCheck(t, md, md, geom.Identity(), collide.QueryOptions{All: true, MaxPairs: c.max})
			if len(r.Pairs) != c.pairs || r.Truncated != c.truncated || !slices.IsSortedFunc(r.Pairs, collide.ComparePairs) {
				t.Errorf("%s MaxPairs %d: %d pairs, truncated %v; want %d, %v", name, c.max, len(r.Pairs), r.Truncated, c.pairs, c.truncated)
			}
			for _, p := range r.Pairs {
				if _, ok := slices.BinarySearchFunc(all.Pairs, p, collide.ComparePairs); !ok {
					t.Errorf("%s MaxPairs %d: pair %v is not in contact", name, c.max, p)
				}
			}
		}
		if _, err := collide.Check(md, md, geom.Identity(), collide.QueryOptions{MaxPairs: -1}); !errors.Is(err, collide.ErrInvalidQuery) {
			t.Errorf("%s: MaxPairs -1: %v", name, err)
		}
	}
}

// TestMixedBVs checks every pair of bounding volumes: models that fly
// together (the same volume, k-DOPs of any k, brute-force with any) answer
// as the oracle does; the others are an error saying what to do, and the
// flying model's companion built by WithBV answers as the oracle does.
func TestMixedBVs(t *testing.T) {
	torus := gen.Must(gen.Torus(geom.Vec3{}, 1, 0.3, 600))
	ball := gen.Must(gen.Icosphere(geom.Vec3{}, 0.3, 80))
	pose := geom.FromAxisAngle(geom.V(0, 0, 1), 0.5, geom.V(1, 0, 0.2))
	want := testgeom.Brute(torus, ball, pose, 0)
	if len(want) == 0 {
		t.Fatal("no contact: a weak test")
	}
	kdop := func(b collide.BV) bool { return strings.HasPrefix(b.String(), "kdop") }
	for _, eb := range testBVs() {
		env, err := collide.Build(torus, collide.BuildOptions{BV: eb})
		if err != nil {
			t.Fatal(err)
		}
		for _, fb := range testBVs() {
			fly, err := collide.Build(ball, collide.BuildOptions{BV: fb, Leaf: 2})
			if err != nil {
				t.Fatal(err)
			}
			compatible := eb == fb || kdop(eb) && kdop(fb) || eb == collide.Brute || fb == collide.Brute
			if eb.Compatible(fb) != compatible || fb.Compatible(eb) != compatible {
				t.Errorf("%s.Compatible(%s) = %v, want %v", eb, fb, eb.Compatible(fb), compatible)
			}
			o := collide.QueryOptions{All: true}
			if compatible {
				if got := pairsOf(mustCheck(t, env, fly, pose, o)); !slices.Equal(got, want) {
					t.Errorf("%s against %s: %d pairs, the oracle %d", fb, eb, len(got), len(want))
				}
				continue
			}
			var q collide.Query
			called := false
			_, err1 := collide.Check(env, fly, pose, o)
			_, err2 := q.Check(env, fly, pose, o)
			_, err3 := q.Each(env, fly, pose, o, func(collide.Pair) bool { called = true; return true })
			for _, err := range []error{err1, err2, err3} {
				if !errors.Is(err, collide.ErrInvalidQuery) || !strings.Contains(err.Error(), "WithBV") ||
					!strings.Contains(err.Error(), eb.String()) || !strings.Contains(err.Error(), fb.String()) {
					t.Errorf("%s against %s: error %v", fb, eb, err)
				}
			}
			if called {
				t.Errorf("%s against %s: the callback was called", fb, eb)
			}
			comp, err := fly.WithBV(env.BV())
			if err != nil {
				t.Fatal(err)
			}
			if comp.BV() != eb || comp.Mesh() != fly.Mesh() || comp.Bytes() <= 0 || fly.BV() != fb {
				t.Errorf("%s.WithBV(%s): a %s model of %d bytes", fb, eb, comp.BV(), comp.Bytes())
			}
			if got := comp.Options().Leaf; got != 2 {
				t.Errorf("%s.WithBV(%s): leaf %d, want 2 as built", fb, eb, got)
			}
			if got := pairsOf(mustCheck(t, env, comp, pose, o)); !slices.Equal(got, want) {
				t.Errorf("%s's companion of %s: %d pairs, the oracle %d", fb, eb, len(got), len(want))
			}
		}
	}
}

// TestWithBV checks WithBV's options and its edge cases.
func TestWithBV(t *testing.T) {
	ball := gen.Must(gen.Icosphere(geom.Vec3{}, 0.3, 80))
	obb, err := collide.Build(ball, collide.BuildOptions{BV: collide.OBB, Rule: collide.RAPID, Split: collide.Median, Leaf: 3})
	if err != nil {
		t.Fatal(err)
	}
	if m, err := obb.WithBV(collide.OBB); m != obb || err != nil {
		t.Errorf("WithBV of its own volume: %p, %v; want the model itself", m, err)
	}
	sph, err := obb.WithBV(collide.Sphere)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := sph.Options(), (collide.BuildOptions{BV: collide.Sphere, Rule: collide.Splatter, Split: collide.Median, Leaf: 3, Float64: true}); got != want {
		t.Errorf("OBB (rapid) as sphere: options %+v, want %+v", got, want)
	}
	k, err := sph.WithBV(collide.KDOP14)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := k.Options(), (collide.BuildOptions{BV: collide.KDOP14, Split: collide.Median, Leaf: 3}); got != want {
		t.Errorf("sphere as kdop14: options %+v, want %+v", got, want)
	}
	if _, err := (&collide.Model{}).WithBV(collide.OBB); !errors.Is(err, collide.ErrInvalidQuery) {
		t.Errorf("WithBV of an unbuilt model: %v", err)
	}
	if _, err := obb.WithBV(collide.BV(99)); !errors.Is(err, collide.ErrUnknownBV) {
		t.Errorf("WithBV(BV(99)): %v", err)
	}
	brute, err := obb.WithBV(collide.Brute)
	if err != nil || brute.BV() != collide.Brute || brute.Tree() != nil || brute.Bytes() != int64(len(ball.Tris))*48 {
		t.Errorf("OBB as brute: %v, %v, %d bytes", brute.BV(), err, brute.Bytes())
	}
}
