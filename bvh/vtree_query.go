package bvh

import (
	"math"

	"github.com/collide3d/collide/bv"
	"github.com/collide3d/collide/geom"
)

// This file is the query of the moved-volume kinds (OBB, sphere, AABB,
// RSS), the part they share: moveQuery, which each kind's query embeds,
// adding its volume tests and separation (kind_*.go); the leaves' tests
// and separations against a volume's box; the padding of the tests.

// moveScratch is the per-query state of queries on vtrees: the flying
// nodes' moved centres (and axes, for the kinds that have them), stamped
// with the query that moved them, the flying vertices at the pose and the
// walk.
type moveScratch struct {
	cur   uint32
	stamp []uint32    // query stamp of the flying node's moved volume
	wc    []geom.Vec3 // moved centre of each flying node
	wax   []geom.Mat3 // moved axes of each flying node, as rows
	vertexCache
	// env holds the environment's vertices in the flying model's
	// coordinates (envVert), for the tests of environment leaves.
	env  vertexCache
	walk walk[noFrame]
	ft   []int32 // triangles of a flying leaf
	et   []int32 // triangles of an environment leaf
	// lastE is the environment triangle last mapped into the flying
	// model's coordinates by this query (-1: none), lastX its image.
	lastE int32
	lastX geom.Triangle
	// axE and axF are the environment triangle (in the flying model's
	// coordinates) and the flying triangle (at the pose) last prepared for
	// tests against boxes aligned with their coordinates (-1: none), ea and
	// fa the prepared triangles.
	axE, axF int32
	ea, fa   bv.TriAxes

	// wide is the stack of the wide walk (wide.go).
	wide []wideItem
}

// begin prepares s for a query with a flying tree of n internal nodes
// (ids node numbers, see vtree) over nv vertices, whose volumes have axes
// if axes is set, against an environment of env vertices.
func (s *moveScratch) begin(n, ids, nv, env int, axes bool) {
	if len(s.stamp) < n {
		s.stamp = make([]uint32, n)
		s.wc = make([]geom.Vec3, n)
	}
	if len(s.walk.restarted) < ids {
		s.walk.restarted = make([]uint32, ids)
	}
	if axes && len(s.wax) < n {
		s.wax = make([]geom.Mat3, n)
	}
	s.cur++
	if s.cur == 0 {
		clear(s.stamp)
		clear(s.walk.restarted)
		s.cur = 1
	}
	s.vertexCache.begin(nv, s.cur == 1)
	s.env.begin(env, s.cur == 1)
	s.walk.cur = s.cur
	s.lastE, s.axE, s.axF = -1, -1, -1
}

// moveQuery is what the queries on vtrees share: the trees, the pose and
// its padding, the scratch. Each kind's query embeds it and adds its
// volume test.
type moveQuery[V any] struct {
	tester
	et, ft *vtree[V]
	r      geom.Mat3 // the pose's rotation
	absR   geom.Mat3 // |r|
	sc     *moveScratch
	// pad is added to the sums of radii in every volume test: the
	// tolerance and a bound on the rounding errors (see padding). tpad is
	// the padding of the triangle-volume tests (bv.TriBoxDisjoint's pad,
	// see init).
	pad, tpad float64
	// rt and tt map environment coordinates into the flying model's:
	// x = rt·v - tt, with rt = Rᵀ and tt = Rᵀ·T.
	rt geom.Mat3
	tt geom.Vec3
}

// newMoveQuery prepares the query of fly at pose against env, both of kind
// V, in s's scratch for the kind; axes says whether the kind moves axes.
func newMoveQuery[V any](env, fly *Tree, pose geom.Pose, o request, s *Scratch, fn func(Pair) bool, axes bool) moveQuery[V] {
	var q moveQuery[V]
	q.init(env, fly, &pose, &o, s, axes)
	q.fn = fn
	return q
}

