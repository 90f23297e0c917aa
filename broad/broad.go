// Package broad defines the broad phase of a world of many objects: a set of
// axis-aligned boxes, one per object, that reports the pairs of objects whose
// boxes overlap, so that only those pairs go on to an exact test of their
// triangles (package world). Each algorithm is a subpackage behind the one
// interface, Phase: broad/sap (incremental sweep and prune), broad/grid (a
// uniform grid), broad/rgrid (CDFast's recursive grid), broad/octree
// (Zachmann's octree), broad/dbvt (a dynamic AABB tree with fattened
// boxes) and broad/dopsap (sweep and prune on the directions of a k-DOP,
// which takes each object's DOP as well as its box: interface DOPs).
// Brute, in this package, tests every pair: the oracle the others are
// checked against (package broad/broadtest).
//
// # Semantics
//
// Boxes are closed (geom.AABB.Overlaps): boxes that touch at a face, an edge
// or a corner overlap, and so do a point and a box that contains it. An
// object is static or moving; pairs of two static objects are never reported
// (a world does not test its environment against itself), nor held nor
// visited: no phase spends time or memory on them, so that a world of many
// static objects stacked on each other costs what its moving objects meet.
// A static object may be moved: it stays static. A phase reports
// the pairs that changed: those whose two objects overlap and at least one of
// which was added or moved since the last call of Pairs; a pair neither of
// whose objects moved keeps the state it had, and the caller keeps it.
//
// Objects are named by small non-negative int32 ids, which the caller
// assigns and may reuse after Remove (a world numbers its objects densely),
// so that a phase can keep its per-object state in flat arrays.
//
// Adding, moving and removing only record the change: the work is done in
// Pairs, where a phase can do it in bulk (a bulk insertion of 10^5 objects
// is one build, not 10^5 insertions). A phase is not safe for concurrent
// use; a world calls it from one goroutine.
package broad

import (
	"github.com/collide3d/collide/bv"
	"github.com/collide3d/collide/geom"
)

// Phase is a broad phase: a set of boxes, one per object id, that reports
// the pairs of overlapping boxes.
type Phase interface {
	// Add inserts object id with box b, static or moving. Adding an id
	// that is present replaces it (and sets its static flag). b must not
	// be empty nor hold a NaN.
	Add(id int32, b geom.AABB, static bool)
	// Move sets the box of object id, present, to b and marks it moved. A
	// static object that moves stays static: it is paired with the moving
	// objects only.
	Move(id int32, b geom.AABB)
	// Remove takes object id out; removing an absent id does nothing.
	Remove(id int32)
	// Pairs calls fn(a, b), a < b, once for every pair of objects whose
	// boxes overlap, not both static, at least one of which was added or
	// moved since the last call of Pairs, in an order of the phase's
	// choosing; it stops early when fn returns false (the changes are then
	// still taken as seen). It clears the marks of moved objects.
	Pairs(fn func(a, b int32) bool)
	// Len returns the number of objects.
	Len() int
}

// Overlaps reports whether the closed boxes a and b share a point: the test
// every phase reports by. It is geom.AABB.Overlaps, here for phases that
// keep boxes as six floats.
func Overlaps(a, b *geom.AABB) bool {
	return a.Min.X <= b.Max.X && b.Min.X <= a.Max.X &&
		a.Min.Y <= b.Max.Y && b.Min.Y <= a.Max.Y &&
		a.Min.Z <= b.Max.Z && b.Min.Z <= a.Max.Z
}

// Spheres is implemented by phases that can bound a moving object by a set
// of spheres rather than by its box (CDFast's spheres at levels of detail,
// package broad/rgrid). SetSpheres gives the spheres, in world coordinates,
// that bound object id at its current box (set by Add or Move just before);
// the phase then reports a pair of that object and another only when one of
// the spheres overlaps the other's box (closed sets) as well as the two
// boxes overlapping. A nil or empty s goes back to the box alone.
type Spheres interface {
	SetSpheres(id int32, s []bv.Sphere)
}

// DOPs is implemented by phases that can bound an object by a k-DOP as
// well as by its box (package broad/dopsap, sweep and prune on the k/2
// directions). K is the direction set the phase takes. SetDOP gives the
// k-DOP, in world coordinates, that bounds object id at its current box
// (set by Add or Move just before, which forget the DOP given before); the
// phase then reports a pair of that object and another only when their
// intervals overlap on every direction of K (closed sets), the box's on x,
// y and z. A nil d goes back to the box alone.
type DOPs interface {
	K() bv.K
	SetDOP(id int32, d *bv.DOP)
}
