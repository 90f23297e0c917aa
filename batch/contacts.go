package batch

import (
	"context"
	"slices"

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
	// Each worker appends to its own list, the points and features to its
	// own buffers (a buffer that grows leaves the earlier contacts' slices
	// in the old array, unchanged), and records for each chunk it ran
	// where its contacts are; the lists are merged by chunk.
	type span struct{ worker, lo, hi int }
	spans := make([]span, b.chunks())
	lists := make([][]PoseContact, b.workers)
	b.parallel(ctx, func(w int, next func() (int, int, bool)) {
		q := getQuery()
		defer putQuery(q)
		var list []PoseContact
		var pts []geom.Vec3
		var feats [][2]geom.Feature
		for {
			lo, hi, ok := next()
			if !ok {
				break
			}
			start := len(list)
			for i := lo; i < hi; i++ {
				q.Forget()
				r, e := q.Collide(env, envPose, fly, flyPoses[i], qo)
				if e != nil {
					b.fail(i, e)
					break
				}
				for _, c := range r.Contacts {
					c.Points, pts = own(c.Points, pts)
					c.Features, feats = own(c.Features, feats)
					list = append(list, PoseContact{Pose: int32(i), Contact: c})
				}
			}
			spans[lo/b.chunk] = span{w, start, len(list)}
		}
		lists[w] = list
	})
	if err := b.err(ctx); err != nil {
		return dst, err
	}
	n := 0
	for _, l := range lists {
		n += len(l)
	}
	dst = slices.Grow(dst, n)
	for _, s := range spans {
		dst = append(dst, lists[s.worker][s.lo:s.hi]...)
	}
	return dst, nil
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
