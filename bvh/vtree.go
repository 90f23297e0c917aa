package bvh

import (
	"errors"
	"math"
	"runtime"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/collide3d/collide/bv"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh"
)

// vtree is the node array of a tree whose volumes, of type V, are stored in
// model coordinates and moved with the flying model's pose, never refitted:
// OBB, sphere, AABB and RSS trees.
//
// Only the internal nodes are stored, with their volumes (OPCODE's
// "no-leaf" trees): the queries test a leaf's triangles against the other
// tree's volume directly (pairOps.leafTests), so a leaf's volume would
// never be read, and an internal node names its children itself. A tree of
// n leaves keeps n − 1 nodes of a volume and two int32s, where a volume
// and an int32 for each of the 2n − 1 nodes took twice the memory with one
// triangle per leaf; and a node's children come with its volume, in one
// cache line.
//
// The nodes are numbered as the queries see them (pairOps): the internal
// nodes 0 to ni − 1 in depth-first order (the root first), then the
// leaves, leaf ni + x holding triangle x (leaf size 1) or the triangles
// from position x of the order. A tree that is one leaf has no internal
// node: its root, node 0, is that leaf (root). The depth-first layout of
// the k-DOP trees and of the saved files, which Tree.Node and Tree.Height
// number the nodes by (see impl), is made from the nodes when asked
// (flatten, view).
type vtree[V any] struct {
	vk    *volKind[V]
	m     *mesh.TriMesh // for the boxes of leaves (bounds)
	nodes []vnode[V]    // the internal nodes, depth first
	nn    int           // all the nodes, leaves included: 2n − 1
	root  int32         // a tree of one leaf: its ref ^x (else 0)
	// order lists the triangles leaf by leaf when leaves may hold more
	// than one (as for k-DOP trees), nil for leaf size 1.
	order []int32
	mag   float64 // largest |coordinate| of the mesh
	// flat is the depth-first layout, made on the first call that needs
	// it (ref, bounds: Tree.Node, Height, Spheres).
	flat atomic.Pointer[flat[V]]
	// pend holds the nodes as Read found them, depth first, until check
	// has checked them and made the nodes from them; saved locates them
	// in the file, so that faults name their bytes.
	pend  *flat[V]
	saved *savedNodes
}

// vnode is an internal node of a vtree: its volume and its children.
type vnode[V any] struct {
	v   V
	kid [2]int32
}

// flat is a vtree in the depth-first layout of the k-DOP trees: node i's
// ref refs[i] is the offset of its right child (its left child is i + 1)
// or ^x for a leaf; id[i] counts the internal nodes (or the leaves, for a
// leaf) before i, so that an internal node's volume is vol(id[i]). A tree
// read from a file of the first node layout (see vtree_save.go) also has
// its leaves' volumes, leafVols[id[i]] for leaf i, until check has checked
// them.
type flat[V any] struct {
	refs     []int32
	id       []int32
	vol      func(k int32) *V
	leafVols []V
}

// stored returns the volume stored for node i: an internal node's, a
// leaf's read in the first layout, or nil.
func (f *flat[V]) stored(i int) *V {
	switch {
	case f.refs[i] >= 0:
		return f.vol(f.id[i])
	case f.leafVols != nil:
		return &f.leafVols[f.id[i]]
	}
	return nil
}

// newFlat returns the flat layout of nodes whose refs are refs, their
// internal nodes' volumes being vols.
func newFlat[V any](refs []int32, vols []V, leafVols []V) *flat[V] {
	f := &flat[V]{refs: refs, id: make([]int32, len(refs)), leafVols: leafVols,
		vol: func(k int32) *V { return &vols[k] }}
	var in, out int32
	for i, r := range refs {
		if r >= 0 {
			f.id[i], in = in, in+1
		} else {
			f.id[i], out = out, out+1
		}
	}
	return f
}

