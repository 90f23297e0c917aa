package world

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"iter"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/geom"
)

// StepStats counts the work of one Step and times its phases.
type StepStats struct {
	Step       int64 // the step's number, from 1 (0: nothing changed, nothing done)
	Moved      int   // objects re-bounded (moved or added)
	Candidates int   // pairs of overlapping boxes from the broad phase
	Tested     int   // interesting candidates tested exactly
	Contacts   int   // pairs in contact after the step
	Began      int   // pairs that started touching
	Kept       int   // pairs tested again that still touch
	Ended      int   // pairs that stopped touching or lost an object
	Pairs      int   // triangle pairs reported by the pairs tested (one per pair in contact unless Options.All)
	Fronts     int   // pairs tested from their front (Options.Fronts)
	// Query sums the counts of the exact tests (Nv, Np, Nu, Nl).
	Query collide.Stats
	// The phases' wall-clock times: bounding the moved objects, the broad
	// phase (its update with their boxes, its pairs, the interest filter
	// and the sort of the pairs), the exact tests, and the update of the
	// contacts with the callbacks.
	Bound, Broad, Narrow, Update time.Duration
}

// contact is a Contact in the world's table.
type contact struct {
	Contact
	live bool
}

// cand is a candidate pair: its key (A << 32 | B).
type cand = uint64

// result is the exact test of one candidate.
type result struct {
	hit    bool
	in     Inside
	worker int32
	off, n int32
}

// event is a callback to make: kind 'b', 'k' or 'e' for a contact.
type event struct {
	key  uint64
	kind byte
	idx  int32
}

// worker is one goroutine's state for the exact tests.
type worker struct {
	q     collide.Query
	buf   []collide.Pair
	fn    func(collide.Pair) bool
	stats collide.Stats
	err   error
}

func newWorker() *worker {
	wk := &worker{}
	wk.fn = func(p collide.Pair) bool { wk.buf = append(wk.buf, p); return true }
	return wk
}

// narrow is the state of the exact tests of a step.
type narrow struct {
	workers []*worker
	cands   []cand
	fr      []*collide.Front // the candidates' fronts (nil: none)
	pl      []*collide.Plane // the candidates' planes (nil: none)
	tmp     []cand           // the radix sort's scratch
	res     []result
	events  []event
	moved   []ID    // the other moved buffer
	prev    []int64 // the moved objects' stepped before the step (rollback)
	next    atomic.Int64
	// done is the step's context's Done channel (nil: it cannot be
	// cancelled), looked at by the workers between two pairs.
	done <-chan struct{}
	// tested, if not nil, is called after each pair's exact test, on the
	// worker's goroutine (tests: a context cancelled after k pairs).
	tested func()
	// pairFn takes the broad phase's pairs (made once: a closure made in
	// Step would put the step's stats on the heap, an allocation a step);
	// ncand counts them.
	pairFn func(a, b int32) bool
	ncand  int
	// medium says that the step tests its pairs one at a time, each on
	// two goroutines (Options.Medium).
	medium bool
}

// Step re-bounds the objects moved or added since the last Step, finds the
// pairs whose boxes overlap, tests the interesting ones exactly, updates the
// contacts and makes the callbacks (see the package documentation). With
// nothing changed it does nothing and returns zero stats (but Contacts).
// It is StepContext with a context that is never done.
func (w *World) Step() (StepStats, error) { return w.StepContext(context.Background()) }

