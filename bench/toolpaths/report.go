package toolpaths

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/collide3d/collide/bench/internal/md"
)

// bvs returns the report's trees, in run order.
func (r *Report) bvs() []string {
	return md.Distinct(r.Cells, func(c *Cell) string { return c.BV })
}

// Best returns the fastest cell of env and test over the trees, or nil.
func (r *Report) Best(env, test string) *Cell {
	var best *Cell
	for _, c := range r.Cells {
		if c.Env == env && c.Test == test && (best == nil || c.Time < best.Time) {
			best = c
		}
	}
	return best
}

// OBBRatio returns the time of env's test with OBB trees ÷ with 18-DOP
// trees (the dissertation's RAPID ÷ 18-DOP), or NaN if either is missing.
func (r *Report) OBBRatio(env, test string) float64 {
	o, k := r.Cell(env, test, "obb"), r.Cell(env, test, "kdop18")
	if o == nil || k == nil {
		return math.NaN()
	}
	return float64(o.Time) / float64(max(k.Time, 1))
}

// WriteMarkdown writes the report: the environments, the contacts of every
// test, the time of every test with every tree, and the dissertation's
// conclusions checked against them.
func (r *Report) WriteMarkdown(out io.Writer) error {
	w := bufio.NewWriter(out)
	c := r.Config
	size := "full"
	if c.Quick {
		size = "quick"
	}
	fmt.Fprintf(w, "# collide bench --nc\n\n")
	fmt.Fprintf(w, "The NC verification experiments of Klosowski's dissertation (chapter 8):\n"+
		"zig-zag finishing paths of a ball-end tool over terrains and mold parts, checked with\n"+
		"the exact ball at the moves' ends, the exact ball and its swept volume (package nc),\n"+
		"and three polyhedral tools at the moves' ends (collide.Check at translation poses, first\n"+
		"contact). %s run, seed %d, on %s; %s. Each time is the check of every move of the\n"+
		"program, the least of %d rounds.\n\n", size, c.Seed, r.Machine, r.Elapsed.Round(time.Second), c.Rounds)

	fmt.Fprintf(w, "## Environments\n\n")
	fmt.Fprintf(w, "| environment | part | triangles | moves | ball radius | flat |\n|---|---|---|---|---|---|\n")
	for _, e := range r.Envs {
		fmt.Fprintf(w, "| %s | %s | %d | %d | %g mm | %s |\n", e.Name, e.Part, e.Triangles, e.Moves, e.Radius, md.Percent(e.Flat))
	}
	fmt.Fprintf(w, "\nTerrain paths take every 10th row of the elevation grid with a sample at every\n"+
		"column (the dissertation's); mold paths have rows 4 mm apart, samples 1 mm apart (8 and 2\n"+
		"with --quick), arcs linking the rows and 10 samples lowered by 0.2 mm (\"distorted\n"+
		"slightly\"). Flat is the share of triangles in the largest horizontal plane.\n\n")

	fmt.Fprintf(w, "## Contacts\n\n")
	fmt.Fprintf(w, "Positions (moves' ends) in contact, or moves whose swept volume is; every tree agrees.\n\n")
	fmt.Fprintf(w, "| environment |")
	for _, t := range Tests {
		if n := r.ToolTris[t]; n > 0 {
			fmt.Fprintf(w, " %s (%d tris) |", t, n)
		} else {
			fmt.Fprintf(w, " %s |", t)
		}
	}
	fmt.Fprintf(w, "\n|---|%s\n", strings.Repeat("---|", len(Tests)))
	for _, e := range r.Envs {
		fmt.Fprintf(w, "| %s |", e.Name)
		for _, t := range Tests {
			if cell := r.firstOf(e.Name, t); cell != nil {
				fmt.Fprintf(w, " %d |", cell.Contacts)
			} else {
				fmt.Fprintf(w, " – |")
			}
		}
		fmt.Fprintln(w)
	}

	bvs := r.bvs()
	fmt.Fprintf(w, "\n## Times (ms)\n")
	for _, t := range Tests {
		fmt.Fprintf(w, "\n### %s\n\n| environment | %s | obb ÷ kdop18 |\n|---|%s---|\n", ncTestNames[t], strings.Join(bvs, " | "), strings.Repeat("---|", len(bvs)))
		for _, e := range r.Envs {
			best := r.Best(e.Name, t)
			fmt.Fprintf(w, "| %s |", e.Name)
			for _, bv := range bvs {
				cell := r.Cell(e.Name, t, bv)
				switch {
				case cell == nil:
					fmt.Fprintf(w, " – |")
				case cell == best:
					fmt.Fprintf(w, " **%s** |", md.Ms(cell.Time))
				default:
					fmt.Fprintf(w, " %s |", md.Ms(cell.Time))
				}
			}
			if x := r.OBBRatio(e.Name, t); math.IsNaN(x) {
				fmt.Fprintf(w, " – |\n")
			} else {
				fmt.Fprintf(w, " %.2f× |\n", x)
			}
		}
	}

	fmt.Fprintf(w, "\n## The dissertation's conclusions\n\n")
	for _, cl := range r.Conclusions() {
		fmt.Fprintf(w, "- **%s** %s: %s\n", cl.Claim, cl.Verdict, cl.Evidence)
	}
	return w.Flush()
}

