package world

import (
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/geom"
)

// Concurrent runs a world's steps on a goroutine of its own, beside the
// application: Zachmann's concurrent module, with his open problem (which
// frame a collision belongs to) solved by numbering the frames.
//
// The application never waits for a step. Move records an object's latest
// pose in a front buffer, each object at most once (a later Move of it in
// the same frame replaces its pose); Commit ends the application's frame,
// given its number: the frame's moves join the committed buffer (each
// object once, its latest pose), which the module's goroutine swaps with
// its own, whenever it has finished the last step, and steps. A frame
// committed while the module steps an earlier one waits in the committed
// buffer; frames committed faster than the module steps are merged, the
// poses of the latest kept (the thesis's objects "that cannot be processed
// in time are dropped": their intermediate poses are). The lock that
// guards the two buffers is held for an insert, a merge or a swap, never
// during a step.
//
// Each step's result is a Frame: the number of the frame whose poses it
// stepped (the latest committed when the module swapped), its StepStats,
// the contacts after it and its error. Its contacts are those of a World
// stepped sequentially at that frame's poses. Options.Done receives each
// Frame on the module's goroutine; Latest returns a copy of the last one
// to any goroutine. The world's own Callbacks run on the module's
// goroutine, during its steps (Stepping says for which frame).
//
// While a Concurrent runs, it owns its world: the application must not
// call the world's methods (neither writes nor reads) until Close has
// returned, but from the world's callbacks and Options.Done, which run on
// the module's goroutine. The set of objects is the world's when the
// module starts.
type Concurrent struct {
	w    *World
	opts ConcurrentOptions
	// present[id] says that id names an object (Move checks it at once).
	present []bool

	mu        sync.Mutex // guards front, committed, frame, pending, closing
	front     poseBuf    // the moves of the frame being made
	committed poseBuf    // the moves of the committed frames not yet swapped
	frame     int64      // the number of the latest committed frame
	pending   bool       // a frame was committed since the last swap
	closing   bool
	wake      chan struct{} // (1) a frame was committed, or Close
	exited    chan struct{} // closed when the module's goroutine ends

	// The module's goroutine's own.
	back     poseBuf
	stepping int64
	cur      Frame
	pairs    []collide.Pair
	err      error // the first error of a step

	rmu    sync.Mutex // guards latest, lpairs, has
	latest Frame
	lpairs []collide.Pair // latest's pairs
	has    bool
}

// ConcurrentOptions configures a Concurrent.
type ConcurrentOptions struct {
	// Done, if not nil, is called after each step, on the module's
	// goroutine, with its result; the Frame is valid during the call only.
	Done func(f *Frame)
}

// Frame is the result of one of a Concurrent's steps.
type Frame struct {
	// Frame is the number, given to Commit, of the frame whose poses the
	// step tested: the objects at their latest poses as of that Commit.
	Frame int64
	// Stats are the step's (World.Step).
	Stats StepStats
	// Contacts are the world's contacts after the step, ascending by
	// (A, B), each with its triangle pairs (Contact.Pairs, ascending).
	Contacts []Contact
	// Err is the step's error: a pose Move recorded that the world
	// refused (see World.Move), or Step's.
	Err error
}

// ErrClosed is returned by the methods of a Concurrent after Close.
var ErrClosed = errors.New("world: concurrent module closed")

// move is a pose recorded for an object.
type move struct {
	id   ID
	pose geom.Pose
}

// poseBuf is a buffer of moves holding each object at most once.
type poseBuf struct {
	moves []move
	at    []int32 // at[id] is 1 + the index of id's move, 0 for none
}

// put records pose p for object id, replacing its earlier one.
func (b *poseBuf) put(id ID, p geom.Pose) {
	if int(id) >= len(b.at) {
		b.at = append(b.at, make([]int32, int(id)+1-len(b.at))...)
	}
	if i := b.at[id]; i > 0 {
		b.moves[i-1].pose = p
		return
	}
	b.moves = append(b.moves, move{id, p})
	b.at[id] = int32(len(b.moves))
}

// reset empties b.
func (b *poseBuf) reset() {
	for _, m := range b.moves {
		b.at[m.id] = 0
	}
	b.moves = b.moves[:0]
}

// NewConcurrent starts a concurrent module on w (see Concurrent): a
// goroutine that steps w whenever a frame has been committed, until Close.
// From now on w is the module's.
func NewConcurrent(w *World, o ConcurrentOptions) *Concurrent {
	c := &Concurrent{w: w, opts: o, wake: make(chan struct{}, 1), exited: make(chan struct{})}
	for id := range w.AllObjects() {
		if int(id) >= len(c.present) {
			c.present = append(c.present, make([]bool, int(id)+1-len(c.present))...)
		}
		c.present[id] = true
	}
	go c.run()
	return c
}

