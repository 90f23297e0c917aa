package bvh

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
	"slices"

	"github.com/collide3d/collide/bv"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh"
)

// This file is the edit of a built tree: triangles deleted from it and
// inserted into it (a changing environment), without building it again.
//
// # Semantics
//
// Edit returns a new tree; the old one is unchanged and may still be
// queried, on other goroutines too, while the edit runs and after (trees
// are immutable and shared: an edit copies the node arrays, sharing
// nothing that a query of the old tree reads, so no query ever sees a
// half-changed tree).
//
// Triangle indices: the edited mesh holds the triangles that were not
// deleted, in their order, then the inserted ones, in theirs. So a
// triangle's new index is its old one less the number of deleted triangles
// before it, and inserted triangle j gets index (survivors) + j: without
// deletions, old indices stay and inserts take the next ones. A deleted
// triangle is in no leaf and no query reports it. EditMap returns the map.
// The vertices are those of the survivors (the ones no triangle uses any
// more are dropped, the rest kept in their order), then three for each
// inserted triangle.
//
// The tree is edited as an R-tree is:
//
//   - a deleted triangle is removed from its leaf; a leaf left empty goes,
//     and its parent gives way to its sibling;
//   - an inserted triangle descends from the root to the node beside which
//     it costs least (the surface area of the boxes it grows, its
//     ancestors' growth included: at a leaf for a triangle among others,
//     high up for one far out, outside the root's volume as well); the
//     boxes are those of the old tree, for every triangle of an edit: of
//     the volumes for k-DOP and AABB trees, of each node's triangles for
//     OBB, sphere and RSS trees, whose volumes' boxes are loose. The
//     triangles placed at one node are built into a subtree by the kind's
//     own builder, which becomes that node's sibling (a leaf's triangles
//     and those placed there are built together);
//   - the volumes of the changed nodes are computed again exactly: for
//     k-DOP trees a changed leaf's k-DOP is fitted and rounded outward as
//     Build does, about the old tree's offsets, and a changed internal
//     node's is its children's union; the moved-volume kinds (OBB,
//     sphere, AABB, RSS) fit a changed internal node to its triangles by
//     the kind's fit, as Build does; unchanged subtrees keep their
//     volumes. Compact k-DOP trees are refitted as Refit does (their
//     packing is global); box-trees are built again (Build), as Refit
//     does, since which child a triangle goes to depends on each cut;
//   - a changed subtree is rebuilt by the kind's builder when its height
//     passes 2⌈log₂ n⌉ + 4 for its n triangles (local re-balancing).
//
// So an edited tree is as sound as a built one (Validate and Read's checks
// hold, a query reports exactly the pairs of testing every pair), but not
// as tight: RefitQuality measures how much looser it is than the tree it
// descends from was when built, and the README's "Editing a model" gives
// the rule measured for when to rebuild.
//
// Twins (identical triangles) are those Build would find over the edited
// mesh: an inserted copy of a triangle is its twin, and a group whose held
// triangle was deleted is held by its next survivor (the old groups are
// carried over and the inserted triangles' hashes looked up).
//
// An edit copies the node arrays and passes over them, so it costs at
// least that pass however small it is (the README's "Editing a model"
// gives the times against a build).

// ErrEdit is returned (wrapped) by Edit and EditMap for an edit that cannot
// be made: a deleted index out of range or given twice, an inserted
// triangle with a coordinate that is not finite, no triangle left, or more
// triangles than a tree holds. The error names the offending triangle.
var ErrEdit = errors.New("bvh: edit")

