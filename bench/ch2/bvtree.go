package ch2

import (
	"github.com/collide3d/collide"
	"github.com/collide3d/collide/geom"
)

// BVTree is collide's own method beside the chapter's: the environment's
// and the flying object's trees of k-DOPs (collide.Build with bv), queried
// with collide's Query in first-contact mode. It needs no Frame's
// triangles, only its pose: the tree moves the flying model's volumes, and
// its triangles when it tests them.
type BVTree struct {
	env, fly *collide.Model
	q        collide.Query
}

// NewBVTree builds the trees of the environment's and the flying model's
// meshes.
func NewBVTree(env, fly *collide.Model) *BVTree { return &BVTree{env: env, fly: fly} }

// Reset forgets the last contact (which the next first-contact query tests
// first).
func (b *BVTree) Reset() { b.q.Forget() }

// Collide is the tree's first-contact query at f.Pose.
func (b *BVTree) Collide(f *Frame, c *Counts) bool {
	r, err := b.q.Collide(b.env, geom.Pose{}, b.fly, f.Pose, collide.QueryOptions{})
	if err != nil {
		panic(err) // the models are built and the poses rotations: a bug
	}
	c.BoxTests += r.Stats.BVTests
	c.TriTests += r.Stats.TriTests
	if r.Stats.TriTests > 0 {
		c.FullRes++
	}
	return r.Collide
}
