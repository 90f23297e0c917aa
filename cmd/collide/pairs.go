package main

import (
	"bufio"
	"fmt"
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
// do), streaming the pairs of a pose once there are more than sortLimit
// (jsonl.PairHold, in text). Its methods stop writing at the first write
// error, which err holds.
type pairPrinter struct {
	w    *bufio.Writer
	json bool
	all  bool
	max  int64 // the most pairs printed per pose (--max-pairs); 0: no limit
	// convex adds the convex test's counts to the JSON stats (--method
	// given).
	convex bool

	js *jsonl.Pairs   // the JSON lines, with json
	h  jsonl.PairHold // the pose's pairs, in text

	pose int
	n    int64 // pairs taken in this pose
	num  []byte
	err  error
}

// begin starts pose i.
func (p *pairPrinter) begin(i int) {
	if p.json {
		if p.js == nil {
			p.js = &jsonl.Pairs{W: p.w, Max: p.max, SortLimit: sortLimit, Convex: p.convex}
		}
		p.js.Begin(i)
		p.n, p.err = 0, p.js.Err()
		return
	}
	if p.h.Spill == nil {
		p.h.Spill = func(held []collide.Pair) bool {
			p.printf("pose %d: collide, over %d pairs, listed as found:\n", p.pose, len(held))
			for _, pr := range held {
				p.pair(pr)
			}
			return p.err == nil
		}
		p.h.Stream = func(pr collide.Pair) bool {
			p.pair(pr)
			return p.err == nil
		}
	}
	p.h.Max, p.h.Limit = p.max, sortLimit
	p.pose, p.n = i, 0
	p.h.Begin()
}

// add takes pair pr, found by the query; it returns false to stop the query
// (more than max pairs, or a write error).
func (p *pairPrinter) add(pr collide.Pair) bool {
	if p.json {
		ok := p.js.Add(pr)
		p.n, p.err = p.js.N(), p.js.Err()
		return ok
	}
	ok := p.err == nil && p.h.Add(pr)
	p.n = p.h.N()
	return ok
}

// end prints the rest of the pose's result: its pairs (unless printed
// already), whether it was stopped, which model is inside the other (in,
// with --solid), its counts and its time d.
func (p *pairPrinter) end(st collide.Stats, in collide.Inside, d time.Duration) {
	if p.json {
		p.js.SetInside(in)
		p.js.End(st, d)
		p.err = p.js.Err()
		return
	}
	stats := fmt.Sprintf("bv tests %d, tri tests %d, updates %d, leaf tests %d, %s%s", st.BVTests, st.TriTests, st.Updates, st.LeafTests, solidStats(st), fmtDuration(d))
	if st.PlaneHits+st.PlaneNew > 0 {
		stats = "apart by a plane, " + stats
	}
	more := ""
	if p.h.Stopped() {
		more = fmt.Sprintf(", stopped at --max-pairs %d", p.max)
	}
	switch {
	case p.h.Spilled():
		p.printf("pose %d: %d %s%s (%s)\n", p.pose, p.n, plural(int(p.n), "pair", "pairs"), more, stats)
	case p.n == 0 && in == collide.FlyInEnv:
		p.printf("pose %d: collide: fly inside env (%s)\n", p.pose, stats)
	case p.n == 0 && in == collide.EnvInFly:
		p.printf("pose %d: collide: env inside fly (%s)\n", p.pose, stats)
	case p.n == 0:
		p.printf("pose %d: no contact (%s)\n", p.pose, stats)
	case p.all:
		p.printf("pose %d: collide, %d %s%s (%s)\n", p.pose, p.n, plural(int(p.n), "pair", "pairs"), more, stats)
		for _, pr := range p.h.Held() {
			p.pair(pr)
		}
	default:
		pr := p.h.Held()[0]
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

// solidStats is the count of point-in-solid tests of a query of solids
// (--solid) for its text line, "solid tests N, ", or "" for none.
func solidStats(st collide.Stats) string {
	if st.SolidTests == 0 {
		return ""
	}
	return fmt.Sprintf("solid tests %d, ", st.SolidTests)
}