// EditMap returns the map of an edit deleting the triangles del from a mesh
// of n triangles: the new index of each old triangle, -1 for a deleted
// one (see Edit's semantics: the survivors keep their order). It returns an
// error wrapping ErrEdit for an index of del out of range or given twice.
func EditMap(n int, del []int32) ([]int32, error) {
	m := make([]int32, n)
	for j, x := range del {
		if x < 0 || int(x) >= n {
			return nil, fmt.Errorf("%w: delete %d: triangle %d out of range [0, %d)", ErrEdit, j, x, n)
		}
		if m[x] < 0 {
			return nil, fmt.Errorf("%w: delete %d: triangle %d deleted twice", ErrEdit, j, x)
		}
		m[x] = -1
	}
	k := int32(0)
	for i, v := range m {
		if v == 0 {
			m[i], k = k, k+1
		}
	}
	return m, nil
}

// EditMesh returns the mesh of old with the triangles del deleted and ins
// inserted (see Edit's semantics for the order of the triangles and the
// vertices), and the map of the old indices (EditMap). The new mesh shares
// nothing with old. Errors wrap ErrEdit.
func EditMesh(old *mesh.TriMesh, ins []geom.Triangle, del []int32) (*mesh.TriMesh, []int32, error) {
	n := len(old.Tris)
	remap, err := EditMap(n, del)
	if err != nil {
		return nil, nil, err
	}
	for j := range ins {
		for _, v := range ins[j] {
			if !v.IsFinite() {
				return nil, nil, fmt.Errorf("%w: insert %d: non-finite coordinate %v", ErrEdit, j, v)
			}
		}
	}
	kept := n - len(del)
	if kept+len(ins) == 0 {
		return nil, nil, fmt.Errorf("%w: no triangle left (%d deleted of %d, none inserted)", ErrEdit, len(del), n)
	}
	if kept+len(ins) > math.MaxInt32/2 {
		return nil, nil, fmt.Errorf("%w: insert %d: %d triangles is more than a tree holds", ErrEdit, math.MaxInt32/2-kept, kept+len(ins))
	}
	m := &mesh.TriMesh{Tris: make([][3]int32, 0, kept+len(ins))}
	if len(del) == 0 {
		m.Verts = make([]geom.Vec3, len(old.Verts), len(old.Verts)+3*len(ins))
		copy(m.Verts, old.Verts)
		m.Tris = append(m.Tris, old.Tris...)
	} else {
		// The vertices of the survivors, in their order: vmap[v] is v's
		// new index, -1 for a vertex no survivor uses.
		vmap := make([]int32, len(old.Verts))
		for i := range vmap {
			vmap[i] = -1
		}
		for i, tr := range old.Tris {
			if remap[i] >= 0 {
				vmap[tr[0]], vmap[tr[1]], vmap[tr[2]] = 0, 0, 0
			}
		}
		nv := 0
		for _, u := range vmap {
			if u == 0 {
				nv++
			}
		}
		m.Verts = make([]geom.Vec3, 0, nv+3*len(ins))
		for i, v := range old.Verts {
			if vmap[i] == 0 {
				vmap[i] = int32(len(m.Verts))
				m.Verts = append(m.Verts, v)
			}
		}
		for i, tr := range old.Tris {
			if remap[i] >= 0 {
				m.Tris = append(m.Tris, [3]int32{vmap[tr[0]], vmap[tr[1]], vmap[tr[2]]})
			}
		}
	}
	for _, tr := range ins {
		v := int32(len(m.Verts))
		m.Verts = append(m.Verts, tr[0], tr[1], tr[2])
		m.Tris = append(m.Tris, [3]int32{v, v + 1, v + 2})
	}
	return m, remap, nil
}

// Edit returns a tree over the mesh of t's triangles with those of del
// deleted and the triangles ins inserted (EditMesh), and the map of t's
// triangle indices to the new tree's (EditMap: -1 for a deleted one). See
// the Semantics above. t is unchanged. Errors wrap ErrEdit and name the
// offending triangle.
func (t *Tree) Edit(ins []geom.Triangle, del []int32) (*Tree, []int32, error) {
	m, remap, err := EditMesh(t.mesh, ins, del)
	if err != nil {
		return nil, nil, err
	}
	return t.edit(m, remap), remap, nil
}