// setNodes sets t's nodes from f, whose shape must be valid.
func (t *vtree[V]) setNodes(f *flat[V]) {
	t.nn = len(f.refs)
	t.nodes, t.root = nil, 0
	if t.nn == 0 {
		return
	}
	if f.refs[0] < 0 {
		t.root = f.refs[0]
		return
	}
	ni := int32(0)
	for _, r := range f.refs {
		if r >= 0 {
			ni++
		}
	}
	t.nodes = make([]vnode[V], ni)
	kid := func(c int) int32 {
		if r := f.refs[c]; r < 0 {
			return ni + ^r
		}
		return f.id[c]
	}
	for i, r := range f.refs {
		if r >= 0 {
			n := &t.nodes[f.id[i]]
			n.v = *f.vol(f.id[i])
			n.kid = [2]int32{kid(i + 1), kid(i + int(r))}
		}
	}
}

// flatten returns t's nodes in the depth-first layout.
func (t *vtree[V]) flatten() *flat[V] {
	f := &flat[V]{refs: make([]int32, 0, t.nn), id: make([]int32, 0, t.nn),
		vol: func(k int32) *V { return &t.nodes[k].v }}
	if t.nn == 0 {
		return f
	}
	if len(t.nodes) == 0 {
		f.refs, f.id = append(f.refs, t.root), append(f.id, 0)
		return f
	}
	ni := int32(len(t.nodes))
	// Each node on the stack, when it is laid out, sets its parent's
	// offset (at, if ≥ 0) if it is a right child.
	type item struct{ n, at int32 }
	stack := []item{{0, -1}}
	leaves := int32(0)
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		i := int32(len(f.refs))
		if it.at >= 0 {
			f.refs[it.at] = i - it.at
		}
		if it.n >= ni {
			f.refs, f.id = append(f.refs, ^(it.n-ni)), append(f.id, leaves)
			leaves++
			continue
		}
		f.refs, f.id = append(f.refs, 0), append(f.id, it.n)
		k := &t.nodes[it.n].kid
		stack = append(stack, item{k[1], i}, item{k[0], -1})
	}
	return f
}

// view returns t's depth-first layout, made once.
func (t *vtree[V]) view() *flat[V] {
	if f := t.flat.Load(); f != nil {
		return f
	}
	f := t.flatten()
	t.flat.CompareAndSwap(nil, f)
	return t.flat.Load()
}

// vol returns the volume of internal node i (of the queries' numbering).
func (t *vtree[V]) vol(i int32) *V { return &t.nodes[i].v }

// kids returns node i's children, or -1, -1 for a leaf.
func (t *vtree[V]) kids(i int32) (l, r int32) {
	if uint32(i) >= uint32(len(t.nodes)) {
		return -1, -1
	}
	k := &t.nodes[i].kid
	return k[0], k[1]
}

// leafRef returns the ref (^x, as in the depth-first layout) of leaf i.
func (t *vtree[V]) leafRef(i int32) int32 {
	if len(t.nodes) == 0 {
		return t.root
	}
	return ^(i - int32(len(t.nodes)))
}

// ids returns the number of node numbers of the queries' numbering.
func (t *vtree[V]) ids() int {
	if t.order != nil {
		return len(t.nodes) + len(t.order)
	}
	return len(t.nodes) + len(t.m.Tris)
}

// volKind is what differs between the kinds of vtree: how a volume is
// fitted, split, bounded, saved and checked. Each kind's file defines one,
// with its query type.
type volKind[V any] struct {
	kind Kind
	// fit returns the volume of the node's triangles.
	fit func(n *fitNode) V
	// frame returns the directions a node with volume v may be split
	// along, and its extent along each.
	frame func(v *V, n *fitNode) (dirs [3]geom.Vec3, ext [3]float64)
	// boxes says whether fit or frame reads the node's box (fitNode.box),
	// which the builder then unites from the triangles' boxes, computed
	// once.
	boxes bool
	// volume measures v (for the MinSum and MinMax rules).
	volume func(v *V) float64
	// box returns the axis-aligned box around v.
	box func(v *V) geom.AABB
	// floats appends to dst the addresses of v's numbers, in the order a
	// saved node holds them.
	floats func(v *V, dst []*float64) []*float64
	// check returns the first fault of t's volumes over m (their numbers
	// within the bounds, each containing the vertices below it), or nil.
	check func(t *flat[V], m *mesh.TriMesh, sh *shape) *fault
	// probes returns the cost probes of a tree of the kind (see
	// Tree.CostProbes).
	probes func(t *Tree) (cv, cu func(n int))
}

