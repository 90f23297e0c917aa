package bvh

import (
	"fmt"

	"github.com/collide3d/collide/bv"
	"github.com/collide3d/collide/mesh"
)

// Validate checks the tree's invariants and returns the first violation:
// the nodes form one binary tree laid out depth first (the left child of an
// internal node follows it, its right child follows the left subtree), every
// triangle of the mesh lies in exactly one leaf (but twins: of identical
// triangles, only the first is in a leaf, in none of the others), the k-DOP of each leaf
// contains those of its triangles and the k-DOP of each internal node
// contains its children's. The containment tests compare the stored bounds
// exactly, after rounding the triangles' k-DOPs outward as Build does. For
// the other kinds it checks the invariants Read lists for them.
func (t *Tree) Validate() error {
	return t.impl.validate(t.mesh, t.opts, t.twins)
}

func (t *tree[F, A]) validate(m *mesh.TriMesh, o Options, tw twinList) error {
	n := len(t.nodes)
	nt := len(m.Tris)
	if nt == 0 {
		if n != 0 {
			return fmt.Errorf("bvh: %d nodes over no triangles", n)
		}
		return nil
	}
	if n == 0 {
		return fmt.Errorf("bvh: no nodes over %d triangles", nt)
	}
	seen := make([]bool, nt)
	var leafTris []int32
	// Depth-first walk with an explicit stack of (node, parent) pairs,
	// checking that nodes come in the order they are laid out.
	type item struct{ i, parent int }
	stack := []item{{0, -1}}
	next := 0
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		i := it.i
		if i != next {
			return fmt.Errorf("bvh: node %d reached where node %d was expected", i, next)
		}
		next++
		nd := &t.nodes[i]
		if it.parent >= 0 && !contains[F](&t.nodes[it.parent].s, &nd.s) {
			return fmt.Errorf("bvh: node %d's k-DOP does not contain its child %d's", it.parent, i)
		}
		if r := nd.ref; r >= 0 {
			if r < 2 || i+int(r) >= n {
				return fmt.Errorf("bvh: node %d: right child offset %d out of range", i, r)
			}
			stack = append(stack, item{i + int(r), i}, item{i + 1, i})
			continue
		}
		var err error
		if leafTris, err = t.leafOf(nd.ref, leafTris[:0], nt); err != nil {
			return fmt.Errorf("bvh: leaf %d: %v", i, err)
		}
		if len(leafTris) > o.Leaf {
			return fmt.Errorf("bvh: leaf %d holds %d triangles, more than %d", i, len(leafTris), o.Leaf)
		}
		for _, tr := range leafTris {
			if seen[tr] {
				return fmt.Errorf("bvh: triangle %d is in two leaves", tr)
			}
			if !tw.held(tr) {
				return fmt.Errorf("bvh: leaf %d: triangle %d is the twin of an earlier one (leaves hold the first of identical triangles)", i, tr)
			}
			seen[tr] = true
			d := bv.FitTriangles(o.K, m.Triangle(int(tr)))
			var p A
			bv.PackDOP[F](&p, &d, &t.off)
			if !contains[F](&nd.s, &p) {
				return fmt.Errorf("bvh: leaf %d's k-DOP does not contain triangle %d", i, tr)
			}
		}
	}
	if next != n {
		return fmt.Errorf("bvh: %d of %d nodes are not in the tree", n-next, n)
	}
	for tr, ok := range seen {
		if !ok && tw.held(int32(tr)) {
			return fmt.Errorf("bvh: triangle %d is in no leaf", tr)
		}
	}
	return nil
}

// leafOf appends the triangles of the leaf whose ref is ref, checking every
// index against nt.
func (t *tree[F, A]) leafOf(ref int32, dst []int32, nt int) ([]int32, error) {
	x := ^ref
	if t.order == nil {
		if int(x) >= nt {
			return dst, fmt.Errorf("triangle %d out of range [0, %d)", x, nt)
		}
		return append(dst, x), nil
	}
	for j := int(x); ; j++ {
		if j >= len(t.order) {
			return dst, fmt.Errorf("triangle list runs past its end")
		}
		v := t.order[j]
		last := v < 0
		if last {
			v = ^v
		}
		if int(v) >= nt {
			return dst, fmt.Errorf("triangle %d out of range [0, %d)", v, nt)
		}
		dst = append(dst, v)
		if last {
			return dst, nil
		}
	}
}

// contains reports whether every slab of a contains that of b.
func contains[F bv.Float, A bv.Slabs[F]](a, b *A) bool {
	for i := 0; i < len(*a); i += 2 {
		if (*b)[i] < (*a)[i] || (*b)[i+1] > (*a)[i+1] {
			return false
		}
	}
	return true
}
