package bvh

import (
	"math/rand/v2"

	"runtime"
	"slices"
	"testing"

	"github.com/collide3d/collide/mesh"

	"github.com/collide3d/collide/bv"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh/gen"
)

// BenchmarkEditParts times the parts of an edit of one triangle of a
// 10^6-triangle torus's 18-DOP tree: a copy of its node array (the least
// an edit that copies the tree costs), the mesh's copy (EditMesh), the
// twins found again, the shape (a pass over the old tree and the layout of
// the new one) and the whole edit.
func BenchmarkEditParts(b *testing.B) {
	m := gen.Must(gen.Torus(geom.Vec3{}, 1, 0.3, 1000000))
	t, err := Build(m, Options{K: bv.K18})
	if err != nil {
		b.Fatal(err)
	}
	ins := []geom.Triangle{m.Triangle(5)}
	for i := range ins[0] {
		ins[0][i] = ins[0][i].Scale(1.01)
	}
	del := []int32{7}
	nm, remap, err := EditMesh(m, ins, del)
	if err != nil {
		b.Fatal(err)
	}
	tw, _ := findTwins(nm)
	b.Run("copy", func(b *testing.B) {
		b.ReportAllocs()
		nodes := t.impl.(*tree[float32, [18]float32]).nodes
		for b.Loop() {
			runtime.KeepAlive(slices.Clone(nodes))
		}
	})
	b.Run("mesh", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			runtime.KeepAlive(must3i(EditMesh(m, ins, del)))
		}
	})
	b.Run("twins", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			findTwins(nm)
		}
	})
	b.Run("shape", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			runtime.KeepAlive(newShaper(t, nm, remap, tw).shape())
		}
	})
	b.Run("edit", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			runtime.KeepAlive(must3i(t.Edit(ins, del)))
		}
	})
}

func must3i[T, U any](v T, _ U, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// TestEditTwins checks that the twins an edit finds are findTwins's, on
// random edits of a soup with many twins.
func TestEditTwins(t *testing.T) {
	rng := rand.New(rand.NewPCG(36, 10))
	base := gen.Must(gen.Icosphere(geom.Vec3{}, 1, 20))
	var ts []geom.Triangle
	for range 60 {
		ts = append(ts, base.Triangle(rng.IntN(len(base.Tris))))
	}
	m := &mesh.TriMesh{}
	for _, tr := range ts {
		v := int32(len(m.Verts))
		m.Verts = append(m.Verts, tr[0], tr[1], tr[2])
		m.Tris = append(m.Tris, [3]int32{v, v + 1, v + 2})
	}
	tw, _ := findTwins(m)
	for it := range 300 {
		var del []int32
		for _, i := range rng.Perm(len(m.Tris))[:rng.IntN(min(10, len(m.Tris)))] {
			del = append(del, int32(i))
		}
		var ins []geom.Triangle
		for range rng.IntN(10) {
			ins = append(ins, base.Triangle(rng.IntN(len(base.Tris))))
		}
		nm, remap, err := EditMesh(m, ins, del)
		if err != nil {
			continue
		}
		got := editTwins(tw, remap, nm)
		want, _ := findTwins(nm)
		if !sameTwins(got, want) {
			t.Fatalf("edit %d: twins %v %v, want %v %v", it, got.next, got.twin, want.next, want.twin)
		}
		m, tw = nm, got
	}
}
