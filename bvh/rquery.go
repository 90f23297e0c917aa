package bvh

import (
	"math"

	"github.com/collide3d/collide/bv"
	"github.com/collide3d/collide/geom"
)

// rscratch is the per-query state of queries on rigid trees and box-trees.
type rscratch struct {
	cur   uint32
	stamp []uint32    // query stamp of the flying node's moved volume
	wc    []geom.Vec3 // moved centre of each flying node
	wax   []geom.Mat3 // moved axes of each flying OBB, as rows
	vertexCache
	stack []uint64
	ft    []int32 // triangles of a flying leaf
	seen  map[Pair]struct{}
}

// begin prepares s for a query with a flying tree of n nodes over nv
// vertices.
func (s *rscratch) begin(n, nv int, obb bool) {
	if len(s.stamp) < n {
		s.stamp = make([]uint32, n)
		s.wc = make([]geom.Vec3, n)
	}
	if obb && len(s.wax) < n {
		s.wax = make([]geom.Mat3, n)
	}
	s.cur++
	if s.cur == 0 {
		clear(s.stamp)
		s.cur = 1
	}
	s.vertexCache.begin(nv, s.cur == 1)
	s.stack = s.stack[:0]
}

// rquery is one query between two rigid trees of the same kind.
type rquery struct {
	tester
	et, ft *rigid
	r      geom.Mat3 // the pose's rotation
	absR   geom.Mat3 // |r|
	sc     *rscratch
	// pad is added to the sums of radii in every volume test: the
	// tolerance and a bound on the rounding errors (see padding).
	pad float64
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

func collideRigid(env, fly *Tree, pose geom.Pose, o QueryOptions, s *Scratch, fn func(Pair) bool) Stats {
	et, ft := env.impl.(*rigid), fly.impl.(*rigid)
	if et.len() == 0 || ft.len() == 0 {
		return Stats{}
	}
	if s.rig == nil {
		s.rig = &rscratch{}
	}
	sc := s.rig
	sc.begin(ft.len(), len(fly.mesh.Verts), ft.kind == OBB)
	q := rquery{
		tester: newTester(env, fly, pose, o, fn, &sc.vertexCache, sc.cur),
		et:     et, ft: ft, r: pose.R, absR: absMat(pose.R), sc: sc,
		pad: padding(pose, o.Eps, et.mag, ft.mag),
	}
	q.descend()
	return q.st
}

// move computes the volume of flying node f at the pose, unless done.
func (q *rquery) move(f int32) {
	sc := q.sc
	if sc.stamp[f] == sc.cur {
		return
	}
	sc.stamp[f] = sc.cur
	q.st.Updates++
	var c geom.Vec3
	switch q.ft.kind {
	case OBB:
		b := &q.ft.obbs[f]
		c = b.C
		for j := range 3 {
			a := q.r.MulVec(b.Axes.Row(j))
			sc.wax[f][j] = [3]float64{a.X, a.Y, a.Z}
		}
	case Sphere:
		c = q.ft.sphs[f].C
	default:
		c = q.ft.boxes[f].C
	}
	sc.wc[f] = q.pose.Apply(c)
}

// disjoint reports whether the volumes of environment node e and flying
// node f (moved) are separated.
func (q *rquery) disjoint(e, f int32) bool {
	q.move(f)
	c := q.sc.wc[f]
	switch q.et.kind {
	case OBB:
		a, b := &q.et.obbs[e], &q.ft.obbs[f]
		wax := &q.sc.wax[f]
		d := c.Sub(a.C)
		var r, absR geom.Mat3
		var t geom.Vec3
		for i := range 3 {
			ai := a.Axes.Row(i)
			for j := range 3 {
				x := ai.X*wax[j][0] + ai.Y*wax[j][1] + ai.Z*wax[j][2]
				r[i][j], absR[i][j] = x, math.Abs(x)
			}
		}
		t = a.Axes.MulVec(d)
		return bv.OBBDisjoint(a.Half, b.Half, &r, &absR, t, q.pad)
	case Sphere:
		a, b := &q.et.sphs[e], &q.ft.sphs[f]
		d := c.Sub(a.C)
		rr := a.R + b.R + q.pad
		return d.Dot(d) > rr*rr
	}
	a, b := &q.et.boxes[e], &q.ft.boxes[f]
	return bv.OBBDisjoint(a.H, b.H, &q.r, &q.absR, c.Sub(a.C), q.pad)
}

// descend traverses both trees together, depth first, descending the
// larger of two volumes that overlap (the smaller if the larger is a leaf).
func (q *rquery) descend() {
	sc := q.sc
	stack := append(sc.stack[:0], 0)
	erefs, frefs := q.et.refs, q.ft.refs
	for len(stack) > 0 && !q.stop {
		top := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		f, e := int32(top>>32), int32(uint32(top))
		q.st.BVTests++
		if q.disjoint(e, f) {
			continue
		}
		er, fr := erefs[e], frefs[f]
		switch {
		case er < 0 && fr < 0:
			q.leaves(e, f)
		case fr < 0 || er >= 0 && q.et.size(e) >= q.ft.size(f):
			stack = append(stack, uint64(f)<<32|uint64(uint32(e+er)), uint64(f)<<32|uint64(uint32(e+1)))
		default:
			stack = append(stack, uint64(f+fr)<<32|uint64(uint32(e)), uint64(f+1)<<32|uint64(uint32(e)))
		}
	}
	sc.stack = stack
}

// leaves tests the triangles of environment leaf e against those of flying
// leaf f.
func (q *rquery) leaves(e, f int32) {
	q.sc.ft = leafList(q.ft.order, q.ft.refs[f], q.sc.ft[:0])
	q.leaf(q.et.order, q.et.refs[e], q.sc.ft)
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