// StepContext is Step, stopped when ctx is done. The context is looked at
// when the step starts and then between two pairs of objects of the exact
// tests (the long part of a step; a pair's test, once begun, runs to its
// end). A step stopped so is abandoned as a whole: no callback is made,
// the contacts are those of the last complete step, the step's number is
// not used up, and the objects moved, added or removed since that step
// are still to be stepped, so that the next Step or StepContext does the
// step again (with any changes made in between) and finds the contacts
// that a world never stopped finds. The error then wraps ctx.Err()
// (errors.Is(err, context.Canceled) or context.DeadlineExceeded) and the
// stats are zero. The callbacks run on the goroutine that called
// StepContext, after the exact tests, and are not stopped by ctx.
func (w *World) StepContext(ctx context.Context) (StepStats, error) {
	var st StepStats
	if w.inStep {
		return st, ErrInStep
	}
	if err := ctx.Err(); err != nil {
		return st, fmt.Errorf("world: step %d not begun: %w", w.step+1, err)
	}
	if len(w.moved) == 0 && len(w.freeing) == 0 && len(w.ended) == 0 {
		st.Contacts = len(w.contacts)
		return st, nil
	}
	w.step++
	st.Step = w.step
	nw := &w.narrow
	nw.done = ctx.Done()

	// Bound the moved objects; update the broad phase with them.
	t0 := time.Now()
	moved := w.moved
	w.moved, nw.moved = nw.moved[:0], moved
	w.boundAll(moved)
	t1 := time.Now()
	st.Bound = t1.Sub(t0)
	nw.prev = nw.prev[:0]
	for _, id := range moved {
		ob := &w.objs[id]
		nw.prev = append(nw.prev, ob.stepped)
		if !ob.present {
			continue
		}
		if ob.stepped != -1 {
			w.phase.Move(int32(id), ob.box)
		}
		ob.stepped = w.step
		if w.spheres != nil && !ob.static {
			w.spheres.SetSpheres(int32(id), w.sphereBounds(ob, w.opts.SphereLevel))
		}
		if w.dops != nil {
			w.setDOP(id, ob)
		}
		st.Moved++
	}

	// The broad phase's pairs, the interesting ones, ascending.
	nw.cands = nw.cands[:0]
	if nw.pairFn == nil {
		nw.pairFn = func(a, b int32) bool {
			nw.ncand++
			// Never two static objects, whatever the broad phase says.
			if !(w.objs[a].static && w.objs[b].static) && w.wants(ID(a), ID(b)) {
				nw.cands = append(nw.cands, pairKey(ID(a), ID(b)))
			}
			return true
		}
	}
	nw.ncand = 0
	w.phase.Pairs(nw.pairFn)
	st.Candidates = nw.ncand
	nw.tmp = sortKeys(nw.cands, nw.tmp, ID(len(w.objs)))
	t2 := time.Now()
	st.Broad = t2.Sub(t1)

	// The exact tests.
	st.Tested = len(nw.cands)
	nw.medium = w.opts.Medium && w.opts.Workers > 1 && len(nw.cands) < w.opts.Workers
	w.attachFronts(&st)
	w.attachPlanes()
	err := w.testAll(&st)
	nw.done = nil
	if err != nil {
		w.rollback(moved)
		if err == errStopped {
			return StepStats{}, fmt.Errorf("world: step %d abandoned: %w", w.step+1, ctx.Err())
		}
		return StepStats{}, err
	}
	w.dropFronts()
	w.dropPlanes()
	t3 := time.Now()
	st.Narrow = t3.Sub(t2)

	w.update(&st)
	st.Contacts = len(w.contacts)
	st.Update = time.Since(t3)
	return st, nil
}

// stopped reports whether the step's context is done, setting the
// worker's error: between two pairs, a receive that does not block (a few
// ns beside a pair's test).
func (nw *narrow) stopped(wk *worker) bool {
	if nw.done == nil {
		return false
	}
	select {
	case <-nw.done:
		wk.err = errStopped
		return true
	default:
		return false
	}
}

// errStopped is a worker's error when the step's context is done.
var errStopped = errors.New("world: step stopped")

// rollback undoes what a step abandoned during its exact tests did to the
// world (the contacts and the callbacks are untouched until the tests end):
// the step's number is given back, and the objects it re-bounded are put
// back in the moved buffer with their step of last bound, each marked
// moved again in the broad phase (whose Pairs took the marks), so that
// the next step tests them again. Their boxes, computed at their poses,
// stand; the fronts the tests moved stay valid (a front gives the same
// pairs from anywhere).
func (w *World) rollback(moved []ID) {
	nw := &w.narrow
	for i, id := range moved {
		ob := &w.objs[id]
		if !ob.present {
			continue
		}
		ob.stepped = nw.prev[i]
		w.phase.Move(int32(id), ob.box)
		w.markMoved(id)
	}
	w.step--
}

// parallelBound is the number of moved objects from which Step bounds them
// on several goroutines.
const parallelBound = 4096

