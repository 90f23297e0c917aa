package bvh

import (
	"encoding/binary"
	"errors"
	"math"
	"slices"
	"sync"
	"unsafe"

	"github.com/collide3d/collide/bv"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh"
)

// This file is the box-tree kind (Zachmann, "Exact and fast collision
// detection", 1994): its node array, builder, query, separation, save
// layout and read checks.
//
// # What box-trees' queries rely on
//
// A box-tree's boxes are not stored: the traversal derives each from the
// root box by the cuts (coordinates copied, never computed), and descends
// from a node into each child whose box meets the other tree's. A pair in
// contact at a point x is found if, at every cut, a triangle below the node
// whose part in the node's box holds x stays below a child whose box holds
// x. Read checks:
//
//  1. the shape: one binary tree laid out depth first, at most boxDepth
//     cuts deep, axes 0 to 2, the leaves listing the triangle order in turn
//     (so that the order counts in how many leaves a triangle is, which
//     decides which pairs the query deduplicates), no triangle twice in a
//     leaf, every triangle in at least one leaf;
//  2. the root box contains every triangle, exactly, and lies in [−m, m]³;
//  3. at every cut on axis a with bounds hi (left) and lo (right): hi and lo
//     are finite, hi ≤ the node's box's upper bound and lo ≥ its lower bound
//     on a (so that every box lies in the root box and the tests' rounding
//     is as for Build's trees); every triangle of the left subtree that is
//     not in the right one lies at or below hi on a, every one of the right
//     subtree not in the left one at or above lo; and if a triangle is in
//     both, hi ≥ lo.
//
// With 3, a point x of a triangle in the node's box is in the left child's
// box if the triangle is only on the left (x_a ≤ hi), in the right one's if
// only on the right, and in one of the two if on both (hi ≥ lo); a box whose
// bounds cross (lower above upper) holds no point and so is never on the
// path to a pair.

// boxTree is Zachmann's box-tree: each internal node cuts its box across
// one axis; its left child's box is the part below hi, its right child's
// the part above lo. Boxes are not stored: the root's is, and the others
// follow from the cuts during the traversal.
//
// A triangle goes to the left child when it lies below the cut plane c
// thickened by δ (its largest coordinate on the axis at most c + δ), to the
// right child when it lies above c - δ, to the side of its centroid when it
// lies in the thick plane, and to both children when it crosses it. The
// planes are then moved in as far as the triangles allow: hi is the largest
// coordinate of the left-only triangles, lo the least of the right-only
// ones, and when triangles cross, hi ≥ c ≥ lo, so that the two boxes cover
// their parent's where those triangles lie. Each triangle's part inside a
// node's box is thus inside the box of a child that holds it, which is all
// the traversal needs to find every pair in contact.
type boxTree struct {
	root  geom.AABB
	nodes []cut
	order []int32  // the leaves' triangles, the last of each complemented
	dup   []uint64 // bit t: triangle t is in more than one leaf
	mag   float64
	read  bool // read by Read and not checked yet (no dup yet)

	// hull: per node, the box of its subtree's triangles (their bounds'
	// union), made once by the first distance query (tight), for its
	// lower bounds only: the derived boxes are cut on one side per level
	// and stay far larger than the triangles inside them.
	hullOnce sync.Once
	hull     []geom.AABB
}

// tight returns the boxes of the triangles of m under each node of t,
// computed on the first call (48 bytes a node: twice the node array).
// Children follow their parent in the layout, so one pass from the last
// node back joins a node's children before the node.
func (t *boxTree) tight(m *mesh.TriMesh) []geom.AABB {
	t.hullOnce.Do(func() {
		h := make([]geom.AABB, len(t.nodes))
		for i := len(t.nodes) - 1; i >= 0; i-- {
			n := &t.nodes[i]
			if n.ref >= 0 {
				h[i] = h[i+1].Union(h[i+int(n.ref)])
				continue
			}
			b := geom.EmptyAABB()
			for j := int(^n.ref); ; j++ {
				v := t.order[j]
				if v < 0 {
					v = ^v
				}
				b = b.Union(m.Triangle(int(v)).Bounds())
				if t.order[j] < 0 {
					break
				}
			}
			h[i] = b
		}
		t.hull = h
	})
	return t.hull
}

