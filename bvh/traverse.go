package bvh

import "math"

//go:generate go run ./internal/specialize/cmd/specialize -in traverse.go -func run,traverse,track,raise,nearest,probe -out traverse_gen.go -import github.com/collide3d/collide/bv -import github.com/collide3d/collide/geom -copies kind_*.go -switch "collideKind(env, fly *Tree, pose geom.Pose, o request, s *Scratch, fn func(Pair) bool) Stats|env.impl"

// This file is the one traversal of every query: the simultaneous descent
// of an environment tree and a flying tree. Each kind of tree supplies the
// operations of pairOps in its own file (kind_*.go); traverse is written
// once, against that interface, and go generate copies it for each kind
// with the interface's methods called directly (traverse_gen.go, made by
// internal/specialize from the //specialize:copy line of each kind's
// file, kind_*.go, with collideKind, the switch that sends Collide's
// queries to them, from their //specialize:case lines), because a method
// called through a type parameter is not inlined, nor even called
// directly: BenchmarkWalk runs 25% (OBB, RSS trees) to 70% (6-DOPs)
// slower through the generic function than through its copies. TestGenerated checks that the copies are up to date,
// and TestGenericWalk that both walk alike.
//
// The descent is depth first, on an explicit stack of node pairs. For each
// pair it tests the two volumes (or, for the kinds that test leaves'
// triangles directly, a leaf's triangles against the other volume, and two
// leaves not at all); if they overlap, it tests the triangles of two
// leaves, or replaces the pair by the pairs of one node's children: the
// environment's if the flying node is a leaf or the kind says so
// (envFirst), else the flying node's.
//
// Every query is a mode of this walk (mode.go, stored once in the query's
// tester): run switches on it. Collide's modes walk from the roots
// (traverse), testing the pairs of leaves for contact, the first or all
// (the tester stops), exactly or within a tolerance (the kind's volume
// tests pad for it); modeRestart is the restart variant of Klosowski et
// al. (walk.restarts); modeBudget and modeResume walk in chunks of a
// budget (walk.budget); modeFront starts from the pairs the last query of
// the pair ended at and records where it ends (track, walk.front). The
// other entry points are modes too: a distance query searches the pairs
// best first, by the Euclidean bound lowerBound proves, and drops the
// pairs proved no nearer than the best distance so far (nearest,
// walk.dist); a continuous query's search (modeSweep) and
// the near search (modeNear) walk from the roots and hand the triangles of
// the leaves they reach to the tester's sweep or callback instead of
// testing them.