// Claim is one of the dissertation's conclusions, checked against our
// figures.
type Claim struct {
	Claim string
	// Verdict is "holds", "does not hold" or "not measured".
	Verdict  string
	Evidence string
}

// envsOf returns the environments of kind ("terrain", "mold"; "" for all).
func (r *Report) envsOf(kind string) []*Env {
	var out []*Env
	for _, e := range r.Envs {
		if kind == "" || e.Kind == kind {
			out = append(out, e)
		}
	}
	return out
}

// Conclusions checks the dissertation's conclusions of chapter 8 against
// the report's figures: the exact sphere is the fastest query; the ball
// and its swept volume are checked faster than polyhedral tools at
// discrete positions on terrains; OBB trees are wasteful on the flat
// terrain (buffalo); larger k hardly pays off for sphere queries with
// many contacts.
func (r *Report) Conclusions() []Claim {
	return []Claim{r.claimSphereFastest(), r.claimSweptBeatsPoly(), r.claimOBBFlat(), r.claimLargeK()}
}

// polyTests are the polyhedral tools' tests.
var polyTests = []string{Poly, Flat, Cone}

// kdops are the k-DOP trees, whose times the dissertation's claims compare.
var kdops = []string{"kdop6", "kdop14", "kdop18", "kdop26"}

// bestKDOP returns the least time of env's test over the k-DOP trees (0
// if none ran).
func (r *Report) bestKDOP(env, test string) time.Duration { return r.bestOf(env, test, kdops...) }

func (r *Report) claimSphereFastest() Claim {
	cl := Claim{Claim: "The exact sphere is the fastest query."}
	var ratios []float64
	var losses, others []string
	for _, e := range r.Envs {
		ball := r.bestKDOP(e.Name, Ball)
		if ball == 0 {
			continue
		}
		for _, t := range append([]string{Swept}, polyTests...) {
			o := r.bestKDOP(e.Name, t)
			if o == 0 {
				continue
			}
			ratios = append(ratios, float64(o)/float64(ball))
			if o <= ball {
				losses = append(losses, fmt.Sprintf("%s: %s %s ms ≤ ball %s ms", e.Name, t, md.Ms(o), md.Ms(ball)))
			}
		}
		if b := r.Best(e.Name, Ball); b != nil {
			for _, t := range polyTests {
				if o := r.Best(e.Name, t); o != nil && o.Time < b.Time {
					others = append(others, fmt.Sprintf("%s %s (%s)", e.Name, t, o.BV))
				}
			}
		}
	}
	if len(ratios) == 0 {
		cl.Verdict, cl.Evidence = "not measured", "no environment has the ball and another test with k-DOP trees"
		return cl
	}
	cl.Verdict = md.Verdict(len(losses) == 0)
	cl.Evidence = fmt.Sprintf("each test with its fastest k-DOP tree, the other tests take %.2f× the exact ball's time (geometric mean; least %.2f×)",
		md.Geomean(ratios), slices.Min(ratios))
	if len(losses) > 0 {
		cl.Evidence += "; as fast or faster than the ball: " + strings.Join(losses, "; ")
	}
	if len(others) > 0 {
		cl.Evidence += "; with every tree, polyhedral tools beat the ball's fastest on " + strings.Join(others, ", ")
	}
	return cl
}

