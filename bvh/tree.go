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

// Tree is a k-DOP bounding-volume tree over the triangles of a mesh: binary,
// built top-down, stored as a flat array of nodes in depth-first order. It is
// immutable once built and safe for concurrent queries.
type Tree struct {
	mesh *mesh.TriMesh
	opts Options
	impl impl

	flyMu sync.Mutex
	views map[bv.K]*flyView // built on first use as a flying model
}

// impl is a tree[F, A] for one element type and k.
type impl interface {
	len() int
	ref(i int) int32
	perm() []int32
	slabs(i int) bv.DOP
	offsets() *[bv.MaxSlabs]float64
	bytes() int64
	validate(m *mesh.TriMesh, o Options) error
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
func (t *tree[F, A]) slabs(i int) bv.DOP             { return bv.Unpack[F](&t.nodes[i].s, &t.off) }
func (t *tree[F, A]) bytes() int64 {
	var n node[F, A]
	return int64(len(t.nodes))*int64(unsafe.Sizeof(n)) + 4*int64(len(t.order))
}

// Mesh returns the mesh the tree was built over.
func (t *Tree) Mesh() *mesh.TriMesh { return t.mesh }

// Options returns the options the tree was built with, defaults filled in.
func (t *Tree) Options() Options { return t.opts }

// K returns the tree's k-DOP direction set.
func (t *Tree) K() bv.K { return t.opts.K }

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

// Node returns the k-DOP of node i (in model coordinates) and, for an
// internal node, its children; for a leaf, left = right = -1 and tris holds
// its triangles (appended to dst).
func (t *Tree) Node(i int, dst []int32) (d bv.DOP, left, right int, tris []int32) {
	d = t.impl.slabs(i)
	r := t.impl.ref(i)
	if r >= 0 {
		return d, i + 1, i + int(r), dst
	}
	return d, -1, -1, t.leafTris(^r, dst)
}

// leafTris appends the triangles of the leaf whose ref is ^x.
func (t *Tree) leafTris(x int32, dst []int32) []int32 {
	order := t.impl.perm()
	if order == nil {
		return append(dst, x)
	}
	for j := int(x); ; j++ {
		if v := order[j]; v < 0 {
			return append(dst, ^v)
		} else {
			dst = append(dst, v)
		}
	}
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
	t := &Tree{mesh: m, opts: o}
	t.impl = newImpl(o, m)
	return t, nil
}

// newImpl builds the node array for the element type and k of o.
func newImpl(o Options, m *mesh.TriMesh) impl {
	if o.Float64 {
		switch o.K {
		case bv.K6:
			return build[float64, [6]float64](o, m)
		case bv.K14:
			return build[float64, [14]float64](o, m)
		case bv.K18:
			return build[float64, [18]float64](o, m)
		default:
			return build[float64, [26]float64](o, m)
		}
	}
	switch o.K {
	case bv.K6:
		return build[float32, [6]float32](o, m)
	case bv.K14:
		return build[float32, [14]float32](o, m)
	case bv.K18:
		return build[float32, [18]float32](o, m)
	default:
		return build[float32, [26]float32](o, m)
	}
}
