package bvh

import (
	"errors"
	"fmt"
	"math"
	"sync"
	"sync/atomic"

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
	// lastView is the view of views last asked for, read without flyMu.
	lastView atomic.Pointer[flyView]
	side     treeSide  // for fronts and distances, on first use
	wide     wideViews // an environment's wide layouts (wide.go)

	// base is the quality figure of the built tree this one was refitted
	// from (0 for a built tree); built is a built tree's own, made once
	// by its first refit (refit.go).
	base     float64
	baseOnce sync.Once
	built    float64
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

// Bytes returns the memory held by the tree's nodes (not counting the mesh
// nor the flying views, see FlyingBytes), with the wide layout of an AABB
// environment once a query has made it.
func (t *Tree) Bytes() int64 { return t.impl.bytes() + t.wide.bytes() }

// FlyingBytes returns the memory held by the flying views of a k-DOP tree
// built so far (see PrepareFlying): what flying costs beyond Bytes.
func (t *Tree) FlyingBytes() int64 {
	t.flyMu.Lock()
	defer t.flyMu.Unlock()
	var n int64
	for _, v := range t.views {
		n += v.bytes()
	}
	return n
}

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
	t.impl = kinds[o.Kind].build(o, m, ids)
	t.opts.Compact = o.Compact && isCompact(t.impl)
	return t, nil
}

// As returns a tree of kind k over t's mesh, built with t's options that
// apply to k (the RAPID rule becomes Splatter for kinds other than OBB; a
// k-DOP tree gets the default k), sharing t's mesh and its twins: the tree
// to fly t against trees of kind k, which Collide requires. It returns t
// itself if t is of kind k. The new tree is the caller's: t keeps no
// reference to it, and its Bytes are its memory.
func (t *Tree) As(k Kind) (*Tree, error) {
	if t.opts.Kind == k {
		return t, nil
	}
	o := t.opts
	o.Kind = k
	if o.Rule == RAPID && k != OBB {
		o.Rule = Splatter
	}
	if k == KDOP {
		o.K, o.Float64 = 0, false
	}
	o.Compact = false
	o = o.withDefaults()
	if err := o.validate(); err != nil {
		return nil, err
	}
	c := &Tree{mesh: t.mesh, opts: o, twins: t.twins, allHeld: t.allHeld}
	c.impl = kinds[k].build(o, t.mesh, t.twins.heldTriangles(len(t.mesh.Tris)))
	return c, nil
}

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
