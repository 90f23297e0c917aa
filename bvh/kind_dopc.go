package bvh

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sync/atomic"
	"unsafe"

	"github.com/collide3d/collide/bv"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh"
)

// This file is the compact layout of float32 k-DOP trees (Options.Compact):
// the k-DOP kind's nodes with their bounds quantized to 8 bits, relative to
// a block of cBlock consecutive nodes. The layout, the queries and the
// checks are those of kind_dop.go but for how a node's bounds are read;
// its save layout and read checks are in kind_dopc_save.go.
//
// A block's reference holds, for each direction i of the k-DOP, a base b_i
// and a step s_i (float32); a node's slab i is stored as two bytes q_lo,
// q_hi and read as cdec(q_lo, b_i, s_i), cdec(q_hi, b_i, s_i). The build
// quantizes the float32 tree that Build makes (kind_dop_build.go): it
// chooses each byte by that same function, cdec, the largest q whose value
// is at most the node's float32 lower bound, the smallest whose value is at
// least its upper bound (b_i is the least lower bound in the block, so q = 0
// always qualifies below; s_i is raised until cdec(255) reaches the largest
// upper bound, so q = 255 always qualifies above). Every node's decoded
// k-DOP therefore contains its float32 one, which contains its triangles:
// containment is proved by construction, as the queries read the bounds
// (cdec's explicit conversions forbid a fused multiply-add, so every
// platform rounds alike), and Validate and Read check it. A decoded node
// need not contain its decoded children (they round on other grids); the
// queries rely only on a node's bounds containing its triangles.
//
// A node is 8 bits a bound and its ref: 12, 20, 24 and 32 bytes for k = 6,
// 14, 18 and 26 (against 28, 60, 76 and 108 in float32; 12, 16 and 24
// against 36, 52 and 84 for 8, 12 and 20), plus the block
// references, 4k bytes a block, 4.5 bytes a node for 18-DOPs. A tree whose
// float32 bounds are not all finite (coordinates near float32's limits)
// cannot be quantized: Build keeps the float32 layout for it.

// cBlockShift is log2 of cBlock, the number of consecutive nodes (depth
// first) that share a reference. Sixteen keeps a block within a subtree of
// about eight leaves, most of the time, so that the quantum is a small
// part of a leaf's size.
const (
	cBlockShift = 4
	cBlock      = 1 << cBlockShift
)

// qbytes is the array of a compact node's bounds: one byte per bound.
type qbytes interface {
	~[6]uint8 | ~[8]uint8 | ~[12]uint8 | ~[14]uint8 | ~[18]uint8 | ~[20]uint8 | ~[26]uint8
}

// cnode is one node of a ctree: its quantized bounds and its ref (as
// node's).
type cnode[Q qbytes] struct {
	q   Q
	ref int32
}

// ctree is the node array of a compact k-DOP tree.
type ctree[A bv.Slabs[float32], Q qbytes] struct {
	nodes []cnode[Q]
	// refs[b] is the reference of nodes b·cBlock to b·cBlock + cBlock − 1:
	// base b_i at 2i, step s_i at 2i + 1.
	refs []A
	// shim holds the offsets and the triangle order (its nodes are nil):
	// what the k-DOP query reads of a tree besides its nodes.
	shim tree[float32, A]
}

// cdec returns the value of byte q on the grid of base b and step s. The
// conversion of the product rounds it before the sum (no fused
// multiply-add), so the build and the queries compute the same values.
func cdec(q uint8, b, s float32) float32 { return b + float32(float32(q)*s) }

// decode sets a to the k-DOP of node i as the queries read it.
func (t *ctree[A, Q]) decode(i int32, a *A) {
	n, r := &t.nodes[i], &t.refs[i>>cBlockShift]
	for j := 0; j < len(*a); j += 2 {
		b, s := (*r)[j], (*r)[j+1]
		(*a)[j], (*a)[j+1] = cdec(n.q[j], b, s), cdec(n.q[j+1], b, s)
	}
}