// editor is a node array that can make the node array of an edited tree
// from the edit's shape (see editShape) over m, the edited mesh.
type editor interface {
	edited(sh *editShape, o Options, m *mesh.TriMesh) impl
}

// edit returns t edited to m, whose triangles are t's mapped by remap
// (-1: deleted) and then the inserted ones.
func (t *Tree) edit(m *mesh.TriMesh, remap []int32) *Tree {
	nt := &Tree{mesh: m, opts: t.opts, allHeld: t.allHeld}
	var ids []int32
	if !t.allHeld {
		nt.twins = editTwins(t.twins, remap, m)
	}
	ed, ok := t.impl.(editor)
	if !ok || t.impl.len() == 0 {
		if ids == nil {
			ids = nt.twins.heldTriangles(len(m.Tris))
		}
		nt.impl = kinds[t.opts.Kind].build(t.opts, m, ids)
		nt.opts.Compact = t.opts.Compact && isCompact(nt.impl)
		return nt
	}
	sh := newShaper(t, m, remap, nt.twins).shape()
	nt.impl = ed.edited(sh, t.opts, m)
	nt.opts.Compact = t.opts.Compact && isCompact(nt.impl)
	nt.base = t.baseFigure()
	return nt
}

// editShape is the node layout of an edited tree: refs in the depth-first
// layout of the k-DOP trees (a leaf's ^x: triangle x, or position x of
// order), order (nil for leaves of one triangle), and for each node the
// node of the old tree whose volume it keeps (its subtree unchanged but
// for the triangles' indices), or -1 for a node whose volume must be
// computed.
type editShape struct {
	refs  []int32
	order []int32
	src   []int32
}

// shaper makes the shape of an edit of the tree t.
type shaper struct {
	old   impl
	o     Options
	m     *mesh.TriMesh // the edited mesh
	remap []int32
	multi bool // leaves of several triangles (an order)
	// Per node of the old tree: its parent, its subtree's height and
	// triangle count, and whether the edit changes its subtree.
	parent, height, size []int32
	dirty                []bool
	// kept are the triangles (new indices) of the changed leaves; attach
	// the triangles placed beside a node; live and newHeight the count and
	// the height of a changed node's subtree after the edit; rebuild the
	// changed nodes whose subtree is rebuilt.
	kept      map[int32][]int32
	attach    map[int32][]int32
	live      map[int32]int32
	newHeight map[int32]int32
	rebuild   map[int32]bool
	out       editShape
	buf, sub  []int32
	// boxes are the boxes of the old nodes' triangles (OBB, sphere and
	// RSS trees, whose volumes' boxes are loose), for the placement.
	boxes [][6]float32
}

