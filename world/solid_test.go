package world_test

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/internal/testgeom"
	"github.com/collide3d/collide/mesh"
	"github.com/collide3d/collide/mesh/gen"
	"github.com/collide3d/collide/world"
)

func cubeMesh(h float64, n int) *mesh.TriMesh {
	return gen.Must(gen.Box(geom.AABB{Min: geom.V(-h, -h, -h), Max: geom.V(h, h, h)}, n))
}

// hollowMesh is a box of half-size h with a cavity of half-size c.
func hollowMesh(h, c float64) *mesh.TriMesh {
	return testgeom.Join([]*mesh.TriMesh{cubeMesh(h, 2), cubeMesh(c, 1)}, false, true)
}

// TestSolidWorldMatchesPairwise moves small solids in and out of bigger
// ones (a box, a hollow box, a torus) and checks, at every step, that
// every pair's contact (or its absence) and who is inside whom are what
// the pairwise query of solids says at World.RelativePose.
func TestSolidWorldMatchesPairwise(t *testing.T) {
	for _, bv := range []collide.BV{collide.KDOP18, collide.OBB, collide.Brute} {
		build := func(m *mesh.TriMesh) *collide.Model {
			md, err := collide.Build(m, collide.BuildOptions{BV: bv})
			if err != nil {
				t.Fatal(err)
			}
			return md
		}
		big := []*collide.Model{build(cubeMesh(3, 2)), build(hollowMesh(3, 1.5)), build(gen.Must(gen.Torus(geom.V(0, 0, 0), 2, 0.8, 200)))}
		small := []*collide.Model{build(gen.Must(gen.Icosphere(geom.V(0, 0, 0), 0.3, 20))), build(cubeMesh(0.4, 1)), build(cubeMesh(4, 1))}
		w, err := world.New(world.Options{Solid: true, All: true})
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(35, uint64(bv)))
		var ids []world.ID
		var ms []*collide.Model
		for i, m := range big {
			id, err := w.Add(m, geom.Translation(geom.V(float64(10*i), 0, 0)), world.ObjectOptions{})
			if err != nil {
				t.Fatal(err)
			}
			ids, ms = append(ids, id), append(ms, m)
		}
		for i := range 8 {
			m := small[i%len(small)]
			id, err := w.Add(m, geom.Pose{}, world.ObjectOptions{})
			if err != nil {
				t.Fatal(err)
			}
			ids, ms = append(ids, id), append(ms, m)
		}
		var q collide.Query
		seen := map[world.Inside]int{}
		for step := range 30 {
			for k := len(big); k < len(ids); k++ {
				host := float64(10 * (k % len(big)))
				c := geom.V(host+rng.NormFloat64()*2, rng.NormFloat64()*1.5, rng.NormFloat64()*1.5)
				if step%5 == 0 {
					c = geom.V(host+1.5*float64(k%3), 0, 0) // on the cavity's and the torus's axes
				}
				if err := w.Move(ids[k], geom.FromAxisAngle(geom.V(rng.NormFloat64(), 1, rng.NormFloat64()), rng.Float64()*3, c)); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := w.Step(); err != nil {
				t.Fatal(err)
			}
			for i := range ids {
				for j := i + 1; j < len(ids); j++ {
					a, b := ids[i], ids[j]
					env, fly, pose := w.RelativePose(a, b)
					me, mf := ms[i], ms[j]
					if env != a {
						me, mf = mf, me
					}
					r, err := q.Collide(me, geom.Pose{}, mf, pose, collide.QueryOptions{Solid: true, All: true})
					if err != nil {
						t.Fatal(err)
					}
					want := world.NotInside
					switch {
					case r.Inside == collide.FlyInEnv && fly == b, r.Inside == collide.EnvInFly && env == b:
						want = world.BInA
					case r.Inside != collide.NotInside:
						want = world.AInB
					}
					c, ok := w.Contact(a, b)
					switch {
					case ok != r.Collide:
						t.Fatalf("%v, step %d, objects %d and %d: world contact %v, pairwise %v (inside %v)", bv, step, a, b, ok, r.Collide, r.Inside)
					case ok && (c.Inside != want || c.Len() != len(r.Pairs)):
						t.Fatalf("%v, step %d, objects %d and %d: world inside %v with %d pairs; pairwise %v with %d", bv, step, a, b, c.Inside, c.Len(), want, len(r.Pairs))
					case ok:
						seen[c.Inside]++
					}
				}
			}
		}
		if seen[world.AInB] == 0 || seen[world.BInA] == 0 || seen[world.NotInside] == 0 {
			t.Errorf("%v: contacts %v: a kind is missing", bv, seen)
		}
	}
}

// TestSolidWorldRefuses: a world of solids refuses an open, non-manifold
// or flipped model, saying what breaks; other worlds take it.
func TestSolidWorldRefuses(t *testing.T) {
	box := cubeMesh(1, 1)
	for _, c := range testgeom.NotSolids(box) {
		m, err := collide.Build(c.Mesh, collide.BuildOptions{})
		if err != nil {
			t.Fatal(err)
		}
		w, _ := world.New(world.Options{Solid: true})
		if _, err := w.Add(m, geom.Pose{}, world.ObjectOptions{}); !errors.Is(err, collide.ErrNotSolid) || !strings.Contains(err.Error(), c.Why) {
			t.Errorf("%s: Add: %v; want ErrNotSolid saying %q", c.Name, err, c.Why)
		}
		if w.Len() != 0 {
			t.Errorf("%s: the refused model was added", c.Name)
		}
		w, _ = world.New(world.Options{})
		if _, err := w.Add(m, geom.Pose{}, world.ObjectOptions{}); err != nil {
			t.Errorf("%s, not solid: Add: %v", c.Name, err)
		}
	}
}

// TestSolidWorldCallbacks: a containment begins, is kept and ends as any
// contact, and says who is inside whom.
func TestSolidWorldCallbacks(t *testing.T) {
	bin, _ := collide.Build(cubeMesh(3, 2), collide.BuildOptions{})
	ball, _ := collide.Build(gen.Must(gen.Icosphere(geom.V(0, 0, 0), 0.5, 80)), collide.BuildOptions{})
	w, _ := world.New(world.Options{Solid: true})
	a, _ := w.Add(ball, geom.Translation(geom.V(10, 0, 0)), world.ObjectOptions{})
	b, _ := w.Add(bin, geom.Pose{}, world.ObjectOptions{})
	var log []string
	w.SetCallbacks(world.Callbacks{
		Begin: func(c *world.Contact) { log = append(log, "begin "+c.Inside.String()) },
		Keep:  func(c *world.Contact) { log = append(log, "keep "+c.Inside.String()) },
		End:   func(c *world.Contact) { log = append(log, "end") },
	})
	for _, x := range []float64{10, 0, 1, 2.5, 10} {
		if err := w.Move(a, geom.Translation(geom.V(x, 0, 0))); err != nil {
			t.Fatal(err)
		}
		if _, err := w.Step(); err != nil {
			t.Fatal(err)
		}
	}
	got := strings.Join(log, ", ")
	if want := "begin A in B, keep A in B, keep none, end"; got != want {
		t.Errorf("callbacks: %s; want %s (objects %d, %d)", got, want, a, b)
	}
}
