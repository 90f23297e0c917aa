package collide

import "github.com/collide3d/collide/geom"

// Relative is relative, for the tests: fly's pose in env's frame.
func Relative(envPose, flyPose geom.Pose) geom.Pose { return relative(envPose, flyPose) }

// IterStats returns the counts of the last query a Pairs iterator of q ran.
func (q *Query) IterStats() Stats { return q.iterStats }