func (t *vtree[V]) probes(tr *Tree) (cv, cu func(n int)) { return t.vk.probes(tr) }

func (t *vtree[V]) len() int        { return t.nn }
func (t *vtree[V]) ref(i int) int32 { return t.view().refs[i] }
func (t *vtree[V]) perm() []int32   { return t.order }

// bytes counts the nodes, the order, and the depth-first layout once made
// (8 bytes a node).
func (t *vtree[V]) bytes() int64 {
	var n vnode[V]
	b := int64(unsafe.Sizeof(n))*int64(len(t.nodes)) + 4*int64(len(t.order))
	if f := t.flat.Load(); f != nil {
		b += 8 * int64(len(f.refs))
	}
	return b
}

// bounds returns the axis-aligned box of the volume of node i (of the
// depth-first layout) as a 6-DOP; for a leaf, which has none, the box of
// its triangles.
func (t *vtree[V]) bounds(i int) bv.DOP {
	var ref int32
	switch {
	case i == 0 && len(t.nodes) > 0:
		return boxDOP(t.vk.box(&t.nodes[0].v))
	case i == 0:
		ref = t.root
	default:
		f := t.view()
		if ref = f.refs[i]; ref >= 0 {
			return boxDOP(t.vk.box(f.vol(f.id[i])))
		}
	}
	b := geom.EmptyAABB()
	for _, tr := range leafList(t.order, ref, nil) {
		b = b.Union(t.m.Triangle(int(tr)).Bounds())
	}
	return boxDOP(b)
}

// volAt returns the volume of node i of the depth-first layout, nil for a
// leaf.
func (t *vtree[V]) volAt(i int) *V {
	f := t.view()
	if f.refs[i] < 0 {
		return nil
	}
	return f.vol(f.id[i])
}

// boxDOP returns b as a 6-DOP.
func boxDOP(b geom.AABB) bv.DOP {
	d := bv.Empty(bv.K6)
	d.Lo[0], d.Lo[1], d.Lo[2] = b.Min.X, b.Min.Y, b.Min.Z
	d.Hi[0], d.Hi[1], d.Hi[2] = b.Max.X, b.Max.Y, b.Max.Z
	return d
}

// meshMag returns the largest |coordinate| of m.
func meshMag(m *mesh.TriMesh) float64 {
	mag := 0.0
	for _, p := range m.Verts {
		mag = max(mag, math.Abs(p.X), math.Abs(p.Y), math.Abs(p.Z))
	}
	return mag
}

// fitScratch is one goroutine's buffers for fitting volumes.
type fitScratch struct {
	tris, half []geom.Triangle
	pts        []geom.Vec3
	buf        []geom.Vec3
	// verts holds a node's distinct vertices, three to a triangle (see
	// fitNode.vertices); seen[v] is the stamp of the last node that listed
	// vertex v.
	verts []geom.Triangle
	seen  []int32
	stamp int32
}

// fitNode is what a kind's fit and frame see of a node: its triangles,
// gathered from the mesh when asked, and their box when the kind asks for
// it (volKind.boxes).
type fitNode struct {
	m   *mesh.TriMesh
	ids []int32
	// box is the union of the triangles' boxes (geom.Triangle.Bounds):
	// the box that geom.AABB.Union over the triangles in any order gives,
	// since min and max are exact and, for the finite coordinates that
	// Build takes, order-free for −0 too.
	box geom.AABB
	sc  *fitScratch
	buf *[]geom.Triangle // which of sc's buffers triangles gathers into
	got bool
}