// pairOps is what the traversal asks of a kind of tree: one query's view of
// an environment tree and a flying tree of that kind. Nodes are int32
// indices, each tree's root 0, their children what ekids and fkids say (a
// kind's own layout: depth first for k-DOPs, internal nodes first for the
// kinds without leaf volumes, see vtree). X is
// what the walk carries with each pair of nodes besides their indices:
// noFrame for every kind but box-trees, whose boxes are derived from the
// cuts on the way down.
type pairOps[X any] interface {
	// overlap tests the volumes of environment node e and flying node f,
	// the latter at the query's pose, in the frame x, padded by the
	// tolerance and the rounding; false means they are disjoint. It is
	// sep's verdict (false exactly when sep > 0, for the pairs the walk
	// gives it), written next to sep in each kind's file as the walk's
	// fast path: a separation tries every axis where a test stops at the
	// first that separates.
	overlap(e, f int32, x *X) bool
	// stale reports whether flying node f's volume is not at the query's
	// pose yet (for the kinds that move their volumes lazily; k-DOPs
	// re-bound them in fsplit, and a seeded walk of k-DOPs tumbles its
	// seeds first); the walk then updates it.
	stale(f int32) bool
	// eref returns a negative number if environment node e is a leaf,
	// else a number x ≥ 0 from which ekids(e, x) tells its children (for
	// the kinds laid out depth first, the offset of its right child: the
	// walk then keeps one number per node, not two).
	eref(e int32) int32
	ekids(e, x int32) (l, r int32)
	// fkids returns flying node f's children, or l < 0 if f is a leaf.
	fkids(f int32) (l, r int32)
	// envFirst reports, for two internal nodes that overlap, whether to
	// descend the environment's.
	envFirst(e, f int32, x *X) bool
	// deeper reports whether environment node a, a child of a node that
	// overlaps flying node f, is likely to overlap f more deeply than its
	// sibling b, by a cheap measure (the distance of their centres): a
	// first-contact query descends it first. False keeps the layout's
	// order.
	deeper(a, b, f int32) bool
	// esplit and fsplit narrow l and r, each the frame of the pair of e
	// (f) with the other node, to the frames of the pairs of e's (f's) left
	// and right children with the other node; eroot sets x, the frame of a
	// pair, to that of the environment's root with the same flying node.
	// Kinds that re-bound the flying volumes for the pose (k-DOPs) do so
	// for both of f's children in fsplit, and count the updates.
	esplit(e int32, l, r *X)
	fsplit(f int32, l, r *X)
	eroot(x *X)
	// ejoin sets x to the frame of the pair of the parent of the
	// environment nodes of the frames l and r with their flying node (the
	// inverse of esplit); fjoin likewise for flying nodes. Fronts raise
	// pairs with them.
	ejoin(l, r, x *X)
	fjoin(l, r, x *X)
	// leafTests reports whether the kind tests the triangles of a leaf
	// directly against the other tree's volume (OPCODE's "no-leaf" trees):
	// a pair with one leaf is then tested by envLeaf or flyLeaf rather
	// than overlap, and a pair of two leaves goes straight to leaves, its
	// triangles being tested exactly anyway. It is a constant of the kind.
	leafTests() bool
	// envLeaf tests the triangles of environment leaf e against flying
	// node f's volume, flyLeaf environment node e's volume against the
	// triangles of flying leaf f; false means they are disjoint. Neither
	// needs f's volume at the pose (envLeaf maps e's triangles into the
	// flying model's coordinates instead).
	envLeaf(e, f int32) bool
	flyLeaf(e, f int32) bool
	// update computes flying node f's volume for the query's pose (for
	// kinds whose flying volumes are moved or re-bounded; others do
	// nothing). The walk calls it when stale says so, k-DOPs in fsplit;
	// the cost probes call it directly.
	update(f int32)
	// leaves tests the triangles of environment leaf e against those of
	// flying leaf f, reporting the pairs in contact to the tester.
	leaves(e, f int32)
	// base returns the query's tester: its statistics and stop flag; state
	// returns its walk.
	base() *tester
	state() *walk[X]
	// sep returns a lower bound g, proved with the rounding, on how much
	// farther apart than the query's tolerance the triangles below e and f
	// are: every environment triangle below e is farther than eps + g from
	// every flying triangle below f at the pose (in the sense of
	// geom.TriTriWithin); g ≤ 0 proves nothing. It takes any pair, leaves
	// included, with f's volume at the pose (ready). See sep.go, and each
	// kind's sep next to its overlap.
	sep(e, f int32, x *X) float64
	// lowerBound returns a lower bound, proved with the rounding, on the
	// Euclidean distance between the triangles below e and f: every
	// environment triangle below e is at least that far from every flying
	// triangle below f at the pose (as tester.flyTriangle computes it),
	// ignoring the query's tolerance (distance queries have none); ≤ 0
	// proves nothing. It takes any pair, leaves included, with f's volume
	// at the pose (ready), and is at least sep's bound at tolerance 0
	// (the largest of valid bounds is valid): where sep bounds the gap
	// along one axis, lowerBound combines gaps along several, or measures
	// the distance of the volumes. The distance search orders and prunes
	// its pairs by it. See sep.go, and each kind's lowerBound next to
	// its sep.
	lowerBound(e, f int32, x *X) float64
	// ready puts flying node f's volume at the query's pose, if it is not
	// there yet (a walk seeded with other pairs than the roots' readies
	// its seeds).
	ready(f int32)
	// tris returns the triangles of environment leaf e and flying leaf f.
	tris(e, f int32) (et, ft []int32)
}

