// Package boundsonly is a broad phase that finds no pairs: a world with it
// bounds its moved objects and does nothing else, which is what the
// experiments time or trace when they want a world's boxes alone.
package boundsonly

import (
	"github.com/collide3d/collide/broad"
	"github.com/collide3d/collide/geom"
)

// Phase is a broad phase that keeps a count of its objects and finds no
// pairs.
type Phase struct{ n int }

// New returns a new Phase, as world.Options.Broad wants it.
func New() broad.Phase { return &Phase{} }

// Add counts an object.
func (b *Phase) Add(int32, geom.AABB, bool) { b.n++ }

// Move does nothing.
func (b *Phase) Move(int32, geom.AABB) {}

// Remove counts an object less.
func (b *Phase) Remove(int32) { b.n-- }

// Pairs finds no pairs.
func (b *Phase) Pairs(func(a, b int32) bool) {}

// Len returns the count of objects.
func (b *Phase) Len() int { return b.n }

var _ broad.Phase = (*Phase)(nil)
