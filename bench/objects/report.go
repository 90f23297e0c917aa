package objects

import (
	"bufio"
	"fmt"
	"io"
	"time"

	"github.com/collide3d/collide/bench/internal/md"
)

// thesisFPS is the thesis's table of section 3.4.1 (frames per second
// over 10,000 frames, SGI Onyx, 150 MHz), as extracted: kind → method →
// fps for 2×250, 2×120, 2×60 (the column order is doubtful: the rates
// fall with the polygons).
var thesisFPS = map[string]map[string][3]float64{
	"sphere": {"tree": {6.7, 2.4, 1.1}, "convex": {7.4, 2.1, 2.5}},
	"cone":   {"tree": {7.4, 2.1, 0.8}, "convex": {6.2, 2.3, 1.1}},
}

// thesisErr is the error rate of the thesis's separating planes (the
// perceptron, capped at 10, 100 and 1000 iterations, section 3.4.2, two
// cones of 200 polygons in all): the share of queries that said
// "collision" with none, per initial plane.
var thesisErr = []struct {
	init string
	pct  [3]float64
}{
	{"trivial (1,0,0,0)", [3]float64{24, 3.0, 0.5}},
	{"barycentres", [3]float64{16, 2.8, 0.37}},
	{"bbox barycentres", [3]float64{15, 2.8, 0.37}},
}

func pct(n, d int64) string { return md.Percent(float64(n) / float64(max(d, 1))) }

func us(d time.Duration) string { return fmt.Sprintf("%.2f", md.Micros(d)) }

// fallbacks returns the convex tests left to the tree test.
func fallbacks(s *Method) int64 { return s.Stats.Convex - s.Stats.PlaneHits - s.Stats.PlaneNew }

