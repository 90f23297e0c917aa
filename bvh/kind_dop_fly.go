package bvh

import (
	"math"
	"slices"
	"sync"
	"unsafe"

	"github.com/collide3d/collide/bv"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/hull"
)

// This file is the k-DOP kind's flying side (see kind_dop.go): the flying
// view of a tree, and the bounds of its nodes' points under a pose
// (tumbling).

// flyView is a tree as a flying model: its hierarchy truncated at the leaf
// threshold τ (nodes of at most τ triangles are leaves), with, per node, the
// k-DOP in model coordinates and the points whose images bound the node
// under any rigid motion (the vertices of the k-DOP, or the node's own mesh
// vertices when there are fewer of those). It is built once per tree and k,
// on first use, or ahead of it by PrepareFlying or Scratch.Prepare.
//
// It is not saved with the tree (WriteTo): Read verifies everything it
// loads, and verifying a saved view means computing its k-DOPs and their
// vertices again, the bulk of building it (about 60% of the time, measured
// on a 20,000-triangle torus), for a view that would add 2.6 MB to a
// 3.5 MB file. A loaded model that will fly is prepared like a built one.
type flyView struct {
	k    bv.K
	dop  []bv.DOP
	kid  []int32 // internal: left child (the right one follows); leaf: ^start in tris
	end  []int32 // leaf: end in tris
	tris []int32
	voff []int32 // node i bounds with verts[voff[i]:voff[i+1]]
	pts  []geom.Vec3
	mag  float64 // largest |coordinate| of the mesh and of pts
	// bc and br are a ball around the model: the box of the root's
	// k-DOP (its first three slabs x, y, z, exact bounds of the
	// vertices, or for a set without the axes the box bv.DOP.Box derives
	// from its diagonals), its centre and the length of its
	// half-diagonal, rounded up (see dopQuery.apart).
	bc geom.Vec3
	br float64

	hullOnce sync.Once
	hull     *hull.Hull
}

// view returns the flying view of t for k-DOPs of k, building it on first
// use. The view last returned is read without the lock.
func (t *Tree) view(k bv.K) *flyView {
	if v := t.lastView.Load(); v != nil && v.k == k {
		return v
	}
	t.flyMu.Lock()
	defer t.flyMu.Unlock()
	if v, ok := t.views[k]; ok {
		t.lastView.Store(v)
		return v
	}
	v := t.newView(k)
	if t.views == nil {
		t.views = map[bv.K]*flyView{}
	}
	t.views[k] = v
	t.lastView.Store(v)
	return v
}

// PrepareFlying builds ahead of time what the first query flying t against
// trees of k-DOPs of k would otherwise build (its truncated hierarchy and
// tumbling points); it takes about as long as building a tree over a tenth
// of the triangles (14 ms for a 20,000-triangle torus with 18-DOPs, on two
// cores). Scratch.Prepare calls it, and prepares the scratch state too.
func (t *Tree) PrepareFlying(k bv.K) { t.view(k) }

// FlyLeaf returns the leaf threshold τ used when t, a KDOP tree, flies (0
// for the other kinds, which fly with their own leaves).
func (t *Tree) FlyLeaf() int {
	if t.opts.Kind != KDOP {
		return 0
	}
	if t.opts.FlyLeaf > 0 {
		return t.opts.FlyLeaf
	}
	return FlyLeafFor(t.opts.K, len(t.mesh.Tris))
}

