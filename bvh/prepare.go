package bvh

import (
	"math"
	"slices"

	"github.com/collide3d/collide/geom"
)

// prepareStack is the number of pairs Prepare makes room for on the
// walk's stack: a walk from the roots holds at most one pair per level of
// the two trees (the restart variant more), and trees that Build makes
// over a million triangles are about 50 levels deep.
const prepareStack = 256

// Prepare readies s for queries of fly against env with options o, so that
// the first of them costs what the later ones do. Everything that query
// would otherwise do once, Prepare does now: it builds fly's flying view for
// env's k-DOPs (k-DOP trees; see Tree.PrepareFlying) and, with
// o.ExactRoot, the convex hull its root is bounded by; it sizes s's buffers
// for the two trees (the flying volumes at the pose, their stamps, the
// transformed vertices, the walk's stack) and writes them once, so that
// their memory is mapped before the first query touches it.
//
// It does so by running one query of fly placed far from env (first
// contact, exact, o's traversal variants, not o.State, whose next climb it
// leaves where it was), which finds nothing, and then clearing the
// buffers. The cost is what the first query would pay, and clearing: for
// a k-DOP tree of 20,000 triangles flying for the first time, about 15 ms
// (its view); otherwise the sizing of the buffers, 1 to 2 ms for an OBB
// tree of 20,000 triangles, well under one for a k-DOP tree. Prepare does nothing if the trees are not SameKind
// (Collide would panic), and only builds the flying view if their
// coordinates are so large (beyond 2^1019) that no pose puts fly far from
// env in float64.
func (s *Scratch) Prepare(env, fly *Tree, o QueryOptions) {
	if !SameKind(env, fly) {
		return
	}
	if fly.opts.Kind == KDOP {
		fly.view(env.opts.K)
	}
	if env.impl.len() == 0 || fly.impl.len() == 0 {
		return
	}
	pose, ok := farPose(env, fly)
	if !ok {
		return
	}
	w := QueryOptions{Restart: o.Restart, ExactRoot: o.ExactRoot}
	Collide(env, fly, pose, w, s, func(Pair) bool { return false })
	if d, ok := s.dop.(interface{ settle() }); ok {
		d.settle()
	}
	if s.move != nil {
		s.move.settle(longestLeaf(env), longestLeaf(fly))
	}
	if s.box != nil {
		s.box.settle(longestLeaf(fly))
	}
}

// farPose returns a pose, a quarter turn about z and a translation along
// x, that puts fly's root volume apart from env's, so that a query stops at
// the roots: the volume of every kind lies within √3 times the reach of
// its bounding box, so a translation of 4(E + F) + 1, E and F the reaches,
// leaves a gap of more than E + F between them (a quarter turn keeps the
// reach). It reports false if the translation is not finite.
func farPose(env, fly *Tree) (geom.Pose, bool) {
	x := 4*(reach(env)+reach(fly)) + 1
	if !(x <= math.MaxFloat64/4) {
		return geom.Pose{}, false
	}
	p := geom.Pose{R: geom.Mat3{{0, -1, 0}, {1, 0, 0}, {0, 0, 1}}, T: geom.Vec3{X: x}}
	return p, true
}

// reach returns the largest |coordinate| of the box around t's root volume
// (bv.DOP.Box: the first three slabs of its k-DOP, or the box derived from
// the diagonals of a set without the axes), or of t's mesh if that is not
// finite (the unbounded volume of a degenerate OBB or RSS tree).
func reach(t *Tree) float64 {
	d := t.impl.bounds(0)
	b := d.Box()
	m := 0.0
	for _, x := range []float64{b.Min.X, b.Min.Y, b.Min.Z, b.Max.X, b.Max.Y, b.Max.Z} {
		m = max(m, math.Abs(x))
	}
	if m <= math.MaxFloat64 {
		return m
	}
	m = 0
	for _, v := range t.mesh.Verts {
		m = max(m, math.Abs(v.X), math.Abs(v.Y), math.Abs(v.Z))
	}
	return m
}

// longestLeaf returns the largest number of triangles a leaf of t lists
// (1 for trees of one triangle per leaf).
func longestLeaf(t *Tree) int {
	n, run := 1, 0
	for _, x := range t.impl.perm() {
		run++
		if x < 0 { // the last of a leaf
			n, run = max(n, run), 0
		}
	}
	return n
}

// settle maps the memory of s's buffers by clearing them (every stamp 0:
// nothing cached, as after a wrap of the query stamps) and makes room on
// the walk's stack and for the triangles of the longest leaves (envLeaf
// and flyLeaf triangles; vtrees and box-trees list them).
func (s *dopScratch[F, A]) settle() {
	clear(s.fdop)
	clear(s.stamp)
	s.vertexCache.settle()
	s.walk.settle()
	s.wide = slices.Grow(s.wide[:0], 2*prepareStack) // the wide walk's (wide_dop.go)
}

func (s *moveScratch) settle(envLeaf, flyLeaf int) {
	clear(s.stamp)
	clear(s.wc)
	clear(s.wax)
	s.vertexCache.settle()
	s.env.settle()
	s.walk.settle()
	s.wide = slices.Grow(s.wide[:0], 2*prepareStack) // the wide walk's (wide.go)
	s.ft = slices.Grow(s.ft[:0], flyLeaf)
	s.et = slices.Grow(s.et[:0], envLeaf)
}

// prepareSeen is the room made for the pairs a box-tree query of all pairs
// remembers (those of triangles in several leaves).
const prepareSeen = 1024

func (s *boxScratch) settle(flyLeaf int) {
	s.vertexCache.settle()
	s.walk.settle()
	s.ft = slices.Grow(s.ft[:0], flyLeaf)
	if len(s.seen) == 0 { // made without room by a query, or not yet made
		s.seen = make(map[Pair]struct{}, prepareSeen)
	}
}

func (c *vertexCache) settle() {
	clear(c.tv)
	clear(c.tvAt)
}

func (w *walk[X]) settle() {
	clear(w.restarted)
	w.stack = slices.Grow(w.stack[:0], prepareStack)
}
