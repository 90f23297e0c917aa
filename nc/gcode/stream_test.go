package gcode

import (
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"
)

// lines is an io.Reader of n generated lines: head, then body(i) for i in
// [0, n), then tail; it holds one line at a time.
type lines struct {
	head, tail string
	body       func(i int) string
	n, i       int
	buf        []byte
	done       bool
}

func (l *lines) Read(p []byte) (int, error) {
	for len(l.buf) == 0 {
		switch {
		case l.head != "":
			l.buf, l.head = []byte(l.head), ""
		case l.i < l.n:
			l.buf = []byte(l.body(l.i))
			l.i++
		case !l.done:
			l.buf, l.done = []byte(l.tail), true
		default:
			return 0, io.EOF
		}
	}
	k := copy(p, l.buf)
	l.buf = l.buf[k:]
	return k, nil
}

// heapInUse returns the live heap after a collection.
func heapInUse() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// TestReaderBounded reads 150,000 moves (22 MB as Moves) through a
// Reader, in programs that hold moves back (a T word without M6, an axis
// never given): the Reader never holds more than DefaultLookahead of them, and
// the live heap stays far below what the moves would take.
func TestReaderBounded(t *testing.T) {
	const n = 150_000
	for _, head := range []string{"G0 X0 Y0 Z5\nT2 M6\n", "T1\nG0 X0 Y0\n"} {
		src := &lines{head: head, n: n, body: func(i int) string { return fmt.Sprintf("G1 X%d Y%d\n", i%1000, i%7) }}
		r := NewReader(src, "big.nc", Options{})
		base := heapInUse()
		count := 0
		var peak uint64
		for {
			m, err := r.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			count++
			if held := len(r.r.pending) - r.r.phead + len(r.r.ready) - r.r.head; held > DefaultLookahead+1 {
				t.Fatalf("%q: %d moves held", head, held)
			}
			if count%50_000 == 0 {
				peak = max(peak, heapInUse())
			}
			_ = m
		}
		if count != n+1 {
			t.Errorf("%q: %d moves, want %d", head, count, n+1)
		}
		// DefaultLookahead moves of 144 bytes are 2.4 MB (twice that in a
		// slice grown by append); the moves read are 22 MB.
		if grew := int64(peak) - int64(base); grew > 10<<20 {
			t.Errorf("%q: the heap grew by %d MB reading %d moves", head, grew>>20, n)
		}
	}
}

// TestLookahead checks the moves that wait for what comes later: the
// tools of the moves before the first M6, and the axes given late, within
// DefaultLookahead moves (as if the whole program were read first) and
// beyond it (kept as read, with a warning, or an error naming the line).
func TestLookahead(t *testing.T) {
	body := func(i int) string { return fmt.Sprintf("G1 X%d Y1\n", i%100+1) }
	// As Read does, but through a Reader.
	read := func(head string, n int, tail string) (*Program, error) {
		r := NewReader(&lines{head: head, n: n, body: body, tail: tail}, "la.nc", Options{})
		p := &Program{Name: "la.nc"}
		for {
			m, err := r.Next()
			if err == io.EOF {
				p.Warnings = r.Warnings()
				return p, nil
			}
			if err != nil {
				return nil, err
			}
			p.Moves = append(p.Moves, m)
		}
	}
	tools := func(p *Program) map[int]int {
		c := map[int]int{}
		for _, m := range p.Moves {
			c[m.Tool]++
		}
		return c
	}
	// T1, then 10 moves, then M6: the 10 moves had no tool in the spindle.
	p, err := read("G0 X0 Y0 Z5\nT1\n", 10, "M6\nG1 X5\n")
	if err != nil {
		t.Fatal(err)
	}
	if c := tools(p); c[0] != 11 || c[1] != 1 || len(p.Warnings) != 0 {
		t.Errorf("T1, 10 moves, M6: tools %v, warnings %v", c, p.Warnings)
	}
	// No M6 at all: the T word's tool, however many moves.
	p, err = read("G0 X0 Y0 Z5\nT1\n", DefaultLookahead+100, "")
	if err != nil {
		t.Fatal(err)
	}
	if c := tools(p); c[0] != 1 || c[1] != DefaultLookahead+100 {
		t.Errorf("T1 without M6: tools %v", c)
	}
	// The first M6 after more than DefaultLookahead moves: kept, with a warning.
	p, err = read("G0 X0 Y0 Z5\nT1\n", DefaultLookahead+100, "T2 M6\nG1 X5\n")
	if err != nil {
		t.Fatal(err)
	}
	if c := tools(p); c[1] != DefaultLookahead+100 || c[2] != 1 || len(p.Warnings) != 1 || !strings.Contains(p.Warnings[0].Msg, "first M6") {
		t.Errorf("T1, many moves, T2 M6: tools %v, warnings %v", c, p.Warnings)
	}
	// Z given after 10 moves: they move at its first value.
	p, err = read("G0 X0 Y0\n", 10, "G1 Z5\n")
	if err != nil {
		t.Fatal(err)
	}
	if p.Moves[0].From.Z != 5 || p.Moves[10].To.Z != 5 {
		t.Errorf("Z first given after 10 moves: %v, %v", p.Moves[0], p.Moves[10])
	}
	// Z never given: 0, however many moves.
	p, err = read("G0 X0 Y0\n", DefaultLookahead+100, "")
	if err != nil || p.Moves[len(p.Moves)-1].To.Z != 0 {
		t.Errorf("Z never given: %v", err)
	}
	// Z given at 0 after more than DefaultLookahead moves: as read.
	if _, err = read("G0 X0 Y0\n", DefaultLookahead+100, "G1 Z0\n"); err != nil {
		t.Errorf("Z0 given late: %v", err)
	}
	// Z given elsewhere after more than DefaultLookahead moves: an error naming
	// the line (the moves returned had Z at 0).
	line := DefaultLookahead + 100 + 2
	_, err = read("G0 X0 Y0\n", DefaultLookahead+100, "G1 Z5\n")
	if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("la.nc: line %d: gcode: Z is first given", line)) {
		t.Errorf("Z5 given late: %v, want an error at line %d", err, line)
	}
}
