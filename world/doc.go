// Package world tests many objects against each other at once: a world of
// rigid objects, each an instance of a built model (one mesh and its tree
// shared by every instance) at a pose, static or moving, in a group. Step
// finds the pairs of objects in contact and, per pair, the first triangle
// pair in contact or every one, exactly, through the one traversal of
// package bvh (the query of collide.Query), after a broad phase (package
// broad) has found the pairs whose world boxes overlap. It is the module of
// Zachmann's thesis (collision interest matrix, moved buffer, callbacks,
// parallel checking) over the broad phases of Zachmann, CDFast and today's
// physics engines.
//
// # Steps
//
// Move sets an object's pose and puts it in the moved buffer; Add and Remove
// change the set of objects. Step does work only for what changed: it bounds
// each moved object by its world box, updates the broad phase with those
// boxes, takes the pairs of overlapping boxes with at least one moved
// object, keeps the interesting ones (the interest matrix), tests them
// exactly (on every core: Options.Workers), and updates the contacts: a pair
// that starts touching calls Callbacks.Begin, one that was tested again and
// still touches Callbacks.Keep, one that stops touching (or one of whose
// objects is removed) Callbacks.End. A pair neither of whose objects moved is
// not tested again and keeps its state without a call. With nothing moved,
// added or removed, Step returns at once.
//
// StepContext is Step stopped by a context: cancelled or past its
// deadline, it stops the step between two pairs' exact tests and abandons
// it whole (no callback, the contacts those of the last complete step, the
// changes since still to be stepped), so that the next step does it again
// and finds what a world never stopped finds; its error wraps ctx.Err().
//
// Pairs of two static objects are never tested: the static objects are the
// environment. A static object may still be moved (it is then re-bounded and
// tested against the moving objects; it stays static).
//
// # Contacts
//
// A Contact names its two objects A < B and the pairs of their triangles
// in contact, read with Contact.All (an iterator of TriPair: A's triangle,
// then B's), Contact.At and Contact.Len. World.Contact looks a pair of
// objects up; World.AllContacts iterates over every contact and
// World.AllObjects over the objects, beside the callback forms Contacts and
// Objects (the same sequences). In a world of solids (Options.Solid) an
// object inside another, their surfaces apart, is a contact too, with no
// pair of triangles: Contact.Inside says which object is inside the other.
//
// # Exactness
//
// A pair of objects is tested in the frame of one of them, its environment:
// the object with more triangles (the lower ID on a tie). The other object
// flies at its pose relative to it, Pe⁻¹∘Pf computed in float64 (with Rᵀ for
// the inverse of a rotation, as geom.Pose.Inverse), and the answer is that
// of collide.Query for those two models at that pose: exact for the computed
// coordinates, as everywhere in collide. A contact's triangle pairs still
// name A's (the lower ID's) triangle first, whichever object was the
// environment.
//
// A world box is the exact bounding box of the object's convex hull at its
// pose, found by hill climbing on the hull from the previous extreme
// vertices (bv.HullDOP): as tight as a box can be, never a sphere around a
// rotated box. It is padded by a proven bound on the rounding of its own
// computation and on the difference between world coordinates and the
// relative pose of a pair's query (including a rotation that is orthonormal
// only to within the 1e-6 geom.Pose.Validate allows), so that the broad phase
// never drops a pair the exact test would find: the contacts of a world are
// those of testing every pair of objects with collide.Query. With a broad
// phase that takes DOPs (broad.DOPs: "dopsap"), each moved object is also
// bounded by the k-DOP of its hull at its pose, found the same way on the
// k/2 directions and padded on each by |d|₁ times the box's pad, which
// prunes the pairs whose boxes overlap while their DOPs do not.
//
// # Interest
//
// Which pairs are tested is the interest matrix: a matrix of groups
// (SetGroupInterest; every pair of groups is interesting by default) and
// overrides for single pairs of objects (SetInterest), looked up in constant
// time per candidate pair after the broad phase.
//
// # Concurrency
//
// A world is not safe for concurrent writes: Add, Remove, Move, Step,
// StepContext and the Set methods must not run at the same time as any
// other method. While none of them runs, the reading methods (Len, Pose,
// Bounds, Static, Group, Data, Model, Objects, AllObjects, Interested,
// Contact, Contacts, AllContacts, NumContacts) may be called from any
// number of goroutines at once. Step itself runs the exact tests of its
// pairs on Options.Workers goroutines, each with its own query state; the
// contacts, the callbacks' order and every count it returns are the same
// whatever the number of workers. Callbacks run on the goroutine that
// called Step (or StepContext), one at a time, in ascending order of the
// pair, after the exact tests; they may call Move and Add (the change is
// for the next step) but not Remove, Step or StepContext (which return
// ErrInStep).
//
// These are Zachmann's coarse grain, the pairs shared by the workers
// (statically or, by default, dynamically: Options.Static). His medium
// grain tests one pair on two goroutines (collide.QueryOptions.Medium):
// with Options.Medium, a step that tests fewer pairs than Workers tests
// each so, with the same contacts. His concurrent module runs the steps
// beside the application: NewConcurrent gives a world to a goroutine of
// its own, which the application feeds with Concurrent.Move and Commit
// (double-buffered poses, each object at most once, never waiting for a
// step) and which reports each step as a Frame naming the application's
// frame whose poses it stepped (Options.Done, Concurrent.Latest).
package world
