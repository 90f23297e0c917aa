package main

import (
	"bufio"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/internal/jsonl"
)

// sortLimit is the number of pairs check holds per pose to print them in
// ascending order. Past it, the pairs held are printed, sorted, and those
// found after them are printed as they are found, so that memory does not
// grow with the number of pairs. A variable for the tests.
var sortLimit = jsonl.SortLimit

// pairPrinter prints the result of each pose of check, in text or as JSON
// Lines (jsonl.Pairs writes the JSON lines, as the Beam pipeline's shards
// do), streaming the pairs of a pose once there are more than sortLimit.
// Its methods stop writing at the first write error, which err holds.
type pairPrinter struct {
	w    *bufio.Writer
	json bool
	all  bool
	max  int64 // the most pairs printed per pose (--max-pairs); 0: no limit

	js *jsonl.Pairs // the JSON lines, with json

	pose    int
	n       int64 // pairs taken in this pose
	held    []collide.Pair
	spilled bool // the pose's pairs are being printed as found
	stopped bool // more than max pairs: the query was stopped
	num     []byte
	err     error
}

// begin starts pose i.
func (p *pairPrinter) begin(i int) {
	if p.json {
		if p.js == nil {
			p.js = &jsonl.Pairs{W: p.w, Max: p.max, SortLimit: sortLimit}
		}
		p.js.Begin(i)
		p.n, p.err = 0, p.js.Err()
		return
	}
	p.pose, p.n, p.held, p.spilled, p.stopped = i, 0, p.held[:0], false, false
}

// add takes pair pr, found by the query; it returns false to stop the query
// (more than max pairs, or a write error).
func (p *pairPrinter) add(pr collide.Pair) bool {
	if p.json {
		ok := p.js.Add(pr)
		p.n, p.err = p.js.N(), p.js.Err()
		return ok
	}
	if p.err != nil {
		return false
	}
	if p.max > 0 && p.n == p.max {
		p.stopped = true // there are more than max
		return false
	}
	p.n++
	if p.spilled {
		p.pair(pr)
		return p.err == nil
	}
	p.held = append(p.held, pr)
	if len(p.held) >= sortLimit {
		p.spill()
	}
	return p.err == nil
}

// spill prints the head of the pose's result and the pairs held, sorted,
// and turns to printing pairs as they are found.
func (p *pairPrinter) spill() {
	slices.SortFunc(p.held, collide.ComparePairs)
	p.spilled = true
	p.printf("pose %d: collide, over %d pairs, listed as found:\n", p.pose, len(p.held))
	for _, pr := range p.held {
		p.pair(pr)
	}
	p.held = p.held[:0]
}

// end prints the rest of the pose's result: its pairs (unless printed
// already), whether it was stopped, its counts and its time d.
func (p *pairPrinter) end(st collide.Stats, d time.Duration) {
	if p.json {
		p.js.End(st, d)
		p.err = p.js.Err()
		return
	}
	collided := p.n > 0
	stats := fmt.Sprintf("bv tests %d, tri tests %d, updates %d, leaf tests %d, %s", st.BVTests, st.TriTests, st.Updates, st.LeafTests, fmtDuration(d))
	more := ""
	if p.stopped {
		more = fmt.Sprintf(", stopped at --max-pairs %d", p.max)
	}
	switch {
	case p.spilled:
		p.printf("pose %d: %d %s%s (%s)\n", p.pose, p.n, plural(int(p.n), "pair", "pairs"), more, stats)
	case !collided:
		p.printf("pose %d: no contact (%s)\n", p.pose, stats)
	case p.all:
		slices.SortFunc(p.held, collide.ComparePairs)
		p.printf("pose %d: collide, %d %s%s (%s)\n", p.pose, p.n, plural(int(p.n), "pair", "pairs"), more, stats)
		for _, pr := range p.held {
			p.pair(pr)
		}
	default:
		pr := p.held[0]
		p.printf("pose %d: collide, first pair %d %d (%s)\n", p.pose, pr.Env, pr.Fly, stats)
	}
}

// pair prints one pair, an indented line.
func (p *pairPrinter) pair(pr collide.Pair) {
	b := append(p.num[:0], "    "...)
	b = strconv.AppendInt(b, int64(pr.Env), 10)
	b = append(b, ' ')
	b = strconv.AppendInt(b, int64(pr.Fly), 10)
	p.num = append(b, '\n')
	if p.err == nil {
		_, p.err = p.w.Write(p.num)
	}
}

func (p *pairPrinter) printf(format string, args ...any) {
	if p.err == nil {
		_, p.err = fmt.Fprintf(p.w, format, args...)
	}
}