// newShaper reads t's tree: which leaves lose triangles (deleted, or no
// longer held: twins), which triangles of m must be inserted, and where.
func newShaper(t *Tree, m *mesh.TriMesh, remap []int32, tw twinList) *shaper {
	it := t.impl
	n := it.len()
	s := &shaper{old: it, o: t.opts, m: m, remap: remap, multi: it.perm() != nil || t.opts.Leaf > 1,
		parent: make([]int32, n), height: make([]int32, n), size: make([]int32, n), dirty: make([]bool, n),
		kept: map[int32][]int32{}, attach: map[int32][]int32{}, live: map[int32]int32{},
		newHeight: map[int32]int32{}, rebuild: map[int32]bool{}}
	s.o.Compact = false
	held := func(x int32) bool { return t.allHeld || tw.held(x) }
	in := make([]bool, len(m.Tris))
	s.parent[0] = -1
	perm := it.perm()
	for i := range n {
		r := it.ref(i)
		if r >= 0 {
			s.parent[i+1], s.parent[i+int(r)] = int32(i), int32(i)
			continue
		}
		s.buf = leafList(perm, r, s.buf[:0])
		s.size[i] = int32(len(s.buf))
		gone := false
		for _, x := range s.buf {
			if nx := remap[x]; nx >= 0 && held(nx) {
				in[nx] = true
			} else {
				gone = true
			}
		}
		if gone {
			var k []int32
			for _, x := range s.buf {
				if nx := remap[x]; nx >= 0 && held(nx) {
					k = append(k, nx)
				}
			}
			s.kept[int32(i)] = k
			s.mark(int32(i))
		}
	}
	if t.opts.Kind != KDOP && t.opts.Kind != AABB {
		s.boxes = make([][6]float32, n)
	}
	for i := n - 1; i >= 0; i-- {
		if r := it.ref(i); r >= 0 {
			l, rr := i+1, i+int(r)
			s.height[i] = 1 + max(s.height[l], s.height[rr])
			s.size[i] = s.size[l] + s.size[rr]
			if s.boxes != nil {
				a, b := &s.boxes[l], &s.boxes[rr]
				s.boxes[i] = [6]float32{min(a[0], b[0]), min(a[1], b[1]), min(a[2], b[2]), max(a[3], b[3]), max(a[4], b[4]), max(a[5], b[5])}
			}
		} else {
			s.height[i] = 1
			if s.boxes != nil {
				bb := geom.EmptyAABB()
				for _, x := range leafList(perm, r, s.buf[:0]) {
					bb = bb.Union(t.mesh.Triangle(int(x)).Bounds())
				}
				s.boxes[i] = [6]float32{float32(bb.Min.X), float32(bb.Min.Y), float32(bb.Min.Z), float32(bb.Max.X), float32(bb.Max.Y), float32(bb.Max.Z)}
			}
		}
	}
	for x := range int32(len(m.Tris)) {
		if !in[x] && held(x) {
			at := s.place(m.Triangle(int(x)).Bounds())
			s.attach[at] = append(s.attach[at], x)
			s.mark(at)
		}
	}
	return s
}

// keptOf returns the triangles (new indices) that old leaf i keeps.
func (s *shaper) keptOf(i int32) []int32 {
	if k, ok := s.kept[i]; ok {
		return k
	}
	k := leafList(s.old.perm(), s.old.ref(int(i)), nil)
	for j, x := range k {
		k[j] = s.remap[x]
	}
	s.kept[i] = k
	return k
}

// mark marks node i and its ancestors changed.
func (s *shaper) mark(i int32) {
	for ; i >= 0 && !s.dirty[i]; i = s.parent[i] {
		s.dirty[i] = true
	}
}

// areaOf returns the surface area of b.
func areaOf(b geom.AABB) float64 {
	d := b.Max.Sub(b.Min)
	if d.X < 0 || d.Y < 0 || d.Z < 0 {
		return 0
	}
	return 2 * (d.X*d.Y + d.Y*d.Z + d.Z*d.X)
}

// nodeBox returns the axis-aligned box of node i's volume (of its
// triangles, if the shaper has their boxes), the placement's measure.
func (s *shaper) nodeBox(i int) geom.AABB {
	if s.boxes != nil {
		b := &s.boxes[i]
		return geom.AABB{Min: geom.Vec3{X: float64(b[0]), Y: float64(b[1]), Z: float64(b[2])},
			Max: geom.Vec3{X: float64(b[3]), Y: float64(b[4]), Z: float64(b[5])}}
	}
	d := s.old.bounds(i)
	return geom.AABB{Min: geom.Vec3{X: d.Lo[0], Y: d.Lo[1], Z: d.Lo[2]}, Max: geom.Vec3{X: d.Hi[0], Y: d.Hi[1], Z: d.Hi[2]}}
}

