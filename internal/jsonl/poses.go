package jsonl

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"time"

	"github.com/collide3d/collide"
)

// SortLimit is the number of pairs Pairs holds per pose by default to write
// them in ascending order.
const SortLimit = 1 << 20

// PairHold holds the pairs a query finds for one pose, for its output to
// list them in ascending order: up to Limit of them. Past Limit it hands
// those held, sorted, to Spill, and then each pair found to Stream as it
// is found, so that memory does not grow with the number of pairs. It
// stops the query after Max pairs (Stopped). Spill and Stream return false
// to stop the query (a write error). It is the part of the check lines'
// printers that the JSON (Pairs) and the CLI's text share.
type PairHold struct {
	Max    int64 // the most pairs taken per pose (--max-pairs); 0: no limit
	Limit  int   // the pairs held per pose; 0: SortLimit
	Spill  func(held []collide.Pair) bool
	Stream func(collide.Pair) bool

	n       int64 // pairs taken in this pose
	held    []collide.Pair
	spilled bool // the pose's pairs are being streamed
	stopped bool // more than Max pairs: the query was stopped
	failed  bool // Spill or Stream returned false
}

// Begin starts a pose.
func (h *PairHold) Begin() {
	h.n, h.held, h.spilled, h.stopped, h.failed = 0, h.held[:0], false, false, false
}

// Add takes pair pr, found by the query; it returns false to stop the
// query (more than Max pairs, or a callback returned false).
func (h *PairHold) Add(pr collide.Pair) bool {
	if h.failed {
		return false
	}
	if h.Max > 0 && h.n == h.Max {
		h.stopped = true // there are more than Max
		return false
	}
	h.n++
	if h.spilled {
		h.failed = !h.Stream(pr)
		return !h.failed
	}
	h.held = append(h.held, pr)
	limit := h.Limit
	if limit <= 0 {
		limit = SortLimit
	}
	if len(h.held) >= limit {
		slices.SortFunc(h.held, collide.ComparePairs)
		h.spilled = true
		h.failed = !h.Spill(h.held)
		h.held = h.held[:0]
	}
	return !h.failed
}

// Held returns the pairs held, sorted: every pair of the pose unless it
// spilled.
func (h *PairHold) Held() []collide.Pair {
	slices.SortFunc(h.held, collide.ComparePairs)
	return h.held
}

// N returns the number of pairs taken in the pose.
func (h *PairHold) N() int64 { return h.n }

// Spilled reports whether the pose's pairs are streamed as they are found.
func (h *PairHold) Spilled() bool { return h.spilled }

// Stopped reports whether the pose's query was stopped at Max pairs.
func (h *PairHold) Stopped() bool { return h.stopped }

// Pairs writes the line of collide check --json for each pose:
//
//	{"pose":N,"collide":BOOL,"pairs":[[envTri,flyTri],...],"truncated":true,"inside":"fly"|"env",
//	 "stats":{"bv_tests":N,"tri_tests":N,"updates":N,"leaf_tests":N},"seconds":S}
//
// ("truncated" only for a pose stopped at Max pairs; "inside" only for a
// query of solids that found one model inside the other, SetInside, with
// no pair; the stats add the convex test's counts, with Convex, and the
// solid test's, when the query ran them: see appendStats). The pairs of a pose
// are written in ascending order, up to SortLimit of them: past it, those
// held are written sorted and the others as they are found (PairHold).
//
// Call Begin, then Add for each pair found (it is the query's callback),
// then End. The methods stop writing at the first write error, which Err
// returns.
type Pairs struct {
	W         io.Writer
	Max       int64 // the most pairs written per pose (--max-pairs); 0: no limit
	SortLimit int   // the pairs held per pose; 0: the package's SortLimit
	// Convex adds the convex test's counts to the stats when it ran
	// (check --method).
	Convex bool

	h     PairHold
	pose  int
	in    collide.Inside
	first bool // the next pair is the first of its list
	b     []byte
	err   error
}

