package ch2

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	"github.com/collide3d/collide/bench/internal/md"
)

// Dissertation holds the chapter's results (section 2.3.3 and 2.4), as
// the text conversion left them: every number was stripped, the rankings
// survive in words.
var Dissertation = map[string]string{
	"wins":     "R-tree 1st (the clear winner), mesh a distant 2nd, k-d tree the clear loser",
	"weighted": "R-tree 1st, grid a close 2nd, k-d tree 3rd, mesh 4th",
	"memory":   "R-tree stores each triangle once; grid and k-d tree store many copies",
	"mesh":     "competitive for complex flying objects (quite a few wins with the aircraft), by far the slowest with tetra",
	"kd axis":  "four axis rules compared; the winner's name was lost",
}

// WriteMarkdown writes the report: the environments and their
// structures, the flights, the static checks, the chapter's scoring
// beside the dissertation's, the k-d tree's axis rules, and the verdict.
func (r *Report) WriteMarkdown(out io.Writer) error {
	w := bufio.NewWriter(out)
	c := r.Config
	size := "full"
	if c.Quick {
		size = "quick"
	}
	fmt.Fprintf(w, "# collide bench --ch2: the dissertation's Chapter 2 study\n\n")
	fmt.Fprintf(w, "A %s run, seed %d. Machine: %s", size, c.Seed, r.Machine)
	if r.Load != "" {
		fmt.Fprintf(w, "; load average %s at the start (other work on the machine makes every time noisy)", r.Load)
	}
	fmt.Fprintf(w, ". Run time: %s.\n\n", r.Elapsed.Round(time.Second))
	w.WriteString("Held, Klosowski and Mitchell's four methods (dissertation, chapter 2; CCCG'95) — the grid of boxes, the k-d tree, " +
		"the binary R-tree and the mesh (ray-shooting) method — rebuilt in Go (package bench/ch2, every one first-contact, " +
		"flat arrays, no allocation per query once warm), beside collide's own trees of 18-DOPs (the default) and of 6-DOPs. " +
		"**The dissertation's numbers were lost** with its text (the summary's section 0: every digit was stripped); " +
		"only its rankings survive in words, and they are quoted beside ours.\n\n")

	w.WriteString("## The environments\n\n")
	fmt.Fprintf(w, "Every environment fills the unit cube: the chapter's random BSP partition (n−1 cuts of a random leaf across a random side, "+
		"ε keeping leaves thick) with a random subset of its leaves filled with scaled, turned copies of obstacles (*scenes*) or a random "+
		"tetrahedron each (*tetrahedra*). The chapter's *terrains* were USGS DEMs fetched by ftp; with no network here they are "+
		"**synthetic DEM-like height fields** (fractal value noise, gen.Terrain), triangulated as the chapter did. "+
		"The scenes' obstacles are collide's own meshes (the chapter's came from a .navy.mil ftp site); *hangar* adds bench/scenes' "+
		"aircraft and axe, whose parts cross (wings through the fuselage), which TetGen refuses, as the chapter's mesher would have.\n\n")
	t := md.NewTable(w, "group", "environment", "made of", "vertices", "triangles", "grid N", "ST grid", "ST k-d", "height k-d", "height R-tree", "height 18-DOP tree", "tetrahedra (Steiner points)")
	for _, e := range r.Envs {
		mesh := fmt.Sprintf("%s (%s)", md.Thousands(e.Tets), md.Thousands(e.Steiner))
		if e.MeshErr != "" {
			mesh = "none: " + e.MeshErr
		}
		t.Row(e.Spec.Group, e.Spec.Name, e.Spec.What, md.Thousands(e.Verts), md.Thousands(e.Tris), fmt.Sprint(e.GridN),
			md.Thousands(e.Stored[MGrid]), md.Thousands(e.Stored[MKD]), fmt.Sprint(e.Height[MKD]), fmt.Sprint(e.Height[MRTree]), fmt.Sprint(e.Height[MDOP18]), mesh)
	}
	w.WriteString("\nST is the triangles stored, copies counted (the R-tree and the BV-trees store each once). ")
	fmt.Fprintf(w, "The k-d tree cuts at the box's midpoint along the axis of rule %q, leaves of at most %d triangles, "+
		"at most 2 cuts per path whose larger child keeps more than 7/8 of the triangles (the gain threshold); the R-tree splits at the median centroid along the axis "+
		"whose children's boxes have the least total volume, leaves of at most %d. The flying objects (cube of side %g): ",
		r.DefaultRule.String(), c.Leaf, c.Leaf, c.FlySize)
	var fl []string
	for _, f := range r.Flyers {
		s := fmt.Sprintf("%s (%s triangles", f.Name, md.Thousands(len(f.Mesh.Tris)))
		if f.Stands != f.Name {
			s += ", for the chapter's " + f.Stands
		}
		fl = append(fl, s+")")
	}
	w.WriteString(strings.Join(fl, ", ") + ".\n\n")

	w.WriteString("## Preprocessing and memory\n\n")
	w.WriteString("Build time (ms) and memory (MB) of each method's structure (the environment's triangles themselves not counted; " +
		"the mesh's time includes running TetGen, writing its input and reading its output).\n\n")
	head := []string{"environment"}
	for _, m := range Methods {
		head = append(head, m+" ms")
	}
	for _, m := range Methods {
		head = append(head, m+" MB")
	}
	t = md.NewTable(w, head...)
	for _, e := range r.Envs {
		row := []string{e.Spec.Name}
		for m := range nMethods {
			if m == MMesh && e.MeshErr != "" {
				row = append(row, "–")
				continue
			}
			row = append(row, md.Ms(e.Build[m]))
		}
		for m := range nMethods {
			if m == MMesh && e.MeshErr != "" {
				row = append(row, "–")
				continue
			}
			row = append(row, md.MB(e.Bytes[m]))
		}
		t.Row(row...)
	}

	w.WriteString("\n## The flights\n\n")
	fmt.Fprintf(w, "Billiard paths (flight.Billiard): %d steps, each a displacement of 1/8 of the object's size and a turn of 0.05 rad, "+
		"perturbed at random every step and reversed at a collision; the path is made once with the 18-DOP tree's answers and every "+
		"method flies the same poses, %d round(s) taking turns, the fastest kept. µs per step. The chapter's methods take bb(F) as the "+
		"chapter did, by hill climbing on the object's convex hull from the last step's extreme vertices, and move the object's "+
		"triangles only at a full-resolution check; the BV-trees move only what they test. *Transform* is the time of moving every "+
		"vertex and bounding every triangle, which the chapter's programs paid every step to draw the object (its timings included "+
		"everything but the drawing). *Differ* counts the steps where a method's answer is not the path's: it is 0 in every row",
		c.Steps, c.Rounds)
	if r.OracleSteps > 0 {
		fmt.Fprintf(w, ", and %s steps were checked against the brute-force oracle too", md.Thousands(r.OracleSteps))
	}
	w.WriteString(". The chapter normalised its frame rates to a hypothetical flight with a fixed count of full-resolution checks; " +
		"here every method flies the very same poses, so the times compare as they are.\n\n")
	head = []string{"environment", "object", "hits"}
	for _, m := range Methods {
		head = append(head, m)
	}
	head = append(head, "transform", "fastest", "differ")
	t = md.NewTable(w, head...)
	for _, f := range r.Flights {
		row := []string{f.Env, f.Fly, fmt.Sprintf("%d of %d", f.Hits, f.Steps)}
		differ := 0
		for m := range nMethods {
			run := &f.Method[m]
			if !run.Ran {
				row = append(row, "–")
				continue
			}
			row = append(row, md.Us(run.Step))
			differ += run.Differ
		}
		var fast []string
		for m := range nMethods {
			if f.Method[m].Ran && rankOf(f, m, allMethods) == 1 {
				fast = append(fast, Methods[m])
			}
		}
		row = append(row, md.Us(f.Transform), strings.Join(fast, ", "), fmt.Sprint(differ))
		t.Row(row...)
	}
	w.WriteString("\nFull-resolution checks (steps that went on to exact triangle tests) and exact triangle tests per flight:\n\n")
	head = []string{"environment", "object"}
	for _, m := range Methods {
		head = append(head, m)
	}
	t = md.NewTable(w, head...)
	for _, f := range r.Flights {
		row := []string{f.Env, f.Fly}
		for m := range nMethods {
			run := &f.Method[m]
			if !run.Ran {
				row = append(row, "–")
				continue
			}
			row = append(row, fmt.Sprintf("%s / %s", md.Thousands(int(run.FullRes)), md.Thousands(int(run.TriTests))))
		}
		t.Row(row...)
	}

	w.WriteString("\n## Full-resolution checks per second\n\n")
	fmt.Fprintf(w, "Static queries at up to %d collision-free placements of each flight whose bb(F) meets an obstacle triangle's box "+
		"(so the chapter's methods go on to phase II), each from scratch (the mesh locates the corner from its first tetrahedron), "+
		"the fastest of the rounds: queries per second.\n\n", c.Static)
	head = []string{"environment", "object", "placements"}
	for _, m := range Methods {
		head = append(head, m)
	}
	t = md.NewTable(w, head...)
	for _, f := range r.Flights {
		if f.Placements == 0 {
			continue
		}
		row := []string{f.Env, f.Fly, fmt.Sprint(f.Placements)}
		for m := range nMethods {
			if run := &f.Method[m]; run.Ran && run.Static > 0 {
				row = append(row, md.Sig(run.Static))
			} else {
				row = append(row, "–")
			}
		}
		t.Row(row...)
	}

	w.WriteString("\n## The chapter's scoring\n\n")
	fmt.Fprintf(w, "Per flight (environment × object), the time per step: a **win** for the fastest, and for every method within %d%% of it; "+
		"a **rank** of 1 + the methods faster by more than %d%%, summed (the chapter's weighted ranking) and averaged over the flights "+
		"a method flew (%d flights; the mesh flies none where TetGen refused the environment, so its mean is the fair figure).\n\n",
		int(math.Round((Tie-1)*100)), int(math.Round((Tie-1)*100)), len(r.Flights))
	chapter := score(r.Flights, chapterMethods)
	everyone := score(r.Flights, allMethods)
	t = md.NewTable(w, "method", "wins (chapter's four)", "rank sum", "mean rank", "place", "wins (with BV-trees)", "mean rank", "place",
		"time ÷ fastest (geomean)", "sum of µs per step")
	placeOf := func(s *Score, m int) string {
		p := 1
		for _, o := range s.Set {
			if s.Flights[o] > 0 && s.MeanRank(o)*Tie < s.MeanRank(m) {
				p++
			}
		}
		return fmt.Sprint(p)
	}
	for m := range nMethods {
		row := []string{Methods[m]}
		if m < Chapter {
			row = append(row, fmt.Sprintf("%d of %d", chapter.Wins[m], chapter.Flights[m]), fmt.Sprint(chapter.RankSum[m]),
				fmt.Sprintf("%.2f", chapter.MeanRank(m)), placeOf(chapter, m))
		} else {
			row = append(row, "", "", "", "")
		}
		row = append(row, fmt.Sprintf("%d of %d", everyone.Wins[m], everyone.Flights[m]), fmt.Sprintf("%.2f", everyone.MeanRank(m)), placeOf(everyone, m),
			fmt.Sprintf("%.2f", everyone.Slow[m]), md.Us(everyone.Total[m]))
		t.Row(row...)
	}
	w.WriteString("\n(*place* counts the methods whose mean rank is better by more than 5%: ties share a place. The chapter's scoring " +
		"counts a win by a microsecond as one by a millisecond: the last two columns weigh the margins, over all six methods, the " +
		"mesh's over the flights it flew.)\n\n")
	t = md.NewTable(w, "", "the dissertation (numbers lost)", "ours (the chapter's four)")
	t.Row("by wins", Dissertation["wins"], orderWords(chapter, chapter.WinOrder(), true))
	t.Row("weighted", Dissertation["weighted"], orderWords(chapter, chapter.Order(), false))
	t.Row("memory", Dissertation["memory"], memoryWords(r))
	t.Row("mesh", Dissertation["mesh"], meshWords(r))

	w.WriteString("\n## The k-d tree's axis rules\n\n")
	w.WriteString("The chapter compared four rules for the axis of a cut, n₁ and n₂ the triangles of the two children a midpoint cut " +
		"would make (its winner's name was lost with the text). Each rule's tree on every environment: triangles stored, height, " +
		"build time, and its time per step on every flight as a geometric mean of its ratio to the best rule's.\n\n")
	t = md.NewTable(w, "rule", "ST (all environments)", "mean height", "build (ms, all)", "time ÷ best rule (geomean)", "flights won")
	var bestRule AxisRule
	bestG := math.Inf(1)
	for i, rule := range AxisRules {
		st, hs, bt := 0, 0, time.Duration(0)
		for _, e := range r.Envs {
			st += e.KD[i].Stored
			hs += e.KD[i].Height
			bt += e.KD[i].Build
		}
		var ratios []float64
		wins := 0
		for _, f := range r.Flights {
			best := time.Duration(math.MaxInt64)
			for _, k := range f.KD {
				best = min(best, k.Step)
			}
			ratios = append(ratios, float64(f.KD[i].Step)/float64(max(best, 1)))
			if float64(f.KD[i].Step) <= float64(best)*Tie {
				wins++
			}
		}
		g := md.Geomean(ratios)
		if g < bestG {
			bestG, bestRule = g, rule
		}
		t.Row(rule.String(), md.Thousands(st), fmt.Sprintf("%.1f", float64(hs)/float64(max(1, len(r.Envs)))), md.Ms(bt), fmt.Sprintf("%.3f", g), fmt.Sprintf("%d of %d", wins, len(r.Flights)))
	}
	fmt.Fprintf(w, "\nThe fastest rule here: **%s**", bestRule)
	if bestRule != r.DefaultRule {
		fmt.Fprintf(w, " (the main tables use %s)", r.DefaultRule)
	}
	w.WriteString(".\n\n")

	w.WriteString("## Verdict\n\n")
	w.WriteString(verdict(r, chapter, everyone))
	w.WriteString("\n")
	return w.Flush()
}

