package bvh

import (
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh"
)

// tester runs the exact triangle tests of one query and reports the pairs
// in contact. It holds the query's mode (see mode.go), which run and the
// leaves' tests switch on.
type tester struct {
	mode  mode
	emesh *mesh.TriMesh
	fmesh *mesh.TriMesh
	pose  geom.Pose
	ident bool // pose is the identity
	eps   float64
	all   bool
	fn    func(Pair) bool
	// tv[x] is flying vertex x at the pose if tvAt[x] == cur.
	tv   []geom.Vec3
	tvAt []uint32
	cur  uint32
	// seen, when not nil, holds the pairs reported so far, for trees whose
	// leaves share triangles (box-trees); only pairs with a shared triangle
	// (dup) are looked up.
	seen map[Pair]struct{}
	edup []uint64
	fdup []uint64
	// etw and ftw thread the twins of the environment's and the flying
	// model's triangles (twinList.next; nil without twins).
	etw, ftw []int32
	st       Stats
	stop     bool
	// sweep is modeSweep's continuous query (see toi.go): each pair of
	// triangles the walk's volumes reach is handed to it rather than
	// tested at the pose.
	sweep *sweepState
	// near is modeNear's callback (see Near): each environment triangle
	// the walk's volumes reach is handed to it, with its twins, rather
	// than tested.
	near func(et int32) bool
	// hint, for a first-contact query of modeContact with a PairState, is
	// the pair of triangles the pair's last such query found, tested
	// before the walk, and where report records the pair it finds.
	hint *contactHint
	// prep is the environment triangle triangles tests against a run of
	// flying ones (in the scratch: the tester is made for every query).
	prep *geom.TriPrep
}

// newTester returns the tester of a query of fly at pose against env, with
// the flying vertices cached in vc under the stamp cur.
func newTester(env, fly *Tree, pose geom.Pose, o request, fn func(Pair) bool, vc *vertexCache, cur uint32) tester {
	var t tester
	t.init(env, fly, &pose, &o, vc, cur)
	t.fn = fn
	return t
}

// init is newTester in place, but for the callback, which the caller
// sets (fn stored through a pointer would escape, an allocation per
// query).
func (t *tester) init(env, fly *Tree, pose *geom.Pose, o *request, vc *vertexCache, cur uint32) {
	*t = tester{
		mode:  o.mode,
		emesh: env.mesh, fmesh: fly.mesh, pose: *pose, ident: pose.IsIdentity(),
		eps: o.Eps, all: o.All, tv: vc.tv, tvAt: vc.tvAt, cur: cur, prep: &vc.prep,
		etw: env.twins.next, ftw: fly.twins.next, sweep: o.sweep, near: o.near,
	}
	if o.State != nil && o.mode == modeContact && !o.All {
		t.hint = o.State.hintFor(env, fly)
	}
}

// tryHint tests the pair of triangles of the hint, if any, and reports
// whether it is in contact (reported, and the query stopped): a first
// contact found with one triangle test when the pose has moved little
// since the last one. The pair was in contact at the last query's pose;
// it is tested exactly at this one, as any pair of leaves is.
func (t *tester) tryHint() bool {
	h := t.hint
	if h == nil || !h.ok {
		return false
	}
	ft := [1]int32{h.p.Fly}
	t.triangles(h.p.Env, ft[:])
	return t.stop
}

// absMat returns the matrix of the absolute values of m's entries.
func absMat(m geom.Mat3) geom.Mat3 {
	for i := range 3 {
		for j := range 3 {
			m[i][j] = max(m[i][j], -m[i][j])
		}
	}
	return m
}

// leaf tests the triangles of the environment leaf whose ref is eref, in a
// tree whose leaf triangle list is order (nil for one triangle per leaf),
// against the flying triangles ft.
func (q *tester) leaf(order []int32, eref int32, ft []int32) {
	if order == nil {
		q.triangles(^eref, ft)
		return
	}
	for j := ^eref; !q.stop; j++ {
		t := order[j]
		if t < 0 {
			q.triangles(^t, ft)
			return
		}
		q.triangles(t, ft)
	}
}

