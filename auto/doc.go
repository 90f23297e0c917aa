// Package auto chooses the kind of tree for a pair of models by
// measurement.
//
// No kind of tree is fastest everywhere: OBB trees in parallel close
// proximity, k-DOP trees among scattered objects, AABB trees in between.
// Choose takes the two models of a pair (their meshes, and any trees of
// them already built), builds the candidate trees (Candidates: aabb,
// kdop14, kdop18, kdop26, obb) and times their queries at probe poses of
// the flying model: the poses it will be queried at, when they are known
// (Options.Poses), or poses of random flights. It times the tree test
// (collide.MethodTree): the convex test that collide.MethodAuto gives two
// convex models first does not depend on the kind of tree. It returns a Choice: per
// query mode (first contact, all pairs), the kind that measured fastest
// and its two models, plain collide models that the queries then use as
// any other, as fast as models built with that kind; the trees of the
// kinds that lost are dropped, and when both modes chose the same kind
// they share the same two models.
//
//	choice, err := auto.Choose(auto.Source{Mesh: room}, auto.Source{Mesh: tool}, auto.Options{Poses: path})
//	...
//	m := choice.For(all) // the kind and the two models chosen for the queries' mode
//	res, err := collide.Check(m.Env, m.Fly, pose, collide.QueryOptions{All: all})
//
// The choice is explicit: nothing is chosen inside a query, and a built
// collide.Model stays what it was built as. The price is the build: Choose
// builds every candidate (about the sum of their builds, OBB trees the
// slowest; see the README) and then times their queries within a budget
// of about 0.4 s plus 2 µs per triangle of the two models. ChooseContext
// gives that up when its context is done (a user's Ctrl-C, a deadline),
// while it waits for a build (left to end on its own goroutine, its tree
// dropped) or between two timed blocks of queries.
//
// # Semantics
//
// The chosen models answer every query exactly as models of any other
// kind do (the choice changes the time of a query, never its answer).
// The probes, and the counts of the queries at them (CandidateCost), are
// a function of the models and of Options.Seed or Options.Poses; the
// times are measured, so two kinds whose times are within a few percent
// of each other may be chosen differently from one run to the next, while
// one clearly faster at the probes is chosen every time. A fake clock
// (Options.Clock) makes the choice a function of the models too (tests).
//
// # Memory
//
// Choose builds the 18-DOP tree of a model given as a mesh first (the
// fastest to build; two models given as meshes find the probes with
// them), then the other candidates one at a time, each timed against the
// best so far, and drops each loser as soon as it has lost, so that at
// most four trees of a model (the best so far for each mode, the one timed
// against them, and the 18-DOP tree until its turn) are held at once while
// choosing. A Choice holds the trees chosen (one kind, or two when the
// modes chose differently) and no other.
package auto