// boundAll computes the world boxes of the moved objects (but those Add
// bounded at their pose), on the workers when there are many: each object's
// bound touches only its own state.
func (w *World) boundAll(moved []ID) {
	one := func(ids []ID) {
		for _, id := range ids {
			ob := &w.objs[id]
			ob.moved = false
			if ob.present && ob.stepped != -1 {
				ob.box = w.bound(ob)
			}
		}
	}
	k := min(w.opts.Workers, len(moved)/(parallelBound/2))
	if k <= 1 {
		one(moved)
		return
	}
	var wg sync.WaitGroup
	for i := 1; i < k; i++ {
		wg.Add(1)
		go func() { defer wg.Done(); one(moved[i*len(moved)/k : (i+1)*len(moved)/k]) }()
	}
	one(moved[:len(moved)/k])
	wg.Wait()
}

// testAll runs the exact test of every candidate on the workers.
func (w *World) testAll(st *StepStats) error {
	nw := &w.narrow
	n := len(nw.cands)
	nw.res = slices.Grow(nw.res[:0], n)[:n]
	k := w.opts.Workers
	if k > n/8 || nw.medium {
		k = max(1, n/8)
	}
	for len(nw.workers) < k {
		nw.workers = append(nw.workers, newWorker())
	}
	for _, wk := range nw.workers[:k] {
		wk.buf = wk.buf[:0]
		wk.stats = collide.Stats{}
		wk.err = nil
	}
	const chunk = 16
	run := func(wi int) {
		wk := nw.workers[wi]
		if w.opts.Static {
			lo, hi := wi*n/k, (wi+1)*n/k
			for i := lo; i < hi && wk.err == nil && !nw.stopped(wk); i++ {
				w.test(wk, int32(wi), i)
			}
			return
		}
		for wk.err == nil {
			lo := int(nw.next.Add(chunk)) - chunk
			if lo >= n {
				return
			}
			for i := lo; i < min(lo+chunk, n) && wk.err == nil && !nw.stopped(wk); i++ {
				w.test(wk, int32(wi), i)
			}
		}
	}
	nw.next.Store(0)
	if k == 1 {
		run(0)
	} else {
		var wg sync.WaitGroup
		for wi := 1; wi < k; wi++ {
			wg.Add(1)
			go func() { defer wg.Done(); run(wi) }()
		}
		run(0)
		wg.Wait()
	}
	for _, wk := range nw.workers[:k] {
		if wk.err != nil && wk.err != errStopped {
			return wk.err
		}
	}
	for _, wk := range nw.workers[:k] {
		if wk.err != nil {
			return wk.err
		}
		st.Query.Add(wk.stats)
	}
	return nil
}

// test runs the exact test of candidate i on worker wk.
func (w *World) test(wk *worker, wi int32, i int) {
	key := w.narrow.cands[i]
	a, b := ID(key>>32), ID(uint32(key))
	oa, ob := &w.objs[a], &w.objs[b]
	env, fly, swap := oa, ob, false
	if ob.model.tris > oa.model.tris {
		env, fly, swap = ob, oa, true
	}
	rel := relPose(env.pose, fly.pose)
	off := len(wk.buf)
	s, err := wk.q.Each(env.model.m, fly.model.m, rel, collide.QueryOptions{All: w.opts.All, Eps: w.opts.Eps, Front: w.narrow.fr[i],
		Solid: w.opts.Solid, Method: w.opts.Method, Plane: w.narrow.pl[i], Medium: w.narrow.medium}, wk.fn)
	if err != nil {
		wk.err = err
		return
	}
	wk.stats.Add(s)
	ps := wk.buf[off:]
	if swap {
		for j := range ps {
			ps[j].Env, ps[j].Fly = ps[j].Fly, ps[j].Env
		}
	}
	if len(ps) > 1 {
		slices.SortFunc(ps, collide.ComparePairs)
	}
	w.narrow.res[i] = result{hit: len(ps) > 0 || s.Inside > 0, in: insideOf(wk.q.Inside(), swap), worker: wi, off: int32(off), n: int32(len(ps))}
	if f := w.narrow.tested; f != nil {
		f()
	}
}