var (
	chapterMethods = []int{MGrid, MKD, MRTree, MMesh}
	allMethods     = []int{MGrid, MKD, MRTree, MMesh, MDOP18, MDOP6}
)

// orderWords writes an order of methods with their wins or mean ranks.
func orderWords(s *Score, order []int, wins bool) string {
	var parts []string
	for i, m := range order {
		if wins {
			parts = append(parts, fmt.Sprintf("%d. %s (%d wins)", i+1, Methods[m], s.Wins[m]))
		} else {
			parts = append(parts, fmt.Sprintf("%d. %s (%.2f)", i+1, Methods[m], s.MeanRank(m)))
		}
	}
	return strings.Join(parts, ", ")
}

// memoryWords compares the structures' triangles stored and memory.
func memoryWords(r *Report) string {
	var st [nMethods]int
	var mb [nMethods]int64
	tris := 0
	for _, e := range r.Envs {
		tris += e.Tris
		for m := range nMethods {
			st[m] += e.Stored[m]
			mb[m] += e.Bytes[m]
		}
	}
	return fmt.Sprintf("stored per input triangle: grid %.2f, k-d tree %.2f, R-tree 1; memory in all: grid %s MB, k-d tree %s MB, R-tree %s MB, mesh %s MB (where built), 18-DOP tree %s MB",
		float64(st[MGrid])/float64(tris), float64(st[MKD])/float64(tris), md.MB(mb[MGrid]), md.MB(mb[MKD]), md.MB(mb[MRTree]), md.MB(mb[MMesh]), md.MB(mb[MDOP18]))
}