func (r *Report) claimSweptBeatsPoly() Claim {
	cl := Claim{Claim: "Checking the ball and its swept volume is faster than checking polyhedral tools at the moves' ends, on terrains."}
	var wins, all, others []string
	var ratios []float64
	for _, e := range r.envsOf("terrain") {
		swept := r.bestKDOP(e.Name, Swept)
		if swept == 0 {
			continue
		}
		ok, measured := true, false
		for _, t := range polyTests {
			p := r.bestKDOP(e.Name, t)
			if p == 0 {
				continue
			}
			measured = true
			ratios = append(ratios, float64(p)/float64(swept))
			ok = ok && swept < p
		}
		if !measured {
			continue
		}
		all = append(all, e.Name)
		if ok {
			wins = append(wins, e.Name)
		}
		if s := r.Best(e.Name, Swept); s != nil {
			for _, t := range polyTests {
				if o := r.Best(e.Name, t); o != nil && o.Time < s.Time {
					others = append(others, fmt.Sprintf("%s %s (%s)", e.Name, t, o.BV))
				}
			}
		}
	}
	if len(all) == 0 {
		cl.Verdict, cl.Evidence = "not measured", "no terrain with both, with k-DOP trees"
		return cl
	}
	cl.Verdict = md.Verdict(len(wins) == len(all))
	won := "none"
	if len(wins) > 0 {
		won = strings.Join(wins, ", ")
	}
	cl.Evidence = fmt.Sprintf("each test with its fastest k-DOP tree, the swept ball is faster than all three tools on %d of %d terrains (%s); the polyhedral tools take %.2f× its time (geometric mean)",
		len(wins), len(all), won, md.Geomean(ratios))
	if len(others) > 0 {
		cl.Evidence += "; with every tree, faster than the swept ball's fastest: " + strings.Join(others, ", ")
	}
	return cl
}

func (r *Report) claimOBBFlat() Claim {
	cl := Claim{Claim: "OBB trees are wasteful on the flat terrain (buffalo, with its lake)."}
	ratio := func(env string) float64 {
		var xs []float64
		for _, t := range polyTests {
			if x := r.OBBRatio(env, t); !math.IsNaN(x) {
				xs = append(xs, x)
			}
		}
		return md.Geomean(xs)
	}
	b := ratio("buffalo")
	if math.IsNaN(b) {
		cl.Verdict, cl.Evidence = "not measured", "buffalo, or its OBB or 18-DOP cells, not run"
		return cl
	}
	var others []string
	highest := true
	for _, e := range r.envsOf("terrain") {
		if e.Name == "buffalo" {
			continue
		}
		x := ratio(e.Name)
		if math.IsNaN(x) {
			continue
		}
		others = append(others, fmt.Sprintf("%s %.2f×", e.Name, x))
		highest = highest && b > x
	}
	cl.Verdict = md.Verdict(b > 1 && highest)
	cl.Evidence = fmt.Sprintf("OBB ÷ 18-DOP time with the polyhedral tools (the dissertation's RAPID ÷ 18-DOP; geometric mean of the three): buffalo %.2f×", b)
	if len(others) > 0 {
		cl.Evidence += ", " + strings.Join(others, ", ")
	}
	return cl
}

// manyContacts is the share of positions or moves in contact above which
// a test has many contacts.
const manyContacts = 0.05

func (r *Report) claimLargeK() Claim {
	cl := Claim{Claim: "Larger k hardly pays off for sphere queries with many contacts."}
	var notes []string
	pays, n := 0, 0
	for _, e := range r.Envs {
		for _, t := range []string{Ball, Swept} {
			cell := r.firstOf(e.Name, t)
			if cell == nil || float64(cell.Contacts) < manyContacts*float64(e.Moves) {
				continue
			}
			small, large := r.bestOf(e.Name, t, "kdop6", "kdop14"), r.bestOf(e.Name, t, "kdop18", "kdop26")
			if small == 0 || large == 0 {
				continue
			}
			x := float64(small) / float64(large)
			n++
			if x > 1.15 {
				pays++
			}
			notes = append(notes, fmt.Sprintf("%s %s %.2f×", e.Name, t, x))
		}
	}
	if n == 0 {
		cl.Verdict, cl.Evidence = "not measured", fmt.Sprintf("no sphere test with the k-DOP trees and at least %s of its positions or moves in contact", md.Percent(manyContacts))
		return cl
	}
	cl.Verdict = md.Verdict(pays <= n/4)
	cl.Evidence = fmt.Sprintf("the sphere tests with at least %s of their positions or moves in contact, the best of 6- and 14-DOPs ÷ the best of 18- and 26-DOPs (above 1.15× larger k pays): %s; it pays in %d of %d",
		md.Percent(manyContacts), strings.Join(notes, ", "), pays, n)
	return cl
}

// bestOf returns the least time of env's test over the trees bvs (0 if
// none ran).
func (r *Report) bestOf(env, test string, bvs ...string) time.Duration {
	var best time.Duration
	for _, bv := range bvs {
		if c := r.Cell(env, test, bv); c != nil && (best == 0 || c.Time < best) {
			best = c.Time
		}
	}
	return best
}
