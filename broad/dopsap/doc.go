// Package dopsap is an incremental sweep and prune broad phase on the k/2
// directions of a k-DOP (k = 6, 8, 12, 14, 18, 20 or 26; 18 by default,
// the library's default tree; a set without the axes, 8, 12 or 20, is
// swept on the axes as well, which carry the boxes): I-COLLIDE's sweep and prune generalised, as
// Klosowski's dissertation proposes for many flying objects, from the
// three axes of boxes to the directions of the DOPs the trees are made
// of. A pair is reported when the two objects' intervals overlap on every
// direction: the k-DOP overlap test, which prunes the pairs whose boxes
// overlap while their DOPs do not (objects turned off the axes, bars
// along a diagonal, corners of round objects).
//
//	p := dopsap.New(bv.K18)
//	p.Add(id, box, static) // for each object
//	p.SetDOP(id, &dop)     // its k-DOP, if known (else its box alone)
//	for {
//		p.Move(id, box) // for each object that moved
//		p.SetDOP(id, &dop)
//		p.Pairs(func(a, b int32) bool { ...; return true })
//	}
//
// It is a broad.Phase (boxes in: the intervals on x, y and z) that also
// takes DOPs (broad.DOPs): an object without a DOP has the whole line as
// its interval on the other directions, so that with boxes alone the
// phase reports exactly the overlapping boxes, as every phase does. A
// world (package world) gives it each moved object's world DOP, the
// k-DOP of the object's convex hull at its pose found by hill climbing
// and padded by a proven bound, so that no pair the exact test would
// find is dropped.
//
// # Algorithm
//
// Each direction keeps the sorted array of the objects' interval
// endpoints, ordered by value and, at equal values, mins before maxes: a
// min is then before another object's max exactly when it is at most that
// max, so that touching intervals overlap in the order as they do as
// closed sets. The set of pairs overlapping on every direction (a hash
// table and a list) is kept between calls. Pairs takes the directions in
// turn: the moved objects' endpoints take their new values and an
// insertion sort restores the order; a min moving down past another
// object's max begins an overlap on that direction, a max moving down
// past a min ends one, and each changes the pair set when the two objects
// overlap on every other direction (by the intervals the arrays are
// sorted by: new on the directions done, old on those to come). Temporal
// coherence makes the sort nearly linear. Pairs then reports the pairs of
// the set with a moved or added object. Removals filter the arrays; a few
// objects added are merged into them and their pairs found by a scan of
// the x array. When the sorts would cost more than starting again (many
// objects added, objects that jump far), the phase rebuilds: every array
// sorted afresh and a sweep along x, each object against those whose x
// interval begins within its own, a static object against the moving ones
// only, so that no pair of two static objects is ever visited or held.
//
// Unlike package broad/sap, an endpoint carries no intervals: the test at
// a swap reads the two objects' intervals on the other directions, which
// for k/2 directions would make every endpoint k/2 times larger.
//
// # Performance
//
// The cost of a step grows with the directions: on BenchmarkStepDOP
// (10^4 objects, each the DOP of 4 points within 0.5 of its centre, at one
// per 8 unit³, every one taking a Brownian step of 0.01 per axis; least
// of 3 on a loaded 2-core machine) a step took 7.0 ms on the 6-DOP's 3
// directions, 17 ms on the 14-DOP's 7, 22 ms on the 18-DOP's 9 and 29 ms
// on the 26-DOP's 13, reporting 648, 353, 304 and 272 pairs. In a world
// (the README's worlds section) the DOPs cut the candidate pairs by 40%
// on the many-body scenes and by 2.3 to 2.5 times among turning bars,
// but the broad phase costs 4 to 8 times broad/sap's, and the pairs it
// prunes are those the exact test rejects at its trees' root volumes: the
// whole step was never faster than with sap. Pairs allocates nothing in
// steady state. A Phase is not safe for concurrent use.
package dopsap