// update turns the step's results into contacts and callbacks.
func (w *World) update(st *StepStats) {
	nw := &w.narrow
	nw.events = nw.events[:0]
	for _, c := range w.ended {
		idx := w.newSlot()
		w.cs[idx] = contact{Contact: c.Contact}
		nw.events = append(nw.events, event{pairKey(c.A, c.B), 'e', idx})
	}
	w.ended = w.ended[:0]
	for i, key := range nw.cands {
		r := nw.res[i]
		idx, ok := w.contacts[key]
		switch {
		case r.hit:
			kind := byte('k')
			if !ok {
				kind = 'b'
				idx = w.newSlot()
				w.contacts[key] = idx
				a, b := ID(key>>32), ID(uint32(key))
				w.cs[idx] = contact{Contact: Contact{A: a, B: b, Since: w.step, Pairs: w.cs[idx].Pairs[:0]}, live: true}
				w.objs[a].ncont++
				w.objs[b].ncont++
			}
			c := &w.cs[idx]
			c.Step, c.Inside = w.step, r.in
			c.Pairs = append(c.Pairs[:0], nw.workers[r.worker].buf[r.off:r.off+r.n]...)
			st.Pairs += len(c.Pairs)
			nw.events = append(nw.events, event{key, kind, idx})
		case ok:
			w.cs[idx].Step = w.step
			nw.events = append(nw.events, event{key, 'e', idx})
		}
	}
	// The contacts of moved objects that the broad phase no longer pairs
	// (their boxes parted, or the pair is no longer interesting).
	for idx := range w.cs {
		c := &w.cs[idx]
		if c.live && c.Step != w.step && (w.objs[c.A].stepped == w.step || w.objs[c.B].stepped == w.step) {
			c.Step = w.step
			nw.events = append(nw.events, event{pairKey(c.A, c.B), 'e', int32(idx)})
		}
	}
	slices.SortFunc(nw.events, func(x, y event) int { return cmp.Compare(x.key, y.key) })
	w.inStep = true
	for _, e := range nw.events {
		c := &w.cs[e.idx]
		switch e.kind {
		case 'b':
			st.Began++
			if w.cb.Begin != nil {
				w.cb.Begin(&c.Contact)
			}
		case 'k':
			st.Kept++
			if w.cb.Keep != nil {
				w.cb.Keep(&c.Contact)
			}
		case 'e':
			st.Ended++
			if w.cb.End != nil {
				w.cb.End(&c.Contact)
			}
		}
	}
	w.inStep = false
	for _, e := range nw.events {
		if e.kind == 'e' {
			w.dropSlot(e.key, e.idx)
		}
	}
	w.free = append(w.free, w.freeing...)
	w.freeing = w.freeing[:0]
}

func (w *World) newSlot() int32 {
	if k := len(w.csFree); k > 0 {
		idx := w.csFree[k-1]
		w.csFree = w.csFree[:k-1]
		return idx
	}
	w.cs = append(w.cs, contact{})
	return int32(len(w.cs) - 1)
}

// dropSlot frees contact slot idx, which held the pair key.
func (w *World) dropSlot(key uint64, idx int32) {
	c := &w.cs[idx]
	if c.live {
		delete(w.contacts, key)
		w.objs[c.A].ncont--
		w.objs[c.B].ncont--
	}
	c.live = false
	c.A, c.B = -1, -1
	w.csFree = append(w.csFree, idx)
}

// endContactsOf ends the contacts of object id, which is being removed:
// they are reported by the next Step.
func (w *World) endContactsOf(id ID) {
	if w.objs[id].ncont == 0 {
		return
	}
	for idx := range w.cs {
		c := &w.cs[idx]
		if c.live && (c.A == id || c.B == id) {
			w.ended = append(w.ended, contact{Contact: Contact{A: c.A, B: c.B, Step: c.Step, Since: c.Since, Pairs: slices.Clone(c.Pairs), Inside: c.Inside}})
			w.dropSlot(pairKey(c.A, c.B), int32(idx))
		}
	}
}

// Contact returns the contact of objects a and b, if they touch: valid
// until the next Step.
func (w *World) Contact(a, b ID) (*Contact, bool) {
	idx, ok := w.contacts[pairKey(a, b)]
	if !ok {
		return nil, false
	}
	return &w.cs[idx].Contact, true
}