func (t *ctree[A, Q]) len() int                       { return len(t.nodes) }
func (t *ctree[A, Q]) ref(i int) int32                { return t.nodes[i].ref }
func (t *ctree[A, Q]) perm() []int32                  { return t.shim.order }
func (t *ctree[A, Q]) offsets() *[bv.MaxSlabs]float64 { return &t.shim.off }
func (t *ctree[A, Q]) compact() bool                  { return true }
func (t *ctree[A, Q]) bounds(i int) bv.DOP {
	var a A
	t.decode(int32(i), &a)
	return bv.Unpack[float32](&a, &t.shim.off)
}
func (t *ctree[A, Q]) bytes() int64 {
	var n cnode[Q]
	var a A
	return int64(len(t.nodes))*int64(unsafe.Sizeof(n)) + int64(len(t.refs))*int64(unsafe.Sizeof(a)) +
		4*int64(len(t.shim.order))
}

// compactTree returns the compact layout of t, or nil if t has a bound
// that is not finite.
func compactTree[A bv.Slabs[float32], Q qbytes](t *tree[float32, A]) *ctree[A, Q] {
	n := len(t.nodes)
	c := &ctree[A, Q]{nodes: make([]cnode[Q], n), refs: make([]A, (n+cBlock-1)>>cBlockShift)}
	c.shim.off, c.shim.order = t.off, t.order
	var bad atomic.Bool
	parallelFor(len(c.refs), func(lo, hi int) {
		for b := lo; b < hi && !bad.Load(); b++ {
			if !c.quantize(b, t.nodes[b<<cBlockShift:min((b+1)<<cBlockShift, n)]) {
				bad.Store(true)
			}
		}
	})
	if bad.Load() {
		return nil
	}
	return c
}

// quantize sets the reference of block b and the nodes of the block from
// their float32 bounds nodes; false if a bound is not finite or the grid
// would overflow.
func (c *ctree[A, Q]) quantize(b int, nodes []node[float32, A]) bool {
	r := &c.refs[b]
	for j := 0; j < len(*r); j += 2 {
		lo, hi := float32(math.Inf(1)), float32(math.Inf(-1))
		for k := range nodes {
			lo, hi = min(lo, nodes[k].s[j]), max(hi, nodes[k].s[j+1])
		}
		if !finite32(lo) || !finite32(hi) {
			return false
		}
		s := float32(0)
		if hi > lo {
			s = float32((float64(hi) - float64(lo)) / 255)
			for finite32(s) && cdec(255, lo, s) < hi {
				s = math.Nextafter32(s, float32(math.Inf(1)))
			}
			if !finite32(s) || !finite32(cdec(255, lo, s)) {
				return false
			}
		}
		(*r)[j], (*r)[j+1] = lo, s
	}
	for k := range nodes {
		nd := &c.nodes[b<<cBlockShift+k]
		nd.ref = nodes[k].ref
		for j := 0; j < len(*r); j += 2 {
			nd.q[j] = qdown(nodes[k].s[j], (*r)[j], (*r)[j+1])
			nd.q[j+1] = qup(nodes[k].s[j+1], (*r)[j], (*r)[j+1])
		}
	}
	return true
}

func finite32(x float32) bool { return x-x == 0 }

// qdown returns the largest q with cdec(q, b, s) ≤ v, for b ≤ v.
func qdown(v, b, s float32) uint8 {
	if s == 0 {
		return 0
	}
	q := int(min(max((float64(v)-float64(b))/float64(s), 0), 255))
	for q > 0 && cdec(uint8(q), b, s) > v {
		q--
	}
	for q < 255 && cdec(uint8(q+1), b, s) <= v {
		q++
	}
	return uint8(q)
}

// qup returns the smallest q with cdec(q, b, s) ≥ v, for v ≤ cdec(255, b,
// s).
func qup(v, b, s float32) uint8 {
	if s == 0 {
		return 0
	}
	q := int(min(max(math.Ceil((float64(v)-float64(b))/float64(s)), 0), 255))
	for q < 255 && cdec(uint8(q), b, s) < v {
		q++
	}
	for q > 0 && cdec(uint8(q-1), b, s) >= v {
		q--
	}
	return uint8(q)
}

// dopcQuery is one query on a compact environment: a k-DOP query whose
// node reads decode the bytes (overlap, sep, lowerBound) and whose refs
// are the compact nodes'. The flying side is the k-DOP query's, unchanged.
//
//specialize:copy DOPC|noFrame|*dopcQuery[A, Q]|A bv.Slabs[float32], Q qbytes
//specialize:case *ctree[[6]float32, [6]uint8]|e.collide(env, fly, pose, o, s, fn)
//specialize:case *ctree[[8]float32, [8]uint8]|e.collide(env, fly, pose, o, s, fn)
//specialize:case *ctree[[12]float32, [12]uint8]|e.collide(env, fly, pose, o, s, fn)
//specialize:case *ctree[[14]float32, [14]uint8]|e.collide(env, fly, pose, o, s, fn)
//specialize:case *ctree[[18]float32, [18]uint8]|e.collide(env, fly, pose, o, s, fn)
//specialize:case *ctree[[20]float32, [20]uint8]|e.collide(env, fly, pose, o, s, fn)
//specialize:case *ctree[[26]float32, [26]uint8]|e.collide(env, fly, pose, o, s, fn)
type dopcQuery[A bv.Slabs[float32], Q qbytes] struct {
	dopQuery[float32, A]
	ct *ctree[A, Q]
}