// place returns the node beside which a triangle of box tb costs least,
// found as an R-tree's insertion descends: from the root, to the child
// whose box it grows least, each node on the way a candidate costing the
// area of its box grown by tb plus the growth of its ancestors' boxes
// (the surface area heuristic's cost of the insertion), and the descent
// stopping where no deeper node can cost less.
func (s *shaper) place(tb geom.AABB) int32 {
	i, inh := 0, 0.0
	best, bestCost := 0, math.Inf(1)
	at := areaOf(tb)
	b := s.nodeBox(0)
	for {
		ab := areaOf(b)
		au := areaOf(b.Union(tb))
		if c := au + inh; c < bestCost {
			best, bestCost = i, c
		}
		r := s.old.ref(i)
		if r < 0 {
			break
		}
		inh += au - ab
		if inh+at >= bestCost {
			break
		}
		l, rr := i+1, i+int(r)
		bl, br := s.nodeBox(l), s.nodeBox(rr)
		al, ar := areaOf(bl), areaOf(br)
		dl, dr := areaOf(bl.Union(tb))-al, areaOf(br.Union(tb))-ar
		if dl < dr || dl == dr && al <= ar {
			i, b = l, bl
		} else {
			i, b = rr, br
		}
	}
	return int32(best)
}

// ceilLog2 returns ⌈log₂ n⌉ for n ≥ 1.
func ceilLog2(n int32) int32 { return int32(bits.Len32(uint32(n - 1))) }

// heightBound is the height past which a changed subtree of n triangles
// is rebuilt.
func heightBound(n int32) int32 { return 2*ceilLog2(n) + 4 }

// builtHeight estimates the height of a subtree of n triangles that the
// kind's builder builds.
func builtHeight(n int32) int32 {
	if n <= 1 {
		return 1
	}
	return ceilLog2(n) + 2
}

// count returns the number of triangles of node i's subtree after the
// edit, and its height, deciding on the way which changed subtrees to
// rebuild (bottom up, so that one rebuilt low keeps its ancestors within
// the bound).
func (s *shaper) count(i int32) (int32, int32) {
	if !s.dirty[i] {
		return s.size[i], s.height[i]
	}
	if v, ok := s.live[i]; ok {
		return v, s.newHeight[i]
	}
	a := int32(len(s.attach[i]))
	var v, h int32
	if r := s.old.ref(int(i)); r < 0 {
		v = int32(len(s.keptOf(i))) + a
		h = builtHeight(v)
	} else {
		lv, lh := s.count(i + 1)
		rv, rh := s.count(i + r)
		v = lv + rv
		switch {
		case lv > 0 && rv > 0:
			h = 1 + max(lh, rh)
		case lv > 0:
			h = lh
		default:
			h = rh
		}
		if a > 0 {
			if v > 0 {
				h = 1 + max(h, builtHeight(a))
			} else {
				h = builtHeight(a)
			}
			v += a
		}
		if v > 1 && h > heightBound(v) {
			s.rebuild[i] = true
			h = builtHeight(v)
		}
	}
	s.live[i], s.newHeight[i] = v, h
	return v, h
}

// shape returns the edit's shape.
func (s *shaper) shape() *editShape {
	n := s.old.len()
	s.out = editShape{refs: make([]int32, 0, max(n, 2*len(s.m.Tris))), src: make([]int32, 0, n)}
	if s.multi {
		s.out.order = make([]int32, 0, len(s.m.Tris))
	}
	s.count(0)
	s.emit(0)
	return &s.out
}

// open lays out an internal node whose right child is not laid out yet,
// and returns it.
func (s *shaper) open() int {
	s.out.refs = append(s.out.refs, 0)
	s.out.src = append(s.out.src, -1)
	return len(s.out.refs) - 1
}

// close sets node p's right child to the next node laid out.
func (s *shaper) close(p int) { s.out.refs[p] = int32(len(s.out.refs) - p) }

// leaf lays out a leaf of the triangles ts (new indices) keeping old's
// volume (src, or -1).
func (s *shaper) leaf(ts []int32, src int32) {
	s.out.src = append(s.out.src, src)
	if !s.multi {
		s.out.refs = append(s.out.refs, ^ts[0])
		return
	}
	x := len(s.out.order)
	s.out.order = append(s.out.order, ts...)
	s.out.order[len(s.out.order)-1] = ^s.out.order[len(s.out.order)-1]
	s.out.refs = append(s.out.refs, ^int32(x))
}

