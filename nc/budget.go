package nc

import (
	"math"
	"time"
)

// This file is a check's budgets (Options.Budget, Options.MoveBudget): the
// tests they count, the clock they look at, and where a check looks. A
// budget that runs out within a move cuts the move short: what its
// searches had decided when they stopped is dropped (the violation being
// sought is not reported: its triangles are not all known), and a violation
// already reported stands, each proved.

// MoveBudget bounds the work of each move (Options.MoveBudget): a move
// that spends it is cut short, counted in Summary.Unfinished, and the
// check goes on with the next move. A per-move bound is what a user
// checking a long program wants, so that one pathological move (an arc
// grazing a cone's side along its whole sweep) cannot stall the check; a
// deadline for the whole run (Options.Budget) is what a batch wants. The
// deadline of a move is relative to its start, hence a duration rather
// than collide.Budget's time. The zero value bounds nothing.
type MoveBudget struct {
	// Tests > 0 is the most tests a move makes (Stats.Exact,
	// Stats.Queries and Stats.Inside: exact tests of a solid against a
	// triangle, searches of the targets' trees and tests of a point
	// against a target's solid).
	Tests int64
	// Time > 0 is the most time a move takes, from when it is read.
	Time time.Duration
}

// lookEvery is how many tests (or looks) pass between two reads of the
// clock, as a bvh walk reads it every 256 pairs of nodes.
const lookEvery = 256

// maxUnfinishedLines is the most program lines Summary.UnfinishedLines
// holds.
const maxUnfinishedLines = 64

// budgetState is what a check's budgets have left.
type budgetState struct {
	on, timed           bool  // a budget is set; one with a deadline
	runTests, moveTests int64 // the test counts at which they run out (math.MaxInt64: no limit)
	runDead, moveDead   time.Time
	nextLook, looks     int64 // the clock is read at nextLook tests or every lookEvery looks
	cut, stopped        bool  // the move is cut short; the whole check is stopped
	move                MoveBudget
	// done is the check's context's Done channel (nil: none), looked at
	// as the clock is; ctxDone says that it stopped the check.
	done    <-chan struct{}
	ctxDone bool
}

// startBudget sets the check's budgets up, from o, and its context's Done
// channel.
func (c *Checker) startBudget(done <-chan struct{}) {
	b := &c.bud
	*b = budgetState{move: c.o.MoveBudget, runTests: math.MaxInt64, moveTests: math.MaxInt64, done: done}
	b.on = c.o.Budget.Tests > 0 || !c.o.Budget.Deadline.IsZero() || c.o.MoveBudget.Tests > 0 || c.o.MoveBudget.Time > 0 || done != nil
	b.timed = !c.o.Budget.Deadline.IsZero() || c.o.MoveBudget.Time > 0
	b.runDead = c.o.Budget.Deadline
	if c.o.Budget.Tests > 0 {
		b.runTests = c.o.Budget.Tests
	}
}

// tests returns the tests counted so far.
func (c *Checker) tests() int64 { return c.st.Exact + c.st.Queries + c.st.Inside }

// startMove starts a move's budget and reports whether the whole check's
// has run out (the check then stops before the move).
func (c *Checker) startMove() bool {
	b := &c.bud
	if !b.on {
		return false
	}
	b.cut = false
	n := c.tests()
	b.moveTests = math.MaxInt64
	if b.move.Tests > 0 {
		b.moveTests = n + b.move.Tests
	}
	b.moveDead = time.Time{}
	b.nextLook = n // the move's first look reads the clock and the context
	if b.isDone() {
		b.stopped = true
	}
	if b.timed {
		now := time.Now()
		if b.move.Time > 0 {
			b.moveDead = now.Add(b.move.Time)
		}
		if !b.runDead.IsZero() && !now.Before(b.runDead) {
			b.stopped = true
		}
	}
	if n >= b.runTests {
		b.stopped = true
	}
	b.cut = b.stopped
	return b.stopped
}

// out reports whether a budget has run out: the move is then cut short
// (and the check stopped if it is the whole check's). It is called
// between two tests of a triangle (or two pieces of a move, two searches),
// and reads the clock every lookEvery tests or calls.
func (c *Checker) out() bool {
	b := &c.bud
	if !b.on || b.cut {
		return b.cut
	}
	n := c.tests()
	switch {
	case n >= b.runTests:
		b.cut, b.stopped = true, true
	case n >= b.moveTests:
		b.cut = true
	case b.timed || b.done != nil:
		if b.looks++; n < b.nextLook && b.looks%lookEvery != 0 {
			break
		}
		b.nextLook = n + lookEvery
		if b.isDone() {
			b.cut, b.stopped = true, true
			break
		}
		if !b.timed {
			break
		}
		now := time.Now()
		if !b.runDead.IsZero() && !now.Before(b.runDead) {
			b.cut, b.stopped = true, true
		} else if !b.moveDead.IsZero() && !now.Before(b.moveDead) {
			b.cut = true
		}
	}
	return b.cut
}

// isDone reports whether the check's context is done, and if so records
// that it stopped the check.
func (b *budgetState) isDone() bool {
	if b.done == nil {
		return false
	}
	select {
	case <-b.done:
		b.ctxDone = true
		return true
	default:
		return false
	}
}