// init is newMoveQuery in place, for the queries' hot path, but for the
// callback, which the caller sets (see tester.init): the query is large (a
// tester, three matrices), and a query with nothing near spent more time
// in copying it than in testing the roots.
func (q *moveQuery[V]) init(env, fly *Tree, pose *geom.Pose, o *request, s *Scratch, axes bool) {
	if s.move == nil {
		s.move = &moveScratch{}
	}
	sc := s.move
	et, ft := env.impl.(*vtree[V]), fly.impl.(*vtree[V])
	sc.begin(len(ft.nodes), ft.ids(), len(fly.mesh.Verts), len(env.mesh.Verts), axes)
	sc.walk.setup(o, env, fly, 0, pose, item[noFrame]{})
	r := roundPad(pose, et.mag, ft.mag)
	tol := o.Eps * (1 + 0x1p-50)
	q.tester.init(env, fly, pose, o, &sc.vertexCache, sc.cur)
	q.et, q.ft, q.sc = et, ft, sc
	q.r, q.absR = pose.R, absMat(pose.R)
	// tpad is the padding of the triangle-volume tests of a query with
	// tolerance eps: the proof of bv.TriBoxDisjoint lets the triangle's image
	// and the box each be off by up to its pad, and gives its pad of
	// tolerance and its pad for its own rounding. The images and boxes are off
	// by rounding only (roundPad bounds it), and the tolerance is
	// needed once: tpad = eps·(1 + 2⁻⁵⁰) + 4·roundPad. (It was
	// 4·padding(pose, eps, ...): a tolerance query then reached triangles up
	// to 4·eps away through these tests, which made OBB, AABB, sphere and RSS
	// trees search four times as far as their volume tests for a large eps.)
	q.pad, q.tpad = tol+r, tol+4*r
	q.rt = pose.R.Transpose()
	q.tt = q.rt.MulVec(pose.T)
}

// vtreeProbes returns what the cost probes of a vtree t test: nearby
// internal nodes of t (leaves have no volumes) against those of t itself
// moved by costPose (moved beforehand: that is Cu, which moves every
// internal node in turn).
func vtreeProbes[V any](t *Tree) probes[noFrame] {
	n := len(t.impl.(*vtree[V]).nodes)
	all := make([]int32, n)
	for i := range all {
		all[i] = int32(i)
	}
	ia, ib := probePairs(max(n, 65), max(n, 65))
	for j := range ia {
		ia[j], ib[j] = ia[j]%int32(n), ib[j]%int32(n)
	}
	return probes[noFrame]{ia: ia, ib: ib, xs: make([]noFrame, len(ia)), all: all, fs: all}
}

// moveAxes moves flying node f's centre c and axes (rows) by the pose.
func (q *moveQuery[V]) moveAxes(f int32, c geom.Vec3, axes *geom.Mat3) {
	wax := &q.sc.wax[f]
	for j := range 3 {
		a := q.r.MulVec(axes.Row(j))
		wax[j] = [3]float64{a.X, a.Y, a.Z}
	}
	q.sc.wc[f] = q.pose.Apply(c)
}

// stale reports whether flying node f has not been moved for this query
// yet, and marks and counts it as moved (the walk moves it next).
func (q *moveQuery[V]) stale(f int32) bool {
	sc := q.sc
	if sc.stamp[f] == sc.cur {
		return false
	}
	sc.stamp[f] = sc.cur
	q.st.Updates++
	return true
}

// The operations of the traversal that the kinds of vtree share (see
// pairOps): both trees are laid out depth first, and the larger volume is
// descended first, as RAPID does.

func (q *moveQuery[V]) eref(e int32) int32 {
	if uint32(e) < uint32(len(q.et.nodes)) {
		return 0
	}
	return -1
}
func (q *moveQuery[V]) ekids(e, _ int32) (l, r int32)    { return q.et.kids(e) }
func (q *moveQuery[V]) fkids(f int32) (l, r int32)       { return q.ft.kids(f) }
func (q *moveQuery[V]) esplit(int32, *noFrame, *noFrame) {}
func (q *moveQuery[V]) fsplit(int32, *noFrame, *noFrame) {}
func (q *moveQuery[V]) eroot(*noFrame)                   {}
func (q *moveQuery[V]) base() *tester                    { return &q.tester }
func (q *moveQuery[V]) state() *walk[noFrame]            { return &q.sc.walk }

// The kinds of vtree test the triangles of leaves directly against the
// other tree's volumes (see pairOps.leafTests): the traversal then neither
// tests a leaf's volume nor moves a flying leaf's.
func (q *moveQuery[V]) leafTests() bool { return true }

// flyTris returns the triangles of flying leaf f.
func (q *moveQuery[V]) flyTris(f int32) []int32 {
	q.sc.ft = leafList(q.ft.order, q.ft.leafRef(f), q.sc.ft[:0])
	return q.sc.ft
}

