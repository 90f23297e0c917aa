package collide

import (
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/sep"
)

// Method chooses the exact test of a pair of models (QueryOptions.Method).
// Every method gives the same answer; they differ in their work.
type Method uint8

const (
	// MethodAuto, the zero value, chooses by the models' topology
	// (Model.Topology): the convex test when both are convex, else the
	// tree test (Method.Resolve; AutoConvexTris says when a model's
	// topology is computed for it).
	MethodAuto Method = iota
	// MethodTree is the traversal of the two models' trees.
	MethodTree
	// MethodConvex first looks for a plane separating the two models'
	// vertices (the pair's Plane, then a new one), which proves them apart;
	// when there is none the tree test decides. It is exact for any pair of
	// models (a plane that separates the vertices separates their convex
	// hulls), and pays on convex ones.
	MethodConvex
)

var methodNames = [...]string{MethodAuto: "auto", MethodTree: "tree", MethodConvex: "convex"}

// String returns the method's name: "auto", "tree" or "convex".
func (m Method) String() string {
	if int(m) < len(methodNames) {
		return methodNames[m]
	}
	return fmt.Sprintf("Method(%d)", int(m))
}

// ParseMethod returns the method named s (Method.String).
func ParseMethod(s string) (Method, error) {
	for m, n := range methodNames {
		if n == s {
			return Method(m), nil
		}
	}
	return 0, fmt.Errorf("collide: unknown method %q (known: auto, tree, convex)", s)
}

// AutoConvexTris is the size up to which MethodAuto computes a model's
// topology (Model.Topology, about 1 µs a triangle, once) to learn whether
// it is convex: a bigger model is taken as convex only when its topology is
// already known (someone called Model.Topology), so that a query never
// pays for a large topology it did not ask for.
const AutoConvexTris = 4096

// Resolve returns the test m chooses for env and fly: MethodTree or
// MethodConvex. MethodAuto chooses MethodConvex when both models are
// convex (topo.Topology.Convex; see AutoConvexTris for when their topology
// is computed), else MethodTree. A method it does not know stays as it is.
func (m Method) Resolve(env, fly *Model) Method {
	if m != MethodAuto {
		return m
	}
	if env.autoConvex() && fly.autoConvex() {
		return MethodConvex
	}
	return MethodTree
}

// convexState is what the convex test keeps of a model.
type convexState struct {
	// topoKnown says that Model.Topology has computed the topology.
	topoKnown atomic.Bool
	// shape is the model's vertex set prepared for sep.Apart (the
	// vertices its triangles use), made once, when first asked.
	once  sync.Once
	shape *sep.Shape
}

// autoConvex reports whether MethodAuto takes m as convex.
func (m *Model) autoConvex() bool {
	if len(m.mesh.Tris) <= AutoConvexTris {
		return m.Topology().Convex
	}
	return m.convex.topoKnown.Load() && m.topo.Convex
}

// shape returns m's vertex set for the convex test: the vertices that its
// triangles use (those of a weld are one point), as a sep.Shape.
func (m *Model) shape() *sep.Shape {
	m.convex.once.Do(func() {
		used := make([]bool, len(m.mesh.Verts))
		pts := make([]geom.Vec3, 0, len(m.mesh.Verts))
		for _, t := range m.mesh.Tris {
			for _, x := range t {
				if !used[x] {
					used[x] = true
					pts = append(pts, m.mesh.Verts[x])
				}
			}
		}
		m.convex.shape = sep.NewShape(pts)
	})
	return m.convex.shape
}

// Plane is a pair of models' separating-plane cache: the direction of the
// last plane that proved them apart, in the environment's frame, and the
// vertices of the two models' hulls where its supports were, which the next
// convex test of the pair tries first, climbing from those vertices
// (Zachmann's per-pair plane in the collision interest matrix, with the
// extreme points he proposed to keep). A world keeps one per pair of
// objects; a Query keeps one for the last pair it tested. A Plane belongs
// to one pair of models: given to a query of others, it starts afresh.
// The zero value is empty and ready to use; a Plane must not be used by two
// queries at once.
type Plane struct {
	c sep.Cache
}

// Reset empties p.
func (p *Plane) Reset() { p.c.Reset() }

// Dir returns the direction of p's plane in the environment's frame (from
// the environment toward the flying model) and whether p holds one.
func (p *Plane) Dir() (geom.Vec3, bool) { return p.c.Dir() }

// separated runs the convex test when o's method (resolved for env and fly)
// asks for it: it reports whether a separating plane proved the models
// apart, fly at pose rel in env's frame, counting its work in st. The
// pair's plane is o.Plane, or q's own.
//
// A query so decided does not walk the trees: a Front given with it stays
// as the last walk left it, which is still valid (a front measures the
// motion from the pose of its last walk, however many queries came
// between), and a Pending is done.
func (q *Query) separated(env, fly *Model, rel *geom.Pose, o *QueryOptions, st *Stats) bool {
	if o.Method.Resolve(env, fly) != MethodConvex {
		return false
	}
	pl := o.Plane
	if pl == nil {
		pl = &q.plane
	}
	st.Convex++
	switch sep.Apart(env.shape(), fly.shape(), *rel, o.Eps, &pl.c) {
	case sep.Cached:
		st.PlaneHits++
		return true
	case sep.New:
		st.PlaneNew++
		return true
	}
	q.tried = pl
	return false
}

// afterTree tells the plane of a convex test that left the query to the
// tree test whether the tree test found a contact: while the pair stays in
// contact, its next convex tests try one direction only (sep.Cache.Touching).
func (q *Query) afterTree() {
	if q.tried != nil {
		q.tried.c.Touching(q.nhit > 0)
		q.tried = nil
	}
}
