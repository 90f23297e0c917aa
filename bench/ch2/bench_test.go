package ch2

import (
	"context"
	"math/rand/v2"

	"github.com/collide3d/collide/geom"
	"testing"
)

// BenchmarkFrameSet times moving the balloon (320 triangles) to a pose:
// the part of the chapter's methods' step that the BV-trees skip.
func BenchmarkFrameSet(b *testing.B) {
	flies, err := flyingObjects(0.06)
	if err != nil {
		b.Fatal(err)
	}
	fly := flies[1].Mesh
	r := rand.New(rand.NewPCG(1, 1))
	var f Frame
	f.Set(geom.Pose{R: randomRotation(r)}, fly)
	b.ReportAllocs()
	for b.Loop() {
		f.Set(f.Pose, fly)
	}
}

// BenchmarkMethods times each method's first-contact query, and the
// brute-force oracle's, at placements of the balloon in a field of
// tetrahedra (the climb of bb(F) and, at full-resolution checks, the
// moving of the triangles included).
func BenchmarkMethods(b *testing.B) {
	m := TetraEnv(2000, 0.5, 1)
	env, err := envOf("tetra", "tetrahedra", m)
	if err != nil {
		b.Fatal(err)
	}
	flies, err := flyingObjects(0.06)
	if err != nil {
		b.Fatal(err)
	}
	fly := flies[1]
	r := rand.New(rand.NewPCG(5, 6))
	poses := placements(env, fly.Mesh, 64, r)
	methods := []struct {
		name string
		m    Method
	}{
		{"grid", NewGrid(env, GridSize(len(env.Tris)))},
		{"kd", NewKDTree(env, KDOptions{Rule: DefaultRule})},
		{"rtree", NewRTree(env, 0)},
	}
	if mm, err := NewMesh(context.Background(), env); err == nil {
		methods = append(methods, struct {
			name string
			m    Method
		}{"mesh", mm})
	}
	var f Frame
	for _, x := range methods {
		b.Run(x.name, func(b *testing.B) {
			var c Counts
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				f.Place(poses[i%len(poses)], fly.Mesh, fly.Hull)
				x.m.Collide(&f, &c)
				i++
			}
		})
	}
	b.Run("brute", func(b *testing.B) {
		i := 0
		for b.Loop() {
			f.Set(poses[i%len(poses)], fly.Mesh)
			Brute(env, &f)
			i++
		}
	})
}
