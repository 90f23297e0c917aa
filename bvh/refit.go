package bvh

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"

	"github.com/collide3d/collide/bv"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh"
)

// This file is the refit of a tree to new positions of its mesh's
// vertices (a deforming mesh): the same nodes over the same triangles,
// their volumes computed again.
//
// # Semantics
//
// Refit returns a new tree; the old one is unchanged and may still be
// queried (trees are immutable and shared). The new tree has the old one's
// shape (which triangles in which node), options and twins, over a mesh of
// the new vertices and the old triangles; its volumes are computed from
// the new vertices by the code that Build uses, so a refitted tree is as
// sound as a built one: Validate and Read's checks hold for it, and a query
// on it reports exactly the pairs of testing every pair. Per kind:
//
//   - k-DOP trees (float32, float64): a leaf's k-DOP from its triangles,
//     rounded outward about the new model's centre as Build rounds it; an
//     internal node's from its children's stored k-DOPs (their union, which
//     is exact), bottom up, in linear time.
//   - Compact k-DOP trees: the float32 tree refitted so, then compacted as
//     Build compacts it.
//   - AABB trees: each node's box its children's union (a leaf's, its
//     triangles'), which is the box the kind's fit takes, exactly; linear.
//   - OBB, sphere and RSS trees: each internal node's volume fitted
//     again to the node's triangles by the kind's fit (the same function,
//     axes and all), so the cost is that of Build's fits without its
//     partitions: a sphere or an OBB is not bounded soundly and cheaply by
//     its children's, and the fitted ones stay tight.
//   - Box-trees: rebuilt (Build), since which child a triangle goes to
//     depends on where it lies across each cut.
//
// The caches made from the vertices (flying views, fronts' and distances'
// data, wide layouts) are not carried over: the new tree makes its own on
// first use. Twins are identical triangles, a property of coordinates: if
// the new vertices split a group of twins or make new ones, the shape no
// longer holds the triangles a tree must hold, and Refit builds the tree
// anew instead (Build), as it does for a kind it cannot refit. When the
// new vertices are distinct (no two equal, bit for bit) and every group
// of twins is of triangles with the same vertex indices, the twins are
// those groups, before and after, and Refit checks no more (sorting the
// vertices, not the triangles); otherwise it finds the new twins and
// compares.
//
// A refitted tree loosens as the mesh deforms away from the shape it was
// built for; RefitQuality measures how much.

// refitter is a node array that can refit itself over m (the old mesh's
// triangles at new vertices), keeping its shape.
type refitter interface {
	refit(o Options, m *mesh.TriMesh) impl
}

// ErrRefitVertices is returned (wrapped) by Refit when the new vertices do
// not match the tree's mesh: another count, or a coordinate that is not
// finite.
var ErrRefitVertices = errors.New("bvh: refit vertices")

// Refit returns a tree of t's shape over the mesh of t's triangles at the
// vertices verts (len(verts) must be that of t's mesh; the tree takes verts
// over: they must stay unchanged while it is in use). See the Semantics
// above for how each kind is refitted. Refit uses the available CPUs for
// large meshes.
func (t *Tree) Refit(verts []geom.Vec3) (*Tree, error) {
	if len(verts) != len(t.mesh.Verts) {
		return nil, fmt.Errorf("%w: %d vertices for a mesh of %d", ErrRefitVertices, len(verts), len(t.mesh.Verts))
	}
	if i := firstNonFinite(verts); i >= 0 {
		return nil, fmt.Errorf("%w: vertex %d: non-finite coordinate %v", ErrRefitVertices, i, verts[i])
	}
	m := &mesh.TriMesh{Verts: verts, Tris: t.mesh.Tris}
	base := t.baseFigure()
	r, ok := t.impl.(refitter)
	if ok && !t.allHeld && !(t.twins.byIndex(m) && distinctVerts(verts)) {
		// Equal vertices may make twins of triangles of other indices:
		// find the twins over the new coordinates.
		tw, _ := findTwins(m)
		ok = sameTwins(tw, t.twins)
	}
	if !ok {
		nt, err := Build(m, t.opts)
		if err != nil {
			return nil, err
		}
		return nt, nil
	}
	nt := &Tree{mesh: m, opts: t.opts, twins: t.twins, allHeld: t.allHeld}
	nt.impl = r.refit(t.opts, m)
	nt.opts.Compact = t.opts.Compact && isCompact(nt.impl)
	nt.base = base
	return nt, nil
}

