// Package grid is a uniform grid broad phase (Zachmann, "Exact and Fast
// Collision Detection", §5.5): space is cut into cubic cells, each cell
// lists the objects whose boxes overlap it, and two objects are candidates
// when they share a cell; every candidate pair is then confirmed by the
// exact test of their closed boxes (broad.Overlaps) before it is reported.
//
//	p := grid.New(nil)
//	p.Add(id, box, static) // for each object
//	for {
//		p.Move(id, box) // for each object that moved
//		p.Pairs(func(a, b int32) bool { ...; return true })
//	}
//
// # Cells
//
// An object's cells are the integer box of its box: each coordinate v maps
// to v/size + off rounded to float64, clamped to [0, 2^21) and truncated.
// That map is monotone and the same for every box, so two boxes that
// overlap or touch, even at a cell boundary, have integer boxes that
// overlap: they always share a cell, and the grid never misses a pair.
// The cells live in a hash table keyed by their three coordinates, so the
// grid has no bounds: objects may go anywhere (far ones share the clamped
// cells at the edge of the 2^21-cell range, which costs time, never
// answers). A bounded array with an overflow cell would save the hashing,
// but the lookups took about 12% of the time of a sweep in the profiles of
// the benchmark, an upper bound on the gain, against bounds that the
// objects leave.
//
// The cell size is chosen at each bulk change (the first Pairs, and any
// Pairs that places more than a quarter as many new objects as the grid
// holds): the edge that minimises a model of the cost of a query, the
// cells a mean box spans times (20 + the objects a cell holds at the mean
// density), tried from a quarter to sixteen times the median longest edge.
// On the benchmark scene (boxes of edge 0.5 to 1.5, one per 8 unit³) it
// picks 3.1, about three mean edges, where measured steps were fastest;
// Options.CellSize sets it instead.
//
// The static objects have cells (and a large list) of their own: a query
// of a static object reads the moving objects' cells only, and the sweep
// pairs a cell's moving objects with each other and with its static ones,
// so that no pair of two static objects is ever visited (20,000 identical
// static boxes took 36 s; they now take what brute force takes).
//
// # Moves
//
// A move first compares the new integer box with the old: when they are
// equal, as they are for most small moves, the grid does no work
// (Zachmann's pre-check). Otherwise the object is added to the cells of
// new \ old and removed from those of old \ new, each difference cut into
// at most six slabs (the box difference). An object spanning more than
// Options.MaxCells cells (512) is large: it stays out of the cells, in a
// list that every query scans, and a large object that moves is tested
// against every object; so a box across 10^6 cells costs one list entry,
// not 10^6.
//
// # Queries
//
// Pairs runs in one of two ways, whichever the number of moved objects
// makes cheaper (they cross at about 60% moving on the benchmark scene):
//
//   - Queries: each moved object scans the lists of its cells; Zachmann's
//     query stamp (a counter stored in every object met) skips an object
//     met in an earlier cell, and a moved object already queried is skipped
//     too, so every pair is reported once.
//   - Sweep: every cell is visited once, and every pair in it tested once;
//     a pair is reported only from the lowest cell its two objects share
//     (the corner of the intersection of their integer boxes).
//
// The stamp and the box test are computed without branches and folded
// into one branch that is rarely taken: branches on them are mispredicted
// half the time, and removing them made queries 1.6 times and the sweep
// 1.5 times faster (CPU time, 10^5 objects all moving).
//
// # Memory
//
// Objects live in slots numbered in the order of their lowest cells (a
// radix sort at every bulk change and whenever half the objects have
// changed lowest cell since), and queries and updates run in that order,
// so that the objects of a cell, and of the next cell, are neighbours in
// memory; queries ran 1.5 times faster than in the order of random ids. What a query reads of an object is one cache line. The cells'
// lists come from a small allocator of blocks recycled by size, so in
// steady state Pairs allocates nothing.
//
// # Performance
//
// On one core of the development machine (Go 1.26, a 2-core Xeon shared
// with other jobs), with boxes of edge 0.5 to 1.5 at one per 8 unit³ in a
// cube, each taking a Brownian step of 0.01 per axis (BenchmarkPairs,
// medians of 5 runs while two other processes kept both cores busy; a step
// is the Move calls and Pairs):
//
//	objects   100% moving   10% moving
//	10^3       147 µs        18 µs
//	10^4       1.8 ms       0.25 ms
//	10^5        23 ms        5.0 ms
//
// On a quiet machine the same steps took 96 µs, 1.1 ms and 12.5 ms (100%)
// and 12 µs, 0.15 ms and 2.7 ms (10%); at 10^5 all moving, 3 ms of a step
// are the Move calls (each writes its object's slot, which is random in
// memory for ids random in space). Inserting 10^5 objects at once and
// reporting their pairs takes 60 to 100 ms. Pairs allocates nothing in
// steady state.
// A Phase is not safe for concurrent use.
package grid
