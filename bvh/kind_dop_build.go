package bvh

import (
	"math"
	"runtime"
	"sync"
	"sync/atomic"

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
	dops  []bv.DOP    // triangle k-DOPs (MinSum, MinMax, Oscillate, LongestSide with SplitDirs)
	off   [bv.MaxSlabs]float64
	// order is the leaf-by-leaf triangle list (leaf size > 1).
	order []int32
	// nw is the number of split directions (Options.SplitDirs: k/2, else
	// the 3 axes) and w[i] = 1/|d_i|² their weights.
	nw int
	w  [bv.MaxSlabs]float64
	// vol1[t] is the volume of triangle t's k-DOP once has1[t] (MinSum,
	// MinMax).
	vol1 []float64
	has1 []bool
	// regroups and kept count the oscillating splits and those of them
	// that kept the plain split (Options.Oscillate).
	regroups, kept atomic.Int64
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
	b.nw = 3
	if o.SplitDirs {
		b.nw = o.K.Slabs()
		for i := range b.nw {
			b.w[i] = 1 / o.K.Dir(i).Dot(o.K.Dir(i))
		}
	}
	if o.Oscillate > 0 || o.SplitDirs && o.Rule == LongestSide {
		b.dops = make([]bv.DOP, len(m.Tris))
		parallelFor(n, func(lo, hi int) {
			for _, i := range ids[lo:hi] {
				b.dops[i] = bv.FitTriangles(o.K, m.Triangle(int(i)))
			}
		})
	}
	switch o.Rule {
	case LongestSide:
		if o.SplitDirs {
			break
		}
		b.boxes = make([]geom.AABB, len(m.Tris))
		parallelFor(n, func(lo, hi int) {
			for _, i := range ids[lo:hi] {
				b.boxes[i] = m.Triangle(int(i)).Bounds()
			}
		})
	case MinSum, MinMax:
		b.vol1, b.has1 = make([]float64, len(m.Tris)), make([]bool, len(m.Tris))
		if b.dops != nil {
			break
		}
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
	t.regroups, t.kept = b.regroups.Load(), b.kept.Load()
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
	// The union of the triangles' own k-DOPs, b.dops where the rule has
	// them; a single triangle's is its own (the union with the empty
	// k-DOP is the identity, and a copy of 216 bytes).
	var d bv.DOP
	switch {
	case hi-lo == 1 && b.dops != nil:
		d = b.dops[b.idx[lo]]
	case hi-lo == 1:
		d = bv.FitTriangles(b.o.K, b.m.Triangle(int(b.idx[lo])))
	default:
		d = bv.Empty(b.o.K)
		for _, t := range b.idx[lo:hi] {
			if b.dops != nil {
				d = d.Union(b.dops[t])
			} else {
				d = d.Union(bv.FitTriangles(b.o.K, b.m.Triangle(int(t))))
			}
		}
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
	if b.o.Oscillate > 0 && len(ids) > 2 {
		return lo + b.oscillate(ids)
	}
	return lo + b.plainSplit(ids)
}

// plainSplit partitions ids into two non-empty parts by the rule and the
// split point, and returns where the second begins.
func (b *builder[F, A]) plainSplit(ids []int32) int {
	if b.o.SplitDirs {
		return b.dirSplit(ids)
	}
	var axes [3]int
	switch b.o.Rule {
	case MinSum, MinMax:
		axes = b.volumeOrder(ids)
	default:
		axes = b.axisOrder(ids)
	}
	for _, a := range axes {
		if mid, ok := b.partition(ids, a); ok {
			return mid
		}
	}
	// Every centroid is the same point: split by count.
	return len(ids) / 2
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
//
// The volumes are most of a MinSum build (three quarters of an 18-DOP
// tree's, profiled), so that they are not computed twice for the same
// children: in a node of a few triangles two axes often split alike (then
// the second takes the first's score), and a child of one triangle takes
// its volume from b.vol1, computed once. The partitions still run in the
// same order, so that the trees are the same as before, bit for bit
// (TestBuildUnchanged).
func (b *builder[F, A]) volumeOrder(ids []int32) [3]int {
	var score [3]float64
	n := len(ids)
	var sets [3][2][sameMax]int32 // small nodes: each axis's children, sorted
	var mids [3]int
	for a := range 3 {
		mid, ok := b.partition(ids, a)
		if !ok {
			score[a] = math.Inf(1)
			mids[a] = -1
			continue
		}
		mids[a] = mid
		if n <= sameMax {
			sortedInto(&sets[a][0], ids[:mid])
			sortedInto(&sets[a][1], ids[mid:])
			if p, ok := sameSplit(&sets, &mids, a, n); ok {
				score[a] = score[p]
				continue
			}
		}
		vl, vr := b.volumeOf(ids[:mid]), b.volumeOf(ids[mid:])
		if b.o.Rule == MinSum {
			score[a] = vl + vr
		} else {
			score[a] = max(vl, vr)
		}
	}
	return rank(score, false)
}

// sameMax is the largest node whose axes' splits volumeOrder compares.
const sameMax = 8

// sortedInto copies ids, sorted, into the start of dst.
func sortedInto(dst *[sameMax]int32, ids []int32) {
	for i, t := range ids {
		j := i
		for ; j > 0 && dst[j-1] > t; j-- {
			dst[j] = dst[j-1]
		}
		dst[j] = t
	}
}

// sameSplit returns an axis before a that split the node's n triangles
// into the same two children as a (either way round).
func sameSplit(sets *[3][2][sameMax]int32, mids *[3]int, a, n int) (int, bool) {
	m := mids[a]
	for p := range a {
		switch mids[p] {
		case m:
			if sets[p][0] == sets[a][0] {
				return p, true
			}
		case n - m:
			if sets[p][0] == sets[a][1] {
				return p, true
			}
		}
	}
	return 0, false
}

// volumeOf returns the volume of the k-DOP of the triangles ids, that of a
// single triangle from b.vol1 (computed on first use: the triangles of a
// subtree are its goroutine's alone).
func (b *builder[F, A]) volumeOf(ids []int32) float64 {
	if len(ids) == 1 {
		t := ids[0]
		if !b.has1[t] {
			b.vol1[t] = b.dops[t].Volume()
			b.has1[t] = true
		}
		return b.vol1[t]
	}
	d := bv.Empty(b.o.K)
	for _, t := range ids {
		d = d.Union(b.dops[t])
	}
	return d.Volume()
}

// dirSplit is plainSplit along any of the k/2 directions
// (Options.SplitDirs): the directions ranked by the rule, each weighed as
// the axes are, per unit length (Splatter: the variance of the centroids'
// projections, times 1/|d_i|²; LongestSide: the node's k-DOP's width,
// times 1/|d_i|; MinSum and MinMax: the children's k-DOP volumes).
func (b *builder[F, A]) dirSplit(ids []int32) int {
	var score [bv.MaxSlabs]float64
	n := b.nw
	k := b.o.K
	desc := true
	switch b.o.Rule {
	case LongestSide:
		d := bv.Empty(k)
		for _, t := range ids {
			d = d.Union(b.dops[t])
		}
		for i := range n {
			score[i] = (d.Hi[i] - d.Lo[i]) * math.Sqrt(b.w[i])
		}
	case MinSum, MinMax:
		desc = false
		for i := range n {
			mid, ok := b.partitionDir(ids, i)
			if !ok {
				score[i] = math.Inf(1)
				continue
			}
			score[i] = b.volumes(ids[:mid], ids[mid:])
		}
	default:
		// Variance of the projections, accumulated about the first
		// centroid's to limit cancellation.
		var ref, p, sum, sq [bv.MaxSlabs]float64
		k.Project(b.cent[ids[0]], &ref)
		for _, t := range ids {
			k.Project(b.cent[t], &p)
			for i := range n {
				d := p[i] - ref[i]
				sum[i] += d
				sq[i] += d * d
			}
		}
		// As axisOrder computes it, so that the axes score the same.
		c := float64(len(ids))
		for i := range n {
			m := sum[i] * (1 / c)
			score[i] = (sq[i]/c - m*m) * b.w[i]
		}
	}
	order := rankN(score[:n], desc)
	for _, i := range order[:n] {
		if mid, ok := b.partitionDir(ids, i); ok {
			return mid
		}
	}
	return len(ids) / 2
}

// partitionDir splits ids along direction i of the tree's k at the split
// point; ok is false when one side would be empty.
func (b *builder[F, A]) partitionDir(ids []int32, i int) (mid int, ok bool) {
	k := b.o.K
	return partitionBy(ids, b.o.Split, func(t int32) float64 {
		var p [bv.MaxSlabs]float64
		k.Project(b.cent[t], &p)
		return p[i]
	})
}

// volumes returns the objective of the MinSum rule (the sum of the volumes
// of the k-DOPs of l and r), or of MinMax (the larger of them).
func (b *builder[F, A]) volumes(l, r []int32) float64 {
	vl, vr := b.volumeOf(l), b.volumeOf(r)
	if b.o.Rule == MinMax {
		return max(vl, vr)
	}
	return vl + vr
}

// rankN returns the indices of s sorted by score, largest first if desc,
// ties (and NaN) to the lower index.
func rankN(s []float64, desc bool) [bv.MaxSlabs]int {
	var r [bv.MaxSlabs]int
	for i := range r {
		r[i] = i
	}
	// Insertion sort: stable, and at most 13 entries.
	for i := 1; i < len(s); i++ {
		for j := i; j > 0; j-- {
			a, c := s[r[j]], s[r[j-1]]
			if desc {
				a, c = c, a
			}
			if !(a < c) {
				break
			}
			r[j], r[j-1] = r[j-1], r[j]
		}
	}
	return r
}

// oscillate is the oscillating tree's split (Options.Oscillate = L): it
// splits ids temporarily L levels down by plainSplit, into up to 2^L
// consecutive groups, and regroups them into the two children by the best
// bipartition by the MinSum objective (MinMax's for the MinMax rule), the
// plain split (the first level's) winning ties; it puts the first child's
// groups first and returns where the second child begins.
func (b *builder[F, A]) oscillate(ids []int32) int {
	const maxGroups = 1 << maxOscillate
	var cut [maxGroups + 1]int // group g is ids[cut[g]:cut[g+1]]
	cut[1] = len(ids)
	ng := 1
	plainMid := 0
	for range b.o.Oscillate {
		var next [maxGroups + 1]int
		m := 0
		for g := range ng {
			lo, hi := cut[g], cut[g+1]
			next[m] = lo
			m++
			if hi-lo >= 2 {
				next[m] = lo + b.plainSplit(ids[lo:hi])
				m++
			}
		}
		next[m] = len(ids)
		cut, ng = next, m
		if plainMid == 0 {
			plainMid = cut[1] // the plain split
		}
	}
	b.regroups.Add(1)
	// The plain split's second child: the groups from first on.
	first := 1
	for cut[first] != plainMid {
		first++
	}
	if ng <= 2 {
		b.kept.Add(1)
		return plainMid
	}
	var dops [maxGroups]bv.DOP
	for g := range ng {
		dops[g] = bv.Empty(b.o.K)
		for _, t := range ids[cut[g]:cut[g+1]] {
			dops[g] = dops[g].Union(b.dops[t])
		}
	}
	// Masks over the groups 1..ng-1: bit g-1 set puts group g with the
	// second child; group 0 stays with the first.
	full := uint(1)<<(ng-1) - 1
	plain := full &^ (uint(1)<<(first-1) - 1)
	score := func(mask uint) float64 {
		l, r := dops[0], bv.Empty(b.o.K)
		for g := 1; g < ng; g++ {
			if mask>>(g-1)&1 == 1 {
				r = r.Union(dops[g])
			} else {
				l = l.Union(dops[g])
			}
		}
		vl, vr := l.Volume(), r.Volume()
		if b.o.Rule == MinMax {
			return max(vl, vr)
		}
		return vl + vr
	}
	best, bestScore := plain, score(plain)
	for mask := uint(1); mask <= full; mask++ {
		if mask == plain {
			continue
		}
		if s := score(mask); s < bestScore {
			best, bestScore = mask, s
		}
	}
	if best == plain {
		b.kept.Add(1)
		return plainMid
	}
	out := make([]int32, 0, len(ids))
	for side := range 2 {
		for g := range ng {
			if g > 0 && int(best>>(g-1)&1) == side || g == 0 && side == 0 {
				out = append(out, ids[cut[g]:cut[g+1]]...)
			}
		}
	}
	mid := 0
	for g := range ng {
		if g == 0 || best>>(g-1)&1 == 0 {
			mid += cut[g+1] - cut[g]
		}
	}
	copy(ids, out)
	return mid
}

// Regroupings returns, for a k-DOP tree built with Options.Oscillate, how
// many nodes the builder split by regrouping, and how many of those kept
// the plain split (the rule's own); 0, 0 for other trees, for compact
// ones (Options.Compact) and for trees read back (Read), which do not
// record it.
func (t *Tree) Regroupings() (splits, kept int64) {
	if r, ok := t.impl.(interface{ regroupings() (int64, int64) }); ok {
		return r.regroupings()
	}
	return 0, 0
}

func (t *tree[F, A]) regroupings() (int64, int64) { return t.regroups, t.kept }
