package octree

import (
	"fmt"
	"slices"
	"testing"

	"github.com/collide3d/collide/broad"
	"github.com/collide3d/collide/geom"
)

// check verifies the invariants of t after a call of Pairs: the node arrays
// form a tree of blocks of 8, every present object is attached to octants
// that cover its integer box exactly once (and, moving by reinsertion, are
// the largest such octants), and the object arrays and the octant arrays
// agree.
func (t *Tree) check() error {
	if len(t.moved) != 0 {
		return fmt.Errorf("%d objects still marked moved", len(t.moved))
	}
	if len(t.ids) != len(t.obj) || len(t.ib) != len(t.obj) || len(t.att) != len(t.obj) {
		return fmt.Errorf("per-slot arrays of lengths %d %d %d %d", len(t.ids), len(t.obj), len(t.ib), len(t.att))
	}
	free := map[int32]bool{}
	for _, s := range t.free {
		if free[s] || s < 0 || int(s) >= len(t.obj) || t.ids[s] != null {
			return fmt.Errorf("free slot %d out of range, listed twice or in use", s)
		}
		free[s] = true
	}
	for id, s := range t.slot {
		if s != null && (s < 0 || int(s) >= len(t.ids) || t.ids[s] != int32(id)) {
			return fmt.Errorf("id %d: slot %d does not name it", id, s)
		}
	}
	for s, id := range t.ids {
		present := t.obj[s].flags&fPresent != 0
		if present != (id != null) || present == free[int32(s)] || id != null && t.slot[id] != int32(s) {
			return fmt.Errorf("slot %d: id %d, present %v, free %v", s, id, present, free[int32(s)])
		}
	}
	n, out := 0, 0
	for id := range t.obj {
		o := &t.obj[id]
		if o.flags&(fMoved|fDone) != 0 {
			return fmt.Errorf("object %d: flags %b after Pairs", id, o.flags)
		}
		if o.flags&fPresent == 0 {
			if o.flags&fAttached != 0 || len(t.att[id]) != 0 {
				return fmt.Errorf("object %d absent but attached", id)
			}
			continue
		}
		n++
		if o.flags&fOut != 0 {
			out++
		}
	}
	if n != t.n {
		return fmt.Errorf("n = %d, %d present", t.n, n)
	}
	if t.n == 0 {
		return nil
	}
	if t.fresh != 0 {
		return fmt.Errorf("fresh = %d after Pairs", t.fresh)
	}
	if out != t.out {
		return fmt.Errorf("out = %d, %d objects flagged", t.out, out)
	}
	if t.res != 1<<t.depth {
		return fmt.Errorf("res %d depth %d", t.res, t.depth)
	}
	for node := range t.nodes {
		nd := &t.nodes[node]
		if nd.n < 0 || nd.n > inl && (nd.more <= 0 || int(nd.more) > t.nmore) {
			return fmt.Errorf("node %d: %d objects, overflow %d of %d", node, nd.n, nd.more, t.nmore)
		}
	}
	// Levels and corners of the nodes, from the root.
	type oct struct {
		lvl  int32
		o    [3]int32
		seen bool
	}
	octs := make([]oct, len(t.nodes))
	octs[0].seen = true
	var walk func(node int32) error
	walk = func(node int32) error {
		c := t.nodes[node].child
		if c == 0 {
			return nil
		}
		if octs[node].lvl == int32(t.depth) {
			return fmt.Errorf("node %d at the finest level has children", node)
		}
		if c <= node || int(c)+8 > len(t.nodes) || (c-1)%8 != 0 {
			return fmt.Errorf("node %d: bad child block %d", node, c)
		}
		h := t.res >> (octs[node].lvl + 1)
		for i := range int32(8) {
			k := c + i
			if octs[k].seen {
				return fmt.Errorf("node %d reached twice", k)
			}
			p := octs[node].o
			octs[k] = oct{lvl: octs[node].lvl + 1, o: [3]int32{p[0] + (i>>2)*h, p[1] + (i>>1&1)*h, p[2] + (i&1)*h}, seen: true}
			if err := walk(k); err != nil {
				return err
			}
		}
		return nil
	}
	if err := walk(0); err != nil {
		return err
	}
	entries := 0
	for node := range int32(len(t.nodes)) {
		x, y := t.objects(node)
		s := append(slices.Clone(x), y...)
		if !octs[node].seen {
			return fmt.Errorf("node %d unreachable", node)
		}
		for _, id := range s {
			if t.obj[id].flags&fPresent == 0 {
				return fmt.Errorf("node %d holds absent object %d", node, id)
			}
			k := 0
			for _, a := range t.att[id] {
				if a.node == int32(node) {
					k++
				}
			}
			if k != 1 {
				return fmt.Errorf("node %d holds object %d, which lists it %d times", node, id, k)
			}
		}
		entries += len(s)
	}
	atts := 0
	for id := range int32(len(t.obj)) {
		o := &t.obj[id]
		if o.flags&fPresent == 0 {
			continue
		}
		if o.flags&fAttached == 0 {
			return fmt.Errorf("object %d present but not attached", id)
		}
		ib := t.ib[id]
		if ib != t.intBox(&o.box) {
			return fmt.Errorf("object %d: integer box %v, its box gives %v", id, ib, t.intBox(&o.box))
		}
		if out := !t.Bounds().ContainsBox(o.box); out != (o.flags&fOut != 0) {
			return fmt.Errorf("object %d: out flag %v, box %v, root %v", id, !out, o.box, t.Bounds())
		}
		var vol int64
		att := t.att[id]
		atts += len(att)
		for i, a := range att {
			if int(a.node) >= len(octs) || octs[a.node].lvl != a.lvl || octs[a.node].o != a.o {
				return fmt.Errorf("object %d: attachment %v does not match its node", id, a)
			}
			x, y := t.objects(a.node)
			if !slices.Contains(x, id) && !slices.Contains(y, id) {
				return fmt.Errorf("object %d: node %d does not hold it", id, a.node)
			}
			size := t.res >> a.lvl
			if !inside(a.o, size, &ib) {
				return fmt.Errorf("object %d: octant %v size %d outside its integer box %v", id, a.o, size, ib)
			}
			if (t.moves == movesReinsert || t.moves == movesHybrid && cellCount(&ib) > diffCells) && a.lvl > 0 {
				// Canonical: the parent does not lie in the box.
				ps := size * 2
				po := [3]int32{a.o[0] &^ (ps - 1), a.o[1] &^ (ps - 1), a.o[2] &^ (ps - 1)}
				if inside(po, ps, &ib) {
					return fmt.Errorf("object %d: attached at octant %v size %d whose parent lies in its box", id, a.o, size)
				}
			}
			vol += int64(size) * int64(size) * int64(size)
			if len(att) <= 512 {
				for _, b := range att[i+1:] {
					bs := t.res >> b.lvl
					bb := ibox{lo: b.o, hi: [3]int32{b.o[0] + bs - 1, b.o[1] + bs - 1, b.o[2] + bs - 1}}
					if overlapOct(a.o, size, &bb) {
						return fmt.Errorf("object %d: attached to overlapping octants %v and %v", id, a, b)
					}
				}
			}
		}
		want := int64(1)
		for ax := range 3 {
			want *= int64(ib.hi[ax] - ib.lo[ax] + 1)
		}
		if vol != want {
			return fmt.Errorf("object %d: attached octants hold %d cells, its integer box %d", id, vol, want)
		}
	}
	if atts != entries {
		return fmt.Errorf("%d attachments, %d object array entries", atts, entries)
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
