package depth

import (
	"testing"

	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh/gen"
)

func BenchmarkConvexIcospheres(b *testing.B) {
	env := build(b, gen.Must(gen.Icosphere(geom.Vec3{}, 1, 320)))
	fly := build(b, gen.Must(gen.Icosphere(geom.Vec3{}, 0.7, 320)))
	pose := geom.FromAxisAngle(geom.V(1, 2, 3), 0.5, geom.V(1.2, 0.3, 0.1))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Translation(env, fly, pose, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkTorusBox(b *testing.B) {
	env := build(b, gen.Must(gen.Torus(geom.Vec3{}, 2, 0.6, 512)))
	fly := build(b, boxMesh(geom.V(-0.4, -0.4, -0.4), geom.V(0.4, 0.4, 0.4)))
	pose := geom.FromAxisAngle(geom.V(1, 2, 3), 0.7, geom.V(1.5, 1.2, 0.3))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Translation(env, fly, pose, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkWinding(b *testing.B) {
	s, err := NewSolid(gen.Must(gen.Torus(geom.Vec3{}, 2, 0.6, 2000)))
	if err != nil {
		b.Fatal(err)
	}
	p := geom.V(2.1, 0.1, 0.05)
	b.ReportAllocs()
	for b.Loop() {
		s.Winding(p)
	}
}