func (ct *ctree[A, Q]) collide(env, fly *Tree, pose geom.Pose, o request, s *Scratch, fn func(Pair) bool) Stats {
	var q dopcQuery[A, Q]
	ct.shim.init(&q.dopQuery, env, fly, &pose, &o, s)
	q.fn, q.ct = fn, ct
	return runDOPC(&q)
}

// overlap is dopQuery.overlap on the decoded bounds, decoding a slab at a
// time (the test stops at the first that separates).
func (q *dopcQuery[A, Q]) overlap(e, f int32, _ *noFrame) bool {
	a := &q.sc.fdop[f]
	n, r := &q.ct.nodes[e], &q.ct.refs[e>>cBlockShift]
	for j := 0; j < len(*a); j += 2 {
		b, s := (*r)[j], (*r)[j+1]
		if (*a)[j] > cdec(n.q[j+1], b, s) || cdec(n.q[j], b, s) > (*a)[j+1] {
			return false
		}
	}
	return true
}

// sep is dopQuery.sep on the decoded bounds (the same proof: they contain
// the node's triangles' projections as the float32 ones do).
func (q *dopcQuery[A, Q]) sep(e, f int32, _ *noFrame) float64 {
	var d A
	q.ct.decode(e, &d)
	return slabsSep[float32](&q.sc.fdop[f], &d)
}

// lowerBound is dopQuery.lowerBound on the decoded bounds (the same
// proof).
func (q *dopcQuery[A, Q]) lowerBound(e, f int32, x *noFrame) float64 {
	var d A
	q.ct.decode(e, &d)
	return slabsLower[float32](q.sep(e, f, x), &q.sc.fdop[f], &d)
}

func (q *dopcQuery[A, Q]) eref(e int32) int32 { return q.ct.nodes[e].ref }

func (q *dopcQuery[A, Q]) leaves(e, f int32) {
	q.leaf(q.ct.shim.order, q.ct.nodes[e].ref, q.fv.tris[^q.fv.kid[f]:q.fv.end[f]])
}

func (q *dopcQuery[A, Q]) tris(e, f int32) (et, ft []int32) {
	q.sc.et = leafList(q.ct.shim.order, q.ct.nodes[e].ref, q.sc.et[:0])
	return q.sc.et, q.fv.tris[^q.fv.kid[f]:q.fv.end[f]]
}

// probes: those of the k-DOP kind (tree.probes), on the decoded nodes.
func (ct *ctree[A, Q]) probes(t *Tree) (cv, cu func(n int)) {
	fv := t.view(t.opts.K)
	s := &dopScratch[float32, A]{}
	s.begin(fv, len(t.mesh.Verts))
	q := &dopcQuery[A, Q]{ct: ct}
	q.dopQuery = dopQuery[float32, A]{et: &ct.shim, fv: fv, sc: s}
	rng := rand.New(rand.NewPCG(3, 4))
	q.pose = geom.FromAxisAngle(geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()), 1, geom.V(0.1, 0.2, 0.3))
	ps := probes[noFrame]{all: make([]int32, len(fv.kid))}
	for i, c := range fv.kid {
		ps.all[i] = int32(i)
		if c >= 0 {
			ps.fs = append(ps.fs, int32(i))
		}
	}
	ps.ia, ps.ib = probePairs(len(ct.nodes), len(fv.kid))
	ps.xs = make([]noFrame, len(ps.ia))
	return probeDOPC(q, ps)
}

// cdopKind is the builder and reader of the compact trees of one k.
type cdopKind struct {
	k     bv.K
	build func(t impl) impl
	read  func(d *decoder, h *header) (impl, error)
}