// envTris returns the triangles of environment leaf e.
func (q *moveQuery[V]) envTris(e int32) []int32 {
	q.sc.et = leafList(q.et.order, q.et.leafRef(e), q.sc.et[:0])
	return q.sc.et
}

// envVert returns environment vertex x in the flying model's coordinates:
// Rᵀ·v - Rᵀ·T, the inverse of the pose up to rounding and to R's departure
// from a rotation, both within the padding (see padding). Each vertex is
// mapped once per query.
func (q *moveQuery[V]) envVert(x int32) geom.Vec3 {
	c := &q.sc.env
	if c.tvAt[x] != q.sc.cur {
		c.tv[x] = q.rt.MulVec(q.emesh.Verts[x]).Sub(q.tt)
		c.tvAt[x] = q.sc.cur
	}
	return c.tv[x]
}

// envInFly returns environment triangle t in the flying model's
// coordinates (envVert). The last one is kept: a walk tests an environment
// leaf against a run of flying nodes.
func (q *moveQuery[V]) envInFly(t int32) *geom.Triangle {
	sc := q.sc
	if sc.lastE != t {
		sc.lastE = t
		ix := q.emesh.Tris[t]
		sc.lastX = geom.Triangle{q.envVert(ix[0]), q.envVert(ix[1]), q.envVert(ix[2])}
	}
	return &sc.lastX
}

// envAxes returns environment triangle t in the flying model's
// coordinates (envInFly), prepared for tests against the flying model's
// axis-aligned boxes. The last one prepared is kept.
func (q *moveQuery[V]) envAxes(t int32) *bv.TriAxes {
	sc := q.sc
	if sc.axE != t {
		sc.axE = t
		ix := q.emesh.Tris[t]
		sc.ea.Reset(q.envVert(ix[0]), q.envVert(ix[1]), q.envVert(ix[2]), q.tpad)
	}
	return &sc.ea
}

// flyAxes returns flying triangle t at the pose, prepared for tests against
// the environment's axis-aligned boxes. The last one prepared is kept.
func (q *moveQuery[V]) flyAxes(t int32) *bv.TriAxes {
	sc := q.sc
	if sc.axF != t {
		sc.axF = t
		x := q.flyTriangle(t)
		sc.fa.Reset(x[0], x[1], x[2], q.tpad)
	}
	return &sc.fa
}

// leaves tests the triangles of environment leaf e against those of flying
// leaf f.
func (q *moveQuery[V]) leaves(e, f int32) {
	q.sc.ft = leafList(q.ft.order, q.ft.leafRef(f), q.sc.ft[:0])
	q.leaf(q.et.order, q.et.leafRef(e), q.sc.ft)
}

// padding returns what volume tests under pose add to their radii for
// tolerance eps, between trees whose coordinates are at most emag and fmag
// in magnitude. Every volume contains its triangles exactly; what the
// tests compute is off by rounding. With u = 2^-53 and M = emag + 2·fmag +
// |t|∞ (a rotated coordinate is at most √3·fmag): the flying triangles are
// moved by Pose.Apply within 12u·M of their exact images, and the moved
// centres within 21u·M; the moved axes, the relative rotation r and the
// axes' departure from orthonormality put each r_ij within 10u of its
// exact value, which moves the test's products of extents (at most M) and
// of the translation (at most 6M) by at most 60u·M per test, the
// translation itself being within 30u·M; and the sums of up to seven
// terms round by at most 72u·M. The total, below 300u·M, is padded by
// 2^-42·M = 2048u·M. The tolerance is added as it is (a box grown by eps
// projects on a unit axis to radius + eps, and on the unnormalised
// edge-edge axes of the separating-axis test, shorter than 1, to less).
//
// The tests take the pose's rotation R to be orthonormal (the
// separating-axis test's edge axes use the identities of a rotation), and
// poses are accepted with R off by up to 10^-6 (geom.Pose.Validate). R is
// then Q·S with Q a rotation and S = sqrt(RᵀR) within d of the identity, d
// the largest |RᵀR - I| entry: the flying model moved by R is within 3d·M
// of it moved by Q, and the test's terms computed from R are within 10d·M
// of those from Q; 32d·M more covers both.
//
// The padding scales with the coordinates' magnitude: models far from the
// origin for their size lose culling (at 10^6 from it, 2^-42·M is about
// 10^-6), never pairs.
//
// Trees that Read loads may hold any volumes that pass its checks, not
// only those Build makes: vtree_check.go bounds the rounding again for
// every volume within those checks (centres within twice the coordinates,
// OBB axes orthonormal to within 16 ulps), within the same padding.
func padding(pose geom.Pose, eps, emag, fmag float64) float64 {
	return eps*(1+0x1p-50) + roundPad(&pose, emag, fmag)
}