// cut is a node of a box-tree.
type cut struct {
	hi, lo float64 // the left child's upper bound, the right child's lower bound
	ref    int32   // as in the k-DOP trees; leaves index the order
	axis   uint8
}

// Box-tree construction constants: the cut plane's half-thickness as a
// fraction of the node's extent across it; the weight γ of crossing
// triangles in Zachmann's penalty |n_l - n_r| + γ·n_c; how many times its
// triangles a node's two children may hold together (each must hold fewer
// than it); and the depth limit.
//
// The constants come from the adversarial soups of the tests with a
// tolerance: thicker planes and less growth gave fewer volume and triangle
// tests there.
const (
	boxThick  = 1.0 / 16
	boxGamma  = 1.0
	boxGrowth = 1.5
	boxDepth  = 64
)

func (t *boxTree) len() int        { return len(t.nodes) }
func (t *boxTree) ref(i int) int32 { return t.nodes[i].ref }
func (t *boxTree) perm() []int32   { return t.order }
func (t *boxTree) bytes() int64 {
	return int64(len(t.nodes))*int64(unsafe.Sizeof(cut{})) + 4*int64(len(t.order)) + 8*int64(len(t.dup))
}

// bounds returns the box of node i as a 6-DOP.
func (t *boxTree) bounds(i int) bv.DOP { return boxDOP(t.box(i)) }

// box returns the box of node i, derived from the root's by the cuts on the
// path to it.
func (t *boxTree) box(i int) geom.AABB {
	b, at := t.root, 0
	for at != i {
		n := &t.nodes[at]
		a := int(n.axis)
		if r := int(n.ref); i < at+r {
			b.Max = b.Max.SetIndex(a, n.hi)
			at++
		} else {
			b.Min = b.Min.SetIndex(a, n.lo)
			at += r
		}
	}
	return b
}

// newBoxTree builds the box-tree over the triangles ids of m, which it
// takes over.
func newBoxTree(o Options, m *mesh.TriMesh, ids []int32) *boxTree {
	n := len(m.Tris)
	t := &boxTree{mag: meshMag(m), root: geom.EmptyAABB()}
	if len(ids) == 0 {
		return t
	}
	b := &boxBuilder{o: o, tb: make([]geom.AABB, n), cent: make([]geom.Vec3, n)}
	parallelFor(len(ids), func(lo, hi int) {
		for _, i := range ids[lo:hi] {
			tr := m.Triangle(int(i))
			b.tb[i] = tr.Bounds()
			b.cent[i] = tr[0].Add(tr[1]).Add(tr[2]).Scale(1.0 / 3)
		}
	})
	for _, i := range ids {
		t.root = t.root.Union(b.tb[i])
	}
	b.node(ids, t.root, 0)
	t.nodes, t.order = b.nodes, b.order
	t.dup = duplicates(t.order, n)
	return t
}

// duplicates returns the set of the triangles (of n) that order lists more
// than once, as a bit set, or nil if there are none.
func duplicates(order []int32, n int) []uint64 {
	count := make([]uint8, n)
	var dup []uint64
	for _, v := range order {
		if v < 0 {
			v = ^v
		}
		if count[v]++; count[v] == 2 {
			if dup == nil {
				dup = make([]uint64, (n+63)/64)
			}
			dup[v>>6] |= 1 << (v & 63)
		}
		count[v] = min(count[v], 2)
	}
	return dup
}

// boxBuilder holds the state of one box-tree build.
type boxBuilder struct {
	o     Options
	tb    []geom.AABB // triangle boxes
	cent  []geom.Vec3
	nodes []cut
	order []int32
	keys  []float64
}

// node appends the subtree over the triangles ids in the box bx.
func (b *boxBuilder) node(ids []int32, bx geom.AABB, depth int) {
	at := len(b.nodes)
	b.nodes = append(b.nodes, cut{})
	if len(ids) > b.o.Leaf && depth < boxDepth {
		if c, ok := b.bestCut(ids, bx); ok {
			left, right := b.assign(ids, c)
			b.nodes[at] = cut{hi: c.hi, lo: c.lo, axis: uint8(c.axis)}
			lb, rb := bx, bx
			lb.Max = lb.Max.SetIndex(c.axis, c.hi)
			rb.Min = rb.Min.SetIndex(c.axis, c.lo)
			b.node(left, lb, depth+1)
			b.nodes[at].ref = int32(len(b.nodes) - at)
			b.node(right, rb, depth+1)
			return
		}
	}
	b.nodes[at].ref = ^int32(len(b.order))
	b.order = append(b.order, ids...)
	b.order[len(b.order)-1] = ^b.order[len(b.order)-1]
}

