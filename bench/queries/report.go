package queries

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/collide3d/collide/bench/internal/md"
	"github.com/collide3d/collide/geom"
)

// WriteMarkdown prints the report: a summary of every row and kind (the
// median time, marked against the row's target), then per row a table of
// every system: its times, counts and answer, whether the answer agrees
// with the reference, and (builds) its memory.
func (r *Report) WriteMarkdown(w io.Writer) error {
	bw := bufio.NewWriter(w)
	p := func(format string, args ...any) { fmt.Fprintf(bw, format, args...) }
	p("# Queries at peer speed: issue 30's rows with every kind\n\n")
	p("%s", r.Machine)
	if !math.IsNaN(r.Load[0]) && !math.IsNaN(r.Load[1]) {
		p(", load average %.1f at the start and %.1f at the end of the run (%s)", r.Load[0], r.Load[1], r.Elapsed.Round(time.Second))
	}
	p(". Every row is run by every kind of tree (and, where the peers driver is given, by its systems), "+
		"each kind in a process of its own (reading the meshes and building the models, then the rounds one after the "+
		"other), %d rounds; times are the least and the median of the rounds, in ms. A process whose query passes "+
		"its cap of %s (a build, brute force, a setup or a driver's run: %s) is killed, and the row shows \"> cap\" "+
		"(\"then > cap\" after the rounds that ended)", r.Rounds, fmtDur(r.Cap), fmtDur(r.BuildCap))
	if r.Drain > 0 {
		p(", after waiting up to %s more for it: one that ended meanwhile shows its time, marked \"(past cap)\"", fmtDur(r.Drain))
	}
	p(". The target of a query is %s with every kind; of a build, twice the fastest k-DOP build. "+
		"Answers are checked against the row's reference (brute force, SweepAll, or the first kind that answered): "+
		"a distance within the sum of the two error bounds (a peer's within a relative %g, 1e-9 near 0), the same "+
		"time-of-impact interval.\n\n", fmtDur(Target), 1e-6)
	kinds := r.kinds()
	p("## Summary\n\n")
	p("Median times; ✓ within the row's target, ✗ not.")
	if r.Before != "" {
		p(" Each kind ran in %s (before) right before this program (after): \"before → after\"; the marks are after's.", r.Before)
	}
	p("\n\n")
	t := md.NewTable(bw, append(append([]string{"row", "op", "target"}, kinds...), "met")...)
	for _, row := range r.Rows {
		cells := []string{row.Scene.Name, row.Scene.Op.String(), fmtDur(row.Target)}
		if row.Skipped != "" {
			for range kinds {
				cells = append(cells, "skipped")
			}
			t.Row(append(cells, "–")...)
			continue
		}
		met := 0
		for _, k := range kinds {
			res := row.result(k, false)
			if res == nil {
				cells = append(cells, "–")
				continue
			}
			cell := r.timeCell(&row, res, res.Median)
			if res.Answered() {
				cell += " " + mark(res.Met(row.Target))
			}
			if b := row.result(k, true); b != nil {
				cell = r.timeCell(&row, b, b.Median) + " → " + cell
			}
			if res.Met(row.Target) {
				met++
			}
			cells = append(cells, cell)
		}
		t.Row(append(cells, fmt.Sprintf("%d/%d", met, len(kinds)))...)
	}
	md.WriteSkipped(bw, r.Skipped)

	for _, op := range []Op{Distance, TOI, Build} {
		first := true
		for _, row := range r.Rows {
			if row.Scene.Op != op || row.Skipped != "" {
				continue
			}
			if first {
				p("\n## %s\n", titles[op])
				first = false
			}
			r.writeRow(bw, &row)
		}
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	return nil
}

var titles = map[Op]string{Distance: "Distance", TOI: "Time of impact", Build: "Builds"}

// writeRow writes a row's table.
func (r *Report) writeRow(bw *bufio.Writer, row *Row) {
	p := func(format string, args ...any) { fmt.Fprintf(bw, format, args...) }
	sc := row.Scene
	p("\n### %s: %s\n\n", sc.Name, sc.About)
	switch sc.Op {
	case Build:
		p("`%s`, %s triangles.", sc.Env, md.Thousands(row.EnvTris))
	case Distance:
		p("`%s` (%s triangles) and `%s` (%s) at `%s`.", sc.Env, md.Thousands(row.EnvTris), sc.Fly, md.Thousands(row.FlyTris), poseString(sc.From))
	case TOI:
		p("`%s` (%s triangles) and `%s` (%s) moving from `%s` to `%s`.", sc.Env, md.Thousands(row.EnvTris), sc.Fly,
			md.Thousands(row.FlyTris), poseString(sc.From), poseString(sc.To))
	}
	switch {
	case sc.Op == Build:
		p(" Target: %s.", fmtDur(row.Target))
	case row.Reference != "" && row.RefNote != "":
		p(" Reference: %s, %s (%s).", row.Reference, row.refAnswer(), row.RefNote)
	case row.Reference != "":
		p(" Reference: %s, %s.", row.Reference, row.refAnswer())
	default:
		p(" No reference: %s.", row.RefNote)
	}
	p("\n\n")
	var t *md.Table
	switch sc.Op {
	case Distance:
		t = md.NewTable(bw, "system", "min ms", "median ms", "rounds", "bv tests", "tri tests", "leaf tests", "distance", "bound", "agrees", "target")
	case TOI:
		t = md.NewTable(bw, "system", "min ms", "median ms", "rounds", "bv tests", "tri tests", "leaf tests", "answer", "agrees", "target")
	case Build:
		t = md.NewTable(bw, "system", "min ms", "median ms", "rounds", "allocated MB", "peak MB", "model MB", "process MB", "target")
	}
	for i := range row.Results {
		res := &row.Results[i]
		name := res.System
		switch {
		case res.Peer:
			name = "peer " + name
		case res.Before:
			name += " (before)"
		}
		cells := []string{name, r.timeCell(row, res, res.Min), r.timeCell(row, res, res.Median), strconv.Itoa(res.Rounds)}
		if res.Err != "" {
			cells[1] = "failed: " + strings.ReplaceAll(res.Err, "|", "\\|")
		}
		answered := res.Answered()
		count := func(n int64) string {
			if !answered || res.Peer {
				return "–"
			}
			return md.Thousands(int(n))
		}
		verdict := "–"
		if answered && row.Reference != "" {
			verdict = mark(res.Agrees)
		}
		target := "–"
		if answered && row.Target > 0 {
			target = mark(res.Met(row.Target))
		}
		switch sc.Op {
		case Distance:
			d, b := "–", "–"
			if answered {
				d = strconv.FormatFloat(res.Distance, 'g', 10, 64)
				if !res.Peer {
					b = fmt.Sprintf("%.2g", res.Bound)
				}
			}
			cells = append(cells, count(res.Stats.BVTests), count(res.Stats.TriTests), count(res.Stats.LeafTests), d, b, verdict, target)
		case TOI:
			a := "–"
			if answered {
				a = toiString(res.Hit, res.Maybe, res.TOI.Lo, res.TOI.Hi)
			}
			cells = append(cells, count(res.Stats.BVTests), count(res.Stats.TriTests), count(res.Stats.LeafTests), a, verdict, target)
		case Build:
			mb := func(n int64, known bool) string {
				if !answered || !known {
					return "–"
				}
				return md.MB(n)
			}
			cells = append(cells, mb(res.Alloc, !res.Peer), mb(res.Peak, true), mb(res.Bytes, true), mb(res.RSS, !res.Peer), target)
		}
		t.Row(cells...)
	}
	if line := row.versusPeers(); line != "" {
		p("\n%s\n", line)
	}
	if sc.Op == Build {
		p("\nallocated: the heap allocated during the build; peak: the most the heap's objects (live or not yet swept) " +
			"exceeded their bytes before it, sampled every millisecond (runtime/metrics); model: Model.Bytes. " +
			"A peer's peak and model are the driver's heap accounting for both its models (the flying one is a sphere " +
			"of 20 triangles); its time, both builds.\n")
	}
}

// timeCell formats one of a result's times: "> cap" when its first round
// passed its cap, "(past cap)" after a time that ended within the drain,
// "(then > cap)" when a later round passed it.
func (r *Report) timeCell(row *Row, res *Result, d time.Duration) string {
	if res.Err != "" {
		return "failed"
	}
	// A query's cap, or a build's or the driver's.
	c := r.Cap
	if res.Peer || row.Scene.Op == Build {
		c = r.BuildCap
	}
	if res.Rounds == 0 && res.Capped {
		return "> " + fmtDur(c)
	}
	s := md.Ms(d)
	switch {
	case res.Late:
		s += " (past cap)"
	case res.Capped:
		s += " (then > " + fmtDur(c) + ")"
	}
	return s
}

// kinds returns collide's kinds in the report, in their first row's order.
func (r *Report) kinds() []string {
	var ks []string
	for _, row := range r.Rows {
		for _, res := range row.Results {
			if !res.Peer && !contains(ks, res.System) {
				ks = append(ks, res.System)
			}
		}
	}
	return ks
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// result returns the row's result of collide's kind k (in Config.Before's
// program if before), or nil.
func (row *Row) result(k string, before bool) *Result {
	for i := range row.Results {
		if res := &row.Results[i]; !res.Peer && res.System == k && res.Before == before {
			return res
		}
	}
	return nil
}

// versusPeers compares collide with the driver's systems on the row, by
// their medians (after the change, with Config.Before): on a distance row
// collide's fastest kind against the fastest peer (issue 30: collide at
// least as fast, the goal 2×); on a build, OBB, RSS and AABB trees
// against FCL's of the same volume and against Bullet's. Empty without
// peers.
func (row *Row) versusPeers() string {
	best := func(keep func(*Result) bool) *Result {
		var b *Result
		for i := range row.Results {
			r := &row.Results[i]
			if r.Answered() && !r.Capped && !r.Before && keep(r) && (b == nil || r.Median < b.Median) {
				b = r
			}
		}
		return b
	}
	ratio := func(a, b *Result) string { return md.Ratio(float64(a.Median), float64(b.Median)) }
	switch row.Scene.Op {
	case Distance:
		c, f := best(func(r *Result) bool { return !r.Peer }), best(func(r *Result) bool { return r.Peer })
		if c == nil || f == nil {
			return ""
		}
		return fmt.Sprintf("Fastest: collide's %s, %s ms; the peers' %s, %s ms: collide takes %s the peer's time (the goal: at most 0.5×).",
			c.System, md.Ms(c.Median), f.System, md.Ms(f.Median), ratio(c, f))
	case Build:
		var parts []string
		for _, k := range []string{"obb", "rss", "aabb"} {
			c := best(func(r *Result) bool { return !r.Peer && r.System == k })
			if c == nil {
				continue
			}
			for _, peer := range []string{"fcl-" + k, "bullet"} {
				if f := best(func(r *Result) bool { return r.Peer && r.System == peer }); f != nil {
					parts = append(parts, fmt.Sprintf("%s ÷ %s %s", k, peer, ratio(c, f)))
				}
			}
		}
		if len(parts) == 0 {
			return ""
		}
		return "Builds beside the peers' (medians; the goal: within 2×): " + strings.Join(parts, ", ") + "."
	}
	return ""
}

// refAnswer formats the reference's answer.
func (row *Row) refAnswer() string {
	if row.Scene.Op == Distance {
		return fmt.Sprintf("distance %s (bound %.2g)", strconv.FormatFloat(row.RefDistance, 'g', 10, 64), row.RefBound)
	}
	return toiString(row.RefHit, row.RefMaybe, row.RefTOI.Lo, row.RefTOI.Hi)
}

func toiString(hit, maybe bool, lo, hi float64) string {
	switch {
	case hit:
		return fmt.Sprintf("hit in [%.9g, %.9g]", lo, hi)
	case maybe:
		return fmt.Sprintf("maybe from %.9g", lo)
	}
	return "no contact"
}

func mark(ok bool) string {
	if ok {
		return "✓"
	}
	return "✗"
}

// fmtDur formats a cap or a target: "20 ms", "2 s".
func fmtDur(d time.Duration) string {
	if d <= 0 {
		return "–"
	}
	if d < time.Second {
		return md.Ms(d) + " ms"
	}
	return md.Sig(d.Seconds()) + " s"
}

// poseString formats a pose as the command line's --pose takes it.
func poseString(p geom.Pose) string {
	a := p.Array()
	f := make([]string, len(a))
	for i, x := range a {
		f[i] = strconv.FormatFloat(x, 'g', -1, 64)
	}
	return strings.Join(f, " ")
}
