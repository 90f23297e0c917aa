// Package sap is an incremental sweep and prune broad phase (Baraff;
// Cohen, Lin, Manocha and Ponamgi's I-COLLIDE; Bullet's btAxisSweep3),
// exact on float64 and unbounded: no quantisation, no world bounds.
//
//	p := sap.New()
//	p.Add(id, box, static) // for each object
//	for {
//		p.Move(id, box) // for each object that moved
//		p.Pairs(func(a, b int32) bool { ...; return true })
//	}
//
// # Algorithm
//
// Each axis keeps the sorted array of the objects' interval endpoints,
// ordered by value and, at equal values, mins before maxes: a min is then
// before another object's max exactly when it is at most that max, so
// touching boxes overlap in the order as they do as closed sets. The set of
// overlapping pairs (a hash table and a list) is kept between calls. Pairs
// takes the axes in turn: the moved objects' endpoints take their new
// values and an insertion sort restores the order; a min moving down past
// another object's max begins an overlap on that axis and a max moving
// down past a min ends one, and each changes the pair set when the two
// objects overlap on the other axes. Temporal coherence makes the sort
// nearly linear. Pairs then reports the pairs of the set with a moved or
// added object.
//
// Every endpoint carries its object's intervals on the two other axes, so
// that the test at a swap reads nothing but the two endpoints at hand; and
// the test, rarely true, runs before the check of the endpoints' kinds, a
// coin toss that no branch predictor learns, which halved the time of a
// step (75 to 39 ms at 10^5). The intervals carried on later axes go stale
// when an object moves, and are refreshed in the next call's passes.
//
// When the insertion sort would cost more than starting again (objects
// that jump far, a large share of the objects added), the phase rebuilds:
// a radix sort of each axis and a box pruning sweep along x within slabs
// along y as thick as the mean box, each pair taken in the lowest slab the
// two share. Bulk insertion of 10^5 objects is that: one sort per axis,
// not 10^5 insertions. A few objects added to many are merged into the
// arrays, and their pairs found by a scan of the x array.
//
// Pairs of two static objects are never visited: an endpoint carries its
// object's static flag, a swap of two static endpoints changes nothing,
// an insertion skips them, and in the rebuild's sweep a static box meets
// only the moving boxes after it. The pair set holds only the pairs with a
// moving object (6,000 identical static boxes held 18 million pairs, 1.9
// GB).
//
// # Why three axes
//
// The alternative measured was the single-axis array of boxes (OPCODE's
// box pruning, PhysX's array SAP): one array sorted by the boxes' mins on
// the best axis, re-sorted by insertion, and a sweep that tests each moved
// box against those whose intervals on that axis meet its own. Its cost is
// the number of boxes overlapping on one axis, which in a cube grows as
// n^(5/3) whatever the motion, while the three-axis sort costs the number
// of endpoints that pass each other, which shrinks with the step. On the
// benchmark scene (medians of 5; the array variant is in this package's
// history, commit ae81cf3):
//
//	                  array SAP            three axes
//	objects      100%      10%  moving   100%      10%
//	10^3        183 µs     62 µs        140 µs     29 µs
//	10^4        4.8 ms    2.6 ms        2.0 ms    0.50 ms
//	10^5        181 ms    122 ms         37 ms    9.8 ms
//
// The three axes win at every size and both fractions, 5 to 12 times at
// 10^5, and a rebuild bounds their cost when the steps are large. Neither
// reaches a few milliseconds for 10^5 boxes all moving in a cube: the
// endpoints passing each other grow as n^(5/3) too (7·10^6 swaps a step
// here). The grid (package broad/grid) does; sweep and prune suits fewer
// objects, small steps, or worlds spread along one axis.
//
// # Performance
//
// On one core of the development machine (Go 1.26, a shared 2-core Xeon),
// with boxes of edge 0.5 to 1.5 at one per 8 unit³ in a cube, each taking a
// Brownian step of 0.01 per axis (BenchmarkPairs, medians of 5; a step is
// the Move calls and Pairs): see the table above. Inserting 10^5 objects
// at once and reporting their pairs takes 110 ms (BenchmarkBulk). Pairs
// allocates nothing in steady state. A Phase is not safe for concurrent
// use.
package sap