// triangles returns the node's triangles, in the order of its ids,
// gathered once into the node's buffer.
func (n *fitNode) triangles() []geom.Triangle {
	if !n.got {
		ts := (*n.buf)[:0]
		if cap(ts) < len(n.ids) {
			ts = make([]geom.Triangle, 0, len(n.ids)) // not append's steps of 1.25
		}
		for _, t := range n.ids {
			ts = append(ts, n.m.Triangle(int(t)))
		}
		*n.buf, n.got = ts, true
	}
	return *n.buf
}

// vertices returns the distinct vertices of the node's triangles, in the
// order they first appear in its ids, three to a triangle (the last
// repeated to fill the last triangle): the points that bv.FitOBBHull and
// bv.FitRSSHull fit as they would the triangles' corners, a sixth of them
// on a grid mesh. It uses the scratch's buffers, which the next call
// overwrites.
func (n *fitNode) vertices() []geom.Triangle {
	sc := n.sc
	if len(sc.seen) < len(n.m.Verts) {
		sc.seen, sc.stamp = make([]int32, len(n.m.Verts)), 0
	}
	sc.stamp++
	st := sc.stamp
	vs := sc.verts[:0]
	var t geom.Triangle
	k := 0
	for _, id := range n.ids {
		for _, v := range n.m.Tris[id] {
			if sc.seen[v] == st {
				continue
			}
			sc.seen[v] = st
			t[k] = n.m.Verts[v]
			if k++; k == 3 {
				vs, k = append(vs, t), 0
			}
		}
	}
	if k > 0 {
		for j := k; j < 3; j++ {
			t[j] = t[k-1]
		}
		vs = append(vs, t)
	}
	sc.verts = vs
	return vs
}

var axes = [3]geom.Vec3{{X: 1}, {Y: 1}, {Z: 1}}

// aabbFrame splits along x, y and z, with the extents of the node's box.
func aabbFrame(n *fitNode) ([3]geom.Vec3, [3]float64) {
	s := n.box.Size()
	return axes, [3]float64{s.X, s.Y, s.Z}
}

// boxUnion returns the union of the boxes of the triangles ids, as
// geom.AABB.Union would in any order: for finite numbers the builtin min
// and max are math.Min and math.Max (−0 below +0), inlined.
func boxUnion(boxes []geom.AABB, ids []int32) geom.AABB {
	inf := math.Inf(1)
	lo, hi := geom.Vec3{X: inf, Y: inf, Z: inf}, geom.Vec3{X: -inf, Y: -inf, Z: -inf}
	for _, t := range ids {
		b := &boxes[t]
		lo.X, lo.Y, lo.Z = min(lo.X, b.Min.X), min(lo.Y, b.Min.Y), min(lo.Z, b.Min.Z)
		hi.X, hi.Y, hi.Z = max(hi.X, b.Max.X), max(hi.Y, b.Max.Y), max(hi.Z, b.Max.Z)
	}
	return geom.AABB{Min: lo, Max: hi}
}

// newVTree builds the nodes of a tree of the kind vk over the triangles ids
// of m, which it takes over.
func newVTree[V any](vk *volKind[V], o Options, m *mesh.TriMesh, ids []int32) *vtree[V] {
	t := &vtree[V]{vk: vk, m: m, mag: meshMag(m)}
	t.nodes, t.root, t.order = buildVTree(o, m, ids, vk)
	if n := len(ids); n > 0 {
		t.nn = 2*len(t.nodes) + 1 // a binary tree: one leaf more than internal nodes
	}
	return t
}

// vbuilder holds the state of one build of a vtree.
type vbuilder[V any] struct {
	o     Options
	m     *mesh.TriMesh
	ops   *volKind[V]
	cent  []geom.Vec3
	area  []float64   // triangle areas (RAPID rule)
	boxes []geom.AABB // triangle boxes (ops.boxes)
	idx   []int32
	order []int32
}