// emit lays out the edited subtree of old node i (not empty).
func (s *shaper) emit(i int32) {
	if !s.dirty[i] {
		s.copySub(int(i))
		return
	}
	if s.rebuild[i] {
		s.build(s.gather(i, nil))
		return
	}
	ins := s.attach[i]
	r := s.old.ref(int(i))
	if r < 0 {
		s.build(append(slices.Clip(s.keptOf(i)), ins...))
		return
	}
	lv, _ := s.count(i + 1)
	rv, _ := s.count(i + r)
	if len(ins) > 0 {
		if lv+rv == 0 {
			s.build(ins)
			return
		}
		p := s.open()
		s.emitCore(i, lv, rv)
		s.close(p)
		s.build(ins)
		return
	}
	s.emitCore(i, lv, rv)
}

// emitCore lays out the edited children of internal node i, whose counts
// are lv and rv (not both 0): a node over both, or the one left.
func (s *shaper) emitCore(i, lv, rv int32) {
	r := s.old.ref(int(i))
	switch {
	case lv > 0 && rv > 0:
		p := s.open()
		s.emit(i + 1)
		s.close(p)
		s.emit(i + r)
	case lv > 0:
		s.emit(i + 1)
	default:
		s.emit(i + r)
	}
}

// copySub lays out the unchanged subtree of old node i, its triangles
// renumbered.
func (s *shaper) copySub(i int) {
	end := subtreeEnd(s.old.ref, i)
	perm := s.old.perm()
	for j := i; j < end; j++ {
		r := s.old.ref(j)
		if r >= 0 {
			s.out.refs = append(s.out.refs, r)
			s.out.src = append(s.out.src, int32(j))
			continue
		}
		s.buf = leafList(perm, r, s.buf[:0])
		for k, x := range s.buf {
			s.buf[k] = s.remap[x]
		}
		s.leaf(s.buf, int32(j))
	}
}

// gather appends the triangles of old node i's edited subtree to dst.
func (s *shaper) gather(i int32, dst []int32) []int32 {
	if !s.dirty[i] {
		perm := s.old.perm()
		end := subtreeEnd(s.old.ref, int(i))
		for j := int(i); j < end; j++ {
			if r := s.old.ref(j); r < 0 {
				n := len(dst)
				dst = leafList(perm, r, dst)
				for k := n; k < len(dst); k++ {
					dst[k] = s.remap[dst[k]]
				}
			}
		}
		return dst
	}
	if r := s.old.ref(int(i)); r < 0 {
		dst = append(dst, s.keptOf(i)...)
	} else {
		dst = s.gather(i+1, dst)
		dst = s.gather(i+r, dst)
	}
	return append(dst, s.attach[i]...)
}

// build lays out the subtree that the kind's builder builds over the
// triangles ts (new indices, not empty), its volumes to be computed. It
// builds over a mesh of those triangles alone, so that its cost is theirs.
func (s *shaper) build(ts []int32) {
	if len(ts) == 1 {
		s.leaf(ts, -1)
		return
	}
	ts = slices.Clone(ts)
	sub := &mesh.TriMesh{Verts: make([]geom.Vec3, 0, 3*len(ts)), Tris: make([][3]int32, len(ts))}
	ids := make([]int32, len(ts))
	for k, x := range ts {
		tr := s.m.Triangle(int(x))
		v := int32(len(sub.Verts))
		sub.Verts = append(sub.Verts, tr[0], tr[1], tr[2])
		sub.Tris[k] = [3]int32{v, v + 1, v + 2}
		ids[k] = int32(k)
	}
	b := kinds[s.o.Kind].build(s.o, sub, ids)
	perm := b.perm()
	for j := range b.len() {
		r := b.ref(j)
		if r >= 0 {
			s.out.refs = append(s.out.refs, r)
			s.out.src = append(s.out.src, -1)
			continue
		}
		s.sub = leafList(perm, r, s.sub[:0])
		for k, x := range s.sub {
			s.sub[k] = ts[x]
		}
		s.leaf(s.sub, -1)
	}
}