func cdopKindOf[A bv.Slabs[float32], Q qbytes]() cdopKind {
	var a A
	return cdopKind{
		k: bv.K(len(a)),
		build: func(t impl) impl {
			if c := compactTree[A, Q](t.(*tree[float32, A])); c != nil {
				return c
			}
			return t
		},
		read: func(d *decoder, h *header) (impl, error) { return readCTree[A, Q](d, h) },
	}
}

// cdopKinds lists the instantiations of the compact layout.
var cdopKinds = []cdopKind{
	cdopKindOf[[6]float32, [6]uint8](), cdopKindOf[[8]float32, [8]uint8](),
	cdopKindOf[[12]float32, [12]uint8](), cdopKindOf[[14]float32, [14]uint8](),
	cdopKindOf[[18]float32, [18]uint8](), cdopKindOf[[20]float32, [20]uint8](),
	cdopKindOf[[26]float32, [26]uint8](),
}

// cdopKindFor returns the instantiation for k.
func cdopKindFor(k bv.K) cdopKind {
	for _, d := range cdopKinds {
		if d.k == k {
			return d
		}
	}
	panic("bvh: no compact k-DOP tree for k = " + k.String())
}

// isCompact reports whether t is a compact k-DOP tree.
func isCompact(t impl) bool {
	_, ok := t.(interface{ compact() bool })
	return ok
}

// verifyC checks the invariants of a compact tree: those of the float32
// tree of the same shape whose bounds are its triangles' (exactly as Build
// makes it), and that every node's decoded k-DOP contains that tree's
// node.
func (t *ctree[A, Q]) verifyC(m *mesh.TriMesh, o Options, tw twinList) (int, string) {
	n, nt := len(t.nodes), len(m.Tris)
	if nt == 0 || n == 0 || n > 2*nt-1 {
		return t.plain(nil).verify(m, o, tw)
	}
	p := t.plain(m)
	if p == nil {
		return t.plain(nil).verify(m, o, tw)
	}
	if i, msg := p.verify(m, o, tw); msg != "" {
		return i, msg
	}
	i := firstFault(n, func(i int) bool {
		var d A
		t.decode(int32(i), &d)
		return !contains[float32](&d, &p.nodes[i].s)
	})
	if i >= 0 {
		return i, "node's quantized k-DOP does not contain its triangles'"
	}
	return -1, ""
}

// plain returns the float32 tree of t's shape whose bounds are the
// triangles' of m, each leaf packed and each internal node the union of its
// children, as Build makes them; with m nil (or a shape it cannot walk: a
// ref out of range, a cycle) the tree of t's refs with empty bounds, or
// nil, for verify to report the shape's fault.
func (t *ctree[A, Q]) plain(m *mesh.TriMesh) *tree[float32, A] {
	p := &tree[float32, A]{nodes: make([]node[float32, A], len(t.nodes)), order: t.shim.order, off: t.shim.off}
	for i := range t.nodes {
		p.nodes[i].ref = t.nodes[i].ref
	}
	if m == nil {
		return p
	}
	k := bv.K(len(p.nodes[0].s))
	nt := len(m.Tris)
	var tris []int32
	// Depth first, the right child after the left, so children come after
	// their parent: fill the bounds from the last node back.
	for i := len(p.nodes) - 1; i >= 0; i-- {
		nd := &p.nodes[i]
		if r := nd.ref; r >= 0 {
			if r < 2 || i+int(r) >= len(p.nodes) {
				return nil
			}
			bv.Union[float32](&nd.s, &p.nodes[i+1].s, &p.nodes[i+int(r)].s)
			continue
		}
		var err error
		if tris, err = p.leafOf(nd.ref, tris[:0], nt); err != nil {
			return nil
		}
		d := bv.Empty(k)
		for _, tr := range tris {
			d = d.Union(bv.FitTriangles(k, m.Triangle(int(tr))))
		}
		bv.PackDOP[float32](&nd.s, &d, &p.off)
	}
	return p
}

func (t *ctree[A, Q]) validate(m *mesh.TriMesh, o Options, tw twinList) error {
	if _, msg := t.verifyC(m, o, tw); msg != "" {
		return fmt.Errorf("bvh: %s", msg)
	}
	return nil
}

func (t *ctree[A, Q]) check(m *mesh.TriMesh, o Options, tw twinList) *fault {
	i, msg := t.verifyC(m, o, tw)
	switch {
	case msg == "":
		return nil
	case i < 0:
		return faultf(atTree, 0, 0, "%s", msg)
	}
	return faultf(atNode, i, 0, "%s", msg)
}
