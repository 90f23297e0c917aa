package world_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/world"
)

// frameContacts are the contacts of a Frame, or of a world, by pair of
// objects: their triangle pairs.
type frameContacts map[[2]world.ID][]collide.Pair

// sequential returns the contacts of a world of the models ms at poses,
// stepped once, with options o.
func sequential(t *testing.T, ms []*collide.Model, poses []geom.Pose, o world.Options) frameContacts {
	t.Helper()
	w, err := world.New(o)
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range poses {
		if _, err := w.Add(ms[i%len(ms)], p, world.ObjectOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := w.Step(); err != nil {
		t.Fatal(err)
	}
	out := frameContacts{}
	for c := range w.AllContacts() {
		out[[2]world.ID{c.A, c.B}] = slices.Clone(c.Pairs)
	}
	return out
}

// TestConcurrent runs a concurrent module beside an application loop of
// seeded random moves and checks every Frame it reports against a world
// stepped sequentially at the poses of the frame it names. The module is
// held inside its first step (a callback of the world waits) while the
// application moves and commits three more frames, which must not wait
// for it and which the module merges: its next Frame is the last of them;
// then the application runs free.
func TestConcurrent(t *testing.T) {
	ms := models(t, collide.KDOP18)
	o := world.Options{All: true, Workers: 2}
	r := rand.New(rand.NewPCG(35, 5))
	const n, frames = 24, 40
	poses := make([]geom.Pose, n)
	for i := range poses {
		poses[i] = scenePose(r, i%3, 6)
	}
	// Objects 0 and 1 at one pose: frame 1 has a contact that begins.
	poses[1] = poses[0]
	w, err := world.New(o)
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range poses {
		if _, err := w.Add(ms[i%len(ms)], p, world.ObjectOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	entered, release := make(chan struct{}), make(chan struct{})
	var c *world.Concurrent
	held := false
	w.SetCallbacks(world.Callbacks{Begin: func(*world.Contact) {
		if !held && c.Stepping() == 1 {
			held = true
			entered <- struct{}{}
			<-release
		}
	}})
	var got []world.Frame
	stepped := make(chan int64, frames)
	c = world.NewConcurrent(w, world.ConcurrentOptions{Done: func(f *world.Frame) {
		g := *f
		g.Contacts = slices.Clone(f.Contacts)
		for i := range g.Contacts {
			g.Contacts[i].Pairs = slices.Clone(g.Contacts[i].Pairs)
		}
		got = append(got, g)
		stepped <- f.Frame
	}})
	at := map[int64][]geom.Pose{} // the poses of each frame
	for f := int64(1); f <= frames; f++ {
		if f > 1 {
			for i := range n {
				if r.IntN(3) == 0 {
					poses[i] = scenePose(r, (i+int(f))%3, 6)
					if err := c.Move(world.ID(i), poses[i]); err != nil {
						t.Fatal(err)
					}
					if r.IntN(4) == 0 { // moved twice in a frame: the last pose counts
						poses[i] = scenePose(r, i%3, 6)
						if err := c.Move(world.ID(i), poses[i]); err != nil {
							t.Fatal(err)
						}
					}
				}
			}
		}
		at[f] = slices.Clone(poses)
		if err := c.Commit(f); err != nil {
			t.Fatal(err)
		}
		switch f {
		case 1:
			<-entered // the module is inside frame 1's step
		case 4:
			// Frames 2 to 4 were made while the module stepped frame 1;
			// the test waits for their step (an application would not).
			close(release)
			for <-stepped != 4 {
			}
		}
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if err := c.Move(0, geom.Pose{}); !errors.Is(err, world.ErrClosed) {
		t.Errorf("Move after Close: %v, want ErrClosed", err)
	}
	if len(got) < 3 || got[0].Frame != 1 || got[1].Frame != 4 || got[len(got)-1].Frame != frames {
		fs := []int64{}
		for _, g := range got {
			fs = append(fs, g.Frame)
		}
		t.Fatalf("frames stepped %v, want 1, 4, ..., %d", fs, frames)
	}
	for i, g := range got {
		if i > 0 && g.Frame <= got[i-1].Frame {
			t.Errorf("frame %d reported after frame %d", g.Frame, got[i-1].Frame)
		}
		if g.Err != nil {
			t.Errorf("frame %d: %v", g.Frame, g.Err)
		}
		want := sequential(t, ms, at[g.Frame], o)
		have := frameContacts{}
		for j, ct := range g.Contacts {
			if j > 0 && (ct.A < g.Contacts[j-1].A || ct.A == g.Contacts[j-1].A && ct.B <= g.Contacts[j-1].B) {
				t.Errorf("frame %d: contacts not ascending", g.Frame)
			}
			have[[2]world.ID{ct.A, ct.B}] = ct.Pairs
		}
		if len(want) == 0 {
			t.Errorf("frame %d: no contact: the scene tests nothing", g.Frame)
		}
		if len(have) != len(want) {
			t.Errorf("frame %d: %d contacts, sequential %d", g.Frame, len(have), len(want))
		}
		for k, ps := range want {
			if !slices.Equal(have[k], ps) {
				t.Errorf("frame %d: objects %v: pairs %v, sequential %v", g.Frame, k, have[k], ps)
			}
		}
	}
	last, ok := c.Latest()
	if !ok || last.Frame != frames || len(last.Contacts) != len(got[len(got)-1].Contacts) {
		t.Errorf("Latest: frame %d (%v), %d contacts; want frame %d", last.Frame, ok, len(last.Contacts), frames)
	}
}

// TestConcurrentErrors checks the errors of a concurrent module: an ID
// that names no object (at once), a pose the world refuses (the Frame's
// error and Close's), and the calls after Close.
func TestConcurrentErrors(t *testing.T) {
	ms := models(t, collide.KDOP18)
	w, err := world.New(world.Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		if _, err := w.Add(ms[i], geom.Translation(geom.V(3*float64(i), 0, 0)), world.ObjectOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	var errs []error
	c := world.NewConcurrent(w, world.ConcurrentOptions{Done: func(f *world.Frame) { errs = append(errs, f.Err) }})
	if _, ok := c.Latest(); ok {
		t.Error("Latest before any step says there is a Frame")
	}
	for _, id := range []world.ID{-1, 3, 1 << 20} {
		if err := c.Move(id, geom.Pose{}); !errors.Is(err, world.ErrNoObject) {
			t.Errorf("Move(%d): %v, want ErrNoObject", id, err)
		}
	}
	if err := c.Move(1, geom.Translation(geom.V(math.NaN(), 0, 0))); err != nil {
		t.Fatal(err)
	}
	if err := c.Commit(7); err != nil {
		t.Fatal(err)
	}
	if err := c.Move(2, geom.Translation(geom.V(0, 0, 0))); err != nil {
		t.Fatal(err)
	}
	if err := c.Commit(8); err != nil {
		t.Fatal(err)
	}
	err = c.Close()
	if err == nil {
		t.Fatal("Close after a NaN pose: no error")
	}
	if len(errs) == 0 || errs[0] == nil {
		t.Errorf("the Frames' errors: %v", errs)
	}
	if err2 := c.Close(); err2 != err {
		t.Errorf("Close again: %v, want %v", err2, err)
	}
	if err := c.Commit(9); !errors.Is(err, world.ErrClosed) {
		t.Errorf("Commit after Close: %v", err)
	}
}