// firstNonFinite returns the index of the first vertex of vs with a
// coordinate that is not finite, or -1.
func firstNonFinite(vs []geom.Vec3) int {
	for i, v := range vs {
		if !v.IsFinite() {
			return i
		}
	}
	return -1
}

// sameTwins reports whether a and b group the triangles alike.
func sameTwins(a, b twinList) bool {
	return slices.Equal(a.next, b.next) && slices.Equal(a.twin, b.twin)
}

// # Quality

// figureDepth is how deep the quality figure looks: the nodes of at most
// that many levels, at most 2^figureDepth − 1 of them, where a loosened
// volume costs the most tests (every query that reaches the node).
const figureDepth = 12

// figure returns the quality figure of t's shape over its volumes: the
// sum of the surface areas of the axis-aligned boxes of the nodes of the
// top figureDepth levels, divided by that of the root, which makes it
// blind to a scaling or a rigid motion of the whole mesh (to within the
// boxes' turning). A query's volume tests grow with it (the surface area
// heuristic: a volume is reached by the queries that meet it, in
// proportion to its surface).
func (t *Tree) figure() float64 {
	n := t.impl.len()
	if n == 0 {
		return 1
	}
	root := dopBoxArea(t.impl.bounds(0))
	if !(root > 0) || math.IsInf(root, 0) {
		return 1
	}
	sum := 0.0
	var walk func(i, d int)
	walk = func(i, d int) {
		sum += dopBoxArea(t.impl.bounds(i))
		r := t.impl.ref(i)
		if r < 0 || d == figureDepth {
			return
		}
		walk(i+1, d+1)
		walk(i+int(r), d+1)
	}
	walk(0, 1)
	return sum / root
}

// dopBoxArea returns the surface area of d's axis-aligned box (bv.DOP.Box:
// its first three slabs, or the box derived from its diagonals for a set
// without the axes).
func dopBoxArea(d bv.DOP) float64 {
	b := d.Box()
	x, y, z := b.Max.X-b.Min.X, b.Max.Y-b.Min.Y, b.Max.Z-b.Min.Z
	if x < 0 || y < 0 || z < 0 {
		return 0
	}
	return 2 * (x*y + y*z + z*x)
}

// baseFigure returns the figure of the tree that t was refitted from, as
// built (t's own for a built tree), computed once.
func (t *Tree) baseFigure() float64 {
	if t.base != 0 {
		return t.base
	}
	t.baseOnce.Do(func() { t.built = t.figure() })
	return t.built
}

// RefitQuality returns how much looser t is than the tree it was refitted
// (or edited, see Edit) from was when built: the ratio of their figures, each the sum of the
// surface areas of the boxes of the nodes of the top 12 levels over the
// root's (so a uniform scaling or a rigid motion does not count). It is 1
// for a built tree (and a tree that Refit rebuilt) and grows as refits
// loosen the volumes; the query cost grows with it. The README's "Refit:
// deforming meshes" gives the measurements: past about 2, rebuild
// (Build over t.Mesh()). It costs a pass over those nodes of t (and of
// the built tree, once, at the first refit).
func (t *Tree) RefitQuality() float64 {
	if t.base == 0 {
		return 1
	}
	return t.figure() / t.base
}

// # k-DOP trees

// subtreeEnd returns the end of the subtree of node i in the depth-first
// layout whose refs ref gives: its nodes are [i, end).
func subtreeEnd(ref func(i int) int32, i int) int {
	for {
		r := ref(i)
		if r < 0 {
			return i + 1
		}
		i += int(r)
	}
}

// refitDOP returns the k-DOP tree of the shape of old (its refs and
// triangle order) over m, its bounds about the centre of m.
//
// A leaf's k-DOP is the union of its vertices' packed k-DOPs, each vertex
// projected and rounded once (a vertex is in six triangles of a closed
// mesh), which contains the leaf's k-DOP as Build makes it: Build rounds
// outward, by functions that do not decrease, the least (greatest)
// projection of the leaf's vertices, less (plus) a pad on the diagonal
// slabs of 2^-50 times the leaf's largest |coordinate| (bv.FitTriangles);
// here each vertex is padded by 2^-50 times the mesh's largest
// |coordinate| (2^-48 times for a set without the axes, whose Fit pads by
// 2^-50 times the largest projection, at most about 3 times the largest
// |coordinate|), no smaller, and the same roundings of each vertex's bound,
// being monotone, have the least (greatest) of them equal to that of the
// least (greatest). So the leaf is sound and contains Build's, as Validate
// checks; they differ only when that larger pad of about 10^-15 times the
// model's size crosses a float boundary.
func refitDOP[F bv.Float, A bv.Slabs[F]](old impl, o Options, m *mesh.TriMesh) *tree[F, A] {
	n := old.len()
	t := &tree[F, A]{nodes: make([]node[F, A], n), order: old.perm()}
	if n == 0 {
		return t
	}
	var mag float64
	t.off, mag = dopOffsets(o.K, m)
	copyRefs(t.nodes, old)
	verts := packVerts[F, A](o.K, m, &t.off, mag)
	depth := 0
	for p := runtime.GOMAXPROCS(0); p > 1; p >>= 1 {
		depth++
	}
	t.refitSubtree(m, verts, 0, depth+1)
	return t
}

