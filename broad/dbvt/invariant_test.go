package dbvt

import (
	"cmp"
	"fmt"
	"slices"
	"testing"

	"github.com/collide3d/collide/broad"
	"github.com/collide3d/collide/geom"
)

// check verifies the invariants of the tree structure: parent and child
// links, heights, every internal box the exact union of its children's,
// every node either reachable from the root once or on the free list.
func (t *tree) check() (leaves int, err error) {
	seen := make([]bool, len(t.nodes))
	if t.root != null {
		if t.nodes[t.root].parent != null {
			return 0, fmt.Errorf("root %d has parent %d", t.root, t.nodes[t.root].parent)
		}
		var walk func(i int32) error
		walk = func(i int32) error {
			if i < 0 || int(i) >= len(t.nodes) || seen[i] {
				return fmt.Errorf("node %d out of range or reached twice", i)
			}
			seen[i] = true
			n := &t.nodes[i]
			if n.leaf() {
				if n.height != 0 {
					return fmt.Errorf("leaf %d: children %v, height %d", i, n.child, n.height)
				}
				leaves++
				return nil
			}
			for _, c := range n.child {
				if c < 0 || int(c) >= len(t.nodes) || t.nodes[c].parent != i {
					return fmt.Errorf("node %d: child %d does not name it as parent", i, c)
				}
				if err := walk(c); err != nil {
					return err
				}
			}
			a, b := &t.nodes[n.child[0]], &t.nodes[n.child[1]]
			if n.height != 1+max(a.height, b.height) {
				return fmt.Errorf("node %d: height %d, children %d and %d", i, n.height, a.height, b.height)
			}
			if n.box != a.box.union(&b.box) {
				return fmt.Errorf("node %d: box %v is not the union of its children's", i, n.box)
			}
			return nil
		}
		if err := walk(t.root); err != nil {
			return 0, err
		}
	}
	for i := t.free; i != null; i = t.nodes[i].parent {
		if i < 0 || int(i) >= len(t.nodes) || seen[i] || t.nodes[i].height != -1 {
			return 0, fmt.Errorf("free node %d out of range, in the tree, reached twice or not marked free", i)
		}
		seen[i] = true
	}
	for i, s := range seen {
		if !s {
			return 0, fmt.Errorf("node %d neither in the tree nor free", i)
		}
	}
	return leaves, nil
}