// noFrame is the frame of kinds that need none.
type noFrame struct{}

// item is a pair of nodes waiting on the stack, with its frame.
type item[X any] struct {
	e, f int32
	x    X
}

// walk is the state of one traversal: its stack (on entry, the pairs to
// start from; the root pair for a query from scratch; on exit, the pairs
// left untested when the tester stopped it or its budget ran out), and the
// state of the modes that keep one (see mode.go), each in its own struct.
// The query's mode itself is the tester's (tester.mode).
type walk[X any] struct {
	stack []item[X]
	// restarts is embedded: each kind's scratch sizes restarted for its
	// flying tree and stamps cur, whatever the mode.
	restarts
	front  frontWalk[X]
	budget budgetWalk
	dist   distWalk[X]
}

// restarts is the state of modeRestart, the variant that, when an internal
// flying node meets an environment leaf, tests its children against the
// environment's root rather than against that leaf, and abandons the
// node's other pairs: restarted[f] == cur marks the flying nodes so
// abandoned (cur is the query's stamp, which each kind's scratch sets).
// The variant descends the environment first whatever the kind (a flying
// node split elsewhere too would meet the environment twice).
type restarts struct {
	restarted []uint32
	cur       uint32
}

// frontWalk is the state of modeFront (see front.go): the front the query
// starts from and leaves (fs), and what track asks traverse to record.
type frontWalk[X any] struct {
	fs *frontState[X]
	// record makes traverse append to out the pairs it ends at: those
	// whose volumes were disjoint, with the bound sep proved (at the
	// flying model's motion moved), and those of two leaves.
	record bool
	out    []fentry[X]
	moved  float64
	// lastMove bounds the flying model's motion since the last query of
	// the front.
	lastMove float64
}

// budgetWalk is the state of modeBudget and modeResume (see budget.go):
// the query's budget, whose rest and pending pairs go to a Pending, and
// limit, the most pairs traverse tests before it stops, leaving the rest
// on the stack, and which it lowers by the pairs it tested (noLimit for
// none: every other mode).
type budgetWalk struct {
	bud   *budget
	limit int64
}

// distWalk is the state of modeDistance (see distance.go): the best
// distance so far and its witnesses (d), and the search's queue of pairs
// with their lower bounds.
type distWalk[X any] struct {
	d     *distState
	queue distQueue[X]
}

// noLimit is the limit of a walk without a budget.
const noLimit = math.MaxInt64

// run runs the query p from the pairs on its walk's stack to its end, as
// its mode says, and returns its statistics.
func run[X any, P pairOps[X]](p P) Stats {
	w := p.state()
	t := p.base()
	switch t.mode {
	case modeDistance:
		nearest(p, w)
	case modeFront:
		track(p, w)
	case modeResume, modeBudget:
		if t.mode == modeResume {
			// The stack holds other pairs than the roots': their flying
			// volumes are readied first.
			for _, it := range w.stack {
				p.ready(it.f)
			}
		}
		b := &w.budget
		for {
			b.limit = b.bud.chunk()
			n := b.limit
			traverse(p, w)
			if b.bud.spend(n-b.limit) || len(w.stack) == 0 || t.stop {
				break
			}
		}
		keep(b.bud.pend, w.stack, t.stop)
	default: // modeContact, modeRestart, modeSweep, modeNear
		if t.tryHint() {
			break
		}
		traverse(p, w)
	}
	return t.st
}