// plane is a candidate cut.
type plane struct {
	axis        int
	c, delta    float64 // the plane and its half-thickness
	hi, lo      float64 // the children's bounds
	nl, nr, nc  int     // left-only, right-only and crossing triangles
	penalty     float64
	left, right bool
}

// side classifies a triangle with extent [lo, hi] and centroid coordinate
// m against the thick plane: left, right or both.
func (p *plane) side(lo, hi, m float64) (left, right bool) {
	switch inL, inR := hi <= p.c+p.delta, lo >= p.c-p.delta; {
	case inL && inR:
		return m < p.c, m >= p.c
	case inL:
		return true, false
	case inR:
		return false, true
	}
	return true, true
}

// bestCut returns the cut of least penalty over the three axes, each cut at
// the median of the centroids, among those that leave each child at most
// the share boxShare of the triangles.
func (b *boxBuilder) bestCut(ids []int32, bx geom.AABB) (best plane, ok bool) {
	n := len(ids)
	for a := range 3 {
		ext := bx.Max.Index(a) - bx.Min.Index(a)
		if !(ext > 0) {
			continue
		}
		b.keys = b.keys[:0]
		for _, t := range ids {
			b.keys = append(b.keys, b.cent[t].Index(a))
		}
		mid := len(b.keys) / 2
		slices.Sort(b.keys) // simple and O(n log n); the build is O(n log² n)
		p := plane{axis: a, c: b.keys[mid], delta: ext * boxThick, hi: math.Inf(-1), lo: math.Inf(1)}
		for _, t := range ids {
			lo, hi := b.tb[t].Min.Index(a), b.tb[t].Max.Index(a)
			switch l, r := p.side(lo, hi, b.cent[t].Index(a)); {
			case l && r:
				p.nc++
			case l:
				p.nl++
				p.hi = max(p.hi, hi)
			default:
				p.nr++
				p.lo = min(p.lo, lo)
			}
		}
		L, R := p.nl+p.nc, p.nr+p.nc
		if L == 0 || R == 0 || L == n || R == n || float64(L+R) > boxGrowth*float64(n) {
			continue
		}
		if p.nc > 0 {
			p.hi, p.lo = max(p.hi, p.c), min(p.lo, p.c)
		}
		p.hi = min(p.hi, bx.Max.Index(a))
		p.lo = max(p.lo, bx.Min.Index(a))
		p.penalty = math.Abs(float64(p.nl-p.nr)) + boxGamma*float64(p.nc)
		if !ok || p.penalty < best.penalty {
			best, ok = p, true
		}
	}
	return best, ok
}

// assign splits ids by the cut p.
func (b *boxBuilder) assign(ids []int32, p plane) (left, right []int32) {
	left = make([]int32, 0, p.nl+p.nc)
	right = make([]int32, 0, p.nr+p.nc)
	a := p.axis
	for _, t := range ids {
		l, r := p.side(b.tb[t].Min.Index(a), b.tb[t].Max.Index(a), b.cent[t].Index(a))
		if l {
			left = append(left, t)
		}
		if r {
			right = append(right, t)
		}
	}
	return left, right
}

// validate checks the box-tree's invariants, as Read does (see check): the
// shape, every triangle in some leaf (leaf sizes are not bounded: a node
// that no cut divides is a leaf), the root box containing every triangle,
// and at every cut the condition the traversal relies on: the triangles of
// the left subtree only lie below hi, those of the right subtree only above
// lo, and if some are on both sides, hi ≥ lo.
func (t *boxTree) validate(m *mesh.TriMesh, o Options, tw twinList) error {
	if f := t.check(m, o, tw); f != nil {
		return errors.New("bvh: " + f.msg)
	}
	return nil
}

// boxScratch is the per-query state of queries on box-trees.
type boxScratch struct {
	cur uint32
	vertexCache
	walk walk[boxFrame]
	ft   []int32 // triangles of a flying leaf
	et   []int32 // triangles of an environment leaf
	seen map[Pair]struct{}
}

