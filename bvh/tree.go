package bvh

import (
	"errors"
	"fmt"
	"math"
	"sync"
	"unsafe"

	"github.com/collide3d/collide/bv"
	"github.com/collide3d/collide/mesh"
)

// Tree is a bounding-volume tree over the triangles of a mesh: binary,
// built top-down, stored as a flat array of nodes in depth-first order, with
// volumes of one Kind. It is immutable once built and safe for concurrent
// queries.
type Tree struct {
	mesh *mesh.TriMesh
	opts Options
	impl impl
	// twins groups identical triangles; the leaves hold one of each group
	// (see twinList). allHeld says that the leaves hold every triangle,
	// twins included, with twins empty: a tree read from a file of format
	// version 1, which WriteTo writes back as version 1.
	twins   twinList
	allHeld bool

	flyMu sync.Mutex
	views map[bv.K]*flyView // built on first use as a flying model
	// as holds trees of other kinds over the same mesh, built on first use
	// when the tree flies against a tree of that kind.
	as map[Kind]*Tree
}

// impl is the node array of a tree: a tree[F, A] (k-DOPs of one element
// type and k), a *rigid or a *boxTree.
type impl interface {
	len() int
	ref(i int) int32
	perm() []int32
	// bounds returns the volume of node i as a k-DOP: its own, or the
	// axis-aligned box around it.
	bounds(i int) bv.DOP
	bytes() int64
	// validate checks the invariants over m, whose leaves hold the
	// triangles tw holds.
	validate(m *mesh.TriMesh, o Options, tw twinList) error
}

// node is one node of a tree[F, A]: its k-DOP and a reference. For an
// internal node, ref > 0 is the offset of its right child (the left child is
// the next node); for a leaf, ref = ^x where x is the triangle (leaf size 1)
// or the position of the leaf's first triangle in the permutation.
type node[F bv.Float, A bv.Slabs[F]] struct {
	s   A
	ref int32
}

// tree is the node array of a Tree with bounds of type F and k = len(A).
type tree[F bv.Float, A bv.Slabs[F]] struct {
	nodes []node[F, A]
	// order lists the triangles leaf by leaf when leaves may hold more than
	// one; the last triangle of each leaf is stored complemented (^t). It is
	// nil for leaf size 1.
	order []int32
	// off[i] is subtracted from the projections onto direction i before
	// they are stored, so that float32 keeps its precision for models far
	// from the origin: off = d_i·origin, origin the centre of the model.
	off [bv.MaxSlabs]float64
}

func (t *tree[F, A]) len() int                       { return len(t.nodes) }
func (t *tree[F, A]) ref(i int) int32                { return t.nodes[i].ref }
func (t *tree[F, A]) perm() []int32                  { return t.order }
func (t *tree[F, A]) offsets() *[bv.MaxSlabs]float64 { return &t.off }
func (t *tree[F, A]) bounds(i int) bv.DOP            { return bv.Unpack[F](&t.nodes[i].s, &t.off) }
func (t *tree[F, A]) bytes() int64 {
	var n node[F, A]
	return int64(len(t.nodes))*int64(unsafe.Sizeof(n)) + 4*int64(len(t.order))
}

// Mesh returns the mesh the tree was built over.
func (t *Tree) Mesh() *mesh.TriMesh { return t.mesh }

// Options returns the options the tree was built with, defaults filled in.
func (t *Tree) Options() Options { return t.opts }

// K returns the k-DOP direction set of a KDOP tree (0 for other kinds).
func (t *Tree) K() bv.K { return t.opts.K }

// Kind returns the tree's kind of bounding volume.
func (t *Tree) Kind() Kind { return t.opts.Kind }

// Nodes returns the number of nodes.
func (t *Tree) Nodes() int { return t.impl.len() }

// Bytes returns the memory held by the tree's nodes (not counting the mesh).
func (t *Tree) Bytes() int64 { return t.impl.bytes() }