// roundPad is padding's part for the rounding, without the tolerance:
// (2⁻⁴² + 32d)·M (d = orthoDev(R)).
func roundPad(pose *geom.Pose, emag, fmag float64) float64 {
	t := pose.T
	m := emag + 2*fmag + max(math.Abs(t.X), math.Abs(t.Y), math.Abs(t.Z))
	return (0x1p-42 + 32*orthoDev(&pose.R)) * m
}

// orthoDev returns d, the largest |RᵀR − I| entry, from the six dot
// products of R's columns (RᵀR is symmetric).
func orthoDev(r *geom.Mat3) float64 {
	c0, c1, c2 := r.Col(0), r.Col(1), r.Col(2)
	return max(math.Abs(c0.Dot(c0)-1), math.Abs(c1.Dot(c1)-1), math.Abs(c2.Dot(c2)-1),
		math.Abs(c0.Dot(c1)), math.Abs(c0.Dot(c2)), math.Abs(c1.Dot(c2)))
}

// leafList appends the triangles of the leaf whose ref is ref, in a tree
// whose leaf triangle list is order (nil for one triangle per leaf).
func leafList(order []int32, ref int32, dst []int32) []int32 {
	x := ^ref
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

// The leaf helpers of the volume trees. Each measures triangles against a
// box on its three face axes, as the first test of bv.TriBoxDisjoint (or
// bv.TriAxes.BoxDisjoint) does, with the query's triangle padding tpad =
// eps·(1 + 2⁻⁵⁰) + 4·r, r the rounding part of pad (roundPad, see init): the proof of
// that test lets the triangle's image and the box each be off by up to r,
// gives eps of tolerance and r for its own rounding. The images the query
// makes (environment triangles mapped into the flying model's coordinates,
// triangles mapped into a box's frame) are within R ≤ r of the exact ones,
// and the boxes are exact (an OBB's or RSS's points satisfy the slab
// conditions of their stored axes, a sphere lies in its cube): a
// face-axis separation s = fl(extent − fl(h + tpad)) > 0 certifies an
// exact gap above s(1 − u) + tpad − 2R − u(h + tpad) > eps + s(1 − u)
// (u·h ≤ r and u·tpad ≤ eps·2⁻⁵⁰ + r), so g = s·(1 − 2⁻⁴⁸) as above. A
// face-axis separation is one of the test's, so g > 0 only when the test
// (envLeaf, flyLeaf) says disjoint.

// envFrameSep measures the triangles of environment leaf e, in the flying
// model's coordinates, against the box of half-extents h about c along
// axes (rows), as triFrameDisjoint tests them.
func (q *moveQuery[V]) envFrameSep(e int32, c geom.Vec3, axes *geom.Mat3, h geom.Vec3) float64 {
	g := math.Inf(1)
	for _, t := range q.envTris(e) {
		x := q.envInFly(t)
		s := bv.TriBoxFaceSeparation(axes.MulVec(x[0].Sub(c)), axes.MulVec(x[1].Sub(c)), axes.MulVec(x[2].Sub(c)), h, q.tpad)
		if !(s < g) {
			continue
		}
		if g = s; !(g > 0) {
			return 0
		}
	}
	return g * sepScale
}

// flyFrameSep measures the triangles of flying leaf f at the pose against
// the environment's box of half-extents h about c along axes (rows).
func (q *moveQuery[V]) flyFrameSep(f int32, c geom.Vec3, axes *geom.Mat3, h geom.Vec3) float64 {
	g := math.Inf(1)
	for _, t := range q.flyTris(f) {
		x := q.flyTriangle(t)
		s := bv.TriBoxFaceSeparation(axes.MulVec(x[0].Sub(c)), axes.MulVec(x[1].Sub(c)), axes.MulVec(x[2].Sub(c)), h, q.tpad)
		if !(s < g) {
			continue
		}
		if g = s; !(g > 0) {
			return 0
		}
	}
	return g * sepScale
}

// envAxesSep measures the triangles of environment leaf e, in the flying
// model's coordinates, against the axis-aligned box of half-extents h
// about c, as envAxes(t).BoxDisjoint tests them.
func (q *moveQuery[V]) envAxesSep(e int32, c, h geom.Vec3) float64 {
	g := math.Inf(1)
	for _, t := range q.envTris(e) {
		s := q.envAxes(t).FaceSeparation(c, h)
		if !(s < g) {
			continue
		}
		if g = s; !(g > 0) {
			return 0
		}
	}
	return g * sepScale
}

// flyAxesSep measures the triangles of flying leaf f at the pose against
// the environment's axis-aligned box of half-extents h about c.
func (q *moveQuery[V]) flyAxesSep(f int32, c, h geom.Vec3) float64 {
	g := math.Inf(1)
	for _, t := range q.flyTris(f) {
		s := q.flyAxes(t).FaceSeparation(c, h)
		if !(s < g) {
			continue
		}
		if g = s; !(g > 0) {
			return 0
		}
	}
	return g * sepScale
}

// leavesSep bounds the distance between the triangles of environment leaf
// e and those of flying leaf f at the pose by the gap between their
// bounding boxes, both in the environment's coordinates (boxGapSep).
func (q *moveQuery[V]) leavesSep(e, f int32) float64 {
	eb, fb := geom.EmptyAABB(), geom.EmptyAABB()
	for _, t := range q.envTris(e) {
		eb = eb.Union(q.emesh.Triangle(int(t)).Bounds())
	}
	for _, t := range q.flyTris(f) {
		fb = fb.Union(q.flyTriangle(t).Bounds())
	}
	return boxGapSep(&eb, &fb, q.eps)
}

// internal reports whether flying node f is internal (has a volume).
func (q *moveQuery[V]) internal(f int32) bool { return uint32(f) < uint32(len(q.ft.nodes)) }

// deeper compares the squared distances from flying node f's moved centre
// (its volume was moved for the test of the parent pair) to the centres
// of environment nodes a and b: a leaf's centre is the first vertex of its
// first triangle. A flying leaf has no volume: the order is kept. To the
// first contact on the orbit of BenchmarkQueryCPU (1,000 poses, 665 in
// contact), the volume tests went from 95,515 to 76,031 (OBB), 74,343 to
// 59,561 (RSS), 262,141 to 210,558 (AABB, leaf tests 50,707 to 42,010),
// and stayed at 360,000 (spheres); on the scenes of close proximity, where
// most of the work is in the poses with no contact, 4 to 10% fewer.
func (q *moveQuery[V]) deeper(a, b, f int32) bool {
	if !q.internal(f) {
		return false
	}
	w := q.sc.wc[f]
	da, db := w.Sub(q.centre(a)), w.Sub(q.centre(b))
	return da.Dot(da) < db.Dot(db)
}

// centre returns the centre of environment node e's volume, or for a leaf
// the first vertex of its first triangle.
func (q *moveQuery[V]) centre(e int32) geom.Vec3 {
	if uint32(e) < uint32(len(q.et.nodes)) {
		return volCentre(q.et.vol(e))
	}
	t := ^q.et.leafRef(e)
	if o := q.et.order; o != nil {
		if t = o[t]; t < 0 {
			t = ^t
		}
	}
	return q.emesh.Verts[q.emesh.Tris[t][0]]
}

// volCentre returns the centre of a volume of the kinds of vtree (the zero
// vector for others: the toy kind of the tests).
func volCentre[V any](v *V) geom.Vec3 {
	switch v := any(v).(type) {
	case *box:
		return v.C
	case *bv.OBB:
		return v.C
	case *bv.RSS:
		return v.C
	case *bv.Sphere:
		return v.C
	}
	return geom.Vec3{}
}

func (q *moveQuery[V]) tris(e, f int32) (et, ft []int32) { return q.envTris(e), q.flyTris(f) }

func (q *moveQuery[V]) ejoin(_, _, _ *noFrame) {}

func (q *moveQuery[V]) fjoin(_, _, _ *noFrame) {}

// boxArea returns a quarter of the surface of the box of half-extents h.
func boxArea(h geom.Vec3) float64 { return h.X*h.Y + h.Y*h.Z + h.Z*h.X }

// triFrameDisjoint reports whether triangle x and the box of half-extents h
// about c along axes (rows) are disjoint, testing x's image u = axes·(x - c)
// against the box [-h, h]. The points of an OBB (RSS) satisfy the slab
// conditions |axes·(p - c)| ≤ h, stored axes and all: the image of the box
// is exactly [-h, h], the map is linear, so x meets the box only if its
// image does; the image is off by its rounding, within the padding.
func triFrameDisjoint(x *geom.Triangle, c geom.Vec3, axes *geom.Mat3, h geom.Vec3, pad float64) bool {
	return bv.TriBoxDisjoint(axes.MulVec(x[0].Sub(c)), axes.MulVec(x[1].Sub(c)), axes.MulVec(x[2].Sub(c)), h, pad)
}

// The Euclidean bounds of the leaves (lowerBound, see sep.go): each
// helper below is its separation's twin, with each triangle's gaps along
// the box's three face axes combined (gapLower) rather than the largest
// taken, and its gap along the direction from the box's centre to it
// (triDirGap), the larger of the two, the least over the leaf's
// triangles; ≥ the separation.

// envFrameLower is envFrameSep's Euclidean bound.
func (q *moveQuery[V]) envFrameLower(e int32, c geom.Vec3, axes *geom.Mat3, h geom.Vec3) float64 {
	g := math.Inf(1)
	for _, t := range q.envTris(e) {
		x := q.envInFly(t)
		a, b, d := axes.MulVec(x[0].Sub(c)), axes.MulVec(x[1].Sub(c)), axes.MulVec(x[2].Sub(c))
		g = min(g, max(gapLower(triBoxGaps(a, b, d, h, q.tpad)), triDirGap(a, b, d, h, q.tpad)))
		if !(g > 0) {
			return 0
		}
	}
	return g
}

// flyFrameLower is flyFrameSep's Euclidean bound.
func (q *moveQuery[V]) flyFrameLower(f int32, c geom.Vec3, axes *geom.Mat3, h geom.Vec3) float64 {
	g := math.Inf(1)
	for _, t := range q.flyTris(f) {
		x := q.flyTriangle(t)
		a, b, d := axes.MulVec(x[0].Sub(c)), axes.MulVec(x[1].Sub(c)), axes.MulVec(x[2].Sub(c))
		g = min(g, max(gapLower(triBoxGaps(a, b, d, h, q.tpad)), triDirGap(a, b, d, h, q.tpad)))
		if !(g > 0) {
			return 0
		}
	}
	return g
}

// envAxesLower is envAxesSep's Euclidean bound, less rad (≥ 0): with h = 0
// and rad a sphere's radius, the distance from the triangles to the
// sphere about c. The subtraction, rounded, is scaled by 1 − 2⁻⁵⁰ to stay
// below the exact difference.
func (q *moveQuery[V]) envAxesLower(e int32, c, h geom.Vec3, rad float64) float64 {
	g := math.Inf(1)
	for _, t := range q.envTris(e) {
		x := q.envInFly(t)
		g = min(g, max(gapLower(triAxesGaps(x, c, h, q.tpad)), triDirGap(x[0].Sub(c), x[1].Sub(c), x[2].Sub(c), h, q.tpad)))
		if !(g > rad) {
			return 0
		}
	}
	if rad > 0 {
		return (g - rad) * (1 - 0x1p-50)
	}
	return g
}

// flyAxesLower is flyAxesSep's Euclidean bound, less rad as envAxesLower.
func (q *moveQuery[V]) flyAxesLower(f int32, c, h geom.Vec3, rad float64) float64 {
	g := math.Inf(1)
	for _, t := range q.flyTris(f) {
		x := q.flyTriangle(t)
		g = min(g, max(gapLower(triAxesGaps(&x, c, h, q.tpad)), triDirGap(x[0].Sub(c), x[1].Sub(c), x[2].Sub(c), h, q.tpad)))
		if !(g > rad) {
			return 0
		}
	}
	if rad > 0 {
		return (g - rad) * (1 - 0x1p-50)
	}
	return g
}

// leavesLower is leavesSep's Euclidean bound: the distance of the two
// leaves' boxes.
func (q *moveQuery[V]) leavesLower(e, f int32) float64 {
	eb, fb := geom.EmptyAABB(), geom.EmptyAABB()
	for _, t := range q.envTris(e) {
		eb = eb.Union(q.emesh.Triangle(int(t)).Bounds())
	}
	for _, t := range q.flyTris(f) {
		fb = fb.Union(q.flyTriangle(t).Bounds())
	}
	return gapLower(boxGaps(&eb, &fb))
}