// traverse runs the walk w of the query p to its end (or until the tester
// stops). A pair is tested where it lies on the stack, and replaced there
// by its first child pair, the second pushed after it: a frame is copied
// once per pair of children.
func traverse[X any, P pairOps[X]](p P, w *walk[X]) {
	t := p.base()
	stack := w.stack
	restart, record := t.mode == modeRestart, w.front.record
	first := t.mode == modeContact && !t.all
	left := w.budget.limit
	for len(stack) > 0 && !t.stop {
		if left--; left < 0 {
			break
		}
		top := len(stack) - 1
		it := &stack[top]
		e, f := it.e, it.f
		if restart && w.restarted[f] == w.cur {
			stack = stack[:top]
			continue
		}
		er := p.eref(e)
		fl, fr := p.fkids(f)
		var hit bool
		switch {
		case !p.leafTests() || er >= 0 && fl >= 0:
			t.st.BVTests++
			if p.stale(f) {
				p.update(f)
			}
			hit = p.overlap(e, f, &it.x)
		case er < 0 && fl < 0:
			hit = true
		case er < 0:
			t.st.LeafTests++
			hit = p.envLeaf(e, f)
		default:
			t.st.LeafTests++
			hit = p.flyLeaf(e, f)
		}
		if !hit {
			if record {
				low := noBound
				if g := p.sep(e, f, &it.x); g > 0 {
					low = lowOf(t.eps, g)
				}
				w.front.out = append(w.front.out, fentry[X]{*it, low, w.front.moved})
			}
			stack = stack[:top]
			continue
		}
		switch {
		case fl < 0 && er < 0:
			if record {
				w.front.out = append(w.front.out, fentry[X]{item: *it, at: w.front.moved})
			}
			stack = stack[:top]
			p.leaves(e, f)
		case er >= 0 && (fl < 0 || restart || p.envFirst(e, f, &it.x)):
			stack = append(stack, *it)
			l, r := p.ekids(e, er)
			// a is tested next, b after it.
			a, b := &stack[top+1], &stack[top]
			if first && p.deeper(r, l, f) {
				a, b = b, a
			}
			a.e, b.e = l, r
			p.esplit(e, &a.x, &b.x)
		case er < 0 && restart:
			w.restarted[f] = w.cur
			stack = append(stack, *it)
			stack[top].e, stack[top].f = 0, fr
			stack[top+1].e, stack[top+1].f = 0, fl
			p.fsplit(f, &stack[top+1].x, &stack[top].x)
			p.eroot(&stack[top].x)
			p.eroot(&stack[top+1].x)
		default:
			stack = append(stack, *it)
			stack[top].f, stack[top+1].f = fr, fl
			p.fsplit(f, &stack[top+1].x, &stack[top].x)
		}
	}
	w.stack = stack
	if w.budget.limit != noLimit {
		w.budget.limit = max(left, 0)
	}
}

