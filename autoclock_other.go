//go:build !linux

package collide

import "time"

// clock returns the wall clock (on Linux, the thread's CPU time).
func clock() time.Duration { return wallClock() }