// Height returns the number of nodes on the longest root-to-leaf path (0 for
// an empty tree).
func (t *Tree) Height() int {
	var walk func(i, d int) int
	walk = func(i, d int) int {
		r := t.impl.ref(i)
		if r < 0 {
			return d
		}
		return max(walk(i+1, d+1), walk(i+int(r), d+1))
	}
	if t.impl.len() == 0 {
		return 0
	}
	return walk(0, 1)
}

// Node returns the volume of node i (in model coordinates) as a k-DOP: for
// KDOP trees its own, for the other kinds the axis-aligned box around it
// (as a 6-DOP); and, for an internal node, its children; for a leaf,
// left = right = -1 and tris holds its triangles (appended to dst): the
// first of any twins (see the package documentation), which stands for
// them all.
func (t *Tree) Node(i int, dst []int32) (d bv.DOP, left, right int, tris []int32) {
	d = t.impl.bounds(i)
	r := t.impl.ref(i)
	if r >= 0 {
		return d, i + 1, i + int(r), dst
	}
	return d, -1, -1, t.leafTris(^r, dst)
}

// leafTris appends the triangles of the leaf whose ref is ^x.
func (t *Tree) leafTris(x int32, dst []int32) []int32 {
	return leafList(t.impl.perm(), ^x, dst)
}

// Build builds a tree over the triangles of m, which must stay unchanged
// while the tree is in use. It validates m first (finite coordinates, indices
// in range). Build uses the available CPUs for large meshes.
func Build(m *mesh.TriMesh, o Options) (*Tree, error) {
	o = o.withDefaults()
	if err := o.validate(); err != nil {
		return nil, err
	}
	if m == nil {
		return nil, errors.New("bvh: nil mesh")
	}
	if err := m.Validate(); err != nil {
		return nil, err
	}
	if len(m.Tris) > math.MaxInt32/2 {
		return nil, fmt.Errorf("bvh: %d triangles is more than a tree holds", len(m.Tris))
	}
	tw, ids := findTwins(m)
	t := &Tree{mesh: m, opts: o, twins: tw}
	t.impl = newKind(o, m, ids)
	return t, nil
}

// asKind returns a tree of kind k over t's mesh: t itself if it is of that
// kind (for KDOP, of any k), else one built with t's options (those that
// apply to k) on first use and kept.
func (t *Tree) asKind(k Kind) *Tree {
	if t.opts.Kind == k {
		return t
	}
	t.flyMu.Lock()
	defer t.flyMu.Unlock()
	if c, ok := t.as[k]; ok {
		return c
	}
	o := t.opts
	o.Kind = k
	if o.Rule == RAPID && k != OBB {
		o.Rule = Splatter
	}
	if k == KDOP {
		o.K, o.Float64 = 0, false
	}
	o = o.withDefaults()
	c := &Tree{mesh: t.mesh, opts: o, twins: t.twins}
	c.impl = newKind(o, t.mesh, t.twins.heldTriangles(len(t.mesh.Tris)))
	if t.as == nil {
		t.as = map[Kind]*Tree{}
	}
	t.as[k] = c
	return c
}

// newImpl builds the node array for the element type and k of o, over the
// triangles ids of m.
func newImpl(o Options, m *mesh.TriMesh, ids []int32) impl {
	if o.Float64 {
		switch o.K {
		case bv.K6:
			return build[float64, [6]float64](o, m, ids)
		case bv.K14:
			return build[float64, [14]float64](o, m, ids)
		case bv.K18:
			return build[float64, [18]float64](o, m, ids)
		default:
			return build[float64, [26]float64](o, m, ids)
		}
	}
	switch o.K {
	case bv.K6:
		return build[float32, [6]float32](o, m, ids)
	case bv.K14:
		return build[float32, [14]float32](o, m, ids)
	case bv.K18:
		return build[float32, [18]float32](o, m, ids)
	default:
		return build[float32, [26]float32](o, m, ids)
	}
}

// newKind builds the nodes of a tree of o.Kind over the triangles ids of
// m, which it takes over.
func newKind(o Options, m *mesh.TriMesh, ids []int32) impl {
	switch o.Kind {
	case KDOP:
		return newImpl(o, m, ids)
	case BoxTree:
		return newBoxTree(o, m, ids)
	}
	return newRigid(o, m, ids)
}
