package world_test

import (
	"github.com/collide3d/collide/broad"
	"github.com/collide3d/collide/geom"
)

type broadPhase = broad.Phase

// nop is a broad phase that reports nothing.
type nop struct{}

func (nop) Add(int32, geom.AABB, bool)  {}
func (nop) Move(int32, geom.AABB)       {}
func (nop) Remove(int32)                {}
func (nop) Pairs(func(a, b int32) bool) {}
func (nop) Len() int                    { return 0 }