// triangles tests environment triangle et against the flying triangles ft.
func (q *tester) triangles(et int32, ft []int32) {
	switch q.mode {
	case modeNear:
		q.st.TriTests++
		for e := et; e >= 0 && !q.stop; e = nextTwin(q.etw, e) {
			q.stop = !q.near(e)
		}
		return
	case modeSweep:
		q.sweepTriangles(et, ft)
		return
	}
	a := q.emesh.Triangle(int(et))
	if q.eps == 0 && len(ft) > 1 {
		// Against a run of flying triangles (a k-DOP's flying leaf), a's
		// box and plane are computed once.
		q.prep.Reset(&a)
		for _, f := range ft {
			if q.stop {
				return
			}
			b := q.flyTriangle(f)
			q.st.TriTests++
			if q.prep.Meets(&b) {
				q.report(Pair{et, f})
			}
		}
		return
	}
	for _, f := range ft {
		if q.stop {
			return
		}
		b := q.flyTriangle(f)
		q.st.TriTests++
		var hit bool
		if q.eps == 0 {
			hit = geom.TriTri(a, b)
		} else {
			hit = geom.TriTriWithin(a, b, q.eps)
		}
		if hit {
			q.report(Pair{et, f})
		}
	}
}

// sweepTriangles hands environment triangle et and each of the flying
// triangles ft to the continuous query's search (modeSweep), out of
// triangles' loop, which the discrete queries run.
func (q *tester) sweepTriangles(et int32, ft []int32) {
	a := q.emesh.Triangle(int(et))
	for _, f := range ft {
		q.st.TriTests++
		q.sweep.pair(et, f, a, q.flyTriangle(f))
	}
}

// report passes p to fn, unless it has been reported already.
func (q *tester) report(p Pair) {
	if h := q.hint; h != nil {
		h.p, h.ok = p, true
	}
	if q.seen != nil && (hasBit(q.edup, p.Env) || hasBit(q.fdup, p.Fly)) {
		if _, ok := q.seen[p]; ok {
			return
		}
		q.seen[p] = struct{}{}
	}
	if q.etw == nil && q.ftw == nil {
		if !q.fn(p) || !q.all {
			q.stop = true
		}
		return
	}
	// Every pair of the two triangles' twins is in contact too.
	for e := p.Env; e >= 0; e = nextTwin(q.etw, e) {
		for f := p.Fly; f >= 0; f = nextTwin(q.ftw, f) {
			if !q.fn(Pair{e, f}) || !q.all {
				q.stop = true
				return
			}
		}
	}
}

// nextTwin returns the twin after t in the list next (-1 for none).
func nextTwin(next []int32, t int32) int32 {
	if next == nil {
		return -1
	}
	return next[t]
}

// hasBit reports whether bit i of s is set.
func hasBit(s []uint64, i int32) bool { return s != nil && s[i>>6]&(1<<(i&63)) != 0 }

// flyTriangle returns flying triangle i at the query's pose.
func (q *tester) flyTriangle(i int32) geom.Triangle {
	ix := q.fmesh.Tris[i]
	if q.ident {
		v := q.fmesh.Verts
		return geom.Triangle{v[ix[0]], v[ix[1]], v[ix[2]]}
	}
	var t geom.Triangle
	for j, x := range ix {
		if q.tvAt[x] != q.cur {
			q.tv[x] = q.pose.Apply(q.fmesh.Verts[x])
			q.tvAt[x] = q.cur
		}
		t[j] = q.tv[x]
	}
	return t
}

// vertexCache holds the flying vertices transformed by the current query,
// and the environment triangle prepared for a run of flying ones.
type vertexCache struct {
	tv   []geom.Vec3
	tvAt []uint32
	prep geom.TriPrep
}

// begin sizes the cache for nv vertices; wrapped says the query stamps
// have wrapped around, so every stamp is forgotten.
func (c *vertexCache) begin(nv int, wrapped bool) {
	if len(c.tv) < nv {
		c.tv = make([]geom.Vec3, nv)
		c.tvAt = make([]uint32, nv)
	} else if wrapped {
		clear(c.tvAt)
	}
}
