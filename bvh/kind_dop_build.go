package bvh

import (
	"math"
	"runtime"
	"sync"

	"github.com/collide3d/collide/bv"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh"
)

// This file is the k-DOP kind's builder (see kind_dop.go).

// builder holds the state of one tree build.
type builder[F bv.Float, A bv.Slabs[F]] struct {
	o     Options
	m     *mesh.TriMesh
	cent  []geom.Vec3 // triangle centroids (representatives)
	idx   []int32     // triangles, partitioned in place node by node
	boxes []geom.AABB // triangle boxes (LongestSide)
	dops  []bv.DOP    // triangle k-DOPs (MinSum, MinMax)
	off   [bv.MaxSlabs]float64
	// order is the leaf-by-leaf triangle list (leaf size > 1).
	order []int32
}

// build builds the k-DOP tree over the triangles ids of m (the
// representatives of their twins), which it takes over.
func build[F bv.Float, A bv.Slabs[F]](o Options, m *mesh.TriMesh, ids []int32) *tree[F, A] {
	n := len(ids)
	b := &builder[F, A]{o: o, m: m}
	t := &tree[F, A]{}
	if n == 0 {
		return t
	}
	b.cent = make([]geom.Vec3, len(m.Tris))
	b.idx = ids
	bounds := geom.EmptyAABB()
	parallelFor(n, func(lo, hi int) {
		for _, i := range ids[lo:hi] {
			tr := m.Triangle(int(i))
			b.cent[i] = tr[0].Add(tr[1]).Add(tr[2]).Scale(1.0 / 3)
		}
	})
	for _, v := range m.Verts {
		bounds = bounds.AddPoint(v)
	}
	// The centre of the bounds, computed so that it cannot overflow.
	o.K.Project(bounds.Min.Scale(0.5).Add(bounds.Max.Scale(0.5)), &b.off)
	for _, x := range b.off {
		if math.IsInf(x, 0) || math.IsNaN(x) { // coordinates near the float64 limit
			b.off = [bv.MaxSlabs]float64{}
			break
		}
	}
	t.off = b.off
	switch o.Rule {
	case LongestSide:
		b.boxes = make([]geom.AABB, len(m.Tris))
		parallelFor(n, func(lo, hi int) {
			for _, i := range ids[lo:hi] {
				b.boxes[i] = m.Triangle(int(i)).Bounds()
			}
		})
	case MinSum, MinMax:
		b.dops = make([]bv.DOP, len(m.Tris))
		parallelFor(n, func(lo, hi int) {
			for _, i := range ids[lo:hi] {
				b.dops[i] = bv.FitTriangles(o.K, m.Triangle(int(i)))
			}
		})
	}
	if o.Leaf > 1 {
		b.order = b.idx // leaves take their runs of idx, complemented at the end
	}
	nodes := make([]node[F, A], 0, 2*n-1)
	depth := 0
	for p := runtime.GOMAXPROCS(0); p > 1; p >>= 1 {
		depth++
	}
	t.nodes = b.subtree(nodes, 0, n, depth+1)
	t.order = b.order
	b.idx = nil
	return t
}

// subtree appends the nodes of the subtree over idx[lo:hi] to nodes, in
// depth-first order, and returns the slice. Up to par levels fork their right
// subtree onto another goroutine.
func (b *builder[F, A]) subtree(nodes []node[F, A], lo, hi, par int) []node[F, A] {
	at := len(nodes)
	nodes = append(nodes, node[F, A]{})
	if hi-lo <= b.o.Leaf {
		nodes[at] = b.leaf(lo, hi)
		return nodes
	}
	mid := b.split(lo, hi)
	if par > 0 && hi-lo >= parallelMin {
		var right []node[F, A]
		var wg sync.WaitGroup
		wg.Go(func() {
			right = b.subtree(make([]node[F, A], 0, 2*(hi-mid)-1), mid, hi, par-1)
		})
		nodes = b.subtree(nodes, lo, mid, par-1)
		wg.Wait()
		r := len(nodes)
		nodes = append(nodes, right...)
		nodes[at].ref = int32(r - at)
	} else {
		nodes = b.subtree(nodes, lo, mid, par)
		r := len(nodes)
		nodes = b.subtree(nodes, mid, hi, par)
		nodes[at].ref = int32(r - at)
	}
	bv.Union[F](&nodes[at].s, &nodes[at+1].s, &nodes[at+int(nodes[at].ref)].s)
	return nodes
}

