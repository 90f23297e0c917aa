package bvh

import (
	"math"

	"github.com/collide3d/collide/bv"
	"github.com/collide3d/collide/geom"
)

// Pair names two triangles in contact by their indices in the environment's
// and the flying model's meshes.
type Pair struct {
	Env, Fly int32
}

// Stats counts the work of one query, in the terms of the cost model
// T = Nv·Cv + Np·Cp + Nu·Cu.
type Stats struct {
	BVTests  int64 // Nv: bounding-volume overlap tests
	TriTests int64 // Np: exact triangle-triangle tests
	Updates  int64 // Nu: flying volumes re-bounded (k-DOPs) or moved (the other kinds) for the pose
}

// Add adds the counts of s to st.
func (st *Stats) Add(s Stats) {
	st.BVTests += s.BVTests
	st.TriTests += s.TriTests
	st.Updates += s.Updates
}

// QueryOptions configures Collide. The zero value asks for the first contact
// at distance 0, with the traversal of Algorithm 1 and approximate tumbling.
type QueryOptions struct {
	// All reports every pair in contact; otherwise the query stops at the
	// first.
	All bool
	// Eps ≥ 0 is the tolerance: pairs at distance at most Eps are in
	// contact (0: exact contact).
	Eps float64
	// Restart (k-DOP trees) selects the traversal variant that, when a
	// flying node meets an environment leaf, tests its children against
	// the environment root rather than against that leaf (Klosowski et
	// al.'s "modified" variant).
	Restart bool
	// ExactRoot (k-DOP trees) bounds the flying root by its exact k-DOP,
	// found by hill climbing on the flying model's convex hull from the
	// previous query's extreme vertices (kept in the Scratch), rather than
	// by tumbling.
	ExactRoot bool
}

// Scratch is the per-query state of Collide: the flying model's volumes for
// the current pose, its transformed vertices, the traversal stack and the
// hill-climbing state. Reusing one Scratch makes queries allocation-free
// once it has grown to the models; a Scratch must not be used by two
// queries at once. The zero value is ready to use.
type Scratch struct {
	impl any       // *scratch[F, A], for k-DOP trees
	rig  *rscratch // for the other kinds
}

type scratch[F bv.Float, A bv.Slabs[F]] struct {
	cur   uint32   // stamp of the current query
	fdop  []A      // flying k-DOPs for the current pose, in the environment's frame
	stamp []uint32 // query stamp of fdop[i]
	vertexCache
	stack []uint64
	view  *flyView
	climb bv.ClimbState
}

// Collide tests fly, placed at pose, against env at the identity pose,
// calling fn for each pair of triangles in contact (at distance at most
// o.Eps); fn returns false to stop the query. Without o.All the query stops
// after the first pair. Each pair is reported once, in no particular order.
// The environment's kind decides the traversal: a k-DOP tree flying against
// one of another k is tumbled in env's k-DOPs; a flying tree of another kind
// first gets a tree of env's kind over its mesh, built on the first such
// query and kept. s may be nil (a new Scratch is used).
//
// Collide trusts its input, for speed: pose must be finite, its rotation
// orthonormal to within 10^-6 (geom.Pose.Validate), and it must keep fly's
// coordinates finite; o.Eps must be finite and ≥ 0. Otherwise its answer
// means nothing. The facade, collide.Check, checks all of this and reports
// an error instead.
func Collide(env, fly *Tree, pose geom.Pose, o QueryOptions, s *Scratch, fn func(Pair) bool) Stats {
	if s == nil {
		s = new(Scratch)
	}
	fly = fly.asKind(env.opts.Kind)
	switch env.opts.Kind {
	case BoxTree:
		return collideBox(env, fly, pose, o, s, fn)
	case OBB, Sphere, AABB:
		return collideRigid(env, fly, pose, o, s, fn)
	}
	switch e := env.impl.(type) {
	case *tree[float32, [6]float32]:
		return collide(e, env, fly, pose, o, s, fn)
	case *tree[float32, [14]float32]:
		return collide(e, env, fly, pose, o, s, fn)
	case *tree[float32, [18]float32]:
		return collide(e, env, fly, pose, o, s, fn)
	case *tree[float32, [26]float32]:
		return collide(e, env, fly, pose, o, s, fn)
	case *tree[float64, [6]float64]:
		return collide(e, env, fly, pose, o, s, fn)
	case *tree[float64, [14]float64]:
		return collide(e, env, fly, pose, o, s, fn)
	case *tree[float64, [18]float64]:
		return collide(e, env, fly, pose, o, s, fn)
	case *tree[float64, [26]float64]:
		return collide(e, env, fly, pose, o, s, fn)
	}
	panic("bvh: unknown tree type")
}

// query is one Collide call on an environment of type tree[F, A].
type query[F bv.Float, A bv.Slabs[F]] struct {
	tester
	et    *tree[F, A]
	fv    *flyView
	shift bool                 // pose is a translation
	pad   [bv.MaxSlabs]float64 // added to each side of a tumbled slab
	sc    *scratch[F, A]
}