// track runs the query p from the front w.front.fs instead of the roots (see
// front.go) and leaves the new front there. Each pair of the old front is
// kept without a test while the flying model has moved less than the
// distance its triangles were proved apart; tested again otherwise (by
// sep, whose bound it keeps), and kept if still disjoint, raised with its
// sibling when both are far, or else dropped: split at once (or its
// leaves tested) and walked from, the walk recording its end pairs in its
// place. A first-contact query starts at the pair of leaves of the last
// contact, and when it stops, the pairs it has not tested stay in the
// front as they were. A front that costs more than a walk from the roots
// is dropped whole: the next query walks from the roots (see
// frontState.restart; its volume tests count twice, sep weighing every
// axis).
func track[X any, P pairOps[X]](p P, w *walk[X]) {
	t := p.base()
	fw := &w.front
	fs := fw.fs
	tests := t.st.BVTests + t.st.LeafTests
	old, next := fs.items, fs.next[:0]
	fromRoots := fs.restart
	if fromRoots {
		old = append(old[:0], fentry[X]{item: fs.root})
		fs.restart, fs.hint = false, -1
	}
	n := len(old)
	start := 0
	if !t.all && fs.hint > 0 && fs.hint < n {
		start = fs.hint
	}
	fs.hint = -1
	moved, eps := fw.moved, t.eps
	leafTests := p.leafTests()
	// Raising: an entry tested disjoint in this query may join the one
	// before it, if they are siblings, and the pair so raised the one
	// before it in turn; the entries before index merged are not raised
	// (those a walk of this query has just recorded, and the pairs left
	// for later in a first-contact query).
	merged := 0
	for k := range n {
		i := start + k
		if i >= n {
			i -= n
		}
		en := &old[i]
		if t.stop {
			next = append(next, *en)
			continue
		}
		if keeps(en.low, en.at, moved, eps) {
			t.st.Skipped++
			next = append(next, *en)
			continue
		}
		e, f := en.e, en.f
		er := p.eref(e)
		fl, fr := p.fkids(f)
		leafPair := leafTests && (er < 0 || fl < 0)
		if leafPair {
			t.st.LeafTests++
		} else {
			t.st.BVTests++
		}
		p.ready(f)
		// A near pair (its last bound no more than the last motion, or
		// none: a pair of leaves, or one tested near already) would
		// most likely be tested again at the next query whatever sep
		// proved: the walk's own test, which stops at the first axis
		// that separates (for a leaf's triangles against a volume, the
		// kind's leaf test, which sep would often have to call after
		// it), decides it instead, nearTests queries in a row at most,
		// then sep measures it again. Two leaves of the kinds that test
		// leaves' triangles directly have no such test: sep (the gap of
		// their triangles' boxes) still decides them. (Within twice the
		// last motion, BenchmarkSceneFrontCPU's fronts made 2% more
		// tests, for pairs sep would have kept, and were no faster.)
		streak := 0.0
		if en.low <= nearMark {
			streak = nearMark - en.low + 1
		}
		near := (!leafPair || er >= 0 || fl >= 0) && streak < nearTests && (streak > 0 || en.low >= 0 && en.low-eps <= fw.lastMove)
		switch {
		case near:
			hit := false
			switch {
			case !leafPair:
				hit = p.overlap(e, f, &en.x)
			case er < 0:
				hit = p.envLeaf(e, f)
			default:
				hit = p.flyLeaf(e, f)
			}
			if !hit {
				next = append(next, fentry[X]{en.item, nearMark - streak, moved})
				continue
			}
		case en.low == noBound && (!leafTests || er >= 0 || fl >= 0):
			// Proved disjoint by the walk's own test, but not by sep:
			// that test again, which stops at the first axis that
			// separates.
			hit := false
			switch {
			case !leafPair:
				hit = p.overlap(e, f, &en.x)
			case er < 0:
				hit = p.envLeaf(e, f)
			default:
				hit = p.flyLeaf(e, f)
			}
			if !hit {
				next = append(next, fentry[X]{en.item, noBound, moved})
				next = raise(p, fs, next, merged, eps, fw.lastMove, moved)
				continue
			}
		default:
			if g := p.sep(e, f, &en.x); g > 0 {
				next = append(next, fentry[X]{en.item, lowOf(eps, g), moved})
				next = raise(p, fs, next, merged, eps, fw.lastMove, moved)
				continue
			}
			// The pair may overlap. sep's verdict is the walk's own
			// test's but where a leaf's triangles meet a volume (sep
			// tries three of the test's axes): the test then decides.
			if leafPair && (er >= 0 || fl >= 0) {
				t.st.LeafTests++
				hit := false
				if er < 0 {
					hit = p.envLeaf(e, f)
				} else {
					hit = p.flyLeaf(e, f)
				}
				if !hit {
					next = append(next, fentry[X]{en.item, noBound, moved})
					next = raise(p, fs, next, merged, eps, fw.lastMove, moved)
					continue
				}
			}
		}
		// Drop it: test its leaves, or split it as the walk would and
		// walk from its children, recording where the walk ends.
		fw.out, fw.record = next, true
		w.stack = append(w.stack[:0], en.item)
		it := &w.stack[0]
		switch {
		case er < 0 && fl < 0:
			w.stack = w.stack[:0]
			fw.out = append(fw.out, fentry[X]{item: en.item, at: moved})
			p.leaves(e, f)
		case er >= 0 && (fl < 0 || p.envFirst(e, f, &it.x)):
			w.stack = append(w.stack, *it)
			l, r := p.ekids(e, er)
			w.stack[0].e, w.stack[1].e = r, l
			p.esplit(e, &w.stack[1].x, &w.stack[0].x)
		default:
			w.stack = append(w.stack, *it)
			w.stack[0].f, w.stack[1].f = fr, fl
			p.fsplit(f, &w.stack[1].x, &w.stack[0].x)
		}
		traverse(p, w)
		next = fw.out
		if t.stop {
			// The contact is in the last pair of leaves recorded; the
			// pairs the walk left go into the front untested.
			fs.hint = len(next) - 1
			for _, it := range w.stack {
				next = append(next, fentry[X]{item: it, at: moved})
			}
			w.stack = w.stack[:0]
		}
		merged = len(next)
	}
	fw.record = false
	fs.items, fs.next = next, old[:0]
	// What the front cost against a walk from the roots: a complete walk
	// from the roots sets the reference; a query from the front whose
	// tests, counted twice, with its pairs counted as a test every
	// frontScan, exceed it drops the front (the next query walks from the
	// roots). Counted once (BenchmarkSceneFrontCPU), fronts on the quick
	// swept, 747 and interior flights made up to 16% more tests and held
	// up to 40% more pairs.
	tests = t.st.BVTests + t.st.LeafTests - tests
	switch {
	case fromRoots:
		if !t.stop {
			fs.fresh = tests
		}
	case fs.fresh > 0 && 2*tests+int64(len(next))/frontScan > fs.fresh:
		fs.restart = true
	}
}

