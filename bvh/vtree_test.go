package bvh

import (
	"slices"
	"testing"

	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh"
	"github.com/collide3d/collide/mesh/gen"
)

// TestVTreeLayout checks the two numberings of a vtree's nodes (see
// vtree): the depth-first layout made from the internal nodes gives them
// back, and agrees with the queries' numbering (children, leaves, volumes)
// node by node, for trees of every size from one triangle, with leaves of
// one and several triangles, and twins.
func TestVTreeLayout(t *testing.T) {
	sphere := gen.Must(gen.Icosphere(geom.Vec3{}, 1, 80))
	for _, n := range []int{1, 2, 3, 7, len(sphere.Tris)} {
		m := &mesh.TriMesh{Verts: sphere.Verts, Tris: slices.Clone(sphere.Tris[:n])}
		if n > 2 {
			m.Tris = append(m.Tris, m.Tris[0], m.Tris[2]) // twins
		}
		for _, o := range []Options{{Kind: AABB}, {Kind: OBB, Leaf: 3}, {Kind: Sphere, Leaf: 2}, {Kind: RSS}} {
			tr, err := Build(m, o)
			if err != nil {
				t.Fatal(err)
			}
			if err := tr.Validate(); err != nil {
				t.Fatalf("%d triangles, %v: %v", n, o.Kind, err)
			}
			var f *flat[box]
			switch vt := tr.impl.(type) {
			case *vtree[box]:
				f = vt.flatten()
				var back vtree[box]
				back.setNodes(f)
				if back.nn != vt.nn || back.root != vt.root || !slices.Equal(back.nodes, vt.nodes) {
					t.Fatalf("%d triangles: the depth-first layout does not give the nodes back", n)
				}
			}
			checkNumberings(t, tr, n)
			if f != nil {
				for i := range f.refs {
					if f.refs[i] >= 0 && tr.impl.bounds(i) != boxDOP(aabbKind.box(f.vol(f.id[i]))) {
						t.Fatalf("%d triangles: node %d's bounds", n, i)
					}
				}
			}
		}
	}
}

// checkNumberings walks tr in the depth-first numbering (Tree.Node) and in
// the queries' (kids, leafRef) side by side.
func checkNumberings(t *testing.T, tr *Tree, n int) {
	t.Helper()
	type kidser interface {
		kids(i int32) (l, r int32)
		leafRef(i int32) int32
	}
	q := tr.impl.(kidser)
	var walk func(i int, id int32)
	walk = func(i int, id int32) {
		_, l, r, tris := tr.Node(i, nil)
		ql, qr := q.kids(id)
		if (l < 0) != (ql < 0) {
			t.Fatalf("%d triangles, %v: node %d (id %d): leaf in one numbering only", n, tr.Kind(), i, id)
		}
		if l < 0 {
			if got := leafList(tr.impl.perm(), q.leafRef(id), nil); !slices.Equal(got, tris) {
				t.Fatalf("%d triangles, %v: leaf %d (id %d): triangles %v and %v", n, tr.Kind(), i, id, tris, got)
			}
			return
		}
		walk(l, ql)
		walk(r, qr)
	}
	walk(0, 0)
	if tr.Nodes() != 2*len(tr.twins.heldTriangles(len(tr.mesh.Tris)))-1 && tr.Options().Leaf == 1 {
		t.Errorf("%d triangles, %v: %d nodes", n, tr.Kind(), tr.Nodes())
	}
}
