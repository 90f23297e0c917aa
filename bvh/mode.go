package bvh

import "github.com/collide3d/collide/geom"

// This file names the modes of the one walk (traverse.go). Every query of
// package bvh is the same simultaneous descent of two trees; what differs
// is how the walk goes on and what it does with the pairs of leaves it
// reaches:
//
//	query                          entry point                mode          walk (run)             pairs of leaves
//	first contact, all pairs       Collide (All)              modeContact   traverse from roots    tested, reported
//	tolerance                      Collide (Eps > 0)          modeContact   traverse from roots    tested within Eps
//	restart variant                Collide (Restart)          modeRestart   traverse, restarting   tested, reported
//	fronts (temporal coherence)    Collide (Front)            modeFront     track                  tested, reported
//	time-critical                  Collide (Budget, Pending)  modeBudget    traverse in chunks     tested, reported
//	resumed                        Pending.Resume             modeResume    traverse in chunks     tested, reported
//	medium grain (two goroutines)  CollideMedium              modeBudget, then modeResume on each goroutine (medium.go)
//	distance                       Distance                   modeDistance  nearest                closest pair kept
//	sweep (time of impact)         TimeOfImpact               modeSweep     traverse from roots    handed to the sweep
//	near search                    Near                       modeNear      traverse from roots    env triangles handed over
//
// First contact or all pairs (tester.all) and the tolerance (tester.eps)
// are settings of every mode that tests pairs of leaves; they never change
// how the walk goes. A mode's state lives with it: the walk keeps one
// struct per mode that needs one (walk.restarts, walk.front, walk.budget,
// walk.dist), the tester the sweep's state and the near search's callback.

// mode is a query's mode: which of the walk's variants it runs and what it
// does at the pairs of leaves it reaches (see the table above).
type mode uint8

const (
	// modeContact is Collide's walk from the roots: the pairs in contact
	// (the first, or all), exactly or within the tolerance.
	modeContact mode = iota
	// modeRestart is modeContact with Klosowski et al.'s restart variant
	// (QueryOptions.Restart, walk.restarts).
	modeRestart
	// modeFront starts from the pair's front and leaves its own there
	// (QueryOptions.Front, walk.front, track).
	modeFront
	// modeBudget walks from the roots within a budget and keeps the pairs
	// it has not tested in a Pending (QueryOptions.Budget, walk.budget).
	modeBudget
	// modeResume goes on with the pairs a Pending holds, within a budget
	// (Pending.Resume, walk.budget).
	modeResume
	// modeDistance finds the smallest distance (Distance, walk.dist,
	// nearest).
	modeDistance
	// modeSweep hands every pair of triangles its volumes reach to a
	// continuous query's search (TimeOfImpact, tester.sweep).
	modeSweep
	// modeNear hands every environment triangle its volumes reach to a
	// callback (Near, tester.near).
	modeNear
)

var modeNames = []string{"contact", "restart", "front", "budget", "resume", "distance", "sweep", "near"}

// String returns the mode's name.
func (m mode) String() string { return nameOf(modeNames, m, "mode") }

// request is a query as the walk receives it: what the user asked
// (QueryOptions) and the mode, with the state the internal modes bring.
// Collide makes its request from the options alone (QueryOptions.request);
// Distance, TimeOfImpact, Near and Pending.Resume make their own.
type request struct {
	QueryOptions
	mode  mode
	dist  *distState          // modeDistance: the best distance so far
	sweep *sweepState         // modeSweep: the continuous query
	near  func(et int32) bool // modeNear: the callback
}

// request returns Collide's request for the options o: a Front (unless
// Restart) makes it modeFront; else a Budget with a Pending makes it
// modeBudget (without the restart variant); else Restart makes it
// modeRestart; else modeContact.
func (o QueryOptions) request() request {
	r := request{QueryOptions: o, mode: modeContact}
	switch {
	case o.Front != nil && !o.Restart:
		r.mode = modeFront
	case !o.Budget.IsZero() && o.Pending != nil:
		r.mode = modeBudget
	case o.Restart:
		r.mode = modeRestart
	}
	return r
}

// setup readies the walk w for the query o of fly at pose against env
// (env's k for k-DOP trees), from root, the pair of the roots: its stack
// and the state of o's mode, the others' cleared. It returns the seen set
// a box-tree query should keep for a resumed query (nil: its own).
func (w *walk[X]) setup(o *request, env, fly *Tree, k int, pose *geom.Pose, root item[X]) map[Pair]struct{} {
	w.stack = append(w.stack[:0], root)
	w.front.fs, w.front.record = nil, false
	w.budget = budgetWalk{limit: noLimit}
	w.dist.d = nil
	switch o.mode {
	case modeDistance:
		w.dist.d = o.dist
	case modeFront:
		fr := o.Front
		w.front.fs = attach(fr, env, fly, k, *pose, root)
		w.front.moved, w.front.lastMove = fr.moved, fr.lastMove
	case modeResume:
		pd := o.Pending
		w.stack = append(w.stack[:0], *pd.items.(*[]item[X])...)
		w.budget.bud = newBudget(o.Budget, pd)
		return pd.seen
	case modeBudget:
		pd := o.Pending
		*pd = Pending{env: env, fly: fly, pose: *pose, o: o.QueryOptions, items: pd.items, seen: pd.seen}
		pd.o.Budget, pd.o.Pending, pd.o.Front = Budget{}, nil, nil
		w.budget.bud = newBudget(o.Budget, pd)
		if pd.seen == nil {
			pd.seen = map[Pair]struct{}{}
		}
		clear(pd.seen)
		return pd.seen
	}
	return nil
}