// raise raises the last pair of next with the pair before it (see
// front.go), and the pair so raised with the one before it, while they are
// siblings (a node's two children, each with the same other node), both
// proved farther apart than eps by more than twice the last query's motion
// (lastMove; nearer pairs would be dropped again at once) or disjoint with
// no bound (noBound: a leaf's triangles against a volume, which sep
// measures on fewer axes than the test), and their parent pair is
// disjoint (by sep, or by the walk's test when one of them had no bound);
// no entry before index merged is raised. It returns next.
func raise[X any, P pairOps[X]](p P, fs *frontState[X], next []fentry[X], merged int, eps, lastMove, moved float64) []fentry[X] {
	t := p.base()
	for {
		m := len(next)
		if m-2 < merged {
			return next
		}
		a, b := &next[m-2], &next[m-1]
		far := func(x *fentry[X]) bool { return x.low == noBound || x.low-eps > 2*lastMove }
		if !far(a) || !far(b) {
			return next
		}
		weak := a.low == noBound || b.low == noBound
		var up fentry[X]
		switch {
		case a.f == b.f && a.e != b.e && fs.epar[a.e] == fs.epar[b.e] && fs.epar[a.e] >= 0:
			up.e, up.f = fs.epar[a.e], a.f
			p.ejoin(&a.x, &b.x, &up.x)
		case a.e == b.e && a.f != b.f && fs.fpar[a.f] == fs.fpar[b.f] && fs.fpar[a.f] >= 0:
			up.e, up.f = a.e, fs.fpar[a.f]
			p.fjoin(&a.x, &b.x, &up.x)
		default:
			return next
		}
		er := p.eref(up.e)
		fl, _ := p.fkids(up.f)
		leafPair := p.leafTests() && (er < 0 || fl < 0)
		if leafPair {
			t.st.LeafTests++
		} else {
			t.st.BVTests++
		}
		p.ready(up.f)
		if g := p.sep(up.e, up.f, &up.x); g > 0 {
			up.low = lowOf(eps, g)
		} else {
			if !weak {
				return next
			}
			hit := false
			switch {
			case !leafPair:
				t.st.BVTests++
				hit = p.overlap(up.e, up.f, &up.x)
			case er < 0:
				t.st.LeafTests++
				hit = p.envLeaf(up.e, up.f)
			default:
				t.st.LeafTests++
				hit = p.flyLeaf(up.e, up.f)
			}
			if hit {
				return next
			}
			up.low = noBound
		}
		up.at = moved
		next[m-2] = up
		next = next[:m-1]
	}
}