func (t *Tree) newView(k bv.K) *flyView {
	v := &flyView{k: k}
	n := t.impl.len()
	if n == 0 {
		return v
	}
	// Triangle counts of the tree's subtrees, children before parents.
	count := make([]int32, n)
	var leafBuf []int32
	for i := n - 1; i >= 0; i-- {
		if r := t.impl.ref(i); r >= 0 {
			count[i] = count[i+1] + count[i+int(r)]
		} else {
			leafBuf = t.leafTris(^r, leafBuf[:0])
			count[i] = int32(len(leafBuf))
		}
	}
	tau := int32(t.FlyLeaf())
	// Lay the truncated tree out breadth first, children side by side.
	src := []int{0} // tree node of each view node
	for i := 0; i < len(src); i++ {
		s := src[i]
		r := t.impl.ref(s)
		if r < 0 || count[s] <= tau {
			start := int32(len(v.tris))
			v.tris = t.subtreeTris(s, v.tris)
			v.kid = append(v.kid, ^start)
			v.end = append(v.end, int32(len(v.tris)))
			continue
		}
		v.kid = append(v.kid, int32(len(src)))
		v.end = append(v.end, 0)
		src = append(src, s+1, s+int(r))
	}
	m := len(src)
	v.dop = make([]bv.DOP, m)
	for i := m - 1; i >= 0; i-- {
		if c := v.kid[i]; c >= 0 {
			v.dop[i] = v.dop[c].Union(v.dop[c+1])
			continue
		}
		d := bv.Empty(k)
		for _, tr := range v.tris[^v.kid[i]:v.end[i]] {
			d = d.Union(bv.FitTriangles(k, t.mesh.Triangle(int(tr))))
		}
		v.dop[i] = d
	}
	for _, p := range t.mesh.Verts {
		v.mag = max(v.mag, math.Abs(p.X), math.Abs(p.Y), math.Abs(p.Z))
	}
	v.bc, v.br = ballOf(&v.dop[0])
	// Tumbling points per node, computed in parallel.
	per := make([][]geom.Vec3, m)
	parallelFor(m, func(lo, hi int) {
		var ids []int32
		for i := lo; i < hi; i++ {
			per[i] = v.tumblePoints(t, i, ids[:0])
		}
	})
	v.voff = make([]int32, m+1)
	for i, p := range per {
		v.voff[i+1] = v.voff[i] + int32(len(p))
	}
	v.pts = make([]geom.Vec3, 0, v.voff[m])
	for _, p := range per {
		v.pts = append(v.pts, p...)
		for _, q := range p {
			v.mag = max(v.mag, math.Abs(q.X), math.Abs(q.Y), math.Abs(q.Z))
		}
	}
	return v
}

// ballOf returns a ball around the box of d (bv.DOP.Box: its first three
// slabs x, y and z, or the box derived from its diagonals): its centre c
// and a radius r such that every point of the box is within r of c
// exactly. Each half-extent is at least the rounded
// differences from c to the box's faces, stepped up by one ulp (each of
// which is at least the exact difference, as in boxOf); the square root of
// the sum of their squares is within 3 ulps of the exact length, which the
// factor 1 + 2⁻⁵⁰ covers.
func ballOf(d *bv.DOP) (c geom.Vec3, r float64) {
	var h [3]float64
	up := func(x float64) float64 { return math.Nextafter(x, math.Inf(1)) }
	var cs [3]float64
	b := d.Box()
	blo, bhi := [3]float64{b.Min.X, b.Min.Y, b.Min.Z}, [3]float64{b.Max.X, b.Max.Y, b.Max.Z}
	for k := range 3 {
		lo, hi := blo[k], bhi[k]
		cs[k] = lo/2 + hi/2
		h[k] = up(max(hi-cs[k], cs[k]-lo))
	}
	return geom.Vec3{X: cs[0], Y: cs[1], Z: cs[2]}, math.Sqrt(h[0]*h[0]+h[1]*h[1]+h[2]*h[2]) * (1 + 0x1p-50)
}

// subtreeTris appends the triangles of the subtree at tree node i.
func (t *Tree) subtreeTris(i int, dst []int32) []int32 {
	if r := t.impl.ref(i); r >= 0 {
		dst = t.subtreeTris(i+1, dst)
		return t.subtreeTris(i+int(r), dst)
	} else {
		return t.leafTris(^r, dst)
	}
}

// tumblePoints returns points whose convex hull contains view node i: the
// distinct mesh vertices of its triangles when they are fewer, else the
// vertices of its k-DOP.
func (v *flyView) tumblePoints(t *Tree, i int, ids []int32) []geom.Vec3 {
	maxv := bv.MaxVertices(v.k)
	var pts []geom.Vec3
	if c := v.kid[i]; c < 0 && 3*int(v.end[i]-^c) <= 2*maxv {
		for _, tr := range v.tris[^c:v.end[i]] {
			ids = append(ids, t.mesh.Tris[tr][:]...)
		}
		for j, id := range ids {
			if !slices.Contains(ids[:j], id) {
				pts = append(pts, t.mesh.Verts[id])
			}
		}
		if len(pts) <= maxv/2 {
			return pts
		}
	}
	// The vertices are within 2^-40·(M + S) of the exact ones; the query
	// pads for that (see collide).
	corners := v.dop[i].Vertices(nil)
	if pts != nil && len(pts) <= len(corners) {
		return pts
	}
	return corners
}