// boxQuery is one query between two box-trees.
//
// Its walk is the copy of the traversal that go generate makes from the
// first directive, and Collide runs it by the second (see traverse.go):
//
//specialize:copy Box|boxFrame|*boxQuery
//specialize:case *boxTree|e.collide(env, fly, pose, o, s, fn)
type boxQuery struct {
	tester
	et, ft *boxTree
	r      geom.Mat3
	absR   geom.Mat3
	pad    float64
	sc     *boxScratch
	eh, fh []geom.AABB // distance queries: the trees' tight boxes (boxTree.tight)
}

func (t *boxTree) collide(env, fly *Tree, pose geom.Pose, o request, s *Scratch, fn func(Pair) bool) Stats {
	q := newBoxQuery(env, fly, pose, o, s, fn)
	return runBox(&q)
}

// newBoxQuery prepares the query of fly at pose against env in s, with its
// walk at the roots.
func newBoxQuery(env, fly *Tree, pose geom.Pose, o request, s *Scratch, fn func(Pair) bool) boxQuery {
	if s.box == nil {
		s.box = &boxScratch{}
	}
	sc := s.box
	et, ft := env.impl.(*boxTree), fly.impl.(*boxTree)
	if sc.cur++; sc.cur == 0 {
		clear(sc.walk.restarted)
		sc.cur = 1
	}
	sc.vertexCache.begin(len(fly.mesh.Verts), sc.cur == 1)
	if n := ft.len(); len(sc.walk.restarted) < n {
		sc.walk.restarted = make([]uint32, n)
	}
	q := boxQuery{
		tester: newTester(env, fly, pose, o, fn, &sc.vertexCache, sc.cur),
		et:     et, ft: ft, r: pose.R, absR: absMat(pose.R), pad: padding(pose, o.Eps, et.mag, ft.mag), sc: sc,
	}
	if o.mode == modeDistance {
		q.eh, q.fh = et.tight(env.mesh), ft.tight(fly.mesh)
	}
	w := &sc.walk
	w.cur = sc.cur
	kept := w.setup(&o, env, fly, 0, &pose, item[boxFrame]{x: boxFrame{et.root, ft.root}})
	if o.All && (et.dup != nil || ft.dup != nil) {
		if kept == nil {
			if sc.seen == nil {
				sc.seen = map[Pair]struct{}{}
			}
			clear(sc.seen)
			kept = sc.seen
		}
		q.seen, q.edup, q.fdup = kept, et.dup, ft.dup
	}
	return q
}

// The operations of the traversal (see pairOps): the boxes of a pair of
// nodes travel with it, derived from their parents' by the cuts, and the
// larger box is descended first.

// overlap tests the boxes of the frame x, the flying one (in its own
// model's frame) moved by the pose: one update. It is the walk's yes/no
// test, a fast path kept next to sep, the kind's verdict and bound (sep >
// 0 exactly when overlap says false), because bv.OBBDisjoint stops at the
// first axis that separates where bv.OBBSeparation tries all fifteen (the
// OBB trees' queries ran 21% slower with the test derived from sep).
func (q *boxQuery) overlap(_, _ int32, x *boxFrame) bool {
	q.st.Updates++
	eb, fb := &x.eb, &x.fb
	ec, fc := eb.Min.Add(eb.Max).Scale(0.5), fb.Min.Add(fb.Max).Scale(0.5)
	eh, fh := eb.Max.Sub(eb.Min).Scale(0.5), fb.Max.Sub(fb.Min).Scale(0.5)
	return !bv.OBBDisjoint(eh, fh, &q.r, &q.absR, q.pose.Apply(fc).Sub(ec), q.pad)
}

// sep of box-trees: the 15-axis separation of the boxes of the frame x,
// as overlap computes them (g > 0 exactly when overlap says disjoint). A
// box-tree's box holds the part of its triangles that lies in it, not
// the whole of them (a triangle crossing a cut goes to both children): g
// bounds the distance between those parts, which is what the walks need,
// since a pair of points in contact is found at the pairs of nodes whose
// boxes hold them. Box-trees keep their leaves' boxes, so leaves are no
// different.
func (q *boxQuery) sep(_, _ int32, x *boxFrame) float64 {
	eb, fb := &x.eb, &x.fb
	ec, fc := eb.Min.Add(eb.Max).Scale(0.5), fb.Min.Add(fb.Max).Scale(0.5)
	eh, fh := eb.Max.Sub(eb.Min).Scale(0.5), fb.Max.Sub(fb.Min).Scale(0.5)
	return bv.OBBSeparation(eh, fh, &q.r, &q.absR, q.pose.Apply(fc).Sub(ec), q.pad) * sepScale
}