// copyRefs sets the refs of nodes to those of old's nodes.
func copyRefs[F bv.Float, A bv.Slabs[F]](nodes []node[F, A], old impl) {
	parallelFor(len(nodes), func(lo, hi int) {
		switch o := old.(type) {
		case *tree[F, A]:
			for i := lo; i < hi; i++ {
				nodes[i].ref = o.nodes[i].ref
			}
		default:
			for i := lo; i < hi; i++ {
				nodes[i].ref = old.ref(i)
			}
		}
	})
}

// packVerts returns the k-DOPs of m's vertices, packed about off, each
// diagonal slab padded by mag·2^-50 (mag the largest |coordinate| of m):
// see refitDOP.
func packVerts[F bv.Float, A bv.Slabs[F]](k bv.K, m *mesh.TriMesh, off *[bv.MaxSlabs]float64, mag float64) []A {
	vs := make([]A, len(m.Verts))
	pad := mag * 0x1p-50
	if !k.Axes() {
		// bv.FitTriangles pads a set without the axes by 2^-50 times its
		// largest projection, up to 3(1 + 2^-52) times the largest
		// |coordinate|: four times covers it.
		pad = mag * 0x1p-48
	}
	parallelFor(len(vs), func(lo, hi int) {
		var l, h [bv.MaxSlabs]float64
		for i := lo; i < hi; i++ {
			k.Project(m.Verts[i], &l)
			h = l
			if k != bv.K6 {
				j0 := 0 // a set without the axes: every slab rounds
				if k.Axes() {
					j0 = 3
				}
				for j := j0; j < k.Slabs(); j++ {
					l[j] -= pad
					h[j] += pad
				}
			}
			bv.Pack[F](&vs[i], &l, &h, off, nil)
		}
	})
	return vs
}

// dopOffsets returns the offsets of a k-DOP tree over m, as Build computes
// them: the projections of the centre of m's bounds, or zero where that
// overflows; and the largest |coordinate| of m.
func dopOffsets(k bv.K, m *mesh.TriMesh) ([bv.MaxSlabs]float64, float64) {
	bounds := geom.EmptyAABB()
	for _, v := range m.Verts {
		bounds = bounds.AddPoint(v)
	}
	lo, hi := bounds.Min.Abs(), bounds.Max.Abs()
	mag := max(lo.X, lo.Y, lo.Z, hi.X, hi.Y, hi.Z)
	var off [bv.MaxSlabs]float64
	k.Project(bounds.Min.Scale(0.5).Add(bounds.Max.Scale(0.5)), &off)
	for _, x := range off {
		if math.IsInf(x, 0) || math.IsNaN(x) {
			return [bv.MaxSlabs]float64{}, mag
		}
	}
	return off, mag
}

// refitSubtree refits the subtree of node i from the vertices' packed
// k-DOPs vs; up to par levels refit their right subtree on another
// goroutine.
func (t *tree[F, A]) refitSubtree(m *mesh.TriMesh, vs []A, i, par int) {
	r := t.nodes[i].ref
	if par > 0 && r >= 0 && int(r) >= parallelMin {
		var wg sync.WaitGroup
		wg.Go(func() { t.refitSubtree(m, vs, i+int(r), par-1) })
		t.refitSubtree(m, vs, i+1, par-1)
		wg.Wait()
		bv.Union[F](&t.nodes[i].s, &t.nodes[i+1].s, &t.nodes[i+int(r)].s)
		return
	}
	// Children follow their parent: from the last node back, a node's
	// children are done before it.
	end := subtreeEnd(func(j int) int32 { return t.nodes[j].ref }, i)
	for j := end - 1; j >= i; j-- {
		nd := &t.nodes[j]
		if nd.ref >= 0 {
			bv.Union[F](&nd.s, &t.nodes[j+1].s, &t.nodes[j+int(nd.ref)].s)
			continue
		}
		if t.order == nil {
			tr := &m.Tris[^nd.ref]
			bv.Union[F](&nd.s, &vs[tr[0]], &vs[tr[1]])
			bv.Union[F](&nd.s, &nd.s, &vs[tr[2]])
			continue
		}
		x := int(^nd.ref)
		first := true
		for ; ; x++ {
			id := t.order[x]
			tr := &m.Tris[id^(id>>31)]
			if first {
				bv.Union[F](&nd.s, &vs[tr[0]], &vs[tr[1]])
				first = false
			} else {
				bv.Union[F](&nd.s, &nd.s, &vs[tr[0]])
				bv.Union[F](&nd.s, &nd.s, &vs[tr[1]])
			}
			bv.Union[F](&nd.s, &nd.s, &vs[tr[2]])
			if id < 0 {
				break
			}
		}
	}
}

