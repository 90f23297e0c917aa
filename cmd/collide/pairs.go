package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/collide3d/collide"
)

// sortLimit is the number of pairs check holds per pose to print them in
// ascending order. Past it, the pairs held are printed, sorted, and those
// found after them are printed as they are found, so that memory does not
// grow with the number of pairs. A variable for the tests.
var sortLimit = 1 << 20

// pairPrinter prints the result of each pose of check, in text or as JSON
// Lines, streaming the pairs of a pose once there are more than sortLimit.
// Its methods stop writing at the first write error, which err holds.
type pairPrinter struct {
	w    *bufio.Writer
	json bool
	all  bool
	max  int64 // the most pairs printed per pose (--max-pairs); 0: no limit

	pose    int
	n       int64 // pairs taken in this pose
	held    []collide.Pair
	spilled bool // the pose's pairs are being printed as found
	stopped bool // more than max pairs: the query was stopped
	first   bool // the next JSON pair is the first of its list
	num     []byte
	err     error
}

// begin starts pose i.
func (p *pairPrinter) begin(i int) {
	p.pose, p.n, p.held, p.spilled, p.stopped = i, 0, p.held[:0], false, false
}

// add takes pair pr, found by the query; it returns false to stop the query
// (more than max pairs, or a write error).
func (p *pairPrinter) add(pr collide.Pair) bool {
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
	p.sortHeld()
	p.spilled = true
	if p.json {
		p.jsonHead(true)
	} else {
		p.printf("pose %d: collide, over %d pairs, listed as found:\n", p.pose, len(p.held))
	}
	for _, pr := range p.held {
		p.pair(pr)
	}
	p.held = p.held[:0]
}

func (p *pairPrinter) sortHeld() {
	slices.SortFunc(p.held, collide.ComparePairs)
}

// end prints the rest of the pose's result: its pairs (unless printed
// already), whether it was stopped, its counts and its time d.
func (p *pairPrinter) end(st collide.Stats, d time.Duration) {
	collided := p.n > 0
	if p.json {
		if !p.spilled {
			p.sortHeld()
			p.jsonHead(collided)
			for _, pr := range p.held {
				p.pair(pr)
			}
		}
		p.write("]")
		if p.stopped {
			p.write(`,"truncated":true`)
		}
		sec, _ := json.Marshal(d.Seconds())
		p.num = fmt.Appendf(p.num[:0], `,"stats":{"bv_tests":%d,"tri_tests":%d,"updates":%d,"leaf_tests":%d},"seconds":%s}`+"\n",
			st.BVTests, st.TriTests, st.Updates, st.LeafTests, sec)
		p.writeBytes(p.num)
		return
	}
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
		p.sortHeld()
		p.printf("pose %d: collide, %d %s%s (%s)\n", p.pose, p.n, plural(int(p.n), "pair", "pairs"), more, stats)
		for _, pr := range p.held {
			p.pair(pr)
		}
	default:
		pr := p.held[0]
		p.printf("pose %d: collide, first pair %d %d (%s)\n", p.pose, pr.Env, pr.Fly, stats)
	}
}

// jsonHead prints the start of the pose's JSON line, up to the pairs.
func (p *pairPrinter) jsonHead(collided bool) {
	p.num = strconv.AppendInt(append(p.num[:0], `{"pose":`...), int64(p.pose), 10)
	p.num = strconv.AppendBool(append(p.num, `,"collide":`...), collided)
	p.num = append(p.num, `,"pairs":[`...)
	p.writeBytes(p.num)
	p.first = true
}

// pair prints one pair: "[e,f]" in JSON (after a comma but for the first),
// an indented line in text.
func (p *pairPrinter) pair(pr collide.Pair) {
	b := p.num[:0]
	if p.json {
		if !p.first {
			b = append(b, ',')
		}
		p.first = false
		b = append(b, '[')
		b = strconv.AppendInt(b, int64(pr.Env), 10)
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(pr.Fly), 10)
		b = append(b, ']')
	} else {
		b = append(b, "    "...)
		b = strconv.AppendInt(b, int64(pr.Env), 10)
		b = append(b, ' ')
		b = strconv.AppendInt(b, int64(pr.Fly), 10)
		b = append(b, '\n')
	}
	p.num = b
	p.writeBytes(b)
}

func (p *pairPrinter) writeBytes(b []byte) {
	if p.err == nil {
		_, p.err = p.w.Write(b)
	}
}

func (p *pairPrinter) write(s string) {
	if p.err == nil {
		_, p.err = p.w.WriteString(s)
	}
}

func (p *pairPrinter) printf(format string, args ...any) {
	if p.err == nil {
		_, p.err = fmt.Fprintf(p.w, format, args...)
	}
}