// lowerBound of box-trees: the largest of sep's bound, the gaps along each
// box's face axes combined (boxFaceLower) and the distance of the
// rectangle swept spheres around the boxes of the frame x (boxRectLower), computed from the same centres and half-extents, whose
// rounding the padding covers as it covers the test's. See sep.go.
//
// In a distance query, each box is first cut down to the box of its
// node's triangles (boxTree.tight): the points of the triangles in the
// derived box are in both, and both are exact coordinates, so the bound
// and its rounding are as for the derived boxes. A node none of whose
// triangles meets its derived box has no point to offer: +Inf.
func (q *boxQuery) lowerBound(e, f int32, x *boxFrame) float64 {
	if q.eh == nil {
		return boxLower(q, &x.eb, &x.fb)
	}
	eb, fb := clipBox(x.eb, &q.eh[e]), clipBox(x.fb, &q.fh[f])
	if !(eb.Min.X <= eb.Max.X && eb.Min.Y <= eb.Max.Y && eb.Min.Z <= eb.Max.Z &&
		fb.Min.X <= fb.Max.X && fb.Min.Y <= fb.Max.Y && fb.Min.Z <= fb.Max.Z) {
		return math.Inf(1)
	}
	// sep's bound on the derived boxes as well: the cut boxes' bounds are
	// as large but for rounding, and lowerBound is never below sep.
	return max(q.sep(e, f, x), boxLower(q, &eb, &fb))
}

// boxLower is lowerBound's bound on the boxes eb and fb.
func boxLower(q *boxQuery, eb, fb *geom.AABB) float64 {
	ec, fc := eb.Min.Add(eb.Max).Scale(0.5), fb.Min.Add(fb.Max).Scale(0.5)
	eh, fh := eb.Max.Sub(eb.Min).Scale(0.5), fb.Max.Sub(fb.Min).Scale(0.5)
	t := q.pose.Apply(fc).Sub(ec)
	return max(bv.OBBSeparation(eh, fh, &q.r, &q.absR, t, q.pad)*sepScale, boxFaceLower(eh, fh, &q.r, &q.absR, t, q.pad), boxRectLower(eh, fh, &q.r, t, q.pad))
}

// clipBox returns the intersection of the boxes a and b (crossed bounds
// if they do not meet).
func clipBox(a geom.AABB, b *geom.AABB) geom.AABB {
	return geom.AABB{
		Min: geom.Vec3{X: max(a.Min.X, b.Min.X), Y: max(a.Min.Y, b.Min.Y), Z: max(a.Min.Z, b.Min.Z)},
		Max: geom.Vec3{X: min(a.Max.X, b.Max.X), Y: min(a.Max.Y, b.Max.Y), Z: min(a.Max.Z, b.Max.Z)},
	}
}

func (q *boxQuery) eref(e int32) int32            { return q.et.nodes[e].ref }
func (q *boxQuery) ekids(e, x int32) (l, r int32) { return e + 1, e + x }
func (q *boxQuery) fkids(f int32) (l, r int32) {
	if r := q.ft.nodes[f].ref; r >= 0 {
		return f + 1, f + r
	}
	return -1, -1
}

// envFirst descends the box with the larger half-extent.
// In a distance query, the boxes are those lowerBound measures.
func (q *boxQuery) envFirst(e, f int32, x *boxFrame) bool {
	eb, fb := x.eb, x.fb
	if q.eh != nil {
		eb, fb = clipBox(eb, &q.eh[e]), clipBox(fb, &q.fh[f])
	}
	eh, fh := eb.Max.Sub(eb.Min), fb.Max.Sub(fb.Min)
	return max(eh.X, eh.Y, eh.Z) >= max(fh.X, fh.Y, fh.Z)
}

// deeper keeps the layout's order: a box-tree's boxes are cut on the way
// down, in the frames.
func (q *boxQuery) deeper(a, b, f int32) bool { return false }

