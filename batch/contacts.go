package batch

import (
	"context"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/geom"
)

// PoseContact is the contact geometry of one pair of triangles at the pose
// of index Pose: collide.Contact, its Points and Features the batch's own
// (they stay valid).
type PoseContact struct {
	Pose int32
	collide.Contact
}

// Contacts computes, at each of flyPoses, the contacts of fly with env at
// envPose, and appends them to dst: each pose's Result.Contacts of the
// single query collide.Collide with QueryOptions{All: o.All, Eps: o.Eps,
// Contacts: true}, in its order (that of Result.Pairs, collide.ComparePairs),
// the poses in order; the contacts of every pair in contact with o.All,
// else of the first pair found at each pose that collides (the pairs of
// Check with the same options). Errors as Check's.
func Contacts(ctx context.Context, env *collide.Model, envPose geom.Pose, fly *collide.Model, flyPoses []geom.Pose, o Options, dst []PoseContact) ([]PoseContact, error) {
	if err := start(ctx, env, envPose, fly, flyPoses, "pose", o.Eps); err != nil {
		return dst, err
	}
	qo := collide.QueryOptions{All: o.All, Eps: o.Eps, Contacts: true}
	b := newRun(len(flyPoses), o.Workers, "pose")
	// Each worker copies the points and features to its own buffers (a
	// buffer that grows leaves the earlier contacts' slices in the old
	// array, unchanged).
	return gather(ctx, b, dst, func() func(*collide.Query, int, []PoseContact) ([]PoseContact, error) {
		var pts []geom.Vec3
		var feats [][2]geom.Feature
		return func(q *collide.Query, i int, list []PoseContact) ([]PoseContact, error) {
			q.Forget()
			r, err := q.Collide(env, envPose, fly, flyPoses[i], qo)
			if err != nil {
				return list, err
			}
			for _, c := range r.Contacts {
				c.Points, pts = own(c.Points, pts)
				c.Features, feats = own(c.Features, feats)
				list = append(list, PoseContact{Pose: int32(i), Contact: c})
			}
			return list, nil
		}
	})
}

// own appends s to buf and returns the copy (nil for nil s: a contact
// without features keeps none) and the buffer.
func own[T any](s, buf []T) ([]T, []T) {
	if s == nil {
		return nil, buf
	}
	i := len(buf)
	buf = append(buf, s...)
	return buf[i:len(buf):len(buf)], buf
}