func collide[F bv.Float, A bv.Slabs[F]](et *tree[F, A], env, fly *Tree, pose geom.Pose, o QueryOptions, s *Scratch, fn func(Pair) bool) Stats {
	if et.len() == 0 || fly.impl.len() == 0 {
		return Stats{}
	}
	sc, ok := s.impl.(*scratch[F, A])
	if !ok {
		sc = &scratch[F, A]{}
		s.impl = sc
	}
	fv := fly.view(env.opts.K)
	sc.begin(fv, len(fly.mesh.Verts))
	q := query[F, A]{
		tester: newTester(env, fly, pose, o, fn, &sc.vertexCache, sc.cur),
		et:     et, fv: fv, sc: sc,
	}
	q.shift = pose.R == geom.Identity3()
	k := env.opts.K
	// Rotated k-DOPs are padded by bounds on three errors. (1) The mesh
	// vertices are transformed by Pose.Apply: each coordinate of R·x + t is
	// rounded by at most 2^-52·(3M + T) (three products, three sums; M the
	// largest |coordinate| of the model, T that of t). (2) The tumbling
	// points are transformed and projected by bound, maybe with fused
	// multiply-adds: as much again per coordinate, and each projection (a
	// sum of up to three coordinates) adds 2^-52·3·(3M + T) at most; so
	// 2^-47·(M + T) bounds (1) and (2) for |d|₁ ≤ 3. (3) The vertices of a
	// node's k-DOP are computed within 2^-40·(M + S) ≤ 2^-38·M of the exact
	// ones (see bv.DOP.Vertices), which moves a projection by at most
	// √3·2^-38·M < 2^-37·M.
	t := pose.T
	rot := 0x1p-47*(fv.mag+max(math.Abs(t.X), math.Abs(t.Y), math.Abs(t.Z))) + 0x1p-37*fv.mag
	eps := q.epsPad(k)
	q.pad = eps
	if !q.shift {
		for i := range k.Slabs() {
			q.pad[i] += rot
		}
	}
	if o.ExactRoot && !q.shift {
		d, _ := fv.convexHull(fly).DOP(k, pose.R, pose.T, &sc.climb)
		bv.Pack[F](&sc.fdop[0], &d.Lo, &d.Hi, &et.off, &eps)
		sc.stamp[0] = sc.cur
		q.st.Updates++
	} else {
		q.tumble(0)
	}
	if o.Restart {
		q.restart(0, 0)
	} else {
		q.descend()
	}
	return q.st
}

// epsPad returns the tolerance part of the slab padding.
func (q *query[F, A]) epsPad(k bv.K) [bv.MaxSlabs]float64 {
	var p [bv.MaxSlabs]float64
	for i := range k.Slabs() {
		p[i] = q.eps * k.Norm(i) * (1 + 0x1p-50)
	}
	return p
}

// begin prepares s for a query flying view v over a mesh of nv vertices.
func (s *scratch[F, A]) begin(v *flyView, nv int) {
	if s.view != v {
		s.view = v
		s.climb = bv.ClimbState{}
	}
	n := len(v.kid)
	if len(s.fdop) < n {
		s.fdop = make([]A, n)
		s.stamp = make([]uint32, n)
	}
	s.cur++
	if s.cur == 0 { // wrapped: forget every stamp
		clear(s.stamp)
		s.cur = 1
	}
	s.vertexCache.begin(nv, s.cur == 1)
	s.stack = s.stack[:0]
}

// tumble computes the k-DOP of flying node i at the query's pose, in the
// environment's frame, unless it is already done.
func (q *query[F, A]) tumble(i int32) {
	sc := q.sc
	if sc.stamp[i] == sc.cur {
		return
	}
	sc.stamp[i] = sc.cur
	q.st.Updates++
	fv := q.fv
	if q.shift {
		d := fv.dop[i].Translated(q.pose.T)
		bv.Pack[F](&sc.fdop[i], &d.Lo, &d.Hi, &q.et.off, &q.pad)
		return
	}
	var lo, hi [bv.MaxSlabs]float64
	bound(fv.k, fv.pts[fv.voff[i]:fv.voff[i+1]], &q.pose.R, q.pose.T, &lo, &hi)
	bv.PackLoose[F](&sc.fdop[i], &lo, &hi, &q.et.off, &q.pad)
}

// descend runs Algorithm 1 of Klosowski et al.: descend the environment
// first, down to a leaf, then the flying hierarchy.
func (q *query[F, A]) descend() {
	sc := q.sc
	stack := append(sc.stack[:0], 0)
	nodes := q.et.nodes
	kid := q.fv.kid
	for len(stack) > 0 && !q.stop {
		top := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		f, e := int32(top>>32), int32(uint32(top))
		q.st.BVTests++
		en := &nodes[e]
		if !bv.Overlap[F](&sc.fdop[f], &en.s) {
			continue
		}
		if r := en.ref; r >= 0 {
			stack = append(stack, uint64(f)<<32|uint64(uint32(e+r)), uint64(f)<<32|uint64(uint32(e+1)))
			continue
		}
		if c := kid[f]; c >= 0 {
			q.tumble(c)
			q.tumble(c + 1)
			stack = append(stack, uint64(c+1)<<32|uint64(uint32(e)), uint64(c)<<32|uint64(uint32(e)))
			continue
		}
		q.leaves(f, en.ref)
	}
	sc.stack = stack
}

// restart is the traversal variant that tests the children of a flying node
// against the environment root once the node reaches an environment leaf.
// It returns true when it has done so, which ends the node's traversal.
func (q *query[F, A]) restart(f, e int32) bool {
	if q.stop {
		return true
	}
	q.st.BVTests++
	en := &q.et.nodes[e]
	if !bv.Overlap[F](&q.sc.fdop[f], &en.s) {
		return false
	}
	if r := en.ref; r >= 0 {
		return q.restart(f, e+1) || q.restart(f, e+r)
	}
	c := q.fv.kid[f]
	if c < 0 {
		q.leaves(f, en.ref)
		return false
	}
	q.tumble(c)
	q.tumble(c + 1)
	q.restart(c, 0)
	q.restart(c+1, 0)
	return true
}

// leaves tests the triangles of flying leaf f against those of the
// environment leaf whose ref is eref.
func (q *query[F, A]) leaves(f, eref int32) {
	q.leaf(q.et.order, eref, q.fv.tris[^q.fv.kid[f]:q.fv.end[f]])
}
