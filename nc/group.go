package nc

import (
	"container/heap"
	"slices"
)

// Group is a run of violations: one kind, tool part and target (and
// fixture) on consecutive moves (each on the move after the one before),
// as a finishing pass that dips below its surface for a few samples gives.
type Group struct {
	Kind    Kind
	Role    Role
	Target  Target
	Fixture int
	// First and Last are the run's first and last violations' move
	// indices, lines and N numbers (-1 if none).
	FirstMove, LastMove int
	FirstLine, LastLine int
	FirstN, LastN       int
	// Violations is the number of violations in the run, Grazes those
	// that are grazes.
	Violations, Grazes int
	// Deepest is the run's deepest violation (see Deeper), its Tris nil:
	// Triangles is their number.
	Deepest   Violation
	Triangles int
	// DepthMax is the largest DepthMax of the run's violations: every one
	// of them is certainly no deeper.
	DepthMax float64
}

// Deeper reports whether violation a is deeper than b: a larger Depth
// (proved), then a larger DepthMax, then a smaller Clearance, then a
// graze after a proved contact.
func Deeper(a, b *Violation) bool {
	switch {
	case a.Depth != b.Depth:
		return a.Depth > b.Depth
	case a.DepthMax != b.DepthMax:
		return a.DepthMax > b.DepthMax
	case a.Clearance != b.Clearance:
		return a.Clearance < b.Clearance
	}
	return !a.Graze && b.Graze
}

// before orders groups deepest first, then in program order (then by
// kind, part, target and fixture).
func before(a, b *Group) bool {
	switch {
	case Deeper(&a.Deepest, &b.Deepest) || Deeper(&b.Deepest, &a.Deepest):
		return Deeper(&a.Deepest, &b.Deepest)
	case a.DepthMax != b.DepthMax:
		return a.DepthMax > b.DepthMax
	case a.FirstMove != b.FirstMove:
		return a.FirstMove < b.FirstMove
	case a.Kind != b.Kind:
		return a.Kind < b.Kind
	case a.Role != b.Role:
		return a.Role < b.Role
	case a.Target != b.Target:
		return a.Target < b.Target
	}
	return a.Fixture < b.Fixture
}

// DefaultMaxGroups is the most groups a Grouper keeps when MaxGroups is 0.
const DefaultMaxGroups = 1 << 16

// Grouper gathers violations, given in program order (as Check reports
// them), into runs (Group), in memory bounded by the number of runs: it
// keeps the MaxGroups deepest and counts the others. The zero value is
// ready to use.
type Grouper struct {
	// MaxGroups bounds the groups kept (0: DefaultMaxGroups); beyond it,
	// the least deep are dropped (and counted).
	MaxGroups int

	open    map[groupKey]*Group
	kept    groupHeap // least deep first
	dropped int
	dropV   int
	total   int
}

type groupKey struct {
	kind    Kind
	role    Role
	target  Target
	fixture int
}

// Add adds violation v, after every violation of an earlier move.
func (g *Grouper) Add(v Violation) {
	if g.open == nil {
		g.open = map[groupKey]*Group{}
	}
	k := groupKey{v.Kind, v.Role, v.Target, v.Fixture}
	gr := g.open[k]
	if gr != nil && v.Move > gr.LastMove+1 {
		g.close(gr)
		gr = nil
	}
	if gr == nil {
		gr = &Group{Kind: v.Kind, Role: v.Role, Target: v.Target, Fixture: v.Fixture,
			FirstMove: v.Move, FirstLine: v.Line, FirstN: v.N, DepthMax: v.DepthMax, Deepest: v}
		gr.Deepest.Tris, gr.Triangles = nil, len(v.Tris)
		g.open[k] = gr
	} else if Deeper(&v, &gr.Deepest) {
		gr.Deepest, gr.Triangles = v, len(v.Tris)
		gr.Deepest.Tris = nil
	}
	gr.LastMove, gr.LastLine, gr.LastN = v.Move, v.Line, v.N
	gr.Violations++
	if v.Graze {
		gr.Grazes++
	}
	gr.DepthMax = max(gr.DepthMax, v.DepthMax)
}

// close files run gr among the kept groups (or drops the least deep).
func (g *Grouper) close(gr *Group) {
	delete(g.open, groupKey{gr.Kind, gr.Role, gr.Target, gr.Fixture})
	g.total++
	limit := g.MaxGroups
	if limit <= 0 {
		limit = DefaultMaxGroups
	}
	if len(g.kept) < limit {
		heap.Push(&g.kept, gr)
		return
	}
	least := g.kept[0]
	if before(least, gr) {
		g.dropped++
		g.dropV += gr.Violations
		return
	}
	g.dropped++
	g.dropV += least.Violations
	g.kept[0] = gr
	heap.Fix(&g.kept, 0)
}

// Groups closes every run and returns the groups kept, deepest first
// (see Deeper; ties in program order). Adding more after it starts new
// runs.
func (g *Grouper) Groups() []Group {
	open := make([]*Group, 0, len(g.open))
	for _, gr := range g.open {
		open = append(open, gr)
	}
	slices.SortFunc(open, func(a, b *Group) int { return a.FirstMove - b.FirstMove })
	for _, gr := range open {
		g.close(gr)
	}
	out := make([]Group, len(g.kept))
	for i, gr := range g.kept {
		out[i] = *gr
	}
	slices.SortFunc(out, cmpGroups)
	return out
}

// cmpGroups orders groups as Groups returns them: -1 when a goes before b
// (see before), 1 when b goes before a, else 0.
func cmpGroups(a, b Group) int {
	switch {
	case before(&a, &b):
		return -1
	case before(&b, &a):
		return 1
	}
	return 0
}

// Dropped returns the groups dropped beyond MaxGroups (the least deep) and
// their violations.
func (g *Grouper) Dropped() (groups, violations int) { return g.dropped, g.dropV }

// Runs returns the number of groups closed so far, kept or dropped.
func (g *Grouper) Runs() int { return g.total }

// groupHeap is a min-heap of groups, the least deep on top.
type groupHeap []*Group

func (h groupHeap) Len() int           { return len(h) }
func (h groupHeap) Less(i, j int) bool { return before(h[j], h[i]) }
func (h groupHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *groupHeap) Push(x any)        { *h = append(*h, x.(*Group)) }
func (h *groupHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
