package bvh

import (
	"math"

	"github.com/collide3d/collide/geom"
)

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
	walk walk[noFrame]
	ft   []int32 // triangles of a flying leaf
}

// begin prepares s for a query with a flying tree of n nodes over nv
// vertices, whose volumes have axes if axes is set.
func (s *moveScratch) begin(n, nv int, axes bool) {
	if len(s.stamp) < n {
		s.stamp = make([]uint32, n)
		s.wc = make([]geom.Vec3, n)
		s.walk.restarted = make([]uint32, n)
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
	s.walk.cur = s.cur
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
	// tolerance and a bound on the rounding errors (see padding).
	pad float64
}

// newMoveQuery prepares the query of fly at pose against env, both of kind
// V, in s's scratch for the kind; axes says whether the kind moves axes.
func newMoveQuery[V any](env, fly *Tree, pose geom.Pose, o QueryOptions, s *Scratch, fn func(Pair) bool, axes bool) moveQuery[V] {
	if s.move == nil {
		s.move = &moveScratch{}
	}
	sc := s.move
	et, ft := env.impl.(*vtree[V]), fly.impl.(*vtree[V])
	sc.begin(ft.len(), len(fly.mesh.Verts), axes)
	sc.walk.restart = o.Restart
	sc.walk.stack = append(sc.walk.stack[:0], item[noFrame]{})
	return moveQuery[V]{
		tester: newTester(env, fly, pose, o, fn, &sc.vertexCache, sc.cur),
		et:     et, ft: ft, r: pose.R, absR: absMat(pose.R), sc: sc,
		pad: padding(pose, o.Eps, et.mag, ft.mag),
	}
}

// vtreeProbes returns what the cost probes of a vtree t test: nearby nodes
// of t against those of t itself moved by costPose (moved beforehand: that
// is Cu, which moves every node in turn).
func vtreeProbes(t *Tree) probes[noFrame] {
	n := t.impl.len()
	ia, ib := probePairs(n, n)
	all := make([]int32, n)
	for i := range all {
		all[i] = int32(i)
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

func (q *moveQuery[V]) eref(e int32) int32 { return q.et.refs[e] }
func (q *moveQuery[V]) fkids(f int32) (l, r int32) {
	if r := q.ft.refs[f]; r >= 0 {
		return f + 1, f + r
	}
	return -1, -1
}
func (q *moveQuery[V]) esplit(int32, *noFrame, *noFrame) {}
func (q *moveQuery[V]) fsplit(int32, *noFrame, *noFrame) {}
func (q *moveQuery[V]) eroot(*noFrame)                   {}
func (q *moveQuery[V]) base() *tester                    { return &q.tester }
func (q *moveQuery[V]) state() *walk[noFrame]            { return &q.sc.walk }

// leaves tests the triangles of environment leaf e against those of flying
// leaf f.
func (q *moveQuery[V]) leaves(e, f int32) {
	q.sc.ft = leafList(q.ft.order, q.ft.refs[f], q.sc.ft[:0])
	q.leaf(q.et.order, q.et.refs[e], q.sc.ft)
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
// only those Build makes: verify_kinds.go bounds the rounding again for
// every volume within those checks (centres within twice the coordinates,
// OBB axes orthonormal to within 16 ulps), within the same padding.
func padding(pose geom.Pose, eps, emag, fmag float64) float64 {
	t := pose.T
	m := emag + 2*fmag + max(math.Abs(t.X), math.Abs(t.Y), math.Abs(t.Z))
	p := pose.R.Transpose().Mul(pose.R)
	d := 0.0
	for i := range 3 {
		for j := range 3 {
			if i == j {
				p[i][j]--
			}
			d = max(d, math.Abs(p[i][j]))
		}
	}
	return eps*(1+0x1p-50) + (0x1p-42+32*d)*m
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