// leaf returns the leaf node over idx[lo:hi].
func (b *builder[F, A]) leaf(lo, hi int) node[F, A] {
	var nd node[F, A]
	d := bv.Empty(b.o.K)
	for _, t := range b.idx[lo:hi] {
		d = d.Union(bv.FitTriangles(b.o.K, b.m.Triangle(int(t))))
	}
	bv.PackDOP[F](&nd.s, &d, &b.off)
	if b.order == nil {
		nd.ref = ^b.idx[lo]
	} else {
		nd.ref = ^int32(lo)
		b.order[hi-1] = ^b.order[hi-1]
	}
	return nd
}

// split partitions idx[lo:hi] into two non-empty parts by the rule and the
// split point, and returns where the second begins.
func (b *builder[F, A]) split(lo, hi int) int {
	ids := b.idx[lo:hi]
	var axes [3]int
	switch b.o.Rule {
	case MinSum, MinMax:
		axes = b.volumeOrder(ids)
	default:
		axes = b.axisOrder(ids)
	}
	for _, a := range axes {
		if mid, ok := b.partition(ids, a); ok {
			return lo + mid
		}
	}
	// Every centroid is the same point: split by count.
	return lo + len(ids)/2
}

// partition splits ids along axis a at the split point; ok is false when one
// side would be empty.
func (b *builder[F, A]) partition(ids []int32, a int) (mid int, ok bool) {
	return partitionBy(ids, b.o.Split, func(t int32) float64 { return b.cent[t].Index(a) })
}

// axisOrder returns the axes from best to worst by the Splatter or the
// LongestSide rule.
func (b *builder[F, A]) axisOrder(ids []int32) [3]int {
	var score [3]float64
	if b.o.Rule == LongestSide {
		box := geom.EmptyAABB()
		for _, t := range ids {
			box = box.Union(b.boxes[t])
		}
		s := box.Size()
		score = [3]float64{s.X, s.Y, s.Z}
	} else {
		// Variance of the centroids, accumulated about the first one to
		// limit cancellation.
		ref := b.cent[ids[0]]
		var sum, sq geom.Vec3
		for _, t := range ids {
			d := b.cent[t].Sub(ref)
			sum = sum.Add(d)
			sq = sq.Add(geom.Vec3{X: d.X * d.X, Y: d.Y * d.Y, Z: d.Z * d.Z})
		}
		n := float64(len(ids))
		mean := sum.Scale(1 / n)
		score = [3]float64{sq.X/n - mean.X*mean.X, sq.Y/n - mean.Y*mean.Y, sq.Z/n - mean.Z*mean.Z}
	}
	return rank(score, true)
}

// volumeOrder returns the axes from best to worst by the MinSum or the
// MinMax rule: for each axis it splits ids at the split point and measures
// the volumes of the two children's k-DOPs.
func (b *builder[F, A]) volumeOrder(ids []int32) [3]int {
	var score [3]float64
	for a := range 3 {
		mid, ok := b.partition(ids, a)
		if !ok {
			score[a] = math.Inf(1)
			continue
		}
		l, r := bv.Empty(b.o.K), bv.Empty(b.o.K)
		for _, t := range ids[:mid] {
			l = l.Union(b.dops[t])
		}
		for _, t := range ids[mid:] {
			r = r.Union(b.dops[t])
		}
		vl, vr := l.Volume(), r.Volume()
		if b.o.Rule == MinSum {
			score[a] = vl + vr
		} else {
			score[a] = max(vl, vr)
		}
	}
	return rank(score, false)
}