// Move records pose p for object id in the frame being made: the pose it
// is stepped at, unless Move gives it another before the frame's Commit.
// It returns at once (it takes the buffers' lock for an insert, never
// waiting for a step): ErrNoObject if id names no object of the world,
// ErrClosed after Close. A pose the world refuses (see World.Move) is the
// error of the Frame that steps it.
func (c *Concurrent) Move(id ID, p geom.Pose) error {
	if id < 0 || int(id) >= len(c.present) || !c.present[id] {
		return fmt.Errorf("world: Move %d: %w", id, ErrNoObject)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closing {
		return ErrClosed
	}
	c.front.put(id, p)
	return nil
}

// Commit ends the frame being made, numbered frame (the application's
// count; the Frames that step it report it): its moves join the committed
// ones, and the module steps them when it has finished its current step.
// It returns at once (ErrClosed after Close).
func (c *Concurrent) Commit(frame int64) error {
	c.mu.Lock()
	if c.closing {
		c.mu.Unlock()
		return ErrClosed
	}
	for _, m := range c.front.moves {
		c.committed.put(m.id, m.pose)
	}
	c.front.reset()
	c.frame, c.pending = frame, true
	c.mu.Unlock()
	select {
	case c.wake <- struct{}{}:
	default: // already woken
	}
	return nil
}

// Latest returns a copy of the last step's Frame, and false if the module
// has made no step yet. It never waits for a step.
func (c *Concurrent) Latest() (Frame, bool) {
	c.rmu.Lock()
	defer c.rmu.Unlock()
	if !c.has {
		return Frame{}, false
	}
	f := c.latest
	f.Contacts = slices.Clone(f.Contacts)
	for i := range f.Contacts {
		f.Contacts[i].Pairs = slices.Clone(f.Contacts[i].Pairs)
	}
	return f, true
}

// Stepping returns the number of the frame the module is stepping: for
// the world's callbacks and Options.Done, which run on its goroutine.
func (c *Concurrent) Stepping() int64 { return c.stepping }

// Close steps the frame committed last, if the module has not stepped it
// yet, stops the module's goroutine and returns the first error of its
// steps. Moves recorded after the last Commit are dropped. The world is
// the application's again once Close returns; Close may be called again
// (it returns the same error).
func (c *Concurrent) Close() error {
	c.mu.Lock()
	c.closing = true
	c.mu.Unlock()
	select {
	case c.wake <- struct{}{}:
	default:
	}
	<-c.exited
	return c.err
}

// run is the module's goroutine: it waits for a committed frame, swaps the
// buffers and steps, until Close.
func (c *Concurrent) run() {
	defer close(c.exited)
	for range c.wake {
		for {
			c.mu.Lock()
			if !c.pending {
				closing := c.closing
				c.mu.Unlock()
				if closing {
					return
				}
				break
			}
			c.committed, c.back = c.back, c.committed
			frame := c.frame
			c.pending = false
			c.mu.Unlock()
			c.step(frame)
			c.back.reset()
		}
	}
}

// step moves the objects of the back buffer, steps the world and
// publishes the Frame.
func (c *Concurrent) step(frame int64) {
	var errs []error
	for _, m := range c.back.moves {
		if err := c.w.Move(m.id, m.pose); err != nil {
			errs = append(errs, fmt.Errorf("frame %d: %w", frame, err))
		}
	}
	c.stepping = frame
	st, err := c.w.Step()
	if err != nil {
		errs = append(errs, fmt.Errorf("world: frame %d: %w", frame, err))
	}
	f := &c.cur
	f.Frame, f.Stats, f.Err = frame, st, errors.Join(errs...)
	if f.Err != nil && c.err == nil {
		c.err = f.Err
	}
	// The contacts, ascending, their pairs in one buffer.
	f.Contacts, c.pairs = f.Contacts[:0], c.pairs[:0]
	for ct := range c.w.AllContacts() {
		f.Contacts = append(f.Contacts, *ct) // its Pairs the world's, for now
	}
	slices.SortFunc(f.Contacts, func(a, b Contact) int {
		return collide.ComparePairs(collide.Pair{Env: int32(a.A), Fly: int32(a.B)}, collide.Pair{Env: int32(b.A), Fly: int32(b.B)})
	})
	for i := range f.Contacts {
		c.pairs = append(c.pairs, f.Contacts[i].Pairs...)
	}
	slicePairs(f.Contacts, c.pairs)
	if c.opts.Done != nil {
		c.opts.Done(f)
	}
	// Publish: the latest Frame is a copy, so that Latest never waits on
	// a step (the lock is held for the copy of a few slices).
	c.rmu.Lock()
	c.latest.Frame, c.latest.Stats, c.latest.Err = f.Frame, f.Stats, f.Err
	c.latest.Contacts = append(c.latest.Contacts[:0], f.Contacts...)
	c.lpairs = append(c.lpairs[:0], c.pairs...)
	slicePairs(c.latest.Contacts, c.lpairs)
	c.has = true
	c.rmu.Unlock()
}

// slicePairs points the Pairs of the contacts cs, whose pairs ps holds in
// turn, into ps, each as long as it was.
func slicePairs(cs []Contact, ps []collide.Pair) {
	off := 0
	for i := range cs {
		n := len(cs[i].Pairs)
		cs[i].Pairs = ps[off : off+n : off+n]
		off += n
	}
}