// Box-trees keep their leaf volumes: a leaf's box is cut from its parent's
// on the way down and costs no more than a triangle test to compare.
func (q *boxQuery) leafTests() bool         { return false }
func (q *boxQuery) envLeaf(_, _ int32) bool { return true }
func (q *boxQuery) flyLeaf(_, _ int32) bool { return true }

func (q *boxQuery) esplit(e int32, l, r *boxFrame) { q.et.split(e, &l.eb, &r.eb) }
func (q *boxQuery) fsplit(f int32, l, r *boxFrame) { q.ft.split(f, &l.fb, &r.fb) }
func (q *boxQuery) eroot(x *boxFrame)              { x.eb = q.et.root }
func (q *boxQuery) update(int32)                   {}
func (q *boxQuery) base() *tester                  { return &q.tester }
func (q *boxQuery) state() *walk[boxFrame]         { return &q.sc.walk }
func (q *boxQuery) stale(int32) bool               { return false }

func (q *boxQuery) leaves(e, f int32) {
	q.sc.ft = leafList(q.ft.order, q.ft.nodes[f].ref, q.sc.ft[:0])
	q.leaf(q.et.order, q.et.nodes[e].ref, q.sc.ft)
}

// split narrows l and r, each the box of internal node i, to the boxes of
// its left and right children.
func (t *boxTree) split(i int32, l, r *geom.AABB) {
	n := &t.nodes[i]
	switch n.axis {
	case 0:
		l.Max.X, r.Min.X = n.hi, n.lo
	case 1:
		l.Max.Y, r.Min.Y = n.hi, n.lo
	default:
		l.Max.Z, r.Min.Z = n.hi, n.lo
	}
}

// probes: Cv is the box-tree's volume test, on the boxes of nearby nodes
// of t, the flying one moved by costPose; box-trees move no volume (Cu).
func (bt *boxTree) probes(t *Tree) (cv, cu func(n int)) {
	q := &boxQuery{tester: tester{pose: costPose}, et: bt, ft: bt, r: costPose.R, absR: absMat(costPose.R),
		pad: padding(costPose, 0, bt.mag, bt.mag)}
	ps := probes[boxFrame]{}
	ps.ia, ps.ib = probePairs(bt.len(), bt.len())
	ps.xs = make([]boxFrame, len(ps.ia))
	for i := range ps.xs {
		ps.xs[i] = boxFrame{bt.box(int(ps.ia[i])), bt.box(int(ps.ib[i]))}
	}
	return probeBox(q, ps)
}

func (q *boxQuery) ready(int32) {}

func (q *boxQuery) tris(e, f int32) (et, ft []int32) {
	q.sc.et = leafList(q.et.order, q.et.nodes[e].ref, q.sc.et[:0])
	q.sc.ft = leafList(q.ft.order, q.ft.nodes[f].ref, q.sc.ft[:0])
	return q.sc.et, q.sc.ft
}

// ejoin: the box of a node is the union of its children's (the cut of the
// left child lowers the parent's upper side, that of the right raises its
// lower side, along one axis).
func (q *boxQuery) ejoin(l, r, x *boxFrame) { x.eb, x.fb = l.eb.Union(r.eb), l.fb }

func (q *boxQuery) fjoin(l, r, x *boxFrame) { x.eb, x.fb = l.eb, l.fb.Union(r.fb) }

// check checks every invariant of the box-tree t over m (see the top of the
// file) and returns the first fault, or nil. A tree Read has just read
// (t.read) gets the set of its shared triangles once it passes: only then
// are the order's entries known to be in range.
func (t *boxTree) check(m *mesh.TriMesh, o Options, tw twinList) *fault {
	f := t.checkCuts(m, o, tw)
	if f == nil && t.read {
		t.dup = duplicates(t.order, len(m.Tris))
		t.read = false
	}
	return f
}

