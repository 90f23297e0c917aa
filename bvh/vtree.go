package bvh

import (
	"errors"
	"math"
	"runtime"
	"sync"
	"unsafe"

	"github.com/collide3d/collide/bv"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh"
)

// vtree is the node array of a tree whose volumes, of type V, are stored in
// model coordinates and moved with the flying model's pose, never refitted:
// OBB, sphere, AABB and RSS trees. It has the layout of the k-DOP trees
// (depth first, ref > 0 the offset of the right child, leaves ^x).
type vtree[V any] struct {
	vk    *volKind[V]
	refs  []int32
	vols  []V
	order []int32
	mag   float64 // largest |coordinate| of the mesh
}

// volKind is what differs between the kinds of vtree: how a volume is
// fitted, split, bounded, saved and checked. Each kind's file defines one,
// with its query type.
type volKind[V any] struct {
	kind Kind
	// fit returns the volume of the triangles.
	fit func(tris []geom.Triangle, sc *fitScratch) V
	// frame returns the directions a node with volume v over the triangles
	// may be split along, and its extent along each.
	frame func(v *V, tris []geom.Triangle) (dirs [3]geom.Vec3, ext [3]float64)
	// volume measures v (for the MinSum and MinMax rules).
	volume func(v *V) float64
	// box returns the axis-aligned box around v.
	box func(v *V) geom.AABB
	// floats appends to dst the addresses of v's numbers, in the order a
	// saved node holds them.
	floats func(v *V, dst []*float64) []*float64
	// check returns the first fault of t's volumes over m (their numbers
	// within the bounds, each containing the vertices below it), or nil.
	check func(t *vtree[V], m *mesh.TriMesh, sh *shape) *fault
	// probes returns the cost probes of a tree of the kind (see
	// Tree.CostProbes).
	probes func(t *Tree) (cv, cu func(n int))
}

func (t *vtree[V]) probes(tr *Tree) (cv, cu func(n int)) { return t.vk.probes(tr) }

// box is an axis-aligned box as centre and half-extents, containing the
// points c - h ≤ x ≤ c + h of exact arithmetic.
type box struct{ C, H geom.Vec3 }

func (t *vtree[V]) len() int        { return len(t.refs) }
func (t *vtree[V]) ref(i int) int32 { return t.refs[i] }
func (t *vtree[V]) perm() []int32   { return t.order }
func (t *vtree[V]) bytes() int64 {
	var v V
	return int64(len(t.refs))*(int64(unsafe.Sizeof(v))+4) + 4*int64(len(t.order))
}

// bounds returns the axis-aligned box of node i's volume as a 6-DOP.
func (t *vtree[V]) bounds(i int) bv.DOP { return boxDOP(t.vk.box(&t.vols[i])) }

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
	tris []geom.Triangle
	pts  []geom.Vec3
	buf  []geom.Vec3
}

var axes = [3]geom.Vec3{{X: 1}, {Y: 1}, {Z: 1}}

// aabbFrame splits along x, y and z, with the triangles' extents.
func aabbFrame(tris []geom.Triangle) ([3]geom.Vec3, [3]float64) {
	b := geom.EmptyAABB()
	for _, t := range tris {
		b = b.Union(t.Bounds())
	}
	s := b.Size()
	return axes, [3]float64{s.X, s.Y, s.Z}
}

// newVTree builds the nodes of a tree of the kind vk over the triangles ids
// of m, which it takes over.
func newVTree[V any](vk *volKind[V], o Options, m *mesh.TriMesh, ids []int32) *vtree[V] {
	t := &vtree[V]{vk: vk, mag: meshMag(m)}
	t.refs, t.vols, t.order = buildVTree(o, m, ids, vk)
	return t
}

// vbuilder holds the state of one build of a vtree.
type vbuilder[V any] struct {
	o     Options
	m     *mesh.TriMesh
	ops   *volKind[V]
	cent  []geom.Vec3
	area  []float64 // triangle areas (RAPID rule)
	idx   []int32
	order []int32
}

// vsub is the node array of a subtree under construction.
type vsub[V any] struct {
	refs []int32
	vols []V
}