// WriteMarkdown writes the report.
func (r *Report) WriteMarkdown(out io.Writer) error {
	w := bufio.NewWriter(out)
	c := r.Config
	mode := "full"
	if c.Quick {
		mode = "quick"
	}
	fmt.Fprintf(w, "# collide bench --objects: convex objects and separating planes\n\n")
	fmt.Fprintf(w, "Run: %s, seed %d, %d frames a cage, %d rounds (a run's time is the least of its rounds', the methods taking turns). Machine: %s. Run time: %s.\n\n",
		mode, c.Seed, c.Frames, c.Rounds, r.Machine, r.Elapsed.Round(time.Second))
	fmt.Fprintf(w, "Zachmann's object level (thesis, sections 3.4.1 and 3.4.2). *tree* is the traversal of the two models' 18-DOP trees "+
		"(collide.MethodTree); *convex* (collide.MethodConvex) first tries the pair's cached separating plane, with the hull vertices of its "+
		"last supports, then GJK on the hulls for a new one, every plane proved for the computed coordinates (package sep), and leaves the "+
		"frame to the tree test when none is proved. Both are exact: at every frame the two answers were checked to be the same. "+
		"*hits* are the frames the cached plane proved apart, *new* those a new plane proved, *to tree* the convex tests left to the tree "+
		"test (in contact, or apart with no plane proved).\n\n")

	fmt.Fprintf(w, "## Convex vs arbitrary: two objects in a cage (section 3.4.1)\n\n")
	fmt.Fprintf(w, "Two copies of an object (a UV sphere or a cone, radius 0.2) tumble in the unit cube, bouncing off its walls and, "+
		"reversing their speeds, off each other, in first-contact mode; µs per frame (the pair's query). The thesis's figures "+
		"are frames per second on a 150 MHz SGI Onyx over 10,000 frames (its table's columns as extracted; the objects were bigger than "+
		"the cage there, colliding almost always).\n\n")
	t := md.NewTable(w, "objects", "triangles each", "frames in contact", "tree µs", "convex µs", "tree ÷ convex", "hits", "new", "to tree", "thesis fps: arbitrary", "thesis fps: convex")
	for _, cg := range r.Cages {
		col := map[int]int{250: 0, 120: 1, 60: 2}
		th := thesisFPS[cg.Kind]
		i, ok := col[nominal(cg)]
		thTree, thConv := "–", "–"
		if ok {
			thTree, thConv = md.Sig(th["tree"][i]), md.Sig(th["convex"][i])
		}
		t.Row(fmt.Sprintf("2 %ss", cg.Kind), fmt.Sprint(cg.Polys), pct(int64(cg.Contacts), int64(cg.Frames)),
			us(cg.Tree.PerQuery()), us(cg.Convex.PerQuery()), md.Ratio(float64(cg.Tree.Time), float64(cg.Convex.Time)),
			pct(cg.Convex.Stats.PlaneHits, cg.Convex.Queries), pct(cg.Convex.Stats.PlaneNew, cg.Convex.Queries),
			pct(fallbacks(&cg.Convex), cg.Convex.Queries), thTree, thConv)
	}
	fmt.Fprintf(w, "\nThe thesis found convex *not* clearly faster than its arbitrary algorithm. Here the pair is apart most of the time, "+
		"and there the cached plane settles a frame with a climb of a step or two on each hull; in contact both methods walk the trees.\n\n")

	if p := r.Planes; p != nil {
		fmt.Fprintf(w, "## Separating planes: two cones (section 3.4.2)\n\n")
		fmt.Fprintf(w, "Two cones of %d triangles each, as above, %d frames, %s of them in contact. The thesis's perceptron, capped, "+
			"said \"collision\" where there was none in this share of its queries (error %%, by initial plane and cap):\n\n",
			p.Polys, p.Frames, pct(int64(p.Contacts), int64(p.Frames)))
		t := md.NewTable(w, "initial plane", "≤ 10 iterations", "≤ 100", "≤ 1000")
		for _, e := range thesisErr {
			t.Row(e.init, md.Sig(e.pct[0]), md.Sig(e.pct[1]), md.Sig(e.pct[2]))
		}
		cv := &p.Convex
		apart := int64(p.Frames - p.Contacts)
		fmt.Fprintf(w, "\nOurs is exact: a frame without a proved plane goes to the tree test, which decides it, so the error is 0 by "+
			"construction (and was checked at every frame). What the cache buys, per frame:\n\n")
		t = md.NewTable(w, "", "frames", "share")
		t.Row("apart", md.Thousands(int(apart)), pct(apart, int64(p.Frames)))
		t.Row("proved by the cached plane (hits)", md.Thousands(int(cv.Stats.PlaneHits)), pct(cv.Stats.PlaneHits, int64(p.Frames)))
		t.Row("proved by a new plane (GJK)", md.Thousands(int(cv.Stats.PlaneNew)), pct(cv.Stats.PlaneNew, int64(p.Frames)))
		t.Row("left to the tree test, in contact", md.Thousands(p.Contacts), pct(int64(p.Contacts), int64(p.Frames)))
		t.Row("left to the tree test, apart (the thesis's errors, decided exactly here)", md.Thousands(p.Apart), pct(int64(p.Apart), int64(p.Frames)))
		fmt.Fprintf(w, "\nHit rate among the frames apart: %s. Time per pair: tree %s µs, convex %s µs.\n\n",
			pct(cv.Stats.PlaneHits, apart), us(p.Tree.PerQuery()), us(cv.PerQuery()))
	}

	if wr := r.World; wr != nil {
		fmt.Fprintf(w, "## A world of %s convex objects\n\n", md.Thousands(wr.Objects))
		fmt.Fprintf(w, "Spheres (80 triangles), boxes (12), cylinders (24) and cones (32) in Brownian motion in a cube, %d steps, "+
			"one worker, first contact; each pair keeps its plane from step to step while its boxes overlap (the world's pair state). "+
			"%s pairs tested, %s in contact. The methods' contacts were checked to agree at every step.\n\n",
			wr.Steps, md.Thousands(int(wr.Pairs)), md.Thousands(int(wr.Contacts)))
		t := md.NewTable(w, "method", "exact tests per step", "µs per pair", "Nv per step", "hits", "new", "to tree")
		for _, me := range []*Method{&wr.Tree, &wr.Convex} {
			per := func(n int64) string { return md.Sig(float64(n) / float64(max(wr.Steps, 1))) }
			hits, nw, tt := "–", "–", "–"
			if me.Stats.Convex > 0 {
				hits, nw, tt = pct(me.Stats.PlaneHits, me.Stats.Convex), pct(me.Stats.PlaneNew, me.Stats.Convex), pct(fallbacks(me), me.Stats.Convex)
			}
			t.Row(me.Method.String(), md.Ms(me.Time/time.Duration(max(wr.Steps, 1))), us(me.PerQuery()), per(me.Stats.BVTests), hits, nw, tt)
		}
		fmt.Fprintf(w, "\nThe exact tests' time per step is in ms; tree ÷ convex: %s.\n", md.Ratio(float64(wr.Tree.Time), float64(wr.Convex.Time)))
	}
	return w.Flush()
}

// nominal returns the thesis's polygon count the cage was made for.
func nominal(cg *Cage) int {
	best := 60
	for _, n := range []int{60, 120, 250} {
		if abs(cg.Polys-n) < abs(cg.Polys-best) {
			best = n
		}
	}
	return best
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
