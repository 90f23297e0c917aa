package world_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/internal/testgeom"
	"github.com/collide3d/collide/mesh/gen"
	"github.com/collide3d/collide/world"
)

// TestWorldFloat32Range plays the world at the edges of float32's
// range, where k-DOP trees store their volumes in float32: two boxes of 300
// triangles (so that FrontAuto keeps a front for their pair) spanning
// [0, 2^128]³, then spanning [0, 2^-140]³ (float32's denormals) and
// [2^140, 2^141]³ (beyond float32's range), one static and one turning
// through it, and checks every step's triangle pairs against brute force,
// for every bounding volume (k-DOPs in float32 and float64; the default
// one with every broad phase), in all-pairs mode, first-contact mode and
// with a tolerance.
// The k-DOP front found 12 pairs of the 120 of brute force in the issue's
// scene before PackLoose kept its bounds finite.
func TestWorldFloat32Range(t *testing.T) {
	type bvOpt struct {
		bv  collide.BV
		f64 bool
	}
	bvs := []bvOpt{{collide.KDOP6, false}, {collide.KDOP14, false}, {collide.KDOP18, false}, {collide.KDOP26, false}, {collide.KDOP18, true},
		{collide.OBB, false}, {collide.Sphere, false}, {collide.AABB, false}, {collide.RSS, false}, {collide.BoxTree, false}}
	for _, sc := range []struct {
		name     string
		min, max float64
	}{{"[0,2^128]", 0, 0x1p128}, {"[0,2^-140]", 0, 0x1p-140}, {"[2^140,2^141]", 0x1p140, 0x1p141}} {
		m := gen.Must(gen.Box(geom.AABB{Min: geom.V(sc.min, sc.min, sc.min), Max: geom.V(sc.max, sc.max, sc.max)}, 5))
		size := sc.max - sc.min
		c := geom.V(sc.min, sc.min, sc.min).Add(geom.V(size, size, size).Scale(0.5))
		// The moving box's poses: turning about the centre, sliding
		// through the static one, starting out of float32's range of the
		// static box's frame.
		rng := rand.New(rand.NewPCG(28, 2))
		axis := geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64())
		var poses []geom.Pose
		for i := range 7 {
			u := 0.9 - 0.3*float64(i)
			if i == 0 {
				u = 0x1p129 / size
			}
			p := geom.FromAxisAngle(axis, 0.15*float64(i), geom.V(u*size, 0.3*u*size, 0))
			p.T = p.T.Add(c).Sub(p.R.MulVec(c))
			poses = append(poses, p)
		}
		eps := size / 50
		// The oracle, per step and tolerance: the pairs of the static
		// box (object 0, the environment: a tie of triangles goes to the
		// lower ID) and the moving one at Step's relative pose.
		type key struct {
			step int
			eps  float64
		}
		want := map[key][]collide.Pair{}
		oracle := func(w *world.World, step int, e float64) []collide.Pair {
			k := key{step, e}
			if ps, ok := want[k]; ok {
				return ps
			}
			env, fly, pose := w.RelativePose(0, 1)
			if env != 0 || fly != 1 {
				t.Fatalf("%s: the environment is object %d", sc.name, env)
			}
			var ps []collide.Pair
			for _, p := range testgeom.Brute(m, m, pose, e) {
				ps = append(ps, collide.Pair{Env: p[0], Fly: p[1]})
			}
			want[k] = ps
			return ps
		}
		contacts := 0
		for _, b := range bvs {
			md, err := collide.Build(m, collide.BuildOptions{BV: b.bv, Float64: b.f64})
			if err != nil {
				t.Fatal(err)
			}
			broads := []string{"grid"}
			if b.bv == collide.KDOP18 && !b.f64 {
				broads = world.BroadPhases()
			}
			for _, broadName := range broads {
				mk, err := world.NewBroad(broadName)
				if err != nil {
					t.Fatal(err)
				}
				for _, o := range []world.Options{{All: true}, {}, {All: true, Eps: eps, Fronts: world.FrontOn}} {
					o.Broad, o.Workers = mk, 1
					name := fmt.Sprintf("%s %v f64=%v %s all=%v eps=%g", sc.name, b.bv, b.f64, broadName, o.All, o.Eps)
					w, err := world.New(o)
					if err != nil {
						t.Fatal(err)
					}
					if _, err := w.Add(md, geom.Identity(), world.ObjectOptions{Static: true}); err != nil {
						t.Fatal(err)
					}
					id, err := w.Add(md, poses[0], world.ObjectOptions{})
					if err != nil {
						t.Fatal(err)
					}
					for step, p := range poses {
						if err := w.Move(id, p); err != nil {
							t.Fatal(err)
						}
						if _, err := w.Step(); err != nil {
							t.Fatal(err)
						}
						ps := oracle(w, step, o.Eps)
						var got []collide.Pair
						if c, ok := w.Contact(0, id); ok {
							got = c.Pairs
						}
						if o.All && !slices.Equal(got, ps) || !o.All && ((len(got) == 1) != (len(ps) > 0) || len(got) > 1 || len(got) == 1 && !slices.Contains(ps, got[0])) {
							t.Fatalf("%s step %d: %d triangle pairs, brute force %d", name, step, len(got), len(ps))
						}
						if len(ps) > 0 {
							contacts++
						}
					}
				}
			}
		}
		if contacts == 0 {
			t.Fatalf("%s: no step in contact: a weak test", sc.name)
		}
	}
}