// # The kinds' node arrays

// edited returns the k-DOP node array of the shape sh over m: the nodes
// that keep an old volume copy it, the others are computed bottom up, a
// leaf's k-DOP fitted to its triangles and rounded outward about t's
// offsets as Build's leaves are, an internal node's its children's union.
func (t *tree[F, A]) edited(sh *editShape, o Options, m *mesh.TriMesh) impl {
	n := len(sh.refs)
	nt := &tree[F, A]{nodes: make([]node[F, A], n), order: sh.order, off: t.off}
	var ts []int32
	for j := n - 1; j >= 0; j-- {
		nd := &nt.nodes[j]
		nd.ref = sh.refs[j]
		if x := sh.src[j]; x >= 0 {
			nd.s = t.nodes[x].s
			continue
		}
		if nd.ref >= 0 {
			bv.Union[F](&nd.s, &nt.nodes[j+1].s, &nt.nodes[j+int(nd.ref)].s)
			continue
		}
		d := bv.Empty(o.K)
		ts = leafList(nt.order, nd.ref, ts[:0])
		for _, x := range ts {
			d = d.Union(bv.FitTriangles(o.K, m.Triangle(int(x))))
		}
		bv.PackDOP[F](&nd.s, &d, &nt.off)
	}
	return nt
}

// edited refits the float32 tree of the shape sh over m (refitDOP) and
// compacts it, as Refit does: the compact packing is global.
func (t *ctree[A, Q]) edited(sh *editShape, o Options, m *mesh.TriMesh) impl {
	s := &tree[float32, A]{nodes: make([]node[float32, A], len(sh.refs)), order: sh.order}
	for j, r := range sh.refs {
		s.nodes[j].ref = r
	}
	f := refitDOP[float32, A](s, o, m)
	if c := compactTree[A, Q](f); c != nil {
		return c
	}
	return f
}

// edited returns the vtree of the shape sh over m: the internal nodes
// that keep an old volume copy it, the others are fitted to their
// triangles by the kind's fit, as Build fits them.
func (t *vtree[V]) edited(sh *editShape, o Options, m *mesh.TriMesh) impl {
	nt := &vtree[V]{vk: t.vk, m: m, order: sh.order, mag: meshMag(m)}
	n := len(sh.refs)
	ni := 0
	for _, r := range sh.refs {
		if r >= 0 {
			ni++
		}
	}
	vols := make([]V, ni)
	f := newFlat(sh.refs, vols, nil)
	old := t.view()
	// pos[j] counts the triangles of the leaves before node j, so that a
	// node's triangles are ids[pos[j]:pos[end]].
	pos := make([]int32, n+1)
	ids := make([]int32, 0, len(m.Tris))
	var fit []int
	for j, r := range sh.refs {
		pos[j] = int32(len(ids))
		if r < 0 {
			ids = leafList(sh.order, r, ids)
			continue
		}
		if x := sh.src[j]; x >= 0 {
			vols[f.id[j]] = *old.vol(old.id[x])
		} else {
			fit = append(fit, j)
		}
	}
	pos[n] = int32(len(ids))
	ref := func(j int) int32 { return sh.refs[j] }
	end := make([]int32, len(fit))
	total := 0
	for k, j := range fit {
		end[k] = int32(subtreeEnd(ref, j))
		total += int(pos[end[k]] - pos[j])
	}
	// The triangles' boxes, once, if the fits read them and the changed
	// nodes hold more triangles than the mesh (a triangle in several).
	var boxes []geom.AABB
	if t.vk.boxes && total > len(m.Tris) {
		boxes = make([]geom.AABB, len(m.Tris))
		parallelFor(len(boxes), func(lo, hi int) {
			for x := lo; x < hi; x++ {
				boxes[x] = m.Triangle(x).Bounds()
			}
		})
	}
	parallelFor(len(fit), func(lo, hi int) {
		sc := &fitScratch{}
		for k := lo; k < hi; k++ {
			j := fit[k]
			nd := fitNode{m: m, ids: ids[pos[j]:pos[end[k]]], sc: sc, buf: &sc.tris}
			switch {
			case boxes != nil:
				nd.box = boxUnion(boxes, nd.ids)
			case t.vk.boxes:
				nd.box = geom.EmptyAABB()
				for _, x := range nd.ids {
					nd.box = nd.box.Union(m.Triangle(int(x)).Bounds())
				}
			}
			vols[f.id[j]] = t.vk.fit(&nd)
		}
	})
	nt.setNodes(f)
	return nt
}

