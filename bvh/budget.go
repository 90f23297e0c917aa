package bvh

import (
	"math"
	"slices"
	"sync/atomic"
	"time"

	"github.com/collide3d/collide/geom"
)

// This file is time-critical queries: a walk with a budget stops when it
// has spent it and keeps the pairs of nodes it has not tested, from which
// it can be resumed. Whatever it found before it stopped is true (a pair
// reported is in contact); "no contact" needs the whole walk.

// Budget bounds the work of a query. The zero value is no bound.
type Budget struct {
	// Tests > 0 is the most pairs of nodes the walk tests (each a volume
	// test, a leaf's triangles against a volume, or the triangles of two
	// leaves).
	Tests int64
	// Deadline, if not zero, is when the walk stops; it looks at the clock
	// every 256 pairs.
	Deadline time.Time
	// Done, if not nil, stops the walk once it is closed (a
	// context.Context's Done channel): the walk looks at it where it
	// would look at the clock, every 256 pairs, without blocking.
	Done <-chan struct{}
	// Stop, if not nil, stops the walk once it is true, looked at where
	// Done is (the early-exit flag of CollideMedium's two walks: a load,
	// where closing a channel would allocate one per query).
	Stop *atomic.Bool
}

// IsZero reports whether b bounds nothing.
func (b Budget) IsZero() bool {
	return b.Tests <= 0 && b.Deadline.IsZero() && b.Done == nil && b.Stop == nil
}

// expired reports whether b's deadline has passed, its Done channel is
// closed or its Stop is set (not its Tests, which the walks count).
func (b *Budget) expired() bool { return timeUp(b.Deadline, b.Done) || b.Stop != nil && b.Stop.Load() }

// timeUp reports whether deadline (if not zero) has passed or done (if not
// nil) is closed.
func timeUp(deadline time.Time, done <-chan struct{}) bool {
	if done != nil {
		select {
		case <-done:
			return true
		default:
		}
	}
	return !deadline.IsZero() && !time.Now().Before(deadline)
}

// deadlineChunk is how many pairs a walk with a deadline or a Done channel
// tests between two looks at them.
const deadlineChunk = 256

// budget is what a budgeted walk has left.
type budget struct {
	tests    int64 // noLimit for none
	deadline time.Time
	done     <-chan struct{}
	stop     *atomic.Bool
	pend     *Pending
}

// newBudget returns the budget b of a walk that keeps its rest in pd.
func newBudget(b Budget, pd *Pending) *budget {
	bu := &pd.bud
	*bu = budget{tests: noLimit, deadline: b.Deadline, done: b.Done, stop: b.Stop, pend: pd}
	if b.Tests > 0 {
		bu.tests = b.Tests
	}
	return bu
}

// chunk returns how many pairs the walk may test before it looks again.
func (b *budget) chunk() int64 {
	if b.deadline.IsZero() && b.done == nil && b.stop == nil {
		return b.tests
	}
	return min(b.tests, deadlineChunk)
}

// spend takes n tests off the budget and reports whether it has run out.
func (b *budget) spend(n int64) bool {
	if b.tests != noLimit {
		b.tests -= n
		if b.tests <= 0 {
			return true
		}
	}
	return timeUp(b.deadline, b.done) || b.stop != nil && b.stop.Load()
}

// Pending is what a query its budget stopped has left: the pairs of nodes
// it has not tested, from which Resume goes on. A query that finished (or
// whose tester stopped: its first contact, or the callback) leaves a
// Pending that is Done. The zero value is Done. A Pending belongs to one
// query; it must not be used by two goroutines at once.
type Pending struct {
	env, fly *Tree
	pose     geom.Pose
	o        QueryOptions
	// items is the *[]item[X] of the trees' kind: the pairs left (a
	// pointer, so that keeping them again stores no new slice header in
	// the interface, which would allocate).
	items any
	n     int
	bud   budget
	// seen holds the pairs a box-tree query reported so far, when its
	// leaves share triangles (see tester.seen), so that a resumed query
	// reports each pair once.
	seen map[Pair]struct{}
}

// Done reports whether the query has nothing left to test.
func (pd *Pending) Done() bool { return pd.n == 0 }

// Left returns the number of pairs of nodes the query has not tested.
func (pd *Pending) Left() int { return pd.n }

// keep stores stack in pd (nothing if stopped: the tester stopped the
// query, which is then over).
func keep[X any](pd *Pending, stack []item[X], stopped bool) {
	if stopped {
		stack = nil
	}
	pd.n = len(stack)
	if s, ok := pd.items.(*[]item[X]); ok {
		*s = append((*s)[:0], stack...)
	} else if len(stack) > 0 {
		c := slices.Clone(stack)
		pd.items = &c
	}
}

// Resume goes on with the query pd holds, within budget b, calling fn for
// each pair in contact as Collide does (the pairs reported before are not
// reported again), in scratch s (nil: a new one). It returns the
// statistics of this part of the walk; pd then holds what is left.
func (pd *Pending) Resume(s *Scratch, b Budget, fn func(Pair) bool) Stats {
	if pd.Done() {
		return Stats{}
	}
	o := pd.o
	o.Budget, o.Pending = b, pd
	if b.IsZero() {
		o.Budget.Tests = math.MaxInt64
	}
	return collide(pd.env, pd.fly, pd.pose, request{QueryOptions: o, mode: modeResume}, s, fn)
}