// check verifies the invariants of t after a call of Pairs: the tree's,
// one leaf per present object holding its fat box, which holds its box,
// and the cached pairs exactly those of overlapping fat boxes, not both
// static (against a sort and sweep of the fat boxes).
func (t *Tree) check() error {
	leaves, err := t.tr.check()
	if err != nil {
		return err
	}
	sleaves, err := t.st.check()
	if err != nil {
		return fmt.Errorf("static tree: %w", err)
	}
	leaves += sleaves
	if len(t.moved) != 0 {
		return fmt.Errorf("%d objects still marked moved", len(t.moved))
	}
	n := 0
	var ids []int32 // present slots
	free := map[int32]bool{}
	for _, s := range t.free {
		if free[s] || s < 0 || int(s) >= len(t.id) {
			return fmt.Errorf("free slot %d out of range or listed twice", s)
		}
		free[s] = true
	}
	for id, s := range t.slot {
		if s != null && (s < 0 || int(s) >= len(t.id) || t.id[s] != int32(id)) {
			return fmt.Errorf("id %d: slot %d does not name it", id, s)
		}
	}
	for _, l := range []int{len(t.box), len(t.fat), len(t.leaf), len(t.flags), len(t.adj), len(t.up)} {
		if l != len(t.id) {
			return fmt.Errorf("per-slot arrays of lengths %d and %d", len(t.id), l)
		}
	}
	for id := range int32(len(t.flags)) {
		f := t.flags[id]
		if f&(fMoved|fForce|fFresh) != 0 {
			return fmt.Errorf("slot %d: flags %b after Pairs", id, f)
		}
		if f&fPresent == 0 {
			if t.leaf[id] != null || len(t.adj[id]) != 0 || t.id[id] != null || !free[id] {
				return fmt.Errorf("slot %d absent with leaf %d, %d partners, id %d, free %v", id, t.leaf[id], len(t.adj[id]), t.id[id], free[id])
			}
			continue
		}
		if free[id] || t.id[id] < 0 || t.slot[t.id[id]] != id {
			return fmt.Errorf("slot %d present but free or with id %d", id, t.id[id])
		}
		n++
		ids = append(ids, id)
		l := t.leaf[id]
		tr := &t.tr
		if f&fInS != 0 {
			tr = &t.st
		}
		if (f&fStatic != 0) != (f&fInS != 0) {
			return fmt.Errorf("slot %d: flags %b: in the tree of the other kind", id, f)
		}
		if l < 0 || int(l) >= len(tr.nodes) || !tr.nodes[l].leaf() || tr.nodes[l].height != 0 || tr.nodes[l].obj() != id {
			return fmt.Errorf("slot %d: bad leaf %d", id, l)
		}
		if tr.nodes[l].box != t.fat[id] {
			return fmt.Errorf("slot %d: leaf box %v, fat box %v", id, tr.nodes[l].box, t.fat[id])
		}
		if !t.fat[id].holds(&t.box[id]) {
			return fmt.Errorf("slot %d: box %v not in its fat box %v", id, t.box[id], t.fat[id])
		}
	}
	if n != t.n || leaves != n {
		return fmt.Errorf("n = %d, %d present, %d leaves", t.n, n, leaves)
	}
	// The cached pairs.
	type pair struct{ a, b int32 }
	var got []pair
	for _, a := range ids {
		u := int(t.up[a])
		if u < 0 || u > len(t.adj[a]) {
			return fmt.Errorf("slot %d: %d partners above of %d", a, u, len(t.adj[a]))
		}
		for i, b := range t.adj[a] {
			if (i < u) != (b > a) {
				return fmt.Errorf("slot %d: partner %d at %d, %d above", a, b, i, u)
			}
			if t.flags[b]&fPresent == 0 || b == a {
				return fmt.Errorf("object %d: partner %d absent or itself", a, b)
			}
			if a < b {
				got = append(got, pair{a, b})
			} else if !slices.Contains(t.adj[b], a) {
				return fmt.Errorf("pair (%d, %d) cached on one side only", b, a)
			}
		}
	}
	less := func(x, y pair) int { return cmp.Or(cmp.Compare(x.a, y.a), cmp.Compare(x.b, y.b)) }
	slices.SortFunc(got, less)
	slices.SortFunc(ids, func(a, b int32) int { return cmp.Compare(t.fat[a].min[0], t.fat[b].min[0]) })
	var want []pair
	for i, a := range ids {
		for _, b := range ids[i+1:] {
			if t.fat[b].min[0] > t.fat[a].max[0] {
				break
			}
			if t.flags[a]&t.flags[b]&fStatic == 0 && t.fat[a].overlaps(&t.fat[b]) {
				want = append(want, pair{min(a, b), max(a, b)})
			}
		}
	}
	slices.SortFunc(want, less)
	if !slices.Equal(got, want) {
		return fmt.Errorf("%d cached pairs, %d fat boxes overlapping (or a pair cached twice)", len(got), len(want))
	}
	return nil
}

// checked wraps a tree and checks its invariants after every Pairs.
type checked struct {
	*Tree
	t testing.TB
}

func (c checked) Pairs(fn func(a, b int32) bool) {
	c.Tree.Pairs(fn)
	if err := c.Tree.check(); err != nil {
		c.t.Fatalf("invariant: %v", err)
	}
}

var _ broad.Phase = checked{}

func box(x0, y0, z0, x1, y1, z1 float64) geom.AABB {
	return geom.AABB{Min: geom.V(x0, y0, z0), Max: geom.V(x1, y1, z1)}
}