// meshWords says how the mesh did per flying object.
func meshWords(r *Report) string {
	var parts []string
	for _, fl := range r.Flyers {
		wins, flights, last := 0, 0, 0
		for _, f := range r.Flights {
			if f.Fly != fl.Name || !f.Method[MMesh].Ran {
				continue
			}
			flights++
			rank := rankOf(f, MMesh, chapterMethods)
			if rank == 1 {
				wins++
			}
			if rank == len(chapterMethods) {
				last++
			}
		}
		if flights > 0 {
			parts = append(parts, fmt.Sprintf("%s: %d wins, %d times last of %d", fl.Name, wins, last, flights))
		}
	}
	if len(parts) == 0 {
		return "not run (no mesh)"
	}
	return strings.Join(parts, "; ")
}

// verdict writes the conclusions the figures support.
func verdict(r *Report, chapter, everyone *Score) string {
	var b strings.Builder
	co, cw := chapter.Order(), chapter.WinOrder()
	if co[0] == cw[0] {
		fmt.Fprintf(&b, "- Among the chapter's four, the %s ranks first both by the weighted ranking and by wins", Methods[co[0]])
	} else {
		fmt.Fprintf(&b, "- Among the chapter's four, the %s ranks first by the weighted ranking and the %s has the most wins", Methods[co[0]], Methods[cw[0]])
	}
	if co[0] == MRTree && cw[0] == MRTree {
		b.WriteString(", as in the dissertation.\n")
	} else {
		b.WriteString("; the dissertation had the R-tree first by both.\n")
	}
	fmt.Fprintf(&b, "- Weighted, ours: %s; the dissertation's: %s.\n", orderWords(chapter, co, false), Dissertation["weighted"])
	eo := everyone.Order()
	var first []string
	chapterFirst, treeFirst := false, false
	for _, m := range eo {
		if everyone.Flights[m] > 0 && everyone.MeanRank(m) <= everyone.MeanRank(eo[0])*Tie {
			first = append(first, fmt.Sprintf("the %s (%.2f, %d wins)", Methods[m], everyone.MeanRank(m), everyone.Wins[m]))
			chapterFirst = chapterFirst || m < Chapter
			treeFirst = treeFirst || m >= Chapter
		}
	}
	fmt.Fprintf(&b, "- With collide's BV-trees beside them, first place (mean ranks within 5%% of the best) goes to %s. ", strings.Join(first, ", "))
	switch {
	case chapterFirst && !treeFirst:
		best := MDOP18
		if everyone.Total[MDOP6] < everyone.Total[best] {
			best = MDOP6
		}
		fmt.Fprintf(&b, "A chapter method beats the BV-trees on the chapter's scoring: it wins the flights where bb(F) rarely meets an "+
			"obstacle's box, where a query costs little more than the climb and a few box tests, less than the tree query's fixed "+
			"cost; the BV-trees win where the object comes close to obstacles, by far larger margins (the %s's time ÷ the fastest, "+
			"geomean %.2f, against the grid's %.2f and the R-tree's %.2f; its µs per step summed over the flights %s, the grid's %s). "+
			"By the chapter's rule this is a win, reported as such; we add no query kind for it.\n",
			Methods[best], everyone.Slow[best], everyone.Slow[MGrid], everyone.Slow[MRTree], md.Us(everyone.Total[best]), md.Us(everyone.Total[MGrid]))
	case chapterFirst:
		b.WriteString("A chapter method ties the BV-trees: it wins the flights where bb(F) rarely meets an obstacle's box, and a query " +
			"there costs little more than the climb and a box test, less than the tree query's fixed cost; the BV-trees win where " +
			"the object comes close to obstacles (the aircraft, the dense tetrahedra). No chapter method wins overall, so none " +
			"becomes a query kind.\n")
	default:
		b.WriteString("No chapter method beats the BV-trees overall, so none becomes a query kind; the R-tree was the BV-tree's " +
			"ancestor and the k-DOPs its refinement.\n")
	}
	b.WriteString("- The mesh method meshes the obstacles' insides too (TetGen needs a point inside each obstacle to leave it out, which a " +
		"soup does not give), and walks by exact orientation tests rather than shooting an exact ray; TetGen refuses crossing " +
		"obstacles, as the chapter's conforming mesher needed disjoint ones.\n")
	b.WriteString("- Not rebuilt: the USGS DEMs (synthesised), the chapter's obstacle files, the normalisation of frame rates (every " +
		"method flies the same poses instead), the drawing (its vertex transform is the *transform* column), and the SGI timings " +
		"(lost).\n")
	return b.String()
}
