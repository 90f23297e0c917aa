package main

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"
)

// This file is the status line: while a command's queries run, a line on
// stderr, when it is a terminal, says how far they are (the poses or moves
// done of the total, the current one, the time spent), redrawn every
// progressEvery once the work has run for statusAfter, and erased at the
// end. It is never printed on a pipe or a file: the output of a command
// run by a script (and of the tests) stays byte for byte the same.

// statusAfter is how long work runs before its status line shows: a query
// of more than a second gets one. A variable for the tests.
var statusAfter = time.Second

// statusLine is the status line of one piece of work. A nil *statusLine
// (stderr not a terminal, or nothing to show) does nothing.
type statusLine struct {
	mu    sync.Mutex
	w     io.Writer
	now   func() time.Time
	start time.Time
	after time.Duration
	line  func(elapsed time.Duration) string
	width int // the length of the line on screen; 0 if none is
	// stop and done end the goroutine that redraws the line.
	stop, done chan struct{}
}

// newStatusLine returns the status line line(elapsed) of work starting now,
// on w if term reports it a terminal (else nil), shown once the work has
// run for after, by the clock now. It takes the terminal check and the
// clock as parameters for the tests; startStatus is the one commands use.
func newStatusLine(w io.Writer, term func(io.Writer) bool, now func() time.Time, after time.Duration, line func(time.Duration) string) *statusLine {
	if !term(w) {
		return nil
	}
	return &statusLine{w: w, now: now, start: now(), after: after, line: line}
}

// tick redraws the line if the work has run for s.after.
func (s *statusLine) tick() {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	elapsed := s.now().Sub(s.start)
	if elapsed < s.after {
		return
	}
	l := s.line(elapsed)
	fmt.Fprintf(s.w, "\r%s%s", l, strings.Repeat(" ", max(s.width-len(l), 0)))
	s.width = max(len(l), 1)
}

// clear erases the line, if one is shown.
func (s *statusLine) clear() {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.erase()
}

// erase erases the line; s.mu is held.
func (s *statusLine) erase() {
	if s.width > 0 {
		fmt.Fprintf(s.w, "\r%s\r", strings.Repeat(" ", s.width))
		s.width = 0
	}
}

// startStatus starts the status line line(elapsed) of work on e's stderr,
// if show and stderr is a terminal, shown once the work has run for after
// (at once if after is 0) and redrawn every progressEvery until stop.
func startStatus(e *env, show bool, after time.Duration, line func(time.Duration) string) *statusLine {
	if !show {
		return nil
	}
	s := newStatusLine(e.stderr, isTerminal, time.Now, after, line)
	if s == nil {
		return nil
	}
	if after <= 0 {
		s.tick()
	}
	s.stop, s.done = make(chan struct{}), make(chan struct{})
	go func() {
		defer close(s.done)
		tick := time.NewTicker(progressEvery)
		defer tick.Stop()
		for {
			select {
			case <-tick.C:
				s.tick()
			case <-s.stop:
				return
			}
		}
	}()
	return s
}

// end stops redrawing the line and erases it.
func (s *statusLine) end() {
	if s == nil {
		return
	}
	if s.stop != nil {
		close(s.stop)
		<-s.done
		s.stop = nil
	}
	s.clear()
}

// output returns w (a command's stdout) made to erase the status line
// before each write when w is a terminal too, so that the results printed
// there are not drawn over the line (which the next tick redraws below
// them). It returns w itself when there is no line or w is no terminal.
func (s *statusLine) output(w io.Writer) io.Writer {
	if s == nil || !isTerminal(w) {
		return w
	}
	return &statusOutput{s: s, w: w}
}

// statusOutput is a command's stdout that erases the status line before
// each write (statusLine.output).
type statusOutput struct {
	s *statusLine
	w io.Writer
}

func (o *statusOutput) Write(b []byte) (int, error) {
	o.s.mu.Lock()
	defer o.s.mu.Unlock()
	o.s.erase()
	return o.w.Write(b)
}

// withTicker runs work. If show and stderr is a terminal, it meanwhile keeps
// the status line line(elapsed) on stderr, once work has run for
// statusAfter, redrawn every progressEvery, and erases it at the end.
func withTicker(e *env, show bool, line func(time.Duration) string, work func()) {
	s := startStatus(e, show, statusAfter, line)
	defer s.end()
	work()
}

// progressLine is the status line of a command that queries n items (poses,
// motions, moves), done of them done: "check: pose 3 of 10, 2 done, 4.2 s"
// names the one being queried (numbered from 0, as the output does).
func progressLine(cmd, item string, done int64, n int, elapsed time.Duration) string {
	if done >= int64(n) {
		return fmt.Sprintf("%s: %d %ss done, %.1f s", cmd, n, item, elapsed.Seconds())
	}
	return fmt.Sprintf("%s: %s %d of %d, %d done, %.1f s", cmd, item, done, n, done, elapsed.Seconds())
}

// flushEvery is how often a long run's output is flushed: its lines appear
// as they come without a system call each.
const flushEvery = 100 * time.Millisecond

// A flusher flushes a buffered output at most every flushEvery.
type flusher struct {
	w    *bufio.Writer
	last time.Time
}

// newFlusher returns a flusher of w, counting from now.
func newFlusher(w *bufio.Writer) flusher { return flusher{w: w, last: time.Now()} }

// tick flushes the output if flushEvery has passed since its last flush.
func (f *flusher) tick() error {
	if time.Since(f.last) <= flushEvery {
		return nil
	}
	f.last = time.Now()
	return f.w.Flush()
}
