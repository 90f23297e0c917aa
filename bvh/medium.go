package bvh

import (
	"maps"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/collide3d/collide/geom"
)

// This file is the medium grain of Zachmann's thesis (chapter 6): one
// pair of models tested on two goroutines. His two processes took the two
// directions of his pairwise test (P's edges against Q's faces, Q's
// against P's); ours is one traversal of two trees, whose natural split
// is its pairs of nodes: the walk starts on the caller's goroutine, as a
// budgeted walk (modeBudget) of 128 pairs, and the pairs of nodes it
// leaves on its stack are shared by two workers, the bottom one (about
// half the work: for k-DOP trees, which descend the environment first, one
// child of the environment's root against the flying tree) to one and the
// others to the other (see work), each walking its share to its end as a
// resumed walk (modeResume) in its own Scratch. The early exit is an
// atomic flag (Budget.Stop), set by the worker that finds the first
// contact and looked at by the other every 256 pairs of nodes (the
// thesis's flag was not locked, which Go's memory model does not allow).

// Medium is the state of medium-grain queries (CollideMedium): a scratch
// for each of the two walks and the pairs they share. Like a Scratch, it
// serves one query at a time; the zero value is ready to use.
type Medium struct {
	pd   Pending // the first walk's rest: the pairs the workers share
	w    [2]mediumWorker
	next atomic.Int64 // the next pair of pd to take
	stop atomic.Bool  // set by the worker that stops the query
	n    int          // the pairs of pd
	all  bool         // the query's All
	top  bool         // take them from the top of the stack (first contact)
	// first is the pair a first-contact query reported (found).
	first Pair
	found bool
	// done receives when worker 1, on a helper goroutine, has finished.
	done chan struct{}
	// minItems and firstTests, if > 0, replace mediumItems and
	// mediumFirst; dynamic shares the pairs dynamically (see work). For
	// the tests and measurements.
	minItems, firstTests int
	dynamic              bool
}

// mediumWorker is one of the two walks of a medium-grain query.
type mediumWorker struct {
	s   Scratch
	pd  Pending // the pair being walked
	fn  func(Pair) bool
	hit func(Pair) bool // made once: fn, stopping both walks when it says so
	st  Stats
}

// mediumFirst is the pairs of nodes the first walk tests before it shares
// the rest: a query that ends within them (a small one, or a first contact
// found early) runs on the caller's goroutine alone, where a helper's
// wake-up would cost more than it gains. mediumItems is the least number
// of pairs it leaves for the two workers, and mediumChunk the tests it
// walks on until it does: a depth-first walk's stack holds pairs of
// decreasing size, about half the work in its bottom pair, so that a few
// of them are enough for two workers to balance.
const (
	mediumFirst = 128
	mediumItems = 8
	mediumChunk = 16
)

// CollideMedium is Collide on two goroutines (Zachmann's medium grain):
// the same pairs, each reported once but for box-trees, whose leaves share
// triangles (a pair may then be reported by both walks, and the caller
// drops the repeats); in first-contact mode one pair in contact, the one
// that either walk found first (not necessarily the one Collide finds).
// fn[0] is called on the caller's goroutine, fn[1] on another (each by
// one goroutine at a time); either returns false to stop the query. The
// statistics are the sum of both walks' (each re-bounds or moves the
// flying volumes it needs: Updates may exceed Collide's).
//
// The walk starts on the caller's goroutine; a query that ends within its
// first 128 pairs of nodes, or one with a Front, a Budget or Restart, runs
// there alone (fn[0]), as Collide. A first-contact query with a State
// tests the pair's last contact first and keeps the one it finds, as
// Collide does. The second goroutine is one of a few helpers kept by the
// package; when none is free (other medium-grain queries hold them), the
// caller walks both halves itself.
func CollideMedium(env, fly *Tree, pose geom.Pose, o QueryOptions, m *Medium, fn [2]func(Pair) bool) Stats {
	if o.Front != nil || o.Restart || !o.Budget.IsZero() || o.Pending != nil {
		return Collide(env, fly, pose, o, &m.w[0].s, fn[0])
	}
	if !SameKind(env, fly) || env.impl.len() == 0 || fly.impl.len() == 0 {
		return Collide(env, fly, pose, o, &m.w[0].s, fn[0])
	}
	m.stop.Store(false)
	m.all, m.found = o.All, false
	if !o.All && o.State != nil && m.tryHint(env, fly, &pose, o, fn[0]) {
		return Stats{TriTests: 1}
	}
	w0 := &m.w[0]
	w0.fn = fn[0]
	if w0.hit == nil {
		w0.hit = m.hitFn(0)
		m.w[1].hit = m.hitFn(1)
	}
	// The first walk, on the caller's goroutine, until it leaves enough
	// pairs (or ends).
	least := m.minItems
	if least <= 0 {
		least = mediumItems
	}
	po := o
	first := int64(m.firstTests)
	if first <= 0 {
		first = mediumFirst
	}
	po.Budget, po.Pending = Budget{Tests: first}, &m.pd
	st := collide(env, fly, pose, po.request(), &w0.s, w0.hit)
	for !m.pd.Done() && m.pd.Left() < least && !m.stop.Load() {
		st.Add(m.pd.Resume(&w0.s, Budget{Tests: mediumChunk}, w0.hit))
	}
	if m.pd.Done() || m.stop.Load() {
		m.keepHint(env, fly, o)
		return st
	}
	// The two workers share the pairs left.
	m.w[1].fn = fn[1]
	m.n, m.top = m.pd.Left(), !o.All
	m.next.Store(0)
	for i := range m.w {
		wk := &m.w[i]
		wk.st = Stats{}
		if wk.pd.seen == nil {
			wk.pd.seen = map[Pair]struct{}{}
		}
		clear(wk.pd.seen)
		maps.Copy(wk.pd.seen, m.pd.seen)
	}
	if m.done == nil {
		m.done = make(chan struct{}, 1)
	}
	helped := false
	startHelpers()
	select {
	case helpers <- m:
		helped = true
	default:
	}
	m.work(0)
	if helped {
		<-m.done
	} else {
		m.work(1)
	}
	st.Add(m.w[0].st)
	st.Add(m.w[1].st)
	m.w[0].fn, m.w[1].fn = nil, nil
	m.keepHint(env, fly, o)
	return st
}