// bytes returns the memory held by v.
func (v *flyView) bytes() int64 {
	return int64(len(v.dop))*int64(unsafe.Sizeof(bv.DOP{})) + 4*int64(len(v.kid)+len(v.end)+len(v.tris)+len(v.voff)) +
		24*int64(len(v.pts))
}

// convexHull returns the convex hull of the tree's mesh vertices, built on
// first use.
func (v *flyView) convexHull(t *Tree) *hull.Hull {
	v.hullOnce.Do(func() { v.hull = hull.New(t.mesh.Verts) })
	return v.hull
}

// bound sets lo and hi to the k-DOP of the points p transformed by x ↦ R·x +
// t. The transform may round differently from geom.Pose.Apply (it may fuse
// multiply-adds); the caller pads by a bound on the difference.
func bound(k bv.K, pts []geom.Vec3, r *geom.Mat3, t geom.Vec3, lo, hi *[bv.MaxSlabs]float64) {
	inf := math.Inf(1)
	for i := range lo {
		lo[i], hi[i] = inf, -inf
	}
	switch k {
	case bv.K6:
		bound6(pts, r, t, lo, hi)
	case bv.K14:
		bound14(pts, r, t, lo, hi)
	case bv.K18:
		bound18(pts, r, t, lo, hi)
	case bv.K8:
		bound8(pts, r, t, lo, hi)
	case bv.K12:
		bound12(pts, r, t, lo, hi)
	case bv.K20:
		bound20(pts, r, t, lo, hi)
	default:
		bound26(pts, r, t, lo, hi)
	}
}

func bound8(pts []geom.Vec3, r *geom.Mat3, t geom.Vec3, lo, hi *[bv.MaxSlabs]float64) {
	r0, r1, r2 := r[0], r[1], r[2]
	var l, h [4]float64
	for n, p := range pts {
		x := r0[0]*p.X + r0[1]*p.Y + r0[2]*p.Z + t.X
		y := r1[0]*p.X + r1[1]*p.Y + r1[2]*p.Z + t.Y
		z := r2[0]*p.X + r2[1]*p.Y + r2[2]*p.Z + t.Z
		s, d := x+y, x-y
		v := [4]float64{s + z, d + z, s - z, d - z}
		if n == 0 {
			l, h = v, v
			continue
		}
		for j := range v {
			l[j] = min(l[j], v[j])
			h[j] = max(h[j], v[j])
		}
	}
	if len(pts) > 0 {
		copy(lo[:], l[:])
		copy(hi[:], h[:])
	}
}

func bound12(pts []geom.Vec3, r *geom.Mat3, t geom.Vec3, lo, hi *[bv.MaxSlabs]float64) {
	r0, r1, r2 := r[0], r[1], r[2]
	var l, h [6]float64
	for n, p := range pts {
		x := r0[0]*p.X + r0[1]*p.Y + r0[2]*p.Z + t.X
		y := r1[0]*p.X + r1[1]*p.Y + r1[2]*p.Z + t.Y
		z := r2[0]*p.X + r2[1]*p.Y + r2[2]*p.Z + t.Z
		v := [6]float64{x + y, x + z, y + z, x - y, x - z, y - z}
		if n == 0 {
			l, h = v, v
			continue
		}
		for j := range v {
			l[j] = min(l[j], v[j])
			h[j] = max(h[j], v[j])
		}
	}
	if len(pts) > 0 {
		copy(lo[:], l[:])
		copy(hi[:], h[:])
	}
}

func bound20(pts []geom.Vec3, r *geom.Mat3, t geom.Vec3, lo, hi *[bv.MaxSlabs]float64) {
	r0, r1, r2 := r[0], r[1], r[2]
	var l, h [10]float64
	for n, p := range pts {
		x := r0[0]*p.X + r0[1]*p.Y + r0[2]*p.Z + t.X
		y := r1[0]*p.X + r1[1]*p.Y + r1[2]*p.Z + t.Y
		z := r2[0]*p.X + r2[1]*p.Y + r2[2]*p.Z + t.Z
		s, d := x+y, x-y
		v := [10]float64{s + z, d + z, s - z, d - z, s, x + z, y + z, d, x - z, y - z}
		if n == 0 {
			l, h = v, v
			continue
		}
		for j := range v {
			l[j] = min(l[j], v[j])
			h[j] = max(h[j], v[j])
		}
	}
	if len(pts) > 0 {
		copy(lo[:], l[:])
		copy(hi[:], h[:])
	}
}

