package auto_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/auto"
)

// TestChooseContext stops choices by their context, deterministically: a
// fake clock (which Choose reads around every timed block and round)
// cancels the context at its k-th reading, for readings from the first to
// past the last. Each stopped choice returns an error wrapping
// context.Canceled and no Choice, having read the clock at most once more;
// one whose context is cancelled after its last timed block completes. A choice with a live context after the
// stopped ones is the choice never stopped (the fake clock makes it a
// function of the models). A context cancelled before the call, or while
// it waits for another choice in progress, stops it at once.
func TestChooseContext(t *testing.T) {
	sc := twoSpheres(t)
	env, fly := sources(sc, collide.BuildOptions{})
	cands := []collide.BV{collide.AABB, collide.KDOP18, collide.OBB}
	opts := func(clock auto.Clock) auto.Options {
		return auto.Options{Seed: 3, Probes: 12, Candidates: cands, Clock: clock}
	}
	var base costClock
	reads := 0
	want, err := auto.Choose(env, fly, opts(func(w collide.Stats) time.Duration { reads++; return base.read(w) }))
	if err != nil {
		t.Fatal(err)
	}
	stoppedN := 0
	for _, k := range []int{1, 2, 3, reads / 4, reads / 2, reads - 1, reads, reads + 1} {
		name := fmt.Sprintf("cancelled at reading %d of %d", k, reads)
		ctx, cancel := context.WithCancel(context.Background())
		var clock costClock
		n := 0
		c, err := auto.ChooseContext(ctx, env, fly, opts(func(w collide.Stats) time.Duration {
			if n++; n == k {
				cancel()
			}
			return clock.read(w)
		}))
		cancel()
		switch {
		case err == nil:
			if k < reads-1 {
				// The last two readings end the last block and its
				// round: nothing is left to stop.
				t.Fatalf("%s: not stopped", name)
			}
			if c.First.BV != want.First.BV || c.All.BV != want.All.BV {
				t.Fatalf("%s: chose %v and %v, want %v and %v", name, c.First.BV, c.All.BV, want.First.BV, want.All.BV)
			}
		case errors.Is(err, context.Canceled):
			stoppedN++
			if c.First.Env != nil || c.All.Env != nil || len(c.Candidates) != 0 {
				t.Fatalf("%s: a stopped choice returned %v", name, c)
			}
			if n > k+1 {
				t.Fatalf("%s: the clock read %d times, stopped late", name, n)
			}
		default:
			t.Fatalf("%s: %v", name, err)
		}
	}
	if stoppedN < 5 {
		t.Errorf("%d choices stopped: the test tests little", stoppedN)
	}
	var again costClock
	c, err := auto.ChooseContext(context.Background(), env, fly, opts(again.read))
	if err != nil || c.First.BV != want.First.BV || c.All.BV != want.All.BV || !slices.Equal(c.Candidates, zeroBuild(want.Candidates, c.Candidates)) {
		t.Fatalf("after stopped choices: %v, %v; want %v", c, err, want)
	}

	// Cancelled before the call.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := auto.ChooseContext(ctx, env, fly, opts(nil)); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled before: %v", err)
	}
	// Cancelled while waiting for a choice in progress (held at its first
	// clock reading until the waiting one has given up).
	inside, release := make(chan struct{}), make(chan struct{})
	first := make(chan error)
	go func() {
		var clock costClock
		once := false
		_, err := auto.Choose(env, fly, opts(func(w collide.Stats) time.Duration {
			if !once {
				once = true
				close(inside)
				<-release
			}
			return clock.read(w)
		}))
		first <- err
	}()
	<-inside
	ctx, cancel = context.WithCancel(context.Background())
	cancel()
	if _, err := auto.ChooseContext(ctx, env, fly, opts(nil)); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled while waiting: %v", err)
	}
	close(release)
	if err := <-first; err != nil {
		t.Fatal(err)
	}
}

// TestChooseContextDuringBuild cancels choices at moments of the clock
// (the assertions hold whichever step each cancel falls in, a build among
// them, which the choice then leaves to end on its own): each returns
// context.Canceled or its choice, and the choice after them, which waits
// for any build left running, is the one never stopped.
func TestChooseContextDuringBuild(t *testing.T) {
	sc := twoSpheres(t)
	env, fly := sources(sc, collide.BuildOptions{})
	cands := []collide.BV{collide.AABB, collide.OBB}
	var base costClock
	o := auto.Options{Seed: 3, Probes: 12, Candidates: cands, Clock: base.read}
	want, err := auto.Choose(env, fly, o)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []time.Duration{0, time.Millisecond, 3 * time.Millisecond, 10 * time.Millisecond, 30 * time.Millisecond} {
		ctx, cancel := context.WithCancel(context.Background())
		timer := time.AfterFunc(d, cancel)
		var clock costClock
		oc := o
		oc.Clock = clock.read
		_, err := auto.ChooseContext(ctx, env, fly, oc)
		timer.Stop()
		cancel()
		if err != nil && !errors.Is(err, context.Canceled) {
			t.Fatalf("cancelled after %v: %v", d, err)
		}
	}
	var again costClock
	o.Clock = again.read
	c, err := auto.Choose(env, fly, o)
	if err != nil || c.First.BV != want.First.BV || c.All.BV != want.All.BV || !slices.Equal(c.Candidates, zeroBuild(want.Candidates, c.Candidates)) {
		t.Fatalf("after stopped choices: %v, %v; want %v", c, err, want)
	}
}