// editTwins returns the twins of m, the mesh of an edit of old (whose
// twins are tw) by remap, exactly as findTwins(m) finds them, without its
// sort: old groups keep their survivors, and an inserted triangle joins
// the group of the survivors or the other inserted triangles it equals,
// found by hashing the inserted ones and looking each survivor up among
// them (a pass over the survivors' hashes, only if there are inserts).
func editTwins(tw twinList, remap []int32, m *mesh.TriMesh) twinList {
	n := len(m.Tris)
	kept := 0
	for _, x := range remap {
		if x >= 0 {
			kept++
		}
	}
	// parent links a triangle of a group to a smaller one of it (union by
	// the smaller index: the root of a group is its first triangle).
	parent := map[int32]int32{}
	var find func(x int32) int32
	find = func(x int32) int32 {
		p, ok := parent[x]
		if !ok || p == x {
			return x
		}
		r := find(p)
		parent[x] = r
		return r
	}
	union := func(a, b int32) {
		ra, rb := find(a), find(b)
		if ra == rb {
			return
		}
		if ra > rb {
			ra, rb = rb, ra
		}
		parent[rb] = ra
		if _, ok := parent[ra]; !ok {
			parent[ra] = ra
		}
	}
	if tw.has() {
		for r := range int32(len(tw.next)) {
			if hasBit(tw.twin, r) || tw.next[r] < 0 {
				continue
			}
			first := int32(-1)
			for t := r; t >= 0; t = tw.next[t] {
				if x := remap[t]; x >= 0 {
					if first < 0 {
						first = x
						parent[x] = x
					} else {
						union(first, x)
					}
				}
			}
		}
	}
	if kept < n {
		ins := map[uint64][]int32{}
		for x := int32(kept); x < int32(n); x++ {
			h := triangleHash(m, int(x))
			for _, y := range ins[h] {
				if sameTriangle(m, int(x), int(y)) {
					union(x, y)
					break
				}
			}
			ins[h] = append(ins[h], x)
		}
		for x := range int32(kept) {
			for _, y := range ins[triangleHash(m, int(x))] {
				if sameTriangle(m, int(x), int(y)) {
					union(x, y)
				}
			}
		}
	}
	// The groups, their members in order, linked as findTwins links them:
	// the first, then the others from the last back.
	groups := map[int32][]int32{}
	for x := range parent {
		r := find(x)
		groups[r] = append(groups[r], x)
	}
	var out twinList
	for _, g := range groups {
		if len(g) < 2 {
			continue
		}
		if out.next == nil {
			out.next = make([]int32, n)
			for i := range out.next {
				out.next[i] = -1
			}
			out.twin = make([]uint64, (n+63)/64)
		}
		slices.Sort(g)
		prev := g[0]
		for _, t := range slices.Backward(g[1:]) {
			out.next[prev] = t
			prev = t
			out.twin[t>>6] |= 1 << (t & 63)
		}
	}
	return out
}