func bound6(pts []geom.Vec3, r *geom.Mat3, t geom.Vec3, lo, hi *[bv.MaxSlabs]float64) {
	r0, r1, r2 := r[0], r[1], r[2]
	var l, h [3]float64
	for n, p := range pts {
		v := [3]float64{
			r0[0]*p.X + r0[1]*p.Y + r0[2]*p.Z + t.X,
			r1[0]*p.X + r1[1]*p.Y + r1[2]*p.Z + t.Y,
			r2[0]*p.X + r2[1]*p.Y + r2[2]*p.Z + t.Z,
		}
		if n == 0 {
			l, h = v, v
			continue
		}
		for j := range v {
			l[j] = min(l[j], v[j])
			h[j] = max(h[j], v[j])
		}
	}
	if len(pts) > 0 {
		copy(lo[:], l[:])
		copy(hi[:], h[:])
	}
}

func bound14(pts []geom.Vec3, r *geom.Mat3, t geom.Vec3, lo, hi *[bv.MaxSlabs]float64) {
	r0, r1, r2 := r[0], r[1], r[2]
	var l, h [7]float64
	for n, p := range pts {
		x := r0[0]*p.X + r0[1]*p.Y + r0[2]*p.Z + t.X
		y := r1[0]*p.X + r1[1]*p.Y + r1[2]*p.Z + t.Y
		z := r2[0]*p.X + r2[1]*p.Y + r2[2]*p.Z + t.Z
		s, d := x+y, x-y
		v := [7]float64{x, y, z, s + z, d + z, s - z, d - z}
		if n == 0 {
			l, h = v, v
			continue
		}
		for j := range v {
			l[j] = min(l[j], v[j])
			h[j] = max(h[j], v[j])
		}
	}
	if len(pts) > 0 {
		copy(lo[:], l[:])
		copy(hi[:], h[:])
	}
}

func bound18(pts []geom.Vec3, r *geom.Mat3, t geom.Vec3, lo, hi *[bv.MaxSlabs]float64) {
	r0, r1, r2 := r[0], r[1], r[2]
	var l, h [9]float64
	for n, p := range pts {
		x := r0[0]*p.X + r0[1]*p.Y + r0[2]*p.Z + t.X
		y := r1[0]*p.X + r1[1]*p.Y + r1[2]*p.Z + t.Y
		z := r2[0]*p.X + r2[1]*p.Y + r2[2]*p.Z + t.Z
		v := [9]float64{x, y, z, x + y, x + z, y + z, x - y, x - z, y - z}
		if n == 0 {
			l, h = v, v
			continue
		}
		for j := range v {
			l[j] = min(l[j], v[j])
			h[j] = max(h[j], v[j])
		}
	}
	if len(pts) > 0 {
		copy(lo[:], l[:])
		copy(hi[:], h[:])
	}
}

func bound26(pts []geom.Vec3, r *geom.Mat3, t geom.Vec3, lo, hi *[bv.MaxSlabs]float64) {
	r0, r1, r2 := r[0], r[1], r[2]
	var l, h [13]float64
	for n, p := range pts {
		x := r0[0]*p.X + r0[1]*p.Y + r0[2]*p.Z + t.X
		y := r1[0]*p.X + r1[1]*p.Y + r1[2]*p.Z + t.Y
		z := r2[0]*p.X + r2[1]*p.Y + r2[2]*p.Z + t.Z
		s, d := x+y, x-y
		v := [13]float64{x, y, z, s + z, d + z, s - z, d - z, s, x + z, y + z, d, x - z, y - z}
		if n == 0 {
			l, h = v, v
			continue
		}
		for j := range v {
			l[j] = min(l[j], v[j])
			h[j] = max(h[j], v[j])
		}
	}
	if len(pts) > 0 {
		copy(lo[:], l[:])
		copy(hi[:], h[:])
	}
}