// Begin starts the line of pose i.
func (p *Pairs) Begin(i int) {
	if p.h.Spill == nil {
		p.h.Spill = func(held []collide.Pair) bool {
			p.head(true)
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
	p.h.Max, p.h.Limit = p.Max, p.SortLimit
	p.pose, p.in = i, collide.NotInside
	p.h.Begin()
}

// SetInside records, before End, what the pose's query of solids found
// (collide.Result.Inside, Query.Inside).
func (p *Pairs) SetInside(in collide.Inside) { p.in = in }

// InsideName returns the value of the key "inside" for in: "fly", "env",
// or "" for NotInside.
func InsideName(in collide.Inside) string {
	switch in {
	case collide.FlyInEnv:
		return "fly"
	case collide.EnvInFly:
		return "env"
	}
	return ""
}

// Add takes pair pr, found by the query; it returns false to stop the
// query (more than Max pairs, or a write error).
func (p *Pairs) Add(pr collide.Pair) bool { return p.err == nil && p.h.Add(pr) }

// N returns the number of pairs taken in the pose.
func (p *Pairs) N() int64 { return p.h.N() }

// Err returns the first write error.
func (p *Pairs) Err() error { return p.err }

// End writes the rest of the pose's line: its pairs (unless written
// already), whether it was stopped, its counts st and its time d.
func (p *Pairs) End(st collide.Stats, d time.Duration) {
	if !p.h.Spilled() {
		p.head(p.h.N() > 0 || p.in != collide.NotInside)
		for _, pr := range p.h.Held() {
			p.pair(pr)
		}
	}
	p.b = append(p.b[:0], ']')
	if p.h.Stopped() {
		p.b = append(p.b, `,"truncated":true`...)
	}
	if name := InsideName(p.in); name != "" {
		p.b = append(append(append(p.b, `,"inside":"`...), name...), '"')
	}
	sec, _ := json.Marshal(d.Seconds())
	p.b = append(appendStats(p.b, &st, p.Convex), `,"seconds":`...)
	p.b = append(append(p.b, sec...), "}\n"...)
	p.write(p.b)
}

// head writes the start of the pose's line, up to the pairs.
func (p *Pairs) head(collided bool) {
	p.b = strconv.AppendInt(append(p.b[:0], `{"pose":`...), int64(p.pose), 10)
	p.b = strconv.AppendBool(append(p.b, `,"collide":`...), collided)
	p.b = append(p.b, `,"pairs":[`...)
	p.write(p.b)
	p.first = true
}

// pair writes one pair, "[e,f]", after a comma but for the first.
func (p *Pairs) pair(pr collide.Pair) {
	b := p.b[:0]
	if !p.first {
		b = append(b, ',')
	}
	p.first = false
	b = append(b, '[')
	b = strconv.AppendInt(b, int64(pr.Env), 10)
	b = append(b, ',')
	b = strconv.AppendInt(b, int64(pr.Fly), 10)
	p.b = append(b, ']')
	p.write(p.b)
}

func (p *Pairs) write(b []byte) {
	if p.err == nil {
		_, p.err = p.W.Write(b)
	}
}

// AppendDistance appends the line of collide distance --json for pose i,
// whose query answered r in d, with the cut-off max (--max):
//
//	{"pose":N,"distance":D,"bound":B,"env":I,"fly":J,"p_env":[X,Y,Z],"p_fly":[X,Y,Z],
//	 "stats":{"bv_tests":N,"tri_tests":N,"updates":N,"leaf_tests":N},"seconds":S}
//
// or {"pose":N,"far":true,"max":D,"stats":{...},"seconds":S} for a pose
// with nothing closer than max; a query stopped at its deadline adds
// "stopped":true,"lower":L (without distance to points if it found
// nothing below the cut-off). With solids (collide.DistanceOptions.Solid),
// a model inside the other writes
//
//	{"pose":N,"distance":0,"inside":"fly"|"env","p_env":[X,Y,Z],"p_fly":[X,Y,Z],"stats":{...},"seconds":S}
//
// the points being the vertex found inside.
func AppendDistance(b []byte, i int, r *collide.DistanceResult, max float64, d time.Duration) []byte {
	b = strconv.AppendInt(append(b, `{"pose":`...), int64(i), 10)
	switch {
	case r.Inside != collide.NotInside:
		b = AppendNumber(append(b, `,"distance":`...), r.Distance)
		b = append(append(append(b, `,"inside":"`...), InsideName(r.Inside)...), '"')
		b = AppendVec(append(b, `,"p_env":`...), r.PEnv)
		b = AppendVec(append(b, `,"p_fly":`...), r.PFly)
	case r.Far:
		b = AppendNumber(append(b, `,"far":true,"max":`...), max)
	case r.Env < 0: // stopped before any pair below the cut-off
	default:
		b = AppendNumber(append(b, `,"distance":`...), r.Distance)
		b = AppendNumber(append(b, `,"bound":`...), r.Bound)
		b = strconv.AppendInt(append(b, `,"env":`...), int64(r.Env), 10)
		b = strconv.AppendInt(append(b, `,"fly":`...), int64(r.Fly), 10)
		b = AppendVec(append(b, `,"p_env":`...), r.PEnv)
		b = AppendVec(append(b, `,"p_fly":`...), r.PFly)
	}
	if r.Stopped {
		b = AppendNumber(append(b, `,"stopped":true,"lower":`...), r.Lower)
	}
	b = append(appendStats(b, &r.Stats, false), `,"seconds":`...)
	b = AppendNumber(b, d.Seconds())
	return append(b, "}\n"...)
}

// appendStats appends the "stats" object of a query's counts st:
//
//	,"stats":{"bv_tests":N,"tri_tests":N,"updates":N,"leaf_tests":N}
//
// with "convex", "plane_hits" and "plane_new" after them when convex
// asks for them and the query ran the convex test (collide.Stats.Convex),
// and "solid_tests" when it ran point-in-solid tests (which only a query
// of solids does). The keys of the contract's line stay as they are unless
// the user asked for more (--method, --solid).
func appendStats(b []byte, st *collide.Stats, convex bool) []byte {
	b = fmt.Appendf(b, `,"stats":{"bv_tests":%d,"tri_tests":%d,"updates":%d,"leaf_tests":%d`,
		st.BVTests, st.TriTests, st.Updates, st.LeafTests)
	if convex && st.Convex != 0 {
		b = fmt.Appendf(b, `,"convex":%d,"plane_hits":%d,"plane_new":%d`, st.Convex, st.PlaneHits, st.PlaneNew)
	}
	if st.SolidTests != 0 {
		b = fmt.Appendf(b, `,"solid_tests":%d`, st.SolidTests)
	}
	return append(b, '}')
}

// AppendMotion appends the line of collide check --ccd --json for motion
// i, whose query answered r in d:
//
//	{"motion":I,"hit":BOOL,"toi":[LO,HI],"pair":[envTri,flyTri],"maybe":BOOL,
//	 "stats":{"bv_tests":N,"tri_tests":N,"updates":N,"leaf_tests":N,"spans":N,"exact":N},"seconds":S}
//
// with toi on a hit, a maybe or a query stopped, pair on a hit only, and
// "stopped":true after maybe when the deadline stopped the query.
func AppendMotion(b []byte, i int, r *collide.TOIResult, d time.Duration) []byte {
	b = strconv.AppendInt(append(b, `{"motion":`...), int64(i), 10)
	b = strconv.AppendBool(append(b, `,"hit":`...), r.Hit)
	if r.Hit || r.Maybe || r.Stopped {
		b = AppendNumber(append(b, `,"toi":[`...), r.TOI.Lo)
		b = AppendNumber(append(b, ','), r.TOI.Hi)
		b = append(b, ']')
	}
	if r.Hit {
		b = strconv.AppendInt(append(b, `,"pair":[`...), int64(r.Pair.Env), 10)
		b = strconv.AppendInt(append(b, ','), int64(r.Pair.Fly), 10)
		b = append(b, ']')
	}
	b = strconv.AppendBool(append(b, `,"maybe":`...), r.Maybe)
	if r.Stopped {
		b = append(b, `,"stopped":true`...)
	}
	st := r.Stats
	b = fmt.Appendf(b, `,"stats":{"bv_tests":%d,"tri_tests":%d,"updates":%d,"leaf_tests":%d,"spans":%d,"exact":%d},"seconds":`,
		st.BVTests, st.TriTests, st.Updates, st.LeafTests, r.Spans, r.Exact)
	b = AppendNumber(b, d.Seconds())
	return append(b, "}\n"...)
}