// buildVTree returns the internal nodes of the tree over the triangles ids
// of m, in the queries' numbering (see vtree), or none and the ref of the
// one leaf, and the order of the triangles for leaves of more than one.
//
// The builder makes the nodes themselves, depth first: an internal node's
// number is the count of those made before it, and a leaf child is
// written ^x (x its triangle, or its first position in the order) until
// the count of internal nodes is known, then ni + x.
func buildVTree[V any](o Options, m *mesh.TriMesh, ids []int32, ops *volKind[V]) (nodes []vnode[V], root int32, order []int32) {
	n := len(ids)
	if n == 0 {
		return nil, 0, nil
	}
	b := &vbuilder[V]{o: o, m: m, ops: ops, cent: make([]geom.Vec3, len(m.Tris)), idx: ids}
	if o.Rule == RAPID {
		b.area = make([]float64, len(m.Tris))
	}
	if ops.boxes {
		b.boxes = make([]geom.AABB, len(m.Tris))
	}
	parallelFor(n, func(lo, hi int) {
		for _, i := range ids[lo:hi] {
			tr := m.Triangle(int(i))
			b.cent[i] = tr[0].Add(tr[1]).Add(tr[2]).Scale(1.0 / 3)
			if b.area != nil {
				b.area[i] = tr.Area()
			}
			if b.boxes != nil {
				b.boxes[i] = tr.Bounds()
			}
		}
	})
	if o.Leaf > 1 {
		b.order = b.idx
	}
	depth := 0
	for p := runtime.GOMAXPROCS(0); p > 1; p >>= 1 {
		depth++
	}
	nodes = make([]vnode[V], 0, n-1)
	nodes, root = b.subtree(nodes, 0, n, depth+1, &fitScratch{})
	if len(nodes) == 0 {
		return nil, root, b.order
	}
	ni := int32(len(nodes))
	for i := range nodes {
		for k, c := range nodes[i].kid {
			if c < 0 {
				nodes[i].kid[k] = ni + ^c
			}
		}
	}
	return nodes, 0, b.order
}

// subtree appends the internal nodes of the subtree over idx[lo:hi] to
// nodes, in depth-first order, and returns them and the subtree's ref: its
// root's index in nodes, or ^x for a leaf. A node's children are its
// subtrees' refs. Up to par levels fork their right subtree onto another
// goroutine, which builds it in a slice of its own, renumbered as it is
// appended.
func (b *vbuilder[V]) subtree(nodes []vnode[V], lo, hi, par int, sc *fitScratch) ([]vnode[V], int32) {
	if hi-lo <= b.o.Leaf {
		if b.order == nil {
			return nodes, ^b.idx[lo]
		}
		b.order[hi-1] = ^b.order[hi-1]
		return nodes, ^int32(lo)
	}
	nd := b.node(b.idx[lo:hi], sc, &sc.tris)
	at := len(nodes)
	nodes = append(nodes, vnode[V]{v: b.ops.fit(&nd)})
	mid := b.split(lo, hi, &nodes[at].v, &nd)
	var l, r int32
	if par > 0 && hi-lo >= parallelMin {
		var right []vnode[V]
		var wg sync.WaitGroup
		wg.Go(func() {
			right, r = b.subtree(make([]vnode[V], 0, hi-mid-1), mid, hi, par-1, &fitScratch{})
		})
		nodes, l = b.subtree(nodes, lo, mid, par-1, sc)
		wg.Wait()
		off := int32(len(nodes))
		for i := range right {
			for k, c := range right[i].kid {
				if c >= 0 {
					right[i].kid[k] = c + off
				}
			}
		}
		if r >= 0 {
			r += off
		}
		nodes = append(nodes, right...)
	} else {
		nodes, l = b.subtree(nodes, lo, mid, par, sc)
		nodes, r = b.subtree(nodes, mid, hi, par, sc)
	}
	nodes[at].kid = [2]int32{l, r}
	return nodes, int32(at)
}

