package world_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh"
	"github.com/collide3d/collide/mesh/gen"
	"github.com/collide3d/collide/world"
)

// convexWorldModels returns small convex models: spheres, boxes, a
// cylinder and an icosahedron.
func convexWorldModels(t testing.TB) []*collide.Model {
	t.Helper()
	meshes := []*mesh.TriMesh{
		gen.Must(gen.Icosphere(geom.Vec3{}, 0.5, 80)),
		gen.Must(gen.Box(geom.AABB{Min: geom.V(-0.4, -0.3, -0.5), Max: geom.V(0.4, 0.3, 0.5)}, 1)),
		gen.Must(gen.Cylinder(0.3, 0.9, 24)),
		gen.Must(gen.Icosphere(geom.Vec3{}, 0.45, 20)),
	}
	ms := make([]*collide.Model, len(meshes))
	for i, m := range meshes {
		md, err := collide.Build(m, collide.BuildOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if !md.Topology().Convex {
			t.Fatalf("model %d is not convex: %+v", i, md.Topology().NotConvex)
		}
		ms[i] = md
	}
	return ms
}

// contactList returns a world's contacts with their triangle pairs.
func contactList(w *world.World) [][]world.TriPair {
	var cs [][]world.TriPair
	w.Contacts(func(c *world.Contact) bool {
		ps := []world.TriPair{{A: int32(c.A), B: int32(c.B)}}
		for p := range c.All() {
			ps = append(ps, p)
		}
		cs = append(cs, ps)
		return true
	})
	return cs
}

// TestConvexWorld flies 10³ small convex objects, every pair tested with
// the tree test, the convex test and the choice by topology: the same
// contacts and triangle pairs at every step, and the planes the pairs keep
// from step to step prove some pairs apart.
func TestConvexWorld(t *testing.T) {
	ms := convexWorldModels(t)
	const n, side = 1000, 15.0
	methods := []collide.Method{collide.MethodTree, collide.MethodConvex, collide.MethodAuto}
	ws := make([]*world.World, len(methods))
	for k, m := range methods {
		w, err := world.New(world.Options{All: true, Method: m, Workers: 2})
		if err != nil {
			t.Fatal(err)
		}
		ws[k] = w
	}
	rng := rand.New(rand.NewPCG(35, 4))
	type body struct {
		p          geom.Vec3
		v, axis    geom.Vec3
		ang, omega float64
	}
	bodies := make([]body, n)
	for i := range bodies {
		b := &bodies[i]
		b.p = geom.V(rng.Float64()*side, rng.Float64()*side, rng.Float64()*side)
		b.v = geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()).Scale(0.02)
		b.axis = geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64())
		b.omega = 0.03 * rng.NormFloat64()
		for _, w := range ws {
			if _, err := w.Add(ms[i%len(ms)], geom.FromAxisAngle(b.axis, 0, b.p), world.ObjectOptions{}); err != nil {
				t.Fatal(err)
			}
		}
	}
	var sts [3]collide.Stats
	for step := range 6 {
		if step > 0 {
			for i := range bodies {
				b := &bodies[i]
				b.p, b.ang = b.p.Add(b.v), b.ang+b.omega
				for _, w := range ws {
					if err := w.Move(world.ID(i), geom.FromAxisAngle(b.axis, b.ang, b.p)); err != nil {
						t.Fatal(err)
					}
				}
			}
		}
		var want [][]world.TriPair
		for k, w := range ws {
			st, err := w.Step()
			if err != nil {
				t.Fatal(err)
			}
			sts[k].Add(st.Query)
			got := contactList(w)
			if k == 0 {
				want = got
				continue
			}
			if !slices.EqualFunc(got, want, slices.Equal) {
				t.Fatalf("step %d, %v: %d contacts, tree %d (or other pairs)", step, methods[k], len(got), len(want))
			}
		}
		if len(want) == 0 {
			t.Fatalf("step %d: no contact: the scene tests nothing", step)
		}
	}
	for k := range methods {
		t.Logf("%v: %v", methods[k], sts[k])
	}
	if c := sts[1]; c.PlaneHits == 0 || c.PlaneNew == 0 || c.Convex == c.PlaneHits+c.PlaneNew {
		t.Errorf("convex: %v: want plane hits, new planes and tree tests", c)
	}
	if sts[2].Convex != sts[1].Convex || sts[0].Convex != 0 {
		t.Errorf("auto ran %d convex tests, convex %d, tree %d", sts[2].Convex, sts[1].Convex, sts[0].Convex)
	}
}