// nearest runs the distance query p (w.dist.d) best first: from a
// priority queue of pairs of nodes ordered by the lower bound lowerBound
// proves on the distance of their triangles (ties to the newest pair:
// depth first where the volumes overlap), starting at the pair on the
// stack. It takes the first pair; a pair of leaves has its triangles
// measured, any other is split into the pairs of one node's children,
// whose bounds it computes and queues those below the best distance so far
// (less the slack of the computed distances). It ends when the first
// pair's bound is no better than the best distance (every other pair's is
// at least as large), at a contact (distance 0, which nothing beats), or
// when its budget runs out (d.stopped, d.lower the first pair's bound).
func nearest[X any, P pairOps[X]](p P, w *walk[X]) {
	t := p.base()
	d := w.dist.d
	leafTests := p.leafTests()
	q := &w.dist.queue
	q.h, q.seq = q.h[:0], 0
	for _, it := range w.stack {
		q.push(it, 0)
	}
	w.stack = w.stack[:0]
	bu := &d.bud
	n := bu.chunk()
	left := n
	for len(q.h) > 0 {
		c := q.h[0]
		if c.low-d.slack >= d.best {
			break
		}
		if left <= 0 {
			if bu.spend(n - left) {
				d.stopped, d.lower = true, c.low
				break
			}
			n = bu.chunk()
			left = n
		}
		q.pop()
		e, f := c.e, c.f
		er := p.eref(e)
		fl, fr := p.fkids(f)
		if er < 0 && fl < 0 {
			left--
			et, ft := p.tris(e, f)
			t.closest(et, ft, d)
			if d.best == 0 {
				break
			}
			continue
		}
		a, b := c.item, c.item
		if er >= 0 && (fl < 0 || p.envFirst(e, f, &c.x)) {
			a.e, b.e = p.ekids(e, er)
			p.esplit(e, &a.x, &b.x)
			p.ready(f)
		} else {
			a.f, b.f = fl, fr
			p.fsplit(f, &a.x, &b.x)
			p.ready(fl)
			p.ready(fr)
		}
		var lows [2]float64
		for i, x := range [2]*item[X]{&a, &b} {
			if xl, _ := p.fkids(x.f); leafTests && (xl < 0 || p.eref(x.e) < 0) {
				t.st.LeafTests++
			} else {
				t.st.BVTests++
			}
			left--
			lows[i] = max(p.lowerBound(x.e, x.f, &x.x), 0)
		}
		// The nearer pair last, the newer: of equal bounds, the first
		// child is taken first, as Collide takes it.
		if lows[0] > lows[1] {
			a, b = b, a
			lows[0], lows[1] = lows[1], lows[0]
		}
		if lows[1]-d.slack < d.best {
			q.push(b, lows[1])
		}
		if lows[0]-d.slack < d.best {
			q.push(a, lows[0])
		}
	}
	q.h = q.h[:0]
}

// probes is what the cost probes of a query test: the pairs (ia[j], ib[j])
// in the frames xs, after updating the flying nodes all, and the flying
// nodes fs to update.
type probes[X any] struct {
	ia, ib  []int32
	xs      []X
	all, fs []int32
}

// probe returns the cost probes of the query p on ps: cv runs n volume
// tests of the pairs in turn, skipping a pair after each overlap so that
// the outcomes follow no pattern a branch predictor would learn; cu updates
// n flying nodes of ps.fs in turn (nil if there are none).
func probe[X any, P pairOps[X]](p P, ps probes[X]) (cv, cu func(n int)) {
	for _, f := range ps.all {
		p.update(f)
	}
	cv = func(n int) {
		i := 0
		for range n {
			j := i % len(ps.ia)
			if p.overlap(ps.ia[j], ps.ib[j], &ps.xs[j]) {
				i += 2
			} else {
				i++
			}
		}
	}
	if len(ps.fs) > 0 {
		cu = func(n int) {
			for i := range n {
				p.update(ps.fs[i%len(ps.fs)])
			}
		}
	}
	return cv, cu
}