// checkCuts is check but for what a tree read gets once checked.
func (t *boxTree) checkCuts(m *mesh.TriMesh, _ Options, tw twinList) *fault {
	n, nt := len(t.nodes), len(m.Tris)
	if nt == 0 || n == 0 {
		if n != 0 || nt != 0 {
			return faultf(atTree, 0, 0, "%d nodes over %d triangles", n, nt)
		}
		return nil
	}
	mag := meshMag(m)
	r := t.root
	for k, x := range [6]float64{r.Min.X, r.Min.Y, r.Min.Z, r.Max.X, r.Max.Y, r.Max.Z} {
		if !(math.Abs(x) <= mag) {
			return faultf(atRoot, 0, 8*k, "root box coordinate %v is not finite or beyond the model's largest coordinate %v", x, mag)
		}
	}
	if i := firstFault(nt, func(i int) bool { return !r.ContainsBox(m.Triangle(i).Bounds()) }); i >= 0 {
		return faultf(atRoot, 0, 0, "the root box does not contain triangle %d", i)
	}
	ref := func(i int) int32 { return t.nodes[i].ref }
	sh, f := walkShape(n, nt, ref, t.order, shapeRules{levels: boxDepth + 1, refAt: cutRefAt, twins: tw})
	if f != nil {
		return f
	}
	// The cuts' bounds, against each node's box, top down: the first node
	// at fault, in layout order, is bf.
	type item struct {
		i int
		b geom.AABB
	}
	var bf *fault
	stack := []item{{0, r}}
	for len(stack) > 0 && bf == nil {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		c := &t.nodes[it.i]
		if c.ref < 0 {
			continue
		}
		a := int(c.axis)
		switch {
		case a > 2:
			bf = faultf(atNode, it.i, cutAxisAt, "node %d: axis %d (want 0, 1 or 2)", it.i, c.axis)
		case math.IsInf(c.hi, 0) || math.IsNaN(c.hi):
			bf = faultf(atNode, it.i, 0, "node %d: the left child's upper bound %v is not finite", it.i, c.hi)
		case math.IsInf(c.lo, 0) || math.IsNaN(c.lo):
			bf = faultf(atNode, it.i, cutLoAt, "node %d: the right child's lower bound %v is not finite", it.i, c.lo)
		case c.hi > it.b.Max.Index(a):
			bf = faultf(atNode, it.i, 0, "node %d: the left child's upper bound %v is above the node's box (%v on axis %d)", it.i, c.hi, it.b.Max.Index(a), a)
		case c.lo < it.b.Min.Index(a):
			bf = faultf(atNode, it.i, cutLoAt, "node %d: the right child's lower bound %v is below the node's box (%v on axis %d)", it.i, c.lo, it.b.Min.Index(a), a)
		}
		l, rb := it.b, it.b
		l.Max = l.Max.SetIndex(a, c.hi)
		rb.Min = rb.Min.SetIndex(a, c.lo)
		stack = append(stack, item{it.i + int(c.ref), rb}, item{it.i + 1, l})
	}
	// Where each triangle is in seq, to tell the triangles on both sides
	// of a cut: at[off[t]:off[t+1]], increasing.
	off := make([]int32, nt+1)
	for _, tr := range sh.seq {
		off[tr+1]++
	}
	for i := range nt {
		off[i+1] += off[i]
	}
	at := make([]int32, len(sh.seq))
	fill := slices.Clone(off[:nt])
	for p, tr := range sh.seq {
		at[fill[tr]] = int32(p)
		fill[tr]++
	}
	// in reports whether triangle tr is in seq[lo:hi].
	in := func(tr, lo, hi int32) bool {
		ps := at[off[tr]:off[tr+1]]
		if len(ps) == 1 {
			return lo <= ps[0] && ps[0] < hi
		}
		j, _ := slices.BinarySearch(ps, lo)
		return j < len(ps) && ps[j] < hi
	}
	// The cuts' conditions, up to bf: the first node at fault in layout
	// order is reported. (A node's subtree's triangles do not depend on
	// the axes, so the cuts before bf are checked on sound ground.)
	upto := n
	if bf != nil {
		upto = bf.i
	}
	bad := firstFault(upto, func(i int) bool { return t.cutFault(i, m, sh, in) != nil })
	if bad < 0 {
		return bf
	}
	return t.cutFault(bad, m, sh, in)
}