func buildVTree[V any](o Options, m *mesh.TriMesh, ids []int32, ops *volKind[V]) (refs []int32, vols []V, order []int32) {
	n := len(ids)
	if n == 0 {
		return nil, nil, nil
	}
	b := &vbuilder[V]{o: o, m: m, ops: ops, cent: make([]geom.Vec3, len(m.Tris)), idx: ids}
	if o.Rule == RAPID {
		b.area = make([]float64, len(m.Tris))
	}
	parallelFor(n, func(lo, hi int) {
		for _, i := range ids[lo:hi] {
			tr := m.Triangle(int(i))
			b.cent[i] = tr[0].Add(tr[1]).Add(tr[2]).Scale(1.0 / 3)
			if b.area != nil {
				b.area[i] = tr.Area()
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
	s := vsub[V]{make([]int32, 0, 2*n-1), make([]V, 0, 2*n-1)}
	s = b.subtree(s, 0, n, depth+1, &fitScratch{})
	return s.refs, s.vols, b.order
}

// subtree appends the nodes of the subtree over idx[lo:hi] to s, in
// depth-first order. Up to par levels fork their right subtree onto another
// goroutine.
func (b *vbuilder[V]) subtree(s vsub[V], lo, hi, par int, sc *fitScratch) vsub[V] {
	at := len(s.refs)
	sc.tris = sc.tris[:0]
	for _, t := range b.idx[lo:hi] {
		sc.tris = append(sc.tris, b.m.Triangle(int(t)))
	}
	v := b.ops.fit(sc.tris, sc)
	s.refs = append(s.refs, 0)
	s.vols = append(s.vols, v)
	if hi-lo <= b.o.Leaf {
		if b.order == nil {
			s.refs[at] = ^b.idx[lo]
		} else {
			s.refs[at] = ^int32(lo)
			b.order[hi-1] = ^b.order[hi-1]
		}
		return s
	}
	mid := b.split(lo, hi, &v, sc)
	if par > 0 && hi-lo >= parallelMin {
		var right vsub[V]
		var wg sync.WaitGroup
		wg.Go(func() {
			right = b.subtree(vsub[V]{make([]int32, 0, 2*(hi-mid)-1), make([]V, 0, 2*(hi-mid)-1)}, mid, hi, par-1, &fitScratch{})
		})
		s = b.subtree(s, lo, mid, par-1, sc)
		wg.Wait()
		s.refs[at] = int32(len(s.refs) - at)
		s.refs = append(s.refs, right.refs...)
		s.vols = append(s.vols, right.vols...)
		return s
	}
	s = b.subtree(s, lo, mid, par, sc)
	s.refs[at] = int32(len(s.refs) - at)
	return b.subtree(s, mid, hi, par, sc)
}

// split partitions idx[lo:hi], whose volume is v (and triangles sc.tris),
// into two non-empty parts and returns where the second begins.
func (b *vbuilder[V]) split(lo, hi int, v *V, sc *fitScratch) int {
	ids := b.idx[lo:hi]
	dirs, ext := b.ops.frame(v, sc.tris)
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
		var tris []geom.Triangle
		for a, d := range dirs {
			mid, ok := partitionBy(ids, b.o.Split, key(d))
			if !ok {
				score[a] = math.Inf(1)
				continue
			}
			var vol [2]float64
			for h, part := range [2][]int32{ids[:mid], ids[mid:]} {
				tris = tris[:0]
				for _, t := range part {
					tris = append(tris, b.m.Triangle(int(t)))
				}
				cv := b.ops.fit(tris, sc)
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
		var score [3]float64
		for a, d := range dirs {
			score[a] = variance(ids, key(d))
		}
		order = rank(score, true)
	}
	for _, a := range order {
		if mid, ok := partitionBy(ids, b.o.Split, key(dirs[a])); ok {
			return lo + mid
		}
	}
	return lo + len(ids)/2
}

// variance returns the variance of the keys of ids, accumulated about the
// first one to limit cancellation.
func variance(ids []int32, key func(t int32) float64) float64 {
	ref := key(ids[0])
	var sum, sq float64
	for _, t := range ids {
		d := key(t) - ref
		sum += d
		sq += d * d
	}
	n := float64(len(ids))
	mean := sum / n
	return sq/n - mean*mean
}

// validate checks the tree's invariants, as Read does (see check): the
// shape (as for k-DOP trees), every triangle in exactly one leaf, no leaf
// larger than o.Leaf, every node's volume within the bounds the queries'
// padding assumes and containing exactly the vertices of all the triangles
// below it.
func (t *vtree[V]) validate(m *mesh.TriMesh, o Options, tw twinList) error {
	if f := t.check(m, o, tw); f != nil {
		return errors.New("bvh: " + f.msg)
	}
	return nil
}