// tryHint tests the pair of triangles the last first contact of env and
// fly found (o.State's, see PairState), as a sequential query does before
// it walks, and reports whether it is in contact (reported to fn).
func (m *Medium) tryHint(env, fly *Tree, pose *geom.Pose, o QueryOptions, fn func(Pair) bool) bool {
	h := o.State.hintFor(env, fly)
	if !h.ok {
		return false
	}
	a := env.mesh.Triangle(int(h.p.Env))
	b := fly.mesh.Triangle(int(h.p.Fly))
	if !pose.IsIdentity() {
		// As the tester places a flying vertex: Pose.Apply.
		b = geom.Triangle{pose.Apply(b[0]), pose.Apply(b[1]), pose.Apply(b[2])}
	}
	hit := false
	if o.Eps == 0 {
		hit = geom.TriTri(a, b)
	} else {
		hit = geom.TriTriWithin(a, b, o.Eps)
	}
	if hit {
		fn(h.p)
	}
	return hit
}

// keepHint records the pair a first-contact query found in its State, for
// the next query's tryHint.
func (m *Medium) keepHint(env, fly *Tree, o QueryOptions) {
	if m.found && o.State != nil {
		h := o.State.hintFor(env, fly)
		h.p, h.ok = m.first, true
	}
}

// hitFn returns worker i's callback: the caller's, then, when it says
// stop, the flag that stops the other walk. In first-contact mode the walk
// that sets the flag first reports its pair, and the other none.
func (m *Medium) hitFn(i int) func(Pair) bool {
	wk := &m.w[i]
	return func(p Pair) bool {
		if m.stop.Load() {
			return false
		}
		if !m.all {
			if m.stop.CompareAndSwap(false, true) {
				m.first, m.found = p, true
				wk.fn(p)
			}
			return false
		}
		if !wk.fn(p) {
			m.stop.Store(true)
			return false
		}
		return true
	}
}

// work is worker i's walk. Statically (the default), worker 0 walks the
// bottom pair of m.pd's stack and worker 1 the others, each in one walk:
// a depth-first walk's stack holds pairs of halving size, so each has
// about half the work, and a walk re-bounds each flying node it needs
// once (a k-DOP tree's flying nodes are re-bounded once per walk: a
// worker taking the pairs one at a time, as m.dynamic has it, re-bounded
// the flying tree for each, since most pairs of a walk that descends the
// environment first share its flying root). Dynamically, each worker
// takes the next pair as it goes and walks it, until none is left or the
// query stops.
func (m *Medium) work(i int) {
	wk := &m.w[i]
	if !m.dynamic {
		lo, hi := 0, 1
		if i == 1 {
			lo, hi = 1, m.n
		}
		if lo < hi {
			m.pd.pass(&wk.pd, lo, hi)
			wk.st.Add(wk.pd.Resume(&wk.s, Budget{Stop: &m.stop}, wk.hit))
		}
		return
	}
	for !m.stop.Load() {
		j := int(m.next.Add(1)) - 1
		if j >= m.n {
			return
		}
		if m.top {
			j = m.n - 1 - j // the top of the stack: the pairs a walk would take next
		}
		m.pd.pass(&wk.pd, j, j+1)
		wk.st.Add(wk.pd.Resume(&wk.s, Budget{Stop: &m.stop}, wk.hit))
	}
}

// pass makes to hold the pairs [lo, hi) that pd has left, and only them,
// with pd's query and to's own set of pairs reported (box-trees).
func (pd *Pending) pass(to *Pending, lo, hi int) {
	seen := to.seen
	items := to.items
	*to = Pending{env: pd.env, fly: pd.fly, pose: pd.pose, o: pd.o, items: items, n: hi - lo, seen: seen}
	switch s := pd.items.(type) {
	case *[]item[noFrame]:
		to.items = passItems(to.items, (*s)[lo:hi])
	case *[]item[boxFrame]:
		to.items = passItems(to.items, (*s)[lo:hi])
	default:
		panic("bvh: a Pending of an unknown kind of pairs")
	}
	// The resumed walk climbs with the caller's State (ExactRoot), which
	// two walks must not share: the workers climb afresh.
	to.o.State = nil
}

// passItems returns items (a *[]item[X], or nil) holding its alone,
// reusing its array.
func passItems[X any](items any, its []item[X]) any {
	s, ok := items.(*[]item[X])
	if !ok {
		s = new([]item[X])
		items = s
	}
	*s = append((*s)[:0], its...)
	return items
}

// helpers carries medium-grain queries to the helper goroutines, which
// run their worker 1; a send succeeds only when a helper is waiting.
var (
	helpers     = make(chan *Medium)
	helpersOnce sync.Once
)

// startHelpers starts the helper goroutines, once: one per CPU, each
// waiting for a query (they live as long as the program, idle between
// queries, as a pool's workers do).
func startHelpers() {
	helpersOnce.Do(func() {
		for range max(1, runtime.GOMAXPROCS(0)) {
			go func() {
				for m := range helpers {
					m.work(1)
					m.done <- struct{}{}
				}
			}()
		}
	})
}