// node returns the fitNode of the triangles ids, gathering into buf.
func (b *vbuilder[V]) node(ids []int32, sc *fitScratch, buf *[]geom.Triangle) fitNode {
	n := fitNode{m: b.m, ids: ids, sc: sc, buf: buf}
	if b.boxes != nil {
		n.box = boxUnion(b.boxes, ids)
	}
	return n
}

// split partitions idx[lo:hi], whose volume is v (node nd), into two
// non-empty parts and returns where the second begins.
func (b *vbuilder[V]) split(lo, hi int, v *V, nd *fitNode) int {
	ids := b.idx[lo:hi]
	dirs, ext := b.ops.frame(v, nd)
	key := func(d geom.Vec3) func(t int32) float64 {
		return func(t int32) float64 { return b.cent[t].Dot(d) }
	}
	var order [3]int
	switch b.o.Rule {
	case RAPID:
		// The principal axis, at the area-weighted mean, else halves.
		d := dirs[0]
		var sum, w float64
		for _, t := range ids {
			sum += b.area[t] * b.cent[t].Dot(d)
			w += b.area[t]
		}
		if w > 0 && !math.IsInf(sum, 0) {
			if mid, ok := partitionAt(ids, sum/w, key(d)); ok {
				return lo + mid
			}
		} else if mid, ok := partitionBy(ids, Mean, key(d)); ok {
			return lo + mid
		}
		return lo + len(ids)/2
	case LongestSide:
		order = rank(ext, true)
	case MinSum, MinMax:
		var score [3]float64
		for a, d := range dirs {
			mid, ok := partitionBy(ids, b.o.Split, key(d))
			if !ok {
				score[a] = math.Inf(1)
				continue
			}
			var vol [2]float64
			for h, part := range [2][]int32{ids[:mid], ids[mid:]} {
				hn := b.node(part, nd.sc, &nd.sc.half)
				cv := b.ops.fit(&hn)
				vol[h] = b.ops.volume(&cv)
			}
			if b.o.Rule == MinSum {
				score[a] = vol[0] + vol[1]
			} else {
				score[a] = max(vol[0], vol[1])
			}
		}
		order = rank(score, false)
	default:
		order = rank(variances(ids, b.cent, &dirs), true)
	}
	for _, a := range order {
		if mid, ok := partitionBy(ids, b.o.Split, key(dirs[a])); ok {
			return lo + mid
		}
	}
	return lo + len(ids)/2
}

// variances returns the variance of the centroids of ids along each of
// dirs, each accumulated about the first centroid to limit cancellation:
// one pass for the three, the sums in the same order as three passes.
func variances(ids []int32, cent []geom.Vec3, dirs *[3]geom.Vec3) [3]float64 {
	c0 := cent[ids[0]]
	ref := [3]float64{c0.Dot(dirs[0]), c0.Dot(dirs[1]), c0.Dot(dirs[2])}
	var sum, sq [3]float64
	for _, t := range ids {
		c := cent[t]
		for a := range 3 {
			d := c.Dot(dirs[a]) - ref[a]
			sum[a] += d
			sq[a] += d * d
		}
	}
	n := float64(len(ids))
	var v [3]float64
	for a := range 3 {
		mean := sum[a] / n
		v[a] = sq[a]/n - mean*mean
	}
	return v
}

// validate checks the tree's invariants, as Read does (see check): the
// shape (as for k-DOP trees, in the depth-first layout), every triangle in
// exactly one leaf, no leaf larger than o.Leaf, every internal node's
// volume within the bounds the queries' padding assumes and containing
// exactly the vertices of all the triangles below it.
func (t *vtree[V]) validate(m *mesh.TriMesh, o Options, tw twinList) error {
	if f := t.check(m, o, tw); f != nil {
		return errors.New("bvh: " + f.msg)
	}
	return nil
}
