package collide

import (
	"fmt"

	"github.com/collide3d/collide/geom"
)

// Method chooses the exact test of a pair of models (QueryOptions.Method).
// Every method gives the same answer; they differ in their work.
type Method uint8

const (
	// MethodAuto, the zero value, chooses by the models' topology
	// (Model.Topology): the convex test when both are convex, else the
	// tree test.
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

// Plane is a pair of models' separating-plane cache: the direction of the
// last plane that proved them apart, in the environment's frame, which the
// next convex test of the pair tries first (Zachmann's per-pair plane in the
// collision interest matrix). A world keeps one per pair of objects; a
// Query keeps one for the last pair it tested. The zero value is empty and
// ready to use.
type Plane struct {
	dir geom.Vec3
	ok  bool
}

// Reset empties p.
func (p *Plane) Reset() { *p = Plane{} }

// separated runs the convex test when o's method (resolved for env and fly)
// asks for it: it reports whether a separating plane proved the models
// apart, fly at pose rel in env's frame, counting its work in st.
func (q *Query) separated(env, fly *Model, rel *geom.Pose, o *QueryOptions, st *Stats) bool {
	return false
}