// cutFault returns the fault of the cut of node i (nil for a leaf): a
// triangle of one side only that reaches beyond the cut, or a gap between
// the children's boxes where a triangle of both sides lies.
func (t *boxTree) cutFault(i int, m *mesh.TriMesh, sh *shape, in func(tr, lo, hi int32) bool) *fault {
	c := &t.nodes[i]
	if c.ref < 0 {
		return nil
	}
	a := int(c.axis)
	l, r := i+1, i+int(c.ref)
	extent := func(tr int32) (lo, hi float64) {
		ix := m.Tris[tr]
		x, y, z := m.Verts[ix[0]].Index(a), m.Verts[ix[1]].Index(a), m.Verts[ix[2]].Index(a)
		return min(x, y, z), max(x, y, z)
	}
	both := false
	for _, tr := range sh.seq[sh.lo[l]:sh.hi[l]] {
		if in(tr, sh.lo[r], sh.hi[r]) {
			both = true
		} else if _, hi := extent(tr); hi > c.hi {
			return faultf(atNode, i, 0, "node %d: triangle %d of the left subtree only reaches above its cut", i, tr)
		}
	}
	for _, tr := range sh.seq[sh.lo[r]:sh.hi[r]] {
		if lo, _ := extent(tr); lo < c.lo && !in(tr, sh.lo[l], sh.hi[l]) {
			return faultf(atNode, i, cutLoAt, "node %d: triangle %d of the right subtree only reaches below its cut", i, tr)
		}
	}
	if both && c.hi < c.lo {
		return faultf(atNode, i, 0, "node %d: the children's boxes leave a gap where shared triangles lie", i)
	}
	return nil
}

// Field offsets within a saved box-tree node's record (see Magic).
const (
	cutLoAt   = 8
	cutRefAt  = 16
	cutAxisAt = 20
)

// boxRootSize is the size of the root box that precedes a box-tree's nodes.
const boxRootSize = 6 * 8

// encodeNodes writes the root box of t, then per node its two bounds in
// float64, its ref and its axis as uint32.
func (t *boxTree) encodeNodes(e *encoder) {
	if len(t.nodes) > 0 {
		r := t.root
		putFloats(e.grab(boxRootSize), r.Min.X, r.Min.Y, r.Min.Z, r.Max.X, r.Max.Y, r.Max.Z)
	}
	encodeRecords(e, len(t.nodes), nodeSize(Options{Kind: BoxTree}), func(i int, p []byte) {
		n := &t.nodes[i]
		p = putFloats(p, n.hi, n.lo)
		binary.LittleEndian.PutUint32(p, uint32(n.ref))
		binary.LittleEndian.PutUint32(p[4:], uint32(n.axis))
	})
}

// readBoxTree reads the root box and the nodes of a box-tree over m.
func readBoxTree(d *decoder, h *header, m *mesh.TriMesh) (*boxTree, error) {
	t := &boxTree{mag: meshMag(m), root: geom.EmptyAABB(), read: true}
	if h.nn > 0 {
		b, err := d.next(boxRootSize, "root box")
		if err != nil {
			return nil, err
		}
		r := &t.root
		if _, nan := getFloats(b, &r.Min.X, &r.Min.Y, &r.Min.Z, &r.Max.X, &r.Max.Y, &r.Max.Z); nan {
			d.badf(h.nAt-boxRootSize, "NaN in the root box")
		}
	}
	t.nodes = alloc[cut](d, h.nn, h.nodeSize)
	err := decodeRecords(d, h.nn, h.nodeSize, "node array", func(i int, p []byte) {
		var c cut
		p, nan := getFloats(p, &c.hi, &c.lo)
		c.ref = int32(binary.LittleEndian.Uint32(p))
		axis := binary.LittleEndian.Uint32(p[4:])
		c.axis = uint8(min(axis, 3))
		t.nodes = append(t.nodes, c)
		at := h.nAt + int64(i)*h.nodeSize
		switch {
		case nan:
			d.badf(at, "node %d: NaN bound", i)
		case axis > 2:
			d.badf(at+20, "node %d: axis %d (want 0, 1 or 2)", i, axis)
		}
		d.checkRef(h, i, c.ref, int64(h.no))
	})
	if err != nil {
		return nil, err
	}
	// The order's entries may be out of range until Read has checked
	// them: check sets t.dup after.
	t.order, err = readOrder(d, h)
	return t, err
}

// boxFrame is the frame of the box-trees: the boxes of the environment
// node and of the flying node, each in its own model's coordinates.
type boxFrame struct{ eb, fb geom.AABB }