func (t *tree[F, A]) refit(o Options, m *mesh.TriMesh) impl { return refitDOP[F, A](t, o, m) }

func (t *ctree[A, Q]) refit(o Options, m *mesh.TriMesh) impl {
	f := refitDOP[float32, A](t, o, m)
	if c := compactTree[A, Q](f); c != nil {
		return c
	}
	return f
}

// # Moved-volume trees

// refit fits every internal node's volume again to its triangles, the
// nodes shared out among the CPUs (in depth-first order, so each share is
// about a subtree's).
func (t *vtree[V]) refit(_ Options, m *mesh.TriMesh) impl {
	nt := &vtree[V]{vk: t.vk, m: m, nn: t.nn, root: t.root, order: t.order, mag: meshMag(m)}
	ni := len(t.nodes)
	if ni == 0 {
		return nt
	}
	nt.nodes = make([]vnode[V], ni)
	// The triangles in leaf order, and each internal node's run of them.
	ids := make([]int32, 0, len(t.order)+len(m.Tris))
	span := make([][2]int32, ni)
	var walk func(n int32)
	walk = func(n int32) {
		if int(n) >= ni {
			ids = leafList(t.order, ^(n - int32(ni)), ids)
			return
		}
		lo := int32(len(ids))
		k := t.nodes[n].kid
		walk(k[0])
		walk(k[1])
		span[n] = [2]int32{lo, int32(len(ids))}
	}
	walk(0)
	if ab, ok := any(t).(*vtree[box]); ok && t.vk.kind == AABB {
		ab.refitBoxes(any(nt).(*vtree[box]), m, ni)
		return nt
	}
	var boxes []geom.AABB
	if t.vk.boxes {
		boxes = make([]geom.AABB, len(m.Tris))
		parallelFor(len(ids), func(lo, hi int) {
			for _, x := range ids[lo:hi] {
				boxes[x] = m.Triangle(int(x)).Bounds()
			}
		})
	}
	parallelFor(ni, func(lo, hi int) {
		sc := &fitScratch{}
		for i := lo; i < hi; i++ {
			s := span[i]
			nd := fitNode{m: m, ids: ids[s[0]:s[1]], sc: sc, buf: &sc.tris}
			if boxes != nil {
				nd.box = boxUnion(boxes, nd.ids)
			}
			nt.nodes[i] = vnode[V]{v: t.vk.fit(&nd), kid: t.nodes[i].kid}
		}
	})
	return nt
}

// refitBoxes sets the nodes of nt, AABB t refitted over m, in linear time:
// a node's box is its children's union (a leaf's, its triangles'), which is
// the union of its triangles' boxes that the kind's fit takes, exactly
// (min and max are exact and order-free), from the last node back, since
// a node's children come after it.
func (t *vtree[V]) refitBoxes(nt *vtree[box], m *mesh.TriMesh, ni int) {
	nt.nodes = make([]vnode[box], ni)
	bs := make([]geom.AABB, ni)
	var leaf []int32
	kid := func(c int32) geom.AABB {
		if int(c) < ni {
			return bs[c]
		}
		leaf = leafList(t.order, ^(c - int32(ni)), leaf[:0])
		b := geom.EmptyAABB()
		for _, x := range leaf {
			b = b.Union(m.Triangle(int(x)).Bounds())
		}
		return b
	}
	for i := ni - 1; i >= 0; i-- {
		k := t.nodes[i].kid
		bs[i] = kid(k[0]).Union(kid(k[1]))
		nt.nodes[i] = vnode[box]{v: boxOf(bs[i]), kid: k}
	}
}
