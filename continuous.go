package collide

import (
	"github.com/collide3d/collide/bvh"
	"github.com/collide3d/collide/ccd"
	"github.com/collide3d/collide/geom"
)

// TOIResult is the answer of a continuous query (TimeOfImpact).
type TOIResult struct {
	// Hit says that the flying model touches the environment at some time
	// of the motion; TOI then holds the earliest such time, t in [0, 1]
	// (0 at From, 1 at To), within an interval of width at most
	// ccd.MaxWidth, and Pair two triangles that touch at a time within
	// it.
	Hit  bool
	TOI  ccd.Interval
	Pair Pair
	// Maybe says, for a rotating motion only, that no contact is proved
	// before TOI.Lo nor ruled out after it: the models pass within
	// rounding of each other there (see TimeOfImpact). Hit is then false.
	Maybe bool
	Stats Stats
}

// TimeOfImpact returns the earliest time at which fly, moving from pose
// from to pose to, touches env. It is safe to call from many goroutines
// on the same models. The errors are those of Check (for both poses).
func TimeOfImpact(env, fly *Model, from, to geom.Pose) (TOIResult, error) {
	q := queryPool.Get().(*Query)
	r, err := q.TimeOfImpact(env, fly, from, to)
	queryPool.Put(q)
	return r, err
}

// TimeOfImpact is like the function TimeOfImpact, with q's scratch state.
func (q *Query) TimeOfImpact(env, fly *Model, from, to geom.Pose) (TOIResult, error) {
	// STUB: being written.
	_ = bvh.Pair{}
	return TOIResult{}, nil
}
