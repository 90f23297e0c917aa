// Package batch runs one kind of query at many poses in one call, on every
// core: the call a binding from another language (the C library
// cmd/libcollide, the Python package) makes once for N poses instead of N
// times, and what a Go program validating a motion's samples wants too.
//
// # Semantics
//
// Each pose's answer is exactly the answer of the single call at that
// pose (collide.Query.Collide, DistanceBetween, Impact): the batch only
// spreads the poses over workers, each with its own collide.Query, and
// puts the answers back in pose order. A batch allocates nothing per pose
// beyond the pairs it returns.
//
// A bad pose is reported as an *Error naming its index, before any query
// runs. A cancelled context stops the batch between poses with ctx.Err().
package batch

import (
	"context"
	"fmt"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/geom"
)

// Options configures a batch. The zero value asks for the first contact at
// each pose, exactly, on every core.
type Options struct {
	// All asks for every pair in contact at each pose; otherwise each
	// pose's query stops at its first pair.
	All bool
	// Eps ≥ 0 is the tolerance (collide.QueryOptions.Eps).
	Eps float64
	// Workers is the number of goroutines: 0 is runtime.GOMAXPROCS(0).
	Workers int
}

// Pair is a pair of triangles in contact at the pose of index Pose.
type Pair struct {
	Pose     int32
	Env, Fly int32
}

// Error is a bad pose of a batch: Index is its index in the poses given.
type Error struct {
	What  string // "pose", "from pose", "to pose"
	Index int
	Err   error
}

func (e *Error) Error() string { return fmt.Sprintf("%s %d: %v", e.What, e.Index, e.Err) }

func (e *Error) Unwrap() error { return e.Err }

// Check tests fly at each of flyPoses against env at envPose. It sets
// hits[i] (len(hits) must be len(flyPoses)) to whether they touch at
// flyPoses[i], and appends to pairs the pairs in contact, ordered by pose
// and then by collide.ComparePairs: every pair with o.All, else the first
// the query found at each pose that collides (Result.Pairs of the single
// query).
func Check(ctx context.Context, env *collide.Model, envPose geom.Pose, fly *collide.Model, flyPoses []geom.Pose, o Options, hits []bool, pairs []Pair) ([]Pair, error) {
	panic("TODO")
}

// Distance sets out[i] (len(out) must be len(flyPoses)) to
// collide.DistanceBetween's answer at flyPoses[i], with o's Max and
// Budget; its Workers as Options.Workers.
func Distance(ctx context.Context, env *collide.Model, envPose geom.Pose, fly *collide.Model, flyPoses []geom.Pose, o collide.DistanceOptions, workers int, out []collide.DistanceResult) error {
	panic("TODO")
}

// Impact sets out[i] (len(out) must be len(from) and len(to)) to
// collide.Impact's answer for the motion of fly from from[i] to to[i].
func Impact(ctx context.Context, env *collide.Model, envPose geom.Pose, fly *collide.Model, from, to []geom.Pose, o collide.TOIOptions, workers int, out []collide.TOIResult) error {
	panic("TODO")
}