// Contacts calls fn with every pair of objects in contact, in ascending
// order of (A, B), until fn returns false. It sorts the pairs for the call
// (an allocation of 8 bytes a contact); Contact looks one up. AllContacts
// is the same sequence as an iterator.
func (w *World) Contacts(fn func(c *Contact) bool) {
	for c := range w.AllContacts() {
		if !fn(c) {
			return
		}
	}
}

// AllContacts returns an iterator over the pairs of objects in contact, in
// ascending order of (A, B), as Contacts calls its function with them:
//
//	for c := range w.AllContacts() {
//		fmt.Println(c.A, c.B, c.Len())
//	}
//
// Each Contact is valid until the next Step; the world must not change
// while the iteration runs. Each iteration sorts the pairs (an allocation
// of 8 bytes a contact).
func (w *World) AllContacts() iter.Seq[*Contact] {
	return func(yield func(*Contact) bool) {
		keys := make([]uint64, 0, len(w.contacts))
		for k := range w.contacts {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			if !yield(&w.cs[w.contacts[k]].Contact) {
				return
			}
		}
	}
}

// NumContacts returns the number of pairs of objects in contact.
func (w *World) NumContacts() int { return len(w.contacts) }

// relPose is the pose at which the pair (env, fly) is tested, composed as
// every pairwise call of the facade composes it (collide.RelativePose):
// exported for tests through RelativePose.
func relPose(env, fly geom.Pose) geom.Pose { return collide.RelativePose(env, fly) }

// RelativePose returns the pose at which Step tests objects a and b (both
// present): the environment's triangles first (the object with more
// triangles, the lower ID on a tie), then the other's pose relative to it,
// as collide.Query is called with. Checking the two models with it at that
// pose gives the pair's contacts.
func (w *World) RelativePose(a, b ID) (env, fly ID, pose geom.Pose) {
	if a > b {
		a, b = b, a
	}
	oa, ob := &w.objs[a], &w.objs[b]
	if ob.model.tris > oa.model.tris {
		return b, a, relPose(ob.pose, oa.pose)
	}
	return a, b, relPose(oa.pose, ob.pose)
}

// attachFronts gives each candidate that keeps a front (Options.Fronts) its
// front: the one it kept at the last step, or a fresh one.
func (w *World) attachFronts(st *StepStats) {
	nw := &w.narrow
	nw.fr = slices.Grow(nw.fr[:0], len(nw.cands))[:len(nw.cands)]
	for i, key := range nw.cands {
		nw.fr[i] = nil
		a, b := &w.objs[ID(key>>32)], &w.objs[ID(uint32(key))]
		if nw.medium {
			continue // a front is one goroutine's walk
		}
		switch w.opts.Fronts {
		case FrontOff:
			continue
		case FrontAuto:
			if min(a.model.tris, b.model.tris) < FrontMinTris {
				continue
			}
		}
		nw.fr[i] = w.fronts.at(key, w.step)
		st.Fronts++
	}
}

// dropFronts sets aside the fronts of the pairs not tested at this step.
func (w *World) dropFronts() { w.fronts.drop(w.step) }

// insideOf returns a pair's Inside from its query's, env being B (swap) or
// A.
func insideOf(in collide.Inside, swap bool) Inside {
	switch {
	case in == collide.FlyInEnv && !swap, in == collide.EnvInFly && swap:
		return BInA
	case in == collide.NotInside:
		return NotInside
	}
	return AInB
}

// attachPlanes gives each candidate that the convex test decides (its
// models' method resolves to collide.MethodConvex) its separating plane:
// the one it kept at the last step, or a fresh one.
func (w *World) attachPlanes() {
	nw := &w.narrow
	nw.pl = slices.Grow(nw.pl[:0], len(nw.cands))[:len(nw.cands)]
	for i, key := range nw.cands {
		nw.pl[i] = nil
		if w.opts.Method == collide.MethodTree {
			continue
		}
		a, b := &w.objs[ID(key>>32)], &w.objs[ID(uint32(key))]
		if w.opts.Method.Resolve(a.model.m, b.model.m) != collide.MethodConvex {
			continue
		}
		nw.pl[i] = w.planes.at(key, w.step)
	}
}

// dropPlanes sets aside the planes of the pairs not tested at this step.
func (w *World) dropPlanes() { w.planes.drop(w.step) }
